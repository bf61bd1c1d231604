package inspect

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/openegm/cabinet/assets"
	"github.com/openegm/cabinet/internal/money"
	"github.com/openegm/cabinet/meters"
)

// eventTexts are the words of the report's event log, games and jackpot:
// key → {pt, en}. Every event code has its phrase ("e_" + code), every
// role its name ("who_" + role).
var eventTexts = map[string][2]string{
	"e_" + meters.EventPowerUp:          {"máquina ligada", "power up"},
	"e_" + meters.EventPowerDown:        {"máquina desligada", "power down"},
	"e_" + meters.EventDoorOpen:         {"porta %s aberta", "%s door opened"},
	"e_" + meters.EventDoorClose:        {"porta %s fechada", "%s door closed"},
	"e_" + meters.EventTilt:             {"avaria (tilt): %s", "tilt: %s"},
	"e_" + meters.EventTiltClear:        {"avaria (tilt) resolvida: %s", "tilt cleared: %s"},
	"e_" + meters.EventLogRepaired:      {"registo reparado (escrita incompleta descartada)", "log repaired (a half-written record discarded)"},
	"e_" + meters.EventService:          {"ação de serviço", "service action"},
	"e_" + meters.EventRAMClear:         {"limpeza da RAM: %s", "RAM clear: %s"},
	"e_" + meters.EventLinkDown:         {"ligação ao controlador de jackpot perdida", "jackpot link controller lost"},
	"e_" + meters.EventLinkUp:           {"ligação ao controlador de jackpot reposta", "jackpot link controller back"},
	"e_" + meters.EventTicketReprint:    {"talão %s de %s impresso de novo (segunda via)", "ticket %s of %s printed again (reprint)"},
	"e_" + meters.EventLinkAwardRefused: {"prémio do controlador de jackpot recusado (acima do mostrado)", "link controller's award refused (above what was shown)"},
	"e_" + meters.EventTicketOut:        {"talão %s de %s impresso", "ticket %s of %s printed"},
	"e_" + evSetting:                    {"definição alterada: %s = %s", "setting changed: %s = %s"},
	"e_" + evService:                    {"ação de serviço: %s", "service action: %s"},
	"e_" + evJackpotLevel:               {"nível %d do jackpot aberto (%s), valor inicial %s", "jackpot level %d opened (%s), reset value %s"},
	"e_" + evBillReturned:               {"nota de %s devolvida ao jogador", "note of %s returned to the player"},
	"e_" + evTicketVoid:                 {"talão %s de %s anulado (valor de volta ao crédito)", "ticket %s of %s voided (amount back on the credit)"},
	"e_" + evTicketRefused:              {"talão %s recusado pelo sistema (estado %s)", "ticket %s refused by the host (status %s)"},
	"e_" + evHandpay:                    {"pagamento manual pedido: %s de %s", "handpay locked up: %s of %s"},
	"e_" + evHandpayPaid:                {"pagamento manual de %s pago", "handpay of %s paid"},
	"e_" + evJackpotHit:                 {"jackpot ligado %d ganho no jogo %d, %s mostrados (enviado ao controlador)", "linked jackpot %d won in game %d, %s shown (sent to the link controller)"},
	"e_" + evJackpotAward:               {"%s %d ganho no jogo %d: %s, %s", "%s %d won in game %d: %s, %s"},
	"e_" + evAFT:                        {"transferência AFT %s %s: %s", "AFT transfer %s %s: %s"},
	"e_" + evTestOn:                     {"modo de teste iniciado, %s de créditos de teste", "test mode entered, %s of test credits"},
	"e_" + evTestOff:                    {"modo de teste terminado", "test mode left"},
	"e_" + evPromoExpired:               {"crédito promocional restrito de %s expirado (grupo %s)", "restricted promotional credits of %s expired (pool %s)"},
	"mi_bill":                           {"nota de %[1]s aceite", "note of %[1]s accepted"},
	"mi_coin":                           {"moeda de %[1]s aceite", "coin of %[1]s accepted"},
	"mi_ticket":                         {"talão %[2]s de %[1]s resgatado", "ticket %[2]s of %[1]s redeemed"},
	"mi_electronic":                     {"transferência %[2]s de %[1]s para a máquina", "transfer %[2]s of %[1]s to the machine"},
	"co_ticket":                         {"pagamento de %s por talão %s", "cash-out of %s by ticket %s"},
	"co_hopper":                         {"pagamento de %[1]s pelo hopper", "cash-out of %[1]s by the hopper"},
	"co_electronic":                     {"transferência de %[1]s para o sistema", "transfer of %[1]s to the host"},
	"paid_to_credits":                   {"pago ao crédito", "paid to the credits"},
	"paid_by_attendant":                 {"pago à mão", "paid by an attendant"},
	"jk_" + JackpotMystery:              {"jackpot mistério", "mystery jackpot"},
	"jk_" + JackpotLinked:               {"jackpot ligado", "linked jackpot"},
	"jk_" + JackpotLocal:                {"jackpot progressivo", "progressive jackpot"},
	"for_game":                          {"jogo %d", "game %d"},
	"door_" + meters.DoorMain:           {"principal", "main"},
	"door_" + meters.DoorLogic:          {"da lógica", "logic"},
	"door_" + meters.DoorCashbox:        {"do cofre", "cashbox"},
	"door_" + meters.DoorBelly:          {"inferior", "belly"},
	"door_" + meters.DoorDrop:           {"do drop", "drop"},

	"who_technician": {"técnico", "technician"},
	"who_operator":   {"operador", "operator"},
	"who_inspector":  {"inspetor", "inspector"},
	"who_attendant":  {"empregado", "attendant"},
	"who_host":       {"sistema do casino (SAS)", "casino host (SAS)"},
	"who_self_test":  {"autoteste da máquina", "machine self-test"},
	"who_start_up":   {"configuração de arranque", "start-up configuration"},
	"who_machine":    {"a máquina", "the machine"},

	"act_login":             {"entrada no menu de serviço", "service menu login"},
	"act_logout":            {"saída do menu de serviço", "service menu logout"},
	"act_pin_failed":        {"PIN errado", "wrong PIN"},
	"act_view":              {"página consultada", "page looked at"},
	"act_page":              {"página consultada", "page looked at"},
	"act_set_pin":           {"PIN alterado", "PIN changed"},
	"act_config":            {"definição alterada", "setting changed"},
	"act_ram_clear":         {"limpeza da RAM pedida", "RAM clear asked"},
	"act_ram_clear_confirm": {"limpeza da RAM confirmada", "RAM clear confirmed"},
	"act_io_output":         {"teste de saída (lâmpada)", "output (lamp) test"},
	"act_verify_ledger":     {"verificação do registo", "ledger verified"},
	"act_export_report":     {"relatório exportado", "report exported"},
	"act_clear_tilt":        {"avaria resolvida à mão", "tilt cleared by hand"},
	"act_test_enter":        {"entrada no modo de teste", "test mode entered"},
	"act_test_leave":        {"saída do modo de teste", "test mode left"},
	"act_jackpot_level":     {"nível de jackpot aberto", "jackpot level opened"},

	"set_handpay_limit":    {"limite de pagamento manual", "handpay limit"},
	"set_denom":            {"denominação (valor do crédito)", "denomination (credit value)"},
	"set_max_level":        {"nível máximo de aposta", "maximum bet level"},
	"set_language":         {"língua", "language"},
	"set_paytable":         {"tabela de prémios", "paytable"},
	"set_paytable_version": {"versão da tabela de prémios", "paytable version"},
	"set_program":          {"programa (resumo)", "program (hash)"},
	"set_machine_id":       {"identificação da máquina", "machine ID"},
	"set_machine_num":      {"número da máquina", "machine number"},
	"set_link_award":       {"modo de prémio do jackpot ligado", "linked jackpot award mode"},
	"lang_pt":              {"português", "Portuguese"},
	"lang_en":              {"inglês", "English"},

	"trigger_paytable": {"tabela de prémios", "paytable"},
	"trigger_mystery":  {"mistério", "mystery"},
	"level_total":      {"total", "total"},
	"identity_holds":   {"certa", "holds"},
	"identity_broken":  {"QUEBRADA", "BROKEN"},
	"jackpot_cols": {"nível\tativação\tvalor atual\treserva\texcedente\tem depósito\tfinanciamento inicial\tcontribuições\tatribuído\tprémios\tidentidade\t",
		"level\ttrigger\tcurrent\treserve\toverflow\tliability\tseed funding\tcontributions\tawarded\thits\tidentity\t"},
	"jackpot_identity": {"identidade: financiamento inicial + contribuições (+ transferências recebidas) = atribuído + valor atual + reserva + excedente (+ transferências enviadas)",
		"identity: seed funding + contributions (+ transfers in) = awarded + current + reserve + overflow (+ transfers out)"},
	"jackpot_exact": {" (valores exatos ao milésimo de cêntimo: meterread jackpot)", " (exact to the millicent: meterread jackpot)"},
	"no_jackpot":    {"sem jackpot da máquina", "no local jackpot"},
	"liability":     {"jackpot da máquina em depósito: %s (valor atual + reserva + excedente, todos os níveis)", "local jackpot liability held in trust: %s (current + reserve + overflow, all levels)"},
	"bill_meter":    {"notas de %s aceites", "bills of %s accepted"},

	"pt_none":        {"nenhuma tabela de prémios registada", "no paytable recorded"},
	"pt_not_carried": {"a tabela %[1]s não é uma das que este programa traz", "paytable %s is not one this program carries (%s)"},
	"pt_digest":      {"os jogos foram jogados na tabela de resumo %s; este programa traz %s", "the games were played on digest %s; this program carries %s"},
	"pt_version":     {"versão %s registada; este programa traz a versão %d", "version %s recorded; this program carries version %d"},
	"no_key_problem": {"sem a chave pública registada (--pub) as assinaturas não são verificadas", "without the registered public key (--pub) the signatures are not checked"},
	"no_key":         {"NÃO VERIFICADO: sem a chave pública registada (--pub) as assinaturas não são verificadas", "NOT VERIFIED: without the registered public key (--pub) the signatures are not checked"},

	"h_period_meters":   {"CONTADORES DO PERÍODO (leitura no início e no fim, e a diferença)", "PERIOD METERS (read at the start and the end, and the difference)"},
	"period_meter_cols": {"SAS\tcontador\tinício (%s)\tfim (%s)\tdiferença", "SAS\tmeter\tstart (%s)\tend (%s)\tdifference"},
	"reading_empty":     {"registo vazio", "empty ledger"},
	"meters_read":       {"Leitura dos contadores: %s (UTC, o último registo)", "Meters read at %s (UTC, the last record)"},
}

