// Package host is the host side of SAS: it polls one gaming machine over a
// sas.Port the way a casino host does, for cmd/sashost and for end-to-end
// tests written in Go.
//
// The host's side of implied acknowledgement: moving on to another poll
// acknowledges the machine's last reply; when a reply is lost (no answer
// within Options.Timeout), garbled (bad CRC, wrong shape), NACKed or busy,
// the host sends the same bytes again, up to Options.Retries times, and
// sends nothing else in between (not even a sync byte, which would count
// as moving on). Conversely, the same poll twice in a row means "repeat"
// to the machine, so before a new poll identical to the last one answered
// (the next general poll, say) the client sends a global general poll
// (0x80), or the sync byte of Options.SyncAddr: that is the host moving on.
//
// Polls are framed for the transport: on a real serial port the address
// byte goes out with the wakeup bit (Port.WriteWakeup) and what is read
// carries PARMRK escapes (Framing ModePARMRK) that the client removes; on a
// pseudo-terminal or TCP the poll is written as is, or, with Options.Escape,
// with the PARMRK escapes a machine framing by PARMRK expects (FF 00 addr,
// data FF as FF FF).
package host

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"sync"
	"time"

	"github.com/openegm/cabinet/sas"
)

// Defaults.
const (
	DefaultRetries = 3
	// DefaultTimeout is how long the host waits for the first byte of a
	// reply. The machine must start within 20 ms; the margin covers
	// scheduling on a loaded test machine.
	DefaultTimeout = 100 * time.Millisecond
	// DefaultGap is the silence that ends a reply whose length the host
	// cannot tell (an ACK, or a reply to a command it has no length for).
	// SAS allows 5 ms between the bytes of a message.
	DefaultGap = 10 * time.Millisecond
	// resyncAfter: a host that has been silent this long sends a global
	// poll before its next poll, since the machine's link (5 s) may have
	// gone down and it then ignores polls until it sees one.
	resyncAfter = 4 * time.Second
)

// Errors.
var (
	// ErrNoReply: the machine did not answer (after every retry).
	ErrNoReply = errors.New("sas host: no reply")
	// ErrNacked: the machine NACKed every attempt (it saw a bad CRC).
	ErrNacked = errors.New("sas host: poll NACKed")
	// ErrBusy: the machine answered busy to every attempt.
	ErrBusy = errors.New("sas host: machine busy")
	// ErrPort: the port itself failed (a connection closed or reset, a
	// pseudo-terminal whose machine end is gone): no poll can pass until
	// the link is opened again.
	ErrPort = errors.New("sas host: the port failed")
)

// portErr marks err, from the port, as ErrPort.
func portErr(err error) error {
	if err == nil {
		return nil
	}
	return fmt.Errorf("%w: %w", ErrPort, err)
}

// Options configure a Client.
type Options struct {
	// Addr is the machine's address, 1–127.
	Addr byte
	// Escape writes PARMRK escapes (FF 00 for the byte with the wakeup bit,
	// FF FF for a data byte FF), for a machine that frames by PARMRK over a
	// link without parity (sas.OpenPTY(sas.ModePARMRK)). Ignored on a port
	// whose Framing is ModePARMRK (a real serial port), which sends the
	// wakeup bit itself.
	Escape bool
	// Retries is how many times a poll is repeated after a lost or bad
	// reply (DefaultRetries if 0; none if negative).
	Retries int
	// Timeout is the wait for the first reply byte (DefaultTimeout if 0).
	Timeout time.Duration
	// Gap is the silence that ends a reply of unknown length (DefaultGap
	// if 0).
	Gap time.Duration
	// RealTime: the machine has real-time event reporting on (0x0E, see
	// Client.SetRealTime, which keeps this up to date): it answers general
	// polls with real-time event messages, and with silence when it has
	// nothing to report, which GeneralPoll then takes for no activity.
	RealTime bool
	// SyncAddr, if not 0, makes the host send a general poll to that other
	// address (0x80|SyncAddr) before each new poll, as some hosts do; the
	// machine must take it as a sync byte. Never before a repeat.
	SyncAddr byte
	// Now is the clock for the idle re-synchronisation (time.Now if nil).
	// Reply timing always uses the real clock.
	Now func() time.Time
	// Lose, if not nil, is asked about every complete reply; when it
	// returns true the reply is discarded as if lost on the line and the
	// poll repeated. For tests.
	Lose func(poll, reply []byte, attempt int) bool
	// Trace, if not nil, sees every chunk written (tx true, after
	// escaping) and every reply received (tx false, unescaped).
	Trace func(tx bool, b []byte, at time.Time)
}

