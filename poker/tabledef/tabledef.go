// Package tabledef is the approved definition of a poker table that the
// table server runs (cmd/tablesrv): the game, its stakes, the cave and the
// minimum re-buy, the house's commission, the betting structure and limits,
// the seats and the decision timer. A chemin de fer table (chemin.go) is
// defined the same way: its sabot, seats, bank and bets, cagnotte and its
// rounding, the bank's auction, the timer and the banker's choices. A
// definition is a JSON file signed like a paytable or a Makccarat table
// definition (the same keys, signature format and code: reels.Verify),
// loaded strictly: an unknown field, a key given twice or data after the
// object is refused, and every rule a file breaks is named with the file,
// the field and the value.
//
// The rules are the engines' (poker/holdem, poker/synthetic); this package
// names them per field, then builds the engine's configuration and lets the
// engine check it again, so a definition the loader accepts is one the
// engine accepts.
package tabledef

import (
	"bytes"
	"crypto/ed25519"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"regexp"
	"time"

	"github.com/openegm/cabinet/internal/strictjson"
	"github.com/openegm/cabinet/poker"
	"github.com/openegm/cabinet/poker/chemin"
	"github.com/openegm/cabinet/poker/holdem"
	"github.com/openegm/cabinet/poker/synthetic"
	"github.com/openegm/cabinet/reels"
	"github.com/openegm/cabinet/rng"
	"golang.org/x/crypto/blake2b"
)

// Game is the value of a definition's "game" field.
type Game string

const (
	Holdem    Game = "holdem"          // online Texas hold'em (SRIJ draft, 2015)
	Synthetic Game = "synthetic_poker" // póquer sintético (Portaria 817/2005)
)

// Bounds of a definition that no rule sets. MaxCents keeps a table's money
// far inside poker.MaxTableChips; the decision time is the operator's, and
// a bound stops a typing slip from freezing a table for hours.
const (
	MaxCents           = 100_000_000 // one million euros
	MaxDecisionSeconds = 300
	MaxReplayHands     = 100
	maxDepth           = 4
)

// Definition is a validated poker table definition.
type Definition struct {
	File    string // where it was loaded from, for error messages
	ID      string
	Version int
	Game    Game
	Title   reels.Names
	// Exactly one is set, the engine's configuration with its defaults
	// filled in.
	Holdem    *holdem.Config
	Synthetic *synthetic.Config
	Chemin    *CheminConfig
}

type header struct {
	ID      *string      `json:"id"`
	Version *int         `json:"version"`
	Game    *string      `json:"game"`
	Title   *reels.Names `json:"title"`
}

type holdemFile struct {
	header
	Table           *string `json:"table"`
	Seats           *int    `json:"seats"`
	MinBet          *int64  `json:"min_bet_cents"`
	InitialCave     *int64  `json:"initial_cave_cents"`
	MinRebuy        *int64  `json:"min_rebuy_cents"`
	Structure       *string `json:"structure"`
	SmallBet        *int64  `json:"small_bet_cents"`
	BigBet          *int64  `json:"big_bet_cents"`
	RaiseCap        *int    `json:"raise_cap"`
	RakeBps         *int64  `json:"rake_bps"`
	FeeBps          *int64  `json:"fee_bps"`
	DecisionSeconds *int    `json:"decision_seconds"`
	ExtraSeconds    *int    `json:"extra_seconds"`
	ReplayHands     *int    `json:"replay_hands"`
}

type syntheticFile struct {
	header
	Number          *int   `json:"number"`
	InitialCave     *int64 `json:"initial_cave_cents"`
	MinBet          *int64 `json:"min_bet_cents"`
	MinRebuy        *int64 `json:"min_rebuy_cents"`
	RakeBps         *int64 `json:"rake_bps"`
	Estardilho      *bool  `json:"estardilho"`
	PartidaMinutes  *int   `json:"partida_minutes"`
	DecisionSeconds *int   `json:"decision_seconds"`
	ReplayHands     *int   `json:"replay_hands"`
}

var idPattern = regexp.MustCompile(`^[a-z0-9][a-z0-9-]{0,63}$`)

// IsPoker tells a poker table definition from the other files a tool takes
// (paytables, Makccarat definitions) by its content: its "game" names a
// poker game.
func IsPoker(data []byte) bool {
	var probe struct {
		Game string `json:"game"`
	}
	return json.Unmarshal(data, &probe) == nil && (probe.Game == string(Holdem) || probe.Game == string(Synthetic))
}

