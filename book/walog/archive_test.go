package walog

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func archiveOpts() Options {
	return Options{SegmentSize: 2048, Signer: testKey(3), CheckpointEvery: 10, Marks: true}
}

// mainAndArchive lists the segment files in dir and in its archive.
func mainAndArchive(t *testing.T, dir string) (main, archived []segFile) {
	t.Helper()
	main, _, _, err := listDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	archived, err = listArchive(dir)
	if err != nil {
		t.Fatal(err)
	}
	return main, archived
}

// Archive moves exactly the segments wholly before the record named, never
// the one being written; every record still reads and scans from the
// first, appends go on, and Open and Verify read the archive with the log.
func TestArchiveMovesWhatPrecedesAndReadsIt(t *testing.T) {
	dir := t.TempDir()
	opts := archiveOpts()
	l, _ := mustOpen(t, dir, opts)
	fill(t, l, 200)
	before, _ := mainAndArchive(t, dir)
	if len(before) < 6 {
		t.Fatalf("%d segments", len(before))
	}
	at := before[4].index + 1 // inside the fifth segment
	if _, err := l.Archive(at); err != nil {
		t.Fatal(err)
	}
	main, archived := mainAndArchive(t, dir)
	if len(archived) != 4 || main[0].index != before[4].index {
		t.Fatalf("archived %v, left %v: want the 4 segments before record %d moved", archived, main, at)
	}
	for i, a := range archived {
		if a.index != before[i].index || filepath.Base(a.name) != before[i].name {
			t.Fatalf("archived %v, want %v first", archived, before[:4])
		}
	}
	checkLog(t, l)
	for _, seq := range []uint64{1, before[1].index, before[4].index - 1, at} {
		r, err := l.Read(seq)
		if err != nil || r.Seq != seq {
			t.Fatalf("read %d: %+v %v", seq, r, err)
		}
	}
	// Far past the end: all but the segment tidwall/wal writes.
	if _, err := l.Archive(l.LastSeq() + 1000); err != nil {
		t.Fatal(err)
	}
	main, _ = mainAndArchive(t, dir)
	if len(main) != 1 || main[0].index != before[len(before)-1].index {
		t.Fatalf("left %v, want the last segment %s alone", main, before[len(before)-1].name)
	}
	fill(t, l, 100)
	checkLog(t, l)
	mustClose(t, l)

	l, info := mustOpen(t, dir, opts)
	if info.Repaired || checkLog(t, l) == 0 {
		t.Fatalf("reopened: %+v", info)
	}
	mustClose(t, l)
	rep, err := Verify(dir, pubOf(opts.Signer))
	if err != nil || !rep.OK || rep.LastSeq != info.LastSeq {
		t.Fatalf("verify: %+v %v", rep, err)
	}
}

// A power cut keeps each move or not (a rename), in order: whatever
// prefix of the segments is in the archive, the log opens whole, and a
// state no crash leaves (a later segment moved, an earlier not; the last
// moved) is put back so that tidwall/wal sees its segments without a gap.
func TestArchiveEverySplit(t *testing.T) {
	base := t.TempDir()
	opts := archiveOpts()
	l, _ := mustOpen(t, base, opts)
	fill(t, l, 150)
	mustClose(t, l)
	segs, _ := mainAndArchive(t, base)
	moves := map[string][]int{"none": nil, "all": nil, "interleaved": {0, 2, 3}, "the last alone": {len(segs) - 1}}
	for k := 1; k <= len(segs); k++ {
		var m []int
		for i := range k {
			m = append(m, i)
		}
		moves[strings.Repeat("p", k)] = m
	}
	for i := range segs {
		moves["all"] = append(moves["all"], i)
	}
	for name, m := range moves {
		dir := filepath.Join(t.TempDir(), "log")
		copyDir(t, base, dir)
		os.Mkdir(filepath.Join(dir, archiveDir), 0o750)
		for _, i := range m {
			if err := os.Rename(filepath.Join(dir, segs[i].name), filepath.Join(dir, archiveDir, segs[i].name)); err != nil {
				t.Fatal(err)
			}
		}
		l, info := mustOpen(t, dir, opts)
		checkLog(t, l)
		fill(t, l, 20) // tidwall/wal appends where walog does
		checkLog(t, l)
		mustClose(t, l)
		main, archived := mainAndArchive(t, dir)
		if len(main) == 0 || len(archived) > 0 && archived[len(archived)-1].index > main[0].index {
			t.Fatalf("%s: after open, archived %v and left %v", name, archived, main)
		}
		if rep, err := Verify(dir, pubOf(opts.Signer)); err != nil || !rep.OK || rep.LastSeq < info.LastSeq+20 {
			t.Fatalf("%s: verify %+v %v", name, rep, err)
		}
	}
}

