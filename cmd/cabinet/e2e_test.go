package main

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/openegm/cabinet/internal/cabinettest"
	"github.com/openegm/cabinet/machine"
	"github.com/openegm/cabinet/meters"
	"github.com/openegm/cabinet/rng"
	"github.com/openegm/cabinet/sas"
	"github.com/openegm/cabinet/sas/host"
)

var binDir string

// TestMain builds the real binaries the end-to-end tests run.
func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "cabinet-e2e-")
	if err != nil {
		panic(err)
	}
	binDir = dir
	if err := cabinettest.Build("../..", dir, "cabinet", "meterread", "sashost"); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

type cabinet = cabinettest.Cabinet

func startCabinet(t testing.TB, data string, args ...string) *cabinet {
	t.Helper()
	return cabinettest.Start(t, filepath.Join(binDir, "cabinet"), data, args...)
}

func TestEndToEndSession(t *testing.T) {
	cabinettest.PlainPassOnly(t)
	t.Parallel()
	data := t.TempDir()
	c := startCabinet(t, data, "--spin-time", "5ms", "--handpay-limit", "20000")
	var billsIn, ticketsOut, handpaid int64
	for _, b := range []int64{5000, 5000, 2000} {
		r := c.Send(cabinettest.Command{Cmd: "bill", Cents: b})
		if r.View.CreditsCents == 0 {
			t.Fatal("bill not credited")
		}
		billsIn += b
	}
	if r := c.Send(cabinettest.Command{Cmd: "bill", Cents: 700}); r.View.CreditsCents != billsIn {
		t.Fatal("a 7-euro bill was credited")
	}
	games, free := 0, false
	for i := range 300 {
		if i%50 == 0 {
			c.Send(cabinettest.Command{Cmd: "press", Button: machine.BtnBetUp})
		}
		v := c.State()
		if v.CreditsCents < v.BetCents {
			c.Bill(5000)
			billsIn += 5000
		}
		r := c.Send(cabinettest.Command{Cmd: "press", Button: machine.BtnSpin})
		if r.Refused != "" {
			if r.Refused == "refused_handpay" {
				break
			}
			t.Fatalf("spin %d refused: %s", i, r.Refused)
		}
		games++
		v = c.WaitIdle()
		if v.FreePlayed > 0 {
			free = true
		}
		if v.Mode == "handpay" {
			handpaid += v.Handpay
			c.TurnKey("att-9")
		}
	}
	if !free {
		t.Log("no free games in this session")
	}
	// The embedded local jackpot: both levels shown, the mystery level fed
	// by every bet.
	if v := c.State(); len(v.Jackpots) != 2 || v.Jackpots[0].Level != 1 || v.Jackpots[1].Level != 9 ||
		v.Jackpots[1].Cents <= v.Jackpots[1].ResetCents {
		t.Fatalf("jackpots on screen after %d games: %+v", games, v.Jackpots)
	}
	// Door open refuses play; closing returns.
	c.Send(cabinettest.Command{Cmd: "door", Door: meters.DoorMain, Open: true})
	if r := c.Send(cabinettest.Command{Cmd: "press", Button: machine.BtnSpin}); r.Refused != "refused_door_open" {
		t.Fatalf("spin with the door open: %q", r.Refused)
	}
	c.Send(cabinettest.Command{Cmd: "door", Door: meters.DoorMain, Open: false})
	// A balance at or above the limit goes to a cancelled-credit handpay.
	var cancelled int64
	if v := c.State(); v.CreditsCents >= 20000 {
		r := c.Send(cabinettest.Command{Cmd: "press", Button: machine.BtnCashOut})
		if r.View.Mode != "handpay" || r.View.Handpay != v.CreditsCents {
			t.Fatalf("cash out of %d: %+v", v.CreditsCents, r.View)
		}
		cancelled += v.CreditsCents
		c.TurnKey("att-2")
	}
	if v := c.State(); v.CreditsCents == 0 {
		c.Bill(1000)
		billsIn += 1000
	}
	// Cash out to a ticket (under the limit) ...
	v := c.State()
	credits := v.CreditsCents
	r := c.Send(cabinettest.Command{Cmd: "press", Button: machine.BtnCashOut})
	if r.View.Printing == "" || r.View.CreditsCents != 0 {
		t.Fatalf("cash out: %+v", r.View)
	}
	ticketsOut += credits
	deadline := time.Now().Add(5 * time.Second)
	for c.State().Printing != "" && time.Now().Before(deadline) {
		time.Sleep(10 * time.Millisecond)
	}
	tk := c.Send(cabinettest.Command{Cmd: "tickets"}).Tickets
	if len(tk) != 1 || tk[0].Cents != credits || tk[0].MachineID != "EGM-TEST" || !strings.HasPrefix(tk[0].Validation, "0007") {
		t.Fatalf("tickets %+v", tk)
	}
	// ... and at the limit, a cancelled-credit handpay.
	for range 5 {
		c.Bill(5000)
		billsIn += 5000
	}
	r = c.Send(cabinettest.Command{Cmd: "press", Button: machine.BtnCashOut})
	if r.View.Mode != "handpay" || r.View.Handpay != 25000 {
		t.Fatalf("big cash out: %+v", r.View)
	}
	c.TurnKey("att-2")
	cancelled += 25000

	m := c.Send(cabinettest.Command{Cmd: "meters"}).Meters
	if m["total bills accepted"] != billsIn || m["ticket out"] != ticketsOut || m["hand-paid cancelled credits"] != cancelled ||
		m["games played"] != int64(games) || m["current credits"] != 0 || m["total jackpot (hand-paid wins)"] != handpaid {
		t.Fatalf("meters %v; script: bills %d tickets %d games %d handpaid %d", m, billsIn, ticketsOut, games, handpaid)
	}
	// The electromechanical meters follow the ledger, never ahead of it.
	if m["hard meter_games"] <= 0 || m["hard meter_games"] > m["games played"] ||
		m["hard meter_coin_in"] > m["total coin in (bets)"]/100 || m["hard meter_drop"] > m["total drop"]/100 {
		t.Fatalf("hard meters %v", m)
	}
	c.Stop()

	if st := readLedger(t, data); st.Events[len(st.Events)-1].Code != meters.EventPowerDown {
		t.Fatalf("orderly stop without a power-down event: %+v", st.Events[len(st.Events)-1])
	}
	mustVerify(t, data, c.MachinePub())
}

