package chemin_test

import (
	"slices"
	"strings"
	"testing"

	"github.com/openegm/cabinet/cards"
	"github.com/openegm/cabinet/poker"
	"github.com/openegm/cabinet/poker/chemin"
	"github.com/openegm/cabinet/rng"
)

// The fold takes a revealed sabot only when it is exactly the decks its
// commitment named: every card of every deck once a deck, nothing else
// (rules 7, 8), whatever its digest.
func TestTheSabotIsExactlyItsDecks(t *testing.T) {
	var full []cards.Card
	for range 2 {
		full = append(full, cards.Standard52()...)
	}
	short := full[:len(full)-1]
	twice := slices.Clone(full)
	twice[5] = twice[6] // one card twice, another missing
	extra := append(slices.Clone(full), full[0])
	for _, c := range []struct {
		name  string
		order []cards.Card
		decks int64
		want  string
	}{
		{"whole", full, 2, ""},
		{"a card short", short, 2, "103 cards"},
		{"a card twice", twice, 2, "times in 2 decks"},
		{"a card too many", extra, 2, "105 cards"},
		{"other decks", full, 3, "104 cards, 3 decks"},
		{"no decks", full, 0, "0 decks"},
	} {
		d := chemin.Digest(c.order)
		err := chemin.NewFolder().Add(
			poker.Record{Kind: chemin.KindShoe, Value: d, Amount: c.decks},
			poker.Record{Kind: chemin.KindShoeEnd, Value: d, Cards: c.order})
		if c.want == "" && err != nil || c.want != "" && (err == nil || !strings.Contains(err.Error(), c.want)) {
			t.Errorf("%s: %v, want %q", c.name, err, c.want)
		}
	}
}

// Rule 80: when nobody takes a passed hand at its level, the banker who
// passed it may keep it at the same amount instead of its auction.
func TestThePasserKeepsTheHandAtItsLevel(t *testing.T) {
	s := newScript(t, rules(), five, burn+coup("2C 4D", "3S 4H"))
	s.winCoup(1000)
	s.act("ana", chemin.Pass)
	for _, id := range []string{"bia", "caio", "duda", "eva"} {
		s.act(id, chemin.Decline)
	}
	s.expect("ana", chemin.Offered)
	if v := s.tb.View("ana"); v.Level != 1950 || !hasChoice(v, chemin.Take) {
		t.Fatalf("ana's offer %+v", v)
	}
	recs := s.act("ana", chemin.Take)
	if said(recs, chemin.MsgAuction) {
		t.Fatal("auctioned")
	}
	if v := s.tb.View(""); v.Banker != 1 || v.Bank != 1950 || v.Phase != chemin.Idle || s.stack("ana") != 100000-1000+1950-1950 {
		t.Fatalf("ana keeps the hand: %+v, %d", v, s.stack("ana"))
	}
}

// passToAuction: ana wins a coup and passes; nobody, herself included,
// takes the hand at its level: it is auctioned.
func (s *script) passToAuction(others []string) {
	s.t.Helper()
	s.deal()
	s.act("ana", chemin.Bank, 1000)
	for _, id := range others {
		s.act(id, chemin.NoBet)
	}
	s.act("bia", chemin.Bet, 1000)
	for s.tb.Phase() == chemin.BetRound {
		s.act(s.toAct(), chemin.NoBet)
	}
	s.act("ana", chemin.Pass)
	for _, id := range others {
		s.act(id, chemin.Decline)
	}
	s.act("ana", chemin.Decline)
	if s.tb.Phase() != chemin.Auction {
		s.t.Fatalf("phase %s", s.tb.Phase())
	}
}

