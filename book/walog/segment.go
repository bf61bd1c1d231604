package walog

import (
	"bytes"
	"crypto/ed25519"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"

	"github.com/openegm/cabinet/internal/atomicfile"
	"golang.org/x/crypto/blake2b"
)

// tidwall/wal v1.2.1 binary segment format, as read from its source:
//
//   - a segment file is named by the index of its first entry, "%020d";
//     tidwall/wal takes any 20-character name that parses as a non-zero
//     uint64 as a segment and ignores shorter names (our side files);
//   - a segment is the concatenation of entries, each uvarint(len(data))
//     followed by data, with nothing else: no header, checksum or padding;
//   - segment k+1 starts at the index after the last entry of segment k;
//     a new segment is created (O_TRUNC) after the entry that brings the
//     current one to SegmentSize bytes or more, or before an entry when the
//     current one is already above SegmentSize;
//   - "<name>.START" and "<name>.END" are left by its TruncateFront and
//     TruncateBack; wal.Open acts on them by deleting segments. walog never
//     truncates through tidwall/wal, so such a file is foreign and must stop
//     Open before tidwall/wal deletes anything.
//
// wal.Open parses only the last segment, fails on any torn entry there and
// reads a zero byte as an empty entry, so walog parses every segment itself
// first.

const (
	segmentNameLen = 20
	sideFile       = "checkpoint"
	sideTemp       = sideFile + atomicfile.TempInfix + "0" // what a cut side-file write leaves
	lockFile       = "lock"
	// archiveDir holds the segments wholly before the older sealed
	// snapshot (Log.Archive): tidwall/wal, which stats every segment file
	// of its directory when it opens, does not see them; Open and Verify
	// read them with the others.
	archiveDir = "archive"
)

func segmentName(index uint64) string { return fmt.Sprintf("%020d", index) }

type segFile struct {
	name  string
	index uint64
}

// listSegments returns every segment of the log, the archived ones first
// (named by their path in dir, archiveDir/…), in order, and the names of
// tidwall/wal truncation files that must not be there. A segment both in
// the archive and in the log is foreign too: walog moves one, never copies
// it.
//
// The log is listed before its archive, so that a segment the log's
// writer moves meanwhile (Verify may run on a log in use) is in both
// listings, not in neither: it is taken from the archive when it is no
// longer in the log.
func listSegments(dir string) (segs []segFile, foreign []string, err error) {
	segs, foreign, _, err = listDir(dir)
	if err != nil {
		return nil, nil, err
	}
	if listing != nil {
		listing(1)
	}
	arch, err := listArchive(dir)
	if err != nil {
		return nil, nil, err
	}
	if len(arch) == 0 {
		return segs, foreign, nil
	}
	in := make(map[uint64]int, len(segs))
	for i, seg := range segs {
		in[seg.index] = i
	}
	for _, a := range arch {
		i, ok := in[a.index]
		if !ok {
			continue
		}
		if _, err := os.Lstat(filepath.Join(dir, segs[i].name)); errors.Is(err, fs.ErrNotExist) {
			segs[i].index = 0 // moved since the log was listed
		} else {
			foreign = append(foreign, a.name)
		}
	}
	all := arch
	for _, seg := range segs {
		if seg.index != 0 {
			all = append(all, seg)
		}
	}
	sort.SliceStable(all, func(i, j int) bool { return all[i].index < all[j].index })
	if listing != nil {
		listing(2)
	}
	return all, foreign, nil
}

// listing, set by tests, is called between the log's listing and its
// archive's (1) and after both (2): where a move by the log's writer
// meets a reader of the directory.
var listing func(stage int)

// listArchive returns the segments moved to the archive (see Log.Archive),
// in order, named by their path in dir; none when there is no archive.
func listArchive(dir string) ([]segFile, error) {
	ents, err := os.ReadDir(filepath.Join(dir, archiveDir))
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	var segs []segFile
	for _, e := range ents {
		name := e.Name()
		if e.IsDir() || len(name) != segmentNameLen {
			continue
		}
		if index, err := strconv.ParseUint(name, 10, 64); err == nil && index != 0 {
			segs = append(segs, segFile{name: archiveDir + "/" + name, index: index})
		}
	}
	return segs, nil
}

