package tableledger

import (
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/openegm/cabinet/book"
	"github.com/openegm/cabinet/poker"
)

// coupSpans are the steps of each coup of a session: from the step that
// starts it to the one that ends or voids it.
func coupSpans(steps []Step) [][2]int {
	var spans [][2]int
	start := -1
	for i, x := range steps {
		for _, r := range x.Records {
			switch r.Kind {
			case poker.KindHandStart:
				start = i
			case poker.KindHandEnd, poker.KindVoid:
				if start >= 0 {
					spans = append(spans, [2]int{start, i})
					start = -1
				}
			}
		}
	}
	return spans
}

func micros(d []time.Duration, p float64) float64 {
	s := slices.Clone(d)
	slices.Sort(s)
	return float64(s[int(float64(len(s)-1)*p)].Microseconds())
}

// BenchmarkCheminCoupCommit is a chemin de fer coup committed as the table
// server commits it: each of its steps (the deal, every decision, the
// result) folded, written with its signed mark and fsynced, the board's
// witness written, before the next is shown. An op is one coup of the
// shipped 6-deck definition, played by random legal decisions. Its
// physical limit is measured in the same run on the same file system: one
// write and one fsync per step of the same size (the step, its frame and
// its mark). ratio-p50 is the coup's p50 over the limit's.
func BenchmarkCheminCoupCommit(b *testing.B) {
	var o SessionOpen
	var steps []Step
	var spans [][2]int
	for n := 40*b.N + 40; len(spans) < b.N; n *= 2 {
		o, steps = cheminPlay(b, n, cheminPlan{seed: 7})
		spans = coupSpans(steps)
	}
	board := b.TempDir()
	w, err := book.OpenFileWitness(filepath.Join(board, "witness"))
	if err != nil {
		b.Fatal(err)
	}
	defer w.Close()
	led, _, err := Open(filepath.Join(b.TempDir(), "ledger"), Options{Keys: book.FileKeys{Dir: board}, Witness: w})
	if err != nil {
		b.Fatal(err)
	}
	defer led.Close()
	raw, err := os.Create(filepath.Join(b.TempDir(), "raw"))
	if err != nil {
		b.Fatal(err)
	}
	defer raw.Close()
	rec, err := led.Commit(o)
	if err != nil {
		b.Fatal(err)
	}
	commit := func(x Step) {
		x.Opened = rec.Seq
		if _, err := led.Commit(x); err != nil {
			b.Fatal(err)
		}
	}
	var coup, limit []time.Duration
	var nsteps, bytes int
	next := 0
	b.ResetTimer()
	for i := range b.N {
		b.StopTimer()
		sp := spans[i]
		for ; next < sp[0]; next++ { // the steps between coups
			commit(steps[next])
		}
		b.StartTimer()
		t0 := time.Now()
		for ; next <= sp[1]; next++ {
			commit(steps[next])
		}
		coup = append(coup, time.Since(t0))
		b.StopTimer()
		var lim time.Duration
		for _, x := range steps[sp[0] : sp[1]+1] {
			x.Opened = rec.Seq
			enc, err := Encode(x)
			if err != nil {
				b.Fatal(err)
			}
			buf := make([]byte, len(enc)+64+96) // the step, its frame and its mark
			t0 := time.Now()
			if _, err := raw.Write(buf); err != nil {
				b.Fatal(err)
			}
			if err := raw.Sync(); err != nil {
				b.Fatal(err)
			}
			lim += time.Since(t0)
			nsteps++
			bytes += len(buf)
		}
		limit = append(limit, lim)
		b.StartTimer()
	}
	b.StopTimer()
	b.ReportMetric(micros(coup, 0.5), "coup-p50-µs")
	b.ReportMetric(micros(coup, 0.99), "coup-p99-µs")
	b.ReportMetric(micros(limit, 0.5), "limit-p50-µs")
	b.ReportMetric(micros(limit, 0.99), "limit-p99-µs")
	b.ReportMetric(micros(coup, 0.5)/max(micros(limit, 0.5), 1), "ratio-p50")
	b.ReportMetric(float64(nsteps)/float64(b.N), "steps/coup")
	b.ReportMetric(float64(bytes)/float64(b.N), "bytes/coup")
	b.ReportMetric(0, "ns/op")
}
