package sas

import (
	"bytes"
	"testing"
	"time"

	"github.com/openegm/cabinet/sas/metercode"
)

// recorder is a Handler that records its calls and answers from a table.
type recorder struct {
	calls   []Request
	replies map[byte]Reply
}

func (h *recorder) LongPoll(r Request) Reply {
	r.Data = bytes.Clone(r.Data)
	h.calls = append(h.calls, r)
	return h.replies[r.Cmd]
}

// harness drives a link as the host would, advancing time by 50 ms a poll.
type harness struct {
	t   *testing.T
	l   *Link
	h   *recorder
	now time.Time
}

func newHarness(t *testing.T, addr byte) *harness {
	h := &recorder{replies: map[byte]Reply{
		0x1A: ReplyData(0x00, 0x00, 0x01, 0x00),
		0x01: ReplyAck(),
		0x21: ReplyAck(),
		0x1F: ReplyBusy(),
		0x80: ReplyAck(), // ignored: broadcasts are never answered
	}}
	l := NewLink(addr)
	l.Handler = h
	return &harness{t: t, l: l, h: h, now: t0}
}

func (x *harness) send(raw []byte) ([]byte, Event) {
	x.t.Helper()
	x.now = x.now.Add(50 * time.Millisecond)
	f, _ := ParseFrame(raw)
	f.Raw = raw
	return x.l.Receive(f, x.now)
}

// sync satisfies the start-up rule with a poll to another address.
func (x *harness) sync() {
	x.t.Helper()
	if r, _ := x.send(GeneralPollFrame(x.l.Addr() + 1)); r != nil {
		x.t.Fatalf("answered a poll to another address: % X", r)
	}
	if !x.l.Synced() {
		x.t.Fatal("not synced after a poll to another address")
	}
}

func (x *harness) expect(raw, want []byte, kind EventKind) Event {
	x.t.Helper()
	got, ev := x.send(raw)
	if !bytes.Equal(got, want) || ev.Kind != kind {
		x.t.Fatalf("poll % X: reply % X (%v), want % X (%v)", raw, got, ev.Kind, want, kind)
	}
	return ev
}

func TestLinkGeneralPollOrderAndImpliedAck(t *testing.T) {
	x := newHarness(t, 1)
	x.sync()
	for _, e := range []Exception{ExcSlotDoorOpened, ExcSlotDoorClosed, ExcGameStarted} {
		x.l.Exceptions.Push(e)
	}
	gp := GeneralPollFrame(1)
	ev := x.expect(gp, []byte{0x11}, EventGeneralPoll)
	if !ev.LinkUp || ev.Code != ExcSlotDoorOpened {
		t.Fatalf("%+v", ev)
	}
	// The host moves on by polling another machine: 0x11 is acknowledged.
	_, ev = x.send(GeneralPollFrame(2))
	if !ev.Acked || ev.AckedException != ExcSlotDoorOpened || x.l.Exceptions.Len() != 2 {
		t.Fatalf("poll to another address did not acknowledge: %+v", ev)
	}
	x.expect(gp, []byte{0x12}, EventGeneralPoll)
	// … by a global poll (a sync byte 0x80).
	_, ev = x.send([]byte{0x80})
	if ev.Kind != EventGlobal || ev.AckedException != ExcSlotDoorClosed {
		t.Fatalf("global poll did not acknowledge: %+v", ev)
	}
	x.expect(gp, []byte{0x7E}, EventGeneralPoll)
	// … by a long poll to us.
	ev = x.expect([]byte{1, 0x1A}, BuildReply(1, 0x1A, 0, 0, 1, 0), EventLongPoll)
	if ev.AckedException != ExcGameStarted {
		t.Fatalf("long poll did not acknowledge: %+v", ev)
	}
	// … and a general poll after a long poll acknowledges that reply.
	ev = x.expect(gp, []byte{0x00}, EventGeneralPoll)
	if !ev.Acked || ev.AckedException != ExcNone {
		t.Fatalf("%+v", ev)
	}
}

