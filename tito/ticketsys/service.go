package ticketsys

import (
	"context"
	"crypto/rand"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"slices"
	"strconv"
	"time"

	clientv3 "go.etcd.io/etcd/client/v3"

	"github.com/openegm/cabinet/aft"
	"github.com/openegm/cabinet/internal/etcdretry"
	"github.com/openegm/cabinet/sas"
	"github.com/openegm/cabinet/sas/host"
	"github.com/openegm/cabinet/tito"
)

// The service: the host side that polls cabinets over SAS and keeps their
// tickets in the Store.
//
//   - 0x3D (cash-out ticket printed), secure-enhanced cabinet: reads every
//     unread validation record with 0x4D 00 and records each ticket.
//   - 0x57 (system validation request): reads the amount with 0x57, makes
//     a number from its own generator, records the ticket, then answers
//     0x58 (so a printed number is always a recorded one; a number the
//     machine refuses is voided).
//   - 0x67 (ticket inserted): reads 0x70, authorises in the Store, answers
//     0x71 with the verdict and the amount; a final status in the reply
//     commits or releases at once, a pending one waits for 0x68.
//   - 0x68 (ticket transfer complete): reads the final status with 0x71
//     FF and commits (credited) or releases (rejected, timed out).
//
// At start it gives each secure-enhanced cabinet its validation ID (0x4C;
// one ID per cabinet, made once and kept in etcd), settles the holds the
// cabinet had when the service last stopped, by asking it with 0x71 FF, and
// reads the validations the cabinet kept unread (0x4D). It does all that
// again whenever the cabinet's link comes back after it went down (the
// connection dropped, the cabinet restarted): with Cabinet.Dial it opens
// the link again itself, with a growing pause between attempts.

// Cabinet is one machine the service polls.
type Cabinet struct {
	// Name is the machine number: the By of its redemptions and the
	// machine of its tickets. A key segment (no '/').
	Name   string
	Client *host.Client
	// Dial, if set, opens the link to the cabinet (Client may then be
	// nil): Run opens it at its start, and closes and opens it again when
	// the link fails. Without it Run polls Client for good.
	Dial func(ctx context.Context) (*host.Client, error)
	// Style is how its tickets are validated: tito.StyleSecureEnhanced
	// (default) or tito.StyleSystem.
	Style tito.Style
}

// ServiceConfig configures a Service.
type ServiceConfig struct {
	// Casino is the name recorded tickets carry.
	Casino string
	// SystemID is the system ID of the numbers the service makes for
	// system validation (1–99; 1 if 0).
	SystemID uint8
	// Expiry is the days a ticket is valid when its cabinet does not say
	// (30 if 0; tito.ExpiryNever for never).
	Expiry uint16
	// Poll is the pause between two general polls of a cabinet (40 ms if
	// 0, the fastest SAS allows when ticketing).
	Poll time.Duration
	// LinkDown is how long a cabinet may leave every poll unanswered
	// before its link counts as down and the cabinet as restarted (5 s if
	// 0: SAS's own link-down time). A port that fails (ErrPort) is down at
	// once.
	LinkDown time.Duration
	// Redial is the longest pause between two attempts to bring a link
	// back (5 s if 0); the pause doubles from Poll up to it.
	Redial time.Duration
	// TicketLimit denies system validation (0x58 system ID 00) of a
	// cash-out above these cents: the cabinet pays it by hand (0: none).
	TicketLimit int64
	// RestrictedTickets turns restricted promotional tickets on at every
	// start (0x7B bit 0x0008; a cabinet keeps them off until told): a
	// cash-out then prints the restricted credits on a ticket instead of
	// leaving them on the machine.
	RestrictedTickets bool
	// Now is the clock of the times recorded (time.Now if nil).
	Now func() time.Time
	// Rand makes validation IDs and system numbers (crypto/rand if nil).
	Rand io.Reader
	// Log, if set, hears what the service did and what failed.
	Log func(format string, a ...any)
}

// Service polls cabinets for one Store.
type Service struct {
	st  *Store
	cfg ServiceConfig
}

// NewService returns a service of s.
func NewService(s *Store, cfg ServiceConfig) *Service {
	if cfg.SystemID == 0 {
		cfg.SystemID = 1
	}
	if cfg.Expiry == 0 {
		cfg.Expiry = 30
	}
	if cfg.Poll <= 0 {
		cfg.Poll = 40 * time.Millisecond
	}
	if cfg.LinkDown <= 0 {
		cfg.LinkDown = 5 * time.Second
	}
	if cfg.Redial <= 0 {
		cfg.Redial = 5 * time.Second
	}
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	if cfg.Rand == nil {
		cfg.Rand = rand.Reader
	}
	if cfg.Log == nil {
		cfg.Log = func(string, ...any) {}
	}
	if cfg.Casino == "" {
		cfg.Casino = "Casino"
	}
	return &Service{st: s, cfg: cfg}
}

