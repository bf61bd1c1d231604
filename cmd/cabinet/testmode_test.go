package main

import (
	"maps"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/openegm/cabinet/internal/cabinettest"
	"github.com/openegm/cabinet/machine"
	"github.com/openegm/cabinet/sas"
)

// enterTestMode logs a technician in (setting the PIN the first time) and
// enters test mode.
func enterTestMode(t *testing.T, c *cabinet, pin string) machine.View {
	t.Helper()
	c.Send(cabinettest.Command{Cmd: "key", Key: machine.KeyAttendant, On: true, Who: "tech-3"})
	if r := c.Send(cabinettest.Command{Cmd: "pin", Role: machine.RoleTechnician, PIN: pin}); r.Refused == "refused_wrong_pin" {
		c.Send(cabinettest.Command{Cmd: "pin", Role: machine.RoleTechnician, PIN: machine.DefaultPIN})
		c.Send(cabinettest.Command{Cmd: "service", Action: machine.SvcSetPIN, Value: pin})
	}
	r := c.Send(cabinettest.Command{Cmd: "service", Action: machine.SvcTestEnter})
	if r.Refused != "" || r.View.Test == nil || r.View.Test.CreditsCents != machine.TestCredits || r.View.Service != nil {
		t.Fatalf("enter test mode: %+v", r)
	}
	return *r.View
}

// Test mode on the real cabinet: the technician enters it from the service
// menu (through the control socket, as the screen does), plays reel games
// and Makccarat hands on test credits, and leaves; every meter (the
// control socket's, the hard meters' pulses, and the host's 0x2F of the
// machine and of each game) is what it was before, a note offered in test
// mode was not taken, this build refuses to choose an outcome, and the
// ledger still verifies.
func TestTestModeOnTheCabinetMovesNoMeter(t *testing.T) {
	cabinettest.PlainPassOnly(t)
	t.Parallel()
	data := t.TempDir()
	c := startCabinet(t, data, "--sas-addr", "1", "--sas-pty", "--spin-time", "5ms", "--card-time", "5ms", "--jackpot", "off")
	h := sasHost(t, data)
	defer h.Close()
	drain(t, h)

	// Real play first, so the meters are not all zero; then a cash-out.
	c.Bill(5000)
	for range 3 {
		c.Send(cabinettest.Command{Cmd: "press", Button: machine.BtnSpin})
		c.WaitIdle()
	}
	c.Send(cabinettest.Command{Cmd: "select_game", Value: "makccarat"})
	tableBet(t, c, "player", 200)
	realHand := dealt(t, c)
	c.Send(cabinettest.Command{Cmd: "press", Button: machine.BtnCashOut})
	c.WaitFor("the ticket printed", func(v machine.View) bool { return v.Printing == "" && v.CreditsCents == 0 })
	meterRead := func() map[string]int64 { return c.Send(cabinettest.Command{Cmd: "meters"}).Meters }
	sasRead := func() []map[sas.MeterCode]uint64 {
		return []map[sas.MeterCode]uint64{gameMeters(t, h, 0), gameMeters(t, h, 1), gameMeters(t, h, 2)}
	}
	// The hard meters pulse behind the ledger: wait until they have
	// caught up with the real play (one pulse a euro, one a game).
	before := meterRead()
	for deadline := time.Now().Add(60 * time.Second); !hardCaughtUp(before); before = meterRead() {
		if time.Now().After(deadline) {
			t.Fatalf("hard meters never caught up: %v", before)
		}
		time.Sleep(20 * time.Millisecond)
	}
	sasBefore := sasRead()
	if before["games played"] != 4 {
		t.Fatalf("meters before test mode: %v", before)
	}

	enterTestMode(t, c, "830514")
	if r := c.Send(cabinettest.Command{Cmd: "bill", Cents: 500}); r.View == nil || r.View.Test == nil || r.View.Test.CreditsCents != machine.TestCredits {
		t.Fatalf("a note in test mode: %+v", r)
	}
	if r := c.Send(cabinettest.Command{Cmd: "test_outcome", Value: "9H 2C KD 3S"}); r.Refused != "refused_not_lab" {
		t.Fatalf("a chosen outcome on a build that is not a lab build: %+v", r)
	}
	if r := c.Send(cabinettest.Command{Cmd: "press", Button: machine.BtnCashOut}); r.Refused != "refused_test_mode" {
		t.Fatalf("cash-out in test mode: %+v", r)
	}
	tableBet(t, c, "banker", 300)
	for range 3 {
		if hand := dealt(t, c); hand.StakedCents != 300 {
			t.Fatalf("test hand %+v", hand)
		}
	}
	c.Send(cabinettest.Command{Cmd: "select_game", Value: "reels"})
	for range 5 {
		if r := c.Send(cabinettest.Command{Cmd: "press", Button: machine.BtnSpin}); r.Refused != "" {
			t.Fatalf("test spin: %+v", r)
		}
		c.WaitIdle()
	}
	v := c.State()
	if v.Test == nil || v.Test.Played != 8 || v.Test.CreditsCents != machine.TestCredits-v.Test.BetCents+v.Test.WonCents {
		t.Fatalf("test meters on screen %+v", v.Test)
	}
	if got := meterRead(); !maps.Equal(got, before) {
		t.Fatalf("meters moved in test mode:\nbefore %v\nnow    %v", before, got)
	}

	c.Send(cabinettest.Command{Cmd: "pin", Role: machine.RoleTechnician, PIN: "830514"})
	if r := c.Send(cabinettest.Command{Cmd: "service", Action: machine.SvcTestLeave}); r.Refused != "" || r.View.Test != nil {
		t.Fatalf("leave test mode: %+v", r)
	}
	c.Send(cabinettest.Command{Cmd: "service", Action: machine.SvcLogout})
	c.Send(cabinettest.Command{Cmd: "key", Key: machine.KeyAttendant, On: false})
	v = c.State()
	if v.Test != nil || v.CreditsCents != 0 || v.GameKind != "makccarat" || v.Table.Hand == nil || v.Table.Hand.Game != realHand.Game {
		t.Fatalf("after test mode: test %+v credits %d game %s hand %+v", v.Test, v.CreditsCents, v.GameKind, v.Table.Hand)
	}
	if got := meterRead(); !maps.Equal(got, before) {
		t.Fatalf("meters after test mode:\nbefore %v\nafter  %v", before, got)
	}
	if got := sasRead(); !mapsEqualAll(got, sasBefore) {
		t.Fatalf("SAS 0x2F after test mode %v, before %v", got, sasBefore)
	}
	c.Stop()
	mustVerify(t, data, c.MachinePub())
}

