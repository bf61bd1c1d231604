package super

import (
	"bytes"
	"context"
	"crypto"
	"crypto/ed25519"
	"encoding/json"
	"errors"
	"fmt"
	"sort"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"
	"unicode"
	"unicode/utf8"

	"go.etcd.io/etcd/api/v3/mvccpb"
	clientv3 "go.etcd.io/etcd/client/v3"

	"github.com/openegm/cabinet/book"
	"github.com/openegm/cabinet/jackpot"
)

// Errors, wrapped with what was refused and where.
var (
	// ErrInvalid: a name, prefix, seq or amount given by the caller is unusable.
	ErrInvalid = errors.New("invalid")
	// ErrNotInitialized: the group has no pools yet (see Init).
	ErrNotInitialized = errors.New("superjackpot pools not initialized")
	// ErrConfigMismatch: Init of an existing level with another config.
	ErrConfigMismatch = errors.New("level exists with a different config")
	// ErrSequence: a batch seq that is not the controller's next one.
	ErrSequence = errors.New("batch out of sequence")
	// ErrConflict: a batch seq or a hit identity already recorded with
	// different content.
	ErrConflict = errors.New("already recorded with different content")
	// ErrNoPendingHit: a mystery claim without a pending hit of its controller.
	ErrNoPendingHit = errors.New("no pending mystery hit")
	// ErrOutcomeUnknown: a write was sent and etcd's answer was lost; it may
	// or may not have been applied. Send the same batch or claim again.
	ErrOutcomeUnknown = errors.New("outcome unknown: send the same request again")
	// ErrCorrupt: a stored record cannot be decoded.
	ErrCorrupt = errors.New("corrupt record")
)

const (
	maxName   = 64 // level, controller and machine names
	seqDigits = 20 // %020d: every uint64 sorts as a string
	pageSize  = 500
)

// Batch is one contribution batch of a controller: the sum of its
// machines' qualifying coin-in since its previous batch, for one level.
type Batch struct {
	Controller string `json:"controller"` // empty: the Store's controller
	Seq        uint64 `json:"seq"`        // 1, 2, 3, ... per controller, across all levels
	Bet        int64  `json:"bet"`        // cents: qualifying coin-in of the batch, 1..jackpot.MaxBet
	At         int64  `json:"at"`         // unix nanoseconds, from the caller
	Level      string `json:"level"`
}

// MysteryHit is a mystery level's hit registered by the batch that reached
// its target. It belongs to the batch's controller until it is claimed.
type MysteryHit struct {
	Level      string `json:"level"`
	Controller string `json:"controller"`
	Seq        uint64 `json:"seq"` // the batch
	Bet        int64  `json:"bet"` // cents, the batch's
	At         int64  `json:"at"`
}

// Contributed is the recorded outcome of an applied batch.
type Contributed struct {
	Batch
	PoolSeq      uint64       `json:"pool_seq"`     // the op's sequence number in the group's pools
	Contribution int64        `json:"contribution"` // millicents added to the level (main + hidden)
	Hidden       int64        `json:"hidden"`       // millicents: the hidden-rate part of Contribution
	Hits         []MysteryHit `json:"hits,omitempty"`
	Revision     int64        `json:"-"` // etcd revision of the transaction that applied it
	// Replayed: the batch was found applied (by an earlier call, or by an
	// attempt of this one whose answer was lost); the outcome is the
	// recorded one.
	Replayed bool `json:"-"`
}

// HitID identifies a hit (Level, Controller, Machine, Game) and carries
// its content (Bet, At, and what the machine showed).
type HitID struct {
	Controller string `json:"controller"` // empty: the Store's controller
	Machine    string `json:"machine"`
	Game       uint64 `json:"game"` // game number on the machine
	Level      string `json:"level"`
	Bet        int64  `json:"bet"` // cents: the game's bet (paytable: at least the level's MinHitBet)
	At         int64  `json:"at"`  // unix nanoseconds, from the caller
	// Shown is the amount in cents the machine showed and reported (0:
	// none): a paytable hit wins what the level holds, but never more than
	// that. With Paid the machine paid Shown already (a SAS progressive
	// paid at the machine) and the hit wins exactly Shown, the level's
	// reserve, then the operator, making up what the level does not hold.
	Shown int64 `json:"shown,omitempty"`
	Paid  bool  `json:"paid,omitempty"`
}

// same reports whether h and o are the same hit with the same content.
// Shown and Paid are left out: claims recorded before they existed were
// paid without them, and a claim is recorded by its controller before it
// is sent, so a retry cannot change them.
func (h HitID) same(o HitID) bool {
	return h.Controller == o.Controller && h.Machine == o.Machine && h.Game == o.Game && h.Level == o.Level && h.Bet == o.Bet && h.At == o.At
}

// award is what the hit wins given what the level's rule pays it.
func (h HitID) award(rule int64) int64 { return jackpot.ShownAward(rule, h.Shown, h.Paid) }

