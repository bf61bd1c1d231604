package inspect

import (
	"crypto/ed25519"
	"encoding/base64"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/openegm/cabinet/internal/money"
	"github.com/openegm/cabinet/internal/names"
	"github.com/openegm/cabinet/meters"
)

// reportTexts are the report's words: key → {pt, en}.
var reportTexts = map[string][2]string{
	"title":          {"RELATÓRIO DO REGISTO DA MÁQUINA %s", "LEDGER REPORT OF MACHINE %s"},
	"number":         {"Número da máquina: %s", "Machine number: %s"},
	"issued":         {"Emitido em %s (UTC)", "Issued %s (UTC)"},
	"key":            {"Chave da máquina (assina o registo): %s", "Machine key (signs the ledger): %s"},
	"h_verdict":      {"VERIFICAÇÃO DO REGISTO", "LEDGER VERIFICATION"},
	"ok":             {"VERIFICADO: %d registos; cadeia de resumos íntegra (último %s); %s; contadores consistentes", "VERIFIED: %d records; hash chain intact (last %s); %s; meters consistent"},
	"checkpoints":    {"%d pontos de verificação assinados pela chave da máquina %s, todos válidos", "%d signed checkpoints by machine key %s, all valid"},
	"marks":          {"cada escrita confirmada pela marca assinada da máquina (%d marcas, a última no registo %d)", "every commit vouched for by the machine's signed mark (%d marks, the last at record %d)"},
	"no_checkpoints": {"ainda sem pontos de verificação assinados", "no signed checkpoint yet"},
	"bad":            {"NÃO VERIFICADO: %d problema(s)", "NOT VERIFIED: %d problem(s)"},
	"h_program":      {"PROGRAMA", "PROGRAM"},
	"program_hash":   {"Resumo BLAKE2b-256 do programa: %s", "BLAKE2b-256 hash of the program: %s"},
	"approval":       {"Aprovação: %s", "Approval: %s"},
	"not_checked":    {"não verificada por quem emitiu este relatório (compare o resumo com a lista aprovada)", "not checked by the issuer of this report (compare the hash with the approved list)"},
	"none":           {"não registado", "not recorded"},
	"h_paytable":     {"TABELA DE PRÉMIOS", "PAYTABLE"},
	"paytable":       {"%s, versão %s, resumo BLAKE2b-256 %s", "%s, version %s, BLAKE2b-256 digest %s"},
	"rtp_head":       {"RTP teórico certificado, por aposta (sem jackpots):", "Certified theoretical RTP, per bet (jackpots excluded):"},
	"rtp_row":        {"  nível %d (%d créditos por linha): %s = %s", "  level %d (%d credits per line): %s = %s"},
	"rtp_problem":    {"RTP certificado indisponível: %s", "Certified RTP not available: %s"},
	"actual_rtp":     {"RTP real (contadores: total ganho ÷ total apostado): %s", "Actual RTP (meters: total won ÷ total bet): %s"},
	"no_bets":        {"ainda sem apostas", "no bets yet"},
	"h_meters":       {"CONTADORES", "METERS"},
	"meter_cols":     {"SAS\tnome SAS\tcontador\tvalor\teuros", "SAS\tSAS name\tmeter\tvalue\teuros"},
	"equation":       {"Último jogo %d; equação do crédito: %s entrados − %s apostados + %s ganhos − %s saídos − %s promocional restrito expirado = %s de crédito", "Last game %d; credit equation: %s in − %s bets + %s wins − %s out − %s restricted expired = %s credits"},
	"h_jackpot":      {"JACKPOT DA MÁQUINA (valores em depósito)", "LOCAL JACKPOT (held in trust)"},
	"h_handpays":     {"PAGAMENTOS MANUAIS", "HANDPAYS"},
	"handpay_cols":   {"data e hora\ttipo\tvalor\tjogo ou transação\tpago em\tpago por\tvalidação\trecibo (talão do caixa)", "time\tkind\tamount\tgame or transaction\tpaid at\tpaid by\tvalidation\treceipt (cashier's voucher)"},
	"pending":        {"por pagar", "pending"},
	"h_money_in":     {"DINHEIRO RECEBIDO (notas, moedas, talões; as transferências AFT na sua secção)", "MONEY IN (notes, coins, tickets; AFT transfers in their own section)"},
	"money_in_cols":  {"data e hora\torigem\tvalor\treferência", "time\tsource\tamount\treference"},
	"h_tickets":      {"TALÕES EMITIDOS", "TICKETS OUT"},
	"ticket_cols":    {"data e hora\ttalão (número de validação)\tvalor\tvalidação\tn.º\tnota", "time\tticket (validation number)\tamount\tvalidation\tno.\tnote"},
	"reprint":        {"segunda via", "reprint"},
	"void":           {"anulado: %s", "voided: %s"},
	"h_ram_clears":   {"LIMPEZAS DA RAM (com os contadores imediatamente antes)", "RAM CLEARS (with the meters just before)"},
	"ram_clear":      {"%s, por %s: %s", "%s, by %s: %s"},
	"h_games":        {"JOGOS", "GAMES"},
	"game_cols": {"jogo\tdata e hora\tnome do jogo\taposta\tparagens ou cartas [apostas]\tprémio da jogada\tjogos grátis (prémio de cada)\tjackpots\ttotal pago\tpag. manual",
		"game\ttime\tgame name\tbet\tstops or cards [stakes]\tspin win\tfree games (each one's win)\tjackpots\ttotal paid\thandpay"},
	"by_kind":           {"crédito por tipo: %s disponível, %s promocional restrito, %s promocional não restrito", "credits by kind: %s cashable, %s restricted, %s non-restricted"},
	"h_per_game":        {"CONTADORES POR JOGO (SAS 2F com o número do jogo)", "METERS PER GAME (SAS 2F with the game's number)"},
	"per_game_cols":     {"jogo SAS\tjogo\tapostado\tganho\tpago à máquina\tpago à mão\tcomissão\tjackpots ganhos\tjogados\tganhos\tperdidos", "SAS game\tgame\tbet\twon\tpaid to credits\thand paid\tcommission\tjackpots won\tplayed\twon\tlost"},
	"in_progress":       {"(em curso)", "(in progress)"},
	"yes":               {"sim", "yes"},
	"h_events":          {"EVENTOS", "EVENTS"},
	"event_cols":        {"data e hora\tevento\tquem", "time\tevent\twho"},
	"nothing":           {"nada registado", "nothing recorded"},
	"source_bill":       {"nota", "bill"},
	"source_coin":       {"moeda", "coin"},
	"source_ticket":     {"talão", "ticket"},
	"source_electronic": {"transferência", "transfer"},
	"kind_win":          {"prémio", "win"},
	"kind_cancelled":    {"crédito cancelado", "cancelled credit"},
	"kind_progressive":  {"jackpot", "jackpot"},
	"kind_aft_bonus":    {"prémio de bónus do casino", "casino bonus jackpot"},
}

