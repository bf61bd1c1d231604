package walog

import (
	"crypto"
	"crypto/ed25519"
	"encoding/binary"
	"fmt"
	"os"
	"path/filepath"

	"github.com/openegm/cabinet/internal/atomicfile"
	"github.com/tidwall/wal"
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
	// MaxBatch bounds the records of one commit, its checkpoint and mark
	// included: a tail of more records than this without a mark cannot be
	// a commit cut short.
	MaxBatch = 256
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
	return &Batch{l: l, seq: l.lastSeq, hash: l.lastHash}, nil
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
	if len(b.raws) >= MaxBatch-2 {
		return Record{}, fmt.Errorf("walog: a commit holds at most %d records", MaxBatch-2)
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

// Commit writes the commit's records, a signed checkpoint when one falls
// due and the mark, with one fsync, and returns the caller's records once
// they are durable. A failure faults the Log for good; the records may or
// may not be in the reopened log, and if they are, they come whole with
// their mark or are cut as unvouched. When the commit is durable but the
// checkpoint's side file could not be written, the records are returned
// with the *Fault.
func (b *Batch) Commit() ([]Record, error) {
	if b.settled {
		return nil, fmt.Errorf("walog: commit already ended")
	}
	defer b.Abort()
	l := b.l
	if l.signer == nil {
		return nil, fmt.Errorf("walog: a commit needs the machine key to sign its mark")
	}
	ckpt := -1
	if l.sinceCkpt+uint64(len(b.raws)) >= l.every {
		data, err := makeCheckpointData(l.signer, b.seq, b.hash)
		if err != nil {
			return nil, l.setFault(&Fault{Seq: b.seq + 1, Offset: -1, What: "signing a checkpoint failed: " + err.Error()})
		}
		ckpt = len(b.raws)
		b.add(TypeCheckpoint, data)
	}
	sig, err := makeMark(l.signer, b.seq, b.hash)
	if err != nil {
		return nil, l.setFault(&Fault{Seq: b.seq + 1, Offset: -1, What: "signing a commit mark failed: " + err.Error()})
	}
	b.add(TypeMark, sig)
	if err := l.writeBatch(b.raws, b.hash); err != nil {
		return nil, err
	}
	if ckpt >= 0 {
		l.sinceCkpt = uint64(len(b.raws) - ckpt - 1)
		if err := writeSide(l.dir, b.raws[ckpt]); err != nil {
			return b.recs[:b.user], l.setFault(&Fault{Seq: b.recs[ckpt].Seq, Segment: sideFile, Offset: -1, What: "writing the checkpoint file failed: " + err.Error()})
		}
	} else {
		l.sinceCkpt += uint64(len(b.raws))
	}
	l.lastMarks[1], l.lastMarks[0] = l.lastMarks[0], b.seq
	return b.recs[:b.user], nil
}

// writeBatch writes encoded frames through tidwall/wal's batch (one write
// per segment, one fsync), mirroring its segment changes so that a new
// segment file's directory entry is synced before the commit returns.
func (l *Log) writeBatch(raws [][]byte, hash [32]byte) error {
	first := l.lastSeq + 1
	var wb wal.Batch
	created := false
	segIndex, segSize, starts := l.segIndex, l.segSize, len(l.segStarts)
	for i, raw := range raws {
		seq := first + uint64(i)
		if i == 0 && segSize > int64(l.segLimit) {
			segIndex, segSize = seq, 0
			l.segStarts = append(l.segStarts, seq)
			created = true
		}
		wb.Write(seq, raw)
		segSize += int64(uvarintLen(uint64(len(raw))) + len(raw))
		if segSize >= int64(l.segLimit) {
			segIndex, segSize = seq+1, 0
			l.segStarts = append(l.segStarts, seq+1)
			created = true
		}
	}
	if err := l.w.WriteBatch(&wb); err != nil {
		l.segStarts = l.segStarts[:starts]
		return l.setFault(&Fault{Seq: first, Segment: segmentName(l.segIndex), Offset: l.segSize, What: "writing records failed: " + err.Error()})
	}
	l.segIndex, l.segSize = segIndex, segSize
	last := first + uint64(len(raws)) - 1
	l.lastSeq, l.lastHash = last, hash
	if created && !l.noSync {
		if err := syncDir(l.dir); err != nil {
			return l.setFault(&Fault{Seq: last, Segment: segmentName(l.segIndex), Offset: -1, What: "syncing the directory after a new segment failed: " + err.Error()})
		}
	}
	return nil
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
	if err := writeSide(l.dir, b.raws[0]); err != nil {
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