func hardCaughtUp(m map[string]int64) bool {
	return m["hard meter_drop"] == m["total drop"]/100 && m["hard meter_coin_in"] == m["total coin in (bets)"]/100 &&
		m["hard meter_coin_out"] == m["total coin out (wins to credits)"]/100 && m["hard meter_games"] == m["games played"]
}

func mapsEqualAll(a, b []map[sas.MeterCode]uint64) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if !maps.Equal(a[i], b[i]) {
			return false
		}
	}
	return true
}

// A lab build (-tags lab) chooses the next test hand's cards, and the hand
// pays what the definition pays for them: the player's natural 9 against
// 5, 2 € on the player, paid 2 € back and 2 € less the 5 % commission.
func TestLabBuildChoosesTheTestOutcome(t *testing.T) {
	t.Parallel()
	lab := filepath.Join(binDir, "cabinet-lab")
	if out, err := exec.Command("go", "build", "-tags", "lab", "-o", lab, "../../cmd/cabinet").CombinedOutput(); err != nil {
		t.Fatalf("lab build: %v\n%s", err, out)
	}
	c := cabinettest.Start(t, lab, t.TempDir(), "--spin-time", "5ms", "--card-time", "5ms", "--jackpot", "off")
	defer c.Stop()
	if r := c.Send(cabinettest.Command{Cmd: "test_outcome", Value: "9H 2C KD 3S"}); r.Refused != "refused_not_test_mode" {
		t.Fatalf("a choice out of test mode: %+v", r)
	}
	enterTestMode(t, c, "830514")
	c.Send(cabinettest.Command{Cmd: "select_game", Value: "makccarat"})
	tableBet(t, c, "player", 200)
	if r := c.Send(cabinettest.Command{Cmd: "test_outcome", Value: "9H 2C KD 3S"}); r.Refused != "" || r.View.Test.Chosen != "9H 2C KD 3S" {
		t.Fatalf("choose the hand: %+v", r)
	}
	hand := dealt(t, c)
	if hand.Winner != "player" || hand.PaidCents != 390 || len(hand.Cards) != 4 || hand.Cards[0].String() != "9H" {
		t.Fatalf("chosen hand %+v", hand)
	}
	if v := c.State(); v.Test.CreditsCents != machine.TestCredits-200+390 {
		t.Fatalf("test credits %d", v.Test.CreditsCents)
	}
	if r := c.Send(cabinettest.Command{Cmd: "test_outcome", Value: "9H 2C KD"}); r.Refused != "refused_bad_outcome" {
		t.Fatalf("a hand the rules do not deal: %+v", r)
	}
}

// The production build refuses the lab tag: a cabinet that can choose
// outcomes can never be built for the floor.
func TestProductionBuildRefusesTheLabTag(t *testing.T) {
	out, err := exec.Command("go", "build", "-tags", "production lab", "-o", filepath.Join(t.TempDir(), "cabinet"), "../../cmd/cabinet").CombinedOutput()
	if err == nil || !strings.Contains(string(out), "labBuildIsNeverAProductionBuild") {
		t.Fatalf("production lab build: %v\n%s", err, out)
	}
}
