package tableserver

import (
	"maps"
	"slices"
	"time"

	"github.com/openegm/cabinet/cards"
	"github.com/openegm/cabinet/poker"
	"github.com/openegm/cabinet/poker/chemin"
	"github.com/openegm/cabinet/poker/holdem"
	"github.com/openegm/cabinet/poker/seatmsg"
	"github.com/openegm/cabinet/poker/tabledef"
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
	case t.sess.InHand() || !t.sess.Engine.View("").Deadline.IsZero():
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
	if ce, ok := t.sess.Engine.(*tabledef.CheminEngine); ok {
		m.Chemin = s.cheminFor(t, ce.CheminView(player))
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

// cheminFor is the chemin de fer part of a state message (the protocol:
// package seatmsg).
func (s *Server) cheminFor(t *table, v chemin.View) *seatmsg.CheminMsg {
	m := &seatmsg.CheminMsg{Phase: string(v.Phase), Banker: v.Banker, Associate: v.Associate, Bank: v.Bank, Garage: v.Garage,
		Wins: v.Wins, Ponto: v.Ponto, PontoCards: cardList(v.PontoCards), BankerCards: cardList(v.BankerCards),
		PontoTotal: total(v.PontoCards), BankerTotal: total(v.BankerCards), Stakes: stakeList(v.Stakes), Level: v.Level,
		Bidders: v.Bidders, Shoe: v.Shoe, CardsLeft: v.CardsLeft, LastCoup: v.LastCoup, FinalCoup: v.FinalCoup, PlaysOn: v.PlaysOn,
		Choices: []seatmsg.ChoiceMsg{}, Says: []seatmsg.SayMsg{}}
	if !v.Closing.IsZero() {
		m.ClosingMS = ms(v.Closing)
	}
	for _, c := range v.Choices {
		m.Choices = append(m.Choices, seatmsg.ChoiceMsg{Kind: string(c.Kind), Min: c.Min, Max: c.Max, Step: c.Step})
	}
	for _, r := range t.says {
		m.Says = append(m.Says, say(r))
	}
	return m
}

func say(r poker.Record) seatmsg.SayMsg {
	return seatmsg.SayMsg{Key: r.Action, Coup: r.Hand, Amount: r.To, Value: r.Value, PT: chemin.Text("pt", r), EN: chemin.Text("en", r), AtMS: ms(r.At)}
}

func cardList(cs []cards.Card) []cards.Card {
	if cs == nil {
		return []cards.Card{}
	}
	return cs
}

// total is the total of a hand the viewer sees whole (-1: he does not,
// or sees only the ponto's third card).
func total(cs []cards.Card) int {
	if len(cs) < 2 {
		return -1
	}
	return chemin.Total(cs)
}

func stakeList(sh []poker.Share) []seatmsg.StakeMsg {
	out := []seatmsg.StakeMsg{}
	for _, x := range sh {
		out = append(out, seatmsg.StakeMsg{Seat: x.Seat, Amount: x.Amount})
	}
	return out
}

// cheminReplay rebuilds a chemin de fer player's last coups as he saw
// them (chemin.ReplayCoup).
func (s *Server) cheminReplay(t *table, player string) (seatmsg.ReplayMsg, error) {
	m := seatmsg.ReplayMsg{Type: "replay", Hands: []seatmsg.ReplayHand{}}
	for _, coup := range t.sess.Engine.LastHands(player) {
		frames, err := chemin.ReplayCoup(coup, player)
		if err != nil {
			return m, err
		}
		seats := map[int]string{}
		for _, st := range coup[0].Stacks {
			seats[st.Seat] = st.Player
		}
		rh := seatmsg.ReplayHand{Hand: coup[0].Hand}
		for _, f := range frames {
			rec := f.Record
			if rec.Kind == poker.KindDeal && rec.Player != player {
				rec.Cards = nil // not shown to him as dealt
			}
			cf := &seatmsg.CheminFrame{Bank: f.Bank, Stakes: []seatmsg.StakeMsg{}, PontoCards: cardList(f.PontoCards), BankerCards: cardList(f.BankerCards)}
			var pot int64
			for seat, a := range f.Stakes {
				cf.Stakes = append(cf.Stakes, seatmsg.StakeMsg{Seat: seat, Amount: a})
				pot += a
			}
			slices.SortFunc(cf.Stakes, func(a, b seatmsg.StakeMsg) int { return a.Seat - b.Seat })
			if rec.Kind == chemin.KindAnnounce {
				sm := say(rec)
				cf.Say = &sm
			}
			fr := seatmsg.ReplayFrame{Record: rec, Board: []cards.Card{}, Pot: pot, Chemin: cf}
			for seat, stack := range f.Stacks {
				if _, ok := seats[seat]; !ok {
					seats[seat] = rec.Player
				}
				fr.Seats = append(fr.Seats, seatmsg.ReplaySeatFr{Seat: seat, Player: seats[seat], Stack: stack, Bet: f.Stakes[seat]})
			}
			slices.SortFunc(fr.Seats, func(a, b seatmsg.ReplaySeatFr) int { return a.Seat - b.Seat })
			rh.Frames = append(rh.Frames, fr)
		}
		m.Hands = append(m.Hands, rh)
	}
	return m, nil
}

// replayFor rebuilds the player's last hands from the engine's history.
func (s *Server) replayFor(t *table, player string) (seatmsg.ReplayMsg, error) {
	if _, ok := t.sess.Engine.(*tabledef.CheminEngine); ok {
		return s.cheminReplay(t, player)
	}
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
