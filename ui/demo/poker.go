package demo

import (
	"fmt"
	"time"

	"github.com/openegm/cabinet/assets"
	"github.com/openegm/cabinet/cards"
	"github.com/openegm/cabinet/machine"
	"github.com/openegm/cabinet/poker"
	"github.com/openegm/cabinet/poker/seatmsg"
)

// The poker seat's scenes: the seat at a table as the machine would show it,
// built by hand from the embedded table definitions (the demo machine has
// no table server). The screen tests, the screens' unit tests and the
// README's screenshots draw these.

// PokerPlayer is the demo cabinet's player at the tables.
const PokerPlayer = "EGM-0042"

// pokerNow is the table server's clock in the scenes (ms).
const pokerNow = int64(1_767_225_600_000)

// pokerInfo is a table as the server lists it, from an embedded definition.
func pokerInfo(id, status string, players int) seatmsg.TableInfo {
	def, err := assets.LoadPokerTable(id)
	if err != nil {
		panic(fmt.Sprintf("demo: the embedded poker table %s: %v", id, err))
	}
	in := seatmsg.TableInfo{ID: id, Game: string(def.Game), Title: def.Title, Card: map[string][]string{"pt": def.Card("pt"), "en": def.Card("en")},
		Seats: def.Seats(), Players: players, MinPlayers: def.MinPlayers(), MinRebuy: def.MinRebuy(),
		DecisionSeconds: int(def.DecisionTime() / time.Second), Session: 1, Digest: def.Digest, Status: status}
	if h := def.Holdem; h != nil {
		in.RequiredCave, in.ExtraSeconds = h.InitialCave, int(h.ExtraTime/time.Second)
	} else {
		in.RequiredCave = def.Synthetic.InitialCave
	}
	return in
}

// PokerTables are the lobby's tables: one in play, one waiting, one full
// and, on the second page, one out of service.
func PokerTables() []seatmsg.TableInfo {
	full := pokerInfo("holdem-fl-1-fee", "between", 0)
	full.Players = full.Seats
	return []seatmsg.TableInfo{
		pokerInfo("holdem-nl-2", "playing", 5),
		pokerInfo("sintetico-4-estardilho", "waiting", 2),
		full,
		pokerInfo("sintetico-3", "stopped", 0),
	}
}

// PokerLobby is the seat before the player sits down.
func PokerLobby() *machine.PokerSeatView {
	return &machine.PokerSeatView{Tables: PokerTables()}
}

func hand(codes ...string) []cards.Card {
	var out []cards.Card
	for _, s := range codes {
		c, err := cards.Parse(s)
		if err != nil {
			panic(err)
		}
		out = append(out, c)
	}
	return out
}

// pokerSeated is the seat at a table with a state seen at the server's
// time now (each scene its own, as each state the server sends).
func pokerSeated(t seatmsg.TableInfo, s *seatmsg.StateMsg, now int64) *machine.PokerSeatView {
	s.Type, s.Table, s.NowMS = "state", t, now
	tables := PokerTables()
	return &machine.PokerSeatView{Tables: tables, Table: t.ID, Status: "seated", AtTable: t.RequiredCave, State: s}
}

// lastHoldem is a finished hold'em hand's public records: two players
// show, the pot is paid with its rake.
func lastHoldem(no uint64) []poker.Record {
	return []poker.Record{
		{Kind: poker.KindHandStart, Hand: no, Seat: 2},
		{Kind: poker.KindBoard, Hand: no, Cards: hand("9C", "9D", "4S", "KH", "2C")},
		{Kind: poker.KindShow, Hand: no, Seat: 1, Player: PokerPlayer, Cards: hand("KC", "KD"), Value: "fullen: KC KD KH 9C 9D"},
		{Kind: poker.KindShow, Hand: no, Seat: 3, Player: "Bruno", Cards: hand("AS", "9H"), Value: "trio: 9H 9C 9D AS KH"},
		{Kind: poker.KindAward, Hand: no, Amount: 2400, Rake: 120, Shares: []poker.Share{{Seat: 1, Amount: 2280}}},
		{Kind: poker.KindHandEnd, Hand: no, Stacks: []poker.SeatStack{{Seat: 1, Player: PokerPlayer, Stack: 11280}, {Seat: 3, Player: "Bruno", Stack: 6800}}},
	}
}

