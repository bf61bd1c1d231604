package meters

import "fmt"

// Device orders that move money are two records (DESIGN rule 9): the order,
// committed before the device is told, and the device's confirmation. What
// lies between them is owed by the device, and after a power loss the
// machine drives the device to finish it (a ticket printed again, a bill
// stacked or returned) from what the ledger says.

// TicketPrinted is the printer's confirmation of a cash-out ticket: only
// now is the ticket out, and counted on the ticket meters. A reprint (the
// same validation number printed again after a power loss hid whether the
// first copy came out) says so on the ticket and here.
type TicketPrinted struct {
	At      int64  `json:"at"`
	Ticket  string `json:"ticket"` // validation number
	Cents   int64  `json:"cents"`
	Reprint bool   `json:"reprint,omitempty"`
}

// TicketVoid cancels a ticket the printer could not print: its amount goes
// back to the credit meter, from where the machine pays it by handpay
// (regulation rule 13: by the machine or by the cashier). The validation
// number is never used again.
type TicketVoid struct {
	At     int64  `json:"at"`
	Ticket string `json:"ticket"`
	Cents  int64  `json:"cents"`
	Why    string `json:"why"`
}

// BillEscrow is the machine's order to stack the note held in the
// validator's escrow. Ref numbers the order; the validator reports the last
// order it stacked, so after a power loss the machine knows whether this
// note reached the cashbox. A MoneyIn with the same Ref credits it, a
// BillReturned ends it without credit.
type BillEscrow struct {
	At    int64  `json:"at"`
	Ref   uint64 `json:"ref"`
	Cents int64  `json:"cents"`
}

// BillReturned ends a BillEscrow whose note went back to the player.
type BillReturned struct {
	At    int64  `json:"at"`
	Ref   uint64 `json:"ref"`
	Cents int64  `json:"cents"`
	Why   string `json:"why"`
}

func (TicketPrinted) Type() Type { return TypeTicketPrinted }
func (TicketVoid) Type() Type    { return TypeTicketVoid }
func (BillEscrow) Type() Type    { return TypeBillEscrow }
func (BillReturned) Type() Type  { return TypeBillReturned }

func (r TicketPrinted) validate() error {
	if r.Ticket == "" {
		return fmt.Errorf("ticket printed without a validation number")
	}
	return positive("cents", r.Cents)
}

func (r TicketVoid) validate() error {
	if r.Ticket == "" || r.Why == "" {
		return fmt.Errorf("ticket void without a validation number or a reason")
	}
	return positive("cents", r.Cents)
}

func (r BillEscrow) validate() error {
	if r.Ref == 0 {
		return fmt.Errorf("bill to stack without an order number")
	}
	return validBill(r.Cents)
}

func (r BillReturned) validate() error {
	if r.Ref == 0 || r.Why == "" {
		return fmt.Errorf("bill returned without an order number or a reason")
	}
	return validBill(r.Cents)
}

func validBill(cents int64) error {
	for _, b := range BillValues {
		if cents == b {
			return nil
		}
	}
	return fmt.Errorf("bill of %d cents is not a euro note the validator accepts", cents)
}

// applyDevice folds the device records.
func (s *State) applyDevice(r Record) error {
	m := &s.Meters
	switch r := r.(type) {
	case TicketPrinted:
		p := s.PendingTicket
		if p == nil || p.Ticket != r.Ticket || p.Cents != r.Cents {
			return fmt.Errorf("ticket %s of %d cents printed, but the ticket owed is %s", r.Ticket, r.Cents, p.describe())
		}
		m[TicketOut] += r.Cents
		m[TicketsOut]++
		s.ticketPrinted(p)
		s.PendingTicket = nil
		s.Events = keepLast(append(s.Events, Event{At: r.At, Code: EventTicketOut, Cents: r.Cents, Ref: r.Ticket}), HistoryEvents)
	case TicketVoid:
		p := s.PendingTicket
		if p == nil || p.Ticket != r.Ticket || p.Cents != r.Cents {
			return fmt.Errorf("ticket %s of %d cents voided, but the ticket owed is %s", r.Ticket, r.Cents, p.describe())
		}
		if p.Kind == KindRestricted {
			if err := s.restrictedVoid(p); err != nil {
				return err
			}
		} else {
			m[Credits] += r.Cents
		}
		s.PendingTicket = nil
	case BillEscrow:
		if s.PendingBill != nil {
			return fmt.Errorf("bill order %d while order %d is not finished", r.Ref, s.PendingBill.Ref)
		}
		if r.Ref <= s.BillRef {
			return fmt.Errorf("bill order %d does not follow order %d", r.Ref, s.BillRef)
		}
		b := r
		s.PendingBill, s.BillRef = &b, r.Ref
	case BillReturned:
		if p := s.PendingBill; p == nil || p.Ref != r.Ref || p.Cents != r.Cents {
			return fmt.Errorf("bill order %d of %d cents returned, but it is not the order pending", r.Ref, r.Cents)
		}
		s.PendingBill = nil
	}
	return nil
}

func (c *CashOut) describe() string {
	if c == nil {
		return "none"
	}
	return fmt.Sprintf("%s of %d cents", c.Ticket, c.Cents)
}
