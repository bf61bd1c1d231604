package machine

import (
	"reflect"
	"testing"
	"time"

	"github.com/openegm/cabinet/meters"
	"github.com/openegm/cabinet/reels"
)

// toTrigger plays games (no screen: every step on its timeout) until a
// spin awards free games, and returns that spin's record, with the trigger
// spin on screen.
func (h *harness) toTrigger() meters.GameStart {
	h.t.Helper()
	for range 2000 {
		if h.m.st.Get(meters.Credits) < h.m.betCents() {
			h.bill(10000)
		}
		eff := h.press(BtnSpin)
		if eff.Refused != "" {
			h.t.Fatalf("spin refused: %s", eff.Refused)
		}
		gs := eff.Records[0].(meters.GameStart)
		if gs.FreeAwarded > 0 {
			return gs
		}
		for h.m.phase == spinning {
			h.advance(h.m.presentTimeout())
		}
	}
	h.t.Fatal("no free games in 2000 games")
	return meters.GameStart{}
}

// present is the step on screen (the test fails without one).
func (h *harness) present() Presentation {
	h.t.Helper()
	p := h.m.View().Present
	if p == nil {
		h.t.Fatalf("no presentation in the view (mode %s)", h.m.View().Mode)
	}
	return *p
}

// freeGames counts the free games recorded so far.
func (h *harness) freeGames() int {
	n := 0
	for _, r := range h.records {
		if _, ok := r.(meters.FreeGame); ok {
			n++
		}
	}
	return n
}

// A trigger is presented before any free game: the spin, then the
// feature with its games, then the wait for the start; free game 1 is
// drawn only when the player presses spin (or the timeout passes), and
// its counter says "1 of 10" from the first free game.
func TestFeatureIsPresentedBeforeItsFirstGame(t *testing.T) {
	h := newHarness(t, testCfg, nil, 7)
	h.power()
	h.bill(20000)
	gs := h.toTrigger()
	if p := h.present(); p.Kind != PresentSpin {
		t.Fatalf("the trigger's spin is presented as %+v", p)
	}
	// The screen is slow: time passes short of every timeout.
	before := h.freeGames()
	h.advance(testCfg.SpinTime) // the reels' own time is up
	for h.present().Kind == PresentWin {
		h.step(Presented{At: h.now, ID: h.present().ID})
	}
	p := h.present()
	if p.Kind != PresentFeature || p.Games != gs.FreeAwarded || p.Tier != TierFeature {
		t.Fatalf("after the trigger's spin: %+v, want the feature with %d games", p, gs.FreeAwarded)
	}
	h.advance(h.m.presentTimeout() / 2)
	if h.freeGames() != before || h.present().ID != p.ID {
		t.Fatal("the feature went on before its trigger was presented or timed out")
	}
	h.step(Presented{At: h.now, ID: p.ID})
	s := h.present()
	if s.Kind != PresentFreeStart || s.Games != gs.FreeAwarded || s.Press {
		t.Fatalf("after the trigger was presented: %+v, want the wait for the start", s)
	}
	// The screen's word does not start the feature: the player does.
	h.step(Presented{At: h.now, ID: s.ID})
	if h.freeGames() != before {
		t.Fatal("the screen's presented started the feature")
	}
	h.press(BtnSpin)
	if h.freeGames() != before+1 {
		t.Fatalf("spin pressed at the start: %d free games recorded, want 1", h.freeGames()-before)
	}
	v := h.m.View()
	if !v.Free || v.FreePlayed != 1 || v.FreeTotal < gs.FreeAwarded || v.FreeTotal != 1+v.FreeLeft {
		t.Fatalf("free game 1: free %v, played %d, total %d, left %d", v.Free, v.FreePlayed, v.FreeTotal, v.FreeLeft)
	}
	if v.Present == nil || v.Present.Kind != PresentSpin {
		t.Fatalf("free game 1 is not presented as a spin: %+v", v.Present)
	}
}

