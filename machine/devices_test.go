package machine

import (
	"os"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/openegm/cabinet/meters"
	"github.com/openegm/cabinet/reels"
	"github.com/openegm/cabinet/rng"
)

func devicesOf[T Device](eff Effects) []T {
	var out []T
	for _, d := range eff.Devices {
		if x, ok := d.(T); ok {
			out = append(out, x)
		}
	}
	return out
}

func recordsOf[T meters.Record](recs []meters.Record) []T {
	var out []T
	for _, r := range recs {
		if x, ok := r.(T); ok {
			out = append(out, x)
		}
	}
	return out
}

// restart is a power loss: a new machine on what the ledger holds, powered
// up with what the devices remember.
func (h *harness) restart(d DeviceStatus) Effects {
	h.t.Helper()
	h.m = New(h.m.cfg, h.m.pt, h.ledger, rng.NewSeeded(99))
	return h.step(PowerUp{At: h.now, Devices: d})
}

// A failed commit must not be shown: the machine goes back to what the
// ledger holds, turns the acceptor off and returns a note in escrow.
func TestLedgerFaultShowsOnlyWhatIsCommitted(t *testing.T) {
	h := newHarness(t, testCfg, nil, 31)
	h.power()
	h.bill(5000)
	committed := h.ledger.Clone()
	// The spin is stepped but its record never reaches the ledger.
	eff := h.m.Step(Button{At: h.now, Name: BtnSpin})
	if len(recordsOf[meters.GameStart](eff.Records)) != 1 || h.m.View().CreditsCents == 5000 {
		t.Fatalf("the spin did not advance the machine: %+v", eff.Records)
	}
	eff = h.m.Step(LedgerFault{At: h.now, Err: "write ledger: no space left on device", Committed: committed})
	v := h.m.View()
	if v.Mode != "meter_fault" || v.CreditsCents != 5000 || v.Game != 0 || v.LastGame != 0 || len(v.Stops) != 0 {
		t.Fatalf("after the failed commit the view shows mode %s, credits %d, game %d (last %d), stops %v", v.Mode, v.CreditsCents, v.Game, v.LastGame, v.Stops)
	}
	if v.Message.Key != "refused_meter_fault" || !strings.Contains(v.Message.Detail, "no space") || v.Fault == "" {
		t.Fatalf("the reason is not on screen: %+v, fault %q", v.Message, v.Fault)
	}
	if !reflect.DeepEqual(eff.Devices, []Device{EnableBills{On: false}, ReturnBill{Reason: "meter fault"}}) {
		t.Fatalf("devices on the fault: %+v", eff.Devices)
	}

	// The same for a bill: "accepted" is never shown for an uncommitted one.
	h = newHarness(t, testCfg, nil, 32)
	h.power()
	committed = h.ledger.Clone()
	eff = h.m.Step(BillEscrowed{At: h.now, Cents: 2000})
	stack := devicesOf[StackBill](eff)
	h.m.Step(BillStacked{At: h.now, Cents: 2000, Order: stack[0].Order})
	h.m.Step(LedgerFault{At: h.now, Err: "disk", Committed: committed})
	if v := h.m.View(); v.CreditsCents != 0 || v.Message.Key == "msg_bill_accepted" {
		t.Fatalf("an uncommitted bill is shown: credits %d, message %+v", v.CreditsCents, v.Message)
	}
}

func TestBillOrdersSettledAtPowerUp(t *testing.T) {
	for _, tc := range []struct {
		name        string
		lastStacked uint64
		credited    bool
	}{{"stacked before the power loss", 1, true}, {"not stacked", 0, false}} {
		t.Run(tc.name, func(t *testing.T) {
			h := newHarness(t, testCfg, nil, 33)
			h.power()
			eff := h.step(BillEscrowed{At: h.now, Cents: 10000})
			if o := devicesOf[StackBill](eff); len(o) != 1 || o[0].Order != 1 || h.ledger.PendingBill == nil {
				t.Fatalf("order %+v, pending %+v", o, h.ledger.PendingBill)
			}
			// Power lost before the validator's report was recorded.
			eff = h.restart(DeviceStatus{LastStacked: tc.lastStacked})
			if h.ledger.PendingBill != nil {
				t.Fatal("the order is still open after power-up")
			}
			got := h.ledger.Get(meters.BillsIn)
			if tc.credited != (got == 10000) || tc.credited != (h.ledger.Get(meters.Credits) == 10000) {
				t.Fatalf("bills in %d, credits %d", got, h.ledger.Get(meters.Credits))
			}
			if !tc.credited {
				if r := recordsOf[meters.BillReturned](eff.Records); len(r) != 1 || !strings.Contains(r[0].Why, "last stacked order is 0") {
					t.Fatalf("return record %+v", r)
				}
			}
		})
	}
}

