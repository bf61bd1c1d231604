// Package machine is the cabinet's heart: one deterministic state machine for
// play, money, tilts and doors. Events come in (buttons, doors, bills, the
// printer, the host, timer ticks with the time); effects come out (records
// to commit, device commands) and a View describes what to show. There is no
// clock, goroutine or I/O inside; the random numbers come from the injected
// certified RNG. The owner (cmd/cabinet) commits Effects.Records to the
// ledger before it performs anything else in Effects or shows the View
// (DESIGN rule 1, commit before show).
package machine

import (
	"time"

	"github.com/openegm/cabinet/meters"
)

// Event is an input of the machine.
type Event interface{ at() time.Time }

// SelfTest is what the start-up checks at the edges found; an empty string
// means the check passed.
type SelfTest struct {
	// ProgramHash identifies the running program image (BLAKE2b-256, hex).
	ProgramHash string
	Program     string // program integrity
	// ProgramApproval says how the program's hash was approved (the signed
	// list and the lab's name for it), or that it was not checked.
	ProgramApproval string
	// Approved is the approval found in the signed list (nil: the program
	// was not checked against one), for the screens to say in their
	// language.
	Approved *Approval
	Paytable string // signature, strict parse, RTP rule
	RNG      string // RNG known-answer and health tests
}

// Approval is a program found in the signed list of approved programs.
type Approval struct {
	Name  string `json:"name"`   // the lab's name for the program
	List  string `json:"list"`   // the list's file
	KeyID string `json:"key_id"` // the key that signed the list
}

// PowerUp is the first event after the program starts.
type PowerUp struct {
	At    time.Time
	Tests SelfTest
	// Devices is what the money devices remember across the power loss:
	// the machine settles the orders the ledger left open with it.
	Devices DeviceStatus
	// PriorFault is a meter fault from before this start, kept outside the
	// ledger (which could not record it then): it becomes a tilt that only
	// a technician clears.
	PriorFault string
	// Settings are the operator's settings given at start-up (the command
	// line), validated by the caller; a value that differs from the one
	// given at the previous start is recorded and applied.
	Settings map[string]string
	// Evidence is what start-up found changed behind the machine's back
	// (a forged snapshot, a data directory rolled back, a witness that does
	// not match): each is a tilt only a technician clears.
	Evidence []Tamper
}

// Tamper is evidence that the data was changed behind the machine's back:
// Tilt is one of TiltLedger, TiltRollback, TiltWitness; Detail names what
// was found (both heads, the file).
type Tamper struct {
	At     time.Time
	Tilt   string
	Detail string
}

func (e Tamper) at() time.Time { return e.At }

// DeviceStatus is what the bill validator and the printer report when the
// machine powers up.
type DeviceStatus struct {
	// LastStacked is the validator's last stacked order (0: none).
	LastStacked uint64
	// PrinterFault is why the printer cannot print ("" when it can).
	PrinterFault string
}

// PowerDown is an orderly shutdown (the cabinet's power switch, SIGTERM).
// A power loss has none: the next power-up then follows no power-down in the
// log, which is how the inspector tells them apart.
type PowerDown struct{ At time.Time }

// Tick carries the time; the machine advances animations and timeouts on it.
type Tick struct{ At time.Time }

// Buttons of the cabinet.
const (
	BtnSpin     = "spin"
	BtnBetUp    = "bet_up"
	BtnBetDown  = "bet_down"
	BtnMaxBet   = "max_bet"
	BtnCashOut  = "cash_out"
	BtnHelp     = "help"
	BtnLanguage = "language"
)

// Button is a player button pressed.
type Button struct {
	At   time.Time
	Name string
}

// Keys of the cabinet.
const (
	KeyAttendant = "attendant_key"
)

// Key is a key switch turned on or off; Who identifies the key holder (the
// attendant's key or card number), recorded with what the key does.
type Key struct {
	At  time.Time
	Key string
	On  bool
	Who string
}

// Door is a door switch; Door is one of the meters.Door* names.
type Door struct {
	At   time.Time
	Door string
	Open bool
}

// BillEscrowed is a valid note held in the validator's escrow: the machine
// orders it stacked (after recording the order) or returned.
type BillEscrowed struct {
	At    time.Time
	Cents int64
}

// BillStacked is a bill the validator put into the stacker, by the
// machine's StackBill order (Order 0: a validator that stacks on its own).
type BillStacked struct {
	At    time.Time
	Cents int64
	Order uint64
}

// BillRejected is a bill the validator returned; Order is the StackBill
// order it ends, if any.
type BillRejected struct {
	At     time.Time
	Cents  int64
	Reason string
	Order  uint64
}

// BillJam and BillJamCleared report the validator's jam.
type BillJam struct{ At time.Time }
type BillJamCleared struct{ At time.Time }

// TicketPrinted confirms the printer printed a ticket.
type TicketPrinted struct {
	At         time.Time
	Validation string
}

// PrinterFault and PrinterOK report the printer's state. Validation is the
// ticket the fault stopped, if one was printing.
type PrinterFault struct {
	At         time.Time
	Reason     string
	Validation string
}
type PrinterOK struct{ At time.Time }

// Host commands (SAS long polls 0x01/0x02).
const (
	HostDisable      = "disable"
	HostEnable       = "enable"
	HostBillsDisable = "bills_disable" // SAS 0x07
	HostBillsEnable  = "bills_enable"  // SAS 0x06
	HostSoundOff     = "sound_off"     // SAS 0x03
	HostSoundOn      = "sound_on"      // SAS 0x04
)

// HostCommand is an order from the casino host.
type HostCommand struct {
	At  time.Time
	Cmd string
}

