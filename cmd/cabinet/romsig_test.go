package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/openegm/cabinet/machine"
	"github.com/openegm/cabinet/meters"
	"github.com/openegm/cabinet/sas"
)

// Many requests from many goroutines: one computation at a time, never
// more than romSignQueue seeds waiting, each accepted seed signed once and
// right (the CRC over the parts is the CRC of their concatenation), each
// refused one refused only with the queue full.
func TestROMSignerOneAtATimeBoundedQueue(t *testing.T) {
	image := [][]byte{bytes.Repeat([]byte("program"), 200_000), []byte("paytable"), []byte("jackpot")}
	whole := bytes.Join(image, nil)
	var mu sync.Mutex
	got := map[uint16][]uint16{}
	r := newROMSigner(image, func(seed, sig uint16) {
		mu.Lock()
		got[seed] = append(got[seed], sig)
		mu.Unlock()
	})
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go r.run(ctx)

	accepted := make([]bool, 1000)
	var wg sync.WaitGroup
	for g := range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := g; i < len(accepted); i += 4 {
				accepted[i] = r.request(uint16(i))
			}
		}()
	}
	wg.Wait()
	n := 0
	for _, ok := range accepted {
		if ok {
			n++
		}
	}
	if n == 0 || n == len(accepted) {
		t.Fatalf("%d of %d requests accepted: the queue is not bounded or takes nothing", n, len(accepted))
	}
	deadline := time.Now().Add(60 * time.Second)
	for {
		mu.Lock()
		done := len(got)
		mu.Unlock()
		if done == n {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("%d of %d accepted seeds signed", done, n)
		}
		time.Sleep(10 * time.Millisecond)
	}
	for seed, sigs := range got {
		if !accepted[seed] || len(sigs) != 1 || sigs[0] != sas.CRCSeeded(seed, whole) {
			t.Errorf("seed %04X (accepted %v): signatures %04X, want one %04X", seed, accepted[seed], sigs, sas.CRCSeeded(seed, whole))
		}
	}
	if m := r.maxRunning.Load(); m != 1 {
		t.Errorf("%d signatures computed at once", m)
	}
	if m := r.maxWaiting.Load(); m > romSignQueue {
		t.Errorf("%d seeds waited, bound %d", m, romSignQueue)
	}
}

// A host repeating 0x21 with the same seed while it waits does not queue
// it again.
func TestROMSignerSameSeedOnce(t *testing.T) {
	r := newROMSigner([][]byte{[]byte("x")}, func(seed, sig uint16) {})
	for range 10 {
		if !r.request(7) {
			t.Fatal("a repeated seed refused")
		}
	}
	if len(r.waiting) != 1 {
		t.Fatalf("waiting %v", r.waiting)
	}
	for s := uint16(1); s < romSignQueue; s++ {
		if !r.request(s) {
			t.Fatalf("seed %d refused with room in the queue", s)
		}
	}
	if r.request(100) {
		t.Fatal("a seed accepted with the queue full")
	}
	if !r.request(7) {
		t.Fatal("a seed already queued refused because the queue is full")
	}
}

// The files the signature covers are read at start-up: changed later on
// disk, they do not change it.
func TestROMImageReadAtStartUp(t *testing.T) {
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "b.json"), []byte("B"), 0o644)
	os.WriteFile(filepath.Join(dir, "a.json"), []byte("A"), 0o644)
	os.WriteFile(filepath.Join(dir, "a.json.sig"), []byte("S"), 0o644)
	jp := filepath.Join(t.TempDir(), "jackpot.json")
	os.WriteFile(jp, []byte("J"), 0o644)
	parts, err := romImage([]byte("P"), dir, jp)
	if err != nil {
		t.Fatal(err)
	}
	if got := string(bytes.Join(parts, nil)); got != "PASBJ" {
		t.Fatalf("image %q, want program, paytable files in name order, jackpot file", got)
	}
	os.WriteFile(filepath.Join(dir, "a.json"), []byte("tampered"), 0o644)
	if got := string(bytes.Join(parts, nil)); got != "PASBJ" {
		t.Fatalf("image %q after the file changed", got)
	}
	if _, err := romImage(nil, "", ""); err == nil {
		t.Fatal("an image without the program")
	}
	if parts, err := romImage([]byte("P"), "", "embedded"); err != nil || len(parts) != 1 {
		t.Fatalf("embedded jackpot: %q %v", parts, err)
	}
}

// Without the image (the program could not be read: the program tilt
// says so) 0x21 is not answered; with a full queue it is answered busy.
func TestROMSignaturePoll(t *testing.T) {
	poll := func(seed uint16) []byte { return sas.LongPollFrame(1, 0x21, byte(seed), byte(seed>>8)) }
	p := newTestPort(t, meters.NewState(), machine.View{Mode: "idle"})
	if got := p.poll(poll(1)); got != nil {
		t.Fatalf("0x21 without an image answered % X", got)
	}
	p.rom = newROMSigner([][]byte{[]byte("P")}, func(seed, sig uint16) {}) // not running: the queue fills
	for s := range uint16(romSignQueue) {
		if got := p.poll(poll(s)); !bytes.Equal(got, []byte{1}) {
			t.Fatalf("seed %d answered % X, want ACK", s, got)
		}
	}
	if got := p.poll(poll(99)); !bytes.Equal(got, []byte{1, 0}) {
		t.Fatalf("0x21 with the queue full answered % X, want busy", got)
	}
}
