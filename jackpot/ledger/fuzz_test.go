package ledger

import (
	"bytes"
	"encoding/json"
	"testing"
)

func sampleRecords() []Record {
	recs := setupRecords(2, 25_00*mc)
	return append(recs,
		Meters{At: 1, Machine: "M000", CoinIn: 12345, GamesPlayed: 7},
		Rebase{At: 2, Machine: "M000", CoinIn: 0, GamesPlayed: 0, Who: "tech", Why: "RAM clear"},
		Hit{At: 3, Level: "grand", Claims: []Claim{{Machine: "M000", Game: 7, Bet: 100, Claimed: 100_00}, {Machine: "M001", Game: 1, Bet: 200}}},
		Award{At: 4, Level: "mini", TargetMC: 30_00 * mc},
		Confirmed{At: 5, Machine: "M000", Level: "grand", Game: 7},
		Confirmed{At: 5, Machine: "M000", Level: "grand", Game: 7, Who: "attendant"},
		Fund{At: 6, Level: "major", AmountMC: 100 * mc, Who: "fm", Why: "seed"},
		Transfer{At: 7, From: "major", To: "grand", All: true, Close: true, Who: "fm", Why: "rule 6 <&>"},
		SuperBatch{At: 8, Level: "super", Seq: 1, Bet: 99},
		SuperApplied{At: 9, Level: "super", Seq: 1, ContributionMC: 5, Triggered: true},
		Event{At: 10, Code: EventNote, Detail: "ação"},
		SuperClaim{At: 11, Level: "super", Machine: "M000", Game: 8, Bet: 100, Claimed: 1_000_00},
		SuperClaim{At: 11, Level: "super", Machine: "M000", Game: 9, NextTargetMC: 40_00 * mc},
		SuperClaimed{At: 12, Level: "super", Machine: "M000", Game: 8, AmountMC: 1_234_56 * mc, Order: 7, Revision: 1 << 40},
		SuperClaimed{At: 12, Level: "super", Machine: "M000", Game: 9, AmountMC: 0, Order: 1, Revision: 1},
	)
}

func TestRecordRoundTrip(t *testing.T) {
	recs := sampleRecords()
	for _, r := range recs {
		data, err := Encode(r)
		if err != nil {
			t.Fatalf("%#v: %v", r, err)
		}
		got, err := Decode(r.Type(), data)
		if err != nil || len(got) != 1 {
			t.Fatalf("%s: %v", data, err)
		}
		again, _ := Encode(got[0])
		if !bytes.Equal(again, data) {
			t.Fatalf("%s decoded to %#v", data, got[0])
		}
	}
	data, err := encodeBatch(recs)
	if err != nil {
		t.Fatal(err)
	}
	got, err := Decode(TypeBatch, data)
	if err != nil || len(got) != len(recs) {
		t.Fatalf("batch: %v", err)
	}
	// Strictness: unknown and mis-cased fields, trailing data, white space,
	// bad values.
	for _, bad := range []struct {
		t    Type
		data string
	}{
		{TypeMeters, `{"at":1,"machine":"M000","coin_in":5,"games_played":0,"extra":1}`},
		{TypeMeters, `{"at":1,"Machine":"M000","coin_in":5,"games_played":0}`},
		{TypeMeters, `{"at":1,"machine":"M000","coin_in":5,"games_played":0}{}`},
		{TypeMeters, `{"at":1, "machine":"M000","coin_in":5,"games_played":0}`},
		{TypeMeters, `{"at":1,"machine":"M000","coin_in":-5,"games_played":0}`},
		{TypeMeters, `{"at":1,"machine":"M/0","coin_in":5,"games_played":0}`},
		{TypeMeters, `{"at":1,"machine":"M\u00000","coin_in":5,"games_played":0}`},
		{TypeMeters, `{"machine":"M000","at":1,"coin_in":5,"games_played":0}`},
		{TypeMeters, `{"at":1,"machine":"M000","coin_in":5,"games_played":0,"games_played":1}`},
		{TypeHit, `{"at":1,"level":"grand","claims":[]}`},
		{TypeSetupMachine, `{"at":1,"machine":"M","sas":128,"levels":["a"],"who":"t"}`},
		{TypeSetupLevel, `{"at":1,"level":"x","reset_mc":1,"rate_ppm":1,"hidden_ppm":0,"cap_mc":0,"trigger":"paytable","min_hit_bet":0,"second_hit":"split-amount","target_mc":0,"who":"t"}`},
		{TypeEvent, `{"at":1,"code":"party"}`},
		{TypeSuperClaim, `{"at":1,"level":"super","machine":"M000","game":1,"bet":-1,"claimed":0,"next_target_mc":0}`},
		{TypeSuperClaim, `{"at":1,"level":"super","machine":"M000","game":1,"bet":1,"claimed":0,"next_target_mc":1}`},
		{TypeSuperClaim, `{"at":1,"level":"super","machine":"M000","game":1,"bet":1,"claimed":0}`},
		{TypeSuperClaim, `{"at":1,"level":"super","machine":"","game":1,"bet":1,"claimed":0,"next_target_mc":0}`},
		{TypeSuperClaimed, `{"at":1,"level":"super","machine":"M000","game":1,"amount_mc":1,"order":1,"revision":1}`},
		{TypeSuperClaimed, `{"at":1,"level":"super","machine":"M000","game":1,"amount_mc":1000,"order":0,"revision":1}`},
		{TypeSuperClaimed, `{"at":1,"level":"super","machine":"M000","game":1,"amount_mc":1000,"order":1,"revision":0}`},
		{TypeSuperClaimed, `{"at":1,"level":"super","machine":"M000","game":1,"amount_mc":1000,"order":1,"revision":1,"mystery":true}`},
		{TypeSuperClaimed, `{"at":1,"level":"super","machine":"M000","game":1,"amount_mc":-1000,"order":1,"revision":1}`},
		{TypeBatch, `{"records":[]}`},
		{TypeBatch, `{"records":[{"type":100,"record":{"records":[]}}]}`},
		{Type(999), `{}`},
	} {
		if _, err := Decode(bad.t, []byte(bad.data)); err == nil {
			t.Fatalf("accepted %v %s", bad.t, bad.data)
		}
	}
}