func (h HitID) String() string {
	return fmt.Sprintf("level %q controller %q machine %q game %d", h.Level, h.Controller, h.Machine, h.Game)
}

// Claimed is the recorded outcome of a paid hit.
type Claimed struct {
	HitID
	Amount     int64  `json:"amount"`                // millicents, whole cents: won
	Order      int64  `json:"order"`                 // the level's hit count after this award: 1, 2, 3, ...
	PoolSeq    uint64 `json:"pool_seq"`              // the award op's sequence number in the pools
	Mystery    bool   `json:"mystery,omitempty"`     // a mystery hit
	TriggerSeq uint64 `json:"trigger_seq,omitempty"` // mystery: the controller's batch that reached the target
	Revision   int64  `json:"-"`                     // etcd revision of the transaction that paid it
	// Replayed: the hit was found paid (by an earlier call, or by an
	// attempt of this one whose answer was lost); the outcome is the
	// recorded one.
	Replayed bool `json:"-"`
}

// Cents is the amount won, in cents.
func (c Claimed) Cents() int64 { return jackpot.Cents(c.Amount) }

// BatchLog is what etcd holds of one controller's batches.
type BatchLog struct {
	Controller string
	Last       uint64        // last applied seq; 0 if none
	Records    []Contributed // the kept records, by seq
}

// Store is one controller's access to a group's superjackpot in etcd. It
// keeps no state between calls (but which rejected versions it reported)
// and is safe for concurrent use.
type Store struct {
	cli        *clientv3.Client
	prefix     string
	id         string
	keys       Keyring
	signer     crypto.Signer // nil: the Store only reads
	keep       uint64
	resync     time.Duration
	onRejected func(Rejection)
	reported   sync.Map // "key@revision" of the rejections handed to onRejected
	// beforeWrite, if set (tests only), runs before each write transaction.
	beforeWrite func()
	lost        atomic.Int64 // write transactions that lost the race (for benchmarks)
}

// Option configures a Store.
type Option func(*Store)

// KeepBatches makes Contribute delete the record of batch seq-n when it
// applies batch seq, so etcd keeps the last n records of each controller
// (0, the default, keeps all). The controller's head still enforces the
// sequence; a retry of a batch whose record was deleted is refused.
func KeepBatches(n uint64) Option { return func(s *Store) { s.keep = n } }

const defaultResync = 5 * time.Second

// WatchResync sets how often Watch reads the pools key besides following
// its stream (default 5 s).
func WatchResync(d time.Duration) Option { return func(s *Store) { s.resync = d } }

// OnRejected sets fn to hear of every rejected version the Store meets
// (ErrForged), once each, from any of its calls and its watch (fn must be
// safe for concurrent use): a controller logs it and records it in its
// ledger.
func OnRejected(fn func(Rejection)) Option { return func(s *Store) { s.onRejected = fn } }

// New returns the Store of controller on the group whose keys start with
// prefix (it must end with "/"). keys are the public keys the operators
// registered for the group's controllers: whatever the Store reads is
// verified with them. signer is controller's key (the one registered for
// it), which signs whatever the Store writes; nil makes a Store that only
// reads (an inspector's, a display's), whose writes are refused.
func New(cli *clientv3.Client, prefix string, keys Keyring, controller string, signer crypto.Signer, opts ...Option) (*Store, error) {
	if cli == nil {
		return nil, fmt.Errorf("super: new store: %w: nil etcd client", ErrInvalid)
	}
	if prefix == "" || !strings.HasSuffix(prefix, "/") || !utf8.ValidString(prefix) {
		return nil, fmt.Errorf("super: new store: %w: key prefix %q: want UTF-8 ending in \"/\"", ErrInvalid, prefix)
	}
	if err := checkName("controller", controller); err != nil {
		return nil, fmt.Errorf("super: new store: %w", err)
	}
	if keys == nil {
		return nil, fmt.Errorf("super: new store: %w: no registered keys to verify the group with", ErrInvalid)
	}
	if signer != nil {
		registered, ok := keys.PublicKey(controller)
		pub, _ := signer.Public().(ed25519.PublicKey)
		switch {
		case !ok:
			return nil, fmt.Errorf("super: new store: %w: no key is registered for controller %q", ErrInvalid, controller)
		case !pub.Equal(registered):
			return nil, fmt.Errorf("super: new store: %w: the signing key (%s) is not the key registered for controller %q (%s)",
				ErrInvalid, keyID(signer.Public()), controller, book.KeyID(registered))
		}
	}
	s := &Store{cli: cli, prefix: prefix, id: controller, keys: keys, signer: signer}
	for _, o := range opts {
		o(s)
	}
	return s, nil
}

// Controller is the Store's controller ID.
func (s *Store) Controller() string { return s.id }

// Prefix is the group's key prefix.
func (s *Store) Prefix() string { return s.prefix }

