package meters

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/openegm/cabinet/aft"
)

// Tickets validated by the casino's system (SAS 6.02 section 15): what the
// host configured, the validations it has still to read, and each ticket
// taken in, step by step, so that a power loss anywhere in a redemption
// neither loses nor doubles the credit.
//
// Record types 40-49 are this file's.
const (
	TypeValidationConfig  Type = 40
	TypeTicketData        Type = 41
	TypeValidationRead    Type = 42
	TypeTicketEscrow      Type = 43
	TypeTicketRedeem      Type = 44
	TypeValidationRequest Type = 45
	TypeValidationDenied  Type = 46
	TypeHandpayValidated  Type = 47
	TypeValidationControl Type = 48
)

func init() {
	typeNames[TypeValidationConfig] = "validation configuration"
	typeNames[TypeTicketData] = "ticket data"
	typeNames[TypeValidationRead] = "validations read"
	typeNames[TypeTicketEscrow] = "ticket in escrow"
	typeNames[TypeTicketRedeem] = "ticket redemption"
	typeNames[TypeValidationRequest] = "validation number requested"
	typeNames[TypeValidationDenied] = "validation number denied"
	typeNames[TypeHandpayValidated] = "handpay reset and validated"
	typeNames[TypeValidationControl] = "validation control"
}

// Validation styles a CashOut ticket's number was made in ("": the
// cabinet's own development numbers, which no host validates).
const (
	StyleSecureEnhanced = "secure-enhanced"
	StyleSystem         = "system"
)

// Max24 is the largest validation ID or sequence (3 bytes in SAS).
const Max24 = 1<<24 - 1

// HistoryValidations is how many validations the host can read back
// (0x4D indexes 1-31; one more is kept so the oldest unread is never
// dropped by the one that pushes it out).
const HistoryValidations = 32

// ValidationConfig is the host's secure-enhanced configuration (0x4C):
// the validation ID, the sequence the last number was made from, and the
// sequence the host sent, which recognises a repeated 0x4C.
type ValidationConfig struct {
	At      int64  `json:"at"`
	ID      uint32 `json:"id"`
	Seq     uint32 `json:"seq"`
	HostSeq uint32 `json:"host_seq"`
}

// TicketData is what the host set for printed tickets and receipts: 0x7D
// (expiry, location, address lines), 0x7C (the same texts and the titles
// of restricted and debit tickets) and 0x7B's cashable expiration, which
// is this ExpiryDays too (ValidationControl). The titles are kept and
// reported: the restricted ticket prints its own title in both languages
// (tito), and the cabinet prints no debit ticket.
type TicketData struct {
	At              int64  `json:"at"`
	ExpiryDays      uint16 `json:"expiry_days"` // 0: never
	Location        string `json:"location,omitempty"`
	Address1        string `json:"address1,omitempty"`
	Address2        string `json:"address2,omitempty"`
	RestrictedTitle string `json:"restricted_title,omitempty"`
	DebitTitle      string `json:"debit_title,omitempty"`
}

// Limits of the ticket texts (SAS 0x7C, 0x7D).
const (
	MaxTicketText  = 40
	MaxTicketTitle = 16
)

// ValidationRead: the host has read the validations up to Upto (their
// Seq) with 0x4D 00; those after it are still owed to it.
type ValidationRead struct {
	At   int64  `json:"at"`
	Upto uint64 `json:"upto"`
}

// TicketEscrow is a ticket the validator read and holds, waiting for the
// host's answer (0x67, 0x70, 0x71). Digits are its barcode.
type TicketEscrow struct {
	At     int64  `json:"at"`
	Digits string `json:"digits"`
}

// TicketRedeem ends the ticket in escrow: Status 0 credits Cents (the
// amount the host authorised, SourceTicket) as cashable credits, Status 1
// as restricted promotional credits of Pool, expiring on Expiration (a
// date; 0 never), 0x80 and up refuse it (the ticket goes back, Cents 0).
// One record does both the credit and the end of the cycle, so no power
// loss can separate them.
type TicketRedeem struct {
	At         int64          `json:"at"`
	Digits     string         `json:"digits"`
	Status     byte           `json:"status"` // SAS table 15.12d
	Cents      int64          `json:"cents"`
	Why        string         `json:"why,omitempty"`
	Pool       uint16         `json:"pool,omitempty"`
	Expiration aft.Expiration `json:"expiration,omitempty"`
	// Once: a credit that enters the ledger's set of credited numbers
	// (Tickets.Credited), so that no later record can credit the same
	// number again. Every credit this build records carries it; credits
	// recorded before it do not, so that the states they fold to, which
	// earlier builds sealed, stay as they were.
	Once bool `json:"once,omitempty"`
}

