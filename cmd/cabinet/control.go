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

	"github.com/openegm/cabinet/machine"
	"github.com/openegm/cabinet/meters"
)

// command is one line on the control socket.
type command struct {
	Cmd    string `json:"cmd"`
	Button string `json:"button,omitempty"`
	Cents  int64  `json:"cents,omitempty"`
	Door   string `json:"door,omitempty"`
	Open   bool   `json:"open,omitempty"`
	Key    string `json:"key,omitempty"`
	On     bool   `json:"on,omitempty"`
	Who    string `json:"who,omitempty"`
	Reason string `json:"reason,omitempty"`
	Role   string `json:"role,omitempty"`
	PIN    string `json:"pin,omitempty"`
	Action string `json:"action,omitempty"`
	Value  string `json:"value,omitempty"`
}

// reply is the answer line.
type reply struct {
	OK      bool                  `json:"ok"`
	Error   string                `json:"error,omitempty"`
	Refused string                `json:"refused,omitempty"`
	View    *machine.View         `json:"view,omitempty"`
	Meters  map[string]int64      `json:"meters,omitempty"`
	Tickets []machine.PrintTicket `json:"tickets,omitempty"`
}

// listenControl serves the control socket: the simulator's and the tests'
// way to press buttons, insert bills, open doors, turn keys and read state.
// It is a local Unix socket only, created with owner-only permissions.
func listenControl(path string, own *owner, dev *simDevices, log *slog.Logger) (net.Listener, error) {
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

func serveControl(c net.Conn, own *owner, dev *simDevices) {
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

func handle(cmd command, own *owner, dev *simDevices) reply {
	now := time.Now()
	var eff machine.Effects
	switch cmd.Cmd {
	case "press":
		eff = own.submit(machine.Button{At: now, Name: cmd.Button})
	case "bill":
		eff = dev.insertBill(cmd.Cents)
	case "door":
		eff = own.submit(machine.Door{At: now, Door: cmd.Door, Open: cmd.Open})
	case "key":
		eff = own.submit(machine.Key{At: now, Key: cmd.Key, On: cmd.On, Who: cmd.Who})
	case "jam":
		eff = own.submit(machine.BillJam{At: now})
	case "clear_jam":
		eff = own.submit(machine.BillJamCleared{At: now})
	case "paper_out":
		dev.setPaper(true)
	case "refill":
		dev.setPaper(false)
		eff = own.submit(machine.PrinterOK{At: now})
	case "host":
		eff = own.submit(machine.HostCommand{At: now, Cmd: cmd.Reason})
	case "pin":
		eff = own.submit(machine.PINEntry{At: now, Role: cmd.Role, PIN: cmd.PIN})
	case "service":
		eff = own.submit(machine.ServiceAction{At: now, Action: cmd.Action, Key: cmd.Key, Value: cmd.Value})
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
			r.Meters["last game"] = int64(own.ledger.State().LastGame)
		})
		return r
	case "tickets":
		return reply{OK: true, Tickets: dev.tickets()}
	default:
		return reply{Error: fmt.Sprintf("unknown command %q", cmd.Cmd)}
	}
	v := own.view.Load()
	return reply{OK: true, Refused: eff.Refused, View: v}
}