func (s *Store) poolKey() string { return s.prefix + "pool" }
func (s *Store) batchDir(controller string) string {
	return s.prefix + "batches/" + controller + "/"
}
func (s *Store) batchKey(controller string, seq uint64) string {
	return s.batchDir(controller) + fmtSeq(seq)
}
func (s *Store) headKey(controller string) string { return s.prefix + "heads/" + controller }
func (s *Store) claimDir() string                 { return s.prefix + "claims/" }
func (s *Store) claimKey(h HitID) string {
	return s.claimDir() + h.Level + "/" + h.Controller + "/" + h.Machine + "/" + fmtSeq(h.Game)
}

func fmtSeq(n uint64) string { return fmt.Sprintf("%0*d", seqDigits, n) }

// checkName validates a level, controller or machine name, which is a key
// segment.
func checkName(what, s string) error {
	switch {
	case s == "":
		return fmt.Errorf("%w: %s name is empty", ErrInvalid, what)
	case len(s) > maxName:
		return fmt.Errorf("%w: %s name %q is %d bytes, at most %d", ErrInvalid, what, s, len(s), maxName)
	case !utf8.ValidString(s):
		return fmt.Errorf("%w: %s name %q is not UTF-8", ErrInvalid, what, s)
	case strings.ContainsRune(s, '/'):
		return fmt.Errorf("%w: %s name %q contains '/'", ErrInvalid, what, s)
	}
	for _, r := range s {
		if !unicode.IsPrint(r) {
			return fmt.Errorf("%w: %s name %q contains a non-printable character", ErrInvalid, what, s)
		}
	}
	return nil
}

// keyID names a signer's public key, whatever its kind.
func keyID(pub crypto.PublicKey) string {
	if k, ok := pub.(ed25519.PublicKey); ok && len(k) == ed25519.PublicKeySize {
		return book.KeyID(k)
	}
	return fmt.Sprintf("a %T, not an Ed25519 key", pub)
}

// value is one key as read and verified (resolve).
type value struct {
	exists                  bool  // the key exists (its current version may be a rejected one)
	create, modRev, version int64 // of the current version: what a write is conditioned on
	found                   bool  // the key has a genuine version, whose payload is data
	data                    []byte
	rev                     int64       // the mod revision of the genuine version
	genVersion              int64       // the key's version that the genuine one is
	rejected                []Rejection // its versions after the genuine one, the current one first
}

func gets(keys []string) []clientv3.Op {
	ops := make([]clientv3.Op, len(keys))
	for i, k := range keys {
		ops[i] = clientv3.OpGet(k)
	}
	return ops
}

// current is the current version of each of n keys read by one
// transaction (nil: the key does not exist).
func current(resp *clientv3.TxnResponse, n int) ([]*mvccpb.KeyValue, error) {
	if len(resp.Responses) != n {
		return nil, fmt.Errorf("%w: etcd answered %d reads for %d keys", ErrCorrupt, len(resp.Responses), n)
	}
	kvs := make([]*mvccpb.KeyValue, n)
	for i, r := range resp.Responses {
		rr := r.GetResponseRange()
		if rr == nil {
			return nil, fmt.Errorf("%w: etcd answered read %d with %T", ErrCorrupt, i, r.Response)
		}
		if len(rr.Kvs) == 1 {
			kvs[i] = rr.Kvs[0]
		}
	}
	return kvs, nil
}

// resolveAll resolves the versions read by one transaction (resolve).
func (s *Store) resolveAll(ctx context.Context, resp *clientv3.TxnResponse, n int) ([]value, error) {
	kvs, err := current(resp, n)
	if err != nil {
		return nil, err
	}
	vals := make([]value, n)
	for i, kv := range kvs {
		if vals[i], err = s.resolve(ctx, kv, s.report); err != nil {
			return nil, err
		}
	}
	return vals, nil
}

// plan is a guarded write: ops are applied if every cmp holds.
type plan struct {
	cmps []clientv3.Cmp
	ops  []clientv3.Op
}

var errClientClosed = errors.New("etcd client closed")

// bind returns ctx, also canceled when the client is closed. (Without it, a
// request on a closing client is retried by the client for a second or
// more before it fails.)
func (s *Store) bind(ctx context.Context) (context.Context, func()) {
	ctx, cancel := context.WithCancelCause(ctx)
	stop := context.AfterFunc(s.cli.Ctx(), func() { cancel(errClientClosed) })
	return ctx, func() { stop(); cancel(nil) }
}

