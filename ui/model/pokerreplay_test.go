package model

import (
	"slices"
	"strings"
	"testing"

	"github.com/openegm/cabinet/machine"
	"github.com/openegm/cabinet/poker"
	"github.com/openegm/cabinet/poker/seatmsg"
	"github.com/openegm/cabinet/ui/demo"
)

// replayAsked is the seat at the table with the replay asked by its
// button; the server's answer is the returned one, not yet in the view.
func replayAsked(t *testing.T) (*Screen, *fakeCabinet, *machine.PokerSeatView, *seatmsg.ReplayMsg) {
	t.Helper()
	seat := demo.PokerReplay()
	answer := seat.Replay
	seat.Replay, seat.ReplaySeq = nil, 0
	s, c := pokerScreen(t, seat, 2500)
	clickOn(t, s, "poker:replay")
	if got := c.take(); !slices.Equal(got, []string{"poker_act replay 0 false"}) {
		t.Fatalf("the replay button sent %v", got)
	}
	return s, c, seat, answer
}

// The replay: asked by its button, shown once the server's answer is
// here, the latest hand first, frame by frame with the records in words,
// the player's own cards and the others' only once shown; the steps and
// the hands stop at their ends; nothing is sent but the asking and the
// closing.
func TestPokerReplaySteps(t *testing.T) {
	s, c, seat, answer := replayAsked(t)
	if !s.ReplayUp() || !s.ReplayWaiting() {
		t.Fatalf("after asking: up %v waiting %v", s.ReplayUp(), s.ReplayWaiting())
	}
	if msg, _ := s.PokerStatus(); msg != T("pt", "poker_replay_asking") {
		t.Errorf("while asking: %q", msg)
	}
	if _, ok := s.PokerReplay(); ok || button(t, s, "poker:replay_next").Enabled {
		t.Error("a frame or a step before the answer")
	}
	seat.Replay, seat.ReplaySeq = answer, 1
	s.Update()
	sc, ok := s.PokerReplay()
	if !ok || sc.Hand != 40 || sc.HandNo != 3 || sc.Hands != 3 || sc.Frame != 1 || sc.Frames != 20 {
		t.Fatalf("the answer: %+v (ok %v)", sc, ok)
	}
	if sc.Text != "Mão 40: o botão no lugar 1" || s.ReplayCounter() != "Passo 1 de 20" || s.ReplayHandText() != "Mão 40 · 3 de 3" {
		t.Errorf("first frame %q, counter %q, hand %q", sc.Text, s.ReplayCounter(), s.ReplayHandText())
	}
	if !sc.Seats[0].Dealer || len(sc.Seats) != 10 || !sc.Seats[1].Empty || sc.Seats[2].Player != "Bruno" || len(sc.Own) != 0 {
		t.Errorf("first frame's seats %+v, own %+v", sc.Seats, sc.Own)
	}
	if button(t, s, "poker:replay_prev").Enabled || button(t, s, "poker:replay_hand_next").Enabled || !button(t, s, "poker:replay_hand_prev").Enabled {
		t.Error("back or the next hand lit at the latest hand's first frame")
	}
	// Bruno is dealt: two backs at his seat, his cards not shown.
	clickOn(t, s, "poker:replay_next")
	sc, _ = s.PokerReplay()
	if sc.Text != "Bruno recebe as cartas" || len(sc.Seats[2].Cards) != 2 || sc.Seats[2].Cards[0].Up || !sc.Seats[2].ToAct {
		t.Errorf("Bruno dealt: %q, his seat %+v", sc.Text, sc.Seats[2])
	}
	// His own cards, large and at his seat.
	s.Key(KeyRight)
	s.Key(KeyRight)
	sc, _ = s.PokerReplay()
	if sc.Text != "Recebe A♥ K♥" || len(sc.Own) != 2 || sc.Own[0].Card.String() != "AH" || !sc.Seats[0].Cards[1].Up || !sc.Seats[0].You {
		t.Errorf("his deal: %q, own %+v", sc.Text, sc.Own)
	}
	// Blinds and his raise: bets, pot, the records so far.
	for range 3 {
		s.Key(KeyRight)
	}
	sc, _ = s.PokerReplay()
	if sc.Text != "EGM-0042 sobe para 6,00 €" || sc.Pot != "Pote: 9,00 €" || sc.Seats[0].BetText != "6,00 €" || sc.Seats[0].Stack != "88,90 €" || len(sc.Log) != 7 {
		t.Errorf("his raise: %q, pot %q, seat %+v, %d lines", sc.Text, sc.Pot, sc.Seats[0], len(sc.Log))
	}
	if sc.Log[4].Text != "Bruno põe a aposta cega pequena, 1,00 €" || sc.Log[5].Text != "Duarte põe a aposta cega grande, 2,00 €" {
		t.Errorf("the blinds in words: %+v", sc.Log[4:6])
	}
	// To the end, and no further.
	for range 30 {
		clickOn(t, s, "poker:replay_next")
		if !button(t, s, "poker:replay_next").Enabled {
			break
		}
	}
	sc, _ = s.PokerReplay()
	if sc.Frame != 20 || sc.Text != "Fim da mão 40" || len(sc.Board) != 4 || sc.Seats[0].Stack != "108,45 €" || !sc.Seats[5].Folded {
		t.Errorf("the last frame %d %q, board %d, his stack %q", sc.Frame, sc.Text, len(sc.Board), sc.Seats[0].Stack)
	}
	if got := sc.Log[len(sc.Log)-3].Text; got != "EGM-0042 recebe de volta 15,00 € não acompanhados" {
		t.Errorf("the uncalled bet: %q", got)
	}
	if got := sc.Log[len(sc.Log)-2]; !got.Won || !strings.Contains(got.Text, "27,55 €") {
		t.Errorf("his win %+v", got)
	}
	s.Key(KeyRight)
	if sc2, _ := s.PokerReplay(); sc2.Frame != 20 {
		t.Errorf("a step past the end: frame %d", sc2.Frame)
	}
	s.Key(KeyLeft)
	if sc2, _ := s.PokerReplay(); sc2.Frame != 19 {
		t.Errorf("one step back from the end after steps past it: frame %d", sc2.Frame)
	}
	s.Key(KeyRight)
	// The hand before: its first frame; its showdown shows Bruno's cards.
	s.Key(KeyUp)
	sc, _ = s.PokerReplay()
	if sc.Hand != 39 || sc.Frame != 1 || sc.HandNo != 2 {
		t.Fatalf("the hand before: %+v", sc)
	}
	for sc.Record().Kind != poker.KindShow || sc.Seats[2].Player != "Bruno" || len(sc.Seats[2].Cards) == 0 || !sc.Seats[2].Cards[0].Up {
		if sc.Frame == sc.Frames {
			t.Fatal("Bruno's cards are never shown in hand 39")
		}
		s.Key(KeyRight)
		sc, _ = s.PokerReplay()
	}
	if sc.Text != "Bruno mostra sequência: Q♥ J♥ 10♥ 9♥ 8♦" {
		t.Errorf("the showdown %q", sc.Text)
	}
	clickOn(t, s, "poker:replay_hand_prev")
	if button(t, s, "poker:replay_hand_prev").Enabled {
		t.Error("a hand before the oldest")
	}
	if sc, _ := s.PokerReplay(); sc.Hand != 38 {
		t.Errorf("the oldest hand: %d", sc.Hand)
	}
	c.view.Lang = "en"
	s.Update()
	s.Key(KeyDown)
	s.Key(KeyDown)
	for range 6 {
		s.Key(KeyRight)
	}
	if sc, _ := s.PokerReplay(); sc.Text != "EGM-0042 raises to €6.00" {
		t.Errorf("English: %q", sc.Text)
	}
	if got := c.take(); len(got) != 0 {
		t.Fatalf("stepping the replay sent %v", got)
	}
	// His turn at the live table: the line says so.
	seat.State.ToAct, seat.State.Options = 1, &seatmsg.OptionsMsg{Call: 400, Raise: true, MinTo: 800, MaxTo: 11280}
	seat.State.Deadline = seat.State.NowMS + 9000
	s.Update()
	if msg, warn := s.PokerStatus(); !warn || !strings.HasPrefix(msg, "Your turn at the table (9 s)") {
		t.Errorf("his turn under the replay: %q (warn %v)", msg, warn)
	}
	if hasButton(s, "poker:fold") {
		t.Error("decisions under the replay")
	}
	// Closed: the table, and the machine told.
	s.Key(KeyEscape)
	if s.ReplayUp() || !hasButton(s, "poker:fold") {
		t.Error("the replay stays after Esc")
	}
	if got := c.take(); !slices.Equal(got, []string{"poker_act close_replay 0 false"}) {
		t.Errorf("closing sent %v", got)
	}
	// Asked again with the last answer still in the view: it waits for
	// the new one.
	seat.State.ToAct, seat.State.Options = 3, nil
	s.Update()
	clickOn(t, s, "poker:replay")
	if !s.ReplayWaiting() {
		t.Error("the last answer taken for the new one")
	}
	seat.ReplaySeq = 2
	s.Update()
	if sc, ok := s.PokerReplay(); !ok || sc.Hand != 40 || sc.Frame != 1 {
		t.Errorf("the new answer: %+v", sc)
	}
}

