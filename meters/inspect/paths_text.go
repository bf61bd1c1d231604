package inspect

import (
	"fmt"
	"strings"

	"github.com/openegm/cabinet/internal/money"
	"github.com/openegm/cabinet/internal/names"
	"github.com/openegm/cabinet/meters"
)

// pathTexts are the words of the money paths' sections and their checks:
// key → {pt, en}, merged into reportTexts.
var pathTexts = map[string][2]string{
	"period":         {"Período dos movimentos de dinheiro: %s a %s (UTC)", "Money paths over: %s to %s (UTC)"},
	"period_whole":   {"Período dos movimentos de dinheiro: todo o registo", "Money paths over: the whole ledger"},
	"period_start":   {"o início", "the start"},
	"period_end":     {"o fim", "the end"},
	"h_checks":       {"AS SECÇÕES CONTRA OS CONTADORES", "THE SECTIONS AGAINST THE METERS"},
	"chk_all":        {"Todas as %d verificações conferem: as secções somam o mesmo que os contadores (%s).", "All %d checks hold: the sections add up to the meters (%s)."},
	"chk_some":       {"%d de %d verificações NÃO conferem: as secções não somam o mesmo que os contadores (%s):", "%d of %d checks DO NOT hold: the sections do not add up to the meters (%s):"},
	"chk_none":       {"Sem verificações: o histórico não foi lido do registo.", "No checks: the history was not read from the log."},
	"against_meters": {"todo o registo, contra os contadores atuais", "the whole ledger, against the meters as they are"},
	"against_period": {"o período pedido, contra o que os contadores moveram nele", "the period asked, against what the meters moved in it"},
	"chk_line":       {"verificação: %s %s = %s %s — confere", "check: %s %s = %s %s — holds"},
	"chk_fail":       {"VERIFICAÇÃO FALHA: %s %s ≠ %s %s — NÃO CONFERE (diferença %s)", "CHECK FAILS: %s %s ≠ %s %s — DOES NOT HOLD (difference %s)"},
	"chk_test_ok":    {"verificação: modo de teste: nenhum contador de dinheiro se moveu — confere", "check: test mode: no money meter moved — holds"},
	"chk_test_fail":  {"VERIFICAÇÃO FALHA: modo de teste: %d contador(es) de dinheiro movido(s) — NÃO CONFERE", "CHECK FAILS: test mode: %d money meter(s) moved — DOES NOT HOLD"},

	"chk_bills":                  {"notas recebidas", "notes accepted"},
	"chk_coins":                  {"moedas recebidas", "coins accepted"},
	"chk_bills_stacked":          {"notas empilhadas (por ordem e sem ordem)", "notes stacked (by order and without)"},
	"chk_tickets_in":             {"talões recebidos", "tickets in"},
	"chk_tickets_printed":        {"talões impressos (valor)", "tickets printed (amount)"},
	"chk_tickets_printed_count":  {"talões impressos (quantidade)", "tickets printed (count)"},
	"chk_handpaid_cancelled":     {"pagos à mão: créditos cancelados", "hand paid: cancelled credits"},
	"chk_handpaid_win":           {"pagos à mão: prémios", "hand paid: wins"},
	"chk_handpaid_progressive":   {"pagos à mão: jackpots", "hand paid: jackpots"},
	"chk_handpaid_bonus":         {"pagos à mão: bónus AFT", "hand paid: AFT bonuses"},
	"chk_handpaid_total":         {"pagos à mão: total", "hand paid: total"},
	"chk_aft_in_cashable":        {"AFT para a máquina, disponível", "AFT to the machine, cashable"},
	"chk_aft_debit_in":           {"AFT de débito para a máquina", "AFT debit to the machine"},
	"chk_restricted_tickets_out": {"talões promocionais restritos impressos", "restricted promotional tickets printed"},
	"chk_restricted_tickets_in":  {"talões promocionais restritos recebidos", "restricted promotional tickets redeemed"},
	"chk_aft_in_restricted":      {"AFT para a máquina, promocional restrito", "AFT to the machine, restricted"},
	"chk_aft_in_non_restricted":  {"AFT para a máquina, promocional não restrito", "AFT to the machine, non-restricted"},
	"chk_electronic_in":          {"AFT para a máquina e outras transferências recebidas", "AFT to the machine and other transfers in"},
	"chk_aft_out_cashable":       {"AFT para o sistema, disponível", "AFT to the host, cashable"},
	"chk_aft_out_restricted":     {"AFT para o sistema, promocional restrito", "AFT to the host, restricted"},
	"chk_aft_out_non_restricted": {"AFT para o sistema, promocional não restrito", "AFT to the host, non-restricted"},
	"chk_electronic_out":         {"AFT para o sistema e outras transferências pagas", "AFT to the host and other transfers out"},
	"chk_aft_bonus_to_credits":   {"bónus AFT pagos ao crédito", "AFT bonuses paid to credits"},
	"chk_aft_bonus":              {"bónus AFT (todos)", "AFT bonuses (all)"},
	"chk_restricted_in":          {"promocional restrito recebido", "restricted promotional in"},
	"chk_non_restricted_in":      {"promocional não restrito recebido", "non-restricted promotional in"},
	"chk_restricted_out":         {"promocional restrito transferido para o sistema", "restricted promotional out"},
	"chk_non_restricted_out":     {"promocional não restrito transferido para o sistema", "non-restricted promotional out"},
	"chk_restricted_expired":     {"promocional restrito expirado", "restricted promotional expired"},
	"chk_poker_to_tables":        {"feitas para as mesas (entradas e recompras)", "done to the tables (buy-ins and re-buys)"},
	"chk_poker_from_tables":      {"feitas das mesas (saídas)", "done from the tables (cash-outs)"},

	"h_bill_orders":    {"ORDENS DE EMPILHAR NOTAS (escrow)", "BILL ORDERS (escrow)"},
	"bill_order_cols":  {"data e hora\tordem\tvalor\tresultado\tem\tmotivo", "time\torder\tamount\toutcome\tat\twhy"},
	"outcome_stacked":  {"empilhada", "stacked"},
	"outcome_returned": {"devolvida", "returned"},
	"outcome_pending":  {"pendente", "pending"},

	"h_tickets_in":          {"TALÕES RECEBIDOS", "TICKETS IN"},
	"ticket_in_cols":        {"data e hora\ttalão (número de validação)\tem escrow\testado\tvalor\tautorizado pelo sistema\tmotivo", "time\tticket (validation number)\tin escrow\tstatus\tamount\tauthorised by the host\twhy"},
	"redeemed":              {"%s resgatado", "%s redeemed"},
	"refused":               {"%s recusado", "%s refused"},
	"no":                    {"não", "no"},
	"style_":                {"da máquina", "machine's own"},
	"style_system":          {"pelo sistema", "system"},
	"style_secure-enhanced": {"segura melhorada", "secure-enhanced"},
	"not_printed":           {"por imprimir", "not printed yet"},
	"restricted_ticket":     {"promocional restrito, grupo %d, válido até %s", "restricted promotional, pool %d, valid until %s"},
	"receipt_no":            {"sim, n.º %d", "yes, no. %d"},

	"h_aft":          {"TRANSFERÊNCIAS AFT (sistema do casino)", "AFT TRANSFERS (casino host)"},
	"aft_cols":       {"data e hora\ttransação\ttipo SAS\tsentido\tdisponível\trestrito\tnão restrito\tgrupo\texpira\tpag. manual\trecibo", "time\ttransaction\tSAS type\tdirection\tcashable\trestricted\tnon-restricted\tpool\texpires\thandpay\treceipt"},
	"dir_in":         {"para a máquina", "to the machine"},
	"dir_out":        {"para o sistema", "to the host"},
	"dir_bonus":      {"bónus (prémio)", "bonus (a win)"},
	"dir_other":      {"outro", "other"},
	"partial":        {" (parcial)", " (partial)"},
	"rcpt_due":       {"por imprimir", "due"},
	"rcpt_printed":   {"impresso", "printed"},
	"rcpt_reprinted": {"reimpresso", "reprinted"},

	"h_promo":              {"CRÉDITO PROMOCIONAL (restrito e não restrito)", "PROMOTIONAL CREDITS (restricted and non-restricted)"},
	"promo_cols":           {"data e hora\tmovimento\ttipo\tvalor\tgrupo\texpira\ttransação", "time\tmovement\tkind\tamount\tpool\texpires\ttransaction"},
	"ev_in":                {"entrada", "in"},
	"ev_out":               {"saída para o sistema", "out to the host"},
	"ev_expired":           {"expirado", "expired"},
	"ev_ticket_in":         {"entrada por talão promocional", "in by a promotional ticket"},
	"ev_ticket_out":        {"saída num talão promocional", "out on a promotional ticket"},
	"pk_restricted":        {"restrito", "restricted"},
	"pk_non_restricted":    {"não restrito", "non-restricted"},
	"promo_restricted":     {"Restrito: entrou %s, apostado %s, saiu %s, expirou %s; na máquina no fim %s", "Restricted: in %s, played %s, out %s, expired %s; held at the end %s"},
	"promo_non_restricted": {"Não restrito: entrou %s, apostado %s, saiu %s, pago ao jogador %s; na máquina no fim %s", "Non-restricted: in %s, played %s, out %s, cashed out %s; held at the end %s"},

	"h_poker":        {"TRANSFERÊNCIAS DE MESAS DE PÓQUER", "POKER TABLE TRANSFERS"},
	"poker_cols":     {"data e hora\ttransferência\ttipo\tmesa\tjogador\tpedido\testado\tem\tvalor\tmotivo", "time\ttransfer\tkind\ttable\tplayer\tasked\tstatus\tat\tamount\twhy"},
	"pkind_buy_in":   {"entrada (cave)", "buy-in"},
	"pkind_rebuy":    {"recompra", "re-buy"},
	"pkind_cash_out": {"saída", "cash-out"},
	"pst_done":       {"feita", "done"},
	"pst_refused":    {"recusada", "refused"},
	"pst_open":       {"em aberto", "open"},
	"authorized":     {"autorizada por %s", "authorised by %s"},

	"h_validation":            {"VALIDAÇÃO: CONFIGURAÇÃO DO SISTEMA (0x7B, 0x4C, 0x7C/0x7D)", "VALIDATION: THE HOST'S SETTINGS (0x7B, 0x4C, 0x7C/0x7D)"},
	"validation_cols":         {"data e hora\tregisto\tdefinição", "time\trecord\tsetting"},
	"vrec_validation_control": {"controlo da validação (0x7B)", "validation control (0x7B)"},
	"vrec_validation_id":      {"ID de validação (0x4C)", "validation ID (0x4C)"},
	"vrec_ticket_data":        {"dados dos talões (0x7C/0x7D)", "ticket data (0x7C/0x7D)"},
	"ctl_off":                 {"desligado: %s", "off: %s"},
	"ctl_all_on":              {"tudo ligado", "all on"},
	"ctl_printer_cashout":     {"pagamentos por talão", "cash-outs by ticket"},
	"ctl_printer_handpay":     {"recibo do pagamento manual", "handpay receipts"},
	"ctl_validate_handpays":   {"validação dos pagamentos manuais", "handpay validation"},
	"ctl_ticket_redemption":   {"receção de talões", "ticket redemption"},
	"exp_cashable":            {"validade dos talões %d dias", "ticket expiry %d days"},
	"exp_restricted":          {"validade do promocional restrito %d dias", "restricted expiry %d days"},
	"validation_id":           {"ID %d, sequência %d", "ID %d, sequence %d"},
	"location":                {"local %q", "location %q"},

	"h_test":     {"MODO DE TESTE (sessões; nenhum contador de dinheiro se pode mover)", "TEST MODE (sessions; no money meter may move)"},
	"test_cols":  {"entrada\tquem\tcréditos de teste\tsaída\tmotivo\tjogos\tapostado\tganho\tcontadores de dinheiro movidos", "entered\twho\ttest credits\tleft\twhy\tgames\tbet\twon\tmoney meters moved"},
	"test_on":    {"(ainda em teste)", "(still on)"},
	"none_moved": {"nenhum", "none"},
}

