package poker

import (
	"fmt"
	"slices"
)

// Pot is the main pot or a side pot.
type Pot struct {
	Amount int64
	// Eligible are the indexes (in Hand.Players) of the live players who
	// put in enough to win it.
	Eligible []int
}

// Pots divides the chips of the hand into the main pot and the side pots
// (SRIJ rules 49-50: one side pot per different all-in amount). Each pot
// takes, from every player, what he put in between two consecutive totals
// of the live players; its eligible players are the live ones who reached
// its top. Chips of folded or dead players above every live player's total
// go to the top pot: no pot is left without a player who can win it. A
// carried pot belongs to the main pot.
func (h *Hand) Pots() []Pot {
	var levels []int64
	for _, p := range h.Players {
		if p.Live() && p.Total > 0 && !slices.Contains(levels, p.Total) {
			levels = append(levels, p.Total)
		}
	}
	slices.Sort(levels)
	if len(levels) == 0 {
		levels = []int64{0} // nobody live put anything in (a carried pot only)
	}
	pots := make([]Pot, 0, len(levels))
	prev := int64(0)
	for _, top := range levels {
		var pot Pot
		for i, p := range h.Players {
			pot.Amount += min(max(p.Total-prev, 0), top-prev)
			if p.Live() && p.Total >= top {
				pot.Eligible = append(pot.Eligible, i)
			}
		}
		pots = append(pots, pot)
		prev = top
	}
	for _, p := range h.Players {
		if p.Total > prev {
			pots[len(pots)-1].Amount += p.Total - prev
		}
	}
	pots[0].Amount += h.Carried
	return pots
}

// Award pays every pot to the live players eligible for it with the best
// value (all of them tie when value is nil, which the engines use when only
// one player is live). rake is the house's part of a pot; split divides the
// rest among the pot's winners (given in seat order) and must return one
// part each, adding up to it. Award records each pot and returns the rake
// taken; the hand holds no chips afterwards.
func (h *Hand) Award(value func(p *InHand) uint64, rake func(pot int64) int64, split func(net int64, winners []*InHand) []int64) (int64, error) {
	var raked int64
	for n, pot := range h.Pots() {
		if len(pot.Eligible) == 0 {
			return raked, fmt.Errorf("hand %d: pot %d of %d has no live player", h.Number, n, pot.Amount)
		}
		var winners []*InHand
		var best uint64
		for _, i := range pot.Eligible {
			p := h.Players[i]
			v := uint64(0)
			if value != nil {
				v = value(p)
			}
			switch {
			case len(winners) == 0 || v > best:
				winners, best = []*InHand{p}, v
			case v == best:
				winners = append(winners, p)
			}
		}
		r := rake(pot.Amount)
		if r < 0 || r > pot.Amount {
			return raked, fmt.Errorf("hand %d: rake %d of pot %d", h.Number, r, pot.Amount)
		}
		parts := split(pot.Amount-r, winners)
		if len(parts) != len(winners) {
			return raked, fmt.Errorf("hand %d pot %d: %d parts for %d winners", h.Number, n, len(parts), len(winners))
		}
		rec := Record{Kind: KindAward, Pot: n, Amount: pot.Amount, Rake: r}
		var sum int64
		for k, w := range winners {
			if parts[k] < 0 {
				return raked, fmt.Errorf("hand %d pot %d: negative part %d", h.Number, n, parts[k])
			}
			sum += parts[k]
			rec.Shares = append(rec.Shares, Share{Seat: w.Seat, Amount: parts[k]})
		}
		if sum != pot.Amount-r {
			return raked, fmt.Errorf("hand %d pot %d: parts add to %d, not %d", h.Number, n, sum, pot.Amount-r)
		}
		for k, w := range winners {
			w.Player.Stack += parts[k]
			w.Player.Session.Won += parts[k]
		}
		raked += r
		h.Record(rec)
	}
	for _, p := range h.Players {
		p.Bet, p.Total = 0, 0
	}
	h.Carried = 0
	return raked, nil
}

// Carry takes every chip of the hand out of it as a pot for the next hand
// (synthetic poker's "pó") and returns it.
func (h *Hand) Carry() int64 {
	c := h.PotTotal()
	for _, p := range h.Players {
		p.Bet, p.Total = 0, 0
	}
	h.Carried = 0
	h.Record(Record{Kind: KindCarry, Amount: c})
	return c
}

// RakeRate is the house's part of a pot at a rate in basis points
// (hundredths of a percent), rounded down to the cent: the house never
// takes more than the rate.
func RakeRate(bps int64) func(pot int64) int64 {
	return func(pot int64) int64 { return pot * bps / 10000 }
}

// SplitInOrder divides amount into equal parts in units of unit cents: the
// parts differ by one unit at most, the larger ones to the first winners in
// order, and what is left below one unit goes with the first part. The
// hold'em engine splits in cents (unit 1) from the first seat left of the
// button; synthetic poker in units of the minimum bet from the hand (rule
// 56).
func SplitInOrder(amount, unit int64, n int) []int64 {
	parts := make([]int64, n)
	units, rest := amount/unit, amount%unit
	each, extra := units/int64(n), units%int64(n)
	for i := range parts {
		parts[i] = each * unit
		if int64(i) < extra {
			parts[i] += unit
		}
	}
	parts[0] += rest
	return parts
}
