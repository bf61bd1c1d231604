package ui

import (
	"fmt"
	"github.com/openegm/cabinet/ui/model"
	"image/color"

	"github.com/hajimehoshi/ebiten/v2"
	"github.com/openegm/cabinet/machine"
)

func (g *game) drawService(dst *ebiten.Image) {
	s := g.Svc()
	g.fillRect(dst, model.RectTopBar, colPanel)
	g.fillRect(dst, rect(0, 54, model.DesignW, 2), colGold)
	g.textFit(dst, g.ServiceTitle(), model.RectTopBarLeft, 24, colGold, alignLeft, true)
	right := g.T("machine_id", g.V.MachineID)
	if s.Role == machine.RoleInspector {
		right = g.T("svc_read_only") + "   " + right
	}
	g.textFit(dst, right, model.RectTopBarRight, 18, colText, alignRight, false)
	g.panel(dst, model.RectSvcContent, 12, colPanel)
	switch s.Page {
	case "meters":
		g.drawMetersPage(dst, s)
	case "recall":
		g.drawRecallPage(dst, s)
	case "events":
		g.drawEventsPage(dst, s)
	case "bills":
		g.drawBillsPage(dst, s)
	case "handpays":
		g.drawHandpaysPage(dst, s)
	case "settings":
		g.drawSettingsPage(dst, s)
	case "identity":
		g.drawIdentityPage(dst)
	case "io":
		g.drawIOPage(dst, s)
	}
	g.panel(dst, model.RectSvcMessage, 10, color.RGBA{0x06, 0x0A, 0x1A, 0xFF})
	g.textFit(dst, g.ServiceLine(), model.RectSvcMessage.Inset(6), 20, colText, alignCenter, true)
}

func sasCode(code int) string {
	if code < 0 {
		return "—"
	}
	return fmt.Sprintf("%02X", code)
}

func (g *game) tableHeader(dst *ebiten.Image, y float64, cols []float64, heads ...string) {
	for i, h := range heads {
		g.text(dst, h, cols[i], y, 15, colDim, alignLeft, true)
	}
	g.fillRect(dst, rect(model.RectSvcContent.X+10, y+12, model.RectSvcContent.W-20, 1), colPanelEdge)
}

func (g *game) drawMetersPage(dst *ebiten.Image, s *machine.ServiceView) {
	grid := model.MetersGrid(len(s.Meters))
	colsOf := func(c int) []float64 {
		x := model.RectSvcContent.X + 14 + float64(c)*620
		return []float64{x, x + 44, x + 600}
	}
	for c := 0; c < 2; c++ {
		cols := colsOf(c)
		g.text(dst, g.T("col_sas"), cols[0], grid.Head, 15, colDim, alignLeft, true)
		g.text(dst, g.T("col_meter"), cols[1], grid.Head, 15, colDim, alignLeft, true)
		g.text(dst, g.T("col_value"), cols[2], grid.Head, 15, colDim, alignRight, true)
	}
	for i, m := range s.Meters {
		c, y := grid.Row(i)
		cols, size := colsOf(c), grid.Size
		g.text(dst, sasCode(m.SAS), cols[0], y, size, colGold, alignLeft, true)
		g.textFit(dst, model.MeterName(g.Lang, m.Name), rect(cols[1], y-grid.Pitch/2, 330, grid.Pitch), size, colText, alignLeft, false)
		g.text(dst, g.MeterValue(m), cols[2], y, size, colText, alignRight, false)
	}
	if len(s.Meters) == 0 {
		g.text(dst, g.T("none_yet"), model.RectSvcContent.X+20, model.RectSvcContent.Y+30, 18, colDim, alignLeft, false)
	}
}

