package ticketsys

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/openegm/cabinet/internal/etcdtest"
	"github.com/openegm/cabinet/sas"
	"github.com/openegm/cabinet/tito"
)

// Group commit: the store's concurrent steps share one etcd transaction.
// These tests fill a batch on purpose (the gate holds the store's batches
// until every step is queued) and check each step's answer against what
// etcd holds after.

// batches holds a store's batches until release, and records the keys of
// each attempt of every batch it sends.
type batches struct {
	s       *Store
	open    chan struct{}
	once    sync.Once
	mu      sync.Mutex
	sent    [][][]string
	onFirst func()
}

func gateBatches(s *Store) *batches {
	g := &batches{s: s, open: make(chan struct{})}
	s.batch.mu.Lock()
	defer s.batch.mu.Unlock()
	s.batch.gate = func() { <-g.open }
	s.batch.sending = func(keys [][]string) {
		g.mu.Lock()
		first := len(g.sent) == 0
		g.sent = append(g.sent, keys)
		g.mu.Unlock()
		if first && g.onFirst != nil {
			g.onFirst()
		}
	}
	return g
}

// release lets the batches go once n steps wait in the queue.
func (g *batches) release(t *testing.T, n int) {
	t.Helper()
	waitFor(t, fmt.Sprintf("%d steps queued", n), func() bool { return g.s.batch.waiting() >= n })
	g.once.Do(func() { close(g.open) })
}

func (g *batches) all() [][][]string {
	g.mu.Lock()
	defer g.mu.Unlock()
	return slices.Clone(g.sent)
}

// authorizeAll presents each ticket at its cabinet under its ID at once.
func authorizeAll(t *testing.T, s *Store, ctx context.Context, reqs []Request) ([]Redemption, []error) {
	t.Helper()
	out, errs := make([]Redemption, len(reqs)), make([]error, len(reqs))
	var wg sync.WaitGroup
	for i, r := range reqs {
		wg.Go(func() { out[i], errs[i] = s.Authorize(ctx, r) })
	}
	wg.Wait()
	return out, errs
}

