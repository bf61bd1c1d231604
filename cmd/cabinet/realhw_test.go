package main

import (
	"bufio"
	"context"
	"io"
	"log/slog"
	"net"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/openegm/cabinet/assets"
	"github.com/openegm/cabinet/hw"
	"github.com/openegm/cabinet/machine"
	"periph.io/x/conn/v3/gpio"
	"periph.io/x/conn/v3/gpio/gpioreg"
	"periph.io/x/conn/v3/gpio/gpiotest"
)

// testPins registers a gpiotest pin under every pin name of the mapping,
// standing in for the cabinet board's GPIO on the real-hardware path.
func testPins(t *testing.T, m *hw.Mapping) map[string]*gpiotest.Pin {
	pins := map[string]*gpiotest.Pin{}
	add := func(name, pin string) {
		p := &gpiotest.Pin{N: pin, Num: -1, Fn: "TEST"}
		if err := gpioreg.Register(p); err != nil {
			t.Fatalf("registering %s: %v", pin, err)
		}
		t.Cleanup(func() { gpioreg.Unregister(pin) })
		pins[name] = p
	}
	for _, s := range [][]hw.InputPin{m.Buttons, m.Keys, m.Doors} {
		for _, p := range s {
			add(p.Name, p.Pin)
		}
	}
	for _, p := range m.Lamps {
		add(p.Name, p.Pin)
	}
	for _, p := range m.Meters {
		add(p.Name, p.Pin)
	}
	return pins
}

// setInput drives an input pin as the switch or button would.
func setInput(m *hw.Mapping, pins map[string]*gpiotest.Pin, name string, active bool) {
	for _, s := range [][]hw.InputPin{m.Buttons, m.Keys, m.Doors} {
		for _, p := range s {
			if p.Name == name {
				pins[name].Out(gpio.Level(active != p.ActiveLow))
			}
		}
	}
}

