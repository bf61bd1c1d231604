package reels

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"testing"
)

// mutate applies f to the decoded rulesTable and re-encodes it.
func mutate(t *testing.T, f func(m map[string]any)) []byte {
	t.Helper()
	var m map[string]any
	if err := json.Unmarshal([]byte(rulesTable), &m); err != nil {
		t.Fatal(err)
	}
	f(m)
	data, err := json.Marshal(m)
	if err != nil {
		t.Fatal(err)
	}
	return data
}

func TestParseRefusals(t *testing.T) {
	sym := func(m map[string]any, i int) map[string]any { return m["symbols"].([]any)[i].(map[string]any) }
	cases := []struct {
		name   string
		data   []byte
		field  string
		detail string
	}{
		{"unknown field", mutate(t, func(m map[string]any) { m["colour"] = "blue" }), "(json)", `unknown field "colour"`},
		{"unknown symbol on a strip", mutate(t, func(m map[string]any) { m["reels"].([]any)[2].([]any)[5] = "Z" }), "reels[2][5]", `"Z"`},
		{"line of the wrong length", mutate(t, func(m map[string]any) { m["lines"].([]any)[1] = []any{1, 1, 1} }), "lines[1]", "3 positions"},
		{"row out of range", mutate(t, func(m map[string]any) { m["lines"].([]any)[2].([]any)[3] = 3 }), "lines[2][3]", "row out of range"},
		{"two wilds", mutate(t, func(m map[string]any) { sym(m, 3)["kind"] = "wild" }), "symbols[3].kind", "second wild"},
		{"empty strip", mutate(t, func(m map[string]any) { m["reels"].([]any)[4] = []any{} }), "reels[4]", "empty reel strip"},
		{"bet choices not ascending", mutate(t, func(m map[string]any) { m["credits_per_line"] = []any{1, 5, 5} }), "credits_per_line[2]", "ascending"},
		{"bet choice zero", mutate(t, func(m map[string]any) { m["credits_per_line"] = []any{0, 5} }), "credits_per_line[0]", "must be 1"},
		{"too few reels", mutate(t, func(m map[string]any) { m["reels"] = m["reels"].([]any)[:2] }), "reels", "3 to 6"},
		{"rows out of range", mutate(t, func(m map[string]any) { m["rows"] = 6 }), "rows", "1 to 5"},
		{"unknown kind", mutate(t, func(m map[string]any) { sym(m, 2)["kind"] = "bonus" }), "symbols[2].kind", `"bonus"`},
		{"duplicate symbol", mutate(t, func(m map[string]any) { sym(m, 3)["id"] = "A" }), "symbols[3].id", "declared twice"},
		{"missing English name", mutate(t, func(m map[string]any) { delete(sym(m, 2)["name"].(map[string]any), "en") }), "symbols[2].name.en", "missing"},
		{"scatter on a line", mutate(t, func(m map[string]any) {
			m["line_pays"] = append(m["line_pays"].([]any), map[string]any{"symbol": "S", "count": 3, "pays": 2})
		}), "line_pays[6].symbol", "scatter"},
		{"duplicate line pay", mutate(t, func(m map[string]any) {
			m["line_pays"] = append(m["line_pays"].([]any), map[string]any{"symbol": "A", "count": 3, "pays": 7})
		}), "line_pays[6]", "same combination"},
		{"line count above reels", mutate(t, func(m map[string]any) { m["line_pays"].([]any)[0].(map[string]any)["count"] = 6 }), "line_pays[0].count", "1 to 5"},
		{"fractional pay", mutate(t, func(m map[string]any) { m["line_pays"].([]any)[0].(map[string]any)["pays"] = 1.5 }), "(json)", "line_pays.pays"},
		{"negative pay", mutate(t, func(m map[string]any) { m["line_pays"].([]any)[0].(map[string]any)["pays"] = -2 }), "line_pays[0].pays", "-2"},
		{"scatter pay on a normal symbol", mutate(t, func(m map[string]any) { m["scatter_pays"].([]any)[0].(map[string]any)["symbol"] = "A" }), "scatter_pays[0].symbol", "not a scatter"},
		{"trigger not a scatter", mutate(t, func(m map[string]any) { m["free_games"].(map[string]any)["symbol"] = "W" }), "free_games.symbol", "scatter"},
		{"zero multiplier", mutate(t, func(m map[string]any) { m["free_games"].(map[string]any)["multiplier"] = 0 }), "free_games.multiplier", "0"},
		{"free reels of another shape", mutate(t, func(m map[string]any) {
			m["free_games"].(map[string]any)["reels"] = m["reels"].([]any)[:4]
		}), "free_games.reels", "4"},
		{"unknown start", mutate(t, func(m map[string]any) { m["free_games"].(map[string]any)["start"] = "later" }), "free_games.start", "press"},
		{"missing retrigger", mutate(t, func(m map[string]any) { delete(m["free_games"].(map[string]any), "retrigger") }), "free_games.retrigger", "missing"},
		{"unused symbol", mutate(t, func(m map[string]any) {
			m["symbols"] = append(m["symbols"].([]any), map[string]any{"id": "D", "kind": "normal", "name": map[string]any{"pt": "D", "en": "D"}})
		}), "symbols[5]", "no reel strip"},
		{"duplicate key", []byte(strings.Replace(rulesTable, `"rows": 3,`, `"rows": 3, "rows": 5,`, 1)), "(json)", `"rows" appears twice`},
		{"trailing data", append([]byte(rulesTable), []byte(` {}`)...), "(json)", "extra data"},
		{"not JSON", []byte(`{"id": "x",`), "(json)", "malformed"},
		{"empty file", []byte(``), "(json)", "empty"},
		{"too many symbol tuples", func() []byte {
			var syms, strip []string
			for i := range 32 {
				id := fmt.Sprintf("X%d", i)
				syms = append(syms, fmt.Sprintf(`{"id":%q,"kind":"normal","name":{"pt":"x","en":"x"}}`, id))
				strip = append(strip, fmt.Sprintf("%q", id))
			}
			st := "[" + strings.Join(strip, ",") + "]"
			return []byte(`{"id":"big","version":1,"title":{"pt":"x","en":"x"},"rows":1,"symbols":[` + strings.Join(syms, ",") +
				`],"reels":[` + strings.Repeat(st+",", 5) + st + `],"lines":[[0,0,0,0,0,0]],"line_pays":[],"credits_per_line":[1]}`)
		}(), "reels", "1073741824"},
		{"deep nesting", []byte(`{"reels":` + strings.Repeat("[", 100000) + strings.Repeat("]", 100000) + `}`), "(json)", "nested deeper than 16"},
		{"bad id", mutate(t, func(m map[string]any) { m["id"] = "Lusitânia 94" }), "id", "lower-case"},
	}
	for _, c := range cases {
		_, err := Parse("games/x.json", c.data)
		if err == nil {
			t.Errorf("%s: accepted", c.name)
			continue
		}
		var pe *Error
		if !errors.As(err, &pe) {
			t.Errorf("%s: error %T %v is not a paytable error", c.name, err, err)
			continue
		}
		msg := err.Error()
		if pe.File != "games/x.json" || !strings.HasPrefix(msg, "games/x.json: ") {
			t.Errorf("%s: %q does not name the file", c.name, msg)
		}
		if pe.Field != c.field {
			t.Errorf("%s: field %q, want %q (%s)", c.name, pe.Field, c.field, msg)
		}
		if !strings.Contains(msg, c.detail) {
			t.Errorf("%s: %q does not say %q", c.name, msg, c.detail)
		}
	}
}

