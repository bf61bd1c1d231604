package sas

import (
	"bytes"
	"errors"
	"testing"
	"time"
)

// FuzzFramer feeds random bytes in random chunks with random gaps (some
// longer than 5 ms, some backwards) in both modes. No panic, a bounded
// partial message, and every yielded frame well-formed.
func FuzzFramer(f *testing.F) {
	f.Add([]byte{0x80, 0x81, 0x01, 0x1A}, []byte{0x11, 0x90}, false)
	f.Add(parmrk([]byte{0x81}, LongPollFrame(1, 0x2F, 4, 0, 0, 0, 0x0C), []byte{0x01, 0x72, 0xFF}), []byte{3, 0xF2}, true)
	f.Add([]byte{0xFF, 0x00, 0xFF, 0xFF, 0xFF, 0xFF, 0x12, 0xFF}, []byte{0x01}, true)
	f.Add(LongPollFrame(0, 0x86, 2, 1, 1), []byte{0x45, 0x80, 0x07}, false)
	f.Fuzz(func(t *testing.T, data, chunks []byte, usePARMRK bool) {
		mode := ModeContent
		if usePARMRK {
			mode = ModePARMRK
		}
		fr := NewFramer(mode)
		now := t0
		for i := 0; len(data) > 0; i++ {
			k, gap := len(data), time.Duration(0)
			if i < len(chunks) {
				c := chunks[i]
				k = min(len(data), 1+int(c&0x0F))
				switch c >> 6 {
				case 1:
					gap = time.Duration(c&0x3F) * 100 * time.Microsecond // up to 6.3 ms
				case 2:
					gap = time.Duration(c&0x3F) * time.Second
				case 3:
					gap = -time.Duration(c&0x3F) * time.Millisecond
				}
			}
			now = now.Add(gap)
			for _, fm := range fr.Feed(data[:k], now) {
				checkFrameWellFormed(t, fm)
			}
			data = data[k:]
			if fr.n < 0 || fr.n > maxFrame || (fr.need != 0 && fr.n >= fr.need) {
				t.Fatalf("framer state n=%d need=%d", fr.n, fr.need)
			}
		}
		fr.Feed(nil, now.Add(time.Hour))
		if fr.n != 0 {
			t.Fatal("partial message survives a gap")
		}
	})
}

// FuzzLink feeds random frames (well-formed or not) with random time
// steps and random exception pushes and deferred replies to a link. No
// panic; no reply to another address or a global poll; to a frame with a
// wrong CRC no reply but the NACK; every reply is one of the SAS shapes.
func FuzzLink(f *testing.F) {
	f.Add([]byte{0x01, 0x80, 0x01, 0x81, 0x02, 0x01, 0x1A, 0x01, 0x81, 0x01, 0x81}, byte(1))
	f.Add(append([]byte{0x01, 0x82, 0x04}, LongPollFrame(1, 0x21, 0x12, 0x34)...), byte(1))
	f.Add([]byte{0x02, 0x01, 0x1F, 0x04, 0x01, 0x01, 0x51, 0x09, 0x01, 0x81}, byte(1))
	f.Fuzz(func(t *testing.T, data []byte, addr byte) {
		l := NewLink(addr)
		l.Handler = HandlerFunc(func(r Request) Reply {
			switch r.Cmd % 4 {
			case 0:
				return ReplyData(r.Data...)
			case 1:
				return ReplyAck()
			case 2:
				return ReplyBusy()
			}
			return NoReply()
		})
		now := t0
		for len(data) > 0 {
			// Control byte: low 4 bits frame length, bit 4-5 time step,
			// bit 6 push an exception, bit 7 defer a reply.
			c := data[0]
			data = data[1:]
			n := min(len(data), int(c&0x0F))
			raw := data[:n]
			data = data[n:]
			now = now.Add([]time.Duration{time.Millisecond, 60 * time.Millisecond, 2 * time.Second, -time.Second}[c>>4&3])
			if c&0x40 != 0 && n > 0 {
				l.Exceptions.Push(Exception(raw[n-1]))
			}
			if c&0x80 != 0 && n > 0 {
				l.Defer(raw[0], raw...)
			}
			l.Tick(now)
			l.Chirp(now)
			reply, ev := l.Receive(Frame{Raw: raw}, now)
			if reply == nil {
				continue
			}
			g, err := ParseFrame(raw)
			if err != nil && !errors.Is(err, ErrCRC) && !errors.Is(err, ErrUnsupported) {
				t.Fatalf("reply % X to a malformed frame % X", reply, raw)
			}
			if l.Addr() == GlobalAddr || g.Addr != l.Addr() {
				t.Fatalf("reply % X to % X, not addressed to %d", reply, raw, l.Addr())
			}
			if errors.Is(err, ErrCRC) {
				if !bytes.Equal(reply, NackReply(l.Addr())) || ev.Kind != EventNacked {
					t.Fatalf("reply % X (%v) to a bad CRC % X", reply, ev.Kind, raw)
				}
				continue
			}
			switch {
			case len(reply) == 1 && g.Kind == KindGeneral: // an exception code
			case bytes.Equal(reply, AckReply(l.Addr())), bytes.Equal(reply, BusyReply(l.Addr())):
				if g.Kind != KindLong {
					t.Fatalf("ACK/busy % X to a general poll", reply)
				}
			default:
				a, _, _, err := ParseReply(reply)
				if err != nil || a != l.Addr() {
					t.Fatalf("reply % X to % X: %v", reply, raw, err)
				}
			}
		}
	})
}