// checker collects every rule a file breaks.
type checker struct {
	name string
	errs []error
}

func (c *checker) bad(field, value, rule string) {
	c.errs = append(c.errs, &reels.Error{File: c.name, Field: field, Value: value, Rule: rule})
}

// cents checks a required amount in cents.
func (c *checker) cents(field string, v *int64) int64 {
	switch {
	case v == nil:
		c.bad(field, "", "missing")
	case *v < 1 || *v > MaxCents:
		c.bad(field, fmt.Sprint(*v), fmt.Sprintf("must be 1 to %d cents", MaxCents))
	default:
		return *v
	}
	return 0
}

func (c *checker) seconds(field string, v *int, min int, rule string) time.Duration {
	switch {
	case v == nil:
		c.bad(field, "", "missing")
	case *v < min || *v > MaxDecisionSeconds:
		c.bad(field, fmt.Sprint(*v), fmt.Sprintf("%d to %d seconds (%s)", min, MaxDecisionSeconds, rule))
	default:
		return time.Duration(*v) * time.Second
	}
	return 0
}

func (c *checker) replay(v *int) int {
	switch {
	case v == nil:
		return 3
	case *v < 3 || *v > MaxReplayHands:
		c.bad("replay_hands", fmt.Sprint(*v), fmt.Sprintf("3 to %d: the last three hands at least (SRIJ rule 78)", MaxReplayHands))
	}
	return max(3, min(*v, MaxReplayHands))
}

func (c *checker) header(h header, d *Definition) {
	switch {
	case h.ID == nil:
		c.bad("id", "", "missing")
	case !idPattern.MatchString(*h.ID):
		c.bad("id", fmt.Sprintf("%q", *h.ID), "must be 1-64 lower-case letters, digits or '-'")
	default:
		d.ID = *h.ID
	}
	switch {
	case h.Version == nil:
		c.bad("version", "", "missing")
	case *h.Version < 1:
		c.bad("version", fmt.Sprint(*h.Version), "must be 1 or more")
	default:
		d.Version = *h.Version
	}
	switch {
	case h.Title == nil:
		c.bad("title", "", "missing")
	case h.Title.PT == "":
		c.bad("title.pt", "", "missing or empty (Portuguese is the default language)")
	case h.Title.EN == "":
		c.bad("title.en", "", "missing or empty")
	default:
		d.Title = *h.Title
	}
}

// Parse validates the bytes of a poker table definition; name is used in
// errors only. A refused file is reported with every rule it breaks
// (errors.As finds the first *reels.Error). Parse does not check the
// signature: see LoadCertified.
func Parse(name string, data []byte) (*Definition, error) {
	c := &checker{name: name}
	fail := func(field, value, rule string) error {
		return &reels.Error{File: name, Field: field, Value: value, Rule: rule}
	}
	if err := strictjson.DuplicateKeys(data, maxDepth); err != nil {
		return nil, fail("(json)", "", err.Error())
	}
	var probe struct {
		Game *string `json:"game"`
	}
	if err := json.Unmarshal(data, &probe); err != nil {
		return nil, fail("(json)", "", strictjson.Problem(err))
	}
	decode := func(v any) error {
		dec := json.NewDecoder(bytes.NewReader(data))
		dec.DisallowUnknownFields()
		if err := dec.Decode(v); err != nil {
			return fail("(json)", "", strictjson.Problem(err))
		}
		if dec.More() {
			return fail("(json)", "", "extra data after the definition object")
		}
		return nil
	}
	d := &Definition{File: name}
	switch {
	case probe.Game == nil:
		return nil, fail("game", "", fmt.Sprintf("missing (a table definition says %q, %q or %q)", Holdem, Synthetic, Chemin))
	case *probe.Game == string(Holdem):
		var f holdemFile
		if err := decode(&f); err != nil {
			return nil, err
		}
		d.Game = Holdem
		c.header(f.header, d)
		c.holdem(f, d)
	case *probe.Game == string(Synthetic):
		var f syntheticFile
		if err := decode(&f); err != nil {
			return nil, err
		}
		d.Game = Synthetic
		c.header(f.header, d)
		c.synthetic(f, d)
	case *probe.Game == string(Chemin):
		var f cheminFile
		if err := decode(&f); err != nil {
			return nil, err
		}
		d.Game = Chemin
		c.header(f.header, d)
		c.chemin(f, d)
	default:
		return nil, fail("game", fmt.Sprintf("%q", *probe.Game), fmt.Sprintf("must be %q, %q or %q, the table games this program knows", Holdem, Synthetic, Chemin))
	}
	if len(c.errs) > 0 {
		return nil, errors.Join(c.errs...)
	}
	// The engine checks the whole configuration again and fills its
	// defaults: a definition it refuses is refused here.
	switch d.Game {
	case Holdem:
		t, err := holdem.New(*d.Holdem, nil)
		if err != nil {
			return nil, fail("(table)", "", err.Error())
		}
		cfg := t.Config()
		d.Holdem = &cfg
	case Synthetic:
		t, err := synthetic.New(*d.Synthetic, nil)
		if err != nil {
			return nil, fail("(table)", "", err.Error())
		}
		cfg := t.Config()
		d.Synthetic = &cfg
	}
	return d, nil
}

