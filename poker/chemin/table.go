package chemin

import (
	"fmt"
	"slices"
	"strconv"
	"time"

	"github.com/openegm/cabinet/cards"
	"github.com/openegm/cabinet/poker"
	"github.com/openegm/cabinet/rng"
)

// The records of a chemin de fer table, beside poker's join, rebuy, leave,
// sit_out, sit_in, hand_start (a coup: Seat the banker, Amount the bank),
// deal (Cards), act (a decision: Action, Timeout), show (Value the total),
// return (a stake given back), award, void and hand_end.
const (
	// KindShoe: a new sabot, committed before its first card is shown:
	// Value its Digest, Pot where the cut went, Amount its decks (its
	// end must reveal exactly that many standard decks, rules 7, 8).
	KindShoe poker.Kind = "shoe"
	// KindBurn: the first card shown and the cards it burns (rule 13),
	// Cards in order.
	KindBurn poker.Kind = "burn"
	// KindShoeEnd: the sabot is over; Cards is its whole order, which
	// must have the digest its KindShoe committed.
	KindShoeEnd poker.Kind = "shoe_end"
	// KindBank: Amount from the banker's stack (Seat) into the bank.
	KindBank poker.Kind = "bank"
	// KindAssociate: Amount from an associate's stack into the bank
	// (rule 31).
	KindAssociate poker.Kind = "associate"
	// KindBet: Amount from a ponto's stack to his stake; Action names it
	// (banco, banco_suivi, banco_mesa, bet).
	KindBet poker.Kind = "bet"
	// KindGarage: Amount from the bank set aside as garage (rules 34, 46).
	KindGarage poker.Kind = "garage"
	// KindRelease: the bank and the garage leave the table to the banker
	// and his associate (Shares): the hand passed or was lost.
	KindRelease poker.Kind = "release"
)

// The decisions, as Act kinds.
const (
	Bank           poker.ActionKind = "bank"            // To: the bank stated (rules 35, 39)
	BankAssociated poker.ActionKind = "bank_associated" // To: the bank, half from the associate who offered (rule 31)
	Refuse         poker.ActionKind = "refuse"          // the hand refused («Banca recusada»), or the seat given up (rule 85)
	Associate      poker.ActionKind = "associate"       // an offer to associate with the banker (rule 31)
	Banco          poker.ActionKind = "banco"           // rule 45
	Suivi          poker.ActionKind = "banco_suivi"     // rules 51-54
	BancoMesa      poker.ActionKind = "banco_mesa"      // To: at least half the bank, 0 for half (rules 55-57)
	Bet            poker.ActionKind = "bet"             // To: the stake (rules 36, 58)
	NoBet          poker.ActionKind = "no_bet"
	Draw           poker.ActionKind = "draw"  // «Carta»
	Stand          poker.ActionKind = "stand" // «Não»
	Continue       poker.ActionKind = "continue"
	SetGarage      poker.ActionKind = "garage" // half the bank aside (rule 34)
	Reduce         poker.ActionKind = "reduce" // the bank to twice the stakes won (rule 46)
	Halve          poker.ActionKind = "halve"  // the bank halved when the hand stays at a new sabot (rule 33)
	Pass           poker.ActionKind = "pass"   // «Passo a mão» (rule 77)
	Take           poker.ActionKind = "take"   // take a passed hand at its level, or at the minimum (rules 80, 85)
	Decline        poker.ActionKind = "decline"
	Bid            poker.ActionKind = "bid" // To: the offer in the auction (rules 82-84)
	NoBid          poker.ActionKind = "no_bid"
	// BidAssociated: To, an offer in the auction made with another bidder,
	// half each (rule 87); JoinBid: To, the seat whose associated offer he
	// joins. The hand goes to the one of the two first in priority order,
	// the other his associate.
	BidAssociated poker.ActionKind = "bid_associated"
	JoinBid       poker.ActionKind = "join_bid"
	// PayOutside: the banker pays the cagnotte on his winnings from his
	// stack, the whole win staying in the bank, for as long as he holds
	// the hand (rule 47); asked of him as he states the bank or after a
	// coup, it does not answer that decision.
	PayOutside poker.ActionKind = "cagnotte_outside"
	// PlayCards and PassCards: the ponto the cards would go to, outside a
	// bancô, plays them, or says he does not know how to play («não sei
	// jogar») and they go to the next in priority by stake, then seat,
	// his stake staying in the coup (rule 101).
	PlayCards poker.ActionKind = "play_cards"
	PassCards poker.ActionKind = "pass_cards"
)

// Phase is what the table waits for.
type Phase string

const (
	Idle       Phase = "idle"        // a Deal starts the next coup
	Stake      Phase = "stake"       // the banker states the bank
	BancoRound Phase = "banco_round" // «Quem quer fazer bancô?»
	BetRound   Phase = "bet_round"   // «Façam o vosso jogo»
	Cards      Phase = "cards"       // the ponto the cards would go to plays them or passes them on (rule 101)
	PontoTurn  Phase = "ponto"       // the ponto chooses on 5, or on any total in a bancô (rule 70)
	BankerTurn Phase = "banker"      // the banker's optional case, or any but bacará in a bancô (rule 70)
	AfterCoup  Phase = "after_coup"  // the banker who did not lose: continue, garage, reduce or pass
	Offered    Phase = "offered"     // a passed hand offered at its level (rule 78)
	Auction    Phase = "auction"     // rules 80-90
	Forced     Phase = "forced"      // nobody bid: the next player takes at the minimum or gives up his seat (rule 85)
	Closed     Phase = "closed"      // the partida is over at the closing hour (rule 107): the table takes nothing more
)

// SabotBeforeClose is how long before the closing hour a sabot must have
// begun for play to go on past the hour to its end (rule 107: "iniciado
// vinte minutos antes daquela hora").
const SabotBeforeClose = 20 * time.Minute

// EndOfPartida is the reason of the end record of a partida closed at its
// closing hour.
const EndOfPartida = "the closing hour (rule 107)"

type stake struct {
	seat   int
	amount int64
}

// Table is one chemin de fer table. Not safe for concurrent use: one owner
// steps it.
type Table struct {
	poker.Core
	rules Rules
	src   rng.Source
	sab   *sabot
	phase Phase

	banker, associate int   // seats (0: none)
	bank, garage      int64 // on the table, the banker's (and his associate's)
	wins              int   // coups the banker won with this hand (rule 34; ties do not count)
	first             bool  // the next coup is the sabot's first
	offerAssoc        int   // a seat that offered to associate (rule 31)
	refusals          int   // pontos who refused the hand in a row

	// The coup.
	order     []int   // the pontos in priority order
	asked     int     // the index in order asked now
	stakes    []stake // in priority order
	mesa      int     // the seat of a bancô com a mesa claim
	mesaAmt   int64
	banco     int // the seat that went banco (or suivi)
	suivi     int // the seat with the bancô suivi for the next coup (rule 51)
	nextSuivi int // set by this coup
	// The ponto of a bancô com a mesa keeps, in the next coup, only the
	// priority for a bancô seul (rule 57).
	mesaPrio, nextMesa int
	mesaPrioAt         uint64
	ponto              int // the seat the cards went to
	// The pontos the cards may go to outside a bancô, by stake then
	// priority (rules 60, 61, 101), and the one asked now.
	takers    []int
	taker     int
	pc, bc    []cards.Card
	shownP    bool // the ponto's cards are shown
	shownB    bool // the banker's cards are turned
	last      bool // the warning card came out: the sabot's last coup
	lastWon   bool // the banker did not lose the last coup
	stays     bool // the sabot ended and the hand stays: the bank may be halved (rule 33)
	noBanco   int  // a banker who passed after a tie may not go bancô in the next coup (rule 89)
	noBancoAt uint64
	covered   bool // the last coup's stakes covered the bank
	stakedWon int64

	// Between coups.
	level    int64         // a passed hand's level
	passer   int           // who passed it
	passAs   int           // his associate
	bids     map[int]int64 // the auction's offers (0: no bid)
	partner  map[int]int   // an associated offer's seat: its partner (0: none yet); the partner's: -1 (rule 87)
	bidders  []int         // who may bid, in priority order
	answers  map[int]bool  // who answered the auction
	excl     map[int]bool  // may not bid in this auction besides the passer and his associate (rule 88)
	forced   []int         // rule 85's order
	adjudged int           // the auction's winner, until he gives his first coup (rule 88)
	played   bool          // the banker played a coup with this hand and did not lose it
	outside  bool          // the banker pays the cagnotte from outside (rule 47)

	// The closing hour (rule 107): the hour told (zero: not yet), when the
	// sabot in play began, and what the hour left: play on to the sabot's
	// end, or one last coup (the next, or the one in play).
	closeAt, sabAt        time.Time
	playsOn, lastDue, fin bool
	untaken               bool // since the last coup, the hand went round and nobody took it

	// Seat changes (rule 92): the seat each player last had, in which
	// sabot, and the seats whose player moved to get the hand sooner.
	seen  map[string]seatSeen
	jumps map[int]string
}

