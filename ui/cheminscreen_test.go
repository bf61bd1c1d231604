//go:build screen

package ui

import (
	"image"
	"slices"
	"testing"

	"github.com/openegm/cabinet/ui/demo"
	"github.com/openegm/cabinet/ui/model"
)

// textsDrawn are the texts the screen on show draws, as the layout
// records have them.
func textsDrawn(t *testing.T) []string {
	t.Helper()
	var out []string
	on(t, func(g *game, _ int, _ func() *image.RGBA) bool {
		for _, d := range layoutNow(g) {
			if d.Kind == 't' || d.Kind == 'm' {
				out = append(out, d.Text)
			}
		}
		return true
	})
	return out
}

// mustDraw fails for each text in want the screen does not draw.
func mustDraw(t *testing.T, what string, texts []string, want ...string) {
	t.Helper()
	for _, w := range want {
		if !slices.Contains(texts, w) {
			t.Errorf("%s: %q is not drawn; the texts: %q", what, w, texts)
		}
	}
}

// The player as ponto on a bancô with five, at a chemin de fer table: his
// two cards face up and the banker's two face down, the empty places of
// the third cards, the money in gold in the middle, the timer running on
// his seat, the dealer's words, the coup's number and his balance drawn;
// in English the same table in English, the server's announcement in its
// English words.
func TestScreenCheminPonto(t *testing.T) {
	v := pokerView(demo.CheminDraw(), 20000)
	c := useCanned(t, v)
	wait(t, 3, func(g *game) bool { return g.AtChemin() })
	img, left, total := shotTimer(t, "chemin_ponto")
	notBlank(t, img)
	var ponto, banker model.CheminHand
	var seats []model.PokerSeatSpot
	stateOf(t, func(g *game) { ponto, banker = g.CheminHands(); seats = g.PokerSeats() })
	for i, cd := range ponto.Cards {
		face, _, red, black := cardFace(img, cd.R)
		if face < 0.5 || (i == 0 && red < 60) || (i == 1 && black < 60) {
			t.Errorf("his card %s: face %.2f red %d black %d", cd.Card, face, red, black)
		}
	}
	for _, cd := range banker.Cards {
		if _, back, _, _ := cardFace(img, cd.R); back < 0.4 {
			t.Errorf("the banker's card is not face down (back %.2f)", back)
		}
	}
	if face, back, _, _ := cardFace(img, model.CheminCardRect(0, 2)); face > 0.05 || back > 0.05 {
		t.Errorf("a third card at the ponto's empty place (face %.2f back %.2f)", face, back)
	}
	centre := model.RectCheminCentre
	if n := coloured(img, theGame, model.Rect{X: centre.X, Y: centre.Y + 164, W: centre.W, H: 26}, colGold); n < 300 {
		t.Errorf("the money on the table is not in gold (%d pixels)", n)
	}
	me := seats[3]
	want := (me.R.W - 16) * float64(left) / float64(total)
	if got := timerBar(img, me.R, colGold); !me.You || got < want-3 || got > want+3 {
		t.Errorf("his seat's timer bar %.0f units for %d of %d ms left, want %.0f", got, left, total, want)
	}
	side := model.RectPokerSide
	if n := coloured(img, theGame, model.Rect{X: side.X + 18, Y: side.Y + 200, W: side.W - 36, H: side.H - 210}, colGold); n < 100 {
		t.Errorf("the dealer's latest announcement is not in gold in the panel (%d pixels)", n)
	}
	for _, id := range []string{"chemin:draw", "chemin:stand"} {
		if r := buttonRect(t, id).Inset(8); inked(img, theGame, r) < 100 {
			t.Errorf("%s is not drawn", id)
		}
	}
	mustDraw(t, "pt", textsDrawn(t), "Tem cinco: carta ou não?", "PONTO · cinco", "BANCA", "Banca: 200,00 € · Em jogo: 200,00 €",
		"Cartas no sabot: 267", "Bancô de 200,00 €. Jogo feito. Nada mais.", "Golpe 18", "O CROUPIER", "Fichas na mesa", "150,00 €",
		"Crédito na máquina", "200,00 €", "Carta", "Não", "Banqueiro", "Ponto · 200,00 €", "Golpes jogados")

	v.Lang = "en"
	c.setView(v)
	wait(t, 2, func(g *game) bool { return g.Lang == "en" })
	en := grab(t, "chemin_ponto_en")
	if n := changed(img, en, theGame, model.Rect{X: centre.X, Y: centre.Y, W: centre.W, H: 50}); n < 300 {
		t.Errorf("the phase and the announcement did not change with the language (%d pixels)", n)
	}
	mustDraw(t, "en", textsDrawn(t), "You have five: card or no card?", "PONTO · five", "BANK", "Bank: €200.00 · At stake: €200.00",
		"Cards in the shoe: 267", "Banco of €200.00. Bets are closed. No more bets.", "Coup 18", "THE DEALER", "Chips at the table",
		"Card", "No card", "Banker", "Ponto · €200.00", "Coups played")
	useCanned(t, idleView())
}

