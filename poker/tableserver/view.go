package tableserver

import (
	"maps"
	"time"

	"github.com/openegm/cabinet/cards"
	"github.com/openegm/cabinet/poker"
	"github.com/openegm/cabinet/poker/holdem"
	"github.com/openegm/cabinet/poker/seatmsg"
	"github.com/openegm/cabinet/poker/tableledger"
)

func (s *Server) info(t *table) seatmsg.TableInfo {
	d := t.sess.Def
	in := seatmsg.TableInfo{ID: t.id, Game: string(d.Game), Title: d.Title, Card: map[string][]string{"pt": d.Card("pt"), "en": d.Card("en")},
		Seats: d.Seats(), MinPlayers: d.MinPlayers(), RequiredCave: t.sess.Engine.RequiredCave(), MinRebuy: d.MinRebuy(),
		DecisionSeconds: int(d.DecisionTime() / time.Second), Session: t.sess.Number, Status: s.status(t)}
	if d.Holdem != nil {
		in.ExtraSeconds = int(d.Holdem.ExtraTime / time.Second)
	}
	in.Players = len(t.sess.Engine.View("").Seats)
	s.led.View(func(st *tableledger.State) {
		if lt := st.Tables[t.id]; lt != nil {
			in.Digest = lt.Digest
		}
	})
	return in
}

func (s *Server) status(t *table) string {
	switch {
	case s.fault != nil || t.fault != nil:
		return "stopped"
	case t.sess.Over():
		return "over"
	case t.sess.InHand():
		return "playing"
	case t.cert == nil:
		return "closing"
	case s.present(t) < t.sess.Def.MinPlayers():
		return "waiting"
	}
	return "between"
}

// Tables lists the tables.
func (s *Server) Tables() []seatmsg.TableInfo {
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []seatmsg.TableInfo
	for _, id := range s.tableIDs() {
		out = append(out, s.info(s.tables[id]))
	}
	return out
}

// TableInfo is one table's information.
func (s *Server) TableInfo(id string) (seatmsg.TableInfo, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	t, err := s.table(id)
	if err != nil {
		return seatmsg.TableInfo{}, err
	}
	return s.info(t), nil
}

// LedgerTable is a table as the ledger holds it (players, stacks, meters).
func (s *Server) LedgerTable(id string) (tableledger.Table, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	var out tableledger.Table
	var ok bool
	s.led.View(func(st *tableledger.State) {
		if t := st.Tables[id]; t != nil {
			// Every map is copied: the answer is encoded while the table
			// steps on.
			out, ok = *t, true
			out.Stakes = maps.Clone(t.Stakes)
			out.Players = map[string]*tableledger.Seat{}
			for k, p := range t.Players {
				c := *p
				out.Players[k] = &c
			}
		}
	})
	return out, ok
}

// public drops what nobody may see: the hole cards dealt (a player sees
// his own in the seats) and the community cards drawn and not turned.
func public(recs []poker.Record) []poker.Record {
	out := []poker.Record{}
	for _, r := range recs {
		if r.Kind != poker.KindDeal && r.Kind != poker.KindDeck {
			out = append(out, r)
		}
	}
	return out
}

func ms(t time.Time) int64 {
	if t.IsZero() {
		return 0
	}
	return t.UnixMilli()
}

// stateFor builds the state message of a table for a player ("" for a
// spectator).
func (s *Server) stateFor(t *table, player string) seatmsg.StateMsg {
	v := t.sess.Engine.View(player)
	m := seatmsg.StateMsg{Type: "state", Table: s.info(t), NowMS: ms(s.opts.Now()), Hand: v.Hand, Dealer: v.Dealer,
		Board: v.Board, Pots: v.Pots, ToAct: v.ToAct, Deadline: ms(v.Deadline),
		Current: public(t.current), Last: public(t.last)}
	if m.Board == nil {
		m.Board = []cards.Card{}
	}
	if m.Pots == nil {
		m.Pots = []int64{}
	}
	for _, sv := range v.Seats {
		m.Seats = append(m.Seats, seatmsg.SeatMsg{Seat: sv.Seat, Player: sv.Player, Stack: sv.Stack, Bet: sv.Bet, InHand: sv.InHand,
			Folded: sv.Folded, AllIn: sv.AllIn, Resting: sv.Resting, Cards: sv.Cards})
	}
	if o := v.Options; o != nil {
		m.Options = &seatmsg.OptionsMsg{Check: o.Check, Call: o.Call, Raise: o.Raise, MinTo: o.MinTo, MaxTo: o.MaxTo, Opening: o.Opening}
		if h, ok := t.sess.Engine.(*holdem.Table); ok && h.Config().ExtraTime > 0 && h.Decision != nil && !h.Decision.Banked {
			m.Options.Extra = true
		}
	}
	if o := v.Offer; o != nil {
		m.Offer = &seatmsg.OfferMsg{Accept: string(o.Accept), Decline: string(o.Decline), Amount: o.Amount, Deadline: ms(o.Deadline)}
	}
	if player != "" {
		s.led.View(func(st *tableledger.State) {
			if p := st.Tables[t.id].Players[player]; p != nil {
				m.You = &seatmsg.YouMsg{Player: player, Seat: p.Seat, Stack: p.Stack, Totals: p.Totals, CashOut: p.CashOut}
			}
		})
	}
	return m
}

// replayFor rebuilds the player's last hands from the engine's history.
func (s *Server) replayFor(t *table, player string) (seatmsg.ReplayMsg, error) {
	m := seatmsg.ReplayMsg{Type: "replay", Hands: []seatmsg.ReplayHand{}}
	for _, hand := range t.sess.Engine.LastHands(player) {
		frames, err := poker.Replay(hand, player)
		if err != nil {
			return m, err
		}
		rh := seatmsg.ReplayHand{Hand: hand[0].Hand}
		for _, f := range frames {
			rec := f.Record
			if rec.Kind == poker.KindDeck || (rec.Kind == poker.KindDeal && rec.Player != player) {
				rec.Cards = nil // not shown to him
			}
			fr := seatmsg.ReplayFrame{Record: rec, Board: f.Board, Pot: f.Pot}
			if fr.Board == nil {
				fr.Board = []cards.Card{}
			}
			for _, fs := range f.Seats {
				fr.Seats = append(fr.Seats, seatmsg.ReplaySeatFr{Seat: fs.Seat, Player: fs.Player, Stack: fs.Stack, Bet: fs.Bet, Folded: fs.Folded, Cards: fs.Cards})
			}
			rh.Frames = append(rh.Frames, fr)
		}
		m.Hands = append(m.Hands, rh)
	}
	return m, nil
}
