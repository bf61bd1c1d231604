package poker

import (
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/openegm/cabinet/cards"
	"github.com/openegm/cabinet/rng"
)

// KindExtraTime records the extra decision time given to a player (SRIJ
// rule 52).
const KindExtraTime Kind = "extra_time"

// Base is what both table engines keep the same way: the seats, the hand in
// play, the decision timer, the records of the step and the history. The
// engines embed it and step through Run.
type Base struct {
	Seats    *Seats
	Hist     *History
	Hand     *Hand // nil between hands
	Now      time.Time
	HandNo   uint64
	Decision *Decision // who must act and until when; nil: nobody
	// Carried is a pot waiting for the next hand (synthetic poker's "pó").
	Carried int64
	fault   error
	out     []Record
}

// NewBase returns the base of a table of n seats keeping the last keep
// hands of each player.
func NewBase(n, keep int) Base {
	return Base{Seats: NewSeats(n), Hist: NewHistory(keep)}
}

// Emit records r (at the step's time when it has none).
func (b *Base) Emit(r Record) {
	if r.At.IsZero() {
		r.At = b.Now
	}
	b.out = append(b.out, r)
	b.Hist.Add(r)
}

// InPots is every chip in a pot: the hand's and a carried one.
func (b *Base) InPots() int64 {
	t := b.Carried
	if b.Hand != nil {
		t += b.Hand.PotTotal()
	}
	return t
}

// Fault is why the table stopped (nil while it plays).
func (b *Base) Fault() error { return b.fault }

// Run steps the table at time `at` with f. If f refuses its input, nothing
// changed and the error says why. Afterwards chips are conserved or the
// table stops for good (DESIGN rule 3: meters are never wrong, or the
// machine does not play): every later step is refused.
func (b *Base) Run(at time.Time, f func() error) ([]Record, error) {
	if b.fault != nil {
		return nil, fmt.Errorf("the table is stopped: %w", b.fault)
	}
	if at.Before(b.Now) {
		return nil, fmt.Errorf("event at %s is before the table's time %s", at.Format(time.RFC3339Nano), b.Now.Format(time.RFC3339Nano))
	}
	b.Now = at
	if b.Hand != nil {
		b.Hand.SetTime(at)
	}
	b.out = nil
	err := f()
	out := b.out
	b.out = nil
	if err != nil && len(out) > 0 {
		b.fault = fmt.Errorf("a refused event changed the table: %w", err)
		return out, b.fault
	}
	if err != nil {
		return nil, err
	}
	if err := b.Seats.Check(b.InPots()); err != nil {
		b.fault = err
		return out, err
	}
	return out, nil
}

// Stop stops the table for good (an engine found its own state wrong).
func (b *Base) Stop(err error) error {
	if b.fault == nil {
		b.fault = err
	}
	return b.fault
}

// DrawSeat chooses a free seat at random (the seat draw: SRIJ rule 12,
// Portaria rule 13).
func (b *Base) DrawSeat(src rng.Source) (int, error) {
	free := b.Seats.Free()
	if len(free) == 0 {
		return 0, fmt.Errorf("the table is full")
	}
	return free[src.Uint64n(uint64(len(free)))], nil
}

// MaxTableChips bounds the chips at a table (10^13 cents, 100 thousand
// million euros): pots times a rate in basis points stay far inside int64.
const MaxTableChips = 10_000_000_000_000

// fits refuses money that would take a table past MaxTableChips.
func (b *Base) fits(paid int64) error {
	if paid <= 0 || paid > MaxTableChips-b.Seats.Stacks()-b.InPots() {
		return fmt.Errorf("%d cents: a table holds at most %d", paid, int64(MaxTableChips))
	}
	return nil
}

