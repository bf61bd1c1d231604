package rng

import (
	"math/rand/v2"
	"testing"
)

// Benchmarks use the production generator, so the cost of the automatic
// reseed is included in the figures.
func newBench(b *testing.B) *RNG {
	b.Helper()
	r, err := New()
	if err != nil {
		b.Fatal(err)
	}
	return r
}

var sink uint64

func BenchmarkUint64(b *testing.B) {
	r := newBench(b)
	for b.Loop() {
		sink += r.Uint64()
	}
}

func BenchmarkUint64n(b *testing.B) {
	r := newBench(b)
	for b.Loop() {
		sink += r.Uint64n(37)
	}
}

func BenchmarkIntnParallel(b *testing.B) {
	r := newBench(b)
	b.RunParallel(func(pb *testing.PB) {
		s := 0
		for pb.Next() {
			s += r.Intn(37)
		}
		_ = s
	})
}

func BenchmarkRead(b *testing.B) {
	r := newBench(b)
	p := make([]byte, 64<<10)
	b.SetBytes(int64(len(p)))
	for b.Loop() {
		r.Read(p)
	}
}

// BenchmarkChaCha8Uint64N is the standard library's ChaCha8 generator, for
// scale: it is unlocked and has no reseeding.
func BenchmarkChaCha8Uint64N(b *testing.B) {
	var seed [32]byte
	r := rand.New(rand.NewChaCha8(seed))
	for b.Loop() {
		sink += r.Uint64N(37)
	}
}

// BenchmarkStreamUint64n is the unlocked core a simulation worker owns: the
// same draw as RNG.Uint64n without the mutex.
func BenchmarkStreamUint64n(b *testing.B) {
	s := NewSeededStream(1)
	for b.Loop() {
		sink += s.Uint64n(37)
	}
}

// BenchmarkStreamUint64nEach5 draws five reel stops a call, as the
// simulator does.
func BenchmarkStreamUint64nEach5(b *testing.B) {
	s := NewSeededStream(1)
	bounds := []uint64{44, 46, 45, 45, 43}
	out := make([]uint64, 5)
	for b.Loop() {
		s.Uint64nEach(out, bounds)
	}
	sink += out[0]
}

// BenchmarkChaCha8Uint64N5 is the peer: five stops with math/rand/v2's
// ChaCha8.
func BenchmarkChaCha8Uint64N5(b *testing.B) {
	var seed [32]byte
	r := rand.New(rand.NewChaCha8(seed))
	bounds := []uint64{44, 46, 45, 45, 43}
	for b.Loop() {
		for _, n := range bounds {
			sink += r.Uint64N(n)
		}
	}
}
