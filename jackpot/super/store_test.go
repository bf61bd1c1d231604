package super

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"sync"
	"testing"
	"time"

	"github.com/openegm/cabinet/internal/etcdtest"
	"github.com/openegm/cabinet/jackpot"
)

const cent = jackpot.MillicentsPerCent

var (
	grandCfg = jackpot.Config{ResetValue: 10_000_00 * cent, Rate: 5_000, HiddenRate: 1_000,
		Trigger: jackpot.TriggerPaytable, MinHitBet: 100, SecondHit: jackpot.SecondHitWinsReset}
	majorCfg = jackpot.Config{ResetValue: 1_000_00 * cent, Cap: 1_200_00 * cent, Rate: 7_777, HiddenRate: 333,
		Trigger: jackpot.TriggerPaytable, MinHitBet: 50, SecondHit: jackpot.SecondHitWinsReset}
	mysteryCfg = jackpot.Config{ResetValue: 100_00 * cent, Cap: 200_00 * cent, Rate: 10_000, HiddenRate: 2_000,
		Trigger: jackpot.TriggerMystery, SecondHit: jackpot.SecondHitWinsReset}
)

// levelDef is a level created by Init in a test, to be rebuilt locally.
type levelDef struct {
	id     string
	cfg    jackpot.Config
	target int64
}

func initLevels(t testing.TB, s *Store, defs ...levelDef) {
	t.Helper()
	for _, d := range defs {
		if _, err := s.Init(opCtx(t), d.id, d.cfg, d.target, "test", 1); err != nil {
			t.Fatal(err)
		}
	}
}

// localPools rebuilds, with package jackpot alone, what the group's pools
// should hold after the given distinct batches (in any order).
func localPools(t testing.TB, defs []levelDef, batches []Batch) *jackpot.Pools {
	t.Helper()
	p := new(jackpot.Pools)
	for _, d := range defs {
		if _, err := p.Apply(jackpot.AddLevel{Level: d.id, Config: d.cfg, Target: d.target, Who: "test", At: 1}); err != nil {
			t.Fatal(err)
		}
	}
	for _, b := range batches {
		if _, err := p.Apply(jackpot.Contribute{Levels: []string{b.Level}, Bet: b.Bet, Where: b.Controller, Game: b.Seq, At: b.At}); err != nil {
			t.Fatal(err)
		}
	}
	return p
}

func mustPools(t testing.TB, s *Store) *jackpot.Pools {
	t.Helper()
	p, _, err := s.Pools(opCtx(t))
	if err != nil {
		t.Fatal(err)
	}
	if err := p.Check(); err != nil {
		t.Fatal(err)
	}
	return p
}

func meters(t testing.TB, p *jackpot.Pools, level string) jackpot.Meters {
	t.Helper()
	lv, ok := p.Level(level)
	if !ok {
		t.Fatalf("no level %q", level)
	}
	return lv.Meters
}

