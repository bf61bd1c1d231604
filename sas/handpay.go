package sas

// Long poll 0x1B, send handpay information: the reply layout.
//
// Sources: the "IGT SAS Protocol Version 6.02 Reference Documentation"
// digest, 7.8 (group, level, amount 5 BCD, partial pay 2 BCD, reset ID;
// "amount" includes the partial pay only when progressive wins are part of
// the handpay), and the Aristocrat Monaco LP1BSendHandpayInfoParser, whose
// table gives the widths and ranges: group 00 stand-alone or non-SAS, 01–FF
// SAS-controlled; level 01–20 highest contributing progressive level, 40
// non-progressive win, 80 cancelled credits; reset ID 00 standard handpay
// reset only, 01 reset to the credit meter available; then 10 bytes
// "unused, reserved for future use" (6.02).

// CmdHandpayInfo is the handpay information long poll.
const CmdHandpayInfo byte = 0x1B

// Handpay levels (HandpayInfo.Level) other than progressive levels 1–32.
const (
	// HandpayLevelNone: no progressive level; with every other field 0
	// the answer of a machine that has no handpay to report.
	HandpayLevelNone byte = 0x00
	// HandpayLevelNonProgressive: a non-progressive (paytable) win.
	HandpayLevelNonProgressive byte = 0x40
	// HandpayLevelCancelledCredits: a cancelled-credits handpay (the
	// player cashed out to an attendant).
	HandpayLevelCancelledCredits byte = 0x80
)

// Handpay reset methods (HandpayInfo.ResetID).
const (
	HandpayResetStandard byte = 0x00 // only the attendant's key resets it
	HandpayResetCredits  byte = 0x01 // may be reset to the credit meter
)

// HandpayInfo is the reply to 0x1B.
type HandpayInfo struct {
	// Group is the progressive group: 0 for a stand-alone or non-SAS
	// progressive, 1–255 for a SAS-controlled one.
	Group byte `json:"progressive_group"`
	// Level is 1–32 (the highest progressive level in the handpay),
	// HandpayLevelNonProgressive, HandpayLevelCancelledCredits or
	// HandpayLevelNone.
	Level byte `json:"level"`
	// Amount is the handpay in cents (5 BCD). Choice: the Aristocrat client
	// sends non-progressive handpays in accounting-denomination credits
	// and progressive ones in cents; the cabinet's accounting denomination
	// is 0.01, so both are cents here.
	Amount uint64 `json:"amount_cents"`
	// PartialPay is what was paid before the handpay, in cents (2 BCD,
	// at most 9999).
	PartialPay uint64 `json:"partial_pay_cents"`
	// ResetID is HandpayResetStandard or HandpayResetCredits.
	ResetID byte `json:"reset_id"`
	// SessionWin and SessionPay fill the last 10 bytes (5 BCD each).
	//
	// Choice: SAS 6.02 calls those 10 bytes unused (zero); the Aristocrat
	// client, a 6.03 machine, sends its session game win and session game
	// pay there as 5-byte BCD amounts. The cabinet speaks 6.02 and leaves
	// both 0, which is the 6.02 layout; a decoder reads them as BCD, so a
	// 6.02 machine decodes as 0 and a 6.03 one keeps its amounts.
	SessionWin uint64 `json:"session_win_cents,omitempty"`
	SessionPay uint64 `json:"session_pay_cents,omitempty"`
}

// handpayInfoLen is the data length of the reply to 0x1B.
const handpayInfoLen = 1 + 1 + 5 + 2 + 1 + 10

func (h HandpayInfo) check() error {
	switch {
	case h.Level != HandpayLevelNone && h.Level != HandpayLevelNonProgressive &&
		h.Level != HandpayLevelCancelledCredits && h.Level > MaxProgressiveLevel:
		return progErr("1B: level 0x%02X is not 00, 01-20, 40 or 80", h.Level)
	case h.Amount > MaxProgressiveAmount:
		return progErr("1B: amount %d cents exceeds 10 BCD digits", h.Amount)
	case h.PartialPay > 9999:
		return progErr("1B: partial pay %d cents exceeds 4 BCD digits", h.PartialPay)
	case h.ResetID > HandpayResetCredits:
		return progErr("1B: reset ID %d is not 0 or 1", h.ResetID)
	case h.SessionWin > MaxProgressiveAmount || h.SessionPay > MaxProgressiveAmount:
		return progErr("1B: session amounts %d, %d exceed 10 BCD digits", h.SessionWin, h.SessionPay)
	}
	return nil
}

// HandpayInfoData returns the data of the reply to 0x1B (20 bytes): group,
// level, amount (5 BCD), partial pay (2 BCD), reset ID, and 10 bytes that
// are zero in SAS 6.02 (see HandpayInfo.SessionWin). A field out of its
// range is an error (wrapping ErrProgressive), never a rollover.
func HandpayInfoData(h HandpayInfo) ([]byte, error) {
	if err := h.check(); err != nil {
		return nil, err
	}
	b := make([]byte, 0, handpayInfoLen)
	b = append(b, h.Group, h.Level)
	b = AppendBCD(b, h.Amount, 5)
	b = AppendBCD(b, h.PartialPay, 2)
	b = append(b, h.ResetID)
	b = AppendBCD(b, h.SessionWin, 5)
	return AppendBCD(b, h.SessionPay, 5), nil
}

// CmdRemoteHandpayReset is long poll 0x94, remote handpay reset (type S,
// no data). The reply is addr 94 status CRC, the status one of the
// HandpayReset codes.
//
// Source: the Aristocrat Monaco LP94RemoteHandPayResetParser and its
// HandPayResetCode (0 handpay was reset, 1 unable to reset the handpay, 2
// not currently in a handpay condition).
const CmdRemoteHandpayReset byte = 0x94

// Status codes of the reply to 0x94.
const (
	HandpayResetDone         byte = 0x00 // the handpay was reset
	HandpayResetUnable       byte = 0x01 // the machine cannot reset it
	HandpayResetNotInHandpay byte = 0x02 // no handpay is pending
)
