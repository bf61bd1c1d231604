package hw

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"periph.io/x/conn/v3/gpio"
)

const (
	testWidth = time.Millisecond
	testGap   = time.Millisecond
)

func newTestPulser(t *testing.T, dir string, pin gpio.PinOut) *Pulser {
	t.Helper()
	p, err := NewPulser(PulserConfig{Meter: "meter_coin_in", Pin: pin, Width: testWidth, Gap: testGap, StateDir: dir})
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// runPulser runs p until the returned stop is called; stop returns Run's error.
func runPulser(t *testing.T, p *Pulser) (stop func() error) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- p.Run(ctx) }()
	var once sync.Once
	var err error
	stop = func() error {
		once.Do(func() { cancel(); err = <-done })
		return err
	}
	t.Cleanup(func() { _ = stop() })
	return stop
}

func waitIdle(t *testing.T, p interface{ Wait(context.Context) error }) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if err := p.Wait(ctx); err != nil {
		t.Fatal(err)
	}
}

func readStateFile(t *testing.T, dir, meter string) pulseFile {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(dir, StateFileName(meter)))
	if err != nil {
		t.Fatal(err)
	}
	var f pulseFile
	if err := json.Unmarshal(data, &f); err != nil {
		t.Fatal(err)
	}
	return f
}

func TestPulserDeliversAndRestartsWithoutRepeating(t *testing.T) {
	dir := t.TempDir()
	pin := NewSimPin("P1")
	p := newTestPulser(t, dir, pin)
	if st := p.Status(); !st.Fresh || st.Delivered != 0 {
		t.Fatalf("fresh status %+v", st)
	}
	stop := runPulser(t, p)
	if err := p.SetTarget(25); err != nil {
		t.Fatal(err)
	}
	waitIdle(t, p)
	if err := stop(); err != nil {
		t.Fatal(err)
	}
	if got := pin.Rises(); got != 25 {
		t.Fatalf("rising edges %d, want 25", got)
	}
	if pin.Read() != gpio.Low {
		t.Fatal("coil left energised")
	}
	if f := readStateFile(t, dir, "meter_coin_in"); f.Delivered != 25 || f.InFlight || f.Meter != "meter_coin_in" {
		t.Fatalf("state file %+v", f)
	}

	// Restart on a new pin: the ledger's target is unchanged, so nothing is
	// pulsed; then 5 more.
	pin2 := NewSimPin("P2")
	p2 := newTestPulser(t, dir, pin2)
	if st := p2.Status(); st.Fresh || st.Delivered != 25 || st.Target != 25 || st.Recovered {
		t.Fatalf("restart status %+v", st)
	}
	stop2 := runPulser(t, p2)
	if err := p2.SetTarget(25); err != nil {
		t.Fatal(err)
	}
	waitIdle(t, p2)
	time.Sleep(20 * time.Millisecond)
	if got := pin2.Rises(); got != 0 {
		t.Fatalf("restart repeated %d pulses", got)
	}
	if err := p2.SetTarget(30); err != nil {
		t.Fatal(err)
	}
	waitIdle(t, p2)
	if err := stop2(); err != nil {
		t.Fatal(err)
	}
	if got := pin2.Rises(); got != 5 {
		t.Fatalf("rising edges after restart %d, want 30-25=5", got)
	}
	if err := p2.SetTarget(29); !errors.Is(err, ErrTargetBelowDelivered) || !strings.Contains(err.Error(), "meter_coin_in") {
		t.Fatalf("target below delivered: %v", err)
	}
}

// crashPin copies the state directory when the coil is energised for the
// n-th time: that copy is what the disk holds if power is lost mid-pulse.
type crashPin struct {
	*SimPin
	n, count int
	from, to string
	t        *testing.T
}

