package model

import (
	"fmt"
	"sort"
	"strings"

	"github.com/openegm/cabinet/internal/names"
	"golang.org/x/text/language"
	"golang.org/x/text/message"
	"golang.org/x/text/message/catalog"
)

// Every text on the screens comes from this catalogue, in Portuguese (pt-PT,
// the default, regulation rule 11) and English. Amount arguments are cents,
// formatted with Euro before they reach the catalogue, so each %s in a text
// is an amount in the order the machine gives them in Message.Args.

// Langs are the languages of the screens, the default first.
var Langs = []string{"pt", "en"}

var (
	tagPT = language.MustParse("pt-PT")
	tagEN = language.English
)

// texts holds the catalogue's source: key → {pt, en}.
var texts = withCheminTexts(withPokerTexts(withPromoTexts(withTableTexts(withTestModeTexts(map[string][2]string{
	// Messages of the machine (machine.Message keys).
	"msg_bill_accepted":     {"Nota de %s aceite", "%s note accepted"},
	"msg_bill_rejected":     {"Nota de %s recusada", "%s note rejected"},
	"msg_handpay":           {"Pagamento manual de %s: chame um empregado", "Handpay of %s: please call an attendant"},
	"msg_handpay_reset":     {"Pagamento manual de %s concluído", "Handpay of %s completed"},
	"msg_handpay_voucher":   {"Recibo de %s impresso: é pago na caixa", "Receipt for %s printed: the cashier pays it"},
	"msg_jackpot_handpay":   {"JACKPOT de %s! Pagamento manual: chame um empregado", "JACKPOT of %s! Handpay: please call an attendant"},
	"msg_jackpot_wait":      {"JACKPOT de %s! A aguardar a confirmação do sistema de jackpots", "JACKPOT of %s! Waiting for the jackpot system to confirm"},
	"msg_jackpot_won":       {"JACKPOT! Ganhou %s", "JACKPOT! You won %s"},
	"msg_pin_changed":       {"PIN alterado", "PIN changed"},
	"msg_printing":          {"A imprimir o talão de %s…", "Printing a ticket for %s…"},
	"msg_set_denom":         {"Denominação alterada de %s para %s", "Denomination changed from %s to %s"},
	"msg_set_handpay_limit": {"Limite de pagamento manual alterado de %s para %s", "Handpay limit changed from %s to %s"},
	"msg_setting_saved":     {"Configuração guardada", "Setting saved"},
	"msg_reprinting":        {"A reimprimir o talão de %s (segunda via)…", "Reprinting the ticket for %s (reprint)…"},
	"msg_ram_clear_confirm": {"Confirme a limpeza da RAM: todos os contadores voltam a zero", "Confirm the RAM clear: every meter goes back to zero"},
	"msg_ticket_reading":    {"A validar o talão…", "Validating the ticket…"},
	"msg_ticket_accepted":   {"Talão de %s aceite", "%s ticket accepted"},
	"msg_ticket_rejected":   {"Talão recusado: retire o seu talão", "Ticket refused: please take your ticket"},
	"msg_ticket_used":       {"Talão já pago nesta máquina: retire o seu talão", "Ticket already paid at this machine: please take your ticket"},
	"msg_ticket_printed":    {"Talão de %s impresso: retire o seu talão", "Ticket of %s printed: please take your ticket"},
	"lock_handpay_cashout":  {"O seu crédito é pago à mão pelo empregado", "Your credit is paid by hand by the attendant"},
	"lock_printer_cannot":   {"A impressora não pode imprimir o talão", "The printer cannot print the ticket"},
	"msg_handpay_printer":   {"A impressora não pode imprimir: %s pagos à mão, chame um empregado", "The printer cannot print: %s paid by hand, please call an attendant"},
	"msg_win":               {"Ganhou %s!", "You won %s!"},
	"msg_aft_in":            {"Transferência recebida: %s", "Transfer received: %s"},
	"msg_aft_out":           {"Transferido para o sistema do casino: %s", "Transferred to the casino system: %s"},

	"refused_bad_setting":         {"Configuração recusada", "Setting refused"},
	"refused_handpay_amount":      {"O valor não é o do pagamento manual", "That is not the handpay's amount"},
	"refused_no_handpay":          {"Não há pagamento manual pendente", "No handpay is pending"},
	"refused_change_default_pin":  {"Mude primeiro o PIN de origem", "Change the default PIN first"},
	"refused_credits_on_machine":  {"Há créditos na máquina", "There are credits on the machine"},
	"refused_disabled":            {"Máquina desativada pelo sistema do casino", "Machine disabled by the casino system"},
	"refused_door_open":           {"Porta aberta: não é possível jogar", "A door is open: play is not possible"},
	"refused_game_in_progress":    {"Jogo em curso", "A game is in progress"},
	"refused_handpay":             {"Aguarde o pagamento manual", "Waiting for a handpay"},
	"refused_insufficient_credit": {"Crédito insuficiente para esta aposta", "Not enough credit for this bet"},
	"refused_promo_hedge":         {"Com crédito promocional não se aposta no jogador e na banca na mesma mão", "With promotional credit, player and banker cannot both be bet in one hand"},
	"refused_jackpot_pending":     {"Jackpot a ser pago: aguarde", "A jackpot is being paid: please wait"},
	"refused_link_down":           {"Sem ligação ao sistema de jackpots: a aposta máxima não está disponível", "No link to the jackpot system: the top bet is not available"},
	"refused_key_off":             {"Rode a chave de serviço", "Turn the attendant key on"},
	"refused_meter_fault":         {"Avaria nos contadores: máquina fora de serviço", "Meter fault: machine out of service"},
	"refused_no_credit":           {"Não há crédito para receber", "No credit to cash out"},
	"refused_no_paytable":         {"Sem tabela de prémios certificada", "No certified paytable"},
	"refused_not_armed":           {"Peça primeiro a limpeza da RAM", "Ask for the RAM clear first"},
	"refused_not_logged_in":       {"Introduza primeiro o PIN", "Type your PIN first"},
	"refused_pin_locked":          {"PIN bloqueado após demasiadas tentativas: tente mais tarde", "PIN locked after too many attempts: try later"},
	"refused_printing":            {"A imprimir um talão", "A ticket is being printed"},
	"refused_role":                {"Não permitido a este perfil", "Not allowed for this role"},
	"refused_service":             {"Máquina em serviço técnico", "Machine in service"},
	"refused_starting":            {"A máquina está a arrancar", "The machine is starting"},
	"refused_tilt":                {"Máquina fora de serviço: chame um empregado", "Machine out of service: please call an attendant"},
	"refused_unknown_role":        {"Perfil desconhecido", "Unknown role"},
	"refused_unknown_page":        {"Página do menu desconhecida", "Unknown menu page"},
	"refused_weak_pin":            {"PIN fraco: 6 a 8 algarismos, sem sequências nem repetições", "Weak PIN: 6 to 8 digits, no runs or repeats"},
	"refused_no_rng":              {"Gerador aleatório em falha: o PIN não pode ser mudado", "Random generator failed: the PIN cannot be changed"},
	"refused_no_tilt":             {"Não há avaria para resolver", "No tilt to clear"},
	"refused_aft_locked":          {"Aguarde: transferência eletrónica em curso", "Please wait: electronic transfer in progress"},
	"refused_no_jackpot":          {"Sistema de jackpot indisponível: não é possível jogar", "The jackpot system is not available: play is not possible"},
	"refused_wrong_pin":           {"PIN errado", "Wrong PIN"},

	// Modes of the machine (View.Mode): the Lockout titles.
	"mode_starting":    {"A arrancar…", "Starting…"},
	"mode_idle":        {"Pronta a jogar", "Ready to play"},
	"mode_spinning":    {"Boa sorte!", "Good luck!"},
	"mode_handpay":     {"PAGAMENTO MANUAL", "HANDPAY"},
	"mode_tilt":        {"FORA DE SERVIÇO", "OUT OF SERVICE"},
	"mode_door_open":   {"PORTA ABERTA", "DOOR OPEN"},
	"mode_disabled":    {"MÁQUINA DESATIVADA", "MACHINE DISABLED"},
	"mode_meter_fault": {"AVARIA NOS CONTADORES", "METER FAULT"},
	"mode_no_paytable": {"SEM TABELA DE PRÉMIOS", "NO PAYTABLE"},
	"mode_service":     {"SERVIÇO TÉCNICO", "SERVICE MENU"},

	"lock_call_attendant":  {"Chame um empregado", "Please call an attendant"},
	"lock_handpay_amount":  {"Valor a pagar: %s", "Amount to pay: %s"},
	"lock_disabled_detail": {"Desativada pelo sistema do casino", "Disabled by the casino system"},
	"lock_meter_fault":     {"Os contadores não podem ser garantidos: a máquina não joga até um técnico intervir", "The meters cannot be vouched for: no play until a technician acts"},
	"lock_no_paytable":     {"Nenhuma tabela de prémios certificada foi carregada", "No certified paytable is loaded"},
	"lock_game_suspended":  {"O jogo em curso continua quando a situação for resolvida", "The game in progress resumes when this is resolved"},
	"lock_starting":        {"Verificação do programa, da tabela e do gerador aleatório", "Checking the program, the paytable and the random generator"},
	"lock_printing":        {"A imprimir o talão de %[2]s (n.º %[1]s)…", "Printing a ticket for %[2]s (no. %[1]s)…"},
	"lock_jackpot_head":    {"JACKPOT: PAGAMENTO MANUAL", "JACKPOT: HANDPAY"},
	"lock_jackpot_amount":  {"Jackpot ganho: %[1]s", "Jackpot won: %[1]s"},

	"tilt_program":        {"Programa não verificado", "Program not verified"},
	"tilt_paytable":       {"Tabela de prémios recusada", "Paytable refused"},
	"tilt_rng":            {"Falha do gerador aleatório", "Random generator failure"},
	"tilt_bill_jam":       {"Noteiro encravado", "Bill validator jammed"},
	"tilt_printer":        {"Avaria da impressora", "Printer fault"},
	"tilt_bill_validator": {"Noteiro: nota guardada sem registo", "Bill validator: a note stacked without a record"},
	"tilt_meter":          {"Avaria nos contadores: chame um técnico", "Meter fault: call a technician"},
	"tilt_ledger_forged":  {"Registos alterados: chame um técnico", "Records altered: call a technician"},
	"tilt_rollback":       {"Dados mais antigos do que os testemunhados: chame um técnico", "Data older than witnessed: call a technician"},
	"tilt_witness":        {"Testemunho da placa em falta: chame um técnico", "Board witness missing: call a technician"},

	"door_main":    {"Porta principal", "Main door"},
	"door_logic":   {"Porta da lógica", "Logic door"},
	"door_cashbox": {"Porta do cofre", "Cashbox door"},
	"door_belly":   {"Porta inferior", "Belly door"},
	"door_drop":    {"Porta do drop", "Drop door"},

	"handpay_win":         {"Prémio", "Win"},
	"handpay_cancelled":   {"Recebimento do crédito", "Credit cash-out"},
	"handpay_progressive": {"Jackpot", "Jackpot"},
	"handpay_aft_bonus":   {"Prémio de bónus do casino", "Casino bonus jackpot"},

	// Player screen.
	"credit":        {"CRÉDITO", "CREDIT"},
	"bet":           {"APOSTA", "BET"},
	"win":           {"PRÉMIO", "WIN"},
	"credits_n":     {"%[1]s créditos", "%[1]s credits"},
	"credits_n_one": {"%[1]s crédito", "%[1]s credit"},
	"free_game_n":   {"Jogo grátis %[1]s de %[2]s", "Free game %[1]s of %[2]s"},
	// The presentation of a feature and of big wins (feature.go).
	"feature_games":    {"%[1]s JOGOS GRÁTIS", "%[1]s FREE GAMES"},
	"feature_won":      {"Ganhou jogos grátis!", "You won free games!"},
	"feature_starts":   {"Os jogos grátis vão começar", "The free games are about to start"},
	"feature_press":    {"Prima JOGAR para começar os jogos grátis", "Press SPIN to start the free games"},
	"feature_total":    {"PRÉMIO DOS JOGOS GRÁTIS", "FREE GAMES WIN"},
	"big_win":          {"GRANDE PRÉMIO", "BIG WIN"},
	"mega_win":         {"MEGA PRÉMIO", "MEGA WIN"},
	"jackpot_win":      {"JACKPOT", "JACKPOT"},
	"free_won_n":       {"Ganhou %[1]s jogos grátis!", "You won %[1]s free games!"},
	"free_total":       {"Prémio total do jogo com %[1]s jogos grátis: %[2]s", "Total win of the game with %[1]s free games: %[2]s"},
	"scatter_win":      {"%[1]s × %[2]s  %[3]s", "%[1]s × %[2]s  %[3]s"},
	"scatter_free":     {"%[1]s × %[2]s: %[3]s jogos grátis", "%[1]s × %[2]s: %[3]s free games"},
	"scatter_win_free": {"%[1]s × %[2]s  %[3]s e %[4]s jogos grátis", "%[1]s × %[2]s  %[3]s and %[4]s free games"},
	"multiplier":       {"Prémios × %[1]s", "Wins × %[1]s"},
	"btn_spin":         {"JOGAR", "SPIN"},
	"btn_bet_down":     {"APOSTA −", "BET −"},
	"btn_bet_up":       {"APOSTA +", "BET +"},
	"btn_max_bet":      {"APOSTA MÁX.", "MAX BET"},
	"btn_cash_out":     {"RECEBER", "CASH OUT"},
	"btn_help":         {"PRÉMIOS", "PAYTABLE"},
	"btn_language":     {"ENGLISH", "PORTUGUÊS"},
	"btn_prev":         {"◄ ANTERIOR", "◄ PREVIOUS"},
	"btn_next":         {"SEGUINTE ►", "NEXT ►"},
	"btn_close":        {"FECHAR", "CLOSE"},
	"machine_id":       {"Máquina %[1]s", "Machine %[1]s"},
	"denom_is":         {"Denominação %[1]s", "Denomination %[1]s"},
	"game_no":          {"Jogo n.º %[1]s", "Game no. %[1]s"},
	"attract_1":        {"Introduza uma nota para jogar", "Insert a bill to play"},
	"attract_2":        {"Prémio máximo: %[1]s × aposta por linha", "Top prize: %[1]s × line bet"},
	"line_win":         {"Linha %[1]s: %[2]s × %[3]s  %[4]s", "Line %[1]s: %[2]s × %[3]s  %[4]s"},
	"line_jackpot":     {"Linha %[1]s: %[2]s × %[3]s  JACKPOT %[4]s", "Line %[1]s: %[2]s × %[3]s  JACKPOT %[4]s"},
	"page_n":           {"Página %[1]s de %[2]s", "Page %[1]s of %[2]s"},

	// Paytable and rules pages (regulation rule 10).
	"pt_title_machine":  {"Máquina e apostas", "Machine and bets"},
	"pt_title_lines":    {"Prémios das linhas", "Line pays"},
	"pt_title_scatter":  {"Símbolos especiais e jogos grátis", "Special symbols and free games"},
	"pt_title_paylines": {"Linhas de pagamento", "Paylines"},
	"pt_title_payment":  {"Como são pagos os prémios", "How prizes are paid"},
	"pt_machine_id":     {"Número de identificação da máquina: %[1]s", "Machine identification number: %[1]s"},
	"pt_game":           {"Jogo: %[1]s (tabela %[2]s, versão %[3]s)", "Game: %[1]s (paytable %[2]s, version %[3]s)"},
	"pt_denom":          {"Valor do crédito (denominação): %[1]s", "Credit value (denomination): %[1]s"},
	"pt_lines_played":   {"Jogam-se sempre as %[1]s linhas; a aposta total é %[1]s × créditos por linha", "All %[1]s lines are always played; the total bet is %[1]s × credits per line"},
	"pt_bet_levels":     {"Apostas possíveis:", "Bet choices:"},
	"pt_bet_level":      {"%[1]s créditos por linha: aposta total de %[2]s créditos", "%[1]s credits per line: total bet of %[2]s credits"},
	"pt_bet_level_one":  {"%[1]s crédito por linha: aposta total de %[2]s créditos", "%[1]s credit per line: total bet of %[2]s credits"},
	"pt_bet_now":        {"Aposta atual: %[1]s créditos por linha, %[2]s créditos = %[3]s", "Current bet: %[1]s credits per line, %[2]s credits = %[3]s"},
	"pt_bet_now_one":    {"Aposta atual: %[1]s crédito por linha, %[2]s créditos = %[3]s", "Current bet: %[1]s credit per line, %[2]s credits = %[3]s"},
	"pt_lines_head":     {"Prémios por crédito apostado em cada linha (combinações da esquerda para a direita), e em euros à aposta atual:", "Pays per credit bet on each line (combinations from left to right), and in euros at the current bet:"},
	"pt_pay":            {"%[1]s × %[2]s: %[3]s = %[4]s", "%[1]s × %[2]s: %[3]s = %[4]s"},
	"pt_pay_jackpot":    {"%[1]s × %[2]s: %[3]s = %[5]s (jackpot %[4]s)", "%[1]s × %[2]s: %[3]s = %[5]s (jackpot %[4]s)"},
	"count_or_more":     {"%[1]s ou mais", "%[1]s or more"},
	"pt_scatter_head":   {"%[1]s paga em qualquer posição, multiplicado pela aposta total:", "%[1]s pays anywhere, multiplied by the total bet:"},
	"pt_scatter_pay":    {"%[1]s × %[2]s: %[3]s × aposta total = %[4]s", "%[1]s × %[2]s: %[3]s × total bet = %[4]s"},
	"pt_wild":           {"%[1]s é o símbolo selvagem: substitui qualquer símbolo exceto %[2]s, e paga também as suas próprias combinações.", "%[1]s is wild: it substitutes for every symbol except %[2]s, and also pays its own combinations."},
	"pt_wild_noscatter": {"%[1]s é o símbolo selvagem: substitui qualquer símbolo, e paga também as suas próprias combinações.", "%[1]s is wild: it substitutes for every symbol, and also pays its own combinations."},
	"pt_free_head":      {"Jogos grátis: %[1]s em qualquer posição dá", "Free games: %[1]s anywhere awards"},
	"pt_free_award":     {"%[1]s × %[2]s: %[3]s jogos grátis", "%[1]s × %[2]s: %[3]s free games"},
	"pt_free_mult":      {"Nos jogos grátis todos os prémios são multiplicados por %[1]s; joga-se com a aposta que os ganhou.", "In free games every win is multiplied by %[1]s; they are played at the bet that won them."},
	"pt_free_retrigger": {"Os jogos grátis podem ser ganhos de novo durante os jogos grátis.", "Free games can be won again during free games."},
	"pt_free_noretrig":  {"Os jogos grátis não podem ser ganhos de novo durante os jogos grátis.", "Free games cannot be won again during free games."},
	"pt_free_reels":     {"Os jogos grátis usam rolos próprios.", "Free games use reels of their own."},
	"pt_rule_longest":   {"Em cada linha paga só a combinação mais longa, a partir do primeiro rolo à esquerda.", "Each line pays only its longest combination, starting from the leftmost reel."},
	"pt_rule_sum":       {"Os prémios de linhas diferentes e de dispersão somam-se.", "Wins on different lines and scatter wins are added."},
	"pt_rule_linepay":   {"Prémio de uma linha = valor da tabela × créditos apostados por linha.", "A line win = the table's pay × credits bet per line."},
	"pt_rule_jackpot":   {"As combinações com jackpot ganham o nível de jackpot só com a aposta máxima (%[1]s créditos por linha); com as outras apostas pagam o valor da tabela.", "Jackpot combinations win their jackpot level only at the maximum bet (%[1]s credits per line); at other bets they pay the table's value."},
	"pt_paylines_head":  {"As %[1]s linhas, da esquerda para a direita:", "The %[1]s lines, from left to right:"},
	"pt_line_n":         {"Linha %[1]s", "Line %[1]s"},
	"pt_pay_credits":    {"Os prémios são somados ao crédito da máquina.", "Wins are added to the machine's credit."},
	"pt_pay_ticket":     {"Com RECEBER, o crédito é pago num talão impresso pela máquina, a trocar na caixa.", "With CASH OUT, the credit is paid on a ticket printed by the machine, to be redeemed at the cashier."},
	"pt_pay_handpay":    {"Prémios e pagamentos de %[1]s ou mais (limite de pagamento manual), ou quando a impressora não pode imprimir, são pagos por um empregado: a máquina fica bloqueada até ao pagamento.", "Wins and cash-outs of %[1]s or more (the handpay limit), or when the printer cannot print, are paid by an attendant: the machine stays locked until paid."},
	"pt_pay_jackpots":   {"Os jackpots são pagos pela máquina ou por um empregado, conforme o sistema de jackpot.", "Jackpots are paid by the machine or by an attendant, as the jackpot system decides."},
	"pt_pay_records":    {"Em caso de reclamação, decidem os registos da máquina.", "In case of a dispute, the machine's records decide."},
	"pt_malfunction":    {"Uma avaria anula os jogos e os pagamentos que ainda não foram registados.", "A malfunction voids games and payments not yet recorded."},
	"pt_rtp_head":       {"Retorno teórico ao jogador (certificado, sem jackpots), por aposta:", "Theoretical return to player (certified, jackpots excluded), per bet:"},
	"pt_rtp_level":      {"%[1]s créditos por linha: %[2]s", "%[1]s credits per line: %[2]s"},
	"pt_rtp_level_one":  {"%[1]s crédito por linha: %[2]s", "%[1]s credit per line: %[2]s"},
	"pt_rtp_total":      {"%[1]s créditos por linha: %[2]s, e %[3]s com as contribuições para os jackpots da máquina", "%[1]s credits per line: %[2]s, and %[3]s with the contributions to the machine's jackpots"},
	"pt_rtp_total_one":  {"%[1]s crédito por linha: %[2]s, e %[3]s com as contribuições para os jackpots da máquina", "%[1]s credit per line: %[2]s, and %[3]s with the contributions to the machine's jackpots"},
	"pt_none":           {"Não há tabela de prémios carregada.", "No paytable is loaded."},

	// The cabinet's own jackpot: the banner above the reels (a level's name)
	// and its rules page (regulation rule 10).
	"jp_paytable":              {"JACKPOT", "JACKPOT"},
	"jp_paytable_n":            {"JACKPOT %[1]s", "JACKPOT %[1]s"},
	"jp_mystery":               {"MISTÉRIO", "MYSTERY"},
	"jp_mystery_n":             {"MISTÉRIO %[1]s", "MYSTERY %[1]s"},
	"jackpot_won_head":         {"JACKPOT!", "JACKPOT!"},
	"jp_won":                   {"GANHO!", "WON!"},
	"pt_title_jackpots":        {"Jackpots da máquina", "The machine's jackpots"},
	"jp_rules_head":            {"Os jackpots crescem com as apostas; os valores atuais estão por cima dos rolos.", "The jackpots grow with the bets; their current values are shown above the reels."},
	"jp_level_head":            {"%[1]s (nível %[2]s)", "%[1]s (level %[2]s)"},
	"jp_combo":                 {"%[1]s× %[2]s numa linha: ganha o %[3]s", "%[1]s× %[2]s on a line: wins the %[3]s"},
	"jp_top_bet":               {"Só com a aposta máxima (%[1]s créditos por linha); com as outras apostas a combinação paga o valor da tabela.", "At the top bet only (%[1]s credits per line); at other bets the combination pays the table's value."},
	"jp_top_bet_off":           {"Só com a aposta máxima, que esta máquina não oferece agora: este nível não pode ser ganho.", "At the top bet only, which this machine does not offer now: this level cannot be won."},
	"jp_unnamed":               {"Nenhuma combinação da tabela de prémios ganha este nível.", "No combination of the paytable wins this level."},
	"jp_feed_top":              {"Recebe %[1]s de cada aposta máxima; as outras apostas não o alimentam.", "It receives %[1]s of every bet at the top bet; other bets do not feed it."},
	"jp_feed_all":              {"Recebe %[1]s de cada aposta, qualquer que seja.", "It receives %[1]s of every bet, whatever the bet."},
	"jp_mystery_cap":           {"Sai ao acaso, o mais tardar quando o valor chegar a %[1]s.", "It is won at random, at the latest when its value reaches %[1]s."},
	"jp_mystery_how":           {"Ganha-o o jogo cuja aposta fizer o valor chegar a um montante sorteado em segredo entre o valor inicial e esse máximo.", "The game whose bet brings the value to an amount drawn in secret between the starting value and that maximum wins it."},
	"jp_mystery_nocap":         {"Sai ao acaso: ganha-o o jogo cuja aposta fizer o valor chegar a um montante sorteado em segredo.", "It is won at random: the game whose bet brings the value to an amount drawn in secret wins it."},
	"jp_second_hit_wins-reset": {"Se duas máquinas ganharem este nível quase ao mesmo tempo, a primeira ganha o valor e a segunda o valor inicial.", "If two machines win this level at almost the same time, the first wins the value and the second the starting value."},
	"jp_second_hit_shown":      {"Cada máquina que ganhar este nível recebe o valor que mostrava quando ganhou.", "Each machine that wins this level is paid the value it showed when it won."},
	"jp_second_hit_split":      {"Se duas ou mais máquinas ganharem este nível quase ao mesmo tempo, o valor é dividido em partes iguais.", "If two or more machines win this level at almost the same time, the value is shared equally."},
	"jp_linked":                {"O valor vem do sistema de jackpot do casino, ligado a outras máquinas; paga-se o montante que esse sistema confirmar.", "Its value comes from the casino's jackpot system, linked to other machines; the amount paid is the one that system confirms."},
	"jp_cap":                   {"O valor não ultrapassa %[1]s.", "Its value does not go above %[1]s."},
	"jp_reset":                 {"Depois de ganho, recomeça em %[1]s.", "After a win it starts again at %[1]s."},
	"jp_once":                  {"Cada nível é ganho no máximo uma vez por jogo.", "Each level is won at most once per game."},
	"jp_paid":                  {"Um jackpot abaixo de %[1]s é somado ao crédito; um de %[1]s ou mais é pago por um empregado (pagamento manual), ficando a máquina bloqueada até ao pagamento.", "A jackpot below %[1]s is added to the credit; one of %[1]s or more is paid by an attendant (handpay), and the machine stays locked until it is paid."},
	"jp_paid_attendant":        {"Os jackpots são pagos por um empregado (pagamento manual), ficando a máquina bloqueada até ao pagamento.", "Jackpots are paid by an attendant (handpay), and the machine stays locked until it is paid."},

	// Service menu.
	"svc_title_role":         {"Serviço técnico: %[1]s", "Service menu: %[1]s"},
	"svc_title":              {"Serviço técnico: %[1]s (%[2]s)", "Service menu: %[1]s (%[2]s)"},
	"svc_login":              {"Entrada no serviço técnico", "Service login"},
	"svc_role":               {"Perfil:", "Role:"},
	"svc_pin":                {"PIN:", "PIN:"},
	"svc_new_pin":            {"Escolha um PIN novo (6 a 8 algarismos)", "Choose a new PIN (6 to 8 digits)"},
	"svc_new_pin_again":      {"Escreva o PIN novo outra vez", "Type the new PIN again"},
	"svc_pin_wait":           {"A guardar o PIN novo…", "Saving the new PIN…"},
	"pad_choose_role":        {"Escolha primeiro o perfil", "Choose your role first"},
	"pad_pin_mismatch":       {"Os dois PINs não coincidem: escreva-o de novo", "The two PINs differ: type it again"},
	"svc_must_change":        {"Entrou com o PIN de origem: escolha um PIN novo", "You logged in with the default PIN: choose a new one"},
	"svc_ok":                 {"OK", "OK"},
	"svc_cancel":             {"CANCELAR", "CANCEL"},
	"handpay_paid_btn":       {"PAGO: %[1]s", "PAID: %[1]s"},
	"handpay_confirm_head":   {"Pagamento manual", "Handpay"},
	"handpay_confirm_text":   {"Pague %[1]s ao jogador e confirme: a máquina imprime o recibo.", "Pay %[1]s to the player and confirm: the machine prints the receipt."},
	"handpay_voucher_text":   {"Não pague nada na máquina: confirme, e a máquina imprime um recibo de %[1]s que o jogador recebe na caixa.", "Pay nothing at the machine: confirm, and the machine prints a receipt for %[1]s that the player cashes at the cashier."},
	"handpay_voucher_btn":    {"IMPRIMIR RECIBO: %[1]s", "PRINT RECEIPT: %[1]s"},
	"svc_logout":             {"SAIR", "LOG OUT"},
	"svc_set_pin":            {"MUDAR PIN", "CHANGE PIN"},
	"svc_ram_clear":          {"LIMPAR RAM", "RAM CLEAR"},
	"svc_ram_confirm":        {"CONFIRMAR LIMPEZA", "CONFIRM CLEAR"},
	"svc_read_only":          {"Só leitura", "Read only"},
	"role_technician":        {"Técnico", "Technician"},
	"role_operator":          {"Operador", "Operator"},
	"role_inspector":         {"Inspetor", "Inspector"},
	"page_meters":            {"Contadores", "Meters"},
	"page_recall":            {"Jogos", "Recall"},
	"page_events":            {"Eventos", "Events"},
	"page_bills":             {"Notas", "Bills"},
	"page_handpays":          {"Pag. manuais", "Handpays"},
	"page_settings":          {"Configuração", "Settings"},
	"page_identity":          {"Identificação", "Identification"},
	"page_io":                {"E/S", "I/O"},
	"col_sas":                {"SAS", "SAS"},
	"col_meter":              {"Contador", "Meter"},
	"col_value":              {"Valor", "Value"},
	"col_time":               {"Data e hora", "Time"},
	"col_event":              {"Evento", "Event"},
	"col_detail":             {"Pormenor", "Detail"},
	"col_source":             {"Origem", "Source"},
	"col_amount":             {"Valor", "Amount"},
	"col_kind":               {"Tipo", "Kind"},
	"col_game":               {"Jogo", "Game"},
	"col_reset":              {"Pago por", "Paid by"},
	"pending":                {"pendente", "pending"},
	"none_yet":               {"Nada registado", "Nothing recorded"},
	"recall_game":            {"Jogo n.º %[1]s  %[2]s", "Game no. %[1]s  %[2]s"},
	"recall_bet":             {"Aposta: %[1]s", "Bet: %[1]s"},
	"recall_stops":           {"Paragens: %[1]s", "Stops: %[1]s"},
	"recall_reel_stop":       {"rolo %[1]s: %[2]s", "reel %[1]s: %[2]s"},
	"recall_base":            {"Jogo base", "Base game"},
	"recall_spin_win":        {"Prémio desta jogada: %[1]s", "This spin's win: %[1]s"},
	"recall_recorded":        {"Prémio registado: %[1]s", "Recorded win: %[1]s"},
	"recall_recomputed":      {"Prémio recalculado: %[1]s", "Recomputed win: %[1]s"},
	"recall_match":           {"CONFERE", "MATCHES"},
	"recall_mismatch":        {"NÃO CONFERE", "DOES NOT MATCH"},
	"recall_free":            {"Jogos grátis: %[1]s", "Free games: %[1]s"},
	"recall_n":               {"%[1]s de %[2]s", "%[1]s of %[2]s"},
	"recall_paytable":        {"Tabela: %[1]s", "Paytable: %[1]s"},
	"set_denom":              {"Denominação", "Denomination"},
	"set_language":           {"Língua", "Language"},
	"set_paytable":           {"Tabela de prémios", "Paytable"},
	"set_handpay_limit":      {"Limite de pagamento manual", "Handpay limit"},
	"set_max_level":          {"Limite de aposta", "Bet limit"},
	"set_no_limit":           {"sem limite", "no limit"},
	"set_confirm":            {"%[1]s: %[2]s → %[3]s. Confirma?", "%[1]s: %[2]s → %[3]s. Confirm?"},
	"svc_confirm":            {"CONFIRMAR", "CONFIRM"},
	"lang_pt":                {"Português", "Português"},
	"lang_en":                {"English", "English"},
	"id_machine":             {"Máquina: %[1]s", "Machine: %[1]s"},
	"id_games":               {"Jogos jogados: %[1]s", "Games played: %[1]s"},
	"id_program":             {"Resumo BLAKE2b-256 do programa em execução:", "BLAKE2b-256 hash of the running program:"},
	"id_not_reported":        {"não indicado", "not reported"},
	"id_approved":            {"Programa aprovado: %[1]s (lista assinada pela chave %[2]s)", "Program approved: %[1]s (list signed by key %[2]s)"},
	"id_approval_unchecked":  {"Aprovação do programa: não verificada (sem lista de programas aprovados)", "Program approval: not checked (no approved-program list)"},
	"id_verdict_running":     {"A verificar o registo…", "Verifying the ledger…"},
	"id_verdict_ok":          {"REGISTO VERIFICADO: cadeia, assinaturas e contadores íntegros", "LEDGER VERIFIED: chain, signatures and meters intact"},
	"id_verdict_ok_unsigned": {"REGISTO VERIFICADO: cadeia e contadores íntegros (ainda sem assinaturas)", "LEDGER VERIFIED: chain and meters intact (no signature yet)"},
	"id_verdict_signed":      {"%[1]s registos, último resumo %[2]s; %[3]s pontos de verificação assinados pela chave %[4]s, todos válidos; contadores consistentes", "%[1]s records, last hash %[2]s; %[3]s signed checkpoints by key %[4]s, all valid; meters consistent"},
	"id_verdict_unsigned":    {"%[1]s registos, último resumo %[2]s; nenhum ponto de verificação assinado ainda; contadores consistentes", "%[1]s records, last hash %[2]s; no signed checkpoint yet; meters consistent"},
	"id_verdict_bad":         {"REGISTO NÃO VERIFICADO: %[1]s problema(s)", "LEDGER NOT VERIFIED: %[1]s problem(s)"},
	"id_report":              {"Relatório assinado exportado para %[1]s (e em JSON, cada um com a sua assinatura .sig)", "Signed report exported to %[1]s (and as JSON, each with its .sig signature)"},
	"svc_verify":             {"VERIFICAR", "VERIFY"},
	"svc_export":             {"EXPORTAR", "EXPORT"},
	"id_paytable_id":         {"Tabela de prémios: %[1]s", "Paytable: %[1]s"},
	"id_paytable_full":       {"Tabela de prémios: %[1]s, versão %[2]s, assinada pela chave %[3]s", "Paytable: %[1]s, version %[2]s, signed by key %[3]s"},
	"id_digest_head":         {"Resumo BLAKE2b-256 da tabela de prémios:", "BLAKE2b-256 digest of the paytable:"},
	"id_rtp_head":            {"RTP teórico certificado, por aposta (sem jackpots)", "Certified theoretical RTP, per bet (jackpots excluded)"},
	"id_col_bet":             {"Aposta", "Bet"},
	"id_col_exact":           {"Fração exata", "Exact fraction"},
	"id_col_pct":             {"Percentagem", "Percentage"},
	"id_level":               {"Nível %[1]s", "Level %[1]s"},
	"id_level_credits":       {"%[1]s créditos por linha", "%[1]s credits per line"},
	"id_level_credits_one":   {"%[1]s crédito por linha", "%[1]s credit per line"},
	"id_actual_rtp":          {"RTP real (contadores: total ganho ÷ total apostado):", "Actual RTP (meters: total won ÷ total bet):"},
	"id_no_bets":             {"ainda sem apostas", "no bets yet"},

	// The I/O test page: inputs, outputs and their levels.
	"io_inputs":            {"Entradas (nível atual)", "Inputs (live level)"},
	"io_outputs":           {"Saídas (toque para ligar ou desligar)", "Outputs (touch to switch on or off)"},
	"io_outputs_read_only": {"Saídas: só o técnico as pode testar", "Outputs: only a technician may test them"},
	"io_no_inputs":         {"As entradas não são lidas neste momento", "The inputs are not being read now"},
	"io_on":                {"LIGADO", "ON"},
	"io_off":               {"DESLIGADO", "OFF"},
	"io_spin":              {"Botão JOGAR", "SPIN button"},
	"io_bet_up":            {"Botão APOSTA +", "BET + button"},
	"io_bet_down":          {"Botão APOSTA −", "BET − button"},
	"io_max_bet":           {"Botão APOSTA MÁX.", "MAX BET button"},
	"io_cash_out":          {"Botão RECEBER", "CASH OUT button"},
	"io_help":              {"Botão PRÉMIOS", "PAYTABLE button"},
	"io_language":          {"Botão LÍNGUA", "LANGUAGE button"},
	"io_attendant_key":     {"Chave de serviço", "Attendant key"},
	"io_jackpot_reset_key": {"Chave de reposição de jackpot", "Jackpot reset key"},
	"io_door_main":         {"Porta principal", "Main door"},
	"io_door_logic":        {"Porta da lógica", "Logic door"},
	"io_door_cashbox":      {"Porta do cofre", "Cashbox door"},
	"io_door_belly":        {"Porta inferior", "Belly door"},
	"io_door_drop":         {"Porta do drop", "Drop door"},
	"io_lamp_spin":         {"Lâmpada JOGAR", "SPIN lamp"},
	"io_lamp_cash_out":     {"Lâmpada RECEBER", "CASH OUT lamp"},
	"io_lamp_bet":          {"Lâmpada APOSTA", "BET lamp"},
	"io_tower_top":         {"Torre, luz de cima", "Tower, top light"},
	"io_tower_bottom":      {"Torre, luz de baixo", "Tower, bottom light"},

	"source_bill":       {"nota", "bill"},
	"source_coin":       {"moeda", "coin"},
	"source_ticket":     {"talão", "ticket"},
	"source_electronic": {"transferência", "transfer"},

	"event_power_up":              {"Ligada", "Power up"},
	"event_power_down":            {"Desligada", "Power down"},
	"event_door_open":             {"Porta aberta", "Door opened"},
	"event_door_close":            {"Porta fechada", "Door closed"},
	"event_tilt":                  {"Avaria", "Tilt"},
	"event_tilt_clear":            {"Avaria resolvida", "Tilt cleared"},
	"event_log_repaired":          {"Registo reparado", "Log repaired"},
	"event_service":               {"Serviço técnico", "Service"},
	"event_ram_clear":             {"Limpeza da RAM", "RAM clear"},
	"event_progressive_link_down": {"Ligação ao sistema de jackpot perdida", "Jackpot link down"},
	"event_progressive_link_up":   {"Ligação ao sistema de jackpot restabelecida", "Jackpot link restored"},
	"event_ticket_reprint":        {"Talão reimpresso (segunda via)", "Ticket reprinted"},
	"event_ticket_out":            {"Talão emitido", "Ticket out"},
	"event_money_in":              {"Dinheiro recebido", "Money in"},
	"event_handpay":               {"Pagamento manual pedido", "Handpay"},
	"event_handpay_reset":         {"Pagamento manual pago", "Handpay paid"},
	"event_free_games":            {"Jogos grátis", "Free games"},
	"ev_ticket":                   {"%[1]s, talão n.º %[2]s", "%[1]s, ticket no. %[2]s"},
	"ev_free_games":               {"Jogo n.º %[1]s: %[2]s jogos grátis, prémio %[3]s", "Game no. %[1]s: %[2]s free games, won %[3]s"},
	"ev_key_off":                  {"chave de serviço desligada", "attendant key turned off"},
	"ev_svc_login":                {"Entrada no serviço técnico", "Service login"},
	"ev_svc_logout":               {"Saída do serviço técnico", "Service logout"},
	"ev_svc_pin_failed":           {"PIN errado", "Wrong PIN"},
	"ev_svc_set_pin":              {"PIN alterado", "PIN changed"},
	"ev_svc_config":               {"Configuração alterada", "Setting changed"},
	"ev_svc_verify_ledger":        {"Verificação do registo", "Ledger verified"},
	"ev_svc_export_report":        {"Relatório exportado", "Report exported"},
	"ev_svc_clear_tilt":           {"Avaria resolvida pelo técnico", "Tilt cleared by a technician"},
	"ev_svc_io_output":            {"Teste de saída", "Output test"},
	"ev_svc_jackpot_level":        {"Nível de jackpot aberto", "Jackpot level opened"},
	"ev_jackpot_level":            {"Nível %[1]s", "Level %[1]s"},
	"who_attendant_key":           {"chave de serviço", "attendant key"},
	"who_self-test":               {"autoteste", "self-test"},
	"who_configuration":           {"configuração", "configuration"},
	"who_start-up configuration":  {"configuração de arranque", "start-up configuration"},
	"set_paytable_version":        {"Versão da tabela de prémios", "Paytable version"},
	"set_program":                 {"Programa", "Program"},
	"set_machine_num":             {"Número da máquina", "Machine number"},
	"col_who":                     {"Quem", "Who"},

	"event_progressive_award_refused": {"Jackpot recusado: o sistema confirmou mais do que a máquina mostrava", "Jackpot refused: the system confirmed more than the machine showed"},

	// The simulator's legend.
	"sim_title":      {"SIMULADOR", "SIMULATOR"},
	"sim_spin":       {"Espaço  jogar", "Space  spin"},
	"sim_bet":        {"↑ ↓  aposta", "↑ ↓  bet"},
	"sim_max":        {"M  aposta máx.", "M  max bet"},
	"sim_cash":       {"C  receber", "C  cash out"},
	"sim_help":       {"H  prémios", "H  paytable"},
	"sim_lang":       {"L  língua", "L  language"},
	"sim_bills":      {"1–7  nota 5–500 €", "1–7  bill €5–500"},
	"sim_key":        {"K  chave", "K  key"},
	"sim_doors":      {"D G X B R  portas", "D G X B R  doors"},
	"sim_sound_on":   {"S  som ligado", "S  sound on"},
	"sim_sound_off":  {"S  som desligado", "S  sound off"},
	"sim_sound_none": {"S  som: sem saída", "S  sound: no device"},
	"sim_on":         {"ligada", "on"},
	"sim_off":        {"desligada", "off"},
	"sim_key_is":     {"Chave: %[1]s", "Key: %[1]s"},
	"sim_open":       {"aberta", "open"},
	"sim_closed":     {"fechada", "closed"},
	"sim_door_is":    {"%[1]s: %[2]s", "%[1]s: %[2]s"},
})))))

