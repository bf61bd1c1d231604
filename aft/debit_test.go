package aft

import (
	"errors"
	"reflect"
	"testing"

	"github.com/openegm/cabinet/sas/metercode"
)

func debitConfig() Config {
	c := testConfig()
	c.RequireRegistration, c.Debit = false, true
	return c
}

func debit(id string, cashable int64) TransferRequest {
	return TransferRequest{Code: CodeFull, Type: DebitToMachine, Cashable: cashable, Asset: asset, Key: testKey(), ID: id}
}

// debitReceipt is receipt data naming the card (…1234), a fee of 2.50
// and the 102.50 taken from the account.
func debitReceipt() []byte {
	return []byte{FieldDebitCard, 2, 0x12, 0x34, FieldTransactionFee, 5, 0, 0, 0, 0x02, 0x50,
		FieldDebitAmount, 5, 0, 0, 0x01, 0x02, 0x50}
}

func TestDebitAcceptedFromTheRegisteredPOS(t *testing.T) {
	m := newMachine(t, debitConfig())
	m.register() // key testKey(), POS ID 7
	st := m.core.Status(m.conditions())
	if st.AFTStatus&StatusDebitEnabled == 0 || st.Available&TransferToMachineOK == 0 {
		t.Fatalf("status %+v: debit not offered", st)
	}
	d := m.begin(debit("D1", 10_000))
	if d.Record == nil || d.Reply.Status != StatusPending || d.Record.POSID != 7 || d.Record.Position != 1 {
		t.Fatalf("debit decided: %+v record %+v", d.Reply, d.Record)
	}
	m.commit(*d.Record)
	r := m.core.Interrogate(0)
	if r.Status != StatusFull || r.Type != DebitToMachine || r.Cashable != 10_000 || r.Meters == nil || r.Meters.Cashable != 10_000 {
		t.Fatalf("debit done: %+v", r)
	}
	if m.credits.Cashable != 10_000 {
		t.Fatalf("credits %+v", m.credits)
	}
	// A6/A7 and 0x17 count it once; the in-house meters do not.
	want := map[metercode.Code]int64{MeterDebitIn: 10_000, MeterDebitInCount: 1, metercode.ElectronicToMachine: 10_000}
	check := func(when string) {
		t.Helper()
		got := m.core.State().Meters
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("%s: meters %v, want %v", when, got, want)
		}
	}
	check("after the debit")
	// The same request again: its record, no money, no meter.
	for range 2 {
		if d := m.begin(debit("D1", 10_000)); d.Record != nil || !reflect.DeepEqual(d.Reply, r) {
			t.Fatalf("repeat: %+v record %v, want %+v", d.Reply, d.Record, r)
		}
	}
	if d := m.begin(debit("D1", 500)); d.Record != nil || d.Reply.Status != StatusIDNotUnique {
		t.Fatalf("another debit under the ID: %+v", d.Reply)
	}
	check("after the repeats")
	if m.credits.Cashable != 10_000 {
		t.Fatalf("a repeat moved money: %+v", m.credits)
	}
	// An in-house transfer in and a second debit: each on its own meters.
	m.transfer(in("I1", 300))
	m.transfer(debit("D2", 2_000))
	want = map[metercode.Code]int64{MeterDebitIn: 12_000, MeterDebitInCount: 2, metercode.ElectronicToMachine: 12_300,
		MeterInHouseCashableIn: 300, MeterInHouseCashableInCount: 1}
	check("after an in-house transfer and a second debit")
	// The history the host reads back has each once, in order.
	var ids []string
	for i := byte(1); i <= 3; i++ {
		ids = append(ids, m.core.Interrogate(i).ID)
	}
	if !reflect.DeepEqual(ids, []string{"D1", "I1", "D2"}) {
		t.Fatalf("history %v", ids)
	}
	// The ledger folds to the same state.
	if st, err := Fold(m.ledger); err != nil || !reflect.DeepEqual(st, m.core.State()) {
		t.Fatalf("fold %v:\n%+v\n%+v", err, st, m.core.State())
	}
}

