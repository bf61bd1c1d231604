package sas

import (
	"errors"
	"fmt"

	"github.com/openegm/cabinet/sas/metercode"
)

// Bills: the bill denomination codes, the country code of the euro, long
// poll 0x08 (configure bill denominations) and the reply to long poll 0x48
// (send last accepted bill information).
//
// Sources: the "IGT SAS Protocol Version 6.02 Reference Documentation"
// digest (7.5, 7.11, Appendix C "Bill Acceptor Country Code Values" and
// "Bill Denomination Code Values") and the Aristocrat Monaco SAS client
// (Aristocrat.Sas.Client: LP08ConfigureBillDenominationsParser,
// LP48SendLastAcceptedBillInformationParser, BillAcceptorCountryCode,
// BillDenominationCodes, Utilities.ConvertBillValueToDenominationCode).

// CmdConfigureBills is long poll 0x08, configure bill denominations (type
// S): a 4-byte binary bit field, least significant byte first, and the
// bill acceptor action flag; the machine ACKs.
const CmdConfigureBills byte = 0x08

// CmdLastBill is long poll 0x48, send last accepted bill information (type
// R). The reply is country code (1 BCD), denomination code (1 BCD) and the
// number of accepted bills of that denomination (4 BCD): 6 bytes.
const CmdLastBill byte = 0x48

// CountryEuro is the SAS bill acceptor country code of the euro: 39 (a
// number; it goes on the wire as BCD 0x39).
//
// Source: the Aristocrat client's BillAcceptorCountryCode enumerates table
// C-6 from Unknown = 0, Argentina = 1, …, Portugal = 29, Romania = 30, …,
// UnitedStates = 37, Holland = 38, Euro = 39, and its SASCountryCodes maps
// the currency EUR to Euro; LP48 and the real-time bill event send the
// value as 2 BCD digits. The IGT digest's examples agree (01 = Argentina,
// 37 = United States). (The LP48 parser's comment gives the range as
// 00-38, from before Euro was added.)
//
// Choice: the euro, not Portugal (29): the notes are euro notes wherever
// the cabinet stands, and that is how the Aristocrat client reports them.
const CountryEuro byte = 39

// The SAS bill denomination codes are the face values of the bill meters
// in order (metercode.BillFaces): code i is a note of that many units of
// the currency ($1, $2, $5, …, the table names dollars; the face value is
// what counts), as meter 0x40+i counts them. Bit i of the 0x08 bit field
// enables code i. 24 codes; the most significant byte of the bit field is
// "TBD" in both sources.

// BillCode returns the SAS bill denomination code of a note of face
// value units of its currency (the euro notes: €5 → 2, €10 → 3, €20 → 4,
// €50 → 6, €100 → 7, €200 → 8, €500 → 10), and false for a value SAS has
// no code for. In 0x48 and the real-time bill event the code is sent as
// BCD, so €500 goes out as 0x10 (the Aristocrat client's ToBcd of its
// enumeration; the IGT digest's example "0A = $500" writes the same number
// in hexadecimal, which is no BCD).
func BillCode(face int64) (byte, bool) {
	if face < 0 {
		return 0, false
	}
	for i, v := range metercode.BillFaces() {
		if v == uint64(face) {
			return byte(i), true
		}
	}
	return 0, false
}

// BillCodeValue returns the face value of bill denomination code c, and
// false for a code outside the table.
func BillCodeValue(c byte) (int64, bool) {
	faces := metercode.BillFaces()
	if int(c) >= len(faces) {
		return 0, false
	}
	return int64(faces[c]), true
}

// ErrBills is returned (wrapped) for a 0x08 or 0x48 field that does not
// fit its layout.
var ErrBills = errors.New("sas: bad bill data")

