// Tickets at the cabinet: the printed ticket's picture, the simulated
// validator's tickets, and the operator's validation setting.

package main

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/openegm/cabinet/internal/atomicfile"
	"github.com/openegm/cabinet/machine"
	"github.com/openegm/cabinet/tito"
)

// ticketsDir is where the simulated printer leaves a picture of each
// ticket it printed (DATA/tickets/NUMBER.png), for people to look at.
const ticketsDir = "tickets"

// printedTicket is what the printer prints for c: a ticket with a host's
// validation number. A development number (no host configured) is not a
// SAS validation and has no picture.
func printedTicket(c machine.PrintTicket) (tito.Ticket, error) {
	v, err := tito.ParseDigits(c.Validation)
	if err != nil {
		return tito.Ticket{}, err
	}
	casino := c.Casino
	if casino == "" {
		casino = c.MachineID // the host set no location (0x7D): the machine still names itself
	}
	t := tito.Ticket{Casino: casino, Address: c.Address, Kind: tito.KindCashout, Cents: c.Cents, Validation: v,
		Issued: c.At, Machine: c.MachineID, Number: c.TicketNo, Expiry: c.ExpiryDays, Reprint: c.Reprint}
	return t, t.Check()
}

// saveTicketPNG renders the ticket the printer printed into dir.
func saveTicketPNG(dir string, c machine.PrintTicket) (string, error) {
	if c.Style == "" {
		return "", nil
	}
	t, err := printedTicket(c)
	if err != nil {
		return "", fmt.Errorf("ticket %s: %w", c.Validation, err)
	}
	var buf bytes.Buffer
	if err := t.RenderPNG(&buf, tito.PT); err != nil {
		return "", fmt.Errorf("ticket %s: %w", c.Validation, err)
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return "", err
	}
	name := c.Validation
	if c.Reprint {
		name += "-reprint"
	}
	path := filepath.Join(dir, name+".png")
	return path, atomicfile.Write(path, buf.Bytes(), 0o644)
}

// checkValidation checks the --validation and --ticket-timeout flags (""
// and 0: the defaults, secure-enhanced and machine.MinTicketTimeout).
func checkValidation(style string, timeout time.Duration) error {
	if style != "" && style != machine.ValidationSecureEnhanced && style != machine.ValidationSystem {
		return fmt.Errorf("--validation %q: want %s or %s", style, machine.ValidationSecureEnhanced, machine.ValidationSystem)
	}
	if timeout != 0 && timeout < machine.MinTicketTimeout {
		return fmt.Errorf("--ticket-timeout %v: the host needs at least %v", timeout, machine.MinTicketTimeout)
	}
	return nil
}
