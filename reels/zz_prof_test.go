package reels
import "testing"
func BenchmarkTmpSim(b *testing.B) {
	p := fiveLine(b)
	for b.Loop() {
		p.Simulate(1<<21, 0, 1, 1)
	}
}
