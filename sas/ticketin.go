package sas

import "fmt"

// Ticket in (SAS 6.02 section 15, ticket redemption): the validator reads
// a ticket, the machine posts exception 0x67 and holds the ticket in
// escrow; the host reads what was read with 0x70 and answers with 0x71
// (a transfer code and the amount it authorises); the machine replies 40
// (pending) while it credits, posts 0x68 when it is done, and the host
// reads the final status with 0x71 transfer code FF. Sources and byte
// order as in validation.go.

// ParsingBCD is the parsing code of validation data as 9 BCD bytes: a
// 2-digit system ID (00: secure-enhanced) and the 16-digit number, the 18
// digits of the barcode.
const ParsingBCD byte = 0x00

// ValidationDataLen is the length of validation data with ParsingBCD.
const ValidationDataLen = 9

// MaxValidationData is the most validation data a message carries.
const MaxValidationData = 32

// Ticket status of the reply to 0x70.
const (
	TicketInEscrow byte = 0x00 // a ticket is in escrow: its data follows
	TicketNone     byte = 0xFF // no ticket in escrow
)

// TicketValidationData is the reply to 0x70: what the validator read.
type TicketValidationData struct {
	Status byte `json:"status"` // TicketInEscrow or TicketNone
	// Cents is the amount printed on the ticket if the validator could
	// read it, 0 otherwise (the host's record decides the amount).
	Cents       uint64 `json:"cents"`
	ParsingCode byte   `json:"parsing_code"`
	// Data is the validation data: with ParsingBCD the 9 BCD bytes of the
	// 18 digits; other parsing codes carry 1–32 bytes the host interprets.
	Data []byte `json:"data"`
}

// ValidationDigits returns the 18 digits of BCD validation data.
func ValidationDigits(data []byte) (string, error) {
	if len(data) != ValidationDataLen {
		return "", fmt.Errorf("%w: validation data of %d bytes, want %d", ErrTicketData, len(data), ValidationDataLen)
	}
	if _, err := DecodeBCD(data); err != nil {
		return "", fmt.Errorf("%w: validation data: %v", ErrTicketData, err)
	}
	return fmt.Sprintf("%X", data), nil
}

// EncodeValidationDigits returns the 9 BCD bytes of 18 decimal digits.
func EncodeValidationDigits(digits string) ([]byte, error) {
	if len(digits) != 2*ValidationDataLen {
		return nil, fmt.Errorf("%w: validation digits %q: want %d", ErrTicketData, digits, 2*ValidationDataLen)
	}
	b := make([]byte, ValidationDataLen)
	for i := range len(digits) {
		c := digits[i]
		if c < '0' || c > '9' {
			return nil, fmt.Errorf("%w: validation digits %q: %q is not a digit", ErrTicketData, digits, c)
		}
		b[i/2] |= (c - '0') << (4 * (1 - i%2))
	}
	return b, nil
}

// checkValidationData checks data against its parsing code.
func checkValidationData(cmd byte, parsing byte, data []byte) error {
	if parsing == ParsingBCD {
		if _, err := ValidationDigits(data); err != nil {
			return ticketErr(cmd, "%v", err)
		}
		return nil
	}
	if len(data) < 1 || len(data) > MaxValidationData {
		return ticketErr(cmd, "parsing code %02X: %d bytes of validation data, want 1-%d", parsing, len(data), MaxValidationData)
	}
	return nil
}

// Encode returns the data of the reply to 0x70, length byte first: the
// status alone when no ticket is in escrow.
func (t TicketValidationData) Encode() ([]byte, error) {
	switch t.Status {
	case TicketNone:
		return withLength(CmdTicketValidationData, []byte{TicketNone})
	case TicketInEscrow:
	default:
		return nil, ticketErr(CmdTicketValidationData, "ticket status %02X is not 00 or FF", t.Status)
	}
	if err := checkAmount(CmdTicketValidationData, "amount", t.Cents); err != nil {
		return nil, err
	}
	if err := checkValidationData(CmdTicketValidationData, t.ParsingCode, t.Data); err != nil {
		return nil, err
	}
	b := AppendBCD([]byte{t.Status}, t.Cents, 5)
	return withLength(CmdTicketValidationData, append(append(b, t.ParsingCode), t.Data...))
}

