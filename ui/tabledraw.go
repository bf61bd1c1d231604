package ui

import (
	"image/color"
	"strings"

	"github.com/hajimehoshi/ebiten/v2"
	"github.com/openegm/cabinet/cards"
	"github.com/openegm/cabinet/machine"
	"github.com/openegm/cabinet/ui/model"
)

// The game menu and the Makccarat table are drawn whole every frame from
// model.Screen: they are still most of the time and small to draw, so
// they do without the reel screen's layer and live regions.

var (
	colFelt      = color.RGBA{0x0E, 0x4A, 0x32, 0xFF}
	colFeltEdge  = color.RGBA{0x2F, 0x8A, 0x5E, 0xFF}
	colPlayer    = color.RGBA{0x2A, 0x6E, 0xE0, 0xFF}
	colBanker    = color.RGBA{0xD8, 0x30, 0x30, 0xFF}
	colTie       = color.RGBA{0x2E, 0xB0, 0x4E, 0xFF}
	colCardFace  = color.RGBA{0xFB, 0xFA, 0xF5, 0xFF}
	colCardRed   = color.RGBA{0xC8, 0x10, 0x20, 0xFF}
	colCardBlack = color.RGBA{0x10, 0x10, 0x18, 0xFF}
)

func sideColor(w string) color.RGBA {
	switch w {
	case "player":
		return colPlayer
	case "banker":
		return colBanker
	case "tie":
		return colTie
	}
	return colButtonOff
}

// drawGameScreen draws the menu or the table when one is on screen, and
// says whether it did.
func (g *game) drawGameScreen(dst *ebiten.Image) bool {
	switch {
	case g.MenuUp():
		g.fill(dst, colBackground)
		g.drawMenu(dst)
	case g.AtTable():
		g.fill(dst, colBackground)
		g.drawTable(dst)
	case g.AtPoker():
		g.fill(dst, colBackground)
		g.drawPoker(dst)
	default:
		return false
	}
	g.drawButtons(dst)
	g.shown = 0 // the reel screen, when it comes back, is drawn whole
	return true
}

func (g *game) drawMenu(dst *ebiten.Image) {
	g.fillRect(dst, model.RectTopBar, colPanel)
	g.fillRect(dst, rect(0, 54, model.DesignW, 2), colGold)
	g.textFit(dst, "OpenEGM", model.RectTopBarLeft, 30, colGold, alignLeft, true)
	g.textFit(dst, g.T("machine_id", g.V.MachineID), model.RectTopBarRight, 18, colText, alignRight, false)
	g.textFit(dst, g.T("menu_title"), rect(140, 80, 1000, 60), 44, colGold, alignCenter, true)
	for _, b := range g.Buttons() {
		if !strings.HasPrefix(b.ID, "game:") {
			continue
		}
		edge := colPanelEdge
		if b.Style == model.StyleSelected {
			edge = colGold
		}
		g.panel(dst, b.R, 24, edge)
		g.panel(dst, b.R.Inset(5), 20, colPanel)
		art := rect(b.R.X+30, b.R.Y+30, b.R.W-60, b.R.H-130)
		switch b.ID {
		case "game:" + "makccarat":
			g.panel(dst, art, 16, colFelt)
			for i, s := range []string{"A♠", "9♥"} {
				c := rect(art.X+art.W/2-110+float64(i)*120, art.Y+12, 100, art.H-24)
				g.panel(dst, c, 10, colCardFace)
				col := colCardBlack
				if i == 1 {
					col = colCardRed
				}
				g.textFit(dst, s, c.Inset(8), 44, col, alignCenter, true)
			}
		case "game:" + machine.GamePoker:
			// An oval with a pair of hole cards and a chip.
			g.panel(dst, art, art.H/2, shade(colFeltEdge, 0.8))
			g.panel(dst, art.Inset(6), art.H/2-6, colFelt)
			h := art.H - 40
			x0 := art.X + art.W/2 - (h*0.7+h*0.62)/2 - 24
			for i, s := range []cards.Suit{cards.Hearts, cards.Spades} {
				c := model.PokerCard{Card: cards.Card{Rank: cards.Ace, Suit: s}, Up: true, R: rect(x0+float64(i)*h*0.62, art.Y+20, h*0.7, h)}
				g.drawPokerCard(dst, c)
			}
			chip := rect(x0+h*1.32+8, art.Y+art.H-62, 40, 40)
			g.panel(dst, chip, 20, colGold)
			g.panel(dst, chip.Inset(6), 14, colButtonHi)
		default:
			g.panel(dst, art, 16, colReelBack)
			for i := range 3 {
				g.tile(dst, g.SymbolAt(i, 1), rect(art.X+art.W/2-150+float64(i)*100, art.Y+20, 100, art.H-40))
			}
		}
		g.textFit(dst, g.T("menu_"+strings.TrimPrefix(b.ID, "game:")), rect(b.R.X+20, b.R.Y+b.R.H-90, b.R.W-40, 70), 44, colText, alignCenter, true)
	}
	g.textFit(dst, g.MenuHint(), rect(140, 520, 1000, 40), 22, colDim, alignCenter, false)
	if g.opts.Simulator {
		// The menu's keys are the simulator's, in its legend at the foot.
		g.drawLegendText(dst, g.T("sim_menu_keys"), rect(1000, 660, 260, 50)) // beside, never over, the language button
	}
	if msg := g.V.Message.Key; msg != "" {
		g.textFit(dst, model.MessageText(g.Lang, msg, g.V.Message.Args), model.RectTableMsg, 24, colGold, alignCenter, true)
	}
}

