package main

import (
	"context"
	"math/rand/v2"
	"strings"
	"testing"
	"time"

	"github.com/openegm/cabinet/poker/seatmsg"
	"github.com/openegm/cabinet/poker/tableserver/tablesrvtest"
)

// The kill loop: the real server is SIGKILLed at random moments while bots
// play both games, and every other time while a hand is surely in play (a
// bot holds its decision), then started again. Every start must resume:
// the ledger opens with no evidence of tampering (a power loss is never
// taken for it), the tables replay, a hand the kill cut is void and every
// stake goes back to its player. The bots' owners send again every request
// whose answer the kill lost, with its ID: each is applied once. At the end
// everyone cashes out; the ledger verifies, every hand is audited, and the
// money each source put in and took out is what the API answered: not a
// cent lost or created.
//
// A chemin de fer table plays beside them, and every fourth kill comes
// while one of its coups is surely in play (a bot holds its bet or its
// draw): the coup is void, every stake goes back, the bank stays its
// banker's; every fourth, after the first, while its bank is surely in
// auction (the banker passes, everyone declines the hand, a bidder holds
// his offer): the auction goes on after the restart with its timer
// started again. Every coup in the log either finished or is void, each
// replays with its money conserved, and the cagnotte is the definition's.
func TestCrashLoop(t *testing.T) {
	t.Parallel()
	iterations := 8
	if testing.Short() {
		iterations = 4
	}
	if n := envInt("CRASH_ITERATIONS"); n > 0 {
		iterations = int(n)
	}
	s := startServer(t, t.TempDir()+"/data", "--table", "holdem-nl-2", "--table", "sintetico-3", "--table", cheminTable)
	d := newDriver(t, s, 2)
	d.add("holdem-nl-2", "ana", "bia", "caio")
	d.add("sintetico-3", "edu", "fabi", "gil", "hugo")
	d.cave[cheminTable], d.low[cheminTable] = 60000, 12000
	d.add(cheminTable, "ivo", "joana", "leo", "mara")
	rnd := rand.New(rand.NewPCG(3, 4))
	held, coupsCut, auctionsCut := 0, 0, 0
	for i := 0; i < iterations; i++ {
		d.reconnect()
		switch i % 4 {
		case 2:
			if cheminHold(t, d, false) {
				before := d.ledger(cheminTable).Meters.Voided
				s.kill()
				s.start()
				d.resend()
				if after := d.ledger(cheminTable).Meters.Voided; after != before+1 {
					t.Fatalf("kill %d cut a coup of chemin de fer: %d void coups before, %d after", i+1, before, after)
				}
				coupsCut++
				continue
			}
		case 3:
			if cheminHold(t, d, true) {
				before := d.ledger(cheminTable)
				s.kill()
				s.start()
				d.resend()
				after := d.ledger(cheminTable)
				if after.Meters.Voided != before.Meters.Voided || after.Hand != 0 || after.Bank != 0 {
					t.Fatalf("kill %d in an auction: void %d then %d, coup %d, bank %d after", i+1, before.Meters.Voided, after.Meters.Voided, after.Hand, after.Bank)
				}
				info, err := s.api.Table(cheminTable)
				if err != nil || info.Status != "playing" {
					t.Fatalf("kill %d in an auction: after the restart %+v %v", i+1, info, err)
				}
				auctionsCut++
				continue
			}
		}
		hold := i%2 == 1
		p := d.holdemBot()
		if p == nil {
			hold = false // nobody sure to be dealt now: a random kill
		}
		if hold {
			// A hand surely in play: the first hold'em bot stops acting, and
			// the kill comes once it is his turn (the decision timer is 20 s).
			p.bot.Hold(true)
			ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
			err := p.bot.Wait(ctx, "a decision of "+p.name, func(m seatmsg.StateMsg) bool { return m.Options != nil })
			cancel()
			if err != nil {
				// The server must be up: a dropped seat's socket is no
				// reason to stop, a server that died is a failure (with
				// its log). Seen once in a loaded run: the held bot's
				// socket closed without a close frame (1006).
				if _, aerr := d.s.api.Table("holdem-nl-2"); aerr != nil {
					log, _ := readLog(s)
					t.Fatalf("%v; the server does not answer: %v\n%s", err, aerr, log)
				}
				t.Logf("kill %d: %v; the server is up, the kill comes at a random moment instead", i+1, err)
				hold = false
			} else {
				held++
			}
		}
		before := d.ledger("holdem-nl-2").Meters.Voided
		if hold {
			s.kill()
		} else {
			// Killed at a random moment, while the owners' requests go on:
			// one may be cut before, during or after its commit.
			killed := make(chan struct{})
			go func(after time.Duration) {
				time.Sleep(after)
				s.kill()
				close(killed)
			}(time.Duration(200+rnd.IntN(1200)) * time.Millisecond)
		churn:
			for {
				select {
				case <-killed:
					break churn
				default:
				}
				d.seatAll()
				p := d.players[rnd.IntN(len(d.players))]
				switch rnd.IntN(6) {
				case 0: // someone leaves now and then (he comes back later)
					d.request(p, "cash_out", 0, "chefe-de-partida")
				case 1:
					d.request(p, "rebuy", 5000, "")
				}
				time.Sleep(time.Duration(rnd.IntN(40)) * time.Millisecond)
			}
		}
		s.start()
		d.resend()
		after := d.ledger("holdem-nl-2").Meters.Voided
		if hold && after != before+1 {
			t.Fatalf("kill %d cut a hand of hold'em: %d void hands before, %d after", i+1, before, after)
		}
		if log, _ := readLog(s); strings.Contains(log, "evidence of tampering") {
			t.Fatalf("a kill was taken for tampering:\n%s", log)
		}
	}
	if held == 0 && iterations >= 2 {
		t.Error("no kill came while a hand was surely in play")
	}
	if coupsCut == 0 && iterations >= 3 {
		t.Error("no kill came while a coup of chemin de fer was surely in play")
	}
	d.reconnect()
	d.cashOutAll()
	for _, table := range []string{"holdem-nl-2", "sintetico-3", cheminTable} {
		deadline := time.Now().Add(time.Minute)
		for len(d.ledger(table).Players) > 0 {
			if time.Now().After(deadline) {
				t.Fatalf("%s: players left %+v", table, d.ledger(table).Players)
			}
			time.Sleep(50 * time.Millisecond)
		}
	}
	want := d.sources()
	d.closeBots()
	s.stop()
	rep := checkLedger(t, s, rulesOf)
	checkSources(t, s, rep, want)
	checkCoups(t, s, rep)
	var voided int64
	for _, tb := range rep.Tables {
		voided += tb.Meters.Voided
	}
	resent := 0
	for _, r := range d.journal {
		if r.tries > 1 {
			resent++
		}
	}
	t.Logf("%d kills survived (%d while a hand was surely in play, %d a coup of chemin de fer, %d its auction), %d hands and coups void and their stakes returned, %d requests, %d sent again after a kill",
		iterations, held, coupsCut, auctionsCut, voided, len(d.journal), resent)
}

