package host

import (
	"encoding/hex"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/openegm/cabinet/sas"
)

// ErrBadReply is returned (wrapped) for a reply that is not what the poll
// asks for: wrong address or command, bad CRC, wrong length or layout.
var ErrBadReply = errors.New("sas host: bad reply")

func bad(format string, a ...any) error {
	return fmt.Errorf("%w: %s", ErrBadReply, fmt.Sprintf(format, a...))
}

// Hex is bytes shown as hexadecimal in JSON ("0112AB").
type Hex []byte

// MarshalText gives the bytes in hex, upper case.
func (h Hex) MarshalText() ([]byte, error) {
	return []byte(strings.ToUpper(hex.EncodeToString(h))), nil
}

// UnmarshalText reads hex.
func (h *Hex) UnmarshalText(b []byte) error {
	v, err := hex.DecodeString(string(b))
	*h = v
	return err
}

// ReplyKind is the shape of a machine's answer to a long poll.
type ReplyKind uint8

const (
	// ReplyNone: no answer at all (an unsupported long poll).
	ReplyNone ReplyKind = iota
	// ReplyAck: the address byte alone.
	ReplyAck
	// ReplyNack: addr|0x80, the poll arrived with a wrong CRC.
	ReplyNack
	// ReplyBusy: addr 00.
	ReplyBusy
	// ReplyData: addr cmd data… CRC.
	ReplyData
)

var replyKindNames = [...]string{"none", "ack", "nack", "busy", "data"}

func (k ReplyKind) String() string {
	if int(k) < len(replyKindNames) {
		return replyKindNames[k]
	}
	return fmt.Sprintf("ReplyKind(%d)", uint8(k))
}

// MarshalText gives the name, for JSON.
func (k ReplyKind) MarshalText() ([]byte, error) { return []byte(k.String()), nil }

// Response is a machine's answer to a long poll.
type Response struct {
	Kind ReplyKind `json:"kind"`
	Addr byte      `json:"addr"`
	Cmd  byte      `json:"cmd"`
	// Data is what lies between the command and the CRC of a data reply.
	Data Hex `json:"data,omitempty"`
	// Raw is every byte received.
	Raw Hex `json:"raw,omitempty"`
	// Attempts is how many times the poll was sent.
	Attempts int `json:"attempts"`
}

// ParseResponse classifies raw, the bytes a machine at addr sent in answer
// to long poll cmd: nothing, ACK, NACK, busy or a data reply whose CRC
// must be right, whose command must be cmd and whose length must match the
// command when the command has a known reply length. It never panics.
func ParseResponse(addr, cmd byte, raw []byte) (Response, error) {
	r := Response{Addr: addr, Cmd: cmd, Raw: raw}
	switch {
	case len(raw) == 0:
		return r, nil
	case len(raw) == 1 && raw[0] == addr|sas.NackBit:
		r.Kind = ReplyNack
		return r, nil
	case len(raw) == 1 && raw[0] == addr:
		r.Kind = ReplyAck
		return r, nil
	case len(raw) == 2 && raw[0] == addr && raw[1] == 0:
		r.Kind = ReplyBusy
		return r, nil
	}
	a, c, data, err := sas.ParseReply(raw)
	if err != nil {
		return r, bad("% X: %v", raw, err)
	}
	if a != addr || c != cmd {
		return r, bad("reply from address %d to command %02X, want %d and %02X", a, c, addr, cmd)
	}
	if n, ok := ReplyLength(raw); ok && n != len(raw) {
		return r, bad("%02X reply of %d bytes, want %d", cmd, len(raw), n)
	}
	r.Kind, r.Data = ReplyData, data
	return r, nil
}

