package machine

import (
	"testing"
	"time"

	"github.com/openegm/cabinet/meters"
)

func linkedHarness(t *testing.T, limit int64, st *meters.State) (*harness, *forced) {
	cfg := testCfg
	cfg.HandpayLimit = limit
	cfg.Linked = []int{1}
	cfg.LinkSecondHit = "split"
	h := newHarness(t, cfg, st, 21)
	f := &forced{src: h.m.src}
	h.m.src = f
	h.power()
	return h, f
}

func (h *harness) broadcast(addressed bool, level int, cents int64) Effects {
	return h.step(LinkBroadcast{At: h.now, Values: map[int]int64{level: cents}, Addressed: addressed})
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

// A hit on a linked level: reported with the value shown, play locked, paid
// with the amount the controller confirms by an addressed broadcast, once.
func TestLinkedHitReportedThenConfirmed(t *testing.T) {
	h, f := linkedHarness(t, 10_000_00, nil)
	h.broadcast(false, 1, 300_00)
	h.bill(50000)
	f.queue = jackpotStops(t, h.m.pt, 1)
	h.press(BtnMaxBet)
	for h.m.phase == spinning {
		h.advance(testCfg.SpinTime)
		h.broadcast(false, 1, 300_00)
	}
	claims := h.m.LinkedClaims()
	if len(claims) != 1 || claims[0].Level != 1 || claims[0].Cents != 300_00 {
		t.Fatalf("claims %+v", claims)
	}
	if v := h.m.View(); v.Message.Key != "msg_jackpot_wait" || !v.Jackpots[0].Pending || !v.Jackpots[0].Linked || v.Jackpots[0].SecondHit != "split" {
		t.Fatalf("view %+v", v)
	}
	if eff := h.press(BtnSpin); eff.Refused != "refused_jackpot_pending" {
		t.Fatalf("spin with a hit unconfirmed: %q", eff.Refused)
	}
	// A global broadcast is only a value.
	h.broadcast(false, 1, 250_00)
	if count[meters.ProgressiveAward](h.records) != 0 || len(h.m.LinkedClaims()) != 1 {
		t.Fatal("a global broadcast confirmed the hit")
	}
	credits := h.m.st.Get(meters.Credits)
	h.broadcast(true, 1, 299_99) // the controller's amount rules
	if count[meters.ProgressiveAward](h.records) != 1 || h.m.st.Get(meters.Credits) != credits+299_99 ||
		h.m.st.Get(meters.MachinePaidProgressive) != 299_99 || len(h.m.LinkedClaims()) != 0 {
		t.Fatalf("after the confirmation: credits %d (was %d), claims %v", h.m.st.Get(meters.Credits), credits, h.m.LinkedClaims())
	}
	// Sent again (a retry): a value, never a second award.
	h.broadcast(true, 1, 299_99)
	if count[meters.ProgressiveAward](h.records) != 1 {
		t.Fatal("a repeated confirmation paid twice")
	}
	h.broadcast(false, 1, 200_00)
	h.play()
}

// The unconfirmed hit survives a restart and is confirmed exactly once.
func TestLinkedHitSurvivesRestart(t *testing.T) {
	h, f := linkedHarness(t, 100_00, nil)
	h.broadcast(false, 1, 300_00)
	h.bill(50000)
	f.queue = jackpotStops(t, h.m.pt, 1)
	h.press(BtnMaxBet)
	for h.m.phase == spinning || h.m.st.Handpay != nil {
		h.advance(testCfg.SpinTime)
		h.broadcast(false, 1, 300_00)
		if h.m.st.Handpay != nil { // the game's own win, hand-paid first
			h.step(Key{At: h.now, Key: KeyAttendant, On: true, Who: "att"})
			h.step(Key{At: h.now, Key: KeyAttendant, On: false})
		}
	}
	if len(h.m.LinkedClaims()) != 1 {
		t.Fatalf("claims before the restart %v", h.m.LinkedClaims())
	}
	h2, _ := linkedHarness(t, 100_00, h.ledger)
	if c := h2.m.LinkedClaims(); len(c) != 1 || c[0].Cents != 300_00 {
		t.Fatalf("claims after the restart %v", c)
	}
	h2.broadcast(true, 1, 301_00)
	h2.broadcast(true, 1, 301_00)
	if count[meters.ProgressiveAward](h2.records) != 1 || count[meters.HandpayPending](h2.records) != 1 {
		t.Fatalf("records after two confirmations: %v", h2.records)
	}
	if hp := h2.m.st.Handpay; hp == nil || hp.Kind != meters.HandpayProgressive || hp.Cents != 301_00 {
		t.Fatalf("above the limit the award is hand-paid: %+v", hp)
	}
}

// Five seconds without a value: the link is down (one event), no bet that
// could win the linked level is taken; a value brings it back.
func TestLinkDownRefusesTheLinkedBet(t *testing.T) {
	h, _ := linkedHarness(t, 10_000_00, nil)
	h.broadcast(false, 1, 300_00)
	h.bill(50000)
	top := h.m.pt.TopLevel()
	if h.m.View().MaxLevel != top {
		t.Fatal("top bet not offered with the link up")
	}
	h.press(BtnMaxBet)
	for h.m.phase == spinning {
		h.advance(time.Second)
		h.broadcast(false, 1, 300_00)
	}
	h.advance(LinkTimeout)
	if count[meters.Event](h.records) == 0 || h.m.View().LinkDown {
		t.Fatal("down at exactly the timeout")
	}
	n := len(h.records)
	h.advance(time.Millisecond)
	h.advance(time.Second)
	downs := 0
	for _, r := range h.records[n:] {
		if e, ok := r.(meters.Event); ok && e.Code == meters.EventLinkDown {
			downs++
		}
	}
	if v := h.m.View(); downs != 1 || !v.LinkDown || v.MaxLevel != top-1 {
		t.Fatalf("after the timeout: %d down events, view down %v max %d", downs, v.LinkDown, v.MaxLevel)
	}
	if eff := h.press(BtnSpin); eff.Refused != "refused_link_down" {
		t.Fatalf("spin at the linked bet with the link down: %q", eff.Refused)
	}
	h.play() // at the level below: plays
	h.broadcast(false, 1, 310_00)
	if v := h.m.View(); v.LinkDown || v.MaxLevel != top {
		t.Fatalf("after a value: down %v max %d", v.LinkDown, v.MaxLevel)
	}
	if e, ok := h.records[len(h.records)-1].(meters.Event); !ok || e.Code != meters.EventLinkUp {
		t.Fatalf("no link-up event: %+v", h.records[len(h.records)-1])
	}
}
