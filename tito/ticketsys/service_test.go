package ticketsys

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"net"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/openegm/cabinet/sas"
	"github.com/openegm/cabinet/sas/host"
	"github.com/openegm/cabinet/tito"
	"github.com/openegm/cabinet/tito/titopeer"
)

// floor is cabinets (lightweight SAS peers) polled by a service over
// in-memory links.
type floor struct {
	t      *testing.T
	store  *Store
	sv     *Service
	ctx    context.Context
	cancel context.CancelFunc
	wg     sync.WaitGroup
	peers  map[string]*titopeer.Peer
	logs   chan string
}

func newFloor(t *testing.T, s *Store) *floor {
	ctx, cancel := context.WithCancel(context.Background())
	f := &floor{t: t, store: s, ctx: ctx, cancel: cancel, peers: map[string]*titopeer.Peer{}, logs: make(chan string, 1000)}
	f.sv = NewService(s, ServiceConfig{Casino: "Casino Lusitânia", Poll: 5 * time.Millisecond, RestrictedTickets: true,
		Log: func(format string, a ...any) {
			select {
			case f.logs <- fmt.Sprintf(format, a...):
			default:
			}
		}})
	t.Cleanup(f.stop)
	return f
}

func (f *floor) stop() {
	f.cancel()
	f.wg.Wait()
}

// add starts a peer and its poller; stopService ends only the poller.
func (f *floor) add(cfg titopeer.Config) (p *titopeer.Peer, stopService func()) {
	p = titopeer.New(cfg)
	f.peers[cfg.Name] = p
	m, h := titopeer.Pipe()
	f.wg.Go(func() {
		if err := p.Serve(f.ctx, m); err != nil {
			f.t.Error(err)
		}
	})
	return p, f.serve(p, cfg.Style, h)
}

func (f *floor) serve(p *titopeer.Peer, style tito.Style, port sas.Port) func() {
	ctx, cancel := context.WithCancel(f.ctx)
	done := make(chan struct{})
	cl := host.New(port, host.Options{Addr: 1, Timeout: time.Second})
	f.wg.Go(func() {
		defer close(done)
		if err := f.sv.Run(ctx, Cabinet{Name: p.Name(), Client: cl, Style: style}); err != nil {
			f.t.Error(err)
		}
	})
	return func() { cancel(); <-done }
}

// waitFor polls cond for up to 30 s (a loaded machine is slow, never wrong).
func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("waited 30 s for %s", what)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

func (f *floor) ticket(digits string) (Ticket, bool) {
	t, err := f.store.Get(f.ctx, digits)
	return t, err == nil
}

func results(p *titopeer.Peer, n int) func() bool {
	return func() bool { return len(p.Results()) >= n }
}

// Two cabinets are never given one validation ID (they would print the
// same numbers): an ID drawn again for another cabinet is drawn anew,
// and a cabinet keeps the ID it was given.
func TestServiceValidationIDsDistinct(t *testing.T) {
	ctx := context.Background()
	draws := bytes.NewReader([]byte{1, 2, 3, 1, 2, 3, 4, 5, 6})
	sv := NewService(newStore(t, sharedCluster(t)), ServiceConfig{Rand: draws})
	a, err := sv.ValidationID(ctx, "a")
	if err != nil || a != 0x030201 {
		t.Fatalf("a: %06X %v, want 030201", a, err)
	}
	b, err := sv.ValidationID(ctx, "b")
	if err != nil || b != 0x060504 {
		t.Fatalf("b: %06X %v, want 060504 (030201 is a's)", b, err)
	}
	if again, err := sv.ValidationID(ctx, "a"); err != nil || again != a {
		t.Fatalf("a again: %06X %v, want %06X", again, err, a)
	}
}

