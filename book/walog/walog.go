// Package walog is the durable, tamper-evident log under every ledger of the
// book framework (the meters, the link controller's and the table server's).
//
// It stores records in github.com/tidwall/wal, which gives segment files and
// fsync per write but nothing that money needs beyond that. walog adds:
//
//   - a frame around every record with its own CRC32C, so damage is found
//     and named by seq instead of being read back as data;
//   - a BLAKE2b-256 hash chain through all records, so a record cannot be
//     changed, removed or reordered without breaking every later hash;
//   - Ed25519-signed checkpoints in the log and in a side file, so cutting
//     whole records off the end is found as well;
//   - repair of a torn last record before tidwall/wal sees it (tidwall/wal
//     refuses such a log altogether), and a permanent fault instead of a
//     retry after a failed write (tidwall/wal's memory no longer matches its
//     file then);
//   - directory fsyncs when a segment file is created.
//
// What is torn and what is a fault: only an incomplete last entry of the last
// segment, whose bytes are a prefix of what the next record's entry would
// be, is a torn write; Open cuts it off and says so in OpenInfo. A complete
// entry that fails any check is damage to something that may have been
// acknowledged, even when it is the last one, and so is a zero-filled tail
// (tidwall/wal would read it as empty entries): Open returns a *Fault and the
// machine does not play until a technician acts. Bytes inside the announced
// length of an incomplete last entry are not judged: the entry was never
// acknowledged and goes whole.
//
// Checkpoints are written after every CheckpointEvery records, inside the
// Append that completes the count, so that the seq of the next record is
// always LastSeq()+1; and in Close. The side file "checkpoint" holds a copy
// of the last checkpoint record's frame, written after the record (for a
// commit, once its write is durable and before it is answered; see
// writeSideLocked), in the older of its two slots (side.go).
//
// Commits that come while a write is under way share the next one: one
// write, one fsync and one mark for all of them (group commit, see Batch).
//
// The directory also holds "lock" (flock, one writer at a time), "archive"
// (the segments before the older sealed snapshot, see archive.go) and, for
// a moment when the side file is created whole, its temporary file;
// tidwall/wal ignores names shorter than 20.
package walog

import (
	"bytes"
	"crypto"
	"crypto/ed25519"
	"errors"
	"fmt"
	"github.com/openegm/cabinet/internal/atomicfile"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"syscall"

	"github.com/tidwall/wal"
)

// Record is one entry of the log.
type Record struct {
	Seq  uint64 // 1-based, consecutive
	Type uint16 // meaning defined by the caller; walog reserves TypeCheckpoint
	Data []byte
	Hash [32]byte // chain hash after this record
}

// Options configure Open.
type Options struct {
	// Signer signs checkpoints (an Ed25519 key: in memory, or held by a
	// board's secure element behind crypto.Signer); nil = no checkpoints
	// written.
	Signer          crypto.Signer
	CheckpointEvery uint64 // records between signed checkpoints; 0 = 1000
	SegmentSize     int    // bytes per segment file; 0 = tidwall default
	// UnsafeNoSync skips every fsync. Benchmarks use it to build large
	// fixture logs quickly; the cabinet and the link controller never set
	// it, since an acknowledged record could then be lost.
	UnsafeNoSync bool
	// Marks: every Append is a commit ending with a signed mark (Commit),
	// and Close writes one after its checkpoint. The ledgers set it; a log
	// without marks is one written before they existed.
	Marks bool
	// Verifier checks the marks' and checkpoints' signatures when there is
	// no Signer (a read-only copy opened to fold it).
	Verifier ed25519.PublicKey
}

// Unvouched is a tail of records that no commit mark covers, cut at Open.
type Unvouched struct {
	First, Last uint64
	// Evidence is the file in the log directory that keeps the bytes cut.
	Evidence string
	// NoPowerLoss: the tail holds more records than one commit can, so it
	// was not left by a power loss.
	NoPowerLoss bool
	Detail      string
}

// OpenInfo tells the caller what Open found and did.
type OpenInfo struct {
	Repaired     bool
	RepairDetail string
	LastSeq      uint64
	LastHash     [32]byte
	Unvouched    *Unvouched // nil: every record is vouched for (or the log has no marks)
}

