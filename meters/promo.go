package meters

import (
	"fmt"

	"github.com/openegm/cabinet/aft"
	"github.com/openegm/cabinet/sas/metercode"
)

// Promotional credits, as SAS 6.02 defines them for AFT (section 8): the
// credit meter holds three kinds of credit.
//
//   - cashable: money, redeemable at any cash-out;
//   - restricted promotional: played, never cashed out as money; it came
//     from one promotional pool (its pool ID) and lasts until an
//     expiration date, after which the machine takes it off the credit
//     meter (PromoExpired);
//   - non-restricted promotional: played, and cashed out as money with
//     the cashable credits, but metered apart.
//
// Meters[Credits] is the total (SAS 0x0C current credits); the ledger
// keeps the restricted and non-restricted parts (RestrictedCredits, SAS
// 0x1B, and NonRestrictedCredits, which no SAS meter code reports: the
// 0x74 reply does) and the cashable part is what is left. Each kind has
// its own equation (checkPromo), and the three add up to the credit
// equation of State.Check.
//
// One definition of how each kind moves: aft.Credits (its Apply for a
// transfer, Wager for a bet, Expire for the expiration).
//
//   - A bet takes restricted credits first, then non-restricted, then
//     cashable: SAS 6.02 section 8 ("restricted amounts must be played
//     first, then nonrestricted, and finally cashable amounts"), as
//     regulators require (AGCO Standards for Gaming, 7.2.1: non-cashable
//     credits, then promotional cashable credits, then all others).
//   - Wins are cashable, whatever credits the bet took; so is a bonus
//     coin-out win.
//   - A cash-out (ticket, hopper, handpay) pays cashable and
//     non-restricted credits as money; the restricted credits stay on the
//     credit meter, for play or for the host to transfer out with 0x72
//     (type 80, in-house to host), unless the host turned restricted
//     tickets on (0x7B bit 0x0008): then they leave on a restricted
//     promotional ticket, which a machine takes back in as restricted
//     credits of its pool (tickets.go).
//   - Restricted credits of one pool are on the machine at a time: a
//     restricted transfer of another pool while some remain is refused
//     (SAS status 8F). Two expirations of the same pool keep the later.

// TypePromoExpired is the record type of PromoExpired (34–39 are the
// promotional credits').
const TypePromoExpired Type = 34

func init() {
	typeNames[TypePromoExpired] = "restricted credits expired"
}

// Promo is what the ledger keeps about the restricted credits besides
// their amount: their pool and their expiration (a date, MMDDYYYY; 0
// never). Both are zero while there are none.
type Promo struct {
	Pool       uint16         `json:"pool,omitempty"`
	Expiration aft.Expiration `json:"expiration,omitempty"`
}

// PromoExpired takes the restricted credits off the credit meter once
// their expiration date has passed: Day is the machine's calendar day when
// it did (the machine's clock, like At; the fold does not read a clock),
// and Cents, Pool and Expiration are the restricted credits it took, which
// must be all of them. It is recorded only when no game is open.
type PromoExpired struct {
	At         int64          `json:"at"`
	Cents      int64          `json:"cents"`
	Pool       uint16         `json:"pool"`
	Expiration aft.Expiration `json:"expiration"`
	Day        aft.Expiration `json:"day"`
}

func (PromoExpired) Type() Type { return TypePromoExpired }

func (r PromoExpired) validate() error {
	exp, ok := r.Expiration.Date()
	if !ok {
		return fmt.Errorf("restricted credits expired with expiration %v, not a date", r.Expiration)
	}
	day, ok := r.Day.Date()
	switch {
	case !ok:
		return fmt.Errorf("restricted credits expired on %v, not a date", r.Day)
	case !day.After(exp):
		return fmt.Errorf("restricted credits expiring %v taken off on %v: they last through their day", r.Expiration, r.Day)
	}
	return positive("cents", r.Cents)
}

// CreditsByKind is the credit meter by kind, with the pool and
// expiration of the restricted part.
func (s *State) CreditsByKind() aft.Credits {
	m := &s.Meters
	return aft.Credits{
		Amounts: aft.Amounts{Cashable: m[Credits] - m[RestrictedCredits] - m[NonRestrictedCredits],
			Restricted: m[RestrictedCredits], NonRestricted: m[NonRestrictedCredits]},
		RestrictedExpiration: s.Promo.Expiration, RestrictedPool: s.Promo.Pool,
	}
}

// Redeemable is what a cash-out may pay: the credits but the restricted
// ones.
func (s *State) Redeemable() int64 { return s.Meters[Credits] - s.Meters[RestrictedCredits] }

