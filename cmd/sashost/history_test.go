package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/openegm/cabinet/sas"
	"github.com/openegm/cabinet/sas/host"
)

func reading(coinIn, games uint64) []host.Meter {
	return []host.Meter{
		{Code: sas.MeterTotalCoinIn, Name: "total coin in", Value: coinIn, Size: 4},
		{Code: sas.MeterGamesPlayed, Name: "games played", Value: games, Size: 4}}
}

// compareMeters: a meter below the last reading of the same machine is an
// alarm naming the machine, the meter, the old and the new value; equal,
// higher, new, or rolled over at its BCD width is not.
func TestCompareMeters(t *testing.T) {
	last := map[string]histMeter{"0000": {Value: 1000, Size: 4}, "0005": {Value: 10, Size: 4}}
	for _, tc := range []struct {
		name string
		last map[string]histMeter
		now  []host.Meter
		want []meterAlarm
	}{
		{"first reading", nil, reading(5, 1), nil},
		{"unchanged", last, reading(1000, 10), nil},
		{"up", last, reading(1200, 12), nil},
		{"coin in back", last, reading(999, 10), []meterAlarm{{Machine: "EGM-1", Code: "0000", Name: "total coin in", Old: 1000, New: 999}}},
		{"both back", last, reading(0, 0), []meterAlarm{
			{Machine: "EGM-1", Code: "0000", Name: "total coin in", Old: 1000, New: 0},
			{Machine: "EGM-1", Code: "0005", Name: "games played", Old: 10, New: 0}}},
		{"rolled over", map[string]histMeter{"0000": {Value: 99_999_950, Size: 4}}, reading(30, 1), nil},
		{"near the top but not rolled", map[string]histMeter{"0000": {Value: 99_999_950, Size: 4}}, reading(5_000_000, 1),
			[]meterAlarm{{Machine: "EGM-1", Code: "0000", Name: "total coin in", Old: 99_999_950, New: 5_000_000}}},
		{"a meter not read before", map[string]histMeter{"0005": {Value: 3, Size: 4}}, reading(0, 3), nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, now := compareMeters("EGM-1", tc.last, tc.now)
			if !reflect.DeepEqual(got, tc.want) {
				t.Fatalf("alarms %+v, want %+v", got, tc.want)
			}
			if len(now) != len(tc.now) || now["0000"].Value != tc.now[0].Value {
				t.Fatalf("kept %+v, want the new reading", now)
			}
		})
	}
}

// --history: each machine (by serial) is compared with itself; an alarm is
// printed and recorded in the host's alarm file, which keeps it after the
// next reading has replaced the one it compared with.
func TestMeterHistory(t *testing.T) {
	file := filepath.Join(t.TempDir(), "history.json")
	at := time.Date(2026, 12, 5, 17, 0, 0, 0, time.UTC)
	read := func(serial string, coinIn, games uint64) []string {
		t.Helper()
		a, err := checkHistory(file, at, serial, reading(coinIn, games))
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
	if _, err := os.Stat(file + alarmsSuffix); !os.IsNotExist(err) {
		t.Fatalf("an alarm file with no alarm: %v", err)
	}
	a := read("EGM-1", 20, 3)
	if len(a) != 2 || !strings.Contains(a[0], "went back from 30 to 20") || !strings.Contains(a[1], "from 21 to 3") {
		t.Fatalf("meters back: %v", a)
	}
	if a := read("EGM-1", 25, 4); len(a) != 0 {
		t.Fatalf("up again after the alarm: %v", a)
	}
	b, err := os.ReadFile(file + alarmsSuffix)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(string(b)), "\n")
	if len(lines) != 2 {
		t.Fatalf("alarm file:\n%s", b)
	}
	var rec meterAlarm
	if err := json.Unmarshal([]byte(lines[0]), &rec); err != nil {
		t.Fatal(err)
	}
	if want := (meterAlarm{At: "2026-12-05T17:00:00Z", Machine: "EGM-1", Code: "0000", Name: "total coin in", Old: 30, New: 20}); rec != want {
		t.Fatalf("recorded %+v, want %+v", rec, want)
	}
}
