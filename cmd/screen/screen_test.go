//go:build screen

package main

import (
	"bufio"
	"encoding/json"
	"image"
	"image/color"
	"image/png"
	"math"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"github.com/openegm/cabinet/assets"
	"github.com/openegm/cabinet/machine"
	"github.com/openegm/cabinet/ui"
	"github.com/openegm/cabinet/ui/model"
)

// TestScreenProcessShowsTheCabinet runs the real cabinet and the real screen
// process (under Xvfb, see ui/xvfb-test.sh): after a game played through the
// control socket, the screenshot shows the committed stops.
func TestScreenProcessShowsTheCabinet(t *testing.T) {
	dir := t.TempDir()
	for _, p := range []string{"cabinet", "screen", "screen-window"} {
		if out, err := exec.Command("go", "build", "-o", filepath.Join(dir, p), "../"+p).CombinedOutput(); err != nil {
			t.Fatalf("build %s: %v\n%s", p, err, out)
		}
	}
	data := filepath.Join(dir, "data")
	cab := exec.Command(filepath.Join(dir, "cabinet"), "--data", data, "--spin-time", "10ms")
	if err := cab.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() { cab.Process.Signal(os.Interrupt); cab.Wait() }()
	sock := filepath.Join(data, "control.sock")
	var conn net.Conn
	for i := 0; ; i++ {
		var err error
		if conn, err = net.Dial("unix", sock); err == nil {
			break
		}
		if i > 200 {
			t.Fatal(err)
		}
		time.Sleep(50 * time.Millisecond)
	}
	defer conn.Close()
	rd := bufio.NewReader(conn)
	send := func(cmd string) machine.View {
		conn.Write([]byte(cmd + "\n"))
		line, err := rd.ReadBytes('\n')
		if err != nil {
			t.Fatal(err)
		}
		var r struct {
			View machine.View `json:"view"`
		}
		json.Unmarshal(line, &r)
		return r.View
	}
	for send(`{"cmd":"state"}`).Mode == "starting" {
		time.Sleep(20 * time.Millisecond)
	}
	send(`{"cmd":"bill","cents":5000}`)
	send(`{"cmd":"press","button":"spin"}`)
	var v machine.View
	for v = send(`{"cmd":"state"}`); v.Mode == "spinning"; v = send(`{"cmd":"state"}`) {
		time.Sleep(20 * time.Millisecond)
	}
	shot := filepath.Join(dir, "shot.png")
	out, err := exec.Command(filepath.Join(dir, "screen"), "--control", sock, "--shot", shot, "--after", "3s").CombinedOutput()
	if err != nil {
		t.Fatalf("screen: %v\n%s", err, out)
	}
	f, err := os.Open(shot)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	img, err := png.Decode(f)
	if err != nil {
		t.Fatal(err)
	}
	pt, _ := assets.LoadPaytable(v.Paytable)
	b := img.Bounds()
	sx, sy := float64(b.Dx())/model.DesignW, float64(b.Dy())/model.DesignH
	for i, col := range v.Window {
		for j, want := range col {
			r := model.ViewCell(v, i, j, len(v.Window), len(col))
			c := color.RGBAModel.Convert(img.At(int((r.X+0.1*r.W)*sx), int((r.Y+0.55*r.H)*sy))).(color.RGBA)
			best, bd := "", math.Inf(1)
			for _, s := range pt.Symbols {
				k := ui.SymbolColor(s.ID)
				d := math.Sqrt(sq(c.R, k.R) + sq(c.G, k.G) + sq(c.B, k.B))
				if d < bd {
					best, bd = s.ID, d
				}
			}
			if best != want || bd > 40 {
				t.Errorf("reel %d row %d shows %s (distance %.0f), the cabinet committed %s", i, j, best, bd, want)
			}
		}
	}
	if n := distinct(img); n < 50 {
		t.Fatalf("screenshot has %d colours: blank?", n)
	}
}

func sq(a, b uint8) float64 { d := float64(a) - float64(b); return d * d }

func distinct(img image.Image) int {
	seen := map[color.Color]bool{}
	b := img.Bounds()
	for y := b.Min.Y; y < b.Max.Y; y += 4 {
		for x := b.Min.X; x < b.Max.X; x += 4 {
			seen[img.At(x, y)] = true
		}
	}
	return len(seen)
}