func init() {
	for k, v := range pathTexts {
		if _, dup := reportTexts[k]; dup {
			panic("report text " + k + " defined twice")
		}
		reportTexts[k] = v
	}
}

// pathWriter writes the money paths' sections of a report.
type pathWriter struct {
	r       Report
	lang    string
	b       *strings.Builder
	table   func(head string, rows [][]string)
	section func(key string)
	at      func(ns int64) string
}

func (w pathWriter) eur(c int64) string { return money.Euro(w.lang, c) }

func (w pathWriter) t(key string, args ...any) string { return rt(w.lang, key, args...) }

func (w pathWriter) line(s string) { fmt.Fprintln(w.b, s) }

// period says what the money paths cover.
func (w pathWriter) period() {
	p := w.r.Period
	if p.Whole {
		w.line(w.t("period_whole"))
		return
	}
	from, to := p.From, p.To
	if from == "" {
		from = w.t("period_start")
	}
	if to == "" {
		to = w.t("period_end")
	}
	w.line(w.t("period", from, to))
}

// summary says whether the sections add up to the meters, naming every
// check that does not.
func (w pathWriter) summary() {
	c := w.r.Checks
	if c.Against == "" {
		w.line(w.t("chk_none"))
		return
	}
	against := w.t("against_" + c.Against)
	var failed []Check
	for _, k := range c.Rows {
		if !k.Holds {
			failed = append(failed, k)
		}
	}
	if len(failed) == 0 {
		w.line(w.t("chk_all", len(c.Rows), against))
		return
	}
	w.line(w.t("chk_some", len(failed), len(c.Rows), against))
	for _, k := range failed {
		w.line("  - " + w.checkLine(k))
	}
}

