package sas

import (
	"errors"
	"fmt"
)

// SAS progressives: the codec of the broadcasts the host sends (0x80, 0x86)
// and of the replies the machine gives about progressive wins (0x83, 0x84,
// 0x85, 0x87). The machine's progressive state (the 5 s rule, the hits
// reported) is the cabinet's, kept in its ledger (machine/link.go).
//
// Sources, read for every layout below:
//   - "IGT SAS Protocol Version 6.02 Reference Documentation" (a public
//     digest of GSA P0013.004.00), section 10 Progressives: group 00 is
//     reserved for non-SAS progressives, level 01 is the top award, amounts
//     are in cents, up to 32 levels per 0x86, a queue of SAS progressive
//     wins read with 0x85 or 0x87, cumulative wins with 0x83.
//   - The Aristocrat Monaco SAS client (github.com/tejvirc/Platform,
//     Protocol/SAS/Aristocrat.Sas.Client/LPParsers): LP80 (group 01–FF,
//     level 01–20, amount 5 BCD), LP86 (length 07–C1, group, then level and
//     5 BCD amount pairs), LP83 (game number 2 BCD; reply game number, 4
//     BCD meter), LP84 and LP85 (reply group, level, 5 BCD amount), LP87
//     (reply length 02–C2, group, number of levels 00–20, level and 5 BCD
//     amount each).

// Progressive limits.
const (
	// MaxProgressiveLevel is the lowest progressive level (level 1 is the
	// top award): levels are 1–32 (0x01–0x20).
	MaxProgressiveLevel = 32
	// MaxProgressiveAmount is the largest amount in cents a 5-byte BCD
	// field holds.
	MaxProgressiveAmount = 9_999_999_999
	// maxBroadcastLen is the largest length byte of 0x86: group and 32
	// level/amount pairs (0xC1).
	maxBroadcastLen = 1 + MaxProgressiveLevel*levelValueSize
	// levelValueSize is one level and its 5-byte BCD amount.
	levelValueSize = 6
)

// Long poll commands of the progressive protocol.
const (
	CmdSingleLevelBroadcast    byte = 0x80 // host: one level of one group
	CmdCumulativeProgressive   byte = 0x83 // machine: cumulative progressive wins meter
	CmdProgressiveWinAmount    byte = 0x84 // machine: last (non-SAS) progressive win
	CmdSASProgressiveWin       byte = 0x85 // machine: oldest unread SAS progressive win
	CmdMultipleLevelBroadcast  byte = 0x86 // host: up to 32 levels of one group
	CmdMultipleProgressiveWins byte = 0x87 // machine: unread SAS progressive wins
)

// ErrProgressive is returned (wrapped, with what and where) for progressive
// data that is not what the layout allows.
var ErrProgressive = errors.New("sas: bad progressive data")

func progErr(format string, a ...any) error {
	return fmt.Errorf("%w: %s", ErrProgressive, fmt.Sprintf(format, a...))
}

// LevelValue is one progressive level and an amount in cents: the current
// value of the level in a broadcast, or a win in a 0x87 reply.
type LevelValue struct {
	Level  byte   `json:"level"`
	Amount uint64 `json:"amount_cents"`
}

func (lv LevelValue) check(what string) error {
	if lv.Level < 1 || lv.Level > MaxProgressiveLevel {
		return progErr("%s: level %d outside 1-%d", what, lv.Level, MaxProgressiveLevel)
	}
	if lv.Amount > MaxProgressiveAmount {
		return progErr("%s: level %d amount %d cents exceeds 10 BCD digits", what, lv.Level, lv.Amount)
	}
	return nil
}

func appendLevelValue(b []byte, lv LevelValue) []byte {
	return AppendBCD(append(b, lv.Level), lv.Amount, 5)
}

// decodeLevelValue decodes level and 5 BCD amount from b[:6].
func decodeLevelValue(b []byte, what string) (LevelValue, error) {
	amt, err := DecodeBCD(b[1:6])
	if err != nil {
		return LevelValue{}, progErr("%s: level %d amount: %v", what, b[0], err)
	}
	lv := LevelValue{Level: b[0], Amount: amt}
	return lv, lv.check(what)
}

