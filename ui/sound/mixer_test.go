package sound

import (
	"encoding/binary"
	"math"
	"testing"
)

// frames reads n frames of the mix as left, right samples.
func frames(m *Mixer, n int) (l, r []float64) {
	buf := make([]byte, 8*n)
	if k, err := m.Read(buf); k != len(buf) || err != nil {
		panic("short read")
	}
	for o := 0; o < len(buf); o += 8 {
		l = append(l, float64(math.Float32frombits(binary.LittleEndian.Uint32(buf[o:]))))
		r = append(r, float64(math.Float32frombits(binary.LittleEndian.Uint32(buf[o+4:]))))
	}
	return l, r
}

func sample(pcm []byte, frame, ch int) float64 {
	return float64(int16(binary.LittleEndian.Uint16(pcm[frame*4+ch*2:]))) / 32768
}

// A sound alone comes out as it is, then silence; it leaves the mixer
// when it ends.
func TestMixerPlaysASound(t *testing.T) {
	m := NewMixer()
	pcm := testPlayerBank.PCM(StopName(2))
	n := len(pcm) / bytesPerFrame
	m.Play(StopName(2), pcm, false)
	l, r := frames(m, n+100)
	for i := range n {
		if math.Abs(l[i]-sample(pcm, i, 0)) > 1e-6 || math.Abs(r[i]-sample(pcm, i, 1)) > 1e-6 {
			t.Fatalf("frame %d: %v %v, want %v %v", i, l[i], r[i], sample(pcm, i, 0), sample(pcm, i, 1))
		}
	}
	for i := n; i < n+100; i++ {
		if l[i] != 0 || r[i] != 0 {
			t.Fatalf("after the end, frame %d: %v %v", i, l[i], r[i])
		}
	}
	if m.Playing() != 0 {
		t.Errorf("%d sounds still playing", m.Playing())
	}
}

// A loop goes round until stopped; stopped, silence.
func TestMixerLoop(t *testing.T) {
	m := NewMixer()
	pcm := testPlayerBank.PCM(SoundSpin)
	n := len(pcm) / bytesPerFrame
	m.Play(SoundSpin, pcm, true)
	frames(m, n+10) // once round and a little
	l, _ := frames(m, 5)
	for i := range 5 {
		if math.Abs(l[i]-sample(pcm, 10+i, 0)) > 1e-6 {
			t.Fatalf("the loop did not go round: frame %d %v, want %v", i, l[i], sample(pcm, 10+i, 0))
		}
	}
	m.Stop(SoundSpin)
	if l, _ := frames(m, 10); l[0] != 0 || m.Playing() != 0 {
		t.Error("the loop plays on after Stop")
	}
}

// Everything at once (the worst a screen can do: the loop, a thump, the
// biggest jingle, the fanfare and the bell) never reaches full scale.
func TestMixerNeverClips(t *testing.T) {
	m := NewMixer()
	b := testPlayerBank
	for _, n := range []string{SoundSpin, StopName(0), WinName(WinTiers), SoundJackpot, SoundBell, SoundClick} {
		m.Play(n, b.PCM(n), Looping(n))
	}
	l, r := frames(m, 3*SampleRate)
	peak, loud := 0.0, 0
	for i := range l {
		a := max(math.Abs(l[i]), math.Abs(r[i]))
		peak = max(peak, a)
		if a > 0.5 {
			loud++
		}
	}
	if peak >= 1 {
		t.Errorf("the mix clips: peak %v", peak)
	}
	if loud < 1000 {
		t.Errorf("the mix is nearly silent: %d loud frames, peak %v", loud, peak)
	}
}