func TestInit(t *testing.T) {
	c := sharedCluster(t)
	s, err := New(c.Client(t), prefix(t), testKeyring{}, "casino-a", testKey("casino-a"))
	if err != nil {
		t.Fatal(err)
	}
	ctx := opCtx(t)
	if _, err := s.Contribute(ctx, Batch{Seq: 1, Bet: 100, Level: "grand"}); !errors.Is(err, ErrNotInitialized) {
		t.Fatalf("contribute before init: %v, want ErrNotInitialized", err)
	}
	for i, want := range []bool{true, false} {
		created, err := s.Init(ctx, "grand", grandCfg, 0, "operator", 10)
		if err != nil || created != want {
			t.Fatalf("init %d: created %v, %v; want %v", i, created, err, want)
		}
	}
	other := grandCfg
	other.Rate++
	if _, err := s.Init(ctx, "grand", other, 0, "operator", 11); !errors.Is(err, ErrConfigMismatch) {
		t.Fatalf("init with another config: %v, want ErrConfigMismatch", err)
	} else {
		t.Logf("refused as expected: %v", err)
	}
	if _, err := s.Init(ctx, "mini", mysteryCfg, 0, "operator", 12); !errors.Is(err, jackpot.ErrInvalid) {
		t.Fatalf("mystery level without a target: %v, want jackpot.ErrInvalid", err)
	}
	if created, err := s.Init(ctx, "mini", mysteryCfg, 150_00*cent, "operator", 12); err != nil || !created {
		t.Fatalf("init mini: %v, %v", created, err)
	}
	if _, err := s.Init(ctx, "a/b", grandCfg, 0, "operator", 12); !errors.Is(err, ErrInvalid) {
		t.Fatalf("level name with '/': %v, want ErrInvalid", err)
	}
	p := mustPools(t, s)
	if got := p.Levels(); len(got) != 2 || got[0] != "grand" || got[1] != "mini" {
		t.Fatalf("levels %v", got)
	}
	if m := meters(t, p, "grand"); m.Current != grandCfg.ResetValue || m.SeedFunding != grandCfg.ResetValue {
		t.Fatalf("grand seeded %+v", m)
	}
	if _, err := New(c.Client(t), "/no-slash", testKeyring{}, "x", testKey("x")); !errors.Is(err, ErrInvalid) {
		t.Fatalf("prefix without slash: %v", err)
	}
}

