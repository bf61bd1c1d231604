package synthetic

import (
	"fmt"
	"slices"
	"time"

	"github.com/openegm/cabinet/cards"
	"github.com/openegm/cabinet/poker"
	"github.com/openegm/cabinet/rng"
)

// The decisions outside the betting, as Act kinds.
const (
	Ante          poker.ActionKind = "ante" // the minimum bet that buys the two cards (rules 38, 42)
	NoAnte        poker.ActionKind = "no_ante"
	Estardilho    poker.ActionKind = "estardilho" // rule 43
	NoEstardilho  poker.ActionKind = "no_estardilho"
	Restardilho   poker.ActionKind = "restardilho"
	NoRestardilho poker.ActionKind = "no_restardilho"
)

// estardilhoMult: an estardilho is twice the minimum bet, a restardilho
// twice that (docs/poker.md, rule 43).
const estardilhoMult = 2

// EndOfPartida is the reason of the end record of a partida.
const EndOfPartida = "partida"

type phase int

const (
	between   phase = iota // no hand in play
	antes                  // players say whether they buy the cards
	straddles              // the estardilho and restardilho are offered
	betting
	over // the partida is over
)

// Table is one synthetic-poker table for one partida. Not safe for
// concurrent use: one owner steps it.
type Table struct {
	poker.Base
	cfg   Config
	src   rng.Source
	shoe  *cards.Shoe
	ev    cards.Evaluator28
	phase phase
	// hand is the seat with the hand ("a mão", rule 40); 0 before the
	// first hand.
	hand  int
	board [5]cards.Card
	// turned is how many community cards are up (each opens a round).
	turned int
	// po: this hand follows a pó (rule 49): everyone antes, and the round
	// after the first card opens with at least the antes' sum.
	po, nextPo bool
	poMin      int64
	// The ante phase: the seats asked and their answers.
	asked    map[int]bool
	answered map[int]bool
	// The straddle phase: the index asked (Decision has his deadline) and
	// how many were placed.
	straddler, straddled, lastStraddler int
	start                               time.Time
	lastHolder                          int  // the seat that had the hand when the partida's time ran out
	due                                 bool // the last round is complete: the partida ends once no pó is pending
	shown                               map[int]bool
}

// New opens a table for a partida; cards come from src, the certified RNG.
func New(cfg Config, src rng.Source) (*Table, error) {
	cfg = cfg.withDefaults()
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	shoe, err := cards.NewShoe(cards.Portuguese28(), 1)
	if err != nil {
		return nil, err
	}
	return &Table{Base: poker.NewBase(Seats, cfg.ReplayHands), cfg: cfg, src: src, shoe: shoe,
		ev: cards.NewEvaluator28()}, nil
}

// Config is the table's definition.
func (t *Table) Config() Config { return t.cfg }

// Card is the table card (rule 20).
func (t *Table) Card() Card {
	return Card{Number: t.cfg.Number, InitialCave: t.cfg.InitialCave, MinBet: t.cfg.MinBet, MinRebuy: t.cfg.MinRebuy}
}

// Holder is the seat with the hand (0 before the first hand).
func (t *Table) Holder() int { return t.hand }

// Over reports whether the partida is over.
func (t *Table) Over() bool { return t.phase == over }

// RequiredCave is what a player pays to sit down: the initial cave before
// the partida starts, then the chips on the table divided by the players
// (rule 17).
func (t *Table) RequiredCave() int64 {
	if t.start.IsZero() || len(t.Seats.Players()) == 0 {
		return t.cfg.InitialCave
	}
	return t.Seats.Average(t.InPots())
}

// LastHands are the player's last hands, for their replay.
func (t *Table) LastHands(player string) [][]poker.Record { return t.Hist.Last(player) }

