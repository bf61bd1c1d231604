package aft

import (
	"errors"
	"testing"
	"time"
)

func TestParseReceiptData(t *testing.T) {
	b := []byte{FieldSource, 4, 'C', 'A', 'G', 'E',
		FieldDateTime, 7, 0x03, 0x05, 0x20, 0x26, 0x14, 0x30, 0x59,
		FieldPatronName, 3, 'A', 'N', 'A',
		0x7A, 1, 0xFF, // a code SAS does not define: skipped
		FieldPatronAccount, 4, '0', '0', '4', '2',
		FieldAccountBalance, 5, 0x00, 0x00, 0x01, 0x23, 0x45,
		FieldDebitCard, 2, 0x12, 0x34}
	f, err := ParseReceiptData(b)
	if err != nil {
		t.Fatal(err)
	}
	want := ReceiptFields{Source: "CAGE", At: time.Date(2026, 3, 5, 14, 30, 59, 0, time.UTC), Patron: "ANA", Account: "0042",
		Balance: 12345, HasBalance: true, DebitCard: "1234"}
	if f != want {
		t.Fatalf("got %+v\nwant %+v", f, want)
	}
	for name, bad := range map[string][]byte{
		"a name of 23 characters": append([]byte{FieldPatronName, 23}, []byte("ABCDEFGHIJKLMNOPQRSTUVW")...),
		"an account of 17":        append([]byte{FieldPatronAccount, 17}, []byte("12345678901234567")...),
		"a balance of 4 bytes":    {FieldAccountBalance, 4, 0, 0, 0, 1},
		"a balance not in BCD":    {FieldAccountBalance, 5, 0, 0, 0, 0, 0x1A},
		"the 31st of February":    {FieldDateTime, 7, 0x02, 0x31, 0x20, 0x26, 0x10, 0x00, 0x00},
		"hour 24":                 {FieldDateTime, 7, 0x02, 0x01, 0x20, 0x26, 0x24, 0x00, 0x00},
		"a control character":     {FieldSource, 1, 0x07},
		"a length past the end":   {FieldSource, 5, 'A'},
		"a code without length":   {FieldSource},
		"a debit card of 3 bytes": {FieldDebitCard, 3, 1, 2, 3},
	} {
		if _, err := ParseReceiptData(bad); !errors.Is(err, ErrReceiptData) {
			t.Errorf("%s: %v", name, err)
		}
	}
}

func TestReceiptTextSetFoldsAndRoundTrips(t *testing.T) {
	set := ReceiptTextSet{Fields: []TextField{{TextLocation, "CASINO ESTORIL"}, {TextAddress2, "2765 ESTORIL"},
		{TextInHouse1 + 3, "OBRIGADO"}, {TextDebit1, "DEBIT"}}}
	b, err := AppendReceiptText(nil, set)
	if err != nil {
		t.Fatal(err)
	}
	back, err := ParseReceiptText(b)
	if err != nil || len(back.Fields) != 4 || back.Fields[2] != set.Fields[2] {
		t.Fatalf("round trip %+v %v", back, err)
	}
	s, err := Fold([]Record{set, ReceiptTextSet{Fields: []TextField{{TextLocation, ""}, {TextAddress1, "AV. MARGINAL"}}}})
	if err != nil {
		t.Fatal(err)
	}
	want := ReceiptText{Address: [2]string{"AV. MARGINAL", "2765 ESTORIL"}, InHouse: [4]string{3: "OBRIGADO"}, Debit: [4]string{0: "DEBIT"}}
	if s.ReceiptText != want {
		t.Fatalf("texts %+v, want %+v (an empty text puts the default back)", s.ReceiptText, want)
	}
	for name, bad := range map[string]ReceiptTextSet{
		"no field":          {},
		"code 03":           {Fields: []TextField{{0x03, "X"}}},
		"code 14":           {Fields: []TextField{{0x14, "X"}}},
		"23 characters":     {Fields: []TextField{{TextLocation, "ABCDEFGHIJKLMNOPQRSTUVW"}}},
		"not ASCII":         {Fields: []TextField{{TextLocation, "CASINO DA PÓVOA"}}},
		"a control in text": {Fields: []TextField{{TextInHouse1, "A\nB"}}},
	} {
		if _, err := Fold([]Record{bad}); !errors.Is(err, ErrRecord) {
			t.Errorf("%s: folded (%v)", name, err)
		}
		if _, err := AppendReceiptText(nil, bad); err == nil {
			t.Errorf("%s: encoded", name)
		}
	}
	if _, err := ParseReceiptText([]byte{TextLocation, 3, 'A'}); err == nil {
		t.Error("a 0x75 field past the end was read")
	}
}

