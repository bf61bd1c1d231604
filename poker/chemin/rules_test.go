package chemin_test

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/openegm/cabinet/cards"
	"github.com/openegm/cabinet/poker"
	"github.com/openegm/cabinet/poker/chemin"
	"github.com/openegm/cabinet/rng"
)

// The tableau of chemin.md, every cell: the banker's total against the
// ponto standing or his third card's points; and the ponto's rule.
func TestTableauEveryCell(t *testing.T) {
	type row struct {
		stood       chemin.Banker
		draw, clear string // third-card points he draws on; where he chooses
	}
	tab := map[int]row{
		0: {chemin.BankerDraws, "0123456789", ""},
		1: {chemin.BankerDraws, "0123456789", ""},
		2: {chemin.BankerDraws, "0123456789", ""},
		3: {chemin.BankerDraws, "01234567", "9"},
		4: {chemin.BankerDraws, "234567", ""},
		5: {chemin.BankerDraws, "567", "4"},
		6: {chemin.BankerStands, "67", ""},
		7: {chemin.BankerStands, "", ""},
	}
	for total, r := range tab {
		if got := chemin.BankerPlay(total, -1); got != r.stood {
			t.Errorf("banker %d, ponto stood: %v, want %v", total, got, r.stood)
		}
		for third := range 10 {
			want := chemin.BankerStands
			switch d := fmt.Sprint(third); {
			case strings.Contains(r.draw, d):
				want = chemin.BankerDraws
			case strings.Contains(r.clear, d):
				want = chemin.BankerChooses
			}
			if got := chemin.BankerPlay(total, third); got != want {
				t.Errorf("banker %d, ponto's third card %d: %v, want %v", total, third, got, want)
			}
		}
	}
	for total, want := range []chemin.PontoRule{0, 0, 0, 0, 0, chemin.PontoChooses, chemin.PontoStands, chemin.PontoStands} {
		if got := chemin.PontoPlay(total); got != want {
			t.Errorf("ponto %d: %v, want %v", total, got, want)
		}
	}
	if chemin.Total(pokertestCards("9C 7D")) != 6 || !chemin.Natural(pokertestCards("KC 8D")) || chemin.Natural(pokertestCards("4C 4D AH")) {
		t.Error("totals and naturals")
	}
}

func pokertestCards(s string) []cards.Card {
	var out []cards.Card
	for _, w := range strings.Fields(s) {
		c, _ := cards.Parse(w)
		out = append(out, c)
	}
	return out
}

// The cagnotte in exact cents, every rounding (rule 47).
func TestCagnotteRounding(t *testing.T) {
	for _, c := range []struct {
		won, bps         int64
		down, halfUp, up int64
	}{
		{300, 333, 9, 10, 10},   // 9.99
		{150, 500, 7, 8, 8},     // 7.5
		{50, 500, 2, 3, 3},      // 2.5
		{1000, 500, 50, 50, 50}, // exact
		{1, 500, 0, 0, 1},       // 0.05
		{0, 500, 0, 0, 0},
	} {
		for mode, want := range map[chemin.Rounding]int64{chemin.RoundDown: c.down, chemin.RoundHalfUp: c.halfUp, chemin.RoundUp: c.up} {
			r := rules()
			r.CagnotteBps, r.Rounding = c.bps, mode
			if got := r.Cagnotte(c.won); got != want {
				t.Errorf("%d at %d bps, %s: %d, want %d", c.won, c.bps, mode, got, want)
			}
		}
	}
}

func TestRulesValidate(t *testing.T) {
	r := rules()
	r.MinSeated, r.MinBank, r.Rounding, r.Languages = 3, 50, "sideways", []string{"en", "pt"}
	_, err := chemin.New(r, rng.NewSeeded(1))
	for _, want := range []string{"min seated 3", "min bank 50", `rounding "sideways"`, "Portuguese first"} {
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%v: want %q", err, want)
		}
	}
	// The engine rounds only as a definition may state (poker/tabledef):
	// no rounding a table card could not name.
	r = rules()
	r.Rounding = "half_even"
	if _, err := chemin.New(r, rng.NewSeeded(1)); err == nil || !strings.Contains(err.Error(), `rounding "half_even"`) {
		t.Errorf("half_even: %v", err)
	}
}

