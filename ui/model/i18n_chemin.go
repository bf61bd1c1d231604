package model

// cheminTexts are the catalogue's texts of the seat at a chemin de fer
// table (banca francesa), the words of the browser's seat (chemin.js) as
// the cabinet's screen says them; withCheminTexts joins them into texts.
// The dealer's announcements (rule 96) are not here: the server sends
// them in both languages (seatmsg.SayMsg).
var cheminTexts = map[string][2]string{
	"poker_game_chemin_de_fer": {"Banca francesa", "Chemin de fer"},
	"chemin_lobby_title":       {"MESAS — PÓQUER E BANCA FRANCESA", "TABLES — POKER AND CHEMIN DE FER"},
	"chemin_cave_least":        {"ENTRADA A PARTIR DE", "BUY-IN FROM"},
	"chemin_buy_in_bounds":     {"Leve para a mesa de %[1]s até %[2]s do seu crédito", "Take from %[1]s up to %[2]s of your credit to the table"},
	"chemin_coup_no":           {"Golpe %[1]s", "Coup %[1]s"},

	// The table.
	"chemin_bank":        {"Banca: %[1]s", "Bank: %[1]s"},
	"chemin_garage":      {"Garage: %[1]s", "Garage: %[1]s"},
	"chemin_staked":      {"Em jogo: %[1]s", "At stake: %[1]s"},
	"chemin_level":       {"Banca passada de %[1]s", "Hand passed at %[1]s"},
	"chemin_wins":        {"Golpes ganhos: %[1]s", "Coups won: %[1]s"},
	"chemin_ponto":       {"PONTO", "PONTO"},
	"chemin_banker":      {"BANCA", "BANK"},
	"chemin_total":       {"%[1]s · %[2]s", "%[1]s · %[2]s"},
	"chemin_sabot":       {"Cartas no sabot: %[1]s", "Cards in the shoe: %[1]s"},
	"chemin_last_coup":   {"Último golpe do sabot", "Last coup of the shoe"},
	"chemin_final_coup":  {"Último golpe", "Last coup"},
	"chemin_plays_on":    {"Hora de encerramento: até ao fim do sabot", "Closing time: to the end of the shoe"},
	"chemin_dealer":      {"O CROUPIER", "THE DEALER"},
	"chemin_no_says":     {"O croupier ainda não anunciou nada", "The dealer has announced nothing yet"},
	"chemin_badge_bank":  {"Banqueiro", "Banker"},
	"chemin_badge_assoc": {"Associado", "Associate"},
	"chemin_badge_ponto": {"Ponto", "Ponto"},
	"chemin_badge_bid":   {"A oferecer", "Offering"},
	"chemin_won":         {"Ganho", "Won"},
	"chemin_coups":       {"Golpes jogados", "Coups played"},

	// What the table waits for (chemin.Phase), and the same when it is
	// the player's decision.
	"chemin_ph_idle":            {"Entre golpes", "Between coups"},
	"chemin_ph_stake":           {"O banqueiro anuncia a banca", "The banker states the bank"},
	"chemin_ph_stake_you":       {"A mão é sua: anuncie a banca", "The hand is yours: state the bank"},
	"chemin_ph_banco_round":     {"Quem quer fazer bancô?", "Who goes banco?"},
	"chemin_ph_banco_round_you": {"Faz bancô?", "Banco?"},
	"chemin_ph_bet_round":       {"Apostas", "Bets"},
	"chemin_ph_bet_round_you":   {"Quanto aposta?", "How much do you bet?"},
	"chemin_ph_cards":           {"O ponto joga as cartas ou passa-as", "The ponto plays the cards or passes them"},
	"chemin_ph_cards_you":       {"As cartas são suas: joga-as?", "The cards are yours: do you play the hand?"},
	"chemin_ph_ponto":           {"O ponto joga com cinco", "The ponto plays his five"},
	"chemin_ph_ponto_you":       {"Tem cinco: carta ou não?", "You have five: card or no card?"},
	"chemin_ph_banker":          {"O banqueiro escolhe", "The banker chooses"},
	"chemin_ph_banker_you":      {"A escolha é sua: carta ou não?", "Your choice: card or no card?"},
	"chemin_ph_after_coup":      {"O banqueiro decide a banca", "The banker decides on the bank"},
	"chemin_ph_after_coup_you":  {"Continua, põe de lado ou passa a mão?", "Go on, set aside or pass the hand?"},
	"chemin_ph_offered":         {"A mão é oferecida", "The hand is offered"},
	"chemin_ph_offered_you":     {"A banca é-lhe oferecida", "The bank is offered to you"},
	"chemin_ph_auction":         {"Leilão da banca", "The bank is auctioned"},
	"chemin_ph_auction_you":     {"Quanto oferece pela banca?", "What do you offer for the bank?"},
	"chemin_ph_forced":          {"A banca é dada ao seguinte", "The bank goes to the next player"},
	"chemin_ph_forced_you":      {"Ninguém ofereceu: aceita a banca mínima ou cede o lugar", "Nobody offered: take the minimum bank or give up your seat"},
	"chemin_ph_closed":          {"Fim da partida: a mesa fechou", "End of the partida: the table closed"},

	// The player's decisions (chemin.ActionKind), as short as a button
	// takes them: the amount is the box's beside them (a number is never
	// cut to fit a button).
	"chemin_do_bank":             {"Fazer banca", "Bank"},
	"chemin_do_bank_associated":  {"Banca associada", "Associated bank"},
	"chemin_do_refuse":           {"Recusar a banca", "Refuse the bank"},
	"chemin_do_refuse_forced":    {"Ceder o lugar", "Give up the seat"},
	"chemin_do_associate":        {"Associar-me", "Associate"},
	"chemin_do_banco":            {"Bancô", "Banco"},
	"chemin_do_banco_suivi":      {"Bancô suivi", "Banco suivi"},
	"chemin_do_banco_mesa":       {"Bancô com a mesa", "Banco with the table"},
	"chemin_do_bet":              {"Apostar", "Bet"},
	"chemin_do_no_bet":           {"Não apostar", "No bet"},
	"chemin_do_play_cards":       {"Jogo as cartas", "I play the hand"},
	"chemin_do_pass_cards":       {"Não sei jogar", "I don't play the hand"},
	"chemin_do_draw":             {"Carta", "Card"},
	"chemin_do_stand":            {"Não", "No card"},
	"chemin_do_continue":         {"Continuar", "Go on"},
	"chemin_do_garage":           {"Garage", "Garage"},
	"chemin_do_reduce":           {"Reduzir a banca", "Reduce the bank"},
	"chemin_do_halve":            {"Banca a metade", "Halve the bank"},
	"chemin_do_pass":             {"Passo a mão", "Pass the hand"},
	"chemin_do_take":             {"Aceitar a banca", "Take the bank"},
	"chemin_do_take_forced":      {"Aceitar a mínima", "Take the minimum"},
	"chemin_do_decline":          {"Não aceitar", "Decline"},
	"chemin_do_bid":              {"Oferecer", "Offer"},
	"chemin_do_bid_associated":   {"Oferta a meias", "Half-share offer"},
	"chemin_do_join_bid":         {"Juntar-me ao lugar %[1]s", "Join seat %[1]s"},
	"chemin_do_no_bid":           {"Não oferecer", "No offer"},
	"chemin_do_cagnotte_outside": {"Cagnotte por fora", "Cagnotte outside"},
	"sim_chemin_keys":            {"← → escolha · Espaço/Enter decidir · ↑ ↓ montante · N não · P repetição · U repor · Esc jogos", "← → choice · Space/Enter decide · ↑ ↓ amount · N no · P replay · U re-buy · Esc games"},
	"sim_lobby_chemin_keys":      {"← → mesa · ↑ ↓ entrada na banca francesa · Enter sentar · Esc jogos", "← → table · ↑ ↓ chemin de fer buy-in · Enter sit down · Esc games"},

	// The replay of his last coups: each record in words (an
	// announcement is the dealer's own).
	"chemin_replay":           {"Repetição dos golpes", "Replay coups"},
	"chemin_replay_heading":   {"REPETIÇÃO · GOLPE %[1]s", "REPLAY · COUP %[1]s"},
	"chemin_replay_hand":      {"Golpe %[1]s · %[2]s de %[3]s", "Coup %[1]s · %[2]s of %[3]s"},
	"chemin_replay_hand_prev": {"◄ Golpe", "◄ Coup"},
	"chemin_replay_hand_next": {"Golpe ►", "Coup ►"},
	"chemin_rp_start":         {"Golpe %[1]s", "Coup %[1]s"},
	"chemin_rp_shoe":          {"Sabot novo, baralhado e selado", "New shoe, shuffled and sealed"},
	"chemin_rp_burn":          {"Cartas queimadas: %[1]s", "Cards burned: %[1]s"},
	"chemin_rp_end":           {"Fim do sabot", "End of the shoe"},
	"chemin_rp_bank":          {"%[1]s faz banca de %[2]s", "%[1]s banks %[2]s"},
	"chemin_rp_assoc":         {"%[1]s associa-se com %[2]s", "%[1]s associates with %[2]s"},
	"chemin_rp_stake":         {"%[1]s · %[2]s %[3]s", "%[1]s · %[2]s %[3]s"},
	"chemin_rp_garage":        {"%[1]s põe de lado %[2]s (garage)", "%[1]s sets aside %[2]s (garage)"},
	"chemin_rp_release":       {"%[1]s recebe a banca e a garage: %[2]s", "%[1]s gets the bank and the garage: %[2]s"},
	"chemin_rp_deal":          {"%[1]s recebe as cartas", "%[1]s is dealt the cards"},
	"chemin_rp_third":         {"%[1]s: terceira carta %[2]s", "%[1]s: third card %[2]s"},
	"chemin_rp_act":           {"%[1]s · %[2]s", "%[1]s · %[2]s"},
	"chemin_rp_show":          {"%[1]s mostra %[2]s: %[3]s", "%[1]s shows %[2]s: %[3]s"},
	"chemin_rp_bank_wins":     {"A banca ganha: %[1]s (cagnotte %[2]s)", "The bank wins: %[1]s (cagnotte %[2]s)"},
	"chemin_rp_ponto_wins":    {"O ponto ganha: %[1]s", "The ponto wins: %[1]s"},
	"chemin_rp_coup_end":      {"Fim do golpe %[1]s", "Coup %[1]s over"},

	// The totals the dealer names (rule 96): baccarat is nought.
	"chemin_points_0": {"bacará", "baccarat"},
	"chemin_points_1": {"um", "one"},
	"chemin_points_2": {"dois", "two"},
	"chemin_points_3": {"três", "three"},
	"chemin_points_4": {"quatro", "four"},
	"chemin_points_5": {"cinco", "five"},
	"chemin_points_6": {"seis", "six"},
	"chemin_points_7": {"sete", "seven"},
	"chemin_points_8": {"oito", "eight"},
	"chemin_points_9": {"nove", "nine"},
}

// withCheminTexts adds the chemin de fer seat's texts to the catalogue; a
// key in both would be one text hiding another, so it stops the program
// at start.
func withCheminTexts(core map[string][2]string) map[string][2]string {
	return joinTexts(core, cheminTexts, "i18n_chemin.go")
}