// The banco round: his choices lit in a row with the amount box, ↑ moving
// the amount on screen; then the coup over with him banking at the
// sabot's last coup: both hands face up with their points, the result
// announced, the garage and the wins said.
func TestScreenCheminBancoAndCoup(t *testing.T) {
	c := useCanned(t, pokerView(demo.CheminBanco(), 20000))
	wait(t, 3, func(g *game) bool { return g.AtChemin() && g.YourTurn() })
	img := grab(t, "chemin_banco")
	hot := buttonRect(t, "chemin:banco").Inset(8)
	if n := coloured(img, theGame, hot, colButtonHi); n < int(hot.W*hot.H/3) {
		t.Errorf("the choice pointed at is not lit (%d pixels)", n)
	}
	for _, id := range []string{"chemin:banco_mesa", "chemin:bet", "chemin:no_bet"} {
		r := buttonRect(t, id).Inset(8)
		if n := coloured(img, theGame, r, colButton); n < int(r.W*r.H/3) {
			t.Errorf("%s is not drawn (%d pixels)", id, n)
		}
	}
	if n := inked(img, theGame, model.RectCheminAmount.Inset(8)); n < 150 {
		t.Errorf("the amount is not drawn (%d pixels)", n)
	}
	mustDraw(t, "banco", textsDrawn(t), "Faz bancô?", "Banca: 200,00 € · Em jogo: 50,00 €", "100,00 €", "Bancô", "Bancô com a mesa", "Apostar",
		"Não apostar", "Quem quer fazer bancô?", "50,00 €")
	stateOf(t, func(g *game) { g.key(model.KeyUp) })
	wait(t, 2, nil)
	up := grab(t, "chemin_banco_up")
	if n := changed(img, up, theGame, model.RectCheminAmount.Inset(8)); n < 30 {
		t.Errorf("the amount did not change with ↑ (%d pixels)", n)
	}
	mustDraw(t, "banco ↑", textsDrawn(t), "105,00 €") // 5 € steps on bancô com a mesa's 100 € … 200 €

	c.setView(pokerView(demo.CheminAfterCoup(), 20000))
	wait(t, 3, func(g *game) bool { return g.AtChemin() && g.CheminSabot() != "" && len(g.CheminChoices()) == 4 })
	coup := grab(t, "chemin_after_coup")
	var ponto, banker model.CheminHand
	stateOf(t, func(g *game) { ponto, banker = g.CheminHands() })
	for _, h := range []model.CheminHand{ponto, banker} {
		for _, cd := range h.Cards {
			if face, _, _, _ := cardFace(coup, cd.R); face < 0.5 {
				t.Errorf("%s: card %s not face up (%.2f)", h.Label, cd.Card, face)
			}
		}
	}
	if len(ponto.Cards) != 3 || len(banker.Cards) != 2 {
		t.Fatalf("hands %d and %d cards", len(ponto.Cards), len(banker.Cards))
	}
	mustDraw(t, "after the coup", textsDrawn(t), "Continua, põe de lado ou passa a mão?", "PONTO · três", "BANCA · sete",
		"Banca: 380,00 € · Garage: 100,00 €", "Cartas no sabot: 9 · Golpes ganhos: 2 · Último golpe do sabot", "Três no ponto; sete na banca",
		"Continuar", "Garage", "Passo a mão", "Cagnotte por fora", "Banqueiro", "Associado")
	useCanned(t, idleView())
}

// The lobby with the chemin table: its card, the least it asks, and its
// buy-in between − and +.
func TestScreenCheminLobby(t *testing.T) {
	useCanned(t, pokerView(demo.CheminLobby(), 50000))
	wait(t, 3, func(g *game) bool { return g.AtPoker() && !g.PokerAtTable() })
	img := grab(t, "chemin_lobby")
	for _, id := range []string{"chemin:buy_less:" + demo.CheminTable, "chemin:buy_more:" + demo.CheminTable, "poker:buyin:" + demo.CheminTable} {
		if r := buttonRect(t, id).Inset(8); inked(img, theGame, r) < 30 {
			t.Errorf("%s is not drawn", id)
		}
	}
	mustDraw(t, "lobby", textsDrawn(t), "Banca francesa", "ENTRADA A PARTIR DE", "10,00 €", "SENTAR · 100,00 €", "Banca mínima: 100,00 €")
	useCanned(t, idleView())
}

// The replay of his last coup: asked by P, the frame with both hands
// shown drawn face up in the two hands' places, the bank and the stake in
// gold, the frame's words and the records in the panel, in pt and en with
// the longest amounts within their boxes.
func TestScreenCheminReplay(t *testing.T) {
	seat := demo.CheminReplay()
	seat.Replay, seat.ReplaySeq = nil, 0
	c := useCanned(t, pokerView(seat, 20000))
	wait(t, 3, func(g *game) bool { return g.AtChemin() })
	stateOf(t, func(g *game) { g.key("p") })
	wait(t, 2, func(g *game) bool { return g.ReplayWaiting() })
	v := pokerView(demo.CheminReplay(), 20000)
	c.setView(v)
	wait(t, 3, func(g *game) bool { _, ok := g.PokerReplay(); return ok })
	for range 5 {
		stateOf(t, func(g *game) { g.key(model.KeyRight) })
	}
	wait(t, 2, nil)
	img := grab(t, "chemin_replay")
	for side, n := range []int{3, 2} {
		for i := range n {
			if face, _, _, _ := cardFace(img, model.CheminCardRect(side, i)); face < 0.5 {
				t.Errorf("side %d card %d is not drawn face up (%.2f)", side, i, face)
			}
		}
	}
	centre := model.RectCheminCentre
	if n := coloured(img, theGame, model.Rect{X: centre.X, Y: centre.Y + 164, W: centre.W, H: 26}, colGold); n < 300 {
		t.Errorf("the bank and the stake are not in gold (%d pixels)", n)
	}
	mustDraw(t, "replay", textsDrawn(t), "Bruno mostra K♦ 4♣ 9♥: três", "Banca: 190,00 € · Em jogo: 190,00 €", "PONTO", "BANCA", "Passo 6 de 9", "REPETIÇÃO · GOLPE 23", "Golpe 23 · 1 de 1")
	checkScreen(t, "chemin replay", c, v, nil)
	useCanned(t, idleView())
}
