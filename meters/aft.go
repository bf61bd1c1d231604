package meters

import (
	"fmt"

	"github.com/openegm/cabinet/aft"
	"github.com/openegm/cabinet/sas/metercode"
)

// AFT (SAS Advanced Funds Transfer) records. The cabinet's credit meter
// holds one kind of money, so the ledger takes cashable transfers only:
// in from the host (ElectronicIn, SAS 0x17) and out to it (ElectronicOut,
// 0x18). The aft package's fold (State.AFT) keeps the transfer history,
// the registration and the AFT meters; an error from it is a refused
// record, like any other broken rule.

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
	case t.Type != aft.InHouseToMachine && t.Type != aft.InHouseToHost && t.Type != aft.WinToHost:
		return fmt.Errorf("AFT transfer %q of type %v: the cabinet moves in-house cashable money only", t.ID, t.Type)
	case !t.Status.Succeeded():
		return fmt.Errorf("AFT transfer %q with status %v, not a completed transfer", t.ID, t.Status)
	case a.Restricted != 0 || a.NonRestricted != 0 || t.Requested.Restricted != 0 || t.Requested.NonRestricted != 0:
		return fmt.Errorf("AFT transfer %q with restricted or non-restricted amounts: the credit meter holds cashable money only", t.ID)
	case a.Cashable < 0 || a.Cashable > t.Requested.Cashable:
		return fmt.Errorf("AFT transfer %q moved %d cents of %d requested", t.ID, a.Cashable, t.Requested.Cashable)
	case t.Status == aft.StatusFull && a.Cashable != t.Requested.Cashable:
		return fmt.Errorf("AFT transfer %q is full but moved %d cents of %d", t.ID, a.Cashable, t.Requested.Cashable)
	case t.Position > aft.MaxHistory:
		return fmt.Errorf("AFT transfer %q at history position %d, above %d", t.ID, t.Position, aft.MaxHistory)
	case t.ReceiptStatus != aft.ReceiptNone:
		return fmt.Errorf("AFT transfer %q with a receipt: the cabinet prints none", t.ID)
	case t.At.IsZero():
		return fmt.Errorf("AFT transfer %q without its time", t.ID)
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
// transfer's money on the credit meter.
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
		m := &s.Meters
		cents := t.Amounts.Cashable
		if t.Type.ToHost() {
			if cents > m[Credits] {
				return fmt.Errorf("AFT transfer %q of %d cents to the host with %d cents of credit", t.ID, cents, m[Credits])
			}
			m[Credits] -= cents
			m[ElectronicOut] += cents
		} else {
			m[Credits] += cents
			m[ElectronicIn] += cents
		}
		if err := next.Apply(t); err != nil {
			return err
		}
	}
	s.AFT = next
	return nil
}

// aftMeters are the AFT meters the aft fold keeps (0xA0–0xBD, cents and
// counts); 0x17 and 0x18 are the ledger's ElectronicIn and ElectronicOut.
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
