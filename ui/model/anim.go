package model

import (
	"fmt"
	"math"

	"github.com/openegm/cabinet/machine"
	"github.com/openegm/cabinet/reels"
)

// The reel animation is purely visual. The outcome is committed before the
// machine shows "spinning" (DESIGN rule 1); the reels scroll their strips
// and land on the view's window, reel after reel. Time is counted in ticks
// (60 a second), so the animation is the same on every run.
const (
	spinSpeed   = 0.55 // cells per tick while scrolling
	firstStop   = 36   // ticks until the first reel stops
	stopGap     = 14   // ticks between reels
	bounceTicks = 8    // the landing bounce
	slamGap     = 3    // ticks between reels after a slam stop
	countTicks  = 60   // the win counts up this long
	LinesAll    = 50   // all paying lines together, then each for LineEach
	LineEach    = 70
)

// spinKey identifies the spin on screen.
func spinKey(v machine.View) string {
	return fmt.Sprint(v.Game, v.Free, v.FreePlayed, v.Stops)
}

type ReelAnim struct {
	Start  int
	StopAt []int      // the tick each reel lands
	Window [][]string // where the reels land, [reel][row]
	Strips [][]string // the strips scrolled, in strip order; nil: the window repeats
	Stops  []int
}

// NewReelAnim starts the reels at tick towards the view's window. pt, when it
// matches the window, lends its strips to scroll; otherwise the window's own
// symbols scroll.
func NewReelAnim(tick int, v machine.View, pt *reels.Certified) *ReelAnim {
	a := &ReelAnim{Start: tick, Window: v.Window, Stops: v.Stops}
	for i := range v.Window {
		a.StopAt = append(a.StopAt, tick+firstStop+i*stopGap)
	}
	a.Strips = stripsFor(v, pt)
	return a
}

// stripsFor returns the paytable's strips as symbol IDs when they produce
// the view's window from its stops, nil otherwise.
func stripsFor(v machine.View, pt *reels.Certified) [][]string {
	if pt == nil || len(v.Stops) != len(v.Window) {
		return nil
	}
	set := pt.Reels
	if v.Free && pt.Free != nil {
		set = pt.Free.Reels
	}
	if len(set) != len(v.Window) {
		return nil
	}
	out := make([][]string, len(set))
	for i, strip := range set {
		if len(strip) == 0 {
			return nil
		}
		out[i] = make([]string, len(strip))
		for k, s := range strip {
			out[i][k] = pt.Symbols[s].ID
		}
		for r, id := range v.Window[i] {
			if out[i][Mod(v.Stops[i]+r, len(strip))] != id {
				return nil
			}
		}
	}
	return out
}

func Mod(a, n int) int { return ((a % n) + n) % n }

// done says whether every reel has landed and bounced.
func (a *ReelAnim) Done(tick int) bool {
	return len(a.StopAt) == 0 || tick >= a.StopAt[len(a.StopAt)-1]+bounceTicks
}

// doneAt is the tick the last reel finishes.
func (a *ReelAnim) DoneAt() int {
	if len(a.StopAt) == 0 {
		return a.Start
	}
	return a.StopAt[len(a.StopAt)-1] + bounceTicks
}

// stopped says whether reel i has landed (its bounce may still run).
func (a *ReelAnim) Stopped(i, tick int) bool { return tick >= a.StopAt[i] }

// slam brings the reels still turning to a stop quickly.
func (a *ReelAnim) Slam(tick int) {
	n := 0
	for i, t := range a.StopAt {
		if t > tick {
			if s := tick + 2 + n*slamGap; s < t {
				a.StopAt[i] = s
			}
			n++
		}
	}
}

// pos is how many cells reel i is still away from its window: positive while
// it scrolls down towards it, a little negative in the bounce, 0 at rest.
func (a *ReelAnim) Pos(i, tick int) float64 {
	d := a.StopAt[i] - tick
	switch {
	case d > 0:
		return spinSpeed * float64(d)
	case -d < bounceTicks:
		return -0.12 * math.Sin(math.Pi*float64(-d)/bounceTicks)
	}
	return 0
}

// symbol is the ID of item j of reel i: items 0..rows-1 are the window, the
// others the strip beyond it (items above the window's bottom come later).
func (a *ReelAnim) Symbol(i, j int) string {
	col := a.Window[i]
	if j >= 0 && j < len(col) {
		return col[j]
	}
	if a.Strips != nil {
		s := a.Strips[i]
		return s[Mod(a.Stops[i]+j, len(s))]
	}
	if len(col) == 0 {
		return ""
	}
	return col[Mod(j, len(col))]
}

// winCount is the win meter's count-up: from the amount shown before the spin
// to the view's game win, after the reels land. It only interpolates what
// it shows; the final figure is the machine's.
type winCount struct {
	from  int64
	start int // tick the count starts (the reels have landed)
}

func (w winCount) at(tick int, target int64) int64 {
	k := tick - w.start
	switch {
	case k <= 0:
		return w.from
	case k >= countTicks || target <= w.from:
		return target
	}
	return w.from + (target-w.from)*int64(k)/countTicks
}
