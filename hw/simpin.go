package hw

import (
	"sync/atomic"

	"periph.io/x/conn/v3/gpio"
	"periph.io/x/conn/v3/gpio/gpiotest"
)

// SimPin is a simulated pin: a gpiotest.Pin (registered in gpioreg under the
// mapping's pin name, so the same code reads it as a real pin) that also
// counts the level transitions written through Out, so the simulator can
// show what a hard meter would read.
type SimPin struct {
	*gpiotest.Pin
	rises atomic.Uint64
	falls atomic.Uint64
}

// NewSimPin returns a simulated pin named name, at level Low.
func NewSimPin(name string) *SimPin {
	return &SimPin{Pin: &gpiotest.Pin{N: name, Num: -1, Fn: "SIM"}}
}

// Out implements gpio.PinOut and counts transitions.
func (p *SimPin) Out(l gpio.Level) error {
	p.Lock()
	prev := p.L
	p.L = l
	p.Unlock()
	switch {
	case prev == gpio.Low && l == gpio.High:
		p.rises.Add(1)
	case prev == gpio.High && l == gpio.Low:
		p.falls.Add(1)
	}
	return nil
}

// Level returns the current level.
func (p *SimPin) Level() gpio.Level { return p.Read() }

// Rises returns the number of Low→High transitions written through Out.
func (p *SimPin) Rises() uint64 { return p.rises.Load() }

// Falls returns the number of High→Low transitions written through Out.
func (p *SimPin) Falls() uint64 { return p.falls.Load() }

var _ gpio.PinIO = (*SimPin)(nil)