func TestLinkRepeatedGeneralPoll(t *testing.T) {
	x := newHarness(t, 1)
	x.sync()
	x.l.Exceptions.Push(ExcBillJam)
	x.l.Exceptions.Push(ExcGeneralTilt)
	gp := GeneralPollFrame(1)
	x.expect(gp, []byte{0x28}, EventGeneralPoll)
	// The reply was lost: the host asks again. Same code, not advanced,
	// even though a priority exception has been raised meanwhile.
	x.l.Exceptions.Push(ExcHandpayPending)
	for range 3 {
		ev := x.expect(gp, []byte{0x28}, EventResent)
		if ev.Acked {
			t.Fatal("a repeat acknowledged")
		}
	}
	if x.l.Exceptions.Len() != 3 || x.l.Exceptions.InFlight() != ExcBillJam {
		t.Fatal("the queue advanced on a repeat")
	}
	x.sync()
	x.expect(gp, []byte{0x51}, EventGeneralPoll)
	x.sync()
	x.expect(gp, []byte{0x20}, EventGeneralPoll)
	x.sync()
	// Nothing pending: a repeated 0x00 is answered afresh, so an exception
	// raised meanwhile gets out at once.
	x.expect(gp, []byte{0x00}, EventGeneralPoll)
	x.l.Exceptions.Push(ExcGameEnded)
	x.expect(gp, []byte{0x7F}, EventGeneralPoll)
	x.expect(gp, []byte{0x7F}, EventResent)
}

func TestLinkRepeatedLongPoll(t *testing.T) {
	x := newHarness(t, 1)
	x.sync()
	shut := LongPollFrame(1, 0x01)
	x.expect(shut, []byte{0x01}, EventLongPoll)
	x.expect(shut, []byte{0x01}, EventResent)
	if len(x.h.calls) != 1 {
		t.Fatalf("a repeat re-executed the command: %d calls", len(x.h.calls))
	}
	rom := LongPollFrame(1, 0x21, 0x12, 0x34)
	x.expect(rom, []byte{0x01}, EventLongPoll)
	// The same command with other data is a new poll.
	rom2 := LongPollFrame(1, 0x21, 0x56, 0x78)
	ev := x.expect(rom2, []byte{0x01}, EventLongPoll)
	if !ev.Acked || len(x.h.calls) != 3 || !bytes.Equal(x.h.calls[2].Data, []byte{0x56, 0x78}) {
		t.Fatalf("%+v %+v", ev, x.h.calls)
	}
	// Data reply resent byte for byte.
	want := BuildReply(1, 0x1A, 0, 0, 1, 0)
	x.expect([]byte{1, 0x1A}, want, EventLongPoll)
	x.h.replies[0x1A] = ReplyData(9, 9, 9, 9) // the meter changed meanwhile
	x.expect([]byte{1, 0x1A}, want, EventResent)
}

func TestLinkNack(t *testing.T) {
	x := newHarness(t, 1)
	x.sync()
	x.l.Exceptions.Push(ExcBillJam)
	x.expect(GeneralPollFrame(1), []byte{0x28}, EventGeneralPoll)
	bad := LongPollFrame(1, 0x01)
	bad[2] ^= 0xFF
	ev := x.expect(bad, []byte{0x81}, EventNacked)
	if ev.Acked || len(x.h.calls) != 0 || x.l.Exceptions.InFlight() != ExcBillJam {
		t.Fatalf("a bad CRC changed the state: %+v", ev)
	}
	// The host resends the poll correctly: executed now, and it
	// acknowledges the exception.
	ev = x.expect(LongPollFrame(1, 0x01), []byte{0x01}, EventLongPoll)
	if ev.AckedException != ExcBillJam || len(x.h.calls) != 1 {
		t.Fatalf("%+v", ev)
	}
	// A bad CRC to another machine or to all: silence, no acknowledgement.
	other := LongPollFrame(2, 0x01)
	other[3] ^= 1
	if r, ev := x.send(other); r != nil || ev.Acked {
		t.Fatalf("bad CRC to another address: % X %+v", r, ev)
	}
	glob := LongPollFrame(0, 0x80, 1, 1, 0, 0, 0, 1, 0)
	glob[4] ^= 1
	if r, ev := x.send(glob); r != nil || ev.Acked || len(x.h.calls) != 1 {
		t.Fatalf("bad CRC broadcast: % X %+v", r, ev)
	}
}

