package walog

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"os/signal"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// The crash and disk-full tests run a writer in a child process: the test
// binary itself, re-executed into TestHelperWriter. The child prints
// "ACK <seq>" after each Append that returned a durable record.
const (
	helperEnv    = "WALOG_HELPER"
	helperDirEnv = "WALOG_DIR"

	crashSegment = 64 << 10
	crashEvery   = 10

	diskFullLimit = 64 << 10
)

func helperCmd(mode, dir string) *exec.Cmd {
	cmd := exec.Command(os.Args[0], "-test.run=^TestHelperWriter$", "-test.count=1")
	cmd.Env = append(os.Environ(), helperEnv+"="+mode, helperDirEnv+"="+dir)
	return cmd
}

func TestHelperWriter(t *testing.T) {
	mode := os.Getenv(helperEnv)
	if mode == "" {
		t.Skip("the writer process of the crash and disk-full tests")
	}
	dir := os.Getenv(helperDirEnv)
	switch mode {
	case "crash":
		helperCrash(dir)
	case "diskfull":
		helperDiskFull(dir)
	case "groupcrash":
		helperGroupCrash(dir)
	default:
		fmt.Printf("ERR unknown mode %q\n", mode)
		os.Exit(2)
	}
}

func helperFail(format string, args ...any) {
	fmt.Printf("ERR "+format+"\n", args...)
	os.Exit(3)
}

// helperCrash appends until it is killed.
func helperCrash(dir string) {
	l, _, err := Open(dir, Options{Signer: testKey(1), CheckpointEvery: crashEvery, SegmentSize: crashSegment})
	if err != nil {
		helperFail("open: %v", err)
	}
	deadline := time.Now().Add(30 * time.Second) // never outlive a broken parent
	for time.Now().Before(deadline) {
		seq := l.LastSeq() + 1
		rec, err := l.Append(typeFor(seq), payloadFor(seq))
		if err != nil {
			helperFail("append seq %d: %v", seq, err)
		}
		if rec.Seq != seq {
			helperFail("append returned seq %d, want %d", rec.Seq, seq)
		}
		fmt.Printf("ACK %d\n", rec.Seq) // os.Stdout is unbuffered: one write per line
	}
	helperFail("not killed within 30s")
}

// groupWriters commit at once in the group crash test, so that nearly
// every write carries several commits when the kill comes.
const groupWriters = 8

// groupOpts is the log of the group crash test: commits with marks.
func groupOpts() Options {
	return Options{Signer: testKey(1), CheckpointEvery: crashEvery, SegmentSize: crashSegment, Marks: true}
}

// helperGroupCrash commits from groupWriters goroutines until it is
// killed, each commit of one or three seq-derived records, and prints ACK
// for every record of a commit that returned.
func helperGroupCrash(dir string) {
	l, _, err := Open(dir, groupOpts())
	if err != nil {
		helperFail("open: %v", err)
	}
	deadline := time.Now().Add(30 * time.Second) // never outlive a broken parent
	for w := range groupWriters {
		go func() {
			for i := 0; time.Now().Before(deadline); i++ {
				b, err := l.Begin()
				if err != nil {
					helperFail("begin: %v", err)
				}
				n := 1 + 2*((w+i)%2)
				for range n {
					seq := b.seq + 1
					if _, err := b.Add(typeFor(seq), payloadFor(seq)); err != nil {
						helperFail("add seq %d: %v", seq, err)
					}
				}
				recs, err := b.Commit()
				if err != nil {
					helperFail("commit: %v", err)
				}
				var line []byte
				for _, r := range recs {
					line = fmt.Appendf(line, "ACK %d\n", r.Seq)
				}
				os.Stdout.Write(line) // one write: lines of writers do not mix
			}
		}()
	}
	time.Sleep(time.Until(deadline))
	helperFail("not killed within 30s")
}