// archived says whether a segment is one of the archive's.
func (s segFile) archived() bool { return strings.HasPrefix(s.name, archiveDir+"/") }

// listDir is listSegments, and the temporary files a cut write of the side
// file left (stale), from the one reading of the directory.
func listDir(dir string) (segs []segFile, foreign, stale []string, err error) {
	ents, err := os.ReadDir(dir) // sorted by name, so by index: names are fixed width
	if err != nil {
		return nil, nil, nil, err
	}
	for _, e := range ents {
		name := e.Name()
		if strings.HasPrefix(name, sideFile+atomicfile.TempInfix) {
			stale = append(stale, name)
			continue
		}
		if e.IsDir() || len(name) < segmentNameLen {
			continue
		}
		index, err := strconv.ParseUint(name[:segmentNameLen], 10, 64)
		if err != nil || index == 0 {
			continue
		}
		switch {
		case len(name) == segmentNameLen:
			segs = append(segs, segFile{name: name, index: index})
		case name == name[:segmentNameLen]+".START" || name == name[:segmentNameLen]+".END":
			foreign = append(foreign, name)
		}
	}
	return segs, foreign, stale, nil
}

func uvarintLen(x uint64) int {
	n := 1
	for x >= 0x80 {
		x >>= 7
		n++
	}
	return n
}

// tornAt describes an incomplete last entry.
type tornAt struct {
	segment  string
	offset   int64 // where the entry starts; the segment is cut back to here
	length   int64 // bytes from offset to the end of the segment
	afterSeq uint64
}

func (t *tornAt) detail() string {
	return fmt.Sprintf("torn last record after seq %d: %d bytes of segment %s discarded", t.afterSeq, t.length, t.segment)
}

// tornPrefix reports whether t, the bytes from the start of the last entry
// to the end of the log, can be the beginning of the entry for record seq
// that a crash cut short. Any byte that such an entry could not hold means
// the bytes were damaged after being written whole: that is a fault, never a
// repair, since the record may have been acknowledged.
//
// A complete entry (its length prefix is satisfied) never comes here: a
// complete entry with a bad frame is damage even at the very end, because a
// cut write leaves fewer bytes than announced, not wrong ones.
func tornPrefix(t []byte, seq uint64) (bool, string) {
	v, n := binary.Uvarint(t)
	switch {
	case len(t) == 0:
		return false, "empty entry"
	case n == 0:
		// Every byte has the continuation bit: a cut length prefix, if
		// short enough to belong to a frame length.
		if len(t) < uvarintLen(maxFrame) {
			return true, ""
		}
		return false, "length prefix longer than any frame needs"
	case n < 0:
		return false, "length prefix overflows"
	case n != uvarintLen(v):
		return false, "length prefix is not in its shortest form"
	case v < frameOverhead || v > maxFrame:
		return false, fmt.Sprintf("length prefix %d is outside the frame size range", v)
	case uint64(len(t)-n) >= v:
		return false, "entry is complete"
	}
	// The bytes present must match the frame header record seq would have
	// had; only the type is unknown.
	var want [headerSize]byte
	want[0] = frameMagic
	binary.BigEndian.PutUint64(want[1:9], seq)
	binary.BigEndian.PutUint32(want[11:15], uint32(v-frameOverhead))
	got := t[n:]
	for i := 0; i < len(got) && i < headerSize; i++ {
		if i == 9 || i == 10 {
			continue
		}
		if got[i] != want[i] {
			return false, fmt.Sprintf("byte %d of the cut frame header is 0x%02x where a cut write of seq %d would have 0x%02x", i, got[i], seq, want[i])
		}
	}
	return true, ""
}

