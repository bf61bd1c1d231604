package pokertest

import (
	"fmt"
	"math/rand/v2"
	"reflect"
	"slices"
	"time"

	"github.com/openegm/cabinet/poker"
)

// Engine is a table engine as the bots see it.
type Engine interface {
	Step(poker.Event) ([]poker.Record, error)
	View(viewer string) poker.View
	RequiredCave() int64
	LastHands(player string) [][]poker.Record
}

// Sim plays a table with bots that take random legal actions, audits every
// hand, replays it for every player in it and keeps the money that came and
// went.
type Sim struct {
	E        Engine
	Rnd      *rand.Rand
	Now      time.Time
	Audit    *Auditor
	MinRebuy int64
	Seats    int // the table's seats
	// MaxCave: bots do not sit down when the table asks more (a cave is
	// the average at the table, which bots that leave broke push up).
	MaxCave int64
	// Bench are the bots not seated; Seated those at the table.
	Bench, Seated []string
	// Money through the table, from the records.
	PaidIn, PaidOut, Fees int64
	Timeouts, Leaves      int
	Totals                map[string]poker.Totals // of the players who left
	// Refused counts the events the engine refused (the bots try illegal
	// things on purpose now and then).
	Refused int
	// Extra, if set, is called with every step's records.
	Extra func(recs []poker.Record) error
	hand  []poker.Record
}

// NewSim seats nothing yet: call Fill.
func NewSim(e Engine, seed uint64, audit *Auditor, minRebuy int64, seats, bots int) *Sim {
	s := &Sim{E: e, Rnd: rand.New(rand.NewPCG(seed, seed^0x5eed)), Now: time.Date(2026, 1, 1, 20, 0, 0, 0, time.UTC),
		Audit: audit, MinRebuy: minRebuy, Seats: seats, Totals: map[string]poker.Totals{}}
	for i := range bots {
		s.Bench = append(s.Bench, fmt.Sprintf("bot%02d", i+1))
	}
	return s
}

// Step applies an event at the sim's time and checks what came out.
func (s *Sim) Step(ev poker.Event) ([]poker.Record, error) {
	recs, err := s.E.Step(ev)
	if err != nil && len(recs) > 0 {
		return recs, fmt.Errorf("%T refused after it emitted records: %w", ev, err)
	}
	for _, r := range recs {
		switch r.Kind {
		case poker.KindJoin, poker.KindRebuy:
			s.PaidIn += r.Amount
			s.Fees += r.Fee
		case poker.KindLeave:
			s.PaidOut += r.Amount
			s.Totals[r.Player] = *r.Totals
			s.Leaves++
			s.gone(r.Player)
		case poker.KindAct:
			if r.Timeout {
				s.Timeouts++
			}
		}
	}
	for _, r := range recs {
		if r.Hand != 0 {
			s.hand = append(s.hand, r)
			if r.Kind == poker.KindHandEnd {
				if e := s.replay(s.hand); e != nil {
					return recs, e
				}
				s.hand = nil
			}
		}
	}
	if e := s.Audit.Add(recs...); e != nil {
		return recs, e
	}
	if s.Extra != nil {
		if e := s.Extra(recs); e != nil {
			return recs, e
		}
	}
	return recs, err
}

// replay checks that every player dealt in the hand has it as his last hand
// and that it replays.
func (s *Sim) replay(hand []poker.Record) error {
	var in []string
	for _, r := range hand {
		if (r.Kind == poker.KindDeal || r.Kind == poker.KindPost) && !slices.Contains(in, r.Player) {
			in = append(in, r.Player)
		}
	}
	for _, p := range in {
		if !slices.Contains(s.Seated, p) {
			continue // he left at the end of the hand: his history went with him
		}
		last := s.E.LastHands(p)
		if len(last) == 0 || len(last) > 3 || !reflect.DeepEqual(last[len(last)-1], hand) {
			return fmt.Errorf("hand %d: %s's last hands (%d) do not end with it", hand[0].Hand, p, len(last))
		}
		frames, err := poker.Replay(hand, p)
		if err != nil {
			return fmt.Errorf("hand %d for %s: %w", hand[0].Hand, p, err)
		}
		shown := map[int]bool{}
		for i, f := range frames {
			if hand[i].Kind == poker.KindShow {
				shown[hand[i].Seat] = true
			}
			for _, fs := range f.Seats {
				if fs.Player != p && len(fs.Cards) > 0 && !shown[fs.Seat] {
					return fmt.Errorf("hand %d: the replay for %s shows seat %d's cards before the showdown", hand[0].Hand, p, fs.Seat)
				}
			}
		}
	}
	return nil
}

