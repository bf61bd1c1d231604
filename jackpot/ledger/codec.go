package ledger

import (
	"bytes"
	"encoding/json"
	"fmt"
)

// stateDoc is the JSON form of a State (snapshots, tests): the pools in
// jackpot's canonical binary encoding, the rest as it is kept.
type stateDoc struct {
	Pools    []byte    `json:"pools"`
	Shared   []Shared  `json:"shared"`
	Machines []Machine `json:"machines"`
	Records  uint64    `json:"records"`
	Fed      int64     `json:"fed"`
	// Counts are the records by type, without the trailing zeros: a
	// record type a later build adds is a zero every earlier state ends
	// with, so their encoding (and seals) stay as they were.
	Counts []uint64 `json:"counts"`
	Events []Event  `json:"events"`
}

// MarshalJSON encodes the state canonically: machines by ID, shared levels
// by name. It fails if the state does not pass Check.
func (s *State) MarshalJSON() ([]byte, error) {
	if err := s.Check(); err != nil {
		return nil, err
	}
	pools, err := s.pools.MarshalBinary()
	if err != nil {
		return nil, err
	}
	return json.Marshal(stateDoc{Pools: pools, Shared: s.SharedLevels(), Machines: s.Machines(),
		Records: s.records, Fed: s.fed, Counts: trimZeros(s.counts[:]), Events: s.events})
}

// UnmarshalJSON replaces the state with the decoded one, strictly: unknown
// fields, a state that fails Check and any encoding other than the one
// MarshalJSON produces are errors. On error s is unchanged.
func (s *State) UnmarshalJSON(data []byte) error {
	var d stateDoc
	if err := strictJSON(data, &d); err != nil {
		return fmt.Errorf("link ledger state: %w", err)
	}
	q := NewState()
	if err := q.pools.UnmarshalBinary(d.Pools); err != nil {
		return fmt.Errorf("link ledger state: %w", err)
	}
	for _, sh := range d.Shared {
		if _, dup := q.shared[sh.Level]; dup {
			return fmt.Errorf("link ledger state: %w: shared level %q twice", ErrInvariant, sh.Level)
		}
		q.shared[sh.Level] = sh
	}
	for _, m := range d.Machines {
		if _, dup := q.machines[m.ID]; dup {
			return fmt.Errorf("link ledger state: %w: machine %q twice", ErrInvariant, m.ID)
		}
		q.machines[m.ID] = m
	}
	if len(d.Counts) > len(q.counts) {
		return fmt.Errorf("link ledger state: %w: %d record counts, this build knows %d record types (a state of a later build?)", ErrInvariant, len(d.Counts), len(q.counts))
	}
	copy(q.counts[:], d.Counts)
	q.records, q.fed, q.events = d.Records, d.Fed, d.Events
	if err := q.Check(); err != nil {
		return fmt.Errorf("link ledger state: %w", err)
	}
	if enc, err := json.Marshal(q); err != nil || !bytes.Equal(enc, data) {
		return fmt.Errorf("link ledger state: %w", bad("not the canonical encoding"))
	}
	*s = *q
	return nil
}

// trimZeros is c without its trailing zeros.
func trimZeros(c []uint64) []uint64 {
	for len(c) > 0 && c[len(c)-1] == 0 {
		c = c[:len(c)-1]
	}
	return c
}
