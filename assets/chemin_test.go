//go:build !production

package assets

import (
	"bytes"
	"strings"
	"testing"

	"github.com/openegm/cabinet/poker/tabledef"
)

// The shipped chemin de fer definition is signed with a key this program
// trusts and valid; a changed byte is refused.
func TestShippedCheminTablesLoadCertified(t *testing.T) {
	ids := CheminTables()
	if len(ids) == 0 {
		t.Fatal("no chemin de fer definition shipped")
	}
	for _, id := range ids {
		c, err := LoadCheminTable(id)
		if err != nil {
			t.Fatalf("%s: %v", id, err)
		}
		if c.ID != id || c.Game != tabledef.Chemin || c.Chemin == nil || c.KeyID == "" || len(c.Digest) != 64 {
			t.Fatalf("%s: %+v", id, c)
		}
	}
	data, sig, err := CheminTable("chemin-6d")
	if err != nil {
		t.Fatal(err)
	}
	bad := bytes.Replace(data, []byte(`"cagnotte_bps": 500`), []byte(`"cagnotte_bps": 400`), 1)
	if _, err := tabledef.LoadCertified("x.json", bad, sig, TrustedKeys()); err == nil || !strings.Contains(err.Error(), "does not verify") {
		t.Fatalf("a changed definition loaded: %v", err)
	}
	if _, err := LoadCheminTable("nope"); err == nil {
		t.Fatal("a missing definition loaded")
	}
}
