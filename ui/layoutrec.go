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
	Kind  byte // 't' text, 'm' monospaced text, 'f' filled rectangle, 'p' panel
	Text  string
	X, Y  float64 // the text's anchor: Align's edge, its vertical middle
	Size  float64
	Align align
	Bold  bool
	Box   *model.Rect // the box the text was fitted to (textFit), if any
	Cut   bool        // the text was cut short to fit its box
	Shape model.Rect  // 'f' and 'p'
	Alpha uint8       // 'f' and 'p'
}

func (g *game) recordShape(kind byte, r model.Rect, c color.Color) {
	if layoutRec == nil {
		return
	}
	_, _, _, a := c.RGBA()
	layoutRec(drawn{Kind: kind, Shape: r, Alpha: uint8(a >> 8)})
}
