package aft

import (
	"errors"
	"fmt"
	"slices"
	"time"
)

// Exception is a general-poll exception code the AFT core asks the
// machine to raise (sas.Exception has the same values).
type Exception byte

const (
	ExcTransferComplete      Exception = 0x69
	ExcHostCashout           Exception = 0x6A // AFT request for host cashout
	ExcHostCashoutWin        Exception = 0x6B // AFT request for host to cash out win
	ExcRegisterRequest       Exception = 0x6C // AFT request to register
	ExcRegistrationAck       Exception = 0x6D // AFT registration acknowledged
	ExcRegistrationCancelled Exception = 0x6E
	ExcGameLocked            Exception = 0x6F
)

// Config is the operator's AFT setup of the machine.
type Config struct {
	// Asset is the machine's asset number; 0 disables AFT (SAS requires a
	// non-zero asset number for every transfer).
	Asset uint32 `json:"asset"`
	// TransferLimit is the most one transfer may put on the credit meter
	// or on a ticket, in cents.
	TransferLimit int64 `json:"transfer_limit"`
	// RequireRegistration: only a registered host may transfer, with the
	// registered key. Without it a transfer with an all-zero key needs no
	// registration (SAS requires registration only for debit).
	RequireRegistration bool `json:"require_registration"`
	InHouse             bool `json:"in_house"`
	// Debit: debit transfers to the credit meter (type 40) are accepted,
	// from a host registered with a key and a POS ID (SAS 8.1), cashable
	// only. The 0x74 status's "debit transfers enabled" bit says so.
	Debit bool `json:"debit,omitempty"`
	// Bonus: bonus coin-out wins (type 10) are accepted; BonusJackpot
	// adds bonus jackpot wins (type 11), which the machine pays by a
	// handpay lockup.
	Bonus        bool `json:"bonus"`
	BonusJackpot bool `json:"bonus_jackpot,omitempty"`
	// TicketTransfers: type 20 (in-house to ticket) is accepted; the
	// cabinet prints the ticket from the committed record.
	TicketTransfers bool `json:"ticket_transfers"`
	// PartialToHost: the machine may transfer less than the amount
	// requested to the host.
	PartialToHost bool `json:"partial_to_host"`
	// Receipts: the printer prints transaction receipts.
	Receipts bool `json:"receipts"`
	// CashableOnly: the machine's credit meter holds one kind of money,
	// so only cashable amounts move; a request with a restricted or
	// non-restricted amount is refused as an amount the machine does not
	// take (83), before any other check of the amounts.
	CashableOnly bool `json:"cashable_only,omitempty"`
}

// Conditions is what the machine is doing when a poll arrives, passed in
// by the machine (the core keeps none of it).
type Conditions struct {
	Credits Credits
	// CreditLimit is the most the credit meter may hold, in cents.
	CreditLimit int64
	// The machine may not transfer during a game, a handpay, a tilt, or
	// while disabled (door open, menu, host shutdown, out of service).
	GameInProgress, Handpay, Tilt, Disabled bool
	// PrinterReady: tickets and receipts can be printed now.
	PrinterReady bool
	// WonCredits is the win the machine would cash out to the host (type
	// 90), in cents.
	WonCredits int64
}

func (c Conditions) playable() bool {
	return !c.GameInProgress && !c.Handpay && !c.Tilt && !c.Disabled
}

// Decision is the core's answer to a 0x72 poll: the reply to send now
// and, when money is to move, the record to commit. After the commit the
// machine calls Committed; until then the transfer is pending (status
// 40) and nothing has moved.
type Decision struct {
	Reply  TransferReply
	Record *Transfer
}

// Core is the machine's AFT: the durable State plus what a power loss
// ends (the lock, a transfer between its decision (Transfer) and Committed, the status of
// a refused request). It is pure and deterministic: no clock, no I/O,
// time comes in. Not safe for concurrent use: one owner calls it.
type Core struct {
	cfg     Config
	st      State
	pending *Transfer
	// refused is the reply to the newest request when it was refused: it
	// is the "current" transfer until the next commit.
	refused *TransferReply
	lock    lockState
	// regs are the registration records handed out (Register,
	// OperatorAcknowledge) and not yet committed, oldest first. The
	// host already read them in the reply, and the owner commits them in
	// that order, so the core answers from the newest; a power loss
	// drops them, as it drops the records.
	regs []Registration
}

