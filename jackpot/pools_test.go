package jackpot

import (
	"bytes"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/openegm/cabinet/rng"
)

const cent = MillicentsPerCent

func mustApply(t testing.TB, p *Pools, op Op) Result {
	t.Helper()
	r, err := p.Apply(op)
	if err != nil {
		t.Fatalf("Apply(%+v): %v", op, err)
	}
	if err := p.Check(); err != nil {
		t.Fatalf("Check after %+v: %v", op, err)
	}
	return r
}

func meters(t testing.TB, p *Pools, id string) Meters {
	t.Helper()
	v, ok := p.Level(id)
	if !ok {
		t.Fatalf("no level %q", id)
	}
	return v.Meters
}

func paytable(reset, capv, rate, hidden int64, rule SecondHitRule) Config {
	return Config{ResetValue: reset, Cap: capv, Rate: rate, HiddenRate: hidden,
		Trigger: TriggerPaytable, MinHitBet: 100, SecondHit: rule}
}

func TestContributionCarry(t *testing.T) {
	var p Pools
	mustApply(t, &p, AddLevel{Level: "a", Config: paytable(0, 0, 1, 3, SplitAmount), Who: "tech"})
	// 1 cent at 1 ppm is 1/1000 millicent: 999 bets contribute nothing...
	for i := range 999 {
		mustApply(t, &p, Contribute{Levels: []string{"a"}, Bet: 1, Where: "m1", Game: uint64(i)})
	}
	v, _ := p.Level("a")
	if v.Meters.Current != 0 || v.CarryMain != 999 || v.Meters.Reserve != 2 || v.CarryHidden != 997 {
		t.Fatalf("after 999 bets: current %d carry %d reserve %d hidden carry %d; want 0 999 2 997",
			v.Meters.Current, v.CarryMain, v.Meters.Reserve, v.CarryHidden)
	}
	// ...and the 1000th completes a millicent.
	mustApply(t, &p, Contribute{Levels: []string{"a"}, Bet: 1, Where: "m1", Game: 999})
	v, _ = p.Level("a")
	if v.Meters.Current != 1 || v.CarryMain != 0 || v.Meters.Reserve != 3 || v.CarryHidden != 0 {
		t.Fatalf("after 1000 bets: current %d carry %d reserve %d hidden carry %d; want 1 0 3 0",
			v.Meters.Current, v.CarryMain, v.Meters.Reserve, v.CarryHidden)
	}
	if v.Meters.Contributions != 4 || v.Meters.HiddenContributions != 3 || v.Meters.QualifyingBets != 1000 {
		t.Fatalf("meters %+v", v.Meters)
	}
}

