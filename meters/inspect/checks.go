package inspect

import (
	"time"

	"github.com/openegm/cabinet/aft"
	"github.com/openegm/cabinet/meters"
	"github.com/openegm/cabinet/sas/metercode"
)

// Check is one statement that a section of the report adds up to the
// meters: the section's total (Sum) and the meter it must equal over the
// same period (Meter, by its ledger name or "SAS XX" for an AFT meter
// the ledger's set does not hold, and its Value). Name says what the
// section summed (the report's words name it in each language).
type Check struct {
	Section string `json:"section"`
	Name    string `json:"name"`
	Sum     int64  `json:"sum"`
	Meter   string `json:"meter"`
	Value   int64  `json:"meter_value"`
	Unit    string `json:"unit"` // "cents" or "count"
	Holds   bool   `json:"holds"`
}

// Checks are the report's checks and whether all hold.
type Checks struct {
	// Against says what the sections were compared with: "meters" (the
	// whole ledger: the meters as they are) or "period" (the meters'
	// change over the period asked, from the fold).
	Against string  `json:"against"`
	Rows    []Check `json:"rows"`
	Hold    bool    `json:"all_hold"`
}

// meterRef is a meter the checks read: one of the ledger's set, or one of
// the AFT fold's by SAS code.
type meterRef struct {
	m    meters.Meter
	code metercode.Code // the AFT fold's meter when not 0
}

func (r meterRef) name() string {
	if r.code != 0 {
		return "SAS " + sasHex(r.code) + " " + r.code.Name()
	}
	return meters.Defs[r.m].Name
}

func sasHex(c metercode.Code) string { code, _ := sasLabel(c); return code[2:] }

// figures are the meters the checks compare with.
type figures struct {
	m   meters.Values
	aft map[metercode.Code]int64
}

func (f figures) get(r meterRef) int64 {
	if r.code != 0 {
		return f.aft[r.code]
	}
	return f.m[r.m]
}

func ledger(m meters.Meter) meterRef     { return meterRef{m: m} }
func aftMeter(c metercode.Code) meterRef { return meterRef{code: c} }

