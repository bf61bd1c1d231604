//go:build screen

package ui

import (
	"image"
	"image/color"
	"strings"
	"testing"

	"github.com/openegm/cabinet/machine"
	"github.com/openegm/cabinet/ui/demo"
	"github.com/openegm/cabinet/ui/model"
)

// pokerView is the machine at the poker entry of its menu with a seat.
func pokerView(seat *machine.PokerSeatView, credit int64) machine.View {
	return machine.View{MachineID: "EGM-0042", Lang: "pt", Mode: "idle", Denom: 1, Credits: credit, CreditsCents: credit,
		GameKind: machine.GamePoker, Games: []string{"reels", "makccarat", machine.GamePoker}, Poker: seat}
}

// buttonRect is the rectangle of a button on screen (fails without it).
func buttonRect(t *testing.T, id string) model.Rect {
	t.Helper()
	var r model.Rect
	stateOf(t, func(g *game) {
		for _, b := range g.Buttons() {
			if b.ID == id {
				r = b.R
			}
		}
	})
	if r.W == 0 {
		t.Fatalf("no button %s on screen", id)
	}
	return r
}

// cardFace says what a card's place shows: the share of its pixels in the
// card's face colour and in its back's colour, and the pixels in red and
// in black ink.
func cardFace(img *image.RGBA, r model.Rect) (face, back float64, red, black int) {
	in := r.Inset(4)
	all := in.W * in.H
	face = float64(coloured(img, theGame, in, colCardFace)) / all
	back = float64(coloured(img, theGame, in, colCardBack)) / all
	return face, back, coloured(img, theGame, in, colCardRed), coloured(img, theGame, in, colCardBlack)
}

// The lobby: each table's tile with its text, the buy-in buttons lit for
// the tables that take a player and grey for the full one, the missing
// credit in red; a touch below the cave answered on the message line.
func TestScreenPokerLobby(t *testing.T) {
	c := useCanned(t, pokerView(demo.PokerLobby(), 5000))
	wait(t, 3, func(g *game) bool { return g.AtPoker() && !g.PokerAtTable() })
	img := grab(t, "poker_lobby")
	notBlank(t, img)
	var tiles []model.PokerTile
	stateOf(t, func(g *game) { tiles = g.PokerTiles() })
	if len(tiles) != 3 {
		t.Fatalf("%d tiles", len(tiles))
	}
	for _, tile := range tiles {
		// The card's lines: ink on the rows between the players' line and
		// the cave.
		card := model.Rect{X: tile.R.X + 24, Y: tile.R.Y + 116, W: tile.R.W - 48, H: 24 * float64(len(tile.Card))}
		if n := inked(img, theGame, card); n < 400*len(tile.Card)/4 {
			t.Errorf("%s: the table card is not drawn (%d pixels for %d lines)", tile.Info.ID, n, len(tile.Card))
		}
		cave := model.Rect{X: tile.R.X + 16, Y: tile.R.Y + tile.R.H - 138, W: tile.R.W - 32, H: 34}
		if n := coloured(img, theGame, cave, colGold); n < 150 {
			t.Errorf("%s: the cave is not drawn in gold (%d pixels)", tile.Info.ID, n)
		}
	}
	selected := buttonRect(t, "poker:buyin:holdem-nl-2").Inset(8)
	if n := coloured(img, theGame, selected, shade(colGold, 0.8)); n < int(selected.W*selected.H/2) {
		t.Errorf("the selected table's buy-in is not lit (%d pixels)", n)
	}
	hot := buttonRect(t, "poker:buyin:sintetico-4-estardilho").Inset(8)
	if n := coloured(img, theGame, hot, colButtonHi); n < int(hot.W*hot.H/2) {
		t.Errorf("an open table's buy-in is not lit (%d pixels)", n)
	}
	full := buttonRect(t, "poker:buyin:holdem-fl-1-fee").Inset(8)
	if n := coloured(img, theGame, full, colButtonOff); n < int(full.W*full.H/2) {
		t.Errorf("the full table's buy-in is lit (%d grey pixels)", n)
	}
	note := model.Rect{X: tiles[0].R.X + 16, Y: tiles[0].R.Y + tiles[0].R.H - 104, W: tiles[0].R.W - 32, H: 20}
	if n := coloured(img, theGame, note, colTimerLow); n < 40 {
		t.Errorf("the missing credit is not said in red (%d pixels)", n)
	}
	if n := coloured(img, theGame, model.RectCredit.Inset(10), colGold); n < 100 {
		t.Errorf("the credit meter is not drawn (%d pixels)", n)
	}
	// A touch below the cave: the refusal on the message line.
	stateOf(t, func(g *game) {
		x, y := g.toScreenInt(selected.Center())
		g.clickPixel(x, y)
	})
	wait(t, 2, func(g *game) bool { return g.PokerNote() != "" })
	refused := grab(t, "poker_lobby_refused")
	var msg string
	stateOf(t, func(g *game) { msg, _ = g.PokerStatus() })
	if !strings.Contains(msg, "100,00 €") || !strings.Contains(msg, "50,00 €") {
		t.Errorf("refusal %q", msg)
	}
	if n := changed(img, refused, theGame, model.RectTableMsg); n < 300 {
		t.Errorf("the refusal is not drawn (%d pixels changed)", n)
	}
	if n := coloured(refused, theGame, model.RectTableMsg, colGold); n < 300 {
		t.Errorf("the refusal is not in the warning colour (%d pixels)", n)
	}

	// The menu: the poker tile with its felt and cards.
	stateOf(t, func(g *game) { g.key(model.KeyEscape) })
	wait(t, 3, func(g *game) bool { return g.MenuUp() })
	menu := grab(t, "poker_menu")
	tile := buttonRect(t, "game:poker")
	if n := coloured(menu, theGame, tile, colFelt); n < 5000 {
		t.Errorf("the poker tile has no felt (%d pixels)", n)
	}
	if n := coloured(menu, theGame, tile, colCardFace); n < 2000 {
		t.Errorf("the poker tile has no cards (%d pixels)", n)
	}
	for _, id := range []string{"game:reels", "game:makccarat"} {
		if r := buttonRect(t, id); inked(menu, theGame, r.Inset(8)) < 2000 {
			t.Errorf("the menu's %s tile is empty beside poker", id)
		}
	}
	stateOf(t, func(g *game) { g.Table.Menu = false })
	c.setView(idleView())
	wait(t, 2, nil)
}

