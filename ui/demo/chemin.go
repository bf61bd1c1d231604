package demo

import (
	"fmt"
	"time"

	"github.com/openegm/cabinet/assets"
	"github.com/openegm/cabinet/cards"
	"github.com/openegm/cabinet/machine"
	"github.com/openegm/cabinet/poker"
	"github.com/openegm/cabinet/poker/chemin"
	"github.com/openegm/cabinet/poker/seatmsg"
)

// The seat at a chemin de fer table (banca francesa), built by hand from
// the embedded definition like the poker scenes: the lobby with the chemin
// table first, the player asked to go bancô or bet, the player as ponto
// with five asked to draw, and the coup over with the player banking.

// CheminTable is the embedded chemin de fer table the scenes play.
const CheminTable = "chemin-6d"

// cheminInfo is the chemin table as the server lists it.
func cheminInfo(status string, players int) seatmsg.TableInfo {
	def, err := assets.LoadCheminTable(CheminTable)
	if err != nil {
		panic(fmt.Sprintf("demo: the embedded chemin table %s: %v", CheminTable, err))
	}
	return seatmsg.TableInfo{ID: CheminTable, Game: string(def.Game), Title: def.Title, Card: map[string][]string{"pt": def.Card("pt"), "en": def.Card("en")},
		Seats: def.Seats(), Players: players, MinPlayers: def.MinPlayers(), MinRebuy: def.MinRebuy(), RequiredCave: def.Chemin.MinBet,
		DecisionSeconds: int(def.DecisionTime() / time.Second), Session: 1, Digest: def.Digest, Status: status}
}

// CheminLobby is the seat before the player sits down, the chemin table
// first among the poker tables.
func CheminLobby() *machine.PokerSeatView {
	return &machine.PokerSeatView{Tables: append([]seatmsg.TableInfo{cheminInfo("playing", 5)}, PokerTables()...)}
}

// says are the dealer's announcements as the server sends them: its own
// words in both languages (chemin.Text).
func says(coup uint64, at int64, rs ...poker.Record) []seatmsg.SayMsg {
	out := []seatmsg.SayMsg{}
	for i, r := range rs {
		r.Kind, r.Hand = chemin.KindAnnounce, coup
		out = append(out, seatmsg.SayMsg{Key: r.Action, Coup: coup, Amount: r.To, Value: r.Value,
			PT: chemin.Text("pt", r), EN: chemin.Text("en", r), AtMS: at - int64(len(rs)-i)*1500})
	}
	return out
}

// cheminSeated is the seat at the chemin table with a state seen at now.
func cheminSeated(s *seatmsg.StateMsg, now int64, atTable int64) *machine.PokerSeatView {
	t := cheminInfo("playing", len(s.Seats))
	s.Type, s.Table, s.NowMS = "state", t, now
	s.Board, s.Pots = []cards.Card{}, []int64{}
	return &machine.PokerSeatView{Tables: CheminLobby().Tables, Table: t.ID, Status: "seated", AtTable: atTable, State: s}
}

// cheminSeats are five players around the table, the cabinet's at seat 4.
func cheminSeats(you int64) []seatmsg.SeatMsg {
	return []seatmsg.SeatMsg{
		{Seat: 1, Player: "Ana", Stack: 48000},
		{Seat: 2, Player: "Bruno", Stack: 61500},
		{Seat: 4, Player: PokerPlayer, Stack: you},
		{Seat: 7, Player: "Carla", Stack: 23000, Resting: true},
		{Seat: 9, Player: "Duarte", Stack: 90250},
	}
}

