package model

import (
	"strings"

	"github.com/openegm/cabinet/baccarat"
	"github.com/openegm/cabinet/machine"
)

// TableRulesPages are the table's rules pages while the table is on
// screen, built once per definition and language.
func (g *Screen) TableRulesPages() []Page {
	k := pagesKey{lang: g.Lang, id: "table:" + g.V.MachineID + ":" + tableID(g.V.Table)}
	if g.pages == nil || k != g.pagesFor {
		g.pages, g.pagesFor = TableRulesPages(g.V.Table, g.Lang), k
	}
	return g.pages
}

func tableID(t *machine.TableView) string {
	if t == nil {
		return ""
	}
	return t.ID
}

// TableRulesPages builds the Makccarat rules pages in a language from the
// certified definition as the machine gives it: how the hand is played
// with the definition's alternative, what each bet pays with its exact
// return to player, the commission, the decks and the limits. Nothing here
// is written for one definition: another approved definition shows its
// own figures.
func TableRulesPages(t *machine.TableView, lang string) []Page {
	tr := func(key string, args ...string) string { return T(lang, key, args...) }
	if t == nil {
		return []Page{{Title: tr("rules_title"), Items: []Item{{Kind: ItemText, Text: tr("pt_none")}}}}
	}
	add := func(p *Page, k ItemKind, text string) { p.Items = append(p.Items, Item{Kind: k, Text: text}) }
	title := TableTitle(t, lang)

	p1 := Page{Title: tr("rules_title")}
	add(&p1, ItemHeading, tr("rules_definition", title))
	add(&p1, ItemText, tr("rules_decks", Itoa(t.Decks)))
	add(&p1, ItemText, tr("rules_points"))
	add(&p1, ItemText, tr("rules_deal"))
	add(&p1, ItemHeading, tr("rules_alternative", Itoa(t.Alternative)))
	add(&p1, ItemText, tr("rules_natural"))
	add(&p1, ItemText, tr("rules_equal"))
	add(&p1, ItemText, tr("rules_alt_"+Itoa(t.Alternative)))
	add(&p1, ItemText, tr("rules_winner"))
	add(&p1, ItemText, tr("rules_pair"))

	p2 := Page{Title: tr("rules_title_pays")}
	add(&p2, ItemHeading, tr("rules_pays"))
	for s, spot := range t.Spots {
		add(&p2, ItemText, tr("rules_pay_line", tr("spot_"+baccarat.Spot(s).String()), Credits(lang, spot.Odds), RTPText(lang, spot.RTPPct)))
	}
	add(&p2, ItemText, tr("rules_tie_returns"))
	add(&p2, ItemText, tr("rules_rtp_note"))
	add(&p2, ItemHeading, tr("rules_commission"))
	add(&p2, ItemText, tr("rules_"+t.Commission))
	p3 := Page{Title: tr("rules_title_limits")}
	add(&p3, ItemHeading, tr("rules_limits"))
	for s, spot := range t.Spots {
		add(&p3, ItemText, tr("rules_limit_spot", tr("spot_"+baccarat.Spot(s).String()), Euro(lang, spot.Min), Euro(lang, spot.Max)))
	}
	add(&p3, ItemText, tr("rules_limit_hand", Euro(lang, t.HandMin), Euro(lang, t.HandMax)))
	add(&p3, ItemText, tr("rules_bet_unit", Euro(lang, t.BetUnit)))
	return []Page{p1, p2, p3}
}

// RTPText writes a spot's certified return as the machine gives it, six
// decimals truncated as the PAR sheet prints them ("98.485518%"), with the
// language's decimal mark: "98,485518 %" in Portuguese. Rounding it again
// here could make the screen differ from the certified sheet in the last
// digit.
func RTPText(lang, pct string) string {
	if pct == "" || lang == "en" || !strings.HasSuffix(pct, "%") {
		return pct
	}
	return strings.Replace(strings.TrimSuffix(pct, "%"), ".", ",", 1) + " %"
}

// TableTitle is the table's display name in a language, from its signed
// definition (never its ID).
func TableTitle(t *machine.TableView, lang string) string {
	if t == nil {
		return ""
	}
	if lang == "en" && t.Title[1] != "" {
		return t.Title[1]
	}
	return t.Title[0]
}
