package aft

import (
	"fmt"
	"time"
)

// Amounts are the three kinds of money SAS tells apart, in cents:
// cashable (redeemable), restricted (promotional, must be played, never
// cashed) and non-restricted (promotional, redeemable, metered apart).
type Amounts struct {
	Cashable      int64 `json:"cashable"`
	Restricted    int64 `json:"restricted"`
	NonRestricted int64 `json:"non_restricted"`
}

// Total is the sum of the three.
func (a Amounts) Total() int64 { return a.Cashable + a.Restricted + a.NonRestricted }

// Credits is what the machine holds on its credit meter, by kind, with
// the expiration (a date, 0 never) and pool of the restricted amount.
// The machine owns it: the AFT core reads it (Conditions) and says how a
// committed transfer changes it (Apply); games change it with Wager and
// wins.
type Credits struct {
	Amounts
	RestrictedExpiration Expiration `json:"restricted_expiration,omitempty"`
	RestrictedPool       uint16     `json:"restricted_pool,omitempty"`
}

// Apply returns the credits after the committed transfer t: money in
// adds by kind, money out subtracts, a bonus win (coin-out, or a jackpot
// below the handpay limit) adds its whole amount as cashable credits
// (SAS 8.5: a bonus is a win, and wins are cashable; the host's split of
// it is kept by the AFT bonus meters AE and B0), a transfer to a ticket or
// a bonus jackpot paid by handpay leaves the meter alone. Restricted money brings its pool and the later of the
// two expirations; when the restricted amount reaches zero they are
// cleared.
func (c Credits) Apply(t Transfer) Credits {
	switch t.Type {
	case BonusCoinOut, BonusJackpot:
		if !t.Handpay {
			c.Cashable += t.Amounts.Total()
		}
	case InHouseToMachine, DebitToMachine:
		if t.Amounts.Restricted > 0 {
			if c.Restricted == 0 {
				c.RestrictedExpiration = t.RestrictedExpiration
			} else {
				c.RestrictedExpiration = later(c.RestrictedExpiration, t.RestrictedExpiration)
			}
			c.RestrictedPool = t.PoolID
		}
		c.Cashable += t.Amounts.Cashable
		c.Restricted += t.Amounts.Restricted
		c.NonRestricted += t.Amounts.NonRestricted
	case InHouseToHost, WinToHost:
		c.Cashable -= t.Amounts.Cashable
		c.Restricted -= t.Amounts.Restricted
		c.NonRestricted -= t.Amounts.NonRestricted
	}
	if c.Restricted == 0 {
		c.RestrictedExpiration, c.RestrictedPool = 0, 0
	}
	return c
}

// Wager takes a bet of cents from the credits as SAS orders it:
// restricted first, then non-restricted, then cashable. It returns the
// credits after the bet and the part of each kind played (for the
// meters of restricted and non-restricted amounts played, 0x19 and
// 0x1A). A bet above the credits is an error and changes nothing.
func (c Credits) Wager(cents int64) (Credits, Amounts, error) {
	if cents < 0 || cents > c.Total() {
		return c, Amounts{}, fmt.Errorf("aft: bet of %d cents with %d cents of credits", cents, c.Total())
	}
	var played Amounts
	take := func(have *int64, into *int64) {
		n := min(*have, cents)
		*have -= n
		*into += n
		cents -= n
	}
	take(&c.Restricted, &played.Restricted)
	take(&c.NonRestricted, &played.NonRestricted)
	take(&c.Cashable, &played.Cashable)
	if c.Restricted == 0 {
		c.RestrictedExpiration, c.RestrictedPool = 0, 0
	}
	return c, played, nil
}

// Expire returns the credits without the restricted amount once its
// expiration has passed at now, and the amount removed (0 when nothing
// expired). The machine records the removal; SAS keeps no AFT meter for
// it.
func (c Credits) Expire(now time.Time) (Credits, int64) {
	if c.Restricted == 0 || !c.RestrictedExpiration.Expired(now) {
		return c, 0
	}
	gone := c.Restricted
	c.Restricted, c.RestrictedExpiration, c.RestrictedPool = 0, 0, 0
	return c, gone
}
