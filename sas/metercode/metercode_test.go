package metercode

import (
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// published is the public list of SAS meter codes 0x00–0x57 with the unit
// each counts in, transcribed from the Aristocrat Monaco SAS client's
// SasMeterId (its comments say "credits", "cents" or a count): an
// independent statement of the table to check it against.
var published = map[Code]Unit{
	0x00: Credits, 0x01: Credits, 0x02: Credits, 0x03: Credits, 0x04: Credits,
	0x05: Count, 0x06: Count, 0x07: Count,
	0x08: Credits, 0x09: Credits, 0x0A: Credits, 0x0B: Credits, 0x0C: Credits,
	0x0D: Cents, 0x0E: Cents, 0x0F: Cents, 0x10: Cents,
	0x11: Count, 0x12: Count, 0x13: Count, 0x14: Count,
	0x15: Credits, 0x16: Credits, 0x17: Credits, 0x18: Credits,
	0x19: Credits, 0x1A: Credits, 0x1B: Credits,
	0x1C: Credits, 0x1D: Credits, 0x1E: Credits, 0x1F: Credits, 0x20: Credits, 0x21: Credits,
	0x22: Credits, 0x23: Credits, 0x24: Credits,
	0x25: Count, 0x26: Count,
	0x3E: Count, 0x3F: Credits,
	// AFT: in-house cashable, restricted and non-restricted in (A0–A5),
	// bonus cashable and non-restricted in (AE–B1), in-house cashable,
	// restricted and non-restricted out (B8–BD): cents, then the count.
	0xA0: Cents, 0xA1: Count, 0xA2: Cents, 0xA3: Count, 0xA4: Cents, 0xA5: Count,
	0xAE: Cents, 0xAF: Count, 0xB0: Cents, 0xB1: Count,
	0xB8: Cents, 0xB9: Count, 0xBA: Cents, 0xBB: Count, 0xBC: Cents, 0xBD: Count,
	// Debit in, transfers to ticket and debit to ticket (A6–AD), not in
	// the Aristocrat list: the two open-source lists of the table's
	// comment.
	0xA6: Cents, 0xA7: Count, 0xA8: Cents, 0xA9: Count, 0xAA: Cents, 0xAB: Count, 0xAC: Cents, 0xAD: Count,
	// 0x40–0x57: number of $1, $2, $5, $10, $20, $25, $50, $100, $200,
	// $250, $500, $1,000, $2,000, $2,500, $5,000, $10,000, $20,000,
	// $25,000, $50,000, $100,000, $200,000, $250,000, $500,000 and
	// $1,000,000 bills accepted.
}

var publishedFaces = []uint64{1, 2, 5, 10, 20, 25, 50, 100, 200, 250, 500, 1000, 2000, 2500, 5000,
	10000, 20000, 25000, 50000, 100000, 200000, 250000, 500000, 1000000}

func TestTableAgreesWithThePublishedList(t *testing.T) {
	want := map[Code]Unit{}
	for c, u := range published {
		want[c] = u
	}
	for i, f := range publishedFaces {
		want[0x40+Code(i)] = Count
		if c, ok := Bill(f); !ok || c != 0x40+Code(i) {
			t.Errorf("Bill(%d) = %02X %v, want %02X", f, c, ok, 0x40+i)
		}
		if v, ok := (0x40 + Code(i)).BillFace(); !ok || v != f {
			t.Errorf("%02X counts bills of %d, want %d", 0x40+i, v, f)
		}
	}
	all := All()
	if len(all) != len(want) {
		t.Errorf("the table has %d SAS codes, the published list %d", len(all), len(want))
	}
	for i, c := range all {
		if i > 0 && all[i-1] >= c {
			t.Fatalf("All not strictly increasing at %d", i)
		}
		if u, ok := want[c]; !ok || c.Unit() != u {
			t.Errorf("%v: unit %v, published %v (listed %v)", c, c.Unit(), u, ok)
		}
		if wantSize := map[bool]int{true: 5, false: 4}[want[c] == Cents]; c.Size() != wantSize {
			t.Errorf("%v: field of %d bytes, want %d", c, c.Size(), wantSize)
		}
	}
	for _, f := range []uint64{0, 3, 15, 2_000_000} {
		if c, ok := Bill(f); ok {
			t.Errorf("Bill(%d) = %v: SAS has no such bill meter", f, c)
		}
	}
	if _, ok := Code(0x3F).BillFace(); ok {
		t.Error("0x3F is not a bill count")
	}
	if _, ok := Code(0x58).BillFace(); ok {
		t.Error("0x58 is not a bill count by face value")
	}
	if !SlotDoorOpenings.Local() || !PowerResets.Local() || TotalDrop.Local() {
		t.Error("local codes")
	}
	if n := Code(0x33).Name(); n != "meter 0x0033" || Code(0x33).Known() {
		t.Errorf("a code outside the table: %q", n)
	}
}

// The codes and names sas.md lists one by one, and its bill values.
func TestTableAgreesWithSpec(t *testing.T) {
	b, err := os.ReadFile(filepath.Join("..", "..", "..", "shared", "spec", "sas.md"))
	if err != nil {
		t.Skipf("spec/sas.md not beside the checkout: %v", err)
	}
	text := string(b)
	start := strings.Index(text, "Meter codes (for 0x2F")
	if start < 0 {
		t.Fatal("sas.md: no meter code list")
	}
	end := strings.Index(text[start:], "\n- ")
	list := strings.Join(strings.Fields(strings.ReplaceAll(text[start:start+end], "**", "")), " ")
	// From the colon after the heading to the end of the list's sentence.
	if i := strings.Index(list, "): "); i >= 0 {
		list = list[i+3:]
	}
	if i := strings.Index(list, ". "); i >= 0 {
		list = list[:i]
	}
	named, faces := 0, 0
	// Items are "0xNN name" (one code) or "0xNN 1,000" (a bill meter's face
	// value), up to the next code; ranges (0x0D–0x10, 0x17/0x18) are left
	// to the published list.
	at := regexp.MustCompile(`0x[0-9A-F]{2}`).FindAllStringIndex(list, -1)
	for i, m := range at {
		if strings.HasSuffix(list[:m[0]], "–") || strings.HasSuffix(list[:m[0]], "/") || !strings.HasPrefix(list[m[1]:], " ") {
			continue
		}
		next := len(list)
		if i+1 < len(at) {
			next = at[i+1][0]
		}
		n, _ := strconv.ParseUint(list[m[0]+2:m[1]], 16, 16)
		c, what := Code(n), strings.TrimRight(list[m[1]+1:next], " ,.")
		if num := regexp.MustCompile(`^[0-9][0-9,]*`).FindString(what); num != "" {
			face, _ := strconv.ParseUint(strings.ReplaceAll(strings.TrimSuffix(num, ","), ",", ""), 10, 64)
			if v, ok := c.BillFace(); !ok || v != face {
				t.Errorf("sas.md: %02X counts bills of %d; the table: %d %v", n, face, v, ok)
			}
			faces++
			continue
		}
		if c.Name() != what {
			t.Errorf("sas.md names %02X %q, the table %q", n, what, c.Name())
		}
		named++
	}
	if named < 15 || faces < 12 {
		t.Fatalf("read %d names and %d face values from sas.md: the list changed shape\n%s", named, faces, list)
	}
}
