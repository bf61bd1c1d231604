package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"image/png"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
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

// The casino's ticket system (the real cmd/ticketsys, on a real
// three-member etcd cluster) polling real cabinets over their SAS
// pseudo-terminals.

var buildTicketsys = sync.OnceValue(func() error { return cabinettest.Build("../..", binDir, "ticketsys") })

type ticketFloor struct {
	t    *testing.T
	cl   *etcdtest.Cluster
	etcd []string // --etcd, --prefix and the client TLS flags
	tls  []string // the client TLS flags
}

func newTicketFloor(t *testing.T) *ticketFloor {
	if err := buildTicketsys(); err != nil {
		t.Fatal(err)
	}
	cl := etcdtest.New(t)
	ca, cert, key, err := cl.ClientFiles(t.TempDir(), etcdtest.Root)
	if err != nil {
		t.Fatal(err)
	}
	tls := []string{"--etcd-ca", ca, "--etcd-cert", cert, "--etcd-key", key}
	return &ticketFloor{t: t, cl: cl, tls: tls,
		etcd: append([]string{"--etcd", strings.Join(cl.Endpoints(), ","), "--prefix", "/e2e/tickets/"}, tls...)}
}

// proxiedEtcd are --etcd flags that reach the cluster through proxies the
// test can cut (the ticket system's etcd unreachable for a while).
func (f *ticketFloor) proxiedEtcd() ([]string, etcdtest.Proxies) {
	ps := f.cl.Proxies(f.t)
	return append([]string{"--etcd", strings.Join(ps.Addrs(), ","), "--prefix", "/e2e/tickets/"}, f.tls...), ps
}

// service starts "ticketsys run" polling one cabinet by its stable SAS
// name (DATA/sas-tty), with the --cabinet options opts; stop kills it
// (SIGKILL).
func (f *ticketFloor) service(name string, c *cabinet, opts ...string) (stop func()) {
	f.t.Helper()
	spec := "pty:" + c.SASTTY()
	for _, o := range opts {
		spec += "," + o
	}
	return f.run(name, spec, f.etcd)
}

// run starts "ticketsys run" polling cabinet name at spec
// (TRANSPORT:TARGET[,options]) with etcd flags and more flags.
func (f *ticketFloor) run(name, spec string, etcd []string, flags ...string) (stop func()) {
	f.t.Helper()
	args := append([]string{"run", "--casino", "Casino Estoril", "--poll", "20ms", "--cabinet", name + "=" + spec}, etcd...)
	args = append(args, flags...)
	cmd := exec.Command(filepath.Join(binDir, "ticketsys"), args...)
	logf, err := os.OpenFile(filepath.Join(f.t.TempDir(), "ticketsys-"+name+".log"), os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o600)
	if err != nil {
		f.t.Fatal(err)
	}
	cmd.Stdout, cmd.Stderr = logf, logf
	if err := cmd.Start(); err != nil {
		f.t.Fatal(err)
	}
	var once sync.Once
	stop = func() {
		once.Do(func() {
			cmd.Process.Kill()
			cmd.Wait()
		})
	}
	f.t.Cleanup(func() {
		stop()
		if f.t.Failed() {
			b, _ := os.ReadFile(logf.Name())
			f.t.Logf("ticketsys %s log:\n%s", name, tail(b, 40))
		}
	})
	return stop
}

func tail(b []byte, lines int) string {
	l := strings.Split(strings.TrimSpace(string(b)), "\n")
	return strings.Join(l[max(0, len(l)-lines):], "\n")
}

// show reads a ticket with the ticketsys binary (zero: not recorded).
func (f *ticketFloor) show(digits string) ticketsys.Ticket {
	f.t.Helper()
	var tk ticketsys.Ticket
	if !f.query(&tk, "show", digits) {
		return ticketsys.Ticket{}
	}
	return tk
}

// list reads the tickets in state ("": all) with the ticketsys binary.
func (f *ticketFloor) list(state ticketsys.State) []ticketsys.Ticket {
	f.t.Helper()
	var ts []ticketsys.Ticket
	f.query(&ts, "list", "--state", string(state))
	return ts
}

// query runs a ticketsys command with --json into v; false when the
// ticket is not found.
func (f *ticketFloor) query(v any, args ...string) bool {
	f.t.Helper()
	cmd := exec.Command(filepath.Join(binDir, "ticketsys"), append(append(args, "--json"), f.etcd...)...)
	var o, e bytes.Buffer
	cmd.Stdout, cmd.Stderr = &o, &e
	if err := cmd.Run(); err != nil {
		var ee *exec.ExitError
		if errors.As(err, &ee) && strings.Contains(e.String(), "not found") {
			return false
		}
		f.t.Fatalf("ticketsys %v: %v: %s", args, err, e.String())
	}
	if err := json.Unmarshal(o.Bytes(), v); err != nil {
		f.t.Fatalf("ticketsys %v: %v in %q", args, err, o.String())
	}
	return true
}

func waitUntil(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(90 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("waited 90 s for %s", what)
		}
		time.Sleep(30 * time.Millisecond)
	}
}

