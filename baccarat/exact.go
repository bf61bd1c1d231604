package baccarat

import (
	"errors"
	"fmt"
	"math/big"

	"github.com/openegm/cabinet/cards"
	"github.com/openegm/cabinet/reels"
)

// The exact figures come from enumerating hands over card *values* with
// their counts, not over cards: a shoe of 416 cards has 5·10^15 ordered
// six-card deals, but only 10 point values. Every weight counts ordered
// sequences of six cards (the cards a hand does not use are counted too), so
// all hands share one denominator, N(N−1)…(N−5), which fits 64 bits for
// any shoe of up to maxEnumCards cards.
//
// Pairs need ranks, not values. For values 1 to 9 a value is a rank, so two
// equal values are a pair. The value 0 is four ranks (10, J, Q, K): for the
// positions among the first four cards that hold a 0, pairTable splits the
// number of ways to fill them with real cards into pair and non-pair ways,
// exactly, from the count of each of the four ranks. The third cards need
// only values (a pair is the first two cards of a hand).
const maxEnumCards = 1000

// shoeCounts is a shoe as the enumeration sees it.
type shoeCounts struct {
	value [10]int // cards of each point value
	zero  [4]int  // the ten-valued ranks apart: tens, jacks, queens, kings
	n     int
}

func countShoe(ranks [cards.King + 1]int) (shoeCounts, error) {
	var sc shoeCounts
	for r := cards.Ace; r <= cards.King; r++ {
		c := ranks[r]
		if c < 0 {
			return sc, fmt.Errorf("%d cards of rank %d", c, r)
		}
		sc.value[Points(r)] += c
		if r >= cards.Ten {
			sc.zero[r-cards.Ten] = c
		}
		sc.n += c
	}
	if sc.n < 6 || sc.n > maxEnumCards {
		return sc, fmt.Errorf("a shoe of %d cards: the enumeration takes 6 to %d", sc.n, maxEnumCards)
	}
	return sc, nil
}

// tally counts hands by what the bets are paid on, in six-card sequences.
type tally struct {
	w     [3][10][2][2]uint64 // winner−1, winning points, player pair, banker pair
	total uint64
}

func falling(n, k uint64) uint64 {
	r := uint64(1)
	for i := range k {
		r *= n - i
	}
	return r
}

