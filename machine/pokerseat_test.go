package machine

import (
	"slices"
	"testing"

	"github.com/openegm/cabinet/meters"
	"github.com/openegm/cabinet/poker"
	"github.com/openegm/cabinet/poker/seatmsg"
)

func pokerCfg() Config {
	c := testCfg
	c.PokerTables = true
	return c
}

var pokerTablesList = []seatmsg.TableInfo{{ID: "holdem-nl-2", Game: "holdem", Seats: 6, RequiredCave: 4000}, {ID: "sintetico-3", Game: "synthetic"}}

// seated is a powered-up poker cabinet with 10000 cents of credit and the
// server's tables.
func seatedHarness(t *testing.T) *harness {
	h := newHarness(t, pokerCfg(), nil, 1)
	h.power()
	h.bill(5000)
	h.bill(5000)
	h.step(PokerTables{At: h.now, Tables: pokerTablesList})
	return h
}

// asked is the PokerAsk among a step's devices.
func asked(t *testing.T, eff Effects) meters.PokerTransfer {
	t.Helper()
	for _, d := range eff.Devices {
		if a, ok := d.(PokerAsk); ok {
			return a.Transfer
		}
	}
	t.Fatalf("no PokerAsk in %+v", eff.Devices)
	return meters.PokerTransfer{}
}

func lastRecord(eff Effects) meters.Record {
	if len(eff.Records) == 0 {
		return nil
	}
	return eff.Records[len(eff.Records)-1]
}

