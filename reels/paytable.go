// Package reels is the game math of the cabinet: it loads and validates
// paytables (spec/paytable.md), evaluates a spin from its stops, computes the
// exact return of a paytable and simulates play. One evaluation (linePay,
// scatter counting, Evaluate) serves the game, the calculator and the
// simulator, so the three cannot disagree: the simulator pays through a
// compiled form of it (fast.go: a line table filled by linePay, flat
// layout), which tests prove equal to Evaluate.
package reels

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math/bits"
	"regexp"
	"sort"

	"github.com/openegm/cabinet/internal/strictjson"
)

// Kind is the role of a symbol in the pay rules.
type Kind uint8

const (
	Normal Kind = iota
	Wild
	Scatter
)

func (k Kind) String() string {
	switch k {
	case Wild:
		return "wild"
	case Scatter:
		return "scatter"
	}
	return "normal"
}

// Names is a player-facing text in Portuguese (the default, rule 11) and English.
type Names struct {
	PT string `json:"pt"`
	EN string `json:"en"`
}

// Symbol is one symbol of a paytable.
type Symbol struct {
	ID   string
	Kind Kind
	Name Names
}

// Pay is one line_pays or scatter_pays entry after validation.
type Pay struct {
	Symbol      int   // index into Paytable.Symbols
	Count       int   // exact count (line) or minimum count (scatter)
	Pays        int64 // per credit bet on the line (line) or per total bet (scatter)
	Progressive int   // jackpot level won at the top bet level, 0 for none
}

// Award is a free-game award for a trigger-symbol count.
type Award struct {
	Count int
	Games int
}

// FreeGames is the validated free-game feature.
type FreeGames struct {
	Symbol     int
	Awards     []Award // ascending by Count
	Multiplier int64
	Reels      [][]uint8 // the free-game strips (the base strips when the file says null)
	OwnReels   bool      // true when the file gave free-game strips of their own
	Retrigger  bool
	// Press: the feature's free games start when the player presses spin
	// after the trigger was announced (file "start": "press"). Without it
	// ("auto", or no "start": every paytable signed before the field
	// existed) they also start on their own a few seconds after the
	// announcement. It is presentation only: no figure depends on it.
	Press bool
}

// Limits keep every exact figure inside 64-bit counters and a certified
// paytable inside what a lab can review; a file beyond them is refused.
const (
	MaxSymbols     = 32
	MaxStripLength = 4096
	MaxLines       = 100
	MaxPays        = 1_000_000
	MaxCreditsLine = 10_000
	MaxMultiplier  = 100
	MaxGames       = 1000
	MaxLevel       = 8
	maxReels       = 6
	maxCycleBits   = 62
	// MaxTuples bounds the product over reels of distinct symbols per reel:
	// the exact calculator visits that many symbol tuples, so the bound keeps
	// the cabinet's RTP check at load under a second on any valid file.
	MaxTuples = 1 << 25
)

// Paytable is a validated paytable, ready for play and for certification.
type Paytable struct {
	File           string // where it was loaded from, for error messages
	ID             string
	Version        int
	Title          Names
	Rows           int
	Symbols        []Symbol
	Reels          [][]uint8 // symbol indices, top to bottom, circular
	Lines          [][]int
	LinePays       []Pay
	ScatterPays    []Pay // ascending by (Symbol, Count)
	Free           *FreeGames
	CreditsPerLine []int64
	Wild           int // symbol index of the wild, -1 when there is none

	// payAt[sym][count] is the index+1 into LinePays, 0 when that
	// combination pays nothing; it makes pay(X, c) a lookup.
	payAt [][]int
}

// Error is a refused paytable: it names the file, the field, the value and
// the rule it breaks (DESIGN rule 7).
type Error struct {
	File  string
	Field string
	Value string
	Rule  string
}

func (e *Error) Error() string {
	if e.Value == "" {
		return fmt.Sprintf("%s: %s: %s", e.File, e.Field, e.Rule)
	}
	return fmt.Sprintf("%s: %s = %s: %s", e.File, e.Field, e.Value, e.Rule)
}

// The JSON shape of spec/paytable.md. Pointers distinguish a missing field
// from a zero, so "missing" is an error of its own.
type fileSymbol struct {
	ID   *string `json:"id"`
	Kind *string `json:"kind"`
	Name *Names  `json:"name"`
}

type fileLinePay struct {
	Symbol      *string `json:"symbol"`
	Count       *int    `json:"count"`
	Pays        *int64  `json:"pays"`
	Progressive *int    `json:"progressive"`
}

