package etcdretry

import (
	"context"
	"errors"
	"testing"
	"time"

	"go.etcd.io/etcd/api/v3/v3rpc/rpctypes"
	clientv3 "go.etcd.io/etcd/client/v3"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
)

func TestTransient(t *testing.T) {
	// A client that never connects: its context is alive until Close.
	cli, err := clientv3.New(clientv3.Config{Endpoints: []string{"127.0.0.1:1"}, DialTimeout: time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	defer cli.Close()
	ctx := context.Background()
	for _, c := range []struct {
		err  error
		want bool
	}{
		{status.Error(codes.Unavailable, "member down"), true},
		{status.Error(codes.DeadlineExceeded, "slow"), true},
		{rpctypes.ErrGRPCNoLeader, true},
		{rpctypes.ErrGRPCNotLeader, true},
		{rpctypes.ErrGRPCRequestTooManyRequests, true},
		{errors.New("connection reset"), true},
		{rpctypes.ErrGRPCRequestTooLarge, false},
		{status.Error(codes.InvalidArgument, "bad"), false},
		{rpctypes.ErrGRPCPermissionDenied, false},
		{rpctypes.ErrGRPCNotSupportedForLearner, true},
		{status.Error(codes.NotFound, "no such user"), false},
		{status.Error(codes.AlreadyExists, "exists"), false},
	} {
		if got := Transient(ctx, cli, c.err); got != c.want {
			t.Errorf("%v: transient %v, want %v", c.err, got, c.want)
		}
	}
	done, cancel := context.WithCancel(ctx)
	cancel()
	if Transient(done, cli, status.Error(codes.Unavailable, "x")) {
		t.Error("retry after the caller gave up")
	}
}

func TestPauseEndsWithContext(t *testing.T) {
	var p Pause
	if err := p.Wait(context.Background()); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancelCause(context.Background())
	cause := errors.New("stop")
	cancel(cause)
	if err := p.Wait(ctx); !errors.Is(err, cause) {
		t.Fatalf("Wait on a done context: %v", err)
	}
	for range 10 {
		p.Wait(context.Background())
	}
	if p.limit != 64*time.Millisecond {
		t.Errorf("limit after ten waits %v, want the 64 ms cap", p.limit)
	}
}
