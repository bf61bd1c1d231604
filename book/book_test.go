package book

import (
	"crypto/ed25519"
	"crypto/rand"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/openegm/cabinet/book/walog"
	"golang.org/x/crypto/blake2b"
)

// tally is a toy ledger: records add amounts; the invariant is a sum that
// never goes below zero.
type tally struct {
	Sum int64 `json:"sum"`
	N   int   `json:"n"`
}

func (t *tally) Apply(typ uint16, data []byte) error {
	if typ != 1 {
		return fmt.Errorf("unknown type %d", typ)
	}
	v, err := strconv.ParseInt(string(data), 10, 64)
	if err != nil {
		return err
	}
	t.Sum += v
	t.N++
	return t.Check()
}

func (t *tally) Check() error {
	if t.Sum < 0 {
		return fmt.Errorf("sum %d below zero", t.Sum)
	}
	return nil
}

func (t *tally) Encode() ([]byte, error) { return json.Marshal(t) }

var tallySpec = Spec{
	What: "tally ledger",
	New:  func() State { return &tally{} },
	Restore: func(b []byte) (State, error) {
		var t tally
		return &t, json.Unmarshal(b, &t)
	},
}

type rig struct {
	t       *testing.T
	dir     string
	keys    FileKeys
	witness string
}

func newRig(t *testing.T) *rig {
	root := t.TempDir()
	return &rig{t: t, dir: filepath.Join(root, "data"), keys: FileKeys{Dir: filepath.Join(root, "board")}, witness: filepath.Join(root, "board", "witness")}
}

func (r *rig) open() (*Book, *tally, Info) {
	r.t.Helper()
	b, st, info, err := r.tryOpen()
	if err != nil {
		r.t.Fatal(err)
	}
	return b, st, info
}

func (r *rig) tryOpen() (*Book, *tally, Info, error) {
	w, err := OpenFileWitness(r.witness)
	if err != nil {
		r.t.Fatal(err)
	}
	r.t.Cleanup(func() { w.Close() })
	b, st, info, err := Open(r.dir, tallySpec, Options{SealEvery: 10, CheckpointEvery: 7, Keys: r.keys, KeyName: "machine", Witness: w})
	if err != nil {
		return nil, nil, info, err
	}
	return b, st.(*tally), info, nil
}

// add commits amounts one commit each, as a ledger would.
func (r *rig) add(b *Book, st *tally, amounts ...int64) {
	r.t.Helper()
	for _, a := range amounts {
		st.Sum += a
		st.N++
		if _, err := b.Append(1, []byte(strconv.FormatInt(a, 10)), st); err != nil {
			r.t.Fatal(err)
		}
		if err := b.WriteWitness(); err != nil {
			r.t.Fatal(err)
		}
	}
}

func (r *rig) pub() ed25519.PublicKey {
	p, err := ReadPublicKey(filepath.Join(r.keys.Dir, "machine.pub"))
	if err != nil {
		r.t.Fatal(err)
	}
	return p
}

func TestReopenFromASealedSnapshot(t *testing.T) {
	r := newRig(t)
	b, st, _ := r.open()
	for i := range 25 {
		r.add(b, st, int64(i))
	}
	if err := b.Close(st); err != nil {
		t.Fatal(err)
	}
	b, got, info := r.open()
	defer b.Close(got)
	if *got != (tally{Sum: 300, N: 25}) || info.SnapshotSeq == 0 || len(info.Tampered) != 0 || info.Witness.Status != WitnessOK {
		t.Fatalf("reopened: %+v, info %+v", got, info)
	}
	v, err := Verify(r.dir, tallySpec, r.pub())
	if err != nil || !v.OK || v.Folded != 25 || v.Seals < 2 || len(v.Snapshots) == 0 {
		t.Fatalf("verify: %+v %v", v, err)
	}
}

// forgeSnapshot rewrites the newest snapshot's state with a bigger sum and
// recomputes its checksum, as an attacker with the data directory can.
func forgeSnapshot(t *testing.T, dir string) {
	t.Helper()
	var newest string
	var seq uint64
	for i := range 2 {
		name := filepath.Join(dir, fmt.Sprintf("snapshot-%d", i))
		data, err := os.ReadFile(name)
		if err != nil {
			continue
		}
		var f snapshotFile
		json.Unmarshal(data[32:], &f)
		if f.Seq > seq {
			newest, seq = name, f.Seq
		}
	}
	data, _ := os.ReadFile(newest)
	var f snapshotFile
	if err := json.Unmarshal(data[32:], &f); err != nil {
		t.Fatal(err)
	}
	var st tally
	json.Unmarshal(f.State, &st)
	st.Sum += 100_000
	f.State, _ = json.Marshal(st)
	body, _ := json.Marshal(f)
	sum := blake2b.Sum256(body)
	os.WriteFile(newest, append(sum[:], body...), 0o600)
}

