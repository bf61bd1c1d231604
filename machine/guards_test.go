package machine

import (
	"encoding/base64"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"golang.org/x/crypto/argon2"

	"github.com/openegm/cabinet/assets"
	"github.com/openegm/cabinet/meters"
	"github.com/openegm/cabinet/reels"
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
		} else if msg := h.m.View().Message; msg.Key != "msg_win" || !slices.Equal(msg.Args, []int64{win}) {
			t.Fatalf("limit %d: message %+v after a win of %d", c.limit, msg, win)
		}
	}
}

// confirmPending is the controller's addressed confirmation of the hit the
// cabinet reports now.
func (h *harness) confirmPending(cents int64) Effects {
	h.t.Helper()
	c := h.m.st.LinkedClaims()
	if len(c) == 0 {
		h.t.Fatal("no hit to confirm")
	}
	return h.confirm(c[0].Level, c[0].Game, cents)
}

// linkedStart starts a game at the top bet that hits linked level 1 while
// the controller shows value.
func linkedStart(t *testing.T, limit, value int64) *harness {
	h, f := linkedHarness(t, LinkAwardAddressed, limit, nil)
	h.broadcast(1, value)
	h.bill(50000)
	f.queue = jackpotStops(t, h.m.pt, 1)
	h.press(BtnMaxBet)
	return h
}

// linkedHit plays the game of linkedStart to its end and pays the game's
// own win by hand if it reaches the limit: what is left is the hit,
// reported with value.
func linkedHit(t *testing.T, limit, value int64) *harness {
	h := linkedStart(t, limit, value)
	for h.m.phase == spinning || h.m.st.Handpay != nil {
		h.advance(testCfg.SpinTime)
		h.broadcast(1, value)
		if h.m.st.Handpay != nil {
			h.step(Key{At: h.now, Key: KeyAttendant, On: true, Who: "att"})
			h.step(Key{At: h.now, Key: KeyAttendant, On: false})
		}
	}
	if c := h.m.st.LinkedClaims(); len(c) != 1 || c[0].Cents != value {
		t.Fatalf("claims %+v, want one of %d", c, value)
	}
	return h
}

// The controller's confirmed amount is hand-paid at the handpay limit and
// paid to credits one cent below it (the value shown, 1,100 euros, is above
// both: an amount is never paid beyond what the cabinet showed).
func TestLinkedAwardAtTheHandpayLimit(t *testing.T) {
	const limit = 1_000_00
	h := linkedHit(t, limit, 1_100_00)
	h.confirmPending(limit)
	if hp := h.m.st.Handpay; hp == nil || hp.Kind != meters.HandpayProgressive || hp.Cents != limit || h.m.st.Get(meters.MachinePaidProgressive) != 0 {
		t.Fatalf("an award of exactly the limit: handpay %+v, machine-paid %d", hp, h.m.st.Get(meters.MachinePaidProgressive))
	}
	h = linkedHit(t, limit, 1_100_00)
	credits := h.m.st.Get(meters.Credits)
	h.confirmPending(limit - 1)
	if h.m.st.Handpay != nil || h.m.st.Get(meters.Credits) != credits+limit-1 || h.m.st.Get(meters.MachinePaidProgressive) != limit-1 {
		t.Fatalf("an award one cent below the limit: handpay %+v, credits %d (were %d)", h.m.st.Handpay, h.m.st.Get(meters.Credits), credits)
	}
}

// A confirmation of 0 cents pays nothing and leaves the claim waiting for a
// real amount.
func TestLinkedConfirmationOfNothingIsNoAward(t *testing.T) {
	h := linkedHit(t, 10_000_00, 300_00)
	h.confirmPending(0)
	if h.m.fault != "" || count[meters.ProgressiveAward](h.records) != 0 || len(h.m.st.LinkedClaims()) != 1 {
		t.Fatalf("after a confirmation of 0: fault %q, claims %v", h.m.fault, h.m.st.LinkedClaims())
	}
	h.confirmPending(300_00)
	if count[meters.ProgressiveAward](h.records) != 1 || len(h.m.st.LinkedClaims()) != 0 {
		t.Fatalf("after the real confirmation: claims %v", h.m.st.LinkedClaims())
	}
}

