package ledger

import (
	"crypto/ed25519"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"time"

	"github.com/openegm/cabinet/book"
	"github.com/openegm/cabinet/book/walog"
)

// Files in a ledger directory, and the controller's key in its key store.
const (
	LogDir  = book.LogDir      // the walog
	KeyName = "controller"     // controller.key and controller.pub in the key store
	oldKey  = "controller.key" // where an earlier version kept the key: in the data
	oldPub  = "controller.pub"
)

// testKeys is the key store the package's tests use when Options has none
// (nil in a program, where a ledger without a key store is refused).
var testKeys book.KeyStore

// Options configure a ledger.
type Options struct {
	// SnapshotEvery is how many log records pass between snapshots of the
	// state; 0 = 20000. Snapshots only make start-up fast: the log is the
	// evidence, and Verify never reads them.
	SnapshotEvery uint64
	// CheckpointEvery is how many records pass between signed checkpoints;
	// 0 = the log's default.
	CheckpointEvery uint64
	// SegmentSize of the log files; 0 = the log's default.
	SegmentSize int
	// UnsafeNoSync skips fsync: only for building benchmark fixtures.
	UnsafeNoSync bool
	// Now gives the time of the records the ledger writes itself (the
	// log-repaired event); nil = the system clock.
	Now func() int64
	// Keys holds the controller's signing key, apart from the data
	// (required); an earlier version's DIR/controller.key is moved into a
	// FileKeys store.
	Keys book.KeyStore
	// Witness keeps the log's head outside the data; nil = none.
	Witness book.Witness
}

// OpenInfo says what opening the ledger found.
type OpenInfo struct {
	Repaired    string // non-empty when a torn last record was discarded
	SnapshotSeq uint64 // the snapshot start-up began from (0 = none)
	Replayed    uint64 // log records folded after it
	LastSeq     uint64
	KeyID       string // the controller key that signs the checkpoints
	// Tampered names snapshots the log does not vouch for (not used).
	Tampered []string
	// Witness is how the log's head compares with the witness.
	Witness book.WitnessCheck
}

// Fault is damage to the ledger, or a failed write: the controller cannot
// vouch for the pools (regulation rules 5 and 9) until a technician acts.
// Every later Commit returns the same Fault.
type Fault struct {
	Seq   uint64 // the log record at fault; 0 when not tied to one
	Entry int    // the entry of a batch record; -1 for a record on its own
	Err   error  // a *walog.Fault for damage the log found
}

func (f *Fault) Error() string {
	switch {
	case f.Seq > 0 && f.Entry >= 0:
		return fmt.Sprintf("link ledger fault at record %d, batch entry %d: %v", f.Seq, f.Entry, f.Err)
	case f.Seq > 0:
		return fmt.Sprintf("link ledger fault at record %d: %v", f.Seq, f.Err)
	}
	return fmt.Sprintf("link ledger fault: %v", f.Err)
}

func (f *Fault) Unwrap() error { return f.Err }

// Refused is a record the fold refused: nothing was logged and nothing
// changed; the ledger goes on. Err wraps the reason (ErrBackwards,
// ErrStale, jackpot.ErrInvalid, …).
type Refused struct {
	Type  Type
	Index int // the record's index in CommitBatch; -1 for Commit
	Err   error
}

func (r *Refused) Error() string {
	if r.Index >= 0 {
		return fmt.Sprintf("link ledger: batch entry %d refused: %v", r.Index, r.Err)
	}
	return fmt.Sprintf("link ledger: refused: %v", r.Err)
}

func (r *Refused) Unwrap() error { return r.Err }

// ErrClosed is returned by a closed Ledger.
var ErrClosed = errors.New("link ledger: closed")

