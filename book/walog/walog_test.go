package walog

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
)

func TestRoundTrip(t *testing.T) {
	dir := t.TempDir()
	opts := Options{Signer: testKey(1), CheckpointEvery: 7, SegmentSize: 2048}
	l, info := mustOpen(t, dir, opts)
	if info.Repaired || info.LastSeq != 0 || info.LastHash != genesis {
		t.Fatalf("new log: %+v", info)
	}
	want := map[uint64]Record{}
	segsSeen := 1
	for range 150 {
		seq := l.LastSeq() + 1
		rec, err := l.Append(typeFor(seq), payloadFor(seq))
		if err != nil {
			t.Fatal(err)
		}
		want[rec.Seq] = rec
		// walog's mirror of where tidwall/wal writes decides the directory
		// fsync; it must name the newest segment file on disk exactly.
		paths := segmentPaths(t, dir)
		if got := filepath.Base(paths[len(paths)-1]); got != segmentName(l.segIndex) {
			t.Fatalf("after seq %d: newest segment %s, walog thinks %s", rec.Seq, got, segmentName(l.segIndex))
		}
		if len(paths) != len(l.segStarts) {
			t.Fatalf("after seq %d: %d segment files, walog knows %d", rec.Seq, len(paths), len(l.segStarts))
		}
		segsSeen = len(paths)
	}
	if segsSeen < 5 {
		t.Fatalf("only %d segments; the test wants several", segsSeen)
	}
	last, lastHash := l.LastSeq(), l.LastHash()
	mustClose(t, l)

	l, info = mustOpen(t, dir, opts)
	defer l.Close()
	if info.Repaired || info.LastSeq != last+1 {
		t.Fatalf("reopen: %+v, want LastSeq %d (Close adds a checkpoint)", info, last+1)
	}
	ckpts := checkLog(t, l)
	if ckpts != 150/7+1 {
		t.Fatalf("%d checkpoints, want %d", ckpts, 150/7+1)
	}
	n := 0
	err := l.Scan(1, func(r Record) error {
		if r.Type == TypeCheckpoint {
			return nil
		}
		w, ok := want[r.Seq]
		if !ok || w.Type != r.Type || !bytes.Equal(w.Data, r.Data) || w.Hash != r.Hash {
			return fmt.Errorf("seq %d differs from what Append returned", r.Seq)
		}
		n++
		return nil
	})
	if err != nil || n != len(want) {
		t.Fatalf("scan: %v, %d of %d records", err, n, len(want))
	}
	if r, err := l.Read(last); err != nil || r.Hash != lastHash {
		t.Fatalf("read %d: %v", last, err)
	}
	for _, seq := range []uint64{1, 2, 8, 57, last} {
		r, err := l.Read(seq)
		if err != nil {
			t.Fatalf("read %d: %v", seq, err)
		}
		if w, ok := want[seq]; ok && (w.Hash != r.Hash || !bytes.Equal(w.Data, r.Data)) {
			t.Fatalf("read %d differs", seq)
		}
	}
	// Scanning from the middle checks the link to the record before.
	var first uint64
	if err := l.Scan(60, func(r Record) error {
		if first == 0 {
			first = r.Seq
		}
		return nil
	}); err != nil || first != 60 {
		t.Fatalf("scan from 60: %v, first %d", err, first)
	}
	if _, err := l.Read(0); !errors.Is(err, ErrNotFound) {
		t.Fatalf("read 0: %v", err)
	}
	if _, err := l.Read(l.LastSeq() + 1); !errors.Is(err, ErrNotFound) {
		t.Fatalf("read past end: %v", err)
	}
	if err := l.Scan(l.LastSeq()+2, func(Record) error { return nil }); !errors.Is(err, ErrNotFound) {
		t.Fatalf("scan past end: %v", err)
	}
	stop := errors.New("stop")
	if err := l.Scan(1, func(Record) error { return stop }); err != stop {
		t.Fatalf("scan did not return fn's error: %v", err)
	}
}

