// Package sound makes the screens' sounds: short sounds synthesized in
// code (no recorded or downloaded audio), played through ebiten's audio
// when the screen observes something worth hearing: the reels start, each
// reel lands, a win is counted, a jackpot is won, a lockout calls the
// attendant, a button is touched. The sounds follow what the screen shows,
// never the game: Watcher turns the screen model's frames into cues and
// Player plays them. Without a sound device the screens are silent.
package sound

import (
	"encoding/binary"
	"math"
	"slices"
)

// SampleRate of every sound, in frames a second.
const SampleRate = 48000

// The sounds are 16-bit signed little-endian stereo PCM at SampleRate,
// what ebiten's audio plays.
const bytesPerFrame = 4

// Names of the sounds of a Bank.
const (
	SoundSpin    = "spin"    // the reels turning: a loop
	SoundStop    = "stop"    // a reel landing: stop0, stop1… one a reel
	SoundWin     = "win"     // a win: win1 (small) to win4 (big)
	SoundJackpot = "jackpot" // a jackpot's fanfare
	SoundClick   = "click"   // a button touched
	SoundBell    = "bell"    // the attendant's bell: a handpay, a tilt
	SoundFeature = "feature" // a free-game trigger's scatters celebrated
)

// Stops is how many reel-stop sounds there are (reels beyond share the
// last), WinTiers how many win jingles.
const (
	Stops    = 5
	WinTiers = 4
)

// Bank holds the synthesized sounds by name.
type Bank struct {
	pcm map[string][]byte
}

// Synthesize makes every sound. It is deterministic: the same bytes every
// time.
func Synthesize() *Bank {
	b := &Bank{pcm: map[string][]byte{}}
	// Peaks: the spin loop and a reel's thump together stay below the
	// mixer's limiter; the jingles grow with the win.
	b.pcm[SoundSpin] = spinLoop().pcm(0.3)
	for i := range Stops {
		b.pcm[StopName(i)] = reelStop(i).pcm(0.65)
	}
	for t := 1; t <= WinTiers; t++ {
		b.pcm[WinName(t)] = winJingle(t).pcm(0.5 + 0.1*float64(t))
	}
	b.pcm[SoundJackpot] = fanfare().pcm(0.9)
	b.pcm[SoundClick] = click().pcm(0.45)
	b.pcm[SoundBell] = bell().pcm(0.65)
	b.pcm[SoundFeature] = featureChimes().pcm(0.8)
	return b
}

// StopName is the sound of reel i landing.
func StopName(i int) string { return SoundStop + string(rune('0'+min(max(i, 0), Stops-1))) }

// WinName is the jingle of a win tier (1..WinTiers).
func WinName(tier int) string { return SoundWin + string(rune('0'+min(max(tier, 1), WinTiers))) }

// PCM is a sound's samples ("" or unknown: nil).
func (b *Bank) PCM(name string) []byte { return b.pcm[name] }

// Names lists the sounds, sorted.
func (b *Bank) Names() []string {
	var out []string
	for n := range b.pcm {
		out = append(out, n)
	}
	slices.Sort(out)
	return out
}

// Looping says whether a sound is a loop (played until stopped).
func Looping(name string) bool { return name == SoundSpin }

// The synthesizer: sounds are built in float64 at SampleRate, left and
// right, then scaled to a peak and quantized.

type track struct{ l, r []float64 }

func newTrack(seconds float64) *track {
	n := int(math.Round(seconds * SampleRate))
	return &track{l: make([]float64, n), r: make([]float64, n)}
}

// mix adds mono samples at a time in seconds, with a gain each side.
func (t *track) mix(at float64, s []float64, gl, gr float64) {
	o := int(math.Round(at * SampleRate))
	for i, v := range s {
		if k := o + i; k >= 0 && k < len(t.l) {
			t.l[k] += v * gl
			t.r[k] += v * gr
		}
	}
}