// Ledger is the link controller's durable ledger. Commit is the only way
// anything changes; it returns once the record is on disk. Its methods are
// safe for concurrent use; commits are serialised.
type Ledger struct {
	mu     sync.Mutex
	opts   Options
	book   *book.Book
	state  *State // folded before the write, under mu: the commit's own
	fault  *Fault
	closed bool
	// shown is the durable state, for View, State and Report: a commit
	// folds its logged records into it once they are on disk. Readers
	// took mu before, and so waited behind every commit's fsync: on a
	// floor of 1,000 cabinets every poll step and every broadcast did
	// (issue 26). The same deterministic fold, on the same state, of the
	// records the log holds, so it is what a restart would fold.
	showMu sync.RWMutex
	shown  *State
}

// Spec is the controller's ledger as the book sees it.
var Spec = book.Spec{
	What:    "link ledger",
	New:     func() book.State { return fold{NewState()} },
	Restore: restore,
}

// fold is the State as a book.State.
type fold struct{ s *State }

func (f fold) Apply(typ uint16, data []byte) error {
	recs, err := Decode(Type(typ), data)
	if err != nil {
		return &Fault{Entry: -1, Err: err}
	}
	if ft := foldLogged(f.s, Type(typ), recs, nil); ft != nil {
		return ft
	}
	return nil
}

func (f fold) Check() error { return f.s.Check() }

func (f fold) Encode() ([]byte, error) { return json.Marshal(f.s) }

func restore(b []byte) (book.State, error) {
	s := NewState()
	if err := json.Unmarshal(b, s); err != nil {
		return nil, err
	}
	return fold{s}, nil
}

// Open opens (or creates) the ledger in dir: the controller key, the log,
// the newest valid snapshot, then the records after it. It checks every
// invariant of the state. Damage other than a torn last record, and a
// record the fold refuses, are a *Fault naming the record.
func Open(dir string, opts Options) (*Ledger, OpenInfo, error) {
	var info OpenInfo
	if opts.SnapshotEvery == 0 {
		opts.SnapshotEvery = 20000
	}
	if opts.Now == nil {
		opts.Now = func() int64 { return time.Now().UnixNano() }
	}
	if opts.Keys == nil {
		opts.Keys = testKeys
	}
	if opts.Keys == nil {
		return nil, info, &Fault{Entry: -1, Err: errors.New("no key store for the controller key")}
	}
	if fk, ok := opts.Keys.(book.FileKeys); ok {
		moved, err := fk.Adopt(KeyName, filepath.Join(dir, oldKey))
		if err != nil {
			return nil, info, &Fault{Entry: -1, Err: err}
		}
		if moved {
			os.Remove(filepath.Join(dir, oldPub)) // the registered key is the store's
		}
	}
	b, st, bi, err := book.Open(dir, Spec, book.Options{SealEvery: opts.SnapshotEvery, CheckpointEvery: opts.CheckpointEvery,
		SegmentSize: opts.SegmentSize, UnsafeNoSync: opts.UnsafeNoSync, Keys: opts.Keys, KeyName: KeyName, Witness: opts.Witness})
	info.Repaired, info.SnapshotSeq, info.Replayed, info.LastSeq = bi.Repaired, bi.SnapshotSeq, bi.Replayed, bi.LastSeq
	info.KeyID, info.Tampered, info.Witness = bi.KeyID, bi.Tampered, bi.Witness
	if err != nil {
		return nil, info, asFault(err, 0, -1)
	}
	l := &Ledger{opts: opts, book: b, state: st.(fold).s}
	l.shown = l.state.Clone()
	if info.Repaired != "" {
		// The repair itself is evidence: it goes into the log.
		if _, err := l.Commit(Event{At: opts.Now(), Code: EventLogRepaired, Detail: clip(info.Repaired, MaxWhyLen)}); err != nil {
			l.Close()
			return nil, info, err
		}
		info.LastSeq = b.Head().Seq
	}
	return l, info, nil
}

func clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && (s[n]&0xC0) == 0x80 {
		n--
	}
	return s[:n]
}

