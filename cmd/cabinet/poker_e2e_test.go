package main

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/openegm/cabinet/internal/cabinettest"
	"github.com/openegm/cabinet/internal/money"
	"github.com/openegm/cabinet/machine"
	"github.com/openegm/cabinet/meters"
	"github.com/openegm/cabinet/poker/seatclient"
	"github.com/openegm/cabinet/poker/seatmsg"
	"github.com/openegm/cabinet/poker/tableledger"
	"github.com/openegm/cabinet/poker/tableserver/tablesrvtest"
)

// A seat at the casino's poker tables: the real cabinet and the real
// tablesrv, a bot of the tests in another seat.

var buildTablesrv = sync.OnceValue(func() error { return cabinettest.Build("../..", binDir, "tablesrv") })

const pokerTable = "holdem-nl-2"

// tableServer is a running tablesrv.
type tableServer struct {
	t    *testing.T
	cmd  *exec.Cmd
	data string
	url  string
	api  *seatclient.Client
	// table is the one table it runs (tablesrv run --table).
	table string
}

func startTableServer(t *testing.T, data string) *tableServer {
	t.Helper()
	return startTableServerWith(t, data, pokerTable)
}

func startTableServerWith(t *testing.T, data, table string) *tableServer {
	t.Helper()
	if err := buildTablesrv(); err != nil {
		t.Fatal(err)
	}
	s := &tableServer{t: t, data: data, table: table}
	s.start()
	t.Cleanup(func() {
		s.kill()
		if t.Failed() {
			b, _ := os.ReadFile(s.data + ".log")
			t.Logf("tablesrv log:\n%s", tail(b, 30))
		}
	})
	return s
}

func (s *tableServer) start() {
	s.t.Helper()
	addrFile := filepath.Join(s.data, "tablesrv.addr")
	os.Remove(addrFile)
	logf, err := os.OpenFile(s.data+".log", os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o600)
	if err != nil {
		s.t.Fatal(err)
	}
	defer logf.Close()
	listen := "127.0.0.1:0"
	if s.url != "" {
		listen = strings.TrimPrefix(s.url, "http://") // the cabinet knows the server by its address
	}
	s.cmd = exec.Command(filepath.Join(binDir, "tablesrv"), "run", "--data", s.data, "--listen", listen, "--hand-pause", "150ms", "--table", s.table)
	s.cmd.Stdout, s.cmd.Stderr = logf, logf
	if err := s.cmd.Start(); err != nil {
		s.t.Fatal(err)
	}
	waitUntil(s.t, "the table server to listen", func() bool {
		b, err := os.ReadFile(addrFile)
		if err == nil && len(bytes.TrimSpace(b)) > 0 {
			s.url = "http://" + strings.TrimSpace(string(b))
			return true
		}
		return false
	})
	tok, err := os.ReadFile(s.tokenFile())
	if err != nil {
		s.t.Fatal(err)
	}
	s.api = &seatclient.Client{URL: s.url, Token: strings.TrimSpace(string(tok))}
}

func (s *tableServer) tokenFile() string { return filepath.Join(s.data+".board", "api.token") }

func (s *tableServer) kill() {
	if s.cmd != nil && s.cmd.ProcessState == nil {
		s.cmd.Process.Signal(syscall.SIGKILL)
		s.cmd.Wait()
	}
}

func (s *tableServer) stop() {
	s.cmd.Process.Signal(syscall.SIGTERM)
	s.cmd.Wait()
}

// verify runs tablesrv verify on its ledger with its registered key.
func (s *tableServer) verify() string {
	s.t.Helper()
	out, err := exec.Command(filepath.Join(binDir, "tablesrv"), "verify", s.data, "--pub",
		filepath.Join(s.data+".board", tableledger.KeyName+".pub")).CombinedOutput()
	if err != nil || !strings.HasPrefix(string(out), "VERIFIED") {
		s.t.Fatalf("tablesrv verify: %v\n%s", err, out)
	}
	return string(out)
}

