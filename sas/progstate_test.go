package sas

import (
	"bytes"
	"errors"
	"maps"
	"slices"
	"testing"
	"time"
)

func newProg(t *testing.T, group byte, levels ...byte) (*Progressive, *ExceptionQueue) {
	t.Helper()
	p, err := NewProgressive(ProgressiveConfig{Group: group, Levels: levels})
	if err != nil {
		t.Fatal(err)
	}
	q := NewExceptionQueue(MinExceptionQueue)
	p.Exceptions = q
	return p, q
}

func TestNewProgressive(t *testing.T) {
	for _, cfg := range []ProgressiveConfig{
		{Group: 0, Levels: []byte{1}},
		{Group: 1},
		{Group: 1, Levels: []byte{0}},
		{Group: 1, Levels: []byte{33}},
		{Group: 1, Levels: []byte{2, 2}},
	} {
		if _, err := NewProgressive(cfg); !errors.Is(err, ErrProgressive) {
			t.Errorf("%+v: %v", cfg, err)
		}
	}
	p, _ := newProg(t, 9, 3, 1, 32)
	if p.Group() != 9 || !bytes.Equal(p.Levels(), []byte{1, 3, 32}) {
		t.Fatalf("group %d levels %v", p.Group(), p.Levels())
	}
}

// TestProgressiveFiveSecondRule: 6.02 §10.2: a configured level not
// refreshed for more than five seconds raises 0x53; once per outage.
func TestProgressiveFiveSecondRule(t *testing.T) {
	p, q := newProg(t, 5, 1, 2)
	ms := func(n int) time.Time { return t0.Add(time.Duration(n) * time.Millisecond) }
	if ev := p.Tick(t0); ev.Lost || ev.Restored {
		t.Fatalf("at start: %+v", ev)
	}
	p.Receive(5, []LevelValue{{1, 1000}, {2, 200}}, t0)
	if !maps.Equal(p.Values(), map[byte]uint64{1: 1000, 2: 200}) {
		t.Fatalf("values %v", p.Values())
	}
	if p.Down(ms(4999)) || p.Down(ms(5000)) {
		t.Fatal("down at 4.999 s or at exactly 5 s")
	}
	if ev := p.Tick(ms(4999)); ev.Lost || q.Len() != 0 {
		t.Fatalf("4.999 s: %+v, %v", ev, q.Pending())
	}
	if !p.Down(ms(5001)) {
		t.Fatal("not down at 5.001 s")
	}
	ev := p.Tick(ms(5001))
	if !ev.Lost || !bytes.Equal(ev.Stale, []byte{1, 2}) || !slices.Equal(q.Pending(), []Exception{ExcNoProgressive5s}) {
		t.Fatalf("5.001 s: %+v, %v", ev, q.Pending())
	}
	// The same outage: no second 0x53, whatever else happens.
	if ev := p.Tick(ms(6000)); ev.Lost || ev.Restored {
		t.Fatalf("6 s: %+v", ev)
	}
	p.Receive(6, []LevelValue{{1, 1}, {2, 2}}, ms(6500)) // another group
	p.Receive(5, []LevelValue{{1, 1100}}, ms(7000))      // only level 1
	if ev := p.Tick(ms(7000)); ev.Lost || ev.Restored || !p.Down(ms(7000)) {
		t.Fatalf("7 s, level 2 still stale: %+v", ev)
	}
	if len(q.Pending()) != 1 {
		t.Fatalf("0x53 raised again in the same outage: %v", q.Pending())
	}
	if v, _ := p.Value(2); v != 200 {
		t.Fatalf("another group's broadcast changed level 2: %d", v)
	}
	// Both levels back: recovered, reported once.
	p.Receive(5, []LevelValue{{2, 210}}, ms(7500))
	if ev := p.Tick(ms(7500)); !ev.Restored || ev.Lost {
		t.Fatalf("7.5 s: %+v", ev)
	}
	if ev := p.Tick(ms(8000)); ev.Restored || ev.Lost {
		t.Fatalf("restored twice: %+v", ev)
	}
	// A new outage: 0x53 again. Level 1 was refreshed at 7 s, level 2 at
	// 7.5 s: level 1 goes first.
	if ev := p.Tick(ms(12000)); ev.Lost {
		t.Fatalf("12 s: %+v", ev)
	}
	ev = p.Tick(ms(12001))
	if !ev.Lost || !bytes.Equal(ev.Stale, []byte{1}) {
		t.Fatalf("12.001 s: %+v", ev)
	}
	if got := q.Pending(); !slices.Equal(got, []Exception{ExcNoProgressive5s, ExcNoProgressive5s}) {
		t.Fatalf("second outage: %v", got)
	}
}