// A snapshot with its checksum recomputed is not used, and named: start-up
// folds the log instead, and the inspector's verification says so.
func TestForgedSnapshotIsEvident(t *testing.T) {
	r := newRig(t)
	b, st, _ := r.open()
	for range 25 {
		r.add(b, st, 10)
	}
	b.Close(st)
	forgeSnapshot(t, r.dir)
	v, err := Verify(r.dir, tallySpec, r.pub())
	if err != nil || v.OK || !strings.Contains(strings.Join(v.Problems, "\n"), "forged") {
		t.Fatalf("verify did not name the forged snapshot: %+v %v", v, err)
	}
	b, got, info := r.open()
	b.Close(got)
	if got.Sum != 250 || len(info.Tampered) != 1 || !strings.Contains(info.Tampered[0], "not the one the seal") {
		t.Fatalf("after the forgery: sum %d, tampered %v", got.Sum, info.Tampered)
	}
}

// A log rewritten and re-signed with a key other than the registered one:
// the machine refuses it (its own key is in the key store), and the
// inspector's check with the registered key names every signature.
func TestRewrittenLogSignedByAnotherKey(t *testing.T) {
	r := newRig(t)
	b, st, _ := r.open()
	r.add(b, st, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12)
	b.Close(st)
	registered := r.pub()
	// The attacker builds the same history with 500 instead of 1 under a
	// key of his own, and puts it in place of the data.
	evil := newRig(t)
	eb, est, _ := evil.open()
	evil.add(eb, est, 500, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12)
	eb.Close(est)
	os.RemoveAll(r.dir)
	if out, err := exec.Command("cp", "-a", evil.dir, r.dir).CombinedOutput(); err != nil {
		t.Fatal(err, string(out))
	}
	if _, _, _, err := r.tryOpen(); err == nil || !strings.Contains(err.Error(), "does not verify") {
		t.Fatalf("the machine opened a log signed by another key: %v", err)
	}
	v, err := Verify(r.dir, tallySpec, registered)
	if err != nil || v.OK || !strings.Contains(strings.Join(v.Problems, "\n"), "does not verify") {
		t.Fatalf("verify with the registered key: %+v %v", v, err)
	}
}

// The witness: a data directory replaced by an older copy of itself is
// behind its witness (rollback); one replaced by another history differs;
// an empty witness (a new board) is named; a commit cut before its
// witness write is not an alarm.
func TestWitnessMakesRollbackEvident(t *testing.T) {
	r := newRig(t)
	b, st, _ := r.open()
	r.add(b, st, 1, 2, 3)
	b.Close(st)
	old := filepath.Join(t.TempDir(), "old")
	exec.Command("cp", "-a", r.dir, old).Run()
	b, st, _ = r.open()
	r.add(b, st, 4, 5, 6)
	b.Close(st)

	// Rollback.
	newer := filepath.Join(t.TempDir(), "newer")
	exec.Command("cp", "-a", r.dir, newer).Run()
	os.RemoveAll(r.dir)
	exec.Command("cp", "-a", old, r.dir).Run()
	b, st, info := r.open()
	b.Close(nil)
	if info.Witness.Status != WitnessAhead || !info.Witness.Tampered() || !strings.Contains(info.Witness.Detail, "rollback") {
		t.Fatalf("rollback: %+v", info.Witness)
	}
	_ = st

	// The newer copy back, but the witness from a fresh board.
	os.RemoveAll(r.dir)
	exec.Command("cp", "-a", newer, r.dir).Run()
	saved, _ := os.ReadFile(r.witness)
	os.Remove(r.witness)
	b, _, info = r.open()
	b.Close(nil)
	if info.Witness.Status != WitnessEmpty {
		t.Fatalf("empty witness: %+v", info.Witness)
	}
	os.WriteFile(r.witness, saved, 0o600)

	// Another history, as long or longer.
	other := newRig(t)
	other.keys = r.keys
	ob, ost, _ := other.open()
	other.add(ob, ost, 9, 9, 9, 9, 9, 9, 9, 9, 9)
	ob.Close(ost)
	os.RemoveAll(r.dir)
	exec.Command("cp", "-a", other.dir, r.dir).Run()
	os.WriteFile(r.witness, saved, 0o600)
	b, _, info = r.open()
	b.Close(nil)
	if info.Witness.Status != WitnessDiffers || !info.Witness.Tampered() {
		t.Fatalf("another history: %+v", info.Witness)
	}

	// A commit whose witness write was cut: behind by a record, not an alarm.
	os.RemoveAll(r.dir)
	exec.Command("cp", "-a", newer, r.dir).Run()
	os.WriteFile(r.witness, saved, 0o600)
	b, st2, _ := r.open()
	st2.Sum += 7
	st2.N++
	b.Append(1, []byte("7"), st2) // no WriteWitness: the power went
	b.Close(nil)
	os.WriteFile(r.witness, saved, 0o600)
	b, _, info = r.open()
	b.Close(nil)
	if info.Witness.Status != WitnessOK {
		t.Fatalf("a commit cut before its witness write: %+v", info.Witness)
	}

	// Two commits past the witness: no power loss leaves that (the witness
	// follows every commit), so a witness written back is named.
	os.WriteFile(r.witness, saved, 0o600)
	b, st2, _ = r.open()
	r.add(b, st2, 1)
	saved, _ = os.ReadFile(r.witness)
	r.add(b, st2, 2, 3)
	b.Close(nil)
	os.WriteFile(r.witness, saved, 0o600)
	b, _, info = r.open()
	b.Close(nil)
	if info.Witness.Status != WitnessBehind {
		t.Fatalf("a witness two commits behind: %+v", info.Witness)
	}
}

