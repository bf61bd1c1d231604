// Package rng is the cabinet's random number generator: a ChaCha20
// keystream keyed from OS entropy, re-keyed regularly, with an exactly
// uniform bounded mapper for game outcomes.
//
// Game code should depend on the Source interface so that the simulator
// and tests can substitute a seeded instance. RNG is the cabinet's
// generator, safe for concurrent use; Stream is its unlocked core, which a
// simulation worker owns (NewSeededStream) to draw without a lock per draw.
package rng

import (
	"context"
	"crypto/rand"
	"errors"
	"fmt"
	"io"
	"sync"
	"time"

	"golang.org/x/crypto/chacha20"
)

// Source is what game code needs: a uniform integer in [0, n).
type Source interface {
	Uint64n(n uint64) uint64
}

const (
	keySize   = chacha20.KeySize
	nonceSize = chacha20.NonceSize

	// Generating 4 KiB per cipher call amortises the call overhead; the
	// buffer is small enough that little unconsumed keystream sits in
	// memory at any time.
	bufSize = 4096

	// ReseedInterval is how many 64-bit outputs (8 bytes of keystream
	// each, however they are consumed) a production RNG produces under one
	// key before it folds in fresh OS entropy. It bounds how much output
	// a compromise of a single key could expose.
	ReseedInterval = 1 << 20

	refillsPerKey = ReseedInterval * 8 / bufSize

	// ChaCha20 with a 96-bit nonce has a 32-bit block counter; the library
	// panics when it wraps. A seeded stream must go on forever, so it
	// moves to the next nonce before that happens.
	refillsPerNonce = (1 << 32) * 64 / bufSize // 64-byte blocks

	seedDomain  = "openegm/cabinet rng: seeded key v1\x00"
	rekeyDomain = "openegm/cabinet rng: rekey v1\x00"
)

// entropy is the OS entropy source. It is a variable only so that tests
// can exercise the fail-closed paths.
var entropy io.Reader = rand.Reader

// RNG is a ChaCha20-based generator: a Stream behind a mutex. It is safe
// for concurrent use.
type RNG struct {
	mu sync.Mutex
	s  Stream
}

// New returns the production generator, keyed from OS entropy. It runs
// SelfTest first and fails closed: if the self-test fails or entropy is
// unavailable it returns an error and no generator.
func New() (*RNG, error) {
	if err := SelfTest(); err != nil {
		return nil, err
	}
	return newProduction(entropy)
}

func newProduction(src io.Reader) (*RNG, error) {
	var key [keySize]byte
	if err := readEntropy(src, key[:]); err != nil {
		return nil, err
	}
	r := &RNG{}
	r.s.src = src
	r.s.setKey(&key)
	return r, nil
}

// NewSeeded returns a deterministic generator: the same seed yields the
// same stream forever, and it never takes OS entropy. The cabinet never
// uses it; it exists for the simulator, for tests and for certification
// labs that must reproduce a stream. NewSeededStream is the same stream
// without the lock.
func NewSeeded(seed uint64) *RNG {
	r := &RNG{}
	r.s.seed(seed)
	return r
}

// readEntropy fills p from src and rejects output that is plainly stuck
// (every byte equal), which a working source produces with probability
// 2^-248 for 32 bytes.
func readEntropy(src io.Reader, p []byte) error {
	if _, err := io.ReadFull(src, p); err != nil {
		return fmt.Errorf("rng: OS entropy unavailable: %w", err)
	}
	for _, b := range p[1:] {
		if b != p[0] {
			return nil
		}
	}
	return errors.New("rng: OS entropy source is stuck (all bytes equal)")
}

// Uint64 returns the next 8 bytes of keystream as a little-endian integer.
func (r *RNG) Uint64() uint64 {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.s.Uint64()
}

// Uint64n returns a uniform integer in [0, n), by Stream.Uint64n's exactly
// uniform rejection method. It panics if n == 0.
func (r *RNG) Uint64n(n uint64) uint64 {
	if n == 0 {
		panic("rng: Uint64n called with n == 0")
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.s.Uint64n(n)
}

// Intn returns a uniform int in [0, n). It panics if n <= 0.
func (r *RNG) Intn(n int) int {
	if n <= 0 {
		panic("rng: Intn called with n <= 0")
	}
	return int(r.Uint64n(uint64(n)))
}

// Read fills p with raw keystream. It always returns len(p), nil. It
// exists to stream the generator into external test batteries.
func (r *RNG) Read(p []byte) (int, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.s.Read(p)
}

// Reseed folds fresh OS entropy into the key now, on top of the automatic
// reseed every ReseedInterval outputs. Buffered keystream from the old key
// is discarded. Seeded instances refuse, because reseeding would break
// the reproducibility they exist for. On error the old key stays in use.
func (r *RNG) Reseed() error {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.s.rekey()
}

// StartCycling draws and discards one output every interval in a
// background goroutine until ctx is done. Between games the generator
// keeps moving, so an outcome depends on the instant the player presses
// spin and not only on the number of games since power-up. Cycling a
// seeded instance makes its stream timing-dependent, so the simulator
// should not do it. It panics if every <= 0.
func (r *RNG) StartCycling(ctx context.Context, every time.Duration) {
	r.startCycling(ctx, every)
}

// startCycling returns a channel closed when the goroutine has exited, so
// tests can observe that cancellation really stops it.
func (r *RNG) startCycling(ctx context.Context, every time.Duration) <-chan struct{} {
	if every <= 0 {
		panic("rng: StartCycling interval must be positive")
	}
	done := make(chan struct{})
	go func() {
		defer close(done)
		t := time.NewTicker(every)
		defer t.Stop()
		for {
			select {
			case <-ctx.Done():
				return
			case <-t.C:
				r.mu.Lock()
				r.s.Uint64()
				r.mu.Unlock()
			}
		}
	}()
	return done
}
