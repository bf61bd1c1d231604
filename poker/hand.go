package poker

import (
	"fmt"
	"time"

	"github.com/openegm/cabinet/cards"
)

// InHand is a player's part in one hand.
type InHand struct {
	Seat   int
	Player *Player
	Hole   []cards.Card
	Bet    int64 // chips put in during the current betting round
	Total  int64 // chips put in during the hand (Bet included)
	Folded bool
	AllIn  bool
	// Dead: the player rests and his blind was taken from his cave (SRIJ
	// rule 82); he was not dealt and cannot win.
	Dead bool

	acted      bool  // has acted in this round
	actedLevel int64 // the round's level after his last action
}

// Live reports whether the player can still win a pot.
func (p *InHand) Live() bool { return !p.Folded && !p.Dead }

// CanAct reports whether the player can still be asked to act.
func (p *InHand) CanAct() bool { return p.Live() && !p.AllIn }

// Limits are a betting round's bounds, set by the game and its structure.
type Limits struct {
	MinOpen  int64 // the least first bet of the round
	MinRaise int64 // the least increment of a raise that counts as full (reopens the betting)
	// Fixed: bets and raises are exactly MinOpen (to open) and MinRaise
	// (to raise); a player with less may still go all-in.
	Fixed bool
	// PotDivisor limits a bet or raise to the pot (1) or half of it (2):
	// the amount to call plus the pot after that call, divided. 0: no limit
	// but the player's chips.
	PotDivisor int64
	// Cap is the most full bets and raises in the round (0: no cap).
	Cap int
	// MayOpen, if set, says who may make the first bet of the round.
	MayOpen func(p *InHand) bool
}

// Hand is a hand in play: its players in seat order, the betting round and
// the chips committed. The game engines drive it; it emits records.
type Hand struct {
	Number  uint64
	Players []*InHand // in increasing seat order
	Board   []cards.Card
	// Carried is a pot carried into this hand (synthetic poker's "pó"); it
	// belongs to the first pot.
	Carried int64

	at     time.Time
	level  int64 // what a player must have in this round to stay
	raises int   // full bets and raises this round (the cap counts them)
	// LastBettor is the index of the player who made the round's highest
	// full bet or raise (-1: none): synthetic poker starts the next round
	// with him (rule 45).
	LastBettor int
	turn       int // the index of the player to act, -1: nobody
	lim        Limits
	emit       func(Record)
}

// NewHand starts a hand with the players in seat order.
func NewHand(number uint64, at time.Time, players []*InHand, emit func(Record)) *Hand {
	return &Hand{Number: number, Players: players, at: at, turn: -1, LastBettor: -1, emit: emit}
}

// SetTime is the time the next records carry.
func (h *Hand) SetTime(at time.Time) { h.at = at }

// Record emits a record of this hand, at the hand's time.
func (h *Hand) Record(r Record) {
	r.At, r.Hand = h.at, h.Number
	h.emit(r)
}

// Index is the index of the player in seat, or -1.
func (h *Hand) Index(seat int) int {
	for i, p := range h.Players {
		if p.Seat == seat {
			return i
		}
	}
	return -1
}

// Level is what a player must have bet in this round to stay in.
func (h *Hand) Level() int64 { return h.level }

// Turn is the index of the player to act, or -1.
func (h *Hand) Turn() int { return h.turn }

// PotTotal is every chip in the pot, this round's bets and the carry too.
func (h *Hand) PotTotal() int64 {
	t := h.Carried
	for _, p := range h.Players {
		t += p.Total
	}
	return t
}

// Live counts the players who can still win.
func (h *Hand) Live() int {
	n := 0
	for _, p := range h.Players {
		if p.Live() {
			n++
		}
	}
	return n
}

// Actors counts the players who can still act (live and not all-in).
func (h *Hand) Actors() int {
	n := 0
	for _, p := range h.Players {
		if p.CanAct() {
			n++
		}
	}
	return n
}

// NewRound starts a betting round with no bets.
func (h *Hand) NewRound(lim Limits) {
	h.lim = lim
	h.level, h.raises, h.turn, h.LastBettor = 0, 0, -1, -1
	for _, p := range h.Players {
		p.Bet, p.acted, p.actedLevel = 0, false, 0
	}
}

// put moves up to amount from a player's stack into the pot and says how
// much moved.
func (h *Hand) put(p *InHand, amount int64) int64 {
	amount = min(amount, p.Player.Stack)
	p.Player.Stack -= amount
	p.Total += amount
	p.Player.Session.Wagered += amount
	if p.Player.Stack == 0 {
		p.AllIn = true
	}
	return amount
}

// Post puts a blind bet in this round (all the player has if he has less);
// asBet counts it as the round's opening bet (a big blind, an estardilho).
// The round's level becomes at least level (a short big blind still sets
// the full blind to call).
func (h *Hand) Post(i int, amount, level int64, action string, asBet bool) {
	p := h.Players[i]
	put := h.put(p, amount)
	p.Bet += put
	h.level = max(h.level, level, p.Bet)
	if asBet {
		h.raises++
		h.LastBettor = i
	}
	h.Record(Record{Kind: KindPost, Seat: p.Seat, Player: p.Player.ID, Action: action, Amount: put, To: p.Bet, AllIn: p.AllIn})
}

