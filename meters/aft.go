package meters

import (
	"errors"
	"fmt"

	"github.com/openegm/cabinet/aft"
	"github.com/openegm/cabinet/sas/metercode"
)

// AFT (SAS Advanced Funds Transfer) records. The ledger takes in-house
// transfers of the three kinds of credit (promo.go) in from the host
// (ElectronicIn, SAS 0x17) and out to it (ElectronicOut, 0x18), debit
// transfers in (cashable money from a player's bank: ElectronicIn too,
// and the aft fold's debit meters A6/A7), and bonus
// wins (a win, not money in; a bonus jackpot may be paid by hand:
// aftbonus.go). The aft package's fold (State.AFT)
// keeps the transfer history, the registration and the AFT meters; an
// error from it is a refused record, like any other broken rule.

// AFTTransfer is a completed AFT transfer, committed before the host can
// read it as done: money moved exactly when this record is in the log.
type AFTTransfer struct {
	At       int64        `json:"at"`
	Transfer aft.Transfer `json:"transfer"`
}

// AFTRegistration is a change of the machine's AFT registration (long
// poll 0x73).
type AFTRegistration struct {
	At           int64            `json:"at"`
	Registration aft.Registration `json:"registration"`
}

func (AFTTransfer) Type() Type     { return TypeAFTTransfer }
func (AFTRegistration) Type() Type { return TypeAFTRegistration }

func (r AFTTransfer) validate() error {
	t := r.Transfer
	a := t.Amounts
	switch {
	case !aft.ValidID(t.ID):
		return fmt.Errorf("AFT transfer with transaction ID %q: 1-20 printable characters", t.ID)
	case t.Type != aft.InHouseToMachine && t.Type != aft.InHouseToHost && t.Type != aft.WinToHost && !t.Type.Bonus() &&
		t.Type != aft.DebitToMachine:
		return fmt.Errorf("AFT transfer %q of type %v: the cabinet moves in-house and debit money and bonus wins only", t.ID, t.Type)
	case t.Type.Debit() && (a.Restricted != 0 || a.NonRestricted != 0 || t.Requested.Restricted != 0 || t.Requested.NonRestricted != 0):
		return fmt.Errorf("AFT debit %q with restricted or non-restricted cents: a debit is cashable", t.ID)
	case t.Type.Debit() && t.POSID == 0:
		return fmt.Errorf("AFT debit %q without the POS ID it was made at", t.ID)
	case t.Handpay && t.Type != aft.BonusJackpot:
		return fmt.Errorf("AFT transfer %q of type %v paid by handpay: only a bonus jackpot is", t.ID, t.Type)
	case !t.Status.Succeeded():
		return fmt.Errorf("AFT transfer %q with status %v, not a completed transfer", t.ID, t.Status)
	case t.Type == aft.WinToHost && (a.Restricted != 0 || a.NonRestricted != 0):
		return fmt.Errorf("AFT transfer %q: a win to the host is cashable, not %d restricted and %d non-restricted cents", t.ID, a.Restricted, a.NonRestricted)
	case t.Type.Bonus() && a.Restricted != 0:
		return fmt.Errorf("AFT bonus %q with %d restricted cents: SAS has no restricted bonus", t.ID, a.Restricted)
	case t.Position > aft.MaxHistory:
		return fmt.Errorf("AFT transfer %q at history position %d, above %d", t.ID, t.Position, aft.MaxHistory)
	case t.At.IsZero():
		return fmt.Errorf("AFT transfer %q without its time", t.ID)
	}
	if err := validReceipt(t); err != nil {
		return err
	}
	if e := t.RestrictedExpiration; a.Restricted > 0 && t.Type == aft.InHouseToMachine && e != 0 {
		if _, ok := e.Date(); !ok {
			return fmt.Errorf("AFT transfer %q of restricted credits expiring %v, not a date", t.ID, e)
		}
	}
	for _, k := range [3]struct {
		name             string
		moved, requested int64
	}{{"cashable", a.Cashable, t.Requested.Cashable}, {"restricted", a.Restricted, t.Requested.Restricted},
		{"non-restricted", a.NonRestricted, t.Requested.NonRestricted}} {
		switch {
		case k.moved < 0 || k.moved > k.requested:
			return fmt.Errorf("AFT transfer %q moved %d %s cents of %d requested", t.ID, k.moved, k.name, k.requested)
		case t.Status == aft.StatusFull && k.moved != k.requested:
			return fmt.Errorf("AFT transfer %q is full but moved %d %s cents of %d", t.ID, k.moved, k.name, k.requested)
		}
	}
	return nil
}

