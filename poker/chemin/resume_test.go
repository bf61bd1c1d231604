package chemin_test

import (
	"testing"

	"github.com/openegm/cabinet/poker"
	"github.com/openegm/cabinet/poker/chemin"
)

// A coup a failure of the operator's system stopped is void: every stake
// goes back to its ponto, the bank stays the banker's and is not at stake,
// the cards dealt are not put back; a ponto who asked to leave during it is
// cashed out with his whole stake; the next deal opens a new coup with the
// same banker and bank (SRIJ rule 86 as the poker tables; rule 75).
func TestResumeVoidsTheCoupInPlay(t *testing.T) {
	s := newScript(t, rules(), five, burn+coup("2C 3D", "AS 2H")+coup("2C 4D", "3S 4H"))
	s.openBets(2000)
	s.act("bia", chemin.Bet, 500)
	s.act("caio", chemin.Bet, 1000)
	s.ok(poker.Leave{At: s.now, Player: "caio"}) // leaves when the coup ends
	s.act("duda", chemin.Bet, 500)
	s.act("caio", chemin.PlayCards)
	s.expect("caio", chemin.PontoTurn) // caio has the cards, a five
	recs := s.ok(poker.Resume{At: s.now})
	void := find(recs, poker.KindVoid)
	if len(void) != 1 || void[0].Hand != 1 || len(void[0].Shares) != 3 {
		t.Fatalf("void %+v", recs)
	}
	if l := find(recs, poker.KindLeave); len(l) != 1 || l[0].Player != "caio" || l[0].Amount != 100000 {
		t.Fatalf("caio's cash-out %+v", l)
	}
	for _, id := range []string{"ana", "bia", "duda", "eva"} {
		want := int64(100000)
		if id == "ana" {
			want = 98000 // her bank is on the table, not at stake
		}
		if s.stack(id) != want {
			t.Errorf("%s has %d", id, s.stack(id))
		}
	}
	v := s.tb.View("")
	if v.Phase != chemin.Idle || v.Banker != 1 || v.Bank != 2000 || len(v.Stakes) != 0 || s.tb.Fault() != nil {
		t.Fatalf("after the void: %+v", v)
	}
	if last := s.tb.LastHands("bia"); len(last) != 0 {
		t.Fatalf("the void coup is in the replay: %d", len(last))
	}
	// The next coup: the same bank, new cards (the voided ones are gone).
	recs = s.deal()
	if st := find(recs, poker.KindHandStart); len(st) != 1 || st[0].Hand != 2 || st[0].Seat != 1 || st[0].Amount != 2000 {
		t.Fatalf("the coup after resuming %+v", recs)
	}
	for _, id := range []string{"bia", "duda", "eva"} {
		s.act(id, chemin.NoBet)
	}
	recs = s.act("bia", chemin.Bet, 2000)
	if d := find(recs, poker.KindDeal); len(d) != 2 || d[0].Cards[0].String() != "2C" || d[1].Cards[0].String() != "3S" {
		t.Fatalf("the next cards: %+v", d)
	}
	if last := s.tb.LastHands("bia"); len(last) != 1 || last[0][0].Hand != 2 {
		t.Fatalf("bia's last coups: %d", len(last))
	}
	// Nothing in play: resuming voids nothing and asks the decision again.
	before := s.tb.View("").Deadline
	s.now = s.now.Add(5e9)
	if recs := s.ok(poker.Resume{At: s.now}); len(recs) != 0 || !s.tb.View("").Deadline.After(before) {
		t.Fatalf("resume between coups: %+v", recs)
	}
}

// A ponto's leave during the betting is his "no bet"; a banker's leave
// between coups gives him back his bank and garage and passes the hand
// («A mão passa por abandono»), offered at its level when he had won.
func TestLeaves(t *testing.T) {
	s := newScript(t, rules(), append(five, "fabio"), burn+coup("2C 4D", "3S 4H"))
	s.deal()
	s.act("ana", chemin.Bank, 1000)
	recs := s.ok(poker.Leave{At: s.now, Player: "bia"})
	if a := find(recs, poker.KindAct); len(a) != 1 || !a[0].Timeout || len(find(recs, poker.KindLeave)) != 1 {
		t.Fatalf("bia's leave %+v", recs)
	}
	s.expect("caio", chemin.BancoRound)
	s.act("caio", chemin.Banco) // ana wins
	s.act("caio", chemin.Stand) // in a bancô both are asked (rule 70)
	s.act("ana", chemin.Stand)
	s.act("ana", chemin.Continue)
	recs = s.ok(poker.Leave{At: s.now, Player: "ana"})
	if !said(recs, chemin.MsgAbandon) || len(find(recs, chemin.KindRelease)) != 1 || len(find(recs, poker.KindLeave)) != 1 {
		t.Fatalf("the banker's leave %+v", recs)
	}
	// He had won: the hand is offered at its level from his right (rules
	// 77, 78).
	if v := s.tb.View(""); v.Banker != 0 || v.Bank != 0 || v.Phase != chemin.Offered || v.Level != 1950 || v.ToAct != 3 {
		t.Fatalf("after the banker left: %+v", v)
	}
}

// Timeouts between coups: the winning banker goes on, a passed hand is
// declined, nobody bids, and the forced player takes the bank if he can.
func TestTimeoutsBetweenCoups(t *testing.T) {
	s := newScript(t, rules(), five, burn+coup("2C 4D", "3S 4H")+coup("2C 4D", "3S 4H"))
	s.winCoup(1000)
	if a := find(s.timeout(), poker.KindAct); len(a) != 1 || a[0].Action != "continue" || !a[0].Timeout {
		t.Fatalf("after the win: %+v", a)
	}
	s.winCoup(1000)
	s.act("ana", chemin.Pass)
	for range 5 { // the four, then ana herself (rule 80)
		if a := find(s.timeout(), poker.KindAct); a[0].Action != "decline" {
			t.Fatalf("the offer at timeout: %+v", a)
		}
	}
	if s.tb.Phase() != chemin.Auction {
		t.Fatalf("phase %s", s.tb.Phase())
	}
	s.act("caio", chemin.NoBid)
	recs := s.timeout()
	if a := find(recs, poker.KindAct); len(a) != 3 || !a[0].Timeout {
		t.Fatalf("the auction at timeout: %+v", a)
	}
	s.expect("bia", chemin.Forced)
	s.timeout()
	if v := s.tb.View(""); v.Banker != 2 || v.Bank != 1000 {
		t.Fatalf("bia takes the minimum bank: %+v", v)
	}
}
