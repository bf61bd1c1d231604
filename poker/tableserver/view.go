package tableserver

import (
	"maps"
	"time"

	"github.com/openegm/cabinet/cards"
	"github.com/openegm/cabinet/poker"
	"github.com/openegm/cabinet/poker/holdem"
	"github.com/openegm/cabinet/poker/tableledger"
	"github.com/openegm/cabinet/reels"
)

// TableInfo is what anyone may read of a table before sitting down.
type TableInfo struct {
	ID              string              `json:"id"`
	Game            string              `json:"game"`
	Title           reels.Names         `json:"title"`
	Card            map[string][]string `json:"card"` // "pt" and "en": the table card (synthetic poker: rule 20)
	Seats           int                 `json:"seats"`
	Players         int                 `json:"players"`
	MinPlayers      int                 `json:"min_players"`
	RequiredCave    int64               `json:"required_cave"` // what a buy-in must be now, cents
	MinRebuy        int64               `json:"min_rebuy"`
	DecisionSeconds int                 `json:"decision_seconds"`
	ExtraSeconds    int                 `json:"extra_seconds,omitempty"`
	Session         int                 `json:"session"`
	Digest          string              `json:"digest"` // of the definition played
	Status          string              `json:"status"` // waiting, playing, between, over, closing, stopped
}

