package aft

import (
	"encoding/json"
	"errors"
	"reflect"
	"testing"
	"time"

	"github.com/openegm/cabinet/sas/metercode"
)

const asset = 1234

var t0 = time.Date(2026, 3, 5, 14, 0, 0, 0, time.UTC)

func testKey() Key {
	var k Key
	for i := range k {
		k[i] = byte(i + 1)
	}
	return k
}

func testConfig() Config {
	return Config{Asset: asset, TransferLimit: 100_000, RequireRegistration: true, InHouse: true, Bonus: true, BonusJackpot: true,
		TicketTransfers: true, PartialToHost: true, Receipts: true}
}

// machine is the test's model of the cabinet around the core: it owns
// the credits, commits every record at once (unless told otherwise) and
// keeps the ledger.
type machine struct {
	t       *testing.T
	core    *Core
	cond    Conditions
	ledger  []Record
	now     time.Time
	raised  []Exception
	credits Credits
}

func newMachine(t *testing.T, cfg Config) *machine {
	m := &machine{t: t, core: New(cfg, State{}), now: t0,
		cond: Conditions{CreditLimit: 500_000, PrinterReady: true}}
	return m
}

func (m *machine) conditions() Conditions {
	c := m.cond
	c.Credits = m.credits
	return c
}

func (m *machine) commit(r Record) {
	m.t.Helper()
	exc, err := m.core.Committed(r, m.now)
	if err != nil {
		m.t.Fatalf("commit %+v: %v", r, err)
	}
	m.ledger = append(m.ledger, r)
	if tr, ok := r.(Transfer); ok {
		m.credits = m.credits.Apply(tr)
	}
	m.raised = append(m.raised, exc...)
}

func (m *machine) register() {
	m.t.Helper()
	for _, code := range []RegCode{RegInitialize, RegRegister} {
		_, rec := m.core.Register(RegisterRequest{Code: code, Asset: asset, Key: testKey(), POSID: 7})
		if rec == nil {
			m.t.Fatalf("registration code %02X changed nothing", code)
		}
		m.commit(*rec)
	}
}

// begin sends a transfer and returns the decision without committing.
func (m *machine) begin(req TransferRequest) Decision {
	m.now = m.now.Add(time.Second)
	return m.core.Transfer(req, m.conditions(), m.now)
}

// transfer sends a transfer and commits its record, if any, at once;
// it returns the reply to the host's next interrogation.
func (m *machine) transfer(req TransferRequest) TransferReply {
	m.t.Helper()
	d := m.begin(req)
	if d.Record == nil {
		return d.Reply
	}
	if d.Reply.Status != StatusPending {
		m.t.Fatalf("a record with reply status %v", d.Reply.Status)
	}
	m.commit(*d.Record)
	return m.core.Interrogate(0)
}

func in(id string, cashable int64) TransferRequest {
	return TransferRequest{Code: CodeFull, Type: InHouseToMachine, Cashable: cashable, Asset: asset, Key: testKey(), ID: id}
}

func out(id string, cashable int64) TransferRequest {
	return TransferRequest{Code: CodeFull, Type: InHouseToHost, Cashable: cashable, Asset: asset, Key: testKey(), ID: id}
}

func TestTransferInCommitsThenReports(t *testing.T) {
	m := newMachine(t, testConfig())
	m.register()
	d := m.begin(in("A1", 2500))
	if d.Record == nil || d.Reply.Status != StatusPending || d.Reply.Cashable != 2500 || !d.Reply.At.IsZero() || d.Reply.Meters != nil {
		t.Fatalf("begin: %+v record %v", d.Reply, d.Record)
	}
	// Until the commit nothing has moved: the credits are the machine's.
	if r := m.core.Interrogate(0); r.Status != StatusPending || r.ID != "A1" {
		t.Fatalf("interrogated while pending: %+v", r)
	}
	if _, ok := m.core.Pending(); !ok {
		t.Fatal("no pending transfer")
	}
	m.commit(*d.Record)
	r := m.core.Interrogate(0)
	if r.Status != StatusFull || r.Position != 1 || r.Cashable != 2500 || !r.At.Equal(d.Record.At) ||
		r.Meters == nil || r.Meters.Cashable != 2500 {
		t.Fatalf("after commit: %+v", r)
	}
	if m.credits.Cashable != 2500 {
		t.Fatalf("credits %+v", m.credits)
	}
	if !reflect.DeepEqual(m.raised, []Exception{ExcTransferComplete}) {
		t.Fatalf("exceptions %v, want 69", m.raised)
	}
	st := m.core.State()
	want := map[metercode.Code]int64{MeterInHouseCashableIn: 2500, MeterInHouseCashableInCount: 1, metercode.ElectronicToMachine: 2500}
	if !reflect.DeepEqual(st.Meters, want) {
		t.Fatalf("meters %v, want %v", st.Meters, want)
	}
}

