package model

import (
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/openegm/cabinet/machine"
	"github.com/openegm/cabinet/meters"
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
	held         machine.View // the view presented before the spin on screen
	ShownDone    int          // tick the reels finished (the win presentation starts)
	lastActivity int
	lastCredits  int64

	Help     bool // the paytable pages are up
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

// Keypad is the on-screen service Keypad: a login (role and PIN) or a new
// PIN, typed twice. Mode "set_pin_again" asks for the new PIN a second
// time; "set_pin_wait" waits for the machine's answer to it.
type Keypad struct {
	Mode   string // "", "login", "set_pin", "set_pin_again", "set_pin_wait"
	Role   string // login: the role chosen (none until the user picks one)
	Digits string
	First  string // set_pin_again: the PIN typed first
	// Note is the pad's own word (a catalogue key): no role chosen, the
	// two PINs differ.
	Note string
	// sentAt is the At of the service message on screen when the new PIN
	// was sent: the machine's answer is a message said after it.
	sentAt int64
}

// SettingPIN says whether the keypad is asking for a new PIN.
func (k Keypad) SettingPIN() bool { return strings.HasPrefix(k.Mode, "set_pin") }

// Observe takes a new view: it starts the reels when a new committed spin is
// shown, and keeps the meters the player sees in step with them.
func (g *Screen) Observe(v machine.View, pt *reels.Certified) {
	prevWin := g.ShownWin() // with the view before this one
	prev := g.V
	g.Live, g.V, g.PT = v, v, pt
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
			g.held = prev
			if first {
				g.held = machine.View{}
			}
			g.Help = false
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
	if v.Credits != g.lastCredits {
		g.lastCredits = v.Credits
		g.activity()
	}
	if v.Mode == "service" {
		g.Help = false
		if g.Pad.Mode == "set_pin_wait" {
			g.pinAnswer(v)
		}
		if v.Service != nil && v.Service.MustChangePIN && !g.Pad.SettingPIN() {
			g.Pad = Keypad{Mode: "set_pin"}
		} else if g.Pad.Mode == "login" {
			g.Pad = Keypad{}
		}
	} else {
		if g.Pad.SettingPIN() {
			g.Pad = Keypad{}
		}
		if g.C.Switch(SwitchKey) && v.HandpayConfirm {
			// The key is on for a handpay: the attendant confirms the
			// amount paid, no PIN.
			if g.Pad.Mode != "handpay" {
				g.Pad = Keypad{Mode: "handpay"}
			}
		} else if g.Pad.Mode == "handpay" {
			// Paid (or the key went off): the PIN pad waits for the next
			// turn of the key.
			g.Pad, g.padClosed = Keypad{}, g.C.Switch(SwitchKey)
		}
		if g.C.Switch(SwitchKey) {
			if g.Pad.Mode == "" && !g.padClosed {
				// No role chosen: a PIN is never tried as another role's.
				g.Pad = Keypad{Mode: "login"}
			}
		} else {
			g.Pad, g.padClosed = Keypad{}, false
		}
	}
	g.observeTable(v)
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
	k := pagesKey{g.PT, g.Lang, g.V.MachineID, g.V.Denom, g.V.Level, g.V.MaxLevel, g.V.HandpayLimit, jackpotRules(g.V.Jackpots)}
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
	g.press(machine.BtnSpin)
}

func (g *Screen) toggleHelp() {
	g.press(machine.BtnHelp)
	g.Help = !g.Help
	g.HelpPage = 0
}

func (g *Screen) service(ev machine.Event) { g.activity(); g.C.Service(ev) }

func (g *Screen) toggleSwitch(name string) { g.C.SetSwitch(name, !g.C.Switch(name)) }

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

func (g *Screen) padDigit(d int) {
	if len(g.Pad.Digits) < 8 {
		g.Pad.Digits += string(rune('0' + d))
	}
}

func (g *Screen) padBack() {
	if n := len(g.Pad.Digits); n > 0 {
		g.Pad.Digits = g.Pad.Digits[:n-1]
	}
}

func (g *Screen) padOK() {
	pin := g.Pad.Digits
	g.Pad.Digits, g.Pad.Note = "", ""
	switch g.Pad.Mode {
	case "login":
		if g.Pad.Role == "" {
			g.Pad.Note = "pad_choose_role"
			return
		}
		g.service(machine.PINEntry{At: time.Now(), Role: g.Pad.Role, PIN: pin})
	case "set_pin":
		g.Pad.Mode, g.Pad.First = "set_pin_again", pin
	case "set_pin_again":
		if pin != g.Pad.First {
			g.Pad = Keypad{Mode: "set_pin", Note: "pad_pin_mismatch"}
			return
		}
		g.Pad.Mode, g.Pad.First, g.Pad.sentAt = "set_pin_wait", "", g.V.ServiceMessage.At
		g.service(machine.ServiceAction{At: time.Now(), Action: machine.SvcSetPIN, Value: pin})
	}
}

// pinAnswer closes the new-PIN keypad when the machine has taken the PIN
// ("PIN alterado" is its message), or asks again when it refused it (with
// its reason). Until the machine answers the keypad waits: a view from
// before the answer must not open it again.
func (g *Screen) pinAnswer(v machine.View) {
	m := v.ServiceMessage
	switch {
	case m.At == g.Pad.sentAt || m.Key == "":
	case m.Key == "msg_pin_changed":
		g.Pad = Keypad{}
	default:
		g.Pad = Keypad{Mode: "set_pin"}
	}
}

func (g *Screen) padCancel() {
	switch g.Pad.Mode {
	case "login", "handpay":
		g.Pad.Mode, g.Pad.Digits, g.padClosed = "", "", true
	case "set_pin", "set_pin_again", "set_pin_wait":
		if g.V.Service != nil && g.V.Service.MustChangePIN {
			g.service(machine.ServiceAction{At: time.Now(), Action: machine.SvcLogout})
		}
		g.Pad = Keypad{}
	}
}

// Click handles a click in design units: the button under it acts.
func (g *Screen) Click(x, y float64) bool {
	g.activity()
	b, ok := g.ButtonAt(x, y)
	if ok && b.Enabled && b.Act != nil {
		b.Act(g)
	}
	return ok
}

// ButtonAt is the button under a point in design units, if any (the
// topmost).
func (g *Screen) ButtonAt(x, y float64) (Button, bool) {
	for _, b := range slices.Backward(g.Buttons()) {
		if b.R.Contains(x, y) {
			return b, true
		}
	}
	return Button{}, false
}

// Button is a touch target, drawn and hit-tested from the same list.
type Button struct {
	ID      string
	Label   string
	R       Rect
	Enabled bool
	Style   int // StyleNormal, StyleHot (spin, confirm), StyleSelected
	Act     func(g *Screen)
}

// Buttons lists the touch targets of the screen on show, bottom first.
func (g *Screen) Buttons() []Button {
	switch {
	case g.V.Mode == "service":
		bs := g.ServiceButtons()
		if g.Pad.Mode != "" {
			bs = append(bs, g.KeypadButtons()...)
		}
		return bs
	case g.Pad.Mode != "":
		return g.KeypadButtons()
	case g.Help:
		return g.HelpButtons()
	}
	if bs, ok := g.gameButtons(); ok {
		return bs
	}
	return g.withGamesButton(g.PlayerButtons())
}

func (g *Screen) T(key string, args ...string) string { return T(g.Lang, key, args...) }

func (g *Screen) PlayerButtons() []Button {
	// During a spin only the spin button (to stop the reels) is lit.
	playable := !Lockout(g.V.Mode) && g.V.Mode != "starting" && g.V.Mode != "spinning" && !g.Spinning()
	y, h := 634.0, 76.0
	return []Button{
		{ID: machine.BtnHelp, Label: g.T("btn_help"), R: Rect{20, y, 150, h}, Enabled: true, Act: (*Screen).toggleHelp},
		{ID: machine.BtnLanguage, Label: g.T("btn_language"), R: Rect{180, y, 150, h}, Enabled: true,
			Act: func(g *Screen) { g.press(machine.BtnLanguage) }},
		{ID: machine.BtnBetDown, Label: g.T("btn_bet_down"), R: Rect{380, y, 140, h}, Enabled: playable && g.V.Level > 0,
			Act: func(g *Screen) { g.press(machine.BtnBetDown) }},
		{ID: machine.BtnBetUp, Label: g.T("btn_bet_up"), R: Rect{530, y, 140, h}, Enabled: playable && g.V.Level < g.V.MaxLevel,
			Act: func(g *Screen) { g.press(machine.BtnBetUp) }},
		{ID: machine.BtnMaxBet, Label: g.T("btn_max_bet"), R: Rect{680, y, 160, h}, Enabled: playable,
			Act: func(g *Screen) { g.press(machine.BtnMaxBet) }},
		{ID: machine.BtnCashOut, Label: g.T("btn_cash_out"), R: Rect{850, y, 160, h}, Enabled: playable && g.V.Credits > 0,
			Act: func(g *Screen) { g.press(machine.BtnCashOut) }},
		{ID: machine.BtnSpin, Label: g.T("btn_spin"), R: Rect{1060, 624, 200, 90}, Enabled: playable || g.Spinning(), Style: StyleHot,
			Act: (*Screen).spin},
	}
}

func (g *Screen) HelpButtons() []Button {
	n := len(g.PaytablePages())
	y, h := 634.0, 76.0
	return []Button{
		{ID: "help_prev", Label: g.T("btn_prev"), R: Rect{20, y, 220, h}, Enabled: g.HelpPage > 0, Act: func(g *Screen) { g.PageBy(-1) }},
		{ID: "help_next", Label: g.T("btn_next"), R: Rect{250, y, 220, h}, Enabled: g.HelpPage < n-1, Act: func(g *Screen) { g.PageBy(1) }},
		{ID: machine.BtnLanguage, Label: g.T("btn_language"), R: Rect{800, y, 200, h}, Enabled: true,
			Act: func(g *Screen) { g.press(machine.BtnLanguage) }},
		{ID: "help_close", Label: g.T("btn_close"), R: Rect{1060, y, 200, h}, Enabled: true, Style: StyleHot, Act: (*Screen).toggleHelp},
	}
}

// The Keypad panel, the PIN's box and the line for the pad's messages
// (between the box and the keys).
var (
	RectPad        = Rect{390, 70, 500, 560}
	RectPadPIN     = Rect{RectPad.X + 95, RectPad.Y + 120, 310, 50}
	RectPadMessage = Rect{RectPad.X + 20, RectPad.Y + 170, RectPad.W - 40, 24}
)

// PadMessage is the keypad's line: its own note, or the machine's answer
// to a PIN ("" for none).
func (g *Screen) PadMessage() string {
	if g.Pad.Note != "" {
		return g.T(g.Pad.Note)
	}
	if k := g.V.ServiceMessage.Key; slices.Contains(PadMessages, k) {
		return MessageText(g.Lang, k, g.V.ServiceMessage.Args)
	}
	return ""
}

func (g *Screen) KeypadButtons() []Button {
	var bs []Button
	p := RectPad
	if g.Pad.Mode == "handpay" {
		cents := g.V.Handpay
		return []Button{
			{ID: "handpay:paid", Label: g.T("handpay_paid_btn", Euro(g.Lang, cents)), R: Rect{p.X + 40, p.Y + 330, p.W - 80, 80}, Enabled: true, Style: StyleHot,
				Act: func(g *Screen) { g.service(machine.HandpayPaid{At: time.Now(), Cents: cents}) }},
			{ID: "pad:cancel", Label: g.T("svc_cancel"), R: Rect{p.X + 150, p.Y + p.H - 60, 200, 46}, Enabled: true,
				Act: (*Screen).padCancel},
		}
	}
	y := p.Y + 120
	if g.Pad.Mode == "login" {
		for i, role := range []string{machine.RoleTechnician, machine.RoleOperator, machine.RoleInspector} {
			style := StyleNormal
			if g.Pad.Role == role {
				style = StyleSelected
			}
			bs = append(bs, Button{ID: "role:" + role, Label: g.T("role_" + role), R: Rect{p.X + 20 + float64(i)*157, p.Y + 70, 147, 44},
				Enabled: true, Style: style, Act: func(g *Screen) { g.Pad.Role = role }})
		}
	}
	labels := []string{"1", "2", "3", "4", "5", "6", "7", "8", "9", "←", "0", g.T("svc_ok")}
	for i, l := range labels {
		r := Rect{p.X + 95 + float64(i%3)*107, y + 76 + float64(i/3)*66, 97, 58}
		b := Button{ID: "pad:" + l, Label: l, R: r, Enabled: true}
		switch {
		case l == "←":
			b.ID, b.Act = "pad:back", (*Screen).padBack
		case i == 11:
			b.ID, b.Style, b.Act = "pad:ok", StyleHot, (*Screen).padOK
		default:
			d := int(l[0] - '0')
			b.Act = func(g *Screen) { g.padDigit(d) }
		}
		bs = append(bs, b)
	}
	bs = append(bs, Button{ID: "pad:cancel", Label: g.T("svc_cancel"), R: Rect{p.X + 150, p.Y + p.H - 60, 200, 46}, Enabled: true,
		Act: (*Screen).padCancel})
	return bs
}

// The player's screen: top bar, reels, meters, message, buttons.

func (g *Screen) ReelCount() (reelsN, rows int) {
	if n := len(g.V.Window); n > 0 {
		return n, len(g.V.Window[0])
	}
	if g.PT != nil {
		return len(g.PT.Reels), g.PT.Rows
	}
	return 5, 3
}

// CellRect is the design-space rectangle of a reel cell on the player
// screen without jackpot levels (Screen.Cell is the one on screen), for a
// window of reelsN reels and rows rows.
func CellRect(reel, row, reelsN, rows int) Rect {
	return CellIn(RectReels, reel, row, reelsN, rows)
}

// SymbolName is a symbol's player-facing name by ID.
func (g *Screen) SymbolName(id string) string {
	if g.PT != nil {
		for i, s := range g.PT.Symbols {
			if s.ID == id {
				return symbolName(g.PT, i, g.Lang)
			}
		}
	}
	return id
}

// SymbolAt is the symbol of item j of reel i (0..rows-1: the window).
func (g *Screen) SymbolAt(i, j int) string {
	if g.Anim != nil && i < len(g.Anim.Window) {
		return g.Anim.Symbol(i, j)
	}
	if i < len(g.V.Window) {
		col := g.V.Window[i]
		if len(col) > 0 {
			return col[Mod(j, len(col))]
		}
		return ""
	}
	// No game yet: the strips at their start, for decoration.
	if g.PT != nil && i < len(g.PT.Reels) {
		s := g.PT.Reels[i]
		return g.PT.Symbols[s[Mod(j, len(s))]].ID
	}
	return ""
}

// LockoutLines are the title and the details of a lockout, translated.
func (g *Screen) LockoutLines() (head string, lines []string) {
	v := g.V
	head = g.T("mode_" + v.Mode)
	switch v.Mode {
	case "handpay":
		if v.HandpayKind == meters.HandpayProgressive {
			// A jackpot paid by hand: say so, and how much.
			head = g.T("lock_jackpot_head")
			lines = append(lines, g.T("lock_jackpot_amount", Euro(g.Lang, v.Handpay)), g.T("lock_call_attendant"))
			break
		}
		lines = append(lines, g.T("lock_handpay_amount", Euro(g.Lang, v.Handpay)))
		if v.HandpayKind != "" {
			lines = append(lines, g.T("handpay_"+v.HandpayKind))
		}
		lines = append(lines, g.T("lock_call_attendant"))
	case "tilt":
		for _, t := range v.Tilts {
			lines = append(lines, g.T("tilt_"+t))
		}
		lines = append(lines, g.T("lock_call_attendant"))
	case "door_open":
		for _, d := range v.DoorsOpen {
			lines = append(lines, g.T("door_"+d))
		}
		if v.FreeLeft > 0 {
			lines = append(lines, g.T("lock_game_suspended"))
		}
	case "disabled":
		lines = append(lines, g.T("lock_disabled_detail"))
	case "meter_fault":
		lines = append(lines, g.T("lock_meter_fault"), g.T("lock_call_attendant"))
	case "no_paytable":
		lines = append(lines, g.T("lock_no_paytable"), g.T("lock_call_attendant"))
	case "starting":
		lines = append(lines, g.T("lock_starting"))
	}
	return head, lines
}

// MessageText is the line under the meters: the machine's message, the
// ticket being printed, or what the mode says.
func (g *Screen) MessageText() string {
	v := g.V
	item, winShown := g.WinItemNow()
	switch {
	case v.Printing != "":
		return g.T("lock_printing", v.Printing, Euro(g.Lang, v.PrintingCents))
	case winShown && !Lockout(v.Mode) && (v.Message.Key == "" || v.Message.Key == "msg_win"):
		return item.Text
	case v.Message.Key != "" && (!g.Spinning() || strings.HasPrefix(v.Message.Key, "refused_")):
		return MessageText(g.Lang, v.Message.Key, v.Message.Args)
	case g.Spinning() || v.Mode == "spinning":
		return g.T("mode_spinning")
	case Lockout(v.Mode):
		t, _ := g.LockoutLines()
		return t
	case v.Credits == 0 && v.Mode == "idle":
		return g.T("attract_1")
	}
	return g.T("mode_" + v.Mode)
}

// The service menu: technicians, operators and inspectors, in the
// cabinet's language. Pages come from the machine (ServiceView.Page); the
// UI asks for them with ServiceAction page, and sends PINs, settings and
// the RAM clear the same way. The inspector sees the same pages, read only.

// ServicePages are the service menu's tabs, in order.
// "io" is the technician's only (TabPages).
var ServicePages = []string{"meters", "recall", "events", "bills", "handpays", "settings", "io", "identity"}

// TabPages are the tabs the logged-in role sees: the I/O test is the
// technician's.
func (g *Screen) TabPages() []string {
	if g.Svc().Role == machine.RoleTechnician {
		return ServicePages
	}
	return slices.DeleteFunc(slices.Clone(ServicePages), func(p string) bool { return p == "io" })
}

const ListRows = 14 // rows of a list page (its footer below them)

func (g *Screen) Svc() *machine.ServiceView {
	if g.V.Service == nil {
		return &machine.ServiceView{}
	}
	return g.V.Service
}

func (g *Screen) CanChange() bool {
	r := g.Svc().Role
	return r == machine.RoleTechnician || r == machine.RoleOperator
}

func (g *Screen) ServiceButtons() []Button {
	s := g.Svc()
	var bs []Button
	tabs := g.TabPages()
	step := RectSvcContent.W / float64(len(tabs))
	for i, p := range tabs {
		style := StyleNormal
		if s.Page == p {
			style = StyleSelected
		}
		bs = append(bs, Button{ID: "page:" + p, Label: g.T("page_" + p), R: Rect{RectSvcContent.X + float64(i)*step, 64, step - 8, 44}, Enabled: true, Style: style,
			Act: func(g *Screen) {
				g.Scroll, g.RecallSel, g.Confirm = 0, 0, nil
				g.service(machine.ServiceAction{At: time.Now(), Action: machine.SvcPage, Value: p})
			}})
	}
	y, h := 634.0, 76.0
	bs = append(bs,
		Button{ID: "svc:logout", Label: g.T("svc_logout"), R: Rect{20, y, 170, h}, Enabled: true,
			Act: func(g *Screen) { g.service(machine.ServiceAction{At: time.Now(), Action: machine.SvcLogout}) }},
		Button{ID: "svc:set_pin", Label: g.T("svc_set_pin"), R: Rect{200, y, 190, h}, Enabled: true,
			Act: func(g *Screen) { g.Pad = Keypad{Mode: "set_pin"} }},
	)
	if s.Role == machine.RoleTechnician {
		bs = append(bs, Button{ID: "svc:ram_clear", Label: g.T("svc_ram_clear"), R: Rect{400, y, 200, h}, Enabled: true,
			Act: func(g *Screen) { g.service(machine.ServiceAction{At: time.Now(), Action: machine.SvcRAMClear}) }})
		if s.RAMClearArmed {
			bs = append(bs, Button{ID: "svc:ram_confirm", Label: g.T("svc_ram_confirm"), R: Rect{610, y, 260, h}, Enabled: true, Style: StyleHot,
				Act: func(g *Screen) {
					g.service(machine.ServiceAction{At: time.Now(), Action: machine.SvcRAMClearConfirm, Value: "technician request"})
				}})
		}
	}
	switch s.Page {
	case "recall", "events", "bills", "handpays":
		bs = append(bs,
			Button{ID: "svc:prev", Label: g.T("btn_prev"), R: Rect{900, y, 175, h}, Enabled: true, Act: func(g *Screen) { g.PageBy(-1) }},
			Button{ID: "svc:next", Label: g.T("btn_next"), R: Rect{1085, y, 175, h}, Enabled: true, Act: func(g *Screen) { g.PageBy(1) }})
	}
	switch s.Page {
	case "recall":
		for i := range min(len(s.Recall)-g.RecallTop(), ListRows) {
			k := g.RecallTop() + i
			bs = append(bs, Button{ID: fmt.Sprintf("recall:%d", k), R: Rect{RectSvcContent.X, RectSvcContent.Y + 30 + float64(i)*28, 420, 28},
				Enabled: true, Act: func(g *Screen) { g.RecallSel, g.RecallSpin = k, 0 }})
		}
		if g.RecallSel < len(s.Recall) {
			if n := len(s.Recall[g.RecallSel].Spins); n > 1 {
				spin := func(d int) func(g *Screen) {
					return func(g *Screen) { g.RecallSpin = min(max(g.RecallSpin+d, 0), n-1) }
				}
				bs = append(bs,
					Button{ID: "recall:spin_prev", Label: "◄", R: RectRecallSpinPrev, Enabled: g.RecallSpin > 0, Act: spin(-1)},
					Button{ID: "recall:spin_next", Label: "►", R: RectRecallSpinNext, Enabled: g.RecallSpin < n-1, Act: spin(1)})
			}
		}
	case "settings":
		if g.CanChange() {
			bs = append(bs, g.SettingsButtons()...)
		}
	case "io":
		if s.Role == machine.RoleTechnician {
			bs = append(bs, g.IOButtons()...)
		}
	case "identity":
		// Every role may verify the ledger; only the inspector exports
		// the signed report (the machine refuses the others).
		bs = append(bs, Button{ID: "svc:verify", Label: g.T("svc_verify"), R: Rect{900, y, 175, h}, Enabled: true,
			Act: func(g *Screen) { g.service(machine.ServiceAction{At: time.Now(), Action: machine.SvcVerifyLedger}) }})
		if s.Role == machine.RoleInspector {
			bs = append(bs, Button{ID: "svc:export", Label: g.T("svc_export"), R: Rect{1085, y, 175, h}, Enabled: true,
				Act: func(g *Screen) { g.service(machine.ServiceAction{At: time.Now(), Action: machine.SvcExportReport}) }})
		}
	}
	return bs
}

// The recall page: the window of the spin on show, and under it the
// buttons to the game's previous and next spin (its free games).
var (
	RectRecallWindow   = Rect{RectSvcContent.X + 450, RectSvcContent.Y + 42, 420, 240}
	RectRecallSpinPrev = Rect{RectRecallWindow.X, RectRecallWindow.Y + RectRecallWindow.H + 10, 60, 36}
	RectRecallSpinNext = Rect{RectRecallWindow.X + RectRecallWindow.W - 60, RectRecallWindow.Y + RectRecallWindow.H + 10, 60, 36}
)

func (g *Screen) RecallTop() int { return g.RecallSel / ListRows * ListRows }

// MeterValue formats a meter: amounts in euros with their credits at the
// denomination, counts as numbers.
func (g *Screen) MeterValue(m machine.MeterLine) string {
	if !m.Cents {
		return Credits(g.Lang, m.Value)
	}
	s := Euro(g.Lang, m.Value)
	if d := g.V.Denom; d > 0 && m.Value%d == 0 {
		s = Tn(g.Lang, "credits_n", m.Value/d, Credits(g.Lang, m.Value/d)) + "   " + s
	}
	return s
}

// PadMessages are the machine's answers shown on the Keypad.
var PadMessages = []string{"refused_wrong_pin", "refused_pin_locked", "refused_weak_pin", "refused_change_default_pin", "refused_no_rng", "refused_key_off", "refused_unknown_role", "refused_handpay_amount", "refused_no_handpay"}

// Key names the screens understand (the ui maps the keyboard onto them).
const (
	KeySpin      = "space"
	KeyEnter     = "enter"
	KeyUp        = "up"
	KeyDown      = "down"
	KeyLeft      = "left"
	KeyRight     = "right"
	KeyEscape    = "escape"
	KeyBackspace = "backspace"
	KeyHelp      = "h"
	KeyF1        = "f1"
)

// Key handles a key press: a lower-case letter, a digit "0".."9", or one of
// the Key* names. Player keys always work; the key switch, doors and bills
// only in the simulator.
func (g *Screen) Key(k string) {
	g.activity()
	d, isDigit := -1, len(k) == 1 && k[0] >= '0' && k[0] <= '9'
	if isDigit {
		d = int(k[0] - '0')
	}
	if g.Pad.Mode != "" {
		switch {
		case isDigit:
			g.padDigit(d)
			return
		case k == KeyBackspace:
			g.padBack()
			return
		case k == KeyEnter:
			g.padOK()
			return
		case k == KeyEscape:
			g.padCancel()
			return
		}
	}
	if g.tableKey(k) {
		return
	}
	switch k {
	case KeySpin, KeyEnter:
		g.spin()
	case KeyUp:
		g.press(machine.BtnBetUp)
	case KeyDown:
		g.press(machine.BtnBetDown)
	case "m":
		g.press(machine.BtnMaxBet)
	case "c":
		g.press(machine.BtnCashOut)
	case KeyHelp, KeyF1:
		g.toggleHelp()
	case "l":
		g.press(machine.BtnLanguage)
	case KeyEscape:
		g.Help = false
	case KeyLeft:
		g.PageBy(-1)
	case KeyRight:
		g.PageBy(1)
	}
	if !g.Simulator {
		return
	}
	if isDigit && d >= 1 && d <= len(meters.BillValues) {
		g.C.InsertBill(meters.BillValues[d-1])
		return
	}
	if sw, ok := switchKeys[k]; ok {
		g.toggleSwitch(sw)
	}
}

// switchKeys are the simulator's keys for the key switch and the doors.
var switchKeys = map[string]string{
	"k": SwitchKey, "d": SwitchMain, "g": SwitchLogic, "x": SwitchCashbox, "b": SwitchBelly, "r": SwitchDrop,
}
