package cards

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/openegm/cabinet/rng"
)

func TestCardTextRoundTrip(t *testing.T) {
	seen := map[string]bool{}
	for _, c := range Standard52() {
		s := c.String()
		if seen[s] {
			t.Fatalf("%s twice", s)
		}
		seen[s] = true
		p, err := Parse(s)
		if err != nil || p != c {
			t.Fatalf("%s: parsed %v, %v", s, p, err)
		}
	}
	if len(seen) != 52 {
		t.Fatalf("%d distinct cards", len(seen))
	}
	for _, bad := range []string{"", "A", "1S", "AX", "as", "10S", "QHX"} {
		if _, err := Parse(bad); err == nil {
			t.Errorf("%q parsed", bad)
		}
	}
	b, err := json.Marshal([]Card{{Queen, Hearts}, {Ten, Diamonds}, {Ace, Spades}})
	if err != nil || string(b) != `["QH","TD","AS"]` {
		t.Fatalf("%s %v", b, err)
	}
	var back []Card
	if err := json.Unmarshal(b, &back); err != nil || back[0] != (Card{Queen, Hearts}) || back[1].Rank != Ten {
		t.Fatalf("%v %v", back, err)
	}
	if err := json.Unmarshal([]byte(`["ZZ"]`), &back); err == nil {
		t.Fatal("ZZ accepted")
	}
	if _, err := json.Marshal(Card{}); err == nil {
		t.Fatal("the zero card marshals")
	}
}

func TestPortuguese28(t *testing.T) {
	d := Portuguese28()
	if len(d) != 28 {
		t.Fatalf("%d cards", len(d))
	}
	got := map[Rank]int{}
	for _, c := range d {
		got[c.Rank]++
	}
	for _, r := range []Rank{Ace, 8, 9, Ten, Jack, Queen, King} {
		if got[r] != 4 {
			t.Fatalf("rank %d: %d cards", r, got[r])
		}
	}
	if len(got) != 7 {
		t.Fatalf("ranks %v", got)
	}
}

// script is an rng.Source that answers from a list and records each range
// it was asked for.
type script struct {
	out []uint64
	ns  []uint64
}

func (s *script) Uint64n(n uint64) uint64 {
	s.ns = append(s.ns, n)
	v := s.out[0]
	s.out = s.out[1:]
	if v >= n {
		panic(fmt.Sprintf("script answer %d outside [0,%d)", v, n))
	}
	return v
}

// Every combination of RNG answers gives a different ordered hand, and there
// are exactly as many combinations as ordered hands: with a uniform RNG,
// every ordered sequence of k distinct cards is equally likely. The ranges
// asked for are n, n-1, ... (one exact bounded draw per card).
func TestDrawIsUniformOverOrderedHands(t *testing.T) {
	deck := []Card{{Ace, Spades}, {2, Spades}, {3, Spades}, {4, Spades}, {5, Spades}}
	s, err := NewShoe(deck, 1)
	if err != nil {
		t.Fatal(err)
	}
	const k = 3
	n := len(deck)
	seen := map[string]bool{}
	total := 0
	for a := range n {
		for b := range n - 1 {
			for c := range n - 2 {
				src := &script{out: []uint64{uint64(a), uint64(b), uint64(c)}}
				s.Shuffle()
				var hand []string
				for range k {
					card, err := s.Draw(src)
					if err != nil {
						t.Fatal(err)
					}
					hand = append(hand, card.String())
				}
				if fmt.Sprint(src.ns) != "[5 4 3]" {
					t.Fatalf("ranges asked %v", src.ns)
				}
				key := strings.Join(hand, " ")
				if seen[key] {
					t.Fatalf("hand %s reached twice", key)
				}
				seen[key] = true
				total++
			}
		}
	}
	if total != 5*4*3 || len(seen) != total {
		t.Fatalf("%d combinations, %d hands", total, len(seen))
	}
}

func TestShuffleRestoresTheShoe(t *testing.T) {
	s, _ := NewShoe(Standard52(), 6)
	before := fmt.Sprint(s.cards)
	src := rng.NewSeeded(7)
	for range 50 {
		s.Shuffle()
		for range 6 {
			if _, err := s.Draw(src); err != nil {
				t.Fatal(err)
			}
		}
		if s.Left() != s.Len()-6 {
			t.Fatalf("left %d", s.Left())
		}
	}
	s.Shuffle()
	if fmt.Sprint(s.cards) != before || s.Left() != 312 {
		t.Fatal("Shuffle did not restore the shoe's order")
	}
	// Drawn cards are distinct cards of the shoe (no card dealt twice).
	small, _ := NewShoe([]Card{{Ace, Clubs}, {King, Hearts}}, 1)
	a, _ := small.Draw(src)
	b, _ := small.Draw(src)
	if a == b {
		t.Fatal("a card was dealt twice")
	}
	if _, err := small.Draw(src); err == nil || !strings.Contains(err.Error(), "empty") {
		t.Fatalf("empty shoe: %v", err)
	}
}

func TestShoeCounts(t *testing.T) {
	s, err := NewShoe(Standard52(), 8)
	if err != nil {
		t.Fatal(err)
	}
	n := s.Counts()
	for r := Ace; r <= King; r++ {
		if n[r] != 32 {
			t.Fatalf("rank %d: %d", r, n[r])
		}
	}
	if _, err := NewShoe(Standard52(), 0); err == nil {
		t.Fatal("zero decks accepted")
	}
	if _, err := NewShoe([]Card{{}}, 1); err == nil {
		t.Fatal("a non-card accepted")
	}
}
