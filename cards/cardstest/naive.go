// Package cardstest holds reference poker evaluators written to be read
// against the rules rather than to be fast. The tests check the table-driven
// evaluators of package cards, the hand-count tool and the table engines'
// showdowns against them; nothing else uses them.
package cardstest

import (
	"cmp"
	"slices"

	"github.com/openegm/cabinet/cards"
)

// Key orders hands of one ranking: the category's place in the ranking (0
// is the lowest), then the card values the rules compare, in the order they
// compare them. Keys compare lexicographically.
type Key [6]int

// Compare is -1, 0 or +1 as a is lower than, ties or beats b.
func Compare(a, b Key) int { return slices.Compare(a[:], b[:]) }

func key(place int, values ...int) Key {
	var k Key
	k[0] = place
	copy(k[1:], values)
	return k
}

// group is the cards of one value in a hand.
type group struct{ n, value int }

// shape sorts a hand's values highest first and groups equal values, the
// largest groups first (then the higher value).
func shape(values []int) (desc []int, groups []group) {
	desc = slices.Clone(values)
	slices.SortFunc(desc, func(a, b int) int { return b - a })
	for _, v := range desc {
		if len(groups) > 0 && groups[len(groups)-1].value == v {
			groups[len(groups)-1].n++
		} else {
			groups = append(groups, group{1, v})
		}
	}
	slices.SortStableFunc(groups, func(a, b group) int {
		return cmp.Or(b.n-a.n, b.value-a.value)
	})
	return desc, groups
}

func sameSuit(h [5]cards.Card) bool {
	for _, c := range h {
		if c.Suit != h[0].Suit {
			return false
		}
	}
	return true
}

func pattern(groups []group) []int {
	p := make([]int, len(groups))
	for i, g := range groups {
		p[i] = g.n
	}
	return p
}

func is(groups []group, counts ...int) bool { return slices.Equal(pattern(groups), counts) }

func groupValues(groups []group) []int {
	v := make([]int, len(groups))
	for i, g := range groups {
		v[i] = g.value
	}
	return v
}

// value52 is a card's value in the 52-card ranking: 2 to 14 (the ace).
func value52(r cards.Rank) int {
	if r == cards.Ace {
		return 14
	}
	return int(r)
}

// Places in the 52-card ranking (SRIJ draft, rule 34, lowest first).
var places52 = []cards.Category{cards.HighCard, cards.OnePair, cards.TwoPair, cards.ThreeOfAKind,
	cards.Straight, cards.Flush, cards.FullHouse, cards.FourOfAKind, cards.StraightFlush, cards.RoyalFlush}

// Places in the Portuguese ranking (Portaria 817/2005, rule 24, lowest first).
var places28 = []cards.Category{cards.HighCard, cards.OnePair, cards.TwoPair, cards.FiguresOnePair,
	cards.FiguresTwoPair, cards.ThreeOfAKind, cards.Straight, cards.FullHouse, cards.Flush,
	cards.FourOfAKind, cards.StraightFlush, cards.RoyalFlush}

// Category52 and Category28 name the category of a key of each ranking.
func Category52(k Key) cards.Category { return places52[k[0]] }
func Category28(k Key) cards.Category { return places28[k[0]] }

// Naive52 ranks five cards under the 52-card ranking.
func Naive52(h [5]cards.Card) Key {
	values := make([]int, 5)
	for i, c := range h {
		values[i] = value52(c.Rank)
	}
	desc, groups := shape(values)
	flush := sameSuit(h)
	high := 0 // the top card of a straight
	if len(groups) == 5 {
		if desc[0]-desc[4] == 4 {
			high = desc[0]
		} else if slices.Equal(desc, []int{14, 5, 4, 3, 2}) {
			high = 5
		}
	}
	switch {
	case flush && high == 14:
		return key(9)
	case flush && high > 0:
		return key(8, high)
	case is(groups, 4, 1):
		return key(7, groupValues(groups)...)
	case is(groups, 3, 2):
		return key(6, groupValues(groups)...)
	case flush:
		return key(5, desc...)
	case high > 0:
		return key(4, high)
	case is(groups, 3, 1, 1):
		return key(3, groupValues(groups)...)
	case is(groups, 2, 2, 1):
		return key(2, groupValues(groups)...)
	case is(groups, 2, 1, 1, 1):
		return key(1, groupValues(groups)...)
	}
	return key(0, desc...)
}

// Best52 is the best key of any five of the cards (5 to 7).
func Best52(cs []cards.Card) Key {
	var best Key
	best[0] = -1
	eachFive(cs, func(h [5]cards.Card) {
		if k := Naive52(h); Compare(k, best) > 0 {
			best = k
		}
	})
	return best
}

