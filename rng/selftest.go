package rng

import (
	"bytes"
	"encoding/hex"
	"fmt"
	"math/bits"
	"strings"

	"golang.org/x/crypto/chacha20"
)

// katVector is one ChaCha20 block-function answer from RFC 8439.
type katVector struct {
	name    string
	key     string // hex
	nonce   string // hex
	counter uint32
	want    string // hex keystream
}

// katVectors are copied from RFC 8439 rather than produced by the library
// under test, so that a miscompiled or substituted cipher is caught.
var katVectors = []katVector{
	{
		name:    "RFC 8439 A.1 #1",
		key:     strings.Repeat("00", 32),
		nonce:   strings.Repeat("00", 12),
		counter: 0,
		want: "76b8e0ada0f13d90405d6ae55386bd28bdd219b8a08ded1aa836efcc8b770dc7" +
			"da41597c5157488d7724e03fb8d84a376a43b8f41518a11cc387b669b2ee6586",
	},
	{
		name:    "RFC 8439 A.1 #2",
		key:     strings.Repeat("00", 32),
		nonce:   strings.Repeat("00", 12),
		counter: 1,
		want: "9f07e7be5551387a98ba977c732d080dcb0f29a048e3656912c6533e32ee7aed" +
			"29b721769ce64e43d57133b074d839d531ed1f28510afb45ace10a1f4b794d6f",
	},
	{
		name:    "RFC 8439 2.3.2",
		key:     "000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f",
		nonce:   "000000090000004a00000000",
		counter: 1,
		want: "10f1e7e4d13b5915500fdd1fa32071c4c7d1f4c733c068030422aa9ac3d46c4e" +
			"d2826446079faa0914c2d705d98b02a2b5129cd1de164eb9cbd083e8a2503c4e",
	},
}

// Self-test thresholds. Each is set so that a correct generator trips it
// with probability below 1e-10; the three together stay below 1e-9, so a
// failure at power-up means a fault, not bad luck.
const (
	healthBytes = 20000

	// Monobit: 160000 bits, sd 200; 6.5 sd two-sided is p = 8.0e-11.
	monobitMaxDev = 1300

	// Repetition count (SP 800-90B 4.4.1 style): a run of 7 equal bytes
	// somewhere in 20000 has p <= 19994 * 2^-48 = 7.1e-11.
	repCutoff = 7

	// Adaptive proportion (SP 800-90B 4.4.2 style): in each 512-byte
	// window, the first byte recurring 20 or more times (itself included)
	// has p = 4.8e-13 per window, 1.9e-11 over the 39 windows.
	aptWindow = 512
	aptCutoff = 20

	// Bounded mapper: a fixed seed, so the outcome is deterministic; the
	// threshold is the chi-square critical value for 5 degrees of freedom
	// at p = 0.001.
	mapperSeed  = 0x5e1f7e57
	mapperN     = 6
	mapperDraws = 60000
	mapperCrit  = 20.515
)

// SelfTest is the power-up self-test. It fails closed: any error means
// the generator must not be used. It checks the cipher against published
// answers, checks the generator's own plumbing against the same answers,
// runs health tests on a fresh OS-seeded instance, and checks the bounded
// mapper's distribution.
func SelfTest() error {
	for _, v := range katVectors {
		if err := checkKAT(v); err != nil {
			return err
		}
	}
	if err := checkPlumbing(); err != nil {
		return err
	}
	r, err := newProduction(entropy)
	if err != nil {
		return fmt.Errorf("%w (during self-test)", err)
	}
	sample := make([]byte, healthBytes)
	r.Read(sample)
	if err := healthCheck(sample); err != nil {
		return err
	}
	return checkMapper()
}

// checkKAT compares the library's keystream block with v.want.
func checkKAT(v katVector) error {
	key, err1 := hex.DecodeString(v.key)
	nonce, err2 := hex.DecodeString(v.nonce)
	want, err3 := hex.DecodeString(v.want)
	if err1 != nil || err2 != nil || err3 != nil {
		return fmt.Errorf("rng: self-test: %s: malformed vector", v.name)
	}
	c, err := chacha20.NewUnauthenticatedCipher(key, nonce)
	if err != nil {
		return fmt.Errorf("rng: self-test: %s: %w", v.name, err)
	}
	c.SetCounter(v.counter)
	got := make([]byte, len(want))
	c.XORKeyStream(got, got)
	if !bytes.Equal(got, want) {
		return fmt.Errorf("rng: self-test: ChaCha20 known-answer test %s failed: got %x, want %x", v.name, got, want)
	}
	return nil
}

// checkPlumbing runs the generator itself, not just the cipher, on the
// all-zero key: its first 128 bytes must be blocks 0 and 1 of RFC 8439
// A.1, which catches buffering or key-handling faults that the cipher KAT
// cannot see.
func checkPlumbing() error {
	r := &RNG{}
	var zero [keySize]byte
	r.s.setKey(&zero)
	got := make([]byte, 128)
	r.Read(got)
	want, _ := hex.DecodeString(katVectors[0].want + katVectors[1].want)
	if !bytes.Equal(got, want) {
		return fmt.Errorf("rng: self-test: generator output on the zero key does not match RFC 8439 A.1: got %x", got)
	}
	return nil
}

// healthCheck applies monobit, repetition-count and adaptive-proportion
// tests to b.
func healthCheck(b []byte) error {
	ones := 0
	for _, x := range b {
		ones += bits.OnesCount8(x)
	}
	half := len(b) * 4
	if dev := ones - half; dev > monobitMaxDev || -dev > monobitMaxDev {
		return fmt.Errorf("rng: self-test: monobit test failed: %d ones in %d bits", ones, len(b)*8)
	}

	run := 1
	for i := 1; i < len(b); i++ {
		if b[i] == b[i-1] {
			run++
			if run >= repCutoff {
				return fmt.Errorf("rng: self-test: repetition count test failed: byte %#02x repeated %d times at offset %d", b[i], run, i-run+1)
			}
		} else {
			run = 1
		}
	}

	for w := 0; w+aptWindow <= len(b); w += aptWindow {
		first, count := b[w], 0
		for _, x := range b[w : w+aptWindow] {
			if x == first {
				count++
			}
		}
		if count >= aptCutoff {
			return fmt.Errorf("rng: self-test: adaptive proportion test failed: byte %#02x occurs %d times in the %d-byte window at offset %d", first, count, aptWindow, w)
		}
	}
	return nil
}

// checkMapper draws from a seeded instance through Uint64n and compares
// the counts with the uniform distribution.
func checkMapper() error {
	r := NewSeeded(mapperSeed)
	var counts [mapperN]int
	for range mapperDraws {
		v := r.Uint64n(mapperN)
		if v >= mapperN {
			return fmt.Errorf("rng: self-test: Uint64n(%d) returned %d", mapperN, v)
		}
		counts[v]++
	}
	exp := float64(mapperDraws) / mapperN
	chi2 := 0.0
	for _, c := range counts {
		d := float64(c) - exp
		chi2 += d * d / exp
	}
	if !(chi2 <= mapperCrit) { // written so that NaN fails too
		return fmt.Errorf("rng: self-test: Uint64n(%d) chi-square %.2f exceeds %.3f (counts %v)", mapperN, chi2, mapperCrit, counts)
	}
	return nil
}