// Record is the frame's record kind, for the tests.
func (sc ReplayScene) Record() poker.Record {
	if len(sc.Log) == 0 {
		return poker.Record{}
	}
	return poker.Record{Kind: sc.Log[len(sc.Log)-1].Kind}
}

// The summary of the ended session: the server's totals, the result, what
// came back to the credit, in both languages, until the player closes it.
func TestPokerSessionSummary(t *testing.T) {
	seat := demo.PokerEnded()
	s, c := pokerScreen(t, seat, 10845)
	if !s.EndedUp() || !strings.Contains(s.EndedTitle(), "SESSÃO TERMINADA") || !strings.Contains(s.EndedTitle(), seat.Tables[0].Title.PT) {
		t.Fatalf("summary up %v, title %q", s.EndedUp(), s.EndedTitle())
	}
	want := []TableMeter{{"Mãos jogadas", "14"}, {"Entradas e reposições", "100,00 €"}, {"Comissão de entrada", "0,00 €"},
		{"Apostado", "69,00 €"}, {"Ganho em potes", "77,45 €"}, {"Levantado da mesa", "108,45 €"}, {"Ganho da sessão", "+8,45 €"},
		{"Devolvido ao crédito", "108,45 €"}, {"Crédito na máquina", "108,45 €"}}
	if got := s.EndedRows(); !slices.Equal(got, want) {
		t.Errorf("rows\n got %+v\nwant %+v", got, want)
	}
	if s.EndedNote() != "" || hasButton(s, "poker:buyin:holdem-nl-2") || !hasButton(s, "poker:ended_close") {
		t.Errorf("note %q, buttons %v", s.EndedNote(), ids(s.Buttons()))
	}
	// A loss, with fees, the totals not yet the server's; in English.
	seat.Ended.Totals = poker.Totals{BoughtIn: 12000, Fees: 600, Wagered: 9000, Won: 2000, Hands: 9, CashedOut: 4500}
	seat.Ended.Amount, seat.Ended.Server = 4500, false
	c.view.Lang = "en"
	s.Update()
	rows := s.EndedRows()
	if rows[2] != (TableMeter{"Buy-in fees", "€6.00"}) || rows[6] != (TableMeter{"Session loss", "−€75.00"}) || rows[7].Value != "€45.00" {
		t.Errorf("a loss: %+v", rows)
	}
	if s.EndedNote() == "" {
		t.Error("totals not the server's are not said to be so")
	}
	// Closed by Enter: the machine told, the lobby back at once.
	s.Key(KeyEnter)
	if s.EndedUp() || !hasButton(s, "poker:buyin:holdem-nl-2") {
		t.Error("the summary stays after Enter")
	}
	if got := c.take(); !slices.Equal(got, []string{"poker_act close_ended 0 false"}) {
		t.Errorf("closing sent %v", got)
	}
	// A later session's summary comes up again.
	seat.Ended = &machine.PokerSessionEnd{Table: "holdem-nl-2", Transfer: "out:other:1", Amount: 100, Server: true}
	s.Update()
	if !s.EndedUp() {
		t.Error("the next session's summary is not shown")
	}
	clickOn(t, s, "poker:ended_close")
	// Seated again: no summary over the table.
	seat2 := demo.PokerReplay()
	seat2.Ended = &machine.PokerSessionEnd{Table: "holdem-nl-2", Transfer: "out:third:1"}
	c.view.Poker = seat2
	s.Update()
	if s.EndedUp() {
		t.Error("a summary over the table he sits at")
	}
}

