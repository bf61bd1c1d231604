package meters

import (
	"reflect"
	"strings"
	"testing"

	"github.com/openegm/cabinet/rng"
)

const pokerSrc, pokerPlayer, pokerTable = "EGM-1", "EGM-1", "holdem-nl-2"

func pokerReq(kind string, seq uint64, cents int64) PokerTransfer {
	return PokerTransfer{At: 10, ID: PokerTransferID("EGM-1", 10, seq), Seq: seq, Kind: kind, Table: pokerTable,
		Source: pokerSrc, Player: pokerPlayer, Cents: cents}
}

func pokerOut(buyIn string, n int) PokerTransfer {
	return PokerTransfer{At: 20, ID: PokerCashOutID(buyIn, n), Kind: PokerCashOut, Table: pokerTable, Source: pokerSrc, Player: pokerPlayer}
}

// equation checks the credit equation term by term at a step: the fold's
// own Check, and the figures the test expects.
func equation(t *testing.T, s *State, step string, credits, toTables, fromTables, transit int64) {
	t.Helper()
	if err := s.Check(); err != nil {
		t.Fatalf("%s: %v", step, err)
	}
	if s.Get(Credits) != credits || s.Get(PokerToTables) != toTables || s.Get(PokerFromTables) != fromTables || s.PokerInTransit() != transit {
		t.Fatalf("%s: credits %d, to tables %d, from tables %d, in transit %d; want %d, %d, %d, %d", step,
			s.Get(Credits), s.Get(PokerToTables), s.Get(PokerFromTables), s.PokerInTransit(), credits, toTables, fromTables, transit)
	}
	if in, out := s.MoneyInTotal(), s.MoneyOutTotal(); s.Get(Credits) != in+s.Get(CoinOut)-s.Get(CoinIn)-out {
		t.Fatalf("%s: credits %d ≠ in %d + wins %d − bets %d − out %d", step, s.Get(Credits), in, s.Get(CoinOut), s.Get(CoinIn), out)
	}
}

// A buy-in, a re-buy and a cash-out that pays back more than went in:
// the credit equation holds at every step, each step moves what it says.
func TestPokerSeatMovesEachCentOnce(t *testing.T) {
	s := NewState()
	mustApply(t, s, MoneyIn{At: 1, Source: SourceBill, Cents: 10000})
	equation(t, s, "bills in", 10000, 0, 0, 0)

	buy := pokerReq(PokerBuyIn, 1, 4000)
	mustApply(t, s, buy)
	equation(t, s, "buy-in asked", 6000, 0, 0, 4000)
	if s.Poker.Table != "" || s.Poker.Open == nil {
		t.Fatalf("seated before the server answered: %+v", s.Poker)
	}
	mustApply(t, s, PokerDone{At: 11, ID: buy.ID, Cents: 4000})
	equation(t, s, "buy-in done", 6000, 4000, 0, 0)
	if s.Poker.Table != pokerTable || s.Poker.BuyIn != buy.ID || s.Poker.AtTable != 4000 {
		t.Fatalf("after the buy-in: %+v", s.Poker)
	}

	re := pokerReq(PokerRebuy, 2, 2000)
	mustApply(t, s, re)
	equation(t, s, "re-buy asked", 4000, 4000, 0, 2000)
	mustApply(t, s, PokerDone{At: 12, ID: re.ID, Cents: 2000})
	equation(t, s, "re-buy done", 4000, 6000, 0, 0)

	out := pokerOut(buy.ID, 1)
	mustApply(t, s, out)
	equation(t, s, "cash-out asked", 4000, 6000, 0, 0)
	mustApply(t, s, PokerDone{At: 21, ID: out.ID, Cents: 9150})
	equation(t, s, "cash-out paid", 13150, 6000, 9150, 0)
	if s.Poker.Busy() != "" || s.Poker.Seq != 2 {
		t.Fatalf("after leaving: %+v", s.Poker)
	}
	// A cash-out of nothing (he lost it all) ends the seat too.
	b2 := pokerReq(PokerBuyIn, 3, 4000)
	mustApply(t, s, b2, PokerDone{At: 30, ID: b2.ID, Cents: 4000}, pokerOut(b2.ID, 1), PokerDone{At: 31, ID: PokerCashOutID(b2.ID, 1)})
	equation(t, s, "lost it all", 9150, 10000, 9150, 0)
}

