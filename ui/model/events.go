package model

import (
	"strings"

	"github.com/openegm/cabinet/machine"
	"github.com/openegm/cabinet/meters"
)

// EventLine is a line of the event log as the technician reads it: what
// happened, its details and who did it, in the screen's language.
type EventLine struct {
	Time, What, Detail, Who string
}

// EventLine translates an event of the log.
func (g *Screen) EventLine(e machine.ViewEvent) EventLine {
	l := EventLine{Time: Clock(e.At), What: g.T("event_" + e.Code), Detail: e.Detail, Who: e.Who}
	l.Who = g.WhoText(e.Who)
	if e.Role != "" {
		if keyOnly(e.Who) {
			l.Who = g.T("role_" + e.Role) // no name behind the key: the role says who
		} else {
			l.Who += " (" + g.T("role_"+e.Role) + ")"
		}
	}
	money := Euro(g.Lang, e.Cents)
	switch e.Code {
	case meters.EventDoorOpen, meters.EventDoorClose:
		l.Detail = g.T("door_" + e.Door)
	case meters.EventTilt, meters.EventTiltClear:
		l.Detail = strings.TrimSpace(g.T("tilt_"+e.Tilt) + "  " + e.Detail)
	case meters.EventTicketOut:
		l.Detail = g.T("ev_ticket", money, e.Ref)
	case meters.EventRAMClear:
		if e.Who != "" {
			l.Detail = e.Value
		}
	case machine.EventMoneyIn:
		l.Detail = g.T("source_"+e.Kind) + "  " + money
		if e.Kind == meters.SourceTicket && e.Ref != "" {
			l.Detail = g.T("ev_ticket", money, e.Ref)
		}
	case machine.EventHandpay, machine.EventHandpayReset:
		l.Detail = g.T("handpay_"+e.Kind) + "  " + money
		if e.Game > 0 {
			l.Detail += "  " + g.T("game_no", Credits(g.Lang, int64(e.Game)))
		}
	case machine.EventFreeGames:
		l.Detail = g.T("ev_free_games", Credits(g.Lang, int64(e.Game)), Itoa(e.Count), money)
	case meters.EventService:
		if e.Action == "" {
			break // a record without its parts (a jackpot level opened): its own text
		}
		l.What = g.T("ev_svc_" + e.Action)
		switch e.Action {
		case "config":
			label := e.Key
			if hasText("set_" + e.Key) {
				label = g.T("set_" + e.Key)
			}
			l.Detail = label + ": " + g.SettingValue(e.Key, e.Value)
			if e.Key == "table" {
				l.Detail = g.SettingValue(e.Key, e.Value) // its label is in its name
			}
		case meters.ActionLogin, meters.ActionPINFailed:
			l.Detail = g.T("role_" + e.Role)
		case machine.SvcClearTilt:
			l.Detail = g.T("tilt_" + e.Value)
		case machine.SvcLogout:
			if e.Value == "key off" {
				l.Detail = g.T("ev_key_off")
			} else {
				l.Detail = ""
			}
		case meters.ActionJackpotLevel:
			l.Detail = g.T("ev_jackpot_level", e.Value)
		case machine.SvcIOOutput:
			name, state, _ := strings.Cut(e.Value, " ")
			l.Detail = g.T("io_"+name) + ": " + g.T("io_"+state)
		default:
			l.Detail = e.Value
		}
	}
	return l
}

// RecallSpinNow is the spin of the selected recalled game on show (the
// base spin, or one of its free games) and its title.
func (g *Screen) RecallSpinNow(rc machine.Recall) (machine.RecallSpin, string, bool) {
	if len(rc.Spins) == 0 {
		return machine.RecallSpin{}, "", false
	}
	k := min(max(g.RecallSpin, 0), len(rc.Spins)-1)
	if k == 0 {
		return rc.Spins[0], g.T("recall_base"), true
	}
	return rc.Spins[k], g.T("free_game_n", Itoa(k), Itoa(len(rc.Spins)-1)), true
}

// StopsText lists a spin's stops reel by reel.
func (g *Screen) StopsText(stops []int) string {
	parts := make([]string, len(stops))
	for i, s := range stops {
		parts[i] = g.T("recall_reel_stop", Itoa(i+1), Itoa(s))
	}
	return g.T("recall_stops", strings.Join(parts, "   "))
}

// RecallTexts are the lines under a recalled spin: its paying lines, its
// scatters and the free games it awards.
func (g *Screen) RecallTexts(sp machine.RecallSpin) []WinItem {
	var out []WinItem
	for _, l := range sp.Lines {
		out = append(out, WinItem{Text: g.LineText(l), Line: l.Line, Count: l.Count})
	}
	for _, s := range sp.Scatters {
		out = append(out, WinItem{Text: g.scatterText(s), Line: -1, Cells: s.Cells, Hot: s.FreeGames > 0})
	}
	return out
}

// keyOnly says that who is no person's name but the attendant key itself
// (the machine's default, or the simulator standing in for the key): the
// screens say the role, never these identifiers.
func keyOnly(who string) bool { return who == "" || who == "attendant key" || who == "simulator" }

// WhoText is who did something as the service screens say it: a person's
// name as recorded, the machine's own words for itself (the self-test, the
// configuration) and for the attendant key without a name behind it.
func (g *Screen) WhoText(who string) string {
	if keyOnly(who) && who != "" {
		return g.T("who_attendant_key")
	}
	if hasText("who_" + who) {
		return g.T("who_" + who)
	}
	return who
}
