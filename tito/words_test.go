package tito

import (
	"strings"
	"testing"
)

// Amounts in words, checked against the grammar of Portugal (Portaria
// rules for cheques: "um euro", "dois euros", "cem", "cento e um", "mil"
// never "um mil", "e" before the last group only when it is below a
// hundred or a round hundred, "de euros" after a round million) and the
// way English cheques write them.
func TestAmountWords(t *testing.T) {
	for _, c := range []struct {
		cents  int64
		pt, en string
	}{
		{0, "zero euros", "zero euros"},
		{1, "um cêntimo", "one cent"},
		{50, "cinquenta cêntimos", "fifty cents"},
		{100, "um euro", "one euro"},
		{101, "um euro e um cêntimo", "one euro and one cent"},
		{200, "dois euros", "two euros"},
		{1400, "catorze euros", "fourteen euros"},
		{1600, "dezasseis euros", "sixteen euros"},
		{1900, "dezanove euros", "nineteen euros"},
		{2000, "vinte euros", "twenty euros"},
		{2100, "vinte e um euros", "twenty-one euros"},
		{10000, "cem euros", "one hundred euros"},
		{10100, "cento e um euros", "one hundred one euros"},
		{12345, "cento e vinte e três euros e quarenta e cinco cêntimos", "one hundred twenty-three euros and forty-five cents"},
		{20000, "duzentos euros", "two hundred euros"},
		{50500, "quinhentos e cinco euros", "five hundred five euros"},
		{99999, "novecentos e noventa e nove euros e noventa e nove cêntimos", "nine hundred ninety-nine euros and ninety-nine cents"},
		{100000, "mil euros", "one thousand euros"},
		{100100, "mil e um euros", "one thousand one euros"},
		{102000, "mil e vinte euros", "one thousand twenty euros"},
		{110000, "mil e cem euros", "one thousand one hundred euros"},
		{150000, "mil e quinhentos euros", "one thousand five hundred euros"},
		{123400, "mil duzentos e trinta e quatro euros", "one thousand two hundred thirty-four euros"},
		{200000, "dois mil euros", "two thousand euros"},
		{2110000, "vinte e um mil e cem euros", "twenty-one thousand one hundred euros"},
		{10000000, "cem mil euros", "one hundred thousand euros"},
		{10100000, "cento e um mil euros", "one hundred one thousand euros"},
		{100000000, "um milhão de euros", "one million euros"},
		{100000001, "um milhão de euros e um cêntimo", "one million euros and one cent"},
		{100000100, "um milhão e um euros", "one million one euros"},
		{120000000, "um milhão e duzentos mil euros", "one million two hundred thousand euros"},
		{123456700, "um milhão duzentos e trinta e quatro mil quinhentos e sessenta e sete euros",
			"one million two hundred thirty-four thousand five hundred sixty-seven euros"},
		{200000000, "dois milhões de euros", "two million euros"},
		{200010000, "dois milhões e cem euros", "two million one hundred euros"},
		{999999999999, "nove mil novecentos e noventa e nove milhões novecentos e noventa e nove mil novecentos e noventa e nove euros e noventa e nove cêntimos",
			"nine billion nine hundred ninety-nine million nine hundred ninety-nine thousand nine hundred ninety-nine euros and ninety-nine cents"},
		{100000000000, "mil milhões de euros", "one billion euros"},
		{250000000000, "dois mil e quinhentos milhões de euros", "two billion five hundred million euros"},
		{100000000000000, "um bilião de euros", "one trillion euros"},
	} {
		for _, l := range []struct {
			lang Lang
			want string
		}{{PT, c.pt}, {EN, c.en}} {
			got, err := AmountWords(c.cents, l.lang)
			if err != nil || got != strings.ToUpper(l.want) {
				t.Errorf("%d cents in %s: %q, %v; want %q", c.cents, l.lang, got, err, strings.ToUpper(l.want))
			}
		}
	}
	if _, err := AmountWords(-1, PT); err == nil {
		t.Error("negative amount written")
	}
	if _, err := AmountWords(1, "fr"); err == nil {
		t.Error("French written")
	}
}

// Every amount a ticket can carry has words in both languages without a
// doubled space or a dangling "e"/"and".
func TestAmountWordsWellFormed(t *testing.T) {
	for cents := int64(0); cents < 3_000_000; cents += 97 {
		for _, l := range []Lang{PT, EN} {
			w, err := AmountWords(cents, l)
			if err != nil {
				t.Fatal(err)
			}
			if strings.Contains(w, "  ") || strings.HasPrefix(w, "E ") || strings.Contains(w, " E E ") ||
				strings.HasSuffix(w, " E") || strings.Contains(w, "AND AND") || !strings.HasSuffix(w, "S") && !strings.HasSuffix(w, "O") && !strings.HasSuffix(w, "T") {
				t.Fatalf("%d cents in %s: %q", cents, l, w)
			}
		}
	}
}

func TestFigures(t *testing.T) {
	for _, c := range []struct {
		cents  int64
		pt, en string
	}{
		{0, "0,00 €", "€0.00"}, {5, "0,05 €", "€0.05"}, {12345, "123,45 €", "€123.45"},
		{123456789, "1.234.567,89 €", "€1,234,567.89"}, {-150, "-1,50 €", "-€1.50"},
	} {
		if got := Figures(c.cents, PT); got != c.pt {
			t.Errorf("%d pt: %q want %q", c.cents, got, c.pt)
		}
		if got := Figures(c.cents, EN); got != c.en {
			t.Errorf("%d en: %q want %q", c.cents, got, c.en)
		}
	}
}