type seatSeen struct {
	seat int
	shoe string
}

// New opens a table; the sabot is shuffled with src, the certified RNG.
func New(r Rules, src rng.Source) (*Table, error) {
	r = r.Defaults()
	if err := r.Validate(); err != nil {
		return nil, err
	}
	t := &Table{Core: poker.NewCore(r.Seats, r.ReplayHands), rules: r, src: src, phase: Idle,
		seen: map[string]seatSeen{}, jumps: map[int]string{}}
	t.Hist.In = func(x poker.Record) bool {
		return x.Kind == poker.KindHandStart || (x.Kind == KindBet && x.Amount > 0)
	}
	return t, nil
}

// Rules are the table's rules.
func (t *Table) Rules() Rules { return t.rules }

// Phase is what the table waits for.
func (t *Table) Phase() Phase { return t.phase }

// Banker is the banker's seat (0: none yet) and the bank and garage.
func (t *Table) Banker() (seat int, bank, garage int64) { return t.banker, t.bank, t.garage }

// RequiredCave is the least a player brings to sit down: the minimum bet.
func (t *Table) RequiredCave() int64 { return t.rules.MinBet }

// LastHands are the player's last coups, for their replay.
func (t *Table) LastHands(player string) [][]poker.Record { return t.Hist.Last(player) }

// Held is the money on the table outside the stacks: the bank, the garage
// and the pontos' stakes.
func (t *Table) Held() int64 {
	h := t.bank + t.garage
	for _, s := range t.stakes {
		h += s.amount
	}
	return h
}

// Step applies one event. A refused event changes nothing and its error
// says why; after a step every cent is where it was brought, or the table
// stops for good.
func (t *Table) Step(ev poker.Event) ([]poker.Record, error) {
	handle := t.Handle(ev, poker.Handlers{
		Join: t.join, Rebuy: t.rebuy, Leave: t.leave, Deal: t.deal, Act: t.act,
		Extra: func(*poker.Player) error { return fmt.Errorf("chemin de fer gives no extra time") },
		Tick:  t.tick, Resume: t.resume, Closing: t.closing,
	})
	return t.Core.Step(ev.When(), t.Held, func() error {
		if err := handle(); err != nil {
			return err
		}
		t.stopShort()
		t.closeIfDue()
		t.seatsSeen()
		return nil
	})
}

// seatsSeen keeps each player's seat, and forgets a moved player's jump
// once he has left that seat (rule 92).
func (t *Table) seatsSeen() {
	shoe := ""
	if t.sab != nil {
		shoe = t.sab.digest
	}
	for _, p := range t.Seats.Players() {
		t.seen[p.ID] = seatSeen{seat: p.Seat, shoe: shoe}
	}
	for s, id := range t.jumps {
		if p := t.Seats.At(s); p == nil || p.ID != id {
			delete(t.jumps, s)
		}
	}
}

// ahead is how far seat s is from the hand's seat, to its right: where the
// hand comes sooner.
func (t *Table) ahead(s int) int {
	n := t.rules.Seats
	return ((s-t.banker)%n + n) % n
}

// handTo gives the hand to the first of seats whose player did not change
// seat to get it sooner; it skips one who did, once («A mão salta»,
// rule 92).
func (t *Table) handTo(seats []int) int {
	for _, s := range seats {
		if t.jumps[s] == "" {
			return s
		}
		t.say(MsgSkip, 0, "")
		delete(t.jumps, s)
	}
	return seats[0]
}

// stopShort: between coups, fewer players than a partida needs are seated
// (a player resting keeps his seat): the game stops and its sabot ends, all
// its cards shown, whether dealt or not (rules 15, 16); the next partida
// starts a new sabot.
func (t *Table) stopShort() {
	if t.phase != Idle || t.sab == nil || len(t.Seats.Players()) >= t.rules.MinSeated {
		return
	}
	t.Emit(poker.Record{Kind: KindShoeEnd, Value: t.sab.digest, Cards: t.sab.order, Reason: "the game stopped for want of players (rule 15)"})
	t.sab, t.last = nil, false
}

func (t *Table) say(m Message, amount int64, value string) {
	t.Emit(poker.Record{Kind: KindAnnounce, Hand: t.coupNo(), Action: string(m), To: amount, Value: value})
}

// coupNo is the coup the records belong to (0 between coups).
func (t *Table) coupNo() uint64 {
	if t.inCoup() {
		return t.HandNo
	}
	return 0
}

func (t *Table) inCoup() bool {
	switch t.phase {
	case BancoRound, BetRound, Cards, PontoTurn, BankerTurn:
		return true
	}
	return false
}

func (t *Table) decide(seat int) {
	t.Decision = &poker.Decision{Seat: seat, Deadline: t.Now.Add(t.rules.DecisionTime)}
}

// present are the seated players not resting, in seat order.
func (t *Table) present() []*poker.Player {
	var ps []*poker.Player
	for _, p := range t.Seats.Players() {
		if !p.Resting && !p.Leaving {
			ps = append(ps, p)
		}
	}
	return ps
}

// fromRight is the present players from the right of seat on (seat
// excluded): the priority order (rules 48, 61, 78, 84, 95).
func (t *Table) fromRight(seat int) []int {
	n := t.rules.Seats
	var out []int
	for k := 1; k <= n; k++ {
		s := (seat-1+k)%n + 1
		if p := t.Seats.At(s); p != nil && !p.Resting && !p.Leaving && s != seat {
			out = append(out, s)
		}
	}
	return out
}

func (t *Table) join(e poker.Join) error {
	if t.phase == Closed {
		return fmt.Errorf("player %q: the partida is over, the table closed at its closing hour (rule 107)", e.Player)
	}
	if e.Amount < t.rules.MinBet {
		return fmt.Errorf("player %q: %d cents is below the minimum bet %d", e.Player, e.Amount, t.rules.MinBet)
	}
	if t.Seats.Find(e.Player) != nil {
		return fmt.Errorf("player %q already has a seat at this table (rule 17)", e.Player)
	}
	seat := e.Seat
	if seat == 0 {
		var err error
		if seat, err = t.DrawSeat(t.src); err != nil {
			return err
		}
	}
	if err := t.JoinHeld(e.Player, seat, e.Amount, 0, t.Held()); err != nil {
		return err
	}
	// Back in the same sabot at a seat the hand comes to sooner: it will
	// skip him once (rule 92).
	if prev, ok := t.seen[e.Player]; ok && t.sab != nil && prev.shoe == t.sab.digest && prev.seat != seat && t.ahead(seat) < t.ahead(prev.seat) {
		t.jumps[seat] = e.Player
	}
	return nil
}

// involved reports whether the player has money on the table or a coup's
// part: the banker, his associate, a ponto with a stake or a claim.
func (t *Table) involved(seat int) bool {
	if seat == t.banker && (t.bank > 0 || t.garage > 0) || seat == t.associate {
		return true
	}
	return t.inCoup() && (t.stakeOf(seat) > 0 || t.mesa == seat || t.ponto == seat)
}

func (t *Table) rebuy(p *poker.Player, e poker.Rebuy) error {
	switch {
	case t.inCoup():
		// Between coups only, as at the poker tables: a coup's records
		// (its replay, rule 78 of the SRIJ draft) hold every stack it
		// moves from its start to its end.
		return fmt.Errorf("player %q: a re-buy comes between coups", p.ID)
	case e.Amount < t.rules.MinBet:
		return fmt.Errorf("player %q: a re-buy of %d is below the minimum bet %d", p.ID, e.Amount, t.rules.MinBet)
	}
	return t.RebuyHeld(p, e.Amount, 0, t.Held())
}

func (t *Table) stakeOf(seat int) int64 {
	for _, s := range t.stakes {
		if s.seat == seat {
			return s.amount
		}
	}
	return 0
}