func init() {
	for k, v := range eventTexts {
		if _, dup := reportTexts[k]; dup {
			panic("report text " + k + " defined twice")
		}
		reportTexts[k] = v
	}
}

// whoText is who did something, as a role, with the key holder's name.
func whoText(lang, role, holder string) string {
	if role == "" {
		return ""
	}
	s := rt(lang, "who_"+role)
	if holder != "" {
		s += " (" + holder + ")"
	}
	return s
}

// whoOf is who in words: the role of a recorded who (def when it names
// none).
func whoOf(lang, who, role, def string) string {
	r, holder := roleOf(who, role, def)
	return whoText(lang, r, holder)
}

// settingText is a setting and its value in words, with its unit.
func settingText(lang, key, value string) (string, string) {
	name := key
	if _, ok := reportTexts["set_"+key]; ok {
		name = rt(lang, "set_"+key)
	}
	switch key {
	case "handpay_limit", "denom":
		if c, err := strconv.ParseInt(value, 10, 64); err == nil {
			value = money.Euro(lang, c)
		}
	case "language":
		if _, ok := reportTexts["lang_"+value]; ok {
			value = rt(lang, "lang_"+value)
		}
	case "paytable":
		if pt, err := assets.LoadPaytable(value); err == nil {
			value = title(lang, pt.Title.PT, pt.Title.EN) + " (" + value + ")"
		}
	}
	return name, value
}

