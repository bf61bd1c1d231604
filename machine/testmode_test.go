package machine

import (
	"encoding/json"
	"reflect"
	"testing"
	"time"

	"github.com/openegm/cabinet/assets"
	"github.com/openegm/cabinet/baccarat"
	"github.com/openegm/cabinet/cards"
	"github.com/openegm/cabinet/meters"
	"github.com/openegm/cabinet/rng"
	"github.com/openegm/cabinet/sas/metercode"
)

const techPIN = "582947"

func testModeCfg(t *testing.T) Config {
	cfg := tableCfg(t, testTable)
	cfg.Load = assets.LoadPaytable
	return cfg
}

// realPlayThenCashOut leaves a machine with real games played (reels at
// bet level 2, then a Makccarat hand, on screen), the chips of that hand
// on the table, and no credit (cashed out, the ticket printed).
func realPlayThenCashOut(t *testing.T, cfg Config, seed uint64) *harness {
	h := newHarness(t, cfg, nil, seed)
	h.power()
	h.bill(50_00)
	h.press(BtnBetUp)
	h.play()
	h.step(SelectGame{At: h.now, Game: meters.GameMakccarat})
	h.bet(baccarat.SpotPlayer, 200)
	h.dealHand()
	eff := h.press(BtnCashOut)
	co := eff.Records[0].(meters.CashOut)
	h.step(TicketPrinted{At: h.now, Validation: co.Ticket})
	if h.ledger.Get(meters.Credits) != 0 {
		t.Fatal("credits left after the cash-out")
	}
	return h
}

func (h *harness) enterTest() Effects {
	h.t.Helper()
	h.keyOn("tech-7")
	if h.m.cfg.PINHashes[RoleTechnician] == "" {
		login(h, RoleTechnician)
	} else if eff := h.pin(RoleTechnician, techPIN); eff.Refused != "" {
		h.t.Fatalf("login: %s", eff.Refused)
	}
	return h.svc(SvcTestEnter, "", "")
}

// sasMeters reads every SAS meter code the ledger answers.
func sasMeters(st *meters.State) map[metercode.Code]int64 {
	out := map[metercode.Code]int64{}
	for c := range 0x10000 {
		if v, ok := st.SASMeter(metercode.Code(c)); ok {
			out[metercode.Code(c)] = v
		}
	}
	return out
}

// playerView is the player's screen without the messages (which expire
// with time) and the service menu.
func playerView(v View) string {
	v.Message, v.ServiceMessage, v.Service, v.Mode = Message{}, Message{}, nil, ""
	b, _ := json.Marshal(v)
	return string(b)
}