// Ticket out on one cabinet, in on another: recorded once, credited once;
// the same ticket again, at either, is refused and credits nothing.
func TestServiceTicketOutAndIn(t *testing.T) {
	f := newFloor(t, newStore(t, sharedCluster(t)))
	a, _ := f.add(titopeer.Config{Name: "a"})
	b, _ := f.add(titopeer.Config{Name: "b"})
	waitFor(t, "the validation ID of a", func() bool { return a.Enhanced().Configured() })
	id, err := f.sv.ValidationID(f.ctx, "a")
	if err != nil || a.Enhanced().ID != id {
		t.Fatalf("a's validation ID %06X, etcd's %06X (%v)", a.Enhanced().ID, id, err)
	}
	a.AddCredits(12345)
	if err := a.Cashout(12345); err != nil {
		t.Fatal(err)
	}
	printed := a.Printed()[0]
	digits := printed.Validation.Digits()
	waitFor(t, "the ticket recorded", func() bool { _, ok := f.ticket(digits); return ok })
	rec, _ := f.ticket(digits)
	if rec.Cents != 12345 || rec.Machine != "a" || rec.State != Issued || rec.Number != printed.Number {
		t.Fatalf("recorded %+v for printed %+v", rec, printed)
	}
	if err := b.Insert(digits); err != nil {
		t.Fatal(err)
	}
	waitFor(t, "b's redemption", results(b, 1))
	if r := b.Results()[0]; r.Status != sas.RedeemedCashable || r.Cents != 12345 || b.Credits() != 12345 {
		t.Fatalf("b: %+v, credits %d", r, b.Credits())
	}
	waitFor(t, "the ticket redeemed", func() bool { r, _ := f.ticket(digits); return r.State == Redeemed })
	if r, _ := f.ticket(digits); r.Final.By != "b" {
		t.Fatalf("redeemed by %+v", r.Final)
	}
	for _, p := range []*titopeer.Peer{b, a} {
		n := len(p.Results())
		if err := p.Insert(digits); err != nil {
			t.Fatal(err)
		}
		waitFor(t, "the second redemption", results(p, n+1))
		if r := p.Results()[n]; r.Status != sas.RedeemRejectedByHost || r.Cents != 0 {
			t.Fatalf("again at %s: %+v", p.Name(), r)
		}
	}
	if a.Credits() != 0 || b.Credits() != 12345 {
		t.Fatalf("credits a %d, b %d", a.Credits(), b.Credits())
	}
}

// A ticket inserted at a cabinet polled once a minute is redeemed at
// SAS's ticketing pace all the same: once the cabinet reports the ticket,
// it is polled every 40 ms until the redemption is over, so the transfer's
// end (0x68), which records the ticket redeemed and ends the hold, does
// not wait a whole idle pause. With the service's pause alone, the 30 s
// wait for the record would run out.
func TestServiceRedemptionAtTicketingPace(t *testing.T) {
	f := newFloor(t, newStore(t, sharedCluster(t)))
	a, _ := f.add(titopeer.Config{Name: "a"})
	waitFor(t, "the validation ID of a", func() bool { return a.Enhanced().Configured() })
	a.AddCredits(2500)
	if err := a.Cashout(2500); err != nil {
		t.Fatal(err)
	}
	digits := a.Printed()[0].Validation.Digits()
	waitFor(t, "the ticket recorded", func() bool { _, ok := f.ticket(digits); return ok })

	slow := NewService(f.store, ServiceConfig{Casino: "Casino Lusitânia", Poll: time.Minute})
	b := titopeer.New(titopeer.Config{Name: "b"})
	m, h := titopeer.Pipe()
	f.wg.Go(func() {
		if err := b.Serve(f.ctx, m); err != nil {
			t.Error(err)
		}
	})
	if err := b.Insert(digits); err != nil {
		t.Fatal(err)
	}
	cl := host.New(h, host.Options{Addr: 1, Timeout: time.Second})
	f.wg.Go(func() {
		if err := slow.Run(f.ctx, Cabinet{Name: "b", Client: cl}); err != nil {
			t.Error(err)
		}
	})
	waitFor(t, "b's redemption", results(b, 1))
	if r := b.Results()[0]; r.Status != sas.RedeemedCashable || r.Cents != 2500 || b.Credits() != 2500 {
		t.Fatalf("b: %+v, credits %d", r, b.Credits())
	}
	waitFor(t, "the ticket recorded redeemed by b (its 0x68 read)", func() bool { r, _ := f.ticket(digits); return r.State == Redeemed && r.Final.By == "b" })
}