// DecodeTicketValidationData decodes the data of the reply to 0x70.
func DecodeTicketValidationData(data []byte) (TicketValidationData, error) {
	f, err := lengthByte(CmdTicketValidationData, data)
	if err != nil {
		return TicketValidationData{}, err
	}
	t := TicketValidationData{Status: f.byte("ticket status")}
	if t.Status == TicketNone && f.left() == 0 {
		return t, f.end()
	}
	if t.Status != TicketInEscrow {
		return TicketValidationData{}, ticketErr(CmdTicketValidationData, "ticket status %02X with data, want 00", t.Status)
	}
	t.Cents = f.bcd("amount", 5)
	t.ParsingCode = f.byte("parsing code")
	t.Data = append([]byte(nil), f.take("validation data", f.left())...)
	if f.err != nil {
		return TicketValidationData{}, f.err
	}
	if err := checkValidationData(CmdTicketValidationData, t.ParsingCode, t.Data); err != nil {
		return TicketValidationData{}, err
	}
	return t, f.end()
}

// TransferCode is the host's verdict on a ticket in 0x71 (SAS table
// 15.12c).
type TransferCode byte

// Transfer codes.
const (
	TransferCashable        TransferCode = 0x00 // valid cashable ticket
	TransferRestricted      TransferCode = 0x01 // valid restricted promotional ticket
	TransferNonRestricted   TransferCode = 0x02 // valid non-restricted promotional ticket
	TransferUnable          TransferCode = 0x80 // unable to validate (no reason given)
	TransferNotValid        TransferCode = 0x81 // not a valid validation number
	TransferNotInSystem     TransferCode = 0x82 // validation number not in system
	TransferPending         TransferCode = 0x83 // ticket marked pending in system
	TransferAlreadyRedeemed TransferCode = 0x84
	TransferExpired         TransferCode = 0x85
	TransferInfoUnavailable TransferCode = 0x86 // validation information not available
	TransferAmountMismatch  TransferCode = 0x87 // ticket amount does not match the system's
	TransferOverAutoLimit   TransferCode = 0x88 // amount exceeds the auto-redemption limit
	TransferNotNow          TransferCode = 0x90 // not valid at this time
	TransferNotThisMachine  TransferCode = 0x91 // not valid on this gaming machine
	TransferPlayerCard      TransferCode = 0x92 // player card must be inserted
	TransferNotForPlayer    TransferCode = 0x93 // not valid for the current player
	TransferStatusRequest   TransferCode = 0xFF // request for the current ticket status
)

var transferNames = map[TransferCode]string{
	TransferCashable: "valid cashable ticket", TransferRestricted: "valid restricted promotional ticket",
	TransferNonRestricted: "valid non-restricted promotional ticket", TransferUnable: "unable to validate",
	TransferNotValid: "not a valid validation number", TransferNotInSystem: "validation number not in system",
	TransferPending: "ticket marked pending in system", TransferAlreadyRedeemed: "ticket already redeemed",
	TransferExpired: "ticket expired", TransferInfoUnavailable: "validation information not available",
	TransferAmountMismatch: "ticket amount does not match system", TransferOverAutoLimit: "ticket amount exceeds auto redemption limit",
	TransferNotNow: "ticket not valid at this time", TransferNotThisMachine: "ticket not valid on this gaming machine",
	TransferPlayerCard: "player card must be inserted", TransferNotForPlayer: "ticket not valid for current player",
	TransferStatusRequest: "request for current ticket status",
}

// Known reports whether c is in table 15.12c.
func (c TransferCode) Known() bool { _, ok := transferNames[c]; return ok }

