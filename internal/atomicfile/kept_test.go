package atomicfile

import (
	"os"
	"path/filepath"
	"syscall"
	"testing"
)

// A kept file is replaced without opening a descriptor: it goes on being
// written when the process has none left to open.
func TestKeptWritesWithNoDescriptorLeft(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "m.json")
	k, err := OpenKept(p, 0o600)
	if err != nil {
		t.Fatal(err)
	}
	defer k.Close()
	var lim syscall.Rlimit
	if err := syscall.Getrlimit(syscall.RLIMIT_NOFILE, &lim); err != nil {
		t.Fatal(err)
	}
	// Take every descriptor left.
	var held []*os.File
	defer func() {
		for _, f := range held {
			f.Close()
		}
	}()
	for len(held) < 1<<20 {
		f, err := os.Open(dir)
		if err != nil {
			break
		}
		held = append(held, f)
	}
	if _, err := os.Open(dir); err == nil {
		t.Skip("could not exhaust the descriptors")
	}
	for _, s := range []string{"one", "two", "three, longer", "4"} {
		if err := k.Write([]byte(s)); err != nil {
			t.Fatalf("write %q with no descriptor left: %v", s, err)
		}
	}
	for _, f := range held {
		f.Close()
	}
	held = nil
	if b, err := os.ReadFile(p); err != nil || string(b) != "4" {
		t.Fatalf("content %q, %v", b, err)
	}
	// Reopened, it goes on.
	k.Close()
	if k, err = OpenKept(p, 0o600); err != nil {
		t.Fatal(err)
	}
	if err := k.Write([]byte("five")); err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(p); string(b) != "five" {
		t.Fatalf("content %q", b)
	}
}