// A technician enters test mode (recorded, who and when), plays both games
// on test credits, and leaves (recorded): no meter, no SAS meter, no
// game's meter moved, only the test meters; bills and cash-out were
// refused; the player's screen is back exactly as it was.
func TestTestModePlaysBothGamesAndMovesOnlyTestMeters(t *testing.T) {
	cfg := testModeCfg(t)
	h := realPlayThenCashOut(t, cfg, 31)
	login(h, RoleTechnician)
	h.svc(SvcLogout, "", "")
	screen := playerView(h.m.View())
	before := h.ledger.Clone()
	beforeSAS := sasMeters(before)

	eff := h.enterTest()
	tm, ok := eff.Records[0].(meters.TestMode)
	if eff.Refused != "" || !ok || !tm.Enter || tm.Who != "tech-7" || tm.Role != RoleTechnician || tm.At != h.now.UnixNano() || tm.Credits != TestCredits {
		t.Fatalf("enter: refused %q, records %+v", eff.Refused, eff.Records)
	}
	v := h.m.View()
	if v.Test == nil || v.Test.CreditsCents != TestCredits || v.CreditsCents != TestCredits || v.Mode != "idle" || v.Service != nil {
		t.Fatalf("view in test mode: mode %s test %+v credits %d", v.Mode, v.Test, v.CreditsCents)
	}
	if v.Table.Bets != [5]int64{} {
		t.Fatalf("the player's chips are on the test table: %v", v.Table.Bets)
	}
	if eff := h.step(BillEscrowed{At: h.now, Cents: 500}); len(eff.Records) != 0 || !hasReturn(eff) {
		t.Fatalf("bill in test mode: %+v", eff)
	}
	if eff := h.press(BtnCashOut); eff.Refused != "refused_test_mode" || len(eff.Records) != 0 {
		t.Fatalf("cash-out in test mode: %+v", eff)
	}

	// Makccarat hands, then reel games, on the test credits.
	var bet, won int64
	games := 0
	for range 5 {
		if eff := h.bet(baccarat.SpotBanker, 300); eff.Refused != "" {
			t.Fatalf("test chip: %s", eff.Refused)
		}
		eff := h.press(BtnDeal)
		tg, ok := eff.Records[0].(meters.TestGame)
		if !ok || len(eff.Records) != 1 || tg.Kind != meters.GameMakccarat || tg.Hand == nil {
			t.Fatalf("test hand recorded %+v (refused %q)", eff.Records, eff.Refused)
		}
		if h.m.View().Mode != "dealing" {
			t.Fatalf("test hand mode %s", h.m.View().Mode)
		}
		want, err := cfg.Table.Play(tg.Hand.Cards, baccarat.Bets{0, 300})
		if err != nil || want.Paid != tg.WinCents {
			t.Fatalf("test hand pays %d, its cards pay %d (%v)", tg.WinCents, want.Paid, err)
		}
		for h.m.phase == spinning {
			h.advance(cfg.CardTime)
		}
		if hv := h.m.View().Table.Hand; hv == nil || !hv.Done || hv.Game != tg.Game || hv.PaidCents != tg.WinCents {
			t.Fatalf("test hand on screen %+v", hv)
		}
		bet, won, games = bet+300, won+tg.WinCents, games+1
		h.press(BtnClearBets)
	}
	if eff := h.step(SelectGame{At: h.now, Game: meters.GameReels}); eff.Refused != "" {
		t.Fatalf("select the reels: %s (phase %v)", eff.Refused, h.m.phase)
	}
	h.press(BtnBetUp)
	h.press(BtnBetUp)
	for range 30 {
		if h.m.st.Test.Credits < h.m.View().BetCents {
			break
		}
		eff := h.press(BtnSpin)
		if len(eff.Records) != 1 {
			t.Fatalf("test spin: records %+v, refused %q (%+v)", eff.Records, eff.Refused, h.m.View().Message)
		}
		tg, ok := eff.Records[0].(meters.TestGame)
		if !ok || tg.Kind != meters.GameReels || tg.Level != h.m.level {
			t.Fatalf("test spin recorded %+v (refused %q)", eff.Records, eff.Refused)
		}
		pay := int64(0)
		sp, _ := h.m.pt.Evaluate(tg.Stops, tg.Level, false)
		pay += sp.Win
		for _, f := range tg.Free {
			fs, _ := h.m.pt.Evaluate(f, tg.Level, true)
			pay += fs.Win
		}
		if pay*cfg.Denom != tg.WinCents {
			t.Fatalf("test game %d records %d, its stops pay %d", tg.Game, tg.WinCents, pay*cfg.Denom)
		}
		for h.m.phase == spinning {
			h.advance(cfg.SpinTime)
		}
		bet, won, games = bet+tg.BetCents, won+tg.WinCents, games+1
	}
	st := h.ledger.Test
	if st.Played != int64(games) || st.Bet != bet || st.Won != won || st.Credits != TestCredits-bet+won {
		t.Fatalf("test meters %+v, want %d games bet %d won %d", st, games, bet, won)
	}
	if v := h.m.View(); v.Test.CreditsCents != st.Credits || v.Test.Played != int64(games) {
		t.Fatalf("view's test meters %+v", v.Test)
	}

	h.pin(RoleTechnician, techPIN)
	eff = h.svc(SvcTestLeave, "", "")
	if tm, ok := eff.Records[0].(meters.TestMode); eff.Refused != "" || !ok || tm.Enter || tm.Who != "tech-7" || tm.Why != TestExitTechnician {
		t.Fatalf("leave: refused %q, records %+v", eff.Refused, eff.Records)
	}
	h.svc(SvcLogout, "", "")
	if got := playerView(h.m.View()); got != screen {
		t.Fatalf("the player's screen was not restored:\nbefore %s\nafter  %s", screen, got)
	}
	after := h.ledger
	if after.Meters != before.Meters || !reflect.DeepEqual(after.BillCounts, before.BillCounts) ||
		!reflect.DeepEqual(after.PerGame, before.PerGame) || after.LastGame != before.LastGame || after.LinkedCoinIn != before.LinkedCoinIn {
		t.Fatalf("meters moved in test mode:\nbefore %v %v\nafter  %v %v", before.Meters, before.PerGame, after.Meters, after.PerGame)
	}
	if got := sasMeters(after); !reflect.DeepEqual(got, beforeSAS) {
		t.Fatal("a SAS meter moved in test mode")
	}
	if after.Test.Active || after.Test.Credits != 0 || after.Test.Played != int64(games) {
		t.Fatalf("test meters after leaving %+v", after.Test)
	}
}

