package ui

import (
	"bytes"
	"hash/fnv"
	"image/color"
	"math"

	"github.com/hajimehoshi/ebiten/v2"
	"github.com/hajimehoshi/ebiten/v2/text/v2"
	"github.com/hajimehoshi/ebiten/v2/vector"
	"golang.org/x/image/font/gofont/gobold"
	"golang.org/x/image/font/gofont/gomono"
	"golang.org/x/image/font/gofont/goregular"
)

// Our own art: every symbol is a tile of its main colour with an emblem or
// letters drawn in code. The main colour fills the tile's left and right
// margins, where the screenshot tests look for it.

// SymbolColor is the main colour of a symbol's tile.
func SymbolColor(id string) color.RGBA {
	if c, ok := symbolColors[id]; ok {
		return c
	}
	h := fnv.New32a()
	h.Write([]byte(id))
	return fallbackColors[h.Sum32()%uint32(len(fallbackColors))]
}

var symbolColors = map[string]color.RGBA{
	"W":  {0xE8, 0xB8, 0x20, 0xFF}, // crown: gold
	"S":  {0x1E, 0x4F, 0xA8, 0xFF}, // caravel: deep blue
	"GA": {0xC8, 0x20, 0x2A, 0xFF}, // rooster: red
	"GU": {0x6E, 0x42, 0x1E, 0xFF}, // guitar: dark wood
	"AN": {0x14, 0x80, 0x80, 0xFF}, // anchor: teal
	"SA": {0x86, 0x9C, 0xB0, 0xFF}, // sardine: silver
	"AZ": {0xE6, 0xEC, 0xF6, 0xFF}, // tile: white glaze
	"A":  {0x7B, 0x3F, 0xB0, 0xFF}, // purple
	"K":  {0x2E, 0x9A, 0x44, 0xFF}, // green
	"Q":  {0xD0, 0x4A, 0x9A, 0xFF}, // pink
	"J":  {0xF0, 0x80, 0x10, 0xFF}, // orange
	"T":  {0x9A, 0xCD, 0x32, 0xFF}, // lime
}

var fallbackColors = []color.RGBA{
	{0x8E, 0x44, 0xAD, 0xFF}, {0x27, 0xAE, 0x60, 0xFF}, {0xD3, 0x54, 0x00, 0xFF},
	{0x29, 0x80, 0xB9, 0xFF}, {0xC0, 0x39, 0x2B, 0xFF}, {0x16, 0xA0, 0x85, 0xFF},
}

// Fonts: the Go fonts, shaped by text/v2.
var (
	fontRegular = mustFace(goregular.TTF)
	fontBold    = mustFace(gobold.TTF)
	fontMono    = mustFace(gomono.TTF) // hashes and digests, digit under digit
)

func mustFace(ttf []byte) *text.GoTextFaceSource {
	s, err := text.NewGoTextFaceSource(bytes.NewReader(ttf))
	if err != nil {
		panic(err)
	}
	return s
}

// Palette of the screens.
var (
	colBackground = color.RGBA{0x0B, 0x12, 0x2B, 0xFF}
	colPanel      = color.RGBA{0x15, 0x20, 0x45, 0xFF}
	colPanelEdge  = color.RGBA{0x3A, 0x4C, 0x8A, 0xFF}
	colReelBack   = color.RGBA{0xF4, 0xF1, 0xE8, 0xFF}
	colGold       = color.RGBA{0xF2, 0xC1, 0x4E, 0xFF}
	colText       = color.RGBA{0xF0, 0xF0, 0xF0, 0xFF}
	colDim        = color.RGBA{0x9A, 0xA4, 0xC4, 0xFF}
	colRed        = color.RGBA{0xE0, 0x3A, 0x3A, 0xFF}
	colGreen      = color.RGBA{0x3C, 0xC0, 0x5A, 0xFF}
	colButton     = color.RGBA{0x24, 0x3A, 0x7A, 0xFF}
	colButtonHi   = color.RGBA{0xC8, 0x2A, 0x2A, 0xFF}
	colButtonOff  = color.RGBA{0x30, 0x34, 0x44, 0xFF}
	colBlack      = color.RGBA{0, 0, 0, 0xFF}
	colWhite      = color.RGBA{0xFF, 0xFF, 0xFF, 0xFF}
)

