package sas

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
)

// Exception is a general-poll exception code: the one byte a machine
// answers to a general poll.
type Exception byte

// Exception codes. The list in sas.md, completed with the neighbouring
// codes of the same families; names after the public code lists (the
// saspy and Aristocrat Monaco SAS clients).
const (
	ExcNone                  Exception = 0x00 // no activity
	ExcSlotDoorOpened        Exception = 0x11
	ExcSlotDoorClosed        Exception = 0x12
	ExcDropDoorOpened        Exception = 0x13
	ExcDropDoorClosed        Exception = 0x14
	ExcCardCageOpened        Exception = 0x15
	ExcCardCageClosed        Exception = 0x16
	ExcACPowerApplied        Exception = 0x17
	ExcACPowerLost           Exception = 0x18
	ExcCashboxDoorOpened     Exception = 0x19
	ExcCashboxDoorClosed     Exception = 0x1A
	ExcCashboxRemoved        Exception = 0x1B
	ExcCashboxInstalled      Exception = 0x1C
	ExcBellyDoorOpened       Exception = 0x1D
	ExcBellyDoorClosed       Exception = 0x1E
	ExcGeneralTilt           Exception = 0x20
	ExcCoinInTilt            Exception = 0x21
	ExcCoinOutTilt           Exception = 0x22
	ExcHopperEmpty           Exception = 0x23
	ExcExtraCoinPaid         Exception = 0x24
	ExcDiverterMalfunction   Exception = 0x25
	ExcCashboxFull           Exception = 0x27
	ExcBillJam               Exception = 0x28
	ExcBillAcceptorFailure   Exception = 0x29
	ExcReverseBill           Exception = 0x2A
	ExcBillRejected          Exception = 0x2B
	ExcCounterfeitBill       Exception = 0x2C
	ExcReverseCoinIn         Exception = 0x2D
	ExcCashboxNearFull       Exception = 0x2E
	ExcCMOSRecovered         Exception = 0x31 // CMOS RAM error, data recovered from EEPROM
	ExcCMOSNotRecovered      Exception = 0x32 // CMOS RAM error, no data recovered
	ExcCMOSBadDevice         Exception = 0x33
	ExcEEPROMDataError       Exception = 0x34
	ExcEEPROMBadDevice       Exception = 0x35
	ExcEPROMVersionChanged   Exception = 0x36 // different checksum: version changed
	ExcEPROMBadChecksum      Exception = 0x37
	ExcPartEPROMVersion      Exception = 0x38 // partitioned EPROM, version changed
	ExcPartEPROMBadChecksum  Exception = 0x39
	ExcMemoryReset           Exception = 0x3A // operator used the self-test switch
	ExcLowBackupBattery      Exception = 0x3B
	ExcOperatorChangedOpts   Exception = 0x3C
	ExcCashOutTicketPrinted  Exception = 0x3D // priority
	ExcHandpayValidated      Exception = 0x3E
	ExcValidationIDNotConfig Exception = 0x3F
	ExcReelTilt              Exception = 0x40
	ExcReel1Tilt             Exception = 0x41
	ExcReel2Tilt             Exception = 0x42
	ExcReel3Tilt             Exception = 0x43
	ExcReel4Tilt             Exception = 0x44
	ExcReel5Tilt             Exception = 0x45
	ExcReelDisconnected      Exception = 0x46
	ExcBill1Accepted         Exception = 0x47
	ExcBill5Accepted         Exception = 0x48
	ExcBill10Accepted        Exception = 0x49
	ExcBill20Accepted        Exception = 0x4A
	ExcBill50Accepted        Exception = 0x4B
	ExcBill100Accepted       Exception = 0x4C
	ExcBill2Accepted         Exception = 0x4D
	ExcBill500Accepted       Exception = 0x4E
	ExcBillAccepted          Exception = 0x4F
	ExcBill200Accepted       Exception = 0x50
	ExcHandpayPending        Exception = 0x51 // priority
	ExcHandpayReset          Exception = 0x52
	ExcNoProgressive5s       Exception = 0x53 // no progressive information for 5 s
	ExcProgressiveWin        Exception = 0x54
	ExcHandpayCancelled      Exception = 0x55 // player cancelled the handpay request
	ExcProgressiveLevelHit   Exception = 0x56 // priority
	ExcSystemValidationReq   Exception = 0x57 // priority
	ExcPrinterCommError      Exception = 0x60
	ExcPrinterPaperOut       Exception = 0x61
	ExcCashOutButton         Exception = 0x66
	ExcTicketInserted        Exception = 0x67
	ExcTicketTransferDone    Exception = 0x68
	ExcAFTTransferDone       Exception = 0x69
	ExcAFTHostCashout        Exception = 0x6A // AFT request for host cashout
	ExcAFTHostCashoutWin     Exception = 0x6B // AFT request for host to cash out win
	ExcAFTRegisterRequest    Exception = 0x6C // AFT request to register
	ExcAFTRegistrationAck    Exception = 0x6D // AFT registration acknowledged
	ExcAFTRegistrationCancel Exception = 0x6E // AFT registration cancelled
	ExcGameLocked            Exception = 0x6F // priority
	ExcBufferOverflow        Exception = 0x70 // exception buffer overflow
	ExcChangeLampOn          Exception = 0x71
	ExcChangeLampOff         Exception = 0x72
	ExcPrinterPaperLow       Exception = 0x74
	ExcPrinterPowerOff       Exception = 0x75
	ExcPrinterPowerOn        Exception = 0x76
	ExcReplaceRibbon         Exception = 0x77
	ExcPrinterJammed         Exception = 0x78
	ExcCoinInLockout         Exception = 0x79
	ExcSoftMetersReset       Exception = 0x7A
	ExcBillTotalsReset       Exception = 0x7B
	ExcLegacyBonus           Exception = 0x7C
	ExcGameStarted           Exception = 0x7E
	ExcGameEnded             Exception = 0x7F
	ExcHopperFull            Exception = 0x80
	ExcHopperLow             Exception = 0x81
	ExcAttendantMenuEntered  Exception = 0x82
	ExcAttendantMenuExited   Exception = 0x83
	ExcOperatorMenuEntered   Exception = 0x84
	ExcOperatorMenuExited    Exception = 0x85
	ExcOutOfService          Exception = 0x86
	ExcGameRecallEntered     Exception = 0x8A
	ExcGameSelected          Exception = 0x8C
	ExcComponentListChanged  Exception = 0x8E
	ExcAuthenticationDone    Exception = 0x8F
)

