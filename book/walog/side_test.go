package walog

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"
)

// TestSideFileWrittenInPlace: after the first checkpoint the side file is
// never replaced (no new file, rename or directory entry): its two slots
// are written in place. The build before replaced it whole at every
// checkpoint, two fsyncs and a rename on one commit in a few hundred.
func TestSideFileWrittenInPlace(t *testing.T) {
	dir := t.TempDir()
	opts := Options{Signer: testKey(1), CheckpointEvery: 5, Marks: true}
	l, _ := mustOpen(t, dir, opts)
	defer l.Close()
	path := filepath.Join(dir, sideFile)
	var first os.FileInfo
	for i := 0; i < 40; i++ {
		if _, err := commitN(l, 1); err != nil {
			t.Fatal(err)
		}
		fi, err := os.Stat(path)
		if err != nil {
			continue // no checkpoint yet
		}
		if first == nil {
			first = fi
			continue
		}
		if !os.SameFile(first, fi) {
			t.Fatalf("commit %d: the side file was replaced, not written in place", i+1)
		}
		if fi.Size() != int64(2*sideSlotSize) {
			t.Fatalf("commit %d: side file of %d bytes, not two slots", i+1, fi.Size())
		}
	}
	if first == nil {
		t.Fatal("no checkpoint in 40 commits")
	}
	frame, _, err := readSide(dir)
	if err != nil {
		t.Fatal(err)
	}
	l.mu.Lock()
	last := l.lastMarks
	l.mu.Unlock()
	f, err := decodeFrame(frame)
	if err != nil || f.typ != TypeCheckpoint || f.seq > last[0] {
		t.Fatalf("the newest slot holds %+v (%v), not a checkpoint before the last mark %d", f, err, last[0])
	}
	rec, err := l.Read(f.seq)
	if err != nil || rec.Type != TypeCheckpoint || rec.Hash != f.hash {
		t.Fatalf("the newest slot's checkpoint %d is not the log's: %+v %v", f.seq, rec, err)
	}
}

// TestSideFileTornSlot: a power loss while a slot is written leaves it
// torn; the other slot holds the checkpoint before, which Open accepts and
// brings up, as it did a side file one checkpoint behind.
func TestSideFileTornSlot(t *testing.T) {
	dir := t.TempDir()
	opts := Options{Signer: testKey(1), CheckpointEvery: 5, SegmentSize: 4096}
	l, _ := mustOpen(t, dir, opts)
	fill(t, l, 17) // checkpoints after the 5th, 10th and 15th records
	powerCut(l)
	path := filepath.Join(dir, sideFile)
	raw, newest := sideSlots(t, dir)
	torn := bytes.Clone(raw)
	for i := newest*sideSlotSize + sideSlotSize/2; i < (newest+1)*sideSlotSize; i++ {
		torn[i] = 0
	}
	if err := os.WriteFile(path, torn, 0o640); err != nil {
		t.Fatal(err)
	}
	l, info := mustOpen(t, dir, opts)
	if !info.Repaired || !strings.Contains(info.RepairDetail, "checkpoint file brought up") {
		t.Fatalf("open: %+v", info)
	}
	checkLog(t, l)
	fill(t, l, 6) // a checkpoint written in place on the repaired file
	mustClose(t, l)
	if r, err := Verify(dir, pubOf(opts.Signer)); err != nil || !r.OK {
		t.Fatalf("verify: %v %+v", err, r)
	}
	l, info = mustOpen(t, dir, opts)
	defer l.Close()
	if info.Repaired {
		t.Fatalf("reopen repaired: %s", info.RepairDetail)
	}

	// Both slots torn is no power loss (one slot is written at a time).
	for i := range torn {
		torn[i] = 0
	}
	copy(torn, sideMagic)
	dir2 := t.TempDir()
	l2, _ := mustOpen(t, dir2, opts)
	fill(t, l2, 12)
	mustClose(t, l2)
	os.WriteFile(filepath.Join(dir2, sideFile), torn, 0o640)
	openFault(t, dir2, opts, "checkpoint file damaged")
}