// View is what viewer may see: his cards only once the dealer says "abrir
// jogo", after the estardilho (rule 58).
func (t *Table) View(viewer string) poker.View {
	v := t.Base.View(viewer, t.hand, t.phase == betting || t.phase == between, t.shown)
	p := t.Seats.Find(viewer)
	switch {
	case p == nil:
	case t.phase == antes && t.asked[p.Seat] && !t.answered[p.Seat]:
		v.Offer = &poker.Offer{Accept: Ante, Decline: NoAnte, Amount: t.cfg.MinBet, Deadline: t.Decision.Deadline}
		v.ToAct = 0
	case t.phase == straddles && t.Hand.Players[t.straddler].Player == p:
		accept, decline := Estardilho, NoEstardilho
		if t.straddled == 1 {
			accept, decline = Restardilho, NoRestardilho
		}
		v.Offer = &poker.Offer{Accept: accept, Decline: decline, Amount: t.straddleAmount(), Deadline: t.Decision.Deadline}
	}
	if t.phase == antes || t.phase == straddles {
		v.Options = nil
		if v.Offer == nil {
			v.ToAct = 0
		}
	}
	return v
}

// Step applies one event. A refused event changes nothing and its error
// says why; after a step chips are conserved, or the table stops for good.
func (t *Table) Step(ev poker.Event) ([]poker.Record, error) {
	return t.Dispatch(ev, poker.Handlers{Join: t.join, Rebuy: t.rebuy, Leave: t.leave, Deal: t.deal,
		Act:   func(p *poker.Player, a poker.Action) error { return t.act(p, a, false) },
		Extra: func(*poker.Player) error { return fmt.Errorf("synthetic poker gives no extra time") }, Tick: t.tick, Resume: t.resume})
}

// resume starts the table again after a failure of the operator's system.
// The Portaria has no rule for it; the SRIJ draft's rule 86 is applied: the
// hand the failure stopped is void and every stake returned. A pot it
// carried from a pó waits for the next hand, which is a pó again. The hand
// ("a mão") moves on as after any hand: rule 40 gives seat 1 the first hand
// of a partida only.
func (t *Table) resume() error {
	if t.phase != antes && t.phase != straddles && t.phase != betting {
		return nil
	}
	t.VoidHand("the operator's system failed during the hand (SRIJ rule 86)")
	t.nextPo = t.po
	t.phase = between
	return nil
}

func (t *Table) join(e poker.Join) error {
	switch {
	case t.phase == over:
		return fmt.Errorf("the partida is over")
	case e.Amount != t.RequiredCave():
		return fmt.Errorf("player %q: the cave here is %d cents now (rules 17, 38), not %d", e.Player, t.RequiredCave(), e.Amount)
	case t.Seats.Find(e.Player) != nil:
		return fmt.Errorf("player %q already has a seat at this table (rule 14)", e.Player)
	}
	seat := e.Seat
	if seat == 0 {
		var err error
		if seat, err = t.DrawSeat(t.src); err != nil { // the draw of places (rule 13)
			return err
		}
	}
	return t.Join(e.Player, seat, e.Amount, 0)
}

func (t *Table) rebuy(p *poker.Player, e poker.Rebuy) error {
	if err := t.CheckRebuy(p, e.Amount, t.cfg.MinRebuy, "rule 60", "rule 38"); err != nil {
		return err
	}
	return t.Rebuy(p, e.Amount, 0)
}

// leave: during the partida a player with chips plays to its end (rule 61)
// unless the chief of the game lets him go (Authorized).
func (t *Table) leave(p *poker.Player, e poker.Leave) error {
	switch {
	case t.phase != over && !t.start.IsZero() && p.Stack > 0 && !e.Authorized:
		return fmt.Errorf("player %q has a cave: he plays to the end of the partida (rule 61)", e.Player)
	}
	if ih := t.InHand(p); ih != nil {
		p.Leaving = true
		switch t.phase {
		case antes:
			if !t.answered[p.Seat] {
				return t.answer(p, false)
			}
			t.Hand.FoldOut(t.Hand.Index(p.Seat), "leave") // his ante stays in the pot
		case straddles:
			t.Hand.FoldOut(t.Hand.Index(p.Seat), "leave")
			if t.Hand.Players[t.straddler].Player == p {
				return t.straddle(false)
			}
		default:
			t.Hand.FoldOut(t.Hand.Index(p.Seat), "leave")
			return t.advance()
		}
		return nil
	}
	if t.Carried > 0 && len(t.Seats.Players()) == 1 {
		t.awardPo(p)
	}
	t.Leave(p, "")
	return nil
}

