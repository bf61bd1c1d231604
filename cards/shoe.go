package cards

import (
	"fmt"

	"github.com/openegm/cabinet/rng"
)

// Shoe is the cards of one or more decks from which hands are dealt.
//
// Every hand is dealt from a freshly shuffled shoe. Shuffling all of it for
// six cards would waste the RNG, so the shuffle is a partial Fisher–Yates:
// the k-th card drawn is chosen uniformly among the cards not yet drawn, with
// the RNG's exact bounded draw (rejection, never modulo). Every ordered
// sequence of distinct cards is then equally likely, which is all a fresh
// shuffle promises about the cards anyone sees. Shuffle puts the shoe back in
// its original order, so a hand's cards depend only on the RNG's outputs and
// not on the hands before it: a lab can reproduce a seeded stream's hands.
//
// A Shoe is not safe for concurrent use.
type Shoe struct {
	cards []Card
	drawn int   // cards[:drawn] are dealt, in the order dealt
	swaps []int // swaps[i] is where the i-th card drawn came from
}

// NewShoe returns a shoe of decks copies of deck, in order.
func NewShoe(deck []Card, decks int) (*Shoe, error) {
	if decks < 1 || len(deck) == 0 {
		return nil, fmt.Errorf("cards: a shoe needs at least one deck of at least one card (got %d decks of %d cards)", decks, len(deck))
	}
	s := &Shoe{cards: make([]Card, 0, decks*len(deck))}
	for range decks {
		for _, c := range deck {
			if !c.Valid() {
				return nil, fmt.Errorf("cards: %s is not a card", c)
			}
			s.cards = append(s.cards, c)
		}
	}
	return s, nil
}

// Len is the number of cards in the shoe, drawn or not.
func (s *Shoe) Len() int { return len(s.cards) }

// Left is the number of cards not yet drawn since the last Shuffle.
func (s *Shoe) Left() int { return len(s.cards) - s.drawn }

// Shuffle starts a freshly shuffled shoe: every card is back and undrawn.
func (s *Shoe) Shuffle() {
	for i := s.drawn - 1; i >= 0; i-- {
		j := s.swaps[i]
		s.cards[i], s.cards[j] = s.cards[j], s.cards[i]
	}
	s.drawn = 0
	s.swaps = s.swaps[:0]
}

// Draw deals the next card: uniform among the cards not drawn since the last
// Shuffle. It fails only when every card has been drawn.
func (s *Shoe) Draw(src rng.Source) (Card, error) {
	left := len(s.cards) - s.drawn
	if left <= 0 {
		return Card{}, fmt.Errorf("cards: the shoe of %d cards is empty", len(s.cards))
	}
	j := s.drawn + int(src.Uint64n(uint64(left)))
	s.cards[s.drawn], s.cards[j] = s.cards[j], s.cards[s.drawn]
	s.swaps = append(s.swaps, j)
	s.drawn++
	return s.cards[s.drawn-1], nil
}

// Counts returns how many cards of each rank the full shoe holds, indexed
// by rank (index 0 unused).
func (s *Shoe) Counts() [King + 1]int {
	var n [King + 1]int
	for _, c := range s.cards {
		n[c.Rank]++
	}
	return n
}
