package baccarat

import (
	"strings"
	"testing"

	"github.com/openegm/cabinet/cards"
)

// Each case is a hand in deal order (P1 B1 P2 B2, then the third cards) and
// what the dispatch's article 9 says of it, worked out by hand from the text.
func TestDrawingRules(t *testing.T) {
	type want struct {
		winner    Winner
		points    int
		np, nb    int // cards in each hand
		ppair, bp bool
	}
	cases := []struct {
		name  string
		cards string
		alt1  want
		alt2  want
	}{
		{"player natural 9 beats 7; nobody draws", "9S 5H KS 2H",
			want{PlayerWins, 9, 2, 2, false, false}, want{PlayerWins, 9, 2, 2, false, false}},
		{"natural tie at 8; the player's 4-4 is a pair", "4S 8H 4H KD",
			want{Tie, 8, 2, 2, true, false}, want{Tie, 8, 2, 2, true, false}},
		{"banker natural 8 ends the hand though the player has 6", "3S 9H 3D 9C",
			want{BankerWins, 8, 2, 2, true, true}, want{BankerWins, 8, 2, 2, true, true}},
		{"both naturals: 9 beats 8", "8S 9H KD TC",
			want{BankerWins, 9, 2, 2, false, false}, want{BankerWins, 9, 2, 2, false, false}},
		{"equal 5s: both draw, player first, tie at 9", "2S AH 3D 4C 4S 4H",
			want{Tie, 9, 3, 3, false, false}, want{Tie, 9, 3, 3, false, false}},
		{"equal 5s: both draw even when the player's third card puts it ahead", "2S AH 3D 4C 4S KH",
			want{PlayerWins, 9, 3, 3, false, false}, want{PlayerWins, 9, 3, 3, false, false}},
		{"player 2 draws to 5, still below 6: the banker stands and wins", "2C 3H KC 3S 3D",
			want{BankerWins, 6, 3, 2, false, true}, want{BankerWins, 6, 3, 2, false, true}},
		{"player 2 draws to 9: the banker draws and ties at 9", "2C 3H KC 3S 7D 3C",
			want{Tie, 9, 3, 3, false, true}, want{Tie, 9, 3, 3, false, true}},
		{"player 2 draws to 9: the banker draws a ten and loses", "2C 3H KC 3S 7D TC",
			want{PlayerWins, 9, 3, 3, false, true}, want{PlayerWins, 9, 3, 3, false, true}},
		{"banker 1 draws to 6, still below 7: the player wins", "7C AH KC KS 5D",
			want{PlayerWins, 7, 2, 3, false, false}, want{PlayerWins, 7, 2, 3, false, false}},
		{"banker 3 draws a 9 and wraps to 2: still lower", "5C 3H KC KS 9D",
			want{PlayerWins, 5, 2, 3, false, false}, want{PlayerWins, 5, 2, 3, false, false}},
		{"J+J is a pair, J+Q is not; 0 and 0 both draw", "JC JH JD QS 8S 8H",
			want{Tie, 8, 3, 3, true, false}, want{Tie, 8, 3, 3, true, false}},
	}
	// The hands where the alternatives part: the lower hand draws level.
	split := []struct {
		name       string
		alt1, alt2 string
		w1, w2     want
	}{
		{"player 2 draws to 6 = banker 6: alternative 1 the banker draws, alternative 2 a tie",
			"2C 3H KC 3S 4D 2C", "2C 3H KC 3S 4D",
			want{BankerWins, 8, 3, 3, false, true}, want{Tie, 6, 3, 2, false, true}},
		{"banker 4 draws to 7 = player 7: alternative 1 the player draws (a 5, to 2) and loses",
			"7S 2H KC 2D 3S 5D", "7S 2H KC 2D 3S",
			want{BankerWins, 7, 3, 3, false, true}, want{Tie, 7, 2, 3, false, true}},
	}
	check := func(t *testing.T, a Alternative, hand string, w want) {
		t.Helper()
		o, err := a.Evaluate(parseCards(t, strings.Fields(hand)...))
		if err != nil {
			t.Fatalf("alternative %d, %s: %v", a, hand, err)
		}
		got := want{o.Winner, o.Points, len(o.Player), len(o.Banker), o.PlayerPair, o.BankerPair}
		if got != w {
			t.Fatalf("alternative %d, %s: got %+v, want %+v", a, hand, got, w)
		}
		if p, b := o.PlayerPoints, o.BankerPoints; (w.winner == PlayerWins) != (p > b) || (w.winner == Tie) != (p == b) {
			t.Fatalf("totals %d %d", p, b)
		}
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			check(t, Alternative1, c.cards, c.alt1)
			check(t, Alternative2, c.cards, c.alt2)
		})
	}
	for _, c := range split {
		t.Run(c.name, func(t *testing.T) {
			check(t, Alternative1, c.alt1, c.w1)
			check(t, Alternative2, c.alt2, c.w2)
			// The card alternative 2 does not deal is refused there, and
			// the card alternative 1 needs is missing without it.
			if _, err := Alternative2.Evaluate(parseCards(t, strings.Fields(c.alt1)...)); err == nil || !strings.Contains(err.Error(), "not dealt by the rules of alternative 2") {
				t.Fatalf("alternative 2 took a sixth card: %v", err)
			}
			if _, err := Alternative1.Evaluate(parseCards(t, strings.Fields(c.alt2)...)); err == nil || !strings.Contains(err.Error(), "not over") {
				t.Fatalf("alternative 1 ended without the sixth card: %v", err)
			}
		})
	}
}

func TestEvaluateRefusesMalformedHands(t *testing.T) {
	for name, c := range map[string]struct {
		hand string
		want string
	}{
		"three cards":                 {"9S 5H KS", "starts with four cards"},
		"a card after a natural":      {"9S 5H KS 2H 3C", "card 5 (3C) is not dealt"},
		"equal totals need two cards": {"2S AH 3D 4C 4S", "the rules of alternative 1 deal the banker a third card"},
		"a lower hand must draw":      {"2C 3H KC 3S", "deal the player a third card"},
		"seven cards":                 {"2S AH 3D 4C 4S 4H 5D", "card 7 (5D)"},
	} {
		_, err := Alternative1.Evaluate(parseCards(t, strings.Fields(c.hand)...))
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: got %v, want %q", name, err, c.want)
		}
	}
	if _, err := Alternative1.Evaluate([]cards.Card{{}, {}, {}, {}}); err == nil || !strings.Contains(err.Error(), "not a card") {
		t.Fatalf("zero cards: %v", err)
	}
	if _, err := Alternative(3).Evaluate(parseCards(t, "9S", "5H", "KS", "2H")); err == nil {
		t.Fatal("alternative 3 evaluated")
	}
}

func TestNextNamesTheHandThatDraws(t *testing.T) {
	for _, c := range []struct {
		hand string
		want Side
	}{
		{"2C 3H KC 3S", Player},
		{"7C AH KC KS", Banker},
		{"2S AH 3D 4C", Player},
		{"2S AH 3D 4C 4S", Banker},
		{"9S 5H KS 2H", Nobody},
	} {
		s, err := Alternative1.Next(parseCards(t, strings.Fields(c.hand)...))
		if err != nil || s != c.want {
			t.Errorf("%s: %v %v, want %v", c.hand, s, err, c.want)
		}
	}
}
