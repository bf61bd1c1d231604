// Package meters is the cabinet's durable ledger (regulation rules 9 and 14):
// every change of money or of state that matters is a typed record in a
// hash-chained write-ahead log (book/walog), and the meters are a fold over
// those records. Money is int64 cents, the accounting unit, so a change of
// denomination never mixes units inside a meter.
package meters

import (
	"bytes"
	"encoding/json"
	"fmt"

	"github.com/openegm/cabinet/aft"
)

// Type identifies a record kind in the log. The numbers are part of the
// log format: never renumber, only add.
type Type uint16

const (
	TypeMoneyIn          Type = 1
	TypeGameStart        Type = 2
	TypeFreeGame         Type = 3
	TypeGameEnd          Type = 4
	TypeHandpayPending   Type = 5
	TypeHandpayReset     Type = 6
	TypeCashOut          Type = 7
	TypeProgressiveHit   Type = 8
	TypeProgressiveAward Type = 9
	TypeEvent            Type = 10
	TypeConfig           Type = 11
	TypeService          Type = 12
	TypeRAMClear         Type = 13
	TypeJackpotLevel     Type = 14
	TypeTicketPrinted    Type = 15
	TypeTicketVoid       Type = 16
	TypeBillEscrow       Type = 17
	TypeBillReturned     Type = 18
	// 32 and 33 are test mode's (testmode.go); 34 the promotional
	// credits' (promo.go); 35–39 AFT's receipts (aftbonus.go); 40–49 the
	// tickets'; 50–59 the poker seat's (poker.go).
	TypeAFTTransfer     Type = 30
	TypeAFTRegistration Type = 31
)

var typeNames = map[Type]string{
	TypeMoneyIn: "money in", TypeGameStart: "game start", TypeFreeGame: "free game",
	TypeGameEnd: "game end", TypeHandpayPending: "handpay pending", TypeHandpayReset: "handpay reset",
	TypeCashOut: "cash out", TypeProgressiveHit: "progressive hit", TypeProgressiveAward: "progressive award",
	TypeEvent: "event", TypeConfig: "configuration change", TypeService: "service action", TypeRAMClear: "RAM clear",
	TypeJackpotLevel: "jackpot level opened", TypeTicketPrinted: "ticket printed", TypeTicketVoid: "ticket void",
	TypeBillEscrow: "bill to stack", TypeBillReturned: "bill returned",
	TypeAFTTransfer: "AFT transfer", TypeAFTRegistration: "AFT registration",
}

func (t Type) String() string {
	if n, ok := typeNames[t]; ok {
		return n
	}
	return fmt.Sprintf("type %d", uint16(t))
}

// Record is one entry of the ledger. Every record carries the time the
// machine core was given (the core has no clock of its own).
type Record interface {
	Type() Type
	validate() error
}

// Money sources and sinks.
const (
	SourceBill       = "bill"
	SourceCoin       = "coin"
	SourceTicket     = "ticket"
	SourceElectronic = "electronic"

	// Credits cashed out by an attendant go through HandpayPending and
	// HandpayReset (kind "cancelled"), not CashOut.
	OutTicket     = "ticket"
	OutHopper     = "hopper"
	OutElectronic = "electronic"
)

// Bills the validator accepts, in cents (euro notes €5 … €500).
var BillValues = []int64{500, 1000, 2000, 5000, 10000, 20000, 50000}

// MoneyIn credits the machine: a bill stacked, a coin, a ticket redeemed or
// an electronic transfer.
type MoneyIn struct {
	At     int64  `json:"at"` // unix nanoseconds
	Source string `json:"source"`
	Cents  int64  `json:"cents"`
	Ref    string `json:"ref,omitempty"` // ticket validation number, transfer ID
	// Order is the BillEscrow this bill was stacked by (0: a validator
	// that stacks on its own, with no escrow order).
	Order uint64 `json:"order,omitempty"`
}