func (r AFTRegistration) validate() error {
	switch st := r.Registration.Status; st {
	case aft.RegReady, aft.RegRegistered, aft.RegPending, aft.RegNotRegistered:
		return nil
	default:
		return fmt.Errorf("AFT registration with status %v", st)
	}
}

// applyAFT folds the AFT records: the aft package's state on a copy (its
// history and meters are shared with the previous state otherwise), and a
// transfer's money on the credit meter, by kind (promo.go).
func (s *State) applyAFT(r Record) error {
	next := s.AFT.Clone()
	switch r := r.(type) {
	case AFTRegistration:
		if err := next.Apply(r.Registration); err != nil {
			return err
		}
	case AFTTransfer:
		t := r.Transfer
		if err := s.idle("transfer AFT " + t.ID); err != nil {
			return err
		}
		if err := s.transferPromo(t); err != nil {
			return err
		}
		if err := next.Apply(t); err != nil {
			return err
		}
	case AFTReceipt:
		if err := next.Apply(r.Receipt); err != nil {
			return err
		}
	case AFTReceiptText:
		if err := next.Apply(r.Text); err != nil {
			return err
		}
	}
	s.AFT = next
	return nil
}

// aftMeters are the AFT meters the aft fold keeps (0xA0–0xBD, cents and
// counts) that the ledger's meters do not (0x17 and 0x18 are ElectronicIn
// and ElectronicOut, A2, A4, BA and BC the promotional meters).
var aftMeters = func() map[metercode.Code]bool {
	m := map[metercode.Code]bool{}
	for _, d := range aft.Meters() {
		if _, ledger := sasMeters[d.Code]; !ledger {
			m[d.Code] = true
		}
	}
	return m
}()

// aftMeter reads an AFT meter of the aft fold; ok is false for any other
// code.
func (s *State) aftMeter(c metercode.Code) (int64, bool) {
	if !aftMeters[c] {
		return 0, false
	}
	return s.AFT.Meters[c], true
}

// rebuildRetiredAFT gives a state restored from a snapshot an earlier
// build sealed the AFT transaction IDs that left the history before it
// (aft.State.Retired), which that build did not keep: it folds the AFT
// records of the whole log again, once, at start-up. A log in which an
// earlier build ran an ID twice is a fault here, as it is to a refold.
func (l *Ledger) rebuildRetiredAFT() error {
	var a aft.State
	err := l.Since(0, func(seq uint64, r Record) error {
		var rec aft.Record
		switch r := r.(type) {
		case AFTTransfer:
			rec = r.Transfer
		case AFTRegistration:
			rec = r.Registration
		case AFTReceipt:
			rec = r.Receipt
		case AFTReceiptText:
			rec = r.Text
		default:
			return nil
		}
		if err := a.Apply(rec); err != nil {
			return &Fault{Seq: seq, Err: fmt.Errorf("%v refused: %w", r.Type(), err)}
		}
		return nil
	})
	if err != nil {
		var f *Fault
		if errors.As(err, &f) {
			return f
		}
		return &Fault{Err: fmt.Errorf("rebuilding the retired AFT transaction IDs: %w", err)}
	}
	l.state.AFT.Retired = a.Retired.Keep()
	l.state.aftEarlier = false
	return nil
}
