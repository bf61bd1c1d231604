package reels

import (
	"encoding/json"
	"math/big"
	"testing"
)

// small paytables exercise every rule with cycles small enough to enumerate
// through Evaluate, the game's own path.
var smallTables = map[string]string{
	"3x3-wild-scatter-free": `{
  "id": "t-3x3", "version": 1, "title": {"pt": "T", "en": "T"}, "rows": 3,
  "symbols": [
    {"id": "W", "kind": "wild", "name": {"pt": "Coroa", "en": "Crown"}},
    {"id": "S", "kind": "scatter", "name": {"pt": "Caravela", "en": "Caravel"}},
    {"id": "A", "kind": "normal", "name": {"pt": "A", "en": "A"}},
    {"id": "B", "kind": "normal", "name": {"pt": "B", "en": "B"}}
  ],
  "reels": [["A","W","B","S","A","B"], ["B","A","W","A","S","B","A"], ["A","B","S","W","B"]],
  "lines": [[1,1,1],[0,0,0],[2,2,2],[0,1,2],[2,1,0]],
  "line_pays": [
    {"symbol": "A", "count": 3, "pays": 5},
    {"symbol": "A", "count": 2, "pays": 1},
    {"symbol": "B", "count": 3, "pays": 3},
    {"symbol": "W", "count": 2, "pays": 2},
    {"symbol": "W", "count": 3, "pays": 20, "progressive": 1}
  ],
  "scatter_pays": [{"symbol": "S", "count": 2, "pays": 1}, {"symbol": "S", "count": 3, "pays": 4}],
  "free_games": {"symbol": "S", "awards": [{"count": 3, "games": 2}], "multiplier": 3, "reels": null, "retrigger": true},
  "credits_per_line": [1, 2, 5]
}`,
	"4x2-no-wild": `{
  "id": "t-4x2", "version": 1, "title": {"pt": "T", "en": "T"}, "rows": 2,
  "symbols": [
    {"id": "S", "kind": "scatter", "name": {"pt": "S", "en": "S"}},
    {"id": "A", "kind": "normal", "name": {"pt": "A", "en": "A"}},
    {"id": "B", "kind": "normal", "name": {"pt": "B", "en": "B"}},
    {"id": "C", "kind": "normal", "name": {"pt": "C", "en": "C"}}
  ],
  "reels": [["A","B","C","S"], ["A","A","B","C","S"], ["B","C","A"], ["C","A","S","B","A"]],
  "lines": [[0,0,0,0],[1,1,1,1],[0,1,0,1]],
  "line_pays": [
    {"symbol": "A", "count": 2, "pays": 1}, {"symbol": "A", "count": 3, "pays": 4}, {"symbol": "A", "count": 4, "pays": 9},
    {"symbol": "B", "count": 3, "pays": 6}, {"symbol": "C", "count": 4, "pays": 30}
  ],
  "scatter_pays": [{"symbol": "S", "count": 1, "pays": 1}, {"symbol": "S", "count": 3, "pays": 10}],
  "credits_per_line": [1, 3]
}`,
	"3x1-own-free-reels": `{
  "id": "t-3x1", "version": 2, "title": {"pt": "T", "en": "T"}, "rows": 1,
  "symbols": [
    {"id": "W", "kind": "wild", "name": {"pt": "W", "en": "W"}},
    {"id": "S", "kind": "scatter", "name": {"pt": "S", "en": "S"}},
    {"id": "A", "kind": "normal", "name": {"pt": "A", "en": "A"}}
  ],
  "reels": [["A","W","S","A"], ["S","A","A","W","A"], ["A","S","W"]],
  "lines": [[0,0,0]],
  "line_pays": [{"symbol": "A", "count": 3, "pays": 10}, {"symbol": "W", "count": 3, "pays": 50}, {"symbol": "W", "count": 1, "pays": 1}],
  "scatter_pays": [{"symbol": "S", "count": 2, "pays": 2}],
  "free_games": {"symbol": "S", "awards": [{"count": 2, "games": 1}, {"count": 3, "games": 3}], "multiplier": 2,
     "reels": [["A","A","S"], ["W","A","S","A"], ["A","S"]], "retrigger": true},
  "credits_per_line": [1]
}`,
	"5x3-no-retrigger": `{
  "id": "t-5x3", "version": 1, "title": {"pt": "T", "en": "T"}, "rows": 3,
  "symbols": [
    {"id": "W", "kind": "wild", "name": {"pt": "W", "en": "W"}},
    {"id": "S", "kind": "scatter", "name": {"pt": "S", "en": "S"}},
    {"id": "A", "kind": "normal", "name": {"pt": "A", "en": "A"}},
    {"id": "B", "kind": "normal", "name": {"pt": "B", "en": "B"}}
  ],
  "reels": [["A","W","B","S"], ["B","A","S","W","B"], ["A","B","W"], ["S","A","B","A"], ["B","W","A"]],
  "lines": [[1,1,1,1,1],[0,0,0,0,0],[2,2,2,2,2],[0,1,2,1,0],[2,1,0,1,2]],
  "line_pays": [
    {"symbol": "A", "count": 3, "pays": 2}, {"symbol": "A", "count": 4, "pays": 5}, {"symbol": "A", "count": 5, "pays": 20},
    {"symbol": "B", "count": 3, "pays": 1}, {"symbol": "B", "count": 5, "pays": 15},
    {"symbol": "W", "count": 3, "pays": 4}, {"symbol": "W", "count": 5, "pays": 200, "progressive": 2}
  ],
  "scatter_pays": [{"symbol": "S", "count": 3, "pays": 2}],
  "free_games": {"symbol": "S", "awards": [{"count": 3, "games": 5}, {"count": 5, "games": 10}], "multiplier": 2, "reels": null, "retrigger": false},
  "credits_per_line": [1, 2]
}`,
}

