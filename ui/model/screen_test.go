package model

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/openegm/cabinet/machine"
	"github.com/openegm/cabinet/reels"
)

// fakeCabinet records what the screens ask of the cabinet.
type fakeCabinet struct {
	view     machine.View
	pt       *reels.Certified
	calls    []string
	switches map[string]bool
}

func (f *fakeCabinet) View() machine.View         { return f.view }
func (f *fakeCabinet) Paytable() *reels.Certified { return f.pt }
func (f *fakeCabinet) InsertBill(cents int64)     { f.calls = append(f.calls, fmt.Sprint("bill ", cents)) }

// Press and SetSwitch do to the view what the machine does with the
// input (the help pages; the key's position and the login it offers; a
// door's), so the screen sees them as it sees the machine's.
func (f *fakeCabinet) Press(b string) {
	f.calls = append(f.calls, "press "+b)
	if b == machine.BtnHelp {
		f.view.Help = !f.view.Help
	}
}
func (f *fakeCabinet) SetSwitch(name string, on bool) {
	if f.switches == nil {
		f.switches = map[string]bool{}
	}
	f.switches[name] = on
	f.calls = append(f.calls, fmt.Sprint("switch ", name, " ", on))
	if name == SwitchKey {
		f.view.KeyOn, f.view.LoginPad = on, on
	} else if door, ok := strings.CutPrefix(name, "door_"); ok {
		f.view.DoorsOpen = slices.DeleteFunc(f.view.DoorsOpen, func(d string) bool { return d == door })
		if on {
			f.view.DoorsOpen = append(f.view.DoorsOpen, door)
		}
	}
}
func (f *fakeCabinet) Service(ev machine.Event) {
	switch e := ev.(type) {
	case machine.PINEntry:
		f.calls = append(f.calls, "pin "+e.Role+" "+e.PIN)
	case machine.Presented:
		f.calls = append(f.calls, fmt.Sprint("presented ", e.ID))
	case machine.ServiceAction:
		f.calls = append(f.calls, "service "+e.Action+" "+e.Key+" "+e.Value)
	case machine.HandpayPaid:
		f.calls = append(f.calls, fmt.Sprint("handpay ", e.Cents))
	case machine.SelectGame:
		f.calls = append(f.calls, "select_game "+e.Game)
	case machine.PlaceBet:
		f.calls = append(f.calls, fmt.Sprint("bet ", e.Spot, " ", e.Cents))
	case machine.PokerBuyIn:
		f.calls = append(f.calls, fmt.Sprint("poker_buyin ", e.Table, " ", e.Cents))
	case machine.PokerAct:
		f.calls = append(f.calls, fmt.Sprint("poker_act ", e.Kind, " ", e.To, " ", e.On))
	case machine.PokerLeave:
		f.calls = append(f.calls, "poker_leave")
	}
}

func (f *fakeCabinet) take() []string { c := f.calls; f.calls = nil; return c }

func newTestScreen(t *testing.T, v machine.View) (*Screen, *fakeCabinet) {
	c := &fakeCabinet{view: v, pt: defaultPaytable(t)}
	s := NewScreen(c, true)
	s.Update()
	return s, c
}

// button finds a button of the screen on show by ID.
func button(t *testing.T, s *Screen, id string) Button {
	t.Helper()
	for _, b := range s.Buttons() {
		if b.ID == id {
			return b
		}
	}
	t.Fatalf("no button %q on screen; have %v", id, ids(s.Buttons()))
	return Button{}
}

func ids(bs []Button) []string {
	var out []string
	for _, b := range bs {
		out = append(out, b.ID)
	}
	return out
}

func clickOn(t *testing.T, s *Screen, id string) {
	t.Helper()
	x, y := button(t, s, id).R.Center()
	if !s.Click(x, y) {
		t.Fatalf("click at the centre of %q hit nothing", id)
	}
}

// Clicks on the player's buttons become the same presses a cabinet button
// makes; clicks outside any button do nothing.
func TestPlayerButtonsPress(t *testing.T) {
	s, c := newTestScreen(t, sampleView())
	for _, b := range []string{machine.BtnSpin, machine.BtnBetUp, machine.BtnBetDown, machine.BtnMaxBet, machine.BtnCashOut, machine.BtnLanguage} {
		clickOn(t, s, b)
		if got := c.take(); !slices.Equal(got, []string{"press " + b}) {
			t.Errorf("click %s: cabinet got %v", b, got)
		}
	}
	// Outside every button: the reels, the gaps between buttons.
	for _, p := range [][2]float64{{640, 300}, {175, 670}, {1040, 670}, {-5, -5}} {
		s.Click(p[0], p[1])
		if got := c.take(); len(got) != 0 {
			t.Errorf("click at %v pressed %v", p, got)
		}
	}
	// Buttons never overlap (a click must mean one thing).
	bs := s.Buttons()
	for i, a := range bs {
		for _, b := range bs[i+1:] {
			if a.R.X < b.R.X+b.R.W && b.R.X < a.R.X+a.R.W && a.R.Y < b.R.Y+b.R.H && b.R.Y < a.R.Y+a.R.H {
				t.Errorf("buttons %s and %s overlap", a.ID, b.ID)
			}
		}
	}
}

