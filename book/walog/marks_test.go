package walog

import (
	"bytes"
	"encoding/binary"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// forgeTail appends n records to the log in dir as someone with the data
// directory and no key would: whole frames, the chain and the CRCs
// computed, written after the last entry of the last segment. With fakeMark
// a mark with a signature of the right size but no key's ends the tail.
func forgeTail(t testing.TB, dir string, n int, fakeMark bool) (first uint64) {
	t.Helper()
	r, err := Verify(dir, nil)
	if err != nil {
		t.Fatal(err)
	}
	seq, hash := r.LastSeq, r.LastHash
	first = seq + 1
	paths := segmentPaths(t, dir)
	f, err := os.OpenFile(paths[len(paths)-1], os.O_WRONLY|os.O_APPEND, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	write := func(typ uint16, data []byte) {
		seq++
		var raw []byte
		raw, hash = encodeRecord(hash, seq, typ, data)
		if _, err := f.Write(append(binary.AppendUvarint(nil, uint64(len(raw))), raw...)); err != nil {
			t.Fatal(err)
		}
	}
	for range n {
		write(typeFor(seq+1), payloadFor(seq+1))
	}
	if fakeMark {
		write(TypeMark, bytes.Repeat([]byte{7}, 64))
	}
	return first
}

func markedLog(t testing.TB, commits int) (string, Options) {
	t.Helper()
	dir := t.TempDir()
	opts := Options{Signer: testKey(1), CheckpointEvery: 20, SegmentSize: 4096, Marks: true}
	l, _ := mustOpen(t, dir, opts)
	for i := range commits {
		b, err := l.Begin()
		if err != nil {
			t.Fatal(err)
		}
		for range 1 + i%3 {
			seq := b.seq + 1
			if _, err := b.Add(typeFor(seq), payloadFor(seq)); err != nil {
				t.Fatal(err)
			}
		}
		if _, err := b.Commit(); err != nil {
			t.Fatal(err)
		}
	}
	powerCut(l)
	return dir, opts
}

func TestCommitEndsWithAMark(t *testing.T) {
	dir, opts := markedLog(t, 30)
	l, info := mustOpen(t, dir, opts)
	defer l.Close()
	if info.Unvouched != nil || info.Repaired {
		t.Fatalf("a log of whole commits: %+v", info)
	}
	last, err := l.Read(l.LastSeq())
	if err != nil || last.Type != TypeMark {
		t.Fatalf("the log ends with %+v (%v), not a mark", last, err)
	}
	if m := l.Marks(); m[0] != l.LastSeq() || m[1] == 0 || m[1] >= m[0] {
		t.Fatalf("marks %v, log ends at %d", m, l.LastSeq())
	}
	r, err := Verify(dir, pubOf(opts.Signer))
	if err != nil || !r.OK || r.VouchedSeq != r.LastSeq {
		t.Fatalf("verify: %v %+v", err, r)
	}
}

// The attack of issue 23: records appended after the last signed record,
// chain and CRCs right, no key. Verify refuses and names the first one;
// Open cuts them, keeps them as evidence and says so.
func TestForgedTailIsNotVouchedFor(t *testing.T) {
	for _, c := range []struct {
		name     string
		n        int
		fakeMark bool
	}{{"one record", 1, false}, {"300 records", 300, false}, {"with a forged mark", 5, true}} {
		t.Run(c.name, func(t *testing.T) {
			dir, opts := markedLog(t, 10)
			before, _ := Verify(dir, pubOf(opts.Signer))
			first := forgeTail(t, dir, c.n, c.fakeMark)
			r, err := Verify(dir, pubOf(opts.Signer))
			if err != nil || r.OK {
				t.Fatalf("verify of a forged tail passed: %v %+v", err, r)
			}
			if r.VouchedSeq != before.LastSeq || !strings.Contains(strings.Join(r.Problems, "\n"), "record "+itoa(first)+" is the first not vouched for") {
				t.Fatalf("verify does not name record %d: %+v", first, r)
			}
			l, info := mustOpen(t, dir, opts)
			defer l.Close()
			u := info.Unvouched
			if u == nil || u.First != first || l.LastSeq() != before.LastSeq {
				t.Fatalf("open kept the forged tail: %+v, log ends at %d, was %d", info, l.LastSeq(), before.LastSeq)
			}
			if u.NoPowerLoss != (c.n+1 > MaxBatch) {
				t.Fatalf("%d records judged NoPowerLoss=%v", c.n, u.NoPowerLoss)
			}
			ev, err := os.ReadFile(filepath.Join(dir, u.Evidence))
			if err != nil || len(ev) == 0 {
				t.Fatalf("evidence %s: %v", u.Evidence, err)
			}
			if _, err := l.Append(1, []byte("after")); err != nil {
				t.Fatal(err)
			}
			mustClose(t, l)
			if r, err := Verify(dir, pubOf(opts.Signer)); err != nil || !r.OK {
				t.Fatalf("the log after the cut does not verify: %v %+v", err, r)
			}
		})
	}
}

// A commit cut by a power loss before its mark was never acknowledged:
// Open drops it as unvouched, and the log goes on.
func TestCommitCutBeforeItsMark(t *testing.T) {
	dir, opts := markedLog(t, 12)
	paths := segmentPaths(t, dir)
	last := paths[len(paths)-1]
	ents := entriesOf(t, last)
	if len(ents) < 2 {
		t.Skip("last segment too short") // cannot happen with 4 KiB segments and 12 commits
	}
	truncate(t, last, int64(ents[len(ents)-1].off)) // the mark is lost
	l, info := mustOpen(t, dir, opts)
	if info.Unvouched == nil || info.Unvouched.NoPowerLoss {
		t.Fatalf("open: %+v", info)
	}
	if m, err := l.Read(l.LastSeq()); err != nil || m.Type != TypeMark {
		t.Fatalf("after the cut the log ends with %+v (%v), not the previous mark", m, err)
	}
	mustClose(t, l)
}

// A log whose marks were all signed by another key: the tail cannot be
// cut to a vouched head, and Open refuses.
func TestMarksOfAnotherKey(t *testing.T) {
	dir, _ := markedLog(t, 5)
	other := Options{Signer: testKey(2), Marks: true, CheckpointEvery: 1000}
	openFault(t, dir, other, "does not verify with the machine key")
}

func itoa(n uint64) string { return strconv.FormatUint(n, 10) }
