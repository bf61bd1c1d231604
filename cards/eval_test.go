package cards_test

import (
	"math/rand/v2"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/openegm/cabinet/cards"
	"github.com/openegm/cabinet/cards/cardstest"
)

func hand(t testing.TB, s string) []cards.Card {
	t.Helper()
	var h []cards.Card
	for _, f := range strings.Fields(s) {
		c, err := cards.Parse(f)
		if err != nil {
			t.Fatal(err)
		}
		h = append(h, c)
	}
	return h
}

func five(t testing.TB, s string) [5]cards.Card {
	t.Helper()
	h := hand(t, s)
	if len(h) != 5 {
		t.Fatalf("%q: %d cards", s, len(h))
	}
	return [5]cards.Card(h)
}

// sameOrder checks that two evaluations order the same hands the same way:
// the fast value is a function of the reference key and the reverse, and
// sorting by one sorts by the other. fast[i] and ref[i] rank hand i.
type sameOrder struct {
	byValue map[cards.HandValue]cardstest.Key
	byKey   map[cardstest.Key]cards.HandValue
}

func newSameOrder() *sameOrder {
	return &sameOrder{map[cards.HandValue]cardstest.Key{}, map[cardstest.Key]cards.HandValue{}}
}

func (s *sameOrder) add(t testing.TB, v cards.HandValue, k cardstest.Key, what func() string) {
	if old, ok := s.byValue[v]; ok && old != k {
		t.Fatalf("%s: value %d also has key %v, here %v", what(), v, old, k)
	}
	if old, ok := s.byKey[k]; ok && old != v {
		t.Fatalf("%s: key %v also has value %d, here %d", what(), k, old, v)
	}
	s.byValue[v], s.byKey[k] = k, v
}

// check sorts the distinct values and demands that their keys come out
// sorted too.
func (s *sameOrder) check(t testing.TB) {
	vs := make([]cards.HandValue, 0, len(s.byValue))
	for v := range s.byValue {
		vs = append(vs, v)
	}
	slices.Sort(vs)
	for i := 1; i < len(vs); i++ {
		if cardstest.Compare(s.byValue[vs[i-1]], s.byValue[vs[i]]) >= 0 {
			t.Fatalf("value %d < %d but keys %v >= %v", vs[i-1], vs[i], s.byValue[vs[i-1]], s.byValue[vs[i]])
		}
	}
}

// Published counts of the 52-card deck (five cards; best five of seven).
var published52Five = map[cards.Category]uint64{
	cards.RoyalFlush: 4, cards.StraightFlush: 36, cards.FourOfAKind: 624, cards.FullHouse: 3744,
	cards.Flush: 5108, cards.Straight: 10200, cards.ThreeOfAKind: 54912, cards.TwoPair: 123552,
	cards.OnePair: 1098240, cards.HighCard: 1302540,
}

var published52Seven = map[cards.Category]uint64{
	cards.RoyalFlush: 4324, cards.StraightFlush: 37260, cards.FourOfAKind: 224848,
	cards.FullHouse: 3473184, cards.Flush: 4047644, cards.Straight: 6180020,
	cards.ThreeOfAKind: 6461620, cards.TwoPair: 31433400, cards.OnePair: 58627800,
	cards.HighCard: 23294460,
}

// Every five-card hand of the 52-card deck: the table-driven values order
// the hands exactly as the reference evaluator does, there are 7462 classes,
// and the category counts are the published ones.
func TestEval52EveryFiveCardHand(t *testing.T) {
	r := cards.Holdem52()
	if r.Classes() != 7462 {
		t.Fatalf("%d classes, want 7462", r.Classes())
	}
	d := cards.Standard52()
	so := newSameOrder()
	counts := map[cards.Category]uint64{}
	eachFive(len(d), func(ix [5]int) {
		h := [5]cards.Card{d[ix[0]], d[ix[1]], d[ix[2]], d[ix[3]], d[ix[4]]}
		v := cards.Eval52(h[:]...)
		k := cardstest.Naive52(h)
		if r.Category(v) != cardstest.Category52(k) {
			t.Fatalf("%v: category %v, reference %v", h, r.Category(v), cardstest.Category52(k))
		}
		so.add(t, v, k, func() string { return fmt2(h[:]) })
		counts[r.Category(v)]++
	})
	so.check(t)
	if len(so.byValue) != 7462 {
		t.Fatalf("%d distinct values", len(so.byValue))
	}
	for c, n := range published52Five {
		if counts[c] != n {
			t.Errorf("%v: %d hands, published %d", c, counts[c], n)
		}
	}
	if got := cards.Count52Five(); !equalCounts(got, published52Five) {
		t.Errorf("Count52Five %v", got)
	}
}

