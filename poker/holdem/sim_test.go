package holdem_test

import (
	"fmt"
	"os"
	"slices"
	"testing"
	"time"

	"github.com/openegm/cabinet/poker"
	"github.com/openegm/cabinet/poker/holdem"
	"github.com/openegm/cabinet/poker/pokertest"
	"github.com/openegm/cabinet/rng"
)

func baseConfig() holdem.Config {
	return holdem.Config{Table: "t1", Seats: 10, MinBet: 100, InitialCave: 10000, MinRebuy: 2000,
		Structure: holdem.NoLimit, RakeBps: 500, DecisionTime: 10 * time.Second, ExtraTime: 5 * time.Second}
}

// rules are the draft's rules as the auditor applies them, written apart
// from the engine.
func rules(cfg holdem.Config) pokertest.Rules { return pokertest.HoldemRules(cfg.Seats, cfg.RakeBps) }

// session plays hands at one table with bots and checks every one.
func session(t *testing.T, cfg holdem.Config, seed uint64, hands int) *pokertest.Sim {
	t.Helper()
	tb, err := holdem.New(cfg, rng.NewSeeded(seed))
	if err != nil {
		t.Fatal(err)
	}
	audit := pokertest.NewAuditor(rules(cfg))
	sim := pokertest.NewSim(tb, seed, audit, cfg.MinRebuy, cfg.Seats, cfg.Seats+4)
	sim.MaxCave = 20 * cfg.InitialCave
	sim.Extra = func(recs []poker.Record) error {
		for _, r := range recs {
			if r.Kind == poker.KindLeave {
				tot := *r.Totals
				if tot.BoughtIn-tot.Fees+tot.Won-tot.Wagered != tot.CashedOut || tot.CashedOut != r.Amount {
					return fmt.Errorf("%s leaves with totals %+v and %d", r.Player, tot, r.Amount)
				}
			}
			if r.Kind == poker.KindAward && cfg.FeeBps > 0 && r.Rake != 0 {
				return fmt.Errorf("rake %d at a table with a buy-in fee", r.Rake)
			}
			if (r.Kind == poker.KindJoin || r.Kind == poker.KindRebuy) && r.Fee != r.Amount*cfg.FeeBps/10000 {
				return fmt.Errorf("fee %d on %d", r.Fee, r.Amount)
			}
		}
		if err := tb.Fault(); err != nil {
			return err
		}
		return nil
	}
	for played := 0; played < hands; {
		if err := sim.Between(2 + sim.Rnd.IntN(cfg.Seats-1)); err != nil {
			t.Fatal(err)
		}
		dealt, err := sim.PlayHand()
		if err != nil {
			t.Fatalf("hand %d: %v", played, err)
		}
		if dealt {
			played++
		}
	}
	for _, id := range slices.Clone(sim.Seated) {
		if err := sim.Leave(id, true); err != nil {
			t.Fatal(err)
		}
	}
	if len(sim.Seated) != 0 {
		t.Fatalf("still seated: %v", sim.Seated)
	}
	if sim.PaidIn != sim.PaidOut+sim.Fees+audit.Rake {
		t.Fatalf("paid in %d, out %d, fees %d, rake %d", sim.PaidIn, sim.PaidOut, sim.Fees, audit.Rake)
	}
	t.Logf("%s: %d hands, %d showdowns, %d split pots, %d with side pots, %d timeouts, %d leaves, %d refused, rake %d, fees %d",
		cfg.Structure, audit.Hands, audit.Showdowns, audit.SplitPots, audit.SidePots, sim.Timeouts, sim.Leaves, sim.Refused, audit.Rake, sim.Fees)
	return sim
}

// Random games in every structure, with a rake and with a buy-in fee: chips
// are conserved at every step (the engine checks, and the sim's money adds
// up), every pot goes to the winners an independent showdown finds, the
// rake is the rule's to the cent, every hand replays.
func TestRandomSessions(t *testing.T) {
	hands := 400
	if testing.Short() {
		hands = 150
	}
	for i, c := range []func(*holdem.Config){
		func(c *holdem.Config) {},
		func(c *holdem.Config) { c.Structure = holdem.PotLimit; c.RakeBps = 100 },
		func(c *holdem.Config) { c.Structure = holdem.HalfPotLimit; c.RakeBps, c.FeeBps = 0, 1000 },
		func(c *holdem.Config) {
			c.Structure, c.RaiseCap, c.Seats, c.InitialCave, c.MinRebuy = holdem.FixedLimit, 3, 6, 1000, 1000
		},
		func(c *holdem.Config) { c.Seats = 2; c.MinBet = 101; c.InitialCave = 5050; c.RakeBps = 333 },
	} {
		cfg := baseConfig()
		c(&cfg)
		t.Run(fmt.Sprintf("%d-%s", i, cfg.Structure), func(t *testing.T) {
			session(t, cfg, uint64(100+i), hands)
		})
	}
}

// POKER_SESSIONS=1: two full sessions of 100,000 hands each (no-limit with a
// rake, pot-limit with a buy-in fee).
func TestLongSessions(t *testing.T) {
	if os.Getenv("POKER_SESSIONS") == "" {
		t.Skip("POKER_SESSIONS=1 plays two sessions of 100,000 hands")
	}
	cfg := baseConfig()
	s := session(t, cfg, 1, 100000)
	cfg.Structure, cfg.RakeBps, cfg.FeeBps = holdem.PotLimit, 0, 500
	s2 := session(t, cfg, 2, 100000)
	if s.Audit.Hands < 100000 || s2.Audit.Hands < 100000 {
		t.Fatalf("hands %d, %d", s.Audit.Hands, s2.Audit.Hands)
	}
}