// update reads keys at one revision and calls decide with their values,
// verified (resolve). decide either finishes (nil plan: the answer is
// known without a write) or returns a plan whose conditions make it valid
// only on the state it was computed from. If the plan's transaction loses
// a race, decide is called again on the values that won, after a jittered
// backoff. Transient etcd errors are retried until ctx ends. update returns
// the revision of the committed write, or 0 if decide finished without one.
func (s *Store) update(ctx context.Context, keys []string, decide func([]value) (*plan, error)) (int64, error) {
	if s.signer == nil {
		return 0, fmt.Errorf("%w: the store of %q has no signing key: it only reads", ErrInvalid, s.id)
	}
	ctx, stop := s.bind(ctx)
	defer stop()
	var (
		vals []value
		bo   backoff
		sent bool // a write was sent and its outcome is not known
	)
	fail := func(err error) (int64, error) {
		if cause := context.Cause(ctx); cause == errClientClosed {
			err = fmt.Errorf("%w: %w", cause, err)
		}
		if sent {
			return 0, fmt.Errorf("%w: %w", ErrOutcomeUnknown, err)
		}
		return 0, err
	}
	for {
		if vals == nil {
			resp, err := s.cli.Txn(ctx).Then(gets(keys)...).Commit()
			if err == nil {
				vals, err = s.resolveAll(ctx, resp, len(keys))
			}
			if err != nil && (verdict(err) || !retryable(ctx, s.cli, err)) {
				return fail(fmt.Errorf("read: %w", err))
			}
			if err != nil {
				if werr := bo.wait(ctx); werr != nil {
					return fail(fmt.Errorf("read: %w (last etcd error: %v)", werr, err))
				}
				continue
			}
		}
		p, err := decide(vals)
		var read readError
		if errors.As(err, &read) {
			vals = nil
			if !retryable(ctx, s.cli, read.error) {
				return fail(err)
			}
			if werr := bo.wait(ctx); werr != nil {
				return fail(fmt.Errorf("%w (last etcd error: %v)", werr, err))
			}
			continue
		}
		if err != nil || p == nil {
			return 0, err
		}
		if s.beforeWrite != nil {
			s.beforeWrite()
		}
		resp, err := s.cli.Txn(ctx).If(p.cmps...).Then(p.ops...).Else(gets(keys)...).Commit()
		if err != nil {
			sent = true
			vals = nil
			if !retryable(ctx, s.cli, err) {
				return fail(fmt.Errorf("write: %w", err))
			}
			if werr := bo.wait(ctx); werr != nil {
				return fail(fmt.Errorf("write: %w (last etcd error: %v)", werr, err))
			}
			continue
		}
		if resp.Succeeded {
			return resp.Header.Revision, nil
		}
		// Another write won: decide again on what it left.
		s.lost.Add(1)
		if vals, err = s.resolveAll(ctx, resp, len(keys)); err != nil && verdict(err) {
			return fail(err)
		} else if err != nil {
			vals = nil // etcd failed reading the history: read again
		}
		if werr := bo.wait(ctx); werr != nil {
			return fail(fmt.Errorf("lost the race to update the pools and %w", werr))
		}
	}
}

// readError is a read of etcd that a decision needed (besides the keys
// update read) and that failed: update reads again, or fails as it does
// for its own reads.
type readError struct{ error }

func (e readError) Unwrap() error { return e.error }

// decodePools decodes the pools value v (its genuine version).
func (s *Store) decodePools(v value) (*jackpot.Pools, error) {
	switch {
	case !v.exists:
		return nil, fmt.Errorf("%w: no key %q", ErrNotInitialized, s.poolKey())
	case !v.found:
		return nil, fmt.Errorf("%w: key %q holds only rejected versions (%d): no genuine pools", ErrNotInitialized, s.poolKey(), len(v.rejected))
	}
	p := new(jackpot.Pools)
	if err := p.UnmarshalBinary(v.data); err != nil {
		return nil, fmt.Errorf("%w: key %q at revision %d: %w", ErrCorrupt, s.poolKey(), v.rev, err)
	}
	return p, nil
}

// genuinePools is decodePools, refusing pools that were rolled back. A
// signature binds the pools to their version and to the revision that
// created the key, so the one old version that still verifies after the
// key is deleted and written again is its first: the pools as Init
// created them, before any batch or claim. Every head, claim and transfer
// is written after the pools it changed, so one created before the
// pools' key says the key was created again, over a history.
func (s *Store) genuinePools(ctx context.Context, v value) (*jackpot.Pools, error) {
	p, err := s.decodePools(v)
	if err != nil || v.genVersion != 1 {
		return p, err
	}
	for _, dir := range []string{"heads/", "claims/", "transfers/"} {
		resp, err := s.cli.Get(ctx, s.prefix+dir, clientv3.WithPrefix(), clientv3.WithKeysOnly(),
			clientv3.WithMaxCreateRev(v.create-1))
		if err != nil {
			return nil, readError{fmt.Errorf("checking the pools were not rolled back: %w", err)}
		}
		if len(resp.Kvs) > 0 {
			kv := resp.Kvs[0]
			return nil, fmt.Errorf("%w: key %q holds the pools as first created (op %d), created at revision %d, after %q (revision %d) recorded a change of them: they were deleted and their first version written back, rolled back",
				ErrCorrupt, s.poolKey(), p.Seq(), v.create, kv.Key, kv.CreateRevision)
		}
	}
	return p, nil
}

