package meters

import (
	"fmt"
	"maps"
	"slices"
	"strconv"

	"github.com/openegm/cabinet/aft"
	"github.com/openegm/cabinet/sas/metercode"
)

// Meter names one meter of the standard set.
type Meter int

const (
	CoinIn                   Meter = iota // bets
	CoinOut                               // wins paid to the credit meter (paytable and progressive)
	HandpaidWins                          // hand-paid wins (paytable and progressive): SAS's "total jackpot"
	HandpaidCancelled                     // credits cashed out by an attendant
	Cancelled                             // all cancelled credits
	GamesPlayed                           //
	GamesWon                              //
	GamesLost                             //
	BillsIn                               // value of bills accepted
	Credits                               // the credit meter
	TicketIn                              //
	TicketOut                             //
	ElectronicIn                          //
	ElectronicOut                         //
	MachinePaidPaytable                   //
	MachinePaidProgressive                //
	AttendantPaidPaytable                 //
	AttendantPaidProgressive              //
	TotalWon                              // every win, however paid
	TotalHandPaid                         //
	TotalDrop                             // cash into the drop (bills and coins)
	GamesSincePowerUp                     //
	GamesSinceDoorClose                   //
	StackerBills                          // bills in the stacker since it was emptied
	StackerValue                          //
	CoinsIn                               //
	HopperOut                             //
	MainDoorOpens                         //
	LogicDoorOpens                        //
	CashboxDoorOpens                      //
	BellyDoorOpens                        //
	DropDoorOpens                         //
	PowerResets                           //
	TicketsOut                            // tickets printed (numbers validation codes)
	// Promotional credits (SAS AFT, promo.go): the credit meter holds
	// cashable money and these two kinds, each with its own equation.
	RestrictedCredits      // the credit meter's restricted part: played, never cashed out
	NonRestrictedCredits   // the credit meter's non-restricted part: played, cashed out as money
	RestrictedPlayed       //
	NonRestrictedPlayed    //
	RestrictedIn           //
	NonRestrictedIn        //
	RestrictedOut          // to the host
	NonRestrictedOut       // to the host
	RestrictedExpired      // taken off the credit meter when they expired: never money
	NonRestrictedCashedOut // left with the player's cash-outs, as money
	MachinePaidBonus       // AFT bonus wins paid to the credit meter
	AttendantPaidBonus     // AFT bonus jackpot wins paid by an attendant (aftbonus.go)
	PokerToTables          // buy-ins and re-buys the table server holds (poker.go)
	PokerFromTables        // cash-outs the table server paid back
	// Restricted promotional tickets (tickets.go): restricted credits out
	// on a ticket and in from one. They are tickets too, so TicketOut,
	// TicketIn and TicketsOut count them as well (SAS's total ticket
	// meters 0x15/0x16 take every kind of ticket).
	RestrictedTicketOut  // SAS 0x10
	RestrictedTicketIn   // SAS 0x0F
	RestrictedTicketsOut // SAS 0x14
	RestrictedTicketsIn  // SAS 0x13
	numMeters
)

// Def describes a meter for readouts and SAS.
type Def struct {
	Name     string // the ledger's name (readouts and the service screens translate it)
	SAS      int    // SAS meter code (package metercode), -1 when SAS has none
	Cents    bool   // an amount in cents (else a count)
	Lifetime bool   // only grows; only a RAM clear zeroes it
}

// noSAS marks a meter SAS has no code for.
const noSAS = -1

func sasCode(c metercode.Code) int { return int(c) }