// A refused buy-in gives its cents back; a refused cash-out moves nothing
// and the next one is asked under the seat's next cash-out ID.
func TestPokerRefusals(t *testing.T) {
	s := NewState()
	mustApply(t, s, MoneyIn{At: 1, Source: SourceBill, Cents: 5000})
	buy := pokerReq(PokerBuyIn, 1, 5000)
	mustApply(t, s, buy, PokerRefused{At: 2, ID: buy.ID, Why: "table full"})
	equation(t, s, "buy-in refused", 5000, 0, 0, 0)
	if s.Poker.Refused == nil || s.Poker.Refused.Why != "table full" || s.Poker.Busy() != "" {
		t.Fatalf("after the refusal: %+v", s.Poker)
	}
	// The number is used: the next buy-in takes the next one.
	mustRefuse(t, s, buy, "numbered 1 after 1")
	b2 := pokerReq(PokerBuyIn, 2, 5000)
	mustApply(t, s, b2, PokerDone{At: 3, ID: b2.ID, Cents: 5000}, pokerOut(b2.ID, 1))
	mustApply(t, s, PokerRefused{At: 4, ID: PokerCashOutID(b2.ID, 1), Why: "no table"})
	equation(t, s, "cash-out refused", 0, 5000, 0, 0)
	if s.Poker.Table != pokerTable || s.Poker.AtTable != 5000 {
		t.Fatalf("a refused cash-out ended the seat: %+v", s.Poker)
	}
	mustRefuse(t, s, pokerOut(b2.ID, 1), "the seat's cash-out is out2:")
	mustApply(t, s, pokerOut(b2.ID, 2), PokerDone{At: 5, ID: PokerCashOutID(b2.ID, 2), Cents: 4800})
	equation(t, s, "second cash-out paid", 4800, 5000, 4800, 0)
}

