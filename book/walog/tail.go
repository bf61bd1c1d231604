package walog

import (
	"bytes"
	"crypto/ed25519"
	"encoding/binary"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"

	"github.com/tidwall/wal"
)

// Tail is where a start-up from a sealed snapshot begins reading the log:
// after record Seq, whose chain hash a signed seal names (Hash). What comes
// before is vouched for by that seal and is not read: the records after it
// are, with every check Open makes on them.
type Tail struct {
	Seq  uint64
	Hash [32]byte
	// Fold is given every record after Seq that Open keeps, in order
	// (checkpoints and marks included), in the same pass that checks them.
	// Record.Data is valid only during the call. An error makes OpenTail
	// fail with it before anything is written.
	Fold func(Record) error
	// Accept, when not nil, is asked after the scan and before OpenTail
	// writes anything (a repair, the side file): an error gives up the
	// open with nothing changed.
	Accept func(TailInfo) error
}

// TailInfo is what the scan of a tail found, for Tail.Accept.
type TailInfo struct {
	LastSeq uint64    // the log's end, once an unvouched tail is cut
	Marks   [2]uint64 // the tail's last two commit marks (0: none)
}

// ErrNotTail is a log that OpenTail cannot judge from the tail alone
// (damage, a chain that does not continue from the sealed hash, no commit
// mark after it, a side file that names a checkpoint before it): the
// caller opens it whole with Open, which judges it and names what is
// wrong. Nothing was written.
var ErrNotTail = errors.New("walog: the log cannot be judged from its tail alone")

// OpenTail is Open for start-up from a sealed snapshot: it reads and checks
// only the records after t.Seq (their frames, the chain continuing from
// t.Hash, checkpoint signatures, the last commit marks, the side file), cuts
// a torn or unvouched end as Open does, and opens the log for appending.
// The records before t.Seq, and the segment files wholly before them, are
// not read: the seal that names t.Hash vouches for them, and Verify reads
// them.
//
// Whatever it cannot decide from the tail is an error wrapping
// ErrNotTail (a *Fault found in the tail among them), returned before
// anything is written, so that the caller can open the log with Open.
func OpenTail(dir string, opts Options, t Tail) (*Log, OpenInfo, error) {
	every := opts.CheckpointEvery
	if every == 0 {
		every = 1000
	}
	segLimit := opts.SegmentSize
	if segLimit <= 0 {
		segLimit = wal.DefaultOptions.SegmentSize
	}
	var pub ed25519.PublicKey
	if opts.Signer != nil {
		pub, _ = opts.Signer.Public().(ed25519.PublicKey)
	}
	if len(pub) != ed25519.PublicKeySize {
		return nil, OpenInfo{}, fmt.Errorf("walog: open %s from its tail: no Ed25519 signer: %w", dir, ErrNotTail)
	}
	if t.Seq == 0 {
		return nil, OpenInfo{}, fmt.Errorf("walog: open %s from its tail: no record to start after: %w", dir, ErrNotTail)
	}
	lock, err := lockDir(dir)
	if err != nil {
		return nil, OpenInfo{}, err
	}
	l, info, err := openTail(dir, pub, t, opts, every, segLimit)
	if err != nil {
		lock.Close()
		return nil, OpenInfo{}, err
	}
	l.lock = lock
	l.marks = opts.Marks
	return l, info, nil
}

func openTail(dir string, pub ed25519.PublicKey, t Tail, opts Options, every uint64, segLimit int) (*Log, OpenInfo, error) {
	if _, err := os.Stat(filepath.Join(dir, sideTemp)); err == nil {
		// A side file write cut short: Open removes its temp file.
		return nil, OpenInfo{}, fmt.Errorf("walog: open %s from its tail: %s present: %w", dir, sideTemp, ErrNotTail)
	}
	s, err := scanTail(dir, pub, t)
	if err != nil {
		return nil, OpenInfo{}, fmt.Errorf("walog: open %s from its tail: %w", dir, err)
	}
	if len(s.faults) > 0 {
		return nil, OpenInfo{}, fmt.Errorf("walog: open %s from its tail: %w (%w)", dir, ErrNotTail, s.faults[0])
	}
	if s.fnErr != nil {
		return nil, OpenInfo{}, s.fnErr
	}
	if t.Accept != nil {
		ti := TailInfo{LastSeq: s.lastSeq}
		if n := len(s.marks); n > 0 {
			ti.Marks[0] = s.marks[n-1].seq
			if n > 1 {
				ti.Marks[1] = s.marks[n-2].seq
			}
		}
		if err := t.Accept(ti); err != nil {
			return nil, OpenInfo{}, err
		}
	}
	return finish(dir, s, opts.Signer, every, segLimit, opts.UnsafeNoSync)
}

