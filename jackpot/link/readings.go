package link

import (
	"context"
	"errors"

	"github.com/openegm/cabinet/jackpot/ledger"
)

// readings are the meter readings a line took in one round, waiting to be
// committed together. A reading alone is tiny and its fsync is everything
// it costs: one synced commit per reading made the controller's ledger the
// floor's bottleneck (issue 26). A round's readings go to the controller's
// committer, which commits what every line handed it meanwhile in one
// batch, and the line polls on without waiting for it: nothing needs a
// periodic reading durable except the claim of a hit, which flushes first.
// Nothing is counted from a reading before its batch is durable: the
// session's games meter and the contributions move only then.
type readings struct {
	c        *Controller
	recs     []ledger.Record
	from     []*session
	tokens   []uint64
	inflight *readingsReq // handed to the committer, its answer not yet taken
	next     uint64
}

// add queues s's reading for the round's commit; s.pending names it until
// it is durable (a refused one leaves it named).
func (b *readings) add(s *session, m ledger.Meters) {
	b.next++
	s.pending = b.next
	b.recs = append(b.recs, m)
	b.from = append(b.from, s)
	b.tokens = append(b.tokens, b.next)
}

// send hands the queued readings to the committer without waiting for
// them; the answer of the previous hand-off is taken first, so a line has
// one batch in flight and its cabinets' records stay in order.
func (b *readings) send() error {
	err := b.settle()
	if len(b.recs) == 0 {
		return err
	}
	req := &readingsReq{recs: b.recs, from: b.from, tokens: b.tokens, done: make(chan struct{})}
	b.recs, b.from, b.tokens = nil, nil, nil
	select {
	case b.c.readq <- req:
		b.inflight = req
	case <-b.c.committerDone:
		return errors.Join(err, errCommitterStopped)
	}
	return err
}

// flush makes every reading of the line durable before it returns.
func (b *readings) flush() error {
	if err := b.send(); err != nil {
		b.settle()
		return err
	}
	return b.settle()
}

// settle waits for the batch in flight and applies its answer.
func (b *readings) settle() error {
	req := b.inflight
	if req == nil {
		return nil
	}
	b.inflight = nil
	select {
	case <-req.done:
	case <-b.c.committerDone:
		select {
		case <-req.done:
		default:
			return errCommitterStopped
		}
	}
	fresh := 0
	for i, s := range req.from {
		if req.refused[i] || req.res == nil {
			continue
		}
		if s.pending == req.tokens[i] {
			s.pending = 0
		}
		s.games = req.recs[i].(ledger.Meters).GamesPlayed
		if !req.res[i].Repeat {
			fresh++
		}
	}
	b.c.count(func(st *Stats) { st.Readings += fresh })
	return req.err
}

var errCommitterStopped = errors.New("the controller's committer stopped")

// readingsReq is one line's batch on its way through the committer.
type readingsReq struct {
	recs    []ledger.Record
	from    []*session
	tokens  []uint64
	res     []ledger.Result // nil when nothing was committed
	refused []bool
	err     error
	done    chan struct{}
}

// commitReadings is the controller's committer: it takes the lines'
// batches in the order they come and commits all it has in one group
// (one write and one fsync), so the number of fsyncs follows the disk,
// not the lines.
func (c *Controller) commitReadings(ctx context.Context) {
	defer close(c.committerDone)
	var carry *readingsReq
	for {
		group := []*readingsReq{}
		if carry != nil {
			group, carry = append(group, carry), nil
		} else {
			select {
			case <-ctx.Done():
				return
			case r := <-c.readq:
				group = append(group, r)
			}
		}
		n := len(group[0].recs)
	more:
		for {
			select {
			case r := <-c.readq:
				if n+len(r.recs) > ledger.MaxBatch {
					carry = r
					break more
				}
				group, n = append(group, r), n+len(r.recs)
			default:
				break more
			}
		}
		c.commitGroup(group)
		for _, r := range group {
			close(r.done)
		}
	}
}

// commitGroup commits the readings of group in one batch. A reading the
// ledger refuses is left out (logged, as a lone reading's refusal was)
// and the others are committed without it: the cabinet is read again
// next time.
func (c *Controller) commitGroup(group []*readingsReq) {
	type at struct{ req, i int }
	var all []ledger.Record
	var where []at
	for k, r := range group {
		r.refused = make([]bool, len(r.recs))
		for i, rec := range r.recs {
			all, where = append(all, rec), append(where, at{k, i})
		}
	}
	for len(all) > 0 {
		res, err := c.ledger.CommitBatch(all...)
		var ref *ledger.Refused
		if errors.As(err, &ref) && ref.Index >= 0 && ref.Index < len(all) {
			w := where[ref.Index]
			r := group[w.req]
			m := r.recs[w.i].(ledger.Meters)
			r.refused[w.i] = true
			c.log.Error("reading refused", "cabinet", r.from[w.i].cab.ID, "coin_in", m.CoinIn, "games", m.GamesPlayed, "err", ref.Err)
			all = append(all[:ref.Index], all[ref.Index+1:]...)
			where = append(where[:ref.Index], where[ref.Index+1:]...)
			continue
		}
		if err != nil && res == nil {
			c.log.Error("readings not committed", "readings", len(all), "err", err)
			for _, r := range group {
				r.err = err
			}
			return
		}
		// res with an error: durable, and the ledger stopped after it (its
		// checkpoint failed); the readings count, the next commit fails.
		for _, r := range group {
			r.res, r.err = make([]ledger.Result, len(r.recs)), err
		}
		for j, w := range where {
			group[w.req].res[w.i] = res[j]
		}
		return
	}
	for _, r := range group { // every reading refused
		r.res = make([]ledger.Result, len(r.recs))
	}
}
