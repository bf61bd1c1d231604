package hw

// DeviceEvent is an event from a bill validator or ticket printer. The glue
// type-switches on the concrete types below; Kind gives a stable name for
// logs and the control socket.
type DeviceEvent interface {
	Kind() string
}

// BillEscrowed: a valid note is held in escrow; the machine orders it
// stacked or returned.
type BillEscrowed struct{ Cents int64 }

// BillStacked: a bill was stacked in the cashbox by the machine's order
// (Order; 0 for a validator that stacks on its own); credit it.
type BillStacked struct {
	Cents int64
	Order uint64
}

// BillRejected: a bill was returned to the player. Reason is one of the
// Reject* constants or the machine's reason for a Return; Order is the
// machine's stack order it ends, if any.
type BillRejected struct {
	Cents  int64
	Reason string
	Order  uint64
}

// BillJam: the bill path is jammed; the bill was not stacked (no credit) and
// no further bill is taken until ClearJam.
type BillJam struct{}

// BillJamCleared: the jam was cleared by an attendant.
type BillJamCleared struct{}

// TicketPrinted: the ticket with this validation number left the printer.
type TicketPrinted struct{ Validation string }

// PrinterFault: the printer cannot print. Reason is one of the Fault*
// constants. Validation names the ticket that was not printed because of the
// fault, or is empty when the fault did not interrupt a print.
type PrinterFault struct {
	Reason     string
	Validation string
}

// PrinterReady: the printer's fault was cleared (ClearFault or Refill) and it
// can print again.
type PrinterReady struct{}

// Bill rejection reasons.
const (
	RejectDisabled     = "disabled"      // validator disabled by the machine
	RejectInvalidValue = "invalid_value" // not a €5…€500 note
	RejectUnrecognized = "unrecognized"  // validation failed (reject-rate fault injection)
	RejectJammed       = "jammed"        // validator jammed
	// RejectInhibited: a note the validator knows but has been told not to
	// take (the host's bill denominations, SAS 0x08).
	RejectInhibited = "inhibited"
	RejectBusy      = "busy"   // a note is already in escrow
	RejectFailed    = "failed" // the stack order could not be carried out
)

// Printer fault reasons.
const (
	FaultPaperOut = "paper_out"
	FaultJam      = "jam"
	FaultOffline  = "offline"
)

func (BillEscrowed) Kind() string   { return "bill_escrowed" }
func (BillStacked) Kind() string    { return "bill_stacked" }
func (BillRejected) Kind() string   { return "bill_rejected" }
func (BillJam) Kind() string        { return "bill_jam" }
func (BillJamCleared) Kind() string { return "bill_jam_cleared" }
func (TicketPrinted) Kind() string  { return "ticket_printed" }
func (PrinterFault) Kind() string   { return "printer_fault" }
func (PrinterReady) Kind() string   { return "printer_ready" }
