package ticketsys

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	clientv3 "go.etcd.io/etcd/client/v3"

	"github.com/openegm/cabinet/sas"
	"github.com/openegm/cabinet/tito/titopeer"
)

// countKV counts the store's requests to etcd: each Get and each
// transaction is one round trip.
type countKV struct {
	clientv3.KV
	n    atomic.Int64
	gets atomic.Int64 // of them plain reads
}

func (c *countKV) Get(ctx context.Context, key string, opts ...clientv3.OpOption) (*clientv3.GetResponse, error) {
	c.n.Add(1)
	c.gets.Add(1)
	return c.KV.Get(ctx, key, opts...)
}

func (c *countKV) Txn(ctx context.Context) clientv3.Txn {
	c.n.Add(1)
	return c.KV.Txn(ctx)
}

func countedStore(t *testing.T, prefix string) (*Store, *countKV) {
	t.Helper()
	cli := sharedCluster(t).Client(t)
	kv := &countKV{KV: cli.KV}
	cli.KV = kv
	s, err := New(cli, prefix)
	if err != nil {
		t.Fatal(err)
	}
	return s, kv
}

// A redemption at a cabinet is the authorisation's conditional write on
// the revision the store saw the ticket issued at, and the commit's on the
// revision the authorisation wrote: 2 round trips, where it took 5, then 3.
// Issuing is one: a conditional write on the ticket's absence.
func TestRedemptionInTwoRoundTrips(t *testing.T) {
	s, kv := countedStore(t, fmt.Sprintf("/test/%s/", t.Name()))
	tk := printed(t, "m1", 1, 2500)
	before := kv.n.Load()
	issue(t, s, tk)
	if n := kv.n.Load() - before; n != 1 {
		t.Fatalf("issue took %d round trips, want 1", n)
	}
	at := t0.Add(time.Hour)
	before = kv.n.Load()
	if a, err := s.Authorize(ctx(t), req(tk, "m7", "r1", at)); err != nil || a.Phase != Authorised {
		t.Fatalf("authorize: %+v %v", a, err)
	}
	if c, err := s.Commit(ctx(t), "r1", at.Add(time.Second)); err != nil || c.Phase != Committed || c.Cents != 2500 {
		t.Fatalf("commit: %+v %v", c, err)
	}
	if n := kv.n.Load() - before; n != 2 {
		t.Fatalf("authorise and commit took %d round trips, want 2", n)
	}
	if got, err := s.Get(ctx(t), tk.Validation.Digits()); err != nil || got.State != Redeemed || got.Final.Redemption != "r1" {
		t.Fatalf("ticket after the commit: %+v %v", got, err)
	}
}

// The store's memory of its authorisation decides nothing etcd no longer
// holds: another store (another ticket system process) released the
// ticket and authorised it for a second cabinet; the first store's
// commit of the old redemption is refused, and the ticket stays the
// second cabinet's.
func TestStaleAuthorisationIsNotCommitted(t *testing.T) {
	prefix := fmt.Sprintf("/test/%s/", t.Name())
	a, _ := countedStore(t, prefix)
	b, _ := countedStore(t, prefix)
	tk := printed(t, "m1", 1, 2500)
	issue(t, a, tk)
	at := t0.Add(time.Hour)
	if r, err := a.Authorize(ctx(t), req(tk, "m7", "r1", at)); err != nil || r.Phase != Authorised {
		t.Fatalf("authorize at m7: %+v %v", r, err)
	}
	if r, err := b.Release(ctx(t), "r1", at.Add(time.Second), "validator jam"); err != nil || r.Phase != Released {
		t.Fatalf("release by the other store: %+v %v", r, err)
	}
	if r, err := b.Authorize(ctx(t), req(tk, "m8", "r2", at.Add(2*time.Second))); err != nil || r.Phase != Authorised {
		t.Fatalf("authorize at m8: %+v %v", r, err)
	}
	if r, err := a.Commit(ctx(t), "r1", at.Add(3*time.Second)); !errors.Is(err, ErrConflict) {
		t.Fatalf("commit of the released redemption by the store that authorised it: %+v %v", r, err)
	}
	got, err := a.Get(ctx(t), tk.Validation.Digits())
	if err != nil || got.State != Pending || got.Hold.Redemption != "r2" || got.Hold.Cabinet != "m8" {
		t.Fatalf("ticket: %+v %v", got, err)
	}
	if r, err := b.Commit(ctx(t), "r2", at.Add(4*time.Second)); err != nil || r.Phase != Committed {
		t.Fatalf("commit at m8: %+v %v", r, err)
	}
}

