package poker

import (
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/openegm/cabinet/cards"
)

// KindExtraTime records the extra decision time given to a player (SRIJ
// rule 52).
const KindExtraTime Kind = "extra_time"

// Base is what both poker engines keep the same way: the Core every table
// has (seats, timer, records, history, conservation) and the hand in play
// with its pots. The engines embed it and step through Run.
type Base struct {
	Core
	Hand *Hand // nil between hands
	// Carried is a pot waiting for the next hand (synthetic poker's "pó").
	Carried int64
}

// NewBase returns the base of a table of n seats keeping the last keep
// hands of each player.
func NewBase(n, keep int) Base {
	return Base{Core: NewCore(n, keep)}
}

// InPots is every chip in a pot: the hand's and a carried one.
func (b *Base) InPots() int64 {
	t := b.Carried
	if b.Hand != nil {
		t += b.Hand.PotTotal()
	}
	return t
}

// Run steps the table at time `at` with f (Core.Step, the pots being what
// the table holds outside the stacks); the hand in play takes the time.
func (b *Base) Run(at time.Time, f func() error) ([]Record, error) {
	return b.Core.Step(at, b.InPots, func() error {
		if b.Hand != nil {
			b.Hand.SetTime(at)
		}
		return f()
	})
}

// Join seats a player who paid `paid` (of which `fee` is the house's).
func (b *Base) Join(id string, seat int, paid, fee int64) error {
	return b.JoinHeld(id, seat, paid, fee, b.InPots())
}

// Rebuy credits a re-buy.
func (b *Base) Rebuy(p *Player, paid, fee int64) error {
	return b.RebuyHeld(p, paid, fee, b.InPots())
}

// InHand is the player's part in the hand in play, or nil.
func (b *Base) InHand(p *Player) *InHand {
	if b.Hand == nil {
		return nil
	}
	if i := b.Hand.Index(p.Seat); i >= 0 && b.Hand.Players[i].Player == p {
		return b.Hand.Players[i]
	}
	return nil
}

// EndHand records the end of the hand, cashes out the players who asked to
// leave during it and clears the hand.
func (b *Base) EndHand() {
	b.Hand.Record(Record{Kind: KindHandEnd, Stacks: b.Seats.StackList()})
	b.clearHand()
}

func (b *Base) clearHand() {
	b.Hand, b.Decision = nil, nil
	for _, p := range b.Seats.Players() {
		if p.Leaving {
			b.Leave(p, "left during the hand")
		}
	}
}

// VoidHand voids the hand in play (SRIJ rule 86: a hand a failure of the
// operator's system stopped is void and the money returned): every
// player's stake goes back to his stack and out of his wagers, a carried
// pot waits for the next hand, and the players who asked to leave during
// the hand are cashed out. It reports whether there was a hand to void.
func (b *Base) VoidHand(reason string) bool {
	h := b.Hand
	if h == nil {
		return false
	}
	var back []Share
	for _, p := range h.Players {
		if p.Total > 0 {
			p.Player.Stack += p.Total
			p.Player.Session.Wagered -= p.Total
			back = append(back, Share{Seat: p.Seat, Amount: p.Total})
		}
		p.Bet, p.Total = 0, 0
	}
	b.Carried += h.Carried
	h.Record(Record{Kind: KindVoid, Shares: back, Amount: h.Carried, Reason: reason})
	h.Carried = 0
	b.clearHand()
	return true
}

// Dispatch steps the table with one event (through Run).
func (b *Base) Dispatch(ev Event, h Handlers) ([]Record, error) {
	return b.Run(ev.When(), b.Handle(ev, h))
}

// CheckRebuy refuses a re-buy during a hand the player plays or below the
// minimum, citing the game's rules.
func (b *Base) CheckRebuy(p *Player, amount, min int64, duringHand, minimum string) error {
	switch {
	case b.InHand(p) != nil:
		return fmt.Errorf("player %q: no re-buy during a hand he plays (%s)", p.ID, duringHand)
	case amount < min:
		return fmt.Errorf("player %q: a re-buy of %d is below the minimum %d (%s)", p.ID, amount, min, minimum)
	}
	return nil
}

// TimeoutAction is what the timer does for the player to act: a check if
// he can check, else a fold (SRIJ rule 53).
func (h *Hand) TimeoutAction() Action {
	if i := h.Turn(); i >= 0 && h.Options(i).Check {
		return Action{Kind: Check}
	}
	return Action{Kind: Fold}
}

// OrderedSplit is a split rule for Award: parts in units of unit cents,
// the larger ones (and what is below a unit) to the winners who come first
// by place (lower first).
func OrderedSplit(unit int64, place func(seat int) int) func(net int64, winners []*InHand) []int64 {
	return func(net int64, winners []*InHand) []int64 {
		ordered := slices.Clone(winners)
		slices.SortStableFunc(ordered, func(a, b *InHand) int { return place(a.Seat) - place(b.Seat) })
		parts := SplitInOrder(net, unit, len(ordered))
		out := make([]int64, len(winners))
		for k, w := range ordered {
			out[slices.Index(winners, w)] = parts[k]
		}
		return out
	}
}

// Describe names a shown hand for the records: its category in Portuguese
// and its five cards ("fullen: 8D 8S 9H 9S 8H").
func Describe(c cards.Category, five [5]cards.Card) string {
	s := make([]string, 5)
	for i, x := range five {
		s[i] = x.String()
	}
	return c.Name("pt") + ": " + strings.Join(s, " ")
}
