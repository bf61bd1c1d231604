package model

import (
	"fmt"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/openegm/cabinet/machine"
	"github.com/openegm/cabinet/poker"
	"github.com/openegm/cabinet/poker/seatmsg"
	"github.com/openegm/cabinet/ui/demo"
)

// pokerScreen is the screens at the poker entry of the menu with a seat.
func pokerScreen(t *testing.T, seat *machine.PokerSeatView, credit int64) (*Screen, *fakeCabinet) {
	t.Helper()
	v := machine.View{Mode: "idle", Lang: "pt", Denom: 1, Credits: credit, CreditsCents: credit, MachineID: "EGM-0042",
		GameKind: machine.GamePoker, Games: []string{"reels", "makccarat", machine.GamePoker}, Poker: seat}
	s, c := newTestScreen(t, v)
	if !s.AtPoker() {
		t.Fatal("the poker screen is not up at the poker entry")
	}
	return s, c
}

func hasButton(s *Screen, id string) bool { return slices.Contains(ids(s.Buttons()), id) }

// The menu offers the poker entry beside the others, every tile on the
// screen and none over another; choosing it tells the machine.
func TestPokerOnTheMenu(t *testing.T) {
	v := machine.View{Mode: "idle", Lang: "pt", Denom: 1, GameKind: "reels", Games: []string{"reels", "makccarat", machine.GamePoker},
		Poker: demo.PokerLobby()}
	s, c := newTestScreen(t, v)
	clickOn(t, s, "games")
	var tiles []Rect
	for _, b := range s.MenuButtons() {
		if strings.HasPrefix(b.ID, "game:") {
			if b.R.X < 0 || b.R.X+b.R.W > DesignW {
				t.Errorf("%s: tile %+v off the screen", b.ID, b.R)
			}
			for _, o := range tiles {
				if b.R.X < o.X+o.W && o.X < b.R.X+b.R.W {
					t.Errorf("%s: tile %+v over %+v", b.ID, b.R, o)
				}
			}
			tiles = append(tiles, b.R)
		}
	}
	if len(tiles) != 3 {
		t.Fatalf("%d tiles for three games", len(tiles))
	}
	if r := MenuTileRect(1, 2); r != (Rect{RectMenuGame.X + RectMenuGame.W + 60, RectMenuGame.Y, RectMenuGame.W, RectMenuGame.H}) {
		t.Errorf("two games moved: second tile %+v", r)
	}
	if T("pt", "menu_poker") == "menu_poker" {
		t.Error("the menu's poker entry has no name")
	}
	clickOn(t, s, "game:poker")
	if got := c.take(); !slices.Equal(got, []string{"select_game poker"}) {
		t.Fatalf("calls %v", got)
	}
	c.view.GameKind = machine.GamePoker
	s.Update()
	if !s.AtPoker() || s.AtTable() || s.PokerAtTable() {
		t.Fatal("the poker lobby is not on screen after choosing poker")
	}
	// Esc and the games button go back to the menu while not seated.
	s.Key(KeyEscape)
	if !s.MenuUp() {
		t.Error("Esc does not open the menu from the lobby")
	}
}

