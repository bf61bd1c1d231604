package ledger

import (
	"encoding/binary"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/openegm/cabinet/book"
	"github.com/openegm/cabinet/book/walog"
)

// snapPrefix names the book's snapshot files.
const snapPrefix = "snapshot-"

func TestLedgerCommitAndReopen(t *testing.T) {
	dir := t.TempDir()
	l, info := mustOpen(t, dir, Options{SnapshotEvery: 10})
	if info.LastSeq != 1 || info.KeyID == "" { // a new log's first mark
		t.Fatalf("new ledger: %+v", info)
	}
	keys := testKeys.(book.FileKeys).Dir
	pub, err := ReadPublicKey(filepath.Join(keys, KeyName+".pub"))
	if err != nil || KeyID(pub) != info.KeyID || !pub.Equal(l.PublicKey()) {
		t.Fatalf("controller.pub: %v", err)
	}
	if fi, err := os.Stat(filepath.Join(keys, KeyName+".key")); err != nil || fi.Mode().Perm() != 0o600 {
		t.Fatalf("controller.key: %v %v", fi, err)
	}
	if _, err := os.Stat(filepath.Join(dir, "controller.key")); err == nil {
		t.Fatal("the controller key is in the data directory")
	}
	res, err := l.CommitBatch(setupRecords(4, 25_00*mc)...)
	if err != nil || res[0].Seq != 2 || res[len(res)-1].Seq != 2 { // after the new log's mark
		t.Fatalf("setup: %v %+v", err, res)
	}
	for i := range 4 {
		mustCommit(t, l, Meters{At: 2, Machine: machineID(i), CoinIn: 1000})
	}
	r := mustCommit(t, l, Meters{At: 3, Machine: "M002", CoinIn: 400_000, GamesPlayed: 40})
	if r.Seq == 0 || r.Delta != 399_000 {
		t.Fatalf("reading: %+v", r)
	}
	seq := l.LastSeq()

	// A repeat is not logged; a refusal is not logged and the ledger goes on.
	r = mustCommit(t, l, Meters{At: 4, Machine: "M002", CoinIn: 400_000, GamesPlayed: 40})
	if !r.Repeat || r.Seq != 0 || l.LastSeq() != seq {
		t.Fatalf("repeat: %+v, last seq %d → %d", r, seq, l.LastSeq())
	}
	_, err = l.Commit(Meters{At: 4, Machine: "M002", CoinIn: 399_999, GamesPlayed: 40})
	var ref *Refused
	if !errors.As(err, &ref) || !errors.Is(err, ErrBackwards) || ref.Type != TypeMeters || ref.Index != -1 || l.LastSeq() != seq {
		t.Fatalf("backwards: %v", err)
	}
	if l.Fault() != nil {
		t.Fatalf("a refusal faulted the ledger: %v", l.Fault())
	}
	_, err = l.CommitBatch(Meters{At: 5, Machine: "M001", CoinIn: 2000, GamesPlayed: 1}, Meters{At: 5, Machine: "M003", CoinIn: 5})
	if !errors.As(err, &ref) || ref.Index != 1 || l.LastSeq() != seq {
		t.Fatalf("batch refusal: %v", err)
	}
	hit := mustCommit(t, l, Hit{At: 6, Level: "grand", Claims: []Claim{{Machine: "M002", Game: 40, Bet: 500, Claimed: 10_003_99}}})
	if len(hit.Payouts) != 1 || hit.Seq != seq+1 {
		t.Fatalf("hit: %+v", hit)
	}
	want := stateJSON(t, l.State())
	if err := l.Close(); err != nil {
		t.Fatal(err)
	}
	if _, err := l.Commit(Event{Code: EventNote}); !errors.Is(err, ErrClosed) {
		t.Fatalf("commit after close: %v", err)
	}

	// The controller restarts: the award is still pending, and the machine's
	// repeated claim gets the same payout.
	l, info = mustOpen(t, dir, Options{SnapshotEvery: 10})
	if stateJSON(t, l.State()) != want || info.SnapshotSeq == 0 {
		t.Fatalf("reopen: %+v", info)
	}
	var pending []Payout
	l.View(func(s *State) { pending = s.PendingPayouts() })
	if len(pending) != 1 || pending[0] != hit.Payouts[0] {
		t.Fatalf("pending after restart: %+v", pending)
	}
	r = mustCommit(t, l, Hit{At: 7, Level: "grand", Claims: []Claim{{Machine: "M002", Game: 40, Bet: 500}}})
	if !r.Repeat || r.Repeated[0] != hit.Payouts[0] {
		t.Fatalf("claim repeated after restart: %+v", r)
	}
	mustCommit(t, l, Confirmed{At: 8, Machine: "M002", Level: "grand", Game: 40})
	// Closed without a snapshot: a power cut, the log alone.
	want = stateJSON(t, l.State())
	l.Close()
	for i := range 2 {
		os.Remove(filepath.Join(dir, fmt.Sprintf("%s%d", snapPrefix, i)))
	}
	l, info = mustOpen(t, dir, Options{})
	defer l.Close()
	if stateJSON(t, l.State()) != want || info.SnapshotSeq != 0 {
		t.Fatalf("full replay: %+v", info)
	}
	if r := mustCommit(t, l, Confirmed{At: 9, Machine: "M002", Level: "grand", Game: 40}); !r.Repeat {
		t.Fatalf("confirmed twice: %+v", r)
	}
}