// Defs is the meter set in readout order, each with its code in the one
// table of SAS meter codes. Amounts are cents, which are credits at the
// cabinet's SAS accounting denomination of 0.01.
//
// Choice: ticket in and out are SAS's total ticket in/out (0x15/0x16,
// every ticket, in credits), not 0x0D/0x0E, which count tickets validated
// through SAS (the cabinet prints its own validation numbers). Coins in and
// hopper paid are 0x08/0x09 (credits from the coin acceptor, paid from the
// hopper). Door openings and power resets have no Table C-7 code (long
// poll 0x1C reports two of them, see SASMeter).
var Defs = [numMeters]Def{
	CoinIn:                   {"total coin in (bets)", sasCode(metercode.TotalCoinIn), true, true},
	CoinOut:                  {"total coin out (wins to credits)", sasCode(metercode.TotalCoinOut), true, true},
	HandpaidWins:             {"total jackpot (hand-paid wins)", sasCode(metercode.TotalJackpot), true, true},
	HandpaidCancelled:        {"hand-paid cancelled credits", sasCode(metercode.TotalHandPaidCancelled), true, true},
	Cancelled:                {"total cancelled credits", sasCode(metercode.TotalCancelledCredits), true, true},
	GamesPlayed:              {"games played", sasCode(metercode.GamesPlayed), false, true},
	GamesWon:                 {"games won", sasCode(metercode.GamesWon), false, true},
	GamesLost:                {"games lost", sasCode(metercode.GamesLost), false, true},
	BillsIn:                  {"total bills accepted", sasCode(metercode.BillsAcceptedCredits), true, true},
	Credits:                  {"current credits", sasCode(metercode.CurrentCredits), true, false},
	TicketIn:                 {"ticket in", sasCode(metercode.TotalTicketIn), true, true},
	TicketOut:                {"ticket out", sasCode(metercode.TotalTicketOut), true, true},
	ElectronicIn:             {"electronic transfers to machine", sasCode(metercode.ElectronicToMachine), true, true},
	ElectronicOut:            {"electronic transfers from machine", sasCode(metercode.ElectronicToHost), true, true},
	MachinePaidPaytable:      {"machine-paid paytable win", sasCode(metercode.MachinePaidPaytableWin), true, true},
	MachinePaidProgressive:   {"machine-paid progressive win", sasCode(metercode.MachinePaidProgressiveWin), true, true},
	AttendantPaidPaytable:    {"attendant-paid paytable win", sasCode(metercode.AttendantPaidPaytableWin), true, true},
	AttendantPaidProgressive: {"attendant-paid progressive win", sasCode(metercode.AttendantPaidProgressive), true, true},
	TotalWon:                 {"total won", sasCode(metercode.TotalWon), true, true},
	TotalHandPaid:            {"total hand paid", sasCode(metercode.TotalHandPaid), true, true},
	TotalDrop:                {"total drop", sasCode(metercode.TotalDrop), true, true},
	GamesSincePowerUp:        {"games since power reset", sasCode(metercode.GamesSincePowerReset), false, false},
	GamesSinceDoorClose:      {"games since slot door closure", sasCode(metercode.GamesSinceDoorClosure), false, false},
	StackerBills:             {"bills in stacker", sasCode(metercode.BillsInStacker), false, false},
	StackerValue:             {"value of bills in stacker", sasCode(metercode.BillValueInStacker), true, false},
	CoinsIn:                  {"coins in", sasCode(metercode.CoinAcceptorCredits), true, true},
	HopperOut:                {"hopper paid", sasCode(metercode.HopperPaidCredits), true, true},
	MainDoorOpens:            {"main (slot) door openings", noSAS, false, true},
	LogicDoorOpens:           {"logic door openings", noSAS, false, true},
	CashboxDoorOpens:         {"cashbox door openings", noSAS, false, true},
	BellyDoorOpens:           {"belly door openings", noSAS, false, true},
	DropDoorOpens:            {"drop door openings", noSAS, false, true},
	PowerResets:              {"power resets", noSAS, false, true},
	TicketsOut:               {"tickets printed", noSAS, false, true},
	RestrictedCredits:        {"current restricted credits", sasCode(metercode.CurrentRestrictedCredits), true, false},
	NonRestrictedCredits:     {"current non-restricted credits", noSAS, true, false},
	RestrictedPlayed:         {"restricted amount played", sasCode(metercode.RestrictedPlayed), true, true},
	NonRestrictedPlayed:      {"non-restricted amount played", sasCode(metercode.NonRestrictedPlayed), true, true},
	RestrictedIn:             {"restricted promotional transfers in", sasCode(metercode.AFTInHouseRestrictedIn), true, true},
	NonRestrictedIn:          {"non-restricted promotional transfers in", sasCode(metercode.AFTInHouseNonRestrictedIn), true, true},
	RestrictedOut:            {"restricted promotional transfers out", sasCode(metercode.AFTInHouseRestrictedOut), true, true},
	NonRestrictedOut:         {"non-restricted promotional transfers out", sasCode(metercode.AFTInHouseNonRestrictedOut), true, true},
	RestrictedExpired:        {"restricted promotional credits expired", noSAS, true, true},
	NonRestrictedCashedOut:   {"non-restricted promotional credits cashed out", noSAS, true, true},
	MachinePaidBonus:         {"machine-paid external bonus win", sasCode(metercode.MachinePaidExternalBonus), true, true},
	AttendantPaidBonus:       {"attendant-paid external bonus win", sasCode(metercode.AttendantPaidExternalBonus), true, true},
	PokerToTables:            {"transfers to poker tables", noSAS, true, true},
	PokerFromTables:          {"transfers from poker tables", noSAS, true, true},
	RestrictedTicketOut:      {"restricted promotional ticket out", sasCode(metercode.SASRestrictedTicketOutCents), true, true},
	RestrictedTicketIn:       {"restricted promotional ticket in", sasCode(metercode.SASRestrictedTicketInCents), true, true},
	RestrictedTicketsOut:     {"restricted promotional tickets printed", sasCode(metercode.SASRestrictedTicketsOut), false, true},
	RestrictedTicketsIn:      {"restricted promotional tickets redeemed", sasCode(metercode.SASRestrictedTicketsIn), false, true},
}

// BillSAS returns the SAS meter code of the count of the notes of a value
// in BillValues (cents): the bill meter of its face value in euros.
func BillSAS(cents int64) (metercode.Code, bool) {
	if cents <= 0 || cents%100 != 0 {
		return 0, false
	}
	return metercode.Bill(uint64(cents / 100))
}

// sasMeters maps each SAS code of Defs to its meter; the cabinet-local
// codes of long poll 0x1C map to the door and power counts.
var sasMeters = func() map[metercode.Code]Meter {
	m := map[metercode.Code]Meter{metercode.SlotDoorOpenings: MainDoorOpens, metercode.PowerResets: PowerResets}
	for i, d := range Defs {
		if d.SAS != noSAS {
			m[metercode.Code(d.SAS)] = Meter(i)
		}
	}
	return m
}()

// SASMeter returns the value of SAS meter code c as the ledger keeps it:
// a meter of Defs, a cabinet-local code of long poll 0x1C, or the count of
// the notes of a bill meter's face value: 0 for a face value the machine
// has no note for (there is no €1 note: none was ever accepted). ok is
// false for a meter the ledger does not keep.
func (s *State) SASMeter(c metercode.Code) (value int64, ok bool) {
	if m, ok := sasMeters[c]; ok {
		return s.Meters[m], true
	}
	if v, ok := s.aftMeter(c); ok {
		return v, true
	}
	face, ok := c.BillFace()
	if !ok {
		return 0, false
	}
	for i, cents := range BillValues {
		if cents == int64(face)*100 && i < len(s.BillCounts) {
			return s.BillCounts[i], true
		}
	}
	return 0, true
}

