package inspect

import (
	"strconv"
	"strings"

	"github.com/openegm/cabinet/meters"
)

// The report's event log is every record of the period that an inspector
// traces as something that happened (rule 14): the ledger's events
// (doors, power, tilts, service actions, settings, RAM clears, tickets
// printed) and the money that moved outside the games (notes, coins,
// tickets in, transfers, cash-outs, handpays and their payment, jackpot
// awards, mystery and linked included). Each names who did it as a role
// (technician, attendant, host, self-test …), never a raw key holder
// code, and its amounts are cents the report writes as euros.

// EventRow is one entry of the report's event log.
type EventRow struct {
	At   int64  `json:"at"`
	Code string `json:"code"` // a ledger event code, or one of the ev* codes below
	// Who is the role that did it ("technician", "operator", "inspector",
	// "attendant", "host", "self_test", "start_up", "machine"; "" a
	// device or the player) and Holder the key holder named, when one is.
	Who    string `json:"who,omitempty"`
	Holder string `json:"holder,omitempty"`
	Door   string `json:"door,omitempty"`
	Tilt   string `json:"tilt,omitempty"`
	Action string `json:"action,omitempty"` // a service action
	Key    string `json:"key,omitempty"`    // a setting
	Value  string `json:"value,omitempty"`
	Kind   string `json:"kind,omitempty"` // money source or method, handpay or jackpot kind
	Cents  int64  `json:"cents,omitempty"`
	Game   uint64 `json:"game,omitempty"`
	Level  int    `json:"level,omitempty"`
	Ref    string `json:"ref,omitempty"`
	Detail string `json:"detail,omitempty"` // the machine's own words, as recorded
}

// Event codes of the report's log beyond the ledger's own.
const (
	evSetting       = "setting"
	evService       = "service_action"
	evJackpotLevel  = "jackpot_level"
	evMoneyIn       = "money_in"
	evBillReturned  = "bill_returned"
	evCashOut       = "cash_out"
	evTicketVoid    = "ticket_void"
	evTicketRefused = "ticket_refused"
	evHandpay       = "handpay"
	evHandpayPaid   = "handpay_paid"
	evJackpotHit    = "jackpot_hit"
	evJackpotAward  = "jackpot_award"
	evAFT           = "aft_transfer"
	evTestOn        = "test_on"
	evTestOff       = "test_off"
	evPromoExpired  = "promo_expired"
)

// Jackpot kinds of a game's award.
const (
	JackpotMystery = "mystery"     // a local mystery level
	JackpotLinked  = "linked"      // a level of the link controller
	JackpotLocal   = "progressive" // a local level won by the paytable
)

// roleOf is the role of who did something, and the key holder's name
// worth keeping (none for the simulator's or the machine's own words).
func roleOf(who, role, def string) (string, string) {
	holder := who
	if i := strings.LastIndex(who, " ("); i > 0 && strings.HasSuffix(who, ")") {
		holder, role = who[:i], strings.TrimSuffix(who[i+2:], ")")
	}
	lw := strings.ToLower(holder)
	switch {
	case lw == "self-test":
		return "self_test", ""
	case strings.HasPrefix(lw, "start-up") || lw == "configuration":
		return "start_up", ""
	case strings.HasPrefix(lw, "sas host") || lw == "host":
		return "host", ""
	case lw == "attendant key" || lw == "demo attendant":
		holder = ""
		if role == "" {
			role = "attendant"
		}
	case lw == "simulator" || lw == "demo" || lw == "":
		holder = ""
	}
	switch role {
	case "technician", "operator", "inspector", "attendant":
	default:
		role = def
	}
	return role, holder
}

