package meters

import "math"

// The records of a game are most of a log, and start-up and verification
// decode every one. decodeFast reads them without reflection, and only in
// the exact form Encode (encoding/json) writes them: the fields in the
// struct's order, each at most once, strings of printable ASCII without
// escapes, integers in their shortest form, nothing after the object. Any
// other payload, however valid, goes to encoding/json as before, so a
// record decodes to the same value, or fails with the same error, either
// way (FuzzDecode holds the two to it).

// lexer reads one canonical JSON payload; ok turns false at the first byte
// it does not expect, and every later read then fails too.
type lexer struct {
	b  []byte
	i  int
	ok bool
}

// lit reads the bytes s.
func (l *lexer) lit(s string) bool {
	if !l.ok || len(l.b)-l.i < len(s) || string(l.b[l.i:l.i+len(s)]) != s {
		l.ok = false
		return false
	}
	l.i += len(s)
	return true
}

// peek says whether the bytes s come next, without reading them.
func (l *lexer) peek(s string) bool {
	return l.ok && len(l.b)-l.i >= len(s) && string(l.b[l.i:l.i+len(s)]) == s
}

// field reads `,"name":` (first: `"name":`).
func (l *lexer) field(name string, first bool) bool {
	if !first && !l.lit(",") {
		return false
	}
	return l.lit(`"`) && l.lit(name) && l.lit(`":`)
}

// optional reads `,"name":` when it comes next.
func (l *lexer) optional(name string) bool {
	j := l.i + 2 + len(name)
	if !l.peek(`,"`) || len(l.b) < j+2 || string(l.b[l.i+2:j]) != name || string(l.b[j:j+2]) != `":` {
		return false
	}
	l.i = j + 2
	return true
}

// uint reads an unsigned integer in its shortest form.
func (l *lexer) uint() uint64 {
	if !l.ok || l.i == len(l.b) || l.b[l.i] < '0' || l.b[l.i] > '9' {
		l.ok = false
		return 0
	}
	if l.b[l.i] == '0' {
		l.i++
		if l.i < len(l.b) && l.b[l.i] >= '0' && l.b[l.i] <= '9' {
			l.ok = false
		}
		return 0
	}
	var v uint64
	for l.i < len(l.b) && l.b[l.i] >= '0' && l.b[l.i] <= '9' {
		d := uint64(l.b[l.i] - '0')
		if v > (math.MaxUint64-d)/10 {
			l.ok = false
			return 0
		}
		v = v*10 + d
		l.i++
	}
	return v
}

// int64 reads a signed integer in its shortest form ("-0" is not one).
func (l *lexer) int64() int64 {
	neg := l.ok && l.i < len(l.b) && l.b[l.i] == '-'
	if neg {
		l.i++
	}
	u := l.uint()
	switch {
	case !l.ok || neg && u == 0:
		l.ok = false
		return 0
	case neg && u <= 1<<63:
		return int64(-u)
	case !neg && u <= math.MaxInt64:
		return int64(u)
	}
	l.ok = false
	return 0
}

// int reads an int: in range for this platform's int, or the payload goes
// to encoding/json (which refuses it).
func (l *lexer) int() int {
	v := l.int64()
	if v < math.MinInt || v > math.MaxInt {
		l.ok = false
		return 0
	}
	return int(v)
}

// str reads a string of printable ASCII without escapes.
func (l *lexer) str() string {
	if !l.lit(`"`) {
		return ""
	}
	start := l.i
	for l.i < len(l.b) {
		c := l.b[l.i]
		if c == '"' {
			s := string(l.b[start:l.i])
			l.i++
			return s
		}
		if c < 0x20 || c > 0x7e || c == '\\' {
			break
		}
		l.i++
	}
	l.ok = false
	return ""
}

func (l *lexer) bool() bool {
	switch {
	case l.peek("true"):
		l.i += 4
		return true
	case l.peek("false"):
		l.i += 5
		return false
	}
	l.ok = false
	return false
}

