package reels

import (
	"bytes"
	"crypto/ed25519"
	"encoding/base64"
	"encoding/hex"
	"fmt"
	"math/big"

	"golang.org/x/crypto/blake2b"
)

// Sign returns the detached signature of a paytable file as spec/paytable.md
// stores it: base64 of the Ed25519 signature over the exact bytes, one line.
func Sign(priv ed25519.PrivateKey, data []byte) []byte {
	return []byte(base64.StdEncoding.EncodeToString(ed25519.Sign(priv, data)) + "\n")
}

// KeyID names a public key in messages and PAR sheets: the first 8 bytes of
// its BLAKE2b-256 hash, in hex.
func KeyID(pub ed25519.PublicKey) string {
	h := blake2b.Sum256(pub)
	return hex.EncodeToString(h[:8])
}

// Verify checks a detached signature against the trusted keys and returns
// the ID of the key that signed. Any byte changed in the file or the
// signature, or a key not in the list, is refused.
func Verify(name string, data, sig []byte, trusted []ed25519.PublicKey) (string, error) {
	if len(sig) == 0 {
		return "", &Error{File: name, Field: "(signature)", Rule: "missing: the cabinet runs only signed paytables (" + name + ".sig)"}
	}
	raw, err := base64.StdEncoding.Strict().DecodeString(string(bytes.TrimSuffix(sig, []byte("\n"))))
	if err != nil || len(raw) != ed25519.SignatureSize {
		return "", &Error{File: name, Field: "(signature)", Rule: "not a base64 Ed25519 signature on one line"}
	}
	if len(trusted) == 0 {
		return "", &Error{File: name, Field: "(signature)", Rule: "no certification key is built into this program"}
	}
	for _, k := range trusted {
		if ed25519.Verify(k, data, raw) {
			return KeyID(k), nil
		}
	}
	return "", &Error{File: name, Field: "(signature)", Rule: fmt.Sprintf("does not verify with any of the %d trusted certification keys: the file was changed after signing, or signed by an unknown key", len(trusted))}
}

// Certified is a paytable the cabinet may run: signed by a trusted key,
// valid, and with a recomputed return inside 80%-100% at every bet level.
type Certified struct {
	*Paytable
	KeyID  string
	Digest string     // BLAKE2b-256 of the file, hex, for the inspector
	RTP    []*big.Rat // exact base RTP per bet level
}

// LoadCertified is how the cabinet loads a paytable: signature first, then
// the strict parse, then the exact RTP recomputed from the file (the cabinet
// does not take the lab's figure on trust).
func LoadCertified(name string, data, sig []byte, trusted []ed25519.PublicKey) (*Certified, error) {
	id, err := Verify(name, data, sig, trusted)
	if err != nil {
		return nil, err
	}
	p, err := Parse(name, data)
	if err != nil {
		return nil, err
	}
	if err := p.CheckRTP(); err != nil {
		return nil, err
	}
	rtp, _ := p.RTP()
	sum := blake2b.Sum256(data)
	return &Certified{Paytable: p, KeyID: id, Digest: hex.EncodeToString(sum[:]), RTP: rtp}, nil
}

// Key files are one line of base64: the 32-byte public key (.pub) or the
// 64-byte private key (.key). Text, so a lab can print and compare them.

// EncodeKey renders a public or private key file.
func EncodeKey(key []byte) []byte {
	return []byte(base64.StdEncoding.EncodeToString(key) + "\n")
}

// ParsePublicKey reads a .pub file: one line of base64, or of hex (a
// cabinet's machine.pub written before keys had one encoding).
func ParsePublicKey(name string, data []byte) (ed25519.PublicKey, error) {
	s := string(bytes.TrimSpace(data))
	raw, err := base64.StdEncoding.Strict().DecodeString(s)
	if err != nil || len(raw) != ed25519.PublicKeySize {
		raw, err = hex.DecodeString(s)
	}
	if err != nil || len(raw) != ed25519.PublicKeySize {
		return nil, fmt.Errorf("%s: not an Ed25519 public key (one line of base64, %d bytes)", name, ed25519.PublicKeySize)
	}
	return ed25519.PublicKey(raw), nil
}

// ParsePrivateKey reads a .key file and checks that its two halves match.
func ParsePrivateKey(name string, data []byte) (ed25519.PrivateKey, error) {
	raw, err := base64.StdEncoding.Strict().DecodeString(string(bytes.TrimSpace(data)))
	if err != nil || len(raw) != ed25519.PrivateKeySize {
		return nil, fmt.Errorf("%s: not an Ed25519 private key (one line of base64, %d bytes)", name, ed25519.PrivateKeySize)
	}
	priv := ed25519.PrivateKey(raw)
	if !bytes.Equal(ed25519.NewKeyFromSeed(priv.Seed()), priv) {
		return nil, fmt.Errorf("%s: damaged private key: its public half does not match its seed", name)
	}
	return priv, nil
}
