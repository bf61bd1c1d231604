package ticketsys

import (
	"context"
	"errors"
	"sync"

	pb "go.etcd.io/etcd/api/v3/etcdserverpb"
	"go.etcd.io/etcd/api/v3/v3rpc/rpctypes"
	clientv3 "go.etcd.io/etcd/client/v3"
)

// Group commit. Each etcd request costs the cluster far more than the few
// keys it writes (a gRPC call, an auth check, a raft entry replicated and
// fsynced, an apply), so the store's conditional writes from concurrent
// callers (many cabinets) are sent together: one etcd transaction whose
// operations are the callers' own transactions, nested (etcd >= 3.3). Each
// nested transaction keeps its own comparisons, so a ticket whose guess is
// stale fails alone and the others in the batch are applied; its Else
// branch reads its keys, so the caller decides again on what etcd holds
// without another round trip. A caller is answered only when the batch's
// transaction has returned, that is when raft has committed it: nothing is
// acknowledged before it is durable.

const (
	// maxBatch keeps a batch under etcd's default --max-txn-ops (128),
	// which counts the outer operations plus the largest nested one's.
	maxBatch = 120
	// maxInFlight batches at once: while one waits for raft the next
	// fills, and a few in flight let raft fold them into one append.
	maxInFlight = 16
)

// attempt is one caller's nested transaction.
type attempt struct {
	keys []string // every key it writes or reads: at most once a batch
	txn  clientv3.Op
	done chan outcome // buffered: the sender never waits on a caller
	// queued, taken: guarded by the batcher's mutex. A caller that stops
	// waiting before its attempt is taken removes it, so it never runs.
	queued, taken bool
	b             *sent
}

// outcome is what etcd answered to one attempt.
type outcome struct {
	resp *pb.TxnResponse // the nested transaction's answer
	rev  int64           // the revision of the batch: its writes' mod revision
	err  error
}

// sent is one batch in flight; its request ends when the last of its
// callers stops waiting, so callers that give up do not leave a request
// hanging on a cluster that is away.
type sent struct {
	cancel context.CancelFunc
	live   int
}

type batcher struct {
	kv       clientv3.KV
	mu       sync.Mutex
	queue    []*attempt
	inFlight int
	limit    int // of attempts a batch; lowered if etcd refuses a batch's size
	// Tests, set under mu: gate runs before a batch is taken from the
	// queue (to fill it), sending with the keys of each attempt of a
	// batch as it goes.
	gate    func()
	sending func(keys [][]string)
}

// waiting is the number of attempts queued and not yet taken (tests).
func (b *batcher) waiting() int {
	b.mu.Lock()
	defer b.mu.Unlock()
	n := 0
	for _, a := range b.queue {
		if a.queued {
			n++
		}
	}
	return n
}

// do sends a through a batch and waits for its answer or ctx's end.
// sent reports whether the attempt may have reached etcd: after an error
// with sent false it surely was not applied.
func (b *batcher) do(ctx context.Context, a *attempt) (o outcome, sent bool) {
	a.done = make(chan outcome, 1)
	b.mu.Lock()
	if b.limit == 0 {
		b.limit = maxBatch
	}
	a.queued = true
	b.queue = append(b.queue, a)
	if b.inFlight < maxInFlight {
		b.inFlight++
		go b.run()
	}
	b.mu.Unlock()
	select {
	case o := <-a.done:
		return o, true
	case <-ctx.Done():
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	select {
	case o := <-a.done:
		return o, true
	default:
	}
	if !a.taken {
		a.queued = false // run skips it
		return outcome{err: context.Cause(ctx)}, false
	}
	if a.b.live--; a.b.live == 0 {
		a.b.cancel()
	}
	return outcome{err: context.Cause(ctx)}, true
}

// run sends batches while attempts wait.
func (b *batcher) run() {
	for {
		b.mu.Lock()
		gate, sending := b.gate, b.sending
		b.mu.Unlock()
		if gate != nil {
			gate()
		}
		b.mu.Lock()
		batch := b.take()
		if len(batch) == 0 {
			b.inFlight--
			b.mu.Unlock()
			return
		}
		ctx, cancel := context.WithCancel(context.Background())
		s := &sent{cancel: cancel, live: len(batch)}
		ops := make([]clientv3.Op, len(batch))
		for i, a := range batch {
			a.taken, a.b = true, s
			ops[i] = a.txn
		}
		b.mu.Unlock()
		if sending != nil {
			keys := make([][]string, len(batch))
			for i, a := range batch {
				keys[i] = a.keys
			}
			sending(keys)
		}
		resp, err := b.kv.Txn(ctx).Then(ops...).Commit()
		cancel()
		if err != nil && len(batch) > 1 && (errors.Is(rpctypes.Error(err), rpctypes.ErrTooManyOps) || errors.Is(rpctypes.Error(err), rpctypes.ErrRequestTooLarge)) {
			// Refused whole before it was applied: a cluster with a
			// lower limit than etcd's defaults. Smaller batches.
			b.mu.Lock()
			b.limit = max(1, len(batch)/2)
			for _, a := range batch {
				a.queued, a.taken, a.b = true, false, nil
			}
			b.queue = append(batch, b.queue...)
			b.mu.Unlock()
			continue
		}
		for i, a := range batch {
			o := outcome{err: err}
			if err == nil {
				o.rev = resp.Header.Revision
				o.resp = resp.Responses[i].GetResponseTxn()
			}
			a.done <- o
		}
	}
}

// take removes the next batch from the queue: in order, at most limit,
// and no two attempts on one key (etcd refuses a transaction that writes
// a key twice; the second waits for the next batch and sees the first's
// write).
func (b *batcher) take() []*attempt {
	var batch []*attempt
	used := make(map[string]bool)
	rest := b.queue[:0]
	for _, a := range b.queue {
		if !a.queued {
			continue
		}
		free := len(batch) < b.limit
		for _, k := range a.keys {
			if free && used[k] {
				free = false
			}
		}
		if !free {
			rest = append(rest, a)
			continue
		}
		for _, k := range a.keys {
			used[k] = true
		}
		a.queued = false
		batch = append(batch, a)
	}
	clear(b.queue[len(rest):])
	b.queue = rest
	return batch
}
