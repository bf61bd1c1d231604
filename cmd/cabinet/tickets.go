// Tickets at the cabinet: the printed ticket's and handpay receipt's
// pictures, the simulated validator's tickets, and the operator's
// validation setting.

package main

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/openegm/cabinet/aft"
	"github.com/openegm/cabinet/internal/atomicfile"
	"github.com/openegm/cabinet/machine"
	"github.com/openegm/cabinet/meters"
	"github.com/openegm/cabinet/tito"
)

// ticketsDir is where the simulated printer leaves a picture of each
// ticket it printed (DATA/tickets/NUMBER.png), for people to look at.
const ticketsDir = "tickets"

// printedTicket is what the printer prints for c: a ticket with a host's
// validation number, cashable or restricted promotional, or a development
// build's ticket with its own number (no host configured: the simulator),
// which says it has no value.
func printedTicket(c machine.PrintTicket) (tito.Ticket, error) {
	if c.Style == "" {
		v, err := tito.DevelopmentValidation(c.Validation)
		if err != nil {
			return tito.Ticket{}, err
		}
		t := tito.Ticket{Casino: c.MachineID, Kind: tito.KindCashout, Cents: c.Cents, Validation: v, Issued: c.At,
			Machine: c.MachineID, Number: c.TicketNo, Expiry: tito.ExpiryNever, Reprint: c.Reprint, Development: true}
		if c.Casino != "" {
			t.Casino, t.Address = c.Casino, c.Address
		}
		return t, t.Check()
	}
	if c.Kind == meters.KindRestricted {
		return printed(c, tito.KindRestricted)
	}
	return printed(c, tito.KindCashout)
}

// printed is c printed as a kind of ticket.
func printed(c machine.PrintTicket, kind tito.Kind) (tito.Ticket, error) {
	v, err := tito.ParseDigits(c.Validation)
	if err != nil {
		return tito.Ticket{}, err
	}
	casino := c.Casino
	if casino == "" {
		casino = c.MachineID // the host set no location (0x7D): the machine still names itself
	}
	t := tito.Ticket{Casino: casino, Address: c.Address, Kind: kind, Cents: c.Cents, Validation: v,
		Issued: c.At, Machine: c.MachineID, Number: c.TicketNo, Expiry: c.ExpiryDays, Reprint: c.Reprint}
	if kind == tito.KindRestricted {
		t.Pool = c.Pool
		if until, ok := aft.Expiration(c.Expiration).Date(); ok {
			t.Until, t.Expiry = until, 0 // the credits' own date
		}
	}
	return t, t.Check()
}

// saveTicketPNG renders the ticket the printer printed into dir.
func saveTicketPNG(dir string, c machine.PrintTicket) (string, error) {
	t, err := printedTicket(c)
	if err != nil {
		return "", fmt.Errorf("ticket %s: %w", c.Validation, err)
	}
	name := c.Validation
	if c.Reprint {
		name += "-reprint"
	}
	return savePicture(dir, name, t)
}

// printedReceipt is what the printer prints for a handpay receipt with a
// validation number.
func printedReceipt(c machine.PrintReceipt) (tito.Ticket, error) {
	return printed(machine.PrintTicket{Validation: c.Validation, Cents: c.Cents, MachineID: c.MachineID, At: c.At,
		TicketNo: c.TicketNo, ExpiryDays: c.ExpiryDays, Casino: c.Casino, Address: c.Address}, tito.KindHandpayReceipt)
}

// saveReceiptPNG renders a validated handpay receipt into dir, as
// NUMBER-receipt.png. A receipt without a validation number (handpays not
// validated) has no barcode to print and no picture.
func saveReceiptPNG(dir string, c machine.PrintReceipt) (string, error) {
	if c.Validation == "" {
		return "", nil
	}
	t, err := printedReceipt(c)
	if err != nil {
		return "", fmt.Errorf("handpay receipt %s: %w", c.Validation, err)
	}
	return savePicture(dir, c.Validation+"-receipt", t)
}

// savePicture writes t's picture as dir/name.png.
func savePicture(dir, name string, t tito.Ticket) (string, error) {
	var buf bytes.Buffer
	if err := t.RenderPNG(&buf, tito.PT); err != nil {
		return "", fmt.Errorf("ticket %s: %w", name, err)
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return "", err
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
