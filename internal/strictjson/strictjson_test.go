package strictjson

import (
	"encoding/json"
	"strings"
	"testing"
)

func TestDuplicateKeys(t *testing.T) {
	for name, c := range map[string]struct{ in, want string }{
		"top":       {`{"a": 1, "a": 2}`, `key "a" appears twice in (top)`},
		"nested":    {`{"a": {"b": [1, {"c": 1, "c": 1}]}}`, `key "c" appears twice in (top).a.b[1]`},
		"too deep":  {strings.Repeat("[", 6) + strings.Repeat("]", 6), "nested deeper than 4 levels"},
		"empty":     {"  ", "empty file"},
		"fine":      {`{"a": 1, "b": {"a": 2}}`, ""},
		"malformed": {`{"a": 1,`, ""}, // left to the typed decode
	} {
		err := DuplicateKeys([]byte(c.in), 4)
		if c.want == "" && err != nil || c.want != "" && (err == nil || !strings.Contains(err.Error(), c.want)) {
			t.Errorf("%s: got %v, want %q", name, err, c.want)
		}
	}
}

func TestProblemNamesTheField(t *testing.T) {
	var v struct {
		Decks int `json:"decks"`
	}
	err := json.Unmarshal([]byte(`{"decks": "eight"}`), &v)
	if got := Problem(err); !strings.Contains(got, `field "decks"`) || !strings.Contains(got, "string") {
		t.Fatalf("%q", got)
	}
}
