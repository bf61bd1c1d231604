//go:build screen

package ui

import (
	"image"
	"strings"
	"testing"
	"time"

	"github.com/openegm/cabinet/assets"
	"github.com/openegm/cabinet/baccarat"
	"github.com/openegm/cabinet/machine"
	"github.com/openegm/cabinet/ui/demo"
	"github.com/openegm/cabinet/ui/model"
)

// changed counts the pixels of a design rectangle that differ between two
// screenshots.
func changed(a, b *image.RGBA, g *game, r model.Rect) int {
	n := 0
	for y := r.Y; y < r.Y+r.H; y++ {
		for x := r.X; x < r.X+r.W; x++ {
			if dist(pixel(a, g, x, y), pixel(b, g, x, y)) > 40 {
				n++
			}
		}
	}
	return n
}

// tableDemo is the real machine with the reels and the Makccarat table on
// its menu, 50 € of credit, its clock still until the test moves it.
func tableDemo(t *testing.T) *demo.Cabinet {
	pt, _ := assets.LoadPaytable(assets.DefaultGame)
	tb, err := assets.LoadTable("makccarat-alt1-5pct")
	if err != nil {
		t.Fatal(err)
	}
	d := demo.New(pt, demo.Config{MachineID: "EGM-0042", Seed: 11, Table: tb, CardTime: 500 * time.Millisecond})
	d.InsertBill(5000)
	cab.set(d)
	wait(t, 2, nil)
	return d
}

// stateOf reads the screen's state on the window's goroutine.
func stateOf(t *testing.T, f func(g *game)) {
	t.Helper()
	on(t, func(g *game, _ int, _ func() *image.RGBA) bool { f(g); return true })
}

// The menu, then the table played as a player does: chips by key and by
// touch, the deal, the cards turned one by one as the machine turns them,
// the result, the paid amounts and the roads.
func TestScreenTable(t *testing.T) {
	d := tableDemo(t)
	stateOf(t, func(g *game) {
		if !g.MenuUp() {
			g.key(model.KeyEscape) // from the reels, to the menu
		}
	})
	wait(t, 3, func(g *game) bool { return g.MenuUp() })
	img := grab(t, "menu")
	for _, kind := range []string{"reels", "makccarat"} {
		var r model.Rect
		stateOf(t, func(g *game) {
			for _, b := range g.Buttons() {
				if b.ID == "game:"+kind {
					r = b.R
				}
			}
		})
		if r.W == 0 || inked(img, theGame, r.Inset(8)) < 2000 {
			t.Errorf("the menu's %s tile is missing or empty", kind)
		}
	}
	stateOf(t, func(g *game) { g.key(model.KeyRight); g.key(model.KeyEnter) })
	wait(t, 3, func(g *game) bool { return g.AtTable() })
	empty := grab(t, "table_empty")

	// 1 € on the tie by key, then V: 5 € on the player by a touch, 5 €
	// on the banker by key.
	stateOf(t, func(g *game) {
		g.key("i")
		g.key(model.KeyChip)
		x, y := g.toScreenInt(model.SpotRect(1).Center())
		g.clickPixel(x, y)
		g.key("o")
	})
	wait(t, 3, func(g *game) bool { return g.V.Table.Bets[baccarat.SpotBanker] > 0 })
	if got := d.View().Table.Bets; got != [baccarat.NumSpots]int64{500, 500, 100, 0, 0} {
		t.Fatalf("bets on the machine %v, want player 5 €, banker 5 €, tie 1 €", got)
	}
	bets := grab(t, "table_bets")
	for i := 1; i <= 3; i++ {
		if n := changed(empty, bets, theGame, model.SpotRect(i)); n < 800 {
			t.Errorf("spot %d: the chip is not drawn (%d pixels changed)", i, n)
		}
	}
	if n := changed(empty, bets, theGame, model.SpotRect(0)); n > 0 {
		t.Errorf("the player pair spot changed without a chip (%d pixels)", n)
	}

	// The deal: the first card turned, then the next after a card's time.
	stateOf(t, func(g *game) { g.key(model.KeySpin) })
	wait(t, 3, func(g *game) bool {
		return g.V.Mode == "dealing" && g.V.Table.Hand != nil && g.V.Table.Hand.Turned == 1
	})
	one := grab(t, "table_card1")
	var slots []model.CardSlot
	stateOf(t, func(g *game) { slots = g.TableCards() })
	if len(slots) != 1 || changed(bets, one, theGame, slots[0].R) < 3000 {
		t.Fatalf("first card: %+v not drawn", slots)
	}
	d.Advance(500 * time.Millisecond)
	wait(t, 3, func(g *game) bool { return g.V.Table.Hand.Turned == 2 })
	two := grab(t, "table_card2")
	stateOf(t, func(g *game) { slots = g.TableCards() })
	if len(slots) != 2 || slots[1].Side != "banker" {
		t.Fatalf("second card: %+v", slots)
	}
	if n := changed(one, two, theGame, slots[1].R); n < 3000 {
		t.Errorf("the banker's first card is not drawn when it is turned (%d pixels changed)", n)
	}
	if n := changed(one, two, theGame, slots[0].R.Inset(4)); n > 0 {
		t.Errorf("the player's first card changed when the next was turned (%d pixels)", n)
	}
	for range 6 {
		d.Advance(500 * time.Millisecond)
	}
	wait(t, 3, func(g *game) bool { return g.V.Mode == "idle" && g.V.Table.Hand.Done })
	wait(t, 3, nil)
	img = grab(t, "table")
	notBlank(t, img)
	hand := d.View().Table.Hand
	var msg string
	stateOf(t, func(g *game) { msg = g.TableMessage() })
	if !strings.Contains(msg, model.T("pt", "win_"+hand.Winner, "", "")[:4]) || !strings.Contains(msg, " · ") {
		t.Errorf("result line %q for winner %s", msg, hand.Winner)
	}
	if n := inked(img, theGame, model.RectTableMsg.Inset(4)); n < 300 {
		t.Errorf("the result line is not drawn (%d pixels)", n)
	}
	// The bead plate's first cell in the winner's colour, the big road's
	// first cell too unless the hand was a tie.
	cell := model.Rect{X: model.RectBead.X, Y: model.RectBead.Y, W: model.RectBead.W / model.BeadCols, H: model.RectBead.H / model.BeadRows}
	if n := coloured(img, theGame, cell, sideColor(hand.Winner)); n < 300 {
		t.Errorf("bead plate: the %s hand is not in its colour (%d pixels)", hand.Winner, n)
	}
	// The paid meter shows the hand's payout.
	var meters []model.TableMeter
	stateOf(t, func(g *game) { meters = g.TableMeters() })
	if meters[2].Value != model.Euro("pt", hand.PaidCents) {
		t.Errorf("paid meter %q, hand paid %d", meters[2].Value, hand.PaidCents)
	}

	// A refusal: 100 € on the tie is over its 100 € maximum with the 1 € there.
	stateOf(t, func(g *game) { g.Table.Chip = 3; g.key("i") })
	wait(t, 3, func(g *game) bool { return g.V.Message.Key == "refused_spot_limit" })
	refused := grab(t, "table_refused")
	stateOf(t, func(g *game) { msg = g.TableMessage() })
	if msg != "Aposta máxima nesta casa: 100,00 €" {
		t.Errorf("refusal line %q", msg)
	}
	if n := changed(img, refused, theGame, model.RectTableMsg); n < 200 {
		t.Errorf("the refusal is not drawn (%d pixels changed)", n)
	}
}