// ints reads a list of ints: null is nil, [] an empty list.
func (l *lexer) ints() []int {
	n := 1 // the list's length, if it is one: its commas, and one
	for j := l.i; j < len(l.b) && l.b[j] != ']'; j++ {
		if l.b[j] == ',' {
			n++
		}
	}
	return list(l, n, l.int)
}

// list reads a JSON list of what read reads, n long at a guess: null is
// nil, [] an empty list.
func list[T any](l *lexer, n int, read func() T) []T {
	if l.peek("null") {
		l.i += 4
		return nil
	}
	if !l.lit("[") {
		return nil
	}
	v := make([]T, 0, n)
	if l.peek("]") {
		l.i++
		return v
	}
	for l.ok {
		v = append(v, read())
		if l.peek("]") {
			l.i++
			return v
		}
		l.lit(",")
	}
	return nil
}

// levelAmounts reads a list of LevelAmount objects.
func (l *lexer) levelAmounts() []LevelAmount {
	return list(l, 0, func() LevelAmount {
		var a LevelAmount
		l.lit("{")
		l.field("level", true)
		a.Level = l.int()
		l.field("millicents", false)
		a.Millicents = l.int64()
		l.lit("}")
		return a
	})
}

// end reads the closing brace, which must end the payload.
func (l *lexer) end() bool {
	return l.lit("}") && l.i == len(l.b)
}

// decodeFast decodes the records of a game in Encode's form; ok false
// sends the payload to encoding/json. The record is not validated.
func decodeFast(t Type, data []byte) (r Record, ok bool) {
	l := &lexer{b: data, ok: true}
	switch t {
	case TypeGameStart:
		// A table hand ("hand") goes to encoding/json.
		r = l.gameStart()
	case TypeFreeGame:
		r = l.freeGame()
	case TypeGameEnd:
		r = l.gameEnd()
	default:
		return nil, false
	}
	if !l.end() {
		return nil, false
	}
	return r, true
}

// gameStart reads a GameStart object up to its closing brace (not read:
// a state's game history may have its table hand there).
func (l *lexer) gameStart() GameStart {
	var g GameStart
	l.lit("{")
	l.field("at", true)
	g.At = l.int64()
	l.field("game", false)
	g.Game = l.uint()
	l.field("paytable", false)
	g.Paytable = l.str()
	l.field("digest", false)
	g.Digest = l.str()
	l.field("denom", false)
	g.Denom = l.int64()
	l.field("level", false)
	g.Level = l.int()
	l.field("bet_credits", false)
	g.BetCredits = l.int64()
	l.field("bet_cents", false)
	g.BetCents = l.int64()
	l.field("stops", false)
	g.Stops = l.ints()
	l.field("win_cents", false)
	g.WinCents = l.int64()
	l.field("free_awarded", false)
	g.FreeAwarded = l.int()
	if l.optional("progressives") {
		g.Progressives = l.ints()
	}
	if l.optional("contributions") {
		g.Contributions = l.levelAmounts()
	}
	if l.optional("mystery") {
		g.Mystery = l.ints()
	}
	if l.optional("linked") {
		g.Linked = l.bool()
	}
	if l.optional("kind") {
		g.Kind = l.str()
	}
	return g
}

// freeGame reads a FreeGame object up to its closing brace.
func (l *lexer) freeGame() FreeGame {
	var g FreeGame
	l.lit("{")
	l.field("at", true)
	g.At = l.int64()
	l.field("game", false)
	g.Game = l.uint()
	l.field("index", false)
	g.Index = l.int()
	l.field("stops", false)
	g.Stops = l.ints()
	l.field("win_cents", false)
	g.WinCents = l.int64()
	l.field("awarded", false)
	g.Awarded = l.int()
	if l.optional("progressives") {
		g.Progressives = l.ints()
	}
	return g
}

// gameEnd reads a GameEnd object up to its closing brace.
func (l *lexer) gameEnd() GameEnd {
	var g GameEnd
	l.lit("{")
	l.field("at", true)
	g.At = l.int64()
	l.field("game", false)
	g.Game = l.uint()
	l.field("win_cents", false)
	g.WinCents = l.int64()
	l.field("handpay", false)
	g.Handpay = l.bool()
	return g
}