// A natural on either side ends the coup at once: no third card, no
// decision (spec step 3).
func TestNaturals(t *testing.T) {
	s := newScript(t, rules(), five, burn+coup("9C KD", "2S AH")+coup("2C 3D", "8S KH"))
	s.openBets(1000)
	recs := s.act("bia", chemin.Bet, 1000)
	if !said(recs, chemin.MsgNine) || len(find(recs, poker.KindBoard)) != 0 || len(find(recs, poker.KindAct)) != 0 {
		t.Fatalf("a ponto's nine: %v", recs)
	}
	if aw := find(recs, poker.KindAward); len(aw) != 1 || aw[0].Action != "ponto" || aw[0].Shares[0] != (poker.Share{Seat: 2, Amount: 2000}) {
		t.Fatalf("award %+v", aw)
	}
	if s.stack("bia") != 101000 || s.stack("ana") != 99000 {
		t.Fatalf("stacks %d %d", s.stack("bia"), s.stack("ana"))
	}
	// The banker lost: the hand passes to his right (rule 32).
	if v := s.tb.View(""); v.Banker != 2 || v.Bank != 0 || !said(recs, chemin.MsgHandPasses) {
		t.Fatalf("after the loss: banker %d, bank %d", v.Banker, v.Bank)
	}
	s.deal()
	s.expect("bia", chemin.Stake)
	s.act("bia", chemin.Bank, 1000)
	for _, id := range []string{"caio", "duda", "eva"} {
		s.act(id, chemin.NoBet)
	}
	s.act("ana", chemin.NoBet)
	s.act("caio", chemin.Bet, 500)
	s.act("duda", chemin.Bet, 500)
	recs = s.act("caio", chemin.PlayCards)
	if !said(recs, chemin.MsgEight) || len(find(recs, poker.KindAct)) != 1 {
		t.Fatalf("a banker's eight against a five: %v", recs)
	}
	if aw := find(recs, poker.KindAward); len(aw) != 1 || aw[0].Action != "banker" || aw[0].Amount != 1000 || aw[0].Rake != 50 {
		t.Fatalf("award %+v", aw)
	}
	if v := s.tb.View(""); v.Bank != 1950 || v.Phase != chemin.AfterCoup || v.ToAct != 2 {
		t.Fatalf("after the win: %+v", v)
	}
}

// Equal totals: the coup is void, the stakes go back, the bank is as it
// was and the tie counts as no win (rules 34, 76).
func TestTieIsVoid(t *testing.T) {
	s := newScript(t, rules(), five, burn+coup("3C 4D", "5S 2H"))
	s.openBets(1000)
	recs := s.act("bia", chemin.Bet, 1000)
	if !said(recs, chemin.MsgTie) || len(find(recs, poker.KindReturn)) != 1 || len(find(recs, poker.KindAward)) != 0 {
		t.Fatalf("tie: %v", recs)
	}
	v := s.tb.View("ana")
	if v.Bank != 1000 || v.Wins != 0 || s.stack("bia") != 100000 || v.Phase != chemin.AfterCoup || hasChoice(v, chemin.SetGarage) {
		t.Fatalf("after the tie: %+v", v)
	}
	var txt string
	for _, r := range recs {
		if r.Action == string(chemin.MsgTie) {
			txt = chemin.Text("pt", r) + " / " + chemin.Text("en", r)
		}
	}
	if txt != "Igualdade a sete / Tie at seven" {
		t.Fatalf("the announcement: %q", txt)
	}
}

// Bancô: one ponto covers the bank alone and gets the cards; a bancô lost
// keeps its priority for the next coup (bancô suivi, rules 45, 48, 51).
func TestBancoAndSuivi(t *testing.T) {
	s := newScript(t, rules(), five, burn+coup("2C 4D", "3S 4H")+coup("9C KD", "2S AH"))
	s.deal()
	s.act("ana", chemin.Bank, 1000)
	s.act("bia", chemin.NoBet)
	s.noAct("duda", chemin.Banco, 0, "not his decision")
	recs := s.act("caio", chemin.Banco)
	if b := find(recs, chemin.KindBet); len(b) != 1 || b[0].Seat != 3 || b[0].Amount != 1000 || b[0].Action != "banco" {
		t.Fatalf("bancô %+v", b)
	}
	if d := find(recs, poker.KindDeal); d[0].Seat != 3 || !said(recs, chemin.MsgClosed) {
		t.Fatalf("the cards went to %d", d[0].Seat)
	}
	s.act("caio", chemin.Stand) // in a bancô both are asked (rule 70)
	s.act("ana", chemin.Stand)
	s.act("ana", chemin.Continue)
	s.deal()
	// Caio lost his bancô: he is asked first, before bia.
	s.expect("caio", chemin.BancoRound)
	if v := s.tb.View("caio"); !hasChoice(v, chemin.Suivi) || v.Bank != 1950 {
		t.Fatalf("caio's choices %+v", v.Choices)
	}
	s.noAct("bia", chemin.Banco, 0, "not his decision")
	recs = s.act("caio", chemin.Suivi)
	if b := find(recs, chemin.KindBet); len(b) != 1 || b[0].Action != "banco_suivi" || b[0].Amount != 1950 || !said(recs, chemin.MsgSuivi) {
		t.Fatalf("suivi %+v", recs)
	}
	if s.stack("caio") != 100000-1000+1950 {
		t.Fatalf("caio %d", s.stack("caio"))
	}
}

