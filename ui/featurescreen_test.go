//go:build screen

package ui

import (
	"image"
	"strings"
	"testing"
	"time"

	"github.com/openegm/cabinet/assets"
	"github.com/openegm/cabinet/machine"
	"github.com/openegm/cabinet/ui/demo"
	"github.com/openegm/cabinet/ui/model"
)

// gamesToTrigger is how many games the demo machine with seed plays before
// the one that triggers free games (the seeded machine plays the same
// games every time).
func gamesToTrigger(t *testing.T, seed uint64) int {
	pt, _ := assets.LoadPaytable(assets.DefaultGame)
	d := demo.New(pt, demo.Config{MachineID: "EGM-0042", Seed: seed, NoJackpot: true})
	for range 5 {
		d.InsertBill(100_00)
	}
	for n := 0; n < 3000; n++ {
		d.Press(machine.BtnSpin)
		if d.View().FreeAwarded > 0 {
			return n
		}
		for d.View().Mode == "spinning" {
			d.Advance(10 * time.Second)
		}
	}
	t.Fatal("no free games in 3000 games")
	return 0
}

// A feature on the real machine core in the real window, the machine's
// clock moving with the screen's ticks: the frames come in order, each
// showing what it must: the trigger's Caravelas pulsing in gold, then the
// panel announcing "10 JOGOS GRÁTIS", the top bar's "Jogo grátis 1 de 10"
// on the first free game (started by the player's spin), and the feature's
// total in its panel before the game ends. No frame counts nor times: the
// order and the pixels.
func TestScreenFeaturePresented(t *testing.T) {
	const seed = 3
	skip := gamesToTrigger(t, seed)
	pt, _ := assets.LoadPaytable(assets.DefaultGame)
	d := demo.New(pt, demo.Config{MachineID: "EGM-0042", Seed: seed, NoJackpot: true})
	for range 5 {
		d.InsertBill(100_00)
	}
	for range skip {
		d.Press(machine.BtnSpin)
		for d.View().Mode == "spinning" {
			d.Advance(10 * time.Second)
		}
	}
	useCanned(t, idleView()) // a fresh screen for the game: no reels of the games skipped
	cab.set(d)
	wait(t, 3, func(g *game) bool { return g.V.Game == uint64(skip) })
	awarded := 0
	on(t, func(g *game, _ int, _ func() *image.RGBA) bool {
		d.Press(machine.BtnSpin)
		awarded = d.View().FreeAwarded
		return true
	})
	if awarded == 0 {
		t.Fatal("the game found does not trigger the feature")
	}
	games := model.T("pt", "feature_games", model.Itoa(awarded))
	first := model.T("pt", "free_game_n", "1", model.Itoa(awarded))
	total := model.T("pt", "feature_total")
	var order []string
	shots := map[string]*image.RGBA{}
	var scatters [][2]int
	last, pressed := -1, false
	on(t, func(g *game, _ int, shot func() *image.RGBA) bool {
		// The machine's clock follows the screen's ticks (60 a second).
		if last >= 0 && g.Tick > last {
			d.Advance(time.Duration(g.Tick-last) * time.Second / 60)
		}
		last = g.Tick
		seen := func(name string) {
			if _, ok := shots[name]; !ok {
				order = append(order, name)
				shots[name] = shot()
				saveShot(t, "feature_"+name, shots[name])
			}
		}
		c, ok := g.CelebrationNow()
		p, _, _ := g.Showing()
		switch {
		case ok && c.Scatters:
			for _, s := range g.V.Scatters {
				if s.FreeGames > 0 {
					scatters = s.Cells
				}
			}
			seen("celebration")
		case ok && c.Title == games && p.Kind == machine.PresentFeature:
			seen("announcement")
		case ok && c.Title == games && p.Kind == machine.PresentFreeStart:
			seen("start")
			if !pressed {
				pressed = true
				g.Key(model.KeySpin) // the player starts the feature
			}
		case ok && c.Title == total:
			seen("total")
		case strings.HasPrefix(g.FreeBanner(), first) && !g.Spinning():
			seen("free_game_1")
		}
		return g.Live.Mode == "idle" && len(order) > 0
	})
	want := []string{"celebration", "announcement", "start", "free_game_1", "total"}
	if strings.Join(order, " ") != strings.Join(want, " ") {
		t.Fatalf("frames in the order %v, want %v", order, want)
	}
	n, rows := len(theGame.V.Window), 3
	if w := theGame.V.Window; len(w) > 0 {
		rows = len(w[0])
	}
	gold := func(img *image.RGBA, r model.Rect) int {
		k := 0
		for _, p := range []float64{0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 1.0} {
			k += coloured(img, theGame, r, shade(colGold, p))
		}
		return k
	}
	if len(scatters) < 3 {
		t.Fatalf("the trigger's scatters: %v", scatters)
	}
	for _, cell := range scatters {
		r := theGame.Cell(cell[0], cell[1], n, rows)
		edge := model.Rect{X: r.X, Y: r.Y + r.H/2 - 10, W: 12, H: 20}
		if k := gold(shots["celebration"], edge); k < 30 {
			t.Errorf("celebration: the Caravela at reel %d row %d is not pulsing in gold (%d pixels)", cell[0]+1, cell[1]+1, k)
		}
	}
	panel := celebrationRect(theGame.ReelsRect(), 1.2)
	for _, name := range []string{"announcement", "start", "total"} {
		img := shots[name]
		if k := gold(img, panel); k < 2000 {
			t.Errorf("%s: no gold panel over the reels (%d pixels)", name, k)
		}
		if k := inked(img, theGame, panel.Inset(30)); k < 500 {
			t.Errorf("%s: the panel has no text (%d pixels)", name, k)
		}
	}
	if k := coloured(shots["free_game_1"], theGame, rectTopMiddle, colButtonHi); k < 2000 {
		t.Errorf("free game 1: no free games panel in the top bar (%d pixels)", k)
	}
}

// A big win is celebrated over the reels once they land: a gold panel
// naming it, its amount counting up, and English when the player chose it.
func TestScreenBigWin(t *testing.T) {
	pt, _ := assets.LoadPaytable(assets.DefaultGame)
	v := spinView(t, pt, findWin(t, pt), "spinning")
	v.GameOpen, v.SpinWinCents, v.GameWinCents = true, 4_00, 4_00
	v.Present = &machine.Presentation{ID: 77, Kind: machine.PresentWin, Tier: machine.TierBig, Cents: 4_00, Skippable: true}
	c := useCanned(t, idleView())
	c.setView(v)
	wait(t, 0, func(g *game) bool {
		cel, ok := g.CelebrationNow()
		return ok && cel.Title == model.T("pt", "big_win")
	})
	img := grab(t, "big_win")
	panel := celebrationRect(theGame.ReelsRect(), 1)
	gold := 0
	for _, p := range []float64{0.6, 0.7, 0.8, 0.9, 1.0} {
		gold += coloured(img, theGame, panel, shade(colGold, p))
	}
	if gold < 1500 {
		t.Errorf("no gold panel over the reels (%d pixels)", gold)
	}
	if k := inked(img, theGame, panel.Inset(30)); k < 500 {
		t.Errorf("the big win's panel has no text (%d pixels)", k)
	}
	en := v
	en.Lang = "en"
	c.setView(en)
	wait(t, 0, func(g *game) bool {
		cel, ok := g.CelebrationNow()
		return ok && cel.Title == model.T("en", "big_win") && cel.Text == model.Euro("en", 4_00)
	})
	grab(t, "big_win_en")
}
