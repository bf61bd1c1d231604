package walog

import (
	"bytes"
	"encoding/binary"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// entry is a frame as tidwall/wal stores it: its length, then itself.
func entry(raw []byte) []byte {
	return append(binary.AppendUvarint(nil, uint64(len(raw))), raw...)
}

// commitN commits n seq-derived records as one commit.
func commitN(l *Log, n int) ([]Record, error) {
	b, err := l.Begin()
	if err != nil {
		return nil, err
	}
	for range n {
		seq := b.seq + 1
		if _, err := b.Add(typeFor(seq), payloadFor(seq)); err != nil {
			b.Abort()
			return nil, err
		}
	}
	return b.Commit()
}

// untilLocked polls, l.mu held, until cond holds. Which goroutine gets
// where first is up to the scheduler; the tests wait for the state they
// need instead of for a time.
func untilLocked(l *Log, cond func() bool) {
	for {
		l.mu.Lock()
		ok := cond()
		l.mu.Unlock()
		if ok {
			return
		}
		time.Sleep(50 * time.Microsecond)
	}
}

// gathered is how many commits wait in the group for the next write.
func gathered(l *Log) int {
	if l.open == nil {
		return 0
	}
	return l.open.commits
}

// marksIn counts the log's marks and checks that no group between two
// marks holds more than MaxBatch records.
func marksIn(t *testing.T, l *Log) int {
	t.Helper()
	marks, since := 0, 0
	err := l.Scan(1, func(r Record) error {
		since++
		if r.Type == TypeMark {
			marks++
			if since > MaxBatch {
				t.Errorf("mark at seq %d ends a group of %d records", r.Seq, since)
			}
			since = 0
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return marks
}

// checkCommitted requires every record a commit returned to be in the log
// as it was returned.
func checkCommitted(t *testing.T, l *Log, recs []Record) {
	t.Helper()
	for _, want := range recs {
		got, err := l.Read(want.Seq)
		if err != nil {
			t.Fatalf("committed seq %d: %v", want.Seq, err)
		}
		if got.Type != want.Type || got.Hash != want.Hash || !bytes.Equal(got.Data, want.Data) || !bytes.Equal(got.Data, payloadFor(want.Seq)) {
			t.Fatalf("committed seq %d is not in the log as it was acknowledged", want.Seq)
		}
	}
}

// Sixteen commits that come while one is being written share the next
// write: two writes and two marks for seventeen commits, every record where
// its commit was told it is, and the log is one a verifier takes whole.
func TestGroupCommitShares(t *testing.T) {
	dir := t.TempDir()
	opts := Options{Signer: testKey(1), CheckpointEvery: 20, SegmentSize: 4096, Marks: true}
	l, _ := mustOpen(t, dir, opts)
	var writes atomic.Int32
	hold := make(chan struct{})
	l.failWrite = func([][]byte) error {
		if writes.Add(1) == 1 {
			<-hold
		}
		return nil
	}
	const others = 16
	out := make([][]Record, others+1)
	errs := make([]error, others+1)
	var wg sync.WaitGroup
	run := func(i int) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			out[i], errs[i] = commitN(l, 1+i%3)
		}()
	}
	run(0)
	untilLocked(l, func() bool { return l.writing })
	for i := 1; i <= others; i++ {
		run(i)
	}
	untilLocked(l, func() bool { return gathered(l) == others })
	close(hold)
	wg.Wait()

	var all []Record
	seen := map[uint64]bool{}
	for i, recs := range out {
		if errs[i] != nil {
			t.Fatalf("committer %d: %v", i, errs[i])
		}
		if len(recs) != 1+i%3 {
			t.Fatalf("committer %d got %d records, added %d", i, len(recs), 1+i%3)
		}
		for j, r := range recs {
			if j > 0 && r.Seq != recs[j-1].Seq+1 {
				t.Fatalf("committer %d: records %d and %d of one commit are not consecutive", i, recs[j-1].Seq, r.Seq)
			}
			if seen[r.Seq] {
				t.Fatalf("seq %d given to two commits", r.Seq)
			}
			seen[r.Seq] = true
		}
		all = append(all, recs...)
	}
	if n := writes.Load(); n != 2 {
		t.Fatalf("%d writes for 17 commits, want 2 (one, then the 16 gathered meanwhile)", n)
	}
	checkLog(t, l)
	if m := marksIn(t, l); m != 2 {
		t.Fatalf("%d marks, want one per write: 2", m)
	}
	if ms := l.Marks(); ms[0] != l.LastSeq() {
		t.Fatalf("last mark %d, log ends at %d", ms[0], l.LastSeq())
	}
	checkCommitted(t, l, all)
	mustClose(t, l)

	r, err := Verify(dir, pubOf(opts.Signer))
	if err != nil || !r.OK || r.VouchedSeq != r.LastSeq {
		t.Fatalf("verify: %v %+v", err, r)
	}
	l, info := mustOpen(t, dir, opts)
	defer l.Close()
	if info.Repaired || info.Unvouched != nil {
		t.Fatalf("reopen: %+v", info)
	}
	checkCommitted(t, l, all)
}

// Many committers at once, unsynchronised (run with -race): every commit
// durable where it was told, the chain whole, fewer marks than commits
// only as the scheduler gathers them.
func TestGroupCommitConcurrent(t *testing.T) {
	dir := t.TempDir()
	opts := Options{Signer: testKey(1), CheckpointEvery: 50, SegmentSize: 16 << 10, Marks: true}
	l, _ := mustOpen(t, dir, opts)
	const writers, each = 16, 12
	recs := make([][]Record, writers)
	errs := make(chan error, writers)
	var wg sync.WaitGroup
	for w := range writers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range each {
				r, err := commitN(l, 1+(w+i)%3)
				if err != nil {
					errs <- err
					return
				}
				recs[w] = append(recs[w], r...)
				if i%4 == 0 {
					// Readers meanwhile see only what is durable.
					if got, err := l.Read(r[0].Seq); err != nil || got.Hash != r[0].Hash {
						errs <- errors.Join(err, errors.New("a committed record reads back otherwise"))
						return
					}
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Fatal(err)
	}
	checkLog(t, l)
	marks := marksIn(t, l)
	t.Logf("%d commits in %d writes", writers*each, marks)
	for _, r := range recs {
		checkCommitted(t, l, r)
	}
	mustClose(t, l)
	r, err := Verify(dir, pubOf(opts.Signer))
	if err != nil || !r.OK || r.VouchedSeq != r.LastSeq {
		t.Fatalf("verify: %v %+v", err, r)
	}
}

// A write that fails fails every commit of its group, with the log's one
// fault, and every commit after; what was acknowledged before stays, and
// the group's bytes that reached the disk are cut at the next Open (here:
// whole records without their mark, then half a record).
func TestGroupCommitWriteFault(t *testing.T) {
	dir := t.TempDir()
	opts := Options{Signer: testKey(1), Marks: true}
	l, _ := mustOpen(t, dir, opts)
	before, err := commitN(l, 2)
	if err != nil {
		t.Fatal(err)
	}
	var writes atomic.Int32
	hold := make(chan struct{})
	injected := errors.New("injected: the disk went away")
	var partial int
	l.failWrite = func(raws [][]byte) error {
		switch writes.Add(1) {
		case 1:
			<-hold
			return nil
		case 2:
			// Half the group reaches the file, the last entry cut.
			paths := segmentPaths(t, dir)
			f, err := os.OpenFile(paths[len(paths)-1], os.O_WRONLY|os.O_APPEND, 0)
			if err != nil {
				return err
			}
			defer f.Close()
			var buf []byte
			for _, raw := range raws[:len(raws)/2] {
				buf = append(buf, entry(raw)...)
			}
			e := entry(raws[len(raws)/2])
			buf = append(buf, e[:len(e)/2]...)
			partial = len(raws) / 2
			if _, err := f.Write(buf); err != nil {
				return err
			}
			return injected
		}
		return nil
	}
	var acked []Record
	done := make(chan error, 1)
	go func() {
		r, err := commitN(l, 1)
		acked = r
		done <- err
	}()
	untilLocked(l, func() bool { return l.writing })
	const group = 15
	errs := make(chan error, group)
	for i := range group {
		go func() {
			r, err := commitN(l, 1+i%3)
			if r != nil {
				err = errors.Join(err, errors.New("records returned from a failed write"))
			}
			errs <- err
		}()
	}
	untilLocked(l, func() bool { return gathered(l) == group })
	close(hold)
	if err := <-done; err != nil {
		t.Fatalf("the commit written before the fault: %v", err)
	}
	var fault *Fault
	for range group {
		err := <-errs
		var f *Fault
		if !errors.As(err, &f) {
			t.Fatalf("a committer of the failed write got %v, not a *Fault", err)
		}
		if fault == nil {
			fault = f
		}
		if f != fault {
			t.Fatalf("committers of one write got different faults: %v, %v", f, fault)
		}
	}
	if want := acked[0].Seq + 2; fault.Seq != want {
		t.Fatalf("fault names seq %d, the group starts at %d: %v", fault.Seq, want, fault)
	}
	if l.Fault() != error(fault) {
		t.Fatalf("Fault() = %v", l.Fault())
	}
	if _, err := l.Begin(); err != error(fault) {
		t.Fatalf("Begin after the fault: %v", err)
	}
	if err := l.Close(); err != error(fault) {
		t.Fatalf("Close after the fault: %v", err)
	}

	l, info := mustOpen(t, dir, opts)
	defer l.Close()
	if info.Unvouched == nil || info.Unvouched.First != fault.Seq || int(info.Unvouched.Last-info.Unvouched.First+1) != partial || info.Unvouched.NoPowerLoss {
		t.Fatalf("reopen did not cut the group's %d whole records: %+v", partial, info)
	}
	if l.LastSeq() != acked[0].Seq+1 {
		t.Fatalf("log ends at %d, the last acknowledged commit's mark is %d", l.LastSeq(), acked[0].Seq+1)
	}
	checkLog(t, l)
	checkCommitted(t, l, append(before, acked...))
	more, err := commitN(l, 3)
	if err != nil {
		t.Fatalf("commit after the repair: %v", err)
	}
	checkCommitted(t, l, more)
}

// A group with no room left for another commit of the largest size is
// closed by the next Begin: the records between two marks never exceed
// MaxBatch, whatever the commits gathered.
func TestGroupCommitBounded(t *testing.T) {
	dir := t.TempDir()
	opts := Options{Signer: testKey(1), CheckpointEvery: 300, Marks: true}
	l, _ := mustOpen(t, dir, opts)
	var writes atomic.Int32
	hold := make(chan struct{})
	l.failWrite = func([][]byte) error {
		if writes.Add(1) == 1 {
			<-hold
		}
		return nil
	}
	var wg sync.WaitGroup
	errs := make(chan error, 4)
	commit := func(n int) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if _, err := commitN(l, n); err != nil {
				errs <- err
			}
		}()
	}
	commit(1)
	untilLocked(l, func() bool { return l.writing })
	// One at a time, so that the third finds the group full: it closes
	// the group of the first two and starts the next.
	for _, want := range [][2]int{{1, 0}, {2, 0}, {1, 1}} {
		commit(MaxCommit)
		untilLocked(l, func() bool { return gathered(l) == want[0] && len(l.queue) == want[1] })
	}
	close(hold)
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Fatal(err)
	}
	if n := writes.Load(); n != 2 {
		t.Fatalf("%d writes, want 2 (the two closed groups share the second)", n)
	}
	if m := marksIn(t, l); m != 3 {
		t.Fatalf("%d marks, want 3", m)
	}
	if _, err := commitN(l, MaxCommit+1); err == nil {
		t.Fatalf("a commit of %d records was taken", MaxCommit+1)
	}
	checkLog(t, l)
	mustClose(t, l)
	if r, err := Verify(dir, pubOf(opts.Signer)); err != nil || !r.OK {
		t.Fatalf("verify: %v %+v", err, r)
	}
}