// CheminBanco is the player asked in the banco round: Ana banks 200 €,
// Bruno has already bet; he may go bancô, bancô with the table, bet from
// the minimum up to his stack, or not bet, with the timer running.
func CheminBanco() *machine.PokerSeatView {
	const now = pokerNow + 120_000
	s := &seatmsg.StateMsg{Hand: 17, Dealer: 1, ToAct: 4, Deadline: now + 12_000,
		Seats: cheminSeats(35000),
		You:   &seatmsg.YouMsg{Player: PokerPlayer, Seat: 4, Stack: 35000, Totals: poker.Totals{BoughtIn: 30000, Wagered: 9000, Won: 14000, Hands: 6}},
		Chemin: &seatmsg.CheminMsg{Phase: "banco_round", Banker: 1, Bank: 20000, PontoTotal: -1, BankerTotal: -1,
			Stakes: []seatmsg.StakeMsg{{Seat: 2, Amount: 5000}}, Shoe: "3f9a", CardsLeft: 271,
			Choices: []seatmsg.ChoiceMsg{{Kind: "banco"}, {Kind: "banco_mesa", Min: 10000, Max: 20000, Step: 100},
				{Kind: "bet", Min: 1000, Max: 15000, Step: 100}, {Kind: "no_bet"}},
			Says: says(17, now, poker.Record{Action: string(chemin.MsgBank), To: 20000}, poker.Record{Action: string(chemin.MsgWhoBanco)})},
	}
	return cheminSeated(s, now, 30000)
}

// CheminDraw is the player as ponto on a bancô with five: his two cards
// face up, the banker's face down, «Carta» or «Não» to say.
func CheminDraw() *machine.PokerSeatView {
	const now = pokerNow + 180_000
	s := &seatmsg.StateMsg{Hand: 18, Dealer: 1, ToAct: 4, Deadline: now + 15_000,
		Seats: cheminSeats(15000),
		You:   &seatmsg.YouMsg{Player: PokerPlayer, Seat: 4, Stack: 15000, Totals: poker.Totals{BoughtIn: 30000, Wagered: 29000, Won: 14000, Hands: 7}},
		Chemin: &seatmsg.CheminMsg{Phase: "ponto", Banker: 1, Bank: 20000, Ponto: 4, PontoCards: hand("3H", "2S"), PontoTotal: 5, BankerTotal: -1,
			Stakes: []seatmsg.StakeMsg{{Seat: 4, Amount: 20000}}, Shoe: "3f9a", CardsLeft: 267,
			Choices: []seatmsg.ChoiceMsg{{Kind: "draw"}, {Kind: "stand"}},
			Says: says(18, now, poker.Record{Action: string(chemin.MsgBank), To: 20000}, poker.Record{Action: string(chemin.MsgBanco)},
				poker.Record{Action: string(chemin.MsgClosed), To: 20000})},
	}
	return cheminSeated(s, now, 30000)
}

// CheminAfterCoup is the player holding the bank after winning a coup at
// the sabot's last coup: both hands shown with their points, the result
// announced, and his choices to go on, set aside half as garage, or pass
// the hand.
func CheminAfterCoup() *machine.PokerSeatView {
	const now = pokerNow + 240_000
	seats := cheminSeats(41000)
	s := &seatmsg.StateMsg{Hand: 23, Dealer: 4, ToAct: 4, Deadline: now + 18_000,
		Seats: seats,
		You:   &seatmsg.YouMsg{Player: PokerPlayer, Seat: 4, Stack: 41000, Totals: poker.Totals{BoughtIn: 30000, Wagered: 49000, Won: 66000, Hands: 12}},
		Chemin: &seatmsg.CheminMsg{Phase: "after_coup", Banker: 4, Associate: 9, Bank: 38000, Garage: 10000, Wins: 2, Ponto: 2,
			PontoCards: hand("KD", "4C", "9H"), PontoTotal: 3, BankerCards: hand("7S", "QH"), BankerTotal: 7,
			Stakes: []seatmsg.StakeMsg{}, Shoe: "3f9a", CardsLeft: 9, LastCoup: true,
			Choices: []seatmsg.ChoiceMsg{{Kind: "continue"}, {Kind: "garage"}, {Kind: "pass"}, {Kind: "cagnotte_outside"}},
			Says: says(23, now, poker.Record{Action: string(chemin.MsgLastOfSabot)}, poker.Record{Action: string(chemin.MsgCard)},
				poker.Record{Action: string(chemin.MsgBankWins), Value: "3 7"})},
	}
	return cheminSeated(s, now, 30000)
}

