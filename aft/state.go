package aft

import (
	"errors"
	"fmt"
	"maps"
	"slices"
	"time"

	"github.com/openegm/cabinet/sas/metercode"
)

// Record is a ledger record of AFT: Transfer, Registration, Receipt or
// ReceiptTextSet. The cabinet commits each before it shows its effect,
// and State is the fold of the committed ones.
type Record interface {
	apply(s *State) error
}

// Transfer is a committed transfer: it moved Amounts (all zero for a
// transfer that only set the host cashout state). a Decision carries it; the
// ledger keeps it.
type Transfer struct {
	// Position in the history, 1–127; 0 when the transfer is not logged
	// there (a zero amount that is not a bonus).
	Position byte          `json:"position"`
	ID       string        `json:"id"`
	Code     TransferCode  `json:"code"`
	Type     TransferType  `json:"type"`
	Status   Status        `json:"status"` // StatusFull or StatusPartial
	Flags    TransferFlags `json:"flags"`  // as the host sent them
	Asset    uint32        `json:"asset"`
	// Requested is what the host asked, Amounts what moved (less for a
	// partial transfer).
	Requested Amounts `json:"requested"`
	Amounts   Amounts `json:"amounts"`
	// At is when the machine decided the transfer: the completion time
	// the host reads.
	At time.Time `json:"at"`
	// Expiration as the host sent it; RestrictedExpiration as resolved to
	// a date (for restricted amounts).
	Expiration           Expiration `json:"expiration"`
	RestrictedExpiration Expiration `json:"restricted_expiration,omitempty"`
	PoolID               uint16     `json:"pool_id"`
	// ReceiptStatus is ReceiptPending when a receipt is to be printed,
	// ReceiptNone otherwise; ReceiptData is the host's receipt data (table
	// 8.3f) for it, kept to print it again after a power loss.
	ReceiptStatus ReceiptStatus `json:"receipt_status"`
	ReceiptData   []byte        `json:"receipt_data,omitempty"`
	// Handpay: a bonus jackpot win the machine pays by a handpay lockup
	// (at or above its handpay limit) instead of to the credit meter.
	Handpay bool `json:"handpay,omitempty"`
	// HostCashout is the host cashout state from this transfer on.
	HostCashout HostCashout `json:"host_cashout"`
	// POSID is, for a debit transfer, the POS ID of the registration it
	// was made under (SAS 8.1: a debit needs one); 0 for any other.
	POSID uint32 `json:"pos_id,omitempty"`
	// LockTimeout: hundredths of a second, for a lock after transfer.
	LockTimeout uint16 `json:"lock_timeout,omitempty"`
}

// Registration is a committed change of the AFT registration (0x73, or
// the operator's acknowledgement).
type Registration struct {
	Status RegStatus `json:"status"`
	Key    Key       `json:"key"`
	POSID  uint32    `json:"pos_id"`
}

// Receipt: the transaction receipt of the transfer ID at Position came
// out of the printer (a device's confirmation is a record).
type Receipt struct {
	Position byte   `json:"position"`
	ID       string `json:"id"`
}

// Entry is a transfer as the history keeps it: the record and the
// cumulative meters of its type once it completed.
type Entry struct {
	Transfer
	Cumulative Cumulative `json:"cumulative"`
}

// State is the durable AFT state of the machine: the fold of the
// committed records. It is what the ledger snapshot keeps (JSON); the
// lock and a transfer in progress are not in it, they end with a power
// loss.
type State struct {
	// Registration is nil until the first 0x73 that changed it: not
	// registered.
	Registration *Registration `json:"registration,omitempty"`
	// Current is the last committed transfer, logged or not.
	Current *Entry `json:"current,omitempty"`
	// History holds the logged transfers, oldest first, at most
	// MaxHistory.
	History     []Entry     `json:"history,omitempty"`
	HostCashout HostCashout `json:"host_cashout"`
	// ReceiptText is what the host set with 0x75 for every receipt.
	ReceiptText ReceiptText `json:"receipt_text,omitzero"`
	// Meters are the AFT meters (0xA0–0xBD) and the electronic transfer
	// totals 0x17 and 0x18, in cents.
	Meters map[metercode.Code]int64 `json:"meters,omitempty"`
	// Retired holds the transaction ID of every completed transfer that
	// is neither current nor in the history any more (pushed out of the
	// history's 127 places, or a transfer of no amount that another
	// replaced as current): with those two, every ID the machine ever
	// completed, so that none runs twice however long ago it ran (Used).
	// It is kept (IDSet.Keep: encoded, "" while empty) from the first
	// transfer on, and left out of the encoding of a state without
	// transfers, which therefore encodes as before it existed. A state
	// with transfers and no key is one a build before it sealed: the
	// ledger rebuilds it from the log.
	Retired IDSet `json:"retired_ids,omitzero"`
}