// poller is the state of one cabinet's loop.
type poller struct {
	sv  *Service
	cab Cabinet
	// current is the redemption authorised at the cabinet and not yet
	// finished ("" when none).
	current string
	// refused is the ticket whose presentation the service refused
	// because this cabinet holds it under a redemption whose end is not
	// known (no count to tell): the refusal's own end (0x68) is not that
	// redemption's.
	refused string
	// pause is the wait before the next attempt to bring the link back
	// (0: the link was up at the last poll).
	pause time.Duration
	// known is the cabinet's holds as this poller last read or changed
	// them, so that a presentation needs no read of them: every step taken
	// on it is conditional on the cabinet holding nothing else
	// (aloneCmp), and one refused sends the poller back to reading them.
	known knownHolds
}

// knownHolds is what a poller knows of its cabinet's holds: when ok, the
// cabinet holds the ticket digits under redemption id, authorised at its
// count seq, or (id "") nothing. A hold without a count is never known:
// only its status settles it.
type knownHolds struct {
	ok     bool
	id     string
	digits string
	seq    uint64
}

// errLinkDown ends polling on a link that is down, to open it again.
var errLinkDown = errors.New("link down")

// linkErr is err as the end of the link when it is a port failure.
func linkErr(err error) error {
	if errors.Is(err, host.ErrPort) {
		return fmt.Errorf("%w: %w", errLinkDown, err)
	}
	return err
}

// Run polls cab until ctx is done (it then returns nil). SAS errors are
// logged and polling goes on; a link that goes down is brought back and
// the cabinet started again (start); an etcd error that outlives ctx ends
// it.
func (sv *Service) Run(ctx context.Context, cab Cabinet) error {
	if err := checkName("cabinet", cab.Name); err != nil {
		return err
	}
	switch cab.Style {
	case 0:
		cab.Style = tito.StyleSecureEnhanced
	case tito.StyleSecureEnhanced, tito.StyleSystem:
	default:
		// Standard numbers are the machine's ID and counter: anyone who
		// saw one ticket can forge the next, so the casino does not
		// accept them.
		return fmt.Errorf("ticketsys: cabinet %s: %w: validation style %v, want secure-enhanced or system", cab.Name, ErrInvalid, cab.Style)
	}
	if cab.Client == nil && cab.Dial == nil {
		return fmt.Errorf("ticketsys: cabinet %s: %w: neither a client nor a way to dial one", cab.Name, ErrInvalid)
	}
	p := &poller{sv: sv, cab: cab}
	defer p.hangUp()
	for {
		err := p.connect(ctx)
		if err == nil {
			err = p.poll(ctx)
		}
		switch {
		case ctx.Err() != nil:
			return nil
		case !errors.Is(err, errLinkDown):
			return err
		}
		sv.cfg.Log("%s: %v: starting the cabinet again", cab.Name, err)
		p.pause = min(max(2*p.pause, sv.cfg.Poll), sv.cfg.Redial)
	}
}

// connect (re)opens the link after the pause a failure asks for, and
// starts the cabinet on it.
func (p *poller) connect(ctx context.Context) error {
	for {
		if p.pause > 0 {
			t := time.NewTimer(p.pause)
			select {
			case <-ctx.Done():
				t.Stop()
				return ctx.Err()
			case <-t.C:
			}
		}
		if p.cab.Dial != nil {
			p.hangUp()
			cl, err := p.cab.Dial(ctx)
			if err != nil {
				if ctx.Err() != nil {
					return ctx.Err()
				}
				p.sv.cfg.Log("%s: open the link: %v", p.cab.Name, err)
				p.pause = min(max(2*p.pause, p.sv.cfg.Poll), p.sv.cfg.Redial)
				continue
			}
			p.cab.Client = cl
		}
		return p.start(ctx)
	}
}

// hangUp closes a link the poller opened.
func (p *poller) hangUp() {
	if p.cab.Dial != nil && p.cab.Client != nil {
		p.cab.Client.Close()
		p.cab.Client = nil
	}
}

// busyPoll is the pause between general polls of a cabinet that has just
// reported something, or where a redemption is under way: SAS's pace when
// ticketing (40 ms). A casino may poll its idle cabinets more slowly (Poll:
// 1,000 cabinets at 40 ms are 25,000 polls a second), but a player who has
// inserted a ticket should not wait whole idle pauses for the exceptions
// that carry it on (the 0x68 after the 0x67, the next of a queue).
const busyPoll = 40 * time.Millisecond

// poll polls the cabinet until ctx ends or its link is down.
func (p *poller) poll(ctx context.Context) error {
	tm := time.NewTimer(p.sv.cfg.Poll)
	defer tm.Stop()
	lastOK := time.Now()
	for {
		at := time.Now()
		busy := false
		g, err := p.cab.Client.GeneralPoll()
		switch {
		case errors.Is(err, host.ErrPort):
			return linkErr(err)
		case err != nil && time.Since(lastOK) >= p.sv.cfg.LinkDown:
			return fmt.Errorf("%w: no answer for %v: %w", errLinkDown, p.sv.cfg.LinkDown, err)
		case err != nil:
			p.sv.cfg.Log("%s: general poll: %v", p.cab.Name, err)
		default:
			lastOK, p.pause = time.Now(), 0
			busy = g.Exception != 0
			if err := p.exception(ctx, g.Exception); err != nil {
				if ctx.Err() != nil {
					return nil
				}
				if errors.Is(err, host.ErrPort) {
					return linkErr(err)
				}
				p.sv.cfg.Log("%s: exception %v: %v", p.cab.Name, g.Exception, err)
			}
		}
		pause := p.sv.cfg.Poll
		if busy || p.current != "" {
			pause = min(pause, busyPoll)
		}
		tm.Reset(time.Until(at.Add(pause)))
		select {
		case <-ctx.Done():
			return nil
		case <-tm.C:
		}
	}
}

