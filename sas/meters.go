package sas

import (
	"fmt"

	"github.com/openegm/cabinet/sas/metercode"
)

// MeterSource gives the machine's meters by SAS meter code. Values are
// whole counts of the meter's unit (credits, cents or occurrences, see
// MeterCode); the reply builders roll them over at the width of their
// field. ok is false for a meter the machine does not keep.
type MeterSource interface {
	Meter(code uint16) (value uint64, ok bool)
}

// GameMeterSource is a MeterSource that also has meters per game. Meter
// polls that carry a game number other than 0000 (the machine) are
// answered only if the source implements it and ForGame returns true.
type GameMeterSource interface {
	MeterSource
	ForGame(game uint16) (MeterSource, bool)
}

// MeterCode is a SAS meter code; the table of codes, with each meter's
// name, unit and field size, is package metercode.
type MeterCode = metercode.Code

// Codes by their old names, for callers outside this package that predate
// package metercode (the link controller's session).
const (
	MeterTotalCoinIn = metercode.TotalCoinIn
	MeterGamesPlayed = metercode.GamesPlayed
)

// bill returns the code of the count of bills of a face value that SAS has
// a meter for.
func bill(face uint64) MeterCode {
	c, ok := metercode.Bill(face)
	if !ok {
		panic(fmt.Sprintf("sas: no bill meter of face value %d", face))
	}
	return c
}

// Meter long polls with a fixed layout: the meters they report, in order,
// each a 4-byte BCD field (0x18: 2-byte fields).
//
// Units: amounts (coin in, coin out, drop, jackpot, cancelled credits,
// current credits) in credits, as their Table C-7 codes; games and bills in
// counts; 0x20 in whole currency units (see MeterResponse).
var fixedMeterPolls = map[byte][]MeterCode{
	0x0F: {metercode.TotalCancelledCredits, metercode.TotalCoinIn, metercode.TotalCoinOut, metercode.TotalDrop,
		metercode.TotalJackpot, metercode.GamesPlayed},
	0x10: {metercode.TotalCancelledCredits},
	0x11: {metercode.TotalCoinIn},
	0x12: {metercode.TotalCoinOut},
	0x13: {metercode.TotalDrop},
	0x14: {metercode.TotalJackpot},
	0x15: {metercode.GamesPlayed},
	0x16: {metercode.GamesWon},
	0x17: {metercode.GamesLost},
	0x18: {metercode.GamesSincePowerReset, metercode.GamesSinceDoorClosure},
	0x19: {metercode.TotalCoinIn, metercode.TotalCoinOut, metercode.TotalDrop, metercode.TotalJackpot, metercode.GamesPlayed},
	0x1A: {metercode.CurrentCredits},
	0x1C: {metercode.TotalCoinIn, metercode.TotalCoinOut, metercode.TotalDrop, metercode.TotalJackpot, metercode.GamesPlayed,
		metercode.GamesWon, metercode.SlotDoorOpenings, metercode.PowerResets},
	// The counts of the 1, 5, 10, 20, 50 and 100 notes (0 for a note the
	// currency does not have: the source answers every bill code).
	0x1E: {bill(1), bill(5), bill(10), bill(20), bill(50), bill(100)},
}

// IsMeterPoll reports whether cmd is a meter long poll MeterResponse
// answers.
func IsMeterPoll(cmd byte) bool {
	switch cmd {
	case 0x20, 0x2F, 0x6F, 0xAF:
		return true
	}
	_, ok := fixedMeterPolls[cmd]
	return ok
}

// maxMetersPerPoll is the number of meter codes sas.md allows in one 2F,
// 6F or AF poll.
const maxMetersPerPoll = 10

