package aft

import (
	"encoding/hex"
	"fmt"
	"strings"
)

// TransferCode is the first byte of long poll 0x72: what the host asks.
type TransferCode byte

const (
	// CodeFull: transfer the amounts exactly, or nothing.
	CodeFull TransferCode = 0x00
	// CodePartial: transfer as much of the amounts as the machine can.
	CodePartial TransferCode = 0x01
	// CodeCancel: cancel the pending transfer.
	CodeCancel TransferCode = 0x80
	// CodeInterrogateStatusOnly: report a transfer without acknowledging
	// the completion of the current one.
	CodeInterrogateStatusOnly TransferCode = 0xFE
	// CodeInterrogate: report a transfer (index 0: the current one,
	// 01–7F a history position, 81–FF relative to the newest entry).
	CodeInterrogate TransferCode = 0xFF
)

// Interrogation reports whether c only asks for a transfer's status.
func (c TransferCode) Interrogation() bool {
	return c == CodeInterrogate || c == CodeInterrogateStatusOnly
}

// TransferType is where the money goes.
type TransferType byte

const (
	InHouseToMachine TransferType = 0x00 // in-house amount, host to machine
	BonusCoinOut     TransferType = 0x10 // bonus coin-out win, host to machine
	BonusJackpot     TransferType = 0x11 // bonus jackpot win, host to machine (handpay lockup)
	InHouseToTicket  TransferType = 0x20 // in-house amount, host to a ticket the machine prints
	DebitToMachine   TransferType = 0x40 // debit (player's bank), host to machine
	DebitToTicket    TransferType = 0x60 // debit, host to ticket
	InHouseToHost    TransferType = 0x80 // in-house amount, machine to host
	WinToHost        TransferType = 0x90 // win amount (in-house), machine to host
)

var typeNames = map[TransferType]string{
	InHouseToMachine: "in-house to machine", BonusCoinOut: "bonus coin-out win",
	BonusJackpot: "bonus jackpot win", InHouseToTicket: "in-house to ticket",
	DebitToMachine: "debit to machine", DebitToTicket: "debit to ticket",
	InHouseToHost: "in-house to host", WinToHost: "win to host",
}

func (t TransferType) String() string {
	if n, ok := typeNames[t]; ok {
		return n
	}
	return fmt.Sprintf("transfer type 0x%02X", byte(t))
}

// Known reports whether SAS defines t.
func (t TransferType) Known() bool { _, ok := typeNames[t]; return ok }

// ToHost reports whether t moves money off the machine to the host.
func (t TransferType) ToHost() bool { return t == InHouseToHost || t == WinToHost }

// Bonus reports whether t is a bonus award (a win, not a transfer).
func (t TransferType) Bonus() bool { return t == BonusCoinOut || t == BonusJackpot }

// Debit reports whether t moves money the host took from a player's bank
// account (SAS: only with a registration that names a POS).
func (t TransferType) Debit() bool { return t == DebitToMachine || t == DebitToTicket }

// ToCreditMeter reports whether t puts money on the credit meter as a
// transfer (not a win): in-house or debit.
func (t TransferType) ToCreditMeter() bool { return t == InHouseToMachine || t == DebitToMachine }

// Status is the transfer status of a 0x72 reply. The high bits say the
// family: 000xxxxx success, 010xxxxx pending, 100xxxxx failed, 110xxxxx
// incompatible poll, 111xxxxx no information.
type Status byte