// TestSideFileBitFlips flips every bit of a closed log's side file: a
// flipped slot is read as torn. In the newest slot, Open takes the slot
// before (one checkpoint behind) and brings the file up, which it says; in
// the older slot, nothing depends on it. Never a silent acceptance of the
// flipped slot itself, never a lost record.
func TestSideFileBitFlips(t *testing.T) {
	dir := t.TempDir()
	opts := Options{Signer: testKey(1), CheckpointEvery: 5, SegmentSize: 700}
	l, _ := mustOpen(t, dir, opts)
	fillSmall(t, l, 14)
	mustClose(t, l)
	l, _ = mustOpen(t, dir, opts)
	last := l.LastSeq() // Close's checkpoint included
	powerCut(l)
	path := filepath.Join(dir, sideFile)
	pristine, newest := sideSlots(t, dir)
	flips := 0
	for off := range pristine {
		for bit := uint(0); bit < 8; bit++ {
			if testing.Short() && bit != uint(off%8) {
				continue
			}
			b := bytes.Clone(pristine)
			b[off] ^= 1 << bit
			if err := os.WriteFile(path, b, 0o640); err != nil {
				t.Fatal(err)
			}
			l, info, err := Open(dir, opts)
			if err != nil {
				t.Fatalf("byte %d bit %d: %v", off, bit, err)
			}
			repaired := info.Repaired && strings.Contains(info.RepairDetail, "checkpoint file brought up")
			if inNewest := off/sideSlotSize == newest; repaired != inNewest {
				t.Fatalf("byte %d bit %d (newest slot: %v): repaired %v (%s)", off, bit, inNewest, info.Repaired, info.RepairDetail)
			}
			if l.LastSeq() != last {
				t.Fatalf("byte %d bit %d: log ends at %d, not %d", off, bit, l.LastSeq(), last)
			}
			powerCut(l)
			flips++
		}
	}
	if err := os.WriteFile(path, pristine, 0o640); err != nil {
		t.Fatal(err)
	}
	l, info := mustOpen(t, dir, opts)
	defer l.Close()
	if info.Repaired {
		t.Fatalf("pristine log repaired: %s", info.RepairDetail)
	}
	t.Logf("%d flipped bits", flips)
}

// TestSideFileOfAnEarlierBuild: a log whose side file an earlier build
// wrote (the checkpoint frame alone) opens as before, and its next
// checkpoint makes the file two slots.
func TestSideFileOfAnEarlierBuild(t *testing.T) {
	dir := t.TempDir()
	opts := Options{Signer: testKey(1), CheckpointEvery: 5, SegmentSize: 4096, Marks: true}
	l, _ := mustOpen(t, dir, opts)
	fill(t, l, 12)
	mustClose(t, l)
	frame, _, err := readSide(dir)
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, sideFile)
	if err := os.WriteFile(path, frame, 0o640); err != nil {
		t.Fatal(err)
	}
	l, info := mustOpen(t, dir, opts)
	if info.Repaired {
		t.Fatalf("open repaired an earlier build's side file: %s", info.RepairDetail)
	}
	fill(t, l, 12)
	mustClose(t, l)
	raw, err := os.ReadFile(path)
	if err != nil || len(raw) != 2*sideSlotSize || !bytes.HasPrefix(raw, []byte(sideMagic)) {
		t.Fatalf("side file after a checkpoint: %d bytes, %v", len(raw), err)
	}
	if r, err := Verify(dir, pubOf(opts.Signer)); err != nil || !r.OK {
		t.Fatalf("verify: %v %+v", err, r)
	}
	// The earlier build's file, written back over a log that went on, is
	// a rollback as it always was.
	os.WriteFile(path, frame, 0o640)
	f := openFault(t, dir, opts, "not one of the log's last two checkpoints")
	if f.Segment != sideFile {
		t.Fatalf("fault %v does not name the side file", f)
	}
}