func title(lang, pt, en string) string {
	if lang == "en" {
		return en
	}
	return pt
}

// gameName is a game's display name: the reel game's paytable title
// ("Lusitânia 92"), Makccarat.
func gameName(lang, kind, paytable string) string {
	if kind == meters.GameMakccarat {
		return "Makccarat"
	}
	if pt, err := assets.LoadPaytable(paytable); err == nil {
		return title(lang, pt.Title.PT, pt.Title.EN)
	}
	return title(lang, "Lusitânia", "Lusitania")
}

// eventText is an entry of the event log in words: what happened and
// who did it.
func eventText(lang string, e EventRow) (what, who string) {
	eur := func(c int64) string { return money.Euro(lang, c) }
	t := func(k string, a ...any) string { return rt(lang, k, a...) }
	who = whoText(lang, e.Who, e.Holder)
	switch e.Code {
	case meters.EventDoorOpen, meters.EventDoorClose:
		what = t("e_"+e.Code, t("door_"+e.Door))
	case meters.EventTilt, meters.EventTiltClear:
		what = t("e_"+e.Code, tiltName(lang, e.Tilt))
	case meters.EventRAMClear:
		what = t("e_"+e.Code, e.Value)
	case meters.EventTicketOut, meters.EventTicketReprint:
		what = t("e_"+e.Code, e.Ref, eur(e.Cents))
	case evSetting:
		k, v := settingText(lang, e.Key, e.Value)
		what = t("e_"+e.Code, k, v)
	case evService:
		act := e.Action
		if _, ok := reportTexts["act_"+act]; ok {
			act = t("act_" + act)
		}
		if e.Value != "" {
			act += " (" + serviceDetail(lang, e.Action, e.Value) + ")"
		}
		what = t("e_"+e.Code, act)
	case evJackpotLevel:
		what = t("e_"+e.Code, e.Level, t("jk_"+e.Kind), eur(e.Cents))
	case evMoneyIn:
		what = t("mi_"+e.Kind, eur(e.Cents), e.Ref)
	case evCashOut:
		what = t("co_"+e.Kind, eur(e.Cents), e.Ref)
	case evBillReturned:
		what = t("e_"+e.Code, eur(e.Cents))
	case evTicketVoid:
		what = t("e_"+e.Code, e.Ref, eur(e.Cents))
	case evTicketRefused:
		what = t("e_"+e.Code, e.Ref, e.Value)
	case evHandpay:
		what = t("e_"+e.Code, t("kind_"+e.Kind), eur(e.Cents))
		switch {
		case e.Game != 0:
			what += ", " + t("for_game", e.Game)
		case e.Ref != "":
			what += ", AFT " + e.Ref
		}
	case evHandpayPaid:
		what = t("e_"+e.Code, eur(e.Cents))
		if e.Ref != "" {
			what += ", " + t("validation_no", e.Ref)
		}
	case evJackpotHit:
		what = t("e_"+e.Code, e.Level, e.Game, eur(e.Cents))
	case evJackpotAward:
		paid := t("paid_to_credits")
		if e.Value == "attendant" {
			paid = t("paid_by_attendant")
		}
		what = t("e_"+e.Code, t("jk_"+e.Kind), e.Level, e.Game, eur(e.Cents), paid)
	case evAFT:
		what = t("e_"+e.Code, e.Ref, t("dir_"+e.Kind), eur(e.Cents))
	case evTestOn:
		what = t("e_"+e.Code, eur(e.Cents))
	case evPromoExpired:
		what = t("e_"+e.Code, eur(e.Cents), e.Value)
	default:
		if _, ok := reportTexts["e_"+e.Code]; ok {
			what = t("e_" + e.Code)
		} else {
			what = e.Code
		}
	}
	if d := detailText(lang, e); d != "" {
		what += " — " + d
	}
	return what, who
}

