package control

import (
	"encoding/json"
	"regexp"
	"strings"
	"testing"

	"github.com/openegm/cabinet/machine"
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

// Every key of the socket's replies is lower snake case, the style of the
// view and of meterread's JSON: a reply with every part filled.
func TestReplyKeysAreSnakeCase(t *testing.T) {
	v := machine.View{MachineID: "EGM-1", Message: machine.Message{Key: "msg_win", Args: []int64{1}},
		Service: &machine.ServiceView{Verdict: &machine.Verdict{OK: true}, ProgramApproved: &machine.Approval{Name: "x"},
			Events: []machine.ViewEvent{{Kind: "bill"}}, Recall: []machine.Recall{{Spins: []machine.RecallSpin{{Scatters: []machine.ViewScatter{{Symbol: "S"}}}}}}},
		Jackpots: []machine.JackpotView{{Level: 1}}, Scatters: []machine.ViewScatter{{Symbol: "S"}}, Lines: []machine.ViewLine{{Line: 1}}}
	r := Reply{OK: true, View: &v, Meters: map[string]int64{"x": 1},
		Tickets:  []machine.PrintTicket{{Validation: "1", Cents: 5}},
		Receipts: []machine.PrintReceipt{{Kind: "win", Cents: 5}}}
	b, err := json.Marshal(r)
	if err != nil {
		t.Fatal(err)
	}
	var walk func(x any)
	walk = func(x any) {
		switch x := x.(type) {
		case map[string]any:
			for k, e := range x {
				if k != "x" && !regexp.MustCompile(`^[a-z0-9_]+$`).MatchString(k) {
					t.Errorf("reply key %q is not lower snake case", k)
				}
				walk(e)
			}
		case []any:
			for _, e := range x {
				walk(e)
			}
		}
	}
	var generic any
	json.Unmarshal(b, &generic)
	walk(generic)
}