// Fault is damage to the log, or a failed write that leaves the log unfit
// for more writes. It is permanent for the Log that reports it.
type Fault struct {
	Seq     uint64 // record concerned; 0 if none
	Segment string // file in the log directory; "" if none
	Offset  int64  // byte offset in Segment; -1 if not known
	What    string
}

func (f *Fault) Error() string {
	var where []string
	if f.Seq != 0 {
		where = append(where, fmt.Sprintf("record seq %d", f.Seq))
	}
	if f.Segment != "" {
		if f.Offset >= 0 {
			where = append(where, fmt.Sprintf("file %s offset %d", f.Segment, f.Offset))
		} else {
			where = append(where, "file "+f.Segment)
		}
	}
	msg := "meter fault: " + f.What
	if len(where) > 0 {
		msg += " (" + strings.Join(where, ", ") + ")"
	}
	return msg
}

var (
	// ErrClosed is returned by a Log after Close.
	ErrClosed = errors.New("walog: log closed")
	// ErrNotFound is returned for a seq the log does not hold.
	ErrNotFound = errors.New("walog: no such record")
)

// Log is an open log. Its methods are safe for concurrent use.
type Log struct {
	mu   sync.Mutex
	dir  string
	w    *wal.Log
	lock *os.File

	signer    crypto.Signer
	every     uint64
	marks     bool      // Options.Marks
	lastMarks [2]uint64 // the last mark and the one before it

	// Where tidwall/wal writes next, mirrored so that walog knows when it
	// created a segment file and must fsync the directory.
	segLimit  int
	segIndex  uint64
	segSize   int64
	segStarts []uint64 // first seq of every segment, to name files in faults

	// mainFirst is the first record of the segments in dir itself, which
	// tidwall/wal reads; the records before it are in the archive.
	mainFirst uint64
	archive   archive

	// The durable head: what Read, Scan and LastSeq see.
	lastSeq  uint64
	lastHash [32]byte
	// The head with the commits not yet durable: where the next commit
	// chains on (group commit, see Batch).
	tailSeq  uint64
	tailHash [32]byte
	// Records after the last checkpoint record, those not yet durable
	// included.
	sinceCkpt uint64

	open    *group     // commits gathered for the next write; nil: none
	queue   []*group   // closed groups waiting for the next write
	writing bool       // a group's write is under way, outside mu
	shared  bool       // the last write carried more than one commit
	cond    *sync.Cond // on mu: a write ended

	wb wal.Batch // the write's, reused (see write)

	side sideWriter // the side file's slots, written in place

	// failWrite, set by tests, fails a write (after doing to the files
	// what it likes) before tidwall/wal sees it.
	failWrite func(raws [][]byte) error

	fault  *Fault
	closed bool
	noSync bool // Options.UnsafeNoSync: fixtures only
}

// Open verifies the whole log in dir, creating dir if missing, repairs a
// torn last record, and opens the log for appending. A damaged log gives a
// *Fault and no Log.
//
// With a Signer, checkpoint signatures are verified with its public key;
// without one they cannot be, and only their place in the chain is checked.
func Open(dir string, opts Options) (*Log, OpenInfo, error) {
	every := opts.CheckpointEvery
	if every == 0 {
		every = 1000
	}
	segLimit := opts.SegmentSize
	if segLimit <= 0 {
		segLimit = wal.DefaultOptions.SegmentSize
	}
	pub := opts.Verifier
	if opts.Signer != nil {
		var ok bool
		if pub, ok = opts.Signer.Public().(ed25519.PublicKey); !ok || len(pub) != ed25519.PublicKeySize {
			return nil, OpenInfo{}, fmt.Errorf("walog: open %s: the signer's key is not an Ed25519 key", dir)
		}
	}
	if err := makeDir(dir); err != nil {
		return nil, OpenInfo{}, fmt.Errorf("walog: open %s: %w", dir, err)
	}
	lock, err := lockDir(dir)
	if err != nil {
		return nil, OpenInfo{}, err
	}
	l, info, err := open(dir, opts.Signer, pub, every, segLimit, opts.UnsafeNoSync)
	if err != nil {
		lock.Close()
		return nil, OpenInfo{}, err
	}
	l.lock = lock
	l.marks = opts.Marks
	return l, info, nil
}

