package main

import (
	"encoding/json"
	"fmt"
	"io"
	"math/big"
	"strings"
	"text/tabwriter"

	"github.com/openegm/cabinet/poker/chemin/odds"
	"github.com/openegm/cabinet/poker/tabledef"
	"golang.org/x/crypto/blake2b"
)

// checkDecks and checkFigure are the check of every chemin de fer PAR
// sheet: with every choice "draw" the coup is punto banco's, and with 8
// decks the banker's expectation before the commission is punto banco's
// banker advantage over the player, 1.2351% to four decimals.
const (
	checkDecks  = 8
	checkFigure = "1.2351"
)

// cheminFigures are a chemin de fer definition's exact figures and the
// check's.
type cheminFigures struct {
	def   *tabledef.Definition
	f     *odds.Figures
	check odds.Figure // pair 1 (every choice "draw") with 8 decks, before the cagnotte
}

func cheminFiguresOf(name string, data []byte) (*cheminFigures, error) {
	d, err := tabledef.Parse(name, data)
	if err != nil {
		return nil, err
	}
	c := d.Chemin
	f, err := odds.Exact(c.Decks, c.CagnotteBps)
	if err != nil {
		return nil, err
	}
	g := f
	if c.Decks != checkDecks {
		if g, err = odds.Exact(checkDecks, c.CagnotteBps); err != nil {
			return nil, err
		}
	}
	cf := &cheminFigures{def: d, f: f, check: g.Pairs[0][0].Before}
	if got := new(big.Rat).Mul(cf.check.Rat, big.NewRat(100, 1)).FloatString(4); got != checkFigure {
		return nil, fmt.Errorf("%s: the check failed: every choice draw, %d decks, banker %s%%, not punto banco's %s%%", name, checkDecks, got, checkFigure)
	}
	return cf, nil
}

// tableauReply is, at a table whose banker plays the tableau only, the
// ponto's best reply on 5 (the row with the banker's least expectation in
// column 1) and its pair.
func (cf *cheminFigures) tableauReply() (row int, p odds.Pair) {
	if cf.f.Pairs[1][0].Before.Cmp(cf.f.Pairs[0][0].Before.Rat) < 0 {
		row = 1
	}
	return row, cf.f.Pairs[row][0]
}

func cheminPar(name string, data []byte, asJSON bool, lang string, out io.Writer) error {
	cf, err := cheminFiguresOf(name, data)
	if err != nil {
		return err
	}
	d, c := cf.def, cf.def.Chemin
	if asJSON {
		row, best := cf.tableauReply()
		enc := json.NewEncoder(out)
		enc.SetIndent("", "  ")
		return enc.Encode(map[string]any{
			"id": d.ID, "version": d.Version, "game": d.Game, "title": d.Title, "decks": c.Decks,
			"cagnotte_bps": c.CagnotteBps, "cagnotte_rounding": c.Rounding, "tableau_only": c.TableauOnly,
			"figures":                  cf.f,
			"tableau_only_ponto_reply": map[string]any{"ponto_draws_on_5": odds.PontoStrategies[row], "pair": best},
			"check": map[string]any{
				"decks": checkDecks, "pair": "every choice draw (punto banco's rules)",
				"banker_ev_before_cagnotte": cf.check, "expected_percent_4_decimals": checkFigure,
			},
		})
	}
	writeCheminPar(out, cf, data, lang)
	return nil
}

