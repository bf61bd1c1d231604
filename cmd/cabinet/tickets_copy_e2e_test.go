package main

import (
	"fmt"
	"testing"
	"time"

	"github.com/openegm/cabinet/internal/cabinettest"
	"github.com/openegm/cabinet/machine"
	"github.com/openegm/cabinet/tito/ticketsys"
)

// Issue 23, a copied ticket: a copy presented at the cabinet that has just
// credited the original, before the ticket system committed that
// redemption, must credit nothing. The real cabinets and the real
// ticketsys on the TLS etcd; exactly one credit, and both ledgers say so.

// copyAgrees waits for the ticket system to settle digits and checks that
// the cabinet credited it once and the system recorded one redemption, by
// it.
func (f *ticketFloor) copyAgrees(c *cabinet, name, digits string, cents int64) {
	f.t.Helper()
	c.WaitFor("the copy's cycle to end", func(v machine.View) bool { return v.TicketEscrow == "" })
	var tk ticketsys.Ticket
	waitUntil(f.t, "the system to settle the ticket", func() bool {
		tk = f.show(digits)
		return tk.State != ticketsys.Pending
	})
	redeemed := 0
	for _, e := range tk.History {
		if e.What == "redeemed" {
			redeemed++
		}
	}
	if tk.State != ticketsys.Redeemed || tk.Final == nil || tk.Final.By != name || redeemed != 1 {
		f.t.Fatalf("the system recorded %s with %d redemptions, final %+v: %+v", tk.State, redeemed, tk.Final, tk.History)
	}
	if got, credits := meter(c, "ticket in"), c.State().CreditsCents; got != cents || credits != cents {
		f.t.Fatalf("the cabinet's ticket in %d, credits %d; the system's one redemption of %d", got, credits, cents)
	}
	if held := f.list(ticketsys.Pending); len(held) != 0 {
		f.t.Fatalf("tickets still held %+v", held)
	}
}

// creditedAt waits until c has credited cents, asking its state as fast
// as it answers: the copy is to follow the credit as closely as a player
// could.
func creditedAt(t *testing.T, c *cabinet, cents int64) {
	t.Helper()
	deadline := time.Now().Add(90 * time.Second)
	for {
		v := c.State()
		if v.TicketEscrow == "" && v.CreditsCents >= cents {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("waited 90 s for the original's credit: %+v", v)
		}
	}
}

// TestTicketCopyAfterTheCredit: the copy 0, 20 and 50 ms after the
// cabinet credited the original (the ticket system polling every 20 ms,
// so the first two land before it has read the credit's 0x68).
func TestTicketCopyAfterTheCredit(t *testing.T) {
	t.Parallel()
	f := newTicketFloor(t)
	a := ticketCabinet(t, t.TempDir())
	f.service("egm-a", a)
	for i, after := range []time.Duration{0, 20 * time.Millisecond, 50 * time.Millisecond} {
		t.Run(fmt.Sprint(after), func(t *testing.T) {
			f := *f
			f.t = t
			b := ticketCabinet(t, t.TempDir())
			f.service("egm-b", b)
			cents := int64(500 * (i + 1))
			digits := f.cashOutTicket(a, cents)
			if r := b.Send(cabinettest.Command{Cmd: "ticket", Value: digits}); !r.OK {
				t.Fatalf("ticket: %+v", r)
			}
			creditedAt(t, b, cents)
			time.Sleep(after)
			if r := b.Send(cabinettest.Command{Cmd: "ticket", Value: digits}); !r.OK {
				t.Fatalf("the copy: %+v", r)
			}
			f.copyAgrees(b, "egm-b", digits, cents)
		})
	}
}

// TestTicketCopyWhileTheSystemIsDown: the ticket system dies as the
// cabinet credits the original (its link cut at the cabinet's reply 40 to
// the 0x71, and the process killed); the copy goes in half a second after
// the credit, and the system comes back two seconds after it.
func TestTicketCopyWhileTheSystemIsDown(t *testing.T) {
	cabinettest.PlainPassOnly(t)
	t.Parallel()
	f := newTicketFloor(t)
	a := ticketCabinet(t, t.TempDir())
	f.service("egm-a", a)
	port := freePort(t)
	b := startCabinet(t, t.TempDir(), "--sas-addr", "1", "--sas-tcp", port, "--spin-time", "5ms")
	cut := newSASCutter(t, port)
	stop := f.run("egm-b", "tcp:"+cut.addr(), f.etcd)
	b.WaitFor("B configured by the system", func(v machine.View) bool { return v.TicketValidation == machine.ValidationSecureEnhanced })

	const cents = 1500
	digits := f.cashOutTicket(a, cents)
	done := make(chan struct{})
	cut.arm(func() { stop(); close(done) })
	if r := b.Send(cabinettest.Command{Cmd: "ticket", Value: digits}); !r.OK {
		t.Fatalf("ticket: %+v", r)
	}
	select {
	case <-done:
	case <-time.After(90 * time.Second):
		t.Fatal("the system never answered 0x71")
	}
	creditedAt(t, b, cents)
	if tk := f.show(digits); tk.State != ticketsys.Pending {
		t.Fatalf("the system already settled the ticket: %+v", tk)
	}
	time.Sleep(500 * time.Millisecond)
	if r := b.Send(cabinettest.Command{Cmd: "ticket", Value: digits}); !r.OK {
		t.Fatalf("the copy: %+v", r)
	}
	time.Sleep(1500 * time.Millisecond)
	f.run("egm-b", "tcp:"+cut.addr(), f.etcd)
	f.copyAgrees(b, "egm-b", digits, cents)
}

// TestTicketCopyAfterBothRestart: the cabinet and its ticket system are
// killed right after the credit; the cabinet comes back first and the copy
// goes in before the system is back, which then finds it waiting, with
// the original's redemption still pending.
func TestTicketCopyAfterBothRestart(t *testing.T) {
	cabinettest.PlainPassOnly(t)
	t.Parallel()
	f := newTicketFloor(t)
	a := ticketCabinet(t, t.TempDir())
	f.service("egm-a", a)
	dataB := t.TempDir()
	b := ticketCabinet(t, dataB)
	stop := f.service("egm-b", b)
	const cents = 2500
	digits := f.cashOutTicket(a, cents)
	if r := b.Send(cabinettest.Command{Cmd: "ticket", Value: digits}); !r.OK {
		t.Fatalf("ticket: %+v", r)
	}
	creditedAt(t, b, cents)
	stop()
	b.Kill()
	b = ticketCabinet(t, dataB)
	if r := b.Send(cabinettest.Command{Cmd: "ticket", Value: digits}); !r.OK {
		t.Fatalf("the copy: %+v", r)
	}
	f.service("egm-b", b)
	f.copyAgrees(b, "egm-b", digits, cents)
}
