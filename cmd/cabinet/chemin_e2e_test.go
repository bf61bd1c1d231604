package main

import (
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/openegm/cabinet/internal/cabinettest"
	"github.com/openegm/cabinet/machine"
	"github.com/openegm/cabinet/poker/seatmsg"
	"github.com/openegm/cabinet/poker/tableserver/tablesrvtest"
)

// A seat at a chemin de fer table of the casino's table server: the real
// cabinet, the real tablesrv, three bots of the tests in the other seats
// (the table deals with four players at least, rule 15).

const cheminTable = "chemin-6d"

// cheminPick is the cabinet player's decision among his choices: he
// states the minimum bank when the hand is his and keeps it after a win,
// goes bancô or stakes the least as ponto, plays his five and the
// banker's choices at random, takes a bank forced on him (rather than
// give up his seat) and stays out of auctions; ok false when nothing is
// asked of him but the standing offer to associate with the banker.
func cheminPick(rnd *rand.Rand, c *seatmsg.CheminMsg) (kind string, to int64, ok bool) {
	has := map[string]seatmsg.ChoiceMsg{}
	for _, ch := range c.Choices {
		has[ch.Kind] = ch
	}
	first := func(kinds ...string) (string, int64, bool) {
		for _, k := range kinds {
			if ch, ok := has[k]; ok {
				return k, ch.Min, true
			}
		}
		return "", 0, false
	}
	if len(has) == 0 || (len(has) == 1 && has["associate"].Kind != "") {
		return "", 0, false
	}
	if _, ok := has["banco"]; ok && rnd.IntN(2) == 0 {
		return "banco", 0, true
	}
	if k, to, ok := first("bank", "bet", "continue", "take", "no_bid", "decline"); ok {
		return k, to, true
	}
	if _, ok := has["draw"]; ok && rnd.IntN(2) == 0 {
		return "draw", 0, true
	}
	if k, to, ok := first("stand", "no_bet"); ok {
		return k, to, true
	}
	return tablesrvtest.CheminAct(rnd, c.Choices)
}

// cheminLeaving is the decision of a player whose leave is asked: no
// stake, the hand passed, a bank declined, his five by the rule's
// default.
func cheminLeaving(c *seatmsg.CheminMsg) (string, int64, bool) {
	for _, k := range []string{"pass", "no_bet", "stand", "decline", "no_bid", "refuse"} {
		for _, ch := range c.Choices {
			if ch.Kind == k {
				return k, 0, true
			}
		}
	}
	return "", 0, false
}

