// Package seatclient is a seat owner's client of the poker table server
// (cmd/tablesrv, docs/tablesrv.md): the owners' API (the tables, the money
// requests, the transfers as the server's ledger holds them) and a seat's
// WebSocket. The cabinet's seat uses it, and so do the tests' bots: one
// client of the protocol seatmsg defines.
package seatclient

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"time"

	"github.com/gorilla/websocket"
	"github.com/openegm/cabinet/poker/seatmsg"
	"github.com/openegm/cabinet/poker/tableledger"
)

// Client is the owners' API of one server.
type Client struct {
	URL   string // http://host:port
	Token string // the server's API token (a bearer token)
	HTTP  *http.Client
}

// APIError is an answer other than 200: the server's status and message.
type APIError struct {
	Status int
	Msg    string
}

func (e *APIError) Error() string { return fmt.Sprintf("%d: %s", e.Status, e.Msg) }

// Definitive says whether err is the server's refusal of the request as
// it stands: it moved nothing for it, and the same request will be
// refused again. A network failure, a server error, a credential it did
// not accept (it read nothing) or a busy server is not definitive: the
// request may have been done, or may be yet. The server answers a
// repeated request with the transfer it recorded, except a cash-out at a
// table it no longer runs (404): an owner reads the transfer (Transfer)
// before it takes a refusal as the end of one.
func Definitive(err error) bool {
	var e *APIError
	if !errors.As(err, &e) {
		return false
	}
	switch e.Status {
	case http.StatusUnauthorized, http.StatusForbidden, http.StatusRequestTimeout, http.StatusTooManyRequests:
		return false
	}
	return e.Status >= 400 && e.Status < 500
}

// NotFound says whether err is the server's "no such" (a transfer it has
// not recorded, a table it does not run).
func NotFound(err error) bool {
	var e *APIError
	return errors.As(err, &e) && e.Status == http.StatusNotFound
}

// maxAnswer bounds what the client reads of one answer.
const maxAnswer = 8 << 20

func (c *Client) do(method, path string, body, out any) error {
	var rd io.Reader
	if body != nil {
		b, err := json.Marshal(body)
		if err != nil {
			return err
		}
		rd = bytes.NewReader(b)
	}
	req, err := http.NewRequest(method, strings.TrimRight(c.URL, "/")+path, rd)
	if err != nil {
		return err
	}
	if c.Token != "" {
		req.Header.Set("Authorization", "Bearer "+c.Token)
	}
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	hc := c.HTTP
	if hc == nil {
		hc = &http.Client{Timeout: 30 * time.Second}
	}
	resp, err := hc.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(io.LimitReader(resp.Body, maxAnswer))
	if err != nil {
		return fmt.Errorf("%s %s: reading the answer: %w", method, path, err)
	}
	if resp.StatusCode != http.StatusOK {
		var e struct {
			Error string `json:"error"`
		}
		json.Unmarshal(data, &e)
		if e.Error == "" {
			e.Error = strings.TrimSpace(string(data[:min(len(data), 200)]))
		}
		return &APIError{Status: resp.StatusCode, Msg: e.Error}
	}
	if err := json.Unmarshal(data, out); err != nil {
		return fmt.Errorf("%s %s: the answer is not what the API gives: %w", method, path, err)
	}
	return nil
}

// Tables lists the tables the server runs.
func (c *Client) Tables() ([]seatmsg.TableInfo, error) {
	var out []seatmsg.TableInfo
	return out, c.do("GET", "/api/v1/tables", nil, &out)
}

// Table reads a table's information.
func (c *Client) Table(id string) (seatmsg.TableInfo, error) {
	var out seatmsg.TableInfo
	return out, c.do("GET", "/api/v1/tables/"+url.PathEscape(id), nil, &out)
}

// BuyIn, Rebuy and CashOut are the money requests. A request repeated
// with its transfer ID gets the transfer the server recorded (a buy-in's
// seat token with it, while the seat is his).
func (c *Client) BuyIn(table string, r seatmsg.MoneyRequest) (seatmsg.TransferResult, error) {
	return c.money(table, "buyin", r)
}

func (c *Client) Rebuy(table string, r seatmsg.MoneyRequest) (seatmsg.TransferResult, error) {
	return c.money(table, "rebuy", r)
}

func (c *Client) CashOut(table string, r seatmsg.MoneyRequest) (seatmsg.TransferResult, error) {
	return c.money(table, "cashout", r)
}

