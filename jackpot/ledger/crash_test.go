package ledger

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/openegm/cabinet/internal/atomicfile"
	"github.com/openegm/cabinet/jackpot"
	"github.com/openegm/cabinet/rng"
)

// The crash test runs a link controller's ledger in a child process (the
// test binary, re-executed into TestHelperLinkWriter), kills it with
// SIGKILL at random moments, and after every kill opens the ledger and
// checks that nothing acknowledged was lost and nothing was counted twice.
//
// The child commits readings (one at a time and in group commits, some
// repeated), hits (some sent twice), confirmations, mystery awards, super
// batches and superjackpot claims, and prints after each commit that
// returned:
//
//	ACK <records> <machine> <coin-in>   a reading (or group) is durable
//	PAY <machine> <level> <game> <cents> an award was made
//	CONF <machine> <level> <game>       an award was confirmed
//	ERR <text>                          the child saw something wrong
//
// where <records> is the number of ledger records folded (events aside).
//
// A superjackpot claim is logged (SuperClaim), sent to a stand-in for etcd
// that survives the kill (fakeEtcdClaim: a claim paid is a file), and its
// answer logged (SuperClaimed): a kill falls before the claim is logged,
// between the log and etcd, between etcd and the answer, or after. After a
// restart the child sends every claim still unanswered again, with the
// identity the ledger recorded, and logs the answer. The parent checks that
// what the stand-in paid and what the ledger recorded agree: every claim
// paid is answered in the ledger exactly once or still unanswered there,
// the awarded cents add up, and no award is confirmed twice.
const (
	crashEnvDir  = "LINKLEDGER_CRASH_DIR"
	crashEnvSeed = "LINKLEDGER_CRASH_SEED"
	crashMachine = 8
)

var crashOpts = Options{SnapshotEvery: 37, CheckpointEvery: 11, SegmentSize: 32 << 10}

// firstCoinIn is each machine's first reading, so the parent can compute
// what every level must have received from the baselines alone.
func firstCoinIn(i int) int64 { return 1000 * int64(i+1) }

