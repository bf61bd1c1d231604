package titopeer

import (
	"context"
	"errors"
	"io"
	"net"
	"os"
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

// Pipe carries bytes both ways without waiting for the reader; the host
// drops what it did not read at once; a Read waits until its deadline; a
// closed end reads what was left and then io.EOF, and neither end writes
// any more.
func TestPipe(t *testing.T) {
	m, h := Pipe()
	f, ok := h.(interface{ FlushInput() error })
	if !ok {
		t.Fatal("the host's end cannot drop stale input")
	}
	if _, err := m.Write([]byte{1, 2, 3}); err != nil {
		t.Fatal(err)
	}
	if err := f.FlushInput(); err != nil {
		t.Fatal(err)
	}
	if _, err := m.Write([]byte{4}); err != nil {
		t.Fatal(err)
	}
	buf := make([]byte, 8)
	if n, err := h.Read(buf); err != nil || n != 1 || buf[0] != 4 {
		t.Fatalf("after the flush: %v %v, want only the byte written since", buf[:n], err)
	}
	h.SetReadDeadline(time.Now().Add(10 * time.Millisecond))
	if _, err := h.Read(buf); !errors.Is(err, os.ErrDeadlineExceeded) {
		t.Fatalf("a read with nothing to read: %v, want the deadline", err)
	}
	h.SetReadDeadline(time.Time{})
	if err := h.WriteWakeup(0x81); err != nil {
		t.Fatal(err)
	}
	if n, err := m.Read(buf); err != nil || n != 1 || buf[0] != 0x81 {
		t.Fatalf("the machine read %v %v", buf[:n], err)
	}
	read := make(chan error, 1)
	go func() { _, err := m.Read(buf); read <- err }()
	time.Sleep(5 * time.Millisecond) // a Read waiting when its end closes
	m.Write([]byte{9})
	m.Close()
	if err := <-read; !errors.Is(err, net.ErrClosed) && err != nil {
		t.Fatalf("the machine's read as it closed: %v", err)
	}
	if n, err := h.Read(buf); err != nil || n != 1 || buf[0] != 9 {
		t.Fatalf("the host read %v %v, want what the machine wrote before it closed", buf[:n], err)
	}
	if _, err := h.Read(buf); err != io.EOF {
		t.Fatalf("the host read %v after the machine closed, want EOF", err)
	}
	if _, err := h.Write([]byte{1}); err == nil {
		t.Fatal("the host wrote to a closed machine")
	}
	if _, err := m.Write([]byte{1}); err == nil {
		t.Fatal("the machine wrote after closing")
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
