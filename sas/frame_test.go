package sas

import (
	"bytes"
	"errors"
	"slices"
	"testing"
)

// The commands the brief lists as supported.
var briefCommands = []byte{0x01, 0x02, 0x03, 0x04, 0x06, 0x07, 0x08, 0x0E, 0x0F,
	0x10, 0x11, 0x12, 0x13, 0x14, 0x15, 0x16, 0x17, 0x18, 0x19, 0x1A,
	0x1B, 0x1C, 0x1E, 0x1F, 0x20, 0x21, 0x2F, 0x48, 0x54, 0x6F, 0xAF, 0x7E, 0x7F,
	0x80, 0x83, 0x84, 0x85, 0x86, 0x87, 0x94, 0xA0, 0xB4,
	0x51, 0x55, 0x56, 0xB5, // the multi-game polls (issue 16)
	0x72, 0x73, 0x74, 0x75, // AFT (issue 17; 75: receipt data)
	0x4C, 0x4D, 0x57, 0x58, 0x70, 0x71, 0x7D, // tickets (issue 17)
	0x50, 0x7B, 0x7C} // validation meters and extensions (issue 17)

func TestLongPollTableCoversSupported(t *testing.T) {
	want := slices.Clone(briefCommands)
	slices.Sort(want)
	if got := SupportedLongPolls(); !bytes.Equal(got, want) {
		t.Fatalf("SupportedLongPolls() = % X\nwant                 % X", got, want)
	}
	for _, c := range briefCommands {
		s, ok := LookupLongPoll(c)
		if !ok {
			t.Fatalf("%02X missing", c)
		}
		switch {
		case s.Type == PollR && (s.Length != 2 || s.Variable):
			t.Errorf("%02X: type R must be 2 bytes, fixed: %+v", c, s)
		case s.Variable && s.Length != 5:
			t.Errorf("%02X: variable polls carry addr cmd len + CRC outside the length: %+v", c, s)
		case s.Type != PollR && s.Length < 4:
			t.Errorf("%02X: S/M polls have at least addr cmd CRC: %+v", c, s)
		case s.Type == PollM && !s.Variable && s.Length != 6:
			t.Errorf("%02X: fixed M polls are addr cmd game(2) CRC: %+v", c, s)
		}
	}
	// Spot checks against the field layouts (sas.md and the Aristocrat
	// client's parser documentation).
	for c, n := range map[byte]int{0x01: 4, 0x08: 9, 0x0E: 5, 0x1A: 2, 0x21: 6, 0x7F: 11, 0x80: 11, 0x83: 6, 0x94: 4, 0xA0: 6} {
		if s, _ := LookupLongPoll(c); s.Length != n || s.Variable {
			t.Errorf("%02X: %+v, want fixed length %d", c, s, n)
		}
	}
	for _, c := range []byte{0x2F, 0x6F, 0xAF, 0x86} {
		if s, _ := LookupLongPoll(c); !s.Variable {
			t.Errorf("%02X must be variable-length", c)
		}
	}
	for _, c := range SupportedLongPolls() {
		s, _ := LookupLongPoll(c)
		if s.Global != (c == 0x7F || c == 0x80 || c == 0x86 || c == 0x7D || c == 0x7C) {
			t.Errorf("%02X: Global = %v", c, s.Global)
		}
	}
	if _, ok := LookupLongPoll(0x76); ok {
		t.Error("AFT 0x76 (custom ticket data) is not supported and must not be in the table")
	}
}

// samplePoll builds a well-formed poll of cmd to addr with the right
// amount of data.
func samplePoll(addr, cmd byte) []byte {
	s, _ := LookupLongPoll(cmd)
	if s.Type == PollR {
		return []byte{addr, cmd}
	}
	var data []byte
	if s.Variable {
		data = []byte{4, 0x00, 0x01, 0x00, 0x0C}
	} else {
		data = make([]byte, s.Length-4)
		for i := range data {
			data[i] = byte(0x11 * (i + 1))
		}
	}
	return LongPollFrame(addr, cmd, data...)
}

