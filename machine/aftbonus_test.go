package machine

import (
	"slices"
	"testing"

	"github.com/openegm/cabinet/aft"
	"github.com/openegm/cabinet/meters"
)

// A power loss after an AFT bonus jackpot's record and before its
// handpay lockout's: the power-up locks up for that bonus (its kind and
// transaction), not for a game's win, on a machine that played no game.
func TestAFTBonusHandpayResumedAfterPowerLoss(t *testing.T) {
	h := newHarness(t, testCfg, nil, 1)
	h.power()
	bonus := h.decided("J-9", aft.BonusJackpot, 250_000)
	bonus.Handpay = true
	if err := h.ledger.Apply(meters.AFTTransfer{At: h.now.UnixNano(), Transfer: bonus}); err != nil {
		t.Fatal(err)
	}
	eff := h.restart(DeviceStatus{})
	hp := recordsOf[meters.HandpayPending](eff.Records)
	if len(hp) != 1 || hp[0].Kind != meters.HandpayBonus || hp[0].Cents != 250_000 || hp[0].Ref != "J-9" || hp[0].Game != 0 {
		t.Fatalf("lockouts at power-up: %+v", hp)
	}
	if v := h.m.View(); v.Mode != "handpay" || v.HandpayKind != meters.HandpayBonus || v.Handpay != 250_000 || v.Fault != "" {
		t.Fatalf("view after the power-up: mode %s kind %q handpay %d fault %q", v.Mode, v.HandpayKind, v.Handpay, v.Fault)
	}
	h.keyOn("att-7")
	if h.ledger.Handpay != nil || h.ledger.Get(meters.AttendantPaidBonus) != 250_000 || h.ledger.Get(meters.HandpaidWins) != 250_000 {
		t.Fatalf("after the reset: handpay %+v, 0x21 %d, 0x02 %d", h.ledger.Handpay, h.ledger.Get(meters.AttendantPaidBonus), h.ledger.Get(meters.HandpaidWins))
	}
}

// The same for an attendant-paid jackpot: the power-up locks up for the
// progressive level it was, so the attendant's reset meters it as a
// progressive (0x20), not a paytable win (0x1F).
func TestProgressiveHandpayResumedWithItsLevel(t *testing.T) {
	h := newHarness(t, testCfg, nil, 1)
	h.power()
	for _, r := range []meters.Record{
		meters.MoneyIn{Source: meters.SourceBill, Cents: 2000},
		meters.GameStart{Game: 1, Paytable: "p", Digest: "d", Denom: 1, BetCredits: 20, BetCents: 20, Stops: []int{1}, Progressives: []int{2}},
		meters.GameEnd{Game: 1}, meters.ProgressiveHit{Game: 1, Level: 2, Cents: 400_000},
		meters.ProgressiveAward{Game: 1, Level: 2, Cents: 400_000, Attendant: true},
	} {
		if err := h.ledger.Apply(r); err != nil {
			t.Fatal(err)
		}
	}
	eff := h.restart(DeviceStatus{})
	hp := recordsOf[meters.HandpayPending](eff.Records)
	if len(hp) != 1 || hp[0].Kind != meters.HandpayProgressive || hp[0].Level != 2 || hp[0].Game != 1 {
		t.Fatalf("lockouts at power-up: %+v", hp)
	}
	h.keyOn("att-7")
	if h.ledger.Get(meters.AttendantPaidProgressive) != 400_000 || h.ledger.Get(meters.AttendantPaidPaytable) != 0 {
		t.Fatalf("0x20 %d, 0x1F %d", h.ledger.Get(meters.AttendantPaidProgressive), h.ledger.Get(meters.AttendantPaidPaytable))
	}
}

