package machine

import (
	"reflect"
	"testing"
	"time"

	"github.com/openegm/cabinet/meters"
)

// A message belongs to the screen that raised it: what the service menu
// says (a RAM clear to confirm, a refusal) never reaches the player's
// screen, and goes with the technician; the player's messages expire.
func TestMessagesBelongToTheirScreenAndExpire(t *testing.T) {
	h := newHarness(t, svcCfg(), nil, 30)
	h.power()
	login(h, RoleTechnician)
	h.svc(SvcRAMClear, "", "")
	if v := h.m.View(); v.ServiceMessage.Key != "msg_ram_clear_confirm" || v.Message.Key != "" {
		t.Fatalf("RAM clear asked: service message %q, player's %q", v.ServiceMessage.Key, v.Message.Key)
	}
	h.svc(SvcRAMClearConfirm, "", "test")
	h.svc(SvcLogout, "", "")
	if v := h.m.View(); v.ServiceMessage.Key != "" || v.Message.Key != "" {
		t.Fatalf("after the technician left: service message %q, player's %q", v.ServiceMessage.Key, v.Message.Key)
	}
	h.bill(2000)
	if v := h.m.View(); v.Message.Key != "msg_bill_accepted" {
		t.Fatalf("player's message %q after a note", v.Message.Key)
	}
	h.advance(MessageTTL - time.Second)
	if v := h.m.View(); v.Message.Key != "msg_bill_accepted" {
		t.Fatalf("the note's message went before it could be read: %q", v.Message.Key)
	}
	h.advance(time.Second)
	if v := h.m.View(); v.Message.Key != "" {
		t.Fatalf("the note's message is still on screen after %v: %q", MessageTTL, v.Message.Key)
	}
	// A refusal in the menu says why, in the menu.
	if eff := h.pin(RoleTechnician, "582947"); eff.Refused != "" {
		t.Fatal(eff.Refused)
	}
	if eff := h.svc(SvcRAMClear, "", ""); eff.Refused != "refused_credits_on_machine" {
		t.Fatalf("RAM clear with credits: refused %q", eff.Refused)
	}
	if v := h.m.View(); v.ServiceMessage.Key != "refused_credits_on_machine" || v.Message.Key != "" {
		t.Fatalf("refused RAM clear: service message %q, player's %q", v.ServiceMessage.Key, v.Message.Key)
	}
	if eff := h.svc(SvcIOOutput, "lamp_spin", "on"); eff.Refused == "" || h.m.View().ServiceMessage.Key != eff.Refused {
		t.Fatalf("refused I/O test says %q on screen, refused %q", h.m.View().ServiceMessage.Key, eff.Refused)
	}
}

// The language a player chooses is theirs: the next player (after a
// cash-out is paid, or when the machine has stood without credit) gets
// the operator's language.
func TestThePlayersLanguageIsNotTheNextPlayers(t *testing.T) {
	h := newHarness(t, svcCfg(), nil, 31)
	h.power()
	h.press(BtnLanguage)
	h.bill(2000)
	h.play()
	if h.m.View().Lang != "en" {
		t.Fatal("the player's language did not hold through a game")
	}
	h.press(BtnCashOut)
	if v := h.m.View(); v.Lang != "en" || v.Printing == "" {
		t.Fatalf("while the ticket prints the language is %q (printing %q): the player is still there", v.Lang, v.Printing)
	}
	h.step(TicketPrinted{At: h.now, Validation: h.m.View().Printing})
	if v := h.m.View(); v.Lang != "pt" {
		t.Fatalf("after the ticket was printed the next player gets %q, want the operator's pt", v.Lang)
	}

	// The operator's language is English: a player who chose Portuguese
	// and left without credit gives it back after LangIdle.
	login(h, RoleTechnician)
	if eff := h.svc(SvcConfig, "language", "en"); eff.Refused != "" {
		t.Fatal(eff.Refused)
	}
	h.svc(SvcLogout, "", "")
	if v := h.m.View(); v.Lang != "en" {
		t.Fatalf("operator set en, screen in %q", v.Lang)
	}
	h.press(BtnLanguage)
	h.advance(LangIdle - time.Second)
	if v := h.m.View(); v.Lang != "pt" {
		t.Fatalf("the player's choice went before LangIdle: %q", v.Lang)
	}
	h.advance(time.Second)
	if v := h.m.View(); v.Lang != "en" {
		t.Fatalf("after %v without credit the screen is in %q, want the operator's en", LangIdle, v.Lang)
	}
	// Not while a player has credit.
	h.press(BtnLanguage)
	h.bill(2000)
	h.advance(10 * LangIdle)
	if v := h.m.View(); v.Lang != "pt" {
		t.Fatalf("a player with credit lost their language: %q", v.Lang)
	}
	// A cancelled-credit handpay: once paid, the next player's language.
	for range 3 {
		h.bill(50000)
	}
	h.press(BtnCashOut)
	h.keyOn("att-1")
	if v := h.m.View(); v.Lang != "en" || v.CreditsCents != 0 {
		t.Fatalf("after the handpay: language %q, credits %d", v.Lang, v.CreditsCents)
	}
}