func (c *crashPin) Out(l gpio.Level) error {
	if l == gpio.High {
		c.count++
		if c.count == c.n {
			data, err := os.ReadFile(filepath.Join(c.from, StateFileName("meter_coin_in")))
			if err != nil {
				c.t.Error(err)
			} else if err := os.WriteFile(filepath.Join(c.to, StateFileName("meter_coin_in")), data, 0o600); err != nil {
				c.t.Error(err)
			}
		}
	}
	return c.SimPin.Out(l)
}

func TestPulserCrashMidPulseNeverRepeats(t *testing.T) {
	live, crashed := t.TempDir(), t.TempDir()
	pin := &crashPin{SimPin: NewSimPin("P"), n: 4, from: live, to: crashed, t: t}
	p := newTestPulser(t, live, pin)
	stop := runPulser(t, p)
	if err := p.SetTarget(10); err != nil {
		t.Fatal(err)
	}
	waitIdle(t, p)
	_ = stop()
	// Power was "lost" during the 4th pulse: 4 pulses reached the coil.
	const reached = 4
	f := readStateFile(t, crashed, "meter_coin_in")
	if !f.InFlight || f.Delivered != reached-1 {
		t.Fatalf("in-flight marker not persisted before the pulse: %+v", f)
	}

	pin2 := NewSimPin("P2")
	p2 := newTestPulser(t, crashed, pin2)
	st := p2.Status()
	if !st.Recovered || st.Delivered != reached || st.Uncertain != 1 || st.InFlight {
		t.Fatalf("recovered status %+v", st)
	}
	if f := readStateFile(t, crashed, "meter_coin_in"); f.InFlight || f.Delivered != reached || f.Uncertain != 1 {
		t.Fatalf("recovered state not written back: %+v", f)
	}
	stop2 := runPulser(t, p2)
	if err := p2.SetTarget(10); err != nil {
		t.Fatal(err)
	}
	waitIdle(t, p2)
	_ = stop2()
	if total := uint64(reached) + pin2.Rises(); total != 10 {
		t.Fatalf("the meter received %d pulses in all, ledger says 10", total)
	}

	// A third start: the uncertainty is remembered, not counted again.
	p3 := newTestPulser(t, crashed, NewSimPin("P3"))
	if st := p3.Status(); st.Recovered || st.Uncertain != 1 || st.Delivered != 10 {
		t.Fatalf("third start %+v", st)
	}
}

func TestPulserCrashBeforeCoilLosesNeverRepeats(t *testing.T) {
	// Power lost after the marker was written but before the coil moved: 3
	// pulses reached the meter, the marker says the 4th was in flight.
	dir := t.TempDir()
	state := `{"meter":"meter_coin_in","delivered":3,"in_flight":true,"uncertain":0}`
	if err := os.WriteFile(filepath.Join(dir, StateFileName("meter_coin_in")), []byte(state), 0o600); err != nil {
		t.Fatal(err)
	}
	// A temporary file left by a write cut short is removed.
	stale := filepath.Join(dir, StateFileName("meter_coin_in")+tmpInfix+"123")
	if err := os.WriteFile(stale, []byte("{"), 0o600); err != nil {
		t.Fatal(err)
	}
	pin := NewSimPin("P")
	p := newTestPulser(t, dir, pin)
	if _, err := os.Stat(stale); !os.IsNotExist(err) {
		t.Errorf("stale temp file not removed: %v", err)
	}
	stop := runPulser(t, p)
	if err := p.SetTarget(10); err != nil {
		t.Fatal(err)
	}
	waitIdle(t, p)
	_ = stop()
	total := 3 + pin.Rises()
	if total > 10 {
		t.Fatalf("meter over-counted: %d > 10", total)
	}
	if total != 9 || p.Status().Uncertain != 1 {
		t.Fatalf("total %d uncertain %d; want 9 (one pulse lost) and 1", total, p.Status().Uncertain)
	}
}

