package control

import (
	"strings"
	"testing"
)

func TestParseCommandIsStrict(t *testing.T) {
	c, err := ParseCommand([]byte(`{"cmd":"bill","cents":5000}`))
	if err != nil || c.Cmd != "bill" || c.Cents != 5000 {
		t.Fatalf("a plain command: %+v %v", c, err)
	}
	for line, want := range map[string]string{
		`{"cmd":"bill","cents":500,"cents":50000}`: "given twice",
		`{"cmd":"bill","cent":500}`:                "unknown field",
		`{"cmd":"bill"} {"cmd":"state"}`:           "data after",
		`["cmd","bill"]`:                           "one JSON object",
		`{"cmd":"bill","cents":"5000"}`:            "not a command",
		``:                                         "one JSON object",
	} {
		if _, err := ParseCommand([]byte(line)); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: %v, want an error with %q", line, err, want)
		}
	}
}
