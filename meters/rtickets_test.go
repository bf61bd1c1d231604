package meters

import (
	"strings"
	"testing"
)

const ticketR = "009876543210987654"

// withRestricted is a state with 1000 cashable and 500 restricted cents of
// pool 7 expiring 31 October 2026, and a secure-enhanced configuration.
func withRestricted(t *testing.T) *State {
	t.Helper()
	s := NewState()
	mustApply(t, s, promoIn(s, "IN-1", 1000, 500, 0, 7, 10312026), ValidationConfig{At: 1, ID: 77})
	return s
}

// A cash-out with restricted credits: the cashable ticket, then the
// restricted one, which takes them all, is owed until printed, and is
// then out on the restricted ticket meters and for the host to read as a
// restricted validation.
func TestRestrictedTicketOut(t *testing.T) {
	s := withRestricted(t)
	mustApply(t, s, CashOut{At: 2, Method: OutTicket, Cents: 1000, Ticket: ticketA, Style: StyleSecureEnhanced, Seq: 1},
		TicketPrinted{At: 3, Ticket: ticketA, Cents: 1000})
	kinds(t, s, 0, 500, 0, map[Meter]int64{TicketOut: 1000, RestrictedTicketOut: 0})

	co := CashOut{At: 4, Method: OutTicket, Cents: 500, Ticket: ticketR, Style: StyleSecureEnhanced, Seq: 2,
		Kind: KindRestricted, Pool: 7, Expiration: 10312026}
	for _, bad := range []struct {
		tamper func(*CashOut)
		want   string
	}{
		{func(c *CashOut) { c.Cents = 400 }, "holds 500 restricted cents"},
		{func(c *CashOut) { c.Pool = 8 }, "holds 500 restricted cents"},
		{func(c *CashOut) { c.Expiration = 11302026 }, "holds 500 restricted cents"},
		{func(c *CashOut) { c.Seq = 5 }, "want 2"},
	} {
		c := co
		bad.tamper(&c)
		mustRefuse(t, s, c, bad.want)
	}
	mustApply(t, s, co)
	kinds(t, s, 0, 0, 0, nil)
	if s.RestrictedOwed() != 500 || s.TicketOwed() != 500 || s.Promo != (Promo{}) || len(s.TITO.Unread()) != 1 {
		t.Fatalf("while printing: owed %d/%d promo %+v unread %d", s.RestrictedOwed(), s.TicketOwed(), s.Promo, len(s.TITO.Unread()))
	}
	mustApply(t, s, TicketPrinted{At: 5, Ticket: ticketR, Cents: 500})
	kinds(t, s, 0, 0, 0, map[Meter]int64{TicketOut: 1500, TicketsOut: 2, RestrictedTicketOut: 500, RestrictedTicketsOut: 1})
	u := s.TITO.Unread()
	if len(u) != 2 || u[1].Kind != KindRestricted || u[1].Pool != 7 || u[1].Expiration != 10312026 || u[1].Ticket != ticketR || u[0].Kind != "" {
		t.Fatalf("validations %+v", u)
	}
	if s.TITO.RestrictedOut != (ValidationMeter{Count: 1, Cents: 500}) || s.TITO.Meters[ValMeterCashableOut] != (ValidationMeter{Count: 1, Cents: 1000}) {
		t.Fatalf("validation meters: restricted %+v cashable %+v", s.TITO.RestrictedOut, s.TITO.Meters[ValMeterCashableOut])
	}
}