func TestLedgerMissingKeyIsAFault(t *testing.T) {
	dir := t.TempDir()
	keys := book.FileKeys{Dir: t.TempDir()}
	l, _ := mustOpen(t, dir, Options{Keys: keys})
	mustCommit(t, l, SetupShared{At: 1, Level: "s", Who: "t"})
	l.Close()
	key := filepath.Join(keys.Dir, KeyName+".key")
	os.Remove(key)
	_, _, err := Open(dir, Options{Keys: keys})
	var f *Fault
	if !errors.As(err, &f) || !strings.Contains(err.Error(), "missing but the log it signs exists") {
		t.Fatalf("got %v", err)
	}
	os.WriteFile(key, []byte("short"), 0o600)
	if _, _, err := Open(dir, Options{Keys: keys}); !errors.As(err, &f) || !strings.Contains(err.Error(), "damaged controller key") {
		t.Fatalf("got %v", err)
	}
}

func TestLedgerSnapshots(t *testing.T) {
	dir := t.TempDir()
	opts := Options{SnapshotEvery: 20, CheckpointEvery: 7}
	l, _ := mustOpen(t, dir, opts)
	g := newPropGen(t, 7, 5)
	for range 400 {
		g.step()
	}
	for _, r := range g.recs {
		mustCommit(t, l, r)
	}
	want := stateJSON(t, l.State())
	l.Close()
	l, info := mustOpen(t, dir, opts)
	if stateJSON(t, l.State()) != want || info.SnapshotSeq == 0 || info.Replayed > 2*20 {
		t.Fatalf("start-up did not use a snapshot: %+v", info)
	}
	l.Close()

	// A torn snapshot is ignored: the other one or the log serves.
	for i := range 2 {
		f := filepath.Join(dir, fmt.Sprintf("%s%d", snapPrefix, i))
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		data[len(data)/2] ^= 0x20
		os.WriteFile(f, data, 0o600)
	}
	l, info = mustOpen(t, dir, opts)
	if stateJSON(t, l.State()) != want || info.SnapshotSeq != 0 {
		t.Fatalf("damaged snapshots: %+v", info)
	}
	l.Close()

	// A whole snapshot the log does not vouch for is named and not used:
	// the snapshots of a log beside an earlier copy of the same log, which
	// lacks records they cover (the log was rolled back).
	dir2, early := t.TempDir(), t.TempDir()
	l, _ = mustOpen(t, dir2, opts)
	for _, r := range g.recs[:50] {
		mustCommit(t, l, r)
	}
	copyTree(t, dir2, early)
	os.Remove(filepath.Join(early, LogDir, "lock"))
	for i := range 2 {
		os.Remove(filepath.Join(early, fmt.Sprintf("%s%d", snapPrefix, i)))
	}
	for _, r := range g.recs[50:] {
		mustCommit(t, l, r)
	}
	l.Close()
	l, info = mustOpen(t, early, opts)
	if info.LastSeq == 0 {
		t.Fatal("early copy is empty")
	}
	l.Close()
	for i := range 2 {
		name := fmt.Sprintf("%s%d", snapPrefix, i)
		if data, err := os.ReadFile(filepath.Join(dir2, name)); err == nil {
			os.WriteFile(filepath.Join(early, name), data, 0o600)
		}
	}
	l, info, err := Open(early, opts)
	if err != nil || len(info.Tampered) == 0 || !strings.Contains(strings.Join(info.Tampered, "\n"), "the log ends at") {
		t.Fatalf("snapshot beyond the log: %v %+v", err, info.Tampered)
	}
	l.Close()
}

