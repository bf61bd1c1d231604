package rng

import (
	"fmt"
	"math/bits"
	"strings"
	"testing"
)

// The health tests' cutoffs, each tested on both sides of its edge.

// byPopcount lists the byte values with k one bits.
func byPopcount(k int) []byte {
	var out []byte
	for v := range 256 {
		if bits.OnesCount8(uint8(v)) == k {
			out = append(out, byte(v))
		}
	}
	return out
}

// balanced is n bytes of exactly four one bits each, no two neighbours
// equal and no value frequent enough for the proportion test.
func balanced(n int) []byte {
	four := byPopcount(4)
	b := make([]byte, n)
	for i := range b {
		b[i] = four[i%len(four)]
	}
	return b
}

// A sample off by monobitMaxDev ones either way passes; one more fails,
// with the count of ones and of bits.
func TestMonobitEdges(t *testing.T) {
	for _, c := range []struct {
		popcount int // of the bytes that replace every other byte
		dev      int
	}{{5, monobitMaxDev}, {5, monobitMaxDev + 1}, {3, monobitMaxDev}, {3, monobitMaxDev + 1}} {
		b := balanced(healthBytes)
		odd := byPopcount(c.popcount)
		for j := range c.dev {
			b[2*j] = odd[j%len(odd)]
		}
		err := healthCheck(b)
		ones := healthBytes * 4
		if c.popcount == 5 {
			ones += c.dev
		} else {
			ones -= c.dev
		}
		want := fmt.Sprintf("monobit test failed: %d ones in %d bits", ones, healthBytes*8)
		if (c.dev > monobitMaxDev) != (err != nil) || (err != nil && !strings.Contains(err.Error(), want)) {
			t.Errorf("%d ones in %d bits: %v", ones, healthBytes*8, err)
		}
	}
}

// A repetition is reported at the offset where the run began.
func TestRepetitionOffset(t *testing.T) {
	b := balanced(healthBytes)
	copy(b[1000:], []byte{0x3c, 0x3c, 0x3c, 0x3c, 0x3c, 0x3c, 0x3c})
	err := healthCheck(b)
	if err == nil || !strings.Contains(err.Error(), "byte 0x3c repeated 7 times at offset 1000") {
		t.Fatalf("a run of 7 at offset 1000: %v", err)
	}
}

// aptCutoff-1 copies of a window's first byte pass, aptCutoff fail, and
// the last whole window of a sample is tested too.
func TestAdaptiveProportionEdges(t *testing.T) {
	for _, c := range []struct {
		copies int
		fails  bool
	}{{aptCutoff - 1, false}, {aptCutoff, true}} {
		b := balanced(2 * aptWindow)
		w := aptWindow          // the last window
		b[w] = byPopcount(5)[0] // a value the balanced bytes never take
		for i := 1; i < c.copies; i++ {
			b[w+i*25] = b[w]
		}
		err := healthCheck(b)
		if c.fails != (err != nil) || (err != nil && !strings.Contains(err.Error(), fmt.Sprintf("occurs %d times in the %d-byte window at offset %d", c.copies, aptWindow, w))) {
			t.Errorf("%d copies in the last window: %v", c.copies, err)
		}
	}
}

// Intn refuses 0 by its own name.
func TestIntnOfZeroPanicsByName(t *testing.T) {
	defer func() {
		if r := recover(); r == nil || !strings.Contains(fmt.Sprint(r), "Intn called with n <= 0") {
			t.Fatalf("Intn(0) panicked with %v", r)
		}
	}()
	NewSeeded(1).Intn(0)
}
