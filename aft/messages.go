package aft

import "time"

// The messages of long polls 0x72, 0x73 and 0x74 as the machine and the
// host see them. Their wire layout is in package sas (sas/aft.go); the
// fields here are the decoded values: amounts in cents, binary fields as
// numbers, BCD as its value.

// TransferRequest is long poll 0x72. A cancel carries only Code; an
// interrogation Code and Index.
type TransferRequest struct {
	Code TransferCode `json:"code"`
	// Index: 0 for a transfer; for an interrogation 0 (current), 01–7F (a
	// history position) or 81–FF (relative: FF the newest entry, FE the
	// one before…).
	Index         byte          `json:"index"`
	Type          TransferType  `json:"type"`
	Cashable      int64         `json:"cashable"`
	Restricted    int64         `json:"restricted"`
	NonRestricted int64         `json:"non_restricted"`
	Flags         TransferFlags `json:"flags"`
	Asset         uint32        `json:"asset"`
	Key           Key           `json:"key"`
	// ID is the transaction ID, 1–20 printable ASCII characters.
	ID         string     `json:"id"`
	Expiration Expiration `json:"expiration"`
	PoolID     uint16     `json:"pool_id"`
	// Receipt is the receipt data as sent (SAS table 8.3f fields), kept
	// for the receipt printer.
	Receipt []byte `json:"receipt,omitempty"`
	// LockTimeout, for a lock after transfer, in hundredths of a second
	// (0–9999).
	LockTimeout uint16 `json:"lock_timeout"`
}

// Total is the sum of the three amounts.
func (r TransferRequest) Total() int64 { return r.Cashable + r.Restricted + r.NonRestricted }

// Cumulative is the cumulative meters of a 0x72 reply for the transfer's
// type, after it completed: what the AFT meters of that type read.
type Cumulative struct {
	Cashable      int64 `json:"cashable"`
	Restricted    int64 `json:"restricted"`
	NonRestricted int64 `json:"non_restricted"`
}

// TransferReply is the reply to long poll 0x72. Status decides its form
// on the wire: 80, C0 and C1 carry Position and Status only; FF (no
// information) adds ReceiptStatus; every other status all the fields.
type TransferReply struct {
	// Position is the transfer's position in the history (1–127), 0 for
	// the current transfer not (or not yet) in the history.
	Position      byte          `json:"position"`
	Status        Status        `json:"status"`
	ReceiptStatus ReceiptStatus `json:"receipt_status"`
	Type          TransferType  `json:"type"`
	Cashable      int64         `json:"cashable"`
	Restricted    int64         `json:"restricted"`
	NonRestricted int64         `json:"non_restricted"`
	Flags         TransferFlags `json:"flags"`
	Asset         uint32        `json:"asset"`
	ID            string        `json:"id"`
	// At is when the transfer completed (zero while pending), as the
	// machine's wall clock: the wire carries date and time without a zone.
	At         time.Time  `json:"at"`
	Expiration Expiration `json:"expiration"`
	PoolID     uint16     `json:"pool_id"`
	// Meters is nil while the transfer is pending (sizes 0 on the wire).
	Meters *Cumulative `json:"meters,omitempty"`
}

// Total is the sum of the three amounts.
func (r TransferReply) Total() int64 { return r.Cashable + r.Restricted + r.NonRestricted }

// Short reports whether the reply carries only Position and Status.
func (r TransferReply) Short() bool {
	return r.Status == StatusCancelled || r.Status == StatusIncompatible || r.Status == StatusUnsupportedCode
}

// RegisterRequest is long poll 0x73. For RegRead and RegUnregister the
// other fields are not used (the host may send them or not).
type RegisterRequest struct {
	Code  RegCode `json:"code"`
	Asset uint32  `json:"asset"`
	Key   Key     `json:"key"`
	// POSID is the point-of-sale terminal ID: 0 none, NoPOSChange keeps
	// the current one.
	POSID uint32 `json:"pos_id"`
}

// RegisterReply is the reply to long poll 0x73.
type RegisterReply struct {
	Status RegStatus `json:"status"`
	Asset  uint32    `json:"asset"`
	Key    Key       `json:"key"`
	POSID  uint32    `json:"pos_id"`
}

// LockRequest is long poll 0x74.
type LockRequest struct {
	Code LockCode `json:"code"`
	// Conditions are the transfers that must be possible for the lock
	// (TransferToMachineOK, TransferFromMachineOK, TransferToPrinterOK,
	// ConditionBonusToMachine).
	Conditions byte `json:"conditions"`
	// Timeout in hundredths of a second (0–9999).
	Timeout uint16 `json:"timeout"`
}

// StatusReply is the reply to long poll 0x74: lock state, what transfers
// are possible and the machine's amounts.
type StatusReply struct {
	Asset       uint32      `json:"asset"`
	Lock        LockStatus  `json:"lock"`
	Available   byte        `json:"available"`
	HostCashout HostCashout `json:"host_cashout"`
	AFTStatus   byte        `json:"aft_status"`
	// MaxIndex is the highest history position (0x7F).
	MaxIndex      byte  `json:"max_index"`
	Cashable      int64 `json:"cashable"`
	Restricted    int64 `json:"restricted"`
	NonRestricted int64 `json:"non_restricted"`
	// TransferLimit is the most the machine takes onto its credit meter
	// now, in cents.
	TransferLimit        int64      `json:"transfer_limit"`
	RestrictedExpiration Expiration `json:"restricted_expiration"`
	RestrictedPool       uint16     `json:"restricted_pool"`
}