// rt is a report text in the language (Portuguese unless "en").
func rt(lang, key string, args ...any) string {
	t, ok := reportTexts[key]
	if !ok {
		return key
	}
	s := t[0]
	if lang == "en" {
		s = t[1]
	}
	if len(args) == 0 {
		return s
	}
	return fmt.Sprintf(s, args...)
}

// Text is the report as people read it, in the language ("pt", the
// default, or "en").
func (r Report) Text(lang string) []byte {
	var b strings.Builder
	eur := func(c int64) string { return money.Euro(lang, c) }
	at := func(ns int64) string {
		if ns == 0 {
			return ""
		}
		return time.Unix(0, ns).UTC().Format("2006-01-02 15:04:05")
	}
	orNone := func(s string) string {
		if s == "" {
			return rt(lang, "none")
		}
		return s
	}
	table := func(head string, rows [][]string) {
		if len(rows) == 0 {
			fmt.Fprintln(&b, rt(lang, "nothing"))
			return
		}
		tw := tabwriter.NewWriter(&b, 0, 0, 2, ' ', 0)
		fmt.Fprintln(tw, head)
		for _, row := range rows {
			fmt.Fprintln(tw, strings.Join(row, "\t"))
		}
		tw.Flush()
	}
	section := func(key string) { fmt.Fprintf(&b, "\n%s\n", rt(lang, key)) }

	paths := pathWriter{r: r, lang: lang, b: &b, table: table, section: section, at: at}

	fmt.Fprintln(&b, rt(lang, "title", orNone(r.Machine.ID)))
	if r.Machine.Number != "" {
		fmt.Fprintln(&b, rt(lang, "number", r.Machine.Number))
	}
	gen, _ := time.Parse(time.RFC3339, r.Generated)
	fmt.Fprintln(&b, rt(lang, "issued", gen.UTC().Format("2006-01-02 15:04:05")))
	fmt.Fprintln(&b, rt(lang, "key", orNone(r.Machine.KeyID)))

	section("h_verdict")
	fmt.Fprintln(&b, r.Verdict.Line(lang))
	for _, p := range r.Verdict.shownProblems(lang) {
		fmt.Fprintf(&b, "  - %s\n", p)
	}

	section("h_program")
	fmt.Fprintln(&b, rt(lang, "program_hash", orNone(r.Program.Hash)))
	approval := r.Program.Approval
	if approval == "" {
		approval = rt(lang, "not_checked")
	}
	fmt.Fprintln(&b, rt(lang, "approval", approval))

	section("h_paytable")
	p := r.Paytable
	fmt.Fprintln(&b, rt(lang, "paytable", orNone(p.ID), orNone(p.Version), orNone(p.Digest)))
	if p.Problem != "" {
		problem := p.Problem
		if p.problemKey != "" {
			problem = rt(lang, p.problemKey, p.problemArgs...)
		}
		fmt.Fprintln(&b, rt(lang, "rtp_problem", problem))
	} else {
		fmt.Fprintln(&b, rt(lang, "rtp_head"))
		for _, row := range p.RTP {
			fmt.Fprintln(&b, rt(lang, "rtp_row", row.Level, row.CreditsPerLine, row.Fraction, percent(lang, row.Percent)))
		}
	}
	actual := percent(lang, r.ActualRTP)
	if actual == "" {
		actual = rt(lang, "no_bets")
	}
	fmt.Fprintln(&b, rt(lang, "actual_rtp", actual))

	section("h_meters")
	if r.MetersAt != 0 {
		fmt.Fprintln(&b, rt(lang, "meters_read", at(r.MetersAt)))
	}
	var rows [][]string
	val := map[string]int64{}
	for _, m := range r.Meters {
		e := ""
		if m.Unit == "cents" {
			e = eur(m.Value)
		}
		rows = append(rows, []string{m.SAS, m.SASName, meterName(lang, m), money.Count(lang, m.Value), e})
		val[m.Name] = m.Value
	}
	table(rt(lang, "meter_cols"), rows)
	if len(r.Games) > 0 || len(r.Meters) > 0 {
		last := uint64(0)
		if n := len(r.Games); n > 0 {
			last = r.Games[n-1].Game
		}
		in := val["total bills accepted"] + val["coins in"] + val["ticket in"] + val["electronic transfers to machine"]
		out := val["ticket out"] + val["hopper paid"] + val["electronic transfers from machine"] + val["hand-paid cancelled credits"]
		fmt.Fprintln(&b, rt(lang, "equation", last, eur(in), eur(val["total coin in (bets)"]), eur(val["total coin out (wins to credits)"]), eur(out), eur(val[meters.Defs[meters.RestrictedExpired].Name]), eur(val["current credits"])))
	}

	section("h_checks")
	paths.period()
	paths.summary()

	if len(r.PeriodMeters) > 0 {
		section("h_period_meters")
		start := rt(lang, "reading_empty")
		if r.Period.StartAt != 0 {
			start = at(r.Period.StartAt)
		}
		rows = nil
		for _, m := range r.PeriodMeters {
			f := func(n int64) string { return money.Count(lang, n) }
			if m.Unit == "cents" {
				f = eur
			}
			rows = append(rows, []string{m.SAS, names.Meter(lang, m.Name), f(m.Start), f(m.End), f(m.Diff)})
		}
		table(rt(lang, "period_meter_cols", start, at(r.Period.EndAt)), rows)
	}

	section("h_per_game")
	rows = nil
	for i, kind := range meters.GameKinds {
		g, ok := r.PerGame[kind]
		if !ok {
			continue
		}
		rows = append(rows, []string{fmt.Sprint(i + 1), gameName(lang, kind, r.Paytable.ID), eur(g.CoinIn), eur(g.TotalWon), eur(g.CoinOut), eur(g.HandPaid), eur(g.Commission), eur(r.PerGameJackpots[kind]),
			money.Count(lang, g.Played), money.Count(lang, g.Won), money.Count(lang, g.Lost)})
	}
	table(rt(lang, "per_game_cols"), rows)

	section("h_jackpot")
	if len(r.Jackpot) == 0 {
		fmt.Fprintln(&b, rt(lang, "nothing"))
	} else {
		WriteJackpot(&b, r.Jackpot, lang, false)
	}

	section("h_handpays")
	rows = nil
	for _, h := range r.Handpays {
		game, paidAt, by, receipt := "", at(h.PaidAt), h.PaidBy, ""
		if h.Game > 0 {
			game = money.Count(lang, int64(h.Game))
		}
		if h.Ref != "" {
			game = "AFT " + h.Ref
		}
		if by != "" {
			by = whoOf(lang, h.PaidBy, "", "attendant")
		}
		if h.Pending {
			paidAt, by = rt(lang, "pending"), ""
		}
		if h.Receipt {
			receipt = rt(lang, "receipt_no", h.ReceiptNo)
		}
		rows = append(rows, []string{at(h.At), rt(lang, "kind_"+h.Kind), eur(h.Cents), game, paidAt, by, h.Validation, receipt})
	}
	table(rt(lang, "handpay_cols"), rows)
	paths.checks("handpays")

	paths.sections()

	section("h_ram_clears")
	if len(r.RAMClears) == 0 {
		fmt.Fprintln(&b, rt(lang, "nothing"))
	}
	for _, c := range r.RAMClears {
		fmt.Fprintln(&b, rt(lang, "ram_clear", at(c.At), whoOf(lang, c.Who, "", "technician"), c.Why))
		rows = nil
		for _, m := range c.MetersBefore {
			if m.Value == 0 {
				continue
			}
			e := ""
			if m.Unit == "cents" {
				e = eur(m.Value)
			}
			rows = append(rows, []string{m.SAS, m.SASName, meterName(lang, m), money.Count(lang, m.Value), e})
		}
		table(rt(lang, "meter_cols"), rows)
	}

	section("h_games")
	table(rt(lang, "game_cols"), gameRowsText(lang, r.Games))

	section("h_events")
	rows = nil
	for _, e := range r.Events {
		what, who := eventText(lang, e)
		rows = append(rows, []string{at(e.At), what, who})
	}
	table(rt(lang, "event_cols"), rows)
	return []byte(b.String())
}

