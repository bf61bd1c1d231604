// The sound device through ebiten's audio (oto; ALSA on Linux).

package sound

import (
	"time"

	"github.com/hajimehoshi/ebiten/v2/audio"
)

// OpenDevice opens the sound device. Call it once, before ebiten.RunGame.
// The sounds are mixed by a Mixer into one stream that ebiten plays.
//
// It fails when there is no device to play on (no sound card, no ALSA
// configuration, the device busy): the screens are then silent. This is
// checked here, before ebiten's audio context exists, because ebiten ends
// RunGame with the error of an audio context that cannot play: a missing
// speaker must not take the screen down.
func OpenDevice() (Output, error) {
	if err := probe(); err != nil {
		return nil, err
	}
	return &ebitenOut{Mixer: NewMixer(), ctx: audio.NewContext(SampleRate)}, nil
}

// ebitenOut starts ebiten's player of the mix at the first sound (from
// the game's update, once ebiten runs).
type ebitenOut struct {
	*Mixer
	ctx    *audio.Context
	player *audio.Player
}

// latency is how far ahead of the speaker the mix is read: a reel's thump
// is heard this long after the reel lands on screen, at most.
const latency = 40 * time.Millisecond

func (o *ebitenOut) Play(name string, pcm []byte, loop bool) {
	o.Mixer.Play(name, pcm, loop)
	if o.player == nil {
		p, err := o.ctx.NewPlayerF32(o.Mixer)
		if err != nil {
			return // not seekable, not an error: cannot happen
		}
		p.SetBufferSize(latency)
		p.Play()
		o.player = p
	}
}
