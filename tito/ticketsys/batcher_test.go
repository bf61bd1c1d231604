package ticketsys

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"testing"

	pb "go.etcd.io/etcd/api/v3/etcdserverpb"
	"go.etcd.io/etcd/api/v3/v3rpc/rpctypes"
	clientv3 "go.etcd.io/etcd/client/v3"
)

// sizedKV is an etcd that refuses a transaction of more than limit
// operations, as a cluster run with a low --max-txn-ops does, before
// applying any of it; the others succeed whole.
type sizedKV struct {
	clientv3.KV
	limit int
	mu    sync.Mutex
	sizes []int // of every transaction sent
	ran   int   // nested transactions in the transactions accepted
}

type sizedTxn struct {
	kv  *sizedKV
	ops []clientv3.Op
}

func (k *sizedKV) Txn(context.Context) clientv3.Txn { return &sizedTxn{kv: k} }

func (t *sizedTxn) If(...clientv3.Cmp) clientv3.Txn  { return t }
func (t *sizedTxn) Else(...clientv3.Op) clientv3.Txn { return t }
func (t *sizedTxn) Then(ops ...clientv3.Op) clientv3.Txn {
	t.ops = append(t.ops, ops...)
	return t
}

func (t *sizedTxn) Commit() (*clientv3.TxnResponse, error) {
	t.kv.mu.Lock()
	defer t.kv.mu.Unlock()
	t.kv.sizes = append(t.kv.sizes, len(t.ops))
	if len(t.ops) > t.kv.limit {
		return nil, rpctypes.ErrGRPCTooManyOps
	}
	t.kv.ran += len(t.ops)
	resp := &pb.TxnResponse{Header: &pb.ResponseHeader{Revision: 7}}
	for range t.ops {
		resp.Responses = append(resp.Responses, &pb.ResponseOp{Response: &pb.ResponseOp_ResponseTxn{ResponseTxn: &pb.TxnResponse{Succeeded: true}}})
	}
	return (*clientv3.TxnResponse)(resp), nil
}

// A cluster that takes fewer operations a transaction than the store's
// batches hold refuses the first batch whole; the batcher sends it again
// in halves until the cluster takes them, and every step is applied once
// and answered.
func TestBatchSplitWhenTheClusterRefusesItsSize(t *testing.T) {
	kv := &sizedKV{limit: 8}
	b := &batcher{kv: kv}
	open := make(chan struct{})
	b.gate = func() { <-open }
	const n = 50
	outs := make([]outcome, n)
	var wg sync.WaitGroup
	for i := range n {
		wg.Go(func() {
			outs[i], _ = b.do(context.Background(), &attempt{keys: []string{fmt.Sprint(i)}, txn: clientv3.OpTxn(nil, nil, nil)})
		})
	}
	waitFor(t, "every step queued", func() bool { return b.waiting() == n })
	close(open)
	wg.Wait()
	for i, o := range outs {
		if o.err != nil || o.resp == nil || !o.resp.Succeeded {
			t.Fatalf("step %d: %+v", i, o)
		}
	}
	if kv.sizes[0] != n || kv.ran != n {
		t.Fatalf("batches sent %v, %d steps run; want the first of %d refused and each step run once", kv.sizes, kv.ran, n)
	}
}

// A caller that stops waiting before its step is sent takes the step out:
// it never reaches etcd, and the caller is told so (not sent), so that a
// cabinet is never left with an authorisation nobody answered.
func TestBatchStepNotSentWhenItsCallerLeaves(t *testing.T) {
	kv := &sizedKV{limit: 100}
	b := &batcher{kv: kv}
	open := make(chan struct{})
	b.gate = func() { <-open }
	var sent [][]string
	b.sending = func(keys [][]string) { sent = append(sent, keys...) }
	gone, leave := context.WithCancel(context.Background())
	type answer struct {
		o    outcome
		sent bool
	}
	left, stayed := make(chan answer, 1), make(chan answer, 1)
	go func() {
		o, s := b.do(gone, &attempt{keys: []string{"left"}, txn: clientv3.OpTxn(nil, nil, nil)})
		left <- answer{o, s}
	}()
	go func() {
		o, s := b.do(context.Background(), &attempt{keys: []string{"stayed"}, txn: clientv3.OpTxn(nil, nil, nil)})
		stayed <- answer{o, s}
	}()
	waitFor(t, "both steps queued", func() bool { return b.waiting() == 2 })
	leave()
	a := <-left
	if a.sent || !errors.Is(a.o.err, context.Canceled) {
		t.Fatalf("the step whose caller left: %+v sent %v", a.o, a.sent)
	}
	close(open)
	if a := <-stayed; a.o.err != nil || !a.sent || !a.o.resp.Succeeded {
		t.Fatalf("the other step: %+v", a)
	}
	if len(sent) != 1 || sent[0][0] != "stayed" || kv.ran != 1 {
		t.Fatalf("sent %v (%d run); want only the step still waited for", sent, kv.ran)
	}
}
