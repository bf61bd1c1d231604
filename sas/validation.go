package sas

import (
	"errors"
	"fmt"
	"time"
)

// Ticket validation (SAS 6.02 section 15): the long polls of the three
// validation styles, the validation records and meters, and the ticket
// data the host sets. Ticket redemption (0x70, 0x71) is in ticketin.go.
//
// Sources for every layout below: the SAS digest (../shared/spec/sas.md,
// "Tickets (TITO) and validation") for what each poll is for, and the
// field tables in the comments of the open-source Aristocrat Monaco SAS
// client (github.com/tejvirc/Platform, Protocol/SAS/Aristocrat.Sas.Client/
// LPParsers: LP3D, LP4C, LP4D, LP50, LP57, LP58, LP70, LP71, LP7B, LP7C,
// LP7D, and LongPollDataClasses for the code tables), which cite SAS 6.02
// tables 15.2c, 15.3c, 15.12c, 15.12d and 15.13c. Binary fields are least
// significant byte first (that client's Utilities.FromBinary); BCD and
// dates as everywhere in SAS. Where only one source gives a detail, the
// comment next to it says "Choice:".

// Ticket validation long polls.
const (
	CmdCashOutTicketInfo        byte = 0x3D // standard validation: number and amount of the last ticket
	CmdSetValidationID          byte = 0x4C // secure-enhanced: set or read the validation ID and sequence
	CmdEnhancedValidationInfo   byte = 0x4D // secure-enhanced and system: a validation record
	CmdValidationMeters         byte = 0x50 // count and amount of one validation type
	CmdPendingCashoutInfo       byte = 0x57 // system validation: the cash-out waiting for a number
	CmdReceiveValidationNumber  byte = 0x58 // system validation: the host's number (or denial)
	CmdTicketValidationData     byte = 0x70 // ticket in: what the validator read
	CmdRedeemTicket             byte = 0x71 // ticket in: the host's answer, or FF status request
	CmdExtendedValidationStatus byte = 0x7B // validation options and expirations
	CmdSetExtendedTicketData    byte = 0x7C // ticket texts by data code
	CmdSetTicketData            byte = 0x7D // host ID, expiration, location and address
)

// ticketPolls are how the host frames the ticket long polls the cabinet
// does not answer (3D: SAS 15.5, a machine in secure-enhanced or system
// validation does not answer it to the validation controller): kept apart
// from the long-poll table of frame.go, which is what the cabinet's link
// frames and its README lists (TestLongPollTableCoversSupported,
// cmd/cabinet's SAS table). TicketPollSpec frames them for the host side
// and lightweight peers.
var ticketPolls = map[byte]LongPollSpec{
	CmdCashOutTicketInfo: {PollR, 2, false, false},
}

// cabinetTicketPolls are the ticket long polls the cabinet answers
// (cmd/cabinet/sasport_tickets.go): in the long-poll table.
var cabinetTicketPolls = map[byte]LongPollSpec{
	CmdSetValidationID:          {PollS, 10, false, false}, // machine validation ID 3, sequence 3
	CmdEnhancedValidationInfo:   {PollS, 5, false, false},  // function code
	CmdValidationMeters:         {PollS, 5, false, false},  // validation type
	CmdPendingCashoutInfo:       {PollR, 2, false, false},
	CmdReceiveValidationNumber:  {PollS, 13, false, false}, // system ID 1 BCD, number 8 BCD
	CmdTicketValidationData:     {PollR, 2, false, false},
	CmdRedeemTicket:             {PollS, 5, true, false},
	CmdExtendedValidationStatus: {PollS, 5, true, false},
	CmdSetExtendedTicketData:    {PollS, 5, true, true}, // "address 00-7F": may be broadcast
	CmdSetTicketData:            {PollS, 5, true, true},
}

func init() {
	for c, spec := range cabinetTicketPolls {
		longPollLength[c] = spec
	}
}

// TicketPollSpec returns how the host frames ticket long poll cmd, and
// false if cmd is not one.
func TicketPollSpec(cmd byte) (LongPollSpec, bool) {
	if s, ok := ticketPolls[cmd]; ok {
		return s, true
	}
	s, ok := cabinetTicketPolls[cmd]
	return s, ok
}

// TicketPollCommands returns the ticket long polls the cabinet's link
// does not frame, in order.
func TicketPollCommands() []byte {
	var out []byte
	for c := range 256 {
		if _, ok := ticketPolls[byte(c)]; ok {
			out = append(out, byte(c))
		}
	}
	return out
}

