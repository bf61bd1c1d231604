package ticketsys

import (
	"context"
	"net"
	"sync"
	"testing"
	"time"

	"github.com/openegm/cabinet/sas"
	"github.com/openegm/cabinet/sas/host"
	"github.com/openegm/cabinet/tito"
	"github.com/openegm/cabinet/tito/titopeer"
)

// Issue 23: a copy of a ticket presented at the cabinet that has just
// credited the original, before the service read the credit's 0x68. The
// peer keeps no memory of what it credited (it would credit the copy):
// the ticket system alone must refuse it, and record the one credit.

// copyOnce is a Reinsert that feeds a copy of the first ticket credited.
func copyOnce() func(titopeer.Result) string {
	var once sync.Once
	return func(r titopeer.Result) (d string) {
		if r.Status == sas.RedeemedCashable {
			once.Do(func() { d = r.Digits })
		}
		return d
	}
}

// oneCredit checks that p credited the ticket once and refused the copy,
// and that the store holds one redemption of it, by p.
func oneCredit(t *testing.T, f *floor, p *titopeer.Peer, digits string, cents int64) {
	t.Helper()
	waitFor(t, "the copy's end", results(p, 2))
	waitFor(t, "the ticket settled", func() bool { r, _ := f.ticket(digits); return r.State != Pending })
	res := p.Results()
	if res[0].Status != sas.RedeemedCashable || res[1].Status != sas.RedeemRejectedByHost || p.Credits() != cents {
		t.Fatalf("the cabinet: %+v, credits %d; want one credit of %d and the copy refused", res, p.Credits(), cents)
	}
	rec, _ := f.ticket(digits)
	redeemed := 0
	for _, e := range rec.History {
		if e.What == "redeemed" {
			redeemed++
		}
	}
	if rec.State != Redeemed || rec.Final.By != p.Name() || redeemed != 1 || rec.Released != 0 {
		t.Fatalf("the store: %+v", rec)
	}
	if h, err := f.store.Holds(f.ctx, p.Name()); err != nil || len(h) != 0 {
		t.Fatalf("holds %v %v", h, err)
	}
}

// TestServiceRefusesACopyWhileTheCreditIsPending: the copy is in the
// validator before the service polls again, so the credit's 0x68 reads
// the copy's status (20, waiting), never the credit's; the copy's 0x67
// finds the ticket still held here. The count of tickets redeemed says
// the hold was credited: committed, and the copy refused.
func TestServiceRefusesACopyWhileTheCreditIsPending(t *testing.T) {
	f := newFloor(t, newStore(t, sharedCluster(t)))
	tk := fresh(t, "m", 1, 1700)
	issue(t, f.store, tk)
	p, _ := f.add(titopeer.Config{Name: "c", Reinsert: copyOnce()})
	waitFor(t, "the validation ID", func() bool { return p.Enhanced().Configured() })
	if err := p.Insert(tk.Validation.Digits()); err != nil {
		t.Fatal(err)
	}
	oneCredit(t, f, p, tk.Validation.Digits(), 1700)
}

// TestServiceRefusesACopyAfterItCameBack: the link drops as the cabinet
// credits (its reply 40 never leaves), the copy goes in at once, and the
// service finds it waiting when it starts the cabinet again: the hold is
// settled by the count (credited), not by the status (the copy waiting
// for an answer), and the copy is refused.
func TestServiceRefusesACopyAfterItCameBack(t *testing.T) {
	f := newFloor(t, newStore(t, sharedCluster(t)))
	tk := fresh(t, "m", 1, 2300)
	issue(t, f.store, tk)
	var mu sync.Mutex
	var conn net.Conn
	cut := func() {
		mu.Lock()
		defer mu.Unlock()
		conn.Close()
	}
	var p *titopeer.Peer
	p = titopeer.New(titopeer.Config{Name: "d", Reinsert: copyOnce(), OnRedeemed: func(r titopeer.Result) {
		if r.Status == sas.RedeemedCashable {
			go cut()
		}
	}})
	dial := func(ctx context.Context) (*host.Client, error) {
		m, h := titopeer.Pipe()
		mu.Lock()
		conn = m
		mu.Unlock()
		f.wg.Go(func() { p.Serve(f.ctx, m) })
		return host.New(h, host.Options{Addr: 1, Timeout: time.Second}), nil
	}
	f.wg.Go(func() {
		if err := f.sv.Run(f.ctx, Cabinet{Name: "d", Dial: dial}); err != nil {
			t.Error(err)
		}
	})
	waitFor(t, "the validation ID", func() bool { return p.Enhanced().Configured() })
	if err := p.Insert(tk.Validation.Digits()); err != nil {
		t.Fatal(err)
	}
	oneCredit(t, f, p, tk.Validation.Digits(), 2300)
}

// TestServiceAnswersAgainWhatTheCabinetNeverCredited: crash recovery
// stays. A hold authorised at count 0 (the service stopped before its
// 0x71), the cabinet still at 0 with the ticket waiting: the same
// authorisation is given to it, credited once, and committed by the count.
func TestServiceAnswersAgainWhatTheCabinetNeverCredited(t *testing.T) {
	f := newFloor(t, newStore(t, sharedCluster(t)))
	tk := fresh(t, "m", 1, 800)
	issue(t, f.store, tk)
	zero := uint64(0)
	r := req(tk, "w", "w-1", time.Now())
	r.Seq = &zero
	if a, err := f.store.Authorize(f.ctx, r); err != nil || a.Phase != Authorised {
		t.Fatalf("%+v %v", a, err)
	}
	w := titopeer.New(titopeer.Config{Name: "w", RedeemTimeout: time.Hour})
	if err := w.Insert(tk.Validation.Digits()); err != nil {
		t.Fatal(err)
	}
	m, h := titopeer.Pipe()
	f.wg.Go(func() { w.Serve(f.ctx, m) })
	f.serve(w, tito.StyleSecureEnhanced, h)
	waitFor(t, "w credited", results(w, 1))
	waitFor(t, "the hold committed", func() bool { r, _ := f.ticket(tk.Validation.Digits()); return r.State == Redeemed })
	if res := w.Results(); len(res) != 1 || res[0].Status != sas.RedeemedCashable || w.Credits() != 800 {
		t.Fatalf("w: %+v, credits %d", res, w.Credits())
	}
	if rec, _ := f.ticket(tk.Validation.Digits()); rec.Final.Redemption != "w-1" {
		t.Fatalf("redeemed by %+v", rec.Final)
	}
}
