package tito

import (
	"bytes"
	"errors"
	"image"
	"image/png"
	"strings"
	"testing"
	"time"
)

func sampleTicket(t *testing.T) Ticket {
	t.Helper()
	v, err := SecureEnhanced(0x654321, 1)
	if err != nil {
		t.Fatal(err)
	}
	return Ticket{
		Casino:     "Casino Lusitânia",
		Address:    []string{"Avenida Marginal, 2765-190 Estoril", "Portugal"},
		Kind:       KindCashout,
		Cents:      12345,
		Validation: v,
		Issued:     time.Date(2026, 3, 1, 14, 5, 9, 0, time.UTC),
		Machine:    "0142",
		Asset:      10142,
		Number:     42,
		Expiry:     30,
	}
}

func TestTicketText(t *testing.T) {
	tk := sampleTicket(t)
	text, err := tk.Text(PT)
	if err != nil {
		t.Fatal(err)
	}
	want := `CASINO LUSITÂNIA
Avenida Marginal, 2765-190 Estoril
Portugal
TALÃO VÁLIDO PARA JOGO OU PAGAMENTO
CASHOUT TICKET
||| 006429188185446104 |||
VALIDAÇÃO / VALIDATION 00-6429-1881-8544-6104
01/03/2026 14:05:09   TALÃO N.º / TICKET # 0042
CENTO E VINTE E TRÊS EUROS E QUARENTA E CINCO CÊNTIMOS
ONE HUNDRED TWENTY-THREE EUROS AND FORTY-FIVE CENTS
123,45 €
VÁLIDO POR 30 DIAS, ATÉ 31/03/2026 / VALID FOR 30 DAYS, UNTIL 31/03/2026
MÁQUINA / MACHINE 0142   ATIVO / ASSET 10142
`
	if text != want {
		t.Fatalf("ticket text:\n%s\nwant:\n%s", text, want)
	}

	// English first: the same facts, the languages swapped.
	tk.Kind, tk.Expiry, tk.Reprint, tk.Asset = KindHandpayReceipt, ExpiryNever, true, 0
	en, err := tk.Text(EN)
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range []string{"HANDPAY RECEIPT\nRECIBO DE PAGAMENTO MANUAL\nREPRINT / SEGUNDA VIA\n",
		"ONE HUNDRED TWENTY-THREE EUROS AND FORTY-FIVE CENTS\nCENTO E VINTE E TRÊS EUROS E QUARENTA E CINCO CÊNTIMOS\n€123.45\n",
		"NEVER EXPIRES / SEM PRAZO DE VALIDADE\nMACHINE / MÁQUINA 0142\n"} {
		if !strings.Contains(en, s) {
			t.Errorf("English-first text lacks %q:\n%s", s, en)
		}
	}
}

// A ticket that cannot be printed is refused naming its field.
func TestTicketCheck(t *testing.T) {
	for _, c := range []struct {
		field string
		edit  func(*Ticket)
	}{
		{"casino", func(tk *Ticket) { tk.Casino = " " }},
		{"casino", func(tk *Ticket) { tk.Casino = strings.Repeat("x", 41) }},
		{"address", func(tk *Ticket) { tk.Address = []string{"a", "b", "c"} }},
		{"address line 2", func(tk *Ticket) { tk.Address[1] = "a\nb" }},
		{"kind", func(tk *Ticket) { tk.Kind = 0 }},
		{"amount", func(tk *Ticket) { tk.Cents = 0 }},
		{"amount", func(tk *Ticket) { tk.Cents = MaxCents + 1 }},
		{"issued", func(tk *Ticket) { tk.Issued = time.Time{} }},
		{"ticket number", func(tk *Ticket) { tk.Number = 10000 }},
		{"expiry", func(tk *Ticket) { tk.Expiry = 0 }},
		{"machine", func(tk *Ticket) { tk.Machine = "" }},
		{"validation", func(tk *Ticket) { tk.Validation.Number = "6429188185446105" }},
	} {
		tk := sampleTicket(t)
		c.edit(&tk)
		_, err := tk.Lines(PT)
		if !errors.Is(err, ErrTicket) || !strings.Contains(err.Error(), ": "+c.field+":") {
			t.Errorf("%s: %v", c.field, err)
		}
		if tk.RenderPNG(&bytes.Buffer{}, PT) == nil {
			t.Errorf("%s: rendered", c.field)
		}
	}
}

