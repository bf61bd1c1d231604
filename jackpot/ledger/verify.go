package ledger

import (
	"crypto/ed25519"
	"encoding/hex"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/openegm/cabinet/meters/walog"
)

// Verdict is what Verify found.
type Verdict struct {
	OK          bool     `json:"ok"`
	Records     uint64   `json:"records"` // log records verified, checkpoints included
	Checkpoints int      `json:"checkpoints"`
	KeyID       string   `json:"controller_key"`
	LastHash    string   `json:"last_hash"`
	Folded      uint64   `json:"folded"` // ledger records folded (entries of batches one by one)
	Problems    []string `json:"problems"`
	// State is the fold of every record of the log, from the first (never
	// from a snapshot); nil if the log could not be folded.
	State *State `json:"-"`
}

// Verify checks a ledger directory for an inspector, the way meterread
// verify checks a cabinet's: every record's frame and checksum, the hash
// chain, every checkpoint signature against pub, then a fold of every
// record from the first with every invariant checked (the pools' identity
// to the millicent, exact carries, meter baselines, award tracks, batch
// sequences). It never writes to dir: the fold runs on a private copy of the
// log, so Verify may run on a copy of a live controller's directory, and a
// torn last record is reported, not repaired.
//
// pub nil takes the key from dir's controller.pub; an inspector passes the
// key recorded at commissioning instead. err is for a directory that cannot
// be read as a ledger; everything found in the log is in the Verdict.
func Verify(dir string, pub ed25519.PublicKey) (*Verdict, error) {
	logDir := filepath.Join(dir, LogDir)
	if st, err := os.Stat(logDir); err != nil || !st.IsDir() {
		return nil, fmt.Errorf("link ledger: verify: %s is not a link controller ledger (no %s directory)", dir, LogDir)
	}
	v := &Verdict{}
	if pub == nil {
		p, err := ReadPublicKey(filepath.Join(dir, PubFile))
		if err != nil {
			v.Problems = append(v.Problems, fmt.Sprintf("controller public key: %v", err))
		} else {
			pub = p
		}
	} else if len(pub) != ed25519.PublicKeySize {
		return nil, fmt.Errorf("link ledger: verify: public key is %d bytes, not %d", len(pub), ed25519.PublicKeySize)
	}
	if pub != nil {
		v.KeyID = KeyID(pub)
	}
	rep, err := walog.Verify(logDir, pub)
	if err != nil {
		return nil, fmt.Errorf("link ledger: %w", err)
	}
	v.Records, v.Checkpoints = rep.Records, rep.Checkpoints
	v.LastHash = hex.EncodeToString(rep.LastHash[:])
	v.Problems = append(v.Problems, rep.Problems...)
	if rep.TornTail != "" {
		v.Problems = append(v.Problems, "torn last record (the controller cuts it at its next start-up): "+rep.TornTail)
	}
	if !rep.OK && len(rep.Problems) == 0 {
		v.Problems = append(v.Problems, "log verification failed")
	}
	st, folded, err := foldCopy(logDir, nil)
	v.Folded = folded
	if err != nil {
		v.Problems = append(v.Problems, err.Error())
	} else {
		v.State = st
	}
	v.OK = len(v.Problems) == 0
	return v, nil
}

// foldCopy folds every record of the log in logDir, read from a private
// copy (opening a log takes a lock and may cut a torn tail: never on the
// inspector's input). each, if not nil, sees every record with its result.
func foldCopy(logDir string, each func(Record, Result)) (*State, uint64, error) {
	tmp, err := os.MkdirTemp("", "linkledger-verify-")
	if err != nil {
		return nil, 0, err
	}
	defer os.RemoveAll(tmp)
	cp := filepath.Join(tmp, LogDir)
	if err := copyDir(logDir, cp); err != nil {
		return nil, 0, fmt.Errorf("copying the log: %w", err)
	}
	log, _, err := walog.Open(cp, walog.Options{UnsafeNoSync: true})
	if err != nil {
		return nil, 0, asFault(err, 0, -1)
	}
	defer log.Close()
	st := NewState()
	err = log.Scan(1, func(r walog.Record) error {
		if r.Type == walog.TypeCheckpoint {
			return nil
		}
		recs, err := Decode(Type(r.Type), r.Data)
		if err != nil {
			return &Fault{Seq: r.Seq, Entry: -1, Err: err}
		}
		if f := foldLogged(st, Type(r.Type), recs, each); f != nil {
			f.Seq = r.Seq
			return f
		}
		return nil
	})
	if err != nil {
		return nil, st.records, asFault(err, 0, -1)
	}
	if err := st.Check(); err != nil {
		return nil, st.records, &Fault{Entry: -1, Err: fmt.Errorf("after the last record: %w", err)}
	}
	return st, st.records, nil
}

// copyDir copies the regular files of src (one level: a walog directory
// has no subdirectories) into a new directory dst.
func copyDir(src, dst string) error {
	if err := os.MkdirAll(dst, 0o700); err != nil {
		return err
	}
	ents, err := os.ReadDir(src)
	if err != nil {
		return err
	}
	for _, e := range ents {
		if !e.Type().IsRegular() {
			continue
		}
		if err := copyFile(filepath.Join(src, e.Name()), filepath.Join(dst, e.Name())); err != nil {
			return err
		}
	}
	return nil
}

func copyFile(src, dst string) error {
	in, err := os.Open(src)
	if err != nil {
		return err
	}
	defer in.Close()
	out, err := os.OpenFile(dst, os.O_CREATE|os.O_EXCL|os.O_WRONLY, 0o600)
	if err != nil {
		return err
	}
	if _, err := io.Copy(out, in); err != nil {
		out.Close()
		return err
	}
	return out.Close()
}
