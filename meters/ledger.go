package meters

import (
	"bytes"
	"crypto/ed25519"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"github.com/openegm/cabinet/internal/atomicfile"
	"github.com/openegm/cabinet/meters/walog"
	"golang.org/x/crypto/blake2b"
)

// Options configure a ledger.
type Options struct {
	// SnapshotEvery is how many records pass between snapshots; 0 = 1000.
	SnapshotEvery uint64
	// CheckpointEvery is how many records pass between signed checkpoints;
	// 0 = the log's default.
	CheckpointEvery uint64
	// SegmentSize of the log files; 0 = the log's default.
	SegmentSize int
	// UnsafeNoSync skips fsync: only for building benchmark fixtures.
	UnsafeNoSync bool
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
	Repaired     string // non-empty when a torn last record was discarded
	SnapshotSeq  uint64 // the snapshot start-up began from (0 = none)
	Replayed     uint64 // records folded after it
	LastSeq      uint64
	MachineKeyID string
}

// Ledger is the durable meter ledger. Commit is the only way anything that
// matters changes; it returns once the record is on disk (DESIGN rule 1).
// A Ledger is not safe for concurrent use: the machine's owner goroutine
// holds it.
type Ledger struct {
	dir       string
	opts      Options
	log       *walog.Log
	state     *State
	seq       uint64
	hash      [32]byte // the log's chain hash after record seq
	sinceSnap uint64
	fault     error
	pub       ed25519.PublicKey
	priv      ed25519.PrivateKey
}

const (
	logDir     = "log"
	keyFile    = "machine.key"
	pubFile    = "machine.pub"
	snapPrefix = "snapshot-"
)

// Open opens (or creates) the ledger in dir: the log, the machine key, the
// newest valid snapshot, then the records after it. Any damage other than a
// torn last record, and any record that breaks an invariant, is a *Fault.
func Open(dir string, opts Options) (*Ledger, OpenInfo, error) {
	var info OpenInfo
	if opts.SnapshotEvery == 0 {
		opts.SnapshotEvery = 1000
	}
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, info, err
	}
	priv, err := machineKey(dir)
	if err != nil {
		return nil, info, err
	}
	pub := priv.Public().(ed25519.PublicKey)
	info.MachineKeyID = KeyID(pub)
	log, li, err := walog.Open(filepath.Join(dir, logDir), walog.Options{
		Signer: priv, CheckpointEvery: opts.CheckpointEvery, SegmentSize: opts.SegmentSize,
		UnsafeNoSync: opts.UnsafeNoSync,
	})
	if err != nil {
		return nil, info, &Fault{Err: err}
	}
	l := &Ledger{dir: dir, opts: opts, log: log, state: NewState(), pub: pub, priv: priv}
	if li.Repaired {
		info.Repaired = li.RepairDetail
	}
	snap, err := l.loadSnapshot()
	if err != nil {
		log.Close()
		return nil, info, &Fault{Err: err}
	}
	if snap != nil {
		// The invariants are checked at every start-up (DESIGN rule 3), also
		// when no record follows the snapshot to be folded and checked: its
		// checksum proves it whole, not lawful.
		if err := snap.State.Check(); err != nil {
			log.Close()
			return nil, info, &Fault{Seq: snap.Seq, Err: fmt.Errorf("snapshot of record %d: %w", snap.Seq, err)}
		}
		l.state, l.seq = snap.State, snap.Seq
		copy(l.hash[:], snap.hashBytes())
		info.SnapshotSeq = snap.Seq
	}
	err = log.Scan(l.seq+1, func(r walog.Record) error {
		if err := l.fold(r); err != nil {
			return err
		}
		info.Replayed++
		return nil
	})
	if err != nil {
		log.Close()
		var f *Fault
		if errors.As(err, &f) {
			return nil, info, f
		}
		return nil, info, &Fault{Err: err}
	}
	info.LastSeq = l.seq
	if info.Repaired != "" {
		// The repair itself is evidence: it goes into the event log.
		if err := l.Commit(Event{Code: EventLogRepaired, Detail: info.Repaired}); err != nil {
			l.Close()
			return nil, info, err
		}
	}
	return l, info, nil
}