type fileScatterPay struct {
	Symbol *string `json:"symbol"`
	Count  *int    `json:"count"`
	Pays   *int64  `json:"pays"`
}

type fileAward struct {
	Count *int `json:"count"`
	Games *int `json:"games"`
}

type fileFreeGames struct {
	Symbol     *string     `json:"symbol"`
	Awards     []fileAward `json:"awards"`
	Multiplier *int64      `json:"multiplier"`
	Reels      [][]string  `json:"reels"`
	Retrigger  *bool       `json:"retrigger"`
	Start      *string     `json:"start"` // optional: "auto" (default) or "press"
}

type file struct {
	ID             *string          `json:"id"`
	Version        *int             `json:"version"`
	Title          *Names           `json:"title"`
	Rows           *int             `json:"rows"`
	Symbols        []fileSymbol     `json:"symbols"`
	Reels          [][]string       `json:"reels"`
	Lines          [][]int          `json:"lines"`
	LinePays       []fileLinePay    `json:"line_pays"`
	ScatterPays    []fileScatterPay `json:"scatter_pays"`
	FreeGames      *fileFreeGames   `json:"free_games"`
	CreditsPerLine []int64          `json:"credits_per_line"`
}

// A paytable nests four levels at most (free_games.reels[i][j]).
const maxDepth = 16

var idPattern = regexp.MustCompile(`^[a-z0-9][a-z0-9-]{0,63}$`)
var symbolPattern = regexp.MustCompile(`^[A-Za-z0-9_]{1,8}$`)