func TestDebitRefusals(t *testing.T) {
	cases := []struct {
		name   string
		cfg    func(*Config)
		setup  func(m *machine, q *TransferRequest)
		status Status
	}{
		{"debit disabled", func(c *Config) { c.Debit = false }, nil, StatusInvalidFunction},
		{"debit to a ticket", nil, func(_ *machine, q *TransferRequest) { q.Type = DebitToTicket }, StatusInvalidFunction},
		{"never registered, zero key", nil, func(m *machine, q *TransferRequest) {
			m.core = New(m.core.Config(), State{})
			q.Key = Key{}
		}, StatusNotRegistered},
		{"never registered, with a key", nil, func(m *machine, _ *TransferRequest) { m.core = New(m.core.Config(), State{}) }, StatusNotRegistered},
		{"unregistered", nil, func(m *machine, _ *TransferRequest) {
			_, rec := m.core.Register(RegisterRequest{Code: RegUnregister})
			m.commit(*rec)
		}, StatusNotRegistered},
		{"registered without a key", nil, func(m *machine, q *TransferRequest) {
			m.core = New(m.core.Config(), State{})
			m.registerWith(Key{}, 7)
			q.Key = Key{}
		}, StatusNotRegistered},
		{"wrong key", nil, func(_ *machine, q *TransferRequest) { q.Key[3] ^= 1 }, StatusKeyMismatch},
		{"zero key", nil, func(_ *machine, q *TransferRequest) { q.Key = Key{} }, StatusKeyMismatch},
		{"no POS ID", nil, func(m *machine, _ *TransferRequest) {
			m.core = New(m.core.Config(), State{})
			m.registerWith(testKey(), 0)
		}, StatusNoPOSID},
		{"restricted amount", nil, func(_ *machine, q *TransferRequest) { q.Restricted = 100 }, StatusInvalidAmount},
		{"non-restricted amount", nil, func(_ *machine, q *TransferRequest) { q.NonRestricted = 100 }, StatusInvalidAmount},
		{"only non-restricted", nil, func(_ *machine, q *TransferRequest) { q.Cashable, q.NonRestricted = 0, 100 }, StatusInvalidAmount},
		{"receipt without the card", nil, func(_ *machine, q *TransferRequest) {
			q.Flags, q.Receipt = FlagReceipt, []byte{FieldPatronName, 3, 'A', 'N', 'A'}
		}, StatusReceiptDataMissing},
		{"receipt without data", nil, func(_ *machine, q *TransferRequest) { q.Flags = FlagReceipt }, StatusReceiptDataMissing},
		{"receipt with the printer down", nil, func(m *machine, q *TransferRequest) {
			q.Flags, q.Receipt, m.cond.PrinterReady = FlagReceipt, debitReceipt(), false
		}, StatusCannotPrintReceipt},
		{"receipt data broken", nil, func(_ *machine, q *TransferRequest) {
			q.Flags, q.Receipt = FlagReceipt, []byte{FieldDebitCard, 2, 0x1A, 0x34}
		}, StatusInvalidFunction},
		{"over the transfer limit", nil, func(_ *machine, q *TransferRequest) { q.Cashable = 100_001 }, StatusExceedsLimit},
		{"during a game", nil, func(m *machine, _ *TransferRequest) { m.cond.GameInProgress = true }, StatusUnable},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			cfg := debitConfig()
			if c.cfg != nil {
				c.cfg(&cfg)
			}
			m := newMachine(t, cfg)
			m.register()
			q := debit("R1", 1000)
			if c.setup != nil {
				c.setup(m, &q)
			}
			m.refused(q, c.status)
		})
	}
}

// registerWith registers the host with key and POS ID.
func (m *machine) registerWith(k Key, pos uint32) {
	m.t.Helper()
	for _, code := range []RegCode{RegInitialize, RegRegister} {
		if _, rec := m.core.Register(RegisterRequest{Code: code, Asset: asset, Key: k, POSID: pos}); rec != nil {
			m.commit(*rec)
		}
	}
}

