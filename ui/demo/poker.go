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
