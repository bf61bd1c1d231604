package cards_test

import (
	"math/rand/v2"
	"os"
	"testing"

	"github.com/openegm/cabinet/cards"
	"github.com/openegm/cabinet/cards/cardstest"
)

// Every five-card hand of the 28-card deck: the table-driven Portuguese
// ranking orders the hands exactly as the rule-by-rule reference does, and
// Count28Five counts what the reference counts.
func TestEval28EveryFiveCardHand(t *testing.T) {
	r := cards.Synthetic28()
	d := cards.Portuguese28()
	so := newSameOrder()
	var ref cards.CategoryCounts
	eachFive(len(d), func(ix [5]int) {
		h := [5]cards.Card{d[ix[0]], d[ix[1]], d[ix[2]], d[ix[3]], d[ix[4]]}
		v := cards.Eval28(h)
		k := cardstest.Naive28(h)
		if r.Category(v) != cardstest.Category28(k) {
			t.Fatalf("%s: category %v, reference %v", fmt2(h[:]), r.Category(v), cardstest.Category28(k))
		}
		so.add(t, v, k, func() string { return fmt2(h[:]) })
		ref[cardstest.Category28(k)]++
	})
	so.check(t)
	if len(so.byValue) != r.Classes() {
		t.Fatalf("%d values seen, %d classes", len(so.byValue), r.Classes())
	}
	if got := cards.Count28Five(); got != ref || got.Total() != 98280 {
		t.Fatalf("Count28Five %v, reference %v", got, ref)
	}
}

// The rules of the Portaria, hand against hand: each line beats the next,
// "=" ties it.
func TestPortugueseRankingRules(t *testing.T) {
	ladder := []string{
		"TS JS QS KS AS",  // 27 sequência real de cor
		"9H TH JH QH KH",  // 28 sequência de cor
		"AD 8D 9D TD JD",  // 28 + 4: the ace low, the lowest sequência de cor
		"AS AH AD AC KS",  // 29 póquer
		"8S 8H 8D 8C 9S",  // 29
		"AS KS QS JS 9S",  // 30 cor, above the fullen
		"AH KH QH JH 8H",  // 30 compared card by card
		"=AD KD QD JD 8D", // 30 same values, another suit: a tie
		"KC QC JC TC 8C",  // 30
		"AS AH AD KS KH",  // 31 fullen
		"AS AH AD 8S 8H",  // 31 the trio decides first
		"KS KH KD AS AH",  // 31
		"KS KH KD QS QH",  // 31 equal trios are impossible in one deck, but the pair decides
		"TS JH QD KC AS",  // 32 sequência
		"9S TH JD QC KS",  // 32
		"8S 9H TD JC QS",  // 32
		"AS 8H 9D TC JS",  // 32 + 4: the ace before the 8, the lowest sequência
		"AS AH AD KS QH",  // 33 trio
		"AS AH AD KS JH",  // 33 the fourth card
		"AS AH AD QS JH",  // 33
		"8S 8H 8D AS KH",  // 33
		"AS AH KD KS QH",  // 34 figuras com pares
		"AS AH KD KS JH",  // 34 the fifth card
		"AS AH QD QS KH",  // 34 the other pair
		"KS KH QD QS AH",  // 34 the higher pair
		"QS QH JD JS KH",  // 34
		"AS AH KD QS JH",  // 35 figuras simples
		"KS KH AD QS JH",  // 35
		"JS JH AD KS QH",  // 35
		"AS AH KD KS TH",  // 36 dois pares (the ten is not a figure)
		"AS AH KD KS 8H",  // 36 the fifth card
		"AS AH QD QS KH",  // (figuras com pares, out of order on purpose: skipped below)
		"AS AH 9D 9S KH",  // 36
		"KS KH QD QS TH",  // 36
		"9S 9H 8D 8S AH",  // 36
		"AS AH KD QS TH",  // 37 um par
		"AS AH KD JS TH",  // 37 the third card...
		"AS AH KD JS 9H",  // 37 ...to the fifth
		"=AC AD KS JH 9D", // 37 a tie (rule 26)
		"KS KH AD QS JH",  // (figuras simples, skipped)
		"8S 8H AD KS QH",  // 37
		"AS KH QD JS 9H",  // 25 the highest card
		"AS KH QD JS 8H",  // 25
		"AS KH QD TS 9H",  // 25
		"KS QH JD TS 8H",  // 25, the lowest hand there is
		"=KH QD JS TC 8S", // 25 tie
	}
	skip := map[int]bool{31: true, 39: true}
	var prev cards.HandValue
	var prevHand string
	for i, line := range ladder {
		if skip[i] {
			continue
		}
		tie := line[0] == '='
		if tie {
			line = line[1:]
		}
		v := cards.Eval28(five(t, line))
		if prev != 0 {
			if tie && v != prev {
				t.Errorf("%s should tie %s (%d vs %d)", line, prevHand, v, prev)
			}
			if !tie && v >= prev {
				t.Errorf("%s (%s) should lose to %s (%s)", line, cards.Synthetic28().Describe(v, "pt"),
					prevHand, cards.Synthetic28().Describe(prev, "pt"))
			}
		}
		prev, prevHand = v, line
	}
	// The out-of-order lines are what they say.
	if c := cards.Synthetic28().Category(cards.Eval28(five(t, ladder[31]))); c != cards.FiguresTwoPair {
		t.Errorf("%s: %v", ladder[31], c)
	}
	if c := cards.Synthetic28().Category(cards.Eval28(five(t, ladder[39]))); c != cards.FiguresOnePair {
		t.Errorf("%s: %v", ladder[39], c)
	}
}

