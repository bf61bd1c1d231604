package inspect

import (
	"fmt"
	"maps"
	"reflect"

	"github.com/openegm/cabinet/aft"
	"github.com/openegm/cabinet/meters"
	"github.com/openegm/cabinet/sas/metercode"
)

// The money paths of the report: every way money reaches or leaves the
// credit meter besides the games, one section each, gathered from the
// whole log (the state keeps only the last of some histories, and none of
// most of these), each with totals the report checks against the meters
// (checks.go).

// AFTRow is one AFT transfer: money in from the host, out to it, or a
// bonus win.
type AFTRow struct {
	At   int64  `json:"at"`
	ID   string `json:"id"` // the host's transaction ID
	Type string `json:"type"`
	// Code is the SAS transfer type ("0x00" in-house to machine, "0x80"
	// to host, "0x11" bonus jackpot …), Direction what it does to the
	// machine: "in", "out", "bonus" (a win), "other".
	Code          string `json:"code"`
	Direction     string `json:"direction"`
	Cashable      int64  `json:"cashable"`
	Restricted    int64  `json:"restricted"`
	NonRestricted int64  `json:"non_restricted"`
	Partial       bool   `json:"partial,omitempty"` // moved less than the host asked
	Pool          uint16 `json:"pool,omitempty"`
	Expiration    string `json:"restricted_expiration,omitempty"`
	// Handpay: a bonus jackpot paid by an attendant (its handpay names
	// this transfer).
	Handpay bool `json:"handpay,omitempty"`
	// Receipt is the transaction receipt: "" none asked, "due" not yet
	// printed, "printed", "reprinted" (again after a power loss).
	Receipt string `json:"receipt,omitempty"`
}

// PromoRow is a movement of promotional credits that a record names:
// transferred in or out (the AFT transfer's ID in Ref) or expired.
type PromoRow struct {
	At         int64  `json:"at"`
	Event      string `json:"event"` // "in", "out", "expired"
	Kind       string `json:"kind"`  // "restricted", "non_restricted"
	Cents      int64  `json:"cents"`
	Pool       uint16 `json:"pool,omitempty"`
	Expiration string `json:"expiration,omitempty"`
	Ref        string `json:"ref,omitempty"`
}

// PromoTotals are the period's promotional credits by kind. Played and
// cashed out come from the games and cash-outs (the fold's share of each
// bet and cash-out), Held from the credit meter at the period's end.
type PromoTotals struct {
	RestrictedIn           int64 `json:"restricted_in"`
	RestrictedPlayed       int64 `json:"restricted_played"`
	RestrictedOut          int64 `json:"restricted_out"`
	RestrictedExpired      int64 `json:"restricted_expired"`
	RestrictedHeld         int64 `json:"restricted_held"`
	NonRestrictedIn        int64 `json:"non_restricted_in"`
	NonRestrictedPlayed    int64 `json:"non_restricted_played"`
	NonRestrictedOut       int64 `json:"non_restricted_out"`
	NonRestrictedCashedOut int64 `json:"non_restricted_cashed_out"`
	NonRestrictedHeld      int64 `json:"non_restricted_held"`
}

// TicketInRow is a ticket taken in: redeemed with the amount the host
// authorised (status "00", Host), or refused by the host and given back
// (80-8B, Why). A ticket credited without the host's 0x71 (a money-in
// record of source ticket) has status "00" and Host false.
type TicketInRow struct {
	At       int64  `json:"at"`
	Ticket   string `json:"ticket"` // the validation number on its barcode
	EscrowAt int64  `json:"escrow_at,omitempty"`
	Status   string `json:"status"`
	Cents    int64  `json:"cents"`
	Why      string `json:"why,omitempty"`
	Host     bool   `json:"host_authorised"`
	// Kind is "restricted" for a restricted promotional ticket (status
	// "01"), credited as restricted credits of Pool until Expiration.
	Kind       string `json:"kind,omitempty"`
	Pool       uint16 `json:"pool,omitempty"`
	Expiration string `json:"expiration,omitempty"`
}

