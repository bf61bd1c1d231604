package jackpot

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"unicode/utf8"
)

// Binary formats. Integers are fixed-width big-endian; counts and string
// lengths are unsigned varints; strings are UTF-8. Decoding is strict: it
// refuses truncated input, trailing bytes, unknown versions, tags and flags,
// out-of-range values, any state that fails Check, and any encoding that is
// not the one MarshalBinary/MarshalOp would produce (so every value has
// exactly one encoding and a hash of it identifies it).
//
// State: "OJPS" 0x01, seq u64, transfer count, transfers, level count, levels.
// Op:    0x01, tag, fields (see encodeOp).
const (
	stateMagic   = "OJPS"
	stateVersion = 1
	opVersion    = 1
)

type encoder struct{ b []byte }

func (e *encoder) u8(v uint8)   { e.b = append(e.b, v) }
func (e *encoder) u64(v uint64) { e.b = binary.BigEndian.AppendUint64(e.b, v) }
func (e *encoder) i64(v int64)  { e.u64(uint64(v)) }
func (e *encoder) n(v int)      { e.b = binary.AppendUvarint(e.b, uint64(v)) }
func (e *encoder) str(s string) { e.n(len(s)); e.b = append(e.b, s...) }
func (e *encoder) flag(v bool) {
	if v {
		e.u8(1)
	} else {
		e.u8(0)
	}
}

type decoder struct {
	b   []byte
	err error
}

func (d *decoder) fail(format string, a ...any) {
	if d.err == nil {
		d.err = fmt.Errorf("%w: %s", ErrCorrupt, fmt.Sprintf(format, a...))
	}
}

func (d *decoder) take(n int, what string) []byte {
	if d.err != nil {
		return nil
	}
	if n > len(d.b) {
		d.fail("truncated in %s", what)
		return nil
	}
	p := d.b[:n]
	d.b = d.b[n:]
	return p
}

func (d *decoder) u8(what string) uint8 {
	p := d.take(1, what)
	if p == nil {
		return 0
	}
	return p[0]
}

func (d *decoder) u64(what string) uint64 {
	p := d.take(8, what)
	if p == nil {
		return 0
	}
	return binary.BigEndian.Uint64(p)
}

func (d *decoder) i64(what string) int64 { return int64(d.u64(what)) }

func (d *decoder) flag(what string) bool {
	switch v := d.u8(what); v {
	case 0:
		return false
	case 1:
		return true
	default:
		d.fail("%s: flag byte %d", what, v)
		return false
	}
}

// n reads a count or length of at most max.
func (d *decoder) n(max int, what string) int {
	if d.err != nil {
		return 0
	}
	v, k := binary.Uvarint(d.b)
	if k <= 0 {
		d.fail("bad length in %s", what)
		return 0
	}
	d.b = d.b[k:]
	if v > uint64(max) {
		d.fail("%s: length %d, at most %d", what, v, max)
		return 0
	}
	return int(v)
}

func (d *decoder) str(max int, what string) string {
	p := d.take(d.n(max, what), what)
	if d.err != nil {
		return ""
	}
	if !utf8.Valid(p) {
		d.fail("%s is not UTF-8", what)
		return ""
	}
	return string(p)
}

func (d *decoder) end(what string) {
	if d.err == nil && len(d.b) != 0 {
		d.fail("%d trailing bytes after %s", len(d.b), what)
	}
}

func (e *encoder) config(c Config) {
	e.i64(c.ResetValue)
	e.i64(c.Rate)
	e.i64(c.HiddenRate)
	e.i64(c.Cap)
	e.u8(uint8(c.Trigger))
	e.i64(c.MinHitBet)
	e.u8(uint8(c.SecondHit))
}

func (d *decoder) config() Config {
	return Config{
		ResetValue: d.i64("reset value"),
		Rate:       d.i64("rate"),
		HiddenRate: d.i64("hidden rate"),
		Cap:        d.i64("cap"),
		Trigger:    Trigger(d.u8("trigger")),
		MinHitBet:  d.i64("minimum hit bet"),
		SecondHit:  SecondHitRule(d.u8("second-hit rule")),
	}
}

