package sound

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/openegm/cabinet/machine"
	"github.com/openegm/cabinet/reels"
	"github.com/openegm/cabinet/ui/model"
)

// cabinet serves the view a test sets.
type cabinet struct{ v machine.View }

func (c *cabinet) View() machine.View         { return c.v }
func (c *cabinet) Paytable() *reels.Certified { return nil }
func (c *cabinet) Press(string)               {}
func (c *cabinet) SetSwitch(string, bool)     {}
func (c *cabinet) Switch(string) bool         { return false }
func (c *cabinet) InsertBill(int64)           {}
func (c *cabinet) Service(machine.Event)      {}

// rig is a screen model and a watcher stepped together, with every cue
// and the tick it came at.
type rig struct {
	c    *cabinet
	s    *model.Screen
	w    Watcher
	cues []string // "tick:cue"
}

func newRig(v machine.View) *rig {
	c := &cabinet{v: v}
	return &rig{c: c, s: model.NewScreen(c, false)}
}

// run steps n frames.
func (r *rig) run(n int) {
	for range n {
		r.s.Update()
		for _, c := range r.w.Step(r.s, nil) {
			r.cues = append(r.cues, fmt.Sprintf("%d:%s", r.s.Tick, c))
		}
	}
}

// take returns the cues so far without their ticks, and forgets them.
func (r *rig) take() []string {
	var out []string
	for _, c := range r.cues {
		out = append(out, c[strings.Index(c, ":")+1:])
	}
	r.cues = nil
	return out
}

func idle() machine.View {
	return machine.View{MachineID: "EGM-T", Lang: "pt", Mode: "idle", Denom: 1, Credits: 500, CreditsCents: 500, BetCredits: 20, BetCents: 20}
}

// spin is a committed spin of game n as the machine shows it.
func spin(n uint64, win int64) machine.View {
	v := idle()
	v.Mode, v.Game, v.Stops = "spinning", n, []int{1, 2, 3, 4, 5}
	for i := range 5 {
		v.Window = append(v.Window, []string{"A", "K", fmt.Sprint("Q", i)})
	}
	v.SpinWinCents, v.GameWinCents = win, win
	if win > 0 {
		v.Lines = []machine.ViewLine{{Line: 0, Symbol: "A", Count: 3, Cents: win}}
	}
	return v
}

func landed(v machine.View) machine.View { v.Mode = "idle"; return v }

// A spin: one start, each reel's stop in order at the tick it lands on
// screen, the loop's end with the last; no win, no jingle.
func TestWatcherSpin(t *testing.T) {
	r := newRig(idle())
	r.run(10)
	if got := r.take(); len(got) != 0 {
		t.Fatalf("idle: %v", got)
	}
	r.c.v = spin(1, 0)
	r.run(1)
	a := r.s.Anim
	if a == nil {
		t.Fatal("the screen does not spin")
	}
	r.c.v = landed(spin(1, 0)) // the machine is done long before the screen
	r.run(200)
	want := []string{fmt.Sprintf("%d:spin_start", a.Start)}
	for i, at := range a.StopAt {
		want = append(want, fmt.Sprintf("%d:reel_stop%d", at, i))
	}
	want = append(want, fmt.Sprintf("%d:spin_end", a.StopAt[4]))
	if !slices.Equal(r.cues, want) {
		t.Errorf("cues\n%v\nwant\n%v", r.cues, want)
	}
}

// A win: the jingle when the reels have landed and the meter counts,
// scaled by the win against the bet; a jackpot line gives the fanfare.
func TestWatcherWin(t *testing.T) {
	for _, c := range []struct {
		win  int64
		jp   bool
		want string
	}{
		{10, false, "win1"}, {60, false, "win2"}, {300, false, "win3"}, {5000, false, "win4"}, {300, true, "jackpot"},
	} {
		r := newRig(idle())
		r.run(3)
		v := spin(7, c.win)
		if c.jp {
			v.Lines[0].Progressive = 1
		}
		r.c.v = v
		r.run(1)
		r.c.v = landed(v)
		r.run(200)
		got := r.cues
		if n := len(got); n != 8 || !strings.HasSuffix(got[n-1], ":"+c.want) {
			t.Errorf("win %d (jackpot %v): cues %v, want 7 and %s", c.win, c.jp, got, c.want)
			continue
		}
		if at := fmt.Sprintf("%d:%s", r.s.Anim.DoneAt(), c.want); got[7] != at {
			t.Errorf("win %d: %s, want %s (when the meter starts counting)", c.win, got[7], at)
		}
		if r.s.ShownWin() != c.win {
			t.Errorf("the meter shows %d", r.s.ShownWin())
		}
	}
}

// The same view drawn again and again: nothing; a new game: heard again.
func TestWatcherQuietOnSameView(t *testing.T) {
	r := newRig(idle())
	r.c.v = spin(3, 100)
	r.run(1)
	r.c.v = landed(spin(3, 100))
	r.run(150)
	if n := len(r.take()); n != 8 {
		t.Fatalf("the spin gave %d cues", n)
	}
	r.run(2000) // the lines shown one by one, the attract timer…
	if got := r.take(); len(got) != 0 {
		t.Errorf("the same view gives %v", got)
	}
	// The same frame seen twice (a frame drawn without an update).
	if got := r.w.Step(r.s, nil); len(got) != 0 {
		t.Errorf("the same frame again gives %v", got)
	}
	r.c.v = spin(4, 0)
	r.run(150)
	if got := r.take(); len(got) != 7 || got[0] != "spin_start" {
		t.Errorf("the next game: %v", got)
	}
}