func TestAppendRules(t *testing.T) {
	dir := t.TempDir()
	l, _ := mustOpen(t, dir, Options{})
	if _, err := l.Append(TypeCheckpoint, nil); err == nil {
		t.Fatal("append of the reserved checkpoint type accepted")
	}
	if _, err := l.Append(1, make([]byte, MaxData+1)); err == nil {
		t.Fatal("oversized record accepted")
	}
	if l.Fault() != nil || l.LastSeq() != 0 {
		t.Fatalf("refused appends changed the log: fault %v, last %d", l.Fault(), l.LastSeq())
	}
	if _, _, err := Open(dir, Options{}); err == nil || !strings.Contains(err.Error(), "already open") {
		t.Fatalf("second open of an open log: %v", err)
	}
	mustClose(t, l)
	if err := l.Close(); !errors.Is(err, ErrClosed) {
		t.Fatalf("second close: %v", err)
	}
	if _, err := l.Append(1, nil); !errors.Is(err, ErrClosed) {
		t.Fatalf("append after close: %v", err)
	}
	// Without a signer Close writes nothing.
	l, info := mustOpen(t, dir, Options{})
	if info.LastSeq != 0 {
		t.Fatalf("empty log reopened with LastSeq %d", info.LastSeq)
	}
	mustClose(t, l)
}

func TestOpenCreatesNestedDir(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "a", "b", "log")
	l, _ := mustOpen(t, dir, Options{})
	fill(t, l, 3)
	mustClose(t, l)
	l, _ = mustOpen(t, dir, Options{})
	defer l.Close()
	checkLog(t, l)
}

func TestConcurrentScanAndAppend(t *testing.T) {
	dir := t.TempDir()
	l, _ := mustOpen(t, dir, Options{Signer: testKey(1), CheckpointEvery: 5, SegmentSize: 4096})
	defer l.Close()
	fill(t, l, 20)
	var wg sync.WaitGroup
	errs := make(chan error, 4)
	wg.Add(2)
	go func() {
		defer wg.Done()
		for range 40 {
			seq := l.LastSeq() + 1 // only this goroutine appends
			if _, err := l.Append(typeFor(seq), payloadFor(seq)); err != nil {
				errs <- err
				return
			}
		}
	}()
	go func() {
		defer wg.Done()
		for range 10 {
			if err := l.Scan(1, func(r Record) error {
				if r.Type != TypeCheckpoint && !bytes.Equal(r.Data, payloadFor(r.Seq)) {
					return fmt.Errorf("seq %d content", r.Seq)
				}
				return nil
			}); err != nil {
				errs <- err
				return
			}
		}
	}()
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Fatal(err)
	}
	checkLog(t, l)
}

// buildTornBase makes a log and cuts power after it, so its last record is
// a user record. alone puts that record first in a fresh segment.
func buildTornBase(t *testing.T, dir string, alone bool) (opts Options, recs []Record) {
	opts = Options{Signer: testKey(1), CheckpointEvery: 4, SegmentSize: 1024}
	l, _ := mustOpen(t, dir, opts)
	recs = fill(t, l, 9)
	// The last record must be a user record of a useful size with no
	// checkpoint after it, in the last segment (one that fills its segment
	// is followed by an empty new one), and with alone the first there.
	for i := 0; ; i++ {
		if i == 10000 {
			t.Fatal("could not arrange the last record")
		}
		next := len(payloadFor(l.LastSeq() + 1))
		entry := int64(uvarintLen(uint64(frameOverhead+next)) + frameOverhead + next)
		if next > 60 && next < 160 && l.sinceCkpt+1 < l.every && l.segSize+entry < int64(l.segLimit) &&
			recs[len(recs)-1].Seq == l.LastSeq() && (!alone || l.segSize == 0) {
			break
		}
		recs = append(recs, fill(t, l, 1)...)
	}
	recs = append(recs, fill(t, l, 1)...)
	powerCut(l)
	return opts, recs
}