// Rule 88: the winner of the auction must give the first coup; if he
// leaves, or is away at the deal, his bank goes back to him and the hand is
// auctioned again, neither he nor the banker who passed it bidding.
// Rule 90: who took an auctioned hand and passes it after its first coup
// may not bid in the next auction.
func TestTheAuctionsWinnerGivesTheFirstCoup(t *testing.T) {
	six := append(slices.Clone(five), "fabio")
	others := []string{"bia", "caio", "duda", "eva", "fabio"}
	for _, away := range []bool{false, true} {
		s := newScript(t, rules(), six, burn+coup("2C 4D", "3S 4H")+coup("2C 4D", "3S 4H"))
		s.passToAuction(others)
		s.act("caio", chemin.Bid, 3000)
		for _, id := range []string{"bia", "duda", "eva", "fabio"} {
			s.act(id, chemin.NoBid)
		}
		if v := s.tb.View(""); v.Banker != 3 || v.Bank != 3000 {
			t.Fatalf("caio's hand %+v", v)
		}
		var recs []poker.Record
		if away {
			s.ok(poker.Rest{At: s.now, Player: "caio", On: true})
			recs = s.deal()
		} else {
			recs = s.ok(poker.Leave{At: s.now, Player: "caio"})
		}
		if rel := find(recs, chemin.KindRelease); len(rel) != 1 || rel[0].Amount != 3000 || !said(recs, chemin.MsgAuction) || s.tb.Phase() != chemin.Auction {
			t.Fatalf("away %v: caio's bank back and a new auction: %v", away, recs)
		}
		s.noAct("ana", chemin.Bid, 2000, "may not bid")
		if !away {
			s.no(poker.Act{At: s.now, Player: "caio", Action: poker.Action{Kind: chemin.Bid, To: 2000}}, "")
		} else {
			s.noAct("caio", chemin.Bid, 2000, "may not bid")
		}
		s.act("eva", chemin.Bid, 2000)
		for _, id := range []string{"bia", "duda", "fabio"} {
			s.act(id, chemin.NoBid)
		}
		if v := s.tb.View(""); v.Banker != 5 || v.Bank != 2000 {
			t.Fatalf("eva's hand %+v", v)
		}
		if away {
			continue
		}
		// Eva gives her first coup, wins it and passes: she may not bid.
		s.deal()
		for _, id := range []string{"fabio", "ana", "bia", "duda"} {
			s.act(id, chemin.NoBet)
		}
		s.act("fabio", chemin.Bet, 1000)
		for s.tb.Phase() == chemin.BetRound {
			s.act(s.toAct(), chemin.NoBet)
		}
		s.act("eva", chemin.Pass)
		for _, id := range []string{"fabio", "ana", "bia", "duda", "eva"} {
			s.act(id, chemin.Decline)
		}
		s.noAct("eva", chemin.Bid, 2000, "may not bid")
	}
}

// Rules 77, 78: a banker who played the hand without losing it passes it
// as rule 77 says however he gives it up: leaving during a coup he wins, or
// away at the next deal, the hand is offered at its level from his right.
func TestAWinningBankerWhoLeavesPassesAtItsLevel(t *testing.T) {
	for _, how := range []string{"during the coup", "away at the deal"} {
		s := newScript(t, rules(), five, burn+coup("2C 4D", "3S 4H"))
		s.deal()
		s.act("ana", chemin.Bank, 1000)
		var recs []poker.Record
		for _, id := range []string{"bia", "caio", "duda", "eva"} {
			s.act(id, chemin.NoBet)
		}
		if how == "during the coup" {
			s.ok(poker.Leave{At: s.now, Player: "ana"})
		}
		recs = append(recs, s.act("bia", chemin.Bet, 1000)...)
		for s.tb.Phase() == chemin.BetRound {
			recs = append(recs, s.act(s.toAct(), chemin.NoBet)...)
		}
		if how == "away at the deal" {
			s.act("ana", chemin.Continue)
			s.ok(poker.Rest{At: s.now, Player: "ana", On: true})
			recs = s.deal()
		}
		if v := s.tb.View(""); !said(recs, chemin.MsgAbandon) || v.Phase != chemin.Offered || v.Level != 1950 || v.ToAct != 2 {
			t.Fatalf("%s: %+v", how, v)
		}
		s.act("bia", chemin.Take)
		if v := s.tb.View(""); v.Banker != 2 || v.Bank != 1950 {
			t.Fatalf("%s: bia's hand %+v", how, v)
		}
	}
}

