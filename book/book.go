package book

import (
	"bytes"
	"crypto"
	"crypto/ed25519"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sync"

	"github.com/openegm/cabinet/book/walog"
	"github.com/openegm/cabinet/internal/atomicfile"
	"golang.org/x/crypto/blake2b"
)

// State is a ledger's fold, as the book sees it.
type State interface {
	// Apply folds one logged record (its type and payload) at start-up
	// and in verification. An error is a fault at that record. data is
	// valid only during the call: Apply keeps none of it (it decodes it).
	Apply(typ uint16, data []byte) error
	// Check verifies the invariants of the whole state.
	Check() error
	// Encode is the state's canonical encoding: a snapshot holds it and a
	// seal signs its digest, so the same state must always encode alike.
	Encode() ([]byte, error)
}

// Spec is what a ledger tells the book about itself.
type Spec struct {
	// What names the ledger in errors and reports ("cabinet ledger").
	What string
	// New returns the state of an empty ledger.
	New func() State
	// Restore decodes an encoding made by State.Encode (or by an earlier
	// build's).
	Restore func(encoded []byte) (State, error)
	// Earlier, when not nil, is the encoding an earlier build gave the
	// same state, before a field it did not have was added that the fold
	// fills from records it already held: verification accepts a seal of
	// that build when its digest is this encoding's. It must drop only
	// what that build did not encode (what is dropped is refolded from
	// the log, so it is checked all the same), and this build's encoding
	// must differ from it wherever the new field applies, so that a seal
	// of this build is held to the whole state.
	Earlier func(State) ([]byte, error)
}

// Options configure a book.
type Options struct {
	// SealEvery is how many records pass between seals (and the snapshots
	// beside them); 0 = 1000.
	SealEvery uint64
	// CheckpointEvery is how many records pass between the log's signed
	// checkpoints; 0 = the log's default.
	CheckpointEvery uint64
	// SegmentSize of the log files; 0 = SegmentSize (1 MiB).
	SegmentSize int
	// UnsafeNoSync skips fsync: only for building benchmark fixtures.
	UnsafeNoSync bool
	// Keys holds the signing key, named KeyName ("machine", "controller").
	Keys    KeyStore
	KeyName string
	// Witness keeps the log's head outside the data; nil = none.
	Witness Witness
}

// Fault is damage to the ledger or a failed write: the ledger cannot vouch
// for its state until a technician acts. Every later Append returns it.
type Fault struct {
	Seq uint64 // the log record at fault, 0 when not tied to one
	Err error
}

func (f *Fault) Error() string {
	if f.Seq > 0 {
		return fmt.Sprintf("fault at record %d: %v", f.Seq, f.Err)
	}
	return fmt.Sprintf("fault: %v", f.Err)
}

func (f *Fault) Unwrap() error { return f.Err }

// Info says what opening found.
type Info struct {
	Repaired    string // a torn last record that was cut ("" if none)
	SnapshotSeq uint64 // the record the snapshot used was folded up to (0: none)
	Replayed    uint64 // log records read after it
	// ReadFrom is the first log record start-up read and checked: 1 when
	// it read the whole log, the record after the older sealed snapshot
	// when it read only the tail (see openTail).
	ReadFrom uint64
	// WholeLog is why start-up read the whole log rather than the tail
	// ("" when it read the tail).
	WholeLog string
	LastSeq  uint64
	KeyID    string
	// Tampered lists what start-up found forged (a snapshot that is not
	// the sealed state): evidence for the owner to act on. The state
	// returned is folded without it.
	Tampered []string
	Witness  WitnessCheck
	// Unvouched is a tail of records no commit mark covered, cut from the
	// log and never folded (nil: none).
	Unvouched *walog.Unvouched
}

// Book keeps one ledger's log, seals, snapshots and witness. Its methods
// are safe for concurrent use; the ledger on top serialises its commits.
type Book struct {
	mu        sync.Mutex
	dir       string
	spec      Spec
	opts      Options
	log       *walog.Log
	key       crypto.Signer
	pub       ed25519.PublicKey
	userSeq   uint64   // the last ledger record (not a checkpoint or seal)
	hash      [32]byte // the chain hash after it
	sinceSeal uint64
	seals     uint64 // snapshots written: they alternate between two files
	fault     *Fault
	// Snapshots are written after their commit is answered (see
	// writeSnapshot): snapping is closed when the last write ended; made
	// says which of the two files exist.
	snapping chan struct{}
	made     [2]bool
	// snapSeq is the record each snapshot file holds (0: not known), for
	// the log's archive: what precedes the older is never read at start-up.
	snapSeq [2]uint64
	hold    func() // tests: called before a snapshot is written after its answer
}