func hasReturn(eff Effects) bool {
	for _, d := range eff.Devices {
		if _, ok := d.(ReturnBill); ok {
			return true
		}
		if e, ok := d.(EnableBills); ok && e.On {
			return false
		}
	}
	return false
}

// Test mode is entered only by a technician, with no credits, no game and
// no handpay; in it, settings and RAM clear are refused.
func TestTestModeRefusals(t *testing.T) {
	// With credits.
	h := newHarness(t, testModeCfg(t), nil, 3)
	h.power()
	h.bill(500)
	if eff := h.enterTest(); eff.Refused != "refused_credits_on_machine" || len(eff.Records) != 0 {
		t.Fatalf("with credits: %+v", eff)
	}
	// During a game: a spin with its reels still turning.
	h.svc(SvcLogout, "", "")
	h.press(BtnSpin)
	h.keyOn("tech-7")
	h.pin(RoleTechnician, techPIN)
	if h.m.phase != spinning {
		t.Fatal("the game ended before the technician logged in")
	}
	if eff := h.svc(SvcTestEnter, "", ""); eff.Refused == "" || len(eff.Records) != 0 {
		t.Fatalf("during a game: %+v", eff)
	}

	// Not a technician.
	h = newHarness(t, testModeCfg(t), nil, 4)
	h.power()
	login(h, RoleOperator)
	if eff := h.svc(SvcTestEnter, "", ""); eff.Refused != "refused_role" || len(eff.Records) != 0 {
		t.Fatalf("operator: %+v", eff)
	}
	h.svc(SvcLogout, "", "")

	// During a handpay (cancelled credits at the limit; the key does not
	// reset it before the attendant confirms the amount).
	hcfg := testModeCfg(t)
	hcfg.HandpayConfirm = true
	h = newHarness(t, hcfg, nil, 5)
	h.power()
	h.bill(50000)
	h.bill(50000)
	h.press(BtnCashOut)
	h.keyOn("tech-7")
	login(h, RoleTechnician)
	if eff := h.svc(SvcTestEnter, "", ""); eff.Refused == "" || len(eff.Records) != 0 {
		t.Fatalf("during a handpay: %+v", eff)
	}

	// In test mode: no second entry, no settings, no RAM clear; leaving
	// when not in test mode is refused.
	h = newHarness(t, testModeCfg(t), nil, 6)
	h.power()
	login(h, RoleTechnician)
	if eff := h.svc(SvcTestLeave, "", ""); eff.Refused != "refused_not_test_mode" {
		t.Fatalf("leave out of test mode: %+v", eff)
	}
	h.svc(SvcTestEnter, "", "")
	h.pin(RoleTechnician, techPIN)
	for _, a := range [][3]string{{SvcTestEnter, "", ""}, {SvcConfig, "denom", "2"}, {SvcRAMClear, "", ""}} {
		if eff := h.svc(a[0], a[1], a[2]); eff.Refused != "refused_test_mode" || len(eff.Records) != 0 {
			t.Errorf("%s in test mode: %+v", a[0], eff)
		}
	}
	// While logged in, the games wait (the menu is on screen).
	if eff := h.press(BtnSpin); eff.Refused != "refused_service" {
		t.Errorf("spin with the menu open: %q", eff.Refused)
	}
}

