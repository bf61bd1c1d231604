package ui

import (
	"github.com/openegm/cabinet/ui/model"
	"image"
	"image/color"
	"math"
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

// pxOut is the smallest rectangle of whole pixels that holds r.
func (g *game) pxOut(r model.Rect) image.Rectangle {
	x0, y0 := g.toScreen(r.X, r.Y)
	x1, y1 := g.toScreen(r.X+r.W, r.Y+r.H)
	return image.Rect(int(math.Floor(x0)), int(math.Floor(y0)), int(math.Ceil(x1)), int(math.Ceil(y1)))
}

// pxX and pxY are the pixel edges nearest a design-space x and y.
func (g *game) pxX(x float64) int { sx, _ := g.toScreen(x, 0); return int(math.Round(sx)) }
func (g *game) pxY(y float64) int { _, sy := g.toScreen(0, y); return int(math.Round(sy)) }

func (g *game) fillRect(dst *ebiten.Image, r model.Rect, c color.Color) {
	if g.sk != nil {
		g.sk.op('f').rect(r).color(c)
		return
	}
	g.recordShape('f', r, 0, c)
	x, y, w, h := g.px(r)
	vector.DrawFilledRect(dst, x, y, w, h, c, false)
}

// fill paints the whole of dst.
func (g *game) fill(dst *ebiten.Image, c color.Color) {
	if g.sk != nil {
		g.sk.op('F').color(c)
		return
	}
	dst.Fill(c)
}

func (g *game) strokeRect(dst *ebiten.Image, r model.Rect, width float64, c color.Color) {
	if g.sk != nil {
		g.sk.op('s').rect(r).num(width).color(c)
		return
	}
	x, y, w, h := g.px(r)
	vector.StrokeRect(dst, x, y, w, h, float32(width*g.scale), c, false)
}

func (g *game) panel(dst *ebiten.Image, r model.Rect, radius float64, c color.RGBA) {
	if g.sk != nil {
		g.sk.op('p').rect(r).num(radius).color(c)
		return
	}
	g.recordShape('p', r, radius, c)
	x, y, w, h := g.px(r)
	fillFast(dst, roundRect(x, y, w, h, float32(radius*g.scale)), c)
}

func (g *game) line(dst *ebiten.Image, x0, y0, x1, y1, width float64, c color.Color) {
	if g.sk != nil {
		g.sk.op('l').num(x0).num(y0).num(x1).num(y1).num(width).color(c)
		return
	}
	a, b := g.toScreen(x0, y0)
	cc, d := g.toScreen(x1, y1)
	vector.StrokeLine(dst, float32(a), float32(b), float32(cc), float32(d), float32(width*g.scale), c, false)
}

// face is the font at a size in pixels, kept: a new face every call costs
// an allocation and a lookup of its glyph cache.
func (g *game) face(src *text.GoTextFaceSource, px float64) *text.GoTextFace {
	k := faceKey{src, px}
	f, ok := g.faces[k]
	if !ok {
		if g.faces == nil || len(g.faces) > 256 {
			g.faces = map[faceKey]*text.GoTextFace{}
		}
		f = &text.GoTextFace{Source: src, Size: px}
		g.faces[k] = f
	}
	return f
}

type faceKey struct {
	src  *text.GoTextFaceSource
	size float64
}

func boldOr(bold bool) *text.GoTextFaceSource {
	if bold {
		return fontBold
	}
	return fontRegular
}

// text draws s with its vertical middle at y.
func (g *game) text(dst *ebiten.Image, s string, x, y, size float64, c color.Color, a align, bold bool) {
	g.textIn(dst, s, x, y, size, c, a, bold, nil, false)
}

// textIn is text drawn for a box (nil: none), which the layout tests check
// it stays in; cut says it was cut short to fit.
func (g *game) textIn(dst *ebiten.Image, s string, x, y, size float64, c color.Color, a align, bold bool, box *model.Rect, cut bool) {
	if s == "" {
		return
	}
	if g.sk != nil {
		g.sk.op('t').str(s).num(x).num(y).num(size).color(c).num(float64(a)).flag(bold)
		return
	}
	if layoutRec != nil {
		layoutRec(drawn{Kind: 't', Text: s, X: x, Y: y, Size: size, Align: a, Bold: bold, Box: box, Cut: cut})
	}
	f := g.face(boldOr(bold), size*g.scale)
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
	if g.sk != nil {
		g.sk.op('m').str(s).num(x).num(y).num(size).color(c)
		return
	}
	if layoutRec != nil {
		layoutRec(drawn{Kind: 'm', Text: s, X: x, Y: y, Size: size})
	}
	op := &text.DrawOptions{}
	sx, sy := g.toScreen(x, y)
	op.GeoM.Translate(sx, sy)
	op.ColorScale.ScaleWithColor(c)
	op.SecondaryAlign = text.AlignCenter
	text.Draw(dst, s, g.face(fontMono, size*g.scale), op)
}

// textFit draws s in r, smaller if it would not fit, but never smaller
// than model.MinTextSize: what does not fit at that size is cut short with
// an ellipsis (a list's free text; the layout tests fail any number cut).
func (g *game) textFit(dst *ebiten.Image, s string, r model.Rect, size float64, c color.Color, a align, bold bool) {
	size = min(size, r.H)
	cut := false
	if w := g.measure(s, size, bold); w > r.W && w > 0 {
		// Shrunk in whole sizes: at a fractional size the font's advances
		// are not its whole sizes' scaled, so the first guess is measured.
		size = max(math.Floor(size*r.W/w), model.MinTextSize)
		for size > model.MinTextSize && g.measure(s, size, bold) > r.W {
			size--
		}
		if g.measure(s, size, bold) > r.W {
			s, cut = g.cutToFit(s, size, r.W, bold), true
		}
	}
	x := r.X
	switch a {
	case alignCenter:
		x = r.X + r.W/2
	case alignRight:
		x = r.X + r.W
	}
	g.textIn(dst, s, x, r.Y+r.H/2, size, c, a, bold, &r, cut)
}

// cutToFit is s cut short, with an ellipsis, to fit width at size.
func (g *game) cutToFit(s string, size, width float64, bold bool) string {
	rs := []rune(s)
	for n := len(rs) - 1; n > 0; n-- {
		t := strings.TrimRight(string(rs[:n]), " ·,;:") + "…"
		if g.measure(t, size, bold) <= width {
			return t
		}
	}
	return "…"
}

// measure is the width of s in design units.
func (g *game) measure(s string, size float64, bold bool) float64 {
	return text.Advance(s, g.face(boldOr(bold), size))
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

// Symbol tiles are drawn once per size (and background) and reused.
type tileKey struct {
	id   string
	w, h int
	back color.RGBA // the tile's background; transparent: none
}

type tileCache map[tileKey]*ebiten.Image

func (g *game) tileImage(id string, w, h int, back color.RGBA) *ebiten.Image {
	if g.tiles == nil || len(g.tiles) > 400 {
		for _, img := range g.tiles {
			img.Deallocate()
		}
		g.tiles = tileCache{}
	}
	k := tileKey{id, w, h, back}
	img, ok := g.tiles[k]
	if !ok {
		img = ebiten.NewImage(w, h)
		if back.A != 0 {
			img.Fill(back)
		}
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
	if g.sk != nil {
		g.sk.op('i').str(id).rect(r)
		return
	}
	x, y, w, h := g.px(r)
	iw, ih := int(w+0.5), int(h+0.5)
	if iw < 2 || ih < 2 {
		return
	}
	op := &ebiten.DrawImageOptions{}
	op.GeoM.Translate(float64(int(x+0.5)), float64(int(y+0.5)))
	dst.DrawImage(g.tileImage(id, iw, ih, color.RGBA{}), op)
}

// reelTile draws a symbol's tile on the reel's back, filling the pixels
// of r (all of them, even without a symbol), its colours scaled by light
// (a turning reel is a little darker).
func (g *game) reelTile(dst *ebiten.Image, id string, r image.Rectangle, light float32) {
	if g.sk != nil {
		g.sk.op('r').str(id).rectPx(r).num(float64(light))
		return
	}
	if r.Dx() < 2 || r.Dy() < 2 || id == "" {
		if !r.Empty() {
			back := shade(colReelBack, float64(light))
			vector.DrawFilledRect(dst, float32(r.Min.X), float32(r.Min.Y), float32(r.Dx()), float32(r.Dy()), back, false)
		}
		return
	}
	op := &ebiten.DrawImageOptions{}
	op.GeoM.Translate(float64(r.Min.X), float64(r.Min.Y))
	if light != 1 {
		op.ColorScale.Scale(light, light, light, 1)
	}
	dst.DrawImage(g.tileImage(id, r.Dx(), r.Dy(), colReelBack), op)
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
	valid := g.shown == g.frame-1 && g.w == g.shownW && g.h == g.shownH
	switch {
	case g.V.Mode == "service":
		screen.Fill(colBackground)
		g.drawService(screen)
		g.drawButtons(screen)
	case g.Help:
		screen.Fill(colBackground)
		g.drawPaytable(screen)
		g.drawButtons(screen)
	case g.drawGameScreen(screen):
	default:
		g.drawPlayerScreen(screen, valid)
		// The next frame can keep this one's pixels, unless the keypad
		// goes over them.
		g.shown, g.shownW, g.shownH = g.frame, g.w, g.h
	}
	if g.Pad.Mode != "" {
		g.drawKeypad(screen)
		g.shown = 0
	}
	g.drawTestBanner(screen)
}

// drawButtons draws the labelled touch targets of the screen on show.
func (g *game) drawButtons(dst *ebiten.Image) {
	for _, b := range g.Buttons() {
		if b.Label != "" && !strings.HasPrefix(b.ID, "pad:") && !strings.HasPrefix(b.ID, "role:") { // unlabelled: list rows, drawn by their page
			g.drawButton(dst, b)
		}
	}
}

func imageRect(x0, y0, x1, y1 int) image.Rectangle { return image.Rect(x0, y0, x1, y1) }

// rect is a design-space rectangle.
func rect(x, y, w, h float64) model.Rect { return model.Rect{X: x, Y: y, W: w, H: h} }