// The whole seat: the menu offers it, a buy-in is recorded before it is
// asked, the answer seats the player and links the seat, decisions go to
// the table, other games and the cash-out wait, the leave brings back what
// the server paid.
func TestPokerSeatBuyInPlayLeave(t *testing.T) {
	h := seatedHarness(t)
	if v := h.m.View(); !slices.Contains(v.Games, GamePoker) || v.Poker == nil || len(v.Poker.Tables) != 2 || v.Poker.Status != "" {
		t.Fatalf("menu %v, seat %+v", v.Games, v.Poker)
	}
	if eff := h.step(SelectGame{At: h.now, Game: GamePoker}); eff.Refused != "" {
		t.Fatalf("select: %s", eff.Refused)
	}

	eff := h.step(PokerBuyIn{At: h.now, Table: "holdem-nl-2", Cents: 4000})
	tr := asked(t, eff)
	rec, ok := lastRecord(eff).(meters.PokerTransfer)
	if !ok || rec != tr || tr.Kind != meters.PokerBuyIn || tr.Cents != 4000 || tr.Seq != 1 || tr.Source != "EGM-0042" || tr.Player != "EGM-0042" {
		t.Fatalf("asked %+v, recorded %+v", tr, lastRecord(eff))
	}
	if v := h.m.View(); v.CreditsCents != 6000 || v.Poker.Status != "buying_in" || v.Poker.Transfer != tr.ID || v.Poker.Table != "holdem-nl-2" {
		t.Fatalf("while asking: credits %d, seat %+v", v.CreditsCents, v.Poker)
	}
	// Nothing else while it is open.
	if eff := h.step(PokerBuyIn{At: h.now, Table: "holdem-nl-2", Cents: 1000}); eff.Refused != "refused_poker_busy" || len(eff.Records) != 0 {
		t.Fatalf("a second buy-in while asking: %+v", eff)
	}
	// An answer for another ID, or another amount, records nothing.
	for _, a := range []PokerAnswer{{ID: "x:1:1", Done: true, Cents: 4000}, {ID: tr.ID, Done: true, Cents: 4001}} {
		a.At = h.now
		if eff := h.step(a); len(eff.Records) != 0 {
			t.Fatalf("answer %+v recorded %+v", a, eff.Records)
		}
	}
	eff = h.step(PokerAnswer{At: h.now, ID: tr.ID, Done: true, Cents: 4000})
	if _, ok := lastRecord(eff).(meters.PokerDone); !ok || !slices.Contains(eff.Devices, Device(PokerSeatLink{Table: "holdem-nl-2", BuyIn: tr.ID})) {
		t.Fatalf("the answer: records %+v devices %+v", eff.Records, eff.Devices)
	}
	if v := h.m.View(); v.Poker.Status != "seated" || v.Poker.AtTable != 4000 || v.CreditsCents != 6000 {
		t.Fatalf("seated: %+v", v.Poker)
	}

	// The table's state is shown, not recorded; another table's is not.
	st := seatmsg.StateMsg{Type: "state", Table: seatmsg.TableInfo{ID: "holdem-nl-2"}, Hand: 3, Options: &seatmsg.OptionsMsg{Call: 100}}
	if eff := h.step(PokerSeatState{At: h.now, State: st}); len(eff.Records) != 0 {
		t.Fatal("a table state recorded")
	}
	h.step(PokerSeatState{At: h.now, State: seatmsg.StateMsg{Table: seatmsg.TableInfo{ID: "other"}, Hand: 99}})
	if v := h.m.View(); v.Poker.State == nil || v.Poker.State.Hand != 3 {
		t.Fatalf("state %+v", v.Poker.State)
	}
	// Decisions go to the seat.
	for _, c := range []struct {
		act  PokerAct
		want seatmsg.ClientMsg
	}{
		{PokerAct{Kind: "call"}, seatmsg.ClientMsg{Type: "act", Kind: "call"}},
		{PokerAct{Kind: "raise", To: 600}, seatmsg.ClientMsg{Type: "act", Kind: "raise", To: 600}},
		{PokerAct{Kind: "rest", On: true}, seatmsg.ClientMsg{Type: "rest", On: true}},
		{PokerAct{Kind: "replay"}, seatmsg.ClientMsg{Type: "replay"}},
	} {
		c.act.At = h.now
		eff := h.step(c.act)
		if eff.Refused != "" || len(eff.Records) != 0 || !slices.Contains(eff.Devices, Device(PokerSend{Msg: c.want})) {
			t.Fatalf("%+v: %+v", c.act, eff)
		}
	}
	for _, bad := range []PokerAct{{Kind: "steal"}, {Kind: "raise"}, {Kind: "leave"}} {
		if eff := h.step(bad); eff.Refused != "refused_poker_act" {
			t.Fatalf("%+v: %+v", bad, eff)
		}
	}

	// At the table: no other game, no spin, no cash-out, no second table.
	if eff := h.step(SelectGame{At: h.now, Game: meters.GameReels}); eff.Refused != "refused_poker_seated" {
		t.Fatalf("another game: %q", eff.Refused)
	}
	h.m.game = meters.GameReels // as if the screen had it: the machine still refuses
	if eff := h.press(BtnSpin); eff.Refused != "refused_poker_seated" || len(eff.Records) != 0 {
		t.Fatalf("spin at a table: %+v", eff)
	}
	h.m.game = GamePoker
	if eff := h.press(BtnCashOut); eff.Refused != "refused_poker_seated" || len(eff.Records) != 0 {
		t.Fatalf("cash-out at a table: %+v", eff)
	}
	if eff := h.step(PokerBuyIn{At: h.now, Table: "sintetico-3", Cents: 1000}); eff.Refused != "refused_poker_seated" {
		t.Fatalf("a second table: %+v", eff)
	}
	if c := h.m.AFTConditions(); !c.GameInProgress {
		t.Fatal("the AFT host is told the machine is free while the player is at a table")
	}

	// A re-buy at the same table.
	re := asked(t, h.step(PokerBuyIn{At: h.now, Table: "holdem-nl-2", Cents: 2000}))
	if re.Kind != meters.PokerRebuy || re.Seq != 2 {
		t.Fatalf("re-buy %+v", re)
	}
	h.step(PokerAnswer{At: h.now, ID: re.ID, Done: true, Cents: 2000})

	// Leave: asked under the seat's cash-out ID; the server's amount back.
	out := asked(t, h.step(PokerLeave{At: h.now}))
	if out.Kind != meters.PokerCashOut || out.ID != "out:"+tr.ID {
		t.Fatalf("cash-out %+v", out)
	}
	if v := h.m.View(); v.Poker.Status != "cashing_out" {
		t.Fatalf("leaving: %+v", v.Poker)
	}
	eff = h.step(PokerAnswer{At: h.now, ID: out.ID, Done: true, Cents: 7350})
	if !slices.Contains(eff.Devices, Device(PokerSeatLink{})) {
		t.Fatalf("the seat is not dropped: %+v", eff.Devices)
	}
	// The same answer again (repeated, or forged) records nothing.
	if eff := h.step(PokerAnswer{At: h.now, ID: out.ID, Done: true, Cents: 7350}); len(eff.Records) != 0 {
		t.Fatalf("a second completion recorded %+v", eff.Records)
	}
	v := h.m.View()
	if v.CreditsCents != 4000+7350 || v.Poker.Status != "" || v.Poker.State != nil || h.ledger.Get(meters.PokerToTables) != 6000 || h.ledger.Get(meters.PokerFromTables) != 7350 {
		t.Fatalf("after leaving: credits %d, seat %+v, to %d from %d", v.CreditsCents, v.Poker, h.ledger.Get(meters.PokerToTables), h.ledger.Get(meters.PokerFromTables))
	}
	if eff := h.press(BtnCashOut); eff.Refused != "" || len(eff.Records) == 0 {
		t.Fatalf("the cash-out after leaving: %+v", eff)
	}
}

