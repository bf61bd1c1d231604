package meters

import (
	"crypto/ed25519"
	"encoding/binary"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/openegm/cabinet/book"
	"github.com/openegm/cabinet/book/walog"
	"golang.org/x/crypto/blake2b"
)

func percentile(d []time.Duration, p float64) time.Duration {
	s := slices.Clone(d)
	slices.Sort(s)
	return s[int(float64(len(s)-1)*p)]
}

// BenchmarkCommit is the latency of one durable ledger commit (a game start,
// the record the player waits for), with p50/p99.
func BenchmarkCommit(b *testing.B) {
	l, _, err := Open(b.TempDir(), Options{})
	if err != nil {
		b.Fatal(err)
	}
	defer l.Close()
	if err := l.Commit(MoneyIn{Source: SourceBill, Cents: 50000}); err != nil {
		b.Fatal(err)
	}
	lat := make([]time.Duration, 0, b.N)
	game := uint64(0)
	for b.Loop() {
		game++
		t0 := time.Now()
		err := l.Commit(GameStart{At: 1, Game: game, Paytable: "lusitania-92", Digest: "0123456789abcdef", Denom: 1,
			BetCredits: 1, BetCents: 1, Stops: []int{12, 3, 44, 7, 19}})
		lat = append(lat, time.Since(t0))
		if err != nil {
			b.Fatal(err)
		}
		b.StopTimer()
		if err := l.Commit(GameEnd{At: 1, Game: game}); err != nil {
			b.Fatal(err)
		}
		b.StartTimer()
	}
	b.ReportMetric(float64(percentile(lat, 0.5).Microseconds()), "p50-µs")
	b.ReportMetric(float64(percentile(lat, 0.99).Microseconds()), "p99-µs")
}

// BenchmarkRawWriteFsync is the physical limit in the same run: a write of
// a record-sized buffer and an fsync on the same file system.
func BenchmarkRawWriteFsync(b *testing.B) {
	f, err := os.Create(filepath.Join(b.TempDir(), "raw"))
	if err != nil {
		b.Fatal(err)
	}
	defer f.Close()
	buf := make([]byte, 300)
	lat := make([]time.Duration, 0, b.N)
	for b.Loop() {
		t0 := time.Now()
		if _, err := f.Write(buf); err != nil {
			b.Fatal(err)
		}
		if err := f.Sync(); err != nil {
			b.Fatal(err)
		}
		lat = append(lat, time.Since(t0))
	}
	b.ReportMetric(float64(percentile(lat, 0.5).Microseconds()), "p50-µs")
	b.ReportMetric(float64(percentile(lat, 0.99).Microseconds()), "p99-µs")
}

// gamesLedger is a ledger of n games (a bill, then n commits of a game
// start and its end), built once without fsync in dir and kept there for
// later runs, with its key store beside it.
func gamesLedger(b *testing.B, n uint64, dir string) (string, book.FileKeys) {
	keys := book.FileKeys{Dir: dir + ".keys"}
	if _, err := os.Stat(filepath.Join(dir, "done")); err != nil {
		os.RemoveAll(dir)
		os.RemoveAll(keys.Dir)
		l, _, err := Open(dir, Options{UnsafeNoSync: true, Keys: keys})
		if err != nil {
			b.Fatal(err)
		}
		l.Commit(MoneyIn{Source: SourceBill, Cents: 50000})
		for g := uint64(1); g <= n; g++ {
			if err := l.Commit(GameStart{At: int64(g), Game: g, Paytable: "lusitania-92", Digest: "0123456789abcdef", Denom: 1,
				BetCredits: 20, BetCents: 20, Stops: []int{12, 3, 44, 7, 19}, WinCents: 20}, GameEnd{At: int64(g), Game: g, WinCents: 20}); err != nil {
				b.Fatal(err)
			}
		}
		l.Close()
		os.WriteFile(filepath.Join(dir, "done"), nil, 0o600)
	}
	return dir, keys
}

// benchGames is how many games BenchmarkVerifyGames logs: small by
// default, so that -bench . -benchtime 1x stays quick; OPENEGM_BENCH_GAMES
// asks for more (100000, 1000000).
func benchGames(b *testing.B) uint64 {
	n := uint64(10_000)
	if s := os.Getenv("OPENEGM_BENCH_GAMES"); s != "" {
		v, err := strconv.ParseUint(s, 10, 64)
		if err != nil || v == 0 {
			b.Fatalf("OPENEGM_BENCH_GAMES=%q: not a number of games", s)
		}
		n = v
	}
	return n
}

