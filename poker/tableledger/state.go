package tableledger

import (
	"fmt"
	"slices"
	"sort"
	"time"

	"github.com/openegm/cabinet/poker"
	"github.com/openegm/cabinet/poker/tabledef"
)

// State is the fold of the table server's ledger: every table's seats and
// stacks, the hand in play and its pot, a carried pot, the money that came
// and went (caves, re-buys, fees, rake, cash-outs) and every transfer. It
// recomputes the money of every record from the records alone, apart from
// the engines, and refuses a record whose money does not add up: the rake
// of a pot that is not the definition's rate to the cent, a void that does
// not give back every stake, a cash-out that is not the player's stack.
type State struct {
	Tables    map[string]*Table         `json:"tables"`
	Transfers map[string]*TransferState `json:"transfers"`
	Sources   map[string]*SourceTotals  `json:"sources"`
	Counts    map[string]uint64         `json:"counts"` // records folded, by type
	Events    []ServerEvent             `json:"events"` // the last eventsKept
}

const eventsKept = 50

// Table is one table as the ledger knows it.
type Table struct {
	ID      string `json:"id"`
	Session int    `json:"session"`
	Open    bool   `json:"open"`   // a session is open
	Opened  uint64 `json:"opened"` // the log sequence of the session's Open (from its steps)
	// The definition the session plays, as signed.
	Definition []byte    `json:"definition"`
	Signature  []byte    `json:"signature"`
	Digest     string    `json:"digest"`
	KeyID      string    `json:"key_id"`
	Game       string    `json:"game"`
	RakeBps    int64     `json:"rake_bps"`
	FeeBps     int64     `json:"fee_bps"`
	OpenedAt   time.Time `json:"opened_at"`

	Players map[string]*Seat `json:"players"`
	// The hand in play (0: none), the chips in its pot, and each seat's
	// stake in it (what a void gives back).
	Hand     uint64        `json:"hand"`
	LastHand uint64        `json:"last_hand"`
	InPot    int64         `json:"in_pot"`
	Stakes   map[int]int64 `json:"stakes,omitempty"`
	Carried  int64         `json:"carried"` // a pó waiting for the next hand
	Over     bool          `json:"over"`    // the partida is over (synthetic poker)
	Meters   Meters        `json:"meters"`
	Step     uint64        `json:"step"`            // steps of the session
	Last     time.Time     `json:"last"`            // time of the last step
	Shown    bool          `json:"shown,omitempty"` // the hand in play reached a showdown
	// Chemin de fer (chemin.go): the bank on the table, the garage set
	// aside, whose they are, and the cagnotte's rate and rounding.
	Bank        int64  `json:"bank,omitempty"`
	Garage      int64  `json:"garage,omitempty"`
	Banker      int    `json:"banker,omitempty"`
	Associate   int    `json:"associate,omitempty"`
	CagnotteBps int64  `json:"cagnotte_bps,omitempty"`
	Rounding    string `json:"rounding,omitempty"`
	Decks       int64  `json:"decks,omitempty"` // the sabot's decks (rules 7, 8)
	// The banker's seat that pays the cagnotte from outside, from his
	// stack (rule 47); the auction's offers by seat, the associated ones'
	// partners (rule 87), until the bank is stated; the seat that must
	// associate with the bank the auction gave (half each).
	Outside  int           `json:"outside,omitempty"`
	Offers   map[int]int64 `json:"offers,omitempty"`
	Partners map[int]int   `json:"partners,omitempty"`
	AssocDue int           `json:"assoc_due,omitempty"`
	// The coup's bancô (its seat: the cards are his, rules 45, 55, 70),
	// the pontos who declined the cards (rule 101), and the seat they went
	// to (0: not dealt yet): whom the ponto's deal must go to.
	Banco       int   `json:"banco,omitempty"`
	CardsPassed []int `json:"cards_passed,omitempty"`
	Ponto       int   `json:"ponto,omitempty"`
	// The least bank; the bank last given back (a passed hand's level,
	// rules 78, 80); whether an auction was called since (a hand taken
	// then is taken at the least bank, rule 85); the bank a take states.
	MinBank   int64 `json:"min_bank,omitempty"`
	Level     int64 `json:"level,omitempty"`
	Auctioned bool  `json:"auctioned,omitempty"`
	Taken     int64 `json:"taken,omitempty"`
	// The closing hour told (rule 107), when the sabot in play began
	// (zero: none) and the cards dealt from it, whether the hour let it
	// play on to its end, and the coups that may still start when not
	// (the next, told between coups; none, told during one); the seated
	// players a partida needs.
	Closing    time.Time `json:"closing,omitzero"`
	ShoeAt     time.Time `json:"shoe_at,omitzero"`
	Dealt      int64     `json:"dealt,omitempty"`
	PlaysOn    bool      `json:"plays_on,omitempty"`
	CoupsLeft  int       `json:"coups_left,omitempty"`
	MinPlayers int       `json:"min_players,omitempty"`
}

