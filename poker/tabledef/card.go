package tabledef

import (
	"fmt"
	"strings"

	"github.com/openegm/cabinet/internal/money"
	"github.com/openegm/cabinet/poker/holdem"
	"github.com/openegm/cabinet/poker/synthetic"
)

// Card is the table's card, what a player reads before he sits down, in
// Portuguese ("pt", the default) or English: for synthetic poker the card
// of rule 20 as the engine writes it (number, initial cave, minimum bet,
// minimum re-buy) and what else the definition fixes; for hold'em the same
// facts of SRIJ rules 17-27 and 51-52; for chemin de fer the sabot, the
// least bank and bet, the cagnotte and its rounding, the bank's auction,
// the seats, the banker's choices and the timer.
func (d *Definition) Card(lang string) []string {
	if lang != "en" {
		lang = "pt"
	}
	eur := func(c int64) string { return money.Euro(lang, c) }
	tr := func(pt, en string) string {
		if lang == "en" {
			return en
		}
		return pt
	}
	if c := d.Chemin; c != nil {
		return c.card(lang, eur, tr)
	}
	if s := d.Synthetic; s != nil {
		lines := synthetic.Card{Number: s.Number, InitialCave: s.InitialCave, MinBet: s.MinBet, MinRebuy: s.MinRebuy}.Lines(lang)
		estardilho := tr("não", "no")
		if s.Estardilho {
			estardilho = tr("sim", "yes")
		}
		return append(lines,
			tr("Comissão: ", "Commission: ")+Percent(lang, synthetic.HouseBps)+tr(" de cada pote", " of each pot"),
			tr("Estardilho: ", "Estardilho: ")+estardilho,
			fmt.Sprintf(tr("Partida: %d min", "Partida: %d min"), int(s.Duration.Minutes())),
			fmt.Sprintf(tr("Tempo de decisão: %d s", "Decision time: %d s"), int(s.DecisionTime.Seconds())))
	}
	h := d.Holdem
	structure := map[holdem.Structure][2]string{
		holdem.NoLimit:      {"sem limite", "no limit"},
		holdem.PotLimit:     {"limite do pote", "pot limit"},
		holdem.HalfPotLimit: {"limite de meio pote", "half-pot limit"},
		holdem.FixedLimit:   {"limite fixo", "fixed limit"},
	}[h.Structure]
	lines := []string{
		tr("Mesa ", "Table ") + h.Table,
		"Hold'em, " + tr(structure[0], structure[1]),
		tr("Apostas obrigatórias: ", "Blinds: ") + eur(h.MinBet/2) + " / " + eur(h.MinBet),
	}
	if h.Structure == holdem.FixedLimit {
		lines = append(lines, fmt.Sprintf(tr("Apostas fixas: %s / %s, até %d por turno", "Fixed bets: %s / %s, at most %d a round"),
			eur(h.SmallBet), eur(h.BigBet), h.RaiseCap))
	} else if h.RaiseCap > 0 {
		lines = append(lines, fmt.Sprintf(tr("Até %d apostas por turno", "At most %d bets a round"), h.RaiseCap))
	}
	lines = append(lines,
		tr("Cave inicial: ", "Initial cave: ")+eur(h.InitialCave),
		tr("Reposição mínima: ", "Minimum re-buy: ")+eur(h.MinRebuy))
	if h.RakeBps > 0 {
		lines = append(lines, tr("Comissão: ", "Commission: ")+Percent(lang, h.RakeBps)+tr(" de cada pote", " of each pot"))
	} else {
		lines = append(lines, tr("Comissão: ", "Commission: ")+Percent(lang, h.FeeBps)+tr(" da cave e das reposições", " of each cave and re-buy"))
	}
	timer := fmt.Sprintf(tr("Tempo de decisão: %d s", "Decision time: %d s"), int(h.DecisionTime.Seconds()))
	if h.ExtraTime > 0 {
		timer += fmt.Sprintf(" (+%d s)", int(h.ExtraTime.Seconds()))
	}
	return append(lines, timer)
}

// Percent writes basis points as a percentage in the language: 250 is
// "2,5%" in Portuguese and "2.5%" in English.
func Percent(lang string, bps int64) string {
	s := fmt.Sprintf("%d.%02d", bps/100, bps%100)
	s = strings.TrimRight(strings.TrimRight(s, "0"), ".")
	if lang != "en" {
		s = strings.Replace(s, ".", ",", 1)
	}
	return s + "%"
}