// logEntries lists where each entry of a segment file starts and ends.
func logEntries(t *testing.T, seg string) (starts, ends []int64) {
	data, err := os.ReadFile(seg)
	if err != nil {
		t.Fatal(err)
	}
	off := 0
	for off < len(data) {
		n, k := binary.Uvarint(data[off:])
		if k <= 0 {
			t.Fatalf("segment %s: bad length at %d", seg, off)
		}
		starts = append(starts, int64(off))
		off += k + int(n)
		ends = append(ends, int64(off))
	}
	return starts, ends
}

func lastSegment(t *testing.T, dir string) string {
	ents, err := os.ReadDir(filepath.Join(dir, LogDir))
	if err != nil {
		t.Fatal(err)
	}
	last := ""
	for _, e := range ents {
		if len(e.Name()) == 20 {
			last = e.Name()
		}
	}
	return filepath.Join(dir, LogDir, last)
}

// liveLedger commits n readings and hits and returns the directory of a
// copy taken without closing (a power cut), the state after each record,
// and the ledger's options.
func liveLedger(t *testing.T, n int) (string, []string, Options) {
	dir := t.TempDir()
	opts := Options{CheckpointEvery: 1 << 30, SnapshotEvery: 1 << 30}
	l, _ := mustOpen(t, dir, opts)
	if _, err := l.CommitBatch(setupRecords(3, 25_00*mc)...); err != nil {
		t.Fatal(err)
	}
	states := []string{stateJSON(t, l.State())}
	for i := range n {
		var r Record = Meters{At: int64(i), Machine: machineID(i % 3), CoinIn: int64(i) * 1237, GamesPlayed: uint64(i)}
		if i%5 == 4 {
			r = Hit{At: int64(i), Level: "major", Claims: []Claim{{Machine: machineID(i % 3), Game: uint64(i), Bet: 100, Claimed: 123}}}
		}
		mustCommit(t, l, r)
		states = append(states, stateJSON(t, l.State()))
	}
	crash := t.TempDir()
	copyTree(t, dir, crash)
	l.Close()
	os.Remove(filepath.Join(crash, LogDir, "lock"))
	return crash, states, opts
}

// Cutting the last entry (the last commit's mark) at every byte offset (a
// write torn by a power cut): start-up cuts the commit the mark no longer
// vouches for, logs the repair, and every earlier record is there.
func TestFaultTornLastRecordEveryOffset(t *testing.T) {
	crash, states, opts := liveLedger(t, 12)
	seg := lastSegment(t, crash)
	starts, ends := logEntries(t, seg)
	from, to := starts[len(starts)-1], ends[len(ends)-1]
	n := len(states) // user records: the setup batch and the n more
	for cut := from; cut <= to; cut++ {
		dir := t.TempDir()
		copyTree(t, crash, dir)
		if err := os.Truncate(filepath.Join(dir, LogDir, filepath.Base(seg)), cut); err != nil {
			t.Fatal(err)
		}
		l, info, err := Open(dir, opts)
		if err != nil {
			t.Fatalf("cut at %d of %d..%d: %v", cut, from, to, err)
		}
		want, kept := states[n-2], uint64(n-1)
		if cut == to {
			want, kept = states[n-1], uint64(n)
		}
		st := l.State()
		// The repair event is folded on top: compare without it.
		if cut < to {
			if info.Repaired == "" || !strings.Contains(info.Repaired, "after the last commit mark") || st.Count(TypeEvent) != 1 {
				t.Fatalf("cut at %d: not repaired: %+v", cut, info)
			}
			ev := st.Events()
			if ev[len(ev)-1].Code != EventLogRepaired {
				t.Fatalf("cut at %d: repair not logged: %+v", cut, ev)
			}
			st.events, st.records, st.counts[TypeEvent] = nil, st.records-1, 0
		} else if info.Repaired != "" {
			t.Fatalf("cut at %d (the whole log): repaired %q", cut, info.Repaired)
		}
		if stateJSON(t, st) != want || st.Records() != states0Records(t, want) {
			t.Fatalf("cut at %d: state differs from the fold of the first %d records", cut, kept)
		}
		l.Close()
	}
	t.Logf("cut the last record (bytes %d..%d) at each of %d offsets: repaired every time", from, to, to-from+1)
}

