// Package titopeer is a lightweight SAS gaming machine that prints and
// takes tickets: enough of a machine for the ticket system's tests and
// benchmark to run against many of them in one process. It is not the
// cabinet (machine/ and cmd/cabinet are): it keeps its state in memory,
// and it executes every poll it receives, answering general polls with its
// next exception at once, without implied acknowledgement or resends, which
// a lossless in-memory link never needs.
//
// What it does, as SAS 6.02 describes a machine:
//
//   - Secure-enhanced validation: 0x4C sets its validation ID and sequence;
//     a cash-out makes the next number (tito.Enhanced), keeps the record for
//     0x4D and raises 0x3D.
//   - System validation: a cash-out raises 0x57 and waits; 0x57 reports the
//     amount; 0x58 brings the host's number (the ticket is printed, 0x3D) or
//     its denial (system ID 00: no ticket, the credits stay).
//   - Ticket in: Insert puts a ticket in escrow and raises 0x67; 0x70
//     reports its digits; 0x71 with a valid transfer code credits the
//     amount (reply 40, then 0x68), any other code rejects it (reply 80,
//     0x68); with no 0x71 within the redemption timeout the ticket is
//     rejected (88, 0x68); 0x71 FF reports the final status; 0x50 counts
//     the tickets redeemed (types 80 and 81; the others are zero).
//   - Restricted promotional credits (one pool at a time): CashoutRestricted
//     prints them on a restricted ticket (0x4D type 01, with pool and
//     expiration); 0x71 transfer code 01 credits them, and is refused with
//     87 while restricted credits of another pool are on the meter.
package titopeer

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"sync"
	"syscall"
	"time"

	"github.com/openegm/cabinet/aft"
	"github.com/openegm/cabinet/sas"
	"github.com/openegm/cabinet/tito"
)

// Config is a peer's configuration.
type Config struct {
	// Addr is its SAS address (1 if 0).
	Addr byte
	// Name is its machine number, printed on its tickets.
	Name string
	// Style is secure-enhanced (default) or system validation.
	Style tito.Style
	// Casino is printed on its tickets ("Casino" if empty).
	Casino string
	// Expiry of its tickets in days (30 if 0).
	Expiry uint16
	// RedeemTimeout is how long a ticket waits in escrow for 0x71 (10 s
	// if 0).
	RedeemTimeout time.Duration
	// Now is its clock (time.Now if nil).
	Now func() time.Time
	// OnPrinted and OnRedeemed, if set, see each printed ticket and each
	// finished redemption, from the goroutine serving the link (a ticket
	// rejected for the redemption timeout: from the timeout's own).
	OnPrinted  func(tito.Ticket)
	OnRedeemed func(Result)
	// Reinsert, if set, sees each finished redemption and may return the
	// barcode of a ticket to put in escrow at once, before the host can
	// poll: a player who feeds a copy of the ticket just credited. The
	// peer has no memory of the tickets it credited, so only the host
	// can refuse it.
	Reinsert func(Result) string
}

// Result is the end of one ticket inserted.
type Result struct {
	Digits string
	Status sas.RedemptionStatus
	Cents  int64 // credited; 0 when rejected
}

// Peer is one machine. Its methods are safe for concurrent use with its
// Serve loop.
type Peer struct {
	cfg Config

	mu       sync.Mutex
	enhanced tito.Enhanced
	records  []sas.ValidationRecord // newest last, at most 31
	unread   int                    // records not yet read with 4D 00
	ticketNo uint16
	credits  int64
	printed  []tito.Ticket
	results  []Result
	queue    []sas.Exception
	pending  int64 // cents of a cash-out waiting for 0x58 (system style)
	escrow   *escrow
	last     *Result // the last finished redemption, for 0x71 FF
	// redeemed are the validation meters of tickets redeemed (0x50 types
	// 80 and 81): count and cents
	redeemed, restrictedIn sas.ValidationMeters
	// restricted credits, their pool and expiration (MMDDYYYY; 0 never),
	// and whether the host turned restricted tickets on (0x7B)
	restricted      Restricted
	printRestricted bool
}

// Restricted is restricted promotional credit: cents of pool, expiring on
// Until (MMDDYYYY; 0 never).
type Restricted struct {
	Cents int64
	Pool  uint16
	Until uint32
}

