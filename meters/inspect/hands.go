package inspect

import (
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
func CheckHand(g meters.GameHistory) string { return checkHand(g, "en") }

// checkHand is CheckHand in the language.
func checkHand(g meters.GameHistory, lang string) string {
	gs := g.Start
	if gs.Hand == nil {
		return ""
	}
	eur := func(c int64) string { return money.Euro(lang, c) }
	t, err := assets.LoadTable(gs.Paytable)
	if err != nil {
		return rt(lang, "hand_no_table", gs.Paytable, err)
	}
	if t.Digest != gs.Digest {
		return rt(lang, "hand_digest", gs.Paytable, t.Digest, gs.Digest)
	}
	h, err := t.Play(gs.Hand.Cards, baccarat.Bets(gs.Hand.Bets))
	if err != nil {
		return rt(lang, "hand_not_dealt", err)
	}
	switch {
	case h.Paid != gs.WinCents || h.Commission != gs.Hand.Commission:
		return rt(lang, "hand_pays", eur(h.Paid), eur(h.Commission), eur(gs.WinCents), eur(gs.Hand.Commission))
	case g.End != nil && g.End.WinCents != h.Paid:
		return rt(lang, "hand_ended", eur(h.Paid), eur(g.End.WinCents))
	}
	return ""
}

// handTexts are the words of a hand's check and its spots.
var handTexts = map[string][2]string{
	"hand_no_table":    {"definição da mesa %[1]s: não é uma das que este programa traz", "table definition %s: %v"},
	"hand_digest":      {"a definição da mesa %s não é aquela em que a mão foi dada (resumo %s, registado %s)", "table definition %s is not the one the hand was dealt on (digest %s, recorded %s)"},
	"hand_not_dealt":   {"a mão registada não é uma que as regras dão", "the recorded hand is not one the rules deal: %v"},
	"hand_pays":        {"as cartas pagam %s com %s de comissão, o registo diz %s com %s", "the cards pay %s with %s commission, the ledger recorded %s with %s"},
	"hand_ended":       {"as cartas pagam %s, o jogo terminou a pagar %s", "the cards pay %s, the game ended paying %s"},
	"spot_player":      {"jogador", "player"},
	"spot_banker":      {"banca", "banker"},
	"spot_tie":         {"empate", "tie"},
	"spot_player_pair": {"par do jogador", "player pair"},
	"spot_banker_pair": {"par da banca", "banker pair"},
}

func init() {
	for k, v := range handTexts {
		if _, dup := reportTexts[k]; dup {
			panic("report text " + k + " defined twice")
		}
		reportTexts[k] = v
	}
}

// handText is a hand as the tables print it, in the language: the cards
// as dealt and the stakes on each spot.
func handText(h *meters.TableHand, lang string) string {
	cs := make([]string, len(h.Cards))
	for i, c := range h.Cards {
		cs[i] = c.String()
	}
	var bets []string
	for s, v := range h.Bets {
		if v > 0 {
			bets = append(bets, rt(lang, "spot_"+baccarat.Spot(s).String())+" "+money.Euro(lang, v))
		}
	}
	return strings.Join(cs, " ") + " [" + strings.Join(bets, ", ") + "]"
}
