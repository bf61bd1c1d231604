package ui

import (
	"image/color"

	"github.com/openegm/cabinet/ui/model"
)

// layoutRec, when set (the layout tests), is told every text and filled
// shape drawn for real, in the order drawn, so a test can check that each
// text stays in its box and clear of the others.
var layoutRec func(drawn)

// drawn is one text or filled shape as drawn, in design units.
type drawn struct {
	// 't' text, 'm' monospaced text, 'f' filled rectangle, 'p' panel, 'o'
	// an overlay: Shape hides, by design, what was drawn under it (a
	// lockout over the table's cards); 'L': the player screen's live
	// regions start, drawn over its layer (what they paint over replaces
	// the layer's pixels).
	Kind   byte
	Text   string
	X, Y   float64 // the text's anchor: Align's edge, its vertical middle
	Size   float64
	Align  align
	Bold   bool
	Box    *model.Rect // the box the text was fitted to (textFit), if any
	Cut    bool        // the text was cut short to fit its box
	Shape  model.Rect  // 'f', 'p' and 'o'
	Radius float64     // 'p': its corners'
	Alpha  uint8       // 'f' and 'p'
}

func (g *game) recordShape(kind byte, r model.Rect, radius float64, c color.Color) {
	if layoutRec == nil {
		return
	}
	_, _, _, a := c.RGBA()
	layoutRec(drawn{Kind: kind, Shape: r, Radius: radius, Alpha: uint8(a >> 8)})
}

// overlay declares that r hides what was drawn under it, by design.
func (g *game) overlay(r model.Rect) {
	if layoutRec != nil && g.sk == nil {
		layoutRec(drawn{Kind: 'o', Shape: r})
	}
}