// TicketPollFrame builds ticket long poll cmd as the host sends it: addr
// cmd data… and a CRC unless the poll is type R. (LongPollFrame cannot
// tell the type of a poll outside the long-poll table.)
func TicketPollFrame(addr, cmd byte, data ...byte) ([]byte, error) {
	spec, ok := TicketPollSpec(cmd)
	if !ok {
		return nil, fmt.Errorf("%w: %02X is not a ticket long poll", ErrTicketData, cmd)
	}
	b := append([]byte{addr & MaxAddr, cmd}, data...)
	want := spec.Length
	if spec.Variable && len(data) > 0 {
		want += int(data[0])
	}
	if spec.Type == PollR {
		want = 2
		if len(data) != 0 {
			return nil, fmt.Errorf("%w: %02X carries no data, got %d bytes", ErrTicketData, cmd, len(data))
		}
		return b, nil
	}
	if len(b)+2 != want {
		return nil, fmt.Errorf("%w: %02X poll of %d bytes, want %d", ErrTicketData, cmd, len(b)+2, want)
	}
	return AppendCRC(b), nil
}

// ErrTicketData is returned (wrapped, naming the poll and the field) for
// ticket message data that does not decode or a value out of its field.
var ErrTicketData = errors.New("sas: bad ticket data")

func ticketErr(cmd byte, format string, a ...any) error {
	return fmt.Errorf("%w: %02X %s", ErrTicketData, cmd, fmt.Sprintf(format, a...))
}

// fields reads a message's fields in order, remembering the first error
// with the name of the field.
type fields struct {
	cmd  byte
	b    []byte
	off  int
	err  error
	what string
}

func (f *fields) take(name string, n int) []byte {
	if f.err != nil {
		return nil
	}
	if len(f.b)-f.off < n {
		f.err = ticketErr(f.cmd, "%s: %d bytes left, want %d", name, len(f.b)-f.off, n)
		return nil
	}
	b := f.b[f.off : f.off+n]
	f.off += n
	return b
}

func (f *fields) byte(name string) byte {
	b := f.take(name, 1)
	if b == nil {
		return 0
	}
	return b[0]
}

func (f *fields) bcd(name string, n int) uint64 {
	b := f.take(name, n)
	if b == nil {
		return 0
	}
	v, err := DecodeBCD(b)
	if err != nil {
		f.err = ticketErr(f.cmd, "%s: %v", name, err)
	}
	return v
}

func (f *fields) le(name string, n int) uint64 {
	b := f.take(name, n)
	var v uint64
	for i := len(b) - 1; i >= 0; i-- {
		v = v<<8 | uint64(b[i])
	}
	return v
}

func (f *fields) left() int { return len(f.b) - f.off }

// end reports the first error, or bytes left over.
func (f *fields) end() error {
	if f.err == nil && f.off != len(f.b) {
		f.err = ticketErr(f.cmd, "%d bytes after the last field", len(f.b)-f.off)
	}
	return f.err
}

// lengthByte checks the length byte of a variable-length message (its
// first data byte) against the data and returns the fields after it.
func lengthByte(cmd byte, data []byte) (*fields, error) {
	if len(data) < 1 {
		return nil, ticketErr(cmd, "no length byte")
	}
	if int(data[0]) != len(data)-1 {
		return nil, ticketErr(cmd, "length byte %d, but %d bytes follow", data[0], len(data)-1)
	}
	return &fields{cmd: cmd, b: data, off: 1}, nil
}

// withLength prepends the length byte to the data of a variable message.
func withLength(cmd byte, body []byte) ([]byte, error) {
	if len(body) > 0xFF {
		return nil, ticketErr(cmd, "%d data bytes exceed a length byte", len(body))
	}
	return append([]byte{byte(len(body))}, body...), nil
}

// appendLE appends v as n bytes, least significant first.
func appendLE(b []byte, v uint64, n int) []byte {
	for range n {
		b = append(b, byte(v))
		v >>= 8
	}
	return b
}

// Digit widths of the ticket fields.
const (
	// MaxTicketAmount is the largest amount in cents: 5 BCD bytes.
	MaxTicketAmount = 9_999_999_999
	// MaxValidationNumber is the largest 16-digit validation number (8
	// BCD bytes).
	MaxValidationNumber = 9_999_999_999_999_999
	// MaxStandardValidation is the largest 8-digit standard number.
	MaxStandardValidation = 99_999_999
	max24                 = 1<<24 - 1
)

func checkAmount(cmd byte, name string, cents uint64) error {
	if cents > MaxTicketAmount {
		return ticketErr(cmd, "%s %d cents exceeds 10 BCD digits", name, cents)
	}
	return nil
}

