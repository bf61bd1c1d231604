package ticketsys

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"sort"
	"strings"
	"time"
	"unicode"

	clientv3 "go.etcd.io/etcd/client/v3"

	"github.com/openegm/cabinet/aft"
	"github.com/openegm/cabinet/internal/etcdretry"
	"github.com/openegm/cabinet/sas"
	"github.com/openegm/cabinet/tito"
)

// Errors, wrapped with what was refused and where. A redemption that the
// system refuses is not an error: it is an answer (Redemption.Code).
var (
	// ErrInvalid: an argument is unusable (empty name, bad digits, …).
	ErrInvalid = errors.New("invalid")
	// ErrNotFound: no such ticket or redemption.
	ErrNotFound = errors.New("not found")
	// ErrConflict: a ticket recorded with other content, a redemption ID
	// used for another ticket, or a step that contradicts the recorded one
	// (committing a released hold, releasing a committed one).
	ErrConflict = errors.New("conflicts with what is recorded")
	// ErrState: the ticket is not in a state that allows the step (void
	// of a redeemed ticket).
	ErrState = errors.New("not allowed in the ticket's state")
	// ErrOutcomeUnknown: a write was sent and etcd's answer was lost; it
	// may or may not have been applied. Repeat the same call (same
	// redemption ID): the recorded outcome is returned.
	ErrOutcomeUnknown = errors.New("outcome unknown: repeat the same request")
	// ErrCorrupt: a stored record does not decode.
	ErrCorrupt = errors.New("corrupt record")
)

// State is where a ticket is in its life.
type State string

const (
	Issued   State = "issued"   // printed, not redeemed
	Pending  State = "pending"  // authorised at a cabinet, waiting for its credit
	Redeemed State = "redeemed" // credited at a cabinet or paid by the cashier
	Voided   State = "voided"   // cancelled by the casino
)

// Ticket is a printed ticket as the system records it.
type Ticket struct {
	Digits  string     `json:"digits"`
	Style   tito.Style `json:"style"`
	Kind    tito.Kind  `json:"kind"`
	Cents   int64      `json:"cents"`
	Machine string     `json:"machine"`
	Number  uint16     `json:"number"`
	Issued  int64      `json:"issued"`            // unix nanoseconds
	Expires int64      `json:"expires,omitempty"` // unix nanoseconds; 0 never
	// Pool is a restricted promotional ticket's pool (SAS pool ID), and
	// Until the date its credits expire (MMDDYYYY; 0 never, or the
	// ticket's days): what the cabinet that redeems it is told.
	Pool  uint16 `json:"pool,omitempty"`
	Until uint32 `json:"until,omitempty"`
	State State  `json:"state"`
	// Hold is the authorisation of a pending ticket.
	Hold *Hold `json:"hold,omitempty"`
	// Final says who redeemed or voided the ticket, and when.
	Final *Final `json:"final,omitempty"`
	// Released counts the holds released (authorisations the machine
	// did not credit).
	Released int     `json:"released,omitempty"`
	History  []Event `json:"history"`
	Revision int64   `json:"-"` // etcd mod revision of the record
}

// Hold is an authorisation given to a cabinet.
type Hold struct {
	Cabinet    string `json:"cabinet"`
	Redemption string `json:"redemption"`
	At         int64  `json:"at"`
	// Seq is the cabinet's count of tickets redeemed when it was
	// authorised (Request.Seq; nil: not known).
	Seq *uint64 `json:"seq,omitempty"`
}

// Final is the end of a ticket: redeemed or voided.
type Final struct {
	By         string `json:"by"`
	Redemption string `json:"redemption,omitempty"`
	Reason     string `json:"reason,omitempty"`
	At         int64  `json:"at"`
}

// Event is one step of a ticket's history: the audit trail.
type Event struct {
	At         int64  `json:"at"`
	What       string `json:"what"` // issued, authorised, redeemed, released, voided
	By         string `json:"by"`
	Redemption string `json:"redemption,omitempty"`
	Detail     string `json:"detail,omitempty"`
}

// Phase is where a redemption is.
type Phase string

const (
	Refused    Phase = "refused"    // the system refused the ticket (Code 80+)
	Authorised Phase = "authorised" // the ticket is held for the cabinet
	Committed  Phase = "committed"  // the ticket is redeemed by this redemption
	Released   Phase = "released"   // the cabinet did not credit it; the hold is gone
)