func (g *game) drawRecallPage(dst *ebiten.Image, s *machine.ServiceView) {
	r := model.RectSvcContent
	if len(s.Recall) == 0 {
		g.text(dst, g.T("none_yet"), r.X+20, r.Y+30, 18, colDim, alignLeft, false)
		return
	}
	g.RecallSel = min(g.RecallSel, len(s.Recall)-1)
	cols := []float64{r.X + 14, r.X + 110, r.X + 260}
	g.tableHeader(dst, r.Y+16, cols, g.T("col_game"), g.T("col_amount"), "")
	top := g.RecallTop()
	for i := 0; i < model.ListRows && top+i < len(s.Recall); i++ {
		rc := s.Recall[top+i]
		y := r.Y + 44 + float64(i)*28
		if top+i == g.RecallSel {
			g.fillRect(dst, rect(r.X+6, y-14, 420, 28), colButton)
		}
		g.text(dst, model.Itoa(rc.Game), cols[0], y, 16, colText, alignLeft, true)
		g.text(dst, model.Euro(g.Lang, rc.WinCents), cols[1], y, 16, colText, alignLeft, false)
		ok, c := g.T("recall_match"), colGreen
		if !rc.Match {
			ok, c = g.T("recall_mismatch"), colRed
		}
		g.text(dst, ok, cols[2], y, 15, c, alignLeft, true)
	}
	g.text(dst, g.T("recall_n", model.Itoa(g.RecallSel+1), model.Itoa(len(s.Recall))), r.X+14, r.Y+r.H-16, 15, colDim, alignLeft, false)

	rc := s.Recall[g.RecallSel]
	win := model.RectRecallWindow
	x := win.X
	g.text(dst, g.T("recall_game", model.Itoa(rc.Game), model.Clock(rc.At)), x, r.Y+15, 18, colGold, alignLeft, true) // above the header's rule
	sp, title, ok := g.RecallSpinNow(rc)
	if ok && len(sp.Window) > 0 {
		// The window as it looked, drawn with the symbols.
		n, rows := len(sp.Window), len(sp.Window[0])
		cell := func(i, j int) model.Rect {
			return rect(win.X+float64(i)*win.W/float64(n), win.Y+float64(j)*win.H/float64(rows), win.W/float64(n), win.H/float64(rows))
		}
		g.fillRect(dst, win.Inset(-3), colGold)
		for i, col := range sp.Window {
			for j, id := range col {
				g.tile(dst, id, cell(i, j))
			}
		}
		g.drawRecallLines(dst, sp, cell)
		nav := model.RectRecallSpinPrev
		g.textFit(dst, title, rect(nav.X+nav.W+10, nav.Y, win.W-2*nav.W-20, nav.H), 18, colText, alignCenter, true)
	}
	lx := win.X + win.W + 24
	ly := r.Y + 58
	lines := []string{
		g.T("recall_paytable", rc.Paytable),
		g.T("recall_bet", model.Euro(g.Lang, rc.BetCents)),
		g.T("recall_recorded", model.Euro(g.Lang, rc.WinCents)),
		g.T("recall_recomputed", model.Euro(g.Lang, rc.Recomputed)),
		g.T("recall_free", model.Itoa(len(rc.FreeStops))),
	}
	for _, l := range lines {
		g.textFit(dst, l, rect(lx, ly-12, r.X+r.W-lx-12, 24), 18, colText, alignLeft, false)
		ly += 32
	}
	okText, c := g.T("recall_match"), colGreen
	if !rc.Match {
		okText, c = g.T("recall_mismatch"), colRed
	}
	g.panel(dst, rect(lx, ly, 260, 50), 10, c)
	g.text(dst, okText, lx+130, ly+25, 24, colBlack, alignCenter, true)
	// Under the window: the spin's stops, its win, its lines and scatters.
	py := model.RectRecallSpinPrev.Y + model.RectRecallSpinPrev.H + 16
	bottom := r.Y + r.H - 8
	if ok {
		texts := []model.WinItem{{Text: g.StopsText(sp.Stops), Line: -1}, {Text: g.T("recall_spin_win", model.Euro(g.Lang, sp.WinCents)), Line: -1}}
		texts = append(texts, g.RecallTexts(sp)...)
		for _, it := range texts {
			if py+10 > bottom {
				break
			}
			col := colText
			switch {
			case it.Line >= 0:
				col = lineColor(it.Line)
			case it.Hot || len(it.Cells) > 0:
				col = colGold
			}
			g.textFit(dst, it.Text, rect(x, py-10, r.X+r.W-x-12, 20), 15, col, alignLeft, true)
			py += 20
		}
	}
	if rc.Problem != "" {
		for _, l := range g.wrap(rc.Problem, 15, r.X+r.W-x-20, false) {
			if py+10 > bottom {
				break
			}
			g.text(dst, l, x, py, 15, colRed, alignLeft, false)
			py += 20
		}
	}
}

