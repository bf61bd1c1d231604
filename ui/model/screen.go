package model

import (
	"slices"
	"strings"
	"time"

	"github.com/openegm/cabinet/machine"
	"github.com/openegm/cabinet/reels"
)

// attractAfter is how long an idle machine without credit waits before the
// attract screen covers the last game.
const attractAfter = 10 * 60

// Screen is what the screens show and do, without drawing: it reads the
// cabinet, animates the reels, and turns touches and keys into inputs.
// package ui draws it with ebiten; its tests drive it without a display.
type Screen struct {
	C         Cabinet
	Simulator bool // the keyboard stands in for the key, the doors and the bill validator
	// Now is the cabinet's clock, which the machine's dates are of
	// (time.Now when nil).
	Now func() time.Time

	Tick int // updates so far (60 a second)
	// V is the view presented (see present): the machine's view, with the
	// outcome of a spin held back until its reels land. Live is the
	// machine's view as it came.
	V    machine.View
	Live machine.View
	PT   *reels.Certified
	Lang string // "pt" or "en", from the view

	// Player screen.
	key          string // spinKey of the spin on screen
	Anim         *ReelAnim
	WinCount     winCount
	heldCredits  int64 // the credit meter as it was when the reels started
	heldCents    int64
	heldPromo    machine.View // and its promotional parts (RestrictedCents...)
	held         machine.View // the view presented before the spin on screen
	ShownDone    int          // tick the reels finished (the win presentation starts)
	lastActivity int
	lastCredits  int64
	// The machine's step being presented (feature.go): since which tick,
	// and the last ID the screen said it presented.
	presCur  *machine.Presentation
	presAt   int
	presSent uint64

	// Help: the paytable pages are up. It is the view's (the machine's
	// help request, from the physical button or the screen's): the
	// screen keeps no copy of its own; HelpPage is the page on show.
	Help     bool
	HelpPage int
	pages    []Page
	pagesFor pagesKey

	// Service.
	Pad       Keypad
	padClosed bool // the login keypad was cancelled while the key stays on
	Scroll    int  // first row shown of a list page
	RecallSel int
	// RecallSpin is the spin of the selected game on show: 0 the base
	// spin, k its k-th free game.
	RecallSpin int
	Confirm    *PendingSetting // a change of money waiting for its confirmation
	outputs    map[string]bool // I/O test: the level last asked for each output

	Table TableUI // the game menu and the Makccarat table (table.go)
	Poker PokerUI // the poker seat (poker.go)
}

// NewScreen starts the screens of a cabinet.
func NewScreen(c Cabinet, simulator bool) *Screen {
	return &Screen{C: c, Simulator: simulator}
}

// Update is one tick: it reads the cabinet and advances the animations.
func (g *Screen) Update() {
	g.Tick++
	g.Observe(g.C.View(), g.C.Paytable())
}

type pagesKey struct {
	pt    *reels.Certified
	lang  string
	id    string
	denom int64
	level int
	max   int
	limit int64
	jp    string // the jackpot levels' rules (jackpotRules)
}

// Observe takes a new view: it starts the reels when a new committed spin is
// shown, and keeps the meters the player sees in step with them.
func (g *Screen) Observe(v machine.View, pt *reels.Certified) {
	prevWin := g.ShownWin() // with the view before this one
	prev := g.V
	g.Live, g.V, g.PT = v, v, pt
	if v.Help && !g.Help {
		g.HelpPage = 0 // the pages open at the first
	}
	g.Help = v.Help
	g.Lang = v.Lang
	if g.Lang != "en" {
		g.Lang = "pt"
	}
	if k := spinKey(v); k != g.key {
		first := g.key == ""
		g.key = k
		if v.Mode == "spinning" && len(v.Window) > 0 {
			from := int64(0) // a new game's win starts from nothing
			if v.Free && !first {
				from = prevWin // a free game adds to the game's win so far
			}
			g.Anim = NewReelAnim(g.Tick, v, pt)
			g.WinCount = winCount{from: from, start: g.Anim.DoneAt()}
			g.heldCredits, g.heldCents = v.Credits, v.CreditsCents
			g.heldPromo = machine.View{RestrictedCents: v.RestrictedCents, NonRestrictedCents: v.NonRestrictedCents,
				RestrictedExpires: v.RestrictedExpires}
			g.held = prev
			if first {
				g.held = machine.View{}
			}
			g.activity()
		} else {
			g.Anim = nil
			g.WinCount = winCount{from: v.GameWinCents, start: g.Tick}
		}
	}
	g.V = g.present(v)
	if g.Anim != nil && g.Anim.Done(g.Tick) && g.ShownDone < g.Anim.DoneAt() {
		g.ShownDone = g.Anim.DoneAt()
		g.activity()
	}
	g.observePresent(v)
	if v.Credits != g.lastCredits {
		g.lastCredits = v.Credits
		g.activity()
	}
	g.observePad(v)
	g.observeTable(v)
	g.observePoker(v)
}

