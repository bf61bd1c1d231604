package host

import (
	"bytes"
	"errors"
	"net"
	"testing"
	"time"

	"github.com/openegm/cabinet/sas"
)

const addr = 0x05

func TestParseResponse(t *testing.T) {
	data := sas.BuildReply(addr, 0x1A, 0x00, 0x00, 0x12, 0x34)
	badCRC := bytes.Clone(data)
	badCRC[len(badCRC)-1] ^= 1
	cases := []struct {
		name string
		cmd  byte
		raw  []byte
		kind ReplyKind
		err  bool
	}{
		{"none", 0x1A, nil, ReplyNone, false},
		{"ack", 0x01, []byte{addr}, ReplyAck, false},
		{"nack", 0x01, []byte{addr | 0x80}, ReplyNack, false},
		{"busy", 0x1A, []byte{addr, 0}, ReplyBusy, false},
		{"data", 0x1A, data, ReplyData, false},
		{"bad crc", 0x1A, badCRC, 0, true},
		{"other cmd", 0x1B, data, 0, true},
		{"other addr", 0x1A, sas.BuildReply(addr+1, 0x1A, 0, 0, 0, 0), 0, true},
		{"wrong length", 0x1A, sas.BuildReply(addr, 0x1A, 0, 0, 0), 0, true},
		{"stray byte", 0x1A, []byte{0x42}, 0, true},
		{"variable", 0x54, sas.BuildReply(addr, 0x54, 4, '6', '0', '2', 'X'), ReplyData, false},
		{"variable, bad length", 0x54, sas.BuildReply(addr, 0x54, 5, '6', '0', '2', 'X'), 0, true},
	}
	for _, c := range cases {
		r, err := ParseResponse(addr, c.cmd, c.raw)
		if (err != nil) != c.err {
			t.Errorf("%s: err %v", c.name, err)
			continue
		}
		if err != nil {
			if !errors.Is(err, ErrBadReply) {
				t.Errorf("%s: %v is not ErrBadReply", c.name, err)
			}
			continue
		}
		if r.Kind != c.kind {
			t.Errorf("%s: kind %v, want %v", c.name, r.Kind, c.kind)
		}
	}
	r, _ := ParseResponse(addr, 0x1A, data)
	if v, err := DecodeCredits(r.Data); err != nil || v != 1234 {
		t.Errorf("credits %d %v", v, err)
	}
}

func TestParseGeneral(t *testing.T) {
	g, err := ParseGeneral(addr, []byte{0x51})
	if err != nil || g.Exception != sas.ExcHandpayPending || g.Name != "handpay pending" || g.Long != nil {
		t.Errorf("exception: %+v %v", g, err)
	}
	// The address as an exception code.
	if g, err := ParseGeneral(addr, []byte{addr}); err != nil || g.Exception != addr {
		t.Errorf("code = address: %+v %v", g, err)
	}
	g, err = ParseGeneral(addr, sas.BuildReply(addr, 0x21, 0x34, 0x12))
	if err != nil || g.Long == nil || g.Long.Cmd != 0x21 || g.Exception != sas.ExcNone {
		t.Fatalf("deferred: %+v %v", g, err)
	}
	if sig, err := DecodeSignature(g.Long.Data); err != nil || sig != 0x1234 {
		t.Errorf("signature %04X %v", sig, err)
	}
	rte := sas.BuildReply(addr, 0xFF, 0x7F, 0x00, 0x00, 0x01, 0x00)
	g, err = ParseGeneral(addr, rte)
	if err != nil || !g.RealTime || g.Exception != sas.ExcGameEnded || !bytes.Equal(g.EventData, []byte{0, 0, 1, 0}) {
		t.Errorf("real-time event: %+v %v", g, err)
	}
	for _, raw := range [][]byte{nil, {addr, 0x21}, sas.BuildReply(addr+1, 0x21, 0, 0)} {
		if _, err := ParseGeneral(addr, raw); err == nil {
			t.Errorf("% X accepted", raw)
		}
	}
}