// Parse validates the bytes of a paytable file. name is used in errors only.
// It does not check the signature or the return; see LoadCertified.
func Parse(name string, data []byte) (*Paytable, error) {
	fail := func(field, value, rule string) error {
		return &Error{File: name, Field: field, Value: value, Rule: rule}
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
		return nil, fail("(json)", "", "extra data after the paytable object")
	}

	p := &Paytable{File: name, Wild: -1}
	if f.ID == nil {
		return nil, fail("id", "", "missing")
	}
	if !idPattern.MatchString(*f.ID) {
		return nil, fail("id", q(*f.ID), "must be 1-64 lower-case letters, digits or '-'")
	}
	p.ID = *f.ID
	if f.Version == nil {
		return nil, fail("version", "", "missing")
	}
	if *f.Version < 1 {
		return nil, fail("version", fmt.Sprint(*f.Version), "must be 1 or more")
	}
	p.Version = *f.Version
	if f.Title == nil {
		return nil, fail("title", "", "missing")
	}
	if err := checkNames(*f.Title); err != "" {
		return nil, fail("title."+err, "", "missing or empty")
	}
	p.Title = *f.Title
	if f.Rows == nil {
		return nil, fail("rows", "", "missing")
	}
	if *f.Rows < 1 || *f.Rows > 5 {
		return nil, fail("rows", fmt.Sprint(*f.Rows), "must be 1 to 5")
	}
	p.Rows = *f.Rows

	// Symbols.
	if len(f.Symbols) == 0 {
		return nil, fail("symbols", "", "missing or empty")
	}
	if len(f.Symbols) > MaxSymbols {
		return nil, fail("symbols", fmt.Sprint(len(f.Symbols)), fmt.Sprintf("at most %d symbols", MaxSymbols))
	}
	index := map[string]int{}
	for i, s := range f.Symbols {
		field := fmt.Sprintf("symbols[%d]", i)
		if s.ID == nil {
			return nil, fail(field+".id", "", "missing")
		}
		if !symbolPattern.MatchString(*s.ID) {
			return nil, fail(field+".id", q(*s.ID), "must be 1-8 letters, digits or '_'")
		}
		if _, dup := index[*s.ID]; dup {
			return nil, fail(field+".id", q(*s.ID), "symbol declared twice")
		}
		if s.Kind == nil {
			return nil, fail(field+".kind", "", "missing")
		}
		var k Kind
		switch *s.Kind {
		case "normal":
			k = Normal
		case "wild":
			k = Wild
			if p.Wild >= 0 {
				return nil, fail(field+".kind", q(*s.Kind), fmt.Sprintf("second wild symbol (%q is already wild); at most one is allowed", p.Symbols[p.Wild].ID))
			}
			p.Wild = i
		case "scatter":
			k = Scatter
		default:
			return nil, fail(field+".kind", q(*s.Kind), `must be "normal", "wild" or "scatter"`)
		}
		if s.Name == nil {
			return nil, fail(field+".name", "", "missing")
		}
		if err := checkNames(*s.Name); err != "" {
			return nil, fail(field+".name."+err, "", "missing or empty")
		}
		index[*s.ID] = i
		p.Symbols = append(p.Symbols, Symbol{ID: *s.ID, Kind: k, Name: *s.Name})
	}

	// Reels.
	var err error
	if p.Reels, err = parseStrips(name, "reels", f.Reels, p.Rows, index); err != nil {
		return nil, err
	}
	n := len(p.Reels)

	// Lines.
	if len(f.Lines) == 0 {
		return nil, fail("lines", "", "missing or empty")
	}
	if len(f.Lines) > MaxLines {
		return nil, fail("lines", fmt.Sprint(len(f.Lines)), fmt.Sprintf("at most %d lines", MaxLines))
	}
	seenLine := map[string]int{}
	for i, l := range f.Lines {
		field := fmt.Sprintf("lines[%d]", i)
		if len(l) != n {
			return nil, fail(field, fmt.Sprint(l), fmt.Sprintf("has %d positions, the paytable has %d reels", len(l), n))
		}
		for j, r := range l {
			if r < 0 || r >= p.Rows {
				return nil, fail(fmt.Sprintf("%s[%d]", field, j), fmt.Sprint(r), fmt.Sprintf("row out of range 0..%d", p.Rows-1))
			}
		}
		key := fmt.Sprint(l)
		if prev, dup := seenLine[key]; dup {
			return nil, fail(field, key, fmt.Sprintf("same as lines[%d]", prev))
		}
		seenLine[key] = i
		p.Lines = append(p.Lines, append([]int(nil), l...))
	}

	// Line pays.
	p.payAt = make([][]int, len(p.Symbols))
	for i := range p.payAt {
		p.payAt[i] = make([]int, n+1)
	}
	for i, lp := range f.LinePays {
		field := fmt.Sprintf("line_pays[%d]", i)
		sym, err := symbolRef(name, field+".symbol", lp.Symbol, index)
		if err != nil {
			return nil, err
		}
		if p.Symbols[sym].Kind == Scatter {
			return nil, fail(field+".symbol", q(*lp.Symbol), "is a scatter; scatters pay in scatter_pays, never on a line")
		}
		if lp.Count == nil {
			return nil, fail(field+".count", "", "missing")
		}
		if *lp.Count < 1 || *lp.Count > n {
			return nil, fail(field+".count", fmt.Sprint(*lp.Count), fmt.Sprintf("must be 1 to %d (the number of reels)", n))
		}
		if lp.Pays == nil {
			return nil, fail(field+".pays", "", "missing")
		}
		if *lp.Pays < 1 || *lp.Pays > MaxPays {
			return nil, fail(field+".pays", fmt.Sprint(*lp.Pays), fmt.Sprintf("must be 1 to %d", MaxPays))
		}
		prog := 0
		if lp.Progressive != nil {
			prog = *lp.Progressive
			if prog < 1 || prog > MaxLevel {
				return nil, fail(field+".progressive", fmt.Sprint(prog), fmt.Sprintf("jackpot level must be 1 to %d", MaxLevel))
			}
		}
		if p.payAt[sym][*lp.Count] != 0 {
			return nil, fail(field, fmt.Sprintf("%s x%d", *lp.Symbol, *lp.Count), fmt.Sprintf("same combination as line_pays[%d]", p.payAt[sym][*lp.Count]-1))
		}
		p.LinePays = append(p.LinePays, Pay{Symbol: sym, Count: *lp.Count, Pays: *lp.Pays, Progressive: prog})
		p.payAt[sym][*lp.Count] = len(p.LinePays)
	}

	// Scatter pays.
	cells := n * p.Rows
	seenScatter := map[[2]int]int{}
	for i, sp := range f.ScatterPays {
		field := fmt.Sprintf("scatter_pays[%d]", i)
		sym, err := symbolRef(name, field+".symbol", sp.Symbol, index)
		if err != nil {
			return nil, err
		}
		if p.Symbols[sym].Kind != Scatter {
			return nil, fail(field+".symbol", q(*sp.Symbol), "is not a scatter symbol")
		}
		if sp.Count == nil {
			return nil, fail(field+".count", "", "missing")
		}
		if *sp.Count < 1 || *sp.Count > cells {
			return nil, fail(field+".count", fmt.Sprint(*sp.Count), fmt.Sprintf("must be 1 to %d (cells in the window)", cells))
		}
		if sp.Pays == nil {
			return nil, fail(field+".pays", "", "missing")
		}
		if *sp.Pays < 1 || *sp.Pays > MaxPays {
			return nil, fail(field+".pays", fmt.Sprint(*sp.Pays), fmt.Sprintf("must be 1 to %d", MaxPays))
		}
		key := [2]int{sym, *sp.Count}
		if prev, dup := seenScatter[key]; dup {
			return nil, fail(field, fmt.Sprintf("%s x%d", *sp.Symbol, *sp.Count), fmt.Sprintf("same combination as scatter_pays[%d]", prev))
		}
		seenScatter[key] = i
		p.ScatterPays = append(p.ScatterPays, Pay{Symbol: sym, Count: *sp.Count, Pays: *sp.Pays})
	}
	sort.Slice(p.ScatterPays, func(a, b int) bool {
		x, y := p.ScatterPays[a], p.ScatterPays[b]
		return x.Symbol < y.Symbol || x.Symbol == y.Symbol && x.Count < y.Count
	})

	// Free games.
	if fg := f.FreeGames; fg != nil {
		free := &FreeGames{}
		sym, err := symbolRef(name, "free_games.symbol", fg.Symbol, index)
		if err != nil {
			return nil, err
		}
		if p.Symbols[sym].Kind != Scatter {
			return nil, fail("free_games.symbol", q(*fg.Symbol), "the trigger must be a scatter symbol")
		}
		free.Symbol = sym
		if len(fg.Awards) == 0 {
			return nil, fail("free_games.awards", "", "missing or empty")
		}
		seen := map[int]int{}
		for i, a := range fg.Awards {
			field := fmt.Sprintf("free_games.awards[%d]", i)
			if a.Count == nil {
				return nil, fail(field+".count", "", "missing")
			}
			if *a.Count < 1 || *a.Count > cells {
				return nil, fail(field+".count", fmt.Sprint(*a.Count), fmt.Sprintf("must be 1 to %d (cells in the window)", cells))
			}
			if prev, dup := seen[*a.Count]; dup {
				return nil, fail(field+".count", fmt.Sprint(*a.Count), fmt.Sprintf("same count as free_games.awards[%d]", prev))
			}
			seen[*a.Count] = i
			if a.Games == nil {
				return nil, fail(field+".games", "", "missing")
			}
			if *a.Games < 1 || *a.Games > MaxGames {
				return nil, fail(field+".games", fmt.Sprint(*a.Games), fmt.Sprintf("must be 1 to %d", MaxGames))
			}
			free.Awards = append(free.Awards, Award{Count: *a.Count, Games: *a.Games})
		}
		sort.Slice(free.Awards, func(a, b int) bool { return free.Awards[a].Count < free.Awards[b].Count })
		if fg.Multiplier == nil {
			return nil, fail("free_games.multiplier", "", "missing")
		}
		if *fg.Multiplier < 1 || *fg.Multiplier > MaxMultiplier {
			return nil, fail("free_games.multiplier", fmt.Sprint(*fg.Multiplier), fmt.Sprintf("must be 1 to %d", MaxMultiplier))
		}
		free.Multiplier = *fg.Multiplier
		if fg.Retrigger == nil {
			return nil, fail("free_games.retrigger", "", "missing")
		}
		free.Retrigger = *fg.Retrigger
		if fg.Start != nil {
			switch *fg.Start {
			case "auto":
			case "press":
				free.Press = true
			default:
				return nil, fail("free_games.start", q(*fg.Start), `must be "auto" or "press"`)
			}
		}
		free.Reels = p.Reels
		if fg.Reels != nil {
			if free.Reels, err = parseStrips(name, "free_games.reels", fg.Reels, p.Rows, index); err != nil {
				return nil, err
			}
			if len(free.Reels) != n {
				return nil, fail("free_games.reels", fmt.Sprint(len(free.Reels)), fmt.Sprintf("has %d reels, the base game has %d", len(free.Reels), n))
			}
			free.OwnReels = true
		}
		p.Free = free
	}

	// Bet choices.
	if len(f.CreditsPerLine) == 0 {
		return nil, fail("credits_per_line", "", "missing or empty")
	}
	for i, c := range f.CreditsPerLine {
		field := fmt.Sprintf("credits_per_line[%d]", i)
		if c < 1 || c > MaxCreditsLine {
			return nil, fail(field, fmt.Sprint(c), fmt.Sprintf("must be 1 to %d", MaxCreditsLine))
		}
		if i > 0 && c <= f.CreditsPerLine[i-1] {
			return nil, fail(field, fmt.Sprint(c), fmt.Sprintf("bet choices must be ascending, previous is %d", f.CreditsPerLine[i-1]))
		}
	}
	p.CreditsPerLine = append([]int64(nil), f.CreditsPerLine...)

	// Every declared symbol must be on some strip: a symbol no spin can show is
	// a paytable entry the player is told about but can never get.
	used := make([]bool, len(p.Symbols))
	for _, set := range [][][]uint8{p.Reels, p.freeReels()} {
		for _, strip := range set {
			for _, s := range strip {
				used[s] = true
			}
		}
	}
	for i, u := range used {
		if !u {
			return nil, fail(fmt.Sprintf("symbols[%d]", i), q(p.Symbols[i].ID), "appears on no reel strip")
		}
	}
	return p, nil
}