// pcm scales the track to a peak (below full scale: nothing clips) and
// quantizes it.
func (t *track) pcm(peak float64) []byte {
	m := 0.0
	for i := range t.l {
		m = max(m, math.Abs(t.l[i]), math.Abs(t.r[i]))
	}
	k := 0.0
	if m > 0 {
		k = peak / m
	}
	out := make([]byte, len(t.l)*bytesPerFrame)
	for i := range t.l {
		binary.LittleEndian.PutUint16(out[4*i:], uint16(quantize(t.l[i]*k)))
		binary.LittleEndian.PutUint16(out[4*i+2:], uint16(quantize(t.r[i]*k)))
	}
	return out
}

func quantize(v float64) int16 {
	return int16(math.Round(min(max(v, -1), 1) * 32767))
}

// samples is the number of frames of a duration.
func samples(seconds float64) int { return int(math.Round(seconds * SampleRate)) }

// osc is a waveform of phase (in turns).
type osc func(phase float64) float64

// sine of a phase in turns, from a table (linear between its entries: the
// error is below a 16-bit step).
func sine(ph float64) float64 {
	x := (ph - math.Floor(ph)) * sineN
	i := int(x)
	return sineTab[i] + (sineTab[i+1]-sineTab[i])*(x-float64(i))
}

const sineN = 4096

var sineTab = func() (t [sineN + 1]float64) {
	for i := range t {
		t[i] = math.Sin(2 * math.Pi * float64(i) / sineN)
	}
	return t
}()

// soft is a square wave's first odd harmonics: a mellow chime.
func soft(ph float64) float64 {
	return sine(ph) + sine(3*ph)/3 + sine(5*ph)/5 + sine(7*ph)/7
}

// brass is a sawtooth's first harmonics, for the fanfare.
func brass(ph float64) float64 {
	v := 0.0
	for k := 1.0; k <= 10; k++ {
		v += sine(k*ph) / k
	}
	return v
}

// tone is a note of a waveform, its frequency given over time (Hz), shaped
// by an envelope of time.
func tone(seconds float64, wave osc, freq, env func(t float64) float64) []float64 {
	out := make([]float64, samples(seconds))
	ph := 0.0
	for i := range out {
		t := float64(i) / SampleRate
		out[i] = wave(ph) * env(t)
		ph += freq(t) / SampleRate
		ph -= math.Floor(ph)
	}
	return out
}

func hz(f float64) func(float64) float64 { return func(float64) float64 { return f } }

// pluck: a short attack, then an exponential decay of time constant tau,
// and a release to silence in the last 5 ms of the note.
func pluck(attack, tau, length float64) func(float64) float64 {
	return func(t float64) float64 {
		a := 1.0
		if t < attack {
			a = t / attack
		}
		if r := length - t; r < 0.005 {
			a *= max(r, 0) / 0.005
		}
		return a * math.Exp(-max(t-attack, 0)/tau)
	}
}

// noise is a deterministic white noise (xorshift32) lowpassed by a one-pole
// filter (alpha 1: unfiltered), shaped by an envelope.
func noise(seconds, alpha float64, seed uint32, env func(float64) float64) []float64 {
	out := make([]float64, samples(seconds))
	x, y := seed, 0.0
	for i := range out {
		x ^= x << 13
		x ^= x >> 17
		x ^= x << 5
		w := float64(x)/float64(math.MaxUint32)*2 - 1
		y += alpha * (w - y)
		out[i] = y * env(float64(i)/SampleRate)
	}
	return out
}

// note is the frequency of a semitone from C5.
func note(semi float64) float64 { return 523.25 * math.Pow(2, semi/12) }

// spinLoop: the reels turning, half a second that loops seamlessly: a
// motor's hum whose partials fit the loop a whole number of times, and
// eight ticks of the reel's detent, each over before the next.
func spinLoop() *track {
	const length = 0.5
	t := newTrack(length)
	for _, p := range []struct{ f, a float64 }{{56, 0.10}, {112, 0.05}, {168, 0.03}} {
		t.mix(0, tone(length, sine, hz(p.f), hz(p.a)), 1, 1)
	}
	for k := range 8 {
		at := float64(k) * length / 8
		tick := noise(0.012, 0.35, uint32(0x9E3779B9+k), pluck(0.0005, 0.0015, 0.012))
		ping := tone(0.012, sine, hz(2200), pluck(0.0005, 0.003, 0.012))
		t.mix(at, tick, 0.25, 0.25)
		t.mix(at, ping, 0.08, 0.08)
	}
	return t
}

