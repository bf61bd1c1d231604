package poker

import (
	"fmt"
	"time"
)

// Player is someone seated at a table.
type Player struct {
	ID      string
	Seat    int   // 1-based
	Stack   int64 // chips in front of him, not in a pot
	Resting bool  // away from the table, keeping his seat and chips
	Leaving bool  // leaves when the hand in play ends
	Session Totals
}

// Seats are a table's seats and the money that came and went through them.
type Seats struct {
	seats []*Player // by seat-1; nil when free

	PaidIn  int64 // caves and re-buys, as paid
	PaidOut int64 // cash-outs
	Fees    int64 // buy-in fees kept by the house
	Rake    int64 // the house's part of pots
}

// NewSeats returns n free seats.
func NewSeats(n int) *Seats { return &Seats{seats: make([]*Player, n)} }

// N is the number of seats.
func (s *Seats) N() int { return len(s.seats) }

// At is the player in seat (1-based), or nil.
func (s *Seats) At(seat int) *Player {
	if seat < 1 || seat > len(s.seats) {
		return nil
	}
	return s.seats[seat-1]
}

// Find is the seated player with that ID, or nil.
func (s *Seats) Find(id string) *Player {
	for _, p := range s.seats {
		if p != nil && p.ID == id {
			return p
		}
	}
	return nil
}

// Players are the seated players in seat order.
func (s *Seats) Players() []*Player {
	var ps []*Player
	for _, p := range s.seats {
		if p != nil {
			ps = append(ps, p)
		}
	}
	return ps
}

// Free lists the free seats.
func (s *Seats) Free() []int {
	var f []int
	for i, p := range s.seats {
		if p == nil {
			f = append(f, i+1)
		}
	}
	return f
}

// Stacks is every chip in front of the players.
func (s *Seats) Stacks() int64 {
	var t int64
	for _, p := range s.seats {
		if p != nil {
			t += p.Stack
		}
	}
	return t
}

// Sit seats a player who paid `paid` cents of which `fee` is the house's:
// his stack is the rest.
func (s *Seats) Sit(id string, seat int, paid, fee int64) (*Player, error) {
	switch {
	case id == "":
		return nil, fmt.Errorf("a player needs an ID")
	case s.Find(id) != nil:
		return nil, fmt.Errorf("player %q already has a seat at this table (one seat a player)", id)
	case seat < 1 || seat > len(s.seats):
		return nil, fmt.Errorf("seat %d: the table has seats 1 to %d", seat, len(s.seats))
	case s.seats[seat-1] != nil:
		return nil, fmt.Errorf("seat %d is taken", seat)
	case paid <= fee || fee < 0:
		return nil, fmt.Errorf("player %q: a cave of %d with a fee of %d", id, paid, fee)
	}
	p := &Player{ID: id, Seat: seat}
	s.seats[seat-1] = p
	s.AddChips(p, paid, fee)
	return p, nil
}

// AddChips credits a cave or re-buy.
func (s *Seats) AddChips(p *Player, paid, fee int64) {
	p.Stack += paid - fee
	p.Session.BoughtIn += paid
	p.Session.Fees += fee
	s.PaidIn += paid
	s.Fees += fee
}

// Remove cashes a player out and frees his seat; it returns his final
// totals.
func (s *Seats) Remove(p *Player) Totals {
	p.Session.CashedOut += p.Stack
	s.PaidOut += p.Stack
	p.Stack = 0
	s.seats[p.Seat-1] = nil
	return p.Session
}

// Check is the chip-conservation invariant: every cent paid in is a stack,
// in a pot (inPots, with any carried pot), the house's (fees, rake) or paid
// out.
func (s *Seats) Check(inPots int64) error {
	held := s.Stacks() + inPots + s.Fees + s.Rake + s.PaidOut
	for _, p := range s.seats {
		if p != nil && p.Stack < 0 {
			return fmt.Errorf("chip conservation: seat %d has a stack of %d", p.Seat, p.Stack)
		}
	}
	if held != s.PaidIn || inPots < 0 {
		return fmt.Errorf("chip conservation: paid in %d, held %d (stacks %d, pots %d, fees %d, rake %d, paid out %d)",
			s.PaidIn, held, s.Stacks(), inPots, s.Fees, s.Rake, s.PaidOut)
	}
	return nil
}

// Average is the chips on the table (stacks and inPots) divided among the
// seated players, rounded down to the cent: the cave of a player who joins
// a table in play (SRIJ rule 10; Portaria rule 17). 0 with nobody seated.
func (s *Seats) Average(inPots int64) int64 {
	n := int64(len(s.Players()))
	if n == 0 {
		return 0
	}
	return (s.Stacks() + inPots) / n
}

// StackList is every seated player's stack, for hand records.
func (s *Seats) StackList() []SeatStack {
	var l []SeatStack
	for _, p := range s.Players() {
		l = append(l, SeatStack{Seat: p.Seat, Player: p.ID, Stack: p.Stack})
	}
	return l
}

// Decision is who must act and until when (the decision timer: SRIJ rules
// 51-53).
type Decision struct {
	Seat     int
	Deadline time.Time
	Banked   bool // the extra time was given
}

// Expired reports whether the decision's time is over at `at`.
func (d *Decision) Expired(at time.Time) bool {
	return d != nil && !d.Deadline.IsZero() && !at.Before(d.Deadline)
}
