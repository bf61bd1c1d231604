package book

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"golang.org/x/crypto/blake2b"
)

// Head is where a log ends: its last record's sequence number and chain
// hash.
type Head struct {
	Seq  uint64
	Hash [32]byte
}

func (h Head) String() string { return fmt.Sprintf("record %d (chain %x…)", h.Seq, h.Hash[:6]) }

// Witness keeps the head of a log outside the data directory, where a copy
// of the data cannot take it back: on a board, battery-backed memory or a
// TPM NV counter; in the simulator, a file at its own path (FileWitness).
// Read returns the zero Head when nothing was written yet.
type Witness interface {
	Read() (Head, error)
	Write(Head) error
}

// FileWitness is the simulator's witness: a small file written in place,
// in two alternating slots, each checksummed, so a write torn by a power
// loss leaves the other slot whole.
//
// It stands for the board's battery-backed memory, where a write is a
// store that no power cut undoes and costs no flush: so it is written
// without fsync. The page cache keeps it through the process's death (the
// SIGKILL of every crash test) as that memory keeps it through a power
// cut. A cut of the simulating host's own power can leave it behind the
// log, which start-up reports (WitnessBehind) for a technician to
// confirm: never a silent acceptance, only an alarm a real board would
// not raise. An fsync here was the second flush of every commit (the
// commit took 1.77 times one write and fsync, issue 26).
type FileWitness struct {
	f    *os.File
	next int
}

const (
	witnessMagic = "OEGMWIT1"
	witnessSlot  = 8 + 8 + 32 + 16 // magic, seq, hash, checksum
)

// OpenFileWitness opens (or creates) the witness file at path.
func OpenFileWitness(path string) (*FileWitness, error) {
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return nil, err
	}
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o600)
	if err != nil {
		return nil, err
	}
	w := &FileWitness{f: f}
	if _, slot, err := w.read(); err == nil && slot >= 0 {
		w.next = 1 - slot // the newest whole slot is kept until the next write is whole
	}
	return w, nil
}

func slotSum(b []byte) []byte {
	h := blake2b.Sum256(b)
	return h[:16]
}

// read returns the newest whole slot and its index (-1: none).
func (w *FileWitness) read() (Head, int, error) {
	buf := make([]byte, 2*witnessSlot)
	n, err := w.f.ReadAt(buf, 0)
	if err != nil && !errors.Is(err, io.EOF) {
		return Head{}, -1, err
	}
	best, at := Head{}, -1
	for i := range 2 {
		if n < (i+1)*witnessSlot {
			break
		}
		s := buf[i*witnessSlot : (i+1)*witnessSlot]
		if string(s[:8]) != witnessMagic || !bytes.Equal(slotSum(s[:48]), s[48:]) {
			continue
		}
		h := Head{Seq: binary.BigEndian.Uint64(s[8:16])}
		copy(h.Hash[:], s[16:48])
		if at < 0 || h.Seq > best.Seq {
			best, at = h, i
		}
	}
	return best, at, nil
}

// Read returns the last head written (zero if none).
func (w *FileWitness) Read() (Head, error) {
	h, _, err := w.read()
	return h, err
}

// Write records h (in place, without fsync: see FileWitness).
func (w *FileWitness) Write(h Head) error {
	s := make([]byte, 0, witnessSlot)
	s = append(s, witnessMagic...)
	s = binary.BigEndian.AppendUint64(s, h.Seq)
	s = append(s, h.Hash[:]...)
	s = append(s, slotSum(s)...)
	if _, err := w.f.WriteAt(s, int64(w.next*witnessSlot)); err != nil {
		return err
	}
	w.next = 1 - w.next
	return nil
}

// Close closes the file.
func (w *FileWitness) Close() error { return w.f.Close() }

// WitnessStatus is how the log and its witness compare at start-up.
type WitnessStatus int

const (
	// WitnessNone: no witness was given (tools, tests).
	WitnessNone WitnessStatus = iota
	// WitnessOK: the witness is the log's head, or a record of it a
	// commit cut by a power loss did not reach.
	WitnessOK
	// WitnessEmpty: the witness holds nothing while the log has records
	// (a new board, or the witness erased): a technician must say so.
	WitnessEmpty
	// WitnessBehind: the witness names a record of this log far behind its
	// end (an older board, or a witness written back): a technician must
	// say so.
	WitnessBehind
	// WitnessAhead: the log ends before the record the witness names: the
	// data was replaced by an older copy of itself (rollback).
	WitnessAhead
	// WitnessDiffers: the log's record at the witness's sequence number is
	// not the one witnessed: the data was replaced or rewritten.
	WitnessDiffers
)

func (s WitnessStatus) String() string {
	return [...]string{"none", "ok", "empty", "behind", "ahead", "differs"}[s]
}

// WitnessCheck is what start-up found comparing the log with its witness.
type WitnessCheck struct {
	Status  WitnessStatus
	Witness Head
	Log     Head
	Detail  string
}

// Tampered says whether the check shows the data rolled back or replaced.
func (c WitnessCheck) Tampered() bool { return c.Status == WitnessAhead || c.Status == WitnessDiffers }

// witnessSlack is how far a log may run ahead of its witness after a power
// loss: the records of the commit in flight (with its checkpoint and seal).
const witnessSlack = 256
