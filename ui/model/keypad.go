package model

import (
	"slices"
	"strings"
	"time"

	"github.com/openegm/cabinet/machine"
)

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
	// was sent: the machine's refusal is a message said after it.
	sentAt int64
	// changes is the view's count of PINs changed when the new-PIN pad
	// opened: one more, and the pad closes.
	changes int
}

// SettingPIN says whether the keypad is asking for a new PIN.
func (k Keypad) SettingPIN() bool { return strings.HasPrefix(k.Mode, "set_pin") }

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
			g.Pad = Keypad{Mode: "set_pin", Note: "pad_pin_mismatch", changes: g.Pad.changes}
			return
		}
		g.Pad.Mode, g.Pad.First, g.Pad.sentAt = "set_pin_wait", "", g.V.ServiceMessage.At
		g.service(machine.ServiceAction{At: time.Now(), Action: machine.SvcSetPIN, Value: pin})
	}
}

// pinAnswer asks for the new PIN again when the machine refused it (with
// its reason, a message said after the PIN was sent). The machine taking
// it is the view's count of PINs changed (observePad), not a message the
// screen might miss. Until the machine answers the keypad waits: a view
// from before the answer must not open it again.
func (g *Screen) pinAnswer(v machine.View) {
	m := v.ServiceMessage
	if m.At != g.Pad.sentAt && strings.HasPrefix(m.Key, "refused_") {
		g.Pad = Keypad{Mode: "set_pin", changes: g.Pad.changes}
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
			{ID: "handpay:paid", Label: g.T(g.handpayButton(), Euro(g.Lang, cents)), R: Rect{p.X + 40, p.Y + 330, p.W - 80, 80}, Enabled: true, Style: StyleHot,
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

// PadMessages are the machine's answers shown on the Keypad.
var PadMessages = []string{"refused_wrong_pin", "refused_pin_locked", "refused_weak_pin", "refused_change_default_pin", "refused_no_rng", "refused_key_off", "refused_unknown_role", "refused_handpay_amount", "refused_no_handpay"}

// HandpayText and handpayButton are the handpay confirmation's texts: the
// attendant pays and confirms, or (a voucher the cashier pays) only
// confirms that the receipt is to print.
func (g *Screen) HandpayText() string {
	if g.V.HandpayVoucher {
		return "handpay_voucher_text"
	}
	return "handpay_confirm_text"
}

func (g *Screen) handpayButton() string {
	if g.V.HandpayVoucher {
		return "handpay_voucher_btn"
	}
	return "handpay_paid_btn"
}
