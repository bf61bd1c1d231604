package tableserver_test

import (
	"fmt"
	"testing"
	"time"

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