// Cap -> overflow -> reserve -> next reset, with every figure.
func TestCapOverflowReserveFlow(t *testing.T) {
	var p Pools
	// reset 100.00, cap 200.00, 10% to the value, 1% hidden.
	cfg := paytable(100_00*cent, 200_00*cent, 100_000, 10_000, SecondHitWinsReset)
	mustApply(t, &p, AddLevel{Level: "L", Config: cfg, Who: "tech"})
	bet := func(cents int64) {
		mustApply(t, &p, Contribute{Levels: []string{"L"}, Bet: cents, Where: "m", Game: 1})
	}
	for range 100 {
		bet(10_00) // 1.00 to the value, 0.10 hidden
	}
	m := meters(t, &p, "L")
	want := Meters{QualifyingBets: 1000_00, Contributions: 110_00 * cent, HiddenContributions: 10_00 * cent,
		SeedFunding: 100_00 * cent, Current: 200_00 * cent, Reserve: 10_00 * cent}
	if m != want {
		t.Fatalf("at the cap:\n got %+v\nwant %+v", m, want)
	}
	for range 50 {
		bet(10_00)
	}
	m = meters(t, &p, "L")
	if m.Current != 200_00*cent || m.Overflow != 50_00*cent || m.Reserve != 15_00*cent {
		t.Fatalf("above the cap: current %d overflow %d reserve %d", m.Current, m.Overflow, m.Reserve)
	}
	r := mustApply(t, &p, Hit{Level: "L", Bet: 100, Where: "m", Game: 2, At: 7})
	if len(r.Claims) != 1 {
		t.Fatalf("claims %+v", r.Claims)
	}
	r = mustApply(t, &p, Award{Level: "L", At: 8})
	if len(r.Paid) != 1 || r.Paid[0].Amount != 200_00*cent {
		t.Fatalf("paid %+v", r.Paid)
	}
	// Overflow 50 + reserve 15 = 65 fund the reset of 100: 35 is seed funding.
	m = meters(t, &p, "L")
	if m.Current != 100_00*cent || m.Overflow != 0 || m.Reserve != 0 ||
		m.SeedFunding != (100_00+35_00)*cent || m.Awarded != 200_00*cent || m.Hits != 1 {
		t.Fatalf("after reset: %+v", m)
	}
	// A large reserve funds the whole reset and keeps the rest.
	mustApply(t, &p, Fund{Level: "L", Amount: 250_00 * cent, Who: "cfo", Why: "prefund"})
	mustApply(t, &p, Hit{Level: "L", Bet: 100, Where: "m", Game: 3})
	mustApply(t, &p, Award{Level: "L"})
	m = meters(t, &p, "L")
	if m.Current != 100_00*cent || m.Reserve != 150_00*cent || m.SeedFunding != (135_00+250_00)*cent {
		t.Fatalf("after funded reset: %+v", m)
	}
}

func TestAwardSubCentGoesToReserve(t *testing.T) {
	var p Pools
	mustApply(t, &p, AddLevel{Level: "L", Config: paytable(10*cent, 0, 1234, 0, SecondHitWinsReset), Who: "t"})
	mustApply(t, &p, Contribute{Levels: []string{"L"}, Bet: 1_00, Where: "m"}) // 123.4 -> 123 millicents
	m := meters(t, &p, "L")
	if m.Current != 10*cent+123 {
		t.Fatalf("current %d", m.Current)
	}
	mustApply(t, &p, Hit{Level: "L", Bet: 100, Where: "m"})
	r := mustApply(t, &p, Award{Level: "L"})
	if r.Paid[0].Amount != 10*cent {
		t.Fatalf("paid %d, want %d", r.Paid[0].Amount, 10*cent)
	}
	m = meters(t, &p, "L")
	// The 123 millicents went to the reserve and then into the reset.
	if m.Reserve != 0 || m.SeedFunding != 20*cent-123 || m.Current != 10*cent {
		t.Fatalf("after award: %+v", m)
	}
}

func TestSecondHitWinsReset(t *testing.T) {
	var p Pools
	mustApply(t, &p, AddLevel{Level: "L", Config: paytable(50_00*cent, 0, 50_000, 0, SecondHitWinsReset), Who: "t"})
	for range 10 {
		mustApply(t, &p, Contribute{Levels: []string{"L"}, Bet: 2_00, Where: "m1"}) // 10 cents each
	}
	mustApply(t, &p, Hit{Level: "L", Bet: 100, Where: "m1", Game: 11, At: 100})
	// Contributions while the hit is pending go to the reserve.
	mustApply(t, &p, Contribute{Levels: []string{"L"}, Bet: 2_00, Where: "m2"})
	mustApply(t, &p, Hit{Level: "L", Bet: 200, Where: "m2", Game: 5, At: 101})
	m := meters(t, &p, "L")
	if m.Current != 51_00*cent || m.Reserve != 10*cent {
		t.Fatalf("pending: current %d reserve %d", m.Current, m.Reserve)
	}
	r := mustApply(t, &p, Award{Level: "L", At: 102})
	want := []Payment{
		{Level: "L", HitRecord: HitRecord{At: 100, Where: "m1", Game: 11, Amount: 51_00 * cent}},
		{Level: "L", HitRecord: HitRecord{At: 101, Where: "m2", Game: 5, Amount: 50_00 * cent}},
	}
	if fmt.Sprint(r.Paid) != fmt.Sprint(want) {
		t.Fatalf("paid\n %+v\nwant\n %+v", r.Paid, want)
	}
	m = meters(t, &p, "L")
	// Two resets of 50.00: the first takes 0.10 from the reserve.
	if m.Current != 50_00*cent || m.Reserve != 0 || m.Hits != 2 || m.Awarded != 101_00*cent ||
		m.SeedFunding != (50_00+49_90+50_00)*cent {
		t.Fatalf("after award: %+v", m)
	}
	v, _ := p.Level("L")
	if len(v.Pending) != 0 || len(v.History) != 2 || v.History[1].Where != "m2" {
		t.Fatalf("level %+v", v)
	}
}

