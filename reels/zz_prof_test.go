package reels
import "testing"
func BenchmarkTmpSim(b *testing.B) {
	for _, p := range []*Paytable{fiveLine(b), shipped(b, "lusitania-92")} {
	b.Run(p.ID, func(b *testing.B) {
	for b.Loop() {
		p.Simulate(1<<20, 0, 1, 1)
	}
	b.ReportMetric(float64(1<<20)*float64(b.N)/b.Elapsed().Seconds(), "games/s")
	})
	}
}
