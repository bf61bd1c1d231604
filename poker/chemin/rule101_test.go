package chemin_test

import (
	"slices"
	"testing"

	"github.com/openegm/cabinet/poker"
	"github.com/openegm/cabinet/poker/chemin"
)

// fourBets: ana's bank of 2000, bia 500, caio 700, duda 700, eva what is
// left, 100. By stake, then seat from the banker's right, the cards would
// go to caio, duda, bia, eva (rules 60, 61).
func fourBets(s *script) {
	s.t.Helper()
	s.openBets(2000)
	s.act("bia", chemin.Bet, 500)
	s.act("caio", chemin.Bet, 700)
	s.act("duda", chemin.Bet, 700)
	s.act("eva", chemin.Bet, 100)
}

func choiceKinds(v chemin.View) []poker.ActionKind {
	var ks []poker.ActionKind
	for _, c := range v.Choices {
		ks = append(ks, c.Kind)
	}
	return ks
}

// A ponto who does not know the game declines the cards (rule 101): they
// go to the next by stake, then seat; the last of them takes them without
// being asked; every declined stake stays in the coup and is paid with it;
// the coup replays from its records.
func TestDeclinedCardsGoToTheNextByStakeThenSeat(t *testing.T) {
	s := newScript(t, rules(), five, burn+coup("9C KD", "2S AH"))
	fourBets(s)
	s.expect("caio", chemin.Cards)
	if v := s.tb.View("caio"); v.Ponto != 3 || !slices.Equal(choiceKinds(v), []poker.ActionKind{chemin.PlayCards, chemin.PassCards}) {
		t.Fatalf("caio asked: ponto %d, choices %v", v.Ponto, choiceKinds(v))
	}
	if v := s.tb.View("duda"); len(v.Choices) != 0 || len(v.PontoCards) != 0 {
		t.Fatalf("duda, not asked, has choices %v and cards %v", v.Choices, v.PontoCards)
	}
	s.noAct("duda", chemin.PassCards, 0, "not his decision")
	if recs := s.act("caio", chemin.PassCards); len(find(recs, poker.KindDeal)) != 0 || !said(recs, chemin.MsgCardsPassed) {
		t.Fatalf("cards dealt as caio declined them: %+v", recs)
	}
	s.expect("duda", chemin.Cards) // the equal stake, the next seat
	s.act("duda", chemin.PassCards)
	s.expect("bia", chemin.Cards)
	recs := s.act("bia", chemin.PassCards)
	if d := find(recs, poker.KindDeal); len(d) != 2 || d[0].Seat != 5 || d[0].Player != "eva" {
		t.Fatalf("the last in priority takes the cards: %+v", d)
	}
	var passed []string
	for _, r := range s.all {
		if r.Kind == poker.KindAct && r.Action == string(chemin.PassCards) {
			passed = append(passed, r.Player)
		}
	}
	if !slices.Equal(passed, []string{"caio", "duda", "bia"}) {
		t.Fatalf("declines recorded: %v", passed)
	}
	// Eva's nine wins for every ponto, each paid twice his stake.
	aw := find(recs, poker.KindAward)
	want := []poker.Share{{Seat: 2, Amount: 1000}, {Seat: 3, Amount: 1400}, {Seat: 4, Amount: 1400}, {Seat: 5, Amount: 200}}
	if len(aw) != 1 || aw[0].Action != "ponto" || !slices.Equal(aw[0].Shares, want) {
		t.Fatalf("award %+v, want shares %+v", aw, want)
	}
	if s.stack("caio") != 100700 || s.stack("ana") != 98000 {
		t.Fatalf("stacks: caio %d, ana %d", s.stack("caio"), s.stack("ana"))
	}
	last := s.tb.LastHands("caio")
	frames, err := chemin.ReplayCoup(last[len(last)-1], "eva")
	if err != nil {
		t.Fatal(err)
	}
	for _, fr := range frames {
		if fr.Record.Kind == poker.KindDeal && fr.Record.Seat == 5 && len(fr.PontoCards) != 2 {
			t.Fatalf("eva's replay does not show her cards: %+v", fr)
		}
	}
}

