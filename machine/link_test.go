package machine

import (
	"testing"
	"time"

	"github.com/openegm/cabinet/meters"
)

func linkedHarness(t *testing.T, mode string, limit int64, st *meters.State) (*harness, *forced) {
	cfg := testCfg
	cfg.HandpayLimit = limit
	cfg.Linked = []int{1}
	cfg.LinkSecondHit = "split"
	cfg.LinkAward = mode
	h := newHarness(t, cfg, st, 21)
	f := &forced{src: h.m.src}
	h.m.src = f
	h.power()
	return h, f
}

func (h *harness) broadcast(level int, cents int64) Effects {
	return h.step(LinkBroadcast{At: h.now, Values: map[int]int64{level: cents}})
}

// confirm is the controller's addressed 0x80 as the SAS port passes it on:
// for the hit on level it reported when the poll arrived (game).
func (h *harness) confirm(level int, game uint64, cents int64) Effects {
	return h.step(LinkConfirm{At: h.now, Level: level, Game: game, Cents: cents})
}

func count[T meters.Record](recs []meters.Record) int {
	n := 0
	for _, r := range recs {
		if _, ok := r.(T); ok {
			n++
		}
	}
	return n
}

func events(recs []meters.Record, code string) []meters.Event {
	var out []meters.Event
	for _, r := range recs {
		if e, ok := r.(meters.Event); ok && e.Code == code {
			out = append(out, e)
		}
	}
	return out
}

// hitLinked plays max bet with the linked level's combination forced, the
// value broadcast while it spins, and returns the reported hit.
func (h *harness) hitLinked(f *forced, value int64) meters.ProgressiveHit {
	h.t.Helper()
	if h.m.st.Get(meters.Credits) < 500 {
		h.bill(50000)
	}
	h.broadcast(1, value)
	f.queue = jackpotStops(h.t, h.m.pt, 1)
	if eff := h.press(BtnMaxBet); eff.Refused != "" {
		h.t.Fatalf("max bet refused: %s", eff.Refused)
	}
	for h.m.phase == spinning || h.m.st.Handpay != nil {
		h.advance(testCfg.SpinTime)
		h.broadcast(1, value)
		if h.m.st.Handpay != nil { // the game's own win, hand-paid first
			h.step(Key{At: h.now, Key: KeyAttendant, On: true, Who: "att"})
			h.step(Key{At: h.now, Key: KeyAttendant, On: false})
		}
	}
	claims := h.m.st.LinkedClaims()
	if len(claims) != 1 || claims[0].Level != 1 || claims[0].Cents != value {
		h.t.Fatalf("claims after the hit: %+v", claims)
	}
	return claims[0]
}

// Addressed mode: a hit on a linked level is reported with the value shown,
// play locked, paid with the amount the controller confirms for that hit,
// once; an amount above the claim is refused (recorded once) and the hit
// stays pending.
func TestAddressedHitReportedThenConfirmed(t *testing.T) {
	h, f := linkedHarness(t, LinkAwardAddressed, 10_000_00, nil)
	hit := h.hitLinked(f, 300_00)
	if v := h.m.View(); v.Message.Key != "msg_jackpot_wait" || !v.Jackpots[0].Pending || !v.Jackpots[0].Linked || v.Jackpots[0].SecondHit != "split" {
		t.Fatalf("view %+v", v)
	}
	if eff := h.press(BtnSpin); eff.Refused != "refused_jackpot_pending" {
		t.Fatalf("spin with a hit unconfirmed: %q", eff.Refused)
	}
	// A global broadcast is only a value, and so is a read of the hit.
	h.broadcast(1, 250_00)
	h.step(LinkWinsRead{At: h.now, Hits: []meters.ProgressiveHit{hit}})
	if count[meters.ProgressiveAward](h.records) != 0 || len(h.m.st.LinkedClaims()) != 1 {
		t.Fatal("a global broadcast or a read paid the hit")
	}
	// More than the claim: refused, once, and still pending.
	n := len(h.records)
	for range 3 {
		h.confirm(1, hit.Game, 300_01)
	}
	refused := events(h.records[n:], meters.EventLinkAwardRefused)
	if len(refused) != 1 || count[meters.ProgressiveAward](h.records) != 0 || len(h.m.st.LinkedClaims()) != 1 {
		t.Fatalf("an amount above the claim: %d refusals recorded, claims %v", len(refused), h.m.st.LinkedClaims())
	}
	// A confirmation for another game (a hit paid before) pays nothing.
	h.confirm(1, hit.Game-1, 100_00)
	if count[meters.ProgressiveAward](h.records) != 0 {
		t.Fatal("a confirmation for another game paid this hit")
	}
	credits := h.m.st.Get(meters.Credits)
	h.confirm(1, hit.Game, 299_99) // the controller's amount rules, up to the claim
	if count[meters.ProgressiveAward](h.records) != 1 || h.m.st.Get(meters.Credits) != credits+299_99 ||
		h.m.st.Get(meters.MachinePaidProgressive) != 299_99 || len(h.m.st.LinkedClaims()) != 0 {
		t.Fatalf("after the confirmation: credits %d (was %d), claims %v", h.m.st.Get(meters.Credits), credits, h.m.st.LinkedClaims())
	}
	// Sent again (a retry): never a second award.
	h.confirm(1, hit.Game, 299_99)
	if count[meters.ProgressiveAward](h.records) != 1 {
		t.Fatal("a repeated confirmation paid twice")
	}
	h.broadcast(1, 200_00)
	h.play()
}