// Rule 57: a bancô com a mesa is one coup; in the next its ponto may not
// claim it again, and keeps only the priority for a bancô seul: he is asked
// first, and his bancô is «Bancô com prioridade». Rule 56: the claim and
// its standing are announced, and a bancô seul over it is «Bancô seul,
// feito à mesa», said once.
func TestBancoComAMesaIsOneCoup(t *testing.T) {
	s := newScript(t, rules(), five, burn+coup("2C 4D", "3S 4H")+coup("2C 4D", "3S 4H")+coup("2C 4D", "3S 4H"))
	s.deal()
	s.act("ana", chemin.Bank, 2000)
	s.act("bia", chemin.NoBet)
	recs := s.act("caio", chemin.BancoMesa)
	if !said(recs, chemin.MsgBancoMesa) {
		t.Fatalf("the claim: %v", recs)
	}
	s.act("duda", chemin.NoBet)
	recs = s.act("eva", chemin.NoBet)
	if !said(recs, chemin.MsgMesaMade) {
		t.Fatalf("the claim stands: %v", recs)
	}
	for s.tb.Phase() == chemin.BetRound {
		s.act(s.toAct(), chemin.NoBet)
	}
	s.act("ana", chemin.Continue) // ana won caio's 1000: a bank of 2950
	s.deal()
	s.expect("caio", chemin.BancoRound)
	if v := s.tb.View("caio"); hasChoice(v, chemin.BancoMesa) || !hasChoice(v, chemin.Banco) {
		t.Fatalf("caio's choices %+v", v.Choices)
	}
	s.noAct("caio", chemin.BancoMesa, 0, "rule 57")
	recs = s.act("caio", chemin.Banco)
	if !said(recs, chemin.MsgPriority) || said(recs, chemin.MsgBanco) {
		t.Fatalf("caio's bancô: %v", recs)
	}
	var txt string
	for _, r := range recs {
		if r.Action == string(chemin.MsgPriority) {
			txt = chemin.Text("pt", r) + " / " + chemin.Text("en", r)
		}
	}
	if txt != "Bancô com prioridade / Banco with priority" {
		t.Fatalf("%q", txt)
	}
	s.act("caio", chemin.Stand) // in a bancô both are asked (rule 70)
	s.act("ana", chemin.Stand)
	// A bancô seul over a claim: said once.
	s.act("ana", chemin.Continue)
	s.deal()
	s.expect("caio", chemin.BancoRound) // his bancô suivi
	s.act("caio", chemin.NoBet)
	s.act("bia", chemin.NoBet)
	s.act("duda", chemin.BancoMesa)
	recs = s.act("eva", chemin.Banco)
	n := 0
	for _, r := range recs {
		if r.Kind == chemin.KindAnnounce && (r.Action == string(chemin.MsgBanco) || r.Action == string(chemin.MsgSeulMade)) {
			n++
		}
	}
	if n != 1 || !said(recs, chemin.MsgSeulMade) {
		t.Fatalf("the bancô seul: %v", recs)
	}
}

// Rules 82, 96: the auction's offers are said, in priority order from the
// passer's right, when its sealed round closes, then the hand adjudicated.
func TestTheAuctionsOffersAreSaid(t *testing.T) {
	six := append(slices.Clone(five), "fabio")
	s := newScript(t, rules(), six, burn+coup("2C 4D", "3S 4H"))
	s.passToAuction([]string{"bia", "caio", "duda", "eva", "fabio"})
	s.act("eva", chemin.Bid, 2500)
	s.act("caio", chemin.Bid, 3000)
	var recs []poker.Record
	for _, id := range []string{"bia", "duda", "fabio"} {
		recs = s.act(id, chemin.NoBid)
	}
	var said []string
	for _, r := range recs {
		if r.Kind == chemin.KindAnnounce && (r.Action == string(chemin.MsgOffer) || r.Action == string(chemin.MsgAdjudicated)) {
			said = append(said, chemin.Text("en", r))
		}
	}
	if len(said) != 3 || !strings.Contains(said[0], "30") || !strings.Contains(said[1], "25") || !strings.Contains(said[2], "awarded") {
		t.Fatalf("the auction's announcements: %q", said)
	}
}

