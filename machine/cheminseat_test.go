package machine

import (
	"slices"
	"testing"

	"github.com/openegm/cabinet/meters"
	"github.com/openegm/cabinet/poker/seatmsg"
)

// cheminHarness is a powered-up cabinet with 10000 cents of credit whose
// table server runs a chemin de fer table beside a poker one.
func cheminHarness(t *testing.T) *harness {
	h := newHarness(t, pokerCfg(), nil, 1)
	h.power()
	h.bill(5000)
	h.bill(5000)
	h.step(PokerTables{At: h.now, Tables: []seatmsg.TableInfo{
		{ID: "chemin-6d", Game: "chemin_de_fer", Seats: 12, MinPlayers: 4, RequiredCave: 1000},
		{ID: "holdem-nl-2", Game: "holdem", Seats: 6, RequiredCave: 4000},
	}})
	return h
}

// cheminSeat buys into the chemin table with cents and has the server's
// answer: the player seated there.
func cheminSeat(t *testing.T, h *harness, cents int64) meters.PokerTransfer {
	t.Helper()
	tr := asked(t, h.step(PokerBuyIn{At: h.now, Table: "chemin-6d", Cents: cents}))
	h.step(PokerAnswer{At: h.now, ID: tr.ID, Done: true, Cents: cents})
	if v := h.m.View(); v.Poker.Status != "seated" || v.Poker.Table != "chemin-6d" || v.Poker.AtTable != cents {
		t.Fatalf("seated at chemin: %+v", v.Poker)
	}
	return tr
}

// sent are the requests a step sends on the seat's WebSocket.
func sent(eff Effects) []seatmsg.ClientMsg {
	var out []seatmsg.ClientMsg
	for _, d := range eff.Devices {
		if s, ok := d.(PokerSend); ok {
			out = append(out, s.Msg)
		}
	}
	return out
}

// A seat at a chemin de fer table moves money through the poker seat's
// own transfers (a buy-in of any amount the player chooses: the table
// asks a least, the server checks it; a cash-out of the whole stack), each
// recorded once on the meters the poker seat keeps; its state is shown
// with the chemin part, never recorded.
func TestCheminSeatBuyInStateLeave(t *testing.T) {
	h := cheminHarness(t)
	tr := cheminSeat(t, h, 7500)
	if tr.Kind != meters.PokerBuyIn || tr.Table != "chemin-6d" || h.ledger.Get(meters.PokerToTables) != 7500 {
		t.Fatalf("buy-in %+v; to tables %d", tr, h.ledger.Get(meters.PokerToTables))
	}
	st := seatmsg.StateMsg{Type: "state", Table: seatmsg.TableInfo{ID: "chemin-6d", Game: "chemin_de_fer"}, Hand: 4, ToAct: 2,
		Chemin: &seatmsg.CheminMsg{Phase: "banco_round", Banker: 1, Bank: 20000, Choices: []seatmsg.ChoiceMsg{{Kind: "banco"}, {Kind: "bet", Min: 1000, Max: 7500, Step: 100}}}}
	if eff := h.step(PokerSeatState{At: h.now, State: st}); len(eff.Records) != 0 {
		t.Fatalf("a chemin state recorded: %+v", eff.Records)
	}
	if v := h.m.View(); v.Poker.State == nil || v.Poker.State.Chemin == nil || v.Poker.State.Chemin.Bank != 20000 || len(v.Poker.State.Chemin.Choices) != 2 {
		t.Fatalf("the chemin state in the view: %+v", v.Poker.State)
	}
	out := asked(t, h.step(PokerLeave{At: h.now}))
	if out.Kind != meters.PokerCashOut || out.ID != meters.PokerCashOutID(tr.ID, 1) || out.Table != "chemin-6d" {
		t.Fatalf("the cash-out %+v", out)
	}
	h.step(PokerAnswer{At: h.now, ID: out.ID, Done: true, Cents: 9400})
	// The answer again (a retried request) moves nothing.
	if eff := h.step(PokerAnswer{At: h.now, ID: out.ID, Done: true, Cents: 9400}); len(eff.Records) != 0 {
		t.Fatalf("a second answer recorded %+v", eff.Records)
	}
	v := h.m.View()
	if v.CreditsCents != 10000-7500+9400 || v.Poker.Status != "" || h.ledger.Get(meters.PokerFromTables) != 9400 || v.Poker.Ended == nil || v.Poker.Ended.Table != "chemin-6d" {
		t.Fatalf("after leaving chemin: credits %d, seat %+v, from tables %d", v.CreditsCents, v.Poker, h.ledger.Get(meters.PokerFromTables))
	}
}

