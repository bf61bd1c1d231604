package cards

import (
	"fmt"
	"math/bits"
	"sync"
)

// The 52-card ranking (the SRIJ hold'em draft, rule 34, the usual poker
// ranking): evaluation of 5, 6 or 7 cards (the best five of them) with small
// tables built when first used (about 400 KB, a few milliseconds).
//
// How it works. A hand is summed card by card into one 64-bit key:
//   - the low 32 bits count the cards of each rank in base 5 (a rank has at
//     most 4 cards, so the sum identifies the multiset of ranks);
//   - bits 32-47 count the cards of each suit, one nibble per suit, starting
//     at 3: a nibble reaches 8 (its top bit) exactly when the suit has five
//     cards, so one mask tells whether there is a flush (at most 7 cards: a
//     nibble never passes 10).
//
// A second word ORs one bit per card (16 bits per suit), which gives the
// flush suit's ranks. With a flush, a table of the 8192 masks of 13 ranks
// gives the value (with at most 7 cards, a flush excludes four of a kind and
// a full house, so the flush is the best hand). Without one, the value
// depends only on the multiset of ranks: its base-5 key goes through a
// perfect hash (hash and displace) into a table of every multiset of 5, 6 or
// 7 ranks.

// Holdem52 is the 52-card ranking, from high card to royal flush.
func Holdem52() *Ranking { return tables52().ranking }

const (
	ranks52 = 13
	// suitBias starts every suit's nibble at 3.
	suitBias52 = uint64(0x3333) << 32
	flushBits  = uint64(0x8888) << 32
)

// pos52 are the 52-card ranking's categories, lowest first.
var pos52 = []Category{HighCard, OnePair, TwoPair, ThreeOfAKind, Straight, Flush, FullHouse, FourOfAKind, StraightFlush, RoyalFlush}

type evalTables52 struct {
	ranking *Ranking
	key     [4][16]uint64 // per card: 5^rank + its suit's nibble
	bit     [4][16]uint64 // per card: its bit in the suit's 16
	flush   [1 << ranks52]HandValue
	// Perfect hashes of the multisets of ranks without a flush: one of the
	// 49,205 multisets of 7 ranks (64 K slots, 160 KB with its
	// displacements, so the hot path stays in a core's cache), one of those
	// of 5 and 6.
	seven, fewer perfectHash
}

var tables52 = sync.OnceValue(build52)

// index52 is a rank's place in the 52-card ranking: 0 for the two to 12 for
// the ace.
func index52(r Rank) int {
	if r == Ace {
		return 12
	}
	return int(r) - 2
}

var pow5 = func() (p [14]uint32) {
	p[0] = 1
	for i := 1; i < len(p); i++ {
		p[i] = p[i-1] * 5
	}
	return p
}()

// Eval52 is the value of the best five of 5, 6 or 7 distinct cards under
// the 52-card ranking.
func Eval52(cs ...Card) HandValue {
	t := tables52()
	if len(cs) < 5 || len(cs) > 7 {
		panic(fmt.Sprintf("cards: Eval52 of %d cards (5 to 7)", len(cs)))
	}
	k, m := suitBias52, uint64(0)
	for _, c := range cs {
		k += t.key[c.Suit&3][c.Rank&15]
		m |= t.bit[c.Suit&3][c.Rank&15]
	}
	return t.lookup(k, m, len(cs))
}

// Evaluator52 evaluates 7-card hands without the lazy-initialisation check
// of Eval52; it is what a hot loop holds.
type Evaluator52 struct{ t *evalTables52 }

// NewEvaluator52 returns an evaluator (building the tables if needed).
func NewEvaluator52() Evaluator52 { return Evaluator52{tables52()} }

// Eval7 is the value of the best five of seven distinct valid cards.
func (e Evaluator52) Eval7(h *[7]Card) HandValue {
	t := e.t
	k := suitBias52 + t.key[h[0].Suit&3][h[0].Rank&15] + t.key[h[1].Suit&3][h[1].Rank&15] +
		t.key[h[2].Suit&3][h[2].Rank&15] + t.key[h[3].Suit&3][h[3].Rank&15] +
		t.key[h[4].Suit&3][h[4].Rank&15] + t.key[h[5].Suit&3][h[5].Rank&15] +
		t.key[h[6].Suit&3][h[6].Rank&15]
	if k&flushBits == 0 {
		return t.seven.get(uint32(k))
	}
	m := t.bit[h[0].Suit&3][h[0].Rank&15] | t.bit[h[1].Suit&3][h[1].Rank&15] |
		t.bit[h[2].Suit&3][h[2].Rank&15] | t.bit[h[3].Suit&3][h[3].Rank&15] |
		t.bit[h[4].Suit&3][h[4].Rank&15] | t.bit[h[5].Suit&3][h[5].Rank&15] |
		t.bit[h[6].Suit&3][h[6].Rank&15]
	return t.flushOf(k, m)
}

