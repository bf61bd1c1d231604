package sas

import (
	"bytes"
	"errors"
	"fmt"
	"time"
)

// Link timing.
const (
	// LinkTimeout is how long the machine waits without any address byte
	// before it considers the link down.
	LinkTimeout = 5 * time.Second
	// ChirpInterval is the period of the chirps while the link is down.
	ChirpInterval = 200 * time.Millisecond
	// maxDeferred bounds the replies waiting for a general poll.
	maxDeferred = 16
)

// Request is a long poll for the machine to execute: addressed to this
// machine with a good CRC, or broadcast (Global) with a good CRC for a
// command the table allows to be broadcast. Data is the bytes between the
// command and the CRC (the length byte of a variable-length poll
// included), nil for type R; it is only valid during the call.
type Request struct {
	Cmd    byte
	Data   []byte
	Global bool
	// Now is when the poll was received (the time given to
	// Link.Receive), for handlers that keep time-dependent state such as
	// the progressive broadcasts' 5 s rule.
	Now time.Time
}

type replyKind uint8

const (
	replyNone replyKind = iota
	replyAck
	replyBusy
	replyData
)

// Reply is a Handler's answer to a long poll. The zero Reply is no answer
// at all: what SAS requires for an unsupported long poll.
type Reply struct {
	kind replyKind
	data []byte
}

// NoReply is silence: the long poll is not supported (or malformed).
func NoReply() Reply { return Reply{} }

// ReplyAck answers with the address byte alone (ACK).
func ReplyAck() Reply { return Reply{kind: replyAck} }

// ReplyBusy answers addr 00: the machine cannot answer now. The host will
// ask again and the poll is then executed afresh.
func ReplyBusy() Reply { return Reply{kind: replyBusy} }

// ReplyData answers addr cmd data… CRC; the link adds address, command
// and CRC. The data is copied.
func ReplyData(data ...byte) Reply {
	return Reply{kind: replyData, data: append([]byte(nil), data...)}
}

// Handler executes long polls; the machine implements it. It is called
// from Link.Receive, synchronously, and its answer is sent (and kept for a
// resend) by the link. For broadcast polls (Request.Global) the answer is
// ignored: nothing is ever sent to a global poll.
//
// Choice: the brief allowed a callback or an Event the machine answers
// later. A callback keeps the reply, its resend and the implied
// acknowledgement in one place and one call, within the 20 ms SAS allows;
// the Event returned by Receive still tells the machine what happened.
type Handler interface {
	LongPoll(r Request) Reply
}

// ReplyObserver is implemented by a Handler that must know the fate of
// its replies to long polls, such as the SAS progressive win queue, whose
// entries leave only when the host has received them. The link calls it
// synchronously from Receive (before the Handler sees the next poll, so
// the two never disagree), Tick or Chirp (the link timeout).
type ReplyObserver interface {
	// ReplyAcked: the host moved on after the reply (data or ACK) to long
	// poll cmd, so the reply counts as received (implied ACK).
	ReplyAcked(cmd byte)
	// ReplyDropped: the reply to long poll cmd is given up without an
	// acknowledgement, because the link went down (an implied NACK). A
	// repeat of the poll is then executed afresh.
	ReplyDropped(cmd byte)
}

// HandlerFunc adapts a function to Handler.
type HandlerFunc func(r Request) Reply

// LongPoll calls h(r).
func (h HandlerFunc) LongPoll(r Request) Reply { return h(r) }

// EventKind says what a received frame was, for the machine.
type EventKind uint8

const (
	// EventNone: nothing for the machine (a poll to another machine, a
	// malformed or bad-CRC frame not for us, or a Tick with no change).
	EventNone EventKind = iota
	// EventGeneralPoll: a general poll to us, answered with Event.Code
	// (or, if Event.Deferred, with a deferred long-poll reply).
	EventGeneralPoll
	// EventLongPoll: the Handler executed long poll Event.Cmd and its
	// reply (data or ACK) was sent.
	EventLongPoll
	// EventGlobal: a global poll (address 0): a broadcast long poll given
	// to the Handler if its command may be broadcast, or a global general
	// poll (0x80, a sync byte). Never answered.
	EventGlobal
	// EventResent: the host repeated its last poll; the last reply was
	// sent again, byte for byte, and nothing was executed.
	EventResent
	// EventNacked: a long poll to us with a wrong CRC; NACK sent.
	EventNacked
	// EventBusy: the Handler said busy; addr 00 sent.
	EventBusy
	// EventUnsupported: a long poll to us that the cabinet or the Handler
	// does not support; no reply.
	EventUnsupported
	// EventNotSynced: a poll to us ignored by the start-up rule (no poll
	// to another address or global poll seen since power-up or link loss).
	EventNotSynced
	// EventLinkDown: from Tick, the link has just gone down.
	EventLinkDown
)

