// Command screen-window is the cabinet's display window: it draws the view
// it reads from the cabinet's control socket and sends presses, bills,
// doors, the key and service keypad entries back through it. cmd/screen
// starts it: linking the display library needs a display before main runs
// (ebiten opens it in a package init), so the flags, their help and the
// checks live in cmd/screen, which works headless.
package main

import (
	"bufio"
	"encoding/json"
	"flag"
	"fmt"
	"image"
	"image/png"
	"log/slog"
	"net"
	"os"
	"strings"
	"sync"
	"time"

	"github.com/openegm/cabinet/assets"
	"github.com/openegm/cabinet/baccarat"
	"github.com/openegm/cabinet/internal/control"
	"github.com/openegm/cabinet/machine"
	"github.com/openegm/cabinet/reels"
	"github.com/openegm/cabinet/ui"
)

func main() {
	control := flag.String("control", "cabinet-data/control.sock", "the cabinet's control socket")
	fullscreen := flag.Bool("fullscreen", false, "fill the screen (a cabinet's monitor)")
	simulator := flag.Bool("simulator", true, "keyboard and mouse stand in for the cabinet's buttons, key and doors")
	shot := flag.String("shot", "", "write a screenshot to this PNG file after --after, then exit")
	after := flag.Duration("after", 2*time.Second, "when to take --shot")
	sound := flag.Bool("sound", true, "play the screens' sounds (silent without a sound device)")
	flag.Parse()
	log := slog.New(slog.NewTextHandler(os.Stderr, nil))

	c, err := dial(*control)
	if err != nil {
		log.Error("no cabinet", "control", *control, "err", err)
		os.Exit(1)
	}
	go c.refresh()
	opts := ui.Options{Fullscreen: *fullscreen, Simulator: *simulator, Silent: !*sound}
	if *shot != "" {
		start := time.Now()
		opts.Frame = func(n int, take func() *image.RGBA) bool {
			if time.Since(start) < *after {
				return false
			}
			f, err := os.Create(*shot)
			if err == nil {
				png.Encode(f, take())
				f.Close()
			}
			return true
		}
	}
	if err := ui.Run(c, opts); err != nil {
		log.Error("screen stopped", "err", err)
		os.Exit(1)
	}
}

// cabinet implements ui.Cabinet over the control socket. Calls from the UI
// never wait on the cabinet: actions are sent from their own goroutine and
// the view is refreshed in the background.
type cabinet struct {
	path string

	mu   sync.Mutex
	view machine.View
	pts  map[string]*reels.Certified
}

func dial(path string) (*cabinet, error) {
	c := &cabinet{path: path, pts: map[string]*reels.Certified{}}
	deadline := time.Now().Add(30 * time.Second)
	for {
		v, err := c.state()
		if err == nil {
			c.view = v
			return c, nil
		}
		if time.Now().After(deadline) {
			return nil, err
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// conn is one short-lived exchange: the cabinet serves each connection on
// its own goroutine, so a slow press never delays the view.
func (c *cabinet) send(cmd control.Command) (control.Reply, error) {
	conn, err := net.DialTimeout("unix", c.path, time.Second)
	if err != nil {
		return control.Reply{}, err
	}
	defer conn.Close()
	conn.SetDeadline(time.Now().Add(10 * time.Second))
	b, _ := json.Marshal(cmd)
	if _, err := conn.Write(append(b, '\n')); err != nil {
		return control.Reply{}, err
	}
	line, err := bufio.NewReader(conn).ReadBytes('\n')
	if err != nil {
		return control.Reply{}, err
	}
	var r control.Reply
	if err := json.Unmarshal(line, &r); err != nil {
		return control.Reply{}, err
	}
	if !r.OK {
		return r, fmt.Errorf("%s", r.Error)
	}
	return r, nil
}

func (c *cabinet) state() (machine.View, error) {
	r, err := c.send(control.Command{Cmd: "state"})
	if err != nil || r.View == nil {
		return machine.View{}, fmt.Errorf("state: %v", err)
	}
	return *r.View, nil
}

// refresh keeps the view at about 60 updates a second.
func (c *cabinet) refresh() {
	for {
		if v, err := c.state(); err == nil {
			c.mu.Lock()
			c.view = v
			c.mu.Unlock()
		}
		time.Sleep(15 * time.Millisecond)
	}
}

func (c *cabinet) View() machine.View {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.view
}

// Paytable is the embedded certified paytable the cabinet plays (the screen
// is the same program's assets, so it shows exactly what is certified).
func (c *cabinet) Paytable() *reels.Certified {
	id := c.View().Paytable
	if id == "" {
		return nil
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if pt, ok := c.pts[id]; ok {
		return pt
	}
	pt, err := assets.LoadPaytable(id)
	if err != nil {
		return nil
	}
	c.pts[id] = pt
	return pt
}

func (c *cabinet) async(cmd control.Command) { go c.send(cmd) }

func (c *cabinet) Press(button string) { c.async(control.Command{Cmd: "press", Button: button}) }

// SetSwitch turns a switch through the socket's key and door, the
// simulated pins: where it is, the cabinet's view says (the screen keeps
// no copy, so a key turned on the pins is the screen's too).
func (c *cabinet) SetSwitch(name string, on bool) {
	if door, ok := strings.CutPrefix(name, "door_"); ok {
		c.async(control.Command{Cmd: "door", Door: door, Open: on})
		return
	}
	c.async(control.Command{Cmd: "key", Key: name, On: on, Who: "simulator"})
}

func (c *cabinet) InsertBill(cents int64) { c.async(control.Command{Cmd: "bill", Cents: cents}) }

func (c *cabinet) Service(ev machine.Event) {
	switch e := ev.(type) {
	case machine.PINEntry:
		c.async(control.Command{Cmd: "pin", Role: e.Role, PIN: e.PIN})
	case machine.ServiceAction:
		c.async(control.Command{Cmd: "service", Action: e.Action, Key: e.Key, Value: e.Value})
	case machine.HandpayPaid:
		c.async(control.Command{Cmd: "handpay_paid", Cents: e.Cents})
	case machine.Presented:
		c.async(control.Command{Cmd: "presented", ID: e.ID})
	case machine.SelectGame:
		c.async(control.Command{Cmd: "select_game", Value: e.Game})
	case machine.PlaceBet:
		if e.Spot >= 0 && e.Spot < int(baccarat.NumSpots) {
			c.async(control.Command{Cmd: "bet", Value: baccarat.Spot(e.Spot).String(), Cents: e.Cents})
		}
	case machine.PokerBuyIn:
		c.async(control.Command{Cmd: "poker_buyin", Value: e.Table, Cents: e.Cents})
	case machine.PokerAct:
		c.async(control.Command{Cmd: "poker_act", Action: e.Kind, Cents: e.To, On: e.On})
	case machine.PokerLeave:
		c.async(control.Command{Cmd: "poker_leave"})
	}
}