// Redemption statuses the ledger credits (SAS table 15.12d).
const (
	RedeemedCashable   byte = 0x00
	RedeemedRestricted byte = 0x01
)

// KindRestricted is the Kind of a restricted promotional ticket printed
// (CashOut, Validation): its credits are played at a machine and never
// paid as money.
const KindRestricted = "restricted"

// ValidationRequest: a cash-out waits for the host's number (system
// validation, 0x57); its credits stay on the meter until the number comes.
type ValidationRequest struct {
	At    int64 `json:"at"`
	Cents int64 `json:"cents"`
}

// ValidationDenied ends a ValidationRequest without a ticket: the host
// denied the number (0x58 with system ID 00) or gave none in time.
type ValidationDenied struct {
	At    int64  `json:"at"`
	Cents int64  `json:"cents"`
	Why   string `json:"why"`
}

// HandpayValidated resets the pending handpay, as HandpayReset does, and
// validates it with the next secure-enhanced number (SAS 6.02 15.15:
// handpays are numbered from the same validation ID and sequence as
// cash-out tickets), in one record: no power loss can leave a reset
// handpay without its number, or a number without its reset. Receipt: a
// handpay receipt carrying the number was printed (TicketNo on it), which
// makes the validation SAS type 10/20 rather than 40/60.
type HandpayValidated struct {
	At         int64  `json:"at"`
	Who        string `json:"who"`
	Cents      int64  `json:"cents"`
	Ticket     string `json:"ticket"` // 18 digits: system ID 00 and the number
	Seq        uint32 `json:"seq"`
	Receipt    bool   `json:"receipt,omitempty"`
	TicketNo   uint16 `json:"ticket_no,omitempty"`
	ExpiryDays uint16 `json:"expiry_days,omitempty"`
}

// Validation control bits the host turns on and off (SAS 0x7B, table
// 15.2c). The bits are SAS's. Most are on until the host turns them off:
// the zero value of Tickets.Off (the host never sent 0x7B) is every one
// of them on. Printing restricted tickets is the other way round: a
// cabinet that the host never told to print them keeps restricted credits
// on the machine, as it always did, so its bit is kept in Tickets.TurnedOn,
// whose zero value is off; no ledger written before it changes its fold.
const (
	CtlPrinterCashout   uint16 = 0x0001 // cash-outs are tickets (off: paid by hand)
	CtlPrinterHandpay   uint16 = 0x0002 // a confirmed handpay prints its receipt
	CtlValidateHandpays uint16 = 0x0004 // handpays get a validation number
	CtlPrintRestricted  uint16 = 0x0008 // a cash-out prints the restricted credits on a restricted ticket
	CtlTicketRedemption uint16 = 0x0020 // tickets are taken in
	// CtlSettable are the bits the host may change on this cabinet.
	// Foreign restricted amounts (0x0010: restricted credits of another
	// pool on a ticket) are never printed, so that bit is never on;
	// 0x8000 (secure-enhanced configuration) is the state of 0x4C, not a
	// setting.
	CtlSettable = CtlPrinterCashout | CtlPrinterHandpay | CtlValidateHandpays | CtlPrintRestricted | CtlTicketRedemption
	// CtlDefaultOff are the settable bits that are off until the host
	// turns them on.
	CtlDefaultOff = CtlPrintRestricted
)

// ControlOff is the set of control bits off after the host set the bits
// of mask to states, from off: the bits it may not change, and those that
// default off (ControlOn), stay as they are.
func ControlOff(off, mask, states uint16) uint16 {
	mask &= CtlSettable &^ CtlDefaultOff
	return off&^mask | ^states&mask
}

// ControlOn is the set of default-off control bits on after the host set
// the bits of mask to states, from on.
func ControlOn(on, mask, states uint16) uint16 {
	mask &= CtlDefaultOff
	return on&^mask | states&mask
}