// BenchmarkVerifyGames is the inspector's verification of a ledger of N
// games (OPENEGM_BENCH_GAMES, default 10^4) next to its limit in the same
// run: BLAKE2b over the same log bytes, already in memory, and as many
// Ed25519 verifications as the verdict's signatures (checkpoints, seals,
// the last commit mark and the side checkpoint file). It reports both in
// ms, each the best of its runs (-benchtime 3x: three verifications; the
// limit is always the best of three), and their ratio, in wall time and in
// CPU time.
func BenchmarkVerifyGames(b *testing.B) {
	n := benchGames(b)
	dir, keys := gamesLedger(b, n, filepath.Join(os.TempDir(), fmt.Sprintf("openegm-bench-games-v5-%d", n)))
	pub, err := ReadPublicKey(filepath.Join(keys.Dir, "machine.pub"))
	if err != nil {
		b.Fatal(err)
	}
	var v *book.Verdict
	verify, verifyCPU := time.Duration(1<<63-1), time.Duration(1<<63-1)
	for b.Loop() {
		t0, c0 := time.Now(), cpuTime()
		st, vv, err := Read(dir, pub)
		verify, verifyCPU = min(verify, time.Since(t0)), min(verifyCPU, cpuTime()-c0)
		if err != nil || !vv.OK || uint64(st.Get(GamesPlayed)) != n {
			b.Fatalf("verified %+v: %v", vv, err)
		}
		v = vv
	}
	b.StopTimer()
	sigs := v.Checkpoints + v.Seals + 2
	limit, limitCPU, size := hashAndSignLimit(b, filepath.Join(dir, book.LogDir), sigs)
	b.ReportMetric(float64(verify.Microseconds())/1000, "verify-ms")
	b.ReportMetric(float64(limit.Microseconds())/1000, "limit-ms")
	b.ReportMetric(float64(verify)/float64(limit), "x-limit")
	b.ReportMetric(float64(verifyCPU)/float64(limitCPU), "x-limit-cpu")
	b.Logf("%d games, %d records, %.0f MB: verify %v (CPU %v); limit %v (CPU %v), BLAKE2b over the log's bytes + %d Ed25519 verifies; %.2f× the limit (CPU %.2f×)",
		n, v.Records, float64(size)/1e6, verify.Round(time.Millisecond), verifyCPU.Round(time.Millisecond),
		limit.Round(time.Millisecond), limitCPU.Round(time.Millisecond), sigs, float64(verify)/float64(limit), float64(verifyCPU)/float64(limitCPU))
}

// cpuTime is the CPU time the process has used (user and system, every
// thread: the garbage collector's too). Next to the wall time, it is the
// figure a machine shared with other work does not blur.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// hashAndSignLimit is the time it takes to BLAKE2b the bytes of the log's
// segment files (read beforehand: the reading is not counted) and to
// verify sigs Ed25519 signatures: what verification cannot go below.
func hashAndSignLimit(b *testing.B, logDir string, sigs int) (wall, cpu time.Duration, size int64) {
	segs, _ := readSegments(b, logDir)
	return hashLimit(b, segs, sigs)
}

// readSegments reads the segment files of a log, the archived ones
// (walog's Archive) first, and names the first record of each.
func readSegments(b *testing.B, logDir string) (segs [][]byte, starts []uint64) {
	archived, _ := filepath.Glob(filepath.Join(logDir, "archive", strings.Repeat("[0-9]", 20)))
	kept, err := filepath.Glob(filepath.Join(logDir, strings.Repeat("[0-9]", 20)))
	if err != nil {
		b.Fatal(err)
	}
	for _, path := range append(archived, kept...) {
		data, err := os.ReadFile(path)
		if err != nil {
			b.Fatal(err)
		}
		seq, err := strconv.ParseUint(filepath.Base(path), 10, 64)
		if err != nil {
			b.Fatal(err)
		}
		segs, starts = append(segs, data), append(starts, seq)
	}
	return segs, starts
}

// hashLimit is the best of three: BLAKE2b over bufs as one stream, then
// sigs Ed25519 verifications.
func hashLimit(b *testing.B, bufs [][]byte, sigs int) (wall, cpu time.Duration, size int64) {
	for _, d := range bufs {
		size += int64(len(d))
	}
	pub, priv, err := ed25519.GenerateKey(nil)
	if err != nil {
		b.Fatal(err)
	}
	msg := make([]byte, 72)
	sig := ed25519.Sign(priv, msg)
	wall, cpu = time.Duration(1<<63-1), time.Duration(1<<63-1)
	for range 3 {
		t0, c0 := time.Now(), cpuTime()
		h, _ := blake2b.New256(nil)
		for _, d := range bufs {
			h.Write(d)
		}
		var sum [32]byte
		h.Sum(sum[:0])
		for range sigs {
			if !ed25519.Verify(pub, msg, sig) {
				b.Fatal("signature does not verify")
			}
		}
		wall, cpu = min(wall, time.Since(t0)), min(cpu, cpuTime()-c0)
	}
	return wall, cpu, size
}

