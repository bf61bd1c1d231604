package meters

import (
	"bytes"
	"encoding/json"
	"strconv"
	"sync"
)

// A seal signs the digest of the state's encoding, and the commit that
// seals encodes the whole state on its way to the disk. Through
// encoding/json that is about 0.2 ms for the 73 KB of 250 reel games, and
// 0.65 ms for a state of 185 KB with a thousand events: its reflection is
// slow on the two largest histories, the games and the events.
// encodeState writes those two without reflection, in exactly the bytes
// encoding/json writes, and every other field through encoding/json as
// before; a game with a Makccarat hand, and any string encoding/json
// would escape, go to encoding/json. The seal's digest is the digest of
// the same bytes either way: TestEncodeStateIsJSON* and FuzzEncodeHistory
// hold the two to it, TestEncodeHistoryKnowsEveryField to the fields
// written.

// histAt is where the game and event histories sit in the encoding of a
// state without them: neither is ever omitted, so it is there once.
var histAt = []byte(`,"games":null,"events":null,"bills":`)

// encodeState is json.Marshal(s).
func encodeState(s *State) ([]byte, error) {
	if len(s.Games) == 0 && len(s.Events) == 0 {
		return json.Marshal(s)
	}
	w := restBufs.Get().(*bytes.Buffer)
	defer restBufs.Put(w)
	w.Reset()
	c := *s
	c.Games, c.Events = nil, nil
	if err := json.NewEncoder(w).Encode(&c); err != nil {
		return nil, err
	}
	rest := w.Bytes()[:w.Len()-1] // Encode's newline
	i := bytes.Index(rest, histAt)
	if i < 0 || bytes.Contains(rest[i+1:], histAt) {
		return json.Marshal(s)
	}
	// A reel game with its end is about 300 bytes, an event about 60: the
	// encoding is made in one allocation, as json.Marshal's is, unless
	// they are larger.
	out := make([]byte, 0, len(rest)+len(s.Games)*320+len(s.Events)*64)
	out = append(out, rest[:i]...)
	out = append(out, `,"games":`...)
	out, err := appendGames(out, s.Games)
	if err != nil {
		return nil, err
	}
	out = append(out, `,"events":`...)
	out = appendEvents(out, s.Events)
	return append(out, rest[i+len(`,"games":null,"events":null`):]...), nil
}

// restBufs hold the encoding of a state without its histories until they
// are put in: reused, so that a seal allocates little more than its
// encoding, as json.Marshal did.
var restBufs = sync.Pool{New: func() any { return new(bytes.Buffer) }}

// appendGames appends the game history (nil: null).
func appendGames(b []byte, games []GameHistory) ([]byte, error) {
	if games == nil {
		return append(b, "null"...), nil
	}
	b = append(b, '[')
	for k := range games {
		if k > 0 {
			b = append(b, ',')
		}
		var err error
		if b, err = appendGame(b, &games[k]); err != nil {
			return nil, err
		}
	}
	return append(b, ']'), nil
}

// appendEvents appends the event history (nil: null), each event as
// encoding/json writes it.
func appendEvents(b []byte, events []Event) []byte {
	if events == nil {
		return append(b, "null"...)
	}
	b = append(b, '[')
	for k := range events {
		e := &events[k]
		if k > 0 {
			b = append(b, ',')
		}
		b = intField(b, `{"at":`, e.At)
		b = append(b, `,"code":`...)
		b = appendString(b, e.Code)
		b = appendOptString(b, `,"door":`, e.Door)
		b = appendOptString(b, `,"tilt":`, e.Tilt)
		b = appendOptString(b, `,"detail":`, e.Detail)
		b = appendOptString(b, `,"who":`, e.Who)
		b = appendOptString(b, `,"role":`, e.Role)
		b = appendOptString(b, `,"action":`, e.Action)
		b = appendOptString(b, `,"key":`, e.Key)
		b = appendOptString(b, `,"value":`, e.Value)
		if e.Cents != 0 {
			b = intField(b, `,"cents":`, e.Cents)
		}
		b = appendOptString(b, `,"ref":`, e.Ref)
		b = append(b, '}')
	}
	return append(b, ']')
}

// appendOptString appends an omitempty string field: key and value, or
// nothing when it is "".
func appendOptString(b []byte, key, s string) []byte {
	if s == "" {
		return b
	}
	return appendString(append(b, key...), s)
}

// appendString appends s as encoding/json writes it: as it is between its
// quotes when plain, else through encoding/json itself.
func appendString(b []byte, s string) []byte {
	if plain(s) {
		b = append(b, '"')
		b = append(b, s...)
		return append(b, '"')
	}
	enc, _ := json.Marshal(s) // a string always encodes
	return append(b, enc...)
}

// appendGame appends g as encoding/json writes it: the fields in their
// order, omitempty as encoding/json has it (an empty slice, a nil pointer,
// false, ""), a nil slice without omitempty as null.
func appendGame(b []byte, g *GameHistory) ([]byte, error) {
	s := &g.Start
	if s.Hand != nil {
		enc, err := json.Marshal(g)
		return append(b, enc...), err
	}
	b = intField(b, `{"start":{"at":`, s.At)
	b = uintField(b, `,"game":`, s.Game)
	b = append(b, `,"paytable":`...)
	b = appendString(b, s.Paytable)
	b = append(b, `,"digest":`...)
	b = appendString(b, s.Digest)
	b = intField(b, `,"denom":`, s.Denom)
	b = intField(b, `,"level":`, int64(s.Level))
	b = intField(b, `,"bet_credits":`, s.BetCredits)
	b = intField(b, `,"bet_cents":`, s.BetCents)
	b = append(b, `,"stops":`...)
	b = appendInts(b, s.Stops)
	b = intField(b, `,"win_cents":`, s.WinCents)
	b = intField(b, `,"free_awarded":`, int64(s.FreeAwarded))
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
			b = intField(b, `{"level":`, int64(c.Level))
			b = intField(b, `,"millicents":`, c.Millicents)
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
	b = appendOptString(b, `,"kind":`, s.Kind)
	b = append(b, '}')
	if len(g.Free) > 0 {
		b = append(b, `,"free":[`...)
		for i := range g.Free {
			f := &g.Free[i]
			if i > 0 {
				b = append(b, ',')
			}
			b = intField(b, `{"at":`, f.At)
			b = uintField(b, `,"game":`, f.Game)
			b = intField(b, `,"index":`, int64(f.Index))
			b = append(b, `,"stops":`...)
			b = appendInts(b, f.Stops)
			b = intField(b, `,"win_cents":`, f.WinCents)
			b = intField(b, `,"awarded":`, int64(f.Awarded))
			if len(f.Progressives) > 0 {
				b = append(b, `,"progressives":`...)
				b = appendInts(b, f.Progressives)
			}
			b = append(b, '}')
		}
		b = append(b, ']')
	}
	if e := g.End; e != nil {
		b = intField(b, `,"end":{"at":`, e.At)
		b = uintField(b, `,"game":`, e.Game)
		b = intField(b, `,"win_cents":`, e.WinCents)
		b = append(b, `,"handpay":`...)
		b = strconv.AppendBool(b, e.Handpay)
		b = append(b, '}')
	}
	return append(b, '}'), nil
}

// intField and uintField append a number field: its key (with the comma
// before it and the colon) and its value.
func intField(b []byte, key string, v int64) []byte {
	return strconv.AppendInt(append(b, key...), v, 10)
}

func uintField(b []byte, key string, v uint64) []byte {
	return strconv.AppendUint(append(b, key...), v, 10)
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
