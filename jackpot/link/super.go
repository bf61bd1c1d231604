package link

import (
	"context"
	"crypto"
	"crypto/ed25519"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"time"

	clientv3 "go.etcd.io/etcd/client/v3"
	"go.uber.org/zap"
	"google.golang.org/grpc"
	"google.golang.org/grpc/backoff"

	"github.com/openegm/cabinet/jackpot"
	"github.com/openegm/cabinet/jackpot/ledger"
	"github.com/openegm/cabinet/jackpot/super"
)

// The superjackpot: levels shared with the controllers of other casinos,
// whose pool is in etcd (package jackpot/super). One goroutine does
// everything that writes to etcd, in order: the start-up checks, the
// contribution batches every BatchEvery, the claims of hits in arrival
// order, and the resending of what the ledger recorded and etcd has not
// answered. Every write is recorded in the ledger before it is sent and
// its answer recorded after, so a lost answer or a crash only means
// sending the same batch or claim again, which etcd recognises.
//
// The controller reaches etcd over TLS as the etcd user named by its
// client certificate (its ID), signs every value it writes with the key
// that signs its ledger (UseSigner), and verifies every value it reads
// with the keys registered for the group's controllers: a forged one is
// not counted nor paid, and is logged as an ERROR and recorded in the
// ledger (EventSuperForged), once per forged version it meets.

// Tunables of the superjackpot worker.
const (
	// keepBatches is how many batch records of this controller etcd keeps
	// (super.KeepBatches). The controller sends a batch only after the
	// previous one's answer is in the ledger, so a resend is never more
	// than one behind etcd's head; the rest is for the inspector.
	keepBatches = 1000
	// opTimeout bounds one etcd operation (the Store retries transient
	// errors within it); what fails is tried again in the next round.
	opTimeout = 5 * time.Second
	// claimResend is how often claims recorded and not answered are sent
	// again.
	claimResend = time.Second
	// errorEvery is how often the same error is logged again.
	errorEvery = 30 * time.Second
)

// superLink is the controller's side of the superjackpot.
type superLink struct {
	c      *Controller
	cfg    Super
	levels []Level // the shared levels, from the configuration
	claims chan hitClaim
	op     time.Duration

	mu        sync.Mutex
	values    map[string]int64     // cents, from etcd's last snapshot; none before the first
	confirmed map[string]time.Time // when etcd last confirmed each value (a snapshot)
	stale     map[string]bool      // a value not confirmed within the bound, not broadcast

	store  *super.Store  // set by run
	signer crypto.Signer // the controller's key (UseSigner)

	logMu   sync.Mutex
	lastErr string
	lastAt  time.Time
}

func newSuperLink(c *Controller) *superLink {
	s := &superLink{c: c, cfg: *c.cfg.Super, claims: make(chan hitClaim, 64), op: opTimeout, values: map[string]int64{},
		confirmed: map[string]time.Time{}, stale: map[string]bool{}}
	for _, lv := range c.cfg.Levels {
		if c.cfg.shared(lv.ID) {
			s.levels = append(s.levels, lv)
		}
	}
	return s
}

// UseSigner gives the controller its signing key, which signs what it
// writes to the superjackpot's etcd group: the key that signs its ledger,
// and the one registered for it in the configuration's keys. Without a
// superjackpot section it is not needed.
func (c *Controller) UseSigner(signer crypto.Signer) error {
	if c.sup == nil {
		return nil
	}
	pub, _ := signer.Public().(ed25519.PublicKey)
	keys, err := c.cfg.Super.Keyring()
	if err != nil {
		return fmt.Errorf("superjackpot: %w", err)
	}
	switch registered := keys[c.cfg.Controller]; {
	case !pub.Equal(c.ledger.PublicKey()):
		return fmt.Errorf("superjackpot: the signing key is not the one that signs the ledger (%s)", ledger.KeyID(c.ledger.PublicKey()))
	case !pub.Equal(registered):
		return fmt.Errorf("superjackpot: the key registered for controller %q in the configuration (%s) is not the one on its board, which signs its ledger (%s)",
			c.cfg.Controller, ledger.KeyID(registered), ledger.KeyID(pub))
	}
	c.sup.signer = signer
	return nil
}

