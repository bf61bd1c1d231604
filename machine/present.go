package machine

import (
	"time"

	"github.com/openegm/cabinet/meters"
)

// Presentation is part of the game cycle (DESIGN rule 12). Every outcome is
// committed before it is shown; what the player must see before play goes
// on is then presented, one step at a time: the spin, its win by its size,
// a feature trigger, the wait for the feature's start, the feature's total.
// The view names the step on screen (View.Present, with an ID); the machine
// goes on when the screen says it presented that ID (Presented) or when the
// step's bounded timeout passes. So a slow or absent screen never changes
// an outcome (it is in the ledger already), and a present one never has a
// step skipped under it. The steps are derived from the ledger's open game
// alone: after a power loss they are shown again from the spin on screen,
// never drawn again.

// Kinds of presentation.
const (
	// PresentSpin: the reels turn to the committed stops (a base spin or
	// a free game); the screen says presented when they have landed.
	PresentSpin = "spin"
	// PresentWin: the spin's win, celebrated by its tier.
	PresentWin = "win"
	// PresentFeature: the scatters that award free games, and how many
	// (Games); the screen celebrates the scatters and announces the games.
	PresentFeature = "feature"
	// PresentFreeStart: the feature waits for the player's spin (Press),
	// or for its start a few seconds after the announcement.
	PresentFreeStart = "free_start"
	// PresentTotal: the feature's total win, at its end.
	PresentTotal = "total"
)

// Tiers of a win, by its size against the bet.
const (
	TierLine    = "line"    // below BigWinX times the bet
	TierBig     = "big"     // at least BigWinX times the bet
	TierMega    = "mega"    // at least MegaWinX times the bet
	TierFeature = "feature" // a feature: its trigger and its total
	TierJackpot = "jackpot" // a combination that wins a jackpot level
)

// A win of BigWinX times the bet is a big win, of MegaWinX times a mega
// win: multiples of the bet, so the celebration means the same at every
// bet level and denomination.
const (
	BigWinX  = 10
	MegaWinX = 50
)

// Presentation is the step of the game cycle the screen is asked to show.
type Presentation struct {
	// ID names this presentation: the screen's Presented carries it. A
	// new one is taken for every step (a step shown again after a power
	// loss too), so a word about an earlier one is stale.
	ID    uint64 `json:"id"`
	Kind  string `json:"kind"`
	Tier  string `json:"tier,omitempty"`
	Cents int64  `json:"cents,omitempty"` // the win presented (a spin's, the feature's total)
	// Games are the free games a feature trigger awards.
	Games int `json:"games,omitempty"`
	// Press: the feature starts only when the player presses spin (the
	// paytable says so); otherwise it also starts after the timeout.
	Press bool `json:"press,omitempty"`
	// Skippable: the player may cut the celebration short (a win's); a
	// trigger's information never is.
	Skippable bool `json:"skippable,omitempty"`
	// TimeoutMS is how long the machine waits for the screen's word on
	// this step (milliseconds): a screen fits its presentation inside it,
	// so a short timeout set by the operator shortens the celebrations
	// rather than cutting them off.
	TimeoutMS int64 `json:"timeout_ms,omitempty"`
}

// stage of an open reel game, between its commits.
type stage int

const (
	stageSpin    stage = iota // the reels turn
	stageWin                  // the spin's win is celebrated
	stageFeature              // the trigger is celebrated and its games announced
	stageStart                // the feature waits for its start
	stageTotal                // the feature's total
)

// presentTimeout is how long a step waits for the screen's word: the
// operator's setting, or twice the spin time, so a cabinet configured with
// fast spins (a headless test) is fast everywhere.
func (m *Machine) presentTimeout() time.Duration {
	if m.cfg.PresentTimeout > 0 {
		return m.cfg.PresentTimeout
	}
	return 2 * m.cfg.SpinTime
}

// showStep puts a step on screen with a new ID, waiting at most wait.
func (m *Machine) showStep(s stage, p Presentation, wait time.Duration) {
	m.presSeq++
	p.ID, p.TimeoutMS = m.presSeq, wait.Milliseconds()
	m.stage, m.pres, m.presented, m.startPressed = s, p, false, false
	m.until = m.now.Add(wait)
}