const (
	StatusFull                 Status = 0x00
	StatusPartial              Status = 0x01
	StatusPending              Status = 0x40
	StatusCancelled            Status = 0x80 // transfer cancelled by host
	StatusIDNotUnique          Status = 0x81
	StatusInvalidFunction      Status = 0x82 // not a valid transfer function
	StatusInvalidAmount        Status = 0x83 // not a valid transfer amount or expiration
	StatusExceedsLimit         Status = 0x84 // transfer amount exceeds the machine's limit
	StatusNotDenomMultiple     Status = 0x85
	StatusNoPartialToHost      Status = 0x86
	StatusUnable               Status = 0x87 // unable to transfer now (game, tilt, disabled…)
	StatusNotRegistered        Status = 0x88
	StatusKeyMismatch          Status = 0x89 // registration key does not match
	StatusNoPOSID              Status = 0x8A
	StatusNoWonCredits         Status = 0x8B
	StatusNoDenomination       Status = 0x8C
	StatusExpirationNotValid   Status = 0x8D // expiration not valid for transfer to ticket
	StatusTicketDeviceNotReady Status = 0x8E
	StatusOtherPool            Status = 0x8F // restricted amounts of a different pool present
	StatusCannotPrintReceipt   Status = 0x90
	StatusReceiptDataMissing   Status = 0x91
	StatusReceiptNotAllowed    Status = 0x92 // receipt not allowed for the transfer type
	StatusAssetMismatch        Status = 0x93 // asset number zero or does not match
	StatusNotLocked            Status = 0x94
	StatusIDInvalid            Status = 0x95
	StatusUnexpected           Status = 0x9F
	StatusIncompatible         Status = 0xC0 // not compatible with the transfer in progress
	StatusUnsupportedCode      Status = 0xC1
	StatusNoInfo               Status = 0xFF // no transfer information available
)

var statusNames = map[Status]string{
	0x00: "full transfer successful", 0x01: "partial transfer successful",
	0x40: "transfer pending", 0x80: "transfer cancelled by host",
	0x81: "transaction ID not unique", 0x82: "not a valid transfer function",
	0x83: "not a valid transfer amount or expiration", 0x84: "transfer amount exceeds the gaming machine limit",
	0x85: "transfer amount not a multiple of the denomination", 0x86: "unable to perform partial transfers to the host",
	0x87: "unable to perform transfers at this time", 0x88: "gaming machine not registered",
	0x89: "registration key does not match", 0x8A: "no POS ID",
	0x8B: "no won credits available for cashout", 0x8C: "no denomination set",
	0x8D: "expiration not valid for transfer to ticket", 0x8E: "transfer to ticket device not available",
	0x8F: "restricted amounts from a different pool", 0x90: "unable to print transaction receipt",
	0x91: "insufficient data to print transaction receipt", 0x92: "transaction receipt not allowed for transfer type",
	0x93: "asset number zero or does not match", 0x94: "gaming machine not locked",
	0x95: "transaction ID not valid", 0x9F: "unexpected error",
	0xC0: "not compatible with the current transfer in progress", 0xC1: "unsupported transfer code",
	0xFF: "no transfer information available",
}

func (s Status) String() string {
	if n, ok := statusNames[s]; ok {
		return fmt.Sprintf("%02X %s", byte(s), n)
	}
	return fmt.Sprintf("%02X transfer status", byte(s))
}

// Succeeded: the transfer completed, in full or in part.
func (s Status) Succeeded() bool { return s&0xE0 == 0x00 }

// IsPending: the transfer is not complete yet.
func (s Status) IsPending() bool { return s&0xE0 == 0x40 }

// Failed: the transfer was refused or failed; nothing moved.
func (s Status) Failed() bool { return s&0xE0 == 0x80 }

// ReceiptStatus is the transaction receipt status of a 0x72 reply.
type ReceiptStatus byte

const (
	ReceiptPrinted  ReceiptStatus = 0x00
	ReceiptPrinting ReceiptStatus = 0x20
	ReceiptPending  ReceiptStatus = 0x40
	ReceiptNone     ReceiptStatus = 0xFF // none requested, or not printed
)

// TransferFlags is the transfer flags byte of 0x72. In a reply the low
// bits report the host cashout state instead of the request.
type TransferFlags byte

const (
	FlagHostCashoutControl TransferFlags = 1 << 0 // set host cashout enable and mode from bits 1 and 2
	FlagHostCashoutEnable  TransferFlags = 1 << 1
	FlagHostCashoutHard    TransferFlags = 1 << 2
	FlagCashoutRequest     TransferFlags = 1 << 3 // cash out from the machine (to host) requested
	FlagLockAfterTransfer  TransferFlags = 1 << 4
	FlagCustomTicketData   TransferFlags = 1 << 5 // use long poll 76's ticket data
	FlagOnlyIfLocked       TransferFlags = 1 << 6 // accept the transfer only if locked
	FlagReceipt            TransferFlags = 1 << 7 // transaction receipt requested
)

// HostCashout is the host cashout status: bit 0 the host controls it
// (else the machine forces it), bit 1 enabled, bit 2 hard mode. The same
// bits lead the transfer flags of a 0x72 reply.
type HostCashout byte

