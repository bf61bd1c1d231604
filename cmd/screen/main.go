// Command screen is the cabinet's display: a separate process that draws the
// view it reads from the cabinet's control socket and sends presses, bills,
// doors, the key and service keypad entries back through it. Keeping the
// display out of the firmware process means the cabinet runs headless without
// a display library, and a fault in drawing cannot stop the machine.
//
// This program takes the flags and checks them without a display; the
// window itself is screen-window beside it, started in its place (the
// display library opens the display as soon as a program that links it
// starts, so --help could not work there without one).
package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"syscall"
	"time"
)

// Window is the program that draws, found beside this one.
const Window = "screen-window"

func main() {
	path, args, err := parse(os.Args[1:], os.Stderr, os.Getenv)
	if errors.Is(err, flag.ErrHelp) {
		os.Exit(0)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "screen:", err)
		os.Exit(2)
	}
	if err := syscall.Exec(path, args, os.Environ()); err != nil {
		fmt.Fprintf(os.Stderr, "screen: cannot start %s: %v\n", path, err)
		os.Exit(1)
	}
}

// parse checks the flags and the display, and returns the window program
// to run with its arguments (flag.ErrHelp after printing the usage).
func parse(argv []string, stderr io.Writer, getenv func(string) string) (string, []string, error) {
	fs := flag.NewFlagSet("screen", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.String("control", "cabinet-data/control.sock", "the cabinet's control socket")
	fs.Bool("fullscreen", false, "fill the screen (a cabinet's monitor)")
	fs.Bool("simulator", true, "keyboard and mouse stand in for the cabinet's buttons, key and doors")
	fs.String("shot", "", "write a screenshot to this PNG file after --after, then exit")
	after := fs.Duration("after", 2*time.Second, "when to take --shot")
	fs.Bool("sound", true, "play the screens' sounds (silent without a sound device)")
	fs.Usage = func() {
		fmt.Fprintf(stderr, "screen — the cabinet's display, reading the cabinet through its control socket\n\nUsage: screen [flags]\n\n")
		fs.PrintDefaults()
	}
	if err := fs.Parse(argv); err != nil {
		return "", nil, err
	}
	if fs.NArg() > 0 {
		return "", nil, fmt.Errorf("unexpected argument %q (see screen --help)", fs.Arg(0))
	}
	if *after < 0 {
		return "", nil, fmt.Errorf("--after %v: a screenshot cannot be taken before the start", *after)
	}
	if getenv("DISPLAY") == "" && getenv("WAYLAND_DISPLAY") == "" {
		return "", nil, errors.New("no display (DISPLAY and WAYLAND_DISPLAY are unset): run it on the cabinet's monitor, or under xvfb-run")
	}
	self, err := os.Executable()
	if err != nil {
		return "", nil, err
	}
	path := filepath.Join(filepath.Dir(self), Window)
	if _, err := os.Stat(path); err != nil {
		return "", nil, fmt.Errorf("the window program %s is missing beside screen (build it with go build ./cmd/screen-window)", path)
	}
	return path, append([]string{path}, argv...), nil
}
