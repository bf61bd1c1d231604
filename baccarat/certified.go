package baccarat

import (
	"crypto/ed25519"
	"encoding/hex"

	"github.com/openegm/cabinet/reels"
	"golang.org/x/crypto/blake2b"
)

// Certified is a table definition the cabinet may deal: signed by a trusted
// certification key (the same keys, signature format and code as the
// paytables), valid, and with every bet's return recomputed and at least
// 80%.
type Certified struct {
	*Definition
	KeyID   string
	Digest  string // BLAKE2b-256 of the file, hex, for the inspector
	Figures *Figures
}

// LoadCertified is how the cabinet loads a table definition: signature
// first, then the strict parse, then the exact figures recomputed from the
// file (the lab's figures are not taken on trust).
func LoadCertified(name string, data, sig []byte, trusted []ed25519.PublicKey) (*Certified, error) {
	id, err := reels.Verify(name, data, sig, trusted)
	if err != nil {
		return nil, err
	}
	d, err := Parse(name, data)
	if err != nil {
		return nil, err
	}
	f, err := d.Exact()
	if err != nil {
		return nil, err
	}
	if err := f.Check(d); err != nil {
		return nil, err
	}
	sum := blake2b.Sum256(data)
	return &Certified{Definition: d, KeyID: id, Digest: hex.EncodeToString(sum[:]), Figures: f}, nil
}