// GeneralReply is a machine's answer to a general poll.
type GeneralReply struct {
	// Exception is the exception code reported (sas.ExcNone: no activity).
	// For a real-time event it is the event's code.
	Exception sas.Exception `json:"code"`
	// Name is Exception's name.
	Name string `json:"name"`
	// RealTime: a real-time event message (addr FF code data… CRC, when
	// the host has turned real-time event reporting on with 0x0E);
	// EventData holds its data.
	RealTime  bool `json:"real_time,omitempty"`
	EventData Hex  `json:"event_data,omitempty"`
	// Event is EventData decoded (sas.DecodeRealTimeEvent): a
	// *sas.GameStarted, *sas.GameEnded or *sas.BillAccepted; nil for the
	// events without data, or when the data does not decode (EventError
	// says why).
	Event      any    `json:"event,omitempty"`
	EventError string `json:"event_error,omitempty"`
	// Long is a deferred long-poll reply (such as the ROM signature, 0x21)
	// the machine sent instead of an exception; Exception is then ExcNone.
	Long *Response `json:"long,omitempty"`
	// Raw is every byte received.
	Raw Hex `json:"raw"`
	// Attempts is how many times the poll was sent.
	Attempts int `json:"attempts"`
}

// ParseGeneral classifies raw, the answer of the machine at addr to a
// general poll: one exception code, a real-time event, or a deferred
// long-poll reply. It never panics.
func ParseGeneral(addr byte, raw []byte) (GeneralReply, error) {
	g := GeneralReply{Raw: raw}
	switch {
	case len(raw) == 0:
		return g, bad("empty answer to a general poll")
	case len(raw) == 1:
		g.Exception = sas.Exception(raw[0])
		g.Name = g.Exception.Name()
		return g, nil
	}
	a, c, data, err := sas.ParseReply(raw)
	if err != nil {
		return g, bad("% X: %v", raw, err)
	}
	if a != addr {
		return g, bad("reply from address %d, want %d", a, addr)
	}
	if n, ok := ReplyLength(raw); ok && n != len(raw) {
		return g, bad("%02X reply of %d bytes, want %d", c, len(raw), n)
	}
	if c == realTimeCmd {
		if len(data) < 1 {
			return g, bad("real-time event without a code")
		}
		g.RealTime = true
		g.Exception = sas.Exception(data[0])
		g.Name = g.Exception.Name()
		g.EventData = data[1:]
		if ev, err := sas.DecodeRealTimeEvent(g.Exception, g.EventData); err != nil {
			g.EventError = err.Error()
		} else if ev != nil {
			g.Event = ev
		}
		return g, nil
	}
	g.Name = "deferred reply"
	g.Long = &Response{Kind: ReplyData, Addr: a, Cmd: c, Data: data, Raw: raw}
	return g, nil
}

// realTimeCmd is the command byte of real-time event messages.
const realTimeCmd = sas.RealTimeEventCmd

// replyLengths gives the total length (address to CRC) of the data reply to
// the long polls whose reply has a fixed length. Layouts: meters after
// sas.FixedMeterPoll; 1B group, level, amount (5 BCD), partial pay (2 BCD),
// reset ID, 10 unused; 1F as in MachineInfo; 21 two-byte signature; 48
// country code, denomination code, bill meter (4 BCD); 7E date and time
// (4 + 3 BCD); 83 game number (2 BCD), amount (4 BCD); 84 and 85 group,
// level, amount (5 BCD); 94 status; A0 game number (2 BCD), features 1-4,
// 2 reserved.
var replyLengths = map[byte]int{
	0x0F: 28, 0x10: 8, 0x11: 8, 0x12: 8, 0x13: 8, 0x14: 8, 0x15: 8, 0x16: 8, 0x17: 8,
	0x18: 8, 0x19: 24, 0x1A: 8, 0x1B: 24, 0x1C: 36, 0x1E: 28, 0x1F: 24, 0x20: 8,
	0x21: 6, 0x48: 10, 0x7E: 11, 0x83: 10, 0x84: 11, 0x85: 11, 0x94: 5, 0xA0: 12,
	0x51: 6, 0x55: 6, // number of games, selected game (2 BCD)
}

