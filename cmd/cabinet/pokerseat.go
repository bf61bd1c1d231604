// The seat at the casino's poker tables (--tablesrv): the edge between the
// machine's seat (machine/pokerseat.go) and the table server's owners' API
// and seat WebSocket (poker/seatclient, docs/tablesrv.md).

package main

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/url"
	"os"
	"strings"
	"sync"
	"time"

	"github.com/openegm/cabinet/machine"
	"github.com/openegm/cabinet/meters"
	"github.com/openegm/cabinet/poker/seatclient"
	"github.com/openegm/cabinet/poker/seatmsg"
	"github.com/openegm/cabinet/poker/tabledef"
)

// How often the tables are read, how soon a cash-out waiting for the end
// of its hand is read again, the longest pause between two tries of a
// request the server did not answer, and how long a seat whose cash-out
// is recorded still waits for the server's "left" (the session's totals).
const (
	pokerTablesEvery = 2 * time.Second
	pokerPendingPoll = 250 * time.Millisecond
	pokerMaxBackoff  = 5 * time.Second
	pokerLeftGrace   = 3 * time.Second
)

// pokerEdge carries out the machine's poker effects: it asks the server
// for the transfer the ledger holds open until the server answers for
// good, holds the seat's WebSocket, relays the table's states to the
// machine and the player's requests to the server, and reads the tables.
// It never moves money itself: the machine records each answer.
type pokerEdge struct {
	own  *owner
	api  *seatclient.Client
	base string
	log  *slog.Logger

	mu   sync.Mutex
	ask  *meters.PokerTransfer  // the transfer to settle (the latest asked)
	link machine.PokerSeatLink  // the seat to hold ("" none)
	seat *seatclient.Seat       // the seat's WebSocket, while held
	wake chan struct{}          // the transfer worker: a new ask, or a "left"
	relk chan struct{}          // the link worker: a new seat
	out  chan seatmsg.ClientMsg // the player's requests, in order
}

// readToken reads the table server's API token from its file.
func readToken(path string) (string, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return "", fmt.Errorf("--tablesrv-token: %w", err)
	}
	tok := strings.TrimSpace(string(b))
	if tok == "" {
		return "", fmt.Errorf("--tablesrv-token %s: the file is empty", path)
	}
	return tok, nil
}

// checkTableServer checks the --tablesrv flags ("" = no table server).
func checkTableServer(base, tokenFile string) error {
	if base == "" {
		if tokenFile != "" {
			return fmt.Errorf("--tablesrv-token given without --tablesrv")
		}
		return nil
	}
	u, err := url.Parse(base)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" || (u.Path != "" && u.Path != "/") {
		return fmt.Errorf("--tablesrv %q: want the table server's http:// or https:// URL, host and port only", base)
	}
	if tokenFile == "" {
		return fmt.Errorf("--tablesrv needs --tablesrv-token FILE (the server's API token: its board's api.token)")
	}
	return nil
}

func newPokerEdge(own *owner, base, token string, log *slog.Logger) *pokerEdge {
	base = strings.TrimRight(base, "/")
	return &pokerEdge{own: own, api: &seatclient.Client{URL: base, Token: token}, base: base, log: log.With("part", "poker seat"),
		wake: make(chan struct{}, 1), relk: make(chan struct{}, 1), out: make(chan seatmsg.ClientMsg, 64)}
}

// start runs the edge's workers until ctx ends.
func (e *pokerEdge) start(ctx context.Context) {
	go e.tables(ctx)
	go e.transfers(ctx)
	go e.links(ctx)
	go e.sender(ctx)
}

func nudge(c chan struct{}) {
	select {
	case c <- struct{}{}:
	default:
	}
}

// take carries out a poker effect (on the owner goroutine: it never
// waits); false for any other device.
func (e *pokerEdge) take(d machine.Device) bool {
	switch d := d.(type) {
	case machine.PokerAsk:
		t := d.Transfer
		e.mu.Lock()
		e.ask = &t
		e.mu.Unlock()
		nudge(e.wake)
	case machine.PokerSeatLink:
		e.mu.Lock()
		e.link = d
		if s := e.seat; s != nil {
			if d.BuyIn == "" {
				// The cash-out is recorded: the server's "left" with the
				// session's totals may still be on its way; the seat
				// reads it, or is closed after a while.
				time.AfterFunc(pokerLeftGrace, func() { s.Close() })
			} else {
				s.Close() // the link worker connects to the new one
			}
		}
		e.mu.Unlock()
		nudge(e.relk)
	case machine.PokerSend:
		select {
		case e.out <- d.Msg:
		default:
			e.log.Error("the seat's requests are not going out: one dropped", "kind", d.Msg.Kind)
		}
	default:
		return false
	}
	return true
}

