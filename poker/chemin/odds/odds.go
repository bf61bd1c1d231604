// Package odds is the exact mathematics of chemin de fer (banca francesa,
// spec/chemin.md) that a lab asks for: for a shoe of D decks,
// the banker's expectation per unit at stake for each of the 8 pure strategy
// pairs (the ponto on 5: draw or stand × the banker's two optional cases of
// the tableau, 3 against a third card 9 and 5 against a 4), before and after
// the cagnotte; the probabilities of a banker win, a ponto win and a void;
// and the value and optimal strategies of the 2 × 4 matrix game they form.
//
// Every figure is an exact fraction (math/big); no figure passes through a
// float. As in baccarat's exact figures, the coups are enumerated over card
// values with their counts, not over cards: ten values instead of 52·D
// cards, every weight counting ordered sequences of six cards drawn without
// replacement from a full shoe (the cards a coup does not use are counted
// too), so all coups share one denominator, N(N−1)…(N−5).
package odds

import (
	"errors"
	"fmt"
	"math/big"

	"github.com/openegm/cabinet/poker/chemin"
)

// Shoe is a shoe as the enumeration sees it: the number of cards of each
// point value (0 for tens and court cards, 1 for aces, 2–9 their face).
type Shoe [10]int

// Decks is a full shoe of d 52-card decks: 16d cards worth 0, 4d of each
// other value.
func Decks(d int) Shoe {
	var s Shoe
	s[0] = 16 * d
	for v := 1; v < 10; v++ {
		s[v] = 4 * d
	}
	return s
}

// Cards is the number of cards in the shoe.
func (s Shoe) Cards() int {
	n := 0
	for _, c := range s {
		n += c
	}
	return n
}

// MaxCards bounds a shoe so that every count of ordered six-card sequences,
// at most N(N−1)…(N−5), fits 64 bits.
const MaxCards = 1000

// MaxDecks is the largest number of decks Exact takes (19·52 ≤ MaxCards).
const MaxDecks = MaxCards / 52

func (s Shoe) check() error {
	for v, c := range s {
		if c < 0 {
			return fmt.Errorf("odds: %d cards of value %d", c, v)
		}
	}
	if n := s.Cards(); n < 6 || n > MaxCards {
		return fmt.Errorf("odds: a shoe of %d cards: the enumeration takes 6 to %d", n, MaxCards)
	}
	return nil
}

// Banker is one of the banker's four pure strategies: what he does in the
// two cases the tableau leaves to him (rule 102).
type Banker struct {
	ThreeVsNine bool // with 3, against a ponto's third card 9: true draws, false stands
	FiveVsFour  bool // with 5, against a ponto's third card 4: true draws, false stands
}

// BankerStrategies are the banker's pure strategies in the order of the
// matrix's columns; the first, drawing in both cases, is the tableau a
// banker who does not choose plays (segundo a tabela).
var BankerStrategies = [4]Banker{{true, true}, {true, false}, {false, true}, {false, false}}

// PontoStrategies are the ponto's pure strategies on 5 in the order of the
// matrix's rows: true draws, false stands. A ponto who lets the timer run
// out stands.
var PontoStrategies = [2]bool{true, false}

// PontoDraws is the ponto's rule on his two-card total (not a natural): he
// draws on 0–4, stands on 6 and 7 and chooses on 5.
func PontoDraws(total int, drawOnFive bool) bool {
	switch chemin.PontoPlay(total) {
	case chemin.PontoDraws:
		return true
	case chemin.PontoChooses:
		return drawOnFive
	}
	return false
}

// BankerDraws is the tableau (the engine's, chemin.BankerPlay: one
// definition of the rule for the game and its figures): whether the banker
// with the two-card total (not a natural) draws, given the ponto's third
// card (third < 0: the ponto stood) and the banker's choices.
func BankerDraws(total, third int, s Banker) bool {
	switch chemin.BankerPlay(total, third) {
	case chemin.BankerDraws:
		return true
	case chemin.BankerChooses:
		if total == 3 {
			return s.ThreeVsNine
		}
		return s.FiveVsFour
	}
	return false
}

// Outcomes of a coup, indexes of Counts' arrays.
const (
	BankerWins = iota
	PontoWins
	Void
)

// Counts are the coups of every strategy pair as counts of ordered six-card
// sequences out of Total: [ponto row][banker column][outcome].
type Counts struct {
	Total uint64
	N     [2][4][3]uint64
}

