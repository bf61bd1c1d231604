package ticketsys

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

// pause waits before another try: a random time up to a limit that
// doubles from 1 ms to 64 ms, so cabinets racing for one ticket spread out.
// It decides nothing.
type pause struct{ limit time.Duration }

func (p *pause) wait(ctx context.Context) error {
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

// transient reports whether another try of the same request may succeed.
// Every write here is guarded by revision compares and idempotent by its
// redemption ID, so retrying is always safe; it is useless only when the
// caller is done or the request itself is wrong (too large, refused).
func transient(ctx context.Context, cli *clientv3.Client, err error) bool {
	if ctx.Err() != nil || cli.Ctx().Err() != nil {
		return false
	}
	err = rpctypes.Error(err)
	if errors.Is(err, rpctypes.ErrNotLeader) || errors.Is(err, rpctypes.ErrTooManyRequests) {
		return true
	}
	code := status.Code(err)
	var ee rpctypes.EtcdError
	if errors.As(err, &ee) {
		code = ee.Code()
	}
	switch code {
	case codes.InvalidArgument, codes.PermissionDenied, codes.ResourceExhausted,
		codes.FailedPrecondition, codes.OutOfRange, codes.Unimplemented, codes.Unauthenticated:
		return false
	}
	return true
}
