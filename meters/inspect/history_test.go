package inspect

import (
	"testing"
	"time"

	"github.com/openegm/cabinet/meters"
)

// The report's handpays and money in come from the whole log: the state
// keeps only the last handpays (meters.HistoryHandpays) and only the
// notes, so a report built from it lost the older handpays, and every
// ticket and transfer credited, which an inspector settling a dispute
// (rule 14) needs.
func TestHandpaysAndMoneyInFromTheWholeLog(t *testing.T) {
	b := newBook(t)
	n := 2*meters.HistoryHandpays + 10
	for range n {
		b.commit(meters.MoneyIn{At: b.next(), Source: meters.SourceBill, Cents: 500},
			meters.HandpayPending{At: b.next(), Kind: meters.HandpayCancelled, Cents: 500},
			meters.HandpayReset{At: b.next(), Who: "att-1", Cents: 500})
	}
	b.commit(meters.MoneyIn{At: b.next(), Source: meters.SourceTicket, Cents: 700, Ref: "T-9"},
		meters.MoneyIn{At: b.next(), Source: meters.SourceElectronic, Cents: 300, Ref: "EFT-9"})
	dir := b.dir
	st, err := ReadState(dir)
	if err != nil {
		t.Fatal(err)
	}
	h, err := ReadHistory(dir, zeroTime, zeroTime)
	if err != nil {
		t.Fatal(err)
	}
	r := BuildReport(st, Verdict{}, h, Issuer{})
	if len(r.Handpays) != n || r.Handpays[0].PaidBy != "att-1" {
		t.Errorf("%d handpays in the report, %d in the log", len(r.Handpays), n)
	}
	if len(r.MoneyIn) != n+2 || r.MoneyIn[n].Source != meters.SourceTicket || r.MoneyIn[n+1].Ref != "EFT-9" {
		t.Errorf("%d money in rows, %d in the log", len(r.MoneyIn), n+2)
	}
}

var zeroTime time.Time