// PokerToAct is the seat at no-limit hold'em when it is the player's
// turn: the flop turned, a raise to call, his own queens face up, the
// others' cards face down, one player folded and one resting.
func PokerToAct() *machine.PokerSeatView {
	t := pokerInfo("holdem-nl-2", "playing", 6)
	s := &seatmsg.StateMsg{Hand: 42, Dealer: 6, Board: hand("AS", "KD", "7H"), Pots: []int64{1000, 400},
		Seats: []seatmsg.SeatMsg{
			{Seat: 1, Player: PokerPlayer, Stack: 11280, InHand: true, Cards: hand("QH", "QS")},
			{Seat: 3, Player: "Bruno", Stack: 6400, Bet: 400, InHand: true},
			{Seat: 4, Player: "Carla", Stack: 15150, InHand: true, Folded: true},
			{Seat: 6, Player: "Duarte", Stack: 8900, InHand: true},
			{Seat: 8, Player: "Eva", Stack: 12000, Resting: true},
			{Seat: 9, Player: "Filipe", Stack: 4300, InHand: true},
		},
		ToAct: 1, Deadline: pokerNow + 14_000,
		Options: &seatmsg.OptionsMsg{Call: 400, Raise: true, MinTo: 800, MaxTo: 11280, Extra: true},
		You:     &seatmsg.YouMsg{Player: PokerPlayer, Seat: 1, Stack: 11280, Totals: poker.Totals{BoughtIn: 10000, Wagered: 3100, Won: 4380, Hands: 12}},
		Last:    lastHoldem(41),
	}
	return pokerSeated(t, s, pokerNow)
}

// PokerOffer is the seat at synthetic poker with the estardilho when the
// hand offers the player the cards for the minimum bet.
func PokerOffer() *machine.PokerSeatView {
	const offerNow = pokerNow + 60_000
	t := pokerInfo("sintetico-4-estardilho", "playing", 5)
	s := &seatmsg.StateMsg{Hand: 7, Dealer: 2, Board: []cards.Card{}, Pots: []int64{1000},
		Seats: []seatmsg.SeatMsg{
			{Seat: 1, Player: "Ana", Stack: 49500, Bet: 500, InHand: true},
			{Seat: 2, Player: "Bruno", Stack: 51200, Bet: 500, InHand: true},
			{Seat: 4, Player: PokerPlayer, Stack: 50000},
			{Seat: 7, Player: "Carla", Stack: 48800},
			{Seat: 10, Player: "Duarte", Stack: 62400},
		},
		ToAct: 4, Deadline: offerNow + 9_000,
		Offer: &seatmsg.OfferMsg{Accept: "ante", Decline: "no_ante", Amount: 500, Deadline: offerNow + 9_000},
		You:   &seatmsg.YouMsg{Player: PokerPlayer, Seat: 4, Stack: 50000, Totals: poker.Totals{BoughtIn: 50000, Hands: 3}},
	}
	return pokerSeated(t, s, offerNow)
}

