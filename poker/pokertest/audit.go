// Package pokertest checks table engines from the outside, for tests only:
// an auditor that recomputes every hand from its records with its own pot
// layering, the reference evaluators of cards/cardstest and its own rake and
// split arithmetic, and bots that play random legal actions.
package pokertest

import (
	"fmt"
	"slices"

	"github.com/openegm/cabinet/cards"
	"github.com/openegm/cabinet/poker"
)

// Rules are what the auditor needs to know of a game, written apart from the
// engine's code.
type Rules struct {
	// Value ranks a live player's cards at the showdown; values compare
	// lexicographically.
	Value func(hole []cards.Card, board [5]cards.Card) []int
	// Rake is the house's part of a pot.
	Rake func(pot int64) int64
	// Split divides a pot's rest among its winners (seats in increasing
	// order); start is the hand_start record (its Seat: button or hand).
	Split func(net int64, winners []int, start poker.Record) []int64
}

// Auditor checks every hand of a table as its records arrive.
type Auditor struct {
	rules Rules
	cur   []poker.Record
	// Figures of the hands checked.
	Hands, Showdowns, SplitPots, SidePots, Carries int
	Rake                                           int64
}

// NewAuditor audits a game with these rules.
func NewAuditor(r Rules) *Auditor { return &Auditor{rules: r} }

// Add takes a table's records in order; it returns the first error it finds
// in a hand when the hand ends.
func (a *Auditor) Add(recs ...poker.Record) error {
	for _, r := range recs {
		if r.Hand == 0 {
			continue
		}
		if len(a.cur) > 0 && a.cur[0].Hand != r.Hand {
			return fmt.Errorf("hand %d's records interleave with hand %d's", a.cur[0].Hand, r.Hand)
		}
		a.cur = append(a.cur, r)
		if r.Kind == poker.KindHandEnd {
			err := a.check(a.cur)
			a.cur = nil
			if err != nil {
				return err
			}
		}
	}
	return nil
}

type seatState struct {
	in     int64 // put in the pot
	folded bool
	hole   []cards.Card
	shown  bool
}

// layer is a slice of the pot between two contribution levels.
type layer struct {
	amount   int64
	eligible []int
}