var exceptionNames = map[Exception]string{
	ExcNone: "no activity",
	0x11:    "slot door opened", 0x12: "slot door closed",
	0x13: "drop door opened", 0x14: "drop door closed",
	0x15: "card cage opened", 0x16: "card cage closed",
	0x17: "AC power applied", 0x18: "AC power lost",
	0x19: "cashbox door opened", 0x1A: "cashbox door closed",
	0x1B: "cashbox removed", 0x1C: "cashbox installed",
	0x1D: "belly door opened", 0x1E: "belly door closed",
	0x20: "general tilt", 0x21: "coin in tilt", 0x22: "coin out tilt",
	0x23: "hopper empty", 0x24: "extra coin paid", 0x25: "diverter malfunction",
	0x27: "cashbox full", 0x28: "bill jam", 0x29: "bill acceptor hardware failure",
	0x2A: "reverse bill", 0x2B: "bill rejected", 0x2C: "counterfeit bill",
	0x2D: "reverse coin in", 0x2E: "cashbox near full",
	0x31: "CMOS RAM error (data recovered)", 0x32: "CMOS RAM error (no data recovered)",
	0x33: "CMOS RAM error (bad device)", 0x34: "EEPROM error (data)",
	0x35: "EEPROM error (bad device)", 0x36: "EPROM error (version changed)",
	0x37: "EPROM error (bad checksum)", 0x38: "partitioned EPROM error (version changed)",
	0x39: "partitioned EPROM error (bad checksum)", 0x3A: "memory error reset",
	0x3B: "low backup battery", 0x3C: "operator changed options",
	0x3D: "cash-out ticket printed", 0x3E: "handpay validated",
	0x3F: "validation ID not configured",
	0x40: "reel tilt", 0x41: "reel 1 tilt", 0x42: "reel 2 tilt", 0x43: "reel 3 tilt",
	0x44: "reel 4 tilt", 0x45: "reel 5 tilt", 0x46: "reel mechanism disconnected",
	0x47: "$1 bill accepted", 0x48: "$5 bill accepted", 0x49: "$10 bill accepted",
	0x4A: "$20 bill accepted", 0x4B: "$50 bill accepted", 0x4C: "$100 bill accepted",
	0x4D: "$2 bill accepted", 0x4E: "$500 bill accepted", 0x4F: "bill accepted",
	0x50: "$200 bill accepted",
	0x51: "handpay pending", 0x52: "handpay reset",
	0x53: "no progressive information for 5 s", 0x54: "progressive win",
	0x55: "handpay cancelled by player", 0x56: "SAS progressive level hit",
	0x57: "system validation request",
	0x60: "printer communication error", 0x61: "printer paper out",
	0x66: "cash-out button pressed", 0x67: "ticket inserted",
	0x68: "ticket transfer complete", 0x69: "AFT transfer complete",
	0x6A: "AFT request for host cashout", 0x6B: "AFT request for host to cash out win",
	0x6C: "AFT request to register", 0x6D: "AFT registration acknowledged",
	0x6E: "AFT registration cancelled",
	0x6F: "game locked", 0x70: "exception buffer overflow",
	0x71: "change lamp on", 0x72: "change lamp off",
	0x74: "printer paper low", 0x75: "printer power off", 0x76: "printer power on",
	0x77: "replace printer ribbon", 0x78: "printer carriage jammed",
	0x79: "coin in lockout malfunction", 0x7A: "soft meters reset to zero",
	0x7B: "bill validator totals reset", 0x7C: "legacy bonus pay awarded",
	0x7E: "game started", 0x7F: "game ended",
	0x80: "hopper full", 0x81: "hopper level low",
	0x82: "attendant menu entered", 0x83: "attendant menu exited",
	0x84: "operator menu entered", 0x85: "operator menu exited",
	0x86: "out of service", 0x8A: "game recall entered", 0x8C: "game selected",
	0x8E: "component list changed", 0x8F: "authentication complete",
}

