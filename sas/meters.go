package sas

import "fmt"

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

// MeterCode is a SAS meter code (Table C-7 of the SAS specification, the
// codes of long polls 2F, 6F and AF). The unit of each meter is given in
// its comment: credits, cents (5-byte fields) or a count.
type MeterCode uint16

// Meter codes. 0x00–0x7F after sas.md and the public Aristocrat Monaco
// SasMeterId list; the codes above 0x7F listed are the cents meters that
// set the field width.
const (
	MeterTotalCoinIn              MeterCode = 0x00 // credits
	MeterTotalCoinOut             MeterCode = 0x01 // credits
	MeterTotalJackpot             MeterCode = 0x02 // credits
	MeterTotalHandPaidCancelled   MeterCode = 0x03 // credits
	MeterTotalCancelledCredits    MeterCode = 0x04 // credits
	MeterGamesPlayed              MeterCode = 0x05 // count
	MeterGamesWon                 MeterCode = 0x06 // count
	MeterGamesLost                MeterCode = 0x07 // count
	MeterCoinAcceptorCredits      MeterCode = 0x08 // credits
	MeterHopperPaidCredits        MeterCode = 0x09 // credits
	MeterCoinsToDropCredits       MeterCode = 0x0A // credits
	MeterBillsAcceptedCredits     MeterCode = 0x0B // credits
	MeterCurrentCredits           MeterCode = 0x0C // credits
	MeterTicketInCashableCents    MeterCode = 0x0D // cents
	MeterTicketOutCashableCents   MeterCode = 0x0E // cents
	MeterTicketInRestrictedCents  MeterCode = 0x0F // cents
	MeterTicketOutRestrictedCents MeterCode = 0x10 // cents
	MeterTicketInCashableCount    MeterCode = 0x11 // count
	MeterTicketOutCashableCount   MeterCode = 0x12 // count
	MeterTicketInRestrictedCount  MeterCode = 0x13 // count
	MeterTicketOutRestrictedCount MeterCode = 0x14 // count
	MeterTotalTicketIn            MeterCode = 0x15 // credits
	MeterTotalTicketOut           MeterCode = 0x16 // credits
	MeterElectronicToMachine      MeterCode = 0x17 // credits
	MeterElectronicToHost         MeterCode = 0x18 // credits
	MeterRestrictedPlayed         MeterCode = 0x19 // credits
	MeterNonRestrictedPlayed      MeterCode = 0x1A // credits
	MeterCurrentRestrictedCredits MeterCode = 0x1B // credits
	MeterMachinePaidPaytableWin   MeterCode = 0x1C // credits
	MeterMachinePaidProgressive   MeterCode = 0x1D // credits
	MeterMachinePaidExternalBonus MeterCode = 0x1E // credits
	MeterAttendantPaidPaytable    MeterCode = 0x1F // credits
	MeterAttendantPaidProgressive MeterCode = 0x20 // credits
	MeterAttendantPaidExtBonus    MeterCode = 0x21 // credits
	MeterTotalWon                 MeterCode = 0x22 // credits
	MeterTotalHandPaid            MeterCode = 0x23 // credits
	MeterTotalDrop                MeterCode = 0x24 // credits
	MeterGamesSincePowerReset     MeterCode = 0x25 // count
	MeterGamesSinceDoorClosure    MeterCode = 0x26 // count
	MeterBillsInStacker           MeterCode = 0x3E // count
	MeterBillValueInStacker       MeterCode = 0x3F // credits
	// MeterBills1 … MeterBills1000000: number of bills accepted of each
	// denomination (counts), 0x40–0x57; see BillFaceValue.
	MeterBills1       MeterCode = 0x40
	MeterBills2       MeterCode = 0x41
	MeterBills5       MeterCode = 0x42
	MeterBills10      MeterCode = 0x43
	MeterBills20      MeterCode = 0x44
	MeterBills25      MeterCode = 0x45
	MeterBills50      MeterCode = 0x46
	MeterBills100     MeterCode = 0x47
	MeterBills200     MeterCode = 0x48
	MeterBills250     MeterCode = 0x49
	MeterBills500     MeterCode = 0x4A
	MeterBills1000    MeterCode = 0x4B
	MeterBills2000    MeterCode = 0x4C
	MeterBills2500    MeterCode = 0x4D
	MeterBills5000    MeterCode = 0x4E
	MeterBills10000   MeterCode = 0x4F
	MeterBills20000   MeterCode = 0x50
	MeterBills25000   MeterCode = 0x51
	MeterBills50000   MeterCode = 0x52
	MeterBills100000  MeterCode = 0x53
	MeterBills200000  MeterCode = 0x54
	MeterBills250000  MeterCode = 0x55
	MeterBills500000  MeterCode = 0x56
	MeterBills1000000 MeterCode = 0x57

	// Cabinet-local codes, not SAS codes: meters the fixed long polls
	// report that Table C-7 (as known here) has no code for. Never
	// reported to 6F/AF. Choice: sas.md names them only for poll 0x1C.
	MeterSlotDoorOpenedCount MeterCode = 0xFF01 // count of slot door openings
	MeterPowerResetCount     MeterCode = 0xFF02 // count of power resets
)

// localMeterBase: codes at or above it are cabinet-local.
const localMeterBase = 0xFF00

