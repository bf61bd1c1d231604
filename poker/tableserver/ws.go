package tableserver

import (
	"encoding/json"
	"net/http"
	"sync"
	"time"

	"github.com/gorilla/websocket"
	"github.com/openegm/cabinet/poker"
	"github.com/openegm/cabinet/poker/seatmsg"
	"github.com/openegm/cabinet/poker/tableledger"
)

// A seat or a spectator on a WebSocket. The first message the page sends
// is a hello: {"type": "hello", "token": T} for a seat (the token of its
// buy-in) or {"type": "hello", "table": ID} to watch. Then a seat sends
// {"type": "act", "kind": "call"} (fold, check, call, raise with "to",
// all_in; ante, no_ante, estardilho, no_estardilho, restardilho,
// no_restardilho), {"type": "extra"}, {"type": "rest", "on": true},
// {"type": "leave"} (cash-out to the source of the buy-in) and
// {"type": "replay"} (its last hands). The server sends "state" after
// every committed step, "replay", "left" (the cash-out paid, with the
// session's totals) and "error". At a chemin de fer table the acts are
// chemin de fer's (bank, banco, bet, draw, pass, bid, … with "to") and
// the state carries the table's own view: the protocol is package
// seatmsg's.

type subscriber struct {
	tableID string
	player  string // "" for a spectator
	buyIn   string

	mu     sync.Mutex
	state  []byte   // the latest state, not yet written
	queue  [][]byte // other messages, in order
	wake   chan struct{}
	done   chan struct{}
	closed sync.Once
}

func newSubscriber() *subscriber {
	return &subscriber{wake: make(chan struct{}, 1), done: make(chan struct{})}
}

// setState replaces the state not yet written: a slow page skips states,
// never a message.
func (c *subscriber) setState(b []byte) {
	c.mu.Lock()
	c.state = b
	c.mu.Unlock()
	c.signal()
}

func (c *subscriber) send(v any) {
	b, err := json.Marshal(v)
	if err != nil {
		return
	}
	c.mu.Lock()
	c.queue = append(c.queue, b)
	c.mu.Unlock()
	c.signal()
}

func (c *subscriber) signal() {
	select {
	case c.wake <- struct{}{}:
	default:
	}
}

func (c *subscriber) close() { c.closed.Do(func() { close(c.done) }) }

// publish sends every subscriber of a table its state; the caller holds
// s.mu.
func (s *Server) publish(t *table) {
	for sub := range t.subs {
		b, err := json.Marshal(s.stateFor(t, sub.player))
		if err == nil {
			sub.setState(b)
		}
	}
}

var upgrader = websocket.Upgrader{ReadBufferSize: 4096, WriteBufferSize: 16384}

const (
	helloWait = 10 * time.Second
	pingEvery = 20 * time.Second
	maxClient = 4096
)

func (s *Server) serveWS(w http.ResponseWriter, r *http.Request) {
	conn, err := upgrader.Upgrade(w, r, nil)
	if err != nil {
		return
	}
	defer conn.Close()
	conn.SetReadLimit(maxClient)
	conn.SetReadDeadline(time.Now().Add(helloWait))
	var hello seatmsg.ClientMsg
	if err := conn.ReadJSON(&hello); err != nil || hello.Type != "hello" {
		conn.WriteJSON(seatmsg.ErrorMsg{Type: "error", Message: "the first message is a hello"})
		return
	}
	sub := newSubscriber()
	if err := s.attach(sub, hello); err != nil {
		conn.WriteJSON(seatmsg.ErrorMsg{Type: "error", Message: err.Error()})
		return
	}
	defer s.detach(sub)
	conn.SetReadDeadline(time.Time{})
	go s.writer(conn, sub)
	for {
		var m seatmsg.ClientMsg
		if err := conn.ReadJSON(&m); err != nil {
			sub.close()
			return
		}
		s.handle(sub, m)
	}
}