// What the fold refuses, each with the state unchanged.
func TestPokerFoldRefuses(t *testing.T) {
	s := NewState()
	mustApply(t, s, MoneyIn{At: 1, Source: SourceBill, Cents: 5000})
	buy := pokerReq(PokerBuyIn, 1, 4000)

	// Fewer credits than asked.
	mustRefuse(t, s, pokerReq(PokerBuyIn, 1, 5001), "with 5000 cents of credit")
	// An answer for an ID never asked; a cash-out without a seat; a
	// re-buy without a seat; a number out of turn.
	mustRefuse(t, s, PokerDone{At: 2, ID: buy.ID, Cents: 4000}, "not the transfer asked")
	mustRefuse(t, s, PokerRefused{At: 2, ID: buy.ID, Why: "x"}, "not the transfer asked")
	mustRefuse(t, s, pokerOut(buy.ID, 1), "but the seat is")
	mustRefuse(t, s, pokerReq(PokerRebuy, 1, 1000), "but the seat is")
	mustRefuse(t, s, pokerReq(PokerBuyIn, 2, 1000), "numbered 2 after 0")

	mustApply(t, s, buy)
	// An answer for another ID while this one is open.
	mustRefuse(t, s, PokerDone{At: 3, ID: PokerCashOutID(buy.ID, 1), Cents: 4000}, "not the transfer asked")
	mustRefuse(t, s, PokerRefused{At: 3, ID: PokerTransferID("EGM-1", 10, 2), Why: "x"}, "not the transfer asked")
	// Another transfer while one is open; an answer of another amount.
	mustRefuse(t, s, pokerReq(PokerBuyIn, 2, 500), "is not answered")
	mustRefuse(t, s, PokerDone{At: 3, ID: buy.ID, Cents: 4001}, "4000 were asked")
	mustApply(t, s, PokerDone{At: 3, ID: buy.ID, Cents: 4000})
	// The attack: the same "done" again, forged or repeated, credits
	// nothing twice; nor does a refusal after it.
	mustRefuse(t, s, PokerDone{At: 4, ID: buy.ID, Cents: 4000}, "not the transfer asked")
	mustRefuse(t, s, PokerRefused{At: 4, ID: buy.ID, Why: "forged"}, "not the transfer asked")

	// Seated: a second buy-in, a game, the cabinet's cash-out, a
	// cancelled-credit handpay, an AFT-style transfer, a validation
	// request, test mode and a RAM clear all wait for the player to leave.
	mustRefuse(t, s, pokerReq(PokerBuyIn, 2, 500), "while seated")
	mustRefuse(t, s, GameStart{At: 5, Game: 1, Paytable: "p", Digest: "d", Denom: 1, BetCredits: 100, BetCents: 100, Stops: []int{1}}, "money at poker table")
	mustRefuse(t, s, CashOut{At: 5, Method: OutHopper, Cents: 1000}, "money at poker table")
	mustRefuse(t, s, HandpayPending{At: 5, Kind: HandpayCancelled, Cents: 1000}, "money at poker table")
	mustRefuse(t, s, ValidationRequest{At: 5, Cents: 1000}, "money at poker table")
	mustRefuse(t, s, TestMode{At: 5, Who: "tech", Enter: true, Credits: 100}, "")
	mustRefuse(t, s, RAMClear{At: 5, Who: "tech", Why: "x"}, "RAM clear")
	// A re-buy or cash-out for another table or player.
	other := pokerReq(PokerRebuy, 2, 500)
	other.Table = "sintetico-3"
	mustRefuse(t, s, other, "but the seat is")
	forged := pokerOut(buy.ID, 1)
	forged.Player = "someone"
	mustRefuse(t, s, forged, "but the seat is")
	mustRefuse(t, s, pokerOut("another-buy-in", 1), "the seat's cash-out is")

	out := pokerOut(buy.ID, 1)
	mustApply(t, s, out, PokerDone{At: 6, ID: out.ID, Cents: 3000})
	// A second completion of the cash-out, and an amount back for an ID
	// never asked: refused, the credits are what one payment made.
	mustRefuse(t, s, PokerDone{At: 7, ID: out.ID, Cents: 3000}, "not the transfer asked")
	mustRefuse(t, s, PokerDone{At: 7, ID: "out:EGM-1:zz:9", Cents: 50000}, "not the transfer asked")
	equation(t, s, "after the attack", 4000, 4000, 3000, 0)
}

// The idle checks of a game hold for a buy-in: a game in progress, a
// handpay, test mode, a ticket being printed or waiting for its number.
func TestPokerBuyInNeedsAnIdleMachine(t *testing.T) {
	cases := map[string]func(s *State){
		"game 1 is in progress": func(s *State) {
			mustApply(t, s, GameStart{At: 2, Game: 1, Paytable: "p", Digest: "d", Denom: 1, BetCredits: 100, BetCents: 100, Stops: []int{1}})
		},
		"handpay of": func(s *State) { mustApply(t, s, HandpayPending{At: 2, Kind: HandpayCancelled, Cents: 100}) },
		"not printed yet": func(s *State) {
			mustApply(t, s, CashOut{At: 2, Method: OutTicket, Cents: 100, Ticket: "1"})
		},
		"waits for its number": func(s *State) { mustApply(t, s, ValidationRequest{At: 2, Cents: 100}) },
		"test mode": func(s *State) {
			mustApply(t, s, CashOut{At: 2, Method: OutHopper, Cents: 5000}, TestMode{At: 3, Who: "tech", Enter: true, Credits: 9000})
		},
	}
	for want, setUp := range cases {
		s := NewState()
		mustApply(t, s, MoneyIn{At: 1, Source: SourceBill, Cents: 5000})
		setUp(s)
		mustRefuse(t, s, pokerReq(PokerBuyIn, 1, 100), want)
	}
	// And for a re-buy.
	s := NewState()
	mustApply(t, s, MoneyIn{At: 1, Source: SourceBill, Cents: 5000})
	buy := pokerReq(PokerBuyIn, 1, 1000)
	mustApply(t, s, buy, PokerDone{At: 2, ID: buy.ID, Cents: 1000}, MoneyIn{At: 3, Source: SourceBill, Cents: 500})
	s.PendingTicket = &CashOut{Ticket: "9", Cents: 1} // what no lawful record leads to while seated; the check still holds
	mustRefuse(t, s, pokerReq(PokerRebuy, 2, 100), "not printed yet")
}

