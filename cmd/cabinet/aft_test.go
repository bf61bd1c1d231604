package main

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/openegm/cabinet/aft"
	"github.com/openegm/cabinet/internal/cabinettest"
	"github.com/openegm/cabinet/machine"
	"github.com/openegm/cabinet/meters"
	"github.com/openegm/cabinet/sas"
	"github.com/openegm/cabinet/sas/host"
)

const aftAsset = 4321

var aftArgs = []string{"--sas-addr", "1", "--sas-pty", "--jackpot", "off", "--aft-asset", "4321", "--aft-limit", "100000", "--aft-debit"}

// aftPOS is the POS ID the tests' host registers with (debit needs one).
const aftPOS = 77

func aftKey() aft.Key {
	var k aft.Key
	for i := range k {
		k[i] = byte(0xA0 + i)
	}
	return k
}

func aftReq(id string, typ aft.TransferType, cents int64) aft.TransferRequest {
	return aft.TransferRequest{Code: aft.CodeFull, Type: typ, Cashable: cents, Asset: aftAsset, Key: aftKey(), ID: id}
}

// aftDo sends a transfer and waits for its outcome (a minute at most: the
// machine is loaded in CI).
func aftDo(t *testing.T, h *host.Client, q aft.TransferRequest) aft.TransferReply {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	r, err := h.AFTTransferWait(ctx, q, 20*time.Millisecond)
	if err != nil {
		t.Fatalf("transfer %q: %v", q.ID, err)
	}
	return r
}

// sasMeter reads one meter with 0x6F.
func sasMeter(t *testing.T, h *host.Client, code sas.MeterCode) uint64 {
	t.Helper()
	ms, err := h.SelectedMeters(0, []sas.MeterCode{code}, true)
	if err != nil || len(ms) != 1 {
		t.Fatalf("meter %v: %v %v", code, ms, err)
	}
	return ms[0].Value
}

