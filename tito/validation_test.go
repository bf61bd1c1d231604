package tito

import (
	"errors"
	"strings"
	"testing"

	"github.com/openegm/cabinet/sas"
)

// The worked vector: validation ID 0x654321, sequence 1, the values the
// public Python reference prints as its example (validate(0x654321, 0x01)).
// Step by step:
//
//	sequence 000001 -> a0 a1 a2 = 01 00 00 (least significant first)
//	ID       654321 -> a3 a4 a5 = 21 43 65
//	b = a0, a1, a2^a0, a3^a1, a4^a0, a5^a1 = 01 00 01 21 42 65
//	CRC(01 00) = 0x19D8, CRC(01 21) = 0x2953, CRC(42 65) = 0x417D
//	bytes low first: D8 19 53 29 7D 41
//	first half  = 0x417D29 = 4291881 -> "04291881", digit sum 33, 33 mod 5 = 3,
//	              first digit 0 + 2*3 = 6 -> "64291881"
//	second half = 0x5319D8 = 5446104 -> "05446104", digit sum 24, 24 mod 5 = 4,
//	              first digit 0 + 2*4 = 8 -> "85446104"
//	number "6429188185446104", printed 00-6429-1881-8544-6104.
func TestSecureEnhancedWorkedVector(t *testing.T) {
	for _, c := range []struct {
		in   []byte
		want uint16
	}{{[]byte{0x01, 0x00}, 0x19D8}, {[]byte{0x01, 0x21}, 0x2953}, {[]byte{0x42, 0x65}, 0x417D}} {
		if got := sas.CRC(c.in); got != c.want {
			t.Fatalf("CRC(% X) = %04X, want %04X (the worked vector's steps)", c.in, got, c.want)
		}
	}
	v, err := SecureEnhanced(0x654321, 1)
	if err != nil {
		t.Fatal(err)
	}
	want := Validation{Style: StyleSecureEnhanced, Number: "6429188185446104"}
	if v != want {
		t.Fatalf("SecureEnhanced(0x654321, 1) = %+v, want %+v", v, want)
	}
	if got := v.String(); got != "00-6429-1881-8544-6104" {
		t.Errorf("printed %q", got)
	}
	if got := v.Digits(); got != "006429188185446104" {
		t.Errorf("barcode digits %q", got)
	}
	if err := v.Check(); err != nil {
		t.Errorf("check digits: %v", err)
	}
}

// For one ID, every sequence number gives its own number (the mixing and
// the two-byte CRCs are bijections), always 16 digits with good check
// digits; and the same inputs give the same number.
func TestSecureEnhancedProperties(t *testing.T) {
	const id = 0xA1B2C3
	seen := make(map[string]uint32, 1<<16)
	for seq := uint32(0); seq < 1<<16; seq++ {
		v, err := SecureEnhanced(id, seq*251) // spread over the 3 bytes
		if err != nil {
			t.Fatal(err)
		}
		if len(v.Number) != EnhancedDigits || !allDigits(v.Number) {
			t.Fatalf("seq %d: %q is not 16 digits", seq, v.Number)
		}
		if err := v.Check(); err != nil {
			t.Fatalf("seq %d: %v", seq, err)
		}
		if prev, dup := seen[v.Number]; dup {
			t.Fatalf("sequences %d and %d both give %s", prev, seq*251, v.Number)
		}
		seen[v.Number] = seq * 251
		if again, _ := SecureEnhanced(id, seq*251); again != v {
			t.Fatalf("seq %d: %v then %v", seq, v, again)
		}
	}
	other, _ := SecureEnhanced(id+1, 251)
	if mine, _ := SecureEnhanced(id, 251); other == mine {
		t.Errorf("IDs %X and %X give the same number %s", id, id+1, mine.Number)
	}
	if _, err := SecureEnhanced(1<<24, 0); !errors.Is(err, ErrValidation) {
		t.Errorf("ID of 25 bits: %v", err)
	}
	if _, err := SecureEnhanced(0, 1<<24); !errors.Is(err, ErrValidation) {
		t.Errorf("sequence of 25 bits: %v", err)
	}
}

// A misread digit is caught by the check digit of its half whenever it
// changes the half's digit sum modulo 5 (any change by 1 does).
func TestCheckDigitsCatchMisreads(t *testing.T) {
	v, _ := SecureEnhanced(0x654321, 1)
	for i := range EnhancedDigits {
		b := []byte(v.Number)
		b[i] = '0' + (b[i]-'0'+1)%10
		bad := Validation{Style: StyleSecureEnhanced, Number: string(b)}
		if bad.Check() == nil {
			t.Errorf("digit %d changed by one (%s) passes the check", i, bad.Number)
		}
		if _, err := ParseDigits("00" + bad.Number); err == nil {
			t.Errorf("ParseDigits accepted %s", bad.Number)
		}
	}
}

