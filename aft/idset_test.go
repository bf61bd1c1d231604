package aft

import (
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"runtime"
	"strings"
	"testing"
	"time"
)

// The set keeps every ID it was given, leaves an earlier version as it
// was, and has one encoding whatever order the IDs came in.
func TestIDSetPersistentAndCanonical(t *testing.T) {
	var s IDSet
	versions := []IDSet{s}
	for i := range 1000 {
		s = s.With(fmt.Sprintf("ID-%d", i))
		versions = append(versions, s)
	}
	if s.Len() != 1000 || len(s.runs) > 11 {
		t.Fatalf("%d IDs in %d runs", s.Len(), len(s.runs))
	}
	for i := range 1000 {
		if !s.Has(fmt.Sprintf("ID-%d", i)) {
			t.Fatalf("ID-%d lost", i)
		}
	}
	if s.Has("ID-1000") || s.Has("") {
		t.Fatal("an ID never added is in the set")
	}
	// Version i holds the first i IDs and no other.
	for _, i := range []int{0, 1, 2, 3, 127, 128, 129, 511, 999} {
		v := versions[i]
		if v.Len() != i || (i > 0 && !v.Has(fmt.Sprintf("ID-%d", i-1))) || v.Has(fmt.Sprintf("ID-%d", i)) {
			t.Fatalf("version %d changed: %d IDs", i, v.Len())
		}
	}
	if again := s.With("ID-5"); again.Len() != 1000 {
		t.Fatalf("an ID added twice counts %d", again.Len())
	}
	// Reversed order, same encoding; a round trip keeps it.
	var r IDSet
	for i := 999; i >= 0; i-- {
		r = r.With(fmt.Sprintf("ID-%d", i))
	}
	a, _ := json.Marshal(s)
	b, _ := json.Marshal(r)
	if string(a) != string(b) || len(a) != 2+(8000+2)/3*4 {
		t.Fatalf("encodings differ or not 8 bytes an ID: %d and %d bytes", len(a), len(b))
	}
	var back IDSet
	if err := json.Unmarshal(a, &back); err != nil || back.Len() != 1000 || !back.Has("ID-0") || !back.Has("ID-999") {
		t.Fatalf("round trip: %d IDs, %v", back.Len(), err)
	}
	if c, _ := json.Marshal(back.With("X")); string(c) == string(a) {
		t.Fatal("an ID added after a round trip changed nothing")
	}
	// Only the canonical form is read: digests in increasing order.
	for _, bad := range []string{`"AAAAAAAAAA=="`, `"AAAAAAAAAAIAAAAAAAAAAQ=="`, `"AAAAAAAAAAEAAAAAAAAAAQ=="`, `"!"`, `3`} {
		if err := json.Unmarshal([]byte(bad), &back); err == nil {
			t.Fatalf("%s read", bad)
		}
	}
}

