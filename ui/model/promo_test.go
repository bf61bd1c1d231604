package model

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/openegm/cabinet/aft"
	"github.com/openegm/cabinet/machine"
	"github.com/openegm/cabinet/meters"
)

// promoDay is the screens' clock in these tests: 10 June 2025.
var promoDay = time.Date(2025, 6, 10, 21, 30, 0, 0, time.UTC)

// promoScreen is the screens on a view of 50 € of credit, of which
// restricted and nonRestricted cents are promotional, the restricted
// credit lasting until exp.
func promoScreen(t *testing.T, lang string, restricted, nonRestricted int64, exp aft.Expiration) (*Screen, *fakeCabinet) {
	t.Helper()
	v := sampleView()
	v.Lang, v.RestrictedCents, v.NonRestrictedCents, v.RestrictedExpires = lang, restricted, nonRestricted, exp
	s, c := newTestScreen(t, v)
	s.Now = func() time.Time { return promoDay }
	return s, c
}

// splitText renders a split as the screens list it, for comparing.
func splitText(parts []CreditPart) string {
	var out []string
	for _, p := range parts {
		s := fmt.Sprintf("%s=%s %s", p.Kind, p.Label, p.Amount)
		if p.Until != "" {
			s += " (" + p.Until + ")"
		}
		out = append(out, s)
	}
	return strings.Join(out, "; ")
}

// What the credit meter is made of, for each mix of credits: nothing more
// than the meter without promotional credit; PROMO with its last day, PROMO
// LIVRE and the cash otherwise, in the order a bet takes them; no date
// for a restricted credit that never expires or whose day has passed.
func TestCreditSplit(t *testing.T) {
	july := aft.DateOf(time.Date(2025, 7, 10, 0, 0, 0, 0, time.UTC))
	for _, c := range []struct {
		name                      string
		lang                      string
		restricted, nonRestricted int64
		exp                       aft.Expiration
		want                      string
	}{
		{"no promo", "pt", 0, 0, 0, ""},
		{"restricted only", "pt", 15_00, 0, july,
			"promo=PROMO 15,00 € (válido até 10/07/2025); cash=DINHEIRO 35,00 €"},
		{"restricted only, en", "en", 15_00, 0, july,
			"promo=PROMO €15.00 (valid until 10/07/2025); cash=CASH €35.00"},
		{"non-restricted only", "pt", 0, 5_00, 0,
			"promo_free=PROMO LIVRE 5,00 €; cash=DINHEIRO 45,00 €"},
		{"both", "pt", 15_00, 5_00, july,
			"promo=PROMO 15,00 € (válido até 10/07/2025); promo_free=PROMO LIVRE 5,00 €; cash=DINHEIRO 30,00 €"},
		{"both, en", "en", 15_00, 5_00, july,
			"promo=PROMO €15.00 (valid until 10/07/2025); promo_free=CASHABLE PROMO €5.00; cash=CASH €30.00"},
		{"all promotional", "pt", 40_00, 10_00, july,
			"promo=PROMO 40,00 € (válido até 10/07/2025); promo_free=PROMO LIVRE 10,00 €; cash=DINHEIRO 0,00 €"},
		{"never expires", "pt", 15_00, 0, 0, "promo=PROMO 15,00 €; cash=DINHEIRO 35,00 €"},
		{"last day today", "pt", 15_00, 0, aft.DateOf(promoDay),
			"promo=PROMO 15,00 € (válido até 10/06/2025); cash=DINHEIRO 35,00 €"},
		{"expired date not shown", "pt", 15_00, 0, aft.DateOf(promoDay.AddDate(0, 0, -1)),
			"promo=PROMO 15,00 €; cash=DINHEIRO 35,00 €"},
		{"not a date (days) not shown", "pt", 15_00, 0, 30, "promo=PROMO 15,00 €; cash=DINHEIRO 35,00 €"},
	} {
		t.Run(c.name, func(t *testing.T) {
			s, _ := promoScreen(t, c.lang, c.restricted, c.nonRestricted, c.exp)
			_, cents := s.ShownCredits()
			if got := splitText(s.CreditSplit(cents)); got != c.want {
				t.Errorf("split\n got %s\nwant %s", got, c.want)
			}
		})
	}
}

// The panel's two lines: the first kind with its date alone, the rest
// together.
func TestCreditSplitLines(t *testing.T) {
	s, _ := promoScreen(t, "pt", 15_00, 5_00, aft.DateOf(promoDay))
	lines := CreditSplitLines(s.CreditSplit(5000))
	if len(lines) != 2 || len(lines[0]) != 1 || lines[0][0].Kind != CreditPromo ||
		len(lines[1]) != 2 || lines[1][0].Kind != CreditPromoFree || lines[1][1].Kind != CreditCash {
		t.Fatalf("lines %+v", lines)
	}
	if got := CreditSplitLines(nil); len(got) != 1 || len(got[0]) != 0 {
		t.Fatalf("no split: lines %+v", got)
	}
}