// crashIterations is how many kills a crash loop makes: CRASH_ITERATIONS,
// else def, else (under the race detector, -short) a few, each restart
// checked for races.
func crashIterations(def int) int {
	if v, err := strconv.Atoi(os.Getenv("CRASH_ITERATIONS")); err == nil {
		return v
	}
	if testing.Short() {
		return 3
	}
	return def
}

// TestCrashLoop SIGKILLs the real cabinet at random moments while a script
// plays. After each restart the game in progress resumes with the same
// stops, the ledger opens (so its invariants hold) and no game is counted
// twice. CRASH_ITERATIONS sets the number of kills.
func TestCrashLoop(t *testing.T) {
	cabinettest.PlainPassOnly(t)
	t.Parallel()
	n := crashIterations(8)
	data := t.TempDir()
	// A mystery level that hits at least every 5 games: kills land around
	// jackpot hits and awards too.
	jp := filepath.Join(t.TempDir(), "jackpot.json")
	if err := os.WriteFile(jp, []byte(`{"levels":[{"level":9,"mystery":true,"reset_cents":100,"cap_cents":110,"rate_ppm":100000}]}`), 0o600); err != nil {
		t.Fatal(err)
	}
	args := []string{"--spin-time", "20ms", "--card-time", "10ms", "--jackpot", jp}
	r := rng.NewSeeded(4242)
	resumed, resumedHands, hands := 0, 0, 0
	for i := range n {
		c := startCabinet(t, data, args...)
		if i > 0 {
			// Whatever game was open at the kill must finish with its stops.
			c.WaitIdle()
			st := readLedger(t, data)
			if err := st.Check(); err != nil {
				t.Fatalf("kill %d: %v", i, err)
			}
			noEvidence(t, i, st)
			if st.Open != nil {
				t.Fatalf("kill %d: game %d still open after resume", i, st.Open.Start.Game)
			}
			if st.Get(meters.GamesPlayed) < int64(st.LastGame) {
				t.Fatalf("kill %d: %d games played, last game %d", i, st.Get(meters.GamesPlayed), st.LastGame)
			}
			checkJackpotPaidOnce(t, i, st)
		}
		stop := make(chan struct{})
		done := make(chan struct{})
		go func() {
			defer close(done)
			for {
				select {
				case <-stop:
					return
				default:
				}
				b, _ := json.Marshal(cabinettest.Command{Cmd: "bill", Cents: 500})
				c.Conn.Write(append(b, '\n'))
				if _, err := c.Rd.ReadBytes('\n'); err != nil {
					return
				}
				// Reel games and Makccarat hands by turns: a kill lands in
				// either, or between them.
				for _, cmd := range []cabinettest.Command{
					{Cmd: "select_game", Value: "makccarat"}, {Cmd: "press", Button: machine.BtnClearBets},
					{Cmd: "bet", Value: "banker", Cents: 200}, {Cmd: "bet", Value: "tie", Cents: 100},
					{Cmd: "press", Button: machine.BtnDeal}, {Cmd: "select_game", Value: "reels"},
					{Cmd: "press", Button: machine.BtnSpin},
				} {
					b, _ = json.Marshal(cmd)
					c.Conn.Write(append(b, '\n'))
					line, err := c.Rd.ReadBytes('\n')
					if err != nil {
						return
					}
					// The hand's cards turn before the reels can be chosen.
					for k := 0; cmd.Button == machine.BtnDeal && k < 100; k++ {
						var rep cabinettest.Reply
						if json.Unmarshal(line, &rep) != nil || rep.View == nil || rep.View.Mode != "dealing" {
							break
						}
						time.Sleep(10 * time.Millisecond)
						b, _ = json.Marshal(cabinettest.Command{Cmd: "state"})
						c.Conn.Write(append(b, '\n'))
						if line, err = c.Rd.ReadBytes('\n'); err != nil {
							return
						}
					}
					time.Sleep(5 * time.Millisecond)
				}
			}
		}()
		time.Sleep(time.Duration(150+r.Intn(400)) * time.Millisecond)
		c.Cmd.Process.Signal(syscall.SIGKILL)
		c.Cmd.Wait()
		close(stop)
		c.Conn.Close()
		<-done
		before := readLedger(t, data)
		if before.Open != nil {
			resumed++
			c2 := startCabinet(t, data, args...)
			c2.WaitIdle()
			c2.Stop()
			after := readLedger(t, data)
			var g *meters.GameHistory
			for k := range after.Games {
				if after.Games[k].Start.Game == before.Open.Start.Game {
					g = &after.Games[k]
				}
			}
			if g == nil || g.End == nil || !reflect.DeepEqual(g.Start, before.Open.Start) {
				t.Fatalf("kill %d: game %d did not resume with its stops or cards", i, before.Open.Start.Game)
			}
			if g.Start.Hand != nil {
				resumedHands++
				if g.End.WinCents != g.Start.WinCents {
					t.Fatalf("kill %d: hand %d paid %d, committed %d", i, g.Start.Game, g.End.WinCents, g.Start.WinCents)
				}
			}
			for k, f := range before.Open.Free {
				if fmt.Sprint(g.Free[k].Stops) != fmt.Sprint(f.Stops) {
					t.Fatalf("kill %d: free game %d redrawn", i, k+1)
				}
			}
		}
	}
	st := readLedger(t, data)
	checkJackpotPaidOnce(t, n, st)
	lv, _ := st.Jackpot.Level("9")
	hands = int(st.PerGame[meters.GameMakccarat].Played)
	t.Logf("survived %d SIGKILLs of the cabinet; %d kills hit a game in progress, each resumed (%d of them Makccarat hands, with their cards); %d games in the ledger (%d Makccarat hands); %d mystery jackpots paid", n, resumed, resumedHands, st.LastGame, hands, lv.Meters.Hits)
	if n >= 8 && hands == 0 {
		t.Fatal("no Makccarat hand was dealt during the crash loop: it proves nothing about them")
	}
	if n >= 8 && lv.Meters.Hits == 0 {
		t.Fatal("no jackpot was hit during the crash loop: it proves nothing about them")
	}
}

