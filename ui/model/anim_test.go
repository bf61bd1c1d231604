package model

import (
	"testing"

	"github.com/openegm/cabinet/machine"
)

// spinView builds the view of a committed spin on the default paytable.
func spinView(t *testing.T, stops []int, mode string) machine.View {
	pt := defaultPaytable(t)
	sp, err := pt.Evaluate(stops, 0, false)
	if err != nil {
		t.Fatal(err)
	}
	v := sampleView()
	v.Mode, v.Game, v.Stops = mode, 7, stops
	for _, col := range pt.Window(stops, false) {
		var ids []string
		for _, s := range col {
			ids = append(ids, pt.Symbols[s].ID)
		}
		v.Window = append(v.Window, ids)
	}
	for _, l := range sp.Lines {
		v.Lines = append(v.Lines, machine.ViewLine{Line: l.Line, Symbol: pt.Symbols[l.Symbol].ID, Count: l.Count, Cents: l.Credits * v.Denom})
	}
	v.SpinWinCents, v.GameWinCents = sp.Win*v.Denom, sp.Win*v.Denom
	return v
}

// The reels turn when a committed spin is shown, land reel after reel on
// the view's window, and the meters do not tell the outcome before.
func TestReelsLandOnTheCommittedStops(t *testing.T) {
	stops := []int{3, 10, 20, 5, 40}
	s, c := newTestScreen(t, sampleView())
	v := spinView(t, stops, "spinning")
	v.GameWinCents = 12345
	v.Credits, v.CreditsCents = 960, 4800 // the bet is off
	c.view = v
	s.Update()
	if !s.Spinning() || s.Anim == nil || s.Anim.Strips == nil {
		t.Fatalf("no spin started (anim %+v)", s.Anim)
	}
	start := s.Tick
	sawMoving := false
	for s.Spinning() {
		for i := range stops {
			if !s.Anim.Stopped(i, s.Tick) && s.Anim.Pos(i, s.Tick) > 0.5 {
				sawMoving = true
			}
		}
		if w := s.ShownWin(); w != 0 {
			t.Fatalf("tick %d: the win meter shows %d before the reels land", s.Tick, w)
		}
		if s.Tick-start > 600 {
			t.Fatal("the reels never stop")
		}
		// Meanwhile the machine ends the game and credits the win.
		if s.Tick-start == 40 {
			c.view.Mode, c.view.Credits, c.view.CreditsCents = "idle", 3429, 17145
		}
		if cr, _ := s.ShownCredits(); cr != 960 {
			t.Fatalf("tick %d: credit meter shows %d while the reels turn", s.Tick, cr)
		}
		s.Update()
	}
	if !sawMoving {
		t.Error("the reels never moved")
	}
	for i := range stops {
		if p := s.Anim.Pos(i, s.Tick); p != 0 {
			t.Errorf("reel %d at rest is %v cells off", i, p)
		}
		for r, id := range v.Window[i] {
			if got := s.SymbolAt(i, r); got != id {
				t.Errorf("reel %d row %d shows %s, the committed window has %s", i, r, got, id)
			}
		}
	}
	// The win counts up to exactly the machine's figure.
	last := int64(0)
	for range countTicksPlus() {
		s.Update()
		w := s.ShownWin()
		if w < last {
			t.Fatalf("win meter went down: %d after %d", w, last)
		}
		last = w
	}
	if last != 12345 {
		t.Errorf("win meter ends at %d, want 12345", last)
	}
	if cr, _ := s.ShownCredits(); cr != 3429 {
		t.Errorf("credit meter after the spin shows %d", cr)
	}
}

func countTicksPlus() []struct{} { return make([]struct{}, countTicks+2) }

// A view that arrives already stopped (a restart, a recall) is not animated.
func TestNoSpinWithoutSpinning(t *testing.T) {
	s, _ := newTestScreen(t, spinView(t, []int{1, 2, 3, 4, 5}, "idle"))
	if s.Spinning() || s.Anim != nil {
		t.Error("an idle view started the reels")
	}
	if s.ShownWin() != s.V.GameWinCents {
		t.Error("the win meter must show the view's win at once")
	}
}

// Pressing spin while the reels turn stops them sooner, without a press.
func TestSlamStop(t *testing.T) {
	s, c := newTestScreen(t, sampleView())
	c.view = spinView(t, []int{3, 10, 20, 5, 40}, "spinning")
	s.Update()
	before := s.Anim.DoneAt()
	s.Key(KeySpin)
	if len(c.take()) != 0 {
		t.Error("spin during the animation was pressed through")
	}
	if s.Anim.DoneAt() >= before {
		t.Errorf("slam did not hurry the reels: done at %d, was %d", s.Anim.DoneAt(), before)
	}
}
