//go:build screen

package ui

import (
	"testing"

	"github.com/openegm/cabinet/machine"
	"github.com/openegm/cabinet/ui/model"
)

// Test mode on the real window: every frame in test mode has the banner
// (its colour at the top and around the screen, and its words in it),
// on the player screen as in the service menu; a frame out of test mode
// has none of it, after a frame in test mode too.
func TestScreenTestModeBanner(t *testing.T) {
	banner := model.RectTestBanner
	frame := model.Rect{X: 0, Y: model.DesignH - testFrame, W: model.DesignW, H: testFrame}
	count := func(name string) (inBanner, inFrame, words int) {
		img := grab(t, name)
		return coloured(img, theGame, banner, colTest), coloured(img, theGame, frame, colTest),
			inked(img, theGame, model.Rect{X: banner.X + 20, Y: banner.Y + 8, W: banner.W - 40, H: 30})
	}
	v := idleView()
	useCanned(t, v)
	if b, f, _ := count("test_mode_off"); b > 50 || f > 50 {
		t.Fatalf("a frame out of test mode has test mode's colour: %d banner, %d frame pixels", b, f)
	}
	for _, lang := range []string{"pt", "en"} {
		v.Lang = lang
		v.Test = &machine.TestView{CreditsCents: 100_00, Who: "tech"}
		v.CreditsCents, v.Credits = 100_00, 100_00
		useCanned(t, v)
		b, f, w := count("test_mode_" + lang)
		if b < int(banner.W*banner.H)/3 || f < int(frame.W*frame.H)/2 || w < 300 {
			t.Errorf("%s: a frame in test mode lacks the banner: %d banner, %d frame, %d text pixels", lang, b, f, w)
		}
	}
	// Every frame: the banner over the service menu too.
	sv := v
	sv.Mode, sv.Service = "service", &machine.ServiceView{Role: machine.RoleTechnician, Page: "meters"}
	useCanned(t, sv)
	if b, f, _ := count("test_mode_service"); b < int(banner.W*banner.H)/3 || f < int(frame.W*frame.H)/2 {
		t.Errorf("the service menu in test mode lacks the banner: %d banner, %d frame pixels", b, f)
	}
	// Left: nothing of it stays on screen.
	v.Test, v.Lang, v.CreditsCents, v.Credits = nil, "pt", 0, 0
	useCanned(t, v)
	wait(t, 3, nil)
	if b, f, _ := count("test_mode_left"); b > 50 || f > 50 {
		t.Errorf("after leaving test mode the banner stays: %d banner, %d frame pixels", b, f)
	}
	useCanned(t, idleView())
}