func TestRefusalsAnswerTheirSASStatus(t *testing.T) {
	type setup func(m *machine, q *TransferRequest)
	cases := []struct {
		name   string
		cfg    func(*Config)
		setup  setup
		status Status
	}{
		{"AFT off (asset 0)", func(c *Config) { c.Asset = 0 }, nil, StatusInvalidFunction},
		{"transaction index not 0", nil, func(_ *machine, q *TransferRequest) { q.Index = 3 }, StatusInvalidFunction},
		{"transaction ID with a control character", nil, func(_ *machine, q *TransferRequest) { q.ID = "A\x01" }, StatusIDInvalid},
		{"transaction ID too long", nil, func(_ *machine, q *TransferRequest) { q.ID = "123456789012345678901" }, StatusIDInvalid},
		{"asset number zero", nil, func(_ *machine, q *TransferRequest) { q.Asset = 0 }, StatusAssetMismatch},
		{"asset number of another machine", nil, func(_ *machine, q *TransferRequest) { q.Asset = asset + 1 }, StatusAssetMismatch},
		{"not registered", nil, func(m *machine, _ *TransferRequest) {
			_, rec := m.core.Register(RegisterRequest{Code: RegUnregister})
			m.commit(*rec)
		}, StatusNotRegistered},
		{"registration key mismatch", nil, func(_ *machine, q *TransferRequest) { q.Key[0] ^= 0xFF }, StatusKeyMismatch},
		{"zero key on a machine that requires registration", nil, func(_ *machine, q *TransferRequest) { q.Key = Key{} }, StatusKeyMismatch},
		{"only if locked, not locked", nil, func(_ *machine, q *TransferRequest) { q.Flags |= FlagOnlyIfLocked }, StatusNotLocked},
		{"debit on a machine without debit", nil, func(_ *machine, q *TransferRequest) { q.Type = DebitToMachine }, StatusInvalidFunction},
		{"unknown type", nil, func(_ *machine, q *TransferRequest) { q.Type = 0x33 }, StatusInvalidFunction},
		{"in-house off", func(c *Config) { c.InHouse = false }, nil, StatusInvalidFunction},
		{"bonus off", func(c *Config) { c.Bonus = false }, func(_ *machine, q *TransferRequest) { q.Type = BonusCoinOut }, StatusInvalidFunction},
		{"bonus jackpot on a machine that pays no bonus by hand", func(c *Config) { c.BonusJackpot = false }, func(_ *machine, q *TransferRequest) { q.Type = BonusJackpot }, StatusInvalidFunction},
		{"receipt for a bonus", nil, func(_ *machine, q *TransferRequest) { q.Type, q.Flags = BonusCoinOut, FlagReceipt }, StatusReceiptNotAllowed},
		{"ticket transfers off", func(c *Config) { c.TicketTransfers = false }, func(_ *machine, q *TransferRequest) { q.Type = InHouseToTicket }, StatusInvalidFunction},
		{"ticket printer not ready", nil, func(m *machine, q *TransferRequest) { q.Type, m.cond.PrinterReady = InHouseToTicket, false }, StatusTicketDeviceNotReady},
		{"restricted bonus", nil, func(_ *machine, q *TransferRequest) { q.Type, q.Restricted = BonusCoinOut, 5 }, StatusInvalidAmount},
		{"non-restricted ticket", nil, func(_ *machine, q *TransferRequest) { q.Type, q.NonRestricted = InHouseToTicket, 5 }, StatusInvalidAmount},
		{"restricted win to host", nil, func(m *machine, q *TransferRequest) {
			q.Type, q.Restricted, m.cond.WonCredits = WinToHost, 5, 100
		}, StatusInvalidAmount},
		{"negative amount", nil, func(_ *machine, q *TransferRequest) { q.NonRestricted = -1 }, StatusInvalidAmount},
		{"receipt with the printer down", nil, func(m *machine, q *TransferRequest) { q.Flags, m.cond.PrinterReady = FlagReceipt, false }, StatusCannotPrintReceipt},
		{"receipts off", func(c *Config) { c.Receipts = false }, func(_ *machine, q *TransferRequest) { q.Flags = FlagReceipt }, StatusCannotPrintReceipt},
		{"partial to host not allowed", func(c *Config) { c.PartialToHost = false }, func(m *machine, q *TransferRequest) {
			m.credits.Cashable = 100
			q.Type, q.Code = InHouseToHost, CodePartial
		}, StatusNoPartialToHost},
		{"game in progress", nil, func(m *machine, _ *TransferRequest) { m.cond.GameInProgress = true }, StatusUnable},
		{"handpay", nil, func(m *machine, _ *TransferRequest) { m.cond.Handpay = true }, StatusUnable},
		{"tilt", nil, func(m *machine, _ *TransferRequest) { m.cond.Tilt = true }, StatusUnable},
		{"disabled", nil, func(m *machine, _ *TransferRequest) { m.cond.Disabled = true }, StatusUnable},
		{"restricted expiration not a date", nil, func(_ *machine, q *TransferRequest) { q.Restricted, q.Expiration = 100, 13012027 }, StatusInvalidAmount},
		{"restricted expiration passed", nil, func(_ *machine, q *TransferRequest) { q.Restricted, q.Expiration = 100, 3042026 }, StatusInvalidAmount},
		{"ticket expiration passed", nil, func(_ *machine, q *TransferRequest) {
			q.Type, q.Cashable, q.Restricted, q.Expiration = InHouseToTicket, 0, 100, 1012020
		}, StatusExpirationNotValid},
		{"restricted of another pool", nil, func(m *machine, q *TransferRequest) {
			m.credits.Restricted, m.credits.RestrictedPool = 50, 9
			q.Restricted, q.PoolID = 100, 8
		}, StatusOtherPool},
		{"over the transfer limit", nil, func(_ *machine, q *TransferRequest) { q.Cashable = 100_001 }, StatusExceedsLimit},
		{"over the credit limit", nil, func(m *machine, q *TransferRequest) { m.credits.Cashable = 450_000; q.Cashable = 50_001 }, StatusExceedsLimit},
		{"ticket over the transfer limit", nil, func(_ *machine, q *TransferRequest) { q.Type, q.Cashable = InHouseToTicket, 100_001 }, StatusExceedsLimit},
		{"out more than the credits", nil, func(m *machine, q *TransferRequest) {
			m.credits.Cashable = 100
			q.Type, q.Cashable = InHouseToHost, 101
		}, StatusInvalidAmount},
		{"out of restricted more than held", nil, func(m *machine, q *TransferRequest) {
			m.credits.Cashable = 100
			q.Type, q.Restricted = InHouseToHost, 1
		}, StatusInvalidAmount},
		{"win to host without a win", nil, func(m *machine, q *TransferRequest) { m.credits.Cashable = 100; q.Type = WinToHost }, StatusNoWonCredits},
		{"restricted on a cashable-only machine", func(c *Config) { c.CashableOnly = true }, func(_ *machine, q *TransferRequest) {
			q.Restricted, q.Expiration = 100, 0
		}, StatusInvalidAmount},
		{"non-restricted on a cashable-only machine", func(c *Config) { c.CashableOnly = true }, func(_ *machine, q *TransferRequest) {
			q.Cashable, q.NonRestricted = 0, 100
		}, StatusInvalidAmount},
		{"non-restricted out of a cashable-only machine", func(c *Config) { c.CashableOnly = true }, func(m *machine, q *TransferRequest) {
			m.credits.Cashable = 1000
			q.Type, q.Cashable, q.NonRestricted = InHouseToHost, 0, 100
		}, StatusInvalidAmount},
		{"partial of nothing", nil, func(m *machine, q *TransferRequest) {
			m.credits.Cashable = 500_000
			q.Code = CodePartial
		}, StatusExceedsLimit},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			cfg := testConfig()
			if c.cfg != nil {
				c.cfg(&cfg)
			}
			m := newMachine(t, cfg)
			if cfg.Asset != 0 {
				m.register()
			}
			q := in("R1", 1000)
			if c.setup != nil {
				c.setup(m, &q)
			}
			m.refused(q, c.status)
		})
	}
}