// shotTimer grabs the next frame with the decision timer it shows.
func shotTimer(t *testing.T, name string) (*image.RGBA, int64, int64) {
	t.Helper()
	var img *image.RGBA
	var left, total int64
	on(t, func(g *game, _ int, shot func() *image.RGBA) bool {
		img = shot()
		_, left, total, _ = g.PokerTimer()
		return true
	})
	saveShot(t, name, img)
	return img, left, total
}

// timerBar is the width in design units of the timer's bar at the foot of
// a seat: the run of its colour along the bar's middle row.
func timerBar(img *image.RGBA, r model.Rect, c color.RGBA) float64 {
	y := r.Y + r.H - 6.5
	w := 0.0
	for x := r.X + 8; x < r.X+r.W-8; x++ {
		if dist(pixel(img, theGame, x, y), c) < 60 {
			w++
		}
	}
	return w
}

// The player to act: his seat framed in gold with the timer running down
// from the server's clock, his queens face up, the others' cards face
// down, the folded player's none, the flop, and the row of decisions.
func TestScreenPokerToAct(t *testing.T) {
	useCanned(t, pokerView(demo.PokerToAct(), 2500))
	wait(t, 3, func(g *game) bool { return g.PokerAtTable() })
	img, left, total := shotTimer(t, "poker_table")
	notBlank(t, img)
	var seats []model.PokerSeatSpot
	var own, board []model.PokerCard
	stateOf(t, func(g *game) { seats, own, board = g.PokerSeats(), g.OwnCards(), g.PokerBoard() })
	me := seats[0]
	edge := model.Rect{X: me.R.X, Y: me.R.Y, W: me.R.W, H: 3}
	if n := coloured(img, theGame, edge, colGold); n < int(me.R.W) {
		t.Errorf("the seat to act is not framed in gold (%d pixels)", n)
	}
	want := (me.R.W - 16) * float64(left) / float64(total)
	if got := timerBar(img, me.R, colGold); got < want-3 || got > want+3 {
		t.Errorf("timer bar %.0f units for %d of %d ms left, want %.0f", got, left, total, want)
	}
	// Later, by the screen's ticks: shorter, by the time gone.
	var t0 int
	stateOf(t, func(g *game) { t0 = g.Tick })
	wait(t, 0, func(g *game) bool { return g.Tick >= t0+120 })
	later, left2, _ := shotTimer(t, "poker_table_later")
	want2 := (me.R.W - 16) * float64(left2) / float64(total)
	if got := timerBar(later, me.R, colGold); left2 >= left || got < want2-3 || got > want2+3 {
		t.Errorf("later: bar %.0f units for %d ms left (was %d), want %.0f", got, left2, left, want2)
	}
	for i, c := range own {
		face, _, red, black := cardFace(img, c.R)
		if face < 0.5 || (i == 0 && red < 100) || (i == 1 && black < 100) {
			t.Errorf("own card %s: face %.2f, red %d, black %d", c.Card, face, red, black)
		}
	}
	for _, c := range seats[0].Cards {
		if face, _, _, _ := cardFace(img, c.R); face < 0.4 {
			t.Errorf("his card at his seat is not face up (%.2f)", face)
		}
	}
	bruno := seats[2]
	for _, c := range bruno.Cards {
		if _, back, _, _ := cardFace(img, c.R); back < 0.4 {
			t.Errorf("Bruno's card is not face down (back %.2f)", back)
		}
	}
	carla := seats[3]
	where := model.Rect{X: carla.R.X + carla.R.W - 80, Y: carla.R.Y + 10, W: 70, H: 50}
	if face, back, _, _ := cardFace(img, where); face > 0.05 || back > 0.05 {
		t.Errorf("cards at the folded seat (face %.2f back %.2f)", face, back)
	}
	for i := range 5 {
		face, _, _, _ := cardFace(img, model.BoardSlot(i))
		if (i < len(board)) != (face > 0.5) {
			t.Errorf("board card %d: face %.2f with %d cards turned", i+1, face, len(board))
		}
	}
	if n := inked(img, theGame, model.RectRaiseAmount.Inset(8)); n < 150 {
		t.Errorf("the bet chosen is not drawn (%d pixels)", n)
	}
	for id, c := range map[string]color.RGBA{"poker:fold": colButton, "poker:call": colButton, "poker:raise": colButtonHi, "poker:raise_down": colButtonOff} {
		r := buttonRect(t, id).Inset(8)
		if n := coloured(img, theGame, r, c); n < int(r.W*r.H/3) {
			t.Errorf("%s is not drawn in its colour (%d pixels)", id, n)
		}
	}
	// + raises the bet on screen.
	stateOf(t, func(g *game) { g.key(model.KeyUp) })
	wait(t, 2, func(g *game) bool { return g.RaiseAmount() == 1200 })
	raised := grab(t, "poker_table_raised")
	if n := changed(img, raised, theGame, model.RectRaiseAmount.Inset(8)); n < 30 {
		t.Errorf("the bet box did not change with + (%d pixels)", n)
	}
	if n := changed(img, raised, theGame, buttonRect(t, "poker:raise").Inset(10)); n < 30 {
		t.Errorf("the raise button's amount did not change with + (%d pixels)", n)
	}
	useCanned(t, idleView())
}

