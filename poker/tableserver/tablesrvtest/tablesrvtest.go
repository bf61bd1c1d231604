// Package tablesrvtest drives a table server from the outside, for tests
// only: its API as a cabinet or a cashier uses it, and bots that play seats
// over the WebSocket with random legal actions.
package tablesrvtest

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"math/rand/v2"
	"net/http"
	"strings"
	"sync"
	"time"

	"github.com/gorilla/websocket"
	"github.com/openegm/cabinet/poker/seatmsg"
	"github.com/openegm/cabinet/poker/tableledger"
)

// Client is the API as a seat's owner uses it.
type Client struct {
	URL   string // http://host:port
	Token string
	HTTP  *http.Client
}

// APIError is an answer other than 200.
type APIError struct {
	Status int
	Msg    string
}

func (e *APIError) Error() string { return fmt.Sprintf("%d: %s", e.Status, e.Msg) }

func (c *Client) do(method, path string, body, out any) error {
	var rd io.Reader
	if body != nil {
		b, err := json.Marshal(body)
		if err != nil {
			return err
		}
		rd = bytes.NewReader(b)
	}
	req, err := http.NewRequest(method, c.URL+path, rd)
	if err != nil {
		return err
	}
	req.Header.Set("Authorization", "Bearer "+c.Token)
	hc := c.HTTP
	if hc == nil {
		hc = &http.Client{Timeout: 30 * time.Second}
	}
	resp, err := hc.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(resp.Body)
	if err != nil {
		return err
	}
	if resp.StatusCode != http.StatusOK {
		var e struct {
			Error string `json:"error"`
		}
		json.Unmarshal(data, &e)
		return &APIError{Status: resp.StatusCode, Msg: e.Error}
	}
	return json.Unmarshal(data, out)
}

// BuyIn, Rebuy and CashOut are the money requests.
func (c *Client) BuyIn(table string, r seatmsg.MoneyRequest) (seatmsg.TransferResult, error) {
	var out seatmsg.TransferResult
	return out, c.do("POST", "/api/v1/tables/"+table+"/buyin", r, &out)
}

func (c *Client) Rebuy(table string, r seatmsg.MoneyRequest) (seatmsg.TransferResult, error) {
	var out seatmsg.TransferResult
	return out, c.do("POST", "/api/v1/tables/"+table+"/rebuy", r, &out)
}

func (c *Client) CashOut(table string, r seatmsg.MoneyRequest) (seatmsg.TransferResult, error) {
	var out seatmsg.TransferResult
	return out, c.do("POST", "/api/v1/tables/"+table+"/cashout", r, &out)
}

// Transfer reads a transfer.
func (c *Client) Transfer(id string) (seatmsg.TransferResult, error) {
	var out seatmsg.TransferResult
	return out, c.do("GET", "/api/v1/transfers/"+id, nil, &out)
}

// Table reads a table's information.
func (c *Client) Table(id string) (seatmsg.TableInfo, error) {
	var out seatmsg.TableInfo
	return out, c.do("GET", "/api/v1/tables/"+id, nil, &out)
}

// Ledger reads a table as the ledger holds it.
func (c *Client) Ledger(id string) (tableledger.Table, error) {
	var out tableledger.Table
	return out, c.do("GET", "/api/v1/tables/"+id+"/ledger", nil, &out)
}

// Bot plays one seat over the WebSocket: mostly calls and checks, now and
// then a raise of a random legal size, a fold or an all-in; it buys the
// cards of synthetic poker most of the time.
type Bot struct {
	wmu   sync.Mutex // one writer at a time on the connection
	mu    sync.Mutex
	conn  *websocket.Conn
	rnd   *rand.Rand
	last  seatmsg.StateMsg
	left  *seatmsg.LeftMsg
	acted int
	hold  bool // decides nothing: the hand waits for it (or for the timer)
	done  chan struct{}
	err   error
}