// helperDiskFull appends under a low RLIMIT_FSIZE until a write fails.
func helperDiskFull(dir string) {
	// Without this the kernel kills the process at the limit instead of
	// failing the write with EFBIG.
	signal.Ignore(syscall.SIGXFSZ)
	var lim syscall.Rlimit
	if err := syscall.Getrlimit(syscall.RLIMIT_FSIZE, &lim); err != nil {
		helperFail("getrlimit: %v", err)
	}
	lim.Cur = diskFullLimit
	if err := syscall.Setrlimit(syscall.RLIMIT_FSIZE, &lim); err != nil {
		helperFail("setrlimit: %v", err)
	}
	// Segments larger than the limit, so the limit and not a new segment
	// decides where writing stops.
	l, _, err := Open(dir, Options{Signer: testKey(1), CheckpointEvery: crashEvery, SegmentSize: 4 * diskFullLimit})
	if err != nil {
		helperFail("open: %v", err)
	}
	for range 10000 {
		seq := l.LastSeq() + 1
		rec, err := l.Append(typeFor(seq), payloadFor(seq))
		if rec.Seq != 0 {
			// Durable even when a checkpoint after it failed.
			fmt.Printf("ACK %d\n", rec.Seq)
		}
		if err == nil {
			continue
		}
		var f *Fault
		if !errors.As(err, &f) {
			helperFail("append seq %d: %v is not a *Fault", seq, err)
		}
		fmt.Printf("FAULT %s\n", f)
		_, err2 := l.Append(1, []byte("again"))
		var f2 *Fault
		if !errors.As(err2, &f2) || f2 != f {
			helperFail("append after the fault gave %v, not the same fault", err2)
		}
		if l.Fault() != error(f) {
			helperFail("Fault() gave %v", l.Fault())
		}
		if err := l.Close(); err != error(f) {
			helperFail("close gave %v, not the fault", err)
		}
		fmt.Println("REFUSED same fault")
		return
	}
	helperFail("no fault after 10000 appends")
}

// readAcks collects the child's ACK lines and any other output.
func readAcks(r *os.File) (acks []uint64, other []string) { return readAcksFirst(r, nil) }

// readAcksFirst is readAcks that closes first at the first ACK (nil: no
// one asks).
func readAcksFirst(r *os.File, first chan struct{}) (acks []uint64, other []string) {
	sc := bufio.NewScanner(r)
	for sc.Scan() {
		line := sc.Text()
		if rest, ok := strings.CutPrefix(line, "ACK "); ok {
			if n, err := strconv.ParseUint(rest, 10, 64); err == nil {
				if len(acks) == 0 && first != nil {
					close(first)
				}
				acks = append(acks, n)
				continue
			}
		}
		other = append(other, line)
	}
	return acks, other
}

// checkAcked requires every acknowledged seq to be in the log as a user
// record; checkLog has checked their content.
func checkAcked(t *testing.T, l *Log, acks []uint64) {
	t.Helper()
	for _, seq := range acks {
		if seq > l.LastSeq() {
			t.Fatalf("acknowledged seq %d lost: log ends at %d", seq, l.LastSeq())
		}
	}
	if len(acks) > 0 {
		r, err := l.Read(acks[len(acks)-1])
		if err != nil || r.Type == TypeCheckpoint || !bytes.Equal(r.Data, payloadFor(r.Seq)) {
			t.Fatalf("last acknowledged seq %d: %v", acks[len(acks)-1], err)
		}
	}
}

type crashResult struct {
	acks  []uint64
	other []string
}

