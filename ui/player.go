package ui

import (
	"image"
	"image/color"
	"math"

	"github.com/hajimehoshi/ebiten/v2"
	"github.com/openegm/cabinet/reels"
	"github.com/openegm/cabinet/ui/model"
)

// The player's screen is a still layer (see layer) and live regions drawn
// over it: the middle of the top bar (the game's number, the free games),
// the jackpot banner, the reels (and what is drawn over them: the win
// lines, a lockout, the attract panel), the meters, the message and the
// buttons. The layer changes only when the player changes something (the
// language, the bet); a spin starts and ends in the live regions.

// drawPlayerStill is the layer: everything but the live regions.
func (g *game) drawPlayerStill(dst *ebiten.Image) {
	g.fill(dst, colBackground)
	g.drawTopBar(dst, true)
	g.drawJackpots(dst, true)
	g.drawReelFrame(dst)
	g.drawMeters(dst, true)
	g.drawMessage(dst, true)
	if g.opts.Simulator {
		g.drawLegend(dst)
	}
}

// live is a region of the player's screen whose content moves, the
// function that draws that content and, if any, the pixels it paints
// opaquely (the layer need not be copied under them).
type live struct {
	r     model.Rect
	draw  func(g *game, dst *ebiten.Image)
	cover func(g *game) image.Rectangle
}

// liveRegions are the parts of the player's screen drawn over the layer,
// each inside its rectangle (they do not overlap).
func (g *game) liveRegions() [liveN]live {
	reelsR := g.ReelsRect()
	return [liveN]live{
		{rectTopMiddle, func(g *game, dst *ebiten.Image) { g.drawTopBar(dst, false) }, nil},
		{model.RectJackpots, func(g *game, dst *ebiten.Image) { g.drawJackpots(dst, false) }, nil},
		// The frame round the reels, and on the left the lines' numbers.
		{rect(reelsR.X-40, reelsR.Y-8, reelsR.W+48, reelsR.H+16), (*game).drawReelsLive, (*game).reelsPx},
		{model.RectMeters, func(g *game, dst *ebiten.Image) { g.drawMeters(dst, false) }, nil},
		{model.RectMessage, func(g *game, dst *ebiten.Image) { g.drawMessage(dst, false) }, nil},
		// The buttons: lit or not as the spin starts and ends.
		{rectButtons, (*game).drawButtons, nil},
	}
}

const liveN = 6

// rectButtons is the row of the player's buttons.
var rectButtons = rect(0, 624, model.DesignW, model.DesignH-624)

// rectTopMiddle is the middle of the top bar: the game's number, or the
// free games' panel.
var rectTopMiddle = rect(380, 8, 520, 40)

// drawReelsLive is the reels and what is drawn over them.
func (g *game) drawReelsLive(dst *ebiten.Image) {
	g.drawReels(dst)
	switch {
	case g.V.Mode == "handpay":
		g.drawWinLines(dst) // the win being paid stays in sight
		g.drawLockout(dst)
	case model.Lockout(g.V.Mode):
		g.drawLockout(dst)
	case g.Spinning():
	case g.Attract():
		g.drawWinLines(dst)
		g.drawAttract(dst) // over the last game's lines, if any
	default:
		g.drawWinLines(dst)
		if c, ok := g.JackpotWon(); ok {
			g.drawJackpotWon(dst, c)
		}
		if c, ok := g.CelebrationNow(); ok {
			g.drawCelebration(dst, c)
		}
	}
}

// RectCelebration is the panel of a celebration over the reels at scale
// 1 (bigger tiers grow it about its centre).
func celebrationRect(r model.Rect, scale float64) model.Rect {
	w, h := min(560*scale, r.W-40), min(200*scale, r.H-20)
	return rect(r.X+(r.W-w)/2, r.Y+(r.H-h)/2, w, h)
}