// PostDead takes a resting player's blind as dead money (he is not dealt).
// It counts as a bet of the round for what others' bets match: a call of a
// dead big blind is a call, not a bet to give back.
func (h *Hand) PostDead(i int, amount int64) {
	p := h.Players[i]
	put := h.put(p, amount)
	p.Bet += put
	p.Dead = true
	h.Record(Record{Kind: KindPost, Seat: p.Seat, Player: p.Player.ID, Action: "dead_blind", Amount: put, AllIn: p.AllIn})
}

// Ante puts a player's ante in the pot, outside any round's bets.
func (h *Hand) Ante(i int, amount int64, action string) {
	p := h.Players[i]
	put := h.put(p, amount)
	h.Record(Record{Kind: KindPost, Seat: p.Seat, Player: p.Player.ID, Action: action, Amount: put, AllIn: p.AllIn})
}

// SetLevel raises the round's level to at least l (a dead big blind still
// sets the blind to call); asBet counts it as the opening bet.
func (h *Hand) SetLevel(l int64, asBet bool) {
	h.level = max(h.level, l)
	if asBet {
		h.raises++
	}
}

// Begin gives the turn to the first player from index first who has to
// act; it reports false when nobody has (the round is over at once).
func (h *Hand) Begin(first int) bool {
	h.turn = h.next(first, true)
	return h.turn >= 0
}

// needs reports whether a player has to act in this round.
func (h *Hand) needs(p *InHand) bool {
	if !p.CanAct() || h.Live() < 2 {
		return false
	}
	if p.Bet < h.level {
		return true
	}
	// Level matched: he still acts if he has not yet, unless nobody else
	// can answer a bet.
	return !p.acted && h.Actors() > 1
}

// next is the index of the first player from i (inclusive) or after it who
// has to act, or -1.
func (h *Hand) next(i int, inclusive bool) int {
	n := len(h.Players)
	start := 1
	if inclusive {
		start = 0
	}
	for k := start; k < n+start; k++ {
		j := ((i+k)%n + n) % n
		if h.needs(h.Players[j]) {
			return j
		}
	}
	return -1
}

// Options are what the player to act may do.
type Options struct {
	Seat  int
	Check bool  // nothing to call
	Call  int64 // the chips a call adds (all he has if less); 0 when he can check
	// Raise: he may bet or raise, to a round total between MinTo and MaxTo
	// (equal when only an all-in for less or a fixed amount is possible).
	Raise        bool
	MinTo, MaxTo int64
	Opening      bool // a bet (nothing to raise) rather than a raise
}

// Options lists the legal actions of player i (who must be the one to act).
func (h *Hand) Options(i int) Options {
	p := h.Players[i]
	o := Options{Seat: p.Seat, Check: p.Bet >= h.level}
	if !o.Check {
		o.Call = min(h.level-p.Bet, p.Player.Stack)
	}
	allIn := p.Bet + p.Player.Stack
	o.Opening = h.level == 0
	otherActor := false
	for j, q := range h.Players {
		if j != i && q.CanAct() {
			otherActor = true
		}
	}
	switch {
	case allIn <= h.level, !otherActor:
		return o
	case h.lim.Cap > 0 && h.raises >= h.lim.Cap:
		return o
	case p.acted && h.level-p.actedLevel < h.lim.MinRaise:
		return o // only a short all-in since he acted: the betting is not reopened for him
	case o.Opening && h.lim.MayOpen != nil && !h.lim.MayOpen(p):
		return o
	}
	o.Raise = true
	if o.Opening {
		o.MinTo = h.lim.MinOpen
	} else {
		o.MinTo = h.level + h.lim.MinRaise
	}
	o.MaxTo = allIn
	switch {
	case h.lim.Fixed:
		o.MaxTo = o.MinTo
	case h.lim.PotDivisor > 0:
		call := h.level - p.Bet
		o.MaxTo = h.level + (h.PotTotal()+call)/h.lim.PotDivisor
	}
	switch {
	case allIn < o.MinTo:
		o.MinTo, o.MaxTo = allIn, allIn // all in for less than a full bet or raise
	case o.MaxTo < o.MinTo:
		o.MaxTo = o.MinTo // a full raise is always allowed
	default:
		o.MaxTo = min(o.MaxTo, allIn)
	}
	return o
}

// Action is what a player does when it is his turn.
type Action struct {
	Kind ActionKind `json:"kind"`
	// To is the player's total bet in the round after a bet or raise.
	To int64 `json:"to,omitempty"`
}

// ActionKind names an action.
type ActionKind string

const (
	Fold  ActionKind = "fold"
	Check ActionKind = "check"
	Call  ActionKind = "call"
	Raise ActionKind = "raise" // a bet when nothing is bet yet; To is the new total
	AllIn ActionKind = "all_in"
)

