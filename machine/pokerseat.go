package machine

import (
	"time"

	"github.com/openegm/cabinet/meters"
	"github.com/openegm/cabinet/poker"
	"github.com/openegm/cabinet/poker/chemin"
	"github.com/openegm/cabinet/poker/seatmsg"
	"github.com/openegm/cabinet/poker/tabledef"
)

// A seat at a poker table of the casino's table server (cmd/tablesrv,
// docs/tablesrv.md). The table is not a game of this machine: the cabinet
// moves the player's credits to the table (buy-in) and back (cash-out),
// each move recorded in this ledger and in the server's under one transfer
// ID, and shows the table as the seat sees it. The hands are dealt, bet and
// paid by the server.

// GamePoker is the menu's entry for the poker seat (View.Games).
const GamePoker = "poker"

// PokerSeatView is the seat as the screen shows it.
type PokerSeatView struct {
	// Tables are the tables the cabinet may seat a player at, as the table
	// server last described them (the table card, the cave asked now).
	Tables []seatmsg.TableInfo `json:"tables"`
	// Table is the table the player is at or buying into ("" when none).
	Table string `json:"table,omitempty"`
	// Status: "" (not seated), "buying_in" (credits recorded as leaving,
	// the server not yet answered), "seated", "cashing_out" (asked, the
	// stack not yet back), "refused" (the last transfer was refused:
	// Refused says why; the credits are back on the meter). A refused
	// cash-out leaves the player seated: Status "seated", Refused says
	// why (a synthetic-poker partida he may leave only with the chief of
	// the game's leave, rule 61).
	Status  string `json:"status"`
	Refused string `json:"refused,omitempty"`
	// AtTable is what this machine's ledger holds as at the table, cents:
	// the buy-ins and re-buys not yet cashed out.
	AtTable int64 `json:"at_table"`
	// State is the table as the seat last saw it (nil until the first).
	State *seatmsg.StateMsg `json:"state,omitempty"`
	// Player and Source are the player's name at the table and whose
	// money it is, as the server knows them (the cabinet's identity);
	// Transfer is the ID of the transfer under way ("" when none).
	Player   string `json:"player,omitempty"`
	Source   string `json:"source,omitempty"`
	Transfer string `json:"transfer,omitempty"`
	// Replay is the player's last hands as the server last sent them at
	// his asking (SRIJ rule 78), until he closes it; ReplaySeq counts the
	// replays received, so the screen tells the answer to its request
	// from one it already showed. Display only: nothing in it is money.
	Replay    *seatmsg.ReplayMsg `json:"replay,omitempty"`
	ReplaySeq uint64             `json:"replay_seq,omitempty"`
	// Ended is the session the player ended by leaving, until he closes
	// it (or sits down again).
	Ended *PokerSessionEnd `json:"ended,omitempty"`
}

// PokerSessionEnd is a session at a table that ended: what the cash-out
// put back on the credit meter and the session's totals (SRIJ rule 80).
// Server says the totals are the server's own, from its "left" message;
// without it they are the last ones the seat saw, with the cash-out this
// machine recorded (the message can be lost when the seat's WebSocket is
// dropped as the cash-out is answered), until the server's come.
type PokerSessionEnd struct {
	Table    string       `json:"table"`
	Transfer string       `json:"transfer,omitempty"` // the cash-out's ID
	Amount   int64        `json:"amount"`
	Totals   poker.Totals `json:"totals"`
	Server   bool         `json:"server"`
}

// PokerBuyIn asks to seat the player at Table with Cents of his credits
// (the cave the table asks now: seatmsg.TableInfo.RequiredCave).
type PokerBuyIn struct {
	At    time.Time
	Table string
	Cents int64
}

// PokerAct is the seated player's decision (seatmsg.ClientMsg's kinds:
// fold, check, call, raise with To, all_in; ante, no_ante, estardilho,
// no_estardilho, restardilho, no_restardilho; and "extra", "rest",
// "replay"; at a chemin de fer table the chemin kinds of cheminActs, To
// their amount), or the closing of what the screen shows of the seat:
// "close_replay", "close_ended" (the machine's alone: nothing is sent).
type PokerAct struct {
	At   time.Time
	Kind string
	To   int64
	On   bool // "rest": sit out (true) or come back (false)
}

// PokerLeave asks to leave the table: the whole stack back to the credit
// meter (after the hand he plays ends).
type PokerLeave struct {
	At           time.Time
	AuthorizedBy string
}

