package model

import (
	"slices"
	"strings"
	"testing"

	"github.com/openegm/cabinet/machine"
	"github.com/openegm/cabinet/poker/chemin"
	"github.com/openegm/cabinet/poker/seatmsg"
	"github.com/openegm/cabinet/ui/demo"
)

// The lobby lists the chemin table with its card and the least it asks;
// its buy-in is the amount chosen with − and + (ten minimum stakes at
// first, on whole minimum stakes, never above the credit), sent as it is.
func TestCheminLobbyBuyIn(t *testing.T) {
	s, c := pokerScreen(t, demo.CheminLobby(), 50000)
	tiles := s.PokerTiles()
	if len(tiles) == 0 || tiles[0].Info.ID != demo.CheminTable || tiles[0].Game != "Banca francesa" || tiles[0].CaveLabel != "ENTRADA A PARTIR DE" ||
		tiles[0].Cave != "10,00 €" || len(tiles[0].Card) < 5 {
		t.Fatalf("the chemin tile %+v", tiles[0])
	}
	if got := s.PokerTitle(); got != "MESAS — PÓQUER E BANCA FRANCESA" {
		t.Errorf("the lobby's title %q", got)
	}
	info := tiles[0].Info
	if got := s.CheminBuyAmount(info); got != 10000 {
		t.Fatalf("the first buy-in chosen: %d", got)
	}
	if msg, _ := s.PokerStatus(); msg != "Leve para a mesa de 10,00 € até 500,00 € do seu crédito" {
		t.Errorf("the lobby's line with the chemin table selected: %q", msg)
	}
	if b := button(t, s, "poker:buyin:"+demo.CheminTable); b.Label != "SENTAR · 100,00 €" || !b.Enabled {
		t.Fatalf("the buy-in button %+v", b)
	}
	// The range 10 € … 500 €: steps of 50 € (twenty touches at most),
	// on whole steps.
	clickOn(t, s, "chemin:buy_more:"+demo.CheminTable)
	if got := s.CheminBuyAmount(info); got != 15000 {
		t.Fatalf("+ once: %d", got)
	}
	for range 30 {
		s.Key(KeyUp) // the chemin table is selected: ↑ chooses its buy-in
	}
	if got := s.CheminBuyAmount(info); got != 50000 || button(t, s, "chemin:buy_more:"+demo.CheminTable).Enabled {
		t.Fatalf("at the credit: %d", got)
	}
	for range 30 {
		s.Key(KeyDown)
	}
	if got := s.CheminBuyAmount(info); got != 1000 || button(t, s, "chemin:buy_less:"+demo.CheminTable).Enabled {
		t.Fatalf("at the least: %d", got)
	}
	s.Key(KeyUp)
	if got := s.CheminBuyAmount(info); got != 5000 {
		t.Fatalf("↑ from the least: %d, not the first whole step", got)
	}
	s.Key(KeyUp)
	c.take()
	clickOn(t, s, "poker:buyin:"+demo.CheminTable)
	if got := c.take(); !slices.Equal(got, []string{"poker_buyin chemin-6d 10000"}) {
		t.Fatalf("calls %v", got)
	}
	// The poker tables' buy-in stays their cave.
	s.Key(KeyRight)
	s.Key(KeyEnter)
	if got := c.take(); len(got) != 1 || !strings.HasPrefix(got[0], "poker_buyin holdem-nl-2 ") {
		t.Fatalf("calls %v", got)
	}
}

