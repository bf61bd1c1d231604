package meters

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/openegm/cabinet/aft"
	"github.com/openegm/cabinet/sas/metercode"
)

var aftAt = time.Date(2026, 3, 5, 14, 0, 0, 0, time.UTC)

// aftRec is a completed transfer as the AFT core decides it: logged at
// the next history position of s.
func aftRec(s *State, id string, typ aft.TransferType, cents int64) AFTTransfer {
	t := aft.Transfer{ID: id, Code: aft.CodeFull, Type: typ, Status: aft.StatusFull, Asset: 7,
		Requested: aft.Amounts{Cashable: cents}, Amounts: aft.Amounts{Cashable: cents}, At: aftAt,
		ReceiptStatus: aft.ReceiptNone}
	if aft.Logged(typ, t.Amounts) {
		t.Position = s.AFT.NextPosition()
	}
	return AFTTransfer{At: aftAt.UnixNano(), Transfer: t}
}

func TestAFTTransfersMoveCreditsAndElectronicMeters(t *testing.T) {
	s := NewState()
	steps := []Record{
		AFTRegistration{At: 1, Registration: aft.Registration{Status: aft.RegReady}},
		AFTRegistration{At: 2, Registration: aft.Registration{Status: aft.RegRegistered, Key: aft.Key{1}, POSID: 3}},
	}
	for _, r := range steps {
		if err := s.Apply(r); err != nil {
			t.Fatal(err)
		}
	}
	in := aftRec(s, "IN-1", aft.InHouseToMachine, 5000)
	if err := s.Apply(in); err != nil {
		t.Fatal(err)
	}
	if err := s.Apply(MoneyIn{Source: SourceBill, Cents: 1000}); err != nil {
		t.Fatal(err)
	}
	out := aftRec(s, "OUT-1", aft.InHouseToHost, 5500)
	if err := s.Apply(out); err != nil {
		t.Fatal(err)
	}
	if s.Get(Credits) != 500 || s.Get(ElectronicIn) != 5000 || s.Get(ElectronicOut) != 5500 {
		t.Fatalf("credits %d, electronic in %d out %d", s.Get(Credits), s.Get(ElectronicIn), s.Get(ElectronicOut))
	}
	// The credit equation holds with the transfers in it.
	if err := s.Check(); err != nil {
		t.Fatal(err)
	}
	if !s.AFT.Registered() || len(s.AFT.History) != 2 || s.AFT.Current.ID != "OUT-1" {
		t.Fatalf("AFT state %+v", s.AFT)
	}
	for code, want := range map[metercode.Code]int64{metercode.ElectronicToMachine: 5000, metercode.ElectronicToHost: 5500,
		aft.MeterInHouseCashableIn: 5000, aft.MeterInHouseCashableInCount: 1, aft.MeterInHouseCashableOut: 5500, aft.MeterInHouseCashableOutCount: 1} {
		if got, ok := s.SASMeter(code); !ok || got != want {
			t.Errorf("SAS meter %v = %d (%v), want %d", code, got, ok, want)
		}
	}
	// A snapshot keeps it.
	b, _ := json.Marshal(s)
	var back State
	if err := json.Unmarshal(b, &back); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(back.AFT, s.AFT) {
		t.Fatalf("AFT state does not survive the snapshot:\n%+v\n%+v", back.AFT, s.AFT)
	}
	// A RAM clear zeroes the AFT meters and keeps which IDs ran.
	if err := s.Apply(CashOut{Method: OutHopper, Cents: 500}); err != nil {
		t.Fatal(err)
	}
	if err := s.Apply(RAMClear{Who: "tech", Why: "board"}); err != nil {
		t.Fatal(err)
	}
	if v, _ := s.SASMeter(aft.MeterInHouseCashableIn); v != 0 {
		t.Fatalf("AFT meter A0 = %d after a RAM clear", v)
	}
	if err := s.Apply(aftRec(s, "IN-1", aft.InHouseToMachine, 5000)); err == nil || !strings.Contains(err.Error(), "twice") {
		t.Fatalf("a transaction ID from before the RAM clear ran again: %v", err)
	}
}

// foldRefusal is a record the fold must refuse, on the state base makes,
// with an error that says want.
type foldRefusal struct {
	name string
	base func(t *testing.T) *State
	rec  func(s *State) Record
	want string
}

// checkRefusals applies each case's record and expects its refusal, the
// state left as it was.
func checkRefusals(t *testing.T, cases []foldRefusal) {
	t.Helper()
	for _, c := range cases {
		s := c.base(t)
		before, _ := json.Marshal(s)
		err := s.Apply(c.rec(s))
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: got %v, want %q", c.name, err, c.want)
		}
		if after, _ := json.Marshal(s); string(before) != string(after) {
			t.Errorf("%s: the refused record changed the state", c.name)
		}
	}
}