// The lobby shows each table's title, game, players, card and cave; the
// buy-in asks for the cave the table asks now, and a credit below it is
// refused on the screen with both amounts, nothing sent.
func TestPokerLobbyBuyIn(t *testing.T) {
	tables := demo.PokerTables()
	s, c := pokerScreen(t, demo.PokerLobby(), 5000)
	tiles := s.PokerTiles()
	if len(tiles) != PokerLobbyPerPage || s.LobbyPages() != 2 {
		t.Fatalf("%d tiles on the first page of %d", len(tiles), s.LobbyPages())
	}
	nl := tiles[0]
	if nl.Title != tables[0].Title.PT || nl.Game != "Texas hold'em" || nl.Players != "Jogadores 5/10 · Em jogo" || nl.Cave != "100,00 €" {
		t.Errorf("first tile %+v", nl)
	}
	if !slices.Equal(nl.Card, tables[0].Card["pt"]) || len(nl.Card) < 4 {
		t.Errorf("the table card: %q", nl.Card)
	}
	if !nl.Short || !strings.Contains(nl.Note, "100,00 €") {
		t.Errorf("50 € of credit for a cave of 100 €: note %q", nl.Note)
	}
	if tiles[1].Game != "Póquer sintético" {
		t.Errorf("synthetic poker tile: %q", tiles[1].Game)
	}
	if tiles[2].Note != T("pt", "poker_table_full") || button(t, s, "poker:buyin:holdem-fl-1-fee").Enabled {
		t.Errorf("a full table: note %q, its button lit", tiles[2].Note)
	}
	// Below the cave: the touch is answered on the screen.
	clickOn(t, s, "poker:buyin:holdem-nl-2")
	if got := c.take(); len(got) != 0 {
		t.Fatalf("a buy-in above the credit was sent: %v", got)
	}
	msg, warn := s.PokerStatus()
	if !warn || msg != "Crédito insuficiente: a cave desta mesa é 100,00 € e o seu crédito 50,00 €" {
		t.Errorf("refusal %q (warn %v)", msg, warn)
	}
	c.view.Lang = "en"
	s.Update()
	if msg, _ := s.PokerStatus(); !strings.Contains(msg, "€100.00") || !strings.Contains(msg, "€50.00") {
		t.Errorf("the refusal is not in English with the amounts: %q", msg)
	}
	for range noteTicks + 1 {
		s.Update()
	}
	if msg, warn := s.PokerStatus(); warn || msg != T("en", "poker_lobby_hint") {
		t.Errorf("the refusal stays up: %q", msg)
	}
	c.view.Lang = "pt"
	// Enough credit: the cave, exactly, at that table.
	c.view.CreditsCents, c.view.Credits = 60000, 60000
	s.Update()
	clickOn(t, s, "poker:buyin:holdem-nl-2")
	clickOn(t, s, "poker:buyin:sintetico-4-estardilho")
	want := []string{"poker_buyin holdem-nl-2 10000", fmt.Sprint("poker_buyin sintetico-4-estardilho ", tables[1].RequiredCave)}
	if got := c.take(); !slices.Equal(got, want) {
		t.Errorf("calls %v, want %v", got, want)
	}
	// The keys: → to the next table, Enter buys in; → past the page turns it.
	s.Key(KeyRight)
	s.Key(KeyEnter)
	if got := c.take(); !slices.Equal(got, want[1:]) {
		t.Errorf("keys: calls %v, want %v", got, want[1:])
	}
	s.Key(KeyRight)
	s.Key(KeyRight)
	if s.LobbyPage() != 1 || len(s.PokerTiles()) != 1 || s.PokerTiles()[0].Note != T("pt", "poker_table_closed") {
		t.Errorf("second page: %+v", s.PokerTiles())
	}
	s.Key(KeyEnter)
	if got := c.take(); len(got) != 0 {
		t.Errorf("a buy-in at a table out of service: %v", got)
	}
	clickOn(t, s, "lobby_prev")
	if s.LobbyPage() != 0 || button(t, s, "lobby_prev").Enabled || !button(t, s, "lobby_next").Enabled {
		t.Error("the page buttons do not turn the lobby back")
	}
	// A buy-in in progress: no second one, and the line says where the
	// money is going.
	c.view.Poker = &machine.PokerSeatView{Tables: tables, Table: "holdem-nl-2", Status: SeatBuyingIn, AtTable: 10000}
	s.Update()
	if button(t, s, "poker:buyin:sintetico-4-estardilho").Enabled || button(t, s, machine.BtnCashOut).Enabled {
		t.Error("buy-in or cash-out offered while a buy-in is in progress")
	}
	if msg, _ := s.PokerStatus(); !strings.Contains(msg, tables[0].Title.PT) || !strings.Contains(msg, "100,00 €") {
		t.Errorf("buying in: %q", msg)
	}
	// Refused: the reason, and the buttons back.
	c.view.Poker = &machine.PokerSeatView{Tables: tables, Table: "holdem-nl-2", Status: SeatRefused, Refused: "table full"}
	s.Update()
	if msg, warn := s.PokerStatus(); !warn || !strings.Contains(msg, "table full") || !strings.Contains(msg, "recusada") {
		t.Errorf("refused: %q", msg)
	}
	if !button(t, s, "poker:buyin:holdem-nl-2").Enabled {
		t.Error("no buy-in after a refusal")
	}
}