// Redemption is the answer the system gave to one redemption ID.
type Redemption struct {
	ID     string `json:"id"`
	Digits string `json:"digits"`
	By     string `json:"by"`
	// Code is the SAS transfer code the answer carries to the machine:
	// 00 valid cashable, 01 valid restricted promotional (with the
	// ticket's Pool and Until), 80+ why not.
	Code  sas.TransferCode `json:"code"`
	Pool  uint16           `json:"pool,omitempty"`
	Until uint32           `json:"until,omitempty"`
	// Cents is the amount authorised (the ticket's), 0 when refused.
	Cents  int64  `json:"cents"`
	Phase  Phase  `json:"phase"`
	At     int64  `json:"at"`               // when it was asked
	Done   int64  `json:"done,omitempty"`   // when committed or released
	Detail string `json:"detail,omitempty"` // why refused or released
	// Seq is the redeeming cabinet's count of tickets redeemed when it
	// asked (Request.Seq; nil: not known).
	Seq *uint64 `json:"seq,omitempty"`
	// Replayed: the answer was recorded before this call (a repeat of
	// the same ID); nothing changed.
	Replayed bool `json:"-"`
}

// Request asks to redeem a ticket.
type Request struct {
	// Digits is what the validator or the cashier read (dashes allowed).
	Digits string
	// By is the cabinet, or the cashier ("cashier:<name>"), redeeming.
	By string
	// ID identifies this redemption: a repeat with the same ID gets the
	// same answer. Unique per redemption attempt.
	ID string
	// Cents is the amount the validator read from the ticket, 0 if it
	// could not: a different amount is refused (SAS 87).
	Cents int64
	At    time.Time
	// Seq, for a cabinet, is its count of tickets redeemed (SAS 0x50
	// types 80 and 81) as it presents this ticket: the identity of the
	// presentation. Nothing else can be credited there while this ticket
	// waits for its answer, so the count moving past Seq says the cabinet
	// credited this redemption, and the count still at Seq that it did
	// not, whatever its last status reports (the service, Resolve). Nil
	// when not known (the cashier; a cabinet that does not report it).
	Seq *uint64
}

// Store is access to one casino's ticket system, safe for concurrent use.
// Its only state between calls is a guess of what etcd holds for the keys
// it last wrote or read (guesses), which lets a step write at once,
// conditional on the keys' revisions being those guessed, and read (in
// the same round trip) only when they are not: a redemption at a cabinet
// costs two round trips (authorise, commit), and the guess can never
// decide anything etcd does not still hold. Concurrent steps share their
// round trips (batch): one etcd transaction carries many, each with its
// own comparisons.
type Store struct {
	cli     *clientv3.Client
	prefix  string
	maxAuto int64
	guesses guessCache
	batch   batcher
	// beforeWrite, if set (tests), runs before each write transaction.
	beforeWrite func()
}

// Option configures a Store.
type Option func(*Store)

// AutoRedeemLimit refuses redemptions at cabinets above cents (SAS 88:
// "amount exceeds auto redemption limit"); the cashier pays them. 0, the
// default, has no limit.
func AutoRedeemLimit(cents int64) Option { return func(s *Store) { s.maxAuto = cents } }

// New returns the Store of the system whose keys start with prefix (it
// must end with "/").
func New(cli *clientv3.Client, prefix string, opts ...Option) (*Store, error) {
	if cli == nil {
		return nil, fmt.Errorf("ticketsys: %w: nil etcd client", ErrInvalid)
	}
	if !strings.HasSuffix(prefix, "/") {
		return nil, fmt.Errorf("ticketsys: %w: key prefix %q must end in \"/\"", ErrInvalid, prefix)
	}
	s := &Store{cli: cli, prefix: prefix, batch: batcher{kv: cli}}
	for _, o := range opts {
		o(s)
	}
	return s, nil
}

func (s *Store) ticketKey(digits string) string { return s.prefix + "t/" + digits }
func (s *Store) redemptionKey(id string) string { return s.prefix + "r/" + id }

// holdKey indexes the holds of a cabinet, so that a service starting
// reads its cabinets' holds, not every ticket of the casino.
func (s *Store) holdKey(cabinet, id string) string { return s.prefix + "h/" + cabinet + "/" + id }

// CashierPrefix starts the By of a cashier.
const CashierPrefix = "cashier:"

// maxName bounds names and IDs, which are key segments.
const maxName = 128

func checkName(what, v string) error {
	if v == "" || len(v) > maxName {
		return fmt.Errorf("%w: %s %q: want 1-%d bytes", ErrInvalid, what, v, maxName)
	}
	for _, r := range v {
		if r == '/' || !unicode.IsPrint(r) || unicode.IsSpace(r) {
			return fmt.Errorf("%w: %s %q: no '/', spaces or unprintable characters", ErrInvalid, what, v)
		}
	}
	return nil
}

