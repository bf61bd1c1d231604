package sas

import (
	"errors"
	"fmt"
)

// Addresses and the bits of the first byte of a poll.
const (
	// GeneralPollBit marks a general poll: 0x80|addr.
	GeneralPollBit = 0x80
	// NackBit marks a NACK from the machine: addr|0x80.
	NackBit = 0x80
	// GlobalAddr is the broadcast address. Polls to it are never answered.
	GlobalAddr = 0
	// MaxAddr is the highest machine address.
	MaxAddr = 127
)

// PollType is the shape of a long poll sent by the host.
type PollType uint8

const (
	// PollR is addr cmd: no data, no CRC.
	PollR PollType = iota + 1
	// PollS is addr cmd data… CRC.
	PollS
	// PollM is like PollS with a 2-byte BCD game number in the data (after
	// the length byte for variable-length polls).
	PollM
)

func (t PollType) String() string {
	switch t {
	case PollR:
		return "R"
	case PollS:
		return "S"
	case PollM:
		return "M"
	}
	return fmt.Sprintf("PollType(%d)", uint8(t))
}

// LongPollSpec says how the host frames one long poll command.
type LongPollSpec struct {
	Type PollType
	// Length is the total number of bytes the host sends, address and CRC
	// included. For a variable-length poll it is the part not counted by
	// the length byte (address, command, length byte, two CRC bytes = 5):
	// the total is Length plus the value of the length byte.
	Length int
	// Variable means the third byte is a length: the number of bytes that
	// follow it, CRC excluded.
	Variable bool
	// Global means the host may broadcast the poll to address 0 (it is
	// then executed but never answered).
	Global bool
}

// longPollLength gives, for each long poll the cabinet supports, the frame
// the host sends (the AFT polls join it from aft.go: AFTLongPolls). A zero entry is an unsupported command: the machine does
// not answer it and, framing by content, cannot know its length.
//
// Sources: sas.md lists the commands and the message types; the lengths
// agree with the long-poll table of the open-source Aristocrat Monaco SAS
// client (github.com/tejvirc/Platform, Protocol/SAS/Aristocrat.Sas.Client/
// LongPollTable.cs) and the field layouts documented in its parsers.
var longPollLength = [256]LongPollSpec{
	0x01: {PollS, 4, false, false}, // shut down: finish the game, then no play
	0x02: {PollS, 4, false, false}, // start up
	0x03: {PollS, 4, false, false}, // sound off
	0x04: {PollS, 4, false, false}, // sound on
	0x06: {PollS, 4, false, false}, // enable bill acceptor
	0x07: {PollS, 4, false, false}, // disable bill acceptor
	0x08: {PollS, 9, false, false}, // configure bill denominations: 4-byte mask, action flag
	0x0E: {PollS, 5, false, false}, // real-time event reporting: 1 byte on/off
	0x0F: {PollR, 2, false, false}, // meters 10–15
	0x10: {PollR, 2, false, false}, // total cancelled credits
	0x11: {PollR, 2, false, false}, // total coin in
	0x12: {PollR, 2, false, false}, // total coin out
	0x13: {PollR, 2, false, false}, // total drop
	0x14: {PollR, 2, false, false}, // total jackpot
	0x15: {PollR, 2, false, false}, // games played
	0x16: {PollR, 2, false, false}, // games won
	0x17: {PollR, 2, false, false}, // games lost
	0x18: {PollR, 2, false, false}, // games since power-up and since door closure
	0x19: {PollR, 2, false, false}, // meters 11–15
	0x1A: {PollR, 2, false, false}, // current credits
	0x1B: {PollR, 2, false, false}, // handpay information
	0x1C: {PollR, 2, false, false}, // meters
	0x1E: {PollR, 2, false, false}, // bill meters
	0x1F: {PollR, 2, false, false}, // gaming machine information
	0x20: {PollR, 2, false, false}, // total value of bills
	0x21: {PollS, 6, false, false}, // ROM signature: 2-byte seed
	0x2F: {PollM, 5, true, false},  // selected meters for game N
	0x48: {PollR, 2, false, false}, // last accepted bill
	0x51: {PollR, 2, false, false}, // number of games implemented
	0x55: {PollR, 2, false, false}, // selected game number
	0x56: {PollR, 2, false, false}, // enabled game numbers
	0xB5: {PollS, 6, false, false}, // game N information: game number (2 BCD)
	0x54: {PollR, 2, false, false}, // SAS version and serial number
	0x6F: {PollM, 5, true, false},  // extended meters for game N
	0xAF: {PollM, 5, true, false},  // extended meters for game N (alternate)
	0x7E: {PollR, 2, false, false}, // current date and time
	0x7F: {PollS, 11, false, true}, // set date and time: MMDDYYYY HHMMSS (BCD)
	0x80: {PollS, 11, false, true}, // single-level progressive broadcast: group, level, 5-byte BCD amount
	0x83: {PollM, 6, false, false}, // cumulative progressive wins for game N
	0x84: {PollR, 2, false, false}, // progressive win amount: group, level, 5-byte BCD amount
	0x85: {PollR, 2, false, false}, // SAS progressive win amount: the oldest unread win
	0x86: {PollS, 5, true, true},   // multiple-level progressive broadcast: length, group, level and amount pairs
	0x87: {PollR, 2, false, false}, // multiple SAS progressive win amounts
	0x94: {PollS, 4, false, false}, // remote handpay reset
	0xA0: {PollM, 6, false, false}, // enabled features for game N
	0xB4: {PollS, 8, false, false}, // wager category information: game number, wager category (2 BCD each)
}