var printers = func() map[string]*message.Printer {
	b := catalog.NewBuilder()
	for key, t := range texts {
		must(b.SetString(tagPT, key, t[0]))
		must(b.SetString(tagEN, key, t[1]))
	}
	for en, pt := range names.MeterPT {
		must(b.SetString(tagPT, "meter:"+en, pt))
		must(b.SetString(tagEN, "meter:"+en, en))
	}
	return map[string]*message.Printer{
		"pt": message.NewPrinter(tagPT, message.Catalog(b)),
		"en": message.NewPrinter(tagEN, message.Catalog(b)),
	}
}()

func must(err error) {
	if err != nil {
		panic(err)
	}
}

func printer(lang string) *message.Printer {
	if p, ok := printers[lang]; ok {
		return p
	}
	return printers["pt"]
}

// T translates a catalogue key; args fill the text's %[n]s in order. A key
// the catalogue lacks comes back as itself, so a gap shows on screen (and
// fails the tests) rather than hiding.
func T(lang, key string, args ...string) string {
	a := make([]any, len(args))
	for i, s := range args {
		a[i] = s
	}
	if n := verbs(key); n < len(a) {
		a = a[:n]
	}
	return printer(lang).Sprintf(key, a...)
}

// hasText says whether the catalogue has a key.
func hasText(key string) bool { _, ok := texts[key]; return ok }

// verbs counts the arguments a text takes.
func verbs(key string) int {
	t, ok := texts[key]
	if !ok {
		return 0
	}
	return strings.Count(t[0], "%s") + strings.Count(t[0], "%[")
}

// Tn is T for a text about n things: the key's "_one" form when n is 1
// and the catalogue has it ("1 crédito", not "1 créditos").
func Tn(lang, key string, n int64, args ...string) string {
	if n == 1 && hasText(key+"_one") {
		key += "_one"
	}
	return T(lang, key, args...)
}

// MessageText translates a machine message: its key with its amounts (cents)
// formatted in euros.
func MessageText(lang, key string, cents []int64) string {
	if key == "" {
		return ""
	}
	args := make([]string, len(cents))
	for i, c := range cents {
		args[i] = Euro(lang, c)
	}
	return T(lang, key, args...)
}

// MeterName is a meter's name in the language.
func MeterName(lang, name string) string { return printer(lang).Sprintf("meter:" + name) }

// Keys lists the catalogue's keys (for tests and tools).
func Keys() []string {
	var k []string
	for key := range texts {
		k = append(k, key)
	}
	sort.Strings(k)
	return k
}

func Itoa[T ~int | ~int64 | ~uint64](n T) string { return fmt.Sprint(n) }
