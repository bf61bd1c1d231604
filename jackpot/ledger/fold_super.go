// The fold of the shared levels (the superjackpot): the levels, the batches
// sent to and applied by the super controller, the claims and their answers.

package ledger

import (
	"cmp"
	"fmt"
	"slices"
	"strings"

	"github.com/openegm/cabinet/jackpot"
)

func (t *txn) setupShared(r SetupShared) error {
	if _, ok := t.s.pools.Level(r.Level); ok {
		return fmt.Errorf("level %q: %w as a local level", r.Level, ErrExists)
	}
	if _, ok := t.s.shared[r.Level]; ok {
		return fmt.Errorf("shared level %q: %w", r.Level, ErrExists)
	}
	t.setShared(Shared{Level: r.Level})
	return nil
}

func (t *txn) sharedLevel(id string) (Shared, error) {
	sh, ok := t.s.shared[id]
	if !ok {
		return Shared{}, fmt.Errorf("shared level %q: %w", id, ErrUnknownLevel)
	}
	return sh, nil
}

func (t *txn) superBatch(r SuperBatch, res *Result) error {
	sh, err := t.sharedLevel(r.Level)
	if err != nil {
		return err
	}
	next := sh.NextSeq()
	switch {
	case r.Seq <= sh.Applied:
		return fmt.Errorf("shared level %q batch %d: %w: confirmed already (last confirmed %d)", r.Level, r.Seq, ErrSequence, sh.Applied)
	case r.Seq < next:
		b := sh.Pending[r.Seq-sh.Applied-1]
		if b.Bet != r.Bet {
			return fmt.Errorf("shared level %q batch %d: %w: recorded with %d cents, now %d", r.Level, r.Seq, ErrSequence, b.Bet, r.Bet)
		}
		res.Repeat, res.Batch = true, &b
		return nil
	case r.Seq > next:
		return fmt.Errorf("shared level %q batch %d: %w: the next is %d", r.Level, r.Seq, ErrSequence, next)
	}
	if r.Bet > sh.Unbatched {
		return fmt.Errorf("shared level %q batch %d: %w: %d cents, but %d fed and not yet batched", r.Level, r.Seq, ErrTooLarge, r.Bet, sh.Unbatched)
	}
	b := Batch{Level: r.Level, Seq: r.Seq, Bet: r.Bet, At: r.At}
	sh.Unbatched -= r.Bet
	sh.Pending = append(slices.Clone(sh.Pending), b)
	t.setShared(sh)
	res.Batch = &b
	return nil
}

func (t *txn) superApplied(r SuperApplied, res *Result) error {
	sh, err := t.sharedLevel(r.Level)
	if err != nil {
		return err
	}
	if r.Seq <= sh.Applied {
		res.Repeat = true
		return nil
	}
	if len(sh.Pending) == 0 || r.Seq != sh.Pending[0].Seq {
		want := "none is"
		if len(sh.Pending) > 0 {
			want = fmt.Sprintf("the oldest is %d", sh.Pending[0].Seq)
		}
		return fmt.Errorf("shared level %q batch %d: %w: not recorded or not the oldest unconfirmed (%s)", r.Level, r.Seq, ErrSequence, want)
	}
	b := sh.Pending[0]
	sh.Pending = slices.Clone(sh.Pending[1:])
	sh.Applied = r.Seq
	sh.AppliedBet += b.Bet // <= Fed
	c, ok := add(sh.Contributed, r.ContributionMC)
	if !ok {
		return tooLarge(fmt.Sprintf("shared level %q contributions", r.Level), sh.Contributed, r.ContributionMC)
	}
	sh.Contributed = c
	if r.Triggered {
		sh.Triggers++
	}
	t.setShared(sh)
	res.Batch = &b
	return nil
}

// cmpClaim orders a shared level's unanswered claims: by machine, then game.
func cmpClaim(a, b SuperClaim) int {
	if c := strings.Compare(a.Machine, b.Machine); c != 0 {
		return c
	}
	return cmp.Compare(a.Game, b.Game)
}

// unansweredAt returns where the claim (machine, game) is among a shared
// level's unanswered claims, or where it would go, and whether it is there.
func unansweredAt(sh Shared, machine string, game uint64) (int, bool) {
	return slices.BinarySearchFunc(sh.Unanswered, SuperClaim{Machine: machine, Game: game}, cmpClaim)
}

// claimLevel returns the shared level of a claim or an answer.
func (t *txn) claimLevel(id string) (Shared, error) {
	if _, ok := t.s.pools.Level(id); ok {
		return Shared{}, fmt.Errorf("shared level %q: %w (it is a local level: its hits are Hit records)", id, ErrUnknownLevel)
	}
	return t.sharedLevel(id)
}