// Join seats a bot from the bench with the cave the table asks; it
// reports false when no bot sat down.
func (s *Sim) Join() (bool, error) {
	if len(s.Bench) == 0 || (s.MaxCave > 0 && s.E.RequiredCave() > s.MaxCave) {
		return false, nil
	}
	k := s.Rnd.IntN(len(s.Bench))
	id := s.Bench[k]
	if _, err := s.Step(poker.Join{At: s.Now, Player: id, Amount: s.E.RequiredCave()}); err != nil {
		return false, err
	}
	s.Bench = slices.Delete(s.Bench, k, k+1)
	s.Seated = append(s.Seated, id)
	return true, nil
}

// Leave takes a seated bot away (if the engine lets him go).
func (s *Sim) Leave(id string, authorized bool) error {
	if _, err := s.Step(poker.Leave{At: s.Now, Player: id, Authorized: authorized}); err != nil {
		s.Refused++
	}
	return nil
}

func (s *Sim) gone(id string) {
	if k := slices.Index(s.Seated, id); k >= 0 {
		s.Seated = slices.Delete(s.Seated, k, k+1)
		s.Bench = append(s.Bench, id)
	}
}

// seatOf is the bot in seat, from a view.
func seatOf(v poker.View, seat int) string {
	for _, sv := range v.Seats {
		if sv.Seat == seat {
			return sv.Player
		}
	}
	return ""
}

// PlayHand deals a hand and plays it to its end with random decisions:
// mostly calls and checks, raises of random legal sizes, folds, all-ins,
// now and then an illegal action (which must be refused) or a decision left
// to the timer. It reports whether a hand was dealt.
func (s *Sim) PlayHand() (bool, error) {
	s.Now = s.Now.Add(3 * time.Second)
	recs, err := s.Step(poker.Deal{At: s.Now})
	if err != nil {
		if len(recs) > 0 {
			return false, err
		}
		s.Refused++
		return false, nil
	}
	if !slices.ContainsFunc(recs, func(r poker.Record) bool { return r.Kind == poker.KindHandStart }) {
		return false, nil // the session is over (synthetic poker's partida)
	}
	for steps := 0; ; steps++ {
		if steps > 10000 {
			return true, fmt.Errorf("a hand that does not end")
		}
		if ended(recs) {
			return true, nil
		}
		recs, err = s.decide()
		if err != nil {
			return true, err
		}
	}
}

func ended(recs []poker.Record) bool {
	return slices.ContainsFunc(recs, func(r poker.Record) bool { return r.Kind == poker.KindHandEnd })
}

// decide makes one decision: a pending offer or the turn to bet.
func (s *Sim) decide() ([]poker.Record, error) {
	s.Now = s.Now.Add(time.Duration(s.Rnd.IntN(3000)) * time.Millisecond)
	var who []string
	var deadline time.Time
	candidates := s.Seated
	if seat := s.E.View("").ToAct; seat != 0 {
		candidates = []string{seatOf(s.E.View(""), seat)}
	}
	for _, id := range candidates {
		v := s.E.View(id)
		if v.Offer != nil || v.Options != nil {
			who = append(who, id)
			if v.Offer != nil {
				deadline = v.Offer.Deadline
			} else {
				deadline = v.Deadline
			}
		}
	}
	if len(who) == 0 {
		return nil, fmt.Errorf("a hand in play with nobody to decide: %+v\n%v", s.E.View(""), s.hand)
	}
	id := who[s.Rnd.IntN(len(who))]
	v := s.E.View(id)
	switch s.Rnd.IntN(40) {
	case 0: // the timer decides
		s.Now = maxTime(s.Now, deadline)
		return s.Step(poker.Tick{At: s.Now})
	case 1: // an illegal raise: must be refused and change nothing
		if v.Options != nil {
			bad := poker.Action{Kind: poker.Raise, To: -5}
			if v.Options.Raise {
				bad.To = v.Options.MaxTo + 1 + int64(s.Rnd.IntN(100))
			}
			if recs, err := s.Step(poker.Act{At: s.Now, Player: id, Action: bad}); err == nil {
				return recs, fmt.Errorf("hand: %s's raise to %d beyond %+v accepted", id, bad.To, v.Options)
			}
			s.Refused++
		}
	case 2: // someone whose turn it is not
		other := s.Seated[s.Rnd.IntN(len(s.Seated))]
		if other != id && s.E.View(other).Options == nil && s.E.View(other).Offer == nil {
			if recs, err := s.Step(poker.Act{At: s.Now, Player: other, Action: poker.Action{Kind: poker.Check}}); err == nil {
				return recs, fmt.Errorf("%s acted out of turn", other)
			}
			s.Refused++
		}
	case 3: // leave the table (now and then)
		if s.Rnd.IntN(5) == 0 {
			return s.leaveNow(id)
		}
	}
	if v.Offer != nil {
		a := v.Offer.Accept
		if s.Rnd.IntN(4) == 0 {
			a = v.Offer.Decline
		}
		return s.Step(poker.Act{At: s.Now, Player: id, Action: poker.Action{Kind: a}})
	}
	return s.Step(poker.Act{At: s.Now, Player: id, Action: s.choose(*v.Options)})
}