func storeAt(t *testing.T, c *etcdtest.Cluster, prefix string) *Store {
	t.Helper()
	s, err := New(c.Client(t), prefix)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func redeemedOnce(t *testing.T, s *Store, digits, id string) {
	t.Helper()
	got, err := s.Get(ctx(t), digits)
	if err != nil {
		t.Fatal(err)
	}
	n := map[string]int{}
	for _, e := range got.History {
		n[e.What]++
	}
	if got.State != Redeemed || got.Final.Redemption != id || n["redeemed"] != 1 {
		t.Fatalf("ticket %s: %s, final %+v, history %+v; want redeemed once by %s", digits, got.State, got.Final, got.History, id)
	}
}

// One batch carries seven authorisations; two of them were decided on the
// store's guess of a ticket another ticket system has since changed (one
// held at another cabinet, one paid at the cashier). Those two lose their
// comparisons alone and are refused with the reason etcd holds; the five
// others are authorised by the same transaction.
func TestBatchRefusesOnlyTheStaleTickets(t *testing.T) {
	c := sharedCluster(t)
	prefix := fmt.Sprintf("/test/%s/%d/", t.Name(), prefixes.Add(1))
	s, other := storeAt(t, c, prefix), storeAt(t, c, prefix)
	var tks []tito.Ticket
	for i := range 7 {
		tk := printed(t, "m1", uint32(i+1), int64(100*(i+1)))
		issue(t, s, tk)
		tks = append(tks, tk)
	}
	at := t0.Add(time.Hour)
	if r, err := other.Authorize(ctx(t), req(tks[0], "m9", "elsewhere", at)); err != nil || r.Phase != Authorised {
		t.Fatalf("authorise at m9 by the other system: %+v %v", r, err)
	}
	if r, err := other.Redeem(ctx(t), req(tks[1], CashierPrefix+"ana", "desk", at)); err != nil || r.Phase != Committed {
		t.Fatalf("cashier: %+v %v", r, err)
	}
	g := gateBatches(s)
	var reqs []Request
	for i, tk := range tks {
		reqs = append(reqs, req(tk, fmt.Sprintf("c%d", i), fmt.Sprintf("r%d", i), at.Add(time.Minute)))
	}
	var (
		got  []Redemption
		errs []error
		done = make(chan struct{})
	)
	go func() { got, errs = authorizeAll(t, s, ctx(t), reqs); close(done) }()
	g.release(t, len(reqs))
	<-done
	if err := errors.Join(errs...); err != nil {
		t.Fatal(err)
	}
	if first := g.all()[0]; len(first) != len(reqs) {
		t.Fatalf("the first batch carried %d steps, want all %d", len(first), len(reqs))
	}
	if got[0].Code != sas.TransferPending || got[0].Phase != Refused {
		t.Errorf("the ticket held at m9: %+v", got[0])
	}
	if got[1].Code != sas.TransferAlreadyRedeemed || got[1].Phase != Refused {
		t.Errorf("the ticket paid at the cashier: %+v", got[1])
	}
	for i := 2; i < len(got); i++ {
		if got[i].Phase != Authorised || got[i].Code != sas.TransferCashable || got[i].Cents != tks[i].Cents {
			t.Errorf("ticket %d: %+v", i, got[i])
		}
	}
	// What etcd holds agrees with every answer.
	for i, tk := range tks {
		rec, err := other.Get(ctx(t), tk.Validation.Digits())
		if err != nil {
			t.Fatal(err)
		}
		switch {
		case i == 0 && (rec.State != Pending || rec.Hold.Cabinet != "m9"),
			i == 1 && (rec.State != Redeemed || rec.Final.By != CashierPrefix+"ana"),
			i > 1 && (rec.State != Pending || rec.Hold.Redemption != reqs[i].ID):
			t.Errorf("ticket %d in etcd: %s %+v %+v", i, rec.State, rec.Hold, rec.Final)
		}
		if r, err := other.Redemption(ctx(t), reqs[i].ID); err != nil || r.Phase != got[i].Phase || r.Code != got[i].Code {
			t.Errorf("redemption %s recorded %+v %v, answered %+v", reqs[i].ID, r, err, got[i])
		}
	}
	for i := 2; i < len(tks); i++ {
		if r, err := s.Commit(ctx(t), reqs[i].ID, at.Add(2*time.Minute)); err != nil || r.Phase != Committed {
			t.Fatalf("commit %s: %+v %v", reqs[i].ID, r, err)
		}
		redeemedOnce(t, other, tks[i].Validation.Digits(), reqs[i].ID)
	}
}

// A copied ticket presented at two cabinets at once, both served by one
// ticket system: the two steps never share a batch (etcd refuses a
// transaction that writes a key twice), so the second is decided on the
// first's write and refused. Served by two ticket systems, each in its own
// batch, one transaction wins in etcd and the other is refused. Either
// way the ticket is authorised once and credited once.
func TestBatchCopyAtTwoCabinets(t *testing.T) {
	c := sharedCluster(t)
	prefix := fmt.Sprintf("/test/%s/%d/", t.Name(), prefixes.Add(1))
	at := t0.Add(time.Hour)
	rounds := 6
	if testing.Short() {
		rounds = 3
	}
	seq := uint32(0)
	ticket := func(s *Store) tito.Ticket {
		seq++
		tk := printed(t, "m1", seq, int64(1000+seq))
		issue(t, s, tk)
		return tk
	}
	// fillers are other tickets' steps, so that the batches are full.
	fillers := func(s *Store, by string, n int) []Request {
		var out []Request
		for range n {
			tk := ticket(s)
			out = append(out, req(tk, by, fmt.Sprintf("%s-%d", by, seq), at))
		}
		return out
	}
	check := func(round int, answers []Redemption, ids []string, store *Store, digits string) {
		t.Helper()
		won := ""
		for i, a := range answers {
			switch {
			case a.Phase == Authorised && won == "":
				won = ids[i]
			case a.Phase == Refused && a.Code == sas.TransferPending:
			default:
				t.Fatalf("round %d: answers %+v", round, answers)
			}
		}
		if won == "" {
			t.Fatalf("round %d: nobody authorised: %+v", round, answers)
		}
		if r, err := store.Commit(ctx(t), won, at.Add(time.Minute)); err != nil || r.Phase != Committed {
			t.Fatalf("round %d: commit %s: %+v %v", round, won, r, err)
		}
		redeemedOnce(t, store, digits, won)
		if r, err := store.Authorize(ctx(t), Request{Digits: digits, By: "c3", ID: "late-" + digits, At: at.Add(2 * time.Minute)}); err != nil || r.Code != sas.TransferAlreadyRedeemed {
			t.Fatalf("round %d: the copy again after the credit: %+v %v", round, r, err)
		}
	}
	for round := range rounds {
		// One ticket system: the copy and the original queued together.
		s := storeAt(t, c, prefix)
		tk := ticket(s)
		d := tk.Validation.Digits()
		reqs := append(fillers(s, "f", 8), req(tk, "c1", fmt.Sprintf("one-a-%d", round), at), req(tk, "c2", fmt.Sprintf("one-b-%d", round), at))
		g := gateBatches(s)
		var (
			got  []Redemption
			errs []error
			done = make(chan struct{})
		)
		go func() { got, errs = authorizeAll(t, s, ctx(t), reqs); close(done) }()
		g.release(t, len(reqs))
		<-done
		if err := errors.Join(errs...); err != nil {
			t.Fatal(err)
		}
		tkey := s.ticketKey(d)
		for _, batch := range g.all() {
			n := 0
			for _, keys := range batch {
				if slices.Contains(keys, tkey) {
					n++
				}
			}
			if n > 1 {
				t.Fatalf("round %d: one batch carried %d steps on ticket %s", round, n, d)
			}
		}
		for i, r := range got[:8] {
			if r.Phase != Authorised {
				t.Fatalf("round %d: filler %d: %+v", round, i, r)
			}
		}
		check(round, got[8:], []string{reqs[8].ID, reqs[9].ID}, s, d)

		// Two ticket systems, each batch holding one of the two.
		a, b := storeAt(t, c, prefix), storeAt(t, c, prefix)
		tk = ticket(a)
		d = tk.Validation.Digits()
		ra := append(fillers(a, "fa", 5), req(tk, "c1", fmt.Sprintf("two-a-%d", round), at))
		rb := append(fillers(b, "fb", 5), req(tk, "c2", fmt.Sprintf("two-b-%d", round), at))
		ga, gb := gateBatches(a), gateBatches(b)
		var (
			gotA, gotB   []Redemption
			errA, errB   []error
			doneA, doneB = make(chan struct{}), make(chan struct{})
		)
		go func() { gotA, errA = authorizeAll(t, a, ctx(t), ra); close(doneA) }()
		go func() { gotB, errB = authorizeAll(t, b, ctx(t), rb); close(doneB) }()
		waitFor(t, "both systems' steps queued", func() bool { return a.batch.waiting() >= len(ra) && b.batch.waiting() >= len(rb) })
		gb.release(t, len(rb))
		ga.release(t, len(ra))
		<-doneA
		<-doneB
		if err := errors.Join(append(errA, errB...)...); err != nil {
			t.Fatal(err)
		}
		check(round, []Redemption{gotA[5], gotB[5]}, []string{ra[5].ID, rb[5].ID}, a, d)
	}
}

// The ticket system dies with a batch in flight: the batch reaches etcd
// and its answer is lost (the client cut). It held new authorisations and
// copies of tickets authorised just before, at other cabinets. A new
// ticket system (a new client, no guesses) asked again with the same IDs
// finds every authorisation acknowledged before the cut, and every one of
// the cut batch applied once; the copies stay refused, and each ticket is
// credited once, by the redemption authorised first.
func TestCrashMidBatchLosesNoAuthorisation(t *testing.T) {
	c := sharedCluster(t)
	prefix := fmt.Sprintf("/test/%s/%d/", t.Name(), prefixes.Add(1))
	cli, proxies := c.ProxiedClient(t)
	s, err := New(cli, prefix)
	if err != nil {
		t.Fatal(err)
	}
	const acked, cut = 10, 20
	var tks []tito.Ticket
	for i := range acked + cut {
		tk := printed(t, "m1", uint32(i+1), int64(50+i))
		issue(t, s, tk)
		tks = append(tks, tk)
	}
	at := t0.Add(time.Hour)
	var before []Request
	for i := range acked {
		before = append(before, req(tks[i], fmt.Sprintf("a%d", i), fmt.Sprintf("ack-%d", i), at))
	}
	got, errs := authorizeAll(t, s, ctx(t), before)
	if err := errors.Join(errs...); err != nil {
		t.Fatal(err)
	}
	for i, r := range got {
		if r.Phase != Authorised {
			t.Fatalf("acknowledged %d: %+v", i, r)
		}
	}

	var inFlight []Request
	for i := range cut {
		inFlight = append(inFlight, req(tks[acked+i], fmt.Sprintf("b%d", i), fmt.Sprintf("cut-%d", i), at))
	}
	for i := range acked {
		inFlight = append(inFlight, req(tks[i], fmt.Sprintf("copy%d", i), fmt.Sprintf("copy-%d", i), at))
	}
	g := gateBatches(s)
	g.onFirst = func() { proxies.SetMode(etcdtest.DropReplies) }
	short, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	var done = make(chan struct{})
	go func() { got, errs = authorizeAll(t, s, short, inFlight); close(done) }()
	g.release(t, len(inFlight))
	<-done
	if first := g.all()[0]; len(first) != len(inFlight) {
		t.Fatalf("the cut batch carried %d steps, want %d", len(first), len(inFlight))
	}
	for i, err := range errs {
		if !errors.Is(err, ErrOutcomeUnknown) {
			t.Fatalf("step %d of the cut batch: %+v %v; want its outcome unknown", i, got[i], err)
		}
	}

	// The ticket system starts again, on its own new client.
	again := storeAt(t, c, prefix)
	for i, r := range before {
		a, err := again.Authorize(ctx(t), r)
		if err != nil || !a.Replayed || a.Phase != Authorised || a.By != r.By {
			t.Fatalf("acknowledged %d asked again: %+v %v", i, a, err)
		}
	}
	for i, r := range inFlight {
		a, err := again.Authorize(ctx(t), r)
		if err != nil || !a.Replayed {
			t.Fatalf("cut %d asked again: %+v %v; want the answer etcd recorded before the cut", i, a, err)
		}
		if i < cut && a.Phase != Authorised || i >= cut && (a.Phase != Refused || a.Code != sas.TransferPending) {
			t.Fatalf("cut %d: %+v", i, a)
		}
	}
	// Every ticket is credited once, by its first authorisation; the
	// copies, presented again after, are refused.
	for i, r := range append(before, inFlight[:cut]...) {
		if c, err := again.Commit(ctx(t), r.ID, at.Add(time.Minute)); err != nil || c.Phase != Committed || c.Cents != tks[i].Cents {
			t.Fatalf("commit %s: %+v %v", r.ID, c, err)
		}
		redeemedOnce(t, again, r.Digits, r.ID)
		if a, err := again.Authorize(ctx(t), Request{Digits: r.Digits, By: "late", ID: fmt.Sprintf("late-%d", i), At: at.Add(2 * time.Minute)}); err != nil || a.Code != sas.TransferAlreadyRedeemed {
			t.Fatalf("ticket %d presented after its credit: %+v %v", i, a, err)
		}
	}
}
