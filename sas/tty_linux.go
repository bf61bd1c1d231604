package sas

import (
	"errors"
	"fmt"
	"os"
	"sync"
	"time"

	"golang.org/x/sys/unix"
)

// TTY is a Port over a terminal device: a real serial port (OpenSerial), the
// machine's end of a pseudo-terminal (OpenPTY) or a terminal opened by path
// (OpenTTY, the host's end of a pseudo-terminal). The file is used through
// Go's poller (never through File.Fd, which would make it blocking), so read
// and write deadlines work.
type TTY struct {
	f      *os.File
	name   string
	mode   FramerMode
	serial bool // a real UART in space parity: WriteWakeup switches to mark

	mu    sync.Mutex   // serialises writes with WriteWakeup's parity switch
	space unix.Termios // the settings applied at open (space parity)

	// The machine's end of a pseudo-terminal keeps the host's end open so
	// that its reads never fail with EIO when no host is attached, and
	// discards what nobody reads there (as a wire would) instead of
	// blocking when the buffer fills.
	peer     *os.File
	peerPath string
}

// Serial line settings.
const (
	// Baud is the SAS line speed.
	Baud = 19200
)

// SerialTermios returns t changed to the SAS line settings: raw, 19200 baud,
// 8 data bits, 1 stop bit, receiver on, modem lines ignored, parity
// generated and checked as SPACE (PARENB|CMSPAR, PARODD clear), or as MARK
// (PARODD set) when mark is true, and INPCK|PARMRK so that a byte received
// with the wakeup bit (a parity "error" in space parity) arrives as FF 00 xx
// and a data byte FF as FF FF. IGNPAR, ISTRIP and every translation are
// off; breaks are ignored (IGNBRK) rather than read as FF 00 00.
//
// VMIN=1, VTIME=0: a read returns as soon as one byte is there. (VMIN=0
// would make a read with no data return 0, which Go's poller takes for end
// of file; timing comes from read deadlines instead.)
func SerialTermios(t unix.Termios, mark bool) unix.Termios {
	t.Iflag &^= unix.IGNBRK | unix.BRKINT | unix.IGNPAR | unix.PARMRK | unix.INPCK |
		unix.ISTRIP | unix.INLCR | unix.IGNCR | unix.ICRNL | unix.IXON | unix.IXOFF |
		unix.IXANY | unix.IMAXBEL | unix.IUCLC | unix.IUTF8
	t.Iflag |= unix.IGNBRK | unix.INPCK | unix.PARMRK
	t.Oflag &^= unix.OPOST
	t.Lflag &^= unix.ECHO | unix.ECHONL | unix.ECHOE | unix.ECHOK | unix.ICANON |
		unix.ISIG | unix.IEXTEN | unix.TOSTOP
	t.Cflag &^= unix.CSIZE | unix.CSTOPB | unix.PARODD | unix.CRTSCTS | unix.CBAUD | unix.CBAUDEX
	t.Cflag |= unix.CS8 | unix.PARENB | unix.CMSPAR | unix.CREAD | unix.CLOCAL | unix.B19200
	if mark {
		t.Cflag |= unix.PARODD
	}
	t.Ispeed, t.Ospeed = unix.B19200, unix.B19200
	t.Cc[unix.VMIN], t.Cc[unix.VTIME] = 1, 0
	return t
}

// rawTermios returns t in raw mode with 8 data bits and no parity, for a
// pseudo-terminal (which carries no parity and clears PARENB anyway).
// VMIN=1, VTIME=0 as in SerialTermios.
func rawTermios(t unix.Termios) unix.Termios {
	t.Iflag &^= unix.IGNBRK | unix.BRKINT | unix.IGNPAR | unix.PARMRK | unix.INPCK |
		unix.ISTRIP | unix.INLCR | unix.IGNCR | unix.ICRNL | unix.IXON | unix.IXOFF |
		unix.IXANY | unix.IMAXBEL | unix.IUCLC | unix.IUTF8
	t.Oflag &^= unix.OPOST
	t.Lflag &^= unix.ECHO | unix.ECHONL | unix.ECHOE | unix.ECHOK | unix.ICANON |
		unix.ISIG | unix.IEXTEN | unix.TOSTOP
	t.Cflag &^= unix.CSIZE | unix.PARENB | unix.PARODD | unix.CMSPAR | unix.CRTSCTS
	t.Cflag |= unix.CS8 | unix.CREAD | unix.CLOCAL
	t.Cc[unix.VMIN], t.Cc[unix.VTIME] = 1, 0
	return t
}