// A restricted ticket the printer cannot print puts its credits back as
// restricted credits of their pool and expiration, never as cashable.
func TestRestrictedTicketVoidPutsThemBack(t *testing.T) {
	s := withRestricted(t)
	mustApply(t, s, CashOut{At: 2, Method: OutTicket, Cents: 500, Ticket: ticketR, Style: StyleSecureEnhanced, Seq: 1,
		Kind: KindRestricted, Pool: 7, Expiration: 10312026})
	kinds(t, s, 1000, 0, 0, nil)
	mustApply(t, s, TicketVoid{At: 3, Ticket: ticketR, Cents: 500, Why: "printer fault"})
	kinds(t, s, 1000, 500, 0, map[Meter]int64{RestrictedTicketOut: 0, TicketOut: 0})
	if s.Promo != (Promo{Pool: 7, Expiration: 10312026}) || s.Redeemable() != 1000 {
		t.Fatalf("after the void: promo %+v redeemable %d", s.Promo, s.Redeemable())
	}
}

// A restricted ticket redeemed (status 01) credits restricted credits of
// its pool; another pool's ticket is refused while some remain, the same
// pool's keeps the later expiration.
func TestRestrictedTicketIn(t *testing.T) {
	s := NewState()
	mustApply(t, s, TicketEscrow{At: 1, Digits: ticketR},
		TicketRedeem{At: 2, Digits: ticketR, Status: RedeemedRestricted, Cents: 300, Pool: 9, Expiration: 10312026})
	kinds(t, s, 0, 300, 0, map[Meter]int64{TicketIn: 300, RestrictedTicketIn: 300, RestrictedTicketsIn: 1, RestrictedIn: 0})
	if s.Promo != (Promo{Pool: 9, Expiration: 10312026}) || s.TITO.RestrictedIn != (ValidationMeter{Count: 1, Cents: 300}) ||
		s.TITO.Meters[ValMeterCashableIn].Count != 0 || s.TITO.LastRedeem.Status != RedeemedRestricted {
		t.Fatalf("promo %+v restricted in %+v cashable in %+v last %+v", s.Promo, s.TITO.RestrictedIn, s.TITO.Meters[ValMeterCashableIn], s.TITO.LastRedeem)
	}
	mustApply(t, s, TicketEscrow{At: 3, Digits: ticketA})
	mustRefuse(t, s, TicketRedeem{At: 4, Digits: ticketA, Status: RedeemedRestricted, Cents: 100, Pool: 4}, "of pool 9 are on the machine")
	mustApply(t, s, TicketRedeem{At: 4, Digits: ticketA, Status: RedeemedRestricted, Cents: 100, Pool: 9, Expiration: 12312026})
	kinds(t, s, 0, 400, 0, map[Meter]int64{TicketIn: 400, RestrictedTicketIn: 400, RestrictedTicketsIn: 2})
	if s.Promo.Expiration != 12312026 {
		t.Fatalf("expiration %v, want the later one", s.Promo.Expiration)
	}
	// Played first, then cashed out as nothing: the redeemable part is 0.
	mustApply(t, s, game(1, 400, 0)...)
	kinds(t, s, 0, 0, 0, map[Meter]int64{RestrictedPlayed: 400})
}

func TestRestrictedTicketRecordsRefuseMalformed(t *testing.T) {
	co := CashOut{Method: OutTicket, Cents: 5, Ticket: ticketR, Style: StyleSecureEnhanced, Seq: 1, Kind: KindRestricted, Pool: 3}
	for _, bad := range []struct {
		tamper func(*CashOut)
		want   string
	}{
		{func(c *CashOut) { c.Method, c.Ticket, c.Style = OutHopper, "", "" }, "want a secure-enhanced ticket"},
		{func(c *CashOut) { c.Style = "" }, "want a secure-enhanced ticket"},
		{func(c *CashOut) { c.Style, c.Ticket = StyleSystem, "011234567890123456" }, "want a secure-enhanced ticket"},
		{func(c *CashOut) { c.Expiration = 13012026 }, "want a date, or days"},
		{func(c *CashOut) { c.Expiration, c.ExpiryDays = 10312026, 30 }, "want a date, or days"},
		{func(c *CashOut) { c.Kind = "cashable" }, "of kind"},
		{func(c *CashOut) { c.Kind = "" }, "cashable cash-out with a restricted pool"},
	} {
		c := co
		bad.tamper(&c)
		if _, err := Encode(c); err == nil || !strings.Contains(err.Error(), bad.want) {
			t.Errorf("%+v: %v, want %q", c, err, bad.want)
		}
	}
	if _, err := Encode(co); err != nil {
		t.Fatalf("a lawful restricted cash-out refused: %v", err)
	}
	for _, r := range []TicketRedeem{
		{Digits: ticketR, Status: RedeemedCashable, Cents: 5, Pool: 2},
		{Digits: ticketR, Status: 0x80, Expiration: 10312026},
		{Digits: ticketR, Status: RedeemedRestricted, Cents: 5, Expiration: 30},
		{Digits: ticketR, Status: RedeemedRestricted, Cents: 0},
	} {
		if _, err := Encode(r); err == nil {
			t.Errorf("%+v encoded", r)
		}
	}
}