// The checkpoint's side file is written after its commit is answered: a
// side file that cannot be written faults the log for the commits after,
// while the commit that carried the checkpoint is durable and answered
// without error; the next Open brings the side file up.
func TestCheckpointSideFileAfterTheCommit(t *testing.T) {
	dir := t.TempDir()
	opts := Options{Signer: testKey(1), CheckpointEvery: 5, Marks: true}
	l, _ := mustOpen(t, dir, opts)
	// A directory where the side file goes: its replacement fails.
	if err := os.MkdirAll(filepath.Join(dir, sideFile, "in-the-way"), 0o750); err != nil {
		t.Fatal(err)
	}
	var recs []Record
	for range 3 {
		r, err := commitN(l, 1)
		if err != nil {
			t.Fatalf("commit %d: %v", len(recs)+1, err)
		}
		recs = append(recs, r...)
	}
	ckpt, err := l.Read(recs[2].Seq + 1)
	if err != nil || ckpt.Type != TypeCheckpoint {
		t.Fatalf("the third commit carries no checkpoint: %+v %v", ckpt, err)
	}
	untilLocked(l, func() bool { return l.fault != nil })
	var f *Fault
	if !errors.As(l.Fault(), &f) || f.Segment != sideFile || f.Seq != ckpt.Seq {
		t.Fatalf("fault %v does not name the side file and checkpoint %d", l.Fault(), ckpt.Seq)
	}
	if _, err := l.Begin(); err != error(f) {
		t.Fatalf("Begin after the side file failed: %v", err)
	}
	checkCommitted(t, l, recs)
	if err := l.Close(); err != error(f) {
		t.Fatalf("Close: %v", err)
	}
	if err := os.RemoveAll(filepath.Join(dir, sideFile)); err != nil {
		t.Fatal(err)
	}
	l, info := mustOpen(t, dir, opts)
	defer l.Close()
	if !info.Repaired || !strings.Contains(info.RepairDetail, "checkpoint file brought up") {
		t.Fatalf("reopen: %+v", info)
	}
	checkCommitted(t, l, recs)
}
