package jackpot

import (
	"errors"
	"testing"
)

// Amounts held below the rule's: a machine that showed less than the level
// holds is paid what it showed, and the rest stays in the level's money
// (its reserve, which funds the next reset).
func TestAwardAmountsHeldToWhatWasShown(t *testing.T) {
	var p Pools
	mustApply(t, &p, AddLevel{Level: "L", Config: paytable(50_00*cent, 0, 50_000, 0, SecondHitWinsReset), Who: "t"})
	mustApply(t, &p, Contribute{Levels: []string{"L"}, Bet: 20_00, Where: "m1"}) // +1.00
	mustApply(t, &p, Hit{Level: "L", Bet: 100, Where: "m1", Game: 7})
	mustApply(t, &p, Hit{Level: "L", Bet: 100, Where: "m2", Game: 3})
	if got := p.RuleAmounts("L"); len(got) != 2 || got[0] != 51_00*cent || got[1] != 50_00*cent {
		t.Fatalf("rule amounts %v, want 51.00 then the reset value 50.00", got)
	}
	// m1 showed 50.80, m2 the stale 50.80 too: m1 gets 50.80, m2 the reset value.
	r := mustApply(t, &p, Award{Level: "L", Amounts: []int64{50_80 * cent, 50_00 * cent}})
	if r.Paid[0].Amount != 50_80*cent || r.Paid[1].Amount != 50_00*cent {
		t.Fatalf("paid %+v", r.Paid)
	}
	m := meters(t, &p, "L")
	// 0.20 of the first value stayed and went into the first reset.
	if m.Awarded != 100_80*cent || m.Reserve != 0 || m.Current != 50_00*cent || m.SeedFunding != (50_00+49_80+50_00)*cent {
		t.Fatalf("after the award: %+v", m)
	}
}

// Amounts above the value: a machine that paid a value the level no longer
// holds (it showed the value before another hit reset it) is paid it; the
// difference comes from the reserve and the overflow first, the rest is the
// operator's (seed funding). Nothing is created: the identity holds.
func TestAwardAmountsAboveTheValue(t *testing.T) {
	var p Pools
	cfg := paytable(10_00*cent, 12_00*cent, 500_000, 100_000, SecondHitWinsReset)
	mustApply(t, &p, AddLevel{Level: "L", Config: cfg, Who: "t"})
	mustApply(t, &p, Contribute{Levels: []string{"L"}, Bet: 10_00, Where: "m1"}) // +5.00 (2.00 over the cap), +1.00 hidden
	m := meters(t, &p, "L")
	if m.Current != 12_00*cent || m.Overflow != 3_00*cent || m.Reserve != 1_00*cent {
		t.Fatalf("before: %+v", m)
	}
	mustApply(t, &p, Hit{Level: "L", Bet: 100, Where: "m1", Game: 1})
	mustApply(t, &p, Award{Level: "L", Amounts: []int64{17_50 * cent}})
	m = meters(t, &p, "L")
	// 5.50 missing: 1.00 reserve + 3.00 overflow, 1.50 operator; then the
	// reset to 10.00, all operator.
	if m.Awarded != 17_50*cent || m.Reserve != 0 || m.Overflow != 0 || m.SeedFunding != (10_00+1_50+10_00)*cent || m.Current != 10_00*cent {
		t.Fatalf("after: %+v", m)
	}
}

func TestAwardAmountsSplitAndRefusals(t *testing.T) {
	var p Pools
	mustApply(t, &p, AddLevel{Level: "S", Config: paytable(30_00*cent, 0, 1, 0, SplitAmount), Who: "t"})
	for i := range 3 {
		mustApply(t, &p, Hit{Level: "S", Bet: 100, Where: "m", Game: uint64(i + 1)})
	}
	for _, bad := range [][]int64{{10_00 * cent}, {10_00 * cent, 10_00 * cent, 10_00*cent + 1}, {-cent, 0, 0}} {
		if _, err := p.Apply(Award{Level: "S", Amounts: bad}); !errors.Is(err, ErrInvalid) {
			t.Fatalf("amounts %v: %v", bad, err)
		}
	}
	r := mustApply(t, &p, Award{Level: "S", Amounts: []int64{10_00 * cent, 9_00 * cent, 10_00 * cent}})
	if len(r.Paid) != 3 || r.Paid[1].Amount != 9_00*cent {
		t.Fatalf("paid %+v", r.Paid)
	}
	if m := meters(t, &p, "S"); m.Awarded != 29_00*cent || m.SeedFunding != (30_00+29_00)*cent || m.Current != 30_00*cent {
		t.Fatalf("after the split: %+v", m)
	}
}
