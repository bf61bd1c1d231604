package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"github.com/openegm/cabinet/baccarat"
	"log/slog"
	"net"
	"os"
	"slices"
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
	slots := make(chan struct{}, maxControlConns)
	go acceptLoop(ln, func(c net.Conn) {
		// Decided in the accept loop, and a refusal closed there: refused
		// connections never hold more than one descriptor at a time.
		select {
		case slots <- struct{}{}:
			go func() {
				defer func() { <-slots }()
				serveControl(c, own, dev)
			}()
		default:
			refuseControl(c, log)
		}
	}, log)
	return ln, nil
}

// The control socket serves at most maxControlConns connections at once
// (the screen and a few tools need a handful; tests drive forty at once),
// and closes one idle for controlIdle: each costs a file descriptor, and a
// local client holding hundreds of them must not leave the cabinet unable
// to open what its money path needs (the hard meters' and the SAS queue's
// files are kept open since start-up, but the log opens its next segment
// when one is full).
const (
	maxControlConns = 48
	controlIdle     = 10 * time.Minute
	controlWrite    = 30 * time.Second
)

// errTooManyControl is the refusal line sent to a connection beyond the
// bound, before it is closed.
var errTooManyControl = fmt.Sprintf("control socket: %d connections already open, the most it serves: connection refused", maxControlConns)

func refuseControl(c net.Conn, log *slog.Logger) {
	defer c.Close()
	log.Warn("control socket: connection refused", "open", maxControlConns)
	c.SetWriteDeadline(time.Now().Add(100 * time.Millisecond))
	_ = json.NewEncoder(c).Encode(reply{Error: errTooManyControl})
}

// acceptLoop hands each connection to admit (which must not block: it
// starts what serves it) until the listener is closed. Any other
// accept error (no file descriptor left, say) is waited out with a growing
// pause, as net/http does: the screen reconnects through this socket, so
// it must outlive a bad moment.
func acceptLoop(ln net.Listener, admit func(net.Conn), log *slog.Logger) {
	var pause time.Duration
	for {
		c, err := ln.Accept()
		if err != nil {
			if errors.Is(err, net.ErrClosed) {
				return
			}
			pause = min(max(2*pause, 5*time.Millisecond), time.Second)
			log.Error("control socket: accept failed; retrying", "err", err, "in", pause)
			time.Sleep(pause)
			continue
		}
		pause = 0
		admit(c)
	}
}

func serveControl(c net.Conn, own *owner, dev *hardware) {
	defer c.Close()
	rd := bufio.NewReaderSize(c, 4096)
	enc := json.NewEncoder(c)
	for {
		c.SetReadDeadline(time.Now().Add(controlIdle))
		line, err := readLine(rd, control.MaxLine)
		var r reply
		switch {
		case errors.Is(err, errLineTooLong):
			r.Error = err.Error()
		case err != nil:
			return
		default:
			if cmd, perr := control.ParseCommand(line); perr != nil {
				r.Error = perr.Error()
			} else {
				r = handle(cmd, own, dev)
			}
		}
		c.SetWriteDeadline(time.Now().Add(controlWrite))
		if err := enc.Encode(r); err != nil {
			return
		}
	}
}

var errLineTooLong = fmt.Errorf("command line longer than %d bytes: skipped", control.MaxLine)

// readLine reads one line of at most max bytes. A longer line is read to
// its end and dropped, so the next line is read whole.
func readLine(rd *bufio.Reader, max int) ([]byte, error) {
	var line []byte
	for {
		chunk, err := rd.ReadSlice('\n')
		if len(line)+len(chunk) > max+1 {
			line = line[:0]
			for errors.Is(err, bufio.ErrBufferFull) {
				_, err = rd.ReadSlice('\n')
			}
			if err != nil {
				return nil, err
			}
			return nil, errLineTooLong
		}
		line = append(line, chunk...)
		if errors.Is(err, bufio.ErrBufferFull) {
			continue
		}
		if err != nil {
			return nil, err
		}
		return bytes.TrimRight(line, "\r\n"), nil
	}
}

// simulatorOnly are the commands that stand in for hardware (money, keys,
// doors, device faults): a production build does not offer them on its
// socket, where they would let anyone with the socket insert money. What
// the screen sends (touches on its buttons, the PIN pad, service menu
// choices) is needed on every cabinet.
var simulatorOnly = map[string]bool{
	"bill": true, "door": true, "key": true, "jam": true, "clear_jam": true,
	"paper_out": true, "refill": true, "tickets": true, "receipts": true, "ticket": true,
}

