package ticketsys

import (
	"context"
	"errors"
	"fmt"
	"os"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/openegm/cabinet/internal/etcdtest"
	"github.com/openegm/cabinet/sas"
	"github.com/openegm/cabinet/tito"
)

// The tests run on a real three-member etcd cluster on loopback
// (internal/etcdtest). One cluster is shared by the tests that kill no
// member, each under its own key prefix.
var (
	sharedOnce sync.Once
	sharedC    *etcdtest.Cluster
	sharedErr  error
	prefixes   atomic.Int64
)

func sharedCluster(t testing.TB) *etcdtest.Cluster {
	t.Helper()
	sharedOnce.Do(func() { sharedC, sharedErr = etcdtest.Start(etcdtest.Options{}) })
	if sharedErr != nil {
		t.Fatal(sharedErr)
	}
	return sharedC
}

func TestMain(m *testing.M) {
	code := m.Run()
	for _, stop := range benchStops {
		stop()
	}
	if sharedC != nil {
		sharedC.Stop()
	}
	os.Exit(code)
}

func newStore(t testing.TB, c *etcdtest.Cluster, opts ...Option) *Store {
	t.Helper()
	s, err := New(c.Client(t), fmt.Sprintf("/test/%s/%d/", t.Name(), prefixes.Add(1)), opts...)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

var t0 = time.Date(2026, 3, 1, 14, 0, 0, 0, time.UTC)

// printed is a ticket as a cabinet prints it, sequence seq of machine m.
func printed(t testing.TB, m string, seq uint32, cents int64) tito.Ticket {
	t.Helper()
	v, err := tito.SecureEnhanced(0x123456, seq)
	if err != nil {
		t.Fatal(err)
	}
	return tito.Ticket{Casino: "Casino", Kind: tito.KindCashout, Cents: cents, Validation: v,
		Issued: t0, Machine: m, Number: uint16(seq % 10000), Expiry: 30}
}

func ctx(t testing.TB) context.Context {
	c, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	t.Cleanup(cancel)
	return c
}

func issue(t testing.TB, s *Store, tk tito.Ticket) {
	t.Helper()
	if _, _, err := s.Issue(ctx(t), tk); err != nil {
		t.Fatal(err)
	}
}

func req(tk tito.Ticket, by, id string, at time.Time) Request {
	return Request{Digits: tk.Validation.Digits(), By: by, ID: id, At: at}
}

func TestIssueOnce(t *testing.T) {
	s := newStore(t, sharedCluster(t))
	tk := printed(t, "m1", 1, 2500)
	rec, replayed, err := s.Issue(ctx(t), tk)
	if err != nil || replayed || rec.State != Issued || rec.Cents != 2500 || rec.Expires != t0.AddDate(0, 0, 30).UnixNano() {
		t.Fatalf("issue: %+v %v %v", rec, replayed, err)
	}
	again, replayed, err := s.Issue(ctx(t), tk)
	if err != nil || !replayed || again.Revision != rec.Revision {
		t.Fatalf("issue again: %+v %v %v", again, replayed, err)
	}
	other := tk
	other.Cents = 2600
	if _, _, err := s.Issue(ctx(t), other); !errors.Is(err, ErrConflict) {
		t.Fatalf("another ticket with the same number: %v", err)
	}
	never := printed(t, "m1", 2, 100)
	never.Expiry = tito.ExpiryNever
	if rec, _, err := s.Issue(ctx(t), never); err != nil || rec.Expires != 0 {
		t.Fatalf("never expiring ticket: %+v %v", rec, err)
	}
	bad := tk
	bad.Cents = 0
	if _, _, err := s.Issue(ctx(t), bad); !errors.Is(err, ErrInvalid) {
		t.Fatalf("zero ticket: %v", err)
	}
}

// The two phases at a cabinet, the answers repeated by ID, the refusals.
func TestAuthorizeCommitRelease(t *testing.T) {
	s := newStore(t, sharedCluster(t))
	tk := printed(t, "m1", 1, 2500)
	issue(t, s, tk)
	at := t0.Add(time.Hour)

	a, err := s.Authorize(ctx(t), req(tk, "m7", "r1", at))
	if err != nil || a.Code != sas.TransferCashable || a.Phase != Authorised || a.Cents != 2500 || a.Replayed {
		t.Fatalf("authorize: %+v %v", a, err)
	}
	// The cabinet crashed and asks again with the same ID: the same answer.
	a2, err := s.Authorize(ctx(t), req(tk, "m7", "r1", at.Add(time.Second)))
	if err != nil || !a2.Replayed || a2.Code != a.Code || a2.Cents != a.Cents || a2.At != a.At {
		t.Fatalf("same ID again: %+v %v", a2, err)
	}
	// Another cabinet meanwhile: pending in the system.
	b, err := s.Authorize(ctx(t), req(tk, "m8", "r2", at))
	if err != nil || b.Code != sas.TransferPending || b.Phase != Refused {
		t.Fatalf("second cabinet while held: %+v %v", b, err)
	}
	// The first cabinet rejected it (say its validator jammed): released.
	rel, err := s.Release(ctx(t), "r1", at.Add(2*time.Second), "machine status 8B")
	if err != nil || rel.Phase != Released {
		t.Fatalf("release: %+v %v", rel, err)
	}
	if _, err := s.Commit(ctx(t), "r1", at.Add(3*time.Second)); !errors.Is(err, ErrConflict) {
		t.Fatalf("commit of a released hold: %v", err)
	}
	if again, err := s.Release(ctx(t), "r1", at.Add(4*time.Second), "again"); err != nil || !again.Replayed {
		t.Fatalf("release again: %+v %v", again, err)
	}
	// r2's refusal stays r2's answer; a new attempt at m8 wins.
	if b2, _ := s.Authorize(ctx(t), req(tk, "m8", "r2", at)); b2.Code != sas.TransferPending || !b2.Replayed {
		t.Fatalf("r2 again: %+v", b2)
	}
	c, err := s.Authorize(ctx(t), req(tk, "m8", "r3", at.Add(5*time.Second)))
	if err != nil || c.Code != sas.TransferCashable {
		t.Fatalf("after release: %+v %v", c, err)
	}
	done, err := s.Commit(ctx(t), "r3", at.Add(6*time.Second))
	if err != nil || done.Phase != Committed {
		t.Fatalf("commit: %+v %v", done, err)
	}
	if again, err := s.Commit(ctx(t), "r3", at.Add(7*time.Second)); err != nil || !again.Replayed || again.Done != done.Done {
		t.Fatalf("commit again: %+v %v", again, err)
	}
	if _, err := s.Release(ctx(t), "r3", at, "late"); !errors.Is(err, ErrConflict) {
		t.Fatalf("release of a committed redemption: %v", err)
	}
	d, err := s.Authorize(ctx(t), req(tk, "m9", "r4", at.Add(time.Minute)))
	if err != nil || d.Code != sas.TransferAlreadyRedeemed {
		t.Fatalf("after redemption: %+v %v", d, err)
	}
	got, err := s.Get(ctx(t), tk.Validation.String())
	if err != nil || got.State != Redeemed || got.Final.By != "m8" || got.Released != 1 || len(got.History) != 5 {
		t.Fatalf("ticket: %+v %v", got, err)
	}
	other := printed(t, "m1", 2, 100)
	issue(t, s, other)
	if _, err := s.Authorize(ctx(t), req(other, "m7", "r1", at)); !errors.Is(err, ErrConflict) {
		t.Fatalf("an ID reused for another ticket: %v", err)
	}
	if _, err := s.Commit(ctx(t), "nope", at); !errors.Is(err, ErrNotFound) {
		t.Fatalf("commit of an unknown redemption: %v", err)
	}
}

func TestRefusals(t *testing.T) {
	s := newStore(t, sharedCluster(t), AutoRedeemLimit(100000))
	ok := printed(t, "m1", 1, 2500)
	big := printed(t, "m1", 2, 200000)
	receipt := printed(t, "m1", 3, 500)
	receipt.Kind = tito.KindHandpayReceipt
	void := printed(t, "m1", 4, 500)
	for _, tk := range []tito.Ticket{ok, big, receipt, void} {
		issue(t, s, tk)
	}
	if _, err := s.Void(ctx(t), void.Validation.Digits(), "manager", "printed in error", t0.Add(time.Minute)); err != nil {
		t.Fatal(err)
	}
	missing := printed(t, "m1", 99, 100)
	for i, c := range []struct {
		r    Request
		want sas.TransferCode
	}{
		{req(missing, "m7", "a", t0), sas.TransferNotInSystem},
		{Request{Digits: "001234567890123456", By: "m7", ID: "b", At: t0}, sas.TransferNotValid},
		{req(ok, "m7", "c", t0.AddDate(0, 0, 30)), sas.TransferExpired},
		{Request{Digits: ok.Validation.Digits(), By: "m7", ID: "d", Cents: 2400, At: t0}, sas.TransferAmountMismatch},
		{req(big, "m7", "e", t0), sas.TransferOverAutoLimit},
		{req(receipt, "m7", "f", t0), sas.TransferNotThisMachine},
		{req(void, "m7", "g", t0.Add(time.Hour)), sas.TransferUnable},
	} {
		got, err := s.Authorize(ctx(t), c.r)
		if err != nil || got.Code != c.want || got.Phase != Refused || got.Cents != 0 {
			t.Errorf("case %d: %+v %v, want %v", i, got, err, c.want)
		}
	}
	// The cashier pays what a cabinet may not: above the limit, receipts.
	for i, tk := range []tito.Ticket{big, receipt} {
		got, err := s.Redeem(ctx(t), req(tk, CashierPrefix+"ana", fmt.Sprintf("cash%d", i), t0.Add(time.Hour)))
		if err != nil || got.Code != sas.TransferCashable || got.Phase != Committed || got.Cents != tk.Cents {
			t.Errorf("cashier %d: %+v %v", i, got, err)
		}
	}
	if _, err := s.Void(ctx(t), big.Validation.Digits(), "manager", "late", t0.Add(2*time.Hour)); !errors.Is(err, ErrState) {
		t.Errorf("void of a redeemed ticket: %v", err)
	}
	if v, err := s.Void(ctx(t), void.Validation.Digits(), "manager", "again", t0.Add(2*time.Hour)); err != nil || v.Final.Reason != "printed in error" {
		t.Errorf("void again: %+v %v", v, err)
	}
	audit, err := s.Audit(ctx(t))
	if err != nil {
		t.Fatal(err)
	}
	var refused, voided int
	for _, e := range audit {
		switch e.What {
		case "refused":
			refused++
		case "voided":
			voided++
		}
	}
	if refused != 6 || voided != 1 { // b (not a number) leaves no record
		t.Errorf("audit: %d refused, %d voided: %+v", refused, voided, audit)
	}
	for _, bad := range []Request{{Digits: ok.Validation.Digits(), By: "", ID: "x", At: t0},
		{Digits: ok.Validation.Digits(), By: "m/1", ID: "x", At: t0}, {Digits: ok.Validation.Digits(), By: "m1", ID: "x"}} {
		if _, err := s.Authorize(ctx(t), bad); !errors.Is(err, ErrInvalid) {
			t.Errorf("%+v: %v", bad, err)
		}
	}
}

// A lost reply: the authorisation was applied but the cabinet's service
// never heard; it asks again with the same ID and gets the same answer.
func TestLostReplyIsReplayed(t *testing.T) {
	c := sharedCluster(t)
	cli, proxies := c.ProxiedClient(t)
	s, err := New(cli, fmt.Sprintf("/test/lost/%d/", prefixes.Add(1)))
	if err != nil {
		t.Fatal(err)
	}
	tk := printed(t, "m1", 1, 2500)
	issue(t, s, tk)
	var drop atomic.Bool
	drop.Store(true)
	s.beforeWrite = func() {
		if drop.Swap(false) {
			proxies.SetMode(etcdtest.DropReplies)
		}
	}
	short, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	_, err = s.Authorize(short, req(tk, "m7", "r1", t0))
	cancel()
	if !errors.Is(err, ErrOutcomeUnknown) {
		t.Fatalf("authorize with its reply lost: %v", err)
	}
	proxies.SetMode(etcdtest.Pass)
	a, err := s.Authorize(ctx(t), req(tk, "m7", "r1", t0))
	if err != nil || !a.Replayed || a.Code != sas.TransferCashable {
		t.Fatalf("the same ID again: %+v %v", a, err)
	}
	got, _ := s.Get(ctx(t), tk.Validation.Digits())
	if got.State != Pending || len(got.History) != 2 {
		t.Fatalf("ticket after the replay: %+v", got)
	}
}

// Two cabinets redeem one ticket at the same moment, round after round,
// each also repeating its own request as a crashed redeemer would: exactly
// one is authorised, and it is authorised once.
func TestConcurrentRedemptionOneWins(t *testing.T) {
	s := newStore(t, sharedCluster(t))
	rounds := 40
	if testing.Short() {
		rounds = 10
	}
	for round := range rounds {
		tk := printed(t, "m1", uint32(round+1), 1000+int64(round))
		issue(t, s, tk)
		start := make(chan struct{})
		answers := make([]Redemption, 4)
		var wg sync.WaitGroup
		for i := range 4 {
			cab := fmt.Sprintf("cab%d", i%2)
			id := fmt.Sprintf("%s-%d", cab, round)
			wg.Go(func() {
				<-start
				var err error
				if answers[i], err = s.Authorize(ctx(t), req(tk, cab, id, t0.Add(time.Hour))); err != nil {
					t.Error(err)
				}
			})
		}
		close(start)
		wg.Wait()
		winners := map[string]bool{}
		for i, a := range answers {
			if a.Code == sas.TransferCashable {
				winners[a.By] = true
			} else if a.Code != sas.TransferPending {
				t.Fatalf("round %d answer %d: %+v", round, i, a)
			}
		}
		if len(winners) != 1 {
			t.Fatalf("round %d: %d cabinets authorised: %+v", round, len(winners), answers)
		}
		// The two requests of one cabinet share an ID: the same answer.
		if answers[0].Code != answers[2].Code || answers[1].Code != answers[3].Code {
			t.Fatalf("round %d: one ID, two answers: %+v", round, answers)
		}
		got, _ := s.Get(ctx(t), tk.Validation.Digits())
		if got.State != Pending || len(got.History) != 2 || !winners[got.Hold.Cabinet] {
			t.Fatalf("round %d: ticket %+v", round, got)
		}
	}
}

// A member is killed while cabinets redeem: every ticket ends redeemed
// exactly once, by the one cabinet that was authorised.
func TestRedemptionSurvivesMemberKill(t *testing.T) {
	c := etcdtest.New(t)
	s := newStore(t, c)
	const tickets = 60
	var tks []tito.Ticket
	for i := range tickets {
		tk := printed(t, "m1", uint32(i+1), 100+int64(i))
		issue(t, s, tk)
		tks = append(tks, tk)
	}
	var (
		wg      sync.WaitGroup
		commits atomic.Int64
		mu      sync.Mutex
		won     = map[string]string{}
	)
	killAt := tickets / 3
	var progress atomic.Int64
	for cab := range 3 {
		by := fmt.Sprintf("cab%d", cab)
		wg.Go(func() {
			for i, tk := range tks {
				id := fmt.Sprintf("%s-%d", by, i)
				a, err := s.Authorize(ctx(t), req(tk, by, id, t0.Add(time.Hour)))
				if err != nil {
					t.Error(err)
					return
				}
				if a.Code == sas.TransferCashable {
					mu.Lock()
					if prev, ok := won[a.Digits]; ok {
						t.Errorf("ticket %s authorised to %s and %s", a.Digits, prev, by)
					}
					won[a.Digits] = by
					mu.Unlock()
					if _, err := s.Commit(ctx(t), id, t0.Add(2*time.Hour)); err != nil {
						t.Error(err)
						return
					}
					commits.Add(1)
				}
				progress.Add(1)
			}
		})
	}
	for progress.Load() < int64(killAt) {
		time.Sleep(5 * time.Millisecond)
	}
	victim := c.Leader()
	if victim < 0 {
		victim = 0
	}
	c.Kill(victim)
	wg.Wait()
	if commits.Load() != tickets {
		t.Fatalf("%d commits for %d tickets", commits.Load(), tickets)
	}
	all, err := s.List(ctx(t))
	if err != nil {
		t.Fatal(err)
	}
	for _, tk := range all {
		if tk.State != Redeemed || tk.Final.By != won[tk.Digits] {
			t.Errorf("ticket %s: %s by %+v, authorised to %s", tk.Digits, tk.State, tk.Final, won[tk.Digits])
		}
	}
	if len(all) != tickets {
		t.Errorf("%d tickets listed, want %d", len(all), tickets)
	}
}

// A cabinet's holds are read from their index: what Authorize holds for it,
// until Commit or Release; refusals, replays and the cashier hold nothing.
func TestHoldsIndex(t *testing.T) {
	s := newStore(t, sharedCluster(t))
	at := t0.Add(time.Hour)
	var tks []tito.Ticket
	for i := range 4 {
		tk := printed(t, "m1", uint32(i+1), 100*int64(i+1))
		issue(t, s, tk)
		tks = append(tks, tk)
	}
	for _, a := range []struct {
		tk      tito.Ticket
		by, id  string
		cashier bool
	}{{tks[0], "m7", "r1", false}, {tks[1], "m7", "r2", false}, {tks[1], "m7", "r2", false}, {tks[1], "m8", "r9", false},
		{tks[2], "m8", "r3", false}, {tks[3], CashierPrefix + "ana", "c1", true}} {
		var err error
		if a.cashier {
			_, err = s.Redeem(ctx(t), req(a.tk, a.by, a.id, at))
		} else {
			_, err = s.Authorize(ctx(t), req(a.tk, a.by, a.id, at))
		}
		if err != nil {
			t.Fatal(err)
		}
	}
	held := func(cab string) []string {
		t.Helper()
		hs, err := s.Holds(ctx(t), cab)
		if err != nil {
			t.Fatal(err)
		}
		var out []string
		for _, h := range hs {
			out = append(out, h.Hold.Redemption+"="+h.Digits)
		}
		return out
	}
	d := func(i int) string { return tks[i].Validation.Digits() }
	if got, want := fmt.Sprint(held("m7")), fmt.Sprint([]string{"r1=" + d(0), "r2=" + d(1)}); got != want {
		t.Fatalf("m7 holds %s, want %s", got, want)
	}
	if got, want := fmt.Sprint(held("m8")), fmt.Sprint([]string{"r3=" + d(2)}); got != want {
		t.Fatalf("m8 holds %s, want %s (r9 was refused: the ticket was held)", got, want)
	}
	if _, err := s.Commit(ctx(t), "r1", at); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Release(ctx(t), "r2", at, "timed out"); err != nil {
		t.Fatal(err)
	}
	if got := held("m7"); len(got) != 0 {
		t.Fatalf("m7 holds %v after commit and release", got)
	}
	if got := held(CashierPrefix + "ana"); len(got) != 0 {
		t.Fatalf("the cashier holds %v", got)
	}
	if _, err := s.Holds(ctx(t), "a/b"); !errors.Is(err, ErrInvalid) {
		t.Fatalf("holds of a name with '/': %v", err)
	}
}

// A handpay validated without a receipt (SAS 40, 60) was paid at the
// machine: recorded paid, so neither a cabinet nor the cashier pays it;
// a handpay receipt is the cashier's to pay, never a cabinet's.
func TestValidatedHandpaysAreNotPaidTwice(t *testing.T) {
	s := newStore(t, sharedCluster(t))
	hp := printed(t, "m9", 1, 250_000)
	hp.Kind = tito.KindHandpay
	rec, _, err := s.Issue(ctx(t), hp)
	if err != nil || rec.State != Redeemed || rec.Final == nil || rec.Final.By != "m9" || len(rec.History) != 2 {
		t.Fatalf("validated handpay recorded %+v: %v", rec, err)
	}
	for _, r := range []struct {
		by      string
		cashier bool
	}{{"c1", false}, {CashierPrefix + "ana", true}} {
		q := req(hp, r.by, r.by+"-1", t0.Add(time.Hour))
		redeem := s.Authorize
		if r.cashier {
			redeem = s.Redeem
		}
		if a, err := redeem(ctx(t), q); err != nil || a.Phase != Refused || a.Code != sas.TransferAlreadyRedeemed {
			t.Fatalf("%s paid a validated handpay: %+v %v", r.by, a, err)
		}
	}
	receipt := printed(t, "m9", 2, 4000)
	receipt.Kind = tito.KindHandpayReceipt
	issue(t, s, receipt)
	if a, err := s.Authorize(ctx(t), req(receipt, "c1", "c1-2", t0.Add(time.Hour))); err != nil || a.Code != sas.TransferNotThisMachine {
		t.Fatalf("a cabinet took a handpay receipt: %+v %v", a, err)
	}
	if a, err := s.Redeem(ctx(t), req(receipt, CashierPrefix+"ana", "ana-2", t0.Add(time.Hour))); err != nil || a.Phase != Committed {
		t.Fatalf("the cashier and a handpay receipt: %+v %v", a, err)
	}
	evs, err := s.Audit(ctx(t))
	if err != nil {
		t.Fatal(err)
	}
	listed := 0
	for _, e := range evs {
		if e.What == "issued" && (strings.Contains(e.Detail, "validated handpay") || strings.Contains(e.Detail, "handpay receipt")) {
			listed++
		}
	}
	if listed != 2 {
		t.Fatalf("the audit lists %d of the 2 handpays: %+v", listed, evs)
	}
}