// checks writes the lines of one section's checks.
func (w pathWriter) checks(section string) {
	for _, k := range w.r.Checks.Rows {
		if k.Section == section {
			w.line(w.checkLine(k))
		}
	}
}

func (w pathWriter) checkLine(k Check) string {
	if k.Name == "test_money_meters" {
		if k.Holds {
			return w.t("chk_test_ok")
		}
		return w.t("chk_test_fail", k.Sum)
	}
	amount := w.eur
	if k.Unit == "count" {
		amount = func(n int64) string { return money.Count(w.lang, n) }
	}
	parts := strings.Split(k.Meter, " + ")
	for i, p := range parts {
		parts[i] = names.Meter(w.lang, p)
		if f := strings.Fields(p); w.lang != "en" && parts[i] == p && len(f) > 2 && f[0] == "SAS" {
			// A SAS meter the report's words do not name: its code (the
			// meters' table has its SAS name).
			parts[i] = f[0] + " " + f[1]
		}
	}
	meter := strings.Join(parts, " + ")
	if k.Holds {
		return w.t("chk_line", w.t("chk_"+k.Name), amount(k.Sum), meter, amount(k.Value))
	}
	return w.t("chk_fail", w.t("chk_"+k.Name), amount(k.Sum), meter, amount(k.Value), amount(k.Sum-k.Value))
}

