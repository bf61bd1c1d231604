package book

import (
	"bytes"
	"crypto/ed25519"
	"encoding/binary"
	"encoding/hex"
	"fmt"
	"hash/crc32"
	"io"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/openegm/cabinet/book/walog"
	"golang.org/x/crypto/blake2b"
)

// verifyByCopy is Verify as it was before the single pass (issue 26),
// kept as the reference the single pass must agree with. It checks a ledger directory for an inspector: every frame, the hash
// chain, every checkpoint and seal signature against pub (the key
// registered at commissioning, never one found beside the ledger), then a
// fold of every record from the first with every invariant checked,
// compared with the state every seal signed and with the snapshots. It
// never writes to dir: it folds a private copy, so it may run on a copy of
// a live machine's directory; a torn last record is reported, not cut.
//
// err is for a directory that cannot be read as a ledger; everything found
// in it is in the Verdict.
func verifyByCopy(dir string, spec Spec, pub ed25519.PublicKey) (*Verdict, error) {
	logDir := filepath.Join(dir, LogDir)
	if st, err := os.Stat(logDir); err != nil || !st.IsDir() {
		return nil, fmt.Errorf("%s: %s is not a ledger directory (no %s directory in it)", spec.What, dir, LogDir)
	}
	v := &Verdict{}
	switch {
	case pub == nil:
		v.Problems = append(v.Problems, "no registered public key given (the key registered at commissioning): the signatures are not checked, and a key found beside the ledger would prove nothing")
	case len(pub) != ed25519.PublicKeySize:
		return nil, fmt.Errorf("%s: public key is %d bytes, not %d", spec.What, len(pub), ed25519.PublicKeySize)
	default:
		v.KeyID = KeyID(pub)
	}
	rep, err := walog.Verify(logDir, pub)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", spec.What, err)
	}
	v.Records, v.Checkpoints, v.Marks, v.VouchedSeq = rep.Records, rep.Checkpoints, rep.Marks, rep.VouchedSeq
	v.LastHash = hex.EncodeToString(rep.LastHash[:])
	for _, p := range rep.Problems {
		if pub != nil || p != "checkpoint signatures not checked: no public key given" {
			v.Problems = append(v.Problems, p)
		}
	}
	if rep.TornTail != "" {
		v.Problems = append(v.Problems, "torn last record (cut at the next start-up): "+rep.TornTail)
	}
	if !rep.OK && len(rep.Problems) == 0 {
		v.Problems = append(v.Problems, "log verification failed")
	}
	digests, err := v.foldCopy(logDir, spec, pub)
	if err != nil && !slices.Contains(v.Problems, err.Error()) {
		v.Problems = append(v.Problems, err.Error())
	}
	v.checkSnapshots(dir, digests)
	v.OK = len(v.Problems) == 0
	return v, nil
}