// start configures the cabinet, settles its holds and reads the
// validations it has not reported: at the service's start, and again
// each time the link comes back, since what happened while it was down
// (a ticket printed, a redemption ended, a restart) was not seen.
func (p *poller) start(ctx context.Context) error {
	p.known = knownHolds{} // what happened while it was away is read
	c := p.cab
	if c.Style == tito.StyleSecureEnhanced {
		id, err := p.sv.ValidationID(ctx, c.Name)
		if err != nil {
			return err
		}
		// Sequence 0 every time: a machine that had the same ID and
		// sequence goes on from its own sequence (SAS 4C).
		got, err := c.Client.SetValidationID(sas.ValidationID{MachineID: id})
		if err != nil || got.MachineID != id {
			p.sv.cfg.Log("%s: 4C validation ID %06X: answered %+v, %v", c.Name, id, got, err)
		}
		if errors.Is(err, host.ErrPort) {
			return linkErr(err)
		}
	}
	expiry := byte(0) // 7D carries 1-255 days, 0 never
	if p.sv.cfg.Expiry != tito.ExpiryNever {
		expiry = byte(min(p.sv.cfg.Expiry, 255))
	}
	loc := p.sv.cfg.Casino[:min(len(p.sv.cfg.Casino), sas.MaxTicketText)]
	if _, err := c.Client.SetTicketData(sas.TicketData{Fields: 3, Expiry: expiry, Location: loc}); err != nil {
		p.sv.cfg.Log("%s: 7D ticket data: %v", c.Name, err)
	}
	if p.sv.cfg.RestrictedTickets {
		ctl := sas.ValidationControl{Mask: sas.ValCtlPrintRestricted, States: sas.ValCtlPrintRestricted}
		if st, err := c.Client.ExtendedValidationStatus(ctl); err != nil || st.Status&sas.ValCtlPrintRestricted == 0 {
			p.sv.cfg.Log("%s: 7B restricted tickets on: answered %+v, %v", c.Name, st, err)
		}
	}
	holds, err := p.sv.st.Holds(ctx, c.Name)
	if err != nil {
		return err
	}
	if len(holds) > 0 {
		if err := p.settle(ctx, holds); err != nil {
			return linkErr(err)
		}
	}
	if c.Style == tito.StyleSecureEnhanced {
		if err := p.records(ctx); err != nil {
			if errors.Is(err, host.ErrPort) || ctx.Err() != nil {
				return linkErr(err)
			}
			p.sv.cfg.Log("%s: 4D validations: %v", c.Name, err) // the next 3D or 3E reads them
		}
	}
	return nil
}

// settle asks the cabinet about the holds it had before the service
// started (or its link came back). Holds that carry the count they were
// authorised at are settled by the count the cabinet has now (resolve): a
// copy of a ticket it credited meanwhile, waiting in its validator, makes
// its status speak of the copy, never of the credit. The others, older,
// by the status, as before the count was kept.
func (p *poller) settle(ctx context.Context, holds []Ticket) error {
	r, err := p.cab.Client.RedeemTicket(sas.RedeemTicket{Code: sas.TransferStatusRequest})
	if err != nil {
		for _, t := range holds {
			p.current = t.Hold.Redemption // the 0x68 will tell, or the next start
		}
		p.sv.cfg.Log("%s: 71 FF for %d holds: %v", p.cab.Name, len(holds), err)
		if errors.Is(err, host.ErrPort) {
			return err
		}
		return nil
	}
	digits, _ := sas.ValidationDigits(r.Data)
	escrow := ""
	if !r.Status.Final() && r.Status != sas.RedeemNoValidationInfo {
		escrow = digits // in its validator now
	}
	answered := false
	n, cerr := p.redeemedCount()
	if errors.Is(cerr, host.ErrPort) {
		return cerr
	}
	if cerr == nil {
		reuse, _, err := p.resolve(ctx, n, escrow)
		if err != nil {
			return err
		}
		switch {
		case reuse != "" && r.Status != sas.RedeemWaiting71:
			p.current = reuse // crediting: 0x68 will follow
		case reuse != "":
			// The cabinet waits for an answer and has credited nothing
			// since this authorisation: give it (again).
			a, err := p.sv.st.Redemption(ctx, reuse)
			if err != nil {
				return err
			}
			if err := p.answer(ctx, a, r.Data); err != nil {
				return err
			}
			answered = true
		}
	} else {
		p.sv.cfg.Log("%s: 50 tickets redeemed: %v", p.cab.Name, cerr)
	}
	for _, t := range holds {
		if t.Hold.Seq != nil {
			if cerr != nil {
				p.current = t.Hold.Redemption // only the count can tell: the next 0x67 or 0x68
			}
			continue
		}
		a, err := p.settleByStatus(ctx, t, r, digits)
		if err != nil {
			return err
		}
		answered = answered || a
	}
	if r.Status == sas.RedeemWaiting71 && !answered {
		// A ticket waits that no hold answers (a copy of one credited
		// while the service was away): its own presentation.
		return p.ticketIn(ctx)
	}
	return nil
}

