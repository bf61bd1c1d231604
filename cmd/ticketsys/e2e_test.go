package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	clientv3 "go.etcd.io/etcd/client/v3"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/openegm/cabinet/internal/cabinettest"
	"github.com/openegm/cabinet/internal/etcdtest"
	"github.com/openegm/cabinet/sas"
	"github.com/openegm/cabinet/tito"
	"github.com/openegm/cabinet/tito/ticketsys"
	"github.com/openegm/cabinet/tito/titopeer"
)

// The tests drive the real binary: "ticketsys run" processes poll
// lightweight SAS machines (titopeer) that this process serves on TCP, and
// "ticketsys redeem/void/show/list/audit" read and change the tickets, all
// on a real three-member etcd cluster.

var binDir string

func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "ticketsys-e2e-")
	if err != nil {
		panic(err)
	}
	binDir = dir
	if err := cabinettest.Build("../..", dir, "ticketsys"); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

type casino struct {
	t       *testing.T
	etcd    string
	prefix  string
	ctx     context.Context
	peers   map[string]*titopeer.Peer
	addrs   map[string]string
	wg      sync.WaitGroup
	service []*exec.Cmd
	tls     []string // --etcd-ca, --etcd-cert, --etcd-key of the ticket system's etcd user
}

func newCasino(t *testing.T) *casino {
	cl := etcdtest.New(t)
	ctx, cancel := context.WithCancel(context.Background())
	c := &casino{t: t, etcd: strings.Join(cl.Endpoints(), ","), prefix: "/casino-e2e/tickets/", ctx: ctx,
		peers: map[string]*titopeer.Peer{}, addrs: map[string]string{}}
	// The ticket system is an etcd user of its own, as in production: TLS
	// with its client certificate, a role that reaches its prefix only.
	admin := cl.Client(t)
	actx, acancel := context.WithTimeout(ctx, 30*time.Second)
	defer acancel()
	for _, step := range []func() error{
		func() error { _, err := admin.RoleAdd(actx, "tickets"); return err },
		func() error {
			_, err := admin.RoleGrantPermission(actx, "tickets", c.prefix, clientv3.GetPrefixRangeEnd(c.prefix), clientv3.PermissionType(clientv3.PermReadWrite))
			return err
		},
		func() error {
			_, err := admin.UserAddWithOptions(actx, "ticketsys", "", &clientv3.UserAddOptions{NoPassword: true})
			return err
		},
		func() error { _, err := admin.UserGrantRole(actx, "ticketsys", "tickets"); return err },
	} {
		if err := step(); err != nil {
			t.Fatalf("etcd user for the ticket system: %v", err)
		}
	}
	ca, cert, key, err := cl.ClientFiles(t.TempDir(), "ticketsys")
	if err != nil {
		t.Fatal(err)
	}
	c.tls = []string{"--etcd-ca", ca, "--etcd-cert", cert, "--etcd-key", key}
	t.Cleanup(func() {
		for _, s := range c.service {
			s.Process.Kill()
			s.Wait()
		}
		cancel()
		c.wg.Wait()
	})
	return c
}

// peer serves a lightweight machine on a TCP port, one connection at a
// time (a host that reconnects gets the same machine).
func (c *casino) peer(cfg titopeer.Config) *titopeer.Peer {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		c.t.Fatal(err)
	}
	p := titopeer.New(cfg)
	c.peers[cfg.Name], c.addrs[cfg.Name] = p, ln.Addr().String()
	context.AfterFunc(c.ctx, func() { ln.Close() })
	c.wg.Go(func() {
		for {
			conn, err := ln.Accept()
			if err != nil {
				return
			}
			if err := p.Serve(c.ctx, conn); err != nil {
				c.t.Error(err)
			}
		}
	})
	return p
}