// dial makes the etcd client of the configured endpoints.
func (s *superLink) dial() (*clientv3.Client, error) { return DialEtcd(s.c.cfg) }

// DialEtcd makes the etcd client of a configuration's superjackpot
// section: its endpoints over TLS, authenticated by the controller's
// client certificate, whose common name must be the controller's ID (its
// etcd user). It does not wait for a connection: an unreachable cluster
// shows as failed operations.
func DialEtcd(cfg *Config) (*clientv3.Client, error) {
	sup := *cfg.Super
	tlsCfg, user, err := sup.ClientTLS()
	if err != nil {
		return nil, err
	}
	if user != cfg.Controller {
		return nil, fmt.Errorf("superjackpot tls cert %s: its common name %q is the etcd user the controller acts as; it must be the controller's ID %q",
			sup.TLS.Cert, user, cfg.Controller)
	}
	cli, err := clientv3.New(clientv3.Config{
		Endpoints:            sup.Etcd,
		TLS:                  tlsCfg,
		DialTimeout:          5 * time.Second,
		DialKeepAliveTime:    10 * time.Second,
		DialKeepAliveTimeout: 5 * time.Second,
		Logger:               zap.NewNop(), // failures are logged by the caller
		// Reconnect soon after a partition heals (gRPC's default backoff
		// grows to 2 minutes).
		DialOptions: []grpc.DialOption{grpc.WithConnectParams(grpc.ConnectParams{
			Backoff:           backoff.Config{BaseDelay: 100 * time.Millisecond, Multiplier: 1.6, Jitter: 0.2, MaxDelay: 2 * time.Second},
			MinConnectTimeout: 5 * time.Second,
		})},
	})
	if err != nil {
		return nil, fmt.Errorf("superjackpot: etcd client of %v: %w", sup.Etcd, err)
	}
	return cli, nil
}

// value is a shared level's value to broadcast, in cents; false before
// etcd's first snapshot of it, and when etcd has not confirmed it within
// the configured bound (ConfirmEvery): another casino may have won it
// meanwhile. The level is then not broadcast, and the cabinets report the
// link down for it after 5 s and take no bet that could win it.
func (s *superLink) value(level string) (int64, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	v, ok := s.values[level]
	if !ok {
		return 0, false
	}
	if age := s.c.now().Sub(s.confirmed[level]); age > s.cfg.ConfirmEvery() {
		if !s.stale[level] {
			s.stale[level] = true
			s.c.log.Warn("superjackpot value not confirmed by etcd; not broadcast, the cabinets take the level away", "level", level,
				"cents", v, "unconfirmed_for", age.Round(time.Millisecond), "bound", s.cfg.ConfirmEvery())
		}
		return 0, false
	}
	return v, true
}

// offer hands a reported hit on a shared level to the worker. A full queue
// drops it: the cabinet reports its hit until it is paid.
func (s *superLink) offer(h hitClaim) {
	select {
	case s.claims <- h:
	default:
		s.c.log.Debug("superjackpot worker busy; the claim is read again next time", "cabinet", h.claim.Machine, "level", h.level)
	}
}

// errFatal marks what stops the controller: etcd and this controller's
// ledger or configuration disagree, and no retry can change that.
var errFatal = errors.New("superjackpot")

