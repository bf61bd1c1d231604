package meters

import (
	"errors"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/openegm/cabinet/aft"
)

// A transaction ID is money once, forever: the ledger refuses a second
// completed transfer under an ID that left the AFT history long ago, live,
// after a restart from a sealed snapshot, and the refold of the log (the
// inspector's) keeps the seals verifying with the retired IDs in them.
func TestLedgerRefusesAnAFTIDBeyondTheHistory(t *testing.T) {
	dir := t.TempDir()
	opts := Options{SnapshotEvery: 50}
	l, _, err := Open(dir, opts)
	if err != nil {
		t.Fatal(err)
	}
	const n = aft.MaxHistory + 13
	var first AFTTransfer
	for i := range n {
		r := aftRec(l.state, fmt.Sprintf("ID-%d", i), aft.InHouseToMachine, 100)
		if i == 0 {
			first = r
		}
		if err := l.Commit(r); err != nil {
			t.Fatalf("transfer %d: %v", i, err)
		}
	}
	// The first transfer again, at the history position it would take:
	// a replayed record, lawful in every other way.
	replay := func(s *State) AFTTransfer {
		r := first
		r.Transfer.Position = s.AFT.NextPosition()
		return r
	}
	if _, err := l.State().Next(replay(l.State())); err == nil || !strings.Contains(err.Error(), "committed twice") {
		t.Fatalf("live: the fold took ID-0 twice: %v", err)
	}
	if got := l.State().AFT.Retired.Len(); got != n-aft.MaxHistory {
		t.Fatalf("%d IDs retired, want %d", got, n-aft.MaxHistory)
	}
	l.Close()

	l, info, err := Open(dir, opts)
	if err != nil {
		t.Fatal(err)
	}
	if info.SnapshotSeq == 0 {
		t.Fatalf("start-up did not use a snapshot: %+v", info)
	}
	credits := l.Meter(Credits)
	err = l.Commit(replay(l.State()))
	var f *Fault
	if !errors.As(err, &f) || !strings.Contains(err.Error(), `"ID-0" committed twice`) {
		t.Fatalf("after the snapshot: the ledger took ID-0 twice: %v", err)
	}
	l.Close()

	st, v, err := Read(dir, nil)
	if err != nil {
		t.Fatal(err)
	}
	if v.Seals == 0 || st.Get(Credits) != credits || credits != n*100 {
		t.Fatalf("refold: %d seals, credits %d (live %d)", v.Seals, st.Get(Credits), credits)
	}
	for _, p := range v.Problems {
		if !strings.Contains(p, "no registered public key") {
			t.Fatalf("verification: %s", p)
		}
	}
	once := 0
	if err := Records(filepath.Join(dir), func(_ uint64, r Record) error {
		if t, ok := r.(AFTTransfer); ok && t.Transfer.ID == "ID-0" {
			once++
		}
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	if once != 1 {
		t.Fatalf("%d records of ID-0", once)
	}
}
