package holdem_test

import (
	"encoding/json"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/openegm/cabinet/cards"
	"github.com/openegm/cabinet/poker"
	"github.com/openegm/cabinet/poker/holdem"
	"github.com/openegm/cabinet/poker/pokertest"
	"github.com/openegm/cabinet/rng"
)

type script struct {
	*pokertest.Script
	tb *holdem.Table
}

func newScript(t *testing.T, cfg holdem.Config, src rng.Source) *script {
	t.Helper()
	tb, err := holdem.New(cfg, src)
	if err != nil {
		t.Fatal(err)
	}
	return &script{pokertest.NewScript(t, tb), tb}
}

var find = pokertest.Find

// deckFor plans a hand: hole cards in the order the engine deals them (from
// the small blind on), then the board.
func deckFor(holes []string, board string) *pokertest.Deck {
	return pokertest.NewDeck(cards.Standard52(), pokertest.Plan(holes, board))
}

func TestConfigNamesTheRuleBroken(t *testing.T) {
	for _, c := range []struct {
		change func(*holdem.Config)
		want   string
	}{
		{func(c *holdem.Config) { c.Seats = 11 }, "rule 5"},
		{func(c *holdem.Config) { c.InitialCave = 999 }, "rule 24"},
		{func(c *holdem.Config) { c.RakeBps = 600 }, "rule 20 a"},
		{func(c *holdem.Config) { c.RakeBps, c.FeeBps = 0, 2500 }, "rule 20 b"},
		{func(c *holdem.Config) { c.FeeBps = 1000 }, "operator chooses one"},
		{func(c *holdem.Config) { c.RakeBps = 0 }, "rule 19"},
		{func(c *holdem.Config) { c.DecisionTime = 4 * time.Second }, "rule 51"},
		{func(c *holdem.Config) { c.ExtraTime = 10 * time.Second }, "rule 52"},
		{func(c *holdem.Config) { c.ReplayHands = 2 }, "rule 78"},
		{func(c *holdem.Config) { c.Structure = "spread" }, "rule 27"},
		{func(c *holdem.Config) { c.Structure, c.SmallBet = holdem.FixedLimit, 50 }, "rule 26"},
		{func(c *holdem.Config) { c.MinRebuy = 50 }, "rule 18"},
	} {
		cfg := baseConfig()
		c.change(&cfg)
		if _, err := holdem.New(cfg, rng.NewSeeded(1)); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%+v: %v, want %q", cfg, err, c.want)
		}
	}
	if _, err := holdem.New(baseConfig(), rng.NewSeeded(1)); err != nil {
		t.Fatal(err)
	}
}

// Regression (found by the random sessions): a call of a dead big blind
// (the big blind's player rests, rule 82) was given back as an uncalled bet
// when everyone else folded, so the pot, and the rake on it, lacked the
// call. The call matched the blind: it stays in the pot.
func TestCallOfADeadBlindStaysInThePot(t *testing.T) {
	s := newScript(t, baseConfig(), rng.NewSeeded(7))
	for i, id := range []string{"ana", "bia", "caio", "duda"} {
		s.Join(id, i+1)
	}
	s.OK(poker.Rest{At: s.Now, Player: "bia", On: true})  // seat 2: the small blind
	s.OK(poker.Rest{At: s.Now, Player: "caio", On: true}) // seat 3: the big blind
	recs := s.Deal()
	if posts := find(recs, poker.KindPost); len(posts) != 2 || posts[0].Action != "dead_blind" || posts[1].Amount != 100 {
		t.Fatalf("posts %+v", posts)
	}
	s.Act("duda", poker.Call, 0) // seat 4, left of the big blind
	recs = s.Act("ana", poker.Fold, 0)
	if r := find(recs, poker.KindReturn); len(r) != 0 {
		t.Fatalf("the call was given back: %+v", r)
	}
	aw := find(recs, poker.KindAward)
	if len(aw) != 1 || aw[0].Amount != 250 || aw[0].Rake != 12 || aw[0].Shares[0] != (poker.Share{Seat: 4, Amount: 238}) {
		t.Fatalf("award %+v", aw)
	}
	if s.Stack("duda") != 10000-100+238 || s.Stack("bia") != 9950 || s.Stack("caio") != 9900 {
		t.Fatalf("stacks %+v", s.tb.View("").Seats)
	}
}