// leave: a player with nothing on the table leaves at once; the banker's
// bank and garage go back to him and the hand passes («A mão passa por
// abandono»); a player in the coup in play, or the banker's associate,
// leaves when it ends. A decision asked of him is taken as at timeout.
func (t *Table) leave(p *poker.Player, _ poker.Leave) error {
	if t.inCoup() && t.involved(p.Seat) || p.Seat == t.associate {
		p.Leaving = true
		if t.Decision != nil && t.Decision.Seat == p.Seat {
			return t.timeout()
		}
		return nil
	}
	if t.Decision != nil && (t.Decision.Seat == p.Seat || t.phase == Auction) {
		p.Leaving = true
		if t.phase == Auction {
			t.answers[p.Seat] = true
			t.bids[p.Seat] = 0
			if err := t.auctionMaybeDone(); err != nil {
				return err
			}
		} else if err := t.timeout(); err != nil {
			return err
		}
		if t.Seats.Find(p.ID) == nil {
			return nil // the timeout's answer took him away (rule 85)
		}
	}
	if p.Seat == t.banker {
		p.Leaving = true
		if err := t.abandon(); err != nil {
			return err
		}
	}
	if t.offerAssoc == p.Seat {
		t.offerAssoc = 0
	}
	if t.Seats.Find(p.ID) != nil {
		t.Leave(p, "")
	}
	return nil
}

// abandon: the banker leaves or is away with the hand («A mão passa por
// abandono»). The winner of an auction who would not give his first coup
// has his bank back and the hand is auctioned again without him (rule 88);
// a banker who played the hand and did not lose passes it as rule 77 does,
// offered at its level; otherwise (he has not played it yet) his bank goes
// back to him and the hand goes on to his right.
func (t *Table) abandon() error {
	if t.adjudged != 0 && t.adjudged == t.banker {
		return t.reauction()
	}
	if t.played && t.bank > 0 {
		// A banker who won leaves: he passes the hand as rule 77 says, and
		// it is offered at its level (rule 78).
		return t.passHand(MsgAbandon)
	}
	if t.bank > 0 || t.garage > 0 {
		t.say(MsgAbandon, 0, "")
		t.release()
	}
	t.passRight()
	return nil
}

// reauction: the winner of the auction would not give his first coup; his
// bank goes back to him and the hand is auctioned again, neither he nor the
// banker who passed it bidding (rule 88).
func (t *Table) reauction() error {
	w := t.adjudged
	t.adjudged = 0
	t.say(MsgAbandon, 0, "")
	t.release()
	t.banker, t.wins, t.outside = 0, 0, false
	t.excl = map[int]bool{w: true}
	return t.startAuction()
}

// release gives the bank and the garage back to the banker and his
// associate, half each (the odd cent to the banker).
func (t *Table) release() {
	total := t.bank + t.garage
	var shares []poker.Share
	if t.associate != 0 {
		a := total / 2
		shares = []poker.Share{{Seat: t.banker, Amount: total - a}, {Seat: t.associate, Amount: a}}
	} else {
		shares = []poker.Share{{Seat: t.banker, Amount: total}}
	}
	for _, sh := range shares {
		if p := t.Seats.At(sh.Seat); p != nil {
			p.Stack += sh.Amount
			p.Session.Won += sh.Amount
		}
	}
	t.Emit(poker.Record{Kind: KindRelease, Seat: t.banker, Amount: total, Shares: shares})
	t.bank, t.garage = 0, 0
	assoc := t.associate
	t.associate = 0
	if p := t.Seats.At(assoc); p != nil && p.Leaving {
		t.Leave(p, "left with the bank")
	}
}

// passRight gives the hand to the seat at the banker's right (rule 32):
// he states his bank at the next deal.
func (t *Table) passRight() {
	next := t.fromRight(t.banker)
	t.wins, t.refusals, t.adjudged, t.played, t.outside = 0, 0, 0, false, false
	t.phase, t.Decision = Idle, nil
	if len(next) == 0 {
		t.banker = 0
		return
	}
	t.banker = t.handTo(next)
}

// deal starts the next coup: a new sabot when the last ended, the banker's
// bank when he has none yet, then the bets.
func (t *Table) deal() error {
	if t.phase == Closed {
		return fmt.Errorf("the partida is over: the table closed at its closing hour (rule 107)")
	}
	if t.phase != Idle {
		return fmt.Errorf("the table waits for %s, not a deal", t.phase)
	}
	if n := len(t.present()); n < t.rules.MinSeated {
		return fmt.Errorf("a coup needs %d seated players, %d are (rule 16)", t.rules.MinSeated, n)
	}
	if b := t.Seats.At(t.banker); t.banker != 0 && (b == nil || b.Resting) {
		// A banker away from the table gives up the hand (rule 94).
		if err := t.abandon(); err != nil {
			return err
		}
		if t.phase != Idle {
			return nil // the hand is offered (rule 78) or auctioned again (rule 88)
		}
	}
	if t.banker == 0 {
		// The first hand goes to the first seated player at the dealer's
		// right (rule 29).
		var seats []int
		for _, p := range t.present() {
			seats = append(seats, p.Seat)
		}
		t.banker = t.handTo(seats)
		t.wins, t.refusals = 0, 0
	}
	if t.sab == nil {
		if err := t.newSabot(); err != nil {
			return err
		}
	}
	if t.bank == 0 {
		t.phase = Stake
		t.offerAssoc = 0
		t.decide(t.banker)
		return nil
	}
	return t.startCoup()
}

// newSabot shuffles, commits, cuts and burns (rule 13).
func (t *Table) newSabot() error {
	s, err := newSabot(t.rules.Decks, t.src)
	if err != nil {
		return err
	}
	t.sab = s
	t.sabAt = t.Now
	t.Emit(poker.Record{Kind: KindShoe, Value: s.digest, Pot: s.cut, Amount: int64(t.rules.Decks)})
	c, _, err := s.next()
	if err != nil {
		return err
	}
	burn := []cards.Card{c}
	n := Points(c)
	if n == 0 {
		n = 10
	}
	for range n {
		b, _, err := s.next()
		if err != nil {
			return err
		}
		burn = append(burn, b)
	}
	t.Emit(poker.Record{Kind: KindBurn, Cards: burn})
	t.first = true
	return nil
}

// stateBank takes the banker's bank (with an associate's half).
func (t *Table) stateBank(p *poker.Player, amount int64, assoc bool) error {
	if amount < t.rules.MinBank {
		return fmt.Errorf("player %q: a bank of %d is below the minimum %d (rule 35)", p.ID, amount, t.rules.MinBank)
	}
	mine, theirs := amount, int64(0)
	var a *poker.Player
	if assoc {
		a = t.Seats.At(t.offerAssoc)
		switch {
		case a == nil || a == p:
			return fmt.Errorf("player %q: nobody offered to associate", p.ID)
		case amount%2 != 0:
			return fmt.Errorf("player %q: an associated bank of %d does not halve in cents (rule 31)", p.ID, amount)
		case amount/2 < t.rules.MinBank:
			// The associate adds as much as the banker's bank, which is a
			// bank: at least the minimum (rules 31, 35).
			return fmt.Errorf("player %q: an associated bank of %d: the banker's half is below the minimum bank %d (rules 31, 35)", p.ID, amount, t.rules.MinBank)
		}
		mine, theirs = amount/2, amount/2
		if a.Stack < theirs {
			return fmt.Errorf("player %q: the associate %q has %d, not %d", p.ID, a.ID, a.Stack, theirs)
		}
	}
	if p.Stack < mine {
		return fmt.Errorf("player %q: a bank of %d with a stack of %d", p.ID, mine, p.Stack)
	}
	p.Stack -= mine
	p.Session.Wagered += mine
	t.bank += mine
	t.Emit(poker.Record{Kind: KindBank, Seat: p.Seat, Player: p.ID, Amount: mine, Stack: p.Stack})
	if assoc {
		a.Stack -= theirs
		a.Session.Wagered += theirs
		t.bank += theirs
		t.associate = a.Seat
		t.Emit(poker.Record{Kind: KindAssociate, Seat: a.Seat, Player: a.ID, Amount: theirs, Stack: a.Stack})
	}
	t.offerAssoc, t.refusals, t.played = 0, 0, false
	t.say(MsgBank, t.bank, "")
	return t.startCoup()
}

