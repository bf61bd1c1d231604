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
