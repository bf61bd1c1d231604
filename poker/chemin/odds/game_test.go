package odds_test

import (
	"math/big"
	"testing"

	"github.com/openegm/cabinet/poker/chemin/odds"
)

func matrix(rows [2][4]int64) odds.Matrix {
	var m odds.Matrix
	for i := range 2 {
		for j := range 4 {
			m[i][j] = big.NewRat(rows[i][j], 1)
		}
	}
	return m
}

// optimal proves a solution by the minimax theorem: each ponto strategy
// given holds the banker to at most the value whatever column he plays, and
// each banker strategy given earns at least the value whatever row the ponto
// plays.
func optimal(t *testing.T, name string, m odds.Matrix, s *odds.Solution) {
	t.Helper()
	one := big.NewRat(1, 1)
	for _, p := range s.PontoDraw {
		if p.Sign() < 0 || p.Cmp(one) > 0 {
			t.Fatalf("%s: ponto draws with %s", name, p.RatString())
		}
		q := new(big.Rat).Sub(one, p.Rat)
		for j := range 4 {
			x := new(big.Rat).Mul(p.Rat, m[0][j])
			x.Add(x, new(big.Rat).Mul(q, m[1][j]))
			if x.Cmp(s.Value.Rat) > 0 {
				t.Errorf("%s: against the ponto's %s column %d earns %s > value %s", name, p.RatString(), j, x.RatString(), s.Value.RatString())
			}
		}
	}
	if len(s.Banker) == 0 {
		t.Fatalf("%s: no banker strategy", name)
	}
	for _, mix := range s.Banker {
		sum := new(big.Rat)
		for _, x := range mix {
			if x.Sign() < 0 {
				t.Fatalf("%s: %v", name, mix)
			}
			sum.Add(sum, x.Rat)
		}
		if sum.Cmp(one) != 0 {
			t.Fatalf("%s: banker's mixture adds to %s", name, sum.RatString())
		}
		for i := range 2 {
			x := new(big.Rat)
			for j := range 4 {
				x.Add(x, new(big.Rat).Mul(mix[j].Rat, m[i][j]))
			}
			if x.Cmp(s.Value.Rat) < 0 {
				t.Errorf("%s: the banker's %v earns %s < value against row %d", name, mix, x.RatString(), i)
			}
		}
	}
}

func TestSolveMixedAndDegenerateGames(t *testing.T) {
	// Matching pennies in columns 0 and 1; 2 and 3 dominated.
	m := matrix([2][4]int64{{1, -1, -2, -3}, {-1, 1, -2, 0}})
	s := odds.Solve(m)
	optimal(t, "pennies", m, s)
	half := big.NewRat(1, 2)
	if s.Value.Sign() != 0 || s.PontoDraw[0].Cmp(half) != 0 || s.PontoDraw[1].Cmp(half) != 0 || len(s.Banker) != 1 ||
		s.Banker[0][0].Cmp(half) != 0 || s.Banker[0][1].Cmp(half) != 0 {
		t.Fatalf("pennies: %+v", s)
	}
	// Lines 6p−2 and 3−4p cross at p = 1/2, value 1; the banker mixes 2/5 and 3/5.
	m = matrix([2][4]int64{{4, -1, 0, -5}, {-2, 3, 0, -5}})
	s = odds.Solve(m)
	optimal(t, "uneven", m, s)
	if s.Value.Cmp(big.NewRat(1, 1)) != 0 || s.PontoDraw[0].Cmp(big.NewRat(1, 2)) != 0 || len(s.Banker) != 1 ||
		s.Banker[0][0].Cmp(big.NewRat(2, 5)) != 0 || s.Banker[0][1].Cmp(big.NewRat(3, 5)) != 0 {
		t.Fatalf("uneven: value %s ponto %s banker %v", s.Value.RatString(), s.PontoDraw[0].RatString(), s.Banker)
	}
	// A column that pays the same whatever the ponto does: every ponto
	// strategy is optimal.
	m = matrix([2][4]int64{{0, -1, -1, -2}, {0, -1, -3, -1}})
	s = odds.Solve(m)
	optimal(t, "flat", m, s)
	if s.Value.Sign() != 0 || s.PontoDraw[0].Sign() != 0 || s.PontoDraw[1].Cmp(big.NewRat(1, 1)) != 0 {
		t.Fatalf("flat: %+v", s)
	}
}

// The chemin de fer games of 1 to 8 decks: the solution is optimal, its
// value is one of the pairs' figures or lies between them.
func TestGamesAreSolved(t *testing.T) {
	for d := 1; d <= 8; d++ {
		f, err := odds.Exact(d, 500)
		if err != nil {
			t.Fatal(err)
		}
		var before, after odds.Matrix
		for i := range 2 {
			for j := range 4 {
				before[i][j], after[i][j] = f.Pairs[i][j].Before.Rat, f.Pairs[i][j].After.Rat
			}
		}
		optimal(t, "before", before, f.Game)
		optimal(t, "after", after, f.GameAfter)
	}
}
