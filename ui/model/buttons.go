package model

import (
	"slices"

	"github.com/openegm/cabinet/machine"
)

// Click handles a click in design units: the button under it acts.
func (g *Screen) Click(x, y float64) bool {
	g.activity()
	b, ok := g.ButtonAt(x, y)
	if ok && b.Enabled && b.Act != nil {
		b.Act(g)
	}
	return ok
}

// ButtonAt is the button under a point in design units, if any (the
// topmost).
func (g *Screen) ButtonAt(x, y float64) (Button, bool) {
	for _, b := range slices.Backward(g.Buttons()) {
		if b.R.Contains(x, y) {
			return b, true
		}
	}
	return Button{}, false
}

// Button is a touch target, drawn and hit-tested from the same list.
type Button struct {
	ID      string
	Label   string
	R       Rect
	Enabled bool
	Style   int // StyleNormal, StyleHot (spin, confirm), StyleSelected
	Act     func(g *Screen)
}

// Buttons lists the touch targets of the screen on show, bottom first.
func (g *Screen) Buttons() []Button {
	switch {
	case g.V.Mode == "service":
		bs := g.ServiceButtons()
		if g.Pad.Mode != "" {
			bs = append(bs, g.KeypadButtons()...)
		}
		return bs
	case g.Pad.Mode != "":
		return g.KeypadButtons()
	case g.Help:
		return g.HelpButtons()
	}
	if bs, ok := g.gameButtons(); ok {
		return bs
	}
	return g.withGamesButton(g.PlayerButtons())
}

func (g *Screen) PlayerButtons() []Button {
	// During a spin only the spin button (to stop the reels) is lit.
	playable := !Lockout(g.V.Mode) && g.V.Mode != "starting" && g.V.Mode != "spinning" && !g.Spinning()
	y, h := 634.0, 76.0
	return []Button{
		{ID: machine.BtnHelp, Label: g.T("btn_help"), R: Rect{20, y, 150, h}, Enabled: true, Act: (*Screen).toggleHelp},
		{ID: machine.BtnLanguage, Label: g.T("btn_language"), R: Rect{180, y, 150, h}, Enabled: true,
			Act: func(g *Screen) { g.press(machine.BtnLanguage) }},
		{ID: machine.BtnBetDown, Label: g.T("btn_bet_down"), R: Rect{380, y, 140, h}, Enabled: playable && g.V.Level > 0,
			Act: func(g *Screen) { g.press(machine.BtnBetDown) }},
		{ID: machine.BtnBetUp, Label: g.T("btn_bet_up"), R: Rect{530, y, 140, h}, Enabled: playable && g.V.Level < g.V.TopOffered,
			Act: func(g *Screen) { g.press(machine.BtnBetUp) }},
		{ID: machine.BtnMaxBet, Label: g.T("btn_max_bet"), R: Rect{680, y, 160, h}, Enabled: playable,
			Act: func(g *Screen) { g.press(machine.BtnMaxBet) }},
		{ID: machine.BtnCashOut, Label: g.T("btn_cash_out"), R: Rect{850, y, 160, h}, Enabled: playable && g.V.Credits > 0,
			Act: func(g *Screen) { g.press(machine.BtnCashOut) }},
		{ID: machine.BtnSpin, Label: g.T("btn_spin"), R: Rect{1060, 624, 200, 90}, Enabled: playable || g.Spinning() || g.spinPresents(), Style: StyleHot,
			Act: (*Screen).spin},
	}
}

func (g *Screen) HelpButtons() []Button {
	n := len(g.PaytablePages())
	y, h := 634.0, 76.0
	return []Button{
		{ID: "help_prev", Label: g.T("btn_prev"), R: Rect{20, y, 220, h}, Enabled: g.HelpPage > 0, Act: func(g *Screen) { g.PageBy(-1) }},
		{ID: "help_next", Label: g.T("btn_next"), R: Rect{250, y, 220, h}, Enabled: g.HelpPage < n-1, Act: func(g *Screen) { g.PageBy(1) }},
		{ID: machine.BtnLanguage, Label: g.T("btn_language"), R: Rect{800, y, 200, h}, Enabled: true,
			Act: func(g *Screen) { g.press(machine.BtnLanguage) }},
		{ID: "help_close", Label: g.T("btn_close"), R: Rect{1060, y, 200, h}, Enabled: true, Style: StyleHot, Act: (*Screen).toggleHelp},
	}
}