func TestLinkSilence(t *testing.T) {
	x := newHarness(t, 1)
	x.sync()
	// Unsupported by the cabinet (AFT custom ticket data 0x76) and by the handler (0x1B).
	x.expect([]byte{1, 0x76}, nil, EventUnsupported)
	x.expect([]byte{1, 0x1B}, nil, EventUnsupported)
	// Other addresses, long and general.
	x.expect([]byte{2, 0x1A}, nil, EventNone)
	x.expect(GeneralPollFrame(2), nil, EventNone)
	// Global polls: never answered, but broadcast commands reach the
	// handler.
	calls := len(x.h.calls)
	x.expect(LongPollFrame(0, 0x80, 1, 1, 0, 0, 0, 1, 0), nil, EventGlobal)
	if len(x.h.calls) != calls+1 || !x.h.calls[calls].Global || x.h.calls[calls].Cmd != 0x80 {
		t.Fatalf("broadcast not delivered: %+v", x.h.calls)
	}
	x.expect([]byte{0, 0x1A}, nil, EventGlobal) // not a broadcast command
	x.expect([]byte{0x80}, nil, EventGlobal)
	if len(x.h.calls) != calls+1 {
		t.Fatal("a non-broadcast command to address 0 reached the handler")
	}
	// No handler at all: silence.
	x.l.Handler = nil
	x.expect([]byte{1, 0x1A}, nil, EventUnsupported)
}

func TestLinkBusy(t *testing.T) {
	x := newHarness(t, 1)
	x.sync()
	x.expect([]byte{1, 0x1F}, []byte{1, 0}, EventBusy)
	x.expect([]byte{1, 0x1F}, []byte{1, 0}, EventBusy)
	if len(x.h.calls) != 2 {
		t.Fatal("after busy, the host's retry must be executed afresh")
	}
}

func TestLinkStartupSync(t *testing.T) {
	x := newHarness(t, 1)
	gp := GeneralPollFrame(1)
	x.l.Exceptions.Push(ExcACPowerApplied)
	x.expect(gp, nil, EventNotSynced)
	x.expect([]byte{1, 0x1A}, nil, EventNotSynced)
	bad := LongPollFrame(1, 0x01)
	bad[2]++
	x.expect(bad, nil, EventNotSynced) // not even a NACK
	x.expect(gp, nil, EventNotSynced)
	if len(x.h.calls) != 0 || x.l.Up() {
		t.Fatal("acted before synchronisation")
	}
	x.expect([]byte{0x80}, nil, EventGlobal) // a global poll synchronises
	x.expect(gp, []byte{0x17}, EventGeneralPoll)
	if !x.l.Up() {
		t.Fatal("link not up")
	}

	// After a link loss the rule applies again.
	x.now = x.now.Add(LinkTimeout)
	if ev := x.l.Tick(x.now); ev.Kind != EventLinkDown || !ev.LinkDown || x.l.Up() || x.l.Synced() {
		t.Fatalf("Tick after %v: %+v", LinkTimeout, ev)
	}
	if ev := x.l.Tick(x.now.Add(time.Second)); ev.Kind != EventNone {
		t.Fatal("link down reported twice")
	}
	x.expect(gp, nil, EventNotSynced)
	x.sync()
	// 0x17 was in flight when the link went down: an implied NACK, so it
	// is reported again.
	ev := x.expect(gp, []byte{0x17}, EventGeneralPoll)
	if !ev.LinkUp {
		t.Fatal("LinkUp not reported")
	}
}

func TestLinkDownDetectedOnReceive(t *testing.T) {
	x := newHarness(t, 1)
	x.sync()
	x.expect(GeneralPollFrame(1), []byte{0}, EventGeneralPoll)
	x.now = x.now.Add(LinkTimeout + time.Second)
	_, ev := x.send(GeneralPollFrame(1))
	if ev.Kind != EventNotSynced || !ev.LinkDown {
		t.Fatalf("%+v", ev)
	}
}

func TestLinkChirp(t *testing.T) {
	x := newHarness(t, 1)
	start := x.now
	if x.l.Chirp(start) {
		t.Fatal("chirp at power-up")
	}
	if x.l.Chirp(start.Add(LinkTimeout - time.Millisecond)) {
		t.Fatal("chirp before 5 s of silence")
	}
	t5 := start.Add(LinkTimeout)
	if !x.l.Chirp(t5) {
		t.Fatal("no chirp after 5 s of silence")
	}
	if x.l.Chirp(t5.Add(ChirpInterval - time.Millisecond)) {
		t.Fatal("chirp faster than every 200 ms")
	}
	if !x.l.Chirp(t5.Add(ChirpInterval)) || !x.l.Chirp(t5.Add(2*ChirpInterval)) {
		t.Fatal("chirps do not repeat every 200 ms")
	}
	// Any address byte stops the chirps (here, a poll to another machine).
	x.now = t5.Add(2*ChirpInterval + time.Millisecond)
	x.l.Receive(Frame{Raw: []byte{0x85}}, x.now)
	for d := time.Duration(0); d < LinkTimeout; d += 50 * time.Millisecond {
		if x.l.Chirp(x.now.Add(d)) {
			t.Fatalf("chirp %v after a poll", d)
		}
	}
	if !x.l.Chirp(x.now.Add(LinkTimeout)) {
		t.Fatal("no chirp after the next silence")
	}
	// A malformed frame is no address byte.
	x.l.Receive(Frame{Raw: []byte{0x81, 0x00}}, x.now.Add(LinkTimeout+ChirpInterval))
	if !x.l.Chirp(x.now.Add(LinkTimeout + ChirpInterval)) {
		t.Fatal("a malformed frame stopped the chirps")
	}
}