func TestTornLastRecordEveryOffset(t *testing.T) {
	for _, alone := range []bool{false, true} {
		t.Run(fmt.Sprintf("alone=%v", alone), func(t *testing.T) {
			base := t.TempDir()
			opts, recs := buildTornBase(t, base, alone)
			paths := segmentPaths(t, base)
			lastPath := paths[len(paths)-1]
			ents := entriesOf(t, lastPath)
			if alone != (len(ents) == 1) {
				t.Fatalf("last segment holds %d entries", len(ents))
			}
			last := ents[len(ents)-1]
			lastRec := recs[len(recs)-1]
			prevRec := recs[len(recs)-2]
			if lastRec.Seq != prevRec.Seq+1 {
				t.Fatalf("a checkpoint sits between seq %d and %d", prevRec.Seq, lastRec.Seq)
			}
			work := filepath.Join(t.TempDir(), "log")
			seg := filepath.Base(lastPath)
			step := 1
			if testing.Short() {
				step = 7
			}
			pristine, err := os.ReadFile(lastPath)
			if err != nil {
				t.Fatal(err)
			}
			repaired := 0
			fresh := false
			for keep := 0; keep < last.end-last.off; keep += step {
				// Files created anew cost a journal commit at their first
				// fsync; when only the last segment changed, rewrite it in
				// place instead of copying the directory.
				if fresh {
					if err := os.WriteFile(filepath.Join(work, seg), pristine[:last.off+keep], 0o640); err != nil {
						t.Fatal(err)
					}
				} else {
					copyDir(t, base, work)
					truncate(t, filepath.Join(work, seg), int64(last.off+keep))
				}
				fresh = true
				l, info, err := Open(work, opts)
				if err != nil {
					t.Fatalf("keep %d of %d bytes: %v", keep, last.end-last.off, err)
				}
				wantDetail := fmt.Sprintf("torn last record after seq %d: %d bytes of segment %s discarded", prevRec.Seq, keep, seg)
				switch {
				case keep == 0 && info.Repaired:
					t.Fatalf("whole entry removed, yet repaired: %s", info.RepairDetail)
				case keep > 0 && (!info.Repaired || info.RepairDetail != wantDetail):
					t.Fatalf("keep %d: repaired=%v %q, want %q", keep, info.Repaired, info.RepairDetail, wantDetail)
				}
				if keep > 0 {
					repaired++
				}
				if info.LastSeq != prevRec.Seq || info.LastHash != prevRec.Hash || l.LastSeq() != prevRec.Seq {
					t.Fatalf("keep %d: LastSeq %d, want %d", keep, info.LastSeq, prevRec.Seq)
				}
				// Appending goes on where the log ends; the new record is
				// the same one as before, so the chain matches the original.
				rec, err := l.Append(typeFor(lastRec.Seq), payloadFor(lastRec.Seq))
				if err != nil || rec.Seq != lastRec.Seq || rec.Hash != lastRec.Hash {
					t.Fatalf("keep %d: append after repair: %v, seq %d", keep, err, rec.Seq)
				}
				if r, err := l.Read(rec.Seq); err != nil || r.Hash != rec.Hash {
					t.Fatalf("keep %d: read back: %v", keep, err)
				}
				// The full cycle (checkpoint, close, reopen, scan) creates
				// files, which costs milliseconds of journal each; do it for
				// a sample of offsets.
				if keep%16 != 1 && keep < last.end-last.off-step {
					powerCut(l)
					continue
				}
				fresh = false
				fill(t, l, 2)
				mustClose(t, l)
				l, info = mustOpen(t, work, opts)
				if info.Repaired {
					t.Fatalf("keep %d: second open repaired again: %s", keep, info.RepairDetail)
				}
				checkLog(t, l)
				mustClose(t, l)
			}
			t.Logf("%d torn tails repaired", repaired)
		})
	}
}

