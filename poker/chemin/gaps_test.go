package chemin_test

import (
	"slices"
	"strings"
	"testing"

	"github.com/openegm/cabinet/cards"
	"github.com/openegm/cabinet/poker"
	"github.com/openegm/cabinet/poker/chemin"
)

// The fold takes a revealed sabot only when it is exactly the decks its
// commitment named: every card of every deck once a deck, nothing else
// (rules 7, 8), whatever its digest.
func TestTheSabotIsExactlyItsDecks(t *testing.T) {
	var full []cards.Card
	for range 2 {
		full = append(full, cards.Standard52()...)
	}
	short := full[:len(full)-1]
	twice := slices.Clone(full)
	twice[5] = twice[6] // one card twice, another missing
	extra := append(slices.Clone(full), full[0])
	for _, c := range []struct {
		name  string
		order []cards.Card
		decks int64
		want  string
	}{
		{"whole", full, 2, ""},
		{"a card short", short, 2, "103 cards"},
		{"a card twice", twice, 2, "times in 2 decks"},
		{"a card too many", extra, 2, "105 cards"},
		{"other decks", full, 3, "104 cards, 3 decks"},
		{"no decks", full, 0, "0 decks"},
	} {
		d := chemin.Digest(c.order)
		err := chemin.NewFolder().Add(
			poker.Record{Kind: chemin.KindShoe, Value: d, Amount: c.decks},
			poker.Record{Kind: chemin.KindShoeEnd, Value: d, Cards: c.order})
		if c.want == "" && err != nil || c.want != "" && (err == nil || !strings.Contains(err.Error(), c.want)) {
			t.Errorf("%s: %v, want %q", c.name, err, c.want)
		}
	}
}
