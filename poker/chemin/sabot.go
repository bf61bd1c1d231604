package chemin

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"

	"github.com/openegm/cabinet/cards"
	"github.com/openegm/cabinet/rng"
)

// Sabot sizes (rule 13): the cut leaves at least MinCutSide cards each
// side; the warning card lies between the 7th and the 8th card from the
// end, so AfterWarning cards follow it.
const (
	MinCutSide   = 6
	AfterWarning = 7
)

// sabot is a shuffled, cut shoe dealt in order.
type sabot struct {
	order  []cards.Card
	pos    int // the next card to deal
	cut    int // where the cut went: the cards from it came first
	digest string
	warned bool // the warning card came out
}

// newSabot shuffles decks decks with the certified RNG (a uniform
// permutation: cards.Shoe's draw of every card), cuts it at a random place
// leaving at least MinCutSide cards each side, the two parts swapped
// (rule 13), and digests the order.
func newSabot(decks int, src rng.Source) (*sabot, error) {
	shoe, err := cards.NewShoe(cards.Standard52(), decks)
	if err != nil {
		return nil, err
	}
	n := shoe.Len()
	deck := make([]cards.Card, 0, n)
	for range n {
		c, err := shoe.Draw(src)
		if err != nil {
			return nil, err
		}
		deck = append(deck, c)
	}
	cut := MinCutSide + int(src.Uint64n(uint64(n-2*MinCutSide+1)))
	order := append(append(make([]cards.Card, 0, n), deck[cut:]...), deck[:cut]...)
	return &sabot{order: order, cut: cut, digest: Digest(order)}, nil
}

// Digest is the commitment to a sabot's order: the SHA-256 of the cards'
// two-character forms, in order, as hex.
func Digest(order []cards.Card) string {
	h := sha256.New()
	for _, c := range order {
		h.Write([]byte(c.String()))
	}
	return hex.EncodeToString(h.Sum(nil))
}

// next deals the next card; it reports whether the warning card came out
// before it.
func (s *sabot) next() (cards.Card, bool, error) {
	if s.pos >= len(s.order) {
		return cards.Card{}, false, fmt.Errorf("the sabot of %d cards is empty", len(s.order))
	}
	warn := !s.warned && s.pos >= len(s.order)-AfterWarning
	if warn {
		s.warned = true
	}
	c := s.order[s.pos]
	s.pos++
	return c, warn, nil
}

// left is the cards not dealt.
func (s *sabot) left() int { return len(s.order) - s.pos }