// lineColors tell the paylines apart.
var lineColors = []color.RGBA{
	{0xFF, 0xD7, 0x00, 0xFF}, {0x00, 0xE5, 0xFF, 0xFF}, {0xFF, 0x40, 0x81, 0xFF}, {0x76, 0xFF, 0x03, 0xFF},
	{0xFF, 0x91, 0x00, 0xFF}, {0xD5, 0x00, 0xF9, 0xFF}, {0x00, 0xE6, 0x76, 0xFF}, {0xFF, 0x17, 0x44, 0xFF},
	{0x29, 0x79, 0xFF, 0xFF}, {0xFF, 0xEA, 0x00, 0xFF},
}

func lineColor(line int) color.RGBA { return lineColors[line%len(lineColors)] }

func shade(c color.RGBA, f float64) color.RGBA {
	m := func(v uint8) uint8 { return uint8(math.Max(0, math.Min(255, float64(v)*f))) }
	return color.RGBA{m(c.R), m(c.G), m(c.B), c.A}
}

func withAlpha(c color.RGBA, a uint8) color.RGBA {
	f := float64(a) / 255
	return color.RGBA{uint8(float64(c.R) * f), uint8(float64(c.G) * f), uint8(float64(c.B) * f), a}
}

// white is a 3×3 image whose centre pixel paints the triangles of paths.
var white = func() *ebiten.Image {
	img := ebiten.NewImage(3, 3)
	img.Fill(color.White)
	return img.SubImage(imageRect(1, 1, 2, 2)).(*ebiten.Image)
}()

// fill draws a path in a colour.
func fill(dst *ebiten.Image, p *vector.Path, c color.RGBA) {
	vs, is := p.AppendVerticesAndIndicesForFilling(nil, nil)
	paint(dst, vs, is, c)
}

// stroke draws a path's outline.
func stroke(dst *ebiten.Image, p *vector.Path, width float32, c color.RGBA) {
	vs, is := p.AppendVerticesAndIndicesForStroke(nil, nil, &vector.StrokeOptions{Width: width, LineJoin: vector.LineJoinRound, LineCap: vector.LineCapRound})
	paint(dst, vs, is, c)
}

// fillFast draws a convex path without antialiasing: on the screen, an
// antialiased draw renders through an offscreen buffer of twice the
// screen's size, far too slow for every panel of every frame.
func fillFast(dst *ebiten.Image, p *vector.Path, c color.RGBA) {
	vs, is := p.AppendVerticesAndIndicesForFilling(nil, nil)
	paintWith(dst, vs, is, c, &ebiten.DrawTrianglesOptions{FillRule: ebiten.FillRuleFillAll})
}

func paint(dst *ebiten.Image, vs []ebiten.Vertex, is []uint16, c color.RGBA) {
	paintWith(dst, vs, is, c, &ebiten.DrawTrianglesOptions{AntiAlias: true, FillRule: ebiten.FillRuleNonZero})
}

func paintWith(dst *ebiten.Image, vs []ebiten.Vertex, is []uint16, c color.RGBA, op *ebiten.DrawTrianglesOptions) {
	r, g, b, a := float32(c.R)/255, float32(c.G)/255, float32(c.B)/255, float32(c.A)/255
	for i := range vs {
		vs[i].SrcX, vs[i].SrcY = 1, 1
		vs[i].ColorR, vs[i].ColorG, vs[i].ColorB, vs[i].ColorA = r, g, b, a
	}
	dst.DrawTriangles(vs, is, white, op)
}

func roundRect(x, y, w, h, r float32) *vector.Path {
	var p vector.Path
	p.MoveTo(x+r, y)
	p.LineTo(x+w-r, y)
	p.ArcTo(x+w, y, x+w, y+r, r)
	p.LineTo(x+w, y+h-r)
	p.ArcTo(x+w, y+h, x+w-r, y+h, r)
	p.LineTo(x+r, y+h)
	p.ArcTo(x, y+h, x, y+h-r, r)
	p.LineTo(x, y+r)
	p.ArcTo(x, y, x+r, y, r)
	p.Close()
	return &p
}