// PokerShowdown is the seat at hold'em just after a showdown: the board
// turned, the players who showed face up, a player all in who won the main
// pot and the player the side pot, the result in the last hand's panel.
func PokerShowdown() *machine.PokerSeatView {
	t := pokerInfo("holdem-nl-2", "between", 4)
	const no = 43
	last := []poker.Record{
		{Kind: poker.KindHandStart, Hand: no, Seat: 3},
		{Kind: poker.KindBoard, Hand: no, Cards: hand("JH", "TH", "3C", "8D", "2S")},
		{Kind: poker.KindShow, Hand: no, Seat: 1, Player: PokerPlayer, Cards: hand("JC", "JD"), Value: "trio: JC JD JH TH 8D"},
		{Kind: poker.KindShow, Hand: no, Seat: 3, Player: "Bruno", Cards: hand("QH", "9H"), Value: "sequência: QH JH TH 9H 8D"},
		{Kind: poker.KindShow, Hand: no, Seat: 6, Player: "Duarte", Cards: hand("AC", "AD"), Value: "um par: AC AD JH TH 8D"},
		{Kind: poker.KindAward, Hand: no, Pot: 0, Amount: 3000, Rake: 150, Shares: []poker.Share{{Seat: 3, Amount: 2850}}},
		{Kind: poker.KindAward, Hand: no, Pot: 1, Amount: 1600, Rake: 80, Shares: []poker.Share{{Seat: 1, Amount: 1520}}},
		{Kind: poker.KindHandEnd, Hand: no, Stacks: []poker.SeatStack{{Seat: 1, Player: PokerPlayer, Stack: 10520}, {Seat: 3, Player: "Bruno", Stack: 2850}, {Seat: 6, Player: "Duarte", Stack: 7100}}},
	}
	s := &seatmsg.StateMsg{Hand: no, Dealer: 3, Board: hand("JH", "TH", "3C", "8D", "2S"), Pots: []int64{},
		Seats: []seatmsg.SeatMsg{
			{Seat: 1, Player: PokerPlayer, Stack: 10520, InHand: true, Cards: hand("JC", "JD")},
			{Seat: 3, Player: "Bruno", Stack: 2850, InHand: true, AllIn: true, Cards: hand("QH", "9H")},
			{Seat: 6, Player: "Duarte", Stack: 7100, InHand: true, Cards: hand("AC", "AD")},
			{Seat: 9, Player: "Filipe", Stack: 4300, InHand: true, Folded: true},
		},
		You:     &seatmsg.YouMsg{Player: PokerPlayer, Seat: 1, Stack: 10520, Totals: poker.Totals{BoughtIn: 10000, Wagered: 4400, Won: 5900, Hands: 13}},
		Current: last, Last: last,
	}
	return pokerSeated(t, s, pokerNow+120_000)
}

// replayHands are three hands of hold'em the player took part in, as the
// table's records hold them: a hand that folds to his big blind, a
// showdown he loses, a bet that wins uncalled.
func replayHands() [][]poker.Record {
	const me, bruno, duarte = PokerPlayer, "Bruno", "Duarte"
	start := func(no uint64, button int, stacks ...int64) []poker.Record {
		return []poker.Record{{Kind: poker.KindHandStart, Hand: no, Seat: button, Stacks: []poker.SeatStack{
			{Seat: 1, Player: me, Stack: stacks[0]}, {Seat: 3, Player: bruno, Stack: stacks[1]}, {Seat: 6, Player: duarte, Stack: stacks[2]}}}}
	}
	deal := func(seat int, player string, cs ...string) poker.Record {
		return poker.Record{Kind: poker.KindDeal, Seat: seat, Player: player, Cards: hand(cs...)}
	}
	post := func(seat int, action string, amount int64) poker.Record {
		return poker.Record{Kind: poker.KindPost, Seat: seat, Action: action, Amount: amount, To: amount}
	}
	act := func(seat int, action string, amount, to int64) poker.Record {
		return poker.Record{Kind: poker.KindAct, Seat: seat, Action: action, Amount: amount, To: to}
	}
	board := func(cs ...string) poker.Record { return poker.Record{Kind: poker.KindBoard, Cards: hand(cs...)} }
	award := func(amount, rake int64, seat int) poker.Record {
		return poker.Record{Kind: poker.KindAward, Amount: amount, Rake: rake, Shares: []poker.Share{{Seat: seat, Amount: amount - rake}}}
	}
	end := func(stacks ...int64) poker.Record {
		return poker.Record{Kind: poker.KindHandEnd, Stacks: []poker.SeatStack{
			{Seat: 1, Player: me, Stack: stacks[0]}, {Seat: 3, Player: bruno, Stack: stacks[1]}, {Seat: 6, Player: duarte, Stack: stacks[2]}}}
	}
	h38 := append(start(38, 3, 10000, 8000, 9000),
		deal(6, duarte, "4C", "9S"), deal(1, me, "8H", "8C"), deal(3, bruno, "TD", "2H"),
		post(6, "small_blind", 100), post(1, "big_blind", 200), act(3, "fold", 0, 0), act(6, "fold", 0, 100),
		poker.Record{Kind: poker.KindReturn, Seat: 1, Amount: 100}, award(200, 10, 1), end(10090, 8000, 8900))
	h39 := append(start(39, 6, 10090, 8000, 8900),
		deal(1, me, "JC", "JD"), deal(3, bruno, "QH", "9H"), deal(6, duarte, "5S", "6S"),
		post(1, "small_blind", 100), post(3, "big_blind", 200), act(6, "call", 200, 200), act(1, "call", 100, 200), act(3, "check", 0, 200),
		board("JH", "TH", "3C"), act(1, "check", 0, 0), act(3, "bet", 400, 400), act(6, "fold", 0, 0), act(1, "call", 400, 400),
		board("8D"), act(1, "check", 0, 0), act(3, "check", 0, 0), board("2S"), act(1, "check", 0, 0), act(3, "check", 0, 0),
		poker.Record{Kind: poker.KindShow, Seat: 1, Player: me, Cards: hand("JC", "JD"), Value: "trio: JC JD JH TH 8D"},
		poker.Record{Kind: poker.KindShow, Seat: 3, Player: bruno, Cards: hand("QH", "9H"), Value: "sequência: QH JH TH 9H 8D"},
		award(1400, 70, 3), end(9490, 8730, 8700))
	h40 := append(start(40, 1, 9490, 8730, 8700),
		deal(3, bruno, "7C", "2D"), deal(6, duarte, "KS", "QC"), deal(1, me, "AH", "KH"),
		post(3, "small_blind", 100), post(6, "big_blind", 200), act(1, "raise", 600, 600), act(3, "fold", 0, 100), act(6, "call", 400, 600),
		board("AS", "KD", "7H"), act(6, "check", 0, 0), act(1, "bet", 800, 800), act(6, "call", 800, 800),
		board("2C"), act(6, "check", 0, 0), act(1, "bet", 1500, 1500), act(6, "fold", 0, 0),
		poker.Record{Kind: poker.KindReturn, Seat: 1, Amount: 1500}, award(2900, 145, 1), end(10845, 8630, 7300))
	out := [][]poker.Record{h38, h39, h40}
	for _, h := range out {
		for i := range h {
			h[i].Hand = h[0].Hand
		}
	}
	return out
}