// ValidationControl is the host's 0x7B: Off, the control bits it has
// turned off, and On, the default-off bits it has turned on (each the
// whole set after the change, so one record says it), and the
// expirations it set (0: unchanged; 9999: never). The cashable
// expiration is the one 0x7D sets too (TicketData.ExpiryDays); the
// restricted one is what a restricted ticket prints when its credits have
// no expiration date of their own.
type ValidationControl struct {
	At               int64  `json:"at"`
	Off              uint16 `json:"off"`
	On               uint16 `json:"on,omitempty"`
	CashableExpiry   uint16 `json:"cashable_expiry,omitempty"`
	RestrictedExpiry uint16 `json:"restricted_expiry,omitempty"`
}

func (ValidationConfig) Type() Type  { return TypeValidationConfig }
func (TicketData) Type() Type        { return TypeTicketData }
func (ValidationRead) Type() Type    { return TypeValidationRead }
func (TicketEscrow) Type() Type      { return TypeTicketEscrow }
func (TicketRedeem) Type() Type      { return TypeTicketRedeem }
func (ValidationRequest) Type() Type { return TypeValidationRequest }
func (ValidationDenied) Type() Type  { return TypeValidationDenied }
func (HandpayValidated) Type() Type  { return TypeHandpayValidated }
func (ValidationControl) Type() Type { return TypeValidationControl }

func (r ValidationConfig) validate() error {
	if r.ID == 0 || r.ID > Max24 || r.Seq > Max24 || r.HostSeq > Max24 {
		return fmt.Errorf("validation ID %d, sequence %d, host sequence %d: want ID 1-%d and sequences 0-%d", r.ID, r.Seq, r.HostSeq, Max24, Max24)
	}
	return nil
}

func (r TicketData) validate() error {
	if r.ExpiryDays > 9999 {
		return fmt.Errorf("ticket expiry of %d days exceeds 9999", r.ExpiryDays)
	}
	for _, t := range []struct {
		name, s string
		max     int
	}{{"location", r.Location, MaxTicketText}, {"address 1", r.Address1, MaxTicketText}, {"address 2", r.Address2, MaxTicketText},
		{"restricted title", r.RestrictedTitle, MaxTicketTitle}, {"debit title", r.DebitTitle, MaxTicketTitle}} {
		if len(t.s) > t.max {
			return fmt.Errorf("ticket %s %q: %d characters, at most %d", t.name, t.s, len(t.s), t.max)
		}
	}
	return nil
}

func (r HandpayValidated) validate() error {
	if r.Who == "" {
		return fmt.Errorf("handpay validated without who reset it")
	}
	if err := validDigits(r.Ticket); err != nil {
		return err
	}
	if r.Ticket[:2] != "00" {
		return fmt.Errorf("handpay validated with %s: a secure-enhanced number has system ID 00", r.Ticket)
	}
	if r.Seq > Max24 || r.ExpiryDays > 9999 {
		return fmt.Errorf("handpay validated from sequence %d, expiry %d days: want at most %d and 9999", r.Seq, r.ExpiryDays, Max24)
	}
	return positive("cents", r.Cents)
}

func (r ValidationControl) validate() error {
	if off := CtlSettable &^ CtlDefaultOff; r.Off&^off != 0 {
		return fmt.Errorf("validation control turns off %04X: only %04X can be", r.Off, off)
	}
	if r.On&^CtlDefaultOff != 0 {
		return fmt.Errorf("validation control turns on %04X: only %04X can be", r.On, CtlDefaultOff)
	}
	if r.CashableExpiry > 9999 || r.RestrictedExpiry > 9999 {
		return fmt.Errorf("expirations of %d and %d days exceed 9999", r.CashableExpiry, r.RestrictedExpiry)
	}
	return nil
}

func (r ValidationRead) validate() error {
	if r.Upto == 0 {
		return fmt.Errorf("validations read up to 0")
	}
	return nil
}

// TicketDigits is how many digits a ticket's barcode carries (system ID
// and the 16-digit number).
const TicketDigits = 18

func validDigits(d string) error {
	if len(d) != TicketDigits || strings.Trim(d, "0123456789") != "" {
		return fmt.Errorf("ticket barcode %q: want %d decimal digits", d, TicketDigits)
	}
	return nil
}