// Seat is a player at a table.
type Seat struct {
	Seat    int    `json:"seat"`
	Source  string `json:"source"`
	BuyIn   string `json:"buy_in"` // the transfer that seated him
	Stack   int64  `json:"stack"`
	Resting bool   `json:"resting,omitempty"`
	// CashOut is the cash-out transfer asked and not yet paid (he leaves
	// when the hand he plays ends).
	CashOut string       `json:"cash_out,omitempty"`
	Totals  poker.Totals `json:"totals"`
}

// Meters are a table's money and counts since its first session, in
// cents.
type Meters struct {
	PaidIn    int64 `json:"paid_in"`  // caves and re-buys as paid
	Fees      int64 `json:"fees"`     // buy-in fees kept by the house
	Rake      int64 `json:"rake"`     // the house's part of pots
	PaidOut   int64 `json:"paid_out"` // cash-outs
	Hands     int64 `json:"hands"`    // hands ended
	Voided    int64 `json:"voided"`   // hands void (SRIJ rule 86)
	Showdowns int64 `json:"showdowns"`
	Pots      int64 `json:"pots"`    // pots paid
	Carries   int64 `json:"carries"` // pós
	Timeouts  int64 `json:"timeouts"`
}

// TransferState is a transfer and what became of it.
type TransferState struct {
	Transfer
	Table string    `json:"table"`
	At    time.Time `json:"at"`
	// Done: a buy-in or re-buy is done when logged; a cash-out when its
	// player left (Amount is then what he took).
	Done   bool      `json:"done"`
	DoneAt time.Time `json:"done_at,omitempty"`
}

// SourceTotals is the money a source moved through the tables.
type SourceTotals struct {
	In  int64 `json:"in"`  // buy-ins and re-buys
	Out int64 `json:"out"` // cash-outs paid
}

// NewState is the state of an empty ledger.
func NewState() *State {
	return &State{Tables: map[string]*Table{}, Transfers: map[string]*TransferState{},
		Sources: map[string]*SourceTotals{}, Counts: map[string]uint64{}}
}

// Apply folds one record. An error leaves the state unreliable: the ledger
// stops (a fault).
func (s *State) Apply(r Record) error {
	var err error
	switch x := r.(type) {
	case SessionOpen:
		err = s.open(x)
	case Step:
		err = s.step(x)
	case SessionClose:
		err = s.close(x)
	case ServerEvent:
		s.Events = append(s.Events, x)
		if len(s.Events) > eventsKept {
			s.Events = slices.Clone(s.Events[len(s.Events)-eventsKept:])
		}
	default:
		err = fmt.Errorf("unknown record %T", r)
	}
	if err == nil {
		s.Counts[r.Type().String()]++
	}
	return err
}

