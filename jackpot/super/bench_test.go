package super

import (
	"context"
	"fmt"
	"slices"
	"sync"
	"testing"
	"time"
)

// Benchmarks run on their own three-member cluster on loopback, with fsync
// (as in production; SUPER_BENCH_NOFSYNC=1 turns it off to see the cost of
// the disk):
//
//	go test -run '^$' -bench . -benchtime 2000x ./jackpot/super/

func reportLatency(b *testing.B, lat []time.Duration) {
	b.Helper()
	if len(lat) == 0 {
		return
	}
	slices.Sort(lat)
	q := func(f float64) float64 {
		return float64(lat[min(len(lat)-1, int(f*float64(len(lat))))].Microseconds()) / 1000
	}
	b.ReportMetric(q(0.50), "p50-ms")
	b.ReportMetric(q(0.99), "p99-ms")
}

// benchStore is a store on a fresh prefix of the benchmark cluster with
// the grand level.
func benchStore(b *testing.B, controller string) *Store {
	b.Helper()
	c := benchCluster(b)
	p := fmt.Sprintf("/bench/%s/%d/", b.Name(), time.Now().UnixNano())
	s, err := New(c.Client(b), p, testKeyring{}, controller, testKey(controller))
	if err != nil {
		b.Fatal(err)
	}
	if _, err := s.Init(context.Background(), "grand", grandCfg, 0, "bench", 1); err != nil {
		b.Fatal(err)
	}
	return s
}

// BenchmarkClaim: one claim (Hit + Award in one compare-and-swap
// transaction, after a linearizable read) at a time.
func BenchmarkClaim(b *testing.B) {
	s := benchStore(b, "casino-a")
	ctx := context.Background()
	lat := make([]time.Duration, 0, b.N)
	game := uint64(0)
	for b.Loop() {
		game++
		t0 := time.Now()
		if _, err := s.Claim(ctx, HitID{Machine: "m-1", Game: game, Level: "grand", Bet: 100, At: int64(game)}, 0); err != nil {
			b.Fatal(err)
		}
		lat = append(lat, time.Since(t0))
	}
	reportLatency(b, lat)
}

// BenchmarkContribute: batches of one controller, one at a time.
func BenchmarkContribute(b *testing.B) {
	s := benchStore(b, "casino-a")
	ctx := context.Background()
	lat := make([]time.Duration, 0, b.N)
	seq := uint64(0)
	start := time.Now()
	for b.Loop() {
		seq++
		t0 := time.Now()
		if _, err := s.Contribute(ctx, Batch{Seq: seq, Bet: 12_345, At: int64(seq), Level: "grand"}); err != nil {
			b.Fatal(err)
		}
		lat = append(lat, time.Since(t0))
	}
	b.ReportMetric(float64(seq)/time.Since(start).Seconds(), "batches/s")
	reportLatency(b, lat)
}

// BenchmarkContributeContended: four controllers send batches to the same
// level at once (every batch races the others for the pools key).
func BenchmarkContributeContended(b *testing.B) {
	const controllers = 4
	s0 := benchStore(b, "casino-0")
	stores := []*Store{s0}
	for k := 1; k < controllers; k++ {
		s, err := New(benchCluster(b).Client(b), s0.Prefix(), testKeyring{}, fmt.Sprintf("casino-%d", k), testKey(fmt.Sprintf("casino-%d", k)))
		if err != nil {
			b.Fatal(err)
		}
		stores = append(stores, s)
	}
	ctx := context.Background()
	per := (b.N + controllers - 1) / controllers
	lats := make([][]time.Duration, controllers)
	b.ResetTimer()
	start := time.Now()
	var wg sync.WaitGroup
	for k, s := range stores {
		wg.Go(func() {
			for seq := uint64(1); seq <= uint64(per); seq++ {
				t0 := time.Now()
				if _, err := s.Contribute(ctx, Batch{Seq: seq, Bet: 12_345, At: int64(seq), Level: "grand"}); err != nil {
					b.Error(err)
					return
				}
				lats[k] = append(lats[k], time.Since(t0))
			}
		})
	}
	wg.Wait()
	elapsed := time.Since(start)
	b.StopTimer()
	b.ReportMetric(float64(per*controllers)/elapsed.Seconds(), "batches/s")
	var lost int64
	for _, s := range stores {
		lost += s.lost.Load()
	}
	b.ReportMetric(float64(lost)/float64(per*controllers), "lost-races/batch")
	reportLatency(b, slices.Concat(lats...))
}