// New returns the core of a machine whose ledger folds to st.
func New(cfg Config, st State) *Core { return &Core{cfg: cfg, st: st.Clone()} }

// State returns a copy of the durable state (for the ledger snapshot).
func (c *Core) State() State { return c.st.Clone() }

// Config returns the configuration.
func (c *Core) Config() Config { return c.cfg }

// Pending returns the transfer waiting for its commit, if any.
func (c *Core) Pending() (Transfer, bool) {
	if c.pending == nil {
		return Transfer{}, false
	}
	return *c.pending, true
}

// Transfer answers long poll 0x72: a transfer request (full or partial),
// a cancel or an interrogation, at now.
func (c *Core) Transfer(req TransferRequest, cond Conditions, now time.Time) Decision {
	switch {
	case req.Code.Interrogation():
		return Decision{Reply: c.Interrogate(req.Index)}
	case req.Code == CodeCancel:
		return Decision{Reply: c.cancel()}
	case req.Code != CodeFull && req.Code != CodePartial:
		return Decision{Reply: TransferReply{Status: StatusUnsupportedCode}}
	}
	if c.pending != nil {
		if req.ID == c.pending.ID && sameRequest(*c.pending, req) {
			return Decision{Reply: c.pendingReply()} // the host asked again
		}
		return Decision{Reply: TransferReply{Status: StatusIncompatible}}
	}
	if prev, ok := c.st.Lookup(req.ID); ok {
		// Exactly once: a transaction ID already committed never runs
		// again. The same request gets its recorded result; a different
		// request under that ID is refused as SAS says (81).
		if sameRequest(prev.Transfer, req) {
			return Decision{Reply: entryReply(prev)}
		}
		return c.refuse(req, StatusIDNotUnique, now)
	}
	if c.st.Retired.Has(req.ID) {
		// Forever: an ID that completed before the history's 127 places
		// has no record left to answer with, and runs no more. SAS's
		// status for a repeated ID is 81 "transaction ID not unique"
		// (StatusIDNotUnique, codes.go), which the host reads as the
		// current transfer's until the next one.
		return c.refuse(req, StatusIDNotUnique, now)
	}
	rec, st := c.decide(req, cond, now)
	if st.Failed() {
		return c.refuse(req, st, now)
	}
	c.pending, c.refused = &rec, nil
	return Decision{Reply: c.pendingReply(), Record: &rec}
}

// sameRequest: req asks what t recorded (a repeat, not a new transfer).
func sameRequest(t Transfer, req TransferRequest) bool {
	return t.Code == req.Code && t.Type == req.Type && t.Asset == req.Asset && t.PoolID == req.PoolID &&
		t.Requested == Amounts{req.Cashable, req.Restricted, req.NonRestricted}
}

// refuse makes req the current transfer with failure status st: nothing
// moves, the host reads the reason until the next transfer.
func (c *Core) refuse(req TransferRequest, st Status, now time.Time) Decision {
	r := TransferReply{Status: st, ReceiptStatus: ReceiptNone, Type: req.Type,
		Cashable: req.Cashable, Restricted: req.Restricted, NonRestricted: req.NonRestricted,
		Flags: c.replyFlags(req.Flags, c.st.HostCashout), Asset: req.Asset, ID: req.ID, At: now,
		Expiration: req.Expiration, PoolID: req.PoolID}
	m := cumulative(c.st.Meters, req.Type)
	r.Meters = &m
	c.refused = &r
	return Decision{Reply: r}
}

// replyFlags are the transfer flags of a reply: the host cashout state in
// bits 0–2, the request's other bits as sent.
func (c *Core) replyFlags(req TransferFlags, hc HostCashout) TransferFlags {
	return req&^(FlagHostCashoutControl|FlagHostCashoutEnable|FlagHostCashoutHard) | TransferFlags(hc)
}

