package model

import (
	"slices"
	"strings"
	"testing"

	"github.com/openegm/cabinet/machine"
	"github.com/openegm/cabinet/meters"
)

func settingsScreen(t *testing.T) (*Screen, *fakeCabinet) {
	v := sampleView()
	v.Mode = "service"
	v.Service = &machine.ServiceView{Role: machine.RoleTechnician, Who: "t", Page: "settings",
		Settings: map[string]string{"language": "pt", "denom": "5", "handpay_limit": "100000", "max_level": "0", "paytable": "lusitania-92"}}
	return newTestScreen(t, v)
}

// Settings that change money are asked again, saying what changes; the
// values read as people read them (euros, the language's name); the
// handpay limit and the bet limit can be changed.
func TestSettingsConfirmMoney(t *testing.T) {
	s, c := settingsScreen(t)
	rows := map[string]string{}
	for _, r := range s.SettingRows() {
		rows[r.Key] = r.Value
	}
	want := map[string]string{"language": "Português", "denom": "0,05 €", "handpay_limit": "1.000,00 €", "max_level": "sem limite", "paytable": "lusitania-92"}
	for k, w := range want {
		if rows[k] != w {
			t.Errorf("setting %s reads %q, want %q", k, rows[k], w)
		}
	}
	for _, b := range s.Buttons() {
		if strings.HasPrefix(b.ID, "set:") && strings.Contains(strings.ToLower(b.Label), "cêntimo") {
			t.Errorf("button %s says %q", b.ID, b.Label)
		}
	}
	if l := button(t, s, "set:language:en").Label; l != "English" {
		t.Errorf("the English button says %q", l)
	}
	for _, id := range []string{"set:denom:10", "set:handpay_limit:250000", "set:max_level:2"} {
		clickOn(t, s, id)
		if got := c.take(); len(got) != 0 {
			t.Errorf("%s sent %v before it was confirmed", id, got)
		}
		if s.ConfirmText() == "" {
			t.Errorf("%s asks nothing", id)
		}
		clickOn(t, s, "set:cancel")
		if got := c.take(); len(got) != 0 || s.Confirm != nil {
			t.Errorf("%s cancelled sent %v", id, got)
		}
	}
	clickOn(t, s, "set:handpay_limit:250000")
	if got, want := s.ConfirmText(), "Limite de pagamento manual: 1.000,00 € → 2.500,00 €. Confirma?"; got != want {
		t.Errorf("confirmation %q, want %q", got, want)
	}
	clickOn(t, s, "set:confirm")
	if got := c.take(); !slices.Equal(got, []string{"service config handpay_limit 250000"}) {
		t.Errorf("confirmed: sent %v", got)
	}
	// The language is no money: at once.
	clickOn(t, s, "set:language:en")
	if got := c.take(); !slices.Equal(got, []string{"service config language en"}) {
		t.Errorf("language: sent %v", got)
	}
}

// The event log reads in the screen's language: no internal English
// ("set denom = 2", "pin_failed"), no catalogue key left untranslated.
func TestEventLogLocalized(t *testing.T) {
	s, _ := settingsScreen(t)
	ev := func(e meters.Event) machine.ViewEvent { return machine.ViewEvent{Event: e} }
	events := []machine.ViewEvent{
		ev(meters.Event{Code: meters.EventService, Detail: "simulator (technician): set denom = 2", Who: "simulator (technician)", Action: "config", Key: "denom", Value: "2"}),
		ev(meters.Event{Code: meters.EventService, Detail: "k (inspector): pin_failed ", Who: "k", Role: "inspector", Action: meters.ActionPINFailed}),
		ev(meters.Event{Code: meters.EventService, Who: "k", Role: "technician", Action: machine.SvcIOOutput, Value: "lamp_spin on"}),
		ev(meters.Event{Code: meters.EventService, Who: "k", Role: "technician", Action: machine.SvcLogout, Value: "key off"}),
		ev(meters.Event{Code: meters.EventTicketOut, Cents: 48_50, Ref: "004200000000000001"}),
		ev(meters.Event{Code: meters.EventDoorOpen, Door: "main"}),
		{Event: meters.Event{Code: machine.EventMoneyIn, Cents: 20_00}, Kind: meters.SourceBill},
		{Event: meters.Event{Code: machine.EventHandpay, Cents: 1500_00}, Kind: meters.HandpayCancelled},
		{Event: meters.Event{Code: machine.EventHandpayReset, Cents: 1500_00, Who: "att-1"}, Kind: meters.HandpayCancelled},
		{Event: meters.Event{Code: machine.EventFreeGames, Cents: 12_00}, Game: 41, Count: 10},
	}
	for _, lang := range Langs {
		s.Lang = lang
		for _, e := range events {
			l := s.EventLine(e)
			all := l.What + " | " + l.Detail + " | " + l.Who
			for _, bad := range []string{"set denom", "pin_failed", "event_", "ev_", "set_", "handpay_", "source_", "io_", "door_", "lamp_spin", "key off"} {
				if strings.Contains(all, bad) {
					t.Errorf("%s: event %s reads %q (has %q)", lang, e.Code, all, bad)
				}
			}
			if l.What == "" || l.Detail == "" && e.Code != meters.EventService {
				t.Errorf("%s: event %s reads %q", lang, e.Code, all)
			}
		}
	}
	s.Lang = "pt"
	if l := s.EventLine(events[0]); l.What != "Configuração alterada" || l.Detail != "Denominação: 0,02 €" {
		t.Errorf("a setting reads %q: %q", l.What, l.Detail)
	}
	if l := s.EventLine(events[9]); !strings.Contains(l.Detail, "10 jogos grátis") || !strings.Contains(l.Detail, "12,00 €") {
		t.Errorf("free games read %q", l.Detail)
	}
}

