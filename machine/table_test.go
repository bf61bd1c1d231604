package machine

import (
	"math/rand/v2"
	"testing"
	"time"

	"github.com/openegm/cabinet/assets"
	"github.com/openegm/cabinet/baccarat"
	"github.com/openegm/cabinet/meters"
	"github.com/openegm/cabinet/rng"
)

const testTable = "makccarat-alt1-5pct"

func tableCfg(t testing.TB, id string) Config {
	tb, err := assets.LoadTable(id)
	if err != nil {
		t.Fatal(err)
	}
	cfg := testCfg
	cfg.Table, cfg.LoadTable, cfg.CardTime = tb, assets.LoadTable, 500*time.Millisecond
	return cfg
}

func (h *harness) bet(spot baccarat.Spot, cents int64) Effects {
	return h.step(PlaceBet{At: h.now, Spot: int(spot), Cents: cents})
}

// dealHand deals the chips on the table and turns the cards to the end of
// the hand; it returns the hand's game start.
func (h *harness) dealHand() meters.GameStart {
	h.t.Helper()
	eff := h.press(BtnDeal)
	if eff.Refused != "" {
		h.t.Fatalf("deal refused: %s (%s)", eff.Refused, h.m.View().Message.Detail)
	}
	gs, ok := eff.Records[0].(meters.GameStart)
	if !ok || gs.Hand == nil {
		h.t.Fatalf("deal recorded %+v", eff.Records)
	}
	for i := 0; h.m.phase == spinning; i++ {
		if i > 100 {
			h.t.Fatal("hand never ends")
		}
		h.advance(h.m.cfg.CardTime)
	}
	return gs
}

// A hand is committed whole (stakes, every card, what it pays) before the
// first card is turned; the screen gets the cards one at a time and the
// result only when the hand has ended; then the credit meter has what the
// definition's own evaluation of the recorded cards pays.
func TestMakccaratHandCommittedBeforeTurnAndPaid(t *testing.T) {
	h := newHarness(t, tableCfg(t, testTable), nil, 7)
	h.power()
	h.bill(50_00)
	if eff := h.step(SelectGame{At: h.now, Game: meters.GameMakccarat}); eff.Refused != "" {
		t.Fatalf("game menu: %s", eff.Refused)
	}
	bets := baccarat.Bets{400, 200, 100, 100, 100}
	for s, c := range bets {
		if eff := h.bet(baccarat.Spot(s), c); eff.Refused != "" || len(eff.Records) != 0 {
			t.Fatalf("bet on %s: %+v", baccarat.Spot(s), eff)
		}
	}
	if c := h.ledger.Get(meters.Credits); c != 50_00 {
		t.Fatalf("chips on the table took money before the deal: %d", c)
	}
	eff := h.press(BtnDeal)
	gs := eff.Records[0].(meters.GameStart)
	if gs.Kind != meters.GameMakccarat || gs.Paytable != testTable || gs.Hand.Bets != [5]int64(bets) || gs.BetCents != 900 {
		t.Fatalf("hand recorded %+v", gs)
	}
	want, err := h.m.cfg.Table.Play(gs.Hand.Cards, bets)
	if err != nil {
		t.Fatal(err)
	}
	if gs.WinCents != want.Paid || gs.Hand.Commission != want.Commission {
		t.Fatalf("recorded paid %d commission %d, the cards pay %d with %d", gs.WinCents, gs.Hand.Commission, want.Paid, want.Commission)
	}
	v := h.m.View()
	if v.Mode != "dealing" || v.Table.Hand == nil || v.Table.Hand.Turned != 1 || v.Table.Hand.Done || v.Table.Hand.Winner != "" {
		t.Fatalf("first card: mode %s hand %+v", v.Mode, v.Table.Hand)
	}
	seen := 1
	for h.m.phase == spinning {
		h.advance(h.m.cfg.CardTime)
		if hv := h.m.View().Table.Hand; hv.Turned < seen || (hv.Done && hv.Turned != len(gs.Hand.Cards)) {
			t.Fatalf("cards turned %d after %d (done %v)", hv.Turned, seen, hv.Done)
		} else {
			seen = hv.Turned
		}
	}
	v = h.m.View()
	if hv := v.Table.Hand; !hv.Done || hv.Turned != len(gs.Hand.Cards) || hv.PaidCents != want.Paid || hv.Winner == "" {
		t.Fatalf("hand over: %+v", hv)
	}
	if c := h.ledger.Get(meters.Credits); c != 50_00-900+want.Paid {
		t.Fatalf("credits %d, want %d", c, 50_00-900+want.Paid)
	}
	g := h.ledger.PerGame[meters.GameMakccarat]
	if g.CoinIn != 900 || g.CoinOut != want.Paid || g.Commission != want.Commission || g.Played != 1 {
		t.Fatalf("makccarat meters %+v", g)
	}
	if len(v.Table.Roads) != 1 || v.Table.Roads[0].Winner != v.Table.Hand.Winner {
		t.Fatalf("roads %+v", v.Table.Roads)
	}
	// The same stakes stay on the table for the next hand.
	if h.m.View().Table.Bets != [5]int64(bets) {
		t.Fatalf("bets after the hand %v", h.m.View().Table.Bets)
	}
}