// Line is the verdict in one line, in the language: what was checked, and
// that signatures are intact only when there are signed checkpoints.
func (v Verdict) Line(lang string) string {
	if !v.OK {
		if v.NoKey && len(v.Problems) == 1 {
			return rt(lang, "no_key")
		}
		return rt(lang, "bad", len(v.Problems))
	}
	sigs := rt(lang, "no_checkpoints")
	if v.Checkpoints > 0 {
		sigs = rt(lang, "checkpoints", v.Checkpoints, v.KeyID)
	}
	if v.Marks > 0 {
		if v.Checkpoints == 0 {
			sigs = ""
		} else {
			sigs += "; "
		}
		sigs += rt(lang, "marks", v.Marks, v.VouchedSeq)
	}
	return rt(lang, "ok", v.Records, short(v.LastHash), sigs)
}

// shownProblems are the verdict's problems in the language: the missing
// key's in its words, the others as the verification found them.
func (v Verdict) shownProblems(lang string) []string {
	if !v.NoKey {
		return v.Problems
	}
	var ps []string
	for _, p := range v.Problems {
		if !strings.HasPrefix(p, "no registered public key") {
			ps = append(ps, p)
		}
	}
	if len(ps) == len(v.Problems) || len(ps) == 0 {
		return ps
	}
	return append([]string{rt(lang, "no_key_problem")}, ps...)
}

