package model

import (
	"math/big"
	"strings"
	"testing"

	"github.com/openegm/cabinet/assets"
	"github.com/openegm/cabinet/machine"
	"github.com/openegm/cabinet/reels"
)

func defaultPaytable(t testing.TB) *reels.Certified {
	t.Helper()
	pt, err := assets.LoadPaytable(assets.DefaultGame)
	if err != nil {
		t.Fatal(err)
	}
	return pt
}

func sampleView() machine.View {
	return machine.View{MachineID: "EGM-0042", Lang: "pt", Mode: "idle", Denom: 5, Level: 1, TopOffered: 3,
		CreditsLine: 2, BetCredits: 40, BetCents: 200, Credits: 1000, CreditsCents: 5000}
}

// findPay looks for an ItemPay drawing count symbols id whose text holds
// every part.
func findPay(pages []Page, id string, count int, parts ...string) bool {
	for _, p := range pages {
		for _, it := range p.Items {
			if it.Kind != ItemPay || len(it.Symbols) != count {
				continue
			}
			same := true
			for _, s := range it.Symbols {
				same = same && s == id
			}
			for _, part := range parts {
				same = same && strings.Contains(it.Text, part)
			}
			if same {
				return true
			}
		}
	}
	return false
}

// Rule 10: every winning combination with its pay, drawn with its symbols,
// in Portuguese and in English; and the machine ID, the denomination, the
// bets, the paylines, the payment methods and the certified RTP.
func TestPaytablePagesListEveryPay(t *testing.T) {
	pt := defaultPaytable(t)
	v := sampleView()
	for _, lang := range Langs {
		pages := PaytablePages(pt, v, lang)
		all := ""
		for _, p := range pages {
			all += PageText(p)
		}
		name := func(sym int) string {
			if lang == "en" {
				return pt.Symbols[sym].Name.EN
			}
			return pt.Symbols[sym].Name.PT
		}
		for _, lp := range pt.LinePays {
			if !findPay(pages, pt.Symbols[lp.Symbol].ID, lp.Count, Itoa(lp.Count)+" ×", name(lp.Symbol), Credits(lang, lp.Pays), Euro(lang, lp.Pays*v.CreditsLine*v.Denom)) {
				t.Errorf("%s: line pay %d× %s = %d is not listed", lang, lp.Count, pt.Symbols[lp.Symbol].ID, lp.Pays)
			}
		}
		for _, sp := range pt.ScatterPays {
			if !findPay(pages, pt.Symbols[sp.Symbol].ID, sp.Count, Itoa(sp.Count), name(sp.Symbol), Credits(lang, sp.Pays)+" ×", Euro(lang, sp.Pays*v.BetCents)) {
				t.Errorf("%s: scatter pay %d× %s = %d is not listed", lang, sp.Count, pt.Symbols[sp.Symbol].ID, sp.Pays)
			}
		}
		for _, a := range pt.Free.Awards {
			if !findPay(pages, pt.Symbols[pt.Free.Symbol].ID, a.Count, Credits(lang, int64(a.Games))) {
				t.Errorf("%s: free-game award %d → %d games is not listed", lang, a.Count, a.Games)
			}
		}
		lines := 0
		for _, p := range pages {
			for _, it := range p.Items {
				if it.Kind == ItemPayline {
					if it.Number < 1 || it.Number > len(pt.Lines) || !slicesEqual(it.Rows, pt.Lines[it.Number-1]) {
						t.Errorf("%s: payline item %d does not match the paytable", lang, it.Number)
					}
					lines++
				}
			}
		}
		if lines != len(pt.Lines) {
			t.Errorf("%s: %d paylines drawn, the paytable has %d", lang, lines, len(pt.Lines))
		}
		for _, want := range []string{"EGM-0042", Euro(lang, 5), Euro(lang, 200), Percent(lang, pt.RTP[0]), Percent(lang, pt.RTP[3])} {
			if !strings.Contains(all, want) {
				t.Errorf("%s: the pages do not show %q", lang, want)
			}
		}
		if strings.Contains(all, Percent(lang, pt.RTP[4])) && Percent(lang, pt.RTP[4]) != Percent(lang, pt.RTP[3]) {
			t.Errorf("%s: the RTP of level 4, which the machine does not offer (TopOffered 3), is shown", lang)
		}
		if strings.Contains(all, "%!") || strings.Contains(all, "pt_") {
			t.Errorf("%s: a text is broken:\n%s", lang, all)
		}
	}
	pt0, en0 := PageText(PaytablePages(pt, v, "pt")[4]), PageText(PaytablePages(pt, v, "en")[4])
	if !strings.Contains(pt0, "talão") || !strings.Contains(en0, "ticket") || !strings.Contains(pt0, "empregado") || !strings.Contains(en0, "attendant") {
		t.Errorf("how prizes are paid (ticket, handpay) missing:\n%s\n%s", pt0, en0)
	}
	if !strings.Contains(PageText(PaytablePages(pt, v, "pt")[2]), "Coroa é o símbolo selvagem") {
		t.Error("the wild rule is missing in Portuguese")
	}
	if p := PaytablePages(nil, v, "en"); len(p) != 1 || !strings.Contains(PageText(p[0]), "EGM-0042") {
		t.Errorf("without a paytable the page must still identify the machine: %v", p)
	}
}

