// The fold of the local levels: machines set up and their meters, hits,
// awards, confirmations, funding and transfers.

package ledger

import (
	"fmt"
	"slices"
	"sort"

	"github.com/openegm/cabinet/jackpot"
)

// local returns a local level, refusing shared and unknown ones.
func (t *txn) local(id string) (jackpot.LevelView, error) {
	if _, ok := t.s.shared[id]; ok {
		return jackpot.LevelView{}, fmt.Errorf("level %q: %w", id, ErrShared)
	}
	lv, ok := t.s.pools.Level(id)
	if !ok {
		return jackpot.LevelView{}, fmt.Errorf("level %q: %w", id, ErrUnknownLevel)
	}
	return lv, nil
}

func (t *txn) machine(id string) (Machine, error) {
	m, ok := t.s.machines[id]
	if !ok {
		return Machine{}, fmt.Errorf("machine %q: %w", id, ErrUnknownMachine)
	}
	return m, nil
}

func (t *txn) setupLevel(r SetupLevel, res *Result) error {
	if _, ok := t.s.shared[r.Level]; ok {
		return fmt.Errorf("level %q: %w as a shared level", r.Level, ErrExists)
	}
	cfg, err := r.Config()
	if err != nil {
		return err
	}
	jr, err := t.op(jackpot.AddLevel{Level: r.Level, Config: cfg, Target: r.TargetMC, Who: r.Who, At: r.At})
	if err != nil {
		return err
	}
	res.Changes = jr.Changes
	return nil
}

func (t *txn) setupMachine(r SetupMachine) error {
	for _, id := range r.Levels {
		if _, ok := t.s.shared[id]; ok {
			continue
		}
		lv, ok := t.s.pools.Level(id)
		if !ok {
			return fmt.Errorf("machine %q: level %q: %w", r.Machine, id, ErrUnknownLevel)
		}
		if lv.Closed {
			return fmt.Errorf("machine %q: level %q: %w", r.Machine, id, jackpot.ErrClosed)
		}
	}
	m, ok := t.s.machines[r.Machine]
	if !ok {
		m = Machine{ID: r.Machine}
	}
	m.SAS = r.SAS
	m.Levels = slices.Clone(r.Levels)
	t.setMachine(m)
	return nil
}

func (t *txn) meters(r Meters, res *Result) error {
	m, err := t.machine(r.Machine)
	if err != nil {
		return err
	}
	if !m.Read {
		m.Read, m.CoinIn, m.GamesPlayed, m.At = true, r.CoinIn, r.GamesPlayed, r.At
		t.setMachine(m)
		res.Baseline = true
		return nil
	}
	if r.CoinIn < m.CoinIn {
		return fmt.Errorf("machine %q: coin-in meter %d cents is below the last reading %d: %w (meters never go back; a RAM-cleared machine is re-based by a Rebase record)",
			r.Machine, r.CoinIn, m.CoinIn, ErrBackwards)
	}
	if r.GamesPlayed < m.GamesPlayed {
		return fmt.Errorf("machine %q: games-played meter %d is below the last reading %d: %w (meters never go back; a RAM-cleared machine is re-based by a Rebase record)",
			r.Machine, r.GamesPlayed, m.GamesPlayed, ErrBackwards)
	}
	delta := r.CoinIn - m.CoinIn
	if delta == 0 && r.GamesPlayed == m.GamesPlayed {
		res.Repeat = true
		return nil
	}
	if delta > jackpot.MaxBet {
		return fmt.Errorf("machine %q: coin-in went up by %d cents since the last reading, more than %d: %w",
			r.Machine, delta, jackpot.MaxBet, ErrTooLarge)
	}
	if delta > 0 {
		var locals []string
		for _, id := range m.Levels {
			sh, ok := t.s.shared[id]
			if !ok {
				locals = append(locals, id)
				continue
			}
			f, fits := add(sh.Fed, delta)
			if !fits {
				return tooLarge(fmt.Sprintf("shared level %q fed", id), sh.Fed, delta)
			}
			sh.Fed = f
			sh.Unbatched += delta // <= Fed
			t.setShared(sh)
		}
		if len(locals) > 0 {
			jr, err := t.op(jackpot.Contribute{Levels: locals, Bet: delta, Where: r.Machine, Game: t.claimGame(m, locals, r.GamesPlayed), At: r.At})
			if err != nil {
				return fmt.Errorf("machine %q: %w", r.Machine, err)
			}
			res.Changes, res.MysteryHits = jr.Changes, jr.Claims
		}
		fed, ok := add(m.Fed, delta)
		if !ok {
			return tooLarge(fmt.Sprintf("machine %q fed", r.Machine), m.Fed, delta)
		}
		total, ok := add(t.s.fed, delta)
		if !ok {
			return tooLarge("coin-in fed", t.s.fed, delta)
		}
		m.Fed, t.s.fed = fed, total
	}
	m.CoinIn, m.GamesPlayed, m.At = r.CoinIn, r.GamesPlayed, r.At
	t.setMachine(m)
	res.Delta = delta
	return nil
}

