package machine

import (
	"fmt"
	"slices"

	"github.com/openegm/cabinet/meters"
)

// The money devices follow the ledger (DESIGN rule 9): an order that moves
// money is recorded before the device gets it, the device's confirmation
// is recorded when it comes, and after a power loss the orders left open
// are settled from what the devices remember.

// billEscrowed decides on a note in escrow: stacked (the order recorded
// first) when the machine takes money now and the host allows the note,
// else returned.
func (m *Machine) billEscrowed(e BillEscrowed, eff *Effects) {
	allowed := m.hostBills == nil || slices.Contains(m.hostBills, e.Cents)
	if !m.acceptsBills() || !allowed || m.st.PendingBill != nil || !slices.Contains(meters.BillValues, e.Cents) {
		eff.Devices = append(eff.Devices, ReturnBill{Reason: "not accepted now"})
		m.say("msg_bill_rejected", e.Cents)
		return
	}
	order := m.st.BillRef + 1
	if m.record(eff, meters.BillEscrow{At: m.ns(), Ref: order, Cents: e.Cents}) {
		eff.Devices = append(eff.Devices, StackBill{Order: order, Cents: e.Cents})
	}
}

// billStacked credits a note in the stacker: the one ordered, or one from a
// validator that stacks on its own when nothing is ordered. Any other
// stacked note is in the cashbox without a record that says whose it is:
// a tilt, with the facts in the log for whoever settles it.
func (m *Machine) billStacked(e BillStacked, eff *Effects) {
	p := m.st.PendingBill
	switch {
	case m.inTest():
		// The validator was off: a note it stacked anyway is no credit
		// (test mode moves no money) but is in the cashbox.
		m.tilt(eff, TiltBillValidator, fmt.Sprintf("validator stacked %d cents in test mode, with the acceptor off", e.Cents))
	case p != nil && e.Order == p.Ref && e.Cents == p.Cents, p == nil && e.Order == 0:
		if !m.record(eff, meters.MoneyIn{At: m.ns(), Source: meters.SourceBill, Cents: e.Cents, Order: e.Order}) {
			return
		}
		m.say("msg_bill_accepted", e.Cents)
		if m.hostBillOnce {
			m.hostNoBills = true // until the host turns it on again (0x06)
		}
	default:
		want := "none"
		if p != nil {
			want = fmt.Sprintf("order %d of %d cents", p.Ref, p.Cents)
		}
		m.tilt(eff, TiltBillValidator, fmt.Sprintf("validator stacked %d cents under order %d; the ledger ordered %s", e.Cents, e.Order, want))
	}
}

// ticketToHandpay voids the ticket the printer cannot print and pays the
// credit meter (where its amount goes back) by an attendant.
func (m *Machine) ticketToHandpay(eff *Effects, why string) {
	t := m.st.PendingTicket
	if !m.record(eff, meters.TicketVoid{At: m.ns(), Ticket: t.Ticket, Cents: t.Cents, Why: why}) {
		return
	}
	m.reprint, m.restrictedNext = false, false
	credits := m.st.Redeemable()
	if credits == 0 {
		return // a restricted ticket's credits went back as restricted credits: never paid by hand
	}
	if m.record(eff, meters.HandpayPending{At: m.ns(), Kind: meters.HandpayCancelled, Cents: credits}) {
		// The player is told why at the step that starts the handpay: the
		// printer cannot print, the attendant pays the amount.
		m.say("msg_handpay_printer", credits)
	}
}

// settleDevices finishes, at power-up, the device orders the ledger left
// open: a note ordered stacked is credited if the validator stacked it,
// else it went back to the player (a validator returns its escrow when it
// powers up); a ticket not confirmed printed is printed again, marked as a
// reprint, or paid by hand if the printer cannot print.
func (m *Machine) settleDevices(d DeviceStatus, eff *Effects) {
	if p := m.st.PendingBill; p != nil {
		if d.LastStacked == p.Ref {
			if m.record(eff, meters.MoneyIn{At: m.ns(), Source: meters.SourceBill, Cents: p.Cents, Order: p.Ref}) {
				m.say("msg_bill_accepted", p.Cents)
			}
		} else {
			m.record(eff, meters.BillReturned{At: m.ns(), Ref: p.Ref, Cents: p.Cents,
				Why: fmt.Sprintf("not stacked before the power loss (the validator's last stacked order is %d)", d.LastStacked)})
		}
	}
	t := m.st.PendingTicket
	if t == nil {
		return
	}
	if d.PrinterFault != "" {
		m.devFault[TiltPrinter] = true
		m.tilt(eff, TiltPrinter, d.PrinterFault)
		m.ticketToHandpay(eff, "not confirmed printed before the power loss, and the printer cannot print: "+d.PrinterFault)
		return
	}
	if !m.record(eff, meters.Event{At: m.ns(), Code: meters.EventTicketReprint,
		Detail: fmt.Sprintf("ticket %s of %d cents was not confirmed printed before the power loss: printed again, marked as a reprint", t.Ticket, t.Cents)}) {
		return
	}
	m.reprint = true
	eff.Devices = append(eff.Devices, m.printTicket(true))
	m.say("msg_reprinting", t.Cents)
}
