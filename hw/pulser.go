package hw

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sync"
	"time"

	"github.com/openegm/cabinet/internal/atomicfile"
	"periph.io/x/conn/v3/gpio"
)

// PulserConfig configures the pulser of one electromechanical meter.
type PulserConfig struct {
	Meter     string        // logical name, e.g. "meter_coin_in"
	Pin       gpio.PinOut   // the meter's coil driver
	ActiveLow bool          // the coil is energised by a low level
	Width     time.Duration // pulse (coil on) time; 0 means DefaultPulseWidth
	Gap       time.Duration // minimum coil-off time between pulses; 0 means DefaultPulseGap
	StateDir  string        // directory of the state file (created if missing)
}

// PulserStatus is a snapshot of a pulser.
type PulserStatus struct {
	Meter string
	PulseState
	// Fresh: no state file existed when the pulser was opened (a new board);
	// the caller may Baseline it.
	Fresh bool
	// Recovered: a pulse was in flight at the last power loss and was counted
	// as delivered at open (it may not have reached the meter). It is included
	// in Uncertain.
	Recovered bool
	// Err is the fault that stopped the pulser (persisting or driving the
	// pin failed); nil while healthy.
	Err error
}

// Pulser drives one electromechanical meter until the pulses delivered equal
// the target set by the caller. Delivered is persisted in
// StateDir/<meter>.pulses.json; see PulseState for the crash rule.
type Pulser struct {
	cfg  PulserConfig
	file string
	// kept is the state file, opened once: a pulse must not need a file
	// descriptor the process may no longer have (idle connections took
	// them all, say), or the hard meter faults for a reason that is not the
	// meter's.
	kept *atomicfile.Kept
	// write replaces the state file atomically (keptWrite); a test may wrap
	// it to act while a state is being written.
	write func(dir, name string, data []byte) error

	mu        sync.Mutex
	st        PulseState
	fresh     bool
	recovered bool
	running   bool
	err       error
	wake      chan struct{}
	changed   chan struct{} // closed and replaced on every change
}

// pulseFile is the persisted form of a PulseState (Target is not persisted).
type pulseFile struct {
	Meter     string `json:"meter"`
	Delivered uint64 `json:"delivered"`
	InFlight  bool   `json:"in_flight"`
	Uncertain uint64 `json:"uncertain"`
}

// StateFileName returns the name of a meter's state file in the state dir.
func StateFileName(meter string) string { return meter + ".pulses.json" }

// NewPulser opens the pulser of one meter: it loads the state file (a pulse
// found in flight counts as delivered and uncertain, and the recovered state
// is written back), and drives the pin to its inactive level. It does not
// pulse until Run.
func NewPulser(cfg PulserConfig) (*Pulser, error) {
	if cfg.Meter == "" {
		return nil, errors.New("hw: pulser: empty meter name")
	}
	if cfg.Pin == nil {
		return nil, fmt.Errorf("hw: pulser %s: no pin", cfg.Meter)
	}
	if cfg.StateDir == "" {
		return nil, fmt.Errorf("hw: pulser %s: empty state directory", cfg.Meter)
	}
	if cfg.Width <= 0 {
		cfg.Width = DefaultPulseWidth
	}
	if cfg.Gap <= 0 {
		cfg.Gap = DefaultPulseGap
	}
	p := &Pulser{
		cfg:     cfg,
		file:    filepath.Join(cfg.StateDir, StateFileName(cfg.Meter)),
		wake:    make(chan struct{}, 1),
		changed: make(chan struct{}),
	}
	if err := os.MkdirAll(cfg.StateDir, 0o700); err != nil {
		return nil, p.errorf("state directory: %w", err)
	}
	if err := removeStaleTemps(cfg.StateDir, StateFileName(cfg.Meter)); err != nil {
		return nil, p.errorf("removing stale temporary files: %w", err)
	}
	st, fresh, err := p.load()
	if err != nil {
		return nil, err
	}
	if p.kept, err = atomicfile.OpenKept(p.file, 0o600); err != nil {
		return nil, p.errorf("opening state file: %w", err)
	}
	p.write = p.keptWrite
	p.fresh = fresh
	p.recovered = st.InFlight
	p.st = st.Recover()
	if p.recovered {
		if err := p.persist(p.st); err != nil {
			return nil, err
		}
	}
	if err := cfg.Pin.Out(p.level(false)); err != nil {
		return nil, p.errorf("releasing pin: %w", err)
	}
	return p, nil
}

// keptWrite replaces the state file through its kept descriptors.
func (p *Pulser) keptWrite(_, _ string, data []byte) error { return p.kept.Write(data) }

// Close closes the state file; the pulser must not run any more.
func (p *Pulser) Close() error { return p.kept.Close() }