// normalise reads digits as a validation number and returns its barcode
// digits. A number that is not one (bad check digit) is ErrInvalid.
func normalise(digits string) (string, error) {
	v, err := tito.ParseDigits(digits)
	if err != nil {
		return "", fmt.Errorf("%w: %w", ErrInvalid, err)
	}
	return v.Digits(), nil
}

// errHoldsMoved: a step conditional on a cabinet's holds (alone) found
// another hold there, and wrote nothing. The caller reads the holds.
var errHoldsMoved = errors.New("the cabinet's holds are not those known")

// A step taken alone at a cabinet is conditional, in its own
// transaction, on the cabinet holding no ticket but the one decided on
// (if that one is held there): a service that knows its cabinet's holds
// (it wrote them last) writes on that knowledge instead of reading them
// first, and etcd refuses the write if another hold appeared or stayed
// (errHoldsMoved). One comparison says it: every key of the cabinet's
// hold index was created with the hold of the ticket decided on, at the
// ticket's revision (a held ticket is written only as its hold begins and
// ends), or, when the ticket is not held there, none is there at all.
func (s *Store) aloneCmp(cabinet string, t *Ticket, trev int64) clientv3.Cmp {
	c := int64(0)
	if t != nil && t.State == Pending && t.Hold != nil && t.Hold.Cabinet == cabinet {
		c = trev
	}
	// Absent keys compare as created at revision 0: an empty index
	// passes when c is 0.
	return clientv3.Compare(clientv3.CreateRevision(s.prefix+"h/"+cabinet+"/"), "=", c).WithPrefix()
}

// change is what a decision writes: nil fields stay as they are.
type change struct {
	ticket *Ticket
	red    *Redemption
	// index is written with them, guarded by the same comparisons.
	index []clientv3.Op
}

// ops appends the writes of ch, of the ticket at tkey and the redemption
// at rkey, to to.
func (ch change) ops(to []clientv3.Op, tkey, rkey string) []clientv3.Op {
	if ch.ticket != nil {
		b, _ := json.Marshal(ch.ticket)
		to = append(to, clientv3.OpPut(tkey, string(b)))
	}
	if ch.red != nil {
		b, _ := json.Marshal(ch.red)
		to = append(to, clientv3.OpPut(rkey, string(b)))
	}
	return append(to, ch.index...)
}