// Limits of the history kept in the state (and so in snapshots), enough for
// the recall screens without replaying the log.
const (
	HistoryGames    = 128
	HistoryEvents   = 1000
	HistoryBills    = 200
	HistoryHandpays = 100
) // each history holds between n and 2n-1 entries

// PINFailures is the lock-out state of one role.
type PINFailures struct {
	Count int   `json:"count"`
	Last  int64 `json:"last"`
}

// GameHistory is everything needed to redraw and re-evaluate one game.
type GameHistory struct {
	Start GameStart  `json:"start"`
	Free  []FreeGame `json:"free,omitempty"`
	End   *GameEnd   `json:"end,omitempty"`
}

// HandpayHistory pairs a lockout with its reset.
type HandpayHistory struct {
	Pending HandpayPending `json:"pending"`
	Reset   *HandpayReset  `json:"reset,omitempty"`
}

// State is the fold of the ledger. Apply is its only mutator, and it is pure:
// the same records give the same state.
type State struct {
	Meters     Values          `json:"meters"`
	BillCounts []int64         `json:"bill_counts"` // lifetime, per BillValues
	LastGame   uint64          `json:"last_game"`
	Open       *GameHistory    `json:"open,omitempty"` // a started game not yet ended
	FreeLeft   int             `json:"free_left"`      // free games still owed to the open game
	Handpay    *HandpayPending `json:"handpay,omitempty"`
	// OwedHandpay is a win the machine will not pay to credits (a game end
	// at the handpay limit, an attendant-paid jackpot): the HandpayPending
	// that follows must be for exactly this amount.
	OwedHandpay int64 `json:"owed_handpay,omitempty"`
	// Owed is that HandpayPending (its time aside): a power-up that finds
	// a win owed records it (aftbonus.go). Nil in states folded before it
	// was kept.
	Owed *HandpayPending `json:"owed,omitempty"`
	// Tilts and open doors survive a power loss: a machine that powers up
	// finds them still active (sorted, no duplicates).
	Tilts     []string `json:"tilts,omitempty"`
	DoorsOpen []string `json:"doors_open,omitempty"`
	// Settings are the operator's configuration: the last value of each
	// Config key. The machine applies them at start-up.
	Settings map[string]string `json:"settings,omitempty"`
	// CommandLine are the settings as last given at start-up: a start-up
	// value is a change (recorded, applied) only when it differs from
	// these, so a change made since in the service menu stands.
	CommandLine map[string]string `json:"command_line,omitempty"`
	// PINFailures counts consecutive wrong PINs per role, and when the last
	// one was; a login resets it.
	PINFailures map[string]PINFailures `json:"pin_failures,omitempty"`
	// PendingTicket is a ticket cashed out and not yet confirmed printed:
	// its amount is owed to the player by the printer (or, if it cannot
	// print, by an attendant). TicketSeq numbers every ticket ever issued;
	// like LastGame it survives a RAM clear, so no validation number is
	// used twice.
	PendingTicket *CashOut `json:"pending_ticket,omitempty"`
	TicketSeq     uint64   `json:"ticket_seq,omitempty"`
	// PendingBill is a note the machine ordered stacked whose outcome is
	// not recorded yet; BillRef is the last order number.
	PendingBill *BillEscrow `json:"pending_bill,omitempty"`
	BillRef     uint64      `json:"bill_ref,omitempty"`
	// RAMClears counts the RAM clears, the only time the meters go back:
	// a hard meter ahead of the ledger without one is a rollback.
	RAMClears uint64 `json:"ram_clears,omitempty"`
	// Progressive hits waiting for their award (local pool or link controller).
	PendingHits []ProgressiveHit `json:"pending_hits,omitempty"`
	// LinkedCoinIn is the coin-in of the bets that could win a linked level
	// (GameStart.Linked), cents: what the link controller's levels are fed
	// from (SAS 0xB4, wager category 1). Zeroed with the meters by a RAM
	// clear; games recorded before it existed are not in it.
	LinkedCoinIn int64 `json:"linked_coin_in,omitempty"`
	// Jackpot is the cabinet's own jackpot (nil pools: none opened). It
	// survives a RAM clear: its value is held in trust (rule 5).
	Jackpot Pools `json:"jackpot,omitzero"`
	// AFT is the fold of the AFT records: registration, transfer history
	// (which IDs ran: a RAM clear keeps it) and the AFT meters (which a
	// RAM clear zeroes with the others).
	AFT aft.State `json:"aft,omitzero"`
	// Promo is the pool and expiration of the restricted credits
	// (promo.go): zero while there are none.
	Promo Promo `json:"promo,omitzero"`
	// Test is test mode and its test meters (testmode.go): never money.
	Test TestMeters `json:"test,omitzero"`
	// PerGame are the meters of each game (GameKinds) played since the
	// last RAM clear.
	PerGame  map[string]GameMeters `json:"per_game,omitempty"`
	Games    []GameHistory         `json:"games"` // oldest first
	Events   []Event               `json:"events"`
	Bills    []MoneyIn             `json:"bills"`
	Handpays []HandpayHistory      `json:"handpays"`
	// TITO is what the casino's ticket system set and is owed (tickets.go).
	TITO Tickets `json:"tito,omitzero"`
	// Poker is the seat at a table of the table server (poker.go).
	Poker PokerSeat `json:"poker,omitzero"`

	// sole: apply runs on a state no other shares (fold), so what Next
	// copies on write may be written in place.
	sole bool

	// ownPerGame: PerGame is this state's alone (cowInto made it), so
	// apply writes it in place rather than copying it.
	ownPerGame bool

	// aftEarlier: restored from a snapshot an earlier build sealed, whose
	// AFT state has transfers and no retired IDs (aft.State.Retired): the
	// ledger rebuilds them from the log at start-up (rebuildRetiredAFT).
	aftEarlier bool
}

