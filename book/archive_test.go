package book

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// The book moves to the log's archive exactly the segments before the
// older snapshot on file, as it plays: start-up from the snapshots reads
// from the older one with nothing of the archive, the whole-log start-up
// (no snapshot left) reads the archive and folds the same state, and
// Verify reads every record from the first.
func TestArchiveHoldsWhatPrecedesTheOlderSnapshot(t *testing.T) {
	opts := Options{SealEvery: 10, CheckpointEvery: 7, SegmentSize: 400}
	r := newRig(t)
	b, st, _, err := r.openWith(opts)
	if err != nil {
		t.Fatal(err)
	}
	for i := range 80 {
		r.add(b, st, int64(i%9+1))
	}
	want := *st
	b.Close(st)
	logDir := filepath.Join(r.dir, LogDir)
	_, snaps := snapshotFiles(t, r.dir)
	paths := segmentPaths(t, logDir)
	var archived, kept []string
	for _, p := range paths {
		if strings.Contains(p, "/archive/") {
			archived = append(archived, p)
		} else {
			kept = append(kept, p)
		}
	}
	if len(archived) < 3 || len(kept) == 0 {
		t.Fatalf("archived %d segments, kept %d", len(archived), len(kept))
	}
	// Every archived record precedes the older snapshot; the first kept
	// segment starts at or before the record after it.
	firstKept := startOf(t, kept[0])
	if firstKept > snaps[0].Seq+1 {
		t.Fatalf("the log keeps segments from record %d, the older snapshot is at %d", firstKept, snaps[0].Seq)
	}
	if last := startOf(t, archived[len(archived)-1]); last >= snaps[0].Seq {
		t.Fatalf("archived a segment from record %d, not before the older snapshot %d", last, snaps[0].Seq)
	}

	saved, witness := r.save()
	b, got, info, err := r.openWith(opts)
	if err != nil || *got != want || info.ReadFrom != snaps[0].Seq+1 || info.WholeLog != "" {
		t.Fatalf("from the snapshots: %+v %+v %v", *got, info, err)
	}
	b.Close(nil)

	r.restore(saved, witness)
	for i := range 2 {
		os.Remove(filepath.Join(r.dir, snapPrefix+strconv.Itoa(i)))
	}
	b, got, info, err = r.openWith(opts)
	if err != nil || *got != want || info.ReadFrom != 1 {
		t.Fatalf("the whole log: %+v %+v %v", *got, info, err)
	}
	b.Close(nil)
	if v, err := Verify(r.dir, tallySpec, r.pub()); err != nil || !v.OK {
		t.Fatalf("verify: %+v %v", v, err)
	}
}

// startOf is the first record of a segment file, by its name.
func startOf(t *testing.T, path string) uint64 {
	t.Helper()
	seq, err := strconv.ParseUint(filepath.Base(path), 10, 64)
	if err != nil {
		t.Fatal(err)
	}
	return seq
}