// A value of 0 from the controller is no news: the link still goes down
// after LinkTimeout without a real value.
func TestLinkValueOfNothingKeepsNoLinkUp(t *testing.T) {
	h, _ := linkedHarness(t, LinkAwardAddressed, 10_000_00, nil)
	h.broadcast(1, 300_00)
	for range 7 {
		h.advance(time.Second)
		h.broadcast(1, 0)
	}
	if v := h.m.View(); !v.LinkDown || v.TopOffered != h.m.pt.TopLevel()-1 {
		t.Fatalf("7 s of zero values: link down %v, max level %d", v.LinkDown, v.TopOffered)
	}
}

// A hit found pending at power-up, before the controller sent any value,
// waits for one: it is reported with the first value, never with 0.
func TestLinkedHitWaitsForAValueAfterRestart(t *testing.T) {
	h := linkedStart(t, 10_000_00, 300_00)
	// The ledger as it was at the game start: the hit is not reported yet.
	h2, _ := linkedHarness(t, LinkAwardAddressed, 10_000_00, h.ledger.Clone())
	for range 3 {
		h2.advance(testCfg.SpinTime)
	}
	if h2.m.fault != "" || count[meters.ProgressiveHit](h2.records) != 0 || len(h2.m.st.PendingHits) != 1 {
		t.Fatalf("before any value: fault %q, records %v", h2.m.fault, h2.records)
	}
	h2.broadcast(1, 310_00)
	h2.advance(0)
	if c := h2.m.st.LinkedClaims(); len(c) != 1 || c[0].Cents != 310_00 {
		t.Fatalf("after a value: claims %+v, fault %q", c, h2.m.fault)
	}
}

// localAward plays a game at the top bet that hits local level 1 with the
// given handpay limit, pays the game's own win by hand if it reaches the
// limit, and returns the award.
func localAward(t *testing.T, limit int64) (*harness, meters.ProgressiveAward) {
	h, f := localHarness(t, limit)
	h.bill(50000)
	f.queue = jackpotStops(t, h.m.pt, 1)
	h.press(BtnMaxBet)
	for h.m.phase == spinning {
		h.advance(testCfg.SpinTime)
	}
	if hp := h.m.st.Handpay; hp != nil && hp.Kind == meters.HandpayWin {
		h.step(Key{At: h.now, Key: KeyAttendant, On: true, Who: "att-1"})
		h.step(Key{At: h.now, Key: KeyAttendant, On: false})
		h.advance(0)
	}
	for i := len(h.records) - 1; i >= 0; i-- {
		if a, ok := h.records[i].(meters.ProgressiveAward); ok {
			return h, a
		}
	}
	t.Fatal("no award")
	return nil, meters.ProgressiveAward{}
}

// The local jackpot is hand-paid at the handpay limit and paid to credits
// one cent below it (the same game: same seed, same stops).
func TestLocalAwardAtTheHandpayLimit(t *testing.T) {
	_, a := localAward(t, 1<<40)
	h, at := localAward(t, a.Cents)
	if at.Cents != a.Cents || !at.Attendant {
		t.Fatalf("limit %d: award %+v", a.Cents, at)
	}
	if hp := h.m.st.Handpay; hp == nil || hp.Kind != meters.HandpayProgressive || hp.Cents != a.Cents {
		t.Fatalf("limit %d: handpay %+v", a.Cents, hp)
	}
	h, below := localAward(t, a.Cents+1)
	if below.Cents != a.Cents || below.Attendant || h.m.st.Handpay != nil || h.m.st.Get(meters.MachinePaidProgressive) != a.Cents {
		t.Fatalf("limit %d: award %+v, handpay %+v", a.Cents+1, below, h.m.st.Handpay)
	}
}

// At the top bet a local level is fed only if the paytable can win it: a
// paytable level the paytable names no combination for gets nothing.
func TestTopBetFeedsOnlyLevelsThePaytableCanWin(t *testing.T) {
	cfg := testCfg
	cfg.LocalJackpot = append(slices.Clone(localLevels), meters.JackpotLevel{Level: 2, ResetCents: 100_00, RatePPM: 10_000})
	h := newHarness(t, cfg, nil, 3)
	h.power()
	if named(h.m.pt, 2) {
		t.Fatal("the test needs a level the paytable does not name")
	}
	h.bill(50000)
	h.press(BtnMaxBet)
	var fed []int
	for _, c := range h.m.st.Open.Start.Contributions {
		fed = append(fed, c.Level)
	}
	if !slices.Equal(fed, []int{1, 9}) {
		t.Fatalf("levels fed at the top bet %v, want [1 9]", fed)
	}
}