// sections writes the sections after the handpays: the money in, the bill
// orders, tickets in and out, AFT, promotional credits, poker, the host's
// validation settings and test mode, each followed by its checks.
func (w pathWriter) sections() {
	r := w.r
	w.section("h_money_in")
	var rows [][]string
	for _, m := range r.MoneyIn {
		rows = append(rows, []string{w.at(m.At), w.t("source_" + m.Source), w.eur(m.Cents), m.Ref})
	}
	w.table(w.t("money_in_cols"), rows)
	w.checks("money_in")

	w.section("h_bill_orders")
	rows = nil
	for _, o := range r.BillOrders {
		rows = append(rows, []string{w.at(o.At), fmt.Sprint(o.Order), w.eur(o.Cents), w.t("outcome_" + o.Outcome), w.at(o.EndedAt), o.Why})
	}
	w.table(w.t("bill_order_cols"), rows)
	w.checks("bill_orders")

	w.section("h_tickets_in")
	rows = nil
	for _, t := range r.TicketsIn {
		status, host := w.t("redeemed", t.Status), w.t("no")
		if t.Status != "00" && t.Kind == "" {
			status, host = w.t("refused", t.Status), ""
		}
		if t.Host {
			host = w.t("yes")
		}
		why := t.Why
		if t.Kind == meters.KindRestricted {
			why = w.t("restricted_ticket", t.Pool, t.Expiration)
		}
		rows = append(rows, []string{w.at(t.At), t.Ticket, w.at(t.EscrowAt), status, w.eur(t.Cents), host, why})
	}
	w.table(w.t("ticket_in_cols"), rows)
	w.checks("tickets_in")

	w.section("h_tickets")
	rows = nil
	for _, t := range r.Tickets {
		note := ""
		switch {
		case t.Void != "":
			note = w.t("void", t.Void)
		case t.Reprint:
			note = w.t("reprint")
		case t.Pending:
			note = w.t("not_printed")
		}
		if t.Kind == meters.KindRestricted {
			note = strings.TrimPrefix(note+"; "+w.t("restricted_ticket", t.Pool, t.Expiration), "; ")
		}
		no := ""
		if t.TicketNo != 0 {
			no = fmt.Sprint(t.TicketNo)
		}
		rows = append(rows, []string{w.at(t.At), t.Ticket, w.eur(t.Cents), w.t("style_" + t.Style), no, note})
	}
	w.table(w.t("ticket_cols"), rows)
	w.checks("tickets_out")

	w.section("h_aft")
	rows = nil
	for _, a := range r.AFT {
		dir := w.t("dir_" + a.Direction)
		if a.Partial {
			dir += w.t("partial")
		}
		hp, rc, pool := "", "", ""
		if a.Handpay {
			hp = w.t("yes")
		}
		if a.Receipt != "" {
			rc = w.t("rcpt_" + a.Receipt)
		}
		if a.Pool != 0 {
			pool = fmt.Sprint(a.Pool)
		}
		rows = append(rows, []string{w.at(a.At), a.ID, a.Code + " " + w.aftType(a.Type), dir, w.eur(a.Cashable), w.eur(a.Restricted), w.eur(a.NonRestricted),
			pool, a.Expiration, hp, rc})
	}
	w.table(w.t("aft_cols"), rows)
	w.checks("aft")

	w.section("h_promo")
	rows = nil
	for _, p := range r.Promo.Rows {
		pool := ""
		if p.Pool != 0 {
			pool = fmt.Sprint(p.Pool)
		}
		rows = append(rows, []string{w.at(p.At), w.t("ev_" + p.Event), w.t("pk_" + p.Kind), w.eur(p.Cents), pool, p.Expiration, p.Ref})
	}
	w.table(w.t("promo_cols"), rows)
	pt := r.Promo.Totals
	w.line(w.t("promo_restricted", w.eur(pt.RestrictedIn), w.eur(pt.RestrictedPlayed), w.eur(pt.RestrictedOut), w.eur(pt.RestrictedExpired), w.eur(pt.RestrictedHeld)))
	w.line(w.t("promo_non_restricted", w.eur(pt.NonRestrictedIn), w.eur(pt.NonRestrictedPlayed), w.eur(pt.NonRestrictedOut), w.eur(pt.NonRestrictedCashedOut), w.eur(pt.NonRestrictedHeld)))
	w.checks("promo")

	w.section("h_poker")
	rows = nil
	for _, p := range r.Poker {
		asked, paid, why := "", "", p.Why
		if p.Cents != 0 {
			asked = w.eur(p.Cents)
		}
		if p.Status == "done" {
			paid = w.eur(p.Paid)
		}
		if p.AuthorizedBy != "" {
			why = strings.TrimSpace(w.t("authorized", p.AuthorizedBy) + " " + why)
		}
		rows = append(rows, []string{w.at(p.At), p.ID, w.t("pkind_" + p.Kind), p.Table, p.Player, asked, w.t("pst_" + p.Status), w.at(p.AnsweredAt), paid, why})
	}
	w.table(w.t("poker_cols"), rows)
	w.checks("poker")

	w.section("h_validation")
	rows = nil
	for _, v := range r.ValidationSettings {
		rows = append(rows, []string{w.at(v.At), w.t("vrec_" + v.Record), w.setting(v)})
	}
	w.table(w.t("validation_cols"), rows)

	w.section("h_test")
	rows = nil
	for _, s := range r.TestModes {
		left := w.t("test_on")
		if s.LeftAt != 0 {
			left = w.at(s.LeftAt)
		}
		moved := w.t("none_moved")
		if len(s.MoneyMoved) > 0 {
			ms := make([]string, len(s.MoneyMoved))
			for i, m := range s.MoneyMoved {
				ms[i] = names.Meter(w.lang, m)
			}
			moved = strings.Join(ms, ", ")
		}
		rows = append(rows, []string{w.at(s.EnteredAt), s.Who, w.eur(s.Credits), left, s.Why, money.Count(w.lang, s.Games), w.eur(s.Bet), w.eur(s.Won), moved})
	}
	w.table(w.t("test_cols"), rows)
	w.checks("test_mode")
}

