package main

import (
	"net"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/openegm/cabinet/internal/cabinettest"
	"github.com/openegm/cabinet/internal/etcdtest"
	"github.com/openegm/cabinet/machine"
	"github.com/openegm/cabinet/tito"
	"github.com/openegm/cabinet/tito/ticketsys"
)

// The rest of validation at the real cabinet with the real ticket system
// on a three-member etcd: handpays validated, system validation refused,
// and the ticket system bringing a cabinet's link back.

// TestHandpayValidatedAndRecorded: a handpay the attendant confirms paid
// is validated with the host's secure-enhanced ID, its receipt carries the
// number, and the validation, unread when the cabinet loses power, is read
// after the restart and recorded by the ticket system as a handpay
// receipt, which no cabinet takes as a ticket and the audit lists.
func TestHandpayValidatedAndRecorded(t *testing.T) {
	cabinettest.PlainPassOnly(t)
	t.Parallel()
	f := newTicketFloor(t)
	data := t.TempDir()
	args := []string{"--sas-addr", "1", "--sas-pty", "--spin-time", "5ms", "--handpay-limit", "2000"}
	c := startCabinet(t, data, args...)
	stop := f.service("egm-h", c)
	c.WaitFor("the host's validation ID", func(v machine.View) bool { return v.TicketValidation == machine.ValidationSecureEnhanced })
	stop() // the ticket system is away while the handpay is paid

	c.Bill(2000)
	if r := c.Send(cabinettest.Command{Cmd: "press", Button: machine.BtnCashOut}); r.View.Handpay != 2000 {
		t.Fatalf("cash-out at the handpay limit: %+v", r.View)
	}
	c.TurnKey("att-1")
	rs := c.Send(cabinettest.Command{Cmd: "receipts"}).Receipts
	if len(rs) != 1 {
		t.Fatalf("receipts %+v", rs)
	}
	v, err := tito.ParseDigits(rs[0].Validation)
	if err != nil || v.Style != tito.StyleSecureEnhanced || rs[0].Cents != 2000 || rs[0].Who != "att-1" {
		t.Fatalf("receipt %+v: %v", rs[0], err)
	}
	digits := rs[0].Validation
	if st, err := os.Stat(filepath.Join(data, ticketsDir, digits+"-receipt.png")); err != nil || st.Size() < 1000 {
		t.Fatalf("the receipt's picture: %v", err)
	}
	if got := c.State().CreditsCents; got != 0 {
		t.Fatalf("credits after the handpay: %d", got)
	}

	c.Kill()
	c = startCabinet(t, data, args...)
	f.service("egm-h", c)
	var tk ticketsys.Ticket
	waitUntil(t, "the handpay recorded by the system", func() bool { tk = f.show(digits); return tk.Digits != "" })
	if tk.Kind != tito.KindHandpayReceipt || tk.Cents != 2000 || tk.Machine != "egm-h" || tk.State != ticketsys.Issued {
		t.Fatalf("the system recorded %+v", tk)
	}
	insert(t, c, digits)
	if got := meter(c, "ticket in"); got != 0 {
		t.Fatalf("a handpay receipt credited as a ticket: %d", got)
	}
	var audit []ticketsys.Event
	f.query(&audit, "audit")
	if !slices.ContainsFunc(audit, func(e ticketsys.Event) bool {
		return e.What == "issued" && strings.Contains(e.Detail, digits) && strings.Contains(e.Detail, "handpay receipt")
	}) {
		t.Fatalf("the audit does not list the handpay receipt %s: %+v", digits, audit)
	}
}

