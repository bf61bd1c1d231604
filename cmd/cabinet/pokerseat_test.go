package main

import (
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/openegm/cabinet/meters"
	"github.com/openegm/cabinet/poker/seatmsg"
	"github.com/openegm/cabinet/poker/tableledger"
)

// fakeServer answers the owners' API from a script: what a GET of the
// transfer gives, and what each POST gives, in turn.
type fakeServer struct {
	mu    sync.Mutex
	held  *seatmsg.TransferResult // the transfer its ledger holds (nil: none)
	posts []func(w http.ResponseWriter) *seatmsg.TransferResult
	sent  int
}

func (f *fakeServer) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if r.Header.Get("Authorization") != "Bearer tok" {
		w.WriteHeader(http.StatusUnauthorized)
		return
	}
	if r.Method == "GET" {
		if f.held == nil {
			w.WriteHeader(http.StatusNotFound)
			io.WriteString(w, `{"error":"no transfer"}`)
			return
		}
		json.NewEncoder(w).Encode(f.held)
		return
	}
	answer := f.posts[min(f.sent, len(f.posts)-1)]
	f.sent++
	if held := answer(w); held != nil {
		f.held = held
	}
}

func settleWith(t *testing.T, f *fakeServer, tr meters.PokerTransfer) (ans struct {
	done  bool
	cents int64
	why   string
}) {
	t.Helper()
	srv := httptest.NewServer(f)
	defer srv.Close()
	e := newPokerEdge(nil, srv.URL, "tok", slog.New(slog.NewTextHandler(io.Discard, nil)))
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	a, ok := e.settle(ctx, tr)
	if !ok {
		t.Fatal("no answer in 30 s")
	}
	ans.done, ans.cents, ans.why = a.Done, a.Cents, a.Why
	return ans
}

var cashOut = meters.PokerTransfer{ID: "out:EGM-1:x:1", Kind: meters.PokerCashOut, Table: "holdem-nl-2", Source: "EGM-1", Player: "EGM-1"}

func heldCashOut(status string, amount int64) *seatmsg.TransferResult {
	return &seatmsg.TransferResult{TransferState: tableledger.TransferState{Transfer: tableledger.Transfer{ID: cashOut.ID, Kind: tableledger.CashOut,
		Source: "EGM-1", Player: "EGM-1", Amount: amount}, Table: "holdem-nl-2"}, Status: status}
}

// A cash-out whose answer was lost (the server paid it, the cabinet saw a
// failure): asked again, it is read from the server's ledger, never taken
// for refused; a pending one is read until it is paid.
func TestPokerSettleReadsWhatTheServerDid(t *testing.T) {
	f := &fakeServer{posts: []func(http.ResponseWriter) *seatmsg.TransferResult{
		func(w http.ResponseWriter) *seatmsg.TransferResult {
			w.WriteHeader(http.StatusBadGateway) // done, the answer lost on the way
			return heldCashOut("pending", 0)
		},
		func(w http.ResponseWriter) *seatmsg.TransferResult {
			// Asked again, the server's table is gone: a refusal that
			// must not end a transfer it holds.
			w.WriteHeader(http.StatusNotFound)
			io.WriteString(w, `{"error":"no table"}`)
			return nil
		},
	}}
	go func() {
		time.Sleep(700 * time.Millisecond)
		f.mu.Lock()
		f.held = heldCashOut("done", 12345)
		f.mu.Unlock()
	}()
	a := settleWith(t, f, cashOut)
	if !a.done || a.cents != 12345 || f.sent != 1 {
		t.Fatalf("answer %+v after %d requests; want done, 12345 cents, asked once", a, f.sent)
	}
}

// A definitive refusal ends the transfer with the server's reason; a
// transfer of someone else's under the ID is refused for this one; a
// token the server does not take is asked again, never refused.
func TestPokerSettleRefusals(t *testing.T) {
	f := &fakeServer{posts: []func(http.ResponseWriter) *seatmsg.TransferResult{func(w http.ResponseWriter) *seatmsg.TransferResult {
		w.WriteHeader(http.StatusConflict)
		io.WriteString(w, `{"error":"rule 61: the chief of the game authorises leaving a partida"}`)
		return nil
	}}}
	if a := settleWith(t, f, cashOut); a.done || !strings.Contains(a.why, "rule 61") || !strings.Contains(a.why, "409") {
		t.Fatalf("a refusal: %+v", a)
	}

	other := heldCashOut("done", 999)
	other.Player = "someone else"
	f = &fakeServer{held: other}
	if a := settleWith(t, f, cashOut); a.done || !strings.Contains(a.why, "someone else") || f.sent != 0 {
		t.Fatalf("another transfer under the ID: %+v", a)
	}

	buy := meters.PokerTransfer{ID: "EGM-1:x:1", Seq: 1, Kind: meters.PokerBuyIn, Table: "holdem-nl-2", Source: "EGM-1", Player: "EGM-1", Cents: 10000}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { w.WriteHeader(http.StatusUnauthorized) }))
	defer srv.Close()
	e := newPokerEdge(nil, srv.URL, "wrong", slog.New(slog.NewTextHandler(io.Discard, nil)))
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	if a, ok := e.settle(ctx, buy); ok {
		t.Fatalf("a token the server refused ended the buy-in: %+v", a)
	}
}

// The cabinet's ledger names a poker transfer's kind as the table server
// does (meters keeps its own constants so that the pure fold does not
// import the server's ledger): settle compares the server's kind with the
// record's, so a name that drifted would refuse every answer.
func TestPokerKindsAreTheServers(t *testing.T) {
	for _, k := range [][2]string{{meters.PokerBuyIn, tableledger.BuyIn}, {meters.PokerRebuy, tableledger.Rebuy}, {meters.PokerCashOut, tableledger.CashOut}} {
		if k[0] != k[1] {
			t.Errorf("the cabinet's kind %q, the server's %q", k[0], k[1])
		}
	}
}

// The menu's tables: poker and chemin de fer, in the server's order; a
// game the cabinet's screen cannot draw is not offered.
func TestSeatGames(t *testing.T) {
	list := []seatmsg.TableInfo{{ID: "h", Game: "holdem"}, {ID: "c", Game: "chemin_de_fer"}, {ID: "x", Game: "roulette"}, {ID: "s", Game: "synthetic_poker"}}
	var got []string
	for _, ti := range seatGames(list) {
		got = append(got, ti.ID)
	}
	if strings.Join(got, " ") != "h c s" || len(list) != 4 || list[2].ID != "x" {
		t.Fatalf("offered %v from %v", got, list)
	}
}
