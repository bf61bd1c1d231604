package model

import (
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/openegm/cabinet/assets"
	"github.com/openegm/cabinet/machine"
	"github.com/openegm/cabinet/ui/demo"
)

// A feature on the real machine core with a screen that presents: the
// trigger's scatters are celebrated, then its games announced, and the
// machine draws no free game until the screen said so and the player
// pressed spin; the first free game reads "1 de 10" (the awarded total);
// the win meter carries the feature's win; the total is presented before
// the game ends. Each step goes on by the screen's word: the machine's
// clock moves with the screen's ticks and never reaches a step's timeout.
func TestFeaturePresentedInOrder(t *testing.T) {
	pt, err := assets.LoadPaytable(assets.DefaultGame)
	if err != nil {
		t.Fatal(err)
	}
	c := demo.New(pt, demo.Config{MachineID: "EGM-TEST", Denom: 1, Seed: 3, NoJackpot: true})
	s := NewScreen(c, false)
	tick := func() {
		c.Advance(time.Second / 60)
		s.Update()
	}
	for range 10 {
		c.InsertBill(100_00)
	}
	// Play until a spin triggers the feature.
	for games := 0; ; games++ {
		if games > 3000 {
			t.Fatal("no feature in 3000 games")
		}
		c.Press(machine.BtnSpin)
		if c.View().FreeAwarded > 0 {
			break
		}
		for c.View().Mode == "spinning" {
			c.Advance(10 * time.Second)
		}
	}
	awarded := c.View().FreeAwarded
	s.Update()
	var kinds []string
	var stepTicks []int
	started, firstBanner, lastWin := false, "", int64(0)
	celebrated, announced := false, false
	for i := 0; ; i++ {
		if i > 60*60*10 {
			t.Fatalf("the game did not end in 10 minutes of screen time: steps %v", kinds)
		}
		tick()
		v := c.View()
		if v.Mode != "spinning" {
			break
		}
		if p, k, ok := s.Showing(); ok {
			if n := len(kinds); n == 0 || kinds[n-1] != p.Kind {
				kinds = append(kinds, p.Kind)
				stepTicks = append(stepTicks, 0)
			}
			stepTicks[len(stepTicks)-1] = k
			cel, drawn := s.CelebrationNow()
			if p.Kind == machine.PresentFeature {
				if v.FreePlayed != 0 {
					t.Fatal("a free game was drawn during the trigger's presentation")
				}
				if drawn && cel.Scatters {
					celebrated = true
				}
				if drawn && cel.Title == T("pt", "feature_games", Itoa(awarded)) {
					if !celebrated {
						t.Fatal("the games were announced before the scatters were celebrated")
					}
					announced = true
				}
			}
			if p.Kind == machine.PresentFreeStart && !started {
				if !announced || v.FreePlayed != 0 {
					t.Fatalf("the wait for the start: announced %v, %d free games played", announced, v.FreePlayed)
				}
				started = true
				s.Key(KeySpin)
				continue
			}
		}
		if s.V.Free && firstBanner == "" {
			// While free game 1's reels still turn: the count is the
			// awarded total from the start.
			firstBanner = s.FreeBanner()
		}
		if s.V.Free && !s.Spinning() {
			if w := s.WinMeter(); w < lastWin {
				t.Fatalf("the win meter went down during the feature: %d after %d", w, lastWin)
			} else {
				lastWin = w
			}
		}
	}
	t.Logf("steps %v, first banner %q, win meter %d", kinds, firstBanner, lastWin)
	if !strings.HasPrefix(firstBanner, T("pt", "free_game_n", "1", Itoa(awarded))) {
		t.Errorf("free game 1's banner %q, want %q", firstBanner, T("pt", "free_game_n", "1", Itoa(awarded)))
	}
	if len(kinds) < 4 || kinds[0] != machine.PresentSpin || kinds[len(kinds)-1] != machine.PresentTotal {
		t.Fatalf("steps %v: want the spin first and the total last", kinds)
	}
	want := []string{machine.PresentSpin, machine.PresentFeature, machine.PresentFreeStart, machine.PresentSpin}
	got := []string{}
	for _, k := range kinds {
		if k != machine.PresentWin && len(got) < len(want) {
			got = append(got, k)
		}
	}
	if strings.Join(got, " ") != strings.Join(want, " ") {
		t.Fatalf("steps %v: want %v first (wins aside)", kinds, want)
	}
	for i, k := range kinds {
		if k == machine.PresentFeature && stepTicks[i] < PresentTicks(machine.Presentation{Kind: k}) {
			t.Errorf("the trigger's presentation was cut short after %d ticks", stepTicks[i])
		}
	}
	last := c.View()
	if last.GameWinCents != lastWin && last.CreditedCents > 0 {
		t.Errorf("the win meter reached %d during the feature; the game won %d", lastWin, last.GameWinCents)
	}
}