// FuzzDecode: the decoder never panics, and whatever it accepts is the
// canonical encoding of what it returns.
func FuzzDecode(f *testing.F) {
	for _, r := range sampleRecords() {
		data, _ := Encode(r)
		f.Add(uint16(r.Type()), data)
	}
	batch, _ := encodeBatch(sampleRecords()[:5])
	f.Add(uint16(TypeBatch), batch)
	recs := sampleRecords()
	batch, _ = encodeBatch(recs[len(recs)-4:])
	f.Add(uint16(TypeBatch), batch)
	f.Add(uint16(TypeMeters), []byte(`{"at":1,"machine":"M000","coin_in":5,"games_played":0}`))
	f.Fuzz(func(t *testing.T, typ uint16, data []byte) {
		recs, err := Decode(Type(typ), data)
		if err != nil {
			return
		}
		var again []byte
		if Type(typ) == TypeBatch {
			again, err = encodeBatch(recs)
		} else {
			if len(recs) != 1 || recs[0].Type() != Type(typ) {
				t.Fatalf("%d records of type %v for type %d", len(recs), recs[0].Type(), typ)
			}
			again, err = Encode(recs[0])
		}
		if err != nil || !bytes.Equal(again, data) {
			t.Fatalf("accepted %q, which encodes as %q (%v)", data, again, err)
		}
		// A decoded record folds or is refused; it never panics the fold.
		s := NewState()
		for _, r := range sampleRecords()[:7] {
			s.Apply(r)
		}
		s.ApplyAll(recs)
		if err := s.Check(); err != nil {
			t.Fatal(err)
		}
	})
}

// FuzzStateJSON: a snapshot's state decoder never panics and accepts only
// canonical, checked states.
func FuzzStateJSON(f *testing.F) {
	s := NewState()
	for _, r := range sampleRecords()[:7] {
		s.Apply(r)
	}
	data, _ := json.Marshal(s)
	f.Add(data)
	// With superjackpot claims: one answered, one in flight.
	for _, r := range []Record{
		SuperClaim{At: 11, Level: "super", Machine: "M000", Game: 8, Bet: 100, Claimed: 1_000_00},
		SuperClaim{At: 11, Level: "super", Machine: "M000", Game: 9, NextTargetMC: 40_00 * mc},
		SuperClaimed{At: 12, Level: "super", Machine: "M000", Game: 8, AmountMC: 1_234_56 * mc, Order: 7, Revision: 99},
	} {
		if _, err := s.Apply(r); err != nil {
			f.Fatal(err)
		}
	}
	data, _ = json.Marshal(s)
	f.Add(data)
	f.Fuzz(func(t *testing.T, data []byte) {
		q := NewState()
		if q.UnmarshalJSON(data) != nil {
			return
		}
		again, err := json.Marshal(q)
		if err != nil || !bytes.Equal(again, data) {
			t.Fatalf("accepted a non-canonical state: %v", err)
		}
	})
}
