package main

import (
	"fmt"
	"slices"
	"testing"

	"github.com/openegm/cabinet/internal/cabinettest"
	"github.com/openegm/cabinet/machine"
	"github.com/openegm/cabinet/meters"
	"github.com/openegm/cabinet/sas"
	"github.com/openegm/cabinet/sas/host"
)

// standardHost is a SAS progressive controller as the standard describes
// one, and nothing more: it broadcasts the level's value to every machine
// (global 0x86, never addressed), reads a hit with 0x85 or 0x87 when the
// machine raises 0x56, then broadcasts the reset value; it reads 0x84 and
// 0x83, and leaves hand-paid wins to the attendant.
type standardHost struct {
	t     *testing.T
	h     *host.Client
	group byte
	value uint64
}

func (s *standardHost) broadcast() {
	s.t.Helper()
	if err := s.h.Broadcast(s.group, []sas.LevelValue{{Level: 1, Amount: s.value}, {Level: 2, Amount: 1}}, true); err != nil {
		s.t.Fatal(err)
	}
}

// playUntilHit plays max bet on c, broadcasting before every game, until
// the cabinet reports a hit.
func (s *standardHost) playUntilHit(c *cabinet) {
	s.t.Helper()
	for games := 0; ; games++ {
		s.broadcast()
		if c.State().CreditsCents < 20*20 {
			c.Bill(50000)
		}
		r := c.Send(cabinettest.Command{Cmd: "press", Button: machine.BtnMaxBet})
		if r.Refused == "refused_jackpot_pending" {
			return
		}
		if r.Refused != "" {
			s.t.Fatalf("max bet refused: %s", r.Refused)
		}
		if games > 1000 {
			s.t.Fatal("no progressive hit in 1000 games at 1 in 64")
		}
		c.WaitIdle()
	}
}

// poll general-polls, as a host does all the time, until done says so;
// it returns the exceptions seen.
func (s *standardHost) poll(what string, done func(sas.Exception) bool) []sas.Exception {
	s.t.Helper()
	var seen []sas.Exception
	for range 2000 {
		r, err := s.h.GeneralPoll()
		if err != nil {
			s.t.Fatal(err)
		}
		seen = append(seen, r.Exception)
		if done(r.Exception) {
			return seen
		}
	}
	s.t.Fatalf("waited in vain for %s; exceptions %v", what, seen)
	return nil
}

// until polls until the cabinet's view satisfies ok.
func (s *standardHost) until(c *cabinet, what string, ok func(machine.View) bool) []sas.Exception {
	s.t.Helper()
	return s.poll(what, func(sas.Exception) bool { return ok(c.State()) })
}

// pollFor polls until the machine raises want.
func (s *standardHost) pollFor(want sas.Exception) []sas.Exception {
	s.t.Helper()
	return s.poll(fmt.Sprintf("exception %02X", want), func(e sas.Exception) bool { return e == want })
}