func (g *game) drawTable(dst *ebiten.Image) {
	t := g.V.Table
	// Top bar: the table's title, the machine.
	g.fillRect(dst, model.RectTopBar, colPanel)
	g.fillRect(dst, rect(0, 54, model.DesignW, 2), colGold)
	title := t.Title[0]
	if g.Lang == "en" && t.Title[1] != "" {
		title = t.Title[1]
	}
	// The table's long title takes the bar up to the game's number,
	// short of the banner in test mode.
	left := model.RectTopBarLeft
	if g.V.Test == nil {
		left.W = rectTopMiddle.X + rectTopMiddle.W/2 - 90 - left.X
	}
	g.textFit(dst, title, left, 26, colGold, alignLeft, true)
	if h := t.Hand; h != nil && h.Game > 0 && g.V.Test == nil { // in test mode, in the banner
		g.textFit(dst, g.T("game_no", model.Credits(g.Lang, int64(h.Game))), rectTopMiddle, 16, colDim, alignCenter, false)
	}
	g.textFit(dst, g.T("machine_id", g.V.MachineID), model.RectTopBarRight, 18, colText, alignRight, false)

	g.drawHands(dst)
	g.drawSpots(dst)
	g.drawChips(dst)
	g.drawTableMeters(dst)
	g.drawRoads(dst)
	msg := g.TableMessage()
	c := colText
	switch {
	case strings.HasPrefix(g.V.Message.Key, "refused_"):
		c = colGold
	case g.Settled():
		c = sideColor(t.Hand.Winner)
		c = color.RGBA{min(c.R+0x50, 0xFF), min(c.G+0x50, 0xFF), min(c.B+0x50, 0xFF), 0xFF}
	}
	split, msgR, parts := g.TableMessageRow()
	g.drawSplit(dst, parts, split)
	g.textBox(dst, msg, msgR, 26, c, alignCenter, true)
	if model.Lockout(g.V.Mode) {
		g.drawTableLockout(dst)
	}
}

// drawHands draws the player's and the banker's boxes, their cards turned
// so far and their points.
func (g *game) drawHands(dst *ebiten.Image) {
	for _, side := range []string{"player", "banker"} {
		box := model.RectPlayerHand
		if side == "banker" {
			box = model.RectBankerHand
		}
		edge := shade(sideColor(side), 0.8)
		if g.HandWon(side) || g.HandWon("tie") {
			edge = colGold
		}
		g.panel(dst, box, 16, edge)
		g.panel(dst, box.Inset(4), 13, colFelt)
		g.text(dst, g.T("hand_"+side), box.X+20, box.Y+22, 22, colText, alignLeft, true)
		if g.HandPair(side) {
			g.text(dst, g.T("pair_"+side), box.X+box.W-20, box.Y+22, 18, colGold, alignRight, true)
		}
		if p := g.HandPoints(side); p != "" {
			c := colText
			if g.HandWon(side) {
				c = colGold
			}
			g.textFit(dst, p, rect(box.X+20, box.Y+box.H-52, box.W-40, 44), 32, c, alignCenter, true)
		}
	}
	for _, s := range g.TableCards() {
		g.drawCard(dst, s)
	}
}

func (g *game) drawCard(dst *ebiten.Image, s model.CardSlot) {
	g.panel(dst, rect(s.R.X+3, s.R.Y+4, s.R.W, s.R.H), 10, color.RGBA{0, 0, 0, 0x70})
	g.panel(dst, s.R, 10, colCardFace)
	rank, suit, red := model.CardText(s.Card)
	c := colCardBlack
	if red {
		c = colCardRed
	}
	g.text(dst, rank, s.R.X+10, s.R.Y+20, 24, c, alignLeft, true)
	g.text(dst, suit, s.R.X+10, s.R.Y+44, 20, c, alignLeft, false)
	g.textFit(dst, suit, rect(s.R.X+10, s.R.Y+50, s.R.W-20, 70), 64, c, alignCenter, false)
	g.text(dst, rank, s.R.X+s.R.W-10, s.R.Y+s.R.H-18, 20, c, alignRight, true)
}

