package baccarat

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"regexp"

	"github.com/openegm/cabinet/cards"
	"github.com/openegm/cabinet/internal/strictjson"
	"github.com/openegm/cabinet/reels"
	"github.com/openegm/cabinet/rng"
)

// Game is the value of the "game" field of a Makccarat table definition; it
// is how tools tell a table definition from a paytable.
const Game = "makccarat"

// Bounds of a definition. The decks are the dispatch's (six to twelve); the
// money bound keeps every sum of a hand far inside int64 (a tie at 14:1 on
// the largest stake pays 1.5e9 cents).
const (
	MinDecks = 6
	MaxDecks = 12
	MaxCents = 100_000_000
)

// Limit is the smallest and largest stake allowed, in cents.
type Limit struct {
	Min int64 `json:"min_cents"`
	Max int64 `json:"max_cents"`
}

// Limits are the stakes allowed on each spot and on a whole hand.
type Limits struct {
	Spots [NumSpots]Limit
	Hand  Limit
}

// Definition is a validated Makccarat table definition (docs/makccarat.md).
type Definition struct {
	File        string // where it was loaded from, for error messages
	ID          string
	Version     int
	Title       reels.Names
	Decks       int
	Alternative Alternative
	Commission  Commission
	BetUnit     int64 // cents; every stake is a multiple of it
	Limits      Limits
}

type fileLimit struct {
	Min *int64 `json:"min_cents"`
	Max *int64 `json:"max_cents"`
}

type fileLimits struct {
	Player     *fileLimit `json:"player"`
	Banker     *fileLimit `json:"banker"`
	Tie        *fileLimit `json:"tie"`
	PlayerPair *fileLimit `json:"player_pair"`
	BankerPair *fileLimit `json:"banker_pair"`
	Hand       *fileLimit `json:"hand"`
}

type file struct {
	ID           *string      `json:"id"`
	Version      *int         `json:"version"`
	Game         *string      `json:"game"`
	Title        *reels.Names `json:"title"`
	Decks        *int         `json:"decks"`
	Alternative  *int         `json:"alternative"`
	Commission   *string      `json:"commission"`
	BetUnitCents *int64       `json:"bet_unit_cents"`
	Limits       *fileLimits  `json:"limits"`
}

var idPattern = regexp.MustCompile(`^[a-z0-9][a-z0-9-]{0,63}$`)

// A definition nests three levels (limits.player.min_cents).
const maxDepth = 8

