package model

import (
	"slices"
	"strings"
	"testing"

	"github.com/openegm/cabinet/machine"
)

// jackpotView is sampleView with one paytable level (the default paytable
// names level 1) and one mystery level.
func jackpotView() machine.View {
	v := sampleView()
	v.TopOffered, v.HandpayLimit = 4, 1200_00
	v.Jackpots = []machine.JackpotView{
		{Level: 1, Cents: 1234_56, ResetCents: 500_00, RatePPM: 10_000},
		{Level: 9, Mystery: true, Cents: 12_34, ResetCents: 10_00, CapCents: 50_00, RatePPM: 5_000},
	}
	return v
}

// The banner: each level's name and value in euros the language's way.
func TestJackpotBannerText(t *testing.T) {
	v := jackpotView()
	for _, c := range []struct {
		lang string
		want []string
	}{
		{"pt", []string{"JACKPOT 1.234,56 €", "MISTÉRIO 12,34 €"}},
		{"en", []string{"JACKPOT €1,234.56", "MYSTERY €12.34"}},
	} {
		cells := JackpotBanner(v, c.lang)
		var got []string
		for _, cell := range cells {
			got = append(got, cell.String())
			if cell.Pending || cell.Note != "" {
				t.Errorf("%s: level %d is not pending: %+v", c.lang, cell.Level, cell)
			}
		}
		if !slices.Equal(got, c.want) {
			t.Errorf("%s banner: %q, want %q", c.lang, got, c.want)
		}
	}
	// A level being paid is marked; several levels of a kind are numbered.
	v.Jackpots[1].Pending = true
	v.Jackpots = append(v.Jackpots, machine.JackpotView{Level: 2, Cents: 100_00, ResetCents: 100_00, RatePPM: 1})
	var got []string
	for _, cell := range JackpotBanner(v, "pt") {
		got = append(got, cell.String())
	}
	if want := []string{"JACKPOT 1 1.234,56 €", "MISTÉRIO 12,34 € GANHO!", "JACKPOT 2 100,00 €"}; !slices.Equal(got, want) {
		t.Errorf("banner: %q, want %q", got, want)
	}
	if cells := JackpotBanner(v, "en"); !cells[1].Pending || cells[1].Note != "WON!" {
		t.Errorf("pending level: %+v", cells[1])
	}
	if cells := JackpotBanner(sampleView(), "pt"); len(cells) != 0 {
		t.Errorf("no levels, yet a banner: %v", cells)
	}
}

// The screen's banner is built from the latest view (the values change
// every game), and only a view with levels moves the reels to make room.
func TestJackpotBannerFollowsTheView(t *testing.T) {
	s, c := newTestScreen(t, sampleView())
	if len(s.JackpotBanner()) != 0 || s.ReelsRect() != RectReels || s.Cell(2, 1, 5, 3) != CellRect(2, 1, 5, 3) {
		t.Fatalf("without levels the player's screen must not change: banner %v, reels %v", s.JackpotBanner(), s.ReelsRect())
	}
	c.view = jackpotView()
	s.Update()
	if got := s.JackpotBanner()[0].Value; got != "1.234,56 €" {
		t.Errorf("banner shows %q", got)
	}
	c.view.Jackpots[0].Cents++
	s.Update()
	if got := s.JackpotBanner()[0].Value; got != "1.234,57 €" {
		t.Errorf("after a game the banner shows %q, want the new value", got)
	}
	r, b := s.ReelsRect(), RectJackpots
	if r != RectReelsJackpot || b.Y+b.H > r.Y-8 || b.Y < RectTopBar.Y+RectTopBar.H || r.Y+r.H != RectReels.Y+RectReels.H {
		t.Errorf("banner %v and reels %v (frame 8 outside) overlap, or the reels' bottom moved", b, r)
	}
	if got := s.Cell(0, 0, 5, 3); got.Y != r.Y || got.H != r.H/3 {
		t.Errorf("cell (0, 0) %v is not in the reels %v", got, r)
	}
}

// jackpotPage finds the jackpot rules pages' text.
func jackpotPageText(pages []Page, lang string) string {
	s := ""
	for _, p := range pages {
		if p.Title == T(lang, "pt_title_jackpots") {
			s += PageText(p)
		}
	}
	return s
}

