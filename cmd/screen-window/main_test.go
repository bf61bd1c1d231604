//go:build screen

package main

import (
	"bufio"
	"encoding/json"
	"net"
	"path/filepath"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/openegm/cabinet/internal/control"
	"github.com/openegm/cabinet/machine"
)

// fakeCabinet serves a control socket: the view for "state", and keeps
// every other command line as the cabinet's strict parser reads it.
type fakeCabinet struct {
	mu   sync.Mutex
	cmds []control.Command
	bad  []string
}

func (f *fakeCabinet) serve(t *testing.T, l net.Listener) {
	for {
		conn, err := l.Accept()
		if err != nil {
			return
		}
		go func() {
			defer conn.Close()
			line, err := bufio.NewReader(conn).ReadBytes('\n')
			if err != nil {
				return
			}
			cmd, err := control.ParseCommand(line)
			reply := control.Reply{OK: err == nil}
			f.mu.Lock()
			switch {
			case err != nil:
				f.bad = append(f.bad, string(line)+": "+err.Error())
				reply.Error = err.Error()
			case cmd.Cmd == "state":
				reply.View = &machine.View{MachineID: "EGM-0042", Mode: "idle", GameKind: machine.GamePoker}
			default:
				f.cmds = append(f.cmds, cmd)
			}
			f.mu.Unlock()
			b, _ := json.Marshal(reply)
			conn.Write(append(b, '\n'))
		}()
	}
}

// The poker seat's touches reach the cabinet's control socket as the
// commands cmd/cabinet serves: poker_buyin with the table and the cave,
// poker_act with the kind, the amount and the rest flag, poker_leave.
func TestPokerEventsToControlSocket(t *testing.T) {
	path := filepath.Join(t.TempDir(), "control.sock")
	l, err := net.Listen("unix", path)
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	f := &fakeCabinet{}
	go f.serve(t, l)
	c, err := dial(path)
	if err != nil {
		t.Fatal(err)
	}
	now := time.Now()
	want := []control.Command{
		{Cmd: "poker_buyin", Value: "holdem-nl-2", Cents: 10000},
		{Cmd: "poker_act", Action: "raise", Cents: 1200},
		{Cmd: "poker_act", Action: "rest", On: true},
		{Cmd: "poker_act", Action: "ante"},
		{Cmd: "poker_leave"},
	}
	// One at a time: each is sent from its own goroutine, so their order
	// on the socket is not the order of the calls.
	for i, ev := range []machine.Event{
		machine.PokerBuyIn{At: now, Table: "holdem-nl-2", Cents: 10000},
		machine.PokerAct{At: now, Kind: "raise", To: 1200},
		machine.PokerAct{At: now, Kind: "rest", On: true},
		machine.PokerAct{At: now, Kind: "ante"},
		machine.PokerLeave{At: now},
	} {
		c.Service(ev)
		deadline := time.Now().Add(30 * time.Second)
		for {
			f.mu.Lock()
			n, bad := len(f.cmds), slices.Clone(f.bad)
			f.mu.Unlock()
			if len(bad) > 0 {
				t.Fatalf("the cabinet's parser refuses the screen's lines: %q", bad)
			}
			if n > i {
				break
			}
			if time.Now().After(deadline) {
				t.Fatalf("%T did not reach the control socket", ev)
			}
			time.Sleep(10 * time.Millisecond)
		}
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	if !slices.Equal(f.cmds, want) {
		t.Errorf("commands\n got %+v\nwant %+v", f.cmds, want)
	}
}