// Without a screen every step goes on at its timeout: the feature starts
// on its own, and a stale or unknown ID changes nothing.
func TestPresentationTimeoutAndStaleIDs(t *testing.T) {
	h := newHarness(t, testCfg, nil, 7)
	h.power()
	h.bill(20000)
	h.toTrigger()
	spin := h.present()
	h.advance(testCfg.SpinTime)
	for h.present().Kind == PresentWin {
		h.advance(h.m.presentTimeout())
	}
	feature := h.present()
	if feature.Kind != PresentFeature {
		t.Fatalf("after the spin's time: %+v", feature)
	}
	for _, id := range []uint64{0, spin.ID, feature.ID + 1, feature.ID + 1000} {
		h.step(Presented{At: h.now, ID: id})
		if h.present().ID != feature.ID {
			t.Fatalf("presented with ID %d (on screen %d) moved the game on", id, feature.ID)
		}
	}
	before := h.freeGames()
	h.advance(h.m.presentTimeout())
	if p := h.present(); p.Kind != PresentFreeStart || h.freeGames() != before {
		t.Fatalf("after the feature's timeout: %+v, %d free games", p, h.freeGames()-before)
	}
	h.advance(h.m.presentTimeout())
	if h.freeGames() != before+1 {
		t.Fatalf("the feature did not start on its own: %d free games", h.freeGames()-before)
	}
}

// A paytable whose feature starts on the player's press waits for it,
// however long.
func TestFeatureStartsOnPressWhenThePaytableSaysSo(t *testing.T) {
	h := newHarness(t, testCfg, nil, 7)
	pt := *h.m.pt
	free := *pt.Free
	free.Press = true
	pt.Free = &free
	h.m.pt = &pt
	h.power()
	h.bill(20000)
	h.toTrigger()
	for h.present().Kind != PresentFreeStart {
		h.advance(h.m.presentTimeout())
	}
	if !h.present().Press {
		t.Fatal("the wait does not say it needs the player's press")
	}
	before := h.freeGames()
	for range 20 {
		h.advance(time.Minute)
	}
	if h.freeGames() != before {
		t.Fatal("the feature started without the player's press")
	}
	h.press(BtnSpin)
	if h.freeGames() != before+1 {
		t.Fatal("the press did not start the feature")
	}
}

// outcomes are the committed stops and wins of every game, without times.
func outcomes(records []meters.Record) []any {
	var out []any
	for _, r := range records {
		switch r := r.(type) {
		case meters.GameStart:
			out = append(out, [3]any{"start", r.Stops, r.WinCents})
		case meters.FreeGame:
			out = append(out, [3]any{"free", r.Stops, r.WinCents})
		case meters.GameEnd:
			out = append(out, [3]any{"end", r.Game, r.WinCents})
		}
	}
	return out
}

// The same seed and presses give the same outcomes whether a screen
// presents every step at once or no screen answers (every step on its
// timeout): presentation never changes an outcome.
func TestOutcomesDoNotDependOnTheScreen(t *testing.T) {
	run := func(screen bool) []any {
		h := newHarness(t, testCfg, nil, 7)
		h.power()
		h.bill(50000)
		features := 0
		for range 120 {
			if h.m.st.Get(meters.Credits) < h.m.betCents() {
				h.bill(50000)
			}
			h.press(BtnSpin)
			for i := 0; h.m.phase == spinning; i++ {
				if i > 5000 {
					t.Fatal("game never ends")
				}
				p := h.m.View().Present
				switch {
				case screen && p != nil && p.Kind == PresentFreeStart:
					features++
					h.press(BtnSpin)
				case screen && p != nil:
					h.now = h.now.Add(time.Millisecond)
					h.step(Presented{At: h.now, ID: p.ID})
				default:
					h.advance(h.m.presentTimeout())
				}
			}
		}
		if screen && features == 0 {
			t.Fatal("no feature in 120 games: the test does not cover it")
		}
		return outcomes(h.records)
	}
	with, without := run(true), run(false)
	if !reflect.DeepEqual(with, without) {
		t.Fatal("the outcomes with a screen differ from those without one")
	}
}