// ckptRef remembers a checkpoint record for the side-file comparison.
type ckptRef struct {
	seq   uint64
	frame []byte
}

// scan is the verification of a whole log directory shared by Open and
// Verify. It never writes.
type scan struct {
	dir string
	pub ed25519.PublicKey // nil: signatures are not checked

	segs        []segFile
	lastSeq     uint64
	lastHash    [32]byte
	lastSegSize int64 // bytes of the last segment that are kept (excludes a torn tail)
	checkpoints int
	recent      [2]ckptRef // [0] is the last checkpoint record, [1] the one before
	torn        *tornAt

	// sideRepair is set when the side file lags the log's last checkpoint
	// by exactly the crash window between the two writes; Open rewrites it.
	sideRepair []byte

	faults []*Fault
	fatal  bool // the chain could not be followed further

	// Commit marks: how many, the last few (newest last; none in a log
	// written before marks, whose tail is taken as it is), and what settle
	// found after the last one that verifies.
	markCount int
	marks     []markRef
	scanned   uint64 // records whose frame and chain link held, the unvouched included
	unvouched *cutAt

	// Walk: fn sees the records in the scan's own pass, each once no
	// signature checked later can leave it out of what Open keeps (see
	// walked); fnErr is its first error, after which it is not called.
	fn      func(Record) error
	fnErr   error
	async   *pipe    // fn runs on a goroutine of its own (Walk)
	pending []Record // held back from fn: pending[held:]
	held    int
	scratch []byte // the chain hash's input, reused

	// skip is where the next scanSegment starts in its buffer: past the
	// records before a tail (OpenTail), 0 otherwise; base is where the
	// buffer starts in its segment file (OpenTail reads only the tail).
	skip int
	base int64
}

// markRef is a commit mark seen in the scan, with where its entry ends.
type markRef struct {
	seq     uint64   // the mark's own record
	covSeq  uint64   // the head it signs
	covHash [32]byte //
	hash    [32]byte // the chain hash after the mark
	sig     []byte
	segment string
	end     int64
}

// marksKept bounds the marks a scan remembers: start-up verifies the last
// one, and goes back only past marks whose signature fails.
const marksKept = 16

// cutAt is an unvouched tail: the records after the last mark whose
// signature holds.
type cutAt struct {
	first, last uint64
	segment     string // where the last good mark's entry ends
	offset      int64
	tornBytes   int64 // a torn entry after the tail, cut with it
}

func (s *scan) fault(f *Fault, fatal bool) {
	s.faults = append(s.faults, f)
	if fatal {
		s.fatal = true
	}
}