type escrow struct {
	digits   string
	since    time.Time
	answered bool
	timeout  *time.Timer // rejects the ticket if the host leaves it unanswered
}

// New returns a peer.
func New(cfg Config) *Peer {
	if cfg.Addr == 0 {
		cfg.Addr = 1
	}
	if cfg.Style == 0 {
		cfg.Style = tito.StyleSecureEnhanced
	}
	if cfg.Casino == "" {
		cfg.Casino = "Casino"
	}
	if cfg.Expiry == 0 {
		cfg.Expiry = 30
	}
	if cfg.RedeemTimeout == 0 {
		cfg.RedeemTimeout = 10 * time.Second
	}
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	return &Peer{cfg: cfg}
}

// Name is the machine number.
func (p *Peer) Name() string { return p.cfg.Name }

// Errors of the player's actions.
var (
	ErrBusy = errors.New("titopeer: busy with another ticket")
	ErrNone = errors.New("titopeer: not that many credits to cash out")
)

// Cashout prints cents of the credits as a ticket: at once with
// secure-enhanced validation (if the host configured it), after the host's
// 0x58 with system validation.
func (p *Peer) Cashout(cents int64) error {
	p.mu.Lock()
	defer p.mu.Unlock()
	if cents <= 0 || cents > p.credits {
		return ErrNone
	}
	if p.pending != 0 {
		return ErrBusy
	}
	if p.cfg.Style == tito.StyleSystem {
		p.pending = cents
		p.queue = append(p.queue, sas.ExcSystemValidationReq)
		return nil
	}
	next, v, err := p.enhanced.Next()
	if err != nil {
		return err
	}
	p.enhanced = next
	p.credits -= cents
	p.print(v, cents)
	return nil
}

// AddRestricted puts restricted promotional credits on the meter (an AFT
// transfer, say), replacing any there.
func (p *Peer) AddRestricted(r Restricted) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.restricted = r
}

// RestrictedCredits returns the restricted promotional credits.
func (p *Peer) RestrictedCredits() Restricted {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.restricted
}

// ErrRestrictedOff: the host has not turned restricted tickets on.
var ErrRestrictedOff = errors.New("titopeer: restricted tickets are off (0x7B)")

// CashoutRestricted prints the restricted credits on a restricted ticket
// (secure-enhanced only), once the host has turned them on.
func (p *Peer) CashoutRestricted() error {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.restricted.Cents <= 0 {
		return ErrNone
	}
	if !p.printRestricted {
		return ErrRestrictedOff
	}
	next, v, err := p.enhanced.Next()
	if err != nil {
		return err
	}
	p.enhanced = next
	r := p.restricted
	p.restricted = Restricted{}
	p.printKind(v, r.Cents, r)
	return nil
}

// print records a printed ticket and raises 0x3D. Called with mu held.
func (p *Peer) print(v tito.Validation, cents int64) { p.printKind(v, cents, Restricted{}) }

// printKind prints a cashable ticket, or with r.Cents a restricted one.
func (p *Peer) printKind(v tito.Validation, cents int64, r Restricted) {
	now := p.cfg.Now()
	p.ticketNo = (p.ticketNo + 1) % (tito.MaxTicketNumber + 1)
	tk := tito.Ticket{Casino: p.cfg.Casino, Kind: tito.KindCashout, Cents: cents, Validation: v,
		Issued: now, Machine: p.cfg.Name, Number: p.ticketNo, Expiry: p.cfg.Expiry}
	rec := sas.ValidationRecord{Type: sas.ValCashableTicket, At: wall(now), Number: v.Uint(), Cents: uint64(cents),
		TicketNumber: p.ticketNo, SystemID: v.SystemID, Expiration: uint32(p.cfg.Expiry)}
	if r.Cents != 0 {
		tk.Kind, tk.Pool, rec.Type, rec.PoolID = tito.KindRestricted, r.Pool, sas.ValRestrictedTicket, r.Pool
		if until, ok := aft.Expiration(r.Until).Date(); ok {
			tk.Until, tk.Expiry, rec.Expiration = until, 0, r.Until
		}
	}
	p.printed = append(p.printed, tk)
	p.records = append(p.records, rec)
	if len(p.records) > int(sas.ValidationMaxIndex) {
		p.records = p.records[1:]
	}
	p.unread = min(p.unread+1, len(p.records))
	p.queue = append(p.queue, sas.ExcCashOutTicketPrinted)
	if p.cfg.OnPrinted != nil {
		p.cfg.OnPrinted(tk)
	}
}

