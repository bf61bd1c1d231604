// AFT transaction receipts at the cabinet: the simulated ticket printer
// prints them (its tray keeps them, as paper keeps what was printed), and
// the cabinet leaves a picture of each, for people to look at.

package main

import (
	"bytes"
	"net/url"
	"os"
	"path/filepath"
	"time"

	"github.com/openegm/cabinet/aft/receipt"
	"github.com/openegm/cabinet/hw"
	"github.com/openegm/cabinet/internal/atomicfile"
	"github.com/openegm/cabinet/machine"
)

// receiptsDir is where the pictures go: DATA/receipts/aft-POSITION-ID.png.
const receiptsDir = "receipts"

// aftReceipt is what the printer prints for c.
func aftReceipt(c machine.PrintAFTReceipt) receipt.Receipt {
	return receipt.Receipt{Transfer: c.Transfer, Text: c.Text, Machine: c.MachineID, Asset: c.Transfer.Asset, Reprint: c.Reprint}
}

// saveAFTReceiptPNG renders the receipt the printer printed into dir.
func saveAFTReceiptPNG(dir string, c machine.PrintAFTReceipt) (string, error) {
	var buf bytes.Buffer
	if err := aftReceipt(c).RenderPNG(&buf); err != nil {
		return "", err
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return "", err
	}
	// A transaction ID is any printable ASCII: escaped, it names a file.
	name := "aft-" + url.PathEscape(c.Ref[len("AFT-"):])
	if c.Reprint {
		name += "-reprint"
	}
	path := filepath.Join(dir, name+".png")
	return path, atomicfile.Write(path, buf.Bytes(), 0o644)
}

// printAFTReceipt hands the receipt to the printer. A printer that does
// not take it is reported as a printer fault, so the machine does not
// wait for a receipt that never comes (the ledger still owes it).
func (h *hardware) printAFTReceipt(c machine.PrintAFTReceipt) {
	sim := h.board.Sim()
	refused := func(why string) {
		h.log.Error("printer refused the AFT receipt", "ref", c.Ref, "err", why)
		go h.own.submit(machine.PrinterFault{At: time.Now(), Reason: "receipt refused: " + why, Validation: c.Ref})
	}
	if sim == nil {
		refused("no printer")
		return
	}
	text, err := aftReceipt(c).Plain()
	if err != nil {
		refused(err.Error())
		return
	}
	h.log.Info("AFT receipt", "ref", c.Ref, "reprint", c.Reprint, "text", text)
	if err := sim.Printer().Print(hw.Ticket{Validation: c.Ref, Cents: c.Transfer.Amounts.Total(), MachineID: c.MachineID,
		At: c.Transfer.At, Reprint: c.Reprint}); err != nil {
		refused(err.Error())
		return
	}
	if _, err := saveAFTReceiptPNG(filepath.Join(h.data, receiptsDir), c); err != nil {
		h.log.Error("the printed AFT receipt's picture", "ref", c.Ref, "err", err)
	}
}
