//go:build !linux

package sas

import (
	"errors"
	"time"
)

// ErrNoTTY: terminal devices are supported on Linux only (termios with
// CMSPAR and PARMRK as Linux has them).
var ErrNoTTY = errors.New("sas: serial ports and pseudo-terminals need Linux")

// TTY is a Port over a terminal device; Linux only.
type TTY struct{}

func OpenSerial(path string) (*TTY, error)      { return nil, ErrNoTTY }
func OpenTTY(path string) (*TTY, error)         { return nil, ErrNoTTY }
func OpenPTY(mode FramerMode) (*TTY, error)     { return nil, ErrNoTTY }
func (p *TTY) Name() string                     { return "" }
func (p *TTY) HostPath() string                 { return "" }
func (p *TTY) Framing() FramerMode              { return ModeContent }
func (p *TTY) Read(b []byte) (int, error)       { return 0, ErrNoTTY }
func (p *TTY) Write(b []byte) (int, error)      { return 0, ErrNoTTY }
func (p *TTY) SetReadDeadline(time.Time) error  { return ErrNoTTY }
func (p *TTY) SetWriteDeadline(time.Time) error { return ErrNoTTY }
func (p *TTY) WriteWakeup(b byte) error         { return ErrNoTTY }
func (p *TTY) FlushInput() error                { return ErrNoTTY }
func (p *TTY) Close() error                     { return nil }
