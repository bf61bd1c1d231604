package main

import (
	"testing"
	"time"

	"github.com/openegm/cabinet/aft"
	"github.com/openegm/cabinet/machine"
	"github.com/openegm/cabinet/meters"
	"github.com/openegm/cabinet/sas"
)

func newAFTPort(t *testing.T) *testPort {
	view := machine.View{Mode: "idle", AFT: aft.Conditions{CreditLimit: machine.AFTCreditLimit, PrinterReady: true}}
	p := newTestPort(t, meters.NewState(), view)
	p.aft = aft.New(aftConfig(aftAsset, 100_000, false), aft.State{})
	return p
}

// transfer sends a 0x72 poll and decodes the reply.
func (p *testPort) transfer(q aft.TransferRequest) aft.TransferReply {
	p.t.Helper()
	data, err := sas.EncodeAFTTransfer(q)
	if err != nil {
		p.t.Fatal(err)
	}
	reply := p.poll(sas.LongPollFrame(1, sas.CmdAFTTransfer, data...))
	if len(reply) < 4 {
		p.t.Fatalf("no reply to 0x72: % X", reply)
	}
	r, err := sas.DecodeAFTTransferReply(reply[2 : len(reply)-2])
	if err != nil {
		p.t.Fatal(err)
	}
	return r
}

// anon is a transfer with no key: the cabinet needs no registration for it.
func anon(id string, typ aft.TransferType, cents int64) aft.TransferRequest {
	q := aftReq(id, typ, cents)
	q.Key = aft.Key{}
	return q
}

func (p *testPort) aftOrders() (transfers []machine.AFTTransfer, locks []bool) {
	for _, ev := range p.pendingOrders() {
		switch e := ev.(type) {
		case machine.AFTTransfer:
			transfers = append(transfers, e)
		case machine.AFTLock:
			locks = append(locks, e.Locked)
		}
	}
	return transfers, locks
}

// A transfer the machine refuses reaches the host as the machine's
// status; one it records is done once the commit is published.
func TestSASPortAFTTransferSettledByTheMachine(t *testing.T) {
	p := newAFTPort(t)
	if r := p.transfer(anon("A", aft.InHouseToMachine, 2500)); r.Status != aft.StatusPending {
		t.Fatalf("first reply %+v", r)
	}
	orders, _ := p.aftOrders()
	if len(orders) != 1 || orders[0].Transfer.ID != "A" || orders[0].Transfer.Amounts.Cashable != 2500 {
		t.Fatalf("orders to the owner %+v", orders)
	}
	// The machine refused it (a game had started).
	p.aftSettle(orders[0], machine.Effects{AFTRefused: aft.StatusUnable})
	if r := p.transfer(aft.TransferRequest{Code: aft.CodeInterrogate}); r.Status != aft.StatusUnable || r.ID != "A" {
		t.Fatalf("after the refusal %+v", r)
	}
	// The same ID again: a refusal moved nothing, so it may run.
	if r := p.transfer(anon("A", aft.InHouseToMachine, 2500)); r.Status != aft.StatusPending {
		t.Fatalf("again %+v", r)
	}
	orders, _ = p.aftOrders()
	rec := orders[len(orders)-1]
	st := meters.NewState()
	committed := meters.AFTTransfer{At: 1, Transfer: rec.Transfer}
	if err := st.Apply(committed); err != nil {
		t.Fatal(err)
	}
	p.mu.Lock()
	p.aftCommitted([]meters.Record{committed}, st, p.now)
	p.mu.Unlock()
	p.aftSettle(rec, machine.Effects{}) // after the commit: nothing to settle
	if r := p.transfer(aft.TransferRequest{Code: aft.CodeInterrogate}); r.Status != aft.StatusFull || r.Position != 1 {
		t.Fatalf("after the commit %+v", r)
	}
	// Recorded by the machine, not by the ledger (a failed commit): 9F.
	p.transfer(anon("B", aft.InHouseToMachine, 100))
	orders, _ = p.aftOrders()
	p.aftSettle(orders[len(orders)-1], machine.Effects{})
	if r := p.transfer(aft.TransferRequest{Code: aft.CodeInterrogate}); r.Status != aft.StatusUnexpected || r.ID != "B" {
		t.Fatalf("after a failed commit %+v", r)
	}
}

// The lock is ordered to the machine when it starts and when it ends,
// raises 6F, and AFT off leaves the AFT polls unanswered.
func TestSASPortAFTLockAndOff(t *testing.T) {
	p := newAFTPort(t)
	data, _ := sas.EncodeAFTLock(aft.LockRequest{Code: aft.RequestLock, Conditions: aft.TransferToMachineOK, Timeout: 100})
	reply := p.poll(sas.LongPollFrame(1, sas.CmdAFTLock, data...))
	r, err := sas.DecodeAFTStatusReply(reply[2 : len(reply)-2])
	if err != nil || r.Lock != aft.Locked {
		t.Fatalf("lock reply %+v %v", r, err)
	}
	if code := p.poll(sas.GeneralPollFrame(1)); len(code) != 1 || code[0] != byte(sas.ExcGameLocked) {
		t.Fatalf("general poll % X, want 6F", code)
	}
	p.mu.Lock()
	p.aftTick(p.aftConditions(), p.now.Add(2*time.Second)) // past the 1 s timeout
	p.mu.Unlock()
	if _, locks := p.aftOrders(); len(locks) != 2 || !locks[0] || locks[1] {
		t.Fatalf("lock orders %v, want on then off", locks)
	}

	off := newTestPort(t, meters.NewState(), machine.View{})
	if reply := off.poll(sas.LongPollFrame(1, sas.CmdAFTLock, data...)); len(reply) != 0 {
		t.Fatalf("AFT off answered 74: % X", reply)
	}
}