func mustParse(t testing.TB, name, src string) *Paytable {
	t.Helper()
	p, err := Parse(name, []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// forEachStops calls f with every stop combination of a strip set.
func forEachStops(strips [][]uint8, f func([]int)) {
	stops := make([]int, len(strips))
	var rec func(i int)
	rec = func(i int) {
		if i == len(strips) {
			f(stops)
			return
		}
		for s := range strips[i] {
			stops[i] = s
			rec(i + 1)
		}
	}
	rec(0)
}

// bruteForce computes jointStats by calling Evaluate on every combination,
// converting credits back to units (one credit per line, no multiplier).
func bruteForce(t testing.TB, p *Paytable, free bool) *jointStats {
	strips := p.strips(free)
	st := &jointStats{cycle: cycleOf(strips)}
	mult := int64(1)
	if free {
		mult = p.Free.Multiplier
	}
	for v, level := range []int{0, p.TopLevel()} {
		cpl := p.CreditsPerLine[level]
		forEachStops(strips, func(stops []int) {
			sp, err := p.Evaluate(stops, level, free)
			if err != nil {
				t.Fatal(err)
			}
			if sp.Win%(cpl*mult) != 0 {
				t.Fatalf("win %d not a multiple of cpl×mult %d", sp.Win, cpl*mult)
			}
			w := uint64(sp.Win / (cpl * mult))
			games := uint64(sp.FreeAwarded)
			if free && !p.Free.Retrigger && games != 0 {
				t.Fatalf("free game awarded games without retrigger")
			}
			// The enumerator counts what the trigger would award on every strip
			// set; Evaluate awards nothing in free games without retrigger.
			if free && !p.Free.Retrigger {
				games = uint64(p.Free.gamesFor(p.countIn(stops, free, p.Free.Symbol)))
			}
			if v == 0 {
				if sp.Win > 0 || games > 0 || len(sp.Progressives()) > 0 {
					st.hits++
				}
				st.sumT.add(games)
				if games > 0 {
					st.sumTT.add(games * (games - 1))
				}
			}
			st.sumW[v].add(w)
			st.sumW2[v].addMul(w, w)
			st.sumWT[v].addMul(w, games)
			st.maxW[v] = max(st.maxW[v], w)
		})
	}
	return st
}

// countIn counts cells showing sym.
func (p *Paytable) countIn(stops []int, free bool, sym int) int {
	c := 0
	for _, reel := range p.Window(stops, free) {
		for _, s := range reel {
			if int(s) == sym {
				c++
			}
		}
	}
	return c
}

func TestEnumerationMatchesBruteForce(t *testing.T) {
	for name, src := range smallTables {
		t.Run(name, func(t *testing.T) {
			p := mustParse(t, name, src)
			sets := []bool{false}
			if p.Free != nil && p.Free.OwnReels {
				sets = append(sets, true)
			}
			for _, free := range sets {
				want := bruteForce(t, p, free)
				for _, workers := range []int{1, 2, 3} {
					got := p.enumerate(p.strips(free), workers)
					if *got != *want {
						t.Fatalf("free=%v workers=%d:\n got %+v\nwant %+v", free, workers, got, want)
					}
				}
			}
		})
	}
}

// The no-table path (tuple space too large) must agree with the table path.
func TestEnumerationWithoutTable(t *testing.T) {
	for name, src := range smallTables {
		p := mustParse(t, name, src)
		e := p.newEnumerator(p.Reels)
		want := p.enumerate(p.Reels, 1)
		e.tbl = [2][]int32{}
		w := e.newWalker()
		for s := range p.Reels[0] {
			w.reel(0, s)
		}
		w.stats.cycle = want.cycle
		if w.stats != *want {
			t.Fatalf("%s: no-table path\n got %+v\nwant %+v", name, w.stats, *want)
		}
	}
}

// The counted RTP of the base spin equals the brute-force mean of Evaluate.
func TestCountedRTPMatchesBruteForce(t *testing.T) {
	for name, src := range smallTables {
		t.Run(name, func(t *testing.T) {
			p := mustParse(t, name, src)
			base := p.countSet(p.Reels)
			for _, level := range []int{0, p.TopLevel()} {
				var sum int64
				lineHits := make([]uint64, len(p.LinePays))
				forEachStops(p.Reels, func(stops []int) {
					sp, _ := p.Evaluate(stops, level, false)
					sum += sp.Win
					if level == 0 {
						for _, lw := range sp.Lines {
							lineHits[lw.Pay]++
						}
					}
				})
				want := new(big.Rat).SetFrac(big.NewInt(sum), new(big.Int).Mul(big.NewInt(int64(base.cycle)), big.NewInt(p.Bet(level))))
				top := level == p.TopLevel()
				got := new(big.Rat).Add(ratio(p.lineUnits(base, top), base.cycle), ratio(p.scatterUnits(base), base.cycle))
				if got.Cmp(want) != 0 {
					t.Fatalf("level %d: counted spin RTP %s, brute force %s", level, got.RatString(), want.RatString())
				}
				if level == 0 {
					for i, h := range lineHits {
						if h != base.lineHits[i]*uint64(len(p.Lines)) {
							t.Fatalf("line_pays[%d]: %d hits over all lines, counted %d per line × %d lines", i, h, base.lineHits[i], len(p.Lines))
						}
					}
				}
			}
		})
	}
}

// Without retrigger a game is finite, so its mean and variance can be
// enumerated outright: every base spin, then every sequence of its free
// games. This checks the branching formulas of the spec independently.
func TestGameMomentsByFullEnumeration(t *testing.T) {
	src := smallTables["3x1-own-free-reels"]
	var m map[string]any
	if err := json.Unmarshal([]byte(src), &m); err != nil {
		t.Fatal(err)
	}
	m["free_games"].(map[string]any)["retrigger"] = false
	data, _ := json.Marshal(m)
	p := mustParse(t, "no-retrigger", string(data))

	bet := p.Bet(0)
	// freeTotals[k] = distribution (win → combinations) of k free games.
	type dist map[int64]int64
	one := dist{}
	forEachStops(p.Free.Reels, func(stops []int) {
		sp, _ := p.Evaluate(stops, 0, true)
		one[sp.Win]++
	})
	conv := func(a, b dist) dist {
		out := dist{}
		for x, n := range a {
			for y, k := range b {
				out[x+y] += n * k
			}
		}
		return out
	}
	freeCycle := int64(cycleOf(p.Free.Reels))
	sum, sum2 := new(big.Rat), new(big.Rat)
	baseCycle := int64(cycleOf(p.Reels))
	forEachStops(p.Reels, func(stops []int) {
		sp, _ := p.Evaluate(stops, 0, false)
		d := dist{sp.Win: 1}
		weight := big.NewRat(1, baseCycle)
		for range sp.FreeAwarded {
			d = conv(d, one)
			weight.Quo(weight, big.NewRat(freeCycle, 1))
		}
		for x, n := range d {
			w := new(big.Rat).Mul(weight, big.NewRat(n, 1))
			xr := big.NewRat(x, bet)
			sum.Add(sum, new(big.Rat).Mul(w, xr))
			sum2.Add(sum2, new(big.Rat).Mul(w, new(big.Rat).Mul(xr, xr)))
		}
	})
	wantVar := new(big.Rat).Sub(sum2, new(big.Rat).Mul(sum, sum))

	ps, err := p.Par(1)
	if err != nil {
		t.Fatal(err)
	}
	if ps.Levels[0].RTP.Cmp(sum) != 0 {
		t.Fatalf("RTP %s, full enumeration %s", ps.Levels[0].RTP.RatString(), sum.RatString())
	}
	if ps.Levels[0].GameVariance.Cmp(wantVar) != 0 {
		t.Fatalf("game variance %s, full enumeration %s", ps.Levels[0].GameVariance.RatString(), wantVar.RatString())
	}
}

// Par cross-checks enumeration against counting internally; it must succeed
// on every small table and give hit frequency = brute-force hits / cycle.
func TestParSmallTables(t *testing.T) {
	for name, src := range smallTables {
		p := mustParse(t, name, src)
		ps, err := p.Par(2)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		bf := bruteForce(t, p, false)
		if ps.HitHits != bf.hits {
			t.Fatalf("%s: hit combinations %d, brute force %d", name, ps.HitHits, bf.hits)
		}
		if len(ps.Levels) != len(p.CreditsPerLine) {
			t.Fatalf("%s: %d levels", name, len(ps.Levels))
		}
	}
}