// TestBitFlips flips bits everywhere in a closed log's segments. Every flip
// must stop Open with a *Fault; a flip in a complete last record is damage,
// not a torn write. The side file's flips are TestSideFileBitFlips'.
func TestBitFlips(t *testing.T) {
	dir := t.TempDir()
	opts := Options{Signer: testKey(1), CheckpointEvery: 5, SegmentSize: 700}
	l, _ := mustOpen(t, dir, opts)
	fillSmall(t, l, 14)
	mustClose(t, l)
	files := segmentPaths(t, dir)
	if len(files) < 3 {
		t.Fatalf("want several segments, have %d files", len(files))
	}
	flips := 0
	for _, p := range files {
		fi, err := os.Stat(p)
		if err != nil {
			t.Fatal(err)
		}
		for off := 0; off < int(fi.Size()); off++ {
			for bit := uint(0); bit < 8; bit++ {
				if testing.Short() && bit != uint(off%8) {
					continue
				}
				flipBit(t, p, off, bit)
				l, _, err := Open(dir, opts)
				var f *Fault
				if !errors.As(err, &f) {
					if l != nil {
						l.Close()
					}
					t.Fatalf("%s byte %d bit %d: open gave %v, want a fault", filepath.Base(p), off, bit, err)
				}
				flipBit(t, p, off, bit)
				flips++
			}
		}
	}
	l, info := mustOpen(t, dir, opts)
	if info.Repaired {
		t.Fatalf("pristine log repaired: %s", info.RepairDetail)
	}
	mustClose(t, l)
	t.Logf("%d flipped bits, each a fault", flips)
}

// fillSmall appends records of 0 to 60 bytes, to keep bit-flip tests short.
func fillSmall(t testing.TB, l *Log, n int) {
	t.Helper()
	for i := range n {
		if _, err := l.Append(uint16(i), bytes.Repeat([]byte{byte(i)}, (i*13)%61)); err != nil {
			t.Fatal(err)
		}
	}
}

func TestZeroFilledTail(t *testing.T) {
	for _, n := range []int{1, 4096} {
		dir := t.TempDir()
		l, _ := mustOpen(t, dir, Options{SegmentSize: 4096})
		fill(t, l, 10)
		last := l.LastSeq()
		mustClose(t, l)
		paths := segmentPaths(t, dir)
		f, err := os.OpenFile(paths[len(paths)-1], os.O_WRONLY|os.O_APPEND, 0)
		if err != nil {
			t.Fatal(err)
		}
		f.Write(make([]byte, n))
		f.Close()
		flt := openFault(t, dir, Options{}, "record damaged")
		if flt.Seq != last+1 {
			t.Fatalf("%d zero bytes: fault names seq %d, want %d", n, flt.Seq, last+1)
		}
		r, err := Verify(dir, nil)
		if err != nil || r.OK || r.LastSeq != last {
			t.Fatalf("verify: %v %+v", err, r)
		}
	}
}

func TestMissingMiddleSegment(t *testing.T) {
	dir := t.TempDir()
	l, _ := mustOpen(t, dir, Options{SegmentSize: 2048})
	fill(t, l, 60)
	mustClose(t, l)
	paths := segmentPaths(t, dir)
	if len(paths) < 3 {
		t.Fatalf("%d segments", len(paths))
	}
	if err := os.Remove(paths[1]); err != nil {
		t.Fatal(err)
	}
	openFault(t, dir, Options{}, "missing (segment file absent)")

	// The first segment is just as necessary.
	dir = t.TempDir()
	l, _ = mustOpen(t, dir, Options{SegmentSize: 2048})
	fill(t, l, 60)
	mustClose(t, l)
	os.Remove(segmentPaths(t, dir)[0])
	openFault(t, dir, Options{}, "records 1 to")
}

func TestForeignTruncationFile(t *testing.T) {
	dir := t.TempDir()
	l, _ := mustOpen(t, dir, Options{SegmentSize: 2048})
	fill(t, l, 30)
	mustClose(t, l)
	name := filepath.Join(dir, segmentName(5)+".START")
	if err := os.WriteFile(name, nil, 0o640); err != nil {
		t.Fatal(err)
	}
	before := dirState(t, dir)
	openFault(t, dir, Options{}, "truncation file")
	if after := dirState(t, dir); after != before {
		// tidwall/wal would have deleted segments before index 5.
		t.Fatalf("open touched the log:\n%s\n%s", before, after)
	}
}