// checkJackpotPaidOnce: every award the pools paid is on the progressive
// meters exactly once, and the pools' identity holds (State.Check).
func checkJackpotPaidOnce(t *testing.T, kill int, st *meters.State) {
	t.Helper()
	if err := st.Check(); err != nil {
		t.Fatalf("kill %d: %v", kill, err)
	}
	tot, err := st.Jackpot.Totals()
	if err != nil {
		t.Fatal(err)
	}
	paid := st.Get(meters.MachinePaidProgressive) + st.Get(meters.AttendantPaidProgressive)
	owed := int64(0)
	if st.Handpay != nil && st.Handpay.Kind == meters.HandpayProgressive {
		owed = st.Handpay.Cents
	}
	if tot.Awarded != (paid+owed)*1000 {
		t.Fatalf("kill %d: the pools awarded %d millicents, the meters paid %d cents (+%d owed)", kill, tot.Awarded, paid, owed)
	}
}

// noEvidence fails if a power loss was taken for tampering: nothing
// genuine may be reported as forged, rolled back or a new board.
func noEvidence(t *testing.T, kill int, st *meters.State) {
	t.Helper()
	for _, tilt := range []string{machine.TiltLedger, machine.TiltRollback, machine.TiltWitness} {
		if slices.Contains(st.Tilts, tilt) {
			for _, e := range st.Events {
				if e.Tilt == tilt {
					t.Fatalf("kill %d: a power loss taken for tampering: %s (%s)", kill, tilt, e.Detail)
				}
			}
			t.Fatalf("kill %d: a power loss taken for tampering: %s", kill, tilt)
		}
	}
}