// An ID that completed long ago (out of the history's 127 places) is
// refused with 81 however the request comes back, identical or not, and
// after the state went through its encoding (a snapshot) too; the fold
// refuses a record under it. An ID still in the history is answered with
// its record, as before.
func TestRetiredIDRefusedForever(t *testing.T) {
	m := newMachine(t, testConfig())
	m.register()
	first := in("T-0", 100)
	if r := m.transfer(first); r.Status != StatusFull || r.Position != 1 {
		t.Fatalf("first: %+v", r)
	}
	firstRec := m.ledger[len(m.ledger)-1].(Transfer)
	for i := 1; i <= MaxHistory+8; i++ {
		if r := m.transfer(in(fmt.Sprintf("T-%d", i), 1)); r.Status != StatusFull {
			t.Fatalf("transfer %d: %+v", i, r)
		}
	}
	if st := m.core.State(); !st.Used("T-0") || func() bool { _, ok := st.Lookup("T-0"); return ok }() {
		t.Fatal("T-0 still in the history (the test asks nothing new), or not used")
	}
	credits, records := m.credits, len(m.ledger)
	m.refused(first, StatusIDNotUnique)
	other := in("T-0", 5)
	m.refused(other, StatusIDNotUnique)
	// Not the history's first entry either (pushed out at transfer 128+).
	m.refused(in("T-5", 1), StatusIDNotUnique)
	// Still in the history: its record, as the host reads it.
	last := fmt.Sprintf("T-%d", MaxHistory+8)
	if d := m.begin(in(last, 1)); d.Record != nil || d.Reply.Status != StatusFull || d.Reply.ID != last {
		t.Fatalf("an ID in the history: %+v", d.Reply)
	}
	if m.credits != credits || len(m.ledger) != records {
		t.Fatalf("credits %+v, %d records: want %+v, %d", m.credits, len(m.ledger), credits, records)
	}

	// The fold refuses the first record again, at the position it would take.
	st := m.core.State()
	dup := firstRec
	dup.Position = st.NextPosition()
	if err := st.Apply(dup); !errors.Is(err, ErrRecord) || !strings.Contains(err.Error(), "committed twice") {
		t.Fatalf("the fold took T-0 twice: %v", err)
	}
	if _, err := Fold(append(m.ledger, dup)); !errors.Is(err, ErrRecord) {
		t.Fatalf("a refold took T-0 twice: %v", err)
	}

	// Through the encoding (a snapshot restored at power-up).
	b, err := json.Marshal(m.core.State())
	if err != nil {
		t.Fatal(err)
	}
	var restored State
	if err := json.Unmarshal(b, &restored); err != nil {
		t.Fatal(err)
	}
	if restored.Retired.Len() != 9 || !restored.Used("T-0") || restored.Used("T-NEW") {
		t.Fatalf("restored: %d retired IDs", restored.Retired.Len())
	}
	if c := restored.Clone(); !errors.Is(c.Apply(dup), ErrRecord) {
		t.Fatal("the restored fold took T-0 twice")
	}
	m.core = New(testConfig(), restored)
	m.register()
	m.refused(first, StatusIDNotUnique)
	if r := m.transfer(in("T-NEW", 7)); r.Status != StatusFull || m.credits.Cashable != credits.Cashable+7 {
		t.Fatalf("a new ID after the restore: %+v", r)
	}
}

// A transfer of no amount is in no history: once another replaces it as
// the current transfer, its ID is retired, not forgotten.
func TestZeroAmountIDRetired(t *testing.T) {
	m := newMachine(t, testConfig())
	m.register()
	zero := in("Z", 0)
	zero.Flags = FlagHostCashoutControl | FlagHostCashoutEnable
	if r := m.transfer(zero); r.Status != StatusFull || r.Position != 0 {
		t.Fatalf("zero: %+v", r)
	}
	if d := m.begin(zero); d.Record != nil || d.Reply.Status != StatusFull {
		t.Fatalf("current zero again: %+v", d.Reply)
	}
	m.transfer(in("A", 10))
	if st := m.core.State(); st.Retired.Len() != 1 || !st.Used("Z") {
		t.Fatalf("retired %d", st.Retired.Len())
	}
	m.refused(zero, StatusIDNotUnique)
	folded, err := Fold(m.ledger)
	if err != nil || !reflect.DeepEqual(folded, m.core.State()) {
		t.Fatalf("fold %v:\n%+v\n%+v", err, folded, m.core.State())
	}
}