func decodeJSON(key string, data []byte, into any) error {
	d := json.NewDecoder(bytes.NewReader(data))
	d.DisallowUnknownFields()
	if err := d.Decode(into); err != nil {
		return fmt.Errorf("%w: key %q: %w", ErrCorrupt, key, err)
	}
	if d.More() {
		return fmt.Errorf("%w: key %q: trailing data", ErrCorrupt, key)
	}
	return nil
}

// Init creates level with cfg in the group's pools, seeded to its reset
// value (jackpot.AddLevel; target is a mystery level's first hit value, 0
// otherwise), unless it exists. It reports whether it created the level.
// An existing level with another config is refused (ErrConfigMismatch).
func (s *Store) Init(ctx context.Context, level string, cfg jackpot.Config, target int64, who string, at int64) (created bool, err error) {
	fail := func(err error) (bool, error) {
		return false, fmt.Errorf("super: init level %q in %q: %w", level, s.prefix, err)
	}
	if err := checkName("level", level); err != nil {
		return fail(err)
	}
	pk := s.poolKey()
	_, err = s.update(ctx, []string{pk}, func(v []value) (*plan, error) {
		created = false
		p := new(jackpot.Pools)
		if v[0].found {
			var err error
			if p, err = s.genuinePools(ctx, v[0]); err != nil {
				return nil, err
			}
		} else if err := s.noHistory(ctx); err != nil {
			return nil, err
		}
		if lv, ok := p.Level(level); ok {
			if lv.Config != cfg {
				return nil, fmt.Errorf("%w: stored %+v, given %+v", ErrConfigMismatch, lv.Config, cfg)
			}
			if lv.Closed {
				return nil, fmt.Errorf("%w: the level is closed", jackpot.ErrClosed)
			}
			return nil, nil
		}
		if _, err := p.Apply(jackpot.AddLevel{Level: level, Config: cfg, Target: target, Who: who, At: at}); err != nil {
			return nil, err
		}
		state, err := p.MarshalBinary()
		if err != nil {
			return nil, err
		}
		put, err := s.put(pk, v[0], state)
		if err != nil {
			return nil, err
		}
		created = true
		pl := &plan{cmps: []clientv3.Cmp{guard(pk, v[0])}, ops: []clientv3.Op{put}}
		return pl, s.withEvidence(pl, v[0])
	})
	if err != nil {
		return fail(err)
	}
	return created, nil
}

// noHistory refuses to create pools for a group that had them: pools
// missing (deleted) or holding only rejected versions while controllers
// have applied batches or been paid claims are restored from a backup,
// never created afresh (which would wipe what they held).
func (s *Store) noHistory(ctx context.Context) error {
	for _, dir := range []string{"heads/", "claims/"} {
		resp, err := s.cli.Get(ctx, s.prefix+dir, clientv3.WithPrefix(), clientv3.WithCountOnly())
		if err != nil {
			return readError{fmt.Errorf("checking the group had no pools: %w", err)}
		}
		if resp.Count > 0 {
			return fmt.Errorf("%w: the group has no genuine pools under %q, but %d keys under %s%s: they were deleted or replaced; restore them, they are not created again",
				ErrCorrupt, s.poolKey(), resp.Count, s.prefix, dir)
		}
	}
	return nil
}