// GameStart is committed before the reels spin on screen (DESIGN rule 1): it
// holds everything needed to redraw and re-evaluate the game.
type GameStart struct {
	At          int64  `json:"at"`
	Game        uint64 `json:"game"` // consecutive from 1
	Paytable    string `json:"paytable"`
	Digest      string `json:"digest"` // of the paytable file, to recall on the same math
	Denom       int64  `json:"denom"`  // cents per credit
	Level       int    `json:"level"`
	BetCredits  int64  `json:"bet_credits"`
	BetCents    int64  `json:"bet_cents"`
	Stops       []int  `json:"stops"`
	WinCents    int64  `json:"win_cents"` // the base spin
	FreeAwarded int    `json:"free_awarded"`
	// Progressives are the jackpot levels the spin's progressive
	// combinations won (once each; a level is won at most once per game).
	Progressives []int `json:"progressives,omitempty"`
	// Contributions are what the bet put into each qualifying local jackpot
	// level: every mystery level, and the paytable levels when the bet is
	// the top bet level. The fold recomputes them exactly.
	Contributions []LevelAmount `json:"contributions,omitempty"`
	// Mystery are the local mystery levels this bet's contribution filled to
	// their hidden hit value.
	Mystery []int `json:"mystery,omitempty"`
	// Linked: the bet could win the levels the link controller awards (the
	// top bet, offered only with the link up): it counts in the linked
	// coin-in, the controller's contributions (State.LinkedCoinIn).
	Linked bool `json:"linked,omitempty"`
	// Kind is the game played: "" (a reel game, whose Stops and Level say
	// the spin) or GameMakccarat, whose Hand says the hand; Paytable and
	// Digest then name the certified table definition, Denom is 1 (a hand's
	// stakes are cents) and WinCents is everything the hand paid back
	// (returned stakes included).
	Kind string     `json:"kind,omitempty"`
	Hand *TableHand `json:"hand,omitempty"`
}

// LevelAmount is an amount of one jackpot level.
type LevelAmount struct {
	Level      int   `json:"level"`
	Millicents int64 `json:"millicents"`
}

// FreeGame is one free spin of the open game, committed before it is shown.
type FreeGame struct {
	At       int64  `json:"at"`
	Game     uint64 `json:"game"`
	Index    int    `json:"index"` // 1, 2, … within the game
	Stops    []int  `json:"stops"`
	WinCents int64  `json:"win_cents"`
	Awarded  int    `json:"awarded"`
	// Progressives are the jackpot levels this free spin won that the game
	// had not won before.
	Progressives []int `json:"progressives,omitempty"`
}

// GameEnd closes the open game. Paid is what goes to the credit meter;
// a win at or above the handpay limit is paid by an attendant instead
// (Handpay), recorded by a HandpayPending that follows.
type GameEnd struct {
	At       int64  `json:"at"`
	Game     uint64 `json:"game"`
	WinCents int64  `json:"win_cents"` // the whole game: base spin and free games
	Handpay  bool   `json:"handpay"`
}

// Handpay kinds.
const (
	HandpayWin         = "win"         // a game win at or above the limit
	HandpayCancelled   = "cancelled"   // credits cashed out by an attendant
	HandpayProgressive = "progressive" // a jackpot paid by an attendant
	HandpayBonus       = "aft_bonus"   // an AFT bonus jackpot win paid by an attendant (aftbonus.go)
)

// HandpayPending locks the machine until an attendant pays and resets.
type HandpayPending struct {
	At    int64  `json:"at"`
	Kind  string `json:"kind"`
	Cents int64  `json:"cents"`
	Game  uint64 `json:"game,omitempty"`
	Level int    `json:"level,omitempty"` // progressive level, for HandpayProgressive
	Ref   string `json:"ref,omitempty"`   // the AFT transaction ID, for HandpayBonus
}

