package poker

import (
	"time"

	"github.com/openegm/cabinet/cards"
)

// View is what one player (or a spectator: viewer "") may see of a table.
type View struct {
	Hand   uint64
	Dealer int // the button (hold'em) or the hand (synthetic)
	Board  []cards.Card
	Pots   []int64 // the main pot first; a carried pot is in the main pot
	Seats  []SeatView
	// ToAct is the seat whose turn it is (0: nobody), with the viewer's
	// options when it is his turn.
	ToAct    int
	Options  *Options
	Deadline time.Time
	// Offer is a yes-or-no question the game asks the viewer outside the
	// betting (synthetic poker: buying the cards, the estardilho).
	Offer *Offer
}

// Offer is a yes-or-no decision: the viewer answers with an Act of kind
// Accept or Decline.
type Offer struct {
	Accept, Decline ActionKind
	Amount          int64 // what accepting puts in the pot
	Deadline        time.Time
}

// SeatView is one seat.
type SeatView struct {
	Seat    int
	Player  string
	Stack   int64
	Bet     int64 // in this betting round
	InHand  bool
	Folded  bool
	AllIn   bool
	Resting bool
	Cards   []cards.Card // the viewer's own (once he may see them) and any shown
}

// View builds the view of the table for viewer; showCards says whether a
// player may see his hole cards yet, shown which seats showed theirs.
func (b *Base) View(viewer string, dealer int, showCards bool, shown map[int]bool) View {
	v := View{Hand: b.HandNo, Dealer: dealer}
	if b.Hand != nil {
		v.Board = append(v.Board, b.Hand.Board...)
		for _, p := range b.Hand.Pots() {
			v.Pots = append(v.Pots, p.Amount)
		}
	} else if b.Carried > 0 {
		v.Pots = []int64{b.Carried}
	}
	for _, p := range b.Seats.Players() {
		sv := SeatView{Seat: p.Seat, Player: p.ID, Stack: p.Stack, Resting: p.Resting}
		if ih := b.InHand(p); ih != nil {
			sv.InHand, sv.Bet, sv.Folded, sv.AllIn = true, ih.Bet, ih.Folded || ih.Dead, ih.AllIn
			if (p.ID == viewer && showCards) || shown[p.Seat] {
				sv.Cards = append(sv.Cards, ih.Hole...)
			}
		}
		v.Seats = append(v.Seats, sv)
	}
	if b.Decision != nil {
		v.ToAct, v.Deadline = b.Decision.Seat, b.Decision.Deadline
		if p := b.Seats.At(b.Decision.Seat); p != nil && p.ID == viewer && b.Hand != nil {
			if i := b.Hand.Turn(); i >= 0 && b.Hand.Players[i].Player == p {
				o := b.Hand.Options(i)
				v.Options = &o
			}
		}
	}
	return v
}
