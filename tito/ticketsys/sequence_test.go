package ticketsys

import (
	"testing"
	"time"

	"github.com/openegm/cabinet/tito"
	"github.com/openegm/cabinet/tito/titopeer"
)

func TestSequenceWentBack(t *testing.T) {
	for _, tc := range []struct {
		last, next uint16
		want       bool
	}{
		{0, 5, false},      // first ticket
		{5, 0, false},      // no number
		{5, 6, false},      // on
		{5, 9, false},      // a gap (tickets voided, not reported): on
		{6, 6, true},       // printed twice
		{7, 5, true},       // back
		{9999, 1, false},   // rolled over
		{9950, 40, false},  // rolled over, a few not reported
		{9950, 500, true},  // far from the roll-over
		{5000, 1, true},    // back to the start, not from the end
		{9899, 1, true},    // not near enough the end
		{9900, 100, false}, // at the window's edges
	} {
		if got := SequenceWentBack(tc.last, tc.next); got != tc.want {
			t.Errorf("SequenceWentBack(%d, %d) = %v, want %v", tc.last, tc.next, got, tc.want)
		}
	}
}

// The store keeps each cabinet's last ticket number and records an alarm
// when one goes back, durably (it is read back by a new Store), naming the
// cabinet, the old and the new number and validation.
func TestNoteTicketRecordsSequenceAlarms(t *testing.T) {
	c := sharedCluster(t)
	s := newStore(t, c)
	at := t0
	note := func(cab string, n uint16, digits string) *SequenceAlarm {
		t.Helper()
		at = at.Add(time.Minute)
		a, err := s.NoteTicket(ctx(t), cab, n, digits, at)
		if err != nil {
			t.Fatal(err)
		}
		return a
	}
	for i, n := range []uint16{1, 2, 3} {
		if a := note("m1", n, "0000000000000000"+string(rune('1'+i))+"0"); a != nil {
			t.Fatalf("ticket %d: %v", n, a)
		}
	}
	if a := note("m2", 1, "990000000000000001"); a != nil {
		t.Fatalf("another cabinet's first ticket: %v", a)
	}
	if a := note("m1", 3, "000000000000000030"); a != nil {
		t.Fatalf("the same ticket again: %v", a)
	}
	a := note("m1", 2, "000000000000000020")
	if a == nil || a.Cabinet != "m1" || a.Old != 3 || a.New != 2 || a.OldDigits != "000000000000000030" {
		t.Fatalf("ticket 2 after 3: %+v", a)
	}
	if a := note("m1", 3, "000000000000000031"); a != nil {
		t.Fatalf("on after the alarm: %v", a)
	}
	got, err := s.SequenceAlarms(ctx(t))
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 1 || got[0] != *a {
		t.Fatalf("recorded %+v, want the one alarm %+v", got, a)
	}
}

// A cabinet restored from a copy (here: a new peer under the same name,
// whose ticket numbers start again) prints a number it printed before: the
// system, which recorded the later ones, records the alarm.
func TestServiceSeesTicketNumbersGoBack(t *testing.T) {
	s := newStore(t, sharedCluster(t))
	f := newFloor(t, s)
	a, stop := f.add(titopeer.Config{Name: "a"})
	waitFor(t, "the validation ID of a", func() bool { return a.Enhanced().Configured() })
	var last tito.Ticket
	for i := range 3 {
		a.AddCredits(int64(100 * (i + 1)))
		if err := a.Cashout(int64(100 * (i + 1))); err != nil {
			t.Fatal(err)
		}
		last = a.Printed()[i]
		waitFor(t, "the ticket recorded", func() bool { _, ok := f.ticket(last.Validation.Digits()); return ok })
	}
	// The number is noted after the ticket is recorded: the restore must
	// come after the system noted the last one.
	waitFor(t, "the last number noted", func() bool {
		_, d, err := s.LastTicket(f.ctx, "a")
		return err == nil && d == last.Validation.Digits()
	})
	stop()
	if got, err := s.SequenceAlarms(ctx(t)); err != nil || len(got) != 0 {
		t.Fatalf("alarms before the restore: %+v %v", got, err)
	}

	b, _ := f.add(titopeer.Config{Name: "a"})
	waitFor(t, "the validation ID of the restored a", func() bool { return b.Enhanced().Configured() })
	b.AddCredits(700)
	if err := b.Cashout(700); err != nil {
		t.Fatal(err)
	}
	again := b.Printed()[0]
	if again.Number >= last.Number {
		t.Fatalf("the restored peer printed ticket %d after %d: the test needs it lower", again.Number, last.Number)
	}
	var got []SequenceAlarm
	waitFor(t, "the alarm", func() bool {
		got, _ = s.SequenceAlarms(f.ctx)
		return len(got) > 0
	})
	want := SequenceAlarm{Cabinet: "a", At: got[0].At, Old: last.Number, OldDigits: last.Validation.Digits(),
		New: again.Number, NewDigits: again.Validation.Digits()}
	if len(got) != 1 || got[0] != want {
		t.Fatalf("alarms %+v, want %+v", got, want)
	}
}