// Bancô com a mesa: half the bank and the cards, the others complete; a
// bancô seul takes precedence over it (rules 55-57).
func TestBancoComAMesa(t *testing.T) {
	s := newScript(t, rules(), five, burn+coup("2C 4D", "3S 4H")+coup("2C 4D", "3S 4H"))
	s.deal()
	s.act("ana", chemin.Bank, 2000)
	s.act("bia", chemin.BancoMesa)
	s.noAct("caio", chemin.BancoMesa, 0, "claimed")
	s.act("caio", chemin.NoBet)
	recs := s.act("duda", chemin.Banco)
	if b := find(recs, chemin.KindBet); len(b) != 1 || b[0].Seat != 4 || b[0].Amount != 2000 {
		t.Fatalf("the bancô seul over the bancô com a mesa: %+v", recs)
	}
	s.act("duda", chemin.Stand) // in a bancô both are asked (rule 70)
	s.act("ana", chemin.Stand)
	s.act("ana", chemin.Continue)
	s.deal() // a bank of 3900 now; duda has the suivi and declines
	s.expect("duda", chemin.BancoRound)
	s.act("duda", chemin.NoBet)
	s.noAct("bia", chemin.BancoMesa, 1900, "at least half")
	s.act("bia", chemin.BancoMesa, 2000)
	s.act("caio", chemin.NoBet)
	recs = s.act("eva", chemin.NoBet)
	if !said(recs, chemin.MsgMesaMade) || !said(recs, chemin.MsgWhoCompletes) || s.tb.Phase() != chemin.BetRound {
		t.Fatalf("com a mesa: %v", recs)
	}
	s.expect("duda", chemin.BetRound)
	s.act("duda", chemin.Bet, 1500)
	recs = s.act("caio", chemin.Bet, 400)
	if d := find(recs, poker.KindDeal); len(d) != 2 || d[0].Seat != 2 {
		t.Fatalf("the cards go to the bancô com a mesa: %+v", d)
	}
}

// Bets in multiples of the minimum until the bank is covered (the last may
// be what is left); the cards go to the highest stake, equal stakes to the
// nearest seat at the banker's right (rules 36, 58-61).
func TestPriorityOfTheCards(t *testing.T) {
	s := newScript(t, rules(), five, burn+coup("2C 4D", "3S 4H"))
	s.openBets(1550)
	s.noAct("bia", chemin.Bet, 250, "multiple of the minimum")
	s.noAct("bia", chemin.Bet, 1600, "uncovered")
	s.act("bia", chemin.Bet, 300)
	s.act("caio", chemin.Bet, 500)
	s.act("duda", chemin.Bet, 500)
	s.act("eva", chemin.Bet, 250)  // what is left
	s.expect("caio", chemin.Cards) // he may decline them (rule 101)
	recs := s.act("caio", chemin.PlayCards)
	if d := find(recs, poker.KindDeal); len(d) == 0 || d[0].Seat != 3 {
		t.Fatalf("the cards went to seat %d, want caio's 3", d[0].Seat)
	}
	if aw := find(recs, poker.KindAward); aw[0].Amount != 1550 || aw[0].Rake != 78 { // 77.5, half up
		t.Fatalf("award %+v", aw)
	}
}

// The part of the bank nobody covered is not at stake; the pontos who won
// are paid from the bank in seat order from the banker's right (rules 45,
// 95).
func TestUncoveredPartAndPaymentOrder(t *testing.T) {
	s := newScript(t, rules(), five, burn+coup("9C KD", "2S AH")+coup("9C KD", "2S AH"))
	s.openBets(3000)
	s.act("bia", chemin.Bet, 300)
	s.act("caio", chemin.NoBet)
	s.act("duda", chemin.NoBet)
	recs := s.act("eva", chemin.NoBet)
	if rel := find(recs, chemin.KindRelease); len(rel) != 1 || rel[0].Amount != 2700 || s.stack("ana") != 99700 {
		t.Fatalf("the uncovered part: %+v, ana %d", rel, s.stack("ana"))
	}
	// Bia's bank; the pontos from her right: caio, duda, eva, ana.
	s.deal()
	s.act("bia", chemin.Bank, 2000)
	for _, id := range []string{"caio", "duda", "eva", "ana"} {
		s.act(id, chemin.NoBet)
	}
	s.act("caio", chemin.Bet, 100)
	s.act("duda", chemin.NoBet)
	s.act("eva", chemin.Bet, 200)
	s.act("ana", chemin.Bet, 700)
	recs = s.act("ana", chemin.PlayCards)
	aw := find(recs, poker.KindAward)
	want := []poker.Share{{Seat: 3, Amount: 200}, {Seat: 5, Amount: 400}, {Seat: 1, Amount: 1400}}
	if len(aw) != 1 || !slices.Equal(aw[0].Shares, want) {
		t.Fatalf("payments %+v, want %+v", aw, want)
	}
}