func TestSplitAmount(t *testing.T) {
	var p Pools
	mustApply(t, &p, AddLevel{Level: "L", Config: paytable(100*cent, 0, 1, 0, SplitAmount), Who: "t"})
	mustApply(t, &p, Contribute{Levels: []string{"L"}, Bet: 1_500, Where: "m"}) // 1.5 millicents
	// current = 100 cents + 1 millicent, carry 500
	for i := range 3 {
		mustApply(t, &p, Hit{Level: "L", Bet: 100, Where: fmt.Sprint("m", i), Game: uint64(i)})
	}
	r := mustApply(t, &p, Award{Level: "L"})
	if len(r.Paid) != 3 {
		t.Fatalf("paid %+v", r.Paid)
	}
	for i, pay := range r.Paid {
		if pay.Amount != 33*cent || pay.Where != fmt.Sprint("m", i) {
			t.Fatalf("payment %d: %+v", i, pay)
		}
	}
	m := meters(t, &p, "L")
	// 99 cents paid; 1 cent + 1 millicent to the reserve, then into the reset.
	if m.Awarded != 99*cent || m.Hits != 3 || m.Reserve != 0 || m.Current != 100*cent ||
		m.SeedFunding != 200*cent-(1*cent+1) {
		t.Fatalf("after split: %+v", m)
	}
}

func TestHitRules(t *testing.T) {
	var p Pools
	mustApply(t, &p, AddLevel{Level: "P", Config: paytable(cent, 0, 10, 0, SplitAmount), Who: "t"})
	mystery := Config{ResetValue: cent, Cap: 10 * cent, Rate: 10, Trigger: TriggerMystery, SecondHit: SplitAmount}
	mustApply(t, &p, AddLevel{Level: "M", Config: mystery, Target: 5 * cent, Who: "t"})
	for _, tc := range []struct {
		op   Op
		want error
	}{
		{Hit{Level: "P", Bet: 99, Where: "m"}, ErrInvalid},                                 // below the top bet
		{Hit{Level: "M", Bet: 100, Where: "m"}, ErrInvalid},                                // mystery
		{Hit{Level: "X", Bet: 100, Where: "m"}, ErrUnknownLevel},                           // unknown
		{Hit{Level: "P", Bet: 100, Where: ""}, ErrInvalid},                                 // nowhere
		{Award{Level: "P"}, ErrNoHit},                                                      // nothing pending
		{Award{Level: "P", Target: 1}, ErrNoHit},                                           // (pending checked first)
		{AddLevel{Level: "M2", Config: mystery, Who: "t"}, ErrInvalid},                     // no target
		{AddLevel{Level: "M2", Config: mystery, Target: 11 * cent, Who: "t"}, ErrInvalid},  // above cap
		{AddLevel{Level: "M2", Config: mystery, Target: 2*cent + 1, Who: "t"}, ErrInvalid}, // not whole cents
		{AddLevel{Level: "P", Config: mystery, Target: 2 * cent, Who: "t"}, ErrLevelExists},
	} {
		if _, err := p.Apply(tc.op); !errors.Is(err, tc.want) {
			t.Errorf("Apply(%+v) = %v, want %v", tc.op, err, tc.want)
		}
	}
	mustApply(t, &p, Hit{Level: "P", Bet: 100, Where: "m"})
	if _, err := p.Apply(Award{Level: "P", Target: cent}); !errors.Is(err, ErrInvalid) {
		t.Errorf("award with a target on a paytable level: %v", err)
	}
}

