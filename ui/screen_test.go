//go:build screen

// Screen tests: the real window (ui.Run) under X (Xvfb in CI: ui/xvfb-test.sh),
// a cabinet serving canned views or the demo machine, screenshots checked for
// what must be there. ebiten cannot even be initialised without a display,
// so these tests are behind the "screen" build tag.
package ui

import (
	"fmt"
	"image"
	"image/color"
	"image/png"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/hajimehoshi/ebiten/v2"
	"github.com/openegm/cabinet/assets"
	"github.com/openegm/cabinet/machine"
	"github.com/openegm/cabinet/reels"
	"github.com/openegm/cabinet/rng"
	"github.com/openegm/cabinet/ui/demo"
	"github.com/openegm/cabinet/ui/model"
	"github.com/openegm/cabinet/ui/sound"
	"golang.org/x/image/font/gofont/gobold"
	"golang.org/x/image/font/gofont/goregular"
	"golang.org/x/image/font/sfnt"
)

// proxy is the Cabinet the window runs on; tests swap what is behind it.
type proxy struct {
	mu sync.Mutex
	c  Cabinet
}

func (p *proxy) get() Cabinet                { p.mu.Lock(); defer p.mu.Unlock(); return p.c }
func (p *proxy) set(c Cabinet)               { p.mu.Lock(); p.c = c; p.mu.Unlock() }
func (p *proxy) View() machine.View          { return p.get().View() }
func (p *proxy) Paytable() *reels.Certified  { return p.get().Paytable() }
func (p *proxy) Press(b string)              { p.get().Press(b) }
func (p *proxy) SetSwitch(n string, on bool) { p.get().SetSwitch(n, on) }
func (p *proxy) InsertBill(c int64)          { p.get().InsertBill(c) }
func (p *proxy) Service(ev machine.Event)    { p.get().Service(ev) }

// canned serves a view set by the test.
type canned struct {
	mu sync.Mutex
	v  machine.View
	pt *reels.Certified
}

func (c *canned) View() machine.View         { c.mu.Lock(); defer c.mu.Unlock(); return c.v }
func (c *canned) Paytable() *reels.Certified { return c.pt }
func (c *canned) SetSwitch(string, bool)     {}

// Press does to the view what the machine does with the help button: the
// pages come up, or go.
func (c *canned) Press(b string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if b == machine.BtnHelp {
		c.v.Help = !c.v.Help
	}
}
func (c *canned) InsertBill(int64)       {}
func (c *canned) Service(machine.Event)  {}
func (c *canned) setView(v machine.View) { c.mu.Lock(); c.v = v; c.mu.Unlock() }

// recorder is the window's sound device: it keeps what it was asked to play.
type recorder struct {
	mu    sync.Mutex
	calls []string
}

func (r *recorder) Play(name string, pcm []byte, loop bool) {
	r.mu.Lock()
	r.calls = append(r.calls, "play "+name)
	r.mu.Unlock()
}

func (r *recorder) Stop(name string) {
	r.mu.Lock()
	r.calls = append(r.calls, "stop "+name)
	r.mu.Unlock()
}

func (r *recorder) take() []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	c := r.calls
	r.calls = nil
	return c
}

var speaker = &recorder{}

// job runs in the frame hook on the window's goroutine until it says done.
type job struct {
	fn   func(g *game, n int, shot func() *image.RGBA) bool
	done chan struct{}
}

var (
	cab     = &proxy{}
	jobs    = make(chan job)
	theGame *game
	running bool
)

func TestMain(m *testing.M) {
	if os.Getenv("DISPLAY") == "" {
		fmt.Println("screen tests need a display: run ui/xvfb-test.sh (xvfb-run -a go test -tags screen ./ui/)")
		os.Exit(0)
	}
	pt, err := assets.LoadPaytable(assets.DefaultGame)
	if err != nil {
		panic(err)
	}
	cab.set(&canned{pt: pt, v: machine.View{MachineID: "EGM-TEST", Lang: "pt", Mode: "starting", Denom: 1}})
	onNewGame = func(g *game) { theGame = g }
	code := make(chan int, 1)
	var cur *job
	opts := Options{Width: 1280, Height: 720, Simulator: true, Sound: sound.NewPlayer(speaker), Frame: func(n int, shot func() *image.RGBA) bool {
		if cur == nil {
			select {
			case j, ok := <-jobs:
				if !ok {
					return true
				}
				cur = &j
			default:
			}
		}
		if cur != nil && cur.fn(theGame, n, shot) {
			close(cur.done)
			cur = nil
		}
		return false
	}}
	go func() {
		c := m.Run()
		close(jobs)
		code <- c
	}()
	running = true
	if err := Run(cab, opts); err != nil {
		fmt.Println("ui.Run:", err)
		os.Exit(1)
	}
	os.Exit(<-code)
}

// on runs fn on the window's goroutine at every frame until it returns true.
func on(t testing.TB, fn func(g *game, n int, shot func() *image.RGBA) bool) {
	t.Helper()
	j := job{fn: fn, done: make(chan struct{})}
	select {
	case jobs <- j:
	case <-time.After(30 * time.Second):
		t.Fatal("the window does not take jobs")
	}
	select {
	case <-j.done:
	case <-time.After(120 * time.Second):
		t.Fatal("job did not finish in 120 s")
	}
}

// wait lets n frames go by after cond holds.
func wait(t testing.TB, frames int, cond func(g *game) bool) {
	t.Helper()
	k := -1
	on(t, func(g *game, n int, _ func() *image.RGBA) bool {
		if k < 0 && (cond == nil || cond(g)) {
			k = n
		}
		return k >= 0 && n-k >= frames
	})
}

// grab takes the next frame and saves it as testdata/screenshots/name.png.
func grab(t testing.TB, name string) *image.RGBA {
	t.Helper()
	var img *image.RGBA
	on(t, func(_ *game, _ int, shot func() *image.RGBA) bool { img = shot(); return true })
	saveShot(t, name, img)
	return img
}

// saveShot keeps a screenshot as testdata/screenshots/name.png when
// UI_SCREENSHOTS says where (a temporary directory otherwise).
func saveShot(t testing.TB, name string, img *image.RGBA) {
	t.Helper()
	dir := os.Getenv("UI_SCREENSHOTS")
	if dir == "" {
		dir = t.TempDir()
	}
	os.MkdirAll(dir, 0o755)
	f, err := os.Create(filepath.Join(dir, name+".png"))
	if err == nil {
		png.Encode(f, img)
		f.Close()
		t.Logf("screenshot %s", f.Name())
	}
}

func useCanned(t testing.TB, v machine.View) *canned {
	pt, _ := assets.LoadPaytable(assets.DefaultGame)
	c := &canned{pt: pt, v: v}
	cab.set(c)
	wait(t, 2, nil)
	return c
}

// pixel reads a design-space point of a screenshot (1280×720 window: 1:1).
func pixel(img *image.RGBA, g *game, x, y float64) color.RGBA {
	sx, sy := g.toScreen(x, y)
	return img.RGBAAt(int(sx), int(sy))
}

func dist(a, b color.RGBA) float64 {
	dr, dg, db := float64(a.R)-float64(b.R), float64(a.G)-float64(b.G), float64(a.B)-float64(b.B)
	return math.Sqrt(dr*dr + dg*dg + db*db)
}

// nearestSymbol classifies a colour as the symbol whose main colour is nearest.
func nearestSymbol(pt *reels.Certified, c color.RGBA) (string, float64) {
	best, bd := "", math.Inf(1)
	for _, s := range pt.Symbols {
		if d := dist(c, SymbolColor(s.ID)); d < bd {
			best, bd = s.ID, d
		}
	}
	return best, bd
}