func TestHelperLinkWriter(t *testing.T) {
	dir := os.Getenv(crashEnvDir)
	if dir == "" {
		t.Skip("the writer process of TestCrashLoop")
	}
	seed, _ := strconv.ParseUint(os.Getenv(crashEnvSeed), 10, 64)
	fail := func(format string, a ...any) {
		fmt.Printf("ERR "+format+"\n", a...)
		os.Exit(3)
	}
	l, _, err := Open(dir, crashOpts)
	if err != nil {
		fail("open: %v", err)
	}
	src := rng.NewSeeded(seed)
	r := rand.New(rand.NewPCG(seed, l.LastSeq()))
	view := func() *State {
		var c *State
		l.View(func(s *State) { c = s })
		return c // read only under the owner (this goroutine)
	}
	nonEvents := func() uint64 { s := view(); return s.Records() - s.Count(TypeEvent) }
	ack := func(machine string, coin int64) { fmt.Printf("ACK %d %s %d\n", nonEvents(), machine, coin) }
	pay := func(ps []Payout) {
		for _, p := range ps {
			fmt.Printf("PAY %s %s %d %d\n", p.Machine, p.Level, p.Game, p.Amount)
		}
	}
	confirm := func(c Confirmed) {
		res, err := l.Commit(c)
		if err != nil {
			fail("commit %#v: %v", c, err)
		}
		if !res.Repeat {
			fmt.Printf("CONF %s %s %d\n", c.Machine, c.Level, c.Game)
		}
		ack("-", 0)
	}
	// answer sends a claim to the stand-in for etcd and logs its answer,
	// which must be new.
	answer := func(c SuperClaim) Result {
		a, err := fakeEtcdClaim(dir, c)
		if err != nil {
			fail("etcd: %v", err)
		}
		if r.IntN(4) == 0 { // a retry: the answer recorded
			if b, err := fakeEtcdClaim(dir, c); err != nil || b != a {
				fail("etcd replay: %+v then %+v (%v)", a, b, err)
			}
		}
		res, err := l.Commit(a)
		if err != nil || res.Repeat || len(res.Payouts) != 1 || res.Payouts[0].Amount != a.AmountMC/mc {
			fail("answer %+v: %+v %v", a, res, err)
		}
		pay(res.Payouts)
		ack("-", 0)
		return res
	}
	commit := func(rec Record) Result {
		res, err := l.Commit(rec)
		if err != nil {
			fail("commit %#v: %v", rec, err)
		}
		return res
	}
	if len(view().Levels()) == 0 {
		if _, err := l.CommitBatch(setupRecords(crashMachine, 25_00*mc)...); err != nil {
			fail("setup: %v", err)
		}
		ack("-", 0)
	}
	// After a restart: the superjackpot claims in flight are sent again and
	// answered; the machines repeat their claims and confirm; etcd answers;
	// the mystery hits left waiting are awarded.
	for _, c := range view().PendingSuperClaims() {
		answer(c)
	}
	for _, p := range view().PendingPayouts() {
		var res Result
		switch {
		case p.Level == "super":
			res = commit(SuperClaim{At: 1, Level: p.Level, Machine: p.Machine, Game: p.Game, Bet: p.Bet, Claimed: p.Claimed})
		case !p.Mystery:
			res = commit(Hit{At: 1, Level: p.Level, Claims: []Claim{{Machine: p.Machine, Game: p.Game, Bet: p.Bet, Claimed: p.Claimed}}})
		}
		if !p.Mystery && (!res.Repeat || len(res.Repeated) != 1 || res.Repeated[0] != p) {
			fail("claim repeated after a restart: %+v for %+v", res, p)
		}
		if r.IntN(3) > 0 {
			confirm(Confirmed{At: 1, Machine: p.Machine, Level: p.Level, Game: p.Game})
		}
	}
	for range view().PendingMystery() {
		target, _ := jackpot.DrawTarget(miniCfg, src)
		pay(commit(Award{At: 1, Level: "mini", TargetMC: target}).Payouts)
		ack("-", 0)
	}
	deadline := time.Now().Add(30 * time.Second) // never outlive a broken parent
	for time.Now().Before(deadline) {
		s := view()
		i := r.IntN(crashMachine)
		id := machineID(i)
		m, _ := s.Machine(id)
		switch k := r.IntN(100); {
		case k < 45 || !m.Read:
			rd := Meters{At: 2, Machine: id, CoinIn: firstCoinIn(i), GamesPlayed: 0}
			if m.Read {
				rd = Meters{At: 2, Machine: id, CoinIn: m.CoinIn + int64(r.IntN(500)), GamesPlayed: m.GamesPlayed + uint64(r.IntN(3))}
			}
			res := commit(rd)
			ack(id, rd.CoinIn)
			for _, c := range res.MysteryHits {
				target, _ := jackpot.DrawTarget(miniCfg, src)
				pay(commit(Award{At: 2, Level: c.Level, TargetMC: target}).Payouts)
				ack("-", 0)
			}
			if k < 5 { // the same reading again
				if res := commit(rd); !res.Repeat {
					fail("a repeated reading was counted: %+v", res)
				}
			}
		case k < 65: // a round of readings in one group commit
			var recs []Record
			for j := range crashMachine {
				mj, _ := s.Machine(machineID(j))
				if mj.Read && r.IntN(2) == 0 {
					recs = append(recs, Meters{At: 3, Machine: mj.ID, CoinIn: mj.CoinIn + int64(r.IntN(2000)), GamesPlayed: mj.GamesPlayed + 1})
				}
			}
			if len(recs) == 0 {
				continue
			}
			if _, err := l.CommitBatch(recs...); err != nil {
				fail("group commit: %v", err)
			}
			for _, rec := range recs {
				ack(rec.(Meters).Machine, rec.(Meters).CoinIn)
			}
			for range view().PendingMystery() {
				target, _ := jackpot.DrawTarget(miniCfg, src)
				pay(commit(Award{At: 3, Level: "mini", TargetMC: target}).Payouts)
				ack("-", 0)
			}
		case k < 75: // a hit, sometimes sent twice
			lv := []string{"grand", "major"}[r.IntN(2)]
			game := m.GamesPlayed + 1
			for _, tr := range m.Awards {
				if tr.Level == lv && tr.Last >= game {
					game = tr.Last + 1
				}
			}
			h := Hit{At: 4, Level: lv, Claims: []Claim{{Machine: id, Game: game, Bet: 100, Claimed: 1}}}
			res := commit(h)
			pay(res.Payouts)
			ack("-", 0)
			if len(res.Payouts) != 1 {
				fail("hit: %+v", res)
			}
			if r.IntN(2) == 0 {
				again := commit(h)
				if !again.Repeat || len(again.Repeated) != 1 || again.Repeated[0] != res.Payouts[0] {
					fail("hit sent twice: %+v then %+v", res, again)
				}
			}
		case k < 88: // machines confirm
			for _, p := range s.PendingPayouts() {
				if r.IntN(2) == 0 {
					confirm(Confirmed{At: 5, Machine: p.Machine, Level: p.Level, Game: p.Game})
				}
			}
		case k < 94 && i%2 == 0: // a superjackpot hit: claim logged, sent, answer logged
			game := m.GamesPlayed + 1
			for _, tr := range m.Awards {
				if tr.Level == "super" && tr.Last >= game {
					game = tr.Last + 1
				}
			}
			c := SuperClaim{At: 7 + r.Int64N(1e9), Level: "super", Machine: id, Game: game, Bet: 100 + r.Int64N(100), Claimed: 1}
			res := commit(c)
			ack("-", 0)
			if res.Repeat || res.SuperClaim == nil || *res.SuperClaim != c {
				fail("claim: %+v", res)
			}
			if r.IntN(3) == 0 { // the machine repeats it: the claim recorded
				again := c
				again.At++
				if res := commit(again); !res.Repeat || res.SuperClaim == nil || *res.SuperClaim != c {
					fail("claim repeated: %+v", res)
				}
			}
			res = answer(c)
			if r.IntN(3) == 0 { // the answer again
				a := SuperClaimed{At: 8, Level: c.Level, Machine: c.Machine, Game: c.Game, AmountMC: res.Payouts[0].Amount * mc,
					Order: res.Payouts[0].Order, Revision: res.Payouts[0].Revision}
				if again := commit(a); !again.Repeat || len(again.Repeated) != 1 || again.Repeated[0] != res.Payouts[0] {
					fail("answer repeated: %+v", again)
				}
			}
		default: // a super batch out, etcd's answer back
			sh, _ := s.SharedLevel("super")
			if len(sh.Pending) > 0 {
				commit(SuperApplied{At: 6, Level: "super", Seq: sh.Pending[0].Seq, ContributionMC: 1})
			} else if sh.Unbatched > 0 {
				commit(SuperBatch{At: 6, Level: "super", Seq: sh.NextSeq(), Bet: 1 + r.Int64N(sh.Unbatched)})
			}
			ack("-", 0)
		}
	}
	fail("not killed within 30 s")
}