func TestHistoryKeepsLast25NewestLast(t *testing.T) {
	var p Pools
	mustApply(t, &p, AddLevel{Level: "L", Config: paytable(cent, 0, 10, 0, SecondHitWinsReset), Who: "t"})
	for i := 1; i <= 30; i++ {
		mustApply(t, &p, Hit{Level: "L", Bet: 100, Where: "m", Game: uint64(i), At: int64(i)})
		mustApply(t, &p, Award{Level: "L"})
		v, _ := p.Level("L")
		if want := min(i, HistoryLen); len(v.History) != want {
			t.Fatalf("after %d hits: %d records, want %d", i, len(v.History), want)
		}
		if v.History[len(v.History)-1].Game != uint64(i) {
			t.Fatalf("after %d hits: newest is game %d", i, v.History[len(v.History)-1].Game)
		}
	}
	v, _ := p.Level("L")
	for k, h := range v.History {
		if h.Game != uint64(6+k) || h.At != int64(6+k) || h.Amount != cent {
			t.Fatalf("history[%d] = %+v, want game %d", k, h, 6+k)
		}
	}
	if v.Meters.Hits != 30 {
		t.Fatalf("hits %d", v.Meters.Hits)
	}
}

func TestTransferConservesValue(t *testing.T) {
	var p Pools
	mustApply(t, &p, AddLevel{Level: "A", Config: paytable(100*cent, 0, 100_000, 10_000, SplitAmount), Who: "t"})
	mustApply(t, &p, AddLevel{Level: "B", Config: paytable(50*cent, 80*cent, 100_000, 0, SplitAmount), Who: "t"})
	mystery := Config{ResetValue: 10 * cent, Cap: 100 * cent, Rate: 1000, Trigger: TriggerMystery, SecondHit: SplitAmount}
	mustApply(t, &p, AddLevel{Level: "M", Config: mystery, Target: 40 * cent, Who: "t"})
	mustApply(t, &p, Contribute{Levels: []string{"A"}, Bet: 1000, Where: "m"}) // A: +100 c, reserve +10 c
	total := func() (int64, int64) {
		tot, err := p.Totals()
		if err != nil {
			t.Fatal(err)
		}
		return tot.Current + tot.Reserve + tot.Overflow, tot.SeedFunding + tot.Contributions
	}
	liab0, in0 := total()

	// Partial: 70 c of A's current and 5 c of its reserve into B, whose
	// cap leaves room for 30 c: the other 45 c go to B's reserve.
	r := mustApply(t, &p, Transfer{From: "A", To: "B", Current: 70 * cent, Reserve: 5 * cent,
		Who: "inspector 7", Why: "machine 12 withdrawn", At: 1000})
	mv := r.Moved
	if mv == nil || mv.Amount() != 75*cent || mv.ToCurrent != 30*cent || mv.ToReserve != 45*cent {
		t.Fatalf("moved %+v", mv)
	}
	a, b := meters(t, &p, "A"), meters(t, &p, "B")
	if a.Current != 130*cent || a.Reserve != 5*cent || a.TransferredOut != 75*cent ||
		b.Current != 80*cent || b.Reserve != 45*cent || b.TransferredIn != 75*cent {
		t.Fatalf("A %+v\nB %+v", a, b)
	}
	// All of A into the mystery level, closing A: M's value may rise only to
	// one millicent below its target.
	r = mustApply(t, &p, Transfer{From: "A", To: "M", All: true, Close: true, Who: "inspector 7", Why: "bank closed", At: 2000})
	if r.Moved.Amount() != 135*cent || r.Moved.ToCurrent != 30*cent-1 {
		t.Fatalf("moved %+v", r.Moved)
	}
	mm := meters(t, &p, "M")
	if mm.Current != 40*cent-1 || mm.Reserve != 105*cent+1 {
		t.Fatalf("M %+v", mm)
	}
	if liab, in := total(); liab != liab0 || in != in0 {
		t.Fatalf("liabilities %d -> %d, funding %d -> %d", liab0, liab, in0, in)
	}
	// The closed level refuses everything.
	for _, op := range []Op{
		Contribute{Levels: []string{"A"}, Bet: 1, Where: "m"},
		Hit{Level: "A", Bet: 100, Where: "m"},
		Fund{Level: "A", Amount: cent, Who: "x", Why: "y"},
		Transfer{From: "B", To: "A", All: true, Who: "x", Why: "y"},
	} {
		if _, err := p.Apply(op); !errors.Is(err, ErrClosed) {
			t.Errorf("%+v on a closed level: %v", op, err)
		}
	}
	if log := p.Transfers(); len(log) != 2 || log[0].Who != "inspector 7" || log[1].Why != "bank closed" || !log[1].Closed {
		t.Fatalf("transfer log %+v", log)
	}
	// The next contribution (1 millicent) reaches M's target.
	r = mustApply(t, &p, Contribute{Levels: []string{"M"}, Bet: 1, Where: "m9", Game: 4})
	if len(r.Claims) != 1 || r.Claims[0].Where != "m9" {
		t.Fatalf("claims %+v", r.Claims)
	}
	// Refusals: pending level, no who/why, too much, to itself.
	for _, op := range []Op{
		Transfer{From: "M", To: "B", All: true, Who: "x", Why: "y"},
		Transfer{From: "B", To: "M", All: true, Who: "x", Why: "y"},
		Transfer{From: "B", To: "A", All: true, Who: "", Why: "y"},
		Transfer{From: "B", To: "B", All: true, Who: "x", Why: "y"},
		Transfer{From: "B", To: "M", Current: 81 * cent, Who: "x", Why: "y"},
		Transfer{From: "B", To: "M", Current: 1, All: true, Who: "x", Why: "y"},
		Transfer{From: "B", To: "M", Current: 1, Close: true, Who: "x", Why: "y"},
	} {
		if _, err := p.Apply(op); err == nil {
			t.Errorf("%+v accepted", op)
		}
	}
}