// refused begins q and checks that it is refused with status: no record,
// the refusal is the current transfer the host reads, nothing else moved.
func (m *machine) refused(q TransferRequest, status Status) {
	m.t.Helper()
	before := m.core.State()
	d := m.begin(q)
	if d.Record != nil || d.Reply.Status != status {
		m.t.Fatalf("status %v (record %v), want %v", d.Reply.Status, d.Record != nil, status)
	}
	if got := m.core.Interrogate(0); got.Status != status || got.ID != q.ID || got.At.IsZero() {
		m.t.Fatalf("the refusal is not the current transfer: %+v", got)
	}
	if after := m.core.State(); !reflect.DeepEqual(before, after) {
		m.t.Fatalf("a refusal changed the state:\n%+v\n%+v", before, after)
	}
}

func TestSASCodeFormsAndTransferInProgress(t *testing.T) {
	m := newMachine(t, testConfig())
	m.register()
	if r := m.begin(TransferRequest{Code: 0x05, ID: "X"}).Reply; r.Status != StatusUnsupportedCode || !r.Short() {
		t.Fatalf("unknown code: %+v", r)
	}
	if r := m.core.Interrogate(0); r.Status != StatusNoInfo {
		t.Fatalf("no transfer yet: %+v", r)
	}
	d := m.begin(in("P1", 100))
	// Another transfer while one is pending is incompatible; the same
	// request again is answered with the pending status, not run twice.
	if r := m.begin(in("P2", 100)); r.Record != nil || r.Reply.Status != StatusIncompatible {
		t.Fatalf("second transfer: %+v", r.Reply)
	}
	if r := m.begin(in("P1", 100)); r.Record != nil || r.Reply.Status != StatusPending {
		t.Fatalf("repeat while pending: %+v", r.Reply)
	}
	// A cancel cannot take back a transfer handed to the ledger.
	if r := m.begin(TransferRequest{Code: CodeCancel}); r.Record != nil || r.Reply.Status != StatusPending || r.Reply.ID != "P1" {
		t.Fatalf("cancel: %+v", r.Reply)
	}
	m.commit(*d.Record)
	if m.credits.Cashable != 100 {
		t.Fatalf("credits %d", m.credits.Cashable)
	}
}

func TestExactlyOnceByTransactionID(t *testing.T) {
	m := newMachine(t, testConfig())
	m.register()
	first := m.transfer(in("ONCE", 700))
	if first.Status != StatusFull || m.credits.Cashable != 700 {
		t.Fatalf("first: %+v", first)
	}
	n := len(m.ledger)
	// The same request again (a host that lost the reply): its recorded
	// result, nothing committed.
	for range 3 {
		d := m.begin(in("ONCE", 700))
		if d.Record != nil || !reflect.DeepEqual(d.Reply, first) {
			t.Fatalf("repeat: %+v record %v, want %+v", d.Reply, d.Record, first)
		}
	}
	// The same ID for another request: refused as not unique.
	if d := m.begin(in("ONCE", 800)); d.Record != nil || d.Reply.Status != StatusIDNotUnique {
		t.Fatalf("other request under the ID: %+v", d.Reply)
	}
	// An ID in the history, not the current one, is still recognised.
	m.transfer(in("TWO", 1))
	if d := m.begin(in("ONCE", 700)); d.Record != nil || d.Reply.Status != StatusFull || d.Reply.Position != 1 {
		t.Fatalf("repeat from history: %+v", d.Reply)
	}
	if len(m.ledger) != n+1 || m.credits.Cashable != 701 {
		t.Fatalf("ledger %d records, credits %d", len(m.ledger), m.credits.Cashable)
	}
	// A refused request's ID may be used again: nothing ran.
	m.cond.Tilt = true
	if d := m.begin(in("LATER", 5)); d.Reply.Status != StatusUnable {
		t.Fatalf("tilted: %+v", d.Reply)
	}
	m.cond.Tilt = false
	if r := m.transfer(in("LATER", 5)); r.Status != StatusFull || m.credits.Cashable != 706 {
		t.Fatalf("retry after a refusal: %+v", r)
	}
	// The ledger refuses a transfer ID twice (a fold that would run it
	// again stops).
	if _, err := Fold(append(m.ledger, m.ledger[len(m.ledger)-1])); !errors.Is(err, ErrRecord) {
		t.Fatalf("fold of a repeated transfer: %v", err)
	}
}

