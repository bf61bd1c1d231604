package model

// The screens are laid out in a 1280×720 design space, scaled to the window
// and centred (letterboxed) at any size. Drawing and hit-testing use the
// same rectangles.
const (
	DesignW = 1280
	DesignH = 720
)

// MinTextSize is the smallest text any screen draws, in design units: 12
// px of a 1280×720 screen, 18 px at 1080p, legible at arm's length. A text
// fitted to its box shrinks no further; a list's free text that still does
// not fit is cut short.
const MinTextSize = 12

// Fixed regions of the screens, in design units.
var (
	RectTopBar     = Rect{0, 0, DesignW, 56}
	RectReels      = Rect{140, 66, 1000, 420}
	RectMeters     = Rect{140, 496, 1000, 80}
	RectCreditCell = Rect{140, 496, 330, 80} // the credit meter, first of RectMeters
	RectMessage    = Rect{140, 584, 1000, 40}
	RectLeft       = Rect{0, 66, 134, 510}
	RectRight      = Rect{1146, 66, 134, 510}
	RectPage       = Rect{20, 10, 1240, 612}
	RectSvcContent = Rect{20, 116, 1240, 460}
	RectSvcMessage = Rect{20, 584, 1240, 40}
)

// Button styles.
const (
	StyleNormal = iota
	StyleHot
	StyleSelected
)
