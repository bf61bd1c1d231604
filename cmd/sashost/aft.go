package main

import (
	"context"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
	"time"

	"github.com/openegm/cabinet/aft"
	"github.com/openegm/cabinet/sas/host"
)

// aftUsage lists the aft subcommands; their arguments are NAME=VALUE
// words (amounts in cents, key in 40 hex digits). A restricted amount
// comes with the pool it is from (pool=N, 0-65535) and its expiration
// (expiration=MMDDYYYY, a date, or 0000NNNN, a number of days; 0 or none:
// it never expires).
const aftUsage = `aft register asset=N key=HEX [pos=N] | aft registration | aft unregister
aft status | aft lock timeout=MS [conditions=in,out,printer,bonus] | aft unlock
aft transfer in|out|bonus|jackpot|ticket|win id=ID asset=N [key=HEX] [cashable=C] [restricted=C]
    [nonrestricted=C] [partial] [receipt [source=T] [patron=T] [account=T] [balance=C]] [locked]
    [expiration=MMDDYYYY|DAYS] [pool=N] [wait=D]
aft transfer debit id=ID asset=N key=HEX cashable=C [partial] [receipt card=NNNN [fee=C] [debit=C]]
    [locked] [wait=D]
aft interrogate [index=N | id=ID] | aft history
aft receipt-data [location=T] [address1=T] [address2=T] [inhouse1..4=T] [debit1..4=T]`

// aftArgs are the NAME=VALUE and bare words after an aft subcommand.
type aftArgs struct {
	kv    map[string]string
	words map[string]bool
	used  map[string]bool
}

func parseAFTArgs(args []string) aftArgs {
	a := aftArgs{kv: map[string]string{}, words: map[string]bool{}, used: map[string]bool{}}
	for _, s := range args {
		if k, v, ok := strings.Cut(s, "="); ok {
			a.kv[k] = v
		} else {
			a.words[s] = true
		}
	}
	return a
}

func (a aftArgs) word(w string) bool { a.used[w] = true; return a.words[w] }

func (a aftArgs) str(k string) (string, bool) {
	a.used[k] = true
	v, ok := a.kv[k]
	return v, ok
}

// num reads k as a number (0x for hex) of at most max; def when absent.
func (a aftArgs) num(k string, def, max uint64) (uint64, error) {
	s, ok := a.str(k)
	if !ok {
		return def, nil
	}
	v, err := strconv.ParseUint(s, 0, 64)
	if err != nil || v > max {
		return 0, fmt.Errorf("%w: %s=%q: want a number 0-%d", errUsage, k, s, max)
	}
	return v, nil
}

func (a aftArgs) key() (aft.Key, error) {
	var k aft.Key
	s, ok := a.str("key")
	if !ok {
		return k, nil
	}
	b, err := hex.DecodeString(s)
	if err != nil || len(b) != len(k) {
		return k, fmt.Errorf("%w: key=%q: want 40 hex digits", errUsage, s)
	}
	copy(k[:], b)
	return k, nil
}

// unused reports the arguments no subcommand asked for (typos).
func (a aftArgs) unused() error {
	for k := range a.kv {
		if !a.used[k] {
			return fmt.Errorf("%w: aft: unknown argument %s=", errUsage, k)
		}
	}
	for w := range a.words {
		if !a.used[w] {
			return fmt.Errorf("%w: aft: unknown argument %q", errUsage, w)
		}
	}
	return nil
}

var aftTypes = map[string]aft.TransferType{
	"in": aft.InHouseToMachine, "out": aft.InHouseToHost, "bonus": aft.BonusCoinOut,
	"jackpot": aft.BonusJackpot, "ticket": aft.InHouseToTicket, "win": aft.WinToHost, "debit": aft.DebitToMachine,
}

func (c *config) aft(ctx context.Context, cl *host.Client, o *out, rest []string) error {
	if len(rest) == 0 {
		return fmt.Errorf("%w: %s", errUsage, aftUsage)
	}
	sub, words := rest[0], rest[1:]
	var typ aft.TransferType
	if sub == "transfer" {
		var ok bool
		if len(words) > 0 {
			typ, ok = aftTypes[words[0]]
		}
		if !ok {
			return fmt.Errorf("%w: aft transfer in|out|bonus|jackpot|ticket|win|debit …", errUsage)
		}
		words = words[1:]
	}
	a := parseAFTArgs(words)
	run, err := c.aftCommand(ctx, cl, o, sub, typ, a)
	if err != nil {
		return err
	}
	if err := a.unused(); err != nil {
		return err
	}
	return run()
}

