// Package tableserver runs poker and chemin de fer tables for their seats
// (cmd/tablesrv): each table's engine (poker/holdem, poker/synthetic,
// poker/chemin) from its approved
// definition, every step committed to the server's ledger
// (poker/tableledger) before anything of it is shown, money moving in and
// out only as transfers identified by their owner's ID and applied exactly
// once, the decision timer and the deal, and the resumption of every table
// after the server stopped (a hand in play is void and its stakes
// returned: SRIJ rule 86). Seats are browsers (the page and the WebSocket
// of http.go) and, through the same transfer API, cabinets.
package tableserver

import (
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"regexp"
	"slices"
	"sort"
	"sync"
	"time"

	"github.com/openegm/cabinet/poker"
	"github.com/openegm/cabinet/poker/chemin"
	"github.com/openegm/cabinet/poker/tabledef"
	"github.com/openegm/cabinet/poker/tableledger"
	"github.com/openegm/cabinet/rng"
)

// Options configure a server.
type Options struct {
	// Tables are the approved definitions to run; each table is named by
	// its definition's ID.
	Tables []*tabledef.Certified
	// RNG is the certified RNG the cards come from.
	RNG rng.Source
	// Now is the clock (nil: the system's, in UTC).
	Now func() time.Time
	// HandPause is the time between the end of a hand and the next deal
	// (0: 3 s), so the players see the showdown.
	HandPause time.Duration
	// SeatKey signs the seat tokens (seat.go); at least 32 bytes.
	SeatKey []byte
	Log     *slog.Logger
	// Closing is the operator's closing hour for a partida that began
	// (its first player seated at an empty table) at a time: a chemin de
	// fer table is told it when it comes, and plays rule 107's close
	// (DailyClosing; nil: the tables keep no closing hour).
	Closing func(began time.Time) time.Time
}

// DailyClosing is the closing hour of a casino that closes every day at
// hh:mm in loc (its local time, summer time included): the first hh:mm
// after the partida began.
func DailyClosing(hh, mm int, loc *time.Location) func(time.Time) time.Time {
	return func(began time.Time) time.Time {
		b := began.In(loc)
		c := time.Date(b.Year(), b.Month(), b.Day(), hh, mm, 0, 0, loc)
		if !c.After(b) {
			c = time.Date(b.Year(), b.Month(), b.Day()+1, hh, mm, 0, 0, loc)
		}
		return c.UTC()
	}
}

// Error is a refused request: Status is the HTTP status that fits it.
type Error struct {
	Status int
	Msg    string
}

func (e *Error) Error() string { return e.Msg }

func refused(status int, format string, a ...any) *Error {
	return &Error{Status: status, Msg: fmt.Sprintf(format, a...)}
}

// Server runs the tables. Its methods are safe for concurrent use: one
// mutex serialises every step of every table and its commit.
type Server struct {
	mu     sync.Mutex
	opts   Options
	led    *tableledger.Ledger
	tables map[string]*table
	fault  error
	log    *slog.Logger
}

type table struct {
	id      string
	cert    *tabledef.Certified // the configured definition (nil: not configured, closing)
	sess    *tableledger.Session
	fault   error
	lastTry time.Time // the last deal refused (retried after the pause)
	subs    map[*subscriber]bool
	current []poker.Record // the hand in play's records so far
	last    []poker.Record // the last hand's, from its start to its end
	says    []poker.Record // a chemin de fer table's announcements: the coup in play's and since the last
	began   time.Time      // when the partida began: the first player seated at the empty table (zero: empty)
}

// seated follows when the table's partida began: a step that leaves it
// empty ends it, the next that seats a player begins the next. Replayed
// steps rebuild it as the live ones made it.
func (t *table) seated(at time.Time) {
	switch {
	case len(t.sess.Engine.View("").Seats) == 0:
		t.began = time.Time{}
	case t.began.IsZero():
		t.began = at
	}
}

// closingDue is the closing hour a chemin de fer table is to be told now
// (false: none).
func (s *Server) closingDue(t *table, now time.Time) (time.Time, bool) {
	ce, ok := t.sess.Engine.(*tabledef.CheminEngine)
	if !ok || s.opts.Closing == nil || t.began.IsZero() || ce.Phase() == chemin.Closed {
		return time.Time{}, false
	}
	if told, _ := ce.Closing(); !told.IsZero() {
		return time.Time{}, false
	}
	hour := s.opts.Closing(t.began)
	return hour, !now.Before(hour)
}