// run is the worker, until ctx ends. It returns an error (errFatal) only if
// a shared level's configuration differs from etcd's, or etcd's record of
// this controller's batches does not match the ledger.
func (s *superLink) run(ctx context.Context, cli *clientv3.Client) error {
	if s.signer == nil {
		return fmt.Errorf("%w: no signing key for what the controller writes to etcd (UseSigner)", errFatal)
	}
	keys, err := s.cfg.Keyring()
	if err != nil {
		return fmt.Errorf("%w: %w", errFatal, err)
	}
	// The watch reads the pools at least three times within the bound, so
	// one slow read does not take the level away.
	store, err := super.New(cli, s.cfg.Prefix, keys, s.c.cfg.Controller, s.signer, super.KeepBatches(keepBatches),
		super.WatchResync(s.cfg.ConfirmEvery()/3), super.OnRejected(s.rejected))
	if err != nil {
		return fmt.Errorf("%w: %w", errFatal, err)
	}
	s.store = store
	wctx, stopWatch := context.WithCancel(ctx)
	var wg sync.WaitGroup
	wg.Go(func() { s.watch(wctx) })
	defer func() {
		stopWatch()
		wg.Wait()
	}()
	if err := s.start(ctx); err != nil {
		if ctx.Err() != nil {
			return nil
		}
		return err
	}
	s.resendClaims(ctx)
	s.flushAll(ctx)
	batch := time.NewTicker(s.cfg.BatchEvery())
	defer batch.Stop()
	resend := time.NewTicker(max(claimResend, s.cfg.BatchEvery()))
	defer resend.Stop()
	for {
		select {
		case <-ctx.Done():
			// An orderly stop: the batch in flight gets a moment to be
			// answered and recorded (were it cut, the next start would resend
			// it; this only keeps the ledger tidy for the inspector).
			drain, cancel := context.WithTimeout(context.WithoutCancel(ctx), 3*time.Second)
			s.flushAll(drain)
			cancel()
			return nil
		case h := <-s.claims:
			s.claim(ctx, h)
		case <-batch.C:
			s.flushAll(ctx)
		case <-resend.C:
			s.resendClaims(ctx)
		}
	}
}

// watch feeds etcd's snapshots of the pools to the broadcasts.
func (s *superLink) watch(ctx context.Context) {
	for snap := range s.store.Watch(ctx) {
		now := s.c.now()
		s.mu.Lock()
		for _, lv := range s.levels {
			v, ok := snap.Level(lv.ID)
			_, shown := s.values[lv.ID]
			switch {
			case snap.Err != nil || (ok && v.Closed):
				delete(s.values, lv.ID) // nothing of them may be shown
			case ok:
				s.values[lv.ID], s.confirmed[lv.ID] = v.Cents, now
				if !shown {
					s.c.log.Info("superjackpot value from etcd broadcast", "level", lv.ID, "cents", v.Cents, "revision", snap.Revision)
				}
				if s.stale[lv.ID] {
					s.stale[lv.ID] = false
					s.c.log.Info("superjackpot value confirmed by etcd again; broadcast", "level", lv.ID, "cents", v.Cents, "revision", snap.Revision)
				}
			}
		}
		s.mu.Unlock()
		if snap.Err != nil {
			s.complain("superjackpot pools unreadable; the shared levels are not broadcast", snap.Err)
		}
	}
}

// rejected names a forged value the Store met: an ERROR in the log and an
// event in the ledger. It was not counted nor paid.
func (s *superLink) rejected(r super.Rejection) {
	s.c.log.Error("superjackpot: a value in etcd does not verify: rejected, not counted nor paid", "key", r.Key, "revision", r.Revision,
		"signed_as", r.By, "reason", r.Reason, "claimed", r.What)
	detail := r.String()
	if len(detail) > ledger.MaxWhyLen {
		detail = strings.ToValidUTF8(detail[:ledger.MaxWhyLen], "")
	}
	if _, err := s.c.ledger.Commit(ledger.Event{At: s.c.now().UnixNano(), Code: ledger.EventSuperForged, Detail: detail}); err != nil {
		s.c.log.Error("superjackpot: the rejection not recorded in the ledger", "key", r.Key, "err", err)
	}
}