// winCoup plays a coup the banker wins with bia's stake.
func (s *script) winCoup(bet int64) {
	s.t.Helper()
	s.deal()
	if s.tb.Phase() == chemin.Stake {
		s.act("ana", chemin.Bank, 1000)
	}
	for _, id := range []string{"bia", "caio", "duda", "eva"} {
		s.act(id, chemin.NoBet)
	}
	s.act("bia", chemin.Bet, bet)
	for s.tb.Phase() == chemin.BetRound {
		s.act(s.toAct(), chemin.NoBet)
	}
}

// The garage after the 3rd winning coup and each odd one after it, ties not
// counted (rule 34).
func TestGarage(t *testing.T) {
	win, tie := coup("2C 4D", "3S 4H"), coup("3C 4D", "5S 2H")
	s := newScript(t, rules(), five, burn+win+win+tie+win+win+win)
	for n, garage := range []bool{false, false, false, true, false, true} {
		s.winCoup(1000)
		v := s.tb.View("ana")
		if hasChoice(v, chemin.SetGarage) != garage {
			t.Fatalf("coup %d (%d won): garage %v, want %v", n+1, v.Wins, !garage, garage)
		}
		if garage {
			before := v.Bank
			recs := s.act("ana", chemin.SetGarage)
			if g := find(recs, chemin.KindGarage); len(g) != 1 || g[0].Amount != before/2 || s.tb.View("").Garage == 0 {
				t.Fatalf("garage %+v of %d", g, before)
			}
			continue
		}
		s.noAct("ana", chemin.SetGarage, 0, "rule 34")
		s.act("ana", chemin.Continue)
	}
}

// Rule 46: when the stakes did not cover the bank, the winning banker may
// reduce it to twice the stakes won, the rest to garage; the garage goes
// back to him with the bank when the hand passes.
func TestReduceToTwiceTheStakes(t *testing.T) {
	s := newScript(t, rules(), five, burn+coup("2C 4D", "3S 4H")+coup("9C KD", "2S AH"))
	s.deal()
	s.act("ana", chemin.Bank, 5000)
	for _, id := range []string{"bia", "caio", "duda", "eva"} {
		s.act(id, chemin.NoBet)
	}
	s.act("bia", chemin.Bet, 1000)
	for s.tb.Phase() == chemin.BetRound {
		s.act(s.toAct(), chemin.NoBet)
	}
	recs := s.act("ana", chemin.Reduce)
	if g := find(recs, chemin.KindGarage); len(g) != 1 || g[0].Amount != 5950-2000 {
		t.Fatalf("reduce %+v", recs)
	}
	if v := s.tb.View(""); v.Bank != 2000 || v.Garage != 3950 {
		t.Fatalf("bank %d garage %d", v.Bank, v.Garage)
	}
	s.deal()
	for _, id := range []string{"bia", "caio", "duda", "eva"} {
		s.act(id, chemin.NoBet)
	}
	s.act("bia", chemin.Bet, 2000) // the ponto's nine: ana loses 2000
	if s.stack("ana") != 95000+3950 {
		t.Fatalf("ana has %d", s.stack("ana"))
	}
}

// «Passo a mão»: the bank goes back to the banker and the hand is offered
// at its level from his right (rules 77-80).
func TestPassTheHand(t *testing.T) {
	s := newScript(t, rules(), five, burn+coup("2C 4D", "3S 4H"))
	s.winCoup(1000)
	recs := s.act("ana", chemin.Pass)
	if rel := find(recs, chemin.KindRelease); len(rel) != 1 || rel[0].Amount != 1950 || s.stack("ana") != 100950 {
		t.Fatalf("pass %+v", recs)
	}
	s.expect("bia", chemin.Offered)
	if v := s.tb.View("bia"); v.Level != 1950 || !hasChoice(v, chemin.Take) {
		t.Fatalf("offer %+v", v)
	}
	s.act("bia", chemin.Decline)
	s.act("caio", chemin.Take)
	if v := s.tb.View(""); v.Banker != 3 || v.Bank != 1950 || v.Phase != chemin.Idle {
		t.Fatalf("caio's hand %+v", v)
	}
	recs = s.deal()
	if st := find(recs, poker.KindHandStart); len(st) != 1 || st[0].Seat != 3 || st[0].Amount != 1950 {
		t.Fatalf("the next coup %+v", recs)
	}
	s.expect("duda", chemin.BancoRound)
}