// ProgressiveBroadcast is the content of a 0x80 or 0x86 long poll: the
// current amounts of levels of one progressive group.
type ProgressiveBroadcast struct {
	Group  byte
	Levels []LevelValue
}

// SingleLevelBroadcastData returns the data of a 0x80 poll (what follows
// the command, without the CRC): group, level, amount (5 BCD, cents).
// The group must not be 0 (reserved for non-SAS progressives), the level
// must be 1–32, the amount at most 10 digits.
func SingleLevelBroadcastData(group byte, lv LevelValue) ([]byte, error) {
	if group == 0 {
		return nil, progErr("80: group 0 is reserved for non-SAS progressives")
	}
	if err := lv.check("80"); err != nil {
		return nil, err
	}
	return appendLevelValue([]byte{group}, lv), nil
}

// MultipleLevelBroadcastData returns the data of a 0x86 poll: length
// (bytes that follow it, CRC excluded), group, then level and amount (5
// BCD, cents) for each of 1–32 distinct levels, in the order given.
func MultipleLevelBroadcastData(group byte, levels []LevelValue) ([]byte, error) {
	if group == 0 {
		return nil, progErr("86: group 0 is reserved for non-SAS progressives")
	}
	if len(levels) == 0 || len(levels) > MaxProgressiveLevel {
		return nil, progErr("86: %d levels, want 1-%d", len(levels), MaxProgressiveLevel)
	}
	var seen uint64
	b := make([]byte, 2, 2+levelValueSize*len(levels))
	b[0], b[1] = byte(1+levelValueSize*len(levels)), group
	for _, lv := range levels {
		if err := lv.check("86"); err != nil {
			return nil, err
		}
		if seen&(1<<lv.Level) != 0 {
			return nil, progErr("86: level %d given twice", lv.Level)
		}
		seen |= 1 << lv.Level
		b = appendLevelValue(b, lv)
	}
	return b, nil
}

// ProgressiveBroadcastData returns the command and data that broadcast
// levels of group: 0x80 for one level, 0x86 for several.
func ProgressiveBroadcastData(group byte, levels []LevelValue) (cmd byte, data []byte, err error) {
	if len(levels) == 1 {
		data, err = SingleLevelBroadcastData(group, levels[0])
		return CmdSingleLevelBroadcast, data, err
	}
	data, err = MultipleLevelBroadcastData(group, levels)
	return CmdMultipleLevelBroadcast, data, err
}

// ProgressiveBroadcastFrame returns the whole broadcast poll as the host
// sends it to addr (0: every machine): address, command, data, CRC.
func ProgressiveBroadcastFrame(addr, group byte, levels []LevelValue) ([]byte, error) {
	cmd, data, err := ProgressiveBroadcastData(group, levels)
	if err != nil {
		return nil, err
	}
	return LongPollFrame(addr, cmd, data...), nil
}

