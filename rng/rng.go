// Package rng is the cabinet's random number generator: a ChaCha20
// keystream keyed from OS entropy, re-keyed regularly, with an exactly
// uniform bounded mapper for game outcomes.
//
// Game code should depend on the Source interface so that the simulator
// and tests can substitute a seeded instance.
package rng

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"math/bits"
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

// RNG is a ChaCha20-based generator. It is safe for concurrent use.
type RNG struct {
	mu     sync.Mutex
	c      *chacha20.Cipher
	key    [keySize]byte
	nonce  [nonceSize]byte
	buf    [bufSize]byte
	pos    int    // next unread byte of buf; bufSize means empty
	blocks uint64 // refills under the current key (production) or nonce (seeded)

	// src is nil for seeded instances, which never take OS entropy.
	src io.Reader
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
	r := &RNG{src: src}
	r.setKey(&key)
	return r, nil
}

// NewSeeded returns a deterministic generator: the same seed yields the
// same stream forever, and it never takes OS entropy. The cabinet never
// uses it; it exists for the simulator, for tests and for certification
// labs that must reproduce a stream.
func NewSeeded(seed uint64) *RNG {
	h := sha256.New()
	h.Write([]byte(seedDomain))
	var s [8]byte
	binary.LittleEndian.PutUint64(s[:], seed)
	h.Write(s[:])
	var key [keySize]byte
	h.Sum(key[:0])
	r := &RNG{}
	r.setKey(&key)
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

// setKey installs key with a zero nonce and wipes the caller's copy, so
// that exactly one copy of the live key exists.
func (r *RNG) setKey(key *[keySize]byte) {
	r.key = *key
	clear(key[:])
	r.nonce = [nonceSize]byte{}
	r.newCipher()
}

func (r *RNG) newCipher() {
	if r.c != nil {
		// The old cipher's state embeds the old key; wipe it rather than
		// leave it for the garbage collector.
		*r.c = chacha20.Cipher{}
	}
	c, err := chacha20.NewUnauthenticatedCipher(r.key[:], r.nonce[:])
	if err != nil {
		// Sizes are compile-time constants; this cannot happen.
		panic(err)
	}
	r.c = c
	r.blocks = 0
	// Unread keystream belongs to the old key or nonce; drop it so that
	// every output after a rekey depends on the new key.
	clear(r.buf[:])
	r.pos = bufSize
}

// rekeyLocked replaces the key with H(domain || old key || fresh entropy).
// Hashing in the old key means a weak entropy read cannot make the new key
// weaker than the old one; hashing in fresh entropy means that learning
// the old key does not reveal future outputs.
func (r *RNG) rekeyLocked() error {
	var fresh [32]byte
	if err := readEntropy(r.src, fresh[:]); err != nil {
		return err
	}
	h := sha256.New()
	h.Write([]byte(rekeyDomain))
	h.Write(r.key[:])
	h.Write(fresh[:])
	clear(fresh[:])
	var key [keySize]byte
	h.Sum(key[:0])
	r.setKey(&key)
	return nil
}

func (r *RNG) refillLocked() {
	if r.src != nil && r.blocks >= refillsPerKey {
		if err := r.rekeyLocked(); err != nil {
			// No error path exists here, and continuing past a scheduled
			// reseed silently would be worse than stopping the game.
			panic("rng: automatic reseed failed: " + err.Error())
		}
	} else if r.src == nil && r.blocks >= refillsPerNonce {
		n := binary.LittleEndian.Uint64(r.nonce[:8])
		binary.LittleEndian.PutUint64(r.nonce[:8], n+1)
		r.newCipher()
	}
	r.c.XORKeyStream(r.buf[:], r.buf[:])
	r.pos = 0
	r.blocks++
}

// readLocked copies keystream into p and zeroes what it hands out, so
// that memory inspection after the fact does not reveal past outputs.
func (r *RNG) readLocked(p []byte) {
	for len(p) > 0 {
		if r.pos == bufSize {
			r.refillLocked()
		}
		n := copy(p, r.buf[r.pos:])
		clear(r.buf[r.pos : r.pos+n])
		r.pos += n
		p = p[n:]
	}
}

func (r *RNG) uint64Locked() uint64 {
	if r.pos > bufSize-8 {
		var b [8]byte
		r.readLocked(b[:])
		return binary.LittleEndian.Uint64(b[:])
	}
	v := binary.LittleEndian.Uint64(r.buf[r.pos:])
	binary.LittleEndian.PutUint64(r.buf[r.pos:], 0)
	r.pos += 8
	return v
}

// Uint64 returns the next 8 bytes of keystream as a little-endian integer.
func (r *RNG) Uint64() uint64 {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.uint64Locked()
}

// Uint64n returns a uniform integer in [0, n). It panics if n == 0.
func (r *RNG) Uint64n(n uint64) uint64 {
	if n == 0 {
		panic("rng: Uint64n called with n == 0")
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	return bounded(n, r.uint64Locked)
}

// bounded maps 64-bit draws onto [0, n) exactly uniformly using Lemire's
// multiply-shift with rejection ("Fast Random Integer Generation in an
// Interval", 2019). Of the 2^64 possible draws, the 2^64 mod n whose low
// product word falls below that threshold are rejected; each output then
// has exactly floor(2^64/n) preimages. Plain modulo would favour small
// outputs, which a regulator treats as a defect however small the bias.
func bounded(n uint64, next func() uint64) uint64 {
	hi, lo := bits.Mul64(next(), n)
	if lo < n {
		thresh := -n % n // 2^64 mod n without overflowing
		for lo < thresh {
			hi, lo = bits.Mul64(next(), n)
		}
	}
	return hi
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
	r.readLocked(p)
	return len(p), nil
}

// Reseed folds fresh OS entropy into the key now, on top of the automatic
// reseed every ReseedInterval outputs. Buffered keystream from the old key
// is discarded. Seeded instances refuse, because reseeding would break
// the reproducibility they exist for. On error the old key stays in use.
func (r *RNG) Reseed() error {
	if r.src == nil {
		return errors.New("rng: seeded RNGs are deterministic and are not reseeded")
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.rekeyLocked()
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
				r.uint64Locked()
				r.mu.Unlock()
			}
		}
	}()
	return done
}
