package machine

import (
	"github.com/openegm/cabinet/aft"
	"github.com/openegm/cabinet/meters"
)

// Promotional credits (SAS AFT restricted and non-restricted amounts) are
// the ledger's: meters/promo.go says how each kind is played, cashed out
// and transferred. The machine adds what needs its clock and its state:
//
//   - restricted credits whose expiration date has passed are taken off
//     the credit meter (a PromoExpired record) as soon as the machine is
//     idle, before any event it handles: never during a game, and never
//     bet once expired;
//   - a cash-out pays the credits but the restricted ones, which stay on
//     the credit meter for play (or for the host to transfer out); with
//     only restricted credits left the cash-out is refused and says why.
//     Every press of the cash-out button is told to the owner
//     (CashOutPressed), whatever it pays: with AFT, SAS 8.8 has the
//     machine report it to the host (exception 66), which may then
//     transfer out what stays.

// CashOutPressed is not a device command: it tells the owner that the
// player pressed the cash-out button (and the machine acted on it), for
// the casino's host.
type CashOutPressed struct{}

func (CashOutPressed) device() {}

// expirePromo records the end of restricted credits past their
// expiration, when no game, handpay or ticket is under way.
func (m *Machine) expirePromo(eff *Effects) {
	c := m.st.CreditsByKind()
	if c.Restricted == 0 || !c.RestrictedExpiration.Expired(m.now) || !m.poweredUp || m.phase != idle ||
		m.st.Open != nil || m.st.Handpay != nil || m.st.OwedHandpay != 0 || m.st.PendingTicket != nil {
		return
	}
	if m.record(eff, meters.PromoExpired{At: m.ns(), Cents: c.Restricted, Pool: c.RestrictedPool,
		Expiration: c.RestrictedExpiration, Day: aft.DateOf(m.now)}) {
		m.say("msg_promo_expired", c.Restricted)
	}
}

// nothingToCashOut says why a cash-out found nothing to pay: no credit,
// or restricted credits only, which are played and never cashed out.
func (m *Machine) nothingToCashOut() string {
	if m.st.Get(meters.RestrictedCredits) > 0 {
		return "refused_restricted_only"
	}
	return "refused_no_credit"
}

// promoOnMeter reports whether a bet now would take promotional credits
// (they are played first).
func (m *Machine) promoOnMeter() bool {
	return m.st.Meters[meters.RestrictedCredits] > 0 || m.st.Meters[meters.NonRestrictedCredits] > 0
}