func falling(n, k uint64) uint64 {
	r := uint64(1)
	for i := range k {
		r *= n - i
	}
	return r
}

func outcome(ponto, banker int) int {
	switch {
	case banker > ponto:
		return BankerWins
	case ponto > banker:
		return PontoWins
	}
	return Void
}

// Count enumerates every coup the shoe can deal, in the order of the deal
// (ponto, banker, ponto, banker, then the ponto's third card and the
// banker's), under each of the 8 strategy pairs.
func Count(s Shoe) (*Counts, error) {
	if err := s.check(); err != nil {
		return nil, err
	}
	n := uint64(s.Cards())
	var rest [7]uint64 // orderings of the six-card sequence's unused cards
	for k := range rest {
		rest[k] = falling(n-uint64(k), uint64(6-k))
	}
	cs := &Counts{Total: falling(n, 6)}
	c := s
	// all adds ways to every pair.
	all := func(o int, ways uint64) {
		for i := range 2 {
			for j := range 4 {
				cs.N[i][j][o] += ways
			}
		}
	}
	for p1 := range 10 {
		w1 := uint64(c[p1])
		if w1 == 0 {
			continue
		}
		c[p1]--
		for b1 := range 10 {
			w2 := uint64(c[b1])
			if w2 == 0 {
				continue
			}
			c[b1]--
			for p2 := range 10 {
				w3 := uint64(c[p2])
				if w3 == 0 {
					continue
				}
				c[p2]--
				for b2 := range 10 {
					w4 := uint64(c[b2])
					if w4 == 0 {
						continue
					}
					c[b2]--
					w := w1 * w2 * w3 * w4
					pt, bt := (p1+p2)%10, (b1+b2)%10
					if pt >= 8 || bt >= 8 {
						all(outcome(pt, bt), w*rest[4])
					} else {
						coup(cs, &c, pt, bt, w, &rest)
					}
					c[b2]++
				}
				c[p2]++
			}
			c[b1]++
		}
		c[p1]++
	}
	return cs, nil
}

// bankerThird adds to out, for a banker with total bt who draws from the
// shoe c, the ways of each third card by the outcome against the ponto's
// final total pt.
func bankerThird(c *Shoe, pt, bt int, ways uint64, out *[3]uint64) {
	for u := range 10 {
		if cu := uint64(c[u]); cu != 0 {
			out[outcome(pt, (bt+u)%10)] += ways * cu
		}
	}
}

// coup adds a coup without a natural after its first four cards (w
// orderings of them), the shoe c being what they leave.
func coup(cs *Counts, c *Shoe, pt, bt int, w uint64, rest *[7]uint64) {
	for i, drawOnFive := range PontoStrategies {
		if !PontoDraws(pt, drawOnFive) {
			// The ponto stands: the banker's choices do not arise.
			var out [3]uint64
			if BankerDraws(bt, -1, Banker{}) {
				bankerThird(c, pt, bt, w*rest[5], &out)
			} else {
				out[outcome(pt, bt)] += w * rest[4]
			}
			for j := range 4 {
				for o := range 3 {
					cs.N[i][j][o] += out[o]
				}
			}
			continue
		}
		for v := range 10 {
			cv := uint64(c[v])
			if cv == 0 {
				continue
			}
			c[v]--
			pt3 := (pt + v) % 10
			var drawn, stood [3]uint64
			drawnDone := false
			for j, b := range BankerStrategies {
				if BankerDraws(bt, v, b) {
					if !drawnDone {
						bankerThird(c, pt3, bt, w*cv*rest[6], &drawn)
						drawnDone = true
					}
					for o := range 3 {
						cs.N[i][j][o] += drawn[o]
					}
				} else {
					stood = [3]uint64{}
					stood[outcome(pt3, bt)] = w * cv * rest[5]
					for o := range 3 {
						cs.N[i][j][o] += stood[o]
					}
				}
			}
			c[v]++
		}
	}
}

var errCommission = errors.New("odds: the cagnotte is a fraction from 0 to 1")

// Figure is an exact figure.
type Figure struct{ *big.Rat }

// Percent is the figure ×100 to six decimals, rounded to nearest (halves
// away from zero) from the exact fraction.
func (f Figure) Percent() string {
	return new(big.Rat).Mul(f.Rat, big.NewRat(100, 1)).FloatString(6) + "%"
}

