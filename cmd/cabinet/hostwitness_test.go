package main

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/openegm/cabinet/internal/cabinettest"
	"github.com/openegm/cabinet/machine"
)

// Issue 23: the casino's host is the witness nobody at the cabinet can roll
// back. The cabinet's data directory and its board (witness and machine
// key) are copied, it plays on while the host reads its meters, then both
// copies are put back: the cabinet cannot tell (its witness agrees with
// its ledger) and plays, but the host's next reading of the same machine
// finds its meters lower than its last one: an alarm naming the machine,
// the meter, the old and the new value, printed (exit status 3) and
// recorded in the host's own alarm file, where it stays after later
// readings.
func TestHostSeesDataAndBoardRolledBackTogether(t *testing.T) {
	cabinettest.PlainPassOnly(t)
	t.Parallel()
	data := t.TempDir()
	board := cabinettest.Board(data)
	args := []string{"--sas-addr", "1", "--sas-pty", "--spin-time", "5ms"}
	history := filepath.Join(t.TempDir(), "host-history.json")
	sashost := func(c *cabinet) (int, string, uint64) {
		t.Helper()
		out, err := exec.Command(filepath.Join(binDir, "sashost"), "--pty", c.SASPty(), "--addr", "1", "--timeout", "2s",
			"--json", "meters", "--history", history).CombinedOutput()
		code := 0
		if ee, ok := err.(*exec.ExitError); ok {
			code = ee.ExitCode()
		} else if err != nil {
			t.Fatalf("sashost: %v %s", err, out)
		}
		var res struct {
			Meters []struct {
				Code  uint16 `json:"code"`
				Value uint64 `json:"value"`
			} `json:"meters"`
		}
		first, _, _ := strings.Cut(string(out), "\n")
		if err := json.Unmarshal([]byte(first), &res); err != nil {
			t.Fatalf("sashost output: %v\n%s", err, out)
		}
		for _, m := range res.Meters {
			if m.Code == 0 {
				return code, string(out), m.Value
			}
		}
		t.Fatalf("no total coin in (0000) in\n%s", out)
		return 0, "", 0
	}
	play := func(c *cabinet, games int) {
		t.Helper()
		c.Bill(1000)
		for range games {
			if r := c.Send(cabinettest.Command{Cmd: "press", Button: machine.BtnSpin}); r.Refused != "" {
				t.Fatalf("spin refused: %s", r.Refused)
			}
			c.WaitIdle()
		}
	}

	c := startCabinet(t, data, args...)
	play(c, 2)
	if code, out, _ := sashost(c); code != 0 || strings.Contains(out, "ALARM") {
		t.Fatalf("first reading: %d %s", code, out)
	}
	c.Stop()
	// The copies: data directory and board, as one who has both.
	saved := t.TempDir()
	copyTree(t, data, filepath.Join(saved, "data"))
	copyTree(t, board, filepath.Join(saved, "board"))

	c = startCabinet(t, data, args...)
	_, _, before := sashost(c) // what the copies hold
	play(c, 5)
	code, out, after := sashost(c)
	if code != 0 || after <= before {
		t.Fatalf("reading after play: coin in %d then %d, exit %d\n%s", before, after, code, out)
	}
	c.Stop()

	// Both put back.
	copyTree(t, filepath.Join(saved, "data"), data)
	copyTree(t, filepath.Join(saved, "board"), board)
	c = startCabinet(t, data, args...)
	defer c.Stop()
	if v := c.State(); v.Mode == "tilt" || len(v.Tilts) != 0 {
		t.Fatalf("the cabinet noticed the rollback (the test assumes it cannot): %s %v", v.Mode, v.Tilts)
	}
	code, out, now := sashost(c)
	if now != before {
		t.Fatalf("coin in after the restore %d, want the copy's %d", now, before)
	}
	want := fmt.Sprintf("ALARM: machine EGM-TEST meter 0000 (total coin in) went back from %d to %d", after, before)
	if code != 3 || !strings.Contains(out, want) {
		t.Fatalf("the host's reading after the restore: exit %d, want 3 and %q:\n%s", code, want, out)
	}
	// The alarm is the host's record, not only a line on a screen: a later
	// reading (no alarm, the meters only rise from here) leaves it there.
	play(c, 1)
	if code, out, _ := sashost(c); code != 0 {
		t.Fatalf("reading after the alarm: %d %s", code, out)
	}
	rec, err := os.ReadFile(history + ".alarms")
	if err != nil {
		t.Fatalf("the host keeps no record of the alarm: %v", err)
	}
	wantRec := fmt.Sprintf(`"machine":"EGM-TEST","code":"0000","name":"total coin in","old":%d,"new":%d`, after, before)
	if !strings.Contains(string(rec), wantRec) {
		t.Fatalf("the host's alarm record lacks %s:\n%s", wantRec, rec)
	}
}