// Hand52 accumulates cards, so the cards several hands share (a board) are
// summed once. The zero Hand52 is empty.
type Hand52 struct {
	key, bits uint64
	n         int
}

// Add returns the hand with c added (c must be valid and not in the hand).
func (h Hand52) Add(c Card) Hand52 {
	t := tables52()
	return Hand52{h.key + t.key[c.Suit&3][c.Rank&15], h.bits | t.bit[c.Suit&3][c.Rank&15], h.n + 1}
}

// Len is the number of cards added.
func (h Hand52) Len() int { return h.n }

// Value is the value of the best five cards of the hand (5 to 7 cards).
func (h Hand52) Value() HandValue {
	if h.n < 5 || h.n > 7 {
		panic(fmt.Sprintf("cards: value of a hand of %d cards (5 to 7)", h.n))
	}
	return tables52().lookup(h.key+suitBias52, h.bits, h.n)
}

// lookup is the value of a hand of n cards (5 to 7) from its key and bits.
func (t *evalTables52) lookup(k, m uint64, n int) HandValue {
	switch {
	case k&flushBits != 0:
		return t.flushOf(k, m)
	case n == 7:
		return t.seven.get(uint32(k))
	}
	return t.fewer.get(uint32(k))
}

func (t *evalTables52) flushOf(k, m uint64) HandValue {
	suit := bits.TrailingZeros64(k&flushBits) / 4 // the nibble (suit) that reached 8
	return t.flush[(m>>(16*uint(suit-8)))&(1<<ranks52-1)]
}

// straightTop52 is the top rank index of the highest straight in a mask of
// 13 ranks, or -1. The ace plays low only in 5-4-3-2-A, whose top is the 5.
func straightTop52(mask uint32) int {
	for top := 12; top >= 4; top-- {
		run := uint32(0x1f) << (top - 4)
		if mask&run == run {
			return top
		}
	}
	const wheel = 1<<12 | 0xf
	if mask&wheel == wheel {
		return 3
	}
	return -1
}

// topBits lists the n highest set rank indexes of mask, highest first,
// skipping the ranks in not.
func topBits(mask uint32, n int, not ...int) []int {
	out := make([]int, 0, n)
	for r := 31; r >= 0 && len(out) < n; r-- {
		if mask&(1<<r) == 0 || contains(not, r) {
			continue
		}
		out = append(out, r)
	}
	return out
}

func contains(s []int, v int) bool {
	for _, x := range s {
		if x == v {
			return true
		}
	}
	return false
}

// flushRaw52 is the best hand of a suit holding the ranks of mask (at
// least five).
func flushRaw52(mask uint32) rawValue {
	if top := straightTop52(mask); top == 12 {
		return raw(9, top)
	} else if top >= 0 {
		return raw(8, top)
	}
	return raw(5, topBits(mask, 5)...)
}

// ranksRaw52 is the best five-card hand, flushes aside, of 5 to 7 cards
// whose rank counts are cnt.
func ranksRaw52(cnt *[ranks52]int) rawValue {
	var mask, pairs, trips uint32
	quad := -1
	for r := range ranks52 {
		if cnt[r] > 0 {
			mask |= 1 << r
		}
		if cnt[r] >= 2 {
			pairs |= 1 << r
		}
		if cnt[r] >= 3 {
			trips |= 1 << r
		}
		if cnt[r] == 4 {
			quad = r
		}
	}
	if quad >= 0 {
		return raw(7, quad, topBits(mask, 1, quad)[0])
	}
	if trips != 0 {
		t := topBits(trips, 1)[0]
		if p := topBits(pairs, 1, t); len(p) == 1 {
			return raw(6, t, p[0])
		}
	}
	if top := straightTop52(mask); top >= 0 {
		return raw(4, top)
	}
	if trips != 0 {
		t := topBits(trips, 1)[0]
		return raw(3, append([]int{t}, topBits(mask, 2, t)...)...)
	}
	if p := topBits(pairs, 2); len(p) == 2 {
		return raw(2, p[0], p[1], topBits(mask, 1, p[0], p[1])[0])
	}
	if p := topBits(pairs, 1); len(p) == 1 {
		return raw(1, append(p, topBits(mask, 3, p[0])...)...)
	}
	return raw(0, topBits(mask, 5)...)
}

