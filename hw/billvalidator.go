package hw

import (
	"encoding/json"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"slices"
	"sync"

	"github.com/openegm/cabinet/internal/atomicfile"
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
	// StateFile, when set, is the validator's own memory of the last order
	// it stacked, kept across a power loss as a real validator's is (the
	// machine asks for it at power-up to settle an order it gave).
	StateFile string
}

// BillValidator is a simulated bill validator. It starts disabled: the machine
// enables it when it may take money. A valid note waits in escrow
// (BillEscrowed) until the machine orders it stacked (Stack, BillStacked) or
// returned (Return, BillRejected); every other insert is answered at once.
// Events are returned and also sent on the events channel given to
// NewBillValidator.
type BillValidator struct {
	mu         sync.Mutex
	enabled    bool
	escrow     int64  // the note held in escrow, cents (0: none)
	stacked    uint64 // the order number of the last note stacked
	cashbox    Cashbox
	stateFile  string
	kept       *atomicfile.Kept // stateFile, opened once: stacking a note opens no file
	accept     []int64          // the notes it may take; nil: every note it knows
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
	v := &BillValidator{rnd: cfg.Rand, events: events, stateFile: cfg.StateFile}
	if v.rnd == nil {
		v.rnd = rand.Float64
	}
	if err := v.SetRejectRate(cfg.RejectRate); err != nil {
		return nil, err
	}
	if v.stateFile != "" {
		b, err := os.ReadFile(v.stateFile)
		switch {
		case errors.Is(err, os.ErrNotExist):
		case err != nil:
			return nil, fmt.Errorf("hw: bill validator: %w", err)
		default:
			var st validatorState
			if err := json.Unmarshal(b, &st); err != nil {
				return nil, fmt.Errorf("hw: bill validator: %s: %w", v.stateFile, err)
			}
			v.stacked, v.cashbox = st.LastStacked, st.Cashbox
		}
		if v.kept, err = atomicfile.OpenKept(v.stateFile, 0o600); err != nil {
			return nil, fmt.Errorf("hw: bill validator: %w", err)
		}
	}
	return v, nil
}

// validatorState is what the validator remembers across a power loss. A
// note in escrow is not in it: a validator returns it when it powers up.
type validatorState struct {
	LastStacked uint64  `json:"last_stacked"`
	Cashbox     Cashbox `json:"cashbox"`
}

// Cashbox is what the validator has stacked since it was installed: the
// money a drop count would find.
type Cashbox struct {
	Notes int   `json:"notes"`
	Cents int64 `json:"cents"`
}

// Cashbox returns what the validator has stacked.
func (v *BillValidator) Cashbox() Cashbox {
	v.mu.Lock()
	defer v.mu.Unlock()
	return v.cashbox
}

// LastStacked is the order number of the last note stacked (0: none).
func (v *BillValidator) LastStacked() uint64 {
	v.mu.Lock()
	defer v.mu.Unlock()
	return v.stacked
}

// Errors of Stack and Return.
var (
	ErrNoEscrow = errors.New("hw: bill validator: no note in escrow")
	ErrNoOrder  = errors.New("hw: bill validator: stack order number 0")
)

// Stack moves the note in escrow into the cashbox under the machine's
// order number, remembers the order, and reports BillStacked. If the order
// cannot be remembered the note is returned instead: a note in the
// cashbox whose order the validator cannot vouch for after a power loss
// could be lost to the player.
func (v *BillValidator) Stack(order uint64) error {
	v.mu.Lock()
	defer v.mu.Unlock()
	if order == 0 {
		return ErrNoOrder
	}
	if v.escrow == 0 {
		return ErrNoEscrow
	}
	cents := v.escrow
	v.escrow = 0
	box := Cashbox{Notes: v.cashbox.Notes + 1, Cents: v.cashbox.Cents + cents}
	if v.stateFile != "" {
		b, _ := json.Marshal(validatorState{LastStacked: order, Cashbox: box})
		if err := v.kept.Write(b); err != nil {
			v.emit(BillRejected{Cents: cents, Reason: RejectFailed, Order: order})
			return fmt.Errorf("hw: bill validator: remembering order %d: %w", order, err)
		}
	}
	v.stacked, v.cashbox = order, box
	v.emit(BillStacked{Cents: cents, Order: order})
	return nil
}

// Return gives the note in escrow back to the player; order is the
// machine's stack order it answers (0: the machine never ordered it).
func (v *BillValidator) Return(reason string, order uint64) error {
	v.mu.Lock()
	defer v.mu.Unlock()
	if v.escrow == 0 {
		return ErrNoEscrow
	}
	cents := v.escrow
	v.escrow = 0
	v.emit(BillRejected{Cents: cents, Reason: reason, Order: order})
	return nil
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
// precedence: jammed → BillRejected{jammed}; a note already in escrow →
// BillRejected{busy}; disabled → BillRejected{disabled}; jam injected →
// BillJam (bill not stacked); not a €5…€500 note →
// BillRejected{invalid_value}; a note outside Accept →
// BillRejected{inhibited}; reject-rate draw → BillRejected{unrecognized};
// otherwise BillEscrowed, and the machine's Stack or Return follows.
func (v *BillValidator) Insert(cents int64) DeviceEvent {
	v.mu.Lock()
	defer v.mu.Unlock()
	var ev DeviceEvent
	switch {
	case v.jammed:
		ev = BillRejected{Cents: cents, Reason: RejectJammed}
	case v.escrow != 0:
		ev = BillRejected{Cents: cents, Reason: RejectBusy}
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
		v.escrow = cents
		ev = BillEscrowed{Cents: cents}
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