// A declined stake loses with the coup: the banker wins every stake.
func TestDeclinedStakeLosesWithTheCoup(t *testing.T) {
	s := newScript(t, rules(), five, burn+coup("2C 3D", "8S KH"))
	fourBets(s)
	s.act("caio", chemin.PassCards)
	recs := s.act("duda", chemin.PlayCards)
	if d := find(recs, poker.KindDeal); len(d) != 2 || d[0].Seat != 4 {
		t.Fatalf("the cards go to duda: %+v", d)
	}
	if aw := find(recs, poker.KindAward); len(aw) != 1 || aw[0].Action != "banker" || aw[0].Amount != 2000 {
		t.Fatalf("award %+v", aw)
	}
	if s.stack("caio") != 99300 || s.stack("duda") != 99300 {
		t.Fatalf("stacks: caio %d, duda %d", s.stack("caio"), s.stack("duda"))
	}
}

// At the timer the ponto plays the cards, as he did before rule 101 was
// offered.
func TestCardsTimeoutPlays(t *testing.T) {
	s := newScript(t, rules(), five, burn+coup("9C KD", "2S AH"))
	fourBets(s)
	recs := s.timeout()
	if said(recs, chemin.MsgCardsPassed) {
		t.Fatal("the timer passed the cards")
	}
	acts := find(recs, poker.KindAct)
	if len(acts) != 1 || acts[0].Action != string(chemin.PlayCards) || !acts[0].Timeout || acts[0].Player != "caio" {
		t.Fatalf("the timer's decision: %+v", acts)
	}
	if d := find(recs, poker.KindDeal); len(d) != 2 || d[0].Seat != 3 {
		t.Fatalf("the cards go to caio: %+v", d)
	}
}

// In a bancô the ponto is not asked to decline (the rule's own exception;
// he is asked on every total instead, rule 70); nor is a lone stake, which
// has nobody to pass them to.
func TestCardsNotOfferedInABancoNorToALoneStake(t *testing.T) {
	s := newScript(t, rules(), five, burn+coup("2C 4D", "3S 4H")+coup("2C 4D", "3S 4H"))
	s.deal()
	s.act("ana", chemin.Bank, 1000)
	recs := s.act("bia", chemin.Banco)
	if d := find(recs, poker.KindDeal); len(d) != 2 || d[0].Seat != 2 {
		t.Fatalf("the bancô's cards: %+v", d)
	}
	s.expect("bia", chemin.PontoTurn)
	if ks := choiceKinds(s.tb.View("bia")); slices.Contains(ks, chemin.PassCards) {
		t.Fatalf("choices in a bancô: %v", ks)
	}
	s.noAct("bia", chemin.PassCards, 0, "not a choice")

	s2 := newScript(t, rules(), five, burn+coup("2C 4D", "3S 4H"))
	s2.openBets(1000)
	s2.act("bia", chemin.NoBet)
	s2.act("caio", chemin.Bet, 500)
	s2.act("duda", chemin.NoBet)
	recs = s2.act("eva", chemin.NoBet)
	if d := find(recs, poker.KindDeal); len(d) != 2 || d[0].Seat != 3 || s2.tb.Phase() == chemin.Cards {
		t.Fatalf("a lone stake's cards: %+v, phase %s", d, s2.tb.Phase())
	}
}

// A failure while the cards are offered voids the coup as any other.
func TestResumeWhileCardsOffered(t *testing.T) {
	s := newScript(t, rules(), five, burn+coup("9C KD", "2S AH"))
	fourBets(s)
	s.act("caio", chemin.PassCards)
	recs := s.ok(poker.Resume{At: s.now})
	if v := find(recs, poker.KindVoid); len(v) != 1 || len(v[0].Shares) != 4 {
		t.Fatalf("void %+v", recs)
	}
	if s.tb.Phase() != chemin.Idle || s.stack("caio") != 100000 {
		t.Fatalf("after the void: phase %s, caio %d", s.tb.Phase(), s.stack("caio"))
	}
}

// A ponto who asked to leave during the coup keeps his seat's place in it:
// of equal stakes the cards still go to the nearer seat at the banker's
// right (rule 61), not to the one leaving.
func TestLeavingPontoKeepsHisPriority(t *testing.T) {
	s := newScript(t, rules(), five, burn+coup("9C KD", "2S AH"))
	s.openBets(2000)
	s.act("bia", chemin.Bet, 500)
	s.act("caio", chemin.Bet, 700)
	s.act("duda", chemin.Bet, 700)
	s.ok(poker.Leave{At: s.now, Player: "duda"}) // leaves when the coup ends
	s.act("eva", chemin.Bet, 100)
	s.expect("caio", chemin.Cards)
}
