package main

import (
	"strings"
	"testing"

	"github.com/openegm/cabinet/internal/cabinettest"
	"github.com/openegm/cabinet/machine"
)

// Issue 24, items 2 and 5, on the real cabinet: what the control socket
// does through the simulated pins (the key switch, the help button) is in
// the view every screen draws from, and so are the PIN pad's, test mode's
// and the service pages' states. No timing: each step waits for what the
// view must say, never for a time.
func TestInputsOnThePinPathReachTheView(t *testing.T) {
	t.Parallel()
	data := t.TempDir()
	c := startCabinet(t, data, "--spin-time", "5ms", "--handpay-limit", "20000")
	defer c.Stop()
	key := func(on bool) machine.View {
		t.Helper()
		return *c.Send(cabinettest.Command{Cmd: "key", Key: machine.KeyAttendant, On: on, Who: "att-24"}).View
	}

	// The key on the pins: the view says it is on, and offers the login
	// (the screen's PIN pad); off, neither.
	if v := key(true); !v.KeyOn || !v.LoginPad {
		t.Fatalf("key on through the socket: key_on %v, login_pad %v", v.KeyOn, v.LoginPad)
	}
	if v := key(false); v.KeyOn || v.LoginPad {
		t.Fatalf("key off: key_on %v, login_pad %v", v.KeyOn, v.LoginPad)
	}

	// The physical help button: the help pages are in the view.
	if v := *c.Send(cabinettest.Command{Cmd: "press", Button: machine.BtnHelp}).View; !v.Help {
		t.Fatal("press help: no help pages in the view")
	}
	if v := *c.Send(cabinettest.Command{Cmd: "press", Button: machine.BtnHelp}).View; v.Help {
		t.Fatal("press help again: the help pages are still in the view")
	}

	// A handpay: the key on the pins brings the attendant's confirmation.
	for range 5 {
		c.Bill(5000)
	}
	if v := *c.Send(cabinettest.Command{Cmd: "press", Button: machine.BtnCashOut}).View; v.Mode != "handpay" {
		t.Fatalf("cash-out over the limit: mode %s", v.Mode)
	}
	if v := key(true); !v.KeyOn || !v.HandpayConfirm || v.LoginPad {
		t.Fatalf("key on for a handpay: key_on %v, handpay_confirm %v, login_pad %v", v.KeyOn, v.HandpayConfirm, v.LoginPad)
	}
	if r := c.Send(cabinettest.Command{Cmd: "handpay_paid", Cents: 25000}); r.Refused != "" || r.View.Mode == "handpay" {
		t.Fatalf("confirmed: refused %q, mode %s", r.Refused, r.View.Mode)
	}
	key(false)

	// The default PIN, then a new one: the view counts it changed once
	// the worker has hashed it.
	key(true)
	if r := c.Send(cabinettest.Command{Cmd: "pin", Role: machine.RoleTechnician, PIN: machine.DefaultPIN}); r.View.Service == nil || !r.View.Service.MustChangePIN {
		t.Fatalf("default PIN: %+v", r.View.Service)
	}
	if r := c.Send(cabinettest.Command{Cmd: "service", Action: machine.SvcSetPIN, Value: "830514"}); r.Refused != "" {
		t.Fatalf("new PIN: refused %q", r.Refused)
	}
	c.WaitFor("the PIN changed in the view", func(v machine.View) bool {
		return v.Service != nil && v.Service.PINChanges == 1 && !v.Service.MustChangePIN && !v.Service.PINHashing
	})

	// A page the menu does not have: the socket says which there are,
	// and the page on screen stays.
	r, err := c.TrySend(cabinettest.Command{Cmd: "service", Action: machine.SvcPage, Value: "nonsense"})
	if err != nil || r.OK || !strings.Contains(r.Error, `"nonsense"`) || !strings.Contains(r.Error, strings.Join(machine.ServicePages, ", ")) {
		t.Fatalf("service page nonsense: ok %v, error %q (%v)", r.OK, r.Error, err)
	}
	if v := c.State(); v.Service == nil || v.Service.Page != "meters" {
		t.Fatalf("after the unknown page: %+v", v.Service)
	}
	if v := *c.Send(cabinettest.Command{Cmd: "service", Action: machine.SvcPage, Value: "identity"}).View; v.Service.Page != "identity" {
		t.Fatalf("page identity: %q", v.Service.Page)
	}

	// Test mode, entered with the key still on: the test game, no login.
	r = c.Send(cabinettest.Command{Cmd: "service", Action: machine.SvcTestEnter})
	if v := *r.View; r.Refused != "" || v.Test == nil || v.Service != nil || !v.KeyOn || v.LoginPad {
		t.Fatalf("test mode: refused %q, test %v, service %v, key_on %v, login_pad %v", r.Refused, v.Test != nil, v.Service != nil, v.KeyOn, v.LoginPad)
	}
	// A new turn of the key offers the login, to leave it.
	key(false)
	if v := key(true); v.Test == nil || !v.LoginPad {
		t.Fatalf("a new turn in test mode: test %v, login_pad %v", v.Test != nil, v.LoginPad)
	}
	c.Send(cabinettest.Command{Cmd: "pin", Role: machine.RoleTechnician, PIN: "830514"})
	if r := c.Send(cabinettest.Command{Cmd: "service", Action: machine.SvcTestLeave}); r.Refused != "" || r.View.Test != nil {
		t.Fatalf("leave test mode: refused %q", r.Refused)
	}
}
