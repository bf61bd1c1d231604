package link

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"slices"
	"sync"
	"time"

	"github.com/openegm/cabinet/jackpot"
	"github.com/openegm/cabinet/jackpot/ledger"
	"github.com/openegm/cabinet/sas"
	"github.com/openegm/cabinet/sas/host"
)

// lineSilence is how long a line may stay without any answer before it is
// reopened.
const lineSilence = 3 * time.Second

var errSilent = errors.New("no cabinet answered for 3 s")

// Controller runs the link to the cabinets of one casino.
type Controller struct {
	cfg    *Config
	ledger *ledger.Ledger
	log    *slog.Logger
	now    func() time.Time
	hits   chan hitClaim
	sup    *superLink // nil without a superjackpot section
	// readq takes the lines' readings to the committer, which closes
	// committerDone when it stops.
	readq         chan *readingsReq
	committerDone chan struct{}

	mu    sync.Mutex
	stats Stats
}

// Stats are what the controller measured, for its log and benchmarks.
type Stats struct {
	Broadcasts int           // global broadcasts sent
	MaxGap     time.Duration // longest time between two broadcasts on a channel
	Readings   int           // meter readings committed
	Hits       int           // claims recorded (repeats excluded)
	Confirmed  int           // awards the cabinets confirmed paid
	PollErrors int
	// Superjackpot: batches etcd confirmed (SuperReplayed of them found
	// applied already: a resend after a lost answer or a crash), and
	// errors logged.
	SuperBatches  int
	SuperReplayed int
	SuperErrors   int
}

// New sets the controller up on its ledger: the configured levels and
// cabinets that the ledger does not have yet are opened (the ledger is the
// truth from then on; a changed configuration of an existing level is
// refused, to be done by a transfer instead).
func New(cfg *Config, l *ledger.Ledger, log *slog.Logger) (*Controller, error) {
	c := &Controller{cfg: cfg, ledger: l, log: log, now: time.Now, hits: make(chan hitClaim, 256)}
	st := l.State()
	at := c.now().UnixNano()
	for _, lv := range cfg.Levels {
		rec, err := lv.setup(at, nil)
		if err != nil {
			return nil, err
		}
		_, local := st.Level(lv.ID)
		_, shared := st.SharedLevel(lv.ID)
		switch {
		case cfg.shared(lv.ID) && local:
			return nil, fmt.Errorf("level %s: configured shared (superjackpot), but the ledger holds it as a local level; transfer its value to a new level instead", lv.ID)
		case !cfg.shared(lv.ID) && shared:
			return nil, fmt.Errorf("level %s: configured local, but the ledger holds it as a shared level (superjackpot)", lv.ID)
		case shared:
			continue // its configuration is checked against etcd's (Run)
		case cfg.shared(lv.ID):
			if _, err := l.Commit(ledger.SetupShared{At: at, Level: lv.ID, Who: "configuration"}); err != nil {
				return nil, fmt.Errorf("level %s: %w", lv.ID, err)
			}
			continue
		}
		if v, ok := st.Level(lv.ID); ok {
			want, _ := rec.Config()
			if v.Config != want {
				return nil, fmt.Errorf("level %s: the configuration differs from the one in the ledger (%+v); a level's rules do not change, transfer its value to a new level instead", lv.ID, v.Config)
			}
			continue
		}
		if _, err := l.Commit(rec); err != nil {
			return nil, fmt.Errorf("level %s: %w", lv.ID, err)
		}
	}
	for _, ch := range cfg.Channels {
		for _, cab := range ch.Cabinets {
			if m, ok := st.Machine(cab.ID); ok && m.SAS == cab.Addr && slices.Equal(m.Levels, cab.Levels) {
				continue
			}
			if _, err := l.Commit(ledger.SetupMachine{At: at, Machine: cab.ID, SAS: cab.Addr, Levels: cab.Levels, Who: "configuration"}); err != nil {
				return nil, fmt.Errorf("cabinet %s: %w", cab.ID, err)
			}
		}
	}
	if cfg.Super != nil {
		c.sup = newSuperLink(c)
	}
	return c, nil
}

// Stats returns a copy of the counters.
func (c *Controller) Stats() Stats {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.stats
}

func (c *Controller) count(f func(*Stats)) {
	c.mu.Lock()
	f(&c.stats)
	c.mu.Unlock()
}

// Run serves every channel, and the superjackpot if configured, until ctx
// ends. It stops early, with an error, if etcd and this controller
// disagree on a shared level (its configuration, or the batches sent).
func (c *Controller) Run(ctx context.Context) error {
	c.ledger.Commit(ledger.Event{At: c.now().UnixNano(), Code: ledger.EventStart, Detail: c.cfg.Controller})
	// The committer outlives the lines: their last readings go through it
	// as they stop.
	c.readq, c.committerDone = make(chan *readingsReq, 64), make(chan struct{})
	cctx, stopCommitter := context.WithCancel(context.Background())
	committer := make(chan struct{})
	go func() {
		defer close(committer)
		c.commitReadings(cctx)
	}()
	defer func() { stopCommitter(); <-committer }()
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	var wg sync.WaitGroup
	errs := make(chan error, len(c.cfg.Channels)+1)
	if c.sup != nil {
		cli, err := c.sup.dial()
		if err != nil {
			return err
		}
		defer cli.Close()
		wg.Go(func() {
			if err := c.sup.run(ctx, cli); err != nil {
				c.log.Error("superjackpot stopped the controller", "err", err)
				errs <- err
				cancel()
			}
		})
	}
	wg.Add(1)
	go func() {
		defer wg.Done()
		c.collect(ctx)
	}()
	for _, ch := range c.cfg.Channels {
		wg.Add(1)
		go func() {
			defer wg.Done()
			errs <- c.serveChannel(ctx, ch)
		}()
	}
	wg.Wait()
	close(errs)
	var all []error
	for err := range errs {
		if err != nil && !errors.Is(err, context.Canceled) {
			all = append(all, err)
		}
	}
	return errors.Join(all...)
}