// CashOutTicketInfo is the reply to 0x3D: the standard validation number
// and the amount of the last cash-out ticket.
type CashOutTicketInfo struct {
	Validation uint64 `json:"validation"` // 8 digits (4 BCD)
	Cents      uint64 `json:"cents"`      // 5 BCD
}

// Encode returns the data of the reply to 0x3D (9 bytes).
func (c CashOutTicketInfo) Encode() ([]byte, error) {
	if c.Validation > MaxStandardValidation {
		return nil, ticketErr(CmdCashOutTicketInfo, "validation number %d exceeds 8 digits", c.Validation)
	}
	if err := checkAmount(CmdCashOutTicketInfo, "amount", c.Cents); err != nil {
		return nil, err
	}
	return AppendBCD(AppendBCD(nil, c.Validation, 4), c.Cents, 5), nil
}

// DecodeCashOutTicketInfo decodes the data of the reply to 0x3D.
func DecodeCashOutTicketInfo(data []byte) (CashOutTicketInfo, error) {
	f := &fields{cmd: CmdCashOutTicketInfo, b: data}
	c := CashOutTicketInfo{Validation: f.bcd("validation number", 4), Cents: f.bcd("amount", 5)}
	return c, f.end()
}

// ValidationID is the data of 0x4C and of its reply: the machine's
// secure-enhanced validation ID and sequence number, 3 binary bytes each.
// The host sends ID 0 to read the configuration without changing it; the
// machine answers with its current ID and its current sequence number
// (which it increments before each number it makes).
type ValidationID struct {
	MachineID uint32 `json:"machine_id"`
	Sequence  uint32 `json:"sequence"`
}

// Encode returns the 6 data bytes.
func (v ValidationID) Encode() ([]byte, error) {
	if v.MachineID > max24 || v.Sequence > max24 {
		return nil, ticketErr(CmdSetValidationID, "machine ID %d or sequence %d exceeds 3 bytes", v.MachineID, v.Sequence)
	}
	return appendLE(appendLE(nil, uint64(v.MachineID), 3), uint64(v.Sequence), 3), nil
}

// DecodeValidationID decodes the data of 0x4C or of its reply.
func DecodeValidationID(data []byte) (ValidationID, error) {
	f := &fields{cmd: CmdSetValidationID, b: data}
	v := ValidationID{MachineID: uint32(f.le("machine ID", 3)), Sequence: uint32(f.le("sequence", 3))}
	return v, f.end()
}

// Function codes of 0x4D.
const (
	ValidationCurrent   byte = 0x00 // the oldest record the host has not read
	ValidationMaxIndex  byte = 0x1F // 01–1F: the record at that buffer index
	ValidationLookAhead byte = 0xFF // the current record, without moving on
)

// DecodeEnhancedValidationPoll checks the data of 0x4D: one function code,
// 00, 01–1F or FF.
func DecodeEnhancedValidationPoll(data []byte) (byte, error) {
	f := &fields{cmd: CmdEnhancedValidationInfo, b: data}
	fn := f.byte("function code")
	if err := f.end(); err != nil {
		return 0, err
	}
	if fn > ValidationMaxIndex && fn != ValidationLookAhead {
		return 0, ticketErr(CmdEnhancedValidationInfo, "function code %02X is not 00, 01-1F or FF", fn)
	}
	return fn, nil
}

// ValidationType is the kind of a validation record (SAS table 15.13c),
// in 0x4D replies and for 0x50.
type ValidationType byte

// Validation types.
const (
	ValCashableTicket          ValidationType = 0x00 // cash-out or win, no handpay lockup
	ValRestrictedTicket        ValidationType = 0x01 // restricted promotional, from cash-out
	ValCashableTicketAFT       ValidationType = 0x02
	ValRestrictedTicketAFT     ValidationType = 0x03
	ValDebitTicketAFT          ValidationType = 0x04
	ValHandpayCancelledReceipt ValidationType = 0x10 // cancelled credits handpay, receipt printed
	ValHandpayJackpotReceipt   ValidationType = 0x20 // jackpot handpay, receipt printed
	ValHandpayCancelled        ValidationType = 0x40 // cancelled credits handpay, no receipt
	ValHandpayJackpot          ValidationType = 0x60 // jackpot handpay, no receipt
	ValCashableRedeemed        ValidationType = 0x80
	ValRestrictedRedeemed      ValidationType = 0x81
	ValNonRestrictedRedeemed   ValidationType = 0x82
)

