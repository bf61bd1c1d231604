package walog

import (
	"bytes"
	"crypto/ed25519"
	"crypto/rand"
	"encoding/base64"
	"encoding/hex"
	"errors"
	"fmt"
	"os"

	"github.com/openegm/cabinet/internal/atomicfile"
	"golang.org/x/crypto/blake2b"
)

// ErrKey marks a checkpoint key that cannot be used: damaged, or missing
// while its log exists. Such a log cannot be continued, because new
// checkpoints would be signed by a key the inspector never recorded.
var ErrKey = errors.New("checkpoint key unusable")

// KeyID names a checkpoint key: the first 8 bytes of its BLAKE2b-256, in
// hex.
func KeyID(pub ed25519.PublicKey) string {
	h := blake2b.Sum256(pub)
	return hex.EncodeToString(h[:8])
}

// LoadOrCreateKey loads the Ed25519 key (its seed in keyPath) that signs
// the checkpoints of the log in logDir, creating it and its public half
// (base64, one line, in pubPath) when neither the key nor the log exists yet.
// what names the key in errors ("machine key", "controller key").
func LoadOrCreateKey(keyPath, pubPath, logDir, what string) (ed25519.PrivateKey, error) {
	data, err := os.ReadFile(keyPath)
	if err == nil {
		if len(data) != ed25519.SeedSize {
			return nil, fmt.Errorf("%w: %s: damaged %s (%d bytes)", ErrKey, keyPath, what, len(data))
		}
		return ed25519.NewKeyFromSeed(data), nil
	}
	if !errors.Is(err, os.ErrNotExist) {
		return nil, err
	}
	if entries, _ := os.ReadDir(logDir); len(entries) > 0 {
		return nil, fmt.Errorf("%w: %s is missing but the log exists", ErrKey, keyPath)
	}
	pub, priv, err := ed25519.GenerateKey(rand.Reader)
	if err != nil {
		return nil, err
	}
	if err := atomicfile.Write(keyPath, priv.Seed(), 0o600); err != nil {
		return nil, err
	}
	// One line of base64, the encoding of every public key of the project
	// (the paytable keys' too); ReadPublicKey also reads the older hex.
	if err := atomicfile.Write(pubPath, []byte(base64.StdEncoding.EncodeToString(pub)+"\n"), 0o644); err != nil {
		return nil, err
	}
	return priv, nil
}

// ReadPublicKey reads a public key file written by LoadOrCreateKey: one
// line of base64, or of hex as keys were written before.
func ReadPublicKey(path, what string) (ed25519.PublicKey, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	raw, err := DecodePublicKey(data)
	if err != nil {
		return nil, fmt.Errorf("%s: not a %s public key: %w", path, what, err)
	}
	return raw, nil
}

// DecodePublicKey decodes an Ed25519 public key written as one line of
// base64 (every key of the project) or of hex (machine keys before).
func DecodePublicKey(data []byte) (ed25519.PublicKey, error) {
	s := string(bytes.TrimSpace(data))
	if raw, err := base64.StdEncoding.Strict().DecodeString(s); err == nil && len(raw) == ed25519.PublicKeySize {
		return ed25519.PublicKey(raw), nil
	}
	if raw, err := hex.DecodeString(s); err == nil && len(raw) == ed25519.PublicKeySize {
		return ed25519.PublicKey(raw), nil
	}
	return nil, fmt.Errorf("want one line of base64 (or %d hex digits) holding %d bytes", 2*ed25519.PublicKeySize, ed25519.PublicKeySize)
}
