package main

import (
	"bytes"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/openegm/cabinet/machine"
	"github.com/openegm/cabinet/meters"
	"github.com/openegm/cabinet/tito"
)

// sampleTicket is the ticket the README shows: a secure-enhanced number
// made from a validation ID, as the cabinet prints it.
func sampleTicket(t *testing.T) machine.PrintTicket {
	v, err := tito.SecureEnhanced(0x3A5F21, 42)
	if err != nil {
		t.Fatal(err)
	}
	return machine.PrintTicket{Validation: v.Digits(), Cents: 12_345, MachineID: "EGM-0042",
		At: time.Date(2026, 12, 1, 21, 15, 0, 0, time.UTC), Style: meters.StyleSecureEnhanced, TicketNo: 42, ExpiryDays: 30,
		Casino: "Casino Estoril", Address: []string{"Av. Dr. Stanley Ho, 2765-190 Estoril"}}
}

// TestTicketPicture renders the sample ticket as the simulated printer
// does and compares it with docs/ticket.png, the README's picture.
// Regenerate: UPDATE_TICKET_PNG=1 go test -run TestTicketPicture ./cmd/cabinet/
func TestTicketPicture(t *testing.T) {
	dir := t.TempDir()
	path, err := saveTicketPNG(dir, sampleTicket(t))
	if err != nil {
		t.Fatal(err)
	}
	if want := filepath.Join(dir, sampleTicket(t).Validation+".png"); path != want {
		t.Fatalf("saved as %s, want %s", path, want)
	}
	got, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	const doc = "../../docs/ticket.png"
	if os.Getenv("UPDATE_TICKET_PNG") != "" {
		if err := os.WriteFile(doc, got, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(doc)
	if err != nil || !bytes.Equal(got, want) {
		t.Fatalf("%s differs from the printer's picture (%v): UPDATE_TICKET_PNG=1 go test -run TestTicketPicture ./cmd/cabinet/", doc, err)
	}
}

func TestPrintedTicketFields(t *testing.T) {
	p := sampleTicket(t)
	p.Casino, p.Reprint = "", true
	tk, err := printedTicket(p)
	if err != nil {
		t.Fatal(err)
	}
	// Without the host's location the ticket still names the machine.
	if tk.Casino != "EGM-0042" || tk.Number != 42 || tk.Expiry != 30 || !tk.Reprint || tk.Validation.Digits() != p.Validation {
		t.Fatalf("ticket %+v", tk)
	}
	dir := t.TempDir()
	if path, err := saveTicketPNG(dir, p); err != nil || !strings.HasSuffix(path, "-reprint.png") {
		t.Fatalf("reprint saved as %q: %v", path, err)
	}
	// A development number (no host: the simulator) is no SAS validation,
	// but the ticket is printed: its picture says it has no value.
	dev := machine.PrintTicket{Validation: "004200000000000001", Cents: 100, MachineID: "EGM-0042", At: p.At}
	if path, err := saveTicketPNG(dir, dev); err != nil || path != filepath.Join(dir, dev.Validation+".png") {
		t.Fatalf("development ticket: %q, %v", path, err)
	}
	if tk, err := printedTicket(dev); err != nil || !tk.Development || tk.Validation.Digits() != dev.Validation {
		t.Fatalf("development ticket %+v: %v", tk, err)
	} else if txt, _ := tk.Lines(tito.PT); !slices.ContainsFunc(txt, func(l tito.Line) bool { return strings.Contains(l.Text, "SEM VALOR") }) {
		t.Fatalf("a development ticket that does not say it has no value: %+v", txt)
	}
	bad := p
	bad.Validation = "001234567890123457" // a check digit wrong
	if _, err := saveTicketPNG(dir, bad); err == nil || !strings.Contains(err.Error(), bad.Validation) {
		t.Fatalf("a number that is no secure-enhanced one: %v", err)
	}
}

// A restricted ticket prints as one, with its pool and its credits' date.
func TestPrintedRestrictedTicket(t *testing.T) {
	p := sampleTicket(t)
	p.Kind, p.Pool, p.Expiration = meters.KindRestricted, 9, 10312026
	tk, err := printedTicket(p)
	if err != nil {
		t.Fatal(err)
	}
	if tk.Kind != tito.KindRestricted || tk.Pool != 9 || tk.Expiry != 0 || tk.Until.Format("2006-01-02") != "2026-10-31" {
		t.Fatalf("ticket %+v", tk)
	}
	if path, err := saveTicketPNG(t.TempDir(), p); err != nil || path == "" {
		t.Fatalf("picture %q: %v", path, err)
	}
	p.Expiration = 0 // no date: the days printed
	if tk, err = printedTicket(p); err != nil || tk.Expiry != 30 || !tk.Until.IsZero() {
		t.Fatalf("in days: %+v %v", tk, err)
	}
}

func TestCheckValidationFlags(t *testing.T) {
	for _, c := range []struct {
		style   string
		timeout time.Duration
		ok      bool
	}{
		{"secure-enhanced", 10 * time.Second, true}, {"system", time.Minute, true}, {"", 0, true},
		{"standard", 10 * time.Second, false}, {"secure-enhanced", 9 * time.Second, false},
	} {
		if err := checkValidation(c.style, c.timeout); (err == nil) != c.ok {
			t.Errorf("--validation %q --ticket-timeout %v: %v", c.style, c.timeout, err)
		}
	}
}

// TestReceiptPicture: a validated handpay receipt is drawn as a handpay
// receipt with its number; one without a number has no picture.
func TestReceiptPicture(t *testing.T) {
	p := sampleTicket(t)
	r := machine.PrintReceipt{Kind: meters.HandpayWin, Cents: 250_000, MachineID: p.MachineID, Who: "att-1", At: p.At,
		ReceiptValidation: machine.ReceiptValidation{Validation: p.Validation, TicketNo: 7, ExpiryDays: 30, Casino: p.Casino}}
	tk, err := printedReceipt(r)
	if err != nil || tk.Kind != tito.KindHandpayReceipt || tk.Validation.Digits() != p.Validation || tk.Number != 7 || tk.Cents != 250_000 {
		t.Fatalf("receipt %+v: %v", tk, err)
	}
	dir := t.TempDir()
	path, err := saveReceiptPNG(dir, r)
	if err != nil || path != filepath.Join(dir, p.Validation+"-receipt.png") {
		t.Fatalf("saved as %q: %v", path, err)
	}
	if st, err := os.Stat(path); err != nil || st.Size() < 1000 {
		t.Fatalf("picture %s: %v", path, err)
	}
	r.ReceiptValidation = machine.ReceiptValidation{}
	if path, err := saveReceiptPNG(dir, r); path != "" || err != nil {
		t.Fatalf("a receipt without a number: %q, %v", path, err)
	}
}