func (s *Sim) leaveNow(id string) ([]poker.Record, error) {
	recs, err := s.Step(poker.Leave{At: s.Now, Player: id})
	if err != nil && len(recs) == 0 {
		s.Refused++
		return nil, nil
	}
	return recs, err
}

func maxTime(a, b time.Time) time.Time {
	if a.After(b) {
		return a
	}
	return b
}

// choose picks a random legal action.
func (s *Sim) choose(o poker.Options) poker.Action {
	r := s.Rnd.IntN(100)
	switch {
	case r < 8 && !o.Check:
		return poker.Action{Kind: poker.Fold}
	case r < 2:
		return poker.Action{Kind: poker.Fold} // folding when checking is free is allowed
	case r < 12 && o.Raise:
		return poker.Action{Kind: poker.AllIn}
	case r < 35 && o.Raise:
		to := o.MinTo
		if o.MaxTo > o.MinTo {
			switch s.Rnd.IntN(3) {
			case 0:
				to = o.MaxTo
			case 1:
				to = o.MinTo + s.Rnd.Int64N(o.MaxTo-o.MinTo+1)
			}
		}
		return poker.Action{Kind: poker.Raise, To: to}
	case o.Check:
		return poker.Action{Kind: poker.Check}
	}
	return poker.Action{Kind: poker.Call}
}

// Between hands: broke bots buy again or leave, some rest or come back,
// bots on the bench sit down.
func (s *Sim) Between(minPlayers int) error {
	s.Now = s.Now.Add(time.Second)
	for _, id := range slices.Clone(s.Seated) {
		v := s.E.View(id)
		var me poker.SeatView
		for _, sv := range v.Seats {
			if sv.Player == id {
				me = sv
			}
		}
		switch {
		case me.Stack < s.MinRebuy && s.Rnd.IntN(3) > 0:
			amount := s.MinRebuy + s.Rnd.Int64N(s.MinRebuy)
			if _, err := s.Step(poker.Rebuy{At: s.Now, Player: id, Amount: amount}); err != nil {
				return fmt.Errorf("rebuy %s %d: %w", id, amount, err)
			}
		case me.Stack < s.MinRebuy || s.Rnd.IntN(60) == 0:
			if err := s.Leave(id, me.Stack == 0 || s.Rnd.IntN(2) == 0); err != nil {
				return err
			}
		case s.Rnd.IntN(40) == 0:
			if _, err := s.Step(poker.Rest{At: s.Now, Player: id, On: !me.Resting}); err != nil {
				return err
			}
		case me.Resting && s.Rnd.IntN(3) == 0:
			if _, err := s.Step(poker.Rest{At: s.Now, Player: id, On: false}); err != nil {
				return err
			}
		}
	}
	for len(s.Seated) < minPlayers || (len(s.Bench) > 0 && s.Rnd.IntN(10) == 0) {
		if len(s.Bench) == 0 || len(s.Seated) == s.Seats {
			break
		}
		if joined, err := s.Join(); err != nil || !joined {
			return err
		}
	}
	return nil
}