// refuseBank: «Banca recusada»; the hand goes on to the right. When every
// present player refused, the table waits for the next deal.
func (t *Table) refuseBank(timeout bool) {
	p := t.Seats.At(t.banker)
	t.Emit(poker.Record{Kind: poker.KindAct, Seat: t.banker, Player: p.ID, Action: string(Refuse), Timeout: timeout})
	t.say(MsgRefused, 0, "")
	refusals := t.refusals + 1
	t.passRight()
	if refusals >= len(t.present()) || len(t.present()) < t.rules.MinSeated || t.banker == 0 {
		t.untaken = true
		return // everyone refused: the next deal offers the hand again
	}
	t.refusals = refusals
	t.offerAssoc = 0
	t.phase = Stake
	t.decide(t.banker)
}

// askable: a seated player who is not leaving, with chips.
func (t *Table) askable(seat int) bool {
	p := t.Seats.At(seat)
	return p != nil && !p.Leaving && !p.Resting && p.Stack > 0
}

// startCoup opens a coup: the bets in priority order (rules 45-61).
func (t *Table) startCoup() error {
	t.HandNo++
	t.untaken = false
	t.adjudged = 0 // the auction's winner gives his first coup (rule 88)
	t.order = t.fromRight(t.banker)
	t.order = slices.DeleteFunc(t.order, func(s int) bool { return s == t.associate || !t.askable(s) })
	t.stakes, t.mesa, t.mesaAmt, t.banco, t.ponto = nil, 0, 0, 0, 0
	t.pc, t.bc, t.shownP, t.shownB, t.nextSuivi, t.nextMesa = nil, nil, false, false, 0, 0
	t.phase = BancoRound
	t.Emit(poker.Record{Kind: poker.KindHandStart, Hand: t.HandNo, Seat: t.banker, Player: t.Seats.At(t.banker).ID,
		Amount: t.bank, Stacks: t.Seats.StackList()})
	if t.first {
		t.say(MsgFirstCoup, 0, "")
		t.first = false
	}
	if t.lastDue { // «Último golpe», before the partida's last coup (rules 96, 107)
		t.lastDue, t.fin = false, true
		t.say(MsgLastCoup, 0, "")
	}
	if t.rules.TableauOnly {
		t.say(MsgTableau, 0, "")
	}
	t.say(MsgBank, t.bank, "")
	// The ponto of the last coup's bancô com a mesa keeps the priority for
	// a bancô seul (rule 57), after the bancô suivi: the ponto who lost a
	// bancô keeps the priority (rules 51, 54).
	if k := slices.Index(t.order, t.mesaPrio); k > 0 && t.mesaHeld() {
		t.order = append([]int{t.mesaPrio}, slices.Delete(t.order, k, k+1)...)
	}
	if k := slices.Index(t.order, t.suivi); k > 0 {
		t.order = append([]int{t.suivi}, slices.Delete(t.order, k, k+1)...)
	}
	t.say(MsgWhoBanco, 0, "")
	t.asked = -1
	return t.nextBanco()
}

// mesaHeld: this coup follows the bancô com a mesa of t.mesaPrio (rule 57).
func (t *Table) mesaHeld() bool { return t.mesaPrio != 0 && t.HandNo == t.mesaPrioAt }

// nextBanco asks the next ponto in priority order whether he goes banco.
func (t *Table) nextBanco() error {
	for t.asked++; t.asked < len(t.order); t.asked++ {
		if t.askable(t.order[t.asked]) {
			t.decide(t.order[t.asked])
			return nil
		}
	}
	// Nobody went banco: a claim of bancô com a mesa stands (rule 55),
	// the others complete; otherwise each ponto bets (rule 58).
	if t.mesa != 0 {
		t.nextMesa = t.mesa
		t.addStake(t.mesa, t.mesaAmt, string(BancoMesa))
		t.say(MsgMesaMade, t.mesaAmt, "") // by a seated player: every player is (rule 56)
		t.order = slices.DeleteFunc(t.order, func(s int) bool { return s == t.mesa })
		t.say(MsgWhoCompletes, 0, "")
	} else {
		t.say(MsgPlaceBets, 0, "")
	}
	t.phase = BetRound
	t.asked = -1
	return t.nextBet()
}

// staked is what the pontos have at stake: the part of the bank covered.
func (t *Table) staked() int64 {
	var c int64
	for _, s := range t.stakes {
		c += s.amount
	}
	return c
}

// nextBet asks the next ponto in priority order for his bet, until the
// bank is covered or everyone was asked.
func (t *Table) nextBet() error {
	if t.staked() < t.bank {
		for t.asked++; t.asked < len(t.order); t.asked++ {
			if t.askable(t.order[t.asked]) {
				t.decide(t.order[t.asked])
				return nil
			}
		}
	}
	return t.close()
}

// addStake moves a ponto's stake from his stack to the table.
func (t *Table) addStake(seat int, amount int64, action string) {
	p := t.Seats.At(seat)
	p.Stack -= amount
	p.Session.Wagered += amount
	t.stakes = append(t.stakes, stake{seat: seat, amount: amount})
	// The stakes stay in priority order (rule 95): by seat from the
	// banker's right, counting every seat, as a ponto who asked to leave
	// or rests keeps his place in the coup he staked in (fromRight skips
	// him, which would put him first).
	n := t.rules.Seats
	ring := func(s int) int { return (s - t.banker - 1 + n) % n }
	slices.SortStableFunc(t.stakes, func(a, b stake) int { return ring(a.seat) - ring(b.seat) })
	t.Emit(poker.Record{Kind: KindBet, Hand: t.HandNo, Seat: seat, Player: p.ID, Action: action, Amount: amount, Stack: p.Stack})
}

// close: «Jogo feito. Nada mais.» (rule 40); the cards go to the bancô,
// the bancô com a mesa, or the highest stake, ties to the nearest seat at
// the banker's right (rules 60, 61).
func (t *Table) close() error {
	t.Decision = nil
	at := t.staked()
	if at == 0 {
		t.say(MsgNoBets, 0, "")
		return t.endCoup()
	}
	switch {
	case t.banco != 0:
		t.ponto = t.banco
	case t.mesa != 0:
		t.ponto = t.mesa
	default:
		best := int64(0)
		for _, s := range t.stakes { // in priority order: the first of equals wins
			if s.amount > best {
				t.ponto, best = s.seat, s.amount
			}
		}
	}
	t.say(MsgClosed, at, "")
	t.covered = at >= t.bank
	if t.banco == 0 && t.mesa == 0 {
		// Outside a bancô the ponto may decline the cards (rule 101);
		// in a bancô he plays them, asked on every total (rule 70).
		t.takers = t.takers[:0]
		for _, s := range t.stakes {
			t.takers = append(t.takers, s.seat)
		}
		amt := func(seat int) int64 { return t.stakeOf(seat) }
		slices.SortStableFunc(t.takers, func(a, b int) int { // the stakes are in priority order
			switch {
			case amt(a) > amt(b):
				return -1
			case amt(a) < amt(b):
				return 1
			}
			return 0
		})
		t.taker = 0
		if len(t.takers) > 1 {
			t.phase = Cards
			t.decide(t.ponto)
			return nil
		}
	}
	return t.dealCoup()
}

// passCards: the ponto asked declines the cards (rule 101); they go to the
// next in priority by stake, then seat. The last of them is not asked: he
// takes them, as the cards must go to someone with a stake once the bets
// are closed, and giving them back to the first would only ask him again.
func (t *Table) passCards() error {
	t.taker++
	t.ponto = t.takers[t.taker]
	if t.taker == len(t.takers)-1 {
		return t.dealCoup()
	}
	t.decide(t.ponto)
	return nil
}

// dealCoup deals the coup to the ponto and the banker and plays it.
func (t *Table) dealCoup() error {
	t.Decision = nil
	// Two cards each, the ponto first, alternately (rule 62).
	var four [4]cards.Card
	for i := range four {
		c, warn, err := t.sab.next()
		if err != nil {
			return t.Stop(err)
		}
		if warn {
			t.last = true
			t.say(MsgLastOfSabot, 0, "")
		}
		four[i] = c
	}
	t.pc = []cards.Card{four[0], four[2]}
	t.bc = []cards.Card{four[1], four[3]}
	// The coup counts in the session totals of all who play it (shown
	// when they leave): the banker, his associate and every ponto with a
	// stake, as a poker hand counts for those dealt in.
	played := map[int]bool{t.banker: true, t.associate: t.associate != 0}
	for _, s := range t.stakes {
		played[s.seat] = played[s.seat] || s.amount > 0
	}
	for seat, in := range played {
		if in {
			t.Seats.At(seat).Session.Hands++
		}
	}
	t.Emit(poker.Record{Kind: poker.KindDeal, Hand: t.HandNo, Seat: t.ponto, Player: t.Seats.At(t.ponto).ID, Cards: t.pc})
	t.Emit(poker.Record{Kind: poker.KindDeal, Hand: t.HandNo, Seat: t.banker, Player: t.Seats.At(t.banker).ID, Cards: t.bc})
	if Natural(t.pc) || Natural(t.bc) {
		for _, side := range [][]cards.Card{t.pc, t.bc} {
			if Natural(side) {
				t.say([2]Message{MsgEight, MsgNine}[Total(side)-8], 0, "")
			}
		}
		return t.result()
	}
	// In a bancô the ponto may draw against his rule (rule 70): he is
	// asked whatever his total; otherwise only on 5.
	switch PontoPlay(Total(t.pc)) {
	case PontoDraws:
		if t.banco == 0 {
			return t.pontoPlays(true, false, true)
		}
	case PontoStands:
		if t.banco == 0 {
			return t.pontoPlays(false, false, true)
		}
	}
	t.phase = PontoTurn
	t.decide(t.ponto)
	return nil
}