// Apply carries out player i's action. A refused action changes nothing and
// says why. timeout marks an action the decision timer took.
func (h *Hand) Apply(i int, a Action, timeout bool) error {
	if i != h.turn || i < 0 {
		return fmt.Errorf("hand %d: it is not seat %d's turn", h.Number, h.Players[max(i, 0)].Seat)
	}
	p := h.Players[i]
	o := h.Options(i)
	r := Record{Kind: KindAct, Seat: p.Seat, Player: p.Player.ID, Timeout: timeout}
	if a.Kind == AllIn {
		if p.Bet+p.Player.Stack <= h.level || !o.Raise {
			a = Action{Kind: Call}
			if o.Check {
				a = Action{Kind: Check}
			}
		} else {
			a = Action{Kind: Raise, To: o.MaxTo}
		}
	}
	switch a.Kind {
	case Fold:
		p.Folded = true
		r.Action = "fold"
	case Check:
		if !o.Check {
			return fmt.Errorf("hand %d seat %d: cannot check, %d to call", h.Number, p.Seat, o.Call)
		}
		r.Action = "check"
	case Call:
		if o.Check {
			return fmt.Errorf("hand %d seat %d: nothing to call (check)", h.Number, p.Seat)
		}
		r.Amount = h.put(p, o.Call)
		p.Bet += r.Amount
		r.Action = "call"
	case Raise:
		if !o.Raise {
			return fmt.Errorf("hand %d seat %d: may not bet or raise here", h.Number, p.Seat)
		}
		if a.To < o.MinTo || a.To > o.MaxTo {
			return fmt.Errorf("hand %d seat %d: a bet to %d is outside %d..%d", h.Number, p.Seat, a.To, o.MinTo, o.MaxTo)
		}
		full := a.To-h.level >= h.lim.MinRaise
		if o.Opening {
			full = a.To >= h.lim.MinOpen
			r.Action = "bet"
		} else {
			r.Action = "raise"
		}
		r.Amount = h.put(p, a.To-p.Bet)
		p.Bet = a.To
		if full {
			h.raises++
			h.LastBettor = i
		}
		h.level = a.To
	default:
		return fmt.Errorf("hand %d seat %d: unknown action %q", h.Number, p.Seat, a.Kind)
	}
	p.acted, p.actedLevel = true, h.level
	r.To, r.AllIn = p.Bet, p.AllIn
	h.Record(r)
	h.turn = h.next(i, false)
	return nil
}

// FoldOut folds a player out of turn (he left the table); the turn passes
// on if it was his.
func (h *Hand) FoldOut(i int, reason string) {
	p := h.Players[i]
	if !p.CanAct() {
		return
	}
	p.Folded = true
	h.Record(Record{Kind: KindAct, Seat: p.Seat, Player: p.Player.ID, Action: "fold", Reason: reason})
	if h.turn == i || (h.turn >= 0 && !h.needs(h.Players[h.turn])) {
		h.turn = h.next(i, false)
	}
}

// ReturnUncalled gives back the part of the round's highest bet that nobody
// matched (everyone else folded or is all-in for less). A dead blind above
// every other bet is not given back: it stays in the pot.
func (h *Hand) ReturnUncalled() {
	top, second := -1, int64(0)
	for i, p := range h.Players {
		if top < 0 || p.Bet > h.Players[top].Bet {
			if top >= 0 {
				second = max(second, h.Players[top].Bet)
			}
			top = i
		} else {
			second = max(second, p.Bet)
		}
	}
	if top < 0 {
		return
	}
	p := h.Players[top]
	if excess := p.Bet - second; excess > 0 && p.Live() {
		p.Bet -= excess
		p.Total -= excess
		p.Player.Stack += excess
		p.Player.Session.Wagered -= excess
		p.AllIn = p.Player.Stack == 0
		h.Record(Record{Kind: KindReturn, Seat: p.Seat, Player: p.Player.ID, Amount: excess})
	}
}

// Reveal turns community cards.
func (h *Hand) Reveal(cs ...cards.Card) {
	h.Board = append(h.Board, cs...)
	h.Record(Record{Kind: KindBoard, Cards: cs})
}

// Deal gives two hole cards to each player of order, one at a time, then
// draws the community cards into board, and records the hole cards and the
// board (not yet shown): the whole hand is in the records before anyone
// sees a card.
func (h *Hand) Deal(order []*InHand, draw func() cards.Card, board []cards.Card) {
	for _, p := range order {
		p.Hole = make([]cards.Card, 0, 2)
	}
	for range 2 {
		for _, p := range order {
			p.Hole = append(p.Hole, draw())
		}
	}
	for i := range board {
		board[i] = draw()
	}
	for _, p := range order {
		p.Player.Session.Hands++
		h.Record(Record{Kind: KindDeal, Seat: p.Seat, Player: p.Player.ID, Cards: p.Hole})
	}
	h.Record(Record{Kind: KindDeck, Cards: board})
}