// drawCelebration is the step the machine asked the screen to present:
// the trigger's scatters pulsing in gold, then the games announced; a big
// win, a mega win, a jackpot or the feature's total counting up, in a
// panel that grows with the tier.
func (g *game) drawCelebration(dst *ebiten.Image, c model.Celebration) {
	pulse := 0.7 + 0.3*math.Sin(float64(g.Tick)/5)
	if c.Scatters {
		n, rows := g.ReelCount()
		for _, s := range g.V.Scatters {
			if s.FreeGames == 0 {
				continue
			}
			for _, cell := range s.Cells {
				r := g.Cell(cell[0], cell[1], n, rows)
				// The Caravela throbs in a gold glow.
				g.panel(dst, r.Inset(-2), 12, shade(colGold, pulse))
				if cell[0] < len(g.V.Window) && cell[1] < len(g.V.Window[cell[0]]) {
					g.tile(dst, g.V.Window[cell[0]][cell[1]], r.Inset(6+6*(1-pulse)))
				}
			}
		}
		return
	}
	r := celebrationRect(g.ReelsRect(), c.Scale)
	g.panel(dst, r, 24, shade(colGold, pulse))
	g.panel(dst, r.Inset(6), 20, color.RGBA{0x10, 0x0C, 0x38, 0xF4})
	title := rect(r.X+20, r.Y+14, r.W-40, r.H*0.36)
	g.textFit(dst, c.Title, title, 54*c.Scale, shade(colGold, 0.85+0.15*math.Sin(float64(g.Tick)/5)), alignCenter, true)
	if c.Text != "" {
		g.textFit(dst, c.Text, rect(r.X+20, r.Y+r.H*0.45, r.W-40, r.H*0.36), 52*c.Scale, colWhite, alignCenter, true)
	}
	if c.Sub != "" {
		g.textFit(dst, c.Sub, rect(r.X+20, r.Y+r.H*0.55, r.W-40, r.H*0.3), 26, colWhite, alignCenter, true)
	}
}

// drawJackpotWon celebrates a jackpot paid to the credit meter.
func (g *game) drawJackpotWon(dst *ebiten.Image, cents int64) {
	pulse := 0.8 + 0.2*math.Sin(float64(g.Tick)/6)
	reelsR := g.ReelsRect()
	r := rect(reelsR.X+140, reelsR.Y+reelsR.H/2-95, reelsR.W-280, 190)
	g.panel(dst, r, 24, shade(colGold, pulse))
	g.panel(dst, r.Inset(6), 20, color.RGBA{0x30, 0x08, 0x10, 0xF0})
	g.textFit(dst, g.T("jackpot_won_head"), rect(r.X+20, r.Y+20, r.W-40, 70), 60, shade(colGold, pulse), alignCenter, true)
	g.textFit(dst, model.Euro(g.Lang, cents), rect(r.X+20, r.Y+100, r.W-40, 70), 56, colWhite, alignCenter, true)
}

// drawTopBar: the game's name, the machine and the denomination are
// still; the middle (the game's number, the free games) is live.
func (g *game) drawTopBar(dst *ebiten.Image, still bool) {
	if still {
		g.fillRect(dst, model.RectTopBar, colPanel)
		g.fillRect(dst, rect(0, 54, model.DesignW, 2), colGold)
		name := "OpenEGM"
		if g.PT != nil {
			name = model.Title(g.PT, g.Lang)
		}
		g.textFit(dst, name, model.RectTopBarLeft, 30, colGold, alignLeft, true)
		g.textFit(dst, g.T("machine_id", g.V.MachineID)+"   "+g.T("denom_is", model.Euro(g.Lang, g.V.Denom)), model.RectTopBarRight, 18, colText, alignRight, false)
		return
	}
	switch fb := g.FreeBanner(); {
	case fb != "":
		g.panel(dst, rectTopMiddle, 10, colButtonHi)
		g.textFit(dst, fb, rect(390, 8, 500, 40), 20, colWhite, alignCenter, true)
	case g.V.Game > 0 && g.V.Test == nil: // in test mode, in the banner
		g.text(dst, g.T("game_no", model.Credits(g.Lang, int64(g.V.Game))), 640, 28, 16, colDim, alignCenter, false)
	}
}

