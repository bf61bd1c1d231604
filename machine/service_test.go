package machine

import (
	"strings"
	"testing"
	"time"

	"github.com/openegm/cabinet/assets"
	"github.com/openegm/cabinet/meters"
)

func (h *harness) keyOn(who string) { h.step(Key{At: h.now, Key: KeyAttendant, On: true, Who: who}) }
func (h *harness) pin(role, pin string) Effects {
	return h.step(PINEntry{At: h.now, Role: role, PIN: pin})
}
func (h *harness) svc(action, key, value string) Effects {
	return h.step(ServiceAction{At: h.now, Action: action, Key: key, Value: value})
}

func svcCfg() Config {
	c := testCfg
	c.Load = assets.LoadPaytable
	return c
}

func TestDefaultPINMustBeChanged(t *testing.T) {
	h := newHarness(t, svcCfg(), nil, 20)
	h.power()
	if eff := h.pin(RoleTechnician, DefaultPIN); eff.Refused != "refused_key_off" {
		t.Fatalf("PIN without the key: %q", eff.Refused)
	}
	h.keyOn("tech-1")
	h.pin(RoleTechnician, DefaultPIN)
	v := h.m.View()
	if v.Mode != "service" || v.Service == nil || !v.Service.MustChangePIN {
		t.Fatalf("after default PIN: %+v", v.Service)
	}
	if eff := h.svc(SvcConfig, "denom", "2"); eff.Refused != "refused_change_default_pin" {
		t.Fatalf("config before changing the default PIN: %q", eff.Refused)
	}
	for _, weak := range []string{"1234", "0000000", "123456", "987654", "12a456"} {
		if eff := h.svc(SvcSetPIN, "", weak); eff.Refused != "refused_weak_pin" {
			t.Fatalf("weak PIN %q: %q", weak, eff.Refused)
		}
	}
	h.devices = nil
	h.svc(SvcSetPIN, "", "480163")
	if len(h.devices) != 1 || !strings.HasPrefix(h.devices[0].(StorePIN).Hash, "$argon2id$v=19$m=19456,t=2,p=1$") {
		t.Fatalf("stored %+v", h.devices)
	}
	hash := h.devices[0].(StorePIN).Hash
	h.svc(SvcLogout, "", "")
	if eff := h.pin(RoleTechnician, DefaultPIN); eff.Refused != "refused_wrong_pin" {
		t.Fatal("the default PIN still works after the change")
	}
	if eff := h.pin(RoleTechnician, "480163"); eff.Refused != "" || h.m.View().Service.MustChangePIN {
		t.Fatalf("new PIN: %+v", eff)
	}
	// A machine started with the stored hash accepts it.
	cfg := svcCfg()
	cfg.PINHashes = map[string]string{RoleTechnician: hash}
	h2 := newHarness(t, cfg, h.ledger, 20)
	h2.power()
	h2.keyOn("tech-1")
	if eff := h2.pin(RoleTechnician, "480163"); eff.Refused != "" {
		t.Fatalf("after restart: %q", eff.Refused)
	}
}

func TestPINLockoutSurvivesRestart(t *testing.T) {
	h := newHarness(t, svcCfg(), nil, 21)
	h.power()
	h.keyOn("x")
	for range MaxPINFailures {
		if eff := h.pin(RoleOperator, "999999"); eff.Refused != "refused_wrong_pin" {
			t.Fatal(eff.Refused)
		}
	}
	if eff := h.pin(RoleOperator, DefaultPIN); eff.Refused != "refused_pin_locked" {
		t.Fatalf("right PIN while locked: %q", eff.Refused)
	}
	h2 := newHarness(t, svcCfg(), h.ledger, 21)
	h2.now = h.now.Add(time.Minute)
	h2.power()
	h2.keyOn("x")
	if eff := h2.pin(RoleOperator, DefaultPIN); eff.Refused != "refused_pin_locked" {
		t.Fatalf("power cycle unlocked the role: %q", eff.Refused)
	}
	// Another role is not locked; after the lock-out time the role is free.
	if eff := h2.pin(RoleInspector, DefaultPIN); eff.Refused != "" {
		t.Fatalf("inspector: %q", eff.Refused)
	}
	h2.svc(SvcLogout, "", "")
	h2.now = h2.now.Add(PINLockout)
	if eff := h2.pin(RoleOperator, DefaultPIN); eff.Refused != "" {
		t.Fatalf("after the lock-out: %q", eff.Refused)
	}
}

func login(h *harness, role string) {
	h.t.Helper()
	h.keyOn(role + "-key")
	h.pin(role, DefaultPIN)
	if eff := h.svc(SvcSetPIN, "", "582947"); eff.Refused != "" {
		h.t.Fatal(eff.Refused)
	}
}