// wall is t's wall clock as SAS carries it (location UTC).
func wall(t time.Time) time.Time {
	return time.Date(t.Year(), t.Month(), t.Day(), t.Hour(), t.Minute(), t.Second(), 0, time.UTC)
}

// Insert puts a ticket with the barcode digits in escrow and raises 0x67.
func (p *Peer) Insert(digits string) error {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.escrow != nil {
		return ErrBusy
	}
	p.hold(digits)
	return nil
}

// Credits returns the credits in cents.
func (p *Peer) Credits() int64 {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.credits
}

// AddCredits puts money on the credit meter (a bill, say).
func (p *Peer) AddCredits(cents int64) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.credits += cents
}

// Printed returns the tickets printed.
func (p *Peer) Printed() []tito.Ticket {
	p.mu.Lock()
	defer p.mu.Unlock()
	return append([]tito.Ticket(nil), p.printed...)
}

// Results returns the redemptions finished.
func (p *Peer) Results() []Result {
	p.mu.Lock()
	defer p.mu.Unlock()
	return append([]Result(nil), p.results...)
}

// Enhanced returns the secure-enhanced configuration.
func (p *Peer) Enhanced() tito.Enhanced {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.enhanced
}

// finish ends the redemption in escrow. Called with mu held.
func (p *Peer) finish(st sas.RedemptionStatus, cents int64) {
	p.credits += cents
	p.end(st, cents)
}

// end records the end of the redemption in escrow, whatever it credited.
// Called with mu held.
func (p *Peer) end(st sas.RedemptionStatus, cents int64) {
	r := Result{Digits: p.escrow.digits, Status: st, Cents: cents}
	p.results = append(p.results, r)
	p.last = &r
	p.escrow.timeout.Stop()
	p.escrow = nil
	switch st {
	case sas.RedeemedCashable:
		p.redeemed.Count++
		p.redeemed.Cents += uint64(cents)
	case sas.RedeemedRestricted:
		p.restrictedIn.Count++
		p.restrictedIn.Cents += uint64(cents)
	}
	p.queue = append(p.queue, sas.ExcTicketTransferDone)
	if p.cfg.OnRedeemed != nil {
		p.cfg.OnRedeemed(r)
	}
	if p.cfg.Reinsert != nil {
		if d := p.cfg.Reinsert(r); d != "" {
			p.hold(d)
		}
	}
}

// hold puts the ticket with the barcode digits in escrow, raises 0x67 and
// starts its redemption timeout. Called with mu held.
func (p *Peer) hold(digits string) {
	e := &escrow{digits: digits, since: p.cfg.Now()}
	e.timeout = time.AfterFunc(p.cfg.RedeemTimeout, func() { p.expire(e) })
	p.escrow = e
	p.queue = append(p.queue, sas.ExcTicketInserted)
}

// expire rejects ticket e if the host left it unanswered for the
// redemption timeout (by the peer's clock: if that says it is not yet
// time, it looks again later). A timer per ticket in escrow, rather than
// a look at every turn of Serve's loop: that loop woke each peer every
// 50 ms to look, 20,000 wake-ups a second on a floor of 1,000 cabinets
// (issue 26).
func (p *Peer) expire(e *escrow) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.escrow != e || e.answered {
		return // ended, or answered: the host took it in time
	}
	if left := p.cfg.RedeemTimeout - p.cfg.Now().Sub(e.since); left >= 0 {
		e.timeout.Reset(max(left, time.Millisecond))
		return
	}
	p.finish(sas.RedeemTimeout, 0)
}

// Serve runs the machine's side of the link on conn until ctx is done or
// the link closes (it then returns nil).
func (p *Peer) Serve(ctx context.Context, conn net.Conn) error {
	stop := context.AfterFunc(ctx, func() { conn.Close() })
	defer stop()
	buf := make([]byte, 1024)
	var in []byte
	for {
		n, err := conn.Read(buf)
		in = append(in, buf[:n]...)
		for {
			frame, rest, ok := sas.CutPoll(in)
			if !ok {
				break
			}
			in = rest
			if reply := p.handle(frame); len(reply) > 0 {
				if _, err := conn.Write(reply); err != nil {
					return closed(ctx, err)
				}
			}
		}
		if err != nil {
			return closed(ctx, err)
		}
	}
}

