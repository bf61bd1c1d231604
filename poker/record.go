package poker

import (
	"time"

	"github.com/openegm/cabinet/cards"
)

// Kind is what a record says happened.
type Kind string

const (
	KindJoin      Kind = "join"       // a player sat down with a cave (Amount paid, Fee kept, Stack)
	KindRebuy     Kind = "rebuy"      // a re-buy between hands (Amount paid, Fee kept)
	KindLeave     Kind = "leave"      // a player left, cashing out Amount, with his session Totals
	KindSitOut    Kind = "sit_out"    // a player rests (keeps his seat and chips)
	KindSitIn     Kind = "sit_in"     // back from a rest
	KindHandStart Kind = "hand_start" // a hand begins: Seat is the button (hold'em) or the hand (synthetic)
	KindDeal      Kind = "deal"       // a player's hole cards (Cards), dealt in Seat order
	KindDeck      Kind = "deck"       // the community cards drawn at the start (Cards), not yet shown
	KindPost      Kind = "post"       // a forced or optional blind bet: Action names it
	KindAct       Kind = "act"        // a player's action; Amount is what it added to the pot
	KindBoard     Kind = "board"      // community cards turned (Cards)
	KindReturn    Kind = "return"     // an uncalled bet given back (Amount)
	KindShow      Kind = "show"       // a player's cards at the showdown (Cards, Value)
	KindAward     Kind = "award"      // a pot paid: Pot, Amount, Rake, Shares
	KindCarry     Kind = "carry"      // a pot carried to the next hand (synthetic "pó", Amount)
	KindHandEnd   Kind = "hand_end"   // the hand is over: Stacks after it
	KindEnd       Kind = "end"        // the session or "partida" is over
	// KindVoid: a hand a failure stopped is void (SRIJ rule 86): Shares
	// are the stakes given back, Amount a carried pot that waits for the
	// next hand again.
	KindVoid Kind = "void"
	// KindPoAward: a carried pó paid to the last player at the table as
	// he leaves (Amount, Rake, Shares; synthetic poker, see
	// synthetic.Table's leave): outside any hand.
	KindPoAward Kind = "po_award"
)

// Record is one thing that happened at a table. Records are the table's
// account: a hand's records, in order, rebuild it (Replay).
type Record struct {
	Kind   Kind      `json:"kind"`
	At     time.Time `json:"at"`
	Hand   uint64    `json:"hand,omitempty"`
	Seat   int       `json:"seat,omitempty"`
	Player string    `json:"player,omitempty"`
	// Action names a post ("small_blind", "big_blind", "ante", "po_ante",
	// "estardilho", "restardilho", "dead_blind") or an act ("fold",
	// "check", "call", "bet", "raise").
	Action string `json:"action,omitempty"`
	// Amount is the cents the record moves: paid in, put in the pot, given
	// back, paid out.
	Amount int64 `json:"amount,omitempty"`
	// To is the seat's bet in the betting round after an act or post.
	To      int64        `json:"to,omitempty"`
	Fee     int64        `json:"fee,omitempty"`
	Stack   int64        `json:"stack,omitempty"`
	AllIn   bool         `json:"all_in,omitempty"`
	Timeout bool         `json:"timeout,omitempty"`
	Reason  string       `json:"reason,omitempty"`
	Cards   []cards.Card `json:"cards,omitempty"`
	Value   string       `json:"value,omitempty"`
	Pot     int          `json:"pot,omitempty"`
	Rake    int64        `json:"rake,omitempty"`
	Shares  []Share      `json:"shares,omitempty"`
	Stacks  []SeatStack  `json:"stacks,omitempty"`
	Totals  *Totals      `json:"totals,omitempty"`
}

// Share is one winner's part of a pot.
type Share struct {
	Seat   int   `json:"seat"`
	Amount int64 `json:"amount"`
}

// SeatStack is a seat's chips at the start or end of a hand.
type SeatStack struct {
	Seat   int    `json:"seat"`
	Player string `json:"player"`
	Stack  int64  `json:"stack"`
}

// Totals are a player's figures for his session at the table (SRIJ draft,
// rule 80: the totals bet and the profit or loss).
type Totals struct {
	BoughtIn  int64 `json:"bought_in"`  // paid for caves and re-buys
	Fees      int64 `json:"fees"`       // buy-in fees kept by the house
	Wagered   int64 `json:"wagered"`    // put in pots (uncalled bets given back are not wagered)
	Won       int64 `json:"won"`        // paid to him from pots
	Hands     int   `json:"hands"`      // hands he was dealt
	CashedOut int64 `json:"cashed_out"` // taken from the table
}

// Net is the session's profit (negative: loss) once the player has left.
func (t Totals) Net() int64 { return t.CashedOut - t.BoughtIn }
