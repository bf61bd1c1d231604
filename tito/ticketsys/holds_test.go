package ticketsys

import (
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/openegm/cabinet/sas"
	"github.com/openegm/cabinet/tito"
	"github.com/openegm/cabinet/tito/titopeer"
)

// The condition of a step taken on the holds a service knows (alone):
// with another ticket held at the cabinet, neither an authorisation nor
// the end of a hold is written; with none, both are, and a retry of a
// written authorisation is not refused by its own hold.
func TestAloneRefusesAnotherHold(t *testing.T) {
	s := newStore(t, sharedCluster(t))
	x, y := printed(t, "m1", 1, 100), printed(t, "m1", 2, 200)
	issue(t, s, x)
	issue(t, s, y)
	at := t0.Add(time.Hour)
	if a, err := s.redeem(ctx(t), req(x, "b", "rx", at), false, true); err != nil || a.Phase != Authorised {
		t.Fatalf("authorise x alone at b: %+v %v", a, err)
	}
	if a, err := s.redeem(ctx(t), req(x, "b", "rx", at), false, true); err != nil || !a.Replayed || a.Phase != Authorised {
		t.Fatalf("authorise x again: %+v %v", a, err)
	}
	if a, err := s.redeem(ctx(t), req(y, "b", "ry", at), false, true); !errors.Is(err, errHoldsMoved) {
		t.Fatalf("authorise y at b while x is held there: %+v %v", a, err)
	}
	if got, err := s.Get(ctx(t), y.Validation.Digits()); err != nil || got.State != Issued {
		t.Fatalf("y after the refused authorisation: %+v %v", got, err)
	}
	if _, err := s.Redemption(ctx(t), "ry"); !errors.Is(err, ErrNotFound) {
		t.Fatalf("redemption ry recorded: %v", err)
	}
	// Another cabinet's holds are not b's.
	if a, err := s.redeem(ctx(t), req(y, "c", "ry", at), false, true); err != nil || a.Phase != Authorised {
		t.Fatalf("authorise y alone at c: %+v %v", a, err)
	}
	if r, err := s.finish(ctx(t), "ry", at.Add(time.Second), Committed, "", "c"); err != nil || r.Phase != Committed {
		t.Fatalf("commit y alone at c: %+v %v", r, err)
	}
	// A second hold at b, as another ticket system would write it: the
	// end of x on the knowledge that b holds x alone is refused.
	z := printed(t, "m1", 3, 300)
	issue(t, s, z)
	if a, err := s.Authorize(ctx(t), req(z, "b", "rz", at)); err != nil || a.Phase != Authorised {
		t.Fatalf("authorise z at b: %+v %v", a, err)
	}
	if r, err := s.finish(ctx(t), "rx", at.Add(time.Second), Committed, "", "b"); !errors.Is(err, errHoldsMoved) {
		t.Fatalf("commit x alone at b while z is held there: %+v %v", r, err)
	}
	if got, err := s.Get(ctx(t), x.Validation.Digits()); err != nil || got.State != Pending || got.Hold.Redemption != "rx" {
		t.Fatalf("x after the refused commit: %+v %v", got, err)
	}
}

// The attack the read of the cabinet's holds at each presentation
// guarded against, now a condition of the authorisation: another ticket
// system (or a service before its restart) holds a ticket for the
// cabinet that its service does not know. Authorised beside it, a second
// hold would make the cabinet's count ambiguous: its next credit would
// commit both. The service's authorisation on what it knows is refused;
// it reads the holds, releases the stranger (the count had not moved: it
// was never credited) and authorises the ticket presented, the one
// credited. The stranger is never redeemed. Both ways a next ticket is
// authorised: put in after the end of the one before was read, and put in
// at once after its credit (a stack: the end and the authorisation in one
// transaction, handOver), the stranger's hold made as the cabinet credits.
func TestServiceAuthorisationRefusedBesideAHoldItDidNotKnow(t *testing.T) {
	for _, stack := range []bool{false, true} {
		t.Run(fmt.Sprintf("stack=%v", stack), func(t *testing.T) { testBesideAHold(t, stack) })
	}
}