func (s *State) setCredits(c aft.Credits) {
	m := &s.Meters
	m[Credits], m[RestrictedCredits], m[NonRestrictedCredits] = c.Total(), c.Restricted, c.NonRestricted
	s.Promo = Promo{Pool: c.RestrictedPool, Expiration: c.RestrictedExpiration}
}

// playPromo takes a bet from the credits by kind (the caller moves the
// credit meter's total and coin in).
func (s *State) playPromo(bet int64) error {
	c, played, err := s.CreditsByKind().Wager(bet)
	if err != nil {
		return err
	}
	m := &s.Meters
	m[RestrictedPlayed] += played.Restricted
	m[NonRestrictedPlayed] += played.NonRestricted
	m[RestrictedCredits], m[NonRestrictedCredits] = c.Restricted, c.NonRestricted
	s.Promo = Promo{Pool: c.RestrictedPool, Expiration: c.RestrictedExpiration}
	return nil
}

// redeemable refuses a cash-out of more than the credits a cash-out may
// pay: restricted credits never leave as money.
func (s *State) redeemable(what string, cents int64) error {
	if cents > s.Redeemable() {
		return fmt.Errorf("%s of %d cents with %d cents of credit, of which %d restricted: restricted credits are never cashed out",
			what, cents, s.Meters[Credits], s.Meters[RestrictedCredits])
	}
	return nil
}

// redeem takes a cash-out's non-restricted part off the promotional
// credits (non-restricted first, then cashable: all of both leave at a
// player's cash-out, so the order only names the part). The caller moves
// the credit meter's total.
func (s *State) redeem(what string, cents int64) error {
	if err := s.redeemable(what, cents); err != nil {
		return err
	}
	m := &s.Meters
	nr := min(m[NonRestrictedCredits], cents)
	m[NonRestrictedCredits] -= nr
	m[NonRestrictedCashedOut] += nr
	return nil
}

// transferPromo moves an AFT transfer's money by kind: in-house money in
// or out (electronic transfers 0x17/0x18 and the promotional meters),
// debit money in (0x17), or a bonus win (aftbonus.go).
func (s *State) transferPromo(t aft.Transfer) error {
	m := &s.Meters
	before, a := s.CreditsByKind(), t.Amounts
	switch t.Type {
	case aft.InHouseToHost, aft.WinToHost:
		for _, k := range [3]struct {
			name       string
			move, have int64
		}{{"cashable", a.Cashable, before.Cashable}, {"restricted", a.Restricted, before.Restricted},
			{"non-restricted", a.NonRestricted, before.NonRestricted}} {
			if k.move > k.have {
				return fmt.Errorf("AFT transfer %q of %d %s cents to the host with %d cents of %s credit", t.ID, k.move, k.name, k.have, k.name)
			}
		}
		m[ElectronicOut] += a.Total()
		m[RestrictedOut] += a.Restricted
		m[NonRestrictedOut] += a.NonRestricted
	case aft.InHouseToMachine:
		if a.Restricted > 0 && before.Restricted > 0 && before.RestrictedPool != t.PoolID {
			return fmt.Errorf("AFT transfer %q of restricted credits of pool %d while %d cents of pool %d are on the machine (SAS 8F)",
				t.ID, t.PoolID, before.Restricted, before.RestrictedPool)
		}
		m[ElectronicIn] += a.Total()
		m[RestrictedIn] += a.Restricted
		m[NonRestrictedIn] += a.NonRestricted
	case aft.DebitToMachine:
		// Cashable money in, as an in-house cashable transfer is (the
		// record's check and the aft fold keep it cashable).
		m[ElectronicIn] += a.Total()
	case aft.BonusCoinOut, aft.BonusJackpot:
		s.bonusJackpot(t) // a coin-out bonus is never paid by hand
	default:
		return fmt.Errorf("AFT transfer %q of type %v: the cabinet does not make it", t.ID, t.Type)
	}
	s.setCredits(before.Apply(t))
	return nil
}

// applyPromo folds PromoExpired: every restricted credit, of the pool and
// expiration the ledger holds, past its day.
func (s *State) applyPromo(r PromoExpired) error {
	if err := s.idle("expire restricted credits"); err != nil {
		return err
	}
	c := s.CreditsByKind()
	if c.Restricted == 0 || r.Cents != c.Restricted || r.Pool != c.RestrictedPool || r.Expiration != c.RestrictedExpiration {
		return fmt.Errorf("restricted credits of %d cents (pool %d, expiring %v) expired, but the machine holds %d cents (pool %d, expiring %v)",
			r.Cents, r.Pool, r.Expiration, c.Restricted, c.RestrictedPool, c.RestrictedExpiration)
	}
	day, _ := r.Day.Date()
	after, gone := c.Expire(day)
	if gone != r.Cents {
		return fmt.Errorf("restricted credits expiring %v have not expired on %v", r.Expiration, r.Day)
	}
	s.Meters[RestrictedExpired] += gone
	s.setCredits(after)
	return nil
}