func TestTruncatedBelowCheckpoint(t *testing.T) {
	opts := Options{Signer: testKey(1), CheckpointEvery: 6, SegmentSize: 4096}
	base := t.TempDir()
	l, _ := mustOpen(t, base, opts)
	fill(t, l, 40)
	mustClose(t, l) // the last record is now a checkpoint named by the side file
	paths := segmentPaths(t, base)
	lastSeg := filepath.Base(paths[len(paths)-1])
	ents := entriesOf(t, paths[len(paths)-1])
	if len(ents) < 3 {
		t.Fatalf("last segment holds %d entries", len(ents))
	}
	work := filepath.Join(t.TempDir(), "log")
	for cut := 1; cut <= 3; cut++ {
		copyDir(t, base, work)
		truncate(t, filepath.Join(work, lastSeg), int64(ents[len(ents)-cut].off))
		openFault(t, work, opts, "log ends before the signed checkpoint at seq")
		r, err := Verify(work, pubOf(opts.Signer))
		if err != nil || r.OK || !strings.Contains(strings.Join(r.Problems, "\n"), "log ends before the signed checkpoint") {
			t.Fatalf("verify after cutting %d records: %v %+v", cut, err, r)
		}
	}
	// Whole segments removed from the end.
	copyDir(t, base, work)
	os.Remove(filepath.Join(work, lastSeg))
	openFault(t, work, opts, "log ends before the signed checkpoint at seq")
	// Every segment removed: a fresh log must not be started.
	copyDir(t, base, work)
	for _, p := range paths {
		os.Remove(filepath.Join(work, filepath.Base(p)))
	}
	openFault(t, work, opts, "log ends before the signed checkpoint at seq")
	// Without a signer the side file is still enforced.
	openFault(t, work, Options{}, "log ends before the signed checkpoint at seq")
}

func TestCheckpointSideFileCrashWindow(t *testing.T) {
	opts := Options{Signer: testKey(1), CheckpointEvery: 5, SegmentSize: 4096}
	dir := t.TempDir()
	l, _ := mustOpen(t, dir, opts)
	fill(t, l, 12) // checkpoints after the 5th and 10th records
	old, err := os.ReadFile(filepath.Join(dir, sideFile))
	if err != nil {
		t.Fatal(err)
	}
	fill(t, l, 5) // one more checkpoint
	powerCut(l)
	// The crash came after the last checkpoint record but before its side
	// file: the side file names the checkpoint before.
	if err := os.WriteFile(filepath.Join(dir, sideFile), old, 0o640); err != nil {
		t.Fatal(err)
	}
	os.WriteFile(filepath.Join(dir, sideTemp), []byte("half"), 0o640)
	l, info := mustOpen(t, dir, opts)
	if !info.Repaired || !strings.Contains(info.RepairDetail, "checkpoint file brought up") {
		t.Fatalf("open: %+v", info)
	}
	if _, err := os.Stat(filepath.Join(dir, sideTemp)); !os.IsNotExist(err) {
		t.Fatalf("stale temp file left: %v", err)
	}
	checkLog(t, l)
	mustClose(t, l)
	r, err := Verify(dir, pubOf(opts.Signer))
	if err != nil || !r.OK {
		t.Fatalf("verify: %v %+v", err, r)
	}

	// A side file older than that is a rollback, not a crash.
	l, _ = mustOpen(t, dir, opts)
	fill(t, l, 12)
	mustClose(t, l)
	os.WriteFile(filepath.Join(dir, sideFile), old, 0o640)
	openFault(t, dir, opts, "not one of the log's last two checkpoints")
	// And a missing side file with several checkpoints in the log.
	os.Remove(filepath.Join(dir, sideFile))
	openFault(t, dir, opts, "checkpoint file is missing")
}

func TestForgedCheckpoint(t *testing.T) {
	dir := t.TempDir()
	forger := Options{Signer: testKey(9), CheckpointEvery: 5, SegmentSize: 4096}
	l, _ := mustOpen(t, dir, forger)
	fill(t, l, 12)
	mustClose(t, l)
	openFault(t, dir, Options{Signer: testKey(1)}, "does not verify with the machine key")
	r, err := Verify(dir, pubOf(testKey(1)))
	if err != nil || r.OK {
		t.Fatalf("verify: %v %+v", err, r)
	}
	bad := 0
	for _, p := range r.Problems {
		if strings.Contains(p, "does not verify") {
			bad++
		}
	}
	// Every checkpoint record and the side file are reported.
	if bad != r.Checkpoints+1 || r.Checkpoints != 3 {
		t.Fatalf("%d bad signatures reported for %d checkpoints: %q", bad, r.Checkpoints, r.Problems)
	}
}

