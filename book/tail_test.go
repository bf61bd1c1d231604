package book

import (
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"hash/crc32"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// openWith opens the rig's ledger with options of the test's own.
func (r *rig) openWith(o Options) (*Book, *tally, Info, error) {
	r.t.Helper()
	w, err := OpenFileWitness(r.witness)
	if err != nil {
		r.t.Fatal(err)
	}
	r.t.Cleanup(func() { w.Close() })
	o.Keys, o.KeyName, o.Witness = r.keys, "machine", w
	b, st, info, err := Open(r.dir, tallySpec, o)
	if err != nil {
		return nil, nil, info, err
	}
	return b, st.(*tally), info, nil
}

// crash leaves the data directory as a power cut after the last commit
// would: what the book wrote so far, no seal or checkpoint of Close, and
// the witness as the last commit left it.
func (r *rig) crash(b *Book) {
	r.t.Helper()
	img := filepath.Join(r.t.TempDir(), "img")
	if out, err := exec.Command("cp", "-a", r.dir, img).CombinedOutput(); err != nil {
		r.t.Fatal(err, string(out))
	}
	witness, _ := os.ReadFile(r.witness)
	b.Close(nil)
	os.RemoveAll(r.dir)
	if err := os.Rename(img, r.dir); err != nil {
		r.t.Fatal(err)
	}
	os.WriteFile(r.witness, witness, 0o600)
}

// wholeFold is the state the inspector's verification folds from the
// first record, which start-up from the snapshots must equal.
func (r *rig) wholeFold() tally {
	r.t.Helper()
	v, err := Verify(r.dir, tallySpec, r.pub())
	if err != nil || !v.OK || v.State == nil {
		r.t.Fatalf("verify: %+v %v", v, err)
	}
	return *v.State.(*tally)
}

// Start-up from the snapshots and the tail gives the state of folding the
// whole log, whatever the history: random commits of one to three
// records, seals and checkpoints every few records, segments of a few
// records or one, closed cleanly or cut by a power loss, reopened again
// and again (so a snapshot falls at every kind of point: before a
// checkpoint, on a segment's first record, right before the power went).
// And it reads only the tail whenever there is a sealed snapshot: the
// whole log is read only for a ledger that has none yet.
func TestTailStartUpIsTheWholeFold(t *testing.T) {
	tails := 0
	for seed := range 10 {
		rnd := rand.New(rand.NewPCG(uint64(seed), 26))
		// No fsync: what is read back is the same, and 2,000 fsyncs are
		// not what this test is about.
		opts := Options{SealEvery: 1 + rnd.Uint64N(12), CheckpointEvery: 1 + rnd.Uint64N(20), SegmentSize: []int{0, 300, 2500}[rnd.IntN(3)], UnsafeNoSync: true}
		r := newRig(t)
		for session := range 8 {
			b, st, info, err := r.openWith(opts)
			if err != nil {
				t.Fatalf("seed %d session %d (%+v): %v", seed, session, opts, err)
			}
			b.Close(nil) // verification reads a closed log, as on the bench
			if want := r.wholeFold(); *st != want {
				t.Fatalf("seed %d session %d (%+v): start-up %+v, the whole fold %+v (info %+v)", seed, session, opts, *st, want, info)
			}
			if len(info.Tampered) > 0 || info.Witness.Status != WitnessOK && session > 0 {
				t.Fatalf("seed %d session %d: %+v", seed, session, info)
			}
			switch {
			case info.SnapshotSeq == 0 && info.ReadFrom != 1:
				t.Fatalf("seed %d session %d: no snapshot, read from %d", seed, session, info.ReadFrom)
			case info.SnapshotSeq > 0 && info.ReadFrom <= 1:
				t.Fatalf("seed %d session %d: sealed snapshot at %d, yet the whole log was read", seed, session, info.SnapshotSeq)
			case info.SnapshotSeq > 0:
				tails++
			}
			b, st, _, err = r.openWith(opts)
			if err != nil {
				t.Fatal(err)
			}
			for range rnd.IntN(40) {
				next := *st
				var entries []Entry
				for range 1 + rnd.IntN(3) {
					a := rnd.Int64N(100) - 30
					if next.Sum+a < 0 {
						a = -next.Sum
					}
					next.Sum += a
					next.N++
					entries = append(entries, Entry{Type: 1, Data: []byte(strconv.FormatInt(a, 10))})
				}
				if _, err := b.Commit(entries, &next); err != nil {
					t.Fatal(err)
				}
				*st = next
				if err := b.WriteWitness(); err != nil {
					t.Fatal(err)
				}
			}
			if rnd.IntN(2) == 0 {
				if err := b.Close(st); err != nil {
					t.Fatal(err)
				}
			} else {
				r.crash(b)
			}
		}
	}
	if tails == 0 {
		t.Fatal("no start-up read only the tail")
	}
}

// snapshotFiles reads the whole snapshot files of a ledger directory,
// oldest first.
func snapshotFiles(t *testing.T, dir string) (files []string, snaps []snapshotFile) {
	t.Helper()
	for i := range 2 {
		name := filepath.Join(dir, fmt.Sprintf("%s%d", snapPrefix, i))
		data, err := os.ReadFile(name)
		if err != nil {
			continue
		}
		var f snapshotFile
		if err := json.Unmarshal(data[32:], &f); err != nil {
			t.Fatal(err)
		}
		if len(snaps) == 1 && f.Seq < snaps[0].Seq {
			files, snaps = append([]string{name}, files...), append([]snapshotFile{f}, snaps...)
		} else {
			files, snaps = append(files, name), append(snaps, f)
		}
	}
	if len(snaps) == 0 {
		t.Fatal("no snapshot")
	}
	return files, snaps
}

// writeSnapshotFile writes a snapshot file with its checksum right, as an
// attacker with the data directory can.
func writeSnapshotFile(t *testing.T, name string, f snapshotFile) {
	t.Helper()
	body, err := json.Marshal(f)
	if err != nil {
		t.Fatal(err)
	}
	sum := Digest(body) // the file's checksum is the same BLAKE2b-256
	if err := os.WriteFile(name, append(sum[:], body...), 0o600); err != nil {
		t.Fatal(err)
	}
}

// patchRecord gives record seq the payload data (of the same length) and
// a CRC that holds, leaving its chain hash as it was: an edit someone
// without the key makes where no money depends on it any more.
func patchRecord(t *testing.T, logDir string, seq uint64, data []byte) {
	t.Helper()
	castagnoli := crc32.MakeTable(crc32.Castagnoli)
	for _, path := range segmentPaths(t, logDir) {
		buf, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		for pos := 0; pos < len(buf); {
			n, k := binary.Uvarint(buf[pos:])
			f := buf[pos+k : pos+k+int(n)]
			pos += k + int(n)
			if binary.BigEndian.Uint64(f[1:9]) != seq {
				continue
			}
			if len(data) != len(f)-51 {
				t.Fatalf("record %d holds %d bytes, not %d", seq, len(f)-51, len(data))
			}
			copy(f[15:], data)
			binary.BigEndian.PutUint32(f[len(f)-4:], crc32.Checksum(f[:len(f)-4], castagnoli))
			if err := os.WriteFile(path, buf, 0o600); err != nil {
				t.Fatal(err)
			}
			return
		}
	}
	t.Fatalf("record %d not found", seq)
}

// restore puts a saved copy of a ledger directory (and the witness
// saved with it) in place.
func (r *rig) restore(saved string, witness []byte) {
	r.t.Helper()
	os.RemoveAll(r.dir)
	if out, err := exec.Command("cp", "-a", saved, r.dir).CombinedOutput(); err != nil {
		r.t.Fatal(err, string(out))
	}
	os.WriteFile(r.witness, witness, 0o600)
}

func (r *rig) save() (string, []byte) {
	r.t.Helper()
	saved := filepath.Join(r.t.TempDir(), "saved")
	if out, err := exec.Command("cp", "-a", r.dir, saved).CombinedOutput(); err != nil {
		r.t.Fatal(err, string(out))
	}
	w, _ := os.ReadFile(r.witness)
	return saved, w
}

// What someone with a copy of the data directory (and not the board's key
// or witness) can do to start-up from the snapshots, performed: every
// change that could alter money is refused or named at start-up, the
// state never differs from the sealed history, and what start-up does
// not read (records before the older snapshot, which no money depends
// on) is named by the inspector's verification.
func TestTailStartUpAttacks(t *testing.T) {
	opts := Options{SealEvery: 10, CheckpointEvery: 7, SegmentSize: 400}
	r := newRig(t)
	b, st, _, err := r.openWith(opts)
	if err != nil {
		t.Fatal(err)
	}
	for i := range 30 {
		r.add(b, st, int64(i%9+1)) // one-digit amounts: an edit keeps the length
	}
	b.Close(st)
	early, _ := r.save() // the ledger of an earlier day, genuine
	b, st, _, _ = r.openWith(opts)
	for i := range 30 {
		r.add(b, st, int64(i%9+1))
	}
	b.Close(st)
	want := r.wholeFold()
	saved, witness := r.save()
	_, snaps := snapshotFiles(t, r.dir)
	if snaps[0].Seq < 20 {
		t.Fatalf("the older snapshot is at %d: no record before it to edit", snaps[0].Seq)
	}
	logDir := filepath.Join(r.dir, LogDir)
	first := seqsOf(t, logDir, 1)[0] // the first ledger record
	edit := []byte("9")
	if first >= snaps[0].Seq {
		t.Fatalf("the first ledger record %d is not before the snapshots", first)
	}

	open := func() (tally, Info, error) {
		t.Helper()
		b, st, info, err := r.openWith(opts)
		if err != nil {
			return tally{}, info, err
		}
		b.Close(nil)
		return *st, info, nil
	}

	t.Run("untouched", func(t *testing.T) {
		r.restore(saved, witness)
		got, info, err := open()
		if err != nil || got != want || info.ReadFrom != snaps[0].Seq+1 || info.SnapshotSeq != snaps[1].Seq || len(info.Tampered) > 0 {
			t.Fatalf("%+v %+v %v", got, info, err)
		}
	})

	t.Run("forged state", func(t *testing.T) {
		r.restore(saved, witness)
		forgeSnapshot(t, r.dir)
		got, info, err := open()
		if err != nil || got != want || info.ReadFrom != 1 || len(info.Tampered) != 1 || !strings.Contains(info.Tampered[0], "not the one the seal") {
			t.Fatalf("%+v %+v %v", got, info, err)
		}
	})

	t.Run("seal names another chain hash", func(t *testing.T) {
		r.restore(saved, witness)
		files, snaps := snapshotFiles(t, r.dir)
		f := snaps[1]
		h, _ := hex.DecodeString(f.Hash)
		h[0] ^= 1
		f.Hash = hex.EncodeToString(h)
		writeSnapshotFile(t, files[1], f)
		got, info, err := open()
		if err != nil || got != want || info.ReadFrom != 1 || len(info.Tampered) != 1 || !strings.Contains(info.Tampered[0], "chain hash") {
			t.Fatalf("%+v %+v %v", got, info, err)
		}
	})

	t.Run("another record's seq and hash", func(t *testing.T) {
		// The newer snapshot claims the older one's record, which the
		// log's chain does hold, with its own state and seal.
		r.restore(saved, witness)
		files, snaps := snapshotFiles(t, r.dir)
		f := snaps[1]
		f.Seq, f.Hash = snaps[0].Seq, snaps[0].Hash
		writeSnapshotFile(t, files[1], f)
		got, info, err := open()
		if err != nil || got != want || info.ReadFrom != 1 || len(info.Tampered) != 1 {
			t.Fatalf("%+v %+v %v", got, info, err)
		}
	})

	t.Run("older snapshots replayed", func(t *testing.T) {
		// Genuine snapshots of an earlier day: a sealed state of this
		// log, so start-up may begin there; it reads the longer tail and
		// reaches the same state.
		r.restore(saved, witness)
		oldFiles, oldSnaps := snapshotFiles(t, early)
		for _, name := range oldFiles {
			data, _ := os.ReadFile(name)
			os.WriteFile(filepath.Join(r.dir, filepath.Base(name)), data, 0o600)
		}
		got, info, err := open()
		if err != nil || got != want || info.ReadFrom != oldSnaps[0].Seq+1 || len(info.Tampered) > 0 {
			t.Fatalf("%+v %+v %v", got, info, err)
		}
	})

	t.Run("snapshots of another ledger of the same board", func(t *testing.T) {
		r.restore(saved, witness)
		other := newRig(t)
		other.keys = r.keys
		ob, ost, _, err := other.openWith(opts)
		if err != nil {
			t.Fatal(err)
		}
		for range 60 {
			other.add(ob, ost, 9)
		}
		ob.Close(ost)
		files, _ := snapshotFiles(t, other.dir)
		for _, name := range files {
			data, _ := os.ReadFile(name)
			os.WriteFile(filepath.Join(r.dir, filepath.Base(name)), data, 0o600)
		}
		got, info, err := open()
		if err != nil || got != want || info.ReadFrom != 1 || len(info.Tampered) != 2 {
			t.Fatalf("%+v %+v %v", got, info, err)
		}
	})

	t.Run("record before the snapshots edited", func(t *testing.T) {
		// The first ledger record's amount changed, its CRC made right: no money
		// depends on it at start-up (the sealed state is the fold of the
		// record as the board wrote it), so start-up does not read it;
		// verification names it.
		r.restore(saved, witness)
		patchRecord(t, logDir, first, edit)
		got, info, err := open()
		if err != nil || got != want || info.ReadFrom != snaps[0].Seq+1 {
			t.Fatalf("%+v %+v %v", got, info, err)
		}
		v, err := Verify(r.dir, tallySpec, r.pub())
		if err != nil || v.OK || !strings.Contains(strings.Join(v.Problems, "\n"), fmt.Sprintf("seq %d", first)) {
			t.Fatalf("verification did not name record %d: %+v %v", first, v, err)
		}
	})

	t.Run("segments before the snapshots deleted", func(t *testing.T) {
		r.restore(saved, witness)
		segs := segmentPaths(t, logDir)
		if len(segs) < 3 || !strings.Contains(segs[0], "archive") {
			t.Fatalf("segments %v: the first is not in the archive", segs)
		}
		os.Remove(segs[0])
		got, info, err := open()
		if err != nil || got != want || info.ReadFrom != snaps[0].Seq+1 {
			t.Fatalf("%+v %+v %v", got, info, err)
		}
		v, err := Verify(r.dir, tallySpec, r.pub())
		if err != nil || v.OK {
			t.Fatalf("verification did not name the missing records: %+v %v", v, err)
		}
	})

	t.Run("record before the snapshots edited and the chain rebuilt", func(t *testing.T) {
		// To make the edit hold, the chain must be rebuilt to the end:
		// then it no longer continues from the hash the seals signed,
		// and the marks (signed by the board) do not verify.
		r.restore(saved, witness)
		amountAt(t, first, "9")(r.dir)
		if _, info, err := open(); err == nil {
			t.Fatalf("opened a rebuilt chain: %+v", info)
		}
	})

	t.Run("tail record edited", func(t *testing.T) {
		r.restore(saved, witness)
		seq := snaps[1].Seq // a ledger record: the newer snapshot's own
		for _, rechained := range []bool{false, true} {
			r.restore(saved, witness)
			if rechained {
				amountAt(t, seq, "9")(r.dir)
			} else {
				patchRecord(t, logDir, seq, []byte("9"))
			}
			if got, info, err := open(); err == nil {
				t.Fatalf("rechained %v: opened %+v %+v", rechained, got, info)
			}
		}
	})

	t.Run("tail byte flipped", func(t *testing.T) {
		r.restore(saved, witness)
		flipByte(t, logDir, 0.5)
		if got, info, err := open(); err == nil {
			t.Fatalf("opened %+v %+v", got, info)
		}
	})

	t.Run("records forged after the last mark", func(t *testing.T) {
		r.restore(saved, witness)
		first := forgeTail(t, r.dir, 1000, 1000)
		got, info, err := open()
		if err != nil || got != want || info.Unvouched == nil || info.Unvouched.First != first || info.ReadFrom != snaps[0].Seq+1 {
			t.Fatalf("%+v %+v %v", got, info, err)
		}
	})

	t.Run("log cut back to before the snapshots", func(t *testing.T) {
		// The log of an earlier day under today's snapshots: they are of
		// records the log does not hold, so they are not used and are
		// named, and the witness shows the rollback.
		r.restore(saved, witness)
		os.RemoveAll(logDir)
		if out, err := exec.Command("cp", "-a", filepath.Join(early, LogDir), logDir).CombinedOutput(); err != nil {
			t.Fatal(err, string(out))
		}
		got, info, err := open()
		if err != nil || info.ReadFrom != 1 || len(info.Tampered) != 2 || info.Witness.Status != WitnessAhead || got.N != 30 {
			t.Fatalf("%+v %+v %v", got, info, err)
		}
	})
}

// A write cut by a power loss at the very end of the log is repaired by
// start-up from the tail as by the whole-log start-up: cut, said, and the
// meters those of the records before it; a side file's temp file left by
// the same cut is removed.
func TestTailStartUpRepairsATornEnd(t *testing.T) {
	opts := Options{SealEvery: 10, CheckpointEvery: 7, SegmentSize: 400}
	r := newRig(t)
	b, st, _, err := r.openWith(opts)
	if err != nil {
		t.Fatal(err)
	}
	for i := range 40 {
		r.add(b, st, int64(i))
	}
	b.Close(st)
	want := r.wholeFold()
	v, err := Verify(r.dir, tallySpec, r.pub())
	if err != nil {
		t.Fatal(err)
	}
	// The start of the next record's entry: its length, the frame's magic
	// and the first bytes of its sequence number, then the power went.
	torn := binary.AppendUvarint(nil, 51+5)
	torn = append(torn, 0xA1)
	torn = binary.BigEndian.AppendUint64(torn, v.Records+1)[:len(torn)+4]
	seg := lastSegment(t, filepath.Join(r.dir, LogDir))
	f, err := os.OpenFile(seg, os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	f.Write(torn)
	f.Close()
	// And the temp file of a side file write the same power cut stopped.
	stale := filepath.Join(r.dir, LogDir, "checkpoint.tmp-123")
	os.WriteFile(stale, []byte("half"), 0o600)
	b, got, info, err := r.openWith(opts)
	if err != nil {
		t.Fatal(err)
	}
	b.Close(nil)
	if *got != want || info.ReadFrom <= 1 || !strings.Contains(info.Repaired, "torn") {
		t.Fatalf("%+v %+v", *got, info)
	}
	if _, err := os.Stat(stale); !os.IsNotExist(err) {
		t.Fatalf("the stale temp file is still there: %v", err)
	}
	if after := r.wholeFold(); after != want {
		t.Fatalf("after the repair the log folds to %+v", after)
	}
}
