// Package aftsim is a gaming machine reduced to AFT, built on the aft
// core and served on a sas.Port: the peer the host side's tests
// (sas/host, cmd/sashost) talk to until the cabinet answers AFT itself.
//
// It frames by content what the host writes (general polls and long
// polls 72, 73, 74 and 75; anything else is dropped unanswered), answers
// from the core, keeps a ledger of the committed records, and commits a
// transfer's record one poll after it accepted it, so that the host sees
// it pending first; a receipt asked for comes out of its printer one poll
// after that. PowerLossNext makes it lose the next accepted
// transfer before its commit and come back from its ledger, as a power
// loss would.
package aftsim

import (
	"context"
	"errors"
	"fmt"
	"os"
	"slices"
	"sync"
	"time"

	"github.com/openegm/cabinet/aft"
	"github.com/openegm/cabinet/sas"
)

// Machine is the simulated machine. Its methods are safe for concurrent
// use with Serve.
type Machine struct {
	mu        sync.Mutex
	addr      byte
	cfg       aft.Config
	cond      aft.Conditions
	core      *aft.Core
	ledger    []aft.Record
	exc       []aft.Exception
	pending   *aft.Transfer
	receipt   *aft.Receipt // to print at the next poll
	waited    bool
	powerLoss bool
	now       time.Time
}

// New returns a machine at SAS address addr with the AFT configuration
// cfg, idle, with no credits, a credit limit of creditLimit cents and
// its printer ready. Its clock starts at start and moves one second a
// poll.
func New(addr byte, cfg aft.Config, creditLimit int64, start time.Time) *Machine {
	return &Machine{addr: addr, cfg: cfg, core: aft.New(cfg, aft.State{}), now: start,
		cond: aft.Conditions{CreditLimit: creditLimit, PrinterReady: true}}
}

// PowerLossNext: the next transfer the machine accepts is lost before
// its record is committed.
func (m *Machine) PowerLossNext() {
	m.mu.Lock()
	m.powerLoss = true
	m.mu.Unlock()
}

// Credits returns the credits on the machine.
func (m *Machine) Credits() aft.Credits {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.cond.Credits
}

// Ledger returns the committed records, in order.
func (m *Machine) Ledger() []aft.Record {
	m.mu.Lock()
	defer m.mu.Unlock()
	return slices.Clone(m.ledger)
}

func (m *Machine) commit(r aft.Record) error {
	exc, err := m.core.Committed(r, m.now)
	if err != nil {
		return err
	}
	m.ledger = append(m.ledger, r)
	if t, ok := r.(aft.Transfer); ok {
		m.cond.Credits = m.cond.Credits.Apply(t)
	}
	m.exc = append(m.exc, exc...)
	return nil
}

// step commits the pending transfer once a poll has passed since it was
// accepted, or loses it to a power loss.
func (m *Machine) step() error {
	m.now = m.now.Add(time.Second)
	if r := m.receipt; r != nil && m.pending == nil {
		m.receipt = nil
		if err := m.commit(*r); err != nil {
			return err
		}
	}
	if m.pending == nil {
		return nil
	}
	switch {
	case m.powerLoss:
		m.powerLoss, m.pending = false, nil
		st, err := aft.Fold(m.ledger)
		if err != nil {
			return err
		}
		m.core = aft.New(m.cfg, st)
	case m.waited:
		rec := *m.pending
		m.pending = nil
		if rec.ReceiptStatus == aft.ReceiptPending {
			m.receipt = &aft.Receipt{Position: rec.Position, ID: rec.ID}
		}
		return m.commit(rec)
	default:
		m.waited = true
	}
	return nil
}

