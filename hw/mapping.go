package hw

import (
	"bytes"
	_ "embed"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"strconv"
	"time"
)

// Logical names of the cabinet's devices. The glue in cmd/cabinet maps these
// names to machine events; the mapping file maps them to pins.
var (
	buttonNames = []string{"spin", "bet_up", "bet_down", "max_bet", "cash_out", "help", "language"}
	keyNames    = []string{"attendant_key", "jackpot_reset_key"}
	doorNames   = []string{"door_main", "door_logic", "door_cashbox", "door_belly", "door_drop"}
	lampNames   = []string{"lamp_spin", "lamp_cash_out", "lamp_bet", "tower_top", "tower_bottom"}
	meterNames  = []string{"meter_coin_in", "meter_coin_out", "meter_drop", "meter_jackpot", "meter_games"}
)

// InputNames returns the logical names of every input (buttons, key switches,
// doors), in mapping order. For a button Active means pressed, for a key switch
// turned on, for a door open.
func InputNames() []string {
	return append(append(append([]string(nil), buttonNames...), keyNames...), doorNames...)
}

// LampNames returns the logical names of the lamp outputs (tower included).
func LampNames() []string { return append([]string(nil), lampNames...) }

// MeterNames returns the logical names of the electromechanical meters.
func MeterNames() []string { return append([]string(nil), meterNames...) }

// Debounce defaults, used when an input's debounce_ms is 0 or absent.
const (
	DefaultButtonDebounce = 20 * time.Millisecond
	DefaultKeyDebounce    = 50 * time.Millisecond
	DefaultDoorDebounce   = 50 * time.Millisecond
	// DefaultPulseWidth and DefaultPulseGap are used when a meter's pulse_ms
	// or gap_ms is 0 or absent.
	DefaultPulseWidth = 50 * time.Millisecond
	DefaultPulseGap   = 50 * time.Millisecond

	maxDebounceMS = 1000
	maxPulseMS    = 1000
)

// InputPin maps one input to a pin.
type InputPin struct {
	Name      string `json:"name"`
	Pin       string `json:"pin"`
	ActiveLow bool   `json:"active_low"`
	// DebounceMS is how long the level must be steady before it counts;
	// 0 means the default for the section (1..1000 otherwise).
	DebounceMS int `json:"debounce_ms"`
	// Pull is "up", "down" or "float"; empty means "up" for active-low
	// inputs and "down" otherwise.
	Pull string `json:"pull,omitempty"`
}

// OutputPin maps one lamp to a pin.
type OutputPin struct {
	Name      string `json:"name"`
	Pin       string `json:"pin"`
	ActiveLow bool   `json:"active_low"`
}

// MeterPin maps one electromechanical meter to a pin.
type MeterPin struct {
	Name      string `json:"name"`
	Pin       string `json:"pin"`
	ActiveLow bool   `json:"active_low"`
	PulseMS   int    `json:"pulse_ms"` // 0 means DefaultPulseWidth
	GapMS     int    `json:"gap_ms"`   // 0 means DefaultPulseGap
}

// Mapping is the device map of one cabinet: which pin carries which logical
// input or output. It is loaded from a strict JSON file.
type Mapping struct {
	// Source names the file the mapping came from; it prefixes every error.
	Source  string      `json:"-"`
	Buttons []InputPin  `json:"buttons"`
	Keys    []InputPin  `json:"keys"`
	Doors   []InputPin  `json:"doors"`
	Lamps   []OutputPin `json:"lamps"`
	Meters  []MeterPin  `json:"meters"`
}

//go:embed default_mapping.json
var defaultMappingJSON []byte

// DefaultMappingSource is the Source of the embedded default mapping.
const DefaultMappingSource = "hw/default_mapping.json (embedded)"

// DefaultMappingJSON returns a copy of the embedded default mapping file, which
// maps every device to a simulated pin (SIM_SPIN, SIM_DOOR_MAIN, ...).
func DefaultMappingJSON() []byte { return bytes.Clone(defaultMappingJSON) }