// variableReplies carry a length byte after the command: the number of
// bytes that follow it, CRC excluded. 87: group, count, level and amount
// pairs; 72, 73, 74: the AFT replies (sas/aft.go); 56, B5: the games.
var variableReplies = map[byte]bool{0x2F: true, 0x54: true, 0x56: true, 0x6F: true, 0x72: true, 0x73: true, 0x74: true,
	0x87: true, 0xAF: true, 0xB4: true, 0xB5: true}

// realTimeLengths gives the total length of real-time event messages
// (addr FF code data… CRC) that carry data: 7E game started (credits
// wagered 2 BCD, coin-in meter 4 BCD, wager type, progressive group), 7F
// game ended (win 4 BCD), 4F bill accepted (country code, denomination
// code, bill meter 4 BCD). Other codes: addr FF code CRC.
var realTimeLengths = map[byte]int{0x7E: 13, 0x7F: 9, 0x4F: 11}

// ReplyLength returns the total length of the data reply that starts with
// b (address, command, and for variable replies the length byte), and
// false when it cannot be known from b: unknown command, or b too short.
func ReplyLength(b []byte) (int, bool) {
	if len(b) < 2 {
		return 0, false
	}
	cmd := b[1]
	if n, ok := replyLengths[cmd]; ok {
		return n, true
	}
	if len(b) < 3 {
		return 0, false
	}
	if variableReplies[cmd] {
		return 3 + int(b[2]) + 2, true
	}
	if cmd == realTimeCmd {
		if n, ok := realTimeLengths[b[2]]; ok {
			return n, true
		}
		return 5, true
	}
	return 0, false
}

// Meter is one meter read from the machine.
type Meter struct {
	Code  sas.MeterCode `json:"code"`
	Name  string        `json:"name"`
	Value uint64        `json:"value"`
	// Size is the width of the BCD field, in bytes.
	Size int `json:"size"`
}

func newMeter(code sas.MeterCode, v uint64, size int) Meter {
	return Meter{Code: code, Name: code.Name(), Value: v, Size: size}
}

// DecodeMeters decodes the data of the reply to a meter long poll: the
// fixed layouts (sas.FixedMeterPoll) and 0x2F, 0x6F, 0xAF.
func DecodeMeters(cmd byte, data []byte) ([]Meter, error) {
	if codes := sas.FixedMeterPoll(cmd); codes != nil {
		size := 4
		if cmd == 0x18 {
			size = 2
		}
		if len(data) != size*len(codes) {
			return nil, bad("%02X data of %d bytes, want %d", cmd, len(data), size*len(codes))
		}
		out := make([]Meter, 0, len(codes))
		for i, c := range codes {
			v, err := sas.DecodeBCD(data[i*size : (i+1)*size])
			if err != nil {
				return nil, bad("%02X %v: %v", cmd, c, err)
			}
			out = append(out, newMeter(c, v, size))
		}
		return out, nil
	}
	switch cmd {
	case 0x2F:
		return decodeSelected(data, false)
	case 0x6F, 0xAF:
		return decodeSelected(data, true)
	}
	return nil, bad("%02X is not a meter poll", cmd)
}

func decodeSelected(data []byte, ext bool) ([]Meter, error) {
	if len(data) < 3 || int(data[0]) != len(data)-1 {
		return nil, bad("selected meters: length byte does not match % X", data)
	}
	if _, err := sas.DecodeBCD(data[1:3]); err != nil {
		return nil, bad("selected meters: game number: %v", err)
	}
	var out []Meter
	for b := data[3:]; len(b) > 0; {
		var code sas.MeterCode
		var size int
		if ext {
			if len(b) < 3 {
				return nil, bad("extended meter truncated: % X", b)
			}
			code, size = sas.MeterCode(b[0])|sas.MeterCode(b[1])<<8, int(b[2])
			b = b[3:]
		} else {
			code = sas.MeterCode(b[0])
			size = code.Size()
			b = b[1:]
		}
		if size < 1 || size > 9 || len(b) < size {
			return nil, bad("meter %v: %d value bytes of %d left", code, size, len(b))
		}
		v, err := sas.DecodeBCD(b[:size])
		if err != nil {
			return nil, bad("meter %v: %v", code, err)
		}
		out = append(out, newMeter(code, v, size))
		b = b[size:]
	}
	return out, nil
}