// gameRowsText are the games' rows of text: every amount each paid.
func gameRowsText(lang string, games []GameRow) [][]string {
	eur := func(c int64) string { return money.Euro(lang, c) }
	var rows [][]string
	for _, g := range games {
		win, total, hp := rt(lang, "in_progress"), rt(lang, "in_progress"), ""
		if g.Ended {
			win, total = eur(g.BaseWinCents), eur(g.PaidCents)
		}
		if g.Handpay {
			hp = rt(lang, "yes")
		}
		play := fmt.Sprint(g.Stops)
		if g.Hand != nil {
			play = handText(g.Hand, lang)
		}
		if check := g.Check; check != "" {
			if lang != "en" && g.checkPT != "" {
				check = g.checkPT
			}
			hp += " ! " + check
		}
		var free, jps []string
		for _, f := range g.FreeWins {
			free = append(free, eur(f))
		}
		for _, j := range g.Jackpots {
			s := rt(lang, "jk_"+j.Kind) + " " + strconv.Itoa(j.Level) + ": " + eur(j.Cents)
			if j.Attendant {
				s += " (" + rt(lang, "paid_by_attendant") + ")"
			}
			jps = append(jps, s)
		}
		freeText := money.Count(lang, int64(len(g.FreeWins)))
		if len(free) > 0 {
			freeText += " (" + strings.Join(free, "; ") + ")"
		}
		rows = append(rows, []string{fmt.Sprint(g.Game), when(g.At), gameName(lang, g.Kind, g.Paytable), eur(g.BetCents), play, win, freeText,
			strings.Join(jps, "; "), total, hp})
	}
	return rows
}

