package meters

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"

	"github.com/openegm/cabinet/aft"
	"github.com/openegm/cabinet/sas/metercode"
)

// promoIn is an in-house transfer of the three kinds, as the AFT core
// decides it, with restricted credits of pool and expiring exp.
func promoIn(s *State, id string, cash, restricted, nonRestricted int64, pool uint16, exp aft.Expiration) AFTTransfer {
	r := aftRec(s, id, aft.InHouseToMachine, cash)
	a := aft.Amounts{Cashable: cash, Restricted: restricted, NonRestricted: nonRestricted}
	r.Transfer.Amounts, r.Transfer.Requested = a, a
	if restricted > 0 {
		r.Transfer.PoolID, r.Transfer.Expiration, r.Transfer.RestrictedExpiration = pool, exp, exp
	}
	if r.Transfer.Position == 0 && a.Total() > 0 {
		r.Transfer.Position = s.AFT.NextPosition()
	}
	return r
}

// promoOut is an in-house transfer of the three kinds to the host.
func promoOut(s *State, id string, cash, restricted, nonRestricted int64) AFTTransfer {
	r := aftRec(s, id, aft.InHouseToHost, cash)
	a := aft.Amounts{Cashable: cash, Restricted: restricted, NonRestricted: nonRestricted}
	r.Transfer.Amounts, r.Transfer.Requested = a, a
	if r.Transfer.Position == 0 && a.Total() > 0 {
		r.Transfer.Position = s.AFT.NextPosition()
	}
	return r
}

func game(n uint64, bet, win int64) []Record {
	return []Record{
		GameStart{Game: n, Paytable: "p", Digest: "d", Denom: 1, BetCredits: bet, BetCents: bet, Stops: []int{1}, WinCents: win},
		GameEnd{Game: n, WinCents: win},
	}
}

// kinds asserts the credit meter by kind and the promotional meters.
func kinds(t *testing.T, s *State, cash, restricted, nonRestricted int64, meters map[Meter]int64) {
	t.Helper()
	c := s.CreditsByKind()
	if c.Cashable != cash || c.Restricted != restricted || c.NonRestricted != nonRestricted || s.Get(Credits) != cash+restricted+nonRestricted {
		t.Fatalf("credits %d: cashable %d restricted %d non-restricted %d, want %d %d %d", s.Get(Credits), c.Cashable, c.Restricted, c.NonRestricted,
			cash, restricted, nonRestricted)
	}
	for m, want := range meters {
		if s.Get(m) != want {
			t.Errorf("%s = %d, want %d", Defs[m].Name, s.Get(m), want)
		}
	}
	if err := s.Check(); err != nil {
		t.Fatal(err)
	}
}