// killAfter runs a writer in mode on dir and kills it (SIGKILL) after
// delay, counted from its start, or from its first ACK with fromAck,
// and returns what it said.
func killAfter(t *testing.T, mode, dir string, delay time.Duration, fromAck bool) crashResult {
	t.Helper()
	pr, pw, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	cmd := helperCmd(mode, dir)
	cmd.Stdout = pw
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	pw.Close()
	out := make(chan crashResult, 1)
	first := make(chan struct{})
	go func() {
		a, o := readAcksFirst(pr, first)
		pr.Close()
		out <- crashResult{a, o}
	}()
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait() }()
	if fromAck {
		select {
		case <-first:
		case err := <-exited:
			res := <-out
			t.Fatalf("writer exited before its first commit (%v): %q %s", err, res.other, stderr.String())
		}
	}
	select {
	case <-time.After(delay):
		cmd.Process.Kill()
		<-exited
	case err := <-exited:
		res := <-out
		t.Fatalf("writer exited by itself (%v): %q %s", err, res.other, stderr.String())
	}
	return <-out
}

func crashIterations(t *testing.T) int {
	iters := 20
	if testing.Short() {
		iters = 5
	}
	if s := os.Getenv("CRASH_ITERATIONS"); s != "" {
		n, err := strconv.Atoi(s)
		if err != nil || n < 1 {
			t.Fatalf("CRASH_ITERATIONS=%q", s)
		}
		iters = n
	}
	return iters
}

func TestCrashLoop(t *testing.T) {
	iters := crashIterations(t)
	seed := uint64(time.Now().UnixNano())
	rng := rand.New(rand.NewPCG(seed, 0))
	t.Logf("seed %d, %d iterations", seed, iters)

	dir := t.TempDir()
	opts := Options{Signer: testKey(1), CheckpointEvery: crashEvery, SegmentSize: crashSegment}
	var maxAck uint64
	kills, torn, sides, acked := 0, 0, 0, 0
	for i := range iters {
		// From before the child has opened the log to well into appending.
		delay := time.Duration(2+rng.IntN(80)) * time.Millisecond
		res := killAfter(t, "crash", dir, delay, false)
		if len(res.other) > 0 {
			t.Fatalf("iteration %d: writer said %q", i, res.other)
		}
		kills++
		acked += len(res.acks)
		for _, seq := range res.acks {
			if seq <= maxAck {
				t.Fatalf("iteration %d: seq %d acknowledged again (after %d)", i, seq, maxAck)
			}
			maxAck = seq
		}

		l, info, err := Open(dir, opts)
		if err != nil {
			t.Fatalf("iteration %d (killed after %v): %v", i, delay, err)
		}
		if info.Repaired {
			if strings.Contains(info.RepairDetail, "torn last record") {
				torn++
			}
			if strings.Contains(info.RepairDetail, "checkpoint file brought up") {
				sides++
			}
			t.Logf("iteration %d: %s", i, info.RepairDetail)
		}
		if maxAck > l.LastSeq() {
			t.Fatalf("iteration %d: acknowledged seq %d lost, log ends at %d", i, maxAck, l.LastSeq())
		}
		checkLog(t, l)
		checkAcked(t, l, res.acks)
		// Closing writes a checkpoint when one is owed, as a cabinet that
		// restarts cleanly would; the next writer continues after it.
		mustClose(t, l)
	}
	r, err := Verify(dir, pubOf(opts.Signer))
	if err != nil || !r.OK {
		t.Fatalf("verify after the crash loop: %v %+v", err, r)
	}
	t.Logf("survived %d kills: %d acknowledged records, %d torn tails cut, %d checkpoint files brought up to date; log ends at seq %d with %d checkpoints",
		kills, acked, torn, sides, r.LastSeq, r.Checkpoints)
}

