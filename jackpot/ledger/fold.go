// The fold's entry: one record in, its type's fold, the result; and the
// helpers every fold shares.

package ledger

import (
	"fmt"
	"math"
	"slices"
	"sort"
)

func (t *txn) foldAll(recs []Record) ([]Result, error) {
	out := make([]Result, len(recs))
	for i, r := range recs {
		res, err := t.fold(r)
		if err != nil {
			return nil, &IndexError{Index: i, Err: err}
		}
		out[i] = res
	}
	return out, nil
}

// IndexError names the record of a batch that was refused.
type IndexError struct {
	Index int
	Err   error
}

func (e *IndexError) Error() string { return fmt.Sprintf("batch entry %d: %v", e.Index, e.Err) }
func (e *IndexError) Unwrap() error { return e.Err }

// fold applies one record.
func (t *txn) fold(r Record) (Result, error) {
	if r == nil {
		return Result{}, bad("nil record")
	}
	if err := r.validate(); err != nil {
		return Result{}, fmt.Errorf("%v: %w", r.Type(), err)
	}
	res := Result{Type: r.Type()}
	var err error
	switch r := r.(type) {
	case SetupLevel:
		err = t.setupLevel(r, &res)
	case SetupShared:
		err = t.setupShared(r)
	case SetupMachine:
		err = t.setupMachine(r)
	case Meters:
		err = t.meters(r, &res)
	case Rebase:
		err = t.rebase(r, &res)
	case Hit:
		err = t.hit(r, &res)
	case Award:
		err = t.award(r, &res)
	case Confirmed:
		err = t.confirmed(r, &res)
	case Fund:
		err = t.fund(r, &res)
	case Transfer:
		err = t.transfer(r, &res)
	case SuperBatch:
		err = t.superBatch(r, &res)
	case SuperApplied:
		err = t.superApplied(r, &res)
	case SuperClaim:
		err = t.superClaim(r, &res)
	case SuperClaimed:
		err = t.superClaimed(r, &res)
	case Event:
		t.s.events = keepLast(append(slices.Clip(t.s.events), r), eventsKept)
	default:
		err = bad("unsupported record %T (records are values, not pointers)", r)
	}
	if err != nil {
		return Result{}, fmt.Errorf("%v: %w", r.Type(), err)
	}
	if !res.Repeat {
		t.s.records++
		t.s.counts[r.Type()]++
	}
	return res, nil
}

func keepLast[T any](s []T, n int) []T {
	if len(s) > n {
		return slices.Clone(s[len(s)-n:])
	}
	return s
}

// add returns a+b for non-negative amounts, or false on an overflow.
func add(a, b int64) (int64, bool) {
	if b > math.MaxInt64-a {
		return 0, false
	}
	return a + b, true
}

func tooLarge(what string, a, b int64) error {
	return fmt.Errorf("%s: %d + %d: %w", what, a, b, ErrTooLarge)
}

// sortedKeys returns the keys of a map in order (for deterministic errors).
func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}
