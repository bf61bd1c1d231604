package sas

import (
	"context"
	"errors"
	"os"
	"sync"
	"time"
)

// Serve defaults.
const (
	// DefaultServePoll is how long Serve waits for input before it runs the
	// link's timers (link loss, chirps) again.
	DefaultServePoll = 10 * time.Millisecond
	// DefaultWriteTimeout bounds one write of a reply or chirp.
	DefaultWriteTimeout = time.Second
)

// ServeOptions configure Serve. The zero value is usable.
type ServeOptions struct {
	// Now is the clock that timestamps received bytes and drives the link
	// timers (inter-byte gap, 5 s link loss, 200 ms chirps). Nil means
	// time.Now. Read deadlines always use the real clock.
	Now func() time.Time
	// Poll is the longest Serve blocks in a read before it looks at the
	// clock again (DefaultServePoll if zero). Input is handled as soon as
	// it arrives, whatever Poll is.
	Poll time.Duration
	// WriteTimeout bounds each write (DefaultWriteTimeout if zero). A write
	// that fails or times out ends Serve with its error.
	WriteTimeout time.Duration
	// Lock, if not nil, is held whenever Serve calls into the link
	// (Receive, which calls the Handler; Tick; Chirp) and while OnEvent
	// runs. Other goroutines touching the link (Exceptions.Push,
	// Link.Defer) must hold it too. The Handler and OnEvent must not take
	// it.
	Lock sync.Locker
	// OnEvent, if not nil, is called for every Event that is not empty
	// (Kind other than EventNone, or Acked, LinkUp or LinkDown set), after
	// the reply it goes with has been written, with Lock held. When
	// Event.AckedException is not ExcNone the exception queue has changed:
	// persist it here.
	OnEvent func(Event)
	// Trace, if not nil, sees every chunk of bytes read (rx true) and
	// written (rx false) with the time, for logs and tests. It must not
	// keep b.
	Trace func(rx bool, b []byte, at time.Time)
}

func (o *ServeOptions) defaults() {
	if o.Now == nil {
		o.Now = time.Now
	}
	if o.Poll <= 0 {
		o.Poll = DefaultServePoll
	}
	if o.WriteTimeout <= 0 {
		o.WriteTimeout = DefaultWriteTimeout
	}
	if o.Lock == nil {
		o.Lock = noLock{}
	}
}

type noLock struct{}

func (noLock) Lock()   {}
func (noLock) Unlock() {}

// Serve runs the machine side of SAS on port until ctx is done (it then
// returns ctx.Err()) or the port fails (it returns the error; io.EOF when a
// stream peer closes). It does not close the port. It starts no goroutine.
//
// The loop reads with a read deadline of Poll, timestamps what arrived with
// opts.Now, feeds it to a Framer in the given mode (0: port.Framing()),
// passes each complete poll to link.Receive and writes the reply at once,
// in one Write; then it applies the link timeout (link.Tick) and, while the
// link is down, chirps: link.Addr() with the wakeup bit (port.WriteWakeup)
// every ChirpInterval.
//
// The link is not safe for concurrent use: see ServeOptions.Lock.
func Serve(ctx context.Context, port Port, link *Link, mode FramerMode, opts ServeOptions) error {
	opts.defaults()
	if mode == 0 {
		mode = port.Framing()
	}
	s := server{port: port, link: link, opts: opts, framer: NewFramer(mode)}
	s.wd, _ = port.(writeDeadliner)
	return s.run(ctx)
}

type server struct {
	port   Port
	wd     writeDeadliner
	link   *Link
	opts   ServeOptions
	framer *Framer
}

func (s *server) run(ctx context.Context) error {
	buf := make([]byte, 1024)
	for {
		if err := ctx.Err(); err != nil {
			return err
		}
		if err := s.port.SetReadDeadline(time.Now().Add(s.opts.Poll)); err != nil {
			return err
		}
		n, rerr := s.port.Read(buf)
		now := s.opts.Now()
		if n > 0 {
			if s.opts.Trace != nil {
				s.opts.Trace(true, buf[:n], now)
			}
			for _, f := range s.framer.Feed(buf[:n], now) {
				if err := s.receive(f, now); err != nil {
					return err
				}
			}
		} else {
			s.framer.Feed(nil, now)
		}
		if err := s.timers(now); err != nil {
			return err
		}
		if rerr != nil && !errors.Is(rerr, os.ErrDeadlineExceeded) {
			return rerr
		}
	}
}

// receive passes one poll to the link and sends the reply.
func (s *server) receive(f Frame, now time.Time) error {
	s.opts.Lock.Lock()
	reply, ev := s.link.Receive(f, now)
	s.opts.Lock.Unlock()
	if len(reply) > 0 {
		if err := s.write(reply, false); err != nil {
			return err
		}
	}
	s.event(ev)
	return nil
}

// timers applies the link timeout and sends a chirp when one is due.
func (s *server) timers(now time.Time) error {
	s.opts.Lock.Lock()
	ev := s.link.Tick(now)
	chirp := s.link.Chirp(now)
	addr := s.link.Addr()
	s.opts.Lock.Unlock()
	s.event(ev)
	if chirp && addr != GlobalAddr {
		return s.write([]byte{addr}, true)
	}
	return nil
}

func (s *server) event(ev Event) {
	if s.opts.OnEvent == nil || ev.Kind == EventNone && !ev.Acked && !ev.LinkUp && !ev.LinkDown {
		return
	}
	s.opts.Lock.Lock()
	defer s.opts.Lock.Unlock()
	s.opts.OnEvent(ev)
}

func (s *server) write(b []byte, wakeup bool) error {
	if s.wd != nil {
		if err := s.wd.SetWriteDeadline(time.Now().Add(s.opts.WriteTimeout)); err != nil {
			return err
		}
	}
	var err error
	if wakeup {
		err = s.port.WriteWakeup(b[0])
	} else {
		_, err = s.port.Write(b)
	}
	if s.opts.Trace != nil && err == nil {
		s.opts.Trace(false, b, s.opts.Now())
	}
	return err
}
