// Package seatmsg is the seat protocol of the poker table server, one
// definition for both ends: the server (poker/tableserver), the cabinet
// that seats a player (cmd/cabinet, its machine and screen) and the tests'
// bots. A seat's owner moves money with MoneyRequest and reads
// TransferResult over the HTTP API; a seat plays over the WebSocket: it
// sends ClientMsg and receives StateMsg, ReplayMsg, LeftMsg and ErrorMsg.
//
// # Chemin de fer
//
// A chemin de fer table (TableInfo.Game "chemin_de_fer", poker/chemin)
// speaks the same protocol over the same WebSocket (hello with the seat's
// token or the table's ID, then act/rest/leave/replay), with these
// differences:
//
// State. Every StateMsg carries Chemin (nil at a poker table): the
// engine's view for that viewer (chemin.View). Hand is the coup's number,
// Dealer the banker's seat, Board and Pots are empty, Seats[i].Bet is the
// seat's stake in the coup and Seats[i].Cards is never set (the cards are
// in Chemin.PontoCards and Chemin.BankerCards, as far as the viewer may
// see them: his own hand as ponto, the ponto's third card to all, the
// banker's once turned after the ponto has spoken, to the banker too
// (rules 64, 67), both at the end). Options and Offer are
// nil. ToAct is the seat asked (0: nobody, or an auction, where every
// bidder in Chemin.Bidders answers at once) and Deadline its timer, in
// play between coups too (the bank to state, continue/garage/pass, a
// passed hand offered, the auction). Chemin.Choices are the viewer's
// decisions now, each with its amount's range where it has one:
// To from Min to Max by Step (Max 0: no amount). Chemin.Says are the
// dealer's announcements (rule 96) of the coup in play and since the last
// one, oldest first, each with its Portuguese and English text; Key is a
// chemin.Message: among them banco_priority («Bancô com prioridade», rule
// 57), banco_seul («Bancô seul, feito à mesa», rule 56), banco_mesa_made,
// offer (each offer of the auction as its sealed round closes, before
// adjudicated), hand_skips («A mão salta», rule 92), cards_passed (a
// ponto does not play the hand, the cards go to the next, rule 101), and
// at the closing hour (rule 107) plays_on, next_is_last, last_coup
// («Último golpe») and partida_over.
//
// Actions. A seat sends {"type": "act", "kind": K, "to": N} with K one of
// the chemin.ActionKind values: bank (to: the bank, Min..Max),
// bank_associated (to: the bank, even, half from the associate who
// offered), refuse, associate, banco, banco_suivi, banco_mesa (to: at
// least half the bank; 0 stakes half), bet (to: the stake), no_bet,
// play_cards and pass_cards (phase cards: the ponto the cards would go to,
// outside a bancô, plays them or says he does not know how to play, «não
// sei jogar», and they go to the next by stake then seat, his stake still
// in the coup; the last of them takes them unasked, rule 101), draw,
// stand (in a bancô both the ponto and the banker are asked on any total,
// a false draw allowed, rule 70), continue, garage, reduce, halve, pass,
// take (a passed hand at its level, or by its passer when nobody took it,
// rule 80), decline, bid (to: the offer), bid_associated (to: an offer,
// even, made with another bidder, half each, rule 87), join_bid (to: the
// seat whose associated offer he joins; Min = Max = that seat), no_bid,
// and cagnotte_outside (the banker pays the cagnotte from his stack, the
// whole win staying in the bank, rule 47: offered with the bank to state
// and after a coup, it does not answer that decision). A kind that is not
// among the seat's Choices is
// refused with an ErrorMsg and changes nothing. "extra" is refused (no
// extra time at chemin de fer). The timer decides for a seat that does
// not answer: no bank, no bet, the ponto plays the cards offered to him,
// the ponto plays his rule and stands on 5,
// the banker plays the tableau, the winning banker continues, a passed
// hand is declined, no bid.
//
// Replay. ReplayMsg's frames of a coup carry Chemin (the bank, the stakes
// and the cards the player saw after each record); Board is empty and Pot
// the stakes on the table.
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
	Chemin   *CheminMsg     `json:"chemin,omitempty"`
}

// CheminMsg is a chemin de fer table as the viewer sees it (chemin.View).
type CheminMsg struct {
	Phase       string       `json:"phase"` // chemin.Phase: idle, stake, banco_round, bet_round, cards, ponto, banker, after_coup, offered, auction, forced, closed
	Banker      int          `json:"banker"`
	Associate   int          `json:"associate,omitempty"`
	Bank        int64        `json:"bank"`
	Garage      int64        `json:"garage"`
	Wins        int          `json:"wins"`  // the banker's winning coups with this hand
	Ponto       int          `json:"ponto"` // the seat the cards went to (0: not yet)
	PontoCards  []cards.Card `json:"ponto_cards"`
	BankerCards []cards.Card `json:"banker_cards"`
	PontoTotal  int          `json:"ponto_total"`  // of the ponto's hand when the viewer sees it whole (-1: he does not; his third card alone has no total)
	BankerTotal int          `json:"banker_total"` // likewise
	Stakes      []StakeMsg   `json:"stakes"`       // in priority order
	Level       int64        `json:"level,omitempty"`
	Bidders     []int        `json:"bidders,omitempty"` // the auction's bidders who have not answered yet
	Shoe        string       `json:"shoe,omitempty"`    // the digest of the sabot in play
	CardsLeft   int          `json:"cards_left"`
	LastCoup    bool         `json:"last_coup"`
	// The closing hour, once come (Unix ms; 0: not yet); the coup in
	// play, or the next, is the partida's last («Último golpe»); play
	// goes on past the hour to the sabot's end (rule 107). Phase "closed":
	// the partida is over and the table closed.
	ClosingMS int64       `json:"closing_ms,omitempty"`
	FinalCoup bool        `json:"final_coup,omitempty"`
	PlaysOn   bool        `json:"plays_on,omitempty"`
	Choices   []ChoiceMsg `json:"choices"` // the viewer's
	Says      []SayMsg    `json:"says"`
}

// StakeMsg is a ponto's stake in the coup.
type StakeMsg struct {
	Seat   int   `json:"seat"`
	Amount int64 `json:"amount"`
}

// ChoiceMsg is one decision the viewer may send as {"type": "act", "kind":
// Kind, "to": N}; N runs from Min to Max by Step (Max 0: no amount).
type ChoiceMsg struct {
	Kind string `json:"kind"`
	Min  int64  `json:"min,omitempty"`
	Max  int64  `json:"max,omitempty"`
	Step int64  `json:"step,omitempty"`
}

// SayMsg is one of the dealer's announcements (rule 96): its key
// (chemin.Message), what it names, and its words.
type SayMsg struct {
	Key    string `json:"key"`
	Coup   uint64 `json:"coup,omitempty"`
	Amount int64  `json:"amount,omitempty"`
	Value  string `json:"value,omitempty"` // totals it names: "7 5", ponto then banker
	PT     string `json:"pt"`
	EN     string `json:"en"`
	AtMS   int64  `json:"at_ms"`
}

// CheminFrame is a chemin de fer coup's table after one record.
type CheminFrame struct {
	Bank        int64        `json:"bank"`
	Stakes      []StakeMsg   `json:"stakes"`
	PontoCards  []cards.Card `json:"ponto_cards"`
	BankerCards []cards.Card `json:"banker_cards"`
	Say         *SayMsg      `json:"say,omitempty"` // the record is an announcement
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
	Chemin *CheminFrame   `json:"chemin,omitempty"`
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