func closed(ctx context.Context, err error) error {
	if ctx.Err() != nil || errors.Is(err, io.EOF) || errors.Is(err, io.ErrClosedPipe) || errors.Is(err, net.ErrClosed) ||
		errors.Is(err, syscall.ECONNRESET) { // the host went away: the link ends, the machine is fine
		return nil
	}
	return err
}

// handle executes one poll and returns the reply (nil: silence).
func (p *Peer) handle(f []byte) []byte {
	addr := p.cfg.Addr
	if f[0]&sas.GeneralPollBit != 0 {
		if f[0]&sas.MaxAddr != addr {
			return nil
		}
		p.mu.Lock()
		defer p.mu.Unlock()
		if len(p.queue) == 0 {
			return []byte{byte(sas.ExcNone)}
		}
		e := p.queue[0]
		p.queue = p.queue[1:]
		return []byte{byte(e)}
	}
	if f[0] != addr {
		return nil
	}
	cmd := f[1]
	var data []byte
	if len(f) > 2 {
		if !sas.CheckCRC(f) {
			return sas.NackReply(addr)
		}
		data = f[2 : len(f)-2]
	}
	out, err := p.longPoll(cmd, data)
	if err != nil || out == nil {
		return nil // malformed or unsupported: silence, as SAS wants
	}
	return sas.BuildReply(addr, cmd, out...)
}

func (p *Peer) longPoll(cmd byte, data []byte) ([]byte, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	switch cmd {
	case sas.CmdExtendedValidationStatus:
		c, err := sas.DecodeValidationControl(data)
		if err != nil {
			return nil, err
		}
		if c.Mask&sas.ValCtlPrintRestricted != 0 {
			p.printRestricted = c.States&sas.ValCtlPrintRestricted != 0
		}
		st := sas.ValCtlPrinterCashout | sas.ValCtlTicketRedemption
		if p.printRestricted {
			st |= sas.ValCtlPrintRestricted
		}
		return sas.ValidationStatus{Status: st, CashableExpiration: p.cfg.Expiry, RestrictedExpiration: tito.ExpiryNever}.Encode()
	case sas.CmdSetValidationID:
		v, err := sas.DecodeValidationID(data)
		if err != nil {
			return nil, err
		}
		if p.enhanced, err = p.enhanced.Set(v.MachineID, v.Sequence); err != nil {
			return nil, err
		}
		return sas.ValidationID{MachineID: p.enhanced.ID, Sequence: p.enhanced.Seq}.Encode()
	case sas.CmdEnhancedValidationInfo:
		fn, err := sas.DecodeEnhancedValidationPoll(data)
		if err != nil {
			return nil, err
		}
		return p.record(fn).Encode()
	case sas.CmdPendingCashoutInfo:
		if p.pending == 0 {
			return sas.PendingCashout{Type: sas.CashoutNotWaiting}.Encode()
		}
		return sas.PendingCashout{Type: sas.CashoutCashable, Cents: uint64(p.pending)}.Encode()
	case sas.CmdReceiveValidationNumber:
		v, err := sas.DecodeValidationNumber(data)
		if err != nil {
			return nil, err
		}
		return []byte{p.receiveNumber(v)}, nil
	case sas.CmdTicketValidationData:
		if p.escrow == nil {
			return sas.TicketValidationData{Status: sas.TicketNone}.Encode()
		}
		d, err := sas.EncodeValidationDigits(padded(p.escrow.digits))
		if err != nil {
			return nil, err
		}
		return sas.TicketValidationData{Status: sas.TicketInEscrow, ParsingCode: sas.ParsingBCD, Data: d}.Encode()
	case sas.CmdRedeemTicket:
		r, err := sas.DecodeRedeemTicket(data)
		if err != nil {
			return nil, err
		}
		return p.redeem(r)
	case sas.CmdValidationMeters:
		t, err := sas.DecodeValidationMetersPoll(data)
		if err != nil {
			return nil, err
		}
		m := sas.ValidationMeters{Type: t}
		switch t {
		case sas.ValCashableRedeemed:
			m = p.redeemed
		case sas.ValRestrictedRedeemed:
			m = p.restrictedIn
		}
		m.Type = t
		return m.Encode()
	case sas.CmdSetTicketData:
		if _, err := sas.DecodeTicketData(data); err != nil {
			return nil, err
		}
		return []byte{1}, nil
	}
	return nil, nil
}

