package sas

import (
	"bytes"
	"errors"
	"slices"
	"testing"
)

// hexb is shorthand for byte tables.
func hexb(b ...byte) []byte { return b }

// TestProgressiveBroadcastLayouts checks 0x80 and 0x86 byte by byte against
// tables written from the Aristocrat Monaco LP80/LP86 parser documentation
// (address, command, group 01–FF, level 01–20, amount 5 BCD in cents; 0x86
// with a length 07–C1 of the bytes after it) and the 6.02 digest §10.1.
func TestProgressiveBroadcastLayouts(t *testing.T) {
	// 0x80: group 5, level 2, 123456 cents.
	cmd, data, err := ProgressiveBroadcastData(5, []LevelValue{{2, 123456}})
	if want := hexb(0x05, 0x02, 0x00, 0x00, 0x12, 0x34, 0x56); err != nil || cmd != 0x80 || !bytes.Equal(data, want) {
		t.Fatalf("80: %02X % X %v, want 80 % X", cmd, data, err, want)
	}
	frame, _ := ProgressiveBroadcastFrame(0, 5, []LevelValue{{2, 123456}})
	if !bytes.Equal(frame[:9], hexb(0x00, 0x80, 0x05, 0x02, 0x00, 0x00, 0x12, 0x34, 0x56)) || len(frame) != 11 || !CheckCRC(frame) {
		t.Fatalf("80 frame % X", frame)
	}
	if f, err := ParseFrame(frame); err != nil || !f.Global() || f.Cmd != 0x80 {
		t.Fatalf("80 frame does not parse as a global poll: %v", err)
	}

	// 0x86: group 7, level 1 = 1000.00, level 3 = 0.99, level 32 = max.
	levels := []LevelValue{{1, 100000}, {3, 99}, {32, MaxProgressiveAmount}}
	cmd, data, err = ProgressiveBroadcastData(7, levels)
	want := hexb(0x13, 0x07, // length 19 = 1 + 3×6, group
		0x01, 0x00, 0x00, 0x10, 0x00, 0x00,
		0x03, 0x00, 0x00, 0x00, 0x00, 0x99,
		0x20, 0x99, 0x99, 0x99, 0x99, 0x99)
	if err != nil || cmd != 0x86 || !bytes.Equal(data, want) {
		t.Fatalf("86: %02X % X %v\nwant 86 % X", cmd, data, err, want)
	}
	frame, _ = ProgressiveBroadcastFrame(3, 7, levels)
	if f, err := ParseFrame(frame); err != nil || f.Addr != 3 || !bytes.Equal(f.Data, want) {
		t.Fatalf("86 frame % X: %v", frame, err)
	}
	b, err := ParseProgressiveBroadcast(0x86, want)
	if err != nil || b.Group != 7 || !slices.Equal(b.Levels, levels) {
		t.Fatalf("parse 86: %+v %v", b, err)
	}
	// One level in a 0x86 (length 07, the minimum) is valid.
	one, _ := MultipleLevelBroadcastData(9, []LevelValue{{4, 1}})
	if !bytes.Equal(one, hexb(0x07, 0x09, 0x04, 0, 0, 0, 0, 0x01)) {
		t.Fatalf("86 with one level % X", one)
	}
	// 32 levels: length C1, the maximum.
	var all []LevelValue
	for l := byte(1); l <= 32; l++ {
		all = append(all, LevelValue{l, uint64(l) * 100})
	}
	full, err := MultipleLevelBroadcastData(1, all)
	if err != nil || full[0] != 0xC1 || len(full) != 0xC2 {
		t.Fatalf("86 with 32 levels: length %02X, %d bytes, %v", full[0], len(full), err)
	}
	if f, err := ParseFrame(LongPollFrame(0, 0x86, full...)); err != nil || len(f.Raw) != 5+0xC1 {
		t.Fatalf("86 of 32 levels as a frame: %v", err)
	}
}

