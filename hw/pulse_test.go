package hw

import (
	"errors"
	"testing"
)

func TestPulseStateTransitions(t *testing.T) {
	var s PulseState
	if s.CanBegin() || !s.Idle() || s.Pending() != 0 {
		t.Fatalf("zero state: %+v", s)
	}
	s, err := s.WithTarget(2)
	if err != nil || !s.CanBegin() || s.Idle() || s.Pending() != 2 {
		t.Fatalf("target 2: %+v %v", s, err)
	}
	s, err = s.Begin()
	if err != nil || !s.InFlight || s.CanBegin() || s.Pending() != 1 || s.Delivered != 0 {
		t.Fatalf("begin: %+v %v", s, err)
	}
	if _, err := s.Begin(); err == nil {
		t.Fatal("second Begin while in flight accepted")
	}
	// The pulse in flight counts against the target: the ledger may not drop
	// below it.
	if _, err := s.WithTarget(0); !errors.Is(err, ErrTargetBelowDelivered) {
		t.Fatalf("target 0 with one in flight: %v", err)
	}
	if s2, err := s.WithTarget(1); err != nil || s2.Pending() != 0 {
		t.Fatalf("target 1 with one in flight: %+v %v", s2, err)
	}
	s, err = s.Complete()
	if err != nil || s.InFlight || s.Delivered != 1 || !s.CanBegin() {
		t.Fatalf("complete: %+v %v", s, err)
	}
	if _, err := s.Complete(); err == nil {
		t.Fatal("Complete with nothing in flight accepted")
	}
	s, _ = s.Begin()
	s, _ = s.Complete()
	if !s.Idle() || s.CanBegin() || s.Delivered != 2 {
		t.Fatalf("done: %+v", s)
	}
	if _, err := s.Begin(); err == nil {
		t.Fatal("Begin beyond target accepted")
	}
	if _, err := s.WithTarget(1); !errors.Is(err, ErrTargetBelowDelivered) {
		t.Fatalf("target below delivered: %v", err)
	}
}

func TestPulseStateRecover(t *testing.T) {
	tests := []struct {
		name string
		in   PulseState
		want PulseState
	}{
		{"clean", PulseState{Delivered: 7, Uncertain: 1}, PulseState{Target: 7, Delivered: 7, Uncertain: 1}},
		{"in flight counts as delivered, never repeated", PulseState{Delivered: 7, InFlight: true},
			PulseState{Target: 7 + 1, Delivered: 7 + 1, Uncertain: 1}},
		{"uncertain accumulates", PulseState{Delivered: 9, InFlight: true, Uncertain: 2},
			PulseState{Target: 10, Delivered: 10, Uncertain: 3}},
		{"target is not trusted from before", PulseState{Target: 50, Delivered: 9},
			PulseState{Target: 9, Delivered: 9}},
	}
	for _, tc := range tests {
		if got := tc.in.Recover(); got != tc.want {
			t.Errorf("%s: Recover(%+v) = %+v, want %+v", tc.name, tc.in, got, tc.want)
		}
	}
}

func TestPulseStateBaseline(t *testing.T) {
	s := PulseState{Delivered: 5, Target: 5}
	b, err := s.Baseline(1000)
	if err != nil || b.Delivered != 1000 || b.Target != 1000 || b.Pending() != 0 {
		t.Fatalf("baseline: %+v %v", b, err)
	}
	if _, err := s.Baseline(4); !errors.Is(err, ErrTargetBelowDelivered) {
		t.Fatalf("baseline below delivered: %v", err)
	}
	if _, err := (PulseState{Delivered: 5, Target: 6, InFlight: true}).Baseline(10); err == nil {
		t.Fatal("baseline with a pulse in flight accepted")
	}
}
