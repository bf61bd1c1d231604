// Package money formats amounts for people, in Portuguese (the default)
// or English: one formatter for the screens, the reports and the tools.
// Amounts are integers (cents, or the jackpot's millicents); nothing here
// rounds, and no amount passes through floating point.
//
// The locale's digits, grouping and decimal mark and the euro's symbol
// come from golang.org/x/text (CLDR). x/text takes exact decimals only as
// integers, so the whole part is handed to it as one, with the
// currency's number of decimals, and the fraction, known exactly, is
// written in their place.
//
// Choice: Portuguese groups digits with a dot (1.234,50 €), as CLDR's pt
// does and as people in Portugal read prices; CLDR's pt-PT groups with a
// no-break space, which the screens, the README and the inspector's
// reports never used. The symbol follows the amount after a space, as
// pt-PT writes it; in English it comes first (€1,234.50).
package money

import (
	"math/big"
	"strconv"
	"strings"

	"golang.org/x/text/currency"
	"golang.org/x/text/language"
	"golang.org/x/text/message"
	"golang.org/x/text/number"
)

// locale is how one language writes amounts.
type locale struct {
	p      *message.Printer
	symbol string // the euro's, from CLDR
	after  bool   // the symbol follows the amount
}

var (
	pt = newLocale(language.Portuguese, true)
	en = newLocale(language.English, false)
)

func newLocale(tag language.Tag, after bool) *locale {
	p := message.NewPrinter(tag)
	return &locale{p: p, symbol: p.Sprint(currency.NarrowSymbol(currency.EUR)), after: after}
}

// of returns the locale of lang: "en" is English, anything else Portuguese.
func of(lang string) *locale {
	if lang == "en" {
		return en
	}
	return pt
}

// centDecimals is the euro's number of decimals (CLDR: 2).
var centDecimals, _ = currency.Standard.Rounding(currency.EUR)

// Euro formats cents: Portuguese "1.234,50 €", English "€1,234.50".
func Euro(lang string, cents int64) string {
	neg, u := split(cents)
	return of(lang).euros(neg, u/100, u%100, centDecimals)
}

// millicentDecimals: a millicent is a thousandth of a cent.
const millicentDecimals = 5

// Millicents formats an exact amount of millicents (the jackpot's unit)
// with all five decimals, so that a figure exact to the millicent never
// reads as rounded to the cent: "1.234,56789 €", "€1,234.56000".
func Millicents(lang string, mc int64) string {
	neg, u := split(mc)
	return of(lang).euros(neg, u/100_000, u%100_000, millicentDecimals)
}

// MillicentsBig is Millicents for a sum that int64 cannot hold (a side
// of the jackpot identity). One whose euros exceed 64 bits, which no sum
// of meters reaches, is written as a plain count of millicents.
func MillicentsBig(lang string, mc *big.Int) string {
	if mc.IsInt64() {
		return Millicents(lang, mc.Int64())
	}
	whole, frac := new(big.Int).QuoRem(new(big.Int).Abs(mc), big.NewInt(100_000), new(big.Int))
	if !whole.IsUint64() {
		return mc.String() + " mc"
	}
	return of(lang).euros(mc.Sign() < 0, whole.Uint64(), frac.Uint64(), millicentDecimals)
}

// Percent formats part as a percentage of whole (the actual return: total
// won of total bet), truncated to two decimals, never rounded up: "87,12 %"
// in Portuguese, "87.12%" in English. It is "" when whole is not positive
// (nothing bet yet) or a part is negative.
func Percent(lang string, part, whole int64) string {
	if whole <= 0 || part < 0 {
		return ""
	}
	hundredths := new(big.Int).Mul(big.NewInt(part), big.NewInt(100*100))
	hundredths.Quo(hundredths, big.NewInt(whole))
	l := of(lang)
	return l.percentSign(l.decimal(hundredths.Uint64()/100, hundredths.Uint64()%100, 2))
}

// RatPercent formats an exact figure (a certified return, a probability)
// as a percentage with decimals decimals, rounded half away from zero as
// big.Rat.FloatString rounds: 923020/1000000 is "92,3020 %" in Portuguese
// and "92.3020%" in English at 4 decimals.
func RatPercent(lang string, r *big.Rat, decimals int) string {
	scaled := new(big.Rat).Mul(r, new(big.Rat).SetInt(new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(decimals)+2), nil)))
	q, rem := new(big.Int).QuoRem(scaled.Num(), scaled.Denom(), new(big.Int))
	if rem.Abs(rem).Lsh(rem, 1).Cmp(scaled.Denom()) >= 0 {
		if r.Sign() < 0 {
			q.Sub(q, big.NewInt(1))
		} else {
			q.Add(q, big.NewInt(1))
		}
	}
	neg := q.Sign() < 0
	unit := new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(decimals)), nil)
	whole, frac := new(big.Int).QuoRem(q.Abs(q), unit, new(big.Int))
	l := of(lang)
	s := l.decimal(whole.Uint64(), frac.Uint64(), decimals)
	if neg {
		s = "-" + s
	}
	return l.percentSign(s)
}

// percentSign puts the percent sign where the language puts it.
func (l *locale) percentSign(s string) string {
	if l.after {
		return s + " %"
	}
	return s + "%"
}

// Count formats a count (credits, games, meters) with the language's
// digit grouping.
func Count(lang string, n int64) string {
	neg, u := split(n)
	s := of(lang).p.Sprint(number.Decimal(u))
	if neg {
		return "-" + s
	}
	return s
}

// split returns the sign and the magnitude of x (math.MinInt64 included).
func split(x int64) (neg bool, u uint64) {
	if x < 0 {
		return true, -uint64(x)
	}
	return false, uint64(x)
}

// decimal writes whole and frac, a fraction of decimals digits, as the
// locale writes a decimal number.
func (l *locale) decimal(whole, frac uint64, decimals int) string {
	if decimals == 0 {
		return l.p.Sprint(number.Decimal(whole))
	}
	s := l.p.Sprint(number.Decimal(whole, number.MinFractionDigits(decimals), number.MaxFractionDigits(decimals)))
	digits := strconv.FormatUint(frac, 10)
	return s[:len(s)-decimals] + strings.Repeat("0", decimals-len(digits)) + digits
}

// euros writes whole euros and frac, a fraction of decimals digits.
func (l *locale) euros(neg bool, whole, frac uint64, decimals int) string {
	s := l.decimal(whole, frac, decimals)
	sign := ""
	if neg {
		sign = "-"
	}
	if l.after {
		return sign + s + " " + l.symbol
	}
	return sign + l.symbol + s
}