// ErrRecord is returned (wrapped) by Fold and Apply for a record that
// cannot follow the state: a repeated transaction ID, a position out of
// turn, a receipt for no such transfer. Such a ledger has executed
// something twice or lost something: play must stop.
var ErrRecord = errors.New("aft: record does not follow the state")

// Fold rebuilds the state from the committed records, in ledger order.
func Fold(records []Record) (State, error) {
	var s State
	for i, r := range records {
		if err := r.apply(&s); err != nil {
			return s, fmt.Errorf("record %d: %w", i, err)
		}
	}
	return s, nil
}

// Apply adds one committed record to the state.
func (s *State) Apply(r Record) error { return r.apply(s) }

// Clone returns a deep copy (the history and meters are not shared; the
// retired IDs are, as an IDSet never changes).
func (s State) Clone() State {
	c := s
	if s.Registration != nil {
		r := *s.Registration
		c.Registration = &r
	}
	if s.Current != nil {
		e := *s.Current
		c.Current = &e
	}
	c.History = slices.Clone(s.History)
	c.Meters = maps.Clone(s.Meters)
	return c
}

// Registered reports whether a host is registered.
func (s *State) Registered() bool {
	return s.Registration != nil && s.Registration.Status == RegRegistered
}

// NextPosition is the history position the next logged transfer takes.
func (s *State) NextPosition() byte {
	if len(s.History) == 0 {
		return 1
	}
	p := s.History[len(s.History)-1].Position
	if p >= MaxHistory {
		return 1
	}
	return p + 1
}

// Used reports whether a transfer under transaction ID id ever completed:
// current, in the history or retired from them. A retired ID is known
// by its digest only (IDSet: a false positive refuses, never credits).
func (s *State) Used(id string) bool {
	_, ok := s.Lookup(id)
	return ok || s.Retired.Has(id)
}

// Lookup finds the committed transfer with transaction ID id: the current
// one or one in the history.
func (s *State) Lookup(id string) (Entry, bool) {
	if s.Current != nil && s.Current.ID == id {
		return *s.Current, true
	}
	for i := len(s.History) - 1; i >= 0; i-- {
		if s.History[i].ID == id {
			return s.History[i], true
		}
	}
	return Entry{}, false
}

// At returns the history entry at position p (1–127).
func (s *State) At(p byte) (Entry, bool) {
	for _, e := range s.History {
		if e.Position == p {
			return e, true
		}
	}
	return Entry{}, false
}

// ReceiptDue returns the committed transfers whose receipt is still to
// be printed, oldest first.
func (s *State) ReceiptDue() []Transfer {
	var out []Transfer
	for _, e := range s.History {
		if e.ReceiptStatus == ReceiptPending {
			out = append(out, e.Transfer)
		}
	}
	return out
}

// Logged reports whether a transfer of this type and amounts goes into
// the history: SAS logs successful transfers of non-zero amounts, and
// every bonus.
func Logged(t TransferType, moved Amounts) bool {
	return moved.Total() != 0 || t.Bonus()
}