// The picture: decoded from its PNG, some row crosses the barcode and the
// bars read back (with the reader below, which knows nothing of the
// encoder) to the validation digits; no row reads to anything else.
func TestRenderBarcodeReadsBack(t *testing.T) {
	for _, v := range []func() (Validation, error){
		func() (Validation, error) { return SecureEnhanced(0x654321, 1) },
		func() (Validation, error) { return System(42, 9876543210123456) },
		func() (Validation, error) { return Standard(7, 1234) },
	} {
		tk := sampleTicket(t)
		var err error
		if tk.Validation, err = v(); err != nil {
			t.Fatal(err)
		}
		var buf bytes.Buffer
		if err := tk.RenderPNG(&buf, PT); err != nil {
			t.Fatal(err)
		}
		img, err := png.Decode(&buf)
		if err != nil {
			t.Fatal(err)
		}
		if w := img.Bounds().Dx(); w != PaperWidth {
			t.Fatalf("picture %d dots wide, want %d", w, PaperWidth)
		}
		rows := 0
		for y := img.Bounds().Min.Y; y < img.Bounds().Max.Y; y++ {
			got, ok := readI2of5(scanline(img, y))
			if !ok {
				continue
			}
			if got != tk.Validation.Digits() {
				t.Fatalf("row %d reads %s, want %s", y, got, tk.Validation.Digits())
			}
			rows++
		}
		if rows < 50 {
			t.Fatalf("%s: the barcode reads on %d rows, want its full height", tk.Validation.Digits(), rows)
		}
	}
}

// The picture has ink where the text is: each text row of the layout is
// drawn (a blank picture, or one missing its words, has fewer dark bands).
func TestRenderDrawsEveryLine(t *testing.T) {
	tk := sampleTicket(t)
	img, err := tk.Render(PT)
	if err != nil {
		t.Fatal(err)
	}
	ls, _ := tk.Lines(PT)
	bands, inBand := 0, false
	for y := 0; y < img.Bounds().Dy(); y++ {
		dark := false
		for x := 0; x < img.Bounds().Dx(); x++ {
			if img.GrayAt(x, y).Y < 128 {
				dark = true
				break
			}
		}
		if dark && !inBand {
			bands++
		}
		inBand = dark
	}
	// Some lines wrap onto two rows, so at least one band per line.
	if bands < len(ls) {
		t.Errorf("%d dark bands for %d lines", bands, len(ls))
	}
}

// scanline returns the run lengths of row y, starting with a white run:
// white, black, white, …
func scanline(img image.Image, y int) []int {
	var runs []int
	black, n := false, 0
	for x := img.Bounds().Min.X; x < img.Bounds().Max.X; x++ {
		r, _, _, _ := img.At(x, y).RGBA()
		b := r < 0x8000
		if b != black {
			runs = append(runs, n)
			black, n = b, 0
		}
		n++
	}
	return append(runs, n)
}

