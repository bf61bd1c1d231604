package book

import (
	"crypto/ed25519"
	"encoding/hex"
	"fmt"
	"io"
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
// never writes to dir: it folds a private copy, so it may run on a copy of
// a live machine's directory; a torn last record is reported, not cut.
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
	digests, err := v.fold(logDir, spec, pub)
	if err != nil && !slices.Contains(v.Problems, err.Error()) {
		v.Problems = append(v.Problems, err.Error())
	}
	// What the machine would start from: each whole snapshot must hold a
	// sealed state, and the seal was just checked against the fold.
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
	v.OK = len(v.Problems) == 0
	return v, nil
}

type sealed struct {
	seq    uint64
	digest [32]byte
}

// fold folds a private copy of the log from its first record, checking
// every seal against the state folded so far. It returns the digests of
// the seals that held, by the seal's own record.
func (v *Verdict) fold(logDir string, spec Spec, pub ed25519.PublicKey) (map[uint64]sealed, error) {
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
			return v.checkSeal(r, last, spec, st, pub, digests)
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
func (v *Verdict) checkSeal(r, last walog.Record, spec Spec, st State, pub ed25519.PublicKey, digests map[uint64]sealed) error {
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
	if Digest(enc) != seal.Digest && !v.earlier(spec, st, seal.Digest) {
		v.Problems = append(v.Problems, fmt.Sprintf("the seal at record %d signed another state than the fold of records 1-%d", r.Seq, last.Seq))
		return nil
	}
	digests[r.Seq] = sealed{seq: seal.Seq, digest: seal.Digest}
	return nil
}

// earlier reports whether digest is that of the state as an earlier build
// encoded it (Spec.Earlier), and counts it.
func (v *Verdict) earlier(spec Spec, st State, digest [32]byte) bool {
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

// Records calls fn with every ledger record of the ledger in dir, in order
// (checkpoints and seals skipped), read from a private copy: the directory
// is not touched and no key is needed. It reads the log, never a snapshot.
func Records(dir string, fn func(r walog.Record) error) error {
	logDir := filepath.Join(dir, LogDir)
	if st, err := os.Stat(logDir); err != nil || !st.IsDir() {
		return fmt.Errorf("%s is not a ledger directory (no %s directory in it)", dir, LogDir)
	}
	tmp, err := os.MkdirTemp("", "book-read-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(tmp)
	cp := filepath.Join(tmp, LogDir)
	if err := copyDir(logDir, cp); err != nil {
		return fmt.Errorf("copying the log: %w", err)
	}
	log, _, err := walog.Open(cp, walog.Options{UnsafeNoSync: true})
	if err != nil {
		return err
	}
	defer log.Close()
	return log.Scan(1, func(r walog.Record) error {
		if internal(r.Type) {
			return nil
		}
		return fn(r)
	})
}