// checkCells asserts every reel cell shows its symbol's colour in its margins.
func checkCells(t *testing.T, img *image.RGBA, pt *reels.Certified, window [][]string, cell func(i, j int) model.Rect) {
	t.Helper()
	for i, col := range window {
		for j, want := range col {
			r := cell(i, j)
			for _, fx := range []float64{0.1, 0.9} {
				got, d := nearestSymbol(pt, pixel(img, theGame, r.X+fx*r.W, r.Y+0.55*r.H))
				if got != want || d > 40 {
					t.Errorf("reel %d row %d (x %.0f%%): colour is %s's (distance %.0f), want %s", i, j, fx*100, got, d, want)
				}
			}
		}
	}
}

// distinctColours counts colours in a region (a blank screen has one).
func distinctColours(img *image.RGBA, r image.Rectangle) int {
	seen := map[color.RGBA]bool{}
	for y := r.Min.Y; y < r.Max.Y; y += 2 {
		for x := r.Min.X; x < r.Max.X; x += 2 {
			seen[img.RGBAAt(x, y)] = true
		}
	}
	return len(seen)
}

// inked counts the pixels of a design rectangle that differ from its
// background colour (text drawn there).
func inked(img *image.RGBA, g *game, r model.Rect) int {
	bg := pixel(img, g, r.X+2, r.Y+2)
	n := 0
	for y := r.Y; y < r.Y+r.H; y++ {
		for x := r.X; x < r.X+r.W; x++ {
			if dist(pixel(img, g, x, y), bg) > 80 {
				n++
			}
		}
	}
	return n
}

// coloured counts the pixels of a design rectangle near a colour.
func coloured(img *image.RGBA, g *game, r model.Rect, c color.RGBA) int {
	n := 0
	for y := r.Y; y < r.Y+r.H; y++ {
		for x := r.X; x < r.X+r.W; x++ {
			if dist(pixel(img, g, x, y), c) < 60 {
				n++
			}
		}
	}
	return n
}

func notBlank(t *testing.T, img *image.RGBA) {
	t.Helper()
	if n := distinctColours(img, img.Bounds()); n < 50 {
		t.Errorf("the screen looks blank: %d colours", n)
	}
}

func idleView() machine.View {
	return machine.View{MachineID: "EGM-0042", Lang: "pt", Mode: "idle", Denom: 1, TopOffered: 3, CreditsLine: 1, BetCredits: 20, BetCents: 20}
}

func TestScreenAttract(t *testing.T) {
	useCanned(t, idleView())
	wait(t, 3, nil)
	img := grab(t, "attract")
	notBlank(t, img)
	if !theGame.Attract() {
		t.Error("idle without credit and no game: the attract screen is not up")
	}
	if n := inked(img, theGame, model.RectMessage.Inset(4)); n < 200 {
		t.Errorf("message area is empty (%d pixels of text)", n)
	}
}

// spinView is a committed spin on the default paytable, as the machine shows it.
func spinView(t *testing.T, pt *reels.Certified, stops []int, mode string) machine.View {
	sp, err := pt.Evaluate(stops, 0, false)
	if err != nil {
		t.Fatal(err)
	}
	v := idleView()
	v.Mode, v.Game, v.Stops, v.Credits, v.CreditsCents = mode, 12, stops, 480, 480
	for _, col := range pt.Window(stops, false) {
		var ids []string
		for _, s := range col {
			ids = append(ids, pt.Symbols[s].ID)
		}
		v.Window = append(v.Window, ids)
	}
	for _, l := range sp.Lines {
		v.Lines = append(v.Lines, machine.ViewLine{Line: l.Line, Symbol: pt.Symbols[l.Symbol].ID, Count: l.Count, Cents: l.Credits})
	}
	v.SpinWinCents, v.GameWinCents = sp.Win, sp.Win
	return v
}

// The reels spin, then show the committed stops: each cell has the colour
// of the symbol the paytable puts there.
func TestScreenSpinStopsOnCommittedStops(t *testing.T) {
	pt, _ := assets.LoadPaytable(assets.DefaultGame)
	stops := []int{7, 18, 29, 11, 3}
	v := spinView(t, pt, stops, "idle")
	v.Lines, v.SpinWinCents, v.GameWinCents = nil, 0, 0 // cells unobstructed
	c := useCanned(t, idleView())
	sv := v
	sv.Mode = "spinning"
	c.setView(sv)
	wait(t, 12, func(g *game) bool { return g.Spinning() })
	mid := grab(t, "spinning")
	notBlank(t, mid)
	c.setView(v)
	wait(t, 5, func(g *game) bool { return !g.Spinning() })
	img := grab(t, "stopped")
	n, rows := len(v.Window), len(v.Window[0])
	checkCells(t, img, pt, v.Window, func(i, j int) model.Rect { return model.CellRect(i, j, n, rows) })
	// The mid-spin frame was not already the final picture.
	x0, y0 := theGame.toScreen(model.RectReels.X, model.RectReels.Y)
	x1, y1 := theGame.toScreen(model.RectReels.X+model.RectReels.W, model.RectReels.Y+model.RectReels.H)
	diff := 0
	for y := int(y0); y < int(y1); y += 3 {
		for x := int(x0); x < int(x1); x += 3 {
			if dist(mid.RGBAAt(x, y), img.RGBAAt(x, y)) > 60 {
				diff++
			}
		}
	}
	if diff < 1000 {
		t.Errorf("the reels did not move: only %d sampled pixels differ mid-spin", diff)
	}
}

// findWin looks for stops with at least two paying lines.
func findWin(t *testing.T, pt *reels.Certified) []int {
	for a := 0; a < 40; a++ {
		for b := 0; b < 40; b++ {
			stops := []int{a, b, (a + 5) % 40, (b + 9) % 40, (a + b) % 40}
			sp, err := pt.Evaluate(stops, 0, false)
			if err == nil && len(sp.Lines) >= 2 && len(sp.Scatters) == 0 {
				return stops
			}
		}
	}
	t.Fatal("no winning stops found")
	return nil
}

// A win: after the reels land the lines are drawn, then one by one with
// their names; the win meter counts up to the machine's amount.
func TestScreenWinLines(t *testing.T) {
	pt, _ := assets.LoadPaytable(assets.DefaultGame)
	stops := findWin(t, pt)
	v := spinView(t, pt, stops, "spinning")
	c := useCanned(t, idleView())
	c.setView(v)
	wait(t, 2, func(g *game) bool { return g.Spinning() })
	end := v
	end.Mode, end.Message = "idle", machine.Message{Key: "msg_win", Args: []int64{v.GameWinCents}}
	c.setView(end)
	// One by one: the first line alone, with its label.
	wait(t, 0, func(g *game) bool {
		return !g.Spinning() && g.Tick-g.ShownDone >= model.LinesAll+10 && g.Tick-g.ShownDone < model.LinesAll+model.LineEach-10
	})
	img := grab(t, "win")
	notBlank(t, img)
	l := v.Lines[0]
	path := pt.Lines[l.Line]
	n, rows := len(v.Window), len(v.Window[0])
	ax, ay := model.CellRect(0, path[0], n, rows).Center()
	bx, by := model.CellRect(1, path[1], n, rows).Center()
	found := false
	want := lineColor(l.Line)
	for k := 0.3; k <= 0.7 && !found; k += 0.05 {
		x, y := ax+(bx-ax)*k, ay+(by-ay)*k
		for dx := -2.0; dx <= 2; dx++ {
			for dy := -2.0; dy <= 2; dy++ {
				if dist(pixel(img, theGame, x+dx, y+dy), want) < 40 {
					found = true
				}
			}
		}
	}
	if !found {
		t.Errorf("line %d is not drawn in its colour between reels 1 and 2", l.Line+1)
	}
	// The line's label is in the message bar, in the line's colour: the
	// reels' bottom row stays uncovered.
	if n := coloured(img, theGame, model.RectMessage.Inset(4), want); n < 40 {
		t.Errorf("the line's label is not drawn in the message bar in its colour (%d pixels)", n)
	}

	wait(t, 0, func(g *game) bool { return g.ShownWin() == v.GameWinCents })
}