// ParseProgressiveBroadcast parses the data of a 0x80 or 0x86 poll (as in
// Request.Data) strictly: the exact length (0x86: a length byte equal to
// the bytes that follow, 7–193, one group byte and whole level/amount
// pairs), a group other than 0, levels 1–32 and each at most once, every
// amount packed BCD. Errors wrap ErrProgressive and name the field.
//
// Choice: group 0 is refused in both polls. The 6.02 digest reserves group
// 00 for non-SAS progressives, the Aristocrat LP80 documents 01–FF and its
// LP86 refuses group 0.
//
// Choice: a level repeated within one 0x86 is refused (the Aristocrat
// parser keeps the last one silently); the host's intent is then unclear.
func ParseProgressiveBroadcast(cmd byte, data []byte) (ProgressiveBroadcast, error) {
	switch cmd {
	case CmdSingleLevelBroadcast:
		if len(data) != 1+levelValueSize {
			return ProgressiveBroadcast{}, progErr("80: %d data bytes, want %d", len(data), 1+levelValueSize)
		}
		if data[0] == 0 {
			return ProgressiveBroadcast{}, progErr("80: group 0 is reserved for non-SAS progressives")
		}
		lv, err := decodeLevelValue(data[1:], "80")
		if err != nil {
			return ProgressiveBroadcast{}, err
		}
		return ProgressiveBroadcast{Group: data[0], Levels: []LevelValue{lv}}, nil
	case CmdMultipleLevelBroadcast:
		if len(data) < 1 {
			return ProgressiveBroadcast{}, progErr("86: no length byte")
		}
		n := int(data[0])
		if n != len(data)-1 {
			return ProgressiveBroadcast{}, progErr("86: length byte %d, but %d bytes follow it", n, len(data)-1)
		}
		if n < 1+levelValueSize || n > maxBroadcastLen || (n-1)%levelValueSize != 0 {
			return ProgressiveBroadcast{}, progErr("86: length %d is not a group and 1-%d level/amount pairs of %d bytes",
				n, MaxProgressiveLevel, levelValueSize)
		}
		if data[1] == 0 {
			return ProgressiveBroadcast{}, progErr("86: group 0 is reserved for non-SAS progressives")
		}
		b := ProgressiveBroadcast{Group: data[1], Levels: make([]LevelValue, 0, (n-1)/levelValueSize)}
		var seen uint64
		for i := 2; i < len(data); i += levelValueSize {
			lv, err := decodeLevelValue(data[i:], fmt.Sprintf("86 pair %d", len(b.Levels)+1))
			if err != nil {
				return ProgressiveBroadcast{}, err
			}
			if seen&(1<<lv.Level) != 0 {
				return ProgressiveBroadcast{}, progErr("86: level %d given twice", lv.Level)
			}
			seen |= 1 << lv.Level
			b.Levels = append(b.Levels, lv)
		}
		return b, nil
	}
	return ProgressiveBroadcast{}, progErr("%02X is not a progressive broadcast", cmd)
}

// ProgressiveWin is a progressive win as the machine reports it to 0x84
// (any progressive) and 0x85 (the oldest unread SAS progressive win):
// group, level and amount in cents. The zero value means "no win".
type ProgressiveWin struct {
	Group  byte   `json:"group"`
	Level  byte   `json:"level"`
	Amount uint64 `json:"amount_cents"`
}

// None reports whether w is the all-zero "no win" answer.
func (w ProgressiveWin) None() bool { return w == ProgressiveWin{} }

// ProgressiveWinData returns the data of the reply to 0x84 or 0x85:
// group, level, amount (5 BCD, cents). The level must be 1–32 and the
// amount at most 10 digits, unless w is the zero "no win" answer.
//
// Choice: the sources do not say what a machine without a win answers;
// the Aristocrat LP85 handler answers group 0, level 0, amount 0, and so
// does this package (a reply the host can tell from any real win, since
// level 0 does not exist).
func ProgressiveWinData(w ProgressiveWin) ([]byte, error) {
	if !w.None() {
		if err := (LevelValue{w.Level, w.Amount}).check("progressive win"); err != nil {
			return nil, err
		}
	}
	return appendLevelValue([]byte{w.Group}, LevelValue{w.Level, w.Amount}), nil
}

// DecodeProgressiveWin decodes the data of the reply to 0x84 or 0x85
// strictly: 7 bytes, a level 1–32 (or the all-zero "no win"), a BCD
// amount.
func DecodeProgressiveWin(data []byte) (ProgressiveWin, error) {
	if len(data) != 1+levelValueSize {
		return ProgressiveWin{}, progErr("progressive win: %d data bytes, want %d", len(data), 1+levelValueSize)
	}
	amt, err := DecodeBCD(data[2:7])
	if err != nil {
		return ProgressiveWin{}, progErr("progressive win amount: %v", err)
	}
	w := ProgressiveWin{Group: data[0], Level: data[1], Amount: amt}
	if w.Level == 0 {
		if !w.None() {
			return ProgressiveWin{}, progErr("progressive win: level 0 with group %d amount %d (level 0 means no win: all zero)", w.Group, w.Amount)
		}
		return w, nil
	}
	if w.Level > MaxProgressiveLevel {
		return ProgressiveWin{}, progErr("progressive win: level %d outside 1-%d", w.Level, MaxProgressiveLevel)
	}
	return w, nil
}

// ProgressiveWins is the reply to 0x87: the group and the unread SAS
// progressive wins, oldest first (none when the queue is empty).
type ProgressiveWins struct {
	Group byte         `json:"group"`
	Wins  []LevelValue `json:"wins"`
}

