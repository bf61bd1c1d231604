package ui

import (
	"image"
	"strings"
	"time"

	"github.com/hajimehoshi/ebiten/v2"
	"github.com/hajimehoshi/ebiten/v2/inpututil"
	"github.com/hajimehoshi/ebiten/v2/text/v2"
	"github.com/openegm/cabinet/ui/model"
	"github.com/openegm/cabinet/ui/sound"
)

// game is the ebiten.Game of the screens: model.Screen decides what is on
// screen and what a touch or key does; game draws it and feeds it input.
type game struct {
	*model.Screen
	opts Options

	frame  int
	w, h   int     // screen in pixels
	scale  float64 // pixels per design unit
	ox, oy float64 // letterbox offset in pixels
	tiles  tileCache
	faces  map[faceKey]*text.GoTextFace
	still  layer   // what does not move on the player's screen
	sk     *sketch // not nil: the drawing helpers hash instead of drawing
	skBuf  sketch
	// The player's screen drawn at frame shown (0: none) at shownW×shownH,
	// and the hashes of its live regions then: the screen keeps its pixels.
	shown          int
	shownW, shownH int
	liveSum        [liveN]uint64
	liveRedr       int     // live regions drawn (tests)
	warmed         warmKey // the reels' tiles are drawn for these
	done           bool

	snd *sound.Player
	// hostSoundOff is the host's last sound order seen in the view.
	hostSoundOff bool
	watch        sound.Watcher
	cues         []sound.Cue

	// inject runs at the next Update, on the game's goroutine (tests).
	inject   []func(g *game)
	lastDraw time.Duration // CPU time of the last frame's drawing calls
	bare     bool          // draw nothing: the empty frame of the benchmarks' floor
}

func newGame(c Cabinet, opts Options) *game {
	g := &game{Screen: model.NewScreen(c, opts.Simulator), opts: opts, w: model.DesignW, h: model.DesignH, scale: 1, snd: opts.Sound}
	if g.snd == nil {
		g.snd = sound.NewPlayer(nil)
	}
	if onNewGame != nil {
		onNewGame(g)
	}
	return g
}

// onNewGame lets the screen tests reach the game Run creates.
var onNewGame func(*game)

// Layout draws at the window's own resolution, so text stays crisp at 1080p.
func (g *game) Layout(outsideW, outsideH int) (int, int) {
	g.setSize(outsideW, outsideH)
	return outsideW, outsideH
}

func (g *game) setSize(w, h int) {
	if w < 1 || h < 1 {
		return
	}
	g.w, g.h = w, h
	g.scale = min(float64(w)/model.DesignW, float64(h)/model.DesignH)
	g.ox = (float64(w) - model.DesignW*g.scale) / 2
	g.oy = (float64(h) - model.DesignH*g.scale) / 2
}

// toDesign converts a screen pixel to design units.
func (g *game) toDesign(x, y int) (float64, float64) {
	return (float64(x) - g.ox) / g.scale, (float64(y) - g.oy) / g.scale
}

// toScreenInt is the pixel of a design-space point.
func (g *game) toScreenInt(x, y float64) (int, int) {
	sx, sy := g.toScreen(x, y)
	return int(sx), int(sy)
}

// toScreen converts design units to pixels.
func (g *game) toScreen(x, y float64) (float64, float64) {
	return x*g.scale + g.ox, y*g.scale + g.oy
}

func (g *game) Update() error {
	if g.done {
		return ebiten.Termination
	}
	g.Screen.Update()
	for _, k := range inpututil.AppendJustPressedKeys(nil) {
		if name := keyName(k); name != "" {
			g.key(name)
		}
	}
	if inpututil.IsMouseButtonJustPressed(ebiten.MouseButtonLeft) {
		g.clickPixel(ebiten.CursorPosition())
	}
	for _, id := range inpututil.AppendJustPressedTouchIDs(nil) {
		g.clickPixel(ebiten.TouchPosition(id))
	}
	inj := g.inject
	g.inject = nil
	for _, f := range inj {
		f(g)
	}
	// The host's sound off and on (SAS 0x03/0x04) act on their change, so
	// the simulator's S key keeps working in between.
	if off := g.V.SoundOff; off != g.hostSoundOff {
		g.hostSoundOff = off
		g.snd.Mute(off)
	}
	// What this frame shows that is heard.
	g.cues = g.watch.Step(g.Screen, g.cues[:0])
	for _, c := range g.cues {
		g.snd.Cue(c)
	}
	return nil
}

// key handles a key: S turns the sound off and on in the simulator, the
// others go to the screen.
func (g *game) key(name string) {
	if name == "s" && g.opts.Simulator {
		g.snd.Mute(!g.snd.Muted())
		return
	}
	g.Key(name)
}

// keyName maps the keyboard onto model's key names.
func keyName(k ebiten.Key) string {
	switch {
	case k >= ebiten.KeyDigit0 && k <= ebiten.KeyDigit9:
		return string(rune('0' + k - ebiten.KeyDigit0))
	case k >= ebiten.KeyNumpad0 && k <= ebiten.KeyNumpad9:
		return string(rune('0' + k - ebiten.KeyNumpad0))
	case k >= ebiten.KeyA && k <= ebiten.KeyZ:
		return strings.ToLower(k.String())
	}
	switch k {
	case ebiten.KeySpace:
		return model.KeySpin
	case ebiten.KeyEnter, ebiten.KeyNumpadEnter:
		return model.KeyEnter
	case ebiten.KeyArrowUp:
		return model.KeyUp
	case ebiten.KeyArrowDown:
		return model.KeyDown
	case ebiten.KeyArrowLeft:
		return model.KeyLeft
	case ebiten.KeyArrowRight:
		return model.KeyRight
	case ebiten.KeyEscape:
		return model.KeyEscape
	case ebiten.KeyBackspace:
		return model.KeyBackspace
	case ebiten.KeyF1:
		return model.KeyF1
	}
	return ""
}

// clickPixel handles a click or touch at a screen pixel: a button that
// takes it clicks.
func (g *game) clickPixel(x, y int) {
	dx, dy := g.toDesign(x, y)
	if b, ok := g.ButtonAt(dx, dy); ok && b.Enabled && b.Act != nil {
		g.snd.Cue(sound.Cue{Kind: sound.Click})
	}
	g.Click(dx, dy)
}

func (g *game) Draw(screen *ebiten.Image) {
	g.frame++
	b := screen.Bounds()
	if b.Dx() != g.w || b.Dy() != g.h {
		g.setSize(b.Dx(), b.Dy())
	}
	t0 := time.Now()
	if !g.bare {
		g.draw(screen)
	}
	g.lastDraw = time.Since(t0)
	if g.opts.Frame != nil {
		shot := func() *image.RGBA {
			img := image.NewRGBA(screen.Bounds())
			screen.ReadPixels(img.Pix)
			return img
		}
		if g.opts.Frame(g.frame, shot) {
			g.done = true
		}
	}
}