// detailText is an event's recorded detail in the language: the machine's
// known phrases in words, with their amounts in euros; a reason that came
// with the record (a device's, the host's) or a phrase the report does not
// know is quoted as recorded, as the machine's text.
func detailText(lang string, e EventRow) string {
	d := e.Detail
	if d == "" {
		return ""
	}
	var level, game int
	var got, shown int64
	var since string
	switch e.Code {
	case meters.EventLinkDown:
		if n, _ := fmt.Sscanf(d, "no value for level %d since %s", &level, &since); n == 2 {
			return rt(lang, "d_link_down", level, since)
		}
	case meters.EventLinkAwardRefused:
		if n, _ := fmt.Sscanf(d, "level %d game %d: the controller confirmed %d cents, more than the %d cents", &level, &game, &got, &shown); n == 4 {
			return rt(lang, "d_award_refused", level, game, money.Euro(lang, got), money.Euro(lang, shown))
		}
	case evBillReturned, evTicketVoid, evTicketRefused, evTestOff, meters.EventRAMClear:
		return d // a reason given with the record, shown as given
	}
	return rt(lang, "d_machine", d)
}

// tiltName is a tilt's name in words (the machine's own name when it has
// none in the report's words).
func tiltName(lang, tilt string) string {
	if _, ok := reportTexts["tilt_"+tilt]; ok {
		return rt(lang, "tilt_"+tilt)
	}
	return strings.ReplaceAll(tilt, "_", " ")
}

