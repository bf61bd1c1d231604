package ledger

import (
	"cmp"
	"errors"
	"slices"
	"sort"

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

// PendingFor returns one machine's awards not yet confirmed, in the order
// of PendingPayouts. The controller asks at every poll of every cabinet,
// under the ledger's lock: a scan of every machine there cost a
// 1,000-cabinet floor a thousand machines a poll (issue 26).
func (s *State) PendingFor(machine string) []Payout {
	var out []Payout
	for _, tr := range s.machines[machine].Awards {
		out = append(out, tr.Pending...)
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
