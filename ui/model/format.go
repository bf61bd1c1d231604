package model

import (
	"math/big"
	"strconv"
	"strings"
	"time"

	"github.com/openegm/cabinet/internal/money"
)

// The UI only formats amounts: the machine gives cents and credits, and
// nothing here adds, subtracts or rounds money.

// Euro formats cents as people read them in the language: Portuguese
// "1.234,50 €", English "€1,234.50" (one formatter for every tool:
// internal/money).
func Euro(lang string, cents int64) string { return money.Euro(lang, cents) }

// Credits formats a count (credits, games, meters) with the language's
// thousands separator.
func Credits(lang string, n int64) string { return money.Count(lang, n) }

// Percent renders an exact certified figure as a percentage with two
// decimals: "92,31 %" in Portuguese, "92.31%" in English.
func Percent(lang string, r *big.Rat) string {
	if r == nil {
		return "—"
	}
	return money.RatPercent(lang, r, 2)
}

// RatePercent renders a rate in parts per million as a percentage, with
// as many decimals as it needs and the language's decimal mark, spaced as
// Percent spaces it: 10 000 ppm is "1 %" in Portuguese and "1%" in English,
// 5 000 ppm "0,5 %" and "0.5%", 12 345 ppm "1,2345 %".
func RatePercent(lang string, ppm int64) string {
	neg := ppm < 0
	u := uint64(ppm)
	if neg {
		u = -u
	}
	s := strconv.FormatUint(u/10000, 10)
	if frac := u % 10000; frac > 0 {
		digits := strconv.FormatUint(frac+10000, 10)[1:] // four digits, leading zeros kept
		dec := ","
		if lang == "en" {
			dec = "."
		}
		s += dec + strings.TrimRight(digits, "0")
	}
	if neg {
		s = "-" + s
	}
	if lang == "en" {
		return s + "%"
	}
	return s + " %"
}

// Clock formats a ledger time (unix nanoseconds) for the service screens.
func Clock(ns int64) string {
	if ns == 0 {
		return "—"
	}
	return time.Unix(0, ns).Local().Format("2006-01-02 15:04:05")
}
