package machine

import (
	"strings"
	"testing"
)

// Issue 24, items 2 and 5: the view carries every input the screen reacts
// to, whichever path it took, so a screen draws from the view alone.

// The attendant key turned on (as the key switch's pin does: a Key event)
// is in the view, with what it brings up: the service login, or for a
// handpay the attendant's confirmation. Turned off, neither.
func TestViewSaysTheKeyAndWhatItBringsUp(t *testing.T) {
	h := newHarness(t, svcCfg(), nil, 240)
	h.power()
	if v := h.m.View(); v.KeyOn || v.LoginPad {
		t.Fatalf("key off: key_on %v, login_pad %v", v.KeyOn, v.LoginPad)
	}
	h.keyOn("att-1")
	if v := h.m.View(); !v.KeyOn || !v.LoginPad || v.HandpayConfirm {
		t.Fatalf("key on: key_on %v, login_pad %v, handpay_confirm %v", v.KeyOn, v.LoginPad, v.HandpayConfirm)
	}
	h.step(Key{At: h.now, Key: KeyAttendant, On: false})
	if v := h.m.View(); v.KeyOn || v.LoginPad {
		t.Fatalf("key off again: key_on %v, login_pad %v", v.KeyOn, v.LoginPad)
	}

	// A handpay: the key brings up the confirmation, not the login; once
	// paid, the turn is used up (no login pad until the next turn).
	cfg := svcCfg()
	cfg.HandpayConfirm = true
	h = newHarness(t, cfg, nil, 241)
	h.power()
	for range 3 {
		h.bill(50000)
	}
	h.press(BtnCashOut)
	h.keyOn("att-2")
	if v := h.m.View(); !v.KeyOn || !v.HandpayConfirm || v.LoginPad {
		t.Fatalf("key on for a handpay: key_on %v, handpay_confirm %v, login_pad %v", v.KeyOn, v.HandpayConfirm, v.LoginPad)
	}
	if eff := h.step(HandpayPaid{At: h.now, Cents: 150000}); eff.Refused != "" {
		t.Fatal(eff.Refused)
	}
	if v := h.m.View(); !v.KeyOn || v.HandpayConfirm || v.LoginPad {
		t.Fatalf("paid: key_on %v, handpay_confirm %v, login_pad %v", v.KeyOn, v.HandpayConfirm, v.LoginPad)
	}
	h.step(Key{At: h.now, Key: KeyAttendant, On: false})
	h.keyOn("att-2")
	if v := h.m.View(); !v.LoginPad {
		t.Fatal("a new turn of the key after the handpay offers no login")
	}
}

// The help button (the physical one and the screen's are the same Button)
// puts the help pages in the view; pressed again it takes them away; a
// game that starts closes them.
func TestViewSaysTheHelpPages(t *testing.T) {
	h := newHarness(t, testCfg, nil, 242)
	h.power()
	h.bill(20_00)
	if h.m.View().Help {
		t.Fatal("help up before any press")
	}
	h.press(BtnHelp)
	if !h.m.View().Help {
		t.Fatal("the help button did not bring the help pages up")
	}
	h.press(BtnHelp)
	if h.m.View().Help {
		t.Fatal("the help button again did not close them")
	}
	h.press(BtnHelp)
	h.press(BtnSpin)
	if v := h.m.View(); v.Help || v.Mode != "spinning" {
		t.Fatalf("a spin: help %v, mode %s", v.Help, v.Mode)
	}
}

// After a successful PIN change the view says so (the session's count of
// changes), and while the new PIN is hashed it says that too.
func TestViewSaysThePINChanged(t *testing.T) {
	h := newHarness(t, svcCfg(), nil, 243)
	h.power()
	h.keyOn("tech-1")
	h.pin(RoleTechnician, DefaultPIN)
	if s := h.m.View().Service; s == nil || !s.MustChangePIN || s.PINChanges != 0 || s.PINHashing {
		t.Fatalf("after the default PIN: %+v", s)
	}
	// The owner's worker hashes: the job is out, its answer not yet in.
	eff := h.m.Step(ServiceAction{At: h.now, Action: SvcSetPIN, Value: "480163"})
	var job PINJob
	for _, d := range eff.Devices {
		if j, ok := d.(PINJob); ok {
			job = j
		}
	}
	if job == nil {
		t.Fatal("no hashing job")
	}
	if s := h.m.View().Service; !s.PINHashing || s.PINChanges != 0 {
		t.Fatalf("while hashing: %+v", s)
	}
	h.m.Step(job.Do(Argon2id, h.now))
	if s := h.m.View().Service; s.PINHashing || s.PINChanges != 1 || s.MustChangePIN {
		t.Fatalf("after the change: hashing %v, changes %d, must change %v", s.PINHashing, s.PINChanges, s.MustChangePIN)
	}
}

// Entering test mode ends the session with the key still on: the test
// game is on screen, not the PIN pad. A new turn of the key brings the
// login back (to leave test mode).
func TestTestModeIsNotUnderTheLoginPad(t *testing.T) {
	h := realPlayThenCashOut(t, testModeCfg(t), 244)
	if eff := h.enterTest(); eff.Refused != "" {
		t.Fatal(eff.Refused)
	}
	v := h.m.View()
	if v.Test == nil || v.Service != nil || !v.KeyOn || v.LoginPad {
		t.Fatalf("in test mode with the key on: test %v, service %v, key_on %v, login_pad %v", v.Test != nil, v.Service != nil, v.KeyOn, v.LoginPad)
	}
	h.step(Key{At: h.now, Key: KeyAttendant, On: false})
	h.keyOn("tech-7")
	if v := h.m.View(); v.Test == nil || !v.LoginPad {
		t.Fatalf("a new turn in test mode: test %v, login_pad %v", v.Test != nil, v.LoginPad)
	}
	if eff := h.pin(RoleTechnician, techPIN); eff.Refused != "" {
		t.Fatal(eff.Refused)
	}
	if v := h.m.View(); v.Mode != "service" || v.LoginPad {
		t.Fatalf("logged in: mode %s, login_pad %v", v.Mode, v.LoginPad)
	}
	// Logging out with the key on offers the login again.
	h.svc(SvcLogout, "", "")
	if v := h.m.View(); !v.LoginPad {
		t.Fatal("logged out with the key on: no login offered")
	}
}

// A service page the menu does not have is refused, naming those it has;
// the page on screen stays.
func TestUnknownServicePageRefused(t *testing.T) {
	h := newHarness(t, svcCfg(), nil, 245)
	h.power()
	login(h, RoleTechnician)
	h.svc(SvcPage, "", "events")
	n := len(h.records)
	eff := h.svc(SvcPage, "", "nonsense")
	v := h.m.View()
	if eff.Refused != "refused_unknown_page" || v.Service.Page != "events" || len(h.records) != n {
		t.Fatalf("page nonsense: refused %q, page %q, %d records", eff.Refused, v.Service.Page, len(h.records)-n)
	}
	if d := v.ServiceMessage.Detail; !strings.Contains(d, `"nonsense"`) || !strings.Contains(d, strings.Join(ServicePages, ", ")) {
		t.Fatalf("the refusal says %q", d)
	}
	for _, p := range ServicePages {
		if eff := h.svc(SvcPage, "", p); eff.Refused != "" || h.m.View().Service.Page != p {
			t.Fatalf("page %s: %q", p, eff.Refused)
		}
	}
	if UnknownPage("meters") != nil || UnknownPage("") == nil {
		t.Fatal("UnknownPage")
	}
}