// DefaultMapping returns the embedded mapping used by the simulator. It panics
// if the embedded file is invalid (a build defect caught by the tests).
func DefaultMapping() *Mapping {
	m, err := ParseMapping(DefaultMappingSource, defaultMappingJSON)
	if err != nil {
		panic(err)
	}
	return m
}

// LoadMapping reads and validates a mapping file.
func LoadMapping(path string) (*Mapping, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("hw: mapping: %w", err)
	}
	return ParseMapping(path, data)
}

// ParseMapping parses and validates a mapping. source names the file in
// errors. Unknown fields, duplicate keys, trailing data, missing or unknown
// logical names, and pins used twice are all errors naming the file and field.
func ParseMapping(source string, data []byte) (*Mapping, error) {
	if err := checkMappingShape(data); err != nil {
		return nil, fmt.Errorf("%s: %w", source, err)
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	var m Mapping
	if err := dec.Decode(&m); err != nil {
		return nil, fmt.Errorf("%s: %w", source, err)
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, fmt.Errorf("%s: trailing data after the mapping object", source)
	}
	m.Source = source
	if err := m.Validate(); err != nil {
		return nil, err
	}
	return &m, nil
}

// Validate checks that every required logical name is present exactly once, in
// its own section, that no pin is used twice and that timings are in range.
func (m *Mapping) Validate() error {
	src := m.Source
	if src == "" {
		src = "mapping"
	}
	fail := func(field, format string, a ...any) error {
		return fmt.Errorf("%s: %s: %s", src, field, fmt.Sprintf(format, a...))
	}
	section := map[string]string{}
	for _, n := range buttonNames {
		section[n] = "buttons"
	}
	for _, n := range keyNames {
		section[n] = "keys"
	}
	for _, n := range doorNames {
		section[n] = "doors"
	}
	for _, n := range lampNames {
		section[n] = "lamps"
	}
	for _, n := range meterNames {
		section[n] = "meters"
	}
	seenName := map[string]string{} // logical name -> field
	seenPin := map[string]string{}  // pin -> field (name)
	check := func(sec string, i int, name, pin string) error {
		field := fmt.Sprintf("%s[%d]", sec, i)
		if name == "" {
			return fail(field+".name", "missing")
		}
		want, ok := section[name]
		if !ok {
			return fail(field+".name", "unknown logical name %q", name)
		}
		if want != sec {
			return fail(field+".name", "%q belongs in %q, not %q", name, want, sec)
		}
		if prev, dup := seenName[name]; dup {
			return fail(field+".name", "%q already mapped at %s", name, prev)
		}
		seenName[name] = field
		if pin == "" {
			return fail(field+".pin", "missing for %q", name)
		}
		if prev, dup := seenPin[pin]; dup {
			return fail(field+".pin", "pin %q of %q already used by %s", pin, name, prev)
		}
		seenPin[pin] = fmt.Sprintf("%s (%s)", field, name)
		return nil
	}
	inputs := []struct {
		sec  string
		pins []InputPin
	}{{"buttons", m.Buttons}, {"keys", m.Keys}, {"doors", m.Doors}}
	for _, s := range inputs {
		for i, p := range s.pins {
			if err := check(s.sec, i, p.Name, p.Pin); err != nil {
				return err
			}
			if p.DebounceMS < 0 || p.DebounceMS > maxDebounceMS {
				return fail(fmt.Sprintf("%s[%d].debounce_ms", s.sec, i), "%d out of range 0..%d", p.DebounceMS, maxDebounceMS)
			}
			switch p.Pull {
			case "", "up", "down", "float":
			default:
				return fail(fmt.Sprintf("%s[%d].pull", s.sec, i), "%q is not one of up, down, float", p.Pull)
			}
		}
	}
	for i, p := range m.Lamps {
		if err := check("lamps", i, p.Name, p.Pin); err != nil {
			return err
		}
	}
	for i, p := range m.Meters {
		if err := check("meters", i, p.Name, p.Pin); err != nil {
			return err
		}
		if p.PulseMS < 0 || p.PulseMS > maxPulseMS {
			return fail(fmt.Sprintf("meters[%d].pulse_ms", i), "%d out of range 0..%d", p.PulseMS, maxPulseMS)
		}
		if p.GapMS < 0 || p.GapMS > maxPulseMS {
			return fail(fmt.Sprintf("meters[%d].gap_ms", i), "%d out of range 0..%d", p.GapMS, maxPulseMS)
		}
	}
	for _, sec := range []string{"buttons", "keys", "doors", "lamps", "meters"} {
		for _, n := range namesOf(sec) {
			if _, ok := seenName[n]; !ok {
				return fail(sec, "missing required %q", n)
			}
		}
	}
	return nil
}

func namesOf(sec string) []string {
	switch sec {
	case "buttons":
		return buttonNames
	case "keys":
		return keyNames
	case "doors":
		return doorNames
	case "lamps":
		return lampNames
	case "meters":
		return meterNames
	}
	return nil
}

// debounce returns the effective debounce window of an input in section sec.
func (p InputPin) debounce(sec string) time.Duration {
	if p.DebounceMS > 0 {
		return time.Duration(p.DebounceMS) * time.Millisecond
	}
	switch sec {
	case "keys":
		return DefaultKeyDebounce
	case "doors":
		return DefaultDoorDebounce
	}
	return DefaultButtonDebounce
}

func (p MeterPin) widths() (width, gap time.Duration) {
	width, gap = DefaultPulseWidth, DefaultPulseGap
	if p.PulseMS > 0 {
		width = time.Duration(p.PulseMS) * time.Millisecond
	}
	if p.GapMS > 0 {
		gap = time.Duration(p.GapMS) * time.Millisecond
	}
	return width, gap
}

// Shape check: a token walk that names the exact path of an unknown field or
// a duplicate key (encoding/json silently keeps the last duplicate).

var mappingFields = map[string]map[string]bool{
	"":        {"buttons": true, "keys": true, "doors": true, "lamps": true, "meters": true},
	"buttons": {"name": true, "pin": true, "active_low": true, "debounce_ms": true, "pull": true},
	"keys":    {"name": true, "pin": true, "active_low": true, "debounce_ms": true, "pull": true},
	"doors":   {"name": true, "pin": true, "active_low": true, "debounce_ms": true, "pull": true},
	"lamps":   {"name": true, "pin": true, "active_low": true},
	"meters":  {"name": true, "pin": true, "active_low": true, "pulse_ms": true, "gap_ms": true},
}

func checkMappingShape(data []byte) error {
	dec := json.NewDecoder(bytes.NewReader(data))
	tok, err := dec.Token()
	if err != nil {
		return err
	}
	if d, ok := tok.(json.Delim); !ok || d != '{' {
		return errors.New("mapping must be a JSON object")
	}
	return walkObject(dec, "", "")
}

// walkObject walks the members of an object whose '{' was consumed. path is
// the printable path, sec the section whose field set applies.
func walkObject(dec *json.Decoder, path, sec string) error {
	seen := map[string]bool{}
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return err
		}
		key := tok.(string)
		field := key
		if path != "" {
			field = path + "." + key
		}
		if seen[key] {
			return fmt.Errorf("%s: duplicate key", field)
		}
		seen[key] = true
		if !mappingFields[sec][key] {
			return fmt.Errorf("%s: unknown field", field)
		}
		childSec := ""
		if path == "" {
			childSec = key
		}
		if err := walkValue(dec, field, childSec); err != nil {
			return err
		}
	}
	_, err := dec.Token() // '}'
	return err
}

func walkValue(dec *json.Decoder, path, sec string) error {
	tok, err := dec.Token()
	if err != nil {
		return err
	}
	d, ok := tok.(json.Delim)
	if !ok {
		return nil
	}
	switch d {
	case '{':
		return walkObject(dec, path, sec)
	case '[':
		for i := 0; dec.More(); i++ {
			if err := walkValue(dec, path+"["+strconv.Itoa(i)+"]", sec); err != nil {
				return err
			}
		}
		_, err := dec.Token() // ']'
		return err
	}
	return nil
}