// A refused buy-in gives the credits back and says why; a refused
// cash-out leaves the seat as it was and the next leave is asked anew.
func TestPokerSeatRefusals(t *testing.T) {
	h := seatedHarness(t)
	tr := asked(t, h.step(PokerBuyIn{At: h.now, Table: "holdem-nl-2", Cents: 4000}))
	h.step(PokerAnswer{At: h.now, ID: tr.ID, Why: "table full"})
	if v := h.m.View(); v.CreditsCents != 10000 || v.Poker.Status != "refused" || v.Poker.Refused != "table full" || v.Message.Key != "msg_poker_buyin_refused" {
		t.Fatalf("after the refusal: credits %d, seat %+v, message %+v", v.CreditsCents, v.Poker, v.Message)
	}
	tr = asked(t, h.step(PokerBuyIn{At: h.now, Table: "sintetico-3", Cents: 4000}))
	h.step(PokerAnswer{At: h.now, ID: tr.ID, Done: true, Cents: 4000})
	out := asked(t, h.step(PokerLeave{At: h.now}))
	h.step(PokerAnswer{At: h.now, ID: out.ID, Why: "rule 61: the chief of the game authorises"})
	if v := h.m.View(); v.Poker.Status != "seated" || v.Poker.Refused == "" || v.CreditsCents != 6000 {
		t.Fatalf("after a refused cash-out: %+v", v.Poker)
	}
	out2 := asked(t, h.step(PokerLeave{At: h.now, AuthorizedBy: "chefe-1"}))
	if out2.ID == out.ID || out2.AuthorizedBy != "chefe-1" {
		t.Fatalf("the second cash-out %+v after %+v", out2, out)
	}
	h.step(PokerAnswer{At: h.now, ID: out2.ID, Done: true, Cents: 0})
	if v := h.m.View(); v.Poker.Status != "" || v.CreditsCents != 6000 {
		t.Fatalf("after losing it all: %+v", v.Poker)
	}
}