// TestSystemValidationRefused: with system validation, a cash-out the
// ticket system denies (above its --ticket-limit) and one whose number
// comes too late (its etcd unreachable past the cabinet's 10 s) are both
// paid by hand, no ticket printed; the late number, which the cabinet
// answers 80 (no cash-out waiting), is voided by the system.
func TestSystemValidationRefused(t *testing.T) {
	cabinettest.PlainPassOnly(t)
	t.Parallel()
	f := newTicketFloor(t)
	sys := []string{"--sas-addr", "1", "--sas-pty", "--spin-time", "5ms", "--validation", "system", "--ticket-timeout", "10s"}

	denied := startCabinet(t, t.TempDir(), sys...)
	f.run("egm-d", "pty:"+denied.SASTTY()+",style=system", f.etcd, "--ticket-limit", "1000")
	denied.Bill(2000)
	denied.Send(cabinettest.Command{Cmd: "press", Button: machine.BtnCashOut})
	v := denied.WaitFor("the denied cash-out paid by hand", func(v machine.View) bool { return v.Handpay == 2000 })
	if v.CreditsCents != 2000 || len(denied.Send(cabinettest.Command{Cmd: "tickets"}).Tickets) != 0 {
		t.Fatalf("after the denial: %+v", v)
	}
	denied.TurnKey("att-1")
	if got := meter(denied, "hand-paid cancelled credits"); got != 2000 || denied.State().CreditsCents != 0 {
		t.Fatalf("hand paid %d, credits %d", got, denied.State().CreditsCents)
	}

	late := startCabinet(t, t.TempDir(), sys...)
	etcd, proxies := f.proxiedEtcd()
	f.run("egm-l", "pty:"+late.SASTTY()+",style=system", etcd)
	// A first cash-out shows the link and the system work.
	late.Bill(500)
	late.Send(cabinettest.Command{Cmd: "press", Button: machine.BtnCashOut})
	waitUntil(t, "the first ticket", func() bool { return len(late.Send(cabinettest.Command{Cmd: "tickets"}).Tickets) == 1 })
	proxies.SetMode(etcdtest.Refuse)
	late.Bill(2000)
	late.Send(cabinettest.Command{Cmd: "press", Button: machine.BtnCashOut})
	waitUntil(t, "the cabinet's timeout", func() bool { return late.State().Handpay == 2000 })
	proxies.SetMode(etcdtest.Pass)
	var voided []ticketsys.Ticket
	waitUntil(t, "the late number voided", func() bool { voided = f.list(ticketsys.Voided); return len(voided) == 1 })
	if tk := voided[0]; tk.Cents != 2000 || tk.Machine != "egm-l" || tk.Final == nil || !strings.Contains(tk.Final.Reason, "58 status 80") {
		t.Fatalf("voided %+v", tk)
	}
	if n := len(late.Send(cabinettest.Command{Cmd: "tickets"}).Tickets); n != 1 {
		t.Fatalf("%d tickets printed, want the first only", n)
	}
}

// TestTicketSystemBringsTheLinkBack: the ticket system polls cabinet B
// over TCP. The link is cut exactly as B answers 40 to the system's 0x71
// (the credit under way, the system not yet told), once with B running
// on, once with B killed at that moment and restarted; the ticket system,
// which stays up, opens the link again, settles its hold with 0x71 FF
// (or answers again a B that still waits) and the ticket is credited
// once, the system's record agreeing with B's meters.
func TestTicketSystemBringsTheLinkBack(t *testing.T) {
	t.Parallel()
	f := newTicketFloor(t)
	a := ticketCabinet(t, t.TempDir())
	f.service("egm-a", a)
	port := freePort(t)
	dataB := t.TempDir()
	startB := func() *cabinet {
		return startCabinet(t, dataB, "--sas-addr", "1", "--sas-tcp", port, "--spin-time", "5ms")
	}
	b := startB()
	cut := newSASCutter(t, port)
	f.run("egm-b", "tcp:"+cut.addr(), f.etcd)
	b.WaitFor("B configured by the system", func(v machine.View) bool { return v.TicketValidation == machine.ValidationSecureEnhanced })

	var credited int64
	for i, how := range []string{"link cut", "cabinet killed"} {
		cents := int64(500 * (i + 1))
		digits := f.cashOutTicket(a, cents)
		done := make(chan struct{})
		cut.arm(func() {
			if how == "cabinet killed" {
				b.Kill()
			}
			close(done)
		})
		// Killed at the 0x71, B may die before it answers the command.
		if r, err := b.TrySend(cabinettest.Command{Cmd: "ticket", Value: digits}); (err != nil && how != "cabinet killed") || (err == nil && !r.OK) {
			t.Fatalf("ticket: %+v %v", r, err)
		}
		select {
		case <-done:
		case <-time.After(90 * time.Second):
			t.Fatalf("%s: the system never answered 0x71", how)
		}
		if how == "cabinet killed" {
			b = startB()
		}
		b.WaitFor("the ticket's cycle to end", func(v machine.View) bool { return v.TicketEscrow == "" })
		var tk ticketsys.Ticket
		waitUntil(t, "the system to settle the ticket", func() bool {
			tk = f.show(digits)
			return tk.State == ticketsys.Issued || tk.State == ticketsys.Redeemed
		})
		switch {
		case tk.State == ticketsys.Redeemed && tk.Final.By == "egm-b":
			credited += cents
		case how == "link cut":
			// B credited before the cut: only the system's record can be
			// behind, and it must catch up.
			t.Fatalf("%s: the system left %+v", how, tk)
		default:
			// Killed before the credit was committed, B then timed out
			// (the system came back after B's 10 s): returned, released.
			t.Logf("%s: B restarted and returned the ticket: %+v", how, tk)
		}
		if got := meter(b, "ticket in"); got != credited || b.State().CreditsCents != credited {
			t.Fatalf("%s: B's ticket in %d, credits %d; the system's redemptions at B %d", how, got, b.State().CreditsCents, credited)
		}
		if held := f.list(ticketsys.Pending); len(held) != 0 {
			t.Fatalf("%s: tickets still held %+v", how, held)
		}
	}
	if credited == 0 {
		t.Fatal("no ticket was credited")
	}
}