// drawJackpots is the banner of the jackpot levels above the reels, drawn
// from the view of this frame: a panel a level, its name and its value,
// gold and pulsing while the level is won and being paid. The panels and
// names are still; the values (a linked level's change several times a
// second) and a pulsing level are live.
func (g *game) drawJackpots(dst *ebiten.Image, still bool) {
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
		if still {
			// The layer does not depend on a hit: a level won is drawn
			// over it by the live region, when the reels show the hit.
			c.Pending, c.Note = false, ""
		}
		if c.Pending {
			back = shade(colGold, 0.85+0.15*math.Sin(float64(g.Tick)/8))
			label, value = colBlack, colBlack
		}
		if still || c.Pending {
			g.panel(dst, cr, 10, shade(colGold, 0.7))
			g.panel(dst, cr.Inset(2), 8, back)
		}
		name := c.Label
		if c.Note != "" {
			name += "  " + c.Note
		}
		in := cr.Inset(4)
		if w >= 360 { // side by side: the name left, the value right
			if still || c.Pending {
				g.textFit(dst, name, rect(in.X+8, in.Y, in.W*0.42-8, in.H), 20, label, alignLeft, true)
			}
			if !still {
				g.textFit(dst, c.Value, rect(in.X+in.W*0.42, in.Y, in.W*0.58-8, in.H), 30, value, alignRight, true)
			}
		} else { // narrow: the name above the value
			if still || c.Pending {
				g.textFit(dst, name, rect(in.X+6, in.Y, in.W-12, in.H*0.4), 13, label, alignCenter, true)
			}
			if !still {
				g.textFit(dst, c.Value, rect(in.X+6, in.Y+in.H*0.38, in.W-12, in.H*0.62), 22, value, alignCenter, true)
			}
		}
	}
}

// drawReelFrame is the gold frame round the reels (the reels cover what
// is inside it).
func (g *game) drawReelFrame(dst *ebiten.Image) {
	reelsR := g.ReelsRect()
	g.panel(dst, reelsR.Inset(-8), 14, colGold)
	g.panel(dst, reelsR.Inset(-3), 8, shade(colGold, 0.5))
}

// motionLight darkens a turning reel (as a black veil of alpha 40 did).
const motionLight = 1 - 40.0/255

// reelsPx is where the reels' tiles are, in whole pixels: drawReels covers
// every pixel of it.
func (g *game) reelsPx() image.Rectangle {
	r := g.ReelsRect()
	return image.Rect(g.pxX(r.X), g.pxY(r.Y), g.pxX(r.X+r.W), g.pxY(r.Y+r.H))
}

// warmReelTiles draws the tiles of every symbol of the paytable at the
// sizes the reels use now, once for each size of the reels: the first spin
// then draws nothing new (a tile costs more to draw than a frame).
func (g *game) warmReelTiles() {
	n, rows := g.ReelCount()
	k := warmKey{g.PT, g.w, g.h, g.ReelsRect(), n, rows}
	if g.PT == nil || k == g.warmed {
		return
	}
	g.warmed = k
	reelsR := g.ReelsRect()
	widths := map[int]bool{}
	for i := 0; i < n; i++ {
		widths[g.pxX(reelsR.X+reelsR.W*float64(i+1)/float64(n))-g.pxX(reelsR.X+reelsR.W*float64(i)/float64(n))] = true
	}
	h := reelsR.H / float64(rows) * g.scale
	for _, s := range g.PT.Symbols {
		for w := range widths {
			for _, ih := range []int{int(math.Floor(h)), int(math.Ceil(h))} {
				if w >= 2 && ih >= 2 {
					g.tileImage(s.ID, w, ih, colReelBack)
				}
			}
		}
	}
}

type warmKey struct {
	pt      *reels.Certified
	w, h    int
	reels   model.Rect
	n, rows int
}

// drawReels draws the symbols of the reels and the lines between them.
// The tiles are opaque (the reel's back is in them) and their edges are
// whole pixels shared with their neighbours, so every pixel of reelsPx is
// drawn once and nothing under the reels needs drawing.
func (g *game) drawReels(dst *ebiten.Image) {
	reelsR := g.ReelsRect()
	n, rows := g.ReelCount()
	cellH := reelsR.H / float64(rows)
	colX := func(i int) int { return g.pxX(reelsR.X + reelsR.W*float64(i)/float64(n)) }
	all := g.reelsPx()
	for i := 0; i < n; i++ {
		x0, x1 := colX(i), colX(i+1)
		clip := dst
		if g.sk == nil {
			clip = dst.SubImage(image.Rect(x0, all.Min.Y, x1, all.Max.Y)).(*ebiten.Image)
		}
		p := 0.0
		if g.Anim != nil && i < len(g.Anim.StopAt) {
			p = g.Anim.Pos(i, g.Tick)
		}
		light := float32(1)
		if p > 1 { // motion: a shade over the turning reel
			light = motionLight
		}
		rowY := func(j int) int { return g.pxY(reelsR.Y + (float64(j)-p)*cellH) }
		first := int(math.Floor(p)) - 1
		for j := first; j <= first+rows+1; j++ {
			y0, y1 := rowY(j), rowY(j+1)
			if y0 >= all.Max.Y || y1 <= all.Min.Y {
				continue
			}
			g.reelTile(clip, g.SymbolAt(i, j), image.Rect(x0, y0, x1, y1), light)
		}
	}
	for i := 1; i < n; i++ {
		col := g.Cell(i, 0, n, rows)
		g.fillRect(dst, rect(col.X-1, col.Y, 2, reelsR.H), shade(colGold, 0.5))
	}
}

