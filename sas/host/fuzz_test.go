package host

import (
	"testing"
	"time"

	"github.com/openegm/cabinet/sas"
)

// FuzzReplyParser: no input makes the host's reply parsing panic: the
// classification of answers to long and general polls, the completion
// rules, the PARMRK unescaping of a serial port's input, and every
// decoder. Whatever it accepts as a data reply has a good CRC.
func FuzzReplyParser(f *testing.F) {
	f.Add(byte(addr), byte(0x1C), sas.BuildReply(addr, 0x1C, make([]byte, 32)...))
	f.Add(byte(addr), byte(0x6F), sas.BuildReply(addr, 0x6F, 8, 0, 0, 0, 0, 4, 0x12, 0x34, 0x56, 0x78))
	f.Add(byte(addr), byte(0x2F), sas.BuildReply(addr, 0x2F, 8, 0, 0, 0x0D, 1, 2, 3, 4, 5))
	f.Add(byte(addr), byte(0x54), sas.BuildReply(addr, 0x54, 4, '6', '0', '2', 'X'))
	f.Add(byte(addr), byte(0x21), sas.BuildReply(addr, 0x21, 0xFF, 0xFF))
	f.Add(byte(addr), byte(0xFF), sas.BuildReply(addr, 0xFF, 0x7E, 0, 1, 0, 0, 0, 1, 0, 0))
	f.Add(byte(addr), byte(0x01), []byte{addr})
	f.Add(byte(addr), byte(0x01), []byte{0xFF, 0x00, addr, 0xFF, 0xFF, 0xFF})
	f.Add(byte(1), byte(0x7E), []byte{})
	f.Fuzz(func(t *testing.T, a, cmd byte, raw []byte) {
		if r, err := ParseResponse(a, cmd, raw); err == nil && r.Kind == ReplyData && !sas.CheckCRC(raw) {
			t.Fatalf("data reply % X accepted with a bad CRC", raw)
		}
		if g, err := ParseGeneral(a, raw); err == nil && len(raw) > 1 && !sas.CheckCRC(raw) {
			t.Fatalf("general reply % X accepted with a bad CRC: %+v", raw, g)
		}
		ReplyLength(raw)
		lc, gc := longComplete(a, cmd), generalComplete(a)
		for i := 1; i <= len(raw); i++ {
			lc(raw[:i])
			gc(raw[:i])
		}
		for _, c := range []byte{cmd, 0x0F, 0x18, 0x1C, 0x2F, 0x6F, 0xAF} {
			if ms, err := DecodeMeters(c, raw); err == nil {
				for _, m := range ms {
					if m.Size < 1 || m.Size > 9 {
						t.Fatalf("meter size %d", m.Size)
					}
				}
			}
		}
		DecodeMachineInfo(raw)
		DecodeSASInfo(raw)
		DecodeHandpay(raw)
		DecodeTime(raw, time.UTC)
		DecodeCredits(raw)
		DecodeSignature(raw)

		c := New(&fakePort{mode: sas.ModePARMRK}, Options{Addr: a})
		out := c.unescape(append([]byte(nil), raw...))
		if len(out) > len(raw) {
			t.Fatalf("unescape grew % X to % X", raw, out)
		}
	})
}
