package machine

import (
	"slices"
	"testing"
	"time"

	"github.com/openegm/cabinet/aft"
	"github.com/openegm/cabinet/baccarat"
	"github.com/openegm/cabinet/meters"
)

// promo is a transfer of the three kinds as the AFT core hands it over,
// restricted credits of pool 4 expiring exp (a date).
func (h *harness) promo(id string, typ aft.TransferType, cash, restricted, nonRestricted int64, exp aft.Expiration) aft.Transfer {
	t := h.decided(id, typ, cash)
	a := aft.Amounts{Cashable: cash, Restricted: restricted, NonRestricted: nonRestricted}
	t.Requested, t.Amounts = a, a
	if restricted > 0 && typ == aft.InHouseToMachine {
		t.PoolID, t.Expiration, t.RestrictedExpiration = 4, exp, exp
	}
	return t
}

func (h *harness) transfer(t aft.Transfer) Effects {
	h.t.Helper()
	eff := h.step(AFTTransfer{At: h.now, Transfer: t})
	if eff.AFTRefused != 0 || len(eff.Records) == 0 {
		h.t.Fatalf("transfer %q: refused %v", t.ID, eff.AFTRefused)
	}
	return eff
}

// inAMonth is an expiration a month after the harness's day.
func (h *harness) inAMonth() aft.Expiration { return aft.DateOf(h.now.AddDate(0, 1, 0)) }

// A bet takes restricted credits, then non-restricted, then cashable;
// every win is cashable.
func TestPromoBetOrderAndWinsCashable(t *testing.T) {
	h := newHarness(t, testCfg, nil, 3)
	h.power()
	h.transfer(h.promo("IN-1", aft.InHouseToMachine, 1000, 130, 70, h.inAMonth()))
	if v := h.m.View(); v.CreditsCents != 1200 || v.RestrictedCents != 130 || v.NonRestrictedCents != 70 || v.RestrictedExpires != h.inAMonth() {
		t.Fatalf("view %d %d %d %v", v.CreditsCents, v.RestrictedCents, v.NonRestrictedCents, v.RestrictedExpires)
	}
	cashablePlayed := int64(0)
	for g := 0; g < 60 && (g < 3 || h.ledger.Get(meters.NonRestrictedCredits) > 0 || cashablePlayed == 0); g++ {
		before := h.ledger.CreditsByKind()
		h.play()
		last := h.ledger.Games[len(h.ledger.Games)-1]
		bet, win := last.Start.BetCents, last.End.WinCents
		r := min(before.Restricted, bet)
		nr := min(before.NonRestricted, bet-r)
		after := h.ledger.CreditsByKind()
		want := aft.Amounts{Cashable: before.Cashable - (bet - r - nr) + win, Restricted: before.Restricted - r, NonRestricted: before.NonRestricted - nr}
		if after.Amounts != want {
			t.Fatalf("game %d (bet %d, win %d) from %+v: %+v, want %+v", last.Start.Game, bet, win, before.Amounts, after.Amounts, want)
		}
		cashablePlayed += bet - r - nr
	}
	if h.ledger.Get(meters.RestrictedPlayed) != 130 || h.ledger.Get(meters.NonRestrictedPlayed) != 70 || cashablePlayed == 0 {
		t.Fatalf("played restricted %d, non-restricted %d, cashable %d", h.ledger.Get(meters.RestrictedPlayed),
			h.ledger.Get(meters.NonRestrictedPlayed), cashablePlayed)
	}
	if c := h.ledger.CreditsByKind(); c.RestrictedPool != 0 || c.RestrictedExpiration != 0 {
		t.Fatalf("the pool outlives the restricted credits: %+v", c)
	}
}