// Rule 15: a game that stops for want of players ends its sabot, all its
// cards shown; the next partida starts a new sabot.
func TestAStoppedTableEndsItsSabot(t *testing.T) {
	s := newScript(t, rules(), five[:4], burn+coup("2C 4D", "3S 4H"), burn+coup("9C KD", "2S AH"))
	s.deal()
	s.act("ana", chemin.Bank, 1000)
	for _, id := range []string{"bia", "caio", "duda"} {
		s.act(id, chemin.NoBet)
	}
	s.act("bia", chemin.Bet, 1000)
	for s.tb.Phase() == chemin.BetRound {
		s.act(s.toAct(), chemin.NoBet)
	}
	s.act("ana", chemin.Continue)
	first := s.tb.View("").Shoe
	recs := s.ok(poker.Leave{At: s.now, Player: "duda"})
	if end := find(recs, chemin.KindShoeEnd); len(end) != 1 || end[0].Value != first || len(end[0].Cards) != 312 || s.tb.View("").Shoe != "" {
		t.Fatalf("the sabot at the stop: %v", recs)
	}
	s.ok(poker.Join{At: s.now, Player: "eva", Seat: 5, Amount: 100000})
	recs = s.deal()
	if sh := find(recs, chemin.KindShoe); len(sh) != 1 || sh[0].Value == first || !said(recs, chemin.MsgFirstCoup) {
		t.Fatalf("the next partida: %v", recs)
	}
}

// Rule 92: a player who changes seats to get the hand sooner may not go
// bancô until the hand has skipped him once, where he sat down («A mão
// salta»); nor is a passed hand offered to him meanwhile.
func TestTheHandSkipsWhoMovedToGetItSooner(t *testing.T) {
	six := append(slices.Clone(five), "fabio")
	s := newScript(t, rules(), six, burn+coup("9C KD", "2S AH"))
	s.deal()
	s.ok(poker.Leave{At: s.now, Player: "bia"})
	s.ok(poker.Leave{At: s.now, Player: "eva"})
	s.ok(poker.Join{At: s.now, Player: "eva", Seat: 2, Amount: 100000}) // from seat 5 to seat 2
	s.act("ana", chemin.Bank, 1000)
	s.expect("eva", chemin.BancoRound)
	if hasChoice(s.tb.View("eva"), chemin.Banco) {
		t.Fatal("eva may go bancô")
	}
	s.noAct("eva", chemin.Banco, 0, "rule 92")
	s.act("eva", chemin.NoBet)
	for _, id := range []string{"caio", "duda", "fabio"} {
		s.act(id, chemin.NoBet)
	}
	recs := s.act("eva", chemin.Bet, 1000) // the ponto's nine: ana loses
	if v := s.tb.View(""); v.Banker != 3 || !said(recs, chemin.MsgSkip) {
		t.Fatalf("the hand went to seat %d: %v", v.Banker, recs)
	}
	var txt string
	for _, r := range recs {
		if r.Action == string(chemin.MsgSkip) {
			txt = chemin.Text("pt", r) + " / " + chemin.Text("en", r)
		}
	}
	if txt != "A mão salta / The hand skips" {
		t.Fatalf("%q", txt)
	}
	// It skipped her: she may go bancô again.
	s.deal()
	s.act("caio", chemin.Bank, 1000)
	for _, id := range []string{"duda", "fabio", "ana"} {
		s.act(id, chemin.NoBet)
	}
	s.expect("eva", chemin.BancoRound)
	if !hasChoice(s.tb.View("eva"), chemin.Banco) {
		t.Fatal("eva may not go bancô after the hand skipped her")
	}
}

