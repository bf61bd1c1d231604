package cards

// Hand-category counts by exhaustive enumeration, for the certification
// figures (cmd/handcount) and the tests that check them.

// CategoryCounts is how many hands fall in each category of a ranking,
// indexed by Category.
type CategoryCounts [numCategories]uint64

// Total is the number of hands counted.
func (c *CategoryCounts) Total() uint64 {
	var t uint64
	for _, n := range c {
		t += n
	}
	return t
}

// Count52Five counts every five-card hand of the 52-card deck
// (2,598,960).
func Count52Five() CategoryCounts {
	t := tables52()
	d := Standard52()
	var byValue [8192]uint64
	keys, bits := cardKeys52(t, d)
	n := len(d)
	for a := 0; a < n; a++ {
		for b := a + 1; b < n; b++ {
			for c := b + 1; c < n; c++ {
				for e := c + 1; e < n; e++ {
					k4 := suitBias52 + keys[a] + keys[b] + keys[c] + keys[e]
					m4 := bits[a] | bits[b] | bits[c] | bits[e]
					for f := e + 1; f < n; f++ {
						byValue[t.lookup(k4+keys[f], m4|bits[f], 5)]++
					}
				}
			}
		}
	}
	return byCategory(t.ranking, byValue[:])
}

// Count52Seven counts the best five of every seven cards of the 52-card deck
// (133,784,560 hands, the hold'em hand with the board).
func Count52Seven() CategoryCounts {
	t := tables52()
	d := Standard52()
	keys, bits := cardKeys52(t, d)
	var byValue [8192]uint64
	n := len(d)
	for a := 0; a < n; a++ {
		k1, m1 := suitBias52+keys[a], bits[a]
		for b := a + 1; b < n; b++ {
			k2, m2 := k1+keys[b], m1|bits[b]
			for c := b + 1; c < n; c++ {
				k3, m3 := k2+keys[c], m2|bits[c]
				for e := c + 1; e < n; e++ {
					k4, m4 := k3+keys[e], m3|bits[e]
					for f := e + 1; f < n; f++ {
						k5, m5 := k4+keys[f], m4|bits[f]
						for g := f + 1; g < n; g++ {
							k6, m6 := k5+keys[g], m5|bits[g]
							for h := g + 1; h < n; h++ {
								byValue[t.lookup(k6+keys[h], m6|bits[h], 7)]++
							}
						}
					}
				}
			}
		}
	}
	return byCategory(t.ranking, byValue[:])
}

func cardKeys52(t *evalTables52, d []Card) (keys, bits []uint64) {
	for _, c := range d {
		keys = append(keys, t.key[c.Suit][c.Rank])
		bits = append(bits, t.bit[c.Suit][c.Rank])
	}
	return keys, bits
}

// Count28Five counts every five-card hand of the 28-card deck under the
// Portuguese ranking (98,280).
func Count28Five() CategoryCounts {
	e := NewEvaluator28()
	d := Portuguese28()
	byValue := make([]uint64, e.t.ranking.Classes()+1)
	eachSubset(len(d), 5, func(ix []int) {
		h := [5]Card{d[ix[0]], d[ix[1]], d[ix[2]], d[ix[3]], d[ix[4]]}
		byValue[e.Eval5(&h)]++
	})
	return byCategory(e.t.ranking, byValue)
}

// Count28Deals counts every deal of synthetic poker seen by one player: two
// hole cards and five community cards from the 28-card deck, ranked by the
// best hand of the two hole cards and three of the five (rule 1):
// C(28,2)·C(26,5) = 24,864,840 deals.
func Count28Deals() CategoryCounts {
	e := NewEvaluator28()
	d := Portuguese28()
	byValue := make([]uint64, e.t.ranking.Classes()+1)
	rest := make([]Card, 0, len(d))
	eachSubset(len(d), 2, func(hx []int) {
		hole := [2]Card{d[hx[0]], d[hx[1]]}
		rest = rest[:0]
		for i, c := range d {
			if i != hx[0] && i != hx[1] {
				rest = append(rest, c)
			}
		}
		eachSubset(len(rest), 5, func(bx []int) {
			board := [5]Card{rest[bx[0]], rest[bx[1]], rest[bx[2]], rest[bx[3]], rest[bx[4]]}
			byValue[e.BestSynthetic(&hole, &board)]++
		})
	})
	return byCategory(e.t.ranking, byValue)
}

// eachSubset calls f with every k-subset of 0..n-1, in increasing order.
func eachSubset(n, k int, f func(ix []int)) {
	ix := make([]int, k)
	var rec func(i, from int)
	rec = func(i, from int) {
		if i == k {
			f(ix)
			return
		}
		for j := from; j <= n-(k-i); j++ {
			ix[i] = j
			rec(i+1, j+1)
		}
	}
	rec(0, 0)
}

func byCategory(r *Ranking, byValue []uint64) CategoryCounts {
	var c CategoryCounts
	for v, n := range byValue {
		if n > 0 {
			c[r.Category(HandValue(v))] += n
		}
	}
	return c
}