func open(dir string, signer crypto.Signer, pub ed25519.PublicKey, every uint64, segLimit int, noSync bool) (*Log, OpenInfo, error) {
	// A crash while replacing the side file leaves its temp file; the side
	// file itself is still whole.
	if err := atomicfile.RemoveStale(filepath.Join(dir, sideFile)); err != nil {
		return nil, OpenInfo{}, fmt.Errorf("walog: open %s: %w", dir, err)
	}
	s, err := scanDir(dir, pub, true, nil, false)
	if err != nil {
		return nil, OpenInfo{}, fmt.Errorf("walog: open %s: %w", dir, err)
	}
	if len(s.faults) > 0 {
		return nil, OpenInfo{}, s.faults[0]
	}
	return finish(dir, s, signer, every, segLimit, noSync, nil)
}

// walOptions are tidwall/wal's options for a log of walog's.
func walOptions(segLimit int, noSync bool) *wal.Options {
	return &wal.Options{SegmentSize: segLimit, SegmentCacheSize: 2, NoCopy: true, NoSync: noSync}
}

// finish repairs what a scan found (an unvouched or torn tail, a side file
// behind) and opens the log for appending after it; w, when not nil, is
// tidwall/wal's log opened already (OpenTail, when nothing is repaired).
func finish(dir string, s *scan, signer crypto.Signer, every uint64, segLimit int, noSync bool, w *wal.Log) (*Log, OpenInfo, error) {
	var details []string
	var unvouched *Unvouched
	if c := s.unvouched; c != nil {
		evidence, err := cutUnvouched(dir, s, c)
		if err != nil {
			return nil, OpenInfo{}, fmt.Errorf("walog: open %s: cutting the unvouched %s: %w", dir, c.detail(), err)
		}
		unvouched = &Unvouched{First: c.first, Last: c.last, Evidence: evidence, NoPowerLoss: c.last-c.first+1 > MaxBatch, Detail: c.detail()}
		details = append(details, c.detail()+"; cut, kept in "+evidence)
	}
	if s.torn != nil && unvouched == nil {
		if err := cutSegment(dir, s.torn); err != nil {
			return nil, OpenInfo{}, fmt.Errorf("walog: open %s: repairing %s: %w", dir, s.torn.detail(), err)
		}
		details = append(details, s.torn.detail())
	}
	if s.sideRepair != nil {
		if err := writeSideWhole(dir, s.sideRepair); err != nil {
			return nil, OpenInfo{}, fmt.Errorf("walog: open %s: rewriting checkpoint file: %w", dir, err)
		}
		details = append(details, fmt.Sprintf("checkpoint file brought up to the checkpoint record at seq %d", s.recent[0].seq))
	}

	if w == nil {
		var err error
		if err = unarchiveTail(dir, s.segs); err != nil {
			return nil, OpenInfo{}, fmt.Errorf("walog: open %s: %w", dir, err)
		}
		if w, err = wal.Open(dir, walOptions(segLimit, noSync)); err != nil {
			return nil, OpenInfo{}, fmt.Errorf("walog: open %s: tidwall/wal: %w", dir, err)
		}
	}
	// wal.Open creates the first segment of a new log without syncing the
	// directory (and creates nothing in a log that has one).
	if len(s.segs) == 0 {
		if err := syncDir(dir); err != nil {
			w.Close()
			return nil, OpenInfo{}, fmt.Errorf("walog: open %s: %w", dir, err)
		}
	}
	if last, err := w.LastIndex(); err != nil || last != s.lastSeq {
		w.Close()
		return nil, OpenInfo{}, fmt.Errorf("walog: open %s: tidwall/wal sees %d records (%v) where walog verified %d", dir, last, err, s.lastSeq)
	}

	l := &Log{
		dir:       dir,
		w:         w,
		side:      sideWriter{dir: dir},
		signer:    signer,
		every:     every,
		segLimit:  segLimit,
		noSync:    noSync,
		segIndex:  1,
		lastSeq:   s.lastSeq,
		lastHash:  s.lastHash,
		tailSeq:   s.lastSeq,
		tailHash:  s.lastHash,
		sinceCkpt: s.lastSeq - s.recent[0].seq,
	}
	l.cond = sync.NewCond(&l.mu)
	if n := len(s.marks); n > 0 {
		l.lastMarks[0] = s.marks[n-1].seq
		if n > 1 {
			l.lastMarks[1] = s.marks[n-2].seq
		}
	}
	l.mainFirst = 1
	for i, seg := range s.segs {
		l.segStarts = append(l.segStarts, seg.index)
		if !seg.archived() && (i == 0 || s.segs[i-1].archived()) {
			l.mainFirst = seg.index
		}
	}
	if len(s.segs) > 0 {
		l.segIndex = s.segs[len(s.segs)-1].index
		l.segSize = s.lastSegSize
	} else {
		l.segStarts = []uint64{1}
	}
	info := OpenInfo{
		Repaired:     len(details) > 0,
		RepairDetail: strings.Join(details, "; "),
		LastSeq:      l.lastSeq,
		LastHash:     l.lastHash,
		Unvouched:    unvouched,
	}
	return l, info, nil
}

