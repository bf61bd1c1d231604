package machine

import (
	"fmt"
	"slices"

	"github.com/openegm/cabinet/meters"
)

// The link controller's side of the machine (regulation rule 4): linked
// levels' values arrive by broadcast; a hit on a linked level is reported
// with the value the player saw (the claim) and waits, with play locked,
// for the controller to confirm the amount; 5 s without progressive
// information is a link down, during which no bet that could win a linked
// level is taken.

func (m *Machine) linkBroadcast(e LinkBroadcast, eff *Effects) {
	if e.Addressed && len(e.Values) == 1 {
		for lv, cents := range e.Values {
			if m.confirmAward(lv, cents, eff) {
				return
			}
		}
	}
	for lv, cents := range e.Values {
		if slices.Contains(m.cfg.Linked, lv) && cents > 0 {
			m.link[lv], m.linkAt[lv] = cents, m.now
		}
	}
	m.watchLink(eff)
}

// watchLink records the link going down (a linked level without news for
// LinkTimeout) and coming back (every linked level fresh again).
func (m *Machine) watchLink(eff *Effects) {
	if !m.poweredUp || len(m.cfg.Linked) == 0 {
		return
	}
	stale := ""
	for _, lv := range m.cfg.Linked {
		if m.now.Sub(m.linkAt[lv]) > LinkTimeout {
			stale = fmt.Sprintf("no value for level %d since %s", lv, m.linkAt[lv].UTC().Format("15:04:05.000"))
			break
		}
	}
	switch {
	case stale != "" && !m.linkDown:
		if m.record(eff, meters.Event{At: m.ns(), Code: meters.EventLinkDown, Detail: stale}) {
			m.linkDown = true
		}
	case stale == "" && m.linkDown:
		if m.record(eff, meters.Event{At: m.ns(), Code: meters.EventLinkUp}) {
			m.linkDown = false
		}
	}
}

// reportLinkedHits reports each hit on a linked level once, with the value
// the machine shows for it (a hit waits until a value is known).
func (m *Machine) reportLinkedHits(eff *Effects) {
	for _, h := range m.st.PendingHits {
		if h.Cents != 0 || m.st.IsLocalLevel(h.Level) {
			continue
		}
		claim := m.link[h.Level]
		if claim <= 0 {
			continue
		}
		if !m.record(eff, meters.ProgressiveHit{At: m.ns(), Game: h.Game, Level: h.Level, Cents: claim}) {
			return
		}
		m.say("msg_jackpot_wait", claim)
	}
}

// confirmAward pays the oldest reported hit on linked level lv with the
// amount the controller confirmed: to credits, or by an attendant at or
// above the handpay limit. It reports whether there was such a hit.
func (m *Machine) confirmAward(lv int, cents int64, eff *Effects) bool {
	i := slices.IndexFunc(m.st.PendingHits, func(h meters.ProgressiveHit) bool {
		return h.Level == lv && h.Cents != 0 && !m.st.IsLocalLevel(lv)
	})
	if i < 0 || cents <= 0 || m.st.Handpay != nil || m.st.OwedHandpay != 0 || m.st.Open != nil {
		return false
	}
	h := m.st.PendingHits[i]
	attendant := cents >= m.cfg.HandpayLimit
	if !m.record(eff, meters.ProgressiveAward{At: m.ns(), Game: h.Game, Level: lv, Cents: cents, Attendant: attendant}) {
		return true
	}
	if attendant {
		m.record(eff, meters.HandpayPending{At: m.ns(), Kind: meters.HandpayProgressive, Cents: cents, Game: h.Game, Level: lv})
		m.say("msg_jackpot_handpay", cents)
	} else {
		m.say("msg_jackpot_won", cents)
	}
	return true
}

// LinkedClaims are the reported hits on linked levels waiting for the
// controller's confirmation, oldest first: what SAS long polls 0x85 and
// 0x87 answer (they survive a restart: they are in the ledger).
func (m *Machine) LinkedClaims() []meters.ProgressiveHit {
	var out []meters.ProgressiveHit
	for _, h := range m.st.PendingHits {
		if h.Cents != 0 && !m.st.IsLocalLevel(h.Level) {
			out = append(out, h)
		}
	}
	return out
}
