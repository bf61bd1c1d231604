// The SAS port's AFT (long polls 0x72, 0x73, 0x74): the aft core answers
// the host at once under the port's mutex; the records it hands out go to
// the owner in order (the machine rechecks a transfer with its live state
// and records it, or refuses it); the core learns of each commit from the
// port's committed hook, and of a refusal when the owner is done with the
// order (see aft/doc.go).

package main

import (
	"errors"
	"time"

	"github.com/openegm/cabinet/aft"
	"github.com/openegm/cabinet/machine"
	"github.com/openegm/cabinet/meters"
	"github.com/openegm/cabinet/sas"
)

// aftConfig is the cabinet's AFT: in-house transfers of cashable,
// restricted and non-restricted credits to and from the host (the ledger
// keeps each kind: meters/promo.go), bonus wins (coin-out wins to the
// credit meter, jackpot wins too below the handpay limit and by a handpay
// lockup at or above it: machine/aftbonus.go), transaction receipts on
// the ticket printer (machine/aftreceipt.go: offered in the 0x74 status,
// and accepted, only while the printer can print), registration optional
// (a transfer with a zero key needs none), and, with --aft-debit, debit
// transfers to the credit meter from a host registered with a key and a
// POS ID.
//
// Not offered: transfers to a ticket (in-house or debit) and partial
// transfers to the host.
func aftConfig(asset uint32, limit int64, debit bool) aft.Config {
	return aft.Config{Asset: asset, TransferLimit: limit, InHouse: true, Bonus: true, BonusJackpot: true, Receipts: true, Debit: debit}
}

// aftTickEvery is how often the lock is moved on when the host does not
// poll AFT (a lapsed lock ends, 6F repeats while held).
const aftTickEvery = 250 * time.Millisecond

// aftPoll answers the AFT long polls; ok is false for any other poll. It
// runs in the serve loop, with mu held.
func (s *sasPort) aftPoll(r sas.Request, now time.Time) (rep sas.Reply, ok bool) {
	switch r.Cmd {
	case sas.CmdAFTTransfer, sas.CmdAFTRegister, sas.CmdAFTLock, sas.CmdAFTReceiptData:
	default:
		return sas.Reply{}, false
	}
	if s.aft == nil {
		return sas.NoReply(), true // AFT off (--aft-asset 0): as any poll not supported
	}
	cond := s.aftConditions()
	s.aftTick(cond, now)
	switch r.Cmd {
	case sas.CmdAFTTransfer:
		q, err := sas.DecodeAFTTransfer(r.Data)
		if err != nil {
			var e *sas.AFTError
			if !errors.As(err, &e) {
				return sas.NoReply(), true
			}
			s.log.Warn("SAS 0x72 refused", "err", err)
			return sas.ReplyData(sas.EncodeAFTTransferReply(aft.TransferReply{Status: e.Status, At: now})...), true
		}
		d := s.aft.Transfer(q, cond, now)
		if d.Record != nil {
			a := d.Record.Amounts
			s.log.Info("AFT transfer decided", "id", d.Record.ID, "type", d.Record.Type.String(), "cashable", a.Cashable,
				"restricted", a.Restricted, "non_restricted", a.NonRestricted, "pool", d.Record.PoolID)
			s.order(machine.AFTTransfer{At: now, Transfer: *d.Record})
		}
		return sas.ReplyData(sas.EncodeAFTTransferReply(d.Reply)...), true
	case sas.CmdAFTReceiptData:
		q, err := sas.DecodeAFTReceiptData(r.Data)
		if err != nil {
			s.log.Warn("SAS 0x75 refused", "err", err)
			return sas.NoReply(), true
		}
		s.order(machine.AFTReceiptText{At: now, Text: q})
		return sas.ReplyAck(), true
	case sas.CmdAFTRegister:
		q, err := sas.DecodeAFTRegister(r.Data)
		if err != nil {
			s.log.Warn("SAS 0x73 refused", "err", err)
			return sas.NoReply(), true
		}
		reply, rec := s.aft.Register(q)
		if rec != nil {
			s.order(machine.AFTRegistration{At: now, Registration: *rec})
		}
		return sas.ReplyData(sas.EncodeAFTRegisterReply(reply)...), true
	default:
		q, err := sas.DecodeAFTLock(r.Data)
		if err != nil {
			s.log.Warn("SAS 0x74 refused", "err", err)
			return sas.NoReply(), true
		}
		reply, exc := s.aft.Lock(q, cond, now)
		s.aftRaise(exc)
		s.aftSyncLock(now)
		return sas.ReplyData(sas.EncodeAFTStatusReply(reply)...), true
	}
}