// fold applies one log record during start-up.
func (l *Ledger) fold(r walog.Record) error {
	l.seq, l.hash = r.Seq, r.Hash
	if r.Type == walog.TypeCheckpoint {
		return nil
	}
	rec, err := Decode(Type(r.Type), r.Data)
	if err != nil {
		return &Fault{Seq: r.Seq, Err: err}
	}
	if err := l.state.Apply(rec); err != nil {
		return &Fault{Seq: r.Seq, Err: err}
	}
	return nil
}

// Commit makes records durable and folds them into the meters, one by one,
// each synced before the next. A record that breaks an invariant, or a write
// that fails, is a meter fault: nothing more is accepted on this handle, and
// what was committed before stays committed.
func (l *Ledger) Commit(recs ...Record) error {
	_, err := l.CommitN(recs...)
	return err
}

// CommitN is Commit that also says how many of recs are durable when it
// fails part way (they are the first n).
func (l *Ledger) CommitN(recs ...Record) (n int, err error) {
	for i, r := range recs {
		n = i
		if l.fault != nil {
			return n, l.fault
		}
		next, err := l.state.Next(r)
		if err != nil {
			l.fault = &Fault{Seq: l.log.LastSeq() + 1, Err: fmt.Errorf("%v refused: %w", r.Type(), err)}
			return n, l.fault
		}
		data, err := Encode(r)
		if err != nil {
			l.fault = &Fault{Seq: l.log.LastSeq() + 1, Err: err}
			return n, l.fault
		}
		wr, err := l.log.Append(uint16(r.Type()), data)
		if wr.Seq != 0 {
			// Durable, even if the log faulted right after it (a checkpoint
			// that failed): the state must show it, as the next start-up will.
			l.state, l.seq, l.hash = next, wr.Seq, wr.Hash
			n = i + 1
		}
		if err != nil {
			l.fault = &Fault{Seq: l.log.LastSeq() + 1, Err: err}
			return n, l.fault
		}
		l.sinceSnap++
		if l.sinceSnap >= l.opts.SnapshotEvery {
			if err := l.writeSnapshot(); err != nil {
				// The log is the evidence; a failed snapshot only slows the
				// next start-up, so it is not a meter fault.
				l.sinceSnap = 0
			}
		}
	}
	return len(recs), nil
}

// Fault returns the meter fault that stopped the ledger, or nil.
func (l *Ledger) Fault() error { return l.fault }

// State returns a copy of the folded state (meters and history).
func (l *Ledger) State() *State { return l.state.Clone() }

// Meter returns one meter.
func (l *Ledger) Meter(m Meter) int64 { return l.state.Meters[m] }

// LastSeq is the sequence number of the last committed record.
func (l *Ledger) LastSeq() uint64 { return l.seq }

// PublicKey is the machine key that signs the log's checkpoints; the
// inspector records it at commissioning to verify the log later.
func (l *Ledger) PublicKey() ed25519.PublicKey { return l.pub }

// Sign signs a document (the inspector's report exported on the machine)
// with the machine key, whose public half the inspector recorded.
func (l *Ledger) Sign(doc []byte) []byte { return ed25519.Sign(l.priv, doc) }

// Close writes a snapshot and closes the log with a signed checkpoint.
func (l *Ledger) Close() error {
	if l.fault == nil {
		l.writeSnapshot()
	}
	return l.log.Close()
}

// KeyID names a machine key: the first 8 bytes of its BLAKE2b-256, in hex.
func KeyID(pub ed25519.PublicKey) string { return walog.KeyID(pub) }

