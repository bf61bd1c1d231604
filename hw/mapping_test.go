package hw

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func TestDefaultMappingLoads(t *testing.T) {
	m := DefaultMapping()
	if m.Source != DefaultMappingSource {
		t.Errorf("source %q", m.Source)
	}
	all := map[string]string{}
	for _, p := range append(append(append([]InputPin(nil), m.Buttons...), m.Keys...), m.Doors...) {
		all[p.Name] = p.Pin
	}
	for _, p := range m.Lamps {
		all[p.Name] = p.Pin
	}
	for _, p := range m.Meters {
		all[p.Name] = p.Pin
	}
	names := append(append(InputNames(), LampNames()...), MeterNames()...)
	if len(names) != 24 || len(all) != 24 {
		t.Fatalf("want 24 names, got %d required and %d mapped", len(names), len(all))
	}
	for _, n := range names {
		if want := "SIM_" + strings.ToUpper(n); all[n] != want {
			t.Errorf("%s: pin %q, want %q", n, all[n], want)
		}
	}
	if got := m.Buttons[0].debounce("buttons"); got != 20*time.Millisecond {
		t.Errorf("spin debounce %v", got)
	}
	if w, g := m.Meters[0].widths(); w != 50*time.Millisecond || g != 50*time.Millisecond {
		t.Errorf("meter widths %v/%v", w, g)
	}
}

func TestLoadMappingNamesFile(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "cabinet-map.json")
	if err := os.WriteFile(path, DefaultMappingJSON(), 0o600); err != nil {
		t.Fatal(err)
	}
	m, err := LoadMapping(path)
	if err != nil {
		t.Fatal(err)
	}
	if m.Source != path {
		t.Errorf("source %q", m.Source)
	}
	if err := os.WriteFile(path, []byte(`{"buttons": [], "bogus": 1}`), 0o600); err != nil {
		t.Fatal(err)
	}
	_, err = LoadMapping(path)
	if err == nil || !strings.Contains(err.Error(), path) || !strings.Contains(err.Error(), "bogus") {
		t.Errorf("error %v should name %s and the field", err, path)
	}
}

// mutated returns the default mapping as JSON after edit.
func mutated(t *testing.T, edit func(m *Mapping)) []byte {
	t.Helper()
	m := DefaultMapping()
	edit(m)
	data, err := json.Marshal(m)
	if err != nil {
		t.Fatal(err)
	}
	return data
}

func TestMappingErrors(t *testing.T) {
	def := string(DefaultMappingJSON())
	tests := []struct {
		name string
		data []byte
		want []string // all must appear in the error
	}{
		{"missing required door", mutated(t, func(m *Mapping) { m.Doors = m.Doors[:4] }),
			[]string{"test.json", "doors", `"door_drop"`, "missing"}},
		{"missing required meter", mutated(t, func(m *Mapping) { m.Meters = m.Meters[1:] }),
			[]string{"test.json", "meters", `"meter_coin_in"`}},
		{"duplicate pin", mutated(t, func(m *Mapping) { m.Doors[2].Pin = "SIM_SPIN" }),
			[]string{"test.json", "doors[2].pin", `"SIM_SPIN"`, "buttons[0] (spin)"}},
		{"duplicate pin across outputs", mutated(t, func(m *Mapping) { m.Meters[4].Pin = m.Lamps[1].Pin }),
			[]string{"meters[4].pin", "lamps[1] (lamp_cash_out)"}},
		{"duplicate name", mutated(t, func(m *Mapping) { m.Buttons[1].Name = "spin" }),
			[]string{"buttons[1].name", `"spin" already mapped at buttons[0]`}},
		{"unknown name", mutated(t, func(m *Mapping) { m.Buttons[1].Name = "spinn" }),
			[]string{"buttons[1].name", `unknown logical name "spinn"`}},
		{"wrong section", mutated(t, func(m *Mapping) { m.Keys[0].Name = "door_main" }),
			[]string{"keys[0].name", `"door_main" belongs in "doors"`}},
		{"empty pin", mutated(t, func(m *Mapping) { m.Lamps[0].Pin = "" }),
			[]string{"lamps[0].pin", "missing"}},
		{"debounce out of range", mutated(t, func(m *Mapping) { m.Doors[0].DebounceMS = 5000 }),
			[]string{"doors[0].debounce_ms", "5000"}},
		{"bad pull", mutated(t, func(m *Mapping) { m.Keys[1].Pull = "sideways" }),
			[]string{"keys[1].pull", "sideways"}},
		{"pulse out of range", mutated(t, func(m *Mapping) { m.Meters[2].PulseMS = -1 }),
			[]string{"meters[2].pulse_ms"}},
		{"unknown field in entry", []byte(strings.Replace(def, `"name": "bet_up",`, `"name": "bet_up", "colour": "red",`, 1)),
			[]string{"test.json", "buttons[1].colour", "unknown field"}},
		{"unknown top-level field", []byte(strings.Replace(def, `"buttons":`, `"hoppers": [], "buttons":`, 1)),
			[]string{"test.json", "hoppers", "unknown field"}},
		{"duplicate key", []byte(strings.Replace(def, `"pin": "SIM_HELP",`, `"pin": "SIM_HELP", "pin": "SIM_X",`, 1)),
			[]string{"test.json", "buttons[5].pin", "duplicate key"}},
		{"wrong type", []byte(strings.Replace(def, `"debounce_ms": 20}`, `"debounce_ms": "20"}`, 1)),
			[]string{"test.json", "debounce_ms"}},
		{"trailing data", []byte(def + "{}"), []string{"test.json", "trailing"}},
		{"not an object", []byte(`[]`), []string{"test.json", "object"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := ParseMapping("test.json", tc.data)
			if err == nil {
				t.Fatal("no error")
			}
			for _, w := range tc.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error %q lacks %q", err, w)
				}
			}
		})
	}
}
