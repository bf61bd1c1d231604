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
	"github.com/openegm/cabinet/meters"
	"github.com/openegm/cabinet/rng"
	"github.com/openegm/cabinet/sas/host"
)

// aftHost is a casino's funds transfer system as the kill loop plays it:
// it knows which transfers completed (done, by ID, with the cents moved:
// positive in, negative out) and the one whose outcome it does not know
// (unsure), which it settles by transaction ID after a restart.
type aftHost struct {
	done   map[string]int64
	unsure *aft.TransferRequest
	next   int
	// found and resent count how unsure transfers were settled: the
	// machine had it, or it was lost and sent again.
	found, resent, refused int
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
	if r.ID != q.ID || r.Cashable != q.Cashable || r.Type != q.Type {
		t.Errorf("transfer %q reported as %+v", q.ID, r)
	}
	cents := r.Cashable
	if q.Type.ToHost() {
		cents = -cents
	}
	a.done[q.ID] = cents
	a.unsure = nil
}

// transfer sends one new transfer (in, or out of part of the credits the
// machine reports); sent is told right after its 0x72 poll. It returns
// false when the machine went away.
func (a *aftHost) transfer(t *testing.T, h *host.Client, r *rng.RNG, sent chan<- struct{}) bool {
	st, err := h.AFTStatus()
	if err != nil {
		return false
	}
	a.next++
	q := aft.TransferRequest{Code: aft.CodeFull, Type: aft.InHouseToMachine, Cashable: int64(100 + r.Intn(5000)),
		Asset: aftAsset, ID: fmt.Sprintf("K%d", a.next)}
	if st.Cashable > 0 && r.Intn(2) == 0 {
		q.Type, q.Cashable = aft.InHouseToHost, 1+int64(r.Intn(int(st.Cashable)))
	}
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
	n := crashIterations(6)
	data := t.TempDir()
	args := append([]string{"--spin-time", "5ms"}, aftArgs...)
	r := rng.NewSeeded(2027)
	a := &aftHost{done: map[string]int64{}}
	for i := range n {
		c := startCabinet(t, data, args...)
		h := sasHost(t, data)
		c.WaitIdle()
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
	c.Stop()
	h.Close()

	var in, out int64
	for _, cents := range a.done {
		if cents > 0 {
			in += cents
		} else {
			out -= cents
		}
	}
	st := readLedger(t, data)
	if st.Get(meters.Credits) != in-out || st.Get(meters.ElectronicIn) != in || st.Get(meters.ElectronicOut) != out {
		t.Fatalf("ledger credits %d, electronic in %d out %d; the host's transfers: in %d, out %d",
			st.Get(meters.Credits), st.Get(meters.ElectronicIn), st.Get(meters.ElectronicOut), in, out)
	}
	seen := map[string]bool{}
	for _, rec := range ledgerRecords(t, data) {
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
	if out := meterreadVerify(t, data, cabinettest.Board(data)+"/machine.pub"); !strings.HasPrefix(out, "VERIFIED") {
		t.Fatalf("meterread verify: %s", out)
	}
	t.Logf("%d kills survived: %d transfers, %d cents in, %d out, each once; after a kill %d were found done, %d lost and sent again, %d refused for good when sent again",
		n, len(a.done), in, out, a.found, a.resent, a.refused)
}