// Hands with random stakes, mixed with reel games: every hand pays what
// the definition pays for its recorded cards, the credit equation holds
// (the harness checks the machine's fold against the ledger's at every
// step), each game's meters add up, and recall re-evaluates every hand to
// the recorded amount.
func TestMakccaratRandomHandsAndReelsShareTheMeters(t *testing.T) {
	for _, id := range []string{"makccarat-alt1-5pct", "makccarat-alt2-half4"} {
		t.Run(id, func(t *testing.T) {
			cfg := tableCfg(t, id)
			h := newHarness(t, cfg, nil, 11)
			h.power()
			r := rand.New(rand.NewPCG(3, 4))
			tb := cfg.Table
			var staked, paid, commission int64
			hands := 0
			for i := range 400 {
				if h.ledger.Get(meters.Credits) < 100_00 {
					h.bill(100_00)
				}
				if i%5 == 4 {
					h.step(SelectGame{At: h.now, Game: meters.GameReels})
					h.play()
					continue
				}
				h.step(SelectGame{At: h.now, Game: meters.GameMakccarat})
				h.press(BtnClearBets)
				for s := range baccarat.NumSpots {
					if r.IntN(2) == 0 {
						l := tb.Limits.Spots[s]
						units := (l.Max - l.Min) / tb.BetUnit
						h.bet(s, l.Min+tb.BetUnit*r.Int64N(min(units, 20)+1))
					}
				}
				if h.m.bets.Total() < tb.Limits.Hand.Min {
					h.bet(baccarat.SpotBanker, tb.Limits.Spots[baccarat.SpotBanker].Min)
				}
				gs := h.dealHand()
				hands++
				staked += gs.BetCents
				paid += gs.WinCents
				commission += gs.Hand.Commission
			}
			g := h.ledger.PerGame[meters.GameMakccarat]
			if g.CoinIn != staked || g.TotalWon != paid || g.Commission != commission || g.Played != int64(hands) {
				t.Fatalf("makccarat meters %+v; hands %d staked %d paid %d commission %d", g, hands, staked, paid, commission)
			}
			if reelsIn := h.ledger.PerGame[meters.GameReels].CoinIn; reelsIn+staked != h.ledger.Get(meters.CoinIn) {
				t.Fatalf("reels %d + makccarat %d ≠ coin in %d", reelsIn, staked, h.ledger.Get(meters.CoinIn))
			}
			if commission == 0 {
				t.Fatal("no commission in 320 hands: the test does not cover it")
			}
			h.m.session = &session{role: RoleInspector, who: "insp", page: "recall"}
			checked := 0
			for _, rc := range h.m.recall(RecallGames) {
				if rc.Kind != meters.GameMakccarat {
					continue
				}
				checked++
				if !rc.Match || rc.Hand == nil || rc.Hand.PaidCents != rc.WinCents {
					t.Fatalf("recall of hand %d: %+v", rc.Game, rc)
				}
			}
			if checked == 0 {
				t.Fatal("recall shows no hand")
			}
		})
	}
}

