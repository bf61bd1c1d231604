package ledger

import (
	"crypto/ed25519"
	"fmt"
	"os"
	"path/filepath"

	"github.com/openegm/cabinet/book"
	"github.com/openegm/cabinet/book/walog"
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
// verify checks a cabinet's (book.Verify): every record's frame and
// checksum, the hash chain, every checkpoint and seal signature against
// pub, then a fold of every record from the first with every invariant
// checked (the pools' identity to the millicent, exact carries, meter
// baselines, award tracks, batch sequences), compared with every seal and
// the snapshots. It never writes to dir.
//
// pub is the key registered at commissioning; nil is reported as a
// problem (a key found beside the ledger would prove nothing). err is for
// a directory that cannot be read as a ledger; everything found in the
// log is in the Verdict.
func Verify(dir string, pub ed25519.PublicKey) (*Verdict, error) {
	logDir := filepath.Join(dir, LogDir)
	if st, err := os.Stat(logDir); err != nil || !st.IsDir() {
		return nil, fmt.Errorf("link ledger: verify: %s is not a link controller ledger (no %s directory)", dir, LogDir)
	}
	bv, err := book.Verify(dir, Spec, pub)
	if err != nil {
		return nil, fmt.Errorf("link ledger: %w", err)
	}
	v := &Verdict{OK: bv.OK, Records: bv.Records, Checkpoints: bv.Checkpoints, KeyID: bv.KeyID, LastHash: bv.LastHash, Problems: bv.Problems}
	if bv.State != nil {
		v.State = bv.State.(fold).s
		v.Folded = v.State.records
	}
	return v, nil
}

// foldCopy folds every record of the log in logDir, read without opening
// it (opening a log takes a lock and may cut a torn tail: never on the
// inspector's input; book.Records reads it read-only). each, if not nil, sees every record with its result.
func foldCopy(logDir string, each func(Record, Result)) (*State, uint64, error) {
	st := NewState()
	err := book.Records(filepath.Dir(logDir), func(r walog.Record) error {
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
