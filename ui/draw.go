package ui

import (
	"github.com/openegm/cabinet/ui/model"
	"image"
	"image/color"
	"strings"

	"github.com/hajimehoshi/ebiten/v2"
	"github.com/hajimehoshi/ebiten/v2/text/v2"
	"github.com/hajimehoshi/ebiten/v2/vector"
)

// Drawing helpers in design units.

type align int

const (
	alignLeft align = iota
	alignCenter
	alignRight
)

func (g *game) px(r model.Rect) (x, y, w, h float32) {
	sx, sy := g.toScreen(r.X, r.Y)
	return float32(sx), float32(sy), float32(r.W * g.scale), float32(r.H * g.scale)
}

func (g *game) fillRect(dst *ebiten.Image, r model.Rect, c color.Color) {
	x, y, w, h := g.px(r)
	vector.DrawFilledRect(dst, x, y, w, h, c, false)
}

func (g *game) strokeRect(dst *ebiten.Image, r model.Rect, width float64, c color.Color) {
	x, y, w, h := g.px(r)
	vector.StrokeRect(dst, x, y, w, h, float32(width*g.scale), c, false)
}

func (g *game) panel(dst *ebiten.Image, r model.Rect, radius float64, c color.RGBA) {
	x, y, w, h := g.px(r)
	fillFast(dst, roundRect(x, y, w, h, float32(radius*g.scale)), c)
}

func (g *game) line(dst *ebiten.Image, x0, y0, x1, y1, width float64, c color.Color) {
	a, b := g.toScreen(x0, y0)
	cc, d := g.toScreen(x1, y1)
	vector.StrokeLine(dst, float32(a), float32(b), float32(cc), float32(d), float32(width*g.scale), c, false)
}

func (g *game) face(size float64, bold bool) *text.GoTextFace {
	src := fontRegular
	if bold {
		src = fontBold
	}
	return &text.GoTextFace{Source: src, Size: size * g.scale}
}

// text draws s with its vertical middle at y.
func (g *game) text(dst *ebiten.Image, s string, x, y, size float64, c color.Color, a align, bold bool) {
	if s == "" {
		return
	}
	f := g.face(size, bold)
	op := &text.DrawOptions{}
	sx, sy := g.toScreen(x, y)
	op.GeoM.Translate(sx, sy)
	op.ColorScale.ScaleWithColor(c)
	op.SecondaryAlign = text.AlignCenter
	switch a {
	case alignCenter:
		op.PrimaryAlign = text.AlignCenter
	case alignRight:
		op.PrimaryAlign = text.AlignEnd
	}
	text.Draw(dst, s, f, op)
}

// textMono draws s in the monospaced font, its vertical middle at y.
func (g *game) textMono(dst *ebiten.Image, s string, x, y, size float64, c color.Color) {
	if s == "" {
		return
	}
	op := &text.DrawOptions{}
	sx, sy := g.toScreen(x, y)
	op.GeoM.Translate(sx, sy)
	op.ColorScale.ScaleWithColor(c)
	op.SecondaryAlign = text.AlignCenter
	text.Draw(dst, s, &text.GoTextFace{Source: fontMono, Size: size * g.scale}, op)
}

// textFit draws s in r's width, smaller if it would not fit.
func (g *game) textFit(dst *ebiten.Image, s string, r model.Rect, size float64, c color.Color, a align, bold bool) {
	if w := g.measure(s, size, bold); w > r.W && w > 0 {
		size *= r.W / w
	}
	x := r.X
	switch a {
	case alignCenter:
		x = r.X + r.W/2
	case alignRight:
		x = r.X + r.W
	}
	g.text(dst, s, x, r.Y+r.H/2, size, c, a, bold)
}

// measure is the width of s in design units.
func (g *game) measure(s string, size float64, bold bool) float64 {
	src := fontRegular
	if bold {
		src = fontBold
	}
	return text.Advance(s, &text.GoTextFace{Source: src, Size: size})
}

// wrap breaks s into lines no wider than width design units.
func (g *game) wrap(s string, size, width float64, bold bool) []string {
	var lines []string
	cur := ""
	for _, w := range strings.Fields(s) {
		try := w
		if cur != "" {
			try = cur + " " + w
		}
		if cur != "" && g.measure(try, size, bold) > width {
			lines = append(lines, cur)
			cur = w
		} else {
			cur = try
		}
	}
	if cur != "" {
		lines = append(lines, cur)
	}
	return lines
}

// Symbol tiles are drawn once per size and reused.
type tileKey struct {
	id   string
	w, h int
}

type tileCache map[tileKey]*ebiten.Image

func (g *game) tileImage(id string, w, h int) *ebiten.Image {
	if g.tiles == nil || len(g.tiles) > 400 {
		for _, img := range g.tiles {
			img.Deallocate()
		}
		g.tiles = tileCache{}
	}
	k := tileKey{id, w, h}
	img, ok := g.tiles[k]
	if !ok {
		img = ebiten.NewImage(w, h)
		drawTile(img, id)
		g.tiles[k] = img
	}
	return img
}

// tile draws a symbol's tile filling r.
func (g *game) tile(dst *ebiten.Image, id string, r model.Rect) {
	if id == "" {
		return
	}
	x, y, w, h := g.px(r)
	iw, ih := int(w+0.5), int(h+0.5)
	if iw < 2 || ih < 2 {
		return
	}
	op := &ebiten.DrawImageOptions{}
	op.GeoM.Translate(float64(int(x+0.5)), float64(int(y+0.5)))
	dst.DrawImage(g.tileImage(id, iw, ih), op)
}

// drawButton draws one touch target.
func (g *game) drawButton(dst *ebiten.Image, b model.Button) {
	c := colButton
	switch {
	case !b.Enabled:
		c = colButtonOff
	case b.Style == model.StyleHot:
		c = colButtonHi
	case b.Style == model.StyleSelected:
		c = shade(colGold, 0.8)
	}
	g.panel(dst, b.R, 12, shade(c, 0.6))
	g.panel(dst, b.R.Inset(3), 10, c)
	tc := colText
	if !b.Enabled {
		tc = shade(colDim, 0.7)
	}
	size := 22.0
	if b.ID == "spin" {
		size = 30
	}
	g.textFit(dst, b.Label, b.R.Inset(10), size, tc, alignCenter, true)
}

func (g *game) draw(screen *ebiten.Image) {
	screen.Fill(colBackground)
	switch {
	case g.V.Mode == "service":
		g.drawService(screen)
	case g.Help:
		g.drawPaytable(screen)
	default:
		g.drawPlayer(screen)
	}
	for _, b := range g.Buttons() {
		if b.Label != "" && !strings.HasPrefix(b.ID, "pad:") && !strings.HasPrefix(b.ID, "role:") { // unlabelled: list rows, drawn by their page
			g.drawButton(screen, b)
		}
	}
	if g.Pad.Mode != "" {
		g.drawKeypad(screen)
	}
}
func imageRect(x0, y0, x1, y1 int) image.Rectangle { return image.Rect(x0, y0, x1, y1) }

// rect is a design-space rectangle.
func rect(x, y, w, h float64) model.Rect { return model.Rect{X: x, Y: y, W: w, H: h} }