func (m *Machine) longPoll(cmd byte, data []byte) ([]byte, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if err := m.step(); err != nil {
		return nil, err
	}
	switch cmd {
	case sas.CmdAFTTransfer:
		q, err := sas.DecodeAFTTransfer(data)
		var ae *sas.AFTError
		if errors.As(err, &ae) {
			return sas.EncodeAFTTransferReply(aft.TransferReply{Status: ae.Status, At: m.now}), nil
		}
		d := m.core.Transfer(q, m.cond, m.now)
		if d.Record != nil {
			m.pending, m.waited = d.Record, false
		}
		return sas.EncodeAFTTransferReply(d.Reply), nil
	case sas.CmdAFTRegister:
		q, err := sas.DecodeAFTRegister(data)
		if err != nil {
			return nil, nil // malformed: no reply, as for a bad long poll
		}
		r, rec := m.core.Register(q)
		if rec != nil {
			if err := m.commit(*rec); err != nil {
				return nil, err
			}
		}
		return sas.EncodeAFTRegisterReply(r), nil
	case sas.CmdAFTLock:
		q, err := sas.DecodeAFTLock(data)
		if err != nil {
			return nil, nil
		}
		m.exc = append(m.exc, m.core.Tick(m.cond, m.now)...)
		r, exc := m.core.Lock(q, m.cond, m.now)
		m.exc = append(m.exc, exc...)
		return sas.EncodeAFTStatusReply(r), nil
	case sas.CmdAFTReceiptData:
		q, err := sas.DecodeAFTReceiptData(data)
		if err != nil {
			return nil, nil
		}
		return ack, m.commit(q)
	}
	return nil, nil
}

// ack is longPoll's answer for an ACK (the address byte alone).
var ack = []byte{}

func (m *Machine) generalPoll() (byte, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if err := m.step(); err != nil {
		return 0, err
	}
	m.exc = append(m.exc, m.core.Tick(m.cond, m.now)...)
	if len(m.exc) == 0 {
		return byte(sas.ExcNone), nil
	}
	e := m.exc[0]
	m.exc = m.exc[1:]
	return byte(e), nil
}

// Serve answers the polls on p until ctx ends (nil) or p fails. A record
// that does not follow the ledger (a bug of the core) stops it with an
// error.
func (m *Machine) Serve(ctx context.Context, p sas.Port) error {
	var buf []byte
	chunk := make([]byte, 512)
	for ctx.Err() == nil {
		if err := p.SetReadDeadline(time.Now().Add(20 * time.Millisecond)); err != nil {
			return err
		}
		n, err := p.Read(chunk)
		buf = append(buf, chunk[:n]...)
		if err != nil && !errors.Is(err, os.ErrDeadlineExceeded) {
			if ctx.Err() != nil {
				return nil
			}
			return err
		}
		for {
			rest, reply, ok, err := m.next(buf)
			if err != nil {
				return fmt.Errorf("aftsim: %w", err)
			}
			if !ok {
				break // nothing left, or the rest of a poll still to come
			}
			buf = rest
			if reply != nil {
				if _, err := p.Write(reply); err != nil {
					if ctx.Err() != nil {
						return nil
					}
					return err
				}
			}
		}
	}
	return nil
}

// pollLength is the length of the long poll buf starts with, when known
// yet: 74 is fixed, 72, 73 and 75 carry a length byte.
func pollLength(buf []byte) (int, bool) {
	switch {
	case len(buf) >= 2 && buf[1] == sas.CmdAFTLock:
		return 8, true
	case len(buf) >= 3:
		return 3 + int(buf[2]) + 2, true
	}
	return 0, false
}

// next takes one message off buf: a general poll (answered if it is to
// this machine) or a whole long poll. It returns the rest and the reply
// (nil: none), ok false when buf holds no whole message.
func (m *Machine) next(buf []byte) (rest, reply []byte, ok bool, err error) {
	if len(buf) == 0 {
		return buf, nil, false, nil
	}
	if buf[0]&sas.GeneralPollBit != 0 {
		if buf[0] != sas.GeneralPollBit|m.addr {
			return buf[1:], nil, true, nil
		}
		e, err := m.generalPoll()
		return buf[1:], []byte{e}, true, err
	}
	n, known := pollLength(buf)
	if !known || len(buf) < n {
		return buf, nil, false, nil
	}
	frame := buf[:n]
	if frame[0] != m.addr || !sas.CheckCRC(frame) {
		return buf[n:], nil, true, nil
	}
	data, err := m.longPoll(frame[1], frame[2:n-2])
	switch {
	case err != nil || data == nil:
		return buf[n:], nil, true, err
	case len(data) == 0:
		return buf[n:], []byte{m.addr}, true, nil
	}
	return buf[n:], sas.BuildReply(m.addr, frame[1], data...), true, nil
}