func (c *Core) pendingReply() TransferReply {
	p := c.pending
	rs := ReceiptNone
	if p.ReceiptStatus == ReceiptPending {
		rs = ReceiptPending
	}
	return TransferReply{Status: StatusPending, ReceiptStatus: rs, Type: p.Type,
		Cashable: p.Amounts.Cashable, Restricted: p.Amounts.Restricted, NonRestricted: p.Amounts.NonRestricted,
		Flags: c.replyFlags(p.Flags, p.HostCashout), Asset: p.Asset, ID: p.ID,
		Expiration: p.Expiration, PoolID: p.PoolID}
}

// entryReply is the reply that reports a committed transfer.
func entryReply(e Entry) TransferReply {
	m := e.Cumulative
	return TransferReply{Position: e.Position, Status: e.Status, ReceiptStatus: e.ReceiptStatus, Type: e.Type,
		Cashable: e.Amounts.Cashable, Restricted: e.Amounts.Restricted, NonRestricted: e.Amounts.NonRestricted,
		Flags: e.Flags&^(FlagHostCashoutControl|FlagHostCashoutEnable|FlagHostCashoutHard) | TransferFlags(e.HostCashout),
		Asset: e.Asset, ID: e.ID, At: e.At, Expiration: e.Expiration, PoolID: e.PoolID, Meters: &m}
}

// Choice: the cabinet hands a transfer's record to the ledger at once, so
// a pending transfer can no longer be cancelled: a cancel is answered
// with the status of the current transfer (40 while pending), never with
// 80 for a transfer that may yet complete.
func (c *Core) cancel() TransferReply { return c.Interrogate(0) }

// Interrogate reports a transfer: index 0 the current one (pending,
// refused or the last committed), 01–7F the history position, 81–FF
// relative to the newest history entry (FF the newest, FE the one
// before…). Status FF when there is none.
func (c *Core) Interrogate(index byte) TransferReply {
	none := TransferReply{Position: index, Status: StatusNoInfo, ReceiptStatus: ReceiptNone}
	switch {
	case index == 0:
		switch {
		case c.pending != nil:
			return c.pendingReply()
		case c.refused != nil:
			return *c.refused
		case c.st.Current != nil:
			return entryReply(*c.st.Current)
		}
		none.Position = 0
		return none
	case index <= MaxHistory:
		if e, ok := c.st.At(index); ok {
			return entryReply(e)
		}
	case index > 0x80:
		back := 256 - int(index)
		if back <= len(c.st.History) {
			return entryReply(c.st.History[len(c.st.History)-back])
		}
	}
	return none
}

// decide checks a transfer request against the machine and works out
// what moves: the record to commit, or the failure status. The order of
// the checks is the order of the reasons a host most needs to know.
func (c *Core) decide(req TransferRequest, cond Conditions, now time.Time) (Transfer, Status) {
	if st := c.admit(req, cond); st != StatusFull {
		return Transfer{}, st
	}
	rec := Transfer{ID: req.ID, Code: req.Code, Type: req.Type, Flags: req.Flags, Asset: req.Asset,
		Requested: Amounts{req.Cashable, req.Restricted, req.NonRestricted}, At: now,
		Expiration: req.Expiration, PoolID: req.PoolID, ReceiptStatus: ReceiptNone,
		HostCashout: c.st.HostCashout, LockTimeout: req.LockTimeout}
	if req.Flags&FlagHostCashoutControl != 0 {
		rec.HostCashout = HostCashoutControllable | HostCashout(req.Flags&(FlagHostCashoutEnable|FlagHostCashoutHard))
	}
	if req.Restricted > 0 && (req.Type == InHouseToMachine || req.Type == InHouseToTicket) {
		exp, ok := req.Expiration.Resolve(now)
		if !ok {
			if req.Type == InHouseToTicket {
				return Transfer{}, StatusExpirationNotValid
			}
			return Transfer{}, StatusInvalidAmount
		}
		rec.RestrictedExpiration = exp
		if req.Type != InHouseToTicket && cond.Credits.Restricted > 0 && cond.Credits.RestrictedPool != req.PoolID {
			return Transfer{}, StatusOtherPool
		}
	}
	moved, st := c.amounts(req, cond)
	if st.Failed() {
		return Transfer{}, st
	}
	rec.Amounts, rec.Status = moved, st
	if Logged(rec.Type, moved) {
		rec.Position = c.st.NextPosition()
	}
	if rec.Type.Debit() {
		// The POS the host debited the player's account at: the receipt
		// prints it, and the fold checks it against the registration.
		rec.POSID = c.registration().POSID
	}
	if req.Flags&FlagReceipt != 0 && moved.Total() > 0 {
		// Printed after the commit, with the host's data (SAS 8.3: only
		// for a successful transfer of a non-zero amount).
		rec.ReceiptStatus, rec.ReceiptData = ReceiptPending, slices.Clone(req.Receipt)
	}
	return rec, rec.Status
}