// Odd cents of a split pot go one each to the winners from the first seat
// left of the button; none vanish (a buy-in fee table: no rake).
func TestOddCentsOfASplitPot(t *testing.T) {
	cfg := baseConfig()
	cfg.RakeBps, cfg.FeeBps = 0, 1000
	// Button seat 1, small blind 2, big blind 3; seat 4 acts first. The
	// board is a royal flush: everyone who stays to the end ties.
	deck := deckFor([]string{"2C 3D", "4C 5D", "6C 7D", "8C 9D"}, "AS KS QS JS TS")
	s := newScript(t, cfg, deck)
	for i, id := range []string{"ana", "bia", "caio", "duda"} {
		s.Join(id, i+1)
	}
	s.Deal()
	s.Act("duda", poker.Raise, 301)
	s.Act("ana", poker.Call, 0)
	s.Act("bia", poker.Call, 0)
	s.Act("caio", poker.Call, 0)
	s.Act("bia", poker.Raise, 100) // flop
	s.Act("caio", poker.Call, 0)
	s.Act("duda", poker.Call, 0)
	s.Act("ana", poker.Fold, 0)
	for range 2 { // turn and river
		for _, id := range []string{"bia", "caio", "duda"} {
			s.Act(id, poker.Check, 0)
		}
	}
	aw := find(s.All, poker.KindAward)
	// 301 x 4 + 100 x 3 = 1504 among three: 502 to seat 2, then 501, 501.
	if len(aw) != 1 || aw[0].Amount != 1504 || aw[0].Rake != 0 ||
		!slices.Equal(aw[0].Shares, []poker.Share{{Seat: 2, Amount: 502}, {Seat: 3, Amount: 501}, {Seat: 4, Amount: 501}}) {
		t.Fatalf("award %+v", aw)
	}
	if len(find(s.All, poker.KindShow)) != 3 {
		t.Fatal("three hands should be shown")
	}
}

// Rule 39: two hands of five single cards of the same values; the one with
// three cards of a suit among them wins.
func TestThreeOfASuitBreaksAHighCardTie(t *testing.T) {
	// Seat 1 button and big blind (heads-up, rule 56 read literally), seat
	// 2 small blind, dealt first.
	deck := deckFor([]string{"QH 4C", "QS 3D"}, "AS KD 9S 5H 2C")
	s := newScript(t, baseConfig(), deck)
	s.Join("ana", 1)
	s.Join("bia", 2)
	s.Deal()
	s.Act("bia", poker.Call, 0)
	s.Act("ana", poker.Check, 0)
	for range 3 {
		s.Act("bia", poker.Check, 0)
		s.Act("ana", poker.Check, 0)
	}
	aw := find(s.All, poker.KindAward)
	if len(aw) != 1 || len(aw[0].Shares) != 1 || aw[0].Shares[0].Seat != 1 {
		t.Fatalf("award %+v: seat 1 (QS with AS 9S) should win", aw)
	}
}

// Heads-up, the blinds follow rule 56 to the letter: the small blind is
// left of the button, the big blind the button; the small blind acts first
// in every round.
func TestHeadsUpBlinds(t *testing.T) {
	s := newScript(t, baseConfig(), rng.NewSeeded(3))
	s.Join("ana", 3)
	s.Join("bia", 7)
	recs := s.Deal()
	if st := find(recs, poker.KindHandStart)[0]; st.Seat != 3 {
		t.Fatalf("button at seat %d, want 3 (the first seat from 1, rule 54)", st.Seat)
	}
	posts := find(recs, poker.KindPost)
	if posts[0].Seat != 7 || posts[0].Action != "small_blind" || posts[1].Seat != 3 || posts[1].Action != "big_blind" {
		t.Fatalf("posts %+v", posts)
	}
	if v := s.tb.View(""); v.ToAct != 7 {
		t.Fatalf("to act %d", v.ToAct)
	}
	s.Act("bia", poker.Call, 0)
	s.Act("ana", poker.Check, 0)
	if v := s.tb.View(""); v.ToAct != 7 || len(v.Board) != 3 {
		t.Fatalf("flop: to act %d, board %v", v.ToAct, v.Board)
	}
}

