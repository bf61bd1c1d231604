package host

import (
	"context"
	"errors"
	"net"
	"reflect"
	"testing"
	"time"

	"github.com/openegm/cabinet/aft"
	"github.com/openegm/cabinet/aft/aftsim"
	"github.com/openegm/cabinet/sas"
)

const aftAsset = 4711

func startAFT(t *testing.T) (*Client, *aftsim.Machine) {
	a, b := net.Pipe()
	cfg := aft.Config{Asset: aftAsset, TransferLimit: 50_000, RequireRegistration: true, InHouse: true, Bonus: true, PartialToHost: true}
	m := aftsim.New(addr, cfg, 100_000, time.Date(2026, 6, 1, 12, 0, 0, 0, time.UTC))
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- m.Serve(ctx, sas.NewStreamPort(b, sas.ModeContent)) }()
	t.Cleanup(func() {
		cancel()
		a.Close() // a reply the host never read no longer blocks the machine
		if err := <-done; err != nil {
			t.Errorf("aftsim: %v", err)
		}
		b.Close()
	})
	return New(sas.NewStreamPort(a, sas.ModeContent), Options{Addr: addr, Timeout: time.Second}), m
}

func aftKey() aft.Key {
	var k aft.Key
	for i := range k {
		k[i] = byte(0x30 + i)
	}
	return k
}

