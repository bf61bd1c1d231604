package poker

import (
	"fmt"
	"time"

	"github.com/openegm/cabinet/rng"
)

// Core is what every table family keeps the same way, whatever its game:
// the seats with their stacks and the money that came and went, the step's
// time, the decision timer, the records of the step and their history, and
// the stop for good when chips are not conserved. The poker tables embed it
// through Base (which adds the poker hand and its pots); the banked card
// games (poker/chemin) embed it with their own money on the table.
//
// held is always the money a game keeps on the table outside the stacks
// (pots, a bank, bets): the conservation check is Seats.Check(held).
type Core struct {
	Seats    *Seats
	Hist     *History
	Now      time.Time
	HandNo   uint64
	Decision *Decision // who must act and until when; nil: nobody
	fault    error
	out      []Record
}

// NewCore returns the core of a table of n seats keeping the last keep
// hands of each player.
func NewCore(n, keep int) Core {
	return Core{Seats: NewSeats(n), Hist: NewHistory(keep)}
}

// Emit records r (at the step's time when it has none).
func (c *Core) Emit(r Record) {
	if r.At.IsZero() {
		r.At = c.Now
	}
	c.out = append(c.out, r)
	c.Hist.Add(r)
}

// Fault is why the table stopped (nil while it plays).
func (c *Core) Fault() error { return c.fault }

// Stop stops the table for good (an engine found its own state wrong).
func (c *Core) Stop(err error) error {
	if c.fault == nil {
		c.fault = err
	}
	return c.fault
}

// Step steps the table at time `at` with f. If f refuses its input, nothing
// changed and the error says why. Afterwards chips are conserved (held is
// the money the game keeps on the table outside the stacks) or the table
// stops for good (DESIGN rule 3: meters are never wrong, or the machine does
// not play): every later step is refused.
func (c *Core) Step(at time.Time, held func() int64, f func() error) ([]Record, error) {
	if c.fault != nil {
		return nil, fmt.Errorf("the table is stopped: %w", c.fault)
	}
	if at.Before(c.Now) {
		return nil, fmt.Errorf("event at %s is before the table's time %s", at.Format(time.RFC3339Nano), c.Now.Format(time.RFC3339Nano))
	}
	c.Now = at
	c.out = nil
	err := f()
	out := c.out
	c.out = nil
	if err != nil && len(out) > 0 {
		c.fault = fmt.Errorf("a refused event changed the table: %w", err)
		return out, c.fault
	}
	if err != nil {
		return nil, err
	}
	if err := c.Seats.Check(held()); err != nil {
		c.fault = err
		return out, err
	}
	return out, nil
}

// DrawSeat chooses a free seat at random (the seat draw: SRIJ rule 12,
// Portaria rule 13).
func (c *Core) DrawSeat(src rng.Source) (int, error) {
	free := c.Seats.Free()
	if len(free) == 0 {
		return 0, fmt.Errorf("the table is full")
	}
	return free[src.Uint64n(uint64(len(free)))], nil
}

// MaxTableChips bounds the chips at a table (10^13 cents, 100 thousand
// million euros): pots times a rate in basis points stay far inside int64.
const MaxTableChips = 10_000_000_000_000

// fits refuses money that would take a table past MaxTableChips.
func (c *Core) fits(paid, held int64) error {
	if paid <= 0 || paid > MaxTableChips-c.Seats.Stacks()-held {
		return fmt.Errorf("%d cents: a table holds at most %d", paid, int64(MaxTableChips))
	}
	return nil
}

// JoinHeld seats a player who paid `paid` (of which `fee` is the house's)
// at a table that holds `held` outside the stacks.
func (c *Core) JoinHeld(id string, seat int, paid, fee, held int64) error {
	if err := c.fits(paid, held); err != nil {
		return fmt.Errorf("player %q: %w", id, err)
	}
	p, err := c.Seats.Sit(id, seat, paid, fee)
	if err != nil {
		return err
	}
	c.Emit(Record{Kind: KindJoin, Seat: seat, Player: id, Amount: paid, Fee: fee, Stack: p.Stack})
	return nil
}

// RebuyHeld credits a re-buy at a table that holds `held` outside the
// stacks.
func (c *Core) RebuyHeld(p *Player, paid, fee, held int64) error {
	if err := c.fits(paid, held); err != nil {
		return fmt.Errorf("player %q: %w", p.ID, err)
	}
	c.Seats.AddChips(p, paid, fee)
	c.Emit(Record{Kind: KindRebuy, Seat: p.Seat, Player: p.ID, Amount: paid, Fee: fee, Stack: p.Stack})
	return nil
}

// Leave cashes a player out with his session totals.
func (c *Core) Leave(p *Player, reason string) {
	cash := p.Stack
	tot := c.Seats.Remove(p)
	c.Hist.Forget(p.ID)
	c.Emit(Record{Kind: KindLeave, Seat: p.Seat, Player: p.ID, Amount: cash, Reason: reason, Totals: &tot})
}

// Rest sets or clears a player's rest.
func (c *Core) Rest(p *Player, on bool) {
	if p.Resting == on {
		return
	}
	p.Resting = on
	k := KindSitIn
	if on {
		k = KindSitOut
	}
	c.Emit(Record{Kind: k, Seat: p.Seat, Player: p.ID})
}

// Extra gives the player to act his extra time once per decision.
func (c *Core) Extra(p *Player, extra time.Duration) error {
	switch {
	case extra <= 0:
		return fmt.Errorf("this table gives no extra time")
	case c.Decision == nil || c.Decision.Seat != p.Seat:
		return fmt.Errorf("seat %d: not your turn", p.Seat)
	case c.Decision.Banked:
		return fmt.Errorf("seat %d: the extra time was already given for this decision", p.Seat)
	}
	c.Decision.Banked = true
	c.Decision.Deadline = c.Decision.Deadline.Add(extra)
	c.Emit(Record{Kind: KindExtraTime, Hand: c.HandNo, Seat: p.Seat, Player: p.ID})
	return nil
}

// Handlers are an engine's answers to the events; Handle calls them and
// does what every table does the same way (rests, finding the player).
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
	// Closing is the game's answer to its closing hour (nil: the game
	// keeps none and refuses it).
	Closing func(Closing) error
}

// Handle is the step that answers one event with h, to run through Step.
func (c *Core) Handle(ev Event, h Handlers) func() error {
	return func() error {
		switch e := ev.(type) {
		case Join:
			return h.Join(e)
		case Deal:
			return h.Deal()
		case Tick:
			return h.Tick()
		case Resume:
			return h.Resume()
		case Closing:
			if h.Closing == nil {
				return fmt.Errorf("this table keeps no closing hour")
			}
			return h.Closing(e)
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
		p := c.Seats.Find(id)
		if p == nil {
			return fmt.Errorf("player %q is not at the table", id)
		}
		switch e := ev.(type) {
		case Rebuy:
			return h.Rebuy(p, e)
		case Leave:
			return h.Leave(p, e)
		case Rest:
			c.Rest(p, e.On)
			return nil
		case Act:
			return h.Act(p, e.Action)
		}
		return h.Extra(p)
	}
}