// settleByStatus settles a hold recorded without a count by the status
// the cabinet reports (r, for digits); true when it answered the ticket
// waiting.
func (p *poller) settleByStatus(ctx context.Context, t Ticket, r sas.RedeemReply, digits string) (bool, error) {
	id := t.Hold.Redemption
	switch {
	case digits == t.Digits && r.Status == sas.RedeemWaiting71:
		// The cabinet still waits for the answer the service gave before
		// it stopped: give it again.
		a, err := p.sv.st.Redemption(ctx, id)
		if err != nil {
			return false, err
		}
		return true, p.answer(ctx, a, r.Data)
	case digits == t.Digits && !r.Status.Final():
		p.current = id
		return false, nil
	case digits == t.Digits:
		return false, p.final(ctx, id, r.Status)
	}
	// The cabinet's last redemption is of another ticket, or it has none:
	// it never credited this one.
	_, err := p.sv.st.Release(ctx, id, p.sv.cfg.Now(), fmt.Sprintf("cabinet reports %v for another ticket or none", r.Status))
	return false, err
}

// redeemedCount reads the cabinet's count of tickets redeemed, cashable
// and restricted (0x50 types 80 and 81): the identity of a presentation
// (Request.Seq).
func (p *poller) redeemedCount() (uint64, error) {
	var n uint64
	for _, t := range []sas.ValidationType{sas.ValCashableRedeemed, sas.ValRestrictedRedeemed} {
		m, err := p.cab.Client.ValidationMeters(t)
		if err != nil {
			return 0, fmt.Errorf("0x50 %v: %w", t, err)
		}
		if m.Type != t {
			return 0, fmt.Errorf("0x50 %v answered for %v", t, m.Type)
		}
		n += m.Count
	}
	return n, nil
}

// resolve ends this cabinet's holds that carry the count they were
// authorised at, by its count n now. Each authorisation here resolves
// them first, so at most one is open, and nothing but it could have been
// credited since: a count that moved says the cabinet credited it
// (committed); one that did not, that it credited nothing, so a hold of a
// ticket other than escrow (the one in the validator now, "" none) is
// released, its presentation over. The hold of escrow, not credited, is
// returned (its ID): the cabinet may credit it, once. So are the holds
// as they were before: those with a count are now ended but reuse's,
// those without one are still held.
//
// Holds the poller knows (known) are not read: their end is written on
// the condition that the cabinet holds nothing else, and a refusal (or a
// hold no longer as known) reads them after all.
func (p *poller) resolve(ctx context.Context, n uint64, escrow string) (reuse string, holds []Ticket, err error) {
	if p.known.ok {
		reuse, holds, err = p.resolveKnown(ctx, n, escrow)
		if err == nil || !notAsKnown(err) {
			if err != nil {
				p.known.ok = false
			}
			return reuse, holds, err
		}
		p.sv.cfg.Log("%s: holds not as known (%v): reading them", p.cab.Name, err)
	}
	p.known = knownHolds{}
	holds, err = p.sv.st.Holds(ctx, p.cab.Name)
	if err != nil {
		return "", nil, err
	}
	known := knownHolds{ok: true}
	for _, h := range holds {
		if h.Hold.Seq == nil {
			known.ok = false
			continue
		}
		id := h.Hold.Redemption
		if n == *h.Hold.Seq && h.Digits == escrow {
			reuse = id
			known.id, known.digits, known.seq = id, h.Digits, n
			continue
		}
		if err := p.end(ctx, id, h.Digits, n, *h.Hold.Seq, ""); err != nil {
			return "", nil, err
		}
	}
	p.known = known
	return reuse, holds, nil
}

// notAsKnown reports whether err, from a step on the holds a poller
// knows, says that they are not as it knows them (another hold there, its
// hold ended or changed by another system, its redemption not found), so
// that reading them decides.
func notAsKnown(err error) bool {
	return errors.Is(err, errHoldsMoved) || errors.Is(err, ErrConflict) || errors.Is(err, ErrCorrupt) || errors.Is(err, ErrNotFound)
}

// resolveKnown is resolve on the hold the poller knows, unread: its
// commit or release is conditional on the cabinet holding nothing else.
func (p *poller) resolveKnown(ctx context.Context, n uint64, escrow string) (string, []Ticket, error) {
	k := p.known
	if k.id == "" {
		return "", nil, nil
	}
	seq := k.seq
	holds := []Ticket{{Digits: k.digits, State: Pending, Hold: &Hold{Cabinet: p.cab.Name, Redemption: k.id, Seq: &seq}}}
	if n == k.seq && k.digits == escrow {
		return k.id, holds, nil
	}
	if err := p.end(ctx, k.id, k.digits, n, k.seq, p.cab.Name); err != nil {
		return "", nil, err
	}
	p.known.id = ""
	return "", holds, nil
}