// A lab build chooses the next test game's outcome; the game pays what
// the paytable and the table definition pay for it. A build that is not a
// lab build refuses to choose.
func TestLabChoosesTheTestOutcome(t *testing.T) {
	cfg := testModeCfg(t)
	h := newHarness(t, cfg, nil, 8)
	h.power()
	h.enterTest()
	if eff := h.step(TestOutcome{At: h.now, Value: "0,0,0,0,0"}); eff.Refused != "refused_not_lab" {
		t.Fatalf("not a lab build: %+v", eff)
	}

	cfg.Lab = true
	h = newHarness(t, cfg, nil, 8)
	if eff := h.step(TestOutcome{At: h.now, Value: "0,0,0,0,0"}); eff.Refused != "refused_not_test_mode" {
		t.Fatalf("out of test mode: %+v", eff)
	}
	h.power()
	h.enterTest()
	pt := h.m.pt

	// A spin that awards free games, and one free spin chosen after it.
	src := rng.NewSeeded(99)
	var base, free []int
	for base == nil || free == nil {
		s := pt.DrawStops(src, base != nil, nil)
		if sp, _ := pt.Evaluate(s, 0, base != nil); base == nil && sp.FreeAwarded > 0 {
			base = s
		} else if base != nil && sp.Win > 0 {
			free = s
		}
	}
	choice := intsText(base) + ";" + intsText(free)
	if eff := h.step(TestOutcome{At: h.now, Value: choice}); eff.Refused != "" {
		t.Fatalf("choose %s: %s (%s)", choice, eff.Refused, h.m.View().Message.Detail)
	}
	if v := h.m.View(); v.Test.Chosen != choice || !v.Test.Lab {
		t.Fatalf("view's choice %+v", v.Test)
	}
	eff := h.press(BtnSpin)
	tg := eff.Records[0].(meters.TestGame)
	if !tg.Chosen || !reflect.DeepEqual(tg.Stops, base) || len(tg.Free) == 0 || !reflect.DeepEqual(tg.Free[0], free) {
		t.Fatalf("chosen spin recorded %+v", tg)
	}
	var want int64
	for i, s := range append([][]int{tg.Stops}, tg.Free...) {
		sp, err := pt.Evaluate(s, 0, i > 0)
		if err != nil {
			t.Fatal(err)
		}
		want += sp.Win * cfg.Denom
	}
	if tg.WinCents != want || h.ledger.Test.Credits != TestCredits-tg.BetCents+want {
		t.Fatalf("chosen spin pays %d, credits %d; the paytable pays %d", tg.WinCents, h.ledger.Test.Credits, want)
	}
	for h.m.phase == spinning {
		h.advance(cfg.SpinTime)
	}
	if v := h.m.View(); !reflect.DeepEqual(v.Stops, tg.Free[len(tg.Free)-1]) || v.Test.Chosen != "" {
		t.Fatalf("the screen ends on stops %v, the last free spin is %v (choice left %q)", v.Stops, tg.Free[len(tg.Free)-1], v.Test.Chosen)
	}
	if eff := h.step(TestOutcome{At: h.now, Value: "0,0,0,0,999"}); eff.Refused != "refused_bad_outcome" {
		t.Fatalf("stop off the strip: %+v", eff)
	}

	// Makccarat: the player's natural 9 against the banker's 5, then a
	// tie, with the definition's own prizes (makccarat-alt1-5pct: 5 %
	// commission on a winning player or banker prize).
	h.step(SelectGame{At: h.now, Game: meters.GameMakccarat})
	for _, c := range []struct {
		cards string
		spot  baccarat.Spot
		stake int64
		want  int64
	}{
		{"9H 2C KD 3S", baccarat.SpotPlayer, 200, 200 + 200 - 10},
		{"9H 9C KD KS", baccarat.SpotTie, 200, 200 + cfg.Table.Alternative.Odds(baccarat.SpotTie)*200},
	} {
		h.press(BtnClearBets)
		if eff := h.bet(c.spot, c.stake); eff.Refused != "" {
			t.Fatalf("stake %d on %s: %s (%s)", c.stake, c.spot, eff.Refused, h.m.View().Message.Detail)
		}
		if eff := h.step(TestOutcome{At: h.now, Value: c.cards}); eff.Refused != "" {
			t.Fatalf("choose %s: %s (%s)", c.cards, eff.Refused, h.m.View().Message.Detail)
		}
		eff := h.press(BtnDeal)
		if len(eff.Records) != 1 {
			t.Fatalf("deal %s: refused %q (%+v)", c.cards, eff.Refused, h.m.View().Message)
		}
		tg := eff.Records[0].(meters.TestGame)
		if got := cardsText(tg.Hand.Cards); got != c.cards || !tg.Chosen || tg.WinCents != c.want {
			t.Fatalf("chosen hand %s recorded %s paying %d, want %d", c.cards, got, tg.WinCents, c.want)
		}
		for h.m.phase == spinning {
			h.advance(cfg.CardTime)
		}
	}
	for _, bad := range []string{"9H 2C KD", "9H 2C KD 3S 4D", "9H 2C KD 3X"} {
		if eff := h.step(TestOutcome{At: h.now, Value: bad}); eff.Refused != "refused_bad_outcome" {
			t.Errorf("hand %q the rules do not deal: %+v", bad, eff)
		}
	}
}

