package cards

import (
	"fmt"
	"math/bits"
	"sync"
)

// The Portuguese ranking of synthetic poker (Portaria 817/2005, Title II,
// Section II, rules 24-37) over the 28-card deck (8 to ace, rule 4). From
// the highest (rule 24, a to k, as rules 27-37 define them):
//
//	a sequência real de cor  T J Q K A of one suit
//	b sequência de cor       any other straight of one suit
//	c póquer                 four of a kind
//	d cor                    five of one suit, not a straight (above fullen)
//	e fullen                 three of a kind and a pair
//	f sequência              five in sequence, not all one suit
//	g trio                   three of a kind, two other ranks
//	h figuras com pares      five figures (A K Q J) forming two pairs
//	i figuras simples        five figures, no trio or fullen: A K Q J and one pair
//	j dois pares             two pairs
//	k um par                 one pair
//	  (rule 25)              none of these: the highest card wins
//
// In a sequence the ace is the highest card (T J Q K A) or the lowest,
// before the 8 (A 8 9 T J, the lowest sequence, rule 4). docs/poker.md gives
// the tie-breaks and the choices where the rules are silent.
//
// Tables: a hand of five cards sums a key card by card, the cards of each
// rank counted in base 5 (5^7 = 78125 multisets, a direct table) and of each
// suit in a nibble that starts at 3, so that five cards of one suit set its
// top bit. The flush table has the 128 masks of the 7 ranks.

// Synthetic28 is the Portuguese ranking of synthetic poker.
func Synthetic28() *Ranking { return tables28().ranking }

const (
	ranks28    = 7
	suitBias28 = uint64(0x3333) << 32
)

var pos28 = []Category{HighCard, OnePair, TwoPair, FiguresOnePair, FiguresTwoPair, ThreeOfAKind,
	Straight, FullHouse, Flush, FourOfAKind, StraightFlush, RoyalFlush}

type evalTables28 struct {
	ranking *Ranking
	key     [4][16]uint64
	bit     [4][16]uint32 // per card: its rank's bit (0-6) in its suit's byte
	flush   [1 << ranks28]HandValue
	value   []HandValue // by base-5 key
}

var tables28 = sync.OnceValue(build28)

// index28 is a rank's place in the 28-card deck: 0 for the 8 to 6 for the
// ace; -1 for ranks the deck does not have.
func index28(r Rank) int {
	switch {
	case r == Ace:
		return 6
	case r >= 8 && r <= King:
		return int(r) - 8
	}
	return -1
}

func rankOf28(i int) Rank {
	if i == 6 {
		return Ace
	}
	return Rank(i + 8)
}

// Eval28 is the value of five distinct cards of the 28-card deck under the
// Portuguese ranking. A card outside the deck is a programming error: it
// panics.
func Eval28(h [5]Card) HandValue {
	t := tables28()
	for _, c := range h {
		if index28(c.Rank) < 0 || !c.Valid() {
			panic(fmt.Sprintf("cards: %s is not a card of the 28-card deck", c))
		}
	}
	return t.eval5(&h)
}

func (t *evalTables28) eval5(h *[5]Card) HandValue {
	k := suitBias28 + t.key[h[0].Suit&3][h[0].Rank&15] + t.key[h[1].Suit&3][h[1].Rank&15] +
		t.key[h[2].Suit&3][h[2].Rank&15] + t.key[h[3].Suit&3][h[3].Rank&15] + t.key[h[4].Suit&3][h[4].Rank&15]
	if k&flushBits != 0 {
		m := t.bit[h[0].Suit&3][h[0].Rank&15] | t.bit[h[1].Suit&3][h[1].Rank&15] |
			t.bit[h[2].Suit&3][h[2].Rank&15] | t.bit[h[3].Suit&3][h[3].Rank&15] | t.bit[h[4].Suit&3][h[4].Rank&15]
		return t.flush[m]
	}
	return t.value[uint32(k)]
}

// triples are the ten ways to take three of five community cards.
var triples = func() (tr [10][3]uint8) {
	n := 0
	for a := range 5 {
		for b := a + 1; b < 5; b++ {
			for c := b + 1; c < 5; c++ {
				tr[n] = [3]uint8{uint8(a), uint8(b), uint8(c)}
				n++
			}
		}
	}
	return tr
}()

// BestSynthetic is the best hand of synthetic poker (rule 1): exactly the
// two hole cards and three of the five community cards. It returns the value
// and the five cards that make it (the hole cards first).
func BestSynthetic(hole [2]Card, board [5]Card) (HandValue, [5]Card) {
	t := tables28()
	for _, c := range append(hole[:], board[:]...) {
		if index28(c.Rank) < 0 || !c.Valid() {
			panic(fmt.Sprintf("cards: %s is not a card of the 28-card deck", c))
		}
	}
	var best HandValue
	var bestHand [5]Card
	for _, tr := range triples {
		h := [5]Card{hole[0], hole[1], board[tr[0]], board[tr[1]], board[tr[2]]}
		if v := t.eval5(&h); v > best {
			best, bestHand = v, h
		}
	}
	return best, bestHand
}

// Evaluator28 evaluates synthetic-poker deals in a hot loop (no lazy-init
// check, no card validation: the caller deals from the 28-card deck).
type Evaluator28 struct{ t *evalTables28 }

// NewEvaluator28 returns an evaluator (building the tables if needed).
func NewEvaluator28() Evaluator28 { return Evaluator28{tables28()} }

// Eval5 is Eval28 without the checks.
func (e Evaluator28) Eval5(h *[5]Card) HandValue { return e.t.eval5(h) }