// The player's screen keeps its pixels from frame to frame and redraws
// only its live regions (see layer.go): a frame drawn that way must be the
// frame drawn whole, while the reels turn and land, the win counts up, the
// lines change and a jackpot level pulses; and the still layer must not be
// redrawn for any of it.
func TestScreenKeptPixels(t *testing.T) {
	pt, _ := assets.LoadPaytable(assets.DefaultGame)
	v := spinView(t, pt, findWin(t, pt), "spinning")
	v.Jackpots = jackpotLevels()
	v.Jackpots[1].Pending = true
	c := useCanned(t, idleView())
	wait(t, 3, nil)
	c.setView(v)
	wait(t, 1, func(g *game) bool { return g.Spinning() })
	end := v
	end.Mode = "idle"
	c.setView(end)
	redr0 := theGame.still.redr
	// Every fifth frame, and the first frame of each phase (reels turning,
	// reels landed with the win counting): on a loaded machine fewer frames
	// are drawn, but each phase is still compared at least once.
	compared := 0
	seen := map[bool]bool{}
	on(t, func(g *game, n int, shot func() *image.RGBA) bool {
		if n%5 != 0 && seen[g.Spinning()] {
			return g.Tick-g.ShownDone > model.LinesAll+model.LineEach+10 && !g.Spinning()
		}
		seen[g.Spinning()] = true
		kept := shot()
		whole := ebiten.NewImage(g.w, g.h)
		defer whole.Deallocate()
		g.drawPlayerScreen(whole, false)
		img := image.NewRGBA(whole.Bounds())
		whole.ReadPixels(img.Pix)
		diff := 0
		for i := range img.Pix {
			if img.Pix[i] != kept.Pix[i] {
				diff++
			}
		}
		if diff > 0 {
			t.Errorf("frame %d (tick %d, spinning %v): %d bytes differ from the frame drawn whole", n, g.Tick, g.Spinning(), diff)
		}
		compared++
		return false
	})
	if !seen[true] {
		t.Errorf("%d frames compared, none while the reels turned", compared)
	}
	if !seen[false] {
		t.Errorf("%d frames compared, none after the reels landed", compared)
	}
	if d := theGame.still.redr - redr0; d != 0 {
		t.Errorf("the still layer was redrawn %d times for a spin and its win", d)
	}
	// The live regions do not overlap (a region's redraw would wipe
	// another's pixels).
	rs := theGame.liveRegions()
	for i := range rs {
		for j := i + 1; j < len(rs); j++ {
			if a, b := theGame.pxOut(rs[i].r), theGame.pxOut(rs[j].r); a.Overlaps(b) {
				t.Errorf("live regions %d %v and %d %v overlap", i, a, j, b)
			}
		}
	}
}

// The sounds follow the screen: a spin is heard starting, each reel
// landing and the win when the reels show it; S mutes them (the legend
// says so) and a touched button clicks.
func TestScreenSounds(t *testing.T) {
	pt, _ := assets.LoadPaytable(assets.DefaultGame)
	stops := findWin(t, pt)
	v := spinView(t, pt, stops, "spinning")
	c := useCanned(t, idleView())
	wait(t, 2, nil)
	speaker.take()
	c.setView(v)
	wait(t, 2, func(g *game) bool { return g.Spinning() })
	end := v
	end.Mode = "idle"
	c.setView(end)
	wait(t, 2, func(g *game) bool { return !g.Spinning() })
	want := []string{"play spin", "play stop0", "play stop1", "play stop2", "play stop3", "play stop4", "stop spin",
		"play " + sound.WinName(sound.WinTier(v.SpinWinCents, v.BetCents))}
	if got := speaker.take(); !slices.Equal(got, want) {
		t.Errorf("a winning spin sounds %v\nwant %v", got, want)
	}
	legend := model.Rect{X: model.RectRight.X + 8, Y: model.RectRight.Y + 46 + 9*30 - 10, W: 118, H: 20}
	before := grab(t, "sound_on")
	on(t, func(g *game, _ int, _ func() *image.RGBA) bool { g.key("s"); return true })
	wait(t, 2, nil)
	after := grab(t, "sound_off")
	if !theGame.snd.Muted() {
		t.Fatal("S did not mute")
	}
	for _, c := range speaker.take() {
		if !strings.HasPrefix(c, "stop ") {
			t.Errorf("muting: %s", c)
		}
	}
	diff := 0
	for y := legend.Y; y < legend.Y+legend.H; y++ {
		for x := legend.X; x < legend.X+legend.W; x++ {
			if dist(pixel(before, theGame, x, y), pixel(after, theGame, x, y)) > 80 {
				diff++
			}
		}
	}
	if diff < 30 {
		t.Errorf("the legend does not show the sound off (%d pixels changed)", diff)
	}
	on(t, func(g *game, _ int, _ func() *image.RGBA) bool {
		g.clickPixel(g.toScreenInt(1160, 669)) // the spin button: muted, not heard
		g.key("s")
		g.clickPixel(g.toScreenInt(255, 672)) // the language button
		return true
	})
	wait(t, 2, nil)
	if got := speaker.take(); !slices.Equal(got, []string{"play click"}) {
		t.Errorf("a button touched muted, then one with the sound on: %v, want one click", got)
	}
	c.setView(idleView())
	wait(t, 2, nil)
	speaker.take()
}

// The paytable pages in Portuguese and English: the line pays page shows a
// tile of every paying symbol, and the two languages differ.
func TestScreenPaytable(t *testing.T) {
	pt, _ := assets.LoadPaytable(assets.DefaultGame)
	shots := map[string]*image.RGBA{}
	for _, lang := range []string{"pt", "en"} {
		v := idleView()
		v.Lang, v.Credits, v.CreditsCents = lang, 100, 100
		useCanned(t, v)
		on(t, func(g *game, _ int, _ func() *image.RGBA) bool {
			x, y := 95.0, 672.0 // the help button
			g.Click(x, y)
			return true
		})
		wait(t, 1, func(g *game) bool { return g.Help }) // when the view says so
		on(t, func(g *game, _ int, _ func() *image.RGBA) bool { g.PageBy(1); return true })
		wait(t, 3, nil)
		img := grab(t, "paytable_"+lang)
		notBlank(t, img)
		if !theGame.Help || theGame.HelpPage != 1 {
			t.Fatalf("%s: help %v page %d", lang, theGame.Help, theGame.HelpPage)
		}
		for _, lp := range pt.LinePays {
			id := pt.Symbols[lp.Symbol].ID
			want, n := SymbolColor(id), 0
			for y := 70; y < 620; y += 2 {
				for x := 30; x < 1250; x += 2 {
					if dist(img.RGBAAt(x, y), want) < 12 {
						n++
					}
				}
			}
			if n < 40 {
				t.Errorf("%s: symbol %s is not drawn on the line pays page (%d pixels)", lang, id, n)
			}
		}
		shots[lang] = img
		on(t, func(g *game, _ int, _ func() *image.RGBA) bool { g.Key(model.KeyEscape); return true })
	}
	diff := 0
	for y := 0; y < 720; y += 4 {
		for x := 0; x < 1280; x += 4 {
			if shots["pt"].RGBAAt(x, y) != shots["en"].RGBAAt(x, y) {
				diff++
			}
		}
	}
	if diff < 500 {
		t.Errorf("the Portuguese and English pages look the same (%d pixels differ)", diff)
	}
}

