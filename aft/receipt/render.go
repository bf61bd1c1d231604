package receipt

import (
	"fmt"
	"image"
	"image/draw"
	"image/png"
	"io"
	"strings"
	"sync"

	"golang.org/x/image/font"
	"golang.org/x/image/font/gofont/gomono"
	"golang.org/x/image/font/gofont/gomonobold"
	"golang.org/x/image/font/opentype"
	"golang.org/x/image/math/fixed"
)

// The paper: the cabinet's 80 mm printer, 576 dots a line at 203 dpi; a
// monospaced face whose Columns characters fill the line between the
// margins.
const (
	PaperWidth = 576
	edge       = 16
	fontPoints = 28
	rowGap     = 4
)

// monoFonts are the regular and bold faces' fonts, parsed once (a face is
// made for each picture: faces are not safe for concurrent use).
var monoFonts = sync.OnceValues(func() ([2]*opentype.Font, error) {
	var fs [2]*opentype.Font
	for i, ttf := range [][]byte{gomono.TTF, gomonobold.TTF} {
		f, err := opentype.Parse(ttf)
		if err != nil {
			return fs, err
		}
		fs[i] = f
	}
	return fs, nil
})

// Render draws the receipt as the printer prints it: black on white,
// PaperWidth dots wide, a row per line.
func (r Receipt) Render() (*image.Gray, error) {
	ls, err := r.Lines()
	if err != nil {
		return nil, err
	}
	fs, err := monoFonts()
	if err != nil {
		return nil, fmt.Errorf("receipt: fonts: %w", err)
	}
	var faces [2]font.Face
	for i, f := range fs {
		if faces[i], err = opentype.NewFace(f, &opentype.FaceOptions{Size: fontPoints, DPI: 72, Hinting: font.HintingFull}); err != nil {
			return nil, fmt.Errorf("receipt: fonts: %w", err)
		}
	}
	m := faces[0].Metrics()
	if w := font.MeasureString(faces[1], strings.Repeat("M", Columns)).Ceil(); w > PaperWidth-2*edge {
		return nil, fmt.Errorf("receipt: %d columns are %d dots, the paper %d", Columns, w, PaperWidth-2*edge)
	}
	row := m.Height.Ceil() + rowGap
	img := image.NewGray(image.Rect(0, 0, PaperWidth, 2*edge+row*len(ls)))
	draw.Draw(img, img.Bounds(), image.White, image.Point{}, draw.Src)
	for i, l := range ls {
		face := faces[0]
		if l.Bold {
			face = faces[1]
		}
		d := font.Drawer{Dst: img, Src: image.Black, Face: face, Dot: fixed.P(edge, edge+i*row+m.Ascent.Ceil())}
		d.DrawString(l.Text)
	}
	return img, nil
}

// RenderPNG writes the picture of the receipt as a PNG.
func (r Receipt) RenderPNG(w io.Writer) error {
	img, err := r.Render()
	if err != nil {
		return err
	}
	return png.Encode(w, img)
}