// Accepts reports whether c authorises the machine to credit the ticket.
func (c TransferCode) Accepts() bool { return c <= TransferNonRestricted }

func (c TransferCode) String() string {
	if n, ok := transferNames[c]; ok {
		return n
	}
	return fmt.Sprintf("transfer code %02X", byte(c))
}

// RedeemTicket is the data of 0x71. A status request (TransferStatusRequest)
// may carry nothing else; every other code carries the amount, the
// parsing code and the validation data of the ticket in escrow, and may
// carry a restricted expiration and pool ID, and then a target ID.
type RedeemTicket struct {
	Code        TransferCode `json:"code"`
	Cents       uint64       `json:"cents"`
	ParsingCode byte         `json:"parsing_code"`
	Data        []byte       `json:"data,omitempty"` // 9 BCD bytes (ParsingBCD)
	// Restricted: the expiration and pool ID fields are present.
	Restricted bool `json:"restricted,omitempty"`
	// Expiration of restricted credits: MMDDYYYY or 0000NNNN days (4 BCD).
	Expiration uint32 `json:"expiration,omitempty"`
	PoolID     uint16 `json:"pool_id,omitempty"`
	// TargetID (ASCII), present only with Restricted; HasTarget marks an
	// empty target ID that was sent.
	TargetID  string `json:"target_id,omitempty"`
	HasTarget bool   `json:"has_target,omitempty"`
}

// StatusOnly reports whether r is the short status request.
func (r RedeemTicket) StatusOnly() bool {
	return r.Code == TransferStatusRequest && r.Data == nil && !r.Restricted
}

// Encode returns the data of 0x71, length byte first.
//
// Choice: only ParsingBCD validation data is encoded and decoded here:
// with another parsing code the length of the data cannot be told from
// the fields that may follow it.
func (r RedeemTicket) Encode() ([]byte, error) {
	if !r.Code.Known() {
		return nil, ticketErr(CmdRedeemTicket, "%v is not in table 15.12c", r.Code)
	}
	if r.StatusOnly() {
		return withLength(CmdRedeemTicket, []byte{byte(r.Code)})
	}
	if r.ParsingCode != ParsingBCD {
		return nil, ticketErr(CmdRedeemTicket, "parsing code %02X: only 00 (BCD) is supported", r.ParsingCode)
	}
	if err := checkValidationData(CmdRedeemTicket, r.ParsingCode, r.Data); err != nil {
		return nil, err
	}
	if err := checkAmount(CmdRedeemTicket, "amount", r.Cents); err != nil {
		return nil, err
	}
	b := AppendBCD([]byte{byte(r.Code)}, r.Cents, 5)
	b = append(append(b, r.ParsingCode), r.Data...)
	if r.Restricted {
		if r.Expiration > 99_999_999 {
			return nil, ticketErr(CmdRedeemTicket, "restricted expiration %d exceeds 8 digits", r.Expiration)
		}
		b = appendLE(AppendBCD(b, uint64(r.Expiration), 4), uint64(r.PoolID), 2)
		if r.HasTarget || r.TargetID != "" {
			if len(r.TargetID) > 0xFF {
				return nil, ticketErr(CmdRedeemTicket, "target ID of %d bytes", len(r.TargetID))
			}
			b = append(append(b, byte(len(r.TargetID))), r.TargetID...)
		}
	} else if r.Expiration != 0 || r.PoolID != 0 || r.TargetID != "" || r.HasTarget {
		return nil, ticketErr(CmdRedeemTicket, "expiration, pool or target ID without Restricted")
	}
	return withLength(CmdRedeemTicket, b)
}

