package main

import (
	"os"
	"strconv"
	"testing"
	"time"

	"github.com/openegm/cabinet/poker/pokertest"
)

// rulesOf are the shipped tables' rules as the auditor applies them.
var rulesOf = map[string]pokertest.Rules{
	"holdem-nl-2": pokertest.HoldemRules(10, 500),
	"sintetico-3": pokertest.SyntheticRules(11, 100),
}

// A session of each game through the real server: bots buy in through the
// API, play over the WebSocket, buy again when broke, and cash out. Then
// the server's ledger verifies (every step re-run by the engines), every
// hand in it is audited with rules written apart from the engines (every
// pot to the right winners, the rake to the cent), each table's money adds
// up, and what each source paid in and got back is what the API answered.
func TestSessionsThroughTheServer(t *testing.T) {
	t.Parallel()
	hands := map[string]int64{"holdem-nl-2": 40, "sintetico-3": 25}
	if testing.Short() {
		hands = map[string]int64{"holdem-nl-2": 12, "sintetico-3": 8}
	}
	if n := envInt("TABLESRV_HANDS"); n > 0 { // a longer session: TABLESRV_HANDS=2000
		hands = map[string]int64{"holdem-nl-2": n, "sintetico-3": n}
	}
	s := startServer(t, t.TempDir()+"/data", "--table", "holdem-nl-2", "--table", "sintetico-3")
	d := newDriver(t, s, 1)
	d.add("holdem-nl-2", "ana", "bia", "caio", "duda")
	d.add("sintetico-3", "edu", "fabi", "gil", "hugo", "ines")
	start := time.Now()
	deadline := start.Add(4*time.Minute + time.Duration(hands["holdem-nl-2"])*time.Second)
	for {
		d.seatAll()
		done := true
		for table, n := range hands {
			if d.ledger(table).Meters.Hands < n {
				done = false
			}
		}
		if done {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("after %s: holdem %+v, synthetic %+v", time.Since(start), d.ledger("holdem-nl-2").Meters, d.ledger("sintetico-3").Meters)
		}
		time.Sleep(100 * time.Millisecond)
	}
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
	t.Logf("played in %s", time.Since(start))
	rep := checkLedger(t, s, rulesOf)
	if len(rep.Sources) != len(want) {
		t.Fatalf("sources %+v, the driver's %+v", rep.Sources, want)
	}
	for _, src := range rep.Sources {
		if w := want[src.Source]; w.In != src.In || w.Out != src.Out {
			t.Errorf("source %s: ledger in %d out %d, the API answered in %d out %d", src.Source, src.In, src.Out, w.In, w.Out)
		}
	}
	for _, tb := range rep.Tables {
		// A pó carried when the players leave is the last one's (docs/poker.md,
		// rule 49): nothing stays on an empty table.
		if len(tb.Players) != 0 || tb.Carried != 0 || tb.Meters.PaidIn != tb.Meters.PaidOut+tb.Meters.Fees+tb.Meters.Rake {
			t.Errorf("%s at the end: %+v", tb.ID, tb)
		}
	}
}

func envInt(name string) int64 {
	n, _ := strconv.ParseInt(os.Getenv(name), 10, 64)
	return n
}
