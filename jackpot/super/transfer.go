package super

import (
	"context"
	"fmt"

	"github.com/openegm/cabinet/jackpot"
)

// Transferred is the recorded outcome of a transfer between two levels of
// the group (regulation rule 6): what left the source, what the
// destination got (the same, to its current value up to its room and the
// rest to its reserve), who and why.
type Transferred struct {
	ID string `json:"id"`
	jackpot.TransferRecord
	PoolSeq  uint64 `json:"pool_seq"`
	Revision int64  `json:"-"` // etcd revision of the transaction
	Replayed bool   `json:"-"` // found recorded: an earlier call (or attempt) made it
}

func (s *Store) transferKey(id string) string { return s.prefix + "transfers/" + id }

// Transfer moves value from one level of the group's pools to another,
// exactly once: id names the transfer (the caller chooses it, and keeps it
// for a retry), and a transfer already recorded under id is returned as it
// was made (Replayed), never made again; the same id asking anything else
// (levels, amounts, who, why, close; the time aside) is refused
// (ErrConflict). The op is jackpot's Transfer (who and why
// required; All or the amounts; Close closes the emptied source, after
// which batches to it are refused): nothing is created or destroyed, the
// pools' identity and the transfer log say so, and the record is kept
// under transfers/<id> for the inspector.
//
// Choice: a transfer stays within a group's pools, where one transaction
// applies it and jackpot's checks hold it to the millicent; a group's
// levels are fed by different machines, so this moves a level's value to
// the machines of another level, which rule 6 asks for.
func (s *Store) Transfer(ctx context.Context, id string, t jackpot.Transfer) (Transferred, error) {
	fail := func(err error) (Transferred, error) {
		return Transferred{}, fmt.Errorf("super: transfer %q from %q to %q in %q: %w", id, t.From, t.To, s.prefix, err)
	}
	if err := checkName("transfer ID", id); err != nil {
		return fail(err)
	}
	pk, tk := s.poolKey(), s.transferKey(id)
	var out Transferred
	rev, err := s.update(ctx, []string{pk, tk}, func(v []value) (*plan, error) {
		pool, rec := v[0], v[1]
		if rec.found {
			var r Transferred
			if err := decodeJSON(tk, rec.data, &r); err != nil {
				return nil, err
			}
			// The time is the request's, new at every run of a command:
			// the rest must be what was asked the first time.
			same := r.From == t.From && r.To == t.To && r.Who == t.Who && r.Why == t.Why && r.Closed == t.Close &&
				(t.All || r.Current == t.Current && r.Reserve == t.Reserve && r.Overflow == t.Overflow)
			if !same {
				return nil, fmt.Errorf("%w: made from %q to %q by %q (%q) at %d", ErrConflict, r.From, r.To, r.Who, r.Why, r.At)
			}
			r.Revision, r.Replayed = rec.rev, true
			out = r
			return nil, nil
		}
		p, err := s.genuinePools(ctx, pool)
		if err != nil {
			return nil, err
		}
		res, err := p.Apply(t)
		if err != nil {
			return nil, err
		}
		out = Transferred{ID: id, TransferRecord: *res.Moved, PoolSeq: res.Seq}
		return s.recordPlan(pk, pool, p, tk, rec, out)
	})
	if err != nil {
		return fail(err)
	}
	if rev != 0 {
		out.Revision = rev
	}
	return out, nil
}
