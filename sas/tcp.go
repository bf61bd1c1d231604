package sas

import (
	"context"
	"errors"
	"net"
)

// ServeListener serves link over the connections accepted on ln (a serial
// server, or a host tool, connecting over TCP), one at a time: each with
// Serve in the given mode (0: ModeContent). A new connection replaces the
// one being served (a serial server that reconnects after a network fault
// leaves a half-open connection behind that would otherwise never end);
// the link, and so its exception queue and pending reply, carries over.
//
// ServeListener owns ln: it closes it, and every connection, before it
// returns. It returns ctx.Err() when ctx is done and the accept error if
// accepting fails. The goroutines it starts have all ended when it returns.
func ServeListener(ctx context.Context, ln net.Listener, link *Link, mode FramerMode, opts ServeOptions) error {
	if mode == 0 {
		mode = ModeContent
	}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()

	conns := make(chan net.Conn)
	acceptDone := make(chan error, 1)
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				acceptDone <- err
				return
			}
			select {
			case conns <- c:
			case <-ctx.Done():
				c.Close()
				acceptDone <- ctx.Err()
				return
			}
		}
	}()

	type session struct {
		cancel context.CancelFunc
		done   chan struct{}
	}
	var cur *session
	stop := func() {
		if cur != nil {
			cur.cancel()
			<-cur.done
			cur = nil
		}
	}
	finish := func(err error) error {
		stop()
		ln.Close()
		if aerr := <-acceptDone; err == nil {
			err = aerr
		}
		return err
	}
	for {
		var curDone chan struct{}
		if cur != nil {
			curDone = cur.done
		}
		select {
		case c := <-conns:
			stop()
			sctx, scancel := context.WithCancel(ctx)
			s := &session{cancel: scancel, done: make(chan struct{})}
			cur = s
			go func() {
				defer close(s.done)
				defer c.Close()
				_ = Serve(sctx, NewStreamPort(c, mode), link, mode, opts)
			}()
		case <-curDone:
			cur = nil
		case <-ctx.Done():
			return finish(ctx.Err())
		case err := <-acceptDone:
			acceptDone <- err
			if errors.Is(err, net.ErrClosed) && ctx.Err() != nil {
				err = ctx.Err()
			}
			return finish(err)
		}
	}
}