// TestProgressiveNeverHeard: the clock starts with the first call; with no
// broadcast at all the machine reports 0x53 after 5 s.
func TestProgressiveNeverHeard(t *testing.T) {
	p, q := newProg(t, 1, 1)
	if p.Down(t0.Add(time.Hour)) {
		t.Fatal("down before any call")
	}
	p.Tick(t0)
	if ev := p.Tick(t0.Add(5 * time.Second)); ev.Lost {
		t.Fatal("lost at exactly 5 s")
	}
	if ev := p.Tick(t0.Add(5*time.Second + time.Millisecond)); !ev.Lost || q.Len() != 1 {
		t.Fatalf("%+v", ev)
	}
	// Levels it does not take part in are not recorded.
	r := p.Receive(1, []LevelValue{{1, 5}, {2, 6}}, t0.Add(6*time.Second))
	if r.Taken != 1 || r.Ignored != 1 || r.OtherGroup || !maps.Equal(p.Values(), map[byte]uint64{1: 5}) {
		t.Fatalf("%+v %v", r, p.Values())
	}
	if r := p.Receive(2, []LevelValue{{1, 5}}, t0); !r.OtherGroup || r.Taken != 0 {
		t.Fatalf("other group %+v", r)
	}
}

// TestProgressiveWinQueue: 6.02 §10.4: a hit queues the win and raises
// 0x56; 0x85 reads the oldest, 0x87 all; a win leaves only on the host's
// acknowledgement, and 0x56 comes back while wins remain unread.
func TestProgressiveWinQueue(t *testing.T) {
	p, q := newProg(t, 5, 1, 2)
	// Empty queue answers.
	if got := p.AnswerWin(); !bytes.Equal(got, make([]byte, 7)) {
		t.Fatalf("85 empty % X", got)
	}
	if got := p.AnswerWins(); !bytes.Equal(got, hexb(0x02, 0x05, 0x00)) {
		t.Fatalf("87 empty % X", got)
	}
	if got := p.Ack(); got != nil {
		t.Fatalf("acknowledging an empty answer: %v", got)
	}

	if err := p.Hit(11, 1, 500000); err != nil {
		t.Fatal(err)
	}
	if err := p.Hit(12, 2, 2500); err != nil {
		t.Fatal(err)
	}
	for _, bad := range []struct {
		id    uint64
		level byte
		amt   uint64
	}{{13, 3, 1}, {13, 0, 1}, {13, 1, MaxProgressiveAmount + 1}, {11, 1, 1}} {
		if err := p.Hit(bad.id, bad.level, bad.amt); err == nil {
			t.Errorf("Hit%v accepted", bad)
		}
	}
	if !slices.Equal(q.Pending(), []Exception{ExcProgressiveLevelHit}) || p.Unread() != 2 {
		t.Fatalf("after hits: %v, unread %d", q.Pending(), p.Unread())
	}
	q.Next()
	q.Ack() // the host took 0x56

	// 0x85: the oldest.
	if got := p.AnswerWin(); !bytes.Equal(got, hexb(0x05, 0x01, 0x00, 0x00, 0x50, 0x00, 0x00)) {
		t.Fatalf("85 % X", got)
	}
	p.ReplyAcked(0x1A) // another poll's reply: nothing
	p.ReplyDropped(0x87)
	if len(p.Acknowledged()) != 0 || !p.Queue()[0].InFlight {
		t.Fatal("another command's fate changed the queue")
	}
	p.ReplyAcked(0x85)
	if acked := p.Acknowledged(); len(acked) != 1 || acked[0].ID != 11 || acked[0].Amount != 500000 {
		t.Fatalf("acknowledged %+v", acked)
	}
	if !slices.Equal(q.Pending(), []Exception{ExcProgressiveLevelHit}) {
		t.Fatalf("0x56 not raised again for the unread win: %v", q.Pending())
	}
	// 0x87: what is unread (the acknowledged win is not sent again).
	if got := p.AnswerWins(); !bytes.Equal(got, hexb(0x08, 0x05, 0x01, 0x02, 0, 0, 0, 0x25, 0x00)) {
		t.Fatalf("87 % X", got)
	}
	// Lost with the link: unread again, 0x56 again.
	q.Next()
	q.Ack()
	p.ReplyDropped(0x87)
	if p.Unread() != 1 || p.Queue()[1].InFlight || !slices.Equal(q.Pending(), []Exception{ExcProgressiveLevelHit}) {
		t.Fatalf("after a dropped reply: %+v %v", p.Queue(), q.Pending())
	}
	p.AnswerWins()
	p.ReplyAcked(0x87)
	if p.Unread() != 0 || len(p.Acknowledged()) != 2 {
		t.Fatalf("%+v", p.Queue())
	}
	// Release after the award is committed.
	if err := p.Release(99); !errors.Is(err, ErrWinNotQueued) {
		t.Errorf("release of an unknown win: %v", err)
	}
	for _, id := range []uint64{12, 11} {
		if err := p.Release(id); err != nil {
			t.Fatal(err)
		}
	}
	if len(p.Queue()) != 0 {
		t.Fatalf("queue %+v", p.Queue())
	}
	if err := p.Hit(20, 1, 1); err != nil {
		t.Fatal(err)
	}
	if err := p.Release(20); !errors.Is(err, ErrWinNotQueued) {
		t.Errorf("release of an unread win: %v", err)
	}
}

