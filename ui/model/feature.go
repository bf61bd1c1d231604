package model

import (
	"github.com/openegm/cabinet/machine"
)

// The machine names the step of a game the screen must present
// (View.Present: a spin, a win by its tier, a feature's trigger, the wait
// for its start, its total) and waits for the screen's word that it did
// (machine.Presented with the step's ID), or for its timeout. The screen
// presents a step once the reels have landed, for as long as the step's
// kind and tier ask, then says so once. Durations are in ticks (60 a
// second) and stay well inside the machine's default timeout (twice the
// spin time), so a screen never has a step taken away from it.
const (
	celebrateTicks = 60  // the trigger's scatters pulse before the games are announced
	announceTicks  = 120 // "10 JOGOS GRÁTIS" is read
	holdTicks      = 30  // a counted amount stays still before the next step
)

// latencyTicks is what a step's timeout leaves for the view to reach the
// screen and its word to reach the machine (the view is polled, the word
// sent over the control socket): the screen's presentation ends this much
// before the machine would go on without it.
const latencyTicks = 15

// limitTicks is the longest the screen may take over p: the machine's
// timeout for it less the latency, -1 when the view gives none.
func limitTicks(p machine.Presentation) int {
	if p.TimeoutMS <= 0 {
		return -1
	}
	return max(int(p.TimeoutMS*60/1000)-latencyTicks, 0)
}

// fit is n ticks of p's presentation, shortened in proportion when the
// whole would not fit in the machine's timeout (an operator's short
// --present-timeout shortens the celebrations rather than cutting them
// off).
func fit(p machine.Presentation, n int) int {
	whole, limit := naturalTicks(p), limitTicks(p)
	if limit < 0 || whole <= limit || whole == 0 {
		return n
	}
	return n * limit / whole
}

// countFor is how long a presentation counts its amount up: longer for
// bigger tiers, so the size is felt (fitted to the timeout).
func countFor(p machine.Presentation) int { return fit(p, naturalCount(p)) }

func naturalCount(p machine.Presentation) int {
	switch p.Tier {
	case machine.TierBig:
		return 100
	case machine.TierMega, machine.TierJackpot:
		return 150
	case machine.TierFeature:
		return 120
	}
	return countTicks
}

// PresentTicks is how long the screen presents p before it says it did.
func PresentTicks(p machine.Presentation) int { return fit(p, naturalTicks(p)) }

func naturalTicks(p machine.Presentation) int {
	switch p.Kind {
	case machine.PresentSpin, machine.PresentFreeStart:
		// The reels have landed; the wait for the start is the player's
		// (the screen shows it and has nothing to finish).
		return 0
	case machine.PresentFeature:
		return celebrateTicks + announceTicks
	}
	return naturalCount(p) + holdTicks
}

// slamTicks is about how long the reels take to land once slammed.
const slamTicks = 2 + 5*slamGap + bounceTicks

// Showing is the step the screen presents now, and for how many ticks it
// has: none while the reels turn (the outcome is not told before they
// land) or outside a reel game.
func (g *Screen) Showing() (machine.Presentation, int, bool) {
	if g.presCur == nil || g.Spinning() || g.Live.Present == nil || g.Live.Present.ID != g.presCur.ID {
		return machine.Presentation{}, 0, false
	}
	return *g.presCur, g.Tick - g.presAt, true
}

// observePresent follows the machine's step: it starts presenting a new
// one when the reels have landed and says presented once it is done.
func (g *Screen) observePresent(v machine.View) {
	p := v.Present
	if p == nil {
		g.presCur = nil
		return
	}
	if g.Spinning() {
		// Reels that would still turn when the machine stops waiting for
		// them (a spin time shorter than the animation) are brought to a
		// stop in time: the player sees every spin land.
		if a := g.Anim; p.Kind == machine.PresentSpin && a != nil && limitTicks(*p) >= 0 &&
			a.DoneAt() > a.Start+limitTicks(*p) && g.Tick >= a.Start+limitTicks(*p)-slamTicks {
			a.Slam(g.Tick)
		}
		return
	}
	if g.presCur == nil || g.presCur.ID != p.ID {
		cp := *p
		g.presCur, g.presAt = &cp, g.Tick
	}
	if g.presSent != p.ID && g.Tick-g.presAt >= PresentTicks(*p) {
		g.presSent = p.ID
		g.C.Service(machine.Presented{ID: p.ID})
	}
}

// spinPresents says whether the spin button acts on the step on show: it
// starts the feature the machine waits to start, or cuts a win's
// celebration short.
func (g *Screen) spinPresents() bool {
	p, _, ok := g.Showing()
	return ok && (p.Kind == machine.PresentFreeStart || p.Skippable && g.presSent != p.ID)
}

// SkipPresentation cuts a win's celebration short (the player's press):
// the same win, told at once. A trigger's announcement is never cut.
func (g *Screen) SkipPresentation() bool {
	p, _, ok := g.Showing()
	if !ok || !p.Skippable || g.presSent == p.ID {
		return false
	}
	g.presSent = p.ID
	g.presAt -= PresentTicks(p) // the amount stands at its end
	g.activity()
	g.C.Service(machine.Presented{ID: p.ID})
	return true
}

// Celebration is what the screen draws over the reels for the step on
// show: a title, an amount counting up (or a number of games), and a scale
// (1 for a feature's announcement and a big win, more for bigger tiers);
// ok false when the step draws nothing over the reels.
type Celebration struct {
	Title string
	Sub   string // a second line: how the feature starts
	Text  string // the amount, or the games
	Scale float64
	// Scatters: the trigger's scatters pulse (before the announcement).
	Scatters bool
}

// CelebrationNow is the celebration of this tick.
func (g *Screen) CelebrationNow() (Celebration, bool) {
	p, t, ok := g.Showing()
	if !ok {
		return Celebration{}, false
	}
	count := func() string {
		n := countFor(p)
		c := p.Cents
		if n > 0 && t < n {
			c = p.Cents * int64(t) / int64(n)
		}
		return Euro(g.Lang, c)
	}
	switch p.Kind {
	case machine.PresentFeature:
		if t < fit(p, celebrateTicks) {
			return Celebration{Scatters: true}, true
		}
		return Celebration{Title: g.T("feature_games", Itoa(p.Games)), Sub: g.T("feature_won"), Scale: 1.2}, true
	case machine.PresentFreeStart:
		sub := g.T("feature_starts")
		if p.Press {
			sub = g.T("feature_press")
		}
		return Celebration{Title: g.T("feature_games", Itoa(p.Games)), Sub: sub, Scale: 1.2}, true
	case machine.PresentTotal:
		return Celebration{Title: g.T("feature_total"), Text: count(), Scale: 1.2}, true
	case machine.PresentWin:
		switch p.Tier {
		case machine.TierBig:
			return Celebration{Title: g.T("big_win"), Text: count(), Scale: 1}, true
		case machine.TierMega:
			return Celebration{Title: g.T("mega_win"), Text: count(), Scale: 1.4}, true
		case machine.TierJackpot:
			return Celebration{Title: g.T("jackpot_win"), Text: count(), Scale: 1.4}, true
		}
	}
	return Celebration{}, false
}