var validationTypeNames = map[ValidationType]string{
	ValCashableTicket: "cashable ticket", ValRestrictedTicket: "restricted promotional ticket",
	ValCashableTicketAFT: "cashable ticket from AFT", ValRestrictedTicketAFT: "restricted ticket from AFT",
	ValDebitTicketAFT: "debit ticket from AFT", ValHandpayCancelledReceipt: "cancelled credits handpay with receipt",
	ValHandpayJackpotReceipt: "jackpot handpay with receipt", ValHandpayCancelled: "cancelled credits handpay",
	ValHandpayJackpot: "jackpot handpay", ValCashableRedeemed: "cashable ticket redeemed",
	ValRestrictedRedeemed: "restricted promotional ticket redeemed", ValNonRestrictedRedeemed: "non-restricted promotional ticket redeemed",
}

// Known reports whether t is in table 15.13c.
func (t ValidationType) Known() bool { _, ok := validationTypeNames[t]; return ok }

func (t ValidationType) String() string {
	if n, ok := validationTypeNames[t]; ok {
		return n
	}
	return fmt.Sprintf("validation type %02X", byte(t))
}

// Expiration values of 0x4D (4 BCD): a date MMDDYYYY, or a number of days.
const (
	ExpirationNone  = 0    // no ticket printed, or extensions not supported
	ExpirationNever = 9999 // the ticket never expires
	// NoTicketNumber is the ticket number of a validation without a ticket.
	NoTicketNumber = 0xFFFF
)

// ValidationRecord is a validation as 0x4D reports it. The zero record is
// what the machine answers when it has none (31 zero bytes).
type ValidationRecord struct {
	Type  ValidationType `json:"type"`
	Index byte           `json:"index"`
	// At is the date and time of the validation, in the machine's clock:
	// its wall-clock fields are what the message carries (location UTC).
	At time.Time `json:"at"`
	// Number is the 16-digit validation number (8 BCD).
	Number uint64 `json:"number"`
	Cents  uint64 `json:"cents"`
	// TicketNumber is the number printed on the ticket (0–9999), or
	// NoTicketNumber.
	TicketNumber uint16 `json:"ticket_number"`
	// SystemID is 00 for a secure-enhanced number, 01–99 for a number the
	// host gave (BCD).
	SystemID byte `json:"system_id"`
	// Expiration is a date as MMDDYYYY, 1–9998 days, ExpirationNever or
	// ExpirationNone.
	Expiration uint32 `json:"expiration"`
	PoolID     uint16 `json:"pool_id"`
}

const validationRecordLen = 31

// IsZero reports whether r is the empty record.
func (r ValidationRecord) IsZero() bool { return r == ValidationRecord{} }

// Encode returns the data of the reply to 0x4D (31 bytes): type, index,
// date (MMDDYYYY) and time (HHMMSS), number (8 BCD), amount (5 BCD),
// ticket number (2 binary), system ID (1 BCD), expiration (4 BCD), pool ID
// (2 binary).
func (r ValidationRecord) Encode() ([]byte, error) {
	if r.IsZero() {
		return make([]byte, validationRecordLen), nil
	}
	switch {
	case !r.Type.Known():
		return nil, ticketErr(CmdEnhancedValidationInfo, "%v is not in table 15.13c", r.Type)
	case r.Index > ValidationMaxIndex:
		return nil, ticketErr(CmdEnhancedValidationInfo, "index %d exceeds %d", r.Index, ValidationMaxIndex)
	case r.At.Year() < 1 || r.At.Year() > 9999:
		return nil, ticketErr(CmdEnhancedValidationInfo, "date %v outside years 0001-9999", r.At)
	case r.Number > MaxValidationNumber:
		return nil, ticketErr(CmdEnhancedValidationInfo, "validation number %d exceeds 16 digits", r.Number)
	case r.TicketNumber > 9999 && r.TicketNumber != NoTicketNumber:
		return nil, ticketErr(CmdEnhancedValidationInfo, "ticket number %d is not 0-9999 or FFFF", r.TicketNumber)
	case r.SystemID > 99:
		return nil, ticketErr(CmdEnhancedValidationInfo, "system ID %d exceeds 2 digits", r.SystemID)
	case r.Expiration > 99_999_999:
		return nil, ticketErr(CmdEnhancedValidationInfo, "expiration %d exceeds 8 digits", r.Expiration)
	}
	if err := checkAmount(CmdEnhancedValidationInfo, "amount", r.Cents); err != nil {
		return nil, err
	}
	b := []byte{byte(r.Type), r.Index}
	b = append(b, EncodeTime(r.At)...)
	b = AppendBCD(b, r.Number, 8)
	b = AppendBCD(b, r.Cents, 5)
	b = appendLE(b, uint64(r.TicketNumber), 2)
	b = AppendBCD(b, uint64(r.SystemID), 1)
	b = AppendBCD(b, uint64(r.Expiration), 4)
	return appendLE(b, uint64(r.PoolID), 2), nil
}

