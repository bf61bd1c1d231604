package machine

import (
	"testing"

	"github.com/openegm/cabinet/aft"
	"github.com/openegm/cabinet/meters"
)

func (h *harness) withReceipt(id string, cents int64) aft.Transfer {
	t := h.decided(id, aft.InHouseToMachine, cents)
	t.Flags, t.ReceiptStatus = aft.FlagReceipt, aft.ReceiptPending
	t.ReceiptData = []byte{aft.FieldPatronName, 3, 'E', 'V', 'A'}
	return t
}

// receiptsOrdered are the receipts ordered since the harness started.
func (h *harness) receiptsOrdered() []PrintAFTReceipt {
	return devicesOf[PrintAFTReceipt](Effects{Devices: h.devices})
}

// A transfer that asked for a receipt has it printed right after its
// record, with the host's texts (or the ticket's location); the printer's
// confirmation is recorded and the history reads it printed. While it
// prints, no cash-out or game starts.
func TestAFTReceiptPrintedAfterTheTransfer(t *testing.T) {
	h := newHarness(t, testCfg, nil, 1)
	h.power()
	days, loc, addr := uint16(30), "CASINO ESTORIL", "AV. MARGINAL"
	h.step(HostTicketData{At: h.now, ExpiryDays: &days, Location: &loc, Address1: &addr})
	h.step(AFTReceiptText{At: h.now, Text: aft.ReceiptTextSet{Fields: []aft.TextField{{Code: aft.TextInHouse1, Text: "OBRIGADO"}}}})
	eff := h.step(AFTTransfer{At: h.now, Transfer: h.withReceipt("R-1", 2500)})
	ps := devicesOf[PrintAFTReceipt](eff)
	if len(recordsOf[meters.AFTTransfer](eff.Records)) != 1 || len(ps) != 1 {
		t.Fatalf("transfer with a receipt: records %+v, devices %+v", eff.Records, eff.Devices)
	}
	p := ps[0]
	if p.Ref != "AFT-1-R-1" || p.Reprint || p.Transfer.ID != "R-1" || string(p.Transfer.ReceiptData) != "\x10\x03EVA" ||
		p.Text.Location != "CASINO ESTORIL" || p.Text.Address[0] != "AV. MARGINAL" || p.Text.InHouse[0] != "OBRIGADO" || p.MachineID != "EGM-0042" {
		t.Fatalf("receipt ordered %+v", p)
	}
	if eff := h.press(BtnCashOut); eff.Refused != "refused_printing" {
		t.Fatalf("cash-out while the receipt prints: %q", eff.Refused)
	}
	if e, _ := h.ledger.AFT.At(1); e.ReceiptStatus != aft.ReceiptPending {
		t.Fatalf("status before the print %02X", byte(e.ReceiptStatus))
	}
	// Another job's confirmation is not this receipt's.
	if eff := h.step(TicketPrinted{At: h.now, Validation: "AFT-1-R-2"}); len(eff.Records) != 0 {
		t.Fatalf("a confirmation of no receipt recorded %+v", eff.Records)
	}
	eff = h.step(TicketPrinted{At: h.now, Validation: p.Ref})
	rs := recordsOf[meters.AFTReceipt](eff.Records)
	if len(rs) != 1 || rs[0].Receipt != (aft.Receipt{Position: 1, ID: "R-1"}) || rs[0].Reprint {
		t.Fatalf("confirmation recorded %+v", eff.Records)
	}
	if e, _ := h.ledger.AFT.At(1); e.ReceiptStatus != aft.ReceiptPrinted {
		t.Fatalf("status after the print %02X", byte(e.ReceiptStatus))
	}
	if len(devicesOf[PrintAFTReceipt](eff)) != 0 {
		t.Fatal("printed again")
	}
	if eff := h.press(BtnCashOut); eff.Refused != "" {
		t.Fatalf("cash-out after the receipt: %q", eff.Refused)
	}
}

// A printer fault stops the receipt; once the printer is back and the
// tilt cleared it is printed; a power loss before its confirmation
// prints it again, marked as a reprint; a printer that cannot print at
// power-up is not offered for receipts.
func TestAFTReceiptAfterFaultAndPowerLoss(t *testing.T) {
	h := newHarness(t, testCfg, nil, 1)
	h.power()
	eff := h.step(AFTTransfer{At: h.now, Transfer: h.withReceipt("R-1", 900)})
	first := devicesOf[PrintAFTReceipt](eff)
	if len(first) != 1 {
		t.Fatalf("no receipt ordered: %+v", eff.Devices)
	}
	h.step(PrinterFault{At: h.now, Reason: "paper_out", Validation: first[0].Ref})
	if h.m.View().AFT.PrinterReady {
		t.Fatal("receipts offered with the printer out of paper")
	}
	if eff := h.step(PrinterOK{At: h.now}); len(devicesOf[PrintAFTReceipt](eff)) != 0 {
		t.Fatal("printed before the tilt was cleared")
	}
	h.keyOn("att-1")
	again := h.receiptsOrdered()
	if len(again) != 2 || again[1].Ref != first[0].Ref || again[1].Reprint {
		t.Fatalf("after the fault: %+v", again)
	}
	// The power goes before the printer confirms it.
	h.devices = nil
	h.restart(DeviceStatus{})
	re := h.receiptsOrdered()
	if len(re) != 1 || re[0].Ref != first[0].Ref || !re[0].Reprint {
		t.Fatalf("at power-up: %+v", re)
	}
	eff = h.step(TicketPrinted{At: h.now, Validation: re[0].Ref})
	if rs := recordsOf[meters.AFTReceipt](eff.Records); len(rs) != 1 || !rs[0].Reprint {
		t.Fatalf("reprint confirmed: %+v", eff.Records)
	}
	// No printer at power-up: receipts are not offered.
	h.restart(DeviceStatus{PrinterFault: "no printer"})
	if h.m.View().AFT.PrinterReady {
		t.Fatal("receipts offered without a printer")
	}
}
