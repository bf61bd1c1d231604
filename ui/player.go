package ui

import (
	"github.com/openegm/cabinet/ui/model"
	"image/color"
	"math"

	"github.com/hajimehoshi/ebiten/v2"
)

func (g *game) drawPlayer(dst *ebiten.Image) {
	g.drawTopBar(dst)
	g.drawJackpots(dst)
	g.drawReels(dst)
	if !g.Spinning() && !model.Lockout(g.V.Mode) {
		g.drawWinLines(dst)
	}
	switch {
	case model.Lockout(g.V.Mode):
		g.drawLockout(dst)
	case g.Attract():
		g.drawAttract(dst)
	}
	g.drawMeters(dst)
	g.drawMessage(dst)
	if g.opts.Simulator {
		g.drawLegend(dst)
	}
}

func (g *game) drawTopBar(dst *ebiten.Image) {
	g.fillRect(dst, model.RectTopBar, colPanel)
	g.fillRect(dst, rect(0, 54, model.DesignW, 2), colGold)
	name := "OpenEGM"
	if g.PT != nil {
		name = model.Title(g.PT, g.Lang)
	}
	g.text(dst, name, 20, 28, 30, colGold, alignLeft, true)
	g.text(dst, g.T("machine_id", g.V.MachineID)+"   "+g.T("denom_is", model.Euro(g.Lang, g.V.Denom)), 1260, 28, 18, colText, alignRight, false)
	switch {
	case g.V.Free || g.V.FreeLeft > 0:
		mult := ""
		if g.PT != nil && g.PT.Free != nil {
			mult = "   " + g.T("multiplier", model.Credits(g.Lang, g.PT.Free.Multiplier))
		}
		s := g.T("free_games") + "   " + g.T("free_left", model.Itoa(g.V.FreePlayed), model.Itoa(g.V.FreeLeft)) + mult
		g.panel(dst, rect(380, 8, 520, 40), 10, colButtonHi)
		g.textFit(dst, s, rect(390, 8, 500, 40), 20, colWhite, alignCenter, true)
	case g.V.Game > 0:
		g.text(dst, g.T("game_no", model.Credits(g.Lang, int64(g.V.Game))), 640, 28, 16, colDim, alignCenter, false)
	}
}

// drawJackpots is the banner of the jackpot levels above the reels, drawn
// from the view of this frame: a panel a level, its name and its value,
// gold and pulsing while the level is won and being paid.
func (g *game) drawJackpots(dst *ebiten.Image) {
	cells := g.JackpotBanner()
	if len(cells) == 0 {
		return
	}
	r := model.RectJackpots
	const gap = 10.0
	w := (r.W - gap*float64(len(cells)-1)) / float64(len(cells))
	for i, c := range cells {
		cr := rect(r.X+float64(i)*(w+gap), r.Y, w, r.H)
		back, label, value := colPanel, colGold, colText
		if c.Pending {
			back = shade(colGold, 0.85+0.15*math.Sin(float64(g.Tick)/8))
			label, value = colBlack, colBlack
		}
		g.panel(dst, cr, 10, shade(colGold, 0.7))
		g.panel(dst, cr.Inset(2), 8, back)
		name := c.Label
		if c.Note != "" {
			name += "  " + c.Note
		}
		in := cr.Inset(4)
		if w >= 360 { // side by side: the name left, the value right
			g.textFit(dst, name, rect(in.X+8, in.Y, in.W*0.42-8, in.H), 20, label, alignLeft, true)
			g.textFit(dst, c.Value, rect(in.X+in.W*0.42, in.Y, in.W*0.58-8, in.H), 30, value, alignRight, true)
		} else { // narrow: the name above the value
			g.textFit(dst, name, rect(in.X+6, in.Y, in.W-12, in.H*0.4), 13, label, alignCenter, true)
			g.textFit(dst, c.Value, rect(in.X+6, in.Y+in.H*0.38, in.W-12, in.H*0.62), 22, value, alignCenter, true)
		}
	}
}