func (s *State) open(o SessionOpen) error {
	t := s.Tables[o.Table]
	switch {
	case o.Table == "":
		return fmt.Errorf("open: no table")
	case t != nil && t.Open:
		return fmt.Errorf("open %s: session %d is still open", o.Table, t.Session)
	case t != nil && (len(t.Players) > 0 || t.Carried != 0):
		return fmt.Errorf("open %s: the table still holds players or a pot", o.Table)
	}
	prev := 0
	if t != nil {
		prev = t.Session
	}
	if o.Session != prev+1 {
		return fmt.Errorf("open %s: session %d after %d", o.Table, o.Session, prev)
	}
	if tabledef.Digest(o.Definition) != o.Digest {
		return fmt.Errorf("open %s: the definition's digest is not %s", o.Table, o.Digest)
	}
	d, err := tabledef.Parse(o.Table, o.Definition)
	if err != nil {
		return fmt.Errorf("open %s: %w", o.Table, err)
	}
	if t == nil {
		t = &Table{ID: o.Table}
		s.Tables[o.Table] = t
	}
	t.Session, t.Open, t.Opened, t.Step = o.Session, true, 0, 0
	t.Definition, t.Signature, t.Digest, t.KeyID = o.Definition, o.Signature, o.Digest, o.KeyID
	t.Game, t.RakeBps, t.FeeBps = string(d.Game), d.RakeBps(), d.FeeBps()
	t.CagnotteBps, t.Rounding, t.Decks = 0, "", 0
	if d.Chemin != nil {
		t.CagnotteBps, t.Rounding, t.Decks = d.Chemin.CagnotteBps, string(d.Chemin.Rounding), int64(d.Chemin.Decks)
		t.MinBank, t.MinPlayers = d.Chemin.MinBank, d.Chemin.MinPlayers
	}
	t.Closing, t.ShoeAt, t.Dealt, t.PlaysOn, t.CoupsLeft = time.Time{}, time.Time{}, 0, false, 0
	t.Bank, t.Garage, t.Banker, t.Associate = 0, 0, 0, 0
	t.Outside, t.Offers, t.Partners, t.AssocDue = 0, nil, nil, 0
	t.Banco, t.CardsPassed, t.Ponto = 0, nil, 0
	t.Level, t.Auctioned, t.Taken = 0, false, 0
	t.OpenedAt, t.Last = o.At, o.At
	t.Players, t.Hand, t.LastHand, t.InPot, t.Stakes, t.Over, t.Shown = map[string]*Seat{}, 0, 0, 0, nil, false, false
	return nil
}

func (s *State) close(c SessionClose) error {
	t := s.Tables[c.Table]
	switch {
	case t == nil || !t.Open || t.Session != c.Session:
		return fmt.Errorf("close %s: session %d is not open", c.Table, c.Session)
	case len(t.Players) > 0 || t.Hand != 0 || t.Carried != 0 || t.InPot != 0 || t.Bank != 0 || t.Garage != 0:
		return fmt.Errorf("close %s: the table still holds players or chips", c.Table)
	}
	t.Open = false
	return nil
}

// step folds a table's step: its transfer, then its records, then the
// table's money must add up.
func (s *State) step(x Step) error {
	t := s.Tables[x.Table]
	switch {
	case t == nil || !t.Open || t.Session != x.Session:
		return fmt.Errorf("step of %s session %d: no such session open", x.Table, x.Session)
	case x.Opened == 0 || (t.Opened != 0 && x.Opened != t.Opened):
		return fmt.Errorf("step of %s: session opened at record %d, not %d", x.Table, x.Opened, t.Opened)
	case x.Event.At.Before(t.Last):
		return fmt.Errorf("step of %s at %s, before its last step %s", x.Table, x.Event.At.Format(time.RFC3339Nano), t.Last.Format(time.RFC3339Nano))
	}
	t.Opened, t.Last = x.Opened, x.Event.At
	t.Step++
	f := &stepFold{s: s, t: t, x: x}
	if err := f.transfer(); err != nil {
		return fmt.Errorf("%s step %d: %w", x.Table, t.Step, err)
	}
	if x.Event.Kind == "closing" {
		if err := f.closing(); err != nil {
			return fmt.Errorf("%s step %d: %w", x.Table, t.Step, err)
		}
	}
	for i, r := range x.Records {
		if err := f.record(r); err != nil {
			return fmt.Errorf("%s step %d record %d (%s): %w", x.Table, t.Step, i, r.Kind, err)
		}
	}
	if err := f.done(); err != nil {
		return fmt.Errorf("%s step %d: %w", x.Table, t.Step, err)
	}
	return t.conserved()
}

type stepFold struct {
	s        *State
	t        *Table
	x        Step
	moneyIn  int // join and re-buy records seen
	cashOuts int
}

