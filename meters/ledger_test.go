package meters

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/openegm/cabinet/book"
	"github.com/openegm/cabinet/book/walog"
	"github.com/openegm/cabinet/rng"
)

// snapPrefix names the book's snapshot files.
const snapPrefix = "snapshot-"

// ledgerPlayer plays lawful random records into a ledger.
func ledgerPlayer(t testing.TB, l *Ledger, seed uint64) *player {
	p := &player{r: rng.NewSeeded(seed), t: t, limit: 20000}
	p.s = l.state
	p.commit = func(r Record) error {
		err := l.Commit(r)
		p.s = l.state
		return err
	}
	p.credit = l.Meter(Credits)
	return p
}

func stateJSON(t testing.TB, s *State) string {
	b, err := json.Marshal(s)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func TestLedgerReopenEqualsFold(t *testing.T) {
	dir := t.TempDir()
	l, info, err := Open(dir, Options{SnapshotEvery: 100, SegmentSize: 64 << 10})
	if err != nil {
		t.Fatal(err)
	}
	if info.LastSeq != 1 || info.MachineKeyID == "" { // a new log's first mark
		t.Fatalf("new ledger: %+v", info)
	}
	p := ledgerPlayer(t, l, 7)
	p.openLocal() // the pools must survive snapshots and replay exactly
	for range 1500 {
		p.step()
	}
	want := stateJSON(t, l.State())
	last := l.LastSeq()
	if err := l.Close(); err != nil {
		t.Fatal(err)
	}

	// From the snapshot: only the tail is replayed.
	l, info, err = Open(dir, Options{SnapshotEvery: 100})
	if err != nil {
		t.Fatal(err)
	}
	if got := stateJSON(t, l.State()); got != want {
		t.Fatal("reopened state differs")
	}
	if info.SnapshotSeq == 0 || info.Replayed > 200 {
		t.Fatalf("start-up did not use the snapshot: %+v", info)
	}
	l.Close()

	// Without snapshots: the full fold of the log gives the same state.
	for i := range 2 {
		os.Remove(filepath.Join(dir, fmt.Sprintf("%s%d", snapPrefix, i)))
	}
	l, info, err = Open(dir, Options{SnapshotEvery: 1 << 30})
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	if got := stateJSON(t, l.State()); got != want {
		t.Fatal("full replay differs from the live fold")
	}
	if info.SnapshotSeq != 0 || info.LastSeq < last {
		t.Fatalf("full replay: %+v (last %d)", info, last)
	}
}

// Snapshots taken on the record after which the log writes a checkpoint
// must still match the log: the snapshot holds the record's own hash.
func TestLedgerSnapshotOnCheckpointBoundary(t *testing.T) {
	dir := t.TempDir()
	opts := Options{SnapshotEvery: 10, CheckpointEvery: 10}
	l, _, err := Open(dir, opts)
	if err != nil {
		t.Fatal(err)
	}
	p := ledgerPlayer(t, l, 5)
	for range 200 {
		p.step()
	}
	want := stateJSON(t, l.State())
	l.Close()
	for range 3 {
		l, info, err := Open(dir, opts)
		if err != nil {
			t.Fatal(err)
		}
		if info.SnapshotSeq == 0 || stateJSON(t, l.State()) != want {
			t.Fatalf("reopen: %+v", info)
		}
		l.Close()
	}
}

func TestLedgerInvariantViolationIsAFault(t *testing.T) {
	dir := t.TempDir()
	l, _, err := Open(dir, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if err := l.Commit(MoneyIn{Source: SourceBill, Cents: 500}); err != nil {
		t.Fatal(err)
	}
	err = l.Commit(CashOut{Method: OutTicket, Cents: 600, Ticket: "1"})
	var f *Fault
	if !errors.As(err, &f) || !strings.Contains(err.Error(), "cash out of 600 cents with 500") {
		t.Fatalf("overdraft: %v", err)
	}
	// The handle accepts nothing more, even a lawful record.
	if err := l.Commit(MoneyIn{Source: SourceBill, Cents: 500}); !errors.As(err, &f) {
		t.Fatalf("commit after a fault: %v", err)
	}
	l.Close()
	l, _, err = Open(dir, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	if l.Meter(Credits) != 500 || l.Meter(BillsIn) != 500 {
		t.Fatalf("after reopen: credits %d bills %d", l.Meter(Credits), l.Meter(BillsIn))
	}
}

func TestLedgerSnapshotDamage(t *testing.T) {
	dir := t.TempDir()
	l, _, _ := Open(dir, Options{SnapshotEvery: 50})
	p := ledgerPlayer(t, l, 3)
	for range 300 {
		p.step()
	}
	want := stateJSON(t, l.State())
	l.Close()

	// A torn snapshot (bad checksum) is ignored: the other one or the log serves.
	for i := range 2 {
		f := filepath.Join(dir, fmt.Sprintf("%s%d", snapPrefix, i))
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		data[len(data)/2] ^= 0x20
		os.WriteFile(f, data, 0o600)
	}
	l, info, err := Open(dir, Options{SnapshotEvery: 50})
	if err != nil {
		t.Fatal(err)
	}
	if stateJSON(t, l.State()) != want || info.SnapshotSeq != 0 {
		t.Fatalf("damaged snapshots: %+v", info)
	}
	l.Close()
}

func TestLedgerMissingKeyIsAFault(t *testing.T) {
	dir := t.TempDir()
	keys := book.FileKeys{Dir: t.TempDir()}
	l, _, _ := Open(dir, Options{Keys: keys})
	l.Commit(MoneyIn{Source: SourceBill, Cents: 500})
	l.Close()
	os.Remove(filepath.Join(keys.Dir, "machine.key"))
	_, _, err := Open(dir, Options{Keys: keys})
	var f *Fault
	if !errors.As(err, &f) || !strings.Contains(err.Error(), "missing but the log it signs exists") {
		t.Fatalf("got %v", err)
	}
}

// TestLedgerWriter is the subprocess of the crash test: it plays lawful
// records into the ledger and prints "seq credits" after each commit.
func TestLedgerWriter(t *testing.T) {
	dir := os.Getenv("LEDGER_WRITER_DIR")
	if dir == "" {
		t.Skip("subprocess of TestLedgerCrashLoop")
	}
	seed, _ := strconv.ParseUint(os.Getenv("LEDGER_WRITER_SEED"), 10, 64)
	l, _, err := Open(dir, Options{SnapshotEvery: 37, SegmentSize: 32 << 10})
	if err != nil {
		fmt.Println("open-error", err)
		os.Exit(3)
	}
	out := bufio.NewWriter(os.Stdout)
	p := ledgerPlayer(t, l, seed)
	p.commit = func(r Record) error {
		err := l.Commit(r)
		p.s = l.state
		if err == nil {
			fmt.Fprintf(out, "%d %d\n", l.LastSeq(), l.Meter(Credits))
			out.Flush()
		}
		return err
	}
	for {
		p.step()
	}
}

// TestLedgerCrashLoop kills a real writer process with SIGKILL at random
// moments. After every kill the ledger opens, no acknowledged record is
// lost, the meters equal a full fold of the log, and the invariants hold.
// CRASH_ITERATIONS sets the number of kills (make crashtest runs hundreds).
func TestLedgerCrashLoop(t *testing.T) {
	n := 15
	if v, err := strconv.Atoi(os.Getenv("CRASH_ITERATIONS")); err == nil {
		n = v
	}
	dir := t.TempDir()
	r := rng.NewSeeded(2026)
	survived := 0
	for i := range n {
		cmd := exec.Command(os.Args[0], "-test.run=^TestLedgerWriter$")
		cmd.Env = append(os.Environ(), "LEDGER_WRITER_DIR="+dir, fmt.Sprintf("LEDGER_WRITER_SEED=%d", i+1))
		stdout, _ := cmd.StdoutPipe()
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		acked := make(chan [2]int64, 1<<16)
		go func() {
			sc := bufio.NewScanner(stdout)
			for sc.Scan() {
				var seq, credits int64
				if _, err := fmt.Sscan(sc.Text(), &seq, &credits); err == nil {
					acked <- [2]int64{seq, credits}
				}
			}
			close(acked)
		}()
		time.Sleep(time.Duration(20+r.Intn(180)) * time.Millisecond)
		cmd.Process.Signal(syscall.SIGKILL)
		cmd.Wait()
		var last [2]int64
		for a := range acked {
			last = a
		}

		l, info, err := Open(dir, Options{SnapshotEvery: 37})
		if err != nil {
			t.Fatalf("kill %d: reopen: %v", i+1, err)
		}
		if int64(l.LastSeq()) < last[0] {
			t.Fatalf("kill %d: acknowledged record %d lost, log ends at %d", i+1, last[0], l.LastSeq())
		}
		if err := l.State().Check(); err != nil {
			t.Fatalf("kill %d: %v", i+1, err)
		}
		live := stateJSON(t, l.State())
		if int64(l.LastSeq()) == last[0] && l.Meter(Credits) != last[1] {
			t.Fatalf("kill %d: credits %d, writer acknowledged %d", i+1, l.Meter(Credits), last[1])
		}
		l.Close()
		// The snapshot must agree with a full fold of the surviving records.
		copyDir := t.TempDir()
		copyTree(t, dir, copyDir)
		for k := range 2 {
			os.Remove(filepath.Join(copyDir, fmt.Sprintf("%s%d", snapPrefix, k)))
		}
		full, _, err := Open(copyDir, Options{SnapshotEvery: 1 << 30})
		if err != nil {
			t.Fatalf("kill %d: full replay: %v", i+1, err)
		}
		if stateJSON(t, full.State()) != live {
			t.Fatalf("kill %d: snapshot start-up and full fold differ", i+1)
		}
		full.Close()
		_ = info
		survived++
	}
	t.Logf("survived %d SIGKILLs", survived)
}

func copyTree(t testing.TB, src, dst string) {
	err := filepath.Walk(src, func(path string, fi os.FileInfo, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, path)
		target := filepath.Join(dst, rel)
		if fi.IsDir() {
			return os.MkdirAll(target, 0o700)
		}
		data, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		return os.WriteFile(target, data, fi.Mode())
	})
	if err != nil {
		t.Fatal(err)
	}
}

func TestLedgerSince(t *testing.T) {
	l, _, err := Open(t.TempDir(), Options{CheckpointEvery: 2})
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	for _, c := range []int64{500, 1000, 2000, 5000} {
		l.Commit(MoneyIn{Source: SourceBill, Cents: c})
	}
	var all []uint64
	l.Since(0, func(seq uint64, r Record) error { all = append(all, seq); return nil })
	if len(all) != 4 {
		t.Fatalf("since 0: %v", all)
	}
	var got []int64
	var seqs []uint64
	err = l.Since(all[1], func(seq uint64, r Record) error {
		got = append(got, r.(MoneyIn).Cents)
		seqs = append(seqs, seq)
		return nil
	})
	// Marks and checkpoints lie between the bills; after the second come
	// the last two.
	if err != nil || len(got) != 2 || got[0] != 2000 || got[1] != 5000 {
		t.Fatalf("since 2: %v %v %v", got, seqs, err)
	}
}

// One Commit of several records is one commit of the log: one mark after
// the last record, so after a power loss the records come back all
// together or not at all.
func TestCommitOfSeveralRecordsIsOneMark(t *testing.T) {
	dir := t.TempDir()
	l, _, err := Open(dir, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if err := l.Commit(MoneyIn{Source: SourceBill, Cents: 500}, MoneyIn{Source: SourceBill, Cents: 1000}, MoneyIn{Source: SourceBill, Cents: 2000}); err != nil {
		t.Fatal(err)
	}
	var types []uint16
	if err := l.book.Since(0, func(r walog.Record) error { types = append(types, r.Type); return nil }); err != nil {
		t.Fatal(err)
	}
	l.Close()
	v, err := book.Verify(dir, Spec, nil)
	if err != nil {
		t.Fatal(err)
	}
	// The new log's mark, the commit's, and the seal's at close (three
	// commits of one record each would have made five).
	if len(types) != 3 || v.Marks != 3 {
		t.Fatalf("%d records, %d marks", len(types), v.Marks)
	}
}
