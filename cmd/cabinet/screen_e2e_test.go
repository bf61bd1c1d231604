package main

import (
	"testing"

	"github.com/openegm/cabinet/internal/cabinettest"
	"github.com/openegm/cabinet/machine"
)

// A handpay on the real cabinet: the key alone does not reset it; the
// attendant confirms on the screen the amount paid, the handpay is reset
// and its receipt printed.
func TestHandpayConfirmedOnTheScreen(t *testing.T) {
	data := t.TempDir()
	c := startCabinet(t, data, "--spin-time", "5ms", "--handpay-limit", "20000")
	defer c.Stop()
	for range 5 {
		c.Bill(5000)
	}
	if r := c.Send(cabinettest.Command{Cmd: "press", Button: machine.BtnCashOut}); r.View.Mode != "handpay" || r.View.Handpay != 25000 {
		t.Fatalf("cash-out over the limit: mode %s, handpay %d", r.View.Mode, r.View.Handpay)
	}
	r := c.Send(cabinettest.Command{Cmd: "key", Key: machine.KeyAttendant, On: true, Who: "att-3"})
	if r.View.Mode != "handpay" || !r.View.HandpayConfirm {
		t.Fatalf("the key alone: mode %s, confirm %v", r.View.Mode, r.View.HandpayConfirm)
	}
	if r := c.Send(cabinettest.Command{Cmd: "handpay_paid", Cents: 20000}); r.Refused != "refused_handpay_amount" || r.View.Mode != "handpay" {
		t.Fatalf("a wrong amount: refused %q, mode %s", r.Refused, r.View.Mode)
	}
	if r := c.Send(cabinettest.Command{Cmd: "handpay_paid", Cents: 25000}); r.Refused != "" || r.View.Mode == "handpay" || r.View.CreditsCents != 0 {
		t.Fatalf("confirmed: refused %q, mode %s, credits %d", r.Refused, r.View.Mode, r.View.CreditsCents)
	}
	rc := c.Send(cabinettest.Command{Cmd: "receipts"})
	if len(rc.Receipts) != 1 || rc.Receipts[0].Cents != 25000 || rc.Receipts[0].Who != "att-3" || rc.Receipts[0].MachineID != "EGM-TEST" {
		t.Fatalf("receipts %+v", rc.Receipts)
	}
}