func TestPokerRecordsRoundTripAndRefuseMalformed(t *testing.T) {
	id := PokerTransferID("EGM 1/ü:x@", 12345, 7)
	if id != "EGM_1___x_:9ix:7" {
		t.Fatalf("ID %q", id)
	}
	if got := PokerTransferID(":", 1, 1); !strings.HasPrefix(got, "m_:") {
		t.Fatalf("ID of a name without a letter: %q", got)
	}
	good := []Record{
		PokerTransfer{At: 1, ID: id, Seq: 7, Kind: PokerRebuy, Table: "t", Source: "s", Player: "p", Cents: 5},
		PokerTransfer{At: 1, ID: PokerCashOutID(id, 1), Kind: PokerCashOut, Table: "t", Source: "s", Player: "p", AuthorizedBy: "chefe-1"},
		PokerDone{At: 2, ID: id, Cents: 0},
		PokerRefused{At: 3, ID: id, Why: "no"},
	}
	for _, r := range good {
		data, err := Encode(r)
		if err != nil {
			t.Fatal(err)
		}
		back, err := Decode(r.Type(), data)
		if err != nil || !reflect.DeepEqual(back, r) {
			t.Fatalf("%v: %+v %v", r.Type(), back, err)
		}
	}
	for _, r := range []Record{
		PokerTransfer{ID: id, Seq: 8, Kind: PokerBuyIn, Table: "t", Source: "s", Player: "p", Cents: 5},    // not its number
		PokerTransfer{ID: "a:b", Seq: 1, Kind: PokerBuyIn, Table: "t", Source: "s", Player: "p", Cents: 5}, // two parts
		PokerTransfer{ID: id, Seq: 7, Kind: PokerBuyIn, Table: "t", Source: "s", Player: "p"},              // no cents
		PokerTransfer{ID: "out:x", Kind: PokerCashOut, Table: "t", Source: "s", Player: "p", Cents: 5},     // a cash-out's amount
		PokerTransfer{ID: id, Seq: 7, Kind: "gift", Table: "t", Source: "s", Player: "p", Cents: 5},        // no such kind
		PokerTransfer{ID: "bad id", Seq: 7, Kind: PokerCashOut, Table: "t", Source: "s", Player: "p"},      // not a server ID
		PokerTransfer{ID: id, Seq: 7, Kind: PokerRebuy, Table: "", Source: "s", Player: "p", Cents: 5},     // no table
		PokerTransfer{ID: id, Seq: 7, Kind: PokerRebuy, Table: "t", Source: "s", Player: "a/b", Cents: 5},  // not a player name
		PokerTransfer{ID: id, Seq: 7, Kind: PokerRebuy, Table: "t", Source: "s", Player: strings.Repeat("p", 33), Cents: 5},
		PokerTransfer{ID: id, Seq: 7, Kind: PokerRebuy, Table: "t", Source: "s", Player: "p", Cents: 5, AuthorizedBy: "x"},
		PokerTransfer{ID: "out:x", Kind: PokerCashOut, Table: "t", Source: "s", Player: "p", AuthorizedBy: "a/b"},
		PokerDone{ID: "", Cents: 1},
		PokerDone{ID: id, Cents: -1},
		PokerRefused{ID: id},
	} {
		if _, err := Encode(r); err == nil {
			t.Errorf("%+v encoded", r)
		}
	}
}

