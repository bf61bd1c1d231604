package sas

import (
	"errors"
	"syscall"

	"golang.org/x/sys/unix"
)

var errNoFlush = errors.New("sas: the connection cannot discard its input without waiting")

// FlushInput discards what the peer sent and nobody read, without waiting.
// A host drains stale input before every poll; done with a short read
// deadline instead, the drain cost each poll a timer and a wake-up of the
// network poller (about 1.3 ms on an idle process), which on a multi-drop
// line of 16 cabinets was most of a round (issue 26). The socket is
// non-blocking under the runtime, so reading it until EAGAIN takes exactly
// what has arrived.
func (p *StreamPort) FlushInput() error {
	sc, ok := p.Conn.(syscall.Conn)
	if !ok {
		return errNoFlush
	}
	rc, err := sc.SyscallConn()
	if err != nil {
		return err
	}
	var buf [512]byte
	var rerr error
	err = rc.Read(func(fd uintptr) bool {
		for {
			n, err := unix.Read(int(fd), buf[:])
			switch {
			case n > 0, err == unix.EINTR:
				continue
			case err == unix.EAGAIN:
				return true // all of it
			case err != nil:
				rerr = err
			}
			return true // n == 0: the peer closed; the next Read says so
		}
	})
	return errors.Join(err, rerr)
}