// MarshalBinary encodes the state. It fails only if the state does not pass
// Check (which Apply never lets happen).
func (p *Pools) MarshalBinary() ([]byte, error) {
	if err := p.Check(); err != nil {
		return nil, err
	}
	return p.encode(), nil
}

func (p *Pools) encode() []byte {
	e := &encoder{b: make([]byte, 0, 256+len(p.levels)*512)}
	e.b = append(e.b, stateMagic...)
	e.u8(stateVersion)
	e.u64(p.seq)
	e.n(len(p.transfers))
	for _, t := range p.transfers {
		e.i64(t.At)
		e.str(t.From)
		e.str(t.To)
		e.i64(t.Current)
		e.i64(t.Reserve)
		e.i64(t.Overflow)
		e.i64(t.ToCurrent)
		e.i64(t.ToReserve)
		e.flag(t.Closed)
		e.str(t.Who)
		e.str(t.Why)
	}
	e.n(len(p.levels))
	for _, l := range p.levels {
		e.str(l.id)
		e.config(l.cfg)
		e.flag(l.closed)
		e.i64(l.target)
		e.i64(l.carryMain)
		e.i64(l.carryHidden)
		m := &l.m
		for _, v := range []int64{m.QualifyingBets, m.Contributions, m.HiddenContributions, m.SeedFunding,
			m.TransferredIn, m.TransferredOut, m.Current, m.Reserve, m.Overflow, m.Hits, m.Awarded} {
			e.i64(v)
		}
		e.n(len(l.claims))
		for _, c := range l.claims {
			e.i64(c.At)
			e.str(c.Where)
			e.u64(c.Game)
			e.i64(c.Bet)
			e.flag(c.Mystery)
		}
		e.n(len(l.history))
		for _, h := range l.history {
			e.i64(h.At)
			e.str(h.Where)
			e.u64(h.Game)
			e.i64(h.Amount)
		}
	}
	return e.b
}

// UnmarshalBinary replaces the state with the decoded one. On error p is
// unchanged.
func (p *Pools) UnmarshalBinary(data []byte) error {
	q, err := decodeState(data)
	if err != nil {
		return fmt.Errorf("jackpot: decode state: %w", err)
	}
	*p = *q
	return nil
}

func decodeState(data []byte) (*Pools, error) {
	d := &decoder{b: data}
	if string(d.take(len(stateMagic), "magic")) != stateMagic {
		if d.err != nil {
			return nil, d.err
		}
		return nil, fmt.Errorf("%w: not a jackpot state (bad magic)", ErrCorrupt)
	}
	if v := d.u8("version"); d.err == nil && v != stateVersion {
		return nil, fmt.Errorf("%w: state version %d, want %d", ErrCorrupt, v, stateVersion)
	}
	q := &Pools{seq: d.u64("seq")}
	if nt := d.n(TransferLogLen, "transfer count"); nt > 0 {
		q.transfers = make([]TransferRecord, nt)
		for k := range q.transfers {
			t := &q.transfers[k]
			t.At = d.i64("transfer time")
			t.From = d.str(maxIDLen, "transfer from")
			t.To = d.str(maxIDLen, "transfer to")
			t.Current = d.i64("transfer current")
			t.Reserve = d.i64("transfer reserve")
			t.Overflow = d.i64("transfer overflow")
			t.ToCurrent = d.i64("transfer to current")
			t.ToReserve = d.i64("transfer to reserve")
			t.Closed = d.flag("transfer closed")
			t.Who = d.str(maxWhoLen, "transfer who")
			t.Why = d.str(maxWhyLen, "transfer why")
		}
	}
	nl := d.n(MaxLevels, "level count")
	if nl > 0 {
		q.levels = make([]*level, 0, nl)
		q.index = make(map[string]int, nl)
	}
	for range nl {
		l := &level{id: d.str(maxIDLen, "level id")}
		l.cfg = d.config()
		l.closed = d.flag("closed")
		l.target = d.i64("target")
		l.carryMain = d.i64("main carry")
		l.carryHidden = d.i64("hidden carry")
		m := &l.m
		for _, v := range []*int64{&m.QualifyingBets, &m.Contributions, &m.HiddenContributions, &m.SeedFunding,
			&m.TransferredIn, &m.TransferredOut, &m.Current, &m.Reserve, &m.Overflow, &m.Hits, &m.Awarded} {
			*v = d.i64("meter")
		}
		if nc := d.n(MaxClaims, "claim count"); nc > 0 {
			l.claims = make([]Claim, nc)
			for k := range l.claims {
				c := &l.claims[k]
				c.At = d.i64("claim time")
				c.Where = d.str(maxIDLen, "claim where")
				c.Game = d.u64("claim game")
				c.Bet = d.i64("claim bet")
				c.Mystery = d.flag("claim mystery")
			}
		}
		if nh := d.n(HistoryLen, "history count"); nh > 0 {
			l.history = make([]HitRecord, nh)
			for k := range l.history {
				h := &l.history[k]
				h.At = d.i64("hit time")
				h.Where = d.str(maxIDLen, "hit where")
				h.Game = d.u64("hit game")
				h.Amount = d.i64("hit amount")
			}
		}
		if d.err != nil {
			return nil, d.err
		}
		if _, dup := q.index[l.id]; dup {
			return nil, fmt.Errorf("%w: level %q appears twice", ErrCorrupt, l.id)
		}
		q.index[l.id] = len(q.levels)
		q.levels = append(q.levels, l)
	}
	d.end("state")
	if d.err != nil {
		return nil, d.err
	}
	if err := q.Check(); err != nil {
		return nil, fmt.Errorf("%w: %w", ErrCorrupt, err)
	}
	if !bytes.Equal(q.encode(), data) {
		return nil, fmt.Errorf("%w: not the canonical encoding", ErrCorrupt)
	}
	return q, nil
}