// One ticket inserted at two cabinets at once, many times: one credits it.
func TestServiceConcurrentInsertion(t *testing.T) {
	f := newFloor(t, newStore(t, sharedCluster(t)))
	var cabs []*titopeer.Peer
	for i := range 3 {
		p, _ := f.add(titopeer.Config{Name: fmt.Sprintf("c%d", i)})
		cabs = append(cabs, p)
	}
	rounds := 15
	for round := range rounds {
		tk := fresh(t, "m", uint32(round+1), 500+int64(round))
		issue(t, f.store, tk)
		for _, p := range cabs[1:] {
			if err := p.Insert(tk.Validation.Digits()); err != nil {
				t.Fatal(err)
			}
		}
		for _, p := range cabs[1:] {
			waitFor(t, "both redemptions", results(p, round+1))
		}
		credited := 0
		for _, p := range cabs[1:] {
			if r := p.Results()[round]; r.Status == sas.RedeemedCashable {
				credited++
				if r.Cents != tk.Cents {
					t.Fatalf("round %d: credited %d, ticket %d", round, r.Cents, tk.Cents)
				}
			} else if r.Status != sas.RedeemRejectedByHost {
				t.Fatalf("round %d: %+v", round, r)
			}
		}
		if credited != 1 {
			t.Fatalf("round %d: %d cabinets credited the ticket", round, credited)
		}
	}
	var sum int64
	for _, p := range cabs {
		sum += p.Credits()
	}
	if want := int64(rounds*500 + rounds*(rounds-1)/2); sum != want {
		t.Fatalf("credited %d in all, tickets worth %d", sum, want)
	}
}

// System validation: the service's number is recorded before the cabinet
// prints it.
func TestServiceSystemValidation(t *testing.T) {
	f := newFloor(t, newStore(t, sharedCluster(t)))
	s, _ := f.add(titopeer.Config{Name: "s", Style: tito.StyleSystem})
	s.AddCredits(700)
	if err := s.Cashout(700); err != nil {
		t.Fatal(err)
	}
	waitFor(t, "the system ticket printed", func() bool { return len(s.Printed()) == 1 })
	v := s.Printed()[0].Validation
	if v.Style != tito.StyleSystem || v.SystemID != 1 {
		t.Fatalf("printed %+v", v)
	}
	rec, ok := f.ticket(v.Digits())
	if !ok || rec.Cents != 700 || rec.State != Issued || rec.Style != tito.StyleSystem {
		t.Fatalf("recorded %+v (%v)", rec, ok)
	}
	if s.Credits() != 0 {
		t.Fatalf("credits after the ticket: %d", s.Credits())
	}
}

// The service stopped while a cabinet held a ticket: at start it asks the
// cabinet and finishes what the cabinet did, or releases what it did not.
func TestServiceSettlesHoldsAtStart(t *testing.T) {
	f := newFloor(t, newStore(t, sharedCluster(t)))
	waiting := fresh(t, "m", 1, 300)
	forgotten := fresh(t, "m", 2, 400)
	issue(t, f.store, waiting)
	issue(t, f.store, forgotten)
	now := time.Now()
	// Before the "crash": both authorised to their cabinets, no 0x71 sent.
	for _, c := range []struct {
		tk  tito.Ticket
		cab string
	}{{waiting, "w"}, {forgotten, "x"}} {
		if a, err := f.store.Authorize(f.ctx, req(c.tk, c.cab, c.cab+"-1", now)); err != nil || a.Phase != Authorised {
			t.Fatalf("%+v %v", a, err)
		}
	}
	// Cabinet w still has the ticket in escrow, waiting for 0x71; cabinet
	// x has no redemption at all (it timed out and forgot, say).
	w := titopeer.New(titopeer.Config{Name: "w", RedeemTimeout: time.Hour})
	if err := w.Insert(waiting.Validation.Digits()); err != nil {
		t.Fatal(err)
	}
	m, h := titopeer.Pipe()
	f.wg.Go(func() { w.Serve(f.ctx, m) })
	f.serve(w, tito.StyleSecureEnhanced, h)
	f.add(titopeer.Config{Name: "x"})

	waitFor(t, "w credited", results(w, 1))
	if r := w.Results()[0]; r.Status != sas.RedeemedCashable || r.Cents != 300 {
		t.Fatalf("w: %+v", r)
	}
	waitFor(t, "both holds settled", func() bool {
		a, _ := f.ticket(waiting.Validation.Digits())
		b, _ := f.ticket(forgotten.Validation.Digits())
		return a.State == Redeemed && b.State == Issued
	})
	if b, _ := f.ticket(forgotten.Validation.Digits()); b.Released != 1 {
		t.Fatalf("forgotten ticket %+v", b)
	}
}