// drawSpots draws the five bet spots: name, odds, key, the chips on them,
// and the last hand's settlement.
func (g *game) drawSpots(dst *ebiten.Image) {
	for i, sv := range g.SpotViews() {
		r := model.SpotRect(i)
		edge := colFeltEdge
		switch {
		case sv.Won:
			edge = colGold
		case sv.Spot.String() == "player":
			edge = colPlayer
		case sv.Spot.String() == "banker":
			edge = colBanker
		}
		g.panel(dst, r, 14, edge)
		g.panel(dst, r.Inset(4), 11, colFelt)
		g.textFit(dst, sv.Name, rect(r.X+8, r.Y+10, r.W-16, 30), 22, colText, alignCenter, true)
		g.textFit(dst, sv.Odds, rect(r.X+8, r.Y+40, r.W-16, 22), 17, colDim, alignCenter, false)
		if sv.Stake > 0 {
			// A chip, or a pill as wide as the stake needs.
			stake := model.Euro(g.Lang, sv.Stake)
			w := min(max(52, g.measure(stake, 15, true)+24), r.W-16)
			chip := rect(r.X+r.W/2-w/2, r.Y+64, w, 52)
			g.panel(dst, chip, 26, colGold)
			g.panel(dst, chip.Inset(5), 21, shade(colButtonHi, 0.9))
			g.textFit(dst, stake, chip.Inset(8), 15, colWhite, alignCenter, true)
		}
		if sv.Result != "" {
			c := colDim
			if sv.Won {
				c = colGold
			}
			// The settlement under the chip; a commission on a line of its own.
			res := rect(r.X+6, r.Y+r.H-30, r.W-12, 24)
			if sv.Commission != "" {
				res = rect(r.X+6, r.Y+r.H-46, r.W-12, 21)
				g.textFit(dst, sv.Commission, rect(r.X+6, r.Y+r.H-25, r.W-12, 20), 15, c, alignCenter, false)
			}
			g.textFit(dst, sv.Result, res, 16, c, alignCenter, true)
		}
		// The spots' keys are the simulator legend's (sim_table_spots),
		// never written on the game's own spots.
	}
}

func (g *game) drawChips(dst *ebiten.Image) {
	g.panel(dst, model.RectChips, 12, colPanel)
	for i, c := range g.Chips() {
		r := model.ChipRect(i)
		edge := colPanelEdge
		if i == g.Table.Chip {
			edge = colGold
		}
		g.panel(dst, r, r.W/2, edge)
		g.panel(dst, r.Inset(6), r.W/2-6, chipColor(i))
		g.textFit(dst, model.Euro(g.Lang, c), r.Inset(12), 18, colWhite, alignCenter, true)
	}
}

func chipColor(i int) color.RGBA {
	cs := []color.RGBA{{0x50, 0x58, 0x70, 0xFF}, {0xB0, 0x28, 0x28, 0xFF}, {0x1E, 0x80, 0x3C, 0xFF}, {0x20, 0x20, 0x28, 0xFF}}
	return cs[i%len(cs)]
}

func (g *game) drawTableMeters(dst *ebiten.Image) {
	r := model.RectTableMeters
	g.panel(dst, r, 12, colPanel)
	ms := g.TableMeters()
	w := r.W / float64(len(ms))
	for i, m := range ms {
		x := r.X + float64(i)*w
		g.textFit(dst, m.Label, rect(x+8, r.Y+10, w-16, 24), 16, colDim, alignCenter, true)
		g.textFit(dst, m.Value, rect(x+8, r.Y+38, w-16, 40), 26, colGold, alignCenter, true)
	}
}