// Contribute applies batch b to the group's pools exactly once (see the
// package documentation). A retry of an applied batch returns the recorded
// outcome with Replayed set. A mystery hit reached by the batch is reported
// in Hits.
func (s *Store) Contribute(ctx context.Context, b Batch) (Contributed, error) {
	if b.Controller == "" {
		b.Controller = s.id
	}
	fail := func(err error) (Contributed, error) {
		return Contributed{}, fmt.Errorf("super: contribute batch of controller %q seq %d to level %q: %w", b.Controller, b.Seq, b.Level, err)
	}
	if b.Controller != s.id {
		return fail(fmt.Errorf("%w: this store is controller %q's", ErrInvalid, s.id))
	}
	if err := checkName("level", b.Level); err != nil {
		return fail(err)
	}
	if b.Seq == 0 {
		return fail(fmt.Errorf("%w: batch seqs start at 1", ErrInvalid))
	}
	if b.Bet <= 0 || b.Bet > jackpot.MaxBet {
		return fail(fmt.Errorf("%w: bet %d cents: want 1..%d", ErrInvalid, b.Bet, jackpot.MaxBet))
	}
	pk, bk, hk := s.poolKey(), s.batchKey(b.Controller, b.Seq), s.headKey(b.Controller)
	// The previous batch's record says how far the pools had come when it
	// was applied: pools behind that were rolled back.
	prevKey := s.batchKey(b.Controller, b.Seq-1)
	var out Contributed
	rev, err := s.update(ctx, []string{pk, bk, hk, prevKey}, func(v []value) (*plan, error) {
		pool, rec, head, prev := v[0], v[1], v[2], v[3]
		if rec.found {
			var r Contributed
			if err := decodeJSON(bk, rec.data, &r); err != nil {
				return nil, err
			}
			if r.Batch != b {
				return nil, fmt.Errorf("%w: seq %d was applied as %+v, now sent as %+v", ErrConflict, b.Seq, r.Batch, b)
			}
			r.Revision, r.Replayed = rec.rev, true
			out = r
			return nil, nil
		}
		last, err := parseHead(hk, head)
		if err != nil {
			return nil, err
		}
		switch {
		case b.Seq <= last:
			return nil, fmt.Errorf("%w: seq %d is not after the last applied seq %d and its record is not kept", ErrSequence, b.Seq, last)
		case b.Seq > last+1:
			return nil, fmt.Errorf("%w: gap: the last applied seq is %d, the next must be %d", ErrSequence, last, last+1)
		}
		p, err := s.genuinePools(ctx, pool)
		if err != nil {
			return nil, err
		}
		if prev.found {
			var r Contributed
			if err := decodeJSON(prevKey, prev.data, &r); err != nil {
				return nil, err
			}
			if r.PoolSeq > p.Seq() {
				return nil, fmt.Errorf("%w: the pools (op %d, revision %d) are older than batch %d, applied as their op %d: they were rolled back",
					ErrCorrupt, p.Seq(), pool.rev, r.Seq, r.PoolSeq)
			}
		}
		res, err := p.Apply(jackpot.Contribute{Levels: []string{b.Level}, Bet: b.Bet, Where: b.Controller, Game: b.Seq, At: b.At})
		if err != nil {
			return nil, err
		}
		state, err := p.MarshalBinary()
		if err != nil {
			return nil, err
		}
		ch := res.Changes[0]
		r := Contributed{
			Batch:        b,
			PoolSeq:      res.Seq,
			Contribution: ch.After.Contributions - ch.Before.Contributions,
			Hidden:       ch.After.HiddenContributions - ch.Before.HiddenContributions,
		}
		for _, c := range res.Claims {
			r.Hits = append(r.Hits, MysteryHit{Level: c.Level, Controller: c.Where, Seq: c.Game, Bet: c.Bet, At: c.At})
		}
		data, err := json.Marshal(r)
		if err != nil {
			return nil, err
		}
		pl := &plan{cmps: []clientv3.Cmp{guard(bk, rec), guard(pk, pool), guard(hk, head)}}
		for _, w := range []struct {
			key  string
			cur  value
			data []byte
		}{{pk, pool, state}, {bk, rec, data}, {hk, head, []byte(fmtSeq(b.Seq))}} {
			op, err := s.put(w.key, w.cur, w.data)
			if err != nil {
				return nil, err
			}
			pl.ops = append(pl.ops, op)
		}
		if s.keep > 0 && b.Seq > s.keep {
			pl.ops = append(pl.ops, clientv3.OpDelete(s.batchKey(b.Controller, b.Seq-s.keep)))
		}
		out = r
		return pl, s.withEvidence(pl, pool, rec, head)
	})
	if err != nil {
		return fail(err)
	}
	if rev != 0 {
		out.Revision = rev
	}
	return out, nil
}

// parseHead reads a controller's last applied seq (0 if it has none).
func parseHead(key string, v value) (uint64, error) {
	if !v.found {
		return 0, nil
	}
	n, err := strconv.ParseUint(string(v.data), 10, 64)
	if err != nil || len(v.data) != seqDigits || n == 0 {
		return 0, fmt.Errorf("%w: key %q holds %q, want a %d-digit seq", ErrCorrupt, key, v.data, seqDigits)
	}
	return n, nil
}

