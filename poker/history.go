package poker

import (
	"fmt"
	"slices"

	"github.com/openegm/cabinet/cards"
)

// History keeps, for every player, the records of the last hands he took
// part in, for their replay (SRIJ rule 78: at least the last three).
type History struct {
	// In says whether a record names a player who took part in the hand
	// (nil: the poker rule, a deal or a post). A game whose records differ
	// (poker/chemin) sets its own.
	In   func(Record) bool
	keep int
	cur  []Record
	last map[string][][]Record
}

// NewHistory keeps the last keep hands of each player.
func NewHistory(keep int) *History {
	return &History{keep: keep, last: map[string][][]Record{}}
}

// Add takes every record a table emits; a hand's records are filed when
// its end arrives.
func (h *History) Add(r Record) {
	if r.Hand == 0 {
		return
	}
	if r.Kind == KindVoid { // a void hand is no hand to replay
		h.cur = nil
		return
	}
	h.cur = append(h.cur, r)
	if r.Kind != KindHandEnd {
		return
	}
	var in []string
	for _, x := range h.cur {
		took := x.Kind == KindDeal || x.Kind == KindPost
		if h.In != nil {
			took = h.In(x)
		}
		if took && x.Player != "" && !slices.Contains(in, x.Player) {
			in = append(in, x.Player)
		}
	}
	for _, id := range in {
		l := append(h.last[id], h.cur)
		if len(l) > h.keep {
			l = l[len(l)-h.keep:]
		}
		h.last[id] = l
	}
	h.cur = nil
}

// Last is the player's last hands, oldest first.
func (h *History) Last(player string) [][]Record { return slices.Clone(h.last[player]) }

// Forget drops what is kept of a player (he left the table).
func (h *History) Forget(player string) { delete(h.last, player) }

// Frame is the table as a player saw it after one record of a hand.
type Frame struct {
	Record Record
	Board  []cards.Card
	Pot    int64
	Seats  []FrameSeat
}

// FrameSeat is one seat in a frame.
type FrameSeat struct {
	Seat   int
	Player string
	Stack  int64
	Bet    int64 // in the betting round
	Folded bool
	Cards  []cards.Card // the viewer's own, and any shown at the showdown
}

// Replay rebuilds a hand from its records as the viewer saw it, one frame
// per record: his own cards, the community cards as they were turned and
// the cards shown. It checks the records as it goes: chips are never
// created or lost, and the stacks at the end are those the hand recorded.
func Replay(hand []Record, viewer string) ([]Frame, error) {
	if len(hand) == 0 || hand[0].Kind != KindHandStart {
		return nil, fmt.Errorf("replay: a hand starts with %s", KindHandStart)
	}
	var f Frame
	seat := map[int]*FrameSeat{}
	var frames []Frame
	for i, r := range hand {
		if r.Hand != hand[0].Hand {
			return nil, fmt.Errorf("replay: record %d is of hand %d, not %d", i, r.Hand, hand[0].Hand)
		}
		s := seat[r.Seat]
		if s == nil && r.Seat != 0 && r.Kind != KindHandStart {
			return nil, fmt.Errorf("replay: record %d (%s) names seat %d, not at the table", i, r.Kind, r.Seat)
		}
		switch r.Kind {
		case KindHandStart:
			f.Pot = r.Amount
			for _, st := range r.Stacks {
				f.Seats = append(f.Seats, FrameSeat{Seat: st.Seat, Player: st.Player, Stack: st.Stack})
			}
			for k := range f.Seats {
				seat[f.Seats[k].Seat] = &f.Seats[k]
			}
		case KindDeal:
			if r.Player == viewer {
				s.Cards = slices.Clone(r.Cards)
			}
		case KindPost, KindAct:
			s.Stack -= r.Amount
			f.Pot += r.Amount
			switch r.Action {
			case "ante", "po_ante", "no_estardilho", "no_restardilho":
			case "dead_blind", "fold", "no_ante":
				s.Folded = true
			default:
				s.Bet = r.To
			}
		case KindBoard:
			f.Board = append(f.Board, r.Cards...)
			for k := range f.Seats {
				f.Seats[k].Bet = 0
			}
		case KindReturn:
			s.Stack += r.Amount
			s.Bet = max(0, s.Bet-r.Amount) // a returned ante was no bet of the round
			f.Pot -= r.Amount
		case KindShow:
			s.Cards = slices.Clone(r.Cards)
		case KindAward:
			var paid int64
			for _, sh := range r.Shares {
				w := seat[sh.Seat]
				if w == nil {
					return nil, fmt.Errorf("replay: pot %d paid to seat %d, not at the table", r.Pot, sh.Seat)
				}
				w.Stack += sh.Amount
				paid += sh.Amount
			}
			if paid+r.Rake != r.Amount {
				return nil, fmt.Errorf("replay: pot %d of %d paid %d with rake %d", r.Pot, r.Amount, paid, r.Rake)
			}
			f.Pot -= r.Amount
		case KindCarry:
			f.Pot -= r.Amount
		case KindHandEnd:
			if f.Pot != 0 {
				return nil, fmt.Errorf("replay: hand %d ends with %d in the pot", r.Hand, f.Pot)
			}
			for _, st := range r.Stacks {
				if s := seat[st.Seat]; s != nil && s.Stack != st.Stack {
					return nil, fmt.Errorf("replay: seat %d ends with %d, the hand recorded %d", st.Seat, s.Stack, st.Stack)
				}
			}
		}
		if f.Pot < 0 || (s != nil && s.Stack < 0) {
			return nil, fmt.Errorf("replay: record %d (%s) leaves a pot of %d", i, r.Kind, f.Pot)
		}
		frame := Frame{Record: r, Board: slices.Clone(f.Board), Pot: f.Pot, Seats: make([]FrameSeat, len(f.Seats))}
		for k, fs := range f.Seats {
			fs.Cards = slices.Clone(fs.Cards)
			frame.Seats[k] = fs
		}
		frames = append(frames, frame)
	}
	return frames, nil
}