func (c *Client) money(table, what string, r seatmsg.MoneyRequest) (seatmsg.TransferResult, error) {
	var out seatmsg.TransferResult
	return out, c.do("POST", "/api/v1/tables/"+url.PathEscape(table)+"/"+what, r, &out)
}

// Transfer reads a transfer as the server's ledger holds it (NotFound: it
// has none under that ID).
func (c *Client) Transfer(id string) (seatmsg.TransferResult, error) {
	var out seatmsg.TransferResult
	return out, c.do("GET", "/api/v1/transfers/"+url.PathEscape(id), nil, &out)
}

// TransfersOf lists a source's transfers, in time order.
func (c *Client) TransfersOf(source string) ([]seatmsg.TransferResult, error) {
	var out []seatmsg.TransferResult
	return out, c.do("GET", "/api/v1/transfers?source="+url.QueryEscape(source), nil, &out)
}

// Ledger reads a table as the server's ledger holds it.
func (c *Client) Ledger(id string) (tableledger.Table, error) {
	var out tableledger.Table
	return out, c.do("GET", "/api/v1/tables/"+url.PathEscape(id)+"/ledger", nil, &out)
}

// Seat is a seat's WebSocket (or a spectator's): the table's state after
// every step, and the seat's requests.
type Seat struct {
	wmu  sync.Mutex // one writer at a time
	conn *websocket.Conn
}

// Dial connects to the seat of token on the server at base (http://…).
func Dial(base, token string) (*Seat, error) {
	return open(base, seatmsg.ClientMsg{Type: "hello", Token: token})
}

// Watch connects to a table as a spectator.
func Watch(base, table string) (*Seat, error) {
	return open(base, seatmsg.ClientMsg{Type: "hello", Table: table})
}

func open(base string, hello seatmsg.ClientMsg) (*Seat, error) {
	u := strings.TrimRight(base, "/")
	switch {
	case strings.HasPrefix(u, "http://"), strings.HasPrefix(u, "https://"):
		u = "ws" + strings.TrimPrefix(u, "http")
	default:
		return nil, fmt.Errorf("table server %q: want an http:// or https:// URL", base)
	}
	d := websocket.Dialer{HandshakeTimeout: 10 * time.Second}
	conn, _, err := d.Dial(u+"/ws", nil)
	if err != nil {
		return nil, err
	}
	conn.SetReadLimit(maxAnswer)
	s := &Seat{conn: conn}
	if err := s.Send(hello); err != nil {
		conn.Close()
		return nil, err
	}
	return s, nil
}

// Send sends a request of the seat: an "act" with a kind (and To for a
// raise), "extra", "rest" with On, "replay" (seatmsg.ClientMsg).
func (s *Seat) Send(m seatmsg.ClientMsg) error {
	s.wmu.Lock()
	defer s.wmu.Unlock()
	s.conn.SetWriteDeadline(time.Now().Add(10 * time.Second))
	return s.conn.WriteJSON(m)
}

// Message is one message from the server: exactly one of its fields is
// set, by its type.
type Message struct {
	State  *seatmsg.StateMsg
	Replay *seatmsg.ReplayMsg
	Left   *seatmsg.LeftMsg
	Error  *seatmsg.ErrorMsg
}

// Next waits for the server's next message. A message of a type this
// client does not know is skipped; one it cannot read is an error.
func (s *Seat) Next() (Message, error) {
	for {
		_, data, err := s.conn.ReadMessage()
		if err != nil {
			return Message{}, err
		}
		var head struct {
			Type string `json:"type"`
		}
		if err := json.Unmarshal(data, &head); err != nil {
			return Message{}, fmt.Errorf("a message from the server that is not JSON: %w", err)
		}
		var m Message
		var v any
		switch head.Type {
		case "state":
			m.State = &seatmsg.StateMsg{}
			v = m.State
		case "replay":
			m.Replay = &seatmsg.ReplayMsg{}
			v = m.Replay
		case "left":
			m.Left = &seatmsg.LeftMsg{}
			v = m.Left
		case "error":
			m.Error = &seatmsg.ErrorMsg{}
			v = m.Error
		default:
			continue
		}
		if err := json.Unmarshal(data, v); err != nil {
			return Message{}, fmt.Errorf("the server's %q message: %w", head.Type, err)
		}
		return m, nil
	}
}

// Close disconnects; a Next waiting returns an error.
func (s *Seat) Close() error { return s.conn.Close() }
