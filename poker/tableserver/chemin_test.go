package tableserver_test

import (
	"context"
	"crypto/ed25519"
	"fmt"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/openegm/cabinet/poker"
	"github.com/openegm/cabinet/poker/chemin"
	. "github.com/openegm/cabinet/poker/tableserver"
	"github.com/openegm/cabinet/poker/tableserver/tablesrvtest"

	"github.com/openegm/cabinet/poker/seatclient"
	"github.com/openegm/cabinet/poker/seatmsg"
	"github.com/openegm/cabinet/poker/tableledger"
)

const cheminDef = `{"id": "chemin", "version": 1, "game": "chemin_de_fer", "title": {"pt": "Banca francesa", "en": "Chemin de fer"},
  "number": 1, "decks": 6, "seats": 12, "min_players": 4, "min_bank_cents": 10000, "min_bet_cents": 1000,
  "cagnotte_bps": 500, "cagnotte_rounding": "down", "auction_base_cents": 10000, "auction_increment_cents": 1000,
  "decision_seconds": 20, "tableau_only": false, "languages": ["pt", "en"]}`

// The decision timer runs between a chemin de fer table's coups: the
// server deals, the banker is asked his bank (no coup yet), the table
// waits for him without dealing again, and at the deadline the timer
// refuses the bank for him and the hand goes on to his right, asked anew;
// his seat's state carries his choices with their ranges.
func TestCheminTimerBetweenCoups(t *testing.T) {
	r := newRig(t, cheminDef)
	tokens := map[string]string{}
	for i, p := range []string{"ana", "bia", "caio", "duda"} {
		res, err := r.api.BuyIn("chemin", seatmsg.MoneyRequest{TransferID: fmt.Sprint("in-", p), Source: "cashier", Player: p, Amount: 60000, Seat: i + 1})
		if err != nil {
			t.Fatal(err)
		}
		tokens[p] = res.Token
	}
	r.run("chemin", "the first bank asked", time.Second, func(tb tableledger.Table) bool {
		info, _ := r.api.Table("chemin")
		return info.Status == "playing"
	})
	tb := r.ledger("chemin")
	if tb.Hand != 0 || tb.Bank != 0 {
		t.Fatalf("a coup before a bank: %+v", tb)
	}
	seat, err := seatclient.Dial(r.http.URL, tokens["ana"])
	if err != nil {
		t.Fatal(err)
	}
	defer seat.Close()
	var st seatmsg.StateMsg
	for st.Chemin == nil {
		m, err := seat.Next()
		if err != nil {
			t.Fatal(err)
		}
		if m.State != nil {
			st = *m.State
		}
	}
	c := st.Chemin
	if st.ToAct != 1 || c.Phase != "stake" || st.Deadline == 0 || c.Banker != 1 || len(c.Choices) != 3 ||
		c.Choices[0].Kind != "refuse" || c.Choices[1].Kind != "cagnotte_outside" || c.Choices[2].Kind != "bank" ||
		c.Choices[2].Min != 10000 || c.Choices[2].Max != 60000 {
		t.Fatalf("ana's state: to act %d, %+v", st.ToAct, c)
	}
	// Before the deadline the table waits: no step.
	steps := tb.Step
	for range 15 {
		r.clock.Add(time.Second)
		r.srv.Pump()
	}
	if tb := r.ledger("chemin"); tb.Step != steps {
		t.Fatalf("%d steps while the banker had time to answer", tb.Step-steps)
	}
	r.run("chemin", "the timer's refusal", time.Second, func(tb tableledger.Table) bool { return tb.Meters.Timeouts == 1 })
	info, _ := r.api.Table("chemin")
	if tb := r.ledger("chemin"); tb.Hand != 0 || info.Status != "playing" {
		t.Fatalf("after the refusal: %+v, %s", tb, info.Status)
	}
	for {
		m, err := seat.Next()
		if err != nil {
			t.Fatal(err)
		}
		if m.State != nil && m.State.Chemin != nil && m.State.Chemin.Banker == 2 {
			says := m.State.Chemin.Says
			if m.State.ToAct != 2 || len(m.State.Chemin.Choices) != 1 || len(says) == 0 || says[len(says)-1].EN != "Bank refused" {
				t.Fatalf("after the refusal ana sees %+v", m.State.Chemin)
			}
			break
		}
	}
}

