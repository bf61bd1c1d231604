package holdem_test

import (
	"testing"

	"github.com/openegm/cabinet/poker"
	"github.com/openegm/cabinet/rng"
)

// SRIJ rule 86: a hand stopped by a failure of the operator's system is
// void and the money on the table goes back; rule 54: a table that resumes
// gives the hand to seat 1 again. A player who asked to leave during the
// voided hand is cashed out with his whole stake.
func TestResumeVoidsTheHandInPlay(t *testing.T) {
	s := newScript(t, baseConfig(), rng.NewSeeded(3))
	for i, id := range []string{"ana", "bia", "caio"} {
		s.Join(id, i+1)
	}
	s.Deal()
	s.CallDown() // hand 1 at button 1
	before := map[string]int64{}
	for _, id := range []string{"ana", "bia", "caio"} {
		before[id] = s.Stack(id)
	}
	s.Deal() // hand 2: button 2, blinds from caio (3) and ana (1); bia acts first
	if s.tb.Button() != 2 {
		t.Fatalf("button %d", s.tb.Button())
	}
	s.Act("bia", poker.Raise, 500)
	s.OK(poker.Leave{At: s.Now, Player: "caio"}) // folds his small blind; cashed out at the hand's end
	recs := s.OK(poker.Resume{At: s.Now})
	void := find(recs, poker.KindVoid)
	if len(void) != 1 || void[0].Hand != 2 {
		t.Fatalf("no void of hand 2: %+v", recs)
	}
	back := map[int]int64{}
	for _, sh := range void[0].Shares {
		back[sh.Seat] = sh.Amount
	}
	if back[1] != 100 || back[2] != 500 || back[3] != 50 || len(back) != 3 {
		t.Fatalf("stakes given back %+v", void[0].Shares)
	}
	leave := find(recs, poker.KindLeave)
	if len(leave) != 1 || leave[0].Player != "caio" || leave[0].Amount != before["caio"] ||
		leave[0].Totals.Wagered+leave[0].Totals.CashedOut != leave[0].Totals.BoughtIn+leave[0].Totals.Won {
		t.Fatalf("caio's cash-out %+v", leave)
	}
	for _, id := range []string{"ana", "bia"} {
		if s.Stack(id) != before[id] {
			t.Errorf("%s has %d after the void, %d before the hand", id, s.Stack(id), before[id])
		}
	}
	if s.tb.Button() != 0 || s.tb.Fault() != nil {
		t.Fatalf("button %d after resuming, fault %v", s.tb.Button(), s.tb.Fault())
	}
	if last := s.tb.LastHands("ana"); len(last) != 1 || last[0][0].Hand != 1 {
		t.Fatalf("the void hand is in the replay: %d hands", len(last))
	}
	recs = s.Deal()
	if start := find(recs, poker.KindHandStart); len(start) != 1 || start[0].Seat != 1 || start[0].Hand != 3 {
		t.Fatalf("the hand after resuming: %+v", start)
	}
	// Nothing in play: resuming voids nothing.
	s.CallDown()
	if recs := s.OK(poker.Resume{At: s.Now}); len(recs) != 0 {
		t.Fatalf("resume between hands: %+v", recs)
	}
}
