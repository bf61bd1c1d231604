package tableledger

import (
	"path/filepath"
	"reflect"
	"testing"

	"github.com/openegm/cabinet/book/sealtest"
)

// A state an earlier build sealed must encode the same under this one, or
// its seals stop verifying (package sealtest).
func TestStateEncodingOnlyGrowsByOmittedFields(t *testing.T) {
	sealtest.Check(t, filepath.Join("testdata", "state-encoding.golden"), sealtest.Lines(reflect.TypeFor[State]()))
}
