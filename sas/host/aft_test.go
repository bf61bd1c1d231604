package host

import (
	"context"
	"errors"
	"net"
	"os"
	"reflect"
	"sync"
	"testing"
	"time"

	"github.com/openegm/cabinet/aft"
	"github.com/openegm/cabinet/sas"
)

// aftMachine is a gaming machine reduced to AFT, built on the aft core,
// on the far end of a stream: it frames the polls the host sends (general
// polls and 72, 73, 74), answers from the core, and commits a transfer's
// record one poll after it accepted it, so the host sees it pending
// first. powerLoss makes it lose the next accepted transfer before the
// commit, as a power loss would, and come back from its ledger.
type aftMachine struct {
	mu        sync.Mutex
	cfg       aft.Config
	core      *aft.Core
	credits   aft.Credits
	ledger    []aft.Record
	exc       []aft.Exception
	pending   *aft.Transfer
	waited    int
	powerLoss bool
	now       time.Time
}

const aftAsset = 4711

func newAFTMachine() *aftMachine {
	cfg := aft.Config{Asset: aftAsset, TransferLimit: 50_000, RequireRegistration: true, InHouse: true, Bonus: true, PartialToHost: true}
	return &aftMachine{cfg: cfg, core: aft.New(cfg, aft.State{}), now: time.Date(2026, 6, 1, 12, 0, 0, 0, time.UTC)}
}

func (m *aftMachine) cond() aft.Conditions {
	return aft.Conditions{Credits: m.credits, CreditLimit: 100_000, PrinterReady: true}
}

func (m *aftMachine) commit(r aft.Record) {
	exc, err := m.core.Committed(r, m.now)
	if err != nil {
		panic(err)
	}
	m.ledger = append(m.ledger, r)
	if t, ok := r.(aft.Transfer); ok {
		m.credits = m.credits.Apply(t)
	}
	m.exc = append(m.exc, exc...)
}

// step commits the pending transfer once a poll has passed since it was
// accepted, or loses it on a power loss.
func (m *aftMachine) step() {
	if m.pending == nil {
		return
	}
	switch {
	case m.powerLoss:
		m.powerLoss, m.pending = false, nil
		st, err := aft.Fold(m.ledger)
		if err != nil {
			panic(err)
		}
		m.core = aft.New(m.cfg, st)
	case m.waited > 0:
		rec := *m.pending
		m.pending = nil
		m.commit(rec)
	default:
		m.waited++
	}
}

func (m *aftMachine) longPoll(cmd byte, data []byte) []byte {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.now = m.now.Add(time.Second)
	m.step()
	switch cmd {
	case sas.CmdAFTTransfer:
		q, err := sas.DecodeAFTTransfer(data)
		if err != nil {
			var ae *sas.AFTError
			errors.As(err, &ae)
			return sas.EncodeAFTTransferReply(aft.TransferReply{Status: ae.Status, At: m.now})
		}
		d := m.core.Transfer(q, m.cond(), m.now)
		if d.Record != nil {
			m.pending, m.waited = d.Record, 0
		}
		return sas.EncodeAFTTransferReply(d.Reply)
	case sas.CmdAFTRegister:
		q, err := sas.DecodeAFTRegister(data)
		if err != nil {
			return nil
		}
		r, rec := m.core.Register(q)
		if rec != nil {
			m.commit(*rec)
		}
		return sas.EncodeAFTRegisterReply(r)
	case sas.CmdAFTLock:
		q, err := sas.DecodeAFTLock(data)
		if err != nil {
			return nil
		}
		r, exc := m.core.Lock(q, m.cond(), m.now)
		m.exc = append(m.exc, exc...)
		return sas.EncodeAFTStatusReply(r)
	}
	return nil
}

func (m *aftMachine) generalPoll() byte {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.step()
	if len(m.exc) == 0 {
		return 0
	}
	e := m.exc[0]
	m.exc = m.exc[1:]
	return byte(e)
}

// serve frames by content what the host writes and answers the polls to
// addr until ctx ends.
func (m *aftMachine) serve(ctx context.Context, p sas.Port) {
	var buf []byte
	chunk := make([]byte, 512)
	for ctx.Err() == nil {
		_ = p.SetReadDeadline(time.Now().Add(20 * time.Millisecond))
		n, err := p.Read(chunk)
		buf = append(buf, chunk[:n]...)
		if err != nil && !errors.Is(err, os.ErrDeadlineExceeded) {
			return
		}
		for len(buf) > 0 {
			if buf[0]&sas.GeneralPollBit != 0 {
				if buf[0] == sas.GeneralPollBit|addr {
					_, _ = p.Write([]byte{m.generalPoll()})
				}
				buf = buf[1:]
				continue
			}
			if len(buf) < 3 {
				break
			}
			need := 8
			if buf[1] != sas.CmdAFTLock {
				need = 3 + int(buf[2]) + 2
			}
			if len(buf) < need {
				break
			}
			frame := buf[:need]
			buf = buf[need:]
			if frame[0] != addr || !sas.CheckCRC(frame) {
				continue
			}
			if reply := m.longPoll(frame[1], frame[2:need-2]); reply != nil {
				_, _ = p.Write(sas.BuildReply(addr, frame[1], reply...))
			}
		}
	}
}

func startAFT(t *testing.T) (*Client, *aftMachine) {
	a, b := net.Pipe()
	m := newAFTMachine()
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { m.serve(ctx, sas.NewStreamPort(b, sas.ModeContent)); close(done) }()
	t.Cleanup(func() { cancel(); a.Close(); <-done; b.Close() })
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
	m.mu.Lock()
	m.powerLoss = true
	m.mu.Unlock()
	out := aft.TransferRequest{Code: aft.CodePartial, Type: aft.InHouseToHost, Cashable: 20_000, NonRestricted: 500,
		Asset: aftAsset, Key: aftKey(), ID: "HOST-OUT-1"}
	if _, err := c.AFTTransferWait(ctx, out, time.Millisecond); !errors.Is(err, ErrAFTNotCurrent) {
		t.Fatalf("transfer lost to a power loss: %v", err)
	}
	r, err = c.AFTTransferWait(ctx, out, time.Millisecond)
	if err != nil || r.Status != aft.StatusPartial || r.Cashable != 12_000 || r.NonRestricted != 500 {
		t.Fatalf("cash-out: %+v %v", r, err)
	}
	m.mu.Lock()
	credits, ledger := m.credits, len(m.ledger)
	m.mu.Unlock()
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
	if _, err := c.AFTTransfer(aft.TransferRequest{Code: aft.CodeFull, ID: ""}); err == nil {
		t.Fatal("an empty transaction ID was sent")
	}
}
