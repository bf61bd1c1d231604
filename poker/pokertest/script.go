package pokertest

import (
	"strings"
	"testing"
	"time"

	"github.com/openegm/cabinet/poker"
)

// Script drives an engine event by event in a test; any surprise fails the
// test.
type Script struct {
	T   testing.TB
	E   Engine
	Now time.Time
	All []poker.Record // every record so far
}

// NewScript starts at an evening of 2026.
func NewScript(t testing.TB, e Engine) *Script {
	return &Script{T: t, E: e, Now: time.Date(2026, 3, 1, 21, 0, 0, 0, time.UTC)}
}

// OK steps the engine; the event must be accepted.
func (s *Script) OK(ev poker.Event) []poker.Record {
	s.T.Helper()
	recs, err := s.E.Step(ev)
	if err != nil {
		s.T.Fatalf("%T %+v: %v", ev, ev, err)
	}
	s.All = append(s.All, recs...)
	return recs
}

// No steps the engine with an event it must refuse, with an error that
// says want, and no record.
func (s *Script) No(ev poker.Event, want string) {
	s.T.Helper()
	recs, err := s.E.Step(ev)
	if err == nil || len(recs) > 0 {
		s.T.Fatalf("%T %+v accepted (%v)", ev, ev, recs)
	}
	if !strings.Contains(err.Error(), want) {
		s.T.Fatalf("%T: %v, want %q", ev, err, want)
	}
}

// Join seats a player with the cave the table asks (seat 0: drawn).
func (s *Script) Join(id string, seat int) {
	s.T.Helper()
	s.OK(poker.Join{At: s.Now, Player: id, Seat: seat, Amount: s.E.RequiredCave()})
}

// Deal starts a hand a second later.
func (s *Script) Deal() []poker.Record {
	s.T.Helper()
	s.Now = s.Now.Add(time.Second)
	return s.OK(poker.Deal{At: s.Now})
}

// Act is a player's decision a second later.
func (s *Script) Act(id string, kind poker.ActionKind, to int64) []poker.Record {
	s.T.Helper()
	s.Now = s.Now.Add(time.Second)
	return s.OK(poker.Act{At: s.Now, Player: id, Action: poker.Action{Kind: kind, To: to}})
}

// Stack is a seated player's chips.
func (s *Script) Stack(id string) int64 {
	s.T.Helper()
	for _, sv := range s.E.View("").Seats {
		if sv.Player == id {
			return sv.Stack
		}
	}
	s.T.Fatalf("%s is not seated", id)
	return 0
}

// ToAct is the player whose turn it is to bet ("" for nobody).
func (s *Script) ToAct() string {
	v := s.E.View("")
	return seatOf(v, v.ToAct)
}

// CallDown plays the hand to its end: every player checks, or calls.
func (s *Script) CallDown() []poker.Record {
	s.T.Helper()
	var recs []poker.Record
	for id := s.ToAct(); id != ""; id = s.ToAct() {
		kind := poker.Call
		if s.E.View(id).Options.Check {
			kind = poker.Check
		}
		recs = s.Act(id, kind, 0)
	}
	return recs
}

// Find keeps the records of one kind.
func Find(recs []poker.Record, kind poker.Kind) []poker.Record {
	var out []poker.Record
	for _, r := range recs {
		if r.Kind == kind {
			out = append(out, r)
		}
	}
	return out
}