// readI2of5 decodes a row's runs as an interleaved 2-of-5 barcode: a
// quiet zone, start (4 narrow), pairs of digits (5 bars, 5 spaces), stop
// (wide, narrow, narrow), a quiet zone. Widths are classed narrow or wide
// against the start pattern's narrow width.
func readI2of5(runs []int) (string, bool) {
	patterns := map[string]byte{"nnwwn": '0', "wnnnw": '1', "nwnnw": '2', "wwnnn": '3', "nnwnw": '4',
		"wnwnn": '5', "nwwnn": '6', "nnnww": '7', "wnnwn": '8', "nwnwn": '9'}
	for i := 0; i+1 < len(runs); i += 2 { // i: a white run, i+1 black
		if runs[i] < 20 || i+5 >= len(runs) {
			continue
		}
		n := runs[i+1]
		if runs[i+2] != n || runs[i+3] != n || runs[i+4] != n {
			continue
		}
		class := func(w int) (byte, bool) {
			switch {
			case w == n:
				return 'n', true
			case w >= 2*n && w <= 3*n:
				return 'w', true
			}
			return 0, false
		}
		var digits []byte
		j := i + 5
		for {
			// The stop pattern: wide bar, narrow space, narrow bar, quiet.
			if j+3 < len(runs) && runs[j] >= 2*n && runs[j+1] == n && runs[j+2] == n && runs[j+3] >= 10*n {
				return string(digits), len(digits) > 0
			}
			if j+10 > len(runs) {
				return "", false
			}
			var bars, spaces []byte
			for k := range 5 {
				b, ok1 := class(runs[j+2*k])
				s, ok2 := class(runs[j+2*k+1])
				if !ok1 || !ok2 {
					return "", false
				}
				bars, spaces = append(bars, b), append(spaces, s)
			}
			d1, ok1 := patterns[string(bars)]
			d2, ok2 := patterns[string(spaces)]
			if !ok1 || !ok2 {
				return "", false
			}
			digits = append(digits, d1, d2)
			j += 10
		}
	}
	return "", false
}

// A restricted promotional ticket says on its face, in both languages,
// that it is promotional credit, not cashable and played at machines only,
// with its pool and the date its credits expire.
func TestRestrictedTicketFace(t *testing.T) {
	tk := sampleTicket(t)
	tk.Kind, tk.Pool, tk.Expiry, tk.Until = KindRestricted, 7, 0, time.Date(2026, 10, 31, 0, 0, 0, 0, time.UTC)
	text, err := tk.Text(PT)
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range []string{"Portugal\nCRÉDITO PROMOCIONAL — NÃO REEMBOLSÁVEL\nPROMOTIONAL CREDIT — NOT CASHABLE\n" +
		"SÓ PARA JOGAR NAS MÁQUINAS / PLAYABLE AT MACHINES ONLY\nPROMOÇÃO / PROMOTION POOL 7\n",
		"123,45 €\nVÁLIDO ATÉ 31/10/2026 / VALID UNTIL 31/10/2026\n"} {
		if !strings.Contains(text, s) {
			t.Errorf("restricted ticket text lacks %q:\n%s", s, text)
		}
	}
	if strings.Contains(text, "PAGAMENTO") {
		t.Errorf("a restricted ticket reads as payable:\n%s", text)
	}
	if err := tk.RenderPNG(&bytes.Buffer{}, EN); err != nil {
		t.Fatalf("render: %v", err)
	}
	tk.Until, tk.Expiry = time.Time{}, 15
	if text, err = tk.Text(EN); err != nil || !strings.Contains(text, "VALID FOR 15 DAYS") {
		t.Fatalf("restricted ticket in days: %v\n%s", err, text)
	}
	for _, c := range []struct {
		field string
		edit  func(*Ticket)
	}{
		{"pool", func(tk *Ticket) { tk.Kind = KindCashout }},
		{"expiry", func(tk *Ticket) { tk.Until = time.Date(2026, 10, 31, 0, 0, 0, 0, time.UTC) }},
		{"kind", func(tk *Ticket) { tk.Kind = KindRestricted + 1 }},
	} {
		bad := tk
		c.edit(&bad)
		if err := bad.Check(); !errors.Is(err, ErrTicket) || !strings.Contains(err.Error(), ": "+c.field+":") {
			t.Errorf("%s: %v", c.field, err)
		}
	}
}