// superClaim records a claim before it is sent to etcd. The rules of a
// local hit apply per (machine, level): a claim pending (not yet answered)
// or already awarded is a repeat, one for a game before the last award or
// before a claim in flight is stale.
func (t *txn) superClaim(r SuperClaim, res *Result) error {
	sh, err := t.claimLevel(r.Level)
	if err != nil {
		return err
	}
	m, err := t.machine(r.Machine)
	if err != nil {
		return err
	}
	if !slices.Contains(m.Levels, r.Level) {
		return fmt.Errorf("machine %q level %q: %w", r.Machine, r.Level, ErrNotLinked)
	}
	i, found := unansweredAt(sh, r.Machine, r.Game)
	if found {
		c := sh.Unanswered[i]
		res.Repeat, res.SuperClaim = true, &c
		return nil
	}
	if k := track(m, r.Level); k >= 0 {
		p, repeat, err := prior(m.Awards[k], Claim{Machine: r.Machine, Game: r.Game}, r.Level)
		if err != nil {
			return err
		}
		if repeat {
			res.Repeat, res.Repeated = true, []Payout{p}
			return nil
		}
	}
	if i < len(sh.Unanswered) && sh.Unanswered[i].Machine == r.Machine {
		return fmt.Errorf("machine %q level %q game %d: %w: its claim for game %d is in flight (not yet answered)",
			r.Machine, r.Level, r.Game, ErrStale, sh.Unanswered[i].Game)
	}
	sh.Unanswered = slices.Insert(slices.Clone(sh.Unanswered), i, r)
	sh.Claims++
	t.setShared(sh)
	t.claims = append(t.claims, sh.Level)
	res.SuperClaim = &r
	return nil
}

// superClaimed records etcd's answer to a pending claim: the claim becomes
// an award pending for the machine. The same answer again is a repeat; a
// different one is refused (ErrConflict).
func (t *txn) superClaimed(r SuperClaimed, res *Result) error {
	sh, err := t.claimLevel(r.Level)
	if err != nil {
		return err
	}
	m, err := t.machine(r.Machine)
	if err != nil {
		return err
	}
	amount := r.AmountMC / jackpot.MillicentsPerCent
	i, found := unansweredAt(sh, r.Machine, r.Game)
	if !found {
		if k := track(m, r.Level); k >= 0 {
			tr := m.Awards[k]
			var p *Payout
			for j := range tr.Pending {
				if tr.Pending[j].Game == r.Game {
					p = &tr.Pending[j]
				}
			}
			if p == nil && tr.Last == r.Game {
				p = &tr.LastPayout
			}
			if p != nil {
				if p.Amount != amount || p.Order != r.Order || p.Revision != r.Revision {
					return fmt.Errorf("machine %q level %q game %d: etcd's answer %d cents (order %d, revision %d) %w: %d cents (order %d, revision %d)",
						r.Machine, r.Level, r.Game, amount, r.Order, r.Revision, ErrConflict, p.Amount, p.Order, p.Revision)
				}
				res.Repeat, res.Repeated = true, []Payout{*p}
				return nil
			}
		}
		return fmt.Errorf("machine %q level %q game %d: %w: no unanswered claim for it (a SuperClaim is recorded before the claim is sent to etcd)",
			r.Machine, r.Level, r.Game, ErrNotPending)
	}
	c := sh.Unanswered[i]
	p := Payout{Machine: r.Machine, Level: r.Level, Game: r.Game, Bet: c.Bet, Claimed: c.Claimed, Amount: amount,
		Order: r.Order, At: r.At, Revision: r.Revision}
	awarded, ok := add(sh.AwardedCents, amount)
	if !ok {
		return tooLarge(fmt.Sprintf("shared level %q awarded cents", r.Level), sh.AwardedCents, amount)
	}
	if m, err = withSuperPayout(m, p); err != nil {
		return err
	}
	t.setMachine(m)
	sh.Unanswered = slices.Delete(slices.Clone(sh.Unanswered), i, i+1)
	sh.Answered++
	sh.AwardedCents = awarded
	t.setShared(sh)
	t.claims = append(t.claims, sh.Level)
	res.Payouts, res.SuperClaim = []Payout{p}, &c
	return nil
}

// withSuperPayout adds an award etcd paid to a machine's track (copy on
// write). Claims of one machine in flight together may be answered in any
// order: an answer for a game before the last award goes among the pending
// awards, in game order.
func withSuperPayout(m Machine, p Payout) (Machine, error) {
	i := track(m, p.Level)
	if i < 0 || p.Game > m.Awards[i].Last {
		return withPayout(m, p)
	}
	tr := m.Awards[i]
	k, dup := slices.BinarySearchFunc(tr.Pending, p.Game, func(q Payout, g uint64) int { return cmp.Compare(q.Game, g) })
	if dup || p.Game == tr.Last {
		return m, fmt.Errorf("%w: machine %q level %q: a second award for game %d", ErrInvariant, m.ID, p.Level, p.Game)
	}
	m.Awards = slices.Clone(m.Awards)
	m.Awards[i].Pending = slices.Insert(slices.Clone(tr.Pending), k, p)
	return m, nil
}