// SegmentSize is the size of a ledger's log files unless Options say
// otherwise. Start-up reads only the log's tail, but tidwall/wal, opening
// the log for appending, reads its last segment whole (and indexes every
// entry in it): at tidwall's own 20 MB that was most of a start-up from
// the snapshots. A segment of 1 MiB holds about 3,000 records, about the
// tail from the older of the two snapshots, so start-up reads little more
// than it checks; the cost is a new file (and a directory fsync) every
// 1,000 games or so.
const SegmentSize = 1 << 20

// Files in a ledger directory.
const (
	LogDir     = "log"
	snapPrefix = "snapshot-"
)

// Open opens (or creates) the ledger in dir: the key from the key store,
// the log, the newest snapshot whose state is sealed, then the records
// after it, every invariant checked at the end, and the witness compared
// with the log's head. Damage the log cannot repair, and a record the fold
// refuses, are a *Fault.
func Open(dir string, spec Spec, opts Options) (*Book, State, Info, error) {
	var info Info
	if opts.SealEvery == 0 {
		opts.SealEvery = 1000
	}
	if opts.SegmentSize <= 0 {
		opts.SegmentSize = SegmentSize
	}
	if opts.Keys == nil || opts.KeyName == "" {
		return nil, nil, info, fmt.Errorf("%s: no key store", spec.What)
	}
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, nil, info, err
	}
	logDir := filepath.Join(dir, LogDir)
	existing := hasEntries(logDir)
	// The log is opened for appending on another core while the key and
	// the snapshots are read and the tail checked (see walog.Prepared);
	// when it cannot be prepared, OpenTail or Open says why.
	var prep *walog.Prepared
	if existing {
		prep, _ = walog.Prepare(logDir, walog.Options{SegmentSize: opts.SegmentSize, UnsafeNoSync: opts.UnsafeNoSync})
	}
	key, err := opts.Keys.Signer(opts.KeyName, !existing)
	if err != nil {
		prep.Close()
		return nil, nil, info, &Fault{Err: err}
	}
	pub, err := PublicKey(key)
	if err != nil {
		prep.Close()
		return nil, nil, info, &Fault{Err: err}
	}
	info.KeyID = KeyID(pub)
	b0, st0, ti, ok := openTail(dir, spec, opts, key, pub, info, prep)
	if ok {
		return b0, st0, ti, nil
	}
	info.ReadFrom, info.WholeLog = 1, ti.WholeLog
	log, li, err := walog.Open(logDir, walog.Options{Signer: key, CheckpointEvery: opts.CheckpointEvery,
		SegmentSize: opts.SegmentSize, UnsafeNoSync: opts.UnsafeNoSync, Marks: true})
	if err != nil {
		f := &Fault{Err: err}
		var wf *walog.Fault
		if errors.As(err, &wf) {
			f.Seq = wf.Seq // the damaged record
		}
		return nil, nil, info, f
	}
	b := &Book{dir: dir, spec: spec, opts: opts, log: log, key: key, pub: pub}
	if li.Repaired {
		info.Repaired = li.RepairDetail
	}
	info.Unvouched = li.Unvouched
	if u := li.Unvouched; u != nil && u.NoPowerLoss {
		info.Tampered = append(info.Tampered, fmt.Sprintf("log: %s (kept in %s/%s)", u.Detail, LogDir, u.Evidence))
	}
	st := spec.New()
	from := uint64(1)
	snap, forged, err := b.loadSnapshot()
	if err != nil {
		log.Close()
		return nil, nil, info, &Fault{Err: err}
	}
	info.Tampered = append(info.Tampered, forged...)
	if snap != nil {
		st, from = snap.state, snap.Seq+1
		b.userSeq, b.hash, b.seals = snap.Seq, snap.hash, snap.file
		info.SnapshotSeq = snap.Seq
	}
	err = log.Scan(from, func(r walog.Record) error {
		info.Replayed++
		if internal(r.Type) {
			return nil
		}
		if err := st.Apply(r.Type, r.Data); err != nil {
			return &Fault{Seq: r.Seq, Err: err}
		}
		b.userSeq, b.hash = r.Seq, r.Hash
		b.sinceSeal++
		return nil
	})
	if err == nil {
		if cerr := st.Check(); cerr != nil {
			err = &Fault{Seq: b.userSeq, Err: fmt.Errorf("after start-up: %w", cerr)}
		}
	}
	if err != nil {
		log.Close()
		var f *Fault
		if errors.As(err, &f) {
			return nil, nil, info, f
		}
		return nil, nil, info, &Fault{Err: err}
	}
	info.LastSeq = log.LastSeq()
	info.Witness = b.checkWitness()
	if info.LastSeq == 0 && (info.Witness.Status == WitnessOK || info.Witness.Status == WitnessNone) {
		// A new ledger starts with a mark, so that it is never a log
		// written before marks, whose tail is taken as it is.
		if err := b.commit(nil, nil); err != nil {
			log.Close()
			return nil, nil, info, err
		}
		if err := b.WriteWitness(); err != nil {
			log.Close()
			return nil, nil, info, &Fault{Seq: b.log.LastSeq(), Err: err}
		}
		info.LastSeq = log.LastSeq()
		info.Witness.Log = b.Head()
		info.Witness.Witness = info.Witness.Log
	}
	return b, st, info, nil
}

