package book

import (
	"crypto"
	"crypto/ed25519"
	"crypto/rand"
	"encoding/base64"
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"github.com/openegm/cabinet/book/walog"
	"github.com/openegm/cabinet/internal/atomicfile"
)

// ErrKey marks a signing key that cannot be used: damaged, readable by
// others, or missing while the log it signs exists (a new key would sign
// checkpoints the inspector never registered).
var ErrKey = walog.ErrKey

// KeyStore holds the signing keys of a machine's ledgers apart from their
// data, so that whoever copies or edits the data directory does not hold
// the key that vouches for it. On a board the key lives in a secure element
// or TPM behind crypto.Signer; FileKeys is the simulator's store.
type KeyStore interface {
	// Signer returns the key called name. It is created only when create
	// is true (no log exists yet that an older key signed).
	Signer(name string, create bool) (crypto.Signer, error)
}

// FileKeys keeps keys as files in a directory of their own (mode 0700;
// each key 0600: its Ed25519 seed; beside it NAME.pub, the public key in
// base64, one line, which is what is registered at commissioning).
type FileKeys struct{ Dir string }

// Signer loads the key called name, or creates it when create is true and
// it does not exist. A key file that others may read is refused.
func (k FileKeys) Signer(name string, create bool) (crypto.Signer, error) {
	path := filepath.Join(k.Dir, name+".key")
	fi, err := os.Stat(path)
	switch {
	case err == nil:
		if fi.Mode().Perm()&0o077 != 0 {
			return nil, fmt.Errorf("%w: %s is readable by others (mode %v): a key store keeps its keys to itself", ErrKey, path, fi.Mode().Perm())
		}
		data, err := os.ReadFile(path)
		if err != nil {
			return nil, err
		}
		if len(data) != ed25519.SeedSize {
			return nil, fmt.Errorf("%w: %s: damaged %s key (%d bytes)", ErrKey, path, name, len(data))
		}
		return ed25519.NewKeyFromSeed(data), nil
	case !errors.Is(err, os.ErrNotExist):
		return nil, err
	case !create:
		return nil, fmt.Errorf("%w: %s is missing but the log it signs exists", ErrKey, path)
	}
	if err := os.MkdirAll(k.Dir, 0o700); err != nil {
		return nil, err
	}
	_, priv, err := ed25519.GenerateKey(rand.Reader)
	if err != nil {
		return nil, err
	}
	if err := k.write(name, priv); err != nil {
		return nil, err
	}
	return priv, nil
}

func (k FileKeys) write(name string, priv ed25519.PrivateKey) error {
	if err := os.MkdirAll(k.Dir, 0o700); err != nil {
		return err
	}
	if err := atomicfile.Write(filepath.Join(k.Dir, name+".key"), priv.Seed(), 0o600); err != nil {
		return err
	}
	// One line of base64, the encoding of every public key of the project.
	pub := priv.Public().(ed25519.PublicKey)
	return atomicfile.Write(filepath.Join(k.Dir, name+".pub"), []byte(base64.StdEncoding.EncodeToString(pub)+"\n"), 0o644)
}

// Adopt moves a key kept by an earlier version inside the data directory
// (oldKey) into the store under name, and removes it from the data, so it
// no longer travels with it. It does nothing when the store has the key or
// there is no old key.
func (k FileKeys) Adopt(name, oldKey string) (moved bool, err error) {
	if _, err := os.Stat(filepath.Join(k.Dir, name+".key")); err == nil {
		return false, nil
	}
	data, err := os.ReadFile(oldKey)
	if errors.Is(err, os.ErrNotExist) {
		return false, nil
	}
	if err != nil {
		return false, err
	}
	if len(data) != ed25519.SeedSize {
		return false, fmt.Errorf("%w: %s: damaged key (%d bytes)", ErrKey, oldKey, len(data))
	}
	if err := k.write(name, ed25519.NewKeyFromSeed(data)); err != nil {
		return false, err
	}
	if err := os.Remove(oldKey); err != nil {
		return true, err
	}
	return true, atomicfile.SyncDir(filepath.Dir(oldKey))
}

// PublicKey is a signer's Ed25519 public key.
func PublicKey(s crypto.Signer) (ed25519.PublicKey, error) {
	pub, ok := s.Public().(ed25519.PublicKey)
	if !ok || len(pub) != ed25519.PublicKeySize {
		return nil, fmt.Errorf("%w: not an Ed25519 key", ErrKey)
	}
	return pub, nil
}

// KeyID names a key: the first 8 bytes of its BLAKE2b-256, in hex.
func KeyID(pub ed25519.PublicKey) string { return walog.KeyID(pub) }

// ReadPublicKey reads a public key file (one line of base64, or of hex as
// older machines wrote it): the key an inspector registered at
// commissioning.
func ReadPublicKey(path string) (ed25519.PublicKey, error) {
	return walog.ReadPublicKey(path, "public")
}

// sign signs msg with s (Ed25519 signs the message itself: no hash).
func sign(s crypto.Signer, msg []byte) ([]byte, error) {
	sig, err := s.Sign(nil, msg, crypto.Hash(0))
	if err == nil && len(sig) != ed25519.SignatureSize {
		err = fmt.Errorf("signature of %d bytes, not an Ed25519 one", len(sig))
	}
	return sig, err
}