// A store that did not see the ticket (another ticket system issued it)
// guesses it absent; the authorisation's comparison fails and the same
// round trip reads the ticket, so the store decides again and writes: one
// round trip more, never a read of its own. A guess made stale by another
// store costs the same.
func TestRoundTripsWithoutTheGuess(t *testing.T) {
	prefix := fmt.Sprintf("/test/%s/", t.Name())
	printer, _ := countedStore(t, prefix)
	s, kv := countedStore(t, prefix)
	tk := printed(t, "m1", 1, 2500)
	issue(t, printer, tk)
	at := t0.Add(time.Hour)
	gets := func() int64 { return kv.gets.Load() }
	before, beforeGets := kv.n.Load(), gets()
	if a, err := s.Authorize(ctx(t), req(tk, "m7", "r1", at)); err != nil || a.Phase != Authorised {
		t.Fatalf("authorize: %+v %v", a, err)
	}
	if r, err := s.Release(ctx(t), "r1", at.Add(time.Second), "jam"); err != nil || r.Phase != Released {
		t.Fatalf("release: %+v %v", r, err)
	}
	if n := kv.n.Load() - before; n != 3 || gets() != beforeGets {
		t.Fatalf("authorise unseen and release took %d round trips, %d of them reads; want 3 and none", n, gets()-beforeGets)
	}
	// The printer's guess (issued, at its first revision) is stale now.
	pb := printer.cli.KV.(*countKV)
	pbefore := pb.n.Load()
	if a, err := printer.Authorize(ctx(t), req(tk, "m8", "r2", at.Add(2*time.Second))); err != nil || a.Phase != Authorised {
		t.Fatalf("authorize on a stale guess: %+v %v", a, err)
	}
	if n := pb.n.Load() - pbefore; n != 2 || pb.gets.Load() != 0 {
		t.Fatalf("authorise on a stale guess took %d round trips, %d reads; want 2 and none", n, pb.gets.Load())
	}
	if got, err := s.Get(ctx(t), tk.Validation.Digits()); err != nil || got.State != Pending || got.Hold.Redemption != "r2" || got.Released != 1 {
		t.Fatalf("ticket: %+v %v", got, err)
	}
}

// A store that follows etcd's watch of the tickets knows a ticket another
// ticket system issued: its redemption is two round trips, as at the
// system that issued it, and reads nothing.
func TestFollowKnowsAnotherSystemsTicket(t *testing.T) {
	prefix := fmt.Sprintf("/test/%s/", t.Name())
	printer, _ := countedStore(t, prefix)
	s, kv := countedStore(t, prefix)
	follow, stop := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- s.Follow(follow) }()
	defer func() {
		stop()
		if err := <-done; !errors.Is(err, context.Canceled) {
			t.Errorf("follow ended with %v", err)
		}
	}()
	// The watch is set up in the background: probe tickets until the
	// follower has seen one.
	seq := uint32(100)
	for seen := false; !seen; {
		seq++
		probe := printed(t, "m1", seq, 1)
		issue(t, printer, probe)
		for range 40 {
			if seen = s.guesses.has(s.ticketKey(probe.Validation.Digits())); seen {
				break
			}
			time.Sleep(5 * time.Millisecond)
		}
	}
	tk := printed(t, "m1", 1, 2500)
	issue(t, printer, tk)
	waitFor(t, "the follower to see the ticket", func() bool { return s.guesses.has(s.ticketKey(tk.Validation.Digits())) })
	at := t0.Add(time.Hour)
	before, beforeGets := kv.n.Load(), kv.gets.Load()
	if a, err := s.Authorize(ctx(t), req(tk, "m7", "r1", at)); err != nil || a.Phase != Authorised || a.Cents != 2500 {
		t.Fatalf("authorize: %+v %v", a, err)
	}
	if c, err := s.Commit(ctx(t), "r1", at.Add(time.Second)); err != nil || c.Phase != Committed {
		t.Fatalf("commit: %+v %v", c, err)
	}
	if n, g := kv.n.Load()-before, kv.gets.Load()-beforeGets; n != 2 || g != 0 {
		t.Fatalf("authorise and commit of a ticket issued elsewhere took %d round trips, %d reads; want 2 and none", n, g)
	}
	if got, err := printer.Get(ctx(t), tk.Validation.Digits()); err != nil || got.State != Redeemed || got.Final.Redemption != "r1" {
		t.Fatalf("ticket: %+v %v", got, err)
	}
}

