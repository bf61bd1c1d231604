package machine

import (
	"testing"
	"time"

	"github.com/openegm/cabinet/meters"
	"github.com/openegm/cabinet/tito"
)

const inTicket = "001234567890123456"

func ref[T any](v T) *T { return &v }

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
	h.step(HostTicketData{At: h.now, ExpiryDays: ref[uint16](30), Location: ref("Casino Lisboa")})
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

// systemCashOut is a cabinet in system validation whose cash-out of 20 €
// waits for the host's number.
func systemCashOut(t *testing.T) *harness {
	cfg := testCfg
	cfg.Validation = ValidationSystem
	h := ticketHarness(t, cfg)
	h.bill(2000)
	h.press(BtnCashOut)
	if q := h.ledger.TITO.Requested; q == nil || q.Cents != 2000 {
		t.Fatalf("request %+v", q)
	}
	return h
}

func TestCashOutSystemValidation(t *testing.T) {
	h := systemCashOut(t)
	if eff := h.press(BtnSpin); eff.Refused != "refused_printing" {
		t.Fatalf("played while the number is awaited: %q", eff.Refused)
	}
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

// TestSystemValidationDeniedIsAHandpay: SAS 15.8 has a machine treat no
// 0x58 in time as a denial; both pay the cash-out by hand, recorded.
func TestSystemValidationDeniedIsAHandpay(t *testing.T) {
	h := systemCashOut(t)
	eff := h.step(HostValidationNumber{At: h.now, SystemID: 0})
	if d := recordsOf[meters.ValidationDenied](eff.Records); len(d) != 1 || d[0].Cents != 2000 || d[0].Why == "" {
		t.Fatalf("denial recorded as %+v", eff.Records)
	}
	if hp := h.ledger.Handpay; hp == nil || hp.Cents != 2000 || hp.Kind != meters.HandpayCancelled || h.ledger.TITO.Requested != nil {
		t.Fatalf("after the denial: handpay %+v request %+v", hp, h.ledger.TITO.Requested)
	}
	if len(devicesOf[PrintTicket](eff)) != 0 {
		t.Fatal("a ticket printed after a denial")
	}
	// A number that comes after the denial prints nothing.
	if eff = h.step(HostValidationNumber{At: h.now, SystemID: 7, Number: 1234567890123456}); len(eff.Records) != 0 {
		t.Fatalf("a late number recorded %+v", eff.Records)
	}
}

// handpayHarness is a secure-enhanced cabinet configured by the host
// (ID 0x123456, sequence 10) with a cancelled-credit handpay of 1000 €
// pending.
func handpayHarness(t *testing.T, cfg Config) *harness {
	h := ticketHarness(t, cfg)
	h.step(HostValidationID{At: h.now, ID: 0x123456, Seq: 10})
	h.step(HostTicketData{At: h.now, ExpiryDays: ref[uint16](30), Location: ref("Casino Lisboa")})
	h.bill(50000)
	h.bill(50000)
	h.press(BtnCashOut)
	if hp := h.ledger.Handpay; hp == nil || hp.Cents != 100000 {
		t.Fatalf("no handpay: %+v", hp)
	}
	return h
}

// TestHandpayValidatedWithItsReceipt: a handpay the attendant confirms
// paid is reset and numbered from the host's validation ID in one record;
// the receipt carries that number and the host reads it with 0x4D,
// after a power loss too.
func TestHandpayValidatedWithItsReceipt(t *testing.T) {
	cfg := testCfg
	cfg.HandpayConfirm = true
	h := handpayHarness(t, cfg)
	h.keyOn("att-7")
	if !h.m.View().HandpayVoucher {
		// The attendant must be told not to pay: the cashier pays the receipt.
		t.Fatal("the confirmation of a numbered receipt is not marked as the cashier's voucher")
	}
	eff := h.step(HandpayPaid{At: h.now, Cents: 100000})
	if msg := h.m.View().Message; msg.Key != "msg_handpay_voucher" || len(msg.Args) != 1 || msg.Args[0] != 100000 {
		t.Fatalf("the player is told %+v, not that the cashier pays the receipt", msg)
	}
	want, _ := tito.SecureEnhanced(0x123456, 11)
	hv := recordsOf[meters.HandpayValidated](eff.Records)
	if len(hv) != 1 || hv[0].Ticket != want.Digits() || hv[0].Seq != 11 || !hv[0].Receipt || hv[0].Who != "att-7" ||
		len(recordsOf[meters.HandpayReset](eff.Records)) != 0 {
		t.Fatalf("records %+v, want one HandpayValidated with %s", eff.Records, want.Digits())
	}
	p := devicesOf[PrintReceipt](eff)
	if len(p) != 1 || p[0].Validation != want.Digits() || p[0].TicketNo != 1 || p[0].ExpiryDays != 30 || p[0].Casino != "Casino Lisboa" {
		t.Fatalf("receipt %+v", p)
	}
	if h.ledger.Handpay != nil || h.ledger.Get(meters.Credits) != 0 || h.ledger.Get(meters.HandpaidCancelled) != 100000 {
		t.Fatalf("not reset: %+v", h.ledger.Handpay)
	}
	h.restart(DeviceStatus{})
	u := h.m.st.TITO.Unread()
	if len(u) != 1 || u[0].Ticket != want.Digits() || u[0].Handpay != meters.HandpayCancelled || !u[0].Receipt {
		t.Fatalf("unread after the restart %+v", u)
	}
	// The next cash-out ticket takes the next number.
	h.bill(2000)
	next, _ := tito.SecureEnhanced(0x123456, 12)
	if pt := devicesOf[PrintTicket](h.press(BtnCashOut)); len(pt) != 1 || pt[0].Validation != next.Digits() {
		t.Fatalf("ticket after the handpay %+v, want %s", pt, next.Digits())
	}
}

// TestHandpayValidationFollowsTheHost: reset by the key alone (no screen)
// or by the host's 0x94, a handpay is validated without a receipt; with
// handpay validation turned off by 0x7B it is reset plainly; with the
// receipt printer turned off, the confirmed handpay prints none; in system
// validation handpays are not validated (0x57 has no type for one).
func TestHandpayValidationFollowsTheHost(t *testing.T) {
	h := handpayHarness(t, testCfg)
	eff := h.step(Key{At: h.now, Key: KeyAttendant, On: true, Who: "att-1"})
	if hv := recordsOf[meters.HandpayValidated](eff.Records); len(hv) != 1 || hv[0].Receipt || len(devicesOf[PrintReceipt](eff)) != 0 {
		t.Fatalf("key reset: %+v", eff)
	}

	h = handpayHarness(t, testCfg)
	eff = h.step(HostHandpayReset{At: h.now, Who: "SAS host (0x94)", Pending: *h.ledger.Handpay})
	if hv := recordsOf[meters.HandpayValidated](eff.Records); len(hv) != 1 || hv[0].Receipt {
		t.Fatalf("host reset: %+v", eff.Records)
	}

	h = handpayHarness(t, testCfg)
	h.step(HostValidationControl{At: h.now, Mask: meters.CtlValidateHandpays})
	eff = h.step(Key{At: h.now, Key: KeyAttendant, On: true, Who: "att-1"})
	if len(recordsOf[meters.HandpayValidated](eff.Records)) != 0 || len(recordsOf[meters.HandpayReset](eff.Records)) != 1 {
		t.Fatalf("validation off: %+v", eff.Records)
	}

	cfg := testCfg
	cfg.HandpayConfirm = true
	h = handpayHarness(t, cfg)
	h.step(HostValidationControl{At: h.now, Mask: meters.CtlPrinterHandpay})
	h.keyOn("att-2")
	if h.m.View().HandpayVoucher {
		t.Fatal("receipts off: the attendant is told not to pay")
	}
	eff = h.step(HandpayPaid{At: h.now, Cents: 100000})
	if hv := recordsOf[meters.HandpayValidated](eff.Records); len(hv) != 1 || hv[0].Receipt || len(devicesOf[PrintReceipt](eff)) != 0 {
		t.Fatalf("receipts off: %+v", eff)
	}
	if k := h.m.View().Message.Key; k != "msg_handpay_reset" {
		t.Fatalf("receipts off: the player is told %s", k)
	}

	cfg.Validation = ValidationSystem
	h = ticketHarness(t, cfg)
	h.bill(50000)
	h.bill(50000)
	h.press(BtnCashOut)
	h.keyOn("att-3")
	if h.m.View().HandpayVoucher {
		t.Fatal("system validation: a receipt without a number is marked as the cashier's voucher")
	}
	eff = h.step(HandpayPaid{At: h.now, Cents: 100000})
	if len(recordsOf[meters.HandpayReset](eff.Records)) != 1 || len(devicesOf[PrintReceipt](eff)) != 1 || devicesOf[PrintReceipt](eff)[0].Validation != "" {
		t.Fatalf("system validation: %+v", eff)
	}
}

// TestValidationControlObeyed: what the host turns off with 0x7B the
// cabinet stops doing: a ticket offered goes back unrecorded, a cash-out
// is paid by hand; 0x7B's cashable expiration is the one printed.
func TestValidationControlObeyed(t *testing.T) {
	h := ticketHarness(t, testCfg)
	h.step(HostValidationID{At: h.now, ID: 0x123456, Seq: 10})
	eff := h.step(HostValidationControl{At: h.now, Mask: meters.CtlTicketRedemption | meters.CtlPrinterCashout | 0x0008,
		States: 0x0008, CashableExpiry: 45})
	if c := recordsOf[meters.ValidationControl](eff.Records); len(c) != 1 || c[0].Off != meters.CtlTicketRedemption|meters.CtlPrinterCashout {
		t.Fatalf("control recorded %+v", eff.Records)
	}
	eff = h.step(TicketInserted{At: h.now, Digits: inTicket})
	if len(eff.Records) != 0 || len(devicesOf[ReturnTicket](eff)) != 1 {
		t.Fatalf("ticket with redemption off: %+v", eff)
	}
	h.bill(2000)
	eff = h.press(BtnCashOut)
	if len(devicesOf[PrintTicket](eff)) != 0 || h.ledger.Handpay == nil || h.ledger.Handpay.Cents != 2000 {
		t.Fatalf("cash-out with the printer off: %+v handpay %+v", eff, h.ledger.Handpay)
	}
	h.step(Key{At: h.now, Key: KeyAttendant, On: true, Who: "att-1"})
	h.step(Key{At: h.now, Key: KeyAttendant, On: false})
	// Back on: the same 0x7B repeated records nothing new.
	h.step(HostValidationControl{At: h.now, Mask: meters.CtlTicketRedemption | meters.CtlPrinterCashout,
		States: meters.CtlTicketRedemption | meters.CtlPrinterCashout})
	if eff = h.step(HostValidationControl{At: h.now, Mask: meters.CtlPrinterCashout, States: meters.CtlPrinterCashout}); len(eff.Records) != 0 {
		t.Fatalf("a repeated 0x7B recorded %+v", eff.Records)
	}
	h.bill(2000)
	if p := devicesOf[PrintTicket](h.press(BtnCashOut)); len(p) != 1 || p[0].ExpiryDays != 45 {
		t.Fatalf("printed %+v, want a 45-day ticket", p)
	}
}

// TestTicketDataKeepsWhatTheHostDidNotSend: 0x7C sets the texts it names,
// 0x7D the expiry and its non-empty texts; the rest stays.
func TestTicketDataKeepsWhatTheHostDidNotSend(t *testing.T) {
	h := ticketHarness(t, testCfg)
	h.step(HostTicketData{At: h.now, ExpiryDays: ref[uint16](30), Location: ref("Casino Lisboa"), Address1: ref("Av. da Liberdade")})
	h.step(HostTicketData{At: h.now, Address2: ref("1250 Lisboa"), RestrictedTitle: ref("PROMO")})
	h.step(HostTicketData{At: h.now, ExpiryDays: ref[uint16](0)})
	d := h.ledger.TITO.Data
	if d == nil || d.ExpiryDays != 0 || d.Location != "Casino Lisboa" || d.Address1 != "Av. da Liberdade" || d.Address2 != "1250 Lisboa" || d.RestrictedTitle != "PROMO" {
		t.Fatalf("ticket data %+v", d)
	}
	if eff := h.step(HostTicketData{At: h.now, Location: ref("Casino Lisboa")}); len(eff.Records) != 0 {
		t.Fatalf("the same text again recorded %+v", eff.Records)
	}
}

// A copy of a ticket this cabinet credited goes back at once, whatever the
// host would answer (here a host that authorises the same ticket twice):
// the ledger knows every number it credited. Nothing is escrowed, so no
// host is asked; the player reads why, in the screen's languages; the
// credit stays one. After a restart the ledger still knows.
func TestTicketCreditedHereIsRefusedWithoutTheHost(t *testing.T) {
	h := ticketHarness(t, testCfg)
	h.step(TicketInserted{At: h.now, Digits: inTicket})
	eff := h.step(HostRedeem{At: h.now, Digits: inTicket, Cents: 1234})
	if r := recordsOf[meters.TicketRedeem](eff.Records); len(r) != 1 || !r[0].Once {
		t.Fatalf("the credit %+v is not marked for the set", r)
	}
	for i := range 2 {
		eff = h.step(TicketInserted{At: h.now, Digits: inTicket})
		back := devicesOf[ReturnTicket](eff)
		if len(back) != 1 || back[0].Reason != "already credited at this machine" || len(eff.Records) != 0 || h.m.st.TITO.Escrow != nil {
			t.Fatalf("copy %d: devices %+v records %+v", i, eff.Devices, eff.Records)
		}
		if msg := h.m.View().Message; msg.Key != "msg_ticket_used" {
			t.Fatalf("copy %d: the player reads %+v", i, msg)
		}
		// The host authorising it again credits nothing: nothing waits.
		if eff = h.step(HostRedeem{At: h.now, Digits: inTicket, Cents: 1234}); len(eff.Records) != 0 {
			t.Fatalf("copy %d: a second authorisation recorded %+v", i, eff.Records)
		}
		if h.ledger.Get(meters.Credits) != 1234 || h.ledger.TITO.TicketsIn != 1 {
			t.Fatalf("copy %d: credits %d, tickets in %d", i, h.ledger.Get(meters.Credits), h.ledger.TITO.TicketsIn)
		}
		h.restart(DeviceStatus{})
	}
	// Another ticket is still taken.
	h.step(TicketInserted{At: h.now, Digits: "009999999999999999"})
	if h.m.st.TITO.Escrow == nil {
		t.Fatal("another ticket was refused")
	}
}

// A ticket in escrow whose number the ledger credited already (escrowed
// by a build that did not refuse it at insertion): a host that authorises
// it gets it refused and returned, never credited twice.
func TestHostCreditOfACreditedNumberIsRefused(t *testing.T) {
	h := ticketHarness(t, testCfg)
	h.step(TicketInserted{At: h.now, Digits: inTicket})
	h.step(HostRedeem{At: h.now, Digits: inTicket, Cents: 1234})
	if err := h.ledger.Apply(meters.TicketEscrow{At: h.ledger.TITO.LastRedeem.At + 1, Digits: inTicket}); err != nil {
		t.Fatal(err)
	}
	h.restart(DeviceStatus{})
	eff := h.step(HostRedeem{At: h.now, Digits: inTicket, Cents: 1234})
	r := recordsOf[meters.TicketRedeem](eff.Records)
	if len(r) != 1 || r[0].Status != RedeemRefusedByHost || r[0].Cents != 0 || r[0].Once || len(devicesOf[ReturnTicket](eff)) != 1 {
		t.Fatalf("records %+v devices %+v", eff.Records, eff.Devices)
	}
	if h.ledger.Get(meters.Credits) != 1234 || h.m.View().Message.Key != "msg_ticket_used" {
		t.Fatalf("credits %d, message %+v", h.ledger.Get(meters.Credits), h.m.View().Message)
	}
}