// forgeTail appends records to the book's log as someone with the data
// directory and no key: whole frames with the chain and CRCs right, no
// mark (the log opened without the key writes none).
func forgeTail(t *testing.T, dir string, amounts ...int64) uint64 {
	t.Helper()
	log, _, err := walog.Open(filepath.Join(dir, LogDir), walog.Options{})
	if err != nil {
		t.Fatal(err)
	}
	first := log.LastSeq() + 1
	for _, a := range amounts {
		if _, err := log.Append(1, []byte(strconv.FormatInt(a, 10))); err != nil {
			t.Fatal(err)
		}
	}
	log.Close()
	return first
}

// Records appended without the board's mark are never folded: start-up
// cuts them, keeps their bytes, says which; a tail longer than any commit
// is evidence of tampering, not of a power loss. The witness still agrees
// with the log cut back, and verification names the first one.
func TestUnvouchedTailIsCutAndNamed(t *testing.T) {
	for _, n := range []int{1, walog.MaxBatch + 1} {
		r := newRig(t)
		b, st, _ := r.open()
		r.add(b, st, 10, 20)
		b.Close(st)
		amounts := make([]int64, n)
		for i := range amounts {
			amounts[i] = 1000
		}
		first := forgeTail(t, r.dir, amounts...)
		v, err := Verify(r.dir, tallySpec, r.pub())
		if err != nil || v.OK || v.Folded != 2 || !strings.Contains(strings.Join(v.Problems, "\n"), fmt.Sprintf("record %d is the first not vouched for", first)) {
			t.Fatalf("%d forged: verify %+v %v", n, v, err)
		}
		b, got, info := r.open()
		if got.Sum != 30 || info.Unvouched == nil || info.Unvouched.First != first || info.Witness.Status != WitnessOK {
			t.Fatalf("%d forged: sum %d, info %+v", n, got.Sum, info)
		}
		if tampered := len(info.Tampered) > 0; tampered != (n > walog.MaxBatch) {
			t.Fatalf("%d forged: tampered %q", n, info.Tampered)
		}
		if _, err := os.Stat(filepath.Join(r.dir, LogDir, info.Unvouched.Evidence)); err != nil {
			t.Fatalf("%d forged: no evidence: %v", n, err)
		}
		b.Close(got)
		if v, err := Verify(r.dir, tallySpec, r.pub()); err != nil || !v.OK || v.Marks == 0 || v.VouchedSeq != v.Records {
			t.Fatalf("%d forged, then cut: verify %+v %v", n, v, err)
		}
	}
}