// Lockouts: a tilt and a handpay cover the reels with their panel.
func TestScreenLockouts(t *testing.T) {
	for _, c := range []struct {
		name string
		edit func(v *machine.View)
		edge color.RGBA
	}{
		{"tilt", func(v *machine.View) { v.Mode, v.Tilts = "tilt", []string{"printer"} }, colRed},
		{"handpay", func(v *machine.View) {
			v.Mode, v.Handpay, v.HandpayKind = "handpay", 150000, "win"
			v.Message = machine.Message{Key: "msg_handpay", Args: []int64{150000}}
		}, colGold},
		{"door_open", func(v *machine.View) { v.Mode, v.DoorsOpen = "door_open", []string{"main", "logic"} }, colRed},
	} {
		v := idleView()
		v.Credits, v.CreditsCents = 100, 100
		c.edit(&v)
		useCanned(t, v)
		wait(t, 3, nil)
		img := grab(t, c.name)
		notBlank(t, img)
		n := 0
		edge := shade(c.edge, 0.5)
		y := model.RectReels.Y + 52
		if c.name == "handpay" {
			y = model.RectReels.Y + 8 // a panel at the top: the win stays in sight
		}
		for x := model.RectReels.X + 130; x < model.RectReels.X+model.RectReels.W-130; x++ {
			if dist(pixel(img, theGame, x, y), edge) < 30 {
				n++
			}
		}
		if n < 300 {
			t.Errorf("%s: the lockout panel's edge is not drawn (%d pixels)", c.name, n)
		}
		if n := inked(img, theGame, model.RectMessage.Inset(4)); n < 200 {
			t.Errorf("%s: message area is empty", c.name)
		}
	}
}

// The service menu on the real machine core: key on, default PIN, a new
// PIN, the meters page, and the recall page drawing the last game.
func TestScreenServiceMenu(t *testing.T) {
	pt, _ := assets.LoadPaytable(assets.DefaultGame)
	const hash = "3f9a0c1d5e7b2a4968c0f1e2d3b4a5968778695a4b3c2d1e0f9e8d7c6b5a4938"
	d := demo.New(pt, demo.Config{MachineID: "EGM-0042", Denom: 5, Seed: 7, ProgramHash: hash})
	d.InsertBill(2000)
	for range 3 {
		d.Press(machine.BtnSpin)
		d.Advance(3 * time.Second)
	}
	cab.set(d)
	wait(t, 2, nil)
	d.SetSwitch(SwitchKey, true)
	wait(t, 2, func(g *game) bool { return g.Pad.Mode == "login" })
	press := func(ids ...string) {
		on(t, func(g *game, _ int, _ func() *image.RGBA) bool {
			for _, id := range ids {
				ok := false
				for _, b := range g.Buttons() {
					if b.ID == id {
						x, y := b.R.Center()
						g.Click(x, y)
						ok = true
						break
					}
				}
				if !ok {
					t.Errorf("no button %s", id)
				}
			}
			return true
		})
		wait(t, 2, nil)
	}
	press("role:technician", "pad:0", "pad:0", "pad:0", "pad:0", "pad:ok")
	wait(t, 2, func(g *game) bool { return g.V.Mode == "service" && g.Pad.Mode == "set_pin" })
	press("pad:3", "pad:1", "pad:4", "pad:1", "pad:5", "pad:9", "pad:ok")
	press("pad:3", "pad:1", "pad:4", "pad:1", "pad:5", "pad:9", "pad:ok") // again, to confirm
	wait(t, 3, func(g *game) bool { return g.V.Service != nil && !g.V.Service.MustChangePIN && g.Pad.Mode == "" })
	img := grab(t, "service")
	notBlank(t, img)
	if p := theGame.V.Service.Page; p != "meters" || len(theGame.V.Service.Meters) == 0 {
		t.Fatalf("service page %q with %d meters", p, len(theGame.V.Service.Meters))
	}
	if n := inked(img, theGame, model.RectSvcContent.Inset(10)); n < 5000 {
		t.Errorf("the meters page is nearly empty (%d pixels of text)", n)
	}
	// Every meter is inside the page: nothing written between the page
	// and the message bar, nor between the bar and the buttons.
	page := model.RectSvcContent
	for _, gap := range []model.Rect{{X: page.X, Y: page.Y + page.H + 1, W: page.W, H: model.RectSvcMessage.Y - page.Y - page.H - 2},
		{X: page.X, Y: model.RectSvcMessage.Y + model.RectSvcMessage.H + 1, W: page.W, H: 8}} {
		if n := coloured(img, theGame, gap, colText) + coloured(img, theGame, gap, colGold); n > 0 {
			t.Errorf("meters written outside the page, in %v (%d pixels)", gap, n)
		}
	}
	press("page:recall")
	wait(t, 2, func(g *game) bool { return g.V.Service.Page == "recall" && len(g.V.Service.Recall) == 3 })
	img = grab(t, "recall")
	rc := theGame.V.Service.Recall[0]
	if !rc.Match {
		t.Errorf("recall of game %d does not match: %+v", rc.Game, rc)
	}
	win := model.RectRecallWindow
	n, rows := len(rc.Window), len(rc.Window[0])
	checkCells(t, img, pt, rc.Window, func(i, j int) model.Rect {
		return model.Rect{X: win.X + float64(i)*win.W/float64(n), Y: win.Y + float64(j)*win.H/float64(rows), W: win.W / float64(n), H: win.H / float64(rows)}
	})
	press("page:identity")
	wait(t, 2, func(g *game) bool { return g.V.Service.Page == "identity" })
	img = grab(t, "identity")
	notBlank(t, img)
	id := theGame.Identity()
	if strings.Join(id.ProgramHash, "") != hash || len(id.RTP) != len(pt.RTP) || id.Actual == "" {
		t.Errorf("identification page content: %+v", id)
	}
	c := model.RectSvcContent
	// Left: the hash and digest in two lines each; right: the RTP table and
	// the actual RTP box.
	if n := inked(img, theGame, model.Rect{X: c.X + 30, Y: c.Y + 100, W: 400, H: 56}); n < 1500 {
		t.Errorf("the program hash is not drawn (%d pixels of text)", n)
	}
	if n := inked(img, theGame, model.Rect{X: c.X + 640, Y: c.Y + 70, W: 580, H: float64(len(pt.RTP)) * 28}); n < 400*len(pt.RTP) {
		t.Errorf("the certified RTP table is nearly empty (%d pixels of text)", n)
	}
	if n := inked(img, theGame, model.Rect{X: c.X + 654, Y: c.Y + c.H - 70, W: 300, H: 40}); n < 300 {
		t.Errorf("the actual RTP is not drawn (%d pixels of text)", n)
	}
	press("page:io")
	wait(t, 2, func(g *game) bool { return g.V.Service.Page == "io" })
	press("io:lamp_spin")
	wait(t, 2, func(g *game) bool { return g.OutputOn("lamp_spin") })
	img = grab(t, "io")
	// The toggle reached the machine: with the players' credit still on it,
	// the machine refuses output tests (machine.idleForService).
	if theGame.V.Credits > 0 {
		if d.Refused != "refused_credits_on_machine" {
			t.Errorf("lamp_spin with credits on the machine: refused %q, outputs %v", d.Refused, d.Outputs)
		}
	} else if !d.Outputs["lamp_spin"] {
		t.Errorf("lamp_spin was not switched on: %v", d.Outputs)
	}
	var lamp model.Rect
	for _, b := range theGame.Buttons() {
		if b.ID == "io:lamp_spin" {
			lamp = b.R
		}
	}
	if got := pixel(img, theGame, lamp.X+8, lamp.Y+lamp.H/2); dist(got, shade(colGold, 0.8)) > 40 {
		t.Errorf("the lamp_spin toggle is not drawn as on: %v", got)
	}
	// The refusal says why, in the service menu's message bar.
	if theGame.V.Credits > 0 {
		if n := inked(img, theGame, model.RectSvcMessage.Inset(4)); n < 200 {
			t.Errorf("the refused output test is silent (%d pixels in the message bar)", n)
		}
	}
	// The event log: the session's login and the notes, in Portuguese.
	press("page:events")
	wait(t, 2, func(g *game) bool { return g.V.Service.Page == "events" && len(g.V.Service.Events) > 0 })
	img = grab(t, "events")
	if n := inked(img, theGame, model.RectSvcContent.Inset(10)); n < 3000 {
		t.Errorf("the event log is nearly empty (%d pixels of text)", n)
	}
	// Settings: a change of money is asked again, saying what changes.
	press("page:settings")
	wait(t, 2, func(g *game) bool { return g.V.Service.Page == "settings" })
	press("set:handpay_limit:250000")
	img = grab(t, "settings")
	if n := inked(img, theGame, model.RectConfirm.Inset(8)); n < 1000 {
		t.Errorf("the confirmation of the handpay limit is not drawn (%d pixels)", n)
	}
	press("set:cancel")
	press("svc:logout")
	d.SetSwitch(SwitchKey, false)
	wait(t, 2, func(g *game) bool { return g.V.Mode != "service" && g.Pad.Mode == "" })
}