// fold folds a private copy of the log from its first record, checking
// every seal against the state folded so far. It returns the digests of
// the seals that held, by the seal's own record.
func (v *Verdict) foldCopy(logDir string, spec Spec, pub ed25519.PublicKey) (map[uint64]sealed, error) {
	tmp, err := os.MkdirTemp("", "book-verify-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(tmp)
	cp := filepath.Join(tmp, LogDir)
	if err := copyDir(logDir, cp); err != nil {
		return nil, fmt.Errorf("copying the log: %w", err)
	}
	// The copy is cut at its last mark that verifies: what start-up would
	// fold (an unvouched tail is reported by walog.Verify).
	log, _, err := walog.Open(cp, walog.Options{UnsafeNoSync: true, Verifier: pub})
	if err != nil {
		return nil, err
	}
	defer log.Close()
	st := spec.New()
	digests := map[uint64]sealed{}
	var last walog.Record
	err = log.Scan(1, func(r walog.Record) error {
		switch r.Type {
		case walog.TypeCheckpoint, walog.TypeMark:
			return nil
		case TypeSeal:
			v.Seals++
			return v.checkSealCopy(r, last, spec, st, pub, digests)
		}
		if err := st.Apply(r.Type, r.Data); err != nil {
			return fmt.Errorf("record %d: %w", r.Seq, err)
		}
		v.Folded++
		last = r
		return nil
	})
	if err != nil {
		return digests, err
	}
	if err := st.Check(); err != nil {
		return digests, fmt.Errorf("after the last record: %w", err)
	}
	v.State = st
	return digests, nil
}

// checkSeal checks a seal against the record it seals (the last ledger
// record before it) and the state folded up to there.
func (v *Verdict) checkSealCopy(r, last walog.Record, spec Spec, st State, pub ed25519.PublicKey, digests map[uint64]sealed) error {
	seal, err := ParseSeal(r.Data)
	if err != nil {
		v.Problems = append(v.Problems, fmt.Sprintf("seal at record %d: %v", r.Seq, err))
		return nil
	}
	if pub != nil {
		if err := seal.Verify(pub); err != nil {
			v.Problems = append(v.Problems, err.Error())
			return nil
		}
	}
	if seal.Seq != last.Seq || seal.Hash != last.Hash {
		v.Problems = append(v.Problems, fmt.Sprintf("the seal at record %d names record %d, not the record before it (%d)", r.Seq, seal.Seq, last.Seq))
		return nil
	}
	enc, err := st.Encode()
	if err != nil {
		return fmt.Errorf("encoding the state at record %d: %w", last.Seq, err)
	}
	if Digest(enc) != seal.Digest && !v.earlierCopy(spec, st, seal.Digest) {
		v.Problems = append(v.Problems, fmt.Sprintf("the seal at record %d signed another state than the fold of records 1-%d", r.Seq, last.Seq))
		return nil
	}
	digests[r.Seq] = sealed{seq: seal.Seq, digest: seal.Digest}
	return nil
}

// earlier reports whether digest is that of the state as an earlier build
// encoded it (Spec.Earlier), and counts it.
func (v *Verdict) earlierCopy(spec Spec, st State, digest [32]byte) bool {
	if spec.Earlier == nil {
		return false
	}
	enc, err := spec.Earlier(st)
	if err != nil || Digest(enc) != digest {
		return false
	}
	v.EarlierSeals++
	return true
}

// copyDir copies the regular files of a directory (a log's segments).
func copyDir(from, to string) error {
	if err := os.MkdirAll(to, 0o700); err != nil {
		return err
	}
	ents, err := os.ReadDir(from)
	if err != nil {
		return err
	}
	for _, e := range ents {
		if e.IsDir() { // the log, its archive
			if err := copyDir(filepath.Join(from, e.Name()), filepath.Join(to, e.Name())); err != nil {
				return err
			}
			continue
		}
		if !e.Type().IsRegular() {
			continue
		}
		if err := copyFile(filepath.Join(from, e.Name()), filepath.Join(to, e.Name())); err != nil {
			return err
		}
	}
	return nil
}

func copyFile(from, to string) error {
	in, err := os.Open(from)
	if err != nil {
		return err
	}
	defer in.Close()
	out, err := os.OpenFile(to, os.O_CREATE|os.O_WRONLY|os.O_TRUNC, 0o600)
	if err != nil {
		return err
	}
	if _, err := io.Copy(out, in); err != nil {
		out.Close()
		return err
	}
	return out.Close()
}

// rechain rewrites the log in logDir as someone with the data directory
// and no key can: change gives each record's new payload (nil: as it is),
// and every frame after it gets the chain hash and CRC that follow, and
// the side checkpoint file the frame of its checkpoint. A changed
// signature then fails only where it is checked.
func rechain(t *testing.T, logDir string, change func(seq uint64, typ uint16, data []byte) []byte) {
	t.Helper()
	castagnoli := crc32.MakeTable(crc32.Castagnoli)
	prev := blake2b.Sum256([]byte("openegm walog genesis v1"))
	side, _ := os.ReadFile(filepath.Join(logDir, "checkpoint"))
	for _, path := range segmentPaths(t, logDir) {
		old, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		var out []byte
		for pos := 0; pos < len(old); {
			n, k := binary.Uvarint(old[pos:])
			if k <= 0 || uint64(len(old)-pos-k) < n {
				out = append(out, old[pos:]...) // a torn tail stays torn
				break
			}
			f := old[pos+k : pos+k+int(n)]
			pos += k + int(n)
			seq, typ := binary.BigEndian.Uint64(f[1:9]), binary.BigEndian.Uint16(f[9:11])
			data := f[15 : len(f)-36]
			if d := change(seq, typ, data); d != nil {
				data = d
			}
			frame := append([]byte{f[0]}, f[1:11]...)
			frame = binary.BigEndian.AppendUint32(frame, uint32(len(data)))
			frame = append(frame, data...)
			prev = blake2b.Sum256(append(prev[:], frame...))
			frame = append(frame, prev[:]...)
			frame = binary.BigEndian.AppendUint32(frame, crc32.Checksum(frame, castagnoli))
			if len(side) > 9 && binary.BigEndian.Uint64(side[1:9]) == seq {
				side = frame
			}
			out = binary.AppendUvarint(out, uint64(len(frame)))
			out = append(out, frame...)
		}
		if err := os.WriteFile(path, out, 0o600); err != nil {
			t.Fatal(err)
		}
	}
	if side != nil {
		os.WriteFile(filepath.Join(logDir, "checkpoint"), side, 0o600)
	}
}

// segmentPaths lists the log's segment files in order: the archived ones
// (walog.Log.Archive) first.
func segmentPaths(t *testing.T, logDir string) []string {
	t.Helper()
	archived, err := filepath.Glob(filepath.Join(logDir, "archive", strings.Repeat("[0-9]", 20)))
	if err != nil {
		t.Fatal(err)
	}
	main, _ := filepath.Glob(filepath.Join(logDir, strings.Repeat("[0-9]", 20)))
	return append(archived, main...)
}

// seqsOf lists the seqs of the log's records of type typ.
func seqsOf(t *testing.T, logDir string, typ uint16) []uint64 {
	var seqs []uint64
	rechain(t, logDir, func(seq uint64, ty uint16, data []byte) []byte {
		if ty == typ {
			seqs = append(seqs, seq)
		}
		return nil
	})
	return seqs
}

func flipLast(data []byte) []byte {
	d := bytes.Clone(data)
	d[len(d)-1] ^= 1
	return d
}

// TestVerifyIsTheVerifyOfACopy holds Verify's single pass to what
// verification was before it (verifyByCopy: walog.Verify, then a fold of
// an opened copy): the same verdict, to the last problem and count, on a
// sound ledger and on every kind of damage and forgery, the marks' and
// seals' signatures included.
func TestVerifyIsTheVerifyOfACopy(t *testing.T) {
	// A ledger closed (its last checkpoint and mark at the end), and one
	// whose power went (no checkpoint since the first records: a forger
	// re-chaining its tail breaks only marks and seals); each in one
	// segment file and in many (the walk's buffers change hands).
	var keys FileKeys
	for _, segment := range []int{0, 1500} {
		for _, closed := range []bool{true, false} {
			r := newRig(t)
			if keys.Dir != "" {
				r.keys = keys
			}
			keys = r.keys
			w, err := OpenFileWitness(r.witness)
			if err != nil {
				t.Fatal(err)
			}
			defer w.Close()
			every := uint64(7)
			if !closed {
				every = 1000
			}
			b, st, _, err := Open(r.dir, tallySpec, Options{SealEvery: 10, CheckpointEvery: every, SegmentSize: segment, UnsafeNoSync: true, Keys: r.keys, KeyName: "machine", Witness: w})
			if err != nil {
				t.Fatal(err)
			}
			for i := range 60 {
				r.add(b, st.(*tally), int64(i%7+1))
			}
			if closed {
				b.Close(st)
			} else {
				defer b.Close(nil)
				// The copies below are taken of files at rest: the last
				// seal's snapshot is written.
				b.mu.Lock()
				b.waitSnapshot()
				b.mu.Unlock()
			}
			verifyLikeACopy(t, r.dir, r.pub())
		}
	}
}

func verifyLikeACopy(t *testing.T, base string, pub ed25519.PublicKey) {
	logOf := func(dir string) string { return filepath.Join(dir, LogDir) }
	marks := seqsOf(t, logOf(base), walog.TypeMark)
	seals := seqsOf(t, logOf(base), TypeSeal)
	ckpts := append(seqsOf(t, logOf(base), walog.TypeCheckpoint), 0)
	ledger := seqsOf(t, logOf(base), 1)
	if len(marks) < 40 || len(seals) < 3 || len(ledger) != 60 {
		t.Fatalf("%d marks, %d seals, %d records", len(marks), len(seals), len(ledger))
	}
	badSigs := func(which ...uint64) func(string) {
		return func(dir string) {
			rechain(t, logOf(dir), func(seq uint64, typ uint16, data []byte) []byte {
				if slices.Contains(which, seq) {
					return flipLast(data)
				}
				return nil
			})
		}
	}
	lastMarks := func(n int) []uint64 { return marks[len(marks)-n:] }
	cases := map[string]func(dir string){
		"sound":                   func(string) {},
		"last mark bad":           badSigs(lastMarks(1)...),
		"second-last mark bad":    badSigs(lastMarks(2)[0]),
		"last 3 marks bad":        badSigs(lastMarks(3)...),
		"last 15 marks bad":       badSigs(lastMarks(15)...),
		"last 16 marks bad":       badSigs(lastMarks(16)...),
		"last 17 marks bad":       badSigs(lastMarks(17)...),
		"16th-last mark bad":      badSigs(lastMarks(16)[0]),
		"17th-last mark bad":      badSigs(lastMarks(17)[0]),
		"every mark bad":          badSigs(marks...),
		"a seal bad":              badSigs(seals[1]),
		"the last seal bad":       badSigs(seals[len(seals)-1]),
		"a checkpoint bad":        badSigs(ckpts[0]),
		"forged tail of one":      func(dir string) { forgeTail(t, dir, 1000) },
		"forged tail of many":     func(dir string) { forgeTail(t, dir, slices.Repeat([]int64{1000}, walog.MaxBatch+1)...) },
		"a forged snapshot":       func(dir string) { forgeSnapshot(t, dir) },
		"no side file":            func(dir string) { os.Remove(filepath.Join(logOf(dir), "checkpoint")) },
		"a flipped byte":          func(dir string) { flipByte(t, logOf(dir), 0.5) },
		"a flipped last byte":     func(dir string) { flipByte(t, logOf(dir), 1) },
		"torn last entry":         func(dir string) { cutTail(t, logOf(dir), 5) },
		"an amount rewritten":     amountAt(t, ledger[20], "-999"),
		"a late amount rewritten": amountAt(t, ledger[len(ledger)-2], "-999"),
		"a late amount raised":    amountAt(t, ledger[len(ledger)-2], "6"),
		"the last amount raised":  amountAt(t, ledger[len(ledger)-1], "6"),
	}
	for name, damage := range cases {
		keys := []ed25519.PublicKey{pub}
		switch name {
		case "sound", "last 3 marks bad", "forged tail of one", "a seal bad", "torn last entry":
			keys = append(keys, nil, otherKey(t)) // no key, and the wrong one
		}
		for _, key := range keys {
			dir := filepath.Join(t.TempDir(), "data")
			if err := os.CopyFS(dir, os.DirFS(base)); err != nil {
				t.Fatal(err)
			}
			damage(dir)
			got, gerr := Verify(dir, tallySpec, key)
			want, werr := verifyByCopy(dir, tallySpec, key)
			if fmt.Sprint(gerr) != fmt.Sprint(werr) {
				t.Fatalf("%s: Verify says %v, the copy %v", name, gerr, werr)
			}
			if gerr != nil {
				continue
			}
			if (got.State == nil) != (want.State == nil) {
				t.Fatalf("%s: folded %v, the copy %v", name, got.State != nil, want.State != nil)
			}
			if got.State != nil && !reflect.DeepEqual(got.State, want.State) {
				t.Fatalf("%s: state %+v, the copy %+v", name, got.State, want.State)
			}
			got.State, want.State = nil, nil
			if !reflect.DeepEqual(got, want) {
				t.Fatalf("%s (key %v):\n got %+v\nwant %+v", name, key != nil, got, want)
			}
			t.Logf("%s (key %v): ok %v, folded %d, %d problems: %s", name, key != nil, got.OK, got.Folded, len(got.Problems), strings.Join(got.Problems, " | "))
		}
	}
}

func otherKey(t *testing.T) ed25519.PublicKey {
	pub, _, err := ed25519.GenerateKey(nil)
	if err != nil {
		t.Fatal(err)
	}
	return pub
}

// amountAt rewrites the amount of ledger record seq, re-chained.
func amountAt(t *testing.T, seq uint64, amount string) func(string) {
	return func(dir string) {
		rechain(t, filepath.Join(dir, LogDir), func(s uint64, typ uint16, data []byte) []byte {
			if s == seq {
				if typ != 1 {
					t.Fatalf("record %d is of type %d", seq, typ)
				}
				return []byte(amount)
			}
			return nil
		})
	}
}

// flipByte flips a byte at the fraction at of the last segment.
func flipByte(t *testing.T, logDir string, at float64) {
	path := lastSegment(t, logDir)
	b, _ := os.ReadFile(path)
	i := min(int(float64(len(b))*at), len(b)-1)
	b[i] ^= 0x10
	os.WriteFile(path, b, 0o600)
}

// cutTail cuts n bytes off the last segment.
func cutTail(t *testing.T, logDir string, n int) {
	path := lastSegment(t, logDir)
	b, _ := os.ReadFile(path)
	os.WriteFile(path, b[:len(b)-n], 0o600)
}

func lastSegment(t *testing.T, logDir string) string {
	ents, err := os.ReadDir(logDir)
	if err != nil {
		t.Fatal(err)
	}
	last := ""
	for _, e := range ents {
		if info, err := e.Info(); err == nil && len(e.Name()) == 20 && info.Size() > 0 {
			last = e.Name() // the last segment with bytes in it
		}
	}
	return filepath.Join(logDir, last)
}
