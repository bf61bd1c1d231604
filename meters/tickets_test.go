package meters

import (
	"encoding/json"
	"os"
	"strings"
	"testing"
)

const ticketA = "001234567890123456"

func mustRefuse(t *testing.T, s *State, r Record, want string) {
	t.Helper()
	before := stateJSON(t, s)
	err := s.Apply(r)
	if err == nil || !strings.Contains(err.Error(), want) {
		t.Fatalf("%T %+v: got %v, want an error with %q", r, r, err, want)
	}
	if stateJSON(t, s) != before {
		t.Fatalf("%T refused but the state changed", r)
	}
}

func TestTicketRedeemCreditsOnceAndEndsTheCycle(t *testing.T) {
	s := NewState()
	mustApply(t, s, TicketEscrow{At: 1, Digits: ticketA})
	mustRefuse(t, s, TicketEscrow{At: 2, Digits: ticketA}, "in escrow while")
	mustRefuse(t, s, TicketRedeem{At: 2, Digits: "009999999999999999", Cents: 500}, "the ticket in escrow is")
	mustRefuse(t, s, RAMClear{At: 2, Who: "t", Why: "w"}, "RAM clear")
	mustApply(t, s, TicketRedeem{At: 3, Digits: ticketA, Cents: 1234})
	if s.Get(Credits) != 1234 || s.Get(TicketIn) != 1234 || s.TITO.TicketsIn != 1 || s.TITO.Escrow != nil {
		t.Fatalf("after redemption: credits %d ticket in %d count %d escrow %v", s.Get(Credits), s.Get(TicketIn), s.TITO.TicketsIn, s.TITO.Escrow)
	}
	if l := s.TITO.LastRedeem; l == nil || l.Digits != ticketA || l.Status != 0 || l.Cents != 1234 {
		t.Fatalf("last redemption %+v", l)
	}
	// The same redemption again (a replay of the host's answer) has no
	// escrow to end: refused, nothing credited twice.
	mustRefuse(t, s, TicketRedeem{At: 4, Digits: ticketA, Cents: 1234}, "the ticket in escrow is")

	mustApply(t, s, TicketEscrow{At: 5, Digits: ticketA}, TicketRedeem{At: 6, Digits: ticketA, Status: 0x84, Why: "host refused"})
	if s.Get(Credits) != 1234 || s.TITO.LastRedeem.Status != 0x84 {
		t.Fatalf("a refusal credited: credits %d last %+v", s.Get(Credits), s.TITO.LastRedeem)
	}
}

func TestTicketRecordsRefuseMalformed(t *testing.T) {
	for _, r := range []Record{
		TicketEscrow{Digits: "12345"},
		TicketEscrow{Digits: "00123456789012345x"},
		TicketRedeem{Digits: ticketA, Status: 0, Cents: 0},
		TicketRedeem{Digits: ticketA, Status: 0x80, Cents: 5},
		TicketRedeem{Digits: ticketA, Status: 0x40, Cents: 5},
		ValidationConfig{ID: 0},
		ValidationConfig{ID: 1 << 24},
		CashOut{Method: OutTicket, Cents: 5, Ticket: "011234567890123456", Style: StyleSecureEnhanced},
		CashOut{Method: OutTicket, Cents: 5, Ticket: ticketA, Style: StyleSystem},
		CashOut{Method: OutTicket, Cents: 5, Ticket: ticketA, Style: "mine"},
		ValidationDenied{Cents: 5},
	} {
		if _, err := Encode(r); err == nil {
			t.Errorf("%T %+v encoded", r, r)
		}
	}
}

