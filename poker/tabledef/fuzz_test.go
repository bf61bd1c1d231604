package tabledef_test

import (
	"testing"

	"github.com/openegm/cabinet/poker/tabledef"
)

// FuzzParse: no input makes Parse panic, and a definition it accepts has a
// card in both languages and figures inside their rules.
func FuzzParse(f *testing.F) {
	for _, s := range []string{holdemDef, syntheticDef, cheminDef, `{"game": "chemin_de_fer"}`, `{}`} {
		f.Add([]byte(s), int64(1019))
	}
	f.Fuzz(func(t *testing.T, data []byte, win int64) {
		d, err := tabledef.Parse("f.json", data)
		if err != nil {
			return
		}
		if len(d.Card("pt")) == 0 || len(d.Card("en")) == 0 || d.Seats() < d.MinPlayers() || d.DecisionTime() <= 0 {
			t.Fatalf("%+v", d)
		}
		if c := d.Chemin; c != nil {
			if c.MinPlayers < 4 || c.Decks < 1 || c.Decks > tabledef.CheminMaxDecks || c.MinBet > c.MinBank || c.AuctionBase < c.MinBank {
				t.Fatalf("%+v", c)
			}
			if g := c.Cagnotte(win); g < 0 || win > 0 && g > win {
				t.Fatalf("cagnotte %d of %d", g, win)
			}
		}
	})
}