// Two hits on consecutive games of one machine: the confirmation meant for
// the first, arriving again once the second is pending, pays nothing; the
// second is paid only its own amount.
func TestAddressedConfirmationOnlyForItsHit(t *testing.T) {
	h, f := linkedHarness(t, LinkAwardAddressed, 10_000_00, nil)
	first := h.hitLinked(f, 500_00)
	h.confirm(1, first.Game, 499_00)
	second := h.hitLinked(f, 120_00)
	if second.Game != first.Game+1 {
		t.Fatalf("games %d then %d, want consecutive", first.Game, second.Game)
	}
	paid := h.m.st.Get(meters.MachinePaidProgressive)
	h.confirm(1, first.Game, 499_00) // the controller's resend after a stall
	if h.m.st.Get(meters.MachinePaidProgressive) != paid || len(h.m.st.LinkedClaims()) != 1 {
		t.Fatalf("the first hit's confirmation paid the second: paid %d (was %d)", h.m.st.Get(meters.MachinePaidProgressive), paid)
	}
	h.confirm(1, second.Game, 118_00)
	if got := h.m.st.Get(meters.MachinePaidProgressive); got != paid+118_00 {
		t.Fatalf("paid %d after the second confirmation, want %d", got, paid+118_00)
	}
}

// The unconfirmed hit survives a restart and is confirmed exactly once.
func TestAddressedHitSurvivesRestart(t *testing.T) {
	h, f := linkedHarness(t, LinkAwardAddressed, 100_00, nil)
	hit := h.hitLinked(f, 300_00)
	h2, _ := linkedHarness(t, LinkAwardAddressed, 100_00, h.ledger)
	if c := h2.m.st.LinkedClaims(); len(c) != 1 || c[0] != hit {
		t.Fatalf("claims after the restart %v, want %v", c, hit)
	}
	h2.confirm(1, hit.Game, 299_00)
	h2.confirm(1, hit.Game, 299_00)
	if count[meters.ProgressiveAward](h2.records) != 1 || count[meters.HandpayPending](h2.records) != 1 {
		t.Fatalf("records after two confirmations: %v", h2.records)
	}
	if hp := h2.m.st.Handpay; hp == nil || hp.Kind != meters.HandpayProgressive || hp.Cents != 299_00 {
		t.Fatalf("above the limit the award is hand-paid: %+v", hp)
	}
}

// Broadcast mode (standard SAS): the host's read of the hit releases it,
// and the machine pays the value it showed and reported, once; an
// addressed 0x80 is a value like any other, a read of another game pays
// nothing, and a read that finds a door open pays when it closes.
func TestBroadcastHitPaidOnTheHostsRead(t *testing.T) {
	h, f := linkedHarness(t, LinkAwardBroadcast, 10_000_00, nil)
	if v := h.m.View(); v.Jackpots[0].SecondHit != "shown" {
		t.Fatalf("broadcast mode shows the rule %q, want shown", v.Jackpots[0].SecondHit)
	}
	hit := h.hitLinked(f, 300_00)
	h.confirm(1, hit.Game, 280_00)
	other := hit
	other.Game--
	h.step(LinkWinsRead{At: h.now, Hits: []meters.ProgressiveHit{other}})
	if count[meters.ProgressiveAward](h.records) != 0 || len(h.m.st.LinkedClaims()) != 1 {
		t.Fatal("an addressed value or a read of another game paid the hit")
	}
	h.step(Door{At: h.now, Door: meters.DoorMain, Open: true})
	h.step(LinkWinsRead{At: h.now, Hits: []meters.ProgressiveHit{hit}})
	if count[meters.ProgressiveAward](h.records) != 0 {
		t.Fatal("paid with the main door open")
	}
	credits := h.m.st.Get(meters.Credits)
	h.step(Door{At: h.now, Door: meters.DoorMain, Open: false})
	h.advance(10 * time.Millisecond)
	if count[meters.ProgressiveAward](h.records) != 1 {
		t.Fatal("the read hit not paid once the door closed")
	}
	h.step(LinkWinsRead{At: h.now, Hits: []meters.ProgressiveHit{hit}}) // read again
	if count[meters.ProgressiveAward](h.records) != 1 || h.m.st.Get(meters.Credits) != credits+300_00 || len(h.m.st.LinkedClaims()) != 0 {
		t.Fatalf("after the read: %d awards, credits %d (was %d)", count[meters.ProgressiveAward](h.records), h.m.st.Get(meters.Credits), credits)
	}
	// At the handpay limit the value shown is paid by hand.
	h2, f2 := linkedHarness(t, LinkAwardBroadcast, 100_00, nil)
	hit2 := h2.hitLinked(f2, 300_00)
	h2.step(LinkWinsRead{At: h2.now, Hits: []meters.ProgressiveHit{hit2}})
	if hp := h2.m.st.Handpay; hp == nil || hp.Kind != meters.HandpayProgressive || hp.Cents != 300_00 || hp.Game != hit2.Game {
		t.Fatalf("handpay %+v", hp)
	}
}

