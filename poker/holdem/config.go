// Package holdem is the table engine of online Texas hold'em as the SRIJ
// draft regulation of 2015 describes it: up to 10 seats, blinds (the big
// blind is the table's minimum bet, the small blind half of it), no-limit,
// pot-limit, half-pot-limit and fixed-limit, side pots, a rake of 1-5% of
// every pot as it is paid or a fee of 5-20% of the caves, a decision timer
// of at least 5 s, the replay of the last hands and the session totals.
//
// It is pure: events in (with their time), records out, no clock and no
// I/O; cards come from the injected certified RNG. Rule numbers in the
// comments are the draft's; docs/poker.md says how each is read.
package holdem

import (
	"fmt"
	"strings"
	"time"
)

// Structure is how big a bet may be (rule 27).
type Structure string

const (
	NoLimit      Structure = "no_limit"       // up to the player's chips (27 c/28)
	PotLimit     Structure = "pot_limit"      // up to the pot (27 b)
	HalfPotLimit Structure = "half_pot_limit" // up to half the pot (27 a)
	FixedLimit   Structure = "fixed_limit"    // fixed bets and a number of raises per round (27 a, 45)
)

// MaxSeats is the seats of a table (rule 5).
const MaxSeats = 10

// MinDecisionTime is the least time a player has to decide (rule 51).
const MinDecisionTime = 5 * time.Second

// Config is a table's definition, fixed by the operator (rules 17, 20, 27).
type Config struct {
	Table       string
	Seats       int   // 2 to 10
	MinBet      int64 // the table's minimum bet and big blind, cents (rule 25)
	InitialCave int64 // the cave to sit at a table not in play (rule 9)
	MinRebuy    int64 // the least re-buy (rule 17)
	Structure   Structure
	// SmallBet and BigBet are a fixed-limit table's bets: pre-flop and
	// flop, turn and river (default MinBet and twice it).
	SmallBet, BigBet int64
	// RaiseCap is the most bets and raises in a betting round (rule 45);
	// 0 for none (a fixed-limit table must have one: default 4).
	RaiseCap int
	// RakeBps is the house's part of every pot in basis points, 100 to 500
	// (rule 20 a); FeeBps its part of every cave and re-buy, 500 to 2000
	// (rule 20 b). Exactly one is set.
	RakeBps, FeeBps int64
	DecisionTime    time.Duration // at least 5 s (rule 51)
	ExtraTime       time.Duration // once per decision, less than DecisionTime (rule 52); 0 for none
	ReplayHands     int           // hands kept for a player's replay, at least 3 (rule 78)
}

// withDefaults fills the defaults in a copy.
func (c Config) withDefaults() Config {
	if c.Structure == FixedLimit {
		if c.SmallBet == 0 {
			c.SmallBet = c.MinBet
		}
		if c.BigBet == 0 {
			c.BigBet = 2 * c.SmallBet
		}
		if c.RaiseCap == 0 {
			c.RaiseCap = 4
		}
	}
	if c.ReplayHands == 0 {
		c.ReplayHands = 3
	}
	return c
}

// Validate names every field that breaks a rule.
func (c Config) Validate() error {
	var errs []string
	bad := func(format string, a ...any) { errs = append(errs, fmt.Sprintf(format, a...)) }
	if c.Table == "" {
		bad("table: no name")
	}
	if c.Seats < 2 || c.Seats > MaxSeats {
		bad("seats %d: 2 to %d (rule 5)", c.Seats, MaxSeats)
	}
	if c.MinBet < 2 {
		bad("min bet %d: at least 2 cents (the small blind is half of it, rule 25)", c.MinBet)
	}
	if c.MinBet*10 > c.InitialCave {
		bad("min bet %d is more than 10%% of the initial cave %d (rule 24)", c.MinBet, c.InitialCave)
	}
	if c.MinRebuy < c.MinBet {
		bad("min re-buy %d: at least the minimum bet %d (rule 18)", c.MinRebuy, c.MinBet)
	}
	switch c.Structure {
	case NoLimit, PotLimit, HalfPotLimit:
		if c.SmallBet != 0 || c.BigBet != 0 {
			bad("small and big bets are for fixed limit only")
		}
	case FixedLimit:
		if c.SmallBet < c.MinBet || c.BigBet < c.SmallBet {
			bad("fixed limit bets %d/%d: at least the minimum bet %d, the big at least the small (rule 26)", c.SmallBet, c.BigBet, c.MinBet)
		}
		if c.RaiseCap < 1 {
			bad("raise cap %d: a fixed-limit table caps its raises (rules 27 a, 45)", c.RaiseCap)
		}
	default:
		bad("structure %q: no_limit, pot_limit, half_pot_limit or fixed_limit (rule 27)", c.Structure)
	}
	if c.RaiseCap < 0 {
		bad("raise cap %d", c.RaiseCap)
	}
	switch {
	case c.RakeBps != 0 && c.FeeBps != 0:
		bad("rake and buy-in fee both set: the operator chooses one (rule 20)")
	case c.RakeBps == 0 && c.FeeBps == 0:
		bad("neither rake nor buy-in fee: play pays a commission (rule 19)")
	case c.RakeBps != 0 && (c.RakeBps < 100 || c.RakeBps > 500):
		bad("rake %d bps: 1%% to 5%% (rule 20 a)", c.RakeBps)
	case c.FeeBps != 0 && (c.FeeBps < 500 || c.FeeBps > 2000):
		bad("buy-in fee %d bps: 5%% to 20%% (rule 20 b)", c.FeeBps)
	}
	if c.DecisionTime < MinDecisionTime {
		bad("decision time %s: at least %s (rule 51)", c.DecisionTime, MinDecisionTime)
	}
	if c.ExtraTime < 0 || (c.ExtraTime > 0 && c.ExtraTime >= c.DecisionTime) {
		bad("extra time %s: less than the decision time %s (rule 52)", c.ExtraTime, c.DecisionTime)
	}
	if c.ReplayHands < 3 {
		bad("replay hands %d: at least 3 (rule 78)", c.ReplayHands)
	}
	if len(errs) > 0 {
		return fmt.Errorf("hold'em table %q: %s", c.Table, strings.Join(errs, "; "))
	}
	return nil
}
