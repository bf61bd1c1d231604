package model

// pokerTexts are the catalogue's texts of the poker seat (the lobby and
// the table), kept apart like the Makccarat table's; withPokerTexts joins
// them into texts.
var pokerTexts = map[string][2]string{
	// The machine's messages of the seat (machine/pokerseat.go).
	"refused_poker_seated":      {"Saia primeiro da mesa de póquer: o seu dinheiro está lá", "Leave the poker table first: your money is there"},
	"refused_poker_busy":        {"Aguarde: uma transferência com a mesa está em curso", "Please wait: a transfer with the table is under way"},
	"refused_poker_not_seated":  {"Não está sentado numa mesa de póquer", "You are not seated at a poker table"},
	"refused_poker_table":       {"Mesa desconhecida ou ainda não disponível", "Unknown table, or not available yet"},
	"refused_poker_act":         {"Jogada não reconhecida", "Action not recognised"},
	"msg_poker_buyin_refused":   {"A mesa recusou a entrada: %s voltaram ao crédito", "The table refused the buy-in: %s back on the credit"},
	"msg_poker_cashout_refused": {"A mesa recusou a saída: as fichas continuam na mesa", "The table refused the leave: the chips stay at the table"},
	"msg_poker_cashed_out":      {"Saiu da mesa: %s de volta ao crédito", "Left the table: %s back on the credit"},
	"menu_poker":                {"Póquer", "Poker"},
	"poker_lobby_title":         {"PÓQUER — MESAS", "POKER — TABLES"},
	"poker_lobby_hint":          {"Escolha uma mesa e compre a cave para se sentar", "Choose a table and buy the cave to sit down"},
	"poker_no_tables":           {"Nenhuma mesa disponível de momento", "No table is available at the moment"},

	// The lobby's tables.
	"poker_game_holdem":          {"Texas hold'em", "Texas hold'em"},
	"poker_game_synthetic_poker": {"Póquer sintético", "Synthetic poker"},
	"poker_players":              {"Jogadores %[1]s/%[2]s", "Players %[1]s/%[2]s"},
	"poker_status_waiting":       {"À espera de jogadores", "Waiting for players"},
	"poker_status_playing":       {"Em jogo", "Playing"},
	"poker_status_between":       {"Entre mãos", "Between hands"},
	"poker_status_over":          {"Partida terminada", "Partida over"},
	"poker_status_closing":       {"Mesa a fechar", "Table closing"},
	"poker_status_stopped":       {"Fora de serviço", "Out of service"},
	"poker_cave_now":             {"CAVE AGORA", "CAVE NOW"},
	"poker_buy_in":               {"SENTAR · %[1]s", "SIT DOWN · %[1]s"},
	"poker_table_closed":         {"Esta mesa não aceita jogadores agora", "This table takes no players now"},
	"poker_table_full":           {"Mesa completa", "Table full"},
	"poker_need_credit":          {"Precisa de %[1]s de crédito", "You need %[1]s of credit"},
	"poker_short_credit":         {"Crédito insuficiente: a cave desta mesa é %[1]s e o seu crédito %[2]s", "Not enough credit: this table's cave is %[1]s and your credit %[2]s"},
	"poker_short_credit_promo":   {"Crédito insuficiente: a cave desta mesa é %[1]s e pode levar para a mesa %[2]s (o crédito PROMO não vai para a mesa)", "Not enough credit: this table's cave is %[1]s and you may take %[2]s to the table (PROMO credit does not go to a table)"},

	// The seat's transfers.
	"poker_buying_in":   {"A levar %[2]s para a mesa %[1]s…", "Taking %[2]s to table %[1]s…"},
	"poker_cashing_out": {"Sai da mesa %[1]s no fim desta mão: as fichas voltam ao crédito", "Leaving table %[1]s at the end of this hand: the chips go back to the credit"},
	"poker_connecting":  {"A ligar à mesa %[1]s…", "Connecting to table %[1]s…"},
	"poker_refused":     {"Transferência recusada: %[1]s. O crédito ficou na máquina.", "Transfer refused: %[1]s. The credit stayed on the machine."},

	// The table.
	"poker_hand_no":          {"Mão %[1]s", "Hand %[1]s"},
	"poker_your_turn":        {"É a sua vez · %[1]s s", "Your turn · %[1]s s"},
	"poker_turn_of":          {"Vez de %[1]s · %[2]s s", "%[1]s to act · %[2]s s"},
	"poker_dealer_holdem":    {"B", "D"},
	"poker_dealer_synthetic": {"M", "H"},
	"poker_resting":          {"Descanso", "Resting"},
	"poker_all_in_badge":     {"Tudo", "All in"},
	"poker_folded":           {"Desistiu", "Folded"},
	"poker_pot":              {"Pote: %[1]s", "Pot: %[1]s"},
	"poker_side_pot":         {"Pote lateral %[1]s: %[2]s", "Side pot %[1]s: %[2]s"},
	"poker_session":          {"A SUA SESSÃO", "YOUR SESSION"},
	"poker_stack":            {"Fichas na mesa", "Chips at the table"},
	"poker_at_table":         {"Levado para a mesa", "Taken to the table"},
	"poker_credit":           {"Crédito na máquina", "Credit on the machine"},
	"poker_hands":            {"Mãos jogadas", "Hands played"},
	"poker_your_cards":       {"AS SUAS CARTAS", "YOUR CARDS"},
	"poker_last_hand":        {"ÚLTIMA MÃO %[1]s", "LAST HAND %[1]s"},
	"poker_no_last_hand":     {"Ainda não terminou nenhuma mão", "No hand has ended yet"},
	"poker_shows":            {"%[1]s mostra %[2]s", "%[1]s shows %[2]s"},
	"poker_wins":             {"%[1]s ganha %[2]s", "%[1]s wins %[2]s"},
	"poker_award_pot":        {"pote de %[1]s", "pot of %[1]s"},
	"poker_award_side_pot":   {"pote lateral %[1]s de %[2]s", "side pot %[1]s of %[2]s"},
	"poker_rake":             {"comissão %[1]s", "commission %[1]s"},
	"poker_carry":            {"Pó: o pote de %[1]s fica para a próxima mão", "Pó: the pot of %[1]s stays for the next hand"},
	"poker_void":             {"Mão anulada por falha do sistema: as apostas foram devolvidas", "Hand void after a system failure: the bets were returned"},

	// The player's decisions.
	"poker_fold":                {"Desistir", "Fold"},
	"poker_check":               {"Passar", "Check"},
	"poker_call":                {"Acompanhar %[1]s", "Call %[1]s"},
	"poker_bet":                 {"Apostar %[1]s", "Bet %[1]s"},
	"poker_raise_to":            {"Subir para %[1]s", "Raise to %[1]s"},
	"poker_all_in":              {"Tudo", "All in"},
	"poker_extra":               {"Mais tempo", "More time"},
	"poker_offer_question":      {"%[1]s por %[2]s?", "%[1]s for %[2]s?"},
	"poker_kind_ante":           {"Comprar as cartas", "Buy the cards"},
	"poker_kind_no_ante":        {"Não comprar", "Do not buy"},
	"poker_kind_estardilho":     {"Estardilho", "Estardilho"},
	"poker_kind_no_estardilho":  {"Sem estardilho", "No estardilho"},
	"poker_kind_restardilho":    {"Restardilho", "Restardilho"},
	"poker_kind_no_restardilho": {"Sem restardilho", "No restardilho"},
	"poker_rest":                {"Descansar", "Take a rest"},
	"poker_back":                {"Voltar ao jogo", "Back to the game"},
	"poker_leave":               {"Sair da mesa", "Leave the table"},
	"poker_leaving":             {"Sai no fim da mão", "Leaving after the hand"},
	"sim_poker_keys":            {"F desistir · Espaço passar/acompanhar · ↑ ↓ aposta · E apostar · T tudo · Y N oferta · Esc jogos", "F fold · Space check/call · ↑ ↓ bet · E bet · T all in · Y N offer · Esc games"},
	"sim_lobby_keys":            {"← → mesa · Enter sentar · Esc jogos", "← → table · Enter sit down · Esc games"},
}

// withPokerTexts adds the poker seat's texts to the catalogue; a key in
// both would be one text hiding another, so it stops the program at start.
func withPokerTexts(core map[string][2]string) map[string][2]string {
	return joinTexts(core, pokerTexts, "i18n_poker.go")
}