// SelectedMetersData builds the data of a 0x2F (ext false) or 0x6F (ext
// true) poll: length byte, game number (2 BCD), codes (one byte each, or
// two bytes least significant first).
func SelectedMetersData(game uint16, codes []sas.MeterCode, ext bool) []byte {
	b := []byte{0}
	b = sas.AppendBCD(b, uint64(game), 2)
	for _, c := range codes {
		if ext {
			b = append(b, byte(c), byte(c>>8))
		} else {
			b = append(b, byte(c))
		}
	}
	b[0] = byte(len(b) - 1)
	return b
}

// MachineInfo is the reply to 0x1F, gaming machine information.
type MachineInfo struct {
	GameID           string `json:"game_id"`       // 2 ASCII
	AdditionalID     string `json:"additional_id"` // 3 ASCII
	Denomination     byte   `json:"denomination"`  // SAS denomination code
	MaxBet           byte   `json:"max_bet"`
	ProgressiveGroup byte   `json:"progressive_group"`
	GameOptions      uint16 `json:"game_options"` // binary, least significant byte first
	PaytableID       string `json:"paytable_id"`  // 6 ASCII
	// BasePercent is the theoretical return at max bet, 4 ASCII digits
	// with two implied decimals, shown with the point: "97.50".
	BasePercent string `json:"base_percent"`
}

// DecodeMachineInfo decodes the data of the reply to 0x1F: game ID (2
// ASCII), additional ID (3 ASCII), denomination code, max bet, progressive
// group, game options (2 binary, LSB first), paytable ID (6 ASCII), base
// percentage (4 ASCII, 2 implied decimals).
func DecodeMachineInfo(data []byte) (MachineInfo, error) {
	if len(data) != 20 {
		return MachineInfo{}, bad("1F data of %d bytes, want 20", len(data))
	}
	pct := ascii(data[16:20])
	if len(pct) == 4 {
		pct = pct[:2] + "." + pct[2:]
	}
	return MachineInfo{
		GameID:           ascii(data[0:2]),
		AdditionalID:     ascii(data[2:5]),
		Denomination:     data[5],
		MaxBet:           data[6],
		ProgressiveGroup: data[7],
		GameOptions:      uint16(data[8]) | uint16(data[9])<<8,
		PaytableID:       ascii(data[10:16]),
		BasePercent:      pct,
	}, nil
}

// ascii returns b as text, non-printable bytes escaped.
func ascii(b []byte) string {
	var s strings.Builder
	for _, c := range b {
		if c >= 0x20 && c < 0x7F {
			s.WriteByte(c)
		} else {
			fmt.Fprintf(&s, "\\x%02X", c)
		}
	}
	return s.String()
}

// SASInfo is the reply to 0x54: SAS version and serial number.
type SASInfo struct {
	Version string `json:"version"` // "6.02" from ASCII "602"
	Serial  string `json:"serial"`
}

// DecodeSASInfo decodes the data of the reply to 0x54: length byte, SAS
// version (3 ASCII digits), serial number (ASCII, the rest).
func DecodeSASInfo(data []byte) (SASInfo, error) {
	if len(data) < 4 || int(data[0]) != len(data)-1 {
		return SASInfo{}, bad("54 data % X: length byte does not match", data)
	}
	v := ascii(data[1:4])
	if len(v) == 3 {
		v = v[:1] + "." + v[1:]
	}
	return SASInfo{Version: v, Serial: ascii(data[4:])}, nil
}

// Handpay is the reply to 0x1B, handpay information (layout and sources
// in sas/handpay.go).
type Handpay struct {
	ProgressiveGroup byte   `json:"progressive_group"`
	Level            byte   `json:"level"`             // 01-20 progressive, 40 non-progressive, 80 cancelled credits
	Amount           uint64 `json:"amount_cents"`      // 5 BCD
	PartialPay       uint64 `json:"partial_pay_cents"` // 2 BCD
	ResetID          byte   `json:"reset_id"`
	// SessionWin and SessionPay are the last 10 bytes: unused (zero) in
	// SAS 6.02, session game win and pay (5 BCD each) from 6.03 machines.
	SessionWin uint64 `json:"session_win_cents,omitempty"`
	SessionPay uint64 `json:"session_pay_cents,omitempty"`
}

