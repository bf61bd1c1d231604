package main

import (
	"bufio"
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/openegm/cabinet/internal/cabinettest"
	"github.com/openegm/cabinet/machine"
	"github.com/openegm/cabinet/meters"
	"golang.org/x/sys/unix"
)

// trayTickets are the tickets the simulated printer laid in its tray, as
// they stay on paper across power losses.
func trayTickets(t testing.TB, data string) []machine.PrintTicket {
	t.Helper()
	f, err := os.Open(filepath.Join(data, "devices", "printed.jsonl"))
	if errors.Is(err, os.ErrNotExist) {
		return nil
	}
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []machine.PrintTicket
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		var p struct {
			Validation string `json:"validation"`
			Cents      int64  `json:"cents"`
			Reprint    bool   `json:"reprint"`
		}
		if json.Unmarshal(sc.Bytes(), &p) == nil {
			out = append(out, machine.PrintTicket{Validation: p.Validation, Cents: p.Cents, Reprint: p.Reprint})
		}
	}
	return out
}

// A ticket recorded but not yet printed when power is lost is printed again
// after power-up: same validation number, marked as a reprint on the ticket
// and in the event log, and counted once on the ticket meters.
func TestTicketLostAtPowerLossIsReprinted(t *testing.T) {
	t.Parallel()
	data := t.TempDir()
	var v string
	for attempt := 0; ; attempt++ {
		// A printer that takes a minute: the cord is pulled while it
		// prints however loaded the machine running the test is.
		c := startCabinet(t, data, "--spin-time", "5ms", "--sim-print-delay", "1m")
		c.Bill(2000)
		r := c.Send(cabinettest.Command{Cmd: "press", Button: machine.BtnCashOut})
		v = r.View.Printing
		c.Kill()
		if v == "" {
			t.Fatalf("no ticket printing after the cash-out: %+v", r.View)
		}
		if st := readLedger(t, data); st.PendingTicket != nil {
			break
		}
		if attempt == 5 {
			t.Fatal("the printer always confirmed before the kill; the power loss never fell in its window")
		}
	}
	c := startCabinet(t, data, "--spin-time", "5ms")
	c.WaitFor("the reprint", func(v machine.View) bool { return v.Printing == "" && v.Mode == "idle" })
	m := c.Send(cabinettest.Command{Cmd: "meters"}).Meters
	c.Stop()
	st := readLedger(t, data)
	if m[meters.Defs[meters.TicketsOut].Name] != 1 || st.Get(meters.TicketOut) != 2000 || st.PendingTicket != nil {
		t.Fatalf("after the reprint: %d tickets printed, ticket out %d, pending %+v", m[meters.Defs[meters.TicketsOut].Name], st.Get(meters.TicketOut), st.PendingTicket)
	}
	var copies, unmarked int
	for _, p := range trayTickets(t, data) {
		if p.Validation == v {
			copies++
			if !p.Reprint {
				unmarked++
			}
			if p.Cents != 2000 {
				t.Fatalf("copy of %s for %d cents", v, p.Cents)
			}
		}
	}
	if copies == 0 || unmarked > 1 || copies-unmarked < 1 {
		t.Fatalf("ticket %s: %d copies, %d not marked as a reprint", v, copies, unmarked)
	}
	if !slices.ContainsFunc(st.Events, func(e meters.Event) bool {
		return e.Code == meters.EventTicketReprint && strings.Contains(e.Detail, v)
	}) {
		t.Fatal("the reprint is not in the event log")
	}
}

// newestSegment is the size of the log file the ledger appends to.
func newestSegment(t testing.TB, data string) int64 {
	t.Helper()
	ents, err := os.ReadDir(filepath.Join(data, "ledger", "log"))
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range ents {
		if strings.Trim(e.Name(), "0123456789") == "" {
			names = append(names, e.Name()) // segments are numbered
		}
	}
	sort.Strings(names)
	fi, err := os.Stat(filepath.Join(data, "ledger", "log", names[len(names)-1]))
	if err != nil {
		t.Fatal(err)
	}
	return fi.Size()
}

