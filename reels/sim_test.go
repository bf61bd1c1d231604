package reels

import (
	"math"
	"testing"
)

// The simulator and the exact calculator must agree on every small table:
// the exact RTP lies inside the simulated 99.9% interval.
func TestSimulatorAgreesWithExactRTP(t *testing.T) {
	for name, src := range smallTables {
		p := mustParse(t, name, src)
		rtps, err := p.RTP()
		if err != nil {
			t.Fatal(err)
		}
		for _, level := range []int{0, p.TopLevel()} {
			r, err := p.Simulate(200_000, level, 7, 0)
			if err != nil {
				t.Fatal(err)
			}
			lo, hi := r.Interval(3.2905)
			exact, _ := rtps[level].Float64()
			if exact < lo || exact > hi {
				t.Errorf("%s level %d: exact RTP %.5f outside simulated [%.5f, %.5f]", name, level, exact, lo, hi)
			}
			if (hi-lo)/exact > 0.1 {
				t.Errorf("%s: interval [%.4f, %.4f] too wide to test anything", name, lo, hi)
			}
		}
	}
}

// A seed gives the same run on any number of workers, and another seed a
// different one.
func TestSimulatorReproducible(t *testing.T) {
	p := mustParse(t, "t", smallTables["3x3-wild-scatter-free"])
	a, _ := p.Simulate(100_000, 1, 42, 1)
	b, _ := p.Simulate(100_000, 1, 42, 3)
	c, _ := p.Simulate(100_000, 1, 43, 2)
	if a.Won != b.Won || a.SumSquares.Cmp(b.SumSquares) != 0 || a.FreeGames != b.FreeGames || a.Hits != b.Hits {
		t.Fatalf("seed 42 differs between 1 and 3 workers: %+v vs %+v", a, b)
	}
	if a.Won == c.Won && a.Hits == c.Hits {
		t.Fatalf("seeds 42 and 43 gave the same run")
	}
	if a.Games != 100_000 {
		t.Fatalf("played %d games", a.Games)
	}
}

// The simulated hit frequency agrees with the exact one.
func TestSimulatedHitFrequency(t *testing.T) {
	p := mustParse(t, "t", smallTables["5x3-no-retrigger"])
	ps, err := p.Par(0)
	if err != nil {
		t.Fatal(err)
	}
	r, _ := p.Simulate(400_000, 0, 3, 0)
	hf, _ := ps.HitFrequency.Float64()
	got := float64(r.Hits) / float64(r.Games)
	// Binomial 99.9% band.
	sd := 3.2905 * math.Sqrt(hf*(1-hf)/float64(r.Games))
	if got < hf-sd || got > hf+sd {
		t.Fatalf("simulated hit frequency %.5f, exact %.5f ± %.5f", got, hf, sd)
	}
}

// The shipped games: the exact RTP lies inside the simulated 99.9% interval
// at the lowest and the top bet level.
func TestShippedGamesSimulation(t *testing.T) {
	games := int64(1_000_000)
	if testing.Short() {
		games = 200_000
	}
	for _, id := range []string{"lusitania-88", "lusitania-92", "lusitania-96"} {
		p := shipped(t, id)
		rtps, err := p.RTP()
		if err != nil {
			t.Fatal(err)
		}
		for _, level := range []int{0, p.TopLevel()} {
			r, err := p.Simulate(games, level, uint64(level)+11, 0)
			if err != nil {
				t.Fatal(err)
			}
			lo, hi := r.Interval(3.2905)
			exact, _ := rtps[level].Float64()
			if exact < lo || exact > hi {
				t.Errorf("%s level %d: exact %.5f outside simulated 99.9%% interval [%.5f, %.5f]", id, level+1, exact, lo, hi)
			}
			if r.Triggers == 0 || r.FreeGames < r.Triggers*10 {
				t.Errorf("%s: %d triggers, %d free games", id, r.Triggers, r.FreeGames)
			}
		}
	}
}
