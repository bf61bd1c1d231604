package walog

import (
	"crypto"
	"crypto/ed25519"
	"encoding/binary"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"sync"

	"github.com/openegm/cabinet/internal/atomicfile"
)

// TypeMark is the record type walog reserves for the board's word on a
// commit: a signature with the machine key over the chain head after the
// commit's last record. A commit is its records and its mark, written in one
// batch with one fsync, so every record a ledger acknowledged is followed by
// a mark, and a record that no mark covers was either cut from a commit by a
// power loss (never acknowledged) or written by someone without the key.
// Open cuts such records and names them; Verify refuses them.
//
// A mark signs the head, and the head's chain hash commits to every record
// before it: the last mark whose signature holds vouches for the whole log
// up to it, so start-up verifies one signature, not one per commit.
const TypeMark uint16 = 0xFFFD

const (
	markLabel = "openegm walog commit v1\x00"
	// MaxBatch bounds the records of one group of commits (see Batch),
	// their checkpoint and mark included: a tail of more records than this
	// without a mark cannot be a group cut short by a power loss.
	MaxBatch = 512
	// MaxCommit bounds the records one commit adds. A commit joins the
	// group being gathered only while the group has room for a commit of
	// this size, so a group never holds more than MaxBatch records.
	MaxCommit = 254
)

// markMessage is what a mark signs: the label keeps a checkpoint's or a
// seal's signature from passing as a mark.
func markMessage(seq uint64, hash [32]byte) []byte {
	m := make([]byte, 0, len(markLabel)+8+hashSize)
	m = append(m, markLabel...)
	m = binary.BigEndian.AppendUint64(m, seq)
	return append(m, hash[:]...)
}

func makeMark(key crypto.Signer, seq uint64, hash [32]byte) ([]byte, error) {
	sig, err := key.Sign(nil, markMessage(seq, hash), crypto.Hash(0))
	if err != nil {
		return nil, err
	}
	if len(sig) != ed25519.SignatureSize {
		return nil, fmt.Errorf("signature of %d bytes, not an Ed25519 one", len(sig))
	}
	return sig, nil
}

// checkMark checks a mark's payload against the head it follows; pub nil
// checks only its size.
func checkMark(data []byte, seq uint64, hash [32]byte, pub ed25519.PublicKey) bool {
	if len(data) != ed25519.SignatureSize {
		return false
	}
	return pub == nil || ed25519.Verify(pub, markMessage(seq, hash), data)
}

// Entry is one record of a commit.
type Entry struct {
	Type uint16
	Data []byte
}

// Batch is a commit being built: records added to it get their sequence
// numbers and chain hashes at once (a seal can then name them), and
// nothing is written before Commit. The log is locked from Begin to Commit
// or Abort.
//
// Group commit: commits that come while a write is under way are gathered
// into one group, and the next write carries the whole group with one
// checkpoint when one falls due and one signed mark after its last record,
// with one fsync. A commit's records follow the records of the commits
// gathered before it in the chain, exactly as a log written one commit at
// a time would hold them; only the marks are fewer (one per group). Each
// committer returns when its group is durable, or with the fault of its
// write; a group is all or nothing, since the mark that vouches for it is
// its last record.
type Batch struct {
	l       *Log
	raws    [][]byte
	recs    []Record
	types   []uint16
	seq     uint64
	hash    [32]byte
	user    int // records added by the caller
	settled bool
}

// groupYield: a group that gathered this many commits is written without
// first letting others join.
const groupYield = 64

// group is commits that share one write, one fsync and one mark.
type group struct {
	raws    [][]byte
	commits int        // the commits gathered in it
	first   uint64     // seq of raws[0]
	ckpt    int        // index of the checkpoint in raws; -1: none
	mark    uint64     // seq of the mark once closed
	head    [32]byte   // chain hash after the mark
	cond    *sync.Cond // on Log.mu: the group is settled, or may be written
	done    bool       // settled: durable, or failed
	durable bool
	err     error
}

