package meters

import (
	"bytes"
	"crypto/ed25519"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/openegm/cabinet/aft"
	"github.com/openegm/cabinet/book"
	"github.com/openegm/cabinet/book/walog"
)

// Options configure a ledger.
type Options struct {
	// SnapshotEvery is how many records pass between seals (a signed
	// digest of the meters) and the snapshots beside them; 0 = 1000.
	SnapshotEvery uint64
	// CheckpointEvery is how many records pass between signed checkpoints;
	// 0 = the log's default.
	CheckpointEvery uint64
	// SegmentSize of the log files; 0 = book.SegmentSize.
	SegmentSize int
	// UnsafeNoSync skips fsync: only for building benchmark fixtures.
	UnsafeNoSync bool
	// Keys is the key store that holds the machine key, apart from the
	// data (required); an earlier version's DIR/machine.key is moved into
	// a FileKeys store.
	Keys book.KeyStore
	// Witness keeps the log's head outside the data; nil = none.
	Witness book.Witness
}

// Fault is a meter fault: the ledger cannot vouch for its meters, so the
// machine must not play (regulation rule 9) until a technician acts.
type Fault struct {
	Seq uint64 // the record at fault, 0 when not tied to one
	Err error
}

func (f *Fault) Error() string {
	if f.Seq > 0 {
		return fmt.Sprintf("meter fault at record %d: %v", f.Seq, f.Err)
	}
	return fmt.Sprintf("meter fault: %v", f.Err)
}

func (f *Fault) Unwrap() error { return f.Err }

// OpenInfo says what opening the ledger found.
type OpenInfo struct {
	Repaired    string // non-empty when a torn last record was discarded
	SnapshotSeq uint64 // the snapshot start-up began from (0 = none)
	Replayed    uint64 // records folded after it
	// ReadFrom is the first log record start-up read and checked: 1 for
	// the whole log, else the record after the older sealed snapshot
	// (book.Info.ReadFrom).
	ReadFrom uint64
	// WholeLog is why start-up read the whole log ("" when it read the
	// tail): no sealed snapshot yet, or one the tail does not vouch for.
	WholeLog     string
	LastSeq      uint64
	MachineKeyID string
	// Tampered names what start-up found forged (a snapshot the log does
	// not vouch for); the meters are folded without it.
	Tampered []string
	// Witness is how the log's head compares with the board's witness.
	Witness book.WitnessCheck
	// KeyAdopted: the machine key was found in the data directory (an
	// earlier version kept it there) and moved to the key store.
	KeyAdopted bool
}

// Ledger is the durable meter ledger. Commit is the only way anything that
// matters changes; it returns once the record is on disk (DESIGN rule 1).
// A Ledger is not safe for concurrent use: the machine's owner goroutine
// holds it.
type Ledger struct {
	book  *book.Book
	state *State
	fault error
	// spare is the state before the last commit, which nothing else
	// holds: the next commit copies the state into it rather than into a
	// new one (cowInto), so a commit does not allocate a state of ~1.5 KB
	// and a per-game map, garbage that made collections fall on commits.
	spare *State
	// enc and entries are the records' encodings and entries of a commit,
	// reused: the log copies them into its frames before Commit returns.
	enc     bytes.Buffer
	encoder *json.Encoder
	entries []book.Entry
}

const (
	keyName = "machine"
	oldKey  = "machine.key" // where an earlier version kept the key
	oldPub  = "machine.pub"
	what    = "cabinet ledger"
)

// testKeys is the key store the package's own tests use when Options has
// none (set by their TestMain; nil in the program, where a ledger without
// a key store is refused).
var testKeys book.KeyStore

// Spec is the cabinet ledger as the book sees it.
var Spec = book.Spec{
	What:    what,
	New:     func() book.State { return fold{NewState()} },
	Restore: restore,
	Earlier: earlierEncoding,
}

// earlierEncoding is the state as the builds before the retired AFT IDs
// (aft.State.Retired) encoded it: without them. This build encodes them
// ("" when none) in every state with an AFT transfer, the only states
// where the two differ, so a seal of this build is held to them.
func earlierEncoding(st book.State) ([]byte, error) {
	c := *st.(fold).s
	c.AFT.Retired = aft.IDSet{}
	return json.Marshal(&c)
}

// encodeAsEarlierBuild makes the ledger seal and snapshot its states as a
// build before the retired AFT IDs did: for tests of a ledger such a
// build left (never set in the program).
var encodeAsEarlierBuild bool

// fold is the meters' State as a book.State.
type fold struct{ s *State }

func (f fold) Apply(typ uint16, data []byte) error {
	rec, err := Decode(Type(typ), data)
	if err != nil {
		return err
	}
	return f.s.fold(rec)
}

func (f fold) Check() error { return f.s.Check() }

func (f fold) Encode() ([]byte, error) {
	if encodeAsEarlierBuild {
		return earlierEncoding(f)
	}
	return encodeState(f.s)
}