// run starts a "ticketsys run" polling the named peers (name or
// name,style=system).
func (c *casino) run(cabinets ...string) {
	args := append([]string{"run", "--etcd", c.etcd, "--prefix", c.prefix, "--casino", "Casino Estoril", "--poll", "10ms"}, c.tls...)
	for _, cab := range cabinets {
		name, opts, _ := strings.Cut(cab, ",")
		spec := name + "=tcp:" + c.addrs[name]
		if opts != "" {
			spec += "," + opts
		}
		args = append(args, "--cabinet", spec)
	}
	cmd := exec.Command(filepath.Join(binDir, "ticketsys"), args...)
	log, err := os.Create(filepath.Join(c.t.TempDir(), "service.log"))
	if err != nil {
		c.t.Fatal(err)
	}
	cmd.Stdout, cmd.Stderr = log, log
	if err := cmd.Start(); err != nil {
		c.t.Fatal(err)
	}
	c.service = append(c.service, cmd)
	c.t.Cleanup(func() {
		if c.t.Failed() {
			b, _ := os.ReadFile(log.Name())
			c.t.Logf("service log:\n%s", b)
		}
	})
}

// cli runs a one-shot command and returns its stdout, stderr and exit
// status.
func (c *casino) cli(args ...string) (stdout, stderr string, code int) {
	c.t.Helper()
	cmd := exec.Command(filepath.Join(binDir, "ticketsys"), append(append(args, "--etcd", c.etcd, "--prefix", c.prefix), c.tls...)...)
	var o, e bytes.Buffer
	cmd.Stdout, cmd.Stderr = &o, &e
	err := cmd.Run()
	var ee *exec.ExitError
	switch {
	case errors.As(err, &ee):
		code = ee.ExitCode()
	case err != nil:
		c.t.Fatal(err)
	}
	return o.String(), e.String(), code
}

// show reads a ticket with the binary ("" state: not recorded).
func (c *casino) show(digits string) ticketsys.Ticket {
	c.t.Helper()
	out, errOut, code := c.cli("show", digits, "--json")
	if code != 0 {
		if strings.Contains(errOut, "not found") {
			return ticketsys.Ticket{}
		}
		c.t.Fatalf("show %s: exit %d: %s", digits, code, errOut)
	}
	var t ticketsys.Ticket
	if err := json.Unmarshal([]byte(out), &t); err != nil {
		c.t.Fatalf("show %s: %v in %q", digits, err, out)
	}
	return t
}

