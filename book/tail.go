package book

import (
	"bytes"
	"crypto"
	"crypto/ed25519"
	"errors"
	"fmt"
	"path/filepath"
	"sort"
	"strconv"

	"github.com/openegm/cabinet/book/walog"
)

// Start-up from the sealed snapshots reads the log from the older of the
// two snapshots on: the records after it are checked as Open checks every
// record (frame, chain continuing from the hash the seal names, commit
// marks, checkpoints, the side file), both snapshots' seals are among them
// and must hold, and only the records after the newer are folded. What it
// does not read is what no money depends on: the records before the older
// snapshot, whose fold is the sealed state. Their chain still ends in the
// hash the seal signed, and the chain from there to the last commit mark
// is checked here, so a snapshot, a seal or a chain hash that is not the
// board's cannot pass (the mark signs a hash the forged start would not
// lead to). Verify reads those records, from the first.
//
// Anything the tail cannot settle (a snapshot or seal that does not hold,
// damage, a fold that refuses a record, a witness the tail cannot place)
// is left to the whole-log start-up, which judges it and names it as
// before: so what this path accepts, the whole-log path accepts with the
// same state (TestTailStartUpIsTheWholeFold), and what it does not, it
// does not judge. The one difference is what it does not read: a change to
// the records before the older snapshot (which changes no state: the
// sealed one is their fold) or segment files removed from before it are
// found by Verify, not at start-up (TestTailStartUpAttacks).

// errTail is a reason to open the log whole.
var errTail = errors.New("book: start-up from the snapshots gives way to the whole log")

// openTail opens the ledger from its sealed snapshots and the log's tail;
// ok is false when the whole log must be read (nothing was written then),
// and info.WholeLog says why.
//
// prep, the log prepared by Open (nil: none), is ended before it returns.
func openTail(dir string, spec Spec, opts Options, key crypto.Signer, pub ed25519.PublicKey, info Info, prep *walog.Prepared) (*Book, State, Info, bool) {
	defer prep.Close()
	var snaps []*snapshot
	for i := range 2 {
		if s := readSnapshot(dir, i); s != nil {
			snaps = append(snaps, s)
		}
	}
	if len(snaps) == 0 {
		info.WholeLog = "no whole snapshot"
		return nil, nil, info, false
	}
	sort.Slice(snaps, func(i, j int) bool { return snaps[i].Seq < snaps[j].Seq })
	if len(snaps) == 2 && snaps[0].Seq == snaps[1].Seq {
		info.WholeLog = "both snapshots name the same record"
		return nil, nil, info, false
	}
	from, newest := snaps[0], snaps[len(snaps)-1]
	// The newer snapshot's state decodes on a core of its own while the
	// tail is read and hashed: the fold needs it only for the records
	// after it, the last few of the tail.
	restored := make(chan error, 1)
	var st State
	go func() {
		var err error
		st, err = spec.Restore(newest.State)
		restored <- err
	}()
	var restoreErr error
	decoded := false
	state := func() error {
		if !decoded {
			decoded, restoreErr = true, <-restored
			if restoreErr != nil {
				restoreErr = fmt.Errorf("%s%d does not decode: %v: %w", snapPrefix, newest.file, restoreErr, errTail)
			}
		}
		return restoreErr
	}
	var (
		sealed          = make([]bool, len(snaps))
		userSeq, hash   = newest.Seq, newest.hash
		since, replayed uint64
		witness         Head
		witnessRead     bool
	)
	if opts.Witness != nil {
		if w, err := opts.Witness.Read(); err == nil {
			witness, witnessRead = w, true
		}
	}
	fold := func(r walog.Record) error {
		for i, s := range snaps {
			switch r.Seq {
			case s.Seq:
				if r.Hash != s.hash || internal(r.Type) {
					return fmt.Errorf("%s%d: the log's record %d is not the one sealed: %w", snapPrefix, s.file, s.Seq, errTail)
				}
			case s.SealSeq:
				if r.Type != TypeSeal {
					return fmt.Errorf("%s%d: record %d is not a seal: %w", snapPrefix, s.file, s.SealSeq, errTail)
				}
				seal, err := ParseSeal(r.Data)
				if err != nil || seal.Verify(pub) != nil || seal.Seq != s.Seq || seal.Hash != s.hash || seal.Digest != Digest(s.State) {
					return fmt.Errorf("%s%d: the seal at record %d does not vouch for it: %w", snapPrefix, s.file, s.SealSeq, errTail)
				}
				sealed[i] = true
			}
		}
		if r.Seq <= newest.Seq {
			return nil
		}
		replayed++
		if internal(r.Type) {
			return nil
		}
		if err := state(); err != nil {
			return err
		}
		if err := st.Apply(r.Type, r.Data); err != nil {
			return fmt.Errorf("record %d: %v: %w", r.Seq, err, errTail)
		}
		userSeq, hash = r.Seq, r.Hash
		since++
		return nil
	}
	accept := func(t walog.TailInfo) error {
		for i, s := range snaps {
			if !sealed[i] {
				return fmt.Errorf("%s%d is not sealed in the log's tail: %w", snapPrefix, s.file, errTail)
			}
		}
		if err := state(); err != nil {
			return err
		}
		if err := st.Check(); err != nil {
			return fmt.Errorf("after start-up: %v: %w", err, errTail)
		}
		// The witness names the last mark, or the one before when the
		// power failed between a commit and its witness: when that one is
		// before the tail, only the whole log knows it.
		if witnessRead && witness.Seq != 0 && witness.Seq != t.Marks[0] && (t.Marks[1] == 0 || witness.Seq <= from.Seq) {
			return fmt.Errorf("the witness names record %d, before the tail's marks: %w", witness.Seq, errTail)
		}
		return nil
	}
	log, li, err := walog.OpenTail(filepath.Join(dir, LogDir), walog.Options{Signer: key, CheckpointEvery: opts.CheckpointEvery,
		SegmentSize: opts.SegmentSize, UnsafeNoSync: opts.UnsafeNoSync, Marks: true},
		walog.Tail{Seq: from.Seq, Hash: from.hash, Fold: fold, Accept: accept}, prep)
	if err != nil {
		info.WholeLog = err.Error()
		return nil, nil, info, false
	}
	b := &Book{dir: dir, spec: spec, opts: opts, log: log, key: key, pub: pub,
		userSeq: userSeq, hash: hash, sinceSeal: since, seals: newest.file}
	for _, s := range snaps {
		b.snapSeq[s.file] = s.Seq
	}
	if li.Repaired {
		info.Repaired = li.RepairDetail
	}
	info.Unvouched = li.Unvouched
	if u := li.Unvouched; u != nil && u.NoPowerLoss {
		info.Tampered = append(info.Tampered, fmt.Sprintf("log: %s (kept in %s/%s)", u.Detail, LogDir, u.Evidence))
	}
	info.SnapshotSeq, info.Replayed, info.ReadFrom = newest.Seq, replayed, from.Seq+1
	info.LastSeq = log.LastSeq()
	info.Witness = b.checkWitness()
	return b, st, info, true
}

