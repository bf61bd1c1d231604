package main

import (
	"testing"
	"time"

	"github.com/openegm/cabinet/internal/cabinettest"
	"github.com/openegm/cabinet/machine"
)

// The cabinet with a screen that takes its time (--present-timeout 1m):
// over the control socket, as the screen process speaks it, every step of
// a game waits for the screen's "presented" with its ID. A trigger's
// announcement holds free game 1 back however long the screen takes, a
// stale ID changes nothing, the player's spin starts the feature, and its
// first free game is counted "1 of N".
func TestPresentedOverTheControlSocket(t *testing.T) {
	cabinettest.PlainPassOnly(t)
	t.Parallel()
	c := startCabinet(t, t.TempDir(), "--spin-time", "5ms", "--present-timeout", "1m", "--jackpot", "off")
	for range 4 {
		c.Bill(5000)
	}
	presented := func(id uint64) machine.View {
		r := c.Send(cabinettest.Command{Cmd: "presented", ID: id})
		if !r.OK || r.View == nil {
			t.Fatalf("presented %d: %+v", id, r)
		}
		return *r.View
	}
	for games := 0; ; games++ {
		if games > 1000 {
			t.Fatal("no feature in 1000 games")
		}
		if r := c.Send(cabinettest.Command{Cmd: "press", Button: machine.BtnSpin}); r.Refused != "" {
			t.Fatalf("spin refused: %s", r.Refused)
		}
		feature, awarded := false, 0
		for v := c.State(); v.Mode != "idle"; v = c.State() {
			p := v.Present
			if p == nil {
				t.Fatalf("a reel game open without a presentation: %+v", v)
			}
			switch p.Kind {
			case machine.PresentFeature:
				if !feature {
					awarded = p.Games // a retrigger's games add to these
				}
				feature = true
				// The screen is slow: far beyond the spin time, the next
				// free game is not drawn.
				time.Sleep(100 * time.Millisecond)
				if w := c.State(); w.FreePlayed != v.FreePlayed || w.Present == nil || w.Present.ID != p.ID {
					t.Fatalf("the feature went on without its announcement presented: %+v", v.Present)
				}
				if v := presented(p.ID + 1000); v.Present == nil || v.Present.ID != p.ID {
					t.Fatalf("an unknown ID moved the game on: %+v", v.Present)
				}
				presented(p.ID)
			case machine.PresentFreeStart:
				if v.FreePlayed != 0 {
					t.Fatalf("free games played before the start: %d", v.FreePlayed)
				}
				r := c.Send(cabinettest.Command{Cmd: "press", Button: machine.BtnSpin})
				if r.View == nil || r.View.FreePlayed != 1 || r.View.FreeTotal < awarded {
					t.Fatalf("the player's spin at the start: %+v", r.View)
				}
			default:
				presented(p.ID)
			}
		}
		if feature {
			v := c.State()
			if v.FreePlayed < awarded || v.FreeTotal != v.FreePlayed {
				t.Fatalf("the feature ended after %d of %d free games (awarded %d)", v.FreePlayed, v.FreeTotal, awarded)
			}
			return
		}
	}
}