func (g *game) drawReels(dst *ebiten.Image) {
	reelsR := g.ReelsRect()
	frame := reelsR.Inset(-8)
	g.panel(dst, frame, 14, colGold)
	g.panel(dst, reelsR.Inset(-3), 8, shade(colGold, 0.5))
	n, rows := g.ReelCount()
	for i := 0; i < n; i++ {
		col := g.Cell(i, 0, n, rows)
		col.H = reelsR.H
		x, y, w, h := g.px(col)
		clip := dst.SubImage(imageRect(int(x), int(y), int(x+w+0.5), int(y+h+0.5))).(*ebiten.Image)
		g.fillRect(clip, col, colReelBack)
		p := 0.0
		if g.Anim != nil && i < len(g.Anim.StopAt) {
			p = g.Anim.Pos(i, g.Tick)
		}
		cellH := reelsR.H / float64(rows)
		first := int(math.Floor(p)) - 1
		for j := first; j <= first+rows+1; j++ {
			yy := reelsR.Y + (float64(j)-p)*cellH
			if yy >= reelsR.Y+reelsR.H || yy+cellH <= reelsR.Y {
				continue
			}
			id := g.SymbolAt(i, j)
			g.tile(clip, id, rect(col.X, yy, col.W, cellH))
		}
		if p > 1 { // motion: a shade over the turning reel
			g.fillRect(clip, col, color.RGBA{0, 0, 0, 40})
		}
		if i > 0 {
			g.fillRect(dst, rect(col.X-1, col.Y, 2, col.H), shade(colGold, 0.5))
		}
	}
}

// drawWinLines shows the paying lines: all of them, then one by one with
// their names and amounts.
func (g *game) drawWinLines(dst *ebiten.Image) {
	lines := g.V.Lines
	if len(lines) == 0 || len(g.V.Window) == 0 {
		return
	}
	t := g.Tick - g.ShownDone
	if g.Anim == nil {
		t = model.LinesAll + g.Tick // no spin seen: go straight to one by one
	}
	show := lines
	one := t >= model.LinesAll
	if one {
		k := ((t - model.LinesAll) / model.LineEach) % len(lines)
		show = lines[k : k+1]
	}
	n, rows := g.ReelCount()
	reelsR := g.ReelsRect()
	for _, l := range show {
		c := lineColor(l.Line)
		if g.PT != nil && l.Line >= 0 && l.Line < len(g.PT.Lines) {
			path := g.PT.Lines[l.Line]
			for i := 0; i < l.Count && i < len(path) && i < n; i++ {
				g.strokeRect(dst, g.Cell(i, path[i], n, rows).Inset(5), 5, c)
			}
			for i := 0; i+1 < len(path) && i+1 < n; i++ {
				x0, y0 := g.Cell(i, path[i], n, rows).Center()
				x1, y1 := g.Cell(i+1, path[i+1], n, rows).Center()
				g.line(dst, x0, y0, x1, y1, 8, shade(c, 0.4))
				g.line(dst, x0, y0, x1, y1, 4, c)
			}
			x0, y0 := g.Cell(0, path[0], n, rows).Center()
			x0 = reelsR.X - 2
			g.panel(dst, rect(x0-34, y0-18, 40, 36), 8, c)
			g.text(dst, model.Itoa(l.Line+1), x0-14, y0, 20, colBlack, alignCenter, true)
		}
		if one {
			s := g.lineText(l)
			band := rect(reelsR.X+150, reelsR.Y+reelsR.H-54, reelsR.W-300, 44)
			g.panel(dst, band, 12, color.RGBA{0, 0, 0, 200})
			g.textFit(dst, s, band.Inset(6), 24, c, alignCenter, true)
		}
	}
}

func (g *game) drawAttract(dst *ebiten.Image) {
	pulse := 0.75 + 0.25*math.Sin(float64(g.Tick)/12)
	reelsR := g.ReelsRect()
	r := rect(reelsR.X+100, reelsR.Y+min(120, (reelsR.H-180)/2), reelsR.W-200, 180)
	g.panel(dst, r, 20, color.RGBA{0x0B, 0x12, 0x2B, 0xE0})
	g.strokeRect(dst, r.Inset(6), 3, colGold)
	name := "OpenEGM"
	if g.PT != nil {
		name = model.Title(g.PT, g.Lang)
	}
	g.text(dst, name, r.X+r.W/2, r.Y+55, 48, colGold, alignCenter, true)
	g.text(dst, g.T("attract_1"), r.X+r.W/2, r.Y+115, 30, shade(colText, pulse), alignCenter, true)
	if g.PT != nil {
		top := int64(0)
		for _, lp := range g.PT.LinePays {
			top = max(top, lp.Pays)
		}
		g.text(dst, g.T("attract_2", model.Credits(g.Lang, top)), r.X+r.W/2, r.Y+152, 20, colDim, alignCenter, false)
	}
}

