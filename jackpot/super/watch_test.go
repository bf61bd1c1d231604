package super

import (
	"context"
	"testing"
	"time"

	"github.com/openegm/cabinet/internal/etcdtest"
	"github.com/openegm/cabinet/jackpot"
)

// next reads snapshots from ch until ok accepts one.
func next(t *testing.T, ch <-chan Snapshot, what string, ok func(Snapshot) bool) Snapshot {
	t.Helper()
	timeout := time.After(20 * time.Second)
	var last Snapshot
	for {
		select {
		case s, open := <-ch:
			if !open {
				t.Fatalf("%s: watch closed", what)
			}
			if s.Err != nil {
				t.Fatalf("%s: %v", what, s.Err)
			}
			if s.Revision < last.Revision {
				t.Fatalf("%s: revision %d after %d", what, s.Revision, last.Revision)
			}
			if s.Revision == last.Revision {
				continue // etcd confirming the same pools
			}
			last = s
			if ok(s) {
				return s
			}
		case <-timeout:
			t.Fatalf("%s: not seen in 20 s (last snapshot %+v)", what, last)
		}
	}
}

func grandOf(s Snapshot) jackpot.Meters {
	lv, _ := s.Level("grand")
	return lv.Meters
}

// The watch delivers the value after Init, after contributions (coalesced
// when the reader is slow) and after a claim, and closes with its context.
func TestWatch(t *testing.T) {
	c := sharedCluster(t)
	display := mustStore(t, c, "display")
	s := mustStore(t, c, "casino-a")
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	ch := display.Watch(ctx) // before the pools exist
	initLevels(t, s, levelDef{"grand", grandCfg, 0})
	snap := next(t, ch, "init", func(s Snapshot) bool { _, ok := s.Level("grand"); return ok })
	if lv, _ := snap.Level("grand"); lv.Cents != jackpot.Cents(grandCfg.ResetValue) {
		t.Fatalf("init: %d cents", lv.Cents)
	}

	var last Contributed
	for seq := uint64(1); seq <= 10; seq++ { // the display does not read meanwhile
		r, err := s.Contribute(opCtx(t), Batch{Seq: seq, Bet: 1_000_00, At: int64(seq), Level: "grand"})
		if err != nil {
			t.Fatal(err)
		}
		last = r
	}
	p := mustPools(t, s)
	want := meters(t, p, "grand")
	reads := 0
	snap = next(t, ch, "contributions", func(s Snapshot) bool { reads++; return s.Revision == last.Revision })
	if grandOf(snap) != want {
		t.Fatalf("contributions: watch %+v, pools %+v", grandOf(snap), want)
	}
	if lv, _ := snap.Level("grand"); lv.Cents != jackpot.Cents(want.Current) || lv.Cents <= jackpot.Cents(grandCfg.ResetValue) {
		t.Fatalf("display value %d cents, current %d millicents", lv.Cents, want.Current)
	}
	t.Logf("10 contributions seen in %d snapshots, last at revision %d", reads, snap.Revision)

	won, err := s.Claim(opCtx(t), HitID{Machine: "m-1", Game: 1, Level: "grand", Bet: 100, At: 20}, 0)
	if err != nil {
		t.Fatal(err)
	}
	snap = next(t, ch, "claim", func(s Snapshot) bool { return s.Revision == won.Revision })
	if m := grandOf(snap); m.Hits != 1 || m.Awarded != won.Amount || m.Current != grandCfg.ResetValue {
		t.Fatalf("claim: watch %+v", m)
	}

	cancel()
	timeout := time.After(10 * time.Second)
	for {
		select {
		case _, open := <-ch:
			if !open {
				return
			}
		case <-timeout:
			t.Fatal("watch not closed 10 s after its context ended")
		}
	}
}

// A watch that starts (or restarts) at a compacted revision reads the key
// again and delivers the current value.
func TestWatchSurvivesCompaction(t *testing.T) {
	c := sharedCluster(t)
	s := mustStore(t, c, "casino-a")
	initLevels(t, s, levelDef{"grand", grandCfg, 0})
	ctx := opCtx(t)
	first, err := s.Contribute(ctx, Batch{Seq: 1, Bet: 500, At: 1, Level: "grand"})
	if err != nil {
		t.Fatal(err)
	}
	var last Contributed
	for seq := uint64(2); seq <= 4; seq++ {
		if last, err = s.Contribute(ctx, Batch{Seq: seq, Bet: 500, At: int64(seq), Level: "grand"}); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := s.cli.Compact(ctx, last.Revision); err != nil {
		t.Fatal(err)
	}
	wctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	ch := make(chan Snapshot, 1)
	go s.watch(wctx, ch, first.Revision) // compacted away
	snap := next(t, ch, "after compaction", func(s Snapshot) bool { return s.Revision == last.Revision })
	if m := grandOf(snap); m.QualifyingBets != 2000 {
		t.Fatalf("after compaction: %+v", m)
	}
}

// Unchanged pools are delivered again at every resync read: etcd's
// confirmation that they are still so. Cut off from etcd, the watch
// delivers nothing (a reader counting the time since its last snapshot
// knows its value is unconfirmed); let back, it confirms again.
func TestWatchConfirmsOnlyWhatEtcdAnswers(t *testing.T) {
	c := sharedCluster(t)
	initLevels(t, mustStore(t, c, "casino-a"), levelDef{"grand", grandCfg, 0})
	cli, proxies := c.ProxiedClient(t)
	display, err := New(cli, prefix(t), testKeyring{}, "display", nil, WatchResync(200*time.Millisecond))
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	ch := display.Watch(ctx)
	count := func(d time.Duration) (n int, rev int64) {
		for end := time.After(d); ; {
			select {
			case s := <-ch:
				n, rev = n+1, s.Revision
			case <-end:
				return n, rev
			}
		}
	}
	first := next(t, ch, "the pools", func(Snapshot) bool { return true })
	// Nothing changes; the pools are confirmed again and again.
	deadline := time.Now().Add(20 * time.Second)
	for n := 0; n < 3; {
		k, rev := count(300 * time.Millisecond)
		if k > 0 && rev != first.Revision {
			t.Fatalf("revision %d delivered, nothing changed since %d", rev, first.Revision)
		}
		if n += k; time.Now().After(deadline) {
			t.Fatalf("%d confirmations in 20 s", n)
		}
	}
	proxies.SetMode(etcdtest.Blackhole)
	count(2 * time.Second) // a read under way may still be answered
	if n, _ := count(2 * time.Second); n != 0 {
		t.Fatalf("%d snapshots delivered while etcd could not be read", n)
	}
	proxies.SetMode(etcdtest.Pass)
	next(t, ch, "a confirmation once back", func(Snapshot) bool { return true })
}
