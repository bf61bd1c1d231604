package jackpot

import (
	"bytes"
	"errors"
	"fmt"
	"math/big"
	"reflect"
	"testing"

	"github.com/openegm/cabinet/rng"
)

// gen produces random op streams over a Pools: mostly valid ops chosen from
// the current state (bets on random subsets of levels, hits, awards with
// freshly drawn mystery targets, transfers, funding, new levels), plus some
// invalid ones that Apply must refuse without changing anything.
type gen struct {
	src   *rng.RNG
	nextL int
	t     int64
}

func (g *gen) n(k int) int { return int(g.src.Uint64n(uint64(k))) }

func (g *gen) config() Config {
	c := Config{
		ResetValue: int64(g.n(5000)) * cent,
		Rate:       1 + int64(g.n(200_000)),
		Trigger:    TriggerPaytable,
		SecondHit:  SecondHitRule(1 + g.n(2)),
	}
	if g.n(2) == 0 {
		c.HiddenRate = int64(g.n(50_000))
	}
	if g.n(3) == 0 {
		c.Trigger = TriggerMystery
		c.Cap = c.ResetValue + int64(g.n(3000))*cent
	} else {
		c.MinHitBet = int64(g.n(300))
		if g.n(2) == 0 {
			c.Cap = c.ResetValue + int64(g.n(3000))*cent
		}
	}
	return c
}

func (g *gen) addLevel() AddLevel {
	g.nextL++
	c := g.config()
	o := AddLevel{Level: fmt.Sprintf("L%d", g.nextL), Config: c, Who: "tech", At: g.t}
	if c.Trigger == TriggerMystery {
		o.Target, _ = DrawTarget(c, g.src)
	}
	return o
}

func (g *gen) bet() int64 {
	switch g.n(20) {
	case 0:
		return 1 + int64(g.n(1_000_000))
	case 1:
		return 1
	}
	return 1 + int64(g.n(500))
}

// next returns the next op for p.
func (g *gen) next(p *Pools) Op {
	op, _ := g.nextOp(p)
	return op
}

// nextOp returns the next op for p and whether Apply must accept it.
func (g *gen) nextOp(p *Pools) (op Op, valid bool) {
	g.t += int64(1 + g.n(3_000_000_000))
	var open, idle, pending, hittable []*level
	for _, l := range p.levels {
		if l.closed {
			continue
		}
		open = append(open, l)
		if len(l.claims) > 0 {
			pending = append(pending, l)
		} else {
			idle = append(idle, l)
		}
		if l.cfg.Trigger == TriggerPaytable && len(l.claims) < MaxClaims {
			hittable = append(hittable, l)
		}
	}
	if len(open) < 3 && len(p.levels) < MaxLevels {
		return g.addLevel(), true
	}
	where := fmt.Sprintf("m%d", g.n(2000))
	switch k := g.n(100); {
	case k < 70:
		o := Contribute{Bet: g.bet(), Where: where, Game: uint64(g.n(1 << 30)), At: g.t}
		for _, l := range open {
			if g.n(2) == 0 {
				o.Levels = append(o.Levels, l.id)
			}
		}
		if len(o.Levels) == 0 {
			o.Levels = []string{open[g.n(len(open))].id}
		}
		return o, true
	case k < 78 && len(hittable) > 0:
		l := hittable[g.n(len(hittable))]
		return Hit{Level: l.id, Bet: max(l.cfg.MinHitBet, 1) + int64(g.n(50)), Where: where, Game: uint64(g.n(1 << 30)), At: g.t}, true
	case k < 88 && len(pending) > 0:
		l := pending[g.n(len(pending))]
		o := Award{Level: l.id, At: g.t}
		if l.cfg.Trigger == TriggerMystery {
			o.Target, _ = DrawTarget(l.cfg, g.src)
		}
		return o, true
	case k < 91 && len(idle) > 1:
		a, b := idle[g.n(len(idle))], idle[g.n(len(idle))]
		for a == b {
			b = idle[g.n(len(idle))]
		}
		o := Transfer{From: a.id, To: b.id, Who: "inspector", Why: "force majeure", At: g.t}
		if g.n(3) == 0 {
			o.All = true
			o.Close = g.n(2) == 0
		} else {
			o.Current = int64(g.n(int(min(a.m.Current, 1<<40)) + 1))
			o.Reserve = int64(g.n(int(min(a.m.Reserve, 1<<40)) + 1))
			o.Overflow = int64(g.n(int(min(a.m.Overflow, 1<<40)) + 1))
		}
		return o, o.Close || o.Current+o.Reserve+o.Overflow > 0 || (o.All && a.m.Current+a.m.Reserve+a.m.Overflow > 0)
	case k < 93:
		return Fund{Level: open[g.n(len(open))].id, Amount: int64(1+g.n(10_000)) * cent, Who: "cfo", Why: "prefund", At: g.t}, true
	case k < 94 && len(p.levels) < 12:
		return g.addLevel(), true
	}
	// Invalid (or at least doubtful) ops.
	id := open[g.n(len(open))].id
	switch g.n(7) {
	case 0:
		return Contribute{Levels: []string{id, "ghost"}, Bet: 10, Where: where}, false
	case 1:
		return Contribute{Levels: []string{id}, Bet: -int64(g.n(100)), Where: where}, false
	case 2:
		return Hit{Level: id, Bet: int64(g.n(100)), Where: where}, false // may be below MinHitBet, or a mystery level
	case 3:
		return Award{Level: id, Target: int64(g.n(3)) * cent}, false // may have no hit or a wrong target
	case 4:
		return Transfer{From: id, To: id, All: true, Who: "x", Why: "y"}, false
	case 5:
		return Fund{Level: id, Amount: int64(g.n(2000)), Who: "x", Why: "y"}, false
	}
	return AddLevel{Level: id, Config: g.config(), Who: "x"}, false
}