const (
	HostCashoutControllable HostCashout = 1 << 0
	HostCashoutEnabled      HostCashout = 1 << 1
	HostCashoutHard         HostCashout = 1 << 2
)

// LockCode is the first byte of long poll 0x74.
type LockCode byte

const (
	RequestLock     LockCode = 0x00
	CancelLock      LockCode = 0x80 // cancel the lock or the pending lock request
	InterrogateLock LockCode = 0xFF // status only
)

// LockStatus is the game lock status of a 0x74 reply.
type LockStatus byte

const (
	Locked      LockStatus = 0x00
	LockPending LockStatus = 0x40
	NotLocked   LockStatus = 0xFF
)

func (s LockStatus) String() string {
	switch s {
	case Locked:
		return "locked"
	case LockPending:
		return "lock pending"
	case NotLocked:
		return "not locked"
	}
	return fmt.Sprintf("lock status 0x%02X", byte(s))
}

// Transfer conditions of a lock request (0x74), and the available
// transfers of its reply: the bits share their meaning up to bit 2.
const (
	TransferToMachineOK   byte = 1 << 0
	TransferFromMachineOK byte = 1 << 1
	TransferToPrinterOK   byte = 1 << 2
	// ConditionBonusToMachine is bit 3 of the lock conditions;
	// AvailableBonusToMachine bit 4 of the available transfers, whose bit
	// 3 is AvailableWinPending.
	ConditionBonusToMachine byte = 1 << 3
	AvailableWinPending     byte = 1 << 3 // win amount pending cashout to host
	AvailableBonusToMachine byte = 1 << 4
)

// AFT status bits of the 0x74 reply.
const (
	StatusPrinterForReceipts byte = 1 << 0
	StatusPartialToHost      byte = 1 << 1
	StatusCustomTicketData   byte = 1 << 2
	StatusRegistered         byte = 1 << 3
	StatusInHouseEnabled     byte = 1 << 4
	StatusBonusEnabled       byte = 1 << 5
	StatusDebitEnabled       byte = 1 << 6
	StatusAnyAFTEnabled      byte = 1 << 7
)

// RegCode is the registration code of long poll 0x73.
type RegCode byte

const (
	RegInitialize RegCode = 0x00
	RegRegister   RegCode = 0x01
	RegRequestAck RegCode = 0x40 // request operator acknowledgement
	RegUnregister RegCode = 0x80
	RegRead       RegCode = 0xFF
)

// RegStatus is the registration status of a 0x73 reply.
type RegStatus byte

const (
	RegReady         RegStatus = 0x00
	RegRegistered    RegStatus = 0x01
	RegPending       RegStatus = 0x40 // waiting for the operator's acknowledgement
	RegNotRegistered RegStatus = 0x80
)

func (s RegStatus) String() string {
	switch s {
	case RegReady:
		return "registration ready"
	case RegRegistered:
		return "registered"
	case RegPending:
		return "registration pending"
	case RegNotRegistered:
		return "not registered"
	}
	return fmt.Sprintf("registration status 0x%02X", byte(s))
}

// MaxHistory is the size of the transaction history (positions 1–127).
const MaxHistory = 127

// MaxAmount is the largest amount a 5-byte BCD field carries, in cents.
const MaxAmount int64 = 9_999_999_999

// Key is the 20-byte AFT registration key. All zeros: no key.
type Key [20]byte

// Zero reports whether k is all zeros.
func (k Key) Zero() bool { return k == Key{} }

// MarshalText gives the key in hex.
func (k Key) MarshalText() ([]byte, error) {
	return []byte(strings.ToUpper(hex.EncodeToString(k[:]))), nil
}

// UnmarshalText reads 40 hex digits.
func (k *Key) UnmarshalText(b []byte) error {
	v, err := hex.DecodeString(string(b))
	if err != nil || len(v) != len(k) {
		return fmt.Errorf("aft: registration key %q: want 40 hex digits", b)
	}
	copy(k[:], v)
	return nil
}

func (k Key) String() string { t, _ := k.MarshalText(); return string(t) }

// NoPOSChange is the POS ID of a registration that keeps the current one.
const NoPOSChange uint32 = 0xFFFFFFFF
