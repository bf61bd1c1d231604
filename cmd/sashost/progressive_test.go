package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/openegm/cabinet/sas"
	"github.com/openegm/cabinet/sas/sastest"
)

// progMachine is a machine with SAS progressives (group 5, levels 1 and 2)
// served over a pseudo-terminal.
type progMachine struct {
	mu   sync.Mutex
	link *sas.Link
	prog *sastest.Progressive
}

func (m *progMachine) LongPoll(r sas.Request) sas.Reply {
	switch r.Cmd {
	case 0x80, 0x86, 0x85, 0x87:
		return m.prog.LongPoll(r)
	case 0x83:
		d, _ := sas.CumulativeProgressiveWinsData(0, 123456)
		return sas.ReplyData(d...)
	}
	return sas.NoReply()
}

func (m *progMachine) ReplyAcked(cmd byte)   { m.prog.ReplyAcked(cmd) }
func (m *progMachine) ReplyDropped(cmd byte) { m.prog.ReplyDropped(cmd) }

func serveProg(t *testing.T, mode sas.FramerMode) (*progMachine, string) {
	t.Helper()
	p, err := sas.OpenPTY(mode)
	if err != nil {
		t.Skipf("no pseudo-terminal: %v", err)
	}
	m := &progMachine{link: sas.NewLink(addr)}
	m.prog = &sastest.Progressive{Group: 5, Exceptions: m.link.Exceptions}
	m.link.Handler = m
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- sas.Serve(ctx, p, m.link, 0, sas.ServeOptions{Lock: &m.mu}) }()
	t.Cleanup(func() {
		cancel()
		if err := <-done; !errors.Is(err, context.Canceled) {
			t.Errorf("Serve: %v", err)
		}
		p.Close()
	})
	return m, p.HostPath()
}

func TestSashostProgressive(t *testing.T) {
	for _, framing := range []string{"content", "parmrk"} {
		t.Run(framing, func(t *testing.T) {
			mode := sas.ModeContent
			if framing == "parmrk" {
				mode = sas.ModePARMRK
			}
			m, path := serveProg(t, mode)
			base := []string{"--pty", path, "--addr", fmt.Sprint(addr), "--framing", framing}
			cmd := func(args ...string) string {
				t.Helper()
				out, errs, code := sashost(t, append(append([]string{}, base...), args...)...)
				if code != 0 {
					t.Fatalf("sashost %v: exit %d: %s", args, code, errs)
				}
				return out
			}
			locked := func(f func()) { m.mu.Lock(); defer m.mu.Unlock(); f() }
			// eventually waits for the machine to have read what sashost
			// wrote last (a broadcast or the global poll of its exit is
			// not answered, so sashost does not wait for it).
			eventually := func(what string, ok func() bool) {
				t.Helper()
				for deadline := time.Now().Add(2 * time.Second); ; time.Sleep(5 * time.Millisecond) {
					var done bool
					locked(func() { done = ok() })
					if done {
						return
					}
					if time.Now().After(deadline) {
						t.Fatalf("%s: not seen by the machine", what)
					}
				}
			}

			out := cmd("progressive", "broadcast", "--group", "5", "--level", "1=100000", "--level", "2=2500", "--global")
			if !strings.Contains(out, "broadcast 0x86 to every machine") || !strings.Contains(out, "level  1  €1,000.00") {
				t.Errorf("global broadcast: %q", out)
			}
			eventually("global 86", func() bool {
				v := m.prog.Values()
				return v[1] == 100000 && v[2] == 2500
			})
			var bj struct {
				Cmd    string           `json:"cmd"`
				Ack    bool             `json:"ack"`
				Levels []sas.LevelValue `json:"levels"`
			}
			if err := json.Unmarshal([]byte(cmd("progressive", "broadcast", "--group", "5", "--level", "2=2600", "--json")), &bj); err != nil {
				t.Fatal(err)
			}
			if bj.Cmd != "80" || !bj.Ack || len(bj.Levels) != 1 || bj.Levels[0].Amount != 2600 {
				t.Errorf("addressed broadcast: %+v", bj)
			}
			locked(func() {
				if v := m.prog.Values()[2]; v != 2600 {
					t.Errorf("level 2 = %d", v)
				}
			})

			if out := cmd("progressive", "wins"); out != "SAS progressive wins, group 5: none\n" {
				t.Errorf("no wins: %q", out)
			}
			locked(func() {
				m.prog.Hit(1, 1, 100000)
				m.prog.Hit(2, 2, 2600)
			})
			var ws sas.ProgressiveWins
			if err := json.Unmarshal([]byte(cmd("progressive", "wins", "--json")), &ws); err != nil {
				t.Fatal(err)
			}
			if ws.Group != 5 || len(ws.Wins) != 2 || ws.Wins[0] != (sas.LevelValue{Level: 1, Amount: 100000}) {
				t.Errorf("wins: %+v", ws)
			}
			// sashost moved on when it closed: the machine has the
			// acknowledgement.
			eventually("acknowledgement of 87", func() bool { return len(m.prog.Acknowledged()) == 2 })
			locked(func() { m.prog.Hit(3, 2, 5) })
			if out := cmd("progressive", "win"); out != "SAS progressive win: group 5, level 2, €0.05\n" {
				t.Errorf("win: %q", out)
			}
			if out := cmd("progressive", "win", "--json"); !strings.Contains(out, `"level":0`) {
				t.Errorf("win after the acknowledgement: %q", out)
			}
			if out := cmd("progressive", "cumulative"); out != "cumulative progressive wins of game 0: €1,234.56\n" {
				t.Errorf("cumulative: %q", out)
			}
		})
	}
}

func TestSashostProgressiveUsage(t *testing.T) {
	_, path := serveProg(t, sas.ModeContent)
	for _, args := range [][]string{
		{"progressive"},
		{"progressive", "frob"},
		{"progressive", "broadcast", "--level", "1=5"},
		{"progressive", "broadcast", "--group", "5"},
		{"progressive", "broadcast", "--group", "300", "--level", "1=5"},
		{"progressive", "broadcast", "--group", "5", "--level", "33=5"},
		{"progressive", "broadcast", "--group", "5", "--level", "1"},
		{"progressive", "broadcast", "--group", "5", "--level", "1=5", "--level", "1=6"},
		{"progressive", "broadcast", "--group", "5", "--level", "1=99999999999"},
		{"progressive", "cumulative", "--game", "10000"},
	} {
		if _, errs, code := sashost(t, append([]string{"--pty", path, "--addr", fmt.Sprint(addr)}, args...)...); code != 2 {
			t.Errorf("%q: exit %d, want 2 (%s)", args, code, errs)
		}
	}
}