// An offer: its question with the amount and its two answers, in both
// languages; the seat's own deadline on its timer.
func TestScreenPokerOffer(t *testing.T) {
	v := pokerView(demo.PokerOffer(), 0)
	c := useCanned(t, v)
	wait(t, 3, func(g *game) bool { return g.PokerAtTable() && g.YourTurn() })
	img := grab(t, "poker_offer")
	if n := coloured(img, theGame, model.RectOfferText.Inset(8), colGold); n < 300 {
		t.Errorf("the offer's question is not drawn (%d pixels)", n)
	}
	acc := buttonRect(t, "poker:accept").Inset(8)
	if n := coloured(img, theGame, acc, colButtonHi); n < int(acc.W*acc.H/3) {
		t.Errorf("the accept button is not lit (%d pixels)", n)
	}
	var seats []model.PokerSeatSpot
	stateOf(t, func(g *game) { seats = g.PokerSeats() })
	me := seats[3]
	if !me.You {
		t.Fatalf("seat 4 is not his: %+v", me)
	}
	if got := timerBar(img, me.R, colGold); got < 10 {
		t.Errorf("no timer on his seat for the offer (%.0f)", got)
	}
	v.Lang = "en"
	c.setView(v)
	wait(t, 2, func(g *game) bool { return g.Lang == "en" })
	en := grab(t, "poker_offer_en")
	var q string
	stateOf(t, func(g *game) { q = g.OfferText() })
	if q != "Buy the cards for €5.00?" {
		t.Errorf("English question %q", q)
	}
	if n := changed(img, en, theGame, model.RectOfferText); n < 300 {
		t.Errorf("the question did not change with the language (%d pixels)", n)
	}
	useCanned(t, idleView())
}