// The decision timer (rules 51-53): nothing before the deadline; at it, a
// check if the player can check, else a fold. The extra time once.
func TestDecisionTimer(t *testing.T) {
	s := newScript(t, baseConfig(), rng.NewSeeded(3))
	for i, id := range []string{"ana", "bia", "caio"} {
		s.Join(id, i+1)
	}
	s.Deal() // button 1, blinds 2 and 3: ana acts, facing the big blind
	dl := s.tb.Deadline()
	if !dl.Equal(s.Now.Add(10 * time.Second)) {
		t.Fatalf("deadline %v", dl)
	}
	if recs := s.OK(poker.Tick{At: dl.Add(-time.Millisecond)}); len(recs) != 0 {
		t.Fatalf("a tick before the deadline acted: %+v", recs)
	}
	s.OK(poker.Extra{At: dl.Add(-time.Millisecond), Player: "ana"})
	s.No(poker.Extra{At: dl, Player: "ana"}, "already given")
	s.No(poker.Extra{At: dl, Player: "bia"}, "not your turn")
	if recs := s.OK(poker.Tick{At: dl}); len(recs) != 0 {
		t.Fatalf("the extra time was not given: %+v", recs)
	}
	recs := s.OK(poker.Tick{At: dl.Add(5 * time.Second)})
	if a := find(recs, poker.KindAct); len(a) != 1 || a[0].Action != "fold" || !a[0].Timeout || a[0].Seat != 1 {
		t.Fatalf("timeout facing a bet: %+v", a)
	}
	s.Now = dl.Add(5 * time.Second)
	s.Act("bia", poker.Call, 0)
	recs = s.OK(poker.Tick{At: s.tb.Deadline()}) // the big blind may check
	if a := find(recs, poker.KindAct); len(a) != 1 || a[0].Action != "check" || !a[0].Timeout {
		t.Fatalf("timeout with a check: %+v", a)
	}
}

// A newcomer at a table in play pays the average cave (rule 10); the first
// players pay the initial cave (rule 9). With a buy-in fee, the fee is cut
// from it (rule 20 b).
func TestCaves(t *testing.T) {
	cfg := baseConfig()
	cfg.RakeBps, cfg.FeeBps = 0, 1000
	s := newScript(t, cfg, rng.NewSeeded(5))
	s.No(poker.Join{At: s.Now, Player: "ana", Seat: 1, Amount: 5000}, "10000 cents")
	recs := s.OK(poker.Join{At: s.Now, Player: "ana", Seat: 1, Amount: 10000})
	if j := recs[0]; j.Fee != 1000 || j.Stack != 9000 {
		t.Fatalf("join %+v", j)
	}
	s.Join("bia", 2)
	s.Deal()
	s.Act("bia", poker.Raise, 500) // heads-up: seat 2 is the small blind, first to act
	s.Act("ana", poker.Fold, 0)
	avg := (s.Stack("ana") + s.Stack("bia")) / 2
	if s.tb.RequiredCave() != avg || avg != 9000 {
		t.Fatalf("required %d, average %d", s.tb.RequiredCave(), avg)
	}
	s.No(poker.Join{At: s.Now, Player: "ana", Seat: 3, Amount: avg}, "already has a seat")
	s.No(poker.Join{At: s.Now, Player: "caio", Seat: 2, Amount: avg}, "taken")
	s.Join("caio", 0) // a drawn seat
	if v := s.tb.View(""); len(v.Seats) != 3 {
		t.Fatalf("seats %+v", v.Seats)
	}
}

// Leaving during a hand folds the player and cashes him out when it ends
// (rule 13); re-buys wait for the end of the hand (rule 14 b); a player
// below the minimum bet is not dealt until he buys again (rule 18).
func TestLeaveRebuyAndShortStacks(t *testing.T) {
	s := newScript(t, baseConfig(), rng.NewSeeded(9))
	for i, id := range []string{"ana", "bia", "caio"} {
		s.Join(id, i+1)
	}
	s.Deal()
	s.No(poker.Rebuy{At: s.Now, Player: "ana", Amount: 5000}, "rule 14 b")
	s.Act("ana", poker.Call, 0)
	recs := s.OK(poker.Leave{At: s.Now, Player: "bia"}) // the small blind, not his turn
	if a := find(recs, poker.KindAct); len(a) != 1 || a[0].Action != "fold" || a[0].Reason != "leave" {
		t.Fatalf("leave in a hand: %+v", recs)
	}
	if len(find(recs, poker.KindLeave)) != 0 {
		t.Fatal("cashed out before the hand ended")
	}
	s.Act("caio", poker.Check, 0)
	for range 3 {
		s.Act("caio", poker.Check, 0)
		recs = s.Act("ana", poker.Check, 0)
	}
	l := find(recs, poker.KindLeave)
	if len(l) != 1 || l[0].Player != "bia" || l[0].Amount != 9950 || l[0].Totals.Net() != -50 {
		t.Fatalf("leave %+v", l)
	}
	s.No(poker.Rebuy{At: s.Now, Player: "ana", Amount: 1999}, "rule 17")
	s.OK(poker.Rebuy{At: s.Now, Player: "ana", Amount: 2000})
}

