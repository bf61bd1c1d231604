package meters

import (
	"encoding/json"
	"fmt"
	"slices"
	"strconv"

	"github.com/openegm/cabinet/jackpot"
)

// The cabinet's own jackpot (regulation rule 3) is kept in this ledger: its
// levels are jackpot.Pools levels named by their number ("1", "2", …), and
// every record that moves jackpot money (JackpotLevel, GameStart, FreeGame,
// ProgressiveAward) is applied to the pools by the fold, which recomputes
// every amount the record states and refuses the record if one differs. The
// pools' identity (seed funding + contributions = awards + current + reserve
// + overflow) is checked with the other invariants at every commit.

// LocalWhere is the place the local pools record their hits at: this cabinet.
const LocalWhere = "cabinet"

// Pools is the local jackpot in the state; in JSON (snapshots) it is the
// jackpot package's exact binary encoding.
type Pools struct{ *jackpot.Pools }

// MarshalJSON encodes the pools as their binary encoding (base64).
func (p Pools) MarshalJSON() ([]byte, error) {
	if p.Pools == nil {
		return []byte("null"), nil
	}
	b, err := p.Pools.MarshalBinary()
	if err != nil {
		return nil, err
	}
	return json.Marshal(b)
}

// UnmarshalJSON decodes what MarshalJSON wrote, checking the pools.
func (p *Pools) UnmarshalJSON(data []byte) error {
	var b []byte
	if err := json.Unmarshal(data, &b); err != nil {
		return err
	}
	if b == nil {
		p.Pools = nil
		return nil
	}
	q := &jackpot.Pools{}
	if err := q.UnmarshalBinary(b); err != nil {
		return err
	}
	p.Pools = q
	return nil
}

func levelID(level int) string { return strconv.Itoa(level) }

// levelConfig is the jackpot configuration a JackpotLevel record opens. A
// local level has one claimant at a time (the cabinet awards a hit before
// the next game), so the second-hit rule never applies; it is set to the
// first claim wins.
func (r JackpotLevel) levelConfig() jackpot.Config {
	c := jackpot.Config{
		ResetValue: r.ResetCents * jackpot.MillicentsPerCent,
		Rate:       r.RatePPM,
		HiddenRate: r.HiddenPPM,
		Cap:        r.CapCents * jackpot.MillicentsPerCent,
		Trigger:    jackpot.TriggerPaytable,
		SecondHit:  jackpot.SecondHitWinsReset,
	}
	if r.Mystery {
		c.Trigger = jackpot.TriggerMystery
	}
	return c
}

// JackpotConfig is the pools configuration of a level record (for checks
// before it is committed and for drawing a mystery target).
func (r JackpotLevel) JackpotConfig() (jackpot.Config, error) {
	c := r.levelConfig()
	return c, c.Validate()
}

// LocalLevel is a local jackpot level as the cabinet shows it.
type LocalLevel struct {
	Level   int
	Mystery bool
	Cents   int64 // the value shown, floored to cents
	Reset   int64 // cents
	Cap     int64 // cents, 0 for none: a mystery level hits at or before it
	RatePPM int64 // of each qualifying bet into the value shown
	Pending bool  // hit, not yet awarded
}

// LocalLevels lists the open local jackpot levels in level order.
func (s *State) LocalLevels() []LocalLevel {
	if s.Jackpot.Pools == nil {
		return nil
	}
	var out []LocalLevel
	for _, id := range s.Jackpot.Levels() {
		v, _ := s.Jackpot.Level(id)
		if v.Closed {
			continue
		}
		lv, _ := strconv.Atoi(id)
		out = append(out, LocalLevel{Level: lv, Mystery: v.Config.Trigger == jackpot.TriggerMystery,
			Cents: jackpot.Cents(v.Meters.Current), Reset: jackpot.Cents(v.Config.ResetValue), Cap: jackpot.Cents(v.Config.Cap), RatePPM: v.Config.Rate,
			Pending: len(v.Pending) > 0})
	}
	slices.SortFunc(out, func(a, b LocalLevel) int { return a.Level - b.Level })
	return out
}

// localLevel returns the open local level, if there is one.
func (s *State) localLevel(level int) (jackpot.LevelView, bool) {
	if s.Jackpot.Pools == nil {
		return jackpot.LevelView{}, false
	}
	v, ok := s.Jackpot.Level(levelID(level))
	return v, ok && !v.Closed
}

// IsLocalLevel reports whether level is an open level of the local jackpot.
func (s *State) IsLocalLevel(level int) bool {
	_, ok := s.localLevel(level)
	return ok
}