// timeline turns one record into the entries of the report's log (none
// for a game's own records, which the games section holds). prevSvc is
// the service action just before, which a tilt cleared by hand follows.
func timeline(r meters.Record, prevSvc *meters.Service, kindOf func(game uint64, level int, target int64) string) []EventRow {
	switch r := r.(type) {
	case meters.Event:
		e := EventRow{At: r.At, Code: r.Code, Door: r.Door, Tilt: r.Tilt, Detail: r.Detail}
		switch r.Code {
		case meters.EventTiltClear:
			e.Who = "self_test"
			if prevSvc != nil && prevSvc.At == r.At {
				e.Who, e.Holder = roleOf(prevSvc.Who, prevSvc.Role, "technician")
			}
		case meters.EventPowerUp, meters.EventPowerDown, meters.EventTilt, meters.EventLogRepaired:
			e.Who = "machine"
		}
		return []EventRow{e}
	case meters.Config:
		who, holder := roleOf(r.Who, "", "technician")
		if r.From == meters.ConfigCommandLine {
			who, holder = "start_up", ""
		}
		return []EventRow{{At: r.At, Code: evSetting, Who: who, Holder: holder, Key: r.Key, Value: r.Value}}
	case meters.Service:
		who, holder := roleOf(r.Who, r.Role, "attendant")
		return []EventRow{{At: r.At, Code: evService, Who: who, Holder: holder, Action: r.Action, Value: r.Detail}}
	case meters.JackpotLevel:
		who, holder := roleOf(r.Who, "", "technician")
		kind := JackpotLocal
		if r.Mystery {
			kind = JackpotMystery
		}
		return []EventRow{{At: r.At, Code: evJackpotLevel, Who: who, Holder: holder, Level: r.Level, Kind: kind, Cents: r.ResetCents}}
	case meters.RAMClear:
		who, holder := roleOf(r.Who, "", "technician")
		return []EventRow{{At: r.At, Code: meters.EventRAMClear, Who: who, Holder: holder, Value: r.Why}}
	case meters.TicketPrinted:
		e := EventRow{At: r.At, Code: meters.EventTicketOut, Cents: r.Cents, Ref: r.Ticket}
		if r.Reprint {
			e.Code = meters.EventTicketReprint
		}
		return []EventRow{e}
	case meters.MoneyIn:
		return []EventRow{{At: r.At, Code: evMoneyIn, Kind: r.Source, Cents: r.Cents, Ref: r.Ref}}
	case meters.TicketRedeem:
		if r.Status == meters.RedeemedCashable || r.Status == meters.RedeemedRestricted {
			return []EventRow{{At: r.At, Code: evMoneyIn, Kind: meters.SourceTicket, Cents: r.Cents, Ref: r.Digits, Who: "host"}}
		}
		return []EventRow{{At: r.At, Code: evTicketRefused, Ref: r.Digits, Value: strings.ToUpper(strconv.FormatUint(uint64(r.Status), 16)), Detail: r.Why, Who: "host"}}
	case meters.BillReturned:
		return []EventRow{{At: r.At, Code: evBillReturned, Cents: r.Cents, Detail: r.Why}}
	case meters.CashOut:
		return []EventRow{{At: r.At, Code: evCashOut, Kind: r.Method, Cents: r.Cents, Ref: r.Ticket}}
	case meters.TicketVoid:
		return []EventRow{{At: r.At, Code: evTicketVoid, Cents: r.Cents, Ref: r.Ticket, Detail: r.Why}}
	case meters.HandpayPending:
		return []EventRow{{At: r.At, Code: evHandpay, Kind: r.Kind, Cents: r.Cents, Game: r.Game, Level: r.Level, Ref: r.Ref}}
	case meters.HandpayReset:
		who, holder := roleOf(r.Who, "", "attendant")
		return []EventRow{{At: r.At, Code: evHandpayPaid, Who: who, Holder: holder, Cents: r.Cents}}
	case meters.HandpayValidated:
		who, holder := roleOf(r.Who, "", "attendant")
		return []EventRow{{At: r.At, Code: evHandpayPaid, Who: who, Holder: holder, Cents: r.Cents, Ref: r.Ticket}}
	case meters.ProgressiveHit:
		return []EventRow{{At: r.At, Code: evJackpotHit, Kind: JackpotLinked, Game: r.Game, Level: r.Level, Cents: r.Cents}}
	case meters.ProgressiveAward:
		return []EventRow{{At: r.At, Code: evJackpotAward, Kind: kindOf(r.Game, r.Level, r.Target), Game: r.Game, Level: r.Level, Cents: r.Cents,
			Value: map[bool]string{true: "attendant", false: "credits"}[r.Attendant]}}
	case meters.AFTTransfer:
		tr := r.Transfer
		return []EventRow{{At: r.At, Code: evAFT, Who: "host", Kind: direction(tr), Cents: tr.Amounts.Total(), Ref: tr.ID}}
	case meters.TestMode:
		who, holder := roleOf(r.Who, r.Role, "technician")
		if r.Enter {
			return []EventRow{{At: r.At, Code: evTestOn, Who: who, Holder: holder, Cents: r.Credits}}
		}
		return []EventRow{{At: r.At, Code: evTestOff, Who: who, Holder: holder, Detail: r.Why}}
	case meters.PromoExpired:
		return []EventRow{{At: r.At, Code: evPromoExpired, Cents: r.Cents, Value: strconv.Itoa(int(r.Pool))}}
	}
	return nil
}