func TestRolesAndConfiguration(t *testing.T) {
	h := newHarness(t, svcCfg(), nil, 22)
	h.power()
	login(h, RoleInspector)
	if eff := h.svc(SvcConfig, "denom", "2"); eff.Refused != "refused_role" {
		t.Fatalf("inspector config: %q", eff.Refused)
	}
	h.svc(SvcPage, "", "meters")
	if v := h.m.View(); len(v.Service.Meters) == 0 || v.Service.Meters[0].SAS != 0 {
		t.Fatal("meters page empty")
	}
	h.svc(SvcLogout, "", "")
	login(h, RoleOperator)
	if eff := h.svc(SvcConfig, "paytable", "lusitania-96"); eff.Refused != "refused_role" {
		t.Fatalf("operator paytable change: %q", eff.Refused)
	}
	if eff := h.svc(SvcRAMClear, "", ""); eff.Refused != "refused_role" {
		t.Fatalf("operator RAM clear: %q", eff.Refused)
	}
	if eff := h.svc(SvcConfig, "denom", "3"); eff.Refused != "refused_bad_setting" {
		t.Fatalf("denomination 3: %q", eff.Refused)
	}
	eff := h.svc(SvcConfig, "denom", "5")
	if c, ok := eff.Records[0].(meters.Config); !ok || c.Key != "denom" || c.Value != "5" || !strings.Contains(c.Who, RoleOperator) {
		t.Fatalf("config record %+v", eff.Records)
	}
	// Play is refused while the menu is open; the key off logs out.
	h.svc(SvcLogout, "", "")
	h.keyOn("op")
	h.pin(RoleOperator, "582947")
	h.bill(1000)
	if eff := h.press(BtnSpin); eff.Refused != "refused_service" {
		t.Fatalf("spin in the service menu: %q", eff.Refused)
	}
	if eff := h.svc(SvcConfig, "denom", "1"); eff.Refused != "refused_credits_on_machine" {
		t.Fatalf("config with credits: %q", eff.Refused)
	}
	h.step(Key{At: h.now, Key: KeyAttendant, On: false})
	if h.m.View().Mode == "service" {
		t.Fatal("key off did not log out")
	}
	// At 5 cents a credit the bet costs 5× more.
	h.play()
	gs := h.ledger.Games[len(h.ledger.Games)-1].Start
	if gs.Denom != 5 || gs.BetCents != gs.BetCredits*5 {
		t.Fatalf("game at denom %d: %+v", gs.Denom, gs)
	}
	// The setting survives a restart through the ledger.
	h2 := newHarness(t, svcCfg(), h.ledger, 22)
	if h2.m.cfg.Denom != 5 {
		t.Fatalf("denomination after restart %d", h2.m.cfg.Denom)
	}
}

func TestPaytableChangeAndRecall(t *testing.T) {
	h := newHarness(t, svcCfg(), nil, 23)
	h.power()
	h.bill(2000)
	for range 5 {
		h.play()
	}
	h.press(BtnCashOut)
	h.step(TicketPrinted{At: h.now, Validation: h.m.st.PendingTicket.Ticket})
	login(h, RoleTechnician)
	if eff := h.svc(SvcConfig, "paytable", "lusitania-96"); eff.Refused != "" {
		t.Fatalf("paytable change: %q %s", eff.Refused, h.m.message.Detail)
	}
	h.svc(SvcLogout, "", "")
	h.step(Key{At: h.now, Key: KeyAttendant, On: false})
	h.bill(2000)
	h.play()
	if last := h.ledger.Games[len(h.ledger.Games)-1].Start; last.Paytable != "lusitania-96" {
		t.Fatalf("played %s", last.Paytable)
	}
	// Recall re-evaluates every game on the paytable it was played on.
	h.keyOn("t")
	h.pin(RoleTechnician, "582947")
	h.svc(SvcPage, "", "recall")
	rc := h.m.View().Service.Recall
	if len(rc) != 6 || rc[0].Paytable != "lusitania-96" || rc[5].Paytable != "lusitania-92" {
		t.Fatalf("recall %+v", rc)
	}
	for _, r := range rc {
		if !r.Match || len(r.Window) != 5 {
			t.Fatalf("game %d does not re-evaluate: %+v", r.Game, r)
		}
	}
	// A record whose win does not follow from its stops is shown as such.
	h.m.st.Games[0].End.WinCents += 100
	if rc := h.m.recall(RecallGames); rc[len(rc)-1].Match {
		t.Fatal("a doctored win matched its stops")
	}
}

