package tableledger

import (
	"encoding/json"
	"fmt"
	"time"

	"github.com/openegm/cabinet/poker"
)

// Type is a ledger record's type in the log.
type Type uint16

const (
	TypeOpen  Type = 1 // a table's session opens with its approved definition
	TypeStep  Type = 2 // one step of a table: the event, the cards drawn, the transfer, the engine's records
	TypeClose Type = 3 // an empty table's session closes
	TypeEvent Type = 4 // the server's own events: start-up, stop, what start-up found
)

func (t Type) String() string {
	switch t {
	case TypeOpen:
		return "open"
	case TypeStep:
		return "step"
	case TypeClose:
		return "close"
	case TypeEvent:
		return "event"
	}
	return fmt.Sprintf("type %d", uint16(t))
}

// Record is one ledger record.
type Record interface{ Type() Type }

// SessionOpen opens a session of a table: the definition it plays, as it was
// signed (the file's bytes and signature, so the inspector needs nothing
// else to check it).
type SessionOpen struct {
	Table      string    `json:"table"`
	Session    int       `json:"session"` // 1, 2, … for each table
	At         time.Time `json:"at"`
	Definition []byte    `json:"definition"`
	Signature  []byte    `json:"signature"`
	Digest     string    `json:"digest"` // BLAKE2b-256 of Definition, hex
	KeyID      string    `json:"key_id"` // the certification key that signed it
}

// Step is one step of a table's engine: the event it took, every value the
// certified RNG gave it during the step (so the step can be replayed
// without drawing again: DESIGN rule 2), the money transfer the event
// carries, and the records the engine emitted. A step is committed before
// anything of it is shown.
type Step struct {
	Table   string `json:"table"`
	Session int    `json:"session"`
	// Opened is the log sequence of the session's Open record: where a
	// replay of the session starts.
	Opened   uint64         `json:"opened"`
	Event    Event          `json:"event"`
	Draws    []uint64       `json:"draws,omitempty"`
	Transfer *Transfer      `json:"transfer,omitempty"`
	Records  []poker.Record `json:"records"`
}

// SessionClose closes the session of a table that is empty: no player and no
// chip on it.
type SessionClose struct {
	Table   string    `json:"table"`
	Session int       `json:"session"`
	At      time.Time `json:"at"`
	Reason  string    `json:"reason"`
}

// ServerEvent is something the server records about itself.
type ServerEvent struct {
	At     time.Time `json:"at"`
	Code   string    `json:"code"`
	Detail string    `json:"detail,omitempty"`
}

// Server event codes.
const (
	EventStart       = "start"        // the server started (Detail: program, tables)
	EventStop        = "stop"         // an orderly stop
	EventLogRepaired = "log_repaired" // a torn last record was cut at start-up
	EventEvidence    = "evidence"     // start-up found a snapshot or witness that does not match the log
	EventTableFault  = "table_fault"  // a table stopped (its engine refused after emitting records)
)

func (SessionOpen) Type() Type  { return TypeOpen }
func (Step) Type() Type         { return TypeStep }
func (SessionClose) Type() Type { return TypeClose }
func (ServerEvent) Type() Type  { return TypeEvent }

// Transfer kinds.
const (
	BuyIn   = "buy_in"
	Rebuy   = "rebuy"
	CashOut = "cash_out"
)

// Transfer is money moving between a table and its owner outside it (a
// cabinet's credits, a cashier's account), identified by the ID the owner
// gave it: it is applied exactly once, and a request repeated with the same
// ID gets the recorded answer.
type Transfer struct {
	ID   string `json:"id"`
	Kind string `json:"kind"`
	// Source is the owner of the money: where a buy-in came from, where
	// a cash-out goes (always the source of the player's buy-in).
	Source string `json:"source"`
	Player string `json:"player"`
	// Amount is paid in for a buy-in or re-buy; a cash-out's amount is the
	// player's stack when he leaves, in the leave record.
	Amount int64 `json:"amount,omitempty"`
	// AuthorizedBy names the chief of the game who let a player leave a
	// synthetic-poker partida with his chips (rule 61).
	AuthorizedBy string `json:"authorized_by,omitempty"`
}

