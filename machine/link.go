package machine

import (
	"fmt"
	"slices"
	"time"

	"github.com/openegm/cabinet/meters"
)

// The link controller's side of the machine (regulation rule 4): linked
// levels' values arrive by broadcast; a hit on a linked level is reported
// with the value the player saw (the claim), with play locked until it is
// paid; 5 s without progressive information is a link down, during which
// no bet that could win a linked level is taken.
//
// How a reported hit is paid is the operator's choice (Config.LinkAward):
//
//   - "broadcast", the default, is what a standard SAS progressive
//     controller expects: the host reads the hit (0x85 or 0x87) and, once
//     it has received the reply (the implied acknowledgement: it moved
//     on), the machine pays the value it reported, to credits or by
//     handpay at the handpay limit; the host then resets the level. The
//     machine needs nothing from the host but its broadcasts and its read.
//   - "addressed": the machine waits for the controller's addressed
//     single-level 0x80 for that level, which carries the amount the
//     controller decided (the order of near-simultaneous hits, the
//     second-hit rule). It never pays more than the claim it reported for
//     that hit: a larger amount is refused, recorded once, and the hit
//     stays pending for the controller or an attendant.
//
// Either way a hit is identified by its level and game: the machine holds
// at most one pending hit per level (it is locked while one is pending),
// and applies a confirmation or a read only to the hit it names.

// Link award modes (Config.LinkAward).
const (
	LinkAwardBroadcast = "broadcast"
	LinkAwardAddressed = "addressed"
)

// SettingLinkAward is the settings key recording the link award mode.
const SettingLinkAward = "link_award"

// LinkConfirm is an addressed single-level 0x80 for a level on which the
// machine was reporting a hit when the poll arrived: in addressed mode, the
// controller's amount for that hit. Game is the game of the hit the machine
// was reporting on Level then (its SAS port answers 0x85/0x87 from the
// same committed state), so a confirmation that arrives after that hit was
// paid cannot pay a later one.
type LinkConfirm struct {
	At    time.Time
	Level int
	Game  uint64
	Cents int64
}

// LinkWinsRead tells the machine that the host has received its report of
// these hits (the implied acknowledgement of its reply to 0x85 or 0x87).
// In broadcast mode that releases them: each is paid the value reported.
type LinkWinsRead struct {
	At   time.Time
	Hits []meters.ProgressiveHit
}

func (e LinkConfirm) at() time.Time  { return e.At }
func (e LinkWinsRead) at() time.Time { return e.At }

// linkPay is what the machine remembers, in memory, of its hits' payment:
// the hits the host has read that wait for a moment when they can be paid
// (a door open, a tilt), and the refusals already recorded.
type linkPay struct {
	read    map[int]uint64 // level: game
	refused map[refusal]bool
}

type refusal struct {
	level int
	game  uint64
	cents int64
}

func (m *Machine) linkAward() string {
	if m.cfg.LinkAward == "" {
		return LinkAwardBroadcast
	}
	return m.cfg.LinkAward
}

// recordLinkSettings records the link award mode in the ledger's settings
// when it differs from the last one recorded, so an inspector sees how the
// machine paid its linked hits and since when.
func (m *Machine) recordLinkSettings(eff *Effects) {
	if len(m.cfg.Linked) == 0 {
		return
	}
	if mode := m.linkAward(); m.st.Settings[SettingLinkAward] != mode {
		m.record(eff, meters.Config{At: m.ns(), Who: "configuration", Key: SettingLinkAward, Value: mode})
	}
}

func (m *Machine) linkBroadcast(e LinkBroadcast, eff *Effects) {
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
// the machine shows for it (a hit waits until a value is known), and pays
// the hits the host has read (broadcast mode). The caller has checked that
// nothing stands in the way of a payment.
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
	for lv, game := range m.pay.read {
		h, ok := m.st.ReportedLinkedHit(lv)
		if !ok || h.Game != game {
			delete(m.pay.read, lv) // paid, or a RAM clear
			continue
		}
		if m.st.Handpay != nil || m.st.OwedHandpay != 0 {
			return
		}
		delete(m.pay.read, lv)
		m.payLinked(h, h.Cents, eff)
	}
}

// linkWinsRead releases, in broadcast mode, the hits the host has read:
// each is paid the value reported, now if nothing stands in the way (the
// same conditions as a local jackpot's award), or as soon as nothing does.
// A read of a hit that is no longer pending (a read repeated after the
// payment) pays nothing.
func (m *Machine) linkWinsRead(e LinkWinsRead, eff *Effects) {
	if m.linkAward() != LinkAwardBroadcast {
		return
	}
	for _, r := range e.Hits {
		h, ok := m.st.ReportedLinkedHit(r.Level)
		if !ok || h.Game != r.Game || h.Cents != r.Cents {
			continue
		}
		if m.pay.read == nil {
			m.pay.read = map[int]uint64{}
		}
		m.pay.read[h.Level] = h.Game
	}
	m.awardHits(eff)
}

// linkConfirm applies, in addressed mode, the controller's amount for the
// hit the machine was reporting on e.Level: only to that hit (same game),
// and only up to the claim reported for it. In broadcast mode the poll is
// a value like any other.
func (m *Machine) linkConfirm(e LinkConfirm, eff *Effects) {
	if m.linkAward() != LinkAwardAddressed {
		m.linkBroadcast(LinkBroadcast{At: e.At, Values: map[int]int64{e.Level: e.Cents}}, eff)
		return
	}
	h, ok := m.st.ReportedLinkedHit(e.Level)
	if !ok || h.Game != e.Game || e.Cents <= 0 {
		return // a repeat for a hit paid already
	}
	if e.Cents > h.Cents {
		r := refusal{level: h.Level, game: h.Game, cents: e.Cents}
		if m.pay.refused[r] {
			return
		}
		detail := fmt.Sprintf("level %d game %d: the controller confirmed %d cents, more than the %d cents the machine showed and reported; not paid, the hit stays pending",
			h.Level, h.Game, e.Cents, h.Cents)
		if m.record(eff, meters.Event{At: m.ns(), Code: meters.EventLinkAwardRefused, Detail: detail}) {
			if m.pay.refused == nil {
				m.pay.refused = map[refusal]bool{}
			}
			m.pay.refused[r] = true
		}
		return
	}
	if m.st.Handpay != nil || m.st.OwedHandpay != 0 || m.st.Open != nil {
		return // the controller repeats its confirmation
	}
	m.payLinked(h, e.Cents, eff)
}

// payLinked pays reported hit h cents: to credits, or by an attendant at
// or above the handpay limit.
func (m *Machine) payLinked(h meters.ProgressiveHit, cents int64, eff *Effects) {
	attendant := cents >= m.cfg.HandpayLimit
	if !m.record(eff, meters.ProgressiveAward{At: m.ns(), Game: h.Game, Level: h.Level, Cents: cents, Attendant: attendant}) {
		return
	}
	if attendant {
		m.record(eff, meters.HandpayPending{At: m.ns(), Kind: meters.HandpayProgressive, Cents: cents, Game: h.Game, Level: h.Level})
		m.say("msg_jackpot_handpay", cents)
	} else {
		m.say("msg_jackpot_won", cents)
	}
}

// linkedBet reports whether a bet at level can win a linked level: the top
// bet, on a paytable that names one (the top bet is offered only with the
// link up). Only such bets feed the controller's levels.
func (m *Machine) linkedBet(level int) bool {
	if level != m.pt.TopLevel() {
		return false
	}
	return slices.ContainsFunc(m.cfg.Linked, func(lv int) bool { return named(m.pt, lv) })
}
