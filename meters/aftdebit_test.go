package meters

import (
	"testing"

	"github.com/openegm/cabinet/aft"
	"github.com/openegm/cabinet/sas/metercode"
)

// debitKey is the host's registration key in the debit tests.
var debitKey = aft.Key{0xD0, 0x0D}

// registeredForDebit is a state whose host is registered with a key at
// POS 3.
func registeredForDebit(t *testing.T) *State {
	t.Helper()
	s := NewState()
	for _, r := range []Record{
		AFTRegistration{At: 1, Registration: aft.Registration{Status: aft.RegReady}},
		AFTRegistration{At: 2, Registration: aft.Registration{Status: aft.RegRegistered, Key: debitKey, POSID: 3}},
	} {
		if err := s.Apply(r); err != nil {
			t.Fatal(err)
		}
	}
	return s
}

// debitRec is a debit of cents as the AFT core decides it at POS 3.
func debitRec(s *State, id string, cents int64) AFTTransfer {
	r := aftRec(s, id, aft.DebitToMachine, cents)
	r.Transfer.POSID = 3
	return r
}

func TestAFTDebitKeepsEveryEquation(t *testing.T) {
	s := registeredForDebit(t)
	for _, r := range []Record{
		debitRec(s, "D-1", 10_000),
		MoneyIn{Source: SourceBill, Cents: 2000},
	} {
		if err := s.Apply(r); err != nil {
			t.Fatal(err)
		}
	}
	if err := s.Apply(aftRec(s, "IN-1", aft.InHouseToMachine, 500)); err != nil {
		t.Fatal(err)
	}
	if err := s.Apply(debitRec(s, "D-2", 1500)); err != nil {
		t.Fatal(err)
	}
	if err := s.Apply(aftRec(s, "OUT-1", aft.InHouseToHost, 4000)); err != nil {
		t.Fatal(err)
	}
	// The debit is cashable money in: the credits and 0x17 take it as
	// they take an in-house transfer; the out is 0x18.
	c := s.CreditsByKind()
	if c.Cashable != 10_000 || c.Restricted != 0 || c.NonRestricted != 0 || s.Get(Credits) != 10_000 ||
		s.Get(ElectronicIn) != 12_000 || s.Get(ElectronicOut) != 4000 {
		t.Fatalf("credits %+v (%d), electronic in %d out %d", c, s.Get(Credits), s.Get(ElectronicIn), s.Get(ElectronicOut))
	}
	if err := s.Check(); err != nil {
		t.Fatal(err)
	}
	for code, want := range map[metercode.Code]int64{aft.MeterDebitIn: 11_500, aft.MeterDebitInCount: 2,
		aft.MeterInHouseCashableIn: 500, aft.MeterInHouseCashableInCount: 1, metercode.ElectronicToMachine: 12_000} {
		if got, ok := s.SASMeter(code); !ok || got != want {
			t.Errorf("SAS meter %v = %d (%v), want %d", code, got, ok, want)
		}
	}
	if e, ok := s.AFT.Lookup("D-1"); !ok || e.Position != 1 || e.POSID != 3 || e.Cumulative.Cashable != 10_000 {
		t.Fatalf("history entry of D-1: %+v %v", e, ok)
	}
}

func TestAFTDebitRefusedByTheFold(t *testing.T) {
	checkRefusals(t, []foldRefusal{
		{"not registered", func(*testing.T) *State { return NewState() }, func(s *State) Record { return debitRec(s, "D", 100) },
			"no host is registered"},
		{"at another POS", registeredForDebit, func(s *State) Record {
			r := debitRec(s, "D", 100)
			r.Transfer.POSID = 4
			return r
		}, "POS ID 4, the registration's is 3"},
		{"without a POS", registeredForDebit, func(s *State) Record { return aftRec(s, "D", aft.DebitToMachine, 100) },
			"without the POS ID"},
		{"of non-restricted money", registeredForDebit, func(s *State) Record {
			r := debitRec(s, "D", 100)
			r.Transfer.Amounts.NonRestricted, r.Transfer.Requested.NonRestricted = 5, 5
			return r
		}, "a debit is cashable"},
		{"of restricted money", registeredForDebit, func(s *State) Record {
			r := debitRec(s, "D", 0)
			r.Transfer.Amounts.Restricted, r.Transfer.Requested.Restricted = 5, 5
			return r
		}, "a debit is cashable"},
		{"during a game", func(t *testing.T) *State {
			s := lawfulBase(t)
			if err := s.Apply(AFTRegistration{Registration: aft.Registration{Status: aft.RegRegistered, Key: debitKey, POSID: 3}}); err != nil {
				t.Fatal(err)
			}
			return s
		}, func(s *State) Record { return debitRec(s, "D", 100) }, "in progress"},
		{"an ID twice", func(t *testing.T) *State {
			s := registeredForDebit(t)
			if err := s.Apply(debitRec(s, "D", 100)); err != nil {
				t.Fatal(err)
			}
			return s
		}, func(s *State) Record { return debitRec(s, "D", 100) }, "committed twice"},
		{"a debit to a ticket", registeredForDebit, func(s *State) Record {
			r := debitRec(s, "D", 100)
			r.Transfer.Type = aft.DebitToTicket
			return r
		}, "debit money and bonus wins only"},
		{"an in-house transfer naming a POS", registeredForDebit, func(s *State) Record {
			r := aftRec(s, "I", aft.InHouseToMachine, 100)
			r.Transfer.POSID = 3
			return r
		}, "only a debit has one"},
	})
}
