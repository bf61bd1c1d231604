package sound

import (
	"bytes"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"math"
	"runtime"
	"testing"
	"time"
)

// The sounds a bank must have, and how long each is.
var wantSounds = map[string]time.Duration{
	"spin":  500 * time.Millisecond,
	"stop0": 220 * time.Millisecond, "stop1": 220 * time.Millisecond, "stop2": 220 * time.Millisecond,
	"stop3": 220 * time.Millisecond, "stop4": 220 * time.Millisecond,
	"win1": 590 * time.Millisecond, "win2": 925 * time.Millisecond, "win3": 1410 * time.Millisecond, "win4": 1965 * time.Millisecond,
	"jackpot": 3 * time.Second, "click": 30 * time.Millisecond, "bell": 2400 * time.Millisecond,
	"feature": 2600 * time.Millisecond,
}

// bankSum is the SHA-256 of every sound of the bank, in name order: the
// synthesis is pinned. Go may fuse a multiply and an add into one
// instruction where the architecture has one (the spec allows it; arm64
// does), which can move a sample by a step; so the sum is checked on amd64,
// where the compiler does not (GOAMD64 v1 and v3 give this sum), and
// elsewhere the bank is only checked to be the same twice.
const bankSum = "41c84f342858d81a5683bbaa1f3a7f6de4ade2d79b784df1b96666c24d2756ee"

func TestBankSounds(t *testing.T) {
	b := Synthesize()
	if got := len(b.Names()); got != len(wantSounds) {
		t.Errorf("%d sounds %v, want %d", got, b.Names(), len(wantSounds))
	}
	for name, d := range wantSounds {
		pcm := b.PCM(name)
		frames := len(pcm) / bytesPerFrame
		if len(pcm)%bytesPerFrame != 0 || frames != samples(d.Seconds()) {
			t.Errorf("%s: %d bytes, %d frames; want %d frames (%v)", name, len(pcm), frames, samples(d.Seconds()), d)
			continue
		}
		peak, energy, full := 0, 0.0, 0
		for i := 0; i < len(pcm); i += 2 {
			v := int(int16(binary.LittleEndian.Uint16(pcm[i:])))
			peak = max(peak, v, -v)
			energy += float64(v) * float64(v)
			if v >= 32767 || v <= -32767 {
				full++
			}
		}
		rms := math.Sqrt(energy/float64(len(pcm)/2)) / 32767
		if full > 0 || peak > 32000 {
			t.Errorf("%s: clips: peak %d, %d samples at full scale", name, peak, full)
		}
		if peak < 8000 || rms < 0.01 {
			t.Errorf("%s: nearly silent: peak %d, rms %.4f", name, peak, rms)
		}
		// A one-shot ends in silence (no click when it stops).
		if !Looping(name) {
			last := pcm[len(pcm)-4*10:]
			for i := 0; i < len(last); i += 2 {
				if v := int16(binary.LittleEndian.Uint16(last[i:])); v > 400 || v < -400 {
					t.Errorf("%s: does not end in silence: %d", name, v)
					break
				}
			}
		}
	}
	// The spin loop joins itself: its last frame leads into its first.
	spin := b.PCM(SoundSpin)
	first := int(int16(binary.LittleEndian.Uint16(spin)))
	last := int(int16(binary.LittleEndian.Uint16(spin[len(spin)-4:])))
	if d := first - last; d > 1500 || d < -1500 {
		t.Errorf("the spin loop jumps by %d where it joins itself", d)
	}
	// A bigger win has a longer jingle.
	for tier := 2; tier <= WinTiers; tier++ {
		if len(b.PCM(WinName(tier))) <= len(b.PCM(WinName(tier-1))) {
			t.Errorf("win tier %d is not longer than tier %d", tier, tier-1)
		}
	}
	// Each reel's stop is its own.
	for i := 1; i < Stops; i++ {
		if bytes.Equal(b.PCM(StopName(i)), b.PCM(StopName(i-1))) {
			t.Errorf("reels %d and %d sound the same", i-1, i)
		}
	}
}

func sum(b *Bank) string {
	h := sha256.New()
	for _, n := range b.Names() {
		h.Write([]byte(n))
		h.Write(b.PCM(n))
	}
	return hex.EncodeToString(h.Sum(nil))
}

func TestBankDeterministic(t *testing.T) {
	a, b := sum(Synthesize()), sum(Synthesize())
	if a != b {
		t.Fatalf("two syntheses differ: %s %s", a, b)
	}
	t.Logf("bank sum %s", a)
	if runtime.GOARCH == "amd64" && a != bankSum {
		t.Errorf("bank sum %s, pinned %s", a, bankSum)
	}
}

func BenchmarkSynthesize(b *testing.B) {
	for b.Loop() {
		Synthesize()
	}
}