// While the reels turn, the split is the credit meter's as the spin
// started (the bet taken from the promotional credit first), and the cash
// counts up with the win afterwards: a win is cash, never promotional.
func TestCreditSplitFollowsTheShownMeter(t *testing.T) {
	stops := []int{3, 10, 20, 5, 40}
	s, c := promoScreen(t, "pt", 15_00, 0, 0)
	v := spinView(t, stops, "spinning")
	v.RestrictedCents = 13_00 // the bet of 2 € took restricted credit
	v.Credits, v.CreditsCents = 960, 48_00
	v.GameWinCents, v.GameOpen = 12_00, true
	c.view = v
	s.Update()
	// The game ends while the reels turn, the win credited, and the
	// restricted credit's day passes with it: the machine takes it off.
	ended := v
	ended.Mode, ended.GameOpen, ended.CreditedCents = "idle", false, 12_00
	ended.Credits, ended.CreditsCents = 960+240-260, 48_00+12_00-13_00
	ended.RestrictedCents = 0
	c.view = ended
	want := "promo=PROMO 13,00 €; cash=DINHEIRO 35,00 €"
	landReels(t, s, func() {
		_, cents := s.ShownCredits()
		if got := splitText(s.CreditSplit(cents)); got != want {
			t.Fatalf("while the reels turn: %s, want %s", got, want)
		}
	})
	for i := 0; i <= countTicks+1; i++ {
		s.Update()
	}
	_, cents := s.ShownCredits()
	if got := s.CreditSplit(cents); got != nil {
		t.Fatalf("after the game, without promotional credit: %s", splitText(got))
	}
}

// A cash-out that leaves restricted credit on the meter says that it stays
// for play, on every screen's message line and on a handpay's lockout;
// without restricted credit the messages are as they were. With only
// restricted credit left, the refusal says it can only be played.
func TestCashOutSaysPromoStays(t *testing.T) {
	stays := map[string]string{"pt": "O crédito PROMO de 15,00 € fica na máquina para jogar", "en": "The PROMO credit of €15.00 stays on the machine for play"}
	for _, lang := range Langs {
		for _, restricted := range []int64{0, 15_00} {
			s, c := promoScreen(t, lang, restricted, 0, 0)
			check := func(what, got string) {
				t.Helper()
				if has := strings.Contains(got, stays[lang]); has != (restricted > 0) {
					t.Errorf("%s, %s, %d restricted: %q", lang, what, restricted, got)
				}
			}
			v := c.view
			v.Printing, v.PrintingCents = "004200000000000001", 35_00
			c.view = v
			s.Update()
			check("printing", s.MessageText())
			check("printing at the table", s.TableMessage())
			st, _ := s.PokerStatus()
			check("printing in the poker lobby", st)
			for _, key := range []string{"msg_printing", "msg_ticket_printed", "msg_aft_out", "msg_handpay_reset", "msg_handpay_voucher"} {
				v.Printing, v.Message = "", machine.Message{Key: key, Args: []int64{35_00}}
				c.view = v
				s.Update()
				check(key, s.MessageText())
				check(key+" at the table", s.TableMessage())
			}
			// Not every message is a cash-out's.
			v.Message = machine.Message{Key: "msg_win", Args: []int64{1_00}}
			c.view = v
			s.Update()
			if strings.Contains(s.MessageText(), stays[lang]) {
				t.Errorf("%s: a win says the promo stays: %q", lang, s.MessageText())
			}
			v.Mode, v.Message, v.Handpay, v.HandpayKind = "handpay", machine.Message{Key: "msg_handpay", Args: []int64{2000_00}}, 2000_00, meters.HandpayCancelled
			c.view = v
			s.Update()
			_, lines := s.LockoutLines()
			check("cancelled-credit handpay", strings.Join(lines, " / "))
			check("cancelled-credit handpay's message", s.Said())
			// A win's handpay is no cash-out: the meter is as it was.
			v.HandpayKind = meters.HandpayWin
			c.view = v
			s.Update()
			_, lines = s.LockoutLines()
			if got := strings.Join(lines, " / ") + " / " + s.Said(); strings.Contains(got, stays[lang]) {
				t.Errorf("%s: a win's handpay says the promo stays: %q", lang, got)
			}
		}
	}
	refused := map[string]string{"pt": "O crédito PROMO só pode ser jogado, não pode ser recebido", "en": "PROMO credit can only be played, not cashed out"}
	for _, lang := range Langs {
		if got := MessageText(lang, "refused_restricted_only", nil); got != refused[lang] {
			t.Errorf("%s refused_restricted_only: %q", lang, got)
		}
	}
}

// Each screen's message row makes room for the split under its credit
// meter: the split spans the meter, the message takes the wider side
// without touching it, and without a split the row is the message's.
func TestMessageRowsWithSplit(t *testing.T) {
	s, c := promoScreen(t, "pt", 15_00, 0, 0)
	rows := map[string]func() (Rect, Rect, []CreditPart){
		"reels": s.ReelsMessageRow, "table": s.TableMessageRow, "lobby": s.LobbyMessageRow,
	}
	meters := map[string]Rect{"reels": RectCreditCell, "table": RectTableMeters, "lobby": RectCredit}
	full := map[string]Rect{"reels": RectMessage, "table": RectTableMsg, "lobby": RectTableMsg}
	for name, row := range rows {
		split, msg, parts := row()
		m := meters[name]
		if parts == nil || split.X != m.X || split.W < m.W || split.Y != full[name].Y {
			t.Errorf("%s: split %v is not under (or over) the credit meter %v", name, split, m)
		}
		if msg.X < split.X+split.W && split.X < msg.X+msg.W {
			t.Errorf("%s: message %v over the split %v", name, msg, split)
		}
		if msg.W < 400 || msg.X < full[name].X || msg.X+msg.W > full[name].X+full[name].W {
			t.Errorf("%s: message %v outside its row %v or too narrow", name, msg, full[name])
		}
	}
	v := c.view
	v.RestrictedCents = 0
	c.view = v
	s.Update()
	for name, row := range rows {
		if split, msg, parts := row(); parts != nil || split.W != 0 || msg != full[name] {
			t.Errorf("%s without promotional credit: split %v, message %v", name, split, msg)
		}
	}
}