// The auction: when nobody takes the hand at its level, the highest offer
// from the base by the step takes it, equal offers by priority from the
// passer's right; the passer and his associate may not bid (rules 80-86).
// With no bidder the next player takes it at the minimum or gives up his
// seat (rule 85).
func TestAuction(t *testing.T) {
	s := newScript(t, rules(), append(five, "fabio"), burn+coup("2C 4D", "3S 4H")+coup("2C 4D", "3S 4H"))
	s.deal()
	s.act("duda", chemin.Associate)
	s.act("ana", chemin.BankAssociated, 2000)
	if s.stack("ana") != 99000 || s.stack("duda") != 99000 {
		t.Fatal("the association's halves")
	}
	for _, id := range []string{"bia", "caio", "eva", "fabio"} { // duda is with the bank
		s.act(id, chemin.NoBet)
	}
	s.act("bia", chemin.Bet, 2000) // the banker wins: 3900 in the bank
	recs := s.act("ana", chemin.Pass)
	if rel := find(recs, chemin.KindRelease); len(rel) != 1 || !slices.Equal(rel[0].Shares, []poker.Share{{Seat: 1, Amount: 1950}, {Seat: 4, Amount: 1950}}) {
		t.Fatalf("the association's release %+v", rel)
	}
	for _, id := range []string{"bia", "caio", "duda", "eva", "fabio"} {
		s.act(id, chemin.Decline)
	}
	s.expect("ana", chemin.Offered) // rule 80: she may keep it at its level
	s.act("ana", chemin.Decline)
	if s.tb.Phase() != chemin.Auction {
		t.Fatalf("phase %s", s.tb.Phase())
	}
	s.noAct("ana", chemin.Bid, 3000, "may not bid")
	s.noAct("duda", chemin.Bid, 3000, "may not bid")
	s.noAct("bia", chemin.Bid, 2100, "rule 82")
	s.noAct("bia", chemin.Bid, 1500, "rule 82")
	s.act("fabio", chemin.Bid, 3000)
	s.act("caio", chemin.Bid, 3000)
	s.act("eva", chemin.Bid, 2500)
	recs = s.act("bia", chemin.NoBid)
	if v := s.tb.View(""); v.Banker != 3 || v.Bank != 3000 || !said(recs, chemin.MsgAdjudicated) {
		t.Fatalf("caio (seat 3) before fabio (6) at 3000: %+v", v)
	}

	// Caio wins a coup, passes, and nobody wants the hand.
	s.deal()
	for _, id := range []string{"duda", "eva", "fabio", "ana", "bia"} {
		s.act(id, chemin.NoBet)
	}
	s.act("duda", chemin.Bet, 3000)
	s.act("caio", chemin.Pass)
	for _, id := range []string{"duda", "eva", "fabio", "ana", "bia", "caio"} {
		s.act(id, chemin.Decline)
	}
	for _, id := range []string{"duda", "eva", "fabio", "ana", "bia"} {
		s.act(id, chemin.NoBid)
	}
	s.expect("duda", chemin.Forced)
	recs = s.act("duda", chemin.Refuse)
	if l := find(recs, poker.KindLeave); len(l) != 1 || l[0].Player != "duda" {
		t.Fatalf("duda gives up his seat: %+v", recs)
	}
	s.expect("eva", chemin.Forced)
	s.act("eva", chemin.Take)
	if v := s.tb.View(""); v.Banker != 5 || v.Bank != 1000 {
		t.Fatalf("eva's hand at the minimum: %+v", v)
	}
}

// At least 4 seated players to start and to go on (rule 16).
func TestMinimumFourPlayers(t *testing.T) {
	s := newScript(t, rules(), five[:3])
	s.no(poker.Deal{At: s.now}, "rule 16")
	s.ok(poker.Join{At: s.now, Player: "duda", Seat: 4, Amount: 5000})
	s.deal()
	s.act("ana", chemin.Refuse) // «Banca recusada»: bia is asked
	s.expect("bia", chemin.Stake)
	s.act("bia", chemin.Refuse)
	s.act("caio", chemin.Refuse)
	s.act("duda", chemin.Refuse)
	if s.tb.Phase() != chemin.Idle {
		t.Fatalf("everyone refused: %s", s.tb.Phase())
	}
	s.ok(poker.Leave{At: s.now, Player: "caio"})
	s.no(poker.Deal{At: s.now}, "rule 16")
}