// transfer checks the step's transfer against its event and registers it.
func (f *stepFold) transfer() error {
	tr, ev := f.x.Transfer, f.x.Event
	switch {
	case tr == nil && (ev.Kind == "join" || ev.Kind == "rebuy" || ev.Kind == "leave"):
		return fmt.Errorf("a %s of %q without a transfer", ev.Kind, ev.Player)
	case tr == nil:
		return nil
	case tr.ID == "" || tr.Source == "" || tr.Player != ev.Player:
		return fmt.Errorf("transfer %+v for a %s of %q", *tr, ev.Kind, ev.Player)
	case f.s.Transfers[tr.ID] != nil:
		return fmt.Errorf("transfer %q applied twice", tr.ID)
	}
	want := map[string]string{"join": BuyIn, "rebuy": Rebuy, "leave": CashOut}[ev.Kind]
	if tr.Kind != want {
		return fmt.Errorf("transfer %q is a %s, the event a %s", tr.ID, tr.Kind, ev.Kind)
	}
	p := f.t.Players[tr.Player]
	switch tr.Kind {
	case BuyIn, Rebuy:
		if tr.Amount != ev.Amount || tr.Amount <= 0 {
			return fmt.Errorf("transfer %q of %d for a %s of %d", tr.ID, tr.Amount, ev.Kind, ev.Amount)
		}
		if tr.Kind == Rebuy && (p == nil || p.Source != tr.Source) {
			return fmt.Errorf("re-buy %q from %q: the player's money comes from one source", tr.ID, tr.Source)
		}
	case CashOut:
		switch {
		case p == nil:
			return fmt.Errorf("cash-out %q: %q is not at the table", tr.ID, tr.Player)
		case p.CashOut != "":
			return fmt.Errorf("cash-out %q: %q has cash-out %q pending", tr.ID, tr.Player, p.CashOut)
		case tr.Source != p.Source || tr.Amount != 0:
			return fmt.Errorf("cash-out %q to %q of %d: a cash-out goes to the source %q, its amount is the stack", tr.ID, tr.Source, tr.Amount, p.Source)
		}
		p.CashOut = tr.ID
	}
	f.s.Transfers[tr.ID] = &TransferState{Transfer: *tr, Table: f.t.ID, At: ev.At}
	return nil
}

func (f *stepFold) seat(r poker.Record) (*Seat, error) {
	p := f.t.Players[r.Player]
	if p == nil || p.Seat != r.Seat {
		return nil, fmt.Errorf("seat %d (%q) is not at the table", r.Seat, r.Player)
	}
	return p, nil
}

func (f *stepFold) inHand(r poker.Record) error {
	if f.t.Hand == 0 || r.Hand != f.t.Hand {
		return fmt.Errorf("a record of hand %d while hand %d is in play", r.Hand, f.t.Hand)
	}
	return nil
}

