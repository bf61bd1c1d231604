package aft

import (
	"errors"
	"fmt"
	"time"
)

// Transaction receipts (SAS 6.02 section 8.11). The host asks for one
// with the receipt flag of a 0x72 transfer and may send receipt data with
// it (table 8.3f: what only the host knows, such as the patron); the
// texts every receipt of the machine prints (the location, its address
// and the closing lines) it sets with long poll 0x75 (table 8.11.1b). A
// printer for receipts prints at least 24 lines of 22 characters, so
// every text field is at most 22 characters (the account number 16).
//
// Sources: the "IGT SAS Protocol Version 6.02 Reference Documentation"
// digest (8.3, 8.11: receipts only for successful transfers of non-zero
// amounts; three receipt types: in-house to the machine, debit to the
// machine, in-house to the host) and the Aristocrat Monaco SAS client
// (LP72AftTransferFundsParser for the 8.3f codes and widths,
// LP75SetAftReceiptDataParser and TransactionReceiptDataField for 0x75).

// The receipt data codes of a 0x72 transfer (table 8.3f).
const (
	FieldSource         byte = 0x00 // transfer source or destination, ASCII
	FieldDateTime       byte = 0x01 // the host's date and time, 7 BCD MMDDYYYYHHMMSS
	FieldPatronName     byte = 0x10 // ASCII
	FieldPatronAccount  byte = 0x11 // ASCII, at most 16
	FieldAccountBalance byte = 0x13 // the account before the transfer, 5 BCD cents
	FieldDebitCard      byte = 0x41 // last 4 digits of a debit card, 2 BCD
	FieldTransactionFee byte = 0x42 // 5 BCD cents
	FieldDebitAmount    byte = 0x43 // 5 BCD cents
)

// MaxReceiptText is the longest text field of a receipt (a line of the
// narrowest receipt printer SAS allows).
const MaxReceiptText = 22

// maxAccountText is the longest patron account number (table 8.3f).
const maxAccountText = 16

// ErrReceiptData is returned (wrapped, naming the field) for receipt data
// that does not follow table 8.3f or 8.11.1b.
var ErrReceiptData = errors.New("aft: bad receipt data")

// ReceiptFields are the receipt data of a transfer, decoded. A field the
// host did not send is zero (the Has fields say whether an amount was
// sent: 0 is an amount).
type ReceiptFields struct {
	Source     string
	At         time.Time // the host's date and time, as sent (no zone)
	Patron     string
	Account    string
	Balance    int64
	HasBalance bool
	// The debit fields: the card's last four digits (as printed), the
	// fee the bank took and the total taken from the account.
	DebitCard     string
	Fee           int64
	HasFee        bool
	DebitTotal    int64
	HasDebitTotal bool
}

// ParseReceiptData decodes receipt data (code, length, value …). A code
// SAS does not define is skipped, as a machine tolerant of newer hosts
// does; a known field of the wrong length or content is an error.
func ParseReceiptData(b []byte) (ReceiptFields, error) {
	var f ReceiptFields
	for i := 0; i < len(b); {
		if i+2 > len(b) {
			return f, fmt.Errorf("%w: field at byte %d has no length", ErrReceiptData, i)
		}
		code, n := b[i], int(b[i+1])
		if i+2+n > len(b) {
			return f, fmt.Errorf("%w: field %02X: %d bytes, %d left", ErrReceiptData, code, n, len(b)-i-2)
		}
		v := b[i+2 : i+2+n]
		i += 2 + n
		var err error
		switch code {
		case FieldSource:
			f.Source, err = receiptText(code, v, MaxReceiptText)
		case FieldPatronName:
			f.Patron, err = receiptText(code, v, MaxReceiptText)
		case FieldPatronAccount:
			f.Account, err = receiptText(code, v, maxAccountText)
		case FieldDateTime:
			f.At, err = receiptTime(v)
		case FieldAccountBalance:
			f.Balance, err = receiptAmount(code, v)
			f.HasBalance = true
		case FieldDebitCard:
			var n uint64
			n, err = fixedBCD(code, v, 2)
			f.DebitCard = fmt.Sprintf("%04d", n)
		case FieldTransactionFee:
			f.Fee, err = receiptAmount(code, v)
			f.HasFee = true
		case FieldDebitAmount:
			f.DebitTotal, err = receiptAmount(code, v)
			f.HasDebitTotal = true
		}
		if err != nil {
			return f, err
		}
	}
	return f, nil
}

// receiptText checks an ASCII field: printable, at most max characters.
func receiptText(code byte, v []byte, max int) (string, error) {
	if len(v) > max {
		return "", fmt.Errorf("%w: field %02X: %d characters, at most %d", ErrReceiptData, code, len(v), max)
	}
	for _, c := range v {
		if c < 0x20 || c > 0x7E {
			return "", fmt.Errorf("%w: field %02X: %q is not printable ASCII", ErrReceiptData, code, v)
		}
	}
	return string(v), nil
}

func receiptAmount(code byte, v []byte) (int64, error) {
	n, err := fixedBCD(code, v, 5)
	return int64(n), err
}

