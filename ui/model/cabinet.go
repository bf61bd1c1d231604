package model

import (
	"github.com/openegm/cabinet/machine"
	"github.com/openegm/cabinet/reels"
)

// Cabinet is what the screens need from the firmware. Its methods are called
// from the UI's goroutine (the process's main thread) and must be safe to
// call while the cabinet's owner goroutine runs.
type Cabinet interface {
	View() machine.View
	Paytable() *reels.Certified // may be nil
	Press(button string)        // machine.Btn* names, through the simulated pins
	// SetSwitch turns a key switch or door: "attendant_key", "door_main",
	// "door_logic", "door_cashbox", "door_belly", "door_drop", through the
	// same path as the physical switch. Where each is, the view says
	// (View.KeyOn, View.DoorsOpen): the screens keep no copy.
	SetSwitch(name string, on bool)
	InsertBill(cents int64)
	// Service carries the on-screen service Keypad's machine.PINEntry and
	// machine.ServiceAction, and the attendant's machine.HandpayPaid.
	Service(ev machine.Event)
}

// Switch names.
const (
	SwitchKey     = "attendant_key"
	SwitchMain    = "door_main"
	SwitchLogic   = "door_logic"
	SwitchCashbox = "door_cashbox"
	SwitchBelly   = "door_belly"
	SwitchDrop    = "door_drop"
)
