package tableserver_test

import (
	"bytes"
	"context"
	"crypto/ed25519"
	"crypto/rand"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/openegm/cabinet/book"
	"github.com/openegm/cabinet/poker/seatmsg"
	"github.com/openegm/cabinet/poker/tabledef"
	"github.com/openegm/cabinet/poker/tableledger"
	. "github.com/openegm/cabinet/poker/tableserver"
	"github.com/openegm/cabinet/poker/tableserver/tablesrvtest"
	"github.com/openegm/cabinet/reels"
	"github.com/openegm/cabinet/rng"
)

const holdemDef = `{"id": "nl", "version": 1, "game": "holdem", "title": {"pt": "Mesa T", "en": "Table T"},
  "table": "1", "seats": 6, "min_bet_cents": 100, "initial_cave_cents": 5000, "min_rebuy_cents": 1000,
  "structure": "no_limit", "rake_bps": 500, "decision_seconds": 10, "extra_seconds": 5}`

const syntheticDef = `{"id": "sint", "version": 1, "game": "synthetic_poker", "title": {"pt": "S", "en": "S"},
  "number": 3, "initial_cave_cents": 20000, "min_bet_cents": 100, "min_rebuy_cents": 5000,
  "rake_bps": 300, "estardilho": true, "partida_minutes": 60, "decision_seconds": 10}`

type testWriter struct{ t *testing.T }

func (w testWriter) Write(p []byte) (int, error) {
	if !bytes.Contains(p, []byte("no deal")) {
		w.t.Log(strings.TrimSpace(string(p)))
	}
	return len(p), nil
}

// clock is the tests' time: it moves only when told.
type clock struct {
	mu sync.Mutex
	t  time.Time
}

func (c *clock) Now() time.Time { c.mu.Lock(); defer c.mu.Unlock(); return c.t }
func (c *clock) Add(d time.Duration) {
	c.mu.Lock()
	c.t = c.t.Add(d)
	c.mu.Unlock()
}

type rig struct {
	t      *testing.T
	data   string
	board  string
	pub    ed25519.PublicKey
	certs  []*tabledef.Certified
	clock  *clock
	led    *tableledger.Ledger
	wit    *book.FileWitness
	srv    *Server
	http   *httptest.Server
	api    *tablesrvtest.Client
	rebuys int
	// closing is the server's closing hour (Options.Closing; nil: none).
	closing func(time.Time) time.Time
}

var seatKey = []byte("0123456789abcdef0123456789abcdef")

func certify(t *testing.T, defs ...string) ([]*tabledef.Certified, ed25519.PublicKey) {
	pub, priv, _ := ed25519.GenerateKey(rand.Reader)
	var out []*tabledef.Certified
	for _, d := range defs {
		c, err := tabledef.LoadCertified("def.json", []byte(d), reels.Sign(priv, []byte(d)), []ed25519.PublicKey{pub})
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, c)
	}
	return out, pub
}

func newRig(t *testing.T, defs ...string) *rig {
	certs, pub := certify(t, defs...)
	r := &rig{t: t, data: t.TempDir(), board: t.TempDir(), pub: pub, certs: certs,
		clock: &clock{t: time.Date(2026, 6, 1, 21, 0, 0, 0, time.UTC)}}
	r.start()
	return r
}

func (r *rig) start() {
	r.t.Helper()
	w, err := book.OpenFileWitness(filepath.Join(r.board, "witness"))
	if err != nil {
		r.t.Fatal(err)
	}
	led, info, err := tableledger.Open(r.data, tableledger.Options{Keys: book.FileKeys{Dir: r.board}, Witness: w, SealEvery: 50})
	if err != nil {
		r.t.Fatal(err)
	}
	if info.Witness.Tampered() {
		r.t.Fatalf("witness: %+v", info.Witness)
	}
	srv, err := Open(led, Options{Tables: r.certs, RNG: rng.NewSeeded(uint64(time.Now().UnixNano())), Now: r.clock.Now,
		HandPause: time.Second, SeatKey: seatKey, Closing: r.closing, Log: slog.New(slog.NewTextHandler(testWriter{r.t}, &slog.HandlerOptions{Level: slog.LevelDebug}))})
	if err != nil {
		r.t.Fatal(err)
	}
	r.led, r.wit, r.srv = led, w, srv
	r.http = httptest.NewServer(srv.Handler("api-token"))
	r.api = &tablesrvtest.Client{URL: r.http.URL, Token: "api-token"}
	r.t.Cleanup(r.stop)
}