// Begin starts a commit. The caller must end it with Commit or Abort.
func (l *Log) Begin() (*Batch, error) {
	l.mu.Lock()
	if l.closed {
		l.mu.Unlock()
		return nil, ErrClosed
	}
	if l.fault != nil {
		f := l.fault
		l.mu.Unlock()
		return nil, f
	}
	if g := l.open; g != nil && len(g.raws)+MaxCommit+2 > MaxBatch {
		// No room left for a commit of any size: the group is closed now
		// and the next write takes it; this commit starts the next one.
		if err := l.closeGroup(); err != nil {
			l.mu.Unlock()
			return nil, err
		}
	}
	return &Batch{l: l, seq: l.tailSeq, hash: l.tailHash}, nil
}

// Add appends a record to the commit and returns it as it will be once
// durable.
func (b *Batch) Add(typ uint16, data []byte) (Record, error) {
	if typ == TypeCheckpoint || typ == TypeMark {
		return Record{}, fmt.Errorf("walog: record type 0x%04X is reserved for the log", typ)
	}
	if len(data) > MaxData {
		return Record{}, fmt.Errorf("walog: record of %d bytes is above the %d-byte limit", len(data), MaxData)
	}
	if len(b.raws) >= MaxCommit {
		return Record{}, fmt.Errorf("walog: a commit holds at most %d records", MaxCommit)
	}
	rec := b.add(typ, data)
	b.user++
	return rec, nil
}

func (b *Batch) add(typ uint16, data []byte) Record {
	seq := b.seq + 1
	raw, hash := encodeRecord(b.hash, seq, typ, data)
	b.raws = append(b.raws, raw)
	b.types = append(b.types, typ)
	rec := Record{Seq: seq, Type: typ, Data: raw[headerSize : headerSize+len(data) : headerSize+len(data)], Hash: hash}
	b.recs = append(b.recs, rec)
	b.seq, b.hash = seq, hash
	return rec
}

// Abort drops the commit: nothing was written.
func (b *Batch) Abort() {
	if !b.settled {
		b.settled = true
		b.l.mu.Unlock()
	}
}

// Commit hands the commit's records to the next write, which adds a signed
// checkpoint when one falls due and the group's mark, and returns the
// caller's records once they are durable (one fsync for the whole group).
// A failure faults the Log for good and fails every commit of the group
// and every commit gathered after it; the records may or may not be in the
// reopened log, and if they are, they come whole with their mark or are cut
// as unvouched. When the group is durable but the checkpoint's side file
// could not be written, the group is answered without error and the Log
// faults for the commits after it (see writeSideLocked).
func (b *Batch) Commit() ([]Record, error) {
	if b.settled {
		return nil, fmt.Errorf("walog: commit already ended")
	}
	l := b.l
	if l.signer == nil {
		b.Abort()
		return nil, fmt.Errorf("walog: a commit needs the machine key to sign its mark")
	}
	b.settled = true
	defer l.mu.Unlock()
	g := l.open
	if g == nil {
		g = &group{first: l.tailSeq + 1, ckpt: -1, cond: sync.NewCond(&l.mu)}
		l.open = g
	}
	g.raws = append(g.raws, b.raws...)
	g.commits++
	l.tailSeq, l.tailHash = b.seq, b.hash
	for yielded := false; !g.done; {
		if !l.writing && !yielded && l.shared && g.commits < groupYield {
			// The committers the last write answered are about to commit
			// again: letting them run first puts them in this write
			// rather than the next (a write carries twice as many commits
			// under load). Nothing waits for a time: when no one else
			// is ready, this returns at once. A lone committer (the last
			// write carried one commit) does not yield: waking the
			// scheduler costs it more than a signature.
			l.mu.Unlock()
			runtime.Gosched()
			l.mu.Lock()
			yielded = true
			continue
		}
		if !l.writing {
			// No write under way: this committer writes what is gathered,
			// its own commit with it.
			l.flush()
			continue
		}
		g.cond.Wait()
	}
	if !g.durable {
		return nil, g.err
	}
	return b.recs[:b.user], g.err
}

