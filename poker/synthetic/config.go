// Package synthetic is the table engine of synthetic poker ("póquer
// sintético", Portaria 817/2005, Title II, Section II): 11 seats and at
// least 4 players, the 28-card deck, the cave and the minimum re-buy, the
// minimum bet that buys the two cards, the five community cards turned one
// by one with a betting round after each, the hand ("a mão") turning seat
// by seat, the encavado and his part of the pot, the pó, the optional
// estardilho and restardilho, 3% of every pot to the house, split pots in
// parts whose smallest chip is the minimum bet, the partida's duration and
// the table card.
//
// It is pure: events in (with their time), records out; cards come from
// the injected certified RNG. Rule numbers in comments are the Portaria's;
// docs/poker.md says how each is read, and what was chosen where the text
// given to us lacks the lists of rules 24, 43, 47 and 62.
package synthetic

import (
	"fmt"
	"strings"
	"time"

	"github.com/openegm/cabinet/internal/money"
)

// Seats is the places at a table (rule 2).
const Seats = 11

// MinPlayers is how many players a hand needs at the table (rule 11).
const MinPlayers = 4

// HouseBps is the house's part of every pot and of the encavado's payment,
// in basis points (rule 55: 3%).
const HouseBps = 300

// Config is what the operator sets for a table (rules 19, 20, 38, 39, 43).
type Config struct {
	Number      int   // the table's number, on its card (rule 20)
	InitialCave int64 // cents (rule 38)
	MinBet      int64 // the bet that buys the two cards, and the least bet (rule 38)
	MinRebuy    int64 // the least re-buy (rule 38)
	// Estardilho enables the estardilho and restardilho (rule 43).
	Estardilho bool
	// Duration is the partida's, one to two hours (rule 39).
	Duration time.Duration
	// DecisionTime is how long a player has to decide. The Portaria, for a
	// dealer's table, has none; the electronic table uses the SRIJ draft's
	// rule 51 (at least 5 s) and its rule 53 on timeouts.
	DecisionTime time.Duration
	ReplayHands  int // hands kept for each player's replay (at least 3)
}

func (c Config) withDefaults() Config {
	if c.ReplayHands == 0 {
		c.ReplayHands = 3
	}
	return c
}

// Validate names every field that breaks a rule.
func (c Config) Validate() error {
	var errs []string
	bad := func(format string, a ...any) { errs = append(errs, fmt.Sprintf(format, a...)) }
	if c.Number < 1 {
		bad("table number %d: a table card shows a number (rule 20)", c.Number)
	}
	if c.MinBet < 1 {
		bad("min bet %d cents (rule 38)", c.MinBet)
	}
	if c.InitialCave < c.MinBet {
		bad("initial cave %d: at least the minimum bet %d that buys the cards (rule 38)", c.InitialCave, c.MinBet)
	}
	if c.MinRebuy < c.MinBet {
		bad("min re-buy %d: at least the minimum bet %d (rule 38)", c.MinRebuy, c.MinBet)
	}
	if c.Duration < time.Hour || c.Duration > 2*time.Hour {
		bad("duration %s: one to two hours (rule 39)", c.Duration)
	}
	if c.DecisionTime < 5*time.Second {
		bad("decision time %s: at least 5s (SRIJ rule 51, by analogy)", c.DecisionTime)
	}
	if c.ReplayHands < 3 {
		bad("replay hands %d: at least 3", c.ReplayHands)
	}
	if len(errs) > 0 {
		return fmt.Errorf("synthetic poker table %d: %s", c.Number, strings.Join(errs, "; "))
	}
	return nil
}

// Card is the table card of rule 20.
type Card struct {
	Number                        int
	InitialCave, MinBet, MinRebuy int64
}

// Lines is the card's text in Portuguese ("pt", the default) or English.
func (c Card) Lines(lang string) []string {
	if lang == "en" {
		return []string{
			fmt.Sprintf("Table %d", c.Number),
			"Initial cave: " + money.Euro(lang, c.InitialCave),
			"Minimum bet: " + money.Euro(lang, c.MinBet),
			"Minimum re-buy: " + money.Euro(lang, c.MinRebuy),
		}
	}
	return []string{
		fmt.Sprintf("Mesa %d", c.Number),
		"Cave inicial: " + money.Euro(lang, c.InitialCave),
		"Aposta mínima: " + money.Euro(lang, c.MinBet),
		"Reposição mínima: " + money.Euro(lang, c.MinRebuy),
	}
}
