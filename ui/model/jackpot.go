package model

import (
	"fmt"
	"slices"
	"strings"

	"github.com/openegm/cabinet/machine"
	"github.com/openegm/cabinet/reels"
)

// The cabinet's own jackpot (machine.View.Jackpots): a banner above the
// reels with each level's value, and a rules page with the paytable pages.
// The values are the machine's, floored to cents; they are only formatted
// here, and a mystery level's hidden hit value is never in the view.

// With jackpot levels, their banner takes a strip above the reels and the
// reels are that much shorter; nothing else on the screen moves. Without
// levels the reels keep RectReels.
var (
	RectJackpots     = Rect{140, 60, 1000, 44}
	RectReelsJackpot = Rect{140, 118, 1000, 368} // same bottom as RectReels
)

// ReelsFor is where the reels are on the player's screen of a view:
// RectReels, or RectReelsJackpot under a jackpot banner.
func ReelsFor(v machine.View) Rect {
	if len(v.Jackpots) > 0 {
		return RectReelsJackpot
	}
	return RectReels
}

// ViewCell is the design-space rectangle of a reel cell on the player's
// screen of a view (CellRect is the one without jackpot levels).
func ViewCell(v machine.View, reel, row, reelsN, rows int) Rect {
	return CellIn(ReelsFor(v), reel, row, reelsN, rows)
}

// ReelsRect is where the reels are on the player's screen now.
func (g *Screen) ReelsRect() Rect { return ReelsFor(g.V) }

// Cell is the design-space rectangle of a reel cell on the player's screen
// now.
func (g *Screen) Cell(reel, row, reelsN, rows int) Rect {
	return ViewCell(g.V, reel, row, reelsN, rows)
}

// CellIn is a reel cell of a window of reelsN reels and rows rows drawn in r.
func CellIn(r Rect, reel, row, reelsN, rows int) Rect {
	w, h := r.W/float64(reelsN), r.H/float64(rows)
	return Rect{r.X + float64(reel)*w, r.Y + float64(row)*h, w, h}
}

// JackpotCell is one level on the banner.
type JackpotCell struct {
	Level   int
	Label   string // JACKPOT, MISTÉRIO… (JackpotLabel)
	Value   string // the value in euros
	Pending bool   // hit, being awarded: drawn highlighted
	Note    string // while pending: "GANHO!"
}

// String is the cell as one line of text (tests, the uidemo's dump).
func (c JackpotCell) String() string {
	s := c.Label + " " + c.Value
	if c.Note != "" {
		s += " " + c.Note
	}
	return s
}

// JackpotBanner is the banner of a view's jackpot levels in a language, in
// the view's order; nothing when the view has none.
func JackpotBanner(v machine.View, lang string) []JackpotCell {
	var out []JackpotCell
	for i, j := range v.Jackpots {
		c := JackpotCell{Level: j.Level, Label: JackpotLabel(lang, v.Jackpots, i), Value: Euro(lang, j.Cents), Pending: j.Pending}
		if j.Pending {
			c.Note = T(lang, "jp_won")
		}
		out = append(out, c)
	}
	return out
}

// JackpotBanner is the banner of the view on screen, built from it at
// every call: the values change every game.
func (g *Screen) JackpotBanner() []JackpotCell { return JackpotBanner(g.V, g.Lang) }

// JackpotLabel names level i of levels for players: JACKPOT for a level
// won by the paytable's combinations, MISTÉRIO (MYSTERY) for a mystery
// level, followed by the level's number when several levels are of the
// same kind (the number the line pays page gives a jackpot combination).
func JackpotLabel(lang string, levels []machine.JackpotView, i int) string {
	l := levels[i]
	key := "jp_paytable"
	if l.Mystery {
		key = "jp_mystery"
	}
	same := 0
	for _, o := range levels {
		if o.Mystery == l.Mystery {
			same++
		}
	}
	if same > 1 {
		return T(lang, key+"_n", Itoa(l.Level))
	}
	return T(lang, key)
}

// jackpotsPerPage is how many levels a rules page explains.
const jackpotsPerPage = 2

// jackpotPages are the rules of the view's jackpot levels (regulation rule
// 10: how each is won, what feeds it, what it restarts at, how it is paid),
// none without levels. pt is not nil.
func jackpotPages(pt *reels.Certified, v machine.View, lang string) []Page {
	if len(v.Jackpots) == 0 {
		return nil
	}
	t := func(key string, args ...string) string { return T(lang, key, args...) }
	euro := func(c int64) string { return Euro(lang, c) }
	top := pt.TopLevel()
	var pages []Page
	var p *Page
	add := func(k ItemKind, text string) { p.Items = append(p.Items, Item{Kind: k, Text: text}) }
	for i, j := range v.Jackpots {
		if i%jackpotsPerPage == 0 {
			pages = append(pages, Page{Title: t("pt_title_jackpots")})
			p = &pages[len(pages)-1]
			if i == 0 {
				add(ItemText, t("jp_rules_head"))
			}
		}
		label := JackpotLabel(lang, v.Jackpots, i)
		add(ItemHeading, t("jp_level_head", label, Itoa(j.Level)))
		if j.Mystery {
			if j.CapCents > 0 {
				add(ItemText, t("jp_mystery_cap", euro(j.CapCents)))
				add(ItemText, t("jp_mystery_how"))
			} else {
				add(ItemText, t("jp_mystery_nocap"))
			}
			add(ItemText, t("jp_feed_all", RatePercent(lang, j.RatePPM)))
		} else {
			named := false
			for _, lp := range pt.LinePays {
				if lp.Progressive != j.Level {
					continue
				}
				named = true
				ids := slices.Repeat([]string{pt.Symbols[lp.Symbol].ID}, lp.Count)
				p.Items = append(p.Items, Item{Kind: ItemPay, Symbols: ids,
					Text: t("jp_combo", Itoa(lp.Count), symbolName(pt, lp.Symbol, lang), label)})
			}
			switch {
			case !named:
				add(ItemText, t("jp_unnamed"))
			case top > v.TopOffered:
				add(ItemText, t("jp_top_bet_off"))
			default:
				add(ItemText, t("jp_top_bet", Credits(lang, pt.CreditsPerLine[top])))
			}
			if linked(j) {
				add(ItemText, t("jp_linked"))
				if j.SecondHit != "" {
					add(ItemText, t("jp_second_hit_"+j.SecondHit))
				}
				continue
			}
			add(ItemText, t("jp_feed_top", RatePercent(lang, j.RatePPM)))
			if j.CapCents > 0 {
				add(ItemText, t("jp_cap", euro(j.CapCents)))
			}
		}
		add(ItemText, t("jp_reset", euro(j.ResetCents)))
	}
	add(ItemHeading, t("jp_once"))
	if v.HandpayLimit > 0 {
		add(ItemText, t("jp_paid", euro(v.HandpayLimit)))
	} else {
		add(ItemText, t("jp_paid_attendant"))
	}
	return pages
}

// linked says whether a level is the link controller's, not the cabinet's
// own: the cabinet knows its value and how it is won, not what feeds it or
// what it restarts at.
func linked(j machine.JackpotView) bool { return j.Linked }

// jackpotRules is what the rules pages say of the levels: everything but
// their values, which change every game (the banner shows them).
func jackpotRules(js []machine.JackpotView) string {
	var b strings.Builder
	for _, j := range js {
		fmt.Fprintf(&b, "%d/%t/%t/%d/%d/%d/%s;", j.Level, j.Mystery, j.Linked, j.ResetCents, j.CapCents, j.RatePPM, j.SecondHit)
	}
	return b.String()
}
