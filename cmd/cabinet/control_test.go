package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/openegm/cabinet/internal/cabinettest"
	"github.com/openegm/cabinet/meters"
	"golang.org/x/sys/unix"
)

// rawLine sends one line on a new connection and returns the reply line.
func rawLine(t testing.TB, conn net.Conn, rd *bufio.Reader, line string) cabinettest.Reply {
	t.Helper()
	if _, err := conn.Write([]byte(line + "\n")); err != nil {
		t.Fatal(err)
	}
	b, err := rd.ReadBytes('\n')
	if err != nil {
		t.Fatalf("no reply to %.60q: %v", line, err)
	}
	var r cabinettest.Reply
	if err := json.Unmarshal(b, &r); err != nil {
		t.Fatal(err)
	}
	return r
}

func dial(t testing.TB, data string) (net.Conn, *bufio.Reader) {
	t.Helper()
	conn, err := net.Dial("unix", filepath.Join(data, "control.sock"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { conn.Close() })
	return conn, bufio.NewReader(conn)
}

// Each reply describes the command of the connection that sent it, however
// many connections insert notes at once.
func TestConcurrentRepliesGoToTheirOwnConnection(t *testing.T) {
	data := t.TempDir()
	c := startCabinet(t, data, "--spin-time", "5ms")
	defer c.Stop()
	const n = 40
	var wg sync.WaitGroup
	errs := make(chan string, n)
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			conn, rd := dial(t, data)
			cents := meters.BillValues[i%5]
			r := rawLine(t, conn, rd, fmt.Sprintf(`{"cmd":"bill","cents":%d}`, cents))
			m := r.View.Message
			if !r.OK || m.Key != "msg_bill_accepted" || len(m.Args) != 1 || m.Args[0] != cents {
				errs <- fmt.Sprintf("the reply to a %d-cent note says %+v (%s)", cents, m, r.Error)
			}
		}()
	}
	wg.Wait()
	close(errs)
	for e := range errs {
		t.Error(e)
	}
	var want int64
	for i := range n {
		want += meters.BillValues[i%5]
	}
	if got := c.State().CreditsCents; got != want {
		t.Fatalf("credits %d, want %d", got, want)
	}
}

// Command lines are parsed strictly, and a line over the limit gets an
// error line without losing the connection.
func TestControlLinesAreParsedStrictly(t *testing.T) {
	data := t.TempDir()
	c := startCabinet(t, data, "--spin-time", "5ms")
	defer c.Stop()
	conn, rd := dial(t, data)
	for line, want := range map[string]string{
		`{"cmd":"bill","cents":500,"cents":50000}`: "given twice",
		`{"cmd":"bill","cent":50000}`:              "unknown field",
		`{"cmd":"state"}{"cmd":"bill"}`:            "data after",
		strings.Repeat("x", 200_000):               "longer than",
	} {
		if r := rawLine(t, conn, rd, line); r.OK || !strings.Contains(r.Error, want) {
			t.Errorf("%.50s…: %+v, want an error with %q", line, r, want)
		}
	}
	if r := rawLine(t, conn, rd, `{"cmd":"state"}`); !r.OK || r.View.CreditsCents != 0 {
		t.Fatalf("after the bad lines: %+v", r)
	}
}

// Running out of file descriptors does not end the control socket: once
// descriptors are free again, a new connection is served.
func TestControlSocketOutlivesDescriptorExhaustion(t *testing.T) {
	t.Parallel()
	data := t.TempDir()
	c := startCabinet(t, data, "--spin-time", "5ms")
	defer c.Stop()
	pid := c.Cmd.Process.Pid
	fds, err := os.ReadDir(fmt.Sprintf("/proc/%d/fd", pid))
	if err != nil {
		t.Skipf("no /proc: %v", err)
	}
	var old unix.Rlimit
	if err := unix.Prlimit(pid, unix.RLIMIT_NOFILE, nil, &old); err != nil {
		t.Fatalf("prlimit: %v", err)
	}
	lim := unix.Rlimit{Cur: uint64(len(fds) + 4), Max: old.Max}
	if err := unix.Prlimit(pid, unix.RLIMIT_NOFILE, &lim, nil); err != nil {
		t.Fatalf("prlimit: %v", err)
	}
	var held []net.Conn
	for range 20 {
		conn, err := net.DialTimeout("unix", filepath.Join(data, "control.sock"), time.Second)
		if err != nil {
			break
		}
		held = append(held, conn)
	}
	time.Sleep(200 * time.Millisecond) // the cabinet meets EMFILE in accept
	for _, conn := range held {
		conn.Close()
	}
	if err := unix.Prlimit(pid, unix.RLIMIT_NOFILE, &old, nil); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(20 * time.Second)
	for {
		conn, err := net.DialTimeout("unix", filepath.Join(data, "control.sock"), time.Second)
		if err == nil {
			conn.SetDeadline(time.Now().Add(3 * time.Second))
			r, rerr := func() (cabinettest.Reply, error) {
				conn.Write([]byte(`{"cmd":"state"}` + "\n"))
				b, err := bufio.NewReader(conn).ReadBytes('\n')
				var r cabinettest.Reply
				if err == nil {
					err = json.Unmarshal(b, &r)
				}
				return r, err
			}()
			conn.Close()
			if rerr == nil && r.OK {
				break
			}
		}
		if time.Now().After(deadline) {
			t.Fatalf("the control socket no longer serves after EMFILE: %v", err)
		}
		time.Sleep(50 * time.Millisecond)
	}
	if log, _ := os.ReadFile(filepath.Join(data, "cabinet.log")); !strings.Contains(string(log), "too many open files") {
		t.Fatal("the descriptors never ran out: the test proved nothing")
	}
}

// A production build offers no simulator commands on its socket.
func TestProductionSocketHasNoSimulatorCommands(t *testing.T) {
	t.Parallel()
	bin := filepath.Join(t.TempDir(), "cabinet-production")
	if out, err := exec.Command("go", "build", "-tags", "production", "-o", bin, ".").CombinedOutput(); err != nil {
		t.Fatalf("build: %v\n%s", err, out)
	}
	data := t.TempDir()
	c := cabinettest.Start(t, bin, data)
	defer c.Stop()
	for _, cmd := range []string{`{"cmd":"bill","cents":50000}`, `{"cmd":"jam"}`,
		`{"cmd":"key","key":"attendant_key","on":true}`, `{"cmd":"door","door":"main","open":true}`} {
		if r := rawLine(t, c.Conn, c.Rd, cmd); r.OK || !strings.Contains(r.Error, "simulator command") {
			t.Errorf("%s on a production build: %+v", cmd, r)
		}
	}
	if v := c.State(); v.CreditsCents != 0 || v.DoorsOpen != nil {
		t.Fatalf("state %+v", v)
	}
	// The screen's PIN pad works on every cabinet (the key is off here).
	if r := rawLine(t, c.Conn, c.Rd, `{"cmd":"pin","role":"technician","pin":"0000"}`); !r.OK || r.Refused != "refused_key_off" {
		t.Fatalf("PIN pad on a production build: %+v", r)
	}
}
