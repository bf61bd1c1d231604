package chemin

import (
	"fmt"
	"strings"

	"github.com/openegm/cabinet/internal/money"
	"github.com/openegm/cabinet/poker"
)

// Message is one of the dealer's announcements (rule 96), recorded as a
// KindAnnounce record: its key in Action, an amount in To, totals in Value.
type Message string

const (
	MsgFirstCoup    Message = "first_coup"      // «Primeiro golpe do sabot»
	MsgBank         Message = "bank"            // «Banca de (euro) ...»
	MsgWhoBanco     Message = "who_banco"       // «Quem quer fazer bancô?»
	MsgPlaceBets    Message = "place_bets"      // «Façam o vosso jogo»
	MsgWhoCompletes Message = "who_completes"   // «Quem completa?»
	MsgBanco        Message = "banco"           // «Bancô»
	MsgSuivi        Message = "banco_suivi"     // «Bancô suivi» (rule 51)
	MsgBancoMesa    Message = "banco_mesa"      // «Bancô com a mesa» (rule 55)
	MsgPriority     Message = "banco_priority"  // «Bancô com prioridade» (rules 57, 96)
	MsgSeulMade     Message = "banco_seul"      // «Bancô seul, feito à mesa» (rule 56)
	MsgMesaMade     Message = "banco_mesa_made" // «Bancô com a mesa feito à mesa» (rule 56)
	MsgClosed       Message = "closed"          // «Bancô de (euro) ... Jogo feito. Nada mais.»
	MsgNoBets       Message = "no_bets"         // nobody bet: no coup
	MsgTableau      Message = "tableau"         // «O banqueiro joga segundo a tabela.» (rule 102)
	MsgEight        Message = "eight"           // «Oito»
	MsgNine         Message = "nine"            // «Nove»
	MsgNo           Message = "no"              // «Não»
	MsgCard         Message = "card"            // «Carta»
	MsgTie          Message = "tie"             // «Igualdade a quatro»
	MsgPontoWins    Message = "ponto_wins"      // «Sete no ponto, cinco na banca»
	MsgBankWins     Message = "bank_wins"       // «Bacará no ponto; três na banca»
	MsgHandPasses   Message = "hand_passes"     // «A mão passa»
	MsgAbandon      Message = "hand_abandoned"  // «A mão passa por abandono»
	MsgAuction      Message = "auction"         // «Banca em leilão. Quem oferece?»
	MsgOffer        Message = "offer"           // «(euro) ...»
	MsgAdjudicated  Message = "adjudicated"     // «Banca de ... adjudicada»
	MsgHandStays    Message = "hand_stays"      // «A mão fica»
	MsgSkip         Message = "hand_skips"      // «A mão salta» (rule 92)
	MsgRefused      Message = "bank_refused"    // «Banca recusada»
	MsgLastOfSabot  Message = "last_of_sabot"   // «Último golpe do sabot»
	MsgGarage       Message = "garage"          // garage set aside (rules 34, 46)
	MsgGaveUpSeat   Message = "gave_up_seat"    // the player gave up his seat (rule 85)
	MsgLastCoup     Message = "last_coup"       // «Último golpe» (rule 96): the partida's last coup
	MsgPlaysOn      Message = "plays_on"        // the closing hour: play goes on to the sabot's end (rule 107)
	MsgNextIsLast   Message = "next_is_last"    // the closing hour: the next coup is the last (rule 107)
	MsgPartidaOver  Message = "partida_over"    // the partida is over: the table closes (rule 107)
	MsgCardsPassed  Message = "cards_passed"    // the ponto does not play the hand: the cards to the next (rule 101)
)

// KindAnnounce is a dealer's announcement: Action is its Message, To an
// amount it names, Value the totals it names ("7 5": ponto then banker).
const KindAnnounce poker.Kind = "announce"