func (a *Auditor) check(h []poker.Record) error {
	start := h[0]
	if start.Kind != poker.KindHandStart {
		return fmt.Errorf("hand %d starts with %s", start.Hand, start.Kind)
	}
	a.Hands++
	seats := map[int]*seatState{}
	get := func(s int) *seatState {
		if seats[s] == nil {
			seats[s] = &seatState{}
		}
		return seats[s]
	}
	var board []cards.Card
	var awards []poker.Record
	carried, carriedOut := start.Amount, int64(-1)
	for _, r := range h {
		switch r.Kind {
		case poker.KindDeal:
			get(r.Seat).hole = r.Cards
		case poker.KindDeck:
			board = r.Cards
		case poker.KindPost, poker.KindAct:
			s := get(r.Seat)
			s.in += r.Amount
			if r.Action == "fold" || r.Action == "dead_blind" {
				s.folded = true
			}
		case poker.KindReturn:
			get(r.Seat).in -= r.Amount
		case poker.KindShow:
			s := get(r.Seat)
			if !slices.Equal(s.hole, r.Cards) {
				return fmt.Errorf("hand %d seat %d shows %v, dealt %v", start.Hand, r.Seat, r.Cards, s.hole)
			}
			s.shown = true
		case poker.KindAward:
			awards = append(awards, r)
		case poker.KindCarry:
			carriedOut = r.Amount
		}
	}
	var total int64
	var live []int
	for s, st := range seats {
		if st.in < 0 {
			return fmt.Errorf("hand %d seat %d put in %d", start.Hand, s, st.in)
		}
		total += st.in
		if !st.folded && st.hole != nil {
			live = append(live, s)
		}
	}
	slices.Sort(live)
	if carriedOut >= 0 {
		a.Carries++
		if len(awards) > 0 || carriedOut != total+carried {
			return fmt.Errorf("hand %d carries %d of a pot of %d, with %d awards", start.Hand, carriedOut, total+carried, len(awards))
		}
		return nil
	}
	if len(live) == 0 {
		return fmt.Errorf("hand %d ends with nobody live", start.Hand)
	}
	pots, err := a.layers(seats, live, carried)
	if err != nil {
		return fmt.Errorf("hand %d: %w\n%v", start.Hand, err, h)
	}
	showdown := len(live) > 1
	if showdown {
		a.Showdowns++
		if len(board) != 5 {
			return fmt.Errorf("hand %d: a showdown with a board of %d cards", start.Hand, len(board))
		}
	}
	for _, s := range live {
		if seats[s].shown != showdown {
			return fmt.Errorf("hand %d seat %d: shown %v at a showdown %v", start.Hand, s, seats[s].shown, showdown)
		}
	}
	if len(pots) != len(awards) {
		return fmt.Errorf("hand %d: %d pots expected, %d awarded (%+v)", start.Hand, len(pots), len(awards), awards)
	}
	if len(pots) > 1 {
		a.SidePots++
	}
	for n, pot := range pots {
		aw := awards[n]
		winners := pot.eligible
		if showdown {
			winners = nil
			var best []int
			for _, s := range pot.eligible {
				k := a.rules.Value(seats[s].hole, [5]cards.Card(board))
				switch c := slices.Compare(k, best); {
				case winners == nil || c > 0:
					winners, best = []int{s}, k
				case c == 0:
					winners = append(winners, s)
				}
			}
		}
		if len(winners) > 1 {
			a.SplitPots++
		}
		rake := a.rules.Rake(pot.amount)
		parts := a.rules.Split(pot.amount-rake, winners, start)
		want := poker.Record{Pot: n, Amount: pot.amount, Rake: rake}
		for k, s := range winners {
			want.Shares = append(want.Shares, poker.Share{Seat: s, Amount: parts[k]})
		}
		got := poker.Record{Pot: aw.Pot, Amount: aw.Amount, Rake: aw.Rake, Shares: slices.Clone(aw.Shares)}
		slices.SortFunc(got.Shares, func(x, y poker.Share) int { return x.Seat - y.Seat })
		if fmt.Sprint(got) != fmt.Sprint(want) {
			return fmt.Errorf("hand %d pot %d: awarded %+v, want %+v", start.Hand, n, got, want)
		}
		a.Rake += rake
	}
	return nil
}

// layers cuts the chips at every level any player reached, gives each slice
// to the live players who reached its top, hands a slice nobody live reached
// down to the one below, and joins neighbours with the same players.
func (a *Auditor) layers(seats map[int]*seatState, live []int, carried int64) ([]layer, error) {
	var levels []int64
	for _, st := range seats {
		if st.in > 0 && !slices.Contains(levels, st.in) {
			levels = append(levels, st.in)
		}
	}
	slices.Sort(levels)
	anyLive := false
	for _, s := range live {
		anyLive = anyLive || seats[s].in > 0
	}
	if !anyLive { // the live player put nothing in: everything is one pot
		var all int64
		for _, st := range seats {
			all += st.in
		}
		return []layer{{amount: all + carried, eligible: live}}, nil
	}
	var ls []layer
	lo := int64(0)
	for _, hi := range levels {
		var l layer
		for s, st := range seats {
			if st.in >= hi {
				l.amount += hi - lo
				if slices.Contains(live, s) {
					l.eligible = append(l.eligible, s)
				}
			}
		}
		slices.Sort(l.eligible)
		ls = append(ls, l)
		lo = hi
	}
	var out []layer
	for _, l := range ls {
		switch {
		case len(out) > 0 && (len(l.eligible) == 0 || slices.Equal(out[len(out)-1].eligible, l.eligible)):
			out[len(out)-1].amount += l.amount
		case len(l.eligible) == 0:
			return nil, fmt.Errorf("the slice up to %d has nobody live", l.amount)
		default:
			out = append(out, l)
		}
	}
	if len(out) == 0 {
		out = []layer{{eligible: live}}
	}
	out[0].amount += carried
	return out, nil
}