// claimGame is the game number a contribution registers a mystery hit
// with: the reading's games-played meter, or, if that does not come after
// the last award of the machine on one of its mystery levels (a reading
// taken while a game was under way, with the target at its reset value),
// one past that award, so that (machine, level, game) names one award.
func (t *txn) claimGame(m Machine, levels []string, games uint64) uint64 {
	g := games
	for _, tr := range m.Awards {
		if tr.Last < g || !slices.Contains(levels, tr.Level) {
			continue
		}
		if lv, ok := t.s.pools.Level(tr.Level); ok && lv.Config.Trigger == jackpot.TriggerMystery {
			g = tr.Last + 1
		}
	}
	return g
}

func (t *txn) rebase(r Rebase, res *Result) error {
	m, err := t.machine(r.Machine)
	if err != nil {
		return err
	}
	for _, tr := range m.Awards {
		if len(tr.Pending) > 0 {
			return fmt.Errorf("machine %q: %w (level %q game %d): confirm them before a rebase",
				r.Machine, ErrPendingAwards, tr.Level, tr.Pending[0].Game)
		}
	}
	for _, id := range t.s.pools.Levels() {
		lv, _ := t.s.pools.Level(id)
		for _, c := range lv.Pending {
			if c.Where == r.Machine {
				return fmt.Errorf("machine %q: %w (mystery hit on level %q at game %d): award it before a rebase",
					r.Machine, ErrPendingAwards, id, c.Game)
			}
		}
	}
	for _, id := range sortedKeys(t.s.shared) {
		for _, c := range t.s.shared[id].Unanswered {
			if c.Machine == r.Machine {
				return fmt.Errorf("machine %q: %w (claim on shared level %q game %d not yet answered): record etcd's answer and confirm it before a rebase",
					r.Machine, ErrPendingAwards, id, c.Game)
			}
		}
	}
	// Game numbers start over with the new meters; so do the tracks.
	m.Read, m.CoinIn, m.GamesPlayed, m.At, m.Awards = true, r.CoinIn, r.GamesPlayed, r.At, nil
	m.Rebases++
	t.setMachine(m)
	res.Baseline = true
	return nil
}

// track returns the index of the machine's track on level, or -1.
func track(m Machine, level string) int {
	for i, tr := range m.Awards {
		if tr.Level == level {
			return i
		}
	}
	return -1
}

// prior looks a claim up in a track: an earlier payout if it repeats one,
// or ErrStale if it comes before the last award.
func prior(tr Track, c Claim, level string) (Payout, bool, error) {
	for _, p := range tr.Pending {
		if p.Game == c.Game {
			return p, true, nil
		}
	}
	switch {
	case c.Game == tr.Last:
		return tr.LastPayout, true, nil
	case c.Game < tr.Last:
		return Payout{}, false, fmt.Errorf("machine %q level %q game %d: %w %d (confirmed; a repeat or out of order)",
			c.Machine, level, c.Game, ErrStale, tr.Last)
	}
	return Payout{}, false, nil
}

