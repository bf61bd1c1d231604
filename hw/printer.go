package hw

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"slices"
	"sync"
	"time"
)

// Ticket is what the machine asks the printer to print (a cash-out voucher).
type Ticket struct {
	Validation string    `json:"validation"`
	Cents      int64     `json:"cents"`
	MachineID  string    `json:"machine_id"`
	At         time.Time `json:"at"`
	// Reprint marks a copy printed again after a power loss hid whether
	// the first one came out; it has the first one's validation number.
	Reprint bool `json:"reprint,omitempty"`
}

// PrinterConfig configures a simulated ticket printer.
type PrinterConfig struct {
	// Delay is how long a ticket takes to print (default 300 ms).
	Delay time.Duration
	// Paper is how many tickets a full paper stack holds (default 200); Refill
	// restores it.
	Paper int
	// Tray, when set, is a file where the simulated printer lays every
	// ticket it prints (one JSON line each, synced before TicketPrinted is
	// reported): the paper that stays printed when the cabinet loses power.
	Tray string
}

const (
	defaultPrintDelay = 300 * time.Millisecond
	defaultPaper      = 200
)

// Errors returned by Printer.Print for requests it does not take at all (no
// event follows them).
var (
	ErrPrinterBusy = errors.New("hw: printer: busy printing another ticket")
	ErrBadTicket   = errors.New("hw: printer: invalid ticket")
)

// PrinterCore is the printer's state machine. It is pure: time is passed in,
// it runs no goroutine and returns the events it produces.
type PrinterCore struct {
	delay    time.Duration
	capacity int
	paper    int
	fault    string // FaultJam or FaultOffline; paper out is derived from paper
	job      *Ticket
	due      time.Time
	printed  []Ticket
}

// NewPrinterCore returns a ready printer core with a full paper stack.
func NewPrinterCore(cfg PrinterConfig) *PrinterCore {
	if cfg.Delay <= 0 {
		cfg.Delay = defaultPrintDelay
	}
	if cfg.Paper <= 0 {
		cfg.Paper = defaultPaper
	}
	return &PrinterCore{delay: cfg.Delay, capacity: cfg.Paper, paper: cfg.Paper}
}

// Fault returns the current fault ("" when ready): an injected jam or offline
// takes precedence over paper out.
func (c *PrinterCore) Fault() string {
	if c.fault != "" {
		return c.fault
	}
	if c.paper == 0 {
		return FaultPaperOut
	}
	return ""
}

// Busy reports whether a ticket is being printed.
func (c *PrinterCore) Busy() bool { return c.job != nil }

// Due returns when the ticket being printed completes.
func (c *PrinterCore) Due() (time.Time, bool) {
	if c.job == nil {
		return time.Time{}, false
	}
	return c.due, true
}

// Paper returns the number of tickets left.
func (c *PrinterCore) Paper() int { return c.paper }

// Printed returns the tickets printed so far, oldest first.
func (c *PrinterCore) Printed() []Ticket { return slices.Clone(c.printed) }

// Submit starts printing t at now. A faulted printer answers at once with
// PrinterFault (the ticket is not printed); otherwise the ticket completes at
// Due() through Advance.
func (c *PrinterCore) Submit(now time.Time, t Ticket) ([]DeviceEvent, error) {
	if t.Validation == "" || t.Cents <= 0 {
		return nil, fmt.Errorf("%w: validation %q, %d cents", ErrBadTicket, t.Validation, t.Cents)
	}
	if c.job != nil {
		return nil, ErrPrinterBusy
	}
	if f := c.Fault(); f != "" {
		return []DeviceEvent{PrinterFault{Reason: f, Validation: t.Validation}}, nil
	}
	c.job = &t
	c.due = now.Add(c.delay)
	return nil, nil
}

// Advance completes the ticket being printed if it is due at now: the ticket
// is recorded, TicketPrinted is emitted, and if that was the last ticket of
// paper PrinterFault{paper_out} follows.
func (c *PrinterCore) Advance(now time.Time) []DeviceEvent {
	if c.job == nil || now.Before(c.due) {
		return nil
	}
	t := *c.job
	c.job = nil
	c.paper--
	c.printed = append(c.printed, t)
	evs := []DeviceEvent{TicketPrinted{Validation: t.Validation}}
	if c.paper == 0 {
		evs = append(evs, PrinterFault{Reason: FaultPaperOut})
	}
	return evs
}

// InjectFault puts the printer in fault: jam, offline, or paper_out (the
// paper runs out). A ticket being printed is not printed and its
// PrinterFault names it.
func (c *PrinterCore) InjectFault(reason string) ([]DeviceEvent, error) {
	switch reason {
	case FaultJam, FaultOffline:
		c.fault = reason
	case FaultPaperOut:
		c.paper = 0
	default:
		return nil, fmt.Errorf("hw: printer: unknown fault %q (want %s, %s or %s)", reason, FaultJam, FaultOffline, FaultPaperOut)
	}
	ev := PrinterFault{Reason: c.Fault()}
	if c.job != nil {
		ev.Validation = c.job.Validation
		c.job = nil
	}
	return []DeviceEvent{ev}, nil
}

// ClearFault clears a jam or offline fault. With no paper the printer stays
// in fault (paper_out) until Refill.
func (c *PrinterCore) ClearFault() ([]DeviceEvent, error) {
	if c.fault == "" {
		if c.paper == 0 {
			return nil, fmt.Errorf("hw: printer: %s: refill the paper", FaultPaperOut)
		}
		return nil, errors.New("hw: printer: no fault to clear")
	}
	c.fault = ""
	if c.paper == 0 {
		return []DeviceEvent{PrinterFault{Reason: FaultPaperOut}}, nil
	}
	return []DeviceEvent{PrinterReady{}}, nil
}