// model is an independent account of what the pools should hold, kept with
// math/big from the op stream and the results alone.
type model struct {
	owed    map[string]*big.Int // sum of bet*rate over qualifying bets, 1/1000 millicent
	hidden  map[string]*big.Int // same for the hidden rate
	targets map[string]int64    // committed mystery target
	paid    map[string]int64
}

func newModel() *model {
	return &model{owed: map[string]*big.Int{}, hidden: map[string]*big.Int{}, targets: map[string]int64{}, paid: map[string]int64{}}
}

func mul(a, b int64) *big.Int { return new(big.Int).Mul(big.NewInt(a), big.NewInt(b)) }

// observe checks one applied op against the model and the state.
func (md *model) observe(t *testing.T, p *Pools, op Op, r Result) {
	t.Helper()
	claimed := map[string]bool{}
	for _, c := range r.Claims {
		claimed[c.Level] = true
	}
	switch o := op.(type) {
	case AddLevel:
		md.owed[o.Level], md.hidden[o.Level] = new(big.Int), new(big.Int)
		md.targets[o.Level] = o.Target
	case Contribute:
		for _, id := range o.Levels {
			v, _ := p.Level(id)
			md.owed[id].Add(md.owed[id], mul(o.Bet, v.Config.Rate))
			md.hidden[id].Add(md.hidden[id], mul(o.Bet, v.Config.HiddenRate))
			if v.Config.Trigger != TriggerMystery {
				continue
			}
			// A mystery level hits exactly when its value reaches the
			// committed target, and only then.
			switch {
			case claimed[id] && v.Meters.Current != md.targets[id]:
				t.Fatalf("mystery %q hit at %d, target %d", id, v.Meters.Current, md.targets[id])
			case !claimed[id] && len(v.Pending) == 0 && v.Meters.Current >= md.targets[id]:
				t.Fatalf("mystery %q reached %d >= target %d without a hit", id, v.Meters.Current, md.targets[id])
			}
		}
	case Award:
		v, _ := p.Level(o.Level)
		for _, pay := range r.Paid {
			if pay.Amount%cent != 0 || pay.Amount < 0 {
				t.Fatalf("award %d is not whole cents", pay.Amount)
			}
			if v.Config.Trigger == TriggerMystery && pay.Amount != md.targets[o.Level] {
				t.Fatalf("mystery %q paid %d, committed target %d", o.Level, pay.Amount, md.targets[o.Level])
			}
			if v.Config.Trigger == TriggerMystery && pay.Amount > v.Config.Cap {
				t.Fatalf("mystery %q paid %d above cap %d", o.Level, pay.Amount, v.Config.Cap)
			}
			md.paid[o.Level] += pay.Amount
		}
		if v.Config.Trigger == TriggerMystery {
			md.targets[o.Level] = o.Target
		}
	}
	for id, owed := range md.owed {
		v, _ := p.Level(id)
		got := new(big.Int).Add(mul(v.Meters.Contributions-v.Meters.HiddenContributions, carryModulo), big.NewInt(v.CarryMain))
		if got.Cmp(owed) != 0 {
			t.Fatalf("level %q: contributions*1000 + carry = %v, sum of bet*rate = %v", id, got, owed)
		}
		got = new(big.Int).Add(mul(v.Meters.HiddenContributions, carryModulo), big.NewInt(v.CarryHidden))
		if got.Cmp(md.hidden[id]) != 0 {
			t.Fatalf("level %q: hidden contributions*1000 + carry = %v, sum of bet*hidden rate = %v", id, got, md.hidden[id])
		}
		if v.Meters.Awarded != md.paid[id] {
			t.Fatalf("level %q: awarded %d, payments %d", id, v.Meters.Awarded, md.paid[id])
		}
		if v.Config.Cap != 0 && v.Meters.Current > v.Config.Cap {
			t.Fatalf("level %q: value %d above cap %d", id, v.Meters.Current, v.Config.Cap)
		}
	}
}

