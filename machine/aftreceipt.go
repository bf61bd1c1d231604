package machine

import (
	"fmt"
	"slices"
	"time"

	"github.com/openegm/cabinet/aft"
	"github.com/openegm/cabinet/meters"
)

// AFT transaction receipts (SAS 8.11) follow the ledger (DESIGN rule 9):
// a transfer whose record says a receipt is due is printed after its
// commit, one receipt at a time on the ticket printer when it is free
// (no ticket owed, no printer fault or tilt); the printer's confirmation
// is a record (meters.AFTReceipt) that makes the receipt status the host
// reads back "printed". A receipt the printer did not confirm before a
// fault is printed again once the printer is back; one due at power-up
// is printed again marked as a reprint (the first copy may have come
// out). While one prints the player cannot start a cash-out (the printer
// is busy) or a game.

// PrintAFTReceipt asks the printer for the transaction receipt of an AFT
// transfer: Ref is what the printer reports printed (TicketPrinted's
// Validation); the rest is what the receipt prints.
type PrintAFTReceipt struct {
	Ref      string          `json:"ref"`
	Transfer aft.Transfer    `json:"transfer"`
	Text     aft.ReceiptText `json:"text"`
	// MachineID is the machine's number on the floor.
	MachineID string `json:"machine_id"`
	Reprint   bool   `json:"reprint,omitempty"`
}

func (PrintAFTReceipt) device() {}

// AFTReceiptText is a long poll 0x75 (set AFT receipt data) the port
// answered, to record.
type AFTReceiptText struct {
	At   time.Time
	Text aft.ReceiptTextSet
}

func (e AFTReceiptText) at() time.Time { return e.At }

// receiptJob is the receipt at the printer ("" Ref: none) and the
// receipts the ledger owed at power-up (printed again as reprints).
type receiptJob struct {
	at     *PrintAFTReceipt
	unsure map[string]bool
}

// receiptRef names a receipt to the printer: its history position and
// transaction ID, unlike any validation number (digits only).
func receiptRef(t aft.Transfer) string { return fmt.Sprintf("AFT-%d-%s", t.Position, t.ID) }

// receiptsAtPowerUp notes the receipts the ledger owes: whether they came
// out before the power loss nobody knows. A printer that cannot print
// now holds them (and refuses receipts asked for) until it recovers.
func (m *Machine) receiptsAtPowerUp(d DeviceStatus) {
	m.receipts = receiptJob{unsure: map[string]bool{}}
	for _, t := range m.st.AFT.ReceiptDue() {
		m.receipts.unsure[receiptRef(t)] = true
	}
	if d.PrinterFault != "" {
		m.devFault[TiltPrinter] = true
	}
}

// printReceipts orders the oldest receipt the ledger owes when the
// printer is free.
func (m *Machine) printReceipts(eff *Effects) {
	if m.receipts.at != nil || !m.poweredUp || m.fault != "" || m.devFault[TiltPrinter] ||
		slices.Contains(m.st.Tilts, TiltPrinter) || m.st.PendingTicket != nil || m.st.TITO.Requested != nil {
		return
	}
	due := m.st.AFT.ReceiptDue()
	if len(due) == 0 {
		return
	}
	t := due[0]
	p := PrintAFTReceipt{Ref: receiptRef(t), Transfer: t, Text: m.receiptText(), MachineID: m.cfg.MachineID,
		Reprint: m.receipts.unsure[receiptRef(t)]}
	m.receipts.at = &p
	eff.Devices = append(eff.Devices, p)
}

// receiptText is the host's texts with the machine's defaults: the
// location and address the host gave for tickets.
func (m *Machine) receiptText() aft.ReceiptText {
	t := m.st.AFT.ReceiptText
	if d := m.st.TITO.Data; d != nil {
		if t.Location == "" {
			t.Location = d.Location
		}
		for i, a := range [2]string{d.Address1, d.Address2} {
			if t.Address[i] == "" {
				t.Address[i] = a
			}
		}
	}
	return t
}

// receiptPrinted records the printer's confirmation of the receipt at
// it; ok is false when ref names no receipt at the printer.
func (m *Machine) receiptPrinted(ref string, eff *Effects) bool {
	p := m.receipts.at
	if p == nil || p.Ref != ref {
		return false
	}
	m.receipts.at = nil
	delete(m.receipts.unsure, ref)
	m.record(eff, meters.AFTReceipt{At: m.ns(), Receipt: aft.Receipt{Position: p.Transfer.Position, ID: p.Transfer.ID}, Reprint: p.Reprint})
	return true
}

// receiptStopped: a printer fault ends the receipt at the printer
// unprinted; the ledger still owes it.
func (m *Machine) receiptStopped() { m.receipts.at = nil }

// printingReceipt reports whether a receipt is at the printer.
func (m *Machine) printingReceipt() bool { return m.receipts.at != nil }

func (m *Machine) aftReceiptText(e AFTReceiptText, eff *Effects) {
	m.record(eff, meters.AFTReceiptText{At: m.ns(), Text: e.Text})
}