// The award mode is in the ledger's settings: recorded when it changes.
func TestLinkAwardModeRecorded(t *testing.T) {
	h, _ := linkedHarness(t, "", 10_000_00, nil)
	if h.ledger.Settings[SettingLinkAward] != LinkAwardBroadcast {
		t.Fatalf("settings %v: the default is broadcast", h.ledger.Settings)
	}
	h2, _ := linkedHarness(t, LinkAwardBroadcast, 10_000_00, h.ledger)
	if count[meters.Config](h2.records) != 0 {
		t.Fatalf("an unchanged mode recorded again: %v", h2.records)
	}
	h3, _ := linkedHarness(t, LinkAwardAddressed, 10_000_00, h2.ledger)
	if count[meters.Config](h3.records) != 1 || h3.ledger.Settings[SettingLinkAward] != LinkAwardAddressed {
		t.Fatalf("a changed mode: records %v", h3.records)
	}
}

// Five seconds without a value: the link is down (one event), no bet that
// could win the linked level is taken; a value brings it back.
func TestLinkDownRefusesTheLinkedBet(t *testing.T) {
	h, _ := linkedHarness(t, LinkAwardBroadcast, 10_000_00, nil)
	h.broadcast(1, 300_00)
	h.bill(50000)
	top := h.m.pt.TopLevel()
	if h.m.View().TopOffered != top {
		t.Fatal("top bet not offered with the link up")
	}
	h.press(BtnMaxBet)
	for h.m.phase == spinning {
		h.advance(time.Second)
		h.broadcast(1, 300_00)
	}
	h.advance(LinkTimeout)
	if len(events(h.records, meters.EventLinkDown)) != 0 || h.m.View().LinkDown {
		t.Fatal("down at exactly the timeout")
	}
	n := len(h.records)
	h.advance(time.Millisecond)
	h.advance(time.Second)
	downs := len(events(h.records[n:], meters.EventLinkDown))
	if v := h.m.View(); downs != 1 || !v.LinkDown || v.TopOffered != top-1 {
		t.Fatalf("after the timeout: %d down events, view down %v max %d", downs, v.LinkDown, v.TopOffered)
	}
	if eff := h.press(BtnSpin); eff.Refused != "refused_link_down" {
		t.Fatalf("spin at the linked bet with the link down: %q", eff.Refused)
	}
	h.play() // at the level below: plays
	h.broadcast(1, 310_00)
	if v := h.m.View(); v.LinkDown || v.TopOffered != top {
		t.Fatalf("after a value: down %v max %d", v.LinkDown, v.TopOffered)
	}
	if e, ok := h.records[len(h.records)-1].(meters.Event); !ok || e.Code != meters.EventLinkUp {
		t.Fatalf("no link-up event: %+v", h.records[len(h.records)-1])
	}
}

// Only a bet that could win the linked level is linked coin-in: the top
// bet with the link up; the lower bet, and the one the cabinet falls back to
// with the link down, are not.
func TestOnlyTheLinkedBetIsLinkedCoinIn(t *testing.T) {
	h, _ := linkedHarness(t, LinkAwardBroadcast, 10_000_00, nil)
	h.broadcast(1, 300_00)
	h.bill(50000)
	linked := func() int64 { return h.ledger.LinkedCoinIn }
	h.press(BtnMaxBet)
	for h.m.phase == spinning {
		h.advance(testCfg.SpinTime)
		h.broadcast(1, 300_00)
	}
	top := h.m.betCents()
	if linked() != top || h.ledger.Get(meters.CoinIn) != top {
		t.Fatalf("after a top bet: linked %d, coin in %d, bet %d", linked(), h.ledger.Get(meters.CoinIn), top)
	}
	h.press(BtnBetDown)
	h.play()
	h.advance(LinkTimeout + time.Second) // the link down: the top bet is not offered
	h.press(BtnMaxBet)
	for h.m.phase == spinning {
		h.advance(testCfg.SpinTime)
	}
	lower := h.m.pt.Bet(h.m.pt.TopLevel()-1) * testCfg.Denom
	if linked() != top || h.ledger.Get(meters.CoinIn) != top+2*lower {
		t.Fatalf("after two lower bets: linked %d (want %d), coin in %d (want %d)", linked(), top, h.ledger.Get(meters.CoinIn), top+2*lower)
	}
}