func TestInterrogationByIndex(t *testing.T) {
	m := newMachine(t, testConfig())
	m.register()
	ids := []string{}
	for i := range 130 {
		id := "T" + string(rune('0'+i/100)) + string(rune('0'+i/10%10)) + string(rune('0'+i%10))
		ids = append(ids, id)
		if r := m.transfer(in(id, int64(i+1))); r.Status != StatusFull {
			t.Fatalf("%s: %+v", id, r)
		}
		if i == 0 {
			// A zero-amount transfer is current but not in the history.
			if r := m.transfer(in("ZERO", 0)); r.Status != StatusFull || r.Position != 0 {
				t.Fatalf("zero transfer: %+v", r)
			}
			if r := m.core.Interrogate(0xFF); r.ID != ids[0] {
				t.Fatalf("newest after a zero transfer: %+v", r)
			}
		}
	}
	st := m.core.State()
	if len(st.History) != MaxHistory {
		t.Fatalf("history of %d", len(st.History))
	}
	// 130 logged transfers in a ring of 127: the 128th took position 1.
	if r := m.core.Interrogate(1); r.ID != ids[127] || r.Position != 1 {
		t.Fatalf("position 1: %+v", r)
	}
	if r := m.core.Interrogate(3); r.ID != ids[129] {
		t.Fatalf("position 3: %+v", r)
	}
	if r := m.core.Interrogate(4); r.ID != ids[3] || r.Cashable != 4 {
		t.Fatalf("position 4: %+v", r)
	}
	if r := m.core.Interrogate(0xFF); r.ID != ids[129] {
		t.Fatalf("relative FF: %+v", r)
	}
	if r := m.core.Interrogate(0xFE); r.ID != ids[128] {
		t.Fatalf("relative FE: %+v", r)
	}
	if r := m.core.Interrogate(0x81); r.ID != ids[3] {
		t.Fatalf("relative 81 (127 back): %+v", r)
	}
	if r := m.core.Interrogate(0); r.ID != ids[129] || r.Position != 3 {
		t.Fatalf("current: %+v", r)
	}
	if r := m.core.Interrogate(0x80); r.Status != StatusNoInfo {
		t.Fatalf("index 80: %+v", r)
	}
	// The oldest ID has left the history: the horizon of exactly once.
	if _, ok := st.Lookup(ids[0]); ok {
		t.Fatal("an ID older than the history is still found")
	}
	// An empty history answers FF.
	e := newMachine(t, testConfig())
	for _, i := range []byte{0, 1, 0x7F, 0xFF} {
		if r := e.core.Interrogate(i); r.Status != StatusNoInfo || r.Position != i {
			t.Errorf("empty, index %02X: %+v", i, r)
		}
	}
}

func TestPartialTransfersAndLimits(t *testing.T) {
	m := newMachine(t, testConfig())
	m.register()
	m.cond.CreditLimit = 150_000
	// Partial in: the transfer limit (1000.00) caps it, cashable first.
	q := TransferRequest{Code: CodePartial, Type: InHouseToMachine, Cashable: 60_000, Restricted: 30_000, NonRestricted: 30_000,
		Asset: asset, Key: testKey(), ID: "PI", Expiration: 30, PoolID: 4}
	r := m.transfer(q)
	if r.Status != StatusPartial || r.Cashable != 60_000 || r.Restricted != 30_000 || r.NonRestricted != 10_000 {
		t.Fatalf("partial in: %+v", r)
	}
	if m.credits.Total() != 100_000 || m.credits.RestrictedPool != 4 || m.credits.RestrictedExpiration != DateOf(t0.AddDate(0, 0, 30)) {
		t.Fatalf("credits %+v", m.credits)
	}
	// The credit limit caps the next: room for 500.00.
	q.ID, q.Restricted, q.NonRestricted = "PI2", 0, 0
	if r := m.transfer(q); r.Status != StatusPartial || r.Cashable != 50_000 {
		t.Fatalf("partial to the credit limit: %+v", r)
	}
	// Full out of more than the machine holds: refused; partial: what
	// there is.
	o := out("PO", 200_000)
	if r := m.transfer(o); r.Status != StatusInvalidAmount {
		t.Fatalf("full out: %+v", r)
	}
	o.Code, o.ID, o.Restricted, o.NonRestricted = CodePartial, "PO2", 99_999, 99_999
	if r := m.transfer(o); r.Status != StatusPartial || r.Cashable != 110_000 || r.Restricted != 30_000 || r.NonRestricted != 10_000 {
		t.Fatalf("partial out: %+v", r)
	}
	if m.credits != (Credits{}) {
		t.Fatalf("credits after cash-out %+v", m.credits)
	}
	// A bonus ignores the limits.
	b := TransferRequest{Code: CodeFull, Type: BonusCoinOut, Cashable: 160_000, Asset: asset, Key: testKey(), ID: "B"}
	if r := m.transfer(b); r.Status != StatusFull || m.credits.Cashable != 160_000 {
		t.Fatalf("bonus: %+v", r)
	}
	st := m.core.State()
	for code, want := range map[metercode.Code]int64{
		MeterInHouseCashableIn: 110_000, MeterInHouseCashableInCount: 2, MeterInHouseRestrictedIn: 30_000, MeterInHouseRestrictedInCount: 1,
		MeterInHouseNonRestrictedIn: 10_000, MeterInHouseNonRestrictedCount: 1, metercode.ElectronicToMachine: 150_000,
		MeterInHouseCashableOut: 110_000, MeterInHouseCashableOutCount: 1, MeterInHouseRestrictedOut: 30_000,
		MeterInHouseNonRestrictedOut: 10_000, metercode.ElectronicToHost: 150_000,
		MeterBonusCashableIn: 160_000, MeterBonusCashableInCount: 1,
	} {
		if st.Meters[code] != want {
			t.Errorf("meter %v = %d, want %d", code, st.Meters[code], want)
		}
	}
	// The cumulative meters of a reply are those of its type.
	if r := m.core.Interrogate(0xFE); r.Meters == nil || r.Meters.Cashable != 110_000 || r.Meters.Restricted != 30_000 {
		t.Fatalf("cumulative of the cash-out: %+v", r.Meters)
	}
}

