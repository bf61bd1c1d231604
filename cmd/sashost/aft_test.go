package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/openegm/cabinet/aft"
	"github.com/openegm/cabinet/aft/aftsim"
	"github.com/openegm/cabinet/internal/cabinettest"
	"github.com/openegm/cabinet/sas"
)

func serveAFT(t *testing.T) (*aftsim.Machine, string) {
	t.Helper()
	return serveAFTWith(t, aft.Config{Asset: 777, TransferLimit: 100_000, RequireRegistration: true, InHouse: true, Bonus: true, PartialToHost: true})
}

func serveAFTWith(t *testing.T, cfg aft.Config) (*aftsim.Machine, string) {
	t.Helper()
	p, err := sas.OpenPTY(sas.ModeContent)
	if err != nil {
		t.Skipf("no pseudo-terminal: %v", err)
	}
	m := aftsim.New(addr, cfg, 200_000, time.Date(2026, 6, 1, 9, 0, 0, 0, time.UTC))
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- m.Serve(ctx, p) }()
	t.Cleanup(func() {
		cancel()
		if err := <-done; err != nil {
			t.Errorf("aftsim: %v", err)
		}
		p.Close()
	})
	return m, p.HostPath()
}

var (
	buildOnce sync.Once
	binPath   string
	buildErr  error
)

// sashostBinary builds the real command once for the tests that run it
// as its own process, as a host's operator does.
func sashostBinary(t *testing.T) string {
	t.Helper()
	buildOnce.Do(func() {
		dir, err := os.MkdirTemp("", "sashost-bin-")
		if err != nil {
			buildErr = err
			return
		}
		binPath, buildErr = filepath.Join(dir, "sashost"), cabinettest.Build("../..", dir, "sashost")
	})
	if buildErr != nil {
		t.Fatal(buildErr)
	}
	return binPath
}

func TestMain(m *testing.M) {
	code := m.Run()
	if binPath != "" {
		os.RemoveAll(filepath.Dir(binPath))
	}
	os.Exit(code)
}

// execSashost runs the sashost binary and returns its stdout, stderr and
// exit status.
func execSashost(t *testing.T, args ...string) (string, string, int) {
	t.Helper()
	var out, errb bytes.Buffer
	cmd := exec.Command(sashostBinary(t), args...)
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	var ee *exec.ExitError
	switch {
	case errors.As(err, &ee):
		return out.String(), errb.String(), ee.ExitCode()
	case err != nil:
		t.Fatalf("sashost %q: %v", args, err)
	}
	return out.String(), errb.String(), 0
}

