package reels

import (
	"encoding/json"
	"fmt"
	"math/big"
)

// The regulation's floor (Portaria 817/2005, Title III, rule 2) and the
// ceiling of spec/paytable.md, as exact fractions.
var (
	MinRTP = big.NewRat(80, 100)
	MaxRTP = big.NewRat(1, 1)
)

// Exact is a rational figure of the PAR sheet. It is shown as a fraction (the
// certified figure) and as a rounded decimal (for people).
type Exact struct{ *big.Rat }

// Percent renders the figure ×100 with the given decimals.
func (x Exact) Percent(decimals int) string {
	return new(big.Rat).Mul(x.Rat, big.NewRat(100, 1)).FloatString(decimals) + "%"
}

func (x Exact) MarshalJSON() ([]byte, error) {
	return json.Marshal(struct {
		Fraction string `json:"fraction"`
		Decimal  string `json:"decimal"`
	}{x.Rat.RatString(), x.Rat.FloatString(12)})
}

func exact(r *big.Rat) Exact { return Exact{new(big.Rat).Set(r)} }

// Band is the range the measured RTP stays in, with 90% probability, after
// Games games (normal approximation).
type Band struct {
	Games int64  `json:"games"`
	Low   string `json:"low"`
	High  string `json:"high"`
}

// Level is the part of the PAR sheet that depends on the bet level.
type Level struct {
	Level          int    `json:"level"`
	CreditsPerLine int64  `json:"credits_per_line"`
	Bet            int64  `json:"bet"`
	Top            bool   `json:"top"` // progressive combinations award their jackpot here
	RTP            Exact  `json:"rtp"`
	LineRTP        Exact  `json:"line_rtp"`
	ScatterRTP     Exact  `json:"scatter_rtp"`
	FreeRTP        Exact  `json:"free_games_rtp"`
	SpinVariance   Exact  `json:"spin_variance"` // of one base spin's win per unit bet
	GameVariance   Exact  `json:"game_variance"` // of a whole game (spin + its free games) per unit bet
	SpinSD         string `json:"spin_sd"`
	Volatility     string `json:"volatility"` // standard deviation of a game's win per unit bet
	Bands          []Band `json:"confidence_90"`
	MaxSpinWin     int64  `json:"max_spin_win"` // credits, one base spin
	MaxFreeWin     int64  `json:"max_free_game_win,omitempty"`
	Problem        string `json:"problem,omitempty"` // why this level breaks the RTP rule
}

// Combination is one row of the combination table.
type Combination struct {
	Kind        string `json:"kind"` // "line" or "scatter"
	Symbol      string `json:"symbol"`
	Count       int    `json:"count"`
	Pays        int64  `json:"pays"`
	Progressive int    `json:"progressive,omitempty"`
	// Hits is the number of stop combinations showing it: on one given line
	// for line combinations (every line has the same count), in the window for
	// scatters (count up to the next entry).
	Hits        uint64 `json:"hits"`
	Probability Exact  `json:"probability"`
	RTP         Exact  `json:"rtp"` // share of the RTP at the ordinary levels (all lines)
}

// Free describes the free-game feature.
type Free struct {
	Multiplier         int64         `json:"multiplier"`
	Retrigger          bool          `json:"retrigger"`
	OwnReels           bool          `json:"own_reels"`
	Cycle              uint64        `json:"cycle"`
	TriggerHits        uint64        `json:"trigger_hits"`
	TriggerProbability Exact         `json:"trigger_probability"`
	GamesPerTrigger    Exact         `json:"games_per_trigger"` // initial award, on average
	GamesPerFeature    Exact         `json:"games_per_feature"` // with retriggers
	RetriggerRate      Exact         `json:"retrigger_rate"`    // games awarded by one free game
	Combinations       []Combination `json:"combinations"`      // one free game, before the multiplier
}

// ParSheet is the certification document of a paytable.
type ParSheet struct {
	ID             string        `json:"id"`
	Version        int           `json:"version"`
	Title          Names         `json:"title"`
	Reels          int           `json:"reels"`
	Rows           int           `json:"rows"`
	Lines          int           `json:"lines"`
	StripLengths   []int         `json:"strip_lengths"`
	Cycle          uint64        `json:"cycle"`
	CreditsPerLine []int64       `json:"credits_per_line"`
	HitHits        uint64        `json:"hit_combinations"`
	HitFrequency   Exact         `json:"hit_frequency"`
	Levels         []Level       `json:"levels"`
	Combinations   []Combination `json:"combinations"`
	Free           *Free         `json:"free_games,omitempty"`
}

