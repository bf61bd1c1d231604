package synthetic_test

import (
	"fmt"
	"os"
	"slices"
	"testing"
	"time"

	"github.com/openegm/cabinet/poker"
	"github.com/openegm/cabinet/poker/pokertest"
	"github.com/openegm/cabinet/poker/synthetic"
	"github.com/openegm/cabinet/rng"
)

func baseConfig() synthetic.Config {
	return synthetic.Config{Number: 3, InitialCave: 20000, MinBet: 100, MinRebuy: 5000,
		Duration: time.Hour, DecisionTime: 20 * time.Second}
}

// rules are the Portaria's as the auditor applies them, written apart from
// the engine.
func rules(cfg synthetic.Config) pokertest.Rules {
	return pokertest.SyntheticRules(synthetic.Seats, cfg.MinBet)
}

// partidas plays partidas (a new table each) until hands hands are played.
func partidas(t *testing.T, cfg synthetic.Config, seed uint64, hands int) (audit *pokertest.Auditor, ended int, posts map[string]int) {
	t.Helper()
	posts = map[string]int{}
	audit = pokertest.NewAuditor(rules(cfg))
	src := rng.NewSeeded(seed)
	var paidIn, paidOut int64
	for n := 0; audit.Hands < hands; n++ {
		tb, err := synthetic.New(cfg, src)
		if err != nil {
			t.Fatal(err)
		}
		sim := pokertest.NewSim(tb, seed+uint64(n), audit, cfg.MinRebuy, synthetic.Seats, synthetic.Seats+3)
		sim.MaxCave = 10 * cfg.InitialCave
		sim.Extra = func(recs []poker.Record) error {
			for _, r := range recs {
				if r.Kind == poker.KindPost || (r.Kind == poker.KindAct && r.Timeout) {
					posts[r.Action]++
				}
				if r.Kind == poker.KindLeave {
					tot := *r.Totals
					if tot.BoughtIn+tot.Won-tot.Wagered != tot.CashedOut || tot.Fees != 0 {
						return fmt.Errorf("%s leaves with totals %+v", r.Player, tot)
					}
				}
			}
			return tb.Fault()
		}
		for !tb.Over() && audit.Hands < hands {
			if err := sim.Between(synthetic.MinPlayers + sim.Rnd.IntN(synthetic.Seats-synthetic.MinPlayers+1)); err != nil {
				t.Fatal(err)
			}
			if _, err := sim.PlayHand(); err != nil {
				t.Fatalf("partida %d hand %d: %v", n, tb.View("").Hand, err)
			}
		}
		if tb.Over() {
			ended++
		}
		for _, id := range slices.Clone(sim.Seated) {
			sim.Now = sim.Now.Add(time.Second)
			if _, err := sim.Step(poker.Leave{At: sim.Now, Player: id, Authorized: true}); err != nil {
				t.Fatal(err)
			}
		}
		if v := tb.View(""); len(v.Seats) != 0 {
			t.Fatalf("seats left: %+v", v.Seats)
		}
		paidIn += sim.PaidIn
		paidOut += sim.PaidOut
		// A partida ends with no pó pending: every cent is paid out or the
		// house's.
		if tb.Over() && carriedAtEnd(tb) != 0 {
			t.Fatalf("partida %d ends with a pó of %d", n, carriedAtEnd(tb))
		}
		if paidIn != paidOut+audit.Rake+carriedAtEnd(tb) {
			t.Fatalf("partida %d: paid in %d, out %d, house %d, carried %d", n, paidIn, paidOut, audit.Rake, carriedAtEnd(tb))
		}
		paidIn, paidOut, audit.Rake = 0, 0, 0
		t.Logf("partida %d: %d hands in all, %d showdowns, %d split, %d side pots, %d pós; %d timeouts, %d leaves, %d refused",
			n, audit.Hands, audit.Showdowns, audit.SplitPots, audit.SidePots, audit.Carries, sim.Timeouts, sim.Leaves, sim.Refused)
	}
	return audit, ended, posts
}

func carriedAtEnd(tb *synthetic.Table) int64 {
	v := tb.View("")
	if len(v.Pots) == 0 {
		return 0
	}
	return v.Pots[0]
}

// Random partidas, with and without the estardilho: chips are conserved at
// every step, every pot goes to the hands an independent showdown finds,
// the house takes 3% of each pot to the cent, every hand replays.
func TestRandomPartidas(t *testing.T) {
	hands := 600
	if testing.Short() {
		hands = 250
	}
	for _, straddle := range []bool{false, true} {
		cfg := baseConfig()
		cfg.Estardilho = straddle
		t.Run(fmt.Sprint("estardilho=", straddle), func(t *testing.T) {
			a, ended, posts := partidas(t, cfg, 7, hands)
			if ended == 0 || a.Carries == 0 || a.SidePots == 0 || a.SplitPots == 0 || posts["po_ante"] == 0 ||
				posts["no_ante"] == 0 || posts["fold"] == 0 || posts["check"] == 0 ||
				(straddle != (posts["estardilho"] > 0 && posts["restardilho"] > 0)) {
				t.Fatalf("partidas ended %d, pós %d, side pots %d, split pots %d, posts and timeouts %v: the random games missed a rule",
					ended, a.Carries, a.SidePots, a.SplitPots, posts)
			}
			t.Logf("posts and timeouts: %v", posts)
		})
	}
}

// POKER_SESSIONS=1: two sessions of 100,000 hands each.
func TestLongSessions(t *testing.T) {
	if os.Getenv("POKER_SESSIONS") == "" {
		t.Skip("POKER_SESSIONS=1 plays two sessions of 100,000 hands")
	}
	cfg := baseConfig()
	partidas(t, cfg, 1, 100000)
	cfg.Estardilho = true
	partidas(t, cfg, 2, 100000)
}