// LookupLongPoll returns how the host frames long poll cmd, and false if the
// cabinet does not support it.
func LookupLongPoll(cmd byte) (LongPollSpec, bool) {
	s := longPollLength[cmd]
	return s, s.Type != 0
}

// SupportedLongPolls returns the supported long poll commands in order.
func SupportedLongPolls() []byte {
	var cmds []byte
	for c := range longPollLength {
		if longPollLength[c].Type != 0 {
			cmds = append(cmds, byte(c))
		}
	}
	return cmds
}

// FrameKind tells a general poll from a long poll.
type FrameKind uint8

const (
	// KindGeneral is a general poll: one byte, 0x80|addr, no CRC.
	KindGeneral FrameKind = iota + 1
	// KindLong is a long poll (type R, S, M, or G when addressed to 0).
	KindLong
)

// Frame is one poll from the host.
type Frame struct {
	Kind FrameKind
	// Addr is the address, 0–127 (0: global).
	Addr byte
	// Cmd is the command of a long poll.
	Cmd byte
	// Data is the bytes of a long poll between the command and the CRC,
	// the length byte of a variable-length poll included. Nil for type R.
	// It is a sub-slice of Raw.
	Data []byte
	// Raw is every byte of the frame as the host sent it (PARMRK escapes
	// removed). Link.Receive trusts Raw only.
	Raw []byte
	// Unknown marks a long poll whose command is not supported: its length
	// is unknown, so Raw holds only the address and the command (and,
	// from ParseFrame, whatever followed), and Data is nil.
	Unknown bool
}

// Global reports whether the frame is addressed to every machine.
func (f Frame) Global() bool { return f.Addr == GlobalAddr }

// Type is the poll type of a supported long poll, 0 otherwise.
func (f Frame) Type() PollType {
	if f.Kind != KindLong || f.Unknown {
		return 0
	}
	return longPollLength[f.Cmd].Type
}

// CRCOK reports whether the frame's CRC is right. Frames without a CRC
// (general polls, type R, unknown commands) report true.
func (f Frame) CRCOK() bool {
	switch f.Type() {
	case PollS, PollM:
		return CheckCRC(f.Raw)
	}
	return true
}

func (f Frame) String() string {
	switch f.Kind {
	case KindGeneral:
		return fmt.Sprintf("general poll addr %d", f.Addr)
	case KindLong:
		if f.Unknown {
			return fmt.Sprintf("long poll addr %d cmd %02X (unsupported)", f.Addr, f.Cmd)
		}
		return fmt.Sprintf("long poll addr %d cmd %02X type %v data % X", f.Addr, f.Cmd, f.Type(), f.Data)
	}
	return fmt.Sprintf("frame % X", f.Raw)
}

// Parse errors. ParseFrame wraps ErrShort and ErrLength with details; it
// returns ErrCRC and ErrUnsupported as they are, with the frame filled in.
var (
	ErrShort       = errors.New("sas: frame too short")
	ErrLength      = errors.New("sas: frame length does not match its command")
	ErrUnsupported = errors.New("sas: unsupported long poll")
	ErrCRC         = errors.New("sas: CRC mismatch")
)