// apply lets decide compute a change from the ticket at tkey and the
// redemption at rkey ("" for none), and writes it if neither key changed
// since the state decide was given. That state is first this store's
// guess (what it last wrote or read; none: absent), so a redemption needs
// no read before its write: a guess no longer true loses the write's
// comparison, and the same round trip reads both keys at one revision to
// decide again. A decision that writes nothing on a guess is checked the
// same way, by comparing alone. Transient etcd errors are retried until
// ctx ends. A retry after a write whose outcome was lost sees the write if
// it was applied, and decide, finding its redemption recorded, changes
// nothing.
func (s *Store) apply(ctx context.Context, tkey, rkey, alone string, decide func(t *Ticket, r *Redemption) (change, error)) error {
	keys := []string{tkey}
	if rkey != "" {
		keys = append(keys, rkey)
	}
	var p etcdretry.Pause
	sent := false
	fail := func(err error) error {
		if sent {
			return fmt.Errorf("%w: %w", ErrOutcomeUnknown, err)
		}
		return err
	}
	revs := make([]int64, len(keys))
	t, trev := s.guesses.ticket(tkey)
	revs[0] = trev
	if t != nil {
		t.Revision = trev
	}
	var r *Redemption
	if rkey != "" {
		r, revs[1] = s.guesses.redemption(rkey)
	}
	read := false // t and r were read from etcd in this call
	lost := 0
	var compared []int64 // the revisions the last transaction compared
	for {
		ch, err := decide(t, r)
		write := err == nil && (ch.ticket != nil || ch.red != nil)
		if !write && read {
			return err
		}
		cmps := make([]clientv3.Cmp, len(keys), len(keys)+1)
		gets := make([]clientv3.Op, len(keys))
		for i, k := range keys {
			cmps[i] = clientv3.Compare(clientv3.ModRevision(k), "=", revs[i])
			gets[i] = clientv3.OpGet(k)
		}
		if alone != "" {
			cmps = append(cmps, s.aloneCmp(alone, t, revs[0]))
		}
		compared = append(compared[:0], revs...)
		touched := keys
		var puts []clientv3.Op
		if write {
			puts = ch.ops(puts, tkey, rkey)
			touched = append([]string(nil), keys...)
			for _, op := range ch.index {
				touched = append(touched, string(op.KeyBytes()))
			}
			if s.beforeWrite != nil {
				s.beforeWrite()
			}
		}
		o, maybe := s.batch.do(ctx, &attempt{keys: touched, txn: clientv3.OpTxn(cmps, puts, gets)})
		if o.err != nil {
			sent = sent || write && maybe
			if !etcdretry.Transient(ctx, s.cli, o.err) {
				return fail(fmt.Errorf("write %s: %w", tkey, o.err))
			}
			if werr := p.Wait(ctx); werr != nil {
				return fail(fmt.Errorf("write %s: %w (last etcd error: %v)", tkey, werr, o.err))
			}
			// The guess stands; its comparison will tell what happened.
			read = false
			continue
		}
		if o.resp.Succeeded {
			if !write {
				return err
			}
			if ch.ticket != nil {
				ch.ticket.Revision = o.rev
				s.guesses.noteTicket(tkey, ch.ticket, o.rev)
			} else {
				s.guesses.noteTicket(tkey, t, revs[0])
			}
			if ch.red != nil {
				s.guesses.noteRedemption(rkey, ch.red, o.rev)
			}
			return nil
		}
		// Lost: decide again on what etcd holds, read in the same
		// transaction at one revision.
		t, r, read = nil, nil, true
		for i := range revs {
			revs[i] = 0
		}
		for i, rr := range o.resp.Responses {
			kvs := rr.GetResponseRange().GetKvs()
			if len(kvs) == 0 {
				continue
			}
			revs[i] = kvs[0].ModRevision
			if i == 0 {
				t = new(Ticket)
				if err := decode(tkey, kvs[0].Value, t); err != nil {
					return err
				}
				t.Revision = revs[i]
			} else {
				r = new(Redemption)
				if err := decode(rkey, kvs[0].Value, r); err != nil {
					return err
				}
			}
		}
		s.guesses.noteTicket(tkey, t, revs[0])
		if rkey != "" {
			s.guesses.noteRedemption(rkey, r, revs[1])
		}
		if alone != "" && slices.Equal(revs, compared) {
			// The keys were as compared: the holds were not.
			return fail(fmt.Errorf("%s at %s: %w", tkey, alone, errHoldsMoved))
		}
		if write {
			// A rival wrote first. With the state in hand another try
			// needs no read; only a ticket fought over again and again
			// waits, so that its rivals spread out.
			if lost++; lost > 2 {
				if werr := p.Wait(ctx); werr != nil {
					return fail(fmt.Errorf("lost the race for %s and %w", tkey, werr))
				}
			}
		}
	}
}

func decode(key string, data []byte, into any) error {
	d := json.NewDecoder(bytes.NewReader(data))
	d.DisallowUnknownFields()
	if err := d.Decode(into); err != nil {
		return fmt.Errorf("ticketsys: %w: key %q: %w", ErrCorrupt, key, err)
	}
	return nil
}

// clone copies a ticket so that decisions never change what was read.
func (t *Ticket) clone() *Ticket {
	c := *t
	c.History = append([]Event(nil), t.History...)
	if t.Hold != nil {
		h := *t.Hold
		c.Hold = &h
	}
	if t.Final != nil {
		f := *t.Final
		c.Final = &f
	}
	return &c
}

