// Package ui draws the cabinet's screens with ebiten: the player's game, the
// paytable and rules pages (regulation rule 10), the service menu for
// technicians, operators and inspectors, and the simulator's legend. It
// renders a read-only machine.View and turns clicks, touches and keys into
// the same inputs a physical button, key switch or door sends; its sounds
// (package sound) follow what the screen shows. There is no game logic and
// no money arithmetic here: amounts come as cents and credits and are only
// formatted (Euro, Credits). Only this package (and cmd/uidemo) imports
// ebiten, so the rest of the firmware tests without a display.
package ui

import (
	"image"
	"log/slog"

	"github.com/hajimehoshi/ebiten/v2"
	"github.com/openegm/cabinet/ui/model"
	"github.com/openegm/cabinet/ui/sound"
)

// Cabinet is what the screens need from the firmware (see model.Cabinet).
type Cabinet = model.Cabinet

// Switch names for Cabinet.SetSwitch and Cabinet.Switch.
const (
	SwitchKey     = model.SwitchKey
	SwitchMain    = model.SwitchMain
	SwitchLogic   = model.SwitchLogic
	SwitchCashbox = model.SwitchCashbox
	SwitchBelly   = model.SwitchBelly
	SwitchDrop    = model.SwitchDrop
)

// Options configure the window.
type Options struct {
	Width, Height int    // window size in pixels; 0 means 1280×720
	Title         string // window Title; "" means the machine's
	Fullscreen    bool
	// Simulator lets the keyboard stand in for the key switch, the doors and
	// the bill validator, and shows the legend of keys. Off on a real cabinet.
	Simulator bool
	// Frame, when set, is called after every frame is drawn with its number
	// (from 1) and a function that reads the frame's pixels; returning true
	// closes the window. Screenshot tests and cmd/uidemo use it.
	Frame func(n int, shot func() *image.RGBA) (done bool)
	// Sound plays the screens' sounds (package sound). nil: Run opens the
	// sound device and makes one, silent if there is no device. Keep it to
	// turn the sound off and on from any goroutine (Player.Mute: a host's
	// sound off and on, SAS long polls 03 and 04).
	Sound *sound.Player
	// Silent keeps Run from opening the sound device (when Sound is nil).
	Silent bool
}

// Run opens the window and blocks until it is closed. It must be called from
// the main goroutine (ebiten's rule).
func Run(c Cabinet, opts Options) error {
	if opts.Width <= 0 || opts.Height <= 0 {
		opts.Width, opts.Height = model.DesignW, model.DesignH
	}
	if opts.Title == "" {
		opts.Title = "OpenEGM " + c.View().MachineID
	}
	ebiten.SetWindowTitle(opts.Title)
	ebiten.SetWindowSize(opts.Width, opts.Height)
	ebiten.SetWindowResizingMode(ebiten.WindowResizingModeEnabled)
	ebiten.SetFullscreen(opts.Fullscreen)
	// Every frame paints every pixel (the player's layer is copied whole,
	// the other screens fill their background): ebiten's clearing of the
	// screen first would be one more full-screen pass for nothing.
	ebiten.SetScreenClearedEveryFrame(false)
	if opts.Sound == nil {
		var out sound.Output
		if !opts.Silent {
			var err error
			if out, err = sound.OpenDevice(); err != nil {
				slog.Warn("the screens are silent", "err", err)
			}
		}
		opts.Sound = sound.NewPlayer(out)
	}
	g := newGame(c, opts)
	return ebiten.RunGame(g)
}
