package host

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/openegm/cabinet/aft"
	"github.com/openegm/cabinet/sas"
)

// The host's side of AFT (long polls 0x72, 0x73, 0x74): register, lock,
// transfer and read back transfers, as a casino's funds transfer system
// does.
//
// A transfer is safe to repeat under its transaction ID: the machine
// runs an ID once and answers a repeat with its recorded result. The
// host therefore retries a transfer whose outcome it does not know with
// the same ID, never a new one (TransferWait).

// ErrAFTNotCurrent: the machine's current transfer is not the one the
// host is waiting for: the machine lost it (a power loss before it was
// recorded) or never received it, so it did not happen and nothing
// moved. The host may send it again under the same ID.
var ErrAFTNotCurrent = errors.New("sas host: the machine's current AFT transfer is another one")

// AFTRegister sends 0x73 and returns the machine's registration.
func (c *Client) AFTRegister(q aft.RegisterRequest) (aft.RegisterReply, error) {
	r, err := c.data(sas.CmdAFTRegister, sas.EncodeAFTRegister(q)...)
	if err != nil {
		return aft.RegisterReply{}, err
	}
	p, err := sas.DecodeAFTRegisterReply(r.Data)
	if err != nil {
		return p, bad("%v", err)
	}
	return p, nil
}

// AFTRegisterMachine registers the host with the machine: initialise
// (00), then register (01) with the machine's asset number, the key and
// the POS ID. It returns the machine's registration, an error when it is
// not "registered" with that key.
func (c *Client) AFTRegisterMachine(asset uint32, key aft.Key, posID uint32) (aft.RegisterReply, error) {
	if _, err := c.AFTRegister(aft.RegisterRequest{Code: aft.RegInitialize, Asset: asset, Key: key, POSID: posID}); err != nil {
		return aft.RegisterReply{}, err
	}
	p, err := c.AFTRegister(aft.RegisterRequest{Code: aft.RegRegister, Asset: asset, Key: key, POSID: posID})
	if err != nil {
		return p, err
	}
	if p.Status != aft.RegRegistered || p.Key != key || p.Asset != asset {
		return p, fmt.Errorf("sas host: registration refused: the machine (asset %d) says %v", p.Asset, p.Status)
	}
	return p, nil
}

// AFTLock sends 0x74 (request a lock, cancel it, or interrogate) and
// returns the machine's AFT status.
func (c *Client) AFTLock(q aft.LockRequest) (aft.StatusReply, error) {
	data, err := sas.EncodeAFTLock(q)
	if err != nil {
		return aft.StatusReply{}, err
	}
	r, err := c.data(sas.CmdAFTLock, data...)
	if err != nil {
		return aft.StatusReply{}, err
	}
	p, err := sas.DecodeAFTStatusReply(r.Data)
	if err != nil {
		return p, bad("%v", err)
	}
	return p, nil
}

// AFTStatus reads the machine's AFT status (0x74 interrogate).
func (c *Client) AFTStatus() (aft.StatusReply, error) {
	return c.AFTLock(aft.LockRequest{Code: aft.InterrogateLock})
}

// AFTTransfer sends one 0x72 poll and returns the machine's reply as it
// is (a new transfer is normally pending: see TransferWait).
func (c *Client) AFTTransfer(q aft.TransferRequest) (aft.TransferReply, error) {
	data, err := sas.EncodeAFTTransfer(q)
	if err != nil {
		return aft.TransferReply{}, err
	}
	r, err := c.data(sas.CmdAFTTransfer, data...)
	if err != nil {
		return aft.TransferReply{}, err
	}
	p, err := sas.DecodeAFTTransferReply(r.Data)
	if err != nil {
		return p, bad("%v", err)
	}
	return p, nil
}

// AFTInterrogate reads a transfer: index 0 the current one, 01–7F a
// history position, 81–FF counted back from the newest (FF).
func (c *Client) AFTInterrogate(index byte) (aft.TransferReply, error) {
	return c.AFTTransfer(aft.TransferRequest{Code: aft.CodeInterrogate, Index: index})
}

// AFTTransferWait sends a transfer and interrogates the current transfer
// every interval (100 ms if 0) until it is no longer pending, and returns
// the final reply: success (full or partial) or the failure status.
// ErrAFTNotCurrent when the machine's current transfer turns out to be
// another: this one did not happen.
func (c *Client) AFTTransferWait(ctx context.Context, q aft.TransferRequest, interval time.Duration) (aft.TransferReply, error) {
	if interval <= 0 {
		interval = 100 * time.Millisecond
	}
	r, err := c.AFTTransfer(q)
	for {
		switch {
		case err != nil:
			return r, err
		case r.Short():
			return r, nil // refused before any transfer (C0, C1)
		case r.ID != q.ID:
			return r, fmt.Errorf("%w: %q, not %q", ErrAFTNotCurrent, r.ID, q.ID)
		case !r.Status.IsPending():
			return r, nil
		}
		select {
		case <-ctx.Done():
			return r, fmt.Errorf("sas host: AFT transfer %q still pending: %w", q.ID, ctx.Err())
		case <-time.After(interval):
		}
		r, err = c.AFTInterrogate(0)
	}
}

// AFTHistory reads the machine's transfer history, newest first, by
// relative index (FF, FE, …) until the machine has no more (at most
// 127).
func (c *Client) AFTHistory() ([]aft.TransferReply, error) {
	var out []aft.TransferReply
	for back := 1; back <= aft.MaxHistory; back++ {
		r, err := c.AFTInterrogate(byte(256 - back))
		if err != nil {
			return out, err
		}
		if r.Status == aft.StatusNoInfo {
			break
		}
		out = append(out, r)
	}
	return out, nil
}

// ErrAFTUnknown: the machine holds no transfer under the transaction ID
// the host asked about, neither current nor in its history.
var ErrAFTUnknown = errors.New("sas host: no AFT transfer under that transaction ID")

// AFTFind looks a transfer up by its transaction ID where the machine
// itself looks when it decides whether an ID ran already: the current
// transfer, then the history, newest first. ErrAFTUnknown when it is in
// neither: unless the history is full (it may have been older), the
// transfer did not happen and may be sent again under the same ID.
func (c *Client) AFTFind(id string) (r aft.TransferReply, historyLen int, err error) {
	if r, err = c.AFTInterrogate(0); err != nil || r.ID == id {
		return r, 0, err
	}
	h, err := c.AFTHistory()
	if err != nil {
		return aft.TransferReply{}, len(h), err
	}
	for _, e := range h {
		if e.ID == id {
			return e, len(h), nil
		}
	}
	return aft.TransferReply{}, len(h), fmt.Errorf("%w %q (%d in its history)", ErrAFTUnknown, id, len(h))
}
