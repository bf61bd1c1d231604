package sound

import (
	"slices"
	"sync"
	"testing"
)

// device records what a Player asks of it.
type device struct {
	mu    sync.Mutex
	calls []string
}

func (d *device) Play(name string, pcm []byte, loop bool) {
	d.mu.Lock()
	defer d.mu.Unlock()
	if len(pcm) == 0 {
		name += "(empty!)"
	}
	if loop {
		name += "(loop)"
	}
	d.calls = append(d.calls, "play "+name)
}

func (d *device) Stop(name string) {
	d.mu.Lock()
	defer d.mu.Unlock()
	d.calls = append(d.calls, "stop "+name)
}

func (d *device) take() []string {
	d.mu.Lock()
	defer d.mu.Unlock()
	c := d.calls
	d.calls = nil
	return c
}

// The shared bank: synthesizing takes a moment.
var testPlayerBank = Synthesize()

func newTestPlayer(out Output) *Player {
	return &Player{bank: testPlayerBank, out: out, playing: map[string]bool{}}
}

func TestPlayerPlaysCues(t *testing.T) {
	d := &device{}
	p := newTestPlayer(d)
	for _, c := range []Cue{{Kind: SpinStart}, {Kind: ReelStop, Reel: 0}, {Kind: ReelStop, Reel: 7}, {Kind: SpinEnd},
		{Kind: Win, Tier: 3}, {Kind: Jackpot}, {Kind: Click}, {Kind: Bell}} {
		p.Cue(c)
	}
	want := []string{"play spin(loop)", "play stop0", "play stop4", "stop spin", "play win3", "play jackpot", "play click", "play bell"}
	if got := d.take(); !slices.Equal(got, want) {
		t.Errorf("device calls %v\nwant %v", got, want)
	}
	p.Cue(Cue{Kind: SpinEnd}) // nothing turning: nothing to stop
	if got := d.take(); len(got) != 0 {
		t.Errorf("a second spin end: %v", got)
	}
}

// Muted: everything playing stops, nothing plays; the spin loop comes back
// if the sound comes back on while the reels turn, not after.
func TestPlayerMute(t *testing.T) {
	d := &device{}
	p := newTestPlayer(d)
	p.Cue(Cue{Kind: SpinStart})
	p.Cue(Cue{Kind: ReelStop, Reel: 1})
	d.take()
	p.Mute(true)
	if !p.Muted() {
		t.Fatal("not muted")
	}
	if got, want := d.take(), []string{"stop spin", "stop stop1"}; !slices.Equal(got, want) {
		t.Errorf("muting: %v, want %v", got, want)
	}
	p.Cue(Cue{Kind: ReelStop, Reel: 2})
	p.Cue(Cue{Kind: Win, Tier: 1})
	p.Mute(true)
	if got := d.take(); len(got) != 0 {
		t.Errorf("muted, yet: %v", got)
	}
	p.Mute(false)
	if got, want := d.take(), []string{"play spin(loop)"}; !slices.Equal(got, want) {
		t.Errorf("sound back on while the reels turn: %v, want %v", got, want)
	}
	p.Mute(true)
	p.Cue(Cue{Kind: SpinEnd})
	p.Mute(false)
	if got, want := d.take(), []string{"stop spin"}; !slices.Equal(got, want) {
		t.Errorf("the reels landed while muted: %v, want %v", got, want)
	}
	p.Cue(Cue{Kind: Click})
	if got, want := d.take(), []string{"play click"}; !slices.Equal(got, want) {
		t.Errorf("unmuted: %v, want %v", got, want)
	}
}

// Without a device: silent, and muting still works (for the legend).
func TestPlayerWithoutDevice(t *testing.T) {
	p := newTestPlayer(nil)
	if !p.Silent() {
		t.Error("no device, not silent")
	}
	p.Cue(Cue{Kind: SpinStart})
	p.Mute(true)
	p.Cue(Cue{Kind: SpinEnd})
	p.Mute(false)
	if !p.Silent() || p.Muted() {
		t.Error("mute state")
	}
}

// Every cue but the loop's end has a sound in the bank.
func TestCueSounds(t *testing.T) {
	b := testPlayerBank
	for k := SpinStart; k <= Bell; k++ {
		for _, c := range []Cue{{Kind: k}, {Kind: k, Reel: 3, Tier: 2}, {Kind: k, Reel: 99, Tier: 99}} {
			if name := c.Sound(); (name == "") != (k == SpinEnd) || (name != "" && b.PCM(name) == nil) {
				t.Errorf("%v: sound %q", c, name)
			}
		}
	}
}
