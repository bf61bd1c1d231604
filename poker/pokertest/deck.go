package pokertest

import (
	"fmt"

	"github.com/openegm/cabinet/cards"
)

// Deck is an rng.Source that makes a cards.Shoe of one deck deal planned
// cards: hand by hand, the cards of Plan in the order the engine draws them
// (then the first card left). It mirrors the shoe's partial Fisher-Yates: a
// draw asked from a full deck starts a new hand. Draws of other sizes (a
// seat draw) answer 0.
type Deck struct {
	deck  []cards.Card
	Plan  [][]cards.Card
	cur   []cards.Card
	drawn int
	next  []cards.Card
}

// NewDeck plans hands over deck (cards.Standard52 or cards.Portuguese28).
func NewDeck(deck []cards.Card, plan ...[]cards.Card) *Deck {
	return &Deck{deck: deck, Plan: plan}
}

// Cards parses "AS KD ..." for plans.
func Cards(s string) []cards.Card {
	var out []cards.Card
	word := ""
	for _, r := range s + " " {
		if r == ' ' {
			if word != "" {
				c, err := cards.Parse(word)
				if err != nil {
					panic(err)
				}
				out = append(out, c)
			}
			word = ""
			continue
		}
		word += string(r)
	}
	return out
}

func (d *Deck) Uint64n(n uint64) uint64 {
	if int(n) == len(d.deck) {
		d.cur = append([]cards.Card(nil), d.deck...)
		d.drawn = 0
		d.next = nil
		if len(d.Plan) > 0 {
			d.next, d.Plan = d.Plan[0], d.Plan[1:]
		}
	}
	if d.cur == nil || int(n) != len(d.cur)-d.drawn {
		return 0
	}
	j := d.drawn
	if len(d.next) > 0 {
		want := d.next[0]
		d.next = d.next[1:]
		for j < len(d.cur) && d.cur[j] != want {
			j++
		}
		if j == len(d.cur) {
			panic(fmt.Sprintf("planned card %s is not left in the deck", want))
		}
	}
	d.cur[d.drawn], d.cur[j] = d.cur[j], d.cur[d.drawn]
	d.drawn++
	return uint64(j - d.drawn + 1)
}

// Plan is the cards of a hand in the order an engine draws them: the hole
// cards in dealing order (the first card of each player, then the second)
// and the community cards.
func Plan(holes []string, board string) []cards.Card {
	var first, second []cards.Card
	for _, h := range holes {
		c := Cards(h)
		first, second = append(first, c[0]), append(second, c[1])
	}
	return append(append(first, second...), Cards(board)...)
}
