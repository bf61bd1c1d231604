package hw

import "time"

// Debouncer turns raw level samples of one input into stable levels. It is
// pure: time is passed in with every sample and it runs no goroutine.
//
// A new level becomes stable once every sample for at least the window has
// shown it; a bounce back to the stable level before that restarts the count.
// The very first stable level (the power-up state) is reported as a change
// too, once it has been steady for the window.
type Debouncer struct {
	window    time.Duration
	started   bool      // a sample has been seen
	known     bool      // a stable level has been established
	stable    bool      // the stable level (valid when known)
	candidate bool      // the level of the latest samples
	since     time.Time // first sample of the current candidate run
}

// NewDebouncer returns a debouncer that needs the level steady for window.
func NewDebouncer(window time.Duration) *Debouncer {
	if window < 0 {
		window = 0
	}
	return &Debouncer{window: window}
}

// Window returns the configured debounce window.
func (d *Debouncer) Window() time.Duration { return d.window }

// Sample feeds the raw level seen at time at. It returns the stable level and
// whether it changed with this sample (true exactly once per stable edge, and
// once for the first stable level). Samples must come in time order.
func (d *Debouncer) Sample(at time.Time, active bool) (stable, changed bool) {
	if !d.started || active != d.candidate {
		d.started = true
		d.candidate = active
		d.since = at
	}
	if (!d.known || d.candidate != d.stable) && at.Sub(d.since) >= d.window {
		d.known = true
		d.stable = d.candidate
		return d.stable, true
	}
	return d.stable, false
}

// Stable returns the stable level and whether one has been established yet.
func (d *Debouncer) Stable() (active, known bool) { return d.stable, d.known }
