package main

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/openegm/cabinet/aft"
	"github.com/openegm/cabinet/internal/cabinettest"
	"github.com/openegm/cabinet/machine"
	"github.com/openegm/cabinet/meters"
	"github.com/openegm/cabinet/rng"
	"github.com/openegm/cabinet/sas"
	"github.com/openegm/cabinet/sas/host"
)

// aftHost is a casino's funds transfer system as the kill loop plays it:
// it knows which transfers completed (done, by ID, with what moved) and the
// one whose outcome it does not know (unsure), which it settles by
// transaction ID after a restart. Its transfers move the three kinds of
// credit: cashable, restricted (of pool 3, or now and then of pool 4,
// which the machine refuses while pool 3's credits remain) and
// non-restricted, in and out, and bonus wins: coin-out wins and jackpot
// wins, some at the handpay limit, which lock the machine up until the
// host resets the handpay (0x94), and debits (cashable money in under the
// registration's key, from POS aftPOS).
type aftHost struct {
	done   map[string]aftMove
	unsure *aft.TransferRequest
	next   int
	// found and resent count how unsure transfers were settled: the
	// machine had it, or it was lost and sent again.
	found, resent, refused int
}

// aftHandpayLimit is the cabinet's handpay limit in the kill loop (the
// default of --handpay-limit).
const aftHandpayLimit = 120000

// resetHandpay resets the machine's handpay, if it is locked up for one
// (a bonus jackpot at the limit, perhaps resumed at power-up), as the
// host's 0x94 does; it reports whether it asked the machine to.
func (a *aftHost) resetHandpay(h *host.Client) bool {
	st, err := h.RemoteHandpayReset()
	return err == nil && st == sas.HandpayResetDone
}

