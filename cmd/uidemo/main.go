// Command uidemo opens the cabinet's screens on an in-memory machine (the
// real machine core with the default certified paytable, no ledger, no
// hardware): a playable simulator for the screens, and a way to take
// screenshots. The firmware is cmd/cabinet.
//
//	go run ./cmd/uidemo                       # play: keys in the legend
//	go run ./cmd/uidemo -shot game.png -after 3s -bill 5000 -spin
package main

import (
	"flag"
	"fmt"
	"image"
	"image/png"
	"os"
	"time"

	"github.com/openegm/cabinet/assets"
	"github.com/openegm/cabinet/machine"
	"github.com/openegm/cabinet/ui"
	"github.com/openegm/cabinet/ui/demo"
)

func main() {
	w := flag.Int("width", 1280, "window width")
	h := flag.Int("height", 720, "window height")
	game := flag.String("paytable", assets.DefaultGame, "embedded paytable")
	id := flag.String("machine-id", "EGM-0001", "machine identification")
	denom := flag.Int64("denom", 1, "cents per credit")
	seed := flag.Uint64("seed", 1, "RNG seed (a demo, not the certified RNG's seeding)")
	bill := flag.Int64("bill", 0, "insert a bill of this many cents at start")
	spin := flag.Bool("spin", false, "press spin at start")
	shot := flag.String("shot", "", "write a PNG of the screen after -after and quit")
	after := flag.Duration("after", 3*time.Second, "when to take -shot")
	flag.Parse()

	pt, err := assets.LoadPaytable(*game)
	if err != nil {
		fmt.Fprintln(os.Stderr, "uidemo:", err)
		os.Exit(1)
	}
	c := demo.New(pt, demo.Config{MachineID: *id, Denom: *denom, Seed: *seed})
	if *bill > 0 {
		c.InsertBill(*bill)
	}
	if *spin {
		c.Press(machine.BtnSpin)
	}
	stop := make(chan struct{})
	go func() { // the machine's clock
		t := time.NewTicker(50 * time.Millisecond)
		defer t.Stop()
		for {
			select {
			case <-stop:
				return
			case <-t.C:
				c.Advance(50 * time.Millisecond)
			}
		}
	}()
	opts := ui.Options{Width: *w, Height: *h, Simulator: true}
	if *shot != "" {
		frames := int(after.Seconds() * 60)
		opts.Frame = func(n int, grab func() *image.RGBA) bool {
			if n < frames {
				return false
			}
			f, err := os.Create(*shot)
			if err == nil {
				err = png.Encode(f, grab())
				f.Close()
			}
			if err != nil {
				fmt.Fprintln(os.Stderr, "uidemo:", err)
			}
			return true
		}
	}
	err = ui.Run(c, opts)
	close(stop)
	if err != nil {
		fmt.Fprintln(os.Stderr, "uidemo:", err)
		os.Exit(1)
	}
}
