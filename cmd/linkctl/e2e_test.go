package main

import (
	"crypto/ed25519"
	"crypto/rand"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/openegm/cabinet/internal/cabinettest"
	"github.com/openegm/cabinet/jackpot"
	"github.com/openegm/cabinet/jackpot/ledger"
	"github.com/openegm/cabinet/machine"
	"github.com/openegm/cabinet/meters"
	"github.com/openegm/cabinet/reels"
)

var binDir string

func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "linkctl-e2e-")
	if err != nil {
		panic(err)
	}
	binDir = dir
	if err := cabinettest.Build("../..", dir, "cabinet", "linkctl"); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

// casino is two cabinets on their own SAS pseudo-terminals, both feeding
// linked level 1 ("mega"), and the controller that links them.
type casino struct {
	t       *testing.T
	cabData []string
	cabArgs []string
	cabs    []*cabinettest.Cabinet
	ctlData string
	config  string
	ctl     *exec.Cmd
	resetMC int64
	rate    int64
}

const group = 7

// newCasino starts the casino; award is the cabinets' award mode
// (broadcast or addressed), on the cabinets and in the configuration.
func newCasino(t *testing.T, secondHit, award string) *casino {
	cs := &casino{t: t, ctlData: t.TempDir(), resetMC: 1000_00 * jackpot.MillicentsPerCent, rate: 50_000}
	cs.cabArgs = []string{"--paytable-dir", cabinettest.LinkPaytableDir(t, "../.."), "--paytable", "t-link", "--jackpot", "off",
		"--sas-addr", "1", "--sas-pty", "--link-group", fmt.Sprint(group), "--link-levels", "1", "--spin-time", "5ms", "--handpay-limit", "10000000",
		"--link-award", award, "--link-second-hit", secondHit}
	var channels []string
	for i := range 2 {
		data := t.TempDir()
		cs.cabData = append(cs.cabData, data)
		c := cabinettest.Start(t, filepath.Join(binDir, "cabinet"), data, cs.cabArgs...)
		cs.cabs = append(cs.cabs, c)
		channels = append(channels, fmt.Sprintf(`{"name": "line-%d", "pty": %q, "cabinets": [{"id": "egm-%d", "addr": 1, "levels": ["mega", "minor"], "award": %q}]}`,
			i, c.SASTTY(), i, award))
	}
	cs.config = filepath.Join(t.TempDir(), "linkctl.json")
	cfg := fmt.Sprintf(`{"controller": "casino-test", "group": %d, "broadcast_ms": 200, "meter_ms": 300, "settle_ms": 150,
  "levels": [{"id": "mega", "sas_level": 1, "reset_cents": 100000, "rate_ppm": %d, "second_hit": %q},
             {"id": "minor", "sas_level": 2, "reset_cents": 5000, "rate_ppm": 10000, "second_hit": "wins-reset"}],
  "channels": [%s]}`, group, cs.rate, secondHit, strings.Join(channels, ","))
	if err := os.WriteFile(cs.config, []byte(cfg), 0o600); err != nil {
		t.Fatal(err)
	}
	cs.startController()
	t.Cleanup(func() {
		cs.stopController(syscall.SIGTERM)
		for _, c := range cs.cabs {
			c.Stop()
		}
	})
	return cs
}

func (cs *casino) startController() {
	cs.ctl = exec.Command(filepath.Join(binDir, "linkctl"), "run", "--config", cs.config, "--data", cs.ctlData)
	logf, _ := os.OpenFile(filepath.Join(cs.ctlData, "linkctl.log"), os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o600)
	cs.ctl.Stdout, cs.ctl.Stderr = logf, logf
	if err := cs.ctl.Start(); err != nil {
		cs.t.Fatal(err)
	}
}

func (cs *casino) stopController(sig syscall.Signal) {
	if cs.ctl == nil {
		return
	}
	cs.ctl.Process.Signal(sig)
	cs.ctl.Wait()
	cs.ctl = nil
}

// play presses max bet on cabinet i, n times at most; it reports whether
// the cabinet won the linked level (a hit waiting or just paid).
func (cs *casino) play(i, n int) bool { return play(cs.t, cs.cabs[i], i, n) }