func (r *rig) stop() {
	if r.srv == nil {
		return
	}
	r.http.Close()
	r.srv.Close()
	r.led.Close()
	r.wit.Close()
	r.srv = nil
}

func (r *rig) buyIn(table, player string) seatmsg.TransferResult {
	r.t.Helper()
	info, err := r.api.Table(table)
	if err != nil {
		r.t.Fatal(err)
	}
	res, err := r.api.BuyIn(table, seatmsg.MoneyRequest{TransferID: "in-" + player, Source: "cashier", Player: player, Amount: info.RequiredCave})
	if err != nil {
		r.t.Fatalf("buy-in %s: %v", player, err)
	}
	return res
}

func (r *rig) ledger(table string) tableledger.Table {
	t, ok := r.srv.LedgerTable(table)
	if !ok {
		r.t.Fatalf("no table %s", table)
	}
	return t
}

// run pumps the server with the test clock until cond holds on the
// ledger's table.
func (r *rig) run(table, what string, step time.Duration, cond func(tableledger.Table) bool) {
	r.t.Helper()
	deadline := time.Now().Add(90 * time.Second)
	for tb := r.ledger(table); !cond(tb); tb = r.ledger(table) {
		if time.Now().After(deadline) {
			r.t.Fatalf("waiting for %s: %+v", what, tb.Meters)
		}
		// The cashier buys again for a player who went broke (refused
		// during a hand he plays: tried again later).
		for p, s := range tb.Players {
			if s.Stack < 100 && s.CashOut == "" {
				r.rebuys++
				r.api.Rebuy(table, seatmsg.MoneyRequest{TransferID: fmt.Sprintf("rb-%s-%d", p, r.rebuys), Source: s.Source, Player: p, Amount: 5000})
			}
		}
		r.clock.Add(step)
		r.srv.Pump()
		time.Sleep(15 * time.Millisecond)
	}
}