// DecodeValidationRecord decodes the data of the reply to 0x4D strictly:
// 31 bytes, all zero (no record) or every field valid.
func DecodeValidationRecord(data []byte) (ValidationRecord, error) {
	if len(data) == validationRecordLen && allZero(data) {
		return ValidationRecord{}, nil
	}
	f := &fields{cmd: CmdEnhancedValidationInfo, b: data}
	r := ValidationRecord{Type: ValidationType(f.byte("validation type")), Index: f.byte("index")}
	r.At = f.dateTime("date and time")
	r.Number = f.bcd("validation number", 8)
	r.Cents = f.bcd("amount", 5)
	r.TicketNumber = uint16(f.le("ticket number", 2))
	r.SystemID = byte(f.bcd("system ID", 1))
	r.Expiration = uint32(f.bcd("expiration", 4))
	r.PoolID = uint16(f.le("pool ID", 2))
	if err := f.end(); err != nil {
		return ValidationRecord{}, err
	}
	if _, err := r.Encode(); err != nil { // the range checks
		return ValidationRecord{}, err
	}
	return r, nil
}

func allZero(b []byte) bool {
	for _, x := range b {
		if x != 0 {
			return false
		}
	}
	return true
}

// dateTime reads MMDDYYYY HHMMSS (7 BCD bytes) as a valid date and time.
func (f *fields) dateTime(name string) time.Time {
	mo, d, y := f.bcd(name+" month", 1), f.bcd(name+" day", 1), f.bcd(name+" year", 2)
	h, mi, s := f.bcd(name+" hour", 1), f.bcd(name+" minute", 1), f.bcd(name+" second", 1)
	if f.err != nil {
		return time.Time{}
	}
	t := time.Date(int(y), time.Month(mo), int(d), int(h), int(mi), int(s), 0, time.UTC)
	if mo < 1 || mo > 12 || d < 1 || h > 23 || mi > 59 || s > 59 || t.Day() != int(d) || y < 1 {
		f.err = ticketErr(f.cmd, "%s %02d/%02d/%04d %02d:%02d:%02d is not a valid date and time", name, mo, d, y, h, mi, s)
	}
	return t
}

// ValidationMeters is the reply to 0x50 for one validation type.
type ValidationMeters struct {
	Type  ValidationType `json:"type"`
	Count uint64         `json:"count"` // 4 BCD
	Cents uint64         `json:"cents"` // 5 BCD
}

// Encode returns the data of the reply to 0x50 (10 bytes). Count and
// amount roll over at their widths, as meters do.
func (m ValidationMeters) Encode() ([]byte, error) {
	if !m.Type.Known() {
		return nil, ticketErr(CmdValidationMeters, "%v is not in table 15.13c", m.Type)
	}
	return AppendBCD(AppendBCD([]byte{byte(m.Type)}, m.Count, 4), m.Cents, 5), nil
}

// DecodeValidationMetersPoll checks the data of 0x50: a known validation
// type.
func DecodeValidationMetersPoll(data []byte) (ValidationType, error) {
	f := &fields{cmd: CmdValidationMeters, b: data}
	t := ValidationType(f.byte("validation type"))
	if err := f.end(); err != nil {
		return 0, err
	}
	if !t.Known() {
		return 0, ticketErr(CmdValidationMeters, "%v is not in table 15.13c", t)
	}
	return t, nil
}

// DecodeValidationMeters decodes the data of the reply to 0x50.
func DecodeValidationMeters(data []byte) (ValidationMeters, error) {
	f := &fields{cmd: CmdValidationMeters, b: data}
	m := ValidationMeters{Type: ValidationType(f.byte("validation type")), Count: f.bcd("count", 4), Cents: f.bcd("amount", 5)}
	if err := f.end(); err != nil {
		return ValidationMeters{}, err
	}
	if !m.Type.Known() {
		return ValidationMeters{}, ticketErr(CmdValidationMeters, "%v is not in table 15.13c", m.Type)
	}
	return m, nil
}

// Cash-out types of the reply to 0x57.
const (
	CashoutCashable      byte = 0x00
	CashoutRestricted    byte = 0x01
	CashoutNotWaiting    byte = 0x80 // no cash-out waits for a validation number
	pendingCashoutLength      = 6
)

// PendingCashout is the reply to 0x57.
type PendingCashout struct {
	Type  byte   `json:"type"`  // CashoutCashable, CashoutRestricted or CashoutNotWaiting
	Cents uint64 `json:"cents"` // 5 BCD; 0 when not waiting
}