// BillDenominations is the data of long poll 0x08.
type BillDenominations struct {
	// Mask: bit i enables bill denomination code i (bit 0 $1, bit 1 $2,
	// bit 2 $5, …, bit 10 $500, … bit 23 $1,000,000). Sent least
	// significant byte first.
	Mask uint32
	// KeepEnabled is bit 0 of the action flag: true keeps the acceptor
	// enabled after each accepted bill; false disables it after each one
	// (until the host enables it again with 0x06).
	KeepEnabled bool
}

// Enabled reports whether a note of face value units is enabled.
func (b BillDenominations) Enabled(face int64) bool {
	c, ok := BillCode(face)
	return ok && b.Mask&(1<<c) != 0
}

// BillDenominationsFor returns the 0x08 data that enables exactly the
// notes of the given face values (values SAS has no code for are left
// out).
func BillDenominationsFor(faces []int64, keepEnabled bool) BillDenominations {
	b := BillDenominations{KeepEnabled: keepEnabled}
	for _, f := range faces {
		if c, ok := BillCode(f); ok {
			b.Mask |= 1 << c
		}
	}
	return b
}

// BillDenominationsData returns the data of a 0x08 poll: the bit field (4
// bytes binary, least significant first) and the action flag (00 or 01).
func BillDenominationsData(b BillDenominations) []byte {
	flag := byte(0)
	if b.KeepEnabled {
		flag = 1
	}
	return []byte{byte(b.Mask), byte(b.Mask >> 8), byte(b.Mask >> 16), byte(b.Mask >> 24), flag}
}

// ParseBillDenominations decodes the data of a 0x08 poll: exactly 5 bytes.
//
// Choice: only bit 0 of the action flag counts (the digest defines that
// bit alone; the Aristocrat parser compares the whole byte with 0), and
// bits of the most significant byte of the field ("TBD") are kept in
// Mask but enable no note.
func ParseBillDenominations(data []byte) (BillDenominations, error) {
	if len(data) != 5 {
		return BillDenominations{}, fmt.Errorf("%w: 08 data of %d bytes, want 5", ErrBills, len(data))
	}
	mask := uint32(data[0]) | uint32(data[1])<<8 | uint32(data[2])<<16 | uint32(data[3])<<24
	return BillDenominations{Mask: mask, KeepEnabled: data[4]&1 != 0}, nil
}

// LastBill is the reply to 0x48. The zero value (all fields 0) is the
// answer of a machine that has accepted no bill.
type LastBill struct {
	Country byte   // country code, as a number (39: euro); sent as BCD
	Code    byte   // bill denomination code (see BillCode); sent as BCD
	Count   uint64 // accepted bills of this denomination; 4 BCD, rolls over
}

// LastBillData returns the data of the reply to 0x48: country code (1
// BCD), denomination code (1 BCD), bill meter (4 BCD).
func LastBillData(b LastBill) ([]byte, error) {
	if b.Country > 99 || b.Code > 99 {
		return nil, fmt.Errorf("%w: 48 country %d or code %d exceeds 2 BCD digits", ErrBills, b.Country, b.Code)
	}
	out := AppendBCD(nil, uint64(b.Country), 1)
	out = AppendBCD(out, uint64(b.Code), 1)
	return AppendBCD(out, b.Count, 4), nil
}

// DecodeLastBill decodes the data of the reply to 0x48: 6 bytes, every
// field BCD.
func DecodeLastBill(data []byte) (LastBill, error) {
	if len(data) != 6 {
		return LastBill{}, fmt.Errorf("%w: 48 data of %d bytes, want 6", ErrBills, len(data))
	}
	var f [3]uint64
	for i, part := range [][]byte{data[0:1], data[1:2], data[2:6]} {
		v, err := DecodeBCD(part)
		if err != nil {
			return LastBill{}, fmt.Errorf("%w: 48: %v", ErrBills, err)
		}
		f[i] = v
	}
	return LastBill{Country: byte(f[0]), Code: byte(f[1]), Count: f[2]}, nil
}
