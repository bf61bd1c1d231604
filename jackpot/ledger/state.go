package ledger

import (
	"cmp"
	"errors"
	"fmt"
	"math"
	"slices"
	"sort"
	"strings"

	"github.com/openegm/cabinet/jackpot"
)

// Refusals of the fold, wrapped with what and where. A refused record
// changes nothing; the ledger appends nothing for it.
var (
	ErrUnknownMachine = errors.New("unknown machine")
	ErrUnknownLevel   = errors.New("unknown level")
	ErrExists         = errors.New("already set up")
	ErrShared         = errors.New("level is shared (superjackpot)")
	ErrNotLinked      = errors.New("machine does not feed the level")
	ErrBackwards      = errors.New("meter went back")
	ErrTooLarge       = errors.New("amount too large")
	ErrStale          = errors.New("hit is older than the last award")
	ErrNotPending     = errors.New("no such award pending")
	ErrPendingAwards  = errors.New("machine has awards not yet confirmed")
	ErrFed            = errors.New("level is still fed by machines")
	ErrSequence       = errors.New("batch out of sequence")
	ErrConflict       = errors.New("differs from what is recorded")
	ErrInvariant      = errors.New("ledger invariant broken")
)

// Machine is a linked machine as the ledger knows it.
type Machine struct {
	ID          string   `json:"id"`
	SAS         int      `json:"sas"`
	Levels      []string `json:"levels"` // local and shared levels it feeds
	Read        bool     `json:"read"`   // a reading or a rebase set the baseline
	CoinIn      int64    `json:"coin_in"`
	GamesPlayed uint64   `json:"games_played"`
	At          int64    `json:"at"`      // time of the last reading that moved the baseline
	Fed         int64    `json:"fed"`     // cents of coin-in contributed, since setup
	Rebases     int64    `json:"rebases"` // Rebase records
	Awards      []Track  `json:"awards,omitempty"`
}

// Track is what the ledger keeps of a machine's awards on one level: the
// last awarded game and the awards not yet confirmed. Games only grow
// (until a Rebase, which needs no award pending, starts the track over).
type Track struct {
	Level      string   `json:"level"`
	Last       uint64   `json:"last"`
	LastPayout Payout   `json:"last_payout"`
	Pending    []Payout `json:"pending,omitempty"` // oldest first, games increasing
}

// Payout is one award to a machine.
type Payout struct {
	Machine string `json:"machine"`
	Level   string `json:"level"`
	Game    uint64 `json:"game"`
	Bet     int64  `json:"bet"`     // cents
	Claimed int64  `json:"claimed"` // cents the machine showed (0 for a mystery award)
	Amount  int64  `json:"amount"`  // cents awarded
	Order   int64  `json:"order"`   // the level's hit count with this award: 1, 2, …
	Mystery bool   `json:"mystery"`
	At      int64  `json:"at"`
	// Revision is the etcd revision of the transaction that paid an award
	// on a shared level (SuperClaimed); 0 for a local level.
	Revision int64 `json:"revision,omitempty"`
}

// Shared is what this controller keeps of a shared level: the coin-in its
// machines feed to it and the batches that carry it out, and the tally of
// its machines' claims. The level's pool, and the money its awards take
// from it, are in etcd, not in this controller's pools: an award on it is a
// machine's pending payout here (PendingPayouts) and counts in the tally.
type Shared struct {
	Level       string  `json:"level"`
	Fed         int64   `json:"fed"`               // cents fed by its machines
	Unbatched   int64   `json:"unbatched"`         // cents fed and not yet in a batch
	Applied     uint64  `json:"applied"`           // last batch seq etcd confirmed
	AppliedBet  int64   `json:"applied_bet"`       // cents in confirmed batches
	Contributed int64   `json:"contributed"`       // millicents etcd reported for them
	Triggers    int64   `json:"triggers"`          // confirmed batches that reached a mystery target
	Pending     []Batch `json:"pending,omitempty"` // recorded, not yet confirmed: seqs Applied+1, …

	// The claims tally: Claims = Answered + len(Unanswered); AwardedCents
	// is the sum of the answered claims' amounts, of which the machines
	// confirmed ConfirmedAwards awards worth ConfirmedCents; the others
	// are the machines' pending payouts on the level.
	Claims          int64        `json:"claims"`               // SuperClaim records: claims sent to etcd
	Answered        int64        `json:"answered"`             // SuperClaimed records: claims etcd answered
	AwardedCents    int64        `json:"awarded_cents"`        // cents awarded by those answers
	ConfirmedAwards int64        `json:"confirmed_awards"`     // answered awards their machine confirmed
	ConfirmedCents  int64        `json:"confirmed_cents"`      // cents of those
	Unanswered      []SuperClaim `json:"unanswered,omitempty"` // claims recorded, not yet answered, by machine then game
}