// hasEntries says whether dir holds anything, reading one name of it (a
// log of 10^6 games has hundreds of segment files).
func hasEntries(dir string) bool {
	f, err := os.Open(dir)
	if err != nil {
		return false
	}
	defer f.Close()
	names, _ := f.Readdirnames(1)
	return len(names) > 0
}

// internal says whether a log record is the log's or the book's own (a
// checkpoint, a mark, a seal) rather than a ledger record.
func internal(typ uint16) bool {
	return typ == walog.TypeCheckpoint || typ == walog.TypeMark || typ == TypeSeal
}

// checkWitness compares the log's head with the witness.
func (b *Book) checkWitness() WitnessCheck {
	c := WitnessCheck{Log: Head{Seq: b.log.LastSeq(), Hash: b.log.LastHash()}}
	if b.opts.Witness == nil {
		return c
	}
	w, err := b.opts.Witness.Read()
	if err != nil {
		c.Status, c.Detail = WitnessEmpty, "the witness cannot be read: "+err.Error()
		return c
	}
	c.Witness = w
	switch {
	case w.Seq == 0 && c.Log.Seq == 0:
		c.Status = WitnessOK
	case w.Seq == 0 && c.Log.Seq == 1 && b.log.Marks()[0] == 1:
		// A new ledger's first mark, the power lost before its witness.
		c.Status = WitnessOK
	case w.Seq == 0:
		c.Status, c.Detail = WitnessEmpty, fmt.Sprintf("the witness is empty, the log ends at %v", c.Log)
	case w.Seq > c.Log.Seq:
		c.Status, c.Detail = WitnessAhead, fmt.Sprintf("the log ends at %v, before the witnessed %v: the data is an older copy (rollback)", c.Log, w)
	default:
		r, err := b.log.Read(w.Seq)
		marks := b.log.Marks()
		switch {
		case err != nil || r.Hash != w.Hash:
			c.Status, c.Detail = WitnessDiffers, fmt.Sprintf("the log's record %d is not the witnessed %v: the data was replaced", w.Seq, w)
		case marks[0] != 0 && marks[1] != 0 && w.Seq != marks[0] && w.Seq != marks[1]:
			// Since marks, the witness names a commit's mark: the last, or
			// the one before when the power failed between a commit and its
			// witness.
			c.Status, c.Detail = WitnessBehind, fmt.Sprintf("the witness names %v, not the log's last commit (mark at record %d) nor the one before (%d): an older board or witness", w, marks[0], marks[1])
		case marks[0] != 0 && marks[1] != 0:
			c.Status = WitnessOK
		case c.Log.Seq-w.Seq > witnessSlack:
			c.Status, c.Detail = WitnessBehind, fmt.Sprintf("the witness names %v, %d records before the log's end %v (an older board or witness)", w, c.Log.Seq-w.Seq, c.Log)
		default:
			c.Status = WitnessOK
		}
	}
	return c
}

// Entry is one ledger record of a commit.
type Entry = walog.Entry