// Rule 10 for the jackpot: every level with how it is won (the paytable's
// combination drawn with its symbols, at the top bet only; a mystery level
// at random before its cap), what feeds it, its reset value, once per game,
// and how it is paid.
func TestJackpotRulesPage(t *testing.T) {
	pt := defaultPaytable(t)
	v := jackpotView()
	for _, c := range []struct {
		lang string
		want []string
	}{
		{"pt", []string{
			"JACKPOT (nível 1)", "MISTÉRIO (nível 9)",
			"5× Coroa numa linha: ganha o JACKPOT",
			"Só com a aposta máxima (10 créditos por linha)",
			"Recebe 1 % de cada aposta máxima; as outras apostas não o alimentam.",
			"Recebe 0,5 % de cada aposta, qualquer que seja.",
			"Sai ao acaso, o mais tardar quando o valor chegar a 50,00 €.",
			"Depois de ganho, recomeça em 500,00 €.", "Depois de ganho, recomeça em 10,00 €.",
			"Cada nível é ganho no máximo uma vez por jogo.",
			"Um jackpot abaixo de 1.200,00 € é somado ao crédito; um de 1.200,00 € ou mais é pago por um empregado",
		}},
		{"en", []string{
			"JACKPOT (level 1)", "MYSTERY (level 9)",
			"5× Crown on a line: wins the JACKPOT",
			"At the top bet only (10 credits per line)",
			"It receives 1% of every bet at the top bet; other bets do not feed it.",
			"It receives 0.5% of every bet, whatever the bet.",
			"It is won at random, at the latest when its value reaches €50.00.",
			"After a win it starts again at €500.00.", "After a win it starts again at €10.00.",
			"Each level is won at most once per game.",
			"A jackpot below €1,200.00 is added to the credit; one of €1,200.00 or more is paid by an attendant",
		}},
	} {
		pages := PaytablePages(pt, v, c.lang)
		text := jackpotPageText(pages, c.lang)
		if text == "" {
			t.Fatalf("%s: no jackpot page among %d pages", c.lang, len(pages))
		}
		for _, w := range c.want {
			if !strings.Contains(text, w) {
				t.Errorf("%s: the jackpot page does not say %q:\n%s", c.lang, w, text)
			}
		}
		// The combination is drawn with the real symbols.
		if !findPay(pages, "W", 5, "5×", T(c.lang, "jp_paytable")) {
			t.Errorf("%s: the level 1 combination is not drawn with five W", c.lang)
		}
		// The values of the moment are the banner's; the rules never show
		// them (and the view has no hidden value to leak).
		for _, j := range v.Jackpots {
			if strings.Contains(text, Euro(c.lang, j.Cents)) {
				t.Errorf("%s: the rules show the value %s", c.lang, Euro(c.lang, j.Cents))
			}
		}
		if strings.Contains(text, "%!") || strings.Contains(text, "jp_") || strings.Contains(text, "pt_") {
			t.Errorf("%s: a text is broken:\n%s", c.lang, text)
		}
		// The other pages are still there, in their order.
		if len(pages) != 6 || pages[1].Title != T(c.lang, "pt_title_lines") || pages[5].Title != T(c.lang, "pt_title_payment") {
			t.Errorf("%s: %d pages", c.lang, len(pages))
		}
	}
	// Many levels go on more pages, each level on one of them.
	many := jackpotView()
	for l := 2; l <= 4; l++ {
		many.Jackpots = append(many.Jackpots, machine.JackpotView{Level: 10 + l, Mystery: true, ResetCents: int64(l) * 100_00, CapCents: int64(l) * 1000_00, RatePPM: 1_234})
	}
	pages := PaytablePages(pt, many, "pt")
	n := 0
	for _, p := range pages {
		if p.Title == T("pt", "pt_title_jackpots") {
			n++
			if len(p.Items) > 16 {
				t.Errorf("a jackpot page has %d items: too many to draw", len(p.Items))
			}
		}
	}
	text := jackpotPageText(pages, "pt")
	if n != 3 || strings.Count(text, T("pt", "jp_once")) != 1 {
		t.Errorf("5 levels on %d pages:\n%s", n, text)
	}
	for _, j := range many.Jackpots {
		for _, w := range []string{"(nível " + Itoa(j.Level) + ")", Euro("pt", j.ResetCents), RatePercent("pt", j.RatePPM)} {
			if !strings.Contains(text, w) {
				t.Errorf("level %d: %q is not on the jackpot pages", j.Level, w)
			}
		}
		if j.Mystery && !strings.Contains(text, T("pt", "jp_mystery_cap", Euro("pt", j.CapCents))) {
			t.Errorf("level %d: its cap is not on the jackpot pages", j.Level)
		}
	}
	// A level of the link controller is explained without a feed or reset
	// the cabinet does not know.
	ln := jackpotView()
	ln.Jackpots[0] = machine.JackpotView{Level: 1, Cents: 20_000_00, Linked: true, SecondHit: "split"}
	text = jackpotPageText(PaytablePages(pt, ln, "pt"), "pt")
	if !strings.Contains(text, T("pt", "jp_linked")) || strings.Contains(text, "Recebe 0 %") || strings.Contains(text, "recomeça em 0,00 €") {
		t.Errorf("linked level:\n%s", text)
	}
	// Its rule for near-simultaneous hits is shown to players.
	if !strings.Contains(text, "dividido em partes iguais") {
		t.Errorf("linked level without its split rule:\n%s", text)
	}
	ln.Jackpots[0].SecondHit = "wins-reset"
	if text := jackpotPageText(PaytablePages(pt, ln, "en"), "en"); !strings.Contains(text, "the second the starting value") {
		t.Errorf("linked level without its wins-reset rule:\n%s", text)
	}
	// The top bet not offered: the page says the level cannot be won.
	off := jackpotView()
	off.TopOffered = 3
	if text := jackpotPageText(PaytablePages(pt, off, "en"), "en"); !strings.Contains(text, "this level cannot be won") {
		t.Errorf("top bet not offered:\n%s", text)
	}
}

