package meters

import (
	"encoding/json"
	"unicode/utf8"
)

// Start-up decodes the newest snapshot's state, and encoding/json's
// reflection took longer than everything else start-up does on its core
// (0.7 ms of a 50 kB state at 10^6 games). restoreFast reads the state
// without reflection in the form fold.Encode (json.Marshal) writes it:
// the fields in the struct's order, each at most once, no white space,
// integers in their shortest form, strings without escapes. The histories
// a state is mostly made of (games, events, bills, handpays) and its
// numbers are read here; the parts a state has one of, and rarely (the
// AFT state, jackpot pools, tickets, settings...), are handed to
// encoding/json one by one, each its own value. A history entry this
// reader does not expect (a string with an escape, say) goes to
// encoding/json alone; anything else it does not expect sends the whole
// state to encoding/json. So a state decodes to the same value, or fails
// with the same error, either way (TestRestoreFastIsEncodingJSON and
// FuzzRestore hold the two to it).

// stateLexer is a lexer that can hand a value to encoding/json: bad turns
// true when encoding/json refuses one, and the whole state then goes to
// encoding/json (for its error), never to a second try here.
type stateLexer struct {
	lexer
	bad bool
}

// skip reads one JSON value, however written, and returns its bytes for
// encoding/json, which checks them: it only finds where the value ends
// (outside strings, where its brackets close, or, for a number or a
// literal, at the comma or bracket after it).
func (l *lexer) skip() []byte {
	if !l.ok {
		return nil
	}
	start, depth := l.i, 0
	for ; l.i < len(l.b); l.i++ {
		switch l.b[l.i] {
		case '"':
			for l.i++; l.i < len(l.b) && l.b[l.i] != '"'; l.i++ {
				if l.b[l.i] == '\\' {
					l.i++
				}
			}
			if l.i >= len(l.b) {
				l.ok = false
				return nil
			}
			if depth == 0 {
				l.i++
				return l.b[start:l.i]
			}
		case '{', '[':
			depth++
		case '}', ']':
			if depth == 0 {
				return l.b[start:l.i]
			}
			if depth--; depth == 0 {
				l.i++
				return l.b[start:l.i]
			}
		case ',':
			if depth == 0 {
				return l.b[start:l.i]
			}
		}
	}
	l.ok = false
	return nil
}

// sub hands the next value to encoding/json, decoded into v (a pointer to
// a field or an entry, at its zero value).
func (d *stateLexer) sub(v any) {
	b := d.skip()
	if !d.ok {
		return
	}
	if err := json.Unmarshal(b, v); err != nil {
		d.ok, d.bad = false, true
	}
}

// optSub hands the value of the optional field key to encoding/json,
// decoded into v, when the field is there.
func (d *stateLexer) optSub(key string, v any) {
	if d.optional(key) {
		d.sub(v)
	}
}

// entry reads a history entry with read, or, when read does not take it,
// through encoding/json.
func entry[T any](d *stateLexer, read func() T) T {
	start := d.i
	v := read()
	if d.ok || d.bad {
		return v
	}
	d.i, d.ok = start, true
	var w T
	d.sub(&w)
	return w
}

// history reads a list of entries: null is nil, [] an empty list.
func history[T any](d *stateLexer, read func() T) []T {
	return list(&d.lexer, 0, func() T { return entry(d, read) })
}

// text reads a string without escapes: printable ASCII and valid UTF-8
// (which encoding/json keeps as it is).
func (l *lexer) text() string {
	if !l.lit(`"`) {
		return ""
	}
	start, ascii := l.i, true
	for l.i < len(l.b) {
		c := l.b[l.i]
		if c == '"' {
			b := l.b[start:l.i]
			if !ascii && !utf8.Valid(b) {
				break
			}
			l.i++
			return string(b)
		}
		if c < 0x20 || c == 0x7f || c == '\\' {
			break
		}
		if c >= 0x80 {
			ascii = false
		}
		l.i++
	}
	l.ok = false
	return ""
}

// optText and optInt64 read the optional field key into v when it is
// there.
func (l *lexer) optText(key string, v *string) {
	if l.optional(key) {
		*v = l.text()
	}
}

func (l *lexer) optInt64(key string, v *int64) {
	if l.optional(key) {
		*v = l.int64()
	}
}

// int64s reads a list of int64: null is nil, [] an empty list.
func (l *lexer) int64s() []int64 { return list(l, 0, l.int64) }

// meters reads Values in MarshalJSON's form: known keys in key order.
func (l *lexer) meters(v *Values) {
	if !l.lit("{") {
		return
	}
	if l.peek("}") {
		l.i++
		return
	}
	next := 0 // keyOrder's index of the next key allowed
	for l.ok {
		k := l.str()
		for next < len(keyOrder) && meterKeys[keyOrder[next]] != k {
			next++
		}
		if next == len(keyOrder) || !l.lit(":") {
			l.ok = false
			return
		}
		v[keyOrder[next]] = l.int64()
		next++
		if l.peek("}") {
			l.i++
			return
		}
		l.lit(",")
	}
}