// drawRecallLines draws a recalled spin's paying lines and scatters over
// its window: the paying cells framed and the line's path, in the line's
// colour, the scatters in gold. Thin enough that the symbols stay
// recognisable.
func (g *game) drawRecallLines(dst *ebiten.Image, sp machine.RecallSpin, cell func(i, j int) model.Rect) {
	n := len(sp.Window)
	for _, s := range sp.Scatters {
		for _, c := range s.Cells {
			g.strokeRect(dst, cell(c[0], c[1]).Inset(2), 3, colGold)
		}
	}
	if g.PT == nil {
		return
	}
	for _, l := range sp.Lines {
		if l.Line < 0 || l.Line >= len(g.PT.Lines) {
			continue
		}
		c := lineColor(l.Line)
		path := g.PT.Lines[l.Line]
		for i := 0; i < l.Count && i < len(path) && i < n; i++ {
			g.strokeRect(dst, cell(i, path[i]).Inset(2), 3, c)
		}
		for i := 0; i+1 < len(path) && i+1 < n; i++ {
			x0, y0 := cell(i, path[i]).Center()
			x1, y1 := cell(i+1, path[i+1]).Center()
			g.line(dst, x0, y0, x1, y1, 5, shade(c, 0.4))
			g.line(dst, x0, y0, x1, y1, 3, c)
		}
	}
}

// listPage shows rows newest first from scroll, with a header.
func (g *game) listPage(dst *ebiten.Image, n int, cols []float64, heads []string, row func(i int) []string) {
	r := model.RectSvcContent
	g.tableHeader(dst, r.Y+16, cols, heads...)
	if n == 0 {
		g.text(dst, g.T("none_yet"), r.X+20, r.Y+50, 18, colDim, alignLeft, false)
		return
	}
	if g.Scroll >= n {
		g.Scroll = (n - 1) / model.ListRows * model.ListRows
	}
	for i := 0; i < model.ListRows && g.Scroll+i < n; i++ {
		y := r.Y + 44 + float64(i)*27
		for c, s := range row(n - 1 - (g.Scroll + i)) {
			w := r.X + r.W - cols[c] - 10
			if c+1 < len(cols) {
				w = cols[c+1] - cols[c] - 10
			}
			g.textFit(dst, s, rect(cols[c], y-11, w, 22), 15, colText, alignLeft, c == 0)
		}
	}
	g.text(dst, g.T("recall_n", model.Itoa(g.Scroll+1), model.Itoa(n)), r.X+14, r.Y+r.H-16, 15, colDim, alignLeft, false)
}

func (g *game) drawEventsPage(dst *ebiten.Image, s *machine.ServiceView) {
	x := model.RectSvcContent.X + 14
	g.listPage(dst, len(s.Events), []float64{x, x + 190, x + 500, x + 960},
		[]string{g.T("col_time"), g.T("col_event"), g.T("col_detail"), g.T("col_who")},
		func(i int) []string {
			l := g.EventLine(s.Events[i])
			return []string{l.Time, l.What, l.Detail, l.Who}
		})
}

func (g *game) drawBillsPage(dst *ebiten.Image, s *machine.ServiceView) {
	x := model.RectSvcContent.X + 14
	g.listPage(dst, len(s.Bills), []float64{x, x + 200, x + 380, x + 600}, []string{g.T("col_time"), g.T("col_source"), g.T("col_amount"), ""},
		func(i int) []string {
			b := s.Bills[i]
			return []string{model.Clock(b.At), g.T("source_" + b.Source), model.Euro(g.Lang, b.Cents), b.Ref}
		})
}

func (g *game) drawHandpaysPage(dst *ebiten.Image, s *machine.ServiceView) {
	x := model.RectSvcContent.X + 14
	g.listPage(dst, len(s.Handpays), []float64{x, x + 200, x + 380, x + 560, x + 680},
		[]string{g.T("col_time"), g.T("col_kind"), g.T("col_amount"), g.T("col_game"), g.T("col_reset")},
		func(i int) []string {
			h := s.Handpays[i]
			reset := g.T("pending")
			if h.Reset != nil {
				reset = g.WhoText(h.Reset.Who) + "  " + model.Clock(h.Reset.At)
			}
			game := ""
			if h.Pending.Game > 0 {
				game = model.Itoa(h.Pending.Game)
			}
			return []string{model.Clock(h.Pending.At), g.T("handpay_" + h.Pending.Kind), model.Euro(g.Lang, h.Pending.Cents), game, reset}
		})
}

