package machine

import (
	"testing"
	"time"

	"github.com/openegm/cabinet/aft"
	"github.com/openegm/cabinet/meters"
)

// decided is a transfer as the AFT core hands it over: full, cashable,
// logged at the next history position of the machine's ledger.
func (h *harness) decided(id string, typ aft.TransferType, cents int64) aft.Transfer {
	return aft.Transfer{ID: id, Code: aft.CodeFull, Type: typ, Status: aft.StatusFull, Asset: 9,
		Requested: aft.Amounts{Cashable: cents}, Amounts: aft.Amounts{Cashable: cents}, At: h.now,
		ReceiptStatus: aft.ReceiptNone, Position: h.ledger.AFT.NextPosition()}
}

func TestAFTTransfersRecordedOrRefusedWithTheLiveState(t *testing.T) {
	h := newHarness(t, testCfg, nil, 1)
	h.power()
	eff := h.step(AFTTransfer{At: h.now, Transfer: h.decided("IN-1", aft.InHouseToMachine, 5000)})
	if eff.AFTRefused != 0 || len(eff.Records) != 1 {
		t.Fatalf("transfer in: refused %v, records %v", eff.AFTRefused, eff.Records)
	}
	if h.ledger.Get(meters.Credits) != 5000 || h.ledger.Get(meters.ElectronicIn) != 5000 {
		t.Fatalf("credits %d, electronic in %d", h.ledger.Get(meters.Credits), h.ledger.Get(meters.ElectronicIn))
	}
	if c := h.m.View().AFT; c.Credits.Cashable != 5000 || c.GameInProgress || c.CreditLimit != AFTCreditLimit {
		t.Fatalf("conditions for the core %+v", c)
	}
	// A transfer out decided before a game started, arriving during it:
	// the machine's recheck refuses it and nothing moves.
	out := h.decided("OUT-1", aft.InHouseToHost, 5000)
	h.press(BtnSpin)
	if h.ledger.Open == nil {
		t.Fatal("no game started")
	}
	eff = h.step(AFTTransfer{At: h.now, Transfer: out})
	if eff.AFTRefused != aft.StatusUnable || len(eff.Records) != 0 {
		t.Fatalf("transfer during a game: refused %v, records %v", eff.AFTRefused, eff.Records)
	}
	for h.ledger.Open != nil {
		h.advance(time.Second)
	}
	// More than the credits left after the game: refused (83).
	credits := h.ledger.Get(meters.Credits)
	eff = h.step(AFTTransfer{At: h.now, Transfer: h.decided("OUT-2", aft.InHouseToHost, credits+1)})
	if eff.AFTRefused != aft.StatusInvalidAmount || len(eff.Records) != 0 {
		t.Fatalf("transfer beyond the credits: refused %v, records %v", eff.AFTRefused, eff.Records)
	}
	// An ID the ledger ran already is refused, not a meter fault.
	eff = h.step(AFTTransfer{At: h.now, Transfer: h.decided("IN-1", aft.InHouseToMachine, 5000)})
	if eff.AFTRefused != aft.StatusUnexpected || h.m.View().Fault != "" {
		t.Fatalf("a repeated ID: refused %v, fault %q", eff.AFTRefused, h.m.View().Fault)
	}
	eff = h.step(AFTTransfer{At: h.now, Transfer: h.decided("OUT-3", aft.InHouseToHost, credits)})
	if eff.AFTRefused != 0 || h.ledger.Get(meters.Credits) != 0 || h.ledger.Get(meters.ElectronicOut) != credits {
		t.Fatalf("transfer out: refused %v, credits %d, electronic out %d", eff.AFTRefused, h.ledger.Get(meters.Credits), h.ledger.Get(meters.ElectronicOut))
	}
	if err := h.ledger.Check(); err != nil {
		t.Fatal(err)
	}
}

func TestAFTLockHoldsPlayAndNotes(t *testing.T) {
	h := newHarness(t, testCfg, nil, 1)
	h.power()
	h.bill(2000)
	h.step(AFTLock{At: h.now, Locked: true})
	if eff := h.press(BtnSpin); eff.Refused != "refused_aft_locked" || h.ledger.Open != nil {
		t.Fatalf("spin under the AFT lock: refused %q", eff.Refused)
	}
	if eff := h.step(BillEscrowed{At: h.now, Cents: 500}); len(eff.Records) != 0 {
		t.Fatalf("a note taken under the AFT lock: %v", eff.Records)
	}
	if !h.m.View().AFTLocked {
		t.Fatal("the view does not show the lock")
	}
	// The transfer the lock was for is recorded under it.
	if eff := h.step(AFTTransfer{At: h.now, Transfer: h.decided("OUT-1", aft.InHouseToHost, 2000)}); eff.AFTRefused != 0 {
		t.Fatalf("transfer under the lock refused %v", eff.AFTRefused)
	}
	h.step(AFTLock{At: h.now, Locked: false})
	h.bill(500)
	if eff := h.press(BtnSpin); eff.Refused != "" || h.ledger.Open == nil {
		t.Fatalf("spin after the lock: refused %q", eff.Refused)
	}
}

func TestAFTRegistrationRecorded(t *testing.T) {
	h := newHarness(t, testCfg, nil, 1)
	h.power()
	reg := aft.Registration{Status: aft.RegRegistered, Key: aft.Key{1, 2}, POSID: 4}
	h.step(AFTRegistration{At: h.now, Registration: reg})
	if r := h.ledger.AFT.Registration; r == nil || *r != reg {
		t.Fatalf("registration %+v", r)
	}
}