// A cabinet that times out waiting for the host rejects the ticket; the
// hold the service took is released and the ticket can be used again.
func TestServiceReleasesOnRejection(t *testing.T) {
	f := newFloor(t, newStore(t, sharedCluster(t)))
	tk := fresh(t, "m", 1, 900)
	issue(t, f.store, tk)
	// The service authorises, then "crashes" before sending 0x71: modelled
	// by authorising directly and starting the service after the cabinet
	// gave up.
	now := time.Now()
	if _, err := f.store.Authorize(f.ctx, req(tk, "r", "r-1", now)); err != nil {
		t.Fatal(err)
	}
	r := titopeer.New(titopeer.Config{Name: "r", RedeemTimeout: time.Millisecond})
	if err := r.Insert(tk.Validation.Digits()); err != nil {
		t.Fatal(err)
	}
	m, h := titopeer.Pipe()
	f.wg.Go(func() { r.Serve(f.ctx, m) })
	waitFor(t, "the cabinet's timeout", results(r, 1))
	if got := r.Results()[0]; got.Status != sas.RedeemTimeout {
		t.Fatalf("cabinet: %+v", got)
	}
	f.serve(r, tito.StyleSecureEnhanced, h)
	waitFor(t, "the hold released", func() bool { x, _ := f.ticket(tk.Validation.Digits()); return x.State == Issued })
	other, _ := f.add(titopeer.Config{Name: "o"})
	if err := other.Insert(tk.Validation.Digits()); err != nil {
		t.Fatal(err)
	}
	waitFor(t, "the second cabinet", results(other, 1))
	if got := other.Results()[0]; got.Status != sas.RedeemedCashable || got.Cents != 900 {
		t.Fatalf("second cabinet: %+v", got)
	}
}

// A cabinet with standard validation prints predictable numbers: the
// service refuses to poll it rather than record forgeable tickets.
func TestServiceRefusesStandardValidation(t *testing.T) {
	sv := NewService(newStore(t, sharedCluster(t)), ServiceConfig{})
	_, h := titopeer.Pipe()
	err := sv.Run(context.Background(), Cabinet{Name: "std", Client: host.New(h, host.Options{Addr: 1}), Style: tito.StyleStandard})
	if !errors.Is(err, ErrInvalid) || !strings.Contains(err.Error(), "std") {
		t.Fatalf("standard validation: %v", err)
	}
}

func TestSystemNumbersUniform(t *testing.T) {
	sv := NewService(nil, ServiceConfig{SystemID: 42})
	seen := map[string]bool{}
	for range 1000 {
		v, err := sv.systemNumber()
		if err != nil || v.SystemID != 42 || v.Check() != nil {
			t.Fatalf("%+v %v", v, err)
		}
		if seen[v.Number] {
			t.Fatalf("number %s twice in 1000", v.Number)
		}
		seen[v.Number] = true
	}
}

// fresh is a ticket printed now, which the service's clock has not seen
// expire.
func fresh(t testing.TB, m string, seq uint32, cents int64) tito.Ticket {
	tk := printed(t, m, seq, cents)
	tk.Issued = time.Now()
	return tk
}

