package meters

import (
	"encoding/json"
	"math"
	"reflect"
	"testing"
)

// sameDecode fails when Decode (the fast path first) and decodeJSON
// (encoding/json alone) differ on a payload: in the value or in the error.
func sameDecode(t *testing.T, typ Type, data []byte) {
	t.Helper()
	got, gerr := Decode(typ, data)
	want, werr := decodeJSON(typ, data)
	switch {
	case (gerr == nil) != (werr == nil):
		t.Fatalf("%v %s: Decode says %v, encoding/json %v", typ, data, gerr, werr)
	case gerr != nil && gerr.Error() != werr.Error():
		t.Fatalf("%v %s: Decode says %q, encoding/json %q", typ, data, gerr, werr)
	case !reflect.DeepEqual(got, want):
		t.Fatalf("%v %s: Decode gives %#v, encoding/json %#v", typ, data, got, want)
	}
}

// TestDecodeFastIsEncodingJSON holds the reflection-free decoder of the
// game records to encoding/json: on what Encode writes (which it must
// take), and on every payload one byte away from it (which it may take
// only where encoding/json gives the same).
func TestDecodeFastIsEncodingJSON(t *testing.T) {
	recs := []Record{
		GameStart{At: 1, Game: 1, Paytable: "lusitania-92", Digest: "0123456789abcdef", Denom: 1, BetCredits: 20, BetCents: 20, Stops: []int{12, 3, 44, 7, 19}, WinCents: 20},
		GameStart{At: -5, Game: math.MaxUint64, Paytable: "p q<&>", Digest: "d", Denom: math.MaxInt64, Level: -3, BetCredits: 1, BetCents: math.MinInt64, Stops: []int{0, math.MaxInt, math.MinInt}, FreeAwarded: 7,
			Progressives: []int{1, 2}, Contributions: []LevelAmount{{Level: 1, Millicents: 200}, {Level: 9, Millicents: -20}}, Mystery: []int{9}, Linked: true, Kind: GameMakccarat},
		GameStart{Game: 2, Paytable: "x", Stops: []int{}, Progressives: []int{}, Contributions: []LevelAmount{}},
		GameStart{Game: 3, Paytable: "é", Stops: nil},
		GameStart{Game: 4, Paytable: "t", Kind: GameMakccarat, Hand: &TableHand{}},
		FreeGame{At: 3, Game: 1, Index: 2, Stops: []int{1, 2, 3}, WinCents: 40, Awarded: 1, Progressives: []int{3}},
		FreeGame{Game: 1, Index: 1},
		GameEnd{At: 9, Game: 1, WinCents: 20},
		GameEnd{At: 9, Game: 1, WinCents: 20, Handpay: true},
		GameEnd{},
	}
	fast := 0
	for _, r := range recs {
		data, err := json.Marshal(r)
		if err != nil {
			t.Fatal(err)
		}
		if _, ok := decodeFast(r.Type(), data); ok {
			fast++
		}
		sameDecode(t, r.Type(), data)
		for i := range data {
			cut := append(append([]byte{}, data[:i]...), data[i+1:]...)
			sameDecode(t, r.Type(), cut)
			for _, c := range []byte(`0 1-9"\,:{}[]aenlt` + "\x00\x7f\xc3") {
				b := append([]byte{}, data...)
				b[i] = c
				sameDecode(t, r.Type(), b)
				ins := append(append(append([]byte{}, data[:i]...), c), data[i:]...)
				sameDecode(t, r.Type(), ins)
			}
		}
		sameDecode(t, r.Type(), append(data, ' '))
	}
	// Every record above but the table hand, the non-ASCII paytable and
	// the one encoding/json escapes (<&>) is read without encoding/json.
	if fast != len(recs)-3 {
		t.Fatalf("%d of %d records decoded by the fast path, want %d", fast, len(recs), len(recs)-3)
	}
}
