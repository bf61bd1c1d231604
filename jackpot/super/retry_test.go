package super

import (
	"context"
	"errors"
	"testing"

	"go.etcd.io/etcd/api/v3/v3rpc/rpctypes"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
)

func TestRetryable(t *testing.T) {
	cli := sharedCluster(t).Client(t)
	live := context.Background()
	done, cancel := context.WithCancel(live)
	cancel()
	for _, tc := range []struct {
		ctx  context.Context
		err  error
		want bool
	}{
		{live, rpctypes.ErrGRPCNoLeader, true},
		{live, rpctypes.ErrLeaderChanged, true},
		{live, rpctypes.ErrTimeout, true},
		{live, rpctypes.ErrGRPCNotLeader, true},
		{live, rpctypes.ErrTooManyRequests, true},
		{live, rpctypes.ErrGRPCNotSupportedForLearner, true},
		{live, status.Error(codes.Unknown, "raft: stopped"), true},
		{live, status.Error(codes.Unavailable, "connection refused"), true},
		{live, errors.New("some transport error"), true},
		{live, rpctypes.ErrGRPCNoSpace, false},
		{live, rpctypes.ErrRequestTooLarge, false},
		{live, rpctypes.ErrGRPCCompacted, false},
		{live, rpctypes.ErrGRPCPermissionDenied, false},
		{done, rpctypes.ErrGRPCNoLeader, false},
	} {
		if got := retryable(tc.ctx, cli, tc.err); got != tc.want {
			t.Errorf("retryable(%v) = %v, want %v", tc.err, got, tc.want)
		}
	}
}
