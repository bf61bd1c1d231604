package ui

import (
	"encoding/binary"
	"hash/maphash"
	"image"
	"image/color"
	"math"

	"github.com/hajimehoshi/ebiten/v2"
	"github.com/openegm/cabinet/ui/model"
)

// Under a software rasteriser a frame costs what its pixels cost: every
// panel, text and tile drawn is shaded pixel by pixel, every frame, and a
// textured full-screen copy costs as much as ebiten's own clearing of the
// screen. So the player's screen is drawn like this:
//
//   - What does not move (the background, the bars, the frames, the
//     labels, the buttons) is drawn once into a layer.
//   - A few live regions (the reels, the meters, the message, the jackpot
//     banner, the game's number) hold what moves. A region is redrawn, inside its rectangle,
//     only when what it shows changed: the layer's pixels are copied back
//     under it and its content is drawn over them.
//   - The screen keeps its pixels from frame to frame (ebiten does not
//     clear it); it is redrawn whole only when the layer changed or
//     something else (another screen, the keypad) was drawn on it.
//
// A layer or region knows when to redraw without a list of what it depends
// on: each frame its drawing function runs once with a sketch in place of
// the image, and the drawing helpers (fillRect, panel, text, tile…) hash
// their arguments instead of drawing. When the hash differs from the one it
// was drawn with, the function runs again, for real. So nothing on screen
// is stale, whatever the functions come to draw, provided they draw only
// through the helpers.

// layer is a full-screen image of what does not move.
type layer struct {
	img  *ebiten.Image
	sum  uint64
	redr int // times drawn (tests)
}

// update brings the layer up to date with fn; it says whether it drew.
func (l *layer) update(g *game, fn func(g *game, dst *ebiten.Image)) bool {
	sum := g.sketchOf(fn)
	if b := l.img; b == nil || b.Bounds().Dx() != g.w || b.Bounds().Dy() != g.h {
		if b != nil {
			b.Deallocate()
		}
		l.img = ebiten.NewImage(g.w, g.h)
		l.sum = sum + 1
	}
	if sum == l.sum {
		return false
	}
	fn(g, l.img) // fn paints every pixel: no need to clear
	l.sum = sum
	l.redr++
	return true
}

// sketchOf is the hash of what fn draws at this size.
func (g *game) sketchOf(fn func(g *game, dst *ebiten.Image)) uint64 {
	g.skBuf.reset()
	g.skBuf.num(float64(g.w)).num(float64(g.h))
	g.sk = &g.skBuf
	fn(g, nil)
	g.sk = nil
	return g.skBuf.sum()
}

// copyOpts copies pixels as they are (no blending: the layer is opaque).
var copyOpts = &ebiten.DrawImageOptions{Blend: ebiten.BlendCopy}

// drawPlayerScreen draws the player's screen onto a screen that holds
// the last frame if valid is true.
func (g *game) drawPlayerScreen(screen *ebiten.Image, valid bool) {
	full := g.still.update(g, (*game).drawPlayerStill) || !valid
	g.warmReelTiles()
	if full {
		screen.DrawImage(g.still.img, copyOpts)
	}
	if layoutRec != nil {
		layoutRec(drawn{Kind: 'L'}) // the live regions, over the layer
	}
	bounds := screen.Bounds()
	for i, lr := range g.liveRegions() {
		px := g.pxOut(lr.r).Intersect(bounds)
		fn := lr.draw
		sum := g.sketchOf(func(g *game, _ *ebiten.Image) {
			g.sk.rectPx(px)
			fn(g, nil)
		})
		if !full && sum == g.liveSum[i] {
			continue
		}
		g.liveSum[i] = sum
		g.liveRedr++
		if px.Empty() {
			continue
		}
		if !full {
			var cover image.Rectangle
			if lr.cover != nil {
				cover = lr.cover(g)
			}
			for _, r := range subtract(px, cover) {
				op := &ebiten.DrawImageOptions{Blend: ebiten.BlendCopy}
				op.GeoM.Translate(float64(r.Min.X), float64(r.Min.Y))
				screen.DrawImage(g.still.img.SubImage(r).(*ebiten.Image), op)
			}
		}
		fn(g, screen.SubImage(px).(*ebiten.Image))
	}
}

// subtract is r without c, as up to four rectangles.
func subtract(r, c image.Rectangle) []image.Rectangle {
	c = c.Intersect(r)
	if c.Empty() {
		return []image.Rectangle{r}
	}
	out := make([]image.Rectangle, 0, 4)
	for _, p := range []image.Rectangle{
		image.Rect(r.Min.X, r.Min.Y, r.Max.X, c.Min.Y), // above
		image.Rect(r.Min.X, c.Max.Y, r.Max.X, r.Max.Y), // below
		image.Rect(r.Min.X, c.Min.Y, c.Min.X, c.Max.Y), // left
		image.Rect(c.Max.X, c.Min.Y, r.Max.X, c.Max.Y), // right
	} {
		if !p.Empty() {
			out = append(out, p)
		}
	}
	return out
}

// sketch hashes drawing calls in place of making them.
type sketch struct {
	h   maphash.Hash
	buf [8]byte
}

func (s *sketch) reset() { s.h.Reset() }

func (s *sketch) sum() uint64 { return s.h.Sum64() }

func (s *sketch) op(kind byte) *sketch {
	s.h.WriteByte(kind)
	return s
}

func (s *sketch) num(v float64) *sketch {
	binary.LittleEndian.PutUint64(s.buf[:], math.Float64bits(v))
	s.h.Write(s.buf[:])
	return s
}

func (s *sketch) rect(r model.Rect) *sketch { return s.num(r.X).num(r.Y).num(r.W).num(r.H) }

func (s *sketch) rectPx(r image.Rectangle) *sketch {
	return s.num(float64(r.Min.X)).num(float64(r.Min.Y)).num(float64(r.Max.X)).num(float64(r.Max.Y))
}

func (s *sketch) str(v string) *sketch {
	s.num(float64(len(v)))
	s.h.WriteString(v)
	return s
}

func (s *sketch) color(c color.Color) *sketch {
	r, g, b, a := c.RGBA()
	return s.num(float64(r<<16 | g)).num(float64(b<<16 | a))
}

func (s *sketch) flag(v bool) *sketch {
	if v {
		return s.op(1)
	}
	return s.op(0)
}
