package model

import (
	"slices"
	"strings"

	"github.com/openegm/cabinet/machine"
)

// The machine's view tells a spin's whole outcome the moment the spin is
// committed, before the reels have turned on screen. What the player sees
// is the presented view: while the reels turn, everything a spin decides
// (wins, free games awarded, jackpot hits, a handpay, the credit meter, the
// message) stays as it was before the spin; it appears when they land.

// present is the view to show for the machine's view v now.
func (g *Screen) present(v machine.View) machine.View {
	if !g.Spinning() {
		return v
	}
	h := g.held
	p := v
	if p.Mode == "idle" || p.Mode == "handpay" {
		p.Mode = "spinning" // the end of the game, or its handpay, is the outcome
	}
	p.Credits, p.CreditsCents = g.heldCredits, g.heldCents
	// Restricted credit expiring as the game ends is the end's news too.
	p.RestrictedCents, p.NonRestrictedCents, p.RestrictedExpires = g.heldPromo.RestrictedCents, g.heldPromo.NonRestrictedCents,
		g.heldPromo.RestrictedExpires
	p.Lines, p.Scatters, p.FreeAwarded, p.SpinWinCents = nil, nil, 0, 0
	p.GameWinCents, p.CreditedCents, p.GameOpen = g.WinCount.from, 0, true
	if !strings.HasPrefix(v.Message.Key, "refused_") {
		p.Message = machine.Message{} // a refused press says why at once
	}
	p.Handpay, p.HandpayKind = h.Handpay, h.HandpayKind
	// A free spin's own award is not known yet: the games left are those
	// known before it.
	p.FreeLeft, p.FreeTotal = 0, 0
	if p.Free {
		// The games awarded before this one: the feature's count is
		// right from its first free game ("1 de 10").
		total := v.FreeTotal
		if total == 0 {
			total = v.FreePlayed + v.FreeLeft // a view from before FreeTotal
		}
		p.FreeTotal = max(total-v.FreeAwarded, v.FreePlayed)
		p.FreeLeft = p.FreeTotal - p.FreePlayed
	}
	p.Jackpots = slices.Clone(v.Jackpots)
	for i, j := range p.Jackpots {
		k := slices.IndexFunc(h.Jackpots, func(b machine.JackpotView) bool { return b.Level == j.Level })
		if k < 0 {
			p.Jackpots[i].Pending = false
			continue
		}
		if j.Pending && !h.Jackpots[k].Pending {
			p.Jackpots[i].Pending, p.Jackpots[i].Cents = false, h.Jackpots[k].Cents
		}
	}
	return p
}

// FreeBanner is the free games' panel of the top bar: the free game on
// screen ("Jogo grátis 3 de 10") while the feature runs, the games just won
// before it starts; "" outside the feature.
func (g *Screen) FreeBanner() string {
	v := g.V
	switch {
	case !v.GameOpen:
		return ""
	case v.Free:
		total := v.FreeTotal // the games awarded, retriggers included
		if total == 0 {
			total = v.FreePlayed + v.FreeLeft // a view from before FreeTotal
		}
		s := g.T("free_game_n", Itoa(v.FreePlayed), Itoa(total))
		if g.PT != nil && g.PT.Free != nil && g.PT.Free.Multiplier > 1 {
			s += "   " + g.T("multiplier", Credits(g.Lang, g.PT.Free.Multiplier))
		}
		return s
	case v.FreeLeft > 0:
		return g.T("free_won_n", Itoa(v.FreeLeft))
	}
	return ""
}

// WinItem is one thing the win presentation shows: a paying line, a
// scatter (its pay and the free games it awards), or the feature's total.
type WinItem struct {
	Text  string
	Line  int      // the paying line (index), -1 for none
	Count int      // cells of the line that pay
	Cells [][2]int // a scatter's cells, [reel, row]
	Hot   bool     // free games won, a feature's total: a celebration
}

// WinItems lists what the spin on screen won, in the order the
// presentation shows it (nothing while the reels turn).
func (g *Screen) WinItems() []WinItem {
	v := g.V
	var out []WinItem
	for _, l := range v.Lines {
		out = append(out, WinItem{Text: g.LineText(l), Line: l.Line, Count: l.Count})
	}
	for _, s := range v.Scatters {
		out = append(out, WinItem{Text: g.scatterText(s), Line: -1, Cells: s.Cells, Hot: s.FreeGames > 0})
	}
	if !v.GameOpen && v.FreePlayed > 0 && v.Game > 0 {
		out = append(out, WinItem{Text: g.T("free_total", Itoa(v.FreePlayed), Euro(g.Lang, v.GameWinCents)), Line: -1, Hot: true})
	}
	return out
}

// WinItemNow is the item the presentation shows at this tick (after all
// of them together for LinesAll ticks), and whether there is one.
func (g *Screen) WinItemNow() (WinItem, bool) {
	items := g.WinItems()
	t := g.winTick()
	if len(items) == 0 || t < LinesAll {
		return WinItem{}, false
	}
	return items[((t-LinesAll)/LineEach)%len(items)], true
}

// winTick is how long the win presentation has run.
func (g *Screen) winTick() int {
	if g.Anim == nil {
		return LinesAll + g.Tick // no spin seen: go straight to one by one
	}
	return g.Tick - g.ShownDone
}

// LineText names a paying line and its win.
func (g *Screen) LineText(l machine.ViewLine) string {
	key, amount := "line_win", Euro(g.Lang, l.Cents)
	if l.Progressive > 0 {
		key, amount = "line_jackpot", Itoa(l.Progressive)
	}
	return g.T(key, Itoa(l.Line+1), Itoa(l.Count), g.SymbolName(l.Symbol), amount)
}

// JackpotWon is a jackpot just paid to the credit meter, while the machine
// says so: the screen celebrates it and the win meter shows it.
func (g *Screen) JackpotWon() (cents int64, ok bool) {
	m := g.V.Message
	if m.Key != "msg_jackpot_won" || len(m.Args) == 0 || g.Spinning() {
		return 0, false
	}
	return m.Args[0], true
}

// WinMeter is the figure of the win meter: the jackpot being celebrated,
// or the game's win as it counts up.
func (g *Screen) WinMeter() int64 {
	if c, ok := g.JackpotWon(); ok {
		return c
	}
	if p, t, ok := g.Showing(); ok && p.Kind == machine.PresentWin && p.Cents > 0 && t < countFor(p) {
		// A celebrated win counts up on the meter with its panel: from
		// the game's win before this spin.
		before := max(g.V.GameWinCents-p.Cents, 0)
		return min(before+p.Cents*int64(t)/int64(countFor(p)), g.ShownWin())
	}
	return g.ShownWin()
}

// scatterText names a scatter's win: "3 × Caravela  0,60 € e 10 jogos
// grátis".
func (g *Screen) scatterText(s machine.ViewScatter) string {
	name := g.SymbolName(s.Symbol)
	switch {
	case s.Cents > 0 && s.FreeGames > 0:
		return g.T("scatter_win_free", Itoa(s.Count), name, Euro(g.Lang, s.Cents), Itoa(s.FreeGames))
	case s.FreeGames > 0:
		return g.T("scatter_free", Itoa(s.Count), name, Itoa(s.FreeGames))
	}
	return g.T("scatter_win", Itoa(s.Count), name, Euro(g.Lang, s.Cents))
}