var billFaceValues = [...]uint64{1, 2, 5, 10, 20, 25, 50, 100, 200, 250, 500, 1000,
	2000, 2500, 5000, 10000, 20000, 25000, 50000, 100000, 200000, 250000, 500000, 1000000}

// BillFaceValue returns the face value, in whole currency units, of the
// bills counted by a bill meter code 0x40–0x57.
func BillFaceValue(code MeterCode) (uint64, bool) {
	if code < MeterBills1 || code > MeterBills1000000 {
		return 0, false
	}
	return billFaceValues[code-MeterBills1], true
}

var meterNames = map[MeterCode]string{
	0x00: "total coin in", 0x01: "total coin out", 0x02: "total jackpot",
	0x03: "total hand-paid cancelled credits", 0x04: "total cancelled credits",
	0x05: "games played", 0x06: "games won", 0x07: "games lost",
	0x08: "credits from coin acceptor", 0x09: "credits paid from hopper",
	0x0A: "credits from coins to drop", 0x0B: "total bills accepted (credits)",
	0x0C: "current credits",
	0x0D: "cashable ticket in (cents)", 0x0E: "cashable ticket out (cents)",
	0x0F: "restricted ticket in (cents)", 0x10: "restricted ticket out (cents)",
	0x11: "cashable tickets in", 0x12: "cashable tickets out",
	0x13: "restricted tickets in", 0x14: "restricted tickets out",
	0x15: "total ticket in", 0x16: "total ticket out",
	0x17: "electronic transfers to machine", 0x18: "electronic transfers to host",
	0x19: "restricted amount played", 0x1A: "non-restricted amount played",
	0x1B: "current restricted credits",
	0x1C: "machine-paid paytable win", 0x1D: "machine-paid progressive win",
	0x1E: "machine-paid external bonus win", 0x1F: "attendant-paid paytable win",
	0x20: "attendant-paid progressive win", 0x21: "attendant-paid external bonus win",
	0x22: "total won", 0x23: "total hand paid", 0x24: "total drop",
	0x25: "games since power reset", 0x26: "games since slot door closure",
	0x3E: "bills in stacker", 0x3F: "value of bills in stacker",
	MeterSlotDoorOpenedCount: "slot door openings", MeterPowerResetCount: "power resets",
}

// Name returns the display name of the meter.
func (c MeterCode) Name() string {
	if n, ok := meterNames[c]; ok {
		return n
	}
	if v, ok := BillFaceValue(c); ok {
		return fmt.Sprintf("bills accepted of %d", v)
	}
	return fmt.Sprintf("meter 0x%04X", uint16(c))
}

func (c MeterCode) String() string { return fmt.Sprintf("%04X %s", uint16(c), c.Name()) }

// Size returns the minimum width in bytes of the meter's BCD field: 5 for
// amounts in cents, 4 otherwise.
//
// Choice (sas.md: "amounts in cents 5 bytes"): the cents meters are
// 0x0D–0x10 and the even codes of 0x80–0x93 (tickets and validated
// handpays) and 0xA0–0xBD (electronic transfers), where each cents meter
// is followed by its count, as in the Aristocrat Monaco meter table.
func (c MeterCode) Size() int {
	switch {
	case c >= 0x0D && c <= 0x10,
		c >= 0x80 && c <= 0x93 && c%2 == 0,
		c >= 0xA0 && c <= 0xBD && c%2 == 0:
		return 5
	}
	return 4
}

// Meter long polls with a fixed layout: the meters they report, in order,
// each a 4-byte BCD field (0x18: 2-byte fields).
//
// Units: amounts (coin in, coin out, drop, jackpot, cancelled credits,
// current credits) in credits, as their Table C-7 codes; games and bills in
// counts; 0x20 in whole currency units (see MeterResponse).
var fixedMeterPolls = map[byte][]MeterCode{
	0x0F: {MeterTotalCancelledCredits, MeterTotalCoinIn, MeterTotalCoinOut, MeterTotalDrop, MeterTotalJackpot, MeterGamesPlayed},
	0x10: {MeterTotalCancelledCredits},
	0x11: {MeterTotalCoinIn},
	0x12: {MeterTotalCoinOut},
	0x13: {MeterTotalDrop},
	0x14: {MeterTotalJackpot},
	0x15: {MeterGamesPlayed},
	0x16: {MeterGamesWon},
	0x17: {MeterGamesLost},
	0x18: {MeterGamesSincePowerReset, MeterGamesSinceDoorClosure},
	0x19: {MeterTotalCoinIn, MeterTotalCoinOut, MeterTotalDrop, MeterTotalJackpot, MeterGamesPlayed},
	0x1A: {MeterCurrentCredits},
	0x1C: {MeterTotalCoinIn, MeterTotalCoinOut, MeterTotalDrop, MeterTotalJackpot, MeterGamesPlayed,
		MeterGamesWon, MeterSlotDoorOpenedCount, MeterPowerResetCount},
	0x1E: {MeterBills1, MeterBills5, MeterBills10, MeterBills20, MeterBills50, MeterBills100},
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
		for c := MeterBills1; c <= MeterBills1000000; c++ {
			if n, ok := src.Meter(uint16(c)); ok {
				face, _ := BillFaceValue(c)
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
			if code >= localMeterBase {
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