// play presses max bet on cabinet c (number i in messages), n times at
// most; it reports whether the cabinet won the linked level (a hit waiting
// or just paid).
func play(t *testing.T, c *cabinettest.Cabinet, i, n int) bool {
	t.Helper()
	for range n {
		v := c.State()
		if v.CreditsCents < 20*20 {
			c.Bill(50000)
		}
		r := c.Send(cabinettest.Command{Cmd: "press", Button: machine.BtnMaxBet})
		switch r.Refused {
		case "":
			v := c.WaitIdle()
			if strings.HasPrefix(v.Message.Key, "msg_jackpot") {
				return true
			}
		case "refused_jackpot_pending":
			return true
		case "refused_link_down", "refused_game_in_progress", "refused_starting":
			time.Sleep(20 * time.Millisecond)
		default:
			t.Fatalf("cabinet %d: max bet refused: %s", i, r.Refused)
		}
	}
	return false
}

// playUntilHit plays on both cabinets in turn until one wins; it returns
// which.
func (cs *casino) playUntilHit() int {
	for round := 0; round < 300; round++ {
		for i := range cs.cabs {
			if cs.play(i, 2) {
				return i
			}
		}
	}
	cs.t.Fatal("no hit in 1200 games at 1 in 64")
	return -1
}

// report is the controller's ledger, verified (read-only, on a copy).
func (cs *casino) report() (*ledger.Verdict, *ledger.Report) {
	tmp := cs.t.TempDir()
	if out, err := exec.Command("cp", "-a", cs.ctlData+"/.", tmp).CombinedOutput(); err != nil {
		cs.t.Fatalf("copy: %v %s", err, out)
	}
	pub, err := ledger.ReadPublicKey(cs.ctlData + ".board/controller.pub")
	if err != nil {
		cs.t.Fatal(err)
	}
	v, err := ledger.Verify(tmp, pub)
	if err != nil || !v.OK || v.State == nil {
		cs.t.Fatalf("controller ledger not verified: %+v %v", v, err)
	}
	r, err := v.State.Report()
	if err != nil {
		cs.t.Fatal(err)
	}
	return v, r
}

// cabinetLedger folds a cabinet's ledger from its first record.
func cabinetLedger(t *testing.T, data string) *meters.State {
	st, _, err := meters.Read(filepath.Join(data, "ledger"), nil)
	if err != nil {
		t.Fatal(err)
	}
	return st
}

// Two cabinets, one controller: values reach both screens, contributions
// follow the coin-in meters, hits are awarded once and paid by the cabinet
// that won them, whatever was SIGKILLed in the middle of a hit; in both
// award modes.
func TestTwoCabinetsHitsExactlyOnce(t *testing.T) {
	t.Parallel()
	for _, award := range []string{"addressed", "broadcast"} {
		t.Run(award, func(t *testing.T) { twoCabinetsHitsExactlyOnce(t, award) })
	}
}