// A power loss while the cards are turned: the machine that comes up on
// the ledger's state turns the same cards again and pays what the record
// says; it draws nothing (no new game start, the RNG untouched).
func TestMakccaratHandResumesAfterPowerLoss(t *testing.T) {
	cfg := tableCfg(t, testTable)
	h := newHarness(t, cfg, nil, 5)
	h.power()
	h.bill(20_00)
	h.step(SelectGame{At: h.now, Game: meters.GameMakccarat})
	h.bet(baccarat.SpotBanker, 1000)
	eff := h.press(BtnDeal)
	gs := eff.Records[0].(meters.GameStart)
	h.advance(cfg.CardTime) // two cards on screen; the power goes

	h2 := &harness{t: t, ledger: h.ledger.Clone(), now: h.now.Add(time.Minute)}
	h2.m = New(cfg, paytable(t), h.ledger, failingSource{t})
	h2.power()
	v := h2.m.View()
	if v.Mode != "dealing" || v.GameKind != meters.GameMakccarat || v.Table.Hand.Game != gs.Game || v.Table.Hand.Turned != 1 {
		t.Fatalf("after power-up: mode %s game %s hand %+v", v.Mode, v.GameKind, v.Table.Hand)
	}
	for i := 0; h2.m.phase == spinning; i++ {
		if i > 100 {
			t.Fatal("hand never ends")
		}
		h2.advance(cfg.CardTime)
	}
	for _, r := range h2.records {
		if s, ok := r.(meters.GameStart); ok {
			t.Fatalf("a new hand after the power loss: %+v", s)
		}
	}
	if c := h2.ledger.Get(meters.Credits); c != 20_00-1000+gs.WinCents {
		t.Fatalf("credits %d, want %d", c, 20_00-1000+gs.WinCents)
	}
}

// failingSource fails the test if anything draws from it.
type failingSource struct{ t *testing.T }

func (f failingSource) Uint64n(uint64) uint64 {
	f.t.Fatal("a random number was drawn after the power loss")
	return 0
}

// What cannot be bet is refused with a reason and moves nothing.
func TestMakccaratRefusals(t *testing.T) {
	cfg := tableCfg(t, testTable)
	h := newHarness(t, cfg, nil, 1)
	h.power()
	if eff := h.bet(baccarat.SpotPlayer, 200); eff.Refused != "refused_game_not_offered" {
		t.Fatalf("a chip at the reel game: %q", eff.Refused)
	}
	h.step(SelectGame{At: h.now, Game: meters.GameMakccarat})
	if eff := h.bet(baccarat.SpotPlayer, 200); eff.Refused != "refused_insufficient_credit" {
		t.Fatalf("a chip without credit: %q", eff.Refused)
	}
	h.bill(500_00)
	for _, c := range []struct {
		spot  baccarat.Spot
		cents int64
		want  string
	}{
		{baccarat.SpotPlayer, 210, "refused_bet_unit"},
		{baccarat.SpotPlayer, -20, "refused_bet_unit"},
		{baccarat.Spot(7), 200, "refused_bet_unit"},
		{baccarat.SpotTie, 10020, "refused_spot_limit"},
	} {
		if eff := h.bet(c.spot, c.cents); eff.Refused != c.want {
			t.Errorf("%d cents on %s: %q, want %q", c.cents, c.spot, eff.Refused, c.want)
		}
	}
	if eff := h.press(BtnDeal); eff.Refused != "refused_no_bet" {
		t.Fatalf("a deal without chips: %q", eff.Refused)
	}
	h.bet(baccarat.SpotTie, 40) // below the tie's minimum of 1 €
	if eff := h.press(BtnDeal); eff.Refused != "refused_table_limits" || len(eff.Records) != 0 || h.m.View().Message.Detail == "" {
		t.Fatalf("a deal below a spot's minimum: %+v", eff)
	}
	h.press(BtnClearBets)
	h.bet(baccarat.SpotBanker, 1000)
	h.press(BtnDeal)
	if eff := h.step(SelectGame{At: h.now, Game: meters.GameReels}); eff.Refused != "refused_game_in_progress" {
		t.Fatalf("game menu during a hand: %q", eff.Refused)
	}
	if h.ledger.Get(meters.GamesPlayed) != 1 {
		t.Fatalf("games played %d", h.ledger.Get(meters.GamesPlayed))
	}
	// Without a table the menu has the reel game only.
	h3 := newHarness(t, testCfg, nil, 1)
	h3.power()
	if eff := h3.step(SelectGame{At: h3.now, Game: meters.GameMakccarat}); eff.Refused != "refused_game_not_offered" {
		t.Fatalf("no table enabled: %q", eff.Refused)
	}
	if g := h3.m.View().Games; len(g) != 1 || g[0] != meters.GameReels {
		t.Fatalf("games offered %v", g)
	}
}

var _ rng.Source = failingSource{}
