package sas

import (
	"bytes"
	"testing"

	"github.com/openegm/cabinet/sas/metercode"
)

// meterMap is a MeterSource from a map.
type meterMap map[MeterCode]uint64

func (m meterMap) Meter(code uint16) (uint64, bool) {
	v, ok := m[MeterCode(code)]
	return v, ok
}

// gameMeters adds game 1 to a meterMap.
type gameMeters struct {
	meterMap
	game1 meterMap
}

func (g gameMeters) ForGame(n uint16) (MeterSource, bool) {
	if n == 1 {
		return g.game1, true
	}
	return nil, false
}

func fullMeters() meterMap {
	m := meterMap{}
	for c := MeterCode(0); c <= bill(1_000_000); c++ {
		m[c] = uint64(c) + 1
	}
	m[metercode.SlotDoorOpenings] = 3
	m[metercode.PowerResets] = 4
	return m
}

func meterFrame(t *testing.T, addr byte, poll []byte, src MeterSource) []byte {
	t.Helper()
	f, err := ParseFrame(poll)
	if err != nil {
		t.Fatalf("poll % X: %v", poll, err)
	}
	data, ok := MeterResponse(f.Cmd, f.Data, src)
	if !ok {
		return nil
	}
	return BuildReply(addr, f.Cmd, data...)
}

// Expected frames written by hand from sas.md: addr cmd data… CRC, BCD
// most significant byte first, CRC low byte first (computed with an
// independent nibble-wise CRC-16/KERMIT, not this package).
func TestMeterRepliesByteExact(t *testing.T) {
	src := meterMap{
		metercode.CurrentCredits:           12345,
		MeterTotalCoinIn:                   1234567,
		metercode.SASCashableTicketInCents: 123456,
		metercode.GamesSincePowerReset:     12345, // rolls over to 2345 in 4 digits
		metercode.GamesSinceDoorClosure:    7,
	}
	for _, c := range []struct {
		name string
		poll []byte
		want []byte
	}{
		{"1A current credits", []byte{0x01, 0x1A},
			[]byte{0x01, 0x1A, 0x00, 0x01, 0x23, 0x45, 0xED, 0xBA}},
		// 2F for game 0000, codes 00 (coin in), 0C (current credits), 7F
		// (not kept: omitted). Length 0C = game number 2 + 2 × (1 + 4).
		{"2F two codes, one unknown", []byte{0x01, 0x2F, 0x05, 0x00, 0x00, 0x00, 0x0C, 0x7F, 0x9F, 0xCD},
			[]byte{0x01, 0x2F, 0x0C, 0x00, 0x00, 0x00, 0x01, 0x23, 0x45, 0x67, 0x0C, 0x00, 0x01, 0x23, 0x45, 0xAB, 0xA5}},
		// 6F: two-byte codes LSB first (0000, 000D, 007F not kept), a
		// size byte before each value; 0D is cents, 5 bytes.
		{"6F extended", []byte{0x01, 0x6F, 0x08, 0x00, 0x00, 0x00, 0x00, 0x0D, 0x00, 0x7F, 0x00, 0xCA, 0x82},
			[]byte{0x01, 0x6F, 0x11, 0x00, 0x00, 0x00, 0x00, 0x04, 0x01, 0x23, 0x45, 0x67, 0x0D, 0x00, 0x05, 0x00, 0x00, 0x12, 0x34, 0x56, 0x7F, 0x49}},
		// 18: two 2-byte BCD counts.
		{"18 games since power-up and door closure", []byte{0x01, 0x18},
			[]byte{0x01, 0x18, 0x23, 0x45, 0x00, 0x07, 0xA1, 0x0B}},
	} {
		if got := meterFrame(t, 1, c.poll, src); !bytes.Equal(got, c.want) {
			t.Errorf("%s:\n got % X\nwant % X", c.name, got, c.want)
		}
	}
}

// The reply sizes a public host expects (saspy sas.py reads 28 bytes for
// 0F, 8 for 10–17 and 1A, 24 for 19, 36 for 1C, 28 for 1E, 8 for 18 and 20).
func TestMeterReplySizes(t *testing.T) {
	src := fullMeters()
	for cmd, n := range map[byte]int{0x0F: 28, 0x10: 8, 0x11: 8, 0x12: 8, 0x13: 8, 0x14: 8, 0x15: 8,
		0x16: 8, 0x17: 8, 0x18: 8, 0x19: 24, 0x1A: 8, 0x1C: 36, 0x1E: 28, 0x20: 8} {
		r := meterFrame(t, 3, []byte{3, cmd}, src)
		if len(r) != n {
			t.Errorf("%02X: %d bytes, want %d", cmd, len(r), n)
		}
		if _, c, _, err := ParseReply(r); err != nil || c != cmd {
			t.Errorf("%02X: % X %v", cmd, r, err)
		}
	}
	// 0F: cancelled credits, coin in, coin out, drop, jackpot, games played.
	r := meterFrame(t, 3, []byte{3, 0x0F}, src)
	want := []byte{0, 0, 0, 0x05, 0, 0, 0, 0x01, 0, 0, 0, 0x02, 0, 0, 0, 0x37, 0, 0, 0, 0x03, 0, 0, 0, 0x06}
	if !bytes.Equal(r[2:26], want) {
		t.Errorf("0F data % X, want % X", r[2:26], want)
	}
	// 1C ends with slot door openings (3) and power resets (4).
	r = meterFrame(t, 3, []byte{3, 0x1C}, src)
	if !bytes.Equal(r[26:34], []byte{0, 0, 0, 3, 0, 0, 0, 4}) {
		t.Errorf("1C tail % X", r[26:34])
	}
}