// readLedger folds the cabinet's ledger from its first record, on a
// private copy (the cabinet is not running).
func readLedger(t testing.TB, data string) *meters.State {
	t.Helper()
	st, _, err := meters.Read(filepath.Join(data, "ledger"), nil)
	if err != nil {
		t.Fatalf("ledger: %v", err)
	}
	return st
}

// The service menu through the real binary: default PIN forced to change,
// the new PIN kept across a restart, a setting kept in the ledger.
func TestServiceMenuAcrossRestart(t *testing.T) {
	t.Parallel()
	data := t.TempDir()
	c := startCabinet(t, data, "--spin-time", "5ms")
	c.Send(cabinettest.Command{Cmd: "key", Key: machine.KeyAttendant, On: true, Who: "tech-4"})
	if r := c.Send(cabinettest.Command{Cmd: "pin", Role: machine.RoleTechnician, PIN: machine.DefaultPIN}); !r.View.Service.MustChangePIN {
		t.Fatalf("default PIN: %+v", r.View.Service)
	}
	c.Send(cabinettest.Command{Cmd: "service", Action: machine.SvcSetPIN, Value: "739204"})
	if r := c.Send(cabinettest.Command{Cmd: "service", Action: machine.SvcConfig, Key: "denom", Value: "10"}); r.Refused != "" {
		t.Fatalf("config: %s", r.Refused)
	}
	c.Send(cabinettest.Command{Cmd: "key", Key: machine.KeyAttendant, On: false})
	c.Stop()

	c = startCabinet(t, data, "--spin-time", "5ms")
	defer c.Stop()
	c.Send(cabinettest.Command{Cmd: "key", Key: machine.KeyAttendant, On: true, Who: "tech-4"})
	if r := c.Send(cabinettest.Command{Cmd: "pin", Role: machine.RoleTechnician, PIN: machine.DefaultPIN}); r.Refused != "refused_wrong_pin" {
		t.Fatalf("default PIN after the change: %+v", r)
	}
	r := c.Send(cabinettest.Command{Cmd: "pin", Role: machine.RoleTechnician, PIN: "739204"})
	if r.Refused != "" || r.View.Service == nil || r.View.Service.Settings["denom"] != "10" {
		t.Fatalf("after restart: %+v", r)
	}
	if b, _ := os.ReadFile(filepath.Join(data, "pins.json")); strings.Contains(string(b), "739204") || !strings.Contains(string(b), "argon2id") {
		t.Fatalf("pins.json: %s", b)
	}
}

