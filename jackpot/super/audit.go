package super

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"

	"go.etcd.io/etcd/api/v3/mvccpb"
)

// Audit is what an inspector reads of a group, at one etcd revision: the
// pools, every paid claim and every controller's last applied batch, each
// as its genuine version; and every version found that did not verify.
type Audit struct {
	Revision int64             // the etcd revision everything was read at
	Pools    Snapshot          // the group's pools
	Claims   []Claimed         // every paid claim, in the order they were paid
	Heads    map[string]uint64 // controller: last applied batch seq
	// Rejected are the versions of the group's keys that did not verify
	// (ErrForged), in etcd now or in the history behind a key's current
	// version back to its genuine one: none of them is counted above.
	Rejected []Rejection
	// Replaced are rejected versions that a controller's write replaced,
	// as it recorded them (under rejected/<controller>/).
	Replaced []Evidence
}

// Audit reads the group at one revision (see Audit). It verifies every
// value of the group, the batches' too.
func (s *Store) Audit(ctx context.Context) (Audit, error) {
	ctx, stop := s.bind(ctx)
	defer stop()
	fail := func(err error) (Audit, error) { return Audit{}, fmt.Errorf("super: audit of %q: %w", s.prefix, err) }
	var a Audit
	found := func(r Rejection) {
		a.Rejected = append(a.Rejected, r)
		s.report(r)
	}
	pool, rev, err := s.getGenuine(ctx, s.poolKey(), 0, found)
	if err != nil {
		return fail(err)
	}
	p, err := s.genuinePools(ctx, pool)
	if err != nil {
		return fail(err)
	}
	a.Revision, a.Pools, a.Heads = rev, snapshotOf(pool.modRev, p), map[string]uint64{}
	_, err = s.scan(ctx, s.prefix, rev, func(kv *mvccpb.KeyValue) error {
		key := string(kv.Key)
		kind, rest, _ := strings.Cut(s.rel(key), "/")
		switch kind {
		case "claims":
			c, ok, err := s.claim(ctx, kv, found)
			if ok {
				a.Claims = append(a.Claims, c)
			}
			return err
		case "heads":
			v, err := s.resolve(ctx, kv, found)
			if err != nil || !v.found {
				return err
			}
			seq, err := parseHead(key, v)
			a.Heads[rest] = seq
			return err
		case "rejected":
			v, err := s.resolve(ctx, kv, found)
			if err != nil || !v.found {
				return err
			}
			e := Evidence{ReplacedBy: owner(s.rel(key)), Replaced: v.rev}
			if err := json.Unmarshal(v.data, &e.Rejection); err != nil {
				return fmt.Errorf("%w: key %q: %w", ErrCorrupt, key, err)
			}
			a.Replaced = append(a.Replaced, e)
		case "batches", "transfers", "keys":
			_, err := s.resolve(ctx, kv, found)
			return err
		}
		return nil // the pools were read above; anything else is not the group's
	})
	if err != nil {
		return fail(err)
	}
	sortClaims(a.Claims)
	return a, nil
}