// record answers 0x4D. Called with mu held.
func (p *Peer) record(fn byte) sas.ValidationRecord {
	var r sas.ValidationRecord
	switch {
	case fn == sas.ValidationCurrent || fn == sas.ValidationLookAhead:
		if p.unread == 0 {
			return sas.ValidationRecord{}
		}
		r = p.records[len(p.records)-p.unread]
		r.Index = byte(len(p.records) - p.unread + 1)
		if fn == sas.ValidationCurrent {
			p.unread--
		}
	case int(fn) <= len(p.records):
		r = p.records[fn-1]
		r.Index = fn
	}
	return r
}

// receiveNumber applies 0x58. Called with mu held.
func (p *Peer) receiveNumber(v sas.ValidationNumber) byte {
	if p.pending == 0 {
		return sas.ReceiveValidationNotInOut
	}
	if v.Denied() {
		p.pending = 0 // not printed; the credits stay
		return sas.ReceiveValidationAck
	}
	val, err := tito.System(v.SystemID, v.Number)
	if err != nil {
		return sas.ReceiveValidationRejected
	}
	cents := p.pending
	p.pending = 0
	p.credits -= cents
	p.print(val, cents)
	return sas.ReceiveValidationAck
}

// redeem applies 0x71. Called with mu held.
func (p *Peer) redeem(r sas.RedeemTicket) ([]byte, error) {
	if r.Code == sas.TransferStatusRequest {
		if p.escrow != nil {
			st := sas.RedeemWaiting71
			if p.escrow.answered {
				st = sas.RedeemPending
			}
			return p.reply(st, 0, p.escrow.digits)
		}
		if p.last == nil {
			return sas.RedeemReply{Status: sas.RedeemNoValidationInfo}.Encode()
		}
		return p.reply(p.last.Status, p.last.Cents, p.last.Digits)
	}
	if p.escrow == nil || p.escrow.answered {
		return sas.RedeemReply{Status: sas.RedeemNotThisCycle}.Encode()
	}
	digits, err := sas.ValidationDigits(r.Data)
	if err != nil || digits != padded(p.escrow.digits) {
		return p.reply(sas.RedeemNumberMismatch, 0, p.escrow.digits)
	}
	p.escrow.answered = true
	d := p.escrow.digits
	if !r.Code.Accepts() {
		p.finish(sas.RedeemRejectedByHost, 0)
		return p.reply(sas.RedeemRejectedByHost, 0, d)
	}
	if r.Code == sas.TransferRestricted {
		if c := p.restricted; c.Cents > 0 && c.Pool != r.PoolID {
			p.finish(sas.RedeemUnableNow, 0)
			return p.reply(sas.RedeemUnableNow, 0, d)
		}
		out, err := p.reply(sas.RedeemPending, int64(r.Cents), d)
		p.restricted = Restricted{Cents: p.restricted.Cents + int64(r.Cents), Pool: r.PoolID, Until: r.Expiration}
		p.end(sas.RedeemedRestricted, int64(r.Cents))
		return out, err
	}
	// Crediting takes no time here: the pending reply, then 0x68.
	out, err := p.reply(sas.RedeemPending, int64(r.Cents), d)
	p.finish(sas.RedeemedCashable, int64(r.Cents))
	return out, err
}

func (p *Peer) reply(st sas.RedemptionStatus, cents int64, digits string) ([]byte, error) {
	d, err := sas.EncodeValidationDigits(padded(digits))
	if err != nil {
		return nil, fmt.Errorf("titopeer: ticket %q: %w", digits, err)
	}
	return sas.RedeemReply{Status: st, Cents: uint64(cents), ParsingCode: sas.ParsingBCD, Data: d}.Encode()
}

// padded makes 8-digit standard numbers 18 digits for the BCD field.
func padded(digits string) string {
	for len(digits) < 2*sas.ValidationDataLen {
		digits = "0" + digits
	}
	return digits
}