// Refill restores a full paper stack. It emits PrinterReady when that ends a
// paper-out fault.
func (c *PrinterCore) Refill() []DeviceEvent {
	was := c.Fault()
	c.paper = c.capacity
	if was == FaultPaperOut {
		return []DeviceEvent{PrinterReady{}}
	}
	return nil
}

// SetPaper sets the tickets left (0..capacity), for fault scripts.
func (c *PrinterCore) SetPaper(n int) error {
	if n < 0 || n > c.capacity {
		return fmt.Errorf("hw: printer: paper %d out of range 0..%d", n, c.capacity)
	}
	c.paper = n
	return nil
}

// Printer is the simulated ticket printer: a PrinterCore driven by the real
// clock. Every accepted Print produces exactly one outcome on the events
// channel: TicketPrinted after the print delay, or PrinterFault.
type Printer struct {
	mu     sync.Mutex
	tray   string
	core   *PrinterCore
	timer  *time.Timer
	events chan<- DeviceEvent
	now    func() time.Time
}

// NewPrinter returns a ready simulated printer. events may be nil; when it is
// not, every event is sent on it (blocking while it is full). With a tray,
// the tickets already in it are the printer's history.
func NewPrinter(cfg PrinterConfig, events chan<- DeviceEvent) (*Printer, error) {
	p := &Printer{core: NewPrinterCore(cfg), events: events, now: time.Now, tray: cfg.Tray}
	if p.tray != "" {
		b, err := os.ReadFile(p.tray)
		if err != nil && !errors.Is(err, os.ErrNotExist) {
			return nil, fmt.Errorf("hw: printer: tray: %w", err)
		}
		for i, line := range bytes.Split(b, []byte("\n")) {
			var t Ticket
			if len(line) == 0 {
				continue
			}
			if err := json.Unmarshal(line, &t); err != nil {
				// A line torn by a power loss: its ticket was not reported
				// printed, so the machine prints it again.
				if i == bytes.Count(b, []byte("\n")) {
					continue
				}
				return nil, fmt.Errorf("hw: printer: tray %s line %d: %w", p.tray, i+1, err)
			}
			p.core.printed = append(p.core.printed, t)
		}
	}
	return p, nil
}

// layInTray appends a printed ticket to the tray file and syncs it.
func (p *Printer) layInTray(t Ticket) error {
	f, err := os.OpenFile(p.tray, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o600)
	if err != nil {
		return err
	}
	b, _ := json.Marshal(t)
	if _, err = f.Write(append(b, '\n')); err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return err
}

// Print starts printing t. It returns an error only for a request the printer
// does not take (invalid ticket, busy); the outcome comes as an event.
func (p *Printer) Print(t Ticket) error {
	p.mu.Lock()
	defer p.mu.Unlock()
	evs, err := p.core.Submit(p.now(), t)
	if err != nil {
		return err
	}
	p.emit(evs)
	if due, ok := p.core.Due(); ok {
		p.timer = time.AfterFunc(due.Sub(p.now()), p.tick)
	}
	return nil
}

func (p *Printer) tick() {
	p.mu.Lock()
	defer p.mu.Unlock()
	if due, ok := p.core.Due(); ok && p.now().Before(due) {
		p.timer = time.AfterFunc(due.Sub(p.now()), p.tick)
		return
	}
	evs := p.core.Advance(p.now())
	if len(evs) > 0 && p.tray != "" {
		if err := p.layInTray(p.core.printed[len(p.core.printed)-1]); err != nil {
			// The ticket is on paper whatever the simulation's file says.
			fmt.Fprintf(os.Stderr, "hw: printer: tray: %v\n", err)
		}
	}
	p.emit(evs)
}

// InjectFault puts the printer in fault (jam, offline or paper_out).
func (p *Printer) InjectFault(reason string) error {
	p.mu.Lock()
	defer p.mu.Unlock()
	evs, err := p.core.InjectFault(reason)
	if err != nil {
		return err
	}
	p.stopTimer()
	p.emit(evs)
	return nil
}

// ClearFault clears a jam or offline fault.
func (p *Printer) ClearFault() error {
	p.mu.Lock()
	defer p.mu.Unlock()
	evs, err := p.core.ClearFault()
	if err != nil {
		return err
	}
	p.emit(evs)
	return nil
}

// Refill restores a full paper stack.
func (p *Printer) Refill() {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.emit(p.core.Refill())
}

// SetPaper sets the tickets left, so that paper runs out sooner.
func (p *Printer) SetPaper(n int) error {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.core.SetPaper(n)
}

// Paper returns the tickets left.
func (p *Printer) Paper() int {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.core.Paper()
}

// Fault returns the current fault, "" when ready.
func (p *Printer) Fault() string {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.core.Fault()
}

// Busy reports whether a ticket is being printed.
func (p *Printer) Busy() bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.core.Busy()
}

// Printed returns the record of printed tickets (validation number, amount,
// machine ID, time), oldest first.
func (p *Printer) Printed() []Ticket {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.core.Printed()
}

func (p *Printer) stopTimer() {
	if p.timer != nil {
		p.timer.Stop()
		p.timer = nil
	}
}

// emit sends under p.mu so events leave in the order they happened.
func (p *Printer) emit(evs []DeviceEvent) {
	if p.events == nil {
		return
	}
	for _, ev := range evs {
		p.events <- ev
	}
}