// One ticket after another at a cabinet, through the service, counted
// from the credit of one to the credit of the next (at the cabinet's
// OnRedeemed, when the authorisation has returned and the end of its
// transfer not yet begun). Put in at once after the credit (a player
// with a stack of tickets, or the floor's benchmark), the next ticket
// waits in the validator when the service reads the first's end (0x68,
// whose status then speaks of the next), so its presentation ends the
// first's hold by the count and authorises it: 1 round trip, one
// transaction that commits the first and authorises the next (Store
// handOver), where it took 4 (a read of the cabinet's holds, one of the
// held ticket, the commit, the authorisation) and 5 before that. Put in
// after the first's end was read, 2, where it took 5 and 7: the 0x68
// commits, the 0x67 authorises. The reads left out are comparisons in
// the transactions now: of the held ticket's revision (as every step's),
// and of the cabinet's holds, that it holds no other ticket (aloneCmp;
// the attacks they refuse: holds_test.go).
func TestServiceRedemptionsOneAfterAnotherRoundTrips(t *testing.T) {
	prefix := fmt.Sprintf("/test/%s/", t.Name())
	s, kv := countedStore(t, prefix)
	look, _ := countedStore(t, prefix) // the test's own reads, not counted
	f := newFloor(t, s)
	const k = 4
	var stack, single []string
	for i := range 2 * k {
		tk := fresh(t, "m1", uint32(i+1), int64(100*(i+1)))
		issue(t, s, tk)
		if i < k {
			stack = append(stack, tk.Validation.Digits())
		} else {
			single = append(single, tk.Validation.Digits())
		}
	}
	var mu sync.Mutex
	var at []int64 // kv.n at each credit
	next := 1      // of stack, the next to put in at once
	b, _ := f.add(titopeer.Config{Name: "b",
		OnRedeemed: func(titopeer.Result) {
			mu.Lock()
			defer mu.Unlock()
			at = append(at, kv.n.Load())
		},
		Reinsert: func(r titopeer.Result) string {
			mu.Lock()
			defer mu.Unlock()
			if next >= k || r.Status != sas.RedeemedCashable {
				return ""
			}
			next++
			return stack[next-1]
		}})
	waitFor(t, "the validation ID of b", func() bool { return b.Enhanced().Configured() })
	redeemed := func(d string) bool { r, err := look.Get(ctx(t), d); return err == nil && r.State == Redeemed }
	if err := b.Insert(stack[0]); err != nil {
		t.Fatal(err)
	}
	waitFor(t, "the stack credited", results(b, k))
	waitFor(t, "the stack's last ticket recorded redeemed", func() bool { return redeemed(stack[k-1]) })
	for _, d := range single {
		if err := b.Insert(d); err != nil {
			t.Fatal(err)
		}
		waitFor(t, "ticket "+d+" recorded redeemed", func() bool { return redeemed(d) })
	}
	presented := append(append([]string(nil), stack...), single...)
	for i, r := range b.Results() {
		d := presented[i]
		if r.Status != sas.RedeemedCashable || r.Digits != d || r.Cents != int64(100*(i+1)) {
			t.Fatalf("redemption %d: %+v, want ticket %s credited", i, r, d)
		}
		if tk, err := look.Get(ctx(t), d); err != nil || tk.State != Redeemed || tk.Final.By != "b" {
			t.Fatalf("ticket %s: %+v %v", d, tk, err)
		}
	}
	mu.Lock()
	defer mu.Unlock()
	for i := 1; i < 2*k; i++ {
		want := int64(1)
		if i >= k {
			want = 2
		}
		if n := at[i] - at[i-1]; n != want {
			t.Errorf("from credit %d to credit %d: %d round trips, want %d", i, i+1, n, want)
		}
	}
}