// The service menu on a real cabinet (--real-hw, the board's pins played by
// periph's gpiotest pins): the attendant key is a pin, and the screen's
// touches (the PIN pad, the menu's pages, a setting, an output test, the
// player's buttons) reach the machine through the control socket, while
// the simulator's commands are refused.
func TestServiceMenuOnRealHardware(t *testing.T) {
	m := hw.DefaultMapping()
	pins := testPins(t, m)
	data := t.TempDir()
	o := options{data: data, machineID: "EGM-REAL", machineNum: 9, denom: 1, handpayLimit: 120000, handpayConfirm: true,
		paytable: assets.DefaultGame, table: "makccarat-alt1-5pct", cardTime: machine.DefaultCardTime, realHW: true, spinTime: 5 * time.Millisecond, jackpot: "off", linkRule: "wins-reset", linkAward: machine.LinkAwardBroadcast,
		sas: sasOptions{framing: "content"}, control: filepath.Join(data, "control.sock")}
	if err := o.validate(); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- run(ctx, o, slog.New(slog.NewTextHandler(io.Discard, nil)), io.Discard) }()
	defer func() {
		cancel()
		select {
		case <-done:
		case <-time.After(60 * time.Second):
			t.Error("the cabinet did not stop")
		}
	}()
	var conn net.Conn
	for deadline := time.Now().Add(60 * time.Second); ; {
		c, err := net.Dial("unix", o.control)
		if err == nil {
			conn = c
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("no control socket: %v", err)
		}
		time.Sleep(20 * time.Millisecond)
	}
	defer conn.Close()
	rd := bufio.NewReader(conn)
	send := func(line string) reply { t.Helper(); return rawLine(t, conn, rd, line) }
	waitFor := func(what string, cond func(v machine.View) bool) machine.View {
		t.Helper()
		for deadline := time.Now().Add(60 * time.Second); ; {
			v := send(`{"cmd":"state"}`).View
			if v != nil && cond(*v) {
				return *v
			}
			if time.Now().After(deadline) {
				t.Fatalf("waiting for %s: %+v", what, v)
			}
			time.Sleep(10 * time.Millisecond)
		}
	}
	// Every switch at rest: doors closed, key off, buttons up.
	for _, s := range [][]hw.InputPin{m.Buttons, m.Keys, m.Doors} {
		for _, p := range s {
			setInput(m, pins, p.Name, false)
		}
	}
	waitFor("the machine to be ready", func(v machine.View) bool { return v.Mode == "idle" })

	// The simulator's commands are not offered on real hardware.
	for _, c := range []string{`{"cmd":"bill","cents":500}`, `{"cmd":"key","key":"attendant_key","on":true}`, `{"cmd":"door","door":"main","open":true}`} {
		if r := send(c); r.OK || !strings.Contains(r.Error, "real hardware") {
			t.Errorf("%s on real hardware: %+v", c, r)
		}
	}
	// The screen's touches are: the paytable button, the language.
	if r := send(`{"cmd":"press","button":"language"}`); !r.OK || r.View.Lang != "en" {
		t.Fatalf("the language touch: %+v", r)
	}
	send(`{"cmd":"press","button":"language"}`)

	// The attendant turns the real key; the technician logs in on the
	// screen's PIN pad and sets a new PIN.
	if r := send(`{"cmd":"pin","role":"technician","pin":"0000"}`); r.Refused != "refused_key_off" {
		t.Fatalf("a PIN with the key off: %+v", r)
	}
	setInput(m, pins, machine.KeyAttendant, true)
	waitFor("the key's turn", func(v machine.View) bool {
		return send(`{"cmd":"pin","role":"technician","pin":"0000"}`).Refused != "refused_key_off"
	})
	v := waitFor("the service menu", func(v machine.View) bool { return v.Mode == "service" && v.Service != nil })
	if !v.Service.MustChangePIN || v.Service.Role != machine.RoleTechnician {
		t.Fatalf("logged in with the default PIN: %+v", v.Service)
	}
	if r := send(`{"cmd":"service","action":"set_pin","value":"582947"}`); r.Refused != "" || r.View.ServiceMessage.Key != "msg_pin_changed" {
		t.Fatalf("new PIN: %+v", r)
	}
	for _, page := range []string{"meters", "events", "settings", "io"} {
		if r := send(`{"cmd":"service","action":"page","value":"` + page + `"}`); r.View.Service.Page != page {
			t.Fatalf("page %s: %+v", page, r.View.Service)
		}
	}
	// The I/O test drives the real lamp pin, and shows the real key's level.
	r := send(`{"cmd":"service","action":"io_output","key":"lamp_spin","value":"on"}`)
	if r.Refused != "" {
		t.Fatalf("output test: %+v", r)
	}
	lamp := pins["lamp_spin"]
	activeLow := false
	for _, l := range m.Lamps {
		if l.Name == "lamp_spin" {
			activeLow = l.ActiveLow
		}
	}
	for deadline := time.Now().Add(30 * time.Second); lamp.Read() != gpio.Level(!activeLow); {
		if time.Now().After(deadline) {
			t.Fatal("the spin lamp's pin was not driven by the output test")
		}
		time.Sleep(10 * time.Millisecond)
	}
	if in := waitFor("the inputs", func(v machine.View) bool { return v.Service.Inputs != nil }).Service.Inputs; !in[machine.KeyAttendant] {
		t.Errorf("the I/O page does not show the key on: %v", in)
	}
	// A setting, then log out with the key.
	if r := send(`{"cmd":"service","action":"config","key":"denom","value":"2"}`); r.Refused != "" || r.View.ServiceMessage.Key != "msg_set_denom" {
		t.Fatalf("denomination: %+v", r)
	}
	setInput(m, pins, machine.KeyAttendant, false)
	if v := waitFor("the key's turn off", func(v machine.View) bool { return v.Mode != "service" }); v.Denom != 2 {
		t.Fatalf("after the service menu: mode %s, denom %d", v.Mode, v.Denom)
	}
}