// TestCommitAnsweredBeforeItsSideFile: the commit whose write carries a
// checkpoint is answered once the write is durable, while the side file's
// slot is still being written; the next commit is written only after the
// slot. The build before answered after the slot's fdatasync.
func TestCommitAnsweredBeforeItsSideFile(t *testing.T) {
	dir := t.TempDir()
	l, _ := mustOpen(t, dir, Options{Signer: testKey(1), CheckpointEvery: 5, Marks: true})
	defer l.Close()
	// The first checkpoint creates the file, before its commit's answer.
	for {
		if _, err := commitN(l, 1); err != nil {
			t.Fatal(err)
		}
		if l.side.f != nil {
			break
		}
	}
	entered, release := make(chan struct{}), make(chan struct{})
	var once sync.Once
	free := func() { once.Do(func() { close(release) }) }
	defer free() // before Close, which waits for the slot
	l.mu.Lock()
	l.side.hold = func() { close(entered); <-release }
	ckpts := l.sinceCkpt
	l.mu.Unlock()
	answered := make(chan error, 1)
	go func() {
		for {
			l.mu.Lock()
			before := l.sinceCkpt
			l.mu.Unlock()
			_, err := commitN(l, 1)
			l.mu.Lock()
			after := l.sinceCkpt
			l.mu.Unlock()
			if err != nil || after < before {
				answered <- err
				return
			}
		}
	}()
	select {
	case <-entered:
	case <-time.After(time.Minute):
		t.Fatalf("no checkpoint after %d records", ckpts)
	}
	select {
	case err := <-answered:
		if err != nil {
			t.Fatal(err)
		}
	case <-time.After(time.Minute):
		t.Fatal("the commit that carried the checkpoint waits for its side file")
	}
	next := make(chan error, 1)
	go func() { _, err := commitN(l, 1); next <- err }()
	untilLocked(l, func() bool { return l.open != nil && l.open.commits == 1 && l.writing })
	select {
	case err := <-next:
		t.Fatalf("the next commit was written while the side file was (%v)", err)
	default:
	}
	free()
	if err := <-next; err != nil {
		t.Fatal(err)
	}
	frame, _, err := readSide(dir)
	if err != nil {
		t.Fatal(err)
	}
	f, _ := decodeFrame(frame)
	if r, err := l.Read(f.seq); err != nil || r.Type != TypeCheckpoint || r.Hash != f.hash {
		t.Fatalf("side file after its write: %+v %v", r, err)
	}
}

// TestSideFileSlotWriteFails: a slot that cannot be written after its
// commit was answered faults the log for the commits after; the answered
// commit's records are durable and reopen with the side file brought up.
func TestSideFileSlotWriteFails(t *testing.T) {
	dir := t.TempDir()
	opts := Options{Signer: testKey(1), CheckpointEvery: 5, Marks: true}
	l, _ := mustOpen(t, dir, opts)
	var recs []Record
	for l.side.f == nil {
		r, err := commitN(l, 1)
		if err != nil {
			t.Fatal(err)
		}
		recs = append(recs, r...)
	}
	ro, err := os.Open(filepath.Join(dir, sideFile))
	if err != nil {
		t.Fatal(err)
	}
	l.mu.Lock()
	l.side.f.Close()
	l.side.f = ro // a write to it fails
	l.mu.Unlock()
	for {
		r, err := commitN(l, 1)
		if err != nil {
			var f *Fault
			if !errors.As(err, &f) || f.Segment != sideFile {
				t.Fatalf("commit after the failed slot: %v", err)
			}
			break
		}
		recs = append(recs, r...)
	}
	l.Close()
	l, info := mustOpen(t, dir, opts)
	defer l.Close()
	if !info.Repaired || !strings.Contains(info.RepairDetail, "checkpoint file brought up") {
		t.Fatalf("reopen: %+v", info)
	}
	checkCommitted(t, l, recs)
}

// sideSlots returns the side file's bytes and the slot of its newest
// checkpoint.
func sideSlots(t *testing.T, dir string) ([]byte, int) {
	t.Helper()
	raw, err := os.ReadFile(filepath.Join(dir, sideFile))
	if err != nil {
		t.Fatal(err)
	}
	_, next, err := readSide(dir)
	if err != nil || next < 0 {
		t.Fatalf("side file: next slot %d, %v", next, err)
	}
	return raw, 1 - next
}