var texts = map[Message][2]string{
	MsgFirstCoup:    {"Primeiro golpe do sabot", "First coup of the shoe"},
	MsgBank:         {"Banca de %[1]s", "Bank of %[1]s"},
	MsgWhoBanco:     {"Quem quer fazer bancô?", "Who goes banco?"},
	MsgPlaceBets:    {"Façam o vosso jogo", "Place your bets"},
	MsgWhoCompletes: {"Quem completa?", "Who completes?"},
	MsgBanco:        {"Bancô", "Banco"},
	MsgSuivi:        {"Bancô suivi", "Banco suivi"},
	MsgBancoMesa:    {"Bancô com a mesa", "Banco with the table"},
	MsgPriority:     {"Bancô com prioridade", "Banco with priority"},
	MsgSeulMade:     {"Bancô seul, feito à mesa", "Banco alone, made at the table"},
	MsgMesaMade:     {"Bancô com a mesa feito à mesa", "Banco with the table, made at the table"},
	MsgClosed:       {"Bancô de %[1]s. Jogo feito. Nada mais.", "Banco of %[1]s. Bets are closed. No more bets."},
	MsgNoBets:       {"Não há apostas", "No bets"},
	MsgTableau:      {"O banqueiro joga segundo a tabela.", "The banker plays by the tableau."},
	MsgEight:        {"Oito", "Eight"},
	MsgNine:         {"Nove", "Nine"},
	MsgNo:           {"Não", "No"},
	MsgCard:         {"Carta", "Card"},
	MsgTie:          {"Igualdade a %[2]s", "Tie at %[2]s"},
	MsgPontoWins:    {"%[2]s no ponto, %[3]s na banca", "%[2]s for the ponto, %[3]s for the bank"},
	MsgBankWins:     {"%[2]s no ponto; %[3]s na banca", "%[2]s for the ponto; %[3]s for the bank"},
	MsgHandPasses:   {"A mão passa", "The hand passes"},
	MsgAbandon:      {"A mão passa por abandono", "The hand passes by abandonment"},
	MsgAuction:      {"Banca em leilão. Quem oferece?", "The bank is auctioned. Who offers?"},
	MsgOffer:        {"%[1]s", "%[1]s"},
	MsgAdjudicated:  {"Banca de %[1]s, adjudicada", "Bank of %[1]s, awarded"},
	MsgHandStays:    {"A mão fica", "The hand stays"},
	MsgSkip:         {"A mão salta", "The hand skips"},
	MsgRefused:      {"Banca recusada", "Bank refused"},
	MsgLastOfSabot:  {"Último golpe do sabot", "Last coup of the shoe"},
	MsgGarage:       {"Garage de %[1]s", "Garage of %[1]s"},
	MsgGaveUpSeat:   {"O jogador cede o lugar", "The player gives up his seat"},
	MsgLastCoup:     {"Último golpe", "Last coup"},
	MsgPlaysOn:      {"Hora de encerramento: joga-se até ao fim do sabot", "Closing time: play goes on to the end of the shoe"},
	MsgNextIsLast:   {"Hora de encerramento: o próximo golpe é o último", "Closing time: the next coup is the last"},
	MsgPartidaOver:  {"Fim da partida. A mesa fecha.", "End of the partida. The table closes."},
	MsgCardsPassed:  {"O ponto não joga: as cartas passam ao seguinte", "The ponto does not play the hand: the cards go to the next"},
}

var totalsPT = [10]string{"bacará", "um", "dois", "três", "quatro", "cinco", "seis", "sete", "oito", "nove"}
var totalsEN = [10]string{"baccarat", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine"}

// Text is an announcement record's words in lang ("pt", the default, or
// "en").
func Text(lang string, r poker.Record) string {
	t, ok := texts[Message(r.Action)]
	if !ok {
		return r.Action
	}
	i, names := 0, totalsPT
	if lang == "en" {
		i, names = 1, totalsEN
	}
	var a, b string
	var x, y int
	if n, _ := fmt.Sscanf(r.Value, "%d %d", &x, &y); n == 2 && x >= 0 && x < 10 && y >= 0 && y < 10 {
		a, b = names[x], names[y]
	} else if n == 1 && x >= 0 && x < 10 {
		a = names[x]
	}
	if !strings.Contains(t[i], "%") {
		return t[i]
	}
	out := fmt.Sprintf(t[i], money.Euro(lang, r.To), a, b)
	if out != "" && out[0] >= 'a' && out[0] <= 'z' {
		out = strings.ToUpper(out[:1]) + out[1:]
	}
	return out
}