// BillOrderRow is an order to stack the note in escrow and how it ended.
type BillOrderRow struct {
	At      int64  `json:"at"`
	Order   uint64 `json:"order"`
	Cents   int64  `json:"cents"`
	Outcome string `json:"outcome"` // "stacked", "returned", "pending"
	EndedAt int64  `json:"ended_at,omitempty"`
	Why     string `json:"why,omitempty"`
}

// ValidationSettingRow is a setting the host made for validation: 0x7B's
// controls ("validation_control", with the controls off by name and the
// expirations), 0x4C's secure-enhanced ID ("validation_id") or 0x7C/0x7D's
// ticket data ("ticket_data").
type ValidationSettingRow struct {
	At               int64    `json:"at"`
	Record           string   `json:"record"`
	Off              []string `json:"off,omitempty"`
	CashableExpiry   uint16   `json:"cashable_expiry_days,omitempty"`
	RestrictedExpiry uint16   `json:"restricted_expiry_days,omitempty"`
	ValidationID     uint32   `json:"validation_id,omitempty"`
	Sequence         uint32   `json:"sequence,omitempty"`
	Location         string   `json:"location,omitempty"`
}

// controlNames name the 0x7B control bits in the report.
var controlNames = []struct {
	bit  uint16
	name string
}{
	{meters.CtlPrinterCashout, "printer_cashout"}, {meters.CtlPrinterHandpay, "printer_handpay"},
	{meters.CtlValidateHandpays, "validate_handpays"}, {meters.CtlTicketRedemption, "ticket_redemption"},
}

// TestModeRow is one test-mode session: who entered it and when, when and
// why it was left, its test games, and the money meters that moved
// during it (MoneyMoved, by name: none may).
type TestModeRow struct {
	EnteredAt  int64    `json:"entered_at"`
	Who        string   `json:"who"`
	Role       string   `json:"role,omitempty"`
	Credits    int64    `json:"test_credits"`
	LeftAt     int64    `json:"left_at,omitempty"` // 0: still on
	Why        string   `json:"why,omitempty"`
	Games      int64    `json:"games"`
	Bet        int64    `json:"bet"`
	Won        int64    `json:"won"`
	MoneyMoved []string `json:"money_meters_moved"`
}

// PokerRow is a transfer to or from a poker table: asked, then done,
// refused or still open. Cents is what a buy-in or re-buy asked, Paid what
// the server's done moved (a cash-out's whole stack).
type PokerRow struct {
	At           int64  `json:"at"`
	ID           string `json:"id"`
	Kind         string `json:"kind"`
	Table        string `json:"table"`
	Player       string `json:"player"`
	Cents        int64  `json:"cents,omitempty"`
	Status       string `json:"status"` // "done", "refused", "open"
	AnsweredAt   int64  `json:"answered_at,omitempty"`
	Paid         int64  `json:"paid,omitempty"`
	Why          string `json:"why,omitempty"`
	AuthorizedBy string `json:"authorized_by,omitempty"`
}

// tally is what the period's records moved, path by path: the sums the
// checks compare with the meters. A RAM clear inside the period starts it
// again, as it starts the meters again.
type tally struct {
	aftIn, aftOut aft.Amounts
	debitIn       int64 // AFT debit transfers in (cashable)
	// Restricted promotional tickets in and out (counted in the ticket
	// totals too, as the meters count them).
	restrictedTicketIn, restrictedTicketOut int64
	bonusCredits                            int64 // bonus wins paid to the credit meter
	bonusAll                                int64 // every bonus win, by hand or not
	electronicIn                            int64 // money-in records of source electronic
	electronicOut                           int64 // cash-outs of method electronic
	restrictedExpired                       int64
	bills, coins                            int64
	billsByOrder                            int64 // stacked by a bill order
	billsWithoutOrder                       int64
	ticketIn                                int64
	ticketOut, printed                      int64
	handpaid                                map[string]int64 // paid, by handpay kind
	pokerTo, pokerFrom                      int64
	testMoved                               int64 // money meters moved in test mode
}