// register registers the host for debit (key and POS), as a debit host
// does whenever it finds the machine not registered (a kill may take a
// registration not yet in the ledger).
func (a *aftHost) register(t *testing.T, h *host.Client) {
	t.Helper()
	deadline := time.Now().Add(time.Minute)
	for {
		r, err := h.AFTRegister(aft.RegisterRequest{Code: aft.RegRead})
		if err == nil && r.Status == aft.RegRegistered && r.Key == aftKey() && r.POSID == aftPOS {
			return
		}
		if err == nil {
			_, err = h.AFTRegisterMachine(aftAsset, aftKey(), aftPOS)
		}
		if err == nil {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("registering for debit: %v", err)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// settle learns the outcome of the unsure transfer: the machine has it
// (current or in its history) or it never happened, and is sent again
// under the same ID until it completes.
func (a *aftHost) settle(t *testing.T, h *host.Client) {
	t.Helper()
	q := a.unsure
	if q == nil {
		return
	}
	// Generous: on a loaded machine a restart and each ledger commit can
	// take seconds.
	deadline := time.Now().Add(3 * time.Minute)
	var lastErr error
	var last aft.TransferReply
	for time.Now().Before(deadline) {
		r, _, err := h.AFTFind(q.ID)
		switch {
		case err == nil && r.Status.Succeeded():
			a.found++
			a.complete(t, *q, r)
			return
		case err != nil && !errors.Is(err, host.ErrAFTUnknown):
			lastErr = err // a reply lost on a loaded machine: ask again
			time.Sleep(50 * time.Millisecond)
			continue
		}
		// Not there, or refused (a refusal moved nothing): again, same ID.
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		r, err = h.AFTTransferWait(ctx, *q, 20*time.Millisecond)
		cancel()
		last = r
		if err != nil {
			lastErr = err
		}
		if err == nil && r.Status.Succeeded() {
			a.resent++
			a.complete(t, *q, r)
			return
		}
		if err == nil && r.Status == aft.StatusUnable && a.resetHandpay(h) {
			continue // locked up for a bonus handpay: reset, then again
		}
		if err == nil && r.ID == q.ID && r.Status.Failed() && r.Status != aft.StatusUnable {
			// Refused for good (an amount out beyond the credits: the host
			// computed it from a status read just before a transfer it had
			// seen done reached the machine's view): nothing moved, which
			// the ledger's credits checked at the end prove.
			a.refused++
			a.unsure = nil
			return
		}
		time.Sleep(100 * time.Millisecond) // the machine is still starting
	}
	t.Fatalf("transfer %q never completed (last reply: ID %q status %v; last error: %v)", q.ID, last.ID, last.Status, lastErr)
}

// complete notes a transfer done (Errorf: it also runs on the host's
// goroutine).
func (a *aftHost) complete(t *testing.T, q aft.TransferRequest, r aft.TransferReply) {
	t.Helper()
	if _, twice := a.done[q.ID]; twice {
		t.Errorf("transfer %q completed twice", q.ID)
	}
	moved := aft.Amounts{Cashable: r.Cashable, Restricted: r.Restricted, NonRestricted: r.NonRestricted}
	if r.ID != q.ID || moved != (aft.Amounts{Cashable: q.Cashable, Restricted: q.Restricted, NonRestricted: q.NonRestricted}) || r.Type != q.Type {
		t.Errorf("transfer %q reported as %+v", q.ID, r)
	}
	a.done[q.ID] = aftMove{q.Type, moved}
	a.unsure = nil
}

// aftMove is what a completed transfer moved.
type aftMove struct {
	typ aft.TransferType
	aft.Amounts
}

// aftTotals are the host's completed transfers summed by direction and
// kind (debits among those in, and apart), and the bonus wins: to the
// credit meter, and by hand.
type aftTotals struct {
	in, out, bonus, byHand aft.Amounts
	debit, debits          int64
}

func (a *aftHost) totals() aftTotals {
	var s aftTotals
	for _, m := range a.done {
		into := &s.in
		switch {
		case m.typ.ToHost():
			into = &s.out
		case m.typ == aft.BonusJackpot && m.Total() >= aftHandpayLimit:
			into = &s.byHand
		case m.typ.Bonus():
			into = &s.bonus
		}
		into.Cashable += m.Cashable
		into.Restricted += m.Restricted
		into.NonRestricted += m.NonRestricted
		if m.typ == aft.DebitToMachine {
			s.debit += m.Total()
			s.debits++
		}
	}
	return s
}

// nextTransfer is a new transfer of the kinds the machine holds (st):
// in, out of part of each kind, or a bonus win.
func (a *aftHost) nextTransfer(st aft.StatusReply, r *rng.RNG) aft.TransferRequest {
	a.next++
	q := aft.TransferRequest{Code: aft.CodeFull, Type: aft.InHouseToMachine, Asset: aftAsset, ID: fmt.Sprintf("K%d", a.next)}
	some := func(n int64) int64 { return int64(r.Intn(int(n) + 1)) }
	switch held := st.Cashable + st.Restricted + st.NonRestricted; {
	case held > 0 && r.Intn(2) == 0:
		q.Type = aft.InHouseToHost
		q.Cashable, q.Restricted, q.NonRestricted = some(st.Cashable), some(st.Restricted), some(st.NonRestricted)
		if q.Total() == 0 {
			q.Cashable, q.Restricted, q.NonRestricted = st.Cashable, st.Restricted, st.NonRestricted
		}
	case r.Intn(6) == 0:
		q.Type, q.Cashable, q.NonRestricted = aft.BonusCoinOut, int64(r.Intn(300)), int64(1+r.Intn(200))
	case r.Intn(5) == 0:
		q.Type, q.Cashable, q.Key = aft.DebitToMachine, int64(1+r.Intn(2500)), aftKey()
	case r.Intn(5) == 0:
		// A bonus jackpot: a third of them at the handpay limit or above.
		q.Type, q.Cashable, q.NonRestricted = aft.BonusJackpot, int64(1+r.Intn(900)), int64(r.Intn(2)*r.Intn(100))
		if r.Intn(3) == 0 {
			q.Cashable += aftHandpayLimit
		}
	default:
		q.Cashable, q.Restricted, q.NonRestricted = int64(r.Intn(3000)), int64(r.Intn(1500)), int64(r.Intn(800))
		if q.Total() == 0 {
			q.Cashable = 100
		}
		if q.Restricted > 0 {
			q.PoolID, q.Expiration = 3, 30
			if r.Intn(5) == 0 {
				q.PoolID = 4
			}
		}
	}
	return q
}

// transfer sends one new transfer (nextTransfer); sent is told right after
// its 0x72 poll. It returns
// false when the machine went away.
func (a *aftHost) transfer(t *testing.T, h *host.Client, r *rng.RNG, sent chan<- struct{}) bool {
	a.resetHandpay(h)
	st, err := h.AFTStatus()
	if err != nil {
		return false
	}
	q := a.nextTransfer(st, r)
	a.unsure = &q
	rep, err := h.AFTTransfer(q)
	select {
	case sent <- struct{}{}:
	default:
	}
	for err == nil && rep.Status.IsPending() && rep.ID == q.ID {
		time.Sleep(5 * time.Millisecond)
		rep, err = h.AFTInterrogate(0)
	}
	switch {
	case err != nil:
		return false // the cord was pulled: unsure until the restart
	case rep.ID != q.ID:
		return true // a restart in between: settled by ID later
	case rep.Status.Succeeded():
		a.complete(t, q, rep)
	default:
		a.unsure = nil // refused, nothing moved (the machine may be starting)
	}
	return true
}

// TestAFTCrashLoop pulls the power cord right after a transfer poll, at
// random moments while the transfer is decided, recorded and reported.
// After each restart the host asks the machine for the transfer by its ID
// and sends it again under that ID when the machine does not have it:
// every transfer moves money exactly once, and the credit meter is the sum
// of the transfers done. CRASH_ITERATIONS sets the number of kills (make
// crashtest).
func TestAFTCrashLoop(t *testing.T) {
	cabinettest.PlainPassOnly(t)
	t.Parallel()
	n := crashIterations(6)
	data := t.TempDir()
	args := append([]string{"--spin-time", "5ms"}, aftArgs...)
	r := rng.NewSeeded(2027)
	a := &aftHost{done: map[string]aftMove{}}
	for i := range n {
		c := startCabinet(t, data, args...)
		h := sasHost(t, data)
		c.WaitIdle()
		a.register(t, h)
		a.settle(t, h)
		sent := make(chan struct{}, 1)
		done := make(chan struct{})
		play := rng.NewSeeded(r.Uint64n(1 << 62))
		go func() {
			defer close(done)
			for a.transfer(t, h, play, sent) {
			}
		}()
		for range 1 + r.Intn(4) {
			select {
			case <-sent:
			case <-time.After(time.Minute):
				t.Fatalf("kill %d: no transfer sent for a minute", i)
			}
		}
		// Right after the poll: before the decision reaches the owner,
		// while it commits, or after.
		wait := 15000
		if r.Intn(2) == 0 {
			wait = 1500 // most often before the commit
		}
		time.Sleep(time.Duration(r.Intn(wait)) * time.Microsecond)
		c.Kill()
		h.Close()
		<-done
		if t.Failed() {
			t.FailNow()
		}
		st := readLedger(t, data)
		if err := st.Check(); err != nil {
			t.Fatalf("kill %d: %v", i, err)
		}
		noEvidence(t, i, st)
	}
	c := startCabinet(t, data, args...)
	h := sasHost(t, data)
	c.WaitIdle()
	a.settle(t, h)
	a.resetHandpay(h)
	c.WaitFor("no handpay", func(v machine.View) bool { return v.Mode != "handpay" })
	c.Stop()
	h.Close()

	// The ledger holds, kind by kind, what the host's completed transfers
	// moved (no game is played: nothing else moves the credits).
	tot := a.totals()
	st := readLedger(t, data)
	if err := st.Check(); err != nil {
		t.Fatal(err)
	}
	want := aft.Amounts{Cashable: tot.in.Cashable - tot.out.Cashable + tot.bonus.Total(), Restricted: tot.in.Restricted - tot.out.Restricted,
		NonRestricted: tot.in.NonRestricted - tot.out.NonRestricted}
	if got := st.CreditsByKind().Amounts; got != want {
		t.Fatalf("ledger credits by kind %+v; the host's transfers: in %+v, out %+v, bonus %+v", got, tot.in, tot.out, tot.bonus)
	}
	for m, v := range map[meters.Meter]int64{meters.ElectronicIn: tot.in.Total(), meters.ElectronicOut: tot.out.Total(),
		meters.RestrictedIn: tot.in.Restricted, meters.RestrictedOut: tot.out.Restricted, meters.NonRestrictedIn: tot.in.NonRestricted,
		meters.NonRestrictedOut: tot.out.NonRestricted, meters.MachinePaidBonus: tot.bonus.Total(),
		meters.AttendantPaidBonus: tot.byHand.Total()} {
		if st.Get(m) != v {
			t.Errorf("ledger %s = %d, the host's transfers %d", meters.Defs[m].Name, st.Get(m), v)
		}
	}
	// Debits are counted once on their own AFT meters (A6/A7).
	if got, want := st.AFT.Meters[aft.MeterDebitIn], tot.debit; got != want {
		t.Errorf("A6 debit in = %d, the host's debits %d", got, want)
	}
	if got, want := st.AFT.Meters[aft.MeterDebitInCount], tot.debits; got != want {
		t.Errorf("A7 debits = %d, the host completed %d", got, want)
	}
	seen := map[string]bool{}
	lockouts, resumed := map[string]int{}, 0
	var prev meters.Record
	for _, rec := range ledgerRecords(t, data) {
		// Each bonus handpay locks up once, for a jackpot at the limit
		// the host completed: right after its transfer, or at the
		// power-up after a kill in between.
		if x, ok := rec.(meters.HandpayPending); ok && x.Kind == meters.HandpayBonus {
			if m, ok := a.done[x.Ref]; !ok || m.typ != aft.BonusJackpot || m.Total() != x.Cents || m.Total() < aftHandpayLimit {
				t.Fatalf("bonus handpay %+v: the host completed %+v", x, m)
			}
			lockouts[x.Ref]++
			if p, ok := prev.(meters.AFTTransfer); !ok || p.Transfer.ID != x.Ref {
				resumed++
			}
		}
		prev = rec
		if x, ok := rec.(meters.AFTTransfer); ok {
			if seen[x.Transfer.ID] {
				t.Fatalf("transfer %q recorded twice", x.Transfer.ID)
			}
			seen[x.Transfer.ID] = true
			if _, ok := a.done[x.Transfer.ID]; !ok {
				t.Fatalf("transfer %q recorded, the host never learned it completed", x.Transfer.ID)
			}
		}
	}
	if len(seen) != len(a.done) {
		t.Fatalf("%d transfers recorded, the host completed %d", len(seen), len(a.done))
	}
	byHand := 0
	for id, m := range a.done {
		if m.typ == aft.BonusJackpot && m.Total() >= aftHandpayLimit {
			byHand++
			if lockouts[id] != 1 {
				t.Fatalf("bonus jackpot %q locked up %d times", id, lockouts[id])
			}
		}
	}
	if out := meterreadVerify(t, data, cabinettest.Board(data)+"/machine.pub"); !strings.HasPrefix(out, "VERIFIED") {
		t.Fatalf("meterread verify: %s", out)
	}
	t.Logf("%d kills survived: %d transfers, in %+v (%d debits of %d cents), out %+v, bonus to credits %+v, by hand %+v (%d handpays, %d of them locked up at the power-up after a kill), each once; after a kill %d were found done, %d lost and sent again, %d refused for good when sent again",
		n, len(a.done), tot.in, tot.debits, tot.debit, tot.out, tot.bonus, tot.byHand, byHand, resumed, a.found, a.resent, a.refused)
}
