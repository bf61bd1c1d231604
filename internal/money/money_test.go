package money

import (
	"math"
	"math/big"
	"math/rand/v2"
	"strconv"
	"strings"
	"testing"
)

func TestEuro(t *testing.T) {
	for _, c := range []struct {
		lang  string
		cents int64
		want  string
	}{
		{"pt", 0, "0,00 €"}, {"pt", 5, "0,05 €"}, {"pt", 123456, "1.234,56 €"}, {"pt", -150, "-1,50 €"},
		{"en", 123456, "€1,234.56"}, {"en", -150, "-€1.50"}, {"pt", 100000000, "1.000.000,00 €"},
		{"pt", math.MinInt64, "-92.233.720.368.547.758,08 €"},
	} {
		if got := Euro(c.lang, c.cents); got != c.want {
			t.Errorf("Euro(%s, %d) = %q, want %q", c.lang, c.cents, got, c.want)
		}
	}
	if got := Count("pt", 1234567); got != "1.234.567" {
		t.Errorf("Count = %q", got)
	}
	if got := Count("en", -1234); got != "-1,234" {
		t.Errorf("Count = %q", got)
	}
}

// TestMillicents: five decimals always, in both languages, at the edges.
func TestMillicents(t *testing.T) {
	for _, c := range []struct {
		lang string
		mc   int64
		want string
	}{
		{"pt", 0, "0,00000 €"}, {"pt", 1, "0,00001 €"}, {"pt", 25_002_000, "250,02000 €"},
		{"pt", 123_456_789, "1.234,56789 €"}, {"en", 123_456_789, "€1,234.56789"}, {"en", -1_000, "-€0.01000"},
		{"pt", math.MinInt64, "-92.233.720.368.547,75808 €"}, {"en", math.MaxInt64, "€92,233,720,368,547.75807"},
	} {
		if got := Millicents(c.lang, c.mc); got != c.want {
			t.Errorf("Millicents(%s, %d) = %q, want %q", c.lang, c.mc, got, c.want)
		}
	}
	// Beyond int64: a side of the jackpot identity.
	big5 := new(big.Int).Mul(big.NewInt(math.MaxInt64), big.NewInt(5))
	if got := MillicentsBig("en", big5); got != "€461,168,601,842,738.79035" {
		t.Errorf("5 × MaxInt64 mc = %q", got)
	}
	if got := MillicentsBig("pt", new(big.Int).Neg(big5)); got != "-461.168.601.842.738,79035 €" {
		t.Errorf("-5 × MaxInt64 mc = %q", got)
	}
	if got := MillicentsBig("pt", big.NewInt(-1)); got != "-0,00001 €" {
		t.Errorf("-1 mc = %q", got)
	}
	huge, _ := new(big.Int).SetString("1"+strings.Repeat("0", 30), 10)
	if got := MillicentsBig("en", huge); got != huge.String()+" mc" {
		t.Errorf("10^30 mc = %q", got)
	}
}

// TestExact: without its grouping, every amount reads as its integer
// written with a decimal point: nothing is rounded or lost on the way
// through x/text, for random amounts over the whole int64 range.
func TestExact(t *testing.T) {
	r := rand.New(rand.NewPCG(2, 13))
	plain := func(x int64, decimals int) string {
		neg, u := x < 0, uint64(x)
		if neg {
			u = -u
		}
		s := strconv.FormatUint(u, 10)
		if len(s) <= decimals {
			s = strings.Repeat("0", decimals-len(s)+1) + s
		}
		s = s[:len(s)-decimals] + "." + s[len(s)-decimals:]
		if neg {
			s = "-" + s
		}
		return s
	}
	for i := range 20000 {
		x := int64(r.Uint64() >> r.IntN(64))
		if i%2 == 1 {
			x = -x
		}
		en := strings.NewReplacer(",", "", "€", "")
		pt := strings.NewReplacer(".", "", ",", ".", " €", "")
		if got := en.Replace(Euro("en", x)); got != plain(x, 2) {
			t.Fatalf("Euro(en, %d) = %q", x, Euro("en", x))
		}
		if got := pt.Replace(Euro("pt", x)); got != plain(x, 2) {
			t.Fatalf("Euro(pt, %d) = %q", x, Euro("pt", x))
		}
		if got := en.Replace(Millicents("en", x)); got != plain(x, 5) {
			t.Fatalf("Millicents(en, %d) = %q", x, Millicents("en", x))
		}
		if got := strings.ReplaceAll(Count("en", x), ",", ""); got != strconv.FormatInt(x, 10) {
			t.Fatalf("Count(en, %d) = %q", x, Count("en", x))
		}
	}
}

// TestPercent: the actual return, truncated to the hundredth of a percent
// (2/3 is 66.66%, never 66.67%), beyond int64 in the intermediate product,
// and nothing before any bet.
func TestPercent(t *testing.T) {
	for _, c := range []struct {
		lang        string
		part, whole int64
		want        string
	}{
		{"pt", 8712, 10000, "87,12 %"}, {"en", 8712, 10000, "87.12%"}, {"en", 2, 3, "66.66%"}, {"pt", 1, 3, "33,33 %"},
		{"en", 0, 5, "0.00%"}, {"en", 123456, 100, "123,456.00%"}, {"en", math.MaxInt64, math.MaxInt64, "100.00%"},
		{"en", math.MaxInt64 / 2, math.MaxInt64, "49.99%"}, {"en", 5, 0, ""}, {"en", -1, 5, ""},
	} {
		if got := Percent(c.lang, c.part, c.whole); got != c.want {
			t.Errorf("Percent(%s, %d, %d) = %q, want %q", c.lang, c.part, c.whole, got, c.want)
		}
	}
}

// TestRatPercent: an exact figure reads as reels.Exact.Percent writes it
// (big.Rat's rounding, half away from zero), in the language's marks.
func TestRatPercent(t *testing.T) {
	for _, c := range []struct {
		r        string
		decimals int
		en, pt   string
	}{
		{"923020/1000000", 4, "92.3020%", "92,3020 %"}, {"2/3", 2, "66.67%", "66,67 %"}, {"1/3", 4, "33.3333%", "33,3333 %"},
		{"1/20000", 2, "0.01%", "0,01 %"}, {"1/20001", 2, "0.00%", "0,00 %"}, {"-1/20000", 2, "-0.01%", "-0,01 %"},
		{"12345", 0, "1,234,500%", "1.234.500 %"}, {"0", 3, "0.000%", "0,000 %"},
	} {
		r, _ := new(big.Rat).SetString(c.r)
		if got := RatPercent("en", r, c.decimals); got != c.en {
			t.Errorf("RatPercent(en, %s, %d) = %q, want %q", c.r, c.decimals, got, c.en)
		}
		if got := RatPercent("pt", r, c.decimals); got != c.pt {
			t.Errorf("RatPercent(pt, %s, %d) = %q, want %q", c.r, c.decimals, got, c.pt)
		}
		if c.decimals > 0 && !strings.Contains(c.r, "12345") {
			if want := r.Mul(r, big.NewRat(100, 1)).FloatString(c.decimals) + "%"; want != c.en {
				t.Errorf("the table disagrees with big.Rat for %s: %s", c.r, want)
			}
		}
	}
}
