package main

import (
	"bytes"
	"errors"
	"flag"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// The flags work without a display: --help prints them and exits 0, a bad
// flag says so and exits 2, and without a display the screen says why
// instead of failing inside the display library. The real binary, with no
// DISPLAY in its environment.
func TestFlagsWorkHeadless(t *testing.T) {
	dir := t.TempDir()
	bin := filepath.Join(dir, "screen")
	if out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput(); err != nil {
		t.Fatalf("build: %v\n%s", err, out)
	}
	run := func(args ...string) (int, string) {
		cmd := exec.Command(bin, args...)
		cmd.Env = []string{"PATH=" + os.Getenv("PATH"), "HOME=" + dir}
		out, err := cmd.CombinedOutput()
		code := 0
		var ee *exec.ExitError
		if errors.As(err, &ee) {
			code = ee.ExitCode()
		} else if err != nil {
			t.Fatal(err)
		}
		return code, string(out)
	}
	if code, out := run("--help"); code != 0 || !strings.Contains(out, "-control") || strings.Contains(out, "panic") {
		t.Fatalf("--help without a display: exit %d\n%s", code, out)
	}
	if code, out := run("--bogus"); code != 2 || strings.Contains(out, "panic") {
		t.Fatalf("a bad flag: exit %d\n%s", code, out)
	}
	if code, out := run("--control", "x.sock"); code != 2 || !strings.Contains(out, "no display") || strings.Contains(out, "panic") {
		t.Fatalf("no display: exit %d\n%s", code, out)
	}
}

// With a display, the window program beside screen is the one started,
// with the same flags; a missing one is named.
func TestParseFindsTheWindow(t *testing.T) {
	env := func(k string) string {
		if k == "DISPLAY" {
			return ":9"
		}
		return ""
	}
	var stderr bytes.Buffer
	path, args, err := parse([]string{"--control", "c.sock", "--fullscreen"}, &stderr, env)
	self, _ := os.Executable()
	want := filepath.Join(filepath.Dir(self), Window)
	if _, serr := os.Stat(want); serr != nil {
		if err == nil || !strings.Contains(err.Error(), Window) {
			t.Fatalf("missing window program: %v", err)
		}
		return
	}
	if err != nil || path != want || strings.Join(args[1:], " ") != "--control c.sock --fullscreen" {
		t.Fatalf("parse: %q %v %v", path, args, err)
	}
	if _, _, err := parse([]string{"-h"}, &stderr, env); !errors.Is(err, flag.ErrHelp) {
		t.Fatalf("-h: %v", err)
	}
}