// ButtonAt finds the button a click would press, enabled or not, and
// nothing between buttons.
func TestButtonAt(t *testing.T) {
	v := sampleView()
	v.Level = 0 // bet down disabled
	s, c := newTestScreen(t, v)
	for _, id := range []string{machine.BtnSpin, machine.BtnBetDown, machine.BtnLanguage} {
		x, y := button(t, s, id).R.Center()
		b, ok := s.ButtonAt(x, y)
		if !ok || b.ID != id {
			t.Errorf("at the centre of %s: %q %v", id, b.ID, ok)
		}
		if id == machine.BtnBetDown && b.Enabled {
			t.Error("bet down is enabled at the lowest bet")
		}
	}
	if b, ok := s.ButtonAt(640, 300); ok {
		t.Errorf("the reels are a button: %s", b.ID)
	}
	if got := c.take(); len(got) != 0 {
		t.Errorf("ButtonAt pressed %v", got)
	}
}

// ReplayWin counts the last spin's win up again and shows its lines from
// the start; during a spin it does nothing.
func TestReplayWin(t *testing.T) {
	v := sampleView()
	v.Mode, v.Game, v.Stops = "spinning", 4, []int{1, 2, 3, 4, 5}
	v.Window = [][]string{{"A", "K", "Q"}, {"A", "K", "Q"}, {"A", "K", "Q"}, {"A", "K", "Q"}, {"A", "K", "Q"}}
	v.SpinWinCents, v.GameWinCents = 600, 600
	s, c := newTestScreen(t, v)
	s.ReplayWin()
	if !s.Spinning() || s.ShownWin() != 0 {
		t.Fatalf("during the spin: spinning %v, win %d", s.Spinning(), s.ShownWin())
	}
	c.view.Mode = "idle"
	for s.Spinning() || s.ShownWin() != 600 {
		s.Update()
		if s.Tick > 1000 {
			t.Fatal("the win is never shown whole")
		}
	}
	s.ReplayWin()
	if s.ShownWin() != 0 || s.ShownDone != s.Tick {
		t.Errorf("replayed: win %d, lines from %d (tick %d)", s.ShownWin(), s.ShownDone, s.Tick)
	}
	for range 30 {
		s.Update()
	}
	if w := s.ShownWin(); w <= 0 || w >= 600 {
		t.Errorf("halfway through the count: %d", w)
	}
}

// In a lockout the play buttons are shown disabled and do not press.
func TestLockoutDisablesPlay(t *testing.T) {
	v := sampleView()
	v.Mode, v.Handpay, v.HandpayKind = "handpay", 150000, "win"
	s, c := newTestScreen(t, v)
	for _, b := range []string{machine.BtnSpin, machine.BtnBetUp, machine.BtnMaxBet, machine.BtnCashOut} {
		clickOn(t, s, b)
	}
	if got := c.take(); len(got) != 0 {
		t.Errorf("play buttons pressed during a handpay lockout: %v", got)
	}
	clickOn(t, s, machine.BtnLanguage)
	if got := c.take(); !slices.Equal(got, []string{"press language"}) {
		t.Errorf("language must work in a lockout, got %v", got)
	}
	head, lines := s.LockoutLines()
	if head != "PAGAMENTO MANUAL" || !slices.Contains(lines, "Valor a pagar: 1.500,00 €") || !slices.Contains(lines, "Chame um empregado") {
		t.Errorf("handpay lockout says %q %q", head, lines)
	}
}

// The help button is pressed through to the cabinet, and the paytable
// pages open when the view says so; the pages' buttons turn pages and
// close.
func TestHelpPages(t *testing.T) {
	s, c := newTestScreen(t, sampleView())
	clickOn(t, s, machine.BtnHelp)
	s.Update()
	if !s.Help || !slices.Equal(c.take(), []string{"press help"}) {
		t.Fatal("help did not open the paytable")
	}
	if b := button(t, s, "help_prev"); b.Enabled {
		t.Error("previous page enabled on the first page")
	}
	n := len(s.PaytablePages())
	for i := 1; i < n; i++ {
		clickOn(t, s, "help_next")
	}
	if s.HelpPage != n-1 || button(t, s, "help_next").Enabled {
		t.Errorf("after %d nexts the page is %d of %d", n-1, s.HelpPage, n)
	}
	clickOn(t, s, "help_close")
	s.Update()
	if s.Help {
		t.Error("close did not close")
	}
}