// Open starts the server on its ledger: every table with players is
// resumed (its session replayed from the log, then a Resume step voids the
// hand the stop cut), every empty one closed, every configured one opened.
func Open(led *tableledger.Ledger, opts Options) (*Server, error) {
	if opts.Now == nil {
		opts.Now = func() time.Time { return time.Now().UTC().Round(0) }
	}
	if opts.HandPause == 0 {
		opts.HandPause = 3 * time.Second
	}
	if opts.Log == nil {
		opts.Log = slog.New(slog.DiscardHandler)
	}
	if len(opts.SeatKey) < 32 {
		return nil, errors.New("table server: a seat key of at least 32 bytes is required")
	}
	s := &Server{opts: opts, led: led, tables: map[string]*table{}, log: opts.Log}
	configured := map[string]*tabledef.Certified{}
	for _, c := range opts.Tables {
		if configured[c.ID] != nil {
			return nil, fmt.Errorf("table %q is configured twice", c.ID)
		}
		configured[c.ID] = c
	}
	var resume []string
	var from uint64
	led.View(func(st *tableledger.State) {
		for _, id := range st.TableIDs() {
			t := st.Tables[id]
			if t.Open && t.Opened != 0 && (len(t.Players) > 0 || t.Carried > 0 || t.Hand != 0) {
				resume = append(resume, id)
				if from == 0 || t.Opened < from {
					from = t.Opened
				}
			}
		}
	})
	if err := s.replay(resume, from, configured); err != nil {
		return nil, err
	}
	now := opts.Now()
	for _, id := range resume {
		t := s.tables[id]
		if _, err := s.step(t, poker.Resume{At: s.at(t, now)}, nil); err != nil {
			return nil, fmt.Errorf("table %s: resuming: %w", id, err)
		}
	}
	// Empty sessions close; configured tables without an open session open.
	var closing []tableledger.SessionClose
	led.View(func(st *tableledger.State) {
		for _, id := range st.TableIDs() {
			if t := st.Tables[id]; t.Open && s.tables[id] == nil {
				closing = append(closing, tableledger.SessionClose{Table: id, Session: t.Session, At: now, Reason: "empty at start-up"})
			}
		}
	})
	for _, c := range closing {
		if _, err := led.Commit(c); err != nil {
			return nil, err
		}
	}
	ids := make([]string, 0, len(configured))
	for id := range configured {
		ids = append(ids, id)
	}
	sort.Strings(ids)
	for _, id := range ids {
		if s.tables[id] != nil {
			continue
		}
		if err := s.openSession(id, configured[id], now); err != nil {
			return nil, err
		}
	}
	return s, nil
}

// replay rebuilds the engines of the tables to resume from the log, from
// their sessions' Open records on.
func (s *Server) replay(ids []string, from uint64, configured map[string]*tabledef.Certified) error {
	if len(ids) == 0 {
		return nil
	}
	want := map[string]int{}
	s.led.View(func(st *tableledger.State) {
		for _, id := range ids {
			want[id] = st.Tables[id].Session
		}
	})
	err := s.led.Since(from-1, func(seq uint64, r tableledger.Record) error {
		switch x := r.(type) {
		case tableledger.SessionOpen:
			if want[x.Table] != x.Session {
				return nil
			}
			sess, err := tableledger.SessionOf(x, seq, s.opts.RNG)
			if err != nil {
				return fmt.Errorf("table %s session %d: %w", x.Table, x.Session, err)
			}
			// A table no longer configured plays on until it is empty; a
			// new version of its definition takes effect then (SRIJ rules
			// 28-29): the session keeps its own.
			t := &table{id: x.Table, cert: configured[x.Table], sess: sess, subs: map[*subscriber]bool{}}
			if t.cert != nil && t.cert.Digest != x.Digest {
				s.log.Info("a new definition waits until the table is empty", "table", x.Table, "running", x.Digest, "configured", t.cert.Digest)
			}
			s.tables[x.Table] = t
		case tableledger.Step:
			t := s.tables[x.Table]
			if t == nil || want[x.Table] != x.Session {
				return nil
			}
			if err := t.sess.Replay(x); err != nil {
				return fmt.Errorf("table %s: replaying record %d: %w", x.Table, seq, err)
			}
			t.observe(x.Records)
			t.seated(x.Event.At)
		}
		return nil
	})
	if err != nil {
		return fmt.Errorf("the program cannot resume its tables from the ledger: %w", err)
	}
	for _, id := range ids {
		if s.tables[id] == nil {
			return fmt.Errorf("table %s: its session's open record was not found", id)
		}
	}
	return nil
}

