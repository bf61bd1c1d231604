package link

import (
	"errors"

	"github.com/openegm/cabinet/jackpot/ledger"
)

// readings are the meter readings a line took in one round, waiting to be
// committed together. A reading alone is tiny and its fsync is everything
// it costs: one synced commit per reading made the controller's ledger the
// floor's bottleneck (issue 26), so a round's readings share one. Nothing
// is counted from a reading before its batch is durable: the session's
// games meter and the contributions move only when flush has committed it.
type readings struct {
	c    *Controller
	recs []ledger.Record
	from []*session
}

// add queues s's reading for the round's commit. s.queued stays set
// until the reading is durable: a refused one leaves it set.
func (b *readings) add(s *session, m ledger.Meters) {
	s.queued = true
	b.recs = append(b.recs, m)
	b.from = append(b.from, s)
}

// flush commits the queued readings in one batch. A reading the ledger
// refuses is dropped (logged, as a lone reading's refusal was) and the
// others are committed without it: the cabinet is read again next time.
// A fault stops the line, as it stops every commit after it.
func (b *readings) flush() error {
	defer func() { b.recs, b.from = b.recs[:0], b.from[:0] }()
	for len(b.recs) > 0 {
		n := min(len(b.recs), ledger.MaxBatch)
		res, err := b.c.ledger.CommitBatch(b.recs[:n]...)
		var ref *ledger.Refused
		if errors.As(err, &ref) && ref.Index >= 0 && ref.Index < n {
			s, m := b.from[ref.Index], b.recs[ref.Index].(ledger.Meters)
			b.c.log.Error("reading refused", "cabinet", s.cab.ID, "coin_in", m.CoinIn, "games", m.GamesPlayed, "err", ref.Err)
			b.recs = append(b.recs[:ref.Index], b.recs[ref.Index+1:]...)
			b.from = append(b.from[:ref.Index], b.from[ref.Index+1:]...)
			continue
		}
		if err != nil && res == nil {
			b.c.log.Error("readings not committed", "readings", len(b.recs), "err", err)
			return err
		}
		// res with an error: durable, and the ledger stopped after it (its
		// checkpoint failed); the readings count, the next commit fails.
		fresh := 0
		for i, r := range res {
			s := b.from[i]
			s.queued = false
			s.games = b.recs[i].(ledger.Meters).GamesPlayed
			if !r.Repeat {
				fresh++
			}
		}
		b.c.count(func(st *Stats) { st.Readings += fresh })
		if err != nil {
			return err
		}
		b.recs, b.from = b.recs[n:], b.from[n:]
	}
	return nil
}