func restore(b []byte) (book.State, error) {
	s, err := decodeState(b)
	if err != nil {
		return nil, err
	}
	if len(s.BillCounts) != len(BillValues) {
		return nil, fmt.Errorf("%d bill counts, not %d", len(s.BillCounts), len(BillValues))
	}
	s.aftEarlier = s.AFT.Current != nil && !s.AFT.Retired.Kept()
	return fold{s}, nil
}

// decodeState decodes a snapshot's state: restoreFast, else encoding/json
// (the same value, or the same error).
func decodeState(b []byte) (*State, error) {
	if s, ok := restoreFast(b); ok {
		return s, nil
	}
	return decodeStateJSON(b)
}

// decodeStateJSON is decodeState through encoding/json alone.
func decodeStateJSON(b []byte) (*State, error) {
	s := NewState()
	if err := json.Unmarshal(b, s); err != nil {
		return nil, err
	}
	return s, nil
}

// Open opens (or creates) the ledger in dir: the machine key from the key
// store, the log, the newest snapshot whose state is sealed, then the
// records after it. Any damage other than a torn last record, and any
// record that breaks an invariant, is a *Fault.
func Open(dir string, opts Options) (*Ledger, OpenInfo, error) {
	var info OpenInfo
	if opts.Keys == nil {
		opts.Keys = testKeys
	}
	if opts.Keys == nil {
		return nil, info, &Fault{Err: errors.New("no key store for the machine key")}
	}
	if fk, ok := opts.Keys.(book.FileKeys); ok {
		moved, err := fk.Adopt(keyName, filepath.Join(dir, oldKey))
		if err != nil {
			return nil, info, &Fault{Err: err}
		}
		if moved {
			os.Remove(filepath.Join(dir, oldPub)) // the registered key is the store's
			info.KeyAdopted = true
		}
	}
	b, st, bi, err := book.Open(dir, Spec, book.Options{SealEvery: opts.SnapshotEvery, CheckpointEvery: opts.CheckpointEvery,
		SegmentSize: opts.SegmentSize, UnsafeNoSync: opts.UnsafeNoSync, Keys: opts.Keys, KeyName: keyName, Witness: opts.Witness})
	info.Repaired, info.SnapshotSeq, info.Replayed, info.LastSeq = bi.Repaired, bi.SnapshotSeq, bi.Replayed, bi.LastSeq
	info.ReadFrom, info.WholeLog = bi.ReadFrom, bi.WholeLog
	info.MachineKeyID, info.Tampered, info.Witness = bi.KeyID, bi.Tampered, bi.Witness
	if err != nil {
		var f *book.Fault
		if errors.As(err, &f) {
			return nil, info, &Fault{Seq: f.Seq, Err: f.Err}
		}
		return nil, info, &Fault{Err: err}
	}
	l := &Ledger{book: b, state: st.(fold).s}
	if l.state.aftEarlier {
		if err := l.rebuildRetiredAFT(); err != nil {
			b.Close(nil)
			return nil, info, err
		}
	}
	if info.Repaired != "" {
		// The repair itself is evidence: it goes into the event log.
		if err := l.Commit(Event{Code: EventLogRepaired, Detail: info.Repaired}); err != nil {
			l.Close()
			return nil, info, err
		}
		info.LastSeq = l.LastSeq()
	}
	return l, info, nil
}

// Commit makes records durable and folds them into the meters, one by one,
// each synced before the next. A record that breaks an invariant, or a write
// that fails, is a meter fault: nothing more is accepted on this handle, and
// what was committed before stays committed.
func (l *Ledger) Commit(recs ...Record) error {
	_, err := l.CommitN(recs...)
	return err
}