var structures = []holdem.Structure{holdem.NoLimit, holdem.PotLimit, holdem.HalfPotLimit, holdem.FixedLimit}

func (c *checker) holdem(f holdemFile, d *Definition) {
	cfg := &holdem.Config{}
	d.Holdem = cfg
	switch {
	case f.Table == nil || *f.Table == "":
		c.bad("table", "", "missing or empty: the table's name, shown to the players")
	case len(*f.Table) > 40:
		c.bad("table", fmt.Sprintf("%q", *f.Table), "at most 40 bytes")
	default:
		cfg.Table = *f.Table
	}
	switch {
	case f.Seats == nil:
		c.bad("seats", "", "missing")
	case *f.Seats < 2 || *f.Seats > holdem.MaxSeats:
		c.bad("seats", fmt.Sprint(*f.Seats), fmt.Sprintf("2 to %d (SRIJ rule 5)", holdem.MaxSeats))
	default:
		cfg.Seats = *f.Seats
	}
	cfg.MinBet = c.cents("min_bet_cents", f.MinBet)
	if f.MinBet != nil && *f.MinBet == 1 {
		c.bad("min_bet_cents", "1", "at least 2 cents: the small blind is half of it (SRIJ rule 25)")
	}
	cfg.InitialCave = c.cents("initial_cave_cents", f.InitialCave)
	if cfg.MinBet > 0 && cfg.InitialCave > 0 && cfg.MinBet*10 > cfg.InitialCave {
		c.bad("min_bet_cents", fmt.Sprint(cfg.MinBet), fmt.Sprintf("more than 10%% of the initial cave %d (SRIJ rule 24)", cfg.InitialCave))
	}
	cfg.MinRebuy = c.cents("min_rebuy_cents", f.MinRebuy)
	if cfg.MinRebuy > 0 && cfg.MinRebuy < cfg.MinBet {
		c.bad("min_rebuy_cents", fmt.Sprint(cfg.MinRebuy), fmt.Sprintf("at least the minimum bet %d (SRIJ rule 18)", cfg.MinBet))
	}
	if f.Structure == nil {
		c.bad("structure", "", `missing: "no_limit", "pot_limit", "half_pot_limit" or "fixed_limit" (SRIJ rule 27)`)
	} else {
		for _, s := range structures {
			if string(s) == *f.Structure {
				cfg.Structure = s
			}
		}
		if cfg.Structure == "" {
			c.bad("structure", fmt.Sprintf("%q", *f.Structure), `must be "no_limit", "pot_limit", "half_pot_limit" or "fixed_limit" (SRIJ rule 27)`)
		}
	}
	fixed := cfg.Structure == holdem.FixedLimit
	for _, b := range []struct {
		field string
		v     *int64
		to    *int64
	}{{"small_bet_cents", f.SmallBet, &cfg.SmallBet}, {"big_bet_cents", f.BigBet, &cfg.BigBet}} {
		switch {
		case b.v == nil:
		case !fixed:
			c.bad(b.field, fmt.Sprint(*b.v), "only a fixed-limit table has fixed bets")
		default:
			*b.to = c.cents(b.field, b.v)
		}
	}
	if fixed && cfg.SmallBet > 0 && cfg.SmallBet < cfg.MinBet {
		c.bad("small_bet_cents", fmt.Sprint(cfg.SmallBet), fmt.Sprintf("at least the minimum bet %d (SRIJ rule 26)", cfg.MinBet))
	}
	if fixed && cfg.BigBet > 0 && cfg.BigBet < max(cfg.SmallBet, cfg.MinBet) {
		c.bad("big_bet_cents", fmt.Sprint(cfg.BigBet), "at least the small bet (SRIJ rule 26)")
	}
	if f.RaiseCap != nil {
		switch {
		case *f.RaiseCap < 0 || *f.RaiseCap > 100:
			c.bad("raise_cap", fmt.Sprint(*f.RaiseCap), "0 (none) to 100 bets and raises a round (SRIJ rule 45)")
		case *f.RaiseCap == 0 && fixed:
			c.bad("raise_cap", "0", "a fixed-limit table caps its raises (SRIJ rules 27 a, 45); leave it out for 4")
		default:
			cfg.RaiseCap = *f.RaiseCap
		}
	}
	switch {
	case f.RakeBps != nil && f.FeeBps != nil:
		c.bad("rake_bps", fmt.Sprint(*f.RakeBps), "a table has a rake or a buy-in fee, not both: the operator chooses one (SRIJ rule 20)")
	case f.RakeBps == nil && f.FeeBps == nil:
		c.bad("rake_bps", "", "missing: play pays a commission, a rake_bps of 100-500 or a fee_bps of 500-2000 (SRIJ rules 19-20)")
	case f.RakeBps != nil && (*f.RakeBps < 100 || *f.RakeBps > 500):
		c.bad("rake_bps", fmt.Sprint(*f.RakeBps), "1% to 5% of every pot: 100 to 500 basis points (SRIJ rule 20 a)")
	case f.FeeBps != nil && (*f.FeeBps < 500 || *f.FeeBps > 2000):
		c.bad("fee_bps", fmt.Sprint(*f.FeeBps), "5% to 20% of every cave and re-buy: 500 to 2000 basis points (SRIJ rule 20 b)")
	case f.RakeBps != nil:
		cfg.RakeBps = *f.RakeBps
	default:
		cfg.FeeBps = *f.FeeBps
	}
	cfg.DecisionTime = c.seconds("decision_seconds", f.DecisionSeconds, 5, "at least 5 s, SRIJ rule 51")
	if f.ExtraSeconds != nil {
		switch {
		case *f.ExtraSeconds < 0 || (*f.ExtraSeconds > 0 && time.Duration(*f.ExtraSeconds)*time.Second >= cfg.DecisionTime && cfg.DecisionTime > 0):
			c.bad("extra_seconds", fmt.Sprint(*f.ExtraSeconds), "0 (none) or less than the decision time (SRIJ rule 52)")
		default:
			cfg.ExtraTime = time.Duration(*f.ExtraSeconds) * time.Second
		}
	}
	cfg.ReplayHands = c.replay(f.ReplayHands)
}

