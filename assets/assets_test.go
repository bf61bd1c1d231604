//go:build !production

package assets

import (
	"bytes"
	"crypto/ed25519"
	"crypto/rand"
	"errors"
	"strings"
	"testing"

	"github.com/openegm/cabinet/reels"
)

func TestShippedPaytablesLoadCertified(t *testing.T) {
	ids := Paytables()
	if len(ids) != 3 {
		t.Fatalf("embedded paytables %v, want the three Lusitânia versions", ids)
	}
	want := map[string][2]int{"lusitania-88": {87, 89}, "lusitania-92": {91, 93}, "lusitania-96": {95, 97}}
	for _, id := range ids {
		c, err := LoadPaytable(id)
		if err != nil {
			t.Fatalf("%s: %v", id, err)
		}
		band, ok := want[id]
		if !ok {
			t.Fatalf("unexpected paytable %s", id)
		}
		for lv, r := range c.RTP {
			pct, _ := r.Float64()
			if pct*100 < float64(band[0]) || pct*100 > float64(band[1]) {
				t.Errorf("%s level %d: RTP %.4f%% outside %v", id, lv+1, pct*100, band)
			}
		}
		if len(c.Reels) != 5 || c.Rows != 3 || len(c.Lines) != 20 || c.Free == nil || !c.Free.Retrigger || c.Free.Multiplier < 2 || c.Wild < 0 {
			t.Errorf("%s is not the 5×3, 20-line game with wild, free games, retrigger and multiplier", id)
		}
		if c.KeyID == "" || len(c.Digest) != 64 {
			t.Errorf("%s: key %q digest %q", id, c.KeyID, c.Digest)
		}
	}
	if _, err := LoadPaytable(DefaultGame); err != nil {
		t.Fatalf("default game: %v", err)
	}
}

// The versions share the art: same symbols, names, lines and pays.
func TestVersionsShareTheArt(t *testing.T) {
	var first *reels.Certified
	for _, id := range Paytables() {
		c, err := LoadPaytable(id)
		if err != nil {
			t.Fatal(err)
		}
		if first == nil {
			first = c
			continue
		}
		if len(c.Symbols) != len(first.Symbols) || len(c.LinePays) != len(first.LinePays) {
			t.Fatalf("%s differs from %s in symbols or pays", id, first.ID)
		}
		for i := range c.Symbols {
			if c.Symbols[i] != first.Symbols[i] {
				t.Fatalf("%s symbol %d: %+v vs %+v", id, i, c.Symbols[i], first.Symbols[i])
			}
		}
		for i := range c.LinePays {
			if c.LinePays[i] != first.LinePays[i] {
				t.Fatalf("%s pay %d differs", id, i)
			}
		}
	}
}

func TestTamperedOrUnsignedPaytableRefused(t *testing.T) {
	data, sig, err := Paytable(DefaultGame)
	if err != nil {
		t.Fatal(err)
	}
	keys := TrustedKeys()
	// Every single-byte change at a spread of positions is refused.
	for i := 0; i < len(data); i += len(data)/97 + 1 {
		bad := bytes.Clone(data)
		bad[i] ^= 0x01
		if _, err := reels.LoadCertified("x.json", bad, sig, keys); err == nil {
			t.Fatalf("byte %d changed: accepted", i)
		}
	}
	badSig := bytes.Clone(sig)
	badSig[3] ^= 0x04
	for name, s := range map[string][]byte{"missing": nil, "damaged": badSig, "garbage": []byte("hello\n")} {
		_, err := reels.LoadCertified("x.json", data, s, keys)
		var pe *reels.Error
		if !errors.As(err, &pe) || pe.Field != "(signature)" {
			t.Fatalf("%s signature: %v", name, err)
		}
	}
	// Signed by a key the program does not trust.
	_, priv, _ := ed25519.GenerateKey(rand.Reader)
	if _, err := reels.LoadCertified("x.json", data, reels.Sign(priv, data), keys); err == nil || !strings.Contains(err.Error(), "trusted") {
		t.Fatalf("foreign key: %v", err)
	}
	// No trusted key at all fails closed.
	if _, err := reels.LoadCertified("x.json", data, sig, nil); err == nil {
		t.Fatal("accepted with no trusted keys")
	}
}

// A validly signed paytable whose RTP is below 80% is still refused by the
// cabinet: it recomputes the figure instead of trusting the lab.
func TestSignedButBelow80Refused(t *testing.T) {
	data, _, _ := Paytable(DefaultGame)
	low := bytes.Replace(data, []byte(`{"symbol": "S", "count": 2, "pays": 1},`), []byte(``), 1)
	low = bytes.Replace(low, []byte(`"multiplier": 2`), []byte(`"multiplier": 1`), 1)
	_, priv, _ := ed25519.GenerateKey(rand.Reader)
	pub := priv.Public().(ed25519.PublicKey)
	_, err := reels.LoadCertified("low.json", low, reels.Sign(priv, low), []ed25519.PublicKey{pub})
	var re *reels.RTPError
	if !errors.As(err, &re) || !strings.Contains(err.Error(), "below the 80% minimum") {
		t.Fatalf("got %v", err)
	}
}

func TestDevelopmentBuildTrustsTheDevKey(t *testing.T) {
	if !trustsDevKey(t) || len(TrustedKeys()) != 1 {
		t.Fatalf("development build: dev key trusted %v, %d keys", trustsDevKey(t), len(TrustedKeys()))
	}
}