// Which buttons the table shows follows the options the server gives.
func TestPokerButtonsFollowOptions(t *testing.T) {
	seat := demo.PokerToAct()
	s, c := pokerScreen(t, seat, 0)
	if !s.PokerAtTable() || !s.YourTurn() {
		t.Fatal("the table is not on screen with the player to act")
	}
	for _, id := range []string{"poker:fold", "poker:call", "poker:raise_down", "poker:raise_up", "poker:raise", "poker:all_in", "poker:extra", "poker:rest", "poker:leave"} {
		if !hasButton(s, id) {
			t.Errorf("no %s button with call, raise and extra time", id)
		}
	}
	if hasButton(s, "poker:check") || hasButton(s, "poker:accept") {
		t.Error("a check or an offer's button with a bet to call")
	}
	if b := button(t, s, "poker:call"); b.Label != "Acompanhar 4,00 €" {
		t.Errorf("call label %q", b.Label)
	}
	if b := button(t, s, "poker:raise"); b.Label != "Subir para 8,00 €" {
		t.Errorf("raise label %q", b.Label)
	}
	// Nothing to call, no raise (fixed limit capped), no extra time.
	o := seat.State.Options
	o.Check, o.Call, o.Raise, o.Extra = true, 0, false, false
	s.Update()
	for id, want := range map[string]bool{"poker:check": true, "poker:call": false, "poker:raise": false, "poker:raise_up": false,
		"poker:all_in": false, "poker:extra": false, "poker:fold": true} {
		if hasButton(s, id) != want {
			t.Errorf("check only: button %s present %v", id, !want)
		}
	}
	// Opening: a bet, not a raise.
	o.Raise, o.Opening, o.MinTo, o.MaxTo = true, true, 200, 11280
	seat.State.Seats[1].Bet = 0
	s.Update()
	if b := button(t, s, "poker:raise"); b.Label != "Apostar 2,00 €" {
		t.Errorf("opening bet label %q", b.Label)
	}
	// Not his turn: no decision buttons, the line says whose turn it is.
	seat.State.Options, seat.State.ToAct = nil, 3
	s.Update()
	for _, id := range []string{"poker:fold", "poker:check", "poker:call", "poker:raise"} {
		if hasButton(s, id) {
			t.Errorf("%s on screen when it is another player's turn", id)
		}
	}
	if msg, _ := s.PokerStatus(); msg != "Vez de Bruno · 14 s" {
		t.Errorf("turn line %q", msg)
	}
	// An offer: its two answers with the amount in the question.
	off := demo.PokerOffer()
	c.view.Poker = off
	s.Update()
	if !hasButton(s, "poker:accept") || !hasButton(s, "poker:decline") || hasButton(s, "poker:fold") {
		t.Errorf("offer buttons %v", ids(s.Buttons()))
	}
	if b := button(t, s, "poker:accept"); b.Label != "Comprar as cartas" {
		t.Errorf("accept label %q", b.Label)
	}
	if q := s.OfferText(); q != "Comprar as cartas por 5,00 €?" {
		t.Errorf("offer question %q", q)
	}
	off.State.Offer = &seatmsg.OfferMsg{Accept: "estardilho", Decline: "no_estardilho", Amount: 400, Deadline: off.State.NowMS + 5000}
	s.Update()
	if b := button(t, s, "poker:decline"); b.Label != "Sem estardilho" || s.OfferText() != "Estardilho por 4,00 €?" {
		t.Errorf("estardilho offer: %q, %q", b.Label, s.OfferText())
	}
}

