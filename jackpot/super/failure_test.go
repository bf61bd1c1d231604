package super

import (
	"context"
	"fmt"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/openegm/cabinet/jackpot"
)

// One member (the leader) is killed while two controllers send batches and
// claims, and a display watches: every operation still completes, nothing
// is lost or doubled, and the display ends on the last state.
func TestMemberFailure(t *testing.T) {
	c := newCluster(t)
	defs := []levelDef{{"grand", grandCfg, 0}}
	initLevels(t, mustStore(t, c, "setup"), defs...)

	watcher := mustStore(t, c, "display", WatchResync(500*time.Millisecond))
	wctx, stopWatch := context.WithCancel(context.Background())
	defer stopWatch()
	var (
		mu   sync.Mutex
		last Snapshot
	)
	snaps := watcher.Watch(wctx)
	watchDone := make(chan struct{})
	go func() {
		defer close(watchDone)
		for s := range snaps {
			mu.Lock()
			if s.Revision < last.Revision { // equal: etcd confirming the same pools
				t.Errorf("watch went back from revision %d to %d", last.Revision, s.Revision)
			}
			last = s
			mu.Unlock()
		}
	}()

	// Each controller sends at least n batches, and goes on until it has
	// sent `after` more once the member is gone (at most n+5000).
	n, after := uint64(soak(40, 2000)), soak(20, 500)
	ctls := []string{"casino-a", "casino-b"}
	var (
		progress atomic.Int64
		gone     atomic.Bool
	)
	killed := make(chan int, 1)
	go func() {
		for progress.Load() < int64(n/2) {
			time.Sleep(time.Millisecond)
		}
		l := c.Leader()
		if l < 0 {
			l = 0
		}
		c.Kill(l)
		gone.Store(true)
		killed <- l
	}()
	sent := make([][]Batch, len(ctls))
	claims := make([][]Claimed, len(ctls))
	errs := make(chan error, len(ctls))
	var wg sync.WaitGroup
	for k, ctl := range ctls {
		s := mustStore(t, c, ctl)
		wg.Go(func() {
			ctx := opCtx(t)
			sinceGone := 0
			for seq := uint64(1); seq <= n || sinceGone < after; seq++ {
				if seq > n+5000 {
					errs <- fmt.Errorf("controller %s: the member was not killed after %d batches", ctl, seq-1)
					return
				}
				if gone.Load() {
					sinceGone++
				}
				b := Batch{Controller: ctl, Seq: seq, Bet: int64(10_000 + 37*seq + uint64(k)), At: int64(seq), Level: "grand"}
				if _, err := s.Contribute(ctx, b); err != nil {
					errs <- err
					return
				}
				sent[k] = append(sent[k], b)
				progress.Add(1)
				if seq%5 == 0 {
					r, err := s.Claim(ctx, HitID{Machine: fmt.Sprintf("m-%d", k), Game: seq, Level: "grand", Bet: 1000, At: int64(seq)}, 0)
					if err != nil {
						errs <- err
						return
					}
					claims[k] = append(claims[k], r)
				}
			}
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Fatal(err)
	}
	t.Logf("member m%d (the leader) was killed during the run; controllers sent %d and %d batches", <-killed, len(sent[0]), len(sent[1]))

	s := mustStore(t, c, "casino-a")
	ctx := opCtx(t)
	// Every batch and claim sent again is a replay.
	for k := range ctls {
		s := mustStore(t, c, ctls[k])
		for _, b := range sent[k] {
			r, err := s.Contribute(ctx, b)
			if err != nil || !r.Replayed {
				t.Fatalf("resend of %+v: %+v, %v", b, r, err)
			}
		}
		for _, cl := range claims[k] {
			r, err := s.Claim(ctx, cl.HitID, 0)
			if err != nil || !r.Replayed || r.Amount != cl.Amount || r.Order != cl.Order {
				t.Fatalf("claim again %+v: %+v, %v", cl, r, err)
			}
		}
	}
	var all []Batch
	var paid []Claimed
	for k := range ctls {
		all = append(all, sent[k]...)
		paid = append(paid, claims[k]...)
	}
	want := meters(t, localPools(t, defs, all), "grand")
	p, rev, err := s.Pools(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if err := p.Check(); err != nil {
		t.Fatal(err)
	}
	got := meters(t, p, "grand")
	if got.QualifyingBets != want.QualifyingBets || got.Contributions != want.Contributions || got.HiddenContributions != want.HiddenContributions {
		t.Fatalf("etcd %+v\nlocal %+v", got, want)
	}
	var awarded int64
	orders := map[int64]bool{}
	for _, cl := range paid {
		awarded += cl.Amount
		orders[cl.Order] = true
	}
	if got.Hits != int64(len(paid)) || got.Awarded != awarded || len(orders) != len(paid) {
		t.Fatalf("meters: %d hits, %d awarded; claims: %d, %d awarded, %d distinct orders", got.Hits, got.Awarded, len(paid), awarded, len(orders))
	}
	hist, err := s.History(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if len(hist) != len(paid) {
		t.Fatalf("%d claims in history, %d paid", len(hist), len(paid))
	}
	for i, h := range hist {
		if h.Order != int64(i+1) {
			t.Fatalf("history %d has order %d", i, h.Order)
		}
	}
	t.Logf("%d batches, %d claims, %d cents awarded; identity holds", len(all), len(paid), jackpot.Cents(awarded))

	// The display saw the last state.
	deadline := time.Now().Add(20 * time.Second)
	for {
		mu.Lock()
		l := last
		mu.Unlock()
		if l.Revision == rev {
			if lv, _ := l.Level("grand"); lv.Meters != got || l.Err != nil {
				t.Fatalf("watch shows %+v, %v; want %+v", lv.Meters, l.Err, got)
			}
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("watch at revision %d, pools at %d", l.Revision, rev)
		}
		time.Sleep(10 * time.Millisecond)
	}
	stopWatch()
	select {
	case <-watchDone:
	case <-time.After(10 * time.Second):
		t.Fatal("watch channel not closed 10 s after its context ended")
	}
}
