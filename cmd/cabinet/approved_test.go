package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/openegm/cabinet/machine"
)

// The cabinet plays only a program in a signed approved list when there is
// one: its own hash listed (by parsheet approve, the lab's tool) plays; a
// list without it, or a list changed after signing, is the program tilt.
func TestApprovedProgramList(t *testing.T) {
	t.Parallel()
	key := "../../assets/keys/dev-NOT-FOR-PRODUCTION.key"
	approve := func(t *testing.T, data string, programs ...string) string {
		t.Helper()
		list := filepath.Join(data, "approved-programs.json")
		out, err := exec.Command("go", append([]string{"run", "../parsheet", "approve", "--key", key, "--out", list}, programs...)...).CombinedOutput()
		if err != nil {
			t.Fatalf("parsheet approve: %v %s", err, out)
		}
		return list
	}
	t.Run("listed", func(t *testing.T) {
		data := t.TempDir()
		approve(t, data, filepath.Join(binDir, "meterread"), filepath.Join(binDir, "cabinet"))
		c := startCabinet(t, data)
		defer c.Stop()
		if v := c.State(); v.Mode != "idle" || len(v.Tilts) != 0 {
			t.Fatalf("approved program: %+v", v)
		}
	})
	t.Run("not listed", func(t *testing.T) {
		data := t.TempDir()
		approve(t, data, filepath.Join(binDir, "meterread"))
		c := startCabinet(t, data)
		defer c.Stop()
		if v := c.State(); v.Mode != "tilt" || len(v.Tilts) != 1 || v.Tilts[0] != machine.TiltProgram {
			t.Fatalf("unlisted program: %+v", v)
		}
	})
	t.Run("tampered", func(t *testing.T) {
		data := t.TempDir()
		list := approve(t, data, filepath.Join(binDir, "cabinet"))
		b, _ := os.ReadFile(list)
		os.WriteFile(list, []byte(strings.Replace(string(b), "cabinet", "cabinex", 1)), 0o644)
		c := startCabinet(t, data)
		defer c.Stop()
		if v := c.State(); v.Mode != "tilt" || v.Tilts[0] != machine.TiltProgram {
			t.Fatalf("tampered list: %+v", v)
		}
		log, _ := os.ReadFile(filepath.Join(data, "cabinet.log"))
		if !strings.Contains(string(log), "signature") {
			t.Fatalf("the log does not say the list's signature failed:\n%s", log)
		}
	})
}
