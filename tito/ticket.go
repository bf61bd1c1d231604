package tito

import (
	"errors"
	"fmt"
	"strings"
	"time"
	"unicode/utf8"
)

// Kind is what a printed ticket is.
type Kind uint8

const (
	// KindCashout: the player's credits as a ticket that any cabinet or
	// the cashier takes.
	KindCashout Kind = iota + 1
	// KindHandpayReceipt: the receipt of a win or cash-out paid by an
	// attendant; it is validated like a ticket but not played.
	KindHandpayReceipt
	// KindHandpay: a win or cash-out paid by an attendant and validated
	// without a receipt (SAS types 40, 60): nothing was printed, the
	// casino's system records it as paid.
	KindHandpay
	// KindRestricted: restricted promotional credits as a ticket (SAS
	// validation type 01): played at a machine, which takes it back as
	// restricted credits of its pool, and never paid as money, by a
	// cabinet or by the cashier.
	KindRestricted
)

func (k Kind) String() string {
	switch k {
	case KindCashout:
		return "cashout"
	case KindHandpayReceipt:
		return "handpay receipt"
	case KindHandpay:
		return "validated handpay"
	case KindRestricted:
		return "restricted promotional ticket"
	}
	return fmt.Sprintf("Kind(%d)", uint8(k))
}

// Limits of a ticket's fields.
const (
	// MaxText is the longest casino name or address line: SAS's 0x7D
	// carries at most 40 characters each.
	MaxText = 40
	// MaxAddressLines: SAS's address 1 and address 2.
	MaxAddressLines = 2
	// MaxCents is the largest amount: SAS amounts are 10 BCD digits.
	MaxCents = 9_999_999_999
	// MaxTicketNumber: the ticket number printed is 0001–9999, rolling
	// over to 0000.
	MaxTicketNumber = 9999
	// ExpiryNever is the Expiry of a ticket that never expires, as SAS
	// writes it (0x4D, 0x7B).
	ExpiryNever = 9999
)

// ErrTicket is returned (wrapped, naming the field) for a ticket that
// cannot be printed.
var ErrTicket = errors.New("tito: invalid ticket")

// Ticket is everything a cash-out ticket or handpay receipt prints.
type Ticket struct {
	// Casino is the location name and Address its address lines (SAS
	// 0x7D: location, address 1, address 2).
	Casino  string   `json:"casino"`
	Address []string `json:"address,omitempty"`
	Kind    Kind     `json:"kind"`
	// Cents is the amount, 1–MaxCents.
	Cents      int64      `json:"cents"`
	Validation Validation `json:"validation"`
	// Issued is when the ticket was printed, in the casino's local time:
	// it is printed as it is.
	Issued time.Time `json:"issued"`
	// Machine is the machine's number on the floor; Asset its asset
	// number (0: none printed).
	Machine string `json:"machine"`
	Asset   uint32 `json:"asset,omitempty"`
	// Number is the ticket number, 0–MaxTicketNumber.
	Number uint16 `json:"number"`
	// Expiry is the number of days the ticket is valid, 1–9998, or
	// ExpiryNever. A restricted ticket may instead expire on a date, its
	// credits' (Until; Expiry 0 then).
	Expiry uint16    `json:"expiry"`
	Until  time.Time `json:"until,omitzero"`
	// Pool is a restricted ticket's promotional pool (SAS pool ID).
	Pool uint16 `json:"pool,omitempty"`
	// Reprint marks a ticket printed again after a power loss (the
	// ledger drives the printer: DESIGN rule 9).
	Reprint bool `json:"reprint,omitempty"`
	// Development marks a development build's ticket, printed without a
	// host's validation (the simulator): its number is the machine's own
	// (DevelopmentValidation), no host validates it, and it says so.
	Development bool `json:"development,omitempty"`
}

func bad(field, format string, a ...any) error {
	return fmt.Errorf("%w: %s: %s", ErrTicket, field, fmt.Sprintf(format, a...))
}