// values are the levels' current values for the broadcast, in cents.
func (c *Controller) values() []sas.LevelValue {
	var out []sas.LevelValue
	c.ledger.View(func(s *ledger.State) {
		for _, lv := range c.cfg.Levels {
			if c.sup != nil && c.cfg.shared(lv.ID) {
				if cents, ok := c.sup.value(lv.ID); ok {
					out = append(out, sas.LevelValue{Level: byte(lv.SAS), Amount: uint64(cents)})
				}
				continue
			}
			v, ok := s.Level(lv.ID)
			if !ok {
				continue
			}
			out = append(out, sas.LevelValue{Level: byte(lv.SAS), Amount: uint64(jackpot.Cents(v.Meters.Current))})
		}
	})
	return out
}

// openPort opens a channel's line, retrying until ctx ends (a cabinet
// that is not up yet, a serial server that restarts).
func openPort(ctx context.Context, ch Channel) (sas.Port, error) {
	switch {
	case ch.PTY != "":
		return sas.OpenTTY(ch.PTY)
	case ch.Serial != "":
		return sas.OpenSerial(ch.Serial)
	default:
		return sas.DialTCP(ctx, ch.TCP)
	}
}

// serveChannel polls the cabinets of one line in turn and broadcasts the
// values on it. A lost line is reopened.
func (c *Controller) serveChannel(ctx context.Context, ch Channel) error {
	for ctx.Err() == nil {
		port, err := openPort(ctx, ch)
		if err != nil {
			c.log.Warn("channel not open, retrying", "channel", ch.Name, "err", err)
			select {
			case <-ctx.Done():
			case <-time.After(time.Second):
			}
			continue
		}
		err = c.pollLine(ctx, ch, port)
		port.Close()
		if ctx.Err() == nil {
			c.log.Warn("channel lost, reopening", "channel", ch.Name, "err", err)
			time.Sleep(200 * time.Millisecond)
		}
	}
	return ctx.Err()
}

func (c *Controller) pollLine(ctx context.Context, ch Channel, port sas.Port) error {
	batch := &readings{c: c}
	defer batch.flush()
	sessions := make([]*session, len(ch.Cabinets))
	for i, cab := range ch.Cabinets {
		cl := host.New(port, host.Options{Addr: byte(cab.Addr), Escape: ch.Framing == "parmrk", Retries: 2, Timeout: 60 * time.Millisecond})
		sessions[i] = &session{c: c, cab: cab, cl: cl, batch: batch}
	}
	bcast := sessions[0].cl
	var last time.Time
	lastAnswer := c.now()
	// broadcast sends the values when they are due. It is looked at after
	// every cabinet's step, not only after a round: a round waits for
	// every cabinet of the line, and one slow or silent cabinet (three
	// 60 ms timeouts), or a machine whose cores are busy with something
	// else, made every other cabinet of the line wait a whole round for
	// its values. Never before the line's first round: the cabinets are
	// asked who they are before the first broadcast on a line just
	// opened, and a line that another machine answers gets none.
	rounds := 0
	broadcast := func() error {
		now := c.now()
		if rounds == 0 || now.Sub(last) < c.cfg.BroadcastEvery() || slices.ContainsFunc(sessions, func(s *session) bool { return s.wrong }) {
			return nil
		}
		if err := bcast.Broadcast(byte(c.cfg.Group), c.values(), true); err != nil {
			return err
		}
		c.count(func(s *Stats) {
			s.Broadcasts++
			if !last.IsZero() && now.Sub(last) > s.MaxGap {
				s.MaxGap = now.Sub(last)
			}
		})
		last = now
		return nil
	}
	for ctx.Err() == nil {
		now := c.now()
		answered := false
		for _, s := range sessions {
			if err := s.step(ctx); err != nil {
				c.count(func(st *Stats) { st.PollErrors++ })
				c.log.Debug("poll", "cabinet", s.cab.ID, "err", err)
			} else {
				answered = true
			}
			if err := broadcast(); err != nil {
				return err
			}
		}
		rounds++
		// The round's readings to the committer; the broadcast says what
		// is durable, and the next one what these add.
		if err := batch.send(); err != nil {
			c.count(func(st *Stats) { st.PollErrors++ })
		}
		if err := broadcast(); err != nil {
			return err
		}
		if answered {
			lastAnswer = now
		} else if now.Sub(lastAnswer) > lineSilence {
			// Nobody on the line for a while: reopen it (a cabinet that
			// restarted made a new pseudo-terminal; a serial server that
			// restarted dropped the connection).
			return errSilent
		}
		select {
		case <-ctx.Done():
		case <-time.After(20 * time.Millisecond):
		}
	}
	return ctx.Err()
}