// MarshalOp encodes an op for the ledger. It refuses strings and lists too
// long to decode, but otherwise does not judge the op: Apply does.
func MarshalOp(op Op) ([]byte, error) {
	e := &encoder{b: make([]byte, 0, 64)}
	e.u8(opVersion)
	fail := func(err error) ([]byte, error) { return nil, fmt.Errorf("jackpot: encode op %T: %w", op, err) }
	str := func(what, s string, max int) error {
		if err := checkText(what, s, max, false); err != nil {
			return err
		}
		e.str(s)
		return nil
	}
	var err error
	switch o := op.(type) {
	case AddLevel:
		e.u8(tagAddLevel)
		err = str("level", o.Level, maxIDLen)
		e.config(o.Config)
		e.i64(o.Target)
		if err == nil {
			err = str("who", o.Who, maxWhoLen)
		}
		e.i64(o.At)
	case Contribute:
		e.u8(tagContribute)
		if len(o.Levels) > MaxLevels {
			return fail(fmt.Errorf("%w: %d levels", ErrInvalid, len(o.Levels)))
		}
		e.n(len(o.Levels))
		for _, id := range o.Levels {
			if err = str("level", id, maxIDLen); err != nil {
				break
			}
		}
		e.i64(o.Bet)
		if err == nil {
			err = str("where", o.Where, maxIDLen)
		}
		e.u64(o.Game)
		e.i64(o.At)
	case Hit:
		e.u8(tagHit)
		err = str("level", o.Level, maxIDLen)
		e.i64(o.Bet)
		if err == nil {
			err = str("where", o.Where, maxIDLen)
		}
		e.u64(o.Game)
		e.i64(o.At)
	case Award:
		if o.Amounts == nil {
			e.u8(tagAward)
			err = str("level", o.Level, maxIDLen)
			e.i64(o.Target)
			e.i64(o.At)
			break
		}
		if len(o.Amounts) == 0 || len(o.Amounts) > MaxClaims {
			return fail(fmt.Errorf("%w: award with %d amounts: want 1..%d (or none)", ErrInvalid, len(o.Amounts), MaxClaims))
		}
		e.u8(tagAwardAmounts)
		err = str("level", o.Level, maxIDLen)
		e.i64(o.Target)
		e.n(len(o.Amounts))
		for _, a := range o.Amounts {
			e.i64(a)
		}
		e.i64(o.At)
	case Transfer:
		e.u8(tagTransfer)
		err = str("from", o.From, maxIDLen)
		if err == nil {
			err = str("to", o.To, maxIDLen)
		}
		e.i64(o.Current)
		e.i64(o.Reserve)
		e.i64(o.Overflow)
		e.flag(o.All)
		e.flag(o.Close)
		if err == nil {
			err = str("who", o.Who, maxWhoLen)
		}
		if err == nil {
			err = str("why", o.Why, maxWhyLen)
		}
		e.i64(o.At)
	case Fund:
		e.u8(tagFund)
		err = str("level", o.Level, maxIDLen)
		e.i64(o.Amount)
		if err == nil {
			err = str("who", o.Who, maxWhoLen)
		}
		if err == nil {
			err = str("why", o.Why, maxWhyLen)
		}
		e.i64(o.At)
	default:
		return fail(fmt.Errorf("%w: unsupported op (ops are values, not pointers)", ErrInvalid))
	}
	if err != nil {
		return fail(err)
	}
	return e.b, nil
}