// A receipt asked for is printed once, from what the ledger kept: the
// host's receipt data is in the record; the history reports it pending,
// then printed; a second confirmation, or one for a transfer that asked
// none, is no record the ledger ordered.
func TestReceiptKeptAndPrintedOnce(t *testing.T) {
	m := newMachine(t, testConfig())
	m.register()
	q := in("RD", 900)
	q.Flags, q.Receipt = FlagReceipt, []byte{FieldPatronName, 3, 'R', 'U', 'I'}
	d := m.begin(q)
	if d.Record == nil || string(d.Record.ReceiptData) != string(q.Receipt) {
		t.Fatalf("record %+v: the receipt data is not kept", d.Record)
	}
	m.commit(*d.Record)
	m.transfer(in("NR", 100))
	if h := m.core.Interrogate(0xFE); h.ID != "RD" || h.ReceiptStatus != ReceiptPending {
		t.Fatalf("history before the print: %+v", h)
	}
	m.commit(Receipt{Position: 1, ID: "RD"})
	if h := m.core.Interrogate(1); h.ReceiptStatus != ReceiptPrinted {
		t.Fatalf("history after the print: %+v", h)
	}
	for _, r := range []Receipt{{Position: 1, ID: "RD"}, {Position: 2, ID: "NR"}} {
		if _, err := m.core.Committed(r, m.now); !errors.Is(err, ErrRecord) {
			t.Errorf("receipt %+v: %v", r, err)
		}
	}
	// Receipt data that breaks table 8.3f: nothing to print from (82).
	bad := in("RB", 100)
	bad.Flags, bad.Receipt = FlagReceipt, []byte{FieldAccountBalance, 2, 0, 1}
	if r := m.transfer(bad); r.Status != StatusInvalidFunction {
		t.Fatalf("bad receipt data: %v", r.Status)
	}
}

// A bonus jackpot win paid by handpay moves no credit and is logged with
// its bonus meters; one below the limit is a cashable win.
func TestBonusJackpotByHandpayOrToCredits(t *testing.T) {
	m := newMachine(t, testConfig())
	m.register()
	q := in("J1", 0)
	q.Type, q.Cashable = BonusJackpot, 250_000
	d := m.begin(q)
	if d.Record == nil {
		t.Fatalf("bonus jackpot refused: %v", d.Reply.Status)
	}
	rec := *d.Record
	rec.Handpay = true // the machine's decision, at its handpay limit
	m.commit(rec)
	q2 := in("J2", 0)
	q2.Type, q2.Cashable, q2.NonRestricted = BonusJackpot, 300, 200
	m.transfer(q2)
	if m.credits.Cashable != 500 || m.credits.NonRestricted != 0 {
		t.Fatalf("credits %+v", m.credits)
	}
	st := m.core.State()
	if st.Meters[MeterBonusCashableIn] != 250_300 || st.Meters[MeterBonusCashableInCount] != 2 || st.Meters[MeterBonusNonRestrictedIn] != 200 {
		t.Fatalf("bonus meters %v", st.Meters)
	}
	if h, ok := st.At(1); !ok || !h.Handpay {
		t.Fatalf("history keeps the handpay: %+v", h)
	}
	// Only a bonus jackpot is paid by hand.
	bad := Transfer{ID: "X", Type: BonusCoinOut, Status: StatusFull, Handpay: true, Position: 3, Amounts: Amounts{Cashable: 1}}
	if _, err := Fold([]Record{bad}); !errors.Is(err, ErrRecord) {
		t.Fatalf("a coin-out bonus by handpay folded: %v", err)
	}
}
