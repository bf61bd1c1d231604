package machine

import (
	"testing"

	"github.com/openegm/cabinet/aft"
	"github.com/openegm/cabinet/meters"
	"github.com/openegm/cabinet/tito"
)

// rticketHarness is a secure-enhanced cabinet (ID 0x123456, sequence 10)
// holding 1000 cashable and 300 restricted cents of pool 4 (restricted
// cents expiring exp), with restricted tickets turned on or not.
func rticketHarness(t *testing.T, on bool, cash int64, exp aft.Expiration) *harness {
	h := ticketHarness(t, testCfg)
	h.step(HostValidationID{At: h.now, ID: 0x123456, Seq: 10})
	if on {
		h.step(HostValidationControl{At: h.now, Mask: meters.CtlPrintRestricted, States: meters.CtlPrintRestricted, RestrictedExpiry: 15})
		if !h.ledger.TITO.On(meters.CtlPrintRestricted) {
			t.Fatal("0x7B did not turn restricted tickets on")
		}
	}
	h.transfer(h.promo("IN-1", aft.InHouseToMachine, cash, 300, 0, exp))
	return h
}

// number is the secure-enhanced number of sequence seq.
func number(t *testing.T, seq uint32) string {
	t.Helper()
	v, err := tito.SecureEnhanced(0x123456, seq)
	if err != nil {
		t.Fatal(err)
	}
	return v.Digits()
}

// Off (the host never turned them on): the cash-out prints the cashable
// ticket only and the restricted credits stay; a cash-out of them alone is
// refused.
func TestRestrictedTicketsOffLeaveThemOnTheMachine(t *testing.T) {
	h := rticketHarness(t, false, 1000, 0)
	eff := h.press(BtnCashOut)
	if p := devicesOf[PrintTicket](eff); len(p) != 1 || p[0].Kind != "" || p[0].Cents != 1000 {
		t.Fatalf("printed %+v", p)
	}
	eff = h.step(TicketPrinted{At: h.now, Validation: number(t, 11)})
	if len(devicesOf[PrintTicket](eff)) != 0 || len(recordsOf[meters.CashOut](eff.Records)) != 0 {
		t.Fatalf("a restricted ticket while they are off: %+v", eff)
	}
	if c := h.ledger.CreditsByKind(); c.Amounts != (aft.Amounts{Restricted: 300}) || c.RestrictedPool != 4 {
		t.Fatalf("after the cash-out: %+v", c)
	}
	if eff = h.press(BtnCashOut); eff.Refused != "refused_restricted_only" || len(eff.Records) != 0 {
		t.Fatalf("cash-out of restricted credits alone: %+v", eff)
	}
}

// On: the cashable ticket, then, once it is printed, the restricted one
// with the next number, the pool and the credits' expiration date; the
// host reads both.
func TestRestrictedTicketFollowsTheCashable(t *testing.T) {
	h := ticketHarness(t, testCfg)
	exp := h.inAMonth()
	h = rticketHarness(t, true, 1000, exp)
	eff := h.press(BtnCashOut)
	if p := devicesOf[PrintTicket](eff); len(p) != 1 || p[0].Kind != "" || p[0].Cents != 1000 || p[0].Validation != number(t, 11) {
		t.Fatalf("first ticket %+v", p)
	}
	eff = h.step(TicketPrinted{At: h.now, Validation: number(t, 11)})
	p := devicesOf[PrintTicket](eff)
	if len(p) != 1 || p[0].Kind != meters.KindRestricted || p[0].Cents != 300 || p[0].Pool != 4 || p[0].Expiration != uint32(exp) ||
		p[0].ExpiryDays != 0 || p[0].Validation != number(t, 12) || p[0].Style != meters.StyleSecureEnhanced {
		t.Fatalf("restricted ticket %+v", p)
	}
	if h.ledger.Get(meters.Credits) != 0 || h.ledger.RestrictedOwed() != 300 {
		t.Fatalf("while printing: credits %d, restricted owed %d", h.ledger.Get(meters.Credits), h.ledger.RestrictedOwed())
	}
	h.step(TicketPrinted{At: h.now, Validation: number(t, 12)})
	if h.ledger.Get(meters.RestrictedTicketOut) != 300 || h.ledger.Get(meters.TicketOut) != 1300 || h.ledger.Get(meters.RestrictedCredits) != 0 {
		t.Fatalf("meters: restricted ticket out %d, ticket out %d, restricted %d", h.ledger.Get(meters.RestrictedTicketOut),
			h.ledger.Get(meters.TicketOut), h.ledger.Get(meters.RestrictedCredits))
	}
	if u := h.ledger.TITO.Unread(); len(u) != 2 || u[0].Kind != "" || u[1].Kind != meters.KindRestricted || u[1].Pool != 4 || u[1].Expiration != exp {
		t.Fatalf("validations %+v", u)
	}
	if eff = h.press(BtnCashOut); eff.Refused != "refused_no_credit" {
		t.Fatalf("a second cash-out: %+v", eff)
	}
}