// A paytable changed by one byte after signing stops play with the paytable
// tilt; a damaged ledger stops it with a meter fault.
func TestTamperedPaytableAndMeterFaultStopPlay(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	for _, f := range []string{"lusitania-92.json", "lusitania-92.json.sig"} {
		b, err := os.ReadFile("../../assets/paytables/" + f)
		if err != nil {
			t.Fatal(err)
		}
		if f == "lusitania-92.json" {
			b = []byte(strings.Replace(string(b), `"pays": 750`, `"pays": 751`, 1))
		}
		os.WriteFile(filepath.Join(dir, f), b, 0o644)
	}
	data := t.TempDir()
	c := startCabinet(t, data, "--paytable-dir", dir)
	// The note goes back: a machine in tilt takes no money.
	if r := c.Send(cabinettest.Command{Cmd: "bill", Cents: 5000}); r.View.CreditsCents != 0 {
		t.Fatalf("a tilted machine took a note: %+v", *r.View)
	}
	v := c.State()
	if v.Mode != "tilt" || len(v.Tilts) != 1 || v.Tilts[0] != machine.TiltPaytable {
		t.Fatalf("tampered paytable: %+v", v)
	}
	if r := c.Send(cabinettest.Command{Cmd: "press", Button: machine.BtnSpin}); r.Refused != "refused_no_paytable" && r.Refused != "refused_tilt" {
		t.Fatalf("spin: %q", r.Refused)
	}
	if v.CreditsCents != 0 {
		t.Fatal("a bill was accepted by a machine that cannot play")
	}
	c.Stop()
	st := readLedger(t, data)
	var detail string
	for _, e := range st.Events {
		if e.Code == meters.EventTilt && e.Tilt == machine.TiltPaytable {
			detail = e.Detail
		}
	}
	if !strings.Contains(detail, "signature") {
		t.Fatalf("tilt event says %q", detail)
	}

	// Flip one byte in the middle of the log: the next start is a meter fault.
	segs, _ := filepath.Glob(filepath.Join(data, "ledger", "log", "0*"))
	b, _ := os.ReadFile(segs[0])
	b[len(b)/2] ^= 0x01
	os.WriteFile(segs[0], b, 0o600)
	c = startCabinet(t, data)
	defer c.Stop()
	v = c.State()
	if v.Mode != "meter_fault" || v.Fault == "" {
		t.Fatalf("damaged ledger: %+v", v)
	}
	if r := c.Send(cabinettest.Command{Cmd: "press", Button: machine.BtnSpin}); r.Refused != "refused_meter_fault" {
		t.Fatalf("spin with a meter fault: %q", r.Refused)
	}
}

// The I/O test page shows the live input levels read through the pins.
func TestIOTestPageShowsLiveInputs(t *testing.T) {
	t.Parallel()
	c := startCabinet(t, t.TempDir())
	defer c.Stop()
	c.Send(cabinettest.Command{Cmd: "key", Key: machine.KeyAttendant, On: true, Who: "tech"})
	c.Send(cabinettest.Command{Cmd: "pin", Role: machine.RoleTechnician, PIN: machine.DefaultPIN})
	c.Send(cabinettest.Command{Cmd: "service", Action: machine.SvcSetPIN, Value: "406172"})
	c.Send(cabinettest.Command{Cmd: "service", Action: machine.SvcPage, Value: "io"})
	c.Send(cabinettest.Command{Cmd: "door", Door: "belly", Open: true})
	time.Sleep(60 * time.Millisecond) // a tick republishes the page
	in := c.State().Service.Inputs
	if !in["door_belly"] || !in[machine.KeyAttendant] || in["door_main"] {
		t.Fatalf("inputs %v", in)
	}
	if r := c.Send(cabinettest.Command{Cmd: "service", Action: machine.SvcIOOutput, Key: "tower_top", Value: "on"}); r.Refused != "" {
		t.Fatalf("output test: %q", r.Refused)
	}
}

// sasHost opens the host end of the cabinet's SAS pseudo-terminal.
func sasHost(t testing.TB, data string) *host.Client {
	t.Helper()
	var path string
	deadline := time.Now().Add(5 * time.Second)
	for {
		b, err := os.ReadFile(filepath.Join(data, "sas-pty"))
		if err == nil {
			path = strings.TrimSpace(string(b))
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("no sas-pty file")
		}
		time.Sleep(10 * time.Millisecond)
	}
	port, err := sas.OpenTTY(path)
	if err != nil {
		t.Fatal(err)
	}
	// A poll waits 500 ms for its reply, not SAS's 100 ms: the tests ask what
	// the cabinet answers, and on a loaded machine it may take longer.
	c := host.New(port, host.Options{Addr: 1, Timeout: 500 * time.Millisecond})
	if err := c.Sync(); err != nil {
		t.Fatal(err)
	}
	return c
}

// drain general-polls until the machine has no exception left.
func drain(t *testing.T, c *host.Client) []sas.Exception {
	t.Helper()
	var got []sas.Exception
	for i := 0; i < 200; i++ {
		r, err := c.GeneralPoll()
		if err != nil {
			t.Fatal(err)
		}
		if r.Exception == sas.ExcNone && r.Long == nil {
			return got
		}
		got = append(got, r.Exception)
		time.Sleep(5 * time.Millisecond)
	}
	t.Fatal("exceptions never ran out")
	return nil
}

