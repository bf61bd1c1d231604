package baccarat

import (
	"math/big"
	"testing"
)

// The simulator deals with the certified RNG and the game's own functions;
// every exact figure lies inside its interval, and the same seed gives the
// same counts on one core or two.
func TestSimulateAgreesWithExact(t *testing.T) {
	for _, src := range []string{alt1Def, alt2Half} {
		d := mustParse(t, src)
		f, err := d.Exact()
		if err != nil {
			t.Fatal(err)
		}
		const hands = 100_000
		one, err := d.Simulate(hands, 7, 1)
		if err != nil {
			t.Fatal(err)
		}
		two, err := d.Simulate(hands, 7, 2)
		if err != nil {
			t.Fatal(err)
		}
		if one.Counts != two.Counts {
			t.Fatal("the same seed gave other hands on two cores")
		}
		for s := range one.Paid {
			if len(one.Paid[s]) != len(two.Paid[s]) {
				t.Fatal("payouts differ between core counts")
			}
			for v, c := range one.Paid[s] {
				if two.Paid[s][v] != c {
					t.Fatal("payouts differ between core counts")
				}
			}
		}
		var n int64
		for w := range one.Counts {
			for p := range one.Counts[w] {
				for _, x := range one.Counts[w][p] {
					n += x[0] + x[1]
				}
			}
		}
		if n != hands {
			t.Fatalf("%d hands counted", n)
		}
		figs, z := one.Compare(f)
		if len(figs) != 3+30+3+5 || z < 4 || z > 4.5 {
			t.Fatalf("%d figures, z %f", len(figs), z)
		}
		for _, g := range figs {
			if !g.Inside {
				e, _ := g.Exact.Float64()
				t.Errorf("%s: %s: exact %.6f outside [%.6f, %.6f]", d.ID, g.Name, e, g.Low, g.High)
			}
		}
		// The comparison can fail: a figure far from the truth is outside.
		wrong := *f
		wrong.Bets[SpotTie].RTP.Rat = new(big.Rat).Add(f.Bets[SpotTie].RTP.Rat, big.NewRat(1, 10))
		figs, _ = one.Compare(&wrong)
		if figs[len(figs)-3].Name != "RTP tie" || figs[len(figs)-3].Inside {
			t.Fatalf("a tie RTP 10 points off is inside: %+v", figs[len(figs)-3])
		}
		if other, _ := d.Simulate(hands, 8, 2); other.Counts == one.Counts {
			t.Fatal("another seed dealt the same hands")
		}
	}
}
