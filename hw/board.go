package hw

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"

	"periph.io/x/conn/v3/gpio"
	"periph.io/x/conn/v3/gpio/gpioreg"
	"periph.io/x/host/v3"
)

// PollInterval is how often the poller samples every input.
const PollInterval = 2 * time.Millisecond

// inputBuffer is the capacity of the Inputs channel.
const inputBuffer = 256

// Input is a debounced change of an input (or, once per input after Run
// starts, its initial stable state). Active means pressed (button), turned on
// (key switch) or open (door). At is when the debouncer confirmed the level.
type Input struct {
	Name   string
	Active bool
	At     time.Time
}

// Board is an opened set of cabinet devices: inputs (polled and debounced),
// lamps, meter pins, and on a simulated board the Sim that drives them.
type Board struct {
	mapping   *Mapping
	simulated bool
	inputs    []*boardInput
	lamps     map[string]*boardOutput
	meters    []*boardMeter
	out       chan Input
	sim       *Sim
	simNames  []string // pins registered in gpioreg by Open

	mu      sync.Mutex
	running bool
	pulsers bool
	closed  bool
}

type boardInput struct {
	name      string
	pin       gpio.PinIO
	activeLow bool
	deb       *Debouncer
}

type boardOutput struct {
	name      string
	pin       gpio.PinIO
	activeLow bool
}

type boardMeter struct {
	boardOutput
	width, gap time.Duration
}

func (o *boardOutput) level(on bool) gpio.Level { return gpio.Level(on != o.activeLow) }

// pinRef is one pin of the mapping with the field that names it.
type pinRef struct {
	field, name, pin string
}

// Open opens the devices of a mapping. With simulated, every pin of the
// mapping is created as a SimPin and registered in gpioreg under its name;
// otherwise the host's GPIO drivers are loaded (host.Init) and the pins are
// looked up by name. Either way the same code then reads and drives them.
// Inputs are configured with their pull, outputs driven inactive. Close
// releases them. Call Run to start the poller.
func Open(m *Mapping, simulated bool) (*Board, error) {
	if m == nil {
		return nil, errors.New("hw: open: nil mapping")
	}
	if err := m.Validate(); err != nil {
		return nil, err
	}
	src := m.Source
	if src == "" {
		src = "mapping"
	}
	var refs []pinRef
	for _, s := range []struct {
		sec  string
		pins []InputPin
	}{{"buttons", m.Buttons}, {"keys", m.Keys}, {"doors", m.Doors}} {
		for i, p := range s.pins {
			refs = append(refs, pinRef{fmt.Sprintf("%s[%d].pin", s.sec, i), p.Name, p.Pin})
		}
	}
	for i, p := range m.Lamps {
		refs = append(refs, pinRef{fmt.Sprintf("lamps[%d].pin", i), p.Name, p.Pin})
	}
	for i, p := range m.Meters {
		refs = append(refs, pinRef{fmt.Sprintf("meters[%d].pin", i), p.Name, p.Pin})
	}

	b := &Board{mapping: m, simulated: simulated, lamps: map[string]*boardOutput{}, out: make(chan Input, inputBuffer)}
	simPins := map[string]*SimPin{}
	hint := ""
	if simulated {
		for _, r := range refs {
			sp := NewSimPin(r.pin)
			if err := gpioreg.Register(sp); err != nil {
				b.unregister()
				return nil, fmt.Errorf("%s: %s: simulated pin %q for %q: %w (is another simulated board open?)", src, r.field, r.pin, r.name, err)
			}
			b.simNames = append(b.simNames, r.pin)
			simPins[r.name] = sp
		}
	} else {
		st, err := host.Init()
		if err != nil {
			return nil, fmt.Errorf("hw: loading the GPIO host drivers (periph host.Init) failed: %w; run on the cabinet board, or use the simulator", err)
		}
		if len(st.Loaded) == 0 {
			hint = " (no periph host driver loaded: this does not look like the cabinet board; use the simulator)"
		}
	}
	pins := map[string]gpio.PinIO{}
	for _, r := range refs {
		p := gpioreg.ByName(r.pin)
		if p == nil {
			b.unregister()
			return nil, fmt.Errorf("%s: %s: GPIO %q for %q not found on this host%s", src, r.field, r.pin, r.name, hint)
		}
		pins[r.name] = p
	}

	fail := func(err error) (*Board, error) {
		b.unregister()
		return nil, err
	}
	for _, s := range []struct {
		sec  string
		pins []InputPin
	}{{"buttons", m.Buttons}, {"keys", m.Keys}, {"doors", m.Doors}} {
		for i, ip := range s.pins {
			pin := pins[ip.Name]
			if err := pin.In(pullOf(ip), gpio.NoEdge); err != nil {
				return fail(fmt.Errorf("%s: %s[%d].pin: configuring %q (%s) as input: %w", src, s.sec, i, ip.Pin, ip.Name, err))
			}
			b.inputs = append(b.inputs, &boardInput{name: ip.Name, pin: pin, activeLow: ip.ActiveLow, deb: NewDebouncer(ip.debounce(s.sec))})
		}
	}
	for i, op := range m.Lamps {
		o := &boardOutput{name: op.Name, pin: pins[op.Name], activeLow: op.ActiveLow}
		if err := o.pin.Out(o.level(false)); err != nil {
			return fail(fmt.Errorf("%s: lamps[%d].pin: driving %q (%s): %w", src, i, op.Pin, op.Name, err))
		}
		b.lamps[op.Name] = o
	}
	for i, mp := range m.Meters {
		w, g := mp.widths()
		bm := &boardMeter{boardOutput{name: mp.Name, pin: pins[mp.Name], activeLow: mp.ActiveLow}, w, g}
		if err := bm.pin.Out(bm.level(false)); err != nil {
			return fail(fmt.Errorf("%s: meters[%d].pin: driving %q (%s): %w", src, i, mp.Pin, mp.Name, err))
		}
		b.meters = append(b.meters, bm)
	}
	if simulated {
		b.sim = newSim(b, simPins)
		// Every input starts inactive (buttons up, keys off, doors closed),
		// whatever the pull did to the simulated level.
		for _, in := range b.inputs {
			if err := b.sim.Set(in.name, false); err != nil {
				return fail(err)
			}
		}
	}
	return b, nil
}

