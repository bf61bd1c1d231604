package ui

import (
	"image/color"
	"strings"

	"github.com/hajimehoshi/ebiten/v2"
	"github.com/openegm/cabinet/ui/model"
)

// The poker seat's screens, drawn whole every frame from model.Screen like
// the Makccarat table: the lobby of the tables, or the table the player
// sits at.

var (
	colCardBack  = color.RGBA{0x1C, 0x3F, 0x9A, 0xFF}
	colSeatYou   = color.RGBA{0x4A, 0x9A, 0xF0, 0xFF}
	colTimerLow  = color.RGBA{0xF0, 0x50, 0x40, 0xFF}
	colEmptySeat = color.RGBA{0x14, 0x3A, 0x2A, 0xFF}
)

// timerLowMS is when the decision timer turns red.
const timerLowMS = 5000

func (g *game) drawPoker(dst *ebiten.Image) {
	g.fillRect(dst, model.RectTopBar, colPanel)
	g.fillRect(dst, rect(0, 54, model.DesignW, 2), colGold)
	g.textFit(dst, g.PokerTitle(), rect(20, 8, 760, 40), 26, colGold, alignLeft, true)
	if g.PokerAtTable() {
		if n := g.HandNoText(); n != "" {
			g.text(dst, n, 900, 28, 16, colDim, alignCenter, false)
		}
	}
	g.text(dst, g.T("machine_id", g.V.MachineID), 1260, 28, 18, colText, alignRight, false)

	msgRect := model.RectTableMsg
	switch {
	case g.ReplayUp():
		g.drawReplay(dst)
		msgRect = model.RectPokerMsg
	case g.AtChemin():
		g.drawCheminTable(dst)
		msgRect = model.RectPokerMsg
	case g.PokerAtTable():
		g.drawPokerTable(dst)
		msgRect = model.RectPokerMsg
	default:
		g.drawLobby(dst)
		var split model.Rect
		var parts []model.CreditPart
		split, msgRect, parts = g.LobbyMessageRow()
		g.drawSplit(dst, parts, split)
		if g.EndedUp() {
			g.drawEnded(dst)
		}
	}
	msg, warn := g.PokerStatus()
	c := colText
	if warn || (g.PokerAtTable() && g.YourTurn()) {
		c = colGold
	}
	g.textBox(dst, msg, msgRect, 24, c, alignCenter, true)
	if model.Lockout(g.V.Mode) {
		g.drawPokerLockout(dst)
	}
}

// drawLobby draws the tables of the page on show, each with its card and
// the cave it asks now, and the credit meter.
func (g *game) drawLobby(dst *ebiten.Image) {
	tiles := g.PokerTiles()
	if len(tiles) == 0 {
		g.textFit(dst, g.T("poker_no_tables"), rect(140, 280, 1000, 60), 30, colDim, alignCenter, true)
	}
	for _, t := range tiles {
		r := t.R
		edge := colPanelEdge
		if t.Selected {
			edge = colGold
		}
		g.panel(dst, r, 18, edge)
		g.panel(dst, r.Inset(3), 16, colPanel)
		g.textFit(dst, t.Title, rect(r.X+16, r.Y+12, r.W-32, 36), 24, colGold, alignCenter, true)
		g.textFit(dst, t.Game, rect(r.X+16, r.Y+50, r.W-32, 24), 18, colDim, alignCenter, false)
		g.textFit(dst, t.Players, rect(r.X+16, r.Y+78, r.W-32, 24), 17, colText, alignCenter, false)
		g.fillRect(dst, rect(r.X+24, r.Y+108, r.W-48, 1), colPanelEdge)
		top, bottom := r.Y+116, r.Y+r.H-160
		rows, size := g.cardRows(t.Card, r.W-48, bottom-top)
		lh := min(24, (bottom-top)/float64(max(len(rows), 1)))
		for i, l := range rows {
			g.textFit(dst, l, rect(r.X+24, top+float64(i)*lh, r.W-48, lh), size, colText, alignLeft, false)
		}
		g.textFit(dst, t.CaveLabel, rect(r.X+16, r.Y+r.H-158, r.W-32, 20), 15, colDim, alignCenter, true)
		g.textFit(dst, t.Cave, rect(r.X+16, r.Y+r.H-138, r.W-32, 34), 30, colGold, alignCenter, true)
		if t.Note != "" {
			c := colDim
			if t.Short {
				c = colTimerLow
			}
			g.textFit(dst, t.Note, rect(r.X+16, r.Y+r.H-104, r.W-32, 20), 15, c, alignCenter, true)
		}
	}
	if n := g.LobbyPages(); n > 1 {
		g.text(dst, g.T("page_n", model.Itoa(g.LobbyPage()+1), model.Itoa(n)), 495, 624, 13, colDim, alignCenter, false)
	}
	g.panel(dst, model.RectCredit, 12, colPanel)
	g.textFit(dst, g.T("table_credit"), rect(model.RectCredit.X+10, model.RectCredit.Y+6, model.RectCredit.W-20, 22), 15, colDim, alignCenter, true)
	g.textFit(dst, model.Euro(g.Lang, g.V.CreditsCents), rect(model.RectCredit.X+10, model.RectCredit.Y+30, model.RectCredit.W-20, 40), 28, colGold, alignCenter, true)
	if g.opts.Simulator {
		g.drawLegendText(dst, g.SimKeys(), rect(1020, 640, 240, 64))
	}
}