func (e PokerBuyIn) at() time.Time { return e.At }
func (e PokerAct) at() time.Time   { return e.At }
func (e PokerLeave) at() time.Time { return e.At }

// PokerLeave's AuthorizedBy, when given, names the chief of the game who
// lets the player leave a synthetic-poker partida with his chips (rule
// 61); PokerBuyIn at the table the player is at is a re-buy.

// Events back from the edge (cmd/cabinet's seat client). None of them is
// money by itself: a transfer moves only when the machine records the
// server's answer for the transfer it asked.

// PokerTables is the table server's list of tables (GET /api/v1/tables).
type PokerTables struct {
	At     time.Time
	Tables []seatmsg.TableInfo
}

// PokerSeatState is the table as the seat sees it, from the seat's
// WebSocket: shown, never recorded (the server's ledger holds the hands).
type PokerSeatState struct {
	At    time.Time
	State seatmsg.StateMsg
}

// PokerAnswer is the server's definitive answer to transfer ID: Done
// (Cents: a buy-in's amount, or what a cash-out paid back as the server's
// ledger holds it) or refused (Why: the server's reason).
type PokerAnswer struct {
	At    time.Time
	ID    string
	Done  bool
	Cents int64
	Why   string
}

// PokerSeatReplay is the server's replay of the player's last hands at
// Table, from the seat's WebSocket, as he asked it: shown, never recorded.
type PokerSeatReplay struct {
	At     time.Time
	Table  string
	Replay seatmsg.ReplayMsg
}

// PokerSeatLeft is the server's word on the seat's WebSocket that the
// player left Table: the cash-out paid and his session's totals. Shown,
// never recorded: the cash-out is money only as its PokerAnswer.
type PokerSeatLeft struct {
	At    time.Time
	Table string
	Left  seatmsg.LeftMsg
}

func (e PokerTables) at() time.Time     { return e.At }
func (e PokerSeatState) at() time.Time  { return e.At }
func (e PokerAnswer) at() time.Time     { return e.At }
func (e PokerSeatReplay) at() time.Time { return e.At }
func (e PokerSeatLeft) at() time.Time   { return e.At }

// Effects for the edge, carried out after the records are committed.

// PokerAsk asks the table server for the transfer the ledger holds open:
// the same request, with its ID, until a definitive answer comes back as
// a PokerAnswer. The request is committed before it is asked, so a power
// loss never asks one that the ledger does not know.
type PokerAsk struct{ Transfer meters.PokerTransfer }

// PokerSeatLink holds the seat's WebSocket for the seat bought by BuyIn
// at Table (its token comes from the server's transfer), or drops it (both
// ""): the table's states come back as PokerSeatState.
type PokerSeatLink struct{ Table, BuyIn string }

// PokerSend is a request of the seat to the server over its WebSocket.
type PokerSend struct{ Msg seatmsg.ClientMsg }

func (PokerAsk) device()      {}
func (PokerSeatLink) device() {}
func (PokerSend) device()     {}

// What a power loss does at each step (the ledger is the truth, DESIGN
// rule 9): a transfer recorded as asked is asked again at power-up under
// its ID, and the server gives the answer it gave or gives it now (a
// buy-in's credits stay off the meter, in transit, until then); a seat
// recorded as bought is linked again; a transfer whose answer was
// recorded is over on both sides. Nothing is asked that the ledger has
// not recorded first, and no answer is recorded twice.

// pokerActs are the seat's betting and offer actions (the table server's
// kinds, seatmsg.ClientMsg); "extra", "rest" and "replay" are requests of
// their own.
var pokerActs = map[string]bool{
	"fold": true, "check": true, "call": true, "raise": true, "all_in": true,
	"ante": true, "no_ante": true, "estardilho": true, "no_estardilho": true, "restardilho": true, "no_restardilho": true,
}

