// Package cabinettest runs the real cabinet binary for end-to-end tests of
// the cabinet and of its peers (the link controller, SAS hosts): start it,
// drive it through its control socket, kill it. Test code only.
package cabinettest

import (
	"bufio"
	"encoding/json"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/openegm/cabinet/internal/control"
	"github.com/openegm/cabinet/machine"
	"github.com/openegm/cabinet/reels"
)

// Build compiles the named commands of the module (cmd/NAME) into dir; the
// test binary runs in its package's directory, so root is the path from it
// to the module root.
func Build(root, dir string, names ...string) error {
	for _, name := range names {
		args := []string{"build", "-o", filepath.Join(dir, name)}
		if Race {
			args = append(args, "-race")
		}
		out, err := exec.Command("go", append(args, filepath.Join(root, "cmd", name))...).CombinedOutput()
		if err != nil {
			return fmt.Errorf("build %s: %v\n%s", name, err, out)
		}
	}
	return nil
}

// PlainPassOnly skips t under the race detector unless RACE_ALL is set
// (make race-all), to keep make test within its time: for the end-to-end
// tests whose time goes to timers the cabinet must wait out (a host's
// 10 s, slow meter pulses) or to the restarts of kill loops, and for
// features whose goroutines another test already drives under the race
// pass (the AFT, SAS validation and poker seat tests each keep one). The
// plain pass runs them all.
func PlainPassOnly(t testing.TB) {
	t.Helper()
	if Race && os.Getenv("RACE_ALL") == "" {
		t.Skip("in the plain pass only (make race-all runs it under -race)")
	}
}

// Command and Reply are the control socket's lines.
type (
	Command = control.Command
	Reply   = control.Reply
)

// Cabinet is a running cabinet process.
type Cabinet struct {
	T    testing.TB
	Cmd  *exec.Cmd
	Data string
	Conn net.Conn
	Rd   *bufio.Reader
}

// Start runs bin (the cabinet binary) on data with args and waits until it
// has powered up.
func Start(t testing.TB, bin, data string, args ...string) *Cabinet {
	t.Helper()
	sock := filepath.Join(data, "control.sock")
	os.Remove(sock)
	cmd := exec.Command(bin, append([]string{"--data", data, "--machine-id", "EGM-TEST", "--machine-num", "7"}, args...)...)
	logf, _ := os.OpenFile(filepath.Join(data, "cabinet.log"), os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o600)
	cmd.Stdout, cmd.Stderr = logf, logf
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	c := &Cabinet{T: t, Cmd: cmd, Data: data}
	// A test that fails half way leaves no cabinet running.
	t.Cleanup(func() {
		if cmd.ProcessState == nil {
			cmd.Process.Kill()
			cmd.Wait()
		}
		if log, _ := os.ReadFile(filepath.Join(data, "cabinet.log")); strings.Contains(string(log), "WARNING: DATA RACE") {
			t.Errorf("the cabinet had a data race:\n%s", log)
		}
	})
	deadline := time.Now().Add(20 * time.Second)
	for {
		conn, err := net.Dial("unix", sock)
		if err == nil {
			c.Conn, c.Rd = conn, bufio.NewReader(conn)
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("control socket never came up: %v", err)
		}
		time.Sleep(20 * time.Millisecond)
	}
	for c.State().Mode == "starting" {
		time.Sleep(10 * time.Millisecond)
	}
	return c
}

// Send sends one command and fails the test if it is not OK.
func (c *Cabinet) Send(cmd Command) Reply {
	c.T.Helper()
	r, err := c.TrySend(cmd)
	if err != nil {
		c.T.Fatal(err)
	}
	if !r.OK {
		c.T.Fatalf("%+v: %s", cmd, r.Error)
	}
	return r
}

// TrySend sends one command and returns its reply, or the error of a
// socket that closed: a test that kills the cabinet while a command waits
// for its reply (the reply of a device command comes after the machine's
// step) decides what that means.
func (c *Cabinet) TrySend(cmd Command) (Reply, error) {
	var r Reply
	b, _ := json.Marshal(cmd)
	if _, err := c.Conn.Write(append(b, '\n')); err != nil {
		return r, err
	}
	line, err := c.Rd.ReadBytes('\n')
	if err != nil {
		return r, err
	}
	if err := json.Unmarshal(line, &r); err != nil {
		return r, fmt.Errorf("reply %q: %w", line, err)
	}
	return r, nil
}