// HandpayReset is the attendant's key action that releases the lockout.
type HandpayReset struct {
	At    int64  `json:"at"`
	Who   string `json:"who"`
	Cents int64  `json:"cents"`
}

// CashOut takes credits off the machine.
type CashOut struct {
	At     int64  `json:"at"`
	Method string `json:"method"`
	Cents  int64  `json:"cents"`
	Ticket string `json:"ticket,omitempty"` // validation number of a printed ticket
	// Style is how Ticket was made (StyleSecureEnhanced, StyleSystem; "":
	// a development number). Seq is the secure-enhanced sequence it was
	// made from; TicketNo and ExpiryDays are printed and reported to the
	// host with it (tickets.go).
	Style      string `json:"style,omitempty"`
	Seq        uint32 `json:"seq,omitempty"`
	TicketNo   uint16 `json:"ticket_no,omitempty"`
	ExpiryDays uint16 `json:"expiry_days,omitempty"`
	// Kind KindRestricted: the restricted promotional credits on a
	// restricted ticket (tickets.go), of Pool, expiring on Expiration (a
	// date; 0: in ExpiryDays). "": cashable credits.
	Kind       string         `json:"kind,omitempty"`
	Pool       uint16         `json:"pool,omitempty"`
	Expiration aft.Expiration `json:"expiration,omitempty"`
}

// ProgressiveHit reports a game's hit on a linked level to the link
// controller, with the value the cabinet showed (Cents, the player's claim);
// the award follows with the amount the controller confirms. (Hits
// themselves are recorded by the game start or free game that made them.)
type ProgressiveHit struct {
	At    int64  `json:"at"`
	Game  uint64 `json:"game"`
	Level int    `json:"level"`
	Cents int64  `json:"cents,omitempty"`
}

// ProgressiveAward pays a hit: to the credit meter (machine paid) or by
// handpay (attendant paid, with a HandpayPending that follows).
type ProgressiveAward struct {
	At        int64  `json:"at"`
	Game      uint64 `json:"game"`
	Level     int    `json:"level"`
	Cents     int64  `json:"cents"`
	Attendant bool   `json:"attendant"`
	// Target is a local mystery level's next hit value (millicents), drawn
	// by the certified RNG and committed here before it is used; never shown.
	Target int64 `json:"target,omitempty"`
}

// JackpotLevel opens a level of the cabinet's own jackpot (regulation rule
// 3). Its reset value is put in by the operator (seed funding); from then on
// a percentage of each qualifying bet feeds it. The amounts are whole cents,
// the rates parts per million of the bet.
type JackpotLevel struct {
	At    int64  `json:"at"`
	Who   string `json:"who"`
	Level int    `json:"level"` // 1-32; a paytable progressive combination names its level
	// Mystery levels hit when their value reaches a hidden target drawn
	// between reset and cap; the others are won by the paytable's
	// progressive combinations at the top bet level.
	Mystery    bool  `json:"mystery,omitempty"`
	ResetCents int64 `json:"reset_cents"`
	RatePPM    int64 `json:"rate_ppm"`
	HiddenPPM  int64 `json:"hidden_ppm,omitempty"` // into the reserve for the next reset
	CapCents   int64 `json:"cap_cents,omitempty"`  // 0: no cap (paytable levels only)
	// Target is a mystery level's first hit value in millicents (see
	// ProgressiveAward.Target).
	Target int64 `json:"target,omitempty"`
}