// openSession opens a new session of a configured table.
func (s *Server) openSession(id string, c *tabledef.Certified, now time.Time) error {
	session := 1
	s.led.View(func(st *tableledger.State) {
		if t := st.Tables[id]; t != nil {
			session = t.Session + 1
		}
	})
	o := tableledger.SessionOpen{Table: id, Session: session, At: now, Definition: c.Data, Signature: c.Sig, Digest: c.Digest, KeyID: c.KeyID}
	rec, err := s.commit(o)
	if err != nil {
		return err
	}
	sess, err := tableledger.NewSession(id, session, rec, c.Definition, s.opts.RNG)
	if err != nil {
		return err
	}
	old := s.tables[id]
	t := &table{id: id, cert: c, sess: sess, subs: map[*subscriber]bool{}}
	if old != nil {
		t.subs = old.subs // the same table's seats and spectators watch the new session
	}
	s.tables[id] = t
	return nil
}

func (s *Server) commit(r tableledger.Record) (uint64, error) {
	rec, err := s.led.Commit(r)
	if err != nil {
		if s.fault == nil {
			s.fault = err
			s.log.Error("ledger fault: every table stops", "err", err)
		}
		return 0, refused(http.StatusServiceUnavailable, "out of service: %v", err)
	}
	return rec.Seq, nil
}

// at is the time of an event at a table: now, never before its last step.
func (s *Server) at(t *table, now time.Time) time.Time {
	if last := t.sess.Last(); now.Before(last) {
		return last
	}
	return now
}

// step steps a table's engine and commits the step before anything is
// shown. A refused event changes nothing.
func (s *Server) step(t *table, ev poker.Event, tr *tableledger.Transfer) ([]poker.Record, error) {
	switch {
	case s.fault != nil:
		return nil, refused(http.StatusServiceUnavailable, "out of service: %v", s.fault)
	case t.fault != nil:
		return nil, refused(http.StatusServiceUnavailable, "table %s is stopped: %v", t.id, t.fault)
	}
	st, recs, err := t.sess.Step(ev, tr)
	if err != nil {
		if len(recs) > 0 || t.sess.Engine.Fault() != nil {
			// The engine stopped for good: what it did is not committed, so
			// a restart resumes the table from before this event.
			t.fault = err
			s.log.Error("table stopped", "table", t.id, "err", err)
			s.commit(tableledger.ServerEvent{At: ev.When(), Code: tableledger.EventTableFault, Detail: t.id + ": " + err.Error()})
			return nil, refused(http.StatusServiceUnavailable, "table %s is stopped: %v", t.id, err)
		}
		return nil, refused(http.StatusConflict, "%v", err)
	}
	if st == nil {
		return nil, nil
	}
	if _, err := s.commit(*st); err != nil {
		return nil, err
	}
	t.observe(recs)
	t.seated(ev.When())
	s.left(t, recs)
	s.publish(t)
	return recs, nil
}

// observe keeps the hand in play's records and the last hand's.
func (t *table) observe(recs []poker.Record) {
	for _, r := range recs {
		if r.Kind == poker.KindHandStart {
			t.says = slices.DeleteFunc(t.says, func(x poker.Record) bool { return x.Hand != 0 })
		}
		if r.Kind == chemin.KindAnnounce {
			t.says = append(t.says, r)
			if len(t.says) > maxSays {
				t.says = slices.Clone(t.says[len(t.says)-maxSays:])
			}
		}
		if r.Hand == 0 {
			continue
		}
		if r.Kind == poker.KindHandStart {
			t.current = nil
		}
		t.current = append(t.current, r)
		if r.Kind == poker.KindHandEnd || r.Kind == poker.KindVoid {
			t.last, t.current = t.current, nil
		}
	}
}