func (r TicketEscrow) validate() error { return validDigits(r.Digits) }

func (r TicketRedeem) validate() error {
	if err := validDigits(r.Digits); err != nil {
		return err
	}
	if r.Once && r.Status != RedeemedCashable && r.Status != RedeemedRestricted {
		return fmt.Errorf("ticket %s refused (status %02X) marked as a credit", r.Digits, r.Status)
	}
	if r.Status != RedeemedRestricted && (r.Pool != 0 || r.Expiration != 0) {
		return fmt.Errorf("ticket %s: status %02X with a restricted pool or expiration", r.Digits, r.Status)
	}
	switch {
	case r.Status == RedeemedCashable:
		return positive("cents", r.Cents)
	case r.Status == RedeemedRestricted:
		if _, ok := r.Expiration.Date(); r.Expiration != 0 && !ok {
			return fmt.Errorf("restricted ticket %s expiring %v: want a date (MMDDYYYY) or 0, never", r.Digits, r.Expiration)
		}
		return positive("cents", r.Cents)
	case r.Status >= 0x80 && r.Status <= 0x8B:
		if r.Cents != 0 {
			return fmt.Errorf("ticket %s refused (status %02X) with %d cents", r.Digits, r.Status, r.Cents)
		}
		return nil
	}
	return fmt.Errorf("ticket %s: redemption status %02X is neither 00, 01 (redeemed) nor 80-8B (refused)", r.Digits, r.Status)
}

func (r ValidationRequest) validate() error { return positive("cents", r.Cents) }

func (r ValidationDenied) validate() error {
	if r.Why == "" {
		return fmt.Errorf("validation denied without a reason")
	}
	return positive("cents", r.Cents)
}

// validTicket checks a ticket cash-out's validation fields.
func (r CashOut) validTicket() error {
	switch r.Kind {
	case "":
		if r.Pool != 0 || r.Expiration != 0 {
			return fmt.Errorf("cashable cash-out with a restricted pool or expiration")
		}
	case KindRestricted:
		// Only a number the host validates: a restricted ticket no system
		// knows could never be played again.
		if r.Method != OutTicket || r.Style != StyleSecureEnhanced {
			return fmt.Errorf("restricted cash-out by %s with validation style %q: want a secure-enhanced ticket", r.Method, r.Style)
		}
		if _, ok := r.Expiration.Date(); r.Expiration != 0 && (!ok || r.ExpiryDays != 0) {
			return fmt.Errorf("restricted ticket expiring %v and in %d days: want a date, or days, not both", r.Expiration, r.ExpiryDays)
		}
	default:
		return fmt.Errorf("cash-out of kind %q: want cashable (\"\") or %q", r.Kind, KindRestricted)
	}
	if r.Method != OutTicket {
		if r.Style != "" {
			return fmt.Errorf("%s cash-out with a validation style", r.Method)
		}
		return nil
	}
	switch r.Style {
	case "":
		return nil
	case StyleSecureEnhanced, StyleSystem:
		if err := validDigits(r.Ticket); err != nil {
			return err
		}
		if sys := r.Ticket[:2] == "00"; sys != (r.Style == StyleSecureEnhanced) {
			return fmt.Errorf("%s ticket %s: system ID %s", r.Style, r.Ticket, r.Ticket[:2])
		}
		return nil
	}
	return fmt.Errorf("validation style %q is not %q or %q", r.Style, StyleSecureEnhanced, StyleSystem)
}

// Validation is one validation the host reads with 0x4D: a ticket
// confirmed printed (Kind KindRestricted for a restricted promotional
// ticket, with its Pool and Expiration date, 0 when it expires in
// ExpiryDays), or a handpay validated (Handpay its kind, Receipt whether
// a receipt was printed).
type Validation struct {
	Seq        uint64         `json:"seq"` // numbers the validations, from 1
	At         int64          `json:"at"`
	Ticket     string         `json:"ticket"` // 18 digits: system ID and number
	Cents      int64          `json:"cents"`
	TicketNo   uint16         `json:"ticket_no"`
	ExpiryDays uint16         `json:"expiry_days"`
	Handpay    string         `json:"handpay,omitempty"`
	Receipt    bool           `json:"receipt,omitempty"`
	Kind       string         `json:"kind,omitempty"`
	Pool       uint16         `json:"pool,omitempty"`
	Expiration aft.Expiration `json:"expiration,omitempty"`
}