// moneyMeters are the meters no test game may move: every amount, and
// the games' counts.
func moneyMeters() []meters.Meter {
	var ms []meters.Meter
	for i, d := range meters.Defs {
		if d.Cents || meters.Meter(i) == meters.GamesPlayed || meters.Meter(i) == meters.GamesWon || meters.Meter(i) == meters.GamesLost {
			ms = append(ms, meters.Meter(i))
		}
	}
	return ms
}

// collector gathers the money paths while ReadHistory folds the log.
type collector struct {
	h  *History
	in func(int64) bool
	// started: a record of the period was seen, so the base is taken.
	started bool
	aft     map[string]int // transfer ID -> index in h.AFT
	hp      int            // index in h.Handpays of the open handpay, -1 none
	hpIn    bool           // the open handpay's row is in the report
	cashOut map[string]meters.CashOut
	escrow  *meters.TicketEscrow
	order   map[uint64]int // bill order -> index in h.BillOrders
	poker   map[string]int // transfer ID -> index in h.Poker
	test    int            // index in h.TestModes of the session on, -1 none
	testAt  meters.Values  // the meters when it was entered
}

func newCollector(h *History, in func(int64) bool) *collector {
	return &collector{h: h, in: in, aft: map[string]int{}, hp: -1, cashOut: map[string]meters.CashOut{},
		order: map[uint64]int{}, poker: map[string]int{}, test: -1}
}

// at is the time of a record: every record carries it, as At (unix ns).
func at(r meters.Record) int64 {
	v := reflect.ValueOf(r)
	if v.Kind() != reflect.Struct {
		return -1
	}
	if f := v.FieldByName("At"); f.IsValid() && f.Kind() == reflect.Int64 {
		return f.Int()
	}
	return -1
}

// record takes one record of the log: prev is the state before it, st
// after it.
func (c *collector) record(r meters.Record, prev meters.Values, prevAFT map[metercode.Code]int64, st *meters.State) {
	t := at(r)
	if t < 0 {
		return
	}
	in := c.in(t)
	if in && !c.started {
		c.started = true
		c.h.base, c.h.baseAFT = prev, maps.Clone(prevAFT)
	}
	if in {
		c.h.end, c.h.endAFT, c.h.endCredits = st.Meters, st.AFT.Meters, st.CreditsByKind()
		c.count(r, prev, st)
	}
	c.rows(r, in, st)
}