func TestAFTTransferRefusedByTheFold(t *testing.T) {
	checkRefusals(t, []foldRefusal{
		{"during a game", lawfulBase, func(s *State) Record { return aftRec(s, "A", aft.InHouseToMachine, 100) }, "in progress"},
		{"more than the credits", func(*testing.T) *State { return NewState() },
			func(s *State) Record { return aftRec(s, "A", aft.InHouseToHost, 100) }, "with 0 cents of cashable credit"},
		{"a handpay pending", func(t *testing.T) *State {
			s := NewState()
			s.Apply(MoneyIn{Source: SourceBill, Cents: 500})
			if err := s.Apply(HandpayPending{Kind: HandpayCancelled, Cents: 500}); err != nil {
				t.Fatal(err)
			}
			return s
		}, func(s *State) Record { return aftRec(s, "A", aft.InHouseToMachine, 100) }, "handpay"},
		{"an ID twice", func(t *testing.T) *State {
			s := NewState()
			if err := s.Apply(aftRec(s, "A", aft.InHouseToMachine, 100)); err != nil {
				t.Fatal(err)
			}
			return s
		}, func(s *State) Record { return aftRec(s, "A", aft.InHouseToMachine, 100) }, "committed twice"},
		{"position out of turn", func(*testing.T) *State { return NewState() }, func(s *State) Record {
			r := aftRec(s, "A", aft.InHouseToMachine, 100)
			r.Transfer.Position = 5
			return r
		}, "position 5"},
		{"a restricted bonus", func(*testing.T) *State { return NewState() }, func(s *State) Record {
			r := aftRec(s, "A", aft.BonusCoinOut, 100)
			r.Transfer.Amounts.Restricted, r.Transfer.Requested.Restricted = 5, 5
			return r
		}, "no restricted bonus"},
		{"a restricted win to the host", func(*testing.T) *State { return NewState() }, func(s *State) Record {
			r := aftRec(s, "A", aft.WinToHost, 0)
			r.Transfer.Amounts.Restricted, r.Transfer.Requested.Restricted = 5, 5
			return r
		}, "a win to the host is cashable"},
		{"a ticket", func(*testing.T) *State { return NewState() }, func(s *State) Record { return aftRec(s, "A", aft.InHouseToTicket, 100) }, "bonus wins only"},
		{"a failed status", func(*testing.T) *State { return NewState() }, func(s *State) Record {
			r := aftRec(s, "A", aft.InHouseToMachine, 100)
			r.Transfer.Status = aft.StatusUnable
			return r
		}, "not a completed transfer"},
		{"moved more than requested", func(*testing.T) *State { return NewState() }, func(s *State) Record {
			r := aftRec(s, "A", aft.InHouseToMachine, 100)
			r.Transfer.Amounts.Cashable = 101
			return r
		}, "moved 101 cashable cents of 100"},
		{"a full transfer that moved less", func(*testing.T) *State { return NewState() }, func(s *State) Record {
			r := aftRec(s, "A", aft.InHouseToMachine, 100)
			r.Transfer.Requested.NonRestricted = 7
			return r
		}, "full but moved 0 non-restricted cents of 7"},
		{"restricted expiring on no date", func(*testing.T) *State { return NewState() }, func(s *State) Record {
			r := aftRec(s, "A", aft.InHouseToMachine, 100)
			r.Transfer.Amounts.Restricted, r.Transfer.Requested.Restricted, r.Transfer.RestrictedExpiration = 5, 5, 2302027
			return r
		}, "not a date"},
		{"a bad ID", func(*testing.T) *State { return NewState() }, func(s *State) Record { return aftRec(s, "", aft.InHouseToMachine, 100) }, "transaction ID"},
		{"a registration status SAS has not", func(*testing.T) *State { return NewState() }, func(*State) Record {
			return AFTRegistration{Registration: aft.Registration{Status: 0x07}}
		}, "registration with status"},
	})
}

func TestAFTRecordsRoundTrip(t *testing.T) {
	s := NewState()
	recs := []Record{
		aftRec(s, "ID 1", aft.InHouseToMachine, 12345),
		AFTRegistration{At: 5, Registration: aft.Registration{Status: aft.RegRegistered, Key: aft.Key{0xAB, 1}, POSID: 99}},
	}
	for _, r := range recs {
		data, err := Encode(r)
		if err != nil {
			t.Fatal(err)
		}
		back, err := Decode(r.Type(), data)
		if err != nil {
			t.Fatalf("%v: %v", r.Type(), err)
		}
		if !reflect.DeepEqual(back, r) {
			t.Fatalf("%v: %+v != %+v", r.Type(), back, r)
		}
	}
	for _, bad := range []string{
		`{"at":1,"transfer":{"id":"A","extra":1}}`,
		`{"at":1,"transfer":{}} {}`,
	} {
		if _, err := Decode(TypeAFTTransfer, []byte(bad)); err == nil {
			t.Errorf("%s decoded", bad)
		}
	}
	if _, err := Decode(TypeAFTRegistration, []byte(`{"at":1,"registration":{"status":1,"key":"12","pos_id":0}}`)); err == nil {
		t.Error("a registration key of one byte decoded")
	}
}
