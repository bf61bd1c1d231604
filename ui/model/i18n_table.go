package model

// tableTexts are the catalogue's texts of the game menu and the Makccarat
// table, kept apart from the reel game's so each game's screens bring
// their own words; withTableTexts joins them into texts.
var tableTexts = map[string][2]string{
	// Refusals of the table and the menu (machine.Message keys).
	"refused_game_not_offered": {"Este jogo não está disponível", "This game is not available"},
	"refused_bet_unit":         {"As apostas são em múltiplos de %s", "Bets are in multiples of %s"},
	"refused_spot_limit":       {"Aposta máxima nesta casa: %s", "Maximum bet on this spot: %s"},
	"refused_hand_limit":       {"Aposta máxima por mão: %s", "Maximum bet per hand: %s"},
	"refused_no_bet":           {"Coloque uma ficha numa aposta", "Place a chip on a bet"},
	"refused_table_limits":     {"Aposta fora dos limites da mesa", "Bet outside the table's limits"},
	"refused_not_in_game":      {"Não disponível neste jogo", "Not available in this game"},
	"mode_dealing":             {"A dar as cartas…", "Dealing…"},

	// The game menu.
	"menu_title":     {"ESCOLHA O JOGO", "CHOOSE A GAME"},
	"menu_reels":     {"Rolos", "Reels"},
	"menu_makccarat": {"Makccarat", "Makccarat"},
	"menu_hint":      {"Toque num jogo para jogar", "Touch a game to play"},
	"btn_games":      {"Jogos", "Games"},

	// The table.
	"btn_deal":           {"DAR", "DEAL"},
	"btn_clear":          {"Limpar", "Clear"},
	"btn_rules":          {"Regras", "Rules"},
	"spot_player":        {"JOGADOR", "PLAYER"},
	"spot_banker":        {"BANCA", "BANKER"},
	"spot_tie":           {"EMPATE", "TIE"},
	"spot_player_pair":   {"PAR JOGADOR", "PLAYER PAIR"},
	"spot_banker_pair":   {"PAR BANCA", "BANKER PAIR"},
	"spot_odds":          {"paga %[1]s para 1", "pays %[1]s to 1"},
	"hand_player":        {"JOGADOR", "PLAYER"},
	"hand_banker":        {"BANCA", "BANKER"},
	"hand_points":        {"%[1]s pontos", "%[1]s points"},
	"hand_points_one":    {"%[1]s ponto", "%[1]s point"},
	"win_player":         {"JOGADOR GANHA %[1]s a %[2]s", "PLAYER WINS %[1]s to %[2]s"},
	"win_banker":         {"BANCA GANHA %[1]s a %[2]s", "BANKER WINS %[1]s to %[2]s"},
	"win_tie":            {"EMPATE a %[1]s", "TIE at %[1]s"},
	"pair_player":        {"Par do jogador", "Player pair"},
	"pair_banker":        {"Par da banca", "Banker pair"},
	"result_won":         {"ganha %[1]s", "wins %[1]s"},
	"result_returned":    {"devolvida %[1]s", "returned %[1]s"},
	"result_lost":        {"perdida", "lost"},
	"result_commission":  {"comissão %[1]s", "commission %[1]s"},
	"table_credit":       {"CRÉDITO", "CREDIT"},
	"table_staked":       {"APOSTA", "BET"},
	"table_paid":         {"PAGO", "PAID"},
	"table_chip":         {"FICHA", "CHIP"},
	"table_place_bets":   {"Faça as suas apostas e carregue em DAR", "Place your bets and press DEAL"},
	"table_paid_total":   {"Pago %[1]s", "Paid %[1]s"},
	"table_min_spot":     {"Aposta mínima em %[1]s: %[2]s", "Minimum bet on %[1]s: %[2]s"},
	"table_min_hand":     {"Aposta mínima por mão: %[1]s", "Minimum bet per hand: %[1]s"},
	"table_no_win":       {"Sem prémio nesta mão", "No win this hand"},
	"road_bead":          {"Quadro de contas", "Bead plate"},
	"road_big":           {"Estrada grande", "Big road"},
	"road_letter_player": {"J", "P"},
	"road_letter_banker": {"B", "B"},
	"road_letter_tie":    {"E", "T"},
	"sim_menu_keys":      {"← →  jogo   Enter  jogar", "← →  game   Enter  play"},
	"sim_table_spots":    {"Y U I O P  apostar", "Y U I O P  bet"},
	"sim_table_chip":     {"V ↑ ↓  ficha", "V ↑ ↓  chip"},
	"sim_table_clear":    {"Retrocesso  limpar", "Backspace  clear"},
	"sim_table_deal":     {"Espaço  dar", "Space  deal"},
	"sim_table_menu":     {"Esc  jogos", "Esc  games"},
	"sim_table_rules":    {"H  regras", "H  rules"},

	// The rules page, from the certified table definition.
	"rules_title":            {"Makccarat — regras", "Makccarat — rules"},
	"rules_title_limits":     {"Makccarat — limites", "Makccarat — limits"},
	"rules_title_pays":       {"Makccarat — prémios", "Makccarat — payouts"},
	"rules_definition":       {"Mesa: %[1]s", "Table: %[1]s"},
	"set_table_is":           {"Mesa: %[1]s", "Table: %[1]s"},
	"set_table_off":          {"Mesa: desligada", "Table: off"},
	"rules_decks":            {"Jogado com %[1]s baralhos de 52 cartas, baralhados de novo em cada mão pela máquina.", "Played with %[1]s decks of 52 cards, shuffled afresh for every hand by the machine."},
	"rules_points":           {"O 10, o valete, a dama e o rei valem 0; as outras cartas o seu valor (o ás vale 1); uma mão vale a soma das cartas sem as dezenas.", "10, jack, queen and king count 0; the other cards their face value (ace 1); a hand is worth the sum of its cards without the tens."},
	"rules_deal":             {"O jogador e a banca recebem duas cartas cada, alternadamente, o jogador primeiro; cada mão recebe no máximo uma terceira carta.", "Player and banker get two cards each, alternately, player first; each hand gets at most one third card."},
	"rules_natural":          {"Se uma das mãos somar 8 ou 9 com duas cartas, a mão termina: ganha o valor mais alto, valores iguais empatam.", "If either hand totals 8 or 9 with two cards, the hand ends: the higher total wins, equal totals tie."},
	"rules_equal":            {"Se ambas somarem de 0 a 7 e forem iguais, cada mão recebe uma carta, o jogador primeiro.", "If both total 0 to 7 and are equal, each hand draws one card, player first."},
	"rules_alt_1":            {"Alternativa 1: se forem diferentes, a mão mais baixa recebe uma carta; se continuar mais baixa, perde; se ficar igual ou mais alta, a outra mão recebe uma carta.", "Alternative 1: if they differ, the lower hand draws one card; if it is still lower, it loses; if it is now equal or higher, the other hand draws one card."},
	"rules_alt_2":            {"Alternativa 2: se forem diferentes, a mão mais baixa recebe uma carta; se continuar mais baixa, perde; se ficar igual, é empate; se ficar mais alta, a outra mão recebe uma carta.", "Alternative 2: if they differ, the lower hand draws one card; if it is still lower, it loses; if it is now equal, it is a tie; if it is higher, the other hand draws one card."},
	"rules_alternative":      {"Regra de tiragem: alternativa %[1]s", "Drawing rule: alternative %[1]s"},
	"rules_winner":           {"No fim ganha o valor mais alto; valores iguais empatam.", "At the end the higher total wins; equal totals tie."},
	"rules_pair":             {"Um par são as duas primeiras cartas de uma mão com o mesmo valor facial: valete e valete sim, valete e dama não.", "A pair is a hand's first two cards of the same rank: jack and jack yes, jack and queen no."},
	"rules_pays":             {"PRÉMIOS E RETORNO AO JOGADOR", "PAYOUTS AND RETURN TO PLAYER"},
	"rules_pay_line":         {"%[1]s: paga %[2]s para 1 — retorno ao jogador %[3]s", "%[1]s: pays %[2]s to 1 — return to player %[3]s"},
	"rules_tie_returns":      {"Em caso de empate, as apostas no jogador e na banca são devolvidas.", "On a tie, the player and banker bets are returned."},
	"rules_commission":       {"COMISSÃO", "COMMISSION"},
	"rules_five_percent_789": {"A casa retém 5 %% do prémio de uma aposta no jogador ou na banca que ganhe com 7, 8 ou 9 pontos.", "The house keeps 5%% of the prize of a player or banker bet that wins with 7, 8 or 9 points."},
	"rules_half_on_four":     {"Sem comissão de 5 %%: a casa retém metade do prémio de uma aposta no jogador ou na banca que ganhe com 4 pontos.", "No 5%% commission: the house keeps half the prize of a player or banker bet that wins with 4 points."},
	"rules_limits":           {"LIMITES", "LIMITS"},
	"rules_limit_spot":       {"%[1]s: mínimo %[2]s, máximo %[3]s", "%[1]s: minimum %[2]s, maximum %[3]s"},
	"rules_limit_hand":       {"Por mão: mínimo %[1]s, máximo %[2]s", "Per hand: minimum %[1]s, maximum %[2]s"},
	"rules_bet_unit":         {"As apostas são feitas com fichas em múltiplos de %[1]s, para que cada prémio seja um número exato de cêntimos.", "Bets are made with chips in multiples of %[1]s, so that every prize is an exact number of cents."},
	"rules_rtp_note":         {"O retorno ao jogador é o valor exato certificado, calculado sobre todas as mãos possíveis.", "The return to player is the exact certified figure, computed over every possible hand."},
}

// withTableTexts adds the table's texts to the catalogue; a key in both
// would be one text hiding another, so it stops the program at start.
func withTableTexts(core map[string][2]string) map[string][2]string {
	return joinTexts(core, tableTexts, "i18n_table.go")
}