func TestPulserBaseline(t *testing.T) {
	dir := t.TempDir()
	pin := NewSimPin("P")
	p := newTestPulser(t, dir, pin)
	if !p.Status().Fresh {
		t.Fatal("new state dir should be fresh")
	}
	if err := p.Baseline(123456); err != nil {
		t.Fatal(err)
	}
	if st := p.Status(); st.Fresh || st.Delivered != 123456 || st.Target != 123456 {
		t.Fatalf("after baseline %+v", st)
	}
	stop := runPulser(t, p)
	if err := p.SetTarget(123459); err != nil {
		t.Fatal(err)
	}
	waitIdle(t, p)
	if err := p.Baseline(200000); err == nil {
		t.Fatal("baseline while running accepted")
	}
	_ = stop()
	if got := pin.Rises(); got != 3 {
		t.Fatalf("pulsed %d after baseline, want 3", got)
	}
	p2 := newTestPulser(t, dir, NewSimPin("P2"))
	if st := p2.Status(); st.Fresh || st.Delivered != 123459 {
		t.Fatalf("restart after baseline %+v", st)
	}
	if err := p2.Baseline(5); !errors.Is(err, ErrTargetBelowDelivered) {
		t.Fatalf("baseline below delivered: %v", err)
	}
}

func TestPulserCancelFinishesPulse(t *testing.T) {
	dir := t.TempDir()
	pin := NewSimPin("P")
	p, err := NewPulser(PulserConfig{Meter: "meter_coin_in", Pin: pin, Width: 3 * time.Millisecond, Gap: 2 * time.Millisecond, StateDir: dir})
	if err != nil {
		t.Fatal(err)
	}
	stop := runPulser(t, p)
	if err := p.SetTarget(1000); err != nil {
		t.Fatal(err)
	}
	time.Sleep(40 * time.Millisecond)
	if err := stop(); err != nil {
		t.Fatal(err)
	}
	st := p.Status()
	if st.InFlight || st.Delivered != pin.Rises() || st.Delivered == 0 || st.Delivered >= 1000 {
		t.Fatalf("after cancel: %+v, rises %d", st, pin.Rises())
	}
	if pin.Read() != gpio.Low {
		t.Fatal("coil left energised")
	}
	if f := readStateFile(t, dir, "meter_coin_in"); f.InFlight || f.Delivered != st.Delivered {
		t.Fatalf("state file %+v, status %+v", f, st)
	}
}

// A pulse owed while the pulser writes the completion of the one before is
// still delivered: the owner raises the target at any time, and the cabinet
// raises it only when a record commits, so a target lost here is a hard
// meter one count short of the ledger for good (seen as "hard games meter
// 4, want 5" after a RAM clear under load).
func TestPulserTargetRaisedWhileCompletionIsWritten(t *testing.T) {
	dir := t.TempDir()
	pin := NewSimPin("P")
	p := newTestPulser(t, dir, pin)
	var raised bool
	p.write = func(dir, name string, data []byte) error {
		var f pulseFile
		if err := json.Unmarshal(data, &f); err != nil {
			t.Error(err)
		}
		if !raised && f.Delivered == 1 && !f.InFlight {
			// The next game ends while the first one's pulse is saved.
			raised = true
			if err := p.SetTarget(2); err != nil {
				t.Error(err)
			}
		}
		return p.keptWrite(dir, name, data)
	}
	stop := runPulser(t, p)
	if err := p.SetTarget(1); err != nil {
		t.Fatal(err)
	}
	waitIdle(t, p)
	if err := stop(); err != nil {
		t.Fatal(err)
	}
	if !raised {
		t.Fatal("the completion of the first pulse was never written")
	}
	if st := p.Status(); st.Target != 2 || st.Delivered != 2 || pin.Rises() != 2 {
		t.Fatalf("status %+v, rising edges %d: want target 2, 2 delivered, 2 edges", st, pin.Rises())
	}
	if f := readStateFile(t, dir, "meter_coin_in"); f.Delivered != 2 || f.InFlight {
		t.Fatalf("state file %+v, want 2 delivered", f)
	}
}

