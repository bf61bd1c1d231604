// Package demo is a cabinet for the screens without the firmware around it:
// the real machine core (machine/) with the certified paytable and a seeded
// RNG, stepped in memory, with no ledger, no hardware and no host. It is for
// cmd/uidemo and the screen tests only; the cabinet itself is cmd/cabinet,
// which commits every record before it shows anything.
package demo

import (
	"fmt"
	"sync"
	"time"

	"github.com/openegm/cabinet/aft"
	"github.com/openegm/cabinet/baccarat"
	"github.com/openegm/cabinet/machine"
	"github.com/openegm/cabinet/meters"
	"github.com/openegm/cabinet/reels"
	"github.com/openegm/cabinet/rng"
)

// Cabinet implements ui.Cabinet over an in-memory machine.
type Cabinet struct {
	mu       sync.Mutex
	m        *machine.Machine
	aftPos   byte // the AFT history's position of the last transfer (Promo)
	pt       *reels.Certified
	now      time.Time
	switches map[string]bool
	// Refused is the last refusal, for tests.
	Refused string
	// Printed is set when a ticket print is asked for; the ticket prints
	// at the next Advance.
	printing []string
	// Outputs are the output levels the I/O test asked for.
	Outputs map[string]bool
}

// Config of the demo machine.
type Config struct {
	MachineID    string
	Denom        int64
	HandpayLimit int64
	SpinTime     time.Duration
	Seed         uint64
	Start        time.Time // the clock's start; the clock moves only with Advance
	ProgramHash  string    // reported by the self-test, for the identification page
	// Jackpot are the levels of the cabinet's own jackpot; nil means
	// DefaultJackpot, so the screens show a banner and its rules page.
	Jackpot []meters.JackpotLevel
	// NoJackpot runs the machine without a jackpot.
	NoJackpot bool
	// Table is the Makccarat definition the game menu offers beside the
	// reels (nil: the reels only); CardTime how long each card takes to
	// turn (the machine's default when zero).
	Table    *baccarat.Certified
	CardTime time.Duration
}

// DefaultJackpot are the demo's jackpot levels: the paytable's level 1 (its
// top combination at the top bet) and a mystery level fed by every bet.
var DefaultJackpot = []meters.JackpotLevel{
	{Level: 1, ResetCents: 500_00, RatePPM: 10_000, HiddenPPM: 2_000},
	{Level: 2, Mystery: true, ResetCents: 20_00, CapCents: 50_00, RatePPM: 5_000},
}

// New powers up a machine on pt (which may be nil).
func New(pt *reels.Certified, cfg Config) *Cabinet {
	if cfg.Denom == 0 {
		cfg.Denom = 1
	}
	if cfg.HandpayLimit == 0 {
		cfg.HandpayLimit = 120000
	}
	if cfg.SpinTime == 0 {
		cfg.SpinTime = 2 * time.Second
	}
	if cfg.Start.IsZero() {
		cfg.Start = time.Date(2025, 6, 10, 21, 30, 0, 0, time.UTC)
	}
	switch {
	case cfg.NoJackpot:
		cfg.Jackpot = nil
	case cfg.Jackpot == nil:
		cfg.Jackpot = DefaultJackpot
	}
	c := &Cabinet{pt: pt, now: cfg.Start, switches: map[string]bool{}, Outputs: map[string]bool{}}
	c.m = machine.New(machine.Config{MachineID: cfg.MachineID, MachineNum: 1, Denom: cfg.Denom, HandpayLimit: cfg.HandpayLimit,
		SpinTime: cfg.SpinTime, LocalJackpot: cfg.Jackpot, Table: cfg.Table, CardTime: cfg.CardTime}, pt, meters.NewState(), rng.NewSeeded(cfg.Seed))
	tests := machine.SelfTest{ProgramHash: cfg.ProgramHash}
	if pt == nil {
		tests.Paytable = "no paytable"
	}
	c.step(machine.PowerUp{At: c.now, Tests: tests})
	return c
}

func (c *Cabinet) step(ev machine.Event) {
	eff := c.m.Step(ev)
	if eff.Refused != "" {
		c.Refused = eff.Refused
	}
	for _, d := range eff.Devices {
		switch d := d.(type) {
		case machine.PrintTicket:
			c.printing = append(c.printing, d.Validation)
		case machine.TestOutput:
			c.Outputs[d.Name] = d.On
		case machine.PINJob:
			// The demo has no other event to keep waiting: the PIN is
			// hashed here, and its answer stepped at once.
			defer c.step(d.Do(machine.Argon2id, c.now))
		}
	}
}