// cardRows are a table card's lines as drawn in a box w wide and h high:
// at the largest size up to 16 whose lines, wrapped where one is wider
// than the box (a chemin de fer card's cagnotte, with its figures, is never
// cut), fit its height. A line takes four thirds of its text's size.
func (g *game) cardRows(card []string, w, h float64) ([]string, float64) {
	var rows []string
	size := 16.0
	for ; ; size-- {
		rows = rows[:0]
		for _, l := range card {
			rows = append(rows, g.wrap(l, size, w, false)...)
		}
		if float64(len(rows))*size*4/3 <= h || size <= model.MinTextSize {
			break
		}
	}
	if lh := h / float64(max(len(rows), 1)); size > lh*0.75 {
		size = max(lh*0.75, model.MinTextSize)
	}
	return rows, size
}

// drawPokerTable draws the felt with its seats, bets, board and pots, the
// side panel and the decision's row.
func (g *game) drawPokerTable(dst *ebiten.Image) {
	g.drawFelt(dst, g.PokerBoard(), g.PotsText())
	seat, left, total, timing := g.PokerTimer()
	for _, sp := range g.PokerSeats() {
		g.drawSeat(dst, sp)
		if timing && sp.Seat == seat && !sp.Empty {
			g.drawSeatTimer(dst, sp.R, left, total)
		}
	}
	g.drawPokerSide(dst)

	// The decision's row: an offer's question, or the bet chosen.
	if s := g.PokerState(); s.Offer != nil {
		g.textFit(dst, g.OfferText(), model.RectOfferText.Inset(10), 28, colGold, alignCenter, true)
	} else if s.Options != nil && s.Options.Raise {
		g.drawAmountBox(dst, g.RaiseAmount())
	} else if g.RebuyUp() {
		g.drawAmountBox(dst, g.RebuyAmount())
		a := model.RectPokerActions
		g.textBox(dst, g.T("poker_rebuy"), rect(a.X, a.Y, 368, a.H), 24, colGold, alignCenter, true)
	}
	if g.opts.Simulator {
		g.drawLegendText(dst, g.T("sim_poker_keys"), rect(340, 640, 450, 64))
	}
}