// What the machine refuses before anything is recorded.
func TestPokerSeatRefusesUpFront(t *testing.T) {
	h := newHarness(t, testCfg, nil, 1) // no table server
	h.power()
	h.bill(5000)
	if v := h.m.View(); slices.Contains(v.Games, GamePoker) || v.Poker != nil {
		t.Fatalf("a cabinet without a table server offers %v %+v", v.Games, v.Poker)
	}
	if eff := h.step(PokerBuyIn{At: h.now, Table: "t", Cents: 100}); eff.Refused != "refused_game_not_offered" {
		t.Fatalf("%+v", eff)
	}

	h = seatedHarness(t)
	for _, c := range []struct {
		ev   Event
		want string
	}{
		{PokerBuyIn{Table: "nowhere", Cents: 100}, "refused_poker_table"},
		{PokerBuyIn{Table: "holdem-nl-2", Cents: 10001}, "refused_insufficient_credit"},
		{PokerBuyIn{Table: "holdem-nl-2", Cents: 0}, "refused_insufficient_credit"},
		{PokerAct{Kind: "call"}, "refused_poker_not_seated"},
		{PokerLeave{}, "refused_poker_not_seated"},
	} {
		if eff := h.step(c.ev); eff.Refused != c.want || len(eff.Records) != 0 || len(eff.Devices) > 1 {
			t.Errorf("%T %+v: %+v, want %s", c.ev, c.ev, eff, c.want)
		}
	}
	h.step(Door{At: h.now, Door: meters.DoorMain, Open: true})
	if eff := h.step(PokerBuyIn{At: h.now, Table: "holdem-nl-2", Cents: 100}); eff.Refused != "refused_door_open" {
		t.Fatalf("a buy-in with the door open: %+v", eff)
	}
	h.step(Door{At: h.now, Door: meters.DoorMain, Open: false})
	h.step(AFTLock{At: h.now, Locked: true})
	if eff := h.step(PokerBuyIn{At: h.now, Table: "holdem-nl-2", Cents: 100}); eff.Refused != "refused_aft_locked" {
		t.Fatalf("a buy-in under the AFT lock: %+v", eff)
	}
}

// A power loss at each step: the machine drives the edge from what the
// ledger holds, and the transfer IDs never repeat (they survive a RAM
// clear and are the machine's, time and number).
func TestPokerSeatResumesFromTheLedger(t *testing.T) {
	h := seatedHarness(t)
	tr := asked(t, h.step(PokerBuyIn{At: h.now, Table: "holdem-nl-2", Cents: 4000}))

	// Power lost with the buy-in asked: asked again, same transfer.
	h2 := newHarness(t, pokerCfg(), h.ledger, 2)
	eff := h2.step(PowerUp{At: h.now})
	if again := asked(t, eff); again != tr {
		t.Fatalf("asked again %+v, first %+v", again, tr)
	}
	if v := h2.m.View(); v.GameKind != GamePoker || v.Poker.Status != "buying_in" || v.CreditsCents != 6000 {
		t.Fatalf("after the power loss: %+v", v.Poker)
	}
	h2.step(PokerAnswer{At: h2.now, ID: tr.ID, Done: true, Cents: 4000})

	// Seated: the seat is linked again.
	h3 := newHarness(t, pokerCfg(), h2.ledger, 3)
	eff = h3.step(PowerUp{At: h.now})
	if !slices.Contains(eff.Devices, Device(PokerSeatLink{Table: "holdem-nl-2", BuyIn: tr.ID})) {
		t.Fatalf("the seat is not linked at power-up: %+v", eff.Devices)
	}
	for _, d := range eff.Devices {
		if _, ok := d.(PokerAsk); ok {
			t.Fatalf("a transfer asked with none open: %+v", d)
		}
	}
	// A cash-out paid by the server on a leave this machine did not ask
	// (the seat's ID): recorded as asked and paid.
	eff = h3.step(PokerAnswer{At: h3.now, ID: "out:" + tr.ID, Done: true, Cents: 3900})
	if len(eff.Records) != 2 || h3.ledger.Get(meters.Credits) != 9900 {
		t.Fatalf("the server's own cash-out: %+v, credits %d", eff.Records, h3.ledger.Get(meters.Credits))
	}
	// And after a RAM clear the next ID is still new.
	h3.press(BtnCashOut)
	for h3.ledger.PendingTicket != nil {
		h3.step(TicketPrinted{At: h3.now, Validation: h3.ledger.PendingTicket.Ticket})
	}
	if err := h3.ledger.Apply(meters.RAMClear{At: 1, Who: "tech", Why: "test"}); err != nil {
		t.Fatal(err)
	}
	h4 := newHarness(t, pokerCfg(), h3.ledger, 4)
	h4.power()
	h4.bill(5000)
	h4.step(PokerTables{At: h4.now, Tables: pokerTablesList})
	next := asked(t, h4.step(PokerBuyIn{At: h4.now, Table: "holdem-nl-2", Cents: 4000}))
	if next.Seq != 2 || next.ID == tr.ID {
		t.Fatalf("after a RAM clear: %+v (first %s)", next, tr.ID)
	}
}

