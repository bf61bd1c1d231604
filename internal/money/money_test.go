package money

import (
	"math"
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