// NextSeq is the seq of the next batch.
func (s Shared) NextSeq() uint64 { return s.Applied + uint64(len(s.Pending)) + 1 }

// Batch is a recorded super batch.
type Batch struct {
	Level string `json:"level"`
	Seq   uint64 `json:"seq"`
	Bet   int64  `json:"bet"` // cents
	At    int64  `json:"at"`
}

// Result is what a committed (or repeated) record did.
type Result struct {
	Type Type
	// Repeat: the record repeats what is already committed (a reading
	// equal to the baseline, a hit already awarded, a confirmation already
	// made, a batch already recorded or confirmed). Nothing changed and
	// the ledger logged nothing.
	Repeat bool
	// Seq is the log record that made it durable; 0 if nothing was logged.
	Seq uint64
	// Baseline: a Meters or Rebase record set the baseline, contributing
	// nothing.
	Baseline bool
	// Delta is the coin-in a Meters record contributed, cents.
	Delta int64
	// Changes are the levels the record touched, meters before and after
	// (to broadcast the new values).
	Changes []jackpot.Change
	// MysteryHits are mystery levels a Meters record brought to their
	// target. Each waits for an Award record (with the next target).
	MysteryHits []jackpot.LevelClaim
	// Payouts are the awards made (Hit, Award) or confirmed (Confirmed).
	Payouts []Payout
	// Repeated are the earlier payouts of claims a Hit repeated.
	Repeated []Payout
	// Moved is the transfer (Transfer).
	Moved *jackpot.TransferRecord
	// Batch is the batch recorded (SuperBatch: send it) or confirmed
	// (SuperApplied).
	Batch *Batch
	// SuperClaim is the claim recorded (SuperClaim: send it to etcd), the
	// one recorded before (a repeated SuperClaim still unanswered: send
	// that one, unchanged), or the claim etcd answered (SuperClaimed). A
	// repeated SuperClaim already answered gives its payout in Repeated.
	SuperClaim *SuperClaim
}

// Events kept in the state.
const eventsKept = 100

// State is the fold of the controller's ledger: the pools of the local
// levels (package jackpot), the shared levels, the machines with their
// meter baselines and awards, and counters. The zero value is not ready;
// use NewState.
//
// Every record is applied entirely or not at all: a refused record leaves
// the state exactly as it was. Between any two records the invariants of
// Check hold.
type State struct {
	pools    *jackpot.Pools
	shared   map[string]Shared
	machines map[string]Machine
	records  uint64 // records folded (entries of a batch one by one)
	fed      int64  // cents of coin-in contributed, all machines
	counts   [lastType + 1]uint64
	events   []Event // the last eventsKept, oldest first
}

// NewState is the state of an empty ledger.
func NewState() *State {
	return &State{pools: &jackpot.Pools{}, shared: map[string]Shared{}, machines: map[string]Machine{}}
}

// Records is the number of records folded.
func (s *State) Records() uint64 { return s.records }

// Count is the number of records of type t folded.
func (s *State) Count(t Type) uint64 {
	if int(t) < len(s.counts) {
		return s.counts[t]
	}
	return 0
}

// Fed is the coin-in contributed by all machines, cents.
func (s *State) Fed() int64 { return s.fed }

// Levels lists the local levels in creation order.
func (s *State) Levels() []string { return s.pools.Levels() }

// Level returns a local level (without its mystery target).
func (s *State) Level(id string) (jackpot.LevelView, bool) { return s.pools.Level(id) }

// Totals sums the meters of all local levels.
func (s *State) Totals() (jackpot.Meters, error) { return s.pools.Totals() }

// Transfers returns the last transfers, newest last.
func (s *State) Transfers() []jackpot.TransferRecord { return s.pools.Transfers() }

// Machine returns a machine.
func (s *State) Machine(id string) (Machine, bool) {
	m, ok := s.machines[id]
	return cloneMachine(m), ok
}

// Machines returns every machine, by ID.
func (s *State) Machines() []Machine {
	out := make([]Machine, 0, len(s.machines))
	for _, m := range s.machines {
		out = append(out, cloneMachine(m))
	}
	sort.Slice(out, func(i, j int) bool { return out[i].ID < out[j].ID })
	return out
}

// SharedLevel returns a shared level.
func (s *State) SharedLevel(id string) (Shared, bool) {
	sh, ok := s.shared[id]
	return cloneShared(sh), ok
}

