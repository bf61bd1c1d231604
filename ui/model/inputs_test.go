package model

import (
	"slices"
	"strings"
	"testing"

	"github.com/openegm/cabinet/machine"
)

// Issue 24, items 2 and 5: the screen draws every input from the view,
// whatever path it took (the key switch's pin, the physical help button,
// the control socket), and keeps no copy of a hardware state.

// viewIn is sampleView in a language.
func viewIn(lang string) machine.View {
	v := sampleView()
	v.Lang = lang
	return v
}

// The key turned on the pins (the screen's cabinet never saw a SetSwitch):
// the view says it, and the screen shows the login pad and the legend's
// "on"; for a handpay, the attendant's confirmation.
func TestKeyOnInTheViewBringsUpThePad(t *testing.T) {
	for _, lang := range Langs {
		v := viewIn(lang)
		v.KeyOn, v.LoginPad = true, true
		s, c := newTestScreen(t, v)
		if s.Pad.Mode != "login" {
			t.Fatalf("%s: key on in the view: pad %q", lang, s.Pad.Mode)
		}
		if state, on := s.SwitchText(SwitchKey); !on || state != T(lang, "sim_on") {
			t.Errorf("%s: the legend says the key is %q", lang, state)
		}
		if ids := ids(s.Buttons()); !slices.Contains(ids, "role:technician") || !slices.Contains(ids, "pad:ok") {
			t.Errorf("%s: the login pad's buttons are not on screen: %v", lang, ids)
		}
		if b := button(t, s, "role:technician"); b.Label != T(lang, "role_technician") {
			t.Errorf("%s: role button %q", lang, b.Label)
		}
		// Off on the pins: the pad goes, the legend says off.
		c.view.KeyOn, c.view.LoginPad = false, false
		s.Update()
		if state, on := s.SwitchText(SwitchKey); s.Pad.Mode != "" || on || state != T(lang, "sim_off") {
			t.Errorf("%s: key off in the view: pad %q, legend %q", lang, s.Pad.Mode, state)
		}

		// A handpay: the key brings the confirmation of the amount.
		v = viewIn(lang)
		v.Mode, v.Handpay, v.KeyOn, v.HandpayConfirm = "handpay", 1500_00, true, true
		s, _ = newTestScreen(t, v)
		if s.Pad.Mode != "handpay" {
			t.Fatalf("%s: key on for a handpay in the view: pad %q", lang, s.Pad.Mode)
		}
		if l := button(t, s, "handpay:paid").Label; !strings.Contains(l, Euro(lang, 1500_00)) {
			t.Errorf("%s: the confirmation says %q", lang, l)
		}
	}
}

// The screen's K key and door keys turn the switch from where the view
// says it is, through the cabinet (the socket's key and door): a key
// turned on the pins is turned off by K, not "on" again.
func TestSwitchKeysTurnFromTheView(t *testing.T) {
	v := sampleView()
	v.KeyOn, v.LoginPad, v.DoorsOpen = true, true, []string{"main"}
	s, c := newTestScreen(t, v)
	s.Key(KeyEscape) // the login pad (the key is on) gives way to the keys
	s.Key("k")
	s.Key("d")
	s.Key("g")
	if got, want := c.take(), []string{"switch attendant_key false", "switch door_main false", "switch door_logic true"}; !slices.Equal(got, want) {
		t.Errorf("the keys sent %v, want %v", got, want)
	}
	s.Update()
	if state, on := s.SwitchText(SwitchMain); on || state != T("pt", "sim_closed") {
		t.Errorf("the main door after d: %q", state)
	}
}

// The physical help button (the view's Help, never pressed on the
// screen): the screen shows the help pages, in both languages; a press
// of the screen's close sends the same button.
func TestHelpInTheViewShowsThePages(t *testing.T) {
	for _, lang := range Langs {
		v := viewIn(lang)
		v.Help = true
		s, c := newTestScreen(t, v)
		if !s.Help || s.HelpPage != 0 {
			t.Fatalf("%s: help in the view: help %v page %d", lang, s.Help, s.HelpPage)
		}
		pages := s.PaytablePages()
		if len(pages) == 0 || pages[0].Title == "" {
			t.Fatalf("%s: no help pages", lang)
		}
		if b := button(t, s, "help_close"); b.Label != T(lang, "btn_close") {
			t.Errorf("%s: close button %q", lang, b.Label)
		}
		if s.Attract() {
			t.Errorf("%s: the attract screen is over the help pages", lang)
		}
		clickOn(t, s, "help_next")
		clickOn(t, s, "help_close")
		if got := c.take(); !slices.Equal(got, []string{"press help"}) {
			t.Errorf("%s: close sent %v", lang, got)
		}
		s.Update()
		if s.Help {
			t.Errorf("%s: help still up after the view closed it", lang)
		}
		// Opened again: from the first page.
		c.view.Help = true
		s.Update()
		if !s.Help || s.HelpPage != 0 {
			t.Errorf("%s: reopened: help %v page %d", lang, s.Help, s.HelpPage)
		}
	}
}