// A slam stop: the remaining reels land sooner, still each once, in order.
func TestWatcherSlam(t *testing.T) {
	r := newRig(idle())
	r.c.v = spin(5, 0)
	r.run(40) // the first reel has landed
	r.s.Key(model.KeySpin)
	r.run(30)
	want := []string{"spin_start", "reel_stop0", "reel_stop1", "reel_stop2", "reel_stop3", "reel_stop4", "spin_end"}
	if got := r.take(); !slices.Equal(got, want) {
		t.Errorf("slam: %v", got)
	}
}

// Free games: each free spin is heard; a spin replaced on screen before
// its reels land ends its loop before the next starts.
func TestWatcherFreeGames(t *testing.T) {
	r := newRig(idle())
	v := spin(9, 0)
	v.FreeLeft = 2
	r.c.v = v
	r.run(10)
	f := v
	f.Free, f.FreePlayed, f.FreeLeft, f.Stops = true, 1, 1, []int{2, 2, 2, 2, 2}
	r.c.v = f
	r.run(150)
	got := r.take()
	want := []string{"spin_start", "spin_end", "spin_start", "reel_stop0", "reel_stop1", "reel_stop2", "reel_stop3", "reel_stop4", "spin_end"}
	if !slices.Equal(got, want) {
		t.Errorf("cues %v\nwant %v", got, want)
	}
}

// Lockouts that call the attendant ring the bell when they come (not when
// the screen starts on one); a level won rings the fanfare, but not before
// the reels show it.
func TestWatcherLockoutsAndJackpots(t *testing.T) {
	v := idle()
	v.Mode, v.Handpay = "handpay", 150000
	v.Jackpots = []machine.JackpotView{{Level: 1, Cents: 50000}, {Level: 2, Mystery: true, Cents: 2000, Pending: true}}
	r := newRig(v)
	r.run(5)
	if got := r.take(); len(got) != 0 {
		t.Fatalf("the first frame, already locked, with a level being paid: %v", got)
	}
	steps := []struct {
		edit func(v *machine.View)
		want []string
	}{
		{func(v *machine.View) { v.Mode = "idle"; v.Jackpots[1].Pending = false }, nil},
		{func(v *machine.View) { v.Mode = "tilt" }, []string{"bell"}},
		{func(v *machine.View) { v.Mode = "door_open" }, nil},
		{func(v *machine.View) { v.Mode = "meter_fault" }, []string{"bell"}},
		{func(v *machine.View) { v.Mode = "idle" }, nil},
		{func(v *machine.View) { v.Jackpots[1].Pending = true }, []string{"jackpot"}}, // a mystery level hit
		{func(v *machine.View) { v.Mode = "handpay" }, []string{"bell"}},
		{func(v *machine.View) { v.Mode = "idle"; v.Jackpots[1].Pending = false }, nil},
	}
	for i, s := range steps {
		s.edit(&v)
		r.c.v = v
		r.run(5)
		if got := r.take(); !slices.Equal(got, s.want) {
			t.Errorf("step %d (%s): %v, want %v", i, v.Mode, got, s.want)
		}
	}
	// A level won in a spin: the view says so at once, the fanfare waits
	// for the reels.
	sv := spin(20, 0)
	sv.Jackpots = []machine.JackpotView{{Level: 1, Cents: 50000, Pending: true}, {Level: 2, Mystery: true, Cents: 2000}}
	r.c.v = sv
	r.run(1)
	done := r.s.Anim.DoneAt()
	r.run(150)
	got := r.cues
	if n := len(got); n != 8 || got[n-1] != fmt.Sprintf("%d:jackpot", done) {
		t.Errorf("a level won in a spin: %v, want the fanfare at %d", got, done)
	}
}

func TestWinTier(t *testing.T) {
	for _, c := range []struct {
		win, bet int64
		tier     int
	}{
		{1, 20, 1}, {39, 20, 1}, {40, 20, 2}, {199, 20, 2}, {200, 20, 3}, {999, 20, 3}, {1000, 20, 4}, {5, 0, 2},
	} {
		if got := WinTier(c.win, c.bet); got != c.tier {
			t.Errorf("WinTier(%d, %d) = %d, want %d", c.win, c.bet, got, c.tier)
		}
	}
}

// A free-game trigger is heard when the screen celebrates it (its own
// chimes), once; the feature's total with the biggest jingle.
func TestFeatureCues(t *testing.T) {
	r := newRig(idle())
	r.run(2)
	r.take()
	v := idle()
	v.Mode, v.GameOpen = "spinning", true
	v.Present = &machine.Presentation{ID: 3, Kind: machine.PresentFeature, Tier: machine.TierFeature, Games: 10}
	r.c.v = v
	r.run(30)
	if got := r.take(); !slices.Equal(got, []string{"feature"}) {
		t.Fatalf("the trigger's presentation: cues %v, want the feature's chimes once", got)
	}
	v.Present = &machine.Presentation{ID: 4, Kind: machine.PresentTotal, Tier: machine.TierFeature, Cents: 4200}
	r.c.v = v
	r.run(5)
	if got := r.take(); !slices.Equal(got, []string{fmt.Sprint("win", WinTiers)}) {
		t.Fatalf("the feature's total: cues %v", got)
	}
}