// A note stacked under another order than the one pending, or under an
// order when none is pending, is a validator tilt that says what the
// ledger ordered.
func TestUnorderedStackedNoteNamesTheOrder(t *testing.T) {
	h := newHarness(t, testCfg, nil, 1)
	h.power()
	eff := h.step(BillEscrowed{At: h.now, Cents: 2000})
	var order StackBill
	for _, d := range eff.Devices {
		if s, ok := d.(StackBill); ok {
			order = s
		}
	}
	if order.Order == 0 {
		t.Fatalf("no stack order: %+v", eff.Devices)
	}
	h.step(BillStacked{At: h.now, Cents: 2000, Order: order.Order + 1})
	tilt := lastTilt(t, h)
	if want := fmt.Sprintf("the ledger ordered order %d of 2000 cents", order.Order); !strings.Contains(tilt.Detail, want) {
		t.Fatalf("tilt %q, want it to say %q", tilt.Detail, want)
	}

	h = newHarness(t, testCfg, nil, 1)
	h.power()
	h.step(BillStacked{At: h.now, Cents: 1000, Order: 5})
	if tilt := lastTilt(t, h); !strings.Contains(tilt.Detail, "under order 5; the ledger ordered none") {
		t.Fatalf("tilt %q", tilt.Detail)
	}
	if h.ledger.Get(meters.Credits) != 0 {
		t.Fatalf("an unordered note credited %d", h.ledger.Get(meters.Credits))
	}
}

func lastTilt(t *testing.T, h *harness) meters.Event {
	t.Helper()
	for i := len(h.records) - 1; i >= 0; i-- {
		if e, ok := h.records[i].(meters.Event); ok && e.Code == meters.EventTilt {
			if e.Tilt != TiltBillValidator {
				t.Fatalf("tilt %q, want %q", e.Tilt, TiltBillValidator)
			}
			return e
		}
	}
	t.Fatal("no tilt")
	return meters.Event{}
}

// A level is won at most once per game: a free game that shows the
// combination of a level the game already won adds no second hit.
func TestLevelWonOncePerGameInFreeGames(t *testing.T) {
	h, f := localHarness(t, 10_000_00)
	pt := h.m.pt
	scatter := slices.IndexFunc(pt.Symbols, func(s reels.Symbol) bool { return s.Kind == reels.Scatter })
	// Three scatters at the top of the first three reels trigger free games.
	var trigger []uint64
	for r, strip := range pt.Reels {
		stop := 0
		if r < 3 {
			stop = slices.Index(strip, uint8(scatter))
		}
		trigger = append(trigger, uint64(stop))
	}
	jp := jackpotStops(t, pt, 1)
	f.queue = slices.Concat(trigger, jp, jp)
	h.bill(50000)
	h.press(BtnMaxBet)
	for i := 0; h.m.phase == spinning; i++ {
		if i > 100 {
			t.Fatalf("the game never ends: fault %q", h.m.fault)
		}
		h.advance(testCfg.SpinTime)
	}
	var free []meters.FreeGame
	for _, r := range h.records {
		if fg, ok := r.(meters.FreeGame); ok {
			free = append(free, fg)
		}
	}
	if h.m.fault != "" || len(free) < 2 {
		t.Fatalf("fault %q, %d free games", h.m.fault, len(free))
	}
	if !slices.Equal(free[0].Progressives, []int{1}) || len(free[1].Progressives) != 0 {
		t.Fatalf("hits of free games 1 and 2: %v, %v", free[0].Progressives, free[1].Progressives)
	}
	if n := count[meters.ProgressiveAward](h.records); n != 1 {
		t.Fatalf("%d awards for one level won twice in a game", n)
	}
}