// withPayout adds an award to a machine's track (copy on write).
func withPayout(m Machine, p Payout) (Machine, error) {
	m.Awards = slices.Clone(m.Awards)
	i := track(m, p.Level)
	if i < 0 {
		m.Awards = append(m.Awards, Track{Level: p.Level})
		i = len(m.Awards) - 1
	} else if p.Game <= m.Awards[i].Last {
		return m, fmt.Errorf("%w: machine %q level %q: award for game %d after game %d", ErrInvariant, m.ID, p.Level, p.Game, m.Awards[i].Last)
	}
	tr := &m.Awards[i]
	tr.Last, tr.LastPayout = p.Game, p
	tr.Pending = append(slices.Clone(tr.Pending), p)
	return m, nil
}

func (t *txn) hit(r Hit, res *Result) error {
	if _, ok := t.s.shared[r.Level]; ok {
		return fmt.Errorf("level %q: %w: its hits are claimed from etcd (SuperClaim, then SuperClaimed)", r.Level, ErrShared)
	}
	lv, err := t.local(r.Level)
	if err != nil {
		return err
	}
	if lv.Config.Trigger != jackpot.TriggerPaytable {
		return fmt.Errorf("level %q: %w: a %v level is hit by its contributions, not by a Hit", r.Level, jackpot.ErrInvalid, lv.Config.Trigger)
	}
	if len(lv.Pending) > 0 {
		return fmt.Errorf("%w: level %q holds an unawarded claim", ErrInvariant, r.Level)
	}
	var fresh []Claim
	lastNew := map[string]uint64{}
	for _, c := range r.Claims {
		m, err := t.machine(c.Machine)
		if err != nil {
			return err
		}
		if !slices.Contains(m.Levels, r.Level) {
			return fmt.Errorf("machine %q level %q: %w", c.Machine, r.Level, ErrNotLinked)
		}
		if i := track(m, r.Level); i >= 0 {
			p, repeat, err := prior(m.Awards[i], c, r.Level)
			if err != nil {
				return err
			}
			if repeat {
				res.Repeated = append(res.Repeated, p)
				continue
			}
		}
		if g, ok := lastNew[c.Machine]; ok && c.Game < g {
			return fmt.Errorf("machine %q level %q game %d: %w %d (in the same record)", c.Machine, r.Level, c.Game, ErrStale, g)
		}
		lastNew[c.Machine] = c.Game
		fresh = append(fresh, c)
	}
	if len(fresh) == 0 {
		res.Repeat = true
		return nil
	}
	for _, c := range fresh {
		if _, err := t.op(jackpot.Hit{Level: r.Level, Bet: c.Bet, Where: c.Machine, Game: c.Game, At: r.At}); err != nil {
			return fmt.Errorf("machine %q game %d: %w", c.Machine, c.Game, err)
		}
	}
	rule := t.s.pools.RuleAmounts(r.Level)
	amounts := make([]int64, len(fresh))
	for i, c := range fresh {
		amounts[i] = c.Award(rule[i])
	}
	jr, err := t.op(jackpot.Award{Level: r.Level, Amounts: amounts, At: r.At})
	if err != nil {
		return err
	}
	if len(jr.Paid) != len(fresh) {
		return fmt.Errorf("%w: level %q paid %d claims for %d hits", ErrInvariant, r.Level, len(jr.Paid), len(fresh))
	}
	before := lv.Meters.Hits
	for i, pd := range jr.Paid {
		c := fresh[i]
		if pd.Where != c.Machine || pd.Game != c.Game {
			return fmt.Errorf("%w: level %q paid %q game %d for the claim of %q game %d", ErrInvariant, r.Level, pd.Where, pd.Game, c.Machine, c.Game)
		}
		p := Payout{Machine: c.Machine, Level: r.Level, Game: c.Game, Bet: c.Bet, Claimed: c.Claimed,
			Amount: pd.Amount / jackpot.MillicentsPerCent, Order: before + int64(i) + 1, At: r.At}
		if err := t.pay(p); err != nil {
			return err
		}
		res.Payouts = append(res.Payouts, p)
	}
	res.Changes = jr.Changes
	return nil
}