// Recall opens a game's free games one by one, names the spin and lists
// its stops reel by reel; the list's rows stay above its footer.
func TestRecallSpins(t *testing.T) {
	s, c := settingsScreen(t)
	spin := func(free bool, stops ...int) machine.RecallSpin {
		return machine.RecallSpin{Free: free, Stops: stops, Window: [][]string{{"A"}, {"K"}, {"Q"}, {"J"}, {"T"}}}
	}
	var games []machine.Recall
	for i := range 20 {
		games = append(games, machine.Recall{Game: uint64(40 - i), Spins: []machine.RecallSpin{spin(false, 7, 18, 29, 11, 3)}})
	}
	games[0].Spins = append(games[0].Spins, spin(true, 1, 2, 3, 4, 5), spin(true, 6, 7, 8, 9, 10))
	games[0].Spins[0].Scatters = []machine.ViewScatter{{Symbol: "S", Count: 3, FreeGames: 2, Cells: [][2]int{{0, 0}, {2, 0}, {4, 0}}}}
	c.view.Service.Page, c.view.Service.Recall = "recall", games
	s.Update()
	_, title, _ := s.RecallSpinNow(games[0])
	if title != "Jogo base" || !strings.Contains(s.StopsText(games[0].Spins[0].Stops), "rolo 1: 7") {
		t.Errorf("base spin: %q, %q", title, s.StopsText(games[0].Spins[0].Stops))
	}
	if items := s.RecallTexts(games[0].Spins[0]); len(items) != 1 || !strings.Contains(items[0].Text, "2 jogos grátis") {
		t.Errorf("the trigger's scatter is not listed: %+v", items)
	}
	clickOn(t, s, "recall:spin_next")
	clickOn(t, s, "recall:spin_next")
	if sp, title, _ := s.RecallSpinNow(games[0]); title != T("pt", "free_game_n", "2", "2") || sp.Stops[0] != 6 {
		t.Errorf("second free game: %q, stops %v", title, sp.Stops)
	}
	if button(t, s, "recall:spin_next").Enabled {
		t.Error("next is enabled at the last free game")
	}
	footer := RectSvcContent.Y + RectSvcContent.H - 26
	for _, b := range s.Buttons() {
		if strings.HasPrefix(b.ID, "recall:") && b.R.X < RectRecallWindow.X && b.R.Y+b.R.H > footer {
			t.Errorf("recall row %s reaches the footer (%v)", b.ID, b.R)
		}
	}
	clickOn(t, s, "recall:1")
	if s.RecallSpin != 0 {
		t.Error("another game opens at its last game's spin")
	}
}

// The key turned for a handpay brings the attendant's confirmation of the
// amount, not the PIN pad; once paid, the PIN pad waits for the next turn.
func TestHandpayConfirmPad(t *testing.T) {
	v := sampleView()
	v.Mode, v.Handpay, v.HandpayKind = "handpay", 1500_00, meters.HandpayWin
	s, c := newTestScreen(t, v)
	c.SetSwitch(SwitchKey, true)
	c.view.HandpayConfirm, c.view.LoginPad = true, false // as the machine says it
	s.Update()
	c.take()
	if s.Pad.Mode != "handpay" {
		t.Fatalf("key on for a handpay: pad %q", s.Pad.Mode)
	}
	if l := button(t, s, "handpay:paid").Label; !strings.Contains(l, "1.500,00 €") || !strings.HasPrefix(l, "PAGO") || s.HandpayText() != "handpay_confirm_text" {
		t.Errorf("the confirmation says %q, %s", l, s.HandpayText())
	}
	// A receipt with a validation number is the cashier's to pay: the
	// attendant is told to pay nothing, in both languages.
	c.view.HandpayVoucher = true
	s.Update()
	if l := button(t, s, "handpay:paid").Label; !strings.HasPrefix(l, "IMPRIMIR RECIBO") || !strings.Contains(l, "1.500,00 €") ||
		!strings.HasPrefix(s.T(s.HandpayText(), "x"), "Não pague nada na máquina") {
		t.Errorf("a voucher's confirmation says %q, %q", l, s.T(s.HandpayText(), "x"))
	}
	s.Lang = "en"
	if l := button(t, s, "handpay:paid").Label; !strings.HasPrefix(l, "PRINT RECEIPT") || !strings.HasPrefix(s.T(s.HandpayText(), "x"), "Pay nothing at the machine") {
		t.Errorf("a voucher's confirmation says %q, %q", l, s.T(s.HandpayText(), "x"))
	}
	s.Lang = "pt"
	clickOn(t, s, "handpay:paid")
	if got := c.take(); !slices.Equal(got, []string{"handpay 150000"}) {
		t.Fatalf("confirmed: sent %v", got)
	}
	c.view.Mode, c.view.Handpay, c.view.HandpayConfirm = "idle", 0, false
	s.Update()
	if s.Pad.Mode != "" {
		t.Fatalf("after the handpay the pad is %q (the PIN pad waits for the next turn)", s.Pad.Mode)
	}
	c.SetSwitch(SwitchKey, false)
	s.Update()
	c.SetSwitch(SwitchKey, true)
	s.Update()
	if s.Pad.Mode != "login" {
		t.Fatalf("the next turn of the key: pad %q", s.Pad.Mode)
	}
}