// A win's celebration is cut short by the player's press; the feature's
// announcement is not.
func TestSkipOnlyWins(t *testing.T) {
	c := &fakeCabinet{}
	s := NewScreen(c, false)
	v := sampleView()
	v.Mode, v.GameOpen = "spinning", true
	v.Present = &machine.Presentation{ID: 5, Kind: machine.PresentFeature, Tier: machine.TierFeature, Games: 10}
	c.view = v
	s.Update()
	if s.SkipPresentation() {
		t.Fatal("the trigger's announcement was cut short")
	}
	v.Present = &machine.Presentation{ID: 6, Kind: machine.PresentWin, Tier: machine.TierBig, Cents: 500, Skippable: true}
	c.view = v
	s.Update()
	if cel, ok := s.CelebrationNow(); !ok || cel.Title != T("pt", "big_win") {
		t.Fatalf("a big win's celebration: %+v %v", cel, ok)
	}
	if !s.SkipPresentation() {
		t.Fatal("a big win's celebration could not be cut short")
	}
	if cel, _ := s.CelebrationNow(); cel.Text != Euro("pt", 500) {
		t.Fatalf("cut short, the amount reads %q, want the whole win", cel.Text)
	}
	if !slices.Equal(c.calls, []string{"presented 6"}) {
		t.Fatalf("calls %v, want the win's presented only", c.calls)
	}
}

// A big win's panel and the win meter count up together, to the win.
func TestBigWinCountsUp(t *testing.T) {
	c := &fakeCabinet{}
	s := NewScreen(c, false)
	v := sampleView()
	v.Mode, v.GameOpen, v.GameWinCents, v.SpinWinCents = "spinning", true, 400, 400
	v.Present = &machine.Presentation{ID: 9, Kind: machine.PresentWin, Tier: machine.TierBig, Cents: 400, Skippable: true}
	c.view = v
	s.Update()
	prev := int64(-1)
	for range PresentTicks(*v.Present) + 5 {
		s.Update()
		cel, ok := s.CelebrationNow()
		if !ok || cel.Title != T("pt", "big_win") {
			t.Fatalf("no big win celebration: %+v", cel)
		}
		w := s.WinMeter()
		if w < prev || w > 400 {
			t.Fatalf("the win meter went from %d to %d", prev, w)
		}
		prev = w
	}
	if prev != 400 || !slices.Equal(c.calls, []string{"presented 9"}) {
		t.Fatalf("after the count: meter %d, calls %v", prev, c.calls)
	}
	mega := *v.Present
	mega.Tier = machine.TierMega
	if countFor(mega) <= countFor(*v.Present) {
		t.Error("a mega win counts no longer than a big win")
	}
}

// The inspector's "Jogo grátis 1 de 1": a screen that did not see the
// trigger land (it was slow, or started mid-feature) still counts free
// game 1 out of the games awarded, while its reels turn and after.
func TestFreeCounterFromTheFirstGame(t *testing.T) {
	pt, err := assets.LoadPaytable(assets.DefaultGame)
	if err != nil {
		t.Fatal(err)
	}
	stops, sp := triggerStops(t, pt)
	c := &fakeCabinet{pt: pt}
	s := NewScreen(c, false)
	base := viewOf(t, pt, stops, false)
	base.GameOpen, base.FreeLeft, base.FreeTotal, base.FreeAwarded = true, sp.FreeAwarded, sp.FreeAwarded, sp.FreeAwarded
	c.view = base
	s.Update()
	s.Update() // the trigger's reels turn: the next view is free game 1's
	f := viewOf(t, pt, stops, true)
	f.GameOpen, f.FreePlayed, f.FreeLeft, f.FreeTotal = true, 1, sp.FreeAwarded-1, sp.FreeAwarded
	c.view = f
	want := T("pt", "free_game_n", "1", Itoa(sp.FreeAwarded))
	for i := 0; i < 2 || s.Spinning(); i++ {
		s.Update()
		if fb := s.FreeBanner(); !strings.HasPrefix(fb, want) {
			t.Fatalf("free game 1 (reels turning %v): top bar %q, want %q", s.Spinning(), fb, want)
		}
	}
}

// An operator's short timeouts shorten the screen's presentation so it
// ends before the machine goes on without it: a feature's announcement
// is still shown, and reels that would turn past a short spin time are
// slammed to land in time.
func TestPresentationFitsTheTimeout(t *testing.T) {
	c := &fakeCabinet{}
	s := NewScreen(c, false)
	v := sampleView()
	v.Mode, v.GameOpen = "spinning", true
	v.Present = &machine.Presentation{ID: 1, Kind: machine.PresentFeature, Tier: machine.TierFeature, Games: 10, TimeoutMS: 1000}
	c.view = v
	limit := 60 - latencyTicks
	if n := PresentTicks(*v.Present); n > limit || n <= 0 {
		t.Fatalf("a feature presented in %d ticks with a 1 s timeout (limit %d)", n, limit)
	}
	announced := false
	for range limit + 2 {
		s.Update()
		if cel, ok := s.CelebrationNow(); ok && cel.Title == T("pt", "feature_games", "10") {
			announced = true
		}
	}
	if !announced || !slices.Equal(c.calls, []string{"presented 1"}) {
		t.Fatalf("announced %v, calls %v", announced, c.calls)
	}

	pt, err := assets.LoadPaytable(assets.DefaultGame)
	if err != nil {
		t.Fatal(err)
	}
	stops, _ := triggerStops(t, pt)
	sv := viewOf(t, pt, stops, false)
	sv.Present = &machine.Presentation{ID: 2, Kind: machine.PresentSpin, TimeoutMS: 1000}
	c.view, c.calls = sv, nil
	s.Update()
	start := s.Tick
	for s.Spinning() {
		s.Update()
	}
	if took := s.Tick - start; took > limit {
		t.Fatalf("the reels took %d ticks to land with a 1 s spin time (limit %d)", took, limit)
	}
}