// The rules page, drawn from the definition, in both languages.
func TestScreenTableRules(t *testing.T) {
	d := tableDemo(t)
	d.Step(machine.SelectGame{At: d.Now(), Game: "makccarat"})
	stateOf(t, func(g *game) { g.Table.Menu = false })
	wait(t, 3, func(g *game) bool { return g.AtTable() })
	shots := map[string]*image.RGBA{}
	for _, lang := range []string{"pt", "en"} {
		if theGame.Lang != lang {
			d.Press(machine.BtnLanguage)
			wait(t, 3, func(g *game) bool { return g.Lang == lang })
		}
		stateOf(t, func(g *game) {
			x, y := g.toScreenInt(75, 672) // the rules button
			g.clickPixel(x, y)
		})
		wait(t, 1, func(g *game) bool { return g.Help }) // when the view says so
		stateOf(t, func(g *game) { g.PageBy(1) })
		wait(t, 3, func(g *game) bool { return g.Help && g.HelpPage == 1 })
		name := "table_rules"
		if lang == "en" {
			name += "_en"
		}
		img := grab(t, name)
		var text, all string
		stateOf(t, func(g *game) {
			text = model.PageText(g.PaytablePages()[1])
			for _, p := range g.PaytablePages() {
				all += model.PageText(p)
			}
		})
		tv := d.View().Table
		for _, want := range []string{model.RTPText(lang, tv.Spots[baccarat.SpotTie].RTPPct), model.RTPText(lang, tv.Spots[baccarat.SpotPlayer].RTPPct), "14", "11", model.Euro(lang, tv.HandMax)} {
			if !strings.Contains(all, want) {
				t.Errorf("%s rules pages lack %q:\n%s", lang, want, all)
			}
		}
		// Every line of the page is drawn: ink on each of its rows.
		lines := strings.Count(text, "\n")
		rows := 0
		for y := model.RectPage.Y + 70; y < model.RectPage.Y+model.RectPage.H-10; y += 14 {
			if inked(img, theGame, model.Rect{X: model.RectPage.X + 30, Y: y, W: 600, H: 14}) > 20 {
				rows++
			}
		}
		if rows < lines {
			t.Errorf("%s: %d lines of text but ink on %d rows", lang, lines, rows)
		}
		shots[lang] = img
		stateOf(t, func(g *game) { g.Key(model.KeyEscape) })
	}
	if n := changed(shots["pt"], shots["en"], theGame, model.RectPage); n < 2000 {
		t.Errorf("the pt and en rules pages look the same (%d pixels differ)", n)
	}
	d.Press(machine.BtnLanguage)
	useCanned(t, idleView())
}
