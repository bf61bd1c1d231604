package meters

import (
	"encoding/json"
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

// A ledger a build before the retired IDs left (its seals and snapshots
// without them): the inspector's refold still verifies every seal, the
// machine starting from its snapshot rebuilds the retired IDs from the log
// and refuses an old ID, and its next seals hold them.
func TestLedgerOfAnEarlierBuildKeepsItsAFTIDs(t *testing.T) {
	dir := t.TempDir()
	opts := Options{SnapshotEvery: 50}
	encodeAsEarlierBuild = true
	defer func() { encodeAsEarlierBuild = false }()
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
	l.Close()
	encodeAsEarlierBuild = false

	verify := func(when string, earlier bool) *State {
		t.Helper()
		st, v, err := Read(dir, nil)
		if err != nil {
			t.Fatalf("%s: %v", when, err)
		}
		for _, p := range v.Problems {
			if !strings.Contains(p, "no registered public key") {
				t.Fatalf("%s: verification: %s", when, p)
			}
		}
		if v.Seals == 0 || (v.EarlierSeals > 0) != earlier || v.EarlierSeals > v.Seals {
			t.Fatalf("%s: %d seals, %d of them of the earlier build", when, v.Seals, v.EarlierSeals)
		}
		return st
	}
	folded := verify("the earlier build's ledger", true)
	if folded.AFT.Retired.Len() != n-aft.MaxHistory {
		t.Fatalf("refold: %d IDs retired", folded.AFT.Retired.Len())
	}

	l, info, err := Open(dir, opts)
	if err != nil {
		t.Fatal(err)
	}
	if info.SnapshotSeq == 0 {
		t.Fatalf("start-up did not use a snapshot: %+v", info)
	}
	if got := l.State().AFT.Retired.Len(); got != n-aft.MaxHistory || l.State().aftEarlier {
		t.Fatalf("after start-up: %d IDs retired, want %d", got, n-aft.MaxHistory)
	}
	dup := first
	dup.Transfer.Position = l.State().AFT.NextPosition()
	if _, err := l.State().Next(dup); err == nil || !strings.Contains(err.Error(), "committed twice") {
		t.Fatalf("the ledger took ID-0 twice: %v", err)
	}
	for i := n; i < n+60; i++ { // a seal of this build
		if err := l.Commit(aftRec(l.state, fmt.Sprintf("ID-%d", i), aft.InHouseToMachine, 100)); err != nil {
			t.Fatal(err)
		}
	}
	live, _ := json.Marshal(l.State().AFT)
	credits := l.Meter(Credits)
	l.Close()
	folded = verify("after this build's seals", true)
	if got, _ := json.Marshal(folded.AFT); string(got) != string(live) || folded.Get(Credits) != credits {
		t.Fatal("the refold's AFT state or credits differ from the live ones")
	}
	// This build's seal is held to the retired IDs: one the machine did
	// not have would not verify as the earlier build's.
	l, _, err = Open(dir, opts)
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	if !strings.Contains(stateJSON(t, l.State()), `"retired_ids":"`) {
		t.Fatal("this build's snapshot holds no retired IDs")
	}
}
