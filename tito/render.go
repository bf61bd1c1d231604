package tito

import (
	"fmt"
	"image"
	"image/color"
	"image/draw"
	"image/png"
	"io"
	"strings"
	"sync"

	"golang.org/x/image/font"
	"golang.org/x/image/font/gofont/gobold"
	"golang.org/x/image/font/gofont/goregular"
	"golang.org/x/image/font/opentype"
	"golang.org/x/image/math/fixed"
)

// The paper: an 80 mm thermal ticket printer prints 576 dots a line at
// 203 dpi.
const (
	PaperWidth = 576
	margin     = 16
	lineGap    = 6
	// Barcode geometry, in dots: narrow and wide elements (ratio 8:3, in
	// the 2–3 scanners want), the bars' height and the quiet zones of ten
	// narrow widths each side.
	BarNarrow = 3
	BarWide   = 8
	barHeight = 110
	quiet     = 10 * BarNarrow
)

// fonts are the typefaces, parsed once. Faces are made for each picture:
// a face is not safe for concurrent use.
var fonts = sync.OnceValues(func() ([2]*opentype.Font, error) {
	regular, err := opentype.Parse(goregular.TTF)
	if err != nil {
		return [2]*opentype.Font{}, err
	}
	bold, err := opentype.Parse(gobold.TTF)
	return [2]*opentype.Font{regular, bold}, err
})

// faces returns the faces of the three sizes.
func faces() (map[Size]font.Face, error) {
	f, err := fonts()
	if err != nil {
		return nil, err
	}
	out := map[Size]font.Face{}
	for size, spec := range map[Size]struct {
		f  *opentype.Font
		pt float64
	}{SizeSmall: {f[0], 17}, SizeNormal: {f[0], 20}, SizeLarge: {f[1], 28}} {
		face, err := opentype.NewFace(spec.f, &opentype.FaceOptions{Size: spec.pt, DPI: 72, Hinting: font.HintingFull})
		if err != nil {
			return nil, err
		}
		out[size] = face
	}
	return out, nil
}

// Render draws the ticket as the printer prints it: black on white,
// PaperWidth dots wide, the lines of Lines(first) centred and wrapped at
// spaces, the barcode with its quiet zones.
func (t Ticket) Render(first Lang) (*image.Gray, error) {
	ls, err := t.Lines(first)
	if err != nil {
		return nil, err
	}
	fs, err := faces()
	if err != nil {
		return nil, fmt.Errorf("tito: fonts: %w", err)
	}
	// Lay out first, to know the height.
	type item struct {
		line Line
		text string // one wrapped row
		h    int
	}
	var items []item
	height := margin
	for _, l := range ls {
		if l.Kind == LineBarcode {
			items = append(items, item{line: l, h: barHeight})
			height += barHeight + 2*lineGap
			continue
		}
		face := fs[l.Size]
		h := face.Metrics().Height.Ceil()
		for _, row := range wrap(face, l.Text, PaperWidth-2*margin) {
			items = append(items, item{line: l, text: row, h: h})
			height += h + lineGap
		}
	}
	height += margin
	img := image.NewGray(image.Rect(0, 0, PaperWidth, height))
	draw.Draw(img, img.Bounds(), image.White, image.Point{}, draw.Src)
	y := margin
	for _, it := range items {
		if it.line.Kind == LineBarcode {
			y += lineGap
			if err := drawBarcode(img, it.line.Text, y); err != nil {
				return nil, err
			}
			y += barHeight + lineGap
			continue
		}
		face := fs[it.line.Size]
		d := font.Drawer{Dst: img, Src: image.Black, Face: face}
		w := d.MeasureString(it.text).Ceil()
		d.Dot = fixed.P((PaperWidth-w)/2, y+face.Metrics().Ascent.Ceil())
		d.DrawString(it.text)
		y += it.h + lineGap
	}
	return img, nil
}

// RenderPNG writes the picture of the ticket as a PNG.
func (t Ticket) RenderPNG(w io.Writer, first Lang) error {
	img, err := t.Render(first)
	if err != nil {
		return err
	}
	return png.Encode(w, img)
}

// drawBarcode draws the interleaved 2-of-5 bars of digits, centred, from
// row y down barHeight rows.
func drawBarcode(img *image.Gray, digits string, y int) error {
	ws, err := Widths(digits, BarNarrow, BarWide)
	if err != nil {
		return err
	}
	total := 0
	for _, w := range ws {
		total += w
	}
	if total+2*quiet > PaperWidth {
		return fmt.Errorf("tito: barcode of %s is %d dots wide, the paper %d", digits, total+2*quiet, PaperWidth)
	}
	x := (PaperWidth - total) / 2
	for i, w := range ws {
		if i%2 == 0 { // bars at even positions, spaces between
			draw.Draw(img, image.Rect(x, y, x+w, y+barHeight), image.NewUniform(color.Black), image.Point{}, draw.Src)
		}
		x += w
	}
	return nil
}

// wrap splits text at spaces into rows no wider than width; a word wider
// than the row stands alone.
func wrap(face font.Face, text string, width int) []string {
	words := strings.Fields(text)
	if len(words) == 0 {
		return []string{""}
	}
	var rows []string
	row := words[0]
	for _, w := range words[1:] {
		if font.MeasureString(face, row+" "+w).Ceil() <= width {
			row += " " + w
			continue
		}
		rows = append(rows, row)
		row = w
	}
	return append(rows, row)
}