// The bet chosen with + and − goes by the smallest raise and never leaves
// min_to..max_to; a new decision starts again at its minimum.
func TestRaiseAmountBounded(t *testing.T) {
	seat := demo.PokerToAct()
	s, c := pokerScreen(t, seat, 0)
	o := seat.State.Options
	if s.RaiseAmount() != o.MinTo || s.RaiseStep() != 400 {
		t.Fatalf("start %d step %d, want %d step 400 (min_to less the bet to call)", s.RaiseAmount(), s.RaiseStep(), o.MinTo)
	}
	if button(t, s, "poker:raise_down").Enabled {
		t.Error("− lit at the minimum")
	}
	clickOn(t, s, "poker:raise_up")
	s.Key(KeyUp)
	if s.RaiseAmount() != 1600 {
		t.Errorf("two steps up: %d, want 1600", s.RaiseAmount())
	}
	for range 100 {
		s.Key(KeyUp)
	}
	if s.RaiseAmount() != o.MaxTo || button(t, s, "poker:raise_up").Enabled {
		t.Errorf("at the top: %d, want max_to %d and + off", s.RaiseAmount(), o.MaxTo)
	}
	s.Key(KeyDown)
	if s.RaiseAmount() != o.MaxTo-400 {
		t.Errorf("one step down from the top: %d", s.RaiseAmount())
	}
	for range 100 {
		clickOn(t, s, "poker:raise_down")
		if !button(t, s, "poker:raise_down").Enabled {
			break
		}
	}
	if s.RaiseAmount() != o.MinTo {
		t.Errorf("at the bottom: %d, want min_to %d", s.RaiseAmount(), o.MinTo)
	}
	clickOn(t, s, "poker:raise_up")
	clickOn(t, s, "poker:raise")
	if got := c.take(); !slices.Equal(got, []string{"poker_act raise 1200 false"}) {
		t.Errorf("calls %v", got)
	}
	// The bounds shrink under a chosen amount (another player went all in
	// for less): what is sent is within the new ones.
	s.Poker.RaiseTo = 50000
	if s.RaiseAmount() != o.MaxTo {
		t.Errorf("a choice above max_to is sent as %d", s.RaiseAmount())
	}
	s.Poker.RaiseTo = 1
	if s.RaiseAmount() != o.MinTo {
		t.Errorf("a choice below min_to is sent as %d", s.RaiseAmount())
	}
	// The next decision starts at its own minimum.
	s.Poker.RaiseTo = 4000
	seat.State.Hand++
	o.MinTo = 600
	s.Update()
	if s.RaiseAmount() != 600 {
		t.Errorf("new decision: %d, want its min_to 600", s.RaiseAmount())
	}
	// Fixed limit: one amount, no steps.
	o.MinTo, o.MaxTo = 800, 800
	s.Update()
	if button(t, s, "poker:raise_up").Enabled || button(t, s, "poker:raise_down").Enabled || s.RaiseAmount() != 800 {
		t.Error("steps offered with min_to = max_to")
	}
}