// record folds one engine record.
func (f *stepFold) record(r poker.Record) error {
	t := f.t
	if r.Amount < 0 || r.Fee < 0 || r.Rake < 0 {
		return fmt.Errorf("negative amount")
	}
	if t.isChemin() {
		if done, err := f.cheminRecord(r); done || err != nil {
			return err
		}
	}
	switch r.Kind {
	case poker.KindJoin, poker.KindRebuy:
		tr := f.x.Transfer
		want := map[poker.Kind]string{poker.KindJoin: BuyIn, poker.KindRebuy: Rebuy}[r.Kind]
		if tr == nil || tr.Kind != want || tr.Player != r.Player || tr.Amount != r.Amount || f.moneyIn > 0 {
			return fmt.Errorf("%s of %d for %q is not the step's transfer", r.Kind, r.Amount, r.Player)
		}
		f.moneyIn++
		if r.Fee != r.Amount*t.FeeBps/10000 {
			return fmt.Errorf("a fee of %d on %d, the definition's %d bps make %d", r.Fee, r.Amount, t.FeeBps, r.Amount*t.FeeBps/10000)
		}
		p := t.Players[r.Player]
		if r.Kind == poker.KindJoin {
			if p != nil {
				return fmt.Errorf("%q already has a seat", r.Player)
			}
			for _, q := range t.Players {
				if q.Seat == r.Seat {
					return fmt.Errorf("seat %d is taken", r.Seat)
				}
			}
			if t.Over {
				return fmt.Errorf("a join after the partida's end")
			}
			p = &Seat{Seat: r.Seat, Source: tr.Source, BuyIn: tr.ID}
			t.Players[r.Player] = p
		} else if p == nil || p.Seat != r.Seat {
			return fmt.Errorf("a re-buy for %q, not at the table", r.Player)
		}
		p.Stack += r.Amount - r.Fee
		if p.Stack != r.Stack {
			return fmt.Errorf("stack %d after it, the record says %d", p.Stack, r.Stack)
		}
		p.Totals.BoughtIn += r.Amount
		p.Totals.Fees += r.Fee
		t.Meters.PaidIn += r.Amount
		t.Meters.Fees += r.Fee
		f.source(tr.Source).In += r.Amount
		f.s.Transfers[tr.ID].Done, f.s.Transfers[tr.ID].DoneAt = true, r.At
	case poker.KindLeave:
		p, err := f.seat(r)
		if err != nil {
			return err
		}
		if r.Amount != p.Stack {
			return fmt.Errorf("%q leaves with %d, his stack is %d", r.Player, r.Amount, p.Stack)
		}
		if p.CashOut == "" {
			return fmt.Errorf("%q leaves without a cash-out transfer", r.Player)
		}
		tot := p.Totals
		tot.CashedOut = r.Amount
		if r.Totals == nil || *r.Totals != tot {
			return fmt.Errorf("%q's session totals %+v, the ledger's %+v", r.Player, r.Totals, tot)
		}
		ts := f.s.Transfers[p.CashOut]
		ts.Amount, ts.Done, ts.DoneAt = r.Amount, true, r.At
		f.source(p.Source).Out += r.Amount
		t.Meters.PaidOut += r.Amount
		delete(t.Players, r.Player)
		f.cashOuts++
	case poker.KindSitOut, poker.KindSitIn:
		p, err := f.seat(r)
		if err != nil {
			return err
		}
		p.Resting = r.Kind == poker.KindSitOut
	case poker.KindHandStart:
		if t.Hand != 0 || r.Hand <= t.LastHand {
			return fmt.Errorf("hand %d starts after hand %d, with hand %d in play", r.Hand, t.LastHand, t.Hand)
		}
		if err := f.stacks(r.Stacks); err != nil {
			return err
		}
		if r.Amount != t.Carried {
			return fmt.Errorf("hand %d brings in %d, %d is carried", r.Hand, r.Amount, t.Carried)
		}
		t.Hand, t.InPot, t.Carried, t.Stakes = r.Hand, r.Amount, 0, map[int]int64{}
	case poker.KindDeal:
		if err := f.inHand(r); err != nil {
			return err
		}
		p, err := f.seat(r)
		if err != nil {
			return err
		}
		p.Totals.Hands++
	case poker.KindPost, poker.KindAct:
		if err := f.inHand(r); err != nil {
			return err
		}
		p, err := f.seat(r)
		if err != nil {
			return err
		}
		if r.Amount > p.Stack {
			return fmt.Errorf("%q puts in %d with %d", r.Player, r.Amount, p.Stack)
		}
		p.Stack -= r.Amount
		p.Totals.Wagered += r.Amount
		t.InPot += r.Amount
		if t.Stakes == nil {
			// A snapshot written before the hand's first stake left the
			// empty map out (omitempty): it comes back nil.
			t.Stakes = map[int]int64{}
		}
		t.Stakes[r.Seat] += r.Amount
		if r.Timeout {
			t.Meters.Timeouts++
		}
	case poker.KindReturn:
		if err := f.inHand(r); err != nil {
			return err
		}
		p, err := f.seat(r)
		if err != nil {
			return err
		}
		if r.Amount > t.Stakes[r.Seat] {
			return fmt.Errorf("%d given back to seat %d, who put in %d", r.Amount, r.Seat, t.Stakes[r.Seat])
		}
		p.Stack += r.Amount
		p.Totals.Wagered -= r.Amount
		t.InPot -= r.Amount
		t.Stakes[r.Seat] -= r.Amount
	case poker.KindAward:
		if err := f.inHand(r); err != nil {
			return err
		}
		if want := r.Amount * t.RakeBps / 10000; r.Rake != want {
			return fmt.Errorf("pot %d of %d raked %d, the definition's %d bps make %d", r.Pot, r.Amount, r.Rake, t.RakeBps, want)
		}
		if r.Amount > t.InPot {
			return fmt.Errorf("pot %d of %d with %d in the pot", r.Pot, r.Amount, t.InPot)
		}
		paid := r.Rake
		for _, sh := range r.Shares {
			p := f.bySeat(sh.Seat)
			if p == nil || sh.Amount < 0 {
				return fmt.Errorf("a share of %d to seat %d, not at the table", sh.Amount, sh.Seat)
			}
			p.Stack += sh.Amount
			p.Totals.Won += sh.Amount
			paid += sh.Amount
		}
		if paid != r.Amount || len(r.Shares) == 0 {
			return fmt.Errorf("pot %d of %d pays %d with its rake", r.Pot, r.Amount, paid)
		}
		t.InPot -= r.Amount
		t.Meters.Rake += r.Rake
		t.Meters.Pots++
	case poker.KindShow:
		if err := f.inHand(r); err != nil {
			return err
		}
		t.Shown = true
	case poker.KindCarry:
		if err := f.inHand(r); err != nil {
			return err
		}
		if r.Amount != t.InPot {
			return fmt.Errorf("a carry of %d with %d in the pot", r.Amount, t.InPot)
		}
		t.Carried, t.InPot = r.Amount, 0
		t.Meters.Carries++
	case poker.KindHandEnd:
		if err := f.inHand(r); err != nil {
			return err
		}
		if t.InPot != 0 {
			return fmt.Errorf("hand %d ends with %d in the pot", r.Hand, t.InPot)
		}
		if err := f.stacks(r.Stacks); err != nil {
			return err
		}
		if t.Shown {
			t.Meters.Showdowns++
		}
		t.LastHand, t.Hand, t.Stakes, t.Shown = t.Hand, 0, nil, false
		t.Meters.Hands++
	case poker.KindVoid:
		if err := f.inHand(r); err != nil {
			return err
		}
		back := map[int]int64{}
		for _, sh := range r.Shares {
			back[sh.Seat] += sh.Amount
		}
		var total int64
		for seat, stake := range t.Stakes {
			if stake != back[seat] {
				return fmt.Errorf("void of hand %d gives seat %d %d back, its stake is %d", r.Hand, seat, back[seat], stake)
			}
			if stake > 0 {
				p := f.bySeat(seat)
				if p == nil {
					return fmt.Errorf("void of hand %d: seat %d is not at the table", r.Hand, seat)
				}
				p.Stack += stake
				p.Totals.Wagered -= stake
				total += stake
			}
			delete(back, seat)
		}
		for seat, a := range back {
			if a != 0 {
				return fmt.Errorf("void of hand %d gives %d to seat %d, who staked nothing", r.Hand, a, seat)
			}
		}
		if t.InPot-total != r.Amount {
			return fmt.Errorf("void of hand %d keeps %d carried, the pot holds %d after the stakes", r.Hand, r.Amount, t.InPot-total)
		}
		t.Carried, t.InPot = r.Amount, 0
		t.LastHand, t.Hand, t.Stakes, t.Shown = t.Hand, 0, nil, false
		t.Meters.Voided++
	case poker.KindPoAward:
		// The last player at the table takes a carried pó as he leaves.
		p, err := f.seat(r)
		if err != nil {
			return err
		}
		switch want := r.Amount * t.RakeBps / 10000; {
		case t.Hand != 0 || r.Hand != 0:
			return fmt.Errorf("a pó paid during hand %d", t.Hand)
		case len(t.Players) != 1:
			return fmt.Errorf("a pó paid to %q with %d players at the table", r.Player, len(t.Players))
		case r.Amount != t.Carried || r.Amount == 0:
			return fmt.Errorf("a pó of %d paid with %d carried", r.Amount, t.Carried)
		case r.Rake != want:
			return fmt.Errorf("a pó of %d raked %d, the definition's %d bps make %d", r.Amount, r.Rake, t.RakeBps, want)
		case len(r.Shares) != 1 || r.Shares[0].Seat != p.Seat || r.Shares[0].Amount != r.Amount-r.Rake:
			return fmt.Errorf("a pó of %d less %d paid as %+v, not to seat %d alone", r.Amount, r.Rake, r.Shares, p.Seat)
		}
		p.Stack += r.Shares[0].Amount
		p.Totals.Won += r.Shares[0].Amount
		t.Carried = 0
		t.Meters.Rake += r.Rake
		t.Meters.Pots++
	case poker.KindEnd:
		if t.Hand != 0 {
			return fmt.Errorf("the partida ends during hand %d", t.Hand)
		}
		t.Over = true
	case poker.KindDeck, poker.KindBoard, poker.KindExtraTime:
		if err := f.inHand(r); err != nil {
			return err
		}
	default:
		return fmt.Errorf("unknown record kind %q", r.Kind)
	}
	return nil
}