// drawWinLines shows what the spin won over the reels: every paying line
// and scatter together, then one by one (the message bar names each).
func (g *game) drawWinLines(dst *ebiten.Image) {
	items := g.WinItems()
	if len(items) == 0 || len(g.V.Window) == 0 {
		return
	}
	show := items
	if one, ok := g.WinItemNow(); ok {
		show = []model.WinItem{one}
	}
	n, rows := g.ReelCount()
	reelsR := g.ReelsRect()
	for _, it := range show {
		for _, c := range it.Cells {
			g.strokeRect(dst, g.Cell(c[0], c[1], n, rows).Inset(5), 5, colGold)
		}
		if it.Line < 0 || g.PT == nil || it.Line >= len(g.PT.Lines) {
			continue
		}
		c := lineColor(it.Line)
		path := g.PT.Lines[it.Line]
		for i := 0; i < it.Count && i < len(path) && i < n; i++ {
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
		// The line's number at its start, a tab on the frame and the
		// reel's very edge: left of the frame is the simulator's legend,
		// and the symbol's own margin stays in sight.
		badge := rect(x0-4, y0-16, 22, 32)
		g.panel(dst, badge, 6, c)
		g.textFit(dst, model.Itoa(it.Line+1), badge.Inset(2), 18, colBlack, alignCenter, true)
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

// lockoutLayout is where a lockout's panel and title are, and the middle
// of its first line. A handpay's panel is over the top of the reels: the
// winning lines below it stay visible while the attendant comes. It is as
// tall as its lines (a cash-out's says what stays on the meter).
func (g *game) lockoutLayout() (panel, title model.Rect, firstY float64) {
	reelsR := g.ReelsRect()
	if g.V.Mode == "handpay" {
		w := reelsR.W - 240
		_, lines := g.LockoutLines()
		more := 0 // lines under the amount, beyond the two the panel has room for
		for i, l := range lines {
			if i > 0 {
				more += len(g.wrap(l, 26, w-60, true))
			}
		}
		r := rect(reelsR.X+120, reelsR.Y+6, w, 236+26*1.5*float64(max(more-2, 0)))
		return r, rect(r.X+20, r.Y+6, r.W-40, 60), r.Y + 100
	}
	r := rect(reelsR.X+80, reelsR.Y+50, reelsR.W-160, reelsR.H-100)
	return r, rect(r.X+20, r.Y+30, r.W-40, 60), r.Y + 120
}

func (g *game) drawLockout(dst *ebiten.Image) {
	reelsR := g.ReelsRect()
	r, title, y := g.lockoutLayout()
	if g.V.Mode != "handpay" {
		g.fillRect(dst, reelsR.Inset(-8), color.RGBA{0, 0, 0, 150})
	}
	edge := colRed
	if g.V.Mode == "handpay" {
		edge = colGold
	}
	g.panel(dst, r, 20, shade(edge, 0.5))
	g.panel(dst, r.Inset(5), 16, color.RGBA{0x14, 0x0C, 0x18, 0xF0})
	head, lines := g.LockoutLines()
	g.textFit(dst, head, title, 48, edge, alignCenter, true)
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

// drawMeters: the panels and labels are still, the figures move (the win
// counts up).
func (g *game) drawMeters(dst *ebiten.Image, still bool) {
	credits, cents := g.ShownCredits()
	win := g.WinMeter()
	cells := []struct {
		label, big, small string
		r                 model.Rect
	}{
		{"credit", model.Euro(g.Lang, cents), model.Tn(g.Lang, "credits_n", credits, model.Credits(g.Lang, credits)), model.RectCreditCell},
		{"bet", model.Euro(g.Lang, g.V.BetCents), model.Tn(g.Lang, "credits_n", g.V.BetCredits, model.Credits(g.Lang, g.V.BetCredits)), rect(485, 496, 310, 80)},
		{"win", model.Euro(g.Lang, win), "", rect(810, 496, 330, 80)},
	}
	for i, c := range cells {
		if still {
			g.panel(dst, c.r, 12, colPanelEdge)
			g.panel(dst, c.r.Inset(2), 10, colPanel)
			g.text(dst, g.T(c.label), c.r.X+16, c.r.Y+18, 16, colDim, alignLeft, true)
			continue
		}
		col := colGold
		if i == 2 && win > 0 && !g.Spinning() {
			col = colGreen
		}
		g.textFit(dst, c.big, rect(c.r.X+16, c.r.Y+30, c.r.W-32, 44), 34, col, alignRight, true)
		// The count in credits on the label's row, right: clear of the
		// amount, however long both are.
		label := g.measure(g.T(c.label), 16, true)
		g.textFit(dst, c.small, rect(c.r.X+label+28, c.r.Y+8, c.r.W-label-44, 20), 16, colText, alignRight, false)
	}
}

// drawMessage is the row under the meters: the message, and with
// promotional credit the credit's split under the credit meter.
func (g *game) drawMessage(dst *ebiten.Image, still bool) {
	split, msgR, parts := g.ReelsMessageRow()
	if still {
		g.panel(dst, msgR, 10, color.RGBA{0x06, 0x0A, 0x1A, 0xFF})
		if parts != nil {
			g.drawSplitPanel(dst, split)
		}
		return
	}
	if parts != nil {
		g.drawSplitText(dst, parts, split)
	}
	c := colText
	if k := g.V.Message.Key; len(k) > 8 && k[:8] == "refused_" {
		c = color.RGBA{0xFF, 0xB0, 0x50, 0xFF}
	}
	if it, ok := g.WinItemNow(); ok && g.MessageText() == it.Text {
		switch {
		case it.Hot:
			c = colGold
		case it.Line >= 0:
			c = lineColor(it.Line)
		}
	}
	g.textBox(dst, g.MessageText(), msgR.Inset(6), 22, c, alignCenter, true)
}

// drawLegend is the simulator's help: switches on the left, keys on the right.
func (g *game) drawLegend(dst *ebiten.Image) {
	g.panel(dst, model.RectLeft, 10, colPanel)
	g.panel(dst, model.RectRight, 10, colPanel)
	y := model.RectLeft.Y + 18
	g.text(dst, g.T("sim_title"), model.RectLeft.X+67, y, 14, colGold, alignCenter, true)
	y += 28
	// From the view: where the machine says the key and the doors are.
	onOff := func(name string) (string, color.RGBA) {
		if s, on := g.SwitchText(name); on {
			return s, colRed
		} else {
			return s, colGreen
		}
	}
	s, c := onOff(SwitchKey)
	g.text(dst, g.T("sim_key_is", ""), model.RectLeft.X+8, y, 14, colText, alignLeft, false)
	g.text(dst, s, model.RectLeft.X+126, y, 14, c, alignRight, true)
	y += 26
	for _, d := range []string{SwitchMain, SwitchLogic, SwitchCashbox, SwitchBelly, SwitchDrop} {
		g.textFit(dst, g.T(d), rect(model.RectLeft.X+8, y-9, 118, 18), 13, colText, alignLeft, false)
		y += 18
		s, c := onOff(d)
		g.text(dst, s, model.RectLeft.X+126, y, 13, c, alignRight, true)
		y += 24
	}
	y = model.RectRight.Y + 18
	g.text(dst, g.T("sim_title"), model.RectRight.X+67, y, 14, colGold, alignCenter, true)
	y += 28
	snd := "sim_sound_on"
	switch {
	case g.snd.Silent():
		snd = "sim_sound_none"
	case g.snd.Muted():
		snd = "sim_sound_off"
	}
	for _, k := range []string{"sim_spin", "sim_bet", "sim_max", "sim_cash", "sim_help", "sim_lang", "sim_bills", "sim_key", "sim_doors", snd} {
		g.textFit(dst, g.T(k), rect(model.RectRight.X+8, y-10, 118, 20), 14, colText, alignLeft, false)
		y += 30
	}
}