// Encode returns the data of the reply to 0x57 (6 bytes).
func (p PendingCashout) Encode() ([]byte, error) {
	if p.Type != CashoutCashable && p.Type != CashoutRestricted && p.Type != CashoutNotWaiting {
		return nil, ticketErr(CmdPendingCashoutInfo, "cash-out type %02X is not 00, 01 or 80", p.Type)
	}
	if err := checkAmount(CmdPendingCashoutInfo, "amount", p.Cents); err != nil {
		return nil, err
	}
	return AppendBCD([]byte{p.Type}, p.Cents, 5), nil
}

// DecodePendingCashout decodes the data of the reply to 0x57.
func DecodePendingCashout(data []byte) (PendingCashout, error) {
	f := &fields{cmd: CmdPendingCashoutInfo, b: data}
	p := PendingCashout{Type: f.byte("cash-out type"), Cents: f.bcd("amount", 5)}
	if err := f.end(); err != nil {
		return PendingCashout{}, err
	}
	if _, err := p.Encode(); err != nil {
		return PendingCashout{}, err
	}
	return p, nil
}

// ValidationNumber is the data of 0x58: the host's system ID and number
// for the pending cash-out. System ID 00 denies the validation (the
// machine then does not print the ticket).
type ValidationNumber struct {
	SystemID byte   `json:"system_id"` // 1 BCD: 00 denied, 01–99
	Number   uint64 `json:"number"`    // 8 BCD
}

// Denied reports whether the host refused to validate the cash-out.
func (v ValidationNumber) Denied() bool { return v.SystemID == 0 }

// Encode returns the 9 data bytes of 0x58.
func (v ValidationNumber) Encode() ([]byte, error) {
	if v.SystemID > 99 || v.Number > MaxValidationNumber {
		return nil, ticketErr(CmdReceiveValidationNumber, "system ID %d or number %d exceeds its digits", v.SystemID, v.Number)
	}
	return AppendBCD(AppendBCD(nil, uint64(v.SystemID), 1), v.Number, 8), nil
}

// DecodeValidationNumber decodes the data of 0x58.
func DecodeValidationNumber(data []byte) (ValidationNumber, error) {
	f := &fields{cmd: CmdReceiveValidationNumber, b: data}
	v := ValidationNumber{SystemID: byte(f.bcd("system ID", 1)), Number: f.bcd("validation number", 8)}
	return v, f.end()
}

// Status of the reply to 0x58.
const (
	ReceiveValidationAck      byte = 0x00 // number taken (or the denial)
	ReceiveValidationNotInOut byte = 0x80 // not in a cash-out
	ReceiveValidationRejected byte = 0x81 // improper validation rejected
)

// DecodeReceiveValidationStatus decodes the data of the reply to 0x58.
func DecodeReceiveValidationStatus(data []byte) (byte, error) {
	f := &fields{cmd: CmdReceiveValidationNumber, b: data}
	s := f.byte("status")
	if err := f.end(); err != nil {
		return 0, err
	}
	if s != ReceiveValidationAck && s != ReceiveValidationNotInOut && s != ReceiveValidationRejected {
		return 0, ticketErr(CmdReceiveValidationNumber, "status %02X is not 00, 80 or 81", s)
	}
	return s, nil
}

// Validation control bits of 0x7B (SAS table 15.2c).
const (
	ValCtlPrinterCashout       uint16 = 0x0001 // use the printer as cash-out device
	ValCtlPrinterHandpay       uint16 = 0x0002 // use the printer as handpay receipt device
	ValCtlValidateHandpays     uint16 = 0x0004 // validate handpays and handpay receipts
	ValCtlPrintRestricted      uint16 = 0x0008 // print restricted tickets
	ValCtlForeignRestricted    uint16 = 0x0010 // tickets for foreign restricted amounts
	ValCtlTicketRedemption     uint16 = 0x0020 // ticket redemption
	ValCtlSecureEnhancedConfig uint16 = 0x8000 // secure-enhanced configuration (read only)
	// ValCtlKnown is every bit the table defines.
	ValCtlKnown = ValCtlPrinterCashout | ValCtlPrinterHandpay | ValCtlValidateHandpays |
		ValCtlPrintRestricted | ValCtlForeignRestricted | ValCtlTicketRedemption | ValCtlSecureEnhancedConfig
)

// ValidationControl is the data of 0x7B: which control bits to change, to
// what, and the default expirations (days, 2 BCD; 0000 keeps the current
// value, 9999 never expires).
type ValidationControl struct {
	Mask                 uint16 `json:"mask"`
	States               uint16 `json:"states"`
	CashableExpiration   uint16 `json:"cashable_expiration"`
	RestrictedExpiration uint16 `json:"restricted_expiration"`
}