// submit steps an event on the owner; false once the owner has stopped.
func (e *pokerEdge) submit(ev machine.Event) bool {
	done := make(chan stepped, 1)
	select {
	case e.own.reqs <- request{ev: ev, done: done}:
	case <-e.own.stopped:
		return false
	}
	select {
	case <-done:
		return true
	case <-e.own.stopped:
		return false
	}
}

func sleep(ctx context.Context, d time.Duration, wake <-chan struct{}) bool {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return false
	case <-t.C:
	case <-wake:
	}
	return true
}

func (e *pokerEdge) tables(ctx context.Context) {
	for {
		if list, err := e.api.Tables(); err != nil {
			e.log.Warn("the table server's tables cannot be read", "err", err)
		} else if !e.submit(machine.PokerTables{At: time.Now(), Tables: seatGames(list)}) {
			return
		}
		if !sleep(ctx, pokerTablesEvery, nil) {
			return
		}
	}
}

// transfers settles the transfer asked: once the server's answer is
// recorded (the view no longer holds it open) it waits for the next.
func (e *pokerEdge) transfers(ctx context.Context) {
	for {
		e.mu.Lock()
		t := e.ask
		e.mu.Unlock()
		if t != nil && e.open() != t.ID {
			e.mu.Lock()
			if e.ask == t {
				e.ask = nil
			}
			e.mu.Unlock()
			continue
		}
		if t == nil {
			if !sleep(ctx, time.Hour, e.wake) {
				return
			}
			continue
		}
		ans, ok := e.settle(ctx, *t)
		if !ok {
			return
		}
		e.log.Info("transfer answered", "id", t.ID, "kind", t.Kind, "done", ans.Done, "cents", ans.Cents, "why", ans.Why)
		if !e.submit(ans) {
			return
		}
		if e.open() == t.ID && !sleep(ctx, time.Second, e.wake) {
			return // not recorded (a meter fault): asked again after a while
		}
	}
}

// open is the transfer the machine's ledger holds open ("" none).
func (e *pokerEdge) open() string {
	if p := e.own.view.Load().Poker; p != nil && p.Status != "seated" {
		return p.Transfer
	}
	return ""
}

// settle asks the server until it answers t for good: the transfer its
// ledger holds (done), or a refusal of the request (which moved nothing).
// It reads the transfer first, so that a request the server did while its
// answer was lost (a restart of either side) is never taken for refused.
func (e *pokerEdge) settle(ctx context.Context, t meters.PokerTransfer) (machine.PokerAnswer, bool) {
	wait := 100 * time.Millisecond
	for {
		res, err := e.api.Transfer(t.ID)
		if seatclient.NotFound(err) {
			res, err = e.request(t)
			if err != nil && seatclient.Definitive(err) {
				return machine.PokerAnswer{At: time.Now(), ID: t.ID, Why: refusal(err)}, true
			}
		}
		if err == nil {
			if why := mismatch(t, res); why != "" {
				// Another transfer under this ID: this one was never done.
				e.log.Error("the server holds another transfer under the ID", "id", t.ID, "why", why)
				return machine.PokerAnswer{At: time.Now(), ID: t.ID, Why: why}, true
			}
			if res.Status == "done" {
				cents := res.Amount
				return machine.PokerAnswer{At: time.Now(), ID: t.ID, Done: true, Cents: cents}, true
			}
			// A cash-out paid when the hand he plays ends.
			wait = pokerPendingPoll
		} else {
			e.log.Warn("transfer not answered yet; asked again", "id", t.ID, "err", err, "in", wait)
			wait = min(2*wait, pokerMaxBackoff)
		}
		if !sleep(ctx, wait, e.wake) {
			return machine.PokerAnswer{}, false
		}
	}
}

func (e *pokerEdge) request(t meters.PokerTransfer) (seatmsg.TransferResult, error) {
	req := seatmsg.MoneyRequest{TransferID: t.ID, Source: t.Source, Player: t.Player, Amount: t.Cents, AuthorizedBy: t.AuthorizedBy}
	switch t.Kind {
	case meters.PokerBuyIn:
		return e.api.BuyIn(t.Table, req)
	case meters.PokerRebuy:
		return e.api.Rebuy(t.Table, req)
	}
	return e.api.CashOut(t.Table, req)
}

// refusal is the server's reason, as the ledger keeps it.
func refusal(err error) string {
	var ae *seatclient.APIError
	if errors.As(err, &ae) && ae.Msg != "" {
		return fmt.Sprintf("%s (HTTP %d)", ae.Msg, ae.Status)
	}
	return err.Error()
}