func ticketCabinet(t *testing.T, data string) *cabinet {
	t.Cleanup(func() {
		if t.Failed() {
			b, _ := os.ReadFile(filepath.Join(data, "cabinet.log"))
			t.Logf("cabinet %s log:\n%s", data, tail(b, 30))
		}
	})
	return startCabinet(t, data, "--sas-addr", "1", "--sas-pty", "--spin-time", "5ms")
}

func meter(c *cabinet, name string) int64 {
	return c.Send(cabinettest.Command{Cmd: "meters"}).Meters[name]
}

// cashOutTicket puts notes worth cents into c, cashes out and returns the
// printed ticket's barcode once the ticket system has recorded it.
func (f *ticketFloor) cashOutTicket(c *cabinet, cents int64) string {
	f.t.Helper()
	c.WaitFor("the host's validation ID", func(v machine.View) bool { return v.TicketValidation == machine.ValidationSecureEnhanced })
	for left := cents; left > 0; left -= 500 {
		c.Bill(500)
	}
	before := len(c.Send(cabinettest.Command{Cmd: "tickets"}).Tickets)
	if r := c.Send(cabinettest.Command{Cmd: "press", Button: machine.BtnCashOut}); !r.OK || r.Refused != "" {
		f.t.Fatalf("cash out: %+v", r)
	}
	var printed machine.PrintTicket
	waitUntil(f.t, "the ticket printed", func() bool {
		tk := c.Send(cabinettest.Command{Cmd: "tickets"}).Tickets
		if len(tk) > before {
			printed = tk[len(tk)-1]
		}
		return len(tk) > before
	})
	v, err := tito.ParseDigits(printed.Validation)
	if err != nil || v.Style != tito.StyleSecureEnhanced || printed.Cents != cents {
		f.t.Fatalf("printed %+v: %v", printed, err)
	}
	waitUntil(f.t, "the ticket recorded by the system", func() bool { return f.show(printed.Validation).State == ticketsys.Issued })
	return printed.Validation
}

// insert feeds a ticket to c's validator and waits for the cycle's end.
func insert(t *testing.T, c *cabinet, digits string) {
	t.Helper()
	if r := c.Send(cabinettest.Command{Cmd: "ticket", Value: digits}); !r.OK {
		t.Fatalf("ticket: %+v", r)
	}
	c.WaitFor("the ticket's redemption to end", func(v machine.View) bool { return v.TicketEscrow == "" })
}

// make run's cabinet (a development build, no host configured) prints its
// own numbers: each ticket printed is also a picture,
// DATA/tickets/NUMBER.png, the number the printer printed, which says the
// ticket has no value.
func TestSimulatorTicketPicture(t *testing.T) {
	t.Parallel()
	data := t.TempDir()
	c := startCabinet(t, data, "--spin-time", "5ms")
	c.Bill(2000)
	if r := c.Send(cabinettest.Command{Cmd: "press", Button: machine.BtnCashOut}); r.View.Printing == "" {
		t.Fatalf("cash out: %+v", r.View)
	}
	var tk []machine.PrintTicket
	waitUntil(t, "the ticket printed", func() bool {
		tk = c.Send(cabinettest.Command{Cmd: "tickets"}).Tickets
		return len(tk) == 1
	})
	if tk[0].Cents != 2000 || len(tk[0].Validation) != tito.BarcodeDigits {
		t.Fatalf("printed %+v", tk[0])
	}
	path := filepath.Join(data, ticketsDir, tk[0].Validation+".png")
	waitUntil(t, "the ticket's picture "+path, func() bool {
		st, err := os.Stat(path)
		return err == nil && st.Size() > 1000
	})
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	img, err := png.Decode(f)
	if err != nil || img.Bounds().Dx() != tito.PaperWidth {
		t.Fatalf("the picture %s: %v, %v", path, img.Bounds(), err)
	}
	c.Stop()
}

// A ticket out on cabinet A, validated and recorded by the system, in on
// cabinet B credited exactly; the same ticket again refused and returned.
func TestTicketOutAndInAcrossCabinets(t *testing.T) {
	t.Parallel()
	f := newTicketFloor(t)
	a := ticketCabinet(t, t.TempDir())
	b := ticketCabinet(t, t.TempDir())
	f.service("egm-a", a)
	f.service("egm-b", b)

	digits := f.cashOutTicket(a, 1500)
	tk := f.show(digits)
	if tk.Cents != 1500 || tk.Machine != "egm-a" || tk.Style != tito.StyleSecureEnhanced {
		t.Fatalf("the system recorded %+v", tk)
	}
	png := filepath.Join(a.Data, ticketsDir, digits+".png")
	if st, err := os.Stat(png); err != nil || st.Size() < 1000 {
		t.Fatalf("the printed ticket's picture %s: %v", png, err)
	}

	insert(t, b, digits)
	if got := meter(b, "ticket in"); got != 1500 || b.State().CreditsCents != 1500 {
		t.Fatalf("cabinet B: ticket in %d, credits %d; want 1500", got, b.State().CreditsCents)
	}
	waitUntil(t, "the ticket redeemed", func() bool { return f.show(digits).State == ticketsys.Redeemed })
	if fin := f.show(digits).Final; fin == nil || fin.By != "egm-b" {
		t.Fatalf("redeemed by %+v", fin)
	}

	insert(t, b, digits)
	if got := meter(b, "ticket in"); got != 1500 || b.State().CreditsCents != 1500 {
		t.Fatalf("the same ticket again: ticket in %d, credits %d", got, b.State().CreditsCents)
	}
	// And at the cabinet that printed it.
	insert(t, a, digits)
	if got := meter(a, "ticket in"); got != 0 {
		t.Fatalf("cabinet A credited its own redeemed ticket: %d", got)
	}
}