// freePort is a loopback address with a port free now.
func freePort(t *testing.T) string {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	return l.Addr().String()
}

// sasCutter forwards a SAS host's TCP connections to a cabinet's SAS
// port, and, when armed, cuts the link at the cabinet's reply 40 to a
// 0x71 (addr 71 length 40 …: the credit under way): that reply is dropped,
// both connections closed, and the armed function called, once.
type sasCutter struct {
	t      *testing.T
	ln     net.Listener
	target string
	mu     sync.Mutex
	armed  func()
	conns  []net.Conn
}

func newSASCutter(t *testing.T, target string) *sasCutter {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	p := &sasCutter{t: t, ln: l, target: target}
	go p.serve()
	t.Cleanup(func() {
		l.Close()
		p.mu.Lock()
		defer p.mu.Unlock()
		for _, c := range p.conns {
			c.Close()
		}
	})
	return p
}

func (p *sasCutter) addr() string { return p.ln.Addr().String() }

// arm cuts the link at the next reply 40 to 0x71, then calls fn.
func (p *sasCutter) arm(fn func()) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.armed = fn
}

func (p *sasCutter) serve() {
	for {
		host, err := p.ln.Accept()
		if err != nil {
			return
		}
		cab, err := net.Dial("tcp", p.target)
		if err != nil { // the cabinet is down: the host sees its link drop
			host.Close()
			continue
		}
		p.mu.Lock()
		p.conns = append(p.conns, host, cab)
		p.mu.Unlock()
		go func() {
			defer cab.Close()
			buf := make([]byte, 512)
			for {
				n, err := host.Read(buf)
				if n > 0 {
					if _, werr := cab.Write(buf[:n]); werr != nil {
						return
					}
				}
				if err != nil {
					return
				}
			}
		}()
		go p.replies(cab, host)
	}
}

// replies forwards the cabinet's bytes to the host, watching for the
// reply to cut at.
func (p *sasCutter) replies(cab, host net.Conn) {
	defer host.Close()
	defer cab.Close()
	var seen []byte // the last bytes forwarded, for a reply split across reads
	buf := make([]byte, 512)
	for {
		n, err := cab.Read(buf)
		if n > 0 {
			window := append(seen, buf[:n]...)
			p.mu.Lock()
			fn := p.armed
			hit := fn != nil && pendingReply(window)
			if hit {
				p.armed = nil
			}
			p.mu.Unlock()
			if hit {
				host.Close()
				cab.Close()
				fn()
				return
			}
			if _, werr := host.Write(buf[:n]); werr != nil {
				return
			}
			seen = window[max(0, len(window)-3):]
		}
		if err != nil {
			return
		}
	}
}

// pendingReply reports whether b holds the start of a cabinet's reply 40
// (redemption pending) to 0x71: 01 71 length 40.
func pendingReply(b []byte) bool {
	for i := 0; i+3 < len(b); i++ {
		if b[i] == 0x01 && b[i+1] == 0x71 && b[i+3] == 0x40 {
			return true
		}
	}
	return false
}