// Issue records a printed ticket. Recording the same ticket again is a
// replay (replayed true, nothing changes); another ticket with the same
// validation number is ErrConflict.
func (s *Store) Issue(ctx context.Context, tk tito.Ticket) (rec Ticket, replayed bool, err error) {
	if err := tk.Check(); err != nil {
		return Ticket{}, false, fmt.Errorf("ticketsys: issue: %w: %w", ErrInvalid, err)
	}
	want := Ticket{
		Digits: tk.Validation.Digits(), Style: tk.Validation.Style, Kind: tk.Kind, Cents: tk.Cents,
		Machine: tk.Machine, Number: tk.Number, Issued: tk.Issued.UnixNano(), State: Issued,
	}
	switch {
	case !tk.Until.IsZero():
		// Restricted credits last through their day.
		want.Until = uint32(aft.DateOf(tk.Until))
		want.Expires = tk.Until.AddDate(0, 0, 1).UnixNano()
	case tk.Expiry != tito.ExpiryNever:
		want.Expires = tk.Issued.AddDate(0, 0, int(tk.Expiry)).UnixNano()
	}
	if tk.Kind == tito.KindRestricted {
		want.Pool = tk.Pool
		if want.Until == 0 && want.Expires != 0 {
			// Printed in days: the machine that takes it gets the date.
			want.Until = uint32(aft.DateOf(time.Unix(0, want.Expires).In(tk.Issued.Location())))
		}
	}
	want.History = []Event{{At: want.Issued, What: "issued", By: tk.Machine,
		Detail: fmt.Sprintf("%s %d cents, ticket %04d", tk.Kind, tk.Cents, tk.Number)}}
	if tk.Kind == tito.KindHandpay {
		// Paid by the attendant at the machine and nothing printed:
		// recorded paid, so that nothing can pay it again.
		const why = "paid by an attendant at the machine, no receipt"
		want.State, want.Expires = Redeemed, 0
		want.Final = &Final{By: tk.Machine, Reason: why, At: want.Issued}
		want.History = append(want.History, Event{At: want.Issued, What: "redeemed", By: tk.Machine, Detail: why})
	}
	err = s.apply(ctx, s.ticketKey(want.Digits), "", "", func(t *Ticket, _ *Redemption) (change, error) {
		if t == nil {
			rec, replayed = want, false
			return change{ticket: &rec}, nil
		}
		if t.Cents != want.Cents || t.Machine != want.Machine || t.Issued != want.Issued || t.Number != want.Number || t.Kind != want.Kind ||
			t.Pool != want.Pool || t.Until != want.Until {
			return change{}, fmt.Errorf("ticketsys: issue %s: %w: recorded %d cents from %s at %s, now %d cents from %s at %s",
				want.Digits, ErrConflict, t.Cents, t.Machine, time.Unix(0, t.Issued).UTC().Format(time.RFC3339),
				want.Cents, want.Machine, tk.Issued.UTC().Format(time.RFC3339))
		}
		rec, replayed = *t, true
		return change{}, nil
	})
	return rec, replayed, err
}

// Authorize answers a cabinet that has a ticket in escrow: on success
// (Code 00) the ticket is held for it until Commit or Release. The same ID
// again returns the recorded answer.
func (s *Store) Authorize(ctx context.Context, req Request) (Redemption, error) {
	return s.redeem(ctx, req, false, false)
}

// Redeem is the cashier's redemption: the ticket is paid at once.
func (s *Store) Redeem(ctx context.Context, req Request) (Redemption, error) {
	return s.redeem(ctx, req, true, false)
}

// redeem, alone, authorises only while req.By holds no other ticket
// (aloneCmp).
func (s *Store) redeem(ctx context.Context, req Request, cashier, alone bool) (Redemption, error) {
	var out Redemption
	st, err := s.redeemStep(req, cashier, &out)
	if err != nil || st.tkey == "" {
		return out, err
	}
	by := ""
	if alone {
		by = req.By
	}
	if err := s.apply(ctx, st.tkey, st.rkey, by, st.decide); err != nil {
		return Redemption{}, st.fail(err)
	}
	return out, nil
}

// step is one decision on a ticket and a redemption: their keys, how it
// decides (setting its answer), and how it says that it failed.
type step struct {
	tkey, rkey string
	decide     func(t *Ticket, r *Redemption) (change, error)
	fail       func(error) error
}