// Without levels, nothing about the machine's jackpot: no page, no rule.
func TestNoJackpotRules(t *testing.T) {
	pt := defaultPaytable(t)
	for _, lang := range Langs {
		pages := PaytablePages(pt, sampleView(), lang)
		if len(pages) != 5 {
			t.Errorf("%s: %d pages without a jackpot, want 5", lang, len(pages))
		}
		all := ""
		for _, p := range pages {
			all += PageText(p)
		}
		for _, k := range []string{"pt_title_jackpots", "jp_once", "jp_mystery", "jp_rules_head"} {
			if strings.Contains(all, T(lang, k)) {
				t.Errorf("%s: without levels the pages say %q", lang, T(lang, k))
			}
		}
	}
}

// The rules pages are rebuilt when the levels' rules change, not when their
// values do.
func TestJackpotPagesCache(t *testing.T) {
	s, c := newTestScreen(t, sampleView())
	if len(s.PaytablePages()) != 5 {
		t.Fatal("5 pages without levels")
	}
	c.view = jackpotView()
	s.Update()
	first := s.PaytablePages()
	if len(first) != 6 {
		t.Fatalf("%d pages with levels", len(first))
	}
	c.view.Jackpots[0].Cents += 7
	s.Update()
	if p := s.PaytablePages(); &p[0] != &first[0] {
		t.Error("a new value rebuilt the pages")
	}
	c.view.Jackpots[1].CapCents = 60_00
	s.Update()
	if !strings.Contains(jackpotPageText(s.PaytablePages(), "pt"), "60,00 €") {
		t.Error("a new cap did not reach the rules page")
	}
}

// A jackpot paid by hand: the lockout says it is a jackpot, and how much.
func TestLockoutProgressiveHandpay(t *testing.T) {
	v := jackpotView()
	v.Mode, v.Handpay, v.HandpayKind = "handpay", 1500_00, "progressive"
	v.Message = machine.Message{Key: "msg_jackpot_handpay", Args: []int64{1500_00}}
	for _, c := range []struct{ lang, head, amount string }{
		{"pt", "JACKPOT: PAGAMENTO MANUAL", "Jackpot ganho: 1.500,00 €"},
		{"en", "JACKPOT: HANDPAY", "Jackpot won: €1,500.00"},
	} {
		v.Lang = c.lang
		s, _ := newTestScreen(t, v)
		head, lines := s.LockoutLines()
		if head != c.head || len(lines) == 0 || lines[0] != c.amount || !slices.Contains(lines, T(c.lang, "lock_call_attendant")) {
			t.Errorf("%s: progressive handpay lockout says %q %q", c.lang, head, lines)
		}
		if msg := s.MessageText(); !strings.Contains(msg, "JACKPOT") || !strings.Contains(msg, Euro(c.lang, 1500_00)) {
			t.Errorf("%s: message %q", c.lang, msg)
		}
	}
	// A paytable win paid by hand is still a plain handpay.
	v.Lang, v.HandpayKind = "pt", "win"
	s, _ := newTestScreen(t, v)
	if head, _ := s.LockoutLines(); head != "PAGAMENTO MANUAL" {
		t.Errorf("win handpay head %q", head)
	}
}

func TestRatePercent(t *testing.T) {
	for _, c := range []struct {
		ppm    int64
		pt, en string
	}{
		{10_000, "1 %", "1%"},
		{5_000, "0,5 %", "0.5%"},
		{12_345, "1,2345 %", "1.2345%"},
		{1, "0,0001 %", "0.0001%"},
		{250_000, "25 %", "25%"},
		{1_000_000, "100 %", "100%"},
		{0, "0 %", "0%"},
		{-5_000, "-0,5 %", "-0.5%"},
	} {
		if got := RatePercent("pt", c.ppm); got != c.pt {
			t.Errorf("RatePercent(pt, %d) = %q, want %q", c.ppm, got, c.pt)
		}
		if got := RatePercent("en", c.ppm); got != c.en {
			t.Errorf("RatePercent(en, %d) = %q, want %q", c.ppm, got, c.en)
		}
	}
}
