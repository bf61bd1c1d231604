// Package chemin is the table engine of chemin de fer ("banca francesa",
// Portaria 817/2005, Title II, Section I, rules 7-107, as the project's
// specification chemin.md reads them): a player holds the bank against the
// others, the pontos;
// the bancô, the bancô suivi and the bancô com a mesa, bets in priority
// order from the banker's right until the bank is covered, the ponto's
// choice on 5 and the banker's two choices of the tableau (and, in a
// bancô, the false draws of rule 70), the cagnotte on the banker's
// winnings (which he may pay from outside), the garage, the hand that
// passes, is offered at the same level, then to the passer, then auctioned
// (alone or associated), the association with the banker, the hand that
// skips a player who changed seats, and the sabot with its cut, warning
// card and burned cards, revealed whole when it ends or the game stops.
//
// It is pure: events in (with their time), records out; the sabot is
// shuffled with the injected certified RNG (rng.Source) and its order is
// committed by a digest in a record before its first card is shown, and
// revealed when the sabot ends. It shares the poker tables' core
// (poker.Core): seats and money, the records and their history, the
// decision timer and the conservation check after every step. Rule numbers
// in comments are the Portaria's.
//
// Where the electronic table chooses: only seated players play (no
// standing players, so no bancô from behind a seat); a bancô com a mesa is
// claimed in the bancô round and a later bancô seul takes precedence over
// it; the auction is one sealed round of offers with one deadline, said
// when it closes; a seat change is a leave and a join within a sabot; the
// garage and the halved bank of rule 33 are set aside on the table and go
// back to the banker (and his associate, half each) when the hand leaves
// him; a banker who played the hand without losing it and leaves, or is
// away at the deal, passes it as rule 77 does: it is offered at its level.
package chemin

import (
	"fmt"
	"slices"
	"strings"
	"time"
)

// Rounding is how the cagnotte's fraction of a cent is rounded.
type Rounding string

const (
	RoundDown   Rounding = "down"    // toward zero: the banker keeps the fraction
	RoundHalfUp Rounding = "half_up" // half a cent or more is a cent for the house
	RoundUp     Rounding = "up"      // any fraction is a cent for the house
)

// Rules are what a table definition sets for a chemin de fer table. Money
// is in cents.
type Rules struct {
	Table       string // the table's name, for messages
	Decks       int    // decks in the sabot (6 by default)
	Seats       int    // seats at the table
	MinSeated   int    // seated players for a partida to start and go on (rule 16: 4)
	MinBank     int64  // the least bank (rules 35, 37)
	MinBet      int64  // the ponto's bets are multiples of it (rules 36, 37)
	CagnotteBps int64  // the house's part of the banker's winnings, basis points (rule 47)
	Rounding    Rounding
	AuctionBase int64 // the auction's first offer (rule 82)
	AuctionStep int64 // offers rise by multiples of it (rule 82)
	// DecisionTime is every decision's deadline: at timeout the ponto
	// stands on 5, the banker plays the tableau, a bet not placed is no bet.
	DecisionTime time.Duration
	// TableauOnly: the banker plays the tableau and draws in both optional
	// cases (rule 102, "o banqueiro joga segundo a tabela").
	TableauOnly bool
	Languages   []string // the dealer's languages, Portuguese first (rules 66, 96)
	ReplayHands int      // coups kept for each player's replay (at least 3)
}

// Defaults fills what a definition left out with the standard figures.
func (r Rules) Defaults() Rules {
	if r.Decks == 0 {
		r.Decks = 6
	}
	if r.MinSeated == 0 {
		r.MinSeated = 4
	}
	if r.Rounding == "" {
		r.Rounding = RoundDown
	}
	if r.AuctionBase == 0 {
		r.AuctionBase = r.MinBank
	}
	if r.AuctionStep == 0 {
		r.AuctionStep = r.MinBet
	}
	if len(r.Languages) == 0 {
		r.Languages = []string{"pt", "en"}
	}
	if r.ReplayHands == 0 {
		r.ReplayHands = 3
	}
	return r
}

// Validate names every field that breaks a rule.
func (r Rules) Validate() error {
	var errs []string
	bad := func(format string, a ...any) { errs = append(errs, fmt.Sprintf(format, a...)) }
	if r.Decks < 1 || r.Decks > 12 {
		bad("decks %d: 1 to 12", r.Decks)
	}
	if r.MinSeated < 4 {
		bad("min seated %d: at least 4 (rule 16)", r.MinSeated)
	}
	if r.Seats < r.MinSeated || r.Seats > 16 {
		bad("seats %d: at least the %d seated players a partida needs, at most 16", r.Seats, r.MinSeated)
	}
	if r.MinBet < 1 {
		bad("min bet %d cents (rule 36)", r.MinBet)
	}
	if r.MinBank < r.MinBet {
		bad("min bank %d: at least the minimum bet %d (rule 35)", r.MinBank, r.MinBet)
	}
	if r.CagnotteBps < 0 || r.CagnotteBps > 10000 {
		bad("cagnotte %d basis points: 0 to 10000 (rule 47)", r.CagnotteBps)
	}
	if !slices.Contains([]Rounding{RoundDown, RoundHalfUp, RoundUp}, r.Rounding) {
		bad("rounding %q: down, half_up or up (the roundings a definition may state)", r.Rounding)
	}
	if r.AuctionBase < r.MinBank {
		bad("auction base %d: at least the minimum bank %d (rules 35, 82)", r.AuctionBase, r.MinBank)
	}
	if r.AuctionStep < 1 {
		bad("auction step %d cents (rule 82)", r.AuctionStep)
	}
	if r.DecisionTime < 5*time.Second {
		bad("decision time %s: at least 5s", r.DecisionTime)
	}
	for _, l := range r.Languages {
		if l != "pt" && l != "en" {
			bad("language %q: pt or en", l)
		}
	}
	if len(r.Languages) > 0 && r.Languages[0] != "pt" {
		bad("languages %v: Portuguese first (rule 96)", r.Languages)
	}
	if r.ReplayHands < 3 {
		bad("replay hands %d: at least 3", r.ReplayHands)
	}
	if len(errs) > 0 {
		return fmt.Errorf("chemin de fer table %q: %s", r.Table, strings.Join(errs, "; "))
	}
	return nil
}

// Cagnotte is the house's part of the banker's winnings won, in exact
// cents: won × bps / 10000, rounded as the rules say (rule 47).
func (r Rules) Cagnotte(won int64) int64 {
	if won <= 0 {
		return 0
	}
	// won = 10000·hi + lo keeps the products inside 64 bits for any win.
	hi, lo := won/10000, won%10000
	q, rem := hi*r.CagnotteBps+lo*r.CagnotteBps/10000, lo*r.CagnotteBps%10000
	switch r.Rounding {
	case RoundUp:
		if rem > 0 {
			q++
		}
	case RoundHalfUp:
		if rem >= 5000 {
			q++
		}
	}
	return q
}