// redeemStep is the redemption req, answering in out; a step without keys
// was answered at once (digits that are no validation number).
func (s *Store) redeemStep(req Request, cashier bool, out *Redemption) (step, error) {
	what := "authorize"
	if cashier {
		what = "redeem"
	}
	fail := func(err error) error {
		return fmt.Errorf("ticketsys: %s %q by %q (redemption %q): %w", what, req.Digits, req.By, req.ID, err)
	}
	if err := checkName("redeemer", req.By); err != nil {
		return step{}, fail(err)
	}
	if err := checkName("redemption ID", req.ID); err != nil {
		return step{}, fail(err)
	}
	if req.At.IsZero() || req.Cents < 0 {
		return step{}, fail(fmt.Errorf("%w: no time, or a negative amount", ErrInvalid))
	}
	digits, err := normalise(req.Digits)
	if err != nil {
		// Not a validation number at all: refused without a record (SAS
		// 81), and without a key, since the digits are not one.
		*out = Redemption{ID: req.ID, Digits: req.Digits, By: req.By, Code: sas.TransferNotValid, Phase: Refused,
			At: req.At.UnixNano(), Detail: err.Error()}
		return step{}, nil
	}
	at := req.At.UnixNano()
	decide := func(t *Ticket, r *Redemption) (change, error) {
		if r != nil {
			if r.Digits != digits || r.By != req.By {
				return change{}, fmt.Errorf("%w: the ID is redemption of %s by %s", ErrConflict, r.Digits, r.By)
			}
			*out = *r
			out.Replayed = true
			return change{}, nil
		}
		*out = Redemption{ID: req.ID, Digits: digits, By: req.By, At: at, Phase: Refused, Seq: req.Seq}
		code, detail := s.verdict(t, req, cashier)
		out.Code, out.Detail = code, detail
		if !code.Accepts() {
			return change{red: out}, nil
		}
		nt := t.clone()
		out.Cents = t.Cents
		if code == sas.TransferRestricted {
			out.Pool, out.Until = t.Pool, t.Until
		}
		if cashier {
			out.Phase, out.Done = Committed, at
			nt.State, nt.Final = Redeemed, &Final{By: req.By, Redemption: req.ID, At: at}
			nt.History = append(nt.History, Event{At: at, What: "redeemed", By: req.By, Redemption: req.ID})
		} else {
			out.Phase = Authorised
			nt.State, nt.Hold = Pending, &Hold{Cabinet: req.By, Redemption: req.ID, At: at, Seq: req.Seq}
			nt.History = append(nt.History, Event{At: at, What: "authorised", By: req.By, Redemption: req.ID})
			return change{ticket: nt, red: out, index: []clientv3.Op{clientv3.OpPut(s.holdKey(req.By, req.ID), digits)}}, nil
		}
		return change{ticket: nt, red: out}, nil
	}
	return step{tkey: s.ticketKey(digits), rkey: s.redemptionKey(req.ID), decide: decide, fail: fail}, nil
}

// verdict is the transfer code for redeeming t now, and why not.
func (s *Store) verdict(t *Ticket, req Request, cashier bool) (sas.TransferCode, string) {
	at := req.At.UnixNano()
	switch {
	case t == nil:
		return sas.TransferNotInSystem, "no such ticket"
	case t.State == Redeemed:
		return sas.TransferAlreadyRedeemed, fmt.Sprintf("redeemed by %s at %s", t.Final.By, stamp(t.Final.At))
	case t.State == Voided:
		return sas.TransferUnable, fmt.Sprintf("voided by %s at %s: %s", t.Final.By, stamp(t.Final.At), t.Final.Reason)
	case t.State == Pending:
		return sas.TransferPending, fmt.Sprintf("held for %s since %s", t.Hold.Cabinet, stamp(t.Hold.At))
	case t.Kind == tito.KindRestricted && cashier:
		// Promotional credit is played, never paid as money.
		return sas.TransferUnable, "a restricted promotional ticket is played at a machine, never paid by the cashier"
	case t.Kind != tito.KindCashout && t.Kind != tito.KindRestricted && !cashier:
		return sas.TransferNotThisMachine, "a handpay receipt is paid by the cashier"
	case t.Expires != 0 && at >= t.Expires:
		return sas.TransferExpired, fmt.Sprintf("expired at %s", stamp(t.Expires))
	case req.Cents != 0 && req.Cents != t.Cents:
		return sas.TransferAmountMismatch, fmt.Sprintf("read %d cents, recorded %d", req.Cents, t.Cents)
	case t.Kind == tito.KindRestricted:
		// Not money, so not under the limit of what a cabinet pays
		// without the cashier: no one else may take it.
		return sas.TransferRestricted, ""
	case !cashier && s.maxAuto > 0 && t.Cents > s.maxAuto:
		return sas.TransferOverAutoLimit, fmt.Sprintf("%d cents above the limit of %d", t.Cents, s.maxAuto)
	}
	return sas.TransferCashable, ""
}

func stamp(ns int64) string { return time.Unix(0, ns).UTC().Format(time.RFC3339) }

// Commit makes the ticket held by redemption id redeemed: the cabinet
// credited it. Committing again is a replay; committing a released or
// refused redemption is ErrConflict.
func (s *Store) Commit(ctx context.Context, id string, at time.Time) (Redemption, error) {
	return s.finish(ctx, id, at, Committed, "", "")
}

// Release frees the ticket held by redemption id: the cabinet rejected it
// or timed out, and the ticket can be redeemed again. Releasing again is a
// replay; releasing a committed redemption is ErrConflict.
func (s *Store) Release(ctx context.Context, id string, at time.Time, reason string) (Redemption, error) {
	return s.finish(ctx, id, at, Released, reason, "")
}

// finish with alone set ends the hold only while that cabinet holds no
// other ticket (aloneCmp).
func (s *Store) finish(ctx context.Context, id string, at time.Time, phase Phase, reason, alone string) (Redemption, error) {
	var out Redemption
	st, err := s.finishStep(ctx, id, at, phase, reason, &out)
	if err != nil {
		return Redemption{}, err
	}
	if err := s.apply(ctx, st.tkey, st.rkey, alone, st.decide); err != nil {
		return Redemption{}, st.fail(err)
	}
	return out, nil
}

