package odds

import (
	"math/big"
)

// Matrix is a 2 × 4 game's payoffs to the banker: rows the ponto's
// strategies (PontoStrategies), columns the banker's (BankerStrategies).
// The banker maximizes, the ponto minimizes.
type Matrix [2][4]*big.Rat

// Solution is the exact solution of a 2 × 4 zero-sum game.
type Solution struct {
	Value Figure `json:"value"` // the banker's expectation when both play optimally
	// PontoDraw is the range of optimal probabilities of drawing on 5
	// (PontoDraw[0] == PontoDraw[1] when the ponto's optimal strategy is
	// unique).
	PontoDraw [2]Figure `json:"ponto_draw_on_5"`
	// Banker lists the banker's basic optimal strategies (each a
	// probability for each of BankerStrategies, with at most two columns
	// played); any mixture of them is optimal too.
	Banker [][4]Figure `json:"banker"`
}

// at is the banker's payoff from column j when the ponto draws on 5 with
// probability p.
func (m *Matrix) at(j int, p *big.Rat) *big.Rat {
	q := new(big.Rat).Sub(big.NewRat(1, 1), p)
	r := new(big.Rat).Mul(p, m[0][j])
	return r.Add(r, q.Mul(q, m[1][j]))
}

// upper is the most the banker gets against the ponto's mixture p.
func (m *Matrix) upper(p *big.Rat) *big.Rat {
	var best *big.Rat
	for j := range 4 {
		if v := m.at(j, p); best == nil || v.Cmp(best) > 0 {
			best = v
		}
	}
	return best
}

// Solve solves the game exactly by the graphical method: the ponto's
// mixture p minimizes the upper envelope of four lines, a convex piecewise
// linear function whose minimum lies at p = 0, p = 1 or where two lines
// cross; the banker's optimal strategies are those of at most two columns
// that give at least the value against both of the ponto's pure
// strategies.
func Solve(m Matrix) *Solution {
	zero, one := new(big.Rat), big.NewRat(1, 1)
	cands := []*big.Rat{zero, one}
	for j := range 4 {
		for k := j + 1; k < 4; k++ {
			// p·a0 + (1−p)·a1 = p·b0 + (1−p)·b1 ⇔ p·(sj − sk) = m1k − m1j, s the slope.
			sj := new(big.Rat).Sub(m[0][j], m[1][j])
			sk := new(big.Rat).Sub(m[0][k], m[1][k])
			d := sj.Sub(sj, sk)
			if d.Sign() == 0 {
				continue
			}
			p := new(big.Rat).Sub(m[1][k], m[1][j])
			p.Quo(p, d)
			if p.Sign() >= 0 && p.Cmp(one) <= 0 {
				cands = append(cands, p)
			}
		}
	}
	var value *big.Rat
	for _, p := range cands {
		if v := m.upper(p); value == nil || v.Cmp(value) < 0 {
			value = v
		}
	}
	// The ponto's optimal set is an interval whose ends are candidates.
	var lo, hi *big.Rat
	for _, p := range cands {
		if m.upper(p).Cmp(value) != 0 {
			continue
		}
		if lo == nil || p.Cmp(lo) < 0 {
			lo = p
		}
		if hi == nil || p.Cmp(hi) > 0 {
			hi = p
		}
	}
	s := &Solution{Value: Figure{value}, PontoDraw: [2]Figure{{new(big.Rat).Set(lo)}, {new(big.Rat).Set(hi)}}}

	// The banker: q on column j and 1−q on column k guarantee the value
	// when q·m[i][j] + (1−q)·m[i][k] ≥ value for both rows i: an interval
	// of q, whose ends are the basic optimal strategies.
	seen := map[string]bool{}
	add := func(mix [4]*big.Rat) {
		key := ""
		var f [4]Figure
		for j, x := range mix {
			if x == nil {
				x = new(big.Rat)
			}
			f[j] = Figure{x}
			key += x.RatString() + ","
		}
		if !seen[key] {
			seen[key] = true
			s.Banker = append(s.Banker, f)
		}
	}
	for j := range 4 {
		if m[0][j].Cmp(value) >= 0 && m[1][j].Cmp(value) >= 0 {
			var mix [4]*big.Rat
			mix[j] = big.NewRat(1, 1)
			add(mix)
		}
	}
	for j := range 4 {
		for k := j + 1; k < 4; k++ {
			qlo, qhi := new(big.Rat), big.NewRat(1, 1)
			ok := true
			for i := range 2 {
				// q·(m[i][j] − m[i][k]) ≥ value − m[i][k]
				a := new(big.Rat).Sub(m[i][j], m[i][k])
				b := new(big.Rat).Sub(value, m[i][k])
				switch a.Sign() {
				case 0:
					ok = ok && b.Sign() <= 0
				case 1:
					if q := b.Quo(b, a); q.Cmp(qlo) > 0 {
						qlo = q
					}
				default:
					if q := b.Quo(b, a); q.Cmp(qhi) < 0 {
						qhi = q
					}
				}
			}
			if !ok || qlo.Cmp(qhi) > 0 {
				continue
			}
			for _, q := range []*big.Rat{qlo, qhi} {
				if q.Sign() > 0 && q.Cmp(one) < 0 {
					var mix [4]*big.Rat
					mix[j] = new(big.Rat).Set(q)
					mix[k] = new(big.Rat).Sub(one, q)
					add(mix)
				}
			}
		}
	}
	return s
}