func TestMysteryHitsExactlyAtTarget(t *testing.T) {
	var p Pools
	cfg := Config{ResetValue: 100 * cent, Cap: 200 * cent, Rate: 30_000, HiddenRate: 5_000,
		Trigger: TriggerMystery, SecondHit: SecondHitWinsReset}
	mustApply(t, &p, AddLevel{Level: "M", Config: cfg, Target: 101 * cent, Who: "t"})
	// 17 cents at 3% = 510 millicents a bet; the 2nd bet reaches 101 cents.
	r := mustApply(t, &p, Contribute{Levels: []string{"M"}, Bet: 17, Where: "a", Game: 1})
	if len(r.Claims) != 0 {
		t.Fatal("hit too early")
	}
	r = mustApply(t, &p, Contribute{Levels: []string{"M"}, Bet: 17, Where: "b", Game: 2, At: 55})
	if len(r.Claims) != 1 || r.Claims[0].Where != "b" || !r.Claims[0].Mystery || r.Claims[0].At != 55 {
		t.Fatalf("claims %+v", r.Claims)
	}
	m := meters(t, &p, "M")
	// 1020 contributed: 1000 fill to the target, 20 go to the reserve.
	if m.Current != 101*cent || m.Reserve != 20+170 {
		t.Fatalf("at the hit: %+v", m)
	}
	// No further contribution changes the frozen value.
	r = mustApply(t, &p, Contribute{Levels: []string{"M"}, Bet: 17, Where: "c", Game: 3})
	if len(r.Claims) != 0 || meters(t, &p, "M").Current != 101*cent {
		t.Fatalf("pending value changed")
	}
	if _, err := p.Apply(Award{Level: "M"}); !errors.Is(err, ErrInvalid) {
		t.Fatalf("award without the next target: %v", err)
	}
	r = mustApply(t, &p, Award{Level: "M", Target: 150 * cent})
	if len(r.Paid) != 1 || r.Paid[0].Amount != 101*cent || r.Paid[0].Where != "b" {
		t.Fatalf("paid %+v", r.Paid)
	}
}

