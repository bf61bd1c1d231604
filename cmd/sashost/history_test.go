package main

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/openegm/cabinet/sas"
	"github.com/openegm/cabinet/sas/host"
)

// --history: a meter below its last reading is an alarm, unless it rolled
// over at its BCD width; each machine (by serial) is compared with itself.
func TestMeterHistory(t *testing.T) {
	file := filepath.Join(t.TempDir(), "history.json")
	read := func(serial string, coinIn, games uint64) []string {
		t.Helper()
		a, err := checkHistory(file, serial, []host.Meter{
			{Code: sas.MeterTotalCoinIn, Name: "total coin in", Value: coinIn, Size: 4},
			{Code: sas.MeterGamesPlayed, Name: "games played", Value: games, Size: 4}})
		if err != nil {
			t.Fatal(err)
		}
		return a
	}
	if a := read("EGM-1", 1000, 10); len(a) != 0 {
		t.Fatalf("first reading: %v", a)
	}
	if a := read("EGM-1", 99_999_950, 20); len(a) != 0 {
		t.Fatalf("up: %v", a)
	}
	if a := read("EGM-1", 30, 21); len(a) != 0 {
		t.Fatalf("coin-in rolled over at 10^8: %v", a)
	}
	if a := read("EGM-2", 5, 1); len(a) != 0 {
		t.Fatalf("another machine: %v", a)
	}
	a := read("EGM-1", 20, 3)
	if len(a) != 2 || !strings.Contains(a[0], "went back from 30 to 20") || !strings.Contains(a[1], "from 21 to 3") {
		t.Fatalf("meters back: %v", a)
	}
}
