package chemin

import "github.com/openegm/cabinet/cards"

// Points is what a card counts (rule 9): ace 1, two to nine their face
// value, ten and the court cards 0.
func Points(c cards.Card) int {
	if c.Rank >= cards.Ten {
		return 0
	}
	return int(c.Rank)
}

// Total is a hand's total: the sum of its points modulo 10 (rules 10, 11).
func Total(cs []cards.Card) int {
	t := 0
	for _, c := range cs {
		t += Points(c)
	}
	return t % 10
}

// Natural reports an 8 or 9 with two cards.
func Natural(cs []cards.Card) bool { return len(cs) == 2 && Total(cs) >= 8 }

// PontoRule is what the ponto does with a two-card total: draw (0-4),
// stand (6-7) or choose (5, rule 99). Naturals end the coup before it.
type PontoRule int

const (
	PontoDraws PontoRule = iota
	PontoStands
	PontoChooses
)

// PontoPlay is the ponto's rule for his total.
func PontoPlay(total int) PontoRule {
	switch {
	case total <= 4:
		return PontoDraws
	case total == 5:
		return PontoChooses
	}
	return PontoStands
}

// Banker is the tableau's answer for the banker.
type Banker int

const (
	BankerStands Banker = iota
	BankerDraws
	// BankerChooses: one of the two optional cases (3 against a 9, 5
	// against a 4); the tableau's own answer is to draw (rule 102).
	BankerChooses
)

// BankerPlay is the tableau (rule 67; spec chemin.md): the banker's total
// and the ponto's third card's points, or third < 0 when the ponto stood.
func BankerPlay(total, third int) Banker {
	if third < 0 {
		if total <= 5 {
			return BankerDraws
		}
		return BankerStands
	}
	in := func(lo, hi int) bool { return third >= lo && third <= hi }
	switch total {
	case 0, 1, 2:
		return BankerDraws
	case 3:
		switch {
		case third == 9:
			return BankerChooses
		case third == 8:
			return BankerStands
		}
		return BankerDraws
	case 4:
		if in(2, 7) {
			return BankerDraws
		}
		return BankerStands
	case 5:
		switch {
		case third == 4:
			return BankerChooses
		case in(5, 7):
			return BankerDraws
		}
		return BankerStands
	case 6:
		if in(6, 7) {
			return BankerDraws
		}
		return BankerStands
	}
	return BankerStands
}