// A mystery level whose target equals its reset value hits on the very next
// contribution, even one that adds less than a millicent.
func TestMysteryTargetAtReset(t *testing.T) {
	var p Pools
	cfg := Config{ResetValue: 5 * cent, Cap: 5 * cent, Rate: 1, Trigger: TriggerMystery, SecondHit: SplitAmount}
	mustApply(t, &p, AddLevel{Level: "M", Config: cfg, Target: 5 * cent, Who: "t"})
	r := mustApply(t, &p, Contribute{Levels: []string{"M"}, Bet: 1, Where: "m"})
	if len(r.Claims) != 1 {
		t.Fatalf("claims %+v", r.Claims)
	}
}

// Mystery levels always hit at or before the cap: for a steady stream of
// equal bets, the hit comes no later than the first bet after which the
// exact contributions since the reset cover cap - reset.
func TestMysteryAlwaysHitsByCap(t *testing.T) {
	src := rng.NewSeeded(17)
	for trial := range 40 {
		cfg := Config{
			ResetValue: int64(src.Uint64n(1000)) * cent,
			Rate:       1 + int64(src.Uint64n(100_000)),
			HiddenRate: int64(src.Uint64n(10_000)),
			Trigger:    TriggerMystery,
			SecondHit:  SplitAmount,
		}
		cfg.Cap = cfg.ResetValue + int64(src.Uint64n(2000))*cent
		target, err := DrawTarget(cfg, src)
		if err != nil {
			t.Fatal(err)
		}
		var p Pools
		mustApply(t, &p, AddLevel{Level: "M", Config: cfg, Target: target, Who: "t"})
		bet := 1 + int64(src.Uint64n(500))
		for resets := 0; resets < 20; resets++ {
			sinceReset := int64(0) // exact, in 1/1000 millicent
			for k := 1; ; k++ {
				r := mustApply(t, &p, Contribute{Levels: []string{"M"}, Bet: bet, Where: "m", Game: uint64(k)})
				sinceReset += bet * cfg.Rate
				m := meters(t, &p, "M")
				if m.Current > cfg.Cap {
					t.Fatalf("trial %d: current %d above cap %d", trial, m.Current, cfg.Cap)
				}
				if len(r.Claims) == 1 {
					if m.Current != target || target > cfg.Cap || target < cfg.ResetValue {
						t.Fatalf("trial %d: hit at %d, target %d, range [%d, %d]", trial, m.Current, target, cfg.ResetValue, cfg.Cap)
					}
					break
				}
				if sinceReset/carryModulo >= cfg.Cap-cfg.ResetValue {
					t.Fatalf("trial %d: %d millicents contributed since reset, no hit by cap %d (reset %d)",
						trial, sinceReset/carryModulo, cfg.Cap, cfg.ResetValue)
				}
			}
			if target, err = DrawTarget(cfg, src); err != nil {
				t.Fatal(err)
			}
			r := mustApply(t, &p, Award{Level: "M", Target: target})
			if r.Paid[0].Amount > cfg.Cap {
				t.Fatalf("paid %d above cap", r.Paid[0].Amount)
			}
		}
	}
}

func TestDrawTargetUniform(t *testing.T) {
	cfg := Config{ResetValue: 100 * cent, Cap: 110 * cent, Rate: 1, Trigger: TriggerMystery, SecondHit: SplitAmount}
	src := rng.NewSeeded(3)
	counts := map[int64]int{}
	const n = 110_000
	for range n {
		v, err := DrawTarget(cfg, src)
		if err != nil {
			t.Fatal(err)
		}
		if v < cfg.ResetValue || v > cfg.Cap || v%cent != 0 {
			t.Fatalf("target %d outside [%d, %d] or not whole cents", v, cfg.ResetValue, cfg.Cap)
		}
		counts[v]++
	}
	if len(counts) != 11 {
		t.Fatalf("%d distinct targets, want 11 (every cent from reset to cap)", len(counts))
	}
	for v, c := range counts {
		if c < 9_400 || c > 10_600 { // 10,000 expected, sd ~95
			t.Errorf("target %d drawn %d times, want about 10000", v, c)
		}
	}
	if _, err := DrawTarget(paytable(0, 0, 1, 0, SplitAmount), src); err == nil {
		t.Error("DrawTarget on a paytable level")
	}
}