// drawFelt draws the oval with the board's places, the cards on it and
// the pots' line under them.
func (g *game) drawFelt(dst *ebiten.Image, board []model.PokerCard, pots string) {
	oval := model.RectPokerOval
	g.panel(dst, oval, oval.H/2, shade(colFeltEdge, 0.8))
	g.panel(dst, oval.Inset(8), oval.H/2-8, colFelt)
	for i := range 5 {
		g.strokeRect(dst, model.BoardSlot(i), 1.5, shade(colFeltEdge, 0.9))
	}
	for _, c := range board {
		g.drawPokerCard(dst, c)
	}
	cx, _ := oval.Center()
	b0 := model.BoardSlot(0)
	g.textFit(dst, pots, rect(cx-300, b0.Y+b0.H+10, 600, 28), 20, colGold, alignCenter, true)
}

// drawAmountBox draws an amount being chosen, between its − and +.
func (g *game) drawAmountBox(dst *ebiten.Image, cents int64) {
	r := model.RectRaiseAmount
	g.panel(dst, r, 12, colPanelEdge)
	g.panel(dst, r.Inset(3), 10, colBlack)
	g.textFit(dst, model.Euro(g.Lang, cents), r.Inset(10), 28, colGold, alignCenter, true)
}

// drawReplay draws the replay's frame over the felt: the seats, board
// and pot as the player saw them, a REPLAY mark, the frame's records in
// the side panel, and where the frame and the hand are among the others.
func (g *game) drawReplay(dst *ebiten.Image) {
	sc, ok := g.PokerReplay()
	oval := model.RectPokerOval
	if c := sc.Chemin; c != nil {
		// A coup: the two hands as he saw them, the bank and the stakes.
		g.panel(dst, oval, oval.H/2, shade(colFeltEdge, 0.8))
		g.panel(dst, oval.Inset(8), oval.H/2-8, colFelt)
		for side, h := range []model.CheminHand{c.Ponto, c.Banker} {
			g.textFit(dst, h.Label, model.CheminHandLabelRect(side), 16, colText, alignCenter, true)
			for _, card := range h.Cards {
				g.drawPokerCard(dst, card)
			}
		}
		ce := model.RectCheminCentre
		g.textFit(dst, sc.Pot, rect(ce.X, ce.Y+164, ce.W, 26), 20, colGold, alignCenter, true)
	} else {
		g.drawFelt(dst, sc.Board, sc.Pot)
	}
	g.textFit(dst, g.T("poker_replay_badge"), rect(oval.X+oval.W/2-150, oval.Y+24, 300, 30), 26, shade(colGold, 0.8), alignCenter, true)
	for _, sp := range sc.Seats {
		g.drawSeat(dst, sp)
	}
	r := model.RectPokerSide
	g.panel(dst, r, 14, colGold)
	g.panel(dst, r.Inset(2), 12, colPanel)
	x, w := r.X+18, r.W-36
	if !ok {
		g.text(dst, g.T("poker_replay_badge"), x, r.Y+20, 17, colGold, alignLeft, true)
		return
	}
	g.text(dst, g.ReplayHeading(sc.Hand), x, r.Y+20, 17, colGold, alignLeft, true)
	for _, c := range sc.Own {
		c.R.Y = r.Y + 40
		g.drawPokerCard(dst, c)
	}
	// The records up to this frame, the latest at the foot in gold.
	texts := make([]string, len(sc.Log))
	for i, l := range sc.Log {
		texts[i] = l.Text
	}
	g.drawLogTail(dst, texts, x, w, r.Y+136, r.Y+r.H-14, 9)
	g.textFit(dst, g.ReplayCounter(), model.RectReplayCounter.Inset(6), 22, colText, alignCenter, true)
	g.textFit(dst, g.ReplayHandText(), model.RectReplayHand.Inset(6), 22, colText, alignCenter, true)
}