// Rule 47: the banker may pay the cagnotte from outside: from his stack,
// the whole win staying in the bank, for as long as he holds the hand.
func TestTheCagnottePaidFromOutside(t *testing.T) {
	s := newScript(t, rules(), five, burn+coup("2C 4D", "3S 4H")+coup("2C 4D", "3S 4H"))
	s.deal()
	if !hasChoice(s.tb.View("ana"), chemin.PayOutside) {
		t.Fatalf("ana's choices %+v", s.tb.View("ana").Choices)
	}
	s.noAct("bia", chemin.PayOutside, 0, "rule 47")
	s.act("ana", chemin.PayOutside)
	s.expect("ana", chemin.Stake)
	s.noAct("ana", chemin.PayOutside, 0, "already")
	s.act("ana", chemin.Bank, 1000)
	for _, id := range []string{"bia", "caio", "duda", "eva"} {
		s.act(id, chemin.NoBet)
	}
	recs := s.act("bia", chemin.Bet, 1000)
	for s.tb.Phase() == chemin.BetRound {
		recs = append(recs, s.act(s.toAct(), chemin.NoBet)...)
	}
	if aw := find(recs, poker.KindAward); len(aw) != 1 || aw[0].Rake != 50 || aw[0].Shares[0].Amount != 1000 {
		t.Fatalf("award %+v", aw)
	}
	if v := s.tb.View("ana"); v.Bank != 2000 || s.stack("ana") != 100000-1000-50 || hasChoice(v, chemin.PayOutside) || s.tb.State().Cagnotte != 50 {
		t.Fatalf("the bank %d, ana %d, cagnotte %d", v.Bank, s.stack("ana"), s.tb.State().Cagnotte)
	}
}

// Rule 70: in a bancô the ponto and the banker may draw against their
// rules, the banker not with bacará; the false draws are recorded as such.
func TestFalseDrawsInABanco(t *testing.T) {
	s := newScript(t, rules(), five, burn+coup("2C 4D", "3S 4H", "5C", "AD")+coup("2C 4D", "KS TH", "9C"))
	s.deal()
	s.act("ana", chemin.Bank, 1000)
	s.act("bia", chemin.Banco)
	s.expect("bia", chemin.PontoTurn) // a six: he would stand
	recs := s.act("bia", chemin.Draw)
	if a := find(recs, poker.KindAct); len(a) != 1 || a[0].Action != "draw" || !strings.Contains(a[0].Reason, "rule 70") {
		t.Fatalf("the ponto's false draw: %+v", a)
	}
	s.expect("ana", chemin.BankerTurn) // a seven: she would stand
	recs = s.act("ana", chemin.Draw)
	if a := find(recs, poker.KindAct); len(a) != 1 || !strings.Contains(a[0].Reason, "rule 70") || !said(recs, chemin.MsgBankWins) {
		t.Fatalf("the banker's false draw: %v", recs)
	}
	s.act("ana", chemin.Continue)
	s.deal()
	s.act("bia", chemin.Suivi)
	recs = s.act("bia", chemin.Stand)
	// Bacará: the banker draws, not asked.
	if a := find(recs, poker.KindAct); len(a) != 2 || a[1].Action != "draw" || a[1].Timeout || s.tb.Phase() != chemin.AfterCoup {
		t.Fatalf("the banker's bacará: %v", recs)
	}
}

// Rule 14: when the sabot's last coup is void (a failure of the system),
// the sabot ends there; its cards are not put back (rule 97) and the next
// coup has a new sabot, rather than dealing on past the warning card.
func TestAVoidLastCoupEndsTheSabot(t *testing.T) {
	r := rules()
	r.Decks = 1
	for seed := uint64(1); seed < 40; seed++ {
		tb, _ := chemin.New(r, rng.NewSeeded(seed))
		s := &script{t: t, tb: tb, now: s0, fold: chemin.NewFolder()}
		for i, id := range five {
			s.ok(poker.Join{At: s.now, Player: id, Seat: i + 1, Amount: 100_000_000})
		}
		for coups := 0; coups < 20; coups++ {
			s.deal()
			if s.tb.Phase() == chemin.Stake {
				s.act(s.toAct(), chemin.Bank, 4000)
			}
			recs := s.act(s.toAct(), chemin.Banco)
			if said(recs, chemin.MsgLastOfSabot) && s.tb.Phase() == chemin.PontoTurn {
				recs = s.ok(poker.Resume{At: s.now})
				if end := find(recs, chemin.KindShoeEnd); len(end) != 1 || s.tb.View("").Shoe != "" {
					t.Fatalf("the void last coup: %v", recs)
				}
				if sh := find(s.deal(), chemin.KindShoe); len(sh) != 1 {
					t.Fatal("no new sabot")
				}
				return
			}
			for s.tb.Phase() == chemin.PontoTurn || s.tb.Phase() == chemin.BankerTurn {
				s.act(s.toAct(), chemin.Stand)
			}
			if s.tb.Phase() == chemin.AfterCoup {
				s.act(s.toAct(), chemin.Continue)
			}
			if s.tb.View("").Shoe == "" {
				break
			}
		}
	}
	t.Fatal("no seed voids a last coup")
}