// pontoPlays: «Carta» or «Não»; the third card is dealt face up (rule 68).
func (t *Table) pontoPlays(draw, timeout, forced bool) error {
	p := t.Seats.At(t.ponto)
	a := Stand
	if draw {
		a = Draw
	}
	reason := map[bool]string{true: "the rule", false: ""}[forced]
	if rule := PontoPlay(Total(t.pc)); rule != PontoChooses && draw != (rule == PontoDraws) {
		reason = "a false draw in a bancô (rule 70)"
	}
	t.Emit(poker.Record{Kind: poker.KindAct, Hand: t.HandNo, Seat: t.ponto, Player: p.ID, Action: string(a), Timeout: timeout,
		Reason: reason})
	third := -1
	if draw {
		t.say(MsgCard, 0, "")
		c, err := t.card()
		if err != nil {
			return err
		}
		t.pc = append(t.pc, c)
		third = Points(c)
		t.Emit(poker.Record{Kind: poker.KindBoard, Hand: t.HandNo, Seat: t.ponto, Cards: []cards.Card{c}})
	} else {
		t.say(MsgNo, 0, "")
	}
	// The banker turns his cards (rule 67) and plays the tableau; in a
	// bancô he may draw against it, but with bacará (rule 70), unless he
	// plays by the tableau only (rule 102).
	t.shownB = true
	if t.banco != 0 && Total(t.bc) != 0 && !t.rules.TableauOnly {
		t.phase = BankerTurn
		t.decide(t.banker)
		return nil
	}
	switch BankerPlay(Total(t.bc), third) {
	case BankerDraws:
		return t.bankerPlays(true, false)
	case BankerStands:
		return t.bankerPlays(false, false)
	}
	if t.rules.TableauOnly {
		return t.bankerPlays(true, false)
	}
	t.phase = BankerTurn
	t.decide(t.banker)
	return nil
}

func (t *Table) card() (cards.Card, error) {
	c, warn, err := t.sab.next()
	if err != nil {
		return c, t.Stop(err)
	}
	if warn {
		t.last = true
		t.say(MsgLastOfSabot, 0, "")
	}
	return c, nil
}

// third is the points of the ponto's third card (-1: he stood).
func (t *Table) third() int {
	if len(t.pc) == 3 {
		return Points(t.pc[2])
	}
	return -1
}

func (t *Table) bankerPlays(draw, timeout bool) error {
	p := t.Seats.At(t.banker)
	a := Stand
	if draw {
		a = Draw
	}
	reason := ""
	if play := BankerPlay(Total(t.bc), t.third()); play != BankerChooses && draw != (play == BankerDraws) {
		reason = "a false draw in a bancô (rule 70)"
	}
	t.Emit(poker.Record{Kind: poker.KindAct, Hand: t.HandNo, Seat: t.banker, Player: p.ID, Action: string(a), Timeout: timeout, Reason: reason})
	if draw {
		t.say(MsgCard, 0, "")
		c, err := t.card()
		if err != nil {
			return err
		}
		t.bc = append(t.bc, c)
		t.Emit(poker.Record{Kind: poker.KindBoard, Hand: t.HandNo, Seat: t.banker, Cards: []cards.Card{c}})
	} else {
		t.say(MsgNo, 0, "")
	}
	return t.result()
}

// result shows both hands, announces the coup and settles it (rules 72-76,
// 95): a tie is void, the banker's winnings less the cagnotte stay in the
// bank, the pontos who won are paid from the bank in seat order from the
// banker's right.
func (t *Table) result() error {
	t.Decision = nil
	t.shownP, t.shownB = true, true
	pt, bt := Total(t.pc), Total(t.bc)
	t.Emit(poker.Record{Kind: poker.KindShow, Hand: t.HandNo, Seat: t.ponto, Player: t.Seats.At(t.ponto).ID, Cards: t.pc, Value: strconv.Itoa(pt)})
	t.Emit(poker.Record{Kind: poker.KindShow, Hand: t.HandNo, Seat: t.banker, Player: t.Seats.At(t.banker).ID, Cards: t.bc, Value: strconv.Itoa(bt)})
	totals := fmt.Sprintf("%d %d", pt, bt)
	switch {
	case pt == bt:
		t.say(MsgTie, 0, totals)
		t.returnStakes("tie (rule 76)")
		t.stakedWon = 0
		t.lastWon = true
	case bt > pt:
		t.say(MsgBankWins, 0, totals)
		won := t.staked()
		cag := t.rules.Cagnotte(won)
		kept, reason := won-cag, ""
		if b := t.Seats.At(t.banker); t.outside && cag > 0 && b.Stack >= cag {
			// Paid from outside: from his stack, the whole win in the
			// bank (rule 47).
			b.Stack -= cag
			b.Session.Wagered += cag
			kept, reason = won, "the cagnotte paid from outside (rule 47)"
		}
		t.bank += kept
		t.Seats.Rake += cag
		t.stakes = nil
		t.Emit(poker.Record{Kind: poker.KindAward, Hand: t.HandNo, Seat: t.banker, Player: t.Seats.At(t.banker).ID,
			Action: "banker", Amount: won, Rake: cag, Shares: []poker.Share{{Seat: t.banker, Amount: kept}}, Reason: reason})
		t.wins++
		t.stakedWon = won
		t.lastWon = true
		if t.banco != 0 {
			t.nextSuivi = t.banco
		}
	default:
		t.say(MsgPontoWins, 0, totals)
		var shares []poker.Share
		var paid int64
		for _, s := range t.stakes {
			p := t.Seats.At(s.seat)
			p.Stack += 2 * s.amount
			p.Session.Won += 2 * s.amount
			t.bank -= s.amount
			paid += 2 * s.amount
			shares = append(shares, poker.Share{Seat: s.seat, Amount: 2 * s.amount})
		}
		t.stakes = nil
		t.Emit(poker.Record{Kind: poker.KindAward, Hand: t.HandNo, Seat: t.banker, Action: "ponto", Amount: paid, Shares: shares})
		t.lastWon = false
	}
	return t.endCoup()
}

func (t *Table) returnStakes(reason string) {
	for _, s := range t.stakes {
		p := t.Seats.At(s.seat)
		p.Stack += s.amount
		p.Session.Wagered -= s.amount
		t.Emit(poker.Record{Kind: poker.KindReturn, Hand: t.HandNo, Seat: s.seat, Player: p.ID, Amount: s.amount, Reason: reason})
	}
	t.stakes = nil
}

// endCoup ends the coup and says what comes next: the hand passes to the
// right when the banker lost (rule 32), else the banker chooses.
func (t *Table) endCoup() error {
	noBets := t.pc == nil
	t.Emit(poker.Record{Kind: poker.KindHandEnd, Hand: t.HandNo, Amount: t.bank, Stacks: t.Seats.StackList()})
	t.phase, t.Decision = Idle, nil
	t.suivi = t.nextSuivi
	t.mesaPrio, t.mesaPrioAt = t.nextMesa, t.HandNo+1
	if t.last && !noBets {
		t.Emit(poker.Record{Kind: KindShoeEnd, Value: t.sab.digest, Cards: t.sab.order})
		t.sab, t.last = nil, false
		if t.lastWon && t.closeAt.IsZero() { // past the closing hour no sabot follows: the partida ends
			t.say(MsgHandStays, 0, "") // «A mão fica» (rule 32)
			t.stays = true
		}
	}
	for _, p := range t.Seats.Players() {
		if p.Leaving && p.Seat != t.banker && p.Seat != t.associate {
			t.Leave(p, "left during the coup")
		}
	}
	b := t.Seats.At(t.banker)
	if !noBets && t.lastWon {
		t.played = true
	}
	switch {
	case !noBets && !t.lastWon:
		t.say(MsgHandPasses, 0, "")
		t.release()
		t.passRight()
		if b.Leaving {
			t.Leave(b, "left with the bank")
		}
		return nil
	case b.Leaving:
		if err := t.abandon(); err != nil {
			return err
		}
		if t.Seats.At(b.Seat) == b {
			t.Leave(b, "left with the bank")
		}
		return nil
	case noBets:
		return nil
	}
	t.phase = AfterCoup
	t.decide(t.banker)
	return nil
}