// closeGroup ends the group being gathered with a checkpoint when one falls
// due and the mark, and queues it for the next write. A signature that
// fails faults the log and every commit not yet durable.
func (l *Log) closeGroup() error {
	g := l.open
	l.open = nil
	l.queue = append(l.queue, g)
	seq, hash := l.tailSeq, l.tailHash
	add := func(typ uint16, data []byte) {
		seq++
		var raw []byte
		raw, hash = encodeRecord(hash, seq, typ, data)
		g.raws = append(g.raws, raw)
	}
	ckpt := l.sinceCkpt+uint64(len(g.raws)) >= l.every
	for _, q := range l.queue[:len(l.queue)-1] {
		// One checkpoint per write at most: the side file is rewritten
		// after each write and may lag the log by one checkpoint only.
		if q.ckpt >= 0 {
			ckpt = false
		}
	}
	if ckpt {
		data, err := makeCheckpointData(l.signer, seq, hash)
		if err != nil {
			return l.failPending(l.setFault(&Fault{Seq: seq + 1, Offset: -1, What: "signing a checkpoint failed: " + err.Error()}))
		}
		g.ckpt = len(g.raws)
		add(TypeCheckpoint, data)
	}
	sig, err := makeMark(l.signer, seq, hash)
	if err != nil {
		return l.failPending(l.setFault(&Fault{Seq: seq + 1, Offset: -1, What: "signing a commit mark failed: " + err.Error()}))
	}
	add(TypeMark, sig)
	if g.ckpt >= 0 {
		l.sinceCkpt = uint64(len(g.raws) - g.ckpt - 1)
	} else {
		l.sinceCkpt += uint64(len(g.raws))
	}
	g.mark, g.head = seq, hash
	l.tailSeq, l.tailHash = seq, hash
	return nil
}

// failPending settles every commit not yet durable with f: the groups
// queued and the one being gathered chain on records that will never be
// written.
func (l *Log) failPending(f *Fault) *Fault {
	for _, g := range l.queue {
		g.done, g.err = true, f
		g.cond.Broadcast()
	}
	if g := l.open; g != nil {
		g.done, g.err = true, f
		g.cond.Broadcast()
	}
	l.queue, l.open = nil, nil
	l.tailSeq, l.tailHash = l.lastSeq, l.lastHash
	l.cond.Broadcast()
	return f
}

// flush writes the groups queued and the one being gathered, with one
// write and one fsync, outside l.mu so that further commits gather
// meanwhile. It is called with l.mu held and no write under way, and
// returns with l.mu held.
func (l *Log) flush() {
	if l.fault != nil {
		// Found since the commits were gathered (a damaged read): they
		// are not written.
		l.failPending(l.fault)
		return
	}
	if l.open != nil {
		if l.closeGroup() != nil {
			return
		}
	}
	// closeGroup gives one group of the queue a checkpoint at most.
	gs := l.queue
	l.queue = nil
	if len(gs) == 0 {
		return
	}
	var raws [][]byte
	ckpt := []byte(nil)
	for _, g := range gs {
		raws = append(raws, g.raws...)
		if g.ckpt >= 0 {
			ckpt = g.raws[g.ckpt]
		}
	}
	last := gs[len(gs)-1]
	p := l.plan(raws)
	l.writing = true
	l.mu.Unlock()
	err := l.write(p)
	l.mu.Lock()
	l.writing = false
	defer l.wake(gs)
	if err != nil {
		f := l.fault
		if f == nil {
			f = l.setFault(&Fault{Seq: p.first, Segment: segmentName(l.segIndex), Offset: l.segSize, What: err.Error()})
		}
		for _, g := range gs {
			g.done, g.err = true, f
		}
		l.failPending(f)
		return
	}
	l.apply(p, last.head)
	l.shared = len(gs) > 1 || last.commits > 1
	for _, g := range gs {
		l.lastMarks[1], l.lastMarks[0] = l.lastMarks[0], g.mark
		g.done, g.durable = true, true
	}
	switch {
	case ckpt == nil:
	case l.side.f == nil:
		l.writeSideLocked(ckpt) // the file is created whole: before the answer
	default:
		// The commits of this write are answered now; the next write
		// waits for the side file (l.writing), so that it never lags the
		// log by more than one checkpoint.
		l.writing = true
		go l.writeSideAfter(ckpt)
	}
}