// ParseFrame parses one complete poll as the host sends it and checks its
// length against the long-poll table and its CRC. On ErrCRC and
// ErrUnsupported the returned frame is filled in (the link NACKs the
// first and stays silent on the second); on other errors it is not usable.
// The frame's slices alias b.
func ParseFrame(b []byte) (Frame, error) {
	if len(b) == 0 {
		return Frame{}, fmt.Errorf("%w: empty", ErrShort)
	}
	a := b[0]
	if a&GeneralPollBit != 0 {
		if len(b) != 1 {
			return Frame{}, fmt.Errorf("%w: general poll %02X followed by %d bytes", ErrLength, a, len(b)-1)
		}
		return Frame{Kind: KindGeneral, Addr: a &^ GeneralPollBit, Raw: b}, nil
	}
	if len(b) < 2 {
		return Frame{}, fmt.Errorf("%w: long poll to %d without a command", ErrShort, a)
	}
	f := Frame{Kind: KindLong, Addr: a, Cmd: b[1], Raw: b}
	spec, ok := LookupLongPoll(f.Cmd)
	if !ok {
		f.Unknown = true
		return f, ErrUnsupported
	}
	want := spec.Length
	if spec.Variable {
		if len(b) < 3 {
			return Frame{}, fmt.Errorf("%w: long poll %02X without its length byte", ErrShort, f.Cmd)
		}
		want += int(b[2])
	}
	if len(b) != want {
		return Frame{}, fmt.Errorf("%w: long poll %02X is %d bytes, want %d", ErrLength, f.Cmd, len(b), want)
	}
	if spec.Type == PollR {
		return f, nil
	}
	f.Data = b[2 : len(b)-2]
	if !CheckCRC(b) {
		return f, ErrCRC
	}
	return f, nil
}

// GeneralPollFrame returns the general poll for addr, as the host sends it.
func GeneralPollFrame(addr byte) []byte { return []byte{GeneralPollBit | addr&MaxAddr} }

// LongPollFrame builds a long poll as the host sends it: addr cmd data…
// followed by the CRC, except for type R commands (addr cmd and the data,
// if any, without a CRC). Unsupported commands get a CRC. For tests and
// host-side tools; the machine never sends polls.
func LongPollFrame(addr, cmd byte, data ...byte) []byte {
	b := make([]byte, 0, 4+len(data))
	b = append(b, addr&MaxAddr, cmd)
	b = append(b, data...)
	if longPollLength[cmd].Type == PollR {
		return b
	}
	return AppendCRC(b)
}

// BuildReply returns a machine reply to a long poll: addr cmd data… CRC.
func BuildReply(addr, cmd byte, data ...byte) []byte {
	b := make([]byte, 0, 4+len(data))
	b = append(b, addr, cmd)
	b = append(b, data...)
	return AppendCRC(b)
}

// AckReply is the machine's acknowledgement of a long poll: its address.
func AckReply(addr byte) []byte { return []byte{addr} }

// NackReply is the machine's answer to a long poll with a wrong CRC:
// addr|0x80.
func NackReply(addr byte) []byte { return []byte{addr | NackBit} }

// BusyReply tells the host the machine cannot answer now: addr 00.
func BusyReply(addr byte) []byte { return []byte{addr, 0} }

// ParseReply parses a machine's data reply (addr cmd data… CRC) and checks
// its CRC. For host-side tools and tests.
func ParseReply(b []byte) (addr, cmd byte, data []byte, err error) {
	if len(b) < 4 {
		return 0, 0, nil, fmt.Errorf("%w: reply of %d bytes", ErrShort, len(b))
	}
	if !CheckCRC(b) {
		return 0, 0, nil, ErrCRC
	}
	return b[0], b[1], b[2 : len(b)-2], nil
}

// CutPoll takes one poll off the front of a byte stream from a host, as a
// lightweight peer reads it without the wakeup bit's framing (the test
// machines of the ticket system and of the casino floor): a general poll
// (one byte with the top bit) or a long poll whose length the long-poll
// tables give (LookupLongPoll, then TicketPollSpec). Bytes that start
// nothing known are dropped one by one; ok is false while the poll is not
// whole yet.
func CutPoll(in []byte) (frame, rest []byte, ok bool) {
	for len(in) > 0 {
		if in[0]&GeneralPollBit != 0 {
			return in[:1], in[1:], true
		}
		if len(in) < 2 {
			return nil, in, false
		}
		spec, known := LookupLongPoll(in[1])
		if !known {
			spec, known = TicketPollSpec(in[1])
		}
		if !known {
			in = in[1:]
			continue
		}
		n := spec.Length
		if spec.Variable {
			if len(in) < 3 {
				return nil, in, false
			}
			n += int(in[2])
		}
		if len(in) < n {
			return nil, in, false
		}
		return in[:n], in[n:], true
	}
	return nil, in, false
}