// end commits (the count n moved from seq) or releases hold id of ticket
// digits; alone, if set, is the cabinet that must hold nothing else.
func (p *poller) end(ctx context.Context, id, digits string, n, seq uint64, alone string) error {
	phase, reason := p.endOf(n, seq)
	if _, err := p.sv.st.finish(ctx, id, p.sv.cfg.Now(), phase, reason, alone); err != nil {
		return err
	}
	p.ended(id, digits, n, seq, phase)
	return nil
}

// endOf is the end of a hold authorised at the count seq, the count being
// n now: credited if it moved, else not.
func (p *poller) endOf(n, seq uint64) (Phase, string) {
	if n != seq {
		return Committed, ""
	}
	return Released, fmt.Sprintf("the cabinet's tickets redeemed are still %d: it did not credit it", n)
}

// ended notes the end of hold id.
func (p *poller) ended(id, digits string, n, seq uint64, phase Phase) {
	if phase == Committed {
		p.sv.cfg.Log("%s: ticket %s credited: tickets redeemed %d, %d when authorised", p.cab.Name, digits, n, seq)
	}
	if p.current == id {
		p.current = ""
	}
}

// exception handles one exception the cabinet reported.
func (p *poller) exception(ctx context.Context, e sas.Exception) error {
	switch e {
	case sas.ExcCashOutTicketPrinted, sas.ExcHandpayValidated:
		if p.cab.Style == tito.StyleSecureEnhanced {
			return p.records(ctx)
		}
	case sas.ExcSystemValidationReq:
		return p.systemValidation(ctx)
	case sas.ExcTicketInserted:
		return p.ticketIn(ctx)
	case sas.ExcTicketTransferDone:
		return p.transferDone(ctx)
	}
	return nil
}

// records records every validation the cabinet has not reported yet. Each
// is looked at (4D FF) and recorded before it is read (4D 00, which marks
// it read at the cabinet): a link or etcd failure in between leaves it
// unread, for the next 3D, 3E or start. A record the store refuses for
// good (another ticket recorded under its number) is logged and read,
// or it would hold back every later one.
func (p *poller) records(ctx context.Context) error {
	for range sas.ValidationMaxIndex {
		r, err := p.cab.Client.EnhancedValidation(sas.ValidationLookAhead)
		if err != nil || r.IsZero() {
			return err
		}
		if err := p.record(ctx, r); err != nil {
			if !errors.Is(err, ErrConflict) && !errors.Is(err, ErrInvalid) {
				return err
			}
			p.sv.cfg.Log("%s: 4D record %+v not recorded: %v", p.cab.Name, r, err)
		}
		read, err := p.cab.Client.EnhancedValidation(sas.ValidationCurrent)
		if err != nil {
			return err
		}
		if !read.IsZero() && (read.Number != r.Number || read.SystemID != r.SystemID) {
			// Another record became current in between: it is recorded
			// on the next round (Issue is a replay for the same ticket).
			p.sv.cfg.Log("%s: 4D 00 read %016d after looking at %016d", p.cab.Name, read.Number, r.Number)
			if err := p.record(ctx, read); err != nil {
				return err
			}
		}
	}
	return nil
}

// recordKinds are the validations recorded, as what.
var recordKinds = map[sas.ValidationType]tito.Kind{
	sas.ValCashableTicket:          tito.KindCashout,
	sas.ValHandpayCancelledReceipt: tito.KindHandpayReceipt,
	sas.ValHandpayJackpotReceipt:   tito.KindHandpayReceipt,
	sas.ValHandpayCancelled:        tito.KindHandpay,
	sas.ValHandpayJackpot:          tito.KindHandpay,
	sas.ValRestrictedTicket:        tito.KindRestricted,
}

func (p *poller) record(ctx context.Context, r sas.ValidationRecord) error {
	kind, ok := recordKinds[r.Type]
	if !ok {
		return nil // redemptions, and AFT tickets, which no cabinet here prints
	}
	v, err := tito.ParseDigits(fmt.Sprintf("%02d%016d", r.SystemID, r.Number))
	if err != nil {
		return fmt.Errorf("4D record %d: %w", r.Index, err)
	}
	expiry := p.sv.cfg.Expiry
	if r.Expiration >= 1 && r.Expiration <= tito.ExpiryNever {
		expiry = uint16(r.Expiration)
	}
	number := r.TicketNumber
	if number > tito.MaxTicketNumber {
		number = 0
	}
	tk := tito.Ticket{Casino: p.sv.cfg.Casino, Kind: kind, Cents: int64(r.Cents), Validation: v,
		Issued: r.At, Machine: p.cab.Name, Number: number, Expiry: expiry}
	if kind == tito.KindRestricted {
		// Its pool, and the date its credits expire when it has one
		// (MMDDYYYY, where a cashable ticket has days).
		tk.Pool = r.PoolID
		if d, ok := aft.Expiration(r.Expiration).Date(); ok {
			tk.Until, tk.Expiry = d, 0
		}
	}
	// The system is the witness of the cabinet's ticket numbers: one that
	// goes back is an alarm in its records. The number is noted before the
	// ticket is recorded, so a service stopped between the two notes it
	// when it reads the record again (a replayed Issue), and a ticket seen
	// recorded has its number noted. A cabinet restored from a copy prints
	// its old validation numbers again, which Issue refuses as another
	// ticket under a recorded number (ErrConflict): their number is
	// compared all the same.
	alarm, err := p.sv.st.NoteTicket(ctx, p.cab.Name, number, v.Digits(), p.sv.cfg.Now())
	if alarm != nil {
		p.sv.cfg.Log("%s: %s", p.cab.Name, alarm)
	}
	if err != nil {
		return err
	}
	_, replayed, err := p.sv.st.Issue(ctx, tk)
	if err == nil && !replayed {
		p.sv.cfg.Log("%s: ticket %s %d cents recorded", p.cab.Name, v, r.Cents)
	}
	return err
}