// TestServiceReconnectsMidRedemption: the link drops as the cabinet
// credits a ticket, before the service reads its reply; the service opens
// the link again, settles its hold with 0x71 FF and commits it. The
// ticket is credited once and the store agrees. A ticket printed while
// the link was down is recorded when it comes back.
func TestServiceReconnectsMidRedemption(t *testing.T) {
	f := newFloor(t, newStore(t, sharedCluster(t)))
	tk := fresh(t, "m", 1, 2500)
	issue(t, f.store, tk)
	var mu sync.Mutex
	var conn net.Conn // the machine's end of the link being served
	dials := 0
	cut := func() {
		mu.Lock()
		defer mu.Unlock()
		conn.Close()
	}
	var p *titopeer.Peer
	p = titopeer.New(titopeer.Config{Name: "d", OnRedeemed: func(titopeer.Result) {
		// The credit is done; its reply (40) never leaves: the link is
		// cut here, before the peer writes it (the in-memory pipe takes
		// a write at once, so a cut on another goroutine could come
		// after the reply had left, and the test would see no outage).
		cut()
	}})
	dial := func(ctx context.Context) (*host.Client, error) {
		m, h := titopeer.Pipe()
		mu.Lock()
		conn, dials = m, dials+1
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
	waitFor(t, "the ticket redeemed by d", func() bool { r, _ := f.ticket(tk.Validation.Digits()); return r.State == Redeemed })
	if r := p.Results(); len(r) != 1 || r[0].Status != sas.RedeemedCashable || p.Credits() != 2500 {
		t.Fatalf("cabinet: %+v, credits %d", r, p.Credits())
	}
	if r, _ := f.ticket(tk.Validation.Digits()); r.Final.By != "d" || r.Released != 0 {
		t.Fatalf("store: %+v", r)
	}
	if h, err := f.store.Holds(f.ctx, "d"); err != nil || len(h) != 0 {
		t.Fatalf("holds %v %v", h, err)
	}
	mu.Lock()
	if dials < 2 {
		t.Fatalf("dialled %d times: the link was never opened again", dials)
	}
	mu.Unlock()

	// Down again, a ticket printed meanwhile: recorded when it is back.
	cut()
	p.AddCredits(700)
	if err := p.Cashout(700); err != nil {
		t.Fatal(err)
	}
	digits := p.Printed()[0].Validation.Digits()
	waitFor(t, "the ticket printed while down, recorded", func() bool { _, ok := f.ticket(digits); return ok })
}

// TestServiceDeniesAboveTheTicketLimit: system validation of a cash-out
// above the limit is denied (58 with system ID 00); nothing is recorded.
func TestServiceDeniesAboveTheTicketLimit(t *testing.T) {
	s := newStore(t, sharedCluster(t))
	f := newFloor(t, s)
	f.sv.cfg.TicketLimit = 1000
	p, _ := f.add(titopeer.Config{Name: "l", Style: tito.StyleSystem})
	p.AddCredits(5000)
	if err := p.Cashout(2000); err != nil {
		t.Fatal(err)
	}
	waitFor(t, "the denial", func() bool { return p.Cashout(500) == nil }) // not busy: the 2000 was answered
	waitFor(t, "the ticket under the limit", func() bool { return len(p.Printed()) == 1 })
	if pt := p.Printed(); pt[0].Cents != 500 || p.Credits() != 4500 {
		t.Fatalf("printed %+v, credits %d", pt, p.Credits())
	}
	all, err := s.List(f.ctx)
	if err != nil || len(all) != 1 || all[0].Cents != 500 {
		t.Fatalf("recorded %+v %v", all, err)
	}
}

// A restricted ticket out on one cabinet (0x4D type 01) is recorded with
// its pool and expiration; at another it is redeemed with 0x71 code 01 as
// restricted credits of that pool, once; one holding restricted credits of
// another pool refuses it (87) and the ticket stays good; the cashier
// never pays it.
func TestServiceRestrictedTicket(t *testing.T) {
	f := newFloor(t, newStore(t, sharedCluster(t)))
	a, _ := f.add(titopeer.Config{Name: "a"})
	b, _ := f.add(titopeer.Config{Name: "b"})
	c, _ := f.add(titopeer.Config{Name: "c"})
	waitFor(t, "the validation ID of a", func() bool { return a.Enhanced().Configured() })
	a.AddRestricted(titopeer.Restricted{Cents: 800, Pool: 7, Until: 10312099})
	// The service turns restricted tickets on (0x7B) after 4C.
	waitFor(t, "restricted tickets on", func() bool { return a.CashoutRestricted() == nil })
	digits := a.Printed()[0].Validation.Digits()
	waitFor(t, "the ticket recorded", func() bool { _, ok := f.ticket(digits); return ok })
	if rec, _ := f.ticket(digits); rec.Kind != tito.KindRestricted || rec.Pool != 7 || rec.Until != 10312099 || rec.Cents != 800 {
		t.Fatalf("recorded %+v", rec)
	}
	if r, err := f.store.Redeem(f.ctx, Request{Digits: digits, By: "cashier:ana", ID: "cash-1", At: time.Now()}); err != nil || r.Code.Accepts() {
		t.Fatalf("the cashier: %+v %v", r, err)
	}

	c.AddRestricted(titopeer.Restricted{Cents: 50, Pool: 3})
	if err := c.Insert(digits); err != nil {
		t.Fatal(err)
	}
	waitFor(t, "c's redemption", results(c, 1))
	if r := c.Results()[0]; r.Status != sas.RedeemUnableNow || c.RestrictedCredits() != (titopeer.Restricted{Cents: 50, Pool: 3}) {
		t.Fatalf("c, with pool 3: %+v, restricted %+v", r, c.RestrictedCredits())
	}
	waitFor(t, "the hold released", func() bool { r, _ := f.ticket(digits); return r.State == Issued })

	if err := b.Insert(digits); err != nil {
		t.Fatal(err)
	}
	waitFor(t, "b's redemption", results(b, 1))
	if r := b.Results()[0]; r.Status != sas.RedeemedRestricted || r.Cents != 800 || b.Credits() != 0 ||
		b.RestrictedCredits() != (titopeer.Restricted{Cents: 800, Pool: 7, Until: 10312099}) {
		t.Fatalf("b: %+v, cashable %d, restricted %+v", r, b.Credits(), b.RestrictedCredits())
	}
	waitFor(t, "the ticket redeemed", func() bool { r, _ := f.ticket(digits); return r.State == Redeemed })
	if err := b.Insert(digits); err != nil {
		t.Fatal(err)
	}
	waitFor(t, "the second redemption", results(b, 2))
	if r := b.Results()[1]; r.Status != sas.RedeemRejectedByHost || b.RestrictedCredits().Cents != 800 {
		t.Fatalf("again: %+v, restricted %+v", r, b.RestrictedCredits())
	}
}

// Two cabinets given one validation ID before IDs were reserved (written
// as the service wrote them then: c/ alone): the first to start keeps it
// and it is reserved for it; the second draws a new one and keeps that.
func TestServiceValidationIDsGivenTwiceBefore(t *testing.T) {
	ctx := context.Background()
	st := newStore(t, sharedCluster(t))
	for _, cab := range []string{"a", "b"} {
		if _, err := st.cli.Put(ctx, st.prefix+"c/"+cab, `{"validation_id":197121}`); err != nil { // 0x030201
			t.Fatal(err)
		}
	}
	sv := NewService(st, ServiceConfig{Rand: bytes.NewReader([]byte{1, 2, 3, 4, 5, 6})})
	a, err := sv.ValidationID(ctx, "a")
	if err != nil || a != 0x030201 {
		t.Fatalf("a: %06X %v, want the 030201 it was given", a, err)
	}
	b, err := sv.ValidationID(ctx, "b")
	if err != nil || b == a || b != 0x060504 {
		t.Fatalf("b: %06X %v, want a new ID (060504: 030201, drawn first, is a's)", b, err)
	}
	for cab, want := range map[string]uint32{"a": a, "b": b} {
		if again, err := sv.ValidationID(ctx, cab); err != nil || again != want {
			t.Fatalf("%s again: %06X %v, want %06X", cab, again, err, want)
		}
		r, err := st.cli.Get(ctx, validationKey(st.prefix, want))
		if err != nil || len(r.Kvs) != 1 || string(r.Kvs[0].Value) != cab {
			t.Fatalf("v/%06X: %v %v, want %s", want, r, err, cab)
		}
	}
}