func TestConfigValidate(t *testing.T) {
	good := Config{ResetValue: 10 * cent, Cap: 20 * cent, Rate: 10, HiddenRate: 5, Trigger: TriggerMystery, SecondHit: SplitAmount}
	if err := good.Validate(); err != nil {
		t.Fatal(err)
	}
	for name, mutate := range map[string]func(*Config){
		"reset not whole cents": func(c *Config) { c.ResetValue++ },
		"negative reset":        func(c *Config) { c.ResetValue = -cent },
		"zero rate":             func(c *Config) { c.Rate = 0 },
		"rates above 100%":      func(c *Config) { c.Rate, c.HiddenRate = PPM, 1 },
		"negative hidden":       func(c *Config) { c.HiddenRate = -1 },
		"cap below reset":       func(c *Config) { c.Cap = 5 * cent },
		"cap not whole cents":   func(c *Config) { c.Cap++ },
		"mystery without cap":   func(c *Config) { c.Cap = 0 },
		"mystery min hit bet":   func(c *Config) { c.MinHitBet = 1 },
		"no trigger":            func(c *Config) { c.Trigger = 0 },
		"no second-hit rule":    func(c *Config) { c.SecondHit = 0 },
		"huge reset":            func(c *Config) { c.ResetValue, c.Cap = MaxAmount+cent, 0; c.Trigger = TriggerPaytable },
	} {
		c := good
		mutate(&c)
		if err := c.Validate(); !errors.Is(err, ErrInvalid) {
			t.Errorf("%s: %v", name, err)
		}
	}
}

// A refused op leaves the state exactly as it was.
func TestRefusedOpChangesNothing(t *testing.T) {
	p := fixture(t)
	before, err := p.MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	for _, op := range []Op{
		Contribute{Levels: []string{"grand", "nope"}, Bet: 100, Where: "m"}, // second level unknown
		Contribute{Levels: []string{"grand", "grand"}, Bet: 100, Where: "m"},
		Contribute{Levels: []string{"grand"}, Bet: 0, Where: "m"},
		Contribute{Levels: []string{"grand"}, Bet: MaxBet + 1, Where: "m"},
		Contribute{Levels: nil, Bet: 100, Where: "m"},
		Contribute{Levels: []string{"grand"}, Bet: 100, Where: "\xff"},
		Fund{Level: "grand", Amount: 1, Who: "x", Why: "y"},
		Fund{Level: "grand", Amount: -cent, Who: "x", Why: "y"},
		Transfer{From: "grand", To: "minor", Reserve: 1 << 62, Who: "x", Why: "y"},
		&Contribute{Levels: []string{"grand"}, Bet: 100, Where: "m"},
		nil,
	} {
		if _, err := p.Apply(op); err == nil {
			t.Errorf("%+v accepted", op)
		}
		after, err := p.MarshalBinary()
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(before, after) {
			t.Fatalf("refused %+v changed the state", op)
		}
	}
}