func eachFive(cs []cards.Card, f func([5]cards.Card)) {
	n := len(cs)
	for a := 0; a < n; a++ {
		for b := a + 1; b < n; b++ {
			for c := b + 1; c < n; c++ {
				for d := c + 1; d < n; d++ {
					for e := d + 1; e < n; e++ {
						f([5]cards.Card{cs[a], cs[b], cs[c], cs[d], cs[e]})
					}
				}
			}
		}
	}
}

// Category7 is the category of the best five of seven cards, decided from
// the counts of ranks and suits, category by category from the highest.
func Category7(h [7]cards.Card) cards.Category {
	var byRank [15]int
	var bySuit [4]int
	var suitRanks [4][15]bool
	for _, c := range h {
		v := value52(c.Rank)
		byRank[v]++
		bySuit[c.Suit]++
		suitRanks[c.Suit][v] = true
	}
	run := func(has func(v int) bool) int { // the top of the highest five in a row
		for top := 14; top >= 5; top-- {
			ok := true
			for v := top; v > top-5; v-- {
				w := v
				if w == 1 {
					w = 14
				}
				if !has(w) {
					ok = false
					break
				}
			}
			if ok {
				return top
			}
		}
		return 0
	}
	for s := range 4 {
		if bySuit[s] >= 5 {
			switch run(func(v int) bool { return suitRanks[s][v] }) {
			case 14:
				return cards.RoyalFlush
			case 0:
			default:
				return cards.StraightFlush
			}
		}
	}
	var twos, threes, fours int
	for _, n := range byRank {
		if n >= 2 {
			twos++
		}
		if n >= 3 {
			threes++
		}
		if n == 4 {
			fours++
		}
	}
	flush := slices.Max(bySuit[:]) >= 5
	switch {
	case fours > 0:
		return cards.FourOfAKind
	case threes > 0 && twos >= 2:
		return cards.FullHouse
	case flush:
		return cards.Flush
	case run(func(v int) bool { return byRank[v] > 0 }) > 0:
		return cards.Straight
	case threes > 0:
		return cards.ThreeOfAKind
	case twos >= 2:
		return cards.TwoPair
	case twos == 1:
		return cards.OnePair
	}
	return cards.HighCard
}

// value28 is a card's value in synthetic poker: 8 to 14 (the ace, which
// also plays as 7, before the 8, in a sequence).
func value28(r cards.Rank) int { return value52(r) }

// Naive28 ranks five cards of the 28-card deck under the Portuguese ranking,
// rule by rule (Portaria 817/2005, Title II, Section II, rules 24-37).
func Naive28(h [5]cards.Card) Key {
	values := make([]int, 5)
	figures := true // rule 34: ace, king, queen, jack
	for i, c := range h {
		values[i] = value28(c.Rank)
		if values[i] < 11 {
			figures = false
		}
	}
	desc, groups := shape(values)
	flush := sameSuit(h)
	high := 0
	if len(groups) == 5 {
		if desc[0]-desc[4] == 4 {
			high = desc[0]
		} else if slices.Equal(desc, []int{14, 11, 10, 9, 8}) { // rule 4: A 8 9 10 J
			high = 11
		}
	}
	switch {
	case flush && high == 14: // rule 27
		return key(11)
	case flush && high > 0: // rule 28
		return key(10, high)
	case is(groups, 4, 1): // rule 29
		return key(9, groupValues(groups)...)
	case flush: // rule 30: above the fullen
		return key(8, desc...)
	case is(groups, 3, 2): // rule 31
		return key(7, groupValues(groups)...)
	case high > 0: // rule 32
		return key(6, high)
	case is(groups, 3, 1, 1): // rule 33
		return key(5, groupValues(groups)...)
	case figures && is(groups, 2, 2, 1): // rule 34
		return key(4, groupValues(groups)...)
	case figures: // rule 35: five figures are always A K Q J and a pair here
		return key(3, desc...)
	case is(groups, 2, 2, 1): // rule 36
		return key(2, groupValues(groups)...)
	case is(groups, 2, 1, 1, 1): // rule 37
		return key(1, groupValues(groups)...)
	}
	return key(0, desc...) // rule 25
}

// BestSynthetic is the best key of the two hole cards with any three of the
// five community cards (rule 1).
func BestSynthetic(hole [2]cards.Card, board [5]cards.Card) Key {
	var best Key
	best[0] = -1
	for a := 0; a < 5; a++ {
		for b := a + 1; b < 5; b++ {
			for c := b + 1; c < 5; c++ {
				k := Naive28([5]cards.Card{hole[0], hole[1], board[a], board[b], board[c]})
				if Compare(k, best) > 0 {
					best = k
				}
			}
		}
	}
	return best
}