// Each button and key sends the machine the action of its name.
func TestPokerActionsSent(t *testing.T) {
	seat := demo.PokerToAct()
	s, c := pokerScreen(t, seat, 0)
	clickOn(t, s, "poker:fold")
	clickOn(t, s, "poker:call")
	clickOn(t, s, "poker:all_in")
	clickOn(t, s, "poker:extra")
	clickOn(t, s, "poker:rest")
	s.Key("f")
	s.Key(KeySpin)
	s.Key("t")
	s.Key("e")
	want := []string{"poker_act fold 0 false", "poker_act call 0 false", "poker_act all_in 0 false", "poker_act extra 0 false",
		"poker_act rest 0 true", "poker_act fold 0 false", "poker_act call 0 false", "poker_act all_in 0 false", "poker_act raise 800 false"}
	if got := c.take(); !slices.Equal(got, want) {
		t.Errorf("calls\n got %v\nwant %v", got, want)
	}
	seat.State.Options.Check = true
	s.Update()
	clickOn(t, s, "poker:check")
	s.Key(KeyEnter)
	if got := c.take(); !slices.Equal(got, []string{"poker_act check 0 false", "poker_act check 0 false"}) {
		t.Errorf("check: %v", got)
	}
	// Resting: the same button brings him back.
	seat.State.Seats[0].Resting = true
	s.Update()
	if b := button(t, s, "poker:rest"); b.Label != "Voltar ao jogo" {
		t.Errorf("rest label while resting %q", b.Label)
	}
	clickOn(t, s, "poker:rest")
	clickOn(t, s, "poker:leave")
	if got := c.take(); !slices.Equal(got, []string{"poker_act rest 0 false", "poker_leave"}) {
		t.Errorf("rest and leave: %v", got)
	}
	// Leaving: once asked, the leave button is off and says so.
	seat.Status = SeatCashingOut
	s.Update()
	if b := button(t, s, "poker:leave"); b.Enabled || b.Label != T("pt", "poker_leaving") {
		t.Errorf("leave while cashing out: %+v", b)
	}
	if msg, _ := s.PokerStatus(); !strings.Contains(msg, "fim desta mão") {
		t.Errorf("cashing out line %q", msg)
	}
	// The offer's answers, by touch and by key.
	c.view.Poker = demo.PokerOffer()
	s.Update()
	clickOn(t, s, "poker:accept")
	clickOn(t, s, "poker:decline")
	s.Key("y")
	s.Key("n")
	s.Key("f") // no fold button during an offer
	want = []string{"poker_act ante 0 false", "poker_act no_ante 0 false", "poker_act ante 0 false", "poker_act no_ante 0 false"}
	if got := c.take(); !slices.Equal(got, want) {
		t.Errorf("offer: %v", got)
	}
}