// The three kinds of credit through a player's session: in by AFT, a bet
// that takes restricted first, then non-restricted, a win that is
// cashable, a cash-out that pays cashable and non-restricted credits and
// leaves the restricted ones, the host's transfer of those out.
func TestPromoCreditsThroughASession(t *testing.T) {
	s := NewState()
	mustApply(t, s, promoIn(s, "IN-1", 1000, 500, 300, 7, 3102026))
	kinds(t, s, 1000, 500, 300, map[Meter]int64{ElectronicIn: 1800, RestrictedIn: 500, NonRestrictedIn: 300})
	if s.Promo != (Promo{Pool: 7, Expiration: 3102026}) {
		t.Fatalf("promo %+v", s.Promo)
	}
	// Restricted first, then non-restricted, then cashable.
	mustApply(t, s, game(1, 400, 0)...)
	kinds(t, s, 1000, 100, 300, map[Meter]int64{RestrictedPlayed: 400, NonRestrictedPlayed: 0, CoinIn: 400})
	mustApply(t, s, game(2, 250, 90)...)
	kinds(t, s, 1090, 0, 150, map[Meter]int64{RestrictedPlayed: 500, NonRestrictedPlayed: 150, CoinIn: 650, CoinOut: 90})
	if s.Promo != (Promo{}) {
		t.Fatalf("the pool and expiration outlive the restricted credits: %+v", s.Promo)
	}
	mustApply(t, s, game(3, 200, 0)...)
	kinds(t, s, 1040, 0, 0, map[Meter]int64{NonRestrictedPlayed: 300, CoinIn: 850})

	// Restricted credits of another pool, now that none are left; the
	// cash-out pays all but them.
	mustApply(t, s, promoIn(s, "IN-2", 0, 200, 60, 8, 0))
	kinds(t, s, 1040, 200, 60, nil)
	if s.Redeemable() != 1100 {
		t.Fatalf("redeemable %d", s.Redeemable())
	}
	mustApply(t, s, CashOut{Method: OutHopper, Cents: 1100})
	kinds(t, s, 0, 200, 0, map[Meter]int64{HopperOut: 1100, NonRestrictedCashedOut: 60})
	// The host takes the restricted credits back.
	mustApply(t, s, promoOut(s, "OUT-1", 0, 200, 0))
	kinds(t, s, 0, 0, 0, map[Meter]int64{RestrictedOut: 200, ElectronicOut: 200})

	want := map[metercode.Code]int64{
		metercode.CurrentCredits: 0, metercode.CurrentRestrictedCredits: 0, metercode.RestrictedPlayed: 500,
		metercode.NonRestrictedPlayed: 300, metercode.AFTInHouseRestrictedIn: 700, metercode.AFTInHouseRestrictedInCount: 2,
		metercode.AFTInHouseNonRestrictedIn: 360, metercode.AFTInHouseNonRestrictedInCount: 2, metercode.AFTInHouseRestrictedOut: 200,
		metercode.AFTInHouseRestrictedOutCount: 1, metercode.ElectronicToMachine: 2060, metercode.ElectronicToHost: 200,
	}
	for c, v := range want {
		if got, ok := s.SASMeter(c); !ok || got != v {
			t.Errorf("SAS %v = %d %v, want %d", c, got, ok, v)
		}
	}
	// A snapshot keeps the kinds.
	mustApply(t, s, promoIn(s, "IN-3", 0, 30, 0, 9, 12312030))
	b, _ := json.Marshal(s)
	var back State
	if err := json.Unmarshal(b, &back); err != nil {
		t.Fatal(err)
	}
	if back.CreditsByKind() != s.CreditsByKind() {
		t.Fatalf("snapshot: %+v, want %+v", back.CreditsByKind(), s.CreditsByKind())
	}
}

// A bonus coin-out win is a win: cashable credits, coin out and the
// machine-paid external bonus meter, not money in.
func TestPromoBonusIsAWin(t *testing.T) {
	s := NewState()
	b := aftRec(s, "B-1", aft.BonusCoinOut, 100)
	b.Transfer.Amounts.NonRestricted, b.Transfer.Requested.NonRestricted = 50, 50
	mustApply(t, s, b)
	kinds(t, s, 150, 0, 0, map[Meter]int64{CoinOut: 150, MachinePaidBonus: 150, TotalWon: 150, ElectronicIn: 0, NonRestrictedIn: 0})
	for c, v := range map[metercode.Code]int64{metercode.MachinePaidExternalBonus: 150, metercode.AFTBonusCashableIn: 100,
		metercode.AFTBonusNonRestrictedIn: 50, metercode.TotalCoinOut: 150} {
		if got, ok := s.SASMeter(c); !ok || got != v {
			t.Errorf("SAS %v = %d %v, want %d", c, got, ok, v)
		}
	}
}