// writeCheminPar prints the figures in the language: every one as an exact
// fraction with its percentage to six decimals.
func writeCheminPar(out io.Writer, cf *cheminFigures, data []byte, lang string) {
	tr := func(pt, en string) string {
		if lang == "pt" {
			return pt
		}
		return en
	}
	d, c, f := cf.def, cf.def.Chemin, cf.f
	// pc is a figure's percentage, with a decimal comma in Portuguese.
	pc := func(x odds.Figure) string {
		if lang == "pt" {
			return strings.Replace(x.Percent(), ".", ",", 1)
		}
		return x.Percent()
	}
	rounding := map[tabledef.Rounding][2]string{
		tabledef.RoundDown:   {"para baixo", "down"},
		tabledef.RoundHalfUp: {"ao mais próximo, meio cêntimo para cima", "half up"},
		tabledef.RoundUp:     {"para cima", "up"},
	}[c.Rounding]
	sum := blake2b.Sum256(data)
	fmt.Fprintf(out, "%s  %s v%d  %q / %q\n", tr("FOLHA PAR", "PAR SHEET"), d.ID, d.Version, d.Title.PT, d.Title.EN)
	fmt.Fprintf(out, "%s BLAKE2b-256 %x\n", tr("ficheiro", "file"), sum)
	fmt.Fprintf(out, tr("jogo chemin_de_fer: sabot de %d baralhos de 52 cartas (%d cartas), tiradas sem reposição de um sabot completo\n",
		"game chemin_de_fer: a sabot of %d decks of 52 cards (%d cards), drawn without replacement from a full sabot\n"), c.Decks, f.Cards)
	fmt.Fprintf(out, tr("cada probabilidade é uma contagem de sequências ordenadas de seis cartas sobre %s\n",
		"every probability is a count of ordered six-card sequences over %s\n"), f.Sequences)
	fmt.Fprintf(out, tr("cagnotte %s dos ganhos do banqueiro (taxa exata; à mesa a de cada golpe arredonda-se ao cêntimo: %s)\n",
		"cagnotte %s of the banker's winnings (the exact rate; at the table each coup's is brought to a cent: %s)\n"),
		tabledef.Percent(lang, c.CagnotteBps), tr(rounding[0], rounding[1]))
	if c.TableauOnly {
		fmt.Fprintln(out, tr("nesta mesa o banqueiro joga segundo a tabela (coluna 1)", "at this table the banker plays the tableau only (column 1)"))
	} else {
		fmt.Fprintln(out, tr("nesta mesa o banqueiro escolhe com 3 contra 9 e com 5 contra 4", "at this table the banker chooses with 3 against a 9 and with 5 against a 4"))
	}
	word := func(draw bool) string {
		if draw {
			return tr("tira", "draws")
		}
		return tr("fica", "stands")
	}
	fmt.Fprintln(out, tr("\nesperança do banqueiro por unidade em jogo, por par de estratégias (percentagens a seis casas decimais):",
		"\nthe banker's expectation per unit at stake, for each strategy pair (percentages to six decimals):"))
	tw := tabwriter.NewWriter(out, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, tr("par\tponto com 5\tbanqueiro 3 c. 9\tbanqueiro 5 c. 4\tbanqueiro ganha\tponto ganha\tnulo\tantes da cagnotte\tdepois da cagnotte\t",
		"pair\tponto on 5\tbanker 3 v 9\tbanker 5 v 4\tbanker wins\tponto wins\tvoid\tbefore cagnotte\tafter cagnotte\t"))
	for i := range 2 {
		for j := range 4 {
			p := f.Pairs[i][j]
			fmt.Fprintf(tw, "%d\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t\n", 4*i+j+1, word(p.PontoDrawsOnFive), word(p.Banker.ThreeVsNine), word(p.Banker.FiveVsFour),
				pc(p.BankerWin), pc(p.PontoWin), pc(p.Void), pc(p.Before), pc(p.After))
		}
	}
	tw.Flush()
	fmt.Fprintln(out, tr("\nvalores exatos (figuras certificadas):", "\nexact figures (certified):"))
	for i := range 2 {
		for j := range 4 {
			p := f.Pairs[i][j]
			fmt.Fprintf(out, "  %d  %s %s   %s %s\n", 4*i+j+1, tr("antes", "before"), p.Before.RatString(), tr("depois", "after"), p.After.RatString())
			fmt.Fprintf(out, "     %s %s   %s %s   %s %s\n", tr("banqueiro ganha", "banker wins"), p.BankerWin.RatString(),
				tr("ponto ganha", "ponto wins"), p.PontoWin.RatString(), tr("nulo", "void"), p.Void.RatString())
		}
	}
	mixes := func(s *odds.Solution) {
		if s.PontoDraw[0].Cmp(s.PontoDraw[1].Rat) == 0 {
			fmt.Fprintf(out, tr("  ponto: tira com 5 com probabilidade %s = %s\n", "  ponto: draws on 5 with probability %s = %s\n"),
				s.PontoDraw[0].RatString(), pc(s.PontoDraw[0]))
		} else {
			fmt.Fprintf(out, tr("  ponto: tira com 5 com qualquer probabilidade de %s a %s\n", "  ponto: draws on 5 with any probability from %s to %s\n"),
				s.PontoDraw[0].RatString(), s.PontoDraw[1].RatString())
		}
		for _, mix := range s.Banker {
			fmt.Fprint(out, tr("  banqueiro:", "  banker:"))
			sep := " "
			for j, q := range mix {
				if q.Sign() != 0 {
					b := odds.BankerStrategies[j]
					fmt.Fprintf(out, tr("%s%s = %s na coluna %d (3 c. 9 %s, 5 c. 4 %s)", "%s%s = %s on column %d (3 v 9 %s, 5 v 4 %s)"),
						sep, q.RatString(), pc(q), j+1, word(b.ThreeVsNine), word(b.FiveVsFour))
					sep = tr(" e ", " and ")
				}
			}
			fmt.Fprintln(out)
		}
	}
	g := f.Game
	fmt.Fprintln(out, tr("\njogo 2 × 4 de soma nula (antes da cagnotte: o que o ponto ganha o banqueiro perde):",
		"\nthe 2 × 4 zero-sum game (before the cagnotte: what the ponto wins the banker loses):"))
	fmt.Fprintf(out, tr("  valor %s = %s\n", "  value %s = %s\n"), pc(g.Value), g.Value.RatString())
	mixes(g)
	fmt.Fprintln(out, tr("depois da cagnotte, o que o banqueiro garante (maximin) e como:",
		"after the cagnotte, what the banker can guarantee (maximin) and how:"))
	fmt.Fprintf(out, tr("  valor %s = %s\n", "  value %s = %s\n"), pc(f.GameAfter.Value), f.GameAfter.Value.RatString())
	mixes(f.GameAfter)
	row, best := cf.tableauReply()
	fmt.Fprintf(out, tr("banqueiro só segundo a tabela: a melhor resposta do ponto é %s com 5 (par %d): %s antes, %s depois da cagnotte\n",
		"banker on the tableau only: the ponto's best reply is to %s on 5 (pair %d): %s before, %s after the cagnotte\n"),
		tr(map[bool]string{true: "tirar", false: "ficar"}[odds.PontoStrategies[row]], map[bool]string{true: "draw", false: "stand"}[odds.PontoStrategies[row]]),
		4*row+1, pc(best.Before), pc(best.After))
	fmt.Fprintf(out, tr("\nverificação: tudo \"tira\" (as regras do punto banco), %d baralhos: banqueiro %s = %s antes da comissão (punto banco: %s%%)\n",
		"\ncheck: every choice \"draw\" (punto banco's rules), %d decks: banker %s = %s before the commission (punto banco: %s%%)\n"),
		checkDecks, pc(cf.check), cf.check.RatString(), tr(strings.Replace(checkFigure, ".", ",", 1), checkFigure))
}