// NewState is the state of an empty ledger.
func NewState() *State {
	return &State{BillCounts: make([]int64, len(BillValues))}
}

// Get returns a meter.
func (s *State) Get(m Meter) int64 { return s.Meters[m] }

// Clone returns an independent copy.
func (s *State) Clone() *State {
	c := *s
	c.BillCounts = slices.Clone(s.BillCounts)
	if s.Open != nil {
		o := cloneGame(*s.Open)
		c.Open = &o
	}
	if s.Handpay != nil {
		h := *s.Handpay
		c.Handpay = &h
	}
	if s.Owed != nil {
		o := *s.Owed
		c.Owed = &o
	}
	c.PendingHits = slices.Clone(s.PendingHits)
	if s.PendingTicket != nil {
		t := *s.PendingTicket
		c.PendingTicket = &t
	}
	if s.PendingBill != nil {
		b := *s.PendingBill
		c.PendingBill = &b
	}
	if s.Jackpot.Pools != nil {
		c.Jackpot = Pools{s.Jackpot.Clone()}
	}
	c.AFT = s.AFT.Clone()
	c.Tilts = slices.Clone(s.Tilts)
	c.DoorsOpen = slices.Clone(s.DoorsOpen)
	c.Settings = maps.Clone(s.Settings)
	c.CommandLine = maps.Clone(s.CommandLine)
	c.PINFailures = maps.Clone(s.PINFailures)
	c.Games = make([]GameHistory, len(s.Games))
	for i, g := range s.Games {
		c.Games[i] = cloneGame(g)
	}
	c.Events = slices.Clone(s.Events)
	c.Bills = slices.Clone(s.Bills)
	c.Handpays = slices.Clone(s.Handpays)
	c.TITO = s.TITO.clone()
	// The ledger recycles its states (cowInto): a map shared with one of
	// them would be cleared and refilled under the clone's holder.
	c.PerGame = maps.Clone(s.PerGame)
	c.ownPerGame = false
	return &c
}

func cloneGame(g GameHistory) GameHistory {
	g.Start.Stops = slices.Clone(g.Start.Stops)
	g.Start.Progressives = slices.Clone(g.Start.Progressives)
	g.Start.Contributions = slices.Clone(g.Start.Contributions)
	g.Start.Mystery = slices.Clone(g.Start.Mystery)
	if h := g.Start.Hand; h != nil {
		c := *h
		c.Cards = slices.Clone(h.Cards)
		g.Start.Hand = &c
	}
	g.Free = slices.Clone(g.Free)
	if g.End != nil {
		e := *g.End
		g.End = &e
	}
	return g
}

// MoneyInTotal is every credit that came into the machine as money.
func (s *State) MoneyInTotal() int64 {
	m := &s.Meters
	return m[BillsIn] + m[CoinsIn] + m[TicketIn] + m[ElectronicIn] + m[PokerFromTables]
}

// MoneyOutTotal is every credit that left the machine as money, and the
// money on its way out (taken off the credit meter): a ticket not yet
// printed, a buy-in at a poker table not yet answered.
func (s *State) MoneyOutTotal() int64 {
	m := &s.Meters
	return m[TicketOut] + m[HopperOut] + m[ElectronicOut] + m[HandpaidCancelled] + m[PokerToTables] + s.TicketOwed() + s.PokerInTransit()
}

// TicketOwed is the amount of the ticket being printed (0: none).
func (s *State) TicketOwed() int64 {
	if s.PendingTicket == nil {
		return 0
	}
	return s.PendingTicket.Cents
}

// Check verifies the invariants that hold between any two records: the
// credit equation and no negative meter. (Monotonicity is checked by Apply,
// which sees the state before and after.)
func (s *State) Check() error {
	m := &s.Meters
	// Each kind of credit first (promo.go), so a broken equation names the
	// kind; the total is their sum.
	if err := s.checkPromo(); err != nil {
		return err
	}
	want := s.MoneyInTotal() + m[CoinOut] - m[CoinIn] - s.MoneyOutTotal() - m[RestrictedExpired]
	if m[Credits] != want {
		return fmt.Errorf("credit equation broken: credits %d ≠ money in %d + wins to credits %d − bets %d − money out %d − restricted expired %d = %d",
			m[Credits], s.MoneyInTotal(), m[CoinOut], m[CoinIn], s.MoneyOutTotal(), m[RestrictedExpired], want)
	}
	for i, v := range m {
		if v < 0 {
			return fmt.Errorf("meter %q is negative: %d", Defs[i].Name, v)
		}
	}
	if m[CoinOut] != m[MachinePaidPaytable]+m[MachinePaidProgressive]+m[MachinePaidBonus] {
		return fmt.Errorf("coin out %d ≠ machine-paid paytable %d + progressive %d + bonus %d", m[CoinOut], m[MachinePaidPaytable], m[MachinePaidProgressive], m[MachinePaidBonus])
	}
	if err := s.checkWins(); err != nil {
		return err
	}
	var games GameMeters
	for _, g := range s.PerGame {
		games.CoinIn += g.CoinIn
		games.Played += g.Played
		games.Won += g.Won
		games.Lost += g.Lost
	}
	if games.CoinIn != m[CoinIn] || games.Played != m[GamesPlayed] || games.Won != m[GamesWon] || games.Lost != m[GamesLost] {
		return fmt.Errorf("the games' meters (coin in %d, played %d, won %d, lost %d) do not add up to the machine's (%d, %d, %d, %d)",
			games.CoinIn, games.Played, games.Won, games.Lost, m[CoinIn], m[GamesPlayed], m[GamesWon], m[GamesLost])
	}
	if err := s.Test.check(); err != nil {
		return err
	}
	if err := s.Poker.check(); err != nil {
		return err
	}
	if s.LinkedCoinIn < 0 || s.LinkedCoinIn > m[CoinIn] {
		return fmt.Errorf("linked coin-in %d outside 0..coin in %d", s.LinkedCoinIn, m[CoinIn])
	}
	if s.Jackpot.Pools != nil {
		if err := s.Jackpot.Check(); err != nil {
			return fmt.Errorf("local jackpot: %w", err)
		}
	}
	return nil
}

