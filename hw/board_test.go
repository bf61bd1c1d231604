package hw

import (
	"context"
	"strings"
	"testing"
	"time"

	"periph.io/x/conn/v3/gpio"
	"periph.io/x/conn/v3/gpio/gpioreg"
	"periph.io/x/conn/v3/gpio/gpiotest"
)

// openSim opens a simulated board; the caller's edit may change the mapping.
func openSim(t *testing.T, edit func(m *Mapping)) *Board {
	t.Helper()
	m := DefaultMapping()
	if edit != nil {
		edit(m)
	}
	b, err := Open(m, true)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if err := b.Close(); err != nil {
			t.Error(err)
		}
	})
	return b
}

// runBoard starts the poller and returns the function that stops it.
func runBoard(t *testing.T, b *Board) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- b.Run(ctx) }()
	t.Cleanup(func() {
		cancel()
		if err := <-done; err != nil {
			t.Error(err)
		}
	})
}

func recvInput(t *testing.T, b *Board, timeout time.Duration) (Input, bool) {
	t.Helper()
	select {
	case in := <-b.Inputs():
		return in, true
	case <-time.After(timeout):
		return Input{}, false
	}
}

// initialStates reads the power-up state of every input.
func initialStates(t *testing.T, b *Board) map[string]bool {
	t.Helper()
	got := map[string]bool{}
	for range InputNames() {
		in, ok := recvInput(t, b, 2*time.Second)
		if !ok {
			t.Fatalf("initial states: only %d of %d", len(got), len(InputNames()))
		}
		if _, dup := got[in.Name]; dup {
			t.Fatalf("initial state of %s twice", in.Name)
		}
		got[in.Name] = in.Active
	}
	return got
}

func expectNoInput(t *testing.T, b *Board, d time.Duration) {
	t.Helper()
	if in, ok := recvInput(t, b, d); ok {
		t.Fatalf("unexpected input %+v", in)
	}
}

func expectInput(t *testing.T, b *Board, name string, active bool) Input {
	t.Helper()
	in, ok := recvInput(t, b, 2*time.Second)
	if !ok {
		t.Fatalf("no input, want %s=%t", name, active)
	}
	if in.Name != name || in.Active != active {
		t.Fatalf("input %+v, want %s=%t", in, name, active)
	}
	return in
}

func TestInitialStateEmittedAtStart(t *testing.T) {
	b := openSim(t, nil)
	// A door open and the attendant key on at power-up.
	if err := b.Sim().Set("door_main", true); err != nil {
		t.Fatal(err)
	}
	if err := b.Sim().Set("attendant_key", true); err != nil {
		t.Fatal(err)
	}
	runBoard(t, b)
	got := initialStates(t, b)
	for _, n := range InputNames() {
		want := n == "door_main" || n == "attendant_key"
		if a, ok := got[n]; !ok || a != want {
			t.Errorf("%s initial: %t (present %t), want %t", n, a, ok, want)
		}
	}
	expectNoInput(t, b, 100*time.Millisecond)
}

func TestSimSetPressRelease(t *testing.T) {
	b := openSim(t, nil)
	runBoard(t, b)
	initialStates(t, b)
	sim := b.Sim()

	start := time.Now()
	if err := sim.Set("spin", true); err != nil {
		t.Fatal(err)
	}
	in := expectInput(t, b, "spin", true)
	if d := in.At.Sub(start); d < DefaultButtonDebounce {
		t.Errorf("press reported %v after the change, before the %v debounce", d, DefaultButtonDebounce)
	}
	expectNoInput(t, b, 100*time.Millisecond)
	if err := sim.Set("spin", false); err != nil {
		t.Fatal(err)
	}
	expectInput(t, b, "spin", false)
	expectNoInput(t, b, 100*time.Millisecond)

	// A door (not active-low) the same way.
	if err := sim.Set("door_cashbox", true); err != nil {
		t.Fatal(err)
	}
	expectInput(t, b, "door_cashbox", true)

	if err := sim.Set("lamp_spin", true); err == nil {
		t.Error("Set on a lamp should fail")
	}
	if err := sim.Set("nope", true); err == nil {
		t.Error("Set on an unknown name should fail")
	}
}

