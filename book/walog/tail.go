package walog

import (
	"bytes"
	"crypto/ed25519"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
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
//
// p, from Prepare(dir), is used and ended by OpenTail whatever it returns;
// nil prepares the directory here.
func OpenTail(dir string, opts Options, t Tail, p *Prepared) (*Log, OpenInfo, error) {
	every := opts.CheckpointEvery
	if every == 0 {
		every = 1000
	}
	segLimit := segmentLimit(opts)
	var pub ed25519.PublicKey
	if opts.Signer != nil {
		pub, _ = opts.Signer.Public().(ed25519.PublicKey)
	}
	if p != nil && (p.dir != dir || p.segLimit != segLimit || p.noSync != opts.UnsafeNoSync) {
		p.Close()
		return nil, OpenInfo{}, fmt.Errorf("walog: open %s from its tail: prepared for %s with other options", dir, p.dir)
	}
	if len(pub) != ed25519.PublicKeySize || t.Seq == 0 {
		p.Close()
		if t.Seq == 0 {
			return nil, OpenInfo{}, fmt.Errorf("walog: open %s from its tail: no record to start after: %w", dir, ErrNotTail)
		}
		return nil, OpenInfo{}, fmt.Errorf("walog: open %s from its tail: no Ed25519 signer: %w", dir, ErrNotTail)
	}
	if p == nil {
		var err error
		if p, err = Prepare(dir, opts); err != nil {
			return nil, OpenInfo{}, err
		}
	}
	defer p.Close()
	l, info, err := openTail(dir, pub, t, opts, every, segLimit, p)
	if err != nil {
		return nil, OpenInfo{}, err
	}
	l.lock, p.lock = p.lock, nil
	l.marks = opts.Marks
	return l, info, nil
}

// Prepared is a log directory locked for a start-up from its tail, and,
// when it holds segments and no truncation file of tidwall/wal's, being
// opened for appending by tidwall/wal on a goroutine of its own. That
// opening stats every segment file and reads the last one whole: at 10^6
// games it took longer than the tail's checks, so it starts before the
// caller reads what it needs to call OpenTail (its snapshots), and runs
// beside all of it. It reads and changes nothing that OpenTail's checks
// depend on: it opens the last segment to append and writes only a new
// log's first segment, deletes only what a truncation file names, and
// neither is there.
type Prepared struct {
	dir      string
	segLimit int
	noSync   bool
	lock     *os.File
	segs     []segFile
	foreign  []string
	stale    []string // the side file's temporary files, from the same listing
	listErr  error
	early    chan opened
}

type opened struct {
	w   *wal.Log
	err error
}

// Prepare locks the log in dir and starts opening it for appending (see
// Prepared). A log already open elsewhere is an error. Close ends it when
// it is not given to OpenTail.
func Prepare(dir string, opts Options) (*Prepared, error) {
	lock, err := lockDir(dir)
	if err != nil {
		return nil, err
	}
	p := &Prepared{dir: dir, segLimit: segmentLimit(opts), noSync: opts.UnsafeNoSync, lock: lock}
	p.segs, p.foreign, p.stale, p.listErr = listDir(dir)
	if p.listErr == nil && len(p.segs) > 0 && len(p.foreign) == 0 {
		p.early = make(chan opened, 1)
		go func() {
			w, err := wal.Open(dir, walOptions(p.segLimit, p.noSync))
			p.early <- opened{w, err}
		}()
	}
	return p, nil
}

// Close waits for the early opening and closes it, and unlocks the
// directory (unless OpenTail kept both). A nil p is nothing to close.
func (p *Prepared) Close() {
	if p == nil {
		return
	}
	p.drop()
	if p.lock != nil {
		p.lock.Close()
		p.lock = nil
	}
}

// drop closes the early opening, if any, once it has ended.
func (p *Prepared) drop() {
	if p.early != nil {
		if o := <-p.early; o.w != nil {
			o.w.Close()
		}
		p.early = nil
	}
}

// take is the early opening's log, when it opened.
func (p *Prepared) take() *wal.Log {
	if p.early == nil {
		return nil
	}
	o := <-p.early
	p.early = nil
	if o.err != nil {
		return nil
	}
	return o.w
}

func segmentLimit(opts Options) int {
	if opts.SegmentSize <= 0 {
		return wal.DefaultOptions.SegmentSize
	}
	return opts.SegmentSize
}

func openTail(dir string, pub ed25519.PublicKey, t Tail, opts Options, every uint64, segLimit int, p *Prepared) (*Log, OpenInfo, error) {
	if p.listErr != nil {
		return nil, OpenInfo{}, fmt.Errorf("walog: open %s from its tail: %w", dir, p.listErr)
	}
	s, err := scanTail(dir, pub, t, p.segs, p.foreign)
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
	// The early opening is used when the scan leaves nothing to repair;
	// else it is closed and the log opened again after the repair.
	var w *wal.Log
	if s.unvouched == nil && s.torn == nil && s.sideRepair == nil {
		w = p.take()
	}
	p.drop()
	// A crash while replacing the side file leaves its temp file (the
	// side file itself is whole, and the scan read it): removed, as Open
	// does, found by the listing Prepare made (the directory is locked
	// since) rather than a second reading of the directory.
	for _, name := range p.stale {
		if err := os.Remove(filepath.Join(dir, name)); err != nil && !errors.Is(err, os.ErrNotExist) {
			if w != nil {
				w.Close()
			}
			return nil, OpenInfo{}, fmt.Errorf("walog: open %s: %w", dir, err)
		}
	}
	return finish(dir, s, opts.Signer, every, segLimit, opts.UnsafeNoSync, w)
}

// scanTail is scanDir from the record after t.Seq, chained from t.Hash,
// over the segments and foreign files listed in dir. It never writes. It
// gives ErrNotTail for what only the whole log can decide; damage in the
// tail is in s.faults.
func scanTail(dir string, pub ed25519.PublicKey, t Tail, segs []segFile, foreign []string) (*scan, error) {
	s := &scan{dir: dir, pub: pub, lastHash: genesis, fn: t.Fold}
	var err error
	if len(foreign) > 0 {
		return nil, fmt.Errorf("tidwall/wal truncation file %s: %w", foreign[0], ErrNotTail)
	}
	first := t.Seq + 1
	if len(segs) == 0 || first < segs[0].index {
		// Snapshots older than the archive's moves (a power cut lost the
		// newer one): the tail starts in the archive.
		arch, err := listArchive(dir)
		if err != nil {
			return nil, err
		}
		k := len(arch)
		if len(segs) > 0 {
			k = sort.Search(len(arch), func(k int) bool { return arch[k].index >= segs[0].index })
		}
		segs = append(arch[:k:k], segs...)
	}
	s.segs = segs
	i := sort.Search(len(segs), func(i int) bool { return segs[i].index > first }) - 1
	if i < 0 {
		return nil, fmt.Errorf("no segment holds record %d: %w", first, ErrNotTail)
	}
	var buf []byte
	for j, seg := range segs[i:] {
		last := i+j == len(segs)-1
		if j > 0 && seg.index != s.lastSeq+1 {
			return nil, fmt.Errorf("segment %s starts at record %d, after record %d: %w", seg.name, seg.index, s.lastSeq, ErrNotTail)
		}
		for k := s.held; k < len(s.pending); k++ {
			s.pending[k].Data = bytes.Clone(s.pending[k].Data)
		}
		var win []byte
		if j == 0 {
			var at int
			if win, s.base, at, err = readTail(filepath.Join(dir, seg.name), first, tailGuess(dir, segs, i, first)); err != nil {
				return nil, err
			}
			s.skip = at
			s.lastSeq, s.lastHash = t.Seq, t.Hash
		} else {
			if buf, err = readSegment(filepath.Join(dir, seg.name), buf); err != nil {
				return nil, err
			}
			win = buf
		}
		if !s.scanSegment(seg.name, win, last, true) {
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
	raw, _, err := readSide(s.dir)
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

// readTail reads segment file path from the entry of record first to its
// end, and no more: a window from the end that doubles until it holds the
// frame header of that record (its magic and sequence number, which no
// ledger's payload holds: JSON has no zero byte, and a signature or hash
// matching 9 given bytes is a chance of 2^-72) preceded by the entry's
// length. It returns the window, where it starts in the file, and where the
// entry starts in the window. A wrong match could only be followed by a
// chain that does not continue from the sealed hash: the caller's checks
// refuse it, so the choice is never trusted, only tried.
func readTail(path string, first uint64, guess int64) (win []byte, base int64, at int, err error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, 0, 0, err
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return nil, 0, 0, err
	}
	size := st.Size()
	var pattern [9]byte
	pattern[0] = frameMagic
	binary.BigEndian.PutUint64(pattern[1:], first)
	// The first window starts a little before where the entry is
	// guessed to be; the next ones double from the end.
	n := size - guess + 64<<10
	if guess < 0 {
		n = 256 << 10
	}
	for ; ; n *= 2 {
		base = max(size-n, 0)
		win = make([]byte, size-base)
		if _, err := f.ReadAt(win, base); err != nil && !errors.Is(err, io.EOF) {
			return nil, 0, 0, err
		}
		for from := 0; ; {
			p := bytes.Index(win[from:], pattern[:])
			if p < 0 {
				break
			}
			p += from
			from = p + 1
			if p+headerSize > len(win) {
				continue
			}
			v := uint64(frameOverhead) + uint64(binary.BigEndian.Uint32(win[p+11:p+headerSize]))
			k := uvarintLen(v)
			if p < k {
				continue // the length is before the window: a wider one has it
			}
			if got, m := binary.Uvarint(win[p-k:]); got == v && m == k {
				return win, base, p - k, nil
			}
		}
		if base == 0 {
			return nil, 0, 0, fmt.Errorf("%s does not hold record %d: %w", filepath.Base(path), first, ErrNotTail)
		}
	}
}

// tailGuess is where record first's entry is likely to start in segment
// segs[i]: its distance from the segment's first record times the mean
// entry of a whole segment (one with a segment after it), -1 when there is
// none to go by. Only the reading's length depends on it.
func tailGuess(dir string, segs []segFile, i int, first uint64) int64 {
	j := i
	if j == len(segs)-1 {
		j--
	}
	if j < 0 {
		return -1
	}
	st, err := os.Stat(filepath.Join(dir, segs[j].name))
	if err != nil || segs[j+1].index <= segs[j].index {
		return -1
	}
	mean := st.Size() / int64(segs[j+1].index-segs[j].index)
	return int64(first-segs[i].index) * mean
}
