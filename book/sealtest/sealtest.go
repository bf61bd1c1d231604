// Package sealtest keeps a ledger's sealed-state encoding compatible from
// build to build, for the ledgers' tests.
//
// A book's snapshot holds its state's encoding, a seal signs its digest,
// and verification refolds the log and recomputes the digest at every
// seal. A ledger sealed by an earlier build verifies under a later one only
// if the later build encodes the same state to the same bytes: so nothing
// that is in the encoding may change, and whatever is added must be left
// out of it at its zero value, which every earlier state holds.
package sealtest

import (
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"reflect"
	"slices"
	"strings"
	"testing"
)

// Lines lists what t's JSON encoding is made of: every field reachable
// from t, by its path in the encoding (JSON names; [] for the elements of
// a slice or array, {} for a map's values), with its JSON options and the
// form of its value, sorted. Go type names are not in it (renaming a type
// changes no encoding), except for a type with its own MarshalJSON, a leaf
// whose form its own tests keep.
func Lines(t reflect.Type) []string {
	var out []string
	onPath := map[reflect.Type]bool{}
	var walk func(path string, t reflect.Type)
	walk = func(path string, t reflect.Type) {
		for t.Kind() == reflect.Pointer {
			t = t.Elem()
		}
		switch {
		case t.Implements(marshaler) || reflect.PointerTo(t).Implements(marshaler):
			return
		case t.Kind() == reflect.Slice || t.Kind() == reflect.Array:
			walk(path+"[]", t.Elem())
			return
		case t.Kind() == reflect.Map:
			walk(path+"{}", t.Elem())
			return
		case t.Kind() != reflect.Struct || onPath[t]:
			return
		}
		onPath[t] = true
		defer delete(onPath, t)
		for i := range t.NumField() {
			f := t.Field(i)
			tag := f.Tag.Get("json")
			name, _, _ := strings.Cut(tag, ",")
			if tag == "-" || (!f.IsExported() && !f.Anonymous) {
				continue
			}
			if f.Anonymous && name == "" {
				// Its fields are the parent's in the encoding.
				walk(path, f.Type)
				continue
			}
			if name == "" {
				name = f.Name
			}
			out = append(out, fmt.Sprintf("field %s.%s json:%q %s", path, name, tag, form(f.Type)))
			walk(path+"."+name, f.Type)
		}
	}
	walk("", t)
	slices.Sort(out)
	return out
}

// update is the ledgers' test flag that rewrites their golden files.
var update = flag.Bool("update-encoding", false, "rewrite testdata/state-encoding.golden from this build's state")

var marshaler = reflect.TypeFor[json.Marshaler]()

// form is the shape of a value in the encoding.
func form(t reflect.Type) string {
	switch {
	case t.Implements(marshaler) || reflect.PointerTo(t).Implements(marshaler):
		return "marshaler " + t.String()
	case t.Kind() == reflect.Pointer:
		return "*" + form(t.Elem())
	case t.Kind() == reflect.Slice:
		return "[]" + form(t.Elem())
	case t.Kind() == reflect.Array:
		return fmt.Sprintf("[%d]%s", t.Len(), form(t.Elem()))
	case t.Kind() == reflect.Map:
		return "map[" + t.Key().Kind().String() + "]" + form(t.Elem())
	}
	return t.Kind().String()
}

// Check compares lines (Lines, and any other "name" lines a ledger adds,
// such as its meter keys) with the golden file: every golden line must
// still be there, and every new field (in a struct that is not itself new)
// must be left out of the encoding at its zero value: omitzero, or
// omitempty on a value encoding/json omits with it (not a struct, not a
// fixed-size array). An array whose length grows, a field renamed or
// retyped, are a golden line gone. With -update-encoding the golden file is
// rewritten, when nothing in it has gone.
func Check(t testing.TB, golden string, lines []string) {
	t.Helper()
	lines = slices.Sorted(slices.Values(lines))
	write := func() {
		if err := os.WriteFile(golden, []byte(strings.Join(lines, "\n")+"\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	b, err := os.ReadFile(golden)
	if *update && os.IsNotExist(err) {
		write() // a new ledger's first list
		return
	}
	if err != nil {
		t.Fatal(err)
	}
	was := strings.Split(strings.TrimSpace(string(b)), "\n")
	if !slices.IsSorted(was) {
		t.Errorf("%s is not sorted: rewrite it with -update-encoding", golden)
	}
	gone := 0
	for _, g := range was {
		if _, found := slices.BinarySearch(lines, g); !found {
			gone++
			t.Errorf("gone from the sealed state's encoding (a ledger sealed by an earlier build would no longer verify): %s", g)
		}
	}
	paths := map[string]bool{"": true}
	for _, g := range was {
		paths[pathOf(g)] = true
	}
	for _, l := range lines {
		if _, found := slices.BinarySearch(was, l); found || !strings.HasPrefix(l, "field ") || !paths[parentOf(pathOf(l))] {
			continue
		}
		if why := notOmitted(l); why != "" {
			t.Errorf("new in the sealed state's encoding and %s (every state sealed before it would change): %s", why, l)
		}
	}
	if *update && gone == 0 {
		write()
	}
}

// pathOf is a field line's path in the encoding.
func pathOf(line string) string {
	f := strings.Fields(line)
	if len(f) < 2 || f[0] != "field" {
		return "\x00"
	}
	return f[1]
}

// parentOf is the path of the field that holds path's (the root is "").
func parentOf(path string) string {
	p := path[:max(0, strings.LastIndex(path, "."))]
	for strings.HasSuffix(p, "[]") || strings.HasSuffix(p, "{}") {
		p = p[:len(p)-2]
	}
	return p
}

// notOmitted says why a field line's value is not left out of the
// encoding at zero ("" when it is).
func notOmitted(line string) string {
	f := strings.Fields(line)
	tag, form := f[2], strings.Join(f[3:], " ")
	switch {
	case strings.Contains(tag, ",omitzero"):
		return ""
	case !strings.Contains(tag, ",omitempty"):
		return "not omitted at zero"
	case form == "struct" || strings.HasPrefix(form, "marshaler "):
		return "a struct, which omitempty does not omit (omitzero does)"
	case strings.HasPrefix(form, "[") && !strings.HasPrefix(form, "[]"):
		return "a fixed-size array, which omitempty does not omit (omitzero does)"
	}
	return ""
}
