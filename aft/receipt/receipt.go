// Package receipt is the AFT transaction receipt as the cabinet's
// printer prints it (SAS 6.02 section 8.11): its lines, laid out for a
// monospaced receipt printer, and its picture. It is pure: no clock, no
// I/O but the io.Writer a picture is written to.
//
// The layout follows 8.11.2's standard receipt: the location and its
// address (long poll 0x75, or the ticket's location when the host set
// none), what the transfer was, the date and time, the machine and its
// asset number, the transaction ID, the host's receipt data (table 8.3f:
// source or destination, patron, account, balance before; for a debit
// the POS ID and the card's last digits instead), the amounts by kind
// with the total (for a debit the fee and the total debited), and the
// host's closing lines (in-house or debit). Labels are in
// Portuguese and English, as the cabinet's tickets are.
package receipt

import (
	"errors"
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/openegm/cabinet/aft"
	"github.com/openegm/cabinet/internal/money"
)

// Columns is the width of a receipt line in characters: more than the 22
// SAS requires of a receipt printer, so a label and its value share one.
const Columns = 32

// ErrReceipt is returned (wrapped, naming the field) for a receipt that
// cannot be printed.
var ErrReceipt = errors.New("receipt: cannot print")

// Receipt is everything an AFT transaction receipt prints.
type Receipt struct {
	// Transfer is the committed transfer, with the host's receipt data.
	Transfer aft.Transfer
	// Text is the host's texts (0x75), the machine's defaults filled in.
	Text aft.ReceiptText
	// Machine is the machine's number on the floor, Asset its AFT asset
	// number.
	Machine string
	Asset   uint32
	// Reprint marks a receipt printed again after a power loss hid
	// whether the first one came out (the ledger drives the printer).
	Reprint bool
}

// Line is one printed line, Columns characters at most.
type Line struct {
	Text string
	Bold bool
}

// titles say what the transfer was, for the types that have a receipt
// (SAS 8.11: in-house to the machine, debit to the machine, in-house to
// the host).
var titles = map[aft.TransferType][2]string{
	aft.InHouseToMachine: {"TRANSFERÊNCIA PARA A MÁQUINA", "TRANSFER TO GAME"},
	aft.DebitToMachine:   {"LEVANTAMENTO COM CARTÃO", "DEBIT CARD WITHDRAWAL"},
	aft.InHouseToHost:    {"TRANSFERÊNCIA PARA A CONTA", "TRANSFER FROM GAME"},
	aft.WinToHost:        {"PRÉMIO PARA A CONTA", "WIN TRANSFER FROM GAME"},
}