// Append writes one record and returns when it is durable: the segment is
// fsynced, and the directory too when tidwall/wal created a segment file.
//
// Any write or sync failure faults the Log for good: this Append and every
// later one return the same *Fault, and the caller must reopen. A record
// whose Append failed may or may not be in the reopened log.
//
// When a checkpoint falls due after this record and writing it fails, the
// record itself is durable: Append then returns it (Seq != 0) together with
// the *Fault.
func (l *Log) Append(typ uint16, data []byte) (Record, error) {
	if typ == TypeCheckpoint {
		return Record{}, fmt.Errorf("walog: record type 0x%04X is reserved for checkpoints", typ)
	}
	if len(data) > MaxData {
		return Record{}, fmt.Errorf("walog: record of %d bytes is above the %d-byte limit", len(data), MaxData)
	}
	if l.marks {
		b, err := l.Begin()
		if err != nil {
			return Record{}, err
		}
		if _, err := b.Add(typ, data); err != nil {
			b.Abort()
			return Record{}, err
		}
		recs, err := b.Commit()
		if len(recs) == 0 {
			return Record{}, err
		}
		return recs[0], err
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	l.waitIdle() // a log without marks may still be given commits
	if l.closed {
		return Record{}, ErrClosed
	}
	if l.fault != nil {
		return Record{}, l.fault
	}
	rec, _, err := l.appendLocked(typ, data)
	if err != nil {
		return Record{}, err
	}
	l.sinceCkpt++
	if l.signer != nil && l.sinceCkpt >= l.every {
		if err := l.checkpointLocked(); err != nil {
			return rec, err
		}
	}
	return rec, nil
}

func (l *Log) appendLocked(typ uint16, data []byte) (Record, []byte, error) {
	seq := l.lastSeq + 1
	raw, hash := encodeRecord(l.lastHash, seq, typ, data)
	if err := l.writeBatch([][]byte{raw}, hash); err != nil {
		return Record{}, nil, err
	}
	return Record{Seq: seq, Type: typ, Data: raw[headerSize : headerSize+len(data) : headerSize+len(data)], Hash: hash}, raw, nil
}

// checkpointLocked signs the current chain head, appends the checkpoint
// record and then replaces the side file, in that order, so the side file
// never names a record that is not durable.
func (l *Log) checkpointLocked() error {
	data, err := makeCheckpointData(l.signer, l.lastSeq, l.lastHash)
	if err != nil {
		return l.setFault(&Fault{Seq: l.lastSeq + 1, Segment: sideFile, Offset: -1, What: "signing a checkpoint failed: " + err.Error()})
	}
	rec, raw, err := l.appendLocked(TypeCheckpoint, data)
	if err != nil {
		return err
	}
	if err := l.side.write(raw, l.noSync); err != nil {
		return l.setFault(&Fault{Seq: rec.Seq, Segment: sideFile, Offset: -1, What: "writing the checkpoint file failed: " + err.Error()})
	}
	l.sinceCkpt = 0
	return nil
}

func (l *Log) setFault(f *Fault) *Fault {
	if l.fault == nil {
		l.fault = f
	}
	return l.fault
}

// Read returns record seq after checking its frame and its link to the
// record before it.
func (l *Log) Read(seq uint64) (Record, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.closed {
		return Record{}, ErrClosed
	}
	if seq == 0 || seq > l.lastSeq {
		return Record{}, fmt.Errorf("walog: read seq %d (log holds 1 to %d): %w", seq, l.lastSeq, ErrNotFound)
	}
	prev := genesis
	if seq > 1 {
		f, _, err := l.readFrame(seq - 1)
		if err != nil {
			return Record{}, err
		}
		prev = f.hash
	}
	return l.readRecord(seq, prev)
}

// Scan calls fn for every record from seq from to the last record at the
// time of the call, checking every frame and every chain link on the way.
// It stops at the first error, fn's included, and returns it unchanged.
// Checkpoint records are passed to fn like all others.
func (l *Log) Scan(from uint64, fn func(Record) error) error {
	if from == 0 {
		return fmt.Errorf("walog: scan from seq 0: seqs start at 1: %w", ErrNotFound)
	}
	l.mu.Lock()
	if l.closed {
		l.mu.Unlock()
		return ErrClosed
	}
	last := l.lastSeq
	if from > last+1 {
		l.mu.Unlock()
		return fmt.Errorf("walog: scan from seq %d (log holds 1 to %d): %w", from, last, ErrNotFound)
	}
	prev := genesis
	if from > 1 {
		f, _, err := l.readFrame(from - 1)
		if err != nil {
			l.mu.Unlock()
			return err
		}
		prev = f.hash
	}
	l.mu.Unlock()
	// The lock is taken per record so that fn may use the Log and appends
	// are not held up by a long scan.
	for seq := from; seq <= last; seq++ {
		l.mu.Lock()
		var rec Record
		err := ErrClosed
		if !l.closed {
			rec, err = l.readRecord(seq, prev)
		}
		l.mu.Unlock()
		if err != nil {
			return err
		}
		prev = rec.Hash
		if err := fn(rec); err != nil {
			return err
		}
	}
	return nil
}

func (l *Log) readRecord(seq uint64, prev [32]byte) (Record, error) {
	f, raw, err := l.readFrame(seq)
	if err != nil {
		return Record{}, err
	}
	if chainHash(prev, frameBody(raw)) != f.hash {
		return Record{}, l.readFault(seq, "chain hash does not follow from the previous record")
	}
	// What this process wrote or verified last must still be there: this
	// catches a tail rewritten with a consistent chain while the log is open.
	if seq == l.lastSeq && f.hash != l.lastHash {
		return Record{}, l.readFault(seq, "last record's chain hash differs from the one the log ended with")
	}
	return Record{Seq: seq, Type: f.typ, Data: bytes.Clone(f.data), Hash: f.hash}, nil
}

// readFrame reads and decodes one frame. raw aliases tidwall/wal's buffer
// and is valid only while l.mu is held.
func (l *Log) readFrame(seq uint64) (frame, []byte, error) {
	raw, err := l.walRead(seq)
	if err != nil {
		return frame{}, nil, l.readFault(seq, "reading record failed: "+err.Error())
	}
	f, err := decodeFrame(raw)
	if err != nil {
		return frame{}, nil, l.readFault(seq, "record damaged: "+err.Error())
	}
	if f.seq != seq {
		return frame{}, nil, l.readFault(seq, fmt.Sprintf("record carries seq %d where seq %d belongs", f.seq, seq))
	}
	return f, raw, nil
}

// walRead guards against tidwall/wal indexing past a segment that was
// changed behind its back; it panics instead of returning an error then.
func (l *Log) walRead(seq uint64) (data []byte, err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("tidwall/wal failed: %v", r)
		}
	}()
	if seq < l.mainFirst {
		return l.archive.read(l.dir, seq)
	}
	return l.w.Read(seq)
}