func (t *txn) pay(p Payout) error {
	m, err := t.machine(p.Machine)
	if err != nil {
		return fmt.Errorf("%w: award to %w", ErrInvariant, err)
	}
	m, err = withPayout(m, p)
	if err != nil {
		return err
	}
	t.setMachine(m)
	return nil
}

func (t *txn) award(r Award, res *Result) error {
	lv, err := t.local(r.Level)
	if err != nil {
		return err
	}
	jr, err := t.op(jackpot.Award{Level: r.Level, Target: r.TargetMC, At: r.At})
	if err != nil {
		return err
	}
	if len(jr.Paid) != len(lv.Pending) {
		return fmt.Errorf("%w: level %q paid %d of %d claims", ErrInvariant, r.Level, len(jr.Paid), len(lv.Pending))
	}
	for i, pd := range jr.Paid {
		c := lv.Pending[i]
		p := Payout{Machine: pd.Where, Level: r.Level, Game: pd.Game, Bet: c.Bet,
			Amount: pd.Amount / jackpot.MillicentsPerCent, Order: lv.Meters.Hits + int64(i) + 1, Mystery: c.Mystery, At: r.At}
		if err := t.pay(p); err != nil {
			return err
		}
		res.Payouts = append(res.Payouts, p)
	}
	res.Changes = jr.Changes
	return nil
}

func (t *txn) confirmed(r Confirmed, res *Result) error {
	m, err := t.machine(r.Machine)
	if err != nil {
		return err
	}
	i := track(m, r.Level)
	if i >= 0 {
		tr := m.Awards[i]
		for k, p := range tr.Pending {
			if p.Game != r.Game {
				continue
			}
			m.Awards = slices.Clone(m.Awards)
			m.Awards[i].Pending = slices.Delete(slices.Clone(tr.Pending), k, k+1)
			t.setMachine(m)
			if sh, ok := t.s.shared[r.Level]; ok {
				// An award etcd paid: the tally counts it confirmed.
				c, fits := add(sh.ConfirmedCents, p.Amount)
				if !fits {
					return tooLarge(fmt.Sprintf("shared level %q confirmed cents", r.Level), sh.ConfirmedCents, p.Amount)
				}
				sh.ConfirmedAwards++
				sh.ConfirmedCents = c
				t.setShared(sh)
				t.claims = append(t.claims, sh.Level)
			}
			res.Payouts = []Payout{p}
			return nil
		}
		if r.Game <= tr.Last {
			res.Repeat = true // confirmed before
			return nil
		}
	}
	return fmt.Errorf("machine %q level %q game %d: %w", r.Machine, r.Level, r.Game, ErrNotPending)
}

func (t *txn) fund(r Fund, res *Result) error {
	if _, err := t.local(r.Level); err != nil {
		return err
	}
	jr, err := t.op(jackpot.Fund{Level: r.Level, Amount: r.AmountMC, Who: r.Who, Why: r.Why, At: r.At})
	if err != nil {
		return err
	}
	res.Changes = jr.Changes
	return nil
}

func (t *txn) transfer(r Transfer, res *Result) error {
	if _, err := t.local(r.From); err != nil {
		return err
	}
	if _, err := t.local(r.To); err != nil {
		return err
	}
	if r.Close {
		var feeding []string
		for _, m := range t.s.machines {
			if slices.Contains(m.Levels, r.From) {
				feeding = append(feeding, m.ID)
			}
		}
		if len(feeding) > 0 {
			sort.Strings(feeding)
			return fmt.Errorf("level %q: %w (%d, first %q): relink them before closing it", r.From, ErrFed, len(feeding), feeding[0])
		}
	}
	jr, err := t.op(jackpot.Transfer{From: r.From, To: r.To, Current: r.CurrentMC, Reserve: r.ReserveMC, Overflow: r.OverflowMC,
		All: r.All, Close: r.Close, Who: r.Who, Why: r.Why, At: r.At})
	if err != nil {
		return err
	}
	res.Changes, res.Moved = jr.Changes, jr.Moved
	return nil
}