// cheminActs are the decisions of a seat at a chemin de fer table
// (seatmsg's chemin protocol), each with what its "to" must be: an amount
// (or, for join_bid, the seat whose offer he joins) that the server
// checks against the seat's choices; banco_mesa may leave it 0 (half the
// bank). The server refuses one the seat was not offered: the machine
// only keeps a poker table's kinds from a chemin table and back, so a
// key pressed on the wrong screen never reaches the wrong game.
var cheminActs = map[poker.ActionKind]cheminTo{
	chemin.Bank: toNeeded, chemin.BankAssociated: toNeeded, chemin.Refuse: toNone, chemin.Associate: toNone,
	chemin.Banco: toNone, chemin.Suivi: toNone, chemin.BancoMesa: toMaybe, chemin.Bet: toNeeded, chemin.NoBet: toNone,
	chemin.PlayCards: toNone, chemin.PassCards: toNone,
	chemin.Draw: toNone, chemin.Stand: toNone, chemin.Continue: toNone, chemin.SetGarage: toNone, chemin.Reduce: toNone,
	chemin.Halve: toNone, chemin.Pass: toNone, chemin.Take: toNone, chemin.Decline: toNone, chemin.Bid: toNeeded,
	chemin.NoBid: toNone, chemin.BidAssociated: toNeeded, chemin.JoinBid: toNeeded, chemin.PayOutside: toNone,
}

// cheminTo is what a chemin decision's "to" must be.
type cheminTo int

const (
	toNone   cheminTo = iota // no amount: a "to" given is not sent
	toNeeded                 // an amount above 0
	toMaybe                  // an amount, or 0 for the rule's default
)

// seatGame is the game of the table the seat is at (tabledef.Game's
// names), from the table's own state or else the server's list ("" when
// neither says).
func (m *Machine) seatGame() string {
	p := &m.st.Poker
	if s := m.pokerState; s != nil && s.Table.ID == p.Table && s.Table.Game != "" {
		return s.Table.Game
	}
	for _, t := range m.pokerTables {
		if t.ID == p.Table {
			return t.Game
		}
	}
	return ""
}

// pokerEvent steps this file's events; false for any other.
func (m *Machine) pokerEvent(ev Event, eff *Effects) bool {
	switch e := ev.(type) {
	case PokerBuyIn:
		m.playerAt = m.now
		m.pokerBuyIn(e, eff)
	case PokerAct:
		m.playerAt = m.now
		m.pokerAct(e, eff)
	case PokerLeave:
		m.playerAt = m.now
		m.pokerLeave(e, eff)
	case PokerTables:
		m.pokerTables = append([]seatmsg.TableInfo(nil), e.Tables...)
	case PokerSeatState:
		p := &m.st.Poker
		if p.Table != "" && e.State.Table.ID == p.Table {
			s := e.State
			m.pokerState = &s
		}
	case PokerSeatReplay:
		if p := &m.st.Poker; p.Table != "" && e.Table == p.Table {
			r := e.Replay
			m.pokerReplay = &r
			m.pokerReplaySeq++
		}
	case PokerSeatLeft:
		m.pokerLeft(e)
	case PokerAnswer:
		m.pokerAnswer(e, eff)
	default:
		return false
	}
	return true
}

func (m *Machine) pokerRefuse(eff *Effects, key string) {
	eff.Refused = key
	m.say(key)
}

// pokerIdle says why the player cannot move credits to a table now.
func (m *Machine) pokerIdle() string {
	switch {
	case !m.cfg.PokerTables:
		return "refused_game_not_offered"
	case m.inTest():
		return "refused_test_mode"
	case m.st.Poker.Open != nil:
		return "refused_poker_busy"
	}
	return m.canStart()
}

func (m *Machine) pokerBuyIn(e PokerBuyIn, eff *Effects) {
	if why := m.pokerIdle(); why != "" {
		m.pokerRefuse(eff, why)
		return
	}
	p := &m.st.Poker
	kind := meters.PokerBuyIn
	if p.Table != "" {
		if p.Table != e.Table {
			m.pokerRefuse(eff, "refused_poker_seated")
			return
		}
		kind = meters.PokerRebuy
	}
	known := false
	for _, t := range m.pokerTables {
		known = known || t.ID == e.Table
	}
	if !known {
		m.pokerRefuse(eff, "refused_poker_table")
		return
	}
	if e.Cents <= 0 || e.Cents > m.st.Redeemable() {
		// Restricted promotional credits never go to a table: its
		// cash-out is money.
		m.pokerRefuse(eff, "refused_insufficient_credit")
		return
	}
	seq := p.Seq + 1
	name := meters.PokerName(m.cfg.MachineID)
	t := meters.PokerTransfer{At: m.ns(), ID: meters.PokerTransferID(m.cfg.MachineID, m.ns(), seq), Seq: seq, Kind: kind,
		Table: e.Table, Source: name, Player: name[:min(len(name), 32)], Cents: e.Cents}
	if kind == meters.PokerRebuy {
		t.Source, t.Player = p.Source, p.Player
	}
	if !m.record(eff, t) {
		return
	}
	if kind == meters.PokerBuyIn {
		m.pokerEnded = nil // a new session
	}
	m.game = GamePoker
	m.message = Message{}
	eff.Devices = append(eff.Devices, PokerAsk{Transfer: t})
}