// MarshalJSON writes the fraction, twelve decimals and the percentage.
func (f Figure) MarshalJSON() ([]byte, error) {
	pct := new(big.Rat).Mul(f.Rat, big.NewRat(100, 1)).FloatString(6)
	return fmt.Appendf(nil, `{"fraction":%q,"decimal":%q,"percent":%q}`, f.RatString(), f.FloatString(12), pct), nil
}

// Pair is one strategy pair's figures.
type Pair struct {
	PontoDrawsOnFive bool   `json:"ponto_draws_on_5"`
	Banker           Banker `json:"banker"`
	BankerWin        Figure `json:"p_banker_win"`
	PontoWin         Figure `json:"p_ponto_win"`
	Void             Figure `json:"p_void"`
	// The banker's expectation per unit at stake: P(win) − P(lose) before
	// the cagnotte, P(win)·(1 − c) − P(lose) after it.
	Before Figure `json:"banker_ev_before_cagnotte"`
	After  Figure `json:"banker_ev_after_cagnotte"`
}

// MarshalJSON names the banker's choices.
func (b Banker) MarshalJSON() ([]byte, error) {
	word := map[bool]string{true: "draw", false: "stand"}
	return fmt.Appendf(nil, `{"three_vs_nine":%q,"five_vs_four":%q}`, word[b.ThreeVsNine], word[b.FiveVsFour]), nil
}

// Figures are a shoe's exact figures.
type Figures struct {
	Cards     int      `json:"cards"`
	Sequences *big.Int `json:"six_card_sequences"` // the common denominator of the counts
	Cagnotte  Figure   `json:"cagnotte"`           // the commission on the banker's winnings
	// Pairs[i][j]: the ponto's strategy PontoStrategies[i], the banker's
	// BankerStrategies[j].
	Pairs [2][4]Pair `json:"pairs"`
	// Game is the 2 × 4 zero-sum game of the expectations before the
	// cagnotte (what the ponto wins the banker loses). After the cagnotte
	// the game is no longer zero-sum (the ponto pays none, so his
	// interests are still Game's); GameAfter solves the banker's
	// expectations after it as a zero-sum game: its value is what the
	// banker can guarantee (his maximin), its banker strategies how, and
	// its ponto strategies those that hold him to it.
	Game      *Solution `json:"game"`
	GameAfter *Solution `json:"game_after_cagnotte"`
	Counts    *Counts   `json:"-"`
}

// Exact computes the figures of a full shoe of decks decks with a cagnotte
// of bps basis points of the banker's winnings.
func Exact(decks int, bps int64) (*Figures, error) {
	if decks < 1 || decks > MaxDecks {
		return nil, fmt.Errorf("odds: %d decks: 1 to %d", decks, MaxDecks)
	}
	if bps < 0 || bps > 10000 {
		return nil, errCommission
	}
	return Compute(Decks(decks), big.NewRat(bps, 10000))
}

// Compute computes the figures of any shoe with the cagnotte c (a fraction
// of the banker's winnings, 0 to 1).
func Compute(s Shoe, c *big.Rat) (*Figures, error) {
	if c.Sign() < 0 || c.Cmp(big.NewRat(1, 1)) > 0 {
		return nil, errCommission
	}
	cs, err := Count(s)
	if err != nil {
		return nil, err
	}
	total := new(big.Int).SetUint64(cs.Total)
	f := &Figures{Cards: s.Cards(), Sequences: total, Cagnotte: Figure{new(big.Rat).Set(c)}, Counts: cs}
	frac := func(x uint64) *big.Rat { return new(big.Rat).SetFrac(new(big.Int).SetUint64(x), total) }
	keep := new(big.Rat).Sub(big.NewRat(1, 1), c)
	var before, after Matrix
	for i, draw := range PontoStrategies {
		for j, b := range BankerStrategies {
			n := cs.N[i][j]
			win, lose, void := frac(n[BankerWins]), frac(n[PontoWins]), frac(n[Void])
			ev := new(big.Rat).Sub(win, lose)
			net := new(big.Rat).Mul(win, keep)
			net.Sub(net, lose)
			f.Pairs[i][j] = Pair{PontoDrawsOnFive: draw, Banker: b,
				BankerWin: Figure{win}, PontoWin: Figure{lose}, Void: Figure{void},
				Before: Figure{ev}, After: Figure{net}}
			before[i][j], after[i][j] = ev, net
		}
	}
	f.Game = Solve(before)
	f.GameAfter = Solve(after)
	return f, nil
}