// writeSideAfter writes the side file's slot after the commits of the
// write that made its checkpoint durable were answered: its fdatasync was
// a second flush on one commit in a few hundred, past a commit's p99
// (issue 26). A write under way holds the next one and Close (l.writing).
// It touches no directory entry (the slot is in place), so a caller that
// never closes the log leaves no file being created behind it.
func (l *Log) writeSideAfter(ckpt []byte) {
	err := l.side.write(ckpt, l.noSync)
	l.mu.Lock()
	defer l.mu.Unlock()
	l.writing = false
	if err != nil {
		l.sideFailed(ckpt, err)
	}
	l.wake(nil)
}

// wake answers the committers of the groups just written and wakes one
// committer waiting for the next write to lead it. Only those: waking
// every committer at every write cost more than the write's own work with
// 16 committers on 2 cores.
func (l *Log) wake(written []*group) {
	for _, g := range written {
		g.cond.Broadcast()
	}
	if len(l.queue) > 0 {
		l.queue[0].cond.Signal()
	} else if l.open != nil {
		l.open.cond.Signal()
	}
	l.cond.Broadcast() // waitIdle
}

// writeSideLocked writes a checkpoint record that is durable into the side
// file (a slot written in place, one fdatasync: side.go), l.mu held,
// before the commits of its write are answered (their wake is deferred).
// It is written after the record, so it never names a record the log may
// lose; Open accepts it one checkpoint behind the log (a power loss
// between the record and its side file) and brings it up. A failure
// faults the log for the commits after, not the ones of this write: their
// records are durable, and they are answered so.
func (l *Log) writeSideLocked(ckpt []byte) {
	if err := l.side.write(ckpt, l.noSync); err != nil {
		l.sideFailed(ckpt, err)
	}
}

// sideFailed faults the log for the commits after a side file that could
// not be written.
func (l *Log) sideFailed(ckpt []byte, err error) {
	var seq uint64
	if fr, ferr := decodeFrame(ckpt); ferr == nil {
		seq = fr.seq
	}
	l.failPending(l.setFault(&Fault{Seq: seq, Segment: sideFile, Offset: -1, What: "writing the checkpoint file failed: " + err.Error()}))
}

// writePlan is a write of frames worked out under l.mu: where tidwall/wal
// will put them, mirrored so that walog knows when a segment file is
// created and must have its directory entry synced.
type writePlan struct {
	first    uint64
	raws     [][]byte
	segIndex uint64
	segSize  int64
	starts   []uint64 // first seqs of the segments the write creates
}

func (l *Log) plan(raws [][]byte) writePlan {
	p := writePlan{first: l.lastSeq + 1, raws: raws, segIndex: l.segIndex, segSize: l.segSize}
	for i, raw := range raws {
		seq := p.first + uint64(i)
		if i == 0 && p.segSize > int64(l.segLimit) {
			p.segIndex, p.segSize = seq, 0
			p.starts = append(p.starts, seq)
		}
		p.segSize += int64(uvarintLen(uint64(len(raw))) + len(raw))
		if p.segSize >= int64(l.segLimit) {
			p.segIndex, p.segSize = seq+1, 0
			p.starts = append(p.starts, seq+1)
		}
	}
	return p
}

// write carries out a plan: one tidwall/wal batch (one write per segment,
// one fsync), then the directory's fsync when a segment file was created.
// It touches nothing of l that l.mu guards, so the leader of a group runs
// it unlocked; one write at a time (l.writing).
func (l *Log) write(p writePlan) error {
	if l.failWrite != nil {
		if err := l.failWrite(p.raws); err != nil {
			return fmt.Errorf("writing records failed: %w", err)
		}
	}
	// One batch for every write (only one is under way at a time): its
	// buffer is not allocated and grown again for each.
	wb := &l.wb
	wb.Clear()
	for i, raw := range p.raws {
		wb.Write(p.first+uint64(i), raw)
	}
	if err := l.w.WriteBatch(wb); err != nil {
		return fmt.Errorf("writing records failed: %w", err)
	}
	if len(p.starts) > 0 && !l.noSync {
		if err := syncDir(l.dir); err != nil {
			return fmt.Errorf("syncing the directory after a new segment failed: %w", err)
		}
	}
	return nil
}

