package synthetic_test

import (
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/openegm/cabinet/cards"
	"github.com/openegm/cabinet/poker"
	"github.com/openegm/cabinet/poker/pokertest"
	"github.com/openegm/cabinet/poker/synthetic"
	"github.com/openegm/cabinet/rng"
)

type script struct {
	*pokertest.Script
	tb *synthetic.Table
}

func newScript(t *testing.T, cfg synthetic.Config, src rng.Source, players ...string) *script {
	t.Helper()
	tb, err := synthetic.New(cfg, src)
	if err != nil {
		t.Fatal(err)
	}
	s := &script{pokertest.NewScript(t, tb), tb}
	for i, id := range players {
		s.Join(id, i+1)
	}
	return s
}

// antes: each player buys the cards (or not, the ids after "-").
func (s *script) antes(ids ...string) []poker.Record {
	s.T.Helper()
	var recs []poker.Record
	for _, id := range ids {
		k := synthetic.Ante
		if strings.HasPrefix(id, "-") {
			id, k = id[1:], synthetic.NoAnte
		}
		recs = s.Act(id, k, 0)
	}
	return recs
}

var find = pokertest.Find

// deckFor plans a hand: the hole cards in the order they are dealt (from
// the hand on), then the community cards in the order they are turned.
func deckFor(holes []string, board string) *pokertest.Deck {
	return pokertest.NewDeck(cards.Portuguese28(), pokertest.Plan(holes, board))
}

// betAndCall: everyone buys the cards, duda (first, left of the hand at
// seat 1) bets the minimum, the others call.
func (s *script) betAndCall() {
	s.T.Helper()
	s.Deal()
	s.antes(four...)
	s.Act("duda", poker.Raise, 100)
	for _, id := range []string{"ana", "bia", "caio"} {
		s.Act(id, poker.Call, 0)
	}
}

var four = []string{"ana", "bia", "caio", "duda"}

func TestConfigNamesTheRuleBroken(t *testing.T) {
	for _, c := range []struct {
		change func(*synthetic.Config)
		want   string
	}{
		{func(c *synthetic.Config) { c.Number = 0 }, "rule 20"},
		{func(c *synthetic.Config) { c.InitialCave = 50 }, "rule 38"},
		{func(c *synthetic.Config) { c.MinRebuy = 50 }, "rule 38"},
		{func(c *synthetic.Config) { c.Duration = 3 * time.Hour }, "rule 39"},
		{func(c *synthetic.Config) { c.DecisionTime = time.Second }, "rule 51"},
	} {
		cfg := baseConfig()
		c.change(&cfg)
		if _, err := synthetic.New(cfg, rng.NewSeeded(1)); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%+v: %v, want %q", cfg, err, c.want)
		}
	}
}

// Rule 20: the table card.
func TestTableCard(t *testing.T) {
	cfg := baseConfig()
	cfg.InitialCave, cfg.MinBet, cfg.MinRebuy = 123450, 250, 50000
	tb, err := synthetic.New(cfg, rng.NewSeeded(1))
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(tb.Card().Lines("pt"), " | "); got != "Mesa 3 | Cave inicial: 1.234,50 € | Aposta mínima: 2,50 € | Reposição mínima: 500,00 €" {
		t.Fatalf("pt: %s", got)
	}
	if got := strings.Join(tb.Card().Lines("en"), " | "); got != "Table 3 | Initial cave: €1,234.50 | Minimum bet: €2.50 | Minimum re-buy: €500.00" {
		t.Fatalf("en: %s", got)
	}
}