// MeterResponse builds the data of the reply to meter long poll cmd (what
// follows addr cmd, without the CRC: pass it to ReplyData or BuildReply).
// data is the poll's data as in Request.Data. ok is false when the poll
// must be ignored: not a meter poll, malformed, a game the source does not
// know, or (fixed polls) a meter the machine does not keep.
//
//   - 0x0F, 0x10–0x17, 0x19, 0x1A, 0x1C, 0x1E: 4-byte BCD meters in the
//     order of fixedMeterPolls; 0x18: two 2-byte BCD counts.
//   - 0x20: total value of the bills accepted, 4-byte BCD. Choice (sas.md
//     gives no code): the sum over the bill meters 0x40–0x57 the machine
//     keeps of count × face value, in whole currency units (the "dollar
//     value" of the SAS name); ignored if it keeps none.
//   - 0x2F: length, 2-byte BCD game number, one-byte codes → length, game
//     number, then code and value (Size bytes) for each code the machine
//     keeps. Codes it does not keep are omitted.
//   - 0x6F/0xAF: as 0x2F with two-byte codes (least significant byte
//     first) and a size byte before each value. Choice: the size is the
//     meter's Size, widened up to 9 bytes if the value needs more digits,
//     so an extended meter does not roll over at 8 or 10 digits.
//
// Choice: 0x2F/6F/AF requests with no codes, or more than 10, or a length
// byte that disagrees with the data, or a game number that is not BCD, are
// ignored (sas.md allows "up to 10" codes).
func MeterResponse(cmd byte, data []byte, src MeterSource) (reply []byte, ok bool) {
	if src == nil {
		return nil, false
	}
	if codes, fixed := fixedMeterPolls[cmd]; fixed {
		size := 4
		if cmd == 0x18 {
			size = 2
		}
		out := make([]byte, 0, size*len(codes))
		for _, c := range codes {
			v, ok := src.Meter(uint16(c))
			if !ok {
				return nil, false
			}
			out = AppendBCD(out, v, size)
		}
		return out, true
	}
	switch cmd {
	case 0x20:
		var total uint64
		kept := false
		for _, face := range metercode.BillFaces() {
			if n, ok := src.Meter(uint16(bill(face))); ok {
				total += n * face // rolls over modulo 2^64 only for absurd counts
				kept = true
			}
		}
		if !kept {
			return nil, false
		}
		return AppendBCD(nil, total, 4), true
	case 0x2F:
		return selectedMeters(data, src, 1)
	case 0x6F, 0xAF:
		return selectedMeters(data, src, 2)
	}
	return nil, false
}

// selectedMeters answers 0x2F (codeSize 1) and 0x6F/0xAF (codeSize 2).
func selectedMeters(data []byte, src MeterSource, codeSize int) ([]byte, bool) {
	if len(data) < 1 || int(data[0]) != len(data)-1 || len(data) < 3 {
		return nil, false
	}
	codes := data[3:]
	if len(codes) == 0 || len(codes)%codeSize != 0 || len(codes)/codeSize > maxMetersPerPoll {
		return nil, false
	}
	game, err := DecodeBCD(data[1:3])
	if err != nil {
		return nil, false
	}
	if game != 0 {
		gs, ok := src.(GameMeterSource)
		if !ok {
			return nil, false
		}
		if src, ok = gs.ForGame(uint16(game)); !ok || src == nil {
			return nil, false
		}
	}
	out := []byte{0, data[1], data[2]}
	for i := 0; i < len(codes); i += codeSize {
		code := MeterCode(codes[i])
		if codeSize == 2 {
			code |= MeterCode(codes[i+1]) << 8
			if code.Local() {
				continue
			}
		}
		v, ok := src.Meter(uint16(code))
		if !ok {
			continue
		}
		size := code.Size()
		if codeSize == 2 {
			for size < 9 && v >= pow10(2*size) {
				size++
			}
		}
		next := len(out) + codeSize + size
		if codeSize == 2 {
			next++
		}
		if next-1 > 0xFF { // the length byte counts what follows it
			break
		}
		if codeSize == 2 {
			out = append(out, byte(code), byte(code>>8), byte(size))
		} else {
			out = append(out, byte(code))
		}
		out = AppendBCD(out, v, size)
	}
	out[0] = byte(len(out) - 1)
	return out, true
}

// MeterReply is MeterResponse wrapped as a Handler reply: NoReply when
// the poll must be ignored.
func MeterReply(r Request, src MeterSource) Reply {
	if r.Global {
		return NoReply()
	}
	p, ok := MeterResponse(r.Cmd, r.Data, src)
	if !ok {
		return NoReply()
	}
	return Reply{kind: replyData, data: p}
}