// control runs fn on f's descriptor without taking it out of the poller.
func control(f *os.File, fn func(fd int) error) error {
	rc, err := f.SyscallConn()
	if err != nil {
		return err
	}
	var ferr error
	if err := rc.Control(func(fd uintptr) { ferr = fn(int(fd)) }); err != nil {
		return err
	}
	return ferr
}

func getTermios(f *os.File) (t unix.Termios, err error) {
	err = control(f, func(fd int) error {
		p, err := unix.IoctlGetTermios(fd, unix.TCGETS)
		if err == nil {
			t = *p
		}
		return err
	})
	return t, err
}

func setTermios(f *os.File, t unix.Termios) error {
	return control(f, func(fd int) error { return unix.IoctlSetTermios(fd, unix.TCSETS, &t) })
}

// tcdrain waits until everything written to f has been transmitted
// (tcdrain).
func tcdrain(f *os.File) error {
	return control(f, func(fd int) error { return unix.IoctlSetInt(fd, unix.TCSBRK, 1) })
}

// flushInput discards what was received on f and not read (tcflush
// TCIFLUSH).
func flushInput(f *os.File) error {
	return control(f, func(fd int) error { return unix.IoctlSetInt(fd, unix.TCFLSH, unix.TCIFLUSH) })
}

func openTTYFile(path string) (*os.File, error) {
	// O_NONBLOCK: do not wait for carrier on open; Go keeps the descriptor
	// non-blocking and waits in its poller.
	return os.OpenFile(path, os.O_RDWR|unix.O_NOCTTY|unix.O_NONBLOCK, 0)
}

// OpenSerial opens a real serial port (a UART such as /dev/ttyS0) for SAS:
// SerialTermios in space parity, input flushed. Its Framing is ModePARMRK.
// Both sides use it: the machine (Serve) and the host (sas/host).
func OpenSerial(path string) (*TTY, error) {
	f, err := openTTYFile(path)
	if err != nil {
		return nil, err
	}
	old, err := getTermios(f)
	if err != nil {
		f.Close()
		return nil, fmt.Errorf("sas: %s is not a terminal: %w", path, err)
	}
	t := SerialTermios(old, false)
	if err := setTermios(f, t); err != nil {
		f.Close()
		return nil, fmt.Errorf("sas: setting %s: %w", path, err)
	}
	_ = flushInput(f)
	return &TTY{f: f, name: path, mode: ModePARMRK, serial: true, space: t}, nil
}

// OpenTTY opens a terminal by path in raw mode, 8 data bits, no parity,
// with its input flushed (stale chirps and replies dropped): the host's end
// of a pseudo-terminal made by OpenPTY. Its Framing is ModeContent (a
// pseudo-terminal delivers the bytes as written).
func OpenTTY(path string) (*TTY, error) {
	f, err := openTTYFile(path)
	if err != nil {
		return nil, err
	}
	old, err := getTermios(f)
	if err != nil {
		f.Close()
		return nil, fmt.Errorf("sas: %s is not a terminal: %w", path, err)
	}
	t := rawTermios(old)
	if err := setTermios(f, t); err != nil {
		f.Close()
		return nil, fmt.Errorf("sas: setting %s: %w", path, err)
	}
	_ = flushInput(f)
	return &TTY{f: f, name: path, mode: ModeContent, space: t}, nil
}

// OpenPTY makes a pseudo-terminal pair for tests and simulators and returns
// the machine's end (the master); the host opens the other end by
// HostPath (OpenTTY, sashost --pty). mode is how the machine frames what
// the host writes: ModeContent, or ModePARMRK when the host writes the
// PARMRK escapes itself (FF 00 addr for the byte with the wakeup bit, FF FF
// for a data byte FF; sas/host Options.Escape). The host's end is set raw,
// without parity (a pseudo-terminal carries none and would double an FF
// under PARMRK). The machine's end sends plain bytes, chirps included.
//
// The machine's end keeps the host's end open: its reads never fail when no
// host is attached, and what no host reads is discarded when the
// pseudo-terminal is full (it would otherwise block the writer, where a
// wire loses the bytes). A host that opens HostPath later finds its input
// flushed.
func OpenPTY(mode FramerMode) (*TTY, error) {
	if mode != ModePARMRK {
		mode = ModeContent
	}
	m, err := os.OpenFile("/dev/ptmx", os.O_RDWR|unix.O_NOCTTY, 0)
	if err != nil {
		return nil, err
	}
	var n int
	err = control(m, func(fd int) error {
		// unlockpt; grantpt has nothing to do with devpts.
		if err := unix.IoctlSetPointerInt(fd, unix.TIOCSPTLCK, 0); err != nil {
			return fmt.Errorf("unlockpt: %w", err)
		}
		v, err := unix.IoctlGetInt(fd, unix.TIOCGPTN)
		if err != nil {
			return fmt.Errorf("ptsname: %w", err)
		}
		n = v
		return nil
	})
	if err != nil {
		m.Close()
		return nil, fmt.Errorf("sas: pseudo-terminal: %w", err)
	}
	path := fmt.Sprintf("/dev/pts/%d", n)
	s, err := OpenTTY(path)
	if err != nil {
		m.Close()
		return nil, err
	}
	return &TTY{f: m, name: "/dev/ptmx", mode: mode, peer: s.f, peerPath: path, space: s.space}, nil
}

