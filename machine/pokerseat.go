package machine

import (
	"time"

	"github.com/openegm/cabinet/poker/seatmsg"
)

// A seat at a poker table of the casino's table server (cmd/tablesrv,
// docs/tablesrv.md). The table is not a game of this machine: the cabinet
// moves the player's credits to the table (buy-in) and back (cash-out),
// each move recorded in this ledger and in the server's under one transfer
// ID, and shows the table as the seat sees it. The hands are dealt, bet and
// paid by the server.

// GamePoker is the menu's entry for the poker seat (View.Games).
const GamePoker = "poker"

// PokerSeatView is the seat as the screen shows it.
type PokerSeatView struct {
	// Tables are the tables the cabinet may seat a player at, as the table
	// server last described them (the table card, the cave asked now).
	Tables []seatmsg.TableInfo `json:"tables"`
	// Table is the table the player is at or buying into ("" when none).
	Table string `json:"table,omitempty"`
	// Status: "" (not seated), "buying_in" (credits recorded as leaving,
	// the server not yet answered), "seated", "cashing_out" (asked, the
	// stack not yet back), "refused" (the last transfer was refused:
	// Refused says why; the credits are back on the meter).
	Status  string `json:"status"`
	Refused string `json:"refused,omitempty"`
	// AtTable is what this machine's ledger holds as at the table, cents:
	// the buy-ins and re-buys not yet cashed out.
	AtTable int64 `json:"at_table"`
	// State is the table as the seat last saw it (nil until the first).
	State *seatmsg.StateMsg `json:"state,omitempty"`
}

// PokerBuyIn asks to seat the player at Table with Cents of his credits
// (the cave the table asks now: seatmsg.TableInfo.RequiredCave).
type PokerBuyIn struct {
	At    time.Time
	Table string
	Cents int64
}

// PokerAct is the seated player's decision (seatmsg.ClientMsg's kinds:
// fold, check, call, raise with To, all_in; ante, no_ante, estardilho,
// no_estardilho, restardilho, no_restardilho; and "extra", "rest",
// "replay").
type PokerAct struct {
	At   time.Time
	Kind string
	To   int64
	On   bool // "rest": sit out (true) or come back (false)
}

// PokerLeave asks to leave the table: the whole stack back to the credit
// meter (after the hand he plays ends).
type PokerLeave struct{ At time.Time }

func (e PokerBuyIn) at() time.Time { return e.At }
func (e PokerAct) at() time.Time   { return e.At }
func (e PokerLeave) at() time.Time { return e.At }