// Apply folds one record into the state. A record that would break an
// invariant is refused with the reason and the state is left unchanged: in
// the ledger that refusal is a meter fault.
func (s *State) Apply(r Record) error {
	next, err := s.Next(r)
	if err != nil {
		return err
	}
	*s = *next
	return nil
}

// Next returns the state after r without changing s. The histories are
// shared with s (they are only ever appended to, and trimmed by copying), so
// the cost of a commit does not grow with the history kept. The price: of s
// and the states derived from it, only one line may be extended further —
// keep the result and drop s (as Apply and the ledger do), or drop the
// result. Use Clone for an independent copy.
func (s *State) Next(r Record) (*State, error) {
	if err := r.validate(); err != nil {
		return nil, err
	}
	next := s.cow()
	if err := next.apply(r); err != nil {
		return nil, err
	}
	if err := next.Check(); err != nil {
		return nil, fmt.Errorf("%v: %w", r.Type(), err)
	}
	if _, clear := r.(RAMClear); !clear {
		for i, d := range Defs {
			if d.Lifetime && next.Meters[i] < s.Meters[i] {
				return nil, fmt.Errorf("%v: lifetime meter %q would go back from %d to %d", r.Type(), d.Name, s.Meters[i], next.Meters[i])
			}
		}
		for i := range next.BillCounts {
			if next.BillCounts[i] < s.BillCounts[i] {
				return nil, fmt.Errorf("%v: bill count would go back", r.Type())
			}
		}
	}
	return next, nil
}

// fold folds a logged record into s in place: Next's checks, without
// Next's copy of the state. It is for the book's fold (start-up and
// verification), which owns its state alone and drops it at the first
// error: after an error s is not a state to use.
func (s *State) fold(r Record) error {
	s.sole = true
	return s.advance(r)
}

// advance is fold without its licence to write the shared histories in
// place (s.sole is its caller's): the ledger advances a copy it made with
// cowInto, whose histories the live state still shares. As with fold,
// after an error s is not a state to use.
func (s *State) advance(r Record) error {
	if err := r.validate(); err != nil {
		s.sole = false
		return err
	}
	before := s.Meters
	var bills [16]int64 // the bill counts before, for the monotonic check
	billsBefore := append(bills[:0], s.BillCounts...)
	err := s.apply(r)
	s.sole = false
	if err != nil {
		return err
	}
	if err := s.Check(); err != nil {
		return fmt.Errorf("%v: %w", r.Type(), err)
	}
	if _, clear := r.(RAMClear); !clear {
		for i, d := range Defs {
			if d.Lifetime && s.Meters[i] < before[i] {
				return fmt.Errorf("%v: lifetime meter %q would go back from %d to %d", r.Type(), d.Name, before[i], s.Meters[i])
			}
		}
		for i := range s.BillCounts {
			if i >= len(billsBefore) || s.BillCounts[i] < billsBefore[i] {
				return fmt.Errorf("%v: bill count would go back", r.Type())
			}
		}
	}
	return nil
}

// cow copies what apply changes in place; the append-only histories stay
// shared (an append past s's length is invisible to s), and so do the
// jackpot pools, which apply replaces and never changes.
func (s *State) cow() *State {
	c := *s
	c.BillCounts = slices.Clone(s.BillCounts)
	if s.Open != nil {
		o := cloneGame(*s.Open)
		c.Open = &o
	}
	c.PendingHits = slices.Clone(s.PendingHits)
	c.ownPerGame = false // shared with s
	return &c
}

// cowInto is cow written into c, a state its caller owns alone and gives
// up (the ledger's state before its last commit), so that a commit
// allocates no new state: c's bill counts and per-game map are reused for
// the copies, the map copied rather than shared, and apply may then
// write it in place (ownPerGame, until the caller clears it). c == nil
// makes a new state the same way.
func (s *State) cowInto(c *State) *State {
	if c == nil {
		c = new(State)
	}
	bills, perGame := c.BillCounts, c.PerGame
	*c = *s
	if s.BillCounts == nil || bills == nil {
		c.BillCounts = slices.Clone(s.BillCounts)
	} else {
		c.BillCounts = append(bills[:0], s.BillCounts...)
	}
	if s.Open != nil {
		o := cloneGame(*s.Open)
		c.Open = &o
	}
	c.PendingHits = slices.Clone(s.PendingHits)
	c.PerGame = nil
	if s.PerGame != nil {
		if perGame == nil {
			perGame = make(map[string]GameMeters, len(s.PerGame))
		}
		clear(perGame)
		maps.Copy(perGame, s.PerGame)
		c.PerGame = perGame
	}
	c.ownPerGame = true
	return c
}