// SharedLevels returns every shared level, by name.
func (s *State) SharedLevels() []Shared {
	out := make([]Shared, 0, len(s.shared))
	for _, sh := range s.shared {
		out = append(out, cloneShared(sh))
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Level < out[j].Level })
	return out
}

// Unsent returns the batches recorded and not yet confirmed, per level in
// seq order: after a restart the controller sends them again, unchanged.
func (s *State) Unsent() []Batch {
	var out []Batch
	for _, sh := range s.SharedLevels() {
		out = append(out, sh.Pending...)
	}
	return out
}

// PendingSuperClaims returns the claims on shared levels recorded and not
// yet answered, oldest first (by time, then machine, level and game):
// after a restart the controller sends each to etcd again, unchanged, and
// records the answer (SuperClaimed).
func (s *State) PendingSuperClaims() []SuperClaim {
	var out []SuperClaim
	for _, sh := range s.shared {
		out = append(out, sh.Unanswered...)
	}
	slices.SortFunc(out, func(a, b SuperClaim) int {
		return oldestFirst(a.At, b.At, a.Machine, b.Machine, a.Level, b.Level, a.Game, b.Game)
	})
	return out
}

// PendingPayouts returns the awards not yet confirmed by their machine,
// oldest first (by time, then machine, level and game): after a restart the
// controller tells each machine again.
func (s *State) PendingPayouts() []Payout {
	var out []Payout
	for _, m := range s.machines {
		for _, tr := range m.Awards {
			out = append(out, tr.Pending...)
		}
	}
	slices.SortFunc(out, func(a, b Payout) int {
		return oldestFirst(a.At, b.At, a.Machine, b.Machine, a.Level, b.Level, a.Game, b.Game)
	})
	return out
}

// oldestFirst orders claims and payouts by time, then machine, level and
// game.
func oldestFirst(atA, atB int64, mA, mB, lA, lB string, gA, gB uint64) int {
	return cmp.Or(cmp.Compare(atA, atB), cmp.Compare(mA, mB), cmp.Compare(lA, lB), cmp.Compare(gA, gB))
}

// PendingMystery returns the mystery hits waiting for an Award record.
func (s *State) PendingMystery() []jackpot.LevelClaim {
	var out []jackpot.LevelClaim
	for _, id := range s.pools.Levels() {
		lv, _ := s.pools.Level(id)
		for _, c := range lv.Pending {
			out = append(out, jackpot.LevelClaim{Level: id, Claim: c})
		}
	}
	return out
}

// Events returns the last events, oldest first.
func (s *State) Events() []Event { return slices.Clone(s.events) }

func cloneShared(sh Shared) Shared {
	sh.Pending = slices.Clone(sh.Pending)
	sh.Unanswered = slices.Clone(sh.Unanswered)
	return sh
}

func cloneMachine(m Machine) Machine {
	m.Levels = slices.Clone(m.Levels)
	m.Awards = slices.Clone(m.Awards)
	for i := range m.Awards {
		m.Awards[i].Pending = slices.Clone(m.Awards[i].Pending)
	}
	return m
}

// Clone returns an independent copy.
func (s *State) Clone() *State {
	c := *s
	c.pools = s.pools.Clone()
	c.shared = make(map[string]Shared, len(s.shared))
	for k, v := range s.shared {
		c.shared[k] = cloneShared(v)
	}
	c.machines = make(map[string]Machine, len(s.machines))
	for k, v := range s.machines {
		c.machines[k] = cloneMachine(v)
	}
	c.events = slices.Clone(s.events)
	return &c
}

// Apply folds r into s. On error s is unchanged.
func (s *State) Apply(r Record) (Result, error) {
	t := s.begin()
	res, err := t.fold(r)
	if err == nil {
		err = t.check()
	}
	if err != nil {
		t.rollback()
		return Result{}, err
	}
	return res, nil
}

// ApplyAll folds records in order, all or none. An error names the index
// of the record refused.
func (s *State) ApplyAll(recs []Record) ([]Result, error) {
	t := s.begin()
	out, err := t.foldAll(recs)
	if err == nil {
		err = t.check()
	}
	if err != nil {
		t.rollback()
		return nil, err
	}
	return out, nil
}

// txn folds records in place and keeps what is needed to undo them: a
// copy of the pools before the first op (jackpot's Clone is cheap: claims
// and histories are copy-on-write), and the previous value of every map
// entry and counter it changed. The ledger holds a txn open across the
// append, so a failed write restores the state as well.
type txn struct {
	s           *State
	undo        []func()
	poolsBefore *jackpot.Pools // the pools before the first op (Clone)
	records     uint64
	fed         int64
	counts      [lastType + 1]uint64
	events      []Event
	machines    []string // touched, to check at the end
	shared      []string
	claims      []string // shared levels whose claims tally changed: cross-checked with the machines
	touched     bool     // a jackpot op was applied
	noUndo      bool     // replay: a failure is a fault, nothing to restore
}