func intsText(s []int) string {
	b, _ := json.Marshal(s)
	return string(b[1 : len(b)-1])
}

func cardsText(cs []cards.Card) string {
	s := ""
	for i, c := range cs {
		if i > 0 {
			s += " "
		}
		s += c.String()
	}
	return s
}

// Test mode does not survive a power loss: the machine comes back out of
// it, the exit recorded at power-up (before anything else is), the test
// credits gone and the meters as before test mode (but for the power-up's
// own counts).
func TestTestModeEndsAtPowerUp(t *testing.T) {
	cfg := testModeCfg(t)
	h := realPlayThenCashOut(t, cfg, 12)
	before := h.ledger.Clone()
	h.enterTest()
	h.step(SelectGame{At: h.now, Game: meters.GameReels})
	if eff := h.press(BtnSpin); len(eff.Records) != 1 { // the power goes during the test game
		t.Fatalf("test spin: %+v", eff)
	}
	if !h.ledger.Test.Active {
		t.Fatal("not in test mode")
	}

	h2 := newHarness(t, cfg, h.ledger, 13)
	h2.now = h.now.Add(time.Minute)
	eff := h2.step(PowerUp{At: h2.now})
	if _, ok := eff.Records[0].(meters.Event); !ok {
		t.Fatalf("first record %+v", eff.Records[0])
	}
	tm, ok := eff.Records[1].(meters.TestMode)
	if !ok || tm.Enter || tm.Why != TestExitPowerUp || tm.At != h2.now.UnixNano() {
		t.Fatalf("power-up records %+v", eff.Records)
	}
	v := h2.m.View()
	if v.Test != nil || v.CreditsCents != 0 || h2.ledger.Test.Active || h2.ledger.Test.Credits != 0 || h2.ledger.Test.Played != 1 {
		t.Fatalf("after the power-up: view test %+v credits %d, ledger %+v", v.Test, v.CreditsCents, h2.ledger.Test)
	}
	want := before.Meters
	want[meters.PowerResets]++
	want[meters.GamesSincePowerUp] = 0
	if h2.ledger.Meters != want {
		t.Fatalf("meters after the power-up\n got %v\nwant %v", h2.ledger.Meters, want)
	}
	// Back to normal play: bills are taken again.
	if !h2.bill(500) {
		t.Fatal("bill refused after test mode ended at power-up")
	}
}
