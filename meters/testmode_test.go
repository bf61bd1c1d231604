package meters

import (
	"reflect"
	"strings"
	"testing"
)

func testReelGame(game uint64, bet, win int64) TestGame {
	return TestGame{At: int64(100 + game), Game: game, Kind: GameReels, Paytable: "p", Digest: "d", Denom: 1, BetCents: bet,
		Stops: []int{1, 2, 3}, Free: [][]int{{4, 5, 6}}, WinCents: win}
}

// Test games move only the test meters and the test credits: every meter of
// Defs, the bill counts, the per-game meters and the histories of real
// games stay as they were, and leaving discards the test credits.
func TestTestGamesMoveOnlyTestMeters(t *testing.T) {
	s := NewState()
	mustApply(t, s, MoneyIn{Source: SourceBill, Cents: 2000}, CashOut{Method: OutTicket, Cents: 2000, Ticket: "1"},
		TicketPrinted{Ticket: "1", Cents: 2000})
	before := s.Clone()
	hand := &TableHand{Bets: [TableSpots]int64{200}, Cards: mustCards(t, "9H", "2C", "KD", "3S")}
	mustApply(t, s,
		TestMode{At: 10, Who: "tech", Role: "technician", Enter: true, Credits: 10000},
		testReelGame(1, 100, 250),
		TestGame{At: 12, Game: 2, Kind: GameMakccarat, Paytable: "m", Digest: "d", Denom: 1, BetCents: 200, Hand: hand, WinCents: 390},
	)
	if got, want := s.Test.Credits, int64(10000-100+250-200+390); got != want {
		t.Errorf("test credits %d, want %d", got, want)
	}
	if s.Test.Played != 2 || s.Test.Bet != 300 || s.Test.Won != 640 || s.Test.LastGame != 2 || s.Test.Last.Game != 2 {
		t.Errorf("test meters %+v", s.Test)
	}
	mustApply(t, s, TestMode{At: 13, Who: "tech", Role: "technician", Why: "technician"})
	if s.Test.Active || s.Test.Credits != 0 || s.Test.Sessions != 1 || s.Test.Played != 2 {
		t.Errorf("after leaving: %+v", s.Test)
	}
	if s.Meters != before.Meters || !reflect.DeepEqual(s.BillCounts, before.BillCounts) || !reflect.DeepEqual(s.PerGame, before.PerGame) ||
		s.LastGame != before.LastGame || len(s.Games) != len(before.Games) {
		t.Errorf("test mode moved the machine's meters or games:\nbefore %v\nafter  %v", before.Meters, s.Meters)
	}
	if n := len(s.Events); n < 2 || s.Events[n-2].Action != ActionTestEnter || s.Events[n-1].Action != ActionTestLeave || s.Events[n-1].Who != "tech" {
		t.Errorf("event history does not say who entered and left test mode: %+v", s.Events)
	}
}

// The fold keeps test mode apart from money: no entry with credits, a game
// or a handpay; no money record while in test mode; no test game outside it
// or beyond the test credits.
func TestTestModeRefusals(t *testing.T) {
	enter := TestMode{At: 1, Who: "tech", Enter: true, Credits: 10000}
	withCredit := func() *State {
		s := NewState()
		mustApply(t, s, MoneyIn{Source: SourceBill, Cents: 500})
		return s
	}
	inTest := func() *State {
		s := NewState()
		mustApply(t, s, enter)
		return s
	}
	cases := []struct {
		name string
		s    *State
		r    Record
		want string
	}{
		{"enter with credits", withCredit(), enter, "credit"},
		{"enter during a game", lawfulBase(t), enter, "in progress"},
		{"enter twice", inTest(), enter, "while on"},
		{"leave when not in", NewState(), TestMode{Who: "tech", Why: "x"}, "not on"},
		{"bill in test mode", inTest(), MoneyIn{Source: SourceBill, Cents: 500}, "test mode"},
		{"bill order in test mode", inTest(), BillEscrow{Ref: 1, Cents: 500}, "test mode"},
		{"real game in test mode", inTest(), GameStart{Game: 1, Paytable: "p", Digest: "d", Denom: 1, BetCredits: 1, BetCents: 1, Stops: []int{1}}, "test mode"},
		{"RAM clear in test mode", inTest(), RAMClear{Who: "t", Why: "w"}, "test mode"},
		{"test game out of test mode", NewState(), testReelGame(1, 100, 0), "out of test mode"},
		{"test game beyond the test credits", inTest(), testReelGame(1, 10001, 0), "test credits"},
		{"test game out of order", inTest(), testReelGame(2, 100, 0), "does not follow"},
		{"enter without credits", NewState(), TestMode{Who: "tech", Enter: true}, "test credits"},
		{"malformed hand", inTest(), TestGame{Game: 1, Kind: GameMakccarat, Paytable: "m", Digest: "d", Denom: 1, BetCents: 200,
			Hand: &TableHand{Bets: [TableSpots]int64{100}, Cards: mustCards(t, "9H", "2C", "KD", "3S")}}, "stakes total"},
	}
	for _, c := range cases {
		before := c.s.Clone()
		err := c.s.Apply(c.r)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: got %v, want an error with %q", c.name, err, c.want)
		}
		if !reflect.DeepEqual(before, c.s.Clone()) {
			t.Errorf("%s: a refused record changed the state", c.name)
		}
	}
}

func TestTestRecordsRoundTrip(t *testing.T) {
	for _, r := range []Record{TestMode{At: 1, Who: "tech", Role: "technician", Enter: true, Credits: 10000},
		TestMode{At: 2, Who: "power-up", Why: "power loss"}, testReelGame(3, 100, 20)} {
		b, err := Encode(r)
		if err != nil {
			t.Fatal(err)
		}
		got, err := Decode(r.Type(), b)
		if err != nil || !reflect.DeepEqual(got, r) {
			t.Errorf("%v: decoded %+v (%v), want %+v", r.Type(), got, err, r)
		}
	}
}

// AFT transfers and tickets in or out are money: the ledger refuses them
// in test mode.
func TestCashlessRefusedInTestMode(t *testing.T) {
	s := NewState()
	s.Test.Active, s.Test.Who = true, "tech-1"
	for _, r := range []Record{AFTTransfer{}, TicketEscrow{}, TicketRedeem{}, ValidationRequest{}, ValidationDenied{}} {
		if err := s.refusedInTest(r); err == nil || !strings.Contains(err.Error(), "test mode") {
			t.Errorf("%v in test mode: %v", r.Type(), err)
		}
	}
}