// start publishes the controller's key in the group (the others confirm
// their registration of it there), creates the shared levels in etcd
// unless they exist (with the same configuration on every controller of
// the group), and checks that etcd's record of this controller's batches
// is the ledger's. Transient errors are retried until ctx ends.
func (s *superLink) start(ctx context.Context) error {
	err := s.retry(ctx, "superjackpot key not published in etcd, retrying", s.store.Publish, super.ErrInvalid, super.ErrCorrupt)
	if err != nil {
		return fmt.Errorf("%w: %w", errFatal, err)
	}
	for _, lv := range s.levels {
		cfg, err := lv.config()
		if err != nil {
			return fmt.Errorf("%w: level %s: %w", errFatal, lv.ID, err)
		}
		err = s.retry(ctx, "superjackpot level not set up in etcd, retrying", func(ctx context.Context) error {
			created, err := s.store.Init(ctx, lv.ID, cfg, 0, s.c.cfg.Controller, s.c.now().UnixNano())
			if err == nil {
				s.c.log.Info("superjackpot level ready", "level", lv.ID, "prefix", s.cfg.Prefix, "created", created)
			}
			return err
		}, super.ErrConfigMismatch, super.ErrInvalid, super.ErrCorrupt, jackpot.ErrClosed, jackpot.ErrInvalid)
		if err != nil {
			if errors.Is(err, super.ErrConfigMismatch) {
				return fmt.Errorf("%w: level %s: the configuration (reset, rates, cap, second hit) differs from the one in etcd under %s; every controller of the group must configure it alike: %w",
					errFatal, lv.ID, s.cfg.Prefix, err)
			}
			return fmt.Errorf("%w: level %s: %w", errFatal, lv.ID, err)
		}
	}
	return s.retry(ctx, "superjackpot batches not read from etcd, retrying", func(ctx context.Context) error {
		log, err := s.store.Batches(ctx, s.c.cfg.Controller)
		if err != nil {
			return err
		}
		var applied, recorded uint64
		for _, lv := range s.levels {
			s.c.ledger.View(func(st *ledger.State) {
				sh, _ := st.SharedLevel(lv.ID)
				applied, recorded = sh.Applied, sh.NextSeq()-1
			})
		}
		if log.Last < applied || log.Last > recorded {
			return fmt.Errorf("%w: etcd under %s has applied batches 1-%d of controller %q, this ledger recorded 1-%d and has answers for 1-%d: another controller with the same ID, a ledger or an etcd cluster restored from an old copy, or another group: %w",
				errFatal, s.cfg.Prefix, log.Last, s.c.cfg.Controller, recorded, applied, super.ErrSequence)
		}
		return nil
	}, errFatal, super.ErrInvalid, super.ErrCorrupt)
}

// retry calls op with a bounded context until it succeeds, ctx ends or it
// fails with one of the fatal errors.
func (s *superLink) retry(ctx context.Context, what string, op func(context.Context) error, fatal ...error) error {
	for {
		octx, cancel := context.WithTimeout(ctx, s.op)
		err := op(octx)
		cancel()
		if err == nil || ctx.Err() != nil {
			return ctx.Err()
		}
		for _, f := range fatal {
			if errors.Is(err, f) {
				return err
			}
		}
		s.complain(what, err)
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(s.cfg.BatchEvery()):
		}
	}
}

// complain logs err, but the same message at most every errorEvery.
func (s *superLink) complain(what string, err error) {
	now := time.Now()
	msg := what + ": " + err.Error()
	s.logMu.Lock()
	repeat := msg == s.lastErr && now.Sub(s.lastAt) < errorEvery
	if !repeat {
		s.lastErr, s.lastAt = msg, now
	}
	s.logMu.Unlock()
	if repeat {
		return
	}
	s.c.count(func(st *Stats) { st.SuperErrors++ })
	var refused *ledger.Refused
	var fault *ledger.Fault
	if errors.Is(err, super.ErrConflict) || errors.Is(err, super.ErrSequence) || errors.Is(err, super.ErrCorrupt) ||
		errors.Is(err, super.ErrInvalid) || errors.Is(err, super.ErrUnverified) || errors.Is(err, super.ErrForged) ||
		errors.As(err, &refused) || errors.As(err, &fault) {
		s.c.log.Error(what, "err", err)
		return
	}
	s.c.log.Warn(what, "err", err)
}

