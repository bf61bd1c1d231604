package ledger

import (
	"encoding/json"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/openegm/cabinet/book/sealtest"
)

// A state an earlier build sealed must encode the same under this one, or
// its seals stop verifying (package sealtest).
func TestStateEncodingOnlyGrowsByOmittedFields(t *testing.T) {
	sealtest.Check(t, filepath.Join("testdata", "state-encoding.golden"), sealtest.Lines(reflect.TypeFor[stateDoc]()))
}

// The record counts end at the last type seen: a record type a later build
// adds (a count of zero in every earlier state) does not change an earlier
// state's encoding. A state that counts more types than this build knows
// is refused.
func TestRecordCountsWithoutTrailingZeros(t *testing.T) {
	s := NewState()
	enc, err := json.Marshal(s)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(enc), `"counts":[]`) {
		t.Fatalf("an empty ledger's counts: %s", enc)
	}
	s.counts[2], s.records = 5, 5
	if enc, err = json.Marshal(s); err != nil || !strings.Contains(string(enc), `"counts":[0,0,5]`) {
		t.Fatalf("counts %s, %v", enc, err)
	}
	var back State
	if err := json.Unmarshal(enc, &back); err != nil || back.counts != s.counts {
		t.Fatalf("decoded %v, %v", back.counts, err)
	}
	longer := strings.Replace(string(enc), `"counts":[0,0,5]`, `"counts":[0,0,5`+strings.Repeat(",0", len(s.counts))+`]`, 1)
	if err := json.Unmarshal([]byte(longer), &back); err == nil || !strings.Contains(err.Error(), "record types") {
		t.Fatalf("more counts than record types: %v", err)
	}
}
