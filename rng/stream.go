package rng

import (
	"crypto/sha256"
	"encoding/binary"
	"errors"
	"io"
	"math/bits"

	"golang.org/x/crypto/chacha20"
)

// Stream is the generator's unlocked core: the ChaCha20 keystream drawn in
// bufSize blocks, the key schedule and the exactly uniform bounded draw. RNG
// is a Stream behind a mutex, so the cabinet's generator and a simulation
// worker's draw through this one definition, and for the same seed they
// give the same draws.
//
// A Stream is not safe for concurrent use. It exists for a simulation
// worker that owns one and draws millions of outcomes a second, where a
// lock per draw costs as much as the draw; the cabinet's game path uses
// RNG, never a bare Stream.
type Stream struct {
	c *chacha20.Cipher
	// fast: the keystream comes from fastBlocks on state st instead of c
	// (same key, nonce and counter, same bytes); only seeded Streams.
	fast   bool
	st     [16]uint32
	key    [keySize]byte
	nonce  [nonceSize]byte
	buf    [bufSize]byte
	pos    int    // next unread byte of buf; bufSize means empty
	blocks uint64 // refills under the current key (production) or nonce (seeded)

	// src is nil for seeded instances, which never take OS entropy.
	src io.Reader
}

// NewSeededStream returns the unlocked deterministic generator: the same
// stream as NewSeeded(seed), for one goroutine.
//
// Where the CPU has a faster ChaCha20 block function than the library's
// portable code (AVX-512 on amd64), a seeded Stream uses it once it has
// reproduced RFC 8439's answers and the library's keystream; the bytes,
// and so the draws, are the same either way.
func NewSeededStream(seed uint64) *Stream {
	s := &Stream{fast: fastCipherOK()}
	s.seed(seed)
	return s
}

// seed keys s deterministically from seed; it never takes OS entropy.
func (s *Stream) seed(seed uint64) {
	h := sha256.New()
	h.Write([]byte(seedDomain))
	var b [8]byte
	binary.LittleEndian.PutUint64(b[:], seed)
	h.Write(b[:])
	var key [keySize]byte
	h.Sum(key[:0])
	s.src = nil
	s.setKey(&key)
}

// setKey installs key with a zero nonce and wipes the caller's copy, so
// that exactly one copy of the live key exists.
func (s *Stream) setKey(key *[keySize]byte) {
	s.key = *key
	clear(key[:])
	s.nonce = [nonceSize]byte{}
	s.newCipher()
}

func (s *Stream) newCipher() {
	if s.c != nil {
		// The old cipher's state embeds the old key; wipe it rather than
		// leave it for the garbage collector.
		*s.c = chacha20.Cipher{}
	}
	c, err := chacha20.NewUnauthenticatedCipher(s.key[:], s.nonce[:])
	if err != nil {
		// Sizes are compile-time constants; this cannot happen.
		panic(err)
	}
	s.c = c
	if s.fast {
		s.st = chachaState(&s.key, &s.nonce)
	}
	s.blocks = 0
	// Unread keystream belongs to the old key or nonce; drop it so that
	// every output after a rekey depends on the new key.
	clear(s.buf[:])
	s.pos = bufSize
}

// rekey replaces the key with H(domain || old key || fresh entropy).
// Hashing in the old key means a weak entropy read cannot make the new key
// weaker than the old one; hashing in fresh entropy means that learning
// the old key does not reveal future outputs.
func (s *Stream) rekey() error {
	if s.src == nil {
		return errors.New("rng: seeded RNGs are deterministic and are not reseeded")
	}
	var fresh [32]byte
	if err := readEntropy(s.src, fresh[:]); err != nil {
		return err
	}
	h := sha256.New()
	h.Write([]byte(rekeyDomain))
	h.Write(s.key[:])
	h.Write(fresh[:])
	clear(fresh[:])
	var key [keySize]byte
	h.Sum(key[:0])
	s.setKey(&key)
	return nil
}

