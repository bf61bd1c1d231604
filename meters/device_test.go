package meters

import (
	"strings"
	"testing"
)

// idleWithCredits is a state with 2000 cents of credit and no game.
func idleWithCredits(t *testing.T) *State {
	t.Helper()
	s := NewState()
	if err := s.Apply(MoneyIn{Source: SourceBill, Cents: 2000}); err != nil {
		t.Fatal(err)
	}
	return s
}

func mustApply(t *testing.T, s *State, recs ...Record) {
	t.Helper()
	for _, r := range recs {
		if err := s.Apply(r); err != nil {
			t.Fatalf("%v: %v", r.Type(), err)
		}
	}
}

func TestTicketIsOutOnlyWhenPrinted(t *testing.T) {
	s := idleWithCredits(t)
	mustApply(t, s, CashOut{Method: OutTicket, Cents: 2000, Ticket: "A1"})
	if s.Get(Credits) != 0 || s.Get(TicketOut) != 0 || s.Get(TicketsOut) != 0 || s.TicketOwed() != 2000 {
		t.Fatalf("after the cash-out: credits %d, ticket out %d (%d tickets), owed %d", s.Get(Credits), s.Get(TicketOut), s.Get(TicketsOut), s.TicketOwed())
	}
	for _, bad := range []struct {
		rec  Record
		want string
	}{
		{TicketPrinted{Ticket: "A2", Cents: 2000}, "ticket owed is A1"},
		{TicketPrinted{Ticket: "A1", Cents: 1999}, "ticket owed is A1"},
		{CashOut{Method: OutTicket, Cents: 1, Ticket: "A2"}, "not printed"},
		{GameStart{Game: 1, Paytable: "p", Digest: "d", Denom: 1, BetCredits: 1, BetCents: 1, Stops: []int{1}}, "not printed"},
		{RAMClear{Who: "t", Why: "x"}, "ticket or bill owed"},
	} {
		if err := s.Clone().Apply(bad.rec); err == nil || !strings.Contains(err.Error(), bad.want) {
			t.Errorf("%v %+v: got %v, want %q", bad.rec.Type(), bad.rec, err, bad.want)
		}
	}
	mustApply(t, s, TicketPrinted{Ticket: "A1", Cents: 2000})
	if s.Get(TicketOut) != 2000 || s.Get(TicketsOut) != 1 || s.TicketOwed() != 0 || s.TicketSeq != 1 {
		t.Fatalf("after printing: ticket out %d (%d tickets), owed %d, seq %d", s.Get(TicketOut), s.Get(TicketsOut), s.TicketOwed(), s.TicketSeq)
	}
	if err := s.Apply(TicketPrinted{Ticket: "A1", Cents: 2000}); err == nil {
		t.Fatal("a ticket confirmed printed twice")
	}
}

func TestVoidTicketReturnsToCreditsAndKeepsItsNumber(t *testing.T) {
	s := idleWithCredits(t)
	mustApply(t, s, CashOut{Method: OutTicket, Cents: 2000, Ticket: "A1"},
		TicketVoid{Ticket: "A1", Cents: 2000, Why: "printer jam"})
	if s.Get(Credits) != 2000 || s.Get(TicketOut) != 0 || s.TicketSeq != 1 {
		t.Fatalf("after the void: credits %d, ticket out %d, seq %d", s.Get(Credits), s.Get(TicketOut), s.TicketSeq)
	}
	// The next ticket has the next number even after a RAM clear.
	mustApply(t, s, HandpayPending{Kind: HandpayCancelled, Cents: 2000}, HandpayReset{Who: "att", Cents: 2000},
		RAMClear{Who: "t", Why: "x"})
	if s.TicketSeq != 1 {
		t.Fatalf("ticket sequence %d after a RAM clear, want 1", s.TicketSeq)
	}
}

func TestBillOrderIsCreditedOrReturnedOnce(t *testing.T) {
	s := NewState()
	mustApply(t, s, BillEscrow{Ref: 1, Cents: 5000})
	for _, bad := range []struct {
		rec  Record
		want string
	}{
		{MoneyIn{Source: SourceBill, Cents: 5000}, "order 1 of 5000 cents is pending"},
		{MoneyIn{Source: SourceBill, Cents: 5000, Order: 2}, "order 1 of 5000 cents is pending"},
		{MoneyIn{Source: SourceBill, Cents: 2000, Order: 1}, "order 1 of 5000 cents is pending"},
		{BillEscrow{Ref: 2, Cents: 500}, "not finished"},
		{BillReturned{Ref: 1, Cents: 500, Why: "x"}, "not the order pending"},
		{RAMClear{Who: "t", Why: "x"}, "ticket or bill owed"},
		{MoneyIn{Source: SourceCoin, Cents: 5, Order: 1}, "with a bill order"},
	} {
		if err := s.Clone().Apply(bad.rec); err == nil || !strings.Contains(err.Error(), bad.want) {
			t.Errorf("%v %+v: got %v, want %q", bad.rec.Type(), bad.rec, err, bad.want)
		}
	}
	mustApply(t, s, MoneyIn{Source: SourceBill, Cents: 5000, Order: 1})
	if s.Get(Credits) != 5000 || s.PendingBill != nil {
		t.Fatalf("credits %d, pending %+v", s.Get(Credits), s.PendingBill)
	}
	if err := s.Clone().Apply(MoneyIn{Source: SourceBill, Cents: 5000, Order: 1}); err == nil {
		t.Fatal("a bill order credited twice")
	}
	if err := s.Clone().Apply(BillEscrow{Ref: 1, Cents: 500}); err == nil {
		t.Fatal("an order number used twice")
	}
	mustApply(t, s, BillEscrow{Ref: 2, Cents: 500}, BillReturned{Ref: 2, Cents: 500, Why: "returned at power-up"})
	if s.Get(Credits) != 5000 || s.Get(BillsIn) != 5000 || s.PendingBill != nil {
		t.Fatalf("a returned bill changed the meters: credits %d, bills %d", s.Get(Credits), s.Get(BillsIn))
	}
}