// RTPError is a paytable whose return breaks the 80%-100% rule at a bet level.
type RTPError struct {
	File, ID string
	Level    int
	CPL      int64
	RTP      *big.Rat
	Rule     string
}

func (e *RTPError) Error() string {
	return fmt.Sprintf("%s: paytable %s at bet level %d (%d credits per line): base RTP %s %s",
		e.File, e.ID, e.Level+1, e.CPL, Exact{e.RTP}.Percent(4), e.Rule)
}

// levelRTP is the exact return at each level from per-reel counting alone: a
// few milliseconds, what the cabinet recomputes at every load.
func (p *Paytable) levelRTP() ([]rtpParts, error) {
	base := p.countSet(p.Reels)
	free := base
	if p.Free != nil && p.Free.OwnReels {
		free = p.countSet(p.Free.Reels)
	}
	var nominal, top rtpParts
	var ok bool
	if nominal, ok = p.rtp(base, free, false); !ok {
		return nil, &Error{File: p.File, Field: "free_games", Value: Exact{nominal.retrigger}.Percent(4),
			Rule: "free games retrigger on average at least one game per free game (1 − r ≤ 0): the expected return is infinite"}
	}
	top, _ = p.rtp(base, free, true)
	out := make([]rtpParts, len(p.CreditsPerLine))
	for i := range out {
		out[i] = nominal
		if i == p.TopLevel() {
			out[i] = top
		}
	}
	return out, nil
}

// RTP returns the exact base RTP at every bet level (progressive awards
// excluded at the top level).
func (p *Paytable) RTP() ([]*big.Rat, error) {
	parts, err := p.levelRTP()
	if err != nil {
		return nil, err
	}
	out := make([]*big.Rat, len(parts))
	for i, x := range parts {
		out[i] = x.total
	}
	return out, nil
}

// CheckRTP enforces the RTP rule at every bet level and says which level and
// figure break it.
func (p *Paytable) CheckRTP() error {
	rtps, err := p.RTP()
	if err != nil {
		return err
	}
	for i, r := range rtps {
		if err := p.rtpRule(i, r); err != nil {
			return err
		}
	}
	return nil
}

func (p *Paytable) rtpRule(level int, r *big.Rat) error {
	e := &RTPError{File: p.File, ID: p.ID, Level: level, CPL: p.CreditsPerLine[level], RTP: r}
	switch {
	case r.Cmp(MinRTP) < 0:
		e.Rule = "is below the 80% minimum (Portaria 817/2005, rule 2)"
	case r.Cmp(MaxRTP) > 0:
		e.Rule = "is above 100%"
	default:
		return nil
	}
	return e
}