func TestReplyLengthAndComplete(t *testing.T) {
	full := sas.BuildReply(addr, 0x1C, make([]byte, 32)...)
	if n, ok := ReplyLength(full[:2]); !ok || n != 36 || n != len(full) {
		t.Fatalf("1C length %d %v", n, ok)
	}
	lc := longComplete(addr, 0x1C)
	for i := 1; i < len(full); i++ {
		if lc(full[:i]) {
			t.Fatalf("complete after %d of %d bytes", i, len(full))
		}
	}
	if !lc(full) {
		t.Fatal("full reply not complete")
	}
	if !lc([]byte{addr | 0x80}) || !lc([]byte{addr, 0}) || lc([]byte{addr}) {
		t.Fatal("NACK and busy are complete at once, an ACK only after the gap")
	}
	gc := generalComplete(addr)
	if !gc([]byte{0x7E}) || gc([]byte{addr}) {
		t.Fatal("general poll completion")
	}
	def := sas.BuildReply(addr, 0x21, 1, 2)
	if gc(def[:5]) || !gc(def) {
		t.Fatal("deferred reply completion")
	}
	v := sas.BuildReply(addr, 0x6F, 3, 0, 0, 0)
	if n, ok := ReplyLength(v); !ok || n != len(v) {
		t.Fatalf("6F length %d %v", n, ok)
	}
	if _, ok := ReplyLength([]byte{addr, 0x6F}); ok {
		t.Fatal("variable length known without its length byte")
	}
}

func TestDecodeMeters(t *testing.T) {
	src := meterMap{0x04: 55, 0x00: 123, 0x01: 99999999, 0x24: 7, 0x05: 1, 0x06: 0, 0x0D: 1234567890, 0xFF01: 3, 0xFF02: 4, 0x02: 5}
	for _, cmd := range []byte{0x0F, 0x10, 0x11, 0x1C, 0x19} {
		data, ok := sas.MeterResponse(cmd, nil, src)
		if !ok {
			t.Fatalf("%02X: no response", cmd)
		}
		ms, err := DecodeMeters(cmd, data)
		if err != nil {
			t.Fatalf("%02X: %v", cmd, err)
		}
		for _, m := range ms {
			if m.Value != src[uint16(m.Code)] || m.Name != m.Code.Name() {
				t.Errorf("%02X: %+v", cmd, m)
			}
		}
	}
	codes := []sas.MeterCode{0x00, 0x01, 0x0D, 0x33, 0x24}
	for _, ext := range []bool{false, true} {
		req := SelectedMetersData(0, codes, ext)
		cmd := byte(0x2F)
		if ext {
			cmd = 0x6F
		}
		data, ok := sas.MeterResponse(cmd, req, src)
		if !ok {
			t.Fatalf("%02X: no response to % X", cmd, req)
		}
		ms, err := DecodeMeters(cmd, data)
		if err != nil {
			t.Fatalf("%02X: %v", cmd, err)
		}
		if len(ms) != 4 { // 0x33 is not kept
			t.Fatalf("%02X: %+v", cmd, ms)
		}
		for _, m := range ms {
			if m.Value != src[uint16(m.Code)] {
				t.Errorf("%02X: %+v", cmd, m)
			}
		}
	}
	if _, err := DecodeMeters(0x1C, make([]byte, 31)); err == nil {
		t.Error("short 1C accepted")
	}
	if _, err := DecodeMeters(0x11, []byte{0x12, 0x3A, 0, 0}); err == nil {
		t.Error("non-BCD accepted")
	}
}

type meterMap map[uint16]uint64

func (m meterMap) Meter(c uint16) (uint64, bool) { v, ok := m[c]; return v, ok }

func TestDecoders(t *testing.T) {
	when := time.Date(2026, 2, 28, 7, 5, 9, 0, time.UTC)
	enc := EncodeTime(when)
	if !bytes.Equal(enc, []byte{0x02, 0x28, 0x20, 0x26, 0x07, 0x05, 0x09}) {
		t.Fatalf("EncodeTime % X", enc)
	}
	if got, err := DecodeTime(enc, time.UTC); err != nil || !got.Equal(when) {
		t.Errorf("DecodeTime %v %v", got, err)
	}
	if _, err := DecodeTime([]byte{0x13, 0x01, 0x20, 0x26, 0, 0, 0}, nil); err == nil {
		t.Error("month 13 accepted")
	}
	info := append([]byte("XY123"), 0x02, 0xFF, 0x07, 0x01, 0x80)
	info = append(info, "P12345"...)
	info = append(info, "9000"...)
	mi, err := DecodeMachineInfo(info)
	if err != nil || mi.GameID != "XY" || mi.AdditionalID != "123" || mi.MaxBet != 0xFF || mi.GameOptions != 0x8001 ||
		mi.PaytableID != "P12345" || mi.BasePercent != "90.00" || mi.ProgressiveGroup != 7 || mi.Denomination != 2 {
		t.Errorf("1F %+v %v", mi, err)
	}
	si, err := DecodeSASInfo(append([]byte{6}, "603S/N"...))
	if err != nil || si.Version != "6.03" || si.Serial != "S/N" {
		t.Errorf("54 %+v %v", si, err)
	}
	hp := []byte{1, 2}
	hp = sas.AppendBCD(hp, 12345, 5)
	hp = sas.AppendBCD(hp, 50, 2)
	hp = append(hp, 9)
	h, err := DecodeHandpay(append(hp, make([]byte, 10)...))
	if err != nil || h != (Handpay{ProgressiveGroup: 1, Level: 2, Amount: 12345, PartialPay: 50, ResetID: 9}) {
		t.Errorf("1B %+v %v", h, err)
	}
	if !bytes.Equal(SeedData(0xABCD), []byte{0xCD, 0xAB}) {
		t.Error("seed byte order")
	}
}