// LinkedClaims are the hits on linked levels reported with the value the
// machine showed and not yet paid, oldest first: what SAS long polls 0x85
// and 0x87 answer. They survive a restart: they are in the ledger.
func (s *State) LinkedClaims() []ProgressiveHit {
	var out []ProgressiveHit
	for _, h := range s.PendingHits {
		if s.isLinkedClaim(h) {
			out = append(out, h)
		}
	}
	return out
}

// isLinkedClaim: a hit on a linked level is a claim once it is reported
// (Cents, the value shown); a local level's hit never is.
func (s *State) isLinkedClaim(h ProgressiveHit) bool { return h.Cents != 0 && !s.IsLocalLevel(h.Level) }

// ReportedLinkedHit returns the claim on linked level lv, if there is one.
func (s *State) ReportedLinkedHit(lv int) (ProgressiveHit, bool) {
	i := slices.IndexFunc(s.PendingHits, func(h ProgressiveHit) bool { return h.Level == lv && s.isLinkedClaim(h) })
	if i < 0 {
		return ProgressiveHit{}, false
	}
	return s.PendingHits[i], true
}

// JackpotContribution computes, without changing s, what a bet of betCents
// in game puts into the given local levels, and which mystery levels it
// fills: the values a GameStart must state. The fold recomputes them the
// same way.
func (s *State) JackpotContribution(levels []int, betCents int64, game uint64, at int64) ([]LevelAmount, []int, error) {
	if len(levels) == 0 {
		return nil, nil, nil
	}
	_, amounts, mystery, err := s.contribute(levels, betCents, game, at)
	return amounts, mystery, err
}

func (s *State) contribute(levels []int, betCents int64, game uint64, at int64) (*jackpot.Pools, []LevelAmount, []int, error) {
	if s.Jackpot.Pools == nil {
		return nil, nil, nil, fmt.Errorf("contribution to jackpot levels %v, but no local jackpot is open", levels)
	}
	ids := make([]string, len(levels))
	for i, lv := range levels {
		ids[i] = levelID(lv)
	}
	p := s.Jackpot.Clone()
	res, err := p.Apply(jackpot.Contribute{Levels: ids, Bet: betCents, Where: LocalWhere, Game: game, At: at})
	if err != nil {
		return nil, nil, nil, err
	}
	amounts := make([]LevelAmount, len(levels))
	for i, c := range res.Changes {
		amounts[i] = LevelAmount{Level: levels[i], Millicents: c.After.Contributions - c.Before.Contributions}
	}
	var mystery []int
	for _, c := range res.Claims {
		lv, _ := strconv.Atoi(c.Level)
		mystery = append(mystery, lv)
	}
	slices.Sort(mystery)
	return p, amounts, mystery, nil
}

// applyGameJackpot folds the jackpot part of a game start: the
// contributions it states must be exactly what the pools compute, every
// open mystery level must be fed, and a paytable hit on a local level must be
// on a level the bet qualified for. The jackpot is the reel game's: its
// paytable pays the levels and its RTP counts the contributions; a
// Makccarat hand, certified without it, neither feeds nor wins it.
func (s *State) applyGameJackpot(r GameStart) error {
	if r.Kind != "" {
		return nil // validTable refused any jackpot field
	}
	levels := make([]int, len(r.Contributions))
	for i, c := range r.Contributions {
		levels[i] = c.Level
	}
	for _, l := range s.LocalLevels() {
		if l.Mystery && !slices.Contains(levels, l.Level) {
			return fmt.Errorf("game %d does not contribute to mystery level %d, which every bet feeds", r.Game, l.Level)
		}
	}
	var p *jackpot.Pools
	if len(levels) > 0 {
		var amounts []LevelAmount
		var mystery []int
		var err error
		p, amounts, mystery, err = s.contribute(levels, r.BetCents, r.Game, r.At)
		if err != nil {
			return fmt.Errorf("game %d: %w", r.Game, err)
		}
		if !slices.Equal(amounts, r.Contributions) {
			return fmt.Errorf("game %d states jackpot contributions %v, the pools compute %v", r.Game, r.Contributions, amounts)
		}
		if !slices.Equal(mystery, r.Mystery) {
			return fmt.Errorf("game %d states mystery hits %v, the pools compute %v", r.Game, r.Mystery, mystery)
		}
	} else if len(r.Mystery) > 0 {
		return fmt.Errorf("game %d states mystery hits %v without contributing", r.Game, r.Mystery)
	}
	if err := s.registerHits(p, r.Game, r.BetCents, r.At, r.Progressives, levels); err != nil {
		return err
	}
	for _, lv := range r.Mystery {
		s.PendingHits = append(s.PendingHits, ProgressiveHit{At: r.At, Game: r.Game, Level: lv})
	}
	return nil
}