// A cash-out pays cashable and non-restricted credits, as a ticket or by
// hand; restricted credits stay, and a cash-out of them alone is refused
// with its reason.
func TestPromoCashOutLeavesRestricted(t *testing.T) {
	h := newHarness(t, testCfg, nil, 5)
	h.power()
	h.transfer(h.promo("IN-1", aft.InHouseToMachine, 1000, 300, 200, h.inAMonth()))
	eff := h.press(BtnCashOut)
	co, ok := eff.Records[0].(meters.CashOut)
	if !ok || co.Cents != 1200 {
		t.Fatalf("cash out %+v", eff.Records)
	}
	h.step(TicketPrinted{At: h.now, Validation: co.Ticket})
	if c := h.ledger.CreditsByKind(); c.Amounts != (aft.Amounts{Restricted: 300}) || h.ledger.Get(meters.NonRestrictedCashedOut) != 200 {
		t.Fatalf("after the ticket: %+v, non-restricted cashed out %d", c.Amounts, h.ledger.Get(meters.NonRestrictedCashedOut))
	}
	eff = h.press(BtnCashOut)
	if eff.Refused != "refused_restricted_only" || len(eff.Records) != 0 || h.m.View().Message.Key != "refused_restricted_only" {
		t.Fatalf("cash-out of restricted credits: refused %q, records %v", eff.Refused, eff.Records)
	}
	// The press is told to the owner all the same, for the host (66).
	if !slices.Contains(eff.Devices, Device(CashOutPressed{})) {
		t.Fatalf("the refused cash-out is not told to the owner: %v", eff.Devices)
	}
	// By hand above the handpay limit: the restricted credits stay too.
	for range 3 {
		h.bill(50000)
	}
	eff = h.press(BtnCashOut)
	if hp, ok := eff.Records[0].(meters.HandpayPending); !ok || hp.Kind != meters.HandpayCancelled || hp.Cents != 150000 {
		t.Fatalf("big cash out %+v", eff.Records)
	}
	h.step(Key{At: h.now, Key: KeyAttendant, On: true, Who: "att-1"})
	if c := h.ledger.CreditsByKind(); c.Amounts != (aft.Amounts{Restricted: 300}) {
		t.Fatalf("after the handpay: %+v", c.Amounts)
	}
	// The host takes them out.
	h.transfer(h.promo("OUT-1", aft.InHouseToHost, 0, 300, 0, 0))
	if h.ledger.Get(meters.Credits) != 0 || h.ledger.Get(meters.RestrictedOut) != 300 {
		t.Fatalf("after the transfer out: credits %d, restricted out %d", h.ledger.Get(meters.Credits), h.ledger.Get(meters.RestrictedOut))
	}
}

// Restricted credits past their day are taken off the credit meter as
// soon as the machine is idle: not during a game that bet them, and
// before anything else after it; at power-up too.
func TestPromoExpiresWhenIdle(t *testing.T) {
	h := newHarness(t, testCfg, nil, 7)
	// The last seconds of the day the credits last through.
	y, mo, d := h.now.Date()
	h.now = time.Date(y, mo, d, 23, 59, 58, 0, h.now.Location())
	h.power()
	h.transfer(h.promo("IN-1", aft.InHouseToMachine, 1000, 500, 0, aft.DateOf(h.now)))
	h.advance(time.Second)
	if h.ledger.Get(meters.RestrictedCredits) != 500 {
		t.Fatal("restricted credits gone on their last day")
	}
	if eff := h.press(BtnSpin); eff.Refused != "" {
		t.Fatalf("spin refused %q", eff.Refused)
	}
	bet := h.ledger.Open.Start.BetCents
	h.advance(time.Second) // midnight, the game still on screen
	if h.ledger.Open == nil || h.ledger.Get(meters.RestrictedExpired) != 0 {
		t.Fatalf("game open %v, expired %d: expiry during a game", h.ledger.Open != nil, h.ledger.Get(meters.RestrictedExpired))
	}
	for h.ledger.Open != nil {
		h.advance(time.Second)
	}
	h.advance(time.Millisecond)
	i := slices.IndexFunc(h.records, func(r meters.Record) bool { _, ok := r.(meters.PromoExpired); return ok })
	if i < 0 {
		t.Fatal("no expiry recorded after the game")
	}
	pe := h.records[i].(meters.PromoExpired)
	if pe.Cents != 500-bet || pe.Pool != 4 || pe.Day != aft.DateOf(h.now) {
		t.Fatalf("expiry %+v (bet %d)", pe, bet)
	}
	if _, ok := h.records[i-1].(meters.GameEnd); !ok {
		t.Fatalf("expiry recorded after %T, not right after the game's end", h.records[i-1])
	}
	if c := h.ledger.CreditsByKind(); c.Restricted != 0 || c.RestrictedPool != 0 || h.m.View().Message.Key != "msg_promo_expired" {
		t.Fatalf("after expiry: %+v, message %+v", c, h.m.View().Message)
	}
	if err := h.ledger.Check(); err != nil {
		t.Fatal(err)
	}

	// Off at midnight, on the next day: gone at power-up.
	h2 := newHarness(t, testCfg, nil, 8)
	h2.power()
	h2.transfer(h2.promo("IN-1", aft.InHouseToMachine, 0, 200, 0, aft.DateOf(h2.now)))
	h2.step(PowerDown{At: h2.now})
	st := h2.ledger.Clone()
	h3 := newHarness(t, testCfg, st, 8)
	h3.now = h2.now.AddDate(0, 0, 1)
	h3.power()
	if h3.ledger.Get(meters.RestrictedCredits) != 0 || h3.ledger.Get(meters.RestrictedExpired) != 200 {
		t.Fatalf("after a power-up past the expiration: restricted %d, expired %d", h3.ledger.Get(meters.RestrictedCredits), h3.ledger.Get(meters.RestrictedExpired))
	}
}