// Event codes of the event log (doors, power, tilts). The SAS exception a
// code maps to lives in sas/.
const (
	EventPowerUp     = "power_up"
	EventPowerDown   = "power_down"
	EventDoorOpen    = "door_open"
	EventDoorClose   = "door_close"
	EventTilt        = "tilt"
	EventTiltClear   = "tilt_clear"
	EventLogRepaired = "log_repaired"
	EventService     = "service"   // a Service record, in the event history
	EventRAMClear    = "ram_clear" // a RAMClear record, in the event history
	// No progressive information from the link controller for 5 s, and
	// its return (SAS exception 0x53 on the way down).
	EventLinkDown = "progressive_link_down"
	EventLinkUp   = "progressive_link_up"
	// A ticket not confirmed printed before a power loss is printed again.
	EventTicketReprint = "ticket_reprint"
	// The link controller confirmed more for a linked hit than the
	// machine showed and reported: not paid (addressed award mode).
	EventLinkAwardRefused = "progressive_award_refused"
	// A ticket printed (its confirmation), in the event history.
	EventTicketOut = "ticket_out"
)

// Doors, for door events and counts.
const (
	DoorMain    = "main"
	DoorLogic   = "logic" // card cage
	DoorCashbox = "cashbox"
	DoorBelly   = "belly"
	DoorDrop    = "drop"
)

// Event is a state change that moves no money.
type Event struct {
	At     int64  `json:"at"`
	Code   string `json:"code"`
	Door   string `json:"door,omitempty"`
	Tilt   string `json:"tilt,omitempty"` // which tilt, for tilt and tilt_clear
	Detail string `json:"detail,omitempty"`
	// The event history's entries for service, setting and ticket records
	// keep what the screens translate: who, as which role, which action or
	// setting and value, which ticket and amount. (Not in Event records.)
	Who    string `json:"who,omitempty"`
	Role   string `json:"role,omitempty"`
	Action string `json:"action,omitempty"`
	Key    string `json:"key,omitempty"`
	Value  string `json:"value,omitempty"`
	Cents  int64  `json:"cents,omitempty"`
	Ref    string `json:"ref,omitempty"`
}

// Config is a change of an operator setting, logged with who made it.
type Config struct {
	At    int64  `json:"at"`
	Who   string `json:"who"`
	Key   string `json:"key"`
	Value string `json:"value"`
	// From says where the change was made: the service menu (""), or the
	// start-up configuration (ConfigCommandLine).
	From string `json:"from,omitempty"`
}

// ConfigCommandLine marks a setting given at start-up.
const ConfigCommandLine = "command_line"

// Service is a technician, operator or inspector action in the service menu.
type Service struct {
	At     int64  `json:"at"`
	Who    string `json:"who"`            // the key holder
	Role   string `json:"role,omitempty"` // the role the PIN was for
	Action string `json:"action"`
	Detail string `json:"detail,omitempty"`
}

// Service actions the fold counts: failed PIN entries lock a role out, and
// the count survives a power cycle.
const (
	ActionLogin     = "login"
	ActionPINFailed = "pin_failed"
	ActionView      = "view" // a service page looked at
	// ActionJackpotLevel: a JackpotLevel record (a level opened), in the
	// event history.
	ActionJackpotLevel = "jackpot_level"
)

// RAMClear zeroes the meters, the only way they ever go back. The log is not
// erased: the records before it remain the evidence.
type RAMClear struct {
	At  int64  `json:"at"`
	Who string `json:"who"`
	Why string `json:"why"`
}

func (MoneyIn) Type() Type          { return TypeMoneyIn }
func (GameStart) Type() Type        { return TypeGameStart }
func (FreeGame) Type() Type         { return TypeFreeGame }
func (GameEnd) Type() Type          { return TypeGameEnd }
func (HandpayPending) Type() Type   { return TypeHandpayPending }
func (HandpayReset) Type() Type     { return TypeHandpayReset }
func (CashOut) Type() Type          { return TypeCashOut }
func (ProgressiveHit) Type() Type   { return TypeProgressiveHit }
func (ProgressiveAward) Type() Type { return TypeProgressiveAward }
func (Event) Type() Type            { return TypeEvent }
func (Config) Type() Type           { return TypeConfig }
func (Service) Type() Type          { return TypeService }
func (RAMClear) Type() Type         { return TypeRAMClear }
func (JackpotLevel) Type() Type     { return TypeJackpotLevel }