func (m *Machine) pokerLeave(e PokerLeave, eff *Effects) {
	p := &m.st.Poker
	switch {
	case p.Open != nil:
		m.pokerRefuse(eff, "refused_poker_busy")
		return
	case p.Table == "":
		m.pokerRefuse(eff, "refused_poker_not_seated")
		return
	}
	t := meters.PokerTransfer{At: m.ns(), ID: meters.PokerCashOutID(p.BuyIn, p.CashOuts+1), Kind: meters.PokerCashOut,
		Table: p.Table, Source: p.Source, Player: p.Player, AuthorizedBy: e.AuthorizedBy}
	if _, err := m.st.Next(t); err != nil {
		// A name the server would not take: the leave is refused, the
		// machine plays on.
		eff.Refused = "refused_poker_act"
		m.message = Message{Key: eff.Refused, Detail: err.Error(), At: m.ns()}
		return
	}
	if m.record(eff, t) {
		eff.Devices = append(eff.Devices, PokerAsk{Transfer: t})
	}
}

func (m *Machine) pokerAct(e PokerAct, eff *Effects) {
	switch e.Kind {
	case "close_replay":
		m.pokerReplay = nil
		return
	case "close_ended":
		m.pokerEnded = nil
		return
	}
	if m.st.Poker.Table == "" {
		m.pokerRefuse(eff, "refused_poker_not_seated")
		return
	}
	msg := seatmsg.ClientMsg{Type: e.Kind}
	atChemin := m.seatGame() == string(tabledef.Chemin)
	to, isChemin := cheminActs[poker.ActionKind(e.Kind)]
	switch {
	case atChemin && isChemin:
		msg = seatmsg.ClientMsg{Type: "act", Kind: e.Kind}
		switch {
		case to == toNeeded && e.To <= 0, to == toMaybe && e.To < 0:
			m.pokerRefuse(eff, "refused_poker_act")
			return
		case to != toNone:
			msg.To = e.To
		}
	case atChemin && e.Kind == "extra":
		m.pokerRefuse(eff, "refused_poker_act") // no extra time at chemin de fer
		return
	case !atChemin && pokerActs[e.Kind]:
		msg = seatmsg.ClientMsg{Type: "act", Kind: e.Kind}
		if e.Kind == "raise" {
			if e.To <= 0 {
				m.pokerRefuse(eff, "refused_poker_act")
				return
			}
			msg.To = e.To
		}
	case e.Kind == "rest":
		msg.On = e.On
	case e.Kind == "extra", e.Kind == "replay":
	default:
		m.pokerRefuse(eff, "refused_poker_act")
		return
	}
	eff.Devices = append(eff.Devices, PokerSend{Msg: msg})
}

// pokerAnswer records the server's answer to the transfer asked. An
// answer for another transfer changes nothing (the ledger's fold would
// refuse it: an answer is recorded once, for the transfer asked), except
// the seat's own cash-out when the server paid it without this machine
// asking (a leave sent on the seat's WebSocket takes the same ID): it is
// recorded as asked and paid, as it was on the server.
func (m *Machine) pokerAnswer(e PokerAnswer, eff *Effects) {
	p := &m.st.Poker
	o := p.Open
	if o == nil && e.Done && p.Table != "" && e.ID == meters.PokerCashOutID(p.BuyIn, p.CashOuts+1) {
		t := meters.PokerTransfer{At: m.ns(), ID: e.ID, Kind: meters.PokerCashOut, Table: p.Table, Source: p.Source, Player: p.Player}
		if !m.record(eff, t) {
			return
		}
		o = &t
	}
	if o == nil || o.ID != e.ID {
		return
	}
	var r meters.Record = meters.PokerRefused{At: m.ns(), ID: e.ID, Why: e.Why}
	if e.Done {
		r = meters.PokerDone{At: m.ns(), ID: e.ID, Cents: e.Cents}
	} else if e.Why == "" {
		r = meters.PokerRefused{At: m.ns(), ID: e.ID, Why: "refused by the table server"}
	}
	if _, err := m.st.Next(r); err != nil {
		return // not this transfer's answer (another amount): it waits for the right one
	}
	m.record(eff, r)
	switch {
	case !e.Done && o.Kind != meters.PokerCashOut:
		m.say("msg_poker_buyin_refused", o.Cents)
	case !e.Done:
		m.say("msg_poker_cashout_refused")
	case o.Kind == meters.PokerBuyIn:
		eff.Devices = append(eff.Devices, PokerSeatLink{Table: o.Table, BuyIn: o.ID})
	case o.Kind == meters.PokerCashOut:
		m.pokerEnd(o.Table, o.ID, e.Cents)
		m.pokerState, m.pokerReplay = nil, nil
		eff.Devices = append(eff.Devices, PokerSeatLink{})
		m.say("msg_poker_cashed_out", e.Cents)
	}
}