// machineKey loads the machine's checkpoint key, creating it on first use.
func machineKey(dir string) (ed25519.PrivateKey, error) {
	priv, err := walog.LoadOrCreateKey(filepath.Join(dir, keyFile), filepath.Join(dir, pubFile), filepath.Join(dir, logDir), "machine key")
	if errors.Is(err, walog.ErrKey) {
		return nil, &Fault{Err: err}
	}
	return priv, err
}

// ReadPublicKey reads a machine public key file (machine.pub: hex, one line).
func ReadPublicKey(path string) (ed25519.PublicKey, error) {
	return walog.ReadPublicKey(path, "machine")
}

// snapshot is what a snapshot file holds after its checksum.
type snapshot struct {
	Seq   uint64 `json:"seq"`
	Hash  string `json:"hash"` // the log's chain hash at Seq, hex
	State *State `json:"state"`
}

// writeSnapshot writes the older of the two snapshot files, so a crash while
// writing always leaves the newer one intact.
func (l *Ledger) writeSnapshot() error {
	l.sinceSnap = 0
	if l.seq == 0 {
		return nil
	}
	// The hash of record seq itself: the log's last hash may already be that
	// of a checkpoint written after it.
	body, err := json.Marshal(snapshot{Seq: l.seq, Hash: hex.EncodeToString(l.hash[:]), State: l.state})
	if err != nil {
		return err
	}
	sum := blake2b.Sum256(body)
	name := fmt.Sprintf("%s%d", snapPrefix, (l.seq/l.opts.SnapshotEvery)%2)
	return writeAtomic(l.dir, name, append(sum[:], body...), 0o600)
}

func (s *snapshot) hashBytes() []byte {
	b, _ := hex.DecodeString(s.Hash)
	return b
}

// loadSnapshot returns the newest snapshot whose checksum holds (a torn one
// is ignored). A whole snapshot that the log does not vouch for — it covers
// records the log no longer has, or its chain hash differs — means the log
// lost or changed committed records: that is an error, not a reason to
// start over from an empty fold.
func (l *Ledger) loadSnapshot() (*snapshot, error) {
	var best *snapshot
	for i := range 2 {
		data, err := os.ReadFile(filepath.Join(l.dir, fmt.Sprintf("%s%d", snapPrefix, i)))
		if err != nil || len(data) < 32 {
			continue
		}
		sum := blake2b.Sum256(data[32:])
		if !bytes.Equal(sum[:], data[:32]) {
			continue
		}
		var s snapshot
		if json.Unmarshal(data[32:], &s) != nil || s.State == nil || len(s.State.BillCounts) != len(BillValues) {
			continue
		}
		if s.Seq > l.log.LastSeq() {
			return nil, fmt.Errorf("snapshot %d covers record %d, but the log ends at %d: committed records are missing", i, s.Seq, l.log.LastSeq())
		}
		rec, err := l.log.Read(s.Seq)
		if err != nil {
			return nil, fmt.Errorf("snapshot %d: %w", i, err)
		}
		if hex.EncodeToString(rec.Hash[:]) != s.Hash {
			return nil, fmt.Errorf("snapshot %d disagrees with the log's chain hash at record %d", i, s.Seq)
		}
		if best == nil || s.Seq > best.Seq {
			best = &s
		}
	}
	return best, nil
}

// writeAtomic replaces dir/name durably (see internal/atomicfile).
func writeAtomic(dir, name string, data []byte, mode os.FileMode) error {
	return atomicfile.Write(filepath.Join(dir, name), data, mode)
}

// Since calls fn with every committed record after seq, in order (the log's
// checkpoint records are skipped). It reads the log, so it runs on the
// ledger's owner like every other call.
func (l *Ledger) Since(seq uint64, fn func(seq uint64, r Record) error) error {
	return l.log.Scan(seq+1, func(r walog.Record) error {
		if r.Type == walog.TypeCheckpoint {
			return nil
		}
		rec, err := Decode(Type(r.Type), r.Data)
		if err != nil {
			return &Fault{Seq: r.Seq, Err: err}
		}
		return fn(r.Seq, rec)
	})
}