func TestAFTHostAgainstACoreMachine(t *testing.T) {
	c, m := startAFT(t)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	reg, err := c.AFTRegisterMachine(aftAsset, aftKey(), 99)
	if err != nil || reg.POSID != 99 {
		t.Fatalf("register: %+v %v", reg, err)
	}
	if _, err := c.AFTRegisterMachine(aftAsset+1, aftKey(), 99); err == nil {
		t.Fatal("registered with another machine's asset number")
	}
	if _, err := c.AFTRegisterMachine(aftAsset, aftKey(), 99); err != nil {
		t.Fatal(err)
	}
	st, err := c.AFTLock(aft.LockRequest{Code: aft.RequestLock, Conditions: aft.TransferToMachineOK, Timeout: 3000})
	if err != nil || st.Lock != aft.Locked || st.Asset != aftAsset || st.TransferLimit != 50_000 {
		t.Fatalf("lock: %+v %v", st, err)
	}
	if g, err := c.GeneralPoll(); err != nil || g.Exception != sas.ExcGameLocked {
		t.Fatalf("6F: %+v %v", g, err)
	}

	in := aft.TransferRequest{Code: aft.CodeFull, Type: aft.InHouseToMachine, Cashable: 12_000, NonRestricted: 500,
		Flags: aft.FlagOnlyIfLocked, Asset: aftAsset, Key: aftKey(), ID: "HOST-IN-1"}
	first, err := c.AFTTransfer(in)
	if err != nil || first.Status != aft.StatusPending {
		t.Fatalf("transfer: %+v %v", first, err)
	}
	r, err := c.AFTTransferWait(ctx, in, time.Millisecond)
	if err != nil || r.Status != aft.StatusFull || r.Total() != 12_500 || r.Position != 1 || r.At.IsZero() {
		t.Fatalf("transfer in: %+v %v", r, err)
	}
	if g, err := c.GeneralPoll(); err != nil || g.Exception != sas.ExcAFTTransferDone {
		t.Fatalf("69: %+v %v", g, err)
	}
	st, err = c.AFTStatus()
	if err != nil || st.Cashable != 12_000 || st.NonRestricted != 500 || st.Lock != aft.NotLocked {
		t.Fatalf("status after: %+v %v", st, err)
	}

	// The host did not see the result and sends the transfer again: the
	// recorded result, nothing moves twice.
	again, err := c.AFTTransferWait(ctx, in, time.Millisecond)
	if err != nil || !reflect.DeepEqual(again, r) {
		t.Fatalf("repeat: %+v %v, want %+v", again, err, r)
	}

	// A power loss before the machine recorded a transfer: the host
	// learns it did not happen, sends it again under its ID, once.
	m.PowerLossNext()
	out := aft.TransferRequest{Code: aft.CodePartial, Type: aft.InHouseToHost, Cashable: 20_000, NonRestricted: 500,
		Asset: aftAsset, Key: aftKey(), ID: "HOST-OUT-1"}
	if _, err := c.AFTTransferWait(ctx, out, time.Millisecond); !errors.Is(err, ErrAFTNotCurrent) {
		t.Fatalf("transfer lost to a power loss: %v", err)
	}
	r, err = c.AFTTransferWait(ctx, out, time.Millisecond)
	if err != nil || r.Status != aft.StatusPartial || r.Cashable != 12_000 || r.NonRestricted != 500 {
		t.Fatalf("cash-out: %+v %v", r, err)
	}
	credits, ledger := m.Credits(), len(m.Ledger())
	// Registrations: 00 and 01; 00 and a refused 01; 01 (00 found the
	// machine ready already, no change to record). Then the two transfers.
	if credits != (aft.Credits{}) || ledger != 2+1+1+2 {
		t.Fatalf("credits %+v, %d records", credits, ledger)
	}

	// A refusal comes back as its status.
	bad := in
	bad.ID, bad.Key[0], bad.Flags = "HOST-BAD", 0, 0
	if r, err := c.AFTTransferWait(ctx, bad, time.Millisecond); err != nil || r.Status != aft.StatusKeyMismatch {
		t.Fatalf("wrong key: %+v %v", r, err)
	}

	hist, err := c.AFTHistory()
	if err != nil || len(hist) != 2 || hist[0].ID != "HOST-OUT-1" || hist[1].ID != "HOST-IN-1" || hist[1].Position != 1 {
		t.Fatalf("history: %+v %v", hist, err)
	}
	if r, err := c.AFTInterrogate(2); err != nil || r.ID != "HOST-OUT-1" || r.Meters == nil || r.Meters.Cashable != 12_000 {
		t.Fatalf("position 2: %+v %v", r, err)
	}
	if r, err := c.AFTInterrogate(3); err != nil || r.Status != aft.StatusNoInfo {
		t.Fatalf("position 3: %+v %v", r, err)
	}
	// By ID: the refused current transfer, a history entry, and one the
	// machine never made.
	if r, _, err := c.AFTFind("HOST-BAD"); err != nil || r.Status != aft.StatusKeyMismatch {
		t.Fatalf("find the current transfer: %+v %v", r, err)
	}
	if r, n, err := c.AFTFind("HOST-IN-1"); err != nil || r.Position != 1 || r.Total() != 12_500 || n != 2 {
		t.Fatalf("find in the history: %+v %d %v", r, n, err)
	}
	if r, n, err := c.AFTFind("HOST-NEVER"); !errors.Is(err, ErrAFTUnknown) || n != 2 || r.ID != "" {
		t.Fatalf("find a transfer never made: %+v %d %v", r, n, err)
	}
	if _, err := c.AFTTransfer(aft.TransferRequest{Code: aft.CodeFull, ID: ""}); err == nil {
		t.Fatal("an empty transaction ID was sent")
	}
}

// The AFT replies carry their length, so the host knows a reply is whole
// from its first three bytes, without waiting for the line to go quiet.
func TestAFTReplyLengthKnown(t *testing.T) {
	for cmd, data := range map[byte][]byte{
		sas.CmdAFTTransfer: sas.EncodeAFTTransferReply(aft.TransferReply{Status: aft.StatusFull, Position: 1, ID: "X-1", Cashable: 100,
			At: time.Date(2026, 6, 1, 12, 0, 0, 0, time.UTC), Meters: &aft.Cumulative{}}),
		sas.CmdAFTRegister: sas.EncodeAFTRegisterReply(aft.RegisterReply{Status: aft.RegRegistered, Asset: 1, Key: aftKey()}),
		sas.CmdAFTLock:     sas.EncodeAFTStatusReply(aft.StatusReply{Asset: 1, Lock: aft.Locked}),
	} {
		frame := sas.BuildReply(addr, cmd, data...)
		if n, ok := ReplyLength(frame[:3]); !ok || n != len(frame) {
			t.Errorf("%02X: ReplyLength %d %v, want %d", cmd, n, ok, len(frame))
		}
	}
}
