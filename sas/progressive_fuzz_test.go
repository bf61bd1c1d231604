package sas

import (
	"bytes"
	"testing"
	"time"
)

// FuzzProgressiveBroadcast: no input makes the broadcast parser panic, and
// whatever it accepts is canonical: group not 0, levels 1–32 and distinct,
// and building it again gives the same bytes (no byte is ignored).
func FuzzProgressiveBroadcast(f *testing.F) {
	d80, _ := SingleLevelBroadcastData(5, LevelValue{2, 123456})
	d86, _ := MultipleLevelBroadcastData(7, []LevelValue{{1, 100000}, {3, 99}})
	f.Add(byte(0x80), d80)
	f.Add(byte(0x86), d86)
	f.Add(byte(0x86), []byte{0x07, 0x01, 0x01, 0, 0, 0, 0, 0x0A})
	f.Add(byte(0x86), []byte{0x0D, 0x07, 0x01, 0, 0, 0, 0x10, 0, 0x01, 0, 0, 0, 0, 0x99})
	f.Add(byte(0x80), []byte{})
	f.Fuzz(func(t *testing.T, cmd byte, data []byte) {
		b, err := ParseProgressiveBroadcast(cmd, data)
		if err != nil {
			return
		}
		if b.Group == 0 || len(b.Levels) == 0 || len(b.Levels) > MaxProgressiveLevel {
			t.Fatalf("accepted %+v", b)
		}
		var again []byte
		switch cmd {
		case 0x80:
			if len(b.Levels) != 1 {
				t.Fatalf("80 with %d levels", len(b.Levels))
			}
			again, err = SingleLevelBroadcastData(b.Group, b.Levels[0])
		case 0x86:
			again, err = MultipleLevelBroadcastData(b.Group, b.Levels)
		default:
			t.Fatalf("command %02X accepted", cmd)
		}
		if err != nil || !bytes.Equal(again, data) {
			t.Fatalf("% X parsed as %+v, built again as % X (%v)", data, b, again, err)
		}
		// Through a link: a machine of that group takes the values.
		p, _ := NewProgressive(ProgressiveConfig{Group: b.Group, Levels: []byte{b.Levels[0].Level}})
		if r := p.LongPoll(Request{Cmd: cmd, Data: data, Global: true, Now: t0}); r.kind != replyAck {
			t.Fatalf("handler refused what the parser accepted: %+v", r)
		}
		if v, ok := p.Value(b.Levels[0].Level); !ok || v != b.Levels[0].Amount {
			t.Fatalf("value %d %v", v, ok)
		}
	})
}

// FuzzProgressiveReplies: the decoders of the machine's replies (0x84/85,
// 0x87, 0x83, 0x1B, 0x1F) never panic, and what they accept builds back
// to the same bytes.
func FuzzProgressiveReplies(f *testing.F) {
	w, _ := ProgressiveWinData(ProgressiveWin{5, 2, 123456})
	ws, _ := MultipleProgressiveWinsData(ProgressiveWins{5, []LevelValue{{1, 5000}, {1, 7}}})
	hp, _ := HandpayInfoData(HandpayInfo{Group: 3, Level: 1, Amount: 99, PartialPay: 1, ResetID: 1})
	mi, _ := MachineInfoData(MachineInfo{"LU", "001", 1, 5, 7, 0, "ABC123", "9650"})
	for _, s := range [][]byte{w, ws, hp, mi, {0x02, 0x05, 0x00}, make([]byte, 7), {0, 0, 0, 0x01, 0x23, 0x45}} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		if w, err := DecodeProgressiveWin(data); err == nil {
			if again, err := ProgressiveWinData(w); err != nil || !bytes.Equal(again, data) {
				t.Fatalf("85 % X → %+v → % X %v", data, w, again, err)
			}
		}
		if ws, err := DecodeMultipleProgressiveWins(data); err == nil {
			if again, err := MultipleProgressiveWinsData(ws); err != nil || !bytes.Equal(again, data) {
				t.Fatalf("87 % X → %+v → % X %v", data, ws, again, err)
			}
		}
		if g, v, err := DecodeCumulativeProgressiveWins(data); err == nil {
			if again, err := CumulativeProgressiveWinsData(g, v); err != nil || !bytes.Equal(again, data) {
				t.Fatalf("83 % X → %d %d → % X %v", data, g, v, again, err)
			}
		}
		if h, err := DecodeHandpayInfo(data); err == nil {
			if again, err := HandpayInfoData(h); err != nil || !bytes.Equal(again, data) {
				t.Fatalf("1B % X → %+v → % X %v", data, h, again, err)
			}
		}
		if m, err := DecodeMachineInfo(data); err == nil {
			if again, err := MachineInfoData(m); err != nil || !bytes.Equal(again, data) {
				t.Fatalf("1F % X → %+v → % X %v", data, m, again, err)
			}
		}
	})
}

