package sas

import (
	"io"
	"net"
	"testing"
)

// FlushInput drops exactly what arrived before it: a late reply the host
// no longer waits for goes, the next reply stays whole.
func TestStreamPortFlushInputDropsWhatArrived(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	accepted := make(chan net.Conn, 1)
	go func() {
		c, err := ln.Accept()
		if err != nil {
			close(accepted)
			return
		}
		accepted <- c
	}()
	c, err := net.Dial("tcp", ln.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	p := NewStreamPort(c, ModeContent)
	defer p.Close()
	peer := <-accepted
	if peer == nil {
		t.Fatal("no connection accepted")
	}
	defer peer.Close()

	// Nothing waiting: the flush returns at once, with no error.
	if err := p.FlushInput(); err != nil {
		t.Fatal(err)
	}
	if _, err := peer.Write([]byte("late reply")); err != nil {
		t.Fatal(err)
	}
	// Its first byte read proves the (one-segment) write arrived.
	one := make([]byte, 1)
	if _, err := io.ReadFull(p, one); err != nil || one[0] != 'l' {
		t.Fatalf("read %q, %v", one, err)
	}
	if err := p.FlushInput(); err != nil {
		t.Fatal(err)
	}
	if _, err := peer.Write([]byte("fresh")); err != nil {
		t.Fatal(err)
	}
	got := make([]byte, 5)
	if _, err := io.ReadFull(p, got); err != nil || string(got) != "fresh" {
		t.Fatalf("after the flush read %q, %v; want %q (the late reply's rest dropped)", got, err, "fresh")
	}

	// The drain runs before every poll of a host: after its first it
	// allocates nothing.
	if n := testing.AllocsPerRun(100, func() {
		if err := p.FlushInput(); err != nil {
			t.Fatal(err)
		}
	}); n != 0 {
		t.Errorf("FlushInput allocated %v times a call", n)
	}

	// A closed peer is not an error of the flush: the next Read says EOF.
	peer.Close()
	if err := p.FlushInput(); err != nil {
		t.Fatal(err)
	}
	if _, err := p.Read(got); err != io.EOF {
		t.Fatalf("read after the peer closed: %v, want EOF", err)
	}
}