// admit is the part of the checks that does not depend on the amounts.
func (c *Core) admit(req TransferRequest, cond Conditions) Status {
	switch {
	case c.cfg.Asset == 0 || !c.cfg.enabled():
		return StatusInvalidFunction // AFT is off
	case req.Index != 0:
		return StatusInvalidFunction // only the current transaction may be started
	case !ValidID(req.ID):
		return StatusIDInvalid
	case req.Asset == 0 || req.Asset != c.cfg.Asset:
		return StatusAssetMismatch
	}
	if c.cfg.RequireRegistration || !req.Key.Zero() {
		switch reg := c.registration(); {
		case reg.Status != RegRegistered:
			return StatusNotRegistered
		case reg.Key != req.Key:
			return StatusKeyMismatch
		}
	}
	if req.Flags&FlagOnlyIfLocked != 0 && c.lock.phase != lockHeld {
		return StatusNotLocked
	}
	switch req.Type {
	case InHouseToMachine, InHouseToHost, WinToHost:
		if !c.cfg.InHouse {
			return StatusInvalidFunction
		}
	case BonusCoinOut, BonusJackpot:
		if !c.cfg.Bonus || req.Type == BonusJackpot && !c.cfg.BonusJackpot {
			return StatusInvalidFunction
		}
		if req.Flags&FlagReceipt != 0 {
			return StatusReceiptNotAllowed
		}
	case InHouseToTicket:
		if !c.cfg.InHouse || !c.cfg.TicketTransfers {
			return StatusInvalidFunction
		}
		if !cond.PrinterReady {
			return StatusTicketDeviceNotReady
		}
	case DebitToMachine:
		if st := c.admitDebit(req); st != StatusFull {
			return st
		}
	default:
		// Debit to a ticket: the cabinet prints no transfer ticket (see
		// doc.go); an unknown type is no function at all.
		return StatusInvalidFunction
	}
	switch {
	case req.Cashable < 0 || req.Restricted < 0 || req.NonRestricted < 0,
		req.Cashable > MaxAmount || req.Restricted > MaxAmount || req.NonRestricted > MaxAmount:
		return StatusInvalidAmount
	case c.cfg.CashableOnly && (req.Restricted != 0 || req.NonRestricted != 0),
		req.Type.Bonus() && req.Restricted != 0,               // SAS has no restricted bonus
		req.Type == InHouseToTicket && req.NonRestricted != 0, // nor a non-restricted ticket
		req.Type == WinToHost && (req.Restricted != 0 || req.NonRestricted != 0),
		req.Type.Debit() && (req.Restricted != 0 || req.NonRestricted != 0): // a bank pays cash
		return StatusInvalidAmount
	case req.Flags&FlagReceipt != 0 && (!c.cfg.Receipts || !cond.PrinterReady):
		return StatusCannotPrintReceipt
	case req.Flags&FlagReceipt != 0 && !receiptDataOK(req.Receipt):
		return StatusInvalidFunction // table 8.3f broken: nothing to print it from
	case req.Flags&FlagReceipt != 0 && req.Type.Debit() && !debitReceiptDataOK(req.Receipt):
		return StatusReceiptDataMissing
	case req.Code == CodePartial && req.Type.ToHost() && !c.cfg.PartialToHost:
		return StatusNoPartialToHost
	case !cond.playable():
		return StatusUnable
	}
	return StatusFull
}