// Restricted credits alone, without an expiration date: the restricted
// ticket alone, valid for the host's restricted expiration (0x7B).
func TestRestrictedTicketAlone(t *testing.T) {
	h := rticketHarness(t, true, 0, 0)
	// The printer off as the cash-out device: no ticket of any kind.
	h.step(HostValidationControl{At: h.now, Mask: meters.CtlPrinterCashout})
	if eff := h.press(BtnCashOut); eff.Refused != "refused_restricted_only" || len(devicesOf[PrintTicket](eff)) != 0 {
		t.Fatalf("printer off as the cash-out device: %+v", eff)
	}
	h.step(HostValidationControl{At: h.now, Mask: meters.CtlPrinterCashout, States: meters.CtlPrinterCashout})
	eff := h.press(BtnCashOut)
	p := devicesOf[PrintTicket](eff)
	if len(p) != 1 || p[0].Kind != meters.KindRestricted || p[0].Cents != 300 || p[0].ExpiryDays != 15 || p[0].Expiration != 0 {
		t.Fatalf("restricted ticket %+v", p)
	}
}

// A power loss after the restricted ticket's record reprints it, once; a
// printer that cannot print puts the credits back as restricted credits,
// never paid by hand.
func TestRestrictedTicketAcrossPowerLoss(t *testing.T) {
	h := rticketHarness(t, true, 0, 0)
	h.press(BtnCashOut)
	eff := h.restart(DeviceStatus{})
	p := devicesOf[PrintTicket](eff)
	if len(p) != 1 || !p[0].Reprint || p[0].Kind != meters.KindRestricted || p[0].Validation != number(t, 11) || p[0].Cents != 300 {
		t.Fatalf("after the power loss: %+v", p)
	}
	h.step(TicketPrinted{At: h.now, Validation: number(t, 11)})
	h.restart(DeviceStatus{})
	if h.ledger.Get(meters.RestrictedTicketOut) != 300 || h.ledger.Get(meters.RestrictedTicketsOut) != 1 || h.ledger.Get(meters.Credits) != 0 {
		t.Fatalf("restricted ticket out %d (%d), credits %d", h.ledger.Get(meters.RestrictedTicketOut), h.ledger.Get(meters.RestrictedTicketsOut), h.ledger.Get(meters.Credits))
	}

	h = rticketHarness(t, true, 0, 0)
	h.press(BtnCashOut)
	eff = h.restart(DeviceStatus{PrinterFault: "paper out"})
	if len(recordsOf[meters.TicketVoid](eff.Records)) != 1 || len(recordsOf[meters.HandpayPending](eff.Records)) != 0 {
		t.Fatalf("printer fault at power-up: %+v", eff.Records)
	}
	if c := h.ledger.CreditsByKind(); c.Amounts != (aft.Amounts{Restricted: 300}) || c.RestrictedPool != 4 || h.ledger.Handpay != nil {
		t.Fatalf("after the void: %+v handpay %+v", c, h.ledger.Handpay)
	}
}

// A power loss between the cashable ticket and the restricted one's
// record: the cashable ticket is reprinted, the restricted credits stay on
// the machine (nothing lost, nothing doubled) and the next cash-out prints
// them.
func TestRestrictedCreditsStayWhenPowerFailsBetweenTickets(t *testing.T) {
	h := rticketHarness(t, true, 1000, 0)
	h.press(BtnCashOut)
	eff := h.restart(DeviceStatus{})
	if p := devicesOf[PrintTicket](eff); len(p) != 1 || !p[0].Reprint || p[0].Kind != "" {
		t.Fatalf("reprint %+v", p)
	}
	eff = h.step(TicketPrinted{At: h.now, Validation: number(t, 11)})
	if len(recordsOf[meters.CashOut](eff.Records)) != 0 || h.ledger.Get(meters.RestrictedCredits) != 300 {
		t.Fatalf("after the reprint: %+v, restricted %d", eff.Records, h.ledger.Get(meters.RestrictedCredits))
	}
	eff = h.press(BtnCashOut)
	if p := devicesOf[PrintTicket](eff); len(p) != 1 || p[0].Kind != meters.KindRestricted || p[0].Cents != 300 || p[0].Validation != number(t, 12) {
		t.Fatalf("the next cash-out: %+v", p)
	}
}

