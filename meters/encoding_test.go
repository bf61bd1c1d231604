package meters

import (
	"encoding/hex"
	"encoding/json"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/openegm/cabinet/book"
	"github.com/openegm/cabinet/book/sealtest"
)

// A state an earlier build sealed must encode the same under this one, or
// its seals stop verifying (package sealtest). The meter keys are part of
// the encoding too: none may be renamed.
func TestStateEncodingOnlyGrowsByOmittedFields(t *testing.T) {
	lines := sealtest.Lines(reflect.TypeFor[State]())
	for _, k := range meterKeys {
		lines = append(lines, "meter "+k)
	}
	sealtest.Check(t, filepath.Join("testdata", "state-encoding.golden"), lines)
}

// The digest of the state a fixed history folds to, as this build's seals
// sign it. A change here means every ledger sealed before it fails the
// inspector's verification: an encoding change (see the test above) or a
// change of what an existing record does to the state. Either needs a
// migration plan before it ships, not a new pinned value.
func TestSealedDigestOfAFixedHistory(t *testing.T) {
	const want = "62ecef7c52e32491d8c78f45ab63efa5896250bb6a0ab1ead2580e0745f49453"
	s := NewState()
	const at = int64(1_800_000_000_000_000_000)
	for i, r := range []Record{
		Event{At: at, Code: EventPowerUp},
		Config{At: at, Who: "tech-1", Key: "denom", Value: "1", From: ConfigCommandLine},
		Service{At: at, Who: "tech-1", Role: "technician", Action: ActionLogin},
		BillEscrow{At: at, Ref: 1, Cents: 2000},
		MoneyIn{At: at, Source: SourceBill, Cents: 2000, Order: 1},
		MoneyIn{At: at, Source: SourceTicket, Cents: 1234, Ref: "T1"},
		GameStart{At: at, Game: 1, Paytable: "lusitania-92", Digest: "d", Denom: 1, BetCredits: 100, BetCents: 100, Stops: []int{1, 2, 3, 4, 5}, WinCents: 500},
		GameEnd{At: at, Game: 1, WinCents: 500},
		GameStart{At: at, Game: 2, Paytable: "lusitania-92", Digest: "d", Denom: 1, BetCredits: 200, BetCents: 200, Stops: []int{5, 4, 3, 2, 1}},
		GameEnd{At: at, Game: 2},
		CashOut{At: at, Method: OutTicket, Cents: 1000, Ticket: "1"},
		TicketPrinted{At: at, Ticket: "1", Cents: 1000},
		HandpayPending{At: at, Kind: HandpayCancelled, Cents: 2434},
		HandpayReset{At: at, Who: "att-1", Cents: 2434},
		Event{At: at, Code: EventTilt, Tilt: "door_main"},
		Event{At: at, Code: EventDoorOpen, Door: DoorMain},
		Event{At: at, Code: EventTiltClear, Tilt: "door_main"},
		Event{At: at, Code: EventDoorClose, Door: DoorMain},
		Event{At: at, Code: EventPowerDown},
	} {
		if err := s.Apply(r); err != nil {
			t.Fatalf("record %d (%v): %v", i, r.Type(), err)
		}
	}
	enc, err := fold{s}.Encode()
	if err != nil {
		t.Fatal(err)
	}
	d := book.Digest(enc)
	if got := hex.EncodeToString(d[:]); got != want {
		t.Fatalf("sealed digest %s, pinned %s; the encoding:\n%s", got, want, enc)
	}
}

// The meters' encoding: keys, zero left out, key order; an unknown key (a
// later build's meter) refused rather than dropped.
func TestMeterValuesEncoding(t *testing.T) {
	seen := map[string]bool{}
	for m, k := range meterKeys {
		if k == "" || seen[k] || strings.Trim(k, "abcdefghijklmnopqrstuvwxyz_") != "" {
			t.Fatalf("meter %d (%s): key %q empty, twice or not snake_case", m, Defs[m].Name, k)
		}
		seen[k] = true
	}
	var v Values
	v[TotalDrop], v[CoinIn], v[PokerFromTables] = 7, -3, 1
	b, err := json.Marshal(v)
	if err != nil || string(b) != `{"coin_in":-3,"poker_from_tables":1,"total_drop":7}` {
		t.Fatalf("encoded %s, %v", b, err)
	}
	zero, _ := json.Marshal(Values{})
	if string(zero) != "{}" {
		t.Fatalf("zero meters encoded %s", zero)
	}
	back := v
	if err := json.Unmarshal(zero, &back); err != nil || back != (Values{}) {
		t.Fatalf("decoded %v, %v", back, err)
	}
	if err := json.Unmarshal([]byte(`{"coin_in":-3,"poker_from_tables":1,"total_drop":7}`), &back); err != nil || back != v {
		t.Fatalf("round trip %v, %v", back, err)
	}
	if err := json.Unmarshal([]byte(`{"coin_in":1,"meter_of_tomorrow":5}`), &back); err == nil || !strings.Contains(err.Error(), "meter_of_tomorrow") {
		t.Fatalf("an unknown meter: %v", err)
	}
	// Of several unknown meters, always the first in key order (the map's
	// order would name any).
	for range 20 {
		if err := json.Unmarshal([]byte(`{"zz":1,"coin_in":1,"mm":2,"aa":3}`), &back); err == nil || !strings.Contains(err.Error(), `"aa"`) {
			t.Fatalf("unknown meters: %v, want the first, aa", err)
		}
	}
}