func (f *stepFold) bySeat(seat int) *Seat {
	for _, p := range f.t.Players {
		if p.Seat == seat {
			return p
		}
	}
	return nil
}

func (f *stepFold) source(id string) *SourceTotals {
	st := f.s.Sources[id]
	if st == nil {
		st = &SourceTotals{}
		f.s.Sources[id] = st
	}
	return st
}

// stacks checks a record's list of stacks against the ledger's: the same
// players, seats and chips.
func (f *stepFold) stacks(l []poker.SeatStack) error {
	if len(l) != len(f.t.Players) {
		return fmt.Errorf("%d stacks listed, %d players seated", len(l), len(f.t.Players))
	}
	for _, st := range l {
		p := f.t.Players[st.Player]
		if p == nil || p.Seat != st.Seat || p.Stack != st.Stack {
			return fmt.Errorf("seat %d (%q) listed with %d, the ledger has %+v", st.Seat, st.Player, st.Stack, p)
		}
	}
	return nil
}

// done checks what a step must hold as a whole: a buy-in or re-buy moved
// its money, a cash-out asked during a hand waits, one asked between hands
// was paid.
func (f *stepFold) done() error {
	tr := f.x.Transfer
	if tr == nil {
		return nil
	}
	switch tr.Kind {
	case BuyIn, Rebuy:
		if f.moneyIn != 1 {
			return fmt.Errorf("transfer %q moved no money", tr.ID)
		}
	}
	return nil
}

