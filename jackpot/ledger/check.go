// The invariants: what a transaction touched after each fold, and the whole
// state (Check) after replay and in the verifier.

package ledger

import (
	"fmt"
	"slices"

	"github.com/openegm/cabinet/jackpot"
)

// check verifies what the transaction touched, and the pools' identity.
func (t *txn) check() error {
	if t.touched {
		if err := t.s.pools.Check(); err != nil {
			return fmt.Errorf("%w: %w", ErrInvariant, err)
		}
	}
	for _, id := range t.machines {
		if err := t.s.checkMachine(t.s.machines[id], false); err != nil {
			return err
		}
	}
	for _, id := range t.shared {
		if err := checkShared(t.s.shared[id]); err != nil {
			return err
		}
	}
	for i, id := range t.claims {
		if slices.Contains(t.claims[:i], id) {
			continue
		}
		if err := t.s.checkClaims(t.s.shared[id]); err != nil {
			return err
		}
	}
	if t.s.fed < 0 {
		return fmt.Errorf("%w: coin-in fed %d", ErrInvariant, t.s.fed)
	}
	return nil
}

// Check verifies every invariant of the state: the pools' accounting
// identity to the millicent and their exact contribution carries (package
// jackpot), that every machine feeds open levels and its award tracks are
// in order, that the coin-in fed adds up over the machines, that every
// shared level's coin-in is accounted for (fed = not batched + in
// unconfirmed batches + in confirmed batches) with consecutive batch seqs,
// that no local level has more awards pending than it paid, and that every
// shared level's claims tally adds up (claims = answered + unanswered;
// the awards pending on it are the answered ones not confirmed, in number
// and in cents: awarded = confirmed + pending).
func (s *State) Check() error {
	if err := s.pools.Check(); err != nil {
		return fmt.Errorf("%w: %w", ErrInvariant, err)
	}
	for id, sh := range s.shared {
		if sh.Level != id {
			return fmt.Errorf("%w: shared level %q filed as %q", ErrInvariant, sh.Level, id)
		}
		if _, ok := s.pools.Level(id); ok {
			return fmt.Errorf("%w: level %q is both local and shared", ErrInvariant, id)
		}
		if err := checkShared(sh); err != nil {
			return err
		}
		if err := s.checkClaims(sh); err != nil {
			return err
		}
	}
	var fed int64
	pending := map[string]int64{}
	for id, m := range s.machines {
		if m.ID != id {
			return fmt.Errorf("%w: machine %q filed as %q", ErrInvariant, m.ID, id)
		}
		if err := s.checkMachine(m, true); err != nil {
			return err
		}
		var ok bool
		if fed, ok = add(fed, m.Fed); !ok {
			return fmt.Errorf("%w: coin-in fed overflows", ErrInvariant)
		}
		for _, tr := range m.Awards {
			if _, ok := s.shared[tr.Level]; ok {
				continue // checkClaims
			}
			for _, p := range tr.Pending {
				pending[tr.Level] += p.Amount
			}
		}
	}
	if fed != s.fed {
		return fmt.Errorf("%w: machines fed %d cents, the ledger counts %d", ErrInvariant, fed, s.fed)
	}
	for id, amount := range pending {
		lv, _ := s.pools.Level(id)
		if amount > lv.Meters.Awarded/jackpot.MillicentsPerCent {
			return fmt.Errorf("%w: level %q: %d cents pending, %d millicents awarded in all", ErrInvariant, id, amount, lv.Meters.Awarded)
		}
	}
	var sum uint64
	for _, c := range s.counts {
		sum += c
	}
	if sum != s.records {
		return fmt.Errorf("%w: %d records counted by type, %d in all", ErrInvariant, sum, s.records)
	}
	if len(s.events) > eventsKept {
		return fmt.Errorf("%w: %d events kept", ErrInvariant, len(s.events))
	}
	return nil
}

// checkMachine checks a machine's figures and award tracks; full also
// checks that the levels it feeds and was awarded on exist and are open
// (at commit, SetupMachine and Transfer see to that).
func (s *State) checkMachine(m Machine, full bool) error {
	fail := func(format string, a ...any) error {
		return fmt.Errorf("%w: machine %q: %s", ErrInvariant, m.ID, fmt.Sprintf(format, a...))
	}
	if err := (SetupMachine{Machine: m.ID, SAS: m.SAS, Levels: m.Levels, Who: "-"}).validate(); err != nil {
		return fail("%v", err)
	}
	for _, id := range m.Levels {
		if _, ok := s.shared[id]; ok || !full {
			continue
		}
		lv, ok := s.pools.Level(id)
		if !ok || lv.Closed {
			return fail("feeds level %q, which is unknown or closed", id)
		}
	}
	if m.CoinIn < 0 || m.Fed < 0 || m.Rebases < 0 {
		return fail("coin-in %d, fed %d, rebases %d", m.CoinIn, m.Fed, m.Rebases)
	}
	if !m.Read && (m.CoinIn != 0 || m.GamesPlayed != 0 || m.Fed != 0) {
		return fail("no baseline, yet meters")
	}
	for i, tr := range m.Awards {
		if full {
			_, local := s.pools.Level(tr.Level)
			_, shared := s.shared[tr.Level]
			if !local && !shared {
				return fail("awards on unknown level %q", tr.Level)
			}
		}
		for _, o := range m.Awards[:i] {
			if o.Level == tr.Level {
				return fail("two award tracks for level %q", tr.Level)
			}
		}
		lp := tr.LastPayout
		if lp.Machine != m.ID || lp.Level != tr.Level || lp.Game != tr.Last || lp.Amount < 0 || lp.Revision < 0 {
			return fail("level %q: last award %+v does not match game %d", tr.Level, lp, tr.Last)
		}
		for k, p := range tr.Pending {
			if p.Machine != m.ID || p.Level != tr.Level || p.Amount < 0 || p.Revision < 0 || p.Game > tr.Last ||
				(k > 0 && p.Game <= tr.Pending[k-1].Game) {
				return fail("level %q: pending award %+v out of order", tr.Level, p)
			}
		}
		if n := len(tr.Pending); n > 0 && tr.Pending[n-1] != lp && tr.Pending[n-1].Game == tr.Last {
			return fail("level %q: pending award for game %d differs from the last award", tr.Level, tr.Last)
		}
	}
	return nil
}

