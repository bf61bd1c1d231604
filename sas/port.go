package sas

// The I/O edge. Unlike the pure core (crc.go … meters.go), the files
// port.go, tty_linux.go, serve.go and tcp.go do I/O: they move the bytes of
// the core between a Link and a serial line, a pseudo-terminal or a TCP
// connection.

import (
	"context"
	"net"
	"time"
)

// Port is a byte link between a machine and a host: a real serial port
// (OpenSerial), one end of a pseudo-terminal (OpenPTY, OpenTTY) or a TCP
// connection (NewStreamPort, DialTCP). Serve runs the machine side over a
// Port; package sas/host runs the host side.
type Port interface {
	// Read reads what arrived, as the port delivers it: with PARMRK escapes
	// when Framing is ModePARMRK.
	Read(p []byte) (int, error)
	// Write sends bytes without the wakeup bit. A message is sent with one
	// Write so that its bytes leave back to back.
	Write(p []byte) (int, error)
	Close() error
	// SetReadDeadline bounds the Reads that follow; past it a Read fails
	// with an error matching os.ErrDeadlineExceeded. The zero time removes
	// the bound.
	SetReadDeadline(t time.Time) error
	// WriteWakeup sends b with the wakeup (9th) bit set: the machine's
	// chirp, the host's address byte. On a real serial port the byte is
	// sent in mark parity (see SerialPort.WriteWakeup); a link without a
	// 9th bit (pseudo-terminal, TCP) sends the plain byte.
	WriteWakeup(b byte) error
	// Framing is how the bytes read from the port are framed: ModePARMRK
	// when they carry PARMRK escapes (a real serial port, or a port whose
	// peer writes the escapes), ModeContent otherwise.
	Framing() FramerMode
}

// writeDeadliner is implemented by ports whose writes can be bounded (all
// the ports of this package).
type writeDeadliner interface {
	SetWriteDeadline(t time.Time) error
}

// StreamPort is a Port over a net.Conn: TCP to a serial server, or any
// stream. It has no 9th bit: WriteWakeup writes the plain byte.
type StreamPort struct {
	net.Conn
	mode  FramerMode
	flush flushState // FlushInput's, where the system has it
}

// NewStreamPort wraps c. mode is the framing of what is read from c:
// ModeContent normally; ModePARMRK if the peer writes PARMRK escapes (a
// host using sas/host with Options.Escape).
func NewStreamPort(c net.Conn, mode FramerMode) *StreamPort {
	if mode != ModePARMRK {
		mode = ModeContent
	}
	if tc, ok := c.(*net.TCPConn); ok {
		_ = tc.SetNoDelay(true) // replies are small and must leave at once
	}
	return &StreamPort{Conn: c, mode: mode}
}

// WriteWakeup writes b as a plain byte: a stream carries no 9th bit.
func (p *StreamPort) WriteWakeup(b byte) error {
	_, err := p.Write([]byte{b})
	return err
}

// Framing returns the framing given to NewStreamPort.
func (p *StreamPort) Framing() FramerMode { return p.mode }

// DialTCP connects to addr (host:port), for the host side of a serial
// server link. The port frames by content.
func DialTCP(ctx context.Context, addr string) (*StreamPort, error) {
	var d net.Dialer
	c, err := d.DialContext(ctx, "tcp", addr)
	if err != nil {
		return nil, err
	}
	return NewStreamPort(c, ModeContent), nil
}
