package holdem

import (
	"fmt"
	"slices"
	"time"

	"github.com/openegm/cabinet/cards"
	"github.com/openegm/cabinet/poker"
	"github.com/openegm/cabinet/rng"
)

// Table is one hold'em table. Not safe for concurrent use: one owner steps
// it.
type Table struct {
	poker.Base
	cfg    Config
	src    rng.Source
	shoe   *cards.Shoe
	ev     cards.Evaluator52
	board  [5]cards.Card // drawn when the hand starts, turned street by street
	street int           // 0 pre-flop, 1 flop, 2 turn, 3 river
	button int           // the seat with the button (0: no hand yet)
	// inPlay: hands are being dealt, so a newcomer's cave is the average
	// of the caves at the table (rule 10); false until the first hand and
	// again once the table is empty.
	inPlay bool
	shown  map[int]bool
}

// New opens a table; its cards come from src, the certified RNG.
func New(cfg Config, src rng.Source) (*Table, error) {
	cfg = cfg.withDefaults()
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	shoe, err := cards.NewShoe(cards.Standard52(), 1)
	if err != nil {
		return nil, err
	}
	return &Table{Base: poker.NewBase(cfg.Seats, cfg.ReplayHands), cfg: cfg, src: src, shoe: shoe,
		ev: cards.NewEvaluator52()}, nil
}

// Config is the table's definition, defaults filled in.
func (t *Table) Config() Config { return t.cfg }

// Button is the seat with the button (0 before the first hand).
func (t *Table) Button() int { return t.button }

// RequiredCave is what a player pays to sit down now: the initial cave
// (rule 9), or at a table in play the average of the caves (rule 10).
func (t *Table) RequiredCave() int64 {
	if !t.inPlay || len(t.Seats.Players()) == 0 {
		return t.cfg.InitialCave
	}
	return t.Seats.Average(t.InPots())
}

// View is what viewer may see.
func (t *Table) View(viewer string) poker.View {
	return t.Base.View(viewer, t.button, true, t.shown)
}

// LastHands are the records of the player's last hands, for their replay.
func (t *Table) LastHands(player string) [][]poker.Record { return t.Hist.Last(player) }

// Step applies one event. A refused event changes nothing and its error
// says why; after a step chips are conserved, or the table stops for good.
func (t *Table) Step(ev poker.Event) ([]poker.Record, error) {
	return t.Dispatch(ev, poker.Handlers{Join: t.join, Rebuy: t.rebuy, Leave: t.leave, Deal: t.deal,
		Act:   func(p *poker.Player, a poker.Action) error { return t.act(p, a, false) },
		Extra: func(p *poker.Player) error { return t.Extra(p, t.cfg.ExtraTime) }, Tick: t.tick, Resume: t.resume})
}

// resume starts the table again after a failure of the operator's system:
// the hand it stopped is void and the stakes returned (rule 86), and the
// hand goes to the player in seat 1 (rule 54: "whenever it resumes").
func (t *Table) resume() error {
	t.VoidHand("the operator's system failed during the hand (rule 86)")
	t.button = 0
	if len(t.Seats.Players()) == 0 {
		t.inPlay = false
	}
	return nil
}

func (t *Table) fee(paid int64) int64 { return paid * t.cfg.FeeBps / 10000 }

func (t *Table) join(e poker.Join) error {
	if want := t.RequiredCave(); e.Amount != want {
		return fmt.Errorf("player %q: the cave at this table is %d cents now (rules 9-10), not %d", e.Player, want, e.Amount)
	}
	if t.Seats.Find(e.Player) != nil {
		return fmt.Errorf("player %q already has a seat at this table (rule 11)", e.Player)
	}
	seat := e.Seat
	if seat == 0 {
		var err error
		if seat, err = t.DrawSeat(t.src); err != nil {
			return err
		}
	}
	return t.Join(e.Player, seat, e.Amount, t.fee(e.Amount))
}

func (t *Table) rebuy(p *poker.Player, e poker.Rebuy) error {
	if err := t.CheckRebuy(p, e.Amount, t.cfg.MinRebuy, "rule 14 b", "rule 17"); err != nil {
		return err
	}
	return t.Rebuy(p, e.Amount, t.fee(e.Amount))
}

// leave: a player may leave at any time with his chips (rule 13). In a
// hand, he folds if he still can act and is cashed out when it ends.
func (t *Table) leave(p *poker.Player, _ poker.Leave) error {
	if ih := t.InHand(p); ih != nil {
		p.Leaving = true
		t.Hand.FoldOut(t.Hand.Index(p.Seat), "leave")
		return t.advance()
	}
	t.Leave(p, "")
	if len(t.Seats.Players()) == 0 {
		t.inPlay = false
	}
	return nil
}

