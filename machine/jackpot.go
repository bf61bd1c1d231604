package machine

import (
	"fmt"
	"slices"

	"github.com/openegm/cabinet/jackpot"
	"github.com/openegm/cabinet/meters"
	"github.com/openegm/cabinet/reels"
)

// The cabinet's own jackpot (regulation rule 3): the levels live in the
// ledger (meters' fold keeps them as jackpot pools); the machine only decides
// which levels a bet feeds, which hits a spin makes, and when a hit is paid.

// openLocalLevels opens the configured local levels the ledger does not have
// yet. A mystery level's first hit value is drawn now by the certified RNG
// and committed in the record before it is used.
func (m *Machine) openLocalLevels(eff *Effects) {
	if m.src == nil {
		return // the RNG failed its self-test: the machine is tilted
	}
	for _, c := range m.cfg.LocalJackpot {
		if m.st.IsLocalLevel(c.Level) {
			continue
		}
		r := c
		r.At, r.Who = m.ns(), "configuration"
		cfg, err := r.JackpotConfig()
		if err != nil {
			m.fault = fmt.Sprintf("internal: jackpot level %d: %v", c.Level, err)
			return
		}
		if r.Mystery {
			if r.Target, err = jackpot.DrawTarget(cfg, m.src); err != nil {
				m.fault = fmt.Sprintf("internal: jackpot level %d: %v", c.Level, err)
				return
			}
		}
		if !m.record(eff, r) {
			return
		}
	}
}

// awards reports whether a jackpot system awards paytable level n now: the
// local jackpot, or the link controller while the link is up and has sent
// the level's value.
func (m *Machine) awards(n int) bool {
	if cfg, ok := m.st.LocalConfig(n); ok {
		return cfg.Trigger == jackpot.TriggerPaytable
	}
	if !slices.Contains(m.cfg.Linked, n) || m.linkDown {
		return false
	}
	_, known := m.link[n]
	return known
}

// named reports whether the loaded paytable has a combination that wins
// level n.
func named(pt *reels.Certified, n int) bool {
	return slices.ContainsFunc(pt.LinePays, func(lp reels.Pay) bool { return lp.Progressive == n })
}

// qualifying lists the local levels a bet at level feeds: every mystery
// level, and at the top bet the paytable levels the paytable can win (a
// bet that cannot win a level does not pay into it).
func (m *Machine) qualifying(level int) []int {
	top := level == m.pt.TopLevel()
	var out []int
	for _, l := range m.st.LocalLevels() {
		if l.Mystery || (top && named(m.pt, l.Level)) {
			out = append(out, l.Level)
		}
	}
	return out
}

// newHits lists the levels a spin wins that game has not won yet (game 0:
// a new game), ascending: a level is won at most once per game.
func (m *Machine) newHits(sp *reels.Spin, game uint64) []int {
	var out []int
	for _, lv := range sp.Progressives() {
		if slices.Contains(out, lv) {
			continue
		}
		if game != 0 && slices.ContainsFunc(m.st.PendingHits, func(h meters.ProgressiveHit) bool { return h.Game == game && h.Level == lv }) {
			continue
		}
		out = append(out, lv)
	}
	slices.Sort(out)
	return out
}

// awardHits pays the pending hits on local levels once the game is over
// and nothing stands in the way (a handpay, an open door, a tilt): to the
// credit meter, or by an attendant at or above the handpay limit. Hits on
// linked levels wait for the link controller.
func (m *Machine) awardHits(eff *Effects) {
	for m.poweredUp && m.st.Open == nil && m.st.Handpay == nil && m.st.OwedHandpay == 0 &&
		len(m.st.Tilts) == 0 && len(m.st.DoorsOpen) == 0 && m.fault == "" {
		m.reportLinkedHits(eff)
		if m.st.Handpay != nil || m.st.OwedHandpay != 0 {
			return // a linked hit paid by hand
		}
		i := slices.IndexFunc(m.st.PendingHits, func(h meters.ProgressiveHit) bool { return m.st.IsLocalLevel(h.Level) })
		if i < 0 {
			return
		}
		h := m.st.PendingHits[i]
		var target int64
		if cfg, _ := m.st.LocalConfig(h.Level); cfg.Trigger == jackpot.TriggerMystery {
			var err error
			if target, err = jackpot.DrawTarget(cfg, m.src); err != nil {
				m.fault = fmt.Sprintf("internal: jackpot level %d: %v", h.Level, err)
				return
			}
		}
		cents, err := m.st.LocalAward(h.Level, h.Game, target, m.ns())
		if err != nil {
			m.fault = "internal: " + err.Error()
			return
		}
		attendant := cents >= m.cfg.HandpayLimit
		if !m.record(eff, meters.ProgressiveAward{At: m.ns(), Game: h.Game, Level: h.Level, Cents: cents, Attendant: attendant, Target: target}) {
			return
		}
		if attendant {
			m.record(eff, meters.HandpayPending{At: m.ns(), Kind: meters.HandpayProgressive, Cents: cents, Game: h.Game, Level: h.Level})
			m.say("msg_jackpot_handpay", cents)
			return
		}
		m.say("msg_jackpot_won", cents)
	}
}