func TestAFTOnTheCabinet(t *testing.T) {
	t.Parallel()
	data := t.TempDir()
	c := startCabinet(t, data, append(aftArgs, "--spin-time", "1500ms")...)
	defer c.Stop()
	h := sasHost(t, data)
	c.WaitIdle()

	f, err := h.Features(0)
	if err != nil || f.Bits[1]&sas.Feature2AFT == 0 {
		t.Fatalf("features %v %v: no AFT", f, err)
	}
	if _, err := h.AFTRegisterMachine(aftAsset, aftKey(), aftPOS); err != nil {
		t.Fatal(err)
	}
	// The lock holds play.
	st, err := h.AFTLock(aft.LockRequest{Code: aft.RequestLock, Conditions: aft.TransferToMachineOK, Timeout: 6000})
	if err != nil || st.Lock != aft.Locked || st.Asset != aftAsset || st.AFTStatus&aft.StatusRegistered == 0 || st.AFTStatus&aft.StatusDebitEnabled == 0 {
		t.Fatalf("lock: %+v %v", st, err)
	}
	c.WaitFor("the AFT lock", func(v machine.View) bool { return v.AFTLocked })
	if r := c.Send(cabinettest.Command{Cmd: "press", Button: machine.BtnSpin}); r.Refused != "refused_aft_locked" {
		t.Fatalf("spin under the AFT lock: refused %q", r.Refused)
	}
	in := aftDo(t, h, aftReq("IN-1", aft.InHouseToMachine, 5000))
	if in.Status != aft.StatusFull || in.Cashable != 5000 || in.Position != 1 || in.Meters == nil || in.Meters.Cashable != 5000 {
		t.Fatalf("transfer in: %+v", in)
	}
	v := c.WaitFor("the credits and the lock's end", func(v machine.View) bool { return v.CreditsCents == 5000 && !v.AFTLocked })
	if v.Message.Key != "msg_aft_in" {
		t.Fatalf("message %+v", v.Message)
	}
	// The same request under the same ID: its record, not a second run.
	again, err := h.AFTTransfer(aftReq("IN-1", aft.InHouseToMachine, 5000))
	if err != nil || again.Status != aft.StatusFull || again.Position != 1 {
		t.Fatalf("repeat: %+v %v", again, err)
	}
	if other, err := h.AFTTransfer(aftReq("IN-1", aft.InHouseToMachine, 700)); err != nil || other.Status != aft.StatusIDNotUnique {
		t.Fatalf("another request under a used ID: %+v %v", other, err)
	}
	// A debit (the host took 25,00 and a fee of 0,50 from the player's
	// card …1234) with its receipt: on the credits, 0x17 and A6/A7, once.
	deb := aftReq("DEB-1", aft.DebitToMachine, 2500)
	deb.Flags, deb.Receipt = aft.FlagReceipt, []byte{aft.FieldDebitCard, 2, 0x12, 0x34, aft.FieldTransactionFee, 5, 0, 0, 0, 0, 0x50}
	if r := aftDo(t, h, deb); r.Status != aft.StatusFull || r.Position != 2 || r.Meters == nil || r.Meters.Cashable != 2500 {
		t.Fatalf("debit: %+v", r)
	}
	c.WaitFor("the debit's credits", func(v machine.View) bool { return v.CreditsCents == 7500 })
	if again, err := h.AFTTransfer(deb); err != nil || again.Status != aft.StatusFull || again.Position != 2 {
		t.Fatalf("the debit again: %+v %v", again, err)
	}
	for code, want := range map[sas.MeterCode]uint64{0x17: 7500, sas.MeterCode(aft.MeterDebitIn): 2500,
		sas.MeterCode(aft.MeterDebitInCount): 1, sas.MeterCode(aft.MeterInHouseCashableIn): 5000} {
		if got := sasMeter(t, h, code); got != want {
			t.Fatalf("meter %v = %d, want %d", code, got, want)
		}
	}
	// Its receipt printed (the host reads it back so), with its picture.
	deadline := time.Now().Add(time.Minute)
	for r, _ := h.AFTInterrogate(2); r.ReceiptStatus != aft.ReceiptPrinted; r, _ = h.AFTInterrogate(2) {
		if time.Now().After(deadline) {
			t.Fatalf("the debit's receipt: %+v", r)
		}
		time.Sleep(20 * time.Millisecond)
	}
	if _, err := os.Stat(filepath.Join(data, receiptsDir, "aft-2-DEB-1.png")); err != nil {
		t.Fatal(err)
	}
	// A debit under no key, or of promotional money, moves nothing.
	noKey := aftReq("DEB-K", aft.DebitToMachine, 100)
	noKey.Key = aft.Key{}
	promo := aftReq("DEB-P", aft.DebitToMachine, 0)
	promo.NonRestricted = 100
	for q, want := range map[*aft.TransferRequest]aft.Status{&noKey: aft.StatusKeyMismatch, &promo: aft.StatusInvalidAmount} {
		if r := aftDo(t, h, *q); r.Status != want {
			t.Fatalf("debit %q: %v, want %v", q.ID, r.Status, want)
		}
	}
	// Refusals: restricted money expiring on no date, more than the
	// credits, during a game.
	restricted := aftReq("IN-R", aft.InHouseToMachine, 0)
	restricted.Restricted, restricted.Expiration = 100, 13012027
	if r := aftDo(t, h, restricted); r.Status != aft.StatusInvalidAmount {
		t.Fatalf("restricted: %+v", r)
	}
	if r := aftDo(t, h, aftReq("OUT-BIG", aft.InHouseToHost, 7501)); r.Status != aft.StatusInvalidAmount {
		t.Fatalf("out beyond the credits: %+v", r)
	}
	if r := c.Send(cabinettest.Command{Cmd: "press", Button: machine.BtnSpin}); r.Refused != "" {
		t.Fatalf("spin refused: %q", r.Refused)
	}
	c.WaitFor("the game", func(v machine.View) bool { return v.Mode == "spinning" })
	if r := aftDo(t, h, aftReq("IN-G", aft.InHouseToMachine, 100)); r.Status != aft.StatusUnable {
		t.Fatalf("during a game: %+v", r)
	}
	v = c.WaitIdle()
	credits := v.CreditsCents
	if got := readLedger(t, data).Get(meters.Credits); got != credits {
		t.Fatalf("ledger credits %d, view %d", got, credits)
	}
	out := aftDo(t, h, aftReq("OUT-1", aft.InHouseToHost, credits))
	if out.Status != aft.StatusFull || out.Cashable != credits || out.Position != 3 {
		t.Fatalf("transfer out: %+v", out)
	}
	c.WaitFor("no credits", func(v machine.View) bool { return v.CreditsCents == 0 })
	if got := sasMeter(t, h, 0x18); got != uint64(credits) {
		t.Fatalf("0x18 electronic to host = %d, want %d", got, credits)
	}
	hist, err := h.AFTHistory()
	if err != nil || len(hist) != 3 || hist[0].ID != "OUT-1" || hist[1].ID != "DEB-1" || hist[2].ID != "IN-1" || hist[1].Type != aft.DebitToMachine {
		t.Fatalf("history %+v %v", hist, err)
	}
	exc := drain(t, h)
	if !slices.Contains(exc, sas.ExcAFTTransferDone) || !slices.Contains(exc, sas.ExcGameLocked) {
		t.Fatalf("exceptions %v: want 69 and 6F", exc)
	}
	c.Stop()
	st2 := readLedger(t, data)
	if err := st2.Check(); err != nil {
		t.Fatal(err)
	}
	if st2.Get(meters.ElectronicIn) != 7500 || st2.Get(meters.ElectronicOut) != credits || st2.Get(meters.Credits) != 0 {
		t.Fatalf("ledger: electronic in %d out %d credits %d", st2.Get(meters.ElectronicIn), st2.Get(meters.ElectronicOut), st2.Get(meters.Credits))
	}
	if e, ok := st2.AFT.Lookup("DEB-1"); !ok || e.POSID != aftPOS || e.ReceiptStatus != aft.ReceiptPrinted {
		t.Fatalf("the debit in the ledger: %+v", e)
	}
	if !st2.AFT.Registered() || st2.AFT.Registration.Key != aftKey() {
		t.Fatalf("registration %+v", st2.AFT.Registration)
	}
}
