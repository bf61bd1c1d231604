package reels

import (
	"math/big"
)

// setCounts is what per-reel counting gives for one strip set (base or free
// games): the exact line-combination and scatter-count distributions, from
// the symbol counts of each strip, without visiting stop combinations.
type setCounts struct {
	cycle uint64
	// lineHits[i] is the number of stop combinations in which one given line
	// shows LinePays[i]. Every line has the same distribution: the symbol at
	// any row of a reel is distributed as the strip's symbol counts.
	lineHits []uint64
	// scatter[sym][c] is the number of stop combinations showing c cells of
	// the scatter symbol sym (nil for other symbols).
	scatter [][]uint64
}

// countSet computes setCounts by walking symbol tuples, one distinct symbol
// per reel, weighted by how often each reel carries it: the cost is the
// product of distinct symbols per reel, not the product of strip lengths.
func (p *Paytable) countSet(strips [][]uint8) *setCounts {
	n := len(strips)
	sc := &setCounts{cycle: cycleOf(strips), lineHits: make([]uint64, len(p.LinePays))}

	type entry struct {
		sym   uint8
		count uint64
	}
	alpha := make([][]entry, n)
	for i, strip := range strips {
		cnt := make([]uint64, len(p.Symbols))
		for _, s := range strip {
			cnt[s]++
		}
		for s, c := range cnt {
			if c > 0 {
				alpha[i] = append(alpha[i], entry{uint8(s), c})
			}
		}
	}
	syms := make([]uint8, n)
	var walk func(i int, weight uint64)
	walk = func(i int, weight uint64) {
		if i == n {
			if pi := p.linePay(syms); pi >= 0 {
				sc.lineHits[pi] += weight
			}
			return
		}
		for _, e := range alpha[i] {
			syms[i] = e.sym
			walk(i+1, weight*e.count)
		}
	}
	walk(0, 1)

	sc.scatter = make([][]uint64, len(p.Symbols))
	for sym, s := range p.Symbols {
		if s.Kind == Scatter {
			sc.scatter[sym] = p.scatterDistribution(strips, uint8(sym))
		}
	}
	return sc
}

// scatterDistribution convolves, reel by reel, how many cells of sym each
// stop shows: dist[c] = stop combinations showing c of sym in the window.
func (p *Paytable) scatterDistribution(strips [][]uint8, sym uint8) []uint64 {
	dist := []uint64{1}
	for _, strip := range strips {
		per := make([]uint64, p.Rows+1)
		for s := range strip {
			c := 0
			for r := range p.Rows {
				if strip[(s+r)%len(strip)] == sym {
					c++
				}
			}
			per[c]++
		}
		next := make([]uint64, len(dist)+p.Rows)
		for a, x := range dist {
			for b, y := range per {
				next[a+b] += x * y
			}
		}
		dist = next
	}
	return dist
}

// lineUnits is Σ pays × hits over the line combinations, i.e. the expected
// line pay of one line times the cycle. top leaves out the progressive
// combinations, which award a jackpot level instead at the top bet level.
func (p *Paytable) lineUnits(sc *setCounts, top bool) *big.Int {
	sum := new(big.Int)
	for i, lp := range p.LinePays {
		if top && lp.Progressive > 0 {
			continue
		}
		sum.Add(sum, new(big.Int).Mul(big.NewInt(lp.Pays), new(big.Int).SetUint64(sc.lineHits[i])))
	}
	return sum
}

// scatterUnits is Σ over scatter counts of pays × combinations: the expected
// scatter pay, in multiples of the total bet, times the cycle.
func (p *Paytable) scatterUnits(sc *setCounts) *big.Int {
	sum := new(big.Int)
	for sym, dist := range sc.scatter {
		for c, n := range dist {
			if pays, e := p.scatterPay(sym, c); e >= 0 {
				sum.Add(sum, new(big.Int).Mul(big.NewInt(pays), new(big.Int).SetUint64(n)))
			}
		}
	}
	return sum
}

// gamesUnits is Σ games(c) × combinations: the expected free games awarded
// by one spin on this strip set, times the cycle.
func (p *Paytable) gamesUnits(sc *setCounts) *big.Int {
	sum := new(big.Int)
	if p.Free == nil {
		return sum
	}
	for c, n := range sc.scatter[p.Free.Symbol] {
		if g := p.Free.gamesFor(c); g > 0 {
			sum.Add(sum, new(big.Int).Mul(big.NewInt(int64(g)), new(big.Int).SetUint64(n)))
		}
	}
	return sum
}

func ratio(num *big.Int, den uint64) *big.Rat {
	return new(big.Rat).SetFrac(num, new(big.Int).SetUint64(den))
}

// rtpParts is the exact return at one bet level, split by where it comes from.
type rtpParts struct {
	line, scatter *big.Rat // base spin, per unit bet
	freeSpin      *big.Rat // expected win of one free game per unit bet, multiplier included
	games         *big.Rat // E[T]: free games awarded by a base spin
	retrigger     *big.Rat // r: free games awarded by one free game (0 without retrigger)
	free          *big.Rat // E[T]·E[W]/(1−r): the free-game share of the RTP
	total         *big.Rat
}

var one = big.NewRat(1, 1)

// rtp computes the exact base RTP at a bet level from per-reel counts. It
// returns ok=false when free games retrigger at least once per free game on
// average (1 − r ≤ 0), which makes the feature's expectation infinite.
func (p *Paytable) rtp(base, free *setCounts, top bool) (parts rtpParts, ok bool) {
	parts.line = ratio(p.lineUnits(base, top), base.cycle)
	parts.scatter = ratio(p.scatterUnits(base), base.cycle)
	parts.freeSpin, parts.games, parts.retrigger, parts.free = new(big.Rat), new(big.Rat), new(big.Rat), new(big.Rat)
	parts.total = new(big.Rat).Add(parts.line, parts.scatter)
	if p.Free == nil {
		return parts, true
	}
	parts.games = ratio(p.gamesUnits(base), base.cycle)
	fs := new(big.Rat).Add(ratio(p.lineUnits(free, top), free.cycle), ratio(p.scatterUnits(free), free.cycle))
	parts.freeSpin = fs.Mul(fs, new(big.Rat).SetInt64(p.Free.Multiplier))
	if p.Free.Retrigger {
		parts.retrigger = ratio(p.gamesUnits(free), free.cycle)
	}
	den := new(big.Rat).Sub(one, parts.retrigger)
	if den.Sign() <= 0 {
		return parts, false
	}
	parts.free.Mul(parts.games, parts.freeSpin)
	parts.free.Quo(parts.free, den)
	parts.total.Add(parts.total, parts.free)
	return parts, true
}
