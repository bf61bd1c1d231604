package main

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"github.com/openegm/cabinet/aft"
)

// Receipts and bonus jackpots with the real sashost: the texts of every
// receipt (0x75), a transfer that asks for a receipt with the host's data
// and reads it printed back, a bonus jackpot, and arguments refused
// before anything is sent.
func TestSashostAFTReceiptsAndJackpots(t *testing.T) {
	m, path := serveAFTWith(t, aft.Config{Asset: 777, TransferLimit: 100_000, InHouse: true, Bonus: true, BonusJackpot: true, Receipts: true})
	run := func(args ...string) (string, string, int) {
		t.Helper()
		return execSashost(t, append([]string{"--pty", path, "--addr", "3", "--timeout", "2s"}, args...)...)
	}
	out, errs, code := run("aft", "receipt-data", "location=CASINO ESTORIL", "inhouse1=OBRIGADO", "address2=")
	if code != 0 || !strings.Contains(out, "receipt data set: 3 fields") {
		t.Fatalf("receipt-data: %d %q %q", code, out, errs)
	}
	out, errs, code = run("--json", "aft", "transfer", "in", "id=R-1", "asset=777", "cashable=2500", "receipt",
		"source=CAIXA 3", "patron=ANA SILVA", "account=0042", "balance=123456")
	var r aft.TransferReply
	if code != 0 || json.Unmarshal([]byte(out), &r) != nil || r.Status != aft.StatusFull {
		t.Fatalf("transfer with a receipt: %d %q %q", code, out, errs)
	}
	out, errs, code = run("aft", "interrogate", "id=R-1")
	if code != 0 || !strings.Contains(out, `"R-1" in-house to machine`) || !strings.Contains(out, "receipt printed") {
		t.Fatalf("interrogate: %d %q %q", code, out, errs)
	}
	out, errs, code = run("--json", "aft", "transfer", "jackpot", "id=J-1", "asset=777", "cashable=700")
	if code != 0 || json.Unmarshal([]byte(out), &r) != nil || r.Status != aft.StatusFull || r.Type != aft.BonusJackpot {
		t.Fatalf("bonus jackpot: %d %q %q", code, out, errs)
	}
	out, _, _ = run("aft", "history")
	if !strings.Contains(out, `"J-1" bonus jackpot win`) || strings.Count(out, "receipt") != 1 {
		t.Fatalf("history:\n%s", out)
	}
	// What the machine committed: the texts, the receipt data and the
	// printer's confirmation.
	var texts aft.ReceiptTextSet
	var data []byte
	printed := false
	for _, rec := range m.Ledger() {
		switch x := rec.(type) {
		case aft.ReceiptTextSet:
			texts = x
		case aft.Transfer:
			if x.ID == "R-1" {
				data = x.ReceiptData
			}
		case aft.Receipt:
			printed = x.ID == "R-1"
		}
	}
	f, err := aft.ParseReceiptData(data)
	if err != nil || f.Source != "CAIXA 3" || f.Patron != "ANA SILVA" || f.Account != "0042" || !f.HasBalance || f.Balance != 123456 || !printed {
		t.Fatalf("receipt data %+v %v, printed %v", f, err, printed)
	}
	if !slices.Equal(texts.Fields, []aft.TextField{{Code: aft.TextLocation, Text: "CASINO ESTORIL"}, {Code: aft.TextAddress2}, {Code: aft.TextInHouse1, Text: "OBRIGADO"}}) {
		t.Fatalf("texts %+v", texts)
	}
	for _, bad := range [][]string{
		{"aft", "receipt-data"},
		{"aft", "receipt-data", "location=" + strings.Repeat("X", 23)},
		{"aft", "transfer", "in", "id=R-2", "asset=777", "cashable=1", "receipt", "patron=" + strings.Repeat("X", 23)},
		{"aft", "transfer", "in", "id=R-2", "asset=777", "cashable=1", "receipt", "account=12345678901234567"},
	} {
		if _, errs, code := run(bad...); code != 2 || !strings.Contains(errs, "usage") {
			t.Errorf("%v: exit %d %q", bad, code, errs)
		}
	}
}

// A debit with the real sashost: registered with a key and a POS, the
// debit under that key with its receipt (the card's digits, the fee and
// the total debited) is made once; the arguments SAS forbids stop before
// anything is sent.
func TestSashostAFTDebit(t *testing.T) {
	m, path := serveAFTWith(t, aft.Config{Asset: 777, TransferLimit: 100_000, InHouse: true, Debit: true, Receipts: true})
	run := func(args ...string) (string, string, int) {
		t.Helper()
		return execSashost(t, append([]string{"--pty", path, "--addr", "3", "--timeout", "2s"}, args...)...)
	}
	key := "key=" + strings.Repeat("D1", 20)
	if out, errs, code := run("aft", "register", "asset=777", key, "pos=42"); code != 0 || !strings.Contains(out, "POS ID 42") {
		t.Fatalf("register: %d %q %q", code, out, errs)
	}
	if out, _, _ := run("aft", "status"); !strings.Contains(out, "AFT status D9") {
		t.Fatalf("status (registered, in-house, debit, any, receipts): %s", out)
	}
	debit := []string{"--json", "aft", "transfer", "debit", "id=D-1", "asset=777", key, "cashable=10000", "receipt", "card=0042", "fee=250"}
	out, errs, code := run(debit...)
	var r aft.TransferReply
	if code != 0 || json.Unmarshal([]byte(out), &r) != nil || r.Status != aft.StatusFull || r.Type != aft.DebitToMachine || r.Cashable != 10_000 {
		t.Fatalf("debit: %d %q %q", code, out, errs)
	}
	if out, errs, code = run(debit...); code != 0 || json.Unmarshal([]byte(out), &r) != nil || r.Status != aft.StatusFull {
		t.Fatalf("the debit again: %d %q %q", code, out, errs)
	}
	if out, _, code = run("aft", "transfer", "debit", "id=D-2", "asset=777", "key="+strings.Repeat("EE", 20), "cashable=1"); code == 0 ||
		!strings.Contains(out, "89 registration key does not match") {
		t.Fatalf("a debit under another key: %d %q", code, out)
	}
	var debits []aft.Transfer
	for _, rec := range m.Ledger() {
		if x, ok := rec.(aft.Transfer); ok && x.Type == aft.DebitToMachine {
			debits = append(debits, x)
		}
	}
	if len(debits) != 1 || debits[0].POSID != 42 {
		t.Fatalf("debits committed %+v", debits)
	}
	f, err := aft.ParseReceiptData(debits[0].ReceiptData)
	if err != nil || f.DebitCard != "0042" || !f.HasFee || f.Fee != 250 || f.HasDebitTotal {
		t.Fatalf("receipt data %+v %v", f, err)
	}
	for _, bad := range [][]string{
		{"aft", "transfer", "debit", "id=D-3", "asset=777", "cashable=1"},
		{"aft", "transfer", "debit", "id=D-3", "asset=777", key, "cashable=1", "receipt", "card=12345"},
		{"aft", "transfer", "debit", "id=D-3", "asset=777", key, "cashable=1", "receipt", "card=12a4"},
		{"aft", "transfer", "debit", "id=D-3", "asset=777", key, "cashable=1", "receipt", "card=0042", "fee=x"},
	} {
		if _, errs, code := run(bad...); code != 2 || !strings.Contains(errs, "usage") {
			t.Errorf("%v: exit %d %q", bad, code, errs)
		}
	}
}