// totals are a source's transfers as the server's ledger holds them.
func (s *tableServer) totals(source string) (in, out int64, done map[string]seatmsg.TransferResult) {
	s.t.Helper()
	list, err := s.api.TransfersOf(source)
	if err != nil {
		s.t.Fatalf("transfers of %s: %v", source, err)
	}
	done = map[string]seatmsg.TransferResult{}
	for _, tr := range list {
		if tr.Status != "done" {
			continue
		}
		done[tr.ID] = tr
		if tr.Kind == tableledger.CashOut {
			out += tr.Amount
		} else {
			in += tr.Amount
		}
	}
	return in, out, done
}

func pokerCabinet(t *testing.T, data string, s *tableServer) *cabinet {
	t.Cleanup(func() {
		if t.Failed() {
			b, _ := os.ReadFile(filepath.Join(data, "cabinet.log"))
			t.Logf("cabinet log:\n%s", tail(b, 40))
		}
	})
	return startCabinet(t, data, "--spin-time", "5ms", "--tablesrv", s.url, "--tablesrv-token", s.tokenFile())
}

// botAt seats a bot of the tests at the table, with the cashier's money.
func botAt(t *testing.T, s *tableServer, name string) *tablesrvtest.Bot {
	t.Helper()
	info, err := s.api.Table(s.table)
	if err != nil {
		t.Fatal(err)
	}
	return botWith(t, s, name, info.RequiredCave, 7)
}

// botWith seats a bot with cents of the cashier's money (a chemin de fer
// table asks a least, not an exact cave).
func botWith(t *testing.T, s *tableServer, name string, cents int64, seed uint64) *tablesrvtest.Bot {
	t.Helper()
	res, err := s.api.BuyIn(s.table, seatmsg.MoneyRequest{TransferID: "bot-" + name, Source: "cashier", Player: name, Amount: cents})
	if err != nil {
		t.Fatal(err)
	}
	b, err := tablesrvtest.Dial(s.url, res.Token, seed)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(b.Close)
	return b
}

// cave is what the table asks now, as the cabinet's view has it.
func cave(t *testing.T, c *cabinet) int64 {
	t.Helper()
	return listed(t, c, pokerTable).RequiredCave
}

// listed is the table as the cabinet's view lists it, once it does.
func listed(t *testing.T, c *cabinet, table string) seatmsg.TableInfo {
	t.Helper()
	v := c.WaitFor("the table server's tables", func(v machine.View) bool {
		return v.Poker != nil && slices.ContainsFunc(v.Poker.Tables, func(i seatmsg.TableInfo) bool { return i.ID == table })
	})
	i := slices.IndexFunc(v.Poker.Tables, func(i seatmsg.TableInfo) bool { return i.ID == table })
	return v.Poker.Tables[i]
}

// settled waits until the cabinet has no transfer under way.
func settled(t *testing.T, c *cabinet) machine.View {
	t.Helper()
	var v machine.View
	waitUntil(t, "the cabinet's transfer answered", func() bool {
		v = c.State()
		return v.Poker != nil && v.Poker.Transfer == ""
	})
	return v
}

// cabinetTransfers are the poker records of the cabinet's ledger: each
// transfer asked, and its answers.
type cabinetTransfer struct {
	asked           meters.PokerTransfer
	done, refused   int
	cents           int64
	doneAt, askedAt uint64
}