func TestProgressiveWinQueueFull(t *testing.T) {
	p, _ := newProg(t, 1, 1)
	for i := range MaxProgressiveWins {
		if err := p.Hit(uint64(i), 1, uint64(i)); err != nil {
			t.Fatal(err)
		}
	}
	if err := p.Hit(1000, 1, 1); !errors.Is(err, ErrWinQueueFull) {
		t.Fatalf("33rd win: %v", err)
	}
	// One 0x87 carries them all.
	data := p.AnswerWins()
	if data[0] != 0xC2 || data[2] != 32 {
		t.Fatalf("87 of a full queue: % X", data[:3])
	}
	if got := p.Ack(); len(got) != 32 {
		t.Fatalf("acked %d", len(got))
	}
}

// TestProgressiveQueueRestart: the queue survives a restart through
// MarshalBinary; wins in flight are unread again (reported again), wins
// acknowledged stay acknowledged until released.
func TestProgressiveQueueRestart(t *testing.T) {
	p, _ := newProg(t, 5, 1, 2)
	p.Hit(1, 1, 100)
	p.Hit(2, 2, 200)
	p.Hit(3, 1, 300)
	p.AnswerWin()
	p.Ack() // win 1 acknowledged
	p.AnswerWins()
	if q := p.Queue(); !q[1].InFlight || !q[2].InFlight {
		t.Fatal("wins 2 and 3 should be in flight")
	}
	b, err := p.MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	want := []byte{1, 3}
	for _, w := range []struct {
		id      byte
		level   byte
		amt     []byte
		flagged byte
	}{{1, 1, hexb(0, 0, 0, 0x01, 0x00), 1}, {2, 2, hexb(0, 0, 0, 0x02, 0x00), 0}, {3, 1, hexb(0, 0, 0, 0x03, 0x00), 0}} {
		want = append(want, w.id, 0, 0, 0, 0, 0, 0, 0, 5, w.level)
		want = append(want, w.amt...)
		want = append(want, w.flagged)
	}
	if !bytes.Equal(b, want) {
		t.Fatalf("marshal % X\nwant    % X", b, want)
	}

	r, q := newProg(t, 5, 1, 2)
	if err := r.UnmarshalBinary(b); err != nil {
		t.Fatal(err)
	}
	got := r.Queue()
	if len(got) != 3 || !got[0].Acked || got[1].Acked || got[1].InFlight || got[2].InFlight {
		t.Fatalf("restored %+v", got)
	}
	if !slices.Equal(q.Pending(), []Exception{ExcProgressiveLevelHit}) {
		t.Fatalf("0x56 not raised for the restored unread wins: %v", q.Pending())
	}
	// The restored in-flight wins are sent again, the same bytes.
	if data := r.AnswerWins(); !bytes.Equal(data, hexb(0x0E, 5, 2, 2, 0, 0, 0, 0x02, 0, 1, 0, 0, 0, 0x03, 0)) {
		t.Fatalf("87 after restart % X", data)
	}
	if again, _ := r.MarshalBinary(); !bytes.Equal(again, b) {
		t.Fatal("marshal after restore differs")
	}

	// Strictness: every field checked, the queue unchanged on error.
	for name, mut := range map[string]func([]byte) []byte{
		"empty":             func(b []byte) []byte { return nil },
		"version":           func(b []byte) []byte { b[0] = 2; return b },
		"count":             func(b []byte) []byte { b[1] = 4; return b },
		"count over 32":     func(b []byte) []byte { return []byte{1, 33} },
		"truncated":         func(b []byte) []byte { return b[:len(b)-1] },
		"trailing":          func(b []byte) []byte { return append(b, 0) },
		"group 0":           func(b []byte) []byte { b[2+8] = 0; return b },
		"level not in cfg":  func(b []byte) []byte { b[2+9] = 3; return b },
		"bad BCD":           func(b []byte) []byte { b[2+12] = 0xAB; return b },
		"unknown flag":      func(b []byte) []byte { b[2+15] = 3; return b },
		"duplicate ID":      func(b []byte) []byte { b[2+16] = 1; return b },
		"level 0 (not cfg)": func(b []byte) []byte { b[2+9] = 0; return b },
	} {
		before := r.Queue()
		if err := r.UnmarshalBinary(mut(bytes.Clone(b))); !errors.Is(err, ErrProgressiveQueueFormat) {
			t.Errorf("%s: %v", name, err)
		}
		if !slices.Equal(r.Queue(), before) {
			t.Errorf("%s: queue changed on error", name)
		}
	}
	// An empty queue restores into any configuration.
	empty, _ := (&Progressive{}).MarshalBinary()
	if !bytes.Equal(empty, []byte{1, 0}) {
		t.Fatalf("empty % X", empty)
	}
	if err := r.UnmarshalBinary(empty); err != nil || len(r.Queue()) != 0 {
		t.Fatal(err)
	}
}