func TestWitnessSurvivesATornSlot(t *testing.T) {
	path := filepath.Join(t.TempDir(), "witness")
	w, err := OpenFileWitness(path)
	if err != nil {
		t.Fatal(err)
	}
	h1 := Head{Seq: 5, Hash: [32]byte{1}}
	h2 := Head{Seq: 9, Hash: [32]byte{2}}
	w.Write(h1)
	w.Write(h2)
	w.Close()
	// Tear the newest slot (the second).
	f, _ := os.OpenFile(path, os.O_RDWR, 0)
	f.WriteAt([]byte{0xFF, 0xFF}, witnessSlot+20)
	f.Close()
	w, _ = OpenFileWitness(path)
	if got, err := w.Read(); err != nil || got != h1 {
		t.Fatalf("after a torn slot: %+v %v, want the other slot %+v", got, err, h1)
	}
	// The next write goes to the torn slot, not over the whole one.
	h3 := Head{Seq: 12}
	w.Write(h3)
	w.Close()
	w, _ = OpenFileWitness(path)
	if got, _ := w.Read(); got != h3 {
		t.Fatalf("read %+v, want %+v", got, h3)
	}
}

func TestKeyStore(t *testing.T) {
	ks := FileKeys{Dir: filepath.Join(t.TempDir(), "keys")}
	if _, err := ks.Signer("machine", false); !errors.Is(err, ErrKey) {
		t.Fatalf("a missing key without create: %v", err)
	}
	s, err := ks.Signer("machine", true)
	if err != nil {
		t.Fatal(err)
	}
	if fi, _ := os.Stat(ks.Dir); fi.Mode().Perm() != 0o700 {
		t.Fatalf("key store mode %v", fi.Mode().Perm())
	}
	again, err := ks.Signer("machine", false)
	if err != nil || !again.Public().(ed25519.PublicKey).Equal(s.Public()) {
		t.Fatalf("reloaded another key: %v", err)
	}
	os.Chmod(filepath.Join(ks.Dir, "machine.key"), 0o644)
	if _, err := ks.Signer("machine", false); !errors.Is(err, ErrKey) || !strings.Contains(err.Error(), "readable by others") {
		t.Fatalf("a key readable by others: %v", err)
	}

	// A key an earlier version kept in the data directory moves out of it.
	data := t.TempDir()
	_, priv, _ := ed25519.GenerateKey(rand.Reader)
	old := filepath.Join(data, "machine.key")
	os.WriteFile(old, priv.Seed(), 0o600)
	ks2 := FileKeys{Dir: filepath.Join(t.TempDir(), "keys")}
	if moved, err := ks2.Adopt("machine", old); err != nil || !moved {
		t.Fatalf("adopt: %v %v", moved, err)
	}
	if _, err := os.Stat(old); !errors.Is(err, os.ErrNotExist) {
		t.Fatal("the key is still in the data directory")
	}
	k, _ := ks2.Signer("machine", false)
	if !k.Public().(ed25519.PublicKey).Equal(priv.Public()) {
		t.Fatal("adopted another key")
	}
	pubHex, _ := os.ReadFile(filepath.Join(ks2.Dir, "machine.pub"))
	if strings.TrimSpace(string(pubHex)) != base64.StdEncoding.EncodeToString(priv.Public().(ed25519.PublicKey)) {
		t.Fatal("the public key file is not the key's")
	}
}

func TestSignedDocuments(t *testing.T) {
	_, priv, _ := ed25519.GenerateKey(rand.Reader)
	doc := []byte("report\n")
	sig, err := SignDocument(priv, doc)
	if err != nil {
		t.Fatal(err)
	}
	pub := priv.Public().(ed25519.PublicKey)
	if err := VerifyDocument(doc, sig, pub); err != nil {
		t.Fatal(err)
	}
	if err := VerifyDocument([]byte("report!\n"), sig, pub); !errors.Is(err, ErrBadSignature) {
		t.Fatalf("a changed document: %v", err)
	}
}

// A record the fold refuses at start-up is a fault naming it.
func TestUnlawfulLoggedRecordFaultsStartUp(t *testing.T) {
	r := newRig(t)
	b, st, _ := r.open()
	r.add(b, st, 5)
	st.Sum -= 10
	bad, _ := b.Append(1, []byte("-10"), st) // a ledger defect let it through
	b.Close(nil)
	if _, _, _, err := r.tryOpen(); err == nil || !strings.Contains(err.Error(), fmt.Sprintf("record %d:", bad.Seq)) {
		t.Fatalf("start-up with an unlawful record: %v", err)
	}
}

