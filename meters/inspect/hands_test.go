package inspect

import (
	"strings"
	"testing"

	"github.com/openegm/cabinet/assets"
	"github.com/openegm/cabinet/baccarat"
	"github.com/openegm/cabinet/cards"
	"github.com/openegm/cabinet/meters"
	"github.com/openegm/cabinet/rng"
)

// The inspector's own evaluation of a recorded hand agrees with an honest
// record and names each kind of disagreement: a paid amount, a commission,
// a card, a definition that is not the one dealt on.
func TestCheckHand(t *testing.T) {
	tb, err := assets.LoadTable("makccarat-alt1-5pct")
	if err != nil {
		t.Fatal(err)
	}
	shoe, err := tb.NewShoe()
	if err != nil {
		t.Fatal(err)
	}
	src := rng.NewSeeded(9)
	bets := baccarat.Bets{1000, 1000, 200, 200, 200}
	honest := func() meters.GameHistory {
		dealt, err := tb.Alternative.Deal(shoe, src)
		if err != nil {
			t.Fatal(err)
		}
		h, err := tb.Play(dealt, bets)
		if err != nil {
			t.Fatal(err)
		}
		gs := meters.GameStart{Game: 1, Kind: meters.GameMakccarat, Paytable: tb.ID, Digest: tb.Digest, Denom: 1,
			BetCredits: bets.Total(), BetCents: bets.Total(), WinCents: h.Paid,
			Hand: &meters.TableHand{Bets: bets, Cards: dealt, Commission: h.Commission}}
		return meters.GameHistory{Start: gs, End: &meters.GameEnd{Game: 1, WinCents: h.Paid}}
	}
	for range 200 {
		if p := CheckHand(honest()); p != "" {
			t.Fatalf("an honest hand: %s", p)
		}
	}
	for _, c := range []struct {
		name string
		edit func(*meters.GameHistory)
		want string
	}{
		{"paid a cent more", func(g *meters.GameHistory) { g.Start.WinCents++; g.End.WinCents++ }, "the cards pay"},
		{"commission", func(g *meters.GameHistory) { g.Start.Hand.Commission += 5 }, "commission"},
		{"game end", func(g *meters.GameHistory) { g.End.WinCents += 100 }, "the game ended paying"},
		{"digest", func(g *meters.GameHistory) { g.Start.Digest = "00" }, "not the one the hand was dealt on"},
		{"unknown table", func(g *meters.GameHistory) { g.Start.Paytable = "makccarat-nope" }, "table definition makccarat-nope"},
		{"a card too many", func(g *meters.GameHistory) {
			g.Start.Hand.Cards = append(g.Start.Hand.Cards, cards.Card{Rank: cards.King}, cards.Card{Rank: cards.King})
		}, "not one the rules deal"},
	} {
		g := honest()
		c.edit(&g)
		if p := CheckHand(g); !strings.Contains(p, c.want) {
			t.Errorf("%s: %q, want %q", c.name, p, c.want)
		}
	}
}
