package model

import (
	"strings"
	"testing"

	"github.com/openegm/cabinet/machine"
	"github.com/openegm/cabinet/meters"
)

// Words meant for developers never reach players (issue 24, item 4): the
// screens of a player and a technician say the game's words only; the
// simulator's keys are told in its own legend (the catalogue's sim_
// texts), never over the game's spots or menu.

// keyboardHints are what betrays a keyboard hint in a text (an arrow
// between two amounts, "0,05 € → 0,10 €", is no key; "the key Y" is, where
// the attendant key and a signing key are not).
var keyboardHints = []string{"tecla", "←", "Enter"}

func noKeyboardHint(t *testing.T, what, text string) {
	t.Helper()
	for _, h := range keyboardHints {
		if strings.Contains(text, h) {
			t.Errorf("%s: keyboard hint %q in %q", what, h, text)
		}
	}
	if strings.HasPrefix(strings.ToLower(text), "key ") {
		t.Errorf("%s: keyboard hint in %q", what, text)
	}
}

// TestNoKeyboardHintOutsideTheSimulatorLegend: no text of the catalogue
// but the simulator legend's (sim_) names a keyboard key, and the table's
// and the menu's texts as the screen gives them carry none, in both
// languages.
func TestNoKeyboardHintOutsideTheSimulatorLegend(t *testing.T) {
	for _, key := range Keys() {
		if strings.HasPrefix(key, "sim_") {
			continue
		}
		for _, lang := range Langs {
			noKeyboardHint(t, lang+" "+key, T(lang, key, "Y"))
		}
	}
	for _, lang := range Langs {
		s, _ := tableScreen(t, "idle")
		s.Lang = lang
		noKeyboardHint(t, lang+" menu hint", s.MenuHint())
		noKeyboardHint(t, lang+" table message", s.TableMessage())
		for _, sv := range s.SpotViews() {
			for _, text := range []string{sv.Name, sv.Odds, sv.Result, sv.Commission} {
				noKeyboardHint(t, lang+" spot "+sv.Spot.String(), text)
			}
		}
	}
}

// TestNamesNotIdentifiers: the table's rules and the event log name the
// table by the display name of its signed definition, never its ID; a
// technician is his role, never "(simulator)".
func TestNamesNotIdentifiers(t *testing.T) {
	tb := tableView(t)
	for lang, title := range map[string]string{"pt": tb.Title[0], "en": tb.Title[1]} {
		if title == "" {
			title = tb.Title[0]
		}
		var all []string
		for _, p := range TableRulesPages(tb, lang) {
			all = append(all, p.Title)
			for _, it := range p.Items {
				all = append(all, it.Text)
			}
		}
		text := strings.Join(all, "\n")
		if strings.Contains(text, tb.ID) {
			t.Errorf("%s: the rules name the table by its ID %q:\n%s", lang, tb.ID, text)
		}
		if !strings.Contains(text, title) {
			t.Errorf("%s: the rules do not name the table %q", lang, title)
		}

		s, _ := tableScreen(t, "idle")
		s.Lang = lang
		cfg := machine.ViewEvent{Event: meters.Event{Code: meters.EventService, Who: machine.WhoCommandLine, Action: "config", Key: "table", Value: tb.ID}}
		l := s.EventLine(cfg)
		if line := l.What + " " + l.Detail + " " + l.Who; strings.Contains(line, tb.ID) || strings.Contains(line, "table:") || !strings.Contains(line, title) {
			t.Errorf("%s: the table's configuration in the event log: %q", lang, line)
		}

		login := machine.ViewEvent{Event: meters.Event{Code: meters.EventService, Who: "simulator", Role: machine.RoleTechnician, Action: meters.ActionLogin}}
		l = s.EventLine(login)
		if strings.Contains(l.Who, "simulator") || l.Who != T(lang, "role_technician") {
			t.Errorf("%s: a technician's login is by %q, want %q", lang, l.Who, T(lang, "role_technician"))
		}
		paid := machine.ViewEvent{Event: meters.Event{Code: machine.EventHandpayReset, Who: "simulator", Cents: 150000}, Kind: meters.HandpayCancelled}
		if l := s.EventLine(paid); strings.Contains(l.Who, "simulator") {
			t.Errorf("%s: a handpay paid by %q", lang, l.Who)
		}
		s.V.Service = &machine.ServiceView{Role: machine.RoleTechnician, Who: "simulator"}
		if title := s.ServiceTitle(); strings.Contains(title, "simulator") || !strings.Contains(title, T(lang, "role_technician")) {
			t.Errorf("%s: the service menu's title %q", lang, title)
		}
	}
}

// TestCashOutWordsMatchTheMeter: a handpay of the credit says what happens
// (the attendant pays the amount), never that the credit is cancelled
// while the meter still shows it; the printer's refusal and the printed
// ticket are said with their amounts.
func TestCashOutWordsMatchTheMeter(t *testing.T) {
	amount := map[string]string{"pt": "1.500,00 €", "en": "€1,500.00"}
	for _, lang := range Langs {
		v := sampleView()
		v.Lang, v.Mode, v.HandpayKind, v.Handpay, v.CreditsCents = lang, "handpay", meters.HandpayCancelled, 150000, 150000
		v.Message = machine.Message{Key: "msg_handpay_printer", Args: []int64{150000}}
		s, _ := newTestScreen(t, v)
		s.Lang = lang
		head, lines := s.LockoutLines()
		text := head + " / " + strings.Join(lines, " / ")
		for _, w := range []string{"ancelad", "ancelled"} {
			if strings.Contains(text, w) {
				t.Errorf("%s: the credit meter reads %s and the lockout says %q", lang, amount[lang], text)
			}
		}
		if !strings.Contains(text, amount[lang]) {
			t.Errorf("%s: the lockout does not say the amount %s: %q", lang, amount[lang], text)
		}
		if why := T(lang, "lock_printer_cannot"); !strings.Contains(text, why) {
			t.Errorf("%s: the printer's handpay does not say why (%q): %q", lang, why, text)
		}
		if m := MessageText(lang, "msg_handpay_printer", []int64{150000}); !strings.Contains(m, amount[lang]) {
			t.Errorf("%s: the printer's refusal without its amount: %q", lang, m)
		}
		want := map[string]string{"pt": "Talão de 15,00 € impresso", "en": "Ticket of €15.00 printed"}[lang]
		if m := MessageText(lang, "msg_ticket_printed", []int64{1500}); !strings.Contains(m, want) {
			t.Errorf("%s: the final cash-out message %q, want %q", lang, m, want)
		}
	}
}
