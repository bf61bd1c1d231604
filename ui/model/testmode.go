package model

import (
	"time"

	"github.com/openegm/cabinet/machine"
)

// Test mode on the screens: the banner's place, and the technician's
// button in the service menu to enter or leave it.

// RectTestBanner is where the TESTE/TEST banner stands, at the top middle.
var RectTestBanner = Rect{X: 380, Y: 4, W: 520, H: 48}

// The top bar's texts keep to its sides, the title on the left and the
// machine on the right: the middle is the game's number, and in test mode
// the banner, which nothing may run under.
var (
	RectTopBarLeft  = Rect{X: 20, Y: 8, W: RectTestBanner.X - 30, H: 40}
	RectTopBarRight = Rect{X: RectTestBanner.X + RectTestBanner.W + 10, Y: 8, W: DesignW - 20 - (RectTestBanner.X + RectTestBanner.W + 10), H: 40}
)

// testModeButtons are the technician's test mode button, on the pages
// whose bottom right is free (the meters and the I/O test).
func (g *Screen) testModeButtons() []Button {
	s := g.Svc()
	if s.Role != machine.RoleTechnician || (s.Page != "meters" && s.Page != "io") {
		return nil
	}
	action, label := machine.SvcTestEnter, "svc_test_enter"
	if g.V.Test != nil {
		action, label = machine.SvcTestLeave, "svc_test_leave"
	}
	return []Button{{ID: "svc:" + action, Label: g.T(label), R: Rect{900, 634, 360, 76}, Enabled: true, Style: StyleHot,
		Act: func(g *Screen) { g.service(machine.ServiceAction{At: time.Now(), Action: action}) }}}
}
