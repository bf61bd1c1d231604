package super

import "testing"

// A claim with what the machine showed wins the level's value held to it;
// one the machine paid itself wins exactly what it paid, beyond the value
// too (reserve, then operator); the pool's identity holds throughout.
func TestClaimHeldToWhatTheMachineShowed(t *testing.T) {
	c := sharedCluster(t)
	s := mustStore(t, c, "casino-a")
	initLevels(t, s, levelDef{"grand", grandCfg, 0})
	ctx := opCtx(t)
	if _, err := s.Contribute(ctx, Batch{Seq: 1, Bet: 200_000_00, At: 5, Level: "grand"}); err != nil { // +1000.00, +200.00 hidden
		t.Fatal(err)
	}
	first, err := s.Claim(ctx, HitID{Machine: "m-1", Game: 3, Level: "grand", Bet: 500, At: 9, Shown: 10_900_00}, 0)
	if err != nil {
		t.Fatal(err)
	}
	if first.Amount != 10_900_00*cent {
		t.Fatalf("won %d millicents; the level held 11000.00 and the machine showed 10900.00", first.Amount)
	}
	// The machine showed the value before that reset and paid it.
	second, err := s.Claim(ctx, HitID{Machine: "m-2", Game: 8, Level: "grand", Bet: 500, At: 10, Shown: 10_900_00, Paid: true}, 0)
	if err != nil {
		t.Fatal(err)
	}
	if second.Amount != 10_900_00*cent || second.Order != 2 {
		t.Fatalf("second claim %+v: want exactly the 10900.00 paid, order 2", second)
	}
	p := mustPools(t, s)
	lv, _ := p.Level("grand")
	m := lv.Meters
	// 100.00 held back + 200.00 hidden fund the first reset; the 900.00
	// beyond the value and the second reset are the operator's.
	if m.Awarded != 21_800_00*cent || m.Current != grandCfg.ResetValue || m.Reserve != 0 ||
		m.SeedFunding != (10_000_00+9_700_00+900_00+10_000_00)*cent {
		t.Fatalf("pool after the claims: %+v", m)
	}
	if err := p.Check(); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Claim(ctx, HitID{Machine: "m-3", Game: 1, Level: "grand", Bet: 500, At: 11, Paid: true}, 0); err == nil {
		t.Fatal("a claim paid by the machine without an amount was accepted")
	}
}