// Par computes the full PAR sheet: per-reel counting for the RTP and the
// combination table, and one enumeration of every stop combination (two with
// free-game strips of their own) for hit frequency, variance and the largest
// win. The enumeration's mean must equal the counted RTP exactly; a mismatch
// is reported as an error because it would mean the calculator is wrong.
// workers ≤ 0 uses every core.
func (p *Paytable) Par(workers int) (*ParSheet, error) {
	parts, err := p.levelRTP()
	if err != nil {
		return nil, err
	}
	base := p.countSet(p.Reels)
	jb := p.enumerate(p.Reels, workers)
	jf := jb
	var free *setCounts = base
	if p.Free != nil && p.Free.OwnReels {
		free = p.countSet(p.Free.Reels)
		jf = p.enumerate(p.Free.Reels, workers)
	}

	N := int64(len(p.Lines))
	ps := &ParSheet{
		ID: p.ID, Version: p.Version, Title: p.Title,
		Reels: len(p.Reels), Rows: p.Rows, Lines: len(p.Lines),
		Cycle: base.cycle, CreditsPerLine: p.CreditsPerLine,
		HitHits:      jb.hits,
		HitFrequency: Exact{ratio(new(big.Int).SetUint64(jb.hits), base.cycle)},
	}
	for _, s := range p.Reels {
		ps.StripLengths = append(ps.StripLengths, len(s))
	}
	ps.Combinations = p.combinations(base)

	for lv := range p.CreditsPerLine {
		v := 0
		if lv == p.TopLevel() {
			v = 1
		}
		m := p.moments(jb, jf, v)
		if m.mean.Cmp(parts[lv].total) != 0 {
			return nil, fmt.Errorf("%s: internal error: enumerated RTP %s differs from counted RTP %s at level %d",
				p.File, m.mean.RatString(), parts[lv].total.RatString(), lv+1)
		}
		cpl := p.CreditsPerLine[lv]
		l := Level{
			Level: lv, CreditsPerLine: cpl, Bet: N * cpl, Top: lv == p.TopLevel(),
			RTP: exact(parts[lv].total), LineRTP: exact(parts[lv].line), ScatterRTP: exact(parts[lv].scatter),
			FreeRTP:      exact(parts[lv].free),
			SpinVariance: exact(m.spinVar), GameVariance: exact(m.gameVar),
			SpinSD: sqrtString(m.spinVar), Volatility: sqrtString(m.gameVar),
			MaxSpinWin: int64(jb.maxW[v]) * cpl,
		}
		if p.Free != nil {
			l.MaxFreeWin = int64(jf.maxW[v]) * cpl * p.Free.Multiplier
		}
		for n := int64(1000); n <= 100_000_000; n *= 10 {
			l.Bands = append(l.Bands, band(parts[lv].total, m.gameVar, n))
		}
		if err := p.rtpRule(lv, parts[lv].total); err != nil {
			l.Problem = err.(*RTPError).Rule
		}
		ps.Levels = append(ps.Levels, l)
	}

	if p.Free != nil {
		f := &Free{Multiplier: p.Free.Multiplier, Retrigger: p.Free.Retrigger, OwnReels: p.Free.OwnReels, Cycle: free.cycle}
		for c, n := range base.scatter[p.Free.Symbol] {
			if p.Free.gamesFor(c) > 0 {
				f.TriggerHits += n
			}
		}
		trig := ratio(new(big.Int).SetUint64(f.TriggerHits), base.cycle)
		f.TriggerProbability = Exact{trig}
		f.RetriggerRate = exact(parts[0].retrigger)
		if trig.Sign() > 0 {
			per := new(big.Rat).Quo(parts[0].games, trig)
			f.GamesPerTrigger = Exact{per}
			f.GamesPerFeature = Exact{new(big.Rat).Quo(per, new(big.Rat).Sub(one, parts[0].retrigger))}
		} else {
			f.GamesPerTrigger, f.GamesPerFeature = Exact{new(big.Rat)}, Exact{new(big.Rat)}
		}
		f.Combinations = p.combinations(free)
		ps.Free = f
	}
	return ps, nil
}

// Check is the 80% rule applied to a computed PAR sheet.
func (ps *ParSheet) Check(p *Paytable) error {
	for _, l := range ps.Levels {
		if err := p.rtpRule(l.Level, l.RTP.Rat); err != nil {
			return err
		}
	}
	return nil
}

// combinations is the combination table of one strip set, at the ordinary
// bet levels, per spin (before any free-game multiplier).
func (p *Paytable) combinations(sc *setCounts) []Combination {
	var out []Combination
	for i, lp := range p.LinePays {
		hits := sc.lineHits[i]
		prob := ratio(new(big.Int).SetUint64(hits), sc.cycle)
		// Every line pays pays×cpl with this probability, on a bet of lines×cpl.
		rtp := new(big.Rat).Mul(prob, big.NewRat(lp.Pays, 1))
		out = append(out, Combination{Kind: "line", Symbol: p.Symbols[lp.Symbol].ID, Count: lp.Count, Pays: lp.Pays,
			Progressive: lp.Progressive, Hits: hits, Probability: Exact{prob}, RTP: Exact{rtp}})
	}
	for i, sp := range p.ScatterPays {
		var hits uint64
		for c, n := range sc.scatter[sp.Symbol] {
			if _, e := p.scatterPay(sp.Symbol, c); e == i {
				hits += n
			}
		}
		prob := ratio(new(big.Int).SetUint64(hits), sc.cycle)
		out = append(out, Combination{Kind: "scatter", Symbol: p.Symbols[sp.Symbol].ID, Count: sp.Count, Pays: sp.Pays,
			Hits: hits, Probability: Exact{prob}, RTP: Exact{new(big.Rat).Mul(prob, big.NewRat(sp.Pays, 1))}})
	}
	return out
}

