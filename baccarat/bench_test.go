package baccarat

import (
	"testing"

	"github.com/openegm/cabinet/cards"
)

func standardShoe(decks int) [cards.King + 1]int {
	var r [cards.King + 1]int
	for i := cards.Ace; i <= cards.King; i++ {
		r[i] = 4 * decks
	}
	return r
}

// BenchmarkExact8Decks is the certified computation of an 8-deck table:
// the enumeration and every figure of the PAR sheet as exact fractions.
func BenchmarkExact8Decks(b *testing.B) {
	for _, a := range []Alternative{Alternative1, Alternative2} {
		b.Run(map[Alternative]string{1: "alternative1", 2: "alternative2"}[a], func(b *testing.B) {
			for b.Loop() {
				if _, err := exactFigures(standardShoe(8), a, FivePercent789, 20); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

func BenchmarkEnumerate8Decks(b *testing.B) {
	sc, _ := countShoe(standardShoe(8))
	for b.Loop() {
		enumerate(sc, Alternative1.next)
	}
}

// BenchmarkSimulateHand is one simulated hand: deal from a fresh shoe,
// evaluate, settle every spot.
func BenchmarkSimulateHand(b *testing.B) {
	d, err := Parse("b.json", []byte(alt1Def))
	if err != nil {
		b.Fatal(err)
	}
	b.ResetTimer()
	if _, err := d.Simulate(int64(max(b.N, 2)), 1, 1); err != nil {
		b.Fatal(err)
	}
}