var eventNames = [...]string{"none", "general poll", "long poll", "global", "resent",
	"NACKed", "busy", "unsupported", "not synced", "link down"}

func (k EventKind) String() string {
	if int(k) < len(eventNames) {
		return eventNames[k]
	}
	return fmt.Sprintf("EventKind(%d)", uint8(k))
}

// Event tells the machine what the host did.
type Event struct {
	Kind EventKind
	// Cmd is the long poll command, when there is one.
	Cmd byte
	// Code is the exception sent to a general poll (ExcNone included).
	Code Exception
	// RealTime: the general poll was answered in real-time event
	// reporting mode (Link.RealTime): with the real-time event message of
	// Code, or with silence when Code is ExcNone.
	RealTime bool
	// Deferred: the general poll was answered with a deferred reply.
	Deferred bool
	// Acked: the host moved on, so the machine's previous reply counts as
	// received.
	Acked bool
	// AckedException is the exception that acknowledgement removed from
	// the queue, ExcNone if none: the queue changed and should be
	// persisted.
	AckedException Exception
	// AckedDeferred: the acknowledged reply was a deferred one (now gone).
	AckedDeferred bool
	// AckedCmd is the long poll whose reply (data or ACK) that
	// acknowledgement was for, 0 if none. The Handler, if it is a
	// ReplyObserver, has already been told.
	AckedCmd byte
	// LinkUp: this poll brought the link up.
	LinkUp bool
	// LinkDown: the link went down (LinkTimeout without an address byte)
	// before this frame or tick.
	LinkDown bool
}

type pendingKind uint8

const (
	pendingNone      pendingKind = iota
	pendingException             // a general poll answered with an exception code
	pendingDeferred              // a general poll answered with l.deferred[0]
	pendingLongPoll              // a long poll answered with data or ACK
)

// Link is the link layer of one machine address. It is pure: frames and
// the time come in, the bytes to send come out.
//
// Rules (sas.md): only polls to our address are answered, never global
// ones; a general poll gets the next exception; the machine's last reply
// counts as received when the host moves on (a different poll to us, a
// poll to another address, a global poll); a repeat of the same poll means
// the reply was lost, so the same bytes are sent again and nothing is
// executed or advanced; a long poll to us with a wrong CRC is NACKed; an
// unsupported one is not answered. After LinkTimeout without any address
// byte the link is down and the machine chirps every ChirpInterval until
// an address byte arrives; after power-up or a link loss polls to us are
// ignored until a poll to another address or a global poll is seen.
//
// A Link is not safe for concurrent use.
type Link struct {
	// Handler executes long polls; nil leaves every long poll unanswered.
	Handler Handler
	// Exceptions is the queue general polls are answered from. NewLink
	// makes an empty one; replace it with a restored queue before the
	// first poll. Persist it when an Event has AckedException set, and
	// after every Push.
	Exceptions *ExceptionQueue
	// RealTime is real-time event reporting (long poll 0x0E, which the
	// Handler executes by setting it): a general poll is answered with the
	// next exception's real-time event message, addr FF event data… CRC
	// (ExceptionQueue.NextEvent), or not at all when there is nothing to
	// report. Implied acknowledgement, resend and NACK are as for
	// exception codes. A deferred reply still goes first.
	//
	// Choice: silence when there is nothing to report. The SAS 6.02 digest
	// (12.6) says that in this mode 00 (no activity) is not reported and
	// "no activity is implied when no real-time event is sent", and so does
	// the comment of the Aristocrat client's HandleGeneralPoll (its code
	// sends addr FF 00 CRC).
	//
	// Choice: events are sent only to general polls. SAS 12.3 lets a
	// machine in this mode answer a long poll with a pending event instead
	// of the reply (the host then repeats the long poll); this link always
	// answers the long poll, and the event waits for the next general poll.
	RealTime bool

	addr byte

	seen        bool      // lastRx is set (the first call marks power-up)
	lastRx      time.Time // last address byte (frame) received
	chirped     bool      // a chirp was due since lastRx
	lastChirp   time.Time
	synced      bool // the start-up rule is satisfied
	up          bool
	downPending bool // the link went down; not yet reported

	pending   pendingKind
	lastCmd   byte   // the command of lastPoll, when pending is pendingLongPoll
	lastPoll  []byte // the poll that got lastReply
	lastReply []byte
	deferred  [][]byte
}

