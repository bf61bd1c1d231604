package reels

import (
	"encoding/json"
	"math/rand/v2"
	"os"
	"testing"
	"time"

	"github.com/openegm/cabinet/rng"
)

func shipped(b testing.TB, id string) *Paytable {
	b.Helper()
	name := "../assets/paytables/" + id + ".json"
	data, err := os.ReadFile(name)
	if err != nil {
		b.Fatal(err)
	}
	p, err := Parse(name, data)
	if err != nil {
		b.Fatal(err)
	}
	return p
}

// BenchmarkParSheet is the full PAR sheet of the shipped 5×3, 20-line game:
// counting, the joint enumeration of every stop combination, all levels.
// ns/combination is the figure to compare with other calculators.
func BenchmarkParSheet(b *testing.B) {
	p := shipped(b, "lusitania-92")
	for b.Loop() {
		if _, err := p.Par(0); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(cycleOf(p.Reels)), "ns/combination")
}

// BenchmarkEnumerateOneCore is the joint enumeration on one core.
func BenchmarkEnumerateOneCore(b *testing.B) {
	p := shipped(b, "lusitania-92")
	for b.Loop() {
		p.enumerate(p.Reels, 1)
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(cycleOf(p.Reels)), "ns/combination")
}

// BenchmarkEvaluatePerCombination is the peer measured in the same run: the
// brute-force way (the game's Evaluate on each stop combination), per
// combination, on one core.
func BenchmarkEvaluatePerCombination(b *testing.B) {
	p := shipped(b, "lusitania-92")
	var sp Spin
	stops := make([]int, 5)
	i := 0
	for b.Loop() {
		x := i
		for r := range stops {
			stops[r] = x % len(p.Reels[r])
			x /= len(p.Reels[r])
		}
		p.evaluate(stops, 0, false, &sp)
		i++
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N), "ns/combination")
}

// BenchmarkRTP is the exact RTP at every level by per-reel counting alone,
// what the cabinet recomputes when it loads a paytable.
func BenchmarkRTP(b *testing.B) {
	p := shipped(b, "lusitania-92")
	for b.Loop() {
		if _, err := p.RTP(); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkSimulateOneCore is simulation throughput on one core, in whole
// games (free games included) per second.
func BenchmarkSimulateOneCore(b *testing.B) {
	p := shipped(b, "lusitania-92")
	const games = 1 << 18
	for b.Loop() {
		if _, err := p.Simulate(games, 0, 1, 1); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(games)*float64(b.N)/b.Elapsed().Seconds(), "games/s")
}

// BenchmarkDrawStops is the cost of drawing one outcome with the certified RNG.
func BenchmarkDrawStops(b *testing.B) {
	p := shipped(b, "lusitania-92")
	src := rng.NewSeeded(1)
	stops := make([]int, 0, 5)
	for b.Loop() {
		stops = p.DrawStops(src, false, stops)
	}
}

// BenchmarkCompileFast is the simulator's set-up per run: the line table
// filled by linePay over every symbol tuple, and the flat layout.
func BenchmarkCompileFast(b *testing.B) {
	p := shipped(b, "lusitania-92")
	for b.Loop() {
		p.compileFast()
	}
}

// fiveLine is lusitania-92 played on its first five lines: the same strips,
// pays and free games, a quarter of the lines.
func fiveLine(b testing.TB) *Paytable {
	b.Helper()
	data, err := os.ReadFile("../assets/paytables/lusitania-92.json")
	if err != nil {
		b.Fatal(err)
	}
	var f map[string]any
	if err := json.Unmarshal(data, &f); err != nil {
		b.Fatal(err)
	}
	f["id"] = "lusitania-92-5-lines"
	f["lines"] = f["lines"].([]any)[:5]
	data, err = json.Marshal(f)
	if err != nil {
		b.Fatal(err)
	}
	p, err := Parse("lusitania-92-5-lines", data)
	if err != nil {
		b.Fatal(err)
	}
	return p
}

// BenchmarkSimulationPerCore is whole games a second on one core through
// Simulate (one worker), in games per second of the process's CPU time,
// beside peers timed in the same iterations:
//
//   - floor-games/s: drawing the game's stops with math/rand/v2's ChaCha8,
//     nothing evaluated; ratio is games/s over it;
//   - stream-games/s: drawing them with the certified generator's unlocked
//     Stream, nothing evaluated, the ceiling of any simulation on it;
//   - before-games/s: the simulator as it was, the locked RNG, DrawStops and
//     evaluate per spin.
func BenchmarkSimulationPerCore(b *testing.B) {
	games := []struct {
		name string
		p    *Paytable
	}{
		{"lusitania-92-5-lines", fiveLine(b)},
		{"lusitania-92-20-lines", shipped(b, "lusitania-92")},
	}
	for _, g := range games {
		b.Run(g.name, func(b *testing.B) {
			const n = 1 << 20
			p := g.p
			var sim, floor, stream, before time.Duration
			r := rand.New(rand.NewChaCha8([32]byte{1}))
			seed := uint64(0)
			for b.Loop() {
				seed++
				t0 := cpuTime()
				if _, err := p.Simulate(n, 0, seed, 1); err != nil {
					b.Fatal(err)
				}
				t1 := cpuTime()
				s := uint64(0)
				for range n {
					for _, strip := range p.Reels {
						s += r.Uint64N(uint64(len(strip)))
					}
				}
				t2 := cpuTime()
				src := rng.NewSeededStream(seed)
				for range n {
					for _, strip := range p.Reels {
						s += src.Uint64n(uint64(len(strip)))
					}
				}
				sinkU += s
				t3 := cpuTime()
				p.simulateReference(n/4, 0, seed)
				t4 := cpuTime()
				sim, floor, stream, before = sim+t1-t0, floor+t2-t1, stream+t3-t2, before+t4-t3
			}
			perSec := func(games int, d time.Duration) float64 { return float64(games) * float64(b.N) / d.Seconds() }
			b.ReportMetric(perSec(n, sim), "games/s")
			b.ReportMetric(perSec(n, floor), "floor-games/s")
			b.ReportMetric(perSec(n, sim)/perSec(n, floor), "ratio")
			b.ReportMetric(perSec(n, stream), "stream-games/s")
			b.ReportMetric(perSec(n/4, before), "before-games/s")
		})
	}
}

var sinkU uint64