func testBesideAHold(t *testing.T, stack bool) {
	prefix := fmt.Sprintf("/test/%s/", t.Name())
	s, _ := countedStore(t, prefix)
	other, _ := countedStore(t, prefix) // another ticket system
	f := newFloor(t, s)
	a, x, y := fresh(t, "m1", 1, 100), fresh(t, "m1", 2, 200), fresh(t, "m1", 3, 300)
	for _, tk := range []tito.Ticket{a, x, y} {
		issue(t, s, tk)
	}
	// b has credited one ticket (a): a hold at its count now is one it
	// could credit next.
	n := uint64(1)
	stranger := func() error {
		rx := Request{Digits: x.Validation.Digits(), By: "b", ID: "stranger", At: time.Now(), Seq: &n}
		r, err := other.Authorize(ctx(t), rx)
		if err == nil && r.Phase != Authorised {
			err = fmt.Errorf("the other system's hold of x at b: %+v", r)
		}
		return err
	}
	cfg := titopeer.Config{Name: "b"}
	var made error
	if stack {
		cfg.OnRedeemed = func(r titopeer.Result) {
			if r.Digits == a.Validation.Digits() {
				made = stranger()
			}
		}
		cfg.Reinsert = func(r titopeer.Result) string {
			if r.Digits == a.Validation.Digits() {
				return y.Validation.Digits()
			}
			return ""
		}
	}
	b, _ := f.add(cfg)
	waitFor(t, "the validation ID of b", func() bool { return b.Enhanced().Configured() })
	redeemed := func(d string) func() bool {
		return func() bool { tk, ok := f.ticket(d); return ok && tk.State == Redeemed }
	}
	if err := b.Insert(a.Validation.Digits()); err != nil {
		t.Fatal(err)
	}
	if !stack {
		waitFor(t, "ticket a recorded redeemed", redeemed(a.Validation.Digits()))
		made = stranger()
		if err := b.Insert(y.Validation.Digits()); err != nil {
			t.Fatal(err)
		}
	}
	waitFor(t, "ticket y recorded redeemed", redeemed(y.Validation.Digits()))
	if made != nil {
		t.Fatal(made)
	}
	res := b.Results()
	if len(res) != 2 || res[1].Digits != y.Validation.Digits() || res[1].Status != sas.RedeemedCashable {
		t.Fatalf("b's redemptions: %+v", res)
	}
	if tk, err := other.Get(ctx(t), a.Validation.Digits()); err != nil || tk.State != Redeemed || tk.Final.By != "b" {
		t.Fatalf("a, credited at b: %+v %v", tk, err)
	}
	got, err := other.Get(ctx(t), x.Validation.Digits())
	if err != nil || got.State != Issued || got.Released != 1 {
		t.Fatalf("x, held for b by the other system and never credited: %+v %v", got, err)
	}
	if r, err := other.Redemption(ctx(t), "stranger"); err != nil || r.Phase != Released {
		t.Fatalf("the other system's redemption of x: %+v %v", r, err)
	}
	if hs, err := other.Holds(ctx(t), "b"); err != nil || len(hs) != 0 {
		t.Fatalf("b's holds: %+v %v", hs, err)
	}
	if !saidSomething(f, "holds not as known") {
		t.Error("the service did not say it found holds it did not know")
	}
}

// The attack the read of the held ticket before its commit guarded
// against, now the commit's comparison of the ticket's revision: between
// the authorisation at cabinet b and the end of its transfer, another
// ticket system releases the hold and authorises the ticket at cabinet
// m8. The service, which knows b's hold, does not commit it when b
// reports the credit: the ticket stays m8's, and b's redemption stays
// released. b goes on: its next ticket is authorised and credited, put
// in after the end was read or at once (a stack: handOver).
func TestServiceCommitRefusedForATicketChangedElsewhere(t *testing.T) {
	for _, stack := range []bool{false, true} {
		t.Run(fmt.Sprintf("stack=%v", stack), func(t *testing.T) { testChangedElsewhere(t, stack) })
	}
}

