package baccarat

import (
	"fmt"
	"math"
	"math/big"
	"runtime"
	"sync"
	"sync/atomic"

	"github.com/openegm/cabinet/rng"
)

// simChunk is the unit of work of a simulation: each chunk of hands has its
// own seeded RNG stream, so a run gives the same result on any number of
// cores.
const simChunk = 1 << 14

// SimResult is what a simulation measured. Counts are exact integers; the
// intervals built from them are statistical estimates, not certified
// figures.
type SimResult struct {
	Hands int64
	Seed  uint64
	Unit  int64 // the stake on every spot of every hand, cents
	// Counts are hands by winner−1, winning points, player pair, banker pair.
	Counts [3][10][2][2]int64
	// Paid is, per spot, how many hands paid each amount (cents) back on
	// the unit stake: a handful of amounts, so the sums below are exact.
	Paid [NumSpots]map[int64]int64
}

// Simulate deals hands with the certified RNG in seeded mode, with the
// game's own Deal, Evaluate and Settle, one bet unit on every spot of every
// hand. workers ≤ 0 uses every core.
func (d *Definition) Simulate(hands int64, seed uint64, workers int) (*SimResult, error) {
	if hands < 2 {
		return nil, fmt.Errorf("simulate: need at least 2 hands, got %d", hands)
	}
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	// Chunk seeds come from the run's own seeded stream, in chunk order,
	// before any worker starts: which core plays a chunk cannot change it.
	chunks := (hands + simChunk - 1) / simChunk
	seeds := make([]uint64, chunks)
	master := rng.NewSeeded(seed)
	for i := range seeds {
		seeds[i] = master.Uint64()
	}
	var bets Bets
	for s := range bets {
		bets[s] = d.BetUnit
	}
	results := make([]*SimResult, workers)
	errs := make([]error, workers)
	var next atomic.Int64
	var wg sync.WaitGroup
	for w := range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			r := newSimResult()
			results[w] = r
			shoe, err := d.NewShoe()
			if err != nil {
				errs[w] = err
				return
			}
			for {
				c := next.Add(1) - 1
				if c >= chunks {
					return
				}
				src := rng.NewSeeded(seeds[c])
				for range min(simChunk, hands-c*simChunk) {
					dealt, err := d.Alternative.Deal(shoe, src)
					if err != nil {
						errs[w] = err
						return
					}
					o, err := d.Alternative.Evaluate(dealt)
					if err != nil {
						errs[w] = fmt.Errorf("the game refused a hand it dealt (%v): %w", dealt, err)
						return
					}
					st, err := d.Settle(o.Decision, bets)
					if err != nil {
						errs[w] = err
						return
					}
					r.Counts[o.Winner-1][o.Points][b2i(o.PlayerPair)][b2i(o.BankerPair)]++
					for s, p := range st.Spots {
						r.Paid[s][p.Paid]++
					}
				}
			}
		}()
	}
	wg.Wait()
	total := newSimResult()
	total.Hands, total.Seed, total.Unit = hands, seed, d.BetUnit
	for w, r := range results {
		if errs[w] != nil {
			return nil, errs[w]
		}
		for i := range r.Counts {
			for j := range r.Counts[i] {
				for p := range 2 {
					for b := range 2 {
						total.Counts[i][j][p][b] += r.Counts[i][j][p][b]
					}
				}
			}
		}
		for s := range r.Paid {
			for v, n := range r.Paid[s] {
				total.Paid[s][v] += n
			}
		}
	}
	return total, nil
}

func newSimResult() *SimResult {
	r := &SimResult{}
	for s := range r.Paid {
		r.Paid[s] = map[int64]int64{}
	}
	return r
}

// SimFigure is one exact figure beside what the simulation measured.
type SimFigure struct {
	Name     string   `json:"name"`
	Exact    *big.Rat `json:"-"`
	Measured float64  `json:"measured"`
	Low      float64  `json:"low"`
	High     float64  `json:"high"`
	Inside   bool     `json:"inside"`
}

// FamilyConfidence is the confidence that every interval of a comparison
// holds at once: each figure's interval is widened (Bonferroni) so that a
// correct table fails a run of forty-odd figures once in a thousand runs,
// not once in twenty-five.
const FamilyConfidence = 0.999

// Compare puts every exact figure (each end of a hand, by winning total, the
// pairs, each bet's RTP) beside the simulation's measure and its interval.
// It returns the figures and the normal quantile used for each interval.
func (r *SimResult) Compare(f *Figures) ([]SimFigure, float64) {
	type probe struct {
		name  string
		exact *big.Rat
		hits  func(w, pts, p, b int) bool
	}
	var probes []probe
	winName := [3]string{"player wins", "banker wins", "tie"}
	for w := range 3 {
		probes = append(probes, probe{winName[w], f.Win[w].Rat, func(x, _, _, _ int) bool { return x == w }})
	}
	for w := range 3 {
		for pts := range 10 {
			name := fmt.Sprintf("%s with %d", winName[w], pts)
			if w == 2 {
				name = fmt.Sprintf("tie at %d", pts)
			}
			probes = append(probes, probe{name, f.ByPoints[w][pts].Rat, func(x, y, _, _ int) bool { return x == w && y == pts }})
		}
	}
	probes = append(probes,
		probe{"player pair", f.PlayerPair.Rat, func(_, _, p, _ int) bool { return p == 1 }},
		probe{"banker pair", f.BankerPair.Rat, func(_, _, _, b int) bool { return b == 1 }},
		probe{"both pairs", f.BothPairs.Rat, func(_, _, p, b int) bool { return p == 1 && b == 1 }})

	k := len(probes) + int(NumSpots)
	z := math.Sqrt2 * math.Erfinv(1-(1-FamilyConfidence)/float64(k))
	n := float64(r.Hands)
	var out []SimFigure
	for _, pr := range probes {
		var hits int64
		for w := range 3 {
			for pts := range 10 {
				for p := range 2 {
					for b := range 2 {
						if pr.hits(w, pts, p, b) {
							hits += r.Counts[w][pts][p][b]
						}
					}
				}
			}
		}
		lo, hi := wilson(float64(hits), n, z)
		out = append(out, figure(pr.name, pr.exact, float64(hits)/n, lo, hi))
	}
	u := float64(r.Unit)
	for s := range NumSpots {
		// Mean and variance of the amount paid back per unit staked.
		var sum, sq float64
		for v, c := range r.Paid[s] {
			x := float64(v) / u
			sum += x * float64(c)
			sq += x * x * float64(c)
		}
		mean := sum / n
		variance := (sq/n - mean*mean) * n / (n - 1)
		half := z * math.Sqrt(math.Max(variance, 0)/n)
		out = append(out, figure("RTP "+Spot(s).String(), f.Bets[s].RTP.Rat, mean, mean-half, mean+half))
	}
	return out, z
}

func figure(name string, exact *big.Rat, measured, lo, hi float64) SimFigure {
	e, _ := exact.Float64()
	return SimFigure{Name: name, Exact: exact, Measured: measured, Low: lo, High: hi, Inside: e >= lo && e <= hi}
}

// wilson is the Wilson score interval of a proportion: unlike the plain
// normal interval it is sensible for proportions near or at 0.
func wilson(hits, n, z float64) (lo, hi float64) {
	p := hits / n
	z2 := z * z
	centre := (p + z2/(2*n)) / (1 + z2/n)
	half := z / (1 + z2/n) * math.Sqrt(p*(1-p)/n+z2/(4*n*n))
	return math.Max(0, centre-half), math.Min(1, centre+half)
}
