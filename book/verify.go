package book

import (
	"crypto/ed25519"
	"encoding/hex"
	"fmt"
	"os"
	"path/filepath"
	"slices"

	"github.com/openegm/cabinet/book/walog"
)

// Verdict is what Verify found.
type Verdict struct {
	OK          bool   `json:"ok"`
	Records     uint64 `json:"records"` // log records verified (checkpoints and seals included)
	Folded      uint64 `json:"folded"`  // ledger records folded, from the first
	Checkpoints int    `json:"checkpoints"`
	Seals       int    `json:"seals"`
	// Marks is how many commits carry the board's signed mark; the last
	// one's signature, checked, vouches for every record up to VouchedSeq.
	Marks      int    `json:"marks,omitempty"`
	VouchedSeq uint64 `json:"vouched_seq,omitempty"`
	// EarlierSeals are the seals that signed the state as an earlier
	// build encoded it (Spec.Earlier).
	EarlierSeals int      `json:"earlier_seals,omitempty"`
	KeyID        string   `json:"key"`
	LastHash     string   `json:"last_hash"`
	Problems     []string `json:"problems"`
	// Snapshots says, for each snapshot file found whole, whether it holds
	// the sealed state (what the machine would start from).
	Snapshots []string `json:"snapshots,omitempty"`
	// State is the fold of every record from the first (never from a
	// snapshot); nil when the log could not be folded.
	State State `json:"-"`
}

// Verify checks a ledger directory for an inspector: every frame, the hash
// chain, every checkpoint and seal signature against pub (the key
// registered at commissioning, never one found beside the ledger), then a
// fold of every record from the first with every invariant checked,
// compared with the state every seal signed and with the snapshots. It
// reads the log once, read-only, and never writes to dir, so it may run on
// a copy of a live machine's directory; a torn last record is reported,
// not cut.
//
// err is for a directory that cannot be read as a ledger; everything found
// in it is in the Verdict.
func Verify(dir string, spec Spec, pub ed25519.PublicKey) (*Verdict, error) {
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
	// One pass: the log checks every frame, link and signature and hands
	// the records start-up would keep (up to the last mark that verifies)
	// to the fold as it goes, which folds them on a goroutine of its own.
	f := &folder{spec: spec, pub: pub, st: spec.New(), digests: map[uint64]sealed{}}
	rep, err := walog.WalkAlongside(logDir, pub, f.record)
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
	digests := f.finish(v, rep)
	v.checkSnapshots(dir, digests)
	v.OK = len(v.Problems) == 0
	return v, nil
}

// checkSnapshots checks what the machine would start from: each whole
// snapshot must hold a sealed state, and digests are the seals just checked
// against the fold, by the seal's own record.
func (v *Verdict) checkSnapshots(dir string, digests map[uint64]sealed) {
	for i := range 2 {
		s := readSnapshot(dir, i)
		if s == nil {
			continue
		}
		name := fmt.Sprintf("%s%d", snapPrefix, i)
		d, sealed := digests[s.SealSeq]
		switch {
		case !sealed || d.seq != s.Seq:
			v.Problems = append(v.Problems, fmt.Sprintf("%s claims record %d sealed at %d, which the log does not hold", name, s.Seq, s.SealSeq))
		case Digest(s.State) != d.digest:
			v.Problems = append(v.Problems, fmt.Sprintf("%s is not the state of record %d: forged (the fold of the log differs)", name, s.Seq))
		default:
			v.Snapshots = append(v.Snapshots, fmt.Sprintf("%s: the state of record %d, as sealed at %d and folded", name, s.Seq, s.SealSeq))
		}
	}
}

type sealed struct {
	seq    uint64
	digest [32]byte
}

// folder folds the records of the log's single pass from the first,
// checking every seal against the state folded so far.
type folder struct {
	spec         Spec
	pub          ed25519.PublicKey
	st           State
	digests      map[uint64]sealed // the seals that held, by the seal's own record
	seals        int
	earlierSeals int
	folded       uint64
	lastSeq      uint64 // the last ledger record folded, and its chain hash
	lastHash     [32]byte
	problems     []string // found by the fold: they count only if the log opens
}