// MultipleProgressiveWinsData returns the data of the reply to 0x87:
// length (bytes that follow it, CRC excluded), group, number of wins
// (0–32), then level and amount (5 BCD, cents) for each. A level may
// appear more than once: it may have been hit more than once.
func MultipleProgressiveWinsData(w ProgressiveWins) ([]byte, error) {
	if len(w.Wins) > MaxProgressiveLevel {
		return nil, progErr("87: %d wins, at most %d fit a reply", len(w.Wins), MaxProgressiveLevel)
	}
	b := make([]byte, 3, 3+levelValueSize*len(w.Wins))
	b[0], b[1], b[2] = byte(2+levelValueSize*len(w.Wins)), w.Group, byte(len(w.Wins))
	for i, lv := range w.Wins {
		if err := lv.check(fmt.Sprintf("87 win %d", i+1)); err != nil {
			return nil, err
		}
		b = appendLevelValue(b, lv)
	}
	return b, nil
}

// DecodeMultipleProgressiveWins decodes the data of the reply to 0x87
// strictly: a length byte equal to the bytes that follow it, a count
// 0–32 that matches the pairs present, levels 1–32, BCD amounts.
func DecodeMultipleProgressiveWins(data []byte) (ProgressiveWins, error) {
	if len(data) < 3 {
		return ProgressiveWins{}, progErr("87: %d data bytes, want at least 3", len(data))
	}
	if int(data[0]) != len(data)-1 {
		return ProgressiveWins{}, progErr("87: length byte %d, but %d bytes follow it", data[0], len(data)-1)
	}
	n := int(data[2])
	if n > MaxProgressiveLevel {
		return ProgressiveWins{}, progErr("87: %d wins, at most %d", n, MaxProgressiveLevel)
	}
	if len(data) != 3+levelValueSize*n {
		return ProgressiveWins{}, progErr("87: %d wins need %d data bytes, got %d", n, 3+levelValueSize*n, len(data))
	}
	w := ProgressiveWins{Group: data[1], Wins: make([]LevelValue, 0, n)}
	for i := 3; i < len(data); i += levelValueSize {
		lv, err := decodeLevelValue(data[i:], fmt.Sprintf("87 win %d", len(w.Wins)+1))
		if err != nil {
			return ProgressiveWins{}, err
		}
		w.Wins = append(w.Wins, lv)
	}
	return w, nil
}

// DecodeGameNumber decodes a 2-byte BCD game number (the data of 0x83,
// 0000 being the whole machine).
func DecodeGameNumber(data []byte) (uint16, error) {
	if len(data) != 2 {
		return 0, progErr("game number: %d bytes, want 2", len(data))
	}
	v, err := DecodeBCD(data)
	if err != nil {
		return 0, progErr("game number: %v", err)
	}
	return uint16(v), nil
}

// CumulativeProgressiveWinsData returns the data of the reply to 0x83:
// the game number (2 BCD, the one the poll asked for) and the cumulative
// progressive wins meter (4 BCD). The game number must be at most 9999.
//
// Choice: the Aristocrat LP83 reports the meter "in SAS accounting denom
// units" and the brief in cents; the cabinet's accounting denomination is
// 0.01, so the two agree. Like every SAS meter it rolls over at its width
// (8 digits), where an amount field (5 BCD) would be refused.
func CumulativeProgressiveWinsData(game uint16, amount uint64) ([]byte, error) {
	if game > 9999 {
		return nil, progErr("83: game number %d exceeds 4 BCD digits", game)
	}
	return AppendBCD(AppendBCD(nil, uint64(game), 2), amount, 4), nil
}

// DecodeCumulativeProgressiveWins decodes the data of the reply to 0x83:
// 6 bytes, game number (2 BCD) and meter (4 BCD).
func DecodeCumulativeProgressiveWins(data []byte) (game uint16, amount uint64, err error) {
	if len(data) != 6 {
		return 0, 0, progErr("83: %d data bytes, want 6", len(data))
	}
	if game, err = DecodeGameNumber(data[:2]); err != nil {
		return 0, 0, err
	}
	if amount, err = DecodeBCD(data[2:]); err != nil {
		return 0, 0, progErr("83 meter: %v", err)
	}
	return game, amount, nil
}