// mayGarage: after the third winning coup and each odd one after it
// (rule 34).
func (t *Table) mayGarage() bool { return t.lastWon && t.stakedWon > 0 && t.wins >= 3 && t.wins%2 == 1 }

// mayReduce: the stakes did not cover the bank in the coup won (rule 46).
func (t *Table) mayReduce() bool {
	return t.stakedWon > 0 && !t.covered && 2*t.stakedWon < t.bank && 2*t.stakedWon >= t.rules.MinBank
}

func (t *Table) toGarage(amount int64) {
	t.bank -= amount
	t.garage += amount
	t.Emit(poker.Record{Kind: KindGarage, Seat: t.banker, Amount: amount})
	t.say(MsgGarage, amount, "")
}

// afterCoup takes the banker's choice.
func (t *Table) afterCoup(a poker.ActionKind, timeout bool) error {
	p := t.Seats.At(t.banker)
	switch a {
	case Continue:
	case SetGarage:
		if !t.mayGarage() {
			return fmt.Errorf("player %q: the garage comes after the 3rd winning coup and each odd one after it (rule 34); %d won", p.ID, t.wins)
		}
		if t.bank-t.bank/2 < t.rules.MinBank {
			return fmt.Errorf("player %q: half the bank is below the minimum %d (rule 35)", p.ID, t.rules.MinBank)
		}
	case Reduce:
		if !t.mayReduce() {
			return fmt.Errorf("player %q: the bank reduces to twice the stakes won when they did not cover it (rule 46)", p.ID)
		}
	case Halve:
		if !t.stays || t.bank-t.bank/2 < t.rules.MinBank {
			return fmt.Errorf("player %q: the bank is halved when the hand stays at a new sabot, not below the minimum %d (rule 33)", p.ID, t.rules.MinBank)
		}
	case Pass:
	default:
		return fmt.Errorf("player %q: continue, garage, reduce, halve or pass", p.ID)
	}
	t.stays = false
	t.Emit(poker.Record{Kind: poker.KindAct, Seat: t.banker, Player: p.ID, Action: string(a), Timeout: timeout})
	t.Decision = nil
	t.phase = Idle
	switch a {
	case SetGarage, Halve: // the half set aside goes back to him with the bank
		t.toGarage(t.bank / 2)
	case Reduce:
		t.toGarage(t.bank - 2*t.stakedWon)
	case Pass:
		return t.passHand(MsgHandPasses)
	}
	return nil
}

// passHand: «Passo a mão» (rule 77): the bank and garage go back to the
// banker, and the hand is offered at its level from his right (rule 78).
func (t *Table) passHand(m Message) error {
	t.level, t.passer, t.passAs = t.bank, t.banker, t.associate
	if t.stakedWon == 0 { // he passes after a tie (rule 89)
		t.noBanco, t.noBancoAt = t.passer, t.HandNo+1
	}
	t.played, t.outside = false, false
	t.say(m, 0, "")
	t.release()
	t.forced = t.fromRight(t.passer)
	t.excl = nil
	// Offered at its level from his right (rule 78); when nobody takes it,
	// the passer may keep it at the same amount before the auction
	// (rule 80): he is asked last.
	t.order = append(slices.Clone(t.forced), t.passer)
	t.asked = -1
	t.phase = Offered
	t.banker, t.wins = 0, 0
	return t.nextOffer()
}

func (t *Table) nextOffer() error {
	for t.asked++; t.asked < len(t.order); t.asked++ {
		// Not to one who changed seats and has not let it skip him
		// (rule 92).
		if t.askable(t.order[t.asked]) && t.jumps[t.order[t.asked]] == "" {
			t.decide(t.order[t.asked])
			return nil
		}
	}
	return t.startAuction()
}

// startAuction: nobody took the hand at its level, the auction (rule 80),
// without the banker who passed it and his associate (rule 86), nor who
// is excluded (rule 88).
func (t *Table) startAuction() error {
	t.phase = Auction
	t.say(MsgAuction, t.rules.AuctionBase, "")
	t.bids, t.answers, t.bidders, t.partner = map[int]int64{}, map[int]bool{}, nil, map[int]int{}
	for _, s := range t.forced {
		if s != t.passer && s != t.passAs && !t.excl[s] && t.Seats.At(s) != nil && !t.Seats.At(s).Leaving {
			t.bidders = append(t.bidders, s)
		}
	}
	t.Decision = &poker.Decision{Deadline: t.Now.Add(t.rules.DecisionTime)}
	return t.auctionMaybeDone()
}

// takeHand makes seat the banker with a bank of amount.
func (t *Table) takeHand(seat int, amount int64) error {
	t.takeHandWith(seat, amount, 0)
	return nil
}

// takeHandWith makes seat the banker with amount, and assoc (0: none) his
// associate with as much (rule 87).
func (t *Table) takeHandWith(seat int, amount int64, assoc int) {
	p := t.Seats.At(seat)
	t.banker, t.wins, t.offerAssoc, t.adjudged, t.played, t.outside = seat, 0, 0, 0, false, false
	t.phase, t.Decision = Idle, nil
	p.Stack -= amount
	p.Session.Wagered += amount
	t.bank += amount
	t.Emit(poker.Record{Kind: KindBank, Seat: seat, Player: p.ID, Amount: amount, Stack: p.Stack})
	if a := t.Seats.At(assoc); a != nil {
		a.Stack -= amount
		a.Session.Wagered += amount
		t.bank += amount
		t.associate = assoc
		t.Emit(poker.Record{Kind: KindAssociate, Seat: assoc, Player: a.ID, Amount: amount, Stack: a.Stack})
	}
	t.say(MsgBank, t.bank, "")
}

func (t *Table) auctionMaybeDone() error {
	for _, s := range t.bidders {
		if !t.answers[s] && !t.Decision.Expired(t.Now) {
			return nil
		}
	}
	// The highest offer; equal offers by priority from the passer's right
	// (rules 83, 84), a lone bidder before an associated offer (rule 87);
	// an associated offer nobody joined is no offer.
	best, win, lone := int64(0), 0, false
	for _, s := range t.bidders {
		p, assoc := t.partner[s]
		if p < 0 || assoc && (p == 0 || t.Seats.At(p) == nil || t.Seats.At(p).Leaving) || t.bids[s] == 0 {
			continue // joined, not joined, or his partner left
		}
		if t.bids[s] > best || t.bids[s] == best && !assoc && !lone {
			best, win, lone = t.bids[s], s, !assoc
		}
	}
	if win != 0 {
		// The offers, said in priority order as the sealed round closes
		// (rules 82, 96), then the hand adjudicated.
		for _, s := range t.bidders {
			if p, assoc := t.partner[s]; t.bids[s] > 0 && (!assoc || p > 0 && t.Seats.At(p) != nil && !t.Seats.At(p).Leaving) {
				t.say(MsgOffer, t.bids[s], "")
			}
		}
		t.say(MsgAdjudicated, best, "")
		if p := t.partner[win]; p > 0 {
			// Half each; the hand to the first of the two in priority
			// order, the other his associate (rule 87).
			a, b := win, p
			if slices.Index(t.bidders, b) < slices.Index(t.bidders, a) {
				a, b = b, a
			}
			t.takeHandWith(a, best/2, b)
			t.adjudged = a
			return nil
		}
		err := t.takeHand(win, best)
		t.adjudged = win // he must give the first coup (rule 88)
		return err
	}
	// No bidder: the next player takes it at the minimum or gives up his
	// seat (rule 85).
	t.phase = Forced
	t.asked = -1
	t.order = slices.DeleteFunc(slices.Clone(t.forced), func(s int) bool { return s == t.passer || t.excl[s] })
	return t.nextForced()
}