func parseStrips(name, field string, strips [][]string, rows int, index map[string]int) ([][]uint8, error) {
	fail := func(f, value, rule string) error { return &Error{File: name, Field: f, Value: value, Rule: rule} }
	if len(strips) < 3 || len(strips) > maxReels {
		return nil, fail(field, fmt.Sprint(len(strips)), fmt.Sprintf("must have 3 to %d reels", maxReels))
	}
	out := make([][]uint8, len(strips))
	var cycleHi, cycle uint64 = 0, 1
	for i, strip := range strips {
		f := fmt.Sprintf("%s[%d]", field, i)
		if len(strip) == 0 {
			return nil, fail(f, "[]", "empty reel strip")
		}
		if len(strip) < rows {
			return nil, fail(f, fmt.Sprint(len(strip)), fmt.Sprintf("strip shorter than the %d visible rows", rows))
		}
		if len(strip) > MaxStripLength {
			return nil, fail(f, fmt.Sprint(len(strip)), fmt.Sprintf("strip longer than %d stops", MaxStripLength))
		}
		for j, id := range strip {
			sym, ok := index[id]
			if !ok {
				return nil, fail(fmt.Sprintf("%s[%d]", f, j), q(id), "unknown symbol")
			}
			out[i] = append(out[i], uint8(sym))
		}
		cycleHi, cycle = bits.Mul64(cycle, uint64(len(strip)))
		if cycleHi != 0 || cycle>>maxCycleBits != 0 {
			return nil, fail(field, "", fmt.Sprintf("the cycle (product of strip lengths) exceeds 2^%d combinations", maxCycleBits))
		}
	}
	tuples := uint64(1)
	for _, strip := range out {
		seen := map[uint8]bool{}
		for _, s := range strip {
			seen[s] = true
		}
		tuples *= uint64(len(seen))
	}
	if tuples > MaxTuples {
		return nil, fail(field, fmt.Sprint(tuples), fmt.Sprintf("the product of distinct symbols per reel exceeds %d, more than the exact calculator certifies", MaxTuples))
	}
	return out, nil
}

