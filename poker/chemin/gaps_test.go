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

// Rule 80: when nobody takes a passed hand at its level, the banker who
// passed it may keep it at the same amount instead of its auction.
func TestThePasserKeepsTheHandAtItsLevel(t *testing.T) {
	s := newScript(t, rules(), five, burn+coup("2C 4D", "3S 4H"))
	s.winCoup(1000)
	s.act("ana", chemin.Pass)
	for _, id := range []string{"bia", "caio", "duda", "eva"} {
		s.act(id, chemin.Decline)
	}
	s.expect("ana", chemin.Offered)
	if v := s.tb.View("ana"); v.Level != 1950 || !hasChoice(v, chemin.Take) {
		t.Fatalf("ana's offer %+v", v)
	}
	recs := s.act("ana", chemin.Take)
	if said(recs, chemin.MsgAuction) {
		t.Fatal("auctioned")
	}
	if v := s.tb.View(""); v.Banker != 1 || v.Bank != 1950 || v.Phase != chemin.Idle || s.stack("ana") != 100000-1000+1950-1950 {
		t.Fatalf("ana keeps the hand: %+v, %d", v, s.stack("ana"))
	}
}
