package model

import (
	"slices"
	"strings"

	"github.com/openegm/cabinet/meters"
)

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
		switch {
		case v.HandpayKind == meters.HandpayCancelled:
			// The credit meter still shows the amount until the attendant
			// pays it: say what happens, and why when the printer is the
			// reason.
			if v.Message.Key == "msg_handpay_printer" || slices.Contains(v.Tilts, "printer") {
				lines = append(lines, g.T("lock_printer_cannot"))
			}
			lines = append(lines, g.T("lock_handpay_cashout"))
		case v.HandpayKind != "":
			lines = append(lines, g.T("handpay_"+v.HandpayKind))
		}
		if g.cancelledHandpay() {
			if p := g.promoStays(); p != "" {
				lines = append(lines, p)
			}
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
		return g.PrintingText()
	case winShown && !Lockout(v.Mode) && (v.Message.Key == "" || v.Message.Key == "msg_win"):
		return item.Text
	case v.Message.Key != "" && (!g.Spinning() || strings.HasPrefix(v.Message.Key, "refused_")):
		return g.Said()
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