// TestProgressiveLongPoll: the Handler side, without a link.
func TestProgressiveLongPoll(t *testing.T) {
	p, _ := newProg(t, 5, 1)
	data, _ := SingleLevelBroadcastData(5, LevelValue{1, 777})
	if r := p.LongPoll(Request{Cmd: 0x80, Data: data, Now: t0}); r.kind != replyAck {
		t.Fatalf("80 addressed: %+v", r)
	}
	if v, ok := p.Value(1); !ok || v != 777 {
		t.Fatal("value not recorded")
	}
	if r := p.LongPoll(Request{Cmd: 0x80, Data: data[:6], Now: t0}); r.kind != replyNone {
		t.Fatal("malformed 80 answered")
	}
	other, _ := SingleLevelBroadcastData(6, LevelValue{1, 1})
	if r := p.LongPoll(Request{Cmd: 0x80, Data: other, Now: t0}); r.kind != replyAck {
		t.Fatal("well-formed 80 for another group not ACKed")
	}
	if v, _ := p.Value(1); v != 777 {
		t.Fatal("another group's value taken")
	}
	if r := p.LongPoll(Request{Cmd: 0x85}); r.kind != replyData || !bytes.Equal(r.data, make([]byte, 7)) {
		t.Fatalf("85: %+v", r)
	}
	if r := p.LongPoll(Request{Cmd: 0x87, Global: true}); r.kind != replyNone {
		t.Fatal("global 87 answered")
	}
	if r := p.LongPoll(Request{Cmd: 0x1A}); r.kind != replyNone {
		t.Fatal("1A answered")
	}
}
