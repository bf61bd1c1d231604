package cards_test

import (
	"math/rand/v2"
	"syscall"
	"testing"
	"time"

	"github.com/openegm/cabinet/cards"
	"github.com/openegm/cabinet/cards/cardstest"
)

// randomSevens deals n random seven-card hands from the 52-card deck.
func randomSevens(n int) [][7]cards.Card {
	rnd := rand.New(rand.NewPCG(5, 6))
	d := cards.Standard52()
	hs := make([][7]cards.Card, n)
	for i := range hs {
		for j := range 7 { // a partial shuffle: the first seven cards
			k := j + rnd.IntN(len(d)-j)
			d[j], d[k] = d[k], d[j]
		}
		hs[i] = [7]cards.Card(d[:7])
	}
	return hs
}

// cpuTime is the CPU time the process has used (user and system). On a
// shared machine the wall time of a benchmark counts the time other
// processes held the cores; the CPU time counts only ours.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// reportRates adds evaluations per second of wall time and of CPU time, in
// millions.
func reportRates(b *testing.B, evals int, cpu0 time.Duration) {
	cpu := cpuTime() - cpu0
	b.ReportMetric(float64(evals)/b.Elapsed().Seconds()/1e6, "Mevals/s")
	if cpu > 0 {
		b.ReportMetric(float64(evals)/cpu.Seconds()/1e6, "Mevals/cpu-s")
	}
}

var sink cards.HandValue

// The table-driven evaluator on random seven-card hands, one core.
func BenchmarkEval7(b *testing.B) {
	hs := randomSevens(1 << 14)
	ev := cards.NewEvaluator52()
	b.ResetTimer()
	cpu0 := cpuTime()
	var acc cards.HandValue
	for i := 0; i < b.N; i++ {
		acc += ev.Eval7(&hs[i&(len(hs)-1)])
	}
	sink = acc
	reportRates(b, b.N, cpu0)
}

// The same on every core (GOMAXPROCS goroutines).
func BenchmarkEval7Parallel(b *testing.B) {
	hs := randomSevens(1 << 14)
	ev := cards.NewEvaluator52()
	b.ResetTimer()
	cpu0 := cpuTime()
	b.RunParallel(func(pb *testing.PB) {
		var acc cards.HandValue
		i := 0
		for pb.Next() {
			acc += ev.Eval7(&hs[i&(len(hs)-1)])
			i++
		}
		sink += acc
	})
	reportRates(b, b.N, cpu0)
}

// The naive evaluator in the same run: the reference's best of the 21
// five-card hands.
func BenchmarkNaive7(b *testing.B) {
	hs := randomSevens(1 << 10)
	b.ResetTimer()
	cpu0 := cpuTime()
	n := 0
	for i := 0; i < b.N; i++ {
		n += cardstest.Best52(hs[i&(len(hs)-1)][:])[0]
	}
	sink = cards.HandValue(n)
	reportRates(b, b.N, cpu0)
}

// Synthetic poker: one player's best hand (two hole cards, three of five).
func BenchmarkBestSynthetic(b *testing.B) {
	rnd := rand.New(rand.NewPCG(7, 8))
	d := cards.Portuguese28()
	type deal struct {
		hole  [2]cards.Card
		board [5]cards.Card
	}
	ds := make([]deal, 1<<12)
	for i := range ds {
		rnd.Shuffle(len(d), func(i, j int) { d[i], d[j] = d[j], d[i] })
		ds[i] = deal{[2]cards.Card(d[:2]), [5]cards.Card(d[2:7])}
	}
	ev := cards.NewEvaluator28()
	b.ResetTimer()
	cpu0 := cpuTime()
	var acc cards.HandValue
	for i := 0; i < b.N; i++ {
		x := &ds[i&(len(ds)-1)]
		acc += ev.BestSynthetic(&x.hole, &x.board)
	}
	sink = acc
	reportRates(b, b.N, cpu0)
}