// A failed commit is never shown, the bill acceptor goes off, a note in
// escrow goes back, and the fault survives a restart until a technician
// clears it. The write failure is real: the running cabinet's file size
// limit is lowered under the ledger's log.
func TestFailedCommitIsNotShownAndTheFaultIsKept(t *testing.T) {
	t.Parallel()
	data := t.TempDir()
	c := startCabinet(t, data, "--spin-time", "5ms")
	c.Bill(5000)
	limit := unix.Rlimit{Cur: uint64(newestSegment(t, data)), Max: uint64(newestSegment(t, data))}
	if err := unix.Prlimit(c.Cmd.Process.Pid, unix.RLIMIT_FSIZE, &limit, nil); err != nil {
		t.Fatalf("prlimit: %v", err)
	}
	// The note's stack order cannot be recorded: it goes back, and the
	// machine stops on what the ledger holds.
	r := c.Send(cabinettest.Command{Cmd: "bill", Cents: 2000})
	if r.View.Mode != "meter_fault" || r.View.CreditsCents != 5000 || r.View.Message.Key == "msg_bill_accepted" {
		t.Fatalf("after the failed commit the view shows mode %s, credits %d, message %+v", r.View.Mode, r.View.CreditsCents, r.View.Message)
	}
	if !strings.Contains(r.View.Message.Detail, "file too large") {
		t.Fatalf("the reason is not on screen: %+v", r.View.Message)
	}
	// No note is taken any more.
	if r := c.Send(cabinettest.Command{Cmd: "bill", Cents: 1000}); r.View.CreditsCents != 5000 {
		t.Fatalf("a note after the fault: credits %d", r.View.CreditsCents)
	}
	if r := c.Send(cabinettest.Command{Cmd: "press", Button: machine.BtnSpin}); r.Refused != "refused_meter_fault" || r.View.CreditsCents != 5000 {
		t.Fatalf("spin after the fault: %q, credits %d", r.Refused, r.View.CreditsCents)
	}
	c.Kill()
	st := readLedger(t, data)
	if st.Get(meters.BillsIn) != 5000 || st.PendingBill != nil {
		t.Fatalf("ledger: bills in %d, pending %+v", st.Get(meters.BillsIn), st.PendingBill)
	}

	// The disk works again: the fault is a tilt, kept across restarts,
	// that the attendant's key does not clear and a technician does.
	for range 2 {
		c = startCabinet(t, data, "--spin-time", "5ms")
		v := c.State()
		if v.Mode != "tilt" || !slices.Contains(v.Tilts, machine.TiltMeter) || v.CreditsCents != 5000 {
			t.Fatalf("after the restart: mode %s, tilts %v, credits %d", v.Mode, v.Tilts, v.CreditsCents)
		}
		c.TurnKey("att-1")
		if v := c.State(); !slices.Contains(v.Tilts, machine.TiltMeter) {
			t.Fatal("the attendant's key cleared a meter fault")
		}
		c.Stop()
	}
	st = readLedger(t, data)
	if !slices.ContainsFunc(st.Events, func(e meters.Event) bool {
		return e.Code == meters.EventTilt && e.Tilt == machine.TiltMeter && strings.Contains(e.Detail, "file too large")
	}) {
		t.Fatal("the fault's reason is not in the ledger")
	}
	c = startCabinet(t, data, "--spin-time", "5ms")
	defer c.Stop()
	technician(t, c)
	c.Send(cabinettest.Command{Cmd: "service", Action: machine.SvcClearTilt})
	c.Send(cabinettest.Command{Cmd: "service", Action: machine.SvcLogout})
	c.Send(cabinettest.Command{Cmd: "key", Key: machine.KeyAttendant, On: false})
	if v := c.State(); v.Mode != "idle" || v.CreditsCents != 5000 {
		t.Fatalf("after the technician: mode %s, credits %d", v.Mode, v.CreditsCents)
	}
}

// technician logs a technician in (changing the default PIN if needed).
func technician(t *testing.T, c *cabinet) {
	t.Helper()
	c.Send(cabinettest.Command{Cmd: "key", Key: machine.KeyAttendant, On: true, Who: "tech-1"})
	r := c.Send(cabinettest.Command{Cmd: "pin", Role: machine.RoleTechnician, PIN: machine.DefaultPIN})
	if r.Refused == "refused_wrong_pin" {
		c.Send(cabinettest.Command{Cmd: "pin", Role: machine.RoleTechnician, PIN: "582947"})
		return
	}
	if r := c.Send(cabinettest.Command{Cmd: "service", Action: machine.SvcSetPIN, Value: "582947"}); r.Refused != "" {
		t.Fatalf("set PIN: %s", r.Refused)
	}
}