// The restricted ticket meters are in the restricted credit equation and
// within the total ticket meters.
func TestRestrictedTicketEquations(t *testing.T) {
	for _, c := range []struct {
		name   string
		tamper func(s *State)
		want   string
	}{
		{"a restricted ticket out not taken off", func(s *State) { s.Meters[RestrictedTicketOut] += 50; s.Meters[TicketOut] += 50 },
			"restricted credit equation broken"},
		{"a restricted ticket in relabelled cashable", func(s *State) { s.Meters[RestrictedTicketIn] -= 100 }, "restricted credit equation broken"},
		{"restricted tickets beyond every ticket", func(s *State) {
			s.Meters[RestrictedTicketIn] += 1000
			s.Meters[RestrictedIn] -= 1000
		}, "beyond every ticket"},
	} {
		s := NewState()
		mustApply(t, s, promoIn(s, "IN-1", 1000, 1000, 0, 7, 0), TicketEscrow{At: 1, Digits: ticketR},
			TicketRedeem{At: 2, Digits: ticketR, Status: RedeemedRestricted, Cents: 100, Pool: 7})
		if err := s.Check(); err != nil {
			t.Fatal(err)
		}
		c.tamper(s)
		if err := s.Check(); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v, want %q", c.name, err, c.want)
		}
	}
}

// Printing restricted tickets is off until the host turns it on, and a
// 0x7B that never names it (every ledger written before it) leaves it off.
func TestPrintRestrictedDefaultsOff(t *testing.T) {
	s := NewState()
	if s.TITO.On(CtlPrintRestricted) {
		t.Fatal("restricted tickets on before the host turned them on")
	}
	mustApply(t, s, ValidationControl{At: 1, Off: CtlTicketRedemption})
	if s.TITO.On(CtlPrintRestricted) || s.TITO.On(CtlTicketRedemption) || !s.TITO.On(CtlPrinterCashout) {
		t.Fatalf("after a 0x7B without it: %+v", s.TITO)
	}
	on := ControlOn(0, CtlPrintRestricted|CtlPrinterCashout, CtlPrintRestricted)
	off := ControlOff(0, CtlPrintRestricted|CtlPrinterCashout, CtlPrintRestricted)
	if on != CtlPrintRestricted || off != CtlPrinterCashout {
		t.Fatalf("0x7B setting restricted on, cashout off: on %04X off %04X", on, off)
	}
	mustApply(t, s, ValidationControl{At: 2, Off: off, On: on})
	if !s.TITO.On(CtlPrintRestricted) || s.TITO.On(CtlPrinterCashout) {
		t.Fatalf("after turning it on: %+v", s.TITO)
	}
	if ControlOn(on, CtlPrintRestricted, 0) != 0 || ControlOn(on, CtlPrinterHandpay, 0) != on {
		t.Fatal("ControlOn does not turn the bit off, or changes a bit it does not own")
	}
	for _, r := range []ValidationControl{{On: CtlPrinterCashout}, {Off: CtlPrintRestricted}, {On: 0x0010}} {
		if _, err := Encode(r); err == nil {
			t.Errorf("%+v encoded", r)
		}
	}
}