// Rules 11, 40, 42, 44, 45: four players at least; the hand starts at seat
// 1 and turns seat by seat; the cards are dealt from the hand on; the first
// round starts left of the hand, the next with the highest bettor.
func TestOrderOfPlay(t *testing.T) {
	deck := deckFor([]string{"8C 9C", "8D 9D", "8H 9H", "8S 9S"}, "AS KD QC JH TS")
	s := newScript(t, baseConfig(), deck, "ana", "bia", "caio")
	s.No(poker.Deal{At: s.Now}, "rule 11")
	s.OK(poker.Join{At: s.Now, Player: "duda", Seat: 4, Amount: s.tb.RequiredCave()})
	recs := s.Deal()
	if st := find(recs, poker.KindHandStart); len(st) != 1 || st[0].Seat != 1 {
		t.Fatalf("hand start %+v", st)
	}
	if v := s.tb.View("ana"); v.Offer == nil || v.Offer.Accept != synthetic.Ante || v.Offer.Amount != 100 {
		t.Fatalf("ana's offer %+v", v.Offer)
	}
	recs = s.antes(four...)
	deals := find(recs, poker.KindDeal)
	if len(deals) != 4 || deals[0].Seat != 1 || !slices.Equal(deals[0].Cards, pokertest.Cards("8C 9C")) {
		t.Fatalf("deals %+v", deals)
	}
	if b := find(recs, poker.KindBoard); len(b) != 1 || b[0].Cards[0] != pokertest.Cards("AS")[0] {
		t.Fatalf("first card %+v", b)
	}
	if id := s.ToAct(); id != "duda" { // left of the hand (seat 1) is seat 4
		t.Fatalf("first to act %s", id)
	}
	s.Act("duda", poker.Check, 0)
	s.Act("ana", poker.Check, 0)
	s.Act("bia", poker.Raise, 300) // the highest bet of the round
	s.Act("caio", poker.Call, 0)
	s.Act("duda", poker.Call, 0)
	s.Act("ana", poker.Call, 0)
	if id := s.ToAct(); id != "bia" {
		t.Fatalf("second round starts with %s, want bia (rule 45)", id)
	}
	s.CallDown()
	// The next hand goes to seat 2.
	recs = s.Deal()
	if st := find(recs, poker.KindHandStart); st[0].Seat != 2 {
		t.Fatalf("second hand at seat %d", st[0].Seat)
	}
}

// Rule 24 at the table: a flush (cor) beats a full house (fullen).
func TestFlushBeatsFullHouse(t *testing.T) {
	deck := deckFor([]string{"AH KH", "8D 8S", "JC QD", "KC AD"}, "9H 9S 8H TH QC")
	s := newScript(t, baseConfig(), deck, four...)
	s.betAndCall()
	recs := s.CallDown()
	shows := find(recs, poker.KindShow)
	if len(shows) != 4 {
		t.Fatalf("shows %+v", shows)
	}
	aw := find(recs, poker.KindAward)
	// 4 antes + 4 bets of 100 = 800; 3% to the house = 24.
	if len(aw) != 1 || aw[0].Amount != 800 || aw[0].Rake != 24 || aw[0].Shares[0] != (poker.Share{Seat: 1, Amount: 776}) {
		t.Fatalf("award %+v (shows %+v)", aw, shows)
	}
	var values []string
	for _, r := range shows {
		values = append(values, r.Value)
	}
	if !slices.Contains(values, "cor: AH KH 9H 8H TH") || !slices.Contains(values, "fullen: 8D 8S 9H 9S 8H") {
		t.Fatalf("values %v", values)
	}
}

// Rule 48: the encavado wins the pot up to his cave from each other player;
// the rest goes to the next best hand; the house takes 3% of each payment
// (rule 55).
func TestEncavado(t *testing.T) {
	// ana has the best hand (AAA), bia the second (KKK), caio and duda less.
	deck := deckFor([]string{"AH AD", "KH KD", "8C 9D", "TC JD"}, "AS KS 9H 8H QC")
	s := newScript(t, baseConfig(), deck, four...)
	s.OK(poker.Rebuy{At: s.Now, Player: "bia", Amount: 5000})
	s.OK(poker.Rebuy{At: s.Now, Player: "caio", Amount: 10000})
	s.Deal()
	s.antes(four...)
	s.Act("duda", poker.Fold, 0)
	s.Act("ana", poker.AllIn, 0) // 19900 after the ante: encavado
	s.Act("bia", poker.AllIn, 0) // 24900
	s.Act("caio", poker.Call, 0)
	recs := s.All
	aw := find(recs, poker.KindAward)
	// Main pot: 4 antes (400) + 3 x 19900 = 60100, to ana; 3% = 1803.
	// Side pot: 2 x 5000 = 10000 between bia and caio, to bia; 3% = 300.
	if len(aw) != 2 {
		t.Fatalf("awards %+v", aw)
	}
	if aw[0].Amount != 60100 || aw[0].Rake != 1803 || aw[0].Shares[0] != (poker.Share{Seat: 1, Amount: 58297}) {
		t.Fatalf("main pot %+v", aw[0])
	}
	if aw[1].Amount != 10000 || aw[1].Rake != 300 || aw[1].Shares[0] != (poker.Share{Seat: 2, Amount: 9700}) {
		t.Fatalf("side pot %+v", aw[1])
	}
	if s.Stack("ana") != 58297 || s.Stack("bia") != 9700 || s.Stack("caio") != 30000-100-24900 || s.Stack("duda") != 19900 {
		t.Fatalf("stacks %+v", s.tb.View("").Seats)
	}
}