// reelStop: a reel landing: a thump that falls in pitch, a knock and a
// click; each reel a little higher than the last, and placed from left to
// right.
func reelStop(reel int) *track {
	const length = 0.22
	t := newTrack(length)
	up := 1 + 0.05*float64(reel)
	pan := -0.6 + 1.2*float64(reel)/float64(Stops-1)
	gl, gr := math.Sqrt((1-pan)/2), math.Sqrt((1+pan)/2)
	sweep := func(x float64) float64 { return up * (55 + 95*math.Exp(-x/0.03)) }
	t.mix(0, tone(length, sine, sweep, pluck(0.002, 0.045, length)), gl, gr)
	t.mix(0, tone(0.06, sine, hz(700*up), pluck(0.001, 0.012, 0.06)), 0.2*gl, 0.2*gr)
	t.mix(0, noise(0.02, 0.5, uint32(0x1234567+reel), pluck(0.0005, 0.002, 0.02)), 0.35*gl, 0.35*gr)
	return t
}

// winJingle: a rising arpeggio of chimes ending on a chord; the bigger the
// win (tier 1..4), the longer the run and the fuller the chord.
func winJingle(tier int) *track {
	runs := [][]float64{
		{0, 4, 7},
		{0, 4, 7, 12, 16},
		{0, 4, 7, 12, 7, 12, 16, 19},
		{0, 4, 7, 12, 16, 19, 24, 19, 24, 28, 31},
	}
	chords := [][]float64{{7}, {12, 16, 19}, {12, 16, 19, 24}, {12, 16, 19, 24, 28}}
	step := []float64{0.08, 0.075, 0.07, 0.065}[tier-1]
	hold := []float64{0.3, 0.5, 0.8, 1.2}[tier-1]
	run, chord := runs[tier-1], chords[tier-1]
	end := float64(len(run)) * step
	t := newTrack(end + hold + 0.05)
	for k, s := range run {
		n := tone(step*2.5, soft, hz(note(s)), pluck(0.004, 0.12, step*2.5))
		o := tone(step*2.5, sine, hz(2*note(s)), pluck(0.004, 0.08, step*2.5))
		t.mix(float64(k)*step, n, 0.5, 0.5)
		t.mix(float64(k)*step, o, 0.15, 0.15)
	}
	for i, s := range chord {
		f := note(s)
		vib := func(x float64) float64 { return f * (1 + 0.003*math.Sin(2*math.Pi*5*x)*min(x/0.3, 1)) }
		n := tone(hold, soft, vib, pluck(0.01, hold/2.5, hold))
		pan := 0.3 * (float64(i)/float64(max(len(chord)-1, 1))*2 - 1)
		t.mix(end, n, 0.4*(1-pan), 0.4*(1+pan))
	}
	if tier == WinTiers { // sparkle over the chord
		for k := range 6 {
			s := tone(0.25, sine, hz(note(36+float64(k%3)*4)), pluck(0.002, 0.06, 0.25))
			t.mix(end+float64(k)*0.12, s, 0.12, 0.12)
		}
	}
	return t
}

// fanfare: a jackpot: three pickup notes and a rise of brass to a held
// chord with vibrato, over a timpani stroke.
func fanfare() *track {
	t := newTrack(3.0)
	type n struct{ at, len, semi float64 }
	seq := []n{{0, 0.12, -5}, {0.15, 0.12, -5}, {0.3, 0.12, -5}, {0.45, 0.5, 0}, {1.0, 0.15, 4}, {1.18, 0.15, 7}}
	horn := func(f, length float64) []float64 {
		vib := func(x float64) float64 { return f * (1 + 0.004*math.Sin(2*math.Pi*5.5*x)*min(max(x-0.2, 0)/0.3, 1)) }
		return tone(length, brass, vib, pluck(0.02, length, length))
	}
	for _, s := range seq {
		t.mix(s.at, horn(note(s.semi), s.len), 0.5, 0.5)
	}
	for i, s := range []float64{0, 4, 7, 12} {
		pan := 0.4 * (float64(i)/3*2 - 1)
		t.mix(1.36, horn(note(s), 1.6), 0.35*(1-pan), 0.35*(1+pan))
	}
	timp := func(x float64) float64 { return 65.4 * (1 + 0.5*math.Exp(-x/0.05)) }
	t.mix(1.36, tone(0.8, sine, timp, pluck(0.003, 0.25, 0.8)), 0.8, 0.8)
	return t
}

