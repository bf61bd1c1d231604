package walog

import (
	"crypto/ed25519"
	"fmt"
	"os"
)

// Report is what Verify found.
type Report struct {
	Records           uint64 // records verified, checkpoints included
	LastSeq           uint64 // last record whose frame and chain link verified
	LastHash          [32]byte
	Checkpoints       int    // checkpoint records in the log
	LastCheckpointSeq uint64 // seq of the last checkpoint record; 0 if none
	TornTail          string // an incomplete last record Open would discard; "" if none
	// VouchedSeq is the last record a commit mark that verifies covers
	// (LastSeq for a log written before marks); Unvouched names the
	// records after it, which Open would cut ("" if none).
	VouchedSeq uint64
	Unvouched  string
	Marks      int // commit marks up to VouchedSeq
	Problems   []string
	OK         bool // no problems; a torn tail alone is not one
	// Fault is the first fault found: the one Open would refuse the log
	// with (nil: Open would open it, after cutting a torn or unvouched
	// tail).
	Fault *Fault
	// WalkErr is the first error Walk's fn returned; fn was not called
	// after it.
	WalkErr error
}

// Verify checks a log directory for an inspector: every frame, the chain,
// every checkpoint signature against pub, and the side checkpoint file. It
// opens files read-only and never writes to dir, so it may run on a log the
// cabinet has open; it does not repair a torn tail but reports it.
//
// pub nil skips the signature checks, and that is reported as a problem:
// an unchecked log is not a verified one.
//
// err is for a directory that cannot be read; everything found in the log is
// in the Report.
func Verify(dir string, pub ed25519.PublicKey) (*Report, error) {
	return Walk(dir, pub, nil)
}

// Walk is Verify that also reads the log to fn, in the same single pass
// over the segment files and without writing anything: fn is called, in
// order, with every record that Open would keep (checkpoints and marks
// included), up to the last commit mark whose signature holds. Record.Data
// aliases the walk's buffer: it is valid only during the call, and fn must
// not change it.
//
// Since the signature of the last mark is checked only at the end, fn may
// have been called for some of the records when the log turns out to be
// one that Open refuses (Report.Fault not nil): a caller then drops what
// fn built. fn's first error stops the calls (Report.WalkErr), not the
// verification.
func Walk(dir string, pub ed25519.PublicKey, fn func(Record) error) (*Report, error) {
	return walk(dir, pub, fn, false)
}

// WalkAlongside is Walk with fn on a goroutine of its own, fed in batches
// as the segments are read and hashed, so that what fn does takes the
// time of the reading and hashing rather than its own on top (on a
// machine with a core to spare). fn still sees the records one at a time
// and in order; it must not stop its goroutine (no t.Fatal).
func WalkAlongside(dir string, pub ed25519.PublicKey, fn func(Record) error) (*Report, error) {
	return walk(dir, pub, fn, true)
}

func walk(dir string, pub ed25519.PublicKey, fn func(Record) error, alongside bool) (*Report, error) {
	if pub != nil && len(pub) != ed25519.PublicKeySize {
		return nil, fmt.Errorf("walog: verify %s: public key is %d bytes, not %d", dir, len(pub), ed25519.PublicKeySize)
	}
	st, err := os.Stat(dir)
	if err != nil {
		return nil, fmt.Errorf("walog: verify: %w", err)
	}
	if !st.IsDir() {
		return nil, fmt.Errorf("walog: verify: %s is not a directory", dir)
	}
	s, err := scanDir(dir, pub, false, fn, alongside)
	if err != nil {
		return nil, fmt.Errorf("walog: verify %s: %w", dir, err)
	}
	r := &Report{
		Records:           s.scanned,
		LastSeq:           s.scanned,
		VouchedSeq:        s.lastSeq,
		Marks:             s.markCount,
		LastHash:          s.lastHash,
		Checkpoints:       s.checkpoints,
		LastCheckpointSeq: s.recent[0].seq,
		WalkErr:           s.fnErr,
	}
	if len(s.faults) > 0 {
		r.Fault = s.faults[0]
	}
	if s.torn != nil {
		r.TornTail = fmt.Sprintf("%d bytes at offset %d of segment %s after seq %d: an incomplete last record (not repaired)",
			s.torn.length, s.torn.offset, s.torn.segment, s.torn.afterSeq)
	}
	if c := s.unvouched; c != nil {
		r.Unvouched = c.detail()
		r.Problems = append(r.Problems, fmt.Sprintf("record %d is the first not vouched for by the machine key: %s", c.first, c.detail()))
	}
	for _, f := range s.faults {
		r.Problems = append(r.Problems, f.Error())
	}
	if s.fatal {
		r.Problems = append(r.Problems, fmt.Sprintf("verification stopped at seq %d: records after it were not checked", s.lastSeq+1))
	}
	if pub == nil {
		r.Problems = append(r.Problems, "checkpoint signatures not checked: no public key given")
	}
	r.OK = len(r.Problems) == 0
	return r, nil
}