// percent renders "92.3020%" with the language's decimal mark.
func percent(lang, s string) string {
	if s == "" || lang == "en" || !strings.HasSuffix(s, "%") {
		return s
	}
	// English groups with commas and marks decimals with a point;
	// Portuguese the other way round.
	return strings.Map(func(r rune) rune {
		switch r {
		case ',':
			return '.'
		case '.':
			return ','
		}
		return r
	}, strings.TrimSuffix(s, "%")) + " %"
}

// WriteLiability says what the local jackpot holds in trust (regulation
// rule 5), under the meters, in the language.
func WriteLiability(w io.Writer, rows []JackpotRow, lang string) {
	for _, r := range rows {
		if r.Level == "total" {
			fmt.Fprintln(w, rt(lang, "liability", money.Millicents(lang, r.Liability)))
			return
		}
	}
}

// WriteSection writes one section of the report in the language: the
// handpays, bills (money in), tickets (out), a money path (aft, promo,
// poker, tickets-in, bill-orders, validation, test-mode) or the checks.
func WriteSection(w io.Writer, r Report, section, lang string) {
	full := string(r.Text(lang))
	head := map[string]string{"handpays": "h_handpays", "bills": "h_money_in", "tickets": "h_tickets", "aft": "h_aft", "promo": "h_promo",
		"poker": "h_poker", "tickets-in": "h_tickets_in", "bill-orders": "h_bill_orders", "validation": "h_validation",
		"test-mode": "h_test", "checks": "h_checks"}[section]
	start := strings.Index(full, "\n"+rt(lang, head)+"\n")
	if start < 0 {
		return
	}
	rest := full[start+1:]
	if end := strings.Index(rest, "\n\n"); end >= 0 {
		rest = rest[:end+1]
	}
	io.WriteString(w, rest)
}

// VerifySigned checks a signed file (a report) against its .sig beside
// it with pub.
func VerifySigned(file string, pub ed25519.PublicKey) error {
	doc, err := os.ReadFile(file)
	if err != nil {
		return err
	}
	line, err := os.ReadFile(file + ".sig")
	if err != nil {
		return err
	}
	sig, err := base64.StdEncoding.DecodeString(strings.TrimSpace(string(line)))
	if err != nil || len(sig) != ed25519.SignatureSize {
		return fmt.Errorf("%s.sig: not an Ed25519 signature (one line of base64)", file)
	}
	if !ed25519.Verify(pub, doc, sig) {
		return fmt.Errorf("%s does not match its signature under key %s: changed, or signed by another key", file, meters.KeyID(pub))
	}
	return nil
}