func slicesEqual(a, b []int) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

func TestCountRange(t *testing.T) {
	for _, c := range []struct {
		n, next int
		want    string
	}{{3, 4, "3"}, {3, 5, "3–4"}, {5, 0, "5 ou mais"}} {
		if got := countRange("pt", c.n, c.next); got != c.want {
			t.Errorf("countRange(%d, %d) = %q, want %q", c.n, c.next, got, c.want)
		}
	}
}

// Texts about one thing say it in the singular, and nothing says
// "crédito(s)"; with the machine's own jackpot the return to player is
// also given with the jackpot contributions (regulation rule 10).
func TestPaytablePlural(t *testing.T) {
	pt := defaultPaytable(t)
	v := sampleView()
	v.Level, v.CreditsLine, v.BetCredits, v.BetCents = 0, 1, 20, 100
	v.Jackpots = []machine.JackpotView{{Level: 1, Cents: 100_00, Mystery: true, RatePPM: 10_000}}
	for _, lang := range Langs {
		all := ""
		for _, p := range PaytablePages(pt, v, lang) {
			all += PageText(p)
		}
		for _, bad := range []string{"(s)", "1 créditos", "1 credits", "+×", "+ ×"} {
			if strings.Contains(all, bad) {
				t.Errorf("%s: the pages say %q:\n%s", lang, bad, all)
			}
		}
		one := map[string]string{"pt": "1 crédito por linha", "en": "1 credit per line"}[lang]
		if !strings.Contains(all, one) {
			t.Errorf("%s: no %q", lang, one)
		}
		total := new(big.Rat).Add(pt.RTP[0], big.NewRat(10_000, 1_000_000))
		if !strings.Contains(all, Percent(lang, pt.RTP[0])) || !strings.Contains(all, Percent(lang, total)) {
			t.Errorf("%s: the RTP with the jackpot's 1 %% (%s) is not shown next to the base %s", lang, Percent(lang, total), Percent(lang, pt.RTP[0]))
		}
	}
}

// With only the lowest bet level offered (a bet limit of 1), the pages
// list that level alone and its RTP alone: the highest level offered is
// index 0, not "no limit".
func TestPaytableOnlyTheLowestBet(t *testing.T) {
	pt := defaultPaytable(t)
	v := sampleView()
	v.Level, v.TopOffered = 0, 0
	// under counts the texts that follow the heading head on page p.
	under := func(p Page, head string) (n int) {
		in := false
		for _, it := range p.Items {
			switch {
			case it.Kind == ItemHeading:
				in = it.Text == head
			case in && it.Kind == ItemText:
				n++
			}
		}
		return n
	}
	for _, lang := range Langs {
		pages := PaytablePages(pt, v, lang)
		bets, rtps := under(pages[0], T(lang, "pt_bet_levels")), under(pages[4], T(lang, "pt_rtp_head"))
		if bets != 1 || rtps != 1 {
			t.Errorf("%s: with only bet level 1 offered, %d bet levels and %d RTPs listed:\n%s\n%s", lang, bets, rtps,
				PageText(pages[0]), PageText(pages[4]))
		}
	}
	// Nor can the top bet's jackpot level be won.
	off := jackpotView()
	off.Level, off.TopOffered = 0, 0
	if text := jackpotPageText(PaytablePages(pt, off, "en"), "en"); !strings.Contains(text, "this level cannot be won") {
		t.Errorf("only bet level 1 offered, the jackpot page says:\n%s", text)
	}
	// The sample view offers levels 1 to 4.
	if pages := PaytablePages(pt, sampleView(), "en"); under(pages[0], T("en", "pt_bet_levels")) != 4 || under(pages[4], T("en", "pt_rtp_head")) != 4 {
		t.Error("levels 1 to 4 offered, not listed")
	}
}