// Restricted credits expire: taken off by a PromoExpired after their day,
// never on it; the credit equation counts them.
func TestPromoExpiry(t *testing.T) {
	s := NewState()
	mustApply(t, s, promoIn(s, "IN-1", 100, 500, 0, 7, 3102026))
	on := PromoExpired{At: 1, Cents: 500, Pool: 7, Expiration: 3102026, Day: 3102026}
	if err := s.Apply(on); err == nil || !strings.Contains(err.Error(), "last through their day") {
		t.Fatalf("expired on its own day: %v", err)
	}
	after := on
	after.Day = 3112026
	mustApply(t, s, after)
	kinds(t, s, 100, 0, 0, map[Meter]int64{RestrictedExpired: 500, RestrictedIn: 500})
	if s.Promo != (Promo{}) {
		t.Fatalf("promo %+v", s.Promo)
	}
	if err := s.Apply(after); err == nil || !strings.Contains(err.Error(), "holds 0 cents") {
		t.Fatalf("expired twice: %v", err)
	}
	// The record round-trips and is checked when read back.
	data, err := Encode(after)
	if err != nil {
		t.Fatal(err)
	}
	if back, err := Decode(TypePromoExpired, data); err != nil || !reflect.DeepEqual(back, Record(after)) {
		t.Fatalf("round trip: %+v %v", back, err)
	}
	if _, err := Decode(TypePromoExpired, []byte(`{"at":1,"cents":5,"pool":1,"expiration":3102026,"day":3092026}`)); err == nil {
		t.Fatal("a record expiring credits before their day decoded")
	}
	if TypePromoExpired.String() != "restricted credits expired" {
		t.Fatalf("type name %q", TypePromoExpired)
	}
}

// Every record that would move promotional credits against the rules is
// refused, and leaves the state as it was.
func TestPromoRefusals(t *testing.T) {
	base := func(t *testing.T) *State {
		s := NewState()
		mustApply(t, s, promoIn(s, "IN-1", 1000, 500, 300, 7, 3102026))
		return s
	}
	checkRefusals(t, []foldRefusal{
		{"restricted credits of another pool", base, func(s *State) Record { return promoIn(s, "IN-2", 0, 10, 0, 8, 0) }, "pool 8 while 500 cents of pool 7"},
		{"more restricted out than held", base, func(s *State) Record { return promoOut(s, "OUT", 0, 501, 0) }, "501 restricted cents to the host with 500"},
		{"more non-restricted out than held", base, func(s *State) Record { return promoOut(s, "OUT", 0, 0, 301) }, "301 non-restricted cents to the host with 300"},
		{"more cashable out than held", base, func(s *State) Record { return promoOut(s, "OUT", 1001, 0, 0) }, "1001 cashable cents to the host with 1000"},
		{"restricted cashed out as money", base, func(*State) Record { return CashOut{Method: OutHopper, Cents: 1301} }, "restricted credits are never cashed out"},
		{"restricted cashed out by hand", base, func(*State) Record { return HandpayPending{Kind: HandpayCancelled, Cents: 1800} }, "never cashed out"},
		{"restricted on a ticket", base, func(*State) Record { return CashOut{Method: OutTicket, Cents: 1800, Ticket: "1"} }, "never cashed out"},
		{"expired before their day", base, func(*State) Record {
			return PromoExpired{Cents: 500, Pool: 7, Expiration: 3102026, Day: 3092026}
		}, "last through their day"},
		{"expired of another amount", base, func(*State) Record {
			return PromoExpired{Cents: 400, Pool: 7, Expiration: 3102026, Day: 3112026}
		}, "holds 500 cents"},
		{"expired of another pool", base, func(*State) Record {
			return PromoExpired{Cents: 500, Pool: 6, Expiration: 3102026, Day: 3112026}
		}, "pool 7"},
		{"expired with another expiration", base, func(*State) Record {
			return PromoExpired{Cents: 500, Pool: 7, Expiration: 3092026, Day: 3112026}
		}, "expiring 03/10/2026"},
		{"expired during a game", func(t *testing.T) *State {
			s := base(t)
			mustApply(t, s, game(1, 10, 0)[0])
			return s
		}, func(*State) Record { return PromoExpired{Cents: 490, Pool: 7, Expiration: 3102026, Day: 3112026} }, "in progress"},
		{"expired with none held", func(*testing.T) *State { return NewState() }, func(*State) Record {
			return PromoExpired{Cents: 1, Pool: 0, Expiration: 3102026, Day: 3112026}
		}, "holds 0 cents"},
		{"a restricted bonus", base, func(s *State) Record {
			r := aftRec(s, "B", aft.BonusCoinOut, 0)
			r.Transfer.Amounts.Restricted, r.Transfer.Requested.Restricted = 5, 5
			return r
		}, "no restricted bonus"},
	})
}