func TestLinkDeferred(t *testing.T) {
	x := newHarness(t, 1)
	x.sync()
	x.l.Exceptions.Push(ExcGameStarted)
	// ROM signature: ACK now, the signature to a later general poll.
	x.expect(LongPollFrame(1, 0x21, 0x12, 0x34), []byte{1}, EventLongPoll)
	sig := CRCSeeded(0x3412, []byte("program"))
	x.l.Defer(0x21, byte(sig), byte(sig>>8))
	want := BuildReply(1, 0x21, byte(sig), byte(sig>>8))
	gp := GeneralPollFrame(1)
	if ev := x.expect(gp, want, EventGeneralPoll); !ev.Deferred {
		t.Fatalf("%+v", ev)
	}
	x.expect(gp, want, EventResent)
	_, ev := x.send([]byte{0x80})
	if !ev.AckedDeferred {
		t.Fatalf("%+v", ev)
	}
	x.expect(gp, []byte{0x7E}, EventGeneralPoll)
}

func TestLinkBadAddress(t *testing.T) {
	for _, a := range []byte{0, 128, 0xFF} {
		l := NewLink(a)
		for _, raw := range [][]byte{{0x80}, {0x80, 0x1A}, {0x00, 0x1A}, {0xFF}, {0x7F, 0x1A}} {
			if r, _ := l.Receive(Frame{Raw: raw}, t0); r != nil {
				t.Fatalf("link %d answered % X with % X", a, raw, r)
			}
		}
	}
}

func TestLinkWithFramer(t *testing.T) {
	// End to end in PARMRK mode: a sync byte, a general poll, a meter poll.
	l := NewLink(1)
	l.Handler = HandlerFunc(func(r Request) Reply {
		return MeterReply(r, meterMap{metercode.CurrentCredits: 12345})
	})
	fr := NewFramer(ModePARMRK)
	var out [][]byte
	for _, f := range fr.Feed(parmrk([]byte{0x80}, []byte{0x81}, []byte{0x01, 0x1A}), t0) {
		if r, _ := l.Receive(f, t0); r != nil {
			out = append(out, r)
		}
	}
	if len(out) != 2 || !bytes.Equal(out[0], []byte{0}) ||
		!bytes.Equal(out[1], []byte{0x01, 0x1A, 0x00, 0x01, 0x23, 0x45, 0xED, 0xBA}) {
		t.Fatalf("replies % X", out)
	}
}

func BenchmarkLinkGeneralPoll(b *testing.B) {
	l := NewLink(1)
	now := t0
	l.Receive(Frame{Raw: []byte{0x80}}, now)
	polls := [][]byte{{0x81}, {0x80}, {0x01, 0x1A}}
	l.Handler = HandlerFunc(func(r Request) Reply { return ReplyData(0, 0, 0, 1) })
	i := 0
	for b.Loop() {
		now = now.Add(time.Millisecond)
		l.Exceptions.Push(ExcGameStarted)
		l.Receive(Frame{Raw: polls[i%3]}, now)
		i++
	}
}

func TestLinkNilQueueAndDeferredOverflow(t *testing.T) {
	x := newHarness(t, 1)
	x.l.Exceptions = nil
	x.sync()
	x.expect(GeneralPollFrame(1), []byte{0}, EventGeneralPoll)
	for i := range maxDeferred + 1 {
		x.l.Defer(0x21, byte(i))
	}
	// The oldest was dropped: the first deferred reply now carries 1.
	x.expect(GeneralPollFrame(1), BuildReply(1, 0x21, 1), EventGeneralPoll)
	x.l.Defer(0x21, 0xEE) // drops the one in flight: no resend of it
	x.expect(GeneralPollFrame(1), BuildReply(1, 0x21, 2), EventGeneralPoll)
}