func testChangedElsewhere(t *testing.T, stack bool) {
	prefix := fmt.Sprintf("/test/%s/", t.Name())
	s, _ := countedStore(t, prefix)
	other, _ := countedStore(t, prefix)
	f := newFloor(t, s)
	a, c := fresh(t, "m1", 1, 100), fresh(t, "m1", 2, 200)
	issue(t, s, a)
	issue(t, s, c)
	var once sync.Once
	var stolen error
	cfg := titopeer.Config{Name: "b", OnRedeemed: func(r titopeer.Result) {
		if r.Digits != a.Validation.Digits() {
			return
		}
		// Credited at b; the service has not read the end yet.
		once.Do(func() {
			tk, err := other.Get(ctx(t), r.Digits)
			if err != nil || tk.Hold == nil {
				stolen = fmt.Errorf("a at its credit: %+v %v", tk, err)
				return
			}
			if _, err := other.Release(ctx(t), tk.Hold.Redemption, time.Now(), "taken elsewhere"); err != nil {
				stolen = err
				return
			}
			_, stolen = other.Authorize(ctx(t), Request{Digits: r.Digits, By: "m8", ID: "m8-r", At: time.Now()})
		})
	}}
	if stack {
		cfg.Reinsert = func(r titopeer.Result) string {
			if r.Digits == a.Validation.Digits() {
				return c.Validation.Digits()
			}
			return ""
		}
	}
	b, _ := f.add(cfg)
	waitFor(t, "the validation ID of b", func() bool { return b.Enhanced().Configured() })
	if err := b.Insert(a.Validation.Digits()); err != nil {
		t.Fatal(err)
	}
	waitFor(t, "a credited at b", results(b, 1))
	if stolen != nil {
		t.Fatal(stolen)
	}
	if !stack {
		if err := b.Insert(c.Validation.Digits()); err != nil {
			t.Fatal(err)
		}
	}
	waitFor(t, "ticket c recorded redeemed", func() bool { tk, ok := f.ticket(c.Validation.Digits()); return ok && tk.State == Redeemed })
	got, err := other.Get(ctx(t), a.Validation.Digits())
	if err != nil || got.State != Pending || got.Hold.Cabinet != "m8" || got.Hold.Redemption != "m8-r" {
		t.Fatalf("a, taken by m8 before b's credit was read: %+v %v", got, err)
	}
	var bs []Redemption
	rs, err := other.Redemptions(ctx(t))
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range rs {
		if r.By == "b" && r.Digits == a.Validation.Digits() {
			bs = append(bs, r)
		}
	}
	if len(bs) != 1 || bs[0].Phase != Released {
		t.Fatalf("b's redemptions of a: %+v, want one, released", bs)
	}
}

// saidSomething reports whether the service logged a line with what.
func saidSomething(f *floor, what string) bool {
	for {
		select {
		case l := <-f.logs:
			if strings.Contains(l, what) {
				return true
			}
		default:
			return false
		}
	}
}

// A copy of the ticket just credited, presented at once (before the
// service read the credit's end), is the end of the original's hold and
// the copy's presentation together, the one ticket's two steps: the copy
// is decided on the ticket committed, so it is refused as redeemed (SAS
// 84), never as held by the cabinet that credited it (83).
func TestServiceCopyAtOnceIsRefusedAsRedeemed(t *testing.T) {
	f := newFloor(t, newStore(t, sharedCluster(t)))
	tk := fresh(t, "m1", 1, 700)
	issue(t, f.store, tk)
	p, _ := f.add(titopeer.Config{Name: "c", Reinsert: copyOnce()})
	waitFor(t, "the validation ID of c", func() bool { return p.Enhanced().Configured() })
	if err := p.Insert(tk.Validation.Digits()); err != nil {
		t.Fatal(err)
	}
	oneCredit(t, f, p, tk.Validation.Digits(), 700)
	rs, err := f.store.Redemptions(ctx(t))
	if err != nil {
		t.Fatal(err)
	}
	var refused []Redemption
	for _, r := range rs {
		if r.Phase == Refused {
			refused = append(refused, r)
		}
	}
	if len(refused) != 1 || refused[0].Code != sas.TransferAlreadyRedeemed {
		t.Fatalf("refusals: %+v, want the copy's, already redeemed", refused)
	}
}