func (s *State) begin() *txn {
	return &txn{s: s, records: s.records, fed: s.fed, counts: s.counts, events: s.events}
}

func (t *txn) rollback() {
	for i := len(t.undo) - 1; i >= 0; i-- {
		t.undo[i]()
	}
	if t.poolsBefore != nil {
		t.s.pools = t.poolsBefore
	}
	t.s.records, t.s.fed, t.s.counts, t.s.events = t.records, t.fed, t.counts, t.events
	t.undo, t.poolsBefore = nil, nil
}

func (t *txn) setMachine(m Machine) {
	s := t.s
	t.machines = append(t.machines, m.ID)
	if t.noUndo {
		s.machines[m.ID] = m
		return
	}
	old, had := s.machines[m.ID]
	t.undo = append(t.undo, func() {
		if had {
			s.machines[m.ID] = old
		} else {
			delete(s.machines, m.ID)
		}
	})
	s.machines[m.ID] = m
}

func (t *txn) setShared(sh Shared) {
	s := t.s
	t.shared = append(t.shared, sh.Level)
	if t.noUndo {
		s.shared[sh.Level] = sh
		return
	}
	old, had := s.shared[sh.Level]
	t.undo = append(t.undo, func() {
		if had {
			s.shared[sh.Level] = old
		} else {
			delete(s.shared, sh.Level)
		}
	})
	s.shared[sh.Level] = sh
}

// op applies one jackpot op; the first one saves the pools for rollback.
func (t *txn) op(o jackpot.Op) (jackpot.Result, error) {
	t.touched = true
	if t.poolsBefore == nil && !t.noUndo {
		t.poolsBefore = t.s.pools.Clone()
	}
	return t.s.pools.Apply(o)
}

func (t *txn) foldAll(recs []Record) ([]Result, error) {
	out := make([]Result, len(recs))
	for i, r := range recs {
		res, err := t.fold(r)
		if err != nil {
			return nil, &IndexError{Index: i, Err: err}
		}
		out[i] = res
	}
	return out, nil
}

// IndexError names the record of a batch that was refused.
type IndexError struct {
	Index int
	Err   error
}

func (e *IndexError) Error() string { return fmt.Sprintf("batch entry %d: %v", e.Index, e.Err) }
func (e *IndexError) Unwrap() error { return e.Err }

// fold applies one record.
func (t *txn) fold(r Record) (Result, error) {
	if r == nil {
		return Result{}, bad("nil record")
	}
	if err := r.validate(); err != nil {
		return Result{}, fmt.Errorf("%v: %w", r.Type(), err)
	}
	res := Result{Type: r.Type()}
	var err error
	switch r := r.(type) {
	case SetupLevel:
		err = t.setupLevel(r, &res)
	case SetupShared:
		err = t.setupShared(r)
	case SetupMachine:
		err = t.setupMachine(r)
	case Meters:
		err = t.meters(r, &res)
	case Rebase:
		err = t.rebase(r, &res)
	case Hit:
		err = t.hit(r, &res)
	case Award:
		err = t.award(r, &res)
	case Confirmed:
		err = t.confirmed(r, &res)
	case Fund:
		err = t.fund(r, &res)
	case Transfer:
		err = t.transfer(r, &res)
	case SuperBatch:
		err = t.superBatch(r, &res)
	case SuperApplied:
		err = t.superApplied(r, &res)
	case SuperClaim:
		err = t.superClaim(r, &res)
	case SuperClaimed:
		err = t.superClaimed(r, &res)
	case Event:
		t.s.events = keepLast(append(slices.Clip(t.s.events), r), eventsKept)
	default:
		err = bad("unsupported record %T (records are values, not pointers)", r)
	}
	if err != nil {
		return Result{}, fmt.Errorf("%v: %w", r.Type(), err)
	}
	if !res.Repeat {
		t.s.records++
		t.s.counts[r.Type()]++
	}
	return res, nil
}

func keepLast[T any](s []T, n int) []T {
	if len(s) > n {
		return slices.Clone(s[len(s)-n:])
	}
	return s
}

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

// add returns a+b for non-negative amounts, or false on an overflow.
func add(a, b int64) (int64, bool) {
	if b > math.MaxInt64-a {
		return 0, false
	}
	return a + b, true
}

func tooLarge(what string, a, b int64) error {
	return fmt.Errorf("%s: %d + %d: %w", what, a, b, ErrTooLarge)
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

// sortedKeys returns the keys of a map in order (for deterministic errors).
func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
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