func (p *Pulser) errorf(format string, a ...any) error {
	return fmt.Errorf("hw: pulser %s (%s): %w", p.cfg.Meter, p.file, fmt.Errorf(format, a...))
}

func (p *Pulser) level(active bool) gpio.Level {
	return gpio.Level(active != p.cfg.ActiveLow)
}

func (p *Pulser) load() (PulseState, bool, error) {
	data, err := os.ReadFile(p.file)
	if errors.Is(err, fs.ErrNotExist) {
		return PulseState{}, true, nil
	}
	if err != nil {
		return PulseState{}, false, p.errorf("reading state: %w", err)
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	var f pulseFile
	if err := dec.Decode(&f); err != nil {
		return PulseState{}, false, p.errorf("damaged state file (refusing to guess the meter count): %w", err)
	}
	if _, err := dec.Token(); err != io.EOF {
		return PulseState{}, false, p.errorf("damaged state file: trailing data")
	}
	if f.Meter != p.cfg.Meter {
		return PulseState{}, false, p.errorf("state file belongs to meter %q", f.Meter)
	}
	return PulseState{Delivered: f.Delivered, InFlight: f.InFlight, Uncertain: f.Uncertain}, false, nil
}

func (p *Pulser) persist(s PulseState) error {
	data, err := json.Marshal(pulseFile{Meter: p.cfg.Meter, Delivered: s.Delivered, InFlight: s.InFlight, Uncertain: s.Uncertain})
	if err != nil {
		return p.errorf("encoding state: %w", err)
	}
	if err := p.write(p.cfg.StateDir, StateFileName(p.cfg.Meter), append(data, '\n')); err != nil {
		return p.errorf("writing state: %w", err)
	}
	return nil
}

// Meter returns the logical name of the meter.
func (p *Pulser) Meter() string { return p.cfg.Meter }

// SetTarget sets the count the meter must show. A target below the pulses
// already delivered (or in flight) is refused with ErrTargetBelowDelivered:
// the ledger and the hard meter disagree and the machine must not play.
func (p *Pulser) SetTarget(target uint64) error {
	p.mu.Lock()
	defer p.mu.Unlock()
	next, err := p.st.WithTarget(target)
	if err != nil {
		return p.errorf("%w", err)
	}
	p.setLocked(next)
	select {
	case p.wake <- struct{}{}:
	default:
	}
	return nil
}

// Baseline takes target as already delivered and persists it, so that a new
// board on an existing ledger does not pulse a lifetime of meters. It is
// refused while Run is running and below the pulses already delivered.
func (p *Pulser) Baseline(target uint64) error {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.running {
		return p.errorf("baseline while running")
	}
	next, err := p.st.Baseline(target)
	if err != nil {
		return p.errorf("%w", err)
	}
	if err := p.persist(next); err != nil {
		return err
	}
	p.fresh = false
	p.setLocked(next)
	return nil
}

// Status returns a snapshot.
func (p *Pulser) Status() PulserStatus {
	p.mu.Lock()
	defer p.mu.Unlock()
	return PulserStatus{Meter: p.cfg.Meter, PulseState: p.st, Fresh: p.fresh, Recovered: p.recovered, Err: p.err}
}

func (p *Pulser) setLocked(s PulseState) {
	p.st = s
	close(p.changed)
	p.changed = make(chan struct{})
}

// Wait blocks until every targeted pulse is delivered, the pulser fails, or
// ctx is done.
func (p *Pulser) Wait(ctx context.Context) error {
	for {
		p.mu.Lock()
		idle, err, ch := p.st.Idle(), p.err, p.changed
		p.mu.Unlock()
		if err != nil {
			return err
		}
		if idle {
			return nil
		}
		select {
		case <-ch:
		case <-ctx.Done():
			return ctx.Err()
		}
	}
}

// Run pulses the meter until ctx is done. A pulse in progress when ctx is
// done is finished and recorded first. Run returns nil on cancellation and an
// error (also kept in Status().Err) if the state cannot be persisted or the
// pin driven; the pulser then stays stopped: the meters can no longer be
// trusted and the machine must not play.
func (p *Pulser) Run(ctx context.Context) error {
	p.mu.Lock()
	if p.err != nil {
		p.mu.Unlock()
		return p.err
	}
	if p.running {
		p.mu.Unlock()
		return p.errorf("already running")
	}
	p.running = true
	p.mu.Unlock()
	defer func() {
		p.mu.Lock()
		p.running = false
		p.mu.Unlock()
	}()

	var lastOff time.Time
	for {
		p.mu.Lock()
		can := p.st.CanBegin()
		p.mu.Unlock()
		if !can {
			select {
			case <-ctx.Done():
				return nil
			case <-p.wake:
				continue
			}
		}
		// Respect the coil-off gap before deciding to pulse, so that a
		// cancellation here leaves nothing in flight.
		if wait := time.Until(lastOff.Add(p.cfg.Gap)); wait > 0 {
			t := time.NewTimer(wait)
			select {
			case <-ctx.Done():
				t.Stop()
				return nil
			case <-t.C:
			}
		}
		if ctx.Err() != nil {
			return nil
		}
		if err := p.pulse(); err != nil {
			p.mu.Lock()
			p.err = err
			p.setLocked(p.st)
			p.mu.Unlock()
			_ = p.cfg.Pin.Out(p.level(false))
			return err
		}
		lastOff = time.Now()
	}
}

// pulse delivers one pulse: in-flight marker persisted, coil on for Width,
// coil off, delivered persisted. It is not interrupted by cancellation.
func (p *Pulser) pulse() error {
	p.mu.Lock()
	next, err := p.st.Begin()
	if err != nil {
		p.mu.Unlock()
		return p.errorf("%w", err)
	}
	// In memory first, so that SetTarget already counts this pulse.
	p.setLocked(next)
	p.mu.Unlock()
	// Only this goroutine changes Delivered, InFlight and Uncertain while
	// running, so next holds the persisted fields exactly.
	if err := p.persist(next); err != nil {
		return err
	}
	if err := p.cfg.Pin.Out(p.level(true)); err != nil {
		return p.errorf("driving pin: %w", err)
	}
	time.Sleep(p.cfg.Width)
	if err := p.cfg.Pin.Out(p.level(false)); err != nil {
		return p.errorf("releasing pin: %w", err)
	}
	p.mu.Lock()
	done, err := p.st.Complete()
	if err != nil {
		p.mu.Unlock()
		return p.errorf("%w", err)
	}
	p.mu.Unlock()
	if err := p.persist(done); err != nil {
		return err
	}
	p.mu.Lock()
	// SetTarget may have raised the target while the state was written:
	// keep it, or the pulse it owes is never delivered (the owner sets a
	// target only when the ledger changes).
	done.Target = p.st.Target
	p.setLocked(done)
	p.mu.Unlock()
	return nil
}

// Pulsers is the set of meter pulsers of a board, addressed by logical name.
type Pulsers struct {
	order  []string
	byName map[string]*Pulser
}

// NewPulsers groups pulsers (each meter once).
func NewPulsers(ps ...*Pulser) (*Pulsers, error) {
	b := &Pulsers{byName: map[string]*Pulser{}}
	for _, p := range ps {
		if _, dup := b.byName[p.Meter()]; dup {
			return nil, fmt.Errorf("hw: pulsers: meter %q twice", p.Meter())
		}
		b.byName[p.Meter()] = p
		b.order = append(b.order, p.Meter())
	}
	return b, nil
}

// Meters returns the meter names in mapping order.
func (b *Pulsers) Meters() []string { return append([]string(nil), b.order...) }

// Pulser returns the pulser of a meter.
func (b *Pulsers) Pulser(meter string) (*Pulser, error) {
	p, ok := b.byName[meter]
	if !ok {
		return nil, fmt.Errorf("hw: unknown meter %q", meter)
	}
	return p, nil
}

// SetTarget sets the count a meter must show; see Pulser.SetTarget.
func (b *Pulsers) SetTarget(meter string, target uint64) error {
	p, err := b.Pulser(meter)
	if err != nil {
		return err
	}
	return p.SetTarget(target)
}

// Baseline takes target as already delivered for a meter; see Pulser.Baseline.
func (b *Pulsers) Baseline(meter string, target uint64) error {
	p, err := b.Pulser(meter)
	if err != nil {
		return err
	}
	return p.Baseline(target)
}

// Status returns a meter's snapshot.
func (b *Pulsers) Status(meter string) (PulserStatus, error) {
	p, err := b.Pulser(meter)
	if err != nil {
		return PulserStatus{}, err
	}
	return p.Status(), nil
}

// Run runs every pulser until ctx is done. If one fails, the others are
// stopped (after finishing a pulse in progress) and its error is returned.
func (b *Pulsers) Run(ctx context.Context) error {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	errs := make(chan error, len(b.order))
	for _, n := range b.order {
		p := b.byName[n]
		go func() {
			err := p.Run(ctx)
			if err != nil {
				cancel()
			}
			errs <- err
		}()
	}
	var first error
	for range b.order {
		if err := <-errs; err != nil && first == nil {
			first = err
		}
	}
	return first
}

// Wait blocks until every meter has delivered its target, one fails, or ctx
// is done.
func (b *Pulsers) Wait(ctx context.Context) error {
	for _, n := range b.order {
		if err := b.byName[n].Wait(ctx); err != nil {
			return err
		}
	}
	return nil
}