// scanTail is scanDir from the record after t.Seq, chained from t.Hash. It
// never writes. It gives ErrNotTail for what only the whole log can
// decide; damage in the tail is in s.faults.
func scanTail(dir string, pub ed25519.PublicKey, t Tail) (*scan, error) {
	s := &scan{dir: dir, pub: pub, lastHash: genesis, fn: t.Fold}
	segs, foreign, err := listSegments(dir)
	if err != nil {
		return nil, err
	}
	if len(foreign) > 0 {
		return nil, fmt.Errorf("tidwall/wal truncation file %s: %w", foreign[0], ErrNotTail)
	}
	s.segs = segs
	first := t.Seq + 1
	i := sort.Search(len(segs), func(i int) bool { return segs[i].index > first }) - 1
	if i < 0 {
		return nil, fmt.Errorf("no segment holds record %d: %w", first, ErrNotTail)
	}
	var size int64
	for _, seg := range segs[i:] {
		if st, err := os.Stat(filepath.Join(dir, seg.name)); err == nil {
			size = max(size, st.Size())
		}
	}
	buf := make([]byte, 0, size)
	for j, seg := range segs[i:] {
		last := i+j == len(segs)-1
		if j > 0 && seg.index != s.lastSeq+1 {
			return nil, fmt.Errorf("segment %s starts at record %d, after record %d: %w", seg.name, seg.index, s.lastSeq, ErrNotTail)
		}
		for k := s.held; k < len(s.pending); k++ {
			s.pending[k].Data = bytes.Clone(s.pending[k].Data)
		}
		if buf, err = readSegment(filepath.Join(dir, seg.name), buf); err != nil {
			return nil, err
		}
		if j == 0 {
			// Only the entries' lengths are read up to the tail: what they
			// hold is the sealed past.
			pos := 0
			for seq := seg.index; seq < first; seq++ {
				v, n := binary.Uvarint(buf[pos:])
				if n <= 0 || v > uint64(len(buf)-pos-n) {
					return nil, fmt.Errorf("segment %s ends before record %d: %w", seg.name, first, ErrNotTail)
				}
				pos += n + int(v)
			}
			s.skip = pos
			s.lastSeq, s.lastHash = t.Seq, t.Hash
		}
		if !s.scanSegment(seg.name, buf, last, true) {
			return s, nil
		}
	}
	if len(s.faults) > 0 {
		return s, nil
	}
	if s.markCount == 0 {
		// A tail without a mark is vouched for by no signature of its
		// own: the marks before it, or a log from before marks, are for
		// Open to judge.
		return nil, fmt.Errorf("no commit mark after record %d: %w", t.Seq, ErrNotTail)
	}
	s.settle()
	if len(s.faults) > 0 {
		return s, nil
	}
	if err := s.checkSideTail(t.Seq); err != nil {
		return nil, err
	}
	s.release(s.lastSeq)
	return s, nil
}

// checkSideTail is checkSide for a tail: the side file must name one of the
// tail's last two checkpoints, or, when the tail holds none, a checkpoint
// before it whose signature holds (whether it is the log's last before
// the tail is for Verify to say: the side file holds no money, and a log
// cut back, which the side file is there to show, ends before a side file
// that names a record past its end, as with Open).
func (s *scan) checkSideTail(from uint64) error {
	raw, err := os.ReadFile(filepath.Join(s.dir, sideFile))
	if err != nil {
		// Missing, it is lawful only in a log of one checkpoint at most,
		// fewer records than CheckpointEvery: short enough to read whole.
		return fmt.Errorf("checkpoint file: %v: %w", err, ErrNotTail)
	}
	f, err := decodeFrame(raw)
	if err != nil || f.typ != TypeCheckpoint {
		return fmt.Errorf("checkpoint file damaged: %w", ErrNotTail)
	}
	c, err := parseCheckpointData(f.data)
	if err != nil || c.seq+1 != f.seq || !ed25519.Verify(s.pub, checkpointMessage(c.seq, c.hash), c.sig) {
		return fmt.Errorf("checkpoint file does not verify: %w", ErrNotTail)
	}
	switch {
	case f.seq > s.lastSeq:
		return fmt.Errorf("the log ends before the checkpoint file's record %d: %w", f.seq, ErrNotTail)
	case f.seq == s.recent[0].seq:
		if !bytes.Equal(raw, s.recent[0].frame) {
			return fmt.Errorf("checkpoint file differs from record %d: %w", f.seq, ErrNotTail)
		}
	case f.seq == s.recent[1].seq && s.recent[1].seq != 0:
		if !bytes.Equal(raw, s.recent[1].frame) {
			return fmt.Errorf("checkpoint file differs from record %d: %w", f.seq, ErrNotTail)
		}
		s.sideRepair = s.recent[0].frame
	case f.seq <= from && s.checkpoints == 0:
		// The last checkpoint, as far as the tail can tell: the next
		// falls due counting from it.
		s.recent[0] = ckptRef{seq: f.seq, frame: raw}
	default:
		return fmt.Errorf("checkpoint file names record %d, not one of the tail's last checkpoints: %w", f.seq, ErrNotTail)
	}
	return nil
}
