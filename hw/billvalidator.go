package hw

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"sync"
)

// AcceptedBills are the denominations the simulated validator accepts, in
// cents: €5, €10, €20, €50, €100, €200, €500.
var acceptedBills = []int64{500, 1000, 2000, 5000, 10000, 20000, 50000}

// AcceptedBills returns the accepted denominations in cents.
func AcceptedBills() []int64 { return slices.Clone(acceptedBills) }

// BillValidatorConfig configures a simulated bill validator.
type BillValidatorConfig struct {
	// RejectRate is the probability (0..1) that a valid, accepted bill is
	// rejected as unrecognized (fault injection).
	RejectRate float64
	// Rand returns numbers in [0,1) for the reject rate; nil uses math/rand/v2.
	Rand func() float64
}

// BillValidator is a simulated bill validator. It starts disabled: the machine
// enables it when it may take money. Each Insert produces exactly one event,
// returned and also sent on the events channel given to NewBillValidator.
type BillValidator struct {
	mu         sync.Mutex
	enabled    bool
	accept     []int64 // the notes it may take; nil: every note it knows
	jammed     bool
	jamNext    bool
	rejectRate float64
	rnd        func() float64
	events     chan<- DeviceEvent
}

// NewBillValidator returns a disabled validator. events may be nil; when it is
// not, every event is sent on it (blocking while it is full, so money events
// are never dropped).
func NewBillValidator(cfg BillValidatorConfig, events chan<- DeviceEvent) (*BillValidator, error) {
	v := &BillValidator{rnd: cfg.Rand, events: events}
	if v.rnd == nil {
		v.rnd = rand.Float64
	}
	if err := v.SetRejectRate(cfg.RejectRate); err != nil {
		return nil, err
	}
	return v, nil
}

// Enable enables or disables bill acceptance.
func (v *BillValidator) Enable(on bool) {
	v.mu.Lock()
	v.enabled = on
	v.mu.Unlock()
}

// Accept restricts the notes taken to cents (a copy is kept); nil lifts the
// restriction. A known note outside it is returned (RejectInhibited).
func (v *BillValidator) Accept(cents []int64) {
	v.mu.Lock()
	switch {
	case cents == nil:
		v.accept = nil
	case v.accept == nil || !slices.Equal(v.accept, cents):
		v.accept = slices.Clone(cents) // not nil: an empty list takes nothing
	}
	v.mu.Unlock()
}

// Enabled reports whether bills are accepted.
func (v *BillValidator) Enabled() bool {
	v.mu.Lock()
	defer v.mu.Unlock()
	return v.enabled
}

// Jammed reports whether the validator is jammed.
func (v *BillValidator) Jammed() bool {
	v.mu.Lock()
	defer v.mu.Unlock()
	return v.jammed
}

// SetRejectRate sets the probability that a valid bill is rejected.
func (v *BillValidator) SetRejectRate(r float64) error {
	if !(r >= 0 && r <= 1) {
		return fmt.Errorf("hw: bill validator: reject rate %v out of range 0..1", r)
	}
	v.mu.Lock()
	v.rejectRate = r
	v.mu.Unlock()
	return nil
}

// JamNext makes the next inserted bill (while enabled) jam the validator.
func (v *BillValidator) JamNext() {
	v.mu.Lock()
	v.jamNext = true
	v.mu.Unlock()
}

// Insert presents a bill of the given value. The outcome, in order of
// precedence: jammed → BillRejected{jammed}; disabled → BillRejected{disabled};
// jam injected → BillJam (bill not stacked); not a €5…€500 note →
// BillRejected{invalid_value}; a note outside Accept →
// BillRejected{inhibited}; reject-rate draw → BillRejected{unrecognized};
// otherwise BillStacked.
func (v *BillValidator) Insert(cents int64) DeviceEvent {
	v.mu.Lock()
	defer v.mu.Unlock()
	var ev DeviceEvent
	switch {
	case v.jammed:
		ev = BillRejected{Cents: cents, Reason: RejectJammed}
	case !v.enabled:
		ev = BillRejected{Cents: cents, Reason: RejectDisabled}
	case v.jamNext:
		v.jamNext = false
		v.jammed = true
		ev = BillJam{}
	case !slices.Contains(acceptedBills, cents):
		ev = BillRejected{Cents: cents, Reason: RejectInvalidValue}
	case v.accept != nil && !slices.Contains(v.accept, cents):
		ev = BillRejected{Cents: cents, Reason: RejectInhibited}
	case v.rejectRate > 0 && v.rnd() < v.rejectRate:
		ev = BillRejected{Cents: cents, Reason: RejectUnrecognized}
	default:
		ev = BillStacked{Cents: cents}
	}
	v.emit(ev)
	return ev
}

// ErrNotJammed is returned by ClearJam when there is no jam.
var ErrNotJammed = errors.New("hw: bill validator: not jammed")

// ClearJam clears a jam and emits BillJamCleared.
func (v *BillValidator) ClearJam() error {
	v.mu.Lock()
	defer v.mu.Unlock()
	if !v.jammed {
		return ErrNotJammed
	}
	v.jammed = false
	v.emit(BillJamCleared{})
	return nil
}

// emit sends under v.mu so that events leave in the order they happened.
func (v *BillValidator) emit(ev DeviceEvent) {
	if v.events != nil {
		v.events <- ev
	}
}