// Name returns the display name of the exception ("exception 0xNN" when
// the code has none).
func (e Exception) Name() string {
	if n, ok := exceptionNames[e]; ok {
		return n
	}
	return fmt.Sprintf("exception 0x%02X", byte(e))
}

func (e Exception) String() string { return fmt.Sprintf("%02X %s", byte(e), e.Name()) }

// priorityOrder lists the priority exceptions in the order they are
// reported when several are pending, and gives each its flag bit (its index).
//
// Choice: sas.md names the five priority exceptions but not their order.
// The order is the one the Aristocrat Monaco client takes from SAS 6.03
// section 2.2.1 (57, …, 6F, 56, 3D, …, 51, …, 70), restricted to ours.
// 0x70 (buffer overflow) is also kept as a flag, after the others and
// before every queued exception: "report 0x70 next".
var priorityOrder = [...]Exception{
	ExcSystemValidationReq,  // 0x57
	ExcGameLocked,           // 0x6F
	ExcProgressiveLevelHit,  // 0x56
	ExcCashOutTicketPrinted, // 0x3D
	ExcHandpayPending,       // 0x51
	ExcBufferOverflow,       // 0x70
}

const allPriorityFlags = 1<<len(priorityOrder) - 1

func priorityIndex(e Exception) int {
	for i, p := range priorityOrder {
		if p == e {
			return i
		}
	}
	return -1
}

// Priority reports whether e is a priority exception: one pending flag,
// reported before queued exceptions, never queued twice.
func (e Exception) Priority() bool { return priorityIndex(e) >= 0 }