func (s *Server) writer(conn *websocket.Conn, sub *subscriber) {
	ping := time.NewTicker(pingEvery)
	defer ping.Stop()
	for {
		select {
		case <-sub.done:
			conn.WriteControl(websocket.CloseMessage, websocket.FormatCloseMessage(websocket.CloseNormalClosure, ""), time.Now().Add(time.Second))
			conn.Close()
			return
		case <-ping.C:
			if conn.WriteControl(websocket.PingMessage, nil, time.Now().Add(10*time.Second)) != nil {
				sub.close()
			}
		case <-sub.wake:
			sub.mu.Lock()
			out := sub.queue
			if sub.state != nil {
				out = append(out, sub.state)
			}
			sub.queue, sub.state = nil, nil
			sub.mu.Unlock()
			for _, b := range out {
				conn.SetWriteDeadline(time.Now().Add(10 * time.Second))
				if conn.WriteMessage(websocket.TextMessage, b) != nil {
					sub.close()
					break
				}
			}
		}
	}
}

// attach binds a subscriber to a seat (a token) or a table (a spectator).
func (s *Server) attach(sub *subscriber, hello seatmsg.ClientMsg) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	id := hello.Table
	if hello.Token != "" {
		table, player, ok := s.seatOf(hello.Token)
		if !ok {
			return refused(http.StatusForbidden, "this seat's token is not valid (the player left, or it was mistyped)")
		}
		id, sub.player, sub.buyIn = table, player, s.buyInOf(table, player)
	}
	t, err := s.table(id)
	if err != nil {
		return err
	}
	sub.tableID = t.id
	t.subs[sub] = true
	b, err := json.Marshal(s.stateFor(t, sub.player))
	if err != nil {
		return err
	}
	sub.setState(b)
	return nil
}

func (s *Server) detach(sub *subscriber) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if t := s.tables[sub.tableID]; t != nil {
		delete(t.subs, sub)
	}
	sub.close()
}

// handle carries out a seat's request.
func (s *Server) handle(sub *subscriber, m seatmsg.ClientMsg) {
	s.mu.Lock()
	defer s.mu.Unlock()
	t := s.tables[sub.tableID]
	if t == nil {
		sub.send(seatmsg.ErrorMsg{Type: "error", Message: "the table closed"})
		return
	}
	if sub.player == "" {
		sub.send(seatmsg.ErrorMsg{Type: "error", Message: "a spectator does not play"})
		return
	}
	now := s.at(t, s.opts.Now())
	var err error
	switch m.Type {
	case "act":
		_, err = s.step(t, poker.Act{At: now, Player: sub.player, Action: poker.Action{Kind: poker.ActionKind(m.Kind), To: m.To}}, nil)
	case "extra":
		_, err = s.step(t, poker.Extra{At: now, Player: sub.player}, nil)
	case "rest":
		_, err = s.step(t, poker.Rest{At: now, Player: sub.player, On: m.On}, nil)
	case "leave":
		_, err = s.cashOut(t.id, seatmsg.MoneyRequest{TransferID: "out:" + sub.buyIn, Player: sub.player})
	case "replay":
		var r seatmsg.ReplayMsg
		if r, err = s.replayFor(t, sub.player); err == nil {
			sub.send(r)
		}
	default:
		err = refused(http.StatusBadRequest, "unknown request %q", m.Type)
	}
	if err != nil {
		sub.send(seatmsg.ErrorMsg{Type: "error", Message: err.Error()})
	}
}

// buyInOf is the buy-in that seated a player.
func (s *Server) buyInOf(table, player string) string {
	var id string
	s.led.View(func(st *tableledger.State) {
		if t := st.Tables[table]; t != nil && t.Players[player] != nil {
			id = t.Players[player].BuyIn
		}
	})
	return id
}

// left tells the seats of players who left that they did, with their
// totals; the caller holds s.mu.
func (s *Server) left(t *table, recs []poker.Record) {
	for _, r := range recs {
		if r.Kind != poker.KindLeave {
			continue
		}
		for sub := range t.subs {
			if sub.player == r.Player {
				sub.send(seatmsg.LeftMsg{Type: "left", Amount: r.Amount, Totals: *r.Totals})
				sub.player, sub.buyIn = "", ""
			}
		}
	}
}
