package cards

import (
	"fmt"
	"slices"
	"strings"
)

// HandValue orders the hands of one ranking: the higher value beats the
// lower, equal values tie. Values of different rankings do not compare.
// A value is a dense class number (1 is the lowest hand of its ranking), so
// the number of classes of a ranking is its highest value.
type HandValue uint16

// Category is a kind of poker hand. The order of the constants is not the
// order of any ranking: each Ranking lists its categories lowest first.
type Category uint8

const (
	HighCard Category = iota
	OnePair
	TwoPair
	// FiguresOnePair is "figuras simples" (Portaria 817/2005, synthetic
	// poker rule 35): five figures (ace, king, queen, jack), so the four
	// figure ranks and one of them twice.
	FiguresOnePair
	// FiguresTwoPair is "figuras com pares" (rule 34): five figures forming
	// two pairs.
	FiguresTwoPair
	ThreeOfAKind
	Straight
	Flush
	FullHouse
	FourOfAKind
	StraightFlush
	RoyalFlush
	numCategories
)

var categoryNames = [numCategories][2]string{
	HighCard:       {"carta mais alta", "high card"},
	OnePair:        {"um par", "one pair"},
	TwoPair:        {"dois pares", "two pairs"},
	FiguresOnePair: {"figuras simples", "figures, one pair"},
	FiguresTwoPair: {"figuras com pares", "figures with two pairs"},
	ThreeOfAKind:   {"trio", "three of a kind"},
	Straight:       {"sequência", "straight"},
	Flush:          {"cor", "flush"},
	FullHouse:      {"fullen", "full house"},
	FourOfAKind:    {"póquer", "four of a kind"},
	StraightFlush:  {"sequência de cor", "straight flush"},
	RoyalFlush:     {"sequência real de cor", "royal flush"},
}

// Name is the category's name in Portuguese ("pt", the default) or English
// ("en").
func (c Category) Name(lang string) string {
	if c >= numCategories {
		return fmt.Sprintf("category %d", uint8(c))
	}
	if lang == "en" {
		return categoryNames[c][1]
	}
	return categoryNames[c][0]
}

func (c Category) String() string { return c.Name("en") }

// Ranking is a way of ranking five-card poker hands.
type Ranking struct {
	name       string
	categories []Category // lowest first
	// catOf[v] is the category of class v (index 0 unused).
	catOf []Category
	// best[v] is one five-card hand of class v, for descriptions and tests.
	best [][5]Card
}

// Name says which ranking this is.
func (r *Ranking) Name() string { return r.name }

// Categories lists the ranking's categories, lowest first.
func (r *Ranking) Categories() []Category { return append([]Category(nil), r.categories...) }

// Classes is the number of distinct hand values (the highest value).
func (r *Ranking) Classes() int { return len(r.catOf) - 1 }

// Category is the category of a hand value of this ranking.
func (r *Ranking) Category(v HandValue) Category {
	if int(v) >= len(r.catOf) || v == 0 {
		return numCategories
	}
	return r.catOf[v]
}

// Example is a five-card hand of value v (one of many), highest card first.
func (r *Ranking) Example(v HandValue) [5]Card {
	if int(v) >= len(r.best) {
		return [5]Card{}
	}
	return r.best[v]
}

// Describe names a hand value for people: its category and an example of its
// cards ("fullen: KC KD KH 9C 9D").
func (r *Ranking) Describe(v HandValue, lang string) string {
	if v == 0 || int(v) >= len(r.catOf) {
		return fmt.Sprintf("value %d", v)
	}
	ex := r.best[v]
	s := make([]string, 0, 5)
	for _, c := range ex {
		s = append(s, rankLetters[c.Rank-1:c.Rank])
	}
	return r.catOf[v].Name(lang) + ": " + strings.Join(s, " ")
}

// rawValue is how the table builders order hands before classes are numbered:
// the category's position in its ranking, then up to five ranks (4 bits
// each, most significant first) that break ties within the category.
type rawValue uint32

func raw(pos int, ranks ...int) rawValue {
	v := rawValue(pos)
	for i := range 5 {
		v <<= 4
		if i < len(ranks) {
			v |= rawValue(ranks[i])
		}
	}
	return v
}

func (v rawValue) pos() int { return int(v >> 20) }

// classes numbers the raw values of a ranking's five-card hands densely, in
// order, and keeps one example hand of each.
type classes struct {
	ranking  string
	pos2cat  []Category // the ranking's categories, lowest first
	examples map[rawValue][5]Card
}

func newClasses(ranking string, pos2cat ...Category) *classes {
	return &classes{ranking: ranking, pos2cat: pos2cat, examples: map[rawValue][5]Card{}}
}

func (c *classes) see(v rawValue, hand [5]Card) {
	if _, ok := c.examples[v]; !ok {
		c.examples[v] = hand
	}
}

// finish numbers the values seen and returns the ranking and the number of
// each raw value.
func (c *classes) finish() (*Ranking, map[rawValue]HandValue) {
	vals := make([]rawValue, 0, len(c.examples))
	for v := range c.examples {
		vals = append(vals, v)
	}
	slices.Sort(vals)
	r := &Ranking{name: c.ranking, categories: c.pos2cat,
		catOf: make([]Category, len(vals)+1), best: make([][5]Card, len(vals)+1)}
	num := make(map[rawValue]HandValue, len(vals))
	for i, v := range vals {
		num[v] = HandValue(i + 1)
		r.catOf[i+1] = c.pos2cat[v.pos()]
		r.best[i+1] = aceLowLast(r.catOf[i+1], c.examples[v])
	}
	return r, num
}

// aceLowLast writes a straight in which the ace plays low with the ace last
// (5 4 3 2 A, J T 9 8 A), as people read it.
func aceLowLast(cat Category, h [5]Card) [5]Card {
	if (cat == Straight || cat == StraightFlush) && h[0].Rank == Ace && h[1].Rank != King {
		return [5]Card{h[1], h[2], h[3], h[4], h[0]}
	}
	return h
}