type moments struct {
	mean, spinVar, gameVar *big.Rat
}

// moments applies the branching formulas of spec/paytable.md ("Volatility")
// to the enumerated sums, per unit of total bet.
func (p *Paytable) moments(jb, jf *jointStats, v int) moments {
	N := big.NewInt(int64(len(p.Lines)))
	N2 := new(big.Int).Mul(N, N)
	per := func(sum u128, cycle uint64, scale *big.Int) *big.Rat {
		den := new(big.Int).SetUint64(cycle)
		if scale != nil {
			den.Mul(den, scale)
		}
		return new(big.Rat).SetFrac(sum.big(), den)
	}
	mul := func(a ...*big.Rat) *big.Rat {
		r := new(big.Rat).Set(a[0])
		for _, x := range a[1:] {
			r.Mul(r, x)
		}
		return r
	}
	add := func(a ...*big.Rat) *big.Rat {
		r := new(big.Rat)
		for _, x := range a {
			r.Add(r, x)
		}
		return r
	}
	two := big.NewRat(2, 1)

	EB := per(jb.sumW[v], jb.cycle, N)
	EB2 := per(jb.sumW2[v], jb.cycle, N2)
	m := moments{spinVar: new(big.Rat).Sub(EB2, mul(EB, EB))}
	if p.Free == nil {
		m.mean, m.gameVar = EB, m.spinVar
		return m
	}
	ET := per(jb.sumT, jb.cycle, nil)
	ETT := per(jb.sumTT, jb.cycle, nil)
	EBT := per(jb.sumWT[v], jb.cycle, N)

	k := new(big.Rat).SetInt64(p.Free.Multiplier)
	EW := mul(per(jf.sumW[v], jf.cycle, N), k)
	EW2 := mul(per(jf.sumW2[v], jf.cycle, N2), k, k)
	r, EWG, EGG := new(big.Rat), new(big.Rat), new(big.Rat)
	if p.Free.Retrigger {
		r = per(jf.sumT, jf.cycle, nil)
		EWG = mul(per(jf.sumWT[v], jf.cycle, N), k)
		EGG = per(jf.sumTT, jf.cycle, nil)
	}
	den := new(big.Rat).Sub(one, r)
	Es := new(big.Rat).Quo(EW, den)
	Es2 := new(big.Rat).Quo(add(EW2, mul(two, EWG, Es), mul(EGG, Es, Es)), den)
	EX := add(EB, mul(ET, Es))
	EX2 := add(EB2, mul(two, EBT, Es), mul(ET, Es2), mul(ETT, Es, Es))
	m.mean = EX
	m.gameVar = new(big.Rat).Sub(EX2, mul(EX, EX))
	return m
}

// sqrtString is a standard deviation for people: the certified figure is the
// exact variance beside it.
func sqrtString(v *big.Rat) string {
	return new(big.Float).SetPrec(128).Sqrt(new(big.Float).SetPrec(128).SetRat(v)).Text('f', 4)
}

// z90 is the two-sided 90% quantile of the normal distribution.
var z90 = big.NewFloat(1.6448536269514722)

func band(rtp, variance *big.Rat, games int64) Band {
	sd := new(big.Float).SetPrec(128).Sqrt(new(big.Float).SetPrec(128).SetRat(variance))
	half := new(big.Float).SetPrec(128).Quo(sd, new(big.Float).SetPrec(128).Sqrt(new(big.Float).SetInt64(games)))
	half.Mul(half, z90)
	mid := new(big.Float).SetPrec(128).SetRat(rtp)
	lo := new(big.Float).SetPrec(128).Sub(mid, half)
	hi := new(big.Float).SetPrec(128).Add(mid, half)
	hundred := big.NewFloat(100)
	return Band{Games: games, Low: lo.Mul(lo, hundred).Text('f', 2) + "%", High: hi.Mul(hi, hundred).Text('f', 2) + "%"}
}