// systemValidation answers a cabinet that asks for a number.
func (p *poller) systemValidation(ctx context.Context) error {
	pc, err := p.cab.Client.PendingCashout()
	if err != nil || pc.Type == sas.CashoutNotWaiting {
		return err
	}
	if lim := p.sv.cfg.TicketLimit; pc.Type != sas.CashoutCashable || lim > 0 && int64(pc.Cents) > lim {
		// Restricted tickets are not kept here, and the casino may limit
		// a ticket's amount: deny (the cabinet pays it by hand).
		p.sv.cfg.Log("%s: 58 denied: cash-out type %02X of %d cents (limit %d)", p.cab.Name, pc.Type, pc.Cents, lim)
		_, err := p.cab.Client.ReceiveValidationNumber(sas.ValidationNumber{})
		return err
	}
	now := p.sv.cfg.Now()
	var v tito.Validation
	for {
		if v, err = p.sv.systemNumber(); err != nil {
			return err
		}
		tk := tito.Ticket{Casino: p.sv.cfg.Casino, Kind: tito.KindCashout, Cents: int64(pc.Cents), Validation: v,
			Issued: now, Machine: p.cab.Name, Expiry: p.sv.cfg.Expiry}
		_, _, err = p.sv.st.Issue(ctx, tk)
		if !errors.Is(err, ErrConflict) {
			break // a number already taken: make another
		}
	}
	if err != nil {
		return err
	}
	status, err := p.cab.Client.ReceiveValidationNumber(sas.ValidationNumber{SystemID: v.SystemID, Number: v.Uint()})
	if err != nil {
		return err // the number stays recorded: if printed, it is valid
	}
	if status != sas.ReceiveValidationAck {
		_, err = p.sv.st.Void(ctx, v.Digits(), p.cab.Name, fmt.Sprintf("not printed: 58 status %02X", status), p.sv.cfg.Now())
	}
	return err
}

// systemNumber makes a 16-digit number from the service's generator.
func (sv *Service) systemNumber() (tito.Validation, error) {
	var b [8]byte
	for {
		if _, err := io.ReadFull(sv.cfg.Rand, b[:]); err != nil {
			return tito.Validation{}, fmt.Errorf("ticketsys: system number: %w", err)
		}
		n := binary.LittleEndian.Uint64(b[:])
		const ten16 = uint64(1e16)
		const limit = ten16 * (^uint64(0) / ten16) // reject above it: no modulo bias
		if n >= limit {
			continue
		}
		return tito.System(sv.cfg.SystemID, n%1e16)
	}
}

// ticketIn answers a cabinet with a ticket in escrow. The authorisation
// belongs to this presentation: it carries the cabinet's count of tickets
// redeemed (Request.Seq). A hold of this ticket at this cabinet is first
// resolved by the count: credited, the ticket is redeemed and this
// presentation (a copy) is refused; not credited, its authorisation is
// given to this presentation, which can credit it once. A hold the count
// cannot resolve (none kept, or unreadable) refuses the presentation
// (pending): the cabinet may have credited it.
func (p *poller) ticketIn(ctx context.Context) error {
	tv, err := p.cab.Client.TicketValidationData()
	if err != nil || tv.Status != sas.TicketInEscrow {
		return err
	}
	now := p.sv.cfg.Now()
	digits, err := sas.ValidationDigits(tv.Data)
	if tv.ParsingCode != sas.ParsingBCD || err != nil {
		return p.answer(ctx, Redemption{Code: sas.TransferNotValid}, tv.Data)
	}
	var seq *uint64
	n, cerr := p.redeemedCount()
	switch {
	case errors.Is(cerr, host.ErrPort):
		return cerr
	case cerr != nil:
		p.sv.cfg.Log("%s: 50 tickets redeemed: %v: ticket %s authorised without the count", p.cab.Name, cerr, digits)
		p.known = knownHolds{}
	default:
		seq = &n
	}
	a, err := p.authorize(ctx, digits, seq, int64(tv.Cents), now)
	if errors.Is(err, errHoldsMoved) {
		// Another hold appeared here: read them all, and decide again.
		p.sv.cfg.Log("%s: holds not as known (%v): reading them", p.cab.Name, err)
		p.known = knownHolds{}
		a, err = p.authorize(ctx, digits, seq, int64(tv.Cents), now)
	}
	if err != nil {
		p.known = knownHolds{}
		return err
	}
	switch {
	case a.Phase != Authorised:
	case a.ID == p.known.id:
		// The same authorisation given again.
	case p.known.ok && p.known.id == "" && a.Seq != nil:
		p.known.id, p.known.digits, p.known.seq = a.ID, digits, *a.Seq
	default:
		p.known = knownHolds{}
	}
	return p.answer(ctx, a, tv.Data)
}

