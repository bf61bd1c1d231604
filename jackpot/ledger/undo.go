// The transaction a fold runs in: what it changed, so that a refused record
// or a failed append leaves the state as it was.

package ledger

import (
	"github.com/openegm/cabinet/jackpot"
)

// txn folds records in place and keeps what is needed to undo them: a
// copy of the pools before the first op (jackpot's Clone is cheap: claims
// and histories are copy-on-write), and the previous value of every map
// entry and counter it changed. The ledger holds a txn open across the
// append, so a failed write restores the state as well.
type txn struct {
	s           *State
	undo        []func()
	poolsBefore *jackpot.Pools // the pools before the first op (Clone)
	records     uint64
	fed         int64
	counts      [lastType + 1]uint64
	events      []Event
	machines    []string // touched, to check at the end
	shared      []string
	claims      []string // shared levels whose claims tally changed: cross-checked with the machines
	touched     bool     // a jackpot op was applied
	noUndo      bool     // replay: a failure is a fault, nothing to restore
}

func (s *State) begin() *txn {
	return &txn{s: s, records: s.records, fed: s.fed, counts: s.counts, events: s.events}
}

func (t *txn) rollback() {
	for i := len(t.undo) - 1; i >= 0; i-- {
		t.undo[i]()
	}
	if t.poolsBefore != nil {
		t.s.pools = t.poolsBefore
	}
	t.s.records, t.s.fed, t.s.counts, t.s.events = t.records, t.fed, t.counts, t.events
	t.undo, t.poolsBefore = nil, nil
}

func (t *txn) setMachine(m Machine) {
	t.machines = append(t.machines, m.ID)
	setUndoable(t, t.s.machines, m.ID, m)
}

func (t *txn) setShared(sh Shared) {
	t.shared = append(t.shared, sh.Level)
	setUndoable(t, t.s.shared, sh.Level, sh)
}

// setUndoable puts v at k in m and, unless t keeps no undo, how to put back
// what was there (or its absence).
func setUndoable[K comparable, V any](t *txn, m map[K]V, k K, v V) {
	if !t.noUndo {
		old, had := m[k]
		t.undo = append(t.undo, func() {
			if had {
				m[k] = old
			} else {
				delete(m, k)
			}
		})
	}
	m[k] = v
}

// op applies one jackpot op; the first one saves the pools for rollback.
func (t *txn) op(o jackpot.Op) (jackpot.Result, error) {
	t.touched = true
	if t.poolsBefore == nil && !t.noUndo {
		t.poolsBefore = t.s.pools.Clone()
	}
	return t.s.pools.Apply(o)
}