func asFault(err error, seq uint64, entry int) *Fault {
	var f *Fault
	if errors.As(err, &f) {
		var bf *book.Fault
		if f.Seq == 0 && errors.As(err, &bf) {
			f.Seq = bf.Seq
		}
		return f
	}
	var bf *book.Fault
	if errors.As(err, &bf) {
		return &Fault{Seq: bf.Seq, Entry: entry, Err: bf.Err}
	}
	var wf *walog.Fault
	if errors.As(err, &wf) {
		return &Fault{Seq: wf.Seq, Entry: -1, Err: err}
	}
	return &Fault{Seq: seq, Entry: entry, Err: err}
}

// foldLogged folds the records of one log record, which must all apply
// and change something; the state is not restored on error (a fault).
// each, if not nil, sees every record with its result.
func foldLogged(s *State, typ Type, recs []Record, each func(Record, Result)) *Fault {
	t := s.begin()
	t.noUndo = true
	for i, rec := range recs {
		entry := -1
		if typ == TypeBatch {
			entry = i
		}
		res, err := t.fold(rec)
		if err == nil && res.Repeat {
			err = fmt.Errorf("%v: %w: the record changes nothing, yet it was logged", rec.Type(), ErrInvariant)
		}
		if err != nil {
			return &Fault{Entry: entry, Err: err}
		}
		if each != nil {
			each(rec, res)
		}
	}
	if err := t.check(); err != nil {
		return &Fault{Entry: -1, Err: err}
	}
	return nil
}

// Commit folds r on the state, makes it durable and only then lets the
// state show it. A record the fold refuses is a *Refused: nothing is
// logged. A record that repeats what is committed already (Result.Repeat)
// is not logged either: its result says what was committed before. A
// write that fails is a *Fault, and the state stays as it was.
func (l *Ledger) Commit(r Record) (Result, error) {
	out, err := l.commit([]Record{r}, false)
	if len(out) == 0 {
		return Result{}, err
	}
	return out[0], err
}

// CommitBatch is a group commit: the records are folded in order, all or
// none, and made durable together by one write and one sync (one log
// record of type TypeBatch, or a plain record if only one changes
// anything). A refusal names the index of the record refused.
func (l *Ledger) CommitBatch(recs ...Record) ([]Result, error) {
	if len(recs) == 0 {
		return nil, nil
	}
	if len(recs) > MaxBatch {
		return nil, &Refused{Index: MaxBatch, Err: bad("batch of %d records, at most %d", len(recs), MaxBatch)}
	}
	return l.commit(recs, true)
}

func (l *Ledger) commit(recs []Record, isBatch bool) ([]Result, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.closed {
		return nil, ErrClosed
	}
	if l.fault != nil {
		return nil, l.fault
	}
	t := l.state.begin()
	out := make([]Result, len(recs))
	var logged []Record
	for i, r := range recs {
		res, err := t.fold(r)
		if err != nil {
			t.rollback()
			index, typ := -1, Type(0)
			if isBatch {
				index = i
			}
			if r != nil {
				typ = r.Type()
			}
			return nil, l.refuse(index, typ, err)
		}
		out[i] = res
		if !res.Repeat {
			logged = append(logged, r)
		}
	}
	if err := t.check(); err != nil {
		t.rollback()
		return nil, l.refuse(-1, 0, err)
	}
	if len(logged) == 0 {
		return out, nil
	}
	typ := TypeBatch
	var data []byte
	var err error
	if len(logged) == 1 {
		typ = logged[0].Type()
		data, err = Encode(logged[0])
	} else {
		data, err = encodeBatch(logged)
	}
	if err != nil {
		t.rollback()
		return nil, &Refused{Index: -1, Err: err}
	}
	wr, err := l.book.Append(uint16(typ), data, fold{l.state})
	if wr.Seq == 0 {
		// Not durable: the state stays as it was, and the log is unfit for
		// more writes.
		t.rollback()
		l.fault = asFault(err, l.book.Head().Seq+1, -1)
		return nil, l.fault
	}
	for i := range out {
		if !out[i].Repeat {
			out[i].Seq = wr.Seq
		}
	}
	if err != nil {
		// Durable, but the checkpoint or seal after it failed: the state
		// shows the record (as the next start-up will), and the ledger stops.
		l.fault = asFault(err, wr.Seq, -1)
		if ft := l.show(typ, logged); ft != nil {
			l.fault = ft
		}
		return out, l.fault
	}
	werr := l.book.WriteWitness()
	if ft := l.show(typ, logged); ft != nil {
		l.fault = ft
		return out, l.fault
	}
	if werr != nil {
		l.fault = &Fault{Seq: wr.Seq, Entry: -1, Err: werr}
		return out, l.fault
	}
	return out, nil
}