// Claim pays hit h exactly once (see the package documentation) and
// returns what it won. On a paytable level it applies jackpot's Hit and
// Award in one transaction; on a mystery level it awards the pending hit
// that a batch of h's controller reached, to h's machine. nextTarget is a
// mystery level's next hit value, drawn by the caller's certified RNG and
// logged before the call (the same value on every retry); 0 for a paytable
// level. A retry of a paid hit returns the recorded claim with Replayed set.
func (s *Store) Claim(ctx context.Context, h HitID, nextTarget int64) (Claimed, error) {
	if h.Controller == "" {
		h.Controller = s.id
	}
	fail := func(err error) (Claimed, error) {
		return Claimed{}, fmt.Errorf("super: claim hit %v: %w", h, err)
	}
	if h.Controller != s.id {
		return fail(fmt.Errorf("%w: this store is controller %q's", ErrInvalid, s.id))
	}
	for _, n := range []struct{ what, name string }{{"level", h.Level}, {"controller", h.Controller}, {"machine", h.Machine}} {
		if err := checkName(n.what, n.name); err != nil {
			return fail(err)
		}
	}
	if h.Bet < 0 || h.Bet > jackpot.MaxBet {
		return fail(fmt.Errorf("%w: bet %d cents: want 0..%d", ErrInvalid, h.Bet, jackpot.MaxBet))
	}
	if h.Shown < 0 || h.Shown > jackpot.MaxAmount/jackpot.MillicentsPerCent || h.Paid && h.Shown == 0 {
		return fail(fmt.Errorf("%w: shown %d cents, paid %v: want 0..%d cents, more than 0 if paid", ErrInvalid, h.Shown, h.Paid, jackpot.MaxAmount/jackpot.MillicentsPerCent))
	}
	where := h.Controller + "/" + h.Machine
	pk, ck := s.poolKey(), s.claimKey(h)
	var out Claimed
	rev, err := s.update(ctx, []string{pk, ck}, func(v []value) (*plan, error) {
		pool, rec := v[0], v[1]
		if rec.found {
			var r Claimed
			if err := decodeJSON(ck, rec.data, &r); err != nil {
				return nil, err
			}
			if !r.HitID.same(h) {
				return nil, fmt.Errorf("%w: paid with bet %d cents at %d, now claimed with bet %d cents at %d",
					ErrConflict, r.Bet, r.At, h.Bet, h.At)
			}
			r.Revision, r.Replayed = rec.rev, true
			out = r
			return nil, nil
		}
		p, err := s.genuinePools(ctx, pool)
		if err != nil {
			return nil, err
		}
		lv, ok := p.Level(h.Level)
		if !ok {
			return nil, jackpot.ErrUnknownLevel
		}
		r := Claimed{HitID: h}
		switch lv.Config.Trigger {
		case jackpot.TriggerMystery:
			if len(lv.Pending) != 1 || lv.Pending[0].Where != h.Controller {
				owner := "none"
				if len(lv.Pending) > 0 {
					owner = fmt.Sprintf("controller %q batch %d", lv.Pending[0].Where, lv.Pending[0].Game)
				}
				return nil, fmt.Errorf("%w: the level's pending hit: %s (a claim already paid is in History)", ErrNoPendingHit, owner)
			}
			r.Mystery, r.TriggerSeq = true, lv.Pending[0].Game
		default:
			if len(lv.Pending) > 0 {
				return nil, fmt.Errorf("%w: the level has %d unconfirmed hits not registered by this package", jackpot.ErrPending, len(lv.Pending))
			}
			if len(where) > maxName {
				return nil, fmt.Errorf("%w: controller and machine names %q are %d bytes together, at most %d", ErrInvalid, where, len(where), maxName-1)
			}
			if _, err := p.Apply(jackpot.Hit{Level: h.Level, Bet: h.Bet, Where: where, Game: h.Game, At: h.At}); err != nil {
				return nil, err
			}
		}
		var amounts []int64
		if rule := p.RuleAmounts(h.Level); len(rule) == 1 {
			amounts = []int64{h.award(rule[0])}
		}
		res, err := p.Apply(jackpot.Award{Level: h.Level, Target: nextTarget, Amounts: amounts, At: h.At})
		if err != nil {
			return nil, err
		}
		if len(res.Paid) != 1 || len(res.Changes) != 1 {
			return nil, fmt.Errorf("award paid %d hits, want 1", len(res.Paid))
		}
		r.Amount, r.Order, r.PoolSeq = res.Paid[0].Amount, res.Changes[0].After.Hits, res.Seq
		out = r
		return s.recordPlan(pk, pool, p, ck, rec, r)
	})
	if err != nil {
		return fail(err)
	}
	if rev != 0 {
		out.Revision = rev
	}
	return out, nil
}

// recordPlan writes the pools p (read from pool under pk) and the record
// rec under key (read as cur) in one transaction, valid only if key has no
// genuine version yet and neither changed since they were read: an
// operation made exactly once.
func (s *Store) recordPlan(pk string, pool value, p *jackpot.Pools, key string, cur value, rec any) (*plan, error) {
	state, err := p.MarshalBinary()
	if err != nil {
		return nil, err
	}
	data, err := json.Marshal(rec)
	if err != nil {
		return nil, err
	}
	putPool, err := s.put(pk, pool, state)
	if err != nil {
		return nil, err
	}
	putRec, err := s.put(key, cur, data)
	if err != nil {
		return nil, err
	}
	pl := &plan{cmps: []clientv3.Cmp{guard(key, cur), guard(pk, pool)}, ops: []clientv3.Op{putPool, putRec}}
	return pl, s.withEvidence(pl, pool, cur)
}

// getGenuine reads key's genuine version (resolve), at revision rev (0:
// the current one); it returns the read's header revision too.
func (s *Store) getGenuine(ctx context.Context, key string, rev int64, found func(Rejection)) (value, int64, error) {
	resp, err := s.cli.Get(ctx, key, clientv3.WithRev(rev))
	if err != nil {
		return value{}, 0, err
	}
	var kv *mvccpb.KeyValue
	if len(resp.Kvs) == 1 {
		kv = resp.Kvs[0]
	}
	v, err := s.resolve(ctx, kv, found)
	return v, resp.Header.Revision, err
}

