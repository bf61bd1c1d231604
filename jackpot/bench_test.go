package jackpot

import (
	"testing"

	"github.com/openegm/cabinet/rng"
)

// The link controller must take 2,000 machines at one game every 3 s:
// about 667 Contribute ops a second, each feeding every level of the link.

func benchPools(b *testing.B) (*Pools, []string, *rng.RNG) {
	b.Helper()
	src := rng.NewSeeded(1)
	p := &Pools{}
	mystery := Config{ResetValue: 50_00 * cent, Cap: 500_00 * cent, Rate: 2_000, HiddenRate: 500, Trigger: TriggerMystery, SecondHit: SplitAmount}
	target, _ := DrawTarget(mystery, src)
	for _, op := range []Op{
		AddLevel{Level: "grand", Config: paytable(100_000_00*cent, 0, 5_000, 1_000, SecondHitWinsReset), Who: "t"},
		AddLevel{Level: "major", Config: paytable(5_000_00*cent, 20_000_00*cent, 10_000, 2_000, SplitAmount), Who: "t"},
		AddLevel{Level: "minor", Config: paytable(500_00*cent, 2_000_00*cent, 10_000, 0, SplitAmount), Who: "t"},
		AddLevel{Level: "mini", Config: mystery, Target: target, Who: "t"},
	} {
		mustApply(b, p, op)
	}
	return p, []string{"grand", "major", "minor", "mini"}, src
}

func benchContribute(b *testing.B, levels int, logged bool) {
	p, ids, src := benchPools(b)
	ids = ids[len(ids)-levels:]
	mini, _ := p.Level("mini")
	var game uint64
	for b.Loop() {
		game++
		op := Contribute{Levels: ids, Bet: 1 + int64(game%500), Where: "m-1234", Game: game, At: int64(game)}
		if logged {
			rec, err := MarshalOp(op)
			if err != nil {
				b.Fatal(err)
			}
			if _, err := UnmarshalOp(rec); err != nil {
				b.Fatal(err)
			}
		}
		r, err := p.Apply(op)
		if err != nil {
			b.Fatal(err)
		}
		for _, c := range r.Claims { // mystery hit: confirm at once
			t, _ := DrawTarget(mini.Config, src)
			if _, err := p.Apply(Award{Level: c.Level, Target: t}); err != nil {
				b.Fatal(err)
			}
		}
	}
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "ops/s")
	if err := p.Check(); err != nil {
		b.Fatal(err)
	}
}

// One Contribute op feeding the four levels of a link.
func BenchmarkContribute4Levels(b *testing.B) { benchContribute(b, 4, false) }

// One Contribute op feeding one level.
func BenchmarkContribute1Level(b *testing.B) { benchContribute(b, 1, false) }

// With the op encoded and decoded as the ledger would.
func BenchmarkContribute4LevelsLogged(b *testing.B) { benchContribute(b, 4, true) }

func BenchmarkMarshalState(b *testing.B) {
	p := fixture(b)
	for b.Loop() {
		if _, err := p.MarshalBinary(); err != nil {
			b.Fatal(err)
		}
	}
}
