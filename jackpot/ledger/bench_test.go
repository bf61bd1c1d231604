package ledger

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/openegm/cabinet/jackpot"
	"github.com/openegm/cabinet/rng"
)

// The target: a casino of 2,000 machines at one game every 3 s each, about
// 667 contributions a second, each a Meters reading feeding the three local
// levels of the link (and, for half the machines, a shared level).
const benchMachines = 2000

func reportLatency(b *testing.B, durs []time.Duration, total time.Duration, perCommit int) {
	if len(durs) == 0 || total <= 0 {
		return
	}
	slices.Sort(durs)
	p := func(pct int) time.Duration { return durs[min(len(durs)-1, len(durs)*pct/100)] }
	b.ReportMetric(float64(p(50).Microseconds()), "p50-µs")
	b.ReportMetric(float64(p(99).Microseconds()), "p99-µs")
	b.ReportMetric(float64(len(durs))/total.Seconds(), "commits/s")
	b.ReportMetric(float64(len(durs)*perCommit)/total.Seconds(), "readings/s")
}

type benchLink struct {
	l     *Ledger
	coin  []int64
	games []uint64
	src   *rng.RNG
	at    int64
}

// openBench sets up the link with every machine read once (built without
// fsync), then reopens it as the controller runs: every commit synced.
func openBench(b *testing.B) *benchLink {
	b.Helper()
	dir := b.TempDir()
	l, _, err := Open(dir, Options{UnsafeNoSync: true})
	if err != nil {
		b.Fatal(err)
	}
	if _, err := l.CommitBatch(setupRecords(benchMachines, 30_00*mc)...); err != nil {
		b.Fatal(err)
	}
	bl := &benchLink{coin: make([]int64, benchMachines), games: make([]uint64, benchMachines), src: rng.NewSeeded(1)}
	var first []Record
	for i := range benchMachines {
		bl.coin[i] = int64(i) * 1000
		first = append(first, Meters{At: 1, Machine: machineID(i), CoinIn: bl.coin[i]})
	}
	if _, err := l.CommitBatch(first...); err != nil {
		b.Fatal(err)
	}
	l.Close()
	bl.l, _, err = Open(dir, Options{})
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { bl.l.Close() })
	return bl
}

// reading is the next reading of machine i: one game of 1 to 5 euros.
func (bl *benchLink) reading(i int) Meters {
	bl.at += 1_500_000
	bl.coin[i] += 100 * (1 + int64(bl.games[i]%5))
	bl.games[i]++
	return Meters{At: bl.at, Machine: machineID(i), CoinIn: bl.coin[i], GamesPlayed: bl.games[i]}
}

// award pays the mystery hits a commit reported (their own commits).
func (bl *benchLink) award(b *testing.B, res []Result) {
	for _, r := range res {
		for _, c := range r.MysteryHits {
			t, _ := jackpot.DrawTarget(miniCfg, bl.src)
			if _, err := bl.l.Commit(Award{At: bl.at, Level: c.Level, TargetMC: t}); err != nil {
				b.Fatal(err)
			}
		}
	}
}

// BenchmarkCommitMeters: one durable commit per reading.
func BenchmarkCommitMeters(b *testing.B) {
	bl := openBench(b)
	durs := make([]time.Duration, 0, b.N)
	i := 0
	start := time.Now()
	for b.Loop() {
		r := bl.reading(i % benchMachines)
		i++
		t0 := time.Now()
		res, err := bl.l.Commit(r)
		durs = append(durs, time.Since(t0))
		if err != nil {
			b.Fatal(err)
		}
		bl.award(b, []Result{res})
	}
	reportLatency(b, durs, time.Since(start), 1)
}

// BenchmarkCommitBatch: a round of readings per group commit.
func BenchmarkCommitBatch(b *testing.B) {
	for _, n := range []int{16, 64, 256} {
		b.Run(fmt.Sprint("readings=", n), func(b *testing.B) {
			bl := openBench(b)
			durs := make([]time.Duration, 0, b.N)
			recs := make([]Record, n)
			i := 0
			start := time.Now()
			for b.Loop() {
				for k := range recs {
					recs[k] = bl.reading(i % benchMachines)
					i++
				}
				t0 := time.Now()
				res, err := bl.l.CommitBatch(recs...)
				durs = append(durs, time.Since(t0))
				if err != nil {
					b.Fatal(err)
				}
				bl.award(b, res)
			}
			reportLatency(b, durs, time.Since(start), n)
		})
	}
}

// BenchmarkFold is the fold alone (no encoding, no I/O) of one reading.
func BenchmarkFold(b *testing.B) {
	s := NewState()
	for _, r := range setupRecords(benchMachines, 30_00*mc) {
		if _, err := s.Apply(r); err != nil {
			b.Fatal(err)
		}
	}
	bl := &benchLink{coin: make([]int64, benchMachines), games: make([]uint64, benchMachines), src: rng.NewSeeded(1)}
	for i := range benchMachines {
		s.Apply(Meters{Machine: machineID(i)})
	}
	i := 0
	for b.Loop() {
		res, err := s.Apply(bl.reading(i % benchMachines))
		i++
		if err != nil {
			b.Fatal(err)
		}
		for _, c := range res.MysteryHits {
			t, _ := jackpot.DrawTarget(miniCfg, bl.src)
			if _, err := s.Apply(Award{Level: c.Level, TargetMC: t}); err != nil {
				b.Fatal(err)
			}
		}
	}
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "readings/s")
}

// BenchmarkOpen is start-up with 200,000 readings in the log (a
// controller's five minutes at 667 readings a second), in group commits of
// 64: from the newest snapshot, and by a full fold of the log.
func BenchmarkOpen(b *testing.B) {
	if testing.Short() {
		b.Skip("builds a 200,000-reading log")
	}
	dir := b.TempDir()
	l, _, err := Open(dir, Options{UnsafeNoSync: true, SnapshotEvery: 1000})
	if err != nil {
		b.Fatal(err)
	}
	if _, err := l.CommitBatch(setupRecords(benchMachines, 30_00*mc)...); err != nil {
		b.Fatal(err)
	}
	bl := &benchLink{l: l, coin: make([]int64, benchMachines), games: make([]uint64, benchMachines), src: rng.NewSeeded(1)}
	recs := make([]Record, 64)
	for i := 0; i < 200_000; i += len(recs) {
		for k := range recs {
			recs[k] = bl.reading((i + k) % benchMachines)
		}
		res, err := l.CommitBatch(recs...)
		if err != nil {
			b.Fatal(err)
		}
		bl.award(b, res)
	}
	want := l.State().Fed()
	l.Close()
	for _, full := range []bool{false, true} {
		name := "snapshot"
		if full {
			name = "full-fold"
		}
		b.Run(name, func(b *testing.B) {
			opts := Options{SnapshotEvery: 1000}
			if full {
				opts.SnapshotEvery = 1 << 62
				for k := range 2 {
					os.Remove(filepath.Join(dir, fmt.Sprintf("%s%d", snapPrefix, k)))
				}
			}
			for b.Loop() {
				l, info, err := Open(dir, opts)
				if err != nil {
					b.Fatal(err)
				}
				if l.State().Fed() != want || (full && info.SnapshotSeq != 0) {
					b.Fatalf("opened %+v", info)
				}
				l.Close()
			}
		})
	}
}
