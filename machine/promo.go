package machine

import (
	"fmt"

	"github.com/openegm/cabinet/aft"
	"github.com/openegm/cabinet/meters"
	"github.com/openegm/cabinet/tito"
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
//     the credit meter for play (or for the host to transfer out), or,
//     when the host turned restricted tickets on, leave on a restricted
//     ticket (below); with only restricted credits left and no restricted
//     ticket to print, the cash-out is refused and says why.
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

// Restricted promotional tickets (SAS 6.02 section 15, validation type
// 01). When the host has turned them on (0x7B bit 0x0008), a cash-out
// that leaves restricted credits prints them on a ticket of their own,
// after the cashable ticket or alone: all of them, with their pool and
// expiration, numbered from the secure-enhanced sequence like any ticket,
// so that the ticket system records it and another machine redeems it
// (0x71 transfer code 01) as restricted credits again. The record comes
// first and the printer after, as for any ticket (DESIGN rule 9): a power
// loss before the printer confirms it reprints it at power-up, and one
// between the cashable ticket and the restricted one's record leaves the
// restricted credits on the machine, where the next cash-out prints them.
//
// Choice: secure-enhanced only. A system-validated cash-out asks the host
// for the number of one ticket (0x57); a restricted ticket without a
// number the host knows could never be played again.

// printsRestricted says whether a cash-out now prints the restricted
// credits on a restricted ticket: the host turned them on and left the
// printer on as the cash-out device.
func (m *Machine) printsRestricted() bool {
	t := &m.st.TITO
	return m.st.Get(meters.RestrictedCredits) > 0 && t.On(meters.CtlPrintRestricted) && t.On(meters.CtlPrinterCashout) &&
		m.cfg.Validation != ValidationSystem && m.enhanced().Configured() && !m.devFault[TiltPrinter]
}

// restrictedAfter prints the restricted ticket of the cash-out whose
// cashable ticket was just confirmed printed.
func (m *Machine) restrictedAfter(eff *Effects) {
	if m.restrictedNext && m.st.PendingTicket == nil && m.printsRestricted() {
		m.restrictedCashOut(eff)
	}
	m.restrictedNext = false
}

// restrictedCashOut records and prints the restricted ticket.
func (m *Machine) restrictedCashOut(eff *Effects) {
	next, v, err := m.enhanced().Next()
	if err != nil {
		return
	}
	c := m.st.CreditsByKind()
	co := meters.CashOut{At: m.ns(), Method: meters.OutTicket, Cents: c.Restricted, Ticket: v.Digits(),
		Style: meters.StyleSecureEnhanced, Seq: next.Seq, TicketNo: m.ticketNumber(),
		Kind: meters.KindRestricted, Pool: c.RestrictedPool, Expiration: c.RestrictedExpiration}
	if co.Expiration == 0 {
		co.ExpiryDays = m.restrictedExpiryDays()
	}
	m.printCashOut(co, eff)
}

// restrictedExpiryDays is what a restricted ticket whose credits have no
// expiration date prints: the host's default (0x7B), else never.
func (m *Machine) restrictedExpiryDays() uint16 {
	if d := m.st.TITO.RestrictedExpiry; d != 0 {
		return d
	}
	return tito.ExpiryNever
}

// restrictedTicketIn decides a restricted ticket the host authorised
// (0x71 transfer code 01): its expiration resolved to a date from today
// (the host may send days), or the status and reason that refuse it.
// Restricted credits are of one pool at a time (SAS 6.02 section 8, as
// for AFT's status 8F): a ticket of another pool while some remain is
// refused with 87, "gaming machine unable to accept transfer at this
// time", table 15.12d having no code of its own for it; the player plays
// or the host takes the others first, and the ticket stays valid.
func (m *Machine) restrictedTicketIn(e HostRedeem) (status byte, why string, exp aft.Expiration) {
	c := m.st.CreditsByKind()
	if c.Restricted > 0 && c.RestrictedPool != e.Pool {
		return RedeemUnableNow, fmt.Sprintf("restricted credits of pool %d on the machine, the ticket is of pool %d", c.RestrictedPool, e.Pool), 0
	}
	exp, ok := e.Expiration.Resolve(m.now)
	if !ok {
		return RedeemUnableNow, fmt.Sprintf("restricted expiration %v is not a date to come", e.Expiration), 0
	}
	return RedeemCreditedRestricted, "", exp
}
