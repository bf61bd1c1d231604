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
	if hasText("who_" + e.Who) {
		l.Who = g.T("who_" + e.Who) // the machine's own: the self-test, the configuration
	}
	if e.Role != "" {
		l.Who += " (" + g.T("role_"+e.Role) + ")"
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
