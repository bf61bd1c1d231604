package main

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/openegm/cabinet/poker/seatmsg"
	"github.com/openegm/cabinet/poker/tableledger"
	"github.com/openegm/cabinet/poker/tableserver/tablesrvtest"
)

// driver plays bots at a server's tables the way cabinets and cashiers
// would: every buy-in, re-buy and cash-out is a request with its own ID,
// kept in a journal; a request whose answer was lost (the server was
// killed) is sent again with the same ID until it gets one.
type driver struct {
	t       testing.TB
	s       *server
	rnd     *rand.Rand
	players []*player
	journal []*request
	// cave is the buy-in at a table (0: the cave it asks) and low the stack
	// below which a player buys again (0: 200 cents).
	cave, low map[string]int64
}

type player struct {
	table, name, source string
	token               string
	bot                 *tablesrvtest.Bot
	n                   int // requests made: their IDs
}

type request struct {
	table, kind string
	req         seatmsg.MoneyRequest
	answered    bool // the server answered (done or refused)
	tries       int
	refused     string
	result      seatmsg.TransferResult
}

func newDriver(t testing.TB, s *server, seed uint64) *driver {
	return &driver{t: t, s: s, rnd: rand.New(rand.NewPCG(seed, 7)), cave: map[string]int64{}, low: map[string]int64{}}
}

func (d *driver) add(table string, names ...string) {
	for _, n := range names {
		d.players = append(d.players, &player{table: table, name: n, source: "cab-" + n})
	}
}

// send sends a request; an unanswered one (the server is down) stays to
// be sent again.
func (d *driver) send(r *request) {
	r.tries++
	var res seatmsg.TransferResult
	var err error
	switch r.kind {
	case tableledger.BuyIn:
		res, err = d.s.api.BuyIn(r.table, r.req)
	case tableledger.Rebuy:
		res, err = d.s.api.Rebuy(r.table, r.req)
	case tableledger.CashOut:
		res, err = d.s.api.CashOut(r.table, r.req)
	}
	var ae *tablesrvtest.APIError
	switch {
	case err == nil:
		if res.ID != r.req.TransferID || (r.kind != tableledger.CashOut && res.Amount != r.req.Amount) {
			d.t.Fatalf("request %+v answered with %+v", r.req, res)
		}
		r.answered, r.result = true, res
	case errors.As(err, &ae) && ae.Status < 500:
		r.answered, r.refused = true, ae.Msg
	}
}

func (d *driver) request(p *player, kind string, amount int64, authorized string) *request {
	p.n++
	r := &request{table: p.table, kind: kind, req: seatmsg.MoneyRequest{TransferID: fmt.Sprintf("%s-%s-%d", p.name, kind, p.n),
		Source: p.source, Player: p.name, Amount: amount, AuthorizedBy: authorized}}
	d.journal = append(d.journal, r)
	d.send(r)
	return r
}

// holdemBot is the first hold'em player with a bot who will surely be
// dealt and act, or nil.
func (d *driver) holdemBot() *player {
	d.t.Helper()
	tb := d.ledger("holdem-nl-2")
	for _, p := range d.players {
		// One who will surely be dealt and act: not leaving (a cash-out
		// asked earlier folds him and closes his seat), not resting, with
		// the chips for the blinds.
		seat := tb.Players[p.name]
		if p.table == "holdem-nl-2" && p.bot != nil && seat != nil && seat.CashOut == "" && !seat.Resting && seat.Stack >= 200 {
			return p
		}
	}
	return nil
}

// resend sends again every request without an answer: each must get the
// same answer as if the first had arrived.
func (d *driver) resend() {
	for _, r := range d.journal {
		if !r.answered {
			d.send(r)
		}
	}
}

// ledger is a table as the server's ledger holds it.
func (d *driver) ledger(table string) tableledger.Table {
	d.t.Helper()
	tb, err := d.s.api.Ledger(table)
	if err != nil {
		d.t.Fatalf("ledger of %s: %v", table, err)
	}
	return tb
}

// seatAll buys in every player not seated, tops up the broke, and
// connects a bot to every seat. A server that does not answer (killed)
// leaves the rest for later.
func (d *driver) seatAll() {
	d.t.Helper()
	ledgers := map[string]tableledger.Table{}
	for _, p := range d.players {
		if _, ok := ledgers[p.table]; !ok {
			tb, err := d.s.api.Ledger(p.table)
			if err != nil {
				return
			}
			ledgers[p.table] = tb
		}
		seat := ledgers[p.table].Players[p.name]
		switch {
		case seat == nil:
			if p.bot != nil {
				p.bot.Close()
				p.bot = nil
			}
			info, err := d.s.api.Table(p.table)
			if err != nil || info.Status == "over" {
				continue
			}
			cave := info.RequiredCave
			if c := d.cave[p.table]; c > 0 {
				cave = c
			}
			if r := d.request(p, tableledger.BuyIn, cave, ""); r.answered && r.refused == "" {
				p.token = r.result.Token
			} else {
				continue
			}
		case seat.Stack < max(200, d.low[p.table]) && seat.CashOut == "":
			d.request(p, tableledger.Rebuy, max(10000, d.cave[p.table]), "") // refused during a hand he plays: tried again later
		}
		if p.bot == nil && p.token != "" {
			b, err := tablesrvtest.Dial(d.s.url, p.token, d.rnd.Uint64())
			if err != nil {
				return
			}
			p.bot = b
		}
	}
}

// reconnect drops the bots (their server went away) and connects them
// again to the seats the ledger still holds.
func (d *driver) reconnect() {
	for _, p := range d.players {
		if p.bot != nil {
			p.bot.Close()
			p.bot = nil
		}
	}
	d.seatAll()
}

// cashOutAll takes every player away with his chips (authorized: the
// partida of synthetic poker may be running) and waits for the cash-outs.
func (d *driver) cashOutAll() {
	d.t.Helper()
	for _, p := range d.players {
		if d.ledger(p.table).Players[p.name] != nil {
			r := d.request(p, tableledger.CashOut, 0, "chefe-de-partida")
			if !r.answered || r.refused != "" {
				d.t.Fatalf("cash-out of %s: %+v", p.name, r)
			}
		}
	}
}

// sources are the money each source moved, from the answers the driver
// got (a cash-out's amount from the server's transfer, once paid).
func (d *driver) sources() map[string]tableledger.SourceTotals {
	d.t.Helper()
	out := map[string]tableledger.SourceTotals{}
	for _, r := range d.journal {
		if !r.answered || r.refused != "" {
			continue
		}
		st := out[r.req.Source]
		if r.kind == tableledger.CashOut {
			tr, err := d.s.api.Transfer(r.req.TransferID)
			if err != nil || tr.Status != "done" {
				d.t.Fatalf("cash-out %s: %+v %v", r.req.TransferID, tr, err)
			}
			st.Out += tr.Amount
		} else {
			st.In += r.req.Amount
		}
		out[r.req.Source] = st
	}
	return out
}

func (d *driver) closeBots() {
	for _, p := range d.players {
		if p.bot != nil {
			p.bot.Close()
			p.bot = nil
		}
	}
}