func TestSecureEnhancedCashOutUsesTheNextSequence(t *testing.T) {
	s := NewState()
	mustApply(t, s, MoneyIn{At: 1, Source: SourceTicket, Cents: 900})
	mustRefuse(t, s, CashOut{At: 2, Method: OutTicket, Cents: 100, Ticket: ticketA, Style: StyleSecureEnhanced, Seq: 1}, "without a validation ID")
	mustApply(t, s, ValidationConfig{At: 2, ID: 77, Seq: 5, HostSeq: 5})
	mustRefuse(t, s, CashOut{At: 3, Method: OutTicket, Cents: 100, Ticket: ticketA, Style: StyleSecureEnhanced, Seq: 5}, "want 6")
	mustApply(t, s, CashOut{At: 3, Method: OutTicket, Cents: 100, Ticket: ticketA, Style: StyleSecureEnhanced, Seq: 6, TicketNo: 1, ExpiryDays: 30})
	if s.TITO.Enhanced.Seq != 6 || s.TITO.Enhanced.ID != 77 {
		t.Fatalf("enhanced after the ticket: %+v", s.TITO.Enhanced)
	}
	if len(s.TITO.Unread()) != 0 {
		t.Fatal("a validation before the ticket is printed")
	}
	mustApply(t, s, TicketPrinted{At: 4, Ticket: ticketA, Cents: 100})
	u := s.TITO.Unread()
	if len(u) != 1 || u[0].Ticket != ticketA || u[0].Cents != 100 || u[0].ExpiryDays != 30 || u[0].Seq != 1 {
		t.Fatalf("unread after printing: %+v", u)
	}
	mustRefuse(t, s, ValidationRead{At: 5, Upto: 2}, "read 0 of 1")
	mustApply(t, s, ValidationRead{At: 5, Upto: 1})
	if len(s.TITO.Unread()) != 0 {
		t.Fatalf("still unread: %+v", s.TITO.Unread())
	}
}

func TestValidationsKeepTheLast32(t *testing.T) {
	s := NewState()
	mustApply(t, s, MoneyIn{At: 1, Source: SourceTicket, Cents: 100000}, ValidationConfig{At: 1, ID: 9})
	for i := range 40 {
		mustApply(t, s, CashOut{At: 2, Method: OutTicket, Cents: 10, Ticket: ticketA, Style: StyleSecureEnhanced, Seq: uint32(i + 1)},
			TicketPrinted{At: 3, Ticket: ticketA, Cents: 10})
	}
	v := s.TITO.Validations
	if len(v) != HistoryValidations || v[0].Seq != 9 || v[len(v)-1].Seq != 40 {
		t.Fatalf("kept %d validations, %d..%d", len(v), v[0].Seq, v[len(v)-1].Seq)
	}
}

func TestSystemValidationRequestAndDenial(t *testing.T) {
	s := NewState()
	mustApply(t, s, MoneyIn{At: 1, Source: SourceTicket, Cents: 500})
	mustRefuse(t, s, ValidationRequest{At: 2, Cents: 600}, "with 500 cents of credit")
	mustApply(t, s, ValidationRequest{At: 2, Cents: 500})
	mustRefuse(t, s, CashOut{At: 3, Method: OutTicket, Cents: 400, Ticket: "121234567890123456", Style: StyleSystem}, "is requested")
	mustApply(t, s, ValidationDenied{At: 3, Cents: 500, Why: "host denied"})
	if s.TITO.Requested != nil || s.Get(Credits) != 500 {
		t.Fatalf("after denial: %+v credits %d", s.TITO.Requested, s.Get(Credits))
	}
	mustApply(t, s, ValidationRequest{At: 4, Cents: 500},
		CashOut{At: 5, Method: OutTicket, Cents: 500, Ticket: "121234567890123456", Style: StyleSystem})
	if s.TITO.Requested != nil || s.Get(Credits) != 0 {
		t.Fatalf("after the system ticket: %+v credits %d", s.TITO.Requested, s.Get(Credits))
	}
}