// Random streams keep the identity after every op, lose no millicent,
// hit mystery levels exactly at their committed target (never above the
// cap), and refuse invalid ops without a trace.
func TestPropertyRandomStreams(t *testing.T) {
	ops := 0
	for seed := uint64(1); seed <= 12; seed++ {
		g := &gen{src: rng.NewSeeded(seed)}
		var p Pools
		md := newModel()
		var applied, refused, hits, mysteryHits, transfers int
		multi := map[SecondHitRule]int{}
		for range 4000 {
			op, valid := g.nextOp(&p)
			before := p.encode()
			seq := p.Seq()
			r, err := p.Apply(op)
			if err != nil {
				if valid || errors.Is(err, ErrIdentity) {
					t.Fatalf("seed %d: valid op %+v refused: %v", seed, op, err)
				}
				refused++
				if !bytes.Equal(before, p.encode()) || p.Seq() != seq {
					t.Fatalf("seed %d: refused %+v (%v) changed the state", seed, op, err)
				}
				continue
			}
			applied++
			if err := p.Check(); err != nil {
				t.Fatalf("seed %d: after %+v: %v", seed, op, err)
			}
			md.observe(t, &p, op, r)
			hits += len(r.Paid)
			if len(r.Paid) > 1 {
				v, _ := p.Level(r.Paid[0].Level)
				multi[v.Config.SecondHit]++
			}
			for _, c := range r.Claims {
				if c.Mystery {
					mysteryHits++
				}
			}
			if r.Moved != nil {
				transfers++
			}
		}
		ops += applied
		// The streams must exercise what they claim to.
		if refused == 0 || hits == 0 || mysteryHits == 0 || transfers == 0 || len(multi) != 2 {
			t.Fatalf("seed %d: weak stream: %d applied, %d refused, %d awards, %d mystery hits, %d transfers, multi-claim awards %v",
				seed, applied, refused, hits, mysteryHits, transfers, multi)
		}
	}
	t.Logf("%d ops applied", ops)
}