func TestHoldemSeatsPlayAndCashOut(t *testing.T) {
	r := newRig(t, holdemDef)
	ana := r.buyIn("nl", "ana")
	bia := r.buyIn("nl", "bia")
	if ana.Token == "" || ana.Status != "done" || ana.Stack != 5000 || ana.Seat == 0 {
		t.Fatalf("ana's buy-in %+v", ana)
	}
	// The same request again is the same transfer; another under its ID is refused.
	again, err := r.api.BuyIn("nl", seatmsg.MoneyRequest{TransferID: "in-ana", Source: "cashier", Player: "ana", Amount: 5000})
	if err != nil || again.Token != ana.Token || again.Seat != ana.Seat {
		t.Fatalf("repeated buy-in %+v %v", again, err)
	}
	var ae *tablesrvtest.APIError
	if _, err := r.api.BuyIn("nl", seatmsg.MoneyRequest{TransferID: "in-ana", Source: "cashier", Player: "ana", Amount: 6000}); !errors.As(err, &ae) || ae.Status != http.StatusConflict {
		t.Fatalf("a different buy-in under the same ID: %v", err)
	}
	if _, err := r.api.BuyIn("nl", seatmsg.MoneyRequest{TransferID: "in-caio", Source: "cashier", Player: "caio", Amount: 4000}); !errors.As(err, &ae) || !strings.Contains(ae.Msg, "rules 9-10") {
		t.Fatalf("a cave the table does not ask: %v", err)
	}
	if tb := r.ledger("nl"); tb.Meters.PaidIn != 10000 {
		t.Fatalf("paid in %d after a repeated buy-in", tb.Meters.PaidIn)
	}
	var bots []*tablesrvtest.Bot
	for i, tok := range []string{ana.Token, bia.Token} {
		b, err := tablesrvtest.Dial(r.http.URL, tok, uint64(i+1))
		if err != nil {
			t.Fatal(err)
		}
		defer b.Close()
		bots = append(bots, b)
	}
	r.run("nl", "20 hands", 700*time.Millisecond, func(tb tableledger.Table) bool { return tb.Meters.Hands >= 20 })
	// A re-buy must come from the player's source.
	if _, err := r.api.Rebuy("nl", seatmsg.MoneyRequest{TransferID: "rb-ana", Source: "elsewhere", Player: "ana", Amount: 1000}); !errors.As(err, &ae) || ae.Status != http.StatusConflict {
		t.Fatalf("a re-buy from another source: %v", err)
	}
	out := map[string]seatmsg.TransferResult{}
	for _, p := range []string{"ana", "bia"} {
		res, err := r.api.CashOut("nl", seatmsg.MoneyRequest{TransferID: "out-" + p, Player: p})
		if err != nil {
			t.Fatal(err)
		}
		out[p] = res
	}
	r.run("nl", "both cashed out", 700*time.Millisecond, func(tb tableledger.Table) bool { return len(tb.Players) == 0 })
	var paidOut int64
	for i, p := range []string{"ana", "bia"} {
		res, err := r.api.Transfer("out-" + p)
		if err != nil || res.Status != "done" || res.Source != "cashier" {
			t.Fatalf("%s's cash-out %+v %v", p, res, err)
		}
		paidOut += res.Amount
		ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
		err = bots[i].Wait(ctx, "the left message", func(seatmsg.StateMsg) bool { return bots[i].Left() != nil })
		cancel()
		if err != nil {
			t.Fatal(err)
		}
		if l := bots[i].Left(); l.Amount != res.Amount || l.Totals.CashedOut != res.Amount || l.Totals.BoughtIn < 5000 ||
			l.Totals.BoughtIn-l.Totals.Fees+l.Totals.Won-l.Totals.Wagered != l.Totals.CashedOut {
			t.Fatalf("%s's totals %+v, cash-out %d", p, l, res.Amount)
		}
	}
	// The table emptied: at the next pump its session closes and a new one
	// opens.
	r.srv.Pump()
	tb := r.ledger("nl")
	if tb.Session != 2 || !tb.Open || tb.Meters.PaidIn != paidOut+tb.Meters.Rake || tb.Meters.Rake == 0 {
		t.Fatalf("after the cash-outs %+v, paid out %d", tb.Meters, paidOut)
	}
	r.stop()
	v, err := tableledger.Verify(r.data, mustPub(t, r.board), []ed25519.PublicKey{r.pub})
	if err != nil || !v.OK || v.Sessions != 2 || v.Steps < 40 {
		t.Fatalf("verify %+v %v", v, err)
	}
}

func mustPub(t *testing.T, board string) ed25519.PublicKey {
	pub, err := book.ReadPublicKey(filepath.Join(board, tableledger.KeyName+".pub"))
	if err != nil {
		t.Fatal(err)
	}
	return pub
}

// The decision timer: a player who does not decide checks if he can, else
// folds (SRIJ rule 53), at the deadline and not before.
func TestDecisionTimer(t *testing.T) {
	r := newRig(t, holdemDef)
	r.buyIn("nl", "ana")
	r.buyIn("nl", "bia")
	r.srv.Pump()
	tb := r.ledger("nl")
	if tb.Hand != 1 {
		t.Fatalf("no hand dealt: %+v", tb)
	}
	r.clock.Add(9 * time.Second)
	r.srv.Pump()
	if r.ledger("nl").Meters.Timeouts != 0 {
		t.Fatal("a timeout before the deadline")
	}
	r.clock.Add(time.Second)
	r.srv.Pump()
	if r.ledger("nl").Meters.Timeouts != 1 {
		t.Fatalf("no timeout at the deadline: %+v", r.ledger("nl").Meters)
	}
}