func TestParseDigits(t *testing.T) {
	for _, c := range []struct {
		in   string
		want Validation
	}{
		{"006429188185446104", Validation{Style: StyleSecureEnhanced, Number: "6429188185446104"}},
		{"00-6429-1881-8544-6104", Validation{Style: StyleSecureEnhanced, Number: "6429188185446104"}},
		{"07 1234 5678 9012 3456", Validation{Style: StyleSystem, SystemID: 7, Number: "1234567890123456"}},
		{"8544-6104", Validation{Style: StyleStandard, Number: "85446104"}},
	} {
		got, err := ParseDigits(c.in)
		if err != nil || got != c.want {
			t.Errorf("ParseDigits(%q) = %+v, %v; want %+v", c.in, got, err, c.want)
		}
	}
	// The ticket system parses every number it touches: no more than
	// the number's own copies.
	if n := testing.AllocsPerRun(100, func() { ParseDigits("00-6429-1881-8544-6104") }); n > 2 {
		t.Errorf("ParseDigits allocated %v times a call", n)
	}
	for _, in := range []string{"", "12345", "00642918818544610", "0064291881854461040", "0x6429188185446104", "001234567890123456"} {
		if v, err := ParseDigits(in); !errors.Is(err, ErrValidation) {
			t.Errorf("ParseDigits(%q) = %+v, %v; want ErrValidation", in, v, err)
		}
	}
}

func TestValidationStyles(t *testing.T) {
	s, err := Standard(0x654321, 1)
	if err != nil || s != (Validation{Style: StyleStandard, Number: "85446104"}) {
		t.Fatalf("Standard = %+v, %v", s, err)
	}
	if s.String() != "8544-6104" || s.Digits() != "85446104" {
		t.Errorf("standard printed %q, digits %q", s.String(), s.Digits())
	}
	sys, err := System(12, 42)
	if err != nil || sys.Digits() != "120000000000000042" || sys.String() != "12-0000-0000-0000-0042" || sys.Uint() != 42 {
		t.Fatalf("System = %+v (%s), %v", sys, sys, err)
	}
	for _, c := range []struct {
		id uint8
		n  uint64
	}{{0, 1}, {100, 1}, {1, 1e16}} {
		if _, err := System(c.id, c.n); !errors.Is(err, ErrValidation) {
			t.Errorf("System(%d, %d): %v", c.id, c.n, err)
		}
	}
	for _, v := range []Validation{
		{Style: StyleSecureEnhanced, SystemID: 3, Number: "6429188185446104"},
		{Style: StyleStandard, SystemID: 1, Number: "85446104"},
		{Style: 9, Number: "85446104"},
		{Style: StyleSystem, SystemID: 5, Number: "123"},
	} {
		if err := v.Check(); !errors.Is(err, ErrValidation) {
			t.Errorf("%+v: %v", v, err)
		}
	}
	for st := StyleStandard; st <= StyleSystem; st++ {
		b, err := st.MarshalText()
		var back Style
		if err != nil || back.UnmarshalText(b) != nil || back != st {
			t.Errorf("style %v: %s %v -> %v", st, b, err, back)
		}
	}
	if _, err := Style(0).MarshalText(); err == nil {
		t.Error("style 0 marshalled")
	}
}

// The machine's configuration: the sequence advances before each number,
// a repeated 0x4C does not take it back, an ID of 0 only reads.
func TestEnhancedSequence(t *testing.T) {
	var e Enhanced
	if _, _, err := e.Next(); !errors.Is(err, ErrNotConfigured) {
		t.Fatalf("Next unconfigured: %v", err)
	}
	e, err := e.Set(0x654321, 0)
	if err != nil || !e.Configured() {
		t.Fatal(e, err)
	}
	e, v, err := e.Next()
	if err != nil || e.Seq != 1 || v.Number != "6429188185446104" {
		t.Fatalf("first number: %+v %+v %v", e, v, err)
	}
	e, _, _ = e.Next()
	if again, _ := e.Set(0x654321, 0); again != e {
		t.Errorf("repeated 0x4C moved the sequence back: %+v -> %+v", e, again)
	}
	if read, _ := e.Set(0, 77); read != e {
		t.Errorf("0x4C with ID 0 changed the configuration: %+v", read)
	}
	if n, _ := e.Set(0x654321, 500); n.Seq != 500 {
		t.Errorf("new sequence from the host not taken: %+v", n)
	}
	if _, err := e.Set(1<<24, 0); !errors.Is(err, ErrValidation) {
		t.Errorf("25-bit ID: %v", err)
	}
	top := Enhanced{ID: 5, Seq: Max24}
	if n, _, _ := top.Next(); n.Seq != 0 {
		t.Errorf("sequence after %d is %d, want 0", Max24, n.Seq)
	}
}

func FuzzParseDigits(f *testing.F) {
	for _, s := range []string{"006429188185446104", "85446104", "07-1234-5678-9012-3456", "x"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		v, err := ParseDigits(s)
		if err != nil {
			return
		}
		if v.Check() != nil {
			t.Fatalf("%q parsed to %+v which fails its check", s, v)
		}
		back, err := ParseDigits(v.String())
		if err != nil || back != v {
			t.Fatalf("%q -> %+v -> %q -> %+v, %v", s, v, v.String(), back, err)
		}
		if strings.ReplaceAll(v.String(), "-", "") != v.Digits() {
			t.Fatalf("printed %q is not the digits %q", v.String(), v.Digits())
		}
	})
}