// drawRoads draws the bead plate and the big road.
func (g *game) drawRoads(dst *ebiten.Image) {
	hands := g.V.Table.Roads
	g.text(dst, g.T("road_bead"), model.RectBead.X, model.RectBead.Y-14, 18, colGold, alignLeft, true)
	b := model.RectBead
	g.fillRect(dst, b, colCardFace)
	cw, ch := b.W/model.BeadCols, b.H/model.BeadRows
	g.drawRoadGrid(dst, b, model.BeadCols, model.BeadRows)
	for _, bead := range model.BeadPlate(hands, model.BeadRows, model.BeadCols) {
		c := rect(b.X+float64(bead.Col)*cw, b.Y+float64(bead.Row)*ch, cw, ch).Inset(3)
		g.panel(dst, c, c.W/2, sideColor(bead.Hand.Winner))
		g.textFit(dst, model.Itoa(bead.Hand.Points), c.Inset(6), 20, colWhite, alignCenter, true)
		if bead.Hand.BankerPair {
			g.panel(dst, rect(c.X, c.Y, 9, 9), 4.5, colBanker)
			g.strokeRect(dst, rect(c.X, c.Y, 9, 9), 1, colWhite)
		}
		if bead.Hand.PlayerPair {
			g.panel(dst, rect(c.X+c.W-9, c.Y+c.H-9, 9, 9), 4.5, colPlayer)
			g.strokeRect(dst, rect(c.X+c.W-9, c.Y+c.H-9, 9, 9), 1, colWhite)
		}
	}

	g.text(dst, g.T("road_big"), model.RectBigRoad.X, model.RectBigRoad.Y-14, 18, colGold, alignLeft, true)
	r := model.RectBigRoad
	g.fillRect(dst, r, colCardFace)
	cw, ch = r.W/model.BigRoadCols, r.H/model.BigRoadRows
	g.drawRoadGrid(dst, r, model.BigRoadCols, model.BigRoadRows)
	cells := model.BigRoad(hands, model.BigRoadRows)
	first := model.RoadWindow(cells, model.BigRoadCols)
	for _, cell := range cells {
		if cell.Col < first {
			continue
		}
		c := rect(r.X+float64(cell.Col-first)*cw, r.Y+float64(cell.Row)*ch, cw, ch).Inset(2)
		if cell.Winner != "" {
			col := sideColor(cell.Winner)
			g.panel(dst, c, c.W/2, col)
			g.panel(dst, c.Inset(3), c.W/2-3, colCardFace)
		}
		if cell.Ties > 0 {
			g.line(dst, c.X+2, c.Y+c.H-2, c.X+c.W-2, c.Y+2, 2.5, colTie)
			if cell.Ties > 1 {
				g.textFit(dst, model.Itoa(cell.Ties), c.Inset(3), 11, colTie, alignCenter, true)
			}
		}
		if cell.BankerPair {
			g.panel(dst, rect(c.X-1, c.Y-1, 6, 6), 3, colBanker)
		}
		if cell.PlayerPair {
			g.panel(dst, rect(c.X+c.W-5, c.Y+c.H-5, 6, 6), 3, colPlayer)
		}
	}
	p, bk, tie := model.RoadCounts(hands)
	x := model.RectRoadCounts.X
	for _, n := range []struct {
		w string
		n int
	}{{"player", p}, {"banker", bk}, {"tie", tie}} {
		g.panel(dst, rect(x, model.RectRoadCounts.Y+3, 24, 24), 12, sideColor(n.w))
		g.text(dst, g.T("road_letter_"+n.w), x+12, model.RectRoadCounts.Y+15, 14, colWhite, alignCenter, true)
		g.text(dst, model.Itoa(n.n), x+32, model.RectRoadCounts.Y+15, 18, colText, alignLeft, true)
		x += 90
	}
	if g.opts.Simulator {
		keys := strings.Join([]string{g.T("sim_table_spots"), g.T("sim_table_chip"), g.T("sim_table_clear"), g.T("sim_table_deal"),
			g.T("sim_table_menu"), g.T("sim_table_rules")}, "   ")
		for i, l := range g.wrap(keys, 13, model.RectRoadCounts.W, false) {
			g.text(dst, l, model.RectRoadCounts.X, model.RectRoadCounts.Y+44+float64(i)*17, 13, colDim, alignLeft, false)
		}
	}
}

// drawRoadGrid draws a road's ruled lines.
func (g *game) drawRoadGrid(dst *ebiten.Image, r model.Rect, cols, rows int) {
	lc := color.RGBA{0xC8, 0xC8, 0xD0, 0xFF}
	for i := 0; i <= cols; i++ {
		x := r.X + float64(i)*r.W/float64(cols)
		g.line(dst, x, r.Y, x, r.Y+r.H, 1, lc)
	}
	for j := 0; j <= rows; j++ {
		y := r.Y + float64(j)*r.H/float64(rows)
		g.line(dst, r.X, y, r.X+r.W, y, 1, lc)
	}
}

// drawTableLockout covers the cards with the lockout's words.
func (g *game) drawTableLockout(dst *ebiten.Image) {
	head, lines := g.LockoutLines()
	r := model.RectTableCards.Inset(30)
	g.overlay(r)
	g.panel(dst, r, 18, color.RGBA{0x30, 0x08, 0x10, 0xF0})
	g.textFit(dst, head, rect(r.X+20, r.Y+20, r.W-40, 50), 40, colGold, alignCenter, true)
	for i, l := range lines {
		g.textFit(dst, l, rect(r.X+20, r.Y+80+float64(i)*30, r.W-40, 28), 22, colText, alignCenter, false)
	}
}