func (c *checker) synthetic(f syntheticFile, d *Definition) {
	cfg := &synthetic.Config{}
	d.Synthetic = cfg
	switch {
	case f.Number == nil:
		c.bad("number", "", "missing: the table's number, on its card (rule 20)")
	case *f.Number < 1 || *f.Number > 999:
		c.bad("number", fmt.Sprint(*f.Number), "1 to 999 (rule 20)")
	default:
		cfg.Number = *f.Number
	}
	cfg.MinBet = c.cents("min_bet_cents", f.MinBet)
	cfg.InitialCave = c.cents("initial_cave_cents", f.InitialCave)
	if cfg.InitialCave > 0 && cfg.InitialCave < cfg.MinBet {
		c.bad("initial_cave_cents", fmt.Sprint(cfg.InitialCave), fmt.Sprintf("at least the minimum bet %d that buys the cards (rule 38)", cfg.MinBet))
	}
	cfg.MinRebuy = c.cents("min_rebuy_cents", f.MinRebuy)
	if cfg.MinRebuy > 0 && cfg.MinRebuy < cfg.MinBet {
		c.bad("min_rebuy_cents", fmt.Sprint(cfg.MinRebuy), fmt.Sprintf("at least the minimum bet %d (rule 38)", cfg.MinBet))
	}
	switch {
	case f.RakeBps == nil:
		c.bad("rake_bps", "", fmt.Sprintf("missing: synthetic poker gives the house %d basis points of every pot (rule 55)", synthetic.HouseBps))
	case *f.RakeBps != synthetic.HouseBps:
		c.bad("rake_bps", fmt.Sprint(*f.RakeBps), fmt.Sprintf("must be %d: 3%% of every pot and of the encavado's payments (rule 55)", synthetic.HouseBps))
	}
	if f.Estardilho == nil {
		c.bad("estardilho", "", "missing: true or false, the operator's choice (rule 43)")
	} else {
		cfg.Estardilho = *f.Estardilho
	}
	switch {
	case f.PartidaMinutes == nil:
		c.bad("partida_minutes", "", "missing")
	case *f.PartidaMinutes < 60 || *f.PartidaMinutes > 120:
		c.bad("partida_minutes", fmt.Sprint(*f.PartidaMinutes), "one to two hours: 60 to 120 (rule 39)")
	default:
		cfg.Duration = time.Duration(*f.PartidaMinutes) * time.Minute
	}
	cfg.DecisionTime = c.seconds("decision_seconds", f.DecisionSeconds, 5, "at least 5 s, SRIJ rule 51 by analogy")
	cfg.ReplayHands = c.replay(f.ReplayHands)
}

