package model

import (
	"math/big"
	"slices"
	"strings"

	"github.com/openegm/cabinet/machine"
	"github.com/openegm/cabinet/reels"
)

// ItemKind is what a paytable page item is.
type ItemKind int

const (
	ItemHeading ItemKind = iota // a line of emphasis
	ItemText                    // a paragraph
	ItemPay                     // a winning combination: its symbols drawn, then the text
	ItemPayline                 // a payline drawn as a small grid
)

// Item is one thing on a paytable page.
type Item struct {
	Kind    ItemKind
	Text    string   // translated
	Symbols []string // ItemPay: the symbol IDs of the combination, drawn with the real art
	Rows    []int    // ItemPayline: the row on each reel
	Number  int      // ItemPayline: the line's number, from 1
}

// Page is one page of the paytable and rules (regulation rule 10).
type Page struct {
	Title string
	Items []Item
}

// PaytablePages builds the paytable and rules pages in a language from the
// certified paytable and the view (machine ID, denomination, current bet).
// Everything shown comes from the paytable and the view as given.
func PaytablePages(pt *reels.Certified, v machine.View, lang string) []Page {
	t := func(key string, args ...string) string { return T(lang, key, args...) }
	num := func(n int64) string { return Credits(lang, n) }
	if pt == nil {
		return []Page{{Title: t("pt_title_machine"), Items: []Item{
			{Kind: ItemText, Text: t("pt_machine_id", v.MachineID)},
			{Kind: ItemText, Text: t("pt_denom", Euro(lang, v.Denom))},
			{Kind: ItemText, Text: t("pt_none")},
		}}}
	}
	name := func(sym int) string { return symbolName(pt, sym, lang) }
	ids := func(sym, n int) []string {
		s := make([]string, n)
		for i := range s {
			s[i] = pt.Symbols[sym].ID
		}
		return s
	}
	nlines := int64(len(pt.Lines))
	top := pt.TopLevel()

	// 1. Machine and bets.
	p1 := Page{Title: t("pt_title_machine")}
	add := func(p *Page, k ItemKind, text string) { p.Items = append(p.Items, Item{Kind: k, Text: text}) }
	add(&p1, ItemHeading, t("pt_machine_id", v.MachineID))
	add(&p1, ItemText, t("pt_game", Title(pt, lang), pt.ID, Itoa(pt.Version)))
	add(&p1, ItemText, t("pt_denom", Euro(lang, v.Denom)))
	add(&p1, ItemText, t("pt_lines_played", num(nlines)))
	add(&p1, ItemHeading, t("pt_bet_levels"))
	for l, c := range pt.CreditsPerLine {
		if l > v.TopOffered {
			break // a level the machine does not offer (no jackpot system)
		}
		add(&p1, ItemText, Tn(lang, "pt_bet_level", c, num(c), num(pt.Bet(l))))
	}
	if v.BetCredits > 0 {
		add(&p1, ItemHeading, Tn(lang, "pt_bet_now", v.CreditsLine, num(v.CreditsLine), num(v.BetCredits), Euro(lang, v.BetCents)))
	}

	// 2. Line pays, every combination with its symbols.
	p2 := Page{Title: t("pt_title_lines")}
	add(&p2, ItemHeading, t("pt_lines_head"))
	for _, lp := range pt.LinePays {
		// In euros at the current bet: the table's credits per credit
		// bet, times the credits bet per line, at the denomination.
		cents := Euro(lang, lp.Pays*v.CreditsLine*v.Denom)
		text := t("pt_pay", Itoa(lp.Count), name(lp.Symbol), num(lp.Pays), cents)
		if lp.Progressive > 0 {
			text = t("pt_pay_jackpot", Itoa(lp.Count), name(lp.Symbol), num(lp.Pays), Itoa(lp.Progressive), cents)
		}
		p2.Items = append(p2.Items, Item{Kind: ItemPay, Text: text, Symbols: ids(lp.Symbol, lp.Count)})
	}

	// 3. Wild, scatter and free games.
	p3 := Page{Title: t("pt_title_scatter")}
	scatterName := ""
	for i, s := range pt.Symbols {
		if s.Kind == reels.Scatter {
			if scatterName != "" {
				scatterName += ", "
			}
			scatterName += name(i)
		}
	}
	if pt.Wild >= 0 {
		if scatterName != "" {
			add(&p3, ItemText, t("pt_wild", name(pt.Wild), scatterName))
		} else {
			add(&p3, ItemText, t("pt_wild_noscatter", name(pt.Wild)))
		}
	}
	for i, sp := range pt.ScatterPays {
		if i == 0 || pt.ScatterPays[i-1].Symbol != sp.Symbol {
			add(&p3, ItemHeading, t("pt_scatter_head", name(sp.Symbol)))
		}
		next := 0
		if i+1 < len(pt.ScatterPays) && pt.ScatterPays[i+1].Symbol == sp.Symbol {
			next = pt.ScatterPays[i+1].Count
		}
		p3.Items = append(p3.Items, Item{Kind: ItemPay, Symbols: ids(sp.Symbol, sp.Count),
			Text: t("pt_scatter_pay", countRange(lang, sp.Count, next), name(sp.Symbol), num(sp.Pays), Euro(lang, sp.Pays*v.BetCents))})
	}
	if f := pt.Free; f != nil {
		add(&p3, ItemHeading, t("pt_free_head", name(f.Symbol)))
		for i, a := range f.Awards {
			next := 0
			if i+1 < len(f.Awards) {
				next = f.Awards[i+1].Count
			}
			p3.Items = append(p3.Items, Item{Kind: ItemPay, Symbols: ids(f.Symbol, a.Count),
				Text: t("pt_free_award", countRange(lang, a.Count, next), name(f.Symbol), num(int64(a.Games)))})
		}
		add(&p3, ItemText, t("pt_free_mult", num(f.Multiplier)))
		if f.Retrigger {
			add(&p3, ItemText, t("pt_free_retrigger"))
		} else {
			add(&p3, ItemText, t("pt_free_noretrig"))
		}
		if f.OwnReels {
			add(&p3, ItemText, t("pt_free_reels"))
		}
	}
	add(&p3, ItemText, t("pt_rule_longest"))
	add(&p3, ItemText, t("pt_rule_linepay"))
	add(&p3, ItemText, t("pt_rule_sum"))
	for _, lp := range pt.LinePays {
		if lp.Progressive > 0 {
			add(&p3, ItemText, t("pt_rule_jackpot", num(pt.CreditsPerLine[top])))
			break
		}
	}

	// 4. The paylines.
	p4 := Page{Title: t("pt_title_paylines")}
	add(&p4, ItemHeading, t("pt_paylines_head", num(nlines)))
	for i, l := range pt.Lines {
		p4.Items = append(p4.Items, Item{Kind: ItemPayline, Text: t("pt_line_n", Itoa(i+1)), Rows: l, Number: i + 1})
	}

	// 5. How prizes are paid, and the certified return.
	p5 := Page{Title: t("pt_title_payment")}
	for _, k := range []string{"pt_pay_credits", "pt_pay_ticket", "pt_pay_handpay", "pt_pay_jackpots", "pt_pay_records", "pt_malfunction"} {
		add(&p5, ItemText, t(k, Euro(lang, v.HandpayLimit))) // only pt_pay_handpay takes an argument
	}
	add(&p5, ItemHeading, t("pt_rtp_head"))
	for l, r := range pt.RTP {
		if l >= len(pt.CreditsPerLine) || l > v.TopOffered {
			break
		}
		c := pt.CreditsPerLine[l]
		if ppm := jackpotRate(pt, v, l); ppm > 0 {
			total := new(big.Rat).Add(r, big.NewRat(ppm, 1_000_000))
			add(&p5, ItemText, Tn(lang, "pt_rtp_total", c, num(c), Percent(lang, r), Percent(lang, total)))
			continue
		}
		add(&p5, ItemText, Tn(lang, "pt_rtp_level", c, num(c), Percent(lang, r)))
	}
	// The cabinet's jackpot, when it has levels, before the paylines.
	pages := []Page{p1, p2, p3}
	pages = append(pages, jackpotPages(pt, v, lang)...)
	return append(pages, p4, p5)
}