// A long stream of bets on one level: the contributions are exactly the sum
// of bet*rate, computed independently with math/big.
func TestNoMillicentLost(t *testing.T) {
	src := rng.NewSeeded(99)
	var p Pools
	cfgs := []Config{
		paytable(0, 0, 1, 1, SplitAmount),
		paytable(1000*cent, 0, 7_777, 3_333, SplitAmount),
		paytable(10*cent, 500*cent, 123_457, 65_432, SplitAmount),
	}
	ids := []string{"a", "b", "c"}
	for i, c := range cfgs {
		mustApply(t, &p, AddLevel{Level: ids[i], Config: c, Who: "t"})
	}
	sum := new(big.Int)
	for i := range 200_000 {
		b := 1 + int64(src.Uint64n(1000))
		if i%1000 == 0 {
			b = MaxBet
		}
		sum.Add(sum, big.NewInt(b))
		if _, err := p.Apply(Contribute{Levels: ids, Bet: b, Where: "m"}); err != nil {
			t.Fatal(err)
		}
	}
	if err := p.Check(); err != nil {
		t.Fatal(err)
	}
	for i, id := range ids {
		v, _ := p.Level(id)
		for _, part := range []struct {
			rate, contributed, carry int64
		}{
			{cfgs[i].Rate, v.Meters.Contributions - v.Meters.HiddenContributions, v.CarryMain},
			{cfgs[i].HiddenRate, v.Meters.HiddenContributions, v.CarryHidden},
		} {
			want := new(big.Int).Mul(sum, big.NewInt(part.rate))
			got := new(big.Int).Add(mul(part.contributed, carryModulo), big.NewInt(part.carry))
			if got.Cmp(want) != 0 {
				t.Fatalf("level %q rate %d: contributed %v/1000 millicents, bets*rate = %v", id, part.rate, got, want)
			}
		}
		m := v.Meters
		if m.Current+m.Overflow+m.Reserve != m.SeedFunding+m.Contributions {
			t.Fatalf("level %q: %+v", id, m)
		}
	}
}

// Replaying the logged ops (through their binary encoding) on a fresh Pools
// gives the same results and, byte for byte, the same state.
func TestReplayDeterminism(t *testing.T) {
	for seed := uint64(100); seed < 104; seed++ {
		g := &gen{src: rng.NewSeeded(seed)}
		var live Pools
		var log [][]byte
		var results []Result
		var snapshots [][]byte
		for i := range 3000 {
			op := g.next(&live)
			r, err := live.Apply(op)
			if err != nil {
				continue // the ledger logs only what was applied
			}
			rec, err := MarshalOp(op)
			if err != nil {
				t.Fatalf("MarshalOp(%+v): %v", op, err)
			}
			log = append(log, rec)
			results = append(results, r)
			if i%500 == 0 {
				snapshots = append(snapshots, live.encode())
			}
		}
		want, err := live.MarshalBinary()
		if err != nil {
			t.Fatal(err)
		}
		var replay Pools
		snap := 0
		for k, rec := range log {
			op, err := UnmarshalOp(rec)
			if err != nil {
				t.Fatalf("record %d: %v", k, err)
			}
			r, err := replay.Apply(op)
			if err != nil {
				t.Fatalf("replay of record %d (%+v): %v", k, op, err)
			}
			if !reflect.DeepEqual(r, results[k]) {
				t.Fatalf("record %d: replay result\n %+v\nlive\n %+v", k, r, results[k])
			}
			if snap < len(snapshots) && bytes.Equal(replay.encode(), snapshots[snap]) {
				snap++
			}
		}
		got, err := replay.MarshalBinary()
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got, want) {
			t.Fatalf("seed %d: replayed state differs from the live state", seed)
		}
		if snap != len(snapshots) {
			t.Fatalf("seed %d: replay passed through %d of %d intermediate states", seed, snap, len(snapshots))
		}
		// Replay from a snapshot: restore, then apply the rest of the log.
		var restored Pools
		if err := restored.UnmarshalBinary(snapshots[len(snapshots)-1]); err != nil {
			t.Fatal(err)
		}
		for _, rec := range log[restored.Seq():] {
			op, _ := UnmarshalOp(rec)
			if _, err := restored.Apply(op); err != nil {
				t.Fatal(err)
			}
		}
		if got, _ := restored.MarshalBinary(); !bytes.Equal(got, want) {
			t.Fatalf("seed %d: snapshot + log tail differs from the live state", seed)
		}
	}
}