// The seats: every one inside the felt, none over another, for the table
// sizes of both games; his own cards face up, the others' in the hand
// face down, the folded player's none; the marks of each seat.
func TestPokerSeats(t *testing.T) {
	for _, n := range []int{2, 6, 10, 11} {
		for i := range n {
			r := PokerSeatRect(i, n)
			if r.X < RectPokerFelt.X || r.Y < RectPokerFelt.Y || r.X+r.W > RectPokerFelt.X+RectPokerFelt.W || r.Y+r.H > RectPokerFelt.Y+RectPokerFelt.H {
				t.Errorf("%d seats: seat %d %+v outside the felt", n, i+1, r)
			}
			for j := range i {
				o := PokerSeatRect(j, n)
				if r.X < o.X+o.W && o.X < r.X+r.W && r.Y < o.Y+o.H && o.Y < r.Y+r.H {
					t.Errorf("%d seats: seat %d %+v over seat %d %+v", n, i+1, r, j+1, o)
				}
			}
			for k := range 5 {
				if b := BoardSlot(k); r.X < b.X+b.W && b.X < r.X+r.W && r.Y < b.Y+b.H && b.Y < r.Y+r.H {
					t.Errorf("%d seats: seat %d over the board's card %d", n, i+1, k+1)
				}
			}
		}
	}
	s, _ := pokerScreen(t, demo.PokerToAct(), 0)
	seats := s.PokerSeats()
	if len(seats) != 10 {
		t.Fatalf("%d seats at a table of 10", len(seats))
	}
	me, bruno, carla, duarte, eva := seats[0], seats[2], seats[3], seats[5], seats[7]
	if !me.You || !me.ToAct || me.Stack != "112,80 €" || len(me.Cards) != 2 || !me.Cards[0].Up || me.Cards[0].Card.String() != "QH" {
		t.Errorf("his seat %+v", me)
	}
	if len(bruno.Cards) != 2 || bruno.Cards[0].Up || bruno.BetText != "4,00 €" || bruno.You {
		t.Errorf("another player in the hand: %+v", bruno)
	}
	if !carla.Folded || len(carla.Cards) != 0 || !slices.Contains(carla.Badges, "Desistiu") {
		t.Errorf("folded %+v", carla)
	}
	if !duarte.Dealer || me.Dealer || s.DealerMark() != "B" {
		t.Errorf("dealer: Duarte %v, him %v, mark %q", duarte.Dealer, me.Dealer, s.DealerMark())
	}
	if len(eva.Cards) != 0 || !slices.Contains(eva.Badges, "Descanso") {
		t.Errorf("resting %+v", eva)
	}
	if !seats[1].Empty || seats[1].Seat != 2 {
		t.Errorf("seat 2 is empty: %+v", seats[1])
	}
	if b := s.PokerBoard(); len(b) != 3 || b[0].R != BoardSlot(0) || !b[2].Up {
		t.Errorf("board %+v", b)
	}
	if own := s.OwnCards(); len(own) != 2 || own[1].Card.String() != "QS" {
		t.Errorf("own cards %+v", own)
	}
	// Two pots and nobody all in: one pot line.
	if p := s.PotsText(); p != "Pote: 14,00 €" {
		t.Errorf("pots %q", p)
	}
	// The showdown: the cards shown face up, the pots split once a
	// player is all in.
	s2, c2 := pokerScreen(t, demo.PokerShowdown(), 0)
	for _, sp := range s2.PokerSeats() {
		if sp.Player == "Duarte" && (len(sp.Cards) != 2 || !sp.Cards[0].Up || sp.Cards[0].Card.String() != "AC") {
			t.Errorf("a shown hand is not face up: %+v", sp)
		}
		if sp.Player == "Bruno" && !slices.Contains(sp.Badges, "Tudo") {
			t.Errorf("all in without its mark: %+v", sp)
		}
	}
	c2.view.Poker.State.Pots = []int64{3000, 1600}
	s2.Update()
	if p := s2.PotsText(); p != "Pote: 30,00 € · Pote lateral 1: 16,00 €" {
		t.Errorf("side pots %q", p)
	}
}

// The decision timer counts down from the server's now_ms by the
// screen's ticks, starts again from each new state, and stops at zero.
func TestPokerTimer(t *testing.T) {
	seat := demo.PokerToAct()
	s, _ := pokerScreen(t, seat, 0)
	seatNo, left, total, ok := s.PokerTimer()
	if !ok || seatNo != 1 || left != 14_000 || total != 20_000 {
		t.Fatalf("timer %d %d %d %v", seatNo, left, total, ok)
	}
	if msg, _ := s.PokerStatus(); msg != "É a sua vez · 14 s" {
		t.Errorf("turn line %q", msg)
	}
	for range 90 { // 1.5 s of ticks
		s.Update()
	}
	if _, left, _, _ = s.PokerTimer(); left != 12_500 {
		t.Errorf("after 90 ticks: %d ms left, want 12500", left)
	}
	if msg, _ := s.PokerStatus(); msg != "É a sua vez · 13 s" {
		t.Errorf("turn line %q", msg)
	}
	// A new state from the server: its clock again.
	seat.State.NowMS += 10_000
	s.Update()
	if _, left, _, _ = s.PokerTimer(); left != 4_000 {
		t.Errorf("after the server's next state: %d ms left, want 4000", left)
	}
	for range 600 {
		s.Update()
	}
	if _, left, _, _ = s.PokerTimer(); left != 0 {
		t.Errorf("past the deadline: %d ms left", left)
	}
	// An offer's own deadline, on this seat.
	off := demo.PokerOffer()
	s2, _ := pokerScreen(t, off, 0)
	if seatNo, left, total, ok := s2.PokerTimer(); !ok || seatNo != 4 || left != 9_000 || total != int64(off.State.Table.DecisionSeconds)*1000 {
		t.Errorf("offer timer %d %d %d %v", seatNo, left, total, ok)
	}
	// Nobody deciding: no timer.
	s3, _ := pokerScreen(t, demo.PokerShowdown(), 0)
	if _, _, _, ok := s3.PokerTimer(); ok {
		t.Error("a timer with nobody to act")
	}
}

