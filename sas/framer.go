package sas

import "time"

// FramerMode says how the framer finds the start of a message.
type FramerMode uint8

const (
	// ModePARMRK reads a Linux UART set to space parity with INPCK|PARMRK:
	// a byte received with the 9th (wakeup) bit set arrives as FF 00 xx and
	// a data byte 0xFF arrives as FF FF. Only a byte with the wakeup bit
	// starts a message; one always does, dropping whatever was partial.
	ModePARMRK FramerMode = iota + 1
	// ModeContent frames a stream that carries no wakeup bit (a
	// pseudo-terminal, serial over TCP): when no message is in progress the
	// next byte starts one, 0x80|addr being a general poll and addr the
	// start of a long poll whose length follows from the long-poll table.
	ModeContent
)

// InterByteGap is the longest silence allowed between two bytes of one
// message; a longer one drops a partial message and resynchronises.
const InterByteGap = 5 * time.Millisecond

// maxFrame is the longest poll: a variable-length poll with a length byte
// of 255.
const maxFrame = 5 + 255

// PARMRK escape states.
const (
	escNone = iota // plain bytes
	escFF          // seen FF
	escFF00        // seen FF 00: the next byte had the wakeup bit
)

// Framer turns bytes received from the host into polls. Both modes share
// one state machine; they differ only in what may start a message. It is
// pure: the caller passes the time the bytes arrived.
//
// Tolerance: bytes that cannot start a message where one is expected are
// dropped; a partial message is dropped on an inter-byte gap longer than
// InterByteGap and, in PARMRK mode, on a byte with the wakeup bit. After a
// long poll with an unsupported command, whose length is unknown, the
// framer discards bytes until the next gap (or wakeup byte in PARMRK mode)
// rather than misread its data as polls. No input can make it panic or
// hold more than one partial message (at most 260 bytes).
type Framer struct {
	mode    FramerMode
	esc     uint8
	buf     [maxFrame]byte
	n       int  // bytes of the partial message in buf
	need    int  // total length of the partial message once known, else 0
	skip    bool // discarding until resynchronisation
	last    time.Time
	started bool
	out     []Frame
}

// NewFramer returns a framer for the given mode. An unknown mode is treated
// as ModeContent.
func NewFramer(mode FramerMode) *Framer {
	if mode != ModePARMRK {
		mode = ModeContent
	}
	return &Framer{mode: mode}
}

// Mode returns the framer's mode.
func (f *Framer) Mode() FramerMode { return f.mode }

// Reset drops any partial message and escape state, as after opening the
// port.
func (f *Framer) Reset() {
	f.esc = escNone
	f.n, f.need, f.skip = 0, 0, false
	f.started = false
}

// Feed takes bytes received at now and returns the polls they complete, in
// order. The returned slice is reused by the next call; the frames in it
// (and their Raw bytes) stay valid. Feed(nil, now) applies the inter-byte
// gap rule without new bytes. A clock that goes backwards is treated as no
// gap.
func (f *Framer) Feed(p []byte, now time.Time) []Frame {
	f.out = f.out[:0]
	if f.started && now.Sub(f.last) > InterByteGap {
		// A gap: whatever was partial is lost, and the next byte is read
		// afresh.
		f.n, f.need, f.skip = 0, 0, false
	}
	if len(p) == 0 {
		return f.out
	}
	f.started, f.last = true, now
	for _, b := range p {
		if f.mode == ModeContent {
			f.byteIn(b, false)
			continue
		}
		switch f.esc {
		case escNone:
			if b == 0xFF {
				f.esc = escFF
			} else {
				f.byteIn(b, false)
			}
		case escFF:
			switch b {
			case 0xFF:
				f.esc = escNone
				f.byteIn(0xFF, false)
			case 0x00:
				f.esc = escFF00
			default:
				// Not a sequence PARMRK produces: take the FF as data and
				// read b afresh.
				f.esc = escNone
				f.byteIn(0xFF, false)
				f.byteIn(b, false)
			}
		case escFF00:
			f.esc = escNone
			f.byteIn(b, true)
		}
	}
	return f.out
}

// byteIn runs the framing state machine on one byte; wake is the 9th bit
// (always false in content mode).
func (f *Framer) byteIn(b byte, wake bool) {
	if f.mode == ModePARMRK {
		if wake {
			f.n, f.need, f.skip = 0, 0, false
			f.start(b)
			return
		}
		if f.n == 0 || f.skip {
			return // data without an address byte: another talker or noise
		}
		f.add(b)
		return
	}
	switch {
	case f.skip:
	case f.n == 0:
		f.start(b)
	default:
		f.add(b)
	}
}

func (f *Framer) start(b byte) {
	if b&GeneralPollBit != 0 {
		f.emit([]byte{b}, Frame{Kind: KindGeneral, Addr: b &^ GeneralPollBit})
		return
	}
	f.buf[0] = b
	f.n, f.need = 1, 0
}

func (f *Framer) add(b byte) {
	f.buf[f.n] = b
	f.n++
	switch f.n {
	case 2:
		spec, ok := LookupLongPoll(b)
		if !ok {
			// Length unknown: report the address and command (the host
			// has moved on; the link stays silent) and skip the rest.
			raw := []byte{f.buf[0], b}
			f.emit(raw, Frame{Kind: KindLong, Addr: raw[0], Cmd: b, Unknown: true})
			f.n, f.skip = 0, true
			return
		}
		if !spec.Variable {
			f.need = spec.Length
		}
	case 3:
		if f.need == 0 {
			f.need = longPollLength[f.buf[1]].Length + int(b)
		}
	}
	if f.need != 0 && f.n >= f.need {
		raw := make([]byte, f.n)
		copy(raw, f.buf[:f.n])
		fr := Frame{Kind: KindLong, Addr: raw[0], Cmd: raw[1]}
		if longPollLength[fr.Cmd].Type != PollR {
			fr.Data = raw[2 : len(raw)-2]
		}
		f.emit(raw, fr)
		f.n, f.need = 0, 0
	}
}

func (f *Framer) emit(raw []byte, fr Frame) {
	fr.Raw = raw
	f.out = append(f.out, fr)
}