func TestWinToHostAndHostCashoutFlags(t *testing.T) {
	m := newMachine(t, testConfig())
	m.register()
	// A zero transfer that only enables host cashout (hard mode).
	q := in("HC", 0)
	q.Flags = FlagHostCashoutControl | FlagHostCashoutEnable | FlagHostCashoutHard
	if r := m.transfer(q); r.Status != StatusFull || r.Flags&0x07 != 0x07 {
		t.Fatalf("host cashout: %+v", r)
	}
	if st := m.core.Status(m.conditions()); st.HostCashout != HostCashoutControllable|HostCashoutEnabled|HostCashoutHard {
		t.Fatalf("0x74 host cashout %v", st.HostCashout)
	}
	m.transfer(in("CR", 5000))
	if !m.core.HostCashoutWanted(m.conditions()) {
		t.Fatal("a cash-out should go to the host")
	}
	m.cond.WonCredits = 1200
	w := TransferRequest{Code: CodePartial, Type: WinToHost, Cashable: 9999, Asset: asset, Key: testKey(), ID: "WIN"}
	if r := m.transfer(w); r.Status != StatusPartial || r.Cashable != 1200 || m.credits.Cashable != 3800 {
		t.Fatalf("win to host: %+v credits %+v", r, m.credits)
	}
	// The flags stay with the next transfers that do not set them.
	if r := m.transfer(in("NEXT", 1)); r.Flags&0x07 != 0x07 {
		t.Fatalf("flags after: %02X", r.Flags)
	}
}

func TestLock(t *testing.T) {
	m := newMachine(t, testConfig())
	m.register()
	cond := m.conditions()
	st, exc := m.core.Lock(LockRequest{Code: RequestLock, Conditions: TransferToMachineOK, Timeout: 1000}, cond, m.now)
	if st.Lock != Locked || !reflect.DeepEqual(exc, []Exception{ExcGameLocked}) || !m.core.Locked() {
		t.Fatalf("lock when idle: %+v %v", st, exc)
	}
	if st.Asset != asset || st.MaxIndex != 0x7F || st.AFTStatus&(StatusRegistered|StatusAnyAFTEnabled|StatusInHouseEnabled) == 0 ||
		st.Available&TransferToMachineOK == 0 || st.TransferLimit != 100_000 {
		t.Fatalf("status %+v", st)
	}
	// 6F again after 5 s, the lock ends after its timeout.
	if e := m.core.Tick(cond, m.now.Add(4*time.Second)); e != nil {
		t.Fatalf("6F before 5 s: %v", e)
	}
	if e := m.core.Tick(cond, m.now.Add(5*time.Second)); !reflect.DeepEqual(e, []Exception{ExcGameLocked}) {
		t.Fatalf("6F after 5 s: %v", e)
	}
	if m.core.Tick(cond, m.now.Add(10*time.Second-time.Millisecond)); !m.core.Locked() {
		t.Fatal("unlocked before the timeout")
	}
	m.core.Tick(cond, m.now.Add(10*time.Second))
	if m.core.Locked() {
		t.Fatal("still locked after the timeout")
	}
	// During a game the lock is pending, granted when the game ends.
	m.cond.GameInProgress = true
	st, exc = m.core.Lock(LockRequest{Code: RequestLock, Conditions: TransferToMachineOK, Timeout: 1000}, m.conditions(), m.now)
	if st.Lock != LockPending || exc != nil || st.Available != 0 {
		t.Fatalf("lock during a game: %+v %v", st, exc)
	}
	if d := m.begin(in("DURING", 1)); d.Reply.Status != StatusUnable {
		t.Fatalf("transfer during a game: %+v", d.Reply)
	}
	m.cond.GameInProgress = false
	if e := m.core.Tick(m.conditions(), m.now.Add(time.Second)); !reflect.DeepEqual(e, []Exception{ExcGameLocked}) || !m.core.Locked() {
		t.Fatalf("lock after the game: %v", e)
	}
	// Only-if-locked transfers pass; the lock ends with the transfer.
	q := in("LOCKED", 300)
	q.Flags = FlagOnlyIfLocked
	if r := m.transfer(q); r.Status != StatusFull || m.core.Locked() {
		t.Fatalf("transfer under lock: %+v locked %v", r, m.core.Locked())
	}
	// Lock after transfer locks again, with 6F.
	m.raised = nil
	q = in("RELOCK", 300)
	q.Flags, q.LockTimeout = FlagLockAfterTransfer, 200
	m.transfer(q)
	if !m.core.Locked() || !reflect.DeepEqual(m.raised, []Exception{ExcTransferComplete, ExcGameLocked}) {
		t.Fatalf("lock after transfer: locked %v exceptions %v", m.core.Locked(), m.raised)
	}
	m.core.Lock(LockRequest{Code: CancelLock}, m.conditions(), m.now)
	if m.core.Locked() {
		t.Fatal("cancel did not unlock")
	}
	// A pending lock lapses at its timeout; a zero timeout never locks;
	// a condition the machine cannot meet keeps it pending.
	m.cond.Disabled = true
	m.core.Lock(LockRequest{Code: RequestLock, Timeout: 100}, m.conditions(), m.now)
	m.core.Tick(m.conditions(), m.now.Add(time.Second))
	if st := m.core.Status(m.conditions()); st.Lock != NotLocked {
		t.Fatalf("pending lock after its timeout: %v", st.Lock)
	}
	m.cond.Disabled = false
	if st, _ := m.core.Lock(LockRequest{Code: RequestLock, Timeout: 0}, m.conditions(), m.now); st.Lock != NotLocked {
		t.Fatalf("zero timeout: %v", st.Lock)
	}
	m.cond.PrinterReady = false
	if st, _ := m.core.Lock(LockRequest{Code: RequestLock, Conditions: TransferToPrinterOK, Timeout: 100}, m.conditions(), m.now); st.Lock != LockPending {
		t.Fatalf("printer condition without a printer: %v", st.Lock)
	}
	if st, _ := m.core.Lock(LockRequest{Code: InterrogateLock}, m.conditions(), m.now); st.Lock != LockPending {
		t.Fatalf("interrogation changed the lock: %v", st.Lock)
	}
}

