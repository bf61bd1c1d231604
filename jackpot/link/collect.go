package link

import (
	"context"
	"errors"
	"slices"
	"time"

	"github.com/openegm/cabinet/jackpot/ledger"
)

var errMeters = errors.New("the cabinet did not send the meters asked for")

// hitClaim is a reported hit on its way to the ledger.
type hitClaim struct {
	level string
	at    time.Time
	claim ledger.Claim
}

// collect records hits: claims on one level that arrive within Settle of
// the first are recorded together, in arrival order, so the level's
// second-hit rule (wins-reset or split) applies between them.
func (c *Controller) collect(ctx context.Context) {
	type gather struct {
		first  time.Time
		claims []ledger.Claim
	}
	open := map[string]*gather{}
	tick := time.NewTicker(10 * time.Millisecond)
	defer tick.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case h := <-c.hits:
			if c.sup != nil && c.cfg.shared(h.level) {
				c.sup.offer(h) // claimed from etcd one by one, in arrival order
				continue
			}
			g := open[h.level]
			if g == nil {
				g = &gather{first: h.at}
				open[h.level] = g
			}
			if !slices.ContainsFunc(g.claims, func(x ledger.Claim) bool { return x.Machine == h.claim.Machine && x.Game == h.claim.Game }) {
				g.claims = append(g.claims, h.claim)
			}
		case now := <-tick.C:
			for level, g := range open {
				if now.Sub(g.first) < c.cfg.Settle() {
					continue
				}
				delete(open, level)
				c.record(level, g.claims, now)
			}
		}
	}
}

// recordPaid records at once a hit the cabinet pays itself (broadcast
// award mode): its amount is what the cabinet showed, whatever else
// happens on the level, and the cabinet will not report it again.
func (c *Controller) recordPaid(h hitClaim) {
	if c.sup != nil && c.cfg.shared(h.level) {
		c.sup.recordPaid(h)
		return
	}
	c.record(h.level, []ledger.Claim{h.claim}, h.at)
}

// record commits one Hit with its claims. Claims already recorded are
// repeats (the cabinet reports a hit until it is paid); the ledger answers
// them with the earlier payout and logs nothing.
func (c *Controller) record(level string, claims []ledger.Claim, now time.Time) {
	var fresh []ledger.Claim
	c.ledger.View(func(s *ledger.State) {
		for _, cl := range claims {
			if m, ok := s.Machine(cl.Machine); ok && awarded(m, level, cl.Game) {
				continue
			}
			fresh = append(fresh, cl)
		}
	})
	if len(fresh) == 0 {
		return
	}
	res, err := c.ledger.Commit(ledger.Hit{At: now.UnixNano(), Level: level, Claims: fresh})
	if err != nil {
		c.log.Error("hit refused", "level", level, "claims", fresh, "err", err)
		return
	}
	for _, p := range res.Payouts {
		c.count(func(s *Stats) { s.Hits++ })
		c.log.Info("hit awarded", "level", p.Level, "cabinet", p.Machine, "game", p.Game, "claimed", p.Claimed, "cents", p.Amount, "order", p.Order)
	}
}

// awarded reports whether the ledger has an award for m's game on level.
func awarded(m ledger.Machine, level string, game uint64) bool {
	for _, t := range m.Awards {
		if t.Level == level && t.Last >= game && t.Last != 0 {
			return true
		}
	}
	return false
}
