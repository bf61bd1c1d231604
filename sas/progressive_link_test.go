package sas

import (
	"bytes"
	"slices"
	"testing"
	"time"
)

// progMachine is a machine's Handler that hands the progressive polls to a
// Progressive (embedded, so it is also the ReplyObserver) and answers
// current credits itself.
type progMachine struct {
	*Progressive
	calls int
}

func (m *progMachine) LongPoll(r Request) Reply {
	m.calls++
	switch r.Cmd {
	case 0x80, 0x86, 0x85, 0x87:
		return m.Progressive.LongPoll(r)
	case 0x1A:
		return ReplyData(AppendBCD(nil, 42, 4)...)
	}
	return NoReply()
}

func newProgHarness(t *testing.T) (*harness, *progMachine) {
	t.Helper()
	x := newHarness(t, 1)
	p, err := NewProgressive(ProgressiveConfig{Group: 5, Levels: []byte{1, 2}})
	if err != nil {
		t.Fatal(err)
	}
	p.Exceptions = x.l.Exceptions
	m := &progMachine{Progressive: p}
	x.l.Handler = m
	x.sync()
	return x, m
}

// TestLinkProgressiveBroadcast: a global 0x86 updates the values with no
// reply; an addressed 0x80 is ACKed; another group's broadcast changes
// nothing but still acknowledges the machine's last reply (it is a poll
// to address 0).
func TestLinkProgressiveBroadcast(t *testing.T) {
	x, m := newProgHarness(t)
	glob, _ := ProgressiveBroadcastFrame(0, 5, []LevelValue{{1, 100000}, {2, 2500}})
	x.expect(glob, nil, EventGlobal)
	if got := m.Values(); len(got) != 2 || got[1] != 100000 || got[2] != 2500 {
		t.Fatalf("values after a global 86: %v", got)
	}
	// The time of the poll reached the state: fresh now, stale 5 s later.
	if m.Down(x.now) || !m.Down(x.now.Add(ProgressiveTimeout+time.Millisecond)) {
		t.Fatal("Request.Now not used")
	}
	addressed, _ := ProgressiveBroadcastFrame(1, 5, []LevelValue{{2, 2600}})
	x.expect(addressed, []byte{1}, EventLongPoll)
	if v, _ := m.Value(2); v != 2600 {
		t.Fatalf("addressed 80: level 2 = %d", v)
	}
	// A reply pending (the ACK above): another group's broadcast moves on.
	other, _ := ProgressiveBroadcastFrame(0, 6, []LevelValue{{1, 1}})
	_, ev := x.send(other)
	if ev.Kind != EventGlobal || !ev.Acked || ev.AckedCmd != 0x80 {
		t.Fatalf("other group's broadcast: %+v", ev)
	}
	if v, _ := m.Value(1); v != 100000 {
		t.Fatal("another group's value taken")
	}
	// A malformed global broadcast reaches the handler and changes
	// nothing; never a reply.
	bad := LongPollFrame(0, 0x80, 5, 0, 0, 0, 0, 0, 1) // level 0
	x.expect(bad, nil, EventGlobal)
	if v, _ := m.Value(1); v != 100000 {
		t.Fatal("malformed broadcast taken")
	}
}