// A PIN changed says so on the service screen.
func TestPINChangeIsConfirmed(t *testing.T) {
	h := newHarness(t, svcCfg(), nil, 32)
	h.power()
	login(h, RoleTechnician)
	if v := h.m.View(); v.ServiceMessage.Key != "msg_pin_changed" || v.Message.Key != "" {
		t.Fatalf("after a new PIN: service message %q, player's %q", v.ServiceMessage.Key, v.Message.Key)
	}
}

// A setting changed says what changed.
func TestSettingChangeSaysWhatChanged(t *testing.T) {
	h := newHarness(t, svcCfg(), nil, 33)
	h.power()
	login(h, RoleOperator)
	h.svc(SvcConfig, "denom", "5")
	if m := h.m.View().ServiceMessage; m.Key != "msg_set_denom" || len(m.Args) != 2 || m.Args[0] != 1 || m.Args[1] != 5 {
		t.Fatalf("denomination changed: %+v", m)
	}
	h.svc(SvcConfig, "handpay_limit", "250000")
	if m := h.m.View().ServiceMessage; m.Key != "msg_set_handpay_limit" || len(m.Args) != 2 || m.Args[0] != testCfg.HandpayLimit || m.Args[1] != 250000 {
		t.Fatalf("handpay limit changed: %+v", m)
	}
	if s := h.m.View().Service.Settings; s["handpay_limit"] != "250000" || s["denom"] != "5" || s["max_level"] != "0" {
		t.Fatalf("settings page %v", s)
	}
}

// The event log is the technician's record: every money event (notes,
// tickets, handpays and their payment, free games), the service actions
// with who did them, and no page visits.
func TestEventLogHasTheMoneyAndNoPageVisits(t *testing.T) {
	h := newHarness(t, svcCfg(), nil, 7)
	h.power()
	playUntilFreeGames(h)
	h.press(BtnCashOut)
	h.step(TicketPrinted{At: h.now, Validation: h.m.View().Printing})
	for range 3 {
		h.bill(50000)
	}
	h.press(BtnCashOut) // a handpay: over the limit
	login(h, RoleTechnician)
	for _, p := range []string{"meters", "recall", "bills", "events", "recall", "events"} {
		h.svc(SvcPage, "", p)
	}
	h.svc(SvcConfig, "denom", "2") // refused: the handpay is not paid
	h.step(Key{At: h.now, Key: KeyAttendant, On: false})
	h.keyOn("att-2") // pays the handpay
	h.pin(RoleTechnician, "582947")
	h.svc(SvcPage, "", "events")
	h.svc(SvcConfig, "denom", "2")
	h.svc(SvcPage, "", "events")
	evs := h.m.View().Service.Events
	seen := map[string]int{}
	for _, e := range evs {
		seen[e.Code]++
		if e.Code == meters.EventService {
			seen["svc:"+e.Action]++
			if e.Action == meters.ActionView {
				t.Errorf("a page visit is in the event log: %+v", e)
			}
			if e.Action == "config" && (e.Key == "" || e.Value == "" || e.Who == "") {
				t.Errorf("a setting without its parts: %+v", e)
			}
		}
	}
	for _, code := range []string{EventMoneyIn, meters.EventTicketOut, EventHandpay, EventHandpayReset, EventFreeGames, "svc:login", "svc:config", "svc:set_pin"} {
		if seen[code] == 0 {
			t.Errorf("no %s in the event log (%v)", code, seen)
		}
	}
	for i := 1; i < len(evs); i++ {
		if evs[i].At < evs[i-1].At {
			t.Fatalf("the event log is not in time order at %d", i)
		}
	}
}