// The banco round: one button for each of his choices, the amount box
// for those that take one, the amount sent with them and only with them,
// the keys pointing at and sending the choices, "n" the no.
func TestCheminDecisions(t *testing.T) {
	s, c := pokerScreen(t, demo.CheminBanco(), 20000)
	if !s.AtChemin() || !s.YourTurn() {
		t.Fatal("the chemin table is not on screen with his decision")
	}
	for _, id := range []string{"chemin:banco", "chemin:banco_mesa", "chemin:bet", "chemin:no_bet", "chemin:less", "chemin:more", "poker:leave"} {
		if !hasButton(s, id) {
			t.Errorf("no button %s: %v", id, ids(s.Buttons()))
		}
	}
	if hasButton(s, "poker:fold") || hasButton(s, "poker:call") {
		t.Errorf("poker's decisions at a chemin table: %v", ids(s.Buttons()))
	}
	// The leading choice (bancô) is pointed at; the box shows the first
	// amount choice's least (bancô com a mesa: half the bank).
	if b := button(t, s, "chemin:banco"); b.Style != StyleHot {
		t.Errorf("bancô is not the choice pointed at: %+v", b)
	}
	if to, ok := s.CheminAmount(); !ok || to != 10000 {
		t.Fatalf("the amount on show %d %v", to, ok)
	}
	clickOn(t, s, "chemin:banco")
	if got := c.take(); !slices.Equal(got, []string{"poker_act banco 0 false"}) {
		t.Fatalf("bancô: %v", got)
	}
	// → to the bet: the box follows it, the amount chosen kept where the
	// bet's range has it, moved by its steps (10 € on 10 € … 150 €).
	s.Key(KeyRight)
	s.Key(KeyRight)
	if to, _ := s.CheminAmount(); to != 10000 {
		t.Fatalf("the amount on show at the bet: %d", to)
	}
	for range 12 {
		s.Key(KeyDown)
	}
	if to, _ := s.CheminAmount(); to != 1000 {
		t.Fatalf("the bet's least: %d", to)
	}
	s.Key(KeyUp)
	if to, _ := s.CheminAmount(); to != 2000 {
		t.Fatalf("↑ once: %d", to)
	}
	s.Key(KeyEnter)
	if got := c.take(); !slices.Equal(got, []string{"poker_act bet 2000 false"}) {
		t.Fatalf("the bet: %v", got)
	}
	for range 40 {
		clickOn(t, s, "chemin:more")
		if !button(t, s, "chemin:more").Enabled {
			break
		}
	}
	clickOn(t, s, "chemin:bet")
	if got := c.take(); !slices.Equal(got, []string{"poker_act bet 15000 false"}) {
		t.Fatalf("the most: %v", got)
	}
	// The amount chosen, kept within bancô com a mesa's own range.
	clickOn(t, s, "chemin:banco_mesa")
	if got := c.take(); !slices.Equal(got, []string{"poker_act banco_mesa 15000 false"}) {
		t.Fatalf("bancô com a mesa: %v", got)
	}
	s.Key("n")
	if got := c.take(); !slices.Equal(got, []string{"poker_act no_bet 0 false"}) {
		t.Fatalf("n: %v", got)
	}
	// A new decision starts again at its leading choice and least.
	v := c.view
	seat := *v.Poker
	st := *seat.State
	ch := *st.Chemin
	ch.Phase, ch.Choices = "ponto", []seatmsg.ChoiceMsg{{Kind: "draw"}, {Kind: "stand"}}
	st.Chemin, seat.State = &ch, &st
	c.view.Poker = &seat
	s.Update()
	if _, ok := s.CheminAmount(); ok || hasButton(s, "chemin:less") {
		t.Error("an amount box for draw or stand")
	}
	s.Key(KeySpin)
	s.Key("n")
	if got := c.take(); !slices.Equal(got, []string{"poker_act draw 0 false", "poker_act stand 0 false"}) {
		t.Fatalf("the ponto's five: %v", got)
	}
}

