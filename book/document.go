package book

import (
	"bytes"
	"crypto"
	"crypto/ed25519"
	"encoding/base64"
	"errors"
	"fmt"
)

// Signed documents (the reports an inspector reads) carry their signature
// in a file beside them (NAME.sig): the Ed25519 signature of the
// document's exact bytes, in base64, one line.

// ErrBadSignature is a document whose signature does not verify.
var ErrBadSignature = errors.New("the signature does not verify")

// SignDocument returns the signature file of doc signed by key.
func SignDocument(key crypto.Signer, doc []byte) ([]byte, error) {
	sig, err := sign(key, doc)
	if err != nil {
		return nil, err
	}
	return []byte(base64.StdEncoding.EncodeToString(sig) + "\n"), nil
}

// VerifyDocument checks a signature file against a document's exact bytes.
func VerifyDocument(doc, sigFile []byte, pub ed25519.PublicKey) error {
	if len(pub) != ed25519.PublicKeySize {
		return fmt.Errorf("public key is %d bytes, not %d", len(pub), ed25519.PublicKeySize)
	}
	raw, err := base64.StdEncoding.Strict().DecodeString(string(bytes.TrimSpace(sigFile)))
	if err != nil || len(raw) != ed25519.SignatureSize {
		return fmt.Errorf("the signature is not one line of base64 of %d bytes", ed25519.SignatureSize)
	}
	if !ed25519.Verify(pub, doc, raw) {
		return ErrBadSignature
	}
	return nil
}