// fakePort is an in-memory Port: Read serves rx, Write records tx.
type fakePort struct {
	mode sas.FramerMode
	rx   [][]byte
	tx   []byte
	wake []byte
}

func (p *fakePort) Read(b []byte) (int, error) {
	if len(p.rx) == 0 {
		return 0, errDeadline
	}
	if p.rx[0] == nil { // a pause: the reply before it has ended
		p.rx = p.rx[1:]
		return 0, errDeadline
	}
	n := copy(b, p.rx[0])
	p.rx = p.rx[1:]
	return n, nil
}
func (p *fakePort) Write(b []byte) (int, error)     { p.tx = append(p.tx, b...); return len(b), nil }
func (p *fakePort) Close() error                    { return nil }
func (p *fakePort) SetReadDeadline(time.Time) error { return nil }
func (p *fakePort) WriteWakeup(b byte) error {
	p.wake = append(p.wake, b)
	p.tx = append(p.tx, b)
	return nil
}
func (p *fakePort) Framing() sas.FramerMode { return p.mode }
func (p *fakePort) FlushInput() error       { return nil }

var errDeadline = deadlineErr{}

type deadlineErr struct{}

func (deadlineErr) Error() string   { return "deadline" }
func (deadlineErr) Timeout() bool   { return true }
func (deadlineErr) Is(e error) bool { return e == osErrDeadline }

// TestWriteFraming: the bytes a poll becomes on each kind of port.
func TestWriteFraming(t *testing.T) {
	poll := sas.LongPollFrame(addr, 0x21, 0xFF, 0xFF)
	// Content framing: as is, after the first-poll global sync.
	p := &fakePort{mode: sas.ModeContent, rx: [][]byte{{addr}}}
	c := New(p, Options{Addr: addr, Retries: -1, Gap: time.Millisecond})
	if r, err := c.LongPoll(0x21, 0xFF, 0xFF); err != nil || r.Kind != ReplyAck {
		t.Fatalf("content: %+v %v", r, err)
	}
	if want := append([]byte{0x80}, poll...); !bytes.Equal(p.tx, want) {
		t.Errorf("content wrote % X, want % X", p.tx, want)
	}
	// Escaped: FF 00 before each message, FF doubled; one write.
	p = &fakePort{mode: sas.ModeContent, rx: [][]byte{{addr}}}
	c = New(p, Options{Addr: addr, Retries: -1, Gap: time.Millisecond, Escape: true})
	c.LongPoll(0x21, 0xFF, 0xFF)
	fr := sas.NewFramer(sas.ModePARMRK)
	fs := fr.Feed(p.tx, time.Now())
	if len(fs) != 2 || fs[0].Kind != sas.KindGeneral || fs[0].Addr != 0 || !bytes.Equal(fs[1].Raw, poll) {
		t.Errorf("escaped wrote % X: frames %v", p.tx, fs)
	}
	// Serial: the wakeup bit through WriteWakeup on the first byte of each
	// message; input unescaped, chirps dropped.
	reply := sas.BuildReply(addr, 0x1A, 0, 0, 0, 0x42)
	var esc []byte
	for _, b := range reply {
		if b == 0xFF {
			esc = append(esc, 0xFF)
		}
		esc = append(esc, b)
	}
	p = &fakePort{mode: sas.ModePARMRK, rx: [][]byte{{0xFF, 0x00, addr}, esc[:3], esc[3:]}}
	c = New(p, Options{Addr: addr, Retries: -1})
	cr, err := c.Credits()
	if err != nil || cr != 42 {
		t.Fatalf("serial credits %d %v", cr, err)
	}
	if !bytes.Equal(p.wake, []byte{0x80, addr}) || !bytes.Equal(p.tx, []byte{0x80, addr, 0x1A}) {
		t.Errorf("serial wakeup % X, wrote % X", p.wake, p.tx)
	}
	if c.Chirps() != 1 {
		t.Errorf("chirps %d", c.Chirps())
	}
}