func (g *game) drawLockout(dst *ebiten.Image) {
	reelsR := g.ReelsRect()
	g.fillRect(dst, reelsR.Inset(-8), color.RGBA{0, 0, 0, 150})
	r := rect(reelsR.X+80, reelsR.Y+50, reelsR.W-160, reelsR.H-100)
	edge := colRed
	if g.V.Mode == "handpay" {
		edge = colGold
	}
	g.panel(dst, r, 20, shade(edge, 0.5))
	g.panel(dst, r.Inset(5), 16, color.RGBA{0x14, 0x0C, 0x18, 0xF0})
	head, lines := g.LockoutLines()
	g.textFit(dst, head, rect(r.X+20, r.Y+30, r.W-40, 60), 48, edge, alignCenter, true)
	y := r.Y + 120
	for i, l := range lines {
		size := 26.0
		if g.V.Mode == "handpay" && i == 0 {
			size = 40
		}
		for _, w := range g.wrap(l, size, r.W-60, true) {
			g.text(dst, w, r.X+r.W/2, y, size, colText, alignCenter, i == 0)
			y += size * 1.5
		}
	}
}

func (g *game) drawMeters(dst *ebiten.Image) {
	credits, cents := g.ShownCredits()
	win := g.ShownWin()
	cells := []struct {
		label, big, small string
		r                 model.Rect
	}{
		{g.T("credit"), model.Euro(g.Lang, cents), g.T("credits_n", model.Credits(g.Lang, credits)), rect(140, 496, 330, 80)},
		{g.T("bet"), model.Euro(g.Lang, g.V.BetCents), g.T("credits_n", model.Credits(g.Lang, g.V.BetCredits)), rect(485, 496, 310, 80)},
		{g.T("win"), model.Euro(g.Lang, win), "", rect(810, 496, 330, 80)},
	}
	for i, c := range cells {
		g.panel(dst, c.r, 12, colPanelEdge)
		g.panel(dst, c.r.Inset(2), 10, colPanel)
		g.text(dst, c.label, c.r.X+16, c.r.Y+18, 16, colDim, alignLeft, true)
		col := colGold
		if i == 2 && win > 0 && !g.Spinning() {
			col = colGreen
		}
		g.textFit(dst, c.big, rect(c.r.X+16, c.r.Y+30, c.r.W-32, 44), 34, col, alignRight, true)
		g.text(dst, c.small, c.r.X+16, c.r.Y+58, 16, colText, alignLeft, false)
	}
}

func (g *game) drawMessage(dst *ebiten.Image) {
	g.panel(dst, model.RectMessage, 10, color.RGBA{0x06, 0x0A, 0x1A, 0xFF})
	c := colText
	if k := g.V.Message.Key; len(k) > 8 && k[:8] == "refused_" {
		c = color.RGBA{0xFF, 0xB0, 0x50, 0xFF}
	}
	g.textFit(dst, g.MessageText(), model.RectMessage.Inset(6), 22, c, alignCenter, true)
}

// drawLegend is the simulator's help: switches on the left, keys on the right.
func (g *game) drawLegend(dst *ebiten.Image) {
	g.panel(dst, model.RectLeft, 10, colPanel)
	g.panel(dst, model.RectRight, 10, colPanel)
	y := model.RectLeft.Y + 18
	g.text(dst, g.T("sim_title"), model.RectLeft.X+67, y, 14, colGold, alignCenter, true)
	y += 28
	onOff := func(on bool, k1, k2 string) (string, color.RGBA) {
		if on {
			return g.T(k1), colRed
		}
		return g.T(k2), colGreen
	}
	s, c := onOff(g.C.Switch(SwitchKey), "sim_on", "sim_off")
	g.text(dst, g.T("sim_key_is", ""), model.RectLeft.X+8, y, 14, colText, alignLeft, false)
	g.text(dst, s, model.RectLeft.X+126, y, 14, c, alignRight, true)
	y += 26
	for _, d := range []string{SwitchMain, SwitchLogic, SwitchCashbox, SwitchBelly, SwitchDrop} {
		g.textFit(dst, g.T(d), rect(model.RectLeft.X+8, y-9, 118, 18), 13, colText, alignLeft, false)
		y += 18
		s, c := onOff(g.C.Switch(d), "sim_open", "sim_closed")
		g.text(dst, s, model.RectLeft.X+126, y, 13, c, alignRight, true)
		y += 24
	}
	y = model.RectRight.Y + 18
	g.text(dst, g.T("sim_title"), model.RectRight.X+67, y, 14, colGold, alignCenter, true)
	y += 28
	for _, k := range []string{"sim_spin", "sim_bet", "sim_max", "sim_cash", "sim_help", "sim_lang", "sim_bills", "sim_key", "sim_doors"} {
		g.textFit(dst, g.T(k), rect(model.RectRight.X+8, y-10, 118, 20), 14, colText, alignLeft, false)
		y += 30
	}
}