// BestSynthetic is the package function's value, without the checks: the
// hole cards' keys are summed once and each triple of the board added.
func (e Evaluator28) BestSynthetic(hole *[2]Card, board *[5]Card) HandValue {
	t := e.t
	hk := suitBias28 + t.key[hole[0].Suit&3][hole[0].Rank&15] + t.key[hole[1].Suit&3][hole[1].Rank&15]
	hb := t.bit[hole[0].Suit&3][hole[0].Rank&15] | t.bit[hole[1].Suit&3][hole[1].Rank&15]
	var bk [5]uint64
	var bb [5]uint32
	for i, c := range board {
		bk[i], bb[i] = t.key[c.Suit&3][c.Rank&15], t.bit[c.Suit&3][c.Rank&15]
	}
	var best HandValue
	for _, tr := range triples {
		k := hk + bk[tr[0]] + bk[tr[1]] + bk[tr[2]]
		var v HandValue
		if k&flushBits != 0 {
			v = t.flush[hb|bb[tr[0]]|bb[tr[1]]|bb[tr[2]]]
		} else {
			v = t.value[uint32(k)]
		}
		best = max(best, v)
	}
	return best
}

// straightTop28 is the top rank index of the straight in a mask of the 7
// ranks, or -1; A 8 9 T J (the ace low, rule 4) has the jack on top.
func straightTop28(mask uint32) int {
	for top := 6; top >= 4; top-- {
		run := uint32(0x1f) << (top - 4)
		if mask&run == run {
			return top
		}
	}
	const aceLow = 1<<6 | 0xf
	if mask == aceLow {
		return 3
	}
	return -1
}

// raw28 is the place of five cards in the Portuguese ranking: rule 24's
// category, then the ranks rules 25-37 compare, in the order they compare
// them.
func raw28(cnt []int, flush bool) rawValue {
	var mask, pairs uint32
	trip, quad := -1, -1
	figures := true
	for r, c := range cnt {
		if c == 0 {
			continue
		}
		mask |= 1 << r
		if r < 3 { // 8, 9, 10 are not figures (rule 34)
			figures = false
		}
		switch c {
		case 2:
			pairs |= 1 << r
		case 3:
			trip = r
		case 4:
			quad = r
		}
	}
	top := straightTop28(mask)
	switch {
	case flush && top == 6:
		return raw(11) // rule 27: one royal per suit, and no tie is possible
	case flush && top >= 0:
		return raw(10, top) // rule 28
	case quad >= 0:
		return raw(9, quad, topBits(mask, 1, quad)[0]) // rule 29
	case flush:
		return raw(8, topBits(mask, 5)...) // rule 30, card by card from the highest
	case trip >= 0 && pairs != 0:
		return raw(7, trip, topBits(pairs, 1)[0]) // rule 31
	case top >= 0:
		return raw(6, top) // rule 32
	case trip >= 0:
		return raw(5, append([]int{trip}, topBits(mask, 2, trip)...)...) // rule 33
	case figures && bits.OnesCount32(pairs) == 2:
		p := topBits(pairs, 2)
		return raw(4, p[0], p[1], topBits(mask, 1, p...)[0]) // rule 34
	case figures:
		// Rule 35: the figures of higher value, card by card from the
		// highest (the four figure ranks are all there: the pair decides).
		return raw(3, descending(cnt)...)
	case bits.OnesCount32(pairs) == 2:
		p := topBits(pairs, 2)
		return raw(2, p[0], p[1], topBits(mask, 1, p...)[0]) // rule 36
	case pairs != 0:
		p := topBits(pairs, 1)[0]
		return raw(1, append([]int{p}, topBits(mask, 3, p)...)...) // rule 37
	}
	return raw(0, topBits(mask, 5)...) // rule 25, card by card
}

// descending lists the rank index of every card, highest first.
func descending(cnt []int) []int {
	var out []int
	for r := len(cnt) - 1; r >= 0; r-- {
		for range cnt[r] {
			out = append(out, r)
		}
	}
	return out
}

func build28() *evalTables28 {
	t := &evalTables28{value: make([]HandValue, pow5[ranks28])}
	for s := range 4 {
		for r := Ace; r <= King; r++ {
			if i := index28(r); i >= 0 {
				t.key[s][r] = uint64(pow5[i]) | 1<<(32+4*s)
				t.bit[s][r] = 1 << i
			}
		}
	}
	cl := newClasses("28", pos28...)
	multisets(ranks28, 5, 5, func(cnt []int, _ int) {
		cl.see(raw28(cnt, false), exampleOf(cnt, rankOf28))
	})
	cnt := make([]int, ranks28)
	for m := uint32(0); m < 1<<ranks28; m++ {
		if bits.OnesCount32(m) == 5 {
			for r := range cnt {
				cnt[r] = int(m >> r & 1)
			}
			cl.see(raw28(cnt, true), flushExample(m, rankOf28))
		}
	}
	var num map[rawValue]HandValue
	t.ranking, num = cl.finish()
	t.ranking.name = "synthetic poker (28 cards)"
	for m := uint32(0); m < 1<<ranks28; m++ {
		if bits.OnesCount32(m) == 5 {
			for r := range cnt {
				cnt[r] = int(m >> r & 1)
			}
			t.flush[m] = num[raw28(cnt, true)]
		}
	}
	multisets(ranks28, 5, 5, func(cnt []int, _ int) {
		var k uint32
		for r, c := range cnt {
			k += uint32(c) * pow5[r]
		}
		t.value[k] = num[raw28(cnt, false)]
	})
	return t
}