// ExceptionEvent is one queued happening: Code is what a general poll
// reports, and Event the body of its real-time event message (the event
// code and its data: addr FF Event… CRC), sent instead when the host has
// turned real-time event reporting on (0x0E). A nil Event is Code alone.
// The two codes may differ: a €50 bill is 0x4B as an exception and 0x4F
// (bill accepted, with its data) as a real-time event.
type ExceptionEvent struct {
	Code  Exception
	Event []byte
}

// body is the real-time event body of e.
func (e ExceptionEvent) body() []byte {
	if len(e.Event) == 0 {
		return []byte{byte(e.Code)}
	}
	return e.Event
}

// MaxEventBody bounds the body of a queued real-time event (code and data).
const MaxEventBody = 64

// MinExceptionQueue is the smallest FIFO SAS allows.
const MinExceptionQueue = 20

// ExceptionQueue holds the exceptions waiting for general polls: the
// pending priority flags and a FIFO of ordinary exceptions. Next and Ack
// implement the implied acknowledgement: Next chooses the code to report
// and remembers it as in flight; only Ack removes it, so a lost reply is
// reported again.
//
// The state (flags and FIFO, not what is in flight) is serialisable with
// MarshalBinary so that the cabinet can keep it in its ledger; restored
// after a restart, an exception that was in flight is reported again
// (delivery is at least once).
type ExceptionQueue struct {
	capacity int
	fifo     []ExceptionEvent
	flags    uint8 // bit i: priorityOrder[i] pending
	inflight int   // noneInFlight, 1+i for the flag of priorityOrder[i], or fifoInFlight
	code     Exception
	reraised bool // the priority exception in flight was pushed again meanwhile
}

// What is in flight. The zero value of ExceptionQueue is an empty queue of
// capacity MinExceptionQueue with nothing in flight.
const (
	noneInFlight = 0
	fifoInFlight = len(priorityOrder) + 1
)

// MaxExceptionQueue is the largest FIFO capacity (it is encoded in 16 bits).
const MaxExceptionQueue = 0xFFFF

// NewExceptionQueue returns an empty queue whose FIFO holds capacity
// exceptions, raised to MinExceptionQueue or lowered to MaxExceptionQueue
// if outside those bounds.
func NewExceptionQueue(capacity int) *ExceptionQueue {
	capacity = min(max(capacity, MinExceptionQueue), MaxExceptionQueue)
	return &ExceptionQueue{capacity: capacity, fifo: make([]ExceptionEvent, 0, capacity)}
}

// Cap returns the FIFO capacity.
func (q *ExceptionQueue) Cap() int { return max(q.capacity, MinExceptionQueue) }

// Len returns the number of exceptions waiting: pending priority flags
// plus queued exceptions.
func (q *ExceptionQueue) Len() int {
	n := len(q.fifo)
	for f := q.flags; f != 0; f &= f - 1 {
		n++
	}
	return n
}

// Push adds an exception. 0x00 is ignored. A priority exception (0x70
// included) sets its flag, once however often it is pushed; pushed again
// while it is in flight, it stays pending after the acknowledgement (it
// happened again after the report). An ordinary
// one joins the FIFO; if the FIFO is full its oldest exception is dropped
// and 0x70 is raised. If the dropped exception was in flight, the host's
// acknowledgement of it will remove nothing.
func (q *ExceptionQueue) Push(e Exception) { q.PushEvent(ExceptionEvent{Code: e}) }

// PushEvent is Push with the body of the real-time event message (see
// ExceptionEvent; it is copied). Priority exceptions are flags: they carry
// no data (SAS defines none for them), so their Event is dropped; so is an
// Event longer than MaxEventBody or whose event code is 0x00.
func (q *ExceptionQueue) PushEvent(ev ExceptionEvent) {
	e := ev.Code
	if e == ExcNone {
		return
	}
	if i := priorityIndex(e); i >= 0 {
		if q.inflight == 1+i {
			q.reraised = true
		}
		q.flags |= 1 << i
		return
	}
	if len(q.fifo) >= q.Cap() {
		copy(q.fifo, q.fifo[1:])
		q.fifo = q.fifo[:len(q.fifo)-1]
		q.flags |= 1 << priorityIndex(ExcBufferOverflow)
		if q.inflight == fifoInFlight {
			q.Nack()
		}
	}
	if len(ev.Event) > MaxEventBody || len(ev.Event) > 0 && ev.Event[0] == byte(ExcNone) {
		ev.Event = nil // not an event message: the code alone
	}
	q.fifo = append(q.fifo, ExceptionEvent{Code: e, Event: bytes.Clone(ev.Event)})
}