// makeChecks compares each section's sums with the meters: f are the
// meters the period moved (the meters themselves for the whole ledger,
// whose first record starts from zero, as does a RAM clear's).
func makeChecks(s tally, f figures) []Check {
	var out []Check
	check := func(section, name string, sum int64, refs ...meterRef) {
		var v int64
		names := ""
		for i, r := range refs {
			v += f.get(r)
			if i > 0 {
				names += " + "
			}
			names += r.name()
		}
		unit := "cents"
		if len(refs) == 1 && refs[0].code == 0 && !meters.Defs[refs[0].m].Cents {
			unit = "count"
		}
		out = append(out, Check{Section: section, Name: name, Sum: sum, Meter: names, Value: v, Unit: unit, Holds: sum == v})
	}
	total := func(a aft.Amounts) int64 { return a.Cashable + a.Restricted + a.NonRestricted }
	check("money_in", "bills", s.bills, ledger(meters.BillsIn))
	check("money_in", "coins", s.coins, ledger(meters.CoinsIn))
	check("bill_orders", "bills_stacked", s.billsByOrder+s.billsWithoutOrder, ledger(meters.BillsIn))
	check("tickets_in", "tickets_in", s.ticketIn, ledger(meters.TicketIn))
	check("tickets_out", "tickets_printed", s.ticketOut, ledger(meters.TicketOut))
	check("tickets_out", "tickets_printed_count", s.printed, ledger(meters.TicketsOut))
	check("tickets_out", "restricted_tickets_out", s.restrictedTicketOut, ledger(meters.RestrictedTicketOut))
	check("tickets_in", "restricted_tickets_in", s.restrictedTicketIn, ledger(meters.RestrictedTicketIn))
	check("handpays", "handpaid_cancelled", s.handpaid[meters.HandpayCancelled], ledger(meters.HandpaidCancelled))
	check("handpays", "handpaid_win", s.handpaid[meters.HandpayWin], ledger(meters.AttendantPaidPaytable))
	check("handpays", "handpaid_progressive", s.handpaid[meters.HandpayProgressive], ledger(meters.AttendantPaidProgressive))
	check("handpays", "handpaid_bonus", s.handpaid[meters.HandpayBonus], ledger(meters.AttendantPaidBonus))
	var hp int64
	for _, v := range s.handpaid {
		hp += v
	}
	check("handpays", "handpaid_total", hp, ledger(meters.TotalHandPaid))
	check("aft", "aft_in_cashable", s.aftIn.Cashable, aftMeter(aft.MeterInHouseCashableIn))
	check("aft", "aft_in_restricted", s.aftIn.Restricted, aftMeter(aft.MeterInHouseRestrictedIn))
	check("aft", "aft_in_non_restricted", s.aftIn.NonRestricted, aftMeter(aft.MeterInHouseNonRestrictedIn))
	check("aft", "aft_debit_in", s.debitIn, aftMeter(aft.MeterDebitIn))
	check("aft", "electronic_in", total(s.aftIn)+s.debitIn+s.electronicIn, ledger(meters.ElectronicIn))
	check("aft", "aft_out_cashable", s.aftOut.Cashable, aftMeter(aft.MeterInHouseCashableOut))
	check("aft", "aft_out_restricted", s.aftOut.Restricted, aftMeter(aft.MeterInHouseRestrictedOut))
	check("aft", "aft_out_non_restricted", s.aftOut.NonRestricted, aftMeter(aft.MeterInHouseNonRestrictedOut))
	check("aft", "electronic_out", total(s.aftOut)+s.electronicOut, ledger(meters.ElectronicOut))
	check("aft", "aft_bonus_to_credits", s.bonusCredits, ledger(meters.MachinePaidBonus))
	check("aft", "aft_bonus", s.bonusAll, aftMeter(aft.MeterBonusCashableIn), aftMeter(aft.MeterBonusNonRestrictedIn))
	check("promo", "restricted_in", s.aftIn.Restricted, ledger(meters.RestrictedIn))
	check("promo", "non_restricted_in", s.aftIn.NonRestricted, ledger(meters.NonRestrictedIn))
	check("promo", "restricted_out", s.aftOut.Restricted, ledger(meters.RestrictedOut))
	check("promo", "non_restricted_out", s.aftOut.NonRestricted, ledger(meters.NonRestrictedOut))
	check("promo", "restricted_expired", s.restrictedExpired, ledger(meters.RestrictedExpired))
	check("poker", "poker_to_tables", s.pokerTo, ledger(meters.PokerToTables))
	check("poker", "poker_from_tables", s.pokerFrom, ledger(meters.PokerFromTables))
	out = append(out, Check{Section: "test_mode", Name: "test_money_meters", Sum: s.testMoved, Unit: "count", Holds: s.testMoved == 0})
	return out
}

// periodChecks are the period the report covers and its checks: against
// the meters of st for the whole ledger, against what the fold's meters
// moved over the period otherwise. A history not read from the log (no
// sums) has no checks.
func periodChecks(st *meters.State, h *History) (ReportPeriod, Checks) {
	p := ReportPeriod{Whole: h.From.IsZero() && h.To.IsZero()}
	if !h.From.IsZero() {
		p.From = h.From.UTC().Format(time.RFC3339)
	}
	if !h.To.IsZero() {
		p.To = h.To.UTC().Format(time.RFC3339)
	}
	if !h.read {
		return p, Checks{}
	}
	c := Checks{Against: "meters"}
	f := figures{m: st.Meters, aft: st.AFT.Meters}
	if !p.Whole {
		c.Against = "period"
		f = figures{aft: map[metercode.Code]int64{}}
		for i := range f.m {
			f.m[i] = h.end[i] - h.base[i]
		}
		for k, v := range h.endAFT {
			f.aft[k] = v - h.baseAFT[k]
		}
	}
	c.Rows = makeChecks(h.sum, f)
	c.Hold = true
	for _, r := range c.Rows {
		c.Hold = c.Hold && r.Holds
	}
	return p, c
}
