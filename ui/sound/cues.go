package sound

import (
	"github.com/openegm/cabinet/machine"
	"github.com/openegm/cabinet/ui/model"
)

// Kind of cue.
type Kind int

const (
	SpinStart Kind = iota // the reels start turning on screen: the spin loop
	SpinEnd               // the last reel landed (or the spin left the screen): the loop stops
	ReelStop              // reel Cue.Reel landed on screen
	Win                   // the reels show a win and the meter counts it: a jingle of Cue.Tier
	Jackpot               // the reels show a jackpot, or a level is won: the fanfare
	Click                 // a button was touched
	Bell                  // a lockout that calls the attendant: a handpay, a tilt, a meter fault
	Feature               // a free-game trigger is celebrated: its chimes
)

var kindNames = [...]string{"spin_start", "spin_end", "reel_stop", "win", "jackpot", "click", "bell", "feature"}

func (k Kind) String() string {
	if k >= 0 && int(k) < len(kindNames) {
		return kindNames[k]
	}
	return "kind?"
}

// Cue is something the screen shows that is heard.
type Cue struct {
	Kind Kind
	Reel int // ReelStop: which reel, from 0 on the left
	Tier int // Win: 1 (small) to WinTiers (big)
}

func (c Cue) String() string {
	switch c.Kind {
	case ReelStop:
		return c.Kind.String() + string(rune('0'+c.Reel%10))
	case Win:
		return c.Kind.String() + string(rune('0'+c.Tier%10))
	}
	return c.Kind.String()
}

// Sound is the name of the cue's sound in a Bank ("" for SpinEnd, which
// stops the spin loop).
func (c Cue) Sound() string {
	switch c.Kind {
	case SpinStart:
		return SoundSpin
	case ReelStop:
		return StopName(c.Reel)
	case Win:
		return WinName(c.Tier)
	case Jackpot:
		return SoundJackpot
	case Click:
		return SoundClick
	case Bell:
		return SoundBell
	case Feature:
		return SoundFeature
	}
	return ""
}

// WinTier scales a win's jingle to its size against the bet: under twice
// the bet 1, under ten times 2, under fifty times 3, more 4.
func WinTier(win, bet int64) int {
	if bet <= 0 {
		bet = 1
	}
	switch {
	case win < 2*bet:
		return 1
	case win < 10*bet:
		return 2
	case win < 50*bet:
		return 3
	}
	return 4
}

// bellModes are the lockouts that call the attendant.
var bellModes = map[string]bool{"handpay": true, "tilt": true, "meter_fault": true}

// Watcher turns what the screen model shows, frame after frame, into cues.
// It reads only the screen (model.Screen after its Update): the reels'
// animation, the view on screen. So a sound is heard when the player sees
// its cause, never before: a reel's thump when that reel lands on screen,
// the win when the reels show it. The first frame it sees sets what is
// already on screen, without cues (but reels turning are heard).
type Watcher struct {
	seen    bool
	anim    *model.ReelAnim // the spin on screen
	landed  int             // reels of anim heard landing
	counted bool            // anim's win (or its absence) heard
	looping bool            // the spin loop is playing
	mode    string
	pending []int  // the jackpot levels heard won and still being paid
	present uint64 // the machine's step last heard (model.Screen.Showing)
}

// Step is one frame of the screen: the cues it brings, appended to out.
// Call it once per update, after the screen's.
func (w *Watcher) Step(s *model.Screen, out []Cue) []Cue {
	first := !w.seen
	w.seen = true
	tick := s.Tick
	if s.Anim != w.anim {
		if w.looping {
			out = append(out, Cue{Kind: SpinEnd})
			w.looping = false
		}
		w.anim, w.landed, w.counted = s.Anim, 0, false
		if a := s.Anim; a != nil {
			for w.landed < len(a.StopAt) && a.Stopped(w.landed, tick) {
				w.landed++
			}
			if w.landed < len(a.StopAt) {
				out = append(out, Cue{Kind: SpinStart})
				w.looping = true
			} else if a.Done(tick) {
				w.counted = true // landed before we saw it
			}
		}
	}
	pend := pendingLevels(s, w.pending[:0:0])
	if a := w.anim; a != nil {
		for w.landed < len(a.StopAt) && a.Stopped(w.landed, tick) {
			out = append(out, Cue{Kind: ReelStop, Reel: w.landed})
			w.landed++
			if w.landed == len(a.StopAt) && w.looping {
				out = append(out, Cue{Kind: SpinEnd})
				w.looping = false
			}
		}
		if !w.counted && a.Done(tick) {
			// The reels have landed and the meter starts counting: the
			// win they show, or the jackpot.
			w.counted = true
			switch {
			case jackpotLine(s) || won(pend, w.pending):
				out = append(out, Cue{Kind: Jackpot})
			case s.V.SpinWinCents > 0:
				out = append(out, Cue{Kind: Win, Tier: WinTier(s.V.SpinWinCents, s.V.BetCents)})
			}
			w.pending = pend
		}
	}
	// A level won outside a spin (or shown as the first frame): the
	// fanfare, unless the reels still turn (it waits for them to land).
	if !s.Spinning() {
		if !first && won(pend, w.pending) {
			out = append(out, Cue{Kind: Jackpot})
		}
		w.pending = pend
	}
	// The machine's steps: a trigger's chimes as its scatters are
	// celebrated; the feature's total with the biggest jingle. (A spin's
	// win, big or not, is heard as its reels land, above.)
	if p, _, ok := s.Showing(); ok && p.ID != w.present {
		w.present = p.ID
		switch {
		case first:
		case p.Kind == machine.PresentFeature:
			out = append(out, Cue{Kind: Feature})
		case p.Kind == machine.PresentTotal && p.Cents > 0:
			out = append(out, Cue{Kind: Win, Tier: WinTiers})
		}
	}
	if m := s.V.Mode; m != w.mode {
		if !first && bellModes[m] {
			out = append(out, Cue{Kind: Bell})
		}
		w.mode = m
	}
	return out
}

// jackpotLine says whether a line of the spin on screen wins a jackpot
// level.
func jackpotLine(s *model.Screen) bool {
	for _, l := range s.V.Lines {
		if l.Progressive > 0 {
			return true
		}
	}
	return false
}

// pendingLevels are the levels the view shows won and being paid.
func pendingLevels(s *model.Screen, out []int) []int {
	for _, j := range s.V.Jackpots {
		if j.Pending {
			out = append(out, j.Level)
		}
	}
	return out
}

// won says whether now holds a level before does not.
func won(now, before []int) bool {
	for _, l := range now {
		found := false
		for _, b := range before {
			found = found || b == l
		}
		if !found {
			return true
		}
	}
	return false
}