// TestSystemValidatedTicket: with --validation system the cabinet prints
// the number the ticket system gives it (0x57/0x58), which the system
// recorded before it answered.
func TestSystemValidatedTicket(t *testing.T) {
	t.Parallel()
	f := newTicketFloor(t)
	c := startCabinet(t, t.TempDir(), "--sas-addr", "1", "--sas-pty", "--spin-time", "5ms", "--validation", "system")
	f.service("egm-s", c, "style=system")
	c.WaitFor("system validation", func(v machine.View) bool { return v.TicketValidation == machine.ValidationSystem })
	c.Bill(2000)
	if r := c.Send(cabinettest.Command{Cmd: "press", Button: machine.BtnCashOut}); !r.OK || r.Refused != "" {
		t.Fatalf("cash out: %+v", r)
	}
	var printed []machine.PrintTicket
	waitUntil(t, "the system's ticket printed", func() bool {
		printed = c.Send(cabinettest.Command{Cmd: "tickets"}).Tickets
		return len(printed) == 1
	})
	v, err := tito.ParseDigits(printed[0].Validation)
	if err != nil || v.Style != tito.StyleSystem || printed[0].Cents != 2000 {
		t.Fatalf("printed %+v: %v", printed[0], err)
	}
	if tk := f.show(printed[0].Validation); tk.State != ticketsys.Issued || tk.Cents != 2000 || tk.Machine != "egm-s" {
		t.Fatalf("the system recorded %+v", tk)
	}
	if got := c.State().CreditsCents; got != 0 {
		t.Fatalf("credits after the ticket: %d", got)
	}
}

// TestTicketInCrashLoop SIGKILLs cabinet B (and its ticket system
// process; every third time the ticket system alone) at random moments while a ticket from cabinet A is in its
// validator, restarts both, and checks that B credited each ticket at
// most once and exactly when the system recorded it redeemed by B.
// CRASH_ITERATIONS sets the number of kills.
func TestTicketInCrashLoop(t *testing.T) {
	cabinettest.PlainPassOnly(t)
	t.Parallel()
	n := crashIterations(4)
	f := newTicketFloor(t)
	a := ticketCabinet(t, t.TempDir())
	f.service("egm-a", a)
	dataB := t.TempDir()
	b := ticketCabinet(t, dataB)
	stopB := f.service("egm-b", b)

	rnd := rand.New(rand.NewPCG(uint64(time.Now().UnixNano()), 17))
	var redeemed, credited int64
	outcomes := map[string]int{}
	for i := range n {
		cents := int64(500 * (1 + i%3))
		digits := f.cashOutTicket(a, cents)
		if r := b.Send(cabinettest.Command{Cmd: "ticket", Value: digits}); !r.OK {
			t.Fatalf("ticket: %+v", r)
		}
		// The cycle takes a few general polls (20 ms apart): most kills
		// land inside it, some before the host has seen the ticket.
		time.Sleep(time.Duration(rnd.IntN(25)) * time.Millisecond)
		if i%3 == 2 {
			// The ticket system alone dies; the cabinet keeps its ticket.
			stopB()
			outcomes["service killed"]++
		} else {
			b.Kill()
			stopB()
			b = ticketCabinet(t, dataB)
			if b.State().TicketEscrow != "" {
				outcomes["cabinet killed in escrow"]++
			}
		}
		stopB = f.service("egm-b", b)
		b.WaitFor("the ticket's cycle to end after the restart", func(v machine.View) bool { return v.TicketEscrow == "" })
		var tk ticketsys.Ticket
		waitUntil(t, "the system to settle the ticket", func() bool {
			tk = f.show(digits)
			return tk.State == ticketsys.Issued || tk.State == ticketsys.Redeemed
		})
		if tk.State == ticketsys.Redeemed {
			if tk.Final == nil || tk.Final.By != "egm-b" {
				t.Fatalf("kill %d: redeemed by %+v", i, tk.Final)
			}
			redeemed += cents
			outcomes["credited"]++
		} else {
			outcomes["returned"]++
		}
		credited = meter(b, "ticket in")
		if credited != redeemed {
			t.Fatalf("kill %d: cabinet B's ticket in %d, the system's redemptions at B %d", i, credited, redeemed)
		}
		if got := b.State().CreditsCents; got != credited {
			t.Fatalf("kill %d: credits %d, ticket in %d", i, got, credited)
		}
	}
	t.Logf("%d kills survived: %v, %d cents credited", n, outcomes, credited)
}