// Dial connects a bot to a seat (token) on the server at url (http://…).
func Dial(url, token string, seed uint64) (*Bot, error) {
	ws := "ws" + strings.TrimPrefix(url, "http") + "/ws"
	d := websocket.Dialer{HandshakeTimeout: 10 * time.Second}
	conn, _, err := d.Dial(ws, nil)
	if err != nil {
		return nil, err
	}
	if err := conn.WriteJSON(map[string]string{"type": "hello", "token": token}); err != nil {
		conn.Close()
		return nil, err
	}
	b := &Bot{conn: conn, rnd: rand.New(rand.NewPCG(seed, seed^0xb07)), done: make(chan struct{})}
	go b.run()
	return b, nil
}

func (b *Bot) run() {
	defer close(b.done)
	for {
		_, data, err := b.conn.ReadMessage()
		if err != nil {
			b.mu.Lock()
			b.err = err
			b.mu.Unlock()
			return
		}
		var head struct {
			Type    string `json:"type"`
			Message string `json:"message"`
		}
		json.Unmarshal(data, &head)
		switch head.Type {
		case "state":
			var m seatmsg.StateMsg
			if json.Unmarshal(data, &m) != nil {
				continue
			}
			b.mu.Lock()
			b.last = m
			b.mu.Unlock()
			b.decide(m)
		case "left":
			var m seatmsg.LeftMsg
			json.Unmarshal(data, &m)
			b.mu.Lock()
			b.left = &m
			b.mu.Unlock()
		}
	}
}

func (b *Bot) decide(m seatmsg.StateMsg) {
	b.mu.Lock()
	hold := b.hold
	b.mu.Unlock()
	if hold {
		return
	}
	send := func(kind string, to int64) {
		msg := map[string]any{"type": "act", "kind": kind}
		if to > 0 {
			msg["to"] = to
		}
		b.mu.Lock()
		b.acted++
		b.mu.Unlock()
		b.Send(msg)
	}
	if f := m.Offer; f != nil {
		if b.rnd.IntN(6) == 0 {
			send(f.Decline, 0)
		} else {
			send(f.Accept, 0)
		}
		return
	}
	o := m.Options
	if o == nil {
		return
	}
	r := b.rnd.IntN(100)
	switch {
	case r < 6 && !o.Check:
		send("fold", 0)
	case r < 9 && o.Raise:
		send("all_in", 0)
	case r < 30 && o.Raise:
		to := o.MinTo
		if o.MaxTo > o.MinTo && b.rnd.IntN(2) == 0 {
			to += b.rnd.Int64N(o.MaxTo - o.MinTo + 1)
		}
		send("raise", to)
	case o.Check:
		send("check", 0)
	default:
		send("call", 0)
	}
}

// Hold stops (true) or resumes the bot's decisions; resuming decides on
// the last state at once.
func (b *Bot) Hold(on bool) {
	b.mu.Lock()
	b.hold = on
	last := b.last
	b.mu.Unlock()
	if !on {
		b.decide(last)
	}
}

// State is the last state the bot received.
func (b *Bot) State() seatmsg.StateMsg {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.last
}

// Left is the bot's cash-out message, once it came.
func (b *Bot) Left() *seatmsg.LeftMsg {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.left
}

// Send sends a request of the seat ({"type": "leave"}, …).
func (b *Bot) Send(m map[string]any) error {
	b.wmu.Lock()
	defer b.wmu.Unlock()
	return b.conn.WriteJSON(m)
}

// Close disconnects the bot.
func (b *Bot) Close() {
	b.conn.Close()
	<-b.done
}

// Wait waits until cond holds on the bot's last state, or the deadline.
func (b *Bot) Wait(ctx context.Context, what string, cond func(seatmsg.StateMsg) bool) error {
	for {
		if cond(b.State()) {
			return nil
		}
		select {
		case <-ctx.Done():
			return fmt.Errorf("waiting for %s: %w (last state: hand %d, status %s)", what, ctx.Err(), b.State().Hand, b.State().Table.Status)
		case <-b.done:
			if cond(b.State()) {
				return nil
			}
			return fmt.Errorf("waiting for %s: the connection closed: %v", what, b.err)
		case <-time.After(20 * time.Millisecond):
		}
	}
}
