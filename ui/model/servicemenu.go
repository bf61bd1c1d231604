package model

import (
	"fmt"
	"slices"
	"time"

	"github.com/openegm/cabinet/machine"
)

// The service menu: technicians, operators and inspectors, in the
// cabinet's language. Pages come from the machine (ServiceView.Page); the
// UI asks for them with ServiceAction page, and sends PINs, settings and
// the RAM clear the same way. The inspector sees the same pages, read only.

// ServicePages are the service menu's tabs, in order.
// "io" is the technician's only (TabPages).
// They are the machine's (one definition: it refuses any other).
var ServicePages = machine.ServicePages

// TabPages are the tabs the logged-in role sees: the I/O test is the
// technician's.
func (g *Screen) TabPages() []string {
	if g.Svc().Role == machine.RoleTechnician {
		return ServicePages
	}
	return slices.DeleteFunc(slices.Clone(ServicePages), func(p string) bool { return p == "io" })
}

const ListRows = 14 // rows of a list page (its footer below them)

func (g *Screen) Svc() *machine.ServiceView {
	if g.V.Service == nil {
		return &machine.ServiceView{}
	}
	return g.V.Service
}

// ServiceLine is the service menu's message line: the machine's message
// in the screen's language with its detail (a refused page names the
// pages there are), or the demand to change the default PIN.
func (g *Screen) ServiceLine() string {
	if g.Svc().MustChangePIN {
		return g.T("svc_must_change")
	}
	m := g.V.ServiceMessage
	msg := MessageText(g.Lang, m.Key, m.Args)
	if m.Detail != "" {
		msg += " — " + m.Detail
	}
	return msg
}

func (g *Screen) CanChange() bool {
	r := g.Svc().Role
	return r == machine.RoleTechnician || r == machine.RoleOperator
}

func (g *Screen) ServiceButtons() []Button {
	s := g.Svc()
	var bs []Button
	tabs := g.TabPages()
	step := RectSvcContent.W / float64(len(tabs))
	for i, p := range tabs {
		style := StyleNormal
		if s.Page == p {
			style = StyleSelected
		}
		bs = append(bs, Button{ID: "page:" + p, Label: g.T("page_" + p), R: Rect{RectSvcContent.X + float64(i)*step, 64, step - 8, 44}, Enabled: true, Style: style,
			Act: func(g *Screen) {
				g.Scroll, g.RecallSel, g.Confirm = 0, 0, nil
				g.service(machine.ServiceAction{At: time.Now(), Action: machine.SvcPage, Value: p})
			}})
	}
	y, h := 634.0, 76.0
	bs = append(bs,
		Button{ID: "svc:logout", Label: g.T("svc_logout"), R: Rect{20, y, 170, h}, Enabled: true,
			Act: func(g *Screen) { g.service(machine.ServiceAction{At: time.Now(), Action: machine.SvcLogout}) }},
		Button{ID: "svc:set_pin", Label: g.T("svc_set_pin"), R: Rect{200, y, 190, h}, Enabled: true,
			Act: func(g *Screen) { g.Pad = g.newPINPad("") }},
	)
	if s.Role == machine.RoleTechnician {
		bs = append(bs, Button{ID: "svc:ram_clear", Label: g.T("svc_ram_clear"), R: Rect{400, y, 200, h}, Enabled: true,
			Act: func(g *Screen) { g.service(machine.ServiceAction{At: time.Now(), Action: machine.SvcRAMClear}) }})
		if s.RAMClearArmed {
			bs = append(bs, Button{ID: "svc:ram_confirm", Label: g.T("svc_ram_confirm"), R: Rect{610, y, 260, h}, Enabled: true, Style: StyleHot,
				Act: func(g *Screen) {
					g.service(machine.ServiceAction{At: time.Now(), Action: machine.SvcRAMClearConfirm, Value: "technician request"})
				}})
		}
	}
	bs = append(bs, g.testModeButtons()...)
	switch s.Page {
	case "recall", "events", "bills", "handpays":
		bs = append(bs,
			Button{ID: "svc:prev", Label: g.T("btn_prev"), R: Rect{900, y, 175, h}, Enabled: true, Act: func(g *Screen) { g.PageBy(-1) }},
			Button{ID: "svc:next", Label: g.T("btn_next"), R: Rect{1085, y, 175, h}, Enabled: true, Act: func(g *Screen) { g.PageBy(1) }})
	}
	switch s.Page {
	case "recall":
		for i := range min(len(s.Recall)-g.RecallTop(), ListRows) {
			k := g.RecallTop() + i
			bs = append(bs, Button{ID: fmt.Sprintf("recall:%d", k), R: Rect{RectSvcContent.X, RectSvcContent.Y + 30 + float64(i)*28, 420, 28},
				Enabled: true, Act: func(g *Screen) { g.RecallSel, g.RecallSpin = k, 0 }})
		}
		if g.RecallSel < len(s.Recall) {
			if n := len(s.Recall[g.RecallSel].Spins); n > 1 {
				spin := func(d int) func(g *Screen) {
					return func(g *Screen) { g.RecallSpin = min(max(g.RecallSpin+d, 0), n-1) }
				}
				bs = append(bs,
					Button{ID: "recall:spin_prev", Label: "◄", R: RectRecallSpinPrev, Enabled: g.RecallSpin > 0, Act: spin(-1)},
					Button{ID: "recall:spin_next", Label: "►", R: RectRecallSpinNext, Enabled: g.RecallSpin < n-1, Act: spin(1)})
			}
		}
	case "settings":
		if g.CanChange() {
			bs = append(bs, g.SettingsButtons()...)
		}
	case "io":
		if s.Role == machine.RoleTechnician {
			bs = append(bs, g.IOButtons()...)
		}
	case "identity":
		// Every role may verify the ledger; only the inspector exports
		// the signed report (the machine refuses the others).
		bs = append(bs, Button{ID: "svc:verify", Label: g.T("svc_verify"), R: Rect{900, y, 175, h}, Enabled: true,
			Act: func(g *Screen) { g.service(machine.ServiceAction{At: time.Now(), Action: machine.SvcVerifyLedger}) }})
		if s.Role == machine.RoleInspector {
			bs = append(bs, Button{ID: "svc:export", Label: g.T("svc_export"), R: Rect{1085, y, 175, h}, Enabled: true,
				Act: func(g *Screen) { g.service(machine.ServiceAction{At: time.Now(), Action: machine.SvcExportReport}) }})
		}
	}
	return bs
}

