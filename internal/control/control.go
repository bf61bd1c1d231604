// Package control is the cabinet's control-socket protocol: one JSON
// command a line in, one JSON reply a line out. The cabinet serves it; the
// screen process, the simulator's tests and the end-to-end tests speak it.
package control

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/openegm/cabinet/machine"
)

// Command is one line sent to the cabinet.
type Command struct {
	Cmd    string `json:"cmd"`
	Button string `json:"button,omitempty"`
	Cents  int64  `json:"cents,omitempty"`
	Door   string `json:"door,omitempty"`
	Open   bool   `json:"open,omitempty"`
	Key    string `json:"key,omitempty"`
	On     bool   `json:"on,omitempty"`
	Who    string `json:"who,omitempty"`
	Reason string `json:"reason,omitempty"`
	Role   string `json:"role,omitempty"`
	PIN    string `json:"pin,omitempty"`
	Action string `json:"action,omitempty"`
	Value  string `json:"value,omitempty"`
	// ID is the presentation a "presented" command is about
	// (machine.View.Present.ID).
	ID uint64 `json:"id,omitempty"`
}

// Reply is the cabinet's answer line.
type Reply struct {
	OK      bool                  `json:"ok"`
	Error   string                `json:"error,omitempty"`
	Refused string                `json:"refused,omitempty"`
	View    *machine.View         `json:"view,omitempty"`
	Meters  map[string]int64      `json:"meters,omitempty"`
	Tickets []machine.PrintTicket `json:"tickets,omitempty"`
	// Receipts are the handpay receipts printed (simulator).
	Receipts []machine.PrintReceipt `json:"receipts,omitempty"`
}

// MaxLine is the longest command line the cabinet reads; a longer one is
// answered with an error and skipped.
const MaxLine = 64 << 10

// ParseCommand reads one command line strictly: one JSON object of known
// fields, each at most once, and nothing after it. A command that could
// mean two things (a repeated key, a misspelt field silently dropped) is
// an error rather than a guess.
func ParseCommand(line []byte) (Command, error) {
	var c Command
	if err := noDuplicateKeys(line); err != nil {
		return c, err
	}
	dec := json.NewDecoder(bytes.NewReader(line))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&c); err != nil {
		return c, fmt.Errorf("not a command: %w", err)
	}
	if dec.More() {
		return c, errors.New("not a command: data after the JSON object")
	}
	return c, nil
}

// noDuplicateKeys checks that the top-level object names each key once
// (encoding/json keeps the last of two without a word).
func noDuplicateKeys(line []byte) error {
	dec := json.NewDecoder(bytes.NewReader(line))
	if t, err := dec.Token(); err != nil || t != json.Delim('{') {
		return errors.New("not a command: want one JSON object")
	}
	seen := map[string]bool{}
	for dec.More() {
		t, err := dec.Token()
		if err != nil {
			return fmt.Errorf("not a command: %w", err)
		}
		key, _ := t.(string)
		if seen[key] {
			return fmt.Errorf("not a command: key %q given twice", key)
		}
		seen[key] = true
		var skip json.RawMessage
		if err := dec.Decode(&skip); err != nil {
			return fmt.Errorf("not a command: %w", err)
		}
	}
	return nil
}
