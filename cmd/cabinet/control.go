package main

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"os"
	"time"

	"github.com/openegm/cabinet/internal/control"
	"github.com/openegm/cabinet/machine"
	"github.com/openegm/cabinet/meters"
)

// The protocol's types are shared with the screen and the tests.
type (
	command = control.Command
	reply   = control.Reply
)

// listenControl serves the control socket: the simulator's and the tests'
// way to press buttons, insert bills, open doors, turn keys and read state.
// Buttons, keys and doors go through the simulated pins, so they take the
// same path (poller, debouncer) as physical ones. It is a local Unix socket
// only, created with owner-only permissions.
func listenControl(path string, own *owner, dev *hardware, log *slog.Logger) (net.Listener, error) {
	os.Remove(path)
	ln, err := net.Listen("unix", path)
	if err != nil {
		return nil, fmt.Errorf("control socket: %w", err)
	}
	os.Chmod(path, 0o600)
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				if !errors.Is(err, net.ErrClosed) {
					log.Error("control socket", "err", err)
				}
				return
			}
			go serveControl(c, own, dev)
		}
	}()
	return ln, nil
}

func serveControl(c net.Conn, own *owner, dev *hardware) {
	defer c.Close()
	sc := bufio.NewScanner(c)
	enc := json.NewEncoder(c)
	for sc.Scan() {
		var cmd command
		var r reply
		if err := json.Unmarshal(sc.Bytes(), &cmd); err != nil {
			r.Error = "not a JSON command: " + err.Error()
		} else {
			r = handle(cmd, own, dev)
		}
		if err := enc.Encode(r); err != nil {
			return
		}
	}
}

func handle(cmd command, own *owner, dev *hardware) reply {
	now := time.Now()
	sim := dev.board.Sim()
	if sim == nil && cmd.Cmd != "state" && cmd.Cmd != "meters" {
		return reply{Error: "the control socket drives simulated hardware only"}
	}
	var eff machine.Effects
	var err error
	switch cmd.Cmd {
	case "press":
		if !isButton(cmd.Button) {
			return reply{Error: fmt.Sprintf("unknown button %q", cmd.Button)}
		}
		eff, err = dev.await(func() error { return sim.Set(cmd.Button, true) }, cmd.Button)
		if err == nil {
			_, err = dev.await(func() error { return sim.Set(cmd.Button, false) }, cmd.Button)
		}
	case "bill":
		eff, err = dev.await(func() error { sim.Bills().Insert(cmd.Cents); return nil }, "bill_stacked", "bill_rejected", "bill_jam")
	case "door", "key":
		// A switch already in the asked position makes no edge: nothing
		// happens, as with the physical switch.
		pin, on := "door_"+cmd.Door, cmd.Open
		if cmd.Cmd == "key" {
			pin, on = cmd.Key, cmd.On
			dev.announce(cmd.Key, cmd.Who)
		}
		if cur, e := sim.Active(pin); e != nil {
			err = e
		} else if cur != on {
			eff, err = dev.await(func() error { return sim.Set(pin, on) }, pin)
		}
	case "jam":
		eff, err = dev.await(func() error { sim.Bills().JamNext(); sim.Bills().Insert(500); return nil }, "bill_jam")
	case "clear_jam":
		eff, err = dev.await(sim.Bills().ClearJam, "bill_jam_cleared")
	case "paper_out":
		err = sim.Printer().SetPaper(0)
	case "refill":
		sim.Printer().Refill()
	case "pin":
		eff = own.submit(machine.PINEntry{At: now, Role: cmd.Role, PIN: cmd.PIN})
	case "service":
		eff = own.submit(machine.ServiceAction{At: now, Action: cmd.Action, Key: cmd.Key, Value: cmd.Value})
	case "host":
		eff = own.submit(machine.HostCommand{At: now, Cmd: cmd.Reason})
	case "state":
	case "meters":
		r := reply{OK: true, Meters: map[string]int64{}}
		own.read(func() {
			if own.ledger == nil {
				return
			}
			for i, d := range meters.Defs {
				r.Meters[d.Name] = own.ledger.Meter(meters.Meter(i))
			}
		})
		if sim != nil {
			for _, m := range dev.pulsers.Meters() {
				if n, err := sim.Pulses(m); err == nil {
					r.Meters["hard "+m] = int64(n)
				}
			}
		}
		return r
	case "tickets":
		var t []machine.PrintTicket
		for _, p := range sim.Printer().Printed() {
			t = append(t, machine.PrintTicket{Validation: p.Validation, Cents: p.Cents, MachineID: p.MachineID, At: p.At})
		}
		return reply{OK: true, Tickets: t}
	default:
		return reply{Error: fmt.Sprintf("unknown command %q", cmd.Cmd)}
	}
	if err != nil {
		return reply{Error: err.Error()}
	}
	return reply{OK: true, Refused: eff.Refused, View: own.view.Load()}
}