func TestBouncingThroughGpiotestPin(t *testing.T) {
	// A wide window so that scheduling delays of the test goroutine cannot
	// make a bounce look steady.
	const window = 80 * time.Millisecond
	b := openSim(t, func(m *Mapping) { m.Buttons[0].DebounceMS = int(window / time.Millisecond) })
	runBoard(t, b)
	initialStates(t, b)
	pin, err := b.Sim().Pin("spin")
	if err != nil {
		t.Fatal(err)
	}
	var _ *gpiotest.Pin = pin.Pin // the simulated pin is a gpiotest pin
	// Active-low: pressed is Low. A bounce is levels held about 1 ms each;
	// a loaded machine may hold one for longer than the window, and then
	// it is a press, rightly: the test can only say so and stop (the
	// Debouncer's own tests decide every case without a clock).
	var longest time.Duration
	write := func(l gpio.Level, last *time.Time) {
		if err := pin.Out(l); err != nil {
			t.Fatal(err)
		}
		now := time.Now()
		if !last.IsZero() {
			longest = max(longest, now.Sub(*last))
		}
		*last = now
	}
	steady := func() {
		t.Helper()
		if longest >= window/2 {
			t.Skipf("a bounce level was held %v (window %v): too loaded a machine to bounce a pin by sleeping", longest, window)
		}
	}
	bounceTo := func(final gpio.Level) time.Time {
		// The poller samples every 2 ms and may miss 1 ms levels, so the
		// debounce may start at any write of final: time from the first.
		var firstFinal, last time.Time
		lvl := !final
		for i := 0; i < 15; i++ {
			if lvl == final && firstFinal.IsZero() {
				firstFinal = time.Now()
			}
			write(lvl, &last)
			lvl = !lvl
			time.Sleep(time.Millisecond)
		}
		write(final, &last)
		return firstFinal
	}
	first := bounceTo(gpio.Low)
	steady()
	in := expectInput(t, b, "spin", true)
	if d := in.At.Sub(first); d < window {
		t.Errorf("press confirmed %v after the level first went active, window %v", d, window)
	}
	expectNoInput(t, b, 150*time.Millisecond)
	bounceTo(gpio.High)
	steady()
	expectInput(t, b, "spin", false)
	expectNoInput(t, b, 150*time.Millisecond)

	// Pure bounce that ends where it started: nothing.
	var last time.Time
	for i := 0; i < 20; i++ {
		write(i%2 == 0, &last) // High is released for active-low; Low (pressed) for 1 ms
		time.Sleep(time.Millisecond)
	}
	write(gpio.High, &last)
	steady()
	expectNoInput(t, b, 150*time.Millisecond)
}

func TestSetLamp(t *testing.T) {
	b := openSim(t, func(m *Mapping) { m.Lamps[3].ActiveLow = true }) // tower_top
	sim := b.Sim()
	spin, _ := sim.Pin("lamp_spin")
	if spin.Read() != gpio.Low {
		t.Fatal("lamp_spin should start off (Low)")
	}
	if err := b.SetLamp("lamp_spin", true); err != nil {
		t.Fatal(err)
	}
	if spin.Read() != gpio.High {
		t.Error("lamp_spin on: pin not High")
	}
	if on, _ := sim.Active("lamp_spin"); !on {
		t.Error("Sim.Active(lamp_spin) false")
	}
	if err := b.SetLamp("lamp_spin", false); err != nil {
		t.Fatal(err)
	}
	if spin.Read() != gpio.Low {
		t.Error("lamp_spin off: pin not Low")
	}
	tower, _ := sim.Pin("tower_top")
	if tower.Read() != gpio.High {
		t.Error("active-low tower_top should start off (High)")
	}
	if err := b.SetLamp("tower_top", true); err != nil {
		t.Fatal(err)
	}
	if tower.Read() != gpio.Low {
		t.Error("active-low tower_top on: pin not Low")
	}
	if err := b.SetLamp("meter_games", true); err == nil {
		t.Error("SetLamp on a meter should fail")
	}
	if err := b.SetLamp("lamp_nope", true); err == nil || !strings.Contains(err.Error(), "lamp_nope") {
		t.Errorf("unknown lamp: %v", err)
	}
	// Close switches lamps off.
	_ = b.SetLamp("lamp_bet", true)
	bet, _ := sim.Pin("lamp_bet")
	if err := b.Close(); err != nil {
		t.Fatal(err)
	}
	if bet.Read() != gpio.Low || tower.Read() != gpio.High {
		t.Error("Close left a lamp on")
	}
}

func TestSimulatedPinsRegisteredAndReleased(t *testing.T) {
	b, err := Open(DefaultMapping(), true)
	if err != nil {
		t.Fatal(err)
	}
	if p := gpioreg.ByName("SIM_SPIN"); p == nil {
		t.Fatal("SIM_SPIN not in gpioreg")
	}
	if _, err := Open(DefaultMapping(), true); err == nil || !strings.Contains(err.Error(), "SIM_SPIN") {
		t.Fatalf("second simulated board: %v", err)
	}
	if err := b.Close(); err != nil {
		t.Fatal(err)
	}
	if p := gpioreg.ByName("SIM_SPIN"); p != nil {
		t.Fatal("SIM_SPIN still registered after Close")
	}
	b2, err := Open(DefaultMapping(), true)
	if err != nil {
		t.Fatal(err)
	}
	_ = b2.Close()
}

func TestRealHardwareMissingPinsIsClearError(t *testing.T) {
	// This machine has no SIM_* GPIOs: either host.Init fails or the pin
	// lookup does, and the error says which.
	_, err := Open(DefaultMapping(), false)
	if err == nil {
		t.Fatal("opening the simulated pin names on real hardware should fail")
	}
	msg := err.Error()
	if !strings.Contains(msg, "host.Init") && !(strings.Contains(msg, `"SIM_SPIN"`) && strings.Contains(msg, "buttons[0].pin")) {
		t.Errorf("unclear error: %v", err)
	}
	t.Log(err)
}