// The recall page: the window of the spin on show, and under it the
// buttons to the game's previous and next spin (its free games).
var (
	RectRecallWindow   = Rect{RectSvcContent.X + 450, RectSvcContent.Y + 42, 420, 240}
	RectRecallSpinPrev = Rect{RectRecallWindow.X, RectRecallWindow.Y + RectRecallWindow.H + 10, 60, 36}
	RectRecallSpinNext = Rect{RectRecallWindow.X + RectRecallWindow.W - 60, RectRecallWindow.Y + RectRecallWindow.H + 10, 60, 36}
)

func (g *Screen) RecallTop() int { return g.RecallSel / ListRows * ListRows }

// MeterValue formats a meter: amounts in euros with their credits at the
// denomination, counts as numbers.
func (g *Screen) MeterValue(m machine.MeterLine) string {
	if !m.Cents {
		return Credits(g.Lang, m.Value)
	}
	s := Euro(g.Lang, m.Value)
	if d := g.V.Denom; d > 0 && m.Value%d == 0 {
		s = Tn(g.Lang, "credits_n", m.Value/d, Credits(g.Lang, m.Value/d)) + "   " + s
	}
	return s
}

// MeterGrid lays the meters page out: every meter of the ledger on the
// one page, in two columns, the rows as tall as the page allows (24.5
// design units, 15-unit text, at most), so an inspector reads them all at
// once and none runs under the message bar as the ledger gains meters.
type MeterGrid struct {
	PerCol int     // rows in a column
	Head   float64 // the middle of the columns' headings
	Top    float64 // the middle of the first row
	Pitch  float64 // from a row to the next
	Size   float64 // text size
}

// meterGridPad is the room kept under the last row, inside the page.
const meterGridPad = 8

// MetersGrid is the grid of n meters.
func MetersGrid(n int) MeterGrid {
	g := MeterGrid{PerCol: max((n+1)/2, 1), Head: RectSvcContent.Y + 18, Top: RectSvcContent.Y + 42, Pitch: 24.5, Size: 15}
	// The last row's middle, half a row and the pad fit above the bottom.
	room := RectSvcContent.Y + RectSvcContent.H - meterGridPad - g.Top
	if need := (float64(g.PerCol) - 0.5) * g.Pitch; need > room {
		g.Pitch = room / (float64(g.PerCol) - 0.5)
		g.Size = min(g.Size, g.Pitch*0.75)
	}
	return g
}

// Row is where the i-th meter goes: its column (0 left, 1 right) and the
// middle of its row.
func (m MeterGrid) Row(i int) (col int, y float64) {
	col = i / m.PerCol
	return col, m.Top + float64(i%m.PerCol)*m.Pitch
}

// ServiceTitle is the service menu's title: the role logged in and who.
func (g *Screen) ServiceTitle() string {
	s := g.Svc()
	if keyOnly(s.Who) {
		return g.T("svc_title_role", g.T("role_"+s.Role))
	}
	return g.T("svc_title", g.T("role_"+s.Role), s.Who)
}
