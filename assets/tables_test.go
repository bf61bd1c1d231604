//go:build !production

package assets

import (
	"bytes"
	"crypto/ed25519"
	"crypto/rand"
	"errors"
	"strings"
	"testing"

	"github.com/openegm/cabinet/baccarat"
	"github.com/openegm/cabinet/reels"
)

// At least two approved Makccarat tables ship: alternative 1 with the 5%
// commission and alternative 2 with half paid on four, both signed with a
// trusted key and passing the 80% rule on every bet.
func TestShippedTablesLoadCertified(t *testing.T) {
	want := map[string]struct {
		alt  baccarat.Alternative
		comm baccarat.Commission
	}{
		"makccarat-alt1-5pct":  {baccarat.Alternative1, baccarat.FivePercent789},
		"makccarat-alt2-half4": {baccarat.Alternative2, baccarat.HalfOnFour},
	}
	ids := Tables()
	if len(ids) != len(want) {
		t.Fatalf("embedded tables %v", ids)
	}
	for _, id := range ids {
		c, err := LoadTable(id)
		if err != nil {
			t.Fatalf("%s: %v", id, err)
		}
		w, ok := want[id]
		if !ok || c.ID != id || c.Alternative != w.alt || c.Commission != w.comm {
			t.Fatalf("%s: %+v", id, c.Definition)
		}
		if c.KeyID == "" || len(c.Digest) != 64 {
			t.Fatalf("%s: key %q digest %q", id, c.KeyID, c.Digest)
		}
		for _, b := range c.Figures.Bets {
			if b.RTP.Cmp(baccarat.MinRTP) < 0 {
				t.Fatalf("%s: %s below 80%%", id, b.Spot)
			}
		}
	}
	if _, err := LoadTable("nope"); err == nil {
		t.Fatal("a missing table loaded")
	}
}

func TestTamperedOrForeignTableRefused(t *testing.T) {
	data, sig, err := Table("makccarat-alt1-5pct")
	if err != nil {
		t.Fatal(err)
	}
	keys := TrustedKeys()
	// One deck more, with the signature of the approved file.
	bad := bytes.Replace(data, []byte(`"decks": 8`), []byte(`"decks": 9`), 1)
	if _, err := baccarat.LoadCertified("x.json", bad, sig, keys); err == nil || !strings.Contains(err.Error(), "does not verify") {
		t.Fatalf("a changed definition loaded: %v", err)
	}
	var pe *reels.Error
	if _, err := baccarat.LoadCertified("x.json", data, nil, keys); !errors.As(err, &pe) || pe.Field != "(signature)" {
		t.Fatalf("unsigned: %v", err)
	}
	_, priv, _ := ed25519.GenerateKey(rand.Reader)
	if _, err := baccarat.LoadCertified("x.json", data, reels.Sign(priv, data), keys); err == nil || !strings.Contains(err.Error(), "trusted") {
		t.Fatalf("foreign key: %v", err)
	}
	// A paytable's signature does not make a table definition valid: the
	// signature covers the exact bytes of one file.
	pdata, psig, _ := Paytable(DefaultGame)
	if _, err := baccarat.LoadCertified("x.json", data, psig, keys); err == nil {
		t.Fatal("a paytable's signature verified a table definition")
	}
	// A paytable signed and loaded as a table definition is refused by the parse.
	if _, err := baccarat.LoadCertified("x.json", pdata, psig, keys); err == nil || !strings.Contains(err.Error(), "unknown field") {
		t.Fatalf("a paytable loaded as a table: %v", err)
	}
}
