package rng

import (
	"bytes"
	"testing"

	"golang.org/x/crypto/chacha20"
)

var _ Source = (*Stream)(nil)

// The locked generator and the unlocked Stream are one definition of the
// draw: for the same seed they give the same values however the stream is
// consumed, across refills, rejections and unaligned reads.
func TestStreamDrawsEqualRNG(t *testing.T) {
	// 1<<63 + 1 rejects almost half of all draws; 3<<62 a quarter.
	bounds := []uint64{1, 2, 3, 5, 37, 43, 44, 45, 46, 1000, 1<<63 + 1, 3 << 62, 1<<64 - 1}
	for _, seed := range []uint64{0, 1, 42, 1 << 40} {
		r, s := NewSeeded(seed), NewSeededStream(seed)
		for i := range 20 * bufSize {
			switch i % 7 {
			case 0, 1, 2, 3:
				n := bounds[i%len(bounds)]
				if a, b := r.Uint64n(n), s.Uint64n(n); a != b {
					t.Fatalf("seed %d draw %d: RNG.Uint64n(%d) = %d, Stream.Uint64n = %d", seed, i, n, a, b)
				}
			case 4:
				if a, b := r.Intn(46), s.Intn(46); a != b {
					t.Fatalf("seed %d draw %d: Intn %d != %d", seed, i, a, b)
				}
			case 5:
				if a, b := r.Uint64(), s.Uint64(); a != b {
					t.Fatalf("seed %d draw %d: Uint64 %#x != %#x", seed, i, a, b)
				}
				// Five bounds at once are five Uint64n in order.
				var got [5]uint64
				ns := bounds[i%5 : i%5+5]
				s.Uint64nEach(got[:], ns)
				for k, n := range ns {
					if a := r.Uint64n(n); a != got[k] {
						t.Fatalf("seed %d draw %d: Uint64nEach[%d] = %d, RNG.Uint64n(%d) = %d", seed, i, k, got[k], n, a)
					}
				}
			case 6:
				if i%3 == 0 { // odd lengths move later draws off the 8-byte grid
					a, b := make([]byte, i%13), make([]byte, i%13)
					r.Read(a)
					s.Read(b)
					if !bytes.Equal(a, b) {
						t.Fatalf("seed %d draw %d: Read differs", seed, i)
					}
				}
			}
		}
	}
}

// NewSeededStream is NewSeeded's pinned stream (TestSeededPinned).
func TestStreamPinned(t *testing.T) {
	want := []uint64{0x53dea16210d441a8, 0xb995c09923ce2bb6, 0xaedd184179d27a78, 0x2b9bb444f60a1a38}
	s := NewSeededStream(1)
	for i, w := range want {
		if got := s.Uint64(); got != w {
			t.Errorf("NewSeededStream(1) value %d = %#016x, want %#016x", i, got, w)
		}
	}
}

// A seeded Stream refuses OS entropy like a seeded RNG, and wipes what it
// hands out.
func TestStreamSeededGuarantees(t *testing.T) {
	s := NewSeededStream(5)
	if s.rekey() == nil {
		t.Error("seeded Stream accepted a rekey")
	}
	s.Uint64()
	if !allZero(s.buf[:8]) || allZero(s.buf[8:16]) {
		t.Errorf("buffer after one draw: % x", s.buf[:16])
	}
	if !panics(func() { s.Uint64n(0) }) || !panics(func() { s.Intn(0) }) || !panics(func() { s.Uint64nEach(make([]uint64, 2), []uint64{3, 0}) }) {
		t.Error("empty range did not panic")
	}
}

// Every fast block function this CPU runs is ChaCha20: it passes the
// start-up check, and over random keys, nonces and counters (up to the last
// blocks before the counter wraps) it writes the library's keystream.
func TestFastBlocksAreChaCha20(t *testing.T) {
	if fastBlocks == nil {
		t.Skip("no fast ChaCha20 block function on this CPU")
	}
	if !NewSeededStream(1).fast {
		t.Fatal("seeded Stream does not use the fast block function")
	}
	if NewSeeded(1).s.fast {
		t.Fatal("the certified RNG uses the fast block function")
	}
	for _, impl := range fastImpls {
		t.Run(impl.name, func(t *testing.T) {
			if err := checkFastBlocks(impl.blocks); err != nil {
				t.Fatal(err)
			}
			src := NewSeededStream(77)
			for i := range 200 {
				var key [keySize]byte
				var nonce [nonceSize]byte
				src.Read(key[:])
				src.Read(nonce[:])
				units := 1 + i%5
				st := chachaState(&key, &nonce)
				st[12] = uint32(src.Uint64())
				if i%4 == 0 {
					st[12] = uint32(1<<32 - fastUnit/64*units)
				}
				st[12] = min(st[12], uint32(1<<32-fastUnit/64*units))
				before := st
				got := make([]byte, units*fastUnit)
				impl.blocks(&st, &got[0], units)
				if st != before {
					t.Fatal("the block function changed the state")
				}
				c, err := chacha20.NewUnauthenticatedCipher(key[:], nonce[:])
				if err != nil {
					t.Fatal(err)
				}
				c.SetCounter(st[12])
				want := make([]byte, len(got))
				c.XORKeyStream(want, want)
				if !bytes.Equal(got, want) {
					t.Fatalf("key %x nonce %x counter %d: keystream differs", key, nonce, st[12])
				}
			}
		})
	}
}

// A fast seeded Stream outlives the 32-bit block counter as the certified
// one does (TestSeededNonceRollover): it moves to nonce 1.
func TestFastStreamNonceRollover(t *testing.T) {
	s := NewSeededStream(6)
	s.Uint64()
	s.blocks = refillsPerNonce - 1
	clear(s.buf[:]) // as if all of it had been drawn and wiped
	s.pos = bufSize
	s.c.SetCounter(1<<32 - bufSize/64)
	s.st[12] = 1<<32 - bufSize/64
	tail := make([]byte, bufSize)
	s.Read(tail)
	got := make([]byte, 256)
	s.Read(got)

	key := NewSeeded(6).s.key
	var nonce [nonceSize]byte
	c, err := chacha20.NewUnauthenticatedCipher(key[:], nonce[:])
	if err != nil {
		t.Fatal(err)
	}
	c.SetCounter(1<<32 - bufSize/64)
	wantTail := make([]byte, bufSize)
	c.XORKeyStream(wantTail, wantTail)
	nonce[0] = 1
	c, _ = chacha20.NewUnauthenticatedCipher(key[:], nonce[:])
	want := make([]byte, len(got))
	c.XORKeyStream(want, want)
	if !bytes.Equal(tail, wantTail) || !bytes.Equal(got, want) {
		t.Error("around the counter's end the stream is not nonce 0's last blocks then nonce 1's")
	}
}