// Frame time while the reels spin and while a win is shown, at 1280×720 and
// 1920×1080, vsync off and as many frames as the machine draws. ns/op is the
// wall time of one frame (drawing, rasterising, presentation); cpu-ns the
// CPU time of the process a frame, every thread (the software rasteriser's
// too); draw-ns the CPU time of the drawing calls.
//
//   - empty: the peer, a frame that draws nothing: ebiten's own cost of a
//     frame at that size (its clearing of the screen, the copy to the
//     window, the presentation). Under Xvfb's software GL, the floor the
//     others stand on.
//   - spin: the reels turning, the spin restarted as soon as it ends.
//   - win: the win presentation after the reels land, replayed: the win
//     meter counting up, the lines all together, then one by one.
//   - full: a spin with the whole screen drawn every frame, as when the
//     still layer changes (a spin starts or ends, a button is enabled).
func BenchmarkFrame(b *testing.B) {
	pt, _ := assets.LoadPaytable(assets.DefaultGame)
	stops := findWinB(pt)
	for _, size := range [][2]int{{1280, 720}, {1920, 1080}} {
		for _, phase := range []string{"empty", "spin", "win", "full"} {
			b.Run(fmt.Sprintf("%dx%d/%s", size[0], size[1], phase), func(b *testing.B) {
				v := spinViewB(pt, stops)
				c := &canned{pt: pt, v: v}
				cab.set(c)
				on(b, func(g *game, _ int, _ func() *image.RGBA) bool {
					ebiten.SetWindowSize(size[0], size[1])
					ebiten.SetVsyncEnabled(false)
					ebiten.SetTPS(ebiten.SyncWithFPS)
					return true
				})
				wait(b, 10, func(g *game) bool { return g.w == size[0] && g.h == size[1] })
				if phase == "win" {
					end := v
					end.Mode = "idle"
					c.setView(end)
					wait(b, 1, func(g *game) bool { return !g.Spinning() })
					on(b, func(g *game, _ int, _ func() *image.RGBA) bool { g.ReplayWin(); return true })
				}
				on(b, func(g *game, _ int, _ func() *image.RGBA) bool {
					// The empty frame is ebiten's as it comes: the screen
					// cleared, copied to the window and presented.
					g.bare = phase == "empty"
					ebiten.SetScreenClearedEveryFrame(g.bare)
					return true
				})
				wait(b, 3, nil)
				var draw time.Duration
				frames := 0
				cpu0, redr0, live0 := cpuTime(), theGame.still.redr, theGame.liveRedr
				b.ResetTimer()
				on(b, func(g *game, n int, _ func() *image.RGBA) bool {
					if (phase == "spin" || phase == "full") && !g.Spinning() {
						g.Anim = model.NewReelAnim(g.Tick, v, pt)
					}
					if phase == "win" && g.Tick-g.ShownDone > model.LinesAll+3*model.LineEach {
						g.ReplayWin()
					}
					if phase == "full" {
						g.still.sum, g.shown = 0, 0 // the layer and the screen as new
					}
					draw += g.lastDraw
					frames++
					return frames >= b.N
				})
				b.StopTimer()
				cpu := cpuTime() - cpu0
				b.ReportMetric(float64(draw.Nanoseconds())/float64(frames), "draw-ns/frame")
				b.ReportMetric(float64(cpu.Nanoseconds())/float64(frames), "cpu-ns/frame")
				b.ReportMetric(float64(theGame.still.redr-redr0)/float64(frames), "layers/frame")
				b.ReportMetric(float64(theGame.liveRedr-live0)/float64(frames), "regions/frame")
				on(b, func(g *game, _ int, _ func() *image.RGBA) bool {
					g.bare = false
					ebiten.SetScreenClearedEveryFrame(false)
					ebiten.SetVsyncEnabled(true)
					ebiten.SetTPS(60)
					ebiten.SetWindowSize(1280, 720)
					return true
				})
				wait(b, 5, func(g *game) bool { return g.w == 1280 })
			})
		}
	}
}

// cpuTime is the CPU time of this process so far, every thread (the
// software rasteriser's too): unlike the wall time of a frame, it does not
// grow when other work on the machine takes the cores.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

func findWinB(pt *reels.Certified) []int {
	for a := 0; a < 40; a++ {
		for b := 0; b < 40; b++ {
			stops := []int{a, b, (a + 5) % 40, (b + 9) % 40, (a + b) % 40}
			// Two lines or more, and a win the meter counts up a cent a
			// frame or faster.
			if sp, err := pt.Evaluate(stops, 0, false); err == nil && len(sp.Lines) >= 2 && sp.Win >= 60 {
				return stops
			}
		}
	}
	return []int{0, 0, 0, 0, 0}
}

func spinViewB(pt *reels.Certified, stops []int) machine.View {
	sp, _ := pt.Evaluate(stops, 0, false)
	v := idleView()
	v.Mode, v.Game, v.Stops, v.Credits, v.CreditsCents = "spinning", 3, stops, 480, 480
	for _, col := range pt.Window(stops, false) {
		var ids []string
		for _, s := range col {
			ids = append(ids, pt.Symbols[s].ID)
		}
		v.Window = append(v.Window, ids)
	}
	for _, l := range sp.Lines {
		v.Lines = append(v.Lines, machine.ViewLine{Line: l.Line, Symbol: pt.Symbols[l.Symbol].ID, Count: l.Count, Cents: l.Credits})
	}
	v.SpinWinCents, v.GameWinCents = sp.Win, sp.Win
	return v
}