// CheminReplay is the player holding the bank with the replay of his last
// coup open: the frames as he saw them, his bank, Bruno's stake, the
// ponto's third card, both hands shown, the dealer's words and the bank's
// win with its cagnotte.
func CheminReplay() *machine.PokerSeatView {
	v := CheminAfterCoup()
	const coup = 23
	seats := func(ana, bruno, me int64, bet int64) []seatmsg.ReplaySeatFr {
		return []seatmsg.ReplaySeatFr{{Seat: 1, Player: "Ana", Stack: ana}, {Seat: 2, Player: "Bruno", Stack: bruno, Bet: bet},
			{Seat: 4, Player: PokerPlayer, Stack: me}, {Seat: 9, Player: "Duarte", Stack: 90250}}
	}
	say := func(r poker.Record) *seatmsg.SayMsg {
		s := says(coup, pokerNow, r)[0]
		return &s
	}
	stake := []seatmsg.StakeMsg{{Seat: 2, Amount: 19000}}
	frame := func(r poker.Record, bank int64, st []seatmsg.StakeMsg, pc, bc []cards.Card, s *seatmsg.SayMsg, bruno int64) seatmsg.ReplayFrame {
		r.Hand = coup
		return seatmsg.ReplayFrame{Record: r, Board: []cards.Card{}, Pot: bank, Seats: seats(48000, bruno, 41000, 0),
			Chemin: &seatmsg.CheminFrame{Bank: bank, Stakes: st, PontoCards: pc, BankerCards: bc, Say: s}}
	}
	bankRec := poker.Record{Kind: chemin.KindAnnounce, Action: string(chemin.MsgBank), To: 19000}
	winRec := poker.Record{Kind: chemin.KindAnnounce, Action: string(chemin.MsgBankWins), Value: "3 7"}
	h := seatmsg.ReplayHand{Hand: coup, Frames: []seatmsg.ReplayFrame{
		frame(poker.Record{Kind: poker.KindHandStart, Seat: 4, Amount: 19000}, 19000, nil, nil, nil, nil, 61500),
		frame(bankRec, 19000, nil, nil, nil, say(bankRec), 61500),
		frame(poker.Record{Kind: chemin.KindBet, Seat: 2, Player: "Bruno", Action: "banco", Amount: 19000}, 19000, stake, nil, nil, nil, 42500),
		frame(poker.Record{Kind: poker.KindDeal, Seat: 2, Player: "Bruno"}, 19000, stake, nil, nil, nil, 42500),
		frame(poker.Record{Kind: poker.KindBoard, Seat: 2, Player: "Bruno", Cards: hand("9H")}, 19000, stake, hand("9H"), nil, nil, 42500),
		frame(poker.Record{Kind: poker.KindShow, Seat: 2, Player: "Bruno", Cards: hand("KD", "4C", "9H"), Value: "3"}, 19000, stake, hand("KD", "4C", "9H"), hand("7S", "QH"), nil, 42500),
		frame(winRec, 19000, stake, hand("KD", "4C", "9H"), hand("7S", "QH"), say(winRec), 42500),
		frame(poker.Record{Kind: poker.KindAward, Action: "banker", Amount: 38000, Rake: 950, Shares: []poker.Share{{Seat: 4, Amount: 37050}}}, 37050, nil,
			hand("KD", "4C", "9H"), hand("7S", "QH"), nil, 42500),
		frame(poker.Record{Kind: poker.KindHandEnd}, 37050, nil, hand("KD", "4C", "9H"), hand("7S", "QH"), nil, 42500),
	}}
	v.State.Chemin.Choices, v.State.ToAct = []seatmsg.ChoiceMsg{}, 0
	v.Replay, v.ReplaySeq = &seatmsg.ReplayMsg{Type: "replay", Hands: []seatmsg.ReplayHand{h}}, 1
	return v
}