func (g *game) drawSettingsPage(dst *ebiten.Image, s *machine.ServiceView) {
	x := model.RectSvcContent.X + 20
	for _, r := range g.SettingRows() {
		g.textFit(dst, r.Label, rect(x, r.Y-22, 290, 22), 18, colDim, alignLeft, true)
		g.textFit(dst, r.Value, rect(x, r.Y, 290, 22), 18, colText, alignLeft, false)
	}
	if g.Confirm != nil {
		c := model.RectConfirm
		g.panel(dst, c, 10, colPanelEdge)
		g.textFit(dst, g.ConfirmText(), rect(c.X+16, c.Y+6, c.W-420, c.H-12), 20, colWhite, alignLeft, true)
	}
}

// drawIdentityPage: on the left what identifies the software (machine,
// program hash, paytable and its digest), on the right the certified RTP of
// every bet level beside the actual RTP from the meters.
func (g *game) drawIdentityPage(dst *ebiten.Image) {
	id := g.Identity()
	r := model.RectSvcContent
	x, y, w := r.X+20, r.Y+24, 580.0
	line := func(s string, size float64, c color.RGBA, bold bool, gap float64) {
		g.textFit(dst, s, rect(x, y-12, w, 24), size, c, alignLeft, bold)
		y += gap
	}
	hex := func(lines []string) {
		for _, l := range lines {
			g.textMono(dst, l, x+12, y, 20, colText)
			y += 28
		}
		y += 8
	}
	line(id.Machine, 20, colGold, true, 30)
	line(id.Games, 17, colText, false, 40)
	line(id.ProgramHead, 16, colDim, true, 30)
	hex(id.ProgramHash)
	line(id.Paytable, 17, colText, false, 36)
	line(id.DigestHead, 16, colDim, true, 30)
	hex(id.Digest)
	if id.Approval != "" {
		line(id.Approval, 16, colText, false, 30)
	}
	for i, l := range id.Verdict {
		c, size := colText, 16.0
		if i == 0 {
			c, size = colGreen, 18
			if !id.Valid {
				c = colGold
			}
		}
		line(l, size, c, i == 0, 26)
	}

	// The certified RTP per bet level, and the actual one beside it.
	x0 := r.X + 640
	g.fillRect(dst, rect(x0-20, r.Y+14, 1, r.H-28), colPanelEdge)
	y = r.Y + 24
	g.textFit(dst, id.RTPHead, rect(x0, y-12, r.X+r.W-x0-20, 24), 18, colGold, alignLeft, true)
	cols := []float64{x0, x0 + 200, x0 + 450}
	y += 34
	for i, h := range id.RTPCols {
		g.text(dst, h, cols[i], y, 15, colDim, alignLeft, true)
	}
	g.fillRect(dst, rect(x0, y+12, r.X+r.W-x0-20, 1), colPanelEdge)
	y += 30
	for _, row := range id.RTP {
		g.textFit(dst, row.Level, rect(cols[0], y-11, 190, 22), 16, colText, alignLeft, false)
		g.textFit(dst, row.Fraction, rect(cols[1], y-11, 240, 22), 16, colText, alignLeft, false)
		g.text(dst, row.Percent, cols[2], y, 17, colText, alignLeft, true)
		y += 28
	}
	if len(id.RTP) == 0 {
		g.text(dst, g.T("id_not_reported"), cols[0], y, 16, colDim, alignLeft, false)
		y += 28
	}
	box := rect(x0, max(y+10, r.Y+r.H-110), r.X+r.W-x0-20, 90)
	g.panel(dst, box, 10, color.RGBA{0x06, 0x0A, 0x1A, 0xFF})
	g.textFit(dst, id.ActualHead, rect(box.X+14, box.Y+8, box.W-28, 24), 16, colDim, alignLeft, true)
	g.textFit(dst, id.Actual, rect(box.X+14, box.Y+40, box.W-28, 40), 30, colGreen, alignLeft, true)
}