// aftTypes are the SAS transfer types in words: its English name → {pt, en}.
var aftTypes = map[string][2]string{
	"in-house to machine": {"do sistema para a máquina", "in-house to machine"},
	"bonus coin-out win":  {"bónus pago ao crédito", "bonus coin-out win"},
	"bonus jackpot win":   {"bónus jackpot", "bonus jackpot win"},
	"in-house to ticket":  {"do sistema para talão", "in-house to ticket"},
	"debit to machine":    {"débito para a máquina", "debit to machine"},
	"debit to ticket":     {"débito para talão", "debit to ticket"},
	"in-house to host":    {"da máquina para o sistema", "in-house to host"},
	"win to host":         {"prémio para o sistema", "win to host"},
}

func (w pathWriter) aftType(t string) string {
	if n, ok := aftTypes[t]; ok {
		if w.lang == "en" {
			return n[1]
		}
		return n[0]
	}
	return t
}

// setting is a validation setting in words.
func (w pathWriter) setting(v ValidationSettingRow) string {
	var parts []string
	switch v.Record {
	case "validation_control":
		if len(v.Off) == 0 {
			parts = append(parts, w.t("ctl_all_on"))
		} else {
			off := make([]string, len(v.Off))
			for i, o := range v.Off {
				off[i] = w.t("ctl_" + o)
			}
			parts = append(parts, w.t("ctl_off", strings.Join(off, ", ")))
		}
		if v.RestrictedExpiry != 0 {
			parts = append(parts, w.t("exp_restricted", v.RestrictedExpiry))
		}
	case "validation_id":
		parts = append(parts, w.t("validation_id", v.ValidationID, v.Sequence))
	case "ticket_data":
		if v.Location != "" {
			parts = append(parts, w.t("location", v.Location))
		}
	}
	if v.CashableExpiry != 0 {
		parts = append(parts, w.t("exp_cashable", v.CashableExpiry))
	}
	return strings.Join(parts, "; ")
}