// The table's words: the phase said to him when it is his decision, the
// points of a hand seen whole, face-down cards for what he may not see,
// the money and the sabot, the dealer's announcements in the screen's
// language, the seats' marks, the coup's number.
func TestCheminTableWords(t *testing.T) {
	s, _ := pokerScreen(t, demo.CheminDraw(), 20000)
	if got := s.CheminPhase(); got != "Tem cinco: carta ou não?" {
		t.Errorf("phase %q", got)
	}
	ponto, banker := s.CheminHands()
	if ponto.Label != "PONTO · cinco" || len(ponto.Cards) != 2 || !ponto.Cards[0].Up || !ponto.Cards[1].Up {
		t.Errorf("his hand %+v", ponto)
	}
	if banker.Label != "BANCA" || len(banker.Cards) != 2 || banker.Cards[0].Up || banker.Cards[1].Up {
		t.Errorf("the banker's hand, unseen: %+v", banker)
	}
	if got := s.CheminMoney(); got != "Banca: 200,00 € · Em jogo: 200,00 €" {
		t.Errorf("money %q", got)
	}
	if got := s.CheminSabot(); got != "Cartas no sabot: 267" {
		t.Errorf("sabot %q", got)
	}
	if got := s.CheminLastSay(); got != "Bancô de 200,00 €. Jogo feito. Nada mais." {
		t.Errorf("the last announcement %q", got)
	}
	if got := s.HandNoText(); got != "Golpe 18" {
		t.Errorf("coup %q", got)
	}
	seats := s.PokerSeats()
	if b := seats[0].Badges; !slices.Contains(b, "Banqueiro") {
		t.Errorf("the banker's seat: %v", b)
	}
	if me := seats[3]; !me.You || !me.ToAct || !slices.Contains(me.Badges, "Ponto") || !slices.Contains(me.Badges, "200,00 €") || me.BetText != "" || me.Dealer {
		t.Errorf("his seat %+v", me)
	}

	s, _ = pokerScreen(t, demo.CheminAfterCoup(), 20000)
	s.Lang = "en"
	ponto, banker = s.CheminHands()
	if ponto.Label != "PONTO · three" || len(ponto.Cards) != 3 || banker.Label != "BANK · seven" || len(banker.Cards) != 2 {
		t.Errorf("after the coup: %+v / %+v", ponto, banker)
	}
	if got := s.CheminSabot(); got != "Cards in the shoe: 9 · Coups won: 2 · Last coup of the shoe" {
		t.Errorf("sabot %q", got)
	}
	if got := s.CheminMoney(); got != "Bank: €380.00 · Garage: €100.00" {
		t.Errorf("money %q", got)
	}
	if got := s.CheminSays(); len(got) != 3 || got[2] != "Three for the ponto; seven for the bank" {
		t.Errorf("announcements %q", got)
	}
	if got := s.CheminPhase(); got != "Go on, set aside or pass the hand?" {
		t.Errorf("phase %q", got)
	}
	var labels []string
	for _, c := range s.CheminChoices() {
		labels = append(labels, s.ChoiceLabel(c))
	}
	if !slices.Equal(labels, []string{"Go on", "Garage", "Pass the hand", "Cagnotte outside"}) {
		t.Errorf("labels %q", labels)
	}
	for _, m := range s.PokerSession() {
		if m.Label == T("en", "poker_hands") || m.Label == T("en", "poker_won_pots") {
			t.Errorf("a poker word in the chemin session: %q", m.Label)
		}
	}
}

// The summary of a session at a chemin table counts coups, not hands.
func TestCheminEndedWords(t *testing.T) {
	seat := demo.CheminLobby()
	seat.Ended = &machine.PokerSessionEnd{Table: demo.CheminTable, Amount: 41000, Server: true}
	seat.Ended.Totals.Hands, seat.Ended.Totals.BoughtIn, seat.Ended.Totals.CashedOut = 12, 30000, 41000
	s, _ := pokerScreen(t, seat, 41000)
	rows := s.EndedRows()
	if len(rows) == 0 || rows[0].Label != "Golpes jogados" || rows[0].Value != "12" || rows[4].Label != "Ganho" {
		t.Fatalf("the chemin session's summary %+v", rows)
	}
}

// Every decision the chemin protocol offers has its words in both
// languages, and every phase its own.
func TestCheminWordsComplete(t *testing.T) {
	kinds := []string{"bank", "bank_associated", "refuse", "associate", "banco", "banco_suivi", "banco_mesa", "bet", "no_bet", "play_cards", "pass_cards", "draw", "stand",
		"continue", "garage", "reduce", "halve", "pass", "take", "decline", "bid", "bid_associated", "no_bid", "cagnotte_outside"}
	for _, lang := range Langs {
		for _, k := range kinds {
			label := (&Screen{Lang: lang}).ChoiceLabel(seatmsg.ChoiceMsg{Kind: k, Min: 100, Max: 200})
			if !hasText("chemin_do_"+k) || strings.Contains(label, "%") || strings.Contains(label, "chemin_") {
				t.Errorf("%s: the choice %s's words %q", lang, k, label)
			}
		}
		for _, ph := range []chemin.Phase{chemin.Idle, chemin.Stake, chemin.BancoRound, chemin.BetRound, chemin.Cards, chemin.PontoTurn, chemin.BankerTurn,
			chemin.AfterCoup, chemin.Offered, chemin.Auction, chemin.Forced, chemin.Closed} {
			p := string(ph)
			if !hasText("chemin_ph_"+p) || !hasText("chemin_ph_"+p+"_you") && p != "idle" && p != "closed" {
				t.Errorf("%s: no words for the phase %s", lang, p)
			}
		}
	}
	if got := (&Screen{Lang: "pt"}).ChoiceLabel(seatmsg.ChoiceMsg{Kind: "join_bid", Min: 3, Max: 3}); got != "Juntar-me ao lugar 3" {
		t.Errorf("join_bid %q", got)
	}
}

