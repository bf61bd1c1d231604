package inspect

import (
	"maps"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/openegm/cabinet/aft"
	"github.com/openegm/cabinet/book"
	"github.com/openegm/cabinet/meters"
)

// t0 is the first record's time of the test ledgers; record i is at t0+i s.
var t0 = time.Date(2026, 3, 1, 10, 0, 0, 0, time.UTC)

// book is a test ledger committed record by record, each a second after
// the one before.
type testBook struct {
	t   *testing.T
	l   *meters.Ledger
	dir string
	n   int64
}

func newBook(t *testing.T) *testBook {
	dir := filepath.Join(t.TempDir(), "ledger")
	l, _, err := meters.Open(dir, meters.Options{Keys: book.FileKeys{Dir: dir + ".keys"}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { l.Close() })
	return &testBook{t: t, l: l, dir: dir}
}

// next is the time of the next record.
func (b *testBook) next() int64 { b.n++; return t0.Add(time.Duration(b.n) * time.Second).UnixNano() }

func (b *testBook) commit(recs ...meters.Record) {
	b.t.Helper()
	for _, r := range recs {
		if err := b.l.Commit(r); err != nil {
			b.t.Fatalf("%v: %v", r.Type(), err)
		}
	}
}

// aftT is a completed AFT transfer at the next history position.
func (b *testBook) aftT(id string, typ aft.TransferType, a aft.Amounts) meters.AFTTransfer {
	at := b.next()
	t := aft.Transfer{ID: id, Code: aft.CodeFull, Type: typ, Status: aft.StatusFull, Requested: a, Amounts: a,
		At: time.Unix(0, at), ReceiptStatus: aft.ReceiptNone, Position: b.l.State().AFT.NextPosition()}
	return meters.AFTTransfer{At: at, Transfer: t}
}

const (
	ticketIn1  = "001234567890123456"
	ticketIn2  = "001234567890123457"
	seTicket   = "000000000000012345"
	hpNumber   = "000000000000054321"
	restricted = aft.Expiration(3012026) // 1 March 2026
	rTicketIn  = "000000000000077777"
	rTicketOut = "000000000000066666"
	rExpiry    = aft.Expiration(12312030) // 31 December 2030
)

// everyPath is a ledger with a record of every money path: test mode, bill
// orders stacked and returned, a note without order, a coin, tickets in
// redeemed and refused, AFT in (with its receipt), promotional credits in,
// played, expired and out, a win to the host, AFT bonuses to credits and
// by hand (validated, with its receipt), a game's handpay, a cancelled
// credit handpay, transfers outside AFT, tickets out printed and voided,
// the host's validation settings, and poker transfers done, refused and
// open.
func everyPath(t *testing.T) *testBook {
	b := newBook(t)
	cfg := func(k, v string) meters.Record { return meters.Config{At: b.next(), Who: "start-up", Key: k, Value: v} }
	b.commit(cfg("machine_id", "EGM-7"))
	b.commit(meters.TestMode{At: b.next(), Who: "tech-1", Role: "technician", Enter: true, Credits: 10000},
		meters.TestGame{At: b.next(), Game: 1, Kind: meters.GameReels, Paytable: "p", Digest: "d", Denom: 1, Level: 1, BetCents: 100, Stops: []int{1, 2, 3}, WinCents: 50},
		meters.TestMode{At: b.next(), Who: "tech-1", Role: "technician", Why: "done"})
	b.commit(meters.ValidationConfig{At: b.next(), ID: 1234, Seq: 0, HostSeq: 1},
		meters.TicketData{At: b.next(), ExpiryDays: 30, Location: "Casino Estoril"},
		meters.ValidationControl{At: b.next(), Off: meters.CtlPrinterHandpay, RestrictedExpiry: 7})
	b.commit(meters.BillEscrow{At: b.next(), Ref: 1, Cents: 5000}, meters.MoneyIn{At: b.next(), Source: meters.SourceBill, Cents: 5000, Order: 1},
		meters.BillEscrow{At: b.next(), Ref: 2, Cents: 2000}, meters.BillReturned{At: b.next(), Ref: 2, Cents: 2000, Why: "jam"},
		meters.MoneyIn{At: b.next(), Source: meters.SourceBill, Cents: 1000},
		meters.MoneyIn{At: b.next(), Source: meters.SourceCoin, Cents: 200})
	b.commit(meters.TicketEscrow{At: b.next(), Digits: ticketIn1}, meters.TicketRedeem{At: b.next(), Digits: ticketIn1, Cents: 2500},
		meters.TicketEscrow{At: b.next(), Digits: ticketIn2}, meters.TicketRedeem{At: b.next(), Digits: ticketIn2, Status: 0x87, Why: "expired"})
	in := b.aftT("AFT-IN-1", aft.InHouseToMachine, aft.Amounts{Cashable: 10000})
	in.Transfer.Flags, in.Transfer.ReceiptStatus = aft.FlagReceipt, aft.ReceiptPending
	in.Transfer.ReceiptData = []byte{aft.FieldPatronName, 2, 'J', 'O'}
	b.commit(in, meters.AFTReceipt{At: b.next(), Receipt: aft.Receipt{Position: in.Transfer.Position, ID: "AFT-IN-1"}})
	promo := b.aftT("AFT-PROMO-1", aft.InHouseToMachine, aft.Amounts{Restricted: 4000, NonRestricted: 1000})
	promo.Transfer.PoolID, promo.Transfer.Expiration, promo.Transfer.RestrictedExpiration = 7, restricted, restricted
	b.commit(promo)
	b.commit(meters.GameStart{At: b.next(), Game: 1, Paytable: "p", Digest: "d", Denom: 1, BetCredits: 3000, BetCents: 3000, Stops: []int{1}},
		meters.GameEnd{At: b.next(), Game: 1})
	b.commit(meters.PromoExpired{At: b.next(), Cents: 1000, Pool: 7, Expiration: restricted, Day: aft.Expiration(3022026)})
	// One at a time: each takes the next history position.
	b.commit(b.aftT("AFT-OUT-1", aft.InHouseToHost, aft.Amounts{Cashable: 1000, NonRestricted: 400}))
	b.commit(b.aftT("AFT-WIN-1", aft.WinToHost, aft.Amounts{Cashable: 500}))
	b.commit(b.aftT("AFT-BONUS-1", aft.BonusCoinOut, aft.Amounts{Cashable: 300}))
	jp := b.aftT("AFT-JP-1", aft.BonusJackpot, aft.Amounts{Cashable: 250000})
	jp.Transfer.Handpay = true
	b.commit(jp, meters.HandpayPending{At: b.next(), Kind: meters.HandpayBonus, Cents: 250000, Ref: "AFT-JP-1"},
		meters.HandpayValidated{At: b.next(), Who: "att-1", Cents: 250000, Ticket: hpNumber, Seq: 1, Receipt: true, TicketNo: 5, ExpiryDays: 30})
	b.commit(meters.GameStart{At: b.next(), Game: 2, Paytable: "p", Digest: "d", Denom: 1, BetCredits: 100, BetCents: 100, Stops: []int{1}, WinCents: 200000},
		meters.GameEnd{At: b.next(), Game: 2, WinCents: 200000, Handpay: true},
		meters.HandpayPending{At: b.next(), Kind: meters.HandpayWin, Cents: 200000, Game: 2},
		meters.HandpayReset{At: b.next(), Who: "att-2", Cents: 200000})
	b.commit(meters.HandpayPending{At: b.next(), Kind: meters.HandpayCancelled, Cents: 2000},
		meters.HandpayReset{At: b.next(), Who: "att-3", Cents: 2000})
	// A debit from a player's bank, under a registration with a POS.
	b.commit(meters.AFTRegistration{At: b.next(), Registration: aft.Registration{Status: aft.RegReady}},
		meters.AFTRegistration{At: b.next(), Registration: aft.Registration{Status: aft.RegRegistered, Key: aft.Key{0xD0}, POSID: 3}})
	debit := b.aftT("AFT-DEBIT-1", aft.DebitToMachine, aft.Amounts{Cashable: 800})
	debit.Transfer.POSID = 3
	b.commit(debit)
	b.commit(meters.MoneyIn{At: b.next(), Source: meters.SourceElectronic, Cents: 700, Ref: "EFT-1"},
		meters.CashOut{At: b.next(), Method: meters.OutElectronic, Cents: 300})
	b.commit(meters.CashOut{At: b.next(), Method: meters.OutTicket, Cents: 1000, Ticket: seTicket, Style: meters.StyleSecureEnhanced, Seq: 2, TicketNo: 6, ExpiryDays: 30},
		meters.TicketPrinted{At: b.next(), Ticket: seTicket, Cents: 1000},
		meters.CashOut{At: b.next(), Method: meters.OutTicket, Cents: 500, Ticket: "T-2"},
		meters.TicketVoid{At: b.next(), Ticket: "T-2", Cents: 500, Why: "paper out"})
	// A restricted promotional ticket in (restricted credits of pool 9),
	// then out on a restricted ticket of its own.
	b.commit(meters.TicketEscrow{At: b.next(), Digits: rTicketIn},
		meters.TicketRedeem{At: b.next(), Digits: rTicketIn, Status: meters.RedeemedRestricted, Cents: 600, Pool: 9, Expiration: rExpiry})
	b.commit(meters.CashOut{At: b.next(), Method: meters.OutTicket, Cents: 600, Ticket: rTicketOut, Style: meters.StyleSecureEnhanced, Seq: 3,
		Kind: meters.KindRestricted, Pool: 9, Expiration: rExpiry},
		meters.TicketPrinted{At: b.next(), Ticket: rTicketOut, Cents: 600})
	poker := func(kind string, seq uint64, cents int64) meters.PokerTransfer {
		at := b.next()
		return meters.PokerTransfer{At: at, ID: meters.PokerTransferID("EGM-7", at, seq), Seq: seq, Kind: kind, Table: "holdem-1", Source: "EGM-7", Player: "EGM-7", Cents: cents}
	}
	buy := poker(meters.PokerBuyIn, 1, 2000)
	b.commit(buy, meters.PokerDone{At: b.next(), ID: buy.ID, Cents: 2000})
	re := poker(meters.PokerRebuy, 2, 1000)
	b.commit(re, meters.PokerRefused{At: b.next(), ID: re.ID, Why: "above the table's cave"})
	out := meters.PokerTransfer{At: b.next(), ID: meters.PokerCashOutID(buy.ID, 1), Kind: meters.PokerCashOut, Table: "holdem-1", Source: "EGM-7", Player: "EGM-7"}
	b.commit(out, meters.PokerDone{At: b.next(), ID: out.ID, Cents: 4500})
	b.commit(poker(meters.PokerBuyIn, 3, 3000))
	return b
}

// untranslated is a key of the report's words shown as it is.
var untranslated = regexp.MustCompile(`\b(chk|ctl|dir|outcome|pkind|pst|rcpt|ev|pk|vrec|style|source|kind|exp|h)_[a-z_]+`)

func readReport(t *testing.T, dir string, from, to time.Time, edit func(*meters.State)) Report {
	t.Helper()
	st, err := ReadState(dir)
	if err != nil {
		t.Fatal(err)
	}
	if edit != nil {
		st = st.Clone()
		edit(st)
	}
	h, err := ReadHistory(dir, from, to)
	if err != nil {
		t.Fatal(err)
	}
	return BuildReport(st, Verdict{}, h, Issuer{At: t0})
}

func checkOf(t *testing.T, r Report, name string) Check {
	t.Helper()
	for _, c := range r.Checks.Rows {
		if c.Name == name {
			return c
		}
	}
	t.Fatalf("no check %q in %+v", name, r.Checks.Rows)
	return Check{}
}

// Every money path is a section with its rows, and each section's totals
// are the sums the ledger's records say, which equal the meters.
func TestEveryMoneyPathHasItsSection(t *testing.T) {
	b := everyPath(t)
	r := readReport(t, b.dir, time.Time{}, time.Time{}, nil)

	want := map[string]int64{
		"bills": 6000, "coins": 200, "bills_stacked": 6000, "tickets_in": 3100, "tickets_printed": 1600, "tickets_printed_count": 2,
		"restricted_tickets_in": 600, "restricted_tickets_out": 600,
		"handpaid_cancelled": 2000, "handpaid_win": 200000, "handpaid_progressive": 0, "handpaid_bonus": 250000, "handpaid_total": 452000,
		"aft_in_cashable": 10000, "aft_in_restricted": 4000, "aft_in_non_restricted": 1000, "aft_debit_in": 800, "electronic_in": 16500,
		"aft_out_cashable": 1500, "aft_out_restricted": 0, "aft_out_non_restricted": 400, "electronic_out": 2200,
		"aft_bonus_to_credits": 300, "aft_bonus": 250300,
		"restricted_in": 4000, "non_restricted_in": 1000, "restricted_out": 0, "non_restricted_out": 400, "restricted_expired": 1000,
		"poker_to_tables": 2000, "poker_from_tables": 4500, "test_money_meters": 0,
	}
	if len(r.Checks.Rows) != len(want) {
		t.Errorf("%d checks, want %d", len(r.Checks.Rows), len(want))
	}
	for name, sum := range want {
		c := checkOf(t, r, name)
		if c.Sum != sum || !c.Holds {
			t.Errorf("check %s: sum %d (want %d), meter %s %d, holds %v", name, c.Sum, sum, c.Meter, c.Value, c.Holds)
		}
	}
	if !r.Checks.Hold || r.Checks.Against != "meters" || !r.Period.Whole {
		t.Errorf("checks %+v, period %+v", r.Checks, r.Period)
	}

	// AFT: every transfer with its ID, kind amounts, pool and receipt.
	ids := []string{}
	for _, a := range r.AFT {
		ids = append(ids, a.ID+":"+a.Direction)
	}
	if !slices.Equal(ids, []string{"AFT-IN-1:in", "AFT-PROMO-1:in", "AFT-OUT-1:out", "AFT-WIN-1:out", "AFT-BONUS-1:bonus", "AFT-JP-1:bonus", "AFT-DEBIT-1:in"}) {
		t.Errorf("AFT rows %v", ids)
	}
	if a := r.AFT[0]; a.Cashable != 10000 || a.Receipt != "printed" || a.Code != "0x00" {
		t.Errorf("AFT in %+v", a)
	}
	if a := r.AFT[1]; a.Restricted != 4000 || a.NonRestricted != 1000 || a.Pool != 7 || a.Expiration != "2026-03-01" {
		t.Errorf("AFT promo %+v", a)
	}
	if a := r.AFT[5]; !a.Handpay || a.Cashable != 250000 || a.Code != "0x11" {
		t.Errorf("AFT bonus jackpot %+v", a)
	}

	// Promotional credits: in (by kind, with the pool), expired, out; the
	// totals with what the games played and the cash-outs paid.
	var promo []string
	for _, p := range r.Promo.Rows {
		promo = append(promo, p.Event+" "+p.Kind)
	}
	if !slices.Equal(promo, []string{"in restricted", "in non_restricted", "expired restricted", "out non_restricted",
		"ticket_in restricted", "ticket_out restricted"}) || r.Promo.Rows[0].Pool != 7 || r.Promo.Rows[5].Pool != 9 {
		t.Errorf("promo rows %+v", r.Promo.Rows)
	}
	if pt := r.Promo.Totals; pt != (PromoTotals{RestrictedIn: 4000, RestrictedPlayed: 3000, RestrictedExpired: 1000,
		NonRestrictedIn: 1000, NonRestrictedPlayed: 100, NonRestrictedOut: 400, NonRestrictedCashedOut: 500}) {
		t.Errorf("promo totals %+v", pt)
	}

	// Tickets in: the host's authorisation, the escrow, the refusal.
	if len(r.TicketsIn) != 3 || r.TicketsIn[0] != (TicketInRow{At: r.TicketsIn[0].At, Ticket: ticketIn1, EscrowAt: r.TicketsIn[0].At - int64(time.Second), Status: "00", Cents: 2500, Host: true}) ||
		r.TicketsIn[1].Status != "87" || r.TicketsIn[1].Host || r.TicketsIn[1].Cents != 0 || r.TicketsIn[1].Why != "expired" ||
		r.TicketsIn[2].Status != "01" || !r.TicketsIn[2].Host || r.TicketsIn[2].Kind != meters.KindRestricted || r.TicketsIn[2].Pool != 9 || r.TicketsIn[2].Cents != 600 {
		t.Errorf("tickets in %+v", r.TicketsIn)
	}
	// Tickets out with their validation number and style; the void.
	if len(r.Tickets) != 3 || r.Tickets[0].Ticket != seTicket || r.Tickets[0].Style != meters.StyleSecureEnhanced || r.Tickets[0].TicketNo != 6 ||
		r.Tickets[1].Void != "paper out" || r.Tickets[1].Style != "" ||
		r.Tickets[2].Ticket != rTicketOut || r.Tickets[2].Kind != meters.KindRestricted || r.Tickets[2].Pool != 9 || r.Tickets[2].Expiration != "2030-12-31" {
		t.Errorf("tickets out %+v", r.Tickets)
	}
	// Handpays: the validated one with its number and receipt.
	if len(r.Handpays) != 3 {
		t.Fatalf("handpays %+v", r.Handpays)
	}
	if h := r.Handpays[0]; h.Kind != meters.HandpayBonus || h.Ref != "AFT-JP-1" || h.Validation != hpNumber || !h.Receipt || h.ReceiptNo != 5 || h.PaidBy != "att-1" || h.Pending {
		t.Errorf("validated handpay %+v", h)
	}
	if h := r.Handpays[1]; h.Kind != meters.HandpayWin || h.Game != 2 || h.Validation != "" || h.PaidBy != "att-2" {
		t.Errorf("game handpay %+v", h)
	}
	// Bill orders: stacked and returned.
	if len(r.BillOrders) != 2 || r.BillOrders[0].Outcome != "stacked" || r.BillOrders[1].Outcome != "returned" || r.BillOrders[1].Why != "jam" {
		t.Errorf("bill orders %+v", r.BillOrders)
	}
	// Money in: every note, coin, ticket and non-AFT transfer.
	var sources []string
	for _, m := range r.MoneyIn {
		sources = append(sources, m.Source)
	}
	if !slices.Equal(sources, []string{"bill", "bill", "coin", "ticket", "electronic"}) {
		t.Errorf("money in %v", sources)
	}
	// Poker: done, refused, done (the cash-out's stack), open.
	var poker []string
	for _, p := range r.Poker {
		poker = append(poker, p.Kind+" "+p.Status)
	}
	if !slices.Equal(poker, []string{"buy_in done", "rebuy refused", "cash_out done", "buy_in open"}) || r.Poker[2].Paid != 4500 || r.Poker[1].Why == "" {
		t.Errorf("poker %+v", r.Poker)
	}
	// The host's settings, and the test session that moved no money.
	if len(r.ValidationSettings) != 3 || !slices.Equal(r.ValidationSettings[2].Off, []string{"printer_handpay"}) || r.ValidationSettings[2].RestrictedExpiry != 7 {
		t.Errorf("validation settings %+v", r.ValidationSettings)
	}
	if len(r.TestModes) != 1 || r.TestModes[0].Games != 1 || r.TestModes[0].Bet != 100 || r.TestModes[0].Won != 50 || r.TestModes[0].Who != "tech-1" ||
		r.TestModes[0].LeftAt == 0 || len(r.TestModes[0].MoneyMoved) != 0 {
		t.Errorf("test modes %+v", r.TestModes)
	}

	// The text says so in both languages, every section and its checks.
	for lang, words := range map[string][]string{
		"pt": {"TRANSFERÊNCIAS AFT", "AFT-JP-1", "CRÉDITO PROMOCIONAL", "TALÕES RECEBIDOS", ticketIn1, "87 recusado", "ORDENS DE EMPILHAR NOTAS", "devolvida",
			"TRANSFERÊNCIAS DE MESAS DE PÓQUER", "em aberto", "VALIDAÇÃO: CONFIGURAÇÃO DO SISTEMA", "recibo do pagamento manual", "MODO DE TESTE", hpNumber, "sim, n.º 5",
			"segura melhorada", "01 resgatado", "promocional restrito, grupo 9, válido até 2030-12-31", "saída num talão promocional", "Todas as 32 verificações conferem", "verificação: feitas das mesas (saídas) 45,00 € = transferências das mesas de póquer 45,00 € — confere"},
		"en": {"AFT TRANSFERS", "PROMOTIONAL CREDITS", "TICKETS IN", "BILL ORDERS", "POKER TABLE TRANSFERS", "THE HOST'S SETTINGS", "TEST MODE",
			"All 32 checks hold: the sections add up to the meters", "check: AFT to the machine, cashable €100.00 = SAS A0", "yes, no. 5", "secure-enhanced", "restricted promotional, pool 9, valid until 2030-12-31"},
	} {
		txt := string(r.Text(lang))
		for _, w := range words {
			if !strings.Contains(txt, w) {
				t.Errorf("%s report lacks %q", lang, w)
			}
		}
		if k := untranslated.FindString(txt); k != "" {
			t.Errorf("%s report shows the key %q untranslated", lang, k)
		}
	}
}

// A section that does not add up to its meter is named: the report's
// checks fail on a state whose meter was changed in memory (the ledger is
// honest; the meters compared are not).
func TestCheckFailsWhenASectionAndAMeterDisagree(t *testing.T) {
	b := everyPath(t)
	for _, c := range []struct {
		check string
		edit  func(*meters.State)
	}{
		{"poker_from_tables", func(s *meters.State) { s.Meters[meters.PokerFromTables]++ }},
		{"tickets_in", func(s *meters.State) { s.Meters[meters.TicketIn] -= 100 }},
		{"aft_in_cashable", func(s *meters.State) {
			s.AFT.Meters = maps.Clone(s.AFT.Meters)
			s.AFT.Meters[aft.MeterInHouseCashableIn] += 5
		}},
		{"restricted_expired", func(s *meters.State) { s.Meters[meters.RestrictedExpired] = 0 }},
		{"restricted_tickets_in", func(s *meters.State) { s.Meters[meters.RestrictedTicketIn] += 100 }},
		{"aft_debit_in", func(s *meters.State) {
			s.AFT.Meters = maps.Clone(s.AFT.Meters)
			s.AFT.Meters[aft.MeterDebitIn] -= 800
		}},
	} {
		r := readReport(t, b.dir, time.Time{}, time.Time{}, c.edit)
		if r.Checks.Hold {
			t.Errorf("%s: the checks hold on a changed meter", c.check)
		}
		for _, k := range r.Checks.Rows {
			if k.Holds == (k.Name == c.check) {
				t.Errorf("%s changed: check %s holds %v (%d against %d)", c.check, k.Name, k.Holds, k.Sum, k.Value)
			}
		}
		en := string(r.Text("en"))
		if !strings.Contains(en, "1 of 32 checks DO NOT hold") || !strings.Contains(en, "CHECK FAILS: "+rt("en", "chk_"+c.check)) {
			t.Errorf("%s: the English report does not name the failure:\n%s", c.check, en)
		}
		if pt := string(r.Text("pt")); !strings.Contains(pt, "NÃO CONFERE") {
			t.Errorf("%s: the Portuguese report does not say it", c.check)
		}
	}
	// The original, unchanged, holds (the failure is the edit's).
	if r := readReport(t, b.dir, time.Time{}, time.Time{}, nil); !r.Checks.Hold {
		t.Fatal("the honest state's checks fail")
	}
}

// A period covers only its records, and its sums are checked against what
// the meters moved in it.
func TestPeriodIsCheckedAgainstWhatTheMetersMoved(t *testing.T) {
	b := everyPath(t)
	// From the first AFT transfer to the game handpay's payment.
	var from, to time.Time
	h, err := ReadHistory(b.dir, time.Time{}, time.Time{})
	if err != nil {
		t.Fatal(err)
	}
	from = time.Unix(0, h.AFT[0].At)
	to = time.Unix(0, h.Handpays[1].PaidAt)
	r := readReport(t, b.dir, from, to, nil)
	if r.Period.Whole || r.Checks.Against != "period" || r.Period.From == "" || r.Period.To == "" {
		t.Fatalf("period %+v, checks against %q", r.Period, r.Checks.Against)
	}
	if !r.Checks.Hold {
		for _, c := range r.Checks.Rows {
			if !c.Holds {
				t.Errorf("period check %s: %d ≠ %s %d", c.Name, c.Sum, c.Meter, c.Value)
			}
		}
	}
	if len(r.AFT) != 6 || len(r.MoneyIn) != 0 || len(r.TicketsIn) != 0 || len(r.Poker) != 0 || len(r.Handpays) != 2 || len(r.TestModes) != 0 {
		t.Errorf("period rows: AFT %d, money in %d, tickets in %d, poker %d, handpays %d, test %d", len(r.AFT), len(r.MoneyIn), len(r.TicketsIn), len(r.Poker), len(r.Handpays), len(r.TestModes))
	}
	if c := checkOf(t, r, "bills"); c.Sum != 0 || c.Value != 0 {
		t.Errorf("bills in a period without notes: %+v", c)
	}
	if c := checkOf(t, r, "handpaid_total"); c.Sum != 450000 || !c.Holds {
		t.Errorf("handpaid in the period: %+v", c)
	}
	if !strings.Contains(string(r.Text("en")), "Money paths over: "+r.Period.From+" to "+r.Period.To) {
		t.Error("the text does not say the period")
	}
}

// After a RAM clear the meters start again, and so do the sums checked
// against them; a handpay asked before a period and paid in it is in it.
func TestChecksStartAgainAtARAMClear(t *testing.T) {
	b := newBook(t)
	b.commit(meters.MoneyIn{At: b.next(), Source: meters.SourceBill, Cents: 5000},
		meters.HandpayPending{At: b.next(), Kind: meters.HandpayCancelled, Cents: 5000})
	paid := b.next()
	b.commit(meters.HandpayReset{At: paid, Who: "att-1", Cents: 5000},
		meters.RAMClear{At: b.next(), Who: "tech-1", Why: "board replaced"},
		meters.MoneyIn{At: b.next(), Source: meters.SourceBill, Cents: 1000})
	r := readReport(t, b.dir, time.Time{}, time.Time{}, nil)
	if c := checkOf(t, r, "bills"); !c.Holds || c.Sum != 1000 || c.Value != 1000 {
		t.Errorf("bills after the RAM clear: %+v", c)
	}
	if len(r.MoneyIn) != 2 || !r.Checks.Hold {
		t.Errorf("money in %+v, checks hold %v", r.MoneyIn, r.Checks.Hold)
	}
	// The period from the payment: the handpay, asked before, paid in it.
	r = readReport(t, b.dir, time.Unix(0, paid), time.Time{}, nil)
	if len(r.Handpays) != 1 || r.Handpays[0].PaidBy != "att-1" || r.Handpays[0].Pending || !r.Checks.Hold {
		t.Errorf("handpays of the period %+v, checks %+v", r.Handpays, r.Checks)
	}
}

// A report over a period lists the games and events of that period, from
// the log, not the last ones the state keeps (which may be of another
// time).
func TestPeriodListsItsOwnGamesAndEvents(t *testing.T) {
	b := everyPath(t)
	whole := readReport(t, b.dir, time.Time{}, time.Time{}, nil)
	if len(whole.Games) != 2 || whole.Games[0].Game != 1 {
		t.Fatalf("whole ledger: games %+v", whole.Games)
	}
	from := time.Unix(0, whole.AFT[2].At) // after game 1
	r := readReport(t, b.dir, from, time.Time{}, nil)
	if len(r.Games) != 1 || r.Games[0].Game != 2 {
		t.Errorf("games in the period %+v, want game 2 only", r.Games)
	}
	if len(r.Events) == 0 || len(r.Events) >= len(whole.Events) {
		t.Errorf("%d events in the period, %d in all", len(r.Events), len(whole.Events))
	}
	for _, e := range r.Events {
		if time.Unix(0, e.At).Before(from) {
			t.Errorf("event %+v before the period", e)
		}
	}
}
