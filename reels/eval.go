package reels

import "fmt"

// combo identifies what a line paid: the LinePays entry index, or -1.
// Only the longest combination on a line pays, so one line has at most one.

// linePay is THE definition of how one line pays (spec/paytable.md, "Line
// pays"). syms are the symbols of the line, left to right. It returns the
// LinePays index of the paying combination, or -1 when the line pays
// nothing. The game, the exact calculator (through lineTable) and the
// simulator all pay lines through this function.
func (p *Paytable) linePay(syms []uint8) int {
	n := len(syms)
	k := 0
	for k < n && int(syms[k]) == p.Wild {
		k++
	}
	wildPay := p.payIndex(p.Wild, k)
	if k == n || p.Symbols[syms[k]].Kind != Normal {
		return wildPay
	}
	s := syms[k]
	m := k + 1
	for m < n && (syms[m] == s || int(syms[m]) == p.Wild) {
		m++
	}
	symPay := p.payIndex(int(s), m)
	switch {
	case symPay < 0:
		return wildPay
	case wildPay < 0:
		return symPay
	case p.LinePays[wildPay].Pays > p.LinePays[symPay].Pays:
		return wildPay
	}
	// Equal pays go to the substituted combination: the player is paid the
	// same either way, and the longer combination is the one shown.
	return symPay
}

// payIndex is pay(X, c) as an index into LinePays, -1 for none.
func (p *Paytable) payIndex(sym, count int) int {
	if sym < 0 || count == 0 {
		return -1
	}
	return p.payAt[sym][count] - 1
}

// scatterPay is the pay multiple of the total bet for c scatters of sym: the
// entry with the largest count not above c.
func (p *Paytable) scatterPay(sym, c int) (pays int64, entry int) {
	entry = -1
	for i, sp := range p.ScatterPays {
		if sp.Symbol == sym && sp.Count <= c {
			pays, entry = sp.Pays, i
		}
	}
	return pays, entry
}

// gamesFor is the free games awarded for c trigger symbols.
func (f *FreeGames) gamesFor(c int) int {
	games := 0
	for _, a := range f.Awards {
		if a.Count <= c {
			games = a.Games
		}
	}
	return games
}

// LineWin is one paying line of a spin.
type LineWin struct {
	Line        int   // index into Paytable.Lines
	Pay         int   // index into Paytable.LinePays
	Symbol      int   // the paying symbol (the wild for a wild-only combination)
	Count       int   // how many reels the combination covers
	Credits     int64 // credits won, multiplier included; 0 when Progressive is set
	Progressive int   // jackpot level awarded instead of credits, 0 for none
}

// ScatterWin is one paying scatter symbol of a spin.
type ScatterWin struct {
	Symbol  int
	Count   int   // scatters shown
	Pay     int   // index into Paytable.ScatterPays
	Credits int64 // multiplier included
}

// Spin is the evaluated outcome of one set of stops. Everything in it follows
// from the stops, so a recalled game is re-evaluated and must match its record.
type Spin struct {
	Stops       []int
	Free        bool // played on the free-game strips with the multiplier
	Level       int  // bet level (index into CreditsPerLine)
	Lines       []LineWin
	Scatters    []ScatterWin
	FreeAwarded int   // free games this spin awards
	Win         int64 // total credits won by this spin
}

// Progressives lists the jackpot levels the spin hit, one per paying line.
func (s *Spin) Progressives() []int {
	var lv []int
	for _, l := range s.Lines {
		if l.Progressive > 0 {
			lv = append(lv, l.Progressive)
		}
	}
	return lv
}

func (s *Spin) progressiveCount() int64 {
	n := int64(0)
	for _, l := range s.Lines {
		if l.Progressive > 0 {
			n++
		}
	}
	return n
}

// strips is the strip set a spin uses.
func (p *Paytable) strips(free bool) [][]uint8 {
	if free {
		return p.Free.Reels
	}
	return p.Reels
}