// Join seats a player who paid `paid` (of which `fee` is the house's).
func (b *Base) Join(id string, seat int, paid, fee int64) error {
	if err := b.fits(paid); err != nil {
		return fmt.Errorf("player %q: %w", id, err)
	}
	p, err := b.Seats.Sit(id, seat, paid, fee)
	if err != nil {
		return err
	}
	b.Emit(Record{Kind: KindJoin, Seat: seat, Player: id, Amount: paid, Fee: fee, Stack: p.Stack})
	return nil
}

// Rebuy credits a re-buy.
func (b *Base) Rebuy(p *Player, paid, fee int64) error {
	if err := b.fits(paid); err != nil {
		return fmt.Errorf("player %q: %w", p.ID, err)
	}
	b.Seats.AddChips(p, paid, fee)
	b.Emit(Record{Kind: KindRebuy, Seat: p.Seat, Player: p.ID, Amount: paid, Fee: fee, Stack: p.Stack})
	return nil
}

// Leave cashes a player out with his session totals.
func (b *Base) Leave(p *Player, reason string) {
	cash := p.Stack
	tot := b.Seats.Remove(p)
	b.Hist.Forget(p.ID)
	b.Emit(Record{Kind: KindLeave, Seat: p.Seat, Player: p.ID, Amount: cash, Reason: reason, Totals: &tot})
}

// Rest sets or clears a player's rest.
func (b *Base) Rest(p *Player, on bool) {
	if p.Resting == on {
		return
	}
	p.Resting = on
	k := KindSitIn
	if on {
		k = KindSitOut
	}
	b.Emit(Record{Kind: k, Seat: p.Seat, Player: p.ID})
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

// Extra gives the player to act his extra time once per decision.
func (b *Base) Extra(p *Player, extra time.Duration) error {
	switch {
	case extra <= 0:
		return fmt.Errorf("this table gives no extra time")
	case b.Decision == nil || b.Decision.Seat != p.Seat:
		return fmt.Errorf("seat %d: not your turn", p.Seat)
	case b.Decision.Banked:
		return fmt.Errorf("seat %d: the extra time was already given for this decision", p.Seat)
	}
	b.Decision.Banked = true
	b.Decision.Deadline = b.Decision.Deadline.Add(extra)
	b.Emit(Record{Kind: KindExtraTime, Hand: b.HandNo, Seat: p.Seat, Player: p.ID})
	return nil
}

// Handlers are an engine's answers to the events; Dispatch calls them and
// does what both games do the same way (rests, the step's checks).
type Handlers struct {
	Join  func(Join) error
	Rebuy func(p *Player, e Rebuy) error
	Leave func(p *Player, e Leave) error
	Deal  func() error
	Act   func(p *Player, a Action) error
	Extra func(p *Player) error
	Tick  func() error
	// Resume is the game's answer to a table starting again after a
	// failure (a hand in play is void: VoidHand).
	Resume func() error
}

// Dispatch steps the table with one event (through Run).
func (b *Base) Dispatch(ev Event, h Handlers) ([]Record, error) {
	return b.Run(ev.When(), func() error {
		switch e := ev.(type) {
		case Join:
			return h.Join(e)
		case Deal:
			return h.Deal()
		case Tick:
			return h.Tick()
		case Resume:
			return h.Resume()
		}
		var id string
		switch e := ev.(type) {
		case Rebuy:
			id = e.Player
		case Leave:
			id = e.Player
		case Rest:
			id = e.Player
		case Act:
			id = e.Player
		case Extra:
			id = e.Player
		default:
			return fmt.Errorf("unknown event %T", ev)
		}
		p := b.Seats.Find(id)
		if p == nil {
			return fmt.Errorf("player %q is not at the table", id)
		}
		switch e := ev.(type) {
		case Rebuy:
			return h.Rebuy(p, e)
		case Leave:
			return h.Leave(p, e)
		case Rest:
			b.Rest(p, e.On)
			return nil
		case Act:
			return h.Act(p, e.Action)
		}
		return h.Extra(p)
	})
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