// count adds a record of the period to the tally.
func (c *collector) count(r meters.Record, prev meters.Values, st *meters.State) {
	s, p := &c.h.sum, &c.h.Promo.Totals
	p.RestrictedPlayed += st.Meters[meters.RestrictedPlayed] - prev[meters.RestrictedPlayed]
	p.NonRestrictedPlayed += st.Meters[meters.NonRestrictedPlayed] - prev[meters.NonRestrictedPlayed]
	p.NonRestrictedCashedOut += st.Meters[meters.NonRestrictedCashedOut] - prev[meters.NonRestrictedCashedOut]
	switch r := r.(type) {
	case meters.RAMClear:
		*s = tally{testMoved: s.testMoved}
		c.h.base, c.h.baseAFT = meters.Values{}, nil
		c.h.clearedInPeriod = true
	case meters.MoneyIn:
		switch r.Source {
		case meters.SourceBill:
			s.bills += r.Cents
			if r.Order != 0 {
				s.billsByOrder += r.Cents
			} else {
				s.billsWithoutOrder += r.Cents
			}
		case meters.SourceCoin:
			s.coins += r.Cents
		case meters.SourceTicket:
			s.ticketIn += r.Cents
		case meters.SourceElectronic:
			s.electronicIn += r.Cents
		}
	case meters.TicketRedeem:
		switch r.Status {
		case meters.RedeemedCashable:
			s.ticketIn += r.Cents
		case meters.RedeemedRestricted:
			// A ticket too: the total ticket-in meter counts it.
			s.ticketIn += r.Cents
			s.restrictedTicketIn += r.Cents
		}
	case meters.CashOut:
		if r.Method == meters.OutElectronic {
			s.electronicOut += r.Cents
		}
	case meters.TicketPrinted:
		s.ticketOut += r.Cents
		s.printed++
		if st.Meters[meters.RestrictedTicketOut] != prev[meters.RestrictedTicketOut] {
			s.restrictedTicketOut += r.Cents
		}
	case meters.AFTTransfer:
		tr := r.Transfer
		switch {
		case tr.Type == aft.InHouseToMachine:
			s.aftIn = add(s.aftIn, tr.Amounts)
		case tr.Type == aft.DebitToMachine:
			s.debitIn += tr.Amounts.Total()
		case tr.Type.ToHost():
			s.aftOut = add(s.aftOut, tr.Amounts)
		case tr.Type.Bonus():
			s.bonusAll += tr.Amounts.Total()
			if !tr.Handpay {
				s.bonusCredits += tr.Amounts.Total()
			}
		}
	case meters.PromoExpired:
		s.restrictedExpired += r.Cents
	case meters.HandpayReset, meters.HandpayValidated:
		// The lockout's kind is the one just paid: the last handpay of
		// the history, whose reset this is.
		if n := len(st.Handpays); n > 0 {
			hp := st.Handpays[n-1]
			if s.handpaid == nil {
				s.handpaid = map[string]int64{}
			}
			s.handpaid[hp.Pending.Kind] += hp.Pending.Cents
		}
	case meters.PokerDone:
		// A buy-in or re-buy done moves the meter to the tables (by a
		// positive amount); a cash-out the one from them, by what it paid.
		if st.Meters[meters.PokerToTables] != prev[meters.PokerToTables] {
			s.pokerTo += r.Cents
		} else {
			s.pokerFrom += r.Cents
		}
	}
}

func add(a, b aft.Amounts) aft.Amounts {
	return aft.Amounts{Cashable: a.Cashable + b.Cashable, Restricted: a.Restricted + b.Restricted, NonRestricted: a.NonRestricted + b.NonRestricted}
}