// DecodeRedeemTicket decodes the data of 0x71 strictly.
func DecodeRedeemTicket(data []byte) (RedeemTicket, error) {
	f, err := lengthByte(CmdRedeemTicket, data)
	if err != nil {
		return RedeemTicket{}, err
	}
	r := RedeemTicket{Code: TransferCode(f.byte("transfer code"))}
	if f.err == nil && !r.Code.Known() {
		return RedeemTicket{}, ticketErr(CmdRedeemTicket, "%v is not in table 15.12c", r.Code)
	}
	if f.left() == 0 && f.err == nil {
		if r.Code != TransferStatusRequest {
			return RedeemTicket{}, ticketErr(CmdRedeemTicket, "%v without amount and validation data", r.Code)
		}
		return r, nil
	}
	r.Cents = f.bcd("amount", 5)
	r.ParsingCode = f.byte("parsing code")
	if f.err == nil && r.ParsingCode != ParsingBCD {
		return RedeemTicket{}, ticketErr(CmdRedeemTicket, "parsing code %02X: only 00 (BCD) is supported", r.ParsingCode)
	}
	r.Data = append([]byte{}, f.take("validation data", ValidationDataLen)...)
	if f.err == nil {
		if _, err := ValidationDigits(r.Data); err != nil {
			return RedeemTicket{}, ticketErr(CmdRedeemTicket, "%v", err)
		}
	}
	if f.left() > 0 && f.err == nil {
		r.Restricted = true
		r.Expiration = uint32(f.bcd("restricted expiration", 4))
		r.PoolID = uint16(f.le("pool ID", 2))
		if f.left() > 0 && f.err == nil {
			r.HasTarget = true
			n := f.byte("target ID length")
			r.TargetID = string(f.take("target ID", int(n)))
		}
	}
	if err := f.end(); err != nil {
		return RedeemTicket{}, err
	}
	return r, nil
}

// RedemptionStatus is the machine's status in the reply to 0x71 (SAS
// table 15.12d).
type RedemptionStatus byte

// Machine status codes.
const (
	RedeemedCashable        RedemptionStatus = 0x00 // cashable ticket redeemed
	RedeemedRestricted      RedemptionStatus = 0x01
	RedeemedNonRestricted   RedemptionStatus = 0x02
	RedeemWaiting71         RedemptionStatus = 0x20 // waiting for long poll 71
	RedeemPending           RedemptionStatus = 0x40 // ticket redemption pending (crediting)
	RedeemRejectedByHost    RedemptionStatus = 0x80 // rejected by host, or unknown
	RedeemNumberMismatch    RedemptionStatus = 0x81 // validation number does not match
	RedeemBadTransferCode   RedemptionStatus = 0x82 // not a valid transfer function
	RedeemBadAmount         RedemptionStatus = 0x83 // not a valid transfer amount (non-BCD)
	RedeemOverCreditLimit   RedemptionStatus = 0x84 // amount exceeds the machine's credit limit
	RedeemNotMultiple       RedemptionStatus = 0x85 // not an even multiple of the denomination
	RedeemAmountMismatch    RedemptionStatus = 0x86 // does not match the ticket amount
	RedeemUnableNow         RedemptionStatus = 0x87 // machine unable to accept the transfer now
	RedeemTimeout           RedemptionStatus = 0x88 // rejected: the host did not answer in time
	RedeemLinkDown          RedemptionStatus = 0x89 // rejected: communication link down
	RedeemDisabled          RedemptionStatus = 0x8A // ticket redemption disabled
	RedeemValidatorFailure  RedemptionStatus = 0x8B
	RedeemNotThisCycle      RedemptionStatus = 0xC0 // not compatible with the current redemption cycle
	RedeemNoValidationInfo  RedemptionStatus = 0xFF // no validation information available
	redemptionFirstRejected                  = RedeemRejectedByHost
)