// flushAll sends every shared level's coin-in.
func (s *superLink) flushAll(ctx context.Context) {
	for _, lv := range s.levels {
		if err := s.flush(ctx, lv.ID); err != nil && ctx.Err() == nil {
			s.complain("superjackpot batch not confirmed; sent again next round", err)
		}
	}
}

// flush sends a shared level's coin-in to etcd: first the batches recorded
// and not confirmed (after a lost answer or a crash), unchanged, then the
// coin-in fed until now in a new batch (more than one only beyond
// jackpot.MaxBet), recorded before it is sent. It stops at the first
// error: etcd takes a controller's batches in sequence only.
func (s *superLink) flush(ctx context.Context, level string) error {
	var sh ledger.Shared
	s.c.ledger.View(func(st *ledger.State) { sh, _ = st.SharedLevel(level) })
	for _, b := range sh.Pending {
		if err := s.send(ctx, b); err != nil {
			return err
		}
	}
	for due := sh.Unbatched; due > 0; {
		// Readings may have fed more since: the batch takes what is due
		// now, the rest goes in the next round.
		s.c.ledger.View(func(st *ledger.State) { sh, _ = st.SharedLevel(level) })
		bet := min(due, sh.Unbatched, jackpot.MaxBet)
		if bet <= 0 {
			return nil
		}
		res, err := s.c.ledger.Commit(ledger.SuperBatch{At: s.c.now().UnixNano(), Level: level, Seq: sh.NextSeq(), Bet: bet})
		if err != nil {
			return err
		}
		if err := s.send(ctx, *res.Batch); err != nil {
			return err
		}
		due -= bet
	}
	return nil
}

// send sends one recorded batch and records etcd's answer.
func (s *superLink) send(ctx context.Context, b ledger.Batch) error {
	octx, cancel := context.WithTimeout(ctx, s.op)
	r, err := s.store.Contribute(octx, super.Batch{Seq: b.Seq, Bet: b.Bet, At: b.At, Level: b.Level})
	cancel()
	if err != nil {
		return err
	}
	res, err := s.c.ledger.Commit(ledger.SuperApplied{At: s.c.now().UnixNano(), Level: b.Level, Seq: b.Seq,
		ContributionMC: r.Contribution, Triggered: len(r.Hits) > 0})
	if err != nil {
		return fmt.Errorf("batch %d of level %s: etcd's answer not recorded: %w", b.Seq, b.Level, err)
	}
	if !res.Repeat {
		s.c.count(func(st *Stats) {
			st.SuperBatches++
			if r.Replayed {
				st.SuperReplayed++
			}
		})
	}
	if r.Replayed {
		s.c.log.Info("superjackpot batch found applied", "level", b.Level, "seq", b.Seq, "cents", b.Bet, "replayed", true)
	} else {
		s.c.log.Debug("superjackpot batch applied", "level", b.Level, "seq", b.Seq, "cents", b.Bet, "revision", r.Revision)
	}
	return nil
}