// A server stopped in the middle of a hand (its data and board as the
// stop left them) resumes: the hand is void, every stake back where it was
// when the hand started, the seats' tokens still play.
func TestResumeVoidsTheHandCut(t *testing.T) {
	r := newRig(t, holdemDef)
	ana := r.buyIn("nl", "ana")
	r.buyIn("nl", "bia")
	r.buyIn("nl", "caio")
	r.srv.Pump() // hand 1: blinds posted, nobody acted
	before := map[string]int64{}
	for p, s := range r.ledger("nl").Players {
		before[p] = s.Stack
	}
	// Copy the data and the board as a power cut would leave them (no
	// seat is connected: nothing steps meanwhile).
	cut := &rig{t: t, data: t.TempDir(), board: t.TempDir(), pub: r.pub, certs: r.certs, clock: &clock{t: r.clock.Now().Add(time.Minute)}}
	copyTree(t, r.data, cut.data)
	copyTree(t, r.board, cut.board)
	r.stop()
	cut.start()
	tb := cut.ledger("nl")
	if tb.Hand != 0 || tb.Meters.Voided != 1 || tb.LastHand != 1 {
		t.Fatalf("after resuming %+v", tb)
	}
	var stacks int64
	for p, s := range tb.Players {
		stacks += s.Stack
		if s.Stack+0 > before[p]+200 || s.Totals.Wagered != 0 {
			t.Fatalf("%s after the void: %+v (before the blinds he had %d)", p, s, before[p])
		}
	}
	if stacks != 15000 {
		t.Fatalf("stacks %d after the void, 15000 paid in", stacks)
	}
	b, err := tablesrvtest.Dial(cut.http.URL, ana.Token, 9)
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if err := b.Wait(ctx, "ana's seat", func(m seatmsg.StateMsg) bool { return m.You != nil && m.You.Player == "ana" }); err != nil {
		t.Fatal(err)
	}
	cut.stop()
	if v, err := tableledger.Verify(cut.data, mustPub(t, cut.board), []ed25519.PublicKey{r.pub}); err != nil || !v.OK {
		t.Fatalf("verify %+v %v", v, err)
	}
}