type crashAward struct {
	machine, level string
	game           uint64
}

// fakeAnswer is what the stand-in for etcd keeps of a claim it paid: the
// claim's identity and the answer.
type fakeAnswer struct {
	At, Bet, AmountMC, Order, Revision int64
}

const fakeEtcdDir = "fake-etcd"

func fakeClaimFile(dir string, machine string, game uint64) string {
	return filepath.Join(dir, fakeEtcdDir, fmt.Sprintf("%s-%020d", machine, game))
}

// fakeEtcdClaim stands for super.Store.Claim in the crash test: a claim is
// paid once, by writing its answer to a file (atomically, before the
// answer is returned, as etcd's transaction commits before it answers); a
// claim sent again gets the answer recorded (a replay) if its identity is
// the one paid, and an error otherwise.
func fakeEtcdClaim(dir string, c SuperClaim) (SuperClaimed, error) {
	name := fakeClaimFile(dir, c.Machine, c.Game)
	var a fakeAnswer
	if data, err := os.ReadFile(name); err == nil {
		if err := json.Unmarshal(data, &a); err != nil {
			return SuperClaimed{}, err
		}
		if a.At != c.At || a.Bet != c.Bet {
			return SuperClaimed{}, fmt.Errorf("claim %+v: paid with at %d, bet %d: a different identity", c, a.At, a.Bet)
		}
	} else {
		if err := os.MkdirAll(filepath.Join(dir, fakeEtcdDir), 0o700); err != nil {
			return SuperClaimed{}, err
		}
		paid, err := fakeEtcdPaid(dir)
		if err != nil {
			return SuperClaimed{}, err
		}
		order := int64(len(paid) + 1)
		a = fakeAnswer{At: c.At, Bet: c.Bet, AmountMC: (100_00 + int64(c.Game%1000)) * mc, Order: order, Revision: 1000 + order}
		data, _ := json.Marshal(a)
		if err := atomicfile.Write(name, data, 0o600); err != nil {
			return SuperClaimed{}, err
		}
	}
	return SuperClaimed{At: 8, Level: c.Level, Machine: c.Machine, Game: c.Game, AmountMC: a.AmountMC, Order: a.Order, Revision: a.Revision}, nil
}