// drainUntil general-polls until want is reported and the queue is empty,
// and returns the exceptions seen. The screen can show a change before its
// exception is queued (the SAS side posts it on its own goroutine), so a
// test that saw the change waits for the exception; the guard is a hang's.
func drainUntil(t *testing.T, c *host.Client, want sas.Exception) []sas.Exception {
	t.Helper()
	var got []sas.Exception
	for deadline := time.Now().Add(30 * time.Second); time.Now().Before(deadline); {
		got = append(got, drain(t, c)...)
		if slices.Contains(got, want) {
			return got
		}
		time.Sleep(5 * time.Millisecond)
	}
	t.Fatalf("exception %v never came; exceptions %v", want, got)
	return nil
}

func TestSASHostSeesMetersAndEveryException(t *testing.T) {
	t.Parallel()
	data := t.TempDir()
	c := startCabinet(t, data, "--sas-addr", "1", "--sas-pty", "--spin-time", "5ms")
	h := sasHost(t, data)
	// AC power applied, then options changed: the first power-up records
	// the program's hash.
	if got := drain(t, h); fmt.Sprint(got) != fmt.Sprint([]sas.Exception{sas.ExcACPowerApplied, sas.ExcOperatorChangedOpts}) {
		t.Fatalf("start-up exceptions %v", got)
	}
	c.Bill(5000)
	c.Send(cabinettest.Command{Cmd: "press", Button: machine.BtnSpin})
	c.WaitIdle()
	c.Send(cabinettest.Command{Cmd: "door", Door: "main", Open: true})
	c.Send(cabinettest.Command{Cmd: "door", Door: "main", Open: false})
	got := drain(t, h)
	want := []sas.Exception{sas.ExcBill50Accepted, sas.ExcGameStarted, sas.ExcGameEnded, sas.ExcSlotDoorOpened, sas.ExcSlotDoorClosed}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Fatalf("exceptions %v, want %v", got, want)
	}
	credits, err := h.Credits()
	if err != nil || int64(credits) != c.State().CreditsCents {
		t.Fatalf("0x1A credits %d (%v), machine %d", credits, err, c.State().CreditsCents)
	}
	ms, err := h.Meters(0x1C)
	if err != nil || len(ms) == 0 {
		t.Fatalf("0x1C: %v %v", ms, err)
	}
	ledgerMeters := c.Send(cabinettest.Command{Cmd: "meters"}).Meters
	for _, m := range ms {
		if m.Code == 0x00 && int64(m.Value) != ledgerMeters["total coin in (bets)"] {
			t.Fatalf("0x1C coin in %d, ledger %d", m.Value, ledgerMeters["total coin in (bets)"])
		}
	}
	// 0x07 turns the bill acceptor off: a bill is returned, not credited;
	// 0x06 turns it back on.
	before := c.State().CreditsCents
	if _, err := h.LongPoll(0x07); err != nil {
		t.Fatal(err)
	}
	time.Sleep(100 * time.Millisecond)
	if r := c.Send(cabinettest.Command{Cmd: "bill", Cents: 1000}); r.View.CreditsCents != before {
		t.Fatalf("bill credited with the acceptor off by the host: %d -> %d", before, r.View.CreditsCents)
	}
	if _, err := h.LongPoll(0x06); err != nil {
		t.Fatal(err)
	}
	time.Sleep(100 * time.Millisecond)
	if r := c.Send(cabinettest.Command{Cmd: "bill", Cents: 1000}); r.View.CreditsCents != before+1000 {
		t.Fatalf("bill not credited after 0x06: %d", r.View.CreditsCents)
	}
	if got := drain(t, h); fmt.Sprint(got) != fmt.Sprint([]sas.Exception{sas.ExcBill10Accepted}) {
		t.Fatalf("exceptions after the bills: %v", got)
	}
	// ROM signature: the CRC of the program image seeded by the host.
	img, _ := os.ReadFile(filepath.Join(binDir, "cabinet"))
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	sig, err := h.ROMSignature(ctx, 0x1234, 20*time.Millisecond, nil)
	if err != nil || sig != sas.CRCSeeded(0x1234, img) {
		t.Fatalf("ROM signature %04X (%v), want %04X", sig, err, sas.CRCSeeded(0x1234, img))
	}
	// Exceptions pending at a SIGKILL are still owed after the restart.
	c.Send(cabinettest.Command{Cmd: "door", Door: "logic", Open: true})
	c.Send(cabinettest.Command{Cmd: "door", Door: "logic", Open: false})
	h.Close()
	c.Kill()
	// The same start-up configuration: no setting changed, so no 0x3C.
	c = startCabinet(t, data, "--sas-addr", "1", "--sas-pty", "--spin-time", "5ms")
	defer c.Stop()
	h = sasHost(t, data)
	defer h.Close()
	got = drain(t, h)
	want = []sas.Exception{sas.ExcCardCageOpened, sas.ExcCardCageClosed, sas.ExcACPowerApplied}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Fatalf("after the kill: %v, want %v", got, want)
	}
}