// TestLinkProgressiveWins: a hit raises 0x56; the host reads the queue with
// 0x87; a repeat of the poll gets the same bytes and acknowledges nothing;
// a poll with a bad CRC is NACKed and acknowledges nothing; the next
// general poll acknowledges the wins, which the owner then sees.
func TestLinkProgressiveWins(t *testing.T) {
	x, m := newProgHarness(t)
	if err := m.Hit(101, 1, 100000); err != nil {
		t.Fatal(err)
	}
	if err := m.Hit(102, 2, 2500); err != nil {
		t.Fatal(err)
	}
	gp := GeneralPollFrame(1)
	x.expect(gp, []byte{0x56}, EventGeneralPoll)

	poll87 := []byte{1, 0x87}
	wantData := hexb(0x0E, 0x05, 0x02, 0x01, 0, 0, 0x10, 0x00, 0x00, 0x02, 0, 0, 0, 0x25, 0x00)
	want := BuildReply(1, 0x87, wantData...)
	ev := x.expect(poll87, want, EventLongPoll)
	if ev.AckedException != ExcProgressiveLevelHit {
		t.Fatalf("0x87 did not acknowledge 0x56: %+v", ev)
	}
	// The host missed the reply and asks again: the same bytes, and the
	// handler is not asked.
	calls := m.calls
	x.expect(poll87, want, EventResent)
	x.expect(poll87, want, EventResent)
	if m.calls != calls || len(m.Acknowledged()) != 0 || m.Unread() != 2 {
		t.Fatalf("a repeat changed the queue: %+v", m.Queue())
	}
	// A garbled poll (bad CRC) to us: NACK, nothing acknowledged.
	garbled := LongPollFrame(1, 0x80, 5, 1, 0, 0, 0, 0, 1)
	garbled[len(garbled)-1] ^= 0xFF
	if _, ev := x.send(garbled); ev.Kind != EventNacked || ev.Acked || len(m.Acknowledged()) != 0 {
		t.Fatalf("garbled poll: %+v %+v", ev, m.Queue())
	}
	x.expect(poll87, want, EventResent) // still the same reply
	// The host moves on: implied ACK.
	ev = x.expect(gp, []byte{0x00}, EventGeneralPoll)
	if !ev.Acked || ev.AckedCmd != 0x87 {
		t.Fatalf("general poll after 87: %+v", ev)
	}
	acked := m.Acknowledged()
	if len(acked) != 2 || acked[0].ID != 101 || acked[1].ID != 102 || m.Unread() != 0 {
		t.Fatalf("acknowledged %+v", acked)
	}
	// The owner commits the awards and releases them.
	for _, w := range acked {
		if err := m.Release(w.ID); err != nil {
			t.Fatal(err)
		}
	}
	// Empty queue: length 02, group 05, count 00.
	x.expect(poll87, BuildReply(1, 0x87, 0x02, 0x05, 0x00), EventLongPoll)
	x.expect([]byte{1, 0x85}, BuildReply(1, 0x85, make([]byte, 7)...), EventLongPoll)
}

// TestLinkProgressiveWin85: 0x85 gives one win at a time; when the host
// moves on the win is acknowledged and, with another still unread, 0x56 is
// raised again at once.
func TestLinkProgressiveWin85(t *testing.T) {
	x, m := newProgHarness(t)
	m.Hit(1, 2, 300)
	m.Hit(2, 1, 400)
	gp := GeneralPollFrame(1)
	x.expect(gp, []byte{0x56}, EventGeneralPoll)
	x.expect([]byte{1, 0x85}, BuildReply(1, 0x85, 0x05, 0x02, 0, 0, 0, 0x03, 0x00), EventLongPoll)
	ev := x.expect(gp, []byte{0x56}, EventGeneralPoll)
	if ev.AckedCmd != 0x85 || !slices.Equal(ids(m.Acknowledged()), []uint64{1}) {
		t.Fatalf("%+v %+v", ev, m.Queue())
	}
	// Another command after 0x85 acknowledges too (here 0x1A).
	x.expect([]byte{1, 0x85}, BuildReply(1, 0x85, 0x05, 0x01, 0, 0, 0, 0x04, 0x00), EventLongPoll)
	ev = x.expect([]byte{1, 0x1A}, BuildReply(1, 0x1A, 0, 0, 0, 0x42), EventLongPoll)
	if ev.AckedCmd != 0x85 || !slices.Equal(ids(m.Acknowledged()), []uint64{1, 2}) {
		t.Fatalf("%+v %+v", ev, m.Queue())
	}
	// The acknowledged reply to 0x1A is not a win reply: nothing changes.
	x.expect(gp, []byte{0x00}, EventGeneralPoll)
	if m.Unread() != 0 || len(m.Acknowledged()) != 2 {
		t.Fatalf("%+v", m.Queue())
	}
}