// Encode returns the data of 0x7B, length byte (08) first.
func (c ValidationControl) Encode() ([]byte, error) {
	if c.CashableExpiration > 9999 || c.RestrictedExpiration > 9999 {
		return nil, ticketErr(CmdExtendedValidationStatus, "expirations %d, %d exceed 4 digits", c.CashableExpiration, c.RestrictedExpiration)
	}
	b := appendLE(appendLE(nil, uint64(c.Mask), 2), uint64(c.States), 2)
	b = AppendBCD(AppendBCD(b, uint64(c.CashableExpiration), 2), uint64(c.RestrictedExpiration), 2)
	return withLength(CmdExtendedValidationStatus, b)
}

// DecodeValidationControl decodes the data of 0x7B.
//
// Choice: bits outside table 15.2c are refused here (the Aristocrat client
// ignores them); the machine's handler may mask them instead.
func DecodeValidationControl(data []byte) (ValidationControl, error) {
	f, err := lengthByte(CmdExtendedValidationStatus, data)
	if err != nil {
		return ValidationControl{}, err
	}
	c := ValidationControl{Mask: uint16(f.le("control mask", 2)), States: uint16(f.le("control states", 2)),
		CashableExpiration: uint16(f.bcd("cashable expiration", 2)), RestrictedExpiration: uint16(f.bcd("restricted expiration", 2))}
	if err := f.end(); err != nil {
		return ValidationControl{}, err
	}
	if c.Mask&^ValCtlKnown != 0 {
		return ValidationControl{}, ticketErr(CmdExtendedValidationStatus, "control mask %04X has bits outside table 15.2c", c.Mask)
	}
	return c, nil
}

// ValidationStatus is the reply to 0x7B.
type ValidationStatus struct {
	Asset                uint32 `json:"asset"` // 4 binary
	Status               uint16 `json:"status"`
	CashableExpiration   uint16 `json:"cashable_expiration"`
	RestrictedExpiration uint16 `json:"restricted_expiration"`
}

// Encode returns the data of the reply to 0x7B, length byte (0A) first.
func (s ValidationStatus) Encode() ([]byte, error) {
	if s.CashableExpiration > 9999 || s.RestrictedExpiration > 9999 {
		return nil, ticketErr(CmdExtendedValidationStatus, "expirations %d, %d exceed 4 digits", s.CashableExpiration, s.RestrictedExpiration)
	}
	b := appendLE(appendLE(nil, uint64(s.Asset), 4), uint64(s.Status), 2)
	b = AppendBCD(AppendBCD(b, uint64(s.CashableExpiration), 2), uint64(s.RestrictedExpiration), 2)
	return withLength(CmdExtendedValidationStatus, b)
}

// DecodeValidationStatus decodes the data of the reply to 0x7B.
func DecodeValidationStatus(data []byte) (ValidationStatus, error) {
	f, err := lengthByte(CmdExtendedValidationStatus, data)
	if err != nil {
		return ValidationStatus{}, err
	}
	s := ValidationStatus{Asset: uint32(f.le("asset number", 4)), Status: uint16(f.le("status bits", 2)),
		CashableExpiration: uint16(f.bcd("cashable expiration", 2)), RestrictedExpiration: uint16(f.bcd("restricted expiration", 2))}
	return s, f.end()
}

// Ticket text limits of 0x7C and 0x7D.
const (
	MaxTicketText  = 40 // location and address lines
	MaxTicketTitle = 16 // restricted and debit ticket titles
)

// Data codes of 0x7C (SAS table 15.3c).
const (
	TicketLocation        byte = 0x00
	TicketAddress1        byte = 0x01
	TicketAddress2        byte = 0x02
	TicketRestrictedTitle byte = 0x10
	TicketDebitTitle      byte = 0x20
)

// TicketText is one data element of 0x7C.
type TicketText struct {
	Code byte   `json:"code"`
	Text string `json:"text"` // ASCII
}

func checkTicketText(cmd byte, code byte, s string) error {
	max := MaxTicketText
	switch code {
	case TicketLocation, TicketAddress1, TicketAddress2:
	case TicketRestrictedTitle, TicketDebitTitle:
		max = MaxTicketTitle
	default:
		return ticketErr(cmd, "data code %02X is not in table 15.3c", code)
	}
	if len(s) > max {
		return ticketErr(cmd, "data code %02X: %d characters, at most %d", code, len(s), max)
	}
	for i := range len(s) {
		if s[i] < 0x20 || s[i] > 0x7E {
			return ticketErr(cmd, "data code %02X: byte %d is 0x%02X, not printable ASCII", code, i, s[i])
		}
	}
	return nil
}

