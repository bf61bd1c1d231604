//go:build !production

package assets

import (
	"bytes"
	"strings"
	"testing"

	"github.com/openegm/cabinet/poker/tabledef"
)

// At least one approved definition ships per poker game, signed with a key
// this program trusts; a changed byte is refused.
func TestShippedPokerTablesLoadCertified(t *testing.T) {
	games := map[tabledef.Game]int{}
	for _, id := range PokerTables() {
		c, err := LoadPokerTable(id)
		if err != nil {
			t.Fatalf("%s: %v", id, err)
		}
		if c.ID != id || c.KeyID == "" || len(c.Digest) != 64 {
			t.Fatalf("%s: %+v", id, c)
		}
		games[c.Game]++
	}
	if games[tabledef.Holdem] == 0 || games[tabledef.Synthetic] == 0 {
		t.Fatalf("shipped poker tables by game: %v", games)
	}
	data, sig, err := PokerTable("sintetico-3")
	if err != nil {
		t.Fatal(err)
	}
	bad := bytes.Replace(data, []byte(`"min_bet_cents": 100`), []byte(`"min_bet_cents": 101`), 1)
	if _, err := tabledef.LoadCertified("x.json", bad, sig, TrustedKeys()); err == nil || !strings.Contains(err.Error(), "does not verify") {
		t.Fatalf("a changed definition loaded: %v", err)
	}
	if _, err := LoadPokerTable("nope"); err == nil {
		t.Fatal("a missing definition loaded")
	}
}