// NewLink returns the link of machine address addr (1–127) with an empty
// exception queue of MinExceptionQueue. The link starts down and not
// synchronised. An address outside 1–127 gives a link that answers nothing
// (address 0 is the broadcast address).
func NewLink(addr byte) *Link {
	if addr > MaxAddr {
		addr = GlobalAddr
	}
	return &Link{addr: addr, Exceptions: NewExceptionQueue(MinExceptionQueue)}
}

// Addr returns the machine address; it is also the chirp byte (sent with
// the wakeup bit).
func (l *Link) Addr() byte { return l.addr }

// Up reports whether the link is up: synchronised and polled by the host.
func (l *Link) Up() bool { return l.up }

// Synced reports whether the start-up synchronisation rule is satisfied.
func (l *Link) Synced() bool { return l.synced }

// Defer queues a reply to a long poll that could not be answered at once
// (the ROM signature, 0x21: ACKed at once, computed, then returned): it is
// sent as addr cmd data… CRC to a following general poll, before any
// exception, and kept until the host moves on. At most 16 wait; more drop
// the oldest.
func (l *Link) Defer(cmd byte, data ...byte) {
	if len(l.deferred) >= maxDeferred {
		if l.pending == pendingDeferred {
			l.forget() // the reply in flight is dropped: no resend, no ack
		}
		l.deferred = l.deferred[1:]
	}
	l.deferred = append(l.deferred, BuildReply(l.addr, cmd, data...))
}

// observe marks the first call as power-up.
func (l *Link) observe(now time.Time) {
	if !l.seen {
		l.seen, l.lastRx = true, now
	}
}

// expire applies the link timeout at now.
func (l *Link) expire(now time.Time) {
	if now.Sub(l.lastRx) < LinkTimeout {
		return
	}
	l.synced = false
	l.forget() // an implied NACK: what was in flight will be reported again
	if l.up {
		l.up, l.downPending = false, true
	}
}

// queue returns the exception queue, making one if the caller left it nil.
func (l *Link) queue() *ExceptionQueue {
	if l.Exceptions == nil {
		l.Exceptions = NewExceptionQueue(MinExceptionQueue)
	}
	return l.Exceptions
}

// forget drops the pending reply without acknowledging it.
func (l *Link) forget() {
	switch l.pending {
	case pendingException:
		l.queue().Nack()
	case pendingLongPoll:
		if o, ok := l.Handler.(ReplyObserver); ok {
			o.ReplyDropped(l.lastCmd)
		}
	}
	l.pending, l.lastCmd, l.lastPoll, l.lastReply = pendingNone, 0, nil, nil
}

// Tick applies the link timeout without a frame. It returns an Event with
// Kind EventLinkDown (and LinkDown set) once when the link goes down.
func (l *Link) Tick(now time.Time) Event {
	l.observe(now)
	l.expire(now)
	if l.downPending {
		l.downPending = false
		return Event{Kind: EventLinkDown, LinkDown: true}
	}
	return Event{}
}

// Chirp reports whether the machine should chirp now: LinkTimeout has
// passed without an address byte and ChirpInterval has passed since the
// last chirp. Call it at least every ChirpInterval; when it returns true,
// send Addr() with the wakeup bit set.
func (l *Link) Chirp(now time.Time) bool {
	l.observe(now)
	l.expire(now)
	if now.Sub(l.lastRx) < LinkTimeout {
		return false
	}
	if l.chirped && now.Sub(l.lastChirp) < ChirpInterval {
		return false
	}
	l.chirped, l.lastChirp = true, now
	return true
}