// deal starts a hand (rules 54-62).
func (t *Table) deal() error {
	if t.Hand != nil {
		return fmt.Errorf("hand %d is in play", t.HandNo)
	}
	// Players with at least the minimum bet take part (rule 18); resting
	// ones keep their place and pay their blinds (rule 82).
	var seated []*poker.Player
	dealt := 0
	for _, p := range t.Seats.Players() {
		if p.Stack >= t.cfg.MinBet {
			seated = append(seated, p)
			if !p.Resting {
				dealt++
			}
		}
	}
	if dealt < 2 {
		return fmt.Errorf("a hand needs two players with at least the minimum bet who are not resting (rules 7, 18)")
	}
	t.button = nextSeat(seated, t.button)
	sb := nextSeat(seated, t.button)
	bb := nextSeat(seated, sb)
	var in []*poker.InHand
	for _, p := range seated {
		if !p.Resting || p.Seat == sb || p.Seat == bb {
			in = append(in, &poker.InHand{Seat: p.Seat, Player: p})
		}
	}
	t.HandNo++
	t.inPlay = true
	t.street = 0
	t.shown = map[int]bool{}
	t.Hand = poker.NewHand(t.HandNo, t.Now, in, t.Emit)
	h := t.Hand
	h.Record(poker.Record{Kind: poker.KindHandStart, Seat: t.button, Stacks: t.Seats.StackList()})

	// Two cards each, one at a time, from the small blind on (rules 58-59);
	// the five community cards are drawn now as well, so the whole hand is
	// in the records before anyone sees a card.
	t.shoe.Shuffle()
	h.Deal(dealOrder(in, sb), t.draw, t.board[:])

	h.NewRound(t.limits())
	for _, blind := range []struct {
		seat   int
		amount int64
		name   string
	}{{sb, t.cfg.MinBet / 2, "small_blind"}, {bb, t.cfg.MinBet, "big_blind"}} {
		i := h.Index(blind.seat)
		if h.Players[i].Player.Resting {
			h.PostDead(i, blind.amount)
		} else {
			h.Post(i, blind.amount, 0, blind.name, false)
		}
	}
	h.SetLevel(t.cfg.MinBet, true) // a short or dead big blind still makes the full blind the bet (rule 62)
	h.Begin(h.Index(bb) + 1)       // the first player left of the big blind (rule 61)
	return t.advance()
}

func (t *Table) draw() cards.Card {
	c, err := t.shoe.Draw(t.src)
	if err != nil {
		panic(err) // 52 cards always cover 10 players and the board
	}
	return c
}

// nextSeat is the first seat of the players after seat, clockwise (the
// seat numbers grow clockwise, rule 4 a).
func nextSeat(players []*poker.Player, seat int) int {
	for _, p := range players {
		if p.Seat > seat {
			return p.Seat
		}
	}
	return players[0].Seat
}

// dealOrder lists the dealt players from the first seat at or after from.
func dealOrder(in []*poker.InHand, from int) []*poker.InHand {
	var live []*poker.InHand
	for _, p := range in {
		if !p.Player.Resting {
			live = append(live, p)
		}
	}
	k := slices.IndexFunc(live, func(p *poker.InHand) bool { return p.Seat >= from })
	if k < 0 {
		k = 0
	}
	return append(live[k:len(live):len(live)], live[:k]...)
}

// limits are the bounds of a round's bets (rules 26-28, 45).
func (t *Table) limits() poker.Limits {
	l := poker.Limits{MinOpen: t.cfg.MinBet, MinRaise: t.cfg.MinBet, Cap: t.cfg.RaiseCap}
	switch t.cfg.Structure {
	case PotLimit:
		l.PotDivisor = 1
	case HalfPotLimit:
		l.PotDivisor = 2
	case FixedLimit:
		bet := t.cfg.SmallBet
		if t.street >= 2 {
			bet = t.cfg.BigBet
		}
		l.MinOpen, l.MinRaise, l.Fixed = bet, bet, true
	}
	return l
}

func (t *Table) act(p *poker.Player, a poker.Action, timeout bool) error {
	if t.InHand(p) == nil {
		return fmt.Errorf("player %q is not in a hand", p.ID)
	}
	if err := t.Hand.Apply(t.Hand.Index(p.Seat), a, timeout); err != nil {
		return err
	}
	t.Decision = nil // the next decision gets its own time, even the same player's on a new street
	return t.advance()
}

