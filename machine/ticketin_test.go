package machine

import (
	"testing"
	"time"

	"github.com/openegm/cabinet/meters"
	"github.com/openegm/cabinet/tito"
)

const inTicket = "001234567890123456"

func ticketHarness(t *testing.T, cfg Config) *harness {
	cfg.DevTickets = false
	h := newHarness(t, cfg, nil, 1)
	h.power()
	return h
}

func TestTicketInCreditsExactlyTheAuthorisedAmountOnce(t *testing.T) {
	h := ticketHarness(t, testCfg)
	eff := h.step(TicketInserted{At: h.now, Digits: inTicket})
	if e := recordsOf[meters.TicketEscrow](eff.Records); len(e) != 1 || e[0].Digits != inTicket {
		t.Fatalf("escrow records %+v", eff.Records)
	}
	// A second ticket while one waits goes back, recorded nowhere.
	eff = h.step(TicketInserted{At: h.now, Digits: "009999999999999999"})
	if len(devicesOf[ReturnTicket](eff)) != 1 || len(eff.Records) != 0 {
		t.Fatalf("second ticket: %+v", eff)
	}
	// An answer for another ticket changes nothing.
	if eff = h.step(HostRedeem{At: h.now, Digits: "009999999999999999", Cents: 500}); len(eff.Records) != 0 {
		t.Fatalf("answer for another ticket recorded %+v", eff.Records)
	}
	eff = h.step(HostRedeem{At: h.now, Digits: inTicket, Cents: 1234})
	if len(devicesOf[StackTicket](eff)) != 1 || h.ledger.Get(meters.Credits) != 1234 || h.ledger.Get(meters.TicketIn) != 1234 {
		t.Fatalf("after the host's answer: devices %+v credits %d", eff.Devices, h.ledger.Get(meters.Credits))
	}
	// The host's answer repeated (a resend) credits nothing more.
	if eff = h.step(HostRedeem{At: h.now, Digits: inTicket, Cents: 1234}); len(eff.Records) != 0 || h.ledger.Get(meters.Credits) != 1234 {
		t.Fatalf("repeated answer: %+v credits %d", eff.Records, h.ledger.Get(meters.Credits))
	}
}

func TestTicketRefusedOrUnansweredGoesBack(t *testing.T) {
	cfg := testCfg
	cfg.TicketTimeout = 3 * time.Second // below the minimum: 10 s it is
	h := ticketHarness(t, cfg)
	h.step(TicketInserted{At: h.now, Digits: inTicket})
	eff := h.step(HostRedeem{At: h.now, Digits: inTicket, Status: RedeemRefusedByHost, Why: "already redeemed"})
	if r := devicesOf[ReturnTicket](eff); len(r) != 1 || h.ledger.Get(meters.Credits) != 0 || h.ledger.TITO.LastRedeem.Status != 0x80 {
		t.Fatalf("refusal: %+v credits %d", eff.Devices, h.ledger.Get(meters.Credits))
	}

	h.step(TicketInserted{At: h.now, Digits: inTicket})
	if eff = h.advance(MinTicketTimeout - time.Second); len(eff.Records) != 0 {
		t.Fatalf("timed out before %v: %+v", MinTicketTimeout, eff.Records)
	}
	eff = h.advance(time.Second)
	if r := recordsOf[meters.TicketRedeem](eff.Records); len(r) != 1 || r[0].Status != RedeemTimedOut || len(devicesOf[ReturnTicket](eff)) != 1 {
		t.Fatalf("timeout: %+v", eff)
	}
	// The host's answer after the timeout changes nothing.
	if eff = h.step(HostRedeem{At: h.now, Digits: inTicket, Cents: 100}); len(eff.Records) != 0 || h.ledger.Get(meters.Credits) != 0 {
		t.Fatalf("late answer credited: %+v", eff.Records)
	}
}

// TestTicketInEscrowSurvivesPowerLoss: the ticket waits for the host
// again after a restart (the host settles with 71 FF and resends 0x71),
// and the timeout starts again from the power-up.
func TestTicketInEscrowSurvivesPowerLoss(t *testing.T) {
	h := ticketHarness(t, testCfg)
	h.step(TicketInserted{At: h.now, Digits: inTicket})
	h.now = h.now.Add(9 * time.Second)
	h.restart(DeviceStatus{})
	if h.m.st.TITO.Escrow == nil {
		t.Fatal("escrow lost in the restart")
	}
	if eff := h.advance(5 * time.Second); len(eff.Records) != 0 {
		t.Fatalf("timed out counting the time before the power loss: %+v", eff.Records)
	}
	h.step(HostRedeem{At: h.now, Digits: inTicket, Cents: 700})
	if h.ledger.Get(meters.Credits) != 700 {
		t.Fatalf("credits %d", h.ledger.Get(meters.Credits))
	}
}