func TestVerify(t *testing.T) {
	key := testKey(1)
	opts := Options{Signer: key, CheckpointEvery: 5, SegmentSize: 2048}
	dir := t.TempDir()
	l, _ := mustOpen(t, dir, opts)
	fill(t, l, 30)
	mustClose(t, l)
	l, _ = mustOpen(t, dir, opts)
	wantLast, wantHash := l.LastSeq(), l.LastHash()
	mustClose(t, l)

	verify := func(pub []byte) *Report {
		t.Helper()
		before := dirState(t, dir)
		r, err := Verify(dir, pub)
		if err != nil {
			t.Fatal(err)
		}
		if after := dirState(t, dir); after != before {
			t.Fatalf("verify changed the directory:\n%s\n---\n%s", before, after)
		}
		return r
	}

	r := verify(pubOf(key))
	if !r.OK || len(r.Problems) != 0 || r.LastSeq != wantLast || r.Records != wantLast ||
		r.LastHash != wantHash || r.Checkpoints != 6 || r.LastCheckpointSeq != wantLast || r.TornTail != "" {
		t.Fatalf("good log: %+v", r)
	}
	r = verify(nil)
	if r.OK || len(r.Problems) != 1 || !strings.Contains(r.Problems[0], "not checked") {
		t.Fatalf("no key: %+v", r)
	}

	// A flipped bit.
	paths := segmentPaths(t, dir)
	flipBit(t, paths[1], 40, 3)
	r = verify(pubOf(key))
	if r.OK || r.LastSeq >= wantLast || !strings.Contains(r.Problems[0], "record damaged") {
		t.Fatalf("flipped bit: %+v", r)
	}
	flipBit(t, paths[1], 40, 3)

	// A torn tail is reported, not repaired, and is no problem by itself.
	l, _ = mustOpen(t, dir, Options{SegmentSize: 2048}) // no signer: no checkpoint at close
	fill(t, l, 3)
	powerCut(l)
	paths = segmentPaths(t, dir)
	lastPath := paths[len(paths)-1]
	fi, _ := os.Stat(lastPath)
	truncate(t, lastPath, fi.Size()-5)
	r = verify(pubOf(key))
	if !r.OK || r.TornTail == "" || r.LastSeq != wantLast+2 {
		t.Fatalf("torn tail: %+v", r)
	}
	if fi2, _ := os.Stat(lastPath); fi2.Size() != fi.Size()-5 {
		t.Fatal("verify repaired the torn tail")
	}

	if _, err := Verify(filepath.Join(dir, "nope"), nil); err == nil {
		t.Fatal("verify of a missing directory gave no error")
	}
}

// TestDamageFoundWhileOpen damages a record after Open verified the log:
// reading it faults the Log for good, and appends stop.
func TestDamageFoundWhileOpen(t *testing.T) {
	dir := t.TempDir()
	opts := Options{SegmentSize: 2048}
	l, _ := mustOpen(t, dir, opts)
	fill(t, l, 40)
	mustClose(t, l)
	l, _ = mustOpen(t, dir, opts)
	defer l.Close()
	paths := segmentPaths(t, dir)
	ents := entriesOf(t, paths[0]) // not the last segment: tidwall/wal reads it lazily
	flipBit(t, paths[0], ents[2].off+20, 1)
	_, err := l.Read(3)
	var f *Fault
	if !errors.As(err, &f) || f.Seq != 3 || f.Segment != segmentName(1) {
		t.Fatalf("read of a damaged record: %v", err)
	}
	if l.Fault() != error(f) {
		t.Fatalf("Fault() = %v", l.Fault())
	}
	if _, err := l.Append(1, nil); err != error(f) {
		t.Fatalf("append after damage: %v", err)
	}
	if err := l.Scan(1, func(Record) error { return nil }); !errors.As(err, &f) {
		t.Fatalf("scan over damage: %v", err)
	}
}