func TestPulserStateFileErrors(t *testing.T) {
	for _, tc := range []struct{ name, content, want string }{
		{"damaged", `{"meter":"meter_coin_in","deliv`, "damaged"},
		{"unknown field", `{"meter":"meter_coin_in","delivered":1,"extra":2}`, "damaged"},
		{"other meter", `{"meter":"meter_drop","delivered":1}`, `"meter_drop"`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			path := filepath.Join(dir, StateFileName("meter_coin_in"))
			if err := os.WriteFile(path, []byte(tc.content), 0o600); err != nil {
				t.Fatal(err)
			}
			_, err := NewPulser(PulserConfig{Meter: "meter_coin_in", Pin: NewSimPin("P"), StateDir: dir})
			if err == nil || !strings.Contains(err.Error(), path) || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("error %v should name %s and %q", err, path, tc.want)
			}
		})
	}
}

type failingPin struct{ *SimPin }

func (failingPin) Out(gpio.Level) error { return errors.New("driver gone") }

func TestPulserPinFailureStops(t *testing.T) {
	dir := t.TempDir()
	// NewPulser releases the pin, so make it fail only afterwards.
	sp := NewSimPin("P")
	p := newTestPulser(t, dir, sp)
	p.cfg.Pin = failingPin{sp}
	if err := p.SetTarget(3); err != nil {
		t.Fatal(err)
	}
	err := p.Run(context.Background())
	if err == nil || !strings.Contains(err.Error(), "driver gone") || !strings.Contains(err.Error(), "meter_coin_in") {
		t.Fatalf("Run: %v", err)
	}
	if st := p.Status(); st.Err == nil {
		t.Fatal("Status().Err not set")
	}
	if err := p.Run(context.Background()); err == nil {
		t.Fatal("a failed pulser ran again")
	}
	if err := p.Wait(context.Background()); err == nil {
		t.Fatal("Wait on a failed pulser returned nil")
	}
	// The marker was persisted: on restart the pulse counts (lost, not repeated).
	p2 := newTestPulser(t, dir, NewSimPin("P2"))
	if st := p2.Status(); st.Delivered != 1 || st.Uncertain != 1 {
		t.Fatalf("restart after failure %+v", st)
	}
}

func TestBoardPulsersDriveSimMeters(t *testing.T) {
	b := openSim(t, func(m *Mapping) {
		for i := range m.Meters {
			m.Meters[i].PulseMS, m.Meters[i].GapMS = 1, 1
		}
		m.Meters[2].ActiveLow = true // meter_drop
	})
	dir := t.TempDir()
	ps, err := b.OpenPulsers(dir)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := b.OpenPulsers(dir); err == nil {
		t.Fatal("pulsers opened twice")
	}
	if got := ps.Meters(); len(got) != 5 || got[0] != "meter_coin_in" {
		t.Fatalf("meters %v", got)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- ps.Run(ctx) }()
	want := map[string]uint64{"meter_coin_in": 7, "meter_coin_out": 3, "meter_drop": 4, "meter_jackpot": 0, "meter_games": 11}
	for m, n := range want {
		if err := ps.SetTarget(m, n); err != nil {
			t.Fatal(err)
		}
	}
	if err := ps.SetTarget("meter_nope", 1); err == nil {
		t.Fatal("unknown meter accepted")
	}
	waitIdle(t, ps)
	cancel()
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	for m, n := range want {
		got, err := b.Sim().Pulses(m)
		if err != nil {
			t.Fatal(err)
		}
		if got != n {
			t.Errorf("%s: sim meter shows %d, want %d", m, got, n)
		}
		if st, _ := ps.Status(m); st.Delivered != n {
			t.Errorf("%s: delivered %d, want %d", m, st.Delivered, n)
		}
		if on, _ := b.Sim().Active(m); on {
			t.Errorf("%s coil left energised", m)
		}
	}
	if _, err := b.Sim().Pulses("lamp_spin"); err == nil {
		t.Error("Pulses on a lamp accepted")
	}
}