func twoCabinetsHitsExactlyOnce(t *testing.T, award string) {
	cs := newCasino(t, "wins-reset", award)
	for i, c := range cs.cabs {
		c.WaitFor(fmt.Sprintf("cabinet %d to show the linked value", i), func(v machine.View) bool {
			return len(v.Jackpots) == 1 && v.Jackpots[0].Cents >= 1000_00 && v.TopOffered == 1
		})
	}
	// Three hits; at each, SIGKILL one side at once, whatever it was
	// doing: the controller (twice) or the winning cabinet.
	for k := range 3 {
		winner := cs.playUntilHit()
		if k == 1 {
			cs.cabs[winner].Kill()
			cs.cabs[winner] = cabinettest.Start(t, filepath.Join(binDir, "cabinet"), cs.cabData[winner], cs.cabArgs...)
		} else {
			cs.stopController(syscall.SIGKILL)
			cs.startController()
		}
		cs.cabs[winner].WaitFor("the award paid and the link up", func(v machine.View) bool {
			return len(v.Jackpots) == 1 && !v.Jackpots[0].Pending && !v.LinkDown && v.TopOffered == 1
		})
		t.Logf("hit %d on cabinet %d", k+1, winner)
	}
	// The link cut (the controller frozen) for more than 5 s: both
	// cabinets report it and refuse the linked bet, and play the lower one
	// (which must feed nothing); restored, they play the linked bet.
	cs.ctl.Process.Signal(syscall.SIGSTOP)
	for i, c := range cs.cabs {
		c.WaitFor(fmt.Sprintf("cabinet %d to see the link down", i), func(v machine.View) bool { return v.LinkDown && v.TopOffered == 0 })
		for range 5 {
			if r := c.Send(cabinettest.Command{Cmd: "press", Button: machine.BtnMaxBet}); r.View.Level != 0 {
				t.Fatalf("cabinet %d played the linked bet with the link down: %+v", i, r)
			}
			c.WaitIdle()
		}
	}
	cs.ctl.Process.Signal(syscall.SIGCONT)
	for i, c := range cs.cabs {
		c.WaitFor(fmt.Sprintf("cabinet %d to see the link back", i), func(v machine.View) bool { return !v.LinkDown && v.TopOffered == 1 })
	}
	cs.play(0, 3)
	time.Sleep(time.Second) // the controller reads the last meters
	cs.stopController(syscall.SIGTERM)

	// The cabinets' ledgers: what they paid, nothing left pending.
	var coinIn, linked, paid int64
	for i, d := range cs.cabData {
		st := cabinetLedger(t, d)
		coinIn += st.Get(meters.CoinIn)
		linked += st.LinkedCoinIn
		paid += st.Get(meters.MachinePaidProgressive)
		if len(st.PendingHits) != 0 {
			t.Fatalf("cabinet %d still has hits pending: %v", i, st.PendingHits)
		}
	}
	// The controller's ledger: every award paid once, every cent of
	// coin-in contributed, the identity to the millicent.
	v, r := cs.report()
	st := v.State
	if len(st.PendingPayouts()) != 0 {
		t.Fatalf("controller still has payouts to confirm: %v", st.PendingPayouts())
	}
	mega, _ := st.Level("mega")
	if mega.Meters.Hits < 3 || mega.Meters.Awarded != paid*jackpot.MillicentsPerCent {
		logb, _ := os.ReadFile(filepath.Join(cs.ctlData, "linkctl.log"))
		t.Fatalf("controller: %d hits, %d millicents awarded; the cabinets were paid %d cents\n%s", mega.Meters.Hits, mega.Meters.Awarded, paid, logb)
	}
	// Only the bets that could win the level feed it: not those the
	// cabinets took at the lower bet while the link was down.
	if mega.Meters.QualifyingBets != linked || linked >= coinIn {
		t.Fatalf("controller counted %d cents of bets; the cabinets' coin-in is %d, %d of it at the linked bet", mega.Meters.QualifyingBets, coinIn, linked)
	}
	if !r.Holds || !r.Total.Holds {
		t.Fatalf("identity does not hold: %+v", r.Total)
	}
	b, _ := json.Marshal(r.Total)
	t.Logf("%d hits, %d cents paid by the cabinets; controller total %s", mega.Meters.Hits, paid, b)
}

// linkctl(args) runs the binary and returns its exit status and output.
func linkctl(t *testing.T, args ...string) (int, string) {
	t.Helper()
	out, err := exec.Command(filepath.Join(binDir, "linkctl"), args...).CombinedOutput()
	if ee, ok := err.(*exec.ExitError); ok {
		return ee.ExitCode(), string(out)
	}
	if err != nil {
		t.Fatal(err)
	}
	return 0, string(out)
}