// A cabinet with the default award mode (broadcast) on a standard SAS
// progressive controller: each hit is paid the value the cabinet showed,
// once the host has read it (0x87 for the first, 0x85 for the second), to
// credits below the handpay limit and by the attendant at it; 0x84 reports
// the last win and 0x83 the sum. Before this mode the cabinet waited for
// an addressed 0x80 such a host never sends, and the hit stayed pending.
func TestStandardSASProgressiveController(t *testing.T) {
	t.Parallel()
	data := t.TempDir()
	args := []string{"--paytable-dir", cabinettest.LinkPaytableDir(t, "../.."), "--paytable", "t-link", "--jackpot", "off",
		"--sas-addr", "1", "--sas-pty", "--link-group", "5", "--link-levels", "1", "--spin-time", "5ms", "--handpay-limit", "100000"}
	c := startCabinet(t, data, args...)
	h := sasHost(t, data)
	std := &standardHost{t: t, h: h, group: 5, value: 500_00}
	std.broadcast()
	c.WaitFor("the linked value", func(v machine.View) bool {
		return len(v.Jackpots) == 1 && v.Jackpots[0].Cents == 500_00 && v.TopOffered == 1
	})

	// 1. Below the handpay limit, read with 0x87: paid to credits.
	std.playUntilHit(c)
	std.pollFor(sas.ExcProgressiveLevelHit)
	wins, err := h.ProgressiveWins()
	if err != nil || wins.Group != 5 || len(wins.Wins) != 1 || wins.Wins[0].Level != 1 || wins.Wins[0].Amount != 500_00 {
		t.Fatalf("0x87 after the hit: %+v %v", wins, err)
	}
	before := c.State().CreditsCents
	std.value = 100_00 // the host moves on: the reset value, then its polls
	std.broadcast()
	ex := std.until(c, "the hit paid the value shown", func(v machine.View) bool {
		return v.CreditsCents == before+500_00 && !v.Jackpots[0].Pending
	})
	if !slices.Contains(ex, sas.ExcProgressiveWin) {
		std.pollFor(sas.ExcProgressiveWin)
	}
	if w, err := h.LastProgressiveWin(); err != nil || w != (sas.ProgressiveWin{Group: 5, Level: 1, Amount: 500_00}) {
		t.Fatalf("0x84: %+v %v", w, err)
	}
	if wins, err := h.ProgressiveWins(); err != nil || len(wins.Wins) != 0 {
		t.Fatalf("0x87 after the payment: %+v %v", wins, err)
	}

	// 2. At the handpay limit, read with 0x85: the attendant pays it.
	std.value = 2000_00
	std.playUntilHit(c)
	std.pollFor(sas.ExcProgressiveLevelHit)
	if w, err := h.ProgressiveWin(); err != nil || w != (sas.ProgressiveWin{Group: 5, Level: 1, Amount: 2000_00}) {
		t.Fatalf("0x85 after the hit: %+v %v", w, err)
	}
	before = c.State().CreditsCents
	std.value = 100_00
	std.broadcast()
	std.until(c, "the handpay lockout", func(v machine.View) bool { return v.Handpay == 2000_00 })
	if hp, err := h.Handpay(); err != nil || hp.ProgressiveGroup != 5 || hp.Level != 1 || hp.Amount != 2000_00 {
		t.Fatalf("0x1B: %+v %v", hp, err)
	}
	c.TurnKey("att-1")
	c.WaitFor("the handpay reset", func(v machine.View) bool { return v.Handpay == 0 })
	if got := c.State().CreditsCents; got != before {
		t.Fatalf("credits %d after a hand-paid jackpot, want %d", got, before)
	}
	if w, err := h.LastProgressiveWin(); err != nil || w.Amount != 2000_00 {
		t.Fatalf("0x84 after the second win: %+v %v", w, err)
	}
	if cum, err := h.CumulativeProgressiveWins(0); err != nil || cum.Amount != 2500_00 {
		t.Fatalf("0x83: %+v %v", cum, err)
	}
	// A lower bet, which cannot win the linked level: in the total coin-in
	// (0xB4 category 0), not in the linked coin-in (category 1).
	c.Send(cabinettest.Command{Cmd: "press", Button: machine.BtnBetDown})
	if r := c.Send(cabinettest.Command{Cmd: "press", Button: machine.BtnSpin}); r.Refused != "" {
		t.Fatalf("lower bet refused: %s", r.Refused)
	}
	c.WaitIdle()
	total, err := h.WagerCategory(0, 0)
	if err != nil {
		t.Fatal(err)
	}
	linked, err := h.WagerCategory(0, 1)
	if err != nil {
		t.Fatal(err)
	}
	if none, err := h.WagerCategory(0, 7); err != nil || none.Size != 0 || none.Payback != "0000" {
		t.Fatalf("0xB4 category 7: %+v %v", none, err)
	}
	h.Close()
	c.Stop()

	st := readLedger(t, data)
	if total.CoinIn != uint64(st.Get(meters.CoinIn)) || linked.CoinIn != uint64(st.LinkedCoinIn) || linked.CoinIn >= total.CoinIn || linked.Payback == "0000" {
		t.Fatalf("0xB4: total %+v, linked %+v; the ledger's coin-in %d, linked %d", total, linked, st.Get(meters.CoinIn), st.LinkedCoinIn)
	}
	if st.Get(meters.MachinePaidProgressive) != 500_00 || st.Get(meters.AttendantPaidProgressive) != 2000_00 || len(st.PendingHits) != 0 {
		t.Fatalf("ledger: machine paid %d, attendant paid %d, pending %v", st.Get(meters.MachinePaidProgressive),
			st.Get(meters.AttendantPaidProgressive), st.PendingHits)
	}
	if st.Settings[machine.SettingLinkAward] != machine.LinkAwardBroadcast {
		t.Fatalf("settings %v", st.Settings)
	}
}