// Rule 56: a tie splits the pot in parts whose smallest chip is the minimum
// bet; the larger part to the hand, then on in order; what is below a chip
// goes with the hand's part.
func TestSplitPotInChipsOfTheMinimumBet(t *testing.T) {
	// Seats 1, 2 and 4 hold 9 and 10: with J Q K of the board, a straight
	// each; seat 3 has three 8s.
	deck := deckFor([]string{"9C TC", "9D TD", "8H 8C", "9S TH"}, "AS KD QC JH 8S")
	s := newScript(t, baseConfig(), deck, four...)
	s.betAndCall()
	aw := find(s.CallDown(), poker.KindAward)
	if len(aw) != 1 || aw[0].Rake != 24 {
		t.Fatalf("awards %+v", aw)
	}
	// 800 - 24 = 776: 7 chips of 100 among three, 3, 2, 2 from the hand
	// (seat 1) on, and the 76 below a chip with the hand's part.
	got := slices.Clone(aw[0].Shares)
	slices.SortFunc(got, func(a, b poker.Share) int { return a.Seat - b.Seat })
	want := []poker.Share{{Seat: 1, Amount: 376}, {Seat: 2, Amount: 200}, {Seat: 4, Amount: 200}}
	if !slices.Equal(got, want) {
		t.Fatalf("shares %+v, want %+v", got, want)
	}
}

// Rule 49: a first round in which nobody bets is a pó: the pot stays, the
// next hand everyone puts the minimum bet in before the cards, and the
// first round opens with at least their sum, which a player with less
// cannot open but may call.
func TestPo(t *testing.T) {
	cfg := baseConfig()
	cfg.InitialCave = 500
	s := newScript(t, cfg, rng.NewSeeded(4), four...)
	s.OK(poker.Rebuy{At: s.Now, Player: "caio", Amount: 5000})
	s.Deal()
	s.antes("ana", "bia", "caio", "-duda")
	recs := s.CallDown()
	if c := find(recs, poker.KindCarry); len(c) != 1 || c[0].Amount != 300 || len(find(recs, poker.KindAward)) != 0 {
		t.Fatalf("pó: %+v", recs)
	}
	if v := s.tb.View(""); len(v.Pots) != 1 || v.Pots[0] != 300 {
		t.Fatalf("carried pot %+v", v.Pots)
	}
	recs = s.Deal() // no antes asked: everyone puts the minimum in
	posts := find(recs, poker.KindPost)
	if len(posts) != 4 || posts[0].Action != "po_ante" || find(recs, poker.KindHandStart)[0].Amount != 300 {
		t.Fatalf("pó hand %+v", recs)
	}
	// duda (left of the hand at seat 2: seat 1, ana) ... the opening bet is
	// at least 4 x 100; ana has 300 left, bia 300: they cannot open.
	first := s.ToAct()
	if first != "ana" {
		t.Fatalf("first to act %s", first)
	}
	if o := s.tb.View("ana").Options; o == nil || o.Raise || !o.Check {
		t.Fatalf("ana (300 left) may not open a pó of 400: %+v", o)
	}
	s.Act("ana", poker.Check, 0)
	s.Act("bia", poker.Check, 0)
	o := s.tb.View("caio").Options
	if o == nil || !o.Raise || o.MinTo != 400 {
		t.Fatalf("caio's options %+v", o)
	}
	s.No(poker.Act{At: s.Now, Player: "caio", Action: poker.Action{Kind: poker.Raise, To: 300}}, "outside 400")
	s.Act("caio", poker.Raise, 400)
	if o := s.tb.View("duda").Options; o == nil || o.Call != 400 {
		t.Fatalf("duda's options %+v", o)
	}
	s.Act("duda", poker.AllIn, 0) // 400 after the ante: calls all in
	if o := s.tb.View("ana").Options; o == nil || o.Call != 300 || o.Raise {
		t.Fatalf("ana may call all in: %+v", o)
	}
}

