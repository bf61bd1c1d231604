package main

import (
	"log/slog"
	"slices"
	"sync"
	"time"

	"github.com/openegm/cabinet/machine"
	"github.com/openegm/cabinet/meters"
)

// simDevices stands in for the bill validator and the printer of a cabinet
// with no hardware: bills and faults come from the control socket, tickets
// are "printed" after a short delay and kept in a list.
type simDevices struct {
	own  *owner
	data string
	log  *slog.Logger

	mu          sync.Mutex
	billsOn     bool
	paperOut    bool
	printed     []machine.PrintTicket
	printDelay  time.Duration
	printerDown bool
}

func newSimDevices(o *owner, data string, log *slog.Logger) *simDevices {
	return &simDevices{own: o, data: data, log: log, printDelay: 50 * time.Millisecond}
}

// apply runs on the owner goroutine; device reactions come back later as
// events, the way real devices answer.
func (d *simDevices) apply(dev machine.Device) {
	d.mu.Lock()
	defer d.mu.Unlock()
	switch c := dev.(type) {
	case machine.EnableBills:
		d.billsOn = c.On
	case machine.StorePIN:
		if err := storePIN(d.data, c.Role, c.Hash); err != nil {
			d.log.Error("storing the new PIN failed; the old one stays valid after a restart", "role", c.Role, "err", err)
		}
	case machine.PrintTicket:
		if d.paperOut || d.printerDown {
			go d.own.submit(machine.PrinterFault{At: time.Now(), Reason: "paper_out"})
			return
		}
		t := c
		time.AfterFunc(d.printDelay, func() {
			d.mu.Lock()
			d.printed = append(d.printed, t)
			d.mu.Unlock()
			d.own.submit(machine.TicketPrinted{At: time.Now(), Validation: t.Validation})
		})
	}
}

// insertBill is a bill fed into the validator: stacked if it is a euro note
// and the validator is enabled, otherwise returned.
func (d *simDevices) insertBill(cents int64) machine.Effects {
	d.mu.Lock()
	on := d.billsOn
	d.mu.Unlock()
	if !on || !slices.Contains(meters.BillValues, cents) {
		return d.own.submit(machine.BillRejected{At: time.Now(), Cents: cents, Reason: "not accepted"})
	}
	return d.own.submit(machine.BillStacked{At: time.Now(), Cents: cents})
}

func (d *simDevices) setPaper(out bool) {
	d.mu.Lock()
	d.paperOut = out
	d.mu.Unlock()
}

func (d *simDevices) tickets() []machine.PrintTicket {
	d.mu.Lock()
	defer d.mu.Unlock()
	return slices.Clone(d.printed)
}