// Parse validates the bytes of a table definition. name is used in errors
// only. A refused file is reported with every rule it breaks, each naming
// the file, the field and the value (errors.As finds the first *reels.Error).
// Parse does not check the signature or the return; see LoadCertified.
func Parse(name string, data []byte) (*Definition, error) {
	fail := func(field, value, rule string) error {
		return &reels.Error{File: name, Field: field, Value: value, Rule: rule}
	}
	if err := strictjson.DuplicateKeys(data, maxDepth); err != nil {
		return nil, fail("(json)", "", err.Error())
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	var f file
	if err := dec.Decode(&f); err != nil {
		return nil, fail("(json)", "", strictjson.Problem(err))
	}
	if dec.More() {
		return nil, fail("(json)", "", "extra data after the definition object")
	}

	var errs []error
	bad := func(field, value, rule string) { errs = append(errs, fail(field, value, rule)) }
	d := &Definition{File: name}

	switch {
	case f.ID == nil:
		bad("id", "", "missing")
	case !idPattern.MatchString(*f.ID):
		bad("id", fmt.Sprintf("%q", *f.ID), "must be 1-64 lower-case letters, digits or '-'")
	default:
		d.ID = *f.ID
	}
	switch {
	case f.Version == nil:
		bad("version", "", "missing")
	case *f.Version < 1:
		bad("version", fmt.Sprint(*f.Version), "must be 1 or more")
	default:
		d.Version = *f.Version
	}
	switch {
	case f.Game == nil:
		bad("game", "", `missing (a table definition says "game": "makccarat")`)
	case *f.Game != Game:
		bad("game", fmt.Sprintf("%q", *f.Game), `must be "makccarat", the only table game this program deals`)
	}
	switch {
	case f.Title == nil:
		bad("title", "", "missing")
	case f.Title.PT == "":
		bad("title.pt", "", "missing or empty (Portuguese is the default language)")
	case f.Title.EN == "":
		bad("title.en", "", "missing or empty")
	default:
		d.Title = *f.Title
	}
	switch {
	case f.Decks == nil:
		bad("decks", "", "missing")
	case *f.Decks < MinDecks || *f.Decks > MaxDecks:
		bad("decks", fmt.Sprint(*f.Decks), fmt.Sprintf("the dispatch deals from %d to %d decks of 52 cards", MinDecks, MaxDecks))
	default:
		d.Decks = *f.Decks
	}
	switch {
	case f.Alternative == nil:
		bad("alternative", "", "missing")
	case *f.Alternative != 1 && *f.Alternative != 2:
		bad("alternative", fmt.Sprint(*f.Alternative), "the dispatch has drawing alternatives 1 and 2")
	default:
		d.Alternative = Alternative(*f.Alternative)
	}
	if f.Commission == nil {
		bad("commission", "", "missing")
	} else {
		for c, n := range commissionNames {
			if n == *f.Commission {
				d.Commission = c
			}
		}
		if d.Commission == 0 {
			bad("commission", fmt.Sprintf("%q", *f.Commission), `must be "five_percent_789" or "half_on_four"`)
		}
	}
	switch {
	case f.BetUnitCents == nil:
		bad("bet_unit_cents", "", "missing")
	case *f.BetUnitCents < 1 || *f.BetUnitCents > MaxCents:
		bad("bet_unit_cents", fmt.Sprint(*f.BetUnitCents), fmt.Sprintf("must be 1 to %d cents", MaxCents))
	case d.Commission != 0 && d.Alternative != 0:
		if rule := d.Alternative.unitProblem(d.Commission, *f.BetUnitCents); rule != "" {
			bad("bet_unit_cents", fmt.Sprint(*f.BetUnitCents), rule)
		} else {
			d.BetUnit = *f.BetUnitCents
		}
	}
	if f.Limits == nil {
		bad("limits", "", "missing")
	} else {
		d.Limits = parseLimits(f.Limits, d.BetUnit, bad)
	}
	if len(errs) > 0 {
		return nil, errors.Join(errs...)
	}
	return d, nil
}

// unitProblem settles a bet of one unit on every spot for every possible
// decision, with the pay rules themselves, and says why the unit does not
// pay whole cents ("" when it does).
func (a Alternative) unitProblem(c Commission, unit int64) string {
	var bets Bets
	for s := range bets {
		bets[s] = unit
	}
	for _, d := range allDecisions() {
		if _, err := settle(a, c, d, bets); err != nil {
			return fmt.Sprintf("a bet of one unit must be paid in whole cents, and %v", err)
		}
	}
	return ""
}

// allDecisions lists every way a hand can end, as far as the bets care.
func allDecisions() []Decision {
	var out []Decision
	for w := PlayerWins; w <= Tie; w++ {
		for pts := range 10 {
			for pp := range 2 {
				for bp := range 2 {
					out = append(out, Decision{Winner: w, Points: pts, PlayerPair: pp == 1, BankerPair: bp == 1})
				}
			}
		}
	}
	return out
}

func parseLimits(f *fileLimits, unit int64, bad func(field, value, rule string)) Limits {
	var l Limits
	one := func(field string, fl *fileLimit) (Limit, bool) {
		if fl == nil {
			bad(field, "", "missing")
			return Limit{}, false
		}
		ok := true
		for _, c := range []struct {
			name string
			v    *int64
		}{{"min_cents", fl.Min}, {"max_cents", fl.Max}} {
			switch {
			case c.v == nil:
				bad(field+"."+c.name, "", "missing")
				ok = false
			case *c.v < 1 || *c.v > MaxCents:
				bad(field+"."+c.name, fmt.Sprint(*c.v), fmt.Sprintf("must be 1 to %d cents", MaxCents))
				ok = false
			case unit > 0 && *c.v%unit != 0:
				bad(field+"."+c.name, fmt.Sprint(*c.v), fmt.Sprintf("must be a multiple of the bet unit (%d cents): every stake is", unit))
				ok = false
			}
		}
		if !ok {
			return Limit{}, false
		}
		if *fl.Min > *fl.Max {
			bad(field+".min_cents", fmt.Sprint(*fl.Min), fmt.Sprintf("is above %s.max_cents (%d)", field, *fl.Max))
			return Limit{}, false
		}
		return Limit{Min: *fl.Min, Max: *fl.Max}, true
	}
	spots := [NumSpots]*fileLimit{f.Player, f.Banker, f.Tie, f.PlayerPair, f.BankerPair}
	allOK := true
	for s, fl := range spots {
		var ok bool
		l.Spots[s], ok = one("limits."+Spot(s).String(), fl)
		allOK = allOK && ok
	}
	var ok bool
	l.Hand, ok = one("limits.hand", f.Hand)
	if !ok || !allOK {
		return l
	}
	var sumMax int64
	for s, sl := range l.Spots {
		sumMax += sl.Max
		if sl.Min > l.Hand.Max {
			bad(fmt.Sprintf("limits.%s.min_cents", Spot(s)), fmt.Sprint(sl.Min), fmt.Sprintf("is above limits.hand.max_cents (%d): the spot could never be played", l.Hand.Max))
		}
	}
	if l.Hand.Min > sumMax {
		bad("limits.hand.min_cents", fmt.Sprint(l.Hand.Min), fmt.Sprintf("is above the sum of the spots' maximums (%d): no hand could be played", sumMax))
	}
	return l
}

// CheckBets says whether a hand's stakes are allowed: each spot empty or a
// multiple of the bet unit inside its limits, and the hand's total inside
// the hand's limits. The error names the spot and the amount.
func (d *Definition) CheckBets(b Bets) error {
	for s, v := range b {
		l := d.Limits.Spots[s]
		switch {
		case v == 0:
		case v < 0:
			return fmt.Errorf("bet on %s: %d cents is negative", Spot(s), v)
		case v%d.BetUnit != 0:
			return fmt.Errorf("bet on %s: %d cents is not a multiple of the bet unit (%d cents)", Spot(s), v, d.BetUnit)
		case v < l.Min || v > l.Max:
			return fmt.Errorf("bet on %s: %d cents is outside the spot's limits (%d to %d cents)", Spot(s), v, l.Min, l.Max)
		}
	}
	if t := b.Total(); t < d.Limits.Hand.Min || t > d.Limits.Hand.Max {
		return fmt.Errorf("the hand's stakes total %d cents, outside the hand's limits (%d to %d cents)", t, d.Limits.Hand.Min, d.Limits.Hand.Max)
	}
	return nil
}

// Settle pays the bets of a decided hand in exact cents. Stakes must be
// multiples of the bet unit (so that every payout is whole cents); it does
// not apply the table limits (CheckBets does, before a hand is dealt).
func (d *Definition) Settle(dec Decision, bets Bets) (Settlement, error) {
	for s, v := range bets {
		if v%d.BetUnit != 0 {
			return Settlement{}, fmt.Errorf("bet on %s: %d cents is not a multiple of the bet unit (%d cents)", Spot(s), v, d.BetUnit)
		}
	}
	return settle(d.Alternative, d.Commission, dec, bets)
}

// Hand is a played hand: its outcome and what every spot paid.
type Hand struct {
	Outcome
	Settlement
}

// Play is the pure function the cabinet and recall use: given the table's
// definition, the hand's stakes and its cards in the order dealt, the
// outcome and the payout of every spot in exact cents. Stakes outside the
// table's limits and cards the rules do not deal are refused.
func (d *Definition) Play(dealt []cards.Card, bets Bets) (Hand, error) {
	if err := d.CheckBets(bets); err != nil {
		return Hand{}, err
	}
	o, err := d.Alternative.Evaluate(dealt)
	if err != nil {
		return Hand{}, err
	}
	s, err := d.Settle(o.Decision, bets)
	if err != nil {
		return Hand{}, err
	}
	return Hand{Outcome: o, Settlement: s}, nil
}

// NewShoe returns the table's shoe: Decks decks of 52 cards.
func (d *Definition) NewShoe() (*cards.Shoe, error) {
	return cards.NewShoe(cards.Standard52(), d.Decks)
}

// Deal draws a hand's cards from a freshly shuffled shoe with the RNG, in
// the order dealt: player, banker, player, banker, then each third card the
// rules call for. The cabinet commits these cards before the first is shown.
func (a Alternative) Deal(shoe *cards.Shoe, src rng.Source) ([]cards.Card, error) {
	shoe.Shuffle()
	dealt := make([]cards.Card, 0, 6)
	var d draws
	for i := 0; ; i++ {
		s := a.sideFor(i, &d)
		if s == Nobody {
			return dealt, nil
		}
		c, err := shoe.Draw(src)
		if err != nil {
			return nil, err
		}
		dealt = append(dealt, c)
		d.add(s, int8(Points(c.Rank)))
	}
}