// showSpin puts the spin just committed (or resumed) on screen.
func (m *Machine) showSpin() {
	m.phase = spinning
	m.showStep(stageSpin, Presentation{Kind: PresentSpin}, m.cfg.SpinTime)
}

// stepDone says whether the step on screen may give way to the next.
func (m *Machine) stepDone() bool {
	if m.stage == stageStart {
		// Only the player, or the time the paytable allows, starts the
		// feature: the screen's word is that it shows the wait.
		return m.startPressed || (!m.pres.Press && !m.now.Before(m.until))
	}
	return m.presented || !m.now.Before(m.until)
}

// presentedBy takes the screen's word: a stale or unknown ID is ignored.
func (m *Machine) presentedBy(e Presented, eff *Effects) {
	g := m.st.Open
	if m.phase != spinning || g == nil || g.Start.Hand != nil || e.ID == 0 || e.ID != m.pres.ID {
		return
	}
	m.presented = true
	m.advanceGame(eff)
}

// awaitingStart says whether a press of spin starts the feature now.
func (m *Machine) awaitingStart() bool {
	return m.phase == spinning && m.st.Open != nil && m.stage == stageStart && m.test == nil
}

// tierOf is the tier a spin's win is celebrated at ("" none: a base game's
// win below a big win is told in the message bar as the game ends).
func (m *Machine) tierOf(g *meters.GameHistory) string {
	sp := m.shown
	if sp == nil || sp.Win == 0 && len(sp.Progressives()) == 0 {
		return ""
	}
	bet := m.pt.Bet(g.Start.Level)
	switch {
	case len(sp.Progressives()) > 0 && g.Start.Level == m.pt.TopLevel():
		return TierJackpot
	case sp.Win >= MegaWinX*bet:
		return TierMega
	case sp.Win >= BigWinX*bet:
		return TierBig
	case sp.Free:
		// In the feature every win is counted onto the win meter before
		// the next free game turns.
		return TierLine
	}
	return ""
}

// advanceGame moves the open reel game to its next step once the step on
// screen is done: the spin's win, a trigger, the feature's start, the next
// free game (committed before it is shown), the feature's total, the end.
func (m *Machine) advanceGame(eff *Effects) {
	g := m.st.Open
	if m.phase != spinning || g == nil || !m.stepDone() {
		return
	}
	// An open door or a tilt suspends the game where it is; it goes on when
	// they clear. (A host disable lets the game finish, as SAS 0x01 says.)
	if len(m.st.DoorsOpen) > 0 || len(m.st.Tilts) > 0 {
		return
	}
	if g.Start.Hand != nil {
		m.endGame(eff)
		return
	}
	sp := m.shown
	wait := m.presentTimeout()
	switch m.stage {
	case stageSpin:
		if t := m.tierOf(g); t != "" {
			m.showStep(stageWin, Presentation{Kind: PresentWin, Tier: t, Cents: sp.Win * g.Start.Denom, Skippable: true}, wait)
			return
		}
		fallthrough
	case stageWin:
		if sp != nil && sp.FreeAwarded > 0 {
			m.showStep(stageFeature, Presentation{Kind: PresentFeature, Tier: TierFeature, Games: sp.FreeAwarded}, wait)
			return
		}
		fallthrough
	case stageFeature:
		if sp != nil && !sp.Free && sp.FreeAwarded > 0 {
			press := m.pt.Free != nil && m.pt.Free.Press
			m.showStep(stageStart, Presentation{Kind: PresentFreeStart, Games: sp.FreeAwarded, Press: press}, wait)
			return
		}
		fallthrough
	case stageStart:
		if m.st.FreeLeft > 0 {
			m.playFree(eff)
			return
		}
		if len(g.Free) > 0 {
			m.showStep(stageTotal, Presentation{Kind: PresentTotal, Tier: TierFeature, Cents: gameWin(g)}, wait)
			return
		}
		fallthrough
	case stageTotal:
		m.endGame(eff)
	}
}

// gameWin is an open game's win so far.
func gameWin(g *meters.GameHistory) int64 {
	total := g.Start.WinCents
	for _, f := range g.Free {
		total += f.WinCents
	}
	return total
}