// Engine is a table engine as the server drives it. View is what every
// game shows the same way (the seats and their stacks, the hand or coup,
// the seat asked and the decision's deadline, which a Tick enforces); a
// game with more to show has its own view beside it (CheminEngine's
// CheminView).
type Engine interface {
	Step(poker.Event) ([]poker.Record, error)
	View(viewer string) poker.View
	RequiredCave() int64
	LastHands(player string) [][]poker.Record
	Fault() error
}

// NewEngine opens a table of the definition; its cards come from src.
func (d *Definition) NewEngine(src rng.Source) (Engine, error) {
	if d.Holdem != nil {
		return holdem.New(*d.Holdem, src)
	}
	if d.Chemin != nil {
		t, err := chemin.New(d.Chemin.Rules(d.ID), src)
		if err != nil {
			return nil, err
		}
		return &CheminEngine{Table: t}, nil
	}
	return synthetic.New(*d.Synthetic, src)
}

// RakeBps is the house's part of every pot in basis points (0 for a table
// that takes a buy-in fee instead, and for chemin de fer, whose cagnotte is
// a part of the banker's winnings: d.Chemin.CagnotteBps).
func (d *Definition) RakeBps() int64 {
	if d.Holdem != nil {
		return d.Holdem.RakeBps
	}
	if d.Chemin != nil {
		return 0
	}
	return synthetic.HouseBps
}

// FeeBps is the house's part of every cave and re-buy in basis points.
func (d *Definition) FeeBps() int64 {
	if d.Holdem != nil {
		return d.Holdem.FeeBps
	}
	return 0
}

// MinRebuy is the least re-buy (for chemin de fer, the least bet).
func (d *Definition) MinRebuy() int64 {
	if d.Holdem != nil {
		return d.Holdem.MinRebuy
	}
	if d.Chemin != nil {
		return d.Chemin.MinBet
	}
	return d.Synthetic.MinRebuy
}

// Seats is the number of places at the table.
func (d *Definition) Seats() int {
	if d.Holdem != nil {
		return d.Holdem.Seats
	}
	if d.Chemin != nil {
		return d.Chemin.Seats
	}
	return synthetic.Seats
}

// MinPlayers is how many players present a hand needs.
func (d *Definition) MinPlayers() int {
	if d.Holdem != nil {
		return 2
	}
	if d.Chemin != nil {
		return d.Chemin.MinPlayers
	}
	return synthetic.MinPlayers
}

// DecisionTime is the decision timer.
func (d *Definition) DecisionTime() time.Duration {
	if d.Holdem != nil {
		return d.Holdem.DecisionTime
	}
	if d.Chemin != nil {
		return d.Chemin.DecisionTime
	}
	return d.Synthetic.DecisionTime
}

// Certified is a definition the server may run: signed by a trusted
// certification key and valid.
type Certified struct {
	*Definition
	KeyID  string
	Digest string // BLAKE2b-256 of the file, hex, for the inspector
	Data   []byte // the file as signed, kept in the server's ledger
	Sig    []byte
}

// LoadCertified is how the server loads a definition: the signature first
// (the paytables' code and keys), then the strict parse.
func LoadCertified(name string, data, sig []byte, trusted []ed25519.PublicKey) (*Certified, error) {
	id, err := reels.Verify(name, data, sig, trusted)
	if err != nil {
		return nil, err
	}
	d, err := Parse(name, data)
	if err != nil {
		return nil, err
	}
	return &Certified{Definition: d, KeyID: id, Digest: Digest(data), Data: bytes.Clone(data), Sig: bytes.Clone(sig)}, nil
}

// Digest names a definition's exact bytes: BLAKE2b-256 in hex.
func Digest(data []byte) string {
	sum := blake2b.Sum256(data)
	return hex.EncodeToString(sum[:])
}