// Append commits one ledger record; after is the ledger's state with the
// record folded in, sealed (and snapshotted) when a seal falls due. A
// record whose commit failed may or may not be in the reopened log, whole
// with its mark or not at all; one that returns a Seq is durable even with
// an error (the checkpoint's side file after it failed).
func (b *Book) Append(typ uint16, data []byte, after State) (walog.Record, error) {
	recs, err := b.Commit([]Entry{{Type: typ, Data: data}}, after)
	if len(recs) == 0 {
		return walog.Record{}, err
	}
	return recs[0], err
}

// Commit logs ledger records as one commit: written with the seal that
// falls due after them and the board's signed mark, with one fsync, all or
// none. after is the ledger's state with every record folded in.
func (b *Book) Commit(entries []Entry, after State) ([]walog.Record, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.fault != nil {
		return nil, b.fault
	}
	for _, e := range entries {
		if internal(e.Type) {
			return nil, fmt.Errorf("%s: record type 0x%04X is the log's or the book's own", b.spec.What, e.Type)
		}
	}
	return b.commitLocked(entries, after, false)
}

// commit is Commit for Open (a new ledger's first mark).
func (b *Book) commit(entries []Entry, after State) error {
	b.mu.Lock()
	defer b.mu.Unlock()
	_, err := b.commitLocked(entries, after, false)
	return err
}

// commitLocked writes one commit; sealNow seals whatever the count since
// the last seal (Close).
func (b *Book) commitLocked(entries []Entry, after State, sealNow bool) ([]walog.Record, error) {
	batch, err := b.log.Begin()
	if err != nil {
		b.fault = &Fault{Seq: b.log.LastSeq() + 1, Err: err}
		return nil, b.fault
	}
	userSeq, hash, since := b.userSeq, b.hash, b.sinceSeal
	for _, e := range entries {
		rec, err := batch.Add(e.Type, e.Data)
		if err != nil {
			batch.Abort()
			return nil, fmt.Errorf("%s: %w", b.spec.What, err)
		}
		userSeq, hash = rec.Seq, rec.Hash
		since++
	}
	var snap []byte
	var sealSeq uint64
	if (sealNow || since >= b.opts.SealEvery) && userSeq != 0 && after != nil {
		enc, err := after.Encode()
		if err != nil {
			batch.Abort()
			b.fault = &Fault{Seq: userSeq, Err: fmt.Errorf("encoding the state to seal: %w", err)}
			return nil, b.fault
		}
		_, data, err := makeSeal(b.key, userSeq, hash, Digest(enc))
		if err != nil {
			batch.Abort()
			b.fault = &Fault{Seq: userSeq, Err: err}
			return nil, b.fault
		}
		sr, err := batch.Add(TypeSeal, data)
		if err != nil {
			batch.Abort()
			return nil, fmt.Errorf("%s: %w", b.spec.What, err)
		}
		snap, sealSeq, since = enc, sr.Seq, 0
	}
	recs, err := batch.Commit()
	if len(recs) > len(entries) {
		recs = recs[:len(entries)] // the seal is the book's
	}
	if (err == nil || len(recs) > 0) && len(recs) == len(entries) {
		b.userSeq, b.hash, b.sinceSeal = userSeq, hash, since
	}
	if err != nil {
		b.fault = &Fault{Seq: b.log.LastSeq() + 1, Err: err}
		if len(recs) > 0 {
			b.fault.Seq = recs[len(recs)-1].Seq
		}
		return recs, b.fault
	}
	if snap != nil {
		b.writeSnapshot(userSeq, hash, sealSeq, snap, sealNow)
	}
	return recs, nil
}

