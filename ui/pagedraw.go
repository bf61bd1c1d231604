package ui

import (
	"github.com/hajimehoshi/ebiten/v2"
	"github.com/openegm/cabinet/ui/model"
)

// drawPaytable draws the current paytable page from model.PaytablePages.
func (g *game) drawPaytable(dst *ebiten.Image) {
	pages := g.PaytablePages()
	g.HelpPage = min(max(g.HelpPage, 0), len(pages)-1)
	p := pages[g.HelpPage]
	g.panel(dst, model.RectPage, 16, colPanelEdge)
	g.panel(dst, model.RectPage.Inset(2), 14, colPanel)
	g.text(dst, p.Title, model.RectPage.X+24, model.RectPage.Y+32, 30, colGold, alignLeft, true)
	g.text(dst, g.T("page_n", model.Itoa(g.HelpPage+1), model.Itoa(len(pages))), model.RectPage.X+model.RectPage.W-24, model.RectPage.Y+32, 16, colDim, alignRight, false)
	g.fillRect(dst, rect(model.RectPage.X+24, model.RectPage.Y+56, model.RectPage.W-48, 2), colGold)

	x0, width := model.RectPage.X+30, model.RectPage.W-60
	y := model.RectPage.Y + 80
	items := p.Items
	for i := 0; i < len(items); {
		it := items[i]
		switch it.Kind {
		case model.ItemHeading, model.ItemText:
			size, bold, c := 19.0, false, colText
			if it.Kind == model.ItemHeading {
				size, bold, c = 21, true, colGold
			}
			for _, l := range g.wrap(it.Text, size, width, bold) {
				g.text(dst, l, x0, y, size, c, alignLeft, bold)
				y += size * 1.45
			}
			y += 4
			i++
		case model.ItemPay, model.ItemPayline:
			// A run of the same kind goes in a grid.
			j := i
			for j < len(items) && items[j].Kind == it.Kind {
				j++
			}
			y = g.drawGrid(dst, items[i:j], x0, y, width)
			i = j
		}
	}
}

// drawGrid lays a run of pays or paylines out in columns.
func (g *game) drawGrid(dst *ebiten.Image, items []model.Item, x0, y, width float64) float64 {
	if items[0].Kind == model.ItemPayline {
		cols := 5
		cw, ch := width/float64(cols), 108.0
		if len(items) > 20 {
			ch = 84
		}
		for k, it := range items {
			x, yy := x0+float64(k%cols)*cw, y+float64(k/cols)*ch
			g.drawPayline(dst, it, rect(x, yy, cw-16, ch-8))
		}
		return y + float64((len(items)+cols-1)/cols)*ch
	}
	// Three columns, or two when a pay would not be legible in a third of
	// the page (long names, large amounts): the rows are lower then.
	cols, rows, rh, cw := 0, 0, 0.0, 0.0
	for _, cols = range []int{3, 2} {
		if cols == 3 && len(items) <= 8 {
			continue
		}
		rows = (len(items) + cols - 1) / cols
		rh = min(40.0, (model.RectPage.Y+model.RectPage.H-10-y)/float64(max(rows, 1)))
		cw = width / float64(cols)
		ts := rh * 0.9
		fits := true
		for _, it := range items {
			if g.measure(it.Text, payTextLegible, false) > cw-5*ts*1.05-ts*0.4-10 {
				fits = false
			}
		}
		if fits {
			break
		}
	}
	for k, it := range items {
		// Column-major, so a symbol's combinations stay together.
		x, yy := x0+float64(k/rows)*cw, y+float64(k%rows)*rh
		ts := rh * 0.9
		for s, id := range it.Symbols {
			g.tile(dst, id, rect(x+float64(s)*ts*1.05, yy, ts*1.25, ts))
		}
		tx := x + 5*ts*1.05 + ts*0.4
		g.textFit(dst, it.Text, rect(tx, yy, x+cw-tx-10, ts), 17, colText, alignLeft, false)
	}
	return y + float64(rows)*rh + 8
}

// payTextLegible is the size a pay's text must fit at for three columns.
const payTextLegible = 14

// drawPayline draws one line over a small grid of the window.
func (g *game) drawPayline(dst *ebiten.Image, it model.Item, r model.Rect) {
	n, rows := len(it.Rows), 3
	if g.PT != nil {
		rows = g.PT.Rows
	}
	g.text(dst, it.Text, r.X, r.Y+10, 15, colGold, alignLeft, true)
	grid := rect(r.X, r.Y+22, r.W, r.H-24)
	cw, ch := grid.W/float64(n), grid.H/float64(rows)
	c := lineColor(it.Number - 1)
	for i := 0; i < n; i++ {
		for row := 0; row < rows; row++ {
			cell := rect(grid.X+float64(i)*cw, grid.Y+float64(row)*ch, cw, ch).Inset(1.5)
			col := colButtonOff
			if it.Rows[i] == row {
				col = c
			}
			g.fillRect(dst, cell, col)
		}
	}
	for i := 0; i+1 < n; i++ {
		x0, y0 := grid.X+(float64(i)+0.5)*cw, grid.Y+(float64(it.Rows[i])+0.5)*ch
		x1, y1 := grid.X+(float64(i)+1.5)*cw, grid.Y+(float64(it.Rows[i+1])+0.5)*ch
		g.line(dst, x0, y0, x1, y1, 2.5, colBlack)
	}
}