// scanDir verifies every segment and the side file. firstOnly stops at the
// first fault (Open); otherwise it keeps going where the chain still can
// (Verify). fn, when not nil, is given the records Open would keep, in the
// same pass (Walk); alongside runs it on a goroutine of its own
// (WalkAlongside). err is an I/O failure that says nothing about the log's
// content.
func scanDir(dir string, pub ed25519.PublicKey, firstOnly bool, fn func(Record) error, alongside bool) (*scan, error) {
	s := &scan{dir: dir, pub: pub, lastHash: genesis, fn: fn}
	if fn != nil && alongside {
		s.async = startPipe(fn)
		defer func() { s.fnErr = s.async.stop() }()
	}
	segs, foreign, err := listSegments(dir)
	if err != nil {
		return nil, err
	}
	s.segs = segs
	for _, name := range foreign {
		what := "tidwall/wal truncation file present; walog never writes one, and tidwall/wal would delete segments because of it"
		if strings.HasPrefix(name, archiveDir+"/") {
			what = "segment file both in the archive and in the log; walog moves a segment, never copies it"
		}
		s.fault(&Fault{Segment: name, Offset: -1, What: what}, false)
	}
	if firstOnly && len(s.faults) > 0 {
		return s, nil
	}
	// One buffer for every segment, as large as the largest (what outlives
	// a segment is copied out of it).
	var size int64
	for _, seg := range segs {
		if st, err := os.Stat(filepath.Join(dir, seg.name)); err == nil {
			size = max(size, st.Size())
		}
	}
	var buf []byte
	for i, seg := range segs {
		last := i == len(segs)-1
		if seg.index != s.lastSeq+1 {
			what := fmt.Sprintf("segment starts at seq %d but the log before it ends at seq %d", seg.index, s.lastSeq)
			if seg.index > s.lastSeq+1 {
				what = fmt.Sprintf("records %d to %d are missing (segment file absent)", s.lastSeq+1, seg.index-1)
			}
			s.fault(&Fault{Seq: s.lastSeq + 1, Segment: seg.name, Offset: -1, What: what}, true)
			return s, nil
		}
		for j := s.held; j < len(s.pending); j++ {
			s.pending[j].Data = bytes.Clone(s.pending[j].Data)
		}
		if s.async != nil {
			// fn's goroutine may still read the segment before: the
			// buffer is one it is done with.
			buf = s.async.buffer(size)
		} else if buf == nil {
			buf = make([]byte, 0, size)
		}
		read, err := readSegment(filepath.Join(dir, seg.name), buf)
		if errors.Is(err, fs.ErrNotExist) && !seg.archived() {
			// Moved to the archive since the listing (see listSegments).
			seg.name = archiveDir + "/" + seg.name
			segs[i].name = seg.name
			read, err = readSegment(filepath.Join(dir, seg.name), buf)
		}
		if err != nil {
			return nil, err
		}
		buf = read
		ok := s.scanSegment(seg.name, buf, last, firstOnly)
		if s.async != nil {
			s.async.done(buf)
		}
		if !ok {
			return s, nil
		}
	}
	if s.fatal || (firstOnly && len(s.faults) > 0) {
		return s, nil
	}
	s.settle()
	if firstOnly && len(s.faults) > 0 {
		return s, nil
	}
	if err := s.checkSide(); err != nil {
		return nil, err
	}
	if len(s.faults) == 0 {
		s.release(s.lastSeq) // the last mark that verifies, after settle
	}
	return s, nil
}

// readSegment reads a segment file whole, into buf when it is large
// enough.
func readSegment(path string, buf []byte) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return nil, err
	}
	if int64(cap(buf)) < st.Size() {
		buf = make([]byte, st.Size())
	}
	buf = buf[:st.Size()]
	n, err := io.ReadFull(f, buf)
	if err == io.ErrUnexpectedEOF {
		err = nil // the file shrank since Stat: what is there is the segment
	}
	return buf[:n], err
}

// chain is chainHash without an allocation: prev and body are hashed as
// one buffer, reused from record to record.
func (s *scan) chain(prev [32]byte, body []byte) [32]byte {
	s.scratch = append(append(s.scratch[:0], prev[:]...), body...)
	return blake2b.Sum256(s.scratch)
}

// walked hands a record whose frame and chain link held to fn, or holds it
// back. Open keeps the records up to the last mark whose signature holds
// among the last marksKept (settle), and refuses the log when none does:
// so a record is certain to be kept (or the log refused as a whole) once
// it precedes a mark that has left the ring of the last marksKept, or
// when no mark has come yet (a mark to come vouches for it with the rest,
// and a log without any is kept whole). The records held back meanwhile
// are the last marksKept commits at most, and an unvouched tail.
func (s *scan) walked(r Record) {
	if s.fn == nil || s.fnErr != nil || len(s.faults) > 0 {
		return // a log Open refuses is not folded
	}
	if s.markCount == 0 {
		s.call(r)
		return
	}
	s.pending = append(s.pending, r)
}

// call hands fn a record: at once, or in a batch to fn's goroutine.
func (s *scan) call(r Record) {
	if s.async == nil {
		s.fnErr = s.fn(r)
		return
	}
	s.async.add(r)
}