func TestParseAcceptsTheSpecExampleShape(t *testing.T) {
	p := mustParse(t, "rules.json", rulesTable)
	if p.Wild != 0 || len(p.Reels) != 5 || len(p.Lines) != 3 || p.Free == nil || p.Free.OwnReels {
		t.Fatalf("parsed %+v", p)
	}
	if p.Bet(2) != 15 {
		t.Fatalf("bet at level 2 = %d, want 3 lines × 5", p.Bet(2))
	}
}

// A feature's start is the file's optional free_games.start: "press"
// waits for the player, "auto" or nothing (every file signed before the
// field) also starts on its own; no figure depends on it.
func TestParseFreeGamesStart(t *testing.T) {
	if p := mustParse(t, "rules.json", rulesTable); p.Free.Press {
		t.Error("a file without free_games.start waits for a press")
	}
	for start, press := range map[string]bool{"auto": false, "press": true} {
		data := mutate(t, func(m map[string]any) { m["free_games"].(map[string]any)["start"] = start })
		p, err := Parse("x.json", data)
		if err != nil {
			t.Fatalf("start %q: %v", start, err)
		}
		if p.Free.Press != press {
			t.Errorf("start %q: press %v", start, p.Free.Press)
		}
	}
}

// FuzzParse: no input panics the loader, and every refusal is a paytable
// error naming the file. Accepted inputs must evaluate and count without
// panicking.
func FuzzParse(f *testing.F) {
	f.Add([]byte(rulesTable))
	for _, src := range smallTables {
		f.Add([]byte(src))
	}
	f.Add([]byte(`{}`))
	f.Add([]byte(`[]`))
	f.Add([]byte(`{"rows": 3, "rows": 3}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		p, err := Parse("fuzz.json", data)
		if err != nil {
			var pe *Error
			if !errors.As(err, &pe) || !strings.HasPrefix(err.Error(), "fuzz.json: ") {
				t.Fatalf("refusal %q is not a named paytable error", err)
			}
			return
		}
		stops := make([]int, len(p.Reels))
		if _, err := p.Evaluate(stops, 0, false); err != nil {
			t.Fatalf("accepted paytable cannot evaluate stops 0: %v", err)
		}
		// Every accepted table can be certified: the RTP terminates (its cost
		// is bounded by MaxTuples), so a valid file never hangs the cabinet.
		if cycleOf(p.Reels) < 1<<16 && (p.Free == nil || cycleOf(p.Free.Reels) < 1<<16) {
			if _, err := p.RTP(); err != nil {
				var pe *Error
				if !errors.As(err, &pe) {
					t.Fatalf("RTP error %v is not a paytable error", err)
				}
			}
		}
	})
}