// The new-PIN pad closes when the view counts the PIN changed, whichever
// way it was changed and whether or not the screen caught the machine's
// message: asked by the machine (must change) and changed elsewhere (the
// control socket); and sent from the pad with the answer's message gone.
func TestNewPINPadClosesWhenTheViewSaysChanged(t *testing.T) {
	for _, lang := range Langs {
		v := viewIn(lang)
		v.Mode, v.KeyOn = "service", true
		v.Service = &machine.ServiceView{Role: machine.RoleTechnician, Who: "t", Page: "meters", MustChangePIN: true}
		s, c := newTestScreen(t, v)
		if s.Pad.Mode != "set_pin" || s.ServiceLine() != T(lang, "svc_must_change") {
			t.Fatalf("%s: must change: pad %q, line %q", lang, s.Pad.Mode, s.ServiceLine())
		}
		c.view.Service.MustChangePIN, c.view.Service.PINChanges = false, 1
		s.Update()
		if s.Pad.Mode != "" {
			t.Fatalf("%s: the PIN changed (the view says so): the pad is still %q", lang, s.Pad.Mode)
		}

		// From the menu: typed twice, sent; the machine hashes, then
		// counts it changed; its message expired before the screen looked.
		clickOn(t, s, "svc:set_pin")
		for range 2 {
			for _, d := range "582947" {
				clickOn(t, s, "pad:"+string(d))
			}
			clickOn(t, s, "pad:ok")
		}
		c.view.Service.PINHashing = true
		s.Update()
		if s.Pad.Mode != "set_pin_wait" {
			t.Fatalf("%s: while the machine hashes the pad is %q", lang, s.Pad.Mode)
		}
		c.view.Service.PINHashing, c.view.Service.PINChanges = false, 2
		s.Update()
		if s.Pad.Mode != "" {
			t.Fatalf("%s: changed again, no message: the pad is still %q", lang, s.Pad.Mode)
		}
		if s.ServiceLine() != "" {
			t.Errorf("%s: line %q", lang, s.ServiceLine())
		}
	}
}

// Test mode entered with the key still on: the view offers no login, so
// no PIN pad is over the test game; a new turn of the key brings it.
func TestTestModeShowsNoPINPad(t *testing.T) {
	for _, lang := range Langs {
		v := viewIn(lang)
		v.Mode = "service"
		v.Service = &machine.ServiceView{Role: machine.RoleTechnician, Who: "t", Page: "meters"}
		s, c := newTestScreen(t, v)
		c.SetSwitch(SwitchKey, true)
		c.view.Mode, c.view.Service, c.view.LoginPad = "idle", nil, false // entered: as the machine says it
		c.view.Test = &machine.TestView{CreditsCents: machine.TestCredits}
		s.Update()
		if s.Pad.Mode != "" {
			t.Fatalf("%s: test mode with the key on: pad %q over the test game", lang, s.Pad.Mode)
		}
		if b := button(t, s, machine.BtnSpin); !b.Enabled || b.Label != T(lang, "btn_spin") {
			t.Errorf("%s: the test game's spin: %+v", lang, b)
		}
		c.view.KeyOn = false
		s.Update()
		c.SetSwitch(SwitchKey, true)
		s.Update()
		if s.Pad.Mode != "login" {
			t.Errorf("%s: a new turn in test mode: pad %q", lang, s.Pad.Mode)
		}
	}
}

// A page refused by the machine: the menu's line says so in the screen's
// language with the pages there are; the tabs are the machine's pages.
func TestUnknownPageSaid(t *testing.T) {
	if !slices.Equal(ServicePages, machine.ServicePages) {
		t.Fatalf("the menu's pages %v, the machine's %v", ServicePages, machine.ServicePages)
	}
	for _, lang := range Langs {
		v := ioView(machine.RoleTechnician)
		v.Lang = lang
		v.ServiceMessage = machine.Message{Key: "refused_unknown_page", Detail: machine.UnknownPage("x").Error(), At: 1}
		s, _ := newTestScreen(t, v)
		want := T(lang, "refused_unknown_page") + " — " + machine.UnknownPage("x").Error()
		if got := s.ServiceLine(); got != want || !strings.Contains(got, "identity") {
			t.Errorf("%s: line %q, want %q", lang, got, want)
		}
	}
}
