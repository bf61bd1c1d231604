package meters

import (
	"testing"

	"github.com/openegm/cabinet/sas/metercode"
)

// Every ledger meter with a SAS code has a code of the one table, in the
// same kind of unit (amounts are cents, i.e. credits at 0.01), and no two
// share a code.
func TestDefsUseTheSASTable(t *testing.T) {
	seen := map[int]string{}
	for _, d := range Defs {
		if d.SAS == noSAS {
			continue
		}
		c := metercode.Code(d.SAS)
		if !c.Known() || c.Local() {
			t.Errorf("%s: code %04X is not a SAS code of the table", d.Name, d.SAS)
		}
		if amount := c.Unit() != metercode.Count; amount != d.Cents {
			t.Errorf("%s (cents %v): code %v counts %v", d.Name, d.Cents, c, c.Unit())
		}
		if other, dup := seen[d.SAS]; dup {
			t.Errorf("%s and %s share code %02X", d.Name, other, d.SAS)
		}
		seen[d.SAS] = d.Name
	}
	for m, want := range map[Meter]metercode.Code{TicketIn: 0x15, TicketOut: 0x16, BillsIn: 0x0B, CoinsIn: 0x08, HopperOut: 0x09} {
		if Defs[m].SAS != int(want) {
			t.Errorf("%s: code %02X, want %02X", Defs[m].Name, Defs[m].SAS, want)
		}
	}
}

// The euro notes by face value (issue 12: €5 was counted at 0x40, SAS's $1).
func TestBillSASCodes(t *testing.T) {
	want := map[int64]metercode.Code{500: 0x42, 1000: 0x43, 2000: 0x44, 5000: 0x46, 10000: 0x47, 20000: 0x48, 50000: 0x4A}
	if len(want) != len(BillValues) {
		t.Fatalf("notes %v", BillValues)
	}
	for _, cents := range BillValues {
		if c, ok := BillSAS(cents); !ok || c != want[cents] {
			t.Errorf("%d cents: %02X %v, want %02X", cents, c, ok, want[cents])
		}
	}
	if _, ok := BillSAS(150); ok {
		t.Error("a value that is no whole face value has a code")
	}
}

func TestSASMeter(t *testing.T) {
	s := NewState()
	s.Meters[BillsIn] = 14500
	s.Meters[MainDoorOpens] = 3
	s.BillCounts[0] = 1 // €5
	s.BillCounts[4] = 1 // €100
	for c, want := range map[metercode.Code]int64{0x0B: 14500, 0x40: 0, 0x42: 1, 0x47: 1, 0x57: 0, metercode.SlotDoorOpenings: 3} {
		if v, ok := s.SASMeter(c); !ok || v != want {
			t.Errorf("%v = %d %v, want %d", c, v, ok, want)
		}
	}
	for _, c := range []metercode.Code{0x0D, 0x11, 0x58, 0x3A} {
		if v, ok := s.SASMeter(c); ok {
			t.Errorf("%v = %d: the ledger keeps no such meter", c, v)
		}
	}
}
