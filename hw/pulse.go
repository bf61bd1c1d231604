package hw

import (
	"errors"
	"fmt"
)

// PulseState is the pure accounting of one electromechanical meter.
//
//   - Target is the count the meter must show (from the ledger, set by the
//     caller; not persisted: the ledger is the truth for it).
//   - Delivered is the count of pulses taken as delivered (persisted).
//   - InFlight is set, and persisted, BEFORE a pulse starts and cleared, with
//     Delivered+1, after it ends.
//   - Uncertain counts the pulses that were in flight at a power loss and were
//     taken as delivered on restart (persisted, lifetime).
//
// Crash rule: an in-flight pulse found at start-up counts as delivered
// (Recover). So a pulse may be lost (power cut before the coil moved) but is
// never repeated: a hard meter never shows more than the ledger, and it lags
// the ledger by at most Uncertain.
type PulseState struct {
	Target    uint64
	Delivered uint64
	InFlight  bool
	Uncertain uint64
}

// ErrTargetBelowDelivered means the ledger asks for less than the meter was
// already pulsed: the hard meter would read more than the ledger.
var ErrTargetBelowDelivered = errors.New("target below pulses already delivered")

// committed is Delivered plus the pulse in flight: the least the meter may show.
func (s PulseState) committed() uint64 {
	if s.InFlight {
		return s.Delivered + 1
	}
	return s.Delivered
}

// Pending returns how many pulses remain to be started.
func (s PulseState) Pending() uint64 {
	if c := s.committed(); s.Target > c {
		return s.Target - c
	}
	return 0
}

// CanBegin reports whether the next pulse should start now.
func (s PulseState) CanBegin() bool { return !s.InFlight && s.Delivered < s.Target }

// Idle reports whether every targeted pulse has been delivered.
func (s PulseState) Idle() bool { return !s.InFlight && s.Delivered >= s.Target }

// WithTarget returns the state with a new target. A target below the pulses
// delivered or in flight is refused.
func (s PulseState) WithTarget(target uint64) (PulseState, error) {
	if target < s.committed() {
		return s, fmt.Errorf("%w: target %d, delivered %d, in flight %t", ErrTargetBelowDelivered, target, s.Delivered, s.InFlight)
	}
	s.Target = target
	return s, nil
}

// Begin marks a pulse in flight. Persist the result before driving the pin.
func (s PulseState) Begin() (PulseState, error) {
	if !s.CanBegin() {
		return s, fmt.Errorf("no pulse to begin: target %d, delivered %d, in flight %t", s.Target, s.Delivered, s.InFlight)
	}
	s.InFlight = true
	return s, nil
}

// Complete counts the in-flight pulse as delivered. Persist the result after
// the pin is released.
func (s PulseState) Complete() (PulseState, error) {
	if !s.InFlight {
		return s, errors.New("no pulse in flight")
	}
	s.InFlight = false
	s.Delivered++
	return s, nil
}

// Recover is applied to the persisted state at start-up: a pulse in flight
// at the power loss counts as delivered and as uncertain. The target starts
// equal to Delivered (nothing to pulse) until the caller sets one.
func (s PulseState) Recover() PulseState {
	if s.InFlight {
		s.InFlight = false
		s.Delivered++
		s.Uncertain++
	}
	s.Target = s.Delivered
	return s
}

// Baseline takes target as already delivered (a new board on an existing
// ledger must not pulse a lifetime of meters). Refused below Delivered, which
// would let the meter later count more than the ledger.
func (s PulseState) Baseline(target uint64) (PulseState, error) {
	if s.InFlight {
		return s, errors.New("baseline with a pulse in flight")
	}
	if target < s.Delivered {
		return s, fmt.Errorf("%w: baseline %d, delivered %d", ErrTargetBelowDelivered, target, s.Delivered)
	}
	s.Delivered = target
	s.Target = target
	return s, nil
}