// The memory the forever-once rule costs: a million logged transfers
// folded into a State (the history keeps 127, the rest are retired), the
// heap the state holds afterwards and its sealed encoding, per transfer;
// and, for the choice, what a Go map of the IDs themselves or of their
// digests would hold. Run it once:
//
//	go test -run '^$' -bench BenchmarkRetiredIDs -benchtime=1x ./aft/
func BenchmarkRetiredIDs(b *testing.B) {
	const n = 1_000_000
	id := func(i int) string { return fmt.Sprintf("HOST-%014d", i) } // 19 characters
	heap := func() uint64 {
		runtime.GC()
		var m runtime.MemStats
		runtime.ReadMemStats(&m)
		return m.HeapAlloc
	}
	b.Run("State", func(b *testing.B) {
		for b.Loop() {
			h0 := heap()
			var s State
			for i := range n {
				t := Transfer{ID: id(i), Code: CodeFull, Type: InHouseToMachine, Status: StatusFull,
					Requested: Amounts{Cashable: 100}, Amounts: Amounts{Cashable: 100}, At: t0, ReceiptStatus: ReceiptNone,
					Position: s.NextPosition()}
				if err := s.Apply(t); err != nil {
					b.Fatal(err)
				}
			}
			held := heap() - h0
			start := time.Now()
			enc, err := json.Marshal(s)
			if err != nil {
				b.Fatal(err)
			}
			encode := time.Since(start)
			start = time.Now()
			var back State
			if err := json.Unmarshal(enc, &back); err != nil || back.Retired.Len() != n-MaxHistory {
				b.Fatalf("restore: %d retired, %v", back.Retired.Len(), err)
			}
			restore := time.Since(start)
			start = time.Now()
			for i := range 1000 {
				if !back.Used(id(i)) {
					b.Fatalf("%s not used", id(i))
				}
			}
			b.ReportMetric(float64(held)/n, "heap-B/transfer")
			b.ReportMetric(float64(len(enc))/n, "sealed-B/transfer")
			b.ReportMetric(float64(encode.Milliseconds()), "encode-ms")
			b.ReportMetric(float64(restore.Milliseconds()), "restore-ms")
			b.ReportMetric(float64(time.Since(start).Nanoseconds())/1000, "lookup-ns")
			runtime.KeepAlive(s)
		}
	})
	b.Run("map-of-IDs", func(b *testing.B) {
		for b.Loop() {
			h0 := heap()
			m := map[string]struct{}{}
			for i := range n {
				m[id(i)] = struct{}{}
			}
			b.ReportMetric(float64(heap()-h0)/n, "heap-B/transfer")
			runtime.KeepAlive(m)
		}
	})
	b.Run("map-of-digests", func(b *testing.B) {
		for b.Loop() {
			h0 := heap()
			m := map[uint64]struct{}{}
			for i := range n {
				m[IDDigest(id(i))] = struct{}{}
			}
			b.ReportMetric(float64(heap()-h0)/n, "heap-B/transfer")
			runtime.KeepAlive(m)
		}
	})
}

// A state without transfers encodes as before the retired IDs existed
// (no key); from the first transfer on the set is encoded, "" while
// empty, so that a state an earlier build encoded is told apart.
func TestRetiredIDsEncodedFromTheFirstTransfer(t *testing.T) {
	m := newMachine(t, testConfig())
	m.register()
	enc := func() string {
		b, err := json.Marshal(m.core.State())
		if err != nil {
			t.Fatal(err)
		}
		return string(b)
	}
	if s := enc(); strings.Contains(s, "retired_ids") {
		t.Fatalf("no transfer yet: %s", s)
	}
	m.transfer(in("A", 10))
	if s := enc(); !strings.Contains(s, `"retired_ids":""`) {
		t.Fatalf("after a transfer: %s", s)
	}
	var back State
	if err := json.Unmarshal([]byte(enc()), &back); err != nil || !back.Retired.Kept() || back.Retired.Len() != 0 {
		t.Fatalf("round trip: kept %v, %d IDs, %v", back.Retired.Kept(), back.Retired.Len(), err)
	}
	var earlier State
	if err := json.Unmarshal([]byte(strings.Replace(enc(), `,"retired_ids":""`, "", 1)), &earlier); err != nil || earlier.Retired.Kept() {
		t.Fatalf("an earlier build's encoding: kept %v, %v", earlier.Retired.Kept(), err)
	}
}