// writeSnapshot writes the sealed state beside the log, over the older of
// two files, so a crash while writing leaves the newer one whole. A
// snapshot that is not written only slows the next start-up.
//
// It is written in place and, while the machine plays, without fsync: it
// is derived from the log, whose seal is durable before it, and checked
// whole (its checksum) and vouched for by that seal before any start-up
// uses it. A power loss that tears it or keeps the file's older state
// costs the next start-up a longer tail, never a meter. Its two fsyncs
// and rename were the slowest commit in a thousand (issue 26). Close's
// (durable) is synced: the power goes off after it.
//
// Once both files exist, a snapshot is encoded and written on a goroutine
// of its own after the commit that sealed it is answered (it only slows a
// start-up, never holds money). The next snapshot and Close wait for it.
// It creates no directory entry then, so a caller that never closes the
// book leaves no file being created behind it.
func (b *Book) writeSnapshot(seq uint64, hash [32]byte, sealSeq uint64, enc []byte, durable bool) {
	b.waitSnapshot()
	b.archive()
	b.seals++
	i := b.seals % 2
	path := filepath.Join(b.dir, fmt.Sprintf("%s%d", snapPrefix, i))
	write := func() error {
		body, err := json.Marshal(snapshotFile{Seq: seq, Hash: hex.EncodeToString(hash[:]), SealSeq: sealSeq, State: enc})
		if err == nil {
			sum := blake2b.Sum256(body)
			err = writeInPlace(path, append(sum[:], body...), durable)
		}
		b.snapSeq[i] = 0
		if err == nil {
			b.snapSeq[i] = seq
		}
		return err
	}
	if !b.made[i] {
		_, err := os.Stat(path)
		b.made[i] = err == nil
	}
	if durable || !b.made[i] {
		b.made[i] = write() == nil
		return
	}
	done, hold := make(chan struct{}), b.hold
	b.snapping = done
	go func() {
		defer close(done)
		if hold != nil {
			hold()
		}
		_ = write()
	}()
}

// archive moves the log's segments before the older of the two snapshots
// on file to its archive (walog.Archive), before the next is written over
// it: a start-up from the snapshots reads the log from the older on, and
// tidwall/wal, opening it, then stats only the segments from there. It
// runs in the commit that seals, b.mu held, so that no move is under way
// between two commits. A snapshot lost to a power cut (it is written
// without fsync) leaves the file's earlier one or a torn one: start-up
// then reads from the archive, or the whole log. A failed move only leaves
// segments where they were.
func (b *Book) archive() {
	if older := min(b.snapSeq[0], b.snapSeq[1]); older > 0 {
		_, _ = b.log.Archive(older)
	}
}

// waitSnapshot waits for the snapshot being written, b.mu held.
func (b *Book) waitSnapshot() {
	if b.snapping != nil {
		<-b.snapping
		b.snapping = nil
	}
}

// writeInPlace overwrites path with data, the file cut to its length
// (durable: synced, with its directory entry).
func writeInPlace(path string, data []byte, durable bool) error {
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE, 0o600)
	if err != nil {
		return err
	}
	if _, err = f.WriteAt(data, 0); err == nil {
		err = f.Truncate(int64(len(data)))
	}
	if err == nil && durable {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil && durable {
		err = atomicfile.SyncDir(filepath.Dir(path)) // the file may be new
	}
	return err
}

// WriteWitness records the log's head in the witness: the ledger calls it
// after each commit. A witness that cannot be written is a fault of the
// machine's critical memory.
func (b *Book) WriteWitness() error {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.opts.Witness == nil {
		return nil
	}
	// Seq and hash read together: with group commit a write may end
	// between two reads.
	seq, hash := b.log.Head()
	if err := b.opts.Witness.Write(Head{Seq: seq, Hash: hash}); err != nil {
		return fmt.Errorf("%s: writing the witness: %w", b.spec.What, err)
	}
	return nil
}

// Head is the log's head now.
func (b *Book) Head() Head {
	b.mu.Lock()
	defer b.mu.Unlock()
	seq, hash := b.log.Head()
	return Head{Seq: seq, Hash: hash}
}

// LastSeq is the sequence number of the last ledger record.
func (b *Book) LastSeq() uint64 {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.userSeq
}

// Fault is the fault that stopped the book, or nil.
func (b *Book) Fault() error {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.fault == nil {
		return nil
	}
	return b.fault
}

// Since calls fn with every ledger record after seq, in order (checkpoints
// and seals are skipped).
func (b *Book) Since(seq uint64, fn func(r walog.Record) error) error {
	return b.log.Scan(seq+1, func(r walog.Record) error {
		if internal(r.Type) {
			return nil
		}
		return fn(r)
	})
}

// PublicKey is the key that signs the log; it is registered at
// commissioning.
func (b *Book) PublicKey() ed25519.PublicKey { return b.pub }

// Sign returns the signature file of a document signed with the ledger's
// key (the report a machine exports).
func (b *Book) Sign(doc []byte) ([]byte, error) { return SignDocument(b.key, doc) }