// authorize resolves the cabinet's holds by its count (seq; nil: not
// known) and authorises this presentation of digits: on the condition that
// the cabinet holds nothing else, when the poller knows its holds.
func (p *poller) authorize(ctx context.Context, digits string, seq *uint64, cents int64, now time.Time) (Redemption, error) {
	var holds []Ticket // the cabinet's, when resolved
	id := ""
	p.refused = ""
	if k := p.known; seq != nil && k.ok && k.id != "" && (*seq != k.seq || k.digits != digits) {
		// The hold before is ended by the count and this presentation
		// authorised in one round trip (a stack of tickets).
		req := Request{Digits: digits, By: p.cab.Name, ID: p.newID(digits, now), Cents: cents, At: now, Seq: seq}
		phase, reason := p.endOf(*seq, k.seq)
		a, ended, err := p.sv.st.handOver(ctx, k.id, p.sv.cfg.Now(), phase, reason, req)
		if ended {
			p.ended(k.id, k.digits, *seq, k.seq, phase)
			p.known.id = ""
			return a, err
		}
		if !notAsKnown(err) {
			p.known = knownHolds{}
			return Redemption{}, err
		}
		p.sv.cfg.Log("%s: holds not as known (%v): reading them", p.cab.Name, err)
		p.known = knownHolds{}
	}
	if seq != nil {
		var err error
		if id, holds, err = p.resolve(ctx, *seq, digits); err != nil {
			return Redemption{}, err
		}
	}
	if id == "" {
		id = p.newID(digits, now)
		// Held here with its verdict pending: refused. After resolve,
		// the only tickets still held here are those held without a
		// count (resolve ended the others, and only this poller holds a
		// ticket for this cabinet): its holds tell, without a read of
		// the ticket.
		if seq != nil {
			if slices.ContainsFunc(holds, func(h Ticket) bool { return h.Digits == digits && h.Hold.Seq == nil }) {
				p.refused = digits
			}
		} else if t, err := p.sv.st.Get(ctx, digits); err == nil && t.State == Pending && t.Hold.Cabinet == p.cab.Name {
			p.refused = digits
		}
	}
	return p.sv.st.redeem(ctx, Request{Digits: digits, By: p.cab.Name, ID: id, Cents: cents, At: now, Seq: seq}, false, p.known.ok)
}

// newID names a new presentation of digits at the cabinet.
func (p *poller) newID(digits string, now time.Time) string {
	return p.cab.Name + ":" + digits + ":" + strconv.FormatInt(now.UnixNano(), 10)
}

// answer sends the verdict with 0x71 and acts on the machine's status.
func (p *poller) answer(ctx context.Context, a Redemption, data []byte) error {
	if a.Phase == Authorised {
		p.current = a.ID
	}
	req := sas.RedeemTicket{Code: a.Code, Cents: uint64(a.Cents), ParsingCode: sas.ParsingBCD, Data: data}
	if a.Code == sas.TransferRestricted {
		req.Restricted, req.Expiration, req.PoolID = true, a.Until, a.Pool
	}
	r, err := p.cab.Client.RedeemTicket(req)
	if err != nil || a.Phase != Authorised {
		return err
	}
	if r.Status == sas.RedeemNotThisCycle {
		// The machine already ended this cycle (an answer repeated after a
		// restart of the service): its status says how.
		if r, err = p.cab.Client.RedeemTicket(sas.RedeemTicket{Code: sas.TransferStatusRequest}); err != nil {
			return err
		}
		if d, _ := sas.ValidationDigits(r.Data); d != a.Digits {
			return nil
		}
	}
	if !r.Status.Final() {
		return nil // pending: 0x68 will follow
	}
	return p.final(ctx, a.ID, r.Status)
}

// transferDone reads the end of a redemption and records it: by the
// cabinet's count of tickets redeemed for a hold that kept its count
// (resolve), by the status for one that did not.
func (p *poller) transferDone(ctx context.Context) error {
	r, err := p.cab.Client.RedeemTicket(sas.RedeemTicket{Code: sas.TransferStatusRequest})
	if err != nil || !r.Status.Final() {
		return err
	}
	digits, derr := sas.ValidationDigits(r.Data)
	if derr == nil && digits == p.refused && !r.Status.Redeemed() {
		p.refused = "" // the end of the presentation refused, not of the hold
		return nil
	}
	n, cerr := p.redeemedCount()
	if errors.Is(cerr, host.ErrPort) {
		return cerr
	}
	var holds []Ticket
	if cerr == nil {
		var err error
		if _, holds, err = p.resolve(ctx, n, ""); err != nil {
			return err
		}
	}
	id := p.current
	if id == "" {
		if derr != nil {
			return nil
		}
		if slices.ContainsFunc(holds, func(h Ticket) bool { return h.Digits == digits && h.Hold.Seq != nil }) {
			// resolve just ended its hold here (committed or released):
			// nothing of it is held now.
			return nil
		}
		t, err := p.sv.st.Get(ctx, digits)
		if err != nil || t.State != Pending || t.Hold.Cabinet != p.cab.Name {
			return nil // a refused ticket: nothing was held
		}
		id = t.Hold.Redemption
	}
	red, err := p.sv.st.Redemption(ctx, id)
	switch {
	case err != nil:
		return err
	case red.Phase != Authorised:
		if p.current == id {
			p.current = ""
		}
		return nil // resolved
	case red.Seq != nil:
		return cerr // only the count can tell
	}
	return p.final(ctx, id, r.Status)
}