// awardPo pays a carried pó to the last player at the table as he leaves.
// The Portaria says nothing of a pó nobody is left to play; the rule
// written here: the players who left gave up their antes in it, as a
// player who passes gives up his stake, and the one player left takes the
// pot without a showdown (rule 49, first paragraph), less the house's 3%
// (rule 55). Without it the pó would stay on an empty table for good, the
// players' money held by nobody.
func (t *Table) awardPo(p *poker.Player) {
	rake := poker.RakeRate(HouseBps)(t.Carried)
	net := t.Carried - rake
	p.Stack += net
	p.Session.Won += net
	t.Seats.Rake += rake
	t.Emit(poker.Record{Kind: poker.KindPoAward, Seat: p.Seat, Player: p.ID, Amount: t.Carried, Rake: rake,
		Shares: []poker.Share{{Seat: p.Seat, Amount: net}}})
	t.Carried = 0
}

// present are the seated players who are not away, in seat order.
func (t *Table) present() []*poker.Player {
	var ps []*poker.Player
	for _, p := range t.Seats.Players() {
		if !p.Resting {
			ps = append(ps, p)
		}
	}
	return ps
}

// nextHolder is the seat the hand goes to: the first present player after
// the last holder in seat order (counterclockwise, rules 2 and 40; a seat
// that is empty when the hand reaches it is passed, rule 18).
func (t *Table) nextHolder(ps []*poker.Player) int {
	for _, p := range ps {
		if p.Seat > t.hand {
			return p.Seat
		}
	}
	return ps[0].Seat
}

// roundDone reports whether moving the hand to next completes the round
// after the time ran out: it reaches or passes the seat that had the hand
// then (that player may have left).
func (t *Table) roundDone(next int) bool {
	dist := func(a, b int) int {
		if d := (b - a + Seats) % Seats; d > 0 {
			return d
		}
		return Seats
	}
	return dist(t.hand, t.lastHolder) <= dist(t.hand, next)
}

// deal starts a hand: the ante phase, or at once the deal after a pó.
func (t *Table) deal() error {
	switch {
	case t.phase == over:
		return fmt.Errorf("the partida is over")
	case t.phase != between:
		return fmt.Errorf("hand %d is in play", t.HandNo)
	}
	ps := t.present()
	if len(ps) < MinPlayers {
		return fmt.Errorf("a hand needs %d players at the table, %d are (rule 11)", MinPlayers, len(ps))
	}
	// The partida lasts its duration and one more round, until the hand
	// comes back to whoever had it when the time ran out (rule 39).
	if !t.start.IsZero() && t.lastHolder == 0 && !t.Now.Before(t.start.Add(t.cfg.Duration)) {
		t.lastHolder = t.hand
	}
	next := t.nextHolder(ps)
	if t.lastHolder != 0 && t.roundDone(next) {
		t.due = true
	}
	if t.due && t.Carried == 0 { // a pó is played out before the end
		t.phase = over
		t.Emit(poker.Record{Kind: poker.KindEnd, Reason: EndOfPartida, Stacks: t.Seats.StackList(), Amount: t.Carried})
		return nil
	}
	var in []*poker.InHand
	for _, p := range ps {
		if p.Stack >= t.cfg.MinBet { // the minimum bet buys the cards (rule 38)
			in = append(in, &poker.InHand{Seat: p.Seat, Player: p})
		}
	}
	if len(in) < 2 {
		return fmt.Errorf("fewer than two players have the minimum bet %d to buy the cards", t.cfg.MinBet)
	}
	if t.start.IsZero() {
		t.start = t.Now
	}
	t.hand = next
	t.HandNo++
	t.shown = map[int]bool{}
	t.po, t.nextPo = t.nextPo, false
	t.turned, t.straddled = 0, 0
	t.Hand = poker.NewHand(t.HandNo, t.Now, in, t.Emit)
	t.Hand.Carried, t.Carried = t.Carried, 0
	t.Hand.Record(poker.Record{Kind: poker.KindHandStart, Seat: t.hand, Amount: t.Hand.Carried, Stacks: t.Seats.StackList()})
	if t.po {
		// After a pó everyone puts the minimum bet in front of him before
		// the cards are dealt (rule 49).
		for i := range in {
			t.Hand.Ante(i, t.cfg.MinBet, "po_ante")
		}
		t.poMin = int64(len(in)) * t.cfg.MinBet
		return t.dealCards()
	}
	t.phase = antes
	t.asked, t.answered = map[int]bool{}, map[int]bool{}
	for _, p := range in {
		t.asked[p.Seat] = true
	}
	t.Decision = &poker.Decision{Deadline: t.Now.Add(t.cfg.DecisionTime)}
	return nil
}

