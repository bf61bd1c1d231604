package super

import (
	"context"

	clientv3 "go.etcd.io/etcd/client/v3"

	"github.com/openegm/cabinet/internal/etcdretry"
)

// backoff is the pause between tries of a store or watch request: its
// jitter only spreads contending controllers apart; it decides nothing
// about money.
type backoff struct{ p etcdretry.Pause }

func (b *backoff) wait(ctx context.Context) error { return b.p.Wait(ctx) }

// retryable reports whether err from an etcd request is worth another
// try. Every write is guarded by compare conditions and every request is a
// read or such a write, so another try is always safe (etcdretry.Transient
// says which errors the same request would meet again).
func retryable(ctx context.Context, cli *clientv3.Client, err error) bool {
	return etcdretry.Transient(ctx, cli, err)
}
