package walog

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestPreparedLogIsLocked: a log prepared for a start-up from its tail is
// locked from the moment it is prepared (the opening that runs ahead of
// OpenTail never shares the directory with another process's log), the
// lock passes to the opened log, and every way of giving up a prepared log
// (Close, a scan that gives way to the whole log, a mismatch) leaves the
// directory unlocked and unchanged.
func TestPreparedLogIsLocked(t *testing.T) {
	dir, opts := markedLog(t, 40)
	l, _ := mustOpen(t, dir, opts)
	from, err := l.Read(30)
	if err != nil {
		t.Fatal(err)
	}
	last := l.LastSeq()
	mustClose(t, l)
	before := dirState(t, dir)
	tail := Tail{Seq: from.Seq, Hash: from.Hash}

	alreadyOpen := func(what string) {
		t.Helper()
		if _, _, err := Open(dir, opts); err == nil || !strings.Contains(err.Error(), "already open") {
			t.Fatalf("%s: Open of the same log: %v, want it already open", what, err)
		}
		if _, err := Prepare(dir, opts); err == nil || !strings.Contains(err.Error(), "already open") {
			t.Fatalf("%s: Prepare of the same log: %v, want it already open", what, err)
		}
	}
	unlocked := func(what string) {
		t.Helper()
		if got := dirState(t, dir); got != before {
			t.Fatalf("%s changed the directory:\n%s\nwas\n%s", what, got, before)
		}
		l, _ := mustOpen(t, dir, opts)
		mustClose(t, l)
	}

	p, err := Prepare(dir, opts)
	if err != nil {
		t.Fatal(err)
	}
	alreadyOpen("prepared")
	p.Close()
	p.Close() // a second Close is nothing
	unlocked("a prepared log closed")

	// A tail whose chain does not continue from the sealed hash is for
	// Open to judge: OpenTail gives way, with the lock released.
	p, err = Prepare(dir, opts)
	if err != nil {
		t.Fatal(err)
	}
	wrong := tail
	wrong.Hash[0] ^= 1
	if _, _, err := OpenTail(dir, opts, wrong, p); !errors.Is(err, ErrNotTail) {
		t.Fatalf("a tail from the wrong hash: %v, want ErrNotTail", err)
	}
	unlocked("a tail that gives way")

	// Prepared with other options, or for another directory: refused,
	// and released.
	other := opts
	other.SegmentSize *= 2
	p, err = Prepare(dir, other)
	if err != nil {
		t.Fatal(err)
	}
	if _, _, err := OpenTail(dir, opts, tail, p); err == nil || !strings.Contains(err.Error(), "other options") {
		t.Fatalf("a log prepared with other options: %v", err)
	}
	unlocked("a mismatched preparation")

	p, err = Prepare(dir, opts)
	if err != nil {
		t.Fatal(err)
	}
	l, _, err = OpenTail(dir, opts, tail, p)
	if err != nil {
		t.Fatal(err)
	}
	if l.LastSeq() != last {
		t.Fatalf("opened from its tail at %d, want %d", l.LastSeq(), last)
	}
	alreadyOpen("opened from its tail")
	p.Close() // the log kept the lock: closing what prepared it leaves it
	alreadyOpen("opened, its preparation closed")
	b, err := l.Begin()
	if err != nil {
		t.Fatal(err)
	}
	if _, err := b.Add(typeFor(last+1), payloadFor(last+1)); err != nil {
		t.Fatal(err)
	}
	if _, err := b.Commit(); err != nil {
		t.Fatal(err)
	}
	mustClose(t, l)
	l, _ = mustOpen(t, dir, opts)
	defer l.Close()
	checkLog(t, l) // every record, chained, from the first
	if l.LastSeq() != last+2 {
		t.Fatalf("after a commit on the log opened from its tail (a record and its mark): last %d, want %d", l.LastSeq(), last+2)
	}
}

// TestOpenTailRemovesAStaleSideFileWrite: the temporary file a power loss
// left while the side file was being replaced is removed by a start-up
// from the tail as by Open, found in the listing Prepare made.
func TestOpenTailRemovesAStaleSideFileWrite(t *testing.T) {
	dir, opts := markedLog(t, 40)
	l, _ := mustOpen(t, dir, opts)
	from, err := l.Read(30)
	if err != nil {
		t.Fatal(err)
	}
	mustClose(t, l)
	stale := filepath.Join(dir, sideTemp)
	if err := os.WriteFile(stale, []byte("half"), 0o640); err != nil {
		t.Fatal(err)
	}
	l, _, err = OpenTail(dir, opts, Tail{Seq: from.Seq, Hash: from.Hash}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	if _, err := os.Stat(stale); !os.IsNotExist(err) {
		t.Fatalf("the side file's temporary file is still there: %v", err)
	}
}