// answer takes a player's answer to the ante.
func (t *Table) answer(p *poker.Player, yes bool) error {
	if t.phase != antes || !t.asked[p.Seat] || t.answered[p.Seat] {
		return fmt.Errorf("player %q is not asked for the minimum bet now", p.ID)
	}
	t.answered[p.Seat] = true
	i := t.Hand.Index(p.Seat)
	if yes {
		t.Hand.Ante(i, t.cfg.MinBet, "ante")
	} else {
		t.Hand.Players[i].Folded = true
		t.Hand.Record(poker.Record{Kind: poker.KindAct, Seat: p.Seat, Player: p.ID, Action: string(NoAnte)})
	}
	if len(t.answered) == len(t.asked) {
		return t.closeAntes()
	}
	return nil
}

// closeAntes deals to the players who bought the cards. With fewer than
// two, nobody went to play: the bets go back and the next hand is a pó
// (rule 49).
func (t *Table) closeAntes() error {
	h := t.Hand
	for i, p := range h.Players {
		if t.asked[p.Seat] && !t.answered[p.Seat] { // the timer answers for him: no
			h.Players[i].Folded = true
			h.Record(poker.Record{Kind: poker.KindAct, Seat: p.Seat, Player: p.Player.ID, Action: string(NoAnte), Timeout: true})
		}
	}
	var in []int
	for i, p := range h.Players {
		if !p.Folded {
			in = append(in, i)
		}
	}
	if len(in) < 2 {
		for _, i := range in {
			p := h.Players[i]
			p.Total -= t.cfg.MinBet
			p.Player.Stack += t.cfg.MinBet
			p.Player.Session.Wagered -= t.cfg.MinBet
			h.Record(poker.Record{Kind: poker.KindReturn, Seat: p.Seat, Player: p.Player.ID, Amount: t.cfg.MinBet, Reason: "nobody to play against"})
		}
		t.carry()
		return nil
	}
	return t.dealCards()
}

// dealCards deals two cards to every player in the hand, one at a time,
// from the holder of the hand in seat order (rule 42), then draws the five
// community cards; the whole hand is in the records before a card is seen.
func (t *Table) dealCards() error {
	h := t.Hand
	t.shoe.Shuffle()
	var order []*poker.InHand
	k := slices.IndexFunc(h.Players, func(p *poker.InHand) bool { return p.Seat >= t.hand })
	if k < 0 {
		k = 0
	}
	for j := range h.Players {
		if p := h.Players[(k+j)%len(h.Players)]; !p.Folded {
			order = append(order, p)
		}
	}
	h.Deal(order, t.draw, t.board[:])
	h.NewRound(t.limits())
	t.phase = betting
	if t.cfg.Estardilho && !t.po {
		if i := t.leftOfHand(); t.canStraddle(i) {
			t.phase = straddles
			t.straddler = i
			t.Decision = &poker.Decision{Seat: h.Players[i].Seat, Deadline: t.Now.Add(t.cfg.DecisionTime)}
			return nil
		}
	}
	return t.turnAndBet()
}

func (t *Table) draw() cards.Card {
	c, err := t.shoe.Draw(t.src)
	if err != nil {
		panic(err) // 28 cards always cover 11 players and the board
	}
	return c
}

