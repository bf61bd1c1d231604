package sound

import (
	"sync"
)

// Output is a sound device. Play starts a sound from its beginning
// (16-bit signed little-endian stereo PCM at SampleRate; a loop plays until
// stopped), over whatever else is playing; Stop silences it. Each sound is a
// voice of its own: playing one again restarts it.
type Output interface {
	Play(name string, pcm []byte, loop bool)
	Stop(name string)
}

// Player plays cues on an Output, or nowhere (no device: silent). It can
// be muted from any goroutine (a host's sound off, the simulator's key).
type Player struct {
	mu      sync.Mutex
	bank    *Bank
	out     Output
	muted   bool
	playing map[string]bool // started and not stopped (one-shots stay until muted)
}

// NewPlayer synthesizes the sounds and plays them on out (nil: silent).
func NewPlayer(out Output) *Player {
	return &Player{bank: Synthesize(), out: out, playing: map[string]bool{}}
}

// Bank is the player's sounds.
func (p *Player) Bank() *Bank { return p.bank }

// Silent says whether the player has no device.
func (p *Player) Silent() bool { return p.out == nil }

// Cue plays what a cue sounds like. While muted nothing is played, but the
// spin loop is remembered, so it is heard again if the sound comes back on
// while the reels still turn.
func (p *Player) Cue(c Cue) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if c.Kind == SpinEnd {
		p.stop(SoundSpin)
		return
	}
	name := c.Sound()
	pcm := p.bank.PCM(name)
	if pcm == nil {
		return
	}
	loop := Looping(name)
	if loop {
		p.playing[name] = true
	}
	if p.muted || p.out == nil {
		return
	}
	p.playing[name] = true
	p.out.Play(name, pcm, loop)
}

func (p *Player) stop(name string) {
	if !p.playing[name] {
		return
	}
	delete(p.playing, name)
	if p.out != nil && !p.muted {
		p.out.Stop(name)
	}
}

// Mute turns the sound off (true) or on again.
func (p *Player) Mute(on bool) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if on == p.muted {
		return
	}
	p.muted = on
	if p.out == nil {
		return
	}
	for _, name := range p.bank.Names() {
		if !p.playing[name] {
			continue
		}
		switch {
		case on:
			p.out.Stop(name)
			if !Looping(name) {
				delete(p.playing, name)
			}
		case Looping(name):
			p.out.Play(name, p.bank.PCM(name), true)
		}
	}
}

// Muted says whether the sound is off.
func (p *Player) Muted() bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.muted
}
