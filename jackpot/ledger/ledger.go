package ledger

import (
	"bytes"
	"crypto/ed25519"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"time"

	"github.com/openegm/cabinet/internal/atomicfile"
	"github.com/openegm/cabinet/meters/walog"
	"golang.org/x/crypto/blake2b"
)

// Files in a ledger directory.
const (
	LogDir     = "log"            // the walog
	KeyFile    = "controller.key" // Ed25519 seed, 32 bytes, mode 0600
	PubFile    = "controller.pub" // its public key, hex, one line
	snapPrefix = "snapshot-"
)

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
}

// OpenInfo says what opening the ledger found.
type OpenInfo struct {
	Repaired    string // non-empty when a torn last record was discarded
	SnapshotSeq uint64 // the snapshot start-up began from (0 = none)
	Replayed    uint64 // log records folded after it
	LastSeq     uint64
	KeyID       string // the controller key that signs the checkpoints
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
	mu        sync.Mutex
	dir       string
	opts      Options
	log       *walog.Log
	state     *State
	seq       uint64   // last log record folded (checkpoints included)
	hash      [32]byte // chain hash after the last user record folded
	userSeq   uint64   // last user record (what the hash is of)
	sinceSnap uint64
	snaps     uint64 // snapshots written: they alternate between two files
	fault     *Fault
	closed    bool
	pub       ed25519.PublicKey
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
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, info, err
	}
	priv, err := controllerKey(dir)
	if err != nil {
		return nil, info, err
	}
	pub := priv.Public().(ed25519.PublicKey)
	info.KeyID = KeyID(pub)
	log, li, err := walog.Open(filepath.Join(dir, LogDir), walog.Options{
		Signer: priv, CheckpointEvery: opts.CheckpointEvery, SegmentSize: opts.SegmentSize, UnsafeNoSync: opts.UnsafeNoSync,
	})
	if err != nil {
		return nil, info, asFault(err, 0, -1)
	}
	l := &Ledger{dir: dir, opts: opts, log: log, state: NewState(), pub: pub}
	if li.Repaired {
		info.Repaired = li.RepairDetail
	}
	snap, err := l.loadSnapshot()
	if err != nil {
		log.Close()
		return nil, info, &Fault{Entry: -1, Err: err}
	}
	if snap != nil {
		l.state, l.seq, l.userSeq, l.hash = snap.state, snap.Seq, snap.Seq, snap.hash
		l.snaps = snap.file // the next snapshot goes to the other file
		info.SnapshotSeq = snap.Seq
	}
	err = log.Scan(l.seq+1, func(r walog.Record) error {
		info.Replayed++
		return l.replay(r)
	})
	if err == nil {
		if cerr := l.state.Check(); cerr != nil {
			err = &Fault{Seq: l.userSeq, Entry: -1, Err: fmt.Errorf("after start-up: %w", cerr)}
		}
	}
	if err != nil {
		log.Close()
		return nil, info, asFault(err, 0, -1)
	}
	info.LastSeq = log.LastSeq()
	if info.Repaired != "" {
		// The repair itself is evidence: it goes into the log.
		if _, err := l.Commit(Event{At: opts.Now(), Code: EventLogRepaired, Detail: clip(info.Repaired, MaxWhyLen)}); err != nil {
			l.Close()
			return nil, info, err
		}
		info.LastSeq = log.LastSeq()
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
		return f
	}
	var wf *walog.Fault
	if errors.As(err, &wf) {
		return &Fault{Seq: wf.Seq, Entry: -1, Err: err}
	}
	return &Fault{Seq: seq, Entry: entry, Err: err}
}

// replay folds one log record at start-up.
func (l *Ledger) replay(r walog.Record) error {
	l.seq = r.Seq
	if r.Type == walog.TypeCheckpoint {
		return nil
	}
	recs, err := Decode(Type(r.Type), r.Data)
	if err != nil {
		return &Fault{Seq: r.Seq, Entry: -1, Err: err}
	}
	if err := foldLogged(l.state, Type(r.Type), recs, nil); err != nil {
		err.Seq = r.Seq
		return err
	}
	l.userSeq, l.hash = r.Seq, r.Hash
	return nil
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
	wr, err := l.log.Append(uint16(typ), data)
	if wr.Seq == 0 {
		// Not durable: the state stays as it was, and the log is unfit for
		// more writes.
		t.rollback()
		l.fault = asFault(err, l.log.LastSeq()+1, -1)
		return nil, l.fault
	}
	l.userSeq, l.hash = wr.Seq, wr.Hash
	l.seq = l.log.LastSeq()
	for i := range out {
		if !out[i].Repeat {
			out[i].Seq = wr.Seq
		}
	}
	if err != nil {
		// Durable, but the checkpoint after it failed: the state shows the
		// record (as the next start-up will), and the ledger stops.
		l.fault = asFault(err, wr.Seq, -1)
		return out, l.fault
	}
	l.sinceSnap++
	if l.sinceSnap >= l.opts.SnapshotEvery {
		// A failed snapshot only slows the next start-up.
		_ = l.writeSnapshot()
	}
	return out, nil
}

