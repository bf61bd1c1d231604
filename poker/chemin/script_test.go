package chemin_test

import (
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/openegm/cabinet/cards"
	"github.com/openegm/cabinet/poker"
	"github.com/openegm/cabinet/poker/chemin"
	"github.com/openegm/cabinet/poker/pokertest"
)

// stacked is an rng.Source that makes a sabot deal planned cards: for each
// sabot in turn, its order starts with the plan (the burn card first), the
// rest in the decks' order; the cut answers 0 (6 cards moved to the end,
// which the stacking undoes). Other draws answer 0.
type stacked struct {
	decks  int
	plans  [][]cards.Card
	mirror []cards.Card
	deck   []cards.Card
	drawn  int
}

func (s *stacked) Uint64n(n uint64) uint64 {
	N := 52 * s.decks
	if s.mirror == nil && int(n) == N {
		var full []cards.Card
		for range s.decks {
			full = append(full, cards.Standard52()...)
		}
		s.mirror = slices.Clone(full)
		var plan []cards.Card
		if len(s.plans) > 0 {
			plan, s.plans = s.plans[0], s.plans[1:]
		}
		rest := slices.Clone(full)
		for _, c := range plan {
			k := slices.Index(rest, c)
			if k < 0 {
				panic("planned card " + c.String() + " is not left in the sabot")
			}
			rest = slices.Delete(rest, k, k+1)
		}
		order := append(slices.Clone(plan), rest...)
		s.deck = append(slices.Clone(order[N-chemin.MinCutSide:]), order[:N-chemin.MinCutSide]...)
		s.drawn = 0
	}
	if s.mirror == nil {
		return 0
	}
	if s.drawn == N { // the cut
		s.mirror = nil
		return 0
	}
	want := s.deck[s.drawn]
	j := s.drawn
	for s.mirror[j] != want {
		j++
	}
	s.mirror[s.drawn], s.mirror[j] = s.mirror[j], s.mirror[s.drawn]
	s.drawn++
	return uint64(j - s.drawn + 1)
}

// burn is the start of every planned sabot: an ace shown burns one card.
const burn = "AS 2C "

// coup is a coup's cards in dealing order: the ponto's two and the
// banker's two alternately, then any third cards.
func coup(ponto, banker string, thirds ...string) string {
	p, b := strings.Fields(ponto), strings.Fields(banker)
	return strings.Join(append([]string{p[0], b[0], p[1], b[1]}, thirds...), " ") + " "
}

var five = []string{"ana", "bia", "caio", "duda", "eva"}

func rules() chemin.Rules {
	return chemin.Rules{Table: "cf1", Decks: 6, Seats: 8, MinBank: 1000, MinBet: 100, CagnotteBps: 500,
		Rounding: chemin.RoundHalfUp, AuctionBase: 2000, AuctionStep: 500, DecisionTime: 10 * time.Second}
}

type script struct {
	t    *testing.T
	tb   *chemin.Table
	now  time.Time
	all  []poker.Record
	fold *chemin.Folder
}

// newScript seats players in seats 1, 2, ... with 100,000 cents each; the
// sabots deal the plans.
func newScript(t *testing.T, r chemin.Rules, players []string, plans ...string) *script {
	t.Helper()
	src := &stacked{decks: r.Decks}
	for _, p := range plans {
		src.plans = append(src.plans, pokertest.Cards(p))
	}
	tb, err := chemin.New(r, src)
	if err != nil {
		t.Fatal(err)
	}
	s := &script{t: t, tb: tb, now: time.Date(2026, 12, 5, 21, 0, 0, 0, time.UTC), fold: chemin.NewFolder()}
	for i, id := range players {
		s.ok(poker.Join{At: s.now, Player: id, Seat: i + 1, Amount: 100000})
	}
	return s
}