// finishStep is the end of redemption id, answering in out.
func (s *Store) finishStep(ctx context.Context, id string, at time.Time, phase Phase, reason string, out *Redemption) (step, error) {
	fail := func(err error) error {
		return fmt.Errorf("ticketsys: %s redemption %q: %w", phase, id, err)
	}
	if err := checkName("redemption ID", id); err != nil {
		return step{}, fail(err)
	}
	if at.IsZero() {
		return step{}, fail(fmt.Errorf("%w: no time", ErrInvalid))
	}
	rkey := s.redemptionKey(id)
	var digits string
	if r, _ := s.guesses.redemption(rkey); r != nil {
		// A redemption's ticket never changes: the guess names it.
		digits = r.Digits
	} else {
		red, err := s.Redemption(ctx, id)
		if err != nil {
			return step{}, fail(err)
		}
		digits = red.Digits
	}
	decide := func(t *Ticket, r *Redemption) (change, error) {
		switch {
		case r == nil:
			return change{}, fmt.Errorf("%w: redemption disappeared", ErrCorrupt)
		case r.Phase == phase:
			*out = *r
			out.Replayed = true
			return change{}, nil
		case r.Phase != Authorised:
			return change{}, fmt.Errorf("%w: it is %s", ErrConflict, r.Phase)
		case t == nil || t.Hold == nil || t.Hold.Redemption != id:
			return change{}, fmt.Errorf("%w: ticket %s is not held by it", ErrCorrupt, r.Digits)
		}
		*out = *r
		out.Phase, out.Done, out.Detail = phase, at.UnixNano(), reason
		nt := t.clone()
		ev := Event{At: at.UnixNano(), By: r.By, Redemption: id, Detail: reason}
		if phase == Committed {
			nt.State, nt.Final, nt.Hold = Redeemed, &Final{By: r.By, Redemption: id, At: at.UnixNano()}, nil
			ev.What = "redeemed"
		} else {
			nt.State, nt.Hold = Issued, nil
			nt.Released++
			ev.What = "released"
		}
		nt.History = append(nt.History, ev)
		return change{ticket: nt, red: out, index: []clientv3.Op{clientv3.OpDelete(s.holdKey(r.By, id))}}, nil
	}
	return step{tkey: s.ticketKey(digits), rkey: rkey, decide: decide, fail: fail}, nil
}

// Void cancels an issued ticket (not one held or redeemed). Voiding a
// voided ticket is a replay.
func (s *Store) Void(ctx context.Context, digits, by, reason string, at time.Time) (Ticket, error) {
	fail := func(err error) (Ticket, error) {
		return Ticket{}, fmt.Errorf("ticketsys: void %q by %q: %w", digits, by, err)
	}
	if err := checkName("voider", by); err != nil {
		return fail(err)
	}
	if at.IsZero() || strings.TrimSpace(reason) == "" {
		return fail(fmt.Errorf("%w: a void needs a time and a reason", ErrInvalid))
	}
	d, err := normalise(digits)
	if err != nil {
		return fail(err)
	}
	var out Ticket
	err = s.apply(ctx, s.ticketKey(d), "", "", func(t *Ticket, _ *Redemption) (change, error) {
		switch {
		case t == nil:
			return change{}, ErrNotFound
		case t.State == Voided:
			out = *t
			return change{}, nil
		case t.State != Issued:
			return change{}, fmt.Errorf("%w: the ticket is %s", ErrState, t.State)
		}
		nt := t.clone()
		nt.State, nt.Final = Voided, &Final{By: by, Reason: reason, At: at.UnixNano()}
		nt.History = append(nt.History, Event{At: at.UnixNano(), What: "voided", By: by, Detail: reason})
		out = *nt
		return change{ticket: nt}, nil
	})
	if err != nil {
		return fail(err)
	}
	return out, nil
}

// Get returns the ticket with the validation digits.
func (s *Store) Get(ctx context.Context, digits string) (Ticket, error) {
	d, err := normalise(digits)
	if err != nil {
		return Ticket{}, fmt.Errorf("ticketsys: get %q: %w", digits, err)
	}
	var out Ticket
	err = s.apply(ctx, s.ticketKey(d), "", "", func(t *Ticket, _ *Redemption) (change, error) {
		if t == nil {
			return change{}, ErrNotFound
		}
		out = *t
		return change{}, nil
	})
	if err != nil {
		return Ticket{}, fmt.Errorf("ticketsys: get %s: %w", d, err)
	}
	return out, nil
}