// TestLinkProgressiveLinkLoss: the link goes down with a 0x87 reply in
// flight: the wins are unread again, 0x56 is raised again, and the next
// 0x87 (after synchronisation) is executed afresh.
func TestLinkProgressiveLinkLoss(t *testing.T) {
	x, m := newProgHarness(t)
	m.Hit(7, 1, 123)
	x.expect(GeneralPollFrame(1), []byte{0x56}, EventGeneralPoll)
	reply := BuildReply(1, 0x87, 0x08, 0x05, 0x01, 0x01, 0, 0, 0, 0x01, 0x23)
	x.expect([]byte{1, 0x87}, reply, EventLongPoll)
	x.now = x.now.Add(LinkTimeout)
	if ev := x.l.Tick(x.now); ev.Kind != EventLinkDown {
		t.Fatalf("%+v", ev)
	}
	if m.Unread() != 1 || m.Queue()[0].InFlight || len(m.Acknowledged()) != 0 {
		t.Fatalf("after link loss: %+v", m.Queue())
	}
	x.sync()
	calls := m.calls
	ev := x.expect([]byte{1, 0x87}, reply, EventLongPoll) // not a resend: executed
	if m.calls != calls+1 || ev.Acked {
		t.Fatalf("%+v, calls %d→%d", ev, calls, m.calls)
	}
	x.expect(GeneralPollFrame(1), []byte{0x56}, EventGeneralPoll) // raised again by the loss
	if !slices.Equal(ids(m.Acknowledged()), []uint64{7}) {
		t.Fatalf("%+v", m.Queue())
	}
}

// TestLinkProgressiveRestart: the cabinet persists the queue while a 0x87
// reply is in flight and restarts: the win is reported and sent again,
// byte for byte, then acknowledged.
func TestLinkProgressiveRestart(t *testing.T) {
	x, m := newProgHarness(t)
	m.Hit(3, 2, 999)
	x.expect(GeneralPollFrame(1), []byte{0x56}, EventGeneralPoll)
	reply := BuildReply(1, 0x87, 0x08, 0x05, 0x01, 0x02, 0, 0, 0, 0x09, 0x99)
	x.expect([]byte{1, 0x87}, reply, EventLongPoll)
	saved, _ := m.MarshalBinary()
	savedQ, _ := x.l.Exceptions.MarshalBinary()

	// Power cycle: a new link and state, restored.
	y, n := newProgHarness(t)
	if err := y.l.Exceptions.UnmarshalBinary(savedQ); err != nil {
		t.Fatal(err)
	}
	if err := n.UnmarshalBinary(saved); err != nil {
		t.Fatal(err)
	}
	y.expect(GeneralPollFrame(1), []byte{0x56}, EventGeneralPoll)
	y.expect([]byte{1, 0x87}, reply, EventLongPoll)
	y.expect(GeneralPollFrame(1), []byte{0x00}, EventGeneralPoll)
	if !slices.Equal(ids(n.Acknowledged()), []uint64{3}) {
		t.Fatalf("%+v", n.Queue())
	}
	// Acknowledged but not released survives a restart as acknowledged.
	saved, _ = n.MarshalBinary()
	z, o := newProgHarness(t)
	if err := o.UnmarshalBinary(saved); err != nil || !slices.Equal(ids(o.Acknowledged()), []uint64{3}) || o.Unread() != 0 {
		t.Fatalf("%v %+v", err, o.Queue())
	}
	if z.l.Exceptions.Len() != 0 {
		t.Fatalf("0x56 raised for an acknowledged win: %v", z.l.Exceptions.Pending())
	}
	if !bytes.Equal(saved[len(saved)-1:], []byte{1}) {
		t.Fatal("acknowledged flag not persisted")
	}
}

func ids(ws []QueuedWin) []uint64 {
	var out []uint64
	for _, w := range ws {
		out = append(out, w.ID)
	}
	return out
}
