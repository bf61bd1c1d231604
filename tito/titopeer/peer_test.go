package titopeer

import (
	"context"
	"sync"
	"testing"
	"time"

	"github.com/openegm/cabinet/sas"
	"github.com/openegm/cabinet/sas/host"
)

// serve runs p on a new Pipe until the test ends and returns the host's
// client of it.
func serve(tb testing.TB, p *Peer) *host.Client {
	tb.Helper()
	m, h := Pipe()
	ctx, cancel := context.WithCancel(context.Background())
	var wg sync.WaitGroup
	wg.Go(func() { p.Serve(ctx, m) })
	tb.Cleanup(func() { cancel(); h.Close(); wg.Wait() })
	return host.New(h, host.Options{Addr: 1, Timeout: 5 * time.Second})
}

// A ticket the host never answers is rejected at the redemption timeout,
// whether or not anybody polls the machine, and reported as such.
func TestRedeemTimeout(t *testing.T) {
	done := make(chan Result, 1)
	p := New(Config{Name: "t", RedeemTimeout: 20 * time.Millisecond, OnRedeemed: func(r Result) { done <- r }})
	c := serve(t, p)
	if err := p.Insert("123456789012345678"); err != nil {
		t.Fatal(err)
	}
	select {
	case r := <-done:
		if r.Status != sas.RedeemTimeout || r.Cents != 0 || r.Digits != "123456789012345678" {
			t.Fatalf("result %+v", r)
		}
	case <-time.After(time.Minute):
		t.Fatal("the ticket was never rejected")
	}
	var seen []sas.Exception
	for range 3 {
		g, err := c.GeneralPoll()
		if err != nil {
			t.Fatal(err)
		}
		seen = append(seen, g.Exception)
	}
	if seen[0] != sas.ExcTicketInserted || seen[1] != sas.ExcTicketTransferDone || seen[2] != sas.ExcNone {
		t.Fatalf("exceptions %v: want ticket inserted, transfer done, none", seen)
	}
	if err := p.Insert("223456789012345678"); err != nil {
		t.Fatalf("a second ticket after the timeout: %v", err)
	}
}

// BenchmarkGeneralPoll is one general poll of an idle machine by the
// ticket system's host client over Pipe: the cost of each of the 5,000
// polls a second of a floor of 1,000 cabinets polled every 200 ms.
func BenchmarkGeneralPoll(b *testing.B) {
	c := serve(b, New(Config{Name: "b"}))
	b.ReportAllocs()
	for b.Loop() {
		g, err := c.GeneralPoll()
		if err != nil || g.Exception != sas.ExcNone {
			b.Fatalf("%+v %v", g, err)
		}
	}
}