// Timing is what the client measured of the last reply, with the real
// clock: Latency from the end of the poll's write to the first reply byte
// read, MaxGap the longest wait between two chunks of the reply as read
// (bytes that arrive together count as no gap).
type Timing struct {
	Latency time.Duration
	MaxGap  time.Duration
	Bytes   int
}

// Client polls one machine. It is safe for concurrent use (polls are
// serialised).
type Client struct {
	mu     sync.Mutex
	port   sas.Port
	opt    Options
	serial bool // the port sends the wakeup bit and reads PARMRK escapes
	esc    uint8
	lastTx time.Time
	lastOK []byte // the last poll whose reply was accepted
	rt     bool   // real-time event reporting is on (Options.RealTime)
	timing Timing
	chirps int
	buf    []byte
	// Made once rather than at each poll (issue 26: a floor's hosts send
	// tens of thousands of general polls a second): the general poll, its
	// completeness test, the sync bytes, the buffers of what is written
	// and of lastOK, the messages of a send.
	general  []byte
	complete func([]byte) bool
	sync     []byte // the sync byte of Options.SyncAddr
	wbuf     []byte
	okBuf    []byte
	msgs     [3][]byte
}

// globalPoll is the global general poll (0x80), the host moving on.
var globalPoll = []byte{sas.GeneralPollBit | sas.GlobalAddr}

// New returns a client for the machine at opt.Addr on port.
func New(port sas.Port, opt Options) *Client {
	if opt.Retries == 0 {
		opt.Retries = DefaultRetries
	} else if opt.Retries < 0 {
		opt.Retries = 0
	}
	if opt.Timeout <= 0 {
		opt.Timeout = DefaultTimeout
	}
	if opt.Gap <= 0 {
		opt.Gap = DefaultGap
	}
	if opt.Now == nil {
		opt.Now = time.Now
	}
	opt.Addr &= sas.MaxAddr
	return &Client{port: port, opt: opt, serial: port.Framing() == sas.ModePARMRK, buf: make([]byte, 512), rt: opt.RealTime,
		general: sas.GeneralPollFrame(opt.Addr), complete: generalComplete(opt.Addr),
		sync: []byte{sas.GeneralPollBit | opt.SyncAddr&sas.MaxAddr}}
}

// Addr returns the machine address.
func (c *Client) Addr() byte { return c.opt.Addr }

// Port returns the port.
func (c *Client) Port() sas.Port { return c.port }

// Close acknowledges the last reply, if one was accepted, by moving on (a
// global general poll, which no machine answers), then closes the port.
// Without it the machine would report that last exception again to the
// next host once its link had timed out.
func (c *Client) Close() error {
	c.mu.Lock()
	defer c.mu.Unlock()
	var err error
	if c.lastOK != nil {
		err = c.write([][]byte{{sas.GeneralPollBit | sas.GlobalAddr}})
		c.lastOK = nil
	}
	return errors.Join(err, c.port.Close())
}

// LastTiming returns the timing of the last reply received.
func (c *Client) LastTiming() Timing {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.timing
}

// Chirps returns how many bytes with the wakeup bit (chirps) a serial port
// delivered outside replies.
func (c *Client) Chirps() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.chirps
}

// Sync sends a global general poll (0x80): the machine's start-up rule is
// then satisfied. The client does it by itself before its first poll and
// after 4 s without polling.
func (c *Client) Sync() error {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.write([][]byte{{sas.GeneralPollBit | sas.GlobalAddr}})
}

// RealTime reports whether the client takes the machine to have real-time
// event reporting on.
func (c *Client) RealTime() bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.rt
}