// Redemption returns the answer recorded for redemption id.
func (s *Store) Redemption(ctx context.Context, id string) (Redemption, error) {
	resp, err := s.cli.Get(ctx, s.redemptionKey(id))
	if err != nil {
		return Redemption{}, fmt.Errorf("ticketsys: redemption %q: %w", id, err)
	}
	if len(resp.Kvs) == 0 {
		return Redemption{}, fmt.Errorf("ticketsys: redemption %q: %w", id, ErrNotFound)
	}
	var r Redemption
	return r, decode(string(resp.Kvs[0].Key), resp.Kvs[0].Value, &r)
}

// Holds returns the tickets held for cabinet: authorised there and
// neither committed nor released.
func (s *Store) Holds(ctx context.Context, cabinet string) ([]Ticket, error) {
	if err := checkName("cabinet", cabinet); err != nil {
		return nil, fmt.Errorf("ticketsys: holds: %w", err)
	}
	var out []Ticket
	err := s.scan(ctx, s.prefix+"h/"+cabinet+"/", func(key string, v []byte, _ int64) error {
		t, err := s.Get(ctx, string(v))
		if err != nil {
			return fmt.Errorf("ticketsys: hold %s: %w", key, err)
		}
		// The index is written and deleted with the hold, in one
		// transaction: a hold it names and the ticket does not have is
		// a damaged store.
		if t.State != Pending || t.Hold.Cabinet != cabinet || s.holdKey(cabinet, t.Hold.Redemption) != key {
			return fmt.Errorf("ticketsys: %w: hold %s, but ticket %s is %s", ErrCorrupt, key, t.Digits, t.State)
		}
		out = append(out, t)
		return nil
	})
	return out, err
}

// List returns every ticket, by validation digits.
func (s *Store) List(ctx context.Context) ([]Ticket, error) {
	var out []Ticket
	err := s.scan(ctx, s.prefix+"t/", func(key string, v []byte, rev int64) error {
		var t Ticket
		if err := decode(key, v, &t); err != nil {
			return err
		}
		t.Revision = rev
		out = append(out, t)
		return nil
	})
	return out, err
}

// Redemptions returns every recorded redemption answer, by ID.
func (s *Store) Redemptions(ctx context.Context) ([]Redemption, error) {
	var out []Redemption
	err := s.scan(ctx, s.prefix+"r/", func(key string, v []byte, _ int64) error {
		var r Redemption
		if err := decode(key, v, &r); err != nil {
			return err
		}
		out = append(out, r)
		return nil
	})
	return out, err
}

// Audit is every step of every ticket, and every refused redemption, in
// the order of their times.
func (s *Store) Audit(ctx context.Context) ([]Event, error) {
	ts, err := s.List(ctx)
	if err != nil {
		return nil, err
	}
	rs, err := s.Redemptions(ctx)
	if err != nil {
		return nil, err
	}
	var out []Event
	for _, t := range ts {
		for _, e := range t.History {
			e.Detail = strings.TrimSpace(t.Digits + " " + e.Detail)
			out = append(out, e)
		}
	}
	for _, r := range rs {
		if r.Phase == Refused {
			out = append(out, Event{At: r.At, What: "refused", By: r.By, Redemption: r.ID,
				Detail: fmt.Sprintf("%s %02X %v: %s", r.Digits, byte(r.Code), r.Code, r.Detail)})
		}
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].At < out[j].At })
	return out, nil
}

// scan reads every key under dir at one revision, in pages.
func (s *Store) scan(ctx context.Context, dir string, fn func(key string, v []byte, rev int64) error) error {
	const page = 500
	end := clientv3.GetPrefixRangeEnd(dir)
	from, rev := dir, int64(0)
	for {
		opts := []clientv3.OpOption{clientv3.WithRange(end), clientv3.WithLimit(page)}
		if rev != 0 {
			opts = append(opts, clientv3.WithRev(rev))
		}
		resp, err := s.cli.Get(ctx, from, opts...)
		if err != nil {
			return fmt.Errorf("ticketsys: list %s: %w", dir, err)
		}
		rev = resp.Header.Revision
		for _, kv := range resp.Kvs {
			if err := fn(string(kv.Key), kv.Value, kv.ModRevision); err != nil {
				return err
			}
		}
		if !resp.More || len(resp.Kvs) == 0 {
			return nil
		}
		from = string(resp.Kvs[len(resp.Kvs)-1].Key) + "\x00"
	}
}