// Check reports the first field that cannot be printed.
func (t Ticket) Check() error {
	if err := checkText("casino", t.Casino, true); err != nil {
		return err
	}
	if len(t.Address) > MaxAddressLines {
		return bad("address", "%d lines, at most %d", len(t.Address), MaxAddressLines)
	}
	for i, a := range t.Address {
		if err := checkText(fmt.Sprintf("address line %d", i+1), a, false); err != nil {
			return err
		}
	}
	switch {
	case t.Kind < KindCashout || t.Kind > KindRestricted:
		return bad("kind", "%v is neither a cashout ticket, a handpay receipt, a validated handpay nor a restricted ticket", t.Kind)
	case t.Kind != KindRestricted && (t.Pool != 0 || !t.Until.IsZero()):
		return bad("pool", "a %v has no promotional pool or expiration date", t.Kind)
	case !t.Until.IsZero() && t.Expiry != 0:
		return bad("expiry", "%d days and until %v: one or the other", t.Expiry, t.Until.Format("02/01/2006"))
	case t.Cents < 1 || t.Cents > MaxCents:
		return bad("amount", "%d cents, want 1-%d", t.Cents, int64(MaxCents))
	case t.Issued.IsZero():
		return bad("issued", "no date and time")
	case t.Number > MaxTicketNumber:
		return bad("ticket number", "%d, want 0-%d", t.Number, MaxTicketNumber)
	case t.Until.IsZero() && (t.Expiry < 1 || t.Expiry > ExpiryNever):
		return bad("expiry", "%d days, want 1-9998 or %d (never)", t.Expiry, ExpiryNever)
	}
	if err := checkText("machine", t.Machine, true); err != nil {
		return err
	}
	if t.Development {
		if d := t.Validation.Digits(); len(d) != BarcodeDigits || !allDigits(d) {
			return bad("validation", "development number %q: want %d decimal digits", d, BarcodeDigits)
		}
		return nil
	}
	if err := t.Validation.Check(); err != nil {
		return bad("validation", "%v", err)
	}
	return nil
}

func checkText(field, s string, required bool) error {
	switch {
	case required && strings.TrimSpace(s) == "":
		return bad(field, "empty")
	case !utf8.ValidString(s):
		return bad(field, "%q is not UTF-8", s)
	case utf8.RuneCountInString(s) > MaxText:
		return bad(field, "%q is %d characters, at most %d", s, utf8.RuneCountInString(s), MaxText)
	case strings.ContainsAny(s, "\n\r\t"):
		return bad(field, "%q contains a line break or tab", s)
	}
	return nil
}

// LineKind is what a line of a ticket is.
type LineKind uint8

const (
	// LineText is text, centred.
	LineText LineKind = iota
	// LineBarcode is the barcode of Line.Text (its digits).
	LineBarcode
)

// Size is the type size of a line.
type Size uint8

const (
	SizeNormal Size = iota
	SizeSmall
	SizeLarge
)

// Line is one line of a ticket as printed. Text may be wider than the
// paper: the renderer wraps it at spaces.
type Line struct {
	Kind LineKind
	Size Size
	Text string
}