// release hands fn the records held back up to seq.
func (s *scan) release(seq uint64) {
	i := s.held
	for ; i < len(s.pending) && s.pending[i].Seq <= seq; i++ {
		if s.fnErr == nil && len(s.faults) == 0 {
			s.call(s.pending[i])
		}
	}
	s.held = i
	if s.held == len(s.pending) || s.held >= 4*marksKept && 2*s.held >= len(s.pending) {
		n := copy(s.pending, s.pending[s.held:])
		clear(s.pending[n:])
		s.pending, s.held = s.pending[:n], 0
	}
}

// scanSegment follows the chain through one segment. It returns false when
// scanning must stop.
func (s *scan) scanSegment(name string, buf []byte, last, firstOnly bool) bool {
	pos, base := s.skip, s.base
	s.skip, s.base = 0, 0
	for pos < len(buf) {
		seq := s.lastSeq + 1
		v, n := binary.Uvarint(buf[pos:])
		if n <= 0 || n != uvarintLen(v) || v > uint64(len(buf)-pos-n) {
			ok, why := tornPrefix(buf[pos:], seq)
			if ok && last {
				s.torn = &tornAt{segment: name, offset: base + int64(pos), length: int64(len(buf) - pos), afterSeq: s.lastSeq}
				s.lastSegSize = base + int64(pos)
				return true
			}
			if ok {
				why = "segment ends inside a record, and it is not the last segment"
			}
			s.fault(&Fault{Seq: seq, Segment: name, Offset: base + int64(pos), What: "record entry damaged: " + why}, true)
			return false
		}
		raw := buf[pos+n : pos+n+int(v)]
		f, err := decodeFrame(raw)
		if err != nil {
			s.fault(&Fault{Seq: seq, Segment: name, Offset: base + int64(pos), What: "record damaged: " + err.Error()}, true)
			return false
		}
		if f.seq != seq {
			s.fault(&Fault{Seq: seq, Segment: name, Offset: base + int64(pos), What: fmt.Sprintf("record carries seq %d where seq %d belongs", f.seq, seq)}, true)
			return false
		}
		if s.chain(s.lastHash, frameBody(raw)) != f.hash {
			s.fault(&Fault{Seq: seq, Segment: name, Offset: base + int64(pos), What: "chain hash does not follow from the previous record"}, true)
			return false
		}
		if f.typ == TypeCheckpoint {
			if err := checkCheckpoint(f, s.lastSeq, s.lastHash, s.pub); err != nil {
				// The chain itself is intact, so Verify can go on and find
				// every bad checkpoint.
				s.fault(&Fault{Seq: seq, Segment: name, Offset: base + int64(pos), What: err.Error()}, false)
				if firstOnly {
					return false
				}
			}
			s.checkpoints++
			s.recent[1] = s.recent[0]
			s.recent[0] = ckptRef{seq: seq, frame: bytes.Clone(raw)} // buf is reused
		}
		var left uint64 // a mark that left the ring of the last marksKept
		if f.typ == TypeMark {
			s.markCount++
			if len(s.marks) == marksKept {
				left = s.marks[0].seq
				s.marks = append(s.marks[:0], s.marks[1:]...)
			}
			s.marks = append(s.marks, markRef{seq: seq, covSeq: s.lastSeq, covHash: s.lastHash, hash: f.hash,
				sig: bytes.Clone(f.data), segment: name, end: base + int64(pos+n+int(v))})
		}
		if s.fn != nil {
			s.walked(Record{Seq: seq, Type: f.typ, Data: f.data[:len(f.data):len(f.data)], Hash: f.hash})
			if left != 0 {
				s.release(left)
			}
		}
		s.lastSeq = seq
		s.scanned = seq
		s.lastHash = f.hash
		pos += n + int(v)
	}
	s.lastSegSize = base + int64(len(buf))
	return true
}