// Fewer than two players buy the cards: nobody went to play; the bet goes
// back and the next hand is a pó.
func TestNobodyBuysTheCards(t *testing.T) {
	s := newScript(t, baseConfig(), rng.NewSeeded(4), four...)
	s.Deal()
	recs := s.antes("ana", "-bia", "-caio")
	if len(recs) != 0 && len(find(recs, poker.KindHandEnd)) != 0 {
		t.Fatalf("ended before everyone answered: %+v", recs)
	}
	s.Now = s.Now.Add(time.Minute)
	recs = s.OK(poker.Tick{At: s.Now}) // duda does not answer
	if r := find(recs, poker.KindReturn); len(r) != 1 || r[0].Player != "ana" || r[0].Amount != 100 {
		t.Fatalf("returns %+v", recs)
	}
	if len(find(recs, poker.KindHandEnd)) != 1 || s.Stack("ana") != 20000 {
		t.Fatalf("end %+v", recs)
	}
	if posts := find(s.Deal(), poker.KindPost); len(posts) != 4 || posts[0].Action != "po_ante" {
		t.Fatalf("the next hand is no pó: %+v", posts)
	}
}

// Rule 43: the estardilho (twice the minimum bet) and restardilho (twice
// that), blind bets before anyone sees his cards (rule 58); the players
// after them act first and they last.
func TestEstardilho(t *testing.T) {
	cfg := baseConfig()
	cfg.Estardilho = true
	s := newScript(t, cfg, rng.NewSeeded(8), four...)
	s.Deal()
	s.antes(four...)
	v := s.tb.View("duda") // left of the hand (seat 1)
	if v.Offer == nil || v.Offer.Accept != synthetic.Estardilho || v.Offer.Amount != 200 {
		t.Fatalf("duda's offer %+v", v.Offer)
	}
	for _, sv := range v.Seats {
		if len(sv.Cards) > 0 {
			t.Fatalf("cards seen before the estardilho: %+v", sv)
		}
	}
	if len(s.tb.View("").Board) != 0 {
		t.Fatal("the first card is turned before the estardilho")
	}
	s.No(poker.Act{At: s.Now, Player: "duda", Action: poker.Action{Kind: synthetic.Restardilho}}, "estardilho is offered")
	s.Act("duda", synthetic.Estardilho, 0)
	if v := s.tb.View("ana"); v.Offer == nil || v.Offer.Accept != synthetic.Restardilho || v.Offer.Amount != 400 {
		t.Fatalf("ana's offer %+v", v.Offer)
	}
	recs := s.Act("ana", synthetic.Restardilho, 0)
	if len(find(recs, poker.KindBoard)) != 1 {
		t.Fatalf("no first card after the blind bets: %+v", recs)
	}
	if v := s.tb.View("bia"); len(v.Seats[1].Cards) != 2 {
		t.Fatalf("bia cannot see her cards after the estardilho: %+v", v.Seats)
	}
	if id := s.ToAct(); id != "bia" {
		t.Fatalf("first to act %s, want bia (after the restardilho)", id)
	}
	if o := s.tb.View("bia").Options; o.Call != 400 || o.MinTo != 500 {
		t.Fatalf("bia %+v", o)
	}
	s.Act("bia", poker.Call, 0)
	s.Act("caio", poker.Fold, 0)
	if id := s.ToAct(); id != "duda" {
		t.Fatalf("%s acts, want duda (the estardilho speaks after)", id)
	}
	s.Act("duda", poker.Call, 0)
	if o := s.tb.View("ana").Options; o == nil || !o.Check || !o.Raise {
		t.Fatalf("ana (the restardilho) has the option: %+v", o)
	}
}

// Rule 39: the partida lasts its time and one more round, until the hand
// comes back to whoever had it when the time ran out. Rule 61: no leaving
// with chips before the end, unless the chief allows it. Rule 17: a
// newcomer's cave is the table's chips divided among the players.
func TestPartida(t *testing.T) {
	s := newScript(t, baseConfig(), rng.NewSeeded(12), "ana", "bia", "caio", "duda", "edu")
	play := func() {
		s.Deal()
		s.antes("ana", "bia", "caio", "duda", "edu")
		s.Act(s.ToAct(), poker.Raise, 100)
		s.CallDown()
	}
	play()
	s.No(poker.Leave{At: s.Now, Player: "bia"}, "rule 61")
	var chips int64
	for _, sv := range s.tb.View("").Seats {
		chips += sv.Stack
	}
	if cave := s.tb.RequiredCave(); cave != chips/5 || chips != 5*20000-30 { // the house took 3% of 1000
		t.Fatalf("cave %d, chips %d", cave, chips)
	}
	s.OK(poker.Leave{At: s.Now, Player: "edu", Authorized: true})
	if v := s.tb.View(""); len(v.Seats) != 4 {
		t.Fatalf("edu still seated")
	}
	// The time runs out after the first hand, which seat 1 had.
	s.Now = s.Now.Add(time.Hour)
	holders := []int{}
	for i := 0; i < 10 && !s.tb.Over(); i++ {
		recs := s.Deal()
		if s.tb.Over() {
			if e := find(recs, poker.KindEnd); len(e) != 1 {
				t.Fatalf("end %+v", recs)
			}
			break
		}
		holders = append(holders, s.tb.Holder())
		s.antes("ana", "bia", "caio", "duda")
		s.Act(s.ToAct(), poker.Raise, 100)
		s.CallDown()
	}
	// Seat 1 had the hand when the time ran out: seats 2, 3, 4 get it once
	// more, then the hand would come back to seat 1.
	if !s.tb.Over() || !slices.Equal(holders, []int{2, 3, 4}) {
		t.Fatalf("over %v, holders %v", s.tb.Over(), holders)
	}
	s.No(poker.Deal{At: s.Now}, "over")
	s.OK(poker.Leave{At: s.Now, Player: "bia"})
}

