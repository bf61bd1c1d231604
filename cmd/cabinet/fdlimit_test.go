package main

import (
	"bufio"
	"encoding/json"
	"net"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/openegm/cabinet/internal/cabinettest"
	"github.com/openegm/cabinet/machine"
)

// Issue 23: with the process's open-file limit at 128, idle control-socket
// connections took every descriptor, and the hard-meter pulser could no
// longer open the file it writes each pulse to: a meter fault, persisting
// as a tilt, made by a local client. The cabinet runs here at that limit,
// more idle connections are opened than the socket serves, and it plays:
// the extra connections are refused with a line saying why, the meters
// (ledger and hard) count every note and game, with no fault and no tilt,
// and nothing in the cabinet ran out of descriptors (its log says none).
func TestIdleControlConnectionsCannotStarveTheMeters(t *testing.T) {
	t.Parallel()
	data := t.TempDir()
	// The cabinet under a shell that lowers its descriptor limit (soft and
	// hard) and execs it.
	wrapper := filepath.Join(t.TempDir(), "cabinet-128")
	script := "#!/bin/sh\nulimit -n 128 || exit 1\nexec " + filepath.Join(binDir, "cabinet") + " \"$@\"\n"
	if err := os.WriteFile(wrapper, []byte(script), 0o700); err != nil {
		t.Fatal(err)
	}
	// With SAS on: its exception queue is saved after each commit too.
	c := cabinettest.Start(t, wrapper, data, "--spin-time", "5ms", "--sas-addr", "1", "--sas-pty")
	defer c.Stop()
	t.Cleanup(func() {
		if t.Failed() {
			log, _ := os.ReadFile(filepath.Join(data, "cabinet.log"))
			if len(log) > 4000 {
				log = log[len(log)-4000:]
			}
			t.Logf("cabinet log (end):\n%s", log)
		}
	})
	if lim := descriptorLimit(t, c.Cmd.Process.Pid); lim != "128" {
		t.Fatalf("the cabinet's open-file limit is %s, want 128", lim)
	}

	// More idle connections than the limit leaves room for.
	var conns []net.Conn
	defer func() {
		for _, cn := range conns {
			cn.Close()
		}
	}()
	for range 140 {
		cn, err := net.Dial("unix", filepath.Join(data, "control.sock"))
		if err != nil {
			// The listen backlog is full while the cabinet waits for a
			// descriptor: as idle as it gets.
			break
		}
		conns = append(conns, cn)
	}

	c.Bill(2000)
	const games = 6
	for range games {
		if r := c.Send(cabinettest.Command{Cmd: "press", Button: machine.BtnSpin}); r.Refused != "" {
			t.Fatalf("spin refused: %s (view %+v)", r.Refused, r.View)
		}
		c.WaitIdle()
	}
	waitHardMeter(t, c, "meter_games", games, 60*time.Second)
	waitHardMeter(t, c, "meter_drop", 20, 60*time.Second)
	m := c.Send(cabinettest.Command{Cmd: "meters"}).Meters
	if m["games played"] != games || m["total drop"] != 2000 {
		t.Fatalf("ledger meters %v: want %d games, 2000 cents of drop", m, games)
	}
	if v := c.State(); len(v.Tilts) != 0 || v.Mode == "tilt" {
		t.Fatalf("mode %s, tilts %v with idle connections open", v.Mode, v.Tilts)
	}
	if log, _ := os.ReadFile(filepath.Join(data, "cabinet.log")); strings.Contains(string(log), "too many open files") {
		var lines []string
		for _, l := range strings.Split(string(log), "\n") {
			if strings.Contains(l, "too many open files") {
				lines = append(lines, l)
			}
		}
		t.Fatalf("the cabinet ran out of descriptors:\n%s", strings.Join(lines, "\n"))
	}

	fds, _ := os.ReadDir(filepath.Join("/proc", strconv.Itoa(c.Cmd.Process.Pid), "fd"))
	t.Logf("the cabinet holds %d descriptors with %d connections offered", len(fds), len(conns))

	// The connections beyond the bound were told why and closed.
	refused := 0
	for _, cn := range conns {
		cn.SetReadDeadline(time.Now().Add(100 * time.Millisecond))
		line, err := bufio.NewReader(cn).ReadBytes('\n')
		if err != nil {
			continue
		}
		var r cabinettest.Reply
		if json.Unmarshal(line, &r) == nil && strings.Contains(r.Error, "connection refused") {
			refused++
		}
	}
	if want := len(conns) - maxControlConns; refused < want {
		t.Fatalf("%d of %d idle connections refused with a reason, want at least %d", refused, len(conns), want)
	}
}

// descriptorLimit is the soft open-file limit of process pid.
func descriptorLimit(t *testing.T, pid int) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("/proc", strconv.Itoa(pid), "limits"))
	if err != nil {
		t.Fatal(err)
	}
	for _, l := range strings.Split(string(b), "\n") {
		if strings.HasPrefix(l, "Max open files") {
			if f := strings.Fields(l); len(f) >= 4 {
				return f[3]
			}
		}
	}
	t.Fatalf("no open-file limit in %s", b)
	return ""
}
