package sas

import (
	"testing"
	"time"

	"golang.org/x/sys/unix"
)

// checkSAS checks the settings SerialTermios promises; parenb says whether
// PARENB must be read back (a pseudo-terminal clears it).
func checkSAS(t *testing.T, what string, tio unix.Termios, mark, parenb bool) {
	t.Helper()
	type bit struct {
		name string
		set  bool
		want bool
	}
	bits := []bit{
		{"CMSPAR", tio.Cflag&unix.CMSPAR != 0, true},
		{"PARODD", tio.Cflag&unix.PARODD != 0, mark},
		{"CS8", tio.Cflag&unix.CSIZE == unix.CS8, true},
		{"CSTOPB", tio.Cflag&unix.CSTOPB != 0, false},
		{"CREAD", tio.Cflag&unix.CREAD != 0, true},
		{"CLOCAL", tio.Cflag&unix.CLOCAL != 0, true},
		{"CRTSCTS", tio.Cflag&unix.CRTSCTS != 0, false},
		{"B19200", tio.Cflag&(unix.CBAUD|unix.CBAUDEX) == unix.B19200, true},
		{"INPCK", tio.Iflag&unix.INPCK != 0, true},
		{"PARMRK", tio.Iflag&unix.PARMRK != 0, true},
		{"IGNPAR", tio.Iflag&unix.IGNPAR != 0, false},
		{"ISTRIP", tio.Iflag&unix.ISTRIP != 0, false},
		{"IGNBRK", tio.Iflag&unix.IGNBRK != 0, true},
		{"ICRNL", tio.Iflag&unix.ICRNL != 0, false},
		{"IXON", tio.Iflag&unix.IXON != 0, false},
		{"OPOST", tio.Oflag&unix.OPOST != 0, false},
		{"ICANON", tio.Lflag&unix.ICANON != 0, false},
		{"ECHO", tio.Lflag&unix.ECHO != 0, false},
		{"ISIG", tio.Lflag&unix.ISIG != 0, false},
		{"VMIN=1", tio.Cc[unix.VMIN] == 1, true},
		{"VTIME=0", tio.Cc[unix.VTIME] == 0, true},
	}
	if parenb {
		bits = append(bits, bit{"PARENB", tio.Cflag&unix.PARENB != 0, true})
	}
	for _, b := range bits {
		if b.set != b.want {
			t.Errorf("%s: %s is %v, want %v", what, b.name, b.set, b.want)
		}
	}
}

func TestSerialTermios(t *testing.T) {
	// From a cooked terminal's settings, as a fresh UART has them.
	var cooked unix.Termios
	cooked.Iflag = unix.ICRNL | unix.IXON | unix.BRKINT | unix.ISTRIP | unix.IGNPAR
	cooked.Oflag = unix.OPOST | unix.ONLCR
	cooked.Cflag = unix.B9600 | unix.CS7 | unix.CSTOPB | unix.PARODD | unix.CRTSCTS | unix.HUPCL
	cooked.Lflag = unix.ICANON | unix.ECHO | unix.ISIG | unix.IEXTEN
	cooked.Cc[unix.VMIN], cooked.Cc[unix.VTIME] = 0, 5

	space := SerialTermios(cooked, false)
	checkSAS(t, "space", space, false, true)
	mark := SerialTermios(cooked, true)
	checkSAS(t, "mark", mark, true, true)
	if space.Ispeed != unix.B19200 || space.Ospeed != unix.B19200 {
		t.Errorf("speeds %o %o", space.Ispeed, space.Ospeed)
	}
	// Mark and space differ in PARODD only.
	if mark.Cflag&^unix.PARODD != space.Cflag || mark.Iflag != space.Iflag {
		t.Errorf("mark %o/%o vs space %o/%o", mark.Cflag, mark.Iflag, space.Cflag, space.Iflag)
	}
}

// TestSerialTermiosApplied applies the settings to a real terminal device
// (a pseudo-terminal) with TCSETS and reads them back with TCGETS: every
// flag survives except PARENB, which the Linux pseudo-terminal driver
// always clears (it carries no parity); that one is checked on the value
// passed in.
func TestSerialTermiosApplied(t *testing.T) {
	p, err := OpenPTY(ModeContent)
	if err != nil {
		t.Skipf("no pseudo-terminal: %v", err)
	}
	defer p.Close()
	for _, mark := range []bool{false, true} {
		want := SerialTermios(p.space, mark)
		if err := setTermios(p.peer, want); err != nil {
			t.Fatal(err)
		}
		got, err := getTermios(p.peer)
		if err != nil {
			t.Fatal(err)
		}
		checkSAS(t, "read back", got, mark, false)
		if got.Cflag&unix.PARENB == 0 {
			t.Logf("mark=%v: PARENB cleared by the pseudo-terminal driver, as expected", mark)
		}
	}
	// OpenTTY puts it back to raw 8 bits without parity.
	h, err := OpenTTY(p.HostPath())
	if err != nil {
		t.Fatal(err)
	}
	defer h.Close()
	got, err := h.Termios()
	if err != nil {
		t.Fatal(err)
	}
	if got.Iflag&(unix.PARMRK|unix.INPCK|unix.ICRNL) != 0 || got.Lflag&(unix.ICANON|unix.ECHO) != 0 ||
		got.Cflag&(unix.CMSPAR|unix.PARODD) != 0 || got.Cc[unix.VMIN] != 1 {
		t.Errorf("OpenTTY left iflag %o lflag %o cflag %o vmin %d", got.Iflag, got.Lflag, got.Cflag, got.Cc[unix.VMIN])
	}
}

// TestOpenSerialNotATerminal: OpenSerial refuses a file that is not a
// terminal.
func TestOpenSerialNotATerminal(t *testing.T) {
	if _, err := OpenSerial("/dev/null"); err == nil {
		t.Fatal("OpenSerial accepted /dev/null")
	}
}

// TestSerialOnPTY opens the host's end of a pseudo-terminal with
// OpenSerial, as a UART: the line discipline then applies PARMRK to what
// arrives (a data byte FF reads FF FF), and WriteWakeup goes through its
// drain / mark / write / drain / space sequence and leaves space parity.
func TestSerialOnPTY(t *testing.T) {
	m, err := OpenPTY(ModeContent)
	if err != nil {
		t.Skipf("no pseudo-terminal: %v", err)
	}
	defer m.Close()
	s, err := OpenSerial(m.HostPath())
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if s.Framing() != ModePARMRK {
		t.Fatalf("serial framing %v", s.Framing())
	}
	if _, err := m.Write([]byte{0x11, 0xFF, 0x22}); err != nil {
		t.Fatal(err)
	}
	got := readN(t, s, 4)
	if string(got) != "\x11\xff\xff\x22" {
		t.Fatalf("UART read % X, want 11 FF FF 22", got)
	}

	if err := s.WriteWakeup(0x05); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Write([]byte{0xFF}); err != nil {
		t.Fatal(err)
	}
	if got := readN(t, m, 2); string(got) != "\x05\xff" {
		t.Fatalf("machine end read % X", got)
	}
	tio, err := s.Termios()
	if err != nil {
		t.Fatal(err)
	}
	checkSAS(t, "after WriteWakeup", tio, false, false)
}

func readN(t *testing.T, p *TTY, n int) []byte {
	t.Helper()
	var out []byte
	buf := make([]byte, 16)
	p.SetReadDeadline(time.Now().Add(time.Second))
	for len(out) < n {
		k, err := p.Read(buf)
		out = append(out, buf[:k]...)
		if err != nil {
			t.Fatalf("read % X then %v", out, err)
		}
	}
	return out
}