// drawEnded draws the summary of the session that ended over the lobby.
func (g *game) drawEnded(dst *ebiten.Image) {
	r := model.RectEnded
	g.overlay(r) // over the lobby
	g.panel(dst, r, 18, colGold)
	g.panel(dst, r.Inset(3), 16, colPanel)
	g.textFit(dst, g.EndedTitle(), rect(r.X+24, r.Y+16, r.W-48, 40), 28, colGold, alignCenter, true)
	x, w := r.X+60, r.W-120
	rows := g.EndedRows()
	for i, m := range rows {
		y := r.Y + 76 + float64(i)*32
		c, bold := colText, false
		if i == 6 { // the result
			c, bold = colGold, true
		}
		g.textFit(dst, m.Label, rect(x, y, w*0.6, 28), 20, colDim, alignLeft, bold)
		g.textFit(dst, m.Value, rect(x+w*0.5, y, w*0.5, 28), 22, c, alignRight, true)
	}
	if note := g.EndedNote(); note != "" {
		g.textFit(dst, note, rect(r.X+24, r.Y+76+float64(len(rows))*32, r.W-48, 22), 15, colDim, alignCenter, false)
	}
}

// drawSeat draws a seat: its player, stack and marks, his cards (face up
// or their backs), his bet towards the centre and the dealer's disc.
func (g *game) drawSeat(dst *ebiten.Image, sp model.PokerSeatSpot) {
	r := sp.R
	if sp.Empty {
		g.panel(dst, r.Inset(10), 14, colEmptySeat)
		g.textFit(dst, model.Itoa(sp.Seat), r.Inset(20), 20, shade(colDim, 0.6), alignCenter, true)
		return
	}
	edge, inner := colPanelEdge, colPanel
	switch {
	case sp.ToAct:
		edge = colGold
	case sp.You:
		edge = colSeatYou
	}
	if sp.Folded {
		edge, inner = shade(edge, 0.6), shade(colPanel, 0.7)
	}
	g.panel(dst, r, 14, edge)
	g.panel(dst, r.Inset(3), 12, inner)
	textW := r.W - 24
	if n := len(sp.Cards); n > 0 {
		textW -= float64(n)*(model.SeatCardW+4) + 2
	}
	nameC := colText
	if sp.Folded {
		nameC = colDim
	}
	g.textFit(dst, model.Itoa(sp.Seat)+" · "+sp.Player, rect(r.X+12, r.Y+8, textW, 20), 16, nameC, alignLeft, true)
	g.textFit(dst, sp.Stack, rect(r.X+12, r.Y+30, textW, 22), 19, colGold, alignLeft, true)
	if len(sp.Badges) > 0 {
		// Clear of the decision timer's bar along the box's foot.
		g.textFit(dst, strings.Join(sp.Badges, " · "), rect(r.X+12, r.Y+51, textW, 14), 13, colDim, alignLeft, true)
	}
	for _, c := range sp.Cards {
		g.drawPokerCard(dst, c)
	}
	if sp.Dealer {
		// On the box's top right corner, clear of his name and his cards.
		d := rect(r.X+r.W-20, r.Y-12, 24, 24)
		g.panel(dst, d, 12, colWhite)
		g.textFit(dst, g.DealerMark(), d.Inset(5), 15, colBlack, alignCenter, true)
	}
	if sp.BetText != "" {
		chip := rect(sp.BetX-44, sp.BetY-11, 22, 22)
		g.panel(dst, chip, 11, colGold)
		g.panel(dst, chip.Inset(4), 7, colButtonHi)
		g.text(dst, sp.BetText, chip.X+28, sp.BetY, 17, colWhite, alignLeft, true)
	}
}

// drawSeatTimer draws the time the deciding seat has left along the foot
// of its box, red in the last seconds.
func (g *game) drawSeatTimer(dst *ebiten.Image, r model.Rect, left, total int64) {
	if total <= 0 {
		return
	}
	frac := min(float64(left)/float64(total), 1)
	c := colGold
	if left < timerLowMS {
		c = colTimerLow
	}
	bar := rect(r.X+8, r.Y+r.H-9, r.W-16, 5)
	g.fillRect(dst, bar, colBlack)
	bar.W *= frac
	g.fillRect(dst, bar, c)
}