// observePad opens and closes the keypad as the view says: the login
// while the attendant key's turn offers it, the handpay confirmation while
// a handpay waits for it, the new PIN while the machine asks for one and
// until the view says the PIN changed. Only the digits typed, and a
// login pad cancelled for the rest of the key's turn, are the screen's.
func (g *Screen) observePad(v machine.View) {
	if v.Mode == "service" && v.Service != nil {
		s := v.Service
		if g.Pad.SettingPIN() && s.PINChanges != g.Pad.changes {
			g.Pad = Keypad{} // changed: the view says so
		}
		if g.Pad.Mode == "set_pin_wait" && !s.PINHashing {
			g.pinAnswer(v)
		}
		if s.MustChangePIN && !g.Pad.SettingPIN() {
			g.Pad = g.newPINPad("")
		} else if g.Pad.Mode == "login" || g.Pad.Mode == "handpay" {
			g.Pad = Keypad{}
		}
		return
	}
	if g.Pad.SettingPIN() {
		g.Pad = Keypad{}
	}
	switch {
	case v.HandpayConfirm:
		// The key is on for a handpay: the attendant confirms the amount
		// paid, no PIN.
		if g.Pad.Mode != "handpay" {
			g.Pad = Keypad{Mode: "handpay"}
		}
	case g.Pad.Mode == "handpay":
		g.Pad = Keypad{} // paid, or the key went off
	}
	if v.LoginPad {
		if g.Pad.Mode == "" && !g.padClosed {
			// No role chosen: a PIN is never tried as another role's.
			g.Pad = Keypad{Mode: "login"}
		}
	} else {
		if g.Pad.Mode == "login" {
			g.Pad = Keypad{}
		}
		g.padClosed = false // the next turn of the key offers it again
	}
}

// newPINPad is the new-PIN keypad, opened now: it closes when the view
// counts one more PIN changed.
func (g *Screen) newPINPad(note string) Keypad {
	k := Keypad{Mode: "set_pin", Note: note}
	if s := g.Live.Service; s != nil {
		k.changes = s.PINChanges
	}
	return k
}

// SwitchOn is a key switch's or a door's position as the view says it
// (the legend's, and what the simulator's keys turn from).
func (g *Screen) SwitchOn(name string) bool {
	if name == SwitchKey {
		return g.Live.KeyOn
	}
	door, ok := strings.CutPrefix(name, "door_")
	return ok && slices.Contains(g.Live.DoorsOpen, door)
}

// SwitchText is how the simulator's legend says a switch's position, in
// the screen's language (the key on or off, a door open or closed), and
// whether it is on or open.
func (g *Screen) SwitchText(name string) (string, bool) {
	on := g.SwitchOn(name)
	switch {
	case name == SwitchKey && on:
		return g.T("sim_on"), true
	case name == SwitchKey:
		return g.T("sim_off"), false
	case on:
		return g.T("sim_open"), true
	}
	return g.T("sim_closed"), false
}

func (g *Screen) activity() { g.lastActivity = g.Tick }

// Spinning says whether the reels are turning on screen.
func (g *Screen) Spinning() bool { return g.Anim != nil && !g.Anim.Done(g.Tick) }