// Every decision has a deadline: no bank, no bet, the ponto stands on 5,
// the banker plays the tableau (draws in both optional cases), the winning
// banker goes on, a passed hand is declined, nobody bids.
func TestTimeouts(t *testing.T) {
	s := newScript(t, rules(), five,
		burn+coup("2C 3D", "AS 2H", "9C")+ // ponto 5, stands on timeout; banker 3 draws
			coup("2C 3D", "3S 2H", "4C", "KD")) // ponto 5 draws 4 (9); banker 5 against a 4: draws on timeout
	s.deal()
	recs := s.timeout()
	if !said(recs, chemin.MsgRefused) || !find(recs, poker.KindAct)[0].Timeout {
		t.Fatalf("no bank in time: %v", recs)
	}
	s.expect("bia", chemin.Stake)
	s.act("bia", chemin.Bank, 1000)
	s.timeout() // caio: no bancô
	s.expect("duda", chemin.BancoRound)
	for _, id := range []string{"duda", "eva", "ana"} {
		s.act(id, chemin.NoBet)
	}
	s.timeout() // caio: no bet
	s.act("duda", chemin.Bet, 1000)
	s.expect("duda", chemin.PontoTurn)
	recs = s.timeout()
	if a := find(recs, poker.KindAct); a[0].Action != "stand" || !a[0].Timeout || a[1].Action != "draw" {
		t.Fatalf("the ponto's five at timeout, the banker's three: %+v", a)
	}
	// Ponto 5, banker 3 + 9 = 2: the ponto wins; the hand passes to caio.
	if v := s.tb.View(""); v.Banker != 3 {
		t.Fatalf("banker %d", v.Banker)
	}
	s.deal()
	s.act("caio", chemin.Bank, 1000)
	for _, id := range []string{"duda", "eva", "ana", "bia"} {
		s.act(id, chemin.NoBet)
	}
	s.act("duda", chemin.Bet, 1000)
	s.act("duda", chemin.Draw)
	s.expect("caio", chemin.BankerTurn)
	if v := s.tb.View("caio"); len(v.BankerCards) != 2 || len(s.tb.View("eva").PontoCards) != 1 {
		t.Fatalf("the banker sees his cards, everyone the ponto's third: %+v", v)
	}
	recs = s.timeout()
	if a := find(recs, poker.KindAct); a[0].Action != "draw" || !a[0].Timeout || !said(recs, chemin.MsgBankWins) && !said(recs, chemin.MsgPontoWins) && !said(recs, chemin.MsgTie) {
		t.Fatalf("the banker's five against a four at timeout: %v", recs)
	}
}

// The two optional cases are the banker's choice, unless the table plays
// the tableau only (rule 102), when he draws.
func TestBankerChoiceAndTableauOnly(t *testing.T) {
	plan := burn + coup("2C 3D", "AS 2H", "9C", "KD")
	s := newScript(t, rules(), five, plan)
	s.openBets(1000)
	s.act("bia", chemin.Bet, 1000)
	s.act("bia", chemin.Draw)
	s.expect("ana", chemin.BankerTurn)
	recs := s.act("ana", chemin.Stand)
	if a := find(recs, poker.KindAct); a[0].Action != "stand" || a[0].Timeout || !said(recs, chemin.MsgPontoWins) {
		t.Fatalf("ana's three stands against a 9, ponto 4 against 3: %v", recs)
	}
	r := rules()
	r.TableauOnly = true
	s = newScript(t, r, five, plan)
	s.deal()
	s.act("ana", chemin.Bank, 1000)
	for _, id := range []string{"bia", "caio", "duda", "eva"} {
		s.act(id, chemin.NoBet)
	}
	s.act("bia", chemin.Bet, 1000)
	recs = s.act("bia", chemin.Draw)
	if a := find(recs, poker.KindAct); len(a) != 2 || a[1].Action != "draw" || a[1].Seat != 1 || !said(s.all, chemin.MsgTableau) {
		t.Fatalf("the tableau's draw: %v", recs)
	}
}