// jackpotRate is the share of a bet at level that feeds the machine's own
// jackpot levels, in parts per million: every mystery level, and at the
// top bet the levels a paytable combination wins (what the machine feeds).
// A linked level's rate is the link controller's, not known here.
func jackpotRate(pt *reels.Certified, v machine.View, level int) int64 {
	var ppm int64
	for _, j := range v.Jackpots {
		if j.Linked {
			continue
		}
		named := slices.ContainsFunc(pt.LinePays, func(lp reels.Pay) bool { return lp.Progressive == j.Level })
		if j.Mystery || (level == pt.TopLevel() && named) {
			ppm += j.RatePPM
		}
	}
	return ppm
}

// countRange describes the counts an entry covers: exactly n when the next
// entry is n+1, "n–m" up to the next, "n+" for the last.
func countRange(lang string, n, next int) string {
	switch {
	case next == 0:
		return T(lang, "count_or_more", Itoa(n))
	case next == n+1:
		return Itoa(n)
	}
	return Itoa(n) + "–" + Itoa(next-1)
}

func symbolName(pt *reels.Certified, sym int, lang string) string {
	if lang == "en" {
		return pt.Symbols[sym].Name.EN
	}
	return pt.Symbols[sym].Name.PT
}

func Title(pt *reels.Certified, lang string) string {
	if lang == "en" {
		return pt.Title.EN
	}
	return pt.Title.PT
}

// PageText is the text of a page, one item a line (tests and the uidemo's
// text dump read it).
func PageText(p Page) string {
	var b strings.Builder
	b.WriteString(p.Title + "\n")
	for _, it := range p.Items {
		if len(it.Symbols) > 0 {
			b.WriteString("[" + strings.Join(it.Symbols, " ") + "] ")
		}
		b.WriteString(it.Text + "\n")
	}
	return b.String()
}
