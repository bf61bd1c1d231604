package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/openegm/cabinet/internal/cabinettest"
	"github.com/openegm/cabinet/poker"
	"github.com/openegm/cabinet/poker/pokertest"
	"github.com/openegm/cabinet/poker/tableledger"
	"github.com/openegm/cabinet/poker/tableserver/tablesrvtest"
)

var binDir string

func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "tablesrv-e2e-")
	if err != nil {
		panic(err)
	}
	binDir = dir
	if err := cabinettest.Build("../..", dir, "tablesrv"); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

// server is a running tablesrv process.
type server struct {
	t     testing.TB
	cmd   *exec.Cmd
	data  string
	board string
	url   string
	api   *tablesrvtest.Client
	args  []string
}

// startServer runs the real binary on data with the tables given and waits
// until it listens.
func startServer(t testing.TB, data string, args ...string) *server {
	t.Helper()
	s := &server{t: t, data: data, board: data + ".board", args: args}
	s.start()
	return s
}

func (s *server) start() {
	s.t.Helper()
	addrFile := filepath.Join(s.data, "tablesrv.addr")
	os.Remove(addrFile)
	os.MkdirAll(s.data, 0o700)
	logf, err := os.OpenFile(filepath.Join(s.data, "..", filepath.Base(s.data)+".log"), os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o600)
	if err != nil {
		s.t.Fatal(err)
	}
	args := append([]string{"run", "--data", s.data, "--listen", "127.0.0.1:0", "--hand-pause", "150ms"}, s.args...)
	cmd := exec.Command(filepath.Join(binDir, "tablesrv"), args...)
	cmd.Stdout, cmd.Stderr = logf, logf
	if err := cmd.Start(); err != nil {
		s.t.Fatal(err)
	}
	logf.Close()
	s.cmd = cmd
	s.t.Cleanup(func() {
		if cmd.ProcessState == nil {
			cmd.Process.Kill()
			cmd.Wait()
		}
		if log, _ := os.ReadFile(s.logFile()); strings.Contains(string(log), "WARNING: DATA RACE") {
			s.t.Errorf("the server had a data race:\n%s", log)
		}
	})
	deadline := time.Now().Add(60 * time.Second)
	for {
		b, err := os.ReadFile(addrFile)
		if err == nil && len(bytes.TrimSpace(b)) > 0 {
			s.url = "http://" + strings.TrimSpace(string(b))
			break
		}
		if time.Now().After(deadline) || cmd.ProcessState != nil {
			log, _ := os.ReadFile(s.logFile())
			s.t.Fatalf("the server did not start:\n%s", log)
		}
		time.Sleep(20 * time.Millisecond)
	}
	tok, err := os.ReadFile(filepath.Join(s.board, "api.token"))
	if err != nil {
		s.t.Fatal(err)
	}
	s.api = &tablesrvtest.Client{URL: s.url, Token: strings.TrimSpace(string(tok))}
}

func readLog(s *server) (string, error) {
	b, err := os.ReadFile(s.logFile())
	return string(b), err
}

func (s *server) logFile() string { return filepath.Join(s.data, "..", filepath.Base(s.data)+".log") }

// kill is a power cut.
func (s *server) kill() {
	s.cmd.Process.Signal(syscall.SIGKILL)
	s.cmd.Wait()
}

// stop is an orderly stop.
func (s *server) stop() {
	s.t.Helper()
	s.cmd.Process.Signal(syscall.SIGTERM)
	if err := s.cmd.Wait(); err != nil {
		log, _ := os.ReadFile(s.logFile())
		s.t.Fatalf("the server stopped with %v:\n%s", err, log)
	}
}

func (s *server) pub() string { return filepath.Join(s.board, tableledger.KeyName+".pub") }

// tablesrv runs a command of the binary (verify, report, hands).
func tablesrv(t testing.TB, args ...string) (int, string, string) {
	t.Helper()
	cmd := exec.Command(filepath.Join(binDir, "tablesrv"), args...)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	code := 0
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	return code, out.String(), errb.String()
}

// checkLedger stops nothing: it verifies the ledger in data with the
// server's registered key, reads its report, audits every hand of its log
// with the games' rules written apart from the engines, and checks that
// the money of every table and source adds up. It returns the report.
func checkLedger(t testing.TB, s *server, rules map[string]pokertest.Rules) *tableledger.Report {
	t.Helper()
	code, out, errs := tablesrv(t, "verify", s.data, "--pub", s.pub())
	if code != 0 || !strings.HasPrefix(out, "VERIFIED") {
		t.Fatalf("verify: exit %d\n%s%s", code, out, errs)
	}
	code, out, errs = tablesrv(t, "report", s.data, "--pub", s.pub(), "--json")
	if code != 0 {
		t.Fatalf("report: exit %d %s", code, errs)
	}
	var rep tableledger.Report
	if err := json.Unmarshal([]byte(out), &rep); err != nil {
		t.Fatal(err)
	}
	if !rep.Verdict.OK {
		t.Fatalf("report verdict %+v", rep.Verdict)
	}
	for _, tb := range rep.Tables {
		var stacks int64
		for _, p := range tb.Players {
			stacks += p.Stack
		}
		m := tb.Meters
		if m.PaidIn != stacks+tb.Carried+tb.Bank+tb.Garage+tb.InPot+m.Fees+m.Rake+m.PaidOut {
			t.Fatalf("%s: paid in %d, stacks %d, carried %d, bank %d, garage %d, stakes %d, fees %d, rake %d, paid out %d",
				tb.ID, m.PaidIn, stacks, tb.Carried, tb.Bank, tb.Garage, tb.InPot, m.Fees, m.Rake, m.PaidOut)
		}
		r, ok := rules[tb.ID]
		if !ok {
			continue
		}
		code, out, errs := tablesrv(t, "hands", s.data, "--table", tb.ID, "--last", "0", "--json")
		if code != 0 {
			t.Fatalf("hands: %d %s", code, errs)
		}
		var hands []struct {
			Records []poker.Record `json:"records"`
		}
		if err := json.Unmarshal([]byte(out), &hands); err != nil {
			t.Fatal(err)
		}
		audit := pokertest.NewAuditor(r)
		played := 0
		for _, h := range hands {
			if h.Records[len(h.Records)-1].Kind == poker.KindVoid {
				continue // a void hand pays nothing: the fold checked its stakes went back
			}
			played++
			if err := audit.Add(h.Records...); err != nil {
				t.Fatalf("%s: %v", tb.ID, err)
			}
		}
		rake := audit.Rake
		for _, po := range rep.PoAwards {
			if po.Table != tb.ID {
				continue
			}
			if want := r.Rake(po.Amount); po.Rake != want || po.Paid != po.Amount-want {
				t.Fatalf("%s: a pó of %d paid to %s raked %d, paid %d; the rule's rake is %d", tb.ID, po.Amount, po.Player, po.Rake, po.Paid, want)
			}
			rake += po.Rake
		}
		if int64(played) != m.Hands || rake != m.Rake {
			t.Fatalf("%s: %d hands audited and the pós paid with a rake of %d; the ledger has %d hands, rake %d", tb.ID, played, rake, m.Hands, m.Rake)
		}
		t.Logf("%s: %d hands audited (%d showdowns, %d split pots, %d with side pots, %d pós), %d void; rake %d, fees %d, paid in %d, out %d",
			tb.ID, audit.Hands, audit.Showdowns, audit.SplitPots, audit.SidePots, audit.Carries, m.Voided, m.Rake, m.Fees, m.PaidIn, m.PaidOut)
	}
	return &rep
}
