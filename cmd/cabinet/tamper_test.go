package main

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/openegm/cabinet/book"
	"github.com/openegm/cabinet/internal/cabinettest"
	"github.com/openegm/cabinet/machine"
	"github.com/openegm/cabinet/meters"
	"golang.org/x/crypto/blake2b"
)

// The attacks of someone holding the data directory, with the real
// binaries: each is evident to the cabinet (a tilt only a technician
// clears, naming what was found, with play refused) and to the inspector
// (meterread verify with the registered key says NOT VERIFIED).

func copyTree(t *testing.T, from, to string) {
	t.Helper()
	os.RemoveAll(to)
	if out, err := exec.Command("cp", "-a", from, to).CombinedOutput(); err != nil {
		t.Fatalf("cp: %v %s", err, out)
	}
}

func meterreadVerify(t *testing.T, data, pub string) string {
	t.Helper()
	out, _ := exec.Command(filepath.Join(binDir, "meterread"), "verify", data, "--pub", pub, "--lang", "en").CombinedOutput()
	return string(out)
}

// mustVerify: the inspector verifies the data directory with the key
// registered at commissioning (the board's), not with anything found in
// the data, and finds it whole.
func mustVerify(t *testing.T, data, pub string) {
	t.Helper()
	out, err := exec.Command(filepath.Join(binDir, "meterread"), "verify", data, "--pub", pub, "--lang", "en").CombinedOutput()
	if err != nil || !strings.HasPrefix(string(out), "VERIFIED") {
		t.Fatalf("meterread verify: %v\n%s", err, out)
	}
}

func tilted(v machine.View, tilt string) bool {
	return v.Mode == "tilt" && slices.Contains(v.Tilts, tilt)
}

// Add 1,000 euros to the newest snapshot's bills, credits and drop and
// recompute its checksum: the cabinet starts from the log instead, with
// the true credits, and tilts; the inspector's verify names the snapshot.
func TestForgedSnapshotIsEvidentToTheCabinetAndTheInspector(t *testing.T) {
	t.Parallel()
	data := t.TempDir()
	c := startCabinet(t, data, "--spin-time", "5ms")
	c.Bill(5000)
	c.Stop() // an orderly stop seals the meters and writes a snapshot
	ledger := filepath.Join(data, "ledger")
	var newest string
	var seq float64
	for i := range 2 {
		name := filepath.Join(ledger, "snapshot-"+strconv.Itoa(i))
		b, err := os.ReadFile(name)
		if err != nil {
			continue
		}
		var f map[string]any
		json.Unmarshal(b[32:], &f)
		if s, _ := f["seq"].(float64); s > seq {
			newest, seq = name, s
		}
	}
	if newest == "" {
		t.Fatal("no snapshot to forge")
	}
	b, _ := os.ReadFile(newest)
	var f map[string]json.RawMessage
	if err := json.Unmarshal(b[32:], &f); err != nil {
		t.Fatal(err)
	}
	var st meters.State
	if err := json.Unmarshal(f["state"], &st); err != nil {
		t.Fatal(err)
	}
	st.Meters[meters.BillsIn] += 100_000
	st.Meters[meters.Credits] += 100_000
	st.Meters[meters.TotalDrop] += 100_000
	f["state"], _ = json.Marshal(&st)
	body, _ := json.Marshal(f)
	sum := blake2b.Sum256(body)
	os.WriteFile(newest, append(sum[:], body...), 0o600)

	if out := meterreadVerify(t, data, cabinettest.Board(data)+"/machine.pub"); !strings.HasPrefix(out, "NOT VERIFIED") || !strings.Contains(out, "forged") {
		t.Fatalf("meterread verify on a forged snapshot:\n%s", out)
	}
	c = startCabinet(t, data, "--spin-time", "5ms")
	defer c.Stop()
	v := c.State()
	if !tilted(v, machine.TiltLedger) || v.CreditsCents != 5000 {
		t.Fatalf("after the forgery: mode %s, tilts %v, credits %d (the true 5000)", v.Mode, v.Tilts, v.CreditsCents)
	}
	if r := c.Send(cabinettest.Command{Cmd: "press", Button: machine.BtnCashOut}); r.Refused != "refused_tilt" {
		t.Fatalf("cash-out with the evidence standing: %q", r.Refused)
	}
}