// pairTable gives, for each set of positions among P1 B1 P2 B2 (bit i for
// position i) that hold a ten-valued card, the number of ordered ways to
// deal real ten-valued cards there, split by whether the player's and the
// banker's first two cards are a pair. Each row sums to the falling
// factorial of the ten-valued cards over the set's size.
func pairTable(zero [4]int) [16][2][2]uint64 {
	var tab [16][2][2]uint64
	for mask := range 16 {
		var pos []int
		for i := range 4 {
			if mask&(1<<i) != 0 {
				pos = append(pos, i)
			}
		}
		var rank [4]int
		var used [4]int
		var fill func(k int, ways uint64)
		fill = func(k int, ways uint64) {
			if k == len(pos) {
				pp := mask&0b0101 == 0b0101 && rank[0] == rank[2]
				bp := mask&0b1010 == 0b1010 && rank[1] == rank[3]
				tab[mask][b2i(pp)][b2i(bp)] += ways
				return
			}
			for r := range 4 {
				if c := zero[r] - used[r]; c > 0 {
					used[r]++
					rank[pos[k]] = r
					fill(k+1, ways*uint64(c))
					used[r]--
				}
			}
		}
		fill(0, 1)
	}
	return tab
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

// enumerate counts every hand a shoe can deal under a drawing rule.
//
// The first two cards of a hand matter to the rules only through their total
// and to the pair bets only through whether they are a pair, and the deal is
// exchangeable (any two positions are alike), so the enumeration visits each
// hand's first two values unordered and counts a split pair twice: 3,025
// starts instead of 10,000. The brute force over real cards in the tests
// checks this against the game's own evaluation.
func enumerate(sc shoeCounts, rule drawRule) *tally {
	n := uint64(sc.n)
	t := &tally{total: falling(n, 6)}
	var rest [7]uint64 // sequences of the cards a hand of k cards leaves unused
	for k := range rest {
		rest[k] = falling(n-uint64(k), uint64(6-k))
	}
	pairs := pairTable(sc.zero)
	cnt := sc.value
	var d draws
	var tails [3][10]uint64
	end := func(ways uint64) {
		w, pts := decide(&d)
		tails[w-1][pts] += ways
	}
	// third cards: at most one each, so six cards always end the hand.
	thirds := func() {
		s := rule(&d)
		if s == Nobody {
			end(rest[4])
			return
		}
		for v5 := range 10 {
			c5 := uint64(cnt[v5])
			if c5 == 0 {
				continue
			}
			cnt[v5]--
			d.add(s, int8(v5))
			s6 := rule(&d)
			if s6 == Nobody {
				end(c5 * rest[5])
			} else {
				for v6 := range 10 {
					if c6 := uint64(cnt[v6]); c6 != 0 {
						d.add(s6, int8(v6))
						end(c5 * c6)
						d.remove(s6)
					}
				}
			}
			d.remove(s)
			cnt[v5]++
		}
	}

	// take removes a card of value v from the shoe for position pos of the
	// first four and returns the ways to do it (1 for a ten-valued card,
	// whose ways the pair table carries) and the zero-position bit.
	take := func(v, pos int) (uint64, int) {
		c := cnt[v]
		cnt[v]--
		if v == 0 {
			return 1, 1 << pos
		}
		return uint64(c), 0
	}
	for p1 := range 10 {
		for p2 := p1; p2 < 10; p2++ {
			for b1 := range 10 {
				for b2 := b1; b2 < 10; b2++ {
					if cnt[p1] == 0 {
						continue
					}
					w1, z1 := take(p1, 0)
					w2, z2 := uint64(0), 0
					if cnt[p2] > 0 {
						w2, z2 = take(p2, 2)
					}
					w3, z3 := uint64(0), 0
					if w2 != 0 && cnt[b1] > 0 {
						w3, z3 = take(b1, 1)
					}
					w4, z4 := uint64(0), 0
					if w3 != 0 && cnt[b2] > 0 {
						w4, z4 = take(b2, 3)
					}
					if w4 != 0 {
						// An unordered start stands for both orders of a
						// split hand.
						ways := w1 * w2 * w3 * w4
						if p1 != p2 {
							ways *= 2
						}
						if b1 != b2 {
							ways *= 2
						}
						d = draws{}
						d.add(Player, int8(p1))
						d.add(Banker, int8(b1))
						d.add(Player, int8(p2))
						d.add(Banker, int8(b2))
						tails = [3][10]uint64{}
						thirds()
						zeros := z1 | z2 | z3 | z4
						for pp0 := range 2 {
							for bp0 := range 2 {
								pw := pairs[zeros][pp0][bp0]
								if pw == 0 {
									continue
								}
								pp := pp0 | b2i(p1 == p2 && p1 != 0)
								bp := bp0 | b2i(b1 == b2 && b1 != 0)
								m := ways * pw
								for w := range tails {
									for pts, c := range tails[w] {
										if c != 0 {
											t.w[w][pts][pp][bp] += m * c
										}
									}
								}
							}
						}
					}
					// Put back what was taken.
					for _, x := range []struct {
						v int
						w uint64
					}{{p1, w1}, {p2, w2}, {b1, w3}, {b2, w4}} {
						if x.w != 0 {
							cnt[x.v]++
						}
					}
				}
			}
		}
	}
	return t
}

// Figures are the exact mathematics of a table: probabilities and each bet's
// return, as fractions.
type Figures struct {
	Cards     int      `json:"cards"`
	Sequences *big.Int `json:"six_card_sequences"` // the common denominator of the counts
	// Win is the probability of each end of a hand, by Winner−1.
	Win [3]reels.Exact `json:"win"`
	// ByPoints splits Win by the winning total (the tied total for a tie).
	ByPoints   [3][10]reels.Exact    `json:"by_points"`
	PlayerPair reels.Exact           `json:"player_pair"`
	BankerPair reels.Exact           `json:"banker_pair"`
	BothPairs  reels.Exact           `json:"both_pairs"`
	Bets       [NumSpots]BetFigures  `json:"bets"`
	counts     [3][10][2][2]*big.Int // the tally, for tests and the simulator
}

// BetFigures are one bet's figures per unit staked.
type BetFigures struct {
	Spot      string      `json:"spot"`
	Odds      int64       `json:"odds"` // prize per unit staked, before any commission
	Won       reels.Exact `json:"won"`
	Returned  reels.Exact `json:"returned"`
	Lost      reels.Exact `json:"lost"`
	RTP       reels.Exact `json:"rtp"` // expected amount paid back per unit staked
	HouseEdge reels.Exact `json:"house_edge"`
	Variance  reels.Exact `json:"variance"` // of the net result per unit staked
}

// Exact computes the table's figures from its definition.
func (d *Definition) Exact() (*Figures, error) {
	shoe, err := d.NewShoe()
	if err != nil {
		return nil, err
	}
	return exactFigures(shoe.Counts(), d.Alternative, d.Commission, d.BetUnit)
}

// exactFigures computes the figures of any shoe (the tests use small ones).
func exactFigures(ranks [cards.King + 1]int, a Alternative, c Commission, unit int64) (*Figures, error) {
	sc, err := countShoe(ranks)
	if err != nil {
		return nil, err
	}
	t := enumerate(sc, a.next)
	return figuresOf(t, sc.n, a, c, unit)
}

func figuresOf(t *tally, n int, a Alternative, c Commission, unit int64) (*Figures, error) {
	total := new(big.Int).SetUint64(t.total)
	f := &Figures{Cards: n, Sequences: total}
	frac := func(x *big.Int) reels.Exact { return reels.Exact{Rat: new(big.Rat).SetFrac(x, total)} }

	var win [3]*big.Int
	var byPts [3][10]*big.Int
	pp, bp, both := new(big.Int), new(big.Int), new(big.Int)
	var paid, paidSq [NumSpots]*big.Int
	var results [NumSpots][Won + 1]*big.Int
	for s := range NumSpots {
		paid[s], paidSq[s] = new(big.Int), new(big.Int)
		for r := range results[s] {
			results[s][r] = new(big.Int)
		}
	}
	var bets Bets
	for s := range bets {
		bets[s] = unit
	}
	u := big.NewInt(unit)
	for w := range 3 {
		win[w] = new(big.Int)
		for pts := range 10 {
			byPts[w][pts] = new(big.Int)
			for p := range 2 {
				for b := range 2 {
					cnt := new(big.Int).SetUint64(t.w[w][pts][p][b])
					if cnt.Sign() == 0 {
						continue
					}
					win[w].Add(win[w], cnt)
					byPts[w][pts].Add(byPts[w][pts], cnt)
					if p == 1 {
						pp.Add(pp, cnt)
					}
					if b == 1 {
						bp.Add(bp, cnt)
					}
					if p == 1 && b == 1 {
						both.Add(both, cnt)
					}
					dec := Decision{Winner: Winner(w + 1), Points: pts, PlayerPair: p == 1, BankerPair: b == 1}
					st, err := settle(a, c, dec, bets)
					if err != nil {
						return nil, err
					}
					for s, po := range st.Spots {
						x := big.NewInt(po.Paid)
						paid[s].Add(paid[s], new(big.Int).Mul(cnt, x))
						x.Sub(x, u)
						paidSq[s].Add(paidSq[s], new(big.Int).Mul(cnt, x.Mul(x, x)))
						results[s][po.Result].Add(results[s][po.Result], cnt)
					}
				}
			}
			f.ByPoints[w][pts] = frac(byPts[w][pts])
		}
		f.Win[w] = frac(win[w])
	}
	f.PlayerPair, f.BankerPair, f.BothPairs = frac(pp), frac(bp), frac(both)
	totalU := new(big.Int).Mul(total, u)
	totalU2 := new(big.Int).Mul(totalU, u)
	one := big.NewRat(1, 1)
	for s := range NumSpots {
		rtp := new(big.Rat).SetFrac(paid[s], totalU)
		net := new(big.Rat).Sub(rtp, one)
		v := new(big.Rat).SetFrac(paidSq[s], totalU2)
		v.Sub(v, new(big.Rat).Mul(net, net))
		f.Bets[s] = BetFigures{
			Spot: Spot(s).String(), Odds: a.Odds(Spot(s)),
			Won: frac(results[s][Won]), Returned: frac(results[s][Returned]), Lost: frac(results[s][Lost]),
			RTP: reels.Exact{Rat: rtp}, HouseEdge: reels.Exact{Rat: new(big.Rat).Neg(net)}, Variance: reels.Exact{Rat: v},
		}
	}
	return f, nil
}

// MinRTP is the lowest return a bet may have (the 80% of Portaria 817/2005,
// Title III, rule 2, applied to each bet of the table on its own).
var MinRTP = big.NewRat(80, 100)

// RTPError is a bet whose exact return breaks the rule.
type RTPError struct {
	File, ID string
	Spot     Spot
	RTP      *big.Rat
	Rule     string
}

func (e *RTPError) Error() string {
	return fmt.Sprintf("%s: table %s, bet %s: RTP %s = %s %s", e.File, e.ID, e.Spot, reels.Exact{Rat: e.RTP}.Percent(6), e.RTP.RatString(), e.Rule)
}

// Check applies the 80% rule to every bet; the error names each bet that
// breaks it, with its figure.
func (f *Figures) Check(d *Definition) error {
	var errs []error
	for s, b := range f.Bets {
		if b.RTP.Cmp(MinRTP) < 0 {
			errs = append(errs, &RTPError{File: d.File, ID: d.ID, Spot: Spot(s), RTP: b.RTP.Rat, Rule: "is below the 80% minimum"})
		}
	}
	return errors.Join(errs...)
}
