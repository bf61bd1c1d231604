package titopeer

import (
	"io"
	"net"
	"os"
	"sync"
	"time"

	"github.com/openegm/cabinet/sas"
)

// Pipe returns the two ends of an in-memory link: the machine's, for
// Serve, and the host's, for sas/host. Each direction is a buffer: a
// write never waits for the reader, and the host drains stale input at
// once (FlushInput) before each poll, as it does on a serial port or a
// TCP connection. Over a net.Pipe, which has neither, the drain could only
// wait out a 200 µs read deadline, 1.2 ms of timer and wake-up a poll on
// the ticket system's 5,000 polls a second of a floor of 1,000 cabinets
// (issue 26).
func Pipe() (machine net.Conn, hostPort sas.Port) {
	a, b := &stream{ready: make(chan struct{}, 1)}, &stream{ready: make(chan struct{}, 1)}
	return &memConn{in: a, out: b}, &memPort{memConn{in: b, out: a}}
}

// stream is one direction of a Pipe.
type stream struct {
	mu    sync.Mutex
	buf   []byte
	wDone bool          // the writing end closed: EOF once buf is read
	rDone bool          // the reading end closed: writes fail
	ready chan struct{} // a token when buf or the state changed
}

func (s *stream) wake() {
	select {
	case s.ready <- struct{}{}:
	default:
	}
}

// memConn is one end of a Pipe.
type memConn struct {
	in, out *stream
	mu      sync.Mutex // the read deadline and its timer
	dl      time.Time
	timer   *time.Timer
}

type pipeAddr struct{}

func (pipeAddr) Network() string { return "titopeer" }
func (pipeAddr) String() string  { return "titopeer" }

// Read reads what the other end wrote; it waits for a byte until the read
// deadline, io.EOF once the other end closed and everything was read.
func (c *memConn) Read(p []byte) (int, error) {
	s := c.in
	for {
		s.mu.Lock()
		switch {
		case s.rDone:
			s.mu.Unlock()
			return 0, net.ErrClosed
		case len(s.buf) > 0:
			n := copy(p, s.buf)
			s.buf = s.buf[:copy(s.buf, s.buf[n:])]
			s.mu.Unlock()
			return n, nil
		case s.wDone:
			s.mu.Unlock()
			return 0, io.EOF
		}
		s.mu.Unlock()
		if err := c.wait(); err != nil {
			return 0, err
		}
	}
}

// wait waits for a token on the input, or the read deadline.
func (c *memConn) wait() error {
	c.mu.Lock()
	dl := c.dl
	var expired <-chan time.Time
	if !dl.IsZero() {
		d := time.Until(dl)
		if d <= 0 {
			c.mu.Unlock()
			return os.ErrDeadlineExceeded
		}
		if c.timer == nil {
			c.timer = time.NewTimer(d)
		} else {
			c.timer.Reset(d)
		}
		expired = c.timer.C
	}
	c.mu.Unlock()
	select {
	case <-c.in.ready:
		if expired != nil {
			c.timer.Stop()
		}
		return nil
	case <-expired:
		return os.ErrDeadlineExceeded
	}
}

// Write appends p to the other end's input; it fails once either end
// closed.
func (c *memConn) Write(p []byte) (int, error) {
	s := c.out
	s.mu.Lock()
	switch {
	case s.wDone:
		s.mu.Unlock()
		return 0, net.ErrClosed
	case s.rDone:
		s.mu.Unlock()
		return 0, io.ErrClosedPipe
	}
	s.buf = append(s.buf, p...)
	s.mu.Unlock()
	s.wake()
	return len(p), nil
}

// Close ends both directions: the other end reads what is left, then
// io.EOF, and its writes fail.
func (c *memConn) Close() error {
	for _, s := range []*stream{c.in, c.out} {
		s.mu.Lock()
		s.rDone = s.rDone || s == c.in
		s.wDone = s.wDone || s == c.out
		s.mu.Unlock()
		s.wake()
	}
	return nil
}

// SetReadDeadline bounds the Reads that start after it.
func (c *memConn) SetReadDeadline(t time.Time) error {
	c.mu.Lock()
	c.dl = t
	c.mu.Unlock()
	return nil
}

// SetDeadline sets the read deadline: a write never waits.
func (c *memConn) SetDeadline(t time.Time) error      { return c.SetReadDeadline(t) }
func (c *memConn) SetWriteDeadline(t time.Time) error { return nil }
func (c *memConn) LocalAddr() net.Addr                { return pipeAddr{} }
func (c *memConn) RemoteAddr() net.Addr               { return pipeAddr{} }

// memPort is the host's end of a Pipe.
type memPort struct{ memConn }

// WriteWakeup writes b: the link has no 9th bit.
func (p *memPort) WriteWakeup(b byte) error {
	_, err := p.Write([]byte{b})
	return err
}

// Framing: the machine frames by content.
func (p *memPort) Framing() sas.FramerMode { return sas.ModeContent }

// FlushInput discards what the machine sent and nobody read, at once.
func (p *memPort) FlushInput() error {
	s := p.in
	s.mu.Lock()
	s.buf = s.buf[:0]
	s.mu.Unlock()
	return nil
}