// The history rewritten (the first bill €500 instead of €100) by someone
// who signs it with a key of his own (the machine's key is not in the data
// directory any more): the cabinet does not open it, the inspector's
// verify with the registered key says so.
func TestRewrittenLogIsRefused(t *testing.T) {
	t.Parallel()
	data := t.TempDir()
	c := startCabinet(t, data, "--spin-time", "5ms")
	c.Bill(10000)
	c.Stop()
	if entries, _ := os.ReadDir(filepath.Join(data, "ledger")); slices.ContainsFunc(entries, func(e os.DirEntry) bool {
		return strings.HasSuffix(e.Name(), ".key")
	}) {
		t.Fatal("a private key in the data directory")
	}
	// The attacker's copy of the history: every record re-read, the first
	// bill raised, written anew under his key.
	var recs []meters.Record
	meters.Records(filepath.Join(data, "ledger"), func(_ uint64, r meters.Record) error {
		if m, ok := r.(meters.MoneyIn); ok && m.Cents == 10000 {
			m.Cents = 50000
			r = m
		}
		recs = append(recs, r)
		return nil
	})
	forged := filepath.Join(t.TempDir(), "ledger")
	l, _, err := meters.Open(forged, meters.Options{Keys: book.FileKeys{Dir: t.TempDir()}})
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range recs {
		if e, ok := r.(meters.BillEscrow); ok && e.Cents == 10000 {
			e.Cents = 50000 // the order too, or the fold refuses the bill
			r = e
		}
		if err := l.Commit(r); err != nil {
			t.Fatalf("forging %v: %v", r.Type(), err)
		}
	}
	l.Close()
	copyTree(t, forged, filepath.Join(data, "ledger"))

	if out := meterreadVerify(t, data, cabinettest.Board(data)+"/machine.pub"); !strings.HasPrefix(out, "NOT VERIFIED") || !strings.Contains(out, "does not verify") {
		t.Fatalf("meterread verify on a log signed by another key:\n%s", out)
	}
	c = startCabinet(t, data, "--spin-time", "5ms")
	defer c.Stop()
	if v := c.State(); v.Mode != "meter_fault" || !strings.Contains(v.Fault+v.Message.Detail, "does not verify") || v.CreditsCents != 0 {
		t.Fatalf("the cabinet on a re-signed log: mode %s, fault %q, credits %d", v.Mode, v.Fault, v.CreditsCents)
	}
}

// The whole data directory replaced by an older copy of itself: the
// cabinet would come up with credits already cashed out; the board's
// witness makes it a rollback tilt naming both heads, and nothing is paid
// again. Then the ledger alone rolled back (the hard meters newer): the
// same, from the witness and from the hard meters.
func TestRollbackIsEvident(t *testing.T) {
	cabinettest.PlainPassOnly(t)
	t.Parallel()
	data := t.TempDir()
	c := startCabinet(t, data, "--spin-time", "5ms")
	c.Bill(5000)
	for range 2 {
		c.Send(cabinettest.Command{Cmd: "press", Button: machine.BtnSpin})
		c.WaitIdle()
	}
	c.Stop()
	old := filepath.Join(t.TempDir(), "old")
	copyTree(t, data, old)
	c = startCabinet(t, data, "--spin-time", "5ms")
	c.Send(cabinettest.Command{Cmd: "press", Button: machine.BtnCashOut})
	c.WaitFor("the ticket", func(v machine.View) bool { return v.Printing == "" && v.CreditsCents == 0 })
	c.Stop()
	// (The simulated printer's tray is in the data directory: rolled back
	// with it, it holds what the old copy held.)
	tickets := len(trayTickets(t, old))

	// The whole directory back to before the cash-out (the board stays).
	newer := filepath.Join(t.TempDir(), "newer")
	copyTree(t, data, newer)
	copyTree(t, old, data)
	c = startCabinet(t, data, "--spin-time", "5ms")
	v := c.State()
	if !tilted(v, machine.TiltRollback) || v.CreditsCents == 0 {
		t.Fatalf("whole-directory rollback: mode %s, tilts %v, credits %d", v.Mode, v.Tilts, v.CreditsCents)
	}
	if r := c.Send(cabinettest.Command{Cmd: "press", Button: machine.BtnCashOut}); r.Refused != "refused_tilt" {
		t.Fatalf("cash-out on rolled-back credits: %q", r.Refused)
	}
	if n := len(c.Send(cabinettest.Command{Cmd: "tickets"}).Tickets); n != tickets {
		t.Fatalf("%d tickets in the tray after the rollback, %d in the old copy: credits already cashed out were printed again", n, tickets)
	}
	c.Stop()
	st := readLedger(t, data)
	if !slices.ContainsFunc(st.Events, func(e meters.Event) bool {
		return e.Tilt == machine.TiltRollback && strings.Contains(e.Detail, "rollback") && strings.Contains(e.Detail, "record")
	}) {
		t.Fatal("the rollback tilt does not name the heads")
	}

	// Only the ledger rolled back; the hard meters and the devices newer.
	copyTree(t, newer, data)
	copyTree(t, filepath.Join(old, "ledger"), filepath.Join(data, "ledger"))
	c = startCabinet(t, data, "--spin-time", "5ms")
	defer c.Stop()
	if v := c.State(); !tilted(v, machine.TiltRollback) {
		t.Fatalf("ledger-only rollback: mode %s, tilts %v", v.Mode, v.Tilts)
	}
}