// checkSide compares the side checkpoint file with the log. Its job is to
// catch a log cut back by whole records, which leaves no damaged bytes.
func (s *scan) checkSide() error {
	raw, _, err := readSide(s.dir)
	if errors.Is(err, fs.ErrNotExist) {
		// Only the first checkpoint can lack its side file: the side file
		// is written after the record, created whole, and its slots
		// written in place after that (side.go).
		switch {
		case s.checkpoints == 1:
			s.sideRepair = s.recent[0].frame
		case s.checkpoints > 1:
			s.fault(&Fault{Seq: s.recent[0].seq, Segment: sideFile, Offset: -1, What: fmt.Sprintf("checkpoint file is missing but the log holds %d checkpoints", s.checkpoints)}, false)
		}
		return nil
	}
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return err
	}
	var f frame
	if err == nil {
		f, err = decodeFrame(raw)
	}
	if err != nil {
		s.fault(&Fault{Segment: sideFile, Offset: 0, What: "checkpoint file damaged: " + err.Error()}, false)
		return nil
	}
	if f.typ != TypeCheckpoint {
		s.fault(&Fault{Seq: f.seq, Segment: sideFile, Offset: 0, What: fmt.Sprintf("checkpoint file holds a record of type %d", f.typ)}, false)
		return nil
	}
	c, err := parseCheckpointData(f.data)
	if err != nil {
		s.fault(&Fault{Seq: f.seq, Segment: sideFile, Offset: 0, What: "checkpoint file damaged: " + err.Error()}, false)
		return nil
	}
	if s.pub != nil && !ed25519.Verify(s.pub, checkpointMessage(c.seq, c.hash), c.sig) {
		s.fault(&Fault{Seq: f.seq, Segment: sideFile, Offset: 0, What: fmt.Sprintf("checkpoint file signature over seq %d does not verify with the machine key", c.seq)}, false)
		return nil
	}
	switch {
	case f.seq > s.lastSeq:
		s.fault(&Fault{Seq: f.seq, Segment: sideFile, Offset: -1, What: fmt.Sprintf("log ends before the signed checkpoint at seq %d (log ends at seq %d)", f.seq, s.lastSeq)}, false)
	case f.seq == s.recent[0].seq:
		if !bytes.Equal(raw, s.recent[0].frame) {
			s.fault(&Fault{Seq: f.seq, Segment: sideFile, Offset: -1, What: fmt.Sprintf("checkpoint file differs from checkpoint record %d in the log", f.seq)}, false)
		}
	case f.seq == s.recent[1].seq && s.recent[1].seq != 0:
		if !bytes.Equal(raw, s.recent[1].frame) {
			s.fault(&Fault{Seq: f.seq, Segment: sideFile, Offset: -1, What: fmt.Sprintf("checkpoint file differs from checkpoint record %d in the log", f.seq)}, false)
			return nil
		}
		// A crash came between the last checkpoint record and its side file.
		s.sideRepair = s.recent[0].frame
	default:
		s.fault(&Fault{Seq: f.seq, Segment: sideFile, Offset: -1, What: fmt.Sprintf("checkpoint file names seq %d, which is not one of the log's last two checkpoints (last at seq %d)", f.seq, s.recent[0].seq)}, false)
	}
	return nil
}

// settle ends the log at its last mark whose signature holds: the records
// after it are vouched for by no one (a commit cut by a power loss, never
// acknowledged, or records written without the key). A log without any
// mark was written before marks existed and is taken as it is.
func (s *scan) settle() {
	if len(s.marks) == 0 {
		return
	}
	good := -1
	for i := len(s.marks) - 1; i >= 0; i-- {
		m := s.marks[i]
		if checkMark(m.sig, m.covSeq, m.covHash, s.pub) {
			good = i
			break
		}
	}
	if good < 0 {
		last := s.marks[len(s.marks)-1].seq
		s.fault(&Fault{Seq: last, Offset: -1,
			What: fmt.Sprintf("the last commit mark (record %d) does not verify with the machine key, nor do the %d before it: the log was written without the board", last, len(s.marks)-1)}, false)
		return
	}
	m := s.marks[good]
	s.markCount -= len(s.marks) - good - 1
	s.marks = s.marks[:good+1]
	if m.seq == s.lastSeq {
		return
	}
	s.unvouched = &cutAt{first: m.seq + 1, last: s.lastSeq, segment: m.segment, offset: m.end}
	if s.torn != nil {
		s.unvouched.tornBytes = s.torn.length // cut with the tail
	}
	s.lastSeq, s.lastHash = m.seq, m.hash
	for len(s.segs) > 0 && s.segs[len(s.segs)-1].name != m.segment {
		s.segs = s.segs[:len(s.segs)-1]
	}
	s.lastSegSize = m.end
	for s.recent[0].seq > m.seq {
		s.recent[0], s.recent[1] = s.recent[1], ckptRef{}
		s.checkpoints--
	}
}