func handle(cmd command, own *owner, dev *hardware) reply {
	now := time.Now()
	sim := dev.board.Sim()
	if simulatorOnly[cmd.Cmd] && !simulatorSocket {
		return reply{Error: fmt.Sprintf("%q is a simulator command: a production build does not offer it", cmd.Cmd)}
	}
	if sim == nil && simulatorOnly[cmd.Cmd] {
		return reply{Error: fmt.Sprintf("%q drives simulated hardware: this cabinet runs on real hardware", cmd.Cmd)}
	}
	var res stepped
	var err error
	switch cmd.Cmd {
	case "select_game":
		// Touches on the screen: the game menu and the table's spots have
		// no physical buttons.
		res = own.submitSeen(machine.SelectGame{At: now, Game: cmd.Value})
	case "bet":
		spot := slices.Index(baccarat.SpotNames(), cmd.Value)
		if spot < 0 {
			return reply{Error: fmt.Sprintf("unknown bet spot %q (want one of %v)", cmd.Value, baccarat.SpotNames())}
		}
		res = own.submitSeen(machine.PlaceBet{At: now, Spot: spot, Cents: cmd.Cents})
	case "press":
		if !isButton(cmd.Button) {
			return reply{Error: fmt.Sprintf("unknown button %q", cmd.Button)}
		}
		if sim == nil || !isPinButton(cmd.Button) {
			// A touch on the screen's button, on a cabinet whose physical
			// buttons are real pins.
			res = own.submitSeen(machine.Button{At: now, Name: cmd.Button})
			break
		}
		release := dev.hold(cmd.Button)
		res, err = dev.awaitLevel(func() error { return sim.Set(cmd.Button, true) }, cmd.Button, true)
		if err == nil {
			// The reply is the press's; the release changes nothing.
			_, err = dev.awaitLevel(func() error { return sim.Set(cmd.Button, false) }, cmd.Button, false)
		}
		release()
	case "bill":
		release := dev.hold("validator")
		res, err = dev.await(func() error { sim.Bills().Insert(cmd.Cents); return nil }, "bill_stacked", "bill_rejected", "bill_jam")
		release()
	case "door", "key":
		// A switch already in the asked position makes no edge: nothing
		// happens, as with the physical switch.
		pin, on := "door_"+cmd.Door, cmd.Open
		if cmd.Cmd == "key" {
			pin, on = cmd.Key, cmd.On
		}
		release := dev.hold(pin)
		if cmd.Cmd == "key" {
			dev.announce(cmd.Key, cmd.Who)
		}
		if cur, e := sim.Active(pin); e != nil {
			err = e
		} else if cur != on {
			res, err = dev.awaitLevel(func() error { return sim.Set(pin, on) }, pin, on)
		} else {
			res.view = *own.view.Load()
		}
		release()
	case "ticket":
		// The validator read this barcode (Value) and holds the ticket.
		res = own.submitSeen(machine.TicketInserted{At: now, Digits: cmd.Value})
	case "jam":
		release := dev.hold("validator")
		res, err = dev.await(func() error { sim.Bills().JamNext(); sim.Bills().Insert(500); return nil }, "bill_jam")
		release()
	case "clear_jam":
		release := dev.hold("validator")
		res, err = dev.await(sim.Bills().ClearJam, "bill_jam_cleared")
		release()
	case "paper_out":
		err = sim.Printer().SetPaper(0)
		res.view = *own.view.Load()
	case "refill":
		sim.Printer().Refill()
		res.view = *own.view.Load()
	case "pin":
		res = own.submitSeen(machine.PINEntry{At: now, Role: cmd.Role, PIN: cmd.PIN})
	case "service":
		if cmd.Action == machine.SvcPage {
			// The machine refuses it too; the socket says which pages
			// there are, as it does for an unknown bet spot.
			if err := machine.UnknownPage(cmd.Value); err != nil {
				return reply{Error: err.Error()}
			}
		}
		res = own.submitSeen(machine.ServiceAction{At: now, Action: cmd.Action, Key: cmd.Key, Value: cmd.Value})
	case "test_outcome":
		// The lab's choice of the next test game (the machine refuses it
		// unless this is a lab build in test mode).
		res = own.submitSeen(machine.TestOutcome{At: now, Value: cmd.Value})
	case "poker_buyin":
		// The poker seat's touches: a buy-in (a re-buy at the table he is
		// at) of Cents at table Value, a decision (Action: fold, check,
		// call, raise to Cents, all_in, …, extra, rest with On, replay),
		// a leave (Who: the chief of the game who authorises it, rule 61).
		res = own.submitSeen(machine.PokerBuyIn{At: now, Table: cmd.Value, Cents: cmd.Cents})
	case "poker_act":
		res = own.submitSeen(machine.PokerAct{At: now, Kind: cmd.Action, To: cmd.Cents, On: cmd.On})
	case "poker_leave":
		res = own.submitSeen(machine.PokerLeave{At: now, AuthorizedBy: cmd.Who})
	case "presented":
		// The screen has shown the step of the game the view asked for
		// (a stale ID is the machine's to ignore).
		res = own.submitSeen(machine.Presented{At: now, ID: cmd.ID})
	case "handpay_paid":
		// The attendant's touch: the handpay of this amount is paid.
		res = own.submitSeen(machine.HandpayPaid{At: now, Cents: cmd.Cents})
	case "host":
		res = own.submitSeen(machine.HostCommand{At: now, Cmd: cmd.Reason})
	case "state":
		res.view = *own.view.Load()
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
		if sim != nil && dev.pulsers != nil {
			for _, m := range dev.pulsers.Meters() {
				if n, err := sim.Pulses(m); err == nil {
					r.Meters["hard "+m] = int64(n)
				}
			}
		}
		return r
	case "receipts":
		dev.mu.Lock()
		r := reply{OK: true, Receipts: slices.Clone(dev.receipts)}
		dev.mu.Unlock()
		return r
	case "tickets":
		var t []machine.PrintTicket
		for _, p := range sim.Printer().Printed() {
			t = append(t, machine.PrintTicket{Validation: p.Validation, Cents: p.Cents, MachineID: p.MachineID, At: p.At, Reprint: p.Reprint})
		}
		return reply{OK: true, Tickets: t}
	default:
		return reply{Error: fmt.Sprintf("unknown command %q", cmd.Cmd)}
	}
	if err != nil {
		return reply{Error: err.Error()}
	}
	return reply{OK: true, Refused: res.eff.Refused, View: &res.view}
}