// readFault makes damage found while reading permanent: a damaged
// committed record stops play (DESIGN rule 2).
func (l *Log) readFault(seq uint64, what string) *Fault {
	i := sort.Search(len(l.segStarts), func(i int) bool { return l.segStarts[i] > seq }) - 1
	seg := ""
	if i >= 0 {
		seg = segmentName(l.segStarts[i])
		if seq < l.mainFirst {
			seg = archiveDir + "/" + seg
		}
	}
	f := &Fault{Seq: seq, Segment: seg, Offset: -1, What: what}
	l.setFault(f)
	return f
}

// LastSeq returns the seq of the last record, 0 for an empty log.
func (l *Log) LastSeq() uint64 {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.lastSeq
}

// Head returns the last durable record's seq and the chain hash after it,
// read together (with group commit, a write may end between two calls of
// LastSeq and LastHash).
func (l *Log) Head() (uint64, [32]byte) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.lastSeq, l.lastHash
}

// LastHash returns the chain hash after the last record.
func (l *Log) LastHash() [32]byte {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.lastHash
}

// Fault returns the permanent fault of this Log, or nil.
func (l *Log) Fault() error {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.fault == nil {
		return nil
	}
	return l.fault
}

// Close writes a signed checkpoint when records were appended since the
// last one and closes the log. On a faulted Log nothing is written and the
// fault is returned.
func (l *Log) Close() error {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.closed {
		return ErrClosed
	}
	l.waitIdle() // the commits under way are answered first
	if l.closed {
		return ErrClosed
	}
	l.closed = true
	if l.fault == nil && l.signer != nil && l.sinceCkpt > 0 {
		if l.marks {
			// The last commit's mark vouches for the log; a log opened
			// from before marks gets its first one.
			if l.lastMarks[0] != l.lastSeq {
				_ = l.closingCommitLocked() // a failure is kept in l.fault
			}
		} else {
			_ = l.checkpointLocked() // a failure is kept in l.fault
		}
	}
	werr := l.w.Close()
	l.side.close()
	l.lock.Close()
	if l.fault != nil {
		return l.fault
	}
	if werr != nil {
		return fmt.Errorf("walog: close %s: %w", l.dir, werr)
	}
	return nil
}