func TestUnorderedStackedNoteTilts(t *testing.T) {
	h := newHarness(t, testCfg, nil, 34)
	h.power()
	h.step(BillEscrowed{At: h.now, Cents: 500})
	eff := h.step(BillStacked{At: h.now, Cents: 500, Order: 7})
	if len(recordsOf[meters.MoneyIn](eff.Records)) != 0 || !slices.Contains(h.ledger.Tilts, TiltBillValidator) {
		t.Fatalf("a note stacked under another order: records %+v, tilts %v", eff.Records, h.ledger.Tilts)
	}
}

// A ticket issued and not confirmed printed when power is lost is printed
// again after power-up, same validation number, marked as a reprint on the
// ticket and in the event log; or paid by hand if the printer cannot.
func TestUnconfirmedTicketAfterPowerLoss(t *testing.T) {
	h := newHarness(t, testCfg, nil, 35)
	h.power()
	h.bill(2000)
	co := recordsOf[meters.CashOut](h.press(BtnCashOut).Records)[0]
	if h.ledger.Get(meters.TicketsOut) != 0 || h.ledger.TicketOwed() != 2000 {
		t.Fatal("the ticket counts as printed before the printer said so")
	}
	eff := h.restart(DeviceStatus{})
	p := devicesOf[PrintTicket](eff)
	if len(p) != 1 || p[0].Validation != co.Ticket || p[0].Cents != 2000 || !p[0].Reprint {
		t.Fatalf("reprint order %+v", p)
	}
	if ev := recordsOf[meters.Event](eff.Records); !slices.ContainsFunc(ev, func(e meters.Event) bool {
		return e.Code == meters.EventTicketReprint && strings.Contains(e.Detail, co.Ticket)
	}) {
		t.Fatalf("no reprint event: %+v", ev)
	}
	if v := h.m.View(); v.Printing != co.Ticket || v.Message.Key != "msg_reprinting" {
		t.Fatalf("view %+v", v)
	}
	h.step(TicketPrinted{At: h.now, Validation: co.Ticket})
	tp := recordsOf[meters.TicketPrinted](h.records)
	if len(tp) != 1 || !tp[0].Reprint || h.ledger.Get(meters.TicketsOut) != 1 || h.ledger.Get(meters.TicketOut) != 2000 {
		t.Fatalf("confirmation %+v, tickets %d", tp, h.ledger.Get(meters.TicketsOut))
	}

	// The printer cannot print at power-up: a handpay for the amount.
	h = newHarness(t, testCfg, nil, 36)
	h.power()
	h.bill(2000)
	h.press(BtnCashOut)
	eff = h.restart(DeviceStatus{PrinterFault: "paper_out"})
	if len(devicesOf[PrintTicket](eff)) != 0 || h.ledger.Handpay == nil || h.ledger.Handpay.Cents != 2000 || h.ledger.PendingTicket != nil {
		t.Fatalf("handpay %+v, ticket %+v, devices %+v", h.ledger.Handpay, h.ledger.PendingTicket, eff.Devices)
	}
}

// A meter fault from before the start (kept outside the ledger) is a tilt
// that survives restarts and that only a technician clears.
func TestPriorMeterFaultNeedsATechnician(t *testing.T) {
	h := newHarness(t, svcCfg(), nil, 37)
	h.step(PowerUp{At: h.now, PriorFault: "commit failed: no space left on device"})
	if v := h.m.View(); v.Mode != "tilt" || !slices.Contains(v.Tilts, TiltMeter) {
		t.Fatalf("view %s %v", v.Mode, v.Tilts)
	}
	h.restart(DeviceStatus{})
	h.keyOn("att-1")
	h.step(Key{At: h.now, Key: KeyAttendant, On: false})
	if !slices.Contains(h.ledger.Tilts, TiltMeter) {
		t.Fatal("the attendant's key cleared a meter fault, or a restart did")
	}
	login(h, RoleOperator)
	if eff := h.svc(SvcClearTilt, "", ""); eff.Refused != "refused_role" {
		t.Fatalf("operator cleared the meter fault: %q", eff.Refused)
	}
	h.svc(SvcLogout, "", "")
	login(h, RoleTechnician)
	if eff := h.svc(SvcClearTilt, "", ""); eff.Refused != "" {
		t.Fatal(eff.Refused)
	}
	if slices.Contains(h.ledger.Tilts, TiltMeter) {
		t.Fatal("the technician could not clear it")
	}
	svc := recordsOf[meters.Service](h.records)
	if last := svc[len(svc)-1]; last.Action != SvcClearTilt || last.Role != RoleTechnician || last.Detail != TiltMeter {
		t.Fatalf("the clearing is not recorded as the technician's: %+v", last)
	}
}

