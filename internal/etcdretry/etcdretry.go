// Package etcdretry is how this project's etcd clients retry: which etcd
// errors are worth another try, and a jittered pause between tries. It
// holds for clients whose every write is guarded by compare conditions and
// idempotent, so that another try is always safe (the ticket system, the
// superjackpot's store and watch).
package etcdretry

import (
	"context"
	"errors"
	"math/rand/v2"
	"time"

	"go.etcd.io/etcd/api/v3/v3rpc/rpctypes"
	clientv3 "go.etcd.io/etcd/client/v3"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
)

// Pause waits before another try: a random time up to a limit that
// doubles from 1 ms to 64 ms, so clients racing for one key spread out.
// It decides nothing. The zero Pause is ready.
type Pause struct{ limit time.Duration }

// Wait waits, or returns the cause of ctx's end.
func (p *Pause) Wait(ctx context.Context) error {
	p.limit = min(max(2*p.limit, time.Millisecond), 64*time.Millisecond)
	t := time.NewTimer(rand.N(p.limit) + p.limit/4)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return context.Cause(ctx)
	case <-t.C:
		return nil
	}
}

// Transient reports whether another try of the same request may succeed:
// it is useless only when the caller or the client is done, or for errors
// the same request would meet again (an invalid or too large request, no
// permission, no space, a compacted revision). Everything else (member
// down or stopped, no leader, leader changed, timeouts, too many requests,
// not leader, a learner, connection errors) is worth another try.
func Transient(ctx context.Context, cli *clientv3.Client, err error) bool {
	if ctx.Err() != nil || cli.Ctx().Err() != nil {
		return false
	}
	err = rpctypes.Error(err)
	if errors.Is(err, rpctypes.ErrNotLeader) || errors.Is(err, rpctypes.ErrTooManyRequests) ||
		rpctypes.ErrorDesc(err) == rpctypes.ErrorDesc(rpctypes.ErrGRPCNotSupportedForLearner) {
		return true
	}
	code := status.Code(err)
	var ee rpctypes.EtcdError
	if errors.As(err, &ee) {
		code = ee.Code()
	}
	switch code {
	case codes.InvalidArgument, codes.NotFound, codes.AlreadyExists, codes.PermissionDenied, codes.ResourceExhausted,
		codes.FailedPrecondition, codes.OutOfRange, codes.Unimplemented, codes.Unauthenticated:
		return false
	}
	return true
}