// promoAFTMeters are the ledger's promotional meters and the AFT fold's
// meters that count the same transfers.
var promoAFTMeters = []struct {
	meter Meter
	codes []metercode.Code
}{
	{RestrictedIn, []metercode.Code{aft.MeterInHouseRestrictedIn}},
	{NonRestrictedIn, []metercode.Code{aft.MeterInHouseNonRestrictedIn}},
	{RestrictedOut, []metercode.Code{aft.MeterInHouseRestrictedOut}},
	{NonRestrictedOut, []metercode.Code{aft.MeterInHouseNonRestrictedOut}},
	// The bonus meters: checkWins (a bonus jackpot may be owed by hand).
}

// checkPromo is the equation of each kind of credit: restricted,
// non-restricted and cashable (whose sum is State.Check's credit
// equation), and the agreement of the ledger's promotional meters with the
// AFT fold's, which meters the same transfers by SAS code.
func (s *State) checkPromo() error {
	m := &s.Meters
	rIn, rOut := m[RestrictedIn]+m[RestrictedTicketIn], m[RestrictedOut]+m[RestrictedTicketOut]+s.RestrictedOwed()
	if want := rIn - m[RestrictedPlayed] - rOut - m[RestrictedExpired]; m[RestrictedCredits] != want {
		return fmt.Errorf("restricted credit equation broken: restricted credits %d ≠ in %d (by ticket %d) − played %d − out %d (by ticket %d, %d printing) − expired %d = %d",
			m[RestrictedCredits], rIn, m[RestrictedTicketIn], m[RestrictedPlayed], rOut, m[RestrictedTicketOut], s.RestrictedOwed(), m[RestrictedExpired], want)
	}
	if m[RestrictedTicketIn] > m[TicketIn] || m[RestrictedTicketOut]+s.RestrictedOwed() > m[TicketOut]+s.TicketOwed() {
		return fmt.Errorf("restricted tickets (in %d, out %d) beyond every ticket (in %d, out %d)",
			m[RestrictedTicketIn], m[RestrictedTicketOut]+s.RestrictedOwed(), m[TicketIn], m[TicketOut]+s.TicketOwed())
	}
	if want := m[NonRestrictedIn] - m[NonRestrictedPlayed] - m[NonRestrictedOut] - m[NonRestrictedCashedOut]; m[NonRestrictedCredits] != want {
		return fmt.Errorf("non-restricted credit equation broken: non-restricted credits %d ≠ in %d − played %d − out %d − cashed out %d = %d",
			m[NonRestrictedCredits], m[NonRestrictedIn], m[NonRestrictedPlayed], m[NonRestrictedOut], m[NonRestrictedCashedOut], want)
	}
	if m[RestrictedIn]+m[NonRestrictedIn] > m[ElectronicIn] || m[RestrictedOut]+m[NonRestrictedOut] > m[ElectronicOut] {
		return fmt.Errorf("promotional transfers (in %d + %d, out %d + %d) beyond the electronic transfers (in %d, out %d)",
			m[RestrictedIn], m[NonRestrictedIn], m[RestrictedOut], m[NonRestrictedOut], m[ElectronicIn], m[ElectronicOut])
	}
	c := s.CreditsByKind()
	in := s.MoneyInTotal() - rIn - m[NonRestrictedIn]
	bets := m[CoinIn] - m[RestrictedPlayed] - m[NonRestrictedPlayed]
	out := s.MoneyOutTotal() - rOut - m[NonRestrictedOut] - m[NonRestrictedCashedOut]
	if want := in + m[CoinOut] - bets - out; c.Cashable != want || c.Cashable < 0 {
		return fmt.Errorf("cashable credit equation broken: cashable credits %d ≠ cashable in %d + wins to credits %d − cashable bets %d − cashable out %d = %d",
			c.Cashable, in, m[CoinOut], bets, out, want)
	}
	if c.Restricted == 0 && s.Promo != (Promo{}) {
		return fmt.Errorf("restricted pool %d and expiration %v kept without restricted credits", s.Promo.Pool, s.Promo.Expiration)
	}
	for _, p := range promoAFTMeters {
		var sum int64
		for _, c := range p.codes {
			sum += s.AFT.Meters[c]
		}
		if m[p.meter] != sum {
			return fmt.Errorf("%s %d, but the AFT meters %v count %d", Defs[p.meter].Name, m[p.meter], p.codes, sum)
		}
	}
	return nil
}