func TestRegistration(t *testing.T) {
	m := newMachine(t, testConfig())
	if r := m.core.Registration(); r.Status != RegNotRegistered || r.Asset != asset {
		t.Fatalf("new machine: %+v", r)
	}
	// Register before initialising: refused, nothing to commit.
	if r, rec := m.core.Register(RegisterRequest{Code: RegRegister, Asset: asset, Key: testKey()}); rec != nil || r.Status != RegNotRegistered {
		t.Fatalf("register first: %+v", r)
	}
	r, rec := m.core.Register(RegisterRequest{Code: RegInitialize})
	if rec == nil || r.Status != RegReady {
		t.Fatalf("initialise: %+v", r)
	}
	// The reply tells the registration the record makes; the durable
	// state moves at the commit.
	if m.core.State().Registration != nil {
		t.Fatal("registration changed before the commit")
	}
	m.commit(*rec)
	if r, rec := m.core.Register(RegisterRequest{Code: RegRegister, Asset: asset + 1, Key: testKey()}); rec != nil || r.Status != RegReady {
		t.Fatalf("register with another asset: %+v", r)
	}
	r, rec = m.core.Register(RegisterRequest{Code: RegRegister, Asset: asset, Key: testKey(), POSID: 42})
	if rec == nil || r != (RegisterReply{Status: RegRegistered, Asset: asset, Key: testKey(), POSID: 42}) {
		t.Fatalf("register: %+v", r)
	}
	m.commit(*rec)
	if r, rec := m.core.Register(RegisterRequest{Code: RegRead}); rec != nil || r.POSID != 42 || r.Key != testKey() {
		t.Fatalf("read: %+v", r)
	}
	if m.core.Status(m.conditions()).AFTStatus&StatusRegistered == 0 {
		t.Fatal("0x74 does not say registered")
	}
	// Unregister, then the operator-acknowledged path: 40, the
	// operator's acknowledgement (6D), 01.
	_, rec = m.core.Register(RegisterRequest{Code: RegUnregister})
	m.commit(*rec)
	if d := m.begin(in("U", 1)); d.Reply.Status != StatusNotRegistered {
		t.Fatalf("transfer after unregistering: %v", d.Reply.Status)
	}
	if m.core.OperatorAcknowledge() != nil {
		t.Fatal("acknowledgement with nothing pending")
	}
	_, rec = m.core.Register(RegisterRequest{Code: RegInitialize})
	m.commit(*rec)
	r, rec = m.core.Register(RegisterRequest{Code: RegRequestAck})
	if rec == nil || r.Status != RegPending {
		t.Fatalf("request acknowledgement: %+v", r)
	}
	m.commit(*rec)
	m.raised = nil
	m.commit(*m.core.OperatorAcknowledge())
	if !reflect.DeepEqual(m.raised, []Exception{ExcRegistrationAck}) || m.core.Registration().Status != RegReady {
		t.Fatalf("acknowledged: %v %+v", m.raised, m.core.Registration())
	}
	_, rec = m.core.Register(RegisterRequest{Code: RegRegister, Asset: asset, Key: testKey(), POSID: NoPOSChange})
	m.commit(*rec)
	if r := m.core.Registration(); r.Status != RegRegistered || r.POSID != 0 {
		t.Fatalf("registered keeping the POS ID: %+v", r)
	}
	// Without RequireRegistration a zero key needs none; a key still
	// must match.
	cfg := testConfig()
	cfg.RequireRegistration = false
	o := newMachine(t, cfg)
	q := in("OPEN", 10)
	q.Key = Key{}
	if r := o.transfer(q); r.Status != StatusFull {
		t.Fatalf("zero key, registration not required: %+v", r)
	}
	if d := o.begin(in("KEYED", 10)); d.Reply.Status != StatusNotRegistered {
		t.Fatalf("key on an unregistered machine: %v", d.Reply.Status)
	}
}

