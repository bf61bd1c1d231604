package super

import (
	"context"
	"fmt"
	"strings"

	"go.etcd.io/etcd/api/v3/mvccpb"
)

// Audit is what an inspector reads of a group, at one etcd revision: the
// pools, every paid claim and every controller's last applied batch.
type Audit struct {
	Revision int64             // the etcd revision everything was read at
	Pools    Snapshot          // the group's pools
	Claims   []Claimed         // every paid claim, in the order they were paid
	Heads    map[string]uint64 // controller: last applied batch seq
}

// Audit reads the group at one revision (see Audit).
func (s *Store) Audit(ctx context.Context) (Audit, error) {
	ctx, stop := s.bind(ctx)
	defer stop()
	fail := func(err error) (Audit, error) { return Audit{}, fmt.Errorf("super: audit of %q: %w", s.prefix, err) }
	resp, err := s.cli.Get(ctx, s.poolKey())
	if err != nil {
		return fail(err)
	}
	if len(resp.Kvs) != 1 {
		return fail(fmt.Errorf("%w: no key %q", ErrNotInitialized, s.poolKey()))
	}
	a := Audit{Revision: resp.Header.Revision, Pools: s.snapshot(resp.Kvs[0]), Heads: map[string]uint64{}}
	if a.Pools.Err != nil {
		return fail(a.Pools.Err)
	}
	if a.Claims, err = s.claims(ctx, a.Revision); err != nil {
		return fail(err)
	}
	err = s.scan(ctx, s.prefix+"heads/", a.Revision, func(kv *mvccpb.KeyValue) error {
		controller := strings.TrimPrefix(string(kv.Key), s.prefix+"heads/")
		seq, err := parseHead(string(kv.Key), value{ok: true, data: kv.Value})
		if err != nil {
			return err
		}
		a.Heads[controller] = seq
		return nil
	})
	if err != nil {
		return fail(err)
	}
	return a, nil
}
