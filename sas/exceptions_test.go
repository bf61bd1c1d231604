package sas

import (
	"errors"
	"slices"
	"testing"
)

// drain reports every exception as a host that acknowledges each one.
func drain(q *ExceptionQueue) []Exception {
	var out []Exception
	for {
		e := q.Next()
		if e == ExcNone {
			return out
		}
		if q.Ack() != e {
			panic("Ack returned another exception")
		}
		out = append(out, e)
	}
}

func TestExceptionQueueFIFO(t *testing.T) {
	q := NewExceptionQueue(0)
	if q.Cap() != MinExceptionQueue {
		t.Fatalf("Cap() = %d, want %d", q.Cap(), MinExceptionQueue)
	}
	if NewExceptionQueue(30).Cap() != 30 {
		t.Fatal("capacity 30 not kept")
	}
	if q.Next() != ExcNone || q.Ack() != ExcNone {
		t.Fatal("empty queue reports something")
	}
	in := []Exception{ExcSlotDoorOpened, ExcSlotDoorClosed, ExcGameStarted, ExcGameEnded, ExcNone}
	for _, e := range in {
		q.Push(e)
	}
	if q.Len() != 4 {
		t.Fatalf("Len() = %d (0x00 must not be queued)", q.Len())
	}
	if got := drain(q); !slices.Equal(got, in[:4]) {
		t.Fatalf("reported %v, want %v", got, in[:4])
	}
}

func TestExceptionQueueInFlight(t *testing.T) {
	q := NewExceptionQueue(20)
	q.Push(ExcBillJam)
	q.Push(ExcGeneralTilt)
	if q.Next() != ExcBillJam || q.Next() != ExcBillJam || q.InFlight() != ExcBillJam {
		t.Fatal("Next must repeat what is in flight")
	}
	q.Nack()
	if q.InFlight() != ExcNone || q.Len() != 2 {
		t.Fatal("Nack must keep the exception")
	}
	q.Push(ExcHandpayPending) // a priority exception raised meanwhile goes first
	if q.Next() != ExcHandpayPending {
		t.Fatal("priority exception not first after Nack")
	}
	if q.Ack() != ExcHandpayPending || q.Next() != ExcBillJam || q.Ack() != ExcBillJam {
		t.Fatal("wrong order after the priority exception")
	}
}

func TestExceptionQueueOverflow(t *testing.T) {
	q := NewExceptionQueue(20)
	for i := range 21 {
		q.Push(Exception(0x11 + i%2)) // door open, close, …
	}
	q.Push(ExcBillAccepted)
	// 22 pushed into 20: the two oldest are gone, 0x70 comes first.
	got := drain(q)
	if len(got) != 21 || got[0] != ExcBufferOverflow {
		t.Fatalf("got %v", got)
	}
	want := []Exception{}
	for i := 2; i < 21; i++ {
		want = append(want, Exception(0x11+i%2))
	}
	want = append(want, ExcBillAccepted)
	if !slices.Equal(got[1:], want) {
		t.Fatalf("after 0x70: %v, want %v", got[1:], want)
	}
	// Overflow while the oldest is in flight: it is dropped; the host's
	// acknowledgement then removes nothing else.
	for range 20 {
		q.Push(ExcGameStarted)
	}
	if q.Next() != ExcGameStarted {
		t.Fatal("head")
	}
	q.Push(ExcGameEnded)
	if q.InFlight() != ExcNone || q.Ack() != ExcNone || q.Len() != 21 {
		t.Fatalf("in flight %v, len %d", q.InFlight(), q.Len())
	}
}

func TestExceptionQueuePriority(t *testing.T) {
	q := NewExceptionQueue(20)
	q.Push(ExcSlotDoorOpened)
	q.Push(ExcHandpayPending)
	q.Push(ExcHandpayPending) // not queued twice
	q.Push(ExcCashOutTicketPrinted)
	q.Push(ExcProgressiveLevelHit)
	q.Push(ExcGameLocked)
	q.Push(ExcSystemValidationReq)
	q.Push(ExcBufferOverflow)
	want := []Exception{0x57, 0x6F, 0x56, 0x3D, 0x51, 0x70, 0x11}
	if got := q.Pending(); !slices.Equal(got, want) {
		t.Fatalf("Pending() = %v, want %v", got, want)
	}
	if got := drain(q); !slices.Equal(got, want) {
		t.Fatalf("reported %v, want %v", got, want)
	}
	for _, e := range []Exception{0x51, 0x56, 0x3D, 0x57, 0x6F, 0x70} {
		if !e.Priority() {
			t.Errorf("%v must be priority", e)
		}
	}
	if ExcSlotDoorOpened.Priority() || ExcHandpayReset.Priority() {
		t.Error("ordinary exceptions marked priority")
	}
	// Raised again while in flight: reported again after the ack.
	q.Push(ExcHandpayPending)
	if q.Next() != ExcHandpayPending {
		t.Fatal("next")
	}
	q.Push(ExcHandpayPending)
	q.Ack()
	if got := drain(q); !slices.Equal(got, []Exception{ExcHandpayPending}) {
		t.Fatalf("re-raised priority exception: %v", got)
	}
}