// Two controllers, each with its own client, send their batches at the
// same time and resend random earlier ones: every batch counts exactly once.
func TestConcurrentContributions(t *testing.T) {
	c := sharedCluster(t)
	defs := []levelDef{{"grand", grandCfg, 0}, {"major", majorCfg, 0}}
	initLevels(t, mustStore(t, c, "setup"), defs...)
	n := uint64(soak(30, 2000))
	ctls := []string{"casino-a", "casino-b"}
	sent := make([][]Batch, len(ctls))
	results := make([][]Contributed, len(ctls))
	var wg sync.WaitGroup
	errs := make(chan error, len(ctls))
	for k, ctl := range ctls {
		s := mustStore(t, c, ctl)
		wg.Go(func() {
			r := rand.New(rand.NewPCG(uint64(k), 7))
			ctx := opCtx(t)
			for seq := uint64(1); seq <= n; seq++ {
				b := Batch{Seq: seq, Bet: 1 + r.Int64N(50_000), At: int64(seq) * 1e9, Level: defs[r.IntN(2)].id}
				res, err := s.Contribute(ctx, b)
				if err != nil {
					errs <- err
					return
				}
				b.Controller = ctl
				if res.Replayed || res.Batch != b || res.Revision == 0 {
					errs <- fmt.Errorf("batch %+v: result %+v", b, res)
					return
				}
				sent[k] = append(sent[k], b)
				results[k] = append(results[k], res)
				if r.IntN(3) == 0 { // resend a random earlier batch, as after a lost answer
					i := r.IntN(len(sent[k]))
					again, err := s.Contribute(ctx, sent[k][i])
					if err != nil {
						errs <- fmt.Errorf("resend: %w", err)
						return
					}
					want := results[k][i]
					want.Replayed = true
					if fmt.Sprint(again) != fmt.Sprint(want) {
						errs <- fmt.Errorf("resend of seq %d: %+v, want %+v", sent[k][i].Seq, again, want)
						return
					}
				}
			}
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Fatal(err)
	}

	s := mustStore(t, c, "casino-a")
	ctx := opCtx(t)
	// The sequence is enforced and content is checked.
	if _, err := s.Contribute(ctx, Batch{Seq: n + 2, Bet: 5, Level: "grand"}); !errors.Is(err, ErrSequence) {
		t.Fatalf("gap: %v, want ErrSequence", err)
	} else {
		t.Logf("refused as expected: %v", err)
	}
	changed := sent[0][n-1]
	changed.Bet++
	if _, err := s.Contribute(ctx, changed); !errors.Is(err, ErrConflict) {
		t.Fatalf("changed batch: %v, want ErrConflict", err)
	} else {
		t.Logf("refused as expected: %v", err)
	}
	if _, err := s.Contribute(ctx, Batch{Controller: "casino-b", Seq: n + 1, Bet: 5, Level: "grand"}); !errors.Is(err, ErrInvalid) {
		t.Fatalf("batch of another controller: %v, want ErrInvalid", err)
	}

	var all []Batch
	for _, b := range sent {
		all = append(all, b...)
	}
	want := localPools(t, defs, all)
	got := mustPools(t, s)
	for _, d := range defs {
		wm, gm := meters(t, want, d.id), meters(t, got, d.id)
		if wm != gm {
			t.Errorf("level %s: etcd %+v\nlocal %+v", d.id, gm, wm)
		}
		t.Logf("level %s: %d cents of bets, %d millicents contributed, value %d cents", d.id, gm.QualifyingBets, gm.Contributions, jackpot.Cents(gm.Current))
	}
	if got.Seq() != uint64(len(defs)+len(all)) {
		t.Errorf("pools applied %d ops, want %d", got.Seq(), len(defs)+len(all))
	}
	// The records add up to the meters.
	var recorded int64
	for k, ctl := range ctls {
		log, err := s.Batches(ctx, ctl)
		if err != nil {
			t.Fatal(err)
		}
		if log.Last != n || len(log.Records) != int(n) {
			t.Fatalf("controller %s: last %d, %d records; want %d", ctl, log.Last, len(log.Records), n)
		}
		for i, r := range log.Records {
			if fmt.Sprint(r) != fmt.Sprint(results[k][i]) {
				t.Fatalf("record %+v, returned %+v", r, results[k][i])
			}
			recorded += r.Contribution
		}
	}
	tot, _ := got.Totals()
	if recorded != tot.Contributions {
		t.Fatalf("records add up to %d millicents, meters say %d", recorded, tot.Contributions)
	}
}

func mustStore(t testing.TB, c *cluster, controller string, opts ...Option) *Store {
	t.Helper()
	s, err := New(c.Client(t), prefix(t), testKeyring{}, controller, testKey(controller), opts...)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// Two controllers claim the same level for different hits at the same
// time, round after round: one wins the value, the other the level's value
// after the reset, and the order is recorded.
func TestConcurrentClaims(t *testing.T) {
	c := sharedCluster(t)
	defs := []levelDef{{"grand", grandCfg, 0}}
	ctls := []string{"casino-a", "casino-b"}
	stores := []*Store{mustStore(t, c, ctls[0]), mustStore(t, c, ctls[1])}
	initLevels(t, stores[0], defs...)
	rounds := soak(8, 300)
	var awarded int64
	for round := 1; round <= rounds; round++ {
		ctx := opCtx(t)
		for k, s := range stores {
			if _, err := s.Contribute(ctx, Batch{Seq: uint64(round), Bet: int64(1_000_00 * (round + k)), At: int64(round), Level: "grand"}); err != nil {
				t.Fatal(err)
			}
		}
		value := meters(t, mustPools(t, stores[0]), "grand").Current
		start := make(chan struct{})
		got := make([]Claimed, 2)
		errs := make([]error, 2)
		var wg sync.WaitGroup
		for k, s := range stores {
			wg.Go(func() {
				<-start
				got[k], errs[k] = s.Claim(ctx, HitID{Machine: fmt.Sprintf("m-%d", 10+k), Game: uint64(round), Level: "grand", Bet: 500, At: int64(round)}, 0)
			})
		}
		close(start)
		wg.Wait()
		if err := errors.Join(errs...); err != nil {
			t.Fatal(err)
		}
		first, second := got[0], got[1]
		if first.Order > second.Order {
			first, second = second, first
		}
		if first.Order != int64(2*round-1) || second.Order != int64(2*round) || first.Revision >= second.Revision {
			t.Fatalf("round %d: orders %d (rev %d), %d (rev %d)", round, first.Order, first.Revision, second.Order, second.Revision)
		}
		if first.Amount != jackpot.Cents(value)*cent {
			t.Fatalf("round %d: first claim won %d, the level held %d", round, first.Amount, value)
		}
		if second.Amount != grandCfg.ResetValue {
			t.Fatalf("round %d: second claim won %d, want the reset value %d", round, second.Amount, grandCfg.ResetValue)
		}
		awarded += first.Amount + second.Amount
		t.Logf("round %d: %s/%s won %d cents, %s/%s won %d cents", round, first.Controller, first.Machine, first.Cents(),
			second.Controller, second.Machine, second.Cents())
	}
	p := mustPools(t, stores[0])
	m := meters(t, p, "grand")
	if m.Hits != int64(2*rounds) || m.Awarded != awarded {
		t.Fatalf("meters: %d hits, %d awarded; want %d, %d", m.Hits, m.Awarded, 2*rounds, awarded)
	}
	hist, err := stores[1].History(opCtx(t))
	if err != nil {
		t.Fatal(err)
	}
	if len(hist) != 2*rounds {
		t.Fatalf("%d claims in history, want %d", len(hist), 2*rounds)
	}
	var sum int64
	for i, h := range hist {
		if h.Order != int64(i+1) {
			t.Fatalf("history %d has order %d", i, h.Order)
		}
		sum += h.Amount
	}
	if sum != awarded {
		t.Fatalf("history adds up to %d, awarded %d", sum, awarded)
	}
}

// A hit claimed again, from the same Store and from a new one, is paid once.
func TestClaimExactlyOnce(t *testing.T) {
	c := sharedCluster(t)
	s := mustStore(t, c, "casino-a")
	initLevels(t, s, levelDef{"grand", grandCfg, 0})
	ctx := opCtx(t)
	if _, err := s.Contribute(ctx, Batch{Seq: 1, Bet: 12_345_67, At: 5, Level: "grand"}); err != nil {
		t.Fatal(err)
	}
	hit := HitID{Machine: "m-42", Game: 777, Level: "grand", Bet: 500, At: 99}
	first, err := s.Claim(ctx, hit, 0)
	if err != nil {
		t.Fatal(err)
	}
	if first.Replayed || first.Order != 1 || first.Amount <= grandCfg.ResetValue {
		t.Fatalf("first claim %+v", first)
	}
	again, err := s.Claim(ctx, hit, 0)
	if err != nil {
		t.Fatal(err)
	}
	restarted := mustStore(t, c, "casino-a") // a new client, as after a restart
	third, err := restarted.Claim(ctx, hit, 0)
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range []Claimed{again, third} {
		if !r.Replayed || r.Amount != first.Amount || r.Order != first.Order || r.Revision != first.Revision || r.HitID != first.HitID {
			t.Fatalf("retry %+v, first %+v", r, first)
		}
	}
	changed := hit
	changed.Bet = 600
	if _, err := s.Claim(ctx, changed, 0); !errors.Is(err, ErrConflict) {
		t.Fatalf("claim of the same hit with another bet: %v, want ErrConflict", err)
	} else {
		t.Logf("refused as expected: %v", err)
	}
	low := HitID{Machine: "m-43", Game: 1, Level: "grand", Bet: 99, At: 100}
	if _, err := s.Claim(ctx, low, 0); !errors.Is(err, jackpot.ErrInvalid) {
		t.Fatalf("claim below the minimum hit bet: %v, want jackpot.ErrInvalid", err)
	}
	p := mustPools(t, s)
	if m := meters(t, p, "grand"); m.Hits != 1 || m.Awarded != first.Amount || m.Current != grandCfg.ResetValue {
		t.Fatalf("meters %+v after one paid hit of %d", m, first.Amount)
	}
	hist, err := s.History(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if len(hist) != 1 || hist[0].Amount != first.Amount || hist[0].Revision != first.Revision {
		t.Fatalf("history %+v", hist)
	}
}

// A mystery level: the batch that reaches the target reports the hit; the
// level's value is frozen until its controller claims it with the next
// target; no other controller can claim it.
func TestMystery(t *testing.T) {
	c := sharedCluster(t)
	a, b := mustStore(t, c, "casino-a"), mustStore(t, c, "casino-b")
	const target = 150_00 * cent
	initLevels(t, a, levelDef{"mini", mysteryCfg, target})
	ctx := opCtx(t)
	var hit *MysteryHit
	seq := uint64(0)
	for hit == nil {
		seq++
		if seq > 10 {
			t.Fatal("no mystery hit after 10 batches")
		}
		r, err := a.Contribute(ctx, Batch{Seq: seq, Bet: 1_000_00, At: int64(seq), Level: "mini"})
		if err != nil {
			t.Fatal(err)
		}
		if len(r.Hits) > 0 {
			hit = &r.Hits[0]
		}
	}
	if hit.Controller != "casino-a" || hit.Seq != seq || hit.Level != "mini" {
		t.Fatalf("hit %+v", hit)
	}
	if _, err := b.Contribute(ctx, Batch{Seq: 1, Bet: 1_000_00, At: 50, Level: "mini"}); err != nil {
		t.Fatal(err)
	}
	snap, err := b.Current(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if lv, _ := snap.Level("mini"); lv.Meters.Current != target || len(lv.Pending) != 1 {
		t.Fatalf("pending mystery level %+v", lv)
	}
	hb := HitID{Machine: "m-1", Game: 3, Level: "mini", Bet: 100, At: 60}
	if _, err := b.Claim(ctx, hb, 120_00*cent); !errors.Is(err, ErrNoPendingHit) {
		t.Fatalf("claim by another controller: %v, want ErrNoPendingHit", err)
	} else {
		t.Logf("refused as expected: %v", err)
	}
	ha := HitID{Machine: "m-9", Game: 12, Level: "mini", Bet: 100, At: 61}
	if _, err := a.Claim(ctx, ha, 99*cent); !errors.Is(err, jackpot.ErrInvalid) {
		t.Fatalf("claim with a next target below the reset value: %v, want jackpot.ErrInvalid", err)
	}
	won, err := a.Claim(ctx, ha, 120_00*cent)
	if err != nil {
		t.Fatal(err)
	}
	if won.Amount != target || !won.Mystery || won.TriggerSeq != seq || won.Order != 1 {
		t.Fatalf("mystery claim %+v", won)
	}
	again, err := a.Claim(ctx, ha, 120_00*cent)
	if err != nil || !again.Replayed || again.Amount != won.Amount {
		t.Fatalf("retry %+v, %v", again, err)
	}
	if _, err := a.Claim(ctx, HitID{Machine: "m-8", Game: 1, Level: "mini", At: 62}, 120_00*cent); !errors.Is(err, ErrNoPendingHit) {
		t.Fatalf("second claim of one mystery hit: %v, want ErrNoPendingHit", err)
	}
	p := mustPools(t, a)
	if m := meters(t, p, "mini"); m.Hits != 1 || m.Awarded != target || m.Current != mysteryCfg.ResetValue {
		t.Fatalf("meters %+v", m)
	}
}

// A controller cut off in the middle of a batch (its context cancelled or
// its client closed, so it cannot know whether the batch was applied)
// rejoins with a new client, resends the batch with the same seq, and the
// batch counts once.
func TestPartitionedController(t *testing.T) {
	c := sharedCluster(t)
	initLevels(t, mustStore(t, c, "setup"), levelDef{"grand", grandCfg, 0})
	s := mustStore(t, c, "casino-a")
	var (
		batches         []Batch
		cut, applied    int
		claimsCut, paid int
	)
	n := uint64(soak(16, 500))
	for seq := uint64(1); seq <= n; seq++ {
		b := Batch{Controller: "casino-a", Seq: seq, Bet: int64(1000 + seq), At: int64(seq), Level: "grand"}
		batches = append(batches, b)
		ctx, cancel := context.WithCancel(context.Background())
		delay := time.Duration(seq%8) * 400 * time.Microsecond
		closeClient := seq%2 == 0
		cli := s.cli
		timer := time.AfterFunc(delay, func() {
			if closeClient {
				cli.Close()
			} else {
				cancel()
			}
		})
		_, err := s.Contribute(ctx, b)
		timer.Stop()
		cancel()
		if err == nil && !closeClient {
			continue
		}
		// Cut off (or about to be: a closed client cannot go on). Rejoin.
		s = mustStore(t, c, "casino-a")
		ctx = opCtx(t)
		if err != nil {
			cut++
			log, lerr := s.Batches(ctx, "casino-a")
			if lerr != nil {
				t.Fatal(lerr)
			}
			if log.Last != seq && log.Last != seq-1 {
				t.Fatalf("after cut batch %d: last applied %d", seq, log.Last)
			}
			if log.Last == seq {
				applied++
			}
		}
		r, err := s.Contribute(ctx, b)
		if err != nil {
			t.Fatal(err)
		}
		if r.Batch != b {
			t.Fatalf("resend: %+v", r)
		}
	}
	t.Logf("%d of %d batches cut off, %d of them had been applied", cut, n, applied)

	// A claim cut off the same way.
	for game := uint64(1); game <= 6; game++ {
		ctx, cancel := context.WithCancel(context.Background())
		timer := time.AfterFunc(time.Duration(game)*500*time.Microsecond, cancel)
		hit := HitID{Machine: "m-3", Game: game, Level: "grand", Bet: 100, At: int64(game)}
		_, err := s.Claim(ctx, hit, 0)
		timer.Stop()
		cancel()
		if err != nil {
			claimsCut++
			s = mustStore(t, c, "casino-a")
		}
		r, err := s.Claim(opCtx(t), hit, 0)
		if err != nil {
			t.Fatal(err)
		}
		if r.Order != int64(game) {
			t.Fatalf("claim of game %d has order %d", game, r.Order)
		}
		paid++
	}
	t.Logf("%d of %d claims cut off", claimsCut, paid)

	want := localPools(t, []levelDef{{"grand", grandCfg, 0}}, batches)
	got := mustPools(t, s)
	wm, gm := meters(t, want, "grand"), meters(t, got, "grand")
	if gm.QualifyingBets != wm.QualifyingBets || gm.Contributions != wm.Contributions || gm.HiddenContributions != wm.HiddenContributions {
		t.Fatalf("etcd %+v\nlocal %+v", gm, wm)
	}
	if gm.Hits != int64(paid) {
		t.Fatalf("%d hits paid, want %d", gm.Hits, paid)
	}
	log, err := s.Batches(opCtx(t), "casino-a")
	if err != nil {
		t.Fatal(err)
	}
	if log.Last != n || len(log.Records) != int(n) {
		t.Fatalf("last %d, %d records", log.Last, len(log.Records))
	}
}

// KeepBatches prunes old records; the sequence still holds.
func TestKeepBatches(t *testing.T) {
	c := sharedCluster(t)
	s := mustStore(t, c, "casino-a", KeepBatches(3))
	initLevels(t, s, levelDef{"grand", grandCfg, 0})
	ctx := opCtx(t)
	var first Batch
	for seq := uint64(1); seq <= 6; seq++ {
		b := Batch{Seq: seq, Bet: 100, At: int64(seq), Level: "grand"}
		if seq == 1 {
			first = b
		}
		if _, err := s.Contribute(ctx, b); err != nil {
			t.Fatal(err)
		}
	}
	log, err := s.Batches(ctx, "casino-a")
	if err != nil {
		t.Fatal(err)
	}
	if log.Last != 6 || len(log.Records) != 3 || log.Records[0].Seq != 4 {
		t.Fatalf("log %+v", log)
	}
	if _, err := s.Contribute(ctx, first); !errors.Is(err, ErrSequence) {
		t.Fatalf("resend of a pruned batch: %v, want ErrSequence", err)
	} else {
		t.Logf("refused as expected: %v", err)
	}
	if m := meters(t, mustPools(t, s), "grand"); m.QualifyingBets != 600 {
		t.Fatalf("bets %d", m.QualifyingBets)
	}
}

// A controller whose link to etcd breaks in the middle of a write, in
// both ways: the request is applied but its answer is lost, or the request
// never arrives. Either way the call fails with ErrOutcomeUnknown; the
// controller rejoins with a new client, sends the same batch (or claim)
// again, and it counts exactly once.
func TestPartitionMidWrite(t *testing.T) {
	c := sharedCluster(t)
	initLevels(t, mustStore(t, c, "setup"), levelDef{"grand", grandCfg, 0})
	seq, game := uint64(0), uint64(0)
	var bets int64
	for _, tc := range []struct {
		name    string
		mode    etcdtest.Mode
		applied bool
	}{{"answer lost", etcdtest.DropReplies, true}, {"request lost", etcdtest.DropRequests, false}} {
		// cut runs op on a store whose link breaks (in mode tc.mode) when
		// the op sends its write.
		cut := func(op func(context.Context, *Store) error) error {
			cli, proxies := c.ProxiedClient(t)
			defer cli.Close()
			s, err := New(cli, prefix(t), testKeyring{}, "casino-a", testKey("casino-a"))
			if err != nil {
				t.Fatal(err)
			}
			s.beforeWrite = func() { proxies.SetMode(tc.mode) }
			ctx, cancel := context.WithTimeout(context.Background(), 500*time.Millisecond)
			defer cancel()
			return op(ctx, s)
		}
		seq++
		b := Batch{Controller: "casino-a", Seq: seq, Bet: 10_000 + int64(seq), At: int64(seq), Level: "grand"}
		bets += b.Bet
		err := cut(func(ctx context.Context, s *Store) error { _, err := s.Contribute(ctx, b); return err })
		if !errors.Is(err, ErrOutcomeUnknown) {
			t.Fatalf("%s: contribute: %v, want ErrOutcomeUnknown", tc.name, err)
		}
		t.Logf("%s: %v", tc.name, err)
		game++
		hit := HitID{Machine: "m-5", Game: game, Level: "grand", Bet: 100, At: int64(game)}
		err = cut(func(ctx context.Context, s *Store) error { _, err := s.Claim(ctx, hit, 0); return err })
		if !errors.Is(err, ErrOutcomeUnknown) {
			t.Fatalf("%s: claim: %v, want ErrOutcomeUnknown", tc.name, err)
		}

		rejoined := mustStore(t, c, "casino-a")
		ctx := opCtx(t)
		log, err := rejoined.Batches(ctx, "casino-a")
		if err != nil {
			t.Fatal(err)
		}
		if want := map[bool]uint64{true: seq, false: seq - 1}[tc.applied]; log.Last != want {
			t.Fatalf("%s: last applied seq %d, want %d", tc.name, log.Last, want)
		}
		r, err := rejoined.Contribute(ctx, b)
		if err != nil {
			t.Fatal(err)
		}
		if r.Replayed != tc.applied || r.Batch != b {
			t.Fatalf("%s: resend %+v", tc.name, r)
		}
		cl, err := rejoined.Claim(ctx, hit, 0)
		if err != nil {
			t.Fatal(err)
		}
		if cl.Replayed != tc.applied || cl.Order != int64(game) {
			t.Fatalf("%s: claim again %+v", tc.name, cl)
		}
		m := meters(t, mustPools(t, rejoined), "grand")
		if m.QualifyingBets != bets || m.Hits != int64(game) {
			t.Fatalf("%s: %d cents of bets and %d hits, want %d and %d", tc.name, m.QualifyingBets, m.Hits, bets, game)
		}
	}
}
