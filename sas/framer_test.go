package sas

import (
	"bytes"
	"math/rand/v2"
	"testing"
	"time"
)

var t0 = time.Date(2026, 11, 30, 12, 0, 0, 0, time.UTC)

// parmrk encodes frames as a Linux UART in space parity with PARMRK
// delivers them: the first byte of each frame has the wakeup bit (FF 00 xx),
// a data byte FF is doubled.
func parmrk(frames ...[]byte) []byte {
	var out []byte
	for _, f := range frames {
		for i, b := range f {
			switch {
			case i == 0:
				out = append(out, 0xFF, 0x00, b)
			case b == 0xFF:
				out = append(out, 0xFF, 0xFF)
			default:
				out = append(out, b)
			}
		}
	}
	return out
}

func raws(fs []Frame) [][]byte {
	var out [][]byte
	for _, f := range fs {
		out = append(out, f.Raw)
	}
	return out
}

func equalRaws(t *testing.T, got []Frame, want ...[]byte) {
	t.Helper()
	g := raws(got)
	if len(g) != len(want) {
		t.Fatalf("got %d frames % X, want %d % X", len(g), g, len(want), want)
	}
	for i := range want {
		if !bytes.Equal(g[i], want[i]) {
			t.Fatalf("frame %d = % X, want % X (all: % X)", i, g[i], want[i], g)
		}
	}
}

func TestFramerPARMRK(t *testing.T) {
	fr := NewFramer(ModePARMRK)
	// A general poll to 1 with the wakeup bit.
	got := fr.Feed([]byte{0xFF, 0x00, 0x81}, t0)
	equalRaws(t, got, []byte{0x81})
	if got[0].Kind != KindGeneral || got[0].Addr != 1 {
		t.Fatalf("%+v", got[0])
	}
	// A long poll whose CRC contains FF, sent as FF FF.
	var poll []byte
	for seed := byte(0); ; seed++ {
		poll = LongPollFrame(1, 0x21, seed, 0x00)
		if bytes.Contains(poll[2:], []byte{0xFF}) {
			break
		}
	}
	got = fr.Feed(parmrk(poll), t0.Add(time.Second))
	equalRaws(t, got, poll)
	if !got[0].CRCOK() || got[0].Cmd != 0x21 {
		t.Fatalf("%+v", got[0])
	}
	// A data byte 0xFF as the 9th-bit byte: general poll to 127.
	equalRaws(t, fr.Feed([]byte{0xFF, 0x00, 0xFF}, t0.Add(2*time.Second)), []byte{0xFF})
	// Bytes without the wakeup bit cannot start a message: ignored.
	equalRaws(t, fr.Feed([]byte{0x81, 0x01, 0x1A}, t0.Add(3*time.Second)))
	// A wakeup byte drops a partial message: 01 21 00 cut by a general poll.
	got = fr.Feed(append([]byte{0xFF, 0x00, 0x01, 0x21, 0x00}, parmrk([]byte{0x82}, []byte{0x01, 0x1A})...), t0.Add(4*time.Second))
	equalRaws(t, got, []byte{0x82}, []byte{0x01, 0x1A})
	// The wakeup byte of a general poll ends a partial message too: the
	// rest of the cut poll, sent after it, is no message.
	cut := LongPollFrame(1, 0x21, 0x12, 0x34)
	got = fr.Feed(append(append(parmrk(cut[:3]), parmrk([]byte{0x85})...), cut[3:]...), t0.Add(4500*time.Millisecond))
	equalRaws(t, got, []byte{0x85})
	// An escape split across reads.
	tt := t0.Add(5 * time.Second)
	equalRaws(t, fr.Feed([]byte{0xFF}, tt))
	equalRaws(t, fr.Feed([]byte{0x00}, tt.Add(time.Millisecond)))
	equalRaws(t, fr.Feed([]byte{0x83}, tt.Add(2*time.Millisecond)), []byte{0x83})
	// FF followed by neither 00 nor FF (not something PARMRK sends): FF is
	// taken as data, the next byte read afresh. Here: ignored data, then a
	// general poll with the wakeup bit.
	equalRaws(t, fr.Feed([]byte{0xFF, 0x12, 0xFF, 0x00, 0x84}, t0.Add(6*time.Second)), []byte{0x84})
}