func TestMeterBillValue(t *testing.T) {
	src := meterMap{0x42: 3, 0x44: 2, 0x4A: 1} // €5, €20, €500
	data, ok := MeterResponse(0x20, nil, src)
	if !ok || !bytes.Equal(data, []byte{0, 0, 0x05, 0x55}) { // 15 + 40 + 500
		t.Fatalf("0x20 = % X %v", data, ok)
	}
	if _, ok := MeterResponse(0x20, nil, meterMap{}); ok {
		t.Fatal("0x20 answered with no bill meters")
	}
}

func TestMeterNotKept(t *testing.T) {
	src := meterMap{MeterTotalCoinIn: 1}
	for _, cmd := range []byte{0x10, 0x0F, 0x19, 0x1C, 0x1E} {
		if _, ok := MeterResponse(cmd, nil, src); ok {
			t.Errorf("%02X answered with a meter missing", cmd)
		}
	}
	if _, ok := MeterResponse(0x11, nil, src); !ok {
		t.Error("0x11 not answered")
	}
	if _, ok := MeterResponse(0x11, nil, nil); ok {
		t.Error("nil source answered")
	}
	// All codes unknown: answered with the game number alone.
	data, ok := MeterResponse(0x2F, []byte{3, 0, 0, 0x7F}, src)
	if !ok || !bytes.Equal(data, []byte{2, 0, 0}) {
		t.Errorf("2F all unknown: % X %v", data, ok)
	}
}

func TestMeterMalformed(t *testing.T) {
	src := fullMeters()
	for name, d := range map[string][]byte{
		"empty":            nil,
		"no codes":         {2, 0, 0},
		"length mismatch":  {4, 0, 0, 1},
		"bad game BCD":     {3, 0x0A, 0x00, 1},
		"eleven codes":     {13, 0, 0, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10},
		"unknown game":     {3, 0, 2, 1},
		"odd extended len": {3, 0, 0, 1},
	} {
		cmd := byte(0x2F)
		if name == "odd extended len" {
			cmd = 0x6F
		}
		if _, ok := MeterResponse(cmd, d, src); ok {
			t.Errorf("%s: answered", name)
		}
	}
	if _, ok := MeterResponse(0x1B, nil, src); ok || IsMeterPoll(0x1B) {
		t.Error("0x1B is not a meter poll")
	}
}

func TestMeterGameN(t *testing.T) {
	src := gameMeters{meterMap: meterMap{MeterTotalCoinIn: 5}, game1: meterMap{MeterTotalCoinIn: 7}}
	d, ok := MeterResponse(0x2F, []byte{3, 0x00, 0x01, 0x00}, src)
	if !ok || !bytes.Equal(d, []byte{7, 0x00, 0x01, 0x00, 0, 0, 0, 7}) {
		t.Fatalf("game 1: % X %v", d, ok)
	}
	d, ok = MeterResponse(0x2F, []byte{3, 0x00, 0x00, 0x00}, src)
	if !ok || !bytes.Equal(d[4:], []byte{0, 0, 0, 5}) {
		t.Fatalf("game 0: % X %v", d, ok)
	}
	if _, ok := MeterResponse(0x2F, []byte{3, 0x00, 0x02, 0x00}, src); ok {
		t.Fatal("unknown game answered")
	}
}

func TestMeterExtendedWidth(t *testing.T) {
	// 6F widens a meter that needs more than its minimum digits; 2F rolls
	// it over at the minimum width.
	src := meterMap{MeterTotalCoinIn: 12345678901}
	d, ok := MeterResponse(0x6F, []byte{4, 0, 0, 0x00, 0x00}, src)
	if !ok || !bytes.Equal(d, []byte{0x0B, 0, 0, 0, 0, 6, 0x01, 0x23, 0x45, 0x67, 0x89, 0x01}) {
		t.Fatalf("6F: % X", d)
	}
	d, _ = MeterResponse(0x2F, []byte{3, 0, 0, 0x00}, src)
	if !bytes.Equal(d[4:], []byte{0x45, 0x67, 0x89, 0x01}) {
		t.Fatalf("2F: % X", d)
	}
	// Local codes are never reported to 6F.
	src[metercode.PowerResets] = 1
	d, _ = MeterResponse(0x6F, []byte{4, 0, 0, 0x02, 0xFF}, src)
	if !bytes.Equal(d, []byte{2, 0, 0}) {
		t.Fatalf("local code reported: % X", d)
	}
}

func TestMeterCodes(t *testing.T) {
	for c, size := range map[MeterCode]int{0x00: 4, 0x0C: 4, 0x0D: 5, 0x10: 5, 0x11: 4, 0x24: 4, 0x80: 5, 0x81: 4, 0xA0: 5, 0xA1: 4, 0xBC: 5} {
		if c.Size() != size {
			t.Errorf("%v size %d, want %d", c, c.Size(), size)
		}
	}
	if metercode.TotalDrop != 0x24 || metercode.CurrentCredits != 0x0C || metercode.BillValueInStacker != 0x3F || bill(20) != 0x44 {
		t.Fatal("meter codes differ from sas.md")
	}
	if metercode.TotalDrop.Name() != "total drop" || bill(100).Name() != "bills of 100 accepted" {
		t.Fatal(metercode.TotalDrop.Name(), bill(100).Name())
	}
	if v, ok := bill(1_000_000).BillFace(); !ok || v != 1000000 {
		t.Fatal("face value")
	}
	for _, cmd := range []byte{0x0F, 0x10, 0x17, 0x18, 0x19, 0x1A, 0x1C, 0x1E, 0x20, 0x2F, 0x6F, 0xAF} {
		if !IsMeterPoll(cmd) {
			t.Errorf("%02X is a meter poll", cmd)
		}
	}
}