func states0Records(t *testing.T, data string) uint64 {
	s := NewState()
	if err := s.UnmarshalJSON([]byte(data)); err != nil {
		t.Fatal(err)
	}
	return s.Records()
}

// A bit flipped in a committed record, anywhere in it: start-up refuses
// with a fault that names the record.
func TestFaultFlippedBitNamesRecord(t *testing.T) {
	crash, _, opts := liveLedger(t, 12)
	seg := lastSegment(t, crash)
	starts, ends := logEntries(t, seg)
	for _, k := range []int{3, 7, len(starts) - 1} {
		seq := uint64(k + 1)
		for off := starts[k] + 1; off < ends[k]; off += 7 {
			for _, bit := range []byte{0x01, 0x80} {
				dir := t.TempDir()
				copyTree(t, crash, dir)
				p := filepath.Join(dir, LogDir, filepath.Base(seg))
				data, _ := os.ReadFile(p)
				data[off] ^= bit
				os.WriteFile(p, data, 0o600)
				_, _, err := Open(dir, opts)
				var f *Fault
				if !errors.As(err, &f) || f.Seq != seq || !strings.Contains(err.Error(), fmt.Sprintf("record seq %d", seq)) {
					t.Fatalf("record %d, bit 0x%02x of byte %d: %v", seq, bit, off-starts[k], err)
				}
				if v, err := Verify(dir, nil); err != nil || v.OK {
					t.Fatalf("verify passed a damaged log: %v %+v", err, v)
				}
			}
		}
	}
}

// A record whose frame and chain are intact but whose content is not a
// lawful record (written by something else than this package) stops
// start-up with a fault naming it.
func TestFaultUnlawfulRecordNamesRecord(t *testing.T) {
	for _, tc := range []struct {
		name string
		typ  Type
		data string
		want string
	}{
		{"garbage", TypeMeters, `{"at":1,"machine":"M000","coin_in":5,"games_played":0,"x":1}`, "unknown field"},
		{"backwards", TypeMeters, `{"at":1,"machine":"M000","coin_in":5,"games_played":0}`, "meter went back"},
		{"repeat", TypeMeters, `{"at":1,"machine":"M000","coin_in":1000,"games_played":0}`, "changes nothing"},
		{"unknown type", 77, `{}`, "unknown record type 77"},
		{"answer without a claim", TypeSuperClaimed, `{"at":1,"level":"super","machine":"M000","game":1,"amount_mc":1000,"order":1,"revision":1}`, "no such award pending"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			l, _ := mustOpen(t, dir, Options{})
			l.CommitBatch(setupRecords(1, 25_00*mc)...)
			mustCommit(t, l, Meters{At: 1, Machine: "M000", CoinIn: 1000})
			l.Close()
			key, _ := testKeys.Signer(KeyName, false)
			lg, _, err := walog.Open(filepath.Join(dir, LogDir), walog.Options{Signer: key, Marks: true})
			if err != nil {
				t.Fatal(err)
			}
			rec, err := lg.Append(uint16(tc.typ), []byte(tc.data))
			if err != nil {
				t.Fatal(err)
			}
			lg.Close()
			_, _, err = Open(dir, Options{})
			var f *Fault
			if !errors.As(err, &f) || f.Seq != rec.Seq || !strings.Contains(err.Error(), tc.want) ||
				!strings.Contains(err.Error(), fmt.Sprintf("record %d", rec.Seq)) {
				t.Fatalf("got %v; want a fault at record %d saying %q", err, rec.Seq, tc.want)
			}
			v, err := Verify(dir, nil)
			if err != nil || v.OK || !strings.Contains(strings.Join(v.Problems, "\n"), fmt.Sprintf("record %d", rec.Seq)) {
				t.Fatalf("verify: %v %+v", err, v)
			}
		})
	}
}

