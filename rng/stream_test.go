package rng

import (
	"bytes"
	"testing"
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
	if !panics(func() { s.Uint64n(0) }) || !panics(func() { s.Intn(0) }) {
		t.Error("empty range did not panic")
	}
}