// A restricted ticket the host authorises (0x71 code 01) is credited as
// restricted credits of its pool, its expiration in days resolved to a
// date from today, metered as restricted ticket in; it is stacked.
func TestRestrictedTicketInCredited(t *testing.T) {
	h := ticketHarness(t, testCfg)
	h.step(TicketInserted{At: h.now, Digits: inTicket})
	eff := h.step(HostRedeem{At: h.now, Digits: inTicket, Status: RedeemCreditedRestricted, Cents: 500, Pool: 6, Expiration: 30})
	if len(devicesOf[StackTicket](eff)) != 1 {
		t.Fatalf("not stacked: %+v", eff.Devices)
	}
	want := aft.DateOf(h.now.AddDate(0, 0, 30))
	if c := h.ledger.CreditsByKind(); c.Amounts != (aft.Amounts{Restricted: 500}) || c.RestrictedPool != 6 || c.RestrictedExpiration != want {
		t.Fatalf("credits %+v, want 500 restricted of pool 6 expiring %v", c, want)
	}
	if h.ledger.Get(meters.RestrictedTicketIn) != 500 || h.ledger.Get(meters.TicketIn) != 500 || h.ledger.TITO.LastRedeem.Status != RedeemCreditedRestricted {
		t.Fatalf("restricted ticket in %d, ticket in %d, last %+v", h.ledger.Get(meters.RestrictedTicketIn), h.ledger.Get(meters.TicketIn), h.ledger.TITO.LastRedeem)
	}
	// Never cashed out as money.
	if eff = h.press(BtnCashOut); eff.Refused != "refused_restricted_only" {
		t.Fatalf("cash-out of a restricted ticket's credits: %+v", eff)
	}
}

// Restricted credits of another pool on the machine: the ticket goes back
// with 87 and nothing moves; one of the same pool adds to them; a date
// already past is refused too.
func TestRestrictedTicketInPoolConflict(t *testing.T) {
	h := ticketHarness(t, testCfg)
	exp := h.inAMonth()
	h.transfer(h.promo("IN-1", aft.InHouseToMachine, 0, 300, 0, exp))
	h.step(TicketInserted{At: h.now, Digits: inTicket})
	eff := h.step(HostRedeem{At: h.now, Digits: inTicket, Status: RedeemCreditedRestricted, Cents: 200, Pool: 6})
	if r := devicesOf[ReturnTicket](eff); len(r) != 1 || h.ledger.TITO.LastRedeem.Status != RedeemUnableNow || h.ledger.TITO.LastRedeem.Cents != 0 {
		t.Fatalf("another pool: devices %+v last %+v", eff.Devices, h.ledger.TITO.LastRedeem)
	}
	if c := h.ledger.CreditsByKind(); c.Restricted != 300 || c.RestrictedPool != 4 || h.ledger.Get(meters.RestrictedTicketIn) != 0 {
		t.Fatalf("after the refusal: %+v", c)
	}
	h.step(TicketInserted{At: h.now, Digits: inTicket})
	h.step(HostRedeem{At: h.now, Digits: inTicket, Status: RedeemCreditedRestricted, Cents: 200, Pool: 4})
	if c := h.ledger.CreditsByKind(); c.Restricted != 500 || c.RestrictedPool != 4 || c.RestrictedExpiration != 0 {
		t.Fatalf("same pool: %+v (a ticket that never expires keeps them to never)", c)
	}
	// Another ticket: this one was credited, and a copy of it goes back
	// before the host is asked.
	const other = "001234567890123457"
	h.step(TicketInserted{At: h.now, Digits: other})
	past := aft.DateOf(h.now.AddDate(0, 0, -1))
	h.step(HostRedeem{At: h.now, Digits: other, Status: RedeemCreditedRestricted, Cents: 200, Pool: 4, Expiration: past})
	if l := h.ledger.TITO.LastRedeem; l.Status != RedeemUnableNow || h.ledger.Get(meters.RestrictedCredits) != 500 {
		t.Fatalf("an expired date: %+v", l)
	}
}