// leftOfHand is the index of the live player to the left of the holder
// of the hand: the nearest before him in seat order (the seats are
// numbered counterclockwise from the dealer's right, rule 2).
func (t *Table) leftOfHand() int {
	h := t.Hand
	best := -1
	for i, p := range h.Players {
		if p.Live() && p.Seat < t.hand {
			best = i
		}
	}
	if best >= 0 {
		return best
	}
	for i := len(h.Players) - 1; i >= 0; i-- {
		if h.Players[i].Live() {
			return i
		}
	}
	return 0
}

func (t *Table) straddleAmount() int64 {
	a := estardilhoMult * t.cfg.MinBet
	if t.straddled == 1 {
		a *= estardilhoMult
	}
	return a
}

// canStraddle: a live player with the chips for it (no all-in blind).
func (t *Table) canStraddle(i int) bool {
	p := t.Hand.Players[i]
	return p.CanAct() && p.Player.Stack >= t.straddleAmount()
}

// straddle takes the answer to the estardilho or restardilho (rule 43):
// blind bets of the first round before anyone sees his cards.
func (t *Table) straddle(yes bool) error {
	h := t.Hand
	i := t.straddler
	p := h.Players[i]
	name := []string{"estardilho", "restardilho"}[t.straddled]
	if yes && !p.Folded {
		amount := t.straddleAmount()
		h.Post(i, amount, amount, name, true)
		t.straddled++
		t.lastStraddler = i
		if t.straddled == 1 {
			if j := t.nextLive(i); j != i && t.canStraddle(j) {
				t.straddler = j
				t.Decision = &poker.Decision{Seat: h.Players[j].Seat, Deadline: t.Now.Add(t.cfg.DecisionTime)}
				return nil
			}
		}
	} else if !p.Folded {
		h.Record(poker.Record{Kind: poker.KindAct, Seat: p.Seat, Player: p.Player.ID, Action: "no_" + name, Timeout: t.Decision.Expired(t.Now)})
	}
	return t.turnAndBet()
}

func (t *Table) nextLive(i int) int {
	h := t.Hand
	for k := 1; k <= len(h.Players); k++ {
		j := (i + k) % len(h.Players)
		if h.Players[j].CanAct() {
			return j
		}
	}
	return i
}

// limits of a round: bets of at least the minimum bet, raises by at least
// it, no limit but the player's chips (rules 38, 48, 60); after a pó the
// first round opens with at least the sum of the antes, and only a player
// who has that sum may open it (rule 49).
func (t *Table) limits() poker.Limits {
	l := poker.Limits{MinOpen: t.cfg.MinBet, MinRaise: t.cfg.MinBet}
	if t.po && t.turned == 0 {
		min := t.poMin
		l.MinOpen = min
		l.MayOpen = func(p *poker.InHand) bool { return p.Bet+p.Player.Stack >= min }
	}
	return l
}

// turnAndBet turns the next community card and opens its betting round
// (rules 44-45).
func (t *Table) turnAndBet() error {
	h := t.Hand
	t.phase = betting
	t.Decision = nil
	first := t.leftOfHand() // the first round: left of the hand (rule 44)
	switch {
	case t.turned == 0 && t.straddled > 0:
		first = t.lastStraddler + 1 // after the blind bets, which speak last
	case t.turned > 0:
		if h.LastBettor >= 0 {
			first = h.LastBettor // who made the highest bet before (rule 45)
		}
		h.NewRound(t.limits())
	}
	h.Reveal(t.board[t.turned])
	t.turned++
	h.Begin(first % len(h.Players))
	return t.advance()
}