// The keyboard stands in for buttons, the key switch, doors and bills.
func TestKeys(t *testing.T) {
	s, c := newTestScreen(t, sampleView())
	for _, k := range []string{KeySpin, KeyUp, KeyDown, "m", "c", "l", "1", "7", "k", "d", "g", "x", "b", "r"} {
		s.Key(k)
	}
	want := []string{"press spin", "press bet_up", "press bet_down", "press max_bet", "press cash_out", "press language",
		"bill 500", "bill 50000", "switch attendant_key true", "switch door_main true", "switch door_logic true",
		"switch door_cashbox true", "switch door_belly true", "switch door_drop true"}
	if got := c.take(); !slices.Equal(got, want) {
		t.Errorf("keys gave\n%v\nwant\n%v", got, want)
	}
	// Not a simulator: the keyboard opens no door and inserts no bill.
	s.Simulator = false
	s.Key("d")
	s.Key("3")
	if got := c.take(); len(got) != 0 {
		t.Errorf("a real cabinet's keyboard did %v", got)
	}
}

// The attendant key brings up the login keypad; its buttons send a PIN for
// the chosen role. In the service menu the tabs and actions become
// ServiceActions.
func TestServiceKeypadAndMenu(t *testing.T) {
	s, c := newTestScreen(t, sampleView())
	c.SetSwitch("attendant_key", true)
	c.take()
	s.Update()
	if s.Pad.Mode != "login" {
		t.Fatalf("key on: keypad %q", s.Pad.Mode)
	}
	clickOn(t, s, "role:inspector")
	for _, d := range "2468" {
		clickOn(t, s, "pad:"+string(d))
	}
	clickOn(t, s, "pad:back")
	clickOn(t, s, "pad:0")
	clickOn(t, s, "pad:ok")
	if got := c.take(); !slices.Equal(got, []string{"pin inspector 2460"}) {
		t.Errorf("keypad sent %v", got)
	}
	// Logged in as a technician.
	c.view.Mode = "service"
	c.view.Service = &machine.ServiceView{Role: machine.RoleTechnician, Who: "demo", Page: "meters", Settings: map[string]string{"language": "pt", "denom": "5"}}
	s.Update()
	if s.Pad.Mode != "" {
		t.Fatalf("keypad still up in the service menu: %q", s.Pad.Mode)
	}
	clickOn(t, s, "page:recall")
	clickOn(t, s, "svc:ram_clear")
	clickOn(t, s, "svc:logout")
	want := []string{"service page  recall", "service ram_clear  ", "service logout  "}
	if got := c.take(); !slices.Equal(got, want) {
		t.Errorf("service buttons sent %v, want %v", got, want)
	}
	c.view.Service.Page, c.view.Service.RAMClearArmed = "settings", true
	s.Update()
	clickOn(t, s, "set:denom:10")
	clickOn(t, s, "set:confirm")
	clickOn(t, s, "set:language:en")
	clickOn(t, s, "svc:ram_confirm")
	want = []string{"service config denom 10", "service config language en", "service ram_clear_confirm  technician request"}
	if got := c.take(); !slices.Equal(got, want) {
		t.Errorf("settings sent %v, want %v", got, want)
	}
	// The inspector reads only: no RAM clear, no settings buttons.
	c.view.Service.Role = machine.RoleInspector
	s.Update()
	for _, b := range s.Buttons() {
		if b.ID == "svc:ram_clear" || b.ID == "svc:ram_confirm" || len(b.ID) > 4 && b.ID[:4] == "set:" {
			t.Errorf("inspector has button %s", b.ID)
		}
	}
	// With the default PIN, the new-PIN keypad comes up by itself.
	c.view.Service.MustChangePIN = true
	s.Update()
	if s.Pad.Mode != "set_pin" {
		t.Fatalf("must change PIN: keypad %q", s.Pad.Mode)
	}
	for range 2 {
		for _, d := range "314159" {
			s.Key(string(d))
		}
		s.Key(KeyEnter)
	}
	if got := c.take(); !slices.Equal(got, []string{"service set_pin  314159"}) {
		t.Errorf("new PIN sent %v", got)
	}
}