// The last hand's result: the cards shown with their value in the
// language, each pot paid with its commission, his own win marked.
func TestPokerLastHand(t *testing.T) {
	s, c := pokerScreen(t, demo.PokerShowdown(), 0)
	lines := s.PokerLastHand()
	var texts []string
	for _, l := range lines {
		texts = append(texts, l.Text)
	}
	want := []string{
		"ÚLTIMA MÃO 43",
		"EGM-0042 mostra trio: J♣ J♦ J♥ 10♥ 8♦",
		"Bruno mostra sequência: Q♥ J♥ 10♥ 9♥ 8♦",
		"Duarte mostra um par: A♣ A♦ J♥ 10♥ 8♦",
		"Bruno ganha 28,50 € (pote de 30,00 €, comissão 1,50 €)",
		"EGM-0042 ganha 15,20 € (pote lateral 1 de 16,00 €, comissão 0,80 €)",
	}
	if !slices.Equal(texts, want) {
		t.Errorf("last hand\n got %q\nwant %q", texts, want)
	}
	if lines[1].Cards[0].String() != "JC" || lines[4].Won || !lines[5].Won {
		t.Errorf("cards %v, won %v %v", lines[1].Cards, lines[4].Won, lines[5].Won)
	}
	c.view.Lang = "en"
	s.Update()
	if got := s.PokerLastHand()[2].Text; got != "Bruno shows straight: Q♥ J♥ 10♥ 9♥ 8♦" {
		t.Errorf("English %q", got)
	}
	if got := HandValueText("en", "figuras com pares: AS AH KS KH QC"); got != "figures with two pairs: A♠ A♥ K♠ K♥ Q♣" {
		t.Errorf("figures: %q", got)
	}
	if got := HandValueText("en", "something new"); got != "something new" {
		t.Errorf("an unknown value is changed: %q", got)
	}
	// A pó and a void.
	st := c.view.Poker.State
	st.Last = append(st.Last[:1], poker.Record{Kind: poker.KindCarry, Hand: 43, Amount: 1200}, poker.Record{Kind: poker.KindVoid, Hand: 43})
	s.Update()
	if got := s.PokerLastHand(); len(got) != 3 || !strings.Contains(got[1].Text, "€12.00") || got[2].Text != T("en", "poker_void") {
		t.Errorf("carry and void %+v", got)
	}
}

// The seat's transfers on the line: refused with the reason, connecting,
// and the session's figures in the side panel.
func TestPokerStatusLines(t *testing.T) {
	seat := demo.PokerToAct()
	s, c := pokerScreen(t, seat, 2500)
	sess := s.PokerSession()
	want := []TableMeter{{"Fichas na mesa", "112,80 €"}, {"Levado para a mesa", "100,00 €"}, {"Apostado", "31,00 €"}, {"Ganho em potes", "43,80 €"},
		{"Resultado até agora", "+12,80 €"}, {"Mãos jogadas", "12"}, {"Crédito na máquina", "25,00 €"}}
	if !slices.Equal(sess, want) {
		t.Errorf("session\n got %+v\nwant %+v", sess, want)
	}
	// A fee table's commission, and a loss so far (a re-buy counted in
	// what he brought).
	seat.State.You.Totals.Fees, seat.State.You.Totals.BoughtIn = 500, 15000
	s.Update()
	sess = s.PokerSession()
	if len(sess) != 8 || sess[4] != (TableMeter{"Comissão de entrada", "5,00 €"}) || sess[5] != (TableMeter{"Resultado até agora", "−37,20 €"}) {
		t.Errorf("session with a fee and a loss %+v", sess)
	}
	// Seated, no state yet: the lobby says it is connecting.
	c.view.Poker = &machine.PokerSeatView{Tables: seat.Tables, Table: "holdem-nl-2", Status: SeatSeated, AtTable: 10000}
	s.Update()
	if s.PokerAtTable() {
		t.Error("the table without a state")
	}
	if msg, _ := s.PokerStatus(); !strings.Contains(msg, "A ligar") || !strings.Contains(msg, seat.Tables[0].Title.PT) {
		t.Errorf("connecting %q", msg)
	}
	// A machine's message comes before the seat's line.
	c.view.Message = machine.Message{Key: "refused_insufficient_credit"}
	s.Update()
	if msg, warn := s.PokerStatus(); !warn || msg != T("pt", "refused_insufficient_credit") {
		t.Errorf("machine message %q", msg)
	}
}