// serviceDetail is a service action's detail: a page's or a tilt's name,
// why the menu was left.
func serviceDetail(lang, action, detail string) string {
	switch {
	case action == "clear_tilt":
		return tiltName(lang, detail)
	case detail == "key off":
		return rt(lang, "svc_key_off")
	case detail == "test mode":
		return rt(lang, "svc_test_mode")
	}
	if _, ok := reportTexts["page_"+detail]; ok {
		return rt(lang, "page_"+detail)
	}
	return detail
}

func init() {
	for k, v := range map[string][2]string{
		"svc_key_off":         {"chave retirada", "key off"},
		"d_link_down":         {"sem valor do nível %d desde as %s", "no value for level %d since %s"},
		"d_award_refused":     {"nível %d, jogo %d: o controlador confirmou %s, mais do que os %s que a máquina mostrou; não pago, o prémio fica pendente", "level %d, game %d: the controller confirmed %s, more than the %s the machine showed; not paid, the hit stays pending"},
		"d_machine":           {"texto da máquina: «%s»", "the machine's text: “%s”"},
		"tilt_program":        {"programa não aprovado", "program not approved"},
		"tilt_paytable":       {"tabela de prémios", "paytable"},
		"tilt_rng":            {"gerador de números aleatórios", "random number generator"},
		"tilt_bill_jam":       {"nota encravada", "bill jam"},
		"tilt_printer":        {"impressora", "printer"},
		"tilt_bill_validator": {"leitor de notas", "bill validator"},
		"tilt_meter":          {"contadores", "meters"},
		"tilt_ledger_forged":  {"cópia do registo não garantida pelo registo", "snapshot the log does not vouch for"},
		"tilt_rollback":       {"dados mais antigos do que o testemunhado (reposição)", "data older than witnessed (rollback)"},
		"tilt_witness":        {"testemunho da placa vazio ou atrasado", "board's witness empty or behind"},
		"svc_test_mode":       {"modo de teste", "test mode"},
		"page_meters":         {"contadores", "meters"},
		"page_recall":         {"jogos anteriores", "game recall"},
		"page_events":         {"eventos", "events"},
		"page_bills":          {"notas", "bills"},
		"page_handpays":       {"pagamentos manuais", "handpays"},
		"page_settings":       {"definições", "settings"},
		"page_io":             {"entradas e saídas", "inputs and outputs"},
		"validation_no":       {"validação %s", "validation %s"},
	} {
		reportTexts[k] = v
	}
}
