package sas

import (
	"errors"
	"sync"
	"syscall"

	"golang.org/x/sys/unix"
)

var errNoFlush = errors.New("sas: the connection cannot discard its input without waiting")

// flushState is what FlushInput keeps from one call to the next: the
// connection's raw descriptor, the drain's buffer and its function, made
// once. Made at each call they were 3 allocations and 600 bytes a poll,
// the most of any allocation on the casino floor (issue 26).
type flushState struct {
	mu    sync.Mutex
	raw   syscall.RawConn
	err   error // why the connection has no raw descriptor
	drain func(fd uintptr) bool
	buf   [512]byte
	rerr  error // the drain's read error
}

// FlushInput discards what the peer sent and nobody read, without waiting.
// A host drains stale input before every poll; done with a short read
// deadline instead, the drain cost each poll a timer and a wake-up of the
// network poller (about 1.3 ms on an idle process), which on a multi-drop
// line of 16 cabinets was most of a round (issue 26). The socket is
// non-blocking under the runtime, so reading it until EAGAIN takes exactly
// what has arrived.
func (p *StreamPort) FlushInput() error {
	f := &p.flush
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.raw == nil && f.err == nil {
		sc, ok := p.Conn.(syscall.Conn)
		if !ok {
			f.err = errNoFlush
		} else if f.raw, f.err = sc.SyscallConn(); f.err == nil {
			f.drain = f.drainFD
		}
	}
	if f.err != nil {
		return f.err
	}
	f.rerr = nil
	err := f.raw.Read(f.drain)
	return errors.Join(err, f.rerr)
}

// drainFD reads fd until it has nothing more (EAGAIN), for RawConn.Read.
func (f *flushState) drainFD(fd uintptr) bool {
	for {
		n, err := unix.Read(int(fd), f.buf[:])
		switch {
		case n > 0, err == unix.EINTR:
			continue
		case err == unix.EAGAIN:
			return true // all of it
		case err != nil:
			f.rerr = err
		}
		return true // n == 0: the peer closed; the next Read says so
	}
}