// registerHits records a spin's paytable hits: on local levels in the pools
// (p: the pools after the game's contributions, nil for s's), and every one
// as a pending hit.
func (s *State) registerHits(p *jackpot.Pools, game uint64, bet, at int64, hits, qualified []int) error {
	p, err := s.hitLocal(p, game, bet, at, hits, qualified)
	if err != nil {
		return err
	}
	if p != nil {
		s.Jackpot = Pools{p}
	}
	for _, lv := range hits {
		s.PendingHits = append(s.PendingHits, ProgressiveHit{At: at, Game: game, Level: lv})
	}
	return nil
}

// hitLocal registers paytable hits on local levels (p: the pools after the
// game's contributions, nil for s's). A hit on a level that is not local is
// for the link controller and only becomes a pending hit.
func (s *State) hitLocal(p *jackpot.Pools, game uint64, bet, at int64, hits, qualified []int) (*jackpot.Pools, error) {
	for _, lv := range hits {
		if slices.ContainsFunc(s.PendingHits, func(h ProgressiveHit) bool { return h.Game == game && h.Level == lv }) {
			return nil, fmt.Errorf("game %d wins jackpot level %d a second time", game, lv)
		}
		l, ok := s.localLevel(lv)
		if !ok {
			continue
		}
		if l.Config.Trigger != jackpot.TriggerPaytable {
			return nil, fmt.Errorf("game %d: a paytable combination cannot win mystery level %d", game, lv)
		}
		if !slices.Contains(qualified, lv) {
			return nil, fmt.Errorf("game %d wins jackpot level %d with a bet that did not contribute to it", game, lv)
		}
		if p == nil {
			p = s.Jackpot.Clone()
		}
		if _, err := p.Apply(jackpot.Hit{Level: levelID(lv), Bet: bet, Where: LocalWhere, Game: game, At: at}); err != nil {
			return nil, fmt.Errorf("game %d: %w", game, err)
		}
	}
	return p, nil
}

// applyFreeJackpot folds the jackpot hits of a free spin: levels the game had
// not won yet, on the game's qualifying levels.
func (s *State) applyFreeJackpot(r FreeGame) error {
	if len(r.Progressives) == 0 {
		return nil
	}
	st := s.Open.Start
	qualified := make([]int, len(st.Contributions))
	for i, c := range st.Contributions {
		qualified[i] = c.Level
	}
	return s.registerHits(nil, r.Game, st.BetCents, r.At, r.Progressives, qualified)
}

// LocalAward computes, without changing s, what the award of a local level's
// pending hit by game pays, in cents, with target as the mystery level's
// next hit value: the Cents a ProgressiveAward must state.
func (s *State) LocalAward(level int, game uint64, target, at int64) (int64, error) {
	_, cents, err := s.award(level, game, target, at)
	return cents, err
}

func (s *State) award(level int, game uint64, target, at int64) (*jackpot.Pools, int64, error) {
	p := s.Jackpot.Clone()
	res, err := p.Apply(jackpot.Award{Level: levelID(level), Target: target, At: at})
	if err != nil {
		return nil, 0, err
	}
	for _, pay := range res.Paid {
		if pay.Game == game && pay.Where == LocalWhere {
			return p, pay.Amount / jackpot.MillicentsPerCent, nil
		}
	}
	return nil, 0, fmt.Errorf("award of jackpot level %d pays no hit of game %d", level, game)
}

// applyJackpotLevel opens a local level.
func (s *State) applyJackpotLevel(r JackpotLevel) error {
	var p *jackpot.Pools
	if s.Jackpot.Pools == nil {
		p = &jackpot.Pools{}
	} else {
		p = s.Jackpot.Clone()
	}
	if _, err := p.Apply(jackpot.AddLevel{Level: levelID(r.Level), Config: r.levelConfig(), Target: r.Target, Who: r.Who, At: r.At}); err != nil {
		return err
	}
	s.Jackpot = Pools{p}
	return nil
}

// LocalConfig returns the pools configuration of an open local level (to
// draw a mystery level's next hit value).
func (s *State) LocalConfig(level int) (jackpot.Config, bool) {
	v, ok := s.localLevel(level)
	return v.Config, ok
}