func TestParseEveryLongPoll(t *testing.T) {
	for _, c := range SupportedLongPolls() {
		raw := samplePoll(5, c)
		f, err := ParseFrame(raw)
		if err != nil {
			t.Fatalf("%02X: ParseFrame(% X): %v", c, raw, err)
		}
		s, _ := LookupLongPoll(c)
		if f.Kind != KindLong || f.Addr != 5 || f.Cmd != c || f.Type() != s.Type || !f.CRCOK() || f.Unknown {
			t.Fatalf("%02X: %+v", c, f)
		}
		if s.Type == PollR {
			if f.Data != nil {
				t.Errorf("%02X: type R with data % X", c, f.Data)
			}
			if _, err := ParseFrame(append(bytes.Clone(raw), 0)); !errors.Is(err, ErrLength) {
				t.Errorf("%02X: extra byte: %v", c, err)
			}
			continue
		}
		if !bytes.Equal(f.Data, raw[2:len(raw)-2]) {
			t.Errorf("%02X: Data = % X", c, f.Data)
		}
		bad := bytes.Clone(raw)
		bad[len(bad)-1] ^= 0x40
		if g, err := ParseFrame(bad); !errors.Is(err, ErrCRC) || g.Cmd != c || g.CRCOK() {
			t.Errorf("%02X: bad CRC: %v %+v", c, err, g)
		}
		if _, err := ParseFrame(raw[:len(raw)-1]); !errors.Is(err, ErrLength) && !errors.Is(err, ErrShort) {
			t.Errorf("%02X: short frame: %v", c, err)
		}
		if _, err := ParseFrame(append(bytes.Clone(raw), 0)); !errors.Is(err, ErrLength) {
			t.Errorf("%02X: long frame: %v", c, err)
		}
	}
}

func TestParseFrameKinds(t *testing.T) {
	f, err := ParseFrame(GeneralPollFrame(0x21))
	if err != nil || f.Kind != KindGeneral || f.Addr != 0x21 || f.Global() || !f.CRCOK() {
		t.Fatalf("general poll: %+v %v", f, err)
	}
	if f, err := ParseFrame([]byte{0x80}); err != nil || !f.Global() || f.Kind != KindGeneral {
		t.Fatalf("global general poll: %+v %v", f, err)
	}
	// Type G: a broadcast long poll (0x7F set date and time to address 0).
	g := LongPollFrame(0, 0x7F, 0x11, 0x30, 0x20, 0x26, 0x14, 0x30, 0x15)
	if f, err := ParseFrame(g); err != nil || !f.Global() || f.Cmd != 0x7F || len(f.Data) != 7 {
		t.Fatalf("global long poll: %+v %v", f, err)
	}
	// Type M: a game number in the data.
	m := LongPollFrame(1, 0x83, 0x00, 0x01)
	if f, err := ParseFrame(m); err != nil || f.Type() != PollM || !bytes.Equal(f.Data, []byte{0, 1}) {
		t.Fatalf("type M: %+v %v", f, err)
	}
	// The public frame 01 01 51 08 (shutdown) is a valid type S poll.
	if f, err := ParseFrame([]byte{0x01, 0x01, 0x51, 0x08}); err != nil || f.Type() != PollS || f.Cmd != 0x01 {
		t.Fatalf("01 01 51 08: %+v %v", f, err)
	}
	if f, err := ParseFrame([]byte{3, 0x76, 1, 2}); !errors.Is(err, ErrUnsupported) || !f.Unknown || f.Addr != 3 || f.Cmd != 0x76 {
		t.Fatalf("unsupported: %+v %v", f, err)
	}
	for _, bad := range [][]byte{nil, {0x01}, {0x81, 0x00}, {0x01, 0x2F}} {
		if _, err := ParseFrame(bad); err == nil || errors.Is(err, ErrCRC) || errors.Is(err, ErrUnsupported) {
			t.Errorf("ParseFrame(% X) error = %v", bad, err)
		}
	}
}

func TestReplies(t *testing.T) {
	if got := AckReply(0x05); !bytes.Equal(got, []byte{0x05}) {
		t.Errorf("ACK = % X", got)
	}
	if got := NackReply(0x05); !bytes.Equal(got, []byte{0x85}) {
		t.Errorf("NACK = % X", got)
	}
	if got := BusyReply(0x05); !bytes.Equal(got, []byte{0x05, 0x00}) {
		t.Errorf("busy = % X", got)
	}
	r := BuildReply(0x01, 0x1A, 0x00, 0x01, 0x23, 0x45)
	if want := []byte{0x01, 0x1A, 0x00, 0x01, 0x23, 0x45, 0xED, 0xBA}; !bytes.Equal(r, want) {
		t.Fatalf("BuildReply = % X, want % X", r, want)
	}
	a, c, d, err := ParseReply(r)
	if err != nil || a != 1 || c != 0x1A || !bytes.Equal(d, []byte{0, 1, 0x23, 0x45}) {
		t.Fatalf("ParseReply: %d %02X % X %v", a, c, d, err)
	}
	r[3] ^= 1
	if _, _, _, err := ParseReply(r); !errors.Is(err, ErrCRC) {
		t.Fatalf("ParseReply with a bad CRC: %v", err)
	}
	if _, _, _, err := ParseReply([]byte{1, 2, 3}); !errors.Is(err, ErrShort) {
		t.Fatalf("ParseReply short: %v", err)
	}
	if got := LongPollFrame(1, 0x1A); !bytes.Equal(got, []byte{1, 0x1A}) {
		t.Errorf("type R poll = % X", got)
	}
	if got := LongPollFrame(1, 0x01); !bytes.Equal(got, []byte{1, 1, 0x51, 0x08}) {
		t.Errorf("type S poll = % X", got)
	}
}