// featureChimes: free games won: the scatters ring one after another
// (three rising bells), then a shimmering run up two octaves to a held
// chord, so the trigger is heard apart from any win's jingle.
func featureChimes() *track {
	t := newTrack(2.6)
	for k, s := range []float64{0, 7, 12} {
		b := tone(0.9, sine, hz(note(s)), pluck(0.003, 0.3, 0.9))
		o := tone(0.9, sine, hz(2.76*note(s)), pluck(0.003, 0.15, 0.9)) // a bell's inharmonic partial
		pan := 0.5 * (float64(k) - 1)
		t.mix(float64(k)*0.28, b, 0.45*(1-pan), 0.45*(1+pan))
		t.mix(float64(k)*0.28, o, 0.15*(1-pan), 0.15*(1+pan))
	}
	run := []float64{12, 16, 19, 24, 28, 31, 36}
	for k, s := range run {
		n := tone(0.2, soft, hz(note(s)), pluck(0.003, 0.07, 0.2))
		t.mix(0.9+float64(k)*0.06, n, 0.3, 0.3)
	}
	end := 0.9 + float64(len(run))*0.06
	for i, s := range []float64{12, 19, 24, 28} {
		f := note(s)
		vib := func(x float64) float64 { return f * (1 + 0.004*math.Sin(2*math.Pi*6*x)*min(x/0.3, 1)) }
		pan := 0.4 * (float64(i)/3*2 - 1)
		t.mix(end, tone(1.2, soft, vib, pluck(0.01, 0.5, 1.2)), 0.3*(1-pan), 0.3*(1+pan))
	}
	return t
}

// click: a button: a short high blip and a tick of noise.
func click() *track {
	t := newTrack(0.03)
	t.mix(0, tone(0.03, sine, hz(1800), pluck(0.0005, 0.004, 0.03)), 0.35, 0.35)
	t.mix(0, noise(0.004, 0.6, 0xC11C, pluck(0.0002, 0.001, 0.004)), 0.2, 0.2)
	return t
}

// bell: the attendant's electric bell: a hammer striking a gong 22 times a
// second, two rings of 0.8 s. Each partial of the gong is a resonator the
// strikes excite, so the rings build up and die away as a bell's do.
func bell() *track {
	const length = 2.4
	t := newTrack(length)
	strikes := make([]float64, samples(length))
	for _, ring := range []float64{0, 1.1} {
		for k := range 18 {
			strikes[samples(ring+float64(k)/22)] = 1
		}
	}
	for _, p := range []struct{ ratio, amp, tau float64 }{{1, 1, 0.35}, {2.76, 0.5, 0.2}, {5.40, 0.25, 0.1}, {8.93, 0.12, 0.06}} {
		t.mix(0, resonate(strikes, 1400*p.ratio, p.tau), p.amp, p.amp)
	}
	// The last 20 ms fade to silence.
	for i := samples(length - 0.02); i < len(t.l); i++ {
		f := float64(len(t.l)-i) / float64(samples(0.02))
		t.l[i] *= f
		t.r[i] *= f
	}
	return t
}

// resonate rings a damped oscillator of frequency f and decay time
// constant tau with the input x.
func resonate(x []float64, f, tau float64) []float64 {
	r := math.Exp(-1 / (tau * SampleRate))
	c := 2 * r * math.Cos(2*math.Pi*f/SampleRate)
	out := make([]float64, len(x))
	var y1, y2 float64
	for i, v := range x {
		y := c*y1 - r*r*y2 + v
		out[i] = y
		y1, y2 = y, y1
	}
	return out
}