// Encode is the payload of a record in the log: JSON with a fixed field
// order, readable by an inspector with any tool.
func Encode(r Record) ([]byte, error) {
	if err := r.validate(); err != nil {
		return nil, err
	}
	return json.Marshal(r)
}

// Decode parses a payload strictly: unknown fields, trailing data and values
// that break a record's own rules are errors.
func Decode(t Type, data []byte) (Record, error) {
	if r, ok := decodeFast(t, data); ok {
		if err := r.validate(); err != nil {
			return nil, fmt.Errorf("%v record: %w", t, err)
		}
		return r, nil
	}
	return decodeJSON(t, data)
}

// decodeJSON is Decode through encoding/json: every record in any form
// encoding/json reads.
func decodeJSON(t Type, data []byte) (Record, error) {
	var r Record
	switch t {
	case TypeMoneyIn:
		r = &MoneyIn{}
	case TypeGameStart:
		r = &GameStart{}
	case TypeFreeGame:
		r = &FreeGame{}
	case TypeGameEnd:
		r = &GameEnd{}
	case TypeHandpayPending:
		r = &HandpayPending{}
	case TypeHandpayReset:
		r = &HandpayReset{}
	case TypeCashOut:
		r = &CashOut{}
	case TypeProgressiveHit:
		r = &ProgressiveHit{}
	case TypeProgressiveAward:
		r = &ProgressiveAward{}
	case TypeEvent:
		r = &Event{}
	case TypeConfig:
		r = &Config{}
	case TypeService:
		r = &Service{}
	case TypeRAMClear:
		r = &RAMClear{}
	case TypeJackpotLevel:
		r = &JackpotLevel{}
	case TypeTicketPrinted:
		r = &TicketPrinted{}
	case TypeTicketVoid:
		r = &TicketVoid{}
	case TypeBillEscrow:
		r = &BillEscrow{}
	case TypeBillReturned:
		r = &BillReturned{}
	case TypeAFTTransfer:
		r = &AFTTransfer{}
	case TypeAFTRegistration:
		r = &AFTRegistration{}
	case TypeTestMode:
		r = &TestMode{}
	case TypeTestGame:
		r = &TestGame{}
	case TypePromoExpired:
		r = &PromoExpired{}
	case TypeAFTReceipt:
		r = &AFTReceipt{}
	case TypeAFTReceiptText:
		r = &AFTReceiptText{}
	default:
		if r = ticketRecord(t); r == nil {
			if r = pokerRecord(t); r == nil {
				return nil, fmt.Errorf("unknown record type %d", t)
			}
		}
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(r); err != nil {
		return nil, fmt.Errorf("%v record: %w", t, err)
	}
	if dec.More() {
		return nil, fmt.Errorf("%v record: data after the record", t)
	}
	// Return the value, not the pointer, so a decoded record equals the one
	// that was encoded.
	var v Record
	switch x := r.(type) {
	case *MoneyIn:
		v = *x
	case *GameStart:
		v = *x
	case *FreeGame:
		v = *x
	case *GameEnd:
		v = *x
	case *HandpayPending:
		v = *x
	case *HandpayReset:
		v = *x
	case *CashOut:
		v = *x
	case *ProgressiveHit:
		v = *x
	case *ProgressiveAward:
		v = *x
	case *Event:
		v = *x
	case *Config:
		v = *x
	case *Service:
		v = *x
	case *RAMClear:
		v = *x
	case *JackpotLevel:
		v = *x
	case *TicketPrinted:
		v = *x
	case *TicketVoid:
		v = *x
	case *BillEscrow:
		v = *x
	case *BillReturned:
		v = *x
	case *AFTTransfer:
		v = *x
	case *AFTRegistration:
		v = *x
	case *TestMode:
		v = *x
	case *TestGame:
		v = *x
	case *PromoExpired:
		v = *x
	case *AFTReceipt:
		v = *x
	case *AFTReceiptText:
		v = *x
	default:
		if v = ticketValue(r); v == nil {
			v = pokerValue(r)
		}
	}
	if err := v.validate(); err != nil {
		return nil, fmt.Errorf("%v record: %w", t, err)
	}
	return v, nil
}

func positive(name string, v int64) error {
	if v <= 0 {
		return fmt.Errorf("%s %d must be positive", name, v)
	}
	return nil
}

func nonNegative(name string, v int64) error {
	if v < 0 {
		return fmt.Errorf("%s %d is negative", name, v)
	}
	return nil
}

func oneOf(name, v string, allowed ...string) error {
	for _, a := range allowed {
		if v == a {
			return nil
		}
	}
	return fmt.Errorf("%s %q is not one of %v", name, v, allowed)
}

func (r MoneyIn) validate() error {
	if err := oneOf("source", r.Source, SourceBill, SourceCoin, SourceTicket, SourceElectronic); err != nil {
		return err
	}
	if r.Source == SourceBill {
		return validBill(r.Cents)
	}
	if r.Order != 0 {
		return fmt.Errorf("%s money in with a bill order", r.Source)
	}
	return positive("cents", r.Cents)
}

func (r GameStart) validate() error {
	switch {
	case r.Game == 0:
		return fmt.Errorf("game number 0")
	case r.Paytable == "":
		return fmt.Errorf("game %d: no paytable", r.Game)
	case r.Kind != "" && r.Kind != GameMakccarat:
		return fmt.Errorf("game %d: unknown game %q", r.Game, r.Kind)
	case r.Kind == "" && r.Hand != nil:
		return fmt.Errorf("game %d: a reel game with a table hand", r.Game)
	case r.Kind == "" && len(r.Stops) == 0:
		return fmt.Errorf("game %d: no stops", r.Game)
	case r.Denom <= 0 || r.BetCredits <= 0:
		return fmt.Errorf("game %d: denomination %d, bet %d credits", r.Game, r.Denom, r.BetCredits)
	case r.BetCents != r.BetCredits*r.Denom:
		return fmt.Errorf("game %d: bet %d cents is not %d credits × %d cents", r.Game, r.BetCents, r.BetCredits, r.Denom)
	case r.FreeAwarded < 0:
		return fmt.Errorf("game %d: %d free games", r.Game, r.FreeAwarded)
	}
	if r.Kind != "" {
		if err := r.validTable(); err != nil {
			return err
		}
	}
	if err := checkLevels(r.Progressives); err != nil {
		return fmt.Errorf("game %d: progressives: %w", r.Game, err)
	}
	if err := checkLevels(r.Mystery); err != nil {
		return fmt.Errorf("game %d: mystery: %w", r.Game, err)
	}
	levels := make([]int, len(r.Contributions))
	for i, c := range r.Contributions {
		if c.Millicents < 0 {
			return fmt.Errorf("game %d: negative contribution %d to jackpot level %d", r.Game, c.Millicents, c.Level)
		}
		levels[i] = c.Level
	}
	if err := checkLevels(levels); err != nil {
		return fmt.Errorf("game %d: contributions: %w", r.Game, err)
	}
	return nonNegative("win_cents", r.WinCents)
}

func (r FreeGame) validate() error {
	if r.Game == 0 || r.Index < 1 || len(r.Stops) == 0 || r.Awarded < 0 {
		return fmt.Errorf("free game %d of game %d: malformed", r.Index, r.Game)
	}
	if err := checkLevels(r.Progressives); err != nil {
		return fmt.Errorf("free game %d of game %d: progressives: %w", r.Index, r.Game, err)
	}
	return nonNegative("win_cents", r.WinCents)
}

func (r GameEnd) validate() error {
	if r.Game == 0 {
		return fmt.Errorf("game number 0")
	}
	return nonNegative("win_cents", r.WinCents)
}

func (r HandpayPending) validate() error {
	if err := oneOf("kind", r.Kind, HandpayWin, HandpayCancelled, HandpayProgressive, HandpayBonus); err != nil {
		return err
	}
	if (r.Kind == HandpayBonus) != aft.ValidID(r.Ref) {
		return fmt.Errorf("%s handpay with AFT transaction %q: only an AFT bonus names one, and it must", r.Kind, r.Ref)
	}
	return positive("cents", r.Cents)
}

func (r HandpayReset) validate() error {
	if r.Who == "" {
		return fmt.Errorf("handpay reset by nobody")
	}
	return positive("cents", r.Cents)
}

func (r CashOut) validate() error {
	if err := oneOf("method", r.Method, OutTicket, OutHopper, OutElectronic); err != nil {
		return err
	}
	if r.Method == OutTicket && r.Ticket == "" {
		return fmt.Errorf("ticket cash-out without a validation number")
	}
	if err := r.validTicket(); err != nil {
		return err
	}
	return positive("cents", r.Cents)
}

func (r ProgressiveHit) validate() error {
	if r.Game == 0 || r.Level < 1 {
		return fmt.Errorf("progressive hit: game %d level %d", r.Game, r.Level)
	}
	return positive("cents", r.Cents)
}

func (r ProgressiveAward) validate() error {
	if r.Game == 0 || r.Level < 1 {
		return fmt.Errorf("progressive award: game %d level %d", r.Game, r.Level)
	}
	if err := nonNegative("target", r.Target); err != nil {
		return err
	}
	return positive("cents", r.Cents)
}

func (r Event) validate() error {
	if err := oneOf("code", r.Code, EventPowerUp, EventPowerDown, EventDoorOpen, EventDoorClose,
		EventTilt, EventTiltClear, EventLogRepaired, EventService, EventRAMClear,
		EventLinkDown, EventLinkUp, EventTicketReprint, EventLinkAwardRefused); err != nil {
		return err
	}
	if r.Code == EventDoorOpen || r.Code == EventDoorClose {
		return oneOf("door", r.Door, DoorMain, DoorLogic, DoorCashbox, DoorBelly, DoorDrop)
	}
	if (r.Code == EventTilt || r.Code == EventTiltClear) && r.Tilt == "" {
		return fmt.Errorf("%s without the tilt it names", r.Code)
	}
	return nil
}

func (r Config) validate() error {
	if r.Who == "" || r.Key == "" {
		return fmt.Errorf("configuration change without who or key")
	}
	if r.From != "" {
		return oneOf("from", r.From, ConfigCommandLine)
	}
	return nil
}

func (r Service) validate() error {
	if r.Who == "" || r.Action == "" {
		return fmt.Errorf("service action without who or action")
	}
	return nil
}

func (r RAMClear) validate() error {
	if r.Who == "" || r.Why == "" {
		return fmt.Errorf("RAM clear needs who and why")
	}
	return nil
}

// MaxJackpotLevel is the highest jackpot level number (SAS has 32 levels).
const MaxJackpotLevel = 32

// checkLevels accepts jackpot level numbers in strictly ascending order.
func checkLevels(levels []int) error {
	for i, lv := range levels {
		if lv < 1 || lv > MaxJackpotLevel {
			return fmt.Errorf("level %d outside 1-%d", lv, MaxJackpotLevel)
		}
		if i > 0 && lv <= levels[i-1] {
			return fmt.Errorf("levels %v are not in ascending order without repeats", levels)
		}
	}
	return nil
}

func (r JackpotLevel) validate() error {
	if r.Who == "" {
		return fmt.Errorf("jackpot level %d opened by nobody", r.Level)
	}
	if err := checkLevels([]int{r.Level}); err != nil {
		return fmt.Errorf("jackpot level: %w", err)
	}
	// The rest (rates, cap, target) is the jackpot package's Config.Validate,
	// applied by the fold: one definition of a valid level.
	return nil
}