// A superjackpot claim across restarts of the controller: logged before it
// is sent, still pending after a restart (to be sent again, unchanged),
// answered once, confirmed once; a snapshot start-up and a full replay of
// the log agree.
func TestLedgerSuperClaimAcrossRestarts(t *testing.T) {
	dir := t.TempDir()
	opts := Options{SnapshotEvery: 3}
	l, _ := mustOpen(t, dir, opts)
	if _, err := l.CommitBatch(setupRecords(2, 25_00*mc)...); err != nil {
		t.Fatal(err)
	}
	c := SuperClaim{At: 10, Level: "super", Machine: "M000", Game: 12, Bet: 300, Claimed: 5_000_00}
	res := mustCommit(t, l, c)
	if res.Seq == 0 || res.SuperClaim == nil || *res.SuperClaim != c {
		t.Fatalf("claim: %+v", res)
	}
	seq := l.LastSeq()
	// Repeated, it is not logged.
	if res := mustCommit(t, l, SuperClaim{At: 11, Level: "super", Machine: "M000", Game: 12, Bet: 300}); !res.Repeat || res.Seq != 0 || *res.SuperClaim != c || l.LastSeq() != seq {
		t.Fatalf("claim again: %+v", res)
	}
	_, err := l.Commit(SuperClaimed{At: 11, Level: "super", Machine: "M001", Game: 12, AmountMC: mc, Order: 1, Revision: 1})
	var ref *Refused
	if !errors.As(err, &ref) || !errors.Is(err, ErrNotPending) || ref.Type != TypeSuperClaimed || l.Fault() != nil {
		t.Fatalf("answer without a claim: %v", err)
	}
	l.Close() // the controller stops before etcd answers

	l, _ = mustOpen(t, dir, opts)
	var claims []SuperClaim
	l.View(func(s *State) { claims = s.PendingSuperClaims() })
	if len(claims) != 1 || claims[0] != c {
		t.Fatalf("claims in flight after a restart: %+v", claims)
	}
	a := SuperClaimed{At: 12, Level: "super", Machine: "M000", Game: 12, AmountMC: 7_654_32 * mc, Order: 2, Revision: 777}
	res = mustCommit(t, l, a)
	p := Payout{Machine: "M000", Level: "super", Game: 12, Bet: 300, Claimed: 5_000_00, Amount: 7_654_32, Order: 2, At: 12, Revision: 777}
	if len(res.Payouts) != 1 || res.Payouts[0] != p {
		t.Fatalf("answer: %+v", res)
	}
	l.Close()

	l, _ = mustOpen(t, dir, opts)
	var pending []Payout
	l.View(func(s *State) { pending, claims = s.PendingPayouts(), s.PendingSuperClaims() })
	if len(pending) != 1 || pending[0] != p || len(claims) != 0 {
		t.Fatalf("after a restart: payouts %+v, claims %+v", pending, claims)
	}
	if res := mustCommit(t, l, a); !res.Repeat || res.Repeated[0] != p {
		t.Fatalf("answer again: %+v", res)
	}
	bad := a
	bad.AmountMC += mc
	if _, err := l.Commit(bad); !errors.Is(err, ErrConflict) || l.Fault() != nil {
		t.Fatalf("a different answer: %v", err)
	}
	mustCommit(t, l, Confirmed{At: 13, Machine: "M000", Level: "super", Game: 12})
	rep, err := l.Report()
	if err != nil || rep.Check() != nil || rep.Shared[0].ConfirmedCents != 7_654_32 || rep.Shared[0].PendingAwards != 0 {
		t.Fatalf("report: %v %+v", err, rep)
	}
	want := stateJSON(t, l.State())
	l.Close()
	for i := range 2 {
		os.Remove(filepath.Join(dir, fmt.Sprintf("%s%d", snapPrefix, i)))
	}
	l, _ = mustOpen(t, dir, Options{})
	defer l.Close()
	if stateJSON(t, l.State()) != want {
		t.Fatal("full replay differs")
	}
	if res := mustCommit(t, l, Confirmed{At: 14, Machine: "M000", Level: "super", Game: 12}); !res.Repeat {
		t.Fatalf("confirmed twice: %+v", res)
	}
	sh, _ := l.State().SharedLevel("super")
	if sh.Claims != 1 || sh.Answered != 1 || sh.AwardedCents != 7_654_32 || sh.ConfirmedAwards != 1 {
		t.Fatalf("tally %+v", sh)
	}
}