// gameHistory reads a GameHistory; a table hand goes to encoding/json.
func (d *stateLexer) gameHistory() GameHistory {
	var g GameHistory
	d.lit("{")
	d.field("start", true)
	g.Start = d.gameStart()
	if d.optional("hand") {
		d.sub(&g.Start.Hand)
	}
	d.lit("}")
	if d.optional("free") {
		g.Free = history(d, func() FreeGame {
			f := d.freeGame()
			d.lit("}")
			return f
		})
	}
	if d.optional("end") {
		e := d.gameEnd()
		d.lit("}")
		g.End = &e
	}
	d.lit("}")
	return g
}

// event reads an Event.
func (d *stateLexer) event() Event {
	var e Event
	d.lit("{")
	d.field("at", true)
	e.At = d.int64()
	d.field("code", false)
	e.Code = d.text()
	d.optText("door", &e.Door)
	d.optText("tilt", &e.Tilt)
	d.optText("detail", &e.Detail)
	d.optText("who", &e.Who)
	d.optText("role", &e.Role)
	d.optText("action", &e.Action)
	d.optText("key", &e.Key)
	d.optText("value", &e.Value)
	d.optInt64("cents", &e.Cents)
	d.optText("ref", &e.Ref)
	d.lit("}")
	return e
}

// moneyIn reads a MoneyIn.
func (d *stateLexer) moneyIn() MoneyIn {
	var m MoneyIn
	d.lit("{")
	d.field("at", true)
	m.At = d.int64()
	d.field("source", false)
	m.Source = d.text()
	d.field("cents", false)
	m.Cents = d.int64()
	d.optText("ref", &m.Ref)
	if d.optional("order") {
		m.Order = d.uint()
	}
	d.lit("}")
	return m
}

// handpayHistory reads a HandpayHistory.
func (d *stateLexer) handpayHistory() HandpayHistory {
	var h HandpayHistory
	d.lit("{")
	d.field("pending", true)
	d.lit("{")
	d.field("at", true)
	h.Pending.At = d.int64()
	d.field("kind", false)
	h.Pending.Kind = d.text()
	d.field("cents", false)
	h.Pending.Cents = d.int64()
	if d.optional("game") {
		h.Pending.Game = d.uint()
	}
	if d.optional("level") {
		h.Pending.Level = d.int()
	}
	d.optText("ref", &h.Pending.Ref)
	d.lit("}")
	if d.optional("reset") {
		var r HandpayReset
		d.lit("{")
		d.field("at", true)
		r.At = d.int64()
		d.field("who", false)
		r.Who = d.text()
		d.field("cents", false)
		r.Cents = d.int64()
		d.lit("}")
		h.Reset = &r
	}
	d.lit("}")
	return h
}

// restoreFast decodes a state in fold.Encode's form; ok false sends it to
// encoding/json. Like json.Unmarshal into NewState(), it checks nothing
// of the state's own rules (restore does).
func restoreFast(b []byte) (s *State, ok bool) {
	d := &stateLexer{lexer: lexer{b: b, ok: true}}
	s = NewState()
	d.lit("{")
	d.field("meters", true)
	d.meters(&s.Meters)
	d.field("bill_counts", false)
	s.BillCounts = d.int64s()
	d.field("last_game", false)
	s.LastGame = d.uint()
	if d.optional("open") {
		if d.peek("null") {
			return nil, false
		}
		g := entry(d, d.gameHistory)
		s.Open = &g
	}
	d.field("free_left", false)
	s.FreeLeft = d.int()
	d.optSub("handpay", &s.Handpay)
	d.optInt64("owed_handpay", &s.OwedHandpay)
	d.optSub("owed", &s.Owed)
	d.optSub("tilts", &s.Tilts)
	d.optSub("doors_open", &s.DoorsOpen)
	d.optSub("settings", &s.Settings)
	d.optSub("command_line", &s.CommandLine)
	d.optSub("pin_failures", &s.PINFailures)
	d.optSub("pending_ticket", &s.PendingTicket)
	if d.optional("ticket_seq") {
		s.TicketSeq = d.uint()
	}
	d.optSub("pending_bill", &s.PendingBill)
	if d.optional("bill_ref") {
		s.BillRef = d.uint()
	}
	if d.optional("ram_clears") {
		s.RAMClears = d.uint()
	}
	d.optSub("pending_hits", &s.PendingHits)
	d.optInt64("linked_coin_in", &s.LinkedCoinIn)
	d.optSub("jackpot", &s.Jackpot)
	d.optSub("aft", &s.AFT)
	d.optSub("promo", &s.Promo)
	d.optSub("test", &s.Test)
	d.optSub("per_game", &s.PerGame)
	d.field("games", false)
	s.Games = history(d, d.gameHistory)
	d.field("events", false)
	s.Events = history(d, d.event)
	d.field("bills", false)
	s.Bills = history(d, d.moneyIn)
	d.field("handpays", false)
	s.Handpays = history(d, d.handpayHistory)
	d.optSub("tito", &s.TITO)
	d.optSub("poker", &s.Poker)
	if !d.end() || d.bad {
		return nil, false
	}
	return s, true
}
