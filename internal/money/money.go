// Package money formats amounts for people, in Portuguese (the default)
// or English: one formatter for the screens, the inspector's report and
// the tools. Amounts are integer cents; nothing here rounds.
package money

import (
	"strconv"
	"strings"
)

// Euro formats cents as people read them in the language: Portuguese
// "1.234,50 €", English "€1,234.50".
func Euro(lang string, cents int64) string {
	neg := cents < 0
	u := uint64(cents)
	if neg {
		u = -u // two's complement: correct for math.MinInt64 too
	}
	whole, frac := u/100, u%100
	sep, dec := ".", ","
	if lang == "en" {
		sep, dec = ",", "."
	}
	s := group(strconv.FormatUint(whole, 10), sep) + dec + pad2(frac)
	switch {
	case lang == "en" && neg:
		return "-€" + s
	case lang == "en":
		return "€" + s
	case neg:
		return "-" + s + " €"
	}
	return s + " €"
}

// Count formats a count (credits, games, meters) with the language's
// thousands separator.
func Count(lang string, n int64) string {
	neg := n < 0
	u := uint64(n)
	if neg {
		u = -u
	}
	sep := "."
	if lang == "en" {
		sep = ","
	}
	s := group(strconv.FormatUint(u, 10), sep)
	if neg {
		return "-" + s
	}
	return s
}

func group(digits, sep string) string {
	if len(digits) <= 3 {
		return digits
	}
	var b strings.Builder
	head := len(digits) % 3
	if head > 0 {
		b.WriteString(digits[:head])
	}
	for i := head; i < len(digits); i += 3 {
		if b.Len() > 0 {
			b.WriteString(sep)
		}
		b.WriteString(digits[i : i+3])
	}
	return b.String()
}

func pad2(n uint64) string {
	if n < 10 {
		return "0" + strconv.FormatUint(n, 10)
	}
	return strconv.FormatUint(n, 10)
}