// The showdown: the cards shown face up at their seats, the board, and the
// last hand's result in the side panel, his own win in gold.
func TestScreenPokerShowdown(t *testing.T) {
	useCanned(t, pokerView(demo.PokerShowdown(), 0))
	wait(t, 3, func(g *game) bool { return g.PokerAtTable() })
	img := grab(t, "poker_showdown")
	var seats []model.PokerSeatSpot
	var lines []model.PokerLine
	stateOf(t, func(g *game) { seats, lines = g.PokerSeats(), g.PokerLastHand() })
	for _, sp := range seats {
		if sp.Player != "Bruno" && sp.Player != "Duarte" {
			continue
		}
		for k, c := range sp.Cards {
			face, _, red, black := cardFace(img, c.R)
			ink := black
			if _, _, isRed := model.CardText(c.Card); isRed {
				ink = red
			}
			if face < 0.4 || ink < 20 {
				t.Errorf("%s's card %d (%s) is not shown face up: face %.2f ink %d", sp.Player, k, c.Card, face, ink)
			}
		}
	}
	for i := range 5 {
		if face, _, _, _ := cardFace(img, model.BoardSlot(i)); face < 0.5 {
			t.Errorf("board card %d is not drawn (%.2f)", i+1, face)
		}
	}
	// Ink on a row for each line of the result, and gold on his win.
	side := model.RectPokerSide
	rows := 0
	for y := side.Y + 260; y < side.Y+side.H-8; y += 18 {
		if inked(img, theGame, model.Rect{X: side.X + 18, Y: y, W: side.W - 36, H: 18}) > 20 {
			rows++
		}
	}
	if rows < len(lines) {
		t.Errorf("%d lines of result, ink on %d rows", len(lines), rows)
	}
	gold := coloured(img, theGame, model.Rect{X: side.X + 18, Y: side.Y + 330, W: side.W - 36, H: side.H - 340}, colGold)
	if gold < 100 {
		t.Errorf("his win is not in gold (%d pixels)", gold)
	}
	useCanned(t, idleView())
}