func TestExceptionQueueZeroValue(t *testing.T) {
	var q ExceptionQueue
	q.Push(ExcGameLocked)
	q.Push(ExcGameStarted)
	if got := drain(&q); !slices.Equal(got, []Exception{ExcGameLocked, ExcGameStarted}) {
		t.Fatalf("zero value: %v", got)
	}
	if q.Cap() != MinExceptionQueue {
		t.Fatal("zero value capacity")
	}
}

func TestExceptionQueueMarshal(t *testing.T) {
	q := NewExceptionQueue(25)
	for _, e := range []Exception{ExcSlotDoorOpened, ExcHandpayPending, ExcBillJam, ExcGameLocked, ExcGameStarted} {
		q.Push(e)
	}
	q.Next() // in flight: 0x6F, not persisted (reported again after restart)
	b, err := q.MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	var r ExceptionQueue
	if err := r.UnmarshalBinary(b); err != nil {
		t.Fatal(err)
	}
	if r.Cap() != 25 || !slices.Equal(r.Pending(), q.Pending()) || r.InFlight() != ExcNone {
		t.Fatalf("restored %v cap %d, want %v", r.Pending(), r.Cap(), q.Pending())
	}
	b2, _ := r.MarshalBinary()
	if string(b2) != string(b) {
		t.Fatal("marshal is not stable")
	}
	if got := drain(&r); !slices.Equal(got, []Exception{0x6F, 0x51, 0x11, 0x28, 0x7E}) {
		t.Fatalf("restored queue reports %v", got)
	}

	good := append([]byte(nil), b...)
	for name, bad := range map[string][]byte{
		"short":         good[:5],
		"version":       append([]byte{3}, good[1:]...),
		"capacity < 20": {1, 19, 0, 0, 0, 0},
		"unknown flag":  {1, 20, 0, 0x40, 0, 0},
		"count > cap":   {1, 20, 0, 0, 21, 0},
		"missing codes": {1, 20, 0, 0, 2, 0, 0x11},
		"extra bytes":   {1, 20, 0, 0, 1, 0, 0x11, 0x12},
		"zero code":     {1, 20, 0, 0, 1, 0, 0x00},
		"priority code": {1, 20, 0, 0, 1, 0, 0x51},
	} {
		before, _ := r.MarshalBinary()
		if err := r.UnmarshalBinary(bad); !errors.Is(err, ErrQueueFormat) {
			t.Errorf("%s: error %v", name, err)
		}
		if after, _ := r.MarshalBinary(); string(after) != string(before) {
			t.Errorf("%s: a failed UnmarshalBinary changed the queue", name)
		}
	}
}

func TestExceptionNames(t *testing.T) {
	if ExcHandpayPending.Name() != "handpay pending" || Exception(0xEE).Name() != "exception 0xEE" {
		t.Fatal(ExcHandpayPending.Name(), Exception(0xEE).Name())
	}
	if ExcGameStarted.String() != "7E game started" {
		t.Fatal(ExcGameStarted.String())
	}
	for _, e := range []Exception{0x11, 0x12, 0x13, 0x14, 0x15, 0x16, 0x17, 0x18, 0x19, 0x1A, 0x1D, 0x1E,
		0x20, 0x28, 0x31, 0x39, 0x3A, 0x3C, 0x47, 0x50, 0x51, 0x52, 0x53, 0x54, 0x56, 0x60, 0x61,
		0x7E, 0x7F, 0x82, 0x83, 0x84, 0x85, 0x86} { // the codes sas.md lists
		if _, ok := exceptionNames[e]; !ok {
			t.Errorf("%02X has no name", byte(e))
		}
	}
}