// A restart on a disk that is still full stays up, and the first write that
// needs a block the disk no longer has is a meter fault with the reason on
// screen (it used to exit on the first hard-meter write). The state files
// are kept open and rewritten in place and the log's last block may have
// room, so the fault may come at a later commit than the first: the test
// plays until it comes. Needs a small tmpfs, so it runs as root (as CI
// does).
func TestRestartOnAFullDiskStaysUpInMeterFault(t *testing.T) {
	t.Parallel()
	mnt := t.TempDir()
	if err := syscall.Mount("tmpfs", mnt, "tmpfs", 0, "size=4m"); err != nil {
		t.Skipf("cannot mount a small tmpfs to fill (%v): needs root", err)
	}
	defer syscall.Unmount(mnt, syscall.MNT_DETACH)
	data := filepath.Join(mnt, "data")
	c := startCabinet(t, data, "--spin-time", "5ms")
	c.Bill(5000)
	c.Send(cabinettest.Command{Cmd: "press", Button: machine.BtnSpin})
	c.WaitIdle()
	c.Kill() // a pulse in flight, if any, must be written back at start
	fill := filepath.Join(mnt, "filler")
	if out, err := exec.Command("dd", "if=/dev/zero", "of="+fill, "bs=4k").CombinedOutput(); err == nil {
		t.Fatalf("the disk did not fill: %s", out)
	}
	c = startCabinet(t, data, "--spin-time", "5ms")
	v := c.State()
	for i := 0; v.Mode == "idle" && i < 200; i++ {
		c.Send(cabinettest.Command{Cmd: "press", Button: machine.BtnSpin})
		v = c.WaitFor("the spin's end or the fault", func(v machine.View) bool { return v.Mode == "idle" || v.Mode == "meter_fault" })
	}
	if v.Mode != "meter_fault" || !strings.Contains(v.Fault+v.Message.Detail, "no space left") {
		t.Fatalf("on a full disk: mode %s, credits %d, fault %q, message %+v", v.Mode, v.CreditsCents, v.Fault, v.Message)
	}
	if r := c.Send(cabinettest.Command{Cmd: "bill", Cents: 1000}); r.View.CreditsCents != v.CreditsCents {
		t.Fatal("a note was taken on a full disk")
	}
	c.Kill()
	os.Remove(fill)
	credits := readLedger(t, data).Meters[meters.Credits]
	c = startCabinet(t, data, "--spin-time", "5ms")
	defer c.Stop()
	if v := c.State(); v.Mode != "tilt" || !slices.Contains(v.Tilts, machine.TiltMeter) || v.CreditsCents != credits {
		t.Fatalf("with space again: mode %s, tilts %v, credits %d (the ledger's %d)", v.Mode, v.Tilts, v.CreditsCents, credits)
	}
}

// run starts the cabinet binary and waits for it to exit (a refused
// configuration must not start at all).
func runRefused(t *testing.T, data string, args ...string) string {
	t.Helper()
	cmd := exec.Command(filepath.Join(binDir, "cabinet"), append([]string{"--data", data}, args...)...)
	done := make(chan struct{})
	var out []byte
	var err error
	go func() { out, err = cmd.CombinedOutput(); close(done) }()
	select {
	case <-done:
	case <-time.After(30 * time.Second):
		cmd.Process.Kill()
		t.Fatalf("%v: still running, want a refusal", args)
	}
	var ee *exec.ExitError
	if !errors.As(err, &ee) || ee.ExitCode() == 0 {
		t.Fatalf("%v: exit %v, want a refusal\n%s", args, err, out)
	}
	return string(out)
}