// Receive handles one frame from the host received at now and returns the
// bytes to send (nil: silence) and what happened. Only f.Raw is read; a
// frame that does not parse (other than a wrong CRC or an unsupported
// command) is ignored entirely.
func (l *Link) Receive(f Frame, now time.Time) (reply []byte, ev Event) {
	l.observe(now)
	l.expire(now)
	if l.downPending {
		l.downPending, ev.LinkDown = false, true
	}
	g, err := ParseFrame(f.Raw)
	badCRC := errors.Is(err, ErrCRC)
	if err != nil && !badCRC && !errors.Is(err, ErrUnsupported) {
		return nil, ev
	}
	// An address byte: the line is alive.
	l.lastRx, l.chirped = now, false
	ev.Cmd = g.Cmd

	if l.addr == GlobalAddr || g.Addr != l.addr {
		if badCRC {
			// Choice: a frame with a wrong CRC may have a corrupted
			// address; it neither acknowledges nor synchronises.
			return nil, ev
		}
		l.movedOn(&ev)
		l.synced = true
		if g.Global() {
			ev.Kind = EventGlobal
			if g.Kind == KindLong && !g.Unknown && longPollLength[g.Cmd].Global && l.Handler != nil {
				l.Handler.LongPoll(Request{Cmd: g.Cmd, Data: g.Data, Global: true, Now: now})
			}
		}
		return nil, ev
	}

	// A poll to us.
	if !l.synced {
		ev.Kind = EventNotSynced
		return nil, ev
	}
	if badCRC {
		ev.Kind = EventNacked
		return NackReply(l.addr), ev
	}
	if l.isRepeat(g.Raw) {
		ev.Kind = EventResent
		return bytes.Clone(l.lastReply), ev
	}
	l.movedOn(&ev)
	if !l.up {
		l.up, ev.LinkUp = true, true
	}

	if g.Kind == KindGeneral {
		ev.Kind = EventGeneralPoll
		switch {
		case len(l.deferred) > 0:
			ev.Deferred = true
			l.remember(g.Raw, l.deferred[0], pendingDeferred)
		case l.RealTime:
			ev.RealTime = true
			body := l.queue().NextEvent()
			if body == nil {
				return nil, ev // nothing to report: no activity is implied
			}
			ev.Code = l.queue().InFlight()
			l.remember(g.Raw, BuildReply(l.addr, RealTimeEventCmd, body...), pendingException)
		default:
			ev.Code = l.queue().Next()
			l.remember(g.Raw, []byte{byte(ev.Code)}, pendingException)
		}
		return bytes.Clone(l.lastReply), ev
	}

	if g.Unknown || l.Handler == nil {
		ev.Kind = EventUnsupported
		return nil, ev
	}
	r := l.Handler.LongPoll(Request{Cmd: g.Cmd, Data: g.Data, Now: now})
	switch r.kind {
	case replyAck:
		l.remember(g.Raw, AckReply(l.addr), pendingLongPoll)
		l.lastCmd = g.Cmd
	case replyData:
		l.remember(g.Raw, BuildReply(l.addr, g.Cmd, r.data...), pendingLongPoll)
		l.lastCmd = g.Cmd
	case replyBusy:
		ev.Kind = EventBusy
		return BusyReply(l.addr), ev
	default:
		ev.Kind = EventUnsupported
		return nil, ev
	}
	ev.Kind = EventLongPoll
	return bytes.Clone(l.lastReply), ev
}

// RealTimeEventCmd is the command byte of a real-time event message: addr
// FF event code, data… CRC.
const RealTimeEventCmd byte = 0xFF

// isRepeat reports whether raw repeats the poll whose reply is pending.
//
// Choice: every repeat is answered with the same bytes, however many
// times the host asks (the Aristocrat client goes silent at the third copy
// and executes the fourth afresh; sas.md does not say).
//
// Choice: a repeat is the same frame byte for byte. (The Aristocrat client
// compares only address and command; a new request with other data, say
// 0x2F for other meters, is then a new poll here, not a retry.) A general
// poll answered with 0x00 is answered afresh when repeated: resending
// "nothing" loses nothing, and an exception raised meanwhile gets out.
func (l *Link) isRepeat(raw []byte) bool {
	if l.pending == pendingNone || !bytes.Equal(raw, l.lastPoll) {
		return false
	}
	return !(l.pending == pendingException && l.lastReply[0] == byte(ExcNone))
}

func (l *Link) remember(poll, reply []byte, k pendingKind) {
	l.pending, l.lastPoll, l.lastReply = k, bytes.Clone(poll), reply
}

// movedOn applies the implied acknowledgement of the pending reply.
func (l *Link) movedOn(ev *Event) {
	switch l.pending {
	case pendingNone:
		return
	case pendingException:
		ev.AckedException = l.queue().Ack()
	case pendingDeferred:
		if len(l.deferred) > 0 {
			l.deferred = l.deferred[1:]
		}
		ev.AckedDeferred = true
	case pendingLongPoll:
		ev.AckedCmd = l.lastCmd
		if o, ok := l.Handler.(ReplyObserver); ok {
			o.ReplyAcked(l.lastCmd)
		}
	}
	ev.Acked = true
	l.pending, l.lastCmd, l.lastPoll, l.lastReply = pendingNone, 0, nil, nil
}