// Recall shows every spin of a game: the base spin and each free game,
// each with its window, lines and scatters, adding up to the game's win.
func TestRecallShowsEveryFreeGame(t *testing.T) {
	h := newHarness(t, svcCfg(), nil, 7)
	h.power()
	playUntilFreeGames(h)
	last := h.ledger.Games[len(h.ledger.Games)-1]
	login(h, RoleTechnician)
	h.svc(SvcPage, "", "recall")
	rc := h.m.View().Service.Recall[0]
	if rc.Game != last.Start.Game || len(rc.Spins) != 1+len(last.Free) {
		t.Fatalf("game %d recalled with %d spins, want game %d with %d", rc.Game, len(rc.Spins), last.Start.Game, 1+len(last.Free))
	}
	var total int64
	for k, sp := range rc.Spins {
		total += sp.WinCents
		if sp.Free != (k > 0) || len(sp.Window) != 5 {
			t.Errorf("spin %d: free %v, %d reels", k, sp.Free, len(sp.Window))
		}
		if k > 0 && !reflect.DeepEqual(sp.Stops, last.Free[k-1].Stops) {
			t.Errorf("free game %d: stops %v, recorded %v", k, sp.Stops, last.Free[k-1].Stops)
		}
	}
	if total != rc.Recomputed || !rc.Match {
		t.Errorf("the spins add up to %d, recomputed %d, recorded %d", total, rc.Recomputed, rc.WinCents)
	}
	if base := rc.Spins[0]; base.FreeAwarded != last.Start.FreeAwarded || len(base.Scatters) == 0 {
		t.Errorf("the trigger spin: %d free games awarded (recorded %d), scatters %+v", base.FreeAwarded, last.Start.FreeAwarded, base.Scatters)
	}
}

// With a screen, the attendant key does not reset a handpay at once: the
// attendant confirms the amount paid, and a receipt is printed.
func TestHandpayConfirmedByTheAttendant(t *testing.T) {
	cfg := svcCfg()
	cfg.HandpayConfirm = true
	h := newHarness(t, cfg, nil, 34)
	h.power()
	for range 3 {
		h.bill(50000)
	}
	h.press(BtnCashOut)
	if eff := h.step(HandpayPaid{At: h.now, Cents: 150000}); eff.Refused != "refused_key_off" {
		t.Fatalf("confirmed without the key: refused %q", eff.Refused)
	}
	h.keyOn("att-7")
	if v := h.m.View(); v.Mode != "handpay" || !v.HandpayConfirm || h.ledger.Handpay == nil {
		t.Fatalf("the key alone reset the handpay: mode %s, confirm %v", v.Mode, v.HandpayConfirm)
	}
	if eff := h.step(HandpayPaid{At: h.now, Cents: 100000}); eff.Refused != "refused_handpay_amount" || h.ledger.Handpay == nil {
		t.Fatalf("a wrong amount: refused %q", eff.Refused)
	}
	n := len(h.devices)
	eff := h.step(HandpayPaid{At: h.now, Cents: 150000})
	if eff.Refused != "" || h.ledger.Handpay != nil || h.ledger.Get(meters.HandpaidCancelled) != 150000 {
		t.Fatalf("confirmed: refused %q, handpay %+v", eff.Refused, h.ledger.Handpay)
	}
	var receipt *PrintReceipt
	for _, d := range h.devices[n:] {
		if r, ok := d.(PrintReceipt); ok {
			receipt = &r
		}
	}
	if receipt == nil || receipt.Cents != 150000 || receipt.Who != "att-7" || receipt.Kind != meters.HandpayCancelled || receipt.MachineID != cfg.MachineID {
		t.Fatalf("receipt %+v", receipt)
	}
	if v := h.m.View(); v.HandpayConfirm || v.Mode == "handpay" {
		t.Fatalf("after the confirmation: mode %s, confirm %v", v.Mode, v.HandpayConfirm)
	}
}
