package assets

import (
	"bytes"
	"encoding/hex"
	"encoding/json"
	"fmt"

	"github.com/openegm/cabinet/reels"
)

// Approved is a list of program images a certification lab approved: their
// BLAKE2b-256 hashes, signed like a paytable (a detached Ed25519 signature
// over the file's exact bytes by a trusted certification key). A program
// cannot carry its own approval (its hash would change), so the list is a
// file beside the program: DATA/approved-programs.json and its .sig.
type Approved struct {
	Programs []ApprovedProgram `json:"programs"`
	KeyID    string            `json:"-"` // the key that signed the list
}

// ApprovedProgram is one approved image.
type ApprovedProgram struct {
	Hash string `json:"hash"` // BLAKE2b-256 of the image, 64 hex digits
	Name string `json:"name"` // what the lab calls it, e.g. "cabinet 1.4.0 amd64"
}

// ParseApproved verifies the list's signature against the built-in keys,
// then parses it strictly; errors name the file.
func ParseApproved(name string, data, sig []byte) (*Approved, error) {
	keyID, err := reels.Verify(name, data, sig, TrustedKeys())
	if err != nil {
		return nil, err
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	var a Approved
	if err := dec.Decode(&a); err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	if dec.More() {
		return nil, fmt.Errorf("%s: data after the list", name)
	}
	if len(a.Programs) == 0 {
		return nil, fmt.Errorf("%s: approves no program", name)
	}
	for i, p := range a.Programs {
		if b, err := hex.DecodeString(p.Hash); err != nil || len(b) != 32 || hex.EncodeToString(b) != p.Hash {
			return nil, fmt.Errorf("%s: programs[%d]: hash %q is not 64 lower-case hex digits", name, i, p.Hash)
		}
		if p.Name == "" {
			return nil, fmt.Errorf("%s: programs[%d]: no name", name, i)
		}
	}
	a.KeyID = keyID
	return &a, nil
}

// Approves returns the approved program with hash, if listed.
func (a *Approved) Approves(hash string) (ApprovedProgram, bool) {
	for _, p := range a.Programs {
		if p.Hash == hash {
			return p, true
		}
	}
	return ApprovedProgram{}, false
}