// TestSnapshotWrittenInPlace: the seals' snapshots are written over the
// older file in place (the build before renamed a new file over it, with
// two fsyncs, on the commit that sealed). A snapshot a power loss tore is
// not used: start-up takes the other one, with the same state, and
// accuses no one.
func TestSnapshotWrittenInPlace(t *testing.T) {
	r := newRig(t)
	b, st, _ := r.open()
	r.add(b, st, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21)
	var before [2]os.FileInfo
	for i := range 2 {
		fi, err := os.Stat(filepath.Join(r.dir, fmt.Sprintf("snapshot-%d", i)))
		if err != nil {
			t.Fatalf("after two seals: %v", err)
		}
		before[i] = fi
	}
	for i := range 40 {
		r.add(b, st, int64(i))
	}
	for i := range 2 {
		fi, err := os.Stat(filepath.Join(r.dir, fmt.Sprintf("snapshot-%d", i)))
		if err != nil || !os.SameFile(before[i], fi) {
			t.Fatalf("snapshot-%d was replaced, not written in place (%v)", i, err)
		}
	}
	if err := b.Close(st); err != nil {
		t.Fatal(err)
	}
	want := *st
	// Tear the newest snapshot as a power loss in its write would.
	newest, seq := -1, uint64(0)
	for i := range 2 {
		if s := readSnapshot(r.dir, i); s != nil && s.Seq > seq {
			newest, seq = i, s.Seq
		}
	}
	path := filepath.Join(r.dir, fmt.Sprintf("snapshot-%d", newest))
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	for i := len(data) / 2; i < len(data); i++ {
		data[i] = 0
	}
	os.WriteFile(path, data, 0o600)
	b, got, info := r.open()
	defer b.Close(got)
	if *got != want || info.SnapshotSeq == 0 || info.SnapshotSeq >= seq || len(info.Tampered) != 0 {
		t.Fatalf("after a torn snapshot: %+v (want %+v), info %+v (the torn one was at %d)", got, want, info, seq)
	}
}

func TestWriteInPlaceCutsTheOlderContent(t *testing.T) {
	path := filepath.Join(t.TempDir(), "f")
	for _, s := range []string{strings.Repeat("long ", 100), "short", ""} {
		if err := writeInPlace(path, []byte(s), s == ""); err != nil {
			t.Fatal(err)
		}
		if got, err := os.ReadFile(path); err != nil || string(got) != s {
			t.Fatalf("after writing %q: %q %v", s, got, err)
		}
	}
}

// TestSealAnsweredBeforeItsSnapshot: once both snapshot files exist, the
// commit that seals is answered before its snapshot is written; the next
// seal and Close wait for it. The build before wrote it (with two fsyncs)
// before the answer.
func TestSealAnsweredBeforeItsSnapshot(t *testing.T) {
	r := newRig(t)
	b, st, _ := r.open()
	r.add(b, st, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21)
	snaps := func() (seqs [2]uint64) {
		for i := range 2 {
			if s := readSnapshot(r.dir, i); s != nil {
				seqs[i] = s.Seq
			}
		}
		return seqs
	}
	before := snaps()
	if before[0] == 0 || before[1] == 0 {
		t.Fatalf("after two seals: snapshots %v", before)
	}
	release := make(chan struct{})
	var once sync.Once
	free := func() { once.Do(func() { close(release) }) }
	defer free()
	b.mu.Lock()
	b.hold = func() { <-release }
	b.mu.Unlock()
	added := make(chan struct{})
	go func() {
		defer close(added)
		r.add(b, st, 1, 2, 3, 4, 5, 6, 7, 8, 9) // the 30th ledger record seals
	}()
	select {
	case <-added:
	case <-time.After(time.Minute):
		t.Fatal("the sealing commit waits for its snapshot")
	}
	if now := snaps(); now != before {
		t.Fatalf("snapshots %v written while held (were %v)", now, before)
	}
	b.mu.Lock()
	b.hold = nil
	b.mu.Unlock()
	free()
	if err := b.Close(st); err != nil {
		t.Fatal(err)
	}
	after := snaps()
	if max(after[0], after[1]) <= max(before[0], before[1]) {
		t.Fatalf("snapshots after Close: %v (were %v): the held one is not written", after, before)
	}
	b, got, info := r.open()
	defer b.Close(got)
	if *got != *st || info.SnapshotSeq != max(after[0], after[1]) {
		t.Fatalf("reopened %+v (want %+v) from snapshot %d", got, st, info.SnapshotSeq)
	}
}