// A new PIN is typed twice; two different ones are refused on the pad.
// Once sent, the pad waits for the machine: a view from before its answer
// does not open it again; "PIN alterado" closes it, a refusal asks again.
func TestNewPINAskedTwice(t *testing.T) {
	v := sampleView()
	v.Mode = "service"
	v.Service = &machine.ServiceView{Role: machine.RoleTechnician, Who: "t", Page: "meters", MustChangePIN: true}
	s, c := newTestScreen(t, v)
	typePIN := func(pin string) {
		for _, d := range pin {
			clickOn(t, s, "pad:"+string(d))
		}
		clickOn(t, s, "pad:ok")
	}
	if s.Pad.Mode != "set_pin" {
		t.Fatalf("keypad %q", s.Pad.Mode)
	}
	typePIN("582947")
	typePIN("582948")
	if got := c.take(); len(got) != 0 || s.Pad.Mode != "set_pin" || s.PadMessage() != T("pt", "pad_pin_mismatch") {
		t.Fatalf("two different PINs: sent %v, pad %q says %q", got, s.Pad.Mode, s.PadMessage())
	}
	typePIN("582947")
	typePIN("582947")
	if got := c.take(); !slices.Equal(got, []string{"service set_pin  582947"}) {
		t.Fatalf("sent %v", got)
	}
	s.Update() // the machine has not answered yet: the view still wants a PIN
	if s.Pad.Mode != "set_pin_wait" {
		t.Fatalf("before the machine's answer the pad is %q", s.Pad.Mode)
	}
	c.view.Service.MustChangePIN, c.view.Service.PINChanges = false, 1
	c.view.ServiceMessage = machine.Message{Key: "msg_pin_changed", At: 5}
	s.Update()
	if s.Pad.Mode != "" {
		t.Fatalf("after PIN alterado the pad is %q", s.Pad.Mode)
	}
	// A PIN change asked from the menu, refused by the machine: asked again
	// with the reason.
	clickOn(t, s, "svc:set_pin")
	typePIN("111111")
	typePIN("111111")
	c.take()
	c.view.ServiceMessage = machine.Message{Key: "refused_weak_pin", At: 6}
	s.Update()
	if s.Pad.Mode != "set_pin" || s.PadMessage() != T("pt", "refused_weak_pin") {
		t.Fatalf("after a refusal the pad is %q saying %q", s.Pad.Mode, s.PadMessage())
	}
}

// The login pad starts with no role chosen: a PIN is never tried as the
// role someone chose before; OK without a role says so and sends nothing.
func TestLoginNeedsARole(t *testing.T) {
	s, c := newTestScreen(t, sampleView())
	c.SetSwitch(SwitchKey, true)
	s.Update()
	clickOn(t, s, "role:inspector")
	clickOn(t, s, "pad:cancel")
	c.SetSwitch(SwitchKey, false)
	s.Update()
	c.SetSwitch(SwitchKey, true)
	s.Update()
	c.take()
	if s.Pad.Mode != "login" || s.Pad.Role != "" {
		t.Fatalf("key on again: pad %q with role %q", s.Pad.Mode, s.Pad.Role)
	}
	for _, d := range "582947" {
		clickOn(t, s, "pad:"+string(d))
	}
	clickOn(t, s, "pad:ok")
	if got := c.take(); len(got) != 0 || s.PadMessage() != T("pt", "pad_choose_role") {
		t.Fatalf("OK without a role sent %v, says %q", got, s.PadMessage())
	}
}

// The pad's message line is clear of its keys and of the PIN's box.
func TestPadLayout(t *testing.T) {
	s, c := newTestScreen(t, sampleView())
	c.SetSwitch(SwitchKey, true)
	s.Update()
	overlap := func(a, b Rect) bool { return a.X < b.X+b.W && b.X < a.X+a.W && a.Y < b.Y+b.H && b.Y < a.Y+a.H }
	bs := s.KeypadButtons()
	for i, b := range bs {
		if overlap(b.R, RectPadMessage) || overlap(b.R, RectPadPIN) {
			t.Errorf("key %s overlaps the pad's message or PIN box", b.ID)
		}
		for _, o := range bs[i+1:] {
			if overlap(b.R, o.R) {
				t.Errorf("keys %s and %s overlap", b.ID, o.ID)
			}
		}
		if b.R.Y+b.R.H > RectPad.Y+RectPad.H {
			t.Errorf("key %s leaves the pad", b.ID)
		}
	}
	if overlap(RectPadMessage, RectPadPIN) {
		t.Error("the pad's message overlaps the PIN box")
	}
}