func symbolRef(name, field string, id *string, index map[string]int) (int, error) {
	if id == nil {
		return 0, &Error{File: name, Field: field, Rule: "missing"}
	}
	sym, ok := index[*id]
	if !ok {
		return 0, &Error{File: name, Field: field, Value: q(*id), Rule: "unknown symbol"}
	}
	return sym, nil
}

func checkNames(n Names) string {
	if n.PT == "" {
		return "pt"
	}
	if n.EN == "" {
		return "en"
	}
	return ""
}

func q(s string) string { return fmt.Sprintf("%q", s) }

// freeReels returns the strips of free games, nil without free games.
func (p *Paytable) freeReels() [][]uint8 {
	if p.Free == nil {
		return nil
	}
	return p.Free.Reels
}

// Cycle is the number of stop combinations of a strip set.
func cycleOf(strips [][]uint8) uint64 {
	c := uint64(1)
	for _, s := range strips {
		c *= uint64(len(s))
	}
	return c
}

// TopLevel is the index of the highest bet choice, the only one at which
// progressive combinations award their jackpot level.
func (p *Paytable) TopLevel() int { return len(p.CreditsPerLine) - 1 }

// Bet is the total bet in credits at a bet level.
func (p *Paytable) Bet(level int) int64 {
	return int64(len(p.Lines)) * p.CreditsPerLine[level]
}
