package ledger

import (
	"errors"
	"testing"
)

// An award never exceeds what the machine showed (the rest of the value
// stays in the level), and a hit the machine paid itself (Paid) is awarded
// exactly what it paid, even beyond the value, the difference coming from
// the reserve and then the operator: the level's accounts say where every
// cent went.
func TestHitAwardHeldToTheClaim(t *testing.T) {
	s := newState(t, 2)
	mustApply(t, s, Meters{At: 2, Machine: "M000", CoinIn: 0})
	mustApply(t, s, Meters{At: 3, Machine: "M000", CoinIn: 200_000_00}) // grand +1000.00
	if v := level(t, s, "grand").Meters.Current; v != 11_000_00*mc {
		t.Fatalf("grand %d", v)
	}
	res := mustApply(t, s, Hit{At: 4, Level: "grand", Claims: []Claim{{Machine: "M000", Game: 1, Bet: 200, Claimed: 10_900_00}}})
	if p := res.Payouts[0]; p.Amount != 10_900_00 || p.Claimed != 10_900_00 {
		t.Fatalf("payout %+v: want the 10900.00 shown, not the 11000.00 held", p)
	}
	// The 100.00 held back and the 200.00 of hidden contributions (the
	// reserve) fund the reset; the operator the other 9700.00.
	if g := level(t, s, "grand").Meters; g.Awarded != 10_900_00*mc || g.Current != 10_000_00*mc || g.Reserve != 0 ||
		g.SeedFunding != (10_000_00+9_700_00)*mc {
		t.Fatalf("grand after the hit: %+v", g)
	}
	before := level(t, s, "grand").Meters
	// M001 showed the value before the reset and paid it itself.
	res = mustApply(t, s, Hit{At: 5, Level: "grand", Claims: []Claim{{Machine: "M001", Game: 7, Bet: 200, Claimed: 10_900_00, Paid: true}}})
	if p := res.Payouts[0]; p.Amount != 10_900_00 {
		t.Fatalf("payout %+v: want exactly the 10900.00 the machine paid", p)
	}
	after := level(t, s, "grand").Meters
	if got := after.SeedFunding - before.SeedFunding; got != 900_00*mc+10_000_00*mc-before.Reserve {
		t.Fatalf("seed funding grew by %d millicents; want the 900.00 beyond the value plus the reset, less the reserve %d", got, before.Reserve)
	}
	if err := s.Check(); err != nil {
		t.Fatal(err)
	}
	// A repeat gives the same payout; Paid without an amount is malformed.
	res = mustApply(t, s, Hit{At: 6, Level: "grand", Claims: []Claim{{Machine: "M001", Game: 7, Bet: 200, Claimed: 10_900_00, Paid: true}}})
	if !res.Repeat || res.Repeated[0].Amount != 10_900_00 {
		t.Fatalf("repeat %+v", res)
	}
	_, err := s.Apply(Hit{At: 7, Level: "grand", Claims: []Claim{{Machine: "M001", Game: 8, Bet: 200, Paid: true}}})
	if !errors.Is(err, ErrRecord) {
		t.Fatalf("paid without a claim: %v", err)
	}
}