// rows adds a record's rows to the sections: a row of the period, or the
// end of one whose start was in it (an answer, a payment) or that the
// period sees end (a handpay paid in it, asked before).
func (c *collector) rows(r meters.Record, in bool, st *meters.State) {
	h := c.h
	switch r := r.(type) {
	case meters.MoneyIn:
		if in {
			h.MoneyIn = append(h.MoneyIn, r)
			if r.Source == meters.SourceTicket {
				h.TicketsIn = append(h.TicketsIn, TicketInRow{At: r.At, Ticket: r.Ref, Status: "00", Cents: r.Cents})
			}
		}
		if i, ok := c.order[r.Order]; ok && r.Source == meters.SourceBill && r.Order != 0 {
			h.BillOrders[i].Outcome, h.BillOrders[i].EndedAt = "stacked", r.At
		}
	case meters.BillEscrow:
		if in {
			c.order[r.Ref] = len(h.BillOrders)
			h.BillOrders = append(h.BillOrders, BillOrderRow{At: r.At, Order: r.Ref, Cents: r.Cents, Outcome: "pending"})
		}
	case meters.BillReturned:
		if i, ok := c.order[r.Ref]; ok {
			h.BillOrders[i].Outcome, h.BillOrders[i].EndedAt, h.BillOrders[i].Why = "returned", r.At, r.Why
		}
	case meters.TicketEscrow:
		e := r
		c.escrow = &e
	case meters.TicketRedeem:
		if in {
			row := TicketInRow{At: r.At, Ticket: r.Digits, Status: fmt.Sprintf("%02X", r.Status), Cents: r.Cents, Why: r.Why,
				Host: r.Status == meters.RedeemedCashable || r.Status == meters.RedeemedRestricted}
			if r.Status == meters.RedeemedRestricted {
				row.Kind, row.Pool, row.Expiration = meters.KindRestricted, r.Pool, expiry(r.Expiration)
				h.Promo.Rows = append(h.Promo.Rows, PromoRow{At: r.At, Event: "ticket_in", Kind: "restricted", Cents: r.Cents,
					Pool: r.Pool, Expiration: row.Expiration, Ref: r.Digits})
			}
			if c.escrow != nil && c.escrow.Digits == r.Digits {
				row.EscrowAt = c.escrow.At
			}
			h.TicketsIn = append(h.TicketsIn, row)
			if r.Status == 0 {
				h.MoneyIn = append(h.MoneyIn, meters.MoneyIn{At: r.At, Source: meters.SourceTicket, Cents: r.Cents, Ref: r.Digits})
			}
		}
		c.escrow = nil
	case meters.CashOut:
		if r.Method == meters.OutTicket {
			c.cashOut[r.Ticket] = r
		}
	case meters.TicketPrinted:
		if in {
			row := c.ticketRow(TicketRow{At: r.At, Ticket: r.Ticket, Cents: r.Cents, Reprint: r.Reprint})
			h.Tickets = append(h.Tickets, row)
			if row.Kind == meters.KindRestricted && !r.Reprint {
				h.Promo.Rows = append(h.Promo.Rows, PromoRow{At: r.At, Event: "ticket_out", Kind: "restricted", Cents: r.Cents,
					Pool: row.Pool, Expiration: row.Expiration, Ref: r.Ticket})
			}
		}
		delete(c.cashOut, r.Ticket)
	case meters.TicketVoid:
		if in {
			h.Tickets = append(h.Tickets, c.ticketRow(TicketRow{At: r.At, Ticket: r.Ticket, Cents: r.Cents, Void: r.Why}))
		}
		delete(c.cashOut, r.Ticket)
	case meters.HandpayPending:
		c.hp, c.hpIn = -1, in
		if in {
			c.hp = len(h.Handpays)
			h.Handpays = append(h.Handpays, HandpayRow{At: r.At, Kind: r.Kind, Cents: r.Cents, Game: r.Game, Ref: r.Ref, Pending: true})
		}
	case meters.HandpayReset:
		c.paid(r.At, r.Who, in, st, nil)
	case meters.HandpayValidated:
		c.paid(r.At, r.Who, in, st, &r)
	case meters.AFTTransfer:
		if in {
			c.aftRow(r)
		}
	case meters.AFTReceipt:
		if i, ok := c.aft[r.Receipt.ID]; ok {
			h.AFT[i].Receipt = "printed"
			if r.Reprint {
				h.AFT[i].Receipt = "reprinted"
			}
		}
	case meters.PromoExpired:
		if in {
			h.Promo.Rows = append(h.Promo.Rows, PromoRow{At: r.At, Event: "expired", Kind: "restricted", Cents: r.Cents, Pool: r.Pool, Expiration: expiry(r.Expiration)})
			h.Promo.Totals.RestrictedExpired += r.Cents
		}
	case meters.ValidationControl:
		if in {
			row := ValidationSettingRow{At: r.At, Record: "validation_control", CashableExpiry: r.CashableExpiry, RestrictedExpiry: r.RestrictedExpiry}
			for _, n := range controlNames {
				if r.Off&n.bit != 0 {
					row.Off = append(row.Off, n.name)
				}
			}
			h.ValidationSettings = append(h.ValidationSettings, row)
		}
	case meters.ValidationConfig:
		if in {
			h.ValidationSettings = append(h.ValidationSettings, ValidationSettingRow{At: r.At, Record: "validation_id", ValidationID: r.ID, Sequence: r.Seq})
		}
	case meters.TicketData:
		if in {
			h.ValidationSettings = append(h.ValidationSettings, ValidationSettingRow{At: r.At, Record: "ticket_data", CashableExpiry: r.ExpiryDays, Location: r.Location})
		}
	case meters.TestMode, meters.TestGame:
		c.testRow(r, in, st)
	case meters.PokerTransfer:
		if in {
			c.poker[r.ID] = len(h.Poker)
			h.Poker = append(h.Poker, PokerRow{At: r.At, ID: r.ID, Kind: r.Kind, Table: r.Table, Player: r.Player, Cents: r.Cents,
				Status: "open", AuthorizedBy: r.AuthorizedBy})
		}
	case meters.PokerDone:
		if i, ok := c.poker[r.ID]; ok {
			h.Poker[i].Status, h.Poker[i].AnsweredAt, h.Poker[i].Paid = "done", r.At, r.Cents
		}
		delete(c.poker, r.ID)
	case meters.PokerRefused:
		if i, ok := c.poker[r.ID]; ok {
			h.Poker[i].Status, h.Poker[i].AnsweredAt, h.Poker[i].Why = "refused", r.At, r.Why
		}
		delete(c.poker, r.ID)
	}
}