func TestFramerContent(t *testing.T) {
	fr := NewFramer(ModeContent)
	// A sync byte (global general poll 0x80) before a general poll and
	// before a long poll.
	got := fr.Feed([]byte{0x80, 0x81, 0x80, 0x01, 0x1A}, t0)
	equalRaws(t, got, []byte{0x80}, []byte{0x81}, []byte{0x80}, []byte{0x01, 0x1A})
	if !got[0].Global() || got[1].Addr != 1 || got[3].Cmd != 0x1A {
		t.Fatalf("%+v", got)
	}
	// Concatenated polls of every shape in one read, including a variable
	// one whose data holds bytes that look like polls.
	m := LongPollFrame(1, 0x2F, 4, 0x00, 0x00, 0x81, 0x01)
	s := LongPollFrame(1, 0x21, 0x80, 0x01)
	g := LongPollFrame(0, 0x80, 0x01, 0x01, 0x00, 0x00, 0x12, 0x34, 0x56)
	stream := bytes.Join([][]byte{m, {0x81}, s, g, {0x02, 0x1A}}, nil)
	equalRaws(t, fr.Feed(stream, t0.Add(time.Second)), m, []byte{0x81}, s, g, []byte{0x02, 0x1A})
	// The same stream one byte at a time, 1 ms apart.
	var all []Frame
	for i, b := range stream {
		all = append(all, fr.Feed([]byte{b}, t0.Add(2*time.Second+time.Duration(i)*time.Millisecond))...)
	}
	equalRaws(t, all, m, []byte{0x81}, s, g, []byte{0x02, 0x1A})
}

func TestFramerGap(t *testing.T) {
	for _, mode := range []FramerMode{ModeContent, ModePARMRK} {
		enc := func(b []byte) []byte {
			if mode == ModePARMRK {
				return parmrk(b)
			}
			return b
		}
		fr := NewFramer(mode)
		s := LongPollFrame(1, 0x21, 0x12, 0x34)
		// Half a poll, then more than 5 ms of silence: dropped.
		equalRaws(t, fr.Feed(enc(s)[:len(enc(s))-3], t0))
		after := t0.Add(InterByteGap + time.Microsecond)
		equalRaws(t, fr.Feed(enc([]byte{0x81}), after), []byte{0x81})
		// Half a poll, the rest exactly 5 ms later: still one message.
		e := enc(s)
		equalRaws(t, fr.Feed(e[:4], t0.Add(time.Second)))
		equalRaws(t, fr.Feed(e[4:], t0.Add(time.Second+InterByteGap)), s)
		// Feed(nil) applies the gap: the partial is gone, the tail of the
		// poll alone makes nothing in PARMRK mode and garbage-dropping in
		// content mode.
		equalRaws(t, fr.Feed(e[:4], t0.Add(2*time.Second)))
		equalRaws(t, fr.Feed(nil, t0.Add(2*time.Second+6*time.Millisecond)))
		if fr.n != 0 {
			t.Fatalf("%v: partial kept after the gap", mode)
		}
		// A clock going backwards is no gap.
		equalRaws(t, fr.Feed(e[:4], t0.Add(3*time.Second)))
		equalRaws(t, fr.Feed(e[4:], t0.Add(2*time.Second)), s)
	}
}

func TestFramerGarbage(t *testing.T) {
	fr := NewFramer(ModeContent)
	// An unsupported long poll (AFT custom ticket data 0x76, variable length): reported with
	// its address and command, then the rest is skipped until a gap, even
	// bytes that look like a general poll to us.
	got := fr.Feed([]byte{0x01, 0x76, 0x05, 0x81, 0x01, 0x1A, 0x00}, t0)
	equalRaws(t, got, []byte{0x01, 0x76})
	if !got[0].Unknown {
		t.Fatalf("%+v", got[0])
	}
	equalRaws(t, fr.Feed([]byte{0x81}, t0.Add(time.Millisecond)))
	equalRaws(t, fr.Feed([]byte{0x81}, t0.Add(10*time.Millisecond)), []byte{0x81})
	// In PARMRK mode the skip ends at the next wakeup byte.
	fp := NewFramer(ModePARMRK)
	equalRaws(t, fp.Feed(append(parmrk([]byte{0x01, 0x76, 0x05, 0x81}), parmrk([]byte{0x81})...), t0), []byte{0x01, 0x76}, []byte{0x81})
}

