package meters

import (
	"strings"
	"testing"

	"github.com/openegm/cabinet/cards"
)

func mustCards(t *testing.T, ss ...string) []cards.Card {
	t.Helper()
	var cs []cards.Card
	for _, s := range ss {
		c, err := cards.Parse(s)
		if err != nil {
			t.Fatal(err)
		}
		cs = append(cs, c)
	}
	return cs
}

func tableStart(t *testing.T, game uint64, bets [TableSpots]int64, paid, commission int64) GameStart {
	var total int64
	for _, b := range bets {
		total += b
	}
	return GameStart{At: int64(game), Game: game, Kind: GameMakccarat, Paytable: "makccarat-alt1-5pct", Digest: "d", Denom: 1,
		BetCredits: total, BetCents: total, WinCents: paid,
		Hand: &TableHand{Bets: bets, Cards: mustCards(t, "9H", "2C", "KD", "3S"), Commission: commission}}
}

// A Makccarat hand moves the machine's meters as a reel game does (bet
// out of the credits, everything paid back into them) and its own game's
// meters, commission included; the reel game's meters do not move.
func TestTableHandMovesItsGameMeters(t *testing.T) {
	s := idleWithCredits(t)
	// 2 € on the player, who wins 9 to 5: 2 € back and 2 € less 5 %.
	mustApply(t, s, tableStart(t, 1, [TableSpots]int64{200, 0, 0, 0, 0}, 390, 10), GameEnd{At: 2, Game: 1, WinCents: 390})
	if c := s.Get(Credits); c != 2000-200+390 {
		t.Fatalf("credits %d", c)
	}
	g := s.PerGame[GameMakccarat]
	if g != (GameMeters{CoinIn: 200, TotalWon: 390, CoinOut: 390, Commission: 10, Played: 1, Won: 1}) {
		t.Fatalf("makccarat meters %+v", g)
	}
	if r, ok := s.PerGame[GameReels]; ok {
		t.Fatalf("reel meters moved: %+v", r)
	}
	mustApply(t, s, GameStart{At: 3, Game: 2, Paytable: "lusitania-92", Digest: "d", Denom: 1, BetCredits: 100, BetCents: 100, Stops: []int{1, 2, 3, 4, 5}},
		GameEnd{At: 4, Game: 2})
	if r := s.PerGame[GameReels]; r != (GameMeters{CoinIn: 100, Played: 1, Lost: 1}) {
		t.Fatalf("reel meters %+v", r)
	}
	if err := s.Apply(RAMClear{At: 5, Who: "tech", Why: "test"}); err == nil {
		t.Fatal("RAM clear with credits")
	}
}

// A table hand that does not add up, or looks like a reel game, is refused
// before it reaches the fold.
func TestTableHandRefusedWhenMalformed(t *testing.T) {
	bad := []struct {
		name string
		edit func(*GameStart)
		want string
	}{
		{"stakes not the bet", func(g *GameStart) { g.Hand.Bets[2] += 20 }, "stakes total"},
		{"three cards", func(g *GameStart) { g.Hand.Cards = g.Hand.Cards[:3] }, "3 cards"},
		{"seven cards", func(g *GameStart) { g.Hand.Cards = append(g.Hand.Cards, g.Hand.Cards[:3]...) }, "7 cards"},
		{"no hand", func(g *GameStart) { g.Hand = nil }, "without its hand"},
		{"reel stops", func(g *GameStart) { g.Stops = []int{1} }, "reel or jackpot fields"},
		{"a contribution", func(g *GameStart) { g.Contributions = []LevelAmount{{Level: 1, Millicents: 5}} }, "reel or jackpot fields"},
		{"negative stake", func(g *GameStart) { g.Hand.Bets[0], g.Hand.Bets[1] = -20, 220 }, "negative stake"},
		{"unknown game", func(g *GameStart) { g.Kind = "roulette" }, "unknown game"},
		{"hand on a reel game", func(g *GameStart) { g.Kind = ""; g.Stops = []int{1} }, "reel game with a table hand"},
		{"not a card", func(g *GameStart) { g.Hand.Cards[1] = cards.Card{} }, "card 2 is not a card"},
	}
	for _, c := range bad {
		s := idleWithCredits(t)
		gs := tableStart(t, 1, [TableSpots]int64{200, 0, 0, 0, 0}, 390, 10)
		c.edit(&gs)
		err := s.Apply(gs)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v, want %q", c.name, err, c.want)
		}
		if s.Get(Credits) != 2000 || s.Open != nil {
			t.Errorf("%s: the state moved", c.name)
		}
	}
}

// A table hand survives the ledger's encoding: recall needs its cards.
func TestTableHandRoundTrip(t *testing.T) {
	gs := tableStart(t, 1, [TableSpots]int64{0, 400, 20, 0, 40}, 0, 0)
	data, err := Encode(gs)
	if err != nil {
		t.Fatal(err)
	}
	back, err := Decode(gs.Type(), data)
	if err != nil {
		t.Fatal(err)
	}
	b := back.(GameStart)
	if b.Kind != GameMakccarat || b.Hand == nil || b.Hand.Bets != gs.Hand.Bets || len(b.Hand.Cards) != 4 || b.Hand.Cards[3] != gs.Hand.Cards[3] {
		t.Fatalf("decoded %+v", b)
	}
}