// Bill offers a note until the machine credits it and returns the view
// then. A note offered while the machine is still starting (its validator
// not yet enabled) goes back, as on a real cabinet; a test that needs the
// credit offers it again, and fails if it is never credited.
func (c *Cabinet) Bill(cents int64) machine.View {
	c.T.Helper()
	before := c.State().CreditsCents
	for i := 0; ; i++ {
		v := *c.Send(Command{Cmd: "bill", Cents: cents}).View
		if v.CreditsCents == before+cents {
			return v
		}
		if i == 200 {
			c.T.Fatalf("a note of %d cents never credited: %+v", cents, v)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// State is the cabinet's view now.
func (c *Cabinet) State() machine.View { return *c.Send(Command{Cmd: "state"}).View }

// WaitIdle waits until the game on screen has ended. A game that draws
// free games plays each at the cabinet's spin time, with its presentations:
// fifteen of them at a test's 1.5 s spins took over 30 s (TestAFTOnTheCabinet
// under load), so the wait is a guard against a hang, longer than any game.
func (c *Cabinet) WaitIdle() machine.View {
	c.T.Helper()
	return c.waitFor("the game's end", 3*time.Minute, func(v machine.View) bool { return v.Mode != "spinning" && v.Mode != "dealing" })
}

// WaitFor polls the view until ok, failing after 30 s.
func (c *Cabinet) WaitFor(what string, ok func(machine.View) bool) machine.View {
	c.T.Helper()
	return c.waitFor(what, 30*time.Second, ok)
}

func (c *Cabinet) waitFor(what string, within time.Duration, ok func(machine.View) bool) machine.View {
	c.T.Helper()
	deadline := time.Now().Add(within)
	for {
		v := c.State()
		if ok(v) {
			return v
		}
		if time.Now().After(deadline) {
			c.T.Fatalf("waited in vain for %s: %+v", what, v)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// TurnKey turns the attendant key on and back off, as an attendant does;
// for a handpay, the attendant confirms on the screen the amount paid.
func (c *Cabinet) TurnKey(who string) Reply {
	r := c.Send(Command{Cmd: "key", Key: machine.KeyAttendant, On: true, Who: who})
	if r.View != nil && r.View.HandpayConfirm {
		r = c.Send(Command{Cmd: "handpay_paid", Cents: r.View.Handpay})
	}
	c.Send(Command{Cmd: "key", Key: machine.KeyAttendant, On: false})
	return r
}

// Board is the board directory of a cabinet started on data with the
// default --board: the machine key and the witness.
func Board(data string) string { return filepath.Clean(data) + ".board" }

// MachinePub is the machine's public key file, as registered at
// commissioning.
func (c *Cabinet) MachinePub() string { return filepath.Join(Board(c.Data), "machine.pub") }

// Stop ends the cabinet in order (SIGTERM).
func (c *Cabinet) Stop() {
	c.Conn.Close()
	c.Cmd.Process.Signal(syscall.SIGTERM)
	c.Cmd.Wait()
}

// Kill pulls the power cord (SIGKILL).
func (c *Cabinet) Kill() {
	c.Conn.Close()
	c.Cmd.Process.Signal(syscall.SIGKILL)
	c.Cmd.Wait()
}

// SASTTY is the stable name of the host end of the cabinet's SAS
// pseudo-terminal (a link to the one made at its last start).
func (c *Cabinet) SASTTY() string {
	c.SASPty()
	return filepath.Join(c.Data, "sas-tty")
}

// SASPty is the host end of the cabinet's SAS pseudo-terminal.
func (c *Cabinet) SASPty() string {
	c.T.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for {
		b, err := os.ReadFile(filepath.Join(c.Data, "sas-pty"))
		if err == nil {
			return strings.TrimSpace(string(b))
		}
		if time.Now().After(deadline) {
			c.T.Fatal("no sas-pty file")
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// ResignedPaytable is a new directory with dir's paytable id changed by edit
// and signed again with the development key (a lab issuing a new version).
func ResignedPaytable(t testing.TB, root, dir, id string, edit func([]byte) []byte) string {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(dir, id+".json"))
	if err != nil {
		t.Fatal(err)
	}
	out := t.TempDir()
	signInto(t, root, out, id, edit(data))
	return out
}

func signInto(t testing.TB, root, dir, id string, data []byte) {
	t.Helper()
	kd, err := os.ReadFile(filepath.Join(root, "assets", "keys", "dev-NOT-FOR-PRODUCTION.key"))
	if err != nil {
		t.Fatal(err)
	}
	priv, err := reels.ParsePrivateKey("dev key", kd)
	if err != nil {
		t.Fatal(err)
	}
	os.WriteFile(filepath.Join(dir, id+".json"), data, 0o644)
	os.WriteFile(filepath.Join(dir, id+".json.sig"), reels.Sign(priv, data), 0o644)
}

// LinkPaytableDir is a directory with the test paytable t-link (three
// one-row reels; the progressive combination, level 1, once in 64 spins at
// the top bet), signed with the development key as certification would
// sign it. root is the path to the module root.
func LinkPaytableDir(t testing.TB, root string) string {
	t.Helper()
	dir := t.TempDir()
	data, err := os.ReadFile(filepath.Join(root, "internal", "cabinettest", "testdata", "t-link.json"))
	if err != nil {
		t.Fatal(err)
	}
	signInto(t, root, dir, "t-link", data)
	return dir
}