// GeneralPoll sends a general poll and returns the answer. With real-time
// event reporting on, silence is no activity (Exception sas.ExcNone,
// RealTime set): it is not repeated, and the next general poll goes without
// a sync byte before it, so that a machine whose event was lost on the line
// takes it for a repeat and sends the event again.
func (c *Client) GeneralPoll() (GeneralReply, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.rt {
		return c.generalRealTime()
	}
	var g GeneralReply
	raw, n, err := c.exchange(c.general, c.complete,
		func(raw []byte) error {
			var err error
			g, err = ParseGeneral(c.opt.Addr, raw)
			return err
		})
	g.Attempts = n
	if err != nil {
		return GeneralReply{Raw: raw, Attempts: n}, err
	}
	if len(raw) == 1 && raw[0] == byte(sas.ExcNone) {
		// The machine answers a repeated general poll afresh after "no
		// activity": nothing to move on from.
		c.lastOK = nil
	}
	return g, nil
}

// generalRealTime is GeneralPoll in real-time event reporting mode.
func (c *Client) generalRealTime() (GeneralReply, error) {
	frame := c.general
	var g GeneralReply
	var raw []byte
	var err error
	for attempt := 0; attempt <= c.opt.Retries; attempt++ {
		if err = c.send(frame, attempt == 0); err != nil {
			return GeneralReply{Attempts: attempt + 1}, err
		}
		raw, err = c.read(c.complete)
		switch {
		case errors.Is(err, ErrNoReply):
			c.lastOK = nil
			return GeneralReply{Exception: sas.ExcNone, Name: sas.ExcNone.Name(), RealTime: true, Attempts: attempt + 1}, nil
		case err != nil:
			return GeneralReply{Raw: raw, Attempts: attempt + 1}, err // the port failed
		case c.opt.Lose != nil && c.opt.Lose(frame, raw, attempt):
			err = fmt.Errorf("%w: reply discarded (test)", ErrNoReply)
			continue
		}
		if g, err = ParseGeneral(c.opt.Addr, raw); err == nil {
			g.Attempts = attempt + 1
			c.accepted(frame)
			if g.Exception == sas.ExcNone && g.Long == nil {
				c.lastOK = nil
			}
			return g, nil
		}
	}
	c.lastOK = nil
	return GeneralReply{Raw: raw, Attempts: c.opt.Retries + 1}, err
}

// LongPoll sends long poll cmd with data (for a variable-length poll, data
// starts with the length byte) and a CRC unless the command is type R, and
// returns the answer: ACK or data. NACK and busy answers are retried and
// reported as ErrNacked and ErrBusy; silence as ErrNoReply.
func (c *Client) LongPoll(cmd byte, data ...byte) (Response, error) {
	return c.LongPollFrame(sas.LongPollFrame(c.opt.Addr, cmd, data...))
}

