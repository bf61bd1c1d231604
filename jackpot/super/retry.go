package super

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

const (
	backoffMin = time.Millisecond
	backoffMax = 100 * time.Millisecond
)

// backoff waits a random time in [d/2, d), d doubling from backoffMin to
// backoffMax. The jitter only spreads contending controllers apart; it
// decides nothing about money.
type backoff struct{ d time.Duration }

func (b *backoff) wait(ctx context.Context) error {
	if b.d == 0 {
		b.d = backoffMin
	}
	d := b.d/2 + rand.N(b.d/2+1)
	b.d = min(2*b.d, backoffMax)
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return context.Cause(ctx)
	case <-t.C:
		return nil
	}
}

// retryable reports whether err from an etcd request is worth another
// try. Every write is guarded by compare conditions and every request is a
// read or such a write, so another try is always safe; it is useless only
// for errors that the same request would meet again (an invalid or too
// large request, no permission, no space, a compacted revision), or when
// the caller's context or the client is done. Everything else (member down
// or stopped, no leader, leader changed, timeouts, too many requests,
// not leader, a learner, connection errors) is retried.
func retryable(ctx context.Context, cli *clientv3.Client, err error) bool {
	if ctx.Err() != nil || cli.Ctx().Err() != nil {
		return false
	}
	err = rpctypes.Error(err)
	if errors.Is(err, rpctypes.ErrTooManyRequests) || errors.Is(err, rpctypes.ErrNotLeader) ||
		rpctypes.ErrorDesc(err) == rpctypes.ErrorDesc(rpctypes.ErrGRPCNotSupportedForLearner) {
		return true
	}
	code := status.Code(err)
	var ee rpctypes.EtcdError
	if errors.As(err, &ee) {
		code = ee.Code()
	}
	switch code {
	case codes.InvalidArgument, codes.NotFound, codes.AlreadyExists, codes.PermissionDenied,
		codes.ResourceExhausted, codes.FailedPrecondition, codes.OutOfRange, codes.Unimplemented,
		codes.Unauthenticated:
		return false
	}
	return true
}
