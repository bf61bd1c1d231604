package reels

import (
	"encoding/binary"
	"fmt"
	"math"
	"math/big"
	"runtime"
	"sync"
	"sync/atomic"

	"github.com/openegm/cabinet/rng"
	"golang.org/x/crypto/blake2b"
)

// DrawStops draws one stop per reel, uniformly and independently, into stops
// (spec/paytable.md, "Outcome"). The bounded draw is the RNG's rejection
// method, never a modulo.
func (p *Paytable) DrawStops(src rng.Source, free bool, stops []int) []int {
	set := p.strips(free)
	stops = stops[:0]
	for _, strip := range set {
		stops = append(stops, int(src.Uint64n(uint64(len(strip)))))
	}
	return stops
}

// SimResult is what a Monte-Carlo run measured. Sums are exact integers; the
// interval is a statistical estimate, not a certified figure.
type SimResult struct {
	Games        int64
	Level        int
	Bet          int64 // per game, credits
	Won          int64 // credits over all games, base and free, progressives excluded
	SumSquares   *big.Int
	Hits         int64 // base spins that paid or awarded free games
	Triggers     int64 // base spins that awarded free games
	FreeGames    int64 // free games played
	Progressives int64 // progressive awards (top bet level only)
	MaxGameWin   int64
	Seed         uint64
}

// RTP is the measured return as a float for display.
func (r *SimResult) RTP() float64 {
	return float64(r.Won) / float64(r.Games) / float64(r.Bet)
}

// Interval is the two-sided confidence interval of the RTP for the normal
// quantile z (3.2905 for 99.9%), from the sample variance of game wins.
func (r *SimResult) Interval(z float64) (lo, hi float64) {
	n := float64(r.Games)
	mean := float64(r.Won) / n
	sq, _ := new(big.Float).SetInt(r.SumSquares).Float64()
	variance := (sq/n - mean*mean) * n / (n - 1)
	half := z * math.Sqrt(variance/n) / float64(r.Bet)
	return r.RTP() - half, r.RTP() + half
}

// simChunk is the unit of work: each chunk has its own RNG stream derived
// from (seed, chunk), so a run gives the same result on any number of cores.
const simChunk = 1 << 14

func chunkSeed(seed uint64, chunk int64) uint64 {
	var in [16]byte
	binary.LittleEndian.PutUint64(in[:8], seed)
	binary.LittleEndian.PutUint64(in[8:], uint64(chunk))
	h := blake2b.Sum256(in[:])
	return binary.LittleEndian.Uint64(h[:8])
}

// Simulate plays games whole games (each base spin with every free game it
// leads to) at a bet level with the certified RNG in seeded mode and the same
// evaluation as the cabinet. workers ≤ 0 uses every core. Each worker owns
// its chunk's rng.Stream (the certified generator's unlocked core) and pays
// spins through the compiled fast path (fast.go), which is proven equal to
// Evaluate; the result is the one DrawStops and Evaluate would give.
func (p *Paytable) Simulate(games int64, level int, seed uint64, workers int) (*SimResult, error) {
	if games < 2 {
		return nil, fmt.Errorf("simulate: need at least 2 games, got %d", games)
	}
	if level < 0 || level >= len(p.CreditsPerLine) {
		return nil, fmt.Errorf("simulate: bet level %d outside 1..%d", level+1, len(p.CreditsPerLine))
	}
	if _, err := p.levelRTP(); err != nil {
		return nil, err // an infinite feature would never end
	}
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	chunks := (games + simChunk - 1) / simChunk
	var next atomic.Int64
	type acc struct {
		won, hits, triggers, free, prog, max int64
		sq                                   u128
	}
	results := make([]acc, workers)
	f := p.compileFast()
	base := f.level(level, false)
	var free *fastLevel
	if p.Free != nil {
		free = f.level(level, true)
	}
	var wg sync.WaitGroup
	for wi := range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			var a acc // the worker's own, not a cache line shared with others
			var st [maxReels]uint64
			stops := st[:len(p.Reels)]
			for {
				c := next.Add(1) - 1
				if c >= chunks {
					results[wi] = a
					return
				}
				// The worker owns this chunk's generator: the certified
				// stream and draw, without a lock per draw.
				src := rng.NewSeededStream(chunkSeed(seed, c))
				n := min(simChunk, games-c*simChunk)
				for range n {
					base.draw(src, stops)
					win, prog, left := f.spin(base, stops, nil)
					a.prog += prog
					if win > 0 || left > 0 || prog > 0 {
						a.hits++
					}
					if left > 0 {
						a.triggers++
					}
					for left > 0 {
						left--
						a.free++
						free.draw(src, stops)
						w, pg, aw := f.spin(free, stops, nil)
						win += w
						a.prog += pg
						left += aw
					}
					a.won += win
					a.sq.addMul(uint64(win), uint64(win))
					a.max = max(a.max, win)
				}
			}
		}()
	}
	wg.Wait()
	r := &SimResult{Games: games, Level: level, Bet: p.Bet(level), Seed: seed}
	var sq u128
	for _, a := range results {
		r.Won += a.won
		r.Hits += a.hits
		r.Triggers += a.triggers
		r.FreeGames += a.free
		r.Progressives += a.prog
		r.MaxGameWin = max(r.MaxGameWin, a.max)
		sq.addU128(a.sq)
	}
	r.SumSquares = sq.big()
	return r, nil
}
