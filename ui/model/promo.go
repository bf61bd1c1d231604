package model

import (
	"time"

	"github.com/openegm/cabinet/meters"
)

// The credit meter holds three kinds of credit (meters/promo.go): cash,
// restricted promotional credit ("PROMO": played first, never cashed out,
// until its date) and non-restricted promotional credit ("PROMO LIVRE":
// played, and cashed out as money). The meter shows their total as it
// always did; with promotional credit on it, the screens also say what it
// is made of, as casinos show it, so a player knows before he presses
// RECEBER what a ticket will pay and what stays to be played.

// Kinds of credit, in the order a bet takes them.
const (
	CreditPromo     = "promo"      // restricted: played, never cashed out
	CreditPromoFree = "promo_free" // non-restricted: played or cashed out
	CreditCash      = "cash"
)

// CreditPart is one kind of credit on the credit meter, as the player
// reads it.
type CreditPart struct {
	Kind   string
	Label  string // "PROMO", "PROMO LIVRE", "DINHEIRO"
	Amount string // in euros
	// Until is the restricted credit's last day ("válido até 10/07/2025"):
	// "" when it never expires, or when the day has passed (the machine
	// takes the credit off when the game ends; "valid until yesterday"
	// would tell the player something false meanwhile).
	Until string
}

// CreditSplit is what the credit meter, showing cents, holds by kind:
// PROMO, PROMO LIVRE and DINHEIRO, each kind there is (cash always), or
// nil without promotional credit (the meter alone says it all).
func (g *Screen) CreditSplit(cents int64) []CreditPart {
	v := g.V
	if v.RestrictedCents <= 0 && v.NonRestrictedCents <= 0 {
		return nil
	}
	var out []CreditPart
	if v.RestrictedCents > 0 {
		out = append(out, CreditPart{Kind: CreditPromo, Label: g.T("credit_promo"), Amount: Euro(g.Lang, v.RestrictedCents), Until: g.promoUntil()})
	}
	if v.NonRestrictedCents > 0 {
		out = append(out, CreditPart{Kind: CreditPromoFree, Label: g.T("credit_promo_free"), Amount: Euro(g.Lang, v.NonRestrictedCents)})
	}
	// The view gives the promotional parts of the credit meter; the cash
	// is the rest of what the meter shows, so it counts up with a win (a
	// win is cash) as the meter does. A view whose parts exceed the total
	// is not the machine's (its equation holds at every commit): no
	// negative figure is shown for it.
	cash := max(cents-v.RestrictedCents-v.NonRestrictedCents, 0)
	return append(out, CreditPart{Kind: CreditCash, Label: g.T("credit_cash"), Amount: Euro(g.Lang, cash)})
}

// CreditSplitLines lays a split out in two lines for a panel beside the
// credit meter: the first kind (with its date) on the first line, the
// others on the second.
func CreditSplitLines(parts []CreditPart) [][]CreditPart {
	if len(parts) < 2 {
		return [][]CreditPart{parts}
	}
	return [][]CreditPart{parts[:1], parts[1:]}
}

// promoUntil is the restricted credit's last day as the screens say it
// (DD/MM/YYYY in both languages, as the cabinet's tickets print dates).
func (g *Screen) promoUntil() string {
	e := g.V.RestrictedExpires
	day, ok := e.Date()
	if !ok || e.Expired(g.now()) {
		return ""
	}
	return g.T("credit_promo_until", day.Format("02/01/2006"))
}

// now is the screen's clock: the cabinet's, which the machine's dates
// are of (tests set Now).
func (g *Screen) now() time.Time {
	if g.Now != nil {
		return g.Now()
	}
	return time.Now()
}

// cashOutMessage says whether a message of the machine is a cash-out's
// (a ticket, a transfer to the host, a handpay of the credit and its
// payment), with which restricted credit left on the meter is told.
func (g *Screen) cashOutMessage(key string) bool {
	switch key {
	case "msg_printing", "msg_reprinting", "msg_ticket_printed", "msg_aft_out", "msg_handpay_reset", "msg_handpay_voucher":
		// A handpay paid may be a win's: what is left on the meter stays
		// for play all the same.
		return true
	case "msg_handpay", "msg_handpay_printer":
		return g.cancelledHandpay()
	}
	return false
}

// promoStays says that the restricted credit on the meter stays there for
// play ("" without any).
func (g *Screen) promoStays() string {
	if g.V.RestrictedCents <= 0 {
		return ""
	}
	return g.T("promo_stays", Euro(g.Lang, g.V.RestrictedCents))
}

// withPromoStays adds promoStays to a cash-out's text.
func (g *Screen) withPromoStays(s string) string {
	if p := g.promoStays(); p != "" {
		return s + " · " + p
	}
	return s
}

// Said is the machine's message translated; a cash-out's says what stays
// on the meter for play.
func (g *Screen) Said() string {
	m := g.V.Message
	s := MessageText(g.Lang, m.Key, m.Args)
	if g.cashOutMessage(m.Key) {
		s = g.withPromoStays(s)
	}
	return s
}

// PrintingText is the message while a cash-out ticket is printed.
func (g *Screen) PrintingText() string {
	v := g.V
	return g.withPromoStays(g.T("lock_printing", v.Printing, Euro(g.Lang, v.PrintingCents)))
}

// cancelledHandpay says whether the handpay on screen pays a cash-out.
func (g *Screen) cancelledHandpay() bool {
	return g.V.Mode == "handpay" && g.V.HandpayKind == meters.HandpayCancelled
}

// RowWithSplit shares a message row with the credit's split: the split
// under the credit meter (its span), the message beside it on the wider
// side. Without a split the row is the message's (split is zero).
func RowWithSplit(row, meter Rect, hasSplit bool) (split, msg Rect) {
	if !hasSplit {
		return Rect{}, row
	}
	const gap = 16
	split = Rect{meter.X, row.Y, meter.W, row.H}
	left := Rect{row.X, row.Y, meter.X - gap - row.X, row.H}
	right := Rect{meter.X + meter.W + gap, row.Y, row.X + row.W - (meter.X + meter.W + gap), row.H}
	if left.W >= right.W {
		return split, left
	}
	return split, right
}

// The rows the screens share with the credit's split, when there is one.

// ReelsMessageRow is the reels' message row: the split under the credit
// meter, the message right of it.
func (g *Screen) ReelsMessageRow() (split, msg Rect, parts []CreditPart) {
	_, cents := g.ShownCredits()
	parts = g.CreditSplit(cents)
	split, msg = RowWithSplit(RectMessage, RectCreditCell, parts != nil)
	return split, msg, parts
}

// TableMessageRow is the Makccarat table's: the split under the table's
// meters, the message left of it.
func (g *Screen) TableMessageRow() (split, msg Rect, parts []CreditPart) {
	parts = g.CreditSplit(g.V.CreditsCents)
	split, msg = RowWithSplit(RectTableMsg, RectTableMeters, parts != nil)
	return split, msg, parts
}

// LobbyMessageRow is the poker lobby's: the split above the credit
// meter and the RECEBER button beside it (which ends at 1010: the row of
// buttons is narrower than the split's text), the message left of it.
func (g *Screen) LobbyMessageRow() (split, msg Rect, parts []CreditPart) {
	parts = g.CreditSplit(g.V.CreditsCents)
	under := Rect{RectCredit.X, RectCredit.Y, 1010 - RectCredit.X, RectCredit.H}
	split, msg = RowWithSplit(RectTableMsg, under, parts != nil)
	return split, msg, parts
}
