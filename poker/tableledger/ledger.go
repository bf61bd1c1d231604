// Package tableledger is the table server's ledger (cmd/tablesrv) on the
// project's ledger framework (book/): typed records and a pure fold, the log
// hash-chained and signed with the server's key from a key store apart from
// the data, seals and the snapshots they vouch for, the witness of the log's
// head, verification from the first record.
//
// What it holds: each table's sessions (the signed definition played), and
// every step of every table: the event (a buy-in, a re-buy, an action, a
// timeout, a deal, a cash-out), every value the certified RNG gave during
// it, the money transfer it carries and the engine's records — the hand
// histories, with every post, action, pot award, rake and cash-out. The
// fold recomputes the money of every record apart from the engines; the
// verifier also re-runs the engines on the logged events and draws and
// requires the very records the log holds (Replay), so every card dealt and
// every pot paid is the certified engine's.
package tableledger

import (
	"crypto/ed25519"
	"encoding/json"
	"errors"
	"fmt"
	"sync"

	"github.com/openegm/cabinet/book"
	"github.com/openegm/cabinet/book/walog"
)

// KeyName is the server's signing key in its key store (tableserver.key,
// tableserver.pub: the public key registered at commissioning).
const KeyName = "tableserver"

// Spec is the table server's ledger as the book sees it.
var Spec = book.Spec{
	What:    "table server ledger",
	New:     func() book.State { return fold{NewState()} },
	Restore: restore,
}

type fold struct{ s *State }

func (f fold) Apply(typ uint16, data []byte) error {
	r, err := Decode(Type(typ), data)
	if err != nil {
		return err
	}
	return f.s.Apply(r)
}

func (f fold) Check() error { return f.s.Check() }

// Encode is canonical: encoding/json writes map keys in order.
func (f fold) Encode() ([]byte, error) { return json.Marshal(f.s) }

func restore(b []byte) (book.State, error) {
	s := NewState()
	if err := json.Unmarshal(b, s); err != nil {
		return nil, err
	}
	// An empty map is left out of the snapshot (omitempty) and comes back
	// nil: the stakes of a hand before its first stake, the associations
	// of an auction before its first associated bid. The fold writes into
	// both: they come back as the live state held them. (Offers stays nil
	// when it was: nil is no auction.)
	for _, t := range s.Tables {
		if t.Stakes == nil {
			t.Stakes = map[int]int64{}
		}
		if t.Offers != nil && t.Partners == nil {
			t.Partners = map[int]int{}
		}
	}
	return fold{s}, nil
}

// Options configure a ledger.
type Options struct {
	// Keys holds the server's signing key, apart from the data (required).
	Keys book.KeyStore
	// Witness keeps the log's head outside the data; nil = none.
	Witness book.Witness
	// SealEvery is how many records pass between seals and snapshots; 0 =
	// 1000. CheckpointEvery and SegmentSize are the log's (0: defaults).
	SealEvery, CheckpointEvery uint64
	SegmentSize                int
}

// Ledger is the table server's durable ledger. Commit is the only way
// anything changes; it returns once the record is on disk. Its methods are
// safe for concurrent use.
type Ledger struct {
	mu    sync.Mutex
	book  *book.Book
	state *State
	fault error
}

// Open opens (or creates) the ledger in dir.
func Open(dir string, opts Options) (*Ledger, book.Info, error) {
	if opts.Keys == nil {
		return nil, book.Info{}, errors.New("table server ledger: no key store")
	}
	b, st, info, err := book.Open(dir, Spec, book.Options{SealEvery: opts.SealEvery, CheckpointEvery: opts.CheckpointEvery,
		SegmentSize: opts.SegmentSize, Keys: opts.Keys, KeyName: KeyName, Witness: opts.Witness})
	if err != nil {
		return nil, info, err
	}
	return &Ledger{book: b, state: st.(fold).s}, info, nil
}

// Commit folds a record into the state and logs it; it returns the log
// record once it is durable. A record the fold refuses is not logged, and
// like a failed write it stops the ledger: the server's state and its
// ledger disagree, so nothing more is played (DESIGN rule 3).
func (l *Ledger) Commit(r Record) (walog.Record, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.fault != nil {
		return walog.Record{}, l.fault
	}
	data, err := Encode(r)
	if err != nil {
		l.fault = fmt.Errorf("table server ledger: encoding a %s record: %w", r.Type(), err)
		return walog.Record{}, l.fault
	}
	if err := l.state.Apply(r); err != nil {
		l.fault = fmt.Errorf("table server ledger: a %s record refused: %w", r.Type(), err)
		return walog.Record{}, l.fault
	}
	rec, err := l.book.Append(uint16(r.Type()), data, fold{l.state})
	if err != nil {
		l.fault = err
		return rec, err
	}
	if err := l.book.WriteWitness(); err != nil {
		l.fault = err
		return rec, err
	}
	return rec, nil
}

// View calls fn with the state under the ledger's lock; fn must not keep it
// or change it.
func (l *Ledger) View(fn func(*State)) {
	l.mu.Lock()
	defer l.mu.Unlock()
	fn(l.state)
}

// Fault is why the ledger stopped, or nil.
func (l *Ledger) Fault() error {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.fault
}

// Since calls fn with every ledger record after seq.
func (l *Ledger) Since(seq uint64, fn func(seq uint64, r Record) error) error {
	return l.book.Since(seq, func(w walog.Record) error {
		r, err := Decode(Type(w.Type), w.Data)
		if err != nil {
			return fmt.Errorf("record %d: %w", w.Seq, err)
		}
		return fn(w.Seq, r)
	})
}

// PublicKey is the key that signs the log.
func (l *Ledger) PublicKey() ed25519.PublicKey { return l.book.PublicKey() }

// Sign signs a document with the server's key (a report).
func (l *Ledger) Sign(doc []byte) ([]byte, error) { return l.book.Sign(doc) }

// Close seals the state and closes the log.
func (l *Ledger) Close() error {
	l.mu.Lock()
	defer l.mu.Unlock()
	var st book.State
	if l.fault == nil {
		st = fold{l.state}
	}
	return l.book.Close(st)
}

// Records calls fn with every record of the ledger in dir, read-only (no
// key needed; the directory is not touched).
func Records(dir string, fn func(seq uint64, r Record) error) error {
	return book.Records(dir, func(w walog.Record) error {
		r, err := Decode(Type(w.Type), w.Data)
		if err != nil {
			return fmt.Errorf("record %d: %w", w.Seq, err)
		}
		return fn(w.Seq, r)
	})
}