// The replay: asked by its button, the server's last hands drawn over the
// felt frame by frame (the board as it was turned, his cards, the records
// in words in the side panel, where the frame is), and closed back to the
// live table.
func TestScreenPokerReplay(t *testing.T) {
	seat := demo.PokerReplay()
	answer := seat.Replay
	seat.Replay, seat.ReplaySeq = nil, 0
	c := useCanned(t, pokerView(seat, 2500))
	wait(t, 3, func(g *game) bool { return g.PokerAtTable() })
	table := grab(t, "poker_replay_before")
	stateOf(t, func(g *game) {
		x, y := g.toScreenInt(buttonRectOf(g, "poker:replay").Center())
		g.clickPixel(x, y)
	})
	wait(t, 2, func(g *game) bool { return g.ReplayWaiting() })
	asked := grab(t, "poker_replay_asking")
	if n := changed(table, asked, theGame, model.RectPokerMsg); n < 300 {
		t.Errorf("the asking is not said on the line (%d pixels changed)", n)
	}
	withAnswer := *seat
	withAnswer.Replay, withAnswer.ReplaySeq = answer, 1
	c.setView(pokerView(&withAnswer, 2500))
	wait(t, 3, func(g *game) bool { _, ok := g.PokerReplay(); return ok })
	// To the frame after his raise's call: the flop turned.
	var sc model.ReplayScene
	for range 30 {
		stateOf(t, func(g *game) { sc, _ = g.PokerReplay() })
		if len(sc.Board) == 3 {
			break
		}
		stateOf(t, func(g *game) { g.key(model.KeyRight) })
	}
	img := grab(t, "poker_replay")
	notBlank(t, img)
	for i := range 5 {
		face, _, _, _ := cardFace(img, model.BoardSlot(i))
		if (i < 3) != (face > 0.5) {
			t.Errorf("replay board card %d: face %.2f with the flop turned", i+1, face)
		}
	}
	for _, own := range sc.Own {
		r := own.R
		r.Y = model.RectPokerSide.Y + 40
		if face, _, red, _ := cardFace(img, r); face < 0.5 || red < 60 {
			t.Errorf("his card %s in the replay's panel: face %.2f red %d", own.Card, face, red)
		}
	}
	side := model.RectPokerSide
	if n := coloured(img, theGame, model.Rect{X: side.X + 18, Y: side.Y + 136, W: side.W - 36, H: side.H - 150}, colGold); n < 100 {
		t.Errorf("the frame's record is not in gold in the panel (%d pixels)", n)
	}
	if n := inked(img, theGame, model.Rect{X: side.X + 18, Y: side.Y + 136, W: side.W - 36, H: side.H - 150}); n < 1500 {
		t.Errorf("the records are not written in the panel (%d pixels)", n)
	}
	for _, r := range []model.Rect{model.RectReplayCounter, model.RectReplayHand} {
		if n := inked(img, theGame, r.Inset(6)); n < 150 {
			t.Errorf("the replay's row at %+v is empty (%d pixels)", r, n)
		}
	}
	if n := changed(table, img, theGame, model.RectPokerOval); n < 3000 {
		t.Errorf("the felt shows the live table, not the replay (%d pixels changed)", n)
	}
	// One step on: the felt and the line change.
	stateOf(t, func(g *game) { g.key(model.KeyRight) })
	wait(t, 2, nil)
	next := grab(t, "poker_replay_next")
	if n := changed(img, next, theGame, model.RectPokerMsg); n < 100 {
		t.Errorf("the next frame's words are not on the line (%d pixels changed)", n)
	}
	// Closed: the live table again.
	stateOf(t, func(g *game) { g.key(model.KeyEscape) })
	wait(t, 2, func(g *game) bool { return !g.ReplayUp() })
	back := grab(t, "poker_replay_closed")
	if n := changed(table, back, theGame, model.RectPokerOval); n > 500 {
		t.Errorf("the live table is not back after the replay (%d pixels differ)", n)
	}
	useCanned(t, idleView())
}

// buttonRectOf is a button's rectangle on the game's goroutine (zero
// without it).
func buttonRectOf(g *game, id string) model.Rect {
	for _, b := range g.Buttons() {
		if b.ID == id {
			return b.R
		}
	}
	return model.Rect{}
}

// The summary after a leave: the session's figures over the lobby, the
// result in gold, closed by its button.
func TestScreenPokerEnded(t *testing.T) {
	c := useCanned(t, pokerView(demo.PokerEnded(), 10845))
	wait(t, 3, func(g *game) bool { return g.EndedUp() })
	img := grab(t, "poker_ended")
	r := model.RectEnded
	if n := coloured(img, theGame, model.Rect{X: r.X, Y: r.Y, W: r.W, H: 3}, colGold); n < int(r.W/2) {
		t.Errorf("the summary's frame is not drawn (%d pixels)", n)
	}
	var rows []model.TableMeter
	stateOf(t, func(g *game) { rows = g.EndedRows() })
	for i := range rows {
		row := model.Rect{X: r.X + 60, Y: r.Y + 76 + float64(i)*32, W: r.W - 120, H: 28}
		if n := inked(img, theGame, row); n < 150 {
			t.Errorf("row %d (%s) is not drawn (%d pixels)", i, rows[i].Label, n)
		}
	}
	result := model.Rect{X: r.X + 60 + (r.W-120)/2, Y: r.Y + 76 + 6*32, W: (r.W - 120) / 2, H: 28}
	if n := coloured(img, theGame, result, colGold); n < 60 {
		t.Errorf("the result is not in gold (%d pixels)", n)
	}
	closeR := buttonRect(t, "poker:ended_close").Inset(8)
	if n := coloured(img, theGame, closeR, colButtonHi); n < int(closeR.W*closeR.H/3) {
		t.Errorf("the close button is not lit (%d pixels)", n)
	}
	stateOf(t, func(g *game) {
		x, y := g.toScreenInt(closeR.Center())
		g.clickPixel(x, y)
	})
	wait(t, 2, func(g *game) bool { return !g.EndedUp() })
	lobby := grab(t, "poker_ended_closed")
	if n := changed(img, lobby, theGame, r.Inset(20)); n < 2000 {
		t.Errorf("the summary stays on screen after its close (%d pixels changed)", n)
	}
	c.setView(idleView())
	wait(t, 2, nil)
}
