package walog

import (
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"
)

// benchData is the size of a typical meter record: a game start with its
// meter deltas.
const benchData = 128

// reportLatency reports commit latency percentiles and commits per second.
// Floating point only in what the benchmark prints.
func reportLatency(b *testing.B, durs []time.Duration, total time.Duration) {
	if len(durs) == 0 || total <= 0 {
		return
	}
	slices.Sort(durs)
	p := func(pct int) time.Duration { return durs[min(len(durs)-1, len(durs)*pct/100)] }
	b.ReportMetric(float64(p(50).Microseconds()), "p50-µs")
	b.ReportMetric(float64(p(99).Microseconds()), "p99-µs")
	b.ReportMetric(float64(int64(len(durs))*int64(time.Second)/int64(total)), "commits/s")
}

func BenchmarkAppend(b *testing.B) { benchAppend(b, Options{Signer: testKey(1)}) }

// benchAppend times Append on a log opened with opts.
func benchAppend(b *testing.B, opts Options) {
	l, _, err := Open(b.TempDir(), opts)
	if err != nil {
		b.Fatal(err)
	}
	defer l.Close()
	data := make([]byte, benchData)
	durs := make([]time.Duration, 0, b.N)
	start := time.Now()
	for b.Loop() {
		t0 := time.Now()
		if _, err := l.Append(1, data); err != nil {
			b.Fatal(err)
		}
		durs = append(durs, time.Since(t0))
	}
	reportLatency(b, durs, time.Since(start))
}

// BenchmarkRawWriteFsync is the physical limit Append is measured against:
// the same bytes per commit appended to a plain file on the same file
// system, each followed by fsync.
func BenchmarkRawWriteFsync(b *testing.B) {
	f, err := os.Create(filepath.Join(b.TempDir(), "raw"))
	if err != nil {
		b.Fatal(err)
	}
	defer f.Close()
	buf := make([]byte, uvarintLen(frameOverhead+benchData)+frameOverhead+benchData)
	durs := make([]time.Duration, 0, b.N)
	start := time.Now()
	for b.Loop() {
		t0 := time.Now()
		if _, err := f.Write(buf); err != nil {
			b.Fatal(err)
		}
		if err := f.Sync(); err != nil {
			b.Fatal(err)
		}
		durs = append(durs, time.Since(t0))
	}
	reportLatency(b, durs, time.Since(start))
}

// BenchmarkCommitMarked is Append with the board's word: the record and
// its signed mark in one write and one fsync, as every ledger commits.
// Next to BenchmarkAppend (the record alone) and BenchmarkRawWriteFsync in
// the same run, it says what authenticating every commit costs.
func BenchmarkCommitMarked(b *testing.B) {
	benchAppend(b, Options{Signer: testKey(1), Marks: true})
}

// BenchmarkMarkSign is the signature alone (Ed25519 over the head).
func BenchmarkMarkSign(b *testing.B) {
	key := testKey(1)
	var h [32]byte
	for b.Loop() {
		if _, err := makeMark(key, 1, h); err != nil {
			b.Fatal(err)
		}
	}
}

// groupWidth is how many committers BenchmarkGroupCommit runs at once.
const groupWidth = 16

// BenchmarkGroupCommit is commit throughput with one committer and with
// groupWidth committers at once (group commit), beside its limit in the
// same run: one write and one fsync for every groupWidth commits, of the
// bytes such a write carries (their records and one mark). ratio is the
// committers' throughput over the one committer's; of-limit is theirs over
// the limit's.
func BenchmarkGroupCommit(b *testing.B) {
	data := make([]byte, benchData)
	commit := func(l *Log) error {
		bt, err := l.Begin()
		if err != nil {
			return err
		}
		if _, err := bt.Add(1, data); err != nil {
			bt.Abort()
			return err
		}
		_, err = bt.Commit()
		return err
	}
	rate := func(commits int, d time.Duration) float64 {
		return float64(commits) / d.Seconds()
	}
	n := b.N

	one, _, err := Open(b.TempDir(), Options{Signer: testKey(1), Marks: true})
	if err != nil {
		b.Fatal(err)
	}
	defer one.Close()
	t0 := time.Now()
	for range n {
		if err := commit(one); err != nil {
			b.Fatal(err)
		}
	}
	single := rate(n, time.Since(t0))

	many, _, err := Open(b.TempDir(), Options{Signer: testKey(1), Marks: true})
	if err != nil {
		b.Fatal(err)
	}
	defer many.Close()
	errs := make(chan error, groupWidth)
	t0 = time.Now()
	for range groupWidth {
		go func() {
			for range n {
				if err := commit(many); err != nil {
					errs <- err
					return
				}
			}
			errs <- nil
		}()
	}
	for range groupWidth {
		if err := <-errs; err != nil {
			b.Fatal(err)
		}
	}
	grouped := rate(groupWidth*n, time.Since(t0))
	// Every commit is one record and every write one mark, give or take
	// a checkpoint every 1000 records.
	writes := many.LastSeq() - uint64(groupWidth*n)

	f, err := os.Create(filepath.Join(b.TempDir(), "raw"))
	if err != nil {
		b.Fatal(err)
	}
	defer f.Close()
	entry := uvarintLen(frameOverhead+benchData) + frameOverhead + benchData
	mark := uvarintLen(frameOverhead+64) + frameOverhead + 64
	buf := make([]byte, groupWidth*entry+mark)
	t0 = time.Now()
	for range n {
		if _, err := f.Write(buf); err != nil {
			b.Fatal(err)
		}
		if err := f.Sync(); err != nil {
			b.Fatal(err)
		}
	}
	limit := rate(groupWidth*n, time.Since(t0))

	b.ReportMetric(single, "1-committer-commits/s")
	b.ReportMetric(grouped, "16-committers-commits/s")
	b.ReportMetric(limit, "limit-commits/s")
	b.ReportMetric(grouped/single, "ratio")
	b.ReportMetric(grouped/limit, "of-limit")
	b.ReportMetric(float64(groupWidth*n)/float64(writes), "commits/write")
}