func TestProgressiveBroadcastStrict(t *testing.T) {
	good80 := hexb(0x05, 0x02, 0x00, 0x00, 0x12, 0x34, 0x56)
	good86 := hexb(0x0D, 0x07, 0x01, 0, 0, 0, 0x10, 0, 0x02, 0, 0, 0, 0, 0x99)
	for _, c := range []struct {
		name string
		cmd  byte
		data []byte
	}{
		{"80 short", 0x80, good80[:6]},
		{"80 long", 0x80, append(slices.Clone(good80), 0)},
		{"80 group 0", 0x80, hexb(0x00, 0x02, 0, 0, 0x12, 0x34, 0x56)},
		{"80 level 0", 0x80, hexb(0x05, 0x00, 0, 0, 0x12, 0x34, 0x56)},
		{"80 level 33", 0x80, hexb(0x05, 0x21, 0, 0, 0x12, 0x34, 0x56)},
		{"80 bad BCD high nibble", 0x80, hexb(0x05, 0x02, 0, 0, 0xA2, 0x34, 0x56)},
		{"80 bad BCD low nibble", 0x80, hexb(0x05, 0x02, 0, 0, 0x12, 0x3F, 0x56)},
		{"86 empty", 0x86, nil},
		{"86 length too big", 0x86, append(hexb(0x0E), good86[1:]...)},
		{"86 length too small", 0x86, append(hexb(0x0C), good86[1:]...)},
		{"86 no pairs", 0x86, hexb(0x01, 0x07)},
		{"86 half a pair", 0x86, hexb(0x04, 0x07, 0x01, 0, 0)},
		{"86 group 0", 0x86, append(hexb(0x0D, 0x00), good86[2:]...)},
		{"86 duplicated level", 0x86, hexb(0x0D, 0x07, 0x01, 0, 0, 0, 0x10, 0, 0x01, 0, 0, 0, 0, 0x99)},
		{"86 level 0", 0x86, hexb(0x07, 0x07, 0x00, 0, 0, 0, 0, 0x01)},
		{"86 level 33", 0x86, hexb(0x07, 0x07, 0x21, 0, 0, 0, 0, 0x01)},
		{"86 bad BCD", 0x86, hexb(0x07, 0x07, 0x01, 0, 0, 0, 0, 0x1A)},
		{"not a broadcast", 0x85, good80},
	} {
		if b, err := ParseProgressiveBroadcast(c.cmd, c.data); !errors.Is(err, ErrProgressive) {
			t.Errorf("%s: accepted %+v (err %v)", c.name, b, err)
		}
	}
	// 33 level/amount pairs: length 0xC7 is over the limit even though
	// the pairs are whole.
	over := hexb(0xC7, 0x01)
	for l := byte(1); l <= 33; l++ {
		over = append(over, l%32+1, 0, 0, 0, 0, 1)
	}
	if _, err := ParseProgressiveBroadcast(0x86, over); !errors.Is(err, ErrProgressive) {
		t.Errorf("33 pairs accepted: %v", err)
	}
	// The builders refuse what the parser refuses.
	for _, c := range []struct {
		name   string
		group  byte
		levels []LevelValue
	}{
		{"no level", 1, nil},
		{"group 0", 0, []LevelValue{{1, 1}}},
		{"group 0 multi", 0, []LevelValue{{1, 1}, {2, 2}}},
		{"level 0", 1, []LevelValue{{0, 1}}},
		{"level 33", 1, []LevelValue{{1, 1}, {33, 1}}},
		{"amount of 11 digits", 1, []LevelValue{{1, MaxProgressiveAmount + 1}}},
		{"duplicate", 1, []LevelValue{{2, 1}, {2, 2}}},
		{"33 levels", 1, make([]LevelValue, 33)},
	} {
		if _, _, err := ProgressiveBroadcastData(c.group, c.levels); !errors.Is(err, ErrProgressive) {
			t.Errorf("build %s: %v", c.name, err)
		}
	}
}