// EncodeExtendedTicketData returns the data of 0x7C: length byte, then
// code, length and text of each element.
func EncodeExtendedTicketData(texts []TicketText) ([]byte, error) {
	var b []byte
	for _, t := range texts {
		if err := checkTicketText(CmdSetExtendedTicketData, t.Code, t.Text); err != nil {
			return nil, err
		}
		b = append(append(b, t.Code, byte(len(t.Text))), t.Text...)
	}
	return withLength(CmdSetExtendedTicketData, b)
}

// DecodeExtendedTicketData decodes the data of 0x7C. No elements (length
// 0) is the host reading the flag.
func DecodeExtendedTicketData(data []byte) ([]TicketText, error) {
	f, err := lengthByte(CmdSetExtendedTicketData, data)
	if err != nil {
		return nil, err
	}
	var out []TicketText
	for i := 0; f.left() > 0; i++ {
		code := f.byte(fmt.Sprintf("element %d data code", i))
		n := f.byte(fmt.Sprintf("element %d length", i))
		text := string(f.take(fmt.Sprintf("element %d text", i), int(n)))
		if f.err != nil {
			return nil, f.err
		}
		if err := checkTicketText(CmdSetExtendedTicketData, code, text); err != nil {
			return nil, err
		}
		out = append(out, TicketText{Code: code, Text: text})
	}
	return out, f.end()
}

// TicketData is the data of 0x7D. The message may stop after any field
// (length 0: nothing; 2: host ID; 3: and expiration; then the texts); an
// empty text leaves the machine's text as it is.
type TicketData struct {
	// Fields is how many of the fields below are present: 0 none, 1 host
	// ID, 2 and expiration, 3–5 and that many texts.
	Fields   int    `json:"fields"`
	HostID   uint16 `json:"host_id"`
	Expiry   byte   `json:"expiry"` // days, 00 never expires
	Location string `json:"location,omitempty"`
	Address1 string `json:"address1,omitempty"`
	Address2 string `json:"address2,omitempty"`
}

// Encode returns the data of 0x7D, length byte first.
func (d TicketData) Encode() ([]byte, error) {
	if d.Fields < 0 || d.Fields > 5 {
		return nil, ticketErr(CmdSetTicketData, "%d fields, want 0-5", d.Fields)
	}
	var b []byte
	if d.Fields >= 1 {
		b = appendLE(b, uint64(d.HostID), 2)
	}
	if d.Fields >= 2 {
		b = append(b, d.Expiry)
	}
	for i, t := range []struct {
		code byte
		s    string
	}{{TicketLocation, d.Location}, {TicketAddress1, d.Address1}, {TicketAddress2, d.Address2}} {
		if d.Fields < 3+i {
			if t.s != "" {
				return nil, ticketErr(CmdSetTicketData, "text %q beyond the %d fields sent", t.s, d.Fields)
			}
			continue
		}
		if err := checkTicketText(CmdSetTicketData, t.code, t.s); err != nil {
			return nil, err
		}
		b = append(append(b, byte(len(t.s))), t.s...)
	}
	return withLength(CmdSetTicketData, b)
}

// DecodeTicketData decodes the data of 0x7D strictly: whole fields only.
func DecodeTicketData(data []byte) (TicketData, error) {
	f, err := lengthByte(CmdSetTicketData, data)
	if err != nil {
		return TicketData{}, err
	}
	var d TicketData
	if f.left() > 0 {
		d.HostID, d.Fields = uint16(f.le("host ID", 2)), 1
	}
	if f.left() > 0 {
		d.Expiry, d.Fields = f.byte("expiration"), 2
	}
	for i, dst := range []*string{&d.Location, &d.Address1, &d.Address2} {
		if f.left() == 0 || f.err != nil {
			break
		}
		name := [3]string{"location", "address 1", "address 2"}[i]
		n := f.byte(name + " length")
		*dst = string(f.take(name, int(n)))
		if f.err == nil {
			if err := checkTicketText(CmdSetTicketData, byte(i), *dst); err != nil {
				return TicketData{}, err
			}
		}
		d.Fields = 3 + i
	}
	if err := f.end(); err != nil {
		return TicketData{}, err
	}
	return d, nil
}

// DecodeTicketDataFlag decodes the data of the reply to 0x7C or 0x7D: one
// flag, 00 or 01.
func DecodeTicketDataFlag(cmd byte, data []byte) (bool, error) {
	f := &fields{cmd: cmd, b: data}
	v := f.byte("flag")
	if err := f.end(); err != nil {
		return false, err
	}
	if v > 1 {
		return false, ticketErr(cmd, "flag %02X is not 00 or 01", v)
	}
	return v == 1, nil
}