// Lines lays the receipt out, top to bottom.
func (r Receipt) Lines() ([]Line, error) {
	t := r.Transfer
	title, ok := titles[t.Type]
	switch {
	case !ok:
		return nil, fmt.Errorf("%w: transfer %q of type %v has no receipt", ErrReceipt, t.ID, t.Type)
	case t.Amounts.Total() <= 0:
		return nil, fmt.Errorf("%w: transfer %q moved nothing", ErrReceipt, t.ID)
	case t.At.IsZero():
		return nil, fmt.Errorf("%w: transfer %q has no time", ErrReceipt, t.ID)
	}
	f, err := aft.ParseReceiptData(t.ReceiptData)
	if err != nil {
		return nil, fmt.Errorf("%w: transfer %q: %v", ErrReceipt, t.ID, err)
	}
	var b builder
	for _, s := range []string{r.Text.Location, r.Text.Address[0], r.Text.Address[1]} {
		b.centre(s, s == r.Text.Location)
	}
	b.rule()
	b.centre("COMPROVATIVO DE TRANSFERÊNCIA", true)
	b.centre("TRANSACTION RECEIPT", true)
	b.centre(title[0], false)
	b.centre(title[1], false)
	b.centre(f.Source, false)
	b.blank()
	// The machine's clock as the ledger holds it; no zone, as SAS's
	// date and time carry none.
	b.pair("DATA/DATE", t.At.Format("02/01/2006 15:04:05"), false)
	b.pair("MÁQUINA/MACHINE", r.Machine, false)
	b.pair("ATIVO/ASSET", fmt.Sprint(r.Asset), false)
	b.pair("TRANSAÇÃO/TRANSACTION ID", t.ID, false)
	debit := t.Type.Debit()
	switch {
	case debit:
		// 8.11.2: a debit names the POS and the card, not the patron.
		b.pair("POS", fmt.Sprint(t.POSID), false)
		if f.DebitCard != "" {
			b.pair("CARTÃO/CARD", "XXXX"+f.DebitCard, false)
		}
	default:
		if f.Patron != "" {
			b.pair("CLIENTE/PATRON", f.Patron, false)
		}
		if f.Account != "" {
			b.pair("CONTA/ACCOUNT", f.Account, false)
		}
		if f.HasBalance {
			b.pair("SALDO/BALANCE", euro(f.Balance), false)
		}
	}
	b.rule()
	a := t.Amounts
	for _, k := range []struct {
		label string
		cents int64
	}{{"CRÉDITO/CASHABLE", a.Cashable}, {"RESTRITO/RESTRICTED", a.Restricted}, {"NÃO RESTR./NON-RESTRICTED", a.NonRestricted}} {
		if k.cents > 0 {
			b.pair(k.label, euro(k.cents), false)
		}
	}
	if a.Restricted > 0 && t.Type == aft.InHouseToMachine {
		b.pair("  GRUPO/POOL", fmt.Sprint(t.PoolID), false)
		if e := t.RestrictedExpiration; e != 0 {
			d, _ := e.Date()
			b.pair("  VÁLIDO ATÉ/EXPIRES", d.Format("02/01/2006"), false)
		}
	}
	b.pair("TOTAL", euro(a.Total()), true)
	if debit {
		debitLines(&b, f, a.Total())
	}
	b.rule()
	closing := r.Text.InHouse
	if debit {
		closing = r.Text.Debit
	}
	for _, s := range closing {
		b.centre(s, false)
	}
	if r.Reprint {
		b.blank()
		b.centre("2.ª VIA / REPRINT", true)
	}
	if b.err != nil {
		return nil, fmt.Errorf("%w: transfer %q: %v", ErrReceipt, t.ID, b.err)
	}
	return b.lines, nil
}

// Plain is the receipt as plain text, a line each (for logs and tests).
func (r Receipt) Plain() (string, error) {
	ls, err := r.Lines()
	if err != nil {
		return "", err
	}
	var sb strings.Builder
	for _, l := range ls {
		sb.WriteString(strings.TrimRight(l.Text, " "))
		sb.WriteByte('\n')
	}
	return sb.String(), nil
}

// debitLines are what the player's account paid: the bank's fee and the
// total debited, as the host sent it or, without it, the transfer and the
// fee (8.11.2); neither when the host sent no fee.
func debitLines(b *builder, f aft.ReceiptFields, moved int64) {
	if f.HasFee {
		b.pair("TAXA/TRANSACTION FEE", euro(f.Fee), false)
	}
	switch {
	case f.HasDebitTotal:
		b.pair("DEBITADO/TOTAL DEBIT", euro(f.DebitTotal), false)
	case f.HasFee:
		b.pair("DEBITADO/TOTAL DEBIT", euro(moved+f.Fee), false)
	}
}

func euro(cents int64) string { return money.Euro("pt", cents) }

// builder lays lines out and remembers the first that does not fit.
type builder struct {
	lines []Line
	err   error
}

func (b *builder) add(s string, bold bool) {
	if n := utf8.RuneCountInString(s); n > Columns && b.err == nil {
		b.err = fmt.Errorf("%q is %d characters, a line %d", s, n, Columns)
	}
	b.lines = append(b.lines, Line{Text: s, Bold: bold})
}

func (b *builder) blank() { b.add("", false) }

func (b *builder) rule() { b.add(strings.Repeat("-", Columns), false) }

// centre adds s centred; an empty s adds nothing (a field not set).
func (b *builder) centre(s string, bold bool) {
	if s == "" {
		return
	}
	pad := max(0, (Columns-utf8.RuneCountInString(s))/2)
	b.add(strings.Repeat(" ", pad)+s, bold)
}

// pair adds a label and its value at the right margin, on one line when
// both fit, else the value on the line below.
func (b *builder) pair(label, value string, bold bool) {
	gap := Columns - utf8.RuneCountInString(label) - utf8.RuneCountInString(value)
	if gap >= 1 {
		b.add(label+strings.Repeat(" ", gap)+value, bold)
		return
	}
	b.add(label, bold)
	b.add(strings.Repeat(" ", max(0, Columns-utf8.RuneCountInString(value)))+value, bold)
}