// refuse returns the error for a record the fold did not take: a
// *Refused, or, when the fold found an invariant broken (a defect, not bad
// input), a *Fault that stops the ledger (DESIGN rule 3). The state is the
// last durable one either way.
func (l *Ledger) refuse(index int, typ Type, err error) error {
	if errors.Is(err, ErrInvariant) {
		l.fault = &Fault{Seq: l.log.LastSeq() + 1, Entry: index, Err: err}
		return l.fault
	}
	return &Refused{Index: index, Type: typ, Err: err}
}

// State returns an independent copy of the folded state.
func (l *Ledger) State() *State {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.state.Clone()
}

// View calls fn with the live state, under the ledger's lock: for cheap
// reads (one machine, the pending awards) without copying everything. fn
// must not keep s or change it.
func (l *Ledger) View(fn func(s *State)) {
	l.mu.Lock()
	defer l.mu.Unlock()
	fn(l.state)
}

// LastSeq is the seq of the last log record (checkpoints included).
func (l *Ledger) LastSeq() uint64 {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.seq
}

// PublicKey is the controller key that signs the log's checkpoints; the
// inspector records it at commissioning to verify the log later.
func (l *Ledger) PublicKey() ed25519.PublicKey { return l.pub }

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
	if l.fault == nil && l.sinceSnap > 0 {
		_ = l.writeSnapshot()
	}
	return l.log.Close()
}

// KeyID names a controller key: the first 8 bytes of its BLAKE2b-256, in
// hex (the same definition as meters.KeyID for machine keys).
func KeyID(pub ed25519.PublicKey) string { return walog.KeyID(pub) }

// controllerKey loads the key that signs the log's checkpoints, creating it
// on first use, as the cabinet does with its machine key.
func controllerKey(dir string) (ed25519.PrivateKey, error) {
	priv, err := walog.LoadOrCreateKey(filepath.Join(dir, KeyFile), filepath.Join(dir, PubFile), filepath.Join(dir, LogDir), "controller key")
	if errors.Is(err, walog.ErrKey) {
		return nil, &Fault{Entry: -1, Err: err}
	}
	return priv, err
}

// ReadPublicKey reads a controller public key file (controller.pub: hex,
// one line).
func ReadPublicKey(path string) (ed25519.PublicKey, error) {
	return walog.ReadPublicKey(path, "controller")
}

// snapshot is what a snapshot file holds after its checksum.
type snapshot struct {
	Seq   uint64          `json:"seq"`  // the user record the state is folded up to
	Hash  string          `json:"hash"` // the log's chain hash after it, hex
	State json.RawMessage `json:"state"`

	state *State
	hash  [32]byte
	file  uint64 // which of the two files
}

// writeSnapshot writes the older of two snapshot files, so a crash while
// writing always leaves the newer one whole.
func (l *Ledger) writeSnapshot() error {
	l.sinceSnap = 0
	if l.userSeq == 0 {
		return nil
	}
	st, err := json.Marshal(l.state)
	if err != nil {
		return err
	}
	body, err := json.Marshal(snapshot{Seq: l.userSeq, Hash: hex.EncodeToString(l.hash[:]), State: st})
	if err != nil {
		return err
	}
	sum := blake2b.Sum256(body)
	l.snaps++
	name := fmt.Sprintf("%s%d", snapPrefix, l.snaps%2)
	return atomicfile.Write(filepath.Join(l.dir, name), append(sum[:], body...), 0o600)
}

// loadSnapshot returns the newest snapshot whose checksum holds and whose
// state decodes and passes Check (a torn or unreadable one is ignored). A
// whole snapshot the log does not vouch for — it covers records the log no
// longer has, or its chain hash differs — means the log lost or changed
// committed records: that is an error, not a reason to start from an empty
// fold.
func (l *Ledger) loadSnapshot() (*snapshot, error) {
	var best *snapshot
	for i := range 2 {
		name := fmt.Sprintf("%s%d", snapPrefix, i)
		data, err := os.ReadFile(filepath.Join(l.dir, name))
		if err != nil || len(data) < 32 {
			continue
		}
		sum := blake2b.Sum256(data[32:])
		if !bytes.Equal(sum[:], data[:32]) {
			continue
		}
		var s snapshot
		if json.Unmarshal(data[32:], &s) != nil {
			continue
		}
		h, err := hex.DecodeString(s.Hash)
		if err != nil || len(h) != 32 || s.Seq == 0 {
			continue
		}
		copy(s.hash[:], h)
		s.file = uint64(i)
		s.state = NewState()
		if err := json.Unmarshal(s.State, s.state); err != nil {
			continue
		}
		if s.Seq > l.log.LastSeq() {
			return nil, fmt.Errorf("%s covers record %d, but the log ends at %d: committed records are missing", name, s.Seq, l.log.LastSeq())
		}
		rec, err := l.log.Read(s.Seq)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", name, err)
		}
		if rec.Hash != s.hash || rec.Type == walog.TypeCheckpoint {
			return nil, fmt.Errorf("%s disagrees with the log's chain hash at record %d", name, s.Seq)
		}
		if best == nil || s.Seq > best.Seq {
			best = &s
		}
	}
	return best, nil
}

// Report is the accounting report of the committed state (State.Report).
func (l *Ledger) Report() (*Report, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.state.Report()
}