// Next returns the code to answer a general poll with (ExcNone when there
// is nothing) and marks it in flight. While something is in flight Next
// returns it again; Ack removes it, Nack puts it back.
func (q *ExceptionQueue) Next() Exception {
	if q.inflight != noneInFlight {
		return q.code
	}
	for i, p := range priorityOrder {
		if q.flags&(1<<i) != 0 {
			q.inflight, q.code = 1+i, p
			return p
		}
	}
	if len(q.fifo) > 0 {
		q.inflight, q.code = fifoInFlight, q.fifo[0].Code
		return q.code
	}
	return ExcNone
}

// NextEvent is Next for real-time event reporting: the body of the
// real-time event message to answer a general poll with (event code and
// data), nil when there is nothing to report. It marks the exception in
// flight like Next; Ack and Nack work the same.
func (q *ExceptionQueue) NextEvent() []byte {
	if q.Next() == ExcNone {
		return nil
	}
	if q.inflight == fifoInFlight {
		return bytes.Clone(q.fifo[0].body())
	}
	return []byte{byte(q.code)}
}

// InFlight returns the exception reported and not yet acknowledged, or
// ExcNone.
func (q *ExceptionQueue) InFlight() Exception {
	if q.inflight == noneInFlight {
		return ExcNone
	}
	return q.code
}

// Ack removes the exception in flight (the host has it) and returns it,
// or ExcNone if nothing was in flight.
func (q *ExceptionQueue) Ack() Exception {
	switch {
	case q.inflight == noneInFlight:
		return ExcNone
	case q.inflight == fifoInFlight:
		copy(q.fifo, q.fifo[1:])
		q.fifo = q.fifo[:len(q.fifo)-1]
	case !q.reraised:
		q.flags &^= 1 << (q.inflight - 1)
	}
	e := q.code
	q.Nack()
	return e
}

// Nack forgets what is in flight without removing it: it will be chosen
// again (possibly after a higher priority exception raised since).
func (q *ExceptionQueue) Nack() { q.inflight, q.code, q.reraised = noneInFlight, ExcNone, false }

// Pending returns the waiting exceptions in the order they will be
// reported, for display.
func (q *ExceptionQueue) Pending() []Exception {
	var out []Exception
	for i, p := range priorityOrder {
		if q.flags&(1<<i) != 0 {
			out = append(out, p)
		}
	}
	for _, e := range q.fifo {
		out = append(out, e.Code)
	}
	return out
}

// PendingEvents is Pending with the real-time event bodies (copies).
func (q *ExceptionQueue) PendingEvents() []ExceptionEvent {
	var out []ExceptionEvent
	for i, p := range priorityOrder {
		if q.flags&(1<<i) != 0 {
			out = append(out, ExceptionEvent{Code: p})
		}
	}
	for _, e := range q.fifo {
		out = append(out, ExceptionEvent{Code: e.Code, Event: bytes.Clone(e.Event)})
	}
	return out
}

// Binary form, version 1 (a queue without real-time event data):
//
//	0     version (1)
//	1–2   FIFO capacity, uint16 little endian (>= 20)
//	3     priority flags: bit i = priorityOrder[i] pending
//	4–5   number n of queued exceptions, uint16 little endian (<= capacity)
//	6…    n exception codes, oldest first (neither 0x00 nor a priority code)
//
// Version 2 (when some queued exception carries a real-time event body):
// bytes 0–5 as in version 1 with version 2, then for each of the n queued
// exceptions, oldest first: its code, the length L of its event body
// (0: the code alone, at most MaxEventBody), and the L bytes of the body,
// whose first byte (the event code) is not 0x00.
//
// Choice: MarshalBinary writes version 1 whenever it can, so a queue
// without event data reads the same as before real-time events existed.
const (
	queueFormat       = 1
	queueFormatEvents = 2
)

