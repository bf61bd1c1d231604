package machine

import (
	"slices"
	"testing"
)

// TestPrinterOutOfPaperCashOutSaysWhy: when the printer runs out of paper
// on a cash-out's ticket, the same step that starts the handpay gives the
// player the reason (the printer cannot print) and the amount the
// attendant pays; a ticket that does print is said with its amount (issue
// 24, item 4).
func TestPrinterOutOfPaperCashOutSaysWhy(t *testing.T) {
	h := newHarness(t, testCfg, nil, 6)
	h.power()
	h.bill(1000)
	h.bill(500)
	h.press(BtnCashOut)
	v := h.m.View()
	if v.Message.Key != "msg_printing" || !slices.Equal(v.Message.Args, []int64{1500}) {
		t.Fatalf("the cash-out's view: message %+v", v.Message)
	}
	h.step(PrinterFault{At: h.now, Reason: "paper_out", Validation: h.ledger.PendingTicket.Ticket})
	v = h.m.View()
	if v.Mode != "handpay" {
		t.Fatalf("mode %s, want handpay", v.Mode)
	}
	if v.Message.Key != "msg_handpay_printer" || !slices.Equal(v.Message.Args, []int64{1500}) {
		t.Fatalf("the step that starts the handpay says %+v; want the printer's reason and 1500 cents", v.Message)
	}

	// A printed ticket is said with its amount.
	h2 := newHarness(t, testCfg, nil, 7)
	h2.power()
	h2.bill(1000)
	h2.bill(500)
	h2.press(BtnCashOut)
	h2.step(TicketPrinted{At: h2.now, Validation: h2.ledger.PendingTicket.Ticket})
	if m := h2.m.View().Message; m.Key != "msg_ticket_printed" || !slices.Equal(m.Args, []int64{1500}) {
		t.Fatalf("the printed ticket is said as %+v; want its amount, 1500 cents", m)
	}
}