// BenchmarkOpenGames is start-up with N games in the log (from the sealed
// snapshots, reading the log's tail only; OPENEGM_BENCH_GAMES, default
// 10^4) next to its limit in the same run: BLAKE2b over the bytes it reads
// (both snapshot files; the log from the record after the older snapshot,
// which it checks; the last segment, which tidwall/wal reads whole to
// append after it) and the Ed25519 verifications it makes (both seals, the
// last commit mark, the side checkpoint file, the checkpoints in the
// tail). Beside it, BLAKE2b over the whole log, what start-up read before.
// Each is the best of its runs, in wall time and in CPU time (every
// thread's: what a shared machine's load does not blur).
func BenchmarkOpenGames(b *testing.B) {
	n := benchGames(b)
	dir, keys := gamesLedger(b, n, filepath.Join(os.TempDir(), fmt.Sprintf("openegm-bench-games-v5-%d", n)))
	logDir := filepath.Join(dir, book.LogDir)
	open, limit := time.Duration(1<<63-1), time.Duration(1<<63-1)
	openCPU, limitCPU := time.Duration(1<<63-1), time.Duration(1<<63-1)
	var info OpenInfo
	var read [][]byte
	var sigs int
	var size int64
	for b.Loop() {
		t0, c0 := time.Now(), cpuTime()
		l, oi, err := Open(dir, Options{Keys: keys})
		open, openCPU = min(open, time.Since(t0)), min(openCPU, cpuTime()-c0)
		if err != nil {
			b.Fatal(err)
		}
		if uint64(l.Meter(GamesPlayed)) != n || oi.SnapshotSeq == 0 || oi.ReadFrom <= 1 {
			b.Fatalf("opened %+v with %d games", oi, l.Meter(GamesPlayed))
		}
		l.Close()
		b.StopTimer()
		if read == nil {
			// What it reads: the log is the same at every start-up (no
			// record is written by an open and close).
			info = oi
			for i := range 2 {
				if data, err := os.ReadFile(filepath.Join(dir, fmt.Sprintf("snapshot-%d", i))); err == nil {
					read = append(read, data)
				}
			}
			segs, starts := readSegments(b, logDir)
			tail, checkpoints := tailOf(b, segs, starts, info.ReadFrom)
			read = append(append(read, tail...), segs[len(segs)-1])
			sigs = 2 + 1 + 1 + checkpoints
		}
		// The limit beside each start-up, so that both see the same load
		// of a shared machine.
		var w, c time.Duration
		w, c, size = hashLimit(b, read, sigs)
		limit, limitCPU = min(limit, w), min(limitCPU, c)
		b.StartTimer()
	}
	b.StopTimer()
	all, _ := readSegments(b, logDir)
	hashLog, _, logSize := hashLimit(b, all, 0)
	b.ReportMetric(float64(open.Microseconds())/1000, "open-ms")
	b.ReportMetric(float64(limit.Microseconds())/1000, "limit-ms")
	b.ReportMetric(float64(open)/float64(limit), "x-limit")
	b.ReportMetric(float64(openCPU)/float64(limitCPU), "x-limit-cpu")
	b.ReportMetric(float64(open)/float64(hashLog), "x-hash-log")
	b.Logf("%d games: open %v (CPU %v), reading the log from record %d of %d (%d replayed); limit %v (CPU %v): BLAKE2b over the %.2f MB it reads + %d Ed25519 verifies, %.2f× (CPU %.2f×); BLAKE2b over the whole log (%.0f MB) %v, %.3f×",
		n, open.Round(time.Microsecond), openCPU.Round(time.Microsecond), info.ReadFrom, info.LastSeq, info.Replayed, limit.Round(time.Microsecond),
		limitCPU.Round(time.Microsecond), float64(size)/1e6, sigs, float64(open)/float64(limit), float64(openCPU)/float64(limitCPU),
		float64(logSize)/1e6, hashLog.Round(time.Microsecond), float64(open)/float64(hashLog))
}

// tailOf is the part of the log's segments from record from on (what
// start-up from the snapshots reads and checks), and how many checkpoints
// it holds.
func tailOf(b *testing.B, segs [][]byte, starts []uint64, from uint64) (tail [][]byte, checkpoints int) {
	for i, seg := range segs {
		if len(tail) > 0 {
			tail = append(tail, seg) // a segment after the tail's first
		}
		for pos, seq := 0, starts[i]; pos < len(seg); seq++ {
			v, k := binary.Uvarint(seg[pos:])
			if k <= 0 {
				b.Fatalf("segment %d: no entry at %d", starts[i], pos)
			}
			if seq == from {
				tail = append(tail, seg[pos:])
			}
			if seq >= from && binary.BigEndian.Uint16(seg[pos+k+9:]) == walog.TypeCheckpoint {
				checkpoints++
			}
			pos += k + int(v)
		}
	}
	return tail, checkpoints
}