// TestProgressiveWinLayouts: replies to 0x84/0x85 (group, level, amount 5
// BCD: Aristocrat LP84 and LP85), 0x87 (length 02–C2, group, number of
// levels 00–20, level and amount 5 BCD each: Aristocrat LP87) and 0x83
// (game number 2 BCD, cumulative meter 4 BCD: Aristocrat LP83).
func TestProgressiveWinLayouts(t *testing.T) {
	w := ProgressiveWin{Group: 0x05, Level: 0x02, Amount: 123456}
	data, err := ProgressiveWinData(w)
	if want := hexb(0x05, 0x02, 0x00, 0x00, 0x12, 0x34, 0x56); err != nil || !bytes.Equal(data, want) {
		t.Fatalf("85: % X %v, want % X", data, err, want)
	}
	if got, err := DecodeProgressiveWin(data); err != nil || got != w {
		t.Fatalf("85 decode %+v %v", got, err)
	}
	// No win: all zeros (Aristocrat LP85 handler's default).
	if data, err := ProgressiveWinData(ProgressiveWin{}); err != nil || !bytes.Equal(data, make([]byte, 7)) {
		t.Fatalf("85 none: % X %v", data, err)
	}
	if got, err := DecodeProgressiveWin(make([]byte, 7)); err != nil || !got.None() {
		t.Fatalf("85 none decode %+v %v", got, err)
	}
	for name, bad := range map[string][]byte{
		"short":            make([]byte, 6),
		"long":             make([]byte, 8),
		"level 0 + amount": hexb(0, 0, 0, 0, 0, 0, 1),
		"level 0 + group":  hexb(1, 0, 0, 0, 0, 0, 0),
		"level 33":         hexb(1, 0x21, 0, 0, 0, 0, 1),
		"bad BCD":          hexb(1, 1, 0, 0, 0, 0, 0x0B),
	} {
		if _, err := DecodeProgressiveWin(bad); !errors.Is(err, ErrProgressive) {
			t.Errorf("85 decode %s: %v", name, err)
		}
	}
	if _, err := ProgressiveWinData(ProgressiveWin{Group: 1, Level: 33, Amount: 1}); err == nil {
		t.Error("85 level 33 built")
	}
	if _, err := ProgressiveWinData(ProgressiveWin{Group: 1, Level: 1, Amount: MaxProgressiveAmount + 1}); err == nil {
		t.Error("85 amount of 11 digits built")
	}

	// 0x87 with two wins, the same level twice (hit twice).
	ws := ProgressiveWins{Group: 0x05, Wins: []LevelValue{{1, 5000}, {1, 7}}}
	data, err = MultipleProgressiveWinsData(ws)
	want := hexb(0x0E, 0x05, 0x02,
		0x01, 0x00, 0x00, 0x00, 0x50, 0x00,
		0x01, 0x00, 0x00, 0x00, 0x00, 0x07)
	if err != nil || !bytes.Equal(data, want) {
		t.Fatalf("87: % X %v\nwant % X", data, err, want)
	}
	if got, err := DecodeMultipleProgressiveWins(data); err != nil || got.Group != 5 || !slices.Equal(got.Wins, ws.Wins) {
		t.Fatalf("87 decode %+v %v", got, err)
	}
	// Empty queue: length 02, group, count 00.
	if data, _ := MultipleProgressiveWinsData(ProgressiveWins{Group: 9}); !bytes.Equal(data, hexb(0x02, 0x09, 0x00)) {
		t.Fatalf("87 empty % X", data)
	}
	// 32 wins: length C2, the maximum.
	var many []LevelValue
	for i := range 32 {
		many = append(many, LevelValue{byte(i%4 + 1), uint64(i)})
	}
	if data, err := MultipleProgressiveWinsData(ProgressiveWins{Group: 1, Wins: many}); err != nil || data[0] != 0xC2 || data[2] != 32 {
		t.Fatalf("87 of 32: % X %v", data[:3], err)
	}
	if _, err := MultipleProgressiveWinsData(ProgressiveWins{Group: 1, Wins: append(many, LevelValue{1, 1})}); err == nil {
		t.Error("87 of 33 built")
	}
	for name, bad := range map[string][]byte{
		"short":          hexb(0x01, 0x05),
		"length byte":    hexb(0x03, 0x05, 0x00),
		"count too high": append(hexb(0x08, 0x05, 0x02), 1, 0, 0, 0, 0, 1),
		"count too low":  append(hexb(0x08, 0x05, 0x00), 1, 0, 0, 0, 0, 1),
		"count 33":       hexb(0x02, 0x05, 0x21),
		"level 0":        append(hexb(0x08, 0x05, 0x01), 0, 0, 0, 0, 0, 1),
		"bad BCD":        append(hexb(0x08, 0x05, 0x01), 1, 0, 0, 0, 0, 0xF0),
	} {
		if _, err := DecodeMultipleProgressiveWins(bad); !errors.Is(err, ErrProgressive) {
			t.Errorf("87 decode %s: %v", name, err)
		}
	}

	// 0x83: game 0 (the machine), 12345 cents; the meter rolls over at 8
	// digits.
	data, err = CumulativeProgressiveWinsData(0, 12345)
	if want := hexb(0x00, 0x00, 0x00, 0x01, 0x23, 0x45); err != nil || !bytes.Equal(data, want) {
		t.Fatalf("83: % X %v, want % X", data, err, want)
	}
	if data, _ := CumulativeProgressiveWinsData(12, 123456789); !bytes.Equal(data, hexb(0x00, 0x12, 0x23, 0x45, 0x67, 0x89)) {
		t.Fatalf("83 rollover % X", data)
	}
	if g, v, err := DecodeCumulativeProgressiveWins(hexb(0x00, 0x12, 0x23, 0x45, 0x67, 0x89)); err != nil || g != 12 || v != 23456789 {
		t.Fatalf("83 decode %d %d %v", g, v, err)
	}
	if _, err := CumulativeProgressiveWinsData(10000, 1); err == nil {
		t.Error("83 game 10000 built")
	}
	for _, bad := range [][]byte{make([]byte, 5), make([]byte, 7), hexb(0x0A, 0, 0, 0, 0, 0), hexb(0, 0, 0, 0, 0, 0xC0)} {
		if _, _, err := DecodeCumulativeProgressiveWins(bad); !errors.Is(err, ErrProgressive) {
			t.Errorf("83 decode % X: %v", bad, err)
		}
	}
	if g, err := DecodeGameNumber(hexb(0x99, 0x99)); err != nil || g != 9999 {
		t.Errorf("game number %d %v", g, err)
	}
}