// Name returns the path the port was opened with.
func (p *TTY) Name() string { return p.name }

// HostPath returns, for the machine's end of a pseudo-terminal, the path of
// the host's end; "" otherwise.
func (p *TTY) HostPath() string { return p.peerPath }

// Framing returns how bytes read from the port are framed.
func (p *TTY) Framing() FramerMode { return p.mode }

// Read reads what arrived.
func (p *TTY) Read(b []byte) (int, error) { return p.f.Read(b) }

// Write sends b in one write, without the wakeup bit.
func (p *TTY) Write(b []byte) (int, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.peer == nil {
		return p.f.Write(b)
	}
	return p.writeDiscarding(b)
}

// writeDiscarding writes b to the machine's end of a pseudo-terminal. When
// the pseudo-terminal is full (nobody reads the host's end) it discards
// what waits there, as a wire loses what nobody listens to, instead of
// blocking; only if it is still full does it wait (within the write
// deadline).
func (p *TTY) writeDiscarding(b []byte) (int, error) {
	rc, err := p.f.SyscallConn()
	if err != nil {
		return 0, err
	}
	n, flushed := 0, false
	var werr error
	err = rc.Write(func(fd uintptr) bool {
		for n < len(b) {
			k, e := unix.Write(int(fd), b[n:])
			if k > 0 {
				n += k
			}
			switch e {
			case nil, unix.EINTR:
			case unix.EAGAIN:
				if flushed {
					return false // wait until writable
				}
				_ = flushInput(p.peer)
				flushed = true
			default:
				werr = &os.PathError{Op: "write", Path: p.name, Err: e}
				return true
			}
		}
		return true
	})
	if err == nil {
		err = werr
	}
	return n, err
}

// SetReadDeadline bounds the Reads that follow.
func (p *TTY) SetReadDeadline(t time.Time) error { return p.f.SetReadDeadline(t) }

// SetWriteDeadline bounds the Writes that follow.
func (p *TTY) SetWriteDeadline(t time.Time) error { return p.f.SetWriteDeadline(t) }

// WriteWakeup sends b with the wakeup bit set.
//
// On a real serial port (OpenSerial) the 9th bit is the parity bit: the
// port waits until what was written has left (tcdrain), switches to MARK
// parity (PARODD|CMSPAR|PARENB), writes b, waits until it has left, and
// switches back to SPACE parity. This takes about two character times
// (~1 ms at 19200 baud); a byte received meanwhile would read as a parity
// error (FF 00 xx), which is why a machine only does it when the line is
// silent (a chirp) and a host only at the start of its own message.
//
// Elsewhere (pseudo-terminal) it writes the plain byte.
func (p *TTY) WriteWakeup(b byte) error {
	if !p.serial {
		_, err := p.Write([]byte{b})
		return err
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if err := tcdrain(p.f); err != nil {
		return err
	}
	if err := setTermios(p.f, SerialTermios(p.space, true)); err != nil {
		return err
	}
	_, werr := p.f.Write([]byte{b})
	derr := tcdrain(p.f)
	serr := setTermios(p.f, p.space)
	return errors.Join(werr, derr, serr)
}

// FlushInput discards what was received and not read.
func (p *TTY) FlushInput() error { return flushInput(p.f) }

// Termios returns the port's current settings, for diagnostics and tests.
func (p *TTY) Termios() (unix.Termios, error) { return getTermios(p.f) }

// Close closes the port (and, for the machine's end of a pseudo-terminal,
// the host's end it kept open).
func (p *TTY) Close() error {
	err := p.f.Close()
	if p.peer != nil {
		err = errors.Join(err, p.peer.Close())
	}
	return err
}