// drawPokerSide draws the player's session, his cards large, and the last
// hand's result.
func (g *game) drawPokerSide(dst *ebiten.Image) {
	r := model.RectPokerSide
	g.panel(dst, r, 14, colPanelEdge)
	g.panel(dst, r.Inset(2), 12, colPanel)
	x, w := r.X+18, r.W-36
	g.text(dst, g.T("poker_session"), x, r.Y+20, 17, colGold, alignLeft, true)
	for i, m := range g.PokerSession() {
		y := r.Y + 42 + float64(i)*17
		g.textFit(dst, m.Label, rect(x, y-8, w*0.62, 17), 13, colDim, alignLeft, false)
		g.textFit(dst, m.Value, rect(x+w*0.55, y-9, w*0.45, 18), 15, colText, alignRight, true)
	}
	g.text(dst, g.T("poker_your_cards"), x, r.Y+model.OwnCardsY-10, 15, colGold, alignLeft, true)
	for _, c := range g.OwnCards() {
		g.drawPokerCard(dst, c)
	}
	y := r.Y + 284
	lines := g.PokerLastHand()
	if len(lines) == 0 {
		g.text(dst, g.T("poker_last_hand", "—"), x, y, 15, colGold, alignLeft, true)
		g.textFit(dst, g.T("poker_no_last_hand"), rect(x, y+12, w, 20), 14, colDim, alignLeft, false)
		return
	}
	bottom := r.Y + r.H - 8
	for i, l := range lines {
		if i == 0 {
			g.text(dst, l.Text, x, y, 15, colGold, alignLeft, true)
			y += 22
			continue
		}
		c := colText
		if l.Won {
			c = colGold
		}
		for _, t := range g.wrap(l.Text, 14, w, l.Won) {
			if y+9 > bottom {
				return
			}
			g.text(dst, t, x, y, 14, c, alignLeft, l.Won)
			y += 18
		}
	}
}

// drawPokerCard draws a card face up (rank and suit scaled to its size)
// or its back.
func (g *game) drawPokerCard(dst *ebiten.Image, c model.PokerCard) {
	r := c.R
	rad := r.W * 0.12
	g.panel(dst, rect(r.X+2, r.Y+3, r.W, r.H), rad, color.RGBA{0, 0, 0, 0x70})
	if !c.Up {
		g.panel(dst, r, rad, colCardFace)
		g.panel(dst, r.Inset(3), rad*0.8, colCardBack)
		g.strokeRect(dst, r.Inset(r.W*0.22), 1, shade(colCardFace, 0.7))
		return
	}
	g.panel(dst, r, rad, colCardFace)
	rank, suit, red := model.CardText(c.Card)
	col := colCardBlack
	if red {
		col = colCardRed
	}
	g.textFit(dst, rank, rect(r.X+r.W*0.08, r.Y+r.H*0.05, r.W*0.84, r.H*0.32), r.H*0.3, col, alignLeft, true)
	g.textFit(dst, suit, rect(r.X, r.Y+r.H*0.4, r.W, r.H*0.55), r.H*0.5, col, alignCenter, false)
}

// drawLegendText draws the simulator's keys in a box, wrapped.
func (g *game) drawLegendText(dst *ebiten.Image, s string, r model.Rect) {
	for i, l := range g.wrap(s, 13, r.W, false) {
		if y := r.Y + 8 + float64(i)*17; y < r.Y+r.H {
			g.text(dst, l, r.X, y, 13, colDim, alignLeft, false)
		}
	}
}

// drawPokerLockout covers the felt (or the lobby) with the lockout's
// words.
func (g *game) drawPokerLockout(dst *ebiten.Image) {
	head, lines := g.LockoutLines()
	r := rect(140, 160, 1000, 260)
	g.overlay(r)
	g.panel(dst, r, 18, color.RGBA{0x30, 0x08, 0x10, 0xF0})
	g.textFit(dst, head, rect(r.X+20, r.Y+20, r.W-40, 50), 40, colGold, alignCenter, true)
	for i, l := range lines {
		g.textFit(dst, l, rect(r.X+20, r.Y+80+float64(i)*30, r.W-40, 28), 22, colText, alignCenter, false)
	}
}