// TestRetry: a garbled reply, a NACK and silence make the host repeat the
// same poll; an identical new poll is preceded by a global poll (the
// host moving on).
func TestRetry(t *testing.T) {
	good := sas.BuildReply(addr, 0x1A, 0, 0, 0, 7)
	garbled := bytes.Clone(good)
	garbled[3] ^= 0x10
	p := &fakePort{mode: sas.ModeContent, rx: [][]byte{garbled, nil, {addr | 0x80}, nil, good}}
	c := New(p, Options{Addr: addr, Retries: 3, Timeout: time.Millisecond, Gap: time.Millisecond})
	r, err := c.LongPoll(0x1A)
	if err != nil || r.Attempts != 3 {
		t.Fatalf("%+v %v", r, err)
	}
	if want := []byte{0x80, addr, 0x1A, addr, 0x1A, addr, 0x1A}; !bytes.Equal(p.tx, want) {
		t.Errorf("wrote % X, want % X", p.tx, want)
	}
	p.tx, p.rx = nil, [][]byte{good}
	if _, err := c.LongPoll(0x1A); err != nil {
		t.Fatal(err)
	}
	if want := []byte{0x80, addr, 0x1A}; !bytes.Equal(p.tx, want) {
		t.Errorf("second identical poll wrote % X, want % X", p.tx, want)
	}
	// Close moves on: a global poll acknowledges the last reply.
	p.tx = nil
	c.Close()
	if !bytes.Equal(p.tx, []byte{0x80}) {
		t.Errorf("Close wrote % X", p.tx)
	}
	// Silence on every attempt.
	p.tx, p.rx = nil, nil
	if _, err := c.LongPoll(0x1A); !errors.Is(err, ErrNoReply) {
		t.Fatalf("silence: %v", err)
	}
	// After a failure an identical poll is a repeat: no global poll.
	p.tx, p.rx = nil, [][]byte{good}
	if _, err := c.LongPoll(0x1A); err != nil || !bytes.Equal(p.tx, []byte{addr, 0x1A}) {
		t.Fatalf("after failure wrote % X, %v", p.tx, err)
	}
}

// TestStreamPipe runs a client over net.Pipe with a scripted machine.
func TestStreamPipe(t *testing.T) {
	a, b := net.Pipe()
	defer a.Close()
	defer b.Close()
	c := New(sas.NewStreamPort(a, sas.ModeContent), Options{Addr: addr})
	go func() {
		buf := make([]byte, 16)
		for {
			n, err := b.Read(buf)
			if err != nil {
				return
			}
			if buf[n-1] == 0x80|addr {
				b.Write([]byte{byte(sas.ExcBillJam)})
			}
		}
	}()
	g, err := c.GeneralPoll()
	if err != nil || g.Exception != sas.ExcBillJam {
		t.Fatalf("%+v %v", g, err)
	}
}

// TestPortFailureIsErrPort: a link that is gone (the machine end closed)
// is ErrPort, which a host reconnects on; silence and NACKs are not.
func TestPortFailureIsErrPort(t *testing.T) {
	a, b := net.Pipe()
	c := New(sas.NewStreamPort(a, sas.ModeContent), Options{Addr: addr, Timeout: 5 * time.Millisecond})
	go func() {
		buf := make([]byte, 16)
		for { // the polls, never answered, until the machine end closes
			if _, err := b.Read(buf); err != nil {
				return
			}
		}
	}()
	if _, err := c.GeneralPoll(); !errors.Is(err, ErrNoReply) || errors.Is(err, ErrPort) {
		t.Fatalf("silence: %v", err)
	}
	b.Close()
	if _, err := c.GeneralPoll(); !errors.Is(err, ErrPort) {
		t.Fatalf("closed link: %v", err)
	}
	a.Close()
}
