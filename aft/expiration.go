package aft

import (
	"fmt"
	"time"
)

// Expiration is SAS's expiration field as the 8-digit number its BCD
// carries: MMDDYYYY, a date, or 0000NNNN, a number of days (no month is
// 00, so the two cannot be confused). 0 is no expiration.
type Expiration uint32

// MaxExpiration is the largest value 4 BCD bytes carry.
const MaxExpiration Expiration = 99_999_999

// Days reports whether e counts days rather than naming a date.
func (e Expiration) Days() bool { return e != 0 && e < 1_000_000 }

// DateOf returns the expiration of the date t (its calendar day).
func DateOf(t time.Time) Expiration {
	return Expiration(uint32(t.Month())*1_000_000 + uint32(t.Day())*10_000 + uint32(t.Year()))
}

// Date returns the calendar date e names, in UTC at midnight; false when e
// is 0, a number of days, or not a real date (month 13, 31 April).
func (e Expiration) Date() (time.Time, bool) {
	if e == 0 || e.Days() || e > MaxExpiration {
		return time.Time{}, false
	}
	m, d, y := int(e/1_000_000), int(e/10_000%100), int(e%10_000)
	t := time.Date(y, time.Month(m), d, 0, 0, 0, 0, time.UTC)
	if m < 1 || m > 12 || t.Day() != d || y == 0 {
		return time.Time{}, false
	}
	return t, true
}

// Resolve turns e into the date the amounts expire when a transfer
// completes at now: a date stays, N days become the date N days after
// now's calendar day. ok is false for an invalid date or a date before
// now's day (already expired); 0 resolves to 0 (never).
func (e Expiration) Resolve(now time.Time) (Expiration, bool) {
	if e == 0 {
		return 0, true
	}
	today := calendarDay(now)
	if e.Days() {
		return DateOf(today.AddDate(0, 0, int(e))), true
	}
	t, ok := e.Date()
	if !ok || t.Before(today) {
		return 0, false
	}
	return e, true
}

// later returns the later of two resolved expirations, 0 (never) being
// the latest.
func later(a, b Expiration) Expiration {
	if a == 0 || b == 0 {
		return 0
	}
	ta, _ := a.Date()
	tb, _ := b.Date()
	if tb.After(ta) {
		return b
	}
	return a
}

// Expired reports whether a resolved expiration has passed at now (the
// amounts last through the named day of the machine's calendar).
func (e Expiration) Expired(now time.Time) bool {
	t, ok := e.Date()
	return ok && calendarDay(now).After(t)
}

// calendarDay is now's calendar day (in now's location) as a UTC
// midnight, the form Date returns: dates compare by their fields, never
// across time zones.
func calendarDay(now time.Time) time.Time {
	return time.Date(now.Year(), now.Month(), now.Day(), 0, 0, 0, 0, time.UTC)
}

func (e Expiration) String() string {
	switch {
	case e == 0:
		return "none"
	case e.Days():
		return fmt.Sprintf("%d days", uint32(e))
	}
	return fmt.Sprintf("%02d/%02d/%04d", e/1_000_000, e/10_000%100, e%10_000)
}