// With every credit at a table the credit meter reads 0, but the player's
// money is not off the machine's books: a RAM clear and test mode wait
// for him to leave, refused with the reason (the ledger would refuse
// them, and a record the ledger refuses is a meter fault).
func TestPokerSeatKeepsTheServiceMenuFromTheMoney(t *testing.T) {
	cfg := pokerCfg()
	cfg.Load = svcCfg().Load
	h := newHarness(t, cfg, nil, 5)
	h.power()
	h.bill(5000)
	h.step(PokerTables{At: h.now, Tables: pokerTablesList})
	tr := asked(t, h.step(PokerBuyIn{At: h.now, Table: "holdem-nl-2", Cents: 5000}))
	h.step(PokerAnswer{At: h.now, ID: tr.ID, Done: true, Cents: 5000})
	login(h, RoleTechnician)
	for _, a := range [][2]string{{SvcRAMClear, ""}, {SvcTestEnter, ""}, {SvcConfig, "denom"}} {
		eff := h.svc(a[0], a[1], "2")
		if eff.Refused != "refused_poker_seated" || len(eff.Records) > 1 {
			t.Fatalf("%s at a table: %+v", a[0], eff)
		}
	}
	if v := h.m.View(); v.Fault != "" || v.Mode == "meter_fault" {
		t.Fatalf("the machine faulted: %s", v.Fault)
	}
}

// toServer says whether a step sends the seat's server anything.
func toServer(eff Effects) bool {
	return slices.ContainsFunc(eff.Devices, func(d Device) bool {
		switch d.(type) {
		case PokerAsk, PokerSend, PokerSeatLink:
			return true
		}
		return false
	})
}

// sitDown seats the player at holdem-nl-2 with 4000 cents; the buy-in's
// transfer.
func sitDown(t *testing.T, h *harness) meters.PokerTransfer {
	t.Helper()
	tr := asked(t, h.step(PokerBuyIn{At: h.now, Table: "holdem-nl-2", Cents: 4000}))
	h.step(PokerAnswer{At: h.now, ID: tr.ID, Done: true, Cents: 4000})
	if v := h.m.View(); v.Poker.Status != "seated" {
		t.Fatalf("not seated: %+v", v.Poker)
	}
	return tr
}

// The replay the player asked is shown as the server sent it, its own
// table's only, until he closes it or leaves; it is never recorded and
// moves nothing.
func TestPokerSeatReplayShown(t *testing.T) {
	h := seatedHarness(t)
	sitDown(t, h)
	before := h.m.View()
	rp := seatmsg.ReplayMsg{Type: "replay", Hands: []seatmsg.ReplayHand{{Hand: 7, Frames: []seatmsg.ReplayFrame{{Pot: 150}, {Pot: 300}}}}}
	if eff := h.step(PokerSeatReplay{At: h.now, Table: "other", Replay: rp}); len(eff.Records) != 0 || h.m.View().Poker.Replay != nil {
		t.Fatalf("another table's replay: %+v, view %+v", eff, h.m.View().Poker.Replay)
	}
	for i := range 2 {
		eff := h.step(PokerSeatReplay{At: h.now, Table: "holdem-nl-2", Replay: rp})
		v := h.m.View()
		if len(eff.Records) != 0 || toServer(eff) || v.Poker.Replay == nil || len(v.Poker.Replay.Hands[0].Frames) != 2 || v.Poker.ReplaySeq != uint64(i+1) {
			t.Fatalf("replay %d: effects %+v, seat %+v", i, eff, v.Poker)
		}
		if v.CreditsCents != before.CreditsCents || v.Poker.AtTable != before.Poker.AtTable {
			t.Fatalf("a replay changed money: credits %d at table %d", v.CreditsCents, v.Poker.AtTable)
		}
	}
	eff := h.step(PokerAct{At: h.now, Kind: "close_replay"})
	if eff.Refused != "" || toServer(eff) || len(eff.Records) != 0 || h.m.View().Poker.Replay != nil {
		t.Fatalf("close: %+v, replay %+v", eff, h.m.View().Poker.Replay)
	}
	// A replay up when he leaves goes with the table.
	h.step(PokerSeatReplay{At: h.now, Table: "holdem-nl-2", Replay: rp})
	out := asked(t, h.step(PokerLeave{At: h.now}))
	h.step(PokerAnswer{At: h.now, ID: out.ID, Done: true, Cents: 4000})
	if v := h.m.View(); v.Poker.Replay != nil {
		t.Fatalf("the replay stays after leaving: %+v", v.Poker.Replay)
	}
	sitDown(t, h)
	if v := h.m.View(); v.Poker.Replay != nil {
		t.Fatalf("the last session's replay at the next: %+v", v.Poker.Replay)
	}
}

