package sound

import (
	"encoding/binary"
	"math"
	"sync"
)

// Mixer is an Output that mixes its voices into one endless stream of
// 32-bit float little-endian stereo at SampleRate (Read), for the device
// to play. The voices are summed and the sum is limited softly, so sounds
// that play together (the spin loop under the reels' thumps, the bell over
// a jingle) never clip. Silence when nothing plays.
type Mixer struct {
	mu     sync.Mutex
	voices []*voice
}

type voice struct {
	name string
	pcm  []byte // 16-bit stereo
	pos  int    // byte offset of the next frame
	loop bool
}

// NewMixer is a mixer with nothing playing.
func NewMixer() *Mixer { return &Mixer{} }

// Play starts a sound from its beginning; playing it again restarts it.
func (m *Mixer) Play(name string, pcm []byte, loop bool) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.remove(name)
	if len(pcm) >= bytesPerFrame {
		m.voices = append(m.voices, &voice{name: name, pcm: pcm[:len(pcm)/bytesPerFrame*bytesPerFrame], loop: loop})
	}
}

// Stop silences a sound.
func (m *Mixer) Stop(name string) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.remove(name)
}

func (m *Mixer) remove(name string) {
	for i, v := range m.voices {
		if v.name == name {
			m.voices = append(m.voices[:i], m.voices[i+1:]...)
			return
		}
	}
}

// Playing is how many sounds are playing.
func (m *Mixer) Playing() int {
	m.mu.Lock()
	defer m.mu.Unlock()
	return len(m.voices)
}

// Read fills p with the next frames of the mix (whole frames of 8 bytes);
// it never blocks and never ends.
func (m *Mixer) Read(p []byte) (int, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	n := len(p) / 8 * 8
	for o := 0; o < n; o += 8 {
		var l, r float64
		for _, v := range m.voices {
			if v.pos >= len(v.pcm) {
				continue
			}
			l += float64(int16(binary.LittleEndian.Uint16(v.pcm[v.pos:]))) / 32768
			r += float64(int16(binary.LittleEndian.Uint16(v.pcm[v.pos+2:]))) / 32768
			v.pos += bytesPerFrame
			if v.pos >= len(v.pcm) && v.loop {
				v.pos = 0
			}
		}
		binary.LittleEndian.PutUint32(p[o:], math.Float32bits(float32(limit(l))))
		binary.LittleEndian.PutUint32(p[o+4:], math.Float32bits(float32(limit(r))))
	}
	// Sounds that have ended leave.
	k := 0
	for _, v := range m.voices {
		if v.pos < len(v.pcm) {
			m.voices[k] = v
			k++
		}
	}
	clear(m.voices[k:])
	m.voices = m.voices[:k]
	return n, nil
}

// limit passes a sample up to 0.8 as it is and bends louder ones softly
// towards 1, which they never reach.
func limit(x float64) float64 {
	const knee = 0.8
	a := math.Abs(x)
	if a <= knee {
		return x
	}
	return math.Copysign(knee+(1-knee)*math.Tanh((a-knee)/(1-knee)), x)
}