// Check holds each kind's equation on its own: a state whose total is
// right but whose kinds are not (an edited snapshot, a fold defect) is
// refused, naming the kind.
func TestPromoEquationPerKind(t *testing.T) {
	good := func(t *testing.T) *State {
		s := NewState()
		mustApply(t, s, promoIn(s, "IN-1", 1000, 500, 300, 7, 3102026))
		mustApply(t, s, game(1, 100, 0)...)
		return s
	}
	cases := []struct {
		name   string
		tamper func(s *State)
		want   string
	}{
		{"restricted relabelled as non-restricted", func(s *State) { s.Meters[RestrictedCredits] -= 50; s.Meters[NonRestrictedCredits] += 50 },
			"restricted credit equation broken"},
		{"non-restricted relabelled as cashable", func(s *State) { s.Meters[NonRestrictedCredits] -= 50 }, "non-restricted credit equation broken"},
		{"a credit from nowhere", func(s *State) { s.Meters[Credits] += 50 }, "cashable credit equation broken"},
		{"a bet's restricted part not taken", func(s *State) { s.Meters[RestrictedPlayed] += 50 }, "restricted credit equation broken"},
		{"cashable below zero", func(s *State) {
			s.Meters[RestrictedCredits] += 2000
			s.Meters[RestrictedIn] += 2000
			s.AFT.Meters[aft.MeterInHouseRestrictedIn] += 2000
		}, "beyond the electronic transfers"},
		{"the AFT meters disagree", func(s *State) { s.AFT.Meters[aft.MeterInHouseNonRestrictedIn]++ }, "the AFT meters"},
		{"a pool without restricted credits", func(s *State) {
			s.Meters[RestrictedCredits], s.Meters[RestrictedPlayed] = 0, 500
			s.Meters[NonRestrictedCredits], s.Meters[NonRestrictedPlayed] = 300, 0
			s.Meters[CoinIn] = 500
			s.Meters[Credits] = 1300
			s.Meters[GamesPlayed] = 1
			s.PerGame[GameReels] = GameMeters{CoinIn: 500, Played: 1, Lost: 1}
		}, "kept without restricted credits"},
	}
	for _, c := range cases {
		s := good(t)
		s.AFT = s.AFT.Clone()
		c.tamper(s)
		if err := s.Check(); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v, want %q", c.name, err, c.want)
		}
	}
}

// A partial transfer moves less than asked, kind by kind, and the ledger
// counts what moved.
func TestPromoPartialTransfer(t *testing.T) {
	s := NewState()
	r := promoIn(s, "IN-1", 1000, 200, 0, 7, 0)
	r.Transfer.Code, r.Transfer.Status = aft.CodePartial, aft.StatusPartial
	r.Transfer.Requested.Restricted, r.Transfer.Requested.NonRestricted = 500, 300
	mustApply(t, s, r)
	kinds(t, s, 1000, 200, 0, map[Meter]int64{RestrictedIn: 200, NonRestrictedIn: 0, ElectronicIn: 1200})
	over := promoIn(s, "IN-2", 0, 0, 50, 0, 0)
	over.Transfer.Code, over.Transfer.Status = aft.CodePartial, aft.StatusPartial
	over.Transfer.Requested.NonRestricted = 40
	if err := s.Apply(over); err == nil || !strings.Contains(err.Error(), "moved 50 non-restricted cents of 40 requested") {
		t.Fatalf("a partial transfer that moved more than asked: %v", err)
	}
}