// TestHandpayInfoLayout: the reply to 0x1B per the Aristocrat LP1B table
// and the 6.02 digest §7.8: group, level (01–20, 40, 80), amount 5 BCD,
// partial pay 2 BCD, reset ID (00, 01), 10 bytes (6.02: unused).
func TestHandpayInfoLayout(t *testing.T) {
	h := HandpayInfo{Group: 0, Level: HandpayLevelNonProgressive, Amount: 123456, PartialPay: 25, ResetID: HandpayResetCredits}
	data, err := HandpayInfoData(h)
	want := append(hexb(0x00, 0x40, 0x00, 0x00, 0x12, 0x34, 0x56, 0x00, 0x25, 0x01), make([]byte, 10)...)
	if err != nil || !bytes.Equal(data, want) {
		t.Fatalf("1B: % X %v\nwant % X", data, err, want)
	}
	if len(BuildReply(1, 0x1B, data...)) != 24 {
		t.Fatal("1B reply is not 24 bytes")
	}
	// A progressive handpay on level 1 of group 3 and a 6.03-style reply
	// with session amounts in the last 10 bytes.
	h = HandpayInfo{Group: 3, Level: 1, Amount: MaxProgressiveAmount, PartialPay: 9999, SessionWin: 100, SessionPay: 200}
	data, _ = HandpayInfoData(h)
	if !bytes.Equal(data[10:], hexb(0, 0, 0, 0x01, 0x00, 0, 0, 0, 0x02, 0x00)) {
		t.Fatalf("1B session fields % X", data[10:])
	}
	for _, bad := range []HandpayInfo{
		{Level: 0x21}, {Level: 0x41}, {Level: 0xFF},
		{Level: 1, Amount: MaxProgressiveAmount + 1},
		{Level: 1, PartialPay: 10000},
		{Level: 1, ResetID: 2},
		{Level: 1, SessionPay: MaxProgressiveAmount + 1},
	} {
		if _, err := HandpayInfoData(bad); !errors.Is(err, ErrProgressive) {
			t.Errorf("1B built %+v: %v", bad, err)
		}
	}
}

// TestMachineInfoLayout: the reply to 0x1F per the 6.02 digest §7.10 and
// the Aristocrat LP1F table, progressive group at byte 7.
func TestMachineInfoLayout(t *testing.T) {
	m := MachineInfo{GameID: "LU", AdditionalID: "001", Denomination: 0x01, MaxBet: 0xFF,
		ProgressiveGroup: 0x2A, GameOptions: 0x8001, PaytableID: "ABC123", BasePercent: "9650"}
	data, err := MachineInfoData(m)
	want := append(append([]byte("LU001"), 0x01, 0xFF, 0x2A, 0x01, 0x80), "ABC1239650"...)
	if err != nil || !bytes.Equal(data, want) {
		t.Fatalf("1F % X %v\nwant % X", data, err, want)
	}
	if got, err := DecodeMachineInfo(data); err != nil || got != m {
		t.Fatalf("1F decode %+v %v", got, err)
	}
	for _, bad := range []MachineInfo{
		{GameID: "L", AdditionalID: "001", PaytableID: "ABC123", BasePercent: "9650"},
		{GameID: "LU", AdditionalID: "0001", PaytableID: "ABC123", BasePercent: "9650"},
		{GameID: "LU", AdditionalID: "001", PaytableID: "ABC\x00123"[:6], BasePercent: "9650"},
		{GameID: "LU", AdditionalID: "001", PaytableID: "ABC123", BasePercent: "96.5"},
	} {
		if _, err := MachineInfoData(bad); !errors.Is(err, ErrMachineInfo) {
			t.Errorf("1F built %+v: %v", bad, err)
		}
	}
	if _, err := DecodeMachineInfo(want[:19]); !errors.Is(err, ErrMachineInfo) {
		t.Error("1F of 19 bytes decoded")
	}
}
