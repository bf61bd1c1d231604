package main

import (
	"fmt"
	"strconv"

	"github.com/openegm/cabinet/aft"
)

// Transaction receipts (SAS 8.11): the receipt data a transfer carries
// for its receipt (table 8.3f), the texts of every receipt (0x75), and
// the receipt status a transfer reports.

// receiptData is the receipt data of a transfer from source=, patron=,
// account= and balance= (cents), and for a debit card= (the card's last
// four digits), fee= and debit= (the total taken from the account, cents):
// nil when none is given.
func receiptData(a aftArgs) ([]byte, error) {
	var b []byte
	for _, f := range []struct {
		name string
		code byte
	}{{"source", aft.FieldSource}, {"patron", aft.FieldPatronName}, {"account", aft.FieldPatronAccount}} {
		if v, ok := a.str(f.name); ok {
			if len(v) > aft.MaxReceiptText {
				return nil, fmt.Errorf("%w: %s=%q: at most %d characters", errUsage, f.name, v, aft.MaxReceiptText)
			}
			b = append(append(b, f.code, byte(len(v))), v...)
		}
	}
	if s, ok := a.str("card"); ok {
		n, err := strconv.ParseUint(s, 10, 16)
		if err != nil || len(s) != 4 {
			return nil, fmt.Errorf("%w: card=%q: want the card's last 4 digits", errUsage, s)
		}
		b = append(append(b, aft.FieldDebitCard, 2), bcd(n, 2)...)
	}
	for _, f := range []struct {
		name string
		code byte
	}{{"balance", aft.FieldAccountBalance}, {"fee", aft.FieldTransactionFee}, {"debit", aft.FieldDebitAmount}} {
		if _, ok := a.kv[f.name]; !ok {
			continue
		}
		c, err := a.num(f.name, 0, uint64(aft.MaxAmount))
		if err != nil {
			return nil, err
		}
		b = append(append(b, f.code, 5), bcd(c, 5)...)
	}
	if _, err := aft.ParseReceiptData(b); err != nil {
		return nil, fmt.Errorf("%w: %v", errUsage, err)
	}
	return b, nil
}

// bcd is v in n bytes of packed BCD, most significant first.
func bcd(v uint64, n int) []byte {
	b := make([]byte, n)
	for i := n - 1; i >= 0; i-- {
		d := v % 100
		b[i] = byte(d/10<<4 | d%10)
		v /= 100
	}
	return b
}

// receiptTexts are 0x75's fields by the name sashost gives them.
var receiptTexts = []struct {
	name string
	code byte
}{
	{"location", aft.TextLocation}, {"address1", aft.TextAddress1}, {"address2", aft.TextAddress2},
	{"inhouse1", aft.TextInHouse1}, {"inhouse2", aft.TextInHouse1 + 1}, {"inhouse3", aft.TextInHouse1 + 2}, {"inhouse4", aft.TextInHouse1 + 3},
	{"debit1", aft.TextDebit1}, {"debit2", aft.TextDebit1 + 1}, {"debit3", aft.TextDebit1 + 2}, {"debit4", aft.TextDebit1 + 3},
}

// receiptTextSet is the 0x75 of the NAME=TEXT arguments (an empty TEXT
// puts the machine's default back).
func receiptTextSet(a aftArgs) (aft.ReceiptTextSet, error) {
	var set aft.ReceiptTextSet
	for _, t := range receiptTexts {
		if v, ok := a.str(t.name); ok {
			set.Fields = append(set.Fields, aft.TextField{Code: t.code, Text: v})
		}
	}
	if err := set.Check(); err != nil {
		return set, fmt.Errorf("%w: aft receipt-data: %v", errUsage, err)
	}
	return set, nil
}

// receiptStatus describes a transfer's receipt for the printed line
// ("" when none was asked for).
func receiptStatus(s aft.ReceiptStatus) string {
	switch s {
	case aft.ReceiptPrinted:
		return ", receipt printed"
	case aft.ReceiptPrinting:
		return ", receipt printing"
	case aft.ReceiptPending:
		return ", receipt pending"
	}
	return ""
}