func TestDebitStatusBitAndAvailability(t *testing.T) {
	cfg := debitConfig()
	cfg.InHouse, cfg.Bonus = false, false
	m := newMachine(t, cfg)
	st := m.core.Status(m.conditions())
	if st.AFTStatus&(StatusDebitEnabled|StatusAnyAFTEnabled) != StatusDebitEnabled|StatusAnyAFTEnabled || st.Available != 0 {
		t.Fatalf("debit only, not registered: %+v", st)
	}
	m.register()
	if st := m.core.Status(m.conditions()); st.Available != TransferToMachineOK {
		t.Fatalf("debit only, registered: available %02X", st.Available)
	}
	if r := m.transfer(debit("D", 100)); r.Status != StatusFull {
		t.Fatalf("debit on a debit-only machine: %+v", r)
	}
	if d := m.begin(in("I", 100)); d.Reply.Status != StatusInvalidFunction {
		t.Fatalf("in-house on a debit-only machine: %+v", d.Reply)
	}
	off := newMachine(t, testConfig())
	if st := off.core.Status(off.conditions()); st.AFTStatus&StatusDebitEnabled != 0 {
		t.Fatalf("debit bit with debit off: %02X", st.AFTStatus)
	}
}

func TestDebitReceiptKeepsItsData(t *testing.T) {
	m := newMachine(t, debitConfig())
	m.registerWith(testKey(), 9)
	q := debit("DR", 10_000)
	q.Flags, q.Receipt = FlagReceipt, debitReceipt()
	d := m.begin(q)
	if d.Record == nil || d.Record.ReceiptStatus != ReceiptPending {
		t.Fatalf("debit with a receipt: %+v", d.Reply)
	}
	m.commit(*d.Record)
	due := m.core.ReceiptDue()
	if len(due) != 1 || due[0].POSID != 9 {
		t.Fatalf("receipts due %+v", due)
	}
	f, err := ParseReceiptData(due[0].ReceiptData)
	if err != nil || f.DebitCard != "1234" || !f.HasFee || f.Fee != 250 || !f.HasDebitTotal || f.DebitTotal != 10_250 {
		t.Fatalf("receipt fields %+v %v", f, err)
	}
}

// The fold refuses a debit no registration allows, one at another POS,
// and one of promotional money: such a ledger ran something SAS forbids.
func TestDebitFoldRefusals(t *testing.T) {
	reg := func(k Key, pos uint32) []Record {
		return []Record{Registration{Status: RegReady}, Registration{Status: RegRegistered, Key: k, POSID: pos}}
	}
	d := Transfer{Position: 1, ID: "D", Code: CodeFull, Type: DebitToMachine, Status: StatusFull, Asset: asset,
		Requested: Amounts{Cashable: 100}, Amounts: Amounts{Cashable: 100}, At: t0, ReceiptStatus: ReceiptNone, POSID: 7}
	if _, err := Fold(append(reg(testKey(), 7), d)); err != nil {
		t.Fatalf("a lawful debit: %v", err)
	}
	promo := d
	promo.Requested.NonRestricted, promo.Amounts.NonRestricted = 5, 5
	inWithPOS := d
	inWithPOS.Type = InHouseToMachine
	for name, recs := range map[string][]Record{
		"not registered":         {d},
		"unregistered":           append(reg(testKey(), 7), Registration{Status: RegNotRegistered}, d),
		"registered without key": append(reg(Key{}, 7), d),
		"another POS":            append(reg(testKey(), 8), d),
		"non-restricted money":   append(reg(testKey(), 7), promo),
		"an in-house with a POS": append(reg(testKey(), 7), inWithPOS),
	} {
		if _, err := Fold(recs); !errors.Is(err, ErrRecord) {
			t.Errorf("%s: %v", name, err)
		}
	}
}

// The machine's last look takes a debit as it takes money in: refused
// when the credits it would add no longer fit.
func TestDebitRecheck(t *testing.T) {
	m := newMachine(t, debitConfig())
	m.register()
	d := m.begin(debit("DC", 1000))
	if d.Record == nil {
		t.Fatalf("debit: %+v", d.Reply)
	}
	cond := m.conditions()
	if st, ok := Recheck(*d.Record, cond); !ok || st != StatusFull {
		t.Fatalf("recheck as decided: %v %v", st, ok)
	}
	cond.Credits.Cashable = cond.CreditLimit - 999
	if st, ok := Recheck(*d.Record, cond); ok || st != StatusExceedsLimit {
		t.Fatalf("recheck over the credit limit: %v %v", st, ok)
	}
}