// PokerReplay is the seat at no-limit hold'em with the server's replay of
// the player's last three hands, as it answers his REPLAY: each hand
// frame by frame, the others' cards hidden until shown.
func PokerReplay() *machine.PokerSeatView {
	v := PokerToAct()
	v.State.ToAct, v.State.Options = 3, nil
	rp := &seatmsg.ReplayMsg{Type: "replay"}
	for _, recs := range replayHands() {
		frames, err := poker.Replay(recs, PokerPlayer)
		if err != nil {
			panic(fmt.Sprintf("demo: the replay's hand %d: %v", recs[0].Hand, err))
		}
		h := seatmsg.ReplayHand{Hand: recs[0].Hand}
		for _, f := range frames {
			shown := f.Record
			if shown.Kind == poker.KindDeal && shown.Player != PokerPlayer {
				shown.Cards = nil // as the server sends it: not his to see
			}
			fr := seatmsg.ReplayFrame{Record: shown, Board: append([]cards.Card{}, f.Board...), Pot: f.Pot}
			for _, s := range f.Seats {
				fr.Seats = append(fr.Seats, seatmsg.ReplaySeatFr(s))
			}
			h.Frames = append(h.Frames, fr)
		}
		rp.Hands = append(rp.Hands, h)
	}
	v.Replay, v.ReplaySeq = rp, 1
	return v
}

// PokerEnded is the lobby after the player left a table: the summary of
// his session, the server's totals and what came back to the credit.
func PokerEnded() *machine.PokerSeatView {
	v := PokerLobby()
	v.Ended = &machine.PokerSessionEnd{Table: "holdem-nl-2", Transfer: "out:EGM-0042:1", Amount: 10845, Server: true,
		Totals: poker.Totals{BoughtIn: 10000, Wagered: 6900, Won: 7745, Hands: 14, CashedOut: 10845}}
	return v
}
