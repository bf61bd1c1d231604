package main

import (
	"bytes"
	"os"
	"testing"
)

// The self-test hashes the program through a mapping: it must be the very
// bytes of the running executable, as a read gives them.
func TestRunningProgramIsTheExecutable(t *testing.T) {
	mapped, err := runningProgram()
	if err != nil {
		t.Fatal(err)
	}
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	read, err := os.ReadFile(exe)
	if err != nil {
		t.Fatal(err)
	}
	if len(mapped) < 1<<20 || !bytes.Equal(mapped, read) {
		t.Fatalf("the program as the self-test sees it (%d bytes) is not the executable (%d bytes)", len(mapped), len(read))
	}
}
