package reels

import (
	"fmt"
	"math/rand/v2"
	"reflect"
	"sync"
	"testing"

	"github.com/openegm/cabinet/rng"
)

// walk is the line table's answer for a symbol tuple.
func (f *fastEval) walk(line []uint8) int32 {
	e := uint32(0)
	for _, s := range line[:len(line)-1] {
		e = f.cells[e+uint32(s)].next
	}
	return f.cells[e+uint32(line[len(line)-1])].pay
}

// The line table holds linePay's answer for every symbol tuple.
func TestFastTrieIsLinePay(t *testing.T) {
	for name, p := range fastTables(t) {
		f := p.compileFast()
		if f.cells == nil {
			t.Fatalf("%s: no line table", name)
		}
		line := make([]uint8, len(p.Reels))
		var rec func(i int)
		tuples := 0
		rec = func(i int) {
			if i == len(line) {
				tuples++
				if got, want := f.walk(line), int32(p.linePay(line)); got != want {
					t.Fatalf("%s: tuple %v: table %d, linePay %d", name, line, got, want)
				}
				return
			}
			for s := range len(p.Symbols) {
				line[i] = uint8(s)
				rec(i + 1)
			}
		}
		rec(0)
		t.Logf("%s: %d tuples, %d table rows", name, tuples, len(f.cells)/len(p.Symbols))
	}
}

func fastTables(t testing.TB) map[string]*Paytable {
	ps := map[string]*Paytable{}
	for name, src := range smallTables {
		ps[name] = mustParse(t, name, src)
	}
	for _, id := range []string{"lusitania-88", "lusitania-92", "lusitania-96"} {
		ps[id] = shipped(t, id)
	}
	return ps
}

// checkFast compares the fast path with Evaluate on one set of stops: the
// win, every line's result, the progressive awards and the free games.
func checkFast(t *testing.T, name string, p *Paytable, f *fastEval, fl *fastLevel, level int, free bool, stops []int) {
	t.Helper()
	want, err := p.Evaluate(stops, level, free)
	if err != nil {
		t.Fatal(err)
	}
	st := make([]uint64, len(stops))
	for i, s := range stops {
		st[i] = uint64(s)
	}
	lines := make([]int32, len(p.Lines))
	win, prog, awarded := f.spin(fl, st, lines)
	wantLines := make([]int32, len(p.Lines))
	for i := range wantLines {
		wantLines[i] = -1
	}
	for _, lw := range want.Lines {
		wantLines[lw.Line] = int32(lw.Pay)
	}
	if win != want.Win || prog != want.progressiveCount() || awarded != want.FreeAwarded || !reflect.DeepEqual(lines, wantLines) {
		t.Fatalf("%s level %d free %v stops %v: fast win %d prog %d free %d lines %v; Evaluate win %d prog %d free %d lines %v",
			name, level, free, stops, win, prog, awarded, lines, want.Win, want.progressiveCount(), want.FreeAwarded, wantLines)
	}
}

// The fast path pays every spin as Evaluate does: exhaustively on the small
// tables (every stop combination, base and free strips, every level), over
// random stops on the shipped games, and with and without the line table.
func TestFastEqualsEvaluate(t *testing.T) {
	for name, p := range fastTables(t) {
		compiled := p.compileFast()
		byLinePay := *compiled
		byLinePay.cells = nil
		for variant, f := range map[string]*fastEval{"table": compiled, "linePay": &byLinePay} {
			label := fmt.Sprintf("%s (%s)", name, variant)
			for level := range p.CreditsPerLine {
				for _, free := range []bool{false, true} {
					if free && p.Free == nil {
						continue
					}
					fl := f.level(level, free)
					strips := p.strips(free)
					if cycleOf(strips) <= 1_000_000 {
						forEachStops(strips, func(stops []int) { checkFast(t, label, p, f, fl, level, free, stops) })
						continue
					}
					if level != 0 && level != p.TopLevel() {
						continue // the levels differ only in the line's credits
					}
					r := rand.New(rand.NewPCG(uint64(level), 1))
					n := 15_000
					if testing.Short() {
						n = 5_000
					}
					stops := make([]int, len(strips))
					for range n {
						for i, s := range strips {
							stops[i] = r.IntN(len(s))
						}
						checkFast(t, label, p, f, fl, level, free, stops)
					}
				}
			}
		}
	}
}

// The fast draw is DrawStops on the same stream.
func TestFastDrawIsDrawStops(t *testing.T) {
	p := shipped(t, "lusitania-92")
	fl := p.compileFast().level(0, false)
	a, b := rng.NewSeededStream(3), rng.NewSeeded(3)
	st := make([]uint64, len(p.Reels))
	var stops []int
	for i := range 100_000 {
		fl.draw(a, st)
		stops = p.DrawStops(b, false, stops)
		for r := range st {
			if int(st[r]) != stops[r] {
				t.Fatalf("draw %d: fast %v, DrawStops %v", i, st, stops)
			}
		}
	}
}

// simulateReference is the simulator as it was before the fast path: the
// locked certified RNG, DrawStops and evaluate, one game at a time.
func (p *Paytable) simulateReference(games int64, level int, seed uint64) *SimResult {
	r := &SimResult{Games: games, Level: level, Bet: p.Bet(level), Seed: seed}
	var sq u128
	var sp Spin
	var stops []int
	for c := int64(0); c*simChunk < games; c++ {
		src := rng.NewSeeded(chunkSeed(seed, c))
		for range min(simChunk, games-c*simChunk) {
			stops = p.DrawStops(src, false, stops)
			p.evaluate(stops, level, false, &sp)
			win := sp.Win
			prog := sp.progressiveCount()
			r.Progressives += prog
			if sp.Win > 0 || sp.FreeAwarded > 0 || prog > 0 {
				r.Hits++
			}
			left := sp.FreeAwarded
			if left > 0 {
				r.Triggers++
			}
			for left > 0 {
				left--
				r.FreeGames++
				stops = p.DrawStops(src, true, stops)
				p.evaluate(stops, level, true, &sp)
				win += sp.Win
				r.Progressives += sp.progressiveCount()
				left += sp.FreeAwarded
			}
			r.Won += win
			sq.addMul(uint64(win), uint64(win))
			r.MaxGameWin = max(r.MaxGameWin, win)
		}
	}
	r.SumSquares = sq.big()
	return r
}

// The simulator gives exactly the run that DrawStops and Evaluate on the
// locked generator give, game for game: same seed, same result.
func TestSimulateEqualsReference(t *testing.T) {
	games := int64(100_000) // six chunks, each its own stream
	if testing.Short() {
		games = 20_000 // two chunks
	}
	var wg sync.WaitGroup
	for name, p := range fastTables(t) {
		for _, level := range []int{0, p.TopLevel()} {
			wg.Go(func() {
				got, err := p.Simulate(games, level, 5, 2)
				if err != nil {
					t.Error(err)
					return
				}
				want := p.simulateReference(games, level, 5)
				if !reflect.DeepEqual(got, want) {
					t.Errorf("%s level %d: Simulate %+v, reference %+v", name, level, got, want)
				}
			})
		}
	}
	wg.Wait()
}