// The session's summary after a leave: the server's totals whether its
// word comes before the cash-out's answer or after it, the last totals
// seen with the cash-out meanwhile; shown until closed or a new buy-in.
func TestPokerSeatSessionEnd(t *testing.T) {
	totals := poker.Totals{BoughtIn: 4000, Fees: 200, Wagered: 900, Won: 1300, Hands: 5, CashedOut: 4150}
	for _, leftFirst := range []bool{true, false} {
		h := seatedHarness(t)
		sitDown(t, h)
		st := seatmsg.StateMsg{Type: "state", Table: seatmsg.TableInfo{ID: "holdem-nl-2"}, Hand: 4,
			You: &seatmsg.YouMsg{Seat: 2, Stack: 4150, Totals: poker.Totals{BoughtIn: 4000, Fees: 200, Wagered: 800, Won: 1150, Hands: 4}}}
		h.step(PokerSeatState{At: h.now, State: st})
		out := asked(t, h.step(PokerLeave{At: h.now}))
		left := PokerSeatLeft{At: h.now, Table: "holdem-nl-2", Left: seatmsg.LeftMsg{Type: "left", Amount: 4150, Totals: totals}}
		if leftFirst {
			if eff := h.step(left); len(eff.Records) != 0 {
				t.Fatalf("the server's word recorded: %+v", eff.Records)
			}
			if v := h.m.View(); v.Poker.Status != "cashing_out" || v.CreditsCents != 6000 {
				t.Fatalf("the word alone moved the seat or the credit: credits %d seat %+v", v.CreditsCents, v.Poker)
			}
		}
		h.step(PokerAnswer{At: h.now, ID: out.ID, Done: true, Cents: 4150})
		v := h.m.View()
		want := PokerSessionEnd{Table: "holdem-nl-2", Transfer: out.ID, Amount: 4150, Totals: totals, Server: true}
		if !leftFirst {
			// The last totals seen, with the cash-out: one hand behind.
			want.Totals, want.Server = st.You.Totals, false
			want.Totals.CashedOut = 4150
			if v.Poker.Ended == nil || *v.Poker.Ended != want {
				t.Fatalf("before the server's word: %+v, want %+v", v.Poker.Ended, want)
			}
			h.step(left)
			v = h.m.View()
			want.Totals, want.Server = totals, true
		}
		if v.Poker.Ended == nil || *v.Poker.Ended != want || v.CreditsCents != 6000+4150 {
			t.Fatalf("left first %v: ended %+v, want %+v; credits %d", leftFirst, v.Poker.Ended, want, v.CreditsCents)
		}
		// Another "left" (repeated) changes nothing now.
		h.step(PokerSeatLeft{At: h.now, Table: "holdem-nl-2", Left: seatmsg.LeftMsg{Amount: 1, Totals: poker.Totals{Hands: 99}}})
		if e := h.m.View().Poker.Ended; *e != want {
			t.Fatalf("a second word changed the summary: %+v", e)
		}
		if leftFirst {
			if eff := h.step(PokerAct{At: h.now, Kind: "close_ended"}); eff.Refused != "" || toServer(eff) || h.m.View().Poker.Ended != nil {
				t.Fatalf("close: %+v, ended %+v", eff, h.m.View().Poker.Ended)
			}
		} else {
			sitDown(t, h)
			if e := h.m.View().Poker.Ended; e != nil {
				t.Fatalf("the last session's summary at the next: %+v", e)
			}
		}
	}
}