// Advance moves the clock: the machine's timers (the end of a spin) run on
// it, and tickets being printed come out.
func (c *Cabinet) Advance(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.now = c.now.Add(d)
	for _, v := range c.printing {
		c.step(machine.TicketPrinted{At: c.now, Validation: v})
	}
	c.printing = nil
	c.step(machine.Tick{At: c.now})
}

// Step feeds any event (a host command, a printer fault...) at the clock.
func (c *Cabinet) Step(ev machine.Event) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.step(ev)
}

// Now is the demo clock.
func (c *Cabinet) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

func (c *Cabinet) View() machine.View {
	c.mu.Lock()
	defer c.mu.Unlock()
	v := c.m.View()
	if v.Service != nil && v.Service.Page == "io" {
		// The simulated inputs: the key switch and the doors (the buttons
		// are pulses, never held).
		v.Service.Inputs = map[string]bool{}
		for _, n := range []string{"spin", "bet_up", "bet_down", "max_bet", "cash_out", "help", "language",
			machine.KeyAttendant, "jackpot_reset_key", "door_main", "door_logic", "door_cashbox", "door_belly", "door_drop"} {
			v.Service.Inputs[n] = c.switches[n]
		}
	}
	return v
}

func (c *Cabinet) Paytable() *reels.Certified { return c.pt }

func (c *Cabinet) Press(button string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.step(machine.Button{At: c.now, Name: button})
}

var doors = map[string]string{
	"door_main": meters.DoorMain, "door_logic": meters.DoorLogic, "door_cashbox": meters.DoorCashbox,
	"door_belly": meters.DoorBelly, "door_drop": meters.DoorDrop,
}

func (c *Cabinet) SetSwitch(name string, on bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.switches[name] = on
	if name == machine.KeyAttendant {
		c.step(machine.Key{At: c.now, Key: machine.KeyAttendant, On: on, Who: "demo attendant"})
	} else if d, ok := doors[name]; ok {
		c.step(machine.Door{At: c.now, Door: d, Open: on})
	}
}

func (c *Cabinet) InsertBill(cents int64) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.step(machine.BillStacked{At: c.now, Cents: cents})
}

// Promo transfers promotional credit to the credit meter as the casino's
// host does (an AFT in-house transfer): restricted cents, of pool 1 and
// lasting until exp (0 never), and non-restricted cents. It says why the
// machine refused it ("" when it took it).
func (c *Cabinet) Promo(id string, restricted, nonRestricted int64, exp aft.Expiration) string {
	c.mu.Lock()
	defer c.mu.Unlock()
	a := aft.Amounts{Restricted: restricted, NonRestricted: nonRestricted}
	t := aft.Transfer{ID: id, Code: aft.CodeFull, Type: aft.InHouseToMachine, Status: aft.StatusFull, Asset: 1,
		Requested: a, Amounts: a, At: c.now, ReceiptStatus: aft.ReceiptNone, Position: c.aftPos%aft.MaxHistory + 1}
	if restricted > 0 {
		t.PoolID, t.Expiration, t.RestrictedExpiration = 1, exp, exp
	}
	eff := c.m.Step(machine.AFTTransfer{At: c.now, Transfer: t})
	if eff.AFTRefused != 0 {
		return fmt.Sprintf("AFT transfer %s refused: status %v", id, eff.AFTRefused)
	}
	c.aftPos = t.Position
	return ""
}

// Service restamps the event with the demo clock and steps it.
func (c *Cabinet) Service(ev machine.Event) {
	c.mu.Lock()
	defer c.mu.Unlock()
	switch e := ev.(type) {
	case machine.PINEntry:
		e.At = c.now
		ev = e
	case machine.ServiceAction:
		e.At = c.now
		ev = e
	case machine.HandpayPaid:
		e.At = c.now
		ev = e
	case machine.Presented:
		e.At = c.now
		ev = e
	case machine.SelectGame:
		e.At = c.now
		ev = e
	case machine.PlaceBet:
		e.At = c.now
		ev = e
	}
	c.step(ev)
}