// admitDebit checks what SAS asks of a debit transfer beyond an in-house
// one (8.1): debit enabled, a registration with a key and a POS ID, and
// the request under that key. The general check (admit) has compared a
// non-zero key already; a debit with a zero key is checked here.
func (c *Core) admitDebit(req TransferRequest) Status {
	reg := c.registration()
	switch {
	case !c.cfg.Debit:
		return StatusInvalidFunction
	case reg.Status != RegRegistered || reg.Key.Zero():
		// A registration without a key is no debit registration.
		return StatusNotRegistered
	case reg.Key != req.Key:
		return StatusKeyMismatch
	case reg.POSID == 0:
		return StatusNoPOSID
	}
	return StatusFull
}

// amounts works out what moves: all of it (StatusFull), part of it
// (StatusPartial, for code 01), or a failure.
func (c *Core) amounts(req TransferRequest, cond Conditions) (Amounts, Status) {
	want := Amounts{req.Cashable, req.Restricted, req.NonRestricted}
	var can Amounts // the most that may move, by kind
	switch req.Type {
	case InHouseToMachine, DebitToMachine:
		room := min(c.cfg.TransferLimit, cond.CreditLimit-cond.Credits.Total())
		can = fill(want, max(room, 0))
	case InHouseToTicket:
		can = fill(want, max(c.cfg.TransferLimit, 0))
	case BonusCoinOut, BonusJackpot:
		// SAS 8.5: a bonus is a win, paid whatever the credit and
		// transfer limits.
		can = want
	case InHouseToHost:
		can = Amounts{min(want.Cashable, cond.Credits.Cashable), min(want.Restricted, cond.Credits.Restricted),
			min(want.NonRestricted, cond.Credits.NonRestricted)}
	case WinToHost:
		if cond.WonCredits <= 0 {
			return Amounts{}, StatusNoWonCredits
		}
		can = Amounts{Cashable: min(want.Cashable, cond.WonCredits, cond.Credits.Cashable)}
	}
	if can == want {
		return want, StatusFull
	}
	limit := StatusExceedsLimit
	if req.Type.ToHost() {
		limit = StatusInvalidAmount // more than the machine holds
	}
	if req.Code != CodePartial || can.Total() == 0 {
		return Amounts{}, limit
	}
	return can, StatusPartial
}

// fill takes up to room cents from want, cashable first, then
// restricted, then non-restricted.
func fill(want Amounts, room int64) Amounts {
	var got Amounts
	for _, p := range [3][2]*int64{{&want.Cashable, &got.Cashable}, {&want.Restricted, &got.Restricted},
		{&want.NonRestricted, &got.NonRestricted}} {
		n := min(*p[0], room)
		*p[1] = n
		room -= n
	}
	return got
}

func receiptDataOK(b []byte) bool {
	_, err := ParseReceiptData(b)
	return err == nil
}

// debitReceiptDataOK: a debit receipt names the card the money came from
// (its last four digits, 8.11.2's account line); without them the host
// has not given enough to print it (91).
func debitReceiptDataOK(b []byte) bool {
	f, err := ParseReceiptData(b)
	return err == nil && f.DebitCard != ""
}

// enabled: some kind of transfer is on.
func (c Config) enabled() bool { return c.InHouse || c.Bonus || c.Debit }

// ValidID reports whether id is a transaction ID SAS allows: 1–20
// printable ASCII characters (0x20–0x7E).
func ValidID(id string) bool {
	if len(id) == 0 || len(id) > 20 {
		return false
	}
	for i := 0; i < len(id); i++ {
		if id[i] < 0x20 || id[i] > 0x7E {
			return false
		}
	}
	return true
}

// ErrNotPending is returned by Committed and Abandon for a transfer that
// is not the one waiting for its commit.
var ErrNotPending = errors.New("aft: not the pending transfer")