// jackpotLevels are a paytable level (the default paytable's level 1) and a
// mystery level, as the machine shows them.
func jackpotLevels() []machine.JackpotView {
	return []machine.JackpotView{
		{Level: 1, Cents: 1234_56, ResetCents: 500_00, RatePPM: 10_000},
		{Level: 2, Mystery: true, Cents: 23_45, ResetCents: 20_00, CapCents: 50_00, RatePPM: 5_000},
	}
}

// bannerCell is the design rectangle of cell i of n on the jackpot banner
// (as drawJackpots lays them out).
func bannerCell(i, n int) model.Rect {
	const gap = 10.0
	r := model.RectJackpots
	w := (r.W - gap*float64(n-1)) / float64(n)
	return model.Rect{X: r.X + float64(i)*(w+gap), Y: r.Y, W: w, H: r.H}
}

// goldish counts the pixels of a design rectangle in the gold of a level
// being paid (any shade the pulse gives it).
func goldish(img *image.RGBA, g *game, r model.Rect) (n, all int) {
	for y := r.Y; y < r.Y+r.H; y += 2 {
		for x := r.X; x < r.X+r.W; x += 2 {
			c := pixel(img, g, x, y)
			if c.R > 0x90 && c.G > 0x70 && c.B < 0x50 && c.R > c.B+0x50 {
				n++
			}
			all++
		}
	}
	return n, all
}

// The jackpot banner above the reels: each level's name and value drawn in
// its panel, the reels below it showing the committed stops; a new game's
// values are drawn at once, a level being paid is highlighted; without
// levels the screen is as it was.
func TestScreenJackpotBanner(t *testing.T) {
	pt, _ := assets.LoadPaytable(assets.DefaultGame)
	plain := spinView(t, pt, []int{7, 18, 29, 11, 3}, "idle")
	plain.Lines, plain.SpinWinCents, plain.GameWinCents = nil, 0, 0 // cells unobstructed
	v := plain
	v.Jackpots, v.HandpayLimit = jackpotLevels(), 1200_00
	c := useCanned(t, v)
	wait(t, 3, nil)
	img := grab(t, "jackpot_banner")
	notBlank(t, img)
	var got []string
	for _, cell := range theGame.JackpotBanner() {
		got = append(got, cell.String())
	}
	if want := []string{"JACKPOT 1.234,56 €", "MISTÉRIO 23,45 €"}; !slices.Equal(got, want) {
		t.Errorf("banner %q, want %q", got, want)
	}
	for i := range 2 {
		cr := bannerCell(i, 2).Inset(4)
		label := model.Rect{X: cr.X + 8, Y: cr.Y + 4, W: cr.W*0.42 - 8, H: cr.H - 8}
		value := model.Rect{X: cr.X + cr.W*0.42, Y: cr.Y + 4, W: cr.W*0.58 - 8, H: cr.H - 8}
		if n := inked(img, theGame, label); n < 100 {
			t.Errorf("level %d: its name is not drawn (%d pixels of text)", i, n)
		}
		if n := inked(img, theGame, value); n < 250 {
			t.Errorf("level %d: its value is not drawn (%d pixels of text)", i, n)
		}
	}
	n, rows := len(v.Window), len(v.Window[0])
	checkCells(t, img, pt, v.Window, func(i, j int) model.Rect { return theGame.Cell(i, j, n, rows) })
	if theGame.ReelsRect() != model.RectReelsJackpot {
		t.Errorf("the reels are at %v with a banner", theGame.ReelsRect())
	}

	// The next game: new values, drawn from the new view.
	next := v
	next.Jackpots = jackpotLevels()
	next.Jackpots[0].Cents, next.Jackpots[1].Cents = 9876_54, 31_07
	c.setView(next)
	wait(t, 2, nil)
	img2 := grab(t, "jackpot_banner_next")
	for i := range 2 {
		cr := bannerCell(i, 2)
		diff := 0
		for y := cr.Y; y < cr.Y+cr.H; y++ {
			for x := cr.X + cr.W*0.42; x < cr.X+cr.W; x++ {
				if dist(pixel(img, theGame, x, y), pixel(img2, theGame, x, y)) > 80 {
					diff++
				}
			}
		}
		if diff < 100 {
			t.Errorf("level %d: the new value is not drawn (%d pixels changed)", i, diff)
		}
	}

	// The mystery level hit: its panel is gold until it is paid.
	hit := next
	hit.Jackpots = jackpotLevels()
	hit.Jackpots[1].Pending = true
	hit.Message = machine.Message{Key: "refused_jackpot_pending"}
	c.setView(hit)
	wait(t, 2, nil)
	img3 := grab(t, "jackpot_pending")
	if g, all := goldish(img3, theGame, bannerCell(1, 2).Inset(4)); g < all/2 {
		t.Errorf("the level being paid is not highlighted: %d of %d pixels gold", g, all)
	}
	if g, all := goldish(img3, theGame, bannerCell(0, 2).Inset(4)); g > all/10 {
		t.Errorf("a level not being paid is highlighted: %d of %d pixels gold", g, all)
	}

	// Four levels: narrower panels, the name above the value.
	four := next
	four.Jackpots = append(jackpotLevels(),
		machine.JackpotView{Level: 3, Mystery: true, Cents: 150_00, ResetCents: 100_00, CapCents: 200_00, RatePPM: 2_000},
		machine.JackpotView{Level: 4, Mystery: true, Cents: 1_000_00, ResetCents: 800_00, CapCents: 1500_00, RatePPM: 1_000})
	c.setView(four)
	wait(t, 2, nil)
	img5 := grab(t, "jackpot_banner_four")
	for i := range 4 {
		cr := bannerCell(i, 4).Inset(4)
		if n := inked(img5, theGame, model.Rect{X: cr.X + 6, Y: cr.Y + cr.H*0.4, W: cr.W - 12, H: cr.H * 0.55}); n < 150 {
			t.Errorf("level %d of 4: its value is not drawn (%d pixels of text)", i, n)
		}
	}

	// Without levels: no banner, the reels where they always were.
	c.setView(plain)
	wait(t, 2, nil)
	img4 := grab(t, "jackpot_none")
	if len(theGame.JackpotBanner()) != 0 || theGame.ReelsRect() != model.RectReels {
		t.Errorf("without levels: banner %v, reels %v", theGame.JackpotBanner(), theGame.ReelsRect())
	}
	checkCells(t, img4, pt, plain.Window, func(i, j int) model.Rect { return model.CellRect(i, j, n, rows) })
}