// FuzzProgressiveQueue: UnmarshalBinary never panics, leaves the queue
// unchanged on error, and what it accepts marshals back to the same bytes.
func FuzzProgressiveQueue(f *testing.F) {
	p, _ := NewProgressive(ProgressiveConfig{Group: 5, Levels: []byte{1, 2}})
	p.Hit(1, 1, 100)
	p.Hit(2, 2, 200)
	p.AnswerWin()
	p.Ack()
	b, _ := p.MarshalBinary()
	f.Add(b)
	f.Add([]byte{1, 0})
	f.Add([]byte{1, 1, 9, 0, 0, 0, 0, 0, 0, 0, 5, 1, 0, 0, 0, 0, 0x0A, 0})
	f.Fuzz(func(t *testing.T, data []byte) {
		q, _ := NewProgressive(ProgressiveConfig{Group: 5, Levels: []byte{1, 2, 3}})
		q.Hit(77, 3, 1)
		before, _ := q.MarshalBinary()
		if err := q.UnmarshalBinary(data); err != nil {
			if after, _ := q.MarshalBinary(); !bytes.Equal(after, before) {
				t.Fatalf("queue changed by a refused encoding % X", data)
			}
			return
		}
		after, _ := q.MarshalBinary()
		if !bytes.Equal(after, data) {
			t.Fatalf("% X accepted, marshals as % X", data, after)
		}
		if len(q.Queue()) > MaxProgressiveWins || q.Unread()+len(q.Acknowledged()) != len(q.Queue()) {
			t.Fatalf("queue %+v", q.Queue())
		}
	})
}

// FuzzProgressiveState drives the state with random operations (hits,
// broadcasts, ticks, 0x85/0x87 answers, acknowledgements, losses,
// releases, restarts). No panic, and the invariants hold: at most 32
// wins, distinct IDs, what is in flight is unread, 0x53 only when an
// outage begins, every reply well-formed.
func FuzzProgressiveState(f *testing.F) {
	f.Add([]byte{0x00, 0x11, 0x42, 0x83, 0x04, 0x15, 0x26, 0x37, 0x08, 0xF9})
	f.Add([]byte{0x40, 0x40, 0x41, 0x03, 0x04, 0x05, 0x03, 0x06, 0x07, 0x02, 0x02})
	f.Fuzz(func(t *testing.T, ops []byte) {
		q := NewExceptionQueue(MinExceptionQueue)
		p, _ := NewProgressive(ProgressiveConfig{Group: 5, Levels: []byte{1, 2}})
		p.Exceptions = q
		now := t0
		var id uint64
		outages := 0
		for i, op := range ops {
			arg := op >> 4
			switch op & 0x0F {
			case 0:
				id++
				p.Hit(id, arg%3, uint64(i)*1000)
			case 1:
				p.Receive(5-arg%2, []LevelValue{{arg%3 + 1, uint64(arg)}}, now)
			case 2:
				now = now.Add(time.Duration(arg) * 700 * time.Millisecond)
				if ev := p.Tick(now); ev.Lost {
					outages++
					if len(ev.Stale) == 0 || ev.Restored {
						t.Fatalf("%+v", ev)
					}
				}
			case 3:
				if _, err := DecodeProgressiveWin(p.AnswerWin()); err != nil {
					t.Fatal(err)
				}
			case 4:
				if _, err := DecodeMultipleProgressiveWins(p.AnswerWins()); err != nil {
					t.Fatal(err)
				}
			case 5:
				p.ReplyAcked(0x80 + arg%8)
			case 6:
				p.ReplyDropped(0x80 + arg%8)
			case 7:
				if acked := p.Acknowledged(); len(acked) > 0 {
					if err := p.Release(acked[int(arg)%len(acked)].ID); err != nil {
						t.Fatal(err)
					}
				}
			case 8:
				b, _ := p.MarshalBinary()
				r, _ := NewProgressive(ProgressiveConfig{Group: 5, Levels: []byte{1, 2}})
				if err := r.UnmarshalBinary(b); err != nil {
					t.Fatalf("own encoding refused: %v", err)
				}
				r.Exceptions = q
				p = r
			case 9:
				q.Next()
				q.Ack()
			}
			seen := map[uint64]bool{}
			for _, w := range p.Queue() {
				if seen[w.ID] || (w.InFlight && w.Acked) {
					t.Fatalf("queue %+v", p.Queue())
				}
				seen[w.ID] = true
			}
			if len(p.Queue()) > MaxProgressiveWins {
				t.Fatal("queue over capacity")
			}
		}
		n53 := 0
		for _, e := range q.Pending() {
			if e == ExcNoProgressive5s {
				n53++
			}
		}
		if n53 > outages {
			t.Fatalf("%d 0x53 for %d outages", n53, outages)
		}
	})
}