func TestEval28RefusesCardsOutsideTheDeck(t *testing.T) {
	defer func() {
		if recover() == nil {
			t.Fatal("a seven was evaluated")
		}
	}()
	cards.Eval28(five(t, "7S 8H 9D TS JH"))
}

// Random deals: the best hand of two hole cards and three of five is the
// reference's best, and the five cards returned are those cards and have
// that value.
func TestBestSyntheticAgainstReference(t *testing.T) {
	rnd := rand.New(rand.NewPCG(3, 4))
	d := cards.Portuguese28()
	ev := cards.NewEvaluator28()
	so := newSameOrder()
	for range 100000 {
		rnd.Shuffle(len(d), func(i, j int) { d[i], d[j] = d[j], d[i] })
		hole, board := [2]cards.Card(d[:2]), [5]cards.Card(d[2:7])
		v, best := cards.BestSynthetic(hole, board)
		if ev.BestSynthetic(&hole, &board) != v {
			t.Fatalf("evaluators disagree on %v %v", hole, board)
		}
		if best[0] != hole[0] || best[1] != hole[1] || cards.Eval28(best) != v {
			t.Fatalf("%v %v: best %v", hole, board, best)
		}
		for _, c := range best[2:] {
			if !contains(board[:], c) {
				t.Fatalf("%v %v: %v is not on the board", hole, board, c)
			}
		}
		k := cardstest.BestSynthetic(hole, board)
		so.add(t, v, k, func() string { return fmt2(append(hole[:], board[:]...)) })
	}
	so.check(t)
}

func contains(h []cards.Card, c cards.Card) bool {
	for _, x := range h {
		if x == c {
			return true
		}
	}
	return false
}

// The counts of every synthetic-poker deal (two hole cards, five on the
// board) against a brute force with the reference evaluator. The short
// version takes one pair of hole cards of each suit pattern and weighs it
// by how many pairs share that pattern (a change of suits maps the deals of
// one pair one to one onto those of the other, keeping every category);
// POKER_LONG=1 goes through every pair.
func TestCount28DealsAgainstReference(t *testing.T) {
	d := cards.Portuguese28()
	idx := map[cards.Card]int{}
	for i, c := range d {
		idx[c] = i
	}
	// The reference category of every five-card hand, by its set of cards.
	place := map[uint32]int{}
	eachFive(len(d), func(ix [5]int) {
		h := [5]cards.Card{d[ix[0]], d[ix[1]], d[ix[2]], d[ix[3]], d[ix[4]]}
		place[1<<ix[0]|1<<ix[1]|1<<ix[2]|1<<ix[3]|1<<ix[4]] = cardstest.Naive28(h)[0]
	})
	weight := map[[2]int]uint64{} // representative hole pair → pairs like it
	rep := map[[2]cards.Card][2]int{}
	for a := 0; a < len(d); a++ {
		for b := a + 1; b < len(d); b++ {
			pair := [2]int{a, b}
			if os.Getenv("POKER_LONG") == "" {
				// Suits renamed in order of appearance.
				form := [2]cards.Card{{Rank: d[a].Rank, Suit: 0}, {Rank: d[b].Rank, Suit: 0}}
				if d[b].Suit != d[a].Suit {
					form[1].Suit = 1
				}
				if r, ok := rep[form]; ok {
					pair = r
				} else {
					rep[form] = [2]int{idx[form[0]], idx[form[1]]}
					pair = rep[form]
				}
			}
			weight[pair]++
		}
	}
	var want cards.CategoryCounts
	for pair, w := range weight {
		hole := uint32(1)<<pair[0] | 1<<pair[1]
		var rest []int
		for i := range d {
			if i != pair[0] && i != pair[1] {
				rest = append(rest, i)
			}
		}
		eachFive(len(rest), func(bx [5]int) {
			best := -1
			for a := 0; a < 5; a++ {
				for b := a + 1; b < 5; b++ {
					for c := b + 1; c < 5; c++ {
						best = max(best, place[hole|1<<rest[bx[a]]|1<<rest[bx[b]]|1<<rest[bx[c]]])
					}
				}
			}
			want[cardstest.Category28(cardstest.Key{best})] += w
		})
	}
	got := cards.Count28Deals()
	if got != want || got.Total() != 24864840 {
		t.Fatalf("Count28Deals\n %v\nreference\n %v", got, want)
	}
}