// Committed tells the core that rec is durable in the ledger: a
// Transfer from a Decision, a Registration, a Receipt or a
// ReceiptTextSet. It returns the
// exceptions to raise: 69 when a transfer completes (and 6F when it
// locks the machine again), 6D when the operator acknowledged a
// registration.
func (c *Core) Committed(rec Record, now time.Time) ([]Exception, error) {
	switch r := rec.(type) {
	case Transfer:
		if c.pending == nil || c.pending.ID != r.ID || c.pending.Position != r.Position {
			return nil, fmt.Errorf("%w: %q", ErrNotPending, r.ID)
		}
		if err := c.st.Apply(r); err != nil {
			return nil, err
		}
		c.pending = nil
		exc := []Exception{ExcTransferComplete}
		// SAS 8.9: the lock ends with the transfer, unless the host asked
		// to lock again after it.
		c.lock = lockState{}
		if r.Flags&FlagLockAfterTransfer != 0 && r.LockTimeout > 0 {
			c.lock = lockState{phase: lockHeld, timeout: r.LockTimeout, deadline: now.Add(hundredths(r.LockTimeout)), announced: now}
			exc = append(exc, ExcGameLocked)
		}
		return exc, nil
	case Registration:
		if len(c.regs) > 0 && c.regs[0] != r {
			return nil, fmt.Errorf("%w: registration %v, the oldest handed out is %v", ErrNotPending, r.Status, c.regs[0].Status)
		}
		was := c.st.Registration
		if err := c.st.Apply(r); err != nil {
			return nil, err
		}
		if len(c.regs) > 0 {
			c.regs = c.regs[1:]
		}
		if was != nil && was.Status == RegPending && r.Status == RegReady {
			return []Exception{ExcRegistrationAck}, nil
		}
		return nil, nil
	default:
		return nil, c.st.Apply(rec)
	}
}

// Abandon tells the core that the pending transfer rec will not be
// committed (the machine's recheck refused it, or its commit failed): it
// becomes the current transfer with status st, and nothing has moved.
func (c *Core) Abandon(rec Transfer, st Status, now time.Time) error {
	if c.pending == nil || c.pending.ID != rec.ID {
		return fmt.Errorf("%w: %q", ErrNotPending, rec.ID)
	}
	if !st.Failed() {
		return fmt.Errorf("aft: abandon %q with status %v, not a failure", rec.ID, st)
	}
	c.pending = nil
	req := TransferRequest{Code: rec.Code, Type: rec.Type, Cashable: rec.Requested.Cashable,
		Restricted: rec.Requested.Restricted, NonRestricted: rec.Requested.NonRestricted,
		Flags: rec.Flags, Asset: rec.Asset, ID: rec.ID, Expiration: rec.Expiration, PoolID: rec.PoolID}
	c.refuse(req, st, now)
	return nil
}

// Recheck is the machine's last look at a pending transfer when it is
// about to commit it, for a machine whose credits may have changed since
// the decision (a game started on a machine that was not locked): it returns
// the failure status when rec can no longer be applied, ok otherwise.
func Recheck(rec Transfer, cond Conditions) (Status, bool) {
	switch {
	case !cond.playable():
		return StatusUnable, false
	case rec.Type.ToCreditMeter() && cond.Credits.Total()+rec.Amounts.Total() > cond.CreditLimit:
		return StatusExceedsLimit, false
	case rec.Type.ToHost() && (rec.Amounts.Cashable > cond.Credits.Cashable ||
		rec.Amounts.Restricted > cond.Credits.Restricted || rec.Amounts.NonRestricted > cond.Credits.NonRestricted):
		return StatusInvalidAmount, false
	case rec.Amounts.Restricted > 0 && rec.Type == InHouseToMachine && cond.Credits.Restricted > 0 &&
		cond.Credits.RestrictedPool != rec.PoolID:
		return StatusOtherPool, false
	}
	return rec.Status, true
}

// ReceiptDue returns the committed transfers whose receipt is still to be
// printed: after a power-up the cabinet prints them (the ledger drives
// the devices), then commits a Receipt for each.
func (c *Core) ReceiptDue() []Transfer { return c.st.ReceiptDue() }
