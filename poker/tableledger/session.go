package tableledger

import (
	"bytes"
	"encoding/json"
	"fmt"
	"time"

	"github.com/openegm/cabinet/poker"
	"github.com/openegm/cabinet/poker/tabledef"
	"github.com/openegm/cabinet/rng"
)

// Draws is the random source of a table's engine: the certified RNG while
// the table plays, every value it gives kept for the step's record; the
// values a step recorded when the step is replayed, so a replay deals the
// same cards without drawing again (DESIGN rule 2).
type Draws struct {
	live   rng.Source
	replay []uint64
	got    []uint64
	err    error
}

// Uint64n is the next value below n.
func (d *Draws) Uint64n(n uint64) uint64 {
	if d.replay == nil {
		v := d.live.Uint64n(n)
		d.got = append(d.got, v)
		return v
	}
	if len(d.replay) == 0 {
		d.err = fmt.Errorf("the engine drew more values than the step recorded")
		return 0
	}
	v := d.replay[0]
	d.replay = d.replay[1:]
	if v >= n {
		d.err = fmt.Errorf("the step recorded the draw %d where the engine drew below %d", v, n)
		return 0
	}
	return v
}

// Session is one session of a table: its definition and its engine, which
// steps live (recording the draws) or replays logged steps.
type Session struct {
	Table   string
	Number  int
	Opened  uint64 // the log sequence of the session's Open record
	Def     *tabledef.Definition
	Engine  tabledef.Engine
	draws   *Draws
	last    time.Time
	inHand  bool
	handEnd time.Time
	over    bool
}

// NewSession starts the engine of a session; live is the certified RNG
// (nil for a session that is only replayed).
func NewSession(table string, number int, opened uint64, def *tabledef.Definition, live rng.Source) (*Session, error) {
	d := &Draws{live: live}
	e, err := def.NewEngine(d)
	if err != nil {
		return nil, err
	}
	return &Session{Table: table, Number: number, Opened: opened, Def: def, Engine: e, draws: d}, nil
}

// SessionOf starts the session a SessionOpen record opened (at log sequence
// seq).
func SessionOf(o SessionOpen, seq uint64, live rng.Source) (*Session, error) {
	def, err := tabledef.Parse(o.Table, o.Definition)
	if err != nil {
		return nil, err
	}
	return NewSession(o.Table, o.Session, seq, def, live)
}

// Step steps the engine live with ev. It returns the step to commit (nil
// when the event changed nothing worth a record: a tick that took no
// decision) and the engine's records; a refused event changes nothing and
// returns its error. An error with records means the engine stopped for
// good.
func (s *Session) Step(ev poker.Event, tr *Transfer) (*Step, []poker.Record, error) {
	if at := ev.When(); at.Before(s.last) {
		return nil, nil, fmt.Errorf("event at %s is before the table's last step", at.Format(time.RFC3339Nano))
	}
	s.draws.got, s.draws.replay = nil, nil
	recs, err := s.Engine.Step(ev)
	if err != nil {
		return nil, recs, err
	}
	if _, tick := ev.(poker.Tick); tick && len(recs) == 0 {
		return nil, nil, nil
	}
	s.note(ev.When(), recs)
	return &Step{Table: s.Table, Session: s.Number, Opened: s.Opened, Event: EventOf(ev), Draws: s.draws.got,
		Transfer: tr, Records: recs}, recs, nil
}

// Replay steps the engine with a logged step and requires the records the
// log holds, byte for byte.
func (s *Session) Replay(st Step) error {
	ev, err := st.Event.Poker()
	if err != nil {
		return err
	}
	s.draws.replay, s.draws.err = append([]uint64{}, st.Draws...), nil
	recs, err := s.Engine.Step(ev)
	left, derr := len(s.draws.replay), s.draws.err
	s.draws.replay = nil
	switch {
	case err != nil:
		return fmt.Errorf("the engine refuses the logged %s: %w", st.Event.Kind, err)
	case derr != nil:
		return derr
	case left > 0:
		return fmt.Errorf("the engine drew %d values fewer than the step recorded", left)
	}
	got, _ := json.Marshal(recs)
	want, _ := json.Marshal(st.Records)
	if len(recs) == 0 && len(st.Records) == 0 {
		got, want = nil, nil
	}
	if !bytes.Equal(got, want) {
		return fmt.Errorf("the engine's records differ from the log's:\n engine %s\n    log %s", got, want)
	}
	s.note(ev.When(), recs)
	return nil
}

func (s *Session) note(at time.Time, recs []poker.Record) {
	s.last = at
	for _, r := range recs {
		switch r.Kind {
		case poker.KindHandStart:
			s.inHand = true
		case poker.KindHandEnd, poker.KindVoid:
			s.inHand, s.handEnd = false, at
		case poker.KindEnd:
			s.over = true
		}
	}
}

// InHand reports whether a hand is in play.
func (s *Session) InHand() bool { return s.inHand }

// HandEnded is when the last hand ended (zero: none yet).
func (s *Session) HandEnded() time.Time { return s.handEnd }

// Over reports whether the session's partida is over (synthetic poker).
func (s *Session) Over() bool { return s.over }

// Last is the time of the last step.
func (s *Session) Last() time.Time { return s.last }