// A host registers with 00 then 01 at once (sas/host AFTRegisterMachine
// does), and may transfer right after: the cabinet's port answers before
// the owner has committed the records, so the core answers from the
// registrations it handed out; the durable state moves at each commit,
// and a power loss before them leaves the machine as its ledger says.
func TestRegistrationAnsweredBeforeItsCommit(t *testing.T) {
	m := newMachine(t, testConfig())
	r0, rec0 := m.core.Register(RegisterRequest{Code: RegInitialize})
	r1, rec1 := m.core.Register(RegisterRequest{Code: RegRegister, Asset: asset, Key: testKey(), POSID: 9})
	if rec0 == nil || rec1 == nil || r0.Status != RegReady || r1.Status != RegRegistered || r1.POSID != 9 {
		t.Fatalf("00 then 01 before any commit: %+v %v, %+v %v", r0, rec0, r1, rec1)
	}
	if m.core.State().Registration != nil {
		t.Fatal("the durable state moved before the commit")
	}
	if st := m.core.Status(m.conditions()); st.AFTStatus&StatusRegistered == 0 || st.Available&TransferToMachineOK == 0 {
		t.Fatalf("0x74 before the commit: %+v", st)
	}
	d := m.begin(in("EARLY", 100))
	if d.Record == nil {
		t.Fatalf("transfer right after registering: %v", d.Reply.Status)
	}
	// Out of order: a registration commit must be the oldest handed out.
	if _, err := m.core.Committed(*rec1, m.now); !errors.Is(err, ErrNotPending) {
		t.Fatalf("01 committed before 00: %v", err)
	}
	// A power loss now: the ledger has none of it.
	st, err := Fold(m.ledger)
	if err != nil {
		t.Fatal(err)
	}
	if r := New(testConfig(), st).Registration(); r.Status != RegNotRegistered {
		t.Fatalf("after a power loss before the commits: %+v", r)
	}
	m.commit(*rec0)
	if r := m.core.Registration(); r.Status != RegRegistered {
		t.Fatalf("01 still handed out after 00 committed: %+v", r)
	}
	m.commit(*rec1)
	m.commit(*d.Record)
	if s := m.core.State(); s.Registration == nil || *s.Registration != *rec1 || m.credits.Cashable != 100 {
		t.Fatalf("after the commits: %+v, credits %+v", s.Registration, m.credits)
	}
}

func TestReceipts(t *testing.T) {
	m := newMachine(t, testConfig())
	m.register()
	q := in("RC", 1500)
	q.Flags = FlagReceipt
	d := m.begin(q)
	if d.Reply.ReceiptStatus != ReceiptPending || d.Record.ReceiptStatus != ReceiptPending {
		t.Fatalf("pending receipt: %+v", d.Reply)
	}
	m.commit(*d.Record)
	due := m.core.ReceiptDue()
	if len(due) != 1 || due[0].ID != "RC" {
		t.Fatalf("receipts due %+v", due)
	}
	if r := m.core.Interrogate(0); r.ReceiptStatus != ReceiptPending {
		t.Fatalf("before printing: %v", r.ReceiptStatus)
	}
	m.commit(Receipt{Position: due[0].Position, ID: "RC"})
	if r := m.core.Interrogate(1); r.ReceiptStatus != ReceiptPrinted || len(m.core.ReceiptDue()) != 0 {
		t.Fatalf("after printing: %+v", r)
	}
	if _, err := m.core.Committed(Receipt{Position: 9, ID: "NONE"}, m.now); !errors.Is(err, ErrRecord) {
		t.Fatalf("receipt of no transfer: %v", err)
	}
	// No receipt for a zero amount, even when asked.
	z := in("RZ", 0)
	z.Flags = FlagReceipt
	if r := m.transfer(z); r.ReceiptStatus != ReceiptNone {
		t.Fatalf("zero transfer receipt %v", r.ReceiptStatus)
	}
}

// A power loss between Begin and the commit: the record is in the ledger
// (the transfer happened) or not (it never did); the core rebuilt from
// the ledger agrees, and the host's retry of a lost one runs once.
func TestPowerLossBetweenBeginAndCommit(t *testing.T) {
	m := newMachine(t, testConfig())
	m.register()
	m.transfer(in("BEFORE", 100))
	d := m.begin(in("LOST", 900))
	if d.Record == nil {
		t.Fatal("no record")
	}
	// Power lost: the record never reached the ledger.
	st, err := Fold(m.ledger)
	if err != nil {
		t.Fatal(err)
	}
	m.core = New(testConfig(), st)
	if r := m.core.Interrogate(0); r.ID != "BEFORE" || r.Status != StatusFull {
		t.Fatalf("after power-up the host reads %+v, want BEFORE", r)
	}
	if r := m.transfer(in("LOST", 900)); r.Status != StatusFull || m.credits.Cashable != 1000 {
		t.Fatalf("retry: %+v credits %d", r, m.credits.Cashable)
	}
	// Power lost after the commit: the transfer is there, and a retry
	// answers it without running it.
	st, _ = Fold(m.ledger)
	m.core = New(testConfig(), st)
	if d := m.begin(in("LOST", 900)); d.Record != nil || d.Reply.Status != StatusFull || m.credits.Cashable != 1000 {
		t.Fatalf("retry after a committed transfer: %+v", d.Reply)
	}
	// The pending transfer was never committed: committing it to the
	// new core is an error, not a second execution.
	if _, err := m.core.Committed(*d0(m), m.now); !errors.Is(err, ErrNotPending) {
		t.Fatalf("commit of a transfer not pending: %v", err)
	}
}

func d0(m *machine) *Transfer {
	e := m.core.State().Current
	return &e.Transfer
}

func TestAbandonAndRecheck(t *testing.T) {
	m := newMachine(t, testConfig())
	m.register()
	m.transfer(in("SEED", 1000))
	d := m.begin(out("OUT", 1000))
	// A game took the credits before the machine could commit.
	m.credits.Cashable = 400
	st, ok := Recheck(*d.Record, m.conditions())
	if ok || st != StatusInvalidAmount {
		t.Fatalf("recheck: %v %v", st, ok)
	}
	if err := m.core.Abandon(*d.Record, StatusFull, m.now); err == nil {
		t.Fatal("abandon with a success status")
	}
	if err := m.core.Abandon(*d.Record, st, m.now); err != nil {
		t.Fatal(err)
	}
	if r := m.core.Interrogate(0); r.Status != StatusInvalidAmount || r.ID != "OUT" {
		t.Fatalf("after abandon: %+v", r)
	}
	if _, ok := m.core.Pending(); ok {
		t.Fatal("still pending")
	}
	if _, ok := Recheck(Transfer{Type: InHouseToMachine, Status: StatusFull, Amounts: Amounts{Cashable: 1}}, m.conditions()); !ok {
		t.Fatal("recheck refused a transfer that fits")
	}
}