// drawTile paints a symbol's tile into an image of its own size.
func drawTile(dst *ebiten.Image, id string) {
	b := dst.Bounds()
	w, h := float32(b.Dx()), float32(b.Dy())
	main := SymbolColor(id)
	m := float32(math.Max(1, float64(min(w, h))*0.03))
	r := min(w, h) * 0.12
	fill(dst, roundRect(m, m, w-2*m, h-2*m, r), shade(main, 0.65))
	fill(dst, roundRect(2*m, 2*m, w-4*m, h-4*m, r*0.8), main)
	// A lighter band at the top, for depth; the middle stays the main colour.
	fill(dst, roundRect(3*m, 3*m, w-6*m, h*0.22, r*0.6), shade(main, 1.18))
	// The emblem lives in the centre square.
	side := min(w*0.72, h*0.84)
	e := emblem{dst: dst, x: (w - side) / 2, y: (h - side) / 2, u: side / 100}
	e.draw(id, main)
}

// emblem draws in a 100×100 box.
type emblem struct {
	dst     *ebiten.Image
	x, y, u float32
}

func (e emblem) X(v float32) float32 { return e.x + v*e.u }
func (e emblem) Y(v float32) float32 { return e.y + v*e.u }

func (e emblem) poly(c color.RGBA, pts ...float32) {
	var p vector.Path
	p.MoveTo(e.X(pts[0]), e.Y(pts[1]))
	for i := 2; i+1 < len(pts); i += 2 {
		p.LineTo(e.X(pts[i]), e.Y(pts[i+1]))
	}
	p.Close()
	fill(e.dst, &p, c)
}

func (e emblem) circle(cx, cy, r float32, c color.RGBA) {
	vector.DrawFilledCircle(e.dst, e.X(cx), e.Y(cy), r*e.u, c, true)
}

func (e emblem) line(x0, y0, x1, y1, w float32, c color.RGBA) {
	vector.StrokeLine(e.dst, e.X(x0), e.Y(y0), e.X(x1), e.Y(y1), w*e.u, c, true)
}

func (e emblem) ellipse(cx, cy, rx, ry float32, c color.RGBA) {
	var p vector.Path
	const n = 24
	for i := 0; i <= n; i++ {
		a := float64(i) / n * 2 * math.Pi
		x, y := e.X(cx+rx*float32(math.Cos(a))), e.Y(cy+ry*float32(math.Sin(a)))
		if i == 0 {
			p.MoveTo(x, y)
		} else {
			p.LineTo(x, y)
		}
	}
	p.Close()
	fill(e.dst, &p, c)
}

func (e emblem) letters(s string, size float32, c color.RGBA) {
	face := &text.GoTextFace{Source: fontBold, Size: float64(size * e.u)}
	op := &text.DrawOptions{}
	op.PrimaryAlign, op.SecondaryAlign = text.AlignCenter, text.AlignCenter
	// A dark outline: the text drawn offset around, then on top.
	for _, d := range [][2]float32{{-1, 0}, {1, 0}, {0, -1}, {0, 1}, {1.4, 1.4}} {
		op.GeoM.Reset()
		op.GeoM.Translate(float64(e.X(50+d[0]*1.6)), float64(e.Y(52+d[1]*1.6)))
		op.ColorScale.Reset()
		op.ColorScale.ScaleWithColor(color.RGBA{0x20, 0x10, 0x10, 0xFF})
		text.Draw(e.dst, s, face, op)
	}
	op.GeoM.Reset()
	op.GeoM.Translate(float64(e.X(50)), float64(e.Y(52)))
	op.ColorScale.Reset()
	op.ColorScale.ScaleWithColor(c)
	text.Draw(e.dst, s, face, op)
}