// fakeEtcdPaid returns the claims the stand-in paid, by file name.
func fakeEtcdPaid(dir string) (map[string]fakeAnswer, error) {
	ents, err := os.ReadDir(filepath.Join(dir, fakeEtcdDir))
	if os.IsNotExist(err) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	out := map[string]fakeAnswer{}
	for _, e := range ents {
		if strings.Contains(e.Name(), atomicfile.TempInfix) {
			continue // a write the kill cut short: not paid
		}
		data, err := os.ReadFile(filepath.Join(dir, fakeEtcdDir, e.Name()))
		if err != nil {
			return nil, err
		}
		var a fakeAnswer
		if err := json.Unmarshal(data, &a); err != nil {
			return nil, fmt.Errorf("%s: %w", e.Name(), err)
		}
		out[e.Name()] = a
	}
	return out, nil
}

func TestCrashLoop(t *testing.T) {
	iters := 8
	if testing.Short() {
		iters = 4
	}
	if s := os.Getenv("CRASH_ITERATIONS"); s != "" {
		n, err := strconv.Atoi(s)
		if err != nil || n < 1 {
			t.Fatalf("CRASH_ITERATIONS=%q", s)
		}
		iters = n
	}
	seed := uint64(time.Now().UnixNano())
	rnd := rand.New(rand.NewPCG(seed, 1))
	t.Logf("seed %d, %d kills", seed, iters)
	dir := t.TempDir()
	maxCoin := map[string]int64{}
	var ackedRecords uint64
	awards := map[crashAward]int64{} // every award made, acknowledged or found
	confirmed := map[crashAward]bool{}
	superConfs := int64(0)
	unanswered, paidUnanswered := 0, 0 // kills that left a claim in flight, one that etcd had paid
	acks, pays, repaired := 0, 0, 0
	for i := range iters {
		cmd := exec.Command(os.Args[0], "-test.run=^TestHelperLinkWriter$", "-test.count=1")
		cmd.Env = append(os.Environ(), crashEnvDir+"="+dir, fmt.Sprintf("%s=%d", crashEnvSeed, seed+uint64(i)))
		var stderr bytes.Buffer
		cmd.Stderr = &stderr
		stdout, err := cmd.StdoutPipe()
		if err != nil {
			t.Fatal(err)
		}
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		lines := make(chan []string, 1)
		go func() {
			var out []string
			sc := bufio.NewScanner(stdout)
			for sc.Scan() {
				out = append(out, sc.Text())
			}
			lines <- out
		}()
		delay := time.Duration(20+rnd.IntN(200)) * time.Millisecond
		time.Sleep(delay)
		cmd.Process.Kill() // SIGKILL
		out := <-lines
		cmd.Wait()
		for _, line := range out {
			f := strings.Fields(line)
			switch {
			case len(f) == 4 && f[0] == "ACK":
				n, _ := strconv.ParseUint(f[1], 10, 64)
				coin, _ := strconv.ParseInt(f[3], 10, 64)
				if n < ackedRecords {
					t.Fatalf("kill %d: records went back from %d to %d", i, ackedRecords, n)
				}
				ackedRecords = n
				if f[2] != "-" {
					maxCoin[f[2]] = max(maxCoin[f[2]], coin)
				}
				acks++
			case len(f) == 5 && f[0] == "PAY":
				game, _ := strconv.ParseUint(f[3], 10, 64)
				cents, _ := strconv.ParseInt(f[4], 10, 64)
				k := crashAward{f[1], f[2], game}
				if prev, dup := awards[k]; dup && prev != cents {
					t.Fatalf("kill %d: %v awarded twice (%d, then %d)", i, k, prev, cents)
				} else if dup {
					// Found after the previous kill, acknowledged now: fine.
				}
				awards[k] = cents
				pays++
			case len(f) == 4 && f[0] == "CONF":
				game, _ := strconv.ParseUint(f[3], 10, 64)
				k := crashAward{f[1], f[2], game}
				if confirmed[k] {
					t.Fatalf("kill %d: %v confirmed twice", i, k)
				}
				confirmed[k] = true
				if k.level == "super" {
					superConfs++
				}
			default:
				t.Fatalf("kill %d (after %v): child said %q; stderr %s", i, delay, line, stderr.String())
			}
		}

		l, info, err := Open(dir, crashOpts)
		if err != nil {
			t.Fatalf("kill %d (after %v): reopen: %v", i, delay, err)
		}
		if info.Repaired != "" {
			repaired++
		}
		s := l.State()
		if err := s.Check(); err != nil {
			t.Fatalf("kill %d: %v", i, err)
		}
		// Nothing acknowledged lost, at most the one commit in flight more:
		// the largest is the first start's setup, when the kill comes
		// between its commit and its ACK (a loaded machine starts the
		// child late in the kill's window).
		have := s.Records() - s.Count(TypeEvent)
		largest := uint64(max(crashMachine+1, len(setupRecords(crashMachine, 25_00*mc))))
		if have < ackedRecords || have > ackedRecords+largest {
			t.Fatalf("kill %d: %d records, %d acknowledged", i, have, ackedRecords)
		}
		ackedRecords = have
		// Every level received exactly the coin-in between each machine's
		// first reading and its baseline: nothing lost, nothing twice.
		var want int64
		for j := range crashMachine {
			m, _ := s.Machine(machineID(j))
			if m.CoinIn < maxCoin[m.ID] {
				t.Fatalf("kill %d: machine %s at %d, %d was acknowledged", i, m.ID, m.CoinIn, maxCoin[m.ID])
			}
			if m.Read {
				want += m.CoinIn - firstCoinIn(j)
			}
			// The award made by the commit in flight, if it was durable.
			for _, tr := range m.Awards {
				k := crashAward{m.ID, tr.Level, tr.Last}
				if prev, ok := awards[k]; ok && prev != tr.LastPayout.Amount {
					t.Fatalf("kill %d: %v paid %d, acknowledged %d", i, k, tr.LastPayout.Amount, prev)
				}
				awards[k] = tr.LastPayout.Amount
			}
		}
		// The superjackpot: every claim etcd paid is answered in the ledger
		// once, or unanswered there (it is sent again at the next start),
		// and the amounts agree.
		paid, err := fakeEtcdPaid(dir)
		if err != nil {
			t.Fatal(err)
		}
		sh, _ := s.SharedLevel("super")
		var paidCents, inFlight, inFlightCents int64
		for _, a := range paid {
			paidCents += a.AmountMC / mc
		}
		for _, c := range sh.Unanswered {
			if a, ok := paid[filepath.Base(fakeClaimFile(dir, c.Machine, c.Game))]; ok {
				inFlight++
				inFlightCents += a.AmountMC / mc
			}
		}
		if len(sh.Unanswered) > 0 {
			unanswered++
		}
		if inFlight > 0 {
			paidUnanswered++
		}
		if sh.Answered+inFlight != int64(len(paid)) || sh.AwardedCents+inFlightCents != paidCents {
			t.Fatalf("kill %d: etcd paid %d claims, %d cents; the ledger answered %d for %d cents, %d paid still in flight (%d cents)",
				i, len(paid), paidCents, sh.Answered, sh.AwardedCents, inFlight, inFlightCents)
		}
		for j := range crashMachine {
			m, _ := s.Machine(machineID(j))
			for _, tr := range m.Awards {
				if tr.Level != "super" {
					continue
				}
				for _, p := range append(slices.Clone(tr.Pending), tr.LastPayout) {
					a, ok := paid[filepath.Base(fakeClaimFile(dir, p.Machine, p.Game))]
					if !ok || a.AmountMC/mc != p.Amount || a.Order != p.Order || a.Revision != p.Revision {
						t.Fatalf("kill %d: the ledger holds %+v, etcd paid %+v (%v)", i, p, a, ok)
					}
				}
			}
		}
		if sh.ConfirmedAwards < superConfs || sh.ConfirmedAwards > superConfs+int64(i)+1 {
			t.Fatalf("kill %d: %d superjackpot awards confirmed, %d acknowledged", i, sh.ConfirmedAwards, superConfs)
		}
		for _, id := range s.Levels() {
			lv := level(t, s, id)
			if lv.Meters.QualifyingBets != want {
				t.Fatalf("kill %d: level %s received %d cents of coin-in, the meters say %d", i, id, lv.Meters.QualifyingBets, want)
			}
			n := int64(0)
			for k := range awards {
				if k.level == id {
					n++
				}
			}
			if lv.Meters.Hits != n {
				t.Fatalf("kill %d: level %s paid %d hits, %d distinct awards were made", i, id, lv.Meters.Hits, n)
			}
		}
		l.Close()
	}

	// The snapshot start-up agrees with a full fold of the log, and the
	// log verifies.
	l, _ := mustOpen(t, dir, crashOpts)
	live := stateJSON(t, l.State())
	pub := l.PublicKey()
	l.Close()
	full := t.TempDir()
	copyTree(t, dir, full)
	for k := range 2 {
		os.Remove(filepath.Join(full, fmt.Sprintf("%s%d", snapPrefix, k)))
	}
	fl, _ := mustOpen(t, full, Options{})
	if stateJSON(t, fl.State()) != live {
		t.Fatal("snapshot start-up and full fold differ")
	}
	fl.Close()
	v, err := Verify(dir, pub)
	if err != nil || !v.OK || stateJSON(t, v.State) != live {
		t.Fatalf("verify after the crash loop: %v %+v", err, v)
	}
	sh, _ := v.State.SharedLevel("super")
	t.Logf("survived %d kills: %d acknowledgements, %d awards, %d torn tails cut; %d log records, %d ledger records, %d checkpoints",
		iters, acks, len(awards), repaired, v.Records, v.Folded, v.Checkpoints)
	t.Logf("superjackpot: %d claims, %d answered, %d confirmed; %d kills left a claim unanswered, %d of them one etcd had paid",
		sh.Claims, sh.Answered, sh.ConfirmedAwards, unanswered, paidUnanswered)
}