func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(60 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("waited 60 s for %s", what)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// cashout prints a ticket of cents at p and waits until the system has it.
func (c *casino) cashout(p *titopeer.Peer, cents int64) string {
	c.t.Helper()
	n := len(p.Printed())
	p.AddCredits(cents)
	if err := p.Cashout(cents); err != nil {
		c.t.Fatal(err)
	}
	waitFor(c.t, "the ticket printed", func() bool { return len(p.Printed()) > n })
	digits := p.Printed()[n].Validation.Digits()
	waitFor(c.t, "the ticket recorded", func() bool { return c.show(digits).State == ticketsys.Issued })
	return digits
}

func (c *casino) insert(p *titopeer.Peer, digits string) titopeer.Result {
	c.t.Helper()
	n := len(p.Results())
	if err := p.Insert(digits); err != nil {
		c.t.Fatal(err)
	}
	waitFor(c.t, p.Name()+"'s redemption", func() bool { return len(p.Results()) > n })
	return p.Results()[n]
}

// A ticket printed at one cabinet is credited at another polled by another
// service process; the same ticket again, at a third cabinet or at the
// cashier, is refused; a voided ticket is refused; the audit tells it all.
func TestTicketAcrossCabinetsAndCashier(t *testing.T) {
	t.Parallel()
	c := newCasino(t)
	a := c.peer(titopeer.Config{Name: "egm-a"})
	b := c.peer(titopeer.Config{Name: "egm-b"})
	s := c.peer(titopeer.Config{Name: "egm-s", Style: tito.StyleSystem})
	c.run("egm-a", "egm-b")
	c.run("egm-s,style=system")

	waitFor(t, "egm-a configured with 4C", func() bool { return a.Enhanced().Configured() })
	out, _, code := c.cli("validation-id", "egm-a", "--json")
	var vid struct {
		ValidationID uint32 `json:"validation_id"`
	}
	if code != 0 || json.Unmarshal([]byte(out), &vid) != nil || vid.ValidationID != a.Enhanced().ID {
		t.Fatalf("validation-id: %q (exit %d); the machine has %06X", out, code, a.Enhanced().ID)
	}

	digits := c.cashout(a, 2575)
	if tk := c.show(digits); tk.Cents != 2575 || tk.Machine != "egm-a" {
		t.Fatalf("recorded %+v", tk)
	}
	if r := c.insert(b, digits); r.Status != sas.RedeemedCashable || r.Cents != 2575 || b.Credits() != 2575 {
		t.Fatalf("at egm-b: %+v, credits %d", r, b.Credits())
	}
	waitFor(t, "the ticket redeemed", func() bool { return c.show(digits).State == ticketsys.Redeemed })
	if r := c.insert(s, digits); r.Status != sas.RedeemRejectedByHost || s.Credits() != 0 {
		t.Fatalf("again at egm-s (other service): %+v, credits %d", r, s.Credits())
	}
	_, errOut, code := c.cli("redeem", digits, "--cashier", "ana")
	if code != 3 || !strings.Contains(errOut, "already redeemed") || !strings.Contains(errOut, "egm-b") {
		t.Fatalf("cashier after egm-b: exit %d, %q", code, errOut)
	}

	// The cashier pays another; a repeat of the same redemption ID is the
	// same answer, not a second payment.
	second := c.cashout(a, 50000)
	out, errOut, code = c.cli("redeem", second, "--cashier", "ana", "--id", "desk1-0001", "--cents", "50000")
	if code != 0 || !strings.Contains(out, "500,00 €") {
		t.Fatalf("cashier: exit %d, %q %q", code, out, errOut)
	}
	out, _, code = c.cli("redeem", second, "--cashier", "ana", "--id", "desk1-0001", "--json")
	var rep ticketsys.Redemption
	if code != 0 || json.Unmarshal([]byte(out), &rep) != nil || rep.Phase != ticketsys.Committed || rep.Cents != 50000 {
		t.Fatalf("repeat of the cashier's redemption: exit %d, %q", code, out)
	}
	if r := c.insert(b, second); r.Status != sas.RedeemRejectedByHost {
		t.Fatalf("a ticket the cashier paid, at egm-b: %+v", r)
	}

	// A system-validation ticket (the service's own number, 0x57/0x58)
	// voided: refused at a cabinet afterwards; a redeemed ticket cannot be
	// voided.
	third := c.cashout(s, 100)
	if tk := c.show(third); tk.Style != tito.StyleSystem || tk.Machine != "egm-s" {
		t.Fatalf("system ticket recorded as %+v", tk)
	}
	if _, errOut, code := c.cli("void", third, "--by", "supervisor", "--reason", "torn"); code != 0 {
		t.Fatalf("void: exit %d: %s", code, errOut)
	}
	if r := c.insert(b, third); r.Status != sas.RedeemRejectedByHost {
		t.Fatalf("a voided ticket at egm-b: %+v", r)
	}
	if _, errOut, code := c.cli("void", digits, "--by", "supervisor", "--reason", "late"); code != 1 || !strings.Contains(errOut, "redeemed") {
		t.Fatalf("void of a redeemed ticket: exit %d: %s", code, errOut)
	}
	if _, errOut, code := c.cli("redeem", "123", "--cashier", "ana"); code != 3 || !strings.Contains(errOut, "81") {
		t.Fatalf("not a validation number: exit %d: %s", code, errOut)
	}

	out, _, _ = c.cli("list", "--state", "redeemed")
	if strings.Count(out, "\n") != 2 || !strings.Contains(out, digits) || !strings.Contains(out, second) {
		t.Fatalf("redeemed tickets:\n%s", out)
	}
	out, _, code = c.cli("audit")
	for _, want := range []string{"issued", "authorised by egm-b", "redeemed   by egm-b", "refused    by egm-s", "redeemed   by cashier:ana", "voided     by supervisor", "torn"} {
		if code != 0 || !strings.Contains(out, want) {
			t.Fatalf("audit lacks %q (exit %d):\n%s", want, code, out)
		}
	}
	if a.Credits()+b.Credits()+s.Credits() != 2575 {
		t.Fatalf("credits a %d b %d s %d", a.Credits(), b.Credits(), s.Credits())
	}
}

// One ticket presented at the same moment at two cabinets polled by two
// service processes and at the cashier, round after round: exactly one of
// the three pays it.
func TestConcurrentRedemptionExactlyOnce(t *testing.T) {
	t.Parallel()
	c := newCasino(t)
	a := c.peer(titopeer.Config{Name: "egm-a"})
	x := c.peer(titopeer.Config{Name: "egm-x"})
	y := c.peer(titopeer.Config{Name: "egm-y"})
	c.run("egm-a", "egm-x")
	c.run("egm-y")
	waitFor(t, "egm-a configured with 4C", func() bool { return a.Enhanced().Configured() })

	const rounds = 9
	var want, paid int64
	winners := map[string]int{}
	for round := range rounds {
		cents := int64(1000 + round)
		want += cents
		digits := c.cashout(a, cents)
		var cashier struct {
			code int
			out  string
		}
		var wg sync.WaitGroup
		wg.Go(func() {
			cashier.out, _, cashier.code = c.cli("redeem", digits, "--cashier", "rui", "--json")
		})
		// The cashier's process takes a while to start: in some rounds the
		// cabinets wait for it a little, so that each of the three gets
		// its chance to be first (the test holds whoever wins).
		time.Sleep(time.Duration(round%3) * 40 * time.Millisecond)
		if err := x.Insert(digits); err != nil {
			t.Fatal(err)
		}
		if err := y.Insert(digits); err != nil {
			t.Fatal(err)
		}
		wg.Wait()
		waitFor(t, "both cabinets' answers", func() bool { return len(x.Results()) > round && len(y.Results()) > round })
		won := 0
		for _, p := range []*titopeer.Peer{x, y} {
			switch r := p.Results()[round]; r.Status {
			case sas.RedeemedCashable:
				won++
				winners[p.Name()]++
				if r.Cents != cents {
					t.Fatalf("round %d: %s credited %d of %d", round, p.Name(), r.Cents, cents)
				}
			case sas.RedeemRejectedByHost:
			default:
				t.Fatalf("round %d: %s: %+v", round, p.Name(), r)
			}
		}
		switch cashier.code {
		case 0:
			won++
			winners["cashier"]++
			var r ticketsys.Redemption
			if err := json.Unmarshal([]byte(cashier.out), &r); err != nil || r.Cents != cents {
				t.Fatalf("round %d: cashier %q", round, cashier.out)
			}
			paid += r.Cents
		case 3:
		default:
			t.Fatalf("round %d: cashier exit %d", round, cashier.code)
		}
		if won != 1 {
			t.Fatalf("round %d: paid %d times", round, won)
		}
		waitFor(t, "the ticket settled", func() bool { return c.show(digits).State == ticketsys.Redeemed })
	}
	if got := x.Credits() + y.Credits() + paid; got != want {
		t.Fatalf("paid %d in all for tickets worth %d", got, want)
	}
	t.Logf("winners: %v", winners)
	if out, _, _ := c.cli("list", "--state", "pending"); strings.TrimSpace(out) != "" {
		t.Fatalf("pending after the rounds:\n%s", out)
	}
}