// TestCheminSeatAtTheCabinet: notes in, a buy-in at the chemin de fer
// table asked while the table server is down and the cabinet killed with
// it open, asked again by the restarted cabinet and done once; the same
// request sent again moves nothing; coups played through poker_act by the
// cabinet's player as ponto with a stake and as banker; a leave recorded
// while the server is down and the cabinet killed with it open. Both
// ledgers hold every transfer exactly once for the same amounts, the
// credits are what came back, and both ledgers verify.
func TestCheminSeatAtTheCabinet(t *testing.T) {
	dir := t.TempDir()
	s := startTableServerWith(t, filepath.Join(dir, "tablesrv"), cheminTable)
	data := filepath.Join(dir, "cabinet")
	os.MkdirAll(data, 0o700)
	c := pokerCabinet(t, data, s)
	for range 4 {
		c.Bill(5000)
	}
	before := c.State().CreditsCents
	info := listed(t, c, cheminTable)
	if info.Game != "chemin_de_fer" || info.RequiredCave <= 0 {
		t.Fatalf("the cabinet lists the chemin table as %+v", info)
	}
	c.Send(cabinettest.Command{Cmd: "select_game", Value: machine.GamePoker})
	// A stack that holds the minimum bank and a few stakes: a chemin
	// table asks a least, the player brings what he chooses.
	const buy = 15000

	// The server is down when the buy-in is recorded, and the cabinet
	// dies before any answer: the restarted cabinet asks it again, under
	// its ID, once the server is back.
	s.kill()
	if r := c.Send(cabinettest.Command{Cmd: "poker_buyin", Value: cheminTable, Cents: buy}); r.Refused != "" {
		t.Fatalf("buy-in refused: %s", r.Refused)
	}
	c.Kill()
	c = pokerCabinet(t, data, s)
	if v := c.State(); v.Poker == nil || v.Poker.Status != "buying_in" || v.Poker.Transfer == "" || v.CreditsCents != before-buy {
		t.Fatalf("the buy-in recorded before the kill is not open after it: credits %d, %+v", v.CreditsCents, v.Poker)
	}
	s.start()
	v := settled(t, c)
	if v.Poker.Status != "seated" || v.Poker.AtTable != buy || v.CreditsCents != before-buy {
		t.Fatalf("after the buy-in: credits %d, seat %+v", v.CreditsCents, v.Poker)
	}
	source := v.Poker.Source
	if in, _ := agree(t, c, s, source); in != buy {
		t.Fatalf("the server holds %d cents in from the cabinet, %d were bought", in, buy)
	}
	// The same request again (an answer lost on the way): the recorded
	// answer, and no money moved again.
	buyIn := readBuyIn(t, c)
	paid := func() int64 {
		tb, err := s.api.Ledger(cheminTable)
		if err != nil {
			t.Fatal(err)
		}
		return tb.Meters.PaidIn
	}
	was := paid()
	res, err := s.api.BuyIn(cheminTable, seatmsg.MoneyRequest{TransferID: buyIn, Source: source, Player: v.Poker.Player, Amount: buy})
	if err != nil || res.ID != buyIn || res.Amount != buy || paid() != was {
		t.Fatalf("the buy-in %s again: %+v %v; paid in %d then %d", buyIn, res, err, was, paid())
	}

	bots := []string{"ana", "bia", "caio"}
	for i, name := range bots {
		botWith(t, s, name, 60000, uint64(30+i))
	}

	// Coups: the cabinet's decisions through poker_act, as the screen's
	// buttons send them.
	rnd := rand.New(rand.NewPCG(25, 107))
	var acts int
	kinds := map[string]int{}
	// The coups he played as ponto with a stake (his bet in the coup's
	// records) and as banker (the hand his with a bank on the table).
	ponto, banker := map[uint64]bool{}, map[uint64]bool{}
	var last string
	// play answers the cabinet's decision of the moment, once each, with
	// pick; false when the seat has no state to decide on.
	play := func(pick func(*seatmsg.CheminMsg) (string, int64, bool)) bool {
		p := c.State().Poker
		if p == nil || p.State == nil || p.State.Chemin == nil || p.State.You == nil {
			return false
		}
		st := p.State
		ch, me := st.Chemin, st.You.Seat
		if ch.Banker == me && st.Hand > 0 && ch.Bank > 0 {
			banker[st.Hand] = true
		}
		for _, r := range slices.Concat(st.Last, st.Current) {
			switch {
			case r.Kind == "bet" && r.Seat == me && r.Amount > 0:
				ponto[r.Hand] = true
			case r.Kind == "bank" && r.Seat == me && r.Amount > 0:
				banker[r.Hand] = true
			}
		}
		key := fmt.Sprintf("%d/%s/%d/%d/%v", st.Hand, ch.Phase, st.Deadline, len(ch.Says), ch.Choices)
		if kind, to, ok := pick(ch); ok && key != last {
			if r := c.Send(cabinettest.Command{Cmd: "poker_act", Action: kind, Cents: to}); r.Refused != "" {
				t.Fatalf("poker_act %s %d refused: %s", kind, to, r.Refused)
			}
			acts++
			kinds[kind]++
			last = key
		}
		return true
	}
	start := time.Now()
	deadline := start.Add(3 * time.Minute)
	for {
		tb, err := s.api.Ledger(cheminTable)
		if err != nil {
			t.Fatal(err)
		}
		if len(ponto) > 0 && (len(banker) > 0 || tb.Meters.Hands >= 12) && tb.Meters.Hands >= 3 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("%d coups in 3 minutes; the cabinet acted %d times (%v), staked as ponto in coups %v, banked in %v",
				tb.Meters.Hands, acts, kinds, ponto, banker)
		}
		if !play(func(ch *seatmsg.CheminMsg) (string, int64, bool) { return cheminPick(rnd, ch) }) {
			time.Sleep(20 * time.Millisecond)
			continue
		}
		time.Sleep(15 * time.Millisecond)
	}
	t.Logf("%s of coups: the cabinet acted %d times %v; ponto with a stake in coups %v, banker in %v",
		time.Since(start).Round(time.Second), acts, kinds, ponto, banker)

	// The leave, recorded while the server is down (a coup in play is
	// voided at its restart, the stakes returned) and the cabinet killed
	// before any answer: the restarted cabinet asks again under the same ID
	// until the server pays it, once. The bots sit down again on their
	// seats' tokens; the player plays out meanwhile (a leave is paid when
	// the coup he plays ends; holding the bank, he passes the hand).
	s.kill()
	if r := c.Send(cabinettest.Command{Cmd: "poker_leave"}); r.Refused != "" {
		t.Fatalf("leave refused: %s", r.Refused)
	}
	c.Kill()
	c = pokerCabinet(t, data, s)
	if v := c.State(); v.Poker == nil || v.Poker.Status != "cashing_out" || v.Poker.Transfer == "" {
		t.Fatalf("the cash-out recorded before the kill is not open after it: %+v", v.Poker)
	}
	s.start()
	for i, name := range bots {
		res, err := s.api.Transfer("bot-" + name)
		if err != nil || res.Token == "" {
			t.Fatalf("bot %s's seat after the restart: %+v %v", name, res, err)
		}
		b, err := tablesrvtest.Dial(s.url, res.Token, uint64(40+i))
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(b.Close)
	}
	deadline = time.Now().Add(2 * time.Minute)
	for v = c.State(); v.Poker == nil || v.Poker.Transfer != "" || v.Poker.Status != ""; v = c.State() {
		if time.Now().After(deadline) {
			t.Fatalf("the cash-out not answered in 2 minutes: %+v", v.Poker)
		}
		play(cheminLeaving)
		time.Sleep(15 * time.Millisecond)
	}
	if v.Poker.Status != "" {
		t.Fatalf("after leaving: %+v", v.Poker)
	}
	in, out := agree(t, c, s, source)
	if in != buy || v.CreditsCents != before-in+out {
		t.Fatalf("credits %d; before %d, to the table %d (server %d), back %d", v.CreditsCents, before, buy, in, out)
	}
	// The session's summary: the cash-out as the ledger has it, with the
	// server's totals, or the last the restarted seat saw (none when the
	// answer came before the seat linked again: the summary says they are
	// provisional).
	v = c.WaitFor("the session's summary", func(v machine.View) bool { return v.Poker != nil && v.Poker.Ended != nil })
	e := v.Poker.Ended
	if e.Table != cheminTable || e.Amount != out || e.Totals.CashedOut != out ||
		((e.Server || e.Totals.BoughtIn != 0) && (e.Totals.BoughtIn != in || e.Totals.Hands < 1)) {
		t.Fatalf("the session's summary %+v; bought in %d, cashed out %d", e, in, out)
	}
	tb, err := s.api.Ledger(cheminTable)
	if err != nil {
		t.Fatal(err)
	}
	if p := tb.Players[source]; p != nil {
		t.Fatalf("the server still seats the cabinet's player: %+v", p)
	}
	t.Logf("bought in %d, cashed out %d after %d coups at the table (summary from the server: %v)", in, out, tb.Meters.Hands, e.Server)

	if r := c.Send(cabinettest.Command{Cmd: "press", Button: machine.BtnCashOut}); r.Refused != "" {
		t.Fatalf("cash-out after leaving: %q", r.Refused)
	}
	c.Stop()
	s.stop()
	s.verify()
	mustVerify(t, data, c.MachinePub())
}