// mismatch says how the server's transfer under t's ID differs from t
// ("" when it is t).
func mismatch(t meters.PokerTransfer, r seatmsg.TransferResult) string {
	switch {
	case r.ID != t.ID || r.Kind != t.Kind || r.Table != t.Table || r.Player != t.Player || r.Source != t.Source:
		return fmt.Sprintf("transfer %s is a %s of %q at %s from %q on the server, not this cabinet's %s", t.ID, r.Kind, r.Player, r.Table, r.Source, t.Kind)
	case t.Kind != meters.PokerCashOut && r.Amount != t.Cents:
		return fmt.Sprintf("transfer %s is of %d cents on the server, %d were asked", t.ID, r.Amount, t.Cents)
	case r.Amount < 0:
		return fmt.Sprintf("transfer %s pays back %d cents", t.ID, r.Amount)
	}
	return ""
}

// links holds the seat's WebSocket: its token is the buy-in's, from the
// server's ledger.
func (e *pokerEdge) links(ctx context.Context) {
	for {
		e.mu.Lock()
		l := e.link
		e.mu.Unlock()
		if l.BuyIn == "" {
			if !sleep(ctx, time.Hour, e.relk) {
				return
			}
			continue
		}
		if err := e.hold(ctx, l); err != nil {
			e.log.Warn("the seat's WebSocket", "table", l.Table, "err", err)
		}
		if !sleep(ctx, time.Second, e.relk) {
			return
		}
	}
}

// hold connects to the seat of l and relays until the connection ends or
// the seat changes.
func (e *pokerEdge) hold(ctx context.Context, l machine.PokerSeatLink) error {
	res, err := e.api.Transfer(l.BuyIn)
	if err != nil {
		return fmt.Errorf("the buy-in %s: %w", l.BuyIn, err)
	}
	if res.Token == "" {
		// He is no longer seated by this buy-in: the server paid his
		// cash-out (a leave on the seat's WebSocket takes the seat's ID).
		out := meters.PokerCashOutID(l.BuyIn, 1)
		if tr, err := e.api.Transfer(out); err == nil && tr.Status == "done" && mismatch(meters.PokerTransfer{ID: out, Kind: meters.PokerCashOut,
			Table: l.Table, Source: res.Source, Player: res.Player}, tr) == "" {
			e.submit(machine.PokerAnswer{At: time.Now(), ID: out, Done: true, Cents: tr.Amount})
		}
		return fmt.Errorf("the buy-in %s seats nobody now", l.BuyIn)
	}
	seat, err := seatclient.Dial(e.base, res.Token)
	if err != nil {
		return err
	}
	e.mu.Lock()
	if e.link != l {
		e.mu.Unlock()
		seat.Close()
		return nil
	}
	e.seat = seat
	e.mu.Unlock()
	defer func() {
		e.mu.Lock()
		if e.seat == seat {
			e.seat = nil
		}
		e.mu.Unlock()
		seat.Close()
	}()
	stop := context.AfterFunc(ctx, func() { seat.Close() })
	defer stop()
	e.log.Info("seat linked", "table", l.Table, "buy_in", l.BuyIn)
	for {
		m, err := seat.Next()
		if err != nil {
			return err
		}
		switch {
		case m.State != nil:
			if !e.submit(machine.PokerSeatState{At: time.Now(), State: *m.State}) {
				return nil
			}
		case m.Replay != nil:
			if !e.submit(machine.PokerSeatReplay{At: time.Now(), Table: l.Table, Replay: *m.Replay}) {
				return nil
			}
		case m.Left != nil:
			e.log.Info("the server says the player left", "amount", m.Left.Amount)
			nudge(e.wake) // the cash-out is paid: read it now
			if !e.submit(machine.PokerSeatLeft{At: time.Now(), Table: l.Table, Left: *m.Left}) {
				return nil
			}
			return nil // the seat is over: nothing more comes for it
		case m.Error != nil:
			e.log.Warn("the table server refused a request of the seat", "message", m.Error.Message)
		}
	}
}

// sender sends the player's requests on the seat's WebSocket, in order; a
// request without a seat to go to is dropped (the table's timer decides).
func (e *pokerEdge) sender(ctx context.Context) {
	for {
		select {
		case <-ctx.Done():
			return
		case m := <-e.out:
			e.mu.Lock()
			s := e.seat
			e.mu.Unlock()
			if s == nil {
				e.log.Warn("a request of the seat with no WebSocket: dropped", "type", m.Type, "kind", m.Kind)
				continue
			}
			if err := s.Send(m); err != nil {
				e.log.Warn("a request of the seat not sent", "type", m.Type, "kind", m.Kind, "err", err)
			}
		}
	}
}

// seatGames keeps the tables whose game the cabinet's seat plays: poker
// and chemin de fer (the same seat protocol, poker/seatmsg); a game the
// screen cannot draw is not offered.
func seatGames(list []seatmsg.TableInfo) []seatmsg.TableInfo {
	out := list[:0:0]
	for _, t := range list {
		switch tabledef.Game(t.Game) {
		case tabledef.Holdem, tabledef.Synthetic, tabledef.Chemin:
			out = append(out, t)
		}
	}
	return out
}