// The machine's last look at a promotional transfer: another pool's
// restricted credits, or more of a kind out than it holds, are refused
// and nothing moves; a bonus is a cashable win.
func TestPromoTransfersRecheckedAndBonus(t *testing.T) {
	h := newHarness(t, testCfg, nil, 9)
	h.power()
	h.transfer(h.promo("IN-1", aft.InHouseToMachine, 0, 300, 100, h.inAMonth()))
	other := h.promo("IN-2", aft.InHouseToMachine, 0, 50, 0, h.inAMonth())
	other.PoolID = 5
	if eff := h.step(AFTTransfer{At: h.now, Transfer: other}); eff.AFTRefused != aft.StatusOtherPool || len(eff.Records) != 0 {
		t.Fatalf("another pool: refused %v, records %v", eff.AFTRefused, eff.Records)
	}
	if eff := h.step(AFTTransfer{At: h.now, Transfer: h.promo("OUT-1", aft.InHouseToHost, 0, 0, 101, 0)}); eff.AFTRefused != aft.StatusInvalidAmount {
		t.Fatalf("non-restricted out beyond the credits: refused %v", eff.AFTRefused)
	}
	h.transfer(h.promo("B-1", aft.BonusCoinOut, 40, 0, 60, 0))
	c := h.ledger.CreditsByKind()
	if c.Amounts != (aft.Amounts{Cashable: 100, Restricted: 300, NonRestricted: 100}) || h.ledger.Get(meters.MachinePaidBonus) != 100 ||
		h.m.View().Message.Key != "msg_aft_bonus" {
		t.Fatalf("after the bonus: %+v, bonus meter %d, message %+v", c.Amounts, h.ledger.Get(meters.MachinePaidBonus), h.m.View().Message)
	}
	if got := h.m.View().AFT.Credits; got != c {
		t.Fatalf("the AFT core is told %+v, the ledger holds %+v", got, c)
	}
}

// Promotional credits are not turned into cash by covering both sides of a
// Makccarat hand: with any on the meter, player and banker together are
// refused; either alone, or both once only cashable credits are left, is
// taken.
func TestPromoNoHedgeAtTheTable(t *testing.T) {
	h := newHarness(t, tableCfg(t, testTable), nil, 1)
	h.power()
	h.step(SelectGame{At: h.now, Game: meters.GameMakccarat})
	h.transfer(h.promo("IN-1", aft.InHouseToMachine, 50_00, 20_00, 0, h.inAMonth()))
	if eff := h.bet(baccarat.SpotPlayer, 10_00); eff.Refused != "" {
		t.Fatalf("player alone: %q", eff.Refused)
	}
	if eff := h.bet(baccarat.SpotBanker, 10_00); eff.Refused != "refused_promo_hedge" {
		t.Fatalf("banker against player with restricted credits: %q", eff.Refused)
	}
	if eff := h.bet(baccarat.SpotTie, 1_00); eff.Refused != "" {
		t.Fatalf("a tie beside the player: %q", eff.Refused)
	}
	h.press(BtnClearBets)
	h.transfer(h.promo("OUT-1", aft.InHouseToHost, 0, 20_00, 0, 0))
	h.bet(baccarat.SpotPlayer, 10_00)
	if eff := h.bet(baccarat.SpotBanker, 10_00); eff.Refused != "" {
		t.Fatalf("both sides with cashable credits only: %q", eff.Refused)
	}
}

// Restricted promotional credits never go to a poker table (its cash-out
// is money); non-restricted ones go as at a cash-out, metered so.
func TestPromoNotToAPokerTable(t *testing.T) {
	h := newHarness(t, pokerCfg(), nil, 1)
	h.power()
	h.step(PokerTables{At: h.now, Tables: pokerTablesList})
	h.step(SelectGame{At: h.now, Game: GamePoker})
	h.transfer(h.promo("IN-1", aft.InHouseToMachine, 10_00, 40_00, 20_00, h.inAMonth()))
	if eff := h.step(PokerBuyIn{At: h.now, Table: "holdem-nl-2", Cents: 40_00}); eff.Refused != "refused_insufficient_credit" || len(eff.Records) != 0 {
		t.Fatalf("a cave of 40 € with 30 € that may leave: %+v", eff)
	}
	eff := h.step(PokerBuyIn{At: h.now, Table: "holdem-nl-2", Cents: 30_00})
	if eff.Refused != "" || len(eff.Records) != 1 {
		t.Fatalf("a cave of the cashable and non-restricted credits: %+v", eff)
	}
	c := h.ledger.CreditsByKind()
	if c.Restricted != 40_00 || c.NonRestricted != 0 || c.Cashable != 0 || h.ledger.Get(meters.NonRestrictedCashedOut) != 20_00 {
		t.Fatalf("after the buy-in: %+v, non-restricted cashed out %d", c.Amounts, h.ledger.Get(meters.NonRestrictedCashedOut))
	}
}