// aftConditions are the machine's, as its last view published them: the
// machine rechecks a transfer with its live state when it records it.
func (s *sasPort) aftConditions() aft.Conditions {
	if v := s.own.view.Load(); v != nil {
		return v.AFT
	}
	return aft.Conditions{Disabled: true}
}

// aftTick moves the lock on (with mu held).
func (s *sasPort) aftTick(cond aft.Conditions, now time.Time) {
	s.aftRaise(s.aft.Tick(cond, now))
	s.aftSyncLock(now)
}

// aftSyncLock tells the machine when the lock starts or ends (with mu
// held), in order with the transfers.
func (s *sasPort) aftSyncLock(now time.Time) {
	if l := s.aft.Locked(); l != s.aftLocked {
		s.aftLocked = l
		s.order(machine.AFTLock{At: now, Locked: l})
	}
}

// aftRaise queues the core's exceptions (with mu held). 69 is not among
// them: the committed AFTTransfer record raises it (sas.ExceptionsFor),
// so a restart that finds it in the ledger raises it again.
func (s *sasPort) aftRaise(exc []aft.Exception) {
	for _, e := range exc {
		if e != aft.ExcTransferComplete {
			s.link.Exceptions.Push(sas.Exception(e))
		}
	}
}

// aftCommitted tells the core which of its records are durable (on the
// owner goroutine, mu held, after the new state is published). A record
// the core did not hand out in that order means the two disagree: the
// core is rebuilt from the ledger, which is the truth.
func (s *sasPort) aftCommitted(recs []meters.Record, st *meters.State, now time.Time) {
	if s.aft == nil {
		return
	}
	for _, r := range recs {
		var rec aft.Record
		switch r := r.(type) {
		case meters.AFTTransfer:
			rec = r.Transfer
		case meters.AFTRegistration:
			rec = r.Registration
		case meters.AFTReceipt:
			rec = r.Receipt
		case meters.AFTReceiptText:
			rec = r.Text
		default:
			continue
		}
		exc, err := s.aft.Committed(rec, now)
		if err != nil {
			s.log.Error("AFT core and ledger disagree: the core is rebuilt from the ledger", "err", err)
			s.aft = aft.New(s.aft.Config(), st.AFT)
			break
		}
		s.aftRaise(exc)
	}
	s.aftSyncLock(now)
}

// aftSettle runs after the owner stepped an AFT transfer: if it is still
// pending, the machine did not record it (its recheck refused it, or the
// commit failed), and the host reads the refusal.
func (s *sasPort) aftSettle(t machine.AFTTransfer, eff machine.Effects) {
	s.mu.Lock()
	defer s.mu.Unlock()
	p, ok := s.aft.Pending()
	if !ok || p.ID != t.Transfer.ID || p.Position != t.Transfer.Position {
		return // committed
	}
	st := eff.AFTRefused
	if !st.Failed() {
		st = aft.StatusUnexpected // recorded by the machine, not committed by the ledger
	}
	if err := s.aft.Abandon(p, st, time.Now()); err != nil {
		s.log.Error("AFT abandon", "err", err)
	}
	s.log.Info("AFT transfer refused by the machine", "id", p.ID, "status", st.String())
}

// cashOutPressed reports a press of the cash-out button (on the owner
// goroutine): with AFT to the host possible, SAS 8.8 has the machine raise
// 66 at every press, whatever the credits, so the host can transfer out
// what a cash-out leaves (the restricted credits).
func (s *sasPort) cashOutPressed() {
	s.mu.Lock()
	s.link.Exceptions.Push(sas.ExcCashOutButton)
	s.mu.Unlock()
	s.save()
}
