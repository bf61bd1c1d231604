package inspect

import (
	"fmt"
	"strings"

	"github.com/openegm/cabinet/internal/money"

	"github.com/openegm/cabinet/assets"
	"github.com/openegm/cabinet/baccarat"
	"github.com/openegm/cabinet/meters"
)

// CheckHand re-evaluates a recorded Makccarat hand apart from the cabinet:
// the certified definition it names (the copy this program carries, whose
// digest must be the one recorded), the recorded cards and stakes through
// the game's own evaluation, and what that pays against what the ledger
// says was paid. "" means it agrees.
func CheckHand(g meters.GameHistory) string {
	gs := g.Start
	if gs.Hand == nil {
		return ""
	}
	t, err := assets.LoadTable(gs.Paytable)
	if err != nil {
		return fmt.Sprintf("table definition %s: %v", gs.Paytable, err)
	}
	if t.Digest != gs.Digest {
		return fmt.Sprintf("table definition %s is not the one the hand was dealt on (digest %s, recorded %s)", gs.Paytable, t.Digest, gs.Digest)
	}
	h, err := t.Play(gs.Hand.Cards, baccarat.Bets(gs.Hand.Bets))
	if err != nil {
		return "the recorded hand is not one the rules deal: " + err.Error()
	}
	switch {
	case h.Paid != gs.WinCents || h.Commission != gs.Hand.Commission:
		return fmt.Sprintf("the cards pay %s with %s commission, the ledger recorded %s with %s", money.Euro("en", h.Paid), money.Euro("en", h.Commission), money.Euro("en", gs.WinCents), money.Euro("en", gs.Hand.Commission))
	case g.End != nil && g.End.WinCents != h.Paid:
		return fmt.Sprintf("the cards pay %s, the game ended paying %s", money.Euro("en", h.Paid), money.Euro("en", g.End.WinCents))
	}
	return ""
}

// handText is a hand as the tables print it: the cards as dealt and the
// stakes on each spot.
func handText(h *meters.TableHand) string {
	cs := make([]string, len(h.Cards))
	for i, c := range h.Cards {
		cs[i] = c.String()
	}
	var bets []string
	for s, v := range h.Bets {
		if v > 0 {
			bets = append(bets, baccarat.Spot(s).String()+" "+money.Euro("en", v))
		}
	}
	return strings.Join(cs, " ") + " [" + strings.Join(bets, ", ") + "]"
}
