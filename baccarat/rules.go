package baccarat

import (
	"fmt"

	"github.com/openegm/cabinet/cards"
)

// Alternative is the drawing rule of article 9 of the dispatch; which one a
// table uses is the inspectorate's decision, so it is part of the certified
// definition, never a player's option.
type Alternative uint8

const (
	Alternative1 Alternative = 1
	Alternative2 Alternative = 2
)

// Side names one of the two hands.
type Side uint8

const (
	Nobody Side = iota
	Player
	Banker
)

func (s Side) String() string {
	switch s {
	case Player:
		return "player"
	case Banker:
		return "banker"
	}
	return "nobody"
}

// Points is what a card counts: ace 1, two to nine their face value, ten and
// the court cards 0.
func Points(r cards.Rank) int {
	if r >= cards.Ten {
		return 0
	}
	return int(r)
}

// draws is a hand in progress as the drawing rules see it: the points of
// each hand's cards in the order they were dealt, and the totals kept as
// cards come (the enumeration asks for them hundreds of thousands of times).
// The exact enumeration and the evaluation of real cards both drive it, so
// the rules exist once.
type draws struct {
	p, b   [3]int8
	np, nb int
	pt, bt int // totals now
	p2, b2 int // totals of the first two cards
}

func (d *draws) add(s Side, pts int8) {
	if s == Player {
		d.p[d.np] = pts
		d.np++
		d.pt = (d.pt + int(pts)) % 10
		if d.np == 2 {
			d.p2 = d.pt
		}
	} else {
		d.b[d.nb] = pts
		d.nb++
		d.bt = (d.bt + int(pts)) % 10
		if d.nb == 2 {
			d.b2 = d.bt
		}
	}
}

// remove takes back a hand's third card.
func (d *draws) remove(s Side) {
	if s == Player {
		d.np--
		d.pt = d.p2
	} else {
		d.nb--
		d.bt = d.b2
	}
}

func (d *draws) totals() (player, banker int) { return d.pt, d.bt }

// drawRule says which hand takes the next card (Nobody when the hand is
// over), given the four or more cards dealt so far.
type drawRule func(d *draws) Side

// next is article 9 of the dispatch (items 1 to 3 of its paragraph 2), both
// alternatives; docs/makccarat.md states it.
func (a Alternative) next(d *draws) Side {
	p2, b2 := d.p2, d.b2
	switch {
	case p2 >= 8 || b2 >= 8:
		return Nobody // item 1: a natural ends the hand
	case d.np == 2 && d.nb == 2:
		// item 2: equal totals both draw, player first; item 3: the lower draws.
		if p2 <= b2 {
			return Player
		}
		return Banker
	case d.np == 3 && d.nb == 3:
		return Nobody
	case p2 == b2:
		return Banker // item 2: the player has drawn, now the banker
	}
	// item 3: one hand, the lower, has drawn; "mine" is its new total.
	mine, theirs := d.totals()
	other := Banker
	if d.nb == 3 {
		mine, theirs, other = theirs, mine, Player
	}
	switch {
	case mine < theirs:
		return Nobody // still lower: the other stands and wins
	case mine == theirs && a == Alternative2:
		return Nobody // alternative 2: equal after the draw is a tie, nobody draws
	}
	return other // higher (or, in alternative 1, equal): the other draws
}

// Winner is how a hand ended.
type Winner uint8

const (
	PlayerWins Winner = iota + 1
	BankerWins
	Tie
)

func (w Winner) String() string {
	switch w {
	case PlayerWins:
		return "player wins"
	case BankerWins:
		return "banker wins"
	case Tie:
		return "tie"
	}
	return "undecided"
}

// Decision is everything about a hand that the bets are paid on.
type Decision struct {
	Winner     Winner
	Points     int // the winning hand's total, or both totals on a tie
	PlayerPair bool
	BankerPair bool
}

func decide(d *draws) (Winner, int) {
	p, b := d.totals()
	switch {
	case p > b:
		return PlayerWins, p
	case b > p:
		return BankerWins, b
	}
	return Tie, p
}

// Outcome is an evaluated hand.
type Outcome struct {
	Decision
	Cards          []cards.Card // as dealt: P1 B1 P2 B2, then the third cards
	Player, Banker []cards.Card // each hand's cards in order
	PlayerPoints   int
	BankerPoints   int
}

// sideFor is the hand that card i (from 0) goes to, given the cards before
// it, or Nobody when the hand is over: the first four alternate from the
// player, the rest are the third cards the rules call for.
func (a Alternative) sideFor(i int, d *draws) Side {
	if i < 4 {
		return [4]Side{Player, Banker, Player, Banker}[i]
	}
	return a.next(d)
}

// replay walks dealt cards through the drawing rules: the first four go to
// the player, banker, player, banker; each later card to the hand the rules
// name. It refuses a card the rules do not deal.
func (a Alternative) replay(dealt []cards.Card) (draws, []Side, error) {
	var d draws
	var sides []Side
	if len(dealt) < 4 {
		return d, nil, fmt.Errorf("a hand starts with four cards (player, banker, player, banker), got %d", len(dealt))
	}
	for i, c := range dealt {
		if !c.Valid() {
			return d, nil, fmt.Errorf("card %d is not a card (%s)", i+1, c)
		}
		s := a.sideFor(i, &d)
		if s == Nobody {
			return d, nil, fmt.Errorf("card %d (%s) is not dealt by the rules of alternative %d: the hand ended after %d cards", i+1, c, a, i)
		}
		d.add(s, int8(Points(c.Rank)))
		sides = append(sides, s)
	}
	return d, sides, nil
}

// Next says which hand the rules deal the next card to, given the cards
// dealt so far (at least four), or Nobody when the hand is over.
func (a Alternative) Next(dealt []cards.Card) (Side, error) {
	d, _, err := a.replay(dealt)
	if err != nil {
		return Nobody, err
	}
	return a.next(&d), nil
}

// Evaluate is the game's evaluation of a complete hand from its cards in the
// order dealt. The cabinet, recall, the simulator and the brute-force
// cross-check of the exact figures all call it. A hand with a card too few
// or too many for the rules is refused.
func (a Alternative) Evaluate(dealt []cards.Card) (Outcome, error) {
	if a != Alternative1 && a != Alternative2 {
		return Outcome{}, fmt.Errorf("alternative %d: the dispatch has alternatives 1 and 2", a)
	}
	d, sides, err := a.replay(dealt)
	if err != nil {
		return Outcome{}, err
	}
	if s := a.next(&d); s != Nobody {
		return Outcome{}, fmt.Errorf("the hand is not over after %d cards: the rules of alternative %d deal the %s a third card", len(dealt), a, s)
	}
	o := Outcome{Cards: append([]cards.Card(nil), dealt...)}
	for i, c := range dealt {
		if sides[i] == Player {
			o.Player = append(o.Player, c)
		} else {
			o.Banker = append(o.Banker, c)
		}
	}
	o.PlayerPoints, o.BankerPoints = d.totals()
	o.Winner, o.Points = decide(&d)
	// A pair is the same rank, not the same points: J+J is a pair, J+Q is not.
	o.PlayerPair = o.Player[0].Rank == o.Player[1].Rank
	o.BankerPair = o.Banker[0].Rank == o.Banker[1].Rank
	return o, nil
}