// TestGroupCrashLoop kills a writer whose commits come from several
// goroutines at once, so the kills land in grouped writes: every record
// of a commit that returned survives, the rest of its group comes whole
// with its mark or is cut, and the log verifies at the end.
func TestGroupCrashLoop(t *testing.T) {
	iters := crashIterations(t)
	seed := uint64(time.Now().UnixNano())
	rng := rand.New(rand.NewPCG(seed, 0))
	t.Logf("seed %d, %d iterations", seed, iters)
	dir := t.TempDir()
	opts := groupOpts()
	var last uint64 // the log's end at the last reopen
	acked, cut := 0, 0
	for i := range iters {
		// Into the commits, whenever the writer gets to them.
		delay := time.Duration(rng.IntN(40)) * time.Millisecond
		res := killAfter(t, "groupcrash", dir, delay, true)
		if len(res.other) > 0 {
			t.Fatalf("iteration %d: writer said %q", i, res.other)
		}
		seen := map[uint64]bool{}
		for _, seq := range res.acks {
			if seq <= last || seen[seq] {
				t.Fatalf("iteration %d: seq %d acknowledged again (log ended at %d)", i, seq, last)
			}
			seen[seq] = true
		}
		acked += len(res.acks)
		l, info, err := Open(dir, opts)
		if err != nil {
			t.Fatalf("iteration %d (killed after %v): %v", i, delay, err)
		}
		if info.Unvouched != nil {
			cut++
			if info.Unvouched.NoPowerLoss {
				t.Fatalf("iteration %d: a cut group taken for forgery: %+v", i, info.Unvouched)
			}
		}
		if info.Repaired {
			t.Logf("iteration %d: %s", i, info.RepairDetail)
		}
		checkLog(t, l)
		for _, seq := range res.acks {
			r, err := l.Read(seq)
			if err != nil || r.Type != typeFor(seq) || !bytes.Equal(r.Data, payloadFor(seq)) {
				t.Fatalf("iteration %d: acknowledged seq %d lost or changed (log ends at %d): %v", i, seq, l.LastSeq(), err)
			}
		}
		mustClose(t, l)
		last = l.LastSeq()
	}
	r, err := Verify(dir, pubOf(opts.Signer))
	if err != nil || !r.OK {
		t.Fatalf("verify after the crash loop: %v %+v", err, r)
	}
	if acked == 0 || r.Marks == 0 {
		t.Fatalf("no commit was acknowledged (%d marks): the test tested nothing", r.Marks)
	}
	t.Logf("survived %d kills: %d acknowledged records, %d groups cut short; the log holds %d records and %d marks (%d records a write on average)",
		iters, acked, cut, r.LastSeq, r.Marks, r.LastSeq/max(1, uint64(r.Marks)))
}

func TestDiskFull(t *testing.T) {
	dir := t.TempDir()
	cmd := helperCmd("diskfull", dir)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	pr, pw, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	cmd.Stdout = pw
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	pw.Close()
	acks, other := readAcks(pr)
	pr.Close()
	if err := cmd.Wait(); err != nil {
		t.Fatalf("writer: %v: %q %s", err, other, stderr.String())
	}
	var fault string
	refused := false
	for _, line := range other {
		if s, ok := strings.CutPrefix(line, "FAULT "); ok {
			fault = s
		}
		if line == "REFUSED same fault" {
			refused = true
		}
		if strings.HasPrefix(line, "ERR ") {
			t.Fatalf("writer: %s", line)
		}
	}
	if fault == "" || !refused || len(acks) == 0 {
		t.Fatalf("writer output: %d acks, %q", len(acks), other)
	}
	if !strings.Contains(fault, "meter fault: ") || !strings.Contains(fault, "file too large") {
		t.Fatalf("fault %q does not say what failed", fault)
	}
	t.Logf("%d records acknowledged before: %s", len(acks), fault)

	opts := Options{Signer: testKey(1), CheckpointEvery: crashEvery}
	l, info := mustOpen(t, dir, opts)
	t.Logf("reopen: repaired=%v %s", info.Repaired, info.RepairDetail)
	checkLog(t, l)
	checkAcked(t, l, acks)
	fill(t, l, 25) // past the old limit
	mustClose(t, l)
	if r, err := Verify(dir, pubOf(opts.Signer)); err != nil || !r.OK {
		t.Fatalf("verify: %v %+v", err, r)
	}
}