// pokerLeft takes the server's word that the player left: his totals for
// the session that ends (the cash-out's answer may come before or after).
func (m *Machine) pokerLeft(e PokerSeatLeft) {
	p := &m.st.Poker
	end := m.pokerEnded
	switch {
	case p.Table != "" && e.Table == p.Table:
		// Before the cash-out's answer: kept for the summary it makes.
		m.pokerEnded = &PokerSessionEnd{Table: e.Table, Amount: e.Left.Amount, Totals: e.Left.Totals, Server: true}
	case end != nil && end.Table == e.Table && !end.Server:
		end.Totals, end.Server = e.Left.Totals, true
	}
}

// pokerEnd makes the summary of the session whose cash-out of cents was
// just recorded: the server's totals if its word came first, else the
// last ones the seat saw with this cash-out.
func (m *Machine) pokerEnd(table, id string, cents int64) {
	if end := m.pokerEnded; end != nil && end.Server && end.Table == table && end.Transfer == "" {
		end.Transfer, end.Amount = id, cents // the ledger's amount is the one on the meter
		return
	}
	end := &PokerSessionEnd{Table: table, Transfer: id, Amount: cents}
	if s := m.pokerState; s != nil && s.You != nil {
		end.Totals = s.You.Totals
	}
	end.Totals.CashedOut += cents
	m.pokerEnded = end
}

// pokerPowerUp drives the seat's edge to what the ledger holds: the
// transfer left open is asked again, the seat is linked again.
func (m *Machine) pokerPowerUp(eff *Effects) {
	p := &m.st.Poker
	if p.Busy() == "" {
		return
	}
	m.game = GamePoker
	if p.Table != "" {
		eff.Devices = append(eff.Devices, PokerSeatLink{Table: p.Table, BuyIn: p.BuyIn})
	}
	if p.Open != nil {
		eff.Devices = append(eff.Devices, PokerAsk{Transfer: *p.Open})
	}
}

// canPlay says why a game, a bet or the cabinet's cash-out cannot be done
// now ("" when it can): the player's money at a poker table keeps him
// there until he leaves it.
func (m *Machine) canPlay() string {
	if why := m.canStart(); why != "" {
		return why
	}
	switch p := &m.st.Poker; {
	case p.Open != nil:
		return "refused_poker_busy"
	case p.Table != "":
		return "refused_poker_seated"
	}
	return ""
}

// pokerView is the seat on screen (nil without a table server).
func (m *Machine) pokerView() *PokerSeatView {
	p := &m.st.Poker
	if !m.cfg.PokerTables && p.Busy() == "" {
		return nil // a seat left open by a cabinet that had a table server is still shown
	}
	v := &PokerSeatView{Tables: append([]seatmsg.TableInfo(nil), m.pokerTables...), Table: p.Table, AtTable: p.AtTable,
		Player: p.Player, Source: p.Source}
	switch {
	case p.Open != nil && p.Open.Kind == meters.PokerCashOut:
		v.Status, v.Transfer = "cashing_out", p.Open.ID
	case p.Open != nil:
		v.Status, v.Table, v.Transfer = "buying_in", p.Open.Table, p.Open.ID
		v.Player, v.Source = p.Open.Player, p.Open.Source
	case p.Table != "":
		v.Status = "seated"
	case p.Refused != nil:
		v.Status = "refused"
	}
	if p.Refused != nil {
		v.Refused = p.Refused.Why
	}
	if m.pokerState != nil && p.Table != "" {
		s := *m.pokerState
		v.State = &s
	}
	if m.pokerReplay != nil && p.Table != "" {
		r := *m.pokerReplay
		v.Replay, v.ReplaySeq = &r, m.pokerReplaySeq
	}
	if e := m.pokerEnded; e != nil {
		c := *e
		v.Ended = &c
	}
	return v
}