// Wins are recorded in cents at the game's denomination: the spin's win in
// credits times the denomination, for the base game and for free games.
func TestWinsAreCentsAtTheDenomination(t *testing.T) {
	cfg := testCfg
	cfg.Denom = 5
	cfg.HandpayLimit = 1 << 40
	h := newHarness(t, cfg, withCoins(t, 10_000_00), 1)
	h.power()
	pt := paytable(t)
	var baseWin, freeWin bool
	for games := 0; !baseWin || !freeWin; games++ {
		if games == 500 {
			t.Fatalf("500 games: a base win %v, a free game win %v", baseWin, freeWin)
		}
		n := len(h.records)
		h.play()
		var level int
		for _, r := range h.records[n:] {
			switch r := r.(type) {
			case meters.GameStart:
				level = r.Level
				sp, err := pt.Evaluate(r.Stops, r.Level, false)
				if err != nil || r.WinCents != sp.Win*cfg.Denom || r.Denom != cfg.Denom {
					t.Fatalf("game %d: win %d cents at denomination %d, the spin won %d credits (%v)", r.Game, r.WinCents, r.Denom, sp.Win, err)
				}
				baseWin = baseWin || sp.Win > 0
			case meters.FreeGame:
				sp, err := pt.Evaluate(r.Stops, level, true)
				if err != nil || r.WinCents != sp.Win*cfg.Denom {
					t.Fatalf("game %d free game %d: win %d cents, the spin won %d credits (%v)", r.Game, r.Index, r.WinCents, sp.Win, err)
				}
				freeWin = freeWin || sp.Win > 0
			}
		}
	}
}

// A lost game says nothing: no "you won 0".
func TestLostGameHasNoWinMessage(t *testing.T) {
	h := newHarness(t, testCfg, withCoins(t, 100_00), 5)
	h.power()
	for games := 0; ; games++ {
		if games == 100 {
			t.Fatal("100 games without a loss")
		}
		h.play()
		if lastEnd(t, h).WinCents == 0 {
			break
		}
	}
	if msg := h.m.View().Message; msg.Key != "" {
		t.Fatalf("message %+v after a lost game", msg)
	}
}

// The bet limit of the service menu runs from 1 to the paytable's number of
// bet levels, both included.
func TestBetLimitEdges(t *testing.T) {
	h := newHarness(t, testCfg, nil, 1)
	h.power()
	levels := len(h.m.pt.CreditsPerLine)
	for _, c := range []struct {
		value string
		ok    bool
	}{{"0", false}, {"1", true}, {fmt.Sprint(levels), true}, {fmt.Sprint(levels + 1), false}} {
		if got := h.m.setConfig("max_level", c.value); c.ok != (got == "") {
			t.Errorf("max_level %s: %q", c.value, got)
		}
	}
}

// Lowering the bet limit below the chosen bet level brings the level down
// to the limit; a limit at or above it leaves the level alone.
func TestBetLimitMovesOnlyALevelAboveIt(t *testing.T) {
	h := newHarness(t, testCfg, nil, 1)
	h.power()
	h.bill(50000)
	for range 3 {
		h.press(BtnBetUp)
	}
	if h.m.View().Level != 3 {
		t.Fatalf("level %d after three bet-ups", h.m.View().Level)
	}
	for _, c := range []struct {
		limit string
		level int
	}{{"5", 3}, {"4", 3}, {"2", 1}, {"5", 1}} {
		if why := h.m.setConfig("max_level", c.limit); why != "" {
			t.Fatal(why)
		}
		if got := h.m.View().Level; got != c.level {
			t.Fatalf("bet limit %s: level %d, want %d", c.limit, got, c.level)
		}
	}
}

// A technician clears the tilt named, and only tilts a technician clears.
func TestClearTiltByName(t *testing.T) {
	h := newHarness(t, svcCfg(), nil, 37)
	h.step(PowerUp{At: h.now, PriorFault: "commit failed"})
	login(h, RoleTechnician)
	if eff := h.svc(SvcClearTilt, TiltPrinter, ""); eff.Refused != "refused_no_tilt" || !slices.Contains(h.ledger.Tilts, TiltMeter) {
		t.Fatalf("clear of the printer tilt: %q, tilts %v", eff.Refused, h.ledger.Tilts)
	}
	if eff := h.svc(SvcClearTilt, TiltMeter, ""); eff.Refused != "" || slices.Contains(h.ledger.Tilts, TiltMeter) {
		t.Fatalf("clear of the meter tilt by name: %q, tilts %v", eff.Refused, h.ledger.Tilts)
	}
}

// A paytable put in play from the service menu is recorded with its
// version, also when the version differs from the one played before.
func TestPaytableChangeRecordsItsVersion(t *testing.T) {
	cfg := svcCfg()
	cfg.Load = func(id string) (*reels.Certified, error) {
		pt, err := assets.LoadPaytable(id)
		if err != nil || id != "lusitania-96" {
			return pt, err
		}
		c, p := *pt, *pt.Paytable
		p.Version = 2
		c.Paytable = &p
		return &c, nil
	}
	h := newHarness(t, cfg, nil, 23)
	h.power()
	login(h, RoleTechnician)
	if eff := h.svc(SvcConfig, "paytable", "lusitania-96"); eff.Refused != "" {
		t.Fatalf("paytable change: %q %s", eff.Refused, h.m.message.Detail)
	}
	if got := h.ledger.Settings; got["paytable"] != "lusitania-96" || got[SettingPaytableVersion] != "2" {
		t.Fatalf("settings after the change: %v", got)
	}
}