// A pó pending when the partida's last round is over is played out before
// the partida ends (rule 49 over rule 39, docs/poker.md).
func TestPartidaPlaysOutAPo(t *testing.T) {
	s := newScript(t, baseConfig(), rng.NewSeeded(13), four...)
	s.Deal() // seat 1 has the hand
	s.antes(four...)
	s.Act(s.ToAct(), poker.Raise, 100)
	s.CallDown()
	s.Now = s.Now.Add(time.Hour)
	for _, holder := range []int{2, 3, 4} {
		s.Deal()
		if s.tb.Holder() != holder {
			t.Fatalf("holder %d, want %d", s.tb.Holder(), holder)
		}
		s.antes(four...)
		if holder < 4 {
			s.Act(s.ToAct(), poker.Raise, 100)
		}
		s.CallDown() // at seat 4's hand nobody bets: a pó
	}
	recs := s.Deal()
	if s.tb.Over() || len(find(recs, poker.KindHandStart)) != 1 || find(recs, poker.KindHandStart)[0].Amount != 400 {
		t.Fatalf("the pó is not played out: over %v, %+v", s.tb.Over(), recs)
	}
	s.Act(s.ToAct(), poker.Raise, 400)
	s.CallDown()
	if recs := s.Deal(); !s.tb.Over() || len(find(recs, poker.KindEnd)) != 1 {
		t.Fatalf("the partida goes on after the pó: %+v", recs)
	}
}

// A pó nobody is left to play: the players who leave give up their antes
// in it, and the last one takes it as he leaves, less the house's 3%
// (rules 49 and 55); no chip stays on an empty table.
func TestLastPlayerTakesACarriedPo(t *testing.T) {
	s := newScript(t, baseConfig(), rng.NewSeeded(4), four...)
	s.Deal()
	s.antes("ana", "bia", "caio", "-duda")
	if c := find(s.CallDown(), poker.KindCarry); len(c) != 1 || c[0].Amount != 300 {
		t.Fatalf("no pó of 300: %+v", c)
	}
	for _, id := range []string{"ana", "bia", "caio"} {
		recs := s.OK(poker.Leave{At: s.Now, Player: id, Authorized: true})
		if len(find(recs, poker.KindPoAward)) != 0 {
			t.Fatalf("%s leaves with players still seated and takes the pó: %+v", id, recs)
		}
	}
	if v := s.tb.View(""); len(v.Pots) != 1 || v.Pots[0] != 300 {
		t.Fatalf("the pó before the last player leaves: %+v", v.Pots)
	}
	before := s.Stack("duda")
	recs := s.OK(poker.Leave{At: s.Now, Player: "duda", Authorized: true})
	aw := find(recs, poker.KindPoAward)
	if len(aw) != 1 || aw[0].Amount != 300 || aw[0].Rake != 9 || len(aw[0].Shares) != 1 || aw[0].Shares[0].Amount != 291 {
		t.Fatalf("the pó paid to the last player: %+v", recs)
	}
	left := find(recs, poker.KindLeave)
	if len(left) != 1 || left[0].Amount != before+291 || left[0].Totals.Won != 291 {
		t.Fatalf("duda's cash-out with the pó: %+v (stack before %d)", left, before)
	}
	if v := s.tb.View(""); len(v.Pots) != 0 || s.tb.InPots() != 0 {
		t.Fatalf("chips left on the empty table: %+v", v.Pots)
	}
}
