package main

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/openegm/cabinet/internal/cabinettest"
	"github.com/openegm/cabinet/jackpot/ledger"
	"github.com/openegm/cabinet/machine"
)

// A line reused by another machine: the controller's line to cabinet
// EGM-A leads, after A is gone, to cabinet EGM-B (a pseudo-terminal path
// given to another cabinet). The controller asks who answers, records that
// it is not EGM-A, and broadcasts nothing on the line (B never sees a value
// and keeps the linked bet away) nor reads B's meters as A's. Once A is on
// the line again, it is served again. Before, the controller broadcast to
// whatever answered at the address.
func TestReusedLineServesOnlyItsCabinet(t *testing.T) {
	t.Parallel()
	args := []string{"--paytable-dir", cabinettest.LinkPaytableDir(t, "../.."), "--paytable", "t-link", "--jackpot", "off",
		"--sas-addr", "1", "--sas-pty", "--link-group", fmt.Sprint(group), "--link-levels", "1", "--spin-time", "5ms"}
	start := func(data, id string) *cabinettest.Cabinet {
		return cabinettest.Start(t, filepath.Join(binDir, "cabinet"), data, append(slices.Clone(args), "--machine-id", id)...)
	}
	dataA, dataB := t.TempDir(), t.TempDir()
	a, b := start(dataA, "EGM-A"), start(dataB, "EGM-B")
	defer b.Stop()
	line := filepath.Join(t.TempDir(), "line-0")
	point := func(c *cabinettest.Cabinet) {
		os.Remove(line + ".new")
		if err := os.Symlink(c.SASPty(), line+".new"); err != nil {
			t.Fatal(err)
		}
		if err := os.Rename(line+".new", line); err != nil {
			t.Fatal(err)
		}
	}
	point(a)
	cs := &casino{t: t, ctlData: t.TempDir(), config: filepath.Join(t.TempDir(), "linkctl.json")}
	cfg := fmt.Sprintf(`{"controller": "casino-test", "group": %d, "broadcast_ms": 200, "meter_ms": 300,
  "levels": [{"id": "mega", "sas_level": 1, "reset_cents": 100000, "rate_ppm": 50000, "second_hit": "wins-reset"}],
  "channels": [{"name": "line-0", "pty": %q, "cabinets": [{"id": "egm-a", "addr": 1, "levels": ["mega"], "serial": "EGM-A"}]}]}`, group, line)
	if err := os.WriteFile(cs.config, []byte(cfg), 0o600); err != nil {
		t.Fatal(err)
	}
	cs.startController()
	defer cs.stopController(syscall.SIGTERM)
	a.WaitFor("EGM-A served", func(v machine.View) bool {
		return len(v.Jackpots) == 1 && v.Jackpots[0].Cents >= 1000_00 && v.TopOffered == 1
	})
	play(t, a, 0, 10)
	gamesA := a.State().GamesPlayed
	var before ledger.Machine
	for deadline := time.Now().Add(30 * time.Second); before.GamesPlayed != uint64(gamesA); time.Sleep(100 * time.Millisecond) {
		if before, _ = ledgerState(t, cs.ctlData).Machine("egm-a"); time.Now().After(deadline) {
			t.Fatalf("the controller never read EGM-A's %d games: %+v", gamesA, before)
		}
	}

	// A goes; its line now leads to B.
	a.Kill()
	point(b)
	deadline := time.Now().Add(30 * time.Second)
	for {
		st := ledgerState(t, cs.ctlData)
		if slices.ContainsFunc(st.Events(), func(e ledger.Event) bool {
			return e.Code == ledger.EventIdentity && strings.Contains(e.Detail, `"EGM-B"`)
		}) {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("no identity event in the controller's ledger: %+v", st.Events())
		}
		time.Sleep(100 * time.Millisecond)
	}
	for range 3 { // B plays at the bet it may: the controller must not read it as A
		b.Bill(5000)
		b.Send(cabinettest.Command{Cmd: "press", Button: machine.BtnSpin})
		b.WaitIdle()
	}
	time.Sleep(time.Second)
	if v := b.State(); v.Jackpots[0].Cents != 0 || v.TopOffered != 0 {
		t.Fatalf("EGM-B, on EGM-A's line, got the linked value: %+v", v.Jackpots)
	}
	if m, _ := ledgerState(t, cs.ctlData).Machine("egm-a"); m.CoinIn != before.CoinIn || m.GamesPlayed != before.GamesPlayed {
		t.Fatalf("egm-a's readings moved while EGM-B answered: %+v, before %+v", m, before)
	}

	// A back on its line: served again.
	a = start(dataA, "EGM-A")
	defer a.Stop()
	point(a)
	a.WaitFor("EGM-A served again", func(v machine.View) bool { return v.Jackpots[0].Cents >= 1000_00 && !v.LinkDown && v.TopOffered == 1 })
}
