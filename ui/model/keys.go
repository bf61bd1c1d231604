package model

import (
	"github.com/openegm/cabinet/machine"
	"github.com/openegm/cabinet/meters"
)

// Key names the screens understand (the ui maps the keyboard onto them).
const (
	KeySpin      = "space"
	KeyEnter     = "enter"
	KeyUp        = "up"
	KeyDown      = "down"
	KeyLeft      = "left"
	KeyRight     = "right"
	KeyEscape    = "escape"
	KeyBackspace = "backspace"
	KeyHelp      = "h"
	KeyF1        = "f1"
)

// Key handles a key press: a lower-case letter, a digit "0".."9", or one of
// the Key* names. Player keys always work; the key switch, doors and bills
// only in the simulator.
func (g *Screen) Key(k string) {
	g.activity()
	d, isDigit := -1, len(k) == 1 && k[0] >= '0' && k[0] <= '9'
	if isDigit {
		d = int(k[0] - '0')
	}
	if g.Pad.Mode != "" {
		switch {
		case isDigit:
			g.padDigit(d)
			return
		case k == KeyBackspace:
			g.padBack()
			return
		case k == KeyEnter:
			g.padOK()
			return
		case k == KeyEscape:
			g.padCancel()
			return
		}
	}
	if g.tableKey(k) {
		return
	}
	switch k {
	case KeySpin, KeyEnter:
		g.spin()
	case KeyUp:
		g.press(machine.BtnBetUp)
	case KeyDown:
		g.press(machine.BtnBetDown)
	case "m":
		g.press(machine.BtnMaxBet)
	case "c":
		g.press(machine.BtnCashOut)
	case KeyHelp, KeyF1:
		g.toggleHelp()
	case "l":
		g.press(machine.BtnLanguage)
	case KeyEscape:
		g.closeHelp()
	case KeyLeft:
		g.PageBy(-1)
	case KeyRight:
		g.PageBy(1)
	}
	if !g.Simulator {
		return
	}
	if isDigit && d >= 1 && d <= len(meters.BillValues) {
		g.C.InsertBill(meters.BillValues[d-1])
		return
	}
	if sw, ok := switchKeys[k]; ok {
		g.toggleSwitch(sw)
	}
}

// switchKeys are the simulator's keys for the key switch and the doors.
var switchKeys = map[string]string{
	"k": SwitchKey, "d": SwitchMain, "g": SwitchLogic, "x": SwitchCashbox, "b": SwitchBelly, "r": SwitchDrop,
}