// TestTicketStateSurvivesReopen: unread validations and the escrow are in
// the ledger's fold, so a restart (a power loss) finds them.
func TestTicketStateSurvivesReopen(t *testing.T) {
	dir := t.TempDir()
	l, _, err := Open(dir, Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range []Record{
		MoneyIn{At: 1, Source: SourceTicket, Cents: 300}, ValidationConfig{At: 1, ID: 3},
		TicketData{At: 1, ExpiryDays: 30, Location: "Casino"},
		CashOut{At: 2, Method: OutTicket, Cents: 300, Ticket: ticketA, Style: StyleSecureEnhanced, Seq: 1},
		TicketPrinted{At: 3, Ticket: ticketA, Cents: 300}, TicketEscrow{At: 4, Digits: "005555555555555555"},
	} {
		if err := l.Commit(r); err != nil {
			t.Fatal(err)
		}
	}
	want := stateJSON(t, l.State())
	l.Close()
	if entries, _ := os.ReadDir(dir); len(entries) == 0 {
		t.Fatal("nothing written")
	}
	l2, _, err := Open(dir, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer l2.Close()
	st := l2.State()
	if got := stateJSON(t, st); got != want {
		t.Fatalf("reopened state differs:\n%s\n%s", got, want)
	}
	if len(st.TITO.Unread()) != 1 || st.TITO.Escrow == nil || st.TITO.Data.ExpiryDays != 30 {
		t.Fatalf("reopened: %+v", st.TITO)
	}
}

// TestHandpayValidatedResetsAndNumbersInOneRecord: the reset and the
// validation are one record, folded exactly as a HandpayReset plus the next
// secure-enhanced sequence and a validation the host reads.
func TestHandpayValidatedResetsAndNumbersInOneRecord(t *testing.T) {
	s := NewState()
	mustApply(t, s, MoneyIn{At: 1, Source: SourceTicket, Cents: 5000}, HandpayPending{At: 2, Kind: HandpayCancelled, Cents: 5000})
	hv := HandpayValidated{At: 3, Who: "att-1", Cents: 5000, Ticket: ticketA, Seq: 8, Receipt: true, TicketNo: 1, ExpiryDays: 30}
	mustRefuse(t, s, hv, "without a validation ID")
	mustApply(t, s, ValidationConfig{At: 3, ID: 77, Seq: 6, HostSeq: 6})
	mustRefuse(t, s, hv, "want 7")
	hv.Seq = 7
	mustApply(t, s, hv)
	if s.Handpay != nil || s.Get(Credits) != 0 || s.Get(HandpaidCancelled) != 5000 || s.Get(TotalHandPaid) != 5000 {
		t.Fatalf("not reset as HandpayReset resets: handpay %v credits %d hand-paid %d", s.Handpay, s.Get(Credits), s.Get(HandpaidCancelled))
	}
	if r := s.Handpays[len(s.Handpays)-1].Reset; r == nil || r.Who != "att-1" {
		t.Fatalf("handpay history: %+v", s.Handpays)
	}
	if s.TITO.Enhanced.Seq != 7 || s.TicketSeq != 1 {
		t.Fatalf("sequence %d, tickets %d", s.TITO.Enhanced.Seq, s.TicketSeq)
	}
	u := s.TITO.Unread()
	if len(u) != 1 || u[0].Ticket != ticketA || u[0].Handpay != HandpayCancelled || !u[0].Receipt || u[0].TicketNo != 1 {
		t.Fatalf("unread %+v", u)
	}
	if m := s.TITO.Meters[ValMeterCancelledReceipt]; m.Count != 1 || m.Cents != 5000 {
		t.Fatalf("validation meter %+v", m)
	}
	mustRefuse(t, s, HandpayValidated{At: 4, Who: "att-1", Cents: 5000, Ticket: ticketA, Seq: 8}, "no handpay pending")
}

func TestValidationControlAndTicketData(t *testing.T) {
	s := NewState()
	if !s.TITO.On(CtlTicketRedemption) || !s.TITO.On(CtlPrinterCashout) {
		t.Fatal("a control bit off before the host sent 0x7B")
	}
	mustApply(t, s, TicketData{At: 1, ExpiryDays: 30, Location: "Casino"})
	mustApply(t, s, ValidationControl{At: 2, Off: CtlTicketRedemption, CashableExpiry: 9999, RestrictedExpiry: 15})
	if s.TITO.On(CtlTicketRedemption) || !s.TITO.On(CtlPrinterCashout) || s.TITO.Data.ExpiryDays != 0 ||
		s.TITO.Data.Location != "Casino" || s.TITO.RestrictedExpiry != 15 {
		t.Fatalf("after 0x7B: %+v data %+v", s.TITO, s.TITO.Data)
	}
	mustApply(t, s, ValidationControl{At: 3})
	if !s.TITO.On(CtlTicketRedemption) || s.TITO.RestrictedExpiry != 15 {
		t.Fatalf("0x7B with nothing off and no expirations: %+v", s.TITO)
	}
	for _, r := range []Record{
		ValidationControl{Off: 0x0008},
		ValidationControl{CashableExpiry: 10000},
		TicketData{RestrictedTitle: strings.Repeat("x", 17)},
		HandpayValidated{Who: "a", Cents: 5, Ticket: "011234567890123456", Seq: 1},
		HandpayValidated{Cents: 5, Ticket: ticketA, Seq: 1},
	} {
		if _, err := Encode(r); err == nil {
			t.Errorf("%T %+v encoded", r, r)
		}
	}
}

// A ticket is money once: the fold refuses a second credit of a number it
// credited (a copy of the ticket, or a host that authorised it twice), as
// a fault, whatever the status and amount; a refusal of that number stays
// allowed (it credits nothing). The set survives a RAM clear and a
// snapshot (its encoding), and credits recorded before it existed (no
// Once) are not in it, so the states earlier builds sealed stay as they
// were.
func TestTicketCreditedTwiceIsAFault(t *testing.T) {
	s := NewState()
	const ticketB = "001234567890123457"
	mustApply(t, s, TicketEscrow{At: 1, Digits: ticketB}, TicketRedeem{At: 2, Digits: ticketB, Cents: 100})
	if len(s.TITO.Credited) != 0 {
		t.Fatalf("a credit without Once entered the set: %v", s.TITO.Credited)
	}
	mustApply(t, s, TicketEscrow{At: 3, Digits: ticketA}, TicketRedeem{At: 4, Digits: ticketA, Cents: 1234, Once: true})
	if !s.TITO.WasCredited(ticketA) || s.TITO.WasCredited(ticketB) {
		t.Fatalf("credited %v", s.TITO.Credited)
	}
	mustApply(t, s, TicketEscrow{At: 5, Digits: ticketA})
	mustRefuse(t, s, TicketRedeem{At: 6, Digits: ticketA, Cents: 1234, Once: true}, "credited again")
	mustRefuse(t, s, TicketRedeem{At: 6, Digits: ticketA, Cents: 1234}, "credited again")
	mustRefuse(t, s, TicketRedeem{At: 6, Digits: ticketA, Status: RedeemedRestricted, Cents: 7, Pool: 1}, "credited again")
	mustApply(t, s, TicketRedeem{At: 7, Digits: ticketA, Status: 0x80, Why: "already credited here"})
	if s.Get(Credits) != 1334 {
		t.Fatalf("credits %d, want 1334", s.Get(Credits))
	}
	var back State
	if err := json.Unmarshal([]byte(stateJSON(t, s)), &back); err != nil || !back.TITO.WasCredited(ticketA) {
		t.Fatalf("the set did not survive the encoding: %v", back.TITO.Credited)
	}
	if _, err := Encode(TicketRedeem{Digits: ticketA, Status: 0x80, Once: true}); err == nil {
		t.Fatal("a refusal marked as a credit was encoded")
	}
}