// After a RAM clear the ledger's meters start again at zero; the hard meters
// cannot go back, so they count on from what they showed.
func TestHardMetersCountOnAfterRAMClear(t *testing.T) {
	t.Parallel()
	data := t.TempDir()
	c := startCabinet(t, data, "--spin-time", "5ms")
	defer c.Stop()
	c.Bill(500)
	for range 3 {
		c.Send(cabinettest.Command{Cmd: "press", Button: machine.BtnSpin})
		c.WaitIdle()
	}
	waitHardMeter(t, c, "meter_games", 3, 30*time.Second)
	c.Send(cabinettest.Command{Cmd: "press", Button: machine.BtnCashOut})
	for c.State().Printing != "" {
		time.Sleep(20 * time.Millisecond)
	}
	ramClear(t, c)
	if m := c.Send(cabinettest.Command{Cmd: "meters"}).Meters; m["games played"] != 0 {
		t.Fatalf("games after RAM clear %d", m["games played"])
	}
	c.Bill(500)
	c.WaitFor("the note credited after the RAM clear", func(v machine.View) bool { return v.CreditsCents == 500 })
	for range 2 {
		if r := c.Send(cabinettest.Command{Cmd: "press", Button: machine.BtnSpin}); r.Refused != "" {
			t.Fatalf("spin after the RAM clear refused: %s (view %+v)", r.Refused, r.View)
		}
		c.WaitIdle()
	}
	waitHardMeter(t, c, "meter_games", 5, 30*time.Second)
}

// The real sashost binary against the real cabinet over a pseudo-terminal, in
// both framings: content, and PARMRK escapes written by the host.
func TestSashostBinaryBothFramings(t *testing.T) {
	t.Parallel()
	for _, framing := range []string{"content", "parmrk"} {
		t.Run(framing, func(t *testing.T) {
			data := t.TempDir()
			c := startCabinet(t, data, "--sas-addr", "3", "--sas-pty", "--sas-framing", framing)
			defer c.Stop()
			c.Bill(2000)
			var pty string
			for i := 0; i < 100 && pty == ""; i++ {
				b, _ := os.ReadFile(filepath.Join(data, "sas-pty"))
				pty = strings.TrimSpace(string(b))
				time.Sleep(10 * time.Millisecond)
			}
			sashost := func(args ...string) string {
				t.Helper()
				out, err := exec.Command(filepath.Join(binDir, "sashost"), append([]string{"--pty", pty, "--addr", "3", "--framing", framing, "--json"}, args...)...).CombinedOutput()
				if err != nil {
					t.Fatalf("sashost %v: %v\n%s", args, err, out)
				}
				return string(out)
			}
			var credits struct {
				Credits uint64 `json:"credits"`
			}
			out := sashost("credits")
			if err := json.Unmarshal([]byte(out), &credits); err != nil || credits.Credits != 2000 {
				t.Fatalf("credits over SAS: %s; the cabinet shows %d cents", out, c.State().CreditsCents)
			}
			// The exceptions so far: power-up, program recorded, the bill.
			events := sashost("events", "--count", "3", "--for", "5s")
			for _, want := range []string{`"code":23`, `"code":60`, `"code":74`} {
				if !strings.Contains(events, want) {
					t.Fatalf("events lack %s:\n%s", want, events)
				}
			}
			if out := sashost("meters"); !strings.Contains(out, "total drop") {
				t.Fatalf("meters: %s", out)
			}
		})
	}
}