// Start-up settings are recorded when they change, with who, and applied;
// a change made since in the service menu stands while the start-up value
// stays the same.
func TestStartUpSettingsAreRecordedWhenTheyChange(t *testing.T) {
	h := newHarness(t, svcCfg(), nil, 38)
	given := map[string]string{"denom": "2", "handpay_limit": "50000", "machine_num": "42"}
	eff := h.step(PowerUp{At: h.now, Settings: given})
	cfgs := recordsOf[meters.Config](eff.Records)
	if len(cfgs) != 5 || cfgs[0].Who != WhoCommandLine || cfgs[0].From != meters.ConfigCommandLine || cfgs[2].Key != "machine_num" {
		t.Fatalf("first start: %+v", cfgs)
	}
	// The paytable in play is recorded too, the first time.
	if cfgs[3].Key != "paytable" || cfgs[3].Value != h.m.pt.ID || cfgs[4].Key != SettingPaytableVersion || cfgs[4].Value != "1" {
		t.Fatalf("paytable not recorded: %+v", cfgs[3:])
	}
	if h.m.cfg.Denom != 2 || h.m.cfg.HandpayLimit != 50000 {
		t.Fatalf("not applied: denom %d, limit %d", h.m.cfg.Denom, h.m.cfg.HandpayLimit)
	}
	login(h, RoleTechnician)
	h.svc(SvcConfig, "denom", "5")
	h.svc(SvcLogout, "", "")
	h.step(Key{At: h.now, Key: KeyAttendant, On: false})
	h.m = New(svcCfg(), h.m.pt, h.ledger, rng.NewSeeded(1))
	eff = h.step(PowerUp{At: h.now, Settings: given})
	if n := len(recordsOf[meters.Config](eff.Records)); n != 0 || h.m.cfg.Denom != 5 {
		t.Fatalf("unchanged start-up settings recorded %d changes, denom %d (the service menu set 5)", n, h.m.cfg.Denom)
	}
	// A changed start-up value with credits on the machine: the denomination waits.
	h.bill(500)
	given = map[string]string{"denom": "10", "handpay_limit": "60000", "machine_num": "42"}
	h.m = New(svcCfg(), h.m.pt, h.ledger, rng.NewSeeded(2))
	eff = h.step(PowerUp{At: h.now, Settings: given})
	cfgs = recordsOf[meters.Config](eff.Records)
	if len(cfgs) != 1 || cfgs[0].Key != "handpay_limit" || h.m.cfg.Denom != 5 || !strings.Contains(h.m.View().ServiceMessage.Detail, "denom=10 not applied") {
		t.Fatalf("with credits: %+v, denom %d, message %+v", cfgs, h.m.cfg.Denom, h.m.View().ServiceMessage)
	}
}

func TestCheckSettingRefusesNonsense(t *testing.T) {
	for _, c := range [][2]string{{"denom", "0"}, {"denom", "3"}, {"denom", "x"}, {"handpay_limit", "0"}, {"handpay_limit", "-5"},
		{"handpay_limit", "999"}, {"max_level", "0"}, {"language", "fr"}} {
		if err := CheckSetting(c[0], c[1]); err == nil {
			t.Errorf("%s=%s accepted", c[0], c[1])
		}
	}
	for _, c := range [][2]string{{"denom", "1"}, {"handpay_limit", "1000"}, {"max_level", "3"}, {"language", "en"}} {
		if err := CheckSetting(c[0], c[1]); err != nil {
			t.Errorf("%s=%s: %v", c[0], c[1], err)
		}
	}
}

// Without a certified RNG (its self-test failed) a PIN cannot be salted:
// the change is refused, not a panic.
func TestSetPINWithoutRNGIsRefused(t *testing.T) {
	h := &harness{t: t, ledger: meters.NewState(), now: time.Unix(1_800_000_000, 0)}
	h.m = New(svcCfg(), paytable(t), meters.NewState(), nil)
	h.step(PowerUp{At: h.now, Tests: SelfTest{RNG: "known-answer test failed"}})
	h.keyOn("tech-1")
	h.pin(RoleTechnician, DefaultPIN)
	if eff := h.svc(SvcSetPIN, "", "582947"); eff.Refused != "refused_no_rng" {
		t.Fatalf("set PIN without an RNG: %q", eff.Refused)
	}
}

// A paytable whose only bet level can win a jackpot level that no jackpot
// system awards offers no bet (a hit would wait for ever); the player can
// still cash out.
func TestOnlyBetCanWinAnUnawardedLevel(t *testing.T) {
	data, err := os.ReadFile("../internal/cabinettest/testdata/t-link.json")
	if err != nil {
		t.Fatal(err)
	}
	one := strings.Replace(string(data), `"credits_per_line": [10, 20]`, `"credits_per_line": [10]`, 1)
	p, err := reels.Parse("one-level.json", []byte(one))
	if err != nil {
		t.Fatal(err)
	}
	h := &harness{t: t, ledger: meters.NewState(), now: time.Unix(1_800_000_000, 0)}
	h.m = New(testCfg, &reels.Certified{Paytable: p}, meters.NewState(), rng.NewSeeded(5))
	h.power()
	h.bill(500)
	for _, b := range []string{BtnSpin, BtnMaxBet} {
		if eff := h.press(b); eff.Refused != "refused_no_jackpot" || len(eff.Records) != 0 {
			t.Fatalf("%s on a one-level table with an unawarded jackpot level: %q %+v", b, eff.Refused, eff.Records)
		}
	}
	if eff := h.press(BtnCashOut); eff.Refused != "" {
		t.Fatalf("cash-out refused: %q", eff.Refused)
	}
}