// The closing hour through the server (rule 107): the operator's daily
// hour (21:10 here) is told to a chemin de fer table from the partida's
// start (the first buy-in, 21:00). The server stops before the hour and
// starts again half an hour after it: the coup the stop cut is void, and
// the table is told the hour itself, not the time it is told. Its sabot
// began less than 20 minutes before 21:10, so one last coup at most is
// dealt, said «Último golpe», then the partida ends: every player is paid
// to his source as cash-out out:BUYIN and sees the table close, the
// session is closed and a new one opens, and the ledger verifies (every
// step re-run by the engine, the close included).
func TestCheminClosingHourThroughTheServer(t *testing.T) {
	certs, pub := certify(t, cheminDef)
	r := &rig{t: t, data: t.TempDir(), board: t.TempDir(), pub: pub, certs: certs,
		clock:   &clock{t: time.Date(2026, 6, 1, 21, 0, 0, 0, time.UTC)},
		closing: DailyClosing(21, 10, time.UTC)}
	r.start()
	players := []string{"ana", "bia", "caio", "duda"}
	tokens := map[string]string{}
	for _, p := range players {
		res, err := r.api.BuyIn("chemin", seatmsg.MoneyRequest{TransferID: "in-" + p, Source: "cashier", Player: p, Amount: 60000})
		if err != nil {
			t.Fatal(err)
		}
		tokens[p] = res.Token
	}
	dial := func() []*tablesrvtest.Bot {
		var bots []*tablesrvtest.Bot
		for i, p := range players {
			b, err := tablesrvtest.Dial(r.http.URL, tokens[p], uint64(i+1))
			if err != nil {
				t.Fatal(err)
			}
			bots = append(bots, b)
		}
		return bots
	}
	bots := dial()
	r.run("chemin", "two coups before the hour", time.Second, func(tb tableledger.Table) bool { return tb.Meters.Hands >= 2 })
	if now := r.clock.Now(); !now.Before(time.Date(2026, 6, 1, 21, 10, 0, 0, time.UTC)) {
		t.Fatalf("two coups took until %s", now)
	}
	for _, b := range bots {
		b.Close()
	}
	r.stop()
	r.clock.Add(40 * time.Minute)
	r.start()
	bots = dial()
	defer func() {
		for _, b := range bots {
			b.Close()
		}
	}()
	r.run("chemin", "the partida's close", time.Second, func(tb tableledger.Table) bool { return tb.Session == 2 })

	// The log: the hour told once, as the hour; after it no sabot and one
	// coup at most, said «Último golpe»; the partida's end.
	var told []tableledger.Event
	var after []poker.Record
	err := r.led.Since(0, func(_ uint64, rec tableledger.Record) error {
		if x, ok := rec.(tableledger.Step); ok {
			if x.Event.Kind == "closing" {
				told = append(told, x.Event)
			}
			if len(told) > 0 {
				after = append(after, x.Records...)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	hour := time.Date(2026, 6, 1, 21, 10, 0, 0, time.UTC)
	if len(told) != 1 || !told[0].Hour.Equal(hour) || told[0].At.Before(hour.Add(30*time.Minute)) {
		t.Fatalf("the closing hour told %+v", told)
	}
	starts, shoes, ends, last := 0, 0, 0, 0
	for _, rec := range after {
		switch {
		case rec.Kind == poker.KindHandStart:
			starts++
		case rec.Kind == chemin.KindShoe:
			shoes++
		case rec.Kind == poker.KindEnd:
			ends++
		case rec.Kind == chemin.KindAnnounce && rec.Action == string(chemin.MsgLastCoup):
			last++
		}
	}
	t.Logf("after the hour told at %s: %d coups, %d «Último golpe»", told[0].At.Format(time.TimeOnly), starts, last)
	if starts > 1 || shoes != 0 || ends != 1 || last != starts {
		t.Fatalf("after the hour: %d coups, %d «Último golpe», %d sabots, %d ends", starts, last, shoes, ends)
	}
	// Every player paid to his source, and told so on his seat; what the
	// cashier put in came back to it but the cagnotte.
	for i, p := range players {
		res, ok := r.srv.Transfer("out:in-" + p)
		if !ok || res.Status != "done" || res.Source != "cashier" {
			t.Fatalf("%s's cash-out at the close: %+v", p, res)
		}
		ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
		err := bots[i].Wait(ctx, "the left message", func(seatmsg.StateMsg) bool { return bots[i].Left() != nil })
		cancel()
		if err != nil {
			t.Fatal(err)
		}
		if l := bots[i].Left(); l.Amount != res.Amount {
			t.Fatalf("%s left with %d, paid %d", p, l.Amount, res.Amount)
		}
	}
	var paidIn, paidOut int64
	for _, tr := range r.srv.TransfersOf("cashier") {
		if tr.Kind == tableledger.CashOut {
			paidOut += tr.Amount
		} else {
			paidIn += tr.Amount
		}
	}
	tb := r.ledger("chemin")
	if tb.Meters.PaidIn != paidIn || paidIn != paidOut+tb.Meters.Rake || len(tb.Players) != 0 || !tb.Open {
		t.Fatalf("paid in %d (ledger %d), out %d, cagnotte %d", paidIn, tb.Meters.PaidIn, paidOut, tb.Meters.Rake)
	}
	r.stop()
	v, err := tableledger.Verify(r.data, mustPub(t, r.board), []ed25519.PublicKey{r.pub})
	if err != nil || !v.OK || v.Sessions != 2 {
		t.Fatalf("verify %+v %v", v, err)
	}
	// The inspector's report states the close: the hour, when it was
	// told, no sabot played on, the coups after it, the partida's end.
	rep, err := tableledger.MakeReport(r.data, mustPub(t, r.board), []ed25519.PublicKey{r.pub})
	if err != nil {
		t.Fatal(err)
	}
	if c := rep.Closes; len(c) != 1 || c[0].Table != "chemin" || c[0].Session != 1 || !c[0].Hour.Equal(hour) || !c[0].Told.Equal(told[0].At) ||
		c[0].PlaysOn || c[0].Coups != starts || c[0].Ended.Before(c[0].Told) {
		t.Fatalf("the report's closes %+v", rep.Closes)
	}
	var text strings.Builder
	rep.WriteText(&text, "pt")
	if !strings.Contains(text.String(), "regra 107") || !strings.Contains(text.String(), "hora 2026-06-01T21:10:00Z") {
		t.Fatalf("the report in Portuguese:\n%s", text.String())
	}
}

// The browser seat names every phase of the table in both its languages,
// the closed table's too (rule 107), and has the words of the partida's
// last coup and of a sabot played on past the hour: a phase the engine
// adds without its words would show the player a key.
func TestCheminPageNamesEveryPhase(t *testing.T) {
	js, err := os.ReadFile("web/chemin.js")
	if err != nil {
		t.Fatal(err)
	}
	phases := []chemin.Phase{chemin.Idle, chemin.Stake, chemin.BancoRound, chemin.BetRound, chemin.Cards, chemin.PontoTurn, chemin.BankerTurn,
		chemin.AfterCoup, chemin.Offered, chemin.Auction, chemin.Forced, chemin.Closed}
	for _, p := range phases {
		if n := strings.Count(string(js), " ph_"+string(p)+": "); n != 2 {
			t.Errorf("phase %s is named %d times, want once in Portuguese and once in English", p, n)
		}
	}
	// Every decision's button and record words, both languages (rule
	// 101's two among them).
	for _, k := range []poker.ActionKind{chemin.Bank, chemin.BankAssociated, chemin.Refuse, chemin.Associate, chemin.Banco, chemin.Suivi,
		chemin.BancoMesa, chemin.Bet, chemin.NoBet, chemin.PlayCards, chemin.PassCards, chemin.Draw, chemin.Stand, chemin.Continue,
		chemin.SetGarage, chemin.Reduce, chemin.Halve, chemin.Pass, chemin.Take, chemin.Decline, chemin.Bid, chemin.BidAssociated,
		chemin.JoinBid, chemin.NoBid, chemin.PayOutside} {
		for _, w := range []string{" ch_" + string(k) + ": ", " a_" + string(k) + ": "} {
			if n := strings.Count(string(js), w); n != 2 {
				t.Errorf("%q is given %d times, want once in Portuguese and once in English", w, n)
			}
		}
	}
	for _, k := range []string{"c_final_coup", "c_plays_on"} {
		if n := strings.Count(string(js), " "+k+": "); n != 2 {
			t.Errorf("%s is given %d times, want twice", k, n)
		}
	}
}