// A jackpot paid by hand: the lockout's title says JACKPOT, unlike a
// paytable win's handpay, with the amount under it.
func TestScreenJackpotHandpay(t *testing.T) {
	shots := map[string]*image.RGBA{}
	var panel model.Rect
	for _, kind := range []string{"win", "progressive"} {
		v := idleView()
		v.Credits, v.CreditsCents, v.HandpayLimit = 100, 100, 1200_00
		v.Jackpots = jackpotLevels()
		v.Mode, v.Handpay, v.HandpayKind = "handpay", 1500_00, kind
		v.Message = machine.Message{Key: "msg_handpay", Args: []int64{1500_00}}
		if kind == "progressive" {
			v.Message.Key = "msg_jackpot_handpay"
		}
		useCanned(t, v)
		wait(t, 3, nil)
		img := grab(t, "jackpot_handpay_"+kind)
		notBlank(t, img)
		shots[kind] = img
		var title model.Rect
		var firstY float64
		on(t, func(g *game, _ int, _ func() *image.RGBA) bool { panel, title, firstY = g.lockoutLayout(); return true })
		n := 0
		for x := panel.X + 10; x < panel.X+panel.W-10; x++ {
			if dist(pixel(img, theGame, x, panel.Y+2), shade(colGold, 0.5)) < 30 {
				n++
			}
		}
		if n < 300 {
			t.Errorf("%s: the lockout panel's edge is not drawn (%d pixels)", kind, n)
		}
		if n := inked(img, theGame, title); n < 1000 {
			t.Errorf("%s: the lockout's title is not drawn (%d pixels)", kind, n)
		}
		if n := inked(img, theGame, model.Rect{X: panel.X + 20, Y: firstY - 20, W: panel.W - 40, H: 40}); n < 1000 {
			t.Errorf("%s: the amount is not drawn (%d pixels)", kind, n)
		}
		if n := inked(img, theGame, model.RectMessage.Inset(4)); n < 200 {
			t.Errorf("%s: message area is empty", kind)
		}
	}
	head, lines := theGame.LockoutLines()
	if head != "JACKPOT: PAGAMENTO MANUAL" || len(lines) == 0 || lines[0] != "Jackpot ganho: 1.500,00 €" {
		t.Errorf("progressive handpay lockout: %q %q", head, lines)
	}
	diff := 0
	var title model.Rect
	on(t, func(g *game, _ int, _ func() *image.RGBA) bool { _, title, _ = g.lockoutLayout(); return true })
	for y := title.Y; y < title.Y+title.H; y += 2 {
		for x := title.X; x < title.X+title.W; x += 2 {
			if dist(pixel(shots["win"], theGame, x, y), pixel(shots["progressive"], theGame, x, y)) > 80 {
				diff++
			}
		}
	}
	if diff < 200 {
		t.Errorf("a jackpot's handpay has the title of a win's (%d pixels differ)", diff)
	}
}

// The jackpot rules page in Portuguese and English: the page the window
// draws lists every level with its reset, rate and cap, and the level 1
// combination is drawn with its real symbols.
func TestScreenJackpotRules(t *testing.T) {
	shots := map[string]*image.RGBA{}
	for _, lang := range []string{"pt", "en"} {
		v := idleView()
		v.Lang, v.Credits, v.CreditsCents, v.HandpayLimit = lang, 100, 100, 1200_00
		v.Jackpots = jackpotLevels()
		v.TopOffered = 4 // the paytable's level is local: the top bet is offered
		useCanned(t, v)
		var page model.Page
		on(t, func(g *game, _ int, _ func() *image.RGBA) bool {
			g.Click(95, 672) // the help button
			return true
		})
		wait(t, 1, func(g *game) bool { return g.Help }) // when the view says so
		on(t, func(g *game, _ int, _ func() *image.RGBA) bool {
			for i, p := range g.PaytablePages() {
				if p.Title == model.T(lang, "pt_title_jackpots") {
					g.PageBy(i)
					page = p
				}
			}
			return true
		})
		wait(t, 3, nil)
		img := grab(t, "paytable_jackpot_"+lang)
		notBlank(t, img)
		if page.Title == "" || !theGame.Help || theGame.PaytablePages()[theGame.HelpPage].Title != page.Title {
			t.Fatalf("%s: the jackpot page is not on screen (help %v, page %d)", lang, theGame.Help, theGame.HelpPage)
		}
		text := model.PageText(page)
		for _, j := range v.Jackpots {
			for _, w := range []string{model.Euro(lang, j.ResetCents), model.RatePercent(lang, j.RatePPM)} {
				if !strings.Contains(text, w) {
					t.Errorf("%s: level %d: %q is not on the page:\n%s", lang, j.Level, w, text)
				}
			}
		}
		if !strings.Contains(text, model.T(lang, "jp_top_bet", "10")) {
			t.Errorf("%s: the page does not say level 1 is won at the top bet only:\n%s", lang, text)
		}
		if !strings.Contains(text, model.Euro(lang, 50_00)) || !strings.Contains(text, model.Euro(lang, 1200_00)) {
			t.Errorf("%s: the mystery cap or the handpay limit is not on the page:\n%s", lang, text)
		}
		want, n := SymbolColor("W"), 0
		for y := 70; y < 620; y += 2 {
			for x := 30; x < 1250; x += 2 {
				if dist(img.RGBAAt(x, y), want) < 12 {
					n++
				}
			}
		}
		if n < 40 {
			t.Errorf("%s: the jackpot combination's symbols are not drawn (%d pixels)", lang, n)
		}
		body := model.Rect{X: model.RectPage.X + 30, Y: model.RectPage.Y + 70, W: model.RectPage.W - 60, H: model.RectPage.H - 80}
		if n := inked(img, theGame, body); n < 8000 {
			t.Errorf("%s: the jackpot page is nearly empty (%d pixels of text)", lang, n)
		}
		shots[lang] = img
		on(t, func(g *game, _ int, _ func() *image.RGBA) bool { g.Key(model.KeyEscape); return true })
	}
	diff := 0
	for y := 0; y < 720; y += 4 {
		for x := 0; x < 1280; x += 4 {
			if shots["pt"].RGBAAt(x, y) != shots["en"].RGBAAt(x, y) {
				diff++
			}
		}
	}
	if diff < 500 {
		t.Errorf("the Portuguese and English jackpot pages look the same (%d pixels differ)", diff)
	}
}

// triggerView is a base spin that wins free games, as the machine shows it.
func triggerView(t *testing.T, pt *reels.Certified) machine.View {
	src := rng.NewSeeded(3)
	for range 200000 {
		stops := pt.DrawStops(src, false, nil)
		sp, err := pt.Evaluate(stops, 0, false)
		if err != nil || sp.FreeAwarded == 0 || len(sp.Lines) > 0 {
			continue
		}
		v := spinView(t, pt, stops, "spinning")
		v.GameOpen, v.FreeLeft, v.FreeAwarded = true, sp.FreeAwarded, sp.FreeAwarded
		id := pt.Symbols[pt.Free.Symbol].ID
		sc := machine.ViewScatter{Symbol: id, FreeGames: sp.FreeAwarded}
		for i, col := range v.Window {
			for r, sym := range col {
				if sym == id {
					sc.Cells = append(sc.Cells, [2]int{i, r})
				}
			}
		}
		sc.Count = len(sc.Cells)
		for _, s := range sp.Scatters {
			sc.Cents = s.Credits
		}
		v.Scatters = []machine.ViewScatter{sc}
		return v
	}
	t.Fatal("no trigger without line wins found")
	return machine.View{}
}

// Free games: while the trigger's reels turn nothing tells of them; when
// they land the Caravelas are framed in gold, the top bar says how many
// games were won and the message bar names the trigger; during the feature
// the top bar counts "Jogo grátis 3 de 10".
func TestScreenFreeGames(t *testing.T) {
	pt, _ := assets.LoadPaytable(assets.DefaultGame)
	v := triggerView(t, pt)
	c := useCanned(t, idleView())
	c.setView(v)
	wait(t, 2, func(g *game) bool { return g.Spinning() })
	mid := grab(t, "free_trigger_spinning")
	if k := coloured(mid, theGame, rectTopMiddle, colButtonHi); k > 100 {
		t.Errorf("the free games are announced while the reels turn (%d pixels of the panel)", k)
	}
	wait(t, 0, func(g *game) bool { return !g.Spinning() && g.Tick-g.ShownDone >= model.LinesAll+10 })
	img := grab(t, "free_trigger")
	n, rows := len(v.Window), len(v.Window[0])
	for _, cell := range v.Scatters[0].Cells {
		r := model.CellRect(cell[0], cell[1], n, rows).Inset(5)
		if k := coloured(img, theGame, model.Rect{X: r.X, Y: r.Y + r.H/2 - 10, W: 5, H: 20}, colGold); k < 30 {
			t.Errorf("the Caravela at reel %d row %d is not framed in gold (%d pixels)", cell[0]+1, cell[1]+1, k)
		}
	}
	if k := coloured(img, theGame, rectTopMiddle, colButtonHi); k < 2000 {
		t.Errorf("no free games panel in the top bar (%d pixels)", k)
	}
	if k := coloured(img, theGame, model.RectMessage.Inset(4), colGold); k < 40 {
		t.Errorf("the trigger is not named in gold in the message bar (%d pixels)", k)
	}
	f := v
	f.Free, f.FreePlayed, f.FreeLeft, f.FreeAwarded, f.Scatters, f.Game = true, 3, v.FreeLeft-3, 0, nil, v.Game
	f.Stops = []int{(v.Stops[0] + 1) % 40, v.Stops[1], v.Stops[2], v.Stops[3], v.Stops[4]}
	c.setView(f)
	wait(t, 2, func(g *game) bool { return g.FreeBanner() != "" && !g.Spinning() })
	grab(t, "free_game")
}