// makeDir creates dir and makes its entry durable in every directory that
// gained one.
func makeDir(dir string) error {
	dir = filepath.Clean(dir)
	var missing []string
	for d := dir; ; d = filepath.Dir(d) {
		if _, err := os.Stat(d); err == nil {
			break
		} else if !errors.Is(err, fs.ErrNotExist) {
			return err
		}
		missing = append(missing, d)
		if filepath.Dir(d) == d {
			break
		}
	}
	if len(missing) == 0 {
		return nil
	}
	if err := os.MkdirAll(dir, 0o750); err != nil {
		return err
	}
	for _, d := range missing {
		if err := syncDir(filepath.Dir(d)); err != nil {
			return err
		}
	}
	return nil
}

// lockDir keeps a second writer, in this process or another, from
// interleaving records and breaking the chain.
func lockDir(dir string) (*os.File, error) {
	f, err := os.OpenFile(filepath.Join(dir, lockFile), os.O_CREATE|os.O_RDWR, 0o640)
	if err != nil {
		return nil, fmt.Errorf("walog: open %s: %w", dir, err)
	}
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
		f.Close()
		if errors.Is(err, syscall.EWOULDBLOCK) {
			return nil, fmt.Errorf("walog: open %s: the log is already open", dir)
		}
		return nil, fmt.Errorf("walog: open %s: locking: %w", dir, err)
	}
	return f, nil
}

func syncDir(dir string) error { return atomicfile.SyncDir(dir) }

// cutSegment removes a torn last entry.
func cutSegment(dir string, t *tornAt) error {
	f, err := os.OpenFile(filepath.Join(dir, t.segment), os.O_WRONLY, 0)
	if err != nil {
		return err
	}
	err = f.Truncate(t.offset)
	if err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return err
	}
	return syncDir(dir)
}
