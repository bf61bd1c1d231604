package main

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
)

// faultMark keeps a meter fault outside the ledger, which is what failed:
// the reason survives a restart even when the log cannot take a record, and
// the next start that can write the log turns it into a tilt only a
// technician clears (the tilt is then the ledger's own record).
//
// The file is allocated once at its full size and only ever overwritten in
// place, so writing the fault needs no new space on a disk that is full
// (on a board this is a few bytes of battery-backed memory).
type faultMark struct {
	f *os.File
}

const faultMarkSize = 4096

func openFaultMark(path string) (*faultMark, error) {
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o600)
	if err != nil {
		return nil, err
	}
	st, err := f.Stat()
	if err == nil && st.Size() != faultMarkSize {
		// New (or cut short by a power loss while it was made): no fault
		// was kept in it, so it is made again, empty.
		if _, err = f.WriteAt(make([]byte, faultMarkSize), 0); err == nil {
			err = f.Truncate(faultMarkSize)
		}
		if err == nil {
			err = f.Sync()
		}
	}
	if err != nil {
		f.Close()
		return nil, fmt.Errorf("meter fault marker %s: %w", path, err)
	}
	return &faultMark{f: f}, nil
}

// read returns the fault kept, "" when none.
func (m *faultMark) read() (string, error) {
	buf := make([]byte, faultMarkSize)
	if _, err := m.f.ReadAt(buf, 0); err != nil && !errors.Is(err, io.EOF) {
		return "", err
	}
	if i := bytes.IndexByte(buf, 0); i >= 0 {
		buf = buf[:i]
	}
	return string(buf), nil
}

// set keeps a fault (the first one stays: it is the cause).
func (m *faultMark) set(reason string) error {
	if cur, err := m.read(); err == nil && cur != "" {
		return nil
	}
	if len(reason) > faultMarkSize-1 {
		reason = reason[:faultMarkSize-1]
	}
	// Only the reason and its end: the fewer bytes written, the fewer
	// ways for the write to fail on a sick disk.
	if _, err := m.f.WriteAt(append([]byte(reason), 0), 0); err != nil {
		return err
	}
	return m.f.Sync()
}

// clear empties the marker once the ledger holds the fault as a tilt.
func (m *faultMark) clear() error {
	if _, err := m.f.WriteAt([]byte{0}, 0); err != nil {
		return err
	}
	return m.f.Sync()
}

func (m *faultMark) close() error { return m.f.Close() }
