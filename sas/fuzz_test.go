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
			// bit 6 push an exception (with the frame as its real-time
			// event when its length is even), bit 7 defer a reply, bits 6
			// and 7 together also toggle real-time event reporting.
			c := data[0]
			data = data[1:]
			n := min(len(data), int(c&0x0F))
			raw := data[:n]
			data = data[n:]
			now = now.Add([]time.Duration{time.Millisecond, 60 * time.Millisecond, 2 * time.Second, -time.Second}[c>>4&3])
			if c&0x40 != 0 && n > 0 {
				if n%2 == 0 {
					l.Exceptions.PushEvent(ExceptionEvent{Code: Exception(raw[n-1]), Event: raw})
				} else {
					l.Exceptions.Push(Exception(raw[n-1]))
				}
			}
			if c&0xC0 == 0xC0 {
				l.RealTime = !l.RealTime
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

// FuzzExceptionQueue: UnmarshalBinary (versions 1 and 2) never panics,
// leaves the queue unchanged on error, and what it accepts encodes back to
// the same bytes and reports events no longer than MaxEventBody.
func FuzzExceptionQueue(f *testing.F) {
	q := NewExceptionQueue(20)
	q.Push(ExcSlotDoorOpened)
	v1, _ := q.MarshalBinary()
	q.PushEvent(ExceptionEvent{Code: ExcGameEnded, Event: GameEndedEvent(GameEnded{Win: 5})})
	q.Push(ExcHandpayPending)
	v2, _ := q.MarshalBinary()
	f.Add(v1)
	f.Add(v2)
	f.Add([]byte{2, 20, 0, 0, 1, 0, 0x11, 1, 0x00})
	f.Fuzz(func(t *testing.T, data []byte) {
		var r ExceptionQueue
		r.Push(ExcBillJam)
		before, _ := r.MarshalBinary()
		if err := r.UnmarshalBinary(data); err != nil {
			if after, _ := r.MarshalBinary(); !bytes.Equal(after, before) {
				t.Fatal("a failed UnmarshalBinary changed the queue")
			}
			return
		}
		again, _ := r.MarshalBinary()
		var r2 ExceptionQueue
		if err := r2.UnmarshalBinary(again); err != nil {
			t.Fatalf("re-encoding % X does not decode: %v", again, err)
		}
		if b, _ := r2.MarshalBinary(); !bytes.Equal(b, again) {
			t.Fatal("encoding not stable")
		}
		for range r.Len() + 1 {
			if ev := r.NextEvent(); len(ev) > MaxEventBody || (ev != nil && ev[0] == 0) {
				t.Fatalf("event % X", ev)
			}
			r.Ack()
		}
	})
}

// FuzzRealTimeData: the decoders of 0x08, 0x48, 0xA0 and the real-time
// events never panic, and what they accept encodes back to the same bytes.
func FuzzRealTimeData(f *testing.F) {
	f.Add(byte(0x7E), []byte{0x00, 0x30, 0x01, 0x00, 0x00, 0x00, 0xC1, 0x06})
	f.Add(byte(0x4F), []byte{0x39, 0x06, 0x00, 0x00, 0x00, 0x07})
	f.Add(byte(0xA0), []byte{0x00, 0x00, 0x00, 0x09, 0x03, 0x00, 0x00, 0x00})
	f.Add(byte(0x08), []byte{0xDC, 0x05, 0x00, 0x00, 0x01})
	f.Fuzz(func(t *testing.T, code byte, data []byte) {
		if b, err := ParseBillDenominations(data); err == nil {
			if got := BillDenominationsData(b); !bytes.Equal(got[:4], data[:4]) || got[4] != data[4]&1 {
				t.Fatalf("08 % X -> % X", data, got)
			}
		}
		if b, err := DecodeLastBill(data); err == nil {
			if got, err := LastBillData(b); err != nil || !bytes.Equal(got, data) {
				t.Fatalf("48 % X -> % X %v", data, got, err)
			}
		}
		if fe, err := DecodeEnabledFeatures(data); err == nil {
			if got, err := EnabledFeaturesData(fe); err != nil || !bytes.Equal(got[:6], data[:6]) {
				t.Fatalf("A0 % X -> % X %v", data, got, err)
			}
		}
		ev, err := DecodeRealTimeEvent(Exception(code), data)
		if err != nil {
			return
		}
		var body []byte
		switch e := ev.(type) {
		case *GameStarted:
			body, err = GameStartedEvent(*e)
		case *GameEnded:
			body = GameEndedEvent(*e)
		case *BillAccepted:
			body, err = BillAcceptedEvent(*e)
		case nil:
			body = []byte{code}
		}
		if err != nil || !bytes.Equal(body, append([]byte{code}, data...)) {
			t.Fatalf("%02X % X -> % X %v", code, data, body, err)
		}
	})
}
