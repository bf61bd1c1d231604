package ui

import (
	"image/color"

	"github.com/hajimehoshi/ebiten/v2"
	"github.com/openegm/cabinet/ui/model"
)

// The credit's split (model.CreditSplit) is drawn in a panel next to the
// credit meter on each screen that has one: each kind in its colour, the
// same on every screen, so PROMO reads as PROMO wherever the player is.

var (
	colPromo     = color.RGBA{0xFF, 0x6E, 0xC7, 0xFF} // restricted: played, never cashed out
	colPromoFree = color.RGBA{0x4F, 0xD1, 0xE8, 0xFF} // non-restricted
)

func creditColor(kind string) color.RGBA {
	switch kind {
	case model.CreditPromo:
		return colPromo
	case model.CreditPromoFree:
		return colPromoFree
	}
	return colGreen
}

// drawSplitPanel is the split's panel (the still part of the reels'
// screen).
func (g *game) drawSplitPanel(dst *ebiten.Image, r model.Rect) {
	g.panel(dst, r, 10, shade(colPromo, 0.55))
	g.panel(dst, r.Inset(2), 8, colPanel)
}

// drawSplitText writes the split in its panel, a line of model's
// CreditSplitLines to each half: every part's name in its colour, its
// amount, the restricted credit's last day; a line too long for the panel
// is drawn smaller as a whole.
func (g *game) drawSplitText(dst *ebiten.Image, parts []model.CreditPart, r model.Rect) {
	lines := model.CreditSplitLines(parts)
	in := rect(r.X+12, r.Y+2, r.W-24, r.H-4)
	lh := in.H / float64(len(lines))
	for i, line := range lines {
		type seg struct {
			s    string
			c    color.RGBA
			bold bool
			gap  float64 // space after it, at size 1
		}
		var segs []seg
		for k, p := range line {
			after := 0.9 // between the parts
			if k == len(line)-1 {
				after = 0
			}
			segs = append(segs, seg{p.Label, creditColor(p.Kind), true, 0.3}, seg{p.Amount, colText, true, after})
			if p.Until != "" {
				segs[len(segs)-1].gap = 0.45
				segs = append(segs, seg{p.Until, colDim, false, after})
			}
		}
		size := min(15, lh*0.78)
		width := func(size float64) float64 {
			w := 0.0
			for _, s := range segs {
				w += g.measure(s.s, size, s.bold) + s.gap*size
			}
			return w
		}
		if w := width(size); w > in.W {
			size *= in.W / w
		}
		x, y := in.X, in.Y+lh*(float64(i)+0.5)
		for _, s := range segs {
			g.text(dst, s.s, x, y, size, s.c, alignLeft, s.bold)
			x += g.measure(s.s, size, s.bold) + s.gap*size
		}
	}
}

// drawSplit is the panel and its text at once (the screens drawn whole
// every frame).
func (g *game) drawSplit(dst *ebiten.Image, parts []model.CreditPart, r model.Rect) {
	if parts == nil {
		return
	}
	g.drawSplitPanel(dst, r)
	g.drawSplitText(dst, parts, r)
}

// textBox draws s in r on one line, smaller if it must, or on two lines
// when that keeps it larger: a message beside the credit's split has less
// room, and a cash-out's says what stays.
func (g *game) textBox(dst *ebiten.Image, s string, r model.Rect, size float64, c color.Color, a align, bold bool) {
	w := g.measure(s, size, bold)
	two := min(size, r.H/2/1.1)
	if w <= r.W || size*r.W/w >= two {
		g.textFit(dst, s, r, size, c, a, bold)
		return
	}
	lines := g.wrap(s, two, r.W, bold)
	if len(lines) != 2 {
		g.textFit(dst, s, r, size, c, a, bold)
		return
	}
	for i, l := range lines {
		g.textFit(dst, l, rect(r.X, r.Y+float64(i)*r.H/2, r.W, r.H/2), two, c, a, bold)
	}
}