func copyTree(t *testing.T, from, to string) {
	t.Helper()
	err := filepath.Walk(from, func(p string, fi os.FileInfo, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(from, p)
		dst := filepath.Join(to, rel)
		if fi.IsDir() {
			return os.MkdirAll(dst, 0o700)
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		return os.WriteFile(dst, data, fi.Mode().Perm())
	})
	if err != nil {
		t.Fatal(err)
	}
}

// Synthetic poker through the server: four bots buy the cards, bet, the
// estardilho is offered; leaving during the partida needs the chief of the
// game (rule 61).
func TestSyntheticThroughTheServer(t *testing.T) {
	r := newRig(t, syntheticDef)
	var bots []*tablesrvtest.Bot
	for i, p := range []string{"ana", "bia", "caio", "duda"} {
		res := r.buyIn("sint", p)
		b, err := tablesrvtest.Dial(r.http.URL, res.Token, uint64(10+i))
		if err != nil {
			t.Fatal(err)
		}
		defer b.Close()
		bots = append(bots, b)
	}
	r.run("sint", "15 hands", 700*time.Millisecond, func(tb tableledger.Table) bool { return tb.Meters.Hands >= 15 })
	// Without a pump nothing is dealt: the hand in play ends, the table
	// waits between hands.
	deadline := time.Now().Add(30 * time.Second)
	for r.ledger("sint").Hand != 0 && time.Now().Before(deadline) {
		time.Sleep(20 * time.Millisecond)
	}
	rich, most := "", int64(0)
	for p, s := range r.ledger("sint").Players {
		if s.Stack > most {
			rich, most = p, s.Stack
		}
	}
	var ae *tablesrvtest.APIError
	if _, err := r.api.CashOut("sint", seatmsg.MoneyRequest{TransferID: "out-" + rich, Player: rich}); !errors.As(err, &ae) || !strings.Contains(ae.Msg, "rule 61") {
		t.Fatalf("leaving a partida with %d: %v", most, err)
	}
	for _, p := range []string{"ana", "bia", "caio", "duda"} {
		if _, err := r.api.CashOut("sint", seatmsg.MoneyRequest{TransferID: "out2-" + p, Player: p, AuthorizedBy: "chefe-1"}); err != nil {
			t.Fatal(err)
		}
	}
	r.run("sint", "all cashed out", 700*time.Millisecond, func(tb tableledger.Table) bool { return len(tb.Players) == 0 })
	tb := r.ledger("sint")
	if tb.Meters.PaidIn != tb.Meters.PaidOut+tb.Meters.Rake || tb.Meters.Rake == 0 {
		t.Fatalf("%+v", tb.Meters)
	}
}

// The API reads its requests strictly and names what it refuses.
func TestAPIRefusals(t *testing.T) {
	r := newRig(t, holdemDef)
	post := func(path, token, body string) (int, string) {
		req, _ := http.NewRequest("POST", r.http.URL+path, strings.NewReader(body))
		if token != "" {
			req.Header.Set("Authorization", "Bearer "+token)
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		var b strings.Builder
		buf := make([]byte, 4096)
		n, _ := resp.Body.Read(buf)
		b.Write(buf[:n])
		return resp.StatusCode, b.String()
	}
	ok := `{"transfer_id": "t1", "source": "cab-1", "player": "ana", "amount": 5000}`
	for _, c := range []struct {
		path, token, body string
		status            int
		want              string
	}{
		{"/api/v1/tables/nl/buyin", "", ok, 401, "Bearer"},
		{"/api/v1/tables/nl/buyin", "wrong", ok, 401, "Bearer"},
		{"/api/v1/tables/nope/buyin", "api-token", ok, 404, `no table \"nope\"`},
		{"/api/v1/tables/nl/buyin", "api-token", `{"transfer_id": "t1", "source": "cab-1", "player": "ana", "amount": 5000, "x": 1}`, 400, `unknown field \"x\"`},
		{"/api/v1/tables/nl/buyin", "api-token", `{"transfer_id": "t1", "transfer_id": "t2", "source": "cab-1", "player": "ana", "amount": 5000}`, 400, "twice"},
		{"/api/v1/tables/nl/buyin", "api-token", `{"transfer_id": "t 1", "source": "cab-1", "player": "ana", "amount": 5000}`, 400, "transfer_id"},
		{"/api/v1/tables/nl/buyin", "api-token", `{"transfer_id": "t1", "source": "cab-1", "player": "ana", "amount": -5}`, 400, "amount"},
		{"/api/v1/tables/nl/cashout", "api-token", `{"transfer_id": "t9", "player": "zé"}`, 404, "not at table"},
		{"/api/v1/tables/nl/buyin", "api-token", ok, 200, `"status":"done"`},
	} {
		status, body := post(c.path, c.token, c.body)
		if status != c.status || !strings.Contains(body, c.want) {
			t.Errorf("%s %s: %d %s, want %d %q", c.path, c.body, status, body, c.status, c.want)
		}
	}
}

// LedgerTable is a copy: the API encodes it while the tables step on, and
// the hand's stakes were the live map (the long kill loop of cmd/tablesrv
// saw the JSON encoder panic on it as a hand went on). A change to the
// copy must not reach the ledger's state.
func TestLedgerTableIsACopy(t *testing.T) {
	r := newRig(t, holdemDef)
	r.buyIn("nl", "ana")
	r.buyIn("nl", "bia")
	r.srv.Pump() // hand 1: the blinds are staked
	first := r.ledger("nl")
	if first.Hand == 0 || len(first.Stakes) == 0 {
		t.Fatalf("the test needs a hand with stakes: %+v", first)
	}
	first.Stakes[99] = 1
	first.Players["ana"].Stack = -1
	again := r.ledger("nl")
	if _, ok := again.Stakes[99]; ok || again.Players["ana"].Stack < 0 {
		t.Fatalf("a change to LedgerTable's answer reached the ledger's state: %+v", again)
	}
}