// ValidationMeter is one of the validation meters (SAS 0x50): how many
// validations of a kind, and how much, over the cabinet's life (a RAM
// clear does not reset them, as it does not reset TicketsIn).
type ValidationMeter struct {
	Count uint64 `json:"count"`
	Cents int64  `json:"cents"`
}

// The validation meters, by what was validated.
const (
	ValMeterCashableOut      = iota // cash-out tickets with a host's number, printed
	ValMeterCancelledReceipt        // cancelled-credit handpays, receipt printed
	ValMeterJackpotReceipt          // win and progressive handpays, receipt printed
	ValMeterCancelled               // cancelled-credit handpays, no receipt
	ValMeterJackpot                 // win and progressive handpays, no receipt
	ValMeterCashableIn              // tickets redeemed
	numValMeters
)

// handpayMeter is the validation meter of a handpay of kind.
func handpayMeter(kind string, receipt bool) int {
	switch {
	case kind == HandpayCancelled && receipt:
		return ValMeterCancelledReceipt
	case kind == HandpayCancelled:
		return ValMeterCancelled
	case receipt:
		return ValMeterJackpotReceipt
	}
	return ValMeterJackpot
}

// Tickets is the fold of this file's records.
type Tickets struct {
	Enhanced *ValidationConfig `json:"enhanced,omitempty"`
	Data     *TicketData       `json:"data,omitempty"`
	// Validations are the last HistoryValidations, oldest first; those
	// with Seq above ReadSeq are unread.
	Validations []Validation  `json:"validations,omitempty"`
	ValSeq      uint64        `json:"val_seq,omitempty"`
	ReadSeq     uint64        `json:"read_seq,omitempty"`
	Escrow      *TicketEscrow `json:"escrow,omitempty"`
	// LastRedeem is the last redemption's end, for 0x71 FF after a restart.
	LastRedeem *TicketRedeem `json:"last_redeem,omitempty"`
	// Requested is a system-validation cash-out waiting for the host.
	Requested *ValidationRequest `json:"requested,omitempty"`
	// TicketsIn counts the tickets redeemed (lifetime).
	TicketsIn uint64 `json:"tickets_in,omitempty"`
	// Off are the validation control bits the host turned off (0x7B),
	// TurnedOn the default-off ones it turned on, RestrictedExpiry the
	// restricted expiration it set (days; 0 none).
	Off              uint16 `json:"off,omitempty"`
	TurnedOn         uint16 `json:"turned_on,omitempty"`
	RestrictedExpiry uint16 `json:"restricted_expiry,omitempty"`
	// Meters are the validation meters (SAS 0x50), by ValMeter*.
	Meters [numValMeters]ValidationMeter `json:"meters,omitzero"`
	// RestrictedOut and RestrictedIn are the validation meters of
	// restricted promotional tickets printed (SAS 0x50 type 01) and
	// redeemed (type 81), kept apart from Meters so that its encoding,
	// which sealed states sign, stays as it was.
	RestrictedOut ValidationMeter `json:"restricted_out,omitzero"`
	RestrictedIn  ValidationMeter `json:"restricted_in,omitzero"`
	// Credited are the validation numbers of every ticket credited here
	// (TicketRedeem.Once), ascending: a ticket is money once, and a copy
	// of one already credited is refused by the machine before it is
	// escrowed, and by the fold if a record ever credits it again. Eight
	// bytes a ticket (an 18-digit number fits in a uint64); a RAM clear
	// keeps them.
	Credited []uint64 `json:"credited,omitempty"`
}

// WasCredited reports whether the ticket with these 18 digits was
// credited at this cabinet.
func (t *Tickets) WasCredited(digits string) bool {
	n, err := strconv.ParseUint(digits, 10, 64)
	if err != nil {
		return false
	}
	_, found := slices.BinarySearch(t.Credited, n)
	return found
}

