package ui

import (
	"image/color"
	"strings"

	"github.com/hajimehoshi/ebiten/v2"
	"github.com/openegm/cabinet/ui/model"
)

// Test mode is said on every frame: a frame around the whole screen in a
// colour no other screen uses, and the word TESTE/TEST with the test
// credits at the top, drawn last so nothing covers them.

// colTest is test mode's colour (magenta: not a colour of play).
var colTest = color.RGBA{0xE0, 0x10, 0xC8, 0xFF}

// testFrame is the width of the frame around the screen, design units.
const testFrame = 8

func (g *game) drawTestBanner(dst *ebiten.Image) {
	t := g.V.Test
	if t == nil {
		return
	}
	// The banner is not part of the player screen's kept pixels: the next
	// frame is drawn whole, so leaving test mode leaves no trace of it.
	g.shown = 0
	w, h := float64(model.DesignW), float64(model.DesignH)
	for _, r := range []model.Rect{{X: 0, Y: 0, W: w, H: testFrame}, {X: 0, Y: h - testFrame, W: w, H: testFrame},
		{X: 0, Y: 0, W: testFrame, H: h}, {X: w - testFrame, Y: 0, W: testFrame, H: h}} {
		g.fillRect(dst, r, colTest)
	}
	b := model.RectTestBanner
	g.panel(dst, b, 10, colTest)
	line := g.T("test_banner") + "   " + g.T("test_credits", model.Euro(g.Lang, t.CreditsCents))
	// Under it the game's number, which the banner stands in place of in
	// the top bar's middle, and the outcome the laboratory chose.
	var more []string
	game := g.V.Game
	if tv := g.V.Table; g.AtTable() && tv.Hand != nil {
		game = tv.Hand.Game
	}
	if game > 0 && g.V.Mode != "service" {
		more = append(more, g.T("game_no", model.Credits(g.Lang, int64(game))))
	}
	if t.Chosen != "" {
		more = append(more, g.T("test_lab_choice", t.Chosen))
	}
	top := model.Rect{X: b.X + 12, Y: b.Y + 4, W: b.W - 24, H: b.H - 8}
	if len(more) > 0 {
		top.H = 26
		g.textFit(dst, strings.Join(more, "   "), model.Rect{X: b.X + 12, Y: b.Y + 30, W: b.W - 24, H: 15}, 14, colWhite, alignCenter, false)
	}
	g.textFit(dst, line, top, 26, colWhite, alignCenter, true)
}