// The limits of each structure as the player to act sees them (rule 27).
func TestStructuresAtTheTable(t *testing.T) {
	for _, c := range []struct {
		s        holdem.Structure
		min, max int64
	}{{holdem.NoLimit, 200, 10000}, {holdem.PotLimit, 200, 350}, {holdem.HalfPotLimit, 200, 225}, {holdem.FixedLimit, 200, 200}} {
		cfg := baseConfig()
		cfg.Structure = c.s
		s := newScript(t, cfg, rng.NewSeeded(1))
		for i, id := range []string{"ana", "bia", "caio"} {
			s.Join(id, i+1)
		}
		s.Deal()
		o := s.tb.View("ana").Options
		if o == nil || o.MinTo != c.min || o.MaxTo != c.max || o.Call != 100 {
			t.Errorf("%s: %+v", c.s, o)
		}
		if s.tb.View("bia").Options != nil {
			t.Errorf("%s: options shown to a player whose turn it is not", c.s)
		}
	}
}

// The last three hands of a player replay (rule 78); a refused event
// changes nothing; time does not go back.
func TestReplayAndRefusals(t *testing.T) {
	s := newScript(t, baseConfig(), rng.NewSeeded(11))
	s.Join("ana", 1)
	s.Join("bia", 2)
	for range 5 {
		s.Deal()
		s.CallDown()
	}
	last := s.tb.LastHands("ana")
	if len(last) != 3 || last[0][0].Hand != 3 || last[2][0].Hand != 5 {
		t.Fatalf("%d hands kept", len(last))
	}
	for _, h := range last {
		frames, err := poker.Replay(h, "ana")
		if err != nil {
			t.Fatal(err)
		}
		end := frames[len(frames)-1]
		if len(end.Board) != 5 || end.Pot != 0 {
			t.Fatalf("end frame %+v", end)
		}
	}
	before := s.tb.View("ana")
	s.No(poker.Act{At: s.Now, Player: "ana", Action: poker.Action{Kind: poker.Check}}, "not in a hand")
	s.No(poker.Deal{At: s.Now.Add(-time.Hour)}, "before the table's time")
	s.No(poker.Join{At: s.Now, Player: "caio", Seat: 12, Amount: s.tb.RequiredCave()}, "seats 1 to 10")
	if after := s.tb.View("ana"); after.Hand != before.Hand || len(after.Seats) != len(before.Seats) {
		t.Fatal("a refused event changed the table")
	}
}

// Records survive JSON (the form a ledger will keep them in) and the hands
// replay from what was read back.
func TestRecordsRoundTripJSON(t *testing.T) {
	s := newScript(t, baseConfig(), rng.NewSeeded(21))
	s.Join("ana", 1)
	s.Join("bia", 2)
	s.Join("caio", 3)
	for range 3 {
		s.Deal()
		s.Act(s.ToAct(), poker.Raise, 300)
		s.CallDown()
	}
	s.OK(poker.Leave{At: s.Now, Player: "caio"})
	b, err := json.Marshal(s.All)
	if err != nil {
		t.Fatal(err)
	}
	var back []poker.Record
	if err := json.Unmarshal(b, &back); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(back, s.All) {
		t.Fatalf("records changed through JSON:\n%s", b)
	}
	var hand []poker.Record
	for _, r := range back {
		if r.Hand == 3 {
			hand = append(hand, r)
		}
	}
	if _, err := poker.Replay(hand, "ana"); err != nil {
		t.Fatal(err)
	}
	if l := find(back, poker.KindLeave); len(l) != 1 || l[0].Totals == nil || l[0].Totals.Hands != 3 {
		t.Fatalf("leave %+v", l)
	}
}