// Check catches a broken identity, a lost carry and negative meters.
func TestCheckDetectsCorruption(t *testing.T) {
	for name, corrupt := range map[string]func(l *level){
		"value +1 millicent": func(l *level) { l.m.Current++ },
		"reserve -1":         func(l *level) { l.m.Reserve-- },
		"carry lost":         func(l *level) { l.carryMain = (l.carryMain + 1) % carryModulo },
		"bets changed":       func(l *level) { l.m.QualifyingBets++ },
		"negative overflow":  func(l *level) { l.m.Overflow, l.m.Reserve = -5, l.m.Reserve+5 },
		"awarded sub-cent":   func(l *level) { l.m.Awarded, l.m.Reserve = l.m.Awarded+1, l.m.Reserve-1 },
	} {
		p := fixture(t)
		corrupt(p.levels[0])
		if err := p.Check(); !errors.Is(err, ErrIdentity) {
			t.Errorf("%s: Check = %v", name, err)
		}
		if _, err := p.MarshalBinary(); err == nil {
			t.Errorf("%s: MarshalBinary accepted a broken state", name)
		}
	}
	// Transfers that do not cancel between levels.
	p := fixture(t)
	p.levels[0].m.TransferredIn++
	p.levels[0].m.SeedFunding-- // the level balances, the pools do not
	if err := p.Check(); !errors.Is(err, ErrIdentity) || !strings.Contains(err.Error(), "transfers in") {
		t.Errorf("unbalanced transfers: %v", err)
	}
	// Value moved between levels outside a transfer: the totals still
	// balance, each level does not.
	p = fixture(t)
	p.levels[0].m.Current++
	p.levels[1].m.Current--
	if err := p.Check(); !errors.Is(err, ErrIdentity) || !strings.Contains(err.Error(), `level "grand"`) {
		t.Errorf("value moved between levels: %v", err)
	}
}

func TestDisplay(t *testing.T) {
	var p Pools
	mustApply(t, &p, AddLevel{Level: "L", Config: paytable(12_34*cent, 0, 999, 0, SplitAmount), Who: "t"})
	mustApply(t, &p, Contribute{Levels: []string{"L"}, Bet: 1_00, Where: "m"}) // +99.9 millicents
	if c, err := p.DisplayCents("L"); err != nil || c != 12_34 {
		t.Fatalf("DisplayCents = %d, %v", c, err)
	}
	for mc, want := range map[int64]int64{0: 0, 999: 0, 1000: 1, 1999: 1, -1: -1, -1000: -1, -1001: -2} {
		if got := Cents(mc); got != want {
			t.Errorf("Cents(%d) = %d, want %d", mc, got, want)
		}
	}
	if _, err := p.DisplayCents("nope"); !errors.Is(err, ErrUnknownLevel) {
		t.Error(err)
	}
}

// A clone is independent: every op applied to it leaves the original's
// encoding unchanged, and the clone's encoding equals the original's at the
// moment of cloning.
func TestCloneIsIndependent(t *testing.T) {
	p := &Pools{}
	mustApply(t, p, AddLevel{Level: "1", Config: paytable(1000*cent, 0, 10_000, 2_000, SecondHitWinsReset), Who: "op", At: 1})
	myst := Config{ResetValue: 100 * cent, Cap: 200 * cent, Rate: 50_000, Trigger: TriggerMystery, SecondHit: SecondHitWinsReset}
	mustApply(t, p, AddLevel{Level: "m", Config: myst, Target: 150 * cent, Who: "op", At: 1})
	mustApply(t, p, Contribute{Levels: []string{"1", "m"}, Bet: 333, Where: "a", Game: 1, At: 2})
	before, _ := p.MarshalBinary()

	c := p.Clone()
	if cb, _ := c.MarshalBinary(); !bytes.Equal(cb, before) {
		t.Fatal("clone differs from the original")
	}
	mustApply(t, c, Contribute{Levels: []string{"1", "m"}, Bet: 200_000, Where: "a", Game: 2, At: 3})
	mustApply(t, c, Hit{Level: "1", Bet: 500, Where: "a", Game: 3, At: 4})
	mustApply(t, c, Award{Level: "1", At: 5})
	mustApply(t, c, Award{Level: "m", Target: 120 * cent, At: 5})
	mustApply(t, c, Transfer{From: "m", To: "1", All: true, Who: "op", Why: "test", At: 6})
	if after, _ := p.MarshalBinary(); !bytes.Equal(after, before) {
		t.Fatal("ops on the clone changed the original")
	}
	if err := p.Check(); err != nil {
		t.Fatal(err)
	}
}
