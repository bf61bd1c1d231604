package main

import (
	"context"
	"testing"
	"time"

	"github.com/openegm/cabinet/machine"
	"github.com/openegm/cabinet/meters"
	"github.com/openegm/cabinet/rng"
)

// blockingHasher stands in for argon2id: each call says it started and
// waits until the test lets it finish, so the test knows a PIN is being
// worked on for as long as it wants.
type blockingHasher struct {
	started, release chan string
	abandon          chan struct{} // closed when the test ends: nothing blocks any more
}

func (h blockingHasher) wait(what string) {
	select {
	case h.started <- what:
	case <-h.abandon:
		return
	}
	select {
	case <-h.release:
	case <-h.abandon:
	}
}

func (h blockingHasher) Hash(pin string, _ []byte) string {
	h.wait("hash")
	return "fake$" + pin
}

func (h blockingHasher) Verify(encoded, pin string) bool {
	h.wait("verify")
	return encoded == "fake$"+pin
}

// While a PIN is checked or hashed, the owner goes on serving the other
// events (here a bill, committed to the ledger); the PIN's caller gets its
// answer when the work is done. Issue 13: argon2id (19 MiB) ran on the
// owner goroutine that every event waits for.
func TestPINWorkDoesNotHoldTheOwner(t *testing.T) {
	r, err := rng.New()
	if err != nil {
		t.Fatal(err)
	}
	o := testOwner(t, machine.Config{MachineID: "P", Denom: 1, HandpayLimit: 1 << 40,
		PINHashes: map[string]string{machine.RoleTechnician: "fake$582947"}}, r)
	h := blockingHasher{started: make(chan string), release: make(chan string), abandon: make(chan struct{})}
	o.hasher = h
	o.step(machine.PowerUp{At: time.Now()})
	ctx, cancel := context.WithCancel(context.Background())
	loopDone := make(chan struct{})
	go func() { o.loop(ctx); close(loopDone) }()
	defer func() { close(h.abandon); cancel(); <-loopDone }()
	o.submit(machine.Key{At: time.Now(), Key: machine.KeyAttendant, On: true, Who: "tech"})

	const deadline = 2 * time.Minute
	// inFlight submits ev, waits until the hasher holds it, checks that a
	// bill is served meanwhile, and returns the PIN's answer once released.
	inFlight := func(ev machine.Event, want string) stepped {
		t.Helper()
		answer := make(chan stepped, 1)
		go func() { answer <- o.submitSeen(ev) }()
		select {
		case got := <-h.started:
			if got != want {
				t.Fatalf("the hasher was asked to %s, want %s", got, want)
			}
		case <-time.After(deadline):
			t.Fatalf("the PIN never reached the hasher")
		}
		before := o.ledger.Meter(meters.Credits)
		served := make(chan struct{})
		go func() { o.submit(machine.BillStacked{At: time.Now(), Cents: 500}); close(served) }()
		select {
		case <-served:
		case <-time.After(deadline):
			t.Fatalf("a bill waited for the PIN's hashing: the owner is held by it")
		}
		if got := o.ledger.Meter(meters.Credits); got != before+500 {
			t.Fatalf("credits %d after a 5 € bill, were %d", got, before)
		}
		select {
		case res := <-answer:
			t.Fatalf("the PIN was answered (%+v) before its hashing finished", res.eff)
		default:
		}
		h.release <- ""
		select {
		case res := <-answer:
			return res
		case <-time.After(deadline):
			t.Fatalf("no answer after the hashing finished")
		}
		return stepped{}
	}

	res := inFlight(machine.PINEntry{At: time.Now(), Role: machine.RoleTechnician, PIN: "582947"}, "verify")
	if res.eff.Refused != "" || res.view.Service == nil || res.view.Service.Role != machine.RoleTechnician {
		t.Fatalf("login with the right PIN: refused %q, service %+v", res.eff.Refused, res.view.Service)
	}
	res = inFlight(machine.ServiceAction{At: time.Now(), Action: machine.SvcSetPIN, Value: "480163"}, "hash")
	if res.eff.Refused != "" || res.view.ServiceMessage.Key != "msg_pin_changed" {
		t.Fatalf("PIN change: refused %q, message %+v", res.eff.Refused, res.view.ServiceMessage)
	}
	o.submit(machine.ServiceAction{At: time.Now(), Action: machine.SvcLogout})
	// The new hash is the one checked: the old PIN no longer logs in.
	res = inFlight(machine.PINEntry{At: time.Now(), Role: machine.RoleTechnician, PIN: "582947"}, "verify")
	if res.eff.Refused != "refused_wrong_pin" || res.view.Service != nil {
		t.Fatalf("the old PIN after a change: refused %q, service %+v", res.eff.Refused, res.view.Service)
	}
}
