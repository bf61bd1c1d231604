package main

import (
	"context"
	"math/rand/v2"
	"strings"
	"testing"
	"time"

	"github.com/openegm/cabinet/poker/seatmsg"
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
func TestCrashLoop(t *testing.T) {
	iterations := 8
	if testing.Short() {
		iterations = 3
	}
	if n := envInt("CRASH_ITERATIONS"); n > 0 {
		iterations = int(n)
	}
	s := startServer(t, t.TempDir()+"/data", "--table", "holdem-nl-2", "--table", "sintetico-3")
	d := newDriver(t, s, 2)
	d.add("holdem-nl-2", "ana", "bia", "caio")
	d.add("sintetico-3", "edu", "fabi", "gil", "hugo")
	rnd := rand.New(rand.NewPCG(3, 4))
	held := 0
	for i := 0; i < iterations; i++ {
		d.reconnect()
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
	d.reconnect()
	d.cashOutAll()
	for _, table := range []string{"holdem-nl-2", "sintetico-3"} {
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
	for _, src := range rep.Sources {
		if w := want[src.Source]; w.In != src.In || w.Out != src.Out {
			t.Errorf("source %s: ledger in %d out %d, the API answered in %d out %d", src.Source, src.In, src.Out, w.In, w.Out)
		}
	}
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
	t.Logf("%d kills survived (%d while a hand was surely in play), %d hands void and their stakes returned, %d requests, %d sent again after a kill",
		iterations, held, voided, len(d.journal), resent)
}