func checkShared(sh Shared) error {
	fail := func(format string, a ...any) error {
		return fmt.Errorf("%w: shared level %q: %s", ErrInvariant, sh.Level, fmt.Sprintf(format, a...))
	}
	if err := checkID("level", sh.Level); err != nil {
		return fail("%v", err)
	}
	if sh.Fed < 0 || sh.Unbatched < 0 || sh.AppliedBet < 0 || sh.Contributed < 0 || sh.Triggers < 0 ||
		sh.Claims < 0 || sh.Answered < 0 || sh.AwardedCents < 0 || sh.ConfirmedAwards < 0 || sh.ConfirmedCents < 0 {
		return fail("negative figures %+v", sh)
	}
	if sh.Claims != sh.Answered+int64(len(sh.Unanswered)) {
		return fail("%d claims ≠ %d answered + %d unanswered", sh.Claims, sh.Answered, len(sh.Unanswered))
	}
	if sh.ConfirmedAwards > sh.Answered || sh.ConfirmedCents > sh.AwardedCents {
		return fail("%d awards of %d cents confirmed, %d of %d cents answered", sh.ConfirmedAwards, sh.ConfirmedCents, sh.Answered, sh.AwardedCents)
	}
	for i, c := range sh.Unanswered {
		if c.Level != sh.Level || c.validate() != nil || (i > 0 && cmpClaim(sh.Unanswered[i-1], c) >= 0) {
			return fail("unanswered claim %+v out of order", c)
		}
	}
	sum := sh.Unbatched
	for i, b := range sh.Pending {
		if b.Level != sh.Level || b.Seq != sh.Applied+uint64(i)+1 || b.Bet <= 0 {
			return fail("unconfirmed batch %+v out of sequence after %d", b, sh.Applied)
		}
		var ok bool
		if sum, ok = add(sum, b.Bet); !ok {
			return fail("batched coin-in overflows")
		}
	}
	total, ok := add(sum, sh.AppliedBet)
	if !ok {
		return fail("batched coin-in overflows")
	}
	if total != sh.Fed {
		return fail("fed %d cents ≠ not batched %d + unconfirmed batches %d + confirmed batches %d",
			sh.Fed, sh.Unbatched, sum-sh.Unbatched, sh.AppliedBet)
	}
	return nil
}

// checkClaims checks a shared level's claims tally against the machines'
// award tracks: the awards pending on the level are the answered ones not
// yet confirmed, in number and in cents, and no unanswered claim names a
// game already awarded or a machine that does not exist.
func (s *State) checkClaims(sh Shared) error {
	fail := func(format string, a ...any) error {
		return fmt.Errorf("%w: shared level %q: %s", ErrInvariant, sh.Level, fmt.Sprintf(format, a...))
	}
	var n, cents int64
	for _, m := range s.machines {
		i := track(m, sh.Level)
		if i < 0 {
			continue
		}
		tr := m.Awards[i]
		if tr.LastPayout.Order < 1 || tr.LastPayout.Revision < 1 {
			return fail("machine %q: award %+v without etcd's order and revision", m.ID, tr.LastPayout)
		}
		for _, p := range tr.Pending {
			if p.Order < 1 || p.Revision < 1 {
				return fail("machine %q: award %+v without etcd's order and revision", m.ID, p)
			}
			n++
			cents += p.Amount // each <= AwardedCents: no overflow
			if cents > sh.AwardedCents {
				return fail("%d cents pending, %d awarded", cents, sh.AwardedCents)
			}
		}
	}
	if n != sh.Answered-sh.ConfirmedAwards || cents != sh.AwardedCents-sh.ConfirmedCents {
		return fail("%d awards of %d cents pending ≠ %d answered (%d cents) − %d confirmed (%d cents)",
			n, cents, sh.Answered, sh.AwardedCents, sh.ConfirmedAwards, sh.ConfirmedCents)
	}
	for _, c := range sh.Unanswered {
		m, ok := s.machines[c.Machine]
		if !ok {
			return fail("unanswered claim of unknown machine %q", c.Machine)
		}
		if i := track(m, sh.Level); i >= 0 {
			tr := m.Awards[i]
			if c.Game == tr.Last || slices.ContainsFunc(tr.Pending, func(p Payout) bool { return p.Game == c.Game }) {
				return fail("machine %q game %d is both awarded and unanswered", c.Machine, c.Game)
			}
		}
	}
	return nil
}