var redemptionNames = map[RedemptionStatus]string{
	RedeemedCashable: "cashable ticket redeemed", RedeemedRestricted: "restricted promotional ticket redeemed",
	RedeemedNonRestricted: "non-restricted promotional ticket redeemed", RedeemWaiting71: "waiting for long poll 71",
	RedeemPending: "ticket redemption pending", RedeemRejectedByHost: "ticket rejected by host, or unknown",
	RedeemNumberMismatch: "validation number does not match", RedeemBadTransferCode: "not a valid transfer function",
	RedeemBadAmount: "not a valid transfer amount", RedeemOverCreditLimit: "transfer amount exceeds the credit limit",
	RedeemNotMultiple:    "transfer amount not an even multiple of the denomination",
	RedeemAmountMismatch: "transfer amount does not match the ticket amount", RedeemUnableNow: "gaming machine unable to accept transfer",
	RedeemTimeout: "ticket rejected due to timeout", RedeemLinkDown: "ticket rejected due to communication link down",
	RedeemDisabled: "ticket redemption disabled", RedeemValidatorFailure: "ticket rejected due to validator failure",
	RedeemNotThisCycle: "not compatible with current redemption cycle", RedeemNoValidationInfo: "no validation information available",
}

// Known reports whether s is in table 15.12d.
func (s RedemptionStatus) Known() bool { _, ok := redemptionNames[s]; return ok }

// Redeemed reports whether the ticket was credited.
func (s RedemptionStatus) Redeemed() bool { return s <= RedeemedNonRestricted }

// Rejected reports whether the ticket was refused and returned.
func (s RedemptionStatus) Rejected() bool {
	return s >= redemptionFirstRejected && s <= RedeemValidatorFailure
}

// Final reports whether the redemption is over (credited or refused):
// what the host waits for before it records the outcome.
func (s RedemptionStatus) Final() bool { return s.Redeemed() || s.Rejected() }

func (s RedemptionStatus) String() string {
	if n, ok := redemptionNames[s]; ok {
		return n
	}
	return fmt.Sprintf("redemption status %02X", byte(s))
}

// shortRedemption: these statuses come alone, without amount and data.
func (s RedemptionStatus) short() bool { return s == RedeemNotThisCycle || s == RedeemNoValidationInfo }

// RedeemReply is the reply to 0x71.
type RedeemReply struct {
	Status      RedemptionStatus `json:"status"`
	Cents       uint64           `json:"cents"`
	ParsingCode byte             `json:"parsing_code"`
	Data        []byte           `json:"data,omitempty"`
}

// Encode returns the data of the reply to 0x71, length byte first: the
// status alone for C0 and FF.
func (r RedeemReply) Encode() ([]byte, error) {
	if !r.Status.Known() {
		return nil, ticketErr(CmdRedeemTicket, "%v is not in table 15.12d", r.Status)
	}
	if r.Status.short() {
		return withLength(CmdRedeemTicket, []byte{byte(r.Status)})
	}
	if err := checkAmount(CmdRedeemTicket, "amount", r.Cents); err != nil {
		return nil, err
	}
	if err := checkValidationData(CmdRedeemTicket, r.ParsingCode, r.Data); err != nil {
		return nil, err
	}
	b := AppendBCD([]byte{byte(r.Status)}, r.Cents, 5)
	return withLength(CmdRedeemTicket, append(append(b, r.ParsingCode), r.Data...))
}

// DecodeRedeemReply decodes the data of the reply to 0x71.
func DecodeRedeemReply(data []byte) (RedeemReply, error) {
	f, err := lengthByte(CmdRedeemTicket, data)
	if err != nil {
		return RedeemReply{}, err
	}
	r := RedeemReply{Status: RedemptionStatus(f.byte("machine status"))}
	if f.err == nil && !r.Status.Known() {
		return RedeemReply{}, ticketErr(CmdRedeemTicket, "%v is not in table 15.12d", r.Status)
	}
	if r.Status.short() {
		return r, f.end()
	}
	r.Cents = f.bcd("amount", 5)
	r.ParsingCode = f.byte("parsing code")
	r.Data = append([]byte(nil), f.take("validation data", f.left())...)
	if f.err != nil {
		return RedeemReply{}, f.err
	}
	if err := checkValidationData(CmdRedeemTicket, r.ParsingCode, r.Data); err != nil {
		return RedeemReply{}, err
	}
	return r, f.end()
}
