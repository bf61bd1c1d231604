//go:build screen

package ui

import (
	"image"
	"testing"

	"github.com/openegm/cabinet/machine"
	"github.com/openegm/cabinet/ui/model"
)

// Issue 24 on the real window: the inputs are drawn from the view, never
// from a copy the window keeps. The canned cabinet never sees a SetSwitch
// or a press: the key turned on the pins and the help button pressed on
// the cabinet are only in the view, as with the real cabinet's socket.
func TestScreenDrawsTheInputsOfTheView(t *testing.T) {
	// The legend's key state, and the PIN pad's title.
	keyState := model.Rect{X: model.RectLeft.X + 60, Y: model.RectLeft.Y + 36, W: 70, H: 20}
	padTitle := model.Rect{X: model.RectPad.X + 20, Y: model.RectPad.Y + 14, W: model.RectPad.W - 40, H: 40}
	for _, lang := range []string{"pt", "en"} {
		// The key on the pins: the login pad comes up.
		v := idleView()
		v.Lang, v.KeyOn, v.LoginPad = lang, true, true
		useCanned(t, v)
		if !within(t, 300, func(g *game) bool { return g.Pad.Mode == "login" }) {
			t.Errorf("%s: the key on in the view brings up no login pad", lang)
		}
		img := grab(t, "key_on_pins_"+lang)
		if n := inked(img, theGame, padTitle); n < 200 {
			t.Errorf("%s: the login pad's title is not drawn (%d pixels)", lang, n)
		}

		// Test mode with the key still on: no pad over the test game, and
		// the legend says the key is on (red), as the view does.
		v = idleView()
		v.Lang, v.KeyOn = lang, true
		v.Test = &machine.TestView{CreditsCents: machine.TestCredits, Who: "tech"}
		useCanned(t, v)
		wait(t, 3, nil)
		img = grab(t, "test_mode_key_on_"+lang)
		if theGame.Pad.Mode != "" {
			t.Errorf("%s: a pad (%q) over the test game", lang, theGame.Pad.Mode)
		}
		if n := coloured(img, theGame, keyState, colRed); n < 20 {
			t.Errorf("%s: the legend does not say the key is on (%d red pixels)", lang, n)
		}

		// The help button pressed on the cabinet: the help pages.
		v = idleView()
		v.Lang, v.Help = lang, true
		useCanned(t, v)
		if !within(t, 300, func(g *game) bool { return g.Help }) {
			t.Errorf("%s: the help in the view shows no help pages", lang)
		}
		img = grab(t, "help_from_the_cabinet_"+lang)
		notBlank(t, img)
		title := model.Rect{X: model.RectPage.X + 20, Y: model.RectPage.Y + 10, W: model.RectPage.W - 200, H: 44}
		if n := inked(img, theGame, title); n < 200 {
			t.Errorf("%s: the help page's title is not drawn (%d pixels)", lang, n)
		}
	}
	useCanned(t, idleView())
}

// within lets frames go by until cond holds (then two more), or until n
// frames have gone by without it: false. Frames, not seconds: a loaded
// machine draws them later, never fewer.
func within(t *testing.T, n int, cond func(g *game) bool) bool {
	t.Helper()
	k, ok := -1, false
	on(t, func(g *game, f int, _ func() *image.RGBA) bool {
		if k < 0 {
			k = f
		}
		if cond(g) {
			ok = true
		}
		return ok || f-k >= n
	})
	if ok {
		wait(t, 2, nil)
	}
	return ok
}