// rankOf52 is the card rank of a 52-ranking rank index.
func rankOf52(i int) Rank {
	if i == 12 {
		return Ace
	}
	return Rank(i + 2)
}

// multisets calls f with the rank counts of every multiset of size lo to hi
// over n ranks, each rank at most 4 times.
func multisets(n, lo, hi int, f func(cnt []int, size int)) {
	cnt := make([]int, n)
	var rec func(r, size int)
	rec = func(r, size int) {
		if r == n {
			if size >= lo {
				f(cnt, size)
			}
			return
		}
		for k := 0; k <= 4 && size+k <= hi; k++ {
			cnt[r] = k
			rec(r+1, size+k)
		}
		cnt[r] = 0
	}
	rec(0, 0)
}

// exampleOf deals cards for rank counts, most frequent and highest first,
// the suits turning so five cards are never one suit.
func exampleOf(cnt []int, rankOf func(int) Rank) [5]Card {
	var h [5]Card
	j := 0
	for k := 4; k >= 1; k-- {
		for r := len(cnt) - 1; r >= 0; r-- {
			if cnt[r] != k {
				continue
			}
			for range k {
				h[j] = Card{rankOf(r), Suit(j % 4)}
				j++
			}
		}
	}
	return h
}

func flushExample(mask uint32, rankOf func(int) Rank) [5]Card {
	var h [5]Card
	for i, r := range topBits(mask, 5) {
		h[i] = Card{rankOf(r), Spades}
	}
	return h
}

func build52() *evalTables52 {
	t := &evalTables52{}
	for s := range 4 {
		for r := Ace; r <= King; r++ {
			i := index52(r)
			t.key[s][r] = uint64(pow5[i]) | 1<<(32+4*s)
			t.bit[s][r] = 1 << (16*s + i)
		}
	}
	cl := newClasses("52", pos52...)
	multisets(ranks52, 5, 5, func(cnt []int, _ int) {
		cl.see(ranksRaw52((*[ranks52]int)(cnt)), exampleOf(cnt, rankOf52))
	})
	for m := uint32(0); m < 1<<ranks52; m++ {
		if bits.OnesCount32(m) == 5 {
			cl.see(flushRaw52(m), flushExample(m, rankOf52))
		}
	}
	var num map[rawValue]HandValue
	t.ranking, num = cl.finish()
	t.ranking.name = "hold'em (52 cards)"
	for m := uint32(0); m < 1<<ranks52; m++ {
		if bits.OnesCount32(m) >= 5 {
			t.flush[m] = num[flushRaw52(m)]
		}
	}
	for _, sizes := range []struct {
		ph     *perfectHash
		lo, hi int
	}{{&t.seven, 7, 7}, {&t.fewer, 5, 6}} {
		var keys []uint32
		var vals []HandValue
		multisets(ranks52, sizes.lo, sizes.hi, func(cnt []int, _ int) {
			var k uint32
			for r, c := range cnt {
				k += uint32(c) * pow5[r]
			}
			keys = append(keys, k)
			vals = append(vals, num[ranksRaw52((*[ranks52]int)(cnt))])
		})
		sizes.ph.build(keys, vals)
	}
	return t
}

// Best52 is the value of the best five of 5 to 7 cards and five cards that
// make it (for the showdown's display and records).
func Best52(cs []Card) (HandValue, [5]Card) {
	v := Eval52(cs...)
	var best [5]Card
	found := false
	eachSubset(len(cs), 5, func(ix []int) {
		h := [5]Card{cs[ix[0]], cs[ix[1]], cs[ix[2]], cs[ix[3]], cs[ix[4]]}
		if !found && Eval52(h[:]...) == v {
			best, found = h, true
		}
	})
	return v, best
}