// claim claims a cabinet's reported hit on a shared level from etcd. A
// claim recorded already is left to resendClaims, one answered to the
// session's confirmation. The level's coin-in goes first, so that the
// winning game's contribution is in the pool it wins. What fails is done
// when the cabinet reports the hit again (it does until it is paid).
func (s *superLink) claim(ctx context.Context, h hitClaim) {
	cl := h.claim
	known := false
	s.c.ledger.View(func(st *ledger.State) {
		sh, _ := st.SharedLevel(h.level)
		known = slices.ContainsFunc(sh.Unanswered, func(u ledger.SuperClaim) bool { return u.Machine == cl.Machine && u.Game == cl.Game })
		if m, ok := st.Machine(cl.Machine); ok && awarded(m, h.level, cl.Game) {
			known = true
		}
	})
	if known {
		return
	}
	if err := s.flush(ctx, h.level); err != nil {
		if ctx.Err() == nil {
			s.complain("superjackpot claim waits: the level's coin-in not sent", err)
		}
		return
	}
	res, err := s.c.ledger.Commit(ledger.SuperClaim{At: h.at.UnixNano(), Level: h.level, Machine: cl.Machine, Game: cl.Game, Bet: cl.Bet,
		Claimed: cl.Claimed, Paid: cl.Paid})
	if err != nil {
		s.complain(fmt.Sprintf("superjackpot claim of cabinet %s game %d refused", cl.Machine, cl.Game), err)
		return
	}
	if res.SuperClaim == nil {
		return // answered before
	}
	if err := s.sendClaim(ctx, *res.SuperClaim); err != nil && ctx.Err() == nil {
		s.complain("superjackpot claim not answered; sent again", err)
	}
}

// recordPaid records the claim of a hit its cabinet pays itself
// (broadcast award mode) before anything is sent: the cabinet will not
// report it again, so it must not wait for etcd. The worker sends it with
// the other unanswered claims (resendClaims); its award is the amount the
// cabinet paid.
func (s *superLink) recordPaid(h hitClaim) {
	cl := h.claim
	res, err := s.c.ledger.Commit(ledger.SuperClaim{At: h.at.UnixNano(), Level: h.level, Machine: cl.Machine, Game: cl.Game, Bet: cl.Bet,
		Claimed: cl.Claimed, Paid: true})
	if err != nil {
		s.c.log.Error("superjackpot claim of a hit the cabinet paid refused", "cabinet", cl.Machine, "level", h.level, "game", cl.Game, "err", err)
		return
	}
	if !res.Repeat {
		s.c.log.Info("superjackpot hit paid by the cabinet recorded", "cabinet", cl.Machine, "level", h.level, "game", cl.Game, "cents", cl.Claimed)
	}
}

// resendClaims sends again the claims recorded and not answered (a lost
// answer, a crash), unchanged: etcd answers a paid one as a replay.
func (s *superLink) resendClaims(ctx context.Context) {
	var pending []ledger.SuperClaim
	s.c.ledger.View(func(st *ledger.State) { pending = st.PendingSuperClaims() })
	for _, sc := range pending {
		if !s.c.cfg.shared(sc.Level) {
			continue
		}
		if err := s.sendClaim(ctx, sc); err != nil {
			if ctx.Err() == nil {
				s.complain("superjackpot claim not answered; sent again", err)
			}
			return
		}
	}
}

// sendClaim sends one recorded claim and records etcd's answer: the
// award is then pending for the cabinet, confirmed by its session.
func (s *superLink) sendClaim(ctx context.Context, sc ledger.SuperClaim) error {
	octx, cancel := context.WithTimeout(ctx, s.op)
	r, err := s.store.Claim(octx, super.HitID{Machine: sc.Machine, Game: sc.Game, Level: sc.Level, Bet: sc.Bet, At: sc.At,
		Shown: sc.Claimed, Paid: sc.Paid}, sc.NextTargetMC)
	cancel()
	if err != nil {
		return err
	}
	res, err := s.c.ledger.Commit(ledger.SuperClaimed{At: s.c.now().UnixNano(), Level: sc.Level, Machine: sc.Machine, Game: sc.Game,
		AmountMC: r.Amount, Order: r.Order, Revision: r.Revision})
	if err != nil {
		return fmt.Errorf("claim of cabinet %s game %d: etcd's answer not recorded: %w", sc.Machine, sc.Game, err)
	}
	if !res.Repeat {
		s.c.count(func(st *Stats) { st.Hits++ })
		s.c.log.Info("superjackpot hit awarded", "level", sc.Level, "cabinet", sc.Machine, "game", sc.Game, "claimed", sc.Claimed,
			"cents", r.Cents(), "order", r.Order, "revision", r.Revision, "replayed", r.Replayed)
	}
	return nil
}