func (e emblem) draw(id string, main color.RGBA) {
	dark := color.RGBA{0x2A, 0x18, 0x10, 0xFF}
	cream := color.RGBA{0xFF, 0xF4, 0xDC, 0xFF}
	switch id {
	case "W": // a crown
		red := color.RGBA{0xA0, 0x10, 0x20, 0xFF}
		e.poly(red, 12, 78, 10, 30, 30, 55, 50, 18, 70, 55, 90, 30, 88, 78)
		e.poly(color.RGBA{0xFF, 0xE8, 0x80, 0xFF}, 16, 74, 15, 40, 31, 60, 50, 27, 69, 60, 85, 40, 84, 74)
		e.poly(red, 12, 78, 88, 78, 88, 88, 12, 88)
		for _, p := range [][2]float32{{10, 28}, {50, 16}, {90, 28}} {
			e.circle(p[0], p[1], 6, cream)
		}
		e.circle(50, 83, 4, colGreen)
		e.circle(30, 83, 3.5, color.RGBA{0x40, 0x80, 0xFF, 0xFF})
		e.circle(70, 83, 3.5, color.RGBA{0x40, 0x80, 0xFF, 0xFF})
	case "S": // a caravel with the cross of the Order of Christ
		e.poly(color.RGBA{0x8B, 0x4A, 0x1C, 0xFF}, 8, 68, 92, 68, 80, 88, 20, 88)
		e.line(50, 10, 50, 70, 3, dark)
		e.poly(cream, 24, 16, 76, 16, 72, 62, 28, 62)
		e.poly(colRed, 46, 24, 54, 24, 54, 34, 64, 34, 64, 42, 54, 42, 54, 54, 46, 54, 46, 42, 36, 42, 36, 34, 46, 34)
		e.poly(colWhite, 2, 92, 98, 92, 98, 98, 2, 98)
	case "GA": // the Barcelos rooster
		e.ellipse(48, 58, 28, 22, dark)
		e.poly(dark, 60, 50, 76, 20, 84, 26, 74, 56)
		e.circle(80, 22, 10, dark)
		e.poly(color.RGBA{0xFF, 0xD0, 0x20, 0xFF}, 88, 20, 98, 24, 88, 28)
		e.poly(color.RGBA{0xFF, 0xD0, 0x20, 0xFF}, 72, 12, 78, 4, 82, 10, 88, 6, 88, 14)
		e.poly(dark, 22, 54, 4, 24, 14, 22, 30, 46)
		e.poly(dark, 24, 58, 8, 40, 20, 36, 34, 52)
		for _, p := range [][2]float32{{38, 54}, {52, 60}, {44, 68}, {60, 66}} {
			e.circle(p[0], p[1], 4, cream)
		}
		e.line(42, 78, 40, 94, 3, color.RGBA{0xFF, 0xD0, 0x20, 0xFF})
		e.line(56, 78, 58, 94, 3, color.RGBA{0xFF, 0xD0, 0x20, 0xFF})
	case "GU": // a Portuguese guitar (pear body, long neck)
		e.circle(46, 66, 26, cream)
		e.circle(46, 38, 18, cream)
		e.circle(46, 62, 7, dark)
		e.line(46, 30, 80, 4, 7, color.RGBA{0xC8, 0x9A, 0x5A, 0xFF})
		e.circle(82, 6, 7, color.RGBA{0xC8, 0xA0, 0x40, 0xFF})
		e.line(38, 84, 54, 84, 3, dark)
	case "AN": // an anchor
		e.circle(50, 14, 9, colWhite)
		e.circle(50, 14, 4.5, main)
		e.line(50, 22, 50, 86, 8, colWhite)
		e.line(30, 34, 70, 34, 7, colWhite)
		var p vector.Path
		p.Arc(e.X(50), e.Y(56), 34*e.u, 0.15*math.Pi, 0.85*math.Pi, vector.Clockwise)
		stroke(e.dst, &p, 7*e.u, colWhite)
		e.poly(colWhite, 12, 62, 20, 78, 6, 74)
		e.poly(colWhite, 88, 62, 80, 78, 94, 74)
	case "SA": // a sardine
		body := color.RGBA{0xDD, 0xE8, 0xF2, 0xFF}
		e.ellipse(44, 50, 34, 13, body)
		e.poly(body, 74, 50, 94, 34, 94, 66)
		e.line(16, 44, 70, 44, 3, color.RGBA{0x3A, 0x5A, 0x80, 0xFF})
		e.circle(20, 47, 3, dark)
	case "AZ": // a blue and white tile
		blue := color.RGBA{0x1C, 0x4C, 0xB8, 0xFF}
		e.poly(blue, 50, 4, 96, 50, 50, 96, 4, 50)
		e.poly(main, 50, 18, 82, 50, 50, 82, 18, 50)
		e.circle(50, 50, 16, blue)
		e.circle(50, 50, 7, main)
		for _, p := range [][2]float32{{50, 30}, {70, 50}, {50, 70}, {30, 50}} {
			e.circle(p[0], p[1], 4, blue)
		}
	case "T":
		e.letters("10", 66, colWhite)
	case "A", "K", "Q", "J":
		e.letters(id, 80, colWhite)
	default:
		e.letters(id, 60, colWhite)
	}
}
