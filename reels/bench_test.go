package reels

import (
	"os"
	"testing"

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
