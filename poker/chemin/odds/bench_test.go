package odds_test

import (
	"testing"

	"github.com/openegm/cabinet/poker/chemin/odds"
)

// The figures of an 8-deck shoe: every count, fraction and the game.
func BenchmarkExact8Decks(b *testing.B) {
	for b.Loop() {
		if _, err := odds.Exact(8, 500); err != nil {
			b.Fatal(err)
		}
	}
}
