package main

import (
	"bytes"
	"strings"
	"testing"
	"time"
)

// --closing HH:MM in --tz: a partida's closing hour is the first such
// local hour after it began, summer time included; a malformed hour or
// an unknown zone is refused before anything runs.
func TestClosingFlag(t *testing.T) {
	closing, err := parseClosing("03:00", "Europe/Lisbon")
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ began, want string }{
		{"2026-12-05T21:00:00Z", "2026-12-06T03:00:00Z"}, // winter: Lisbon is UTC
		{"2026-07-01T21:00:00Z", "2026-07-02T02:00:00Z"}, // summer: UTC+1
		{"2026-07-02T01:59:59Z", "2026-07-02T02:00:00Z"}, // a second before it
		{"2026-07-02T02:00:00Z", "2026-07-03T02:00:00Z"}, // begun at the hour: the next day's
	} {
		began, _ := time.Parse(time.RFC3339, c.began)
		if got := closing(began).Format(time.RFC3339); got != c.want {
			t.Errorf("begun %s: closes %s, want %s", c.began, got, c.want)
		}
	}
	if f, err := parseClosing("", "Nowhere/Else"); f != nil || err != nil {
		t.Errorf("no --closing: %v", err)
	}
	for _, bad := range []struct{ hour, zone, want string }{
		{"24:00", "Europe/Lisbon", "--closing"},
		{"3:00", "Europe/Lisbon", "--closing"},
		{"03:60", "Europe/Lisbon", "--closing"},
		{"03:00", "Nowhere/Else", "--tz"},
	} {
		var out, errs bytes.Buffer
		code := run([]string{"run", "--data", t.TempDir(), "--closing", bad.hour, "--tz", bad.zone}, &out, &errs)
		if code != 2 || !strings.Contains(errs.String(), bad.want) {
			t.Errorf("--closing %s --tz %s: exit %d, %q", bad.hour, bad.zone, code, errs.String())
		}
	}
}
