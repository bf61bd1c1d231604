package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/openegm/cabinet/internal/cabinettest"
	"github.com/openegm/cabinet/jackpot/ledger"
	"github.com/openegm/cabinet/machine"
)

// ramClear empties the cabinet's credits and RAM-clears it through the
// service menu, as a technician does.
func ramClear(t *testing.T, c *cabinettest.Cabinet) {
	t.Helper()
	if c.State().CreditsCents > 0 {
		c.Send(cabinettest.Command{Cmd: "press", Button: machine.BtnCashOut})
		c.WaitFor("the cash-out", func(v machine.View) bool { return v.CreditsCents == 0 && v.Printing == "" })
	}
	c.Send(cabinettest.Command{Cmd: "key", Key: machine.KeyAttendant, On: true, Who: "tech-1"})
	c.Send(cabinettest.Command{Cmd: "pin", Role: machine.RoleTechnician, PIN: machine.DefaultPIN})
	c.Send(cabinettest.Command{Cmd: "service", Action: machine.SvcSetPIN, Value: "582947"})
	c.Send(cabinettest.Command{Cmd: "service", Action: machine.SvcRAMClear})
	if r := c.Send(cabinettest.Command{Cmd: "service", Action: machine.SvcRAMClearConfirm, Value: "test"}); r.Refused != "" {
		t.Fatalf("RAM clear refused: %s", r.Refused)
	}
	c.Send(cabinettest.Command{Cmd: "service", Action: machine.SvcLogout})
	c.Send(cabinettest.Command{Cmd: "key", Key: machine.KeyAttendant, On: false})
}

// A cabinet's meters going back, as the link controller polls them: a RAM
// clear the cabinet reports (SAS 0x3A) is rebased and recorded as such; a
// cabinet whose data was rolled back (the meters lower, no RAM clear) is an
// alarm in the controller's ledger and log, and feeds nothing.
func TestControllerSeesMetersGoBack(t *testing.T) {
	t.Parallel()
	cs := newCasino(t, "wins-reset", "broadcast")
	for i := range 2 {
		cs.cabs[i].WaitFor("the linked value", func(v machine.View) bool { return v.TopOffered == 1 })
	}
	cs.play(0, 3)
	cs.play(1, 3)
	time.Sleep(800 * time.Millisecond) // readings after the games

	// Cabinet 0: a RAM clear.
	cs.cabs[0].WaitFor("no hit pending", func(v machine.View) bool { return len(v.Jackpots) == 0 || !v.Jackpots[0].Pending })
	ramClear(t, cs.cabs[0])

	// Cabinet 1: its data replaced by an older copy (the board kept: the
	// cabinet itself tilts; the controller must see it too).
	old := filepath.Join(t.TempDir(), "old")
	cs.cabs[1].Stop()
	if out, err := exec.Command("cp", "-a", cs.cabData[1], old).CombinedOutput(); err != nil {
		t.Fatal(err, string(out))
	}
	cs.cabs[1] = cabinettest.Start(t, filepath.Join(binDir, "cabinet"), cs.cabData[1], cs.cabArgs...)
	cs.cabs[1].WaitFor("the linked value", func(v machine.View) bool { return v.TopOffered == 1 })
	cs.play(1, 6)
	time.Sleep(800 * time.Millisecond)
	cs.cabs[1].Stop()
	if out, err := exec.Command("sh", "-c", "rm -rf "+cs.cabData[1]+" && cp -a "+old+" "+cs.cabData[1]).CombinedOutput(); err != nil {
		t.Fatal(err, string(out))
	}
	cs.cabs[1] = cabinettest.Start(t, filepath.Join(binDir, "cabinet"), cs.cabData[1], cs.cabArgs...)
	if v := cs.cabs[1].State(); !slices.Contains(v.Tilts, machine.TiltRollback) {
		t.Fatalf("the rolled-back cabinet: %s %v", v.Mode, v.Tilts)
	}
	// The controller polls on; the alarm waits a little for a RAM clear's
	// exception that does not come. Its log says when it is recorded.
	for deadline := time.Now().Add(90 * time.Second); ; time.Sleep(100 * time.Millisecond) {
		logb, _ := os.ReadFile(filepath.Join(cs.ctlData, "linkctl.log"))
		if strings.Contains(string(logb), "ALARM: a cabinet's meters went back") {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("no alarm in the controller's log:\n%s", logb)
		}
	}
	cs.stopController(9)

	st := ledgerState(t, cs.ctlData)
	m0, _ := st.Machine("egm-0")
	if m0.Rebases != 1 || m0.CoinIn != 0 {
		t.Fatalf("egm-0 after its RAM clear: %+v", m0)
	}
	var back []ledger.Event
	for _, e := range st.Events() {
		if e.Code == ledger.EventMeterBack {
			back = append(back, e)
		}
	}
	if len(back) != 1 || !strings.Contains(back[0].Detail, "egm-1") {
		t.Fatalf("meter-back alarms %+v, want one for egm-1", back)
	}
	if m1, _ := st.Machine("egm-1"); m1.Rebases != 0 {
		t.Fatalf("the rolled-back cabinet was rebased: %+v", m1)
	}
}
