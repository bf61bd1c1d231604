// Package seatmsg is the seat protocol of the poker table server, one
// definition for both ends: the server (poker/tableserver), the cabinet
// that seats a player (cmd/cabinet, its machine and screen) and the tests'
// bots. A seat's owner moves money with MoneyRequest and reads
// TransferResult over the HTTP API; a seat plays over the WebSocket: it
// sends ClientMsg and receives StateMsg, ReplayMsg, LeftMsg and ErrorMsg.
package seatmsg

import (
	"github.com/openegm/cabinet/cards"
	"github.com/openegm/cabinet/poker"
	"github.com/openegm/cabinet/poker/tableledger"
	"github.com/openegm/cabinet/reels"
)

// TableInfo is what anyone may read of a table before sitting down.
type TableInfo struct {
	ID              string              `json:"id"`
	Game            string              `json:"game"`
	Title           reels.Names         `json:"title"`
	Card            map[string][]string `json:"card"` // "pt" and "en": the table card (synthetic poker: rule 20)
	Seats           int                 `json:"seats"`
	Players         int                 `json:"players"`
	MinPlayers      int                 `json:"min_players"`
	RequiredCave    int64               `json:"required_cave"` // what a buy-in must be now, cents
	MinRebuy        int64               `json:"min_rebuy"`
	DecisionSeconds int                 `json:"decision_seconds"`
	ExtraSeconds    int                 `json:"extra_seconds,omitempty"`
	Session         int                 `json:"session"`
	Digest          string              `json:"digest"` // of the definition played
	Status          string              `json:"status"` // waiting, playing, between, over, closing, stopped
}

// StateMsg is what a seat (or a spectator) sees of its table after every
// step: the engine's view for that player, the table card, his session
// totals from the ledger, the hand in play's public records and the last
// hand's.
type StateMsg struct {
	Type     string         `json:"type"` // "state"
	Table    TableInfo      `json:"table"`
	NowMS    int64          `json:"now_ms"`
	Hand     uint64         `json:"hand"`
	Dealer   int            `json:"dealer"` // the button (hold'em) or the hand (synthetic)
	Board    []cards.Card   `json:"board"`
	Pots     []int64        `json:"pots"`
	Seats    []SeatMsg      `json:"seats"`
	ToAct    int            `json:"to_act"`
	Deadline int64          `json:"deadline_ms,omitempty"`
	Options  *OptionsMsg    `json:"options,omitempty"`
	Offer    *OfferMsg      `json:"offer,omitempty"`
	You      *YouMsg        `json:"you,omitempty"`
	Current  []poker.Record `json:"current"` // the hand in play, without the cards nobody was shown
	Last     []poker.Record `json:"last"`    // the last hand, likewise
}

// SeatMsg is one seat.
type SeatMsg struct {
	Seat    int          `json:"seat"`
	Player  string       `json:"player"`
	Stack   int64        `json:"stack"`
	Bet     int64        `json:"bet"`
	InHand  bool         `json:"in_hand"`
	Folded  bool         `json:"folded"`
	AllIn   bool         `json:"all_in"`
	Resting bool         `json:"resting"`
	Cards   []cards.Card `json:"cards,omitempty"`
}

// OptionsMsg are the betting options of the player to act.
type OptionsMsg struct {
	Check   bool  `json:"check"`
	Call    int64 `json:"call"`
	Raise   bool  `json:"raise"`
	MinTo   int64 `json:"min_to"`
	MaxTo   int64 `json:"max_to"`
	Opening bool  `json:"opening"`
	Extra   bool  `json:"extra"` // he may ask for the extra time
}

// OfferMsg is a yes-or-no question (synthetic poker: buy the cards, the
// estardilho).
type OfferMsg struct {
	Accept   string `json:"accept"`
	Decline  string `json:"decline"`
	Amount   int64  `json:"amount"`
	Deadline int64  `json:"deadline_ms"`
}

// YouMsg is the seat's own player.
type YouMsg struct {
	Player  string       `json:"player"`
	Seat    int          `json:"seat"`
	Stack   int64        `json:"stack"`
	Totals  poker.Totals `json:"totals"`
	CashOut string       `json:"cash_out,omitempty"` // a cash-out pending (he leaves after the hand)
}

// ReplayMsg is the replay of a player's last hands (SRIJ rule 78), frame
// by frame as he saw them.
type ReplayMsg struct {
	Type  string       `json:"type"` // "replay"
	Hands []ReplayHand `json:"hands"`
}

// ReplayHand is one hand's frames.
type ReplayHand struct {
	Hand   uint64        `json:"hand"`
	Frames []ReplayFrame `json:"frames"`
}

// ReplayFrame is the table after one record of the hand.
type ReplayFrame struct {
	Record poker.Record   `json:"record"`
	Board  []cards.Card   `json:"board"`
	Pot    int64          `json:"pot"`
	Seats  []ReplaySeatFr `json:"seats"`
}

// ReplaySeatFr is a seat in a frame.
type ReplaySeatFr struct {
	Seat   int          `json:"seat"`
	Player string       `json:"player"`
	Stack  int64        `json:"stack"`
	Bet    int64        `json:"bet"`
	Folded bool         `json:"folded"`
	Cards  []cards.Card `json:"cards,omitempty"`
}

// LeftMsg tells a seat its player left: the cash-out paid and the
// session's totals (SRIJ rule 80).
type LeftMsg struct {
	Type   string       `json:"type"` // "left"
	Amount int64        `json:"amount"`
	Totals poker.Totals `json:"totals"`
}

// ErrorMsg is a refused request.
type ErrorMsg struct {
	Type    string `json:"type"` // "error"
	Message string `json:"message"`
}

// ClientMsg is what a seat or a spectator sends (see Hello).
type ClientMsg struct {
	Type  string `json:"type"`
	Token string `json:"token"`
	Table string `json:"table"`
	Kind  string `json:"kind"`
	To    int64  `json:"to"`
	On    bool   `json:"on"`
}

// MoneyRequest is a buy-in, a re-buy or a cash-out, as a seat's owner (a
// cabinet, a cashier) asks it. TransferID is the owner's: a request
// repeated with the same ID (after a lost answer, a restart of either
// side) gets the recorded answer and moves no money again.
type MoneyRequest struct {
	TransferID string `json:"transfer_id"`
	// Source owns the money: where a buy-in comes from and where the
	// player's cash-out goes back (a re-buy must come from it too).
	Source string `json:"source"`
	Player string `json:"player"`
	// Amount in cents: a buy-in is the cave the table asks now
	// (GET /api/v1/tables/{id}: required_cave); a re-buy at least the
	// minimum re-buy. A cash-out takes the player's whole stack.
	Amount int64 `json:"amount,omitempty"`
	// Seat asks for a seat at a buy-in (0: one is drawn).
	Seat int `json:"seat,omitempty"`
	// AuthorizedBy names the chief of the game who lets a player leave a
	// synthetic-poker partida with his chips (rule 61).
	AuthorizedBy string `json:"authorized_by,omitempty"`
}

// TransferResult is a transfer as the ledger holds it.
type TransferResult struct {
	tableledger.TransferState
	// Status: "done", or "pending" for a cash-out that waits for the end
	// of the hand its player plays.
	Status string `json:"status"`
	// Token is the seat's token (buy-ins): the browser page or the
	// cabinet's screen plays the seat with it.
	Token string `json:"token,omitempty"`
	Seat  int    `json:"seat,omitempty"`
	Stack int64  `json:"stack"`
}