func (s *Stream) refill() {
	if s.src != nil && s.blocks >= refillsPerKey {
		if err := s.rekey(); err != nil {
			// No error path exists here, and continuing past a scheduled
			// reseed silently would be worse than stopping the game.
			panic("rng: automatic reseed failed: " + err.Error())
		}
	} else if s.src == nil && s.blocks >= refillsPerNonce {
		n := binary.LittleEndian.Uint64(s.nonce[:8])
		binary.LittleEndian.PutUint64(s.nonce[:8], n+1)
		s.newCipher()
	}
	if s.fast {
		fastBlocks(&s.st, &s.buf[0], bufSize/fastUnit)
		s.st[12] += bufSize / 64 // never wraps inside a refill: see refillsPerNonce
	} else {
		// The buffer is all zero here (consumed bytes are wiped), so
		// this writes the plain keystream.
		s.c.XORKeyStream(s.buf[:], s.buf[:])
	}
	s.pos = 0
	s.blocks++
}

// Read copies keystream into p and zeroes what it hands out, so that
// memory inspection after the fact does not reveal past outputs. It always
// returns len(p), nil.
func (s *Stream) Read(p []byte) (int, error) {
	n := len(p)
	for len(p) > 0 {
		if s.pos == bufSize {
			s.refill()
		}
		k := copy(p, s.buf[s.pos:])
		clear(s.buf[s.pos : s.pos+k])
		s.pos += k
		p = p[k:]
	}
	return n, nil
}

// Uint64 returns the next 8 bytes of keystream as a little-endian integer,
// and wipes them from the buffer.
func (s *Stream) Uint64() uint64 {
	p := s.pos
	if p > bufSize-8 {
		return s.uint64Slow()
	}
	s.pos = p + 8
	return take(&s.buf, p)
}

// take is the 8 bytes of buf at p as a little-endian integer; it wipes
// them, so that memory inspection after the fact does not reveal past
// outputs.
func take(buf *[bufSize]byte, p int) uint64 {
	w := (*[8]byte)(buf[p:])
	v := binary.LittleEndian.Uint64(w[:])
	*w = [8]byte{}
	return v
}

// uint64Slow takes an output that straddles a refill; it is apart from
// Uint64 so that the common path stays small.
//
//go:noinline
func (s *Stream) uint64Slow() uint64 {
	var b [8]byte
	s.Read(b[:])
	return binary.LittleEndian.Uint64(b[:])
}

// Uint64n returns a uniform integer in [0, n). It panics if n == 0. It is
// Uint64nEach on one bound.
func (s *Stream) Uint64n(n uint64) uint64 {
	var v [1]uint64
	s.Uint64nEach(v[:], []uint64{n})
	return v[0]
}

// Uint64nEach sets out[i] to a uniform integer in [0, bounds[i]), for each
// i in order: the draws of Uint64n(bounds[0]), Uint64n(bounds[1]), ...,
// without a call per draw. It panics if a bound is 0 or out is shorter
// than bounds.
//
// It maps 64-bit draws onto [0, n) exactly uniformly using Lemire's
// multiply-shift with rejection ("Fast Random Integer Generation in an
// Interval", 2019). Of the 2^64 possible draws, the 2^64 mod n whose low
// product word falls below that threshold are rejected; each output then
// has exactly floor(2^64/n) preimages. Plain modulo would favour small
// outputs, which a regulator treats as a defect however small the bias.
// This is the only definition of the bounded draw: Uint64n and
// RNG.Uint64n call it.
func (s *Stream) Uint64nEach(out, bounds []uint64) {
	out = out[:len(bounds)]
	p := s.pos // in a register through the loop; s.pos is kept on the slow paths
	for i, n := range bounds {
		if n == 0 {
			s.pos = p
			panic("rng: Uint64n called with n == 0")
		}
		var v uint64
		if p > bufSize-8 {
			s.pos = p
			v = s.uint64Slow()
			p = s.pos
		} else {
			v = take(&s.buf, p)
			p += 8
		}
		hi, lo := bits.Mul64(v, n)
		if lo < n {
			s.pos = p
			hi = s.reject(n, hi, lo)
			p = s.pos
		}
		out[i] = hi
	}
	s.pos = p
}

// reject finishes a draw whose low word fell in the zone where rejection
// is possible: below n, the threshold 2^64 mod n decides.
//
//go:noinline
func (s *Stream) reject(n, hi, lo uint64) uint64 {
	thresh := -n % n // 2^64 mod n without overflowing
	for lo < thresh {
		hi, lo = bits.Mul64(s.Uint64(), n)
	}
	return hi
}

// Intn returns a uniform int in [0, n). It panics if n <= 0.
func (s *Stream) Intn(n int) int {
	if n <= 0 {
		panic("rng: Intn called with n <= 0")
	}
	return int(s.Uint64n(uint64(n)))
}