// show folds a durable commit's logged records into the shown state. The
// fold took them on the commit's state, which the shown one equals before
// it: a refusal here is a defect, and stops the ledger.
func (l *Ledger) show(typ Type, logged []Record) *Fault {
	l.showMu.Lock()
	defer l.showMu.Unlock()
	if ft := foldLogged(l.shown, typ, logged, nil); ft != nil {
		ft.Seq = l.book.Head().Seq
		l.shown = l.state.Clone() // what the log holds, as the fold left it
		return ft
	}
	return nil
}

// refuse returns the error for a record the fold did not take: a
// *Refused, or, when the fold found an invariant broken (a defect, not bad
// input), a *Fault that stops the ledger (DESIGN rule 3). The state is the
// last durable one either way.
func (l *Ledger) refuse(index int, typ Type, err error) error {
	if errors.Is(err, ErrInvariant) {
		l.fault = &Fault{Seq: l.book.Head().Seq + 1, Entry: index, Err: err}
		return l.fault
	}
	return &Refused{Index: index, Type: typ, Err: err}
}

// State returns an independent copy of the durable state.
func (l *Ledger) State() *State {
	l.showMu.RLock()
	defer l.showMu.RUnlock()
	return l.shown.Clone()
}

// View calls fn with the durable state, under a read lock that no
// commit's write or fsync holds: for cheap reads (one machine, the pending
// awards) without copying everything. fn must not keep s or change it,
// and must not commit.
func (l *Ledger) View(fn func(s *State)) {
	l.showMu.RLock()
	defer l.showMu.RUnlock()
	fn(l.shown)
}

// LastSeq is the seq of the last log record (checkpoints and seals
// included).
func (l *Ledger) LastSeq() uint64 { return l.book.Head().Seq }

// PublicKey is the controller key that signs the log's checkpoints and
// seals; the inspector registers it at commissioning.
func (l *Ledger) PublicKey() ed25519.PublicKey { return l.book.PublicKey() }

// Fault returns the fault that stopped the ledger, or nil.
func (l *Ledger) Fault() error {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.fault == nil {
		return nil
	}
	return l.fault
}

// Close writes a snapshot and closes the log with a signed checkpoint.
func (l *Ledger) Close() error {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.closed {
		return ErrClosed
	}
	l.closed = true
	if l.fault != nil {
		return l.book.Close(nil)
	}
	return l.book.Close(fold{l.state})
}

// KeyID names a controller key: the first 8 bytes of its BLAKE2b-256, in
// hex (the same definition as meters.KeyID for machine keys).
func KeyID(pub ed25519.PublicKey) string { return walog.KeyID(pub) }

// ReadPublicKey reads a controller public key file (one line of base64,
// or of hex as earlier versions wrote it): the key registered at
// commissioning.
func ReadPublicKey(path string) (ed25519.PublicKey, error) { return book.ReadPublicKey(path) }

// Report is the accounting report of the committed state (State.Report).
func (l *Ledger) Report() (*Report, error) {
	l.showMu.RLock()
	defer l.showMu.RUnlock()
	return l.shown.Report()
}