// A bonus jackpot below the handpay limit is a win on the credit meter;
// at the limit the machine locks up for a handpay of its own, refuses
// transfers and play until the attendant resets it, and the meters say
// who paid it.
func TestAFTBonusJackpotWinOrHandpay(t *testing.T) {
	h := newHarness(t, testCfg, nil, 1)
	h.power()
	eff := h.step(AFTTransfer{At: h.now, Transfer: h.decided("J-1", aft.BonusJackpot, testCfg.HandpayLimit-1)})
	if eff.AFTRefused != 0 || h.ledger.Get(meters.Credits) != testCfg.HandpayLimit-1 || h.ledger.Get(meters.MachinePaidBonus) != testCfg.HandpayLimit-1 {
		t.Fatalf("below the limit: refused %v, credits %d", eff.AFTRefused, h.ledger.Get(meters.Credits))
	}
	if v := h.m.View(); v.Message.Key != "msg_aft_bonus" || v.Mode != "idle" {
		t.Fatalf("below the limit: %+v", v.Message)
	}
	credits := h.ledger.Get(meters.Credits)
	eff = h.step(AFTTransfer{At: h.now, Transfer: h.decided("J-2", aft.BonusJackpot, testCfg.HandpayLimit)})
	tr := recordsOf[meters.AFTTransfer](eff.Records)
	hp := recordsOf[meters.HandpayPending](eff.Records)
	if eff.AFTRefused != 0 || len(tr) != 1 || !tr[0].Transfer.Handpay || len(hp) != 1 || hp[0].Kind != meters.HandpayBonus || hp[0].Ref != "J-2" {
		t.Fatalf("at the limit: refused %v, records %+v", eff.AFTRefused, eff.Records)
	}
	v := h.m.View()
	if v.Mode != "handpay" || v.Handpay != testCfg.HandpayLimit || v.CreditsCents != credits || v.Message.Key != "msg_handpay" {
		t.Fatalf("at the limit: mode %s handpay %d credits %d message %+v", v.Mode, v.Handpay, v.CreditsCents, v.Message)
	}
	if v.AFT.Handpay != true {
		t.Fatal("the AFT core is not told of the handpay")
	}
	if eff := h.step(AFTTransfer{At: h.now, Transfer: h.decided("IN-1", aft.InHouseToMachine, 500)}); eff.AFTRefused != aft.StatusUnable {
		t.Fatalf("a transfer during the handpay: %v", eff.AFTRefused)
	}
	if eff := h.press(BtnSpin); eff.Refused != "refused_handpay" {
		t.Fatalf("spin during the handpay: %q", eff.Refused)
	}
	h.keyOn("att-1")
	if h.ledger.Handpay != nil || h.ledger.Get(meters.AttendantPaidBonus) != testCfg.HandpayLimit ||
		h.ledger.Get(meters.Credits) != credits || h.ledger.Get(meters.TotalWon) != credits+testCfg.HandpayLimit {
		t.Fatalf("after the reset: %+v", h.ledger.Meters)
	}
	last := h.ledger.Handpays[len(h.ledger.Handpays)-1]
	if last.Pending.Ref != "J-2" || last.Reset == nil || last.Reset.Who != "att-1" {
		t.Fatalf("handpay history %+v", last)
	}
	// A coin-out bonus is a win on the credit meter whatever its size.
	eff = h.step(AFTTransfer{At: h.now, Transfer: h.decided("B-1", aft.BonusCoinOut, 3*testCfg.HandpayLimit)})
	if len(recordsOf[meters.HandpayPending](eff.Records)) != 0 || h.ledger.Get(meters.Credits) != credits+3*testCfg.HandpayLimit {
		t.Fatalf("coin-out bonus: %+v", eff.Records)
	}
	if err := h.ledger.Check(); err != nil {
		t.Fatal(err)
	}
	if !slices.ContainsFunc(h.m.events(EventLines), func(e ViewEvent) bool {
		return e.Code == EventHandpay && e.Kind == meters.HandpayBonus && e.Ref == "J-2"
	}) {
		t.Fatal("the event history has no bonus handpay")
	}
}