// tick takes the decision whose time is over: a check if the player can
// check, else a fold (rule 53).
func (t *Table) tick() error {
	if t.Hand == nil || !t.Decision.Expired(t.Now) {
		return nil
	}
	return t.act(t.Hand.Players[t.Hand.Turn()].Player, t.Hand.TimeoutAction(), true)
}

// advance moves the hand on until a player must act or it is over.
func (t *Table) advance() error {
	h := t.Hand
	for {
		if h.Live() < 2 {
			return t.finish(false)
		}
		if i := h.Turn(); i >= 0 {
			if t.Decision == nil || t.Decision.Seat != h.Players[i].Seat {
				t.Decision = &poker.Decision{Seat: h.Players[i].Seat, Deadline: t.Now.Add(t.cfg.DecisionTime)}
			}
			return nil
		}
		h.ReturnUncalled()
		if t.street == 3 {
			return t.finish(true)
		}
		t.street++
		switch t.street { // flop, turn, river (rules 63-68)
		case 1:
			h.Reveal(t.board[:3]...)
		case 2:
			h.Reveal(t.board[3])
		case 3:
			h.Reveal(t.board[4])
		}
		h.NewRound(t.limits())
		h.Begin(h.Index(nextSeat(t.inHandPlayers(), t.button))) // left of the button (rules 64, 66, 68)
	}
}

func (t *Table) inHandPlayers() []*poker.Player {
	var ps []*poker.Player
	for _, p := range t.Hand.Players {
		ps = append(ps, p.Player)
	}
	return ps
}

// fromButton orders players from the first seat left of the button,
// clockwise: the showdown's order (rule 69) and the odd cents' (docs).
func (t *Table) fromButton(ps []*poker.InHand) []*poker.InHand {
	out := slices.Clone(ps)
	slices.SortStableFunc(out, func(a, b *poker.InHand) int {
		return t.clockwise(a.Seat) - t.clockwise(b.Seat)
	})
	return out
}

func (t *Table) clockwise(seat int) int {
	return (seat - t.button - 1 + 2*t.cfg.Seats) % t.cfg.Seats
}

// ShowdownValue is a player's value at the showdown: the best five of his
// seven cards, and for two hands of five single cards of equal values, the
// one with three cards of one suit wins (rule 39).
func ShowdownValue(ev cards.Evaluator52, hole []cards.Card, board [5]cards.Card) uint64 {
	h := [7]cards.Card{hole[0], hole[1], board[0], board[1], board[2], board[3], board[4]}
	v := ev.Eval7(&h)
	bonus := uint64(0)
	if cards.Holdem52().Category(v) == cards.HighCard && threeOfASuit(h) {
		bonus = 1
	}
	return uint64(v)<<1 | bonus
}

// threeOfASuit reports whether the five highest of seven cards of different
// ranks hold three or more of one suit.
func threeOfASuit(h [7]cards.Card) bool {
	s := slices.Clone(h[:])
	slices.SortFunc(s, func(a, b cards.Card) int { return aceHigh(b.Rank) - aceHigh(a.Rank) })
	var bySuit [4]int
	for _, c := range s[:5] {
		bySuit[c.Suit]++
		if bySuit[c.Suit] >= 3 {
			return true
		}
	}
	return false
}

func aceHigh(r cards.Rank) int {
	if r == cards.Ace {
		return 14
	}
	return int(r)
}

// finish pays the pots and ends the hand: at a showdown, the live players'
// cards are turned from the left of the button (rules 69-76).
func (t *Table) finish(showdown bool) error {
	h := t.Hand
	h.ReturnUncalled()
	var value func(p *poker.InHand) uint64
	if showdown {
		for _, p := range t.fromButton(h.Players) {
			if !p.Live() {
				continue
			}
			v, five := cards.Best52(append(slices.Clone(p.Hole), t.board[:]...))
			t.shown[p.Seat] = true
			h.Record(poker.Record{Kind: poker.KindShow, Seat: p.Seat, Player: p.Player.ID, Cards: p.Hole,
				Value: poker.Describe(cards.Holdem52().Category(v), five)})
		}
		value = func(p *poker.InHand) uint64 { return ShowdownValue(t.ev, p.Hole, t.board) }
	}
	raked, err := h.Award(value, poker.RakeRate(t.cfg.RakeBps), poker.OrderedSplit(1, t.clockwise))
	if err != nil {
		return t.Stop(err)
	}
	t.Seats.Rake += raked
	t.EndHand()
	if len(t.Seats.Players()) == 0 {
		t.inPlay = false
	}
	return nil
}

// Deadline is when the player to act must have decided (zero: nobody).
func (t *Table) Deadline() time.Time {
	if t.Decision == nil {
		return time.Time{}
	}
	return t.Decision.Deadline
}