func (s *State) apply(r Record) error {
	m := &s.Meters
	if err := s.refusedInTest(r); err != nil {
		return err
	}
	switch r := r.(type) {
	case TicketPrinted, TicketVoid, BillEscrow, BillReturned:
		return s.applyDevice(r)
	case AFTTransfer, AFTRegistration, AFTReceipt, AFTReceiptText:
		return s.applyAFT(r)
	case PromoExpired:
		return s.applyPromo(r)
	case TestMode, TestGame:
		return s.applyTest(r)
	case ValidationConfig, TicketData, ValidationRead, TicketEscrow, TicketRedeem, ValidationRequest, ValidationDenied,
		HandpayValidated, ValidationControl:
		return s.applyTickets(r)
	case PokerTransfer, PokerDone, PokerRefused:
		return s.applyPoker(r)

	case MoneyIn:
		if r.Source == SourceBill {
			if p := s.PendingBill; p != nil && (r.Order != p.Ref || r.Cents != p.Cents) {
				return fmt.Errorf("bill of %d cents by order %d while order %d of %d cents is pending", r.Cents, r.Order, p.Ref, p.Cents)
			} else if p == nil && r.Order != 0 {
				return fmt.Errorf("bill of %d cents by order %d, which is not pending", r.Cents, r.Order)
			}
			s.PendingBill = nil
		}
		switch r.Source {
		case SourceBill:
			m[BillsIn] += r.Cents
			m[TotalDrop] += r.Cents
			m[StackerBills]++
			m[StackerValue] += r.Cents
			s.BillCounts[slices.Index(BillValues, r.Cents)]++
			s.Bills = keepLast(append(s.Bills, r), HistoryBills)
		case SourceCoin:
			m[CoinsIn] += r.Cents
			m[TotalDrop] += r.Cents
		case SourceTicket:
			m[TicketIn] += r.Cents
		case SourceElectronic:
			m[ElectronicIn] += r.Cents
		}
		m[Credits] += r.Cents

	case GameStart:
		if err := s.idle("start game"); err != nil {
			return err
		}
		if r.Game != s.LastGame+1 {
			return fmt.Errorf("game %d does not follow game %d", r.Game, s.LastGame)
		}
		if r.BetCents > m[Credits] {
			return fmt.Errorf("game %d: bet %d cents with %d cents of credit", r.Game, r.BetCents, m[Credits])
		}
		if err := s.playPromo(r.BetCents); err != nil {
			return fmt.Errorf("game %d: %w", r.Game, err)
		}
		m[CoinIn] += r.BetCents
		if r.Linked {
			s.LinkedCoinIn += r.BetCents
		}
		m[Credits] -= r.BetCents
		m[GamesPlayed]++
		g := s.PerGame[r.kind()]
		g.CoinIn += r.BetCents
		g.Played++
		if r.Hand != nil {
			g.Commission += r.Hand.Commission
		}
		s.setGameMeters(r.kind(), g)
		m[GamesSincePowerUp]++
		m[GamesSinceDoorClose]++
		s.LastGame = r.Game
		s.Open = &GameHistory{Start: r}
		s.FreeLeft = r.FreeAwarded
		if err := s.applyGameJackpot(r); err != nil {
			return err
		}

	case FreeGame:
		if s.Open == nil || s.Open.Start.Game != r.Game {
			return fmt.Errorf("free game of game %d, which is not in progress", r.Game)
		}
		if s.FreeLeft == 0 {
			return fmt.Errorf("game %d: free game %d was not awarded", r.Game, r.Index)
		}
		if r.Index != len(s.Open.Free)+1 {
			return fmt.Errorf("game %d: free game %d after %d", r.Game, r.Index, len(s.Open.Free))
		}
		if err := s.applyFreeJackpot(r); err != nil {
			return err
		}
		s.Open.Free = append(s.Open.Free, r)
		s.FreeLeft += r.Awarded - 1

	case GameEnd:
		if s.Open == nil || s.Open.Start.Game != r.Game {
			return fmt.Errorf("end of game %d, which is not in progress (game started once, ended at most once)", r.Game)
		}
		if s.FreeLeft != 0 {
			return fmt.Errorf("game %d ends with %d free games still owed", r.Game, s.FreeLeft)
		}
		total := s.Open.Start.WinCents
		for _, f := range s.Open.Free {
			total += f.WinCents
		}
		if r.WinCents != total {
			return fmt.Errorf("game %d ends with a win of %d cents, its spins won %d", r.Game, r.WinCents, total)
		}
		m[TotalWon] += r.WinCents
		won := r.WinCents > 0 || slices.ContainsFunc(s.PendingHits, func(h ProgressiveHit) bool { return h.Game == r.Game })
		if won {
			m[GamesWon]++
		} else {
			m[GamesLost]++
		}
		if r.Handpay {
			s.owe(HandpayPending{Kind: HandpayWin, Cents: r.WinCents, Game: r.Game})
		} else {
			m[Credits] += r.WinCents
			m[CoinOut] += r.WinCents
			m[MachinePaidPaytable] += r.WinCents
		}
		g := s.PerGame[s.Open.Start.kind()]
		g.TotalWon += r.WinCents
		if won {
			g.Won++
		} else {
			g.Lost++
		}
		if r.Handpay {
			g.HandPaid += r.WinCents
		} else {
			g.CoinOut += r.WinCents
		}
		s.setGameMeters(s.Open.Start.kind(), g)
		end := r
		s.Open.End = &end
		if s.sole {
			s.Games = keepLastOwned(append(s.Games, *s.Open), HistoryGames)
		} else {
			s.Games = keepLast(append(s.Games, *s.Open), HistoryGames)
		}
		s.Open = nil

	case HandpayPending:
		if s.Handpay != nil {
			return fmt.Errorf("handpay of %d cents while one of %d is pending", r.Cents, s.Handpay.Cents)
		}
		if r.Kind == HandpayCancelled {
			if err := s.idle("cash out"); err != nil {
				return err
			}
			if err := s.redeemable("cancelled-credit handpay", r.Cents); err != nil {
				return err
			}
		} else if err := s.takeOwed(r); err != nil {
			return err
		}
		h := r
		s.Handpay = &h
		s.Handpays = keepLast(append(s.Handpays, HandpayHistory{Pending: r}), HistoryHandpays)

	case HandpayReset:
		if s.Handpay == nil {
			return fmt.Errorf("handpay reset with no handpay pending")
		}
		if r.Cents != s.Handpay.Cents {
			return fmt.Errorf("handpay reset of %d cents for a lockout of %d", r.Cents, s.Handpay.Cents)
		}
		switch s.Handpay.Kind {
		case HandpayWin:
			m[HandpaidWins] += r.Cents
			m[AttendantPaidPaytable] += r.Cents
		case HandpayCancelled:
			if err := s.redeem("cancelled-credit handpay", r.Cents); err != nil {
				return err
			}
			m[Credits] -= r.Cents
			m[HandpaidCancelled] += r.Cents
			m[Cancelled] += r.Cents
		case HandpayProgressive:
			m[HandpaidWins] += r.Cents
			m[AttendantPaidProgressive] += r.Cents
		case HandpayBonus:
			m[HandpaidWins] += r.Cents
			m[AttendantPaidBonus] += r.Cents
		}
		m[TotalHandPaid] += r.Cents
		reset := r
		// The last entry is shared with the previous state: replace, not modify.
		s.Handpays = slices.Clone(s.Handpays)
		s.Handpays[len(s.Handpays)-1].Reset = &reset
		s.Handpay = nil

	case CashOut:
		if err := s.idle("cash out"); err != nil {
			return err
		}
		if r.Kind == KindRestricted {
			return s.restrictedCashOut(r)
		}
		if err := s.redeem("cash out", r.Cents); err != nil {
			return err
		}
		m[Credits] -= r.Cents
		switch r.Method {
		case OutTicket:
			// Out when the printer confirms it (TicketPrinted).
			if s.PendingTicket != nil {
				return fmt.Errorf("ticket %s while ticket %s is not printed", r.Ticket, s.PendingTicket.Ticket)
			}
			if err := s.cashOutTicket(r); err != nil {
				return err
			}
			t := r
			s.PendingTicket = &t
			s.TicketSeq++
		case OutHopper:
			m[HopperOut] += r.Cents
		case OutElectronic:
			m[ElectronicOut] += r.Cents
		}

	case ProgressiveHit:
		// The hit itself came with its game start or free game; this is
		// its report to the link controller, made once, with the claim.
		i := slices.IndexFunc(s.PendingHits, func(h ProgressiveHit) bool { return h.Game == r.Game && h.Level == r.Level })
		switch {
		case i < 0:
			return fmt.Errorf("progressive hit of level %d by game %d, which did not win it", r.Level, r.Game)
		case s.IsLocalLevel(r.Level):
			return fmt.Errorf("progressive hit of local level %d reported to the link: the local pool awards it", r.Level)
		case s.PendingHits[i].Cents != 0:
			return fmt.Errorf("progressive hit of level %d by game %d reported twice", r.Level, r.Game)
		}
		s.PendingHits[i].Cents = r.Cents

	case ProgressiveAward:
		i := slices.IndexFunc(s.PendingHits, func(h ProgressiveHit) bool { return h.Game == r.Game && h.Level == r.Level })
		if i < 0 {
			return fmt.Errorf("award of level %d to game %d, which has no pending hit (awarded once only)", r.Level, r.Game)
		}
		if s.IsLocalLevel(r.Level) {
			p, cents, err := s.award(r.Level, r.Game, r.Target, r.At)
			if err != nil {
				return err
			}
			if cents != r.Cents {
				return fmt.Errorf("award of local jackpot level %d to game %d states %d cents, the pool pays %d", r.Level, r.Game, r.Cents, cents)
			}
			s.Jackpot = Pools{p}
		} else if r.Target != 0 {
			return fmt.Errorf("award of level %d, which is not local, with a mystery target", r.Level)
		} else if s.PendingHits[i].Cents == 0 {
			return fmt.Errorf("award of linked level %d to game %d before the hit was reported to the link", r.Level, r.Game)
		}
		s.PendingHits = slices.Delete(s.PendingHits, i, i+1)
		m[TotalWon] += r.Cents
		if r.Attendant {
			if s.OwedHandpay != 0 {
				return fmt.Errorf("attendant-paid award while a handpay of %d cents is owed", s.OwedHandpay)
			}
			s.owe(HandpayPending{Kind: HandpayProgressive, Cents: r.Cents, Game: r.Game, Level: r.Level})
		} else {
			m[Credits] += r.Cents
			m[CoinOut] += r.Cents
			m[MachinePaidProgressive] += r.Cents
		}

	case Event:
		switch r.Code {
		case EventTilt:
			s.Tilts = setAdd(s.Tilts, r.Tilt)
		case EventTiltClear:
			if !slices.Contains(s.Tilts, r.Tilt) {
				return fmt.Errorf("clear of tilt %q, which is not active", r.Tilt)
			}
			s.Tilts = setDel(s.Tilts, r.Tilt)
		case EventPowerUp:
			m[PowerResets]++
			m[GamesSincePowerUp] = 0
		case EventDoorOpen:
			if slices.Contains(s.DoorsOpen, r.Door) {
				return fmt.Errorf("%s door opened twice", r.Door)
			}
			s.DoorsOpen = setAdd(s.DoorsOpen, r.Door)
			m[doorMeter(r.Door)]++
			if r.Door == DoorCashbox || r.Door == DoorDrop {
				// The drop is collected: the stacker starts empty.
				m[StackerBills], m[StackerValue] = 0, 0
			}
		case EventDoorClose:
			// A close without an open is accepted: the door switch is read at
			// power-up, and a door closed while the power was off has no open.
			s.DoorsOpen = setDel(s.DoorsOpen, r.Door)
			if r.Door == DoorMain {
				m[GamesSinceDoorClose] = 0
			}
		}
		s.Events = keepLast(append(s.Events, r), HistoryEvents)

	case Config:
		// A fresh map: the old one may be shared with the previous state.
		settings := maps.Clone(s.Settings)
		if settings == nil {
			settings = map[string]string{}
		}
		settings[r.Key] = r.Value
		s.Settings = settings
		if r.From == ConfigCommandLine {
			given := maps.Clone(s.CommandLine)
			if given == nil {
				given = map[string]string{}
			}
			given[r.Key] = r.Value
			s.CommandLine = given
		}
		s.Events = keepLast(append(s.Events, Event{At: r.At, Code: EventService, Detail: r.Who + ": set " + r.Key + " = " + r.Value,
			Who: r.Who, Action: "config", Key: r.Key, Value: r.Value}), HistoryEvents)

	case Service:
		switch r.Action {
		case ActionPINFailed, ActionLogin:
			f := maps.Clone(s.PINFailures)
			if f == nil {
				f = map[string]PINFailures{}
			}
			if r.Action == ActionLogin {
				delete(f, r.Role)
			} else {
				f[r.Role] = PINFailures{Count: f[r.Role].Count + 1, Last: r.At}
			}
			s.PINFailures = f
		}
		// A page looked at is in the ledger, not in the history: it would
		// push out the events the technician needs.
		if r.Action != ActionView {
			s.Events = keepLast(append(s.Events, Event{At: r.At, Code: EventService, Detail: r.Who + " (" + r.Role + "): " + r.Action + " " + r.Detail,
				Who: r.Who, Role: r.Role, Action: r.Action, Value: r.Detail}), HistoryEvents)
		}

	case JackpotLevel:
		if err := s.applyJackpotLevel(r); err != nil {
			return err
		}
		s.Events = keepLast(append(s.Events, Event{At: r.At, Code: EventService, Detail: fmt.Sprintf("%s: jackpot level %d opened", r.Who, r.Level),
			Who: r.Who, Action: ActionJackpotLevel, Value: strconv.Itoa(r.Level)}), HistoryEvents)

	case RAMClear:
		if s.Open != nil || s.Handpay != nil || s.OwedHandpay != 0 || m[Credits] != 0 || len(s.PendingHits) > 0 ||
			s.PendingTicket != nil || s.PendingBill != nil || s.TITO.busy() != "" || s.Poker.Busy() != "" {
			return fmt.Errorf("RAM clear with credits %d, a game in progress, a handpay or a jackpot hit pending, or a ticket or bill owed", m[Credits])
		}
		*m = Values{}
		s.LinkedCoinIn = 0
		s.PerGame = nil
		s.AFT = s.AFT.Clone()
		s.AFT.Meters = nil
		clear(s.BillCounts)
		s.RAMClears++
		s.Events = keepLast(append(s.Events, Event{At: r.At, Code: EventRAMClear, Detail: r.Who + ": " + r.Why, Who: r.Who, Value: r.Why}), HistoryEvents)
	}
	return nil
}