// final commits or releases redemption id after the machine's status.
func (p *poller) final(ctx context.Context, id string, st sas.RedemptionStatus) error {
	var err error
	if st.Redeemed() {
		_, err = p.sv.st.Commit(ctx, id, p.sv.cfg.Now())
	} else {
		_, err = p.sv.st.Release(ctx, id, p.sv.cfg.Now(), fmt.Sprintf("machine status %02X %v", byte(st), st))
	}
	switch {
	case err != nil:
		p.known = knownHolds{}
	case p.known.id == id:
		p.known.id = ""
	}
	if err == nil && p.current == id {
		p.current = ""
	}
	return err
}

// cabinetConfig is what etcd keeps of a cabinet: its secure-enhanced
// validation ID, the secret of its numbers.
type cabinetConfig struct {
	ValidationID uint32 `json:"validation_id"`
}

// validationKey is where the cabinet given validation ID id is named.
func validationKey(prefix string, id uint32) string { return fmt.Sprintf("%sv/%06X", prefix, id) }

// ValidationID returns cabinet's secure-enhanced validation ID, making
// one (random, 1–0xFFFFFF) the first time.
func (sv *Service) ValidationID(ctx context.Context, cabinet string) (uint32, error) {
	if err := checkName("cabinet", cabinet); err != nil {
		return 0, err
	}
	key := sv.st.prefix + "c/" + cabinet
	var p etcdretry.Pause
	for {
		resp, err := sv.st.cli.Get(ctx, key)
		if err == nil && len(resp.Kvs) == 1 {
			var c cabinetConfig
			if err := decode(key, resp.Kvs[0].Value, &c); err != nil {
				return 0, err
			}
			// An ID given before IDs were reserved is reserved now, for
			// the first of its cabinets to start; another that was given
			// it too gives it up and draws a new one (its printed
			// tickets are recorded by their numbers, and it prints the
			// next ones under the new ID).
			vkey := validationKey(sv.st.prefix, c.ValidationID)
			var tr *clientv3.TxnResponse
			tr, err = sv.st.cli.Txn(ctx).If(clientv3.Compare(clientv3.CreateRevision(vkey), "=", 0)).
				Then(clientv3.OpPut(vkey, cabinet)).Else(clientv3.OpGet(vkey)).Commit()
			if err == nil {
				if tr.Succeeded {
					return c.ValidationID, nil
				}
				if kvs := tr.Responses[0].GetResponseRange().Kvs; len(kvs) == 1 && string(kvs[0].Value) == cabinet {
					return c.ValidationID, nil
				}
				sv.cfg.Log("%s: validation ID %06X is another cabinet's too: drawing a new one", cabinet, c.ValidationID)
				_, err = sv.st.cli.Txn(ctx).If(clientv3.Compare(clientv3.ModRevision(key), "=", resp.Kvs[0].ModRevision)).
					Then(clientv3.OpDelete(key)).Commit()
				if err == nil {
					continue
				}
			}
		} else if err == nil {
			var b [3]byte
			if _, err := io.ReadFull(sv.cfg.Rand, b[:]); err != nil {
				return 0, fmt.Errorf("ticketsys: validation ID: %w", err)
			}
			id := max(uint32(b[0])|uint32(b[1])<<8|uint32(b[2])<<16, 1)
			v, _ := json.Marshal(cabinetConfig{ValidationID: id})
			// Create only: two services racing keep the first ID. And an
			// ID no other cabinet was given: two cabinets with one ID
			// print the same numbers (both start at sequence 0), and the
			// second's tickets are refused as another's. Drawn at random
			// from 16.7 million, two of 1,000 cabinets share one in 3%
			// of floors (issue 26: the likely cause of a ticket of the
			// casino floor's benchmark never recorded). A taken ID
			// leaves key absent: the next turn draws again.
			vkey := validationKey(sv.st.prefix, id)
			_, err = sv.st.cli.Txn(ctx).If(clientv3.Compare(clientv3.CreateRevision(key), "=", 0),
				clientv3.Compare(clientv3.CreateRevision(vkey), "=", 0)).
				Then(clientv3.OpPut(key, string(v)), clientv3.OpPut(vkey, cabinet)).Commit()
			if err == nil {
				continue // read what won
			}
		}
		if !etcdretry.Transient(ctx, sv.st.cli, err) {
			return 0, fmt.Errorf("ticketsys: validation ID of %s: %w", cabinet, err)
		}
		if werr := p.Wait(ctx); werr != nil {
			return 0, fmt.Errorf("ticketsys: validation ID of %s: %w (last etcd error: %v)", cabinet, werr, err)
		}
	}
}