// ErrQueueFormat is returned (wrapped) by UnmarshalBinary for bad input.
var ErrQueueFormat = errors.New("sas: bad exception queue encoding")

// MarshalBinary encodes the queue's flags and FIFO (not what is in flight).
func (q *ExceptionQueue) MarshalBinary() ([]byte, error) {
	version := byte(queueFormat)
	for _, e := range q.fifo {
		if len(e.Event) > 0 {
			version = queueFormatEvents
		}
	}
	b := make([]byte, 6, 6+len(q.fifo))
	b[0] = version
	binary.LittleEndian.PutUint16(b[1:], uint16(q.Cap()))
	b[3] = q.flags
	binary.LittleEndian.PutUint16(b[4:], uint16(len(q.fifo)))
	for _, e := range q.fifo {
		b = append(b, byte(e.Code))
		if version == queueFormatEvents {
			b = append(b, byte(len(e.Event)))
			b = append(b, e.Event...)
		}
	}
	return b, nil
}

// UnmarshalBinary replaces the queue with an encoded one (version 1 or 2),
// validating every field; on error the queue is unchanged. Nothing is in
// flight afterwards.
func (q *ExceptionQueue) UnmarshalBinary(b []byte) error {
	if len(b) < 6 {
		return fmt.Errorf("%w: %d bytes, want at least 6", ErrQueueFormat, len(b))
	}
	version := b[0]
	if version != queueFormat && version != queueFormatEvents {
		return fmt.Errorf("%w: version %d, want %d or %d", ErrQueueFormat, b[0], queueFormat, queueFormatEvents)
	}
	capacity := int(binary.LittleEndian.Uint16(b[1:]))
	if capacity < MinExceptionQueue {
		return fmt.Errorf("%w: capacity %d below %d", ErrQueueFormat, capacity, MinExceptionQueue)
	}
	flags := b[3]
	if flags&^allPriorityFlags != 0 {
		return fmt.Errorf("%w: unknown priority flags 0x%02X", ErrQueueFormat, flags)
	}
	n := int(binary.LittleEndian.Uint16(b[4:]))
	if n > capacity {
		return fmt.Errorf("%w: %d queued exceptions exceed capacity %d", ErrQueueFormat, n, capacity)
	}
	if version == queueFormat && len(b) != 6+n {
		return fmt.Errorf("%w: %d bytes for %d exceptions, want %d", ErrQueueFormat, len(b), n, 6+n)
	}
	fifo := make([]ExceptionEvent, n, capacity)
	rest := b[6:]
	for i := range n {
		if len(rest) == 0 {
			return fmt.Errorf("%w: queued exception %d missing", ErrQueueFormat, i)
		}
		e := Exception(rest[0])
		if e == ExcNone || e.Priority() {
			return fmt.Errorf("%w: queued exception %d is 0x%02X, which is never queued", ErrQueueFormat, i, byte(e))
		}
		rest = rest[1:]
		fifo[i].Code = e
		if version == queueFormat {
			continue
		}
		if len(rest) == 0 {
			return fmt.Errorf("%w: queued exception %d has no event length", ErrQueueFormat, i)
		}
		l := int(rest[0])
		rest = rest[1:]
		if l > MaxEventBody || l > len(rest) {
			return fmt.Errorf("%w: queued exception %d: event body of %d bytes (%d left, at most %d)", ErrQueueFormat, i, l, len(rest), MaxEventBody)
		}
		if l > 0 {
			if rest[0] == byte(ExcNone) {
				return fmt.Errorf("%w: queued exception %d: real-time event code 0x00", ErrQueueFormat, i)
			}
			fifo[i].Event = bytes.Clone(rest[:l])
		}
		rest = rest[l:]
	}
	if len(rest) != 0 {
		return fmt.Errorf("%w: %d bytes after the last queued exception", ErrQueueFormat, len(rest))
	}
	*q = ExceptionQueue{capacity: capacity, fifo: fifo, flags: flags}
	return nil
}
