package tito

import (
	"fmt"
	"strings"
)

// Lang is a language a ticket is printed in: "pt" (Portuguese of
// Portugal, the default) or "en".
type Lang string

// The languages of a ticket.
const (
	PT Lang = "pt"
	EN Lang = "en"
)

// other is the second language of a ticket whose first is l.
func (l Lang) other() Lang {
	if l == EN {
		return PT
	}
	return EN
}

// AmountWords writes an amount of cents in words, in capitals, as a cheque
// or a voucher does: "CENTO E VINTE E TRÊS EUROS E QUARENTA E CINCO
// CÊNTIMOS" (pt), "ONE HUNDRED TWENTY-THREE EUROS AND FORTY-FIVE CENTS"
// (en). The euros are left out when there are none and cents (so €0.50 is
// "CINQUENTA CÊNTIMOS"), the cents when there are none; zero is "ZERO
// EUROS". Negative amounts are an error: a ticket is never negative.
func AmountWords(cents int64, l Lang) (string, error) {
	if cents < 0 {
		return "", fmt.Errorf("tito: amount %d cents is negative", cents)
	}
	cw, ok := currencies[l]
	if !ok {
		return "", fmt.Errorf("tito: no words in language %q", l)
	}
	euros, c := uint64(cents/100), uint64(cents%100)
	var parts []string
	if euros > 0 || c == 0 {
		unit := cw.euros
		switch {
		case euros == 1:
			unit = cw.euro
		case euros >= million && euros%million == 0:
			unit = cw.roundMillion
		}
		parts = append(parts, cw.number(euros)+" "+unit)
	}
	if c > 0 {
		unit := cw.cents
		if c == 1 {
			unit = cw.cent
		}
		parts = append(parts, cw.number(c)+" "+unit)
	}
	return strings.ToUpper(strings.Join(parts, cw.and)), nil
}

// currency is how a language writes an amount of euros.
type currency struct {
	number                   func(uint64) string
	euro, euros, cent, cents string
	and                      string
	roundMillion             string // the unit after a round million
}

var currencies = map[Lang]currency{
	// "um milhão de euros", "dois mil milhões de euros"
	PT: {numberPT, "euro", "euros", "cêntimo", "cêntimos", " e ", "de euros"},
	EN: {numberEN, "euro", "euros", "cent", "cents", " and ", "euros"},
}

const (
	thousand = 1000
	million  = thousand * thousand
)

var (
	unitsPT = [...]string{"zero", "um", "dois", "três", "quatro", "cinco", "seis", "sete", "oito", "nove",
		"dez", "onze", "doze", "treze", "catorze", "quinze", "dezasseis", "dezassete", "dezoito", "dezanove"}
	tensPT     = [...]string{"", "", "vinte", "trinta", "quarenta", "cinquenta", "sessenta", "setenta", "oitenta", "noventa"}
	hundredsPT = [...]string{"", "cento", "duzentos", "trezentos", "quatrocentos", "quinhentos",
		"seiscentos", "setecentos", "oitocentos", "novecentos"}
	// The long scale of Portugal: a milhão is 10^6, a bilião 10^12, a
	// trilião 10^18; 10^9 is "mil milhões".
	scalePT = [...][2]string{{"", ""}, {"milhão", "milhões"}, {"bilião", "biliões"}, {"trilião", "triliões"}}
)

// belowThousandPT writes 1–999: "cem" alone, "cento e …" above it, and
// "e" between hundreds, tens and units.
func belowThousandPT(n uint64) string {
	h, r := n/100, n%100
	var parts []string
	if h > 0 {
		if n == 100 {
			return "cem"
		}
		parts = append(parts, hundredsPT[h])
	}
	if r > 0 {
		parts = append(parts, belowHundred(r, &unitsPT, &tensPT, " e "))
	}
	return strings.Join(parts, " e ")
}

// belowHundred writes 1–99, tens and units joined by sep.
func belowHundred(r uint64, units *[20]string, tens *[10]string, sep string) string {
	switch {
	case r < 20:
		return units[r]
	case r%10 == 0:
		return tens[r/10]
	}
	return tens[r/10] + sep + units[r%10]
}

// chunkPT is a three-digit group of a number in words with what follows
// it ("mil", "milhões"), and the group's value, which decides the "e".
type chunkPT struct {
	words string
	value uint64
}

// numberPT writes n in Portuguese words.
//
// Between the groups of three digits there is no "e" ("mil duzentos e
// trinta e quatro"), except before the last group when it is below a
// hundred or a round hundred ("mil e vinte", "mil e quinhentos", "um
// milhão e duzentos mil", "dois milhões e um"). "mil" is never "um mil".
func numberPT(n uint64) string {
	if n == 0 {
		return unitsPT[0]
	}
	var chunks []chunkPT
	// Groups of six digits from the top, each a number below a million
	// followed by its long-scale word.
	var groups []uint64
	for m := n; m > 0; m /= million {
		groups = append(groups, m%million)
	}
	for k := len(groups) - 1; k >= 0; k-- {
		g := groups[k]
		if g == 0 {
			continue
		}
		hi, lo := g/thousand, g%thousand
		if hi > 0 {
			w := "mil"
			if hi > 1 {
				w = belowThousandPT(hi) + " mil"
			}
			chunks = append(chunks, chunkPT{w, hi})
		}
		if lo > 0 {
			chunks = append(chunks, chunkPT{belowThousandPT(lo), lo})
		}
		if k > 0 {
			word := scalePT[k][1]
			if g == 1 {
				word = scalePT[k][0]
			}
			chunks[len(chunks)-1].words += " " + word
		}
	}
	var b strings.Builder
	for i, c := range chunks {
		if i > 0 {
			if i == len(chunks)-1 && (c.value < 100 || c.value%100 == 0) {
				b.WriteString(" e ")
			} else {
				b.WriteString(" ")
			}
		}
		b.WriteString(c.words)
	}
	return b.String()
}

var (
	unitsEN = [...]string{"zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine",
		"ten", "eleven", "twelve", "thirteen", "fourteen", "fifteen", "sixteen", "seventeen", "eighteen", "nineteen"}
	tensEN  = [...]string{"", "", "twenty", "thirty", "forty", "fifty", "sixty", "seventy", "eighty", "ninety"}
	scaleEN = [...]string{"", "thousand", "million", "billion", "trillion", "quadrillion", "quintillion"}
)

// belowThousandEN writes 1–999 as cheques do: "one hundred twenty-three",
// without "and".
func belowThousandEN(n uint64) string {
	h, r := n/100, n%100
	var parts []string
	if h > 0 {
		parts = append(parts, unitsEN[h]+" hundred")
	}
	if r > 0 {
		parts = append(parts, belowHundred(r, &unitsEN, &tensEN, "-"))
	}
	return strings.Join(parts, " ")
}

// numberEN writes n in English words, short scale.
func numberEN(n uint64) string {
	if n == 0 {
		return unitsEN[0]
	}
	var groups []uint64
	for m := n; m > 0; m /= thousand {
		groups = append(groups, m%thousand)
	}
	var parts []string
	for k := len(groups) - 1; k >= 0; k-- {
		if groups[k] == 0 {
			continue
		}
		w := belowThousandEN(groups[k])
		if k > 0 {
			w += " " + scaleEN[k]
		}
		parts = append(parts, w)
	}
	return strings.Join(parts, " ")
}