// Lines returns the ticket's lines from top to bottom, every text in both
// languages, first's first (rule 11 of the regulation: Portuguese is
// always there). The picture (Render) and the plain text (Text) are both
// drawn from them.
func (t Ticket) Lines(first Lang) ([]Line, error) {
	if err := t.Check(); err != nil {
		return nil, err
	}
	second := first.other()
	both := func(m map[Lang]string) string { return m[first] + " / " + m[second] }
	var ls []Line
	add := func(size Size, text string) { ls = append(ls, Line{Kind: LineText, Size: size, Text: text}) }

	add(SizeLarge, strings.ToUpper(t.Casino))
	for _, a := range t.Address {
		add(SizeSmall, a)
	}
	titles := map[Kind]map[Lang]string{
		KindCashout:        {PT: "TALÃO VÁLIDO PARA JOGO OU PAGAMENTO", EN: "CASHOUT TICKET"},
		KindHandpayReceipt: {PT: "RECIBO DE PAGAMENTO MANUAL", EN: "HANDPAY RECEIPT"},
		KindHandpay:        {PT: "PAGAMENTO MANUAL VALIDADO", EN: "VALIDATED HANDPAY"},
		KindRestricted:     {PT: "CRÉDITO PROMOCIONAL — NÃO REEMBOLSÁVEL", EN: "PROMOTIONAL CREDIT — NOT CASHABLE"},
	}[t.Kind]
	add(SizeLarge, titles[first])
	add(SizeNormal, titles[second])
	if t.Kind == KindRestricted {
		// What the player and the cashier must read: it is played, never paid.
		add(SizeNormal, both(map[Lang]string{PT: "SÓ PARA JOGAR NAS MÁQUINAS", EN: "PLAYABLE AT MACHINES ONLY"}))
		add(SizeSmall, both(map[Lang]string{PT: "PROMOÇÃO", EN: "PROMOTION POOL"})+fmt.Sprintf(" %d", t.Pool))
	}
	if t.Development {
		add(SizeLarge, both(map[Lang]string{PT: "SEM VALOR", EN: "NO VALUE"}))
		add(SizeSmall, both(map[Lang]string{PT: "TALÃO DE DESENVOLVIMENTO, SEM SISTEMA DE VALIDAÇÃO", EN: "DEVELOPMENT TICKET, NO VALIDATION SYSTEM"}))
	}
	if t.Reprint {
		add(SizeLarge, both(map[Lang]string{PT: "SEGUNDA VIA", EN: "REPRINT"}))
	}
	ls = append(ls, Line{Kind: LineBarcode, Text: t.Validation.Digits()})
	add(SizeNormal, both(map[Lang]string{PT: "VALIDAÇÃO", EN: "VALIDATION"})+" "+t.Validation.String())
	add(SizeNormal, fmt.Sprintf("%s   %s %04d", t.Issued.Format("02/01/2006 15:04:05"),
		both(map[Lang]string{PT: "TALÃO N.º", EN: "TICKET #"}), t.Number))
	for _, l := range []Lang{first, second} {
		w, err := AmountWords(t.Cents, l)
		if err != nil {
			return nil, err
		}
		add(SizeNormal, w)
	}
	add(SizeLarge, Figures(t.Cents, first))
	if t.Development {
		// No value, so no validity to print.
	} else if !t.Until.IsZero() {
		until := t.Until.Format("02/01/2006")
		add(SizeNormal, both(map[Lang]string{PT: "VÁLIDO ATÉ " + until, EN: "VALID UNTIL " + until}))
	} else if t.Expiry == ExpiryNever {
		add(SizeNormal, both(map[Lang]string{PT: "SEM PRAZO DE VALIDADE", EN: "NEVER EXPIRES"}))
	} else {
		until := t.Issued.AddDate(0, 0, int(t.Expiry)).Format("02/01/2006")
		add(SizeNormal, both(map[Lang]string{
			PT: fmt.Sprintf("VÁLIDO POR %d %s, ATÉ %s", t.Expiry, plural(t.Expiry, "DIA", "DIAS"), until),
			EN: fmt.Sprintf("VALID FOR %d %s, UNTIL %s", t.Expiry, plural(t.Expiry, "DAY", "DAYS"), until),
		}))
	}
	machine := both(map[Lang]string{PT: "MÁQUINA", EN: "MACHINE"}) + " " + t.Machine
	if t.Asset != 0 {
		machine += fmt.Sprintf("   %s %d", both(map[Lang]string{PT: "ATIVO", EN: "ASSET"}), t.Asset)
	}
	add(SizeSmall, machine)
	return ls, nil
}

func plural(n uint16, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

// Figures writes cents as money in the language's way: "1.234,56 €" (pt),
// "€1,234.56" (en).
func Figures(cents int64, l Lang) string {
	sign := ""
	if cents < 0 {
		sign, cents = "-", -cents
	}
	euros := fmt.Sprint(cents / 100)
	sep, dec := ".", ","
	if l == EN {
		sep, dec = ",", "."
	}
	var groups []string
	for len(euros) > 3 {
		groups = append([]string{euros[len(euros)-3:]}, groups...)
		euros = euros[:len(euros)-3]
	}
	n := strings.Join(append([]string{euros}, groups...), sep) + fmt.Sprintf("%s%02d", dec, cents%100)
	if l == EN {
		return sign + "€" + n
	}
	return sign + n + " €"
}

// Text is the ticket as plain text, one line of Lines each, the barcode
// shown as its digits between bars.
func (t Ticket) Text(first Lang) (string, error) {
	ls, err := t.Lines(first)
	if err != nil {
		return "", err
	}
	var b strings.Builder
	for _, l := range ls {
		if l.Kind == LineBarcode {
			fmt.Fprintf(&b, "||| %s |||\n", l.Text)
			continue
		}
		b.WriteString(l.Text)
		b.WriteByte('\n')
	}
	return b.String(), nil
}