// The sabot: committed by its digest before its first card is shown, the
// first card burning its value (10 for a 0), the coup in which the warning
// card comes out is the last, the sabot's order revealed at its end has the
// digest committed, and the banker who did not lose the last coup keeps
// the hand (rules 13, 14, 32; «A mão fica»).
func TestShoeLastCoupAndTheHandStays(t *testing.T) {
	r := rules()
	r.Decks = 1
	var stays, passes int
	for seed := uint64(1); seed < 40 && (stays == 0 || passes == 0); seed++ {
		tb, _ := chemin.New(r, rng.NewSeeded(seed))
		s := &script{t: t, tb: tb, now: s0, fold: chemin.NewFolder()}
		for i, id := range five {
			s.ok(poker.Join{At: s.now, Player: id, Seat: i + 1, Amount: 100_000_000}) // bancôs on banks that double
		}
		var lastBanker int
		for coups := 0; ; coups++ {
			if coups > 20 {
				t.Fatal("a sabot of 52 cards with more than 20 coups")
			}
			recs := s.deal()
			if s.tb.Phase() == chemin.Stake {
				recs = append(recs, s.act(s.toAct(), chemin.Bank, 4000)...)
			}
			if sh := find(recs, chemin.KindShoe); coups == 0 {
				b := find(recs, chemin.KindBurn)
				if len(sh) != 1 || len(b) != 1 || len(sh[0].Value) != 64 || slices.IndexFunc(recs, func(x poker.Record) bool { return x.Kind == chemin.KindBurn }) < slices.IndexFunc(recs, func(x poker.Record) bool { return x.Kind == chemin.KindShoe }) {
					t.Fatalf("the sabot's commitment: %v", recs)
				}
				n := chemin.Points(b[0].Cards[0])
				if n == 0 {
					n = 10
				}
				if len(b[0].Cards) != 1+n || !said(recs, chemin.MsgFirstCoup) {
					t.Fatalf("%s burns %d", b[0].Cards[0], len(b[0].Cards)-1)
				}
			} else if len(sh) > 0 {
				// The next sabot: the hand stayed with the last coup's
				// winner, or passed to the right of its loser.
				if st := find(recs, poker.KindHandStart); len(st) > 0 && st[0].Seat != lastBanker && !said(recs, chemin.MsgFirstCoup) {
					t.Fatalf("the next sabot's first coup %+v", st)
				}
				break
			}
			banco := s.toAct()
			recs = s.act(banco, chemin.Banco)
			for s.tb.Phase() == chemin.PontoTurn || s.tb.Phase() == chemin.BankerTurn {
				recs = append(recs, s.act(s.toAct(), chemin.Draw)...)
			}
			last := said(recs, chemin.MsgLastOfSabot)
			if end := find(recs, chemin.KindShoeEnd); len(end) == 1 != last {
				t.Fatalf("the warning card came out: %v, the sabot ended: %v", last, len(end) == 1)
			}
			v := s.tb.View("")
			lastBanker = v.Banker
			if last {
				if said(recs, chemin.MsgHandStays) {
					stays++
					if v.Phase != chemin.AfterCoup || !hasChoice(s.tb.View(s.toAct()), chemin.Halve) {
						t.Fatalf("a mão fica: %s, %+v", v.Phase, s.tb.View(s.toAct()).Choices)
					}
					s.act(s.toAct(), chemin.Continue)
				} else {
					passes++
				}
				if v.Shoe != "" {
					t.Fatal("the sabot is still in play")
				}
			} else if v.Phase == chemin.AfterCoup {
				s.act(s.toAct(), chemin.Continue)
			}
		}
	}
	if stays == 0 || passes == 0 {
		t.Fatalf("the hand stayed %d times and passed %d", stays, passes)
	}
}

// Association: a player adds as much as the banker and shares the bank's
// fate (rule 31).
func TestAssociation(t *testing.T) {
	s := newScript(t, rules(), five, burn+coup("9C KD", "2S AH"))
	s.deal()
	if v := s.tb.View("eva"); !hasChoice(v, chemin.Associate) {
		t.Fatalf("eva's choices %+v", v.Choices)
	}
	s.act("eva", chemin.Associate)
	s.noAct("caio", chemin.Associate, 0, "offered first")
	s.noAct("ana", chemin.BankAssociated, 1001, "halve")
	// Her half is a bank: at least the minimum (rules 31, 35).
	if c := s.tb.View("ana").Choices; !slices.ContainsFunc(c, func(c chemin.Choice) bool { return c.Kind == chemin.BankAssociated && c.Min == 2000 }) {
		t.Fatalf("ana's choices %+v", c)
	}
	s.noAct("ana", chemin.BankAssociated, 1998, "below the minimum bank")
	s.act("ana", chemin.BankAssociated, 3000)
	for _, id := range []string{"bia", "caio", "duda"} { // eva is with the bank
		s.act(id, chemin.NoBet)
	}
	s.act("bia", chemin.Bet, 1000)
	for s.tb.Phase() == chemin.BetRound {
		s.act(s.toAct(), chemin.NoBet)
	}
	if s.stack("ana") != 100000-1500+1000 || s.stack("eva") != 100000-1500+1000 {
		t.Fatalf("the loss is shared: ana %d, eva %d", s.stack("ana"), s.stack("eva"))
	}
}

var s0 = script{}.now