// HostBillDenominations is SAS long poll 0x08: the notes the host lets the
// bill acceptor take, in cents (nil: every note), and whether the acceptor
// turns itself off after each accepted bill until the host turns it on
// again (0x06). Like 0x06/0x07 it is a host setting, not kept across a
// restart.
type HostBillDenominations struct {
	At                 time.Time
	Accept             []int64
	DisableAfterAccept bool
}

func (e HostBillDenominations) at() time.Time { return e.At }

// LinkBroadcast is progressive information from the link controller (SAS
// long polls 0x80 and 0x86): the current value of linked levels, in cents,
// whether the poll went to every machine or to this one. (An addressed
// 0x80 for a level with a reported hit is a LinkConfirm.)
type LinkBroadcast struct {
	At     time.Time
	Values map[int]int64
}

// LedgerVerdict is the owner's answer to InspectLedger: the verification
// of the ledger (as meterread verify) and, when asked, where the signed
// report was written.
type LedgerVerdict struct {
	At time.Time
	Verdict
}

// Verdict is a ledger verification as the service screen shows it.
type Verdict struct {
	Running  bool     `json:"running,omitempty"`
	OK       bool     `json:"ok"`
	Summary  string   `json:"summary"`
	Problems []string `json:"problems,omitempty"`
	Report   string   `json:"report,omitempty"` // file of the exported report (its signature: .sig beside it)
	// ReportJSON is the same report as JSON, signed the same way.
	ReportJSON string `json:"report_json,omitempty"`
	// What was checked, for the screens to say in their language: the
	// records read, the signed checkpoints found valid, the machine key
	// and the last record's hash.
	Records     uint64 `json:"records,omitempty"`
	Checkpoints int    `json:"checkpoints,omitempty"`
	KeyID       string `json:"key_id,omitempty"`
	LastHash    string `json:"last_hash,omitempty"`
}

// LedgerFault tells the machine a commit failed (or a meter could not be
// kept): its meters can no longer be vouched for, so it must not play
// (regulation rule 9). Committed is the ledger's state, what is durable:
// the machine goes back to it, so nothing a failed commit carried is shown.
type LedgerFault struct {
	At        time.Time
	Err       string
	Committed *meters.State
}

func (e PowerUp) at() time.Time        { return e.At }
func (e Tick) at() time.Time           { return e.At }
func (e PowerDown) at() time.Time      { return e.At }
func (e Button) at() time.Time         { return e.At }
func (e Key) at() time.Time            { return e.At }
func (e Door) at() time.Time           { return e.At }
func (e BillStacked) at() time.Time    { return e.At }
func (e BillEscrowed) at() time.Time   { return e.At }
func (e BillRejected) at() time.Time   { return e.At }
func (e BillJam) at() time.Time        { return e.At }
func (e BillJamCleared) at() time.Time { return e.At }
func (e TicketPrinted) at() time.Time  { return e.At }
func (e PrinterFault) at() time.Time   { return e.At }
func (e PrinterOK) at() time.Time      { return e.At }
func (e HostCommand) at() time.Time    { return e.At }
func (e LedgerFault) at() time.Time    { return e.At }
func (e LinkBroadcast) at() time.Time  { return e.At }
func (e LedgerVerdict) at() time.Time  { return e.At }

// Device commands the owner carries out after the records are committed.
type Device interface{ device() }

// PrintTicket asks the printer for a cash-out ticket. A reprint carries the
// first copy's validation number and says REPRINT on the paper.
type PrintTicket struct {
	Validation string    `json:"validation"`
	Cents      int64     `json:"cents"`
	MachineID  string    `json:"machine_id"`
	At         time.Time `json:"at"`
	Reprint    bool      `json:"reprint,omitempty"`
	// Style is how Validation was made ("": a development number); the
	// rest is what the host set for tickets (0x7D) and the ticket's number.
	Style      string   `json:"style,omitempty"`
	TicketNo   uint16   `json:"ticket_no,omitempty"`
	ExpiryDays uint16   `json:"expiry_days,omitempty"`
	Casino     string   `json:"casino,omitempty"`
	Address    []string `json:"address,omitempty"`
	// Kind meters.KindRestricted: a restricted promotional ticket, of
	// Pool, expiring on Expiration (a date MMDDYYYY; 0: in ExpiryDays).
	Kind       string `json:"kind,omitempty"`
	Pool       uint16 `json:"pool,omitempty"`
	Expiration uint32 `json:"expiration,omitempty"`
}

// StackBill orders the validator to stack the note in escrow under Order
// (committed first as a meters.BillEscrow).
type StackBill struct {
	Order uint64
	Cents int64
}

// ReturnBill orders the validator to give back the note in escrow, if it
// holds one; Order is the stack order it ends (0: none was given).
type ReturnBill struct {
	Order  uint64
	Reason string
}

func (StackBill) device()  {}
func (ReturnBill) device() {}

// InspectLedger asks the owner to verify the ledger (and with Export, to
// write the signed report) for the service menu; it answers with a
// LedgerVerdict.
type InspectLedger struct {
	Export bool
	Who    string
}

func (InspectLedger) device() {}

// EnableBills turns the bill validator on or off. Accept, when not nil, is
// the notes (cents) it may take; the others it returns.
type EnableBills struct {
	On     bool
	Accept []int64
}

func (PrintTicket) device() {}
func (EnableBills) device() {}

// Presented is the screen's word that it has shown the presentation ID
// (View.Present.ID) to its end, or that the player cut a win's celebration
// short. A stale or unknown ID is ignored (present.go).
type Presented struct {
	At time.Time
	ID uint64
}

func (e Presented) at() time.Time { return e.At }