func TestStateJSONAndFold(t *testing.T) {
	m := newMachine(t, testConfig())
	m.register()
	q := in("J1", 100)
	q.Restricted, q.Expiration, q.PoolID, q.Flags = 50, 12312030, 3, FlagReceipt
	m.transfer(q)
	m.commit(Receipt{Position: 1, ID: "J1"})
	m.transfer(out("J2", 100))
	live := m.core.State()
	folded, err := Fold(m.ledger)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(live, folded) {
		t.Fatalf("live and folded differ:\n%+v\n%+v", live, folded)
	}
	b, err := json.Marshal(live)
	if err != nil {
		t.Fatal(err)
	}
	var back State
	if err := json.Unmarshal(b, &back); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(back, live) {
		t.Fatalf("JSON round trip:\n%s\n%+v", b, back)
	}
	// Records round-trip through JSON too (the ledger keeps them so).
	for _, r := range m.ledger {
		b, _ := json.Marshal(r)
		p := reflect.New(reflect.TypeOf(r))
		if err := json.Unmarshal(b, p.Interface()); err != nil || !reflect.DeepEqual(p.Elem().Interface(), r) {
			t.Fatalf("record %T: %s %v", r, b, err)
		}
	}
	// Records out of turn.
	bad := Transfer{ID: "X", Type: InHouseToMachine, Status: StatusFull, Position: 5, Amounts: Amounts{Cashable: 1}}
	if _, err := Fold([]Record{bad}); !errors.Is(err, ErrRecord) {
		t.Fatalf("position out of turn: %v", err)
	}
	bad.Position, bad.Status = 1, StatusPending
	if _, err := Fold([]Record{bad}); !errors.Is(err, ErrRecord) {
		t.Fatalf("pending status committed: %v", err)
	}
	if _, err := Fold([]Record{Registration{Status: 0x22}}); !errors.Is(err, ErrRecord) {
		t.Fatalf("bad registration: %v", err)
	}
}

func TestCreditsWagerAndExpire(t *testing.T) {
	c := Credits{Amounts: Amounts{Cashable: 100, Restricted: 30, NonRestricted: 20}, RestrictedExpiration: 3052026, RestrictedPool: 2}
	after, played, err := c.Wager(40)
	if err != nil || played != (Amounts{Restricted: 30, NonRestricted: 10}) || after.Restricted != 0 || after.RestrictedPool != 0 || after.NonRestricted != 10 {
		t.Fatalf("wager 40: %+v %+v %v", after, played, err)
	}
	if _, _, err := c.Wager(151); err == nil {
		t.Fatal("bet above the credits")
	}
	if got, gone := c.Expire(t0); gone != 0 || got != c {
		t.Fatalf("expired on its day: %+v %d", got, gone)
	}
	if got, gone := c.Expire(t0.AddDate(0, 0, 1)); gone != 30 || got.Restricted != 0 || got.Cashable != 100 {
		t.Fatalf("the day after: %+v %d", got, gone)
	}
	// Restricted money of the same pool keeps the later expiration.
	t1 := Transfer{Type: InHouseToMachine, Amounts: Amounts{Restricted: 5}, RestrictedExpiration: 1012027, PoolID: 2}
	if got := c.Apply(t1); got.RestrictedExpiration != 1012027 || got.Restricted != 35 {
		t.Fatalf("apply later: %+v", got)
	}
	t1.RestrictedExpiration = 1012026
	if got := c.Apply(t1); got.RestrictedExpiration != 3052026 {
		t.Fatalf("apply earlier: %+v", got)
	}
	// A bonus coin-out win is a win: cashable, whatever the host's split.
	if got := c.Apply(Transfer{Type: BonusCoinOut, Amounts: Amounts{Cashable: 7, NonRestricted: 3}}); got.Cashable != 110 || got.NonRestricted != 20 {
		t.Fatalf("bonus: %+v", got)
	}
	// A ticket or a bonus jackpot paid by handpay leaves the meter alone;
	// a bonus jackpot below the handpay limit is a cashable win.
	for _, tr := range []Transfer{{Type: InHouseToTicket}, {Type: BonusJackpot, Handpay: true}} {
		tr.Amounts = Amounts{Cashable: 9}
		if got := c.Apply(tr); got != c {
			t.Errorf("%v moved the credits: %+v", tr.Type, got)
		}
	}
	if got := c.Apply(Transfer{Type: BonusJackpot, Amounts: Amounts{Cashable: 9, NonRestricted: 1}}); got.Cashable != 110 || got.NonRestricted != 20 {
		t.Fatalf("bonus jackpot to the credits: %+v", got)
	}
}

func TestExpiration(t *testing.T) {
	for _, c := range []struct {
		e    Expiration
		ok   bool
		want Expiration
	}{
		{0, true, 0}, {30, true, 4042026}, {3052026, true, 3052026}, {3042026, false, 0},
		{2302027, false, 0}, {13012027, false, 0}, {12312099, true, 12312099},
	} {
		got, ok := c.e.Resolve(t0)
		if ok != c.ok || got != c.want {
			t.Errorf("%v: %v %v, want %v %v", c.e, got, ok, c.want, c.ok)
		}
	}
	if !Expiration(30).Days() || Expiration(1012026).Days() || Expiration(0).Days() {
		t.Error("days form")
	}
	if s := Expiration(12312030).String(); s != "12/31/2030" {
		t.Errorf("String %q", s)
	}
}