func (t Transfer) apply(s *State) error {
	if t.ID == "" {
		return fmt.Errorf("%w: transfer without a transaction ID", ErrRecord)
	}
	if _, dup := s.Lookup(t.ID); dup {
		return fmt.Errorf("%w: transaction ID %q committed twice", ErrRecord, t.ID)
	}
	if s.Retired.Has(t.ID) {
		return fmt.Errorf("%w: transaction ID %q committed twice (it completed before the last %d logged transfers)", ErrRecord, t.ID, MaxHistory)
	}
	if !t.Status.Succeeded() {
		return fmt.Errorf("%w: transfer %q with status %v", ErrRecord, t.ID, t.Status)
	}
	if t.Handpay && t.Type != BonusJackpot {
		return fmt.Errorf("%w: transfer %q of type %v paid by handpay: only a bonus jackpot is", ErrRecord, t.ID, t.Type)
	}
	if err := s.debitLawful(t); err != nil {
		return err
	}
	logged := Logged(t.Type, t.Amounts)
	switch {
	case logged && t.Position != s.NextPosition():
		return fmt.Errorf("%w: transfer %q at position %d, the next is %d", ErrRecord, t.ID, t.Position, s.NextPosition())
	case !logged && t.Position != 0:
		return fmt.Errorf("%w: transfer %q of no amount at position %d", ErrRecord, t.ID, t.Position)
	}
	if s.Meters == nil {
		s.Meters = map[metercode.Code]int64{}
	}
	for _, d := range meterDeltas(t) {
		s.Meters[d.code] += d.cents
	}
	e := Entry{Transfer: t, Cumulative: cumulative(s.Meters, t.Type)}
	s.Retired = s.Retired.Keep()
	if s.Current != nil && s.Current.Position == 0 {
		// A transfer of no amount is in no history: its ID retires now.
		s.Retired = s.Retired.With(s.Current.ID)
	}
	s.Current = &e
	s.HostCashout = t.HostCashout
	if logged {
		if len(s.History) == MaxHistory {
			s.Retired = s.Retired.With(s.History[0].ID)
			s.History = slices.Delete(s.History, 0, 1)
		}
		s.History = append(s.History, e)
	}
	return nil
}

// debitLawful: a debit follows a registration with a key and the POS ID
// it names, and moves cashable money only; any other transfer names no
// POS.
func (s *State) debitLawful(t Transfer) error {
	if !t.Type.Debit() {
		if t.POSID != 0 {
			return fmt.Errorf("%w: transfer %q of type %v with POS ID %d: only a debit has one", ErrRecord, t.ID, t.Type, t.POSID)
		}
		return nil
	}
	r := s.Registration
	switch {
	case r == nil || r.Status != RegRegistered || r.Key.Zero():
		return fmt.Errorf("%w: debit %q while no host is registered with a key", ErrRecord, t.ID)
	case t.POSID == 0 || t.POSID != r.POSID:
		return fmt.Errorf("%w: debit %q at POS ID %d, the registration's is %d", ErrRecord, t.ID, t.POSID, r.POSID)
	case t.Amounts.Restricted != 0 || t.Amounts.NonRestricted != 0:
		return fmt.Errorf("%w: debit %q of %d restricted and %d non-restricted cents: a debit is cashable", ErrRecord, t.ID, t.Amounts.Restricted, t.Amounts.NonRestricted)
	}
	return nil
}

func (r Registration) apply(s *State) error {
	switch r.Status {
	case RegReady, RegRegistered, RegPending, RegNotRegistered:
	default:
		return fmt.Errorf("%w: registration status %v", ErrRecord, r.Status)
	}
	s.Registration = &r
	return nil
}

// apply marks the receipt printed, once: a receipt for a transfer that
// asked for none, or printed already, is a device confirmation the
// ledger did not order.
func (r Receipt) apply(s *State) error {
	i := slices.IndexFunc(s.History, func(e Entry) bool { return e.Position == r.Position && e.ID == r.ID })
	switch {
	case i < 0:
		return fmt.Errorf("%w: receipt printed for transfer %q at position %d, not in the history", ErrRecord, r.ID, r.Position)
	case s.History[i].ReceiptStatus != ReceiptPending:
		return fmt.Errorf("%w: receipt printed for transfer %q, whose receipt status is %02X (not pending)", ErrRecord, r.ID, byte(s.History[i].ReceiptStatus))
	}
	// The history is shared with the state this one was cloned from.
	s.History = slices.Clone(s.History)
	s.History[i].ReceiptStatus = ReceiptPrinted
	if s.Current != nil && s.Current.ID == r.ID {
		c := *s.Current
		c.ReceiptStatus = ReceiptPrinted
		s.Current = &c
	}
	return nil
}