func (t *Table) nextForced() error {
	for t.asked++; t.asked < len(t.order); t.asked++ {
		if p := t.Seats.At(t.order[t.asked]); p != nil && !p.Leaving {
			t.decide(p.Seat)
			return nil
		}
	}
	t.phase, t.Decision = Idle, nil // nobody: the next deal gives the hand again (rule 29)
	t.untaken = true
	return nil
}

func (t *Table) act(p *poker.Player, a poker.Action) error {
	if a.Kind == PayOutside {
		switch {
		case p.Seat != t.banker || t.Decision == nil || t.Decision.Seat != p.Seat || t.phase != Stake && t.phase != AfterCoup:
			return fmt.Errorf("player %q: the banker chooses to pay the cagnotte from outside as he states the bank or after a coup (rule 47)", p.ID)
		case t.outside:
			return fmt.Errorf("player %q pays the cagnotte from outside already", p.ID)
		}
		t.outside = true
		t.Emit(poker.Record{Kind: poker.KindAct, Seat: p.Seat, Player: p.ID, Action: string(PayOutside)})
		return nil
	}
	if t.phase == Stake && a.Kind == Associate {
		switch {
		case p.Seat == t.banker:
			return fmt.Errorf("player %q: the banker does not associate with himself", p.ID)
		case t.offerAssoc != 0:
			return fmt.Errorf("player %q: seat %d offered first", p.ID, t.offerAssoc)
		case p.Stack < t.rules.MinBank:
			return fmt.Errorf("player %q: an associate adds as much as the bank, at least the minimum %d; he has %d (rules 31, 35)", p.ID, t.rules.MinBank, p.Stack)
		}
		t.offerAssoc = p.Seat
		t.Emit(poker.Record{Kind: poker.KindAct, Seat: p.Seat, Player: p.ID, Action: string(Associate)})
		return nil
	}
	if t.phase == Auction {
		if !slices.Contains(t.bidders, p.Seat) {
			return fmt.Errorf("player %q may not bid in this auction (rules 86, 88-90)", p.ID)
		}
		if t.answers[p.Seat] {
			return fmt.Errorf("player %q has offered", p.ID)
		}
		switch a.Kind {
		case Bid:
			b := t.rules
			if a.To < b.AuctionBase || (a.To-b.AuctionBase)%b.AuctionStep != 0 || a.To > p.Stack {
				return fmt.Errorf("player %q: an offer of %d: from %d by %d, at most his stack %d (rule 82)", p.ID, a.To, b.AuctionBase, b.AuctionStep, p.Stack)
			}
			t.bids[p.Seat] = a.To
		case BidAssociated:
			b := t.rules
			if a.To < b.AuctionBase || (a.To-b.AuctionBase)%b.AuctionStep != 0 || a.To%2 != 0 || a.To/2 > p.Stack {
				return fmt.Errorf("player %q: an associated offer of %d: from %d by %d, in two halves, his at most his stack %d (rules 82, 87)", p.ID, a.To, b.AuctionBase, b.AuctionStep, p.Stack)
			}
			t.bids[p.Seat], t.partner[p.Seat] = a.To, 0
		case JoinBid:
			s := int(a.To)
			q, open := t.partner[s]
			switch {
			case !open || q != 0 || t.bids[s] == 0: // none, joined, or its bidder left
				return fmt.Errorf("player %q: seat %d has no associated offer to join (rule 87)", p.ID, s)
			case t.bids[s]/2 > p.Stack:
				return fmt.Errorf("player %q: half the offer, %d, with %d", p.ID, t.bids[s]/2, p.Stack)
			}
			t.partner[s], t.partner[p.Seat] = p.Seat, -1
		case NoBid:
		default:
			return fmt.Errorf("player %q: bid or no_bid", p.ID)
		}
		t.answers[p.Seat] = true
		to := t.bids[p.Seat]
		if a.Kind == JoinBid {
			to = a.To
		}
		t.Emit(poker.Record{Kind: poker.KindAct, Seat: p.Seat, Player: p.ID, Action: string(a.Kind), To: to})
		return t.auctionMaybeDone()
	}
	if t.Decision == nil || t.Decision.Seat != p.Seat {
		return fmt.Errorf("player %q: not his decision now", p.ID)
	}
	return t.apply(p, a, false)
}

// apply takes the decision asked of p.
func (t *Table) apply(p *poker.Player, a poker.Action, timeout bool) error {
	bad := func() error { return fmt.Errorf("player %q: %s is not a choice in %s", p.ID, a.Kind, t.phase) }
	rec := func(to int64) {
		t.Emit(poker.Record{Kind: poker.KindAct, Hand: t.coupNo(), Seat: p.Seat, Player: p.ID, Action: string(a.Kind), To: to, Timeout: timeout})
	}
	switch t.phase {
	case Stake:
		switch a.Kind {
		case Bank:
			return t.stateBank(p, a.To, false)
		case BankAssociated:
			return t.stateBank(p, a.To, true)
		case Refuse:
			t.refuseBank(timeout)
			return nil
		}
	case BancoRound:
		switch a.Kind {
		case Banco, Suivi, BancoMesa:
			if p.Seat == t.noBanco && t.HandNo == t.noBancoAt {
				return fmt.Errorf("player %q passed the hand after a tie: no bancô in the next coup (rule 89)", p.ID)
			}
			if t.jumps[p.Seat] != "" {
				return fmt.Errorf("player %q changed seats to get the hand sooner: no bancô until it skips him (rule 92)", p.ID)
			}
		}
		switch a.Kind {
		case Banco, Suivi:
			if a.Kind == Suivi && (p.Seat != t.suivi || t.asked != 0) {
				return fmt.Errorf("player %q: the bancô suivi is the one who lost a bancô in the last coup (rule 51)", p.ID)
			}
			if p.Stack < t.bank {
				return fmt.Errorf("player %q: a bancô covers the bank of %d; he has %d", p.ID, t.bank, p.Stack)
			}
			m := map[poker.ActionKind]Message{Banco: MsgBanco, Suivi: MsgSuivi}[a.Kind]
			switch {
			case a.Kind == Banco && p.Seat == t.mesaPrio && t.mesaHeld():
				m = MsgPriority // «Bancô com prioridade» (rules 57, 96)
			case a.Kind == Banco && t.mesa != 0:
				m = MsgSeulMade // a bancô seul takes the cards from a bancô com a mesa (rule 56)
			}
			t.banco = p.Seat
			t.addStake(p.Seat, t.bank, string(a.Kind))
			t.say(m, t.bank, "")
			return t.close()
		case BancoMesa:
			half := (t.bank + 1) / 2
			amt := a.To
			if amt == 0 {
				amt = half
			}
			switch {
			case p.Seat == t.mesaPrio && t.mesaHeld():
				return fmt.Errorf("player %q made the bancô com a mesa in the last coup: only a bancô seul now (rule 57)", p.ID)
			case t.mesa != 0:
				return fmt.Errorf("player %q: seat %d claimed the bancô com a mesa", p.ID, t.mesa)
			case amt < half || amt > t.bank:
				return fmt.Errorf("player %q: a bancô com a mesa stakes at least half the bank, %d, at most %d (rule 55)", p.ID, half, t.bank)
			case p.Stack < amt:
				return fmt.Errorf("player %q: a stake of %d with %d", p.ID, amt, p.Stack)
			}
			t.mesa, t.mesaAmt = p.Seat, amt
			rec(amt)
			t.say(MsgBancoMesa, amt, "") // the claim repeated (rule 96)
			return t.nextBanco()
		case NoBet:
			rec(0)
			return t.nextBanco()
		}
	case BetRound:
		switch a.Kind {
		case Bet:
			rest := t.bank - t.staked()
			switch {
			case a.To <= 0 || a.To > rest:
				return fmt.Errorf("player %q: a bet of %d; %d of the bank is uncovered", p.ID, a.To, rest)
			case a.To%t.rules.MinBet != 0 && a.To != rest:
				return fmt.Errorf("player %q: a bet of %d is no multiple of the minimum %d (rule 36)", p.ID, a.To, t.rules.MinBet)
			case a.To > p.Stack:
				return fmt.Errorf("player %q: a bet of %d with %d", p.ID, a.To, p.Stack)
			}
			t.addStake(p.Seat, a.To, string(Bet))
			return t.nextBet()
		case NoBet:
			rec(0)
			return t.nextBet()
		}
	case Cards:
		switch a.Kind {
		case PlayCards:
			rec(0)
			return t.dealCoup()
		case PassCards:
			rec(0)
			t.say(MsgCardsPassed, 0, "") // said, as the cards move down the table (rule 96)
			return t.passCards()
		}
	case PontoTurn:
		switch a.Kind {
		case Draw, Stand:
			return t.pontoPlays(a.Kind == Draw, timeout, false)
		}
	case BankerTurn:
		switch a.Kind {
		case Draw, Stand:
			return t.bankerPlays(a.Kind == Draw, timeout)
		}
	case AfterCoup:
		return t.afterCoup(a.Kind, timeout)
	case Offered:
		switch a.Kind {
		case Take:
			if p.Stack < t.level {
				return fmt.Errorf("player %q: the hand's level is %d; he has %d (rule 80)", p.ID, t.level, p.Stack)
			}
			rec(t.level)
			return t.takeHand(p.Seat, t.level)
		case Decline:
			rec(0)
			return t.nextOffer()
		}
	case Forced:
		switch a.Kind {
		case Take:
			if p.Stack < t.rules.MinBank {
				return fmt.Errorf("player %q: the minimum bank is %d; he has %d", p.ID, t.rules.MinBank, p.Stack)
			}
			rec(t.rules.MinBank)
			return t.takeHand(p.Seat, t.rules.MinBank)
		case Refuse:
			rec(0)
			t.say(MsgGaveUpSeat, 0, "")
			t.Leave(p, "gave up his seat rather than take the bank (rule 85)")
			return t.nextForced()
		}
	}
	return bad()
}