// UnmarshalOp decodes an op encoded by MarshalOp.
func UnmarshalOp(data []byte) (Op, error) {
	op, err := decodeOp(data)
	if err != nil {
		return nil, fmt.Errorf("jackpot: decode op: %w", err)
	}
	return op, nil
}

func decodeOp(data []byte) (Op, error) {
	d := &decoder{b: data}
	if v := d.u8("op version"); d.err == nil && v != opVersion {
		return nil, fmt.Errorf("%w: op version %d, want %d", ErrCorrupt, v, opVersion)
	}
	var op Op
	switch tag := d.u8("op tag"); tag {
	case tagAddLevel:
		op = AddLevel{
			Level:  d.str(maxIDLen, "level"),
			Config: d.config(),
			Target: d.i64("target"),
			Who:    d.str(maxWhoLen, "who"),
			At:     d.i64("at"),
		}
	case tagContribute:
		var o Contribute
		if n := d.n(MaxLevels, "level count"); n > 0 {
			o.Levels = make([]string, n)
			for k := range o.Levels {
				o.Levels[k] = d.str(maxIDLen, "level")
			}
		}
		o.Bet = d.i64("bet")
		o.Where = d.str(maxIDLen, "where")
		o.Game = d.u64("game")
		o.At = d.i64("at")
		op = o
	case tagHit:
		op = Hit{
			Level: d.str(maxIDLen, "level"),
			Bet:   d.i64("bet"),
			Where: d.str(maxIDLen, "where"),
			Game:  d.u64("game"),
			At:    d.i64("at"),
		}
	case tagAward:
		op = Award{Level: d.str(maxIDLen, "level"), Target: d.i64("target"), At: d.i64("at")}
	case tagAwardAmounts:
		o := Award{Level: d.str(maxIDLen, "level"), Target: d.i64("target")}
		if n := d.n(MaxClaims, "amount count"); n > 0 {
			o.Amounts = make([]int64, n)
			for k := range o.Amounts {
				o.Amounts[k] = d.i64("amount")
			}
		} else if d.err == nil {
			d.fail("an award with amounts has none")
		}
		o.At = d.i64("at")
		op = o
	case tagTransfer:
		op = Transfer{
			From:     d.str(maxIDLen, "from"),
			To:       d.str(maxIDLen, "to"),
			Current:  d.i64("current"),
			Reserve:  d.i64("reserve"),
			Overflow: d.i64("overflow"),
			All:      d.flag("all"),
			Close:    d.flag("close"),
			Who:      d.str(maxWhoLen, "who"),
			Why:      d.str(maxWhyLen, "why"),
			At:       d.i64("at"),
		}
	case tagFund:
		op = Fund{
			Level:  d.str(maxIDLen, "level"),
			Amount: d.i64("amount"),
			Who:    d.str(maxWhoLen, "who"),
			Why:    d.str(maxWhyLen, "why"),
			At:     d.i64("at"),
		}
	default:
		if d.err == nil {
			return nil, fmt.Errorf("%w: unknown op tag %d", ErrCorrupt, tag)
		}
	}
	d.end("op")
	if d.err != nil {
		return nil, d.err
	}
	if enc, err := MarshalOp(op); err != nil || !bytes.Equal(enc, data) {
		return nil, fmt.Errorf("%w: not the canonical encoding of the op", ErrCorrupt)
	}
	return op, nil
}
