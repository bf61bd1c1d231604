package model

import (
	"regexp"
	"strings"
	"time"

	"github.com/openegm/cabinet/machine"
	"github.com/openegm/cabinet/poker"
)

// The player's session at a table: its figures while he is seated, the
// re-buy (synthetic poker's minimum re-buy, rule 38; hold'em's, SRIJ
// rules 15-18), and the summary when he leaves (SRIJ rule 80). The
// figures are the server's (poker.Totals) and the machine's (what it
// moved to the table, the credit meter); the screen only shows them.

// PokerSession are the lines of the side panel about the player: his
// chips at the table, what the machine moved there, what he bet and won,
// the commission he paid on buying in, the result so far, the hands he
// played and the credit meter.
func (g *Screen) PokerSession() []TableMeter {
	p := g.PokerSeat()
	out := []TableMeter{}
	s := p.State
	if s != nil && s.You != nil {
		out = append(out, TableMeter{g.T("poker_stack"), Euro(g.Lang, s.You.Stack)})
	}
	out = append(out, TableMeter{g.T("poker_at_table"), Euro(g.Lang, p.AtTable)})
	if s != nil && s.You != nil {
		t := s.You.Totals
		won, hands := "poker_won_pots", "poker_hands"
		if s.Chemin != nil {
			won, hands = "chemin_won", "chemin_coups" // no pots at chemin de fer: coups
		}
		out = append(out, TableMeter{g.T("poker_wagered"), Euro(g.Lang, t.Wagered)}, TableMeter{g.T(won), Euro(g.Lang, t.Won)})
		if t.Fees > 0 {
			out = append(out, TableMeter{g.T("poker_fees"), Euro(g.Lang, t.Fees)})
		}
		// So far: what he would take away now, less what he brought.
		out = append(out, g.resultRow("poker_result_so_far", s.You.Stack+t.CashedOut-t.BoughtIn),
			TableMeter{g.T(hands), Itoa(t.Hands)})
	}
	return append(out, TableMeter{g.T("poker_credit"), Euro(g.Lang, g.V.CreditsCents)})
}

// resultRow is a profit or a loss: "+12,00 €" or "−5,00 €".
func (g *Screen) resultRow(key string, net int64) TableMeter {
	v := "+" + Euro(g.Lang, net)
	if net < 0 {
		v = "−" + Euro(g.Lang, -net)
	}
	return TableMeter{g.T(key), v}
}

// The re-buy.

// rebuyOffered says whether the RE-BUY button takes a touch: seated, not
// leaving, no transfer under way, the machine idle. A credit below the
// minimum does not grey it: the touch says what is missing.
func (g *Screen) rebuyOffered() bool {
	p := g.PokerSeat()
	s := p.State
	return g.PokerAtTable() && p.Status == SeatSeated && s.You != nil && s.You.CashOut == "" && g.V.Mode == "idle"
}

// RebuyBounds are the re-buy's least and greatest amounts: the table's
// minimum re-buy and the credit that may go to a table (never PROMO
// credit); ok is false when the credit is below the minimum.
func (g *Screen) RebuyBounds() (lo, hi int64, ok bool) {
	s := g.PokerState()
	if s == nil {
		return 0, 0, false
	}
	lo, hi = max(s.Table.MinRebuy, 1), g.toTable()
	return lo, hi, hi >= lo
}

// RebuyAmount is the re-buy chosen, within its bounds (0: none possible).
func (g *Screen) RebuyAmount() int64 {
	lo, hi, ok := g.RebuyBounds()
	if !ok {
		return 0
	}
	return min(max(g.Poker.RebuyTo, lo), hi)
}

// rebuyBy moves the re-buy by d minimum re-buys, stopping at the bounds
// (the last step up may be smaller: the whole credit).
func (g *Screen) rebuyBy(d int) {
	g.activity()
	lo, hi, ok := g.RebuyBounds()
	if !ok {
		return
	}
	to := g.RebuyAmount()
	if d > 0 {
		to = min(to+lo, hi)
	} else {
		to = max(to-lo, lo)
	}
	g.Poker.RebuyTo = to
}

// openRebuy opens the choice of the re-buy at the minimum; a credit below
// it is refused here, with the figures, nothing sent.
func (g *Screen) openRebuy() {
	g.activity()
	lo, hi, ok := g.RebuyBounds()
	if !ok {
		key := "poker_rebuy_short"
		if g.V.RestrictedCents > 0 {
			key = "poker_rebuy_short_promo"
		}
		g.Poker.note, g.Poker.noteArgs, g.Poker.noteTick, g.Poker.noteTable = key, []int64{lo, hi}, g.Tick, true
		return
	}
	g.Poker.note = ""
	g.Poker.rebuy, g.Poker.RebuyTo = true, lo
}

// sendRebuy asks the machine for the re-buy chosen: a buy-in at the table
// the player is at (the machine and the server check it again).
func (g *Screen) sendRebuy() {
	g.activity()
	amount, table := g.RebuyAmount(), g.PokerSeat().Table
	g.Poker.rebuy, g.Poker.note = false, ""
	if amount > 0 {
		g.C.Service(machine.PokerBuyIn{At: time.Now(), Table: table, Cents: amount})
	}
}

// RebuyText is the re-buy's bounds in words, beside its amount.
func (g *Screen) RebuyText() string {
	lo, hi, _ := g.RebuyBounds()
	return g.T("poker_rebuy_bounds", Euro(g.Lang, lo), Euro(g.Lang, hi))
}