// timeout takes the decision whose time is over: no bank, no bet, the ponto
// the cards go to plays them, the ponto stands on 5, the banker plays the
// tableau (draws), the winning banker goes on, a passed hand is declined,
// a forced player gives up his seat.
func (t *Table) timeout() error {
	p := t.Seats.At(t.Decision.Seat)
	var k poker.ActionKind
	switch t.phase {
	case Stake:
		k = Refuse
	case BancoRound, BetRound:
		k = NoBet
	case Cards: // he plays the cards, as the highest stake does (rule 60)
		k = PlayCards
	case PontoTurn: // his rule, standing on 5
		k = Stand
		if PontoPlay(Total(t.pc)) == PontoDraws {
			k = Draw
		}
	case BankerTurn: // the tableau, drawing in its two optional cases
		k = Draw
		if BankerPlay(Total(t.bc), t.third()) == BankerStands {
			k = Stand
		}
	case AfterCoup:
		k = Continue
		if p.Leaving {
			k = Pass
		}
	case Offered:
		k = Decline
	case Forced:
		k = Refuse
		if p.Stack >= t.rules.MinBank && !p.Leaving {
			k = Take // the rule says he must take it; the timer does not take his seat
		}
	}
	return t.apply(p, poker.Action{Kind: k}, true)
}

func (t *Table) tick() error {
	if !t.Decision.Expired(t.Now) {
		return nil
	}
	if t.phase == Auction {
		for _, s := range t.bidders {
			if !t.answers[s] {
				p := t.Seats.At(s)
				t.answers[s] = true
				t.Emit(poker.Record{Kind: poker.KindAct, Seat: s, Player: p.ID, Action: string(NoBid), Timeout: true})
			}
		}
		return t.auctionMaybeDone()
	}
	return t.timeout()
}

// resume starts the table again after a failure of the operator's system:
// the coup in play is void, every stake goes back to its ponto and the
// bank stays the banker's (SRIJ rule 86, as the poker tables; Portaria rule
// 75: a coup the dealer's fault spoiled is annulled). The cards dealt are
// not put back (rule 97). A decision between coups is asked again with a
// new deadline.
func (t *Table) resume() error {
	if !t.inCoup() {
		if t.Decision != nil {
			t.Decision.Deadline = t.Now.Add(t.rules.DecisionTime)
		}
		return nil
	}
	var back []poker.Share
	for _, s := range t.stakes {
		p := t.Seats.At(s.seat)
		p.Stack += s.amount
		p.Session.Wagered -= s.amount
		back = append(back, poker.Share{Seat: s.seat, Amount: s.amount})
	}
	t.stakes = nil
	t.Emit(poker.Record{Kind: poker.KindVoid, Hand: t.HandNo, Shares: back, Reason: "the operator's system failed during the coup (SRIJ rule 86)"})
	t.phase, t.Decision = Idle, nil
	t.pc, t.bc = nil, nil
	if t.last {
		// The void coup was the sabot's last (rule 14): the sabot ends,
		// its cards not put back (rule 97), and the next coup has a new one.
		t.Emit(poker.Record{Kind: KindShoeEnd, Value: t.sab.digest, Cards: t.sab.order, Reason: "the sabot's last coup was void"})
		t.sab, t.last = nil, false
	}
	for _, p := range t.Seats.Players() {
		if p.Leaving && p.Seat != t.banker && p.Seat != t.associate {
			t.Leave(p, "left during the coup")
		}
	}
	if b := t.Seats.At(t.banker); b != nil && b.Leaving {
		if err := t.abandon(); err != nil {
			return err
		}
		if t.Seats.At(b.Seat) == b {
			t.Leave(b, "left with the bank")
		}
	}
	return nil
}

// closing: the closing hour has come (rule 107). A sabot begun at least
// SabotBeforeClose before the hour is played to its end; otherwise the
// coup in play is the last, or, between coups, the next one, said
// «Último golpe» before it (rule 96). No sabot starts after the hour. The
// hour, not the time it is told, is what the sabot's start is measured
// against: a server that tells it late (a restart) closes as on time.
func (t *Table) closing(e poker.Closing) error {
	switch {
	case t.phase == Closed:
		return fmt.Errorf("the partida is over already")
	case !t.closeAt.IsZero():
		return fmt.Errorf("the closing hour %s was told already", t.closeAt.Format(time.RFC3339))
	case e.Hour.IsZero() || e.Hour.After(e.At):
		return fmt.Errorf("the closing hour %s has not come at %s", e.Hour.Format(time.RFC3339), e.At.Format(time.RFC3339))
	}
	t.closeAt, t.untaken = e.Hour, false
	switch {
	case t.sab != nil && !t.sabAt.After(e.Hour.Add(-SabotBeforeClose)):
		t.playsOn = true
		t.say(MsgPlaysOn, 0, "")
	case t.inCoup():
		t.fin = true
		t.say(MsgLastCoup, 0, "")
	default:
		t.lastDue = true
		t.say(MsgNextIsLast, 0, "")
	}
	return nil
}

// closeIfDue ends the partida once its closing hour has come and no coup
// is in play, when its sabot is over (played to its end, or stopped for
// want of players), when its last coup was played, or when no more coups
// can be dealt: too few players present for the last, or, past the hour,
// the hand went round and nobody would take it for the last. A sabot
// played on goes on while the players stay (rule 107), the hand offered
// at every deal; it ends when too few are left.
func (t *Table) closeIfDue() {
	if t.closeAt.IsZero() || t.phase == Closed || t.inCoup() {
		return
	}
	short := t.phase == Idle && len(t.present()) < t.rules.MinSeated
	if t.sab != nil && !t.fin && !(t.lastDue && (short || t.phase == Idle && t.untaken)) {
		return
	}
	t.closePartida()
}

// closePartida: the table closes (rule 107). A decision asked lapses, the
// bank and the garage go back to the banker and his associate, a sabot
// not played out is revealed whole (rules 15, 97), and every player leaves
// with his stack, paid to where his money came from.
func (t *Table) closePartida() {
	t.Decision = nil
	t.say(MsgPartidaOver, 0, "")
	if t.bank+t.garage > 0 {
		t.release()
	}
	if t.sab != nil {
		t.Emit(poker.Record{Kind: KindShoeEnd, Value: t.sab.digest, Cards: t.sab.order, Reason: "the partida closed at its closing hour (rule 107)"})
		t.sab, t.last = nil, false
	}
	t.phase = Closed
	t.banker, t.associate, t.wins, t.played, t.outside, t.offerAssoc = 0, 0, 0, false, false, 0
	t.lastDue, t.fin, t.playsOn = false, false, false
	t.Emit(poker.Record{Kind: poker.KindEnd, Reason: EndOfPartida, Stacks: t.Seats.StackList()})
	for _, p := range t.Seats.Players() {
		t.Leave(p, "the table closed at its closing hour (rule 107)")
	}
}

// Closing is the closing hour told (zero: not yet), and whether the coup in
// play, or the next, is the partida's last.
func (t *Table) Closing() (hour time.Time, lastCoup bool) { return t.closeAt, t.fin || t.lastDue }
