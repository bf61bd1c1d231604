package ui

import (
	"github.com/hajimehoshi/ebiten/v2"
	"github.com/openegm/cabinet/ui/model"
)

// The chemin de fer table on the cabinet's screen: the poker seat's felt,
// seats and timer, with the coup in the middle (what the table waits for,
// the dealer's last words, the ponto's and the banker's cards with their
// points, the money on the table, the sabot) and the dealer's
// announcements in the side panel under the player's session.

func (g *game) drawCheminTable(dst *ebiten.Image) {
	oval := model.RectPokerOval
	g.panel(dst, oval, oval.H/2, shade(colFeltEdge, 0.8))
	g.panel(dst, oval.Inset(8), oval.H/2-8, colFelt)
	seat, left, total, timing := g.PokerTimer()
	for _, sp := range g.PokerSeats() {
		g.drawSeat(dst, sp)
		if timing && sp.Seat == seat && !sp.Empty {
			g.drawSeatTimer(dst, sp.R, left, total)
		}
	}

	c := model.RectCheminCentre
	phaseC := colText
	if g.YourTurn() {
		phaseC = colGold
	}
	g.textFit(dst, g.CheminPhase(), rect(c.X, c.Y, c.W, 24), 19, phaseC, alignCenter, true)
	if say := g.CheminLastSay(); say != "" {
		g.textFit(dst, say, rect(c.X, c.Y+26, c.W, 22), 16, shade(colGold, 0.9), alignCenter, false)
	}
	ponto, banker := g.CheminHands()
	for side, h := range []model.CheminHand{ponto, banker} {
		g.textFit(dst, h.Label, model.CheminHandLabelRect(side), 16, colText, alignCenter, true)
		for k := range 3 {
			if k >= len(h.Cards) {
				g.strokeRect(dst, model.CheminCardRect(side, k), 1.5, shade(colFeltEdge, 0.9))
			}
		}
		for _, card := range h.Cards {
			g.drawPokerCard(dst, card)
		}
	}
	if m := g.CheminMoney(); m != "" {
		g.textFit(dst, m, rect(c.X, c.Y+164, c.W, 26), 20, colGold, alignCenter, true)
	}
	if s := g.CheminSabot(); s != "" {
		g.textFit(dst, s, rect(c.X, c.Y+192, c.W, 20), 15, colDim, alignCenter, false)
	}

	g.drawCheminSide(dst)
	if to, ok := g.CheminAmount(); ok && !g.RebuyUp() {
		r := model.RectCheminAmount
		g.panel(dst, r, 12, colPanelEdge)
		g.panel(dst, r.Inset(3), 10, colBlack)
		g.textFit(dst, model.Euro(g.Lang, to), r.Inset(10), 28, colGold, alignCenter, true)
	} else if g.RebuyUp() {
		g.drawAmountBox(dst, g.RebuyAmount())
		a := model.RectPokerActions
		g.textBox(dst, g.T("poker_rebuy"), rect(a.X, a.Y, 368, a.H), 24, colGold, alignCenter, true)
	}
	if g.opts.Simulator {
		g.drawLegendText(dst, g.SimKeys(), rect(340, 640, 450, 64))
	}
}

// drawCheminSide draws the player's session and, under it, the dealer's
// announcements of the coup, the latest at the foot in gold.
func (g *game) drawCheminSide(dst *ebiten.Image) {
	r := model.RectPokerSide
	g.panel(dst, r, 14, colPanelEdge)
	g.panel(dst, r.Inset(2), 12, colPanel)
	x, w := r.X+18, r.W-36
	g.text(dst, g.T("poker_session"), x, r.Y+20, 17, colGold, alignLeft, true)
	rows := g.PokerSession()
	for i, m := range rows {
		y := r.Y + 42 + float64(i)*17
		g.textFit(dst, m.Label, rect(x, y-8, w*0.62, 17), 13, colDim, alignLeft, false)
		g.textFit(dst, m.Value, rect(x+w*0.55, y-9, w*0.45, 18), 15, colText, alignRight, true)
	}
	top := r.Y + 42 + float64(len(rows))*17 + 14
	g.fillRect(dst, rect(x, top-8, w, 1), colPanelEdge)
	g.text(dst, g.T("chemin_dealer"), x, top+6, 15, colGold, alignLeft, true)
	says := g.CheminSays()
	if len(says) == 0 {
		g.textFit(dst, g.T("chemin_no_says"), rect(x, top+18, w, 20), 14, colDim, alignLeft, false)
		return
	}
	g.drawLogTail(dst, says, x, w, top+30, r.Y+r.H-10, 0)
}

// drawLogTail draws the last of texts that fit between top and bottom,
// each wrapped to w, in rows of 18 (dy down from the row's top), the last
// text in gold: the dealer's announcements, a replay's records.
func (g *game) drawLogTail(dst *ebiten.Image, texts []string, x, w, top, bottom, dy float64) {
	var lines []string
	var gold []bool
	for i, s := range texts {
		last := i == len(texts)-1
		for _, l := range g.wrap(s, 14, w, last) {
			lines = append(lines, l)
			gold = append(gold, last)
		}
	}
	n := int((bottom - top) / 18)
	if len(lines) > n {
		lines, gold = lines[len(lines)-n:], gold[len(gold)-n:]
	}
	for i, l := range lines {
		c := colDim
		if gold[i] {
			c = colGold
		}
		g.text(dst, l, x, top+float64(i)*18+dy, 14, c, alignLeft, gold[i])
	}
}