// rebuyButtons are the re-buy's row: − and + the amount, confirm, cancel.
func (g *Screen) rebuyButtons() []Button {
	a := RectPokerActions
	lo, hi, _ := g.RebuyBounds()
	to := g.RebuyAmount()
	return []Button{
		{ID: "poker:rebuy_down", Label: "−", R: Rect{396, a.Y, 70, a.H}, Enabled: to > lo, Act: func(g *Screen) { g.rebuyBy(-1) }},
		{ID: "poker:rebuy_up", Label: "+", R: Rect{652, a.Y, 70, a.H}, Enabled: to < hi, Act: func(g *Screen) { g.rebuyBy(1) }},
		{ID: "poker:rebuy_ok", Label: g.T("poker_rebuy_ok", Euro(g.Lang, to)), R: Rect{730, a.Y, 300, a.H}, Enabled: to > 0, Style: StyleHot,
			Act: (*Screen).sendRebuy},
		{ID: "poker:rebuy_cancel", Label: g.T("poker_rebuy_cancel"), R: Rect{1040, a.Y, 220, a.H}, Enabled: true,
			Act: func(g *Screen) { g.Poker.rebuy = false }},
	}
}

// RebuyUp says whether the re-buy's choice is on screen.
func (g *Screen) RebuyUp() bool { return g.Poker.rebuy && g.PokerAtTable() && !g.ReplayUp() }

// The server's reasons for refusing a transfer come in English; the
// known ones are said in the screen's language, with the rule they cite.
var (
	refusalRule  = regexp.MustCompile(`\((rules? [0-9][0-9a-z ,–-]*)\)`)
	refusalTexts = []struct{ has, key string }{
		{"no re-buy during a hand", "poker_why_in_hand"},
		{"is below the minimum", "poker_why_below_min"},
		{"is not at table", "poker_why_not_seated"},
	}
)

// RefusalText is the server's reason in the language: a known one in its
// words (with the rule it cites), any other as the server wrote it.
func RefusalText(lang, why string) string {
	for _, r := range refusalTexts {
		if !strings.Contains(why, r.has) {
			continue
		}
		s := T(lang, r.key)
		if m := refusalRule.FindStringSubmatch(why); m != nil {
			rule := m[1]
			if lang != "en" {
				rule = strings.Replace(strings.Replace(rule, "rules", "regras", 1), "rule", "regra", 1)
			}
			s += " (" + rule + ")"
		}
		return s
	}
	return why
}

// The summary of the session that ended.

// endedKey tells one ended session from another.
func endedKey(e *machine.PokerSessionEnd) string { return e.Table + "/" + e.Transfer }

// EndedUp says whether the summary of the session that ended covers the
// lobby: the player left and has not closed it.
func (g *Screen) EndedUp() bool {
	p := g.PokerSeat()
	e := p.Ended
	return e != nil && g.AtPoker() && !g.PokerAtTable() && !seatBusy(p.Status) && g.Poker.endedClosed != endedKey(e)
}

func (g *Screen) closeEnded() {
	g.activity()
	if e := g.PokerSeat().Ended; e != nil {
		g.Poker.endedClosed = endedKey(e)
	}
	g.pokerAct("close_ended", 0, false)
}

// EndedTitle is the summary's heading, with the table's title.
func (g *Screen) EndedTitle() string {
	if e := g.PokerSeat().Ended; e != nil {
		return g.T("poker_ended_title", g.tableTitle(e.Table))
	}
	return ""
}

// EndedRows are the summary's lines: the hands played, what he bought in
// with, the commission on it, what he bet, won and took away, the result,
// what came back to the credit meter, and the credit now.
func (g *Screen) EndedRows() []TableMeter {
	e := g.PokerSeat().Ended
	if e == nil {
		return nil
	}
	t := e.Totals
	hands, won := "poker_hands", "poker_won_pots"
	if g.tableGame(e.Table) == "chemin_de_fer" {
		hands, won = "chemin_coups", "chemin_won"
	}
	return []TableMeter{
		{g.T(hands), Itoa(t.Hands)},
		{g.T("poker_bought_in"), Euro(g.Lang, t.BoughtIn)},
		{g.T("poker_fees"), Euro(g.Lang, t.Fees)},
		{g.T("poker_wagered"), Euro(g.Lang, t.Wagered)},
		{g.T(won), Euro(g.Lang, t.Won)},
		{g.T("poker_cashed_out"), Euro(g.Lang, t.CashedOut)},
		g.resultRow(resultKey(t), t.Net()),
		{g.T("poker_back_on_credit"), Euro(g.Lang, e.Amount)},
		{g.T("poker_credit"), Euro(g.Lang, g.V.CreditsCents)},
	}
}

// resultKey names a session's result: a profit, a loss, or even.
func resultKey(t poker.Totals) string {
	switch n := t.Net(); {
	case n > 0:
		return "poker_result_profit"
	case n < 0:
		return "poker_result_loss"
	}
	return "poker_result_even"
}

// EndedNote says where the totals come from when they are not the
// server's own yet ("" when they are).
func (g *Screen) EndedNote() string {
	if e := g.PokerSeat().Ended; e != nil && !e.Server {
		return g.T("poker_ended_provisional")
	}
	return ""
}

// RectEnded is the summary's panel, over the lobby.
var RectEnded = Rect{290, 80, 700, 500}

// endedButtons are the summary's: the language and the close.
func (g *Screen) endedButtons() []Button {
	y, h := 634.0, 76.0
	return []Button{
		{ID: machine.BtnLanguage, Label: g.T("btn_language"), R: Rect{20, y, 150, h}, Enabled: true,
			Act: func(g *Screen) { g.press(machine.BtnLanguage) }},
		{ID: "poker:ended_close", Label: g.T("poker_ended_close"), R: Rect{RectEnded.X + RectEnded.W/2 - 140, RectEnded.Y + RectEnded.H - 92, 280, 72},
			Enabled: true, Style: StyleHot, Act: (*Screen).closeEnded},
	}
}