func (f *folder) record(r walog.Record) error {
	switch r.Type {
	case walog.TypeCheckpoint, walog.TypeMark:
		return nil
	case TypeSeal:
		f.seals++
		return f.checkSeal(r)
	}
	if err := f.st.Apply(r.Type, r.Data); err != nil {
		return fmt.Errorf("record %d: %w", r.Seq, err)
	}
	f.folded++
	f.lastSeq, f.lastHash = r.Seq, r.Hash
	return nil
}

// finish puts the fold into the verdict and returns the digests of the
// seals that held. A log that start-up would refuse is not folded at all:
// its fault is the log's problem, already reported, and what the fold
// found before the fault came to light does not count.
func (f *folder) finish(v *Verdict, rep *walog.Report) map[uint64]sealed {
	if rep.Fault != nil {
		if !slices.Contains(v.Problems, rep.Fault.Error()) {
			v.Problems = append(v.Problems, rep.Fault.Error())
		}
		return nil
	}
	v.Seals, v.EarlierSeals, v.Folded = f.seals, f.earlierSeals, f.folded
	v.Problems = append(v.Problems, f.problems...)
	err := rep.WalkErr
	if err == nil {
		if cerr := f.st.Check(); cerr != nil {
			err = fmt.Errorf("after the last record: %w", cerr)
		}
	}
	if err != nil {
		if !slices.Contains(v.Problems, err.Error()) {
			v.Problems = append(v.Problems, err.Error())
		}
		return f.digests
	}
	v.State = f.st
	return f.digests
}

// checkSeal checks a seal against the record it seals (the last ledger
// record before it) and the state folded up to there.
func (f *folder) checkSeal(r walog.Record) error {
	seal, err := ParseSeal(r.Data)
	if err != nil {
		f.problems = append(f.problems, fmt.Sprintf("seal at record %d: %v", r.Seq, err))
		return nil
	}
	if f.pub != nil {
		if err := seal.Verify(f.pub); err != nil {
			f.problems = append(f.problems, err.Error())
			return nil
		}
	}
	if seal.Seq != f.lastSeq || seal.Hash != f.lastHash {
		f.problems = append(f.problems, fmt.Sprintf("the seal at record %d names record %d, not the record before it (%d)", r.Seq, seal.Seq, f.lastSeq))
		return nil
	}
	enc, err := f.st.Encode()
	if err != nil {
		return fmt.Errorf("encoding the state at record %d: %w", f.lastSeq, err)
	}
	if Digest(enc) != seal.Digest && !f.earlier(seal.Digest) {
		f.problems = append(f.problems, fmt.Sprintf("the seal at record %d signed another state than the fold of records 1-%d", r.Seq, f.lastSeq))
		return nil
	}
	f.digests[r.Seq] = sealed{seq: seal.Seq, digest: seal.Digest}
	return nil
}

// earlier reports whether digest is that of the state as an earlier build
// encoded it (Spec.Earlier), and counts it.
func (f *folder) earlier(digest [32]byte) bool {
	if f.spec.Earlier == nil {
		return false
	}
	enc, err := f.spec.Earlier(f.st)
	if err != nil || Digest(enc) != digest {
		return false
	}
	f.earlierSeals++
	return true
}

// Records calls fn with every ledger record of the ledger in dir, in order
// (checkpoints and seals skipped), read-only: the directory is not touched
// and no key is needed. It reads the log, never a snapshot. r.Data is valid
// only during the call (fn decodes it or copies it). A log that
// start-up would refuse gives its fault before fn sees any record; so the
// log is read twice, the first time to verify it.
func Records(dir string, fn func(r walog.Record) error) error {
	logDir := filepath.Join(dir, LogDir)
	if st, err := os.Stat(logDir); err != nil || !st.IsDir() {
		return fmt.Errorf("%s is not a ledger directory (no %s directory in it)", dir, LogDir)
	}
	rep, err := walog.Verify(logDir, nil)
	if err != nil {
		return err
	}
	if rep.Fault != nil {
		return rep.Fault
	}
	rep, err = walog.Walk(logDir, nil, func(r walog.Record) error {
		if internal(r.Type) {
			return nil
		}
		return fn(r)
	})
	switch {
	case err != nil:
		return err
	case rep.Fault != nil:
		return rep.Fault // changed between the two readings
	}
	return rep.WalkErr
}
