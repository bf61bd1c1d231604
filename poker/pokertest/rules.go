package pokertest

import (
	"slices"

	"github.com/openegm/cabinet/cards"
	"github.com/openegm/cabinet/cards/cardstest"
	"github.com/openegm/cabinet/poker"
)

// HoldemRules are the SRIJ draft's rules as the auditor applies them,
// written apart from the engine: the reference 52-card ranking with rule
// 39 (three of a suit breaks a tie of single cards), a rake of rakeBps of
// every pot, and ties split in cents with the odd cents one each from the
// first seat left of the button, clockwise, at a table of seats.
func HoldemRules(seats int, rakeBps int64) Rules {
	return Rules{
		Value: func(hole []cards.Card, board [5]cards.Card) []int {
			all := append(slices.Clone(hole), board[:]...)
			k := cardstest.Best52(all)
			bonus := 0
			if k[0] == 0 { // five single cards: three of one suit among them wins a tie (rule 39)
				slices.SortFunc(all, func(a, b cards.Card) int { return aceHigh(b) - aceHigh(a) })
				n := map[cards.Suit]int{}
				for _, c := range all[:5] {
					n[c.Suit]++
					if n[c.Suit] == 3 {
						bonus = 1
					}
				}
			}
			return append(k[:], bonus)
		},
		Rake: func(pot int64) int64 { return pot * rakeBps / 10000 },
		Split: func(net int64, winners []int, start poker.Record) []int64 {
			n := int64(len(winners))
			order := slices.Clone(winners)
			slices.SortFunc(order, func(a, b int) int {
				return (a-start.Seat-1+2*seats)%seats - (b-start.Seat-1+2*seats)%seats
			})
			parts := make([]int64, len(winners))
			for k, s := range order {
				part := net / n
				if int64(k) < net%n {
					part++
				}
				parts[slices.Index(winners, s)] = part
			}
			return parts
		},
	}
}

func aceHigh(c cards.Card) int {
	if c.Rank == cards.Ace {
		return 14
	}
	return int(c.Rank)
}

// SyntheticRules are the Portaria's rules as the auditor applies them:
// the reference Portuguese ranking (two hole cards and three of five),
// 3% of every pot (rule 55), and split pots in chips of the minimum bet,
// the larger parts to the hand and on in seat order, what is below one
// chip with the hand's part (rule 56), at a table of seats.
func SyntheticRules(seats int, minBet int64) Rules {
	return Rules{
		Value: func(hole []cards.Card, board [5]cards.Card) []int {
			k := cardstest.BestSynthetic([2]cards.Card(hole), board)
			return k[:]
		},
		Rake: func(pot int64) int64 { return pot * 3 / 100 },
		Split: func(net int64, winners []int, start poker.Record) []int64 {
			order := slices.Clone(winners)
			slices.SortFunc(order, func(a, b int) int {
				return (a-start.Seat+seats)%seats - (b-start.Seat+seats)%seats
			})
			m, k := minBet, int64(len(winners))
			chips := net / m
			parts := make([]int64, len(winners))
			for i, s := range order {
				part := chips / k * m
				if int64(i) < chips%k {
					part += m
				}
				if i == 0 {
					part += net - chips*m
				}
				parts[slices.Index(winners, s)] = part
			}
			return parts
		},
	}
}