// ReplayWin presents the last spin's win again from its start: the win
// meter counts up from nothing and the lines are shown all, then one by one
// (the frame-time benchmark's win animation).
func (g *Screen) ReplayWin() {
	if g.Anim == nil || g.Spinning() {
		return
	}
	g.ShownDone = g.Tick
	g.WinCount = winCount{start: g.Tick}
}

// ShownWin is the win meter now.
func (g *Screen) ShownWin() int64 {
	if g.Anim == nil {
		return g.V.GameWinCents
	}
	if g.Spinning() {
		return g.WinCount.from
	}
	return g.WinCount.at(g.Tick, g.V.GameWinCents)
}

// ShownCredits is the credit meter now: held while the reels turn, so the
// outcome is not told before the reels show it, then counting up with the
// win meter to the machine's figure (it only interpolates what it shows).
func (g *Screen) ShownCredits() (credits, cents int64) {
	if g.Spinning() {
		return g.heldCredits, g.heldCents
	}
	v := g.V
	owed := min(v.CreditedCents, v.GameWinCents-g.ShownWin())
	if owed <= 0 || owed > v.CreditsCents || v.Denom <= 0 {
		return v.Credits, v.CreditsCents
	}
	cents = v.CreditsCents - owed
	return cents / v.Denom, cents
}

// Attract says whether the attract screen is up.
func (g *Screen) Attract() bool {
	return g.V.Mode == "idle" && g.V.Credits == 0 && !g.Spinning() && !g.Help && g.Pad.Mode == "" &&
		(len(g.V.Window) == 0 || g.Tick-g.lastActivity > attractAfter)
}

// Lockout says whether the mode keeps the player from playing.
func Lockout(mode string) bool {
	switch mode {
	case "starting", "handpay", "tilt", "door_open", "disabled", "meter_fault", "no_paytable":
		return true
	}
	return false
}

// PaytablePages are built once per paytable, language and bet.
func (g *Screen) PaytablePages() []Page {
	if g.AtTable() {
		return g.TableRulesPages()
	}
	k := pagesKey{g.PT, g.Lang, g.V.MachineID, g.V.Denom, g.V.Level, g.V.TopOffered, g.V.HandpayLimit, jackpotRules(g.V.Jackpots)}
	if g.pages == nil || k != g.pagesFor {
		g.pages, g.pagesFor = PaytablePages(g.PT, g.V, g.Lang), k
	}
	return g.pages
}

// Input.

func (g *Screen) press(name string) { g.activity(); g.C.Press(name) }

func (g *Screen) spin() {
	if g.Spinning() {
		g.Anim.Slam(g.Tick)
		return
	}
	if g.SkipPresentation() {
		return // a win's celebration cut short: the next press plays on
	}
	g.press(machine.BtnSpin)
}

// toggleHelp is the screen's help button: the same press as the
// physical one; the pages come up (or go) when the view says so.
func (g *Screen) toggleHelp() { g.press(machine.BtnHelp) }

// closeHelp takes the help pages away if they are up.
func (g *Screen) closeHelp() {
	if g.Help {
		g.press(machine.BtnHelp)
	}
}

func (g *Screen) service(ev machine.Event) { g.activity(); g.C.Service(ev) }

// toggleSwitch turns a key switch or door from where the view says it
// is, through the cabinet's input path (the socket's key and door, the
// simulated pins): the screen keeps no position of its own.
func (g *Screen) toggleSwitch(name string) { g.C.SetSwitch(name, !g.SwitchOn(name)) }

// PageBy moves through paytable pages or service lists.
func (g *Screen) PageBy(d int) {
	switch {
	case g.Help:
		n := len(g.PaytablePages())
		g.HelpPage = min(max(g.HelpPage+d, 0), n-1)
	case g.V.Mode == "service" && g.V.Service != nil:
		if g.V.Service.Page == "recall" {
			g.RecallSel = min(max(g.RecallSel+d, 0), max(len(g.V.Service.Recall)-1, 0))
			g.RecallSpin = 0
		} else {
			g.Scroll = max(g.Scroll+d*ListRows, 0)
		}
	}
}

func (g *Screen) T(key string, args ...string) string { return T(g.Lang, key, args...) }