// aftCommand checks the arguments of sub and returns what runs it, so
// that a mistyped argument stops before anything is sent.
func (c *config) aftCommand(ctx context.Context, cl *host.Client, o *out, sub string, typ aft.TransferType, a aftArgs) (func() error, error) {
	switch sub {
	case "register":
		asset, err := a.num("asset", 0, 1<<32-1)
		if err != nil {
			return nil, err
		}
		pos, err := a.num("pos", 0, 1<<32-1)
		if err != nil {
			return nil, err
		}
		key, err := a.key()
		if err != nil {
			return nil, err
		}
		return func() error { return emitRegistration(o)(cl.AFTRegisterMachine(uint32(asset), key, uint32(pos))) }, nil
	case "registration", "unregister":
		code := aft.RegRead
		if sub == "unregister" {
			code = aft.RegUnregister
		}
		return func() error { return emitRegistration(o)(cl.AFTRegister(aft.RegisterRequest{Code: code})) }, nil
	case "status", "unlock":
		code := aft.InterrogateLock
		if sub == "unlock" {
			code = aft.CancelLock
		}
		return func() error { return aftLock(cl, o, aft.LockRequest{Code: code}) }, nil
	case "lock":
		ms, err := a.num("timeout", 0, 99_990)
		if err != nil {
			return nil, err
		}
		var cond byte
		if s, ok := a.str("conditions"); ok {
			for _, w := range strings.Split(s, ",") {
				bit, ok := map[string]byte{"in": aft.TransferToMachineOK, "out": aft.TransferFromMachineOK,
					"printer": aft.TransferToPrinterOK, "bonus": aft.ConditionBonusToMachine}[w]
				if !ok {
					return nil, fmt.Errorf("%w: conditions=%q: want in, out, printer, bonus", errUsage, s)
				}
				cond |= bit
			}
		}
		return func() error {
			return aftLock(cl, o, aft.LockRequest{Code: aft.RequestLock, Conditions: cond, Timeout: uint16(ms / 10)})
		}, nil
	case "transfer":
		q, wait, err := transferRequest(typ, a)
		if err != nil {
			return nil, err
		}
		return func() error {
			wctx, cancel := context.WithTimeout(ctx, wait)
			defer cancel()
			r, err := cl.AFTTransferWait(wctx, q, 50*time.Millisecond)
			switch {
			case errors.Is(err, host.ErrAFTNotCurrent):
				return fmt.Errorf("%w: the machine did not make it, nothing moved: send it again under id=%s", err, q.ID)
			case err != nil:
				// The outcome is unknown, not failed: only the machine
				// knows, and it runs the ID at most once.
				return fmt.Errorf("%w: the outcome is unknown: read it with \"aft interrogate id=%s\" or send the same transfer again under that ID", err, q.ID)
			}
			if err := emitTransfer(o, r); err != nil {
				return err
			}
			if !r.Status.Succeeded() {
				return fmt.Errorf("transfer %q: %v", q.ID, r.Status)
			}
			return nil
		}, nil
	case "interrogate":
		i, err := a.num("index", 0, 255)
		if err != nil {
			return nil, err
		}
		if id, ok := a.str("id"); ok {
			if !aft.ValidID(id) {
				return nil, fmt.Errorf("%w: id=%q: want 1-20 printable ASCII characters", errUsage, id)
			}
			if _, both := a.kv["index"]; both {
				return nil, fmt.Errorf("%w: aft interrogate: index= or id=, not both", errUsage)
			}
			return func() error { return aftFind(cl, o, id) }, nil
		}
		return func() error {
			r, err := cl.AFTInterrogate(byte(i))
			if err != nil {
				return err
			}
			return emitTransfer(o, r)
		}, nil
	case "receipt-data":
		set, err := receiptTextSet(a)
		if err != nil {
			return nil, err
		}
		return func() error {
			if err := cl.AFTSetReceiptText(set); err != nil {
				return err
			}
			return o.emit(set, func(w io.Writer) { fmt.Fprintf(w, "receipt data set: %d fields\n", len(set.Fields)) })
		}, nil
	case "history":
		return func() error {
			h, err := cl.AFTHistory()
			if err != nil {
				return err
			}
			if h == nil {
				h = []aft.TransferReply{}
			}
			return o.emit(h, func(w io.Writer) {
				if len(h) == 0 {
					fmt.Fprintln(w, "no transfers")
				}
				for _, r := range h {
					printTransfer(w, r)
				}
			})
		}, nil
	}
	return nil, fmt.Errorf("%w: %s", errUsage, aftUsage)
}

// aftFind reports the transfer under id, or that the machine has none:
// the answer a host needs after it lost track of a transfer.
func aftFind(cl *host.Client, o *out, id string) error {
	r, n, err := cl.AFTFind(id)
	switch {
	case errors.Is(err, host.ErrAFTUnknown) && n >= aft.MaxHistory:
		return fmt.Errorf("%w: it did not happen, or it is older than the machine's full history", err)
	case errors.Is(err, host.ErrAFTUnknown):
		return fmt.Errorf("%w: it did not happen, nothing moved: it may be sent again under id=%s", err, id)
	case err != nil:
		return err
	}
	return emitTransfer(o, r)
}