// Pump does what time does at every table: a decision whose time is over
// is taken (the decision timer), the next hand is dealt after the pause,
// an empty table's session closes and a new one opens. cmd/tablesrv calls
// it a few times a second; tests call it with their clock.
func (s *Server) Pump() {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.fault != nil {
		return
	}
	now := s.opts.Now()
	for _, id := range s.tableIDs() {
		t := s.tables[id]
		if t.fault != nil {
			continue
		}
		if hour, due := s.closingDue(t, now); due {
			// Told before the timer or the deal: a decision whose time ran
			// out past the hour is taken after it, as the dealer would.
			if _, err := s.step(t, poker.Closing{At: s.at(t, now), Hour: hour}, nil); err != nil {
				s.log.Error("closing hour refused", "table", t.id, "err", err)
			}
			continue
		}
		d := t.sess.Engine.View("").Deadline
		if !d.IsZero() && !now.Before(d) {
			s.step(t, poker.Tick{At: s.at(t, now)}, nil)
			continue
		}
		if !d.IsZero() {
			// A decision is asked (between a chemin de fer table's coups
			// too: the bank to state, the banker's choice, a passed hand,
			// the auction): the table waits for it, or for its timer.
			continue
		}
		if t.sess.InHand() || t.sess.Over() {
			s.rotate(t, now)
			continue
		}
		ready := t.sess.HandEnded().Add(s.opts.HandPause)
		if now.Before(ready) || now.Before(t.lastTry.Add(s.opts.HandPause)) || s.present(t) < t.sess.Def.MinPlayers() {
			s.rotate(t, now)
			continue
		}
		if _, err := s.step(t, poker.Deal{At: s.at(t, now)}, nil); err != nil {
			t.lastTry = now
			s.log.Debug("no deal", "table", t.id, "why", err)
		}
	}
}

// present counts the seated players who are not resting.
func (s *Server) present(t *table) int {
	n := 0
	for _, sv := range t.sess.Engine.View("").Seats {
		if !sv.Resting {
			n++
		}
	}
	return n
}

// rotate closes the session of a table left empty and opens a new one: a
// synthetic-poker partida is over, a hold'em table starts again from seat 1
// with the definition now configured (SRIJ rules 28-29), and a restart
// has no steps of the old session to replay.
func (s *Server) rotate(t *table, now time.Time) {
	var empty bool
	var steps uint64
	var session int
	s.led.View(func(st *tableledger.State) {
		lt := st.Tables[t.id]
		empty = lt != nil && lt.Open && len(lt.Players) == 0 && lt.Hand == 0 && lt.Carried == 0 && lt.InPot == 0
		if lt != nil {
			steps, session = lt.Step, lt.Session
		}
	})
	if !empty || steps == 0 {
		return
	}
	reason := "the table is empty"
	if t.sess.Over() {
		reason = "the partida is over and the table empty"
	}
	if _, err := s.commit(tableledger.SessionClose{Table: t.id, Session: session, At: s.at(t, now), Reason: reason}); err != nil {
		return
	}
	if t.cert == nil {
		for sub := range t.subs {
			sub.close()
		}
		delete(s.tables, t.id)
		return
	}
	if err := s.openSession(t.id, t.cert, s.at(t, now)); err == nil {
		s.publish(s.tables[t.id])
	}
}

// maxSays bounds the announcements a chemin de fer table's state carries.
const maxSays = 40

func (s *Server) tableIDs() []string {
	ids := make([]string, 0, len(s.tables))
	for id := range s.tables {
		ids = append(ids, id)
	}
	sort.Strings(ids)
	return ids
}

// Close records an orderly stop.
func (s *Server) Close() {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, t := range s.tables {
		for sub := range t.subs {
			sub.close()
		}
	}
	if s.fault == nil {
		s.commit(tableledger.ServerEvent{At: s.opts.Now(), Code: tableledger.EventStop})
	}
}

// Fault is why the server stopped, or nil.
func (s *Server) Fault() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.fault
}

var (
	idPattern     = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9._:@-]{0,99}$`)
	playerPattern = regexp.MustCompile(`^[\p{L}\p{N}][\p{L}\p{N} ._-]{0,31}$`)
)