// Start-up values that break the machine are refused with a clear error
// before anything starts; a PIN file with absurd argon2 costs too.
func TestStartUpConfigurationIsValidated(t *testing.T) {
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"--denom", "0"}, "--denom"},
		{[]string{"--handpay-limit", "0"}, "--handpay-limit"},
		{[]string{"--handpay-limit", "-5"}, "--handpay-limit"},
		{[]string{"--machine-num", "10000"}, "--machine-num"},
		{[]string{"--spin-time", "0s"}, "--spin-time"},
		{[]string{"--paytable", "../etc/passwd"}, "--paytable"},
		{[]string{"--aft-asset", "5"}, "--aft-asset"},
		{[]string{"--aft-asset", "4294967296", "--sas-addr", "1", "--sas-pty"}, "-aft-asset: strconv.ParseUint"},
		{[]string{"--aft-asset", "5", "--aft-limit", "0", "--sas-addr", "1", "--sas-pty"}, "--aft-limit"},
		{[]string{"--aft-debit"}, "--aft-debit"},
	} {
		if out := runRefused(t, t.TempDir(), c.args...); !strings.Contains(out, c.want) {
			t.Errorf("%v: the refusal does not name %s:\n%s", c.args, c.want, out)
		}
	}
	for _, h := range []string{
		"$argon2id$v=19$m=19456,t=0,p=1$c2FsdHNhbHRzYWx0$a2V5a2V5a2V5a2V5a2V5a2V5a2V5a2V5",
		"$argon2id$v=19$m=4294967295,t=2,p=1$c2FsdHNhbHRzYWx0$a2V5a2V5a2V5a2V5a2V5a2V5a2V5a2V5",
	} {
		data := t.TempDir()
		b, _ := json.Marshal(map[string]string{"technician": h})
		os.WriteFile(filepath.Join(data, "pins.json"), b, 0o600)
		if out := runRefused(t, data); !strings.Contains(out, `PIN of role \"technician\"`) && !strings.Contains(out, `PIN of role "technician"`) {
			t.Errorf("pins.json with %s: %s", h, out)
		}
	}
}

// The paytable the operator named is the one played: a different signed
// table copied under its name is refused, naming both; a new version of
// the same table plays only when it is configured.
func TestConfiguredPaytableIsEnforced(t *testing.T) {
	cabinettest.PlainPassOnly(t)
	t.Parallel()
	dir := t.TempDir()
	copyFile := func(from, to string) {
		b, err := os.ReadFile(filepath.Join("../../assets/paytables", from))
		if err != nil {
			t.Fatal(err)
		}
		os.WriteFile(filepath.Join(dir, to), b, 0o644)
	}
	copyFile("lusitania-96.json", "lusitania-92.json")
	copyFile("lusitania-96.json.sig", "lusitania-92.json.sig")
	data := t.TempDir()
	c := startCabinet(t, data, "--paytable-dir", dir, "--paytable", "lusitania-92")
	v := c.State()
	c.Stop()
	if v.Mode != "tilt" || !slices.Contains(v.Tilts, machine.TiltPaytable) || v.Paytable != "" {
		t.Fatalf("a lusitania-96 file under the name lusitania-92: mode %s, tilts %v, paytable %q", v.Mode, v.Tilts, v.Paytable)
	}
	st := readLedger(t, data)
	if !slices.ContainsFunc(st.Events, func(e meters.Event) bool {
		return e.Tilt == machine.TiltPaytable && strings.Contains(e.Detail, `"lusitania-92"`) && strings.Contains(e.Detail, `"lusitania-96"`)
	}) {
		t.Fatalf("the tilt does not name both paytables: %+v", st.Events)
	}

	// Version: t-link version 1 is installed; a signed version 2 under the
	// same name is refused until the operator configures it.
	links := cabinettest.LinkPaytableDir(t, "../..")
	data = t.TempDir()
	c = startCabinet(t, data, "--paytable-dir", links, "--paytable", "t-link")
	if v := c.State(); v.Mode != "idle" {
		t.Fatalf("t-link version 1: %s", v.Mode)
	}
	c.Stop()
	v2 := cabinettest.ResignedPaytable(t, "../..", links, "t-link", func(b []byte) []byte {
		return []byte(strings.Replace(string(b), `"version": 1`, `"version": 2`, 1))
	})
	c = startCabinet(t, data, "--paytable-dir", v2, "--paytable", "t-link")
	if v := c.State(); v.Mode != "tilt" || !slices.Contains(v.Tilts, machine.TiltPaytable) {
		t.Fatalf("unconfigured version 2: %s %v", v.Mode, v.Tilts)
	}
	c.Stop()
	c = startCabinet(t, data, "--paytable-dir", v2, "--paytable", "t-link", "--paytable-version", "2")
	if v := c.State(); v.Mode != "idle" || v.Paytable != "t-link" {
		t.Fatalf("configured version 2: %s %v", v.Mode, v.Tilts)
	}
	c.Stop()
	st = readLedger(t, data)
	if st.Settings[machine.SettingPaytableVersion] != "2" || st.CommandLine[machine.SettingPaytableVersion] != "2" {
		t.Fatalf("the new version is not recorded: %v", st.Settings)
	}
}