// conserved is the table's chip conservation: every cent paid in is a
// stack, in the pot, carried, the house's or paid out.
func (t *Table) conserved() error {
	var stacks int64
	for _, p := range t.Players {
		if p.Stack < 0 {
			return fmt.Errorf("%s: seat %d has %d", t.ID, p.Seat, p.Stack)
		}
		stacks += p.Stack
	}
	m := t.Meters
	if held := stacks + t.InPot + t.Carried + t.Bank + t.Garage + m.Fees + m.Rake + m.PaidOut; held != m.PaidIn || t.InPot < 0 || t.Carried < 0 || t.Bank < 0 || t.Garage < 0 {
		return fmt.Errorf("%s: chip conservation: paid in %d, held %d (stacks %d, pot %d, carried %d, bank %d, garage %d, fees %d, rake %d, paid out %d)",
			t.ID, m.PaidIn, held, stacks, t.InPot, t.Carried, t.Bank, t.Garage, m.Fees, m.Rake, m.PaidOut)
	}
	return nil
}

// Check verifies the invariants of the whole state: every table's money,
// every transfer against the sources' totals.
func (s *State) Check() error {
	for _, id := range s.TableIDs() {
		if err := s.Tables[id].conserved(); err != nil {
			return err
		}
	}
	sums := map[string]*SourceTotals{}
	for _, tr := range s.Transfers {
		st := sums[tr.Source]
		if st == nil {
			st = &SourceTotals{}
			sums[tr.Source] = st
		}
		if !tr.Done {
			continue
		}
		if tr.Kind == CashOut {
			st.Out += tr.Amount
		} else {
			st.In += tr.Amount
		}
	}
	for id, st := range s.Sources {
		if got := sums[id]; got == nil || *got != *st {
			return fmt.Errorf("source %q: totals %+v, its transfers make %+v", id, *st, got)
		}
	}
	return nil
}

// TableIDs lists the tables in name order.
func (s *State) TableIDs() []string {
	ids := make([]string, 0, len(s.Tables))
	for id := range s.Tables {
		ids = append(ids, id)
	}
	sort.Strings(ids)
	return ids
}

// Seated is the players of a table in seat order.
func (t *Table) Seated() []string {
	var ids []string
	for id := range t.Players {
		ids = append(ids, id)
	}
	sort.Slice(ids, func(i, j int) bool { return t.Players[ids[i]].Seat < t.Players[ids[j]].Seat })
	return ids
}