// apply makes a written plan the log's durable head. The tail, where
// commits chain on, is ahead of it while commits gather.
func (l *Log) apply(p writePlan, hash [32]byte) {
	l.segStarts = append(l.segStarts, p.starts...)
	l.segIndex, l.segSize = p.segIndex, p.segSize
	l.lastSeq, l.lastHash = p.first+uint64(len(p.raws))-1, hash
}

// writeBatch writes encoded frames at once, under l.mu, for the writes that
// are not commits (Append without marks, its checkpoints, Close's last
// commit); it waits for a group's write under way to end first.
func (l *Log) writeBatch(raws [][]byte, hash [32]byte) error {
	l.waitIdle()
	p := l.plan(raws)
	if err := l.write(p); err != nil {
		return l.setFault(&Fault{Seq: p.first, Segment: segmentName(l.segIndex), Offset: l.segSize, What: err.Error()})
	}
	l.apply(p, hash)
	l.tailSeq, l.tailHash = l.lastSeq, l.lastHash // nothing gathers meanwhile
	return nil
}

// waitIdle waits, l.mu held, until no commit is being written or waits to
// be (every group gathered is settled).
func (l *Log) waitIdle() {
	for l.writing || l.open != nil || len(l.queue) > 0 {
		l.cond.Wait()
	}
}

// Marks returns the sequence numbers of the log's last two marks (0 where
// there is none): the head a witness may name is the last, or the one
// before it when a power loss came between a commit and the witness.
func (l *Log) Marks() [2]uint64 {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.lastMarks
}

// closingCommitLocked writes Close's checkpoint and its mark as one commit.
func (l *Log) closingCommitLocked() error {
	l.waitIdle()
	b := &Batch{l: l, seq: l.lastSeq, hash: l.lastHash, settled: true}
	data, err := makeCheckpointData(l.signer, b.seq, b.hash)
	if err != nil {
		return l.setFault(&Fault{Seq: b.seq + 1, Offset: -1, What: "signing a checkpoint failed: " + err.Error()})
	}
	b.add(TypeCheckpoint, data)
	sig, err := makeMark(l.signer, b.seq, b.hash)
	if err != nil {
		return l.setFault(&Fault{Seq: b.seq + 1, Offset: -1, What: "signing a commit mark failed: " + err.Error()})
	}
	b.add(TypeMark, sig)
	if err := l.writeBatch(b.raws, b.hash); err != nil {
		return err
	}
	if err := l.side.write(b.raws[0], l.noSync); err != nil {
		return l.setFault(&Fault{Seq: b.recs[0].Seq, Segment: sideFile, Offset: -1, What: "writing the checkpoint file failed: " + err.Error()})
	}
	l.sinceCkpt = 1
	l.lastMarks[1], l.lastMarks[0] = l.lastMarks[0], b.seq
	return nil
}

// cutUnvouched keeps the bytes of an unvouched tail in an evidence file of
// the log directory (a name tidwall/wal and walog ignore), then cuts them
// off: the segment holding the last good mark ends after it, and the
// segments after it go.
func cutUnvouched(dir string, s *scan, c *cutAt) (string, error) {
	segs, _, err := listSegments(dir)
	if err != nil {
		return "", err
	}
	var evidence []byte
	var later []string
	seen := false
	for _, seg := range segs {
		switch {
		case seg.name == c.segment:
			seen = true
			buf, err := os.ReadFile(filepath.Join(dir, seg.name))
			if err != nil {
				return "", err
			}
			if int64(len(buf)) > c.offset {
				evidence = append(evidence, buf[c.offset:]...)
			}
		case seen:
			buf, err := os.ReadFile(filepath.Join(dir, seg.name))
			if err != nil {
				return "", err
			}
			evidence = append(evidence, buf...)
			later = append(later, seg.name)
		}
	}
	if !seen {
		return "", fmt.Errorf("segment %s is gone", c.segment)
	}
	name := fmt.Sprintf("unvouched.%d", c.first)
	if err := atomicfile.Write(filepath.Join(dir, name), evidence, 0o640); err != nil {
		return "", err
	}
	if err := cutSegment(dir, &tornAt{segment: c.segment, offset: c.offset}); err != nil {
		return "", err
	}
	for _, n := range later {
		if err := os.Remove(filepath.Join(dir, n)); err != nil {
			return "", err
		}
	}
	return name, syncDir(dir)
}
