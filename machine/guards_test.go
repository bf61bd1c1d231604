package machine

import (
	"testing"

	"github.com/openegm/cabinet/meters"
)

// The guards of the money paths, each tested on both sides of its edge:
// a guard moved by one cent, or turned from "at or above" into "above",
// fails one of these tests.

// withCoins is a ledger state holding cents of credit (coins: any amount,
// where notes come only in whole euros).
func withCoins(t *testing.T, cents int64) *meters.State {
	t.Helper()
	st := meters.NewState()
	if err := st.Apply(meters.MoneyIn{At: 1, Source: meters.SourceCoin, Cents: cents}); err != nil {
		t.Fatal(err)
	}
	return st
}

// A spin needs the whole bet in credit: one cent less is refused before
// anything is drawn or recorded, the exact bet plays and leaves nothing.
// The denomination is 2 cents so that the bet in cents differs from the bet
// in credits.
func TestSpinNeedsTheWholeBet(t *testing.T) {
	cfg := testCfg
	cfg.Denom = 2
	bet := paytable(t).Bet(0) * cfg.Denom

	h := newHarness(t, cfg, withCoins(t, bet-1), 1)
	h.power()
	if h.m.betCents() != bet {
		t.Fatalf("bet %d cents, want %d", h.m.betCents(), bet)
	}
	n := len(h.records)
	eff := h.press(BtnSpin)
	if eff.Refused != "refused_insufficient_credit" || len(h.records) != n || h.m.fault != "" {
		t.Fatalf("spin with %d cents for a bet of %d: refused %q, records %v, fault %q", bet-1, bet, eff.Refused, h.records[n:], h.m.fault)
	}
	if v := h.m.View(); v.Mode != "idle" || v.Message.Key != "refused_insufficient_credit" || v.CreditsCents != bet-1 {
		t.Fatalf("after the refusal: %+v", v)
	}
	// Max bet is a spin too: refused the same way.
	if eff := h.press(BtnMaxBet); eff.Refused != "refused_insufficient_credit" || len(h.records) != n {
		t.Fatalf("max bet with %d cents: %+v", bet-1, eff)
	}

	h = newHarness(t, cfg, withCoins(t, bet), 1)
	h.power()
	eff = h.press(BtnSpin)
	if eff.Refused != "" || len(eff.Records) != 1 || h.m.fault != "" {
		t.Fatalf("spin with exactly the bet: refused %q, records %v, fault %q", eff.Refused, eff.Records, h.m.fault)
	}
	gs := eff.Records[0].(meters.GameStart)
	if gs.BetCents != bet || gs.BetCredits != bet/cfg.Denom || h.ledger.Get(meters.Credits) != 0 || h.ledger.Get(meters.CoinIn) != bet {
		t.Fatalf("game start %+v; credits %d, coin in %d", gs, h.ledger.Get(meters.Credits), h.ledger.Get(meters.CoinIn))
	}
}

// A cash-out at the handpay limit is paid by hand; one cent below it is a
// ticket.
func TestCashOutAtTheHandpayLimit(t *testing.T) {
	cfg := testCfg
	cfg.HandpayLimit = 1_200_00

	h := newHarness(t, cfg, withCoins(t, cfg.HandpayLimit), 1)
	h.power()
	eff := h.press(BtnCashOut)
	hp, ok := eff.Records[0].(meters.HandpayPending)
	if len(eff.Records) != 1 || !ok || hp.Kind != meters.HandpayCancelled || hp.Cents != cfg.HandpayLimit {
		t.Fatalf("cash-out of exactly the limit: %+v", eff.Records)
	}
	for _, d := range eff.Devices {
		if _, ok := d.(PrintTicket); ok {
			t.Fatalf("a ticket printed for a handpay: %+v", d)
		}
	}
	if v := h.m.View(); v.Mode != "handpay" || v.Handpay != cfg.HandpayLimit {
		t.Fatalf("view at the limit: %+v", v)
	}

	h = newHarness(t, cfg, withCoins(t, cfg.HandpayLimit-1), 1)
	h.power()
	eff = h.press(BtnCashOut)
	co, ok := eff.Records[0].(meters.CashOut)
	if len(eff.Records) != 1 || !ok || co.Method != meters.OutTicket || co.Cents != cfg.HandpayLimit-1 {
		t.Fatalf("cash-out one cent below the limit: %+v", eff.Records)
	}
	if h.ledger.Handpay != nil || h.ledger.PendingTicket == nil {
		t.Fatalf("below the limit: handpay %+v, ticket %+v", h.ledger.Handpay, h.ledger.PendingTicket)
	}
}

// firstWin plays games on seed until one ends with a win and returns that
// win and how many games it took.
func firstWin(t *testing.T, seed uint64) (win int64, games int) {
	cfg := testCfg
	cfg.HandpayLimit = 1 << 40
	h := newHarness(t, cfg, withCoins(t, 100_00), seed)
	h.power()
	for games = 1; games <= 200; games++ {
		h.play()
		if end := lastEnd(t, h); end.WinCents > 0 {
			return end.WinCents, games
		}
	}
	t.Fatal("200 games without a win")
	return 0, 0
}

func lastEnd(t *testing.T, h *harness) meters.GameEnd {
	t.Helper()
	for i := len(h.records) - 1; i >= 0; i-- {
		if e, ok := h.records[i].(meters.GameEnd); ok {
			return e
		}
	}
	t.Fatal("no game end")
	return meters.GameEnd{}
}

// A game whose win equals the handpay limit is paid by hand; with the limit
// one cent above the win, the same game (same seed, same draws) pays to the
// credit meter.
func TestGameWinAtTheHandpayLimit(t *testing.T) {
	const seed = 11
	win, games := firstWin(t, seed)
	for _, c := range []struct {
		limit   int64
		handpay bool
	}{{win, true}, {win + 1, false}} {
		cfg := testCfg
		cfg.HandpayLimit = c.limit
		h := newHarness(t, cfg, withCoins(t, 100_00), seed)
		h.power()
		for range games - 1 {
			h.play()
		}
		before := h.ledger.Get(meters.Credits) - h.m.betCents() // after the bet
		h.play()
		end := lastEnd(t, h)
		if end.WinCents != win || end.Handpay != c.handpay {
			t.Fatalf("limit %d: game end %+v, want a win of %d, handpay %v", c.limit, end, win, c.handpay)
		}
		if c.handpay {
			if hp := h.ledger.Handpay; hp == nil || hp.Kind != meters.HandpayWin || hp.Cents != win || h.ledger.Get(meters.Credits) != before {
				t.Fatalf("limit %d: handpay %+v, credits %d (before the win %d)", c.limit, hp, h.ledger.Get(meters.Credits), before)
			}
			if v := h.m.View(); v.Mode != "handpay" || v.Message.Key != "msg_handpay" {
				t.Fatalf("limit %d: view %+v", c.limit, v)
			}
		} else if h.ledger.Handpay != nil || h.ledger.Get(meters.Credits) != before+win {
			t.Fatalf("limit %d: handpay %+v, credits %d, want %d", c.limit, h.ledger.Handpay, h.ledger.Get(meters.Credits), before+win)
		}
	}
}