// credit adds a credited number to Credited, in a fresh slice (the old
// one may be shared with a previous state); a number already there is an
// error: the ledger would pay one ticket twice.
func (t *Tickets) credit(digits string) error {
	n, err := strconv.ParseUint(digits, 10, 64)
	if err != nil {
		return fmt.Errorf("ticket %q: %w", digits, err)
	}
	i, found := slices.BinarySearch(t.Credited, n)
	if found {
		return fmt.Errorf("ticket %s credited again: it was credited here already", digits)
	}
	c := make([]uint64, 0, len(t.Credited)+1)
	c = append(append(append(c, t.Credited[:i]...), n), t.Credited[i:]...)
	t.Credited = c
	return nil
}

// On reports whether validation control bit is on (0x7B): left on by the
// host, or, for a default-off bit, turned on.
func (t *Tickets) On(bit uint16) bool {
	if bit&CtlDefaultOff != 0 {
		return t.TurnedOn&bit != 0
	}
	return t.Off&bit == 0
}

// Unread returns the validations the host has not read, oldest first.
func (t *Tickets) Unread() []Validation {
	for i, v := range t.Validations {
		if v.Seq > t.ReadSeq {
			return t.Validations[i:]
		}
	}
	return nil
}

// busy says what of a ticket cycle is open ("" when none): a RAM clear
// waits for it.
func (t *Tickets) busy() string {
	switch {
	case t.Escrow != nil:
		return "ticket " + t.Escrow.Digits + " in escrow"
	case t.Requested != nil:
		return "a cash-out waiting for its validation number"
	}
	return ""
}

// applyTickets folds this file's records. It replaces what it changes
// (never writes through a pointer or a slice the previous state shares).
func (s *State) applyTickets(r Record) error {
	t := &s.TITO
	switch r := r.(type) {
	case ValidationConfig:
		c := r
		t.Enhanced = &c
	case TicketData:
		d := r
		t.Data = &d
	case ValidationRead:
		if r.Upto < t.ReadSeq || r.Upto > t.ValSeq {
			return fmt.Errorf("validations read up to %d: read %d of %d", r.Upto, t.ReadSeq, t.ValSeq)
		}
		t.ReadSeq = r.Upto
	case TicketEscrow:
		if t.Escrow != nil {
			return fmt.Errorf("ticket %s in escrow while ticket %s is", r.Digits, t.Escrow.Digits)
		}
		e := r
		t.Escrow = &e
	case TicketRedeem:
		if t.Escrow == nil || t.Escrow.Digits != r.Digits {
			return fmt.Errorf("ticket %s redeemed, but the ticket in escrow is %v", r.Digits, t.Escrow)
		}
		if r.Status == RedeemedCashable || r.Status == RedeemedRestricted {
			if t.WasCredited(r.Digits) {
				return fmt.Errorf("ticket %s credited again: it was credited here already", r.Digits)
			}
			if r.Once {
				if err := t.credit(r.Digits); err != nil {
					return err
				}
			}
		}
		switch r.Status {
		case RedeemedCashable:
			if err := s.apply(MoneyIn{At: r.At, Source: SourceTicket, Cents: r.Cents, Ref: r.Digits}); err != nil {
				return err
			}
			t.TicketsIn++
			t.count(ValMeterCashableIn, r.Cents)
		case RedeemedRestricted:
			if err := s.restrictedTicketIn(r); err != nil {
				return err
			}
		}
		last := r
		t.Escrow, t.LastRedeem = nil, &last
	case ValidationRequest:
		if t.Requested != nil {
			return fmt.Errorf("validation requested for %d cents while %d cents wait", r.Cents, t.Requested.Cents)
		}
		if err := s.idle("request a validation number"); err != nil {
			return err
		}
		if r.Cents > s.Meters[Credits] {
			return fmt.Errorf("validation requested for %d cents with %d cents of credit", r.Cents, s.Meters[Credits])
		}
		q := r
		t.Requested = &q
	case ValidationDenied:
		if t.Requested == nil || t.Requested.Cents != r.Cents {
			return fmt.Errorf("validation of %d cents denied, but %v is requested", r.Cents, t.Requested)
		}
		t.Requested = nil
	case HandpayValidated:
		return s.handpayValidated(r)
	case ValidationControl:
		t.Off, t.TurnedOn = r.Off, r.On
		if r.RestrictedExpiry != 0 {
			t.RestrictedExpiry = r.RestrictedExpiry
		}
		if r.CashableExpiry != 0 {
			d := TicketData{At: r.At}
			if t.Data != nil {
				d = *t.Data
			}
			d.ExpiryDays = r.CashableExpiry
			if d.ExpiryDays == 9999 {
				d.ExpiryDays = 0 // never, as 0x7D says it
			}
			t.Data = &d
		}
	}
	return nil
}