// Every decision the chemin protocol offers a seat goes to it as the
// browser's would ({"type":"act","kind":K,"to":N}); an amount is sent
// only with the kinds that take one and is required where the rule has
// no default; poker's kinds are refused at a chemin table and chemin's at
// a poker table, nothing recorded or sent.
func TestCheminSeatRelaysEveryDecision(t *testing.T) {
	h := cheminHarness(t)
	cheminSeat(t, h, 6000)
	act := func(kind string, to int64) seatmsg.ClientMsg {
		return seatmsg.ClientMsg{Type: "act", Kind: kind, To: to}
	}
	for _, c := range []struct {
		ev   PokerAct
		want seatmsg.ClientMsg
	}{
		{PokerAct{Kind: "bank", To: 20000}, act("bank", 20000)},
		{PokerAct{Kind: "bank_associated", To: 20000}, act("bank_associated", 20000)},
		{PokerAct{Kind: "refuse"}, act("refuse", 0)},
		{PokerAct{Kind: "associate"}, act("associate", 0)},
		{PokerAct{Kind: "banco", To: 999}, act("banco", 0)}, // a stray amount is not sent: the bancô is the bank
		{PokerAct{Kind: "banco_suivi"}, act("banco_suivi", 0)},
		{PokerAct{Kind: "banco_mesa"}, act("banco_mesa", 0)},
		{PokerAct{Kind: "banco_mesa", To: 12000}, act("banco_mesa", 12000)},
		{PokerAct{Kind: "bet", To: 1500}, act("bet", 1500)},
		{PokerAct{Kind: "no_bet"}, act("no_bet", 0)},
		{PokerAct{Kind: "play_cards", To: 5}, act("play_cards", 0)}, // rule 101: no amount
		{PokerAct{Kind: "pass_cards"}, act("pass_cards", 0)},
		{PokerAct{Kind: "draw"}, act("draw", 0)},
		{PokerAct{Kind: "stand"}, act("stand", 0)},
		{PokerAct{Kind: "continue"}, act("continue", 0)},
		{PokerAct{Kind: "garage"}, act("garage", 0)},
		{PokerAct{Kind: "reduce"}, act("reduce", 0)},
		{PokerAct{Kind: "halve"}, act("halve", 0)},
		{PokerAct{Kind: "pass"}, act("pass", 0)},
		{PokerAct{Kind: "take"}, act("take", 0)},
		{PokerAct{Kind: "decline"}, act("decline", 0)},
		{PokerAct{Kind: "bid", To: 11000}, act("bid", 11000)},
		{PokerAct{Kind: "bid_associated", To: 12000}, act("bid_associated", 12000)},
		{PokerAct{Kind: "join_bid", To: 3}, act("join_bid", 3)},
		{PokerAct{Kind: "no_bid"}, act("no_bid", 0)},
		{PokerAct{Kind: "cagnotte_outside"}, act("cagnotte_outside", 0)},
		{PokerAct{Kind: "rest", On: true}, seatmsg.ClientMsg{Type: "rest", On: true}},
		{PokerAct{Kind: "replay"}, seatmsg.ClientMsg{Type: "replay"}},
	} {
		c.ev.At = h.now
		eff := h.step(c.ev)
		if eff.Refused != "" || len(eff.Records) != 0 || !slices.Equal(sent(eff), []seatmsg.ClientMsg{c.want}) {
			t.Errorf("%+v: refused %q, records %d, devices %+v; want %+v", c.ev, eff.Refused, len(eff.Records), eff.Devices, c.want)
		}
	}
	for _, bad := range []PokerAct{{Kind: "bank"}, {Kind: "bet"}, {Kind: "bid", To: -5}, {Kind: "join_bid"}, {Kind: "banco_mesa", To: -1},
		{Kind: "fold"}, {Kind: "call"}, {Kind: "raise", To: 500}, {Kind: "extra"}, {Kind: "estardilho"}} {
		bad.At = h.now
		if eff := h.step(bad); eff.Refused != "refused_poker_act" || len(eff.Records) != 0 || len(sent(eff)) != 0 {
			t.Errorf("%+v at chemin: %+v", bad, eff)
		}
	}

	// At a poker table the chemin kinds are refused, poker's go.
	h = cheminHarness(t)
	tr := asked(t, h.step(PokerBuyIn{At: h.now, Table: "holdem-nl-2", Cents: 4000}))
	h.step(PokerAnswer{At: h.now, ID: tr.ID, Done: true, Cents: 4000})
	for _, bad := range []PokerAct{{Kind: "banco"}, {Kind: "bet", To: 1000}, {Kind: "draw"}} {
		bad.At = h.now
		if eff := h.step(bad); eff.Refused != "refused_poker_act" || len(sent(eff)) != 0 {
			t.Errorf("%+v at hold'em: %+v", bad, eff)
		}
	}
	if eff := h.step(PokerAct{At: h.now, Kind: "call"}); !slices.Equal(sent(eff), []seatmsg.ClientMsg{act("call", 0)}) {
		t.Errorf("call at hold'em: %+v", eff)
	}
}

// The table's game is the state's when the server's list no longer has
// the table (read again without it, or not yet read after a power loss):
// the seat keeps playing chemin de fer.
func TestCheminSeatGameFromTheState(t *testing.T) {
	h := cheminHarness(t)
	cheminSeat(t, h, 5000)
	h.step(PokerTables{At: h.now})
	if eff := h.step(PokerAct{At: h.now, Kind: "draw"}); eff.Refused != "refused_poker_act" {
		t.Fatalf("draw with neither list nor state naming the game: %+v", eff)
	}
	h.step(PokerSeatState{At: h.now, State: seatmsg.StateMsg{Table: seatmsg.TableInfo{ID: "chemin-6d", Game: "chemin_de_fer"}, Chemin: &seatmsg.CheminMsg{Phase: "ponto"}}})
	if eff := h.step(PokerAct{At: h.now, Kind: "draw"}); !slices.Equal(sent(eff), []seatmsg.ClientMsg{{Type: "act", Kind: "draw"}}) {
		t.Fatalf("draw with the state's game: %+v", eff)
	}
}
