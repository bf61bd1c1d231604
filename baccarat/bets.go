package baccarat

import (
	"fmt"
)

// Spot is a bet spot on the table.
type Spot uint8

const (
	SpotPlayer Spot = iota
	SpotBanker
	SpotTie
	SpotPlayerPair
	SpotBankerPair
	NumSpots
)

var spotNames = [NumSpots]string{"player", "banker", "tie", "player_pair", "banker_pair"}

// SpotNames are the spots' names in Spot order.
func SpotNames() []string { return append([]string(nil), spotNames[:]...) }

// String is the spot's name as the definition file and the PAR sheet write it.
func (s Spot) String() string {
	if s < NumSpots {
		return spotNames[s]
	}
	return fmt.Sprintf("spot %d", s)
}

// Bets is the stake on each spot, in cents.
type Bets [NumSpots]int64

// Total is the whole stake of a hand.
func (b Bets) Total() int64 {
	var t int64
	for _, v := range b {
		t += v
	}
	return t
}

// Commission is the commission option of article 17 of the dispatch.
type Commission uint8

const (
	// FivePercent789: the house keeps 5% of the prize of a player or banker
	// bet that wins with 7, 8 or 9 points.
	FivePercent789 Commission = iota + 1
	// HalfOnFour: no 5%, but the house keeps half the prize of a player or
	// banker bet that wins with 4 points.
	HalfOnFour
)

var commissionNames = map[Commission]string{FivePercent789: "five_percent_789", HalfOnFour: "half_on_four"}

func (c Commission) String() string {
	if n, ok := commissionNames[c]; ok {
		return n
	}
	return fmt.Sprintf("commission %d", c)
}

// kept is the part of a player or banker prize the house keeps when the bet
// wins with points, in cents; exact is false when that is not a whole
// number of cents (the bet unit exists so that it always is).
func (c Commission) kept(prize int64, points int) (cents int64, exact bool) {
	switch {
	case c == FivePercent789 && points >= 7:
		return prize * 5 / 100, prize*5%100 == 0
	case c == HalfOnFour && points == 4:
		return prize / 2, prize%2 == 0
	}
	return 0, true
}

// unitMultiple is the smallest stake, in cents, whose every prize leaves a
// whole number of cents after the commission: 5% of 20 cents is 1 cent, half
// of 2 cents is 1 cent.
func (c Commission) unitMultiple() int64 {
	if c == FivePercent789 {
		return 20
	}
	return 2
}

// Odds is what a winning bet on the spot wins per unit staked (article 16):
// player and banker 1:1, tie 14:1 under alternative 1 and 9:1 under
// alternative 2, pairs 11:1.
func (a Alternative) Odds(s Spot) int64 {
	switch s {
	case SpotTie:
		if a == Alternative1 {
			return 14
		}
		return 9
	case SpotPlayerPair, SpotBankerPair:
		return 11
	}
	return 1
}

// Result is how one bet ended.
type Result uint8

const (
	NoBet Result = iota
	Lost
	Returned // a player or banker bet on a tie: the stake comes back
	Won
)

func (r Result) String() string {
	return [...]string{"no bet", "lost", "returned", "won"}[r]
}

// Payout is the settlement of one spot, in cents.
type Payout struct {
	Stake      int64
	Result     Result
	Prize      int64 // Stake × odds when won, before the commission
	Commission int64 // the part of the prize the house keeps
	Paid       int64 // back to the player: stake + prize − commission when won, the stake when returned, 0 when lost
}

// Settlement is the payout of every spot of a hand.
type Settlement struct {
	Spots      [NumSpots]Payout
	Staked     int64
	Paid       int64
	Commission int64
}

// settle pays bets on a decided hand. It is the only statement of the pay
// rules: the cabinet, the exact calculator and the simulator call it.
func settle(a Alternative, c Commission, d Decision, bets Bets) (Settlement, error) {
	var s Settlement
	for spot := range NumSpots {
		stake := bets[spot]
		if stake < 0 {
			return Settlement{}, fmt.Errorf("bet on %s: %d cents is negative", spot, stake)
		}
		p := Payout{Stake: stake}
		if stake > 0 {
			p.Result = Lost
			won := false
			switch spot {
			case SpotPlayer:
				won = d.Winner == PlayerWins
			case SpotBanker:
				won = d.Winner == BankerWins
			case SpotTie:
				won = d.Winner == Tie
			case SpotPlayerPair:
				won = d.PlayerPair
			case SpotBankerPair:
				won = d.BankerPair
			}
			switch {
			case won:
				p.Result = Won
				p.Prize = stake * a.Odds(spot)
				if spot == SpotPlayer || spot == SpotBanker {
					var exact bool
					if p.Commission, exact = c.kept(p.Prize, d.Points); !exact {
						return Settlement{}, fmt.Errorf("bet on %s: %d cents winning with %d points leaves a commission that is not a whole number of cents (%s needs stakes in multiples of %d cents)",
							spot, stake, d.Points, c, c.unitMultiple())
					}
				}
				p.Paid = stake + p.Prize - p.Commission
			case d.Winner == Tie && (spot == SpotPlayer || spot == SpotBanker):
				p.Result = Returned
				p.Paid = stake
			}
		}
		s.Spots[spot] = p
		s.Staked += stake
		s.Paid += p.Paid
		s.Commission += p.Commission
	}
	return s, nil
}