// Close seals the state (with its snapshot) when records were logged since
// the last seal, and closes the log with a signed checkpoint.
func (b *Book) Close(final State) error {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.fault == nil && b.sinceSeal > 0 && final != nil {
		_, _ = b.commitLocked(nil, final, true) // the commit holds the seal alone
	}
	b.waitSnapshot()
	err := b.log.Close()
	if b.opts.Witness != nil && b.fault == nil {
		if werr := b.opts.Witness.Write(Head{Seq: b.log.LastSeq(), Hash: b.log.LastHash()}); err == nil {
			err = werr
		}
	}
	return err
}

// snapshotFile is what a snapshot file holds after its checksum.
type snapshotFile struct {
	Seq     uint64          `json:"seq"`      // the ledger record the state is folded up to
	Hash    string          `json:"hash"`     // the chain hash after it, hex
	SealSeq uint64          `json:"seal_seq"` // the seal that vouches for the state
	State   json.RawMessage `json:"state"`
}

type snapshot struct {
	snapshotFile
	state State
	hash  [32]byte
	file  uint64
}

// readSnapshot reads snapshot file i: nil when missing or torn (its
// checksum does not hold).
func readSnapshot(dir string, i int) *snapshot {
	data, err := os.ReadFile(filepath.Join(dir, fmt.Sprintf("%s%d", snapPrefix, i)))
	if err != nil || len(data) < 32 {
		return nil
	}
	sum := blake2b.Sum256(data[32:])
	if !bytes.Equal(sum[:], data[:32]) {
		return nil
	}
	var s snapshot
	if f, ok := parseSnapshotFile(data[32:]); ok {
		s.snapshotFile = f
	} else if json.Unmarshal(data[32:], &s.snapshotFile) != nil {
		return nil
	}
	h, err := hex.DecodeString(s.Hash)
	if err != nil || len(h) != 32 || s.Seq == 0 {
		return nil
	}
	copy(s.hash[:], h)
	s.file = uint64(i)
	return &s
}

// vouch checks a snapshot against the log: its record and chain hash, and
// the seal that signs the digest of its state. It returns why the log does
// not vouch for it ("" when it does).
func vouch(log *walog.Log, pub ed25519.PublicKey, s *snapshot) string {
	if s.Seq > log.LastSeq() || s.SealSeq > log.LastSeq() {
		return fmt.Sprintf("it covers record %d, sealed at %d, but the log ends at %d", s.Seq, s.SealSeq, log.LastSeq())
	}
	rec, err := log.Read(s.Seq)
	if err != nil || rec.Hash != s.hash || internal(rec.Type) {
		return fmt.Sprintf("its chain hash at record %d is not the log's", s.Seq)
	}
	sr, err := log.Read(s.SealSeq)
	if err != nil || sr.Type != TypeSeal {
		return fmt.Sprintf("record %d is not a seal", s.SealSeq)
	}
	seal, err := ParseSeal(sr.Data)
	if err != nil {
		return fmt.Sprintf("seal at record %d: %v", s.SealSeq, err)
	}
	if err := seal.Verify(pub); err != nil {
		return err.Error()
	}
	if seal.Seq != s.Seq || seal.Hash != s.hash {
		return fmt.Sprintf("the seal at record %d is of record %d, not %d", s.SealSeq, seal.Seq, s.Seq)
	}
	if Digest(s.State) != seal.Digest {
		return fmt.Sprintf("its state is not the one the seal at record %d signed", s.SealSeq)
	}
	return ""
}

// loadSnapshot returns the newest snapshot the log vouches for. A whole
// snapshot (checksum right) that the log does not vouch for is forged:
// it is named in forged and not used.
func (b *Book) loadSnapshot() (best *snapshot, forged []string, err error) {
	for i := range 2 {
		s := readSnapshot(b.dir, i)
		if s == nil {
			continue
		}
		if why := vouch(b.log, b.pub, s); why != "" {
			forged = append(forged, fmt.Sprintf("%s%d is not vouched for by the log: %s", snapPrefix, i, why))
			continue
		}
		st, err := b.spec.Restore(s.State)
		if err != nil {
			forged = append(forged, fmt.Sprintf("%s%d: sealed, yet its state does not decode: %v", snapPrefix, i, err))
			continue
		}
		s.state = st
		b.snapSeq[i] = s.Seq
		if best == nil || s.Seq > best.Seq {
			best = s
		}
	}
	return best, forged, nil
}