// DecodeHandpay decodes the data of the reply to 0x1B: progressive group,
// level, amount (5 BCD cents), partial pay (2 BCD cents), reset ID, and 10
// bytes that are unused in 6.02 (5 + 5 BCD in 6.03). Exactly 20 bytes,
// every BCD field valid.
//
// Choice: strict on length and BCD, tolerant on the values of the level
// and reset ID (reported as received, as sas.md asks of what a peer
// receives). It is the one decoder of 0x1B: sas.HandpayInfoData is the
// machine's builder, and the tests hold the two to each other.
func DecodeHandpay(data []byte) (Handpay, error) {
	if len(data) != 20 {
		return Handpay{}, bad("1B data of %d bytes, want 20", len(data))
	}
	h := Handpay{ProgressiveGroup: data[0], Level: data[1], ResetID: data[9]}
	for _, f := range []struct {
		name string
		b    []byte
		v    *uint64
	}{
		{"amount", data[2:7], &h.Amount},
		{"partial pay", data[7:9], &h.PartialPay},
		{"session win", data[10:15], &h.SessionWin},
		{"session pay", data[15:20], &h.SessionPay},
	} {
		v, err := sas.DecodeBCD(f.b)
		if err != nil {
			return Handpay{}, bad("1B %s: %v", f.name, err)
		}
		*f.v = v
	}
	return h, nil
}

// DecodeTime decodes the data of the reply to 0x7E: MMDDYYYY and HHMMSS in
// BCD, as wall-clock time in loc (time.Local if nil).
func DecodeTime(data []byte, loc *time.Location) (time.Time, error) {
	if len(data) != 7 {
		return time.Time{}, bad("7E data of %d bytes, want 7", len(data))
	}
	var f [6]uint64
	for i, part := range [][]byte{data[0:1], data[1:2], data[2:4], data[4:5], data[5:6], data[6:7]} {
		v, err := sas.DecodeBCD(part)
		if err != nil {
			return time.Time{}, bad("7E: %v", err)
		}
		f[i] = v
	}
	mo, d, y, h, mi, s := f[0], f[1], f[2], f[3], f[4], f[5]
	if mo < 1 || mo > 12 || d < 1 || d > 31 || h > 23 || mi > 59 || s > 59 {
		return time.Time{}, bad("7E: no such date and time % X", data)
	}
	if loc == nil {
		loc = time.Local
	}
	return time.Date(int(y), time.Month(mo), int(d), int(h), int(mi), int(s), 0, loc), nil
}

// EncodeTime returns t as the data of 0x7F (and the reply to 0x7E).
func EncodeTime(t time.Time) []byte { return sas.EncodeTime(t) }

// DecodeCredits decodes the data of the reply to 0x1A: current credits, 4
// BCD.
func DecodeCredits(data []byte) (uint64, error) {
	if len(data) != 4 {
		return 0, bad("1A data of %d bytes, want 4", len(data))
	}
	v, err := sas.DecodeBCD(data)
	if err != nil {
		return 0, bad("1A: %v", err)
	}
	return v, nil
}

// DecodeSignature decodes the data of the reply to 0x21: the 2-byte ROM
// signature, least significant byte first.
func DecodeSignature(data []byte) (uint16, error) {
	if len(data) != 2 {
		return 0, bad("21 data of %d bytes, want 2", len(data))
	}
	return uint16(data[0]) | uint16(data[1])<<8, nil
}

// SeedData returns the data of the 0x21 poll for seed: 2 bytes, least
// significant first.
func SeedData(seed uint16) []byte { return []byte{byte(seed), byte(seed >> 8)} }