// fixedBCD reads a BCD field of exactly n bytes.
func fixedBCD(code byte, v []byte, n int) (uint64, error) {
	if len(v) != n {
		return 0, fmt.Errorf("%w: field %02X: %d bytes, want %d BCD", ErrReceiptData, code, len(v), n)
	}
	var x uint64
	for _, b := range v {
		hi, lo := b>>4, b&0x0F
		if hi > 9 || lo > 9 {
			return 0, fmt.Errorf("%w: field %02X: % X is not BCD", ErrReceiptData, code, v)
		}
		x = x*100 + uint64(hi)*10 + uint64(lo)
	}
	return x, nil
}

// receiptTime reads MMDDYYYYHHMMSS (7 BCD) as a time without a zone (UTC).
func receiptTime(v []byte) (time.Time, error) {
	n, err := fixedBCD(FieldDateTime, v, 7)
	if err != nil {
		return time.Time{}, err
	}
	sec, min, hour := int(n%100), int(n/100%100), int(n/10_000%100)
	year, day, month := int(n/1_000_000%10_000), int(n/10_000_000_000%100), int(n/1_000_000_000_000)
	t := time.Date(year, time.Month(month), day, hour, min, sec, 0, time.UTC)
	if month < 1 || month > 12 || t.Day() != day || hour > 23 || min > 59 || sec > 59 {
		return time.Time{}, fmt.Errorf("%w: field %02X: % X is no date and time", ErrReceiptData, FieldDateTime, v)
	}
	return t, nil
}

// The text codes of long poll 0x75, set AFT receipt data (table
// 8.11.1b): printed on every receipt of the machine.
const (
	TextLocation byte = 0x00
	TextAddress1 byte = 0x01
	TextAddress2 byte = 0x02
	TextInHouse1 byte = 0x10 // 10–13: lines closing a receipt of an in-house transfer
	TextDebit1   byte = 0x20 // 20–23: lines closing a receipt of a debit transfer
)

// ReceiptText is what the host set with 0x75. An empty field is the
// machine's default: the location and address the host gave for tickets
// (0x7D), no closing lines.
type ReceiptText struct {
	Location string    `json:"location,omitempty"`
	Address  [2]string `json:"address,omitzero"`
	InHouse  [4]string `json:"in_house,omitzero"`
	Debit    [4]string `json:"debit,omitzero"`
}

// field is where the text of code lives.
func (t *ReceiptText) field(code byte) (*string, bool) {
	switch {
	case code == TextLocation:
		return &t.Location, true
	case code == TextAddress1 || code == TextAddress2:
		return &t.Address[code-TextAddress1], true
	case code >= TextInHouse1 && code < TextInHouse1+4:
		return &t.InHouse[code-TextInHouse1], true
	case code >= TextDebit1 && code < TextDebit1+4:
		return &t.Debit[code-TextDebit1], true
	}
	return nil, false
}

// TextField is one text of a 0x75 poll: an empty Text puts the default
// back.
type TextField struct {
	Code byte   `json:"code"`
	Text string `json:"text"`
}

// ReceiptTextSet is a committed 0x75: the texts it set, in the order
// sent. The ledger keeps it (a record), so receipts printed again after
// a power loss say what the host asked.
type ReceiptTextSet struct {
	Fields []TextField `json:"fields"`
}

// Check reports the first field that cannot be set.
func (r ReceiptTextSet) Check() error {
	if len(r.Fields) == 0 {
		return fmt.Errorf("%w: 0x75 without a field", ErrReceiptData)
	}
	var t ReceiptText
	for _, f := range r.Fields {
		if _, ok := t.field(f.Code); !ok {
			return fmt.Errorf("%w: 0x75 code %02X is not a receipt text (00-02, 10-13, 20-23)", ErrReceiptData, f.Code)
		}
		if _, err := receiptText(f.Code, []byte(f.Text), MaxReceiptText); err != nil {
			return err
		}
	}
	return nil
}

// ParseReceiptText decodes the data of a 0x75 poll after its length
// byte: code, length, text, … (at least one field).
func ParseReceiptText(b []byte) (ReceiptTextSet, error) {
	var r ReceiptTextSet
	for i := 0; i < len(b); {
		if i+2 > len(b) || i+2+int(b[i+1]) > len(b) {
			return r, fmt.Errorf("%w: 0x75 field at byte %d runs past the end", ErrReceiptData, i)
		}
		n := int(b[i+1])
		r.Fields = append(r.Fields, TextField{Code: b[i], Text: string(b[i+2 : i+2+n])})
		i += 2 + n
	}
	return r, r.Check()
}

// AppendReceiptText is the data of a 0x75 poll after its length byte.
func AppendReceiptText(b []byte, r ReceiptTextSet) ([]byte, error) {
	if err := r.Check(); err != nil {
		return nil, err
	}
	for _, f := range r.Fields {
		b = append(append(b, f.Code, byte(len(f.Text))), f.Text...)
	}
	return b, nil
}

func (r ReceiptTextSet) apply(s *State) error {
	if err := r.Check(); err != nil {
		return fmt.Errorf("%w: %v", ErrRecord, err)
	}
	for _, f := range r.Fields {
		p, _ := s.ReceiptText.field(f.Code)
		*p = f.Text
	}
	return nil
}