func equalCounts(got cards.CategoryCounts, want map[cards.Category]uint64) bool {
	var sum uint64
	for c, n := range want {
		if got[c] != n {
			return false
		}
		sum += n
	}
	return got.Total() == sum
}

func fmt2(h []cards.Card) string {
	s := make([]string, len(h))
	for i, c := range h {
		s[i] = c.String()
	}
	return strings.Join(s, " ")
}

func eachFive(n int, f func([5]int)) {
	for a := 0; a < n; a++ {
		for b := a + 1; b < n; b++ {
			for c := b + 1; c < n; c++ {
				for d := c + 1; d < n; d++ {
					for e := d + 1; e < n; e++ {
						f([5]int{a, b, c, d, e})
					}
				}
			}
		}
	}
}

// Random seven-card hands: the table evaluation (three ways in) is the best
// of the 21 five-card hands by the reference evaluator.
func TestEval52SevenCardsAgainstBestOfTwentyOne(t *testing.T) {
	n := 100000
	if testing.Short() {
		n = 20000
	}
	rnd := rand.New(rand.NewPCG(1, 2))
	d := cards.Standard52()
	ev := cards.NewEvaluator52()
	so := newSameOrder()
	for range n {
		rnd.Shuffle(len(d), func(i, j int) { d[i], d[j] = d[j], d[i] })
		h := [7]cards.Card(d[:7])
		v := ev.Eval7(&h)
		var acc cards.Hand52
		for _, c := range h {
			acc = acc.Add(c)
		}
		if acc.Value() != v || cards.Eval52(h[:]...) != v {
			t.Fatalf("%s: Eval7 %d, Hand52 %d, Eval52 %d", fmt2(h[:]), v, acc.Value(), cards.Eval52(h[:]...))
		}
		k := cardstest.Best52(h[:])
		so.add(t, v, k, func() string { return fmt2(h[:]) })
		if got, want := cards.Holdem52().Category(v), cardstest.Category7(h); got != want {
			t.Fatalf("%s: category %v, reference %v", fmt2(h[:]), got, want)
		}
		six := h[:6]
		so.add(t, cards.Eval52(six...), cardstest.Best52(six), func() string { return fmt2(six) })
	}
	so.check(t)
}

// All 133,784,560 seven-card hands: the published category counts.
func TestCount52SevenPublished(t *testing.T) {
	if testing.Short() {
		t.Skip("133 million hands")
	}
	if got := cards.Count52Seven(); !equalCounts(got, published52Seven) {
		t.Fatalf("Count52Seven %v", got)
	}
}

// POKER_LONG=1: the seven-card counts again by the reference classifier,
// hand by hand (a few minutes).
func TestCount52SevenReference(t *testing.T) {
	if os.Getenv("POKER_LONG") == "" {
		t.Skip("POKER_LONG=1 runs the reference over all 133 million hands")
	}
	d := cards.Standard52()
	var got cards.CategoryCounts
	n := len(d)
	var h [7]cards.Card
	for a := 0; a < n; a++ {
		h[0] = d[a]
		for b := a + 1; b < n; b++ {
			h[1] = d[b]
			for c := b + 1; c < n; c++ {
				h[2] = d[c]
				for e := c + 1; e < n; e++ {
					h[3] = d[e]
					for f := e + 1; f < n; f++ {
						h[4] = d[f]
						for g := f + 1; g < n; g++ {
							h[5] = d[g]
							for i := g + 1; i < n; i++ {
								h[6] = d[i]
								got[cardstest.Category7(h)]++
							}
						}
					}
				}
			}
		}
	}
	if !equalCounts(got, published52Seven) {
		t.Fatalf("reference counts %v", got)
	}
}