// Window returns the symbols shown, window[reel][row].
func (p *Paytable) Window(stops []int, free bool) [][]uint8 {
	set := p.strips(free)
	w := make([][]uint8, len(set))
	for i, strip := range set {
		w[i] = make([]uint8, p.Rows)
		for r := range p.Rows {
			w[i][r] = strip[(stops[i]+r)%len(strip)]
		}
	}
	return w
}

// CheckStops says whether stops are a valid outcome for the strip set; a
// recalled or resumed game is checked before it is evaluated.
func (p *Paytable) CheckStops(stops []int, free bool) error {
	set := p.strips(free)
	if len(stops) != len(set) {
		return fmt.Errorf("paytable %s: %d stops for %d reels", p.ID, len(stops), len(set))
	}
	for i, s := range stops {
		if s < 0 || s >= len(set[i]) {
			return fmt.Errorf("paytable %s: stop %d of reel %d outside 0..%d", p.ID, s, i, len(set[i])-1)
		}
	}
	return nil
}

// Evaluate pays one spin (base or free) at a bet level. It is the only way the
// game, the simulator and the brute-force checks turn stops into a win.
func (p *Paytable) Evaluate(stops []int, level int, free bool) (*Spin, error) {
	if level < 0 || level >= len(p.CreditsPerLine) {
		return nil, fmt.Errorf("paytable %s: bet level %d outside 0..%d", p.ID, level, len(p.CreditsPerLine)-1)
	}
	if free && p.Free == nil {
		return nil, fmt.Errorf("paytable %s: no free games", p.ID)
	}
	if err := p.CheckStops(stops, free); err != nil {
		return nil, err
	}
	sp := &Spin{}
	p.evaluate(stops, level, free, sp)
	return sp, nil
}

// evaluate fills sp, reusing its slices, for stops already checked; the
// brute-force checks call it millions of times. The simulator pays through
// fast.go's compiled form of the same rules, proven equal to this.
func (p *Paytable) evaluate(stops []int, level int, free bool, sp *Spin) {
	set := p.strips(free)
	cpl := p.CreditsPerLine[level]
	mult := int64(1)
	if free {
		mult = p.Free.Multiplier
	}
	top := level == p.TopLevel()
	sp.Stops = append(sp.Stops[:0], stops...)
	sp.Free, sp.Level = free, level
	sp.Lines, sp.Scatters, sp.FreeAwarded, sp.Win = sp.Lines[:0], sp.Scatters[:0], 0, 0

	var syms [6]uint8
	line := syms[:len(set)]
	for li, rows := range p.Lines {
		for i, r := range rows {
			strip := set[i]
			line[i] = strip[(stops[i]+r)%len(strip)]
		}
		pi := p.linePay(line)
		if pi < 0 {
			continue
		}
		lp := p.LinePays[pi]
		lw := LineWin{Line: li, Pay: pi, Symbol: lp.Symbol, Count: lp.Count}
		if top && lp.Progressive > 0 {
			lw.Progressive = lp.Progressive
		} else {
			lw.Credits = lp.Pays * cpl * mult
		}
		sp.Lines = append(sp.Lines, lw)
		sp.Win += lw.Credits
	}

	var counts [MaxSymbols]int
	for i, strip := range set {
		for r := range p.Rows {
			counts[strip[(stops[i]+r)%len(strip)]]++
		}
	}
	bet := p.Bet(level)
	for sym, c := range counts[:len(p.Symbols)] {
		if c == 0 || p.Symbols[sym].Kind != Scatter {
			continue
		}
		if pays, entry := p.scatterPay(sym, c); entry >= 0 {
			sw := ScatterWin{Symbol: sym, Count: c, Pay: entry, Credits: pays * bet * mult}
			sp.Scatters = append(sp.Scatters, sw)
			sp.Win += sw.Credits
		}
	}
	if p.Free != nil && (!free || p.Free.Retrigger) {
		sp.FreeAwarded = p.Free.gamesFor(counts[p.Free.Symbol])
	}
}