// The operator's and the inspector's commands on the controller's ledger:
// a transfer of a level nobody can win into another (nothing created or
// lost), verification, and a report signed by the inspector.
func TestTransferVerifyAndSignedReport(t *testing.T) {
	t.Parallel()
	cs := newCasino(t, "split", "addressed")
	cs.cabs[0].WaitFor("the linked value", func(v machine.View) bool { return v.TopOffered == 1 })
	cs.play(0, 30)
	time.Sleep(800 * time.Millisecond) // a meter reading after the last game
	cs.stopController(syscall.SIGTERM)
	// The broadcast interval achieved on every line, from the controller's
	// own count (configured: 200 ms; the cabinets' limit: 5 s).
	logb, _ := os.ReadFile(filepath.Join(cs.ctlData, "linkctl.log"))
	m := regexp.MustCompile(`broadcasts=(\d+) max_broadcast_gap=(\S+)`).FindSubmatch(logb)
	if m == nil {
		t.Fatalf("no broadcast figures in the controller's log:\n%s", logb)
	}
	gap, err := time.ParseDuration(string(m[2]))
	if err != nil || gap > time.Second {
		t.Fatalf("longest broadcast interval %s (%v), want well inside the cabinets' 5 s", m[2], err)
	}
	t.Logf("%s broadcasts, longest interval between two on a line %s (configured 200ms)", m[1], gap)

	_, before := cs.report()
	if code, out := linkctl(t, "transfer", cs.ctlData, "--from", "minor", "--to", "mega", "--all", "--who", "op-1"); code == 0 {
		t.Fatalf("a transfer without a reason was accepted: %s", out)
	}
	code, out := linkctl(t, "transfer", cs.ctlData, "--from", "minor", "--to", "mega", "--all", "--who", "op-1", "--why", "level minor retired: no paytable wins it")
	if code != 0 || !strings.Contains(out, "moved") {
		t.Fatalf("transfer: %d %s", code, out)
	}
	// A rebase (after a RAM clear, or a change of the coin-in meter read):
	// recorded with who and why, and only then.
	if code, out := linkctl(t, "rebase", cs.ctlData, "--machine", "egm-1", "--coin-in", "0", "--games", "0", "--who", "op-1"); code == 0 {
		t.Fatalf("a rebase without a reason was accepted: %s", out)
	}
	if code, out := linkctl(t, "rebase", cs.ctlData, "--machine", "egm-1", "--coin-in", "0", "--games", "0", "--who", "op-1", "--why", "RAM clear"); code != 0 {
		t.Fatalf("rebase: %d %s", code, out)
	}
	if m, _ := ledgerState(t, cs.ctlData).Machine("egm-1"); m.Rebases != 1 || m.CoinIn != 0 {
		t.Fatalf("after the rebase: %+v", m)
	}
	if code, out := linkctl(t, "verify", cs.ctlData, "--pub", cs.ctlData+".board/controller.pub"); code != 0 || !strings.HasPrefix(out, "VERIFIED") {
		t.Fatalf("verify: %d %s", code, out)
	}
	_, after := cs.report()
	if before.Total.Liability != after.Total.Liability || !after.Holds || !after.TransfersEqual {
		t.Fatalf("the transfer changed the liability %d -> %d (identity %v, transfers cancel %v)",
			before.Total.Liability, after.Total.Liability, after.Holds, after.TransfersEqual)
	}
	var minorAfter, megaBefore, megaAfter int64
	for _, l := range before.Levels {
		if l.Level == "mega" {
			megaBefore = l.Liability
		}
	}
	for _, l := range after.Levels {
		switch l.Level {
		case "minor":
			minorAfter = l.Liability
		case "mega":
			megaAfter = l.Liability
		}
	}
	if minorAfter != 0 || megaAfter != before.Total.Liability || megaAfter <= megaBefore {
		t.Fatalf("after the transfer: minor %d, mega %d (was %d), total %d", minorAfter, megaAfter, megaBefore, before.Total.Liability)
	}

	// The signed report: an inspector's key (parsheet keygen format).
	pub, priv, err := ed25519.GenerateKey(rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	key := filepath.Join(t.TempDir(), "inspector.key")
	os.WriteFile(key, reels.EncodeKey(priv), 0o600)
	doc := filepath.Join(t.TempDir(), "report.json")
	if code, out := linkctl(t, "report", cs.ctlData, "--pub", cs.ctlData+".board/controller.pub", "--key", key, "--out", doc); code != 0 {
		t.Fatalf("report: %d %s", code, out)
	}
	if code, out := linkctl(t, "report", cs.ctlData, "--pub", cs.ctlData+".board/controller.pub"); code != 0 || !strings.Contains(out, "mega") {
		t.Fatalf("text report: %d %s", code, out)
	}
	body, _ := os.ReadFile(doc)
	sig, _ := os.ReadFile(doc + ".sig")
	if _, err := ledger.VerifyReport(body, sig, pub); err != nil {
		t.Fatalf("signed report does not verify: %v", err)
	}
	body[len(body)/2] ^= 1
	if _, err := ledger.VerifyReport(body, sig, pub); err == nil {
		t.Fatal("a changed report verified")
	}

	// The controller's data replaced by an older copy of itself: its board's
	// witness refuses it, for an operator's command as for serving.
	old := filepath.Join(t.TempDir(), "old")
	if out, err := exec.Command("cp", "-a", cs.ctlData, old).CombinedOutput(); err != nil {
		t.Fatal(err, string(out))
	}
	if code, out := linkctl(t, "fund", cs.ctlData, "--level", "mega", "--cents", "100", "--who", "op-1", "--why", "seed"); code != 0 {
		t.Fatalf("fund: %d %s", code, out)
	}
	os.RemoveAll(cs.ctlData)
	exec.Command("cp", "-a", old, cs.ctlData).Run()
	if code, out := linkctl(t, "fund", cs.ctlData, "--level", "mega", "--cents", "100", "--who", "op-1", "--why", "seed"); code == 0 || !strings.Contains(out, "rollback") {
		t.Fatalf("an operator's command on rolled-back data: %d %s", code, out)
	}
}