// ok steps the table with an event it must take; after it, the records
// fold to the engine's money exactly.
func (s *script) ok(ev poker.Event) []poker.Record {
	s.t.Helper()
	recs, err := s.tb.Step(ev)
	if err != nil {
		s.t.Fatalf("%T %+v: %v", ev, ev, err)
	}
	s.all = append(s.all, recs...)
	if err := s.fold.Add(recs...); err != nil {
		s.t.Fatal(err)
	}
	if st := s.fold.State(); !reflect.DeepEqual(st, s.tb.State()) {
		s.t.Fatalf("the records fold to %+v, the engine holds %+v", st, s.tb.State())
	}
	return recs
}

// no steps the table with an event it must refuse saying want.
func (s *script) no(ev poker.Event, want string) {
	s.t.Helper()
	recs, err := s.tb.Step(ev)
	if err == nil || !strings.Contains(err.Error(), want) || len(recs) > 0 {
		s.t.Fatalf("%T %+v: got %v (%d records), want an error with %q", ev, ev, err, len(recs), want)
	}
}

func (s *script) act(id string, k poker.ActionKind, to ...int64) []poker.Record {
	s.t.Helper()
	s.now = s.now.Add(time.Second)
	a := poker.Action{Kind: k}
	if len(to) > 0 {
		a.To = to[0]
	}
	return s.ok(poker.Act{At: s.now, Player: id, Action: a})
}

func (s *script) noAct(id string, k poker.ActionKind, to int64, want string) {
	s.t.Helper()
	s.no(poker.Act{At: s.now, Player: id, Action: poker.Action{Kind: k, To: to}}, want)
}

func (s *script) deal() []poker.Record {
	s.t.Helper()
	s.now = s.now.Add(time.Second)
	return s.ok(poker.Deal{At: s.now})
}

// timeout lets the decision's time run out.
func (s *script) timeout() []poker.Record {
	s.t.Helper()
	s.now = s.tb.View("").Deadline
	return s.ok(poker.Tick{At: s.now})
}

func (s *script) stack(id string) int64 {
	for _, sv := range s.tb.View("").Seats {
		if sv.Player == id {
			return sv.Stack
		}
	}
	s.t.Fatalf("%s is not seated", id)
	return 0
}

func (s *script) toAct() string {
	v := s.tb.View("")
	for _, sv := range v.Seats {
		if sv.Seat == v.ToAct {
			return sv.Player
		}
	}
	return ""
}

// expect fails unless the seat asked now is id's.
func (s *script) expect(id string, phase chemin.Phase) {
	s.t.Helper()
	if got := s.toAct(); got != id || s.tb.Phase() != phase {
		s.t.Fatalf("asked %q in %s, want %q in %s", got, s.tb.Phase(), id, phase)
	}
}

func find(recs []poker.Record, k poker.Kind) []poker.Record {
	var out []poker.Record
	for _, r := range recs {
		if r.Kind == k {
			out = append(out, r)
		}
	}
	return out
}

func said(recs []poker.Record, m chemin.Message) bool {
	return slices.ContainsFunc(recs, func(r poker.Record) bool { return r.Kind == chemin.KindAnnounce && r.Action == string(m) })
}

func hasChoice(v chemin.View, k poker.ActionKind) bool {
	return slices.ContainsFunc(v.Choices, func(c chemin.Choice) bool { return c.Kind == k })
}

// bankAndNoBets opens a coup with ana's bank of amount and everyone saying
// no to the bancô, up to the betting round.
func (s *script) openBets(bank int64) {
	s.t.Helper()
	s.deal()
	s.expect("ana", chemin.Stake)
	s.act("ana", chemin.Bank, bank)
	for _, id := range []string{"bia", "caio", "duda", "eva"} {
		s.expect(id, chemin.BancoRound)
		s.act(id, chemin.NoBet)
	}
	if s.tb.Phase() != chemin.BetRound {
		s.t.Fatalf("phase %s after the bancô round", s.tb.Phase())
	}
}