// Every text the poker screens use has both languages: the keys in
// poker.go, and those built from the server's table statuses, the games'
// names and the synthetic game's offers, found in their source so a new
// one fails here until translated.
func TestCatalogueHasPokerTexts(t *testing.T) {
	keys := sourceKeys(t, "poker*.go", regexp.MustCompile(`"(poker_[a-z_]+[a-z])"`))
	if len(keys) < 90 {
		t.Fatalf("found %d keys in poker.go: the scan is broken", len(keys))
	}
	for _, k := range keys {
		checkBoth(t, k, slices.Repeat([]string{"1"}, max(verbs(k), 1))...)
	}
	for _, st := range sourceKeys(t, "../../poker/tableserver/view.go", regexp.MustCompile(`return "([a-z]+)"`)) {
		checkBoth(t, "poker_status_"+st)
	}
	for _, g := range sourceKeys(t, "../../poker/tabledef/tabledef.go", regexp.MustCompile(`Game = "([a-z_]+)"`)) {
		checkBoth(t, "poker_game_"+g)
	}
	for _, k := range sourceKeys(t, "../../poker/synthetic/table.go", regexp.MustCompile(`poker.ActionKind = "([a-z_]+)"`)) {
		checkBoth(t, "poker_kind_"+k)
	}
	for _, k := range []string{"menu_poker", "sim_poker_keys", "sim_lobby_keys", "poker_session", "poker_your_cards", "poker_cave_now", "poker_no_last_hand", "poker_hand_no"} {
		checkBoth(t, k, "1")
	}
}

// PROMO credit never goes to a table: the lobby counts the credit without
// it, and says why a buy-in is short.
func TestPokerLobbyLeavesPromoOut(t *testing.T) {
	s, c := pokerScreen(t, demo.PokerLobby(), 5000)
	c.view.CreditsCents, c.view.Credits, c.view.RestrictedCents = 12000, 12000, 3000
	s.Update()
	if nl := s.PokerTiles()[0]; !nl.Short {
		t.Errorf("120 € of credit, 30 € of it PROMO, for a cave of 100 €: the tile is not short (%q)", nl.Note)
	}
	clickOn(t, s, "poker:buyin:holdem-nl-2")
	if got := c.take(); len(got) != 0 {
		t.Fatalf("a buy-in with PROMO credit in it was sent: %v", got)
	}
	if msg, warn := s.PokerStatus(); !warn || msg != "Crédito insuficiente: a cave desta mesa é 100,00 € e pode levar para a mesa 90,00 € (o crédito PROMO não vai para a mesa)" {
		t.Errorf("refusal %q (warn %v)", msg, warn)
	}
	c.view.RestrictedCents = 2000
	s.Update()
	clickOn(t, s, "poker:buyin:holdem-nl-2")
	if got := c.take(); !slices.Equal(got, []string{"poker_buyin holdem-nl-2 10000"}) {
		t.Errorf("100 € that may go to the table: calls %v", got)
	}
}