func transferRequest(typ aft.TransferType, a aftArgs) (aft.TransferRequest, time.Duration, error) {
	q := aft.TransferRequest{Code: aft.CodeFull, Type: typ}
	if a.word("partial") {
		q.Code = aft.CodePartial
	}
	if a.word("receipt") {
		q.Flags |= aft.FlagReceipt
	}
	if a.word("locked") {
		q.Flags |= aft.FlagOnlyIfLocked
	}
	id, ok := a.str("id")
	if !ok || !aft.ValidID(id) {
		return q, 0, fmt.Errorf("%w: id=: want 1-20 printable ASCII characters", errUsage)
	}
	q.ID = id
	fields := []struct {
		name string
		max  uint64
		set  func(uint64)
	}{
		{"asset", 1<<32 - 1, func(v uint64) { q.Asset = uint32(v) }},
		{"cashable", uint64(aft.MaxAmount), func(v uint64) { q.Cashable = int64(v) }},
		{"restricted", uint64(aft.MaxAmount), func(v uint64) { q.Restricted = int64(v) }},
		{"nonrestricted", uint64(aft.MaxAmount), func(v uint64) { q.NonRestricted = int64(v) }},
		{"expiration", uint64(aft.MaxExpiration), func(v uint64) { q.Expiration = aft.Expiration(v) }},
		{"pool", 0xFFFF, func(v uint64) { q.PoolID = uint16(v) }},
	}
	for _, f := range fields {
		v, err := a.num(f.name, 0, f.max)
		if err != nil {
			return q, 0, err
		}
		f.set(v)
	}
	var err error
	if q.Key, err = a.key(); err != nil {
		return q, 0, err
	}
	if typ.Debit() && q.Key.Zero() {
		// SAS 8.1: the machine takes a debit only under the key it was
		// registered with (aft register … pos=N), never without one.
		return q, 0, fmt.Errorf("%w: a debit needs key=, the key the machine is registered with", errUsage)
	}
	if q.Receipt, err = receiptData(a); err != nil {
		return q, 0, err
	}
	wait := 30 * time.Second
	if s, ok := a.str("wait"); ok {
		if wait, err = time.ParseDuration(s); err != nil || wait <= 0 {
			return q, 0, fmt.Errorf("%w: wait=%q: want a duration", errUsage, s)
		}
	}
	return q, wait, nil
}

func aftLock(cl *host.Client, o *out, q aft.LockRequest) error {
	s, err := cl.AFTLock(q)
	if err != nil {
		return err
	}
	return o.emit(s, func(w io.Writer) {
		fmt.Fprintf(w, "asset %d: %v, available transfers %02X, host cashout %02X, AFT status %02X\n",
			s.Asset, s.Lock, s.Available, byte(s.HostCashout), s.AFTStatus)
		fmt.Fprintf(w, "cashable %d, restricted %d, non-restricted %d cents; transfer limit %d cents\n",
			s.Cashable, s.Restricted, s.NonRestricted, s.TransferLimit)
		if s.Restricted > 0 {
			fmt.Fprintf(w, "restricted pool %d, expires %v\n", s.RestrictedPool, s.RestrictedExpiration)
		}
	})
}

// emitRegistration prints the machine's registration a 0x73 call
// returned, or passes its error on.
func emitRegistration(o *out) func(aft.RegisterReply, error) error {
	return func(r aft.RegisterReply, err error) error {
		if err != nil {
			return err
		}
		return o.emit(r, func(w io.Writer) {
			fmt.Fprintf(w, "asset %d: %v, key %v, POS ID %d\n", r.Asset, r.Status, r.Key, r.POSID)
		})
	}
}

func emitTransfer(o *out, r aft.TransferReply) error {
	return o.emit(r, func(w io.Writer) { printTransfer(w, r) })
}

func printTransfer(w io.Writer, r aft.TransferReply) {
	if r.Short() || r.Status == aft.StatusNoInfo {
		fmt.Fprintf(w, "position %d: %v\n", r.Position, r.Status)
		return
	}
	at := "pending"
	if !r.At.IsZero() {
		at = r.At.Format("2006-01-02 15:04:05")
	}
	promo := ""
	if r.Restricted > 0 {
		promo = fmt.Sprintf("; restricted of pool %d, expiration %v", r.PoolID, r.Expiration)
	}
	fmt.Fprintf(w, "position %d: %q %v, %v: cashable %d, restricted %d, non-restricted %d cents (%s)%s%s\n",
		r.Position, r.ID, r.Type, r.Status, r.Cashable, r.Restricted, r.NonRestricted, at, promo, receiptStatus(r.ReceiptStatus))
}