// cheminBots are the chemin de fer players with a bot who stay (no
// cash-out asked, not resting).
func (d *driver) cheminBots() []*player {
	tb := d.ledger(cheminTable)
	var out []*player
	for _, p := range d.players {
		if seat := tb.Players[p.name]; p.table == cheminTable && p.bot != nil && seat != nil && seat.CashOut == "" && !seat.Resting {
			out = append(out, p)
		}
	}
	return out
}

// cheminHold brings the chemin de fer table to a decision that a held bot
// keeps open: one of a coup in play (bet, bancô, the cards offered by rule
// 101, draw), or (auction) an
// offer in the bank's auction, where the others pass the hand and decline
// it. It reports false when the table could not be brought there in time
// (too few players seated after the kills' churn): a random kill then.
func cheminHold(t *testing.T, d *driver, auction bool) bool {
	t.Helper()
	bots := d.cheminBots()
	if len(bots) < 4 {
		return false
	}
	inCoup := map[string]bool{"banco_round": true, "bet_round": true, "cards": true, "ponto": true, "banker": true}
	h := bots[0]
	for _, p := range bots {
		p := p
		p.bot.SetChooser(func(m seatmsg.StateMsg) (string, int64, bool) {
			c := m.Chemin
			if c == nil {
				return "", 0, false
			}
			if p == h && (c.Phase == "auction" || !auction && inCoup[c.Phase]) {
				return "", 0, false // held: the table waits
			}
			if auction {
				for _, k := range []string{"pass", "decline"} {
					for _, ch := range c.Choices {
						if ch.Kind == k {
							return k, 0, true
						}
					}
				}
			}
			return tablesrvtest.CheminAct(p.bot.Rand(), c.Choices)
		})
	}
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	err := h.bot.Wait(ctx, "a held chemin de fer decision of "+h.name, func(m seatmsg.StateMsg) bool {
		c := m.Chemin
		if c == nil || len(c.Choices) == 0 {
			return false
		}
		if auction {
			return c.Phase == "auction"
		}
		return inCoup[c.Phase]
	})
	if err != nil {
		t.Logf("%v: a random kill instead", err)
		return false
	}
	return true
}