func readCabinetTransfers(t *testing.T, data string) map[string]*cabinetTransfer {
	t.Helper()
	out := map[string]*cabinetTransfer{}
	err := meters.Records(filepath.Join(data, "ledger"), func(seq uint64, r meters.Record) error {
		switch r := r.(type) {
		case meters.PokerTransfer:
			if out[r.ID] != nil {
				t.Errorf("transfer %s asked twice in the cabinet's ledger", r.ID)
			}
			out[r.ID] = &cabinetTransfer{asked: r, askedAt: seq}
		case meters.PokerDone:
			out[r.ID].done++
			out[r.ID].cents = r.Cents
		case meters.PokerRefused:
			out[r.ID].refused++
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// agree checks that both ledgers hold the same transfers of the cabinet,
// each once: what the cabinet recorded done the server holds done for the
// same amount, what it recorded refused the server does not hold, and the
// cabinet's poker meters are the server's totals.
func agree(t *testing.T, c *cabinet, s *tableServer, source string) (in, out int64) {
	t.Helper()
	in, out, done := s.totals(source)
	mine := readCabinetTransfers(t, c.Data)
	for id, tr := range mine {
		srv, ok := done[id]
		switch {
		case tr.done+tr.refused > 1:
			t.Fatalf("transfer %s answered %d times in the cabinet's ledger", id, tr.done+tr.refused)
		case tr.done == 1 && (!ok || srv.Amount != tr.cents):
			t.Fatalf("transfer %s done for %d cents at the cabinet, the server holds %+v", id, tr.cents, srv)
		case tr.refused == 1 && ok:
			t.Fatalf("transfer %s refused at the cabinet, done on the server: %+v", id, srv)
		}
	}
	for id := range done {
		if mine[id] == nil || mine[id].done != 1 {
			t.Fatalf("transfer %s done on the server, not in the cabinet's ledger (%+v)", id, mine[id])
		}
	}
	m := c.Send(cabinettest.Command{Cmd: "meters"}).Meters
	if m["transfers to poker tables"] != in || m["transfers from poker tables"] != out {
		t.Fatalf("the cabinet's poker meters to %d from %d; the server's totals for %s in %d out %d",
			m["transfers to poker tables"], m["transfers from poker tables"], source, in, out)
	}
	return in, out
}

// TestPokerSeatAtTheCabinet: notes in, a buy-in at a hold'em table of the
// real table server with a bot in another seat, hands played by the
// cabinet's player through poker_act, a leave: the credits are what came
// back, the two ledgers agree on every transfer, and both verify.
func TestPokerSeatAtTheCabinet(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	s := startTableServer(t, filepath.Join(dir, "tablesrv"))
	data := filepath.Join(dir, "cabinet")
	os.MkdirAll(data, 0o700)
	c := pokerCabinet(t, data, s)
	for range 3 {
		c.Bill(5000)
	}
	before := c.State().CreditsCents
	buy := cave(t, c)
	if v := c.State(); !slices.Contains(v.Games, machine.GamePoker) {
		t.Fatalf("the menu %v has no poker", v.Games)
	}
	c.Send(cabinettest.Command{Cmd: "select_game", Value: machine.GamePoker})
	// A cave the table does not ask: the server refuses it, the credits
	// come back, and it is in neither ledger as money moved.
	c.Send(cabinettest.Command{Cmd: "poker_buyin", Value: pokerTable, Cents: buy - 100})
	if v := settled(t, c); v.Poker.Status != "refused" || v.Poker.Refused == "" || v.CreditsCents != before {
		t.Fatalf("a buy-in the server refused: credits %d, seat %+v", v.CreditsCents, v.Poker)
	}
	if r := c.Send(cabinettest.Command{Cmd: "poker_buyin", Value: pokerTable, Cents: buy}); r.Refused != "" {
		t.Fatalf("buy-in refused: %s", r.Refused)
	}
	v := settled(t, c)
	if v.Poker.Status != "seated" || v.Poker.AtTable != buy || v.CreditsCents != before-buy {
		t.Fatalf("after the buy-in: credits %d, seat %+v", v.CreditsCents, v.Poker)
	}
	source := v.Poker.Source
	// At the table: the other games and the cash-out wait.
	if r := c.Send(cabinettest.Command{Cmd: "press", Button: machine.BtnCashOut}); r.Refused != "refused_poker_seated" {
		t.Fatalf("cash-out at the table: %q", r.Refused)
	}
	if r := c.Send(cabinettest.Command{Cmd: "select_game", Value: "reels"}); r.Refused != "refused_poker_seated" {
		t.Fatalf("another game at the table: %q", r.Refused)
	}

	bot := botAt(t, s, "bot")
	info, err := s.api.Table(pokerTable)
	if err != nil {
		t.Fatal(err)
	}
	rnd := rand.New(rand.NewPCG(11, 12))
	const hands = 4
	var acted, stateHands, rebuys, botRebuys int
	var lastHand uint64
	var last string
	deadline := time.Now().Add(3 * time.Minute)
	for {
		tb, err := s.api.Ledger(pokerTable)
		if err != nil {
			t.Fatal(err)
		}
		if tb.Meters.Hands >= hands && rebuys > 0 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("%d hands in 3 minutes (%d acts of the cabinet); the table's seats %+v", tb.Meters.Hands, acted, tb.Players)
		}
		// Whoever is broke buys again, so the hands go on: the cabinet
		// through a re-buy of the player's credits (and once in any case,
		// as the screen's re-buy button asks it), the bot from the
		// cashier (a re-buy during a hand he plays is refused: tried
		// again at the next turn).
		if p := tb.Players["bot"]; p != nil && p.Stack < 200 && tb.Hand == 0 {
			botRebuys++
			s.api.Rebuy(pokerTable, seatmsg.MoneyRequest{TransferID: fmt.Sprintf("bot-rebuy-%d", botRebuys), Source: "cashier", Player: "bot", Amount: info.MinRebuy})
		}
		if p := tb.Players[source]; p != nil && (p.Stack < 200 || rebuys == 0) && tb.Hand == 0 && c.State().CreditsCents >= info.MinRebuy {
			c.Send(cabinettest.Command{Cmd: "poker_buyin", Value: pokerTable, Cents: info.MinRebuy})
			if why := settled(t, c).Poker.Refused; why == "" {
				rebuys++
			} else if !strings.Contains(why, "re-buy") {
				t.Fatalf("a re-buy refused for another reason than a hand under way: %s", why)
			}
		}
		st := c.State().Poker.State
		if st == nil {
			time.Sleep(20 * time.Millisecond)
			continue
		}
		if st.Hand != lastHand {
			lastHand = st.Hand
			stateHands++
		}
		key := fmt.Sprintf("%d/%d", st.Hand, len(st.Current)) // one act per decision
		if kind, to, ok := tablesrvtest.RandomAct(rnd, *st); ok && key != last && st.You != nil && st.ToAct == st.You.Seat {
			if kind == "fold" || kind == "all_in" {
				kind, to = "call", 0 // the cabinet's player stays in: the hands go to their end
				if st.Options != nil && st.Options.Check {
					kind = "check"
				}
			}
			if r := c.Send(cabinettest.Command{Cmd: "poker_act", Action: kind, Cents: to}); r.Refused != "" {
				t.Fatalf("poker_act %s %d refused: %s", kind, to, r.Refused)
			}
			acted++
			last = key
		}
		time.Sleep(15 * time.Millisecond)
	}
	if acted == 0 || stateHands < 2 {
		t.Fatalf("the cabinet acted %d times over %d hands it saw", acted, stateHands)
	}

	// The replay of his last hands, as the screen's button asks it: the
	// server's frames in the view, and nothing of the money moved.
	pre := settled(t, c)
	if r := c.Send(cabinettest.Command{Cmd: "poker_act", Action: "replay"}); r.Refused != "" {
		t.Fatalf("replay refused: %s", r.Refused)
	}
	v = c.WaitFor("the replay in the view", func(v machine.View) bool {
		return v.Poker != nil && v.Poker.Replay != nil && len(v.Poker.Replay.Hands) > 0
	})
	ownCards := false
	for _, h := range v.Poker.Replay.Hands {
		if len(h.Frames) == 0 || h.Frames[0].Record.Kind != "hand_start" {
			t.Fatalf("replay of hand %d: %d frames, the first %+v", h.Hand, len(h.Frames), h.Frames)
		}
		for _, f := range h.Frames {
			for _, fs := range f.Seats {
				ownCards = ownCards || (fs.Player == source && len(fs.Cards) == 2)
			}
		}
	}
	if !ownCards || v.CreditsCents != pre.CreditsCents || v.Poker.AtTable != pre.Poker.AtTable {
		t.Fatalf("replay: his cards in a frame %v; credits %d (was %d), at the table %d (was %d)", ownCards, v.CreditsCents, pre.CreditsCents, v.Poker.AtTable, pre.Poker.AtTable)
	}
	c.Send(cabinettest.Command{Cmd: "poker_act", Action: "close_replay"})
	if v := c.State(); v.Poker.Replay != nil {
		t.Fatal("the replay stays after it is closed")
	}

	if r := c.Send(cabinettest.Command{Cmd: "poker_leave"}); r.Refused != "" {
		t.Fatalf("leave refused: %s", r.Refused)
	}
	v = settled(t, c)
	if v.Poker.Status != "" {
		t.Fatalf("after leaving: %+v", v.Poker)
	}
	in, out := agree(t, c, s, source)
	// The session's totals: the server's, from its "left" message.
	v = c.WaitFor("the session's totals from the server", func(v machine.View) bool {
		return v.Poker != nil && v.Poker.Ended != nil && v.Poker.Ended.Server
	})
	if e := v.Poker.Ended; e.Table != pokerTable || e.Amount != out || e.Totals.CashedOut != out || e.Totals.BoughtIn != in || e.Totals.Hands < 1 {
		t.Fatalf("the session's summary %+v; bought in %d, cashed out %d", e, in, out)
	}
	refused := 0
	for _, tr := range readCabinetTransfers(t, c.Data) {
		refused += tr.refused
	}
	if refused < 1 || in != buy+int64(rebuys)*info.MinRebuy || v.CreditsCents != before-in+out {
		t.Logf("%d transfers refused in the cabinet's ledger", refused)
		t.Fatalf("credits %d; before %d, bought in %d (server %d), cashed out %d", v.CreditsCents, before, buy, in, out)
	}
	tr, err := s.api.Transfer(meters.PokerCashOutID(readBuyIn(t, c), 1))
	if err != nil || tr.Status != "done" || tr.Amount != out {
		t.Fatalf("the server's cash-out %+v %v", tr, err)
	}
	t.Logf("%d acts by the cabinet; bought in %d and %d re-buys, cashed out %d (server: in %d out %d); the bot re-bought %d times, its last state: hand %d",
		acted, buy, rebuys, out, in, out, botRebuys, bot.State().Hand)

	// The cash-out is the cabinet's again.
	if r := c.Send(cabinettest.Command{Cmd: "press", Button: machine.BtnCashOut}); r.Refused != "" {
		t.Fatalf("cash-out after leaving: %q", r.Refused)
	}
	c.Stop()
	s.stop()
	s.verify()
	mustVerify(t, data, c.MachinePub())
	// The inspector's readout has the poker meters with the others.
	mr, err := exec.Command(filepath.Join(binDir, "meterread"), "meters", "--lang", "en", data).CombinedOutput()
	if err != nil || !regexp.MustCompile(`transfers to poker tables +`+regexp.QuoteMeta(money.Count("en", in))+` `).Match(mr) ||
		!regexp.MustCompile(`transfers from poker tables +`+regexp.QuoteMeta(money.Count("en", out))+` `).Match(mr) {
		t.Fatalf("meterread meters: %v\n%s", err, mr)
	}
}

// readBuyIn is the cabinet's last buy-in ID, from its ledger.
func readBuyIn(t *testing.T, c *cabinet) string {
	t.Helper()
	var last *cabinetTransfer
	for _, tr := range readCabinetTransfers(t, c.Data) {
		if tr.asked.Kind == meters.PokerBuyIn && tr.done == 1 && (last == nil || tr.askedAt > last.askedAt) {
			last = tr
		}
	}
	if last == nil {
		t.Fatal("no buy-in done in the cabinet's ledger")
	}
	return last.asked.ID
}

// TestPokerSeatCrashLoop SIGKILLs the cabinet, or the table server, or
// both, in the middle of buy-ins, re-buys and cash-outs, restarts what
// was killed and checks after each that every transfer happened exactly
// once on both sides: the cabinet's ledger and the server's hold the same
// transfers, done for the same amounts, and the credits are what the
// transfers left. Every third kill is surely between the steps: the
// server is down when the cabinet records the request, and the cabinet is
// killed before it can have an answer; after the restart the transfer is
// still open, and is asked again. CRASH_ITERATIONS sets the number of
// kills.
func TestPokerSeatCrashLoop(t *testing.T) {
	cabinettest.PlainPassOnly(t)
	t.Parallel()
	n := crashIterations(9)
	dir := t.TempDir()
	s := startTableServer(t, filepath.Join(dir, "tablesrv"))
	data := filepath.Join(dir, "cabinet")
	os.MkdirAll(data, 0o700)
	c := pokerCabinet(t, data, s)
	buy := cave(t, c)
	info, err := s.api.Table(pokerTable)
	if err != nil {
		t.Fatal(err)
	}
	rebuy := max(info.MinRebuy, 100)
	rnd := rand.New(rand.NewPCG(uint64(time.Now().UnixNano()), 18))
	var billsIn int64
	outcomes := map[string]int{}
	var source string
	for i := range n {
		cave(t, c) // a cabinet just started has the tables after its first read
		v := settled(t, c)
		// The next transfer: a buy-in, a re-buy, then a leave.
		cmd := cabinettest.Command{Cmd: "poker_leave"}
		step := "cash-out"
		switch {
		case v.Poker.Status != "seated":
			cmd, step = cabinettest.Command{Cmd: "poker_buyin", Value: pokerTable, Cents: buy}, "buy-in"
		case v.Poker.AtTable == buy:
			cmd, step = cabinettest.Command{Cmd: "poker_buyin", Value: pokerTable, Cents: rebuy}, "re-buy"
		}
		for c.State().CreditsCents < cmd.Cents {
			c.Bill(5000)
			billsIn += 5000
		}
		// Every kill for every step in nine: the steps go round by three,
		// the kills by three shifted every third.
		switch (i + i/3) % 3 {
		case 2: // surely between the steps
			s.kill()
			if r := c.Send(cmd); r.Refused != "" {
				t.Fatalf("kill %d: %s refused: %s", i, step, r.Refused)
			}
			c.Kill()
			c = pokerCabinet(t, data, s)
			if v := c.State(); v.Poker.Transfer == "" {
				t.Fatalf("kill %d: the %s recorded before the kill is not open after it: %+v", i, step, v.Poker)
			}
			s.start()
			outcomes[step+": both killed between the steps"]++
		case 0: // the cabinet, at a random moment after the request is recorded
			if r := c.Send(cmd); r.Refused != "" {
				t.Fatalf("kill %d: %s refused: %s", i, step, r.Refused)
			}
			time.Sleep(time.Duration(rnd.IntN(8)) * time.Millisecond)
			c.Kill()
			c = pokerCabinet(t, data, s)
			if c.State().Poker.Transfer != "" {
				outcomes[step+": cabinet killed before the answer was recorded"]++
			} else {
				outcomes[step+": cabinet killed after the answer was recorded"]++
			}
		case 1: // the server, at a random moment while it is asked
			if r := c.Send(cmd); r.Refused != "" {
				t.Fatalf("kill %d: %s refused: %s", i, step, r.Refused)
			}
			time.Sleep(time.Duration(rnd.IntN(30)) * time.Millisecond)
			s.kill()
			s.start()
			outcomes[step+": server killed"]++
		}
		v = settled(t, c)
		if v.Poker.Source != "" {
			source = v.Poker.Source
		}
		if source == "" {
			source = meters.PokerName("EGM-TEST")
		}
		in, out := agree(t, c, s, source)
		if v.CreditsCents != billsIn-in+out {
			t.Fatalf("kill %d (%s): credits %d, notes %d − to tables %d + from tables %d", i, step, v.CreditsCents, billsIn, in, out)
		}
		tb, err := s.api.Ledger(pokerTable)
		if err != nil {
			t.Fatal(err)
		}
		if seated := tb.Players[meters.PokerName("EGM-TEST")] != nil; seated != (v.Poker.Status == "seated") {
			t.Fatalf("kill %d (%s): the server seats the player: %v; the cabinet: %+v", i, step, seated, v.Poker)
		}
	}
	if v := settled(t, c); v.Poker.Status == "seated" {
		c.Send(cabinettest.Command{Cmd: "poker_leave"})
		settled(t, c)
	}
	in, out := agree(t, c, s, source)
	t.Logf("%d kills survived: %v; %d cents to the table, %d back", n, outcomes, in, out)
	c.Stop()
	s.stop()
	s.verify()
	mustVerify(t, data, c.MachinePub())
}