// Pools reads the group's pools (their genuine version) and the revision
// at which they were written.
func (s *Store) Pools(ctx context.Context) (*jackpot.Pools, int64, error) {
	ctx, stop := s.bind(ctx)
	defer stop()
	v, _, err := s.getGenuine(ctx, s.poolKey(), 0, s.report)
	if err != nil {
		return nil, 0, fmt.Errorf("super: read pools of %q: %w", s.prefix, err)
	}
	p, err := s.genuinePools(ctx, v)
	if err != nil {
		return nil, 0, fmt.Errorf("super: read pools of %q: %w", s.prefix, err)
	}
	return p, v.rev, nil
}

// scan calls fn for every key under dir at revision rev (0: the current
// one), in key order, and returns the revision it read at.
func (s *Store) scan(ctx context.Context, dir string, rev int64, fn func(*mvccpb.KeyValue) error) (int64, error) {
	end := clientv3.GetPrefixRangeEnd(dir)
	key := dir
	for {
		resp, err := s.cli.Get(ctx, key, clientv3.WithRange(end), clientv3.WithRev(rev), clientv3.WithLimit(pageSize),
			clientv3.WithSort(clientv3.SortByKey, clientv3.SortAscend))
		if err != nil {
			return rev, err
		}
		if rev == 0 {
			rev = resp.Header.Revision // later pages at the first one's revision
		}
		for _, kv := range resp.Kvs {
			if err := fn(kv); err != nil {
				return rev, err
			}
		}
		if !resp.More || len(resp.Kvs) == 0 {
			return rev, nil
		}
		key = string(resp.Kvs[len(resp.Kvs)-1].Key) + "\x00"
	}
}

// Batches reads what etcd holds of controller's batches: its last applied
// seq and the kept records, at one revision (each its genuine version; a
// record with none is left out). A controller restarting after a crash
// resends its logged batches after Last (and may resend any kept one: it
// is replayed).
func (s *Store) Batches(ctx context.Context, controller string) (BatchLog, error) {
	ctx, stop := s.bind(ctx)
	defer stop()
	fail := func(err error) (BatchLog, error) {
		return BatchLog{}, fmt.Errorf("super: batches of controller %q in %q: %w", controller, s.prefix, err)
	}
	if err := checkName("controller", controller); err != nil {
		return fail(err)
	}
	hk := s.headKey(controller)
	head, rev, err := s.getGenuine(ctx, hk, 0, s.report)
	if err != nil {
		return fail(err)
	}
	log := BatchLog{Controller: controller}
	if log.Last, err = parseHead(hk, head); err != nil {
		return fail(err)
	}
	_, err = s.scan(ctx, s.batchDir(controller), rev, func(kv *mvccpb.KeyValue) error {
		v, err := s.resolve(ctx, kv, s.report)
		if err != nil || !v.found {
			return err
		}
		var r Contributed
		if err := decodeJSON(string(kv.Key), v.data, &r); err != nil {
			return err
		}
		if r.Controller != controller || string(kv.Key) != s.batchKey(controller, r.Seq) {
			return fmt.Errorf("%w: key %q holds controller %q seq %d", ErrCorrupt, kv.Key, r.Controller, r.Seq)
		}
		r.Revision = v.rev
		log.Records = append(log.Records, r)
		return nil
	})
	if err != nil {
		return fail(err)
	}
	return log, nil
}

// History reads every paid claim of the group (each its genuine version),
// in the order they were paid (etcd revision).
func (s *Store) History(ctx context.Context) ([]Claimed, error) {
	ctx, stop := s.bind(ctx)
	defer stop()
	var out []Claimed
	_, err := s.scan(ctx, s.claimDir(), 0, func(kv *mvccpb.KeyValue) error {
		c, ok, err := s.claim(ctx, kv, s.report)
		if ok {
			out = append(out, c)
		}
		return err
	})
	if err != nil {
		return nil, fmt.Errorf("super: claim history of %q: %w", s.prefix, err)
	}
	sortClaims(out)
	return out, nil
}

// claim reads the claim kv (its genuine version; false if it has none).
func (s *Store) claim(ctx context.Context, kv *mvccpb.KeyValue, found func(Rejection)) (Claimed, bool, error) {
	v, err := s.resolve(ctx, kv, found)
	if err != nil || !v.found {
		return Claimed{}, false, err
	}
	var c Claimed
	if err := decodeJSON(string(kv.Key), v.data, &c); err != nil {
		return Claimed{}, false, err
	}
	if string(kv.Key) != s.claimKey(c.HitID) {
		return Claimed{}, false, fmt.Errorf("%w: key %q holds the claim of %v", ErrCorrupt, kv.Key, c.HitID)
	}
	c.Revision = v.rev
	return c, true, nil
}

func sortClaims(cs []Claimed) {
	sort.Slice(cs, func(i, j int) bool { return cs[i].Revision < cs[j].Revision })
}