func (s *Server) info(t *table) TableInfo {
	d := t.sess.Def
	in := TableInfo{ID: t.id, Game: string(d.Game), Title: d.Title, Card: map[string][]string{"pt": d.Card("pt"), "en": d.Card("en")},
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
func (s *Server) Tables() []TableInfo {
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []TableInfo
	for _, id := range s.tableIDs() {
		out = append(out, s.info(s.tables[id]))
	}
	return out
}

// TableInfo is one table's information.
func (s *Server) TableInfo(id string) (TableInfo, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	t, err := s.table(id)
	if err != nil {
		return TableInfo{}, err
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

// StateMsg is what a seat (or a spectator) sees of its table after every
// step: the engine's view for that player, the table card, his session
// totals from the ledger, the hand in play's public records and the last
// hand's.
type StateMsg struct {
	Type     string         `json:"type"` // "state"
	Table    TableInfo      `json:"table"`
	NowMS    int64          `json:"now_ms"`
	Hand     uint64         `json:"hand"`
	Dealer   int            `json:"dealer"` // the button (hold'em) or the hand (synthetic)
	Board    []cards.Card   `json:"board"`
	Pots     []int64        `json:"pots"`
	Seats    []SeatMsg      `json:"seats"`
	ToAct    int            `json:"to_act"`
	Deadline int64          `json:"deadline_ms,omitempty"`
	Options  *OptionsMsg    `json:"options,omitempty"`
	Offer    *OfferMsg      `json:"offer,omitempty"`
	You      *YouMsg        `json:"you,omitempty"`
	Current  []poker.Record `json:"current"` // the hand in play, without the cards nobody was shown
	Last     []poker.Record `json:"last"`    // the last hand, likewise
}

// SeatMsg is one seat.
type SeatMsg struct {
	Seat    int          `json:"seat"`
	Player  string       `json:"player"`
	Stack   int64        `json:"stack"`
	Bet     int64        `json:"bet"`
	InHand  bool         `json:"in_hand"`
	Folded  bool         `json:"folded"`
	AllIn   bool         `json:"all_in"`
	Resting bool         `json:"resting"`
	Cards   []cards.Card `json:"cards,omitempty"`
}

// OptionsMsg are the betting options of the player to act.
type OptionsMsg struct {
	Check   bool  `json:"check"`
	Call    int64 `json:"call"`
	Raise   bool  `json:"raise"`
	MinTo   int64 `json:"min_to"`
	MaxTo   int64 `json:"max_to"`
	Opening bool  `json:"opening"`
	Extra   bool  `json:"extra"` // he may ask for the extra time
}

// OfferMsg is a yes-or-no question (synthetic poker: buy the cards, the
// estardilho).
type OfferMsg struct {
	Accept   string `json:"accept"`
	Decline  string `json:"decline"`
	Amount   int64  `json:"amount"`
	Deadline int64  `json:"deadline_ms"`
}

// YouMsg is the seat's own player.
type YouMsg struct {
	Player  string       `json:"player"`
	Seat    int          `json:"seat"`
	Stack   int64        `json:"stack"`
	Totals  poker.Totals `json:"totals"`
	CashOut string       `json:"cash_out,omitempty"` // a cash-out pending (he leaves after the hand)
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
func (s *Server) stateFor(t *table, player string) StateMsg {
	v := t.sess.Engine.View(player)
	m := StateMsg{Type: "state", Table: s.info(t), NowMS: ms(s.opts.Now()), Hand: v.Hand, Dealer: v.Dealer,
		Board: v.Board, Pots: v.Pots, ToAct: v.ToAct, Deadline: ms(v.Deadline),
		Current: public(t.current), Last: public(t.last)}
	if m.Board == nil {
		m.Board = []cards.Card{}
	}
	if m.Pots == nil {
		m.Pots = []int64{}
	}
	for _, sv := range v.Seats {
		m.Seats = append(m.Seats, SeatMsg{Seat: sv.Seat, Player: sv.Player, Stack: sv.Stack, Bet: sv.Bet, InHand: sv.InHand,
			Folded: sv.Folded, AllIn: sv.AllIn, Resting: sv.Resting, Cards: sv.Cards})
	}
	if o := v.Options; o != nil {
		m.Options = &OptionsMsg{Check: o.Check, Call: o.Call, Raise: o.Raise, MinTo: o.MinTo, MaxTo: o.MaxTo, Opening: o.Opening}
		if h, ok := t.sess.Engine.(*holdem.Table); ok && h.Config().ExtraTime > 0 && h.Decision != nil && !h.Decision.Banked {
			m.Options.Extra = true
		}
	}
	if o := v.Offer; o != nil {
		m.Offer = &OfferMsg{Accept: string(o.Accept), Decline: string(o.Decline), Amount: o.Amount, Deadline: ms(o.Deadline)}
	}
	if player != "" {
		s.led.View(func(st *tableledger.State) {
			if p := st.Tables[t.id].Players[player]; p != nil {
				m.You = &YouMsg{Player: player, Seat: p.Seat, Stack: p.Stack, Totals: p.Totals, CashOut: p.CashOut}
			}
		})
	}
	return m
}

// ReplayMsg is the replay of a player's last hands (SRIJ rule 78), frame
// by frame as he saw them.
type ReplayMsg struct {
	Type  string       `json:"type"` // "replay"
	Hands []ReplayHand `json:"hands"`
}

// ReplayHand is one hand's frames.
type ReplayHand struct {
	Hand   uint64        `json:"hand"`
	Frames []ReplayFrame `json:"frames"`
}

// ReplayFrame is the table after one record of the hand.
type ReplayFrame struct {
	Record poker.Record   `json:"record"`
	Board  []cards.Card   `json:"board"`
	Pot    int64          `json:"pot"`
	Seats  []ReplaySeatFr `json:"seats"`
}

// ReplaySeatFr is a seat in a frame.
type ReplaySeatFr struct {
	Seat   int          `json:"seat"`
	Player string       `json:"player"`
	Stack  int64        `json:"stack"`
	Bet    int64        `json:"bet"`
	Folded bool         `json:"folded"`
	Cards  []cards.Card `json:"cards,omitempty"`
}

// replayFor rebuilds the player's last hands from the engine's history.
func (s *Server) replayFor(t *table, player string) (ReplayMsg, error) {
	m := ReplayMsg{Type: "replay", Hands: []ReplayHand{}}
	for _, hand := range t.sess.Engine.LastHands(player) {
		frames, err := poker.Replay(hand, player)
		if err != nil {
			return m, err
		}
		rh := ReplayHand{Hand: hand[0].Hand}
		for _, f := range frames {
			rec := f.Record
			if rec.Kind == poker.KindDeck || (rec.Kind == poker.KindDeal && rec.Player != player) {
				rec.Cards = nil // not shown to him
			}
			fr := ReplayFrame{Record: rec, Board: f.Board, Pot: f.Pot}
			if fr.Board == nil {
				fr.Board = []cards.Card{}
			}
			for _, fs := range f.Seats {
				fr.Seats = append(fr.Seats, ReplaySeatFr{Seat: fs.Seat, Player: fs.Player, Stack: fs.Stack, Bet: fs.Bet, Folded: fs.Folded, Cards: fs.Cards})
			}
			rh.Frames = append(rh.Frames, fr)
		}
		m.Hands = append(m.Hands, rh)
	}
	return m, nil
}