// ticketRow is a printed or voided ticket with what its cash-out said:
// the validation's style, the ticket number printed on it, its expiry.
func (c *collector) ticketRow(row TicketRow) TicketRow {
	if co, ok := c.cashOut[row.Ticket]; ok {
		row.Style, row.TicketNo, row.ExpiryDays = co.Style, co.TicketNo, co.ExpiryDays
		if co.Kind == meters.KindRestricted {
			row.Kind, row.Pool, row.Expiration = co.Kind, co.Pool, expiry(co.Expiration)
		}
	}
	return row
}

// paid ends the open handpay: its row, and one for a handpay asked before
// the period and paid in it.
func (c *collector) paid(at int64, who string, in bool, st *meters.State, v *meters.HandpayValidated) {
	h := c.h
	if c.hp < 0 && in {
		if n := len(st.Handpays); n > 0 {
			p := st.Handpays[n-1].Pending
			c.hp = len(h.Handpays)
			h.Handpays = append(h.Handpays, HandpayRow{At: p.At, Kind: p.Kind, Cents: p.Cents, Game: p.Game, Ref: p.Ref})
		}
	}
	if c.hp >= 0 {
		row := &h.Handpays[c.hp]
		row.PaidAt, row.PaidBy, row.Pending = at, who, false
		if v != nil {
			row.Validation, row.Receipt, row.ReceiptNo = v.Ticket, v.Receipt, v.TicketNo
		}
	}
	c.hp = -1
}

// direction is what an AFT transfer does to the machine: "in", "out",
// "bonus" (a win) or "other".
func direction(t aft.Transfer) string {
	switch {
	case t.Type == aft.InHouseToMachine, t.Type == aft.DebitToMachine:
		return "in"
	case t.Type.ToHost():
		return "out"
	case t.Type.Bonus():
		return "bonus"
	}
	return "other"
}