// act takes a player's decision.
func (t *Table) act(p *poker.Player, a poker.Action, timeout bool) error {
	player := p.ID
	switch t.phase {
	case antes:
		switch a.Kind {
		case Ante:
			return t.answer(p, true)
		case NoAnte:
			return t.answer(p, false)
		}
		return fmt.Errorf("player %q: the minimum bet is asked now (%s or %s)", player, Ante, NoAnte)
	case straddles:
		if t.Hand.Players[t.straddler].Player != p {
			return fmt.Errorf("player %q: not his turn", player)
		}
		switch a.Kind {
		case Estardilho, Restardilho:
			if (a.Kind == Restardilho) != (t.straddled == 1) {
				return fmt.Errorf("player %q: the %s is offered, not the %s", player, []string{"estardilho", "restardilho"}[t.straddled], a.Kind)
			}
			return t.straddle(true)
		case NoEstardilho, NoRestardilho:
			return t.straddle(false)
		}
		return fmt.Errorf("player %q: the estardilho is offered now", player)
	case betting:
		if t.InHand(p) == nil {
			return fmt.Errorf("player %q is not in a hand", player)
		}
		if err := t.Hand.Apply(t.Hand.Index(p.Seat), a, timeout); err != nil {
			return err
		}
		t.Decision = nil
		return t.advance()
	}
	return fmt.Errorf("player %q: no decision is asked now", player)
}

// tick takes the decisions whose time is over: no to the ante and to the
// estardilho, a check if possible or else a fold in the betting.
func (t *Table) tick() error {
	if !t.Decision.Expired(t.Now) {
		return nil
	}
	switch t.phase {
	case antes:
		return t.closeAntes()
	case straddles:
		return t.straddle(false)
	case betting:
		return t.act(t.Hand.Players[t.Hand.Turn()].Player, t.Hand.TimeoutAction(), true)
	}
	return nil
}

// advance moves the hand on until someone must act or it is over.
func (t *Table) advance() error {
	h := t.Hand
	for {
		if h.Live() < 2 {
			return t.finish(false) // the others passed: he wins without showing (rule 49)
		}
		if i := h.Turn(); i >= 0 {
			if t.Decision == nil || t.Decision.Seat != h.Players[i].Seat {
				t.Decision = &poker.Decision{Seat: h.Players[i].Seat, Deadline: t.Now.Add(t.cfg.DecisionTime)}
			}
			return nil
		}
		if t.turned == 1 && h.Level() == 0 {
			t.carry() // nobody bet after the first card, nobody went to play: pó (rule 49)
			return nil
		}
		h.ReturnUncalled()
		if t.turned == 5 {
			return t.finish(true)
		}
		return t.turnAndBet()
	}
}

// carry ends a hand nobody played: its pot waits for the next hand, which
// is a pó.
func (t *Table) carry() {
	t.Carried += t.Hand.Carry()
	t.nextPo = true
	t.phase = between
	t.EndHand()
}

// finish shows the cards of the players still in, from the highest bet on
// in seat order (rules 46, 54), and pays each pot less the house's 3%
// (rule 55) to its best hands (rule 48: the encavado wins only the pots he
// is in; the rest goes to the next best), split by rule 56.
func (t *Table) finish(showdown bool) error {
	h := t.Hand
	h.ReturnUncalled()
	var value func(p *poker.InHand) uint64
	if showdown {
		top := -1
		for i, p := range h.Players {
			if p.Live() && (top < 0 || p.Total > h.Players[top].Total) {
				top = i
			}
		}
		for k := range h.Players {
			p := h.Players[(top+k)%len(h.Players)]
			if !p.Live() {
				continue
			}
			v, five := cards.BestSynthetic([2]cards.Card(p.Hole), t.board)
			t.shown[p.Seat] = true
			h.Record(poker.Record{Kind: poker.KindShow, Seat: p.Seat, Player: p.Player.ID, Cards: p.Hole,
				Value: poker.Describe(cards.Synthetic28().Category(v), five)})
		}
		value = func(p *poker.InHand) uint64 {
			return uint64(t.ev.BestSynthetic((*[2]cards.Card)(p.Hole), &t.board))
		}
	}
	raked, err := h.Award(value, poker.RakeRate(HouseBps), poker.OrderedSplit(t.cfg.MinBet, t.fromHand))
	if err != nil {
		return t.Stop(err)
	}
	t.Seats.Rake += raked
	t.phase = between
	t.EndHand()
	return nil
}

// fromHand is a seat's place from the holder of the hand on: the larger
// parts of a split pot go to the hand, then to the next players (rule 56).
func (t *Table) fromHand(seat int) int { return (seat - t.hand + Seats) % Seats }
