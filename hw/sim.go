package hw

import (
	"fmt"
	"os"
	"path/filepath"
	"time"

	"periph.io/x/conn/v3/gpio"
)

// simEventBuffer is the capacity of the Sim's device event channel.
const simEventBuffer = 256

// Sim drives a simulated board: its input pins (as a person pressing a
// button, turning a key, opening a door), a bill validator and a ticket
// printer. It is what the cabinet's control socket and the tests script.
type Sim struct {
	pins    map[string]simEntry
	events  chan DeviceEvent
	bills   *BillValidator
	printer *Printer
}

type simEntry struct {
	pin       *SimPin
	activeLow bool
	input     bool
	meter     bool
}

func newSim(b *Board, pins map[string]*SimPin) *Sim {
	s := &Sim{pins: map[string]simEntry{}, events: make(chan DeviceEvent, simEventBuffer)}
	for _, in := range b.inputs {
		s.pins[in.name] = simEntry{pin: pins[in.name], activeLow: in.activeLow, input: true}
	}
	for n, o := range b.lamps {
		s.pins[n] = simEntry{pin: pins[n], activeLow: o.activeLow}
	}
	for _, m := range b.meters {
		s.pins[m.name] = simEntry{pin: pins[m.name], activeLow: m.activeLow, meter: true}
	}
	// Devices with no memory; KeepDevices gives them one.
	_ = s.openDevices(SimDevices{})
	return s
}

// KeepDevices replaces the simulated validator and printer by ones that
// keep their memory in cfg.Dir. Call it before the devices are used.
func (s *Sim) KeepDevices(cfg SimDevices) error { return s.openDevices(cfg) }

// SimDevices configures the simulated bill validator and printer.
type SimDevices struct {
	// Dir, when set, keeps what the devices themselves keep across a power
	// loss: the validator's last stacked order (validator.json) and the
	// printer's tray of printed tickets (printed.jsonl).
	Dir string
	// PrintDelay is how long the printer takes to print a ticket (0: its
	// default); a slow printer lets a test pull the cord mid-print.
	PrintDelay time.Duration
}

func (s *Sim) openDevices(cfg SimDevices) error {
	var vc BillValidatorConfig
	pc := PrinterConfig{Delay: cfg.PrintDelay}
	if cfg.Dir != "" {
		if err := os.MkdirAll(cfg.Dir, 0o700); err != nil {
			return fmt.Errorf("hw: sim devices: %w", err)
		}
		vc.StateFile = filepath.Join(cfg.Dir, "validator.json")
		pc.Tray = filepath.Join(cfg.Dir, "printed.jsonl")
	}
	var err error
	if s.bills, err = NewBillValidator(vc, s.events); err != nil {
		return err
	}
	s.printer, err = NewPrinter(pc, s.events)
	return err
}

// Set drives an input's simulated pin to its active (pressed, turned on,
// open) or inactive level. The poller sees it exactly as a real pin.
func (s *Sim) Set(name string, active bool) error {
	e, ok := s.pins[name]
	if !ok || !e.input {
		return fmt.Errorf("hw: sim: %q is not an input", name)
	}
	return e.pin.Out(gpio.Level(active != e.activeLow))
}

// Active reports whether a pin (input, lamp or meter) is at its active level.
func (s *Sim) Active(name string) (bool, error) {
	e, ok := s.pins[name]
	if !ok {
		return false, fmt.Errorf("hw: sim: unknown pin %q", name)
	}
	return (e.pin.Read() == gpio.High) != e.activeLow, nil
}

// Pin returns the simulated pin of a logical name, for scripts that drive
// raw levels (bounces) or inspect transitions.
func (s *Sim) Pin(name string) (*SimPin, error) {
	e, ok := s.pins[name]
	if !ok {
		return nil, fmt.Errorf("hw: sim: unknown pin %q", name)
	}
	return e.pin, nil
}

// Pulses returns how many pulses the simulated hard meter has received (its
// activations since Open).
func (s *Sim) Pulses(meter string) (uint64, error) {
	e, ok := s.pins[meter]
	if !ok || !e.meter {
		return 0, fmt.Errorf("hw: sim: %q is not a meter", meter)
	}
	if e.activeLow {
		return e.pin.Falls(), nil
	}
	return e.pin.Rises(), nil
}

// Bills returns the simulated bill validator (disabled until enabled).
func (s *Sim) Bills() *BillValidator { return s.bills }

// Printer returns the simulated ticket printer.
func (s *Sim) Printer() *Printer { return s.printer }

// Events returns the events of the simulated bill validator and printer, in
// order. It must be read: a full channel blocks the devices (money events are
// never dropped).
func (s *Sim) Events() <-chan DeviceEvent { return s.events }