func (c *collector) aftRow(r meters.AFTTransfer) {
	t := r.Transfer
	row := AFTRow{At: r.At, ID: t.ID, Type: t.Type.String(), Code: fmt.Sprintf("0x%02X", byte(t.Type)), Direction: direction(t),
		Cashable: t.Amounts.Cashable, Restricted: t.Amounts.Restricted, NonRestricted: t.Amounts.NonRestricted,
		Partial: t.Amounts != t.Requested, Handpay: t.Handpay}
	if t.Amounts.Restricted > 0 && row.Direction == "in" {
		row.Pool, row.Expiration = t.PoolID, expiry(t.RestrictedExpiration)
	}
	if t.ReceiptStatus == aft.ReceiptPending {
		row.Receipt = "due"
	}
	c.aft[t.ID] = len(c.h.AFT)
	c.h.AFT = append(c.h.AFT, row)
	if row.Direction != "in" && row.Direction != "out" {
		return
	}
	p := &c.h.Promo
	for _, k := range []struct {
		kind  string
		cents int64
		total *int64
	}{
		{"restricted", t.Amounts.Restricted, map[string]*int64{"in": &p.Totals.RestrictedIn, "out": &p.Totals.RestrictedOut}[row.Direction]},
		{"non_restricted", t.Amounts.NonRestricted, map[string]*int64{"in": &p.Totals.NonRestrictedIn, "out": &p.Totals.NonRestrictedOut}[row.Direction]},
	} {
		if k.cents == 0 {
			continue
		}
		pr := PromoRow{At: r.At, Event: row.Direction, Kind: k.kind, Cents: k.cents, Ref: t.ID}
		if k.kind == "restricted" {
			pr.Pool, pr.Expiration = row.Pool, row.Expiration
		}
		p.Rows = append(p.Rows, pr)
		*k.total += k.cents
	}
}

// testRow follows a test-mode session: entered, its games, left, and the
// money meters at each end compared.
func (c *collector) testRow(r meters.Record, in bool, st *meters.State) {
	h := c.h
	switch r := r.(type) {
	case meters.TestMode:
		if r.Enter {
			c.test, c.testAt = -1, st.Meters
			if in {
				c.test = len(h.TestModes)
				h.TestModes = append(h.TestModes, TestModeRow{EnteredAt: r.At, Who: r.Who, Role: r.Role, Credits: r.Credits, MoneyMoved: []string{}})
			}
			return
		}
		if c.test >= 0 {
			row := &h.TestModes[c.test]
			row.LeftAt, row.Why = r.At, r.Why
			c.compareTest(row, st)
		}
		c.test = -1
	case meters.TestGame:
		if c.test >= 0 {
			row := &h.TestModes[c.test]
			row.Games++
			row.Bet += r.BetCents
			row.Won += r.WinCents
		}
	}
}

// compareTest names the money meters a session moved.
func (c *collector) compareTest(row *TestModeRow, st *meters.State) {
	row.MoneyMoved = []string{}
	for _, m := range moneyMeters() {
		if st.Meters[m] != c.testAt[m] {
			row.MoneyMoved = append(row.MoneyMoved, meters.Defs[m].Name)
		}
	}
	c.h.sum.testMoved += int64(len(row.MoneyMoved))
}

// finish closes what the log leaves open at the end: the session still
// on, the ticket not yet printed, the held promotional credits.
func (c *collector) finish(st *meters.State) {
	h := c.h
	if c.test >= 0 {
		c.compareTest(&h.TestModes[c.test], st)
	}
	if p := st.PendingTicket; p != nil && c.in(p.At) {
		h.Tickets = append(h.Tickets, TicketRow{At: p.At, Ticket: p.Ticket, Cents: p.Cents, Style: p.Style, TicketNo: p.TicketNo,
			ExpiryDays: p.ExpiryDays, Pending: true})
	}
	if !c.started {
		h.end, h.endAFT, h.endCredits = st.Meters, st.AFT.Meters, st.CreditsByKind()
		h.base, h.baseAFT = st.Meters, st.AFT.Meters
	}
	h.Promo.Totals.RestrictedHeld, h.Promo.Totals.NonRestrictedHeld = h.endCredits.Restricted, h.endCredits.NonRestricted
}

// expiry is an expiration as the report writes it: a date as YYYY-MM-DD
// (SAS's MMDDYYYY read either way by an inspector would be a trap), a
// number of days as "N d", none as "".
func expiry(e aft.Expiration) string {
	if e == 0 {
		return ""
	}
	if d, ok := e.Date(); ok {
		return d.Format("2006-01-02")
	}
	if e.Days() {
		return fmt.Sprintf("%d d", uint32(e))
	}
	return e.String() // not a date: as SAS sent it
}