func TestRAMClearNeedsConfirmation(t *testing.T) {
	h := newHarness(t, svcCfg(), nil, 24)
	h.power()
	h.bill(1000)
	h.play()
	h.press(BtnCashOut)
	h.step(TicketPrinted{At: h.now, Validation: h.m.st.PendingTicket.Ticket})
	login(h, RoleTechnician)
	if eff := h.svc(SvcRAMClearConfirm, "", "x"); eff.Refused != "refused_not_armed" {
		t.Fatalf("confirm without asking: %q", eff.Refused)
	}
	h.svc(SvcRAMClear, "", "")
	h.svc(SvcPage, "", "meters") // any other action disarms
	if eff := h.svc(SvcRAMClearConfirm, "", "x"); eff.Refused != "refused_not_armed" {
		t.Fatal("confirmation survived another action")
	}
	h.svc(SvcRAMClear, "", "")
	eff := h.svc(SvcRAMClearConfirm, "", "board replaced")
	if _, ok := eff.Records[0].(meters.RAMClear); !ok || h.ledger.Get(meters.GamesPlayed) != 0 || h.ledger.LastGame == 0 {
		t.Fatalf("RAM clear: %+v", eff.Records)
	}
}

func TestIOOutputIsALoggedTechnicianAction(t *testing.T) {
	h := newHarness(t, svcCfg(), nil, 25)
	h.power()
	login(h, RoleOperator)
	if eff := h.svc(SvcIOOutput, "lamp_spin", "on"); eff.Refused != "refused_role" {
		t.Fatalf("operator I/O test: %q", eff.Refused)
	}
	h.svc(SvcLogout, "", "")
	h.step(Key{At: h.now, Key: KeyAttendant, On: false})
	login(h, RoleTechnician)
	h.devices = nil
	eff := h.svc(SvcIOOutput, "lamp_spin", "on")
	if len(h.devices) != 1 || h.devices[0] != (TestOutput{Name: "lamp_spin", On: true}) {
		t.Fatalf("devices %+v", h.devices)
	}
	if sv, ok := eff.Records[0].(meters.Service); !ok || sv.Action != SvcIOOutput || sv.Detail != "lamp_spin on" {
		t.Fatalf("record %+v", eff.Records)
	}
}

func TestBetLimitSetting(t *testing.T) {
	h := newHarness(t, svcCfg(), nil, 26)
	h.power()
	login(h, RoleOperator)
	if eff := h.svc(SvcConfig, "max_level", "9"); eff.Refused != "refused_bad_setting" {
		t.Fatalf("level 9 of 5: %q", eff.Refused)
	}
	h.svc(SvcConfig, "max_level", "2")
	h.svc(SvcLogout, "", "")
	h.step(Key{At: h.now, Key: KeyAttendant, On: false})
	h.bill(10000)
	for range 4 {
		h.press(BtnBetUp)
	}
	if v := h.m.View(); v.Level != 1 || v.TopOffered != 1 {
		t.Fatalf("bet limit 2 allowed level %d (max %d)", v.Level+1, v.TopOffered+1)
	}
	h.press(BtnMaxBet)
	if gs := h.records[len(h.records)-1].(meters.GameStart); gs.Level != 1 {
		t.Fatalf("max bet played level %d", gs.Level+1)
	}
}

// A ledger recorded the bet limit under "max_level", a count of levels
// from 1: a machine started on it offers those levels and keeps the
// setting's value.
func TestBetLimitFromTheLedger(t *testing.T) {
	st := meters.NewState()
	if err := st.Apply(meters.Config{At: 1, Who: "op-1", Key: "max_level", Value: "2"}); err != nil {
		t.Fatal(err)
	}
	h := newHarness(t, svcCfg(), st, 26)
	h.power()
	if v := h.m.View(); v.TopOffered != 1 {
		t.Fatalf("a bet limit of 2 from the ledger: top level offered %d", v.TopOffered)
	}
	if got := h.m.setting(SettingBetLimit); got != "2" {
		t.Fatalf("bet limit setting %q", got)
	}
}

func TestInspectorIdentification(t *testing.T) {
	h := newHarness(t, svcCfg(), nil, 27)
	h.step(PowerUp{At: h.now, Tests: SelfTest{ProgramHash: "c0ffee"}})
	h.bill(1000)
	h.play()
	h.press(BtnCashOut)
	h.step(TicketPrinted{At: h.now, Validation: h.m.st.PendingTicket.Ticket})
	login(h, RoleInspector)
	sv := h.m.View().Service
	if sv.ProgramHash != "c0ffee" || sv.PaytableID != "lusitania-92" || len(sv.CertifiedRTP) != 5 ||
		sv.CertifiedRTP[0] != "639713466001/693065683800" || sv.TotalBetCents == 0 {
		t.Fatalf("identification %+v", sv)
	}
	won, in := h.ledger.Get(meters.TotalWon), h.ledger.Get(meters.CoinIn)
	if sv.TotalWonCents != won || sv.TotalBetCents != in {
		t.Fatalf("actual RTP of %d won, %d bet; the meters say %d, %d", sv.TotalWonCents, sv.TotalBetCents, won, in)
	}
	if h.m.View().HandpayLimit != svcCfg().HandpayLimit {
		t.Fatal("handpay limit not in the view")
	}
}