// A linked level over SAS with the real binary, in addressed award mode:
// the host's values reach the screen, a hit is reported (0x56, 0x87) with
// the value shown and survives a SIGKILL, an addressed confirmation above
// that value is refused (recorded in the ledger), the host's addressed
// confirmation pays it exactly once (0x54), and 5 s without values puts
// the link down (0x53) and the top bet away.
func TestLinkedJackpotOverSAS(t *testing.T) {
	t.Parallel()
	data := t.TempDir()
	args := []string{"--paytable-dir", cabinettest.LinkPaytableDir(t, "../.."), "--paytable", "t-link", "--jackpot", "off",
		"--sas-addr", "1", "--sas-pty", "--link-group", "5", "--link-levels", "1", "--spin-time", "5ms", "--handpay-limit", "1000000",
		"--link-award", "addressed"}
	c := startCabinet(t, data, args...)
	h := sasHost(t, data)
	value := []sas.LevelValue{{Level: 1, Amount: 500_00}}
	if err := h.Broadcast(5, value, true); err != nil {
		t.Fatal(err)
	}
	v := c.WaitFor("the linked value", func(v machine.View) bool {
		return len(v.Jackpots) == 1 && v.Jackpots[0].Cents == 500_00 && v.TopOffered == 1
	})
	if !v.Jackpots[0].Linked {
		t.Fatalf("jackpot view %+v", v.Jackpots)
	}
	c.Bill(50000)
	games := 0
	for {
		if err := h.Broadcast(5, value, true); err != nil {
			t.Fatal(err)
		}
		r := c.Send(cabinettest.Command{Cmd: "press", Button: machine.BtnMaxBet})
		if r.Refused == "refused_jackpot_pending" {
			break
		}
		if r.Refused != "" {
			t.Fatalf("max bet refused: %s", r.Refused)
		}
		games++
		if games > 1000 {
			t.Fatal("no progressive hit in 1000 games at 1 in 64")
		}
		c.WaitIdle()
	}
	wins, err := h.ProgressiveWins()
	if err != nil || wins.Group != 5 || len(wins.Wins) != 1 || wins.Wins[0].Level != 1 || wins.Wins[0].Amount != 500_00 {
		t.Fatalf("0x87 after the hit: %+v %v", wins, err)
	}
	if ex := drain(t, h); !slices.Contains(ex, sas.ExcProgressiveLevelHit) {
		t.Fatalf("no 0x56 among %v", ex)
	}

	// SIGKILL with the hit unconfirmed: it is still reported afterwards.
	h.Close()
	c.Kill()
	c = startCabinet(t, data, args...)
	defer c.Stop()
	h = sasHost(t, data)
	defer h.Close()
	if wins, err := h.ProgressiveWins(); err != nil || len(wins.Wins) != 1 || wins.Wins[0].Amount != 500_00 {
		t.Fatalf("0x87 after the restart: %+v %v", wins, err)
	}
	before := c.State().CreditsCents
	// More than the cabinet showed: refused (were it paid, the next
	// confirmation would find no hit and the credits would be off).
	if err := h.Broadcast(5, []sas.LevelValue{{Level: 1, Amount: 500_01}}, false); err != nil {
		t.Fatal(err)
	}
	// The controller's amount, confirmed twice (a retry): paid once.
	confirm := []sas.LevelValue{{Level: 1, Amount: 498_76}}
	for range 2 {
		if err := h.Broadcast(5, confirm, false); err != nil {
			t.Fatal(err)
		}
	}
	c.WaitFor("the award", func(v machine.View) bool { return v.CreditsCents == before+498_76 })
	if wins, err := h.ProgressiveWins(); err != nil || len(wins.Wins) != 0 {
		t.Fatalf("0x87 after the award: %+v %v", wins, err)
	}
	if ex := drain(t, h); !slices.Contains(ex, sas.ExcProgressiveWin) {
		t.Fatalf("no 0x54 among %v", ex)
	}
	time.Sleep(50 * time.Millisecond)
	if got := c.State().CreditsCents; got != before+498_76 {
		t.Fatalf("credits %d after two confirmations, want one award: %d", got, before+498_76)
	}
	if cum, err := h.CumulativeProgressiveWins(0); err != nil || cum.Amount != 498_76 {
		t.Fatalf("0x83: %+v %v", cum, err)
	}

	// No values for 5 s: link down.
	c.WaitFor("the link down", func(v machine.View) bool { return v.LinkDown && v.TopOffered == 0 })
	if ex := drain(t, h); !slices.Contains(ex, sas.ExcNoProgressive5s) {
		t.Fatalf("no 0x53 among %v", ex)
	}
	if err := h.Broadcast(5, value, true); err != nil {
		t.Fatal(err)
	}
	c.WaitFor("the link back", func(v machine.View) bool { return !v.LinkDown && v.TopOffered == 1 })
	refused := slices.ContainsFunc(readLedger(t, data).Events, func(e meters.Event) bool {
		return e.Code == meters.EventLinkAwardRefused && strings.Contains(e.Detail, "50001 cents")
	})
	if !refused {
		t.Fatal("the confirmation above the claim is not in the ledger's events")
	}
}