func TestSashostAFT(t *testing.T) {
	m, path := serveAFT(t)
	key := strings.Repeat("AB", 20)
	// A patient host: on a loaded machine the simulated machine can take
	// longer than SAS allows to answer.
	base := []string{"--pty", path, "--addr", "3", "--timeout", "2s"}
	run := func(args ...string) (string, string, int) {
		t.Helper()
		return execSashost(t, append(append([]string{}, base...), args...)...)
	}
	out, errs, code := run("aft", "register", "asset=777", "key="+key, "pos=5")
	if code != 0 || !strings.Contains(out, "asset 777: registered") || !strings.Contains(out, "POS ID 5") {
		t.Fatalf("register: %d %q %q", code, out, errs)
	}
	out, errs, code = run("--json", "aft", "transfer", "in", "id=T-1", "asset=777", "key="+key, "cashable=2500", "nonrestricted=100")
	var r aft.TransferReply
	if code != 0 || json.Unmarshal([]byte(out), &r) != nil || r.Status != aft.StatusFull || r.Total() != 2600 || r.Position != 1 {
		t.Fatalf("transfer in: %d %q %q", code, out, errs)
	}
	// The same transfer again: answered from the record, nothing moves.
	out, _, code = run("--json", "aft", "transfer", "in", "id=T-1", "asset=777", "key="+key, "cashable=2500", "nonrestricted=100")
	var again aft.TransferReply
	if code != 0 || json.Unmarshal([]byte(out), &again) != nil || again.Position != 1 || m.Credits().Total() != 2600 {
		t.Fatalf("repeat: %d %q credits %+v", code, out, m.Credits())
	}
	out, errs, code = run("aft", "status")
	if code != 0 || !strings.Contains(out, "asset 777: not locked") || !strings.Contains(out, "cashable 2500, restricted 0, non-restricted 100 cents") {
		t.Fatalf("status: %d %q %q", code, out, errs)
	}
	out, errs, code = run("aft", "lock", "timeout=5000", "conditions=out")
	if code != 0 || !strings.Contains(out, "asset 777: locked") {
		t.Fatalf("lock: %d %q %q", code, out, errs)
	}
	out, errs, code = run("aft", "transfer", "out", "partial", "locked", "id=T-2", "asset=777", "key="+key, "cashable=9999", "nonrestricted=9999")
	if code != 0 || !strings.Contains(out, `"T-2" in-house to host, 01 partial transfer successful: cashable 2500, restricted 0, non-restricted 100`) {
		t.Fatalf("transfer out: %d %q %q", code, out, errs)
	}
	// A refusal: printed, and exit status 1.
	out, errs, code = run("aft", "transfer", "out", "id=T-3", "asset=777", "key="+key, "cashable=1")
	if code != 1 || !strings.Contains(out, "83 not a valid transfer amount") || !strings.Contains(errs, `transfer "T-3"`) {
		t.Fatalf("refused transfer: %d %q %q", code, out, errs)
	}
	out, errs, code = run("aft", "history")
	if code != 0 || strings.Count(out, "position") != 2 || strings.Index(out, `"T-2"`) > strings.Index(out, `"T-1"`) {
		t.Fatalf("history: %d %q %q", code, out, errs)
	}
	out, _, code = run("aft", "interrogate", "index=0x01")
	if code != 0 || !strings.Contains(out, `position 1: "T-1"`) {
		t.Fatalf("interrogate: %d %q", code, out)
	}

	// A transfer lost to a power loss before the machine recorded it: the
	// host is told it did not happen, the machine's current transfer is
	// another, its history does not have it, and the same ID runs once.
	m.PowerLossNext()
	out, errs, code = run("aft", "transfer", "in", "id=T-4", "asset=777", "key="+key, "cashable=1000")
	if code != 1 || !strings.Contains(errs, `current AFT transfer is another one: "T-2", not "T-4"`) ||
		!strings.Contains(errs, "nothing moved: send it again under id=T-4") {
		t.Fatalf("lost transfer: %d %q %q", code, out, errs)
	}
	out, errs, code = run("aft", "interrogate")
	if code != 0 || !strings.Contains(out, `position 2: "T-2"`) {
		t.Fatalf("current after the loss: %d %q %q", code, out, errs)
	}
	out, errs, code = run("aft", "interrogate", "id=T-4")
	if code != 1 || out != "" || !strings.Contains(errs, `no AFT transfer under that transaction ID "T-4" (2 in its history): it did not happen, nothing moved`) {
		t.Fatalf("interrogate the lost transfer: %d %q %q", code, out, errs)
	}
	if c := m.Credits(); c.Total() != 0 {
		t.Fatalf("a lost transfer moved credits: %+v", c)
	}
	out, errs, code = run("aft", "transfer", "in", "id=T-4", "asset=777", "key="+key, "cashable=1000")
	if code != 0 || !strings.Contains(out, `position 3: "T-4" in-house to machine, 00 full transfer successful: cashable 1000`) {
		t.Fatalf("the lost transfer again: %d %q %q", code, out, errs)
	}

	// The host gives up while the transfer is still pending (its result
	// unknown to it): it reads the outcome back by the ID, and the
	// transfer happened once.
	out, errs, code = run("aft", "transfer", "in", "id=T-5", "asset=777", "key="+key, "cashable=300", "wait=1ns")
	if code != 1 || !strings.Contains(errs, `"T-5" still pending`) || !strings.Contains(errs, `aft interrogate id=T-5`) {
		t.Fatalf("transfer left pending: %d %q %q", code, out, errs)
	}
	var found aft.TransferReply
	deadline := time.Now().Add(30 * time.Second)
	for {
		out, errs, code = run("--json", "aft", "interrogate", "id=T-5")
		if code != 0 || json.Unmarshal([]byte(out), &found) != nil || found.ID != "T-5" {
			t.Fatalf("interrogate the pending transfer: %d %q %q", code, out, errs)
		}
		if !found.Status.IsPending() {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("T-5 still pending: %+v", found)
		}
	}
	if found.Status != aft.StatusFull || found.Position != 4 || found.Cashable != 300 || m.Credits().Cashable != 1300 {
		t.Fatalf("T-5: %+v, credits %+v", found, m.Credits())
	}
	out, errs, code = run("aft", "interrogate", "id=T-1")
	if code != 0 || !strings.Contains(out, `position 1: "T-1"`) {
		t.Fatalf("interrogate by ID in the history: %d %q %q", code, out, errs)
	}
	out, errs, code = run("aft", "history")
	if code != 0 || strings.Count(out, "position") != 4 || strings.Count(out, `"T-4"`) != 1 {
		t.Fatalf("history after the loss: %d %q %q", code, out, errs)
	}
	if n := len(m.Ledger()); n != 2+4 {
		t.Fatalf("%d ledger records, want 2 registrations and 4 transfers", n)
	}

	// Restricted credits with their pool and expiration, read back by the
	// transfer and by the machine's status; another pool's are refused.
	out, errs, code = run("aft", "transfer", "in", "id=T-6", "asset=777", "key="+key, "restricted=400", "pool=3", "expiration=30")
	if code != 0 || !strings.Contains(out, "restricted 400, non-restricted 0 cents") || !strings.Contains(out, "restricted of pool 3, expiration 30 days") {
		t.Fatalf("restricted in: %d %q %q", code, out, errs)
	}
	out, errs, code = run("aft", "status")
	if c := m.Credits(); code != 0 || !strings.Contains(out, "restricted pool 3, expires "+c.RestrictedExpiration.String()) || c.Restricted != 400 ||
		c.RestrictedExpiration != aft.Expiration(7012026) {
		t.Fatalf("status with restricted credits: %d %q %q, credits %+v", code, out, errs, c)
	}
	out, errs, code = run("aft", "transfer", "in", "id=T-7", "asset=777", "key="+key, "restricted=1", "pool=4")
	if code != 1 || !strings.Contains(out, "8F restricted amounts from a different pool") {
		t.Fatalf("another pool: %d %q %q", code, out, errs)
	}

	out, _, code = run("aft", "registration")
	if code != 0 || !strings.Contains(out, "registered, key "+key) {
		t.Fatalf("registration: %d %q", code, out)
	}
	// Bad arguments stop before anything is sent.
	n := len(m.Ledger())
	for _, args := range [][]string{
		{"aft"}, {"aft", "nonsense"}, {"aft", "transfer", "sideways", "id=X"},
		{"aft", "transfer", "in", "asset=777", "cashable=1"},
		{"aft", "transfer", "in", "id=X", "asset=777", "cashable=ten"},
		{"aft", "transfer", "in", "id=X", "asset=777", "cashabel=1"},
		{"aft", "transfer", "in", "id=X", "asset=777", "key=ABCD"},
		{"aft", "lock", "timeout=5000", "conditions=sideways"},
		{"aft", "interrogate", "id=T-1", "index=1"},
		{"aft", "interrogate", "id="},
		{"aft", "transfer", "in", "id=X", "asset=777", "wait=soon"},
	} {
		if _, errs, code := run(args...); code != 2 || errs == "" {
			t.Errorf("%q: exit %d %q", args, code, errs)
		}
	}
	if len(m.Ledger()) != n {
		t.Fatal("a refused command line reached the machine")
	}
}