// CommitN is Commit that also says how many of recs are durable: all or
// none, since they are one commit of the log (with the board's signed
// mark). After the records, the board's witness is given the log's new
// head.
func (l *Ledger) CommitN(recs ...Record) (n int, err error) {
	if l.fault != nil {
		return 0, l.fault
	}
	if len(recs) == 0 {
		return 0, nil
	}
	// The records are folded one after the other into one copy of the
	// state, which shares nothing that apply writes in place with
	// l.state: as Next from state to state, without a copy per record.
	next := l.state.cowInto(l.spare)
	l.spare = nil // next, until the commit says which state is left over
	l.enc.Reset()
	if l.encoder == nil {
		l.encoder = json.NewEncoder(&l.enc)
	}
	ends := make([]int, 0, 8)
	for _, r := range recs {
		err := next.advance(r)
		if err != nil {
			l.fault = &Fault{Seq: l.book.LastSeq() + 1, Err: fmt.Errorf("%v refused: %w", r.Type(), err)}
			return 0, l.fault
		}
		if err := l.encode(r); err != nil {
			l.fault = &Fault{Seq: l.book.LastSeq() + 1, Err: err}
			return 0, l.fault
		}
		ends = append(ends, l.enc.Len())
	}
	next.ownPerGame = false
	entries, all, from := l.entries[:0], l.enc.Bytes(), 0
	for i, r := range recs {
		entries = append(entries, book.Entry{Type: uint16(r.Type()), Data: all[from:ends[i]:ends[i]]})
		from = ends[i]
	}
	l.entries = entries
	wrs, err := l.book.Commit(entries, fold{next})
	if len(wrs) == len(recs) {
		// Durable, even if the log faulted right after it (the checkpoint's
		// side file failed): the state must show it, as the next start-up
		// will.
		l.state, l.spare = next, l.state
		n = len(recs)
		if werr := l.book.WriteWitness(); werr != nil && err == nil {
			err = werr
		}
	}
	if err != nil {
		var f *book.Fault
		if errors.As(err, &f) {
			err = f.Err
		}
		l.fault = &Fault{Seq: l.book.LastSeq() + 1, Err: err}
		if n > 0 {
			l.fault = &Fault{Seq: wrs[n-1].Seq, Err: err}
		}
		return n, l.fault
	}
	return n, nil
}

// encode appends r's encoding to l.enc: Encode's bytes (json.Encoder
// writes json.Marshal's and a newline, which is cut).
func (l *Ledger) encode(r Record) error {
	if err := r.validate(); err != nil {
		return err
	}
	if err := l.encoder.Encode(r); err != nil {
		return err
	}
	l.enc.Truncate(l.enc.Len() - 1)
	return nil
}

// Fault returns the meter fault that stopped the ledger, or nil.
func (l *Ledger) Fault() error { return l.fault }

// State returns a copy of the folded state (meters and history).
func (l *Ledger) State() *State { return l.state.Clone() }

// Meter returns one meter.
func (l *Ledger) Meter(m Meter) int64 { return l.state.Meters[m] }

// LastSeq is the sequence number of the last committed record.
func (l *Ledger) LastSeq() uint64 { return l.book.LastSeq() }

// Head is the log's head (its last record, checkpoints and seals
// included): what the board's witness holds.
func (l *Ledger) Head() book.Head { return l.book.Head() }

// PublicKey is the machine key that signs the log's checkpoints and
// seals; the inspector registers it at commissioning.
func (l *Ledger) PublicKey() ed25519.PublicKey { return l.book.PublicKey() }

// Sign returns the signature file of a document (the inspector's report
// exported on the machine) signed with the machine key.
func (l *Ledger) Sign(doc []byte) ([]byte, error) { return l.book.Sign(doc) }

// Close seals the meters (with a snapshot) and closes the log with a
// signed checkpoint.
func (l *Ledger) Close() error {
	if l.fault != nil {
		return l.book.Close(nil)
	}
	return l.book.Close(fold{l.state})
}

// KeyID names a machine key: the first 8 bytes of its BLAKE2b-256, in hex.
func KeyID(pub ed25519.PublicKey) string { return book.KeyID(pub) }

// ReadPublicKey reads a machine public key file (hex, one line): the key
// registered at commissioning.
func ReadPublicKey(path string) (ed25519.PublicKey, error) { return book.ReadPublicKey(path) }

// Since calls fn with every committed record after seq, in order (the log's
// checkpoints and seals are skipped). It reads the log, so it runs on the
// ledger's owner like every other call.
func (l *Ledger) Since(seq uint64, fn func(seq uint64, r Record) error) error {
	return l.book.Since(seq, func(r walog.Record) error {
		rec, err := Decode(Type(r.Type), r.Data)
		if err != nil {
			return &Fault{Seq: r.Seq, Err: err}
		}
		return fn(r.Seq, rec)
	})
}

// Records calls fn with every record of the ledger in dir, in order, read
// from its log read-only (the directory is not touched and no key is
// needed): the whole history, not the part a snapshot keeps.
func Records(dir string, fn func(seq uint64, r Record) error) error {
	return book.Records(dir, func(r walog.Record) error {
		rec, err := Decode(Type(r.Type), r.Data)
		if err != nil {
			return &Fault{Seq: r.Seq, Err: err}
		}
		return fn(r.Seq, rec)
	})
}

// Read folds every record of the ledger in dir from the first, in one
// read-only pass (the directory is not touched and no key is needed): the
// state as the log says it is, whatever the snapshots say. pub, when not
// nil, is the registered machine key: the checkpoints and seals must then
// verify with it. It returns the verdict with the state.
func Read(dir string, pub ed25519.PublicKey) (*State, *book.Verdict, error) {
	v, err := book.Verify(dir, Spec, pub)
	if err != nil {
		return nil, nil, err
	}
	if v.State == nil {
		return nil, v, fmt.Errorf("%s: %s", dir, strings.Join(v.Problems, "; "))
	}
	return v.State.(fold).s, v, nil
}