func TestFramerRoundTrip(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	cmds := SupportedLongPolls()
	for _, mode := range []FramerMode{ModeContent, ModePARMRK} {
		for trial := range 200 {
			var want [][]byte
			for range 1 + r.IntN(20) {
				var p []byte
				if r.IntN(3) == 0 {
					p = GeneralPollFrame(byte(r.IntN(128)))
				} else {
					p = samplePoll(byte(r.IntN(128)), cmds[r.IntN(len(cmds))])
					if p[0] != 0 && r.IntN(4) == 0 { // random data, valid shape
						for i := 2; i < len(p); i++ {
							if s, _ := LookupLongPoll(p[1]); !(s.Variable && i == 2) {
								p[i] = byte(r.Uint32())
							}
						}
					}
				}
				want = append(want, p)
			}
			var stream []byte
			for _, p := range want {
				if mode == ModePARMRK {
					stream = append(stream, parmrk(p)...)
				} else {
					stream = append(stream, p...)
				}
			}
			fr := NewFramer(mode)
			var got []Frame
			now := t0
			for len(stream) > 0 {
				k := min(len(stream), 1+r.IntN(8))
				got = append(got, fr.Feed(stream[:k], now)...)
				stream = stream[k:]
				now = now.Add(time.Duration(r.IntN(5000)) * time.Microsecond)
			}
			if len(got) != len(want) {
				t.Fatalf("%v trial %d: %d frames, want %d", mode, trial, len(got), len(want))
			}
			for i := range want {
				if !bytes.Equal(got[i].Raw, want[i]) {
					t.Fatalf("%v trial %d frame %d: % X, want % X", mode, trial, i, got[i].Raw, want[i])
				}
				checkFrameWellFormed(t, got[i])
			}
		}
	}
}

// checkFrameWellFormed is the property every yielded frame has: it parses
// back to itself, with at most a CRC error (or, for an unknown command, the
// unsupported error), and its length is the one the table gives.
func checkFrameWellFormed(t testing.TB, f Frame) {
	t.Helper()
	g, err := ParseFrame(f.Raw)
	switch {
	case f.Unknown:
		if err != ErrUnsupported || len(f.Raw) != 2 || f.Kind != KindLong || f.Data != nil {
			t.Fatalf("unknown frame %+v: %v", f, err)
		}
		if _, ok := LookupLongPoll(f.Cmd); ok {
			t.Fatalf("frame %+v marked unknown but supported", f)
		}
	case err != nil && err != ErrCRC:
		t.Fatalf("frame % X does not parse: %v", f.Raw, err)
	}
	if g.Kind != f.Kind || g.Addr != f.Addr || g.Cmd != f.Cmd || !bytes.Equal(g.Data, f.Data) || g.Unknown != f.Unknown {
		t.Fatalf("framer gave %+v, parser %+v", f, g)
	}
	if f.Addr > MaxAddr {
		t.Fatalf("address %d", f.Addr)
	}
}

func benchFramer(b *testing.B, mode FramerMode) {
	var stream []byte
	for i := range 200 {
		polls := [][]byte{{0x80}, {0x81}, {0x01, 0x1A}, LongPollFrame(1, 0x2F, 5, 0, 0, 0, 0x0C, byte(i)), LongPollFrame(1, 0x21, byte(i), 0xFF)}
		for _, p := range polls {
			if mode == ModePARMRK {
				stream = append(stream, parmrk(p)...)
			} else {
				stream = append(stream, p...)
			}
		}
	}
	fr := NewFramer(mode)
	b.SetBytes(int64(len(stream)))
	now := t0
	for b.Loop() {
		for i := 0; i < len(stream); i += 64 {
			fr.Feed(stream[i:min(i+64, len(stream))], now)
		}
	}
}

func BenchmarkFramerContent(b *testing.B) { benchFramer(b, ModeContent) }
func BenchmarkFramerPARMRK(b *testing.B)  { benchFramer(b, ModePARMRK) }
