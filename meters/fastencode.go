package meters

import (
	"bytes"
	"encoding/json"
	"strconv"
	"sync"
)

// A seal signs the digest of the state's encoding, and the commit that
// seals encodes the whole state on its way to the disk: about 0.2 ms for
// the 73 KB of 250 reel games through encoding/json, whose reflection is
// slow on the game history. encodeState writes the game history without
// reflection (about 3 times faster), in exactly the bytes encoding/json
// writes, and every other field through encoding/json as before: a game
// it has any doubt about (a Makccarat hand, a string that encoding/json
// would escape) goes to encoding/json whole. The seal's digest is the
// digest of the same bytes either way (TestEncodeStateIsJSON and
// FuzzEncodeGame hold the two to it, TestEncodeGameKnowsEveryField to the
// fields it writes). The event history, as large in a machine with a
// thousand events, still goes through encoding/json.

// gamesAt is where the game history sits in the encoding of a state
// without it: Games and Events are never omitted, so it is there once.
var gamesAt = []byte(`,"games":null,"events":`)

// encodeState is json.Marshal(s).
func encodeState(s *State) ([]byte, error) {
	if len(s.Games) == 0 {
		return json.Marshal(s)
	}
	w := restBufs.Get().(*bytes.Buffer)
	defer restBufs.Put(w)
	w.Reset()
	c := *s
	c.Games = nil
	if err := json.NewEncoder(w).Encode(&c); err != nil {
		return nil, err
	}
	rest := w.Bytes()[:w.Len()-1] // Encode's newline
	i := bytes.Index(rest, gamesAt)
	if i < 0 || bytes.Contains(rest[i+1:], gamesAt) {
		return json.Marshal(s)
	}
	i += len(`,"games":`)
	// A reel game with its end is about 300 bytes: the encoding is made
	// in one allocation, as json.Marshal's is, unless the games are larger.
	out := make([]byte, 0, len(rest)+len(s.Games)*320)
	out = append(out, rest[:i]...)
	out = append(out, '[')
	for k := range s.Games {
		if k > 0 {
			out = append(out, ',')
		}
		var err error
		if out, err = appendGame(out, &s.Games[k]); err != nil {
			return nil, err
		}
	}
	out = append(out, ']')
	return append(out, rest[i+len("null"):]...), nil
}

// restBufs hold the encoding of a state without its game history until
// the history is put in: reused, so that a seal allocates little more than
// its encoding, as json.Marshal did.
var restBufs = sync.Pool{New: func() any { return new(bytes.Buffer) }}

// appendGame appends g as encoding/json writes it: the fields in their
// order, omitempty as encoding/json has it (an empty slice, a nil pointer,
// false, ""), a nil slice without omitempty as null.
func appendGame(b []byte, g *GameHistory) ([]byte, error) {
	s := &g.Start
	if s.Hand != nil || !plain(s.Paytable) || !plain(s.Digest) || !plain(s.Kind) {
		enc, err := json.Marshal(g)
		return append(b, enc...), err
	}
	b = append(b, `{"start":{"at":`...)
	b = strconv.AppendInt(b, s.At, 10)
	b = append(b, `,"game":`...)
	b = strconv.AppendUint(b, s.Game, 10)
	b = append(b, `,"paytable":"`...)
	b = append(b, s.Paytable...)
	b = append(b, `","digest":"`...)
	b = append(b, s.Digest...)
	b = append(b, `","denom":`...)
	b = strconv.AppendInt(b, s.Denom, 10)
	b = append(b, `,"level":`...)
	b = strconv.AppendInt(b, int64(s.Level), 10)
	b = append(b, `,"bet_credits":`...)
	b = strconv.AppendInt(b, s.BetCredits, 10)
	b = append(b, `,"bet_cents":`...)
	b = strconv.AppendInt(b, s.BetCents, 10)
	b = append(b, `,"stops":`...)
	b = appendInts(b, s.Stops)
	b = append(b, `,"win_cents":`...)
	b = strconv.AppendInt(b, s.WinCents, 10)
	b = append(b, `,"free_awarded":`...)
	b = strconv.AppendInt(b, int64(s.FreeAwarded), 10)
	if len(s.Progressives) > 0 {
		b = append(b, `,"progressives":`...)
		b = appendInts(b, s.Progressives)
	}
	if len(s.Contributions) > 0 {
		b = append(b, `,"contributions":[`...)
		for i, c := range s.Contributions {
			if i > 0 {
				b = append(b, ',')
			}
			b = append(b, `{"level":`...)
			b = strconv.AppendInt(b, int64(c.Level), 10)
			b = append(b, `,"millicents":`...)
			b = strconv.AppendInt(b, c.Millicents, 10)
			b = append(b, '}')
		}
		b = append(b, ']')
	}
	if len(s.Mystery) > 0 {
		b = append(b, `,"mystery":`...)
		b = appendInts(b, s.Mystery)
	}
	if s.Linked {
		b = append(b, `,"linked":true`...)
	}
	if s.Kind != "" {
		b = append(b, `,"kind":"`...)
		b = append(b, s.Kind...)
		b = append(b, '"')
	}
	b = append(b, '}')
	if len(g.Free) > 0 {
		b = append(b, `,"free":[`...)
		for i := range g.Free {
			f := &g.Free[i]
			if i > 0 {
				b = append(b, ',')
			}
			b = append(b, `{"at":`...)
			b = strconv.AppendInt(b, f.At, 10)
			b = append(b, `,"game":`...)
			b = strconv.AppendUint(b, f.Game, 10)
			b = append(b, `,"index":`...)
			b = strconv.AppendInt(b, int64(f.Index), 10)
			b = append(b, `,"stops":`...)
			b = appendInts(b, f.Stops)
			b = append(b, `,"win_cents":`...)
			b = strconv.AppendInt(b, f.WinCents, 10)
			b = append(b, `,"awarded":`...)
			b = strconv.AppendInt(b, int64(f.Awarded), 10)
			if len(f.Progressives) > 0 {
				b = append(b, `,"progressives":`...)
				b = appendInts(b, f.Progressives)
			}
			b = append(b, '}')
		}
		b = append(b, ']')
	}
	if e := g.End; e != nil {
		b = append(b, `,"end":{"at":`...)
		b = strconv.AppendInt(b, e.At, 10)
		b = append(b, `,"game":`...)
		b = strconv.AppendUint(b, e.Game, 10)
		b = append(b, `,"win_cents":`...)
		b = strconv.AppendInt(b, e.WinCents, 10)
		b = append(b, `,"handpay":`...)
		b = strconv.AppendBool(b, e.Handpay)
		b = append(b, '}')
	}
	return append(b, '}'), nil
}

// appendInts appends a []int as encoding/json writes it (nil: null).
func appendInts(b []byte, v []int) []byte {
	if v == nil {
		return append(b, "null"...)
	}
	b = append(b, '[')
	for i, n := range v {
		if i > 0 {
			b = append(b, ',')
		}
		b = strconv.AppendInt(b, int64(n), 10)
	}
	return append(b, ']')
}

// plain says whether encoding/json writes s as it is between its quotes:
// printable ASCII, none of which it escapes (" and \, and <, > and & for
// HTML).
func plain(s string) bool {
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c < 0x20 || c > 0x7e, c == '"', c == '\\', c == '<', c == '>', c == '&':
			return false
		}
	}
	return true
}