// A hard meter ahead of the ledger with no RAM clear is a rollback even
// without the witness (a witness wiped with the data, say): the ledger is
// older than what the meters show.
func TestHardMetersAheadOfTheLedger(t *testing.T) {
	t.Parallel()
	data := t.TempDir()
	c := startCabinet(t, data, "--spin-time", "5ms")
	c.Bill(5000)
	c.Stop()
	old := filepath.Join(t.TempDir(), "old")
	copyTree(t, filepath.Join(data, "ledger"), old)
	c = startCabinet(t, data, "--spin-time", "5ms")
	for range 3 {
		c.Send(cabinettest.Command{Cmd: "press", Button: machine.BtnSpin})
		c.WaitIdle()
	}
	c.WaitFor("the hard games meter", func(machine.View) bool {
		return c.Send(cabinettest.Command{Cmd: "meters"}).Meters["hard meter_games"] == 3
	})
	c.Stop()
	copyTree(t, old, filepath.Join(data, "ledger"))
	os.Remove(filepath.Join(cabinettest.Board(data), "witness"))
	c = startCabinet(t, data, "--spin-time", "5ms")
	defer c.Stop()
	v := c.WaitFor("the rollback tilt", func(v machine.View) bool { return tilted(v, machine.TiltRollback) })
	if !slices.Contains(v.Tilts, machine.TiltWitness) {
		t.Fatalf("the missing witness is not named: %v", v.Tilts)
	}
}

// The witness: missing (a new board) or far behind is a tilt for a
// technician, who clears it; a commit cut by a power loss before its
// witness write is not an alarm (the crash loops check that too).
func TestWitnessMissingOrBehind(t *testing.T) {
	cabinettest.PlainPassOnly(t)
	t.Parallel()
	data := t.TempDir()
	c := startCabinet(t, data, "--spin-time", "5ms")
	c.Stop()
	saved, err := os.ReadFile(filepath.Join(cabinettest.Board(data), "witness"))
	if err != nil {
		t.Fatal(err)
	}
	c = startCabinet(t, data, "--spin-time", "5ms")
	c.Bill(50000)
	for range 150 {
		c.Send(cabinettest.Command{Cmd: "press", Button: machine.BtnSpin})
		c.WaitIdle()
	}
	c.Stop()
	os.WriteFile(filepath.Join(cabinettest.Board(data), "witness"), saved, 0o600)
	c = startCabinet(t, data, "--spin-time", "5ms")
	if v := c.State(); !tilted(v, machine.TiltWitness) {
		t.Fatalf("a witness far behind: mode %s, tilts %v", v.Mode, v.Tilts)
	}
	technician(t, c)
	c.Send(cabinettest.Command{Cmd: "service", Action: machine.SvcClearTilt})
	c.Send(cabinettest.Command{Cmd: "service", Action: machine.SvcLogout})
	c.Send(cabinettest.Command{Cmd: "key", Key: machine.KeyAttendant, On: false})
	if v := c.State(); v.Mode != "idle" {
		t.Fatalf("after the technician: %s %v", v.Mode, v.Tilts)
	}
	c.Stop()
	// The witness caught up with the technician's records: no alarm now.
	c = startCabinet(t, data, "--spin-time", "5ms")
	defer c.Stop()
	if v := c.State(); v.Mode != "idle" {
		t.Fatalf("restart after the clear: %s %v", v.Mode, v.Tilts)
	}
}

// sashost --history keeps each machine's last meters: after the cabinet's
// meters went back (here a RAM clear; a rollback looks the same to a host),
// it says ALARM and exits 3.
func TestSashostHistorySeesMetersGoBack(t *testing.T) {
	t.Parallel()
	data := t.TempDir()
	c := startCabinet(t, data, "--sas-addr", "1", "--sas-pty", "--spin-time", "5ms")
	defer c.Stop()
	c.Bill(500)
	c.Send(cabinettest.Command{Cmd: "press", Button: machine.BtnSpin})
	c.WaitIdle()
	history := filepath.Join(t.TempDir(), "history.json")
	sashost := func() (int, string) {
		cmd := exec.Command(filepath.Join(binDir, "sashost"), "--pty", c.SASPty(), "--addr", "1", "--timeout", "2s", "meters", "--history", history)
		out, err := cmd.CombinedOutput()
		if ee, ok := err.(*exec.ExitError); ok {
			return ee.ExitCode(), string(out)
		}
		return 0, string(out)
	}
	if code, out := sashost(); code != 0 || strings.Contains(out, "ALARM") {
		t.Fatalf("first reading: %d %s", code, out)
	}
	c.Send(cabinettest.Command{Cmd: "press", Button: machine.BtnCashOut})
	c.WaitFor("the cash-out", func(v machine.View) bool { return v.CreditsCents == 0 && v.Printing == "" })
	technician(t, c)
	c.Send(cabinettest.Command{Cmd: "service", Action: machine.SvcRAMClear})
	c.Send(cabinettest.Command{Cmd: "service", Action: machine.SvcRAMClearConfirm, Value: "test"})
	c.Send(cabinettest.Command{Cmd: "service", Action: machine.SvcLogout})
	c.Send(cabinettest.Command{Cmd: "key", Key: machine.KeyAttendant, On: false})
	if code, out := sashost(); code != 3 || !strings.Contains(out, "ALARM: machine EGM-TEST meter 0000 (total coin in) went back") {
		t.Fatalf("after the meters went back: %d %s", code, out)
	}
}