// drawIOPage: every input with its live level on the left, the output
// toggles (model.IOButtons, drawn with the other buttons) on the right.
func (g *game) drawIOPage(dst *ebiten.Image, s *machine.ServiceView) {
	r := model.RectSvcContent
	x, y := r.X+20, r.Y+24
	g.text(dst, g.T("io_inputs"), x, y, 18, colGold, alignLeft, true)
	ins := g.IOInputs()
	if len(ins) == 0 {
		g.text(dst, g.T("io_no_inputs"), x, y+40, 17, colDim, alignLeft, false)
	}
	half := (len(ins) + 1) / 2
	for i, in := range ins {
		cx := x + float64(i/half)*360
		cy := y + 40 + float64(i%half)*30
		lamp, tc := shade(colDim, 0.4), colDim
		if in.On {
			lamp, tc = colGreen, colText
		}
		g.panel(dst, rect(cx, cy-9, 18, 18), 9, lamp)
		g.textFit(dst, in.Label, rect(cx+28, cy-11, 200, 22), 15, tc, alignLeft, false)
		g.text(dst, in.State, cx+340, cy, 15, tc, alignRight, true)
	}
	o := model.RectIOOutputs
	g.fillRect(dst, rect(o.X-30, r.Y+14, 1, r.H-28), colPanelEdge)
	if s.Role == machine.RoleTechnician {
		g.textFit(dst, g.T("io_outputs"), rect(o.X, y-12, o.W, 24), 18, colGold, alignLeft, true)
		return // the toggles are buttons
	}
	g.textFit(dst, g.T("io_outputs_read_only"), rect(o.X, y-12, o.W, 24), 18, colDim, alignLeft, true)
}

// drawKeypad draws the login or new-PIN panel over the screen.
func (g *game) drawKeypad(dst *ebiten.Image) {
	if g.V.Mode != "service" {
		// The player buttons stay visible but inert under the panel.
		for _, b := range g.PlayerButtons() {
			b.Enabled = false
			g.drawButton(dst, b)
		}
	}
	g.fillRect(dst, rect(0, 0, model.DesignW, model.DesignH), color.RGBA{0, 0, 0, 140})
	p := model.RectPad
	g.panel(dst, p, 18, colPanelEdge)
	g.panel(dst, p.Inset(3), 16, colPanel)
	if g.Pad.Mode == "handpay" {
		g.textFit(dst, g.T("handpay_confirm_head"), rect(p.X+20, p.Y+14, p.W-40, 40), 26, colGold, alignCenter, true)
		g.textFit(dst, model.Euro(g.Lang, g.V.Handpay), rect(p.X+20, p.Y+80, p.W-40, 70), 56, colWhite, alignCenter, true)
		y := p.Y + 190
		for _, l := range g.wrap(g.T(g.HandpayText(), model.Euro(g.Lang, g.V.Handpay)), 22, p.W-60, false) {
			g.text(dst, l, p.X+p.W/2, y, 22, colText, alignCenter, false)
			y += 32
		}
		for _, b := range g.KeypadButtons() {
			g.drawButton(dst, b)
		}
		if msg := g.PadMessage(); msg != "" {
			g.textFit(dst, msg, rect(p.X+20, p.Y+430, p.W-40, 28), 18, colRed, alignCenter, true)
		}
		return
	}
	head := g.T("svc_login")
	switch g.Pad.Mode {
	case "set_pin":
		head = g.T("svc_new_pin")
	case "set_pin_again":
		head = g.T("svc_new_pin_again")
	case "set_pin_wait":
		head = g.T("svc_pin_wait")
	}
	g.textFit(dst, head, rect(p.X+20, p.Y+14, p.W-40, 40), 24, colGold, alignCenter, true)
	dots := ""
	for range g.Pad.Digits {
		dots += "• "
	}
	box := model.RectPadPIN
	g.panel(dst, box, 8, color.RGBA{0x06, 0x0A, 0x1A, 0xFF})
	g.text(dst, g.T("svc_pin"), box.X+12, box.Y+box.H/2, 18, colDim, alignLeft, true)
	g.text(dst, dots, box.X+box.W/2+20, box.Y+box.H/2, 30, colText, alignCenter, true)
	for _, b := range g.KeypadButtons() {
		g.drawButton(dst, b)
	}
	if msg := g.PadMessage(); msg != "" {
		g.textFit(dst, msg, model.RectPadMessage, 18, colRed, alignCenter, true)
	}
}