func TestCashOutWithoutHostConfigurationIsAHandpay(t *testing.T) {
	h := ticketHarness(t, testCfg)
	h.bill(2000)
	eff := h.press(BtnCashOut)
	if len(recordsOf[meters.CashOut](eff.Records)) != 0 || len(devicesOf[PrintTicket](eff)) != 0 {
		t.Fatalf("a ticket without a host's validation: %+v", eff)
	}
	if hp := h.ledger.Handpay; hp == nil || hp.Cents != 2000 || hp.Kind != meters.HandpayCancelled {
		t.Fatalf("handpay %+v", hp)
	}
}

func TestCashOutSecureEnhancedNumberFromTheHostsID(t *testing.T) {
	h := ticketHarness(t, testCfg)
	h.step(HostValidationID{At: h.now, ID: 0x123456, Seq: 10})
	h.step(HostTicketData{At: h.now, ExpiryDays: 30, Location: "Casino Lisboa"})
	// The same 0x4C again (the service at every start) changes nothing.
	if eff := h.step(HostValidationID{At: h.now, ID: 0x123456, Seq: 10}); len(eff.Records) != 0 {
		t.Fatalf("repeated 0x4C recorded %+v", eff.Records)
	}
	h.bill(2000)
	eff := h.press(BtnCashOut)
	p := devicesOf[PrintTicket](eff)
	want, _ := tito.SecureEnhanced(0x123456, 11)
	if len(p) != 1 || p[0].Validation != want.Digits() || p[0].Style != meters.StyleSecureEnhanced || p[0].ExpiryDays != 30 || p[0].Casino != "Casino Lisboa" {
		t.Fatalf("printed %+v, want number %s", p, want.Digits())
	}
	if co := recordsOf[meters.CashOut](eff.Records); len(co) != 1 || co[0].Ticket != want.Digits() || co[0].Seq != 11 {
		t.Fatalf("cash-out %+v", co)
	}
	h.step(TicketPrinted{At: h.now, Validation: want.Digits()})
	if u := h.ledger.TITO.Unread(); len(u) != 1 || u[0].Ticket != want.Digits() || u[0].Cents != 2000 {
		t.Fatalf("unread validations %+v", u)
	}
	h.step(HostValidationsRead{At: h.now, Upto: 1})
	if len(h.ledger.TITO.Unread()) != 0 {
		t.Fatal("read validation still unread")
	}
}

func TestCashOutSystemValidation(t *testing.T) {
	cfg := testCfg
	cfg.Validation = ValidationSystem
	h := ticketHarness(t, cfg)
	h.bill(2000)
	h.press(BtnCashOut)
	if q := h.ledger.TITO.Requested; q == nil || q.Cents != 2000 {
		t.Fatalf("request %+v", q)
	}
	if eff := h.press(BtnSpin); eff.Refused != "refused_printing" {
		t.Fatalf("played while the number is awaited: %q", eff.Refused)
	}
	h.step(HostValidationNumber{At: h.now, SystemID: 0})
	if h.ledger.TITO.Requested != nil || h.ledger.Get(meters.Credits) != 2000 {
		t.Fatal("denial did not leave the credits")
	}
	h.press(BtnCashOut)
	eff := h.step(HostValidationNumber{At: h.now, SystemID: 7, Number: 1234567890123456})
	if p := devicesOf[PrintTicket](eff); len(p) != 1 || p[0].Validation != "071234567890123456" || p[0].Style != meters.StyleSystem {
		t.Fatalf("printed %+v", p)
	}
	// No answer in time: paid by hand.
	h.step(TicketPrinted{At: h.now, Validation: "071234567890123456"})
	h.bill(500)
	h.press(BtnCashOut)
	h.advance(MinTicketTimeout)
	if hp := h.ledger.Handpay; hp == nil || hp.Cents != 500 || h.ledger.TITO.Requested != nil {
		t.Fatalf("after the timeout: handpay %+v request %+v", hp, h.ledger.TITO.Requested)
	}
}

// A meter fault records nothing: a ticket offered then goes straight back.
func TestTicketReturnedUnderAMeterFault(t *testing.T) {
	h := ticketHarness(t, testCfg)
	h.step(LedgerFault{At: h.now, Err: "disk full"})
	eff := h.step(TicketInserted{At: h.now, Digits: inTicket})
	if r := devicesOf[ReturnTicket](eff); len(r) != 1 || r[0].Digits != inTicket || len(eff.Records) != 0 {
		t.Fatalf("under a meter fault: %+v", eff)
	}
}