// idle refuses an action while a game is open or a handpay is pending.
func (s *State) idle(what string) error {
	if s.Open != nil {
		return fmt.Errorf("cannot %s: game %d is in progress", what, s.Open.Start.Game)
	}
	if s.Handpay != nil {
		return fmt.Errorf("cannot %s: handpay of %d cents pending", what, s.Handpay.Cents)
	}
	if s.OwedHandpay != 0 {
		return fmt.Errorf("cannot %s: a win of %d cents is owed by handpay", what, s.OwedHandpay)
	}
	if s.PendingTicket != nil {
		return fmt.Errorf("cannot %s: ticket %s is not printed yet", what, s.PendingTicket.Ticket)
	}
	if why := s.Poker.Busy(); why != "" {
		return fmt.Errorf("cannot %s: %s", what, why)
	}
	return nil
}

// setAdd and setDel keep a small sorted set in a fresh slice (the old one
// may be shared with a previous state).
func setAdd(s []string, v string) []string {
	if slices.Contains(s, v) {
		return s
	}
	out := append(slices.Clone(s), v)
	slices.Sort(out)
	return out
}

func setDel(s []string, v string) []string {
	return slices.DeleteFunc(slices.Clone(s), func(x string) bool { return x == v })
}

func doorMeter(door string) Meter {
	switch door {
	case DoorLogic:
		return LogicDoorOpens
	case DoorCashbox:
		return CashboxDoorOpens
	case DoorBelly:
		return BellyDoorOpens
	case DoorDrop:
		return DropDoorOpens
	}
	return MainDoorOpens
}

// keepLast trims a history to its last n entries once it reaches 2n, so
// trimming (a copy) happens once every n appends, not at every one. The
// copy has room for the n appends before the next trim: a copy of n alone
// was grown (copied again) by the appends, twice or more, garbage at the
// commits that grew it.
func keepLast[T any](s []T, n int) []T {
	if len(s) >= 2*n {
		return append(make([]T, 0, 2*n), s[len(s)-n:]...)
	}
	return s
}

// keepLastOwned is keepLast for a history that no other state shares
// (State.fold): it trims in place, into the room it already has.
func keepLastOwned[T any](s []T, n int) []T {
	if len(s) >= 2*n {
		m := copy(s, s[len(s)-n:])
		clear(s[m:])
		return s[:m]
	}
	return s
}