// The re-buy: between the table's minimum re-buy and the credit that may
// go to a table (never PROMO), by minimum re-buys; a credit below the
// minimum refused on the screen; a refusal of the server's said in both
// languages with its rule.
func TestPokerRebuyBounds(t *testing.T) {
	seat := demo.PokerReplay()
	seat.Replay = nil
	s, c := pokerScreen(t, seat, 8500)
	clickOn(t, s, "poker:rebuy")
	lo, hi, ok := s.RebuyBounds()
	if !ok || lo != 2000 || hi != 8500 || s.RebuyAmount() != 2000 || !s.RebuyUp() {
		t.Fatalf("bounds %d..%d (%v), amount %d", lo, hi, ok, s.RebuyAmount())
	}
	if msg, _ := s.PokerStatus(); msg != "Reposição: no mínimo 20,00 €, até 85,00 € do seu crédito" {
		t.Errorf("bounds line %q", msg)
	}
	// By minimum re-buys, the last step up to the whole credit, and back.
	up, down := func() { s.Key(KeyUp) }, func() { s.Key(KeyDown) }
	for i, st := range []struct {
		do       func()
		want     int64
		up, down bool // the buttons lit after it
	}{
		{func() {}, 2000, true, false},
		{func() { clickOn(t, s, "poker:rebuy_up") }, 4000, true, true},
		{up, 6000, true, true}, {up, 8000, true, true}, {up, 8500, false, true}, {up, 8500, false, true},
		{down, 6500, true, true},
	} {
		st.do()
		if got := s.RebuyAmount(); got != st.want || button(t, s, "poker:rebuy_up").Enabled != st.up || button(t, s, "poker:rebuy_down").Enabled != st.down {
			t.Errorf("step %d: %d, + %v − %v; want %d, %v %v", i, got, button(t, s, "poker:rebuy_up").Enabled, button(t, s, "poker:rebuy_down").Enabled, st.want, st.up, st.down)
		}
	}
	if b := button(t, s, "poker:rebuy_ok"); b.Label != "Repor 65,00 €" {
		t.Errorf("confirm %q", b.Label)
	}
	// The credit falls under the choice (another cash-out, say): what is
	// sent is within the new bounds.
	c.view.CreditsCents, c.view.Credits = 5000, 5000
	s.Update()
	clickOn(t, s, "poker:rebuy_ok")
	if got := c.take(); !slices.Equal(got, []string{"poker_buyin holdem-nl-2 5000"}) {
		t.Errorf("re-buy sent %v", got)
	}
	if s.RebuyUp() {
		t.Error("the choice stays after the re-buy is asked")
	}
	// PROMO credit does not count: below the minimum, refused here.
	c.view.CreditsCents, c.view.Credits, c.view.RestrictedCents = 8500, 8500, 7000
	s.Update()
	clickOn(t, s, "poker:rebuy")
	if got := c.take(); len(got) != 0 || s.RebuyUp() {
		t.Fatalf("a re-buy with PROMO credit: sent %v, choice up %v", got, s.RebuyUp())
	}
	if msg, warn := s.PokerStatus(); !warn || msg != "Crédito insuficiente: a reposição mínima desta mesa é 20,00 € e pode levar para a mesa 15,00 € (o crédito PROMO não vai para a mesa)" {
		t.Errorf("refusal %q", msg)
	}
	// A decision closes the choice.
	c.view.RestrictedCents = 0
	s.Update()
	clickOn(t, s, "poker:rebuy")
	seat.State.ToAct, seat.State.Options = 1, &seatmsg.OptionsMsg{Check: true}
	s.Update()
	if s.RebuyUp() || !hasButton(s, "poker:check") {
		t.Error("the re-buy's choice over a decision")
	}
	// Leaving: no re-buy.
	seat.State.ToAct, seat.State.Options = 3, nil
	seat.Status = SeatCashingOut
	s.Update()
	if button(t, s, "poker:rebuy").Enabled {
		t.Error("a re-buy offered while leaving")
	}
	// The server refused one: why, in both languages, with its rule.
	seat.Status = SeatSeated
	seat.Refused = `player "EGM-0042": no re-buy during a hand he plays (rule 14 b) (HTTP 409)`
	c.view.Message = machine.Message{Key: "msg_poker_buyin_refused", Args: []int64{2000}}
	s.Update()
	if msg, warn := s.PokerStatus(); !warn || msg != "A mesa recusou a reposição de 20,00 €: não há reposições durante uma mão em que joga (regra 14 b). O crédito ficou na máquina." {
		t.Errorf("refused (pt) %q", msg)
	}
	c.view.Lang = "en"
	s.Update()
	if msg, _ := s.PokerStatus(); msg != "The table refused the re-buy of €20.00: no re-buy during a hand you play (rule 14 b). The credit stayed on the machine." {
		t.Errorf("refused (en) %q", msg)
	}
	if got := RefusalText("pt", "table closed (HTTP 409)"); got != "table closed (HTTP 409)" {
		t.Errorf("an unknown reason is changed: %q", got)
	}
	if got := RefusalText("pt", `player "x": a re-buy of 100 is below the minimum 2000 (rule 17)`); got != "abaixo da reposição mínima da mesa (regra 17)" {
		t.Errorf("below the minimum: %q", got)
	}
}