// Event is an engine event as logged.
type Event struct {
	Kind       string        `json:"kind"`
	At         time.Time     `json:"at"`
	Player     string        `json:"player,omitempty"`
	Seat       int           `json:"seat,omitempty"`
	Amount     int64         `json:"amount,omitempty"`
	Action     *poker.Action `json:"action,omitempty"`
	On         bool          `json:"on,omitempty"`
	Authorized bool          `json:"authorized,omitempty"`
	// Hour is a closing event's closing hour (rule 107).
	Hour time.Time `json:"hour,omitzero"`
}

// EventOf is the logged form of an engine event.
func EventOf(ev poker.Event) Event {
	switch e := ev.(type) {
	case poker.Join:
		return Event{Kind: "join", At: e.At, Player: e.Player, Seat: e.Seat, Amount: e.Amount}
	case poker.Rebuy:
		return Event{Kind: "rebuy", At: e.At, Player: e.Player, Amount: e.Amount}
	case poker.Leave:
		return Event{Kind: "leave", At: e.At, Player: e.Player, Authorized: e.Authorized}
	case poker.Rest:
		return Event{Kind: "rest", At: e.At, Player: e.Player, On: e.On}
	case poker.Deal:
		return Event{Kind: "deal", At: e.At}
	case poker.Act:
		a := e.Action
		return Event{Kind: "act", At: e.At, Player: e.Player, Action: &a}
	case poker.Extra:
		return Event{Kind: "extra", At: e.At, Player: e.Player}
	case poker.Tick:
		return Event{Kind: "tick", At: e.At}
	case poker.Resume:
		return Event{Kind: "resume", At: e.At}
	case poker.Closing:
		return Event{Kind: "closing", At: e.At, Hour: e.Hour}
	}
	return Event{Kind: fmt.Sprintf("%T", ev), At: ev.When()}
}

// Poker is the engine event a logged event stands for.
func (e Event) Poker() (poker.Event, error) {
	switch e.Kind {
	case "join":
		return poker.Join{At: e.At, Player: e.Player, Seat: e.Seat, Amount: e.Amount}, nil
	case "rebuy":
		return poker.Rebuy{At: e.At, Player: e.Player, Amount: e.Amount}, nil
	case "leave":
		return poker.Leave{At: e.At, Player: e.Player, Authorized: e.Authorized}, nil
	case "rest":
		return poker.Rest{At: e.At, Player: e.Player, On: e.On}, nil
	case "deal":
		return poker.Deal{At: e.At}, nil
	case "act":
		if e.Action == nil {
			return nil, fmt.Errorf("an act without an action")
		}
		return poker.Act{At: e.At, Player: e.Player, Action: *e.Action}, nil
	case "extra":
		return poker.Extra{At: e.At, Player: e.Player}, nil
	case "tick":
		return poker.Tick{At: e.At}, nil
	case "resume":
		return poker.Resume{At: e.At}, nil
	case "closing":
		return poker.Closing{At: e.At, Hour: e.Hour}, nil
	}
	return nil, fmt.Errorf("unknown event kind %q", e.Kind)
}

// Encode is a record's payload in the log.
func Encode(r Record) ([]byte, error) { return json.Marshal(r) }

// Decode reads a logged record of type t.
func Decode(t Type, data []byte) (Record, error) {
	var r Record
	var err error
	switch t {
	case TypeOpen:
		var o SessionOpen
		err = json.Unmarshal(data, &o)
		r = o
	case TypeStep:
		var s Step
		err = json.Unmarshal(data, &s)
		r = s
	case TypeClose:
		var c SessionClose
		err = json.Unmarshal(data, &c)
		r = c
	case TypeEvent:
		var e ServerEvent
		err = json.Unmarshal(data, &e)
		r = e
	default:
		return nil, fmt.Errorf("unknown record type %d", uint16(t))
	}
	if err != nil {
		return nil, fmt.Errorf("%s record: %w", t, err)
	}
	return r, nil
}