// handpayValidated folds a handpay's reset and its validation: the reset
// exactly as HandpayReset, then the number from the next sequence.
func (s *State) handpayValidated(r HandpayValidated) error {
	h := s.Handpay
	if h == nil {
		return fmt.Errorf("handpay validated with no handpay pending")
	}
	kind := h.Kind
	if err := s.nextSequence(r.Ticket, r.Seq, r.At); err != nil {
		return err
	}
	if err := s.apply(HandpayReset{At: r.At, Who: r.Who, Cents: r.Cents}); err != nil {
		return err
	}
	no := uint16(0)
	if r.Receipt {
		s.TicketSeq++
		no = r.TicketNo
	}
	s.TITO.add(Validation{At: r.At, Ticket: r.Ticket, Cents: r.Cents, TicketNo: no, ExpiryDays: r.ExpiryDays,
		Handpay: kind, Receipt: r.Receipt})
	s.TITO.count(handpayMeter(kind, r.Receipt), r.Cents)
	return nil
}

// nextSequence uses up the secure-enhanced sequence seq for number.
func (s *State) nextSequence(number string, seq uint32, at int64) error {
	e := s.TITO.Enhanced
	if e == nil {
		return fmt.Errorf("secure-enhanced number %s without a validation ID from the host", number)
	}
	if want := (e.Seq + 1) & Max24; seq != want {
		return fmt.Errorf("secure-enhanced number %s from sequence %d, want %d", number, seq, want)
	}
	n := *e
	n.Seq, n.At = seq, at
	s.TITO.Enhanced = &n
	return nil
}

// add appends a validation the host is to read, keeping the last
// HistoryValidations.
func (t *Tickets) add(v Validation) {
	t.ValSeq++
	v.Seq = t.ValSeq
	keep := t.Validations[max(0, len(t.Validations)-HistoryValidations+1):]
	t.Validations = append(append(make([]Validation, 0, len(keep)+1), keep...), v)
}

func (t *Tickets) count(meter int, cents int64) {
	t.Meters[meter].Count++
	t.Meters[meter].Cents += cents
}

// cashOutTicket folds a ticket cash-out's validation: a secure-enhanced
// number uses up the next sequence, a system number answers the request.
func (s *State) cashOutTicket(r CashOut) error {
	t := &s.TITO
	switch r.Style {
	case StyleSecureEnhanced:
		if err := s.nextSequence(r.Ticket, r.Seq, r.At); err != nil {
			return err
		}
	case StyleSystem:
		if t.Requested == nil || t.Requested.Cents != r.Cents {
			return fmt.Errorf("system-validated ticket of %d cents, but %v is requested", r.Cents, t.Requested)
		}
		t.Requested = nil
	}
	return nil
}

// ticketPrinted adds a printed ticket with a host's validation to those
// the host reads.
func (s *State) ticketPrinted(p *CashOut) {
	if p.Style == "" {
		return
	}
	s.TITO.add(Validation{At: p.At, Ticket: p.Ticket, Cents: p.Cents, TicketNo: p.TicketNo, ExpiryDays: p.ExpiryDays,
		Kind: p.Kind, Pool: p.Pool, Expiration: p.Expiration})
	if p.Kind == KindRestricted {
		s.Meters[RestrictedTicketOut] += p.Cents
		s.Meters[RestrictedTicketsOut]++
		s.TITO.RestrictedOut.Count++
		s.TITO.RestrictedOut.Cents += p.Cents
		return
	}
	s.TITO.count(ValMeterCashableOut, p.Cents)
}