// A PIN has 6 to 8 digits, both included.
func TestPINLengthEdges(t *testing.T) {
	for pin, ok := range map[string]bool{"58294": false, "582947": true, "58294713": true, "582947130": false} {
		if why := weakPIN(pin); ok != (why == "") {
			t.Errorf("PIN %s: %q", pin, why)
		}
	}
}

// A stored PIN hash's salt is 8 to 64 bytes and its key 16 to 64 bytes,
// both ends included.
func TestPINHashSaltAndKeyEdges(t *testing.T) {
	enc := func(salt, key int) string {
		b64 := base64.RawStdEncoding.EncodeToString
		return fmt.Sprintf("$argon2id$v=%d$m=19456,t=2,p=1$%s$%s", argon2.Version, b64(make([]byte, salt)), b64(make([]byte, key)))
	}
	for _, c := range []struct {
		salt, key int
		ok        bool
	}{{8, 32, true}, {64, 32, true}, {7, 32, false}, {65, 32, false}, {16, 16, true}, {16, 64, true}, {16, 15, false}, {16, 65, false}} {
		if _, err := ParsePINHash(enc(c.salt, c.key)); c.ok != (err == nil) {
			t.Errorf("salt %d bytes, key %d bytes: %v", c.salt, c.key, err)
		}
	}
}

// Recall shows as many games as asked for, newest first.
func TestRecallShowsTheLastN(t *testing.T) {
	h := newHarness(t, testCfg, withCoins(t, 100_00), 5)
	h.power()
	for range 5 {
		h.play()
	}
	rc := h.m.recall(3)
	if len(rc) != 3 || rc[0].Game != 5 || rc[2].Game != 3 {
		t.Fatalf("recall of 3: %d games, %+v", len(rc), rc)
	}
}

// The screen's amounts are cents at the denomination: credits, bet and the
// spin's win; recall's line wins and recomputed totals too.
func TestViewAndRecallAtTheDenomination(t *testing.T) {
	cfg := testCfg
	cfg.Denom = 5
	cfg.HandpayLimit = 1 << 40
	h := newHarness(t, cfg, withCoins(t, 1_000_00+3), 1)
	h.power()
	if v := h.m.View(); v.Credits != (1_000_00+3)/5 || v.BetCents != v.BetCredits*5 || v.BetCredits != h.m.pt.Bet(0) {
		t.Fatalf("credits %d, bet %d credits = %d cents", v.Credits, v.BetCredits, v.BetCents)
	}
	pt := paytable(t)
	for games := 0; ; games++ {
		if games == 100 {
			t.Fatal("100 games without a win")
		}
		h.press(BtnSpin)
		gs := h.m.st.Open.Start
		sp, _ := pt.Evaluate(gs.Stops, gs.Level, false)
		v := h.m.View()
		if v.SpinWinCents != sp.Win*5 {
			t.Fatalf("spin won %d credits, the screen shows %d cents", sp.Win, v.SpinWinCents)
		}
		for i, l := range v.Lines {
			if l.Cents != sp.Lines[i].Credits*5 {
				t.Fatalf("line %d won %d credits, the screen shows %d cents", l.Line, sp.Lines[i].Credits, l.Cents)
			}
		}
		for h.m.phase == spinning {
			h.advance(cfg.SpinTime)
		}
		// After the game, the screen still shows what it won.
		if end := lastEnd(t, h); h.m.View().GameWinCents != end.WinCents {
			t.Fatalf("game %d won %d cents, the screen shows %d after it ended", end.Game, end.WinCents, h.m.View().GameWinCents)
		}
		if sp.Win > 0 && len(sp.Lines) > 0 {
			break
		}
	}
	rc := h.m.recall(1)[0]
	var lines int64
	for _, l := range rc.Lines {
		lines += l.Cents
	}
	if !rc.Match || rc.Problem != "" || rc.Recomputed != rc.WinCents || lines == 0 || lines%5 != 0 || lines > rc.WinCents {
		t.Fatalf("recall at denomination 5: %+v", rc)
	}
}
