package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/openegm/cabinet/hw"
	"github.com/openegm/cabinet/internal/cabinettest"
	"github.com/openegm/cabinet/machine"
)

// hardMeter is what a simulated hard meter has counted (coil pulses seen).
func hardMeter(c *cabinet, meter string) int64 {
	return c.Send(cabinettest.Command{Cmd: "meters"}).Meters["hard "+meter]
}

// waitHardMeter waits until a hard meter shows want. Pulses are timed (on,
// off) by the meter driver; a loaded machine delivers them late, never
// wrong: the wait is generous, and a failure prints what the driver and the
// offsets say.
func waitHardMeter(t *testing.T, c *cabinet, meter string, want int64, limit time.Duration) {
	t.Helper()
	deadline := time.Now().Add(limit)
	for hardMeter(c, meter) != want {
		if time.Now().After(deadline) {
			offsets, _ := os.ReadFile(filepath.Join(c.Data, "hardmeters", offsetsFile))
			state, _ := os.ReadFile(filepath.Join(c.Data, "hardmeters", hw.StateFileName(meter)))
			v := c.State()
			t.Fatalf("hard %s %d, want %d; ledger %v; mode %s, tilts %v; offsets %s; pulser %s",
				meter, hardMeter(c, meter), want, c.Send(cabinettest.Command{Cmd: "meters"}).Meters, v.Mode, v.Tilts, offsets, state)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// ramClear has a technician clear the RAM (credits must be 0) and leave.
func ramClear(t *testing.T, c *cabinet) {
	t.Helper()
	c.Send(cabinettest.Command{Cmd: "key", Key: machine.KeyAttendant, On: true, Who: "tech"})
	c.Send(cabinettest.Command{Cmd: "pin", Role: machine.RoleTechnician, PIN: machine.DefaultPIN})
	c.Send(cabinettest.Command{Cmd: "service", Action: machine.SvcSetPIN, Value: "518273"})
	c.Send(cabinettest.Command{Cmd: "service", Action: machine.SvcRAMClear})
	if r := c.Send(cabinettest.Command{Cmd: "service", Action: machine.SvcRAMClearConfirm, Value: "test"}); r.Refused != "" {
		t.Fatalf("RAM clear: %s", r.Refused)
	}
	c.Send(cabinettest.Command{Cmd: "service", Action: machine.SvcLogout})
	c.Send(cabinettest.Command{Cmd: "key", Key: machine.KeyAttendant, On: false})
}

// slowMeterMapping writes the simulator's mapping with one meter pulsing as
// slowly as a mapping allows, so that its pulses are still owed seconds
// after the ledger counted them.
func slowMeterMapping(t *testing.T, meter string) string {
	t.Helper()
	m := hw.DefaultMapping()
	found := false
	for i := range m.Meters {
		if m.Meters[i].Name == meter {
			m.Meters[i].PulseMS, m.Meters[i].GapMS = 800, 800
			found = true
		}
	}
	if !found {
		t.Fatalf("no meter %s in the default mapping", meter)
	}
	b, err := json.Marshal(m)
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "mapping.json")
	if err := os.WriteFile(path, b, 0o600); err != nil {
		t.Fatal(err)
	}
	return path
}

// A RAM clear while a hard meter still owes pulses for counts the ledger
// made before it: the meter still delivers every one of them, then counts
// on. The offset was taken from what the meter showed at that instant, so
// the owed pulses were dropped, and a pulse the driver began between the
// reading and the new target left the meter ahead of its new target: a
// rollback tilt on the next commit.
func TestHardMeterOwedPulsesSurviveRAMClear(t *testing.T) {
	cabinettest.PlainPassOnly(t)
	t.Parallel()
	data := t.TempDir()
	c := startCabinet(t, data, "--spin-time", "5ms", "--hw", slowMeterMapping(t, "meter_drop"))
	defer c.Stop()
	c.Bill(500)
	c.Send(cabinettest.Command{Cmd: "press", Button: machine.BtnCashOut})
	c.WaitFor("the ticket", func(v machine.View) bool { return v.Printing == "" && v.CreditsCents == 0 })
	ramClear(t, c)
	if hardMeter(c, "meter_drop") == 5 {
		// Nine seconds of pulses were over before the clear: nothing was owed.
		t.Skip("the machine is too slow to clear the RAM while the drop meter pulses")
	}
	if m := c.Send(cabinettest.Command{Cmd: "meters"}).Meters; m["total drop"] != 0 {
		t.Fatalf("drop after the RAM clear %d", m["total drop"])
	}
	waitHardMeter(t, c, "meter_drop", 5, 60*time.Second)
	c.Bill(500)
	waitHardMeter(t, c, "meter_drop", 10, 60*time.Second)
	if v := c.State(); len(v.Tilts) != 0 {
		t.Fatalf("tilts after the RAM clear: %v", v.Tilts)
	}
}

// A new meter board (no pulser state, no offsets) on a ledger that was RAM
// cleared starts its hard meters at the ledger and counts on from there: the
// clear is older than the board, so there is nothing to carry over (taking
// it as a new one would carry the ledger's counts over twice).
func TestNewMeterBoardAfterRAMClear(t *testing.T) {
	t.Parallel()
	data := t.TempDir()
	c := startCabinet(t, data, "--spin-time", "5ms")
	c.Bill(500)
	c.Send(cabinettest.Command{Cmd: "press", Button: machine.BtnCashOut})
	c.WaitFor("the ticket", func(v machine.View) bool { return v.Printing == "" && v.CreditsCents == 0 })
	ramClear(t, c)
	c.Bill(500)
	for range 2 {
		c.Send(cabinettest.Command{Cmd: "press", Button: machine.BtnSpin})
		c.WaitIdle()
	}
	waitHardMeter(t, c, "meter_games", 2, 30*time.Second)
	c.Stop()
	if err := os.RemoveAll(filepath.Join(data, "hardmeters")); err != nil {
		t.Fatal(err)
	}
	c = startCabinet(t, data, "--spin-time", "5ms")
	defer c.Stop()
	c.Send(cabinettest.Command{Cmd: "press", Button: machine.BtnSpin})
	c.WaitIdle()
	waitHardMeter(t, c, "meter_games", 1, 30*time.Second)
	var f offsetsData
	if b, err := os.ReadFile(filepath.Join(data, "hardmeters", offsetsFile)); err != nil || json.Unmarshal(b, &f) != nil {
		t.Fatalf("offsets %s: %v", b, err)
	}
	if f.RAMClears != 1 || f.Offsets["meter_games"] != 0 {
		t.Fatalf("offsets %+v: want the board's start at the ledger after its one RAM clear", f)
	}
	if v := c.State(); len(v.Tilts) != 0 {
		t.Fatalf("tilts on the new board: %v", v.Tilts)
	}
}

// A press sent while the button's power-up level (up) is still on its way
// to the machine: the wait is for the press, not for that first report. It
// took the first report for the press, released the button within the
// debounce window, and the press was never seen (a cabinet test pressed
// spin right after a restart and waited 30 s for nothing).
func TestPressWaitsForThePressNotThePowerUpLevel(t *testing.T) {
	h := &hardware{processed: map[string]int{}, last: map[string]stepped{}, handled: map[string]bool{}}
	pressed := stepped{view: machine.View{CreditsCents: 2}}
	res, err := h.awaitLevel(func() error {
		// The power-up report (button up) is handled as the act sets
		// the pin; the press comes after it.
		h.handledInput(hw.Input{Name: machine.BtnSpin, Active: false}, stepped{view: machine.View{CreditsCents: 1}})
		go h.handledInput(hw.Input{Name: machine.BtnSpin, Active: true}, pressed)
		return nil
	}, machine.BtnSpin, true)
	if err != nil || res.view.CreditsCents != 2 {
		t.Fatalf("the wait answered %+v, %v: want the press's result", res, err)
	}
}