// A banker who passes the hand after a tie may not go bancô in the next
// coup (rule 89).
func TestNoBancoAfterPassingOnATie(t *testing.T) {
	s := newScript(t, rules(), five, burn+coup("3C 4D", "5S 2H"))
	s.winCoup(1000)
	s.act("ana", chemin.Pass)
	s.act("bia", chemin.Take)
	s.deal()
	for _, id := range []string{"caio", "duda", "eva"} {
		s.act(id, chemin.NoBet)
	}
	s.expect("ana", chemin.BancoRound)
	if hasChoice(s.tb.View("ana"), chemin.Banco) {
		t.Fatal("ana may go bancô")
	}
	s.noAct("ana", chemin.Banco, 0, "rule 89")
	s.act("ana", chemin.NoBet)
}

// The dealer's announcements of rule 96, in Portuguese and English.
func TestAnnouncements(t *testing.T) {
	for _, c := range []struct {
		r      poker.Record
		pt, en string
	}{
		{poker.Record{Action: string(chemin.MsgPontoWins), Value: "7 5"}, "Sete no ponto, cinco na banca", "Seven for the ponto, five for the bank"},
		{poker.Record{Action: string(chemin.MsgBankWins), Value: "0 3"}, "Bacará no ponto; três na banca", "Baccarat for the ponto; three for the bank"},
		{poker.Record{Action: string(chemin.MsgTie), Value: "4 4"}, "Igualdade a quatro", "Tie at four"},
		{poker.Record{Action: string(chemin.MsgHandStays)}, "A mão fica", "The hand stays"},
		{poker.Record{Action: string(chemin.MsgAuction)}, "Banca em leilão. Quem oferece?", "The bank is auctioned. Who offers?"},
		{poker.Record{Action: string(chemin.MsgLastOfSabot)}, "Último golpe do sabot", "Last coup of the shoe"},
	} {
		if got := chemin.Text("pt", c.r); got != c.pt {
			t.Errorf("pt %q, want %q", got, c.pt)
		}
		if got := chemin.Text("en", c.r); got != c.en {
			t.Errorf("en %q, want %q", got, c.en)
		}
	}
	if got := chemin.Text("pt", poker.Record{Action: string(chemin.MsgBank), To: 150000}); !strings.HasPrefix(got, "Banca de ") || !strings.Contains(got, "1") {
		t.Errorf("the bank: %q", got)
	}
}

// A first card worth 0 burns ten (rule 13); the sabot is committed by its
// digest before that card is shown.
func TestAZeroBurnsTen(t *testing.T) {
	s := newScript(t, rules(), five, "KD 2C 3C 4C 5C 6C 7C 8C 9C TC JC "+coup("9C KD", "2S AH"))
	recs := s.deal()
	sh, b := find(recs, chemin.KindShoe), find(recs, chemin.KindBurn)
	if len(sh) != 1 || len(b) != 1 || len(b[0].Cards) != 11 || b[0].Cards[10].String() != "JC" {
		t.Fatalf("the burn %+v", recs)
	}
	if recs[0].Kind != chemin.KindShoe || s.tb.View("").Shoe != sh[0].Value || s.tb.View("").CardsLeft != 312-11 {
		t.Fatalf("the commitment %+v", recs[0])
	}
}

// Nobody sees a hand before it is shown, but the ponto his own; the banker
// turns his only after the ponto has spoken, and sees them no sooner; the
// ponto's third card is dealt face up (rules 63-68).
func TestWhoSeesTheCards(t *testing.T) {
	s := newScript(t, rules(), five, burn+coup("2C 3D", "AS 2H", "9C"))
	s.openBets(1000)
	s.act("bia", chemin.Bet, 1000)
	s.expect("bia", chemin.PontoTurn)
	if v := s.tb.View("bia"); len(v.PontoCards) != 2 || len(v.BankerCards) != 0 {
		t.Fatalf("bia sees %v and %v", v.PontoCards, v.BankerCards)
	}
	if v := s.tb.View("ana"); len(v.PontoCards) != 0 || len(v.BankerCards) != 0 {
		t.Fatalf("ana sees %v and %v before the ponto spoke (rules 64, 67)", v.PontoCards, v.BankerCards)
	}
	if v := s.tb.View("eva"); len(v.PontoCards) != 0 || len(v.BankerCards) != 0 {
		t.Fatalf("eva sees %v and %v", v.PontoCards, v.BankerCards)
	}
	s.act("bia", chemin.Draw)
	if v := s.tb.View("eva"); len(v.PontoCards) != 1 || v.PontoCards[0].String() != "9C" || len(v.BankerCards) != 2 {
		t.Fatalf("after the third card eva sees %v and %v", v.PontoCards, v.BankerCards)
	}
}
