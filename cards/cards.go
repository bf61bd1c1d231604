// Package cards is the playing cards of the card games: ranks, suits, the
// decks (the 52-card deck and the Portuguese 28-card deck), shoes of several
// decks, and dealing from a shoe with the certified RNG.
//
// A card is written as two characters, rank then suit: "AS" (ace of spades),
// "TD" (ten of diamonds), "QH", "7C". That text is what records and recall
// store, so it is part of the certified format and does not change.
package cards

import (
	"fmt"
)

// Rank is a card's rank: 1 (ace) to 13 (king). What a rank is worth is the
// game's business (baccarat counts an ace 1, poker ranks it high).
type Rank uint8

const (
	Ace   Rank = 1
	Ten   Rank = 10
	Jack  Rank = 11
	Queen Rank = 12
	King  Rank = 13
)

// Suit is a card's suit.
type Suit uint8

const (
	Clubs Suit = iota
	Diamonds
	Hearts
	Spades
)

const rankLetters = "A23456789TJQK"
const suitLetters = "CDHS"

// Card is one playing card. The zero Card is not a card.
type Card struct {
	Rank Rank
	Suit Suit
}

// Valid reports whether c is a real card.
func (c Card) Valid() bool { return c.Rank >= Ace && c.Rank <= King && c.Suit <= Spades }

func (c Card) String() string {
	if !c.Valid() {
		return fmt.Sprintf("?%d/%d", c.Rank, c.Suit)
	}
	return string([]byte{rankLetters[c.Rank-1], suitLetters[c.Suit]})
}

// Parse reads the two-character form of a card ("QH").
func Parse(s string) (Card, error) {
	if len(s) != 2 {
		return Card{}, fmt.Errorf("card %q: want two characters, rank (A23456789TJQK) then suit (CDHS)", s)
	}
	r := indexByte(rankLetters, s[0])
	u := indexByte(suitLetters, s[1])
	if r < 0 || u < 0 {
		return Card{}, fmt.Errorf("card %q: want rank A23456789TJQK then suit CDHS", s)
	}
	return Card{Rank: Rank(r + 1), Suit: Suit(u)}, nil
}

func indexByte(s string, b byte) int {
	for i := 0; i < len(s); i++ {
		if s[i] == b {
			return i
		}
	}
	return -1
}

// MarshalText writes the two-character form, so cards are readable in JSON
// records.
func (c Card) MarshalText() ([]byte, error) {
	if !c.Valid() {
		return nil, fmt.Errorf("not a card: %s", c)
	}
	return []byte(c.String()), nil
}

// UnmarshalText reads the two-character form.
func (c *Card) UnmarshalText(b []byte) error {
	p, err := Parse(string(b))
	if err != nil {
		return err
	}
	*c = p
	return nil
}

// Standard52 is the French-suited 52-card deck.
func Standard52() []Card { return deckOf(Ace, King) }

// Portuguese28 is the 28-card deck of synthetic poker (Portaria 817/2005):
// the 8, 9, 10, jack, queen, king and ace of each suit.
func Portuguese28() []Card {
	d := deckOf(8, King)
	for s := Clubs; s <= Spades; s++ {
		d = append(d, Card{Ace, s})
	}
	return d
}

func deckOf(lo, hi Rank) []Card {
	var d []Card
	for s := Clubs; s <= Spades; s++ {
		for r := lo; r <= hi; r++ {
			d = append(d, Card{r, s})
		}
	}
	return d
}
