// Package control is the cabinet's control-socket protocol: one JSON
// command a line in, one JSON reply a line out. The cabinet serves it; the
// screen process, the simulator's tests and the end-to-end tests speak it.
package control

import "github.com/openegm/cabinet/machine"

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
}

// Reply is the cabinet's answer line.
type Reply struct {
	OK      bool                  `json:"ok"`
	Error   string                `json:"error,omitempty"`
	Refused string                `json:"refused,omitempty"`
	View    *machine.View         `json:"view,omitempty"`
	Meters  map[string]int64      `json:"meters,omitempty"`
	Tickets []machine.PrintTicket `json:"tickets,omitempty"`
}