// A power loss mid-presentation: the new machine shows the spin on screen
// again and presents its steps again from the ledger (the trigger's
// announcement included); no free game is drawn twice, none is lost.
func TestResumeMidPresentation(t *testing.T) {
	h := newHarness(t, testCfg, nil, 7)
	h.power()
	h.bill(20000)
	gs := h.toTrigger()
	h.advance(testCfg.SpinTime)
	for h.present().Kind == PresentWin {
		h.advance(h.m.presentTimeout())
	}
	old := h.present()
	if old.Kind != PresentFeature {
		t.Fatalf("not at the trigger's presentation: %+v", old)
	}
	committed := h.ledger.Clone()
	h2 := newHarness(t, testCfg, committed, 999)
	h2.now = h.now.Add(time.Minute)
	h2.power()
	v := h2.m.View()
	if v.Present == nil || v.Present.Kind != PresentSpin || !reflect.DeepEqual(v.Stops, gs.Stops) {
		t.Fatalf("resumed: %+v on stops %v, want the trigger's spin %v again", v.Present, v.Stops, gs.Stops)
	}
	// A word about the presentation before the power loss is stale.
	h2.step(Presented{At: h2.now, ID: old.ID})
	if p := h2.present(); p.Kind != PresentSpin {
		t.Fatalf("a presentation from before the power loss moved the game on: %+v", p)
	}
	h2.advance(testCfg.SpinTime)
	for h2.present().Kind == PresentWin {
		h2.advance(h2.m.presentTimeout())
	}
	if p := h2.present(); p.Kind != PresentFeature || p.Games != gs.FreeAwarded {
		t.Fatalf("the trigger is not presented again: %+v", p)
	}
	// Play it out; then mid-total: lose power again on the total.
	for h2.m.phase == spinning {
		if p := h2.m.View().Present; p != nil && p.Kind == PresentTotal {
			break
		}
		h2.advance(h2.m.presentTimeout())
	}
	p := h2.present()
	if p.Kind != PresentTotal || p.Tier != TierFeature || p.Cents != gameWin(h2.ledger.Open) {
		t.Fatalf("the feature ends without its total: %+v", p)
	}
	h3 := newHarness(t, testCfg, h2.ledger.Clone(), 1234)
	h3.now = h2.now.Add(time.Minute)
	h3.power()
	for h3.m.phase == spinning {
		h3.advance(h3.m.presentTimeout())
	}
	for _, r := range h3.records {
		switch r.(type) {
		case meters.GameStart, meters.FreeGame:
			t.Fatalf("the resumed game drew again: %T", r)
		}
	}
	last := h3.ledger.Games[len(h3.ledger.Games)-1]
	if last.Start.Game != gs.Game || last.End == nil || len(last.Free) < gs.FreeAwarded {
		t.Fatalf("game %d ended %v with %d free games", last.Start.Game, last.End, len(last.Free))
	}
}

// Wins are tiered by their size against the bet, and a base game's big
// win is presented before the game ends.
func TestWinTiers(t *testing.T) {
	h := newHarness(t, testCfg, nil, 7)
	h.power()
	pt := h.m.pt
	bet := pt.Bet(0)
	g := &meters.GameHistory{Start: meters.GameStart{Level: 0, Denom: 1}}
	for _, c := range []struct {
		win  int64
		free bool
		want string
	}{
		{0, false, ""}, {bet, false, ""}, {bet, true, TierLine}, {BigWinX * bet, false, TierBig},
		{MegaWinX * bet, true, TierMega},
	} {
		h.m.shown = &reels.Spin{Win: c.win, Free: c.free}
		if got := h.m.tierOf(g); got != c.want {
			t.Errorf("win %d (free %v) at a bet of %d: tier %q, want %q", c.win, c.free, bet, got, c.want)
		}
	}
}