func pullOf(p InputPin) gpio.Pull {
	switch p.Pull {
	case "up":
		return gpio.PullUp
	case "down":
		return gpio.PullDown
	case "float":
		return gpio.Float
	}
	if p.ActiveLow {
		return gpio.PullUp
	}
	return gpio.PullDown
}

func (b *Board) unregister() {
	for _, n := range b.simNames {
		_ = gpioreg.Unregister(n)
	}
	b.simNames = nil
}

// Simulated reports whether the board's pins are simulated.
func (b *Board) Simulated() bool { return b.simulated }

// Mapping returns the mapping the board was opened with.
func (b *Board) Mapping() *Mapping { return b.mapping }

// Sim returns the simulator driving the board's pins and devices, or nil on
// real hardware.
func (b *Board) Sim() *Sim { return b.sim }

// Inputs returns the channel of debounced input changes. It is closed when
// Run returns.
func (b *Board) Inputs() <-chan Input { return b.out }

// Run polls every input each PollInterval through gpio.PinIn.Read, feeds the
// debouncers and sends the changes on Inputs, starting with the initial
// stable state of every input. It returns nil when ctx is done, and closes
// Inputs. It may be called once.
func (b *Board) Run(ctx context.Context) error {
	b.mu.Lock()
	if b.running || b.closed {
		b.mu.Unlock()
		return errors.New("hw: board: Run called twice or after Close")
	}
	b.running = true
	b.mu.Unlock()
	defer close(b.out)

	t := time.NewTicker(PollInterval)
	defer t.Stop()
	for {
		for _, in := range b.inputs {
			raw := in.pin.Read() == gpio.High
			// Stamped after the read: a level is never dated before it was seen.
			now := time.Now()
			active, changed := in.deb.Sample(now, raw != in.activeLow)
			if !changed {
				continue
			}
			select {
			case b.out <- Input{Name: in.name, Active: active, At: now}:
			case <-ctx.Done():
				return nil
			}
		}
		select {
		case <-ctx.Done():
			return nil
		case <-t.C:
		}
	}
}

// SetLamp switches a lamp (lamp_* or tower_*) on or off.
func (b *Board) SetLamp(name string, on bool) error {
	o, ok := b.lamps[name]
	if !ok {
		return fmt.Errorf("hw: unknown lamp %q", name)
	}
	if err := o.pin.Out(o.level(on)); err != nil {
		return fmt.Errorf("hw: lamp %q: %w", name, err)
	}
	return nil
}

// OpenPulsers opens the meter pulsers of the board, keeping their state files
// in stateDir (see NewPulser). It may be called once per board; run the
// result with Pulsers.Run.
func (b *Board) OpenPulsers(stateDir string) (*Pulsers, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.pulsers {
		return nil, errors.New("hw: board: pulsers already opened")
	}
	var ps []*Pulser
	for _, m := range b.meters {
		p, err := NewPulser(PulserConfig{Meter: m.name, Pin: m.pin, ActiveLow: m.activeLow, Width: m.width, Gap: m.gap, StateDir: stateDir})
		if err != nil {
			return nil, err
		}
		ps = append(ps, p)
	}
	set, err := NewPulsers(ps...)
	if err != nil {
		return nil, err
	}
	b.pulsers = true
	return set, nil
}

// Close switches every lamp and meter coil off and, on a simulated board,
// removes the simulated pins from gpioreg. Stop Run and the pulsers first.
func (b *Board) Close() error {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.closed {
		return nil
	}
	b.closed = true
	var errs []error
	for _, o := range b.lamps {
		errs = append(errs, o.pin.Out(o.level(false)))
	}
	for _, m := range b.meters {
		errs = append(errs, m.pin.Out(m.level(false)))
	}
	b.unregister()
	return errors.Join(errs...)
}