// What someone with the data directory can do to the archive, performed:
// a segment copied back beside its archived self, an archived segment
// removed or changed. Open refuses each and names it; Verify too.
func TestArchiveAttacks(t *testing.T) {
	base := t.TempDir()
	opts := archiveOpts()
	l, _ := mustOpen(t, base, opts)
	fill(t, l, 150)
	if _, err := l.Archive(l.LastSeq()); err != nil {
		t.Fatal(err)
	}
	mustClose(t, l)
	_, archived := mainAndArchive(t, base)
	if len(archived) < 3 {
		t.Fatalf("%d archived", len(archived))
	}
	attacks := []struct {
		name, want string
		do         func(dir string)
	}{
		{"a segment in both places", "both in the archive and in the log", func(dir string) {
			data, _ := os.ReadFile(filepath.Join(dir, archived[1].name))
			os.WriteFile(filepath.Join(dir, filepath.Base(archived[1].name)), data, 0o640)
		}},
		{"an archived segment removed", "missing (segment file absent)", func(dir string) {
			os.Remove(filepath.Join(dir, archived[1].name))
		}},
		{"the first archived segment removed", "records 1 to", func(dir string) {
			os.Remove(filepath.Join(dir, archived[0].name))
		}},
		{"an archived record changed", "record damaged", func(dir string) {
			path := filepath.Join(dir, archived[1].name)
			data, _ := os.ReadFile(path)
			data[len(data)/2] ^= 0x10
			os.WriteFile(path, data, 0o640)
		}},
	}
	for _, a := range attacks {
		dir := filepath.Join(t.TempDir(), "log")
		copyDir(t, base, dir)
		a.do(dir)
		f := openFault(t, dir, opts, a.want)
		if strings.Contains(a.want, "damaged") && !strings.HasPrefix(f.Segment, archiveDir+"/") {
			t.Errorf("%s: the fault names %q, not the archived file", a.name, f.Segment)
		}
		if rep, err := Verify(dir, pubOf(opts.Signer)); err != nil || rep.OK {
			t.Errorf("%s: verify said OK: %+v %v", a.name, rep, err)
		}
	}
}

// Verify may run on a log in use (the inspector's meterread on a live
// cabinet): a segment its writer moves to the archive while Verify lists
// the directory, or after, before Verify reads it, is read where it went,
// not reported missing or copied.
func TestVerifyMeetsAMove(t *testing.T) {
	opts := archiveOpts()
	for stage := 1; stage <= 2; stage++ {
		dir := t.TempDir()
		l, _ := mustOpen(t, dir, opts)
		fill(t, l, 150)
		if _, err := l.Archive(40); err != nil {
			t.Fatal(err)
		}
		moved := 0
		listing = func(s int) {
			if s == stage && moved == 0 {
				moved, _ = l.Archive(l.LastSeq())
			}
		}
		rep, err := Verify(dir, pubOf(opts.Signer))
		listing = nil
		if moved == 0 || err != nil || rep.Fault != nil || rep.LastSeq != l.LastSeq() {
			t.Fatalf("stage %d: %d moved during the listing; verify %+v %v", stage, moved, rep, err)
		}
		for _, p := range rep.Problems {
			if strings.Contains(p, "missing") || strings.Contains(p, "both") {
				t.Fatalf("stage %d: %s", stage, p)
			}
		}
		mustClose(t, l)
	}
}