// The replay of his last coup at a chemin table: asked by its button
// between decisions, each frame's record in words (the dealer's own for
// an announcement), the hands as he saw them, the bank and the stakes in
// place of the pot, the stake on the seat.
func TestCheminReplay(t *testing.T) {
	seat := demo.CheminReplay()
	answer := seat.Replay
	seat.Replay, seat.ReplaySeq = nil, 0
	s, c := pokerScreen(t, seat, 20000)
	if b := button(t, s, "poker:replay"); b.Label != "Repetição dos golpes" || !b.Enabled {
		t.Errorf("the replay's button at a chemin table: %+v", b)
	}
	clickOn(t, s, "poker:replay")
	if got := c.take(); !slices.Equal(got, []string{"poker_act replay 0 false"}) {
		t.Fatalf("the replay button sent %v", got)
	}
	seat.Replay, seat.ReplaySeq = answer, 1
	s.Update()
	var texts []string
	var third, shown ReplayScene
	for i := range 9 {
		sc, ok := s.PokerReplay()
		if !ok || sc.Chemin == nil {
			t.Fatalf("frame %d: %+v", i+1, sc)
		}
		texts = append(texts, sc.Text)
		switch i {
		case 4:
			third = sc
		case 5:
			shown = sc
		}
		s.Key(KeyRight)
	}
	want := []string{"Golpe 23", "Banca de 190,00 €", "Bruno · Bancô 190,00 €", "Bruno recebe as cartas", "Bruno: terceira carta 9♥",
		"Bruno mostra K♦ 4♣ 9♥: três", "Três no ponto; sete na banca", "A banca ganha: EGM-0042 ganha 370,50 € (cagnotte 9,50 €)", "Fim do golpe 23"}
	if !slices.Equal(texts, want) {
		t.Errorf("the frames in words:\n%q\nwant\n%q", texts, want)
	}
	if len(third.Chemin.Ponto.Cards) != 1 || len(third.Chemin.Banker.Cards) != 0 || third.Pot != "Banca: 190,00 € · Em jogo: 190,00 €" ||
		!slices.Contains(third.Seats[1].Badges, "190,00 €") || third.Seats[1].BetText != "" {
		t.Errorf("the third card's frame: %+v %q %+v", third.Chemin, third.Pot, third.Seats[1])
	}
	if len(shown.Chemin.Ponto.Cards) != 3 || len(shown.Chemin.Banker.Cards) != 2 || !shown.Chemin.Banker.Cards[0].Up {
		t.Errorf("the hands shown: %+v", shown.Chemin)
	}
	if got := c.take(); len(got) != 0 {
		t.Errorf("the replay's steps sent %v", got)
	}
	if s.ReplayHandText() != "Golpe 23 · 1 de 1" || s.ReplayHeading(23) != "REPETIÇÃO · GOLPE 23" || button(t, s, "poker:replay_hand_prev").Label != "◄ Golpe" {
		t.Errorf("the replay's words of a coup: %q %q", s.ReplayHandText(), s.ReplayHeading(23))
	}
}

// The partida's close at the closing hour (rule 107) on the sabot's line:
// «Último golpe» for the coup in play, or play on to the sabot's end, and
// the closed table's phase, in both languages.
func TestCheminClosingWords(t *testing.T) {
	for _, c := range []struct {
		lang      string
		st        seatmsg.CheminMsg
		sabot, ph string
	}{
		{"pt", seatmsg.CheminMsg{Phase: "banco_round", FinalCoup: true, LastCoup: true}, "Último golpe", "Quem quer fazer bancô?"},
		{"en", seatmsg.CheminMsg{Phase: "banco_round", FinalCoup: true}, "Last coup", "Who goes banco?"},
		{"pt", seatmsg.CheminMsg{Phase: "bet_round", PlaysOn: true}, "Hora de encerramento: até ao fim do sabot", "Apostas"},
		{"en", seatmsg.CheminMsg{Phase: "closed"}, "", "End of the partida: the table closed"},
	} {
		g := &Screen{Lang: c.lang, V: machine.View{Poker: &machine.PokerSeatView{State: &seatmsg.StateMsg{Chemin: &c.st}}}}
		if got := g.CheminSabot(); got != c.sabot {
			t.Errorf("%s %+v: the sabot's line %q, want %q", c.lang, c.st, got, c.sabot)
		}
		if got := g.CheminPhase(); got != c.ph {
			t.Errorf("%s %+v: the phase %q, want %q", c.lang, c.st, got, c.ph)
		}
	}
}