// Rule 87: two players may bid associated, half each, the hand to the one
// of them first in priority order from the passer's right, the other his
// associate; at equal offers a lone bidder comes first; an associated offer
// nobody joined is no offer.
func TestAssociatedOffersInTheAuction(t *testing.T) {
	six := append(slices.Clone(five), "fabio")
	others := []string{"bia", "caio", "duda", "eva", "fabio"}
	for _, c := range []struct {
		lone, assoc, bank int64
		banker, associate int
	}{
		{4000, 4000, 4000, 5, 0}, // equal: eva's lone offer first
		{4000, 5000, 5000, 3, 6}, // the higher associated offer: caio's hand, fabio with him
	} {
		s := newScript(t, rules(), six, burn+coup("2C 4D", "3S 4H"))
		s.passToAuction(others)
		if !hasChoice(s.tb.View("fabio"), chemin.BidAssociated) {
			t.Fatalf("fabio's choices %+v", s.tb.View("fabio").Choices)
		}
		s.act("fabio", chemin.BidAssociated, c.assoc)
		if !hasChoice(s.tb.View("caio"), chemin.JoinBid) {
			t.Fatalf("caio's choices %+v", s.tb.View("caio").Choices)
		}
		s.noAct("bia", chemin.JoinBid, 4, "no associated offer")
		s.act("caio", chemin.JoinBid, 6)
		s.act("duda", chemin.BidAssociated, 6000) // nobody joins it
		s.act("eva", chemin.Bid, c.lone)
		recs := s.act("bia", chemin.NoBid)
		v := s.tb.View("")
		if v.Banker != c.banker || v.Associate != c.associate || v.Bank != c.bank {
			t.Fatalf("offers %d lone, %d associated: %+v\n%v", c.lone, c.assoc, v, recs)
		}
		if c.associate != 0 && (s.stack("caio") != 100000-2500 || s.stack("fabio") != 100000-2500) {
			t.Fatalf("the halves: caio %d, fabio %d", s.stack("caio"), s.stack("fabio"))
		}
		if b := find(recs, chemin.KindAnnounce); b[len(b)-1].Action != string(chemin.MsgBank) || b[len(b)-1].To != c.bank {
			t.Fatalf("the bank announced: %+v", b[len(b)-1])
		}
	}
	// A partner who leaves before the auction closes takes the offer with
	// him.
	s := newScript(t, rules(), six, burn+coup("2C 4D", "3S 4H"))
	s.passToAuction(others)
	s.act("fabio", chemin.BidAssociated, 5000)
	s.act("caio", chemin.JoinBid, 6)
	s.ok(poker.Leave{At: s.now, Player: "caio"})
	s.act("eva", chemin.Bid, 2000)
	s.act("bia", chemin.NoBid)
	s.act("duda", chemin.NoBid)
	if v := s.tb.View(""); v.Banker != 5 || v.Associate != 0 || v.Bank != 2000 {
		t.Fatalf("after caio left: %+v", v)
	}
	// The offer of a bidder who left is none to join.
	s = newScript(t, rules(), six, burn+coup("2C 4D", "3S 4H"))
	s.passToAuction(others)
	s.act("fabio", chemin.BidAssociated, 5000)
	s.ok(poker.Leave{At: s.now, Player: "fabio"})
	if hasChoice(s.tb.View("caio"), chemin.JoinBid) {
		t.Fatalf("caio may join the offer of fabio, who left: %+v", s.tb.View("caio").Choices)
	}
	s.noAct("caio", chemin.JoinBid, 6, "no associated offer")
}
