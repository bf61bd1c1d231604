package model

import "fmt"

// testModeTexts are the catalogue's texts of test mode (the banner, the
// service menu's buttons, the machine's messages and the event history's
// lines), joined into texts by withTestModeTexts.
var testModeTexts = map[string][2]string{
	"test_banner":     {"TESTE", "TEST"},
	"test_credits":    {"Créditos de teste: %s", "Test credits: %s"},
	"test_lab_choice": {"Resultado escolhido: %[1]s", "Chosen outcome: %[1]s"},
	"svc_test_enter":  {"MODO DE TESTE", "TEST MODE"},
	"svc_test_leave":  {"SAIR DO TESTE", "LEAVE TEST"},

	"msg_test_entered":      {"Modo de teste: %s de créditos de teste", "Test mode: %s of test credits"},
	"msg_test_left":         {"Modo de teste terminado", "Test mode left"},
	"refused_test_mode":     {"Máquina em modo de teste", "Machine in test mode"},
	"refused_not_test_mode": {"A máquina não está em modo de teste", "The machine is not in test mode"},
	"refused_not_lab":       {"Só uma versão de laboratório escolhe o resultado", "Only a lab build chooses the outcome"},
	"refused_bad_outcome":   {"Resultado impossível para este jogo", "Not a possible outcome of this game"},
	"refused_bill_pending":  {"Nota em processamento: aguarde", "A note is being processed: please wait"},

	"ev_svc_test_mode_enter": {"Entrada em modo de teste", "Test mode entered"},
	"ev_svc_test_mode_leave": {"Saída do modo de teste", "Test mode left"},
}

// withTestModeTexts adds test mode's texts to the catalogue; a key in both
// would be one text hiding another, so it stops the program at start.
func withTestModeTexts(core map[string][2]string) map[string][2]string {
	return joinTexts(core, testModeTexts, "i18n_testmode.go")
}

// joinTexts adds a file's texts to the catalogue's core.
func joinTexts(core, texts map[string][2]string, file string) map[string][2]string {
	for k, v := range texts {
		if _, dup := core[k]; dup {
			panic(fmt.Sprintf("catalogue key %q is defined twice (i18n.go and %s)", k, file))
		}
		core[k] = v
	}
	return core
}