// restrictedCashOut folds the cash-out of the restricted credits on a
// restricted promotional ticket: all of them, of the pool and expiration
// the ledger holds, with the next secure-enhanced number. Until the
// printer confirms it they are owed (RestrictedOwed).
func (s *State) restrictedCashOut(r CashOut) error {
	c := s.CreditsByKind()
	if c.Restricted == 0 || r.Cents != c.Restricted || r.Pool != c.RestrictedPool || r.Expiration != c.RestrictedExpiration {
		return fmt.Errorf("restricted ticket %s of %d cents (pool %d, expiring %v), but the machine holds %d restricted cents (pool %d, expiring %v)",
			r.Ticket, r.Cents, r.Pool, r.Expiration, c.Restricted, c.RestrictedPool, c.RestrictedExpiration)
	}
	if s.PendingTicket != nil {
		return fmt.Errorf("ticket %s while ticket %s is not printed", r.Ticket, s.PendingTicket.Ticket)
	}
	if err := s.cashOutTicket(r); err != nil {
		return err
	}
	c.Restricted, c.RestrictedPool, c.RestrictedExpiration = 0, 0, 0
	s.setCredits(c)
	t := r
	s.PendingTicket = &t
	s.TicketSeq++
	return nil
}

// restrictedVoid puts back the restricted credits of a restricted ticket
// the printer could not print, with their pool and expiration. Nothing
// brings restricted credits in while a ticket prints (AFT and tickets in
// wait for it), so there are none to merge with.
func (s *State) restrictedVoid(p *CashOut) error {
	c := s.CreditsByKind()
	if c.Restricted != 0 {
		return fmt.Errorf("restricted ticket %s voided while %d restricted cents (pool %d) are on the machine", p.Ticket, c.Restricted, c.RestrictedPool)
	}
	c.Restricted, c.RestrictedPool, c.RestrictedExpiration = p.Cents, p.Pool, p.Expiration
	s.setCredits(c)
	return nil
}

// restrictedTicketIn credits a restricted promotional ticket redeemed:
// restricted credits of its pool, with the later of the two expirations,
// as a restricted transfer in brings them (aft.Credits.Apply). Restricted
// credits of another pool on the machine refuse it.
func (s *State) restrictedTicketIn(r TicketRedeem) error {
	c := s.CreditsByKind()
	if c.Restricted > 0 && c.RestrictedPool != r.Pool {
		return fmt.Errorf("restricted ticket %s of pool %d redeemed while %d restricted cents of pool %d are on the machine",
			r.Digits, r.Pool, c.Restricted, c.RestrictedPool)
	}
	s.setCredits(c.Apply(aft.Transfer{Type: aft.InHouseToMachine, Amounts: aft.Amounts{Restricted: r.Cents},
		PoolID: r.Pool, RestrictedExpiration: r.Expiration}))
	m := &s.Meters
	m[TicketIn] += r.Cents
	m[RestrictedTicketIn] += r.Cents
	m[RestrictedTicketsIn]++
	s.TITO.TicketsIn++
	s.TITO.RestrictedIn.Count++
	s.TITO.RestrictedIn.Cents += r.Cents
	return nil
}

// RestrictedOwed is the amount of the restricted ticket being printed
// (0: none).
func (s *State) RestrictedOwed() int64 {
	if p := s.PendingTicket; p != nil && p.Kind == KindRestricted {
		return p.Cents
	}
	return 0
}

func (t Tickets) clone() Tickets {
	c := t
	c.Validations = append([]Validation(nil), t.Validations...)
	return c
}

// ticketRecord is the empty record of a type of this file, to decode into.
func ticketRecord(t Type) Record {
	switch t {
	case TypeValidationConfig:
		return &ValidationConfig{}
	case TypeTicketData:
		return &TicketData{}
	case TypeValidationRead:
		return &ValidationRead{}
	case TypeTicketEscrow:
		return &TicketEscrow{}
	case TypeTicketRedeem:
		return &TicketRedeem{}
	case TypeValidationRequest:
		return &ValidationRequest{}
	case TypeValidationDenied:
		return &ValidationDenied{}
	case TypeHandpayValidated:
		return &HandpayValidated{}
	case TypeValidationControl:
		return &ValidationControl{}
	}
	return nil
}

// ticketValue is the decoded record as a value.
func ticketValue(r Record) Record {
	switch x := r.(type) {
	case *ValidationConfig:
		return *x
	case *TicketData:
		return *x
	case *ValidationRead:
		return *x
	case *TicketEscrow:
		return *x
	case *TicketRedeem:
		return *x
	case *ValidationRequest:
		return *x
	case *ValidationDenied:
		return *x
	case *HandpayValidated:
		return *x
	case *ValidationControl:
		return *x
	}
	return nil
}
