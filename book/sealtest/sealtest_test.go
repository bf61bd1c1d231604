package sealtest

import (
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// recorder is a testing.TB that keeps what Check reports.
type recorder struct {
	testing.TB
	errs []string
}

func (r *recorder) Helper()                      {}
func (r *recorder) Errorf(f string, args ...any) { r.errs = append(r.errs, fmt.Sprintf(f, args...)) }

type v1 struct {
	Meters [3]int64 `json:"meters"`
	Name   string   `json:"name"`
}

type v2renamed struct {
	Counts [3]int64 `json:"meters"`
	Title  string   `json:"name"`
}

type v2grown struct {
	Meters [4]int64 `json:"meters"`
	Name   string   `json:"name"`
}

type inner struct {
	A int `json:"a"`
}

type v2added struct {
	Meters [3]int64 `json:"meters"`
	Name   string   `json:"name"`
	Plain  int      `json:"plain"`
	Left   int      `json:"left,omitempty"`
	Zero   inner    `json:"zero,omitzero"` // inner's a: its parent is new
	Kept   inner    `json:"kept,omitempty"`
	Fixed  [2]int   `json:"fixed,omitempty"`
	List   []inner  `json:"list,omitempty"`
}

// What a later build may and may not do to a sealed state's encoding.
func TestCheckRefusesWhatChangesAnEarlierEncoding(t *testing.T) {
	golden := filepath.Join(t.TempDir(), "golden")
	*update = true
	Check(t, golden, Lines(reflect.TypeFor[v1]()))
	*update = false
	for _, c := range []struct {
		name string
		typ  reflect.Type
		want []string
	}{
		{"same", reflect.TypeFor[v1](), nil},
		{"type and field renamed, same JSON", reflect.TypeFor[v2renamed](), nil},
		{"array grown", reflect.TypeFor[v2grown](), []string{"gone", "not omitted at zero"}},
		{"fields added", reflect.TypeFor[v2added](), []string{"fixed-size array", "struct, which omitempty", "not omitted at zero"}},
	} {
		r := &recorder{TB: t}
		Check(r, golden, Lines(c.typ))
		if len(r.errs) != len(c.want) {
			t.Fatalf("%s: %q", c.name, r.errs)
		}
		for i, w := range c.want {
			if !strings.Contains(r.errs[i], w) {
				t.Fatalf("%s: %q, want %q", c.name, r.errs[i], w)
			}
		}
	}
	// -update-encoding does not bury a line gone.
	*update = true
	Check(&recorder{TB: t}, golden, Lines(reflect.TypeFor[v2grown]()))
	*update = false
	if b, _ := os.ReadFile(golden); !strings.Contains(string(b), `field .meters json:"meters" [3]int64`) {
		t.Fatalf("golden %s", b)
	}
}