// A handpay win: the lockout panel leaves the winning lines in sight.
func TestScreenHandpayShowsTheWin(t *testing.T) {
	pt, _ := assets.LoadPaytable(assets.DefaultGame)
	v := spinView(t, pt, findWin(t, pt), "handpay")
	v.Handpay, v.HandpayKind = 1500_00, "win"
	useCanned(t, v)
	wait(t, 3, nil)
	n, rows := len(v.Window), len(v.Window[0])
	litIn := func(img *image.RGBA) int {
		lit := 0
		for _, l := range v.Lines {
			// The line's path below the panel, between two reels.
			path := pt.Lines[l.Line]
			for i := 0; i+1 < n; i++ {
				ax, ay := model.CellRect(i, path[i], n, rows).Center()
				bx, by := model.CellRect(i+1, path[i+1], n, rows).Center()
				if ay < model.RectReels.Y+260 || by < model.RectReels.Y+260 {
					continue
				}
				for k := 0.3; k <= 0.7; k += 0.1 {
					if dist(pixel(img, theGame, ax+(bx-ax)*k, ay+(by-ay)*k), lineColor(l.Line)) < 40 {
						lit++
					}
				}
			}
		}
		return lit
	}
	// The winning lines are shown in turn: a frame may show one that runs
	// above the panel only. Some frame within a few cycles shows one below
	// it; none ever is the defect.
	for try := 0; ; try++ {
		if litIn(grab(t, "handpay_win")) > 0 {
			return
		}
		if try == 200 {
			t.Fatal("no winning line is visible under the handpay panel in 200 frames")
		}
		wait(t, 5, nil)
	}
}

// A jackpot paid to the credit meter is celebrated over the reels, and the
// win meter shows it.
func TestScreenJackpotCelebration(t *testing.T) {
	v := idleView()
	v.Credits, v.CreditsCents, v.Game = 2000, 2000, 9
	v.Message = machine.Message{Key: "msg_jackpot_won", Args: []int64{10_65}}
	useCanned(t, v)
	wait(t, 3, nil)
	img := grab(t, "jackpot_won")
	r := model.RectReels
	centre := model.Rect{X: r.X + 140, Y: r.Y + r.H/2 - 95, W: r.W - 280, H: 190}
	// The panel's gold pulses (0.6 to 1.0 of its brightness): whatever the
	// tick of the screenshot, one of these shades is its colour.
	gold := 0
	for _, p := range []float64{0.6, 0.7, 0.8, 0.9, 1.0} {
		gold += coloured(img, theGame, centre, shade(colGold, p))
	}
	if gold < 300 {
		t.Errorf("no gold celebration panel over the reels (%d pixels)", gold)
	}
	if theGame.WinMeter() != 10_65 {
		t.Errorf("the win meter shows %d, want the jackpot's 1065", theGame.WinMeter())
	}
}

// Every text the screens can show has its glyphs in the fonts that draw
// it: no missing-glyph box (a backspace key drawn as □).
func TestScreenGlyphs(t *testing.T) {
	fonts := map[string][]byte{"regular": goregular.TTF, "bold": gobold.TTF}
	var texts []string
	for _, lang := range model.Langs {
		for _, k := range model.Keys() {
			texts = append(texts, model.T(lang, k))
		}
	}
	on(t, func(g *game, _ int, _ func() *image.RGBA) bool {
		for _, b := range g.KeypadButtons() {
			texts = append(texts, b.Label)
		}
		return true
	})
	for name, ttf := range fonts {
		f, err := sfnt.Parse(ttf)
		if err != nil {
			t.Fatal(err)
		}
		var buf sfnt.Buffer
		missing := map[rune]string{}
		for _, s := range texts {
			for _, r := range s {
				if r < ' ' {
					continue
				}
				if i, err := f.GlyphIndex(&buf, r); err != nil || i == 0 {
					missing[r] = s
				}
			}
		}
		for r, s := range missing {
			t.Errorf("%s font has no glyph for %q (U+%04X), used in %q", name, r, r, s)
		}
	}
}

// keyOn is a canned cabinet whose view says the attendant key is on.
type keyOn struct{ *canned }

func (k keyOn) View() machine.View {
	v := k.canned.View()
	v.KeyOn = true
	return v
}

// The key turned for a handpay: the attendant confirms the amount paid.
func TestScreenHandpayConfirm(t *testing.T) {
	pt, _ := assets.LoadPaytable(assets.DefaultGame)
	v := idleView()
	v.Mode, v.Handpay, v.HandpayKind, v.HandpayConfirm = "handpay", 1500_00, "win", true
	cab.set(keyOn{&canned{pt: pt, v: v}})
	wait(t, 3, func(g *game) bool { return g.Pad.Mode == "handpay" })
	img := grab(t, "handpay_confirm")
	var paid model.Rect
	on(t, func(g *game, _ int, _ func() *image.RGBA) bool {
		for _, b := range g.Buttons() {
			if b.ID == "handpay:paid" {
				paid = b.R
			}
		}
		return true
	})
	if paid.W == 0 {
		t.Fatal("no PAID button")
	}
	if n := inked(img, theGame, paid.Inset(6)); n < 300 {
		t.Errorf("the PAID button's label is not drawn (%d pixels)", n)
	}
	if n := inked(img, theGame, model.Rect{X: model.RectPad.X + 20, Y: model.RectPad.Y + 80, W: model.RectPad.W - 40, H: 70}); n < 1000 {
		t.Errorf("the amount is not drawn on the pad (%d pixels)", n)
	}
	// A numbered receipt the cashier pays: the longer text still ends
	// above the button, in both languages.
	v.HandpayVoucher = true
	cab.set(keyOn{&canned{pt: pt, v: v}})
	wait(t, 3, func(g *game) bool { return g.V.HandpayVoucher })
	grab(t, "handpay_voucher")
	on(t, func(g *game, _ int, _ func() *image.RGBA) bool {
		for _, lang := range []string{"pt", "en"} {
			lang0 := g.Lang
			g.Lang = lang
			lines := g.wrap(g.T(g.HandpayText(), model.Euro(lang, v.Handpay)), 22, model.RectPad.W-60, false)
			g.Lang = lang0
			if end := model.RectPad.Y + 190 + float64(32*len(lines)); len(lines) == 0 || end > paid.Y {
				t.Errorf("%s: the voucher's text (%d lines) ends at %v, the button starts at %v", lang, len(lines), end, paid.Y)
			}
		}
		return true
	})
	useCanned(t, idleView())
}