// The poker meters are in the readouts with every other meter, cents,
// lifetime, with no SAS code.
func TestPokerMetersAreMoneyMeters(t *testing.T) {
	for _, m := range []Meter{PokerToTables, PokerFromTables} {
		d := Defs[m]
		if d.Name == "" || !d.Cents || !d.Lifetime || d.SAS != noSAS {
			t.Errorf("meter %d: %+v", m, d)
		}
	}
}

// Random lawful sequences of notes, poker transfers with their answers
// (done, refused, a cash-out of more or less than went in) and the
// cabinet's own cash-outs between seats: the fold's credits, money in and
// money out follow an independent tally at every record.
func TestPokerRandomLawfulSequences(t *testing.T) {
	for seed := uint64(1); seed <= 20; seed++ {
		r := rng.NewSeeded(seed)
		n := func(k int) int { return r.Intn(k) }
		s := NewState()
		var credit, in, out, at int64
		var seq uint64
		apply := func(rec Record) {
			t.Helper()
			at++
			if err := s.Apply(rec); err != nil {
				t.Fatalf("seed %d: lawful %v %+v refused: %v", seed, rec.Type(), rec, err)
			}
			if s.Get(Credits) != credit || s.MoneyInTotal() != in || s.MoneyOutTotal() != out {
				t.Fatalf("seed %d after %v: credits %d/%d in %d/%d out %d/%d", seed, rec.Type(), s.Get(Credits), credit, s.MoneyInTotal(), in, s.MoneyOutTotal(), out)
			}
		}
		answer := func(tr PokerTransfer) {
			switch {
			case n(6) == 0:
				if tr.Kind != PokerCashOut {
					credit += tr.Cents
					out -= tr.Cents
				}
				apply(PokerRefused{At: at, ID: tr.ID, Why: "refused"})
			case tr.Kind == PokerCashOut:
				back := int64(n(3 * int(s.Poker.AtTable+1)))
				credit += back
				in += back
				apply(PokerDone{At: at, ID: tr.ID, Cents: back})
			default:
				apply(PokerDone{At: at, ID: tr.ID, Cents: tr.Cents})
			}
		}
		for range 2000 {
			switch k := n(10); {
			case k < 3:
				b := BillValues[n(4)]
				credit += b
				in += b
				apply(MoneyIn{At: at, Source: SourceBill, Cents: b})
			case k < 6 && credit > 0:
				kind := PokerBuyIn
				if s.Poker.Table != "" {
					kind = PokerRebuy
				}
				seq++
				tr := PokerTransfer{At: at, ID: PokerTransferID("EGM-9", at, seq), Seq: seq, Kind: kind, Table: pokerTable,
					Source: pokerSrc, Player: pokerPlayer, Cents: int64(1 + n(int(credit)))}
				credit -= tr.Cents
				out += tr.Cents
				apply(tr)
				answer(tr)
			case k < 8 && s.Poker.Table != "":
				tr := pokerOut(s.Poker.BuyIn, s.Poker.CashOuts+1)
				apply(tr)
				answer(tr)
			case k < 9 && s.Poker.Table == "" && credit > 0:
				c := int64(1 + n(int(credit)))
				credit -= c
				out += c
				apply(CashOut{At: at, Method: OutHopper, Cents: c})
			}
		}
		if s.Get(PokerToTables)+s.Get(HopperOut) != out || s.Get(PokerFromTables)+s.Get(BillsIn) != in {
			t.Fatalf("seed %d: to tables %d, hopper %d, from tables %d, bills %d; out %d in %d", seed,
				s.Get(PokerToTables), s.Get(HopperOut), s.Get(PokerFromTables), s.Get(BillsIn), out, in)
		}
	}
}
