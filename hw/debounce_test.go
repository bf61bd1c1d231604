package hw

import (
	"testing"
	"time"
)

func TestDebouncer(t *testing.T) {
	type sample struct {
		ms     int
		active bool
	}
	type edge struct {
		ms     int
		active bool
	}
	// s builds a sample every 2 ms from..to (inclusive) at one level.
	s := func(from, to int, active bool) []sample {
		var out []sample
		for ms := from; ms <= to; ms += 2 {
			out = append(out, sample{ms, active})
		}
		return out
	}
	cat := func(parts ...[]sample) []sample {
		var out []sample
		for _, p := range parts {
			out = append(out, p...)
		}
		return out
	}
	// bounce alternates the level every step ms from..to, starting at first.
	bounce := func(from, to, step int, first bool) []sample {
		var out []sample
		lvl := first
		for ms := from; ms <= to; ms += step {
			out = append(out, sample{ms, lvl})
			lvl = !lvl
		}
		return out
	}
	tests := []struct {
		name    string
		window  time.Duration
		samples []sample
		edges   []edge
	}{
		{"initial inactive state after window", 20 * time.Millisecond,
			s(0, 40, false), []edge{{20, false}}},
		{"initial active state after window", 20 * time.Millisecond,
			s(0, 40, true), []edge{{20, true}}},
		{"bouncing at power-up delays the initial state", 20 * time.Millisecond,
			cat(bounce(0, 10, 2, true), s(12, 60, true)), []edge{{32, true}}},
		{"steady press: one edge exactly a window after the change", 20 * time.Millisecond,
			cat(s(0, 30, false), s(32, 100, true)), []edge{{20, false}, {52, true}}},
		{"press then release", 20 * time.Millisecond,
			cat(s(0, 30, false), s(32, 80, true), s(82, 140, false)),
			[]edge{{20, false}, {52, true}, {102, false}}},
		{"bounces shorter than the window: no edge", 20 * time.Millisecond,
			cat(s(0, 30, false), bounce(32, 200, 6, true), s(202, 210, false)), []edge{{20, false}}},
		{"glitch of 18 ms in a 20 ms window: no edge", 20 * time.Millisecond,
			cat(s(0, 30, false), s(32, 48, true), s(50, 100, false)), []edge{{20, false}}},
		{"contact bounce then steady: one edge, counted from the last bounce", 20 * time.Millisecond,
			cat(s(0, 30, false), bounce(32, 41, 1, true), s(42, 100, true)), []edge{{20, false}, {62, true}}},
		{"sparse samples: needs two samples a window apart", 20 * time.Millisecond,
			[]sample{{0, false}, {100, false}, {200, true}, {210, true}, {221, true}}, []edge{{100, false}, {221, true}}},
		{"zero window: every change is an edge", 0,
			[]sample{{0, false}, {2, true}, {4, true}, {6, false}}, []edge{{0, false}, {2, true}, {6, false}}},
	}
	t0 := time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			d := NewDebouncer(tc.window)
			var got []edge
			for _, smp := range tc.samples {
				stable, changed := d.Sample(t0.Add(time.Duration(smp.ms)*time.Millisecond), smp.active)
				if changed {
					got = append(got, edge{smp.ms, stable})
				}
				if a, known := d.Stable(); known && a != stable {
					t.Fatalf("Stable() %t disagrees with Sample %t", a, stable)
				}
			}
			if len(got) != len(tc.edges) {
				t.Fatalf("edges %v, want %v", got, tc.edges)
			}
			for i := range got {
				if got[i] != tc.edges[i] {
					t.Fatalf("edges %v, want %v", got, tc.edges)
				}
			}
		})
	}
}