// LongPollFrame is LongPoll with the frame built by the caller (address,
// command, data and CRC as they go on the wire).
func (c *Client) LongPollFrame(frame []byte) (Response, error) {
	if len(frame) < 2 {
		return Response{}, fmt.Errorf("sas host: long poll of %d bytes", len(frame))
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	addr, cmd := frame[0], frame[1]
	var r Response
	raw, n, err := c.exchange(frame, longComplete(addr, cmd), func(raw []byte) error {
		var err error
		r, err = ParseResponse(addr, cmd, raw)
		if err != nil {
			return err
		}
		switch r.Kind {
		case ReplyNack:
			return ErrNacked
		case ReplyBusy:
			return ErrBusy
		}
		return nil
	})
	r.Attempts = n
	if err != nil {
		return Response{Addr: addr, Cmd: cmd, Raw: raw, Attempts: n}, err
	}
	return r, nil
}

// Exchange sends any frame (its first byte with the wakeup bit) and returns
// the bytes that came back, ended by the reply's known length or by a gap;
// nil if none came within the timeout. No retries and no interpretation:
// for raw polls.
func (c *Client) Exchange(frame []byte) ([]byte, error) {
	if len(frame) == 0 {
		return nil, errors.New("sas host: empty frame")
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	var complete func([]byte) bool
	switch {
	case frame[0]&sas.GeneralPollBit != 0:
		complete = generalComplete(frame[0] &^ sas.GeneralPollBit)
	case len(frame) >= 2:
		complete = longComplete(frame[0], frame[1])
	default:
		complete = func([]byte) bool { return false }
	}
	if err := c.send(frame, true); err != nil {
		return nil, err
	}
	raw, err := c.read(complete)
	c.lastOK = nil
	if err == nil {
		c.accepted(frame)
	}
	if errors.Is(err, ErrNoReply) {
		return nil, nil
	}
	return raw, err
}

// exchange sends frame and reads the reply until check accepts it,
// repeating the same frame after a lost, rejected or discarded reply.
func (c *Client) exchange(frame []byte, complete func([]byte) bool, check func([]byte) error) (raw []byte, attempts int, err error) {
	for attempt := 0; attempt <= c.opt.Retries; attempt++ {
		attempts = attempt + 1
		if werr := c.send(frame, attempt == 0); werr != nil {
			return nil, attempts, werr
		}
		raw, err = c.read(complete)
		if err != nil {
			if !errors.Is(err, ErrNoReply) {
				return raw, attempts, err // the port failed
			}
			continue
		}
		if c.opt.Lose != nil && c.opt.Lose(frame, raw, attempt) {
			err = fmt.Errorf("%w: reply discarded (test)", ErrNoReply)
			continue
		}
		if err = check(raw); err == nil {
			c.accepted(frame)
			return raw, attempts, nil
		}
		if errors.Is(err, ErrBusy) {
			time.Sleep(c.opt.Gap)
		}
	}
	c.lastOK = nil // an identical next poll repeats this one
	return raw, attempts, err
}

// accepted records frame as the last poll whose reply was accepted (in
// a buffer of the client's: the frame is the caller's).
func (c *Client) accepted(frame []byte) {
	c.okBuf = append(c.okBuf[:0], frame...)
	c.lastOK = c.okBuf
}

// send writes frame; before a new poll (first) it sends the sync bytes
// the options and the idle time call for. Stale input is dropped first.
func (c *Client) send(frame []byte, first bool) error {
	c.dropStale()
	msgs := c.msgs[:0]
	if first {
		now := c.opt.Now()
		if c.lastTx.IsZero() || now.Sub(c.lastTx) >= resyncAfter {
			msgs = append(msgs, globalPoll)
		}
		if c.opt.SyncAddr != 0 && c.opt.SyncAddr&sas.MaxAddr != c.opt.Addr {
			msgs = append(msgs, c.sync)
		}
		if len(msgs) == 0 && bytes.Equal(frame, c.lastOK) {
			// Move on, or the machine takes the poll for a repeat.
			msgs = append(msgs, globalPoll)
		}
	}
	return c.write(append(msgs, frame))
}

// write sends messages, each with the wakeup bit on its first byte.
func (c *Client) write(msgs [][]byte) error { return portErr(c.writePort(msgs)) }

func (c *Client) writePort(msgs [][]byte) error {
	defer func() { c.lastTx = c.opt.Now() }()
	if c.serial {
		for _, m := range msgs {
			if err := c.port.WriteWakeup(m[0]); err != nil {
				return err
			}
			if len(m) > 1 {
				if _, err := c.port.Write(m[1:]); err != nil {
					return err
				}
			}
			c.trace(true, m)
		}
		return nil
	}
	out := c.wbuf[:0]
	for _, m := range msgs {
		if c.opt.Escape {
			out = append(out, 0xFF, 0x00, m[0])
			for _, b := range m[1:] {
				if b == 0xFF {
					out = append(out, 0xFF)
				}
				out = append(out, b)
			}
		} else {
			out = append(out, m...)
		}
	}
	c.wbuf = out
	_, err := c.port.Write(out)
	c.trace(true, out)
	return err
}

// trace passes b to Options.Trace, a copy: b may be a buffer of the
// client's, which the next poll writes over.
func (c *Client) trace(tx bool, b []byte) {
	if c.opt.Trace != nil {
		c.opt.Trace(tx, bytes.Clone(b), time.Now())
	}
}

// flusher is a port that can discard its input at once (sas.TTY).
type flusher interface{ FlushInput() error }

// dropStale discards input that arrived while no reply was awaited: a late
// reply, a chirp.
func (c *Client) dropStale() {
	c.esc = escNone
	if f, ok := c.port.(flusher); ok && f.FlushInput() == nil {
		return
	}
	for range 16 {
		if err := c.port.SetReadDeadline(time.Now().Add(200 * time.Microsecond)); err != nil {
			return
		}
		if n, err := c.port.Read(c.buf); n == 0 || err != nil {
			return
		}
	}
}

// read collects one reply: it waits Timeout for the first byte, then reads
// until complete says the reply is whole or a Gap passes without a byte.
func (c *Client) read(complete func([]byte) bool) ([]byte, error) {
	start := time.Now()
	deadline := start.Add(c.opt.Timeout)
	var msg []byte
	var last time.Time
	t := Timing{}
	for {
		if err := c.port.SetReadDeadline(deadline); err != nil {
			return msg, portErr(err)
		}
		n, err := c.port.Read(c.buf)
		now := time.Now()
		if n > 0 {
			data := c.unescape(c.buf[:n])
			if len(data) > 0 {
				if len(msg) == 0 {
					t.Latency = now.Sub(start)
				} else {
					t.MaxGap = max(t.MaxGap, now.Sub(last))
				}
				last = now
				msg = append(msg, data...)
				t.Bytes = len(msg)
				if complete(msg) {
					c.done(msg, t)
					return msg, nil
				}
				deadline = now.Add(c.opt.Gap)
			}
		}
		if err != nil {
			if !errors.Is(err, os.ErrDeadlineExceeded) {
				return msg, portErr(err)
			}
			if len(msg) == 0 {
				if now.Before(deadline) {
					continue
				}
				return nil, fmt.Errorf("%w within %v", ErrNoReply, c.opt.Timeout)
			}
			c.done(msg, t)
			return msg, nil
		}
	}
}

func (c *Client) done(msg []byte, t Timing) {
	c.timing = t
	c.trace(false, msg)
}

// PARMRK escape states of the input of a real serial port.
const (
	escNone = iota
	escFF
	escFF00
)

// unescape removes PARMRK escapes from the input of a real serial port and
// drops bytes received with the wakeup bit (chirps: a machine sets it on
// nothing else). Other ports' input is returned as is.
func (c *Client) unescape(in []byte) []byte {
	if !c.serial {
		return in
	}
	out := in[:0:0]
	for _, b := range in {
		switch c.esc {
		case escNone:
			if b == 0xFF {
				c.esc = escFF
			} else {
				out = append(out, b)
			}
		case escFF:
			switch b {
			case 0xFF:
				c.esc = escNone
				out = append(out, 0xFF)
			case 0x00:
				c.esc = escFF00
			default:
				c.esc = escNone
				out = append(out, 0xFF, b)
			}
		case escFF00:
			c.esc = escNone
			c.chirps++
		}
	}
	return out
}

// generalComplete tells when the answer to a general poll is whole: one
// byte, unless it is the machine's address, which may begin a deferred
// reply or a real-time event (addr cmd … CRC) as well as be an exception
// code: then the known length, or the gap, decides.
func generalComplete(addr byte) func([]byte) bool {
	return func(b []byte) bool {
		if b[0] != addr {
			return true
		}
		return len(b) >= 2 && dataComplete(b)
	}
}

// longComplete tells when the answer to long poll cmd is whole: a NACK at
// once, busy (addr 00) at once, a data reply at its known length with a
// good CRC; an ACK (the address alone) only after the gap.
func longComplete(addr, cmd byte) func([]byte) bool {
	return func(b []byte) bool {
		switch {
		case b[0] == addr|sas.NackBit && len(b) == 1:
			return true
		case b[0] != addr || len(b) < 2:
			return false
		case b[1] == 0:
			return len(b) == 2
		}
		return dataComplete(b)
	}
}

// dataComplete: b is a data reply of known length with a good CRC.
func dataComplete(b []byte) bool {
	n, ok := ReplyLength(b)
	return ok && len(b) == n && sas.CheckCRC(b)
}

// PollEvents sends a general poll every interval until ctx is done (it
// returns nil) or fn returns false, passing fn every answer other than "no
// activity". A poll that fails after its retries is passed to onErr (if
// not nil) and polling goes on.
func (c *Client) PollEvents(ctx context.Context, interval time.Duration, fn func(GeneralReply) bool, onErr func(error)) error {
	tk := time.NewTicker(interval)
	defer tk.Stop()
	for {
		g, err := c.GeneralPoll()
		switch {
		case err != nil:
			if onErr != nil {
				onErr(err)
			}
		case g.Exception != sas.ExcNone || g.Long != nil:
			if !fn(g) {
				return nil
			}
		}
		select {
		case <-ctx.Done():
			return nil
		case <-tk.C:
		}
	}
}