// parseSnapshotFile reads a snapshot file's body in the one layout
// writeSnapshot gives it (json.Marshal of snapshotFile: seq, hash,
// seal_seq, then the state to the end), without encoding/json's pass over
// the whole state; ok is false for any other layout, which
// encoding/json then reads. Nothing here is trusted: the state's digest
// must be the one a seal signed.
func parseSnapshotFile(b []byte) (f snapshotFile, ok bool) {
	field := func(name string) bool {
		if !bytes.HasPrefix(b, []byte(name)) {
			return false
		}
		b = b[len(name):]
		return true
	}
	number := func() (uint64, bool) {
		i := 0
		for i < len(b) && i < 20 && b[i] >= '0' && b[i] <= '9' {
			i++
		}
		if i == 0 || i > 1 && b[0] == '0' {
			return 0, false
		}
		v, err := strconv.ParseUint(string(b[:i]), 10, 64)
		b = b[i:]
		return v, err == nil
	}
	var good bool
	if !field(`{"seq":`) {
		return f, false
	}
	if f.Seq, good = number(); !good || !field(`,"hash":"`) || len(b) < 64 {
		return f, false
	}
	f.Hash, b = string(b[:64]), b[64:]
	if !field(`","seal_seq":`) {
		return f, false
	}
	if f.SealSeq, good = number(); !good || !field(`,"state":`) || len(b) < 2 || b[0] != '{' || b[len(b)-1] != '}' {
		return f, false
	}
	f.State = b[:len(b)-1] // the file's buffer, read for this snapshot alone
	return f, true
}