// detail says what the unvouched tail is, for the event log and the
// inspector.
func (c *cutAt) detail() string {
	d := fmt.Sprintf("records %d to %d (%d) after the last commit mark are vouched for by no signature of the machine key", c.first, c.last, c.last-c.first+1)
	if c.last-c.first+1 > MaxBatch {
		d += fmt.Sprintf(": more than one commit holds (%d), so no power loss left them", MaxBatch)
	} else {
		d += ": a commit cut short by a power loss (never acknowledged), or records written without the board"
	}
	if c.tornBytes > 0 {
		d += fmt.Sprintf(", followed by a torn entry of %d bytes", c.tornBytes)
	}
	return d
}

// pipe runs Walk's fn on a goroutine of its own, so that folding the
// records takes the time of reading and hashing them, not its own on top:
// the scan sends the records in batches, each segment's followed by its
// buffer, which fn's goroutine hands back when it is past it (two buffers
// take turns). fn sees the records in order; after its first error it is
// not called again.
type pipe struct {
	fn      func(Record) error
	batches chan pipeBatch
	spare   chan []Record
	free    chan []byte
	bufs    int
	batch   []Record
	err     error
	end     chan struct{}
}

type pipeBatch struct {
	recs []Record
	buf  []byte // a segment buffer fn's goroutine is done with after recs
}

const pipeBatchSize = 256

func startPipe(fn func(Record) error) *pipe {
	p := &pipe{fn: fn, batches: make(chan pipeBatch, 8), spare: make(chan []Record, 10), free: make(chan []byte, 2), end: make(chan struct{})}
	go func() {
		defer close(p.end)
		for b := range p.batches {
			for _, r := range b.recs {
				if p.err == nil {
					p.err = p.fn(r)
				}
			}
			if b.recs != nil {
				select {
				case p.spare <- b.recs[:0]:
				default:
				}
			}
			if b.buf != nil {
				p.free <- b.buf
			}
		}
	}()
	return p
}

func (p *pipe) add(r Record) {
	if p.batch == nil {
		select {
		case p.batch = <-p.spare:
		default:
			p.batch = make([]Record, 0, pipeBatchSize)
		}
	}
	p.batch = append(p.batch, r)
	if len(p.batch) == pipeBatchSize {
		p.batches <- pipeBatch{recs: p.batch}
		p.batch = nil
	}
}

// buffer is a segment buffer for the scan: a new one while there are
// fewer than two, else the one fn's goroutine handed back.
func (p *pipe) buffer(size int64) []byte {
	if p.bufs < 2 {
		p.bufs++
		return make([]byte, 0, size)
	}
	return <-p.free
}

// done sends the records of a segment not sent yet, and its buffer.
func (p *pipe) done(buf []byte) {
	p.batches <- pipeBatch{recs: p.batch, buf: buf}
	p.batch = nil
}

// stop sends what is left, waits for fn's goroutine and returns fn's
// first error.
func (p *pipe) stop() error {
	if len(p.batch) > 0 {
		p.batches <- pipeBatch{recs: p.batch}
		p.batch = nil
	}
	close(p.batches)
	<-p.end
	return p.err
}
