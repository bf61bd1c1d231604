package ledger

import (
	"bytes"
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/openegm/cabinet/jackpot"
)

func TestMetersContributeDeltas(t *testing.T) {
	s := newState(t, 2)
	res := mustApply(t, s, Meters{At: 2, Machine: "M000", CoinIn: 1_000_000, GamesPlayed: 5000})
	if !res.Baseline || res.Delta != 0 || len(res.Changes) != 0 {
		t.Fatalf("first reading: %+v", res)
	}
	if q := level(t, s, "grand").Meters.QualifyingBets; q != 0 {
		t.Fatalf("first reading contributed %d", q)
	}
	res = mustApply(t, s, Meters{At: 3, Machine: "M000", CoinIn: 1_000_250, GamesPlayed: 5003})
	if res.Delta != 250 || len(res.Changes) != 3 {
		t.Fatalf("second reading: %+v", res)
	}
	for _, id := range []string{"grand", "major", "mini"} {
		if q := level(t, s, id).Meters.QualifyingBets; q != 250 {
			t.Fatalf("level %s: qualifying bets %d, want 250", id, q)
		}
	}
	if sh, _ := s.SharedLevel("super"); sh.Fed != 250 || sh.Unbatched != 250 {
		t.Fatalf("shared: %+v", sh)
	}
	// The contribution is the delta at the level's rates: 250 * 5000 ppm =
	// 1250 millicents main, 250 * 1000 ppm = 250 hidden.
	if m := level(t, s, "grand").Meters; m.Contributions != 1500 || m.HiddenContributions != 250 {
		t.Fatalf("grand contributions %+v", m)
	}

	before := stateJSON(t, s)
	res = mustApply(t, s, Meters{At: 4, Machine: "M000", CoinIn: 1_000_250, GamesPlayed: 5003})
	if !res.Repeat {
		t.Fatalf("repeated reading: %+v", res)
	}
	if stateJSON(t, s) != before {
		t.Fatal("a repeated reading changed the state")
	}
	_, err := s.Apply(Meters{At: 5, Machine: "M000", CoinIn: 1_000_000, GamesPlayed: 5003})
	mustRefuse(t, err, ErrBackwards)
	for _, want := range []string{`"M000"`, "1000000", "1000250", "Rebase"} {
		if !strings.Contains(err.Error(), want) {
			t.Fatalf("error %q does not say %s", err, want)
		}
	}
	_, err = s.Apply(Meters{At: 5, Machine: "M000", CoinIn: 1_000_300, GamesPlayed: 5002})
	mustRefuse(t, err, ErrBackwards)
	_, err = s.Apply(Meters{At: 5, Machine: "M999", CoinIn: 1})
	mustRefuse(t, err, ErrUnknownMachine)
	if stateJSON(t, s) != before {
		t.Fatal("a refused reading changed the state")
	}

	// The games meter alone moving is logged (it moves the baseline) but
	// contributes nothing.
	res = mustApply(t, s, Meters{At: 6, Machine: "M000", CoinIn: 1_000_250, GamesPlayed: 5004})
	if res.Repeat || res.Delta != 0 || len(res.Changes) != 0 {
		t.Fatalf("games only: %+v", res)
	}
	// A machine that does not feed super contributes to the local levels only.
	mustApply(t, s, Meters{At: 7, Machine: "M001", CoinIn: 10})
	mustApply(t, s, Meters{At: 8, Machine: "M001", CoinIn: 20, GamesPlayed: 1})
	if sh, _ := s.SharedLevel("super"); sh.Fed != 250 {
		t.Fatalf("odd machine fed super: %+v", sh)
	}
	if s.Fed() != 260 {
		t.Fatalf("fed %d", s.Fed())
	}
}

func TestRebase(t *testing.T) {
	s := newState(t, 1)
	mustApply(t, s, Meters{At: 1, Machine: "M000", CoinIn: 5000, GamesPlayed: 100})
	mustApply(t, s, Meters{At: 2, Machine: "M000", CoinIn: 6000, GamesPlayed: 110})
	_, err := s.Apply(Rebase{At: 3, Machine: "M000", Who: "tech"})
	mustRefuse(t, err, ErrRecord) // no why
	res := mustApply(t, s, Rebase{At: 3, Machine: "M000", CoinIn: 0, GamesPlayed: 0, Who: "tech", Why: "RAM clear after board swap"})
	if !res.Baseline || res.Delta != 0 {
		t.Fatalf("rebase: %+v", res)
	}
	res = mustApply(t, s, Meters{At: 4, Machine: "M000", CoinIn: 300, GamesPlayed: 3})
	if res.Delta != 300 || level(t, s, "grand").Meters.QualifyingBets != 1300 {
		t.Fatalf("after rebase: %+v, grand %d", res, level(t, s, "grand").Meters.QualifyingBets)
	}
	// Not with an award pending.
	mustApply(t, s, Hit{At: 5, Level: "grand", Claims: []Claim{{Machine: "M000", Game: 3, Bet: 100}}})
	_, err = s.Apply(Rebase{At: 6, Machine: "M000", Who: "tech", Why: "again"})
	mustRefuse(t, err, ErrPendingAwards)
	mustApply(t, s, Confirmed{At: 6, Machine: "M000", Level: "grand", Game: 3})
	mustApply(t, s, Rebase{At: 7, Machine: "M000", Who: "tech", Why: "again"})
	// Game numbers start over: game 1 is a new hit.
	res = mustApply(t, s, Hit{At: 8, Level: "grand", Claims: []Claim{{Machine: "M000", Game: 1, Bet: 100}}})
	if len(res.Payouts) != 1 || res.Repeat {
		t.Fatalf("hit after rebase: %+v", res)
	}
	if m, _ := s.Machine("M000"); m.Rebases != 2 {
		t.Fatalf("rebases %d", m.Rebases)
	}
}

func TestHitAwardedExactlyOnce(t *testing.T) {
	s := newState(t, 3)
	mustApply(t, s, Meters{At: 1, Machine: "M001", CoinIn: 0})
	mustApply(t, s, Meters{At: 2, Machine: "M001", CoinIn: 1_000_000, GamesPlayed: 10_000})
	value := level(t, s, "grand").Meters.Current
	hit := Hit{At: 3, Level: "grand", Claims: []Claim{{Machine: "M001", Game: 9_999, Bet: 200, Claimed: jackpot.Cents(value)}}}
	res := mustApply(t, s, hit)
	if len(res.Payouts) != 1 || res.Repeat {
		t.Fatalf("hit: %+v", res)
	}
	p := res.Payouts[0]
	if p.Amount != jackpot.Cents(value) || p.Order != 1 || p.Machine != "M001" || p.Game != 9_999 {
		t.Fatalf("payout %+v, level held %d mc", p, value)
	}
	lv := level(t, s, "grand")
	if lv.Meters.Current != grandCfg.ResetValue || lv.Meters.Hits != 1 || len(lv.Pending) != 0 {
		t.Fatalf("after award: %+v", lv.Meters)
	}
	if got := s.PendingPayouts(); len(got) != 1 || got[0] != p {
		t.Fatalf("pending %+v", got)
	}

	// The machine sends it again (it did not hear the answer): same payout,
	// nothing paid.
	before := stateJSON(t, s)
	res = mustApply(t, s, hit)
	if !res.Repeat || len(res.Payouts) != 0 || len(res.Repeated) != 1 || res.Repeated[0] != p {
		t.Fatalf("repeat: %+v", res)
	}
	if stateJSON(t, s) != before {
		t.Fatal("a repeated hit changed the state")
	}

	res = mustApply(t, s, Confirmed{At: 4, Machine: "M001", Level: "grand", Game: 9_999})
	if len(res.Payouts) != 1 || res.Payouts[0] != p || len(s.PendingPayouts()) != 0 {
		t.Fatalf("confirm: %+v", res)
	}
	res = mustApply(t, s, Confirmed{At: 5, Machine: "M001", Level: "grand", Game: 9_999})
	if !res.Repeat {
		t.Fatalf("confirm again: %+v", res)
	}
	// Even confirmed, the last award is recognised.
	res = mustApply(t, s, hit)
	if !res.Repeat || res.Repeated[0] != p {
		t.Fatalf("repeat after confirmation: %+v", res)
	}
	_, err := s.Apply(Hit{At: 6, Level: "grand", Claims: []Claim{{Machine: "M001", Game: 9_000, Bet: 200}}})
	mustRefuse(t, err, ErrStale)
	_, err = s.Apply(Confirmed{At: 6, Machine: "M001", Level: "grand", Game: 10_000})
	mustRefuse(t, err, ErrNotPending)
	_, err = s.Apply(Confirmed{At: 6, Machine: "M002", Level: "grand", Game: 1})
	mustRefuse(t, err, ErrNotPending)
	_, err = s.Apply(Hit{At: 6, Level: "grand", Claims: []Claim{{Machine: "M001", Game: 10_001, Bet: 99}}})
	mustRefuse(t, err, jackpot.ErrInvalid) // below the minimum hit bet
	_, err = s.Apply(Hit{At: 6, Level: "mini", Claims: []Claim{{Machine: "M001", Game: 10_001, Bet: 100}}})
	mustRefuse(t, err, jackpot.ErrInvalid) // a mystery level is not hit by a Hit
	_, err = s.Apply(Hit{At: 6, Level: "super", Claims: []Claim{{Machine: "M001", Game: 10_001, Bet: 100}}})
	mustRefuse(t, err, ErrShared)
	_, err = s.Apply(Hit{At: 6, Level: "nope", Claims: []Claim{{Machine: "M001", Game: 10_001, Bet: 100}}})
	mustRefuse(t, err, ErrUnknownLevel)
	_, err = s.Apply(Hit{At: 6, Level: "grand", Claims: []Claim{{Machine: "M999", Game: 1, Bet: 100}}})
	mustRefuse(t, err, ErrUnknownMachine)
	mustApply(t, s, SetupMachine{At: 6, Machine: "M002", SAS: 3, Levels: []string{"major"}, Who: "tech"})
	_, err = s.Apply(Hit{At: 6, Level: "grand", Claims: []Claim{{Machine: "M002", Game: 1, Bet: 100}}})
	mustRefuse(t, err, ErrNotLinked)

	// The next game's hit is new, and wins the level as it is now.
	res = mustApply(t, s, Hit{At: 7, Level: "grand", Claims: []Claim{{Machine: "M001", Game: 10_001, Bet: 100}}})
	if len(res.Payouts) != 1 || res.Payouts[0].Amount != grandCfg.ResetValue/mc || res.Payouts[0].Order != 2 {
		t.Fatalf("second hit: %+v", res)
	}
}

func TestNearSimultaneousHits(t *testing.T) {
	for _, tc := range []struct {
		level string
		cfg   jackpot.Config
	}{{"grand", grandCfg}, {"major", majorCfg}} {
		s := newState(t, 3)
		mustApply(t, s, Meters{At: 1, Machine: "M000", CoinIn: 0})
		mustApply(t, s, Meters{At: 2, Machine: "M000", CoinIn: 5_000_000, GamesPlayed: 1})
		value := level(t, s, tc.level).Meters.Current
		claims := []Claim{{Machine: "M002", Game: 7, Bet: 100}, {Machine: "M001", Game: 3, Bet: 100}}
		res := mustApply(t, s, Hit{At: 3, Level: tc.level, Claims: claims})
		if len(res.Payouts) != 2 {
			t.Fatalf("%s: %+v", tc.level, res)
		}
		a, b := res.Payouts[0], res.Payouts[1]
		if a.Machine != "M002" || b.Machine != "M001" || a.Order != 1 || b.Order != 2 {
			t.Fatalf("%s: not in the order given: %+v", tc.level, res.Payouts)
		}
		switch tc.cfg.SecondHit {
		case jackpot.SecondHitWinsReset:
			if a.Amount != jackpot.Cents(value) || b.Amount != tc.cfg.ResetValue/mc {
				t.Fatalf("wins-reset: %d, %d of %d", a.Amount, b.Amount, value)
			}
		case jackpot.SplitAmount:
			if a.Amount != jackpot.Cents(value)/2 || b.Amount != a.Amount {
				t.Fatalf("split: %d, %d of %d", a.Amount, b.Amount, value)
			}
		}
		// One claim new, one repeated: only the new one is paid.
		res = mustApply(t, s, Hit{At: 4, Level: tc.level, Claims: []Claim{{Machine: "M001", Game: 3, Bet: 100}, {Machine: "M002", Game: 8, Bet: 100}}})
		if len(res.Payouts) != 1 || res.Payouts[0].Machine != "M002" || len(res.Repeated) != 1 || res.Repeated[0] != b {
			t.Fatalf("%s mixed: %+v", tc.level, res)
		}
	}
}

func TestMysteryHitAndAward(t *testing.T) {
	s := newState(t, 2)
	mustApply(t, s, Meters{At: 1, Machine: "M000", CoinIn: 0})
	mustApply(t, s, Meters{At: 1, Machine: "M001", CoinIn: 0})
	var hit *jackpot.LevelClaim
	coin := int64(0)
	for i := 1; hit == nil; i++ {
		if i > 100000 {
			t.Fatal("mystery target never reached")
		}
		coin += 100
		res := mustApply(t, s, Meters{At: int64(i), Machine: machineID(i % 2), CoinIn: coin / 2, GamesPlayed: uint64(i)})
		for _, c := range res.MysteryHits {
			hit = &c
		}
		if i%2 == 1 {
			coin -= 100 // both machines at the same pace
		}
	}
	lv := level(t, s, "mini")
	if lv.Meters.Current != 30_00*mc || len(lv.Pending) != 1 || len(s.PendingMystery()) != 1 {
		t.Fatalf("mystery not at its target: %+v", lv)
	}
	// While it waits for the award the value is frozen, and its machine
	// cannot be re-based.
	m, _ := s.Machine(hit.Where)
	_, err := s.Apply(Rebase{At: 1e6, Machine: hit.Where, Who: "tech", Why: "RAM clear"})
	mustRefuse(t, err, ErrPendingAwards)
	mustApply(t, s, Meters{At: 1e6, Machine: hit.Where, CoinIn: m.CoinIn + 1000, GamesPlayed: m.GamesPlayed + 1})
	if level(t, s, "mini").Meters.Current != 30_00*mc {
		t.Fatal("value moved while the hit was pending")
	}
	_, err = s.Apply(Award{At: 1e6, Level: "mini", TargetMC: 60_00 * mc})
	mustRefuse(t, err, jackpot.ErrInvalid) // above the cap
	res := mustApply(t, s, Award{At: 1e6, Level: "mini", TargetMC: 25_00 * mc})
	if len(res.Payouts) != 1 {
		t.Fatalf("award: %+v", res)
	}
	p := res.Payouts[0]
	if p.Amount != 30_00 || !p.Mystery || p.Machine != hit.Where || p.Game != hit.Game {
		t.Fatalf("mystery payout %+v for %+v", p, hit)
	}
	if got := s.PendingPayouts(); len(got) != 1 || got[0] != p {
		t.Fatalf("pending %+v", got)
	}
	_, err = s.Apply(Award{At: 1e6, Level: "mini"})
	mustRefuse(t, err, jackpot.ErrNoHit)
	mustApply(t, s, Confirmed{At: 1e6, Machine: p.Machine, Level: "mini", Game: p.Game, Who: "attendant 7"})
	if len(s.PendingPayouts()) != 0 || len(s.PendingMystery()) != 0 {
		t.Fatal("still pending")
	}
}

// A mystery target at its reset value is reached by the first contribution
// after the reset: a reading taken in the same game as the award must not
// give a second award the same (machine, level, game).
func TestMysteryAwardsHaveDistinctGames(t *testing.T) {
	s := newState(t, 1)
	cfg := miniCfg
	mustApply(t, s, LevelSetup(1, "tiny", cfg, cfg.ResetValue, "tech"))
	mustApply(t, s, SetupMachine{At: 1, Machine: "M000", SAS: 1, Levels: []string{"tiny"}, Who: "tech"})
	mustApply(t, s, Meters{At: 1, Machine: "M000", CoinIn: 0, GamesPlayed: 5})
	var awards []Payout
	for i := range 4 {
		res := mustApply(t, s, Meters{At: 2, Machine: "M000", CoinIn: int64(i+1) * 10, GamesPlayed: 5})
		if len(res.MysteryHits) != 1 {
			t.Fatalf("reading %d: %+v", i, res)
		}
		res = mustApply(t, s, Award{At: 3, Level: "tiny", TargetMC: cfg.ResetValue})
		awards = append(awards, res.Payouts...)
	}
	for i, p := range awards {
		if p.Game != 5+uint64(i) {
			t.Fatalf("award %d for game %d: %+v", i, p.Game, awards)
		}
	}
	for _, p := range awards {
		mustApply(t, s, Confirmed{At: 4, Machine: "M000", Level: "tiny", Game: p.Game})
	}
	if len(s.PendingPayouts()) != 0 {
		t.Fatal("awards left pending")
	}
}

func TestFundAndTransfer(t *testing.T) {
	s := newState(t, 2)
	mustApply(t, s, Meters{At: 1, Machine: "M000", CoinIn: 0})
	mustApply(t, s, Meters{At: 2, Machine: "M000", CoinIn: 1_234_567, GamesPlayed: 10})
	mustApply(t, s, Fund{At: 3, Level: "major", AmountMC: 100_00 * mc, Who: "floor manager", Why: "advance seed"})
	_, err := s.Apply(Fund{At: 3, Level: "major", AmountMC: 1, Who: "x", Why: "y"})
	mustRefuse(t, err, ErrRecord) // not whole cents
	total := func() int64 {
		var sum int64
		for _, id := range s.Levels() {
			m := level(t, s, id).Meters
			sum += m.Current + m.Reserve + m.Overflow
		}
		return sum
	}
	before := total()
	_, err = s.Apply(Transfer{At: 4, From: "major", To: "grand", All: true, Who: "floor manager"})
	mustRefuse(t, err, ErrRecord) // no why
	_, err = s.Apply(Transfer{At: 4, From: "major", To: "grand", All: true, Close: true, Who: "fm", Why: "model withdrawn"})
	mustRefuse(t, err, ErrFed)
	res := mustApply(t, s, Transfer{At: 4, From: "major", To: "grand", ReserveMC: 50_00 * mc, Who: "fm", Why: "inspectorate order 12/2026"})
	if res.Moved == nil || res.Moved.Amount() != 50_00*mc {
		t.Fatalf("transfer: %+v", res)
	}
	if total() != before {
		t.Fatalf("value created or lost: %d → %d", before, total())
	}
	for i := range 2 {
		mustApply(t, s, SetupMachine{At: 5, Machine: machineID(i), SAS: 1 + i, Levels: []string{"grand", "mini"}, Who: "tech"})
	}
	res = mustApply(t, s, Transfer{At: 6, From: "major", To: "grand", All: true, Close: true, Who: "fm", Why: "model withdrawn"})
	if total() != before || !level(t, s, "major").Closed {
		t.Fatalf("close: %+v", res)
	}
	_, err = s.Apply(SetupMachine{At: 7, Machine: "M000", SAS: 1, Levels: []string{"major"}, Who: "tech"})
	mustRefuse(t, err, jackpot.ErrClosed)
	_, err = s.Apply(Transfer{At: 7, From: "grand", To: "super", All: true, Who: "fm", Why: "no"})
	mustRefuse(t, err, ErrShared)
	rep, err := s.Report()
	if err != nil || !rep.Holds {
		t.Fatalf("report: %v %+v", err, rep)
	}
}

func TestSuperBatches(t *testing.T) {
	s := newState(t, 2)
	mustApply(t, s, Meters{At: 1, Machine: "M000", CoinIn: 0})
	mustApply(t, s, Meters{At: 2, Machine: "M000", CoinIn: 10_000, GamesPlayed: 10})
	_, err := s.Apply(SuperBatch{At: 3, Level: "super", Seq: 2, Bet: 100})
	mustRefuse(t, err, ErrSequence)
	_, err = s.Apply(SuperBatch{At: 3, Level: "super", Seq: 1, Bet: 10_001})
	mustRefuse(t, err, ErrTooLarge)
	_, err = s.Apply(SuperBatch{At: 3, Level: "grand", Seq: 1, Bet: 100})
	mustRefuse(t, err, ErrUnknownLevel)
	res := mustApply(t, s, SuperBatch{At: 3, Level: "super", Seq: 1, Bet: 6_000})
	if res.Batch == nil || *res.Batch != (Batch{Level: "super", Seq: 1, Bet: 6_000, At: 3}) {
		t.Fatalf("batch: %+v", res)
	}
	mustApply(t, s, SuperBatch{At: 4, Level: "super", Seq: 2, Bet: 4_000})
	_, err = s.Apply(SuperBatch{At: 5, Level: "super", Seq: 3, Bet: 1})
	mustRefuse(t, err, ErrTooLarge) // nothing left to batch
	res = mustApply(t, s, SuperBatch{At: 5, Level: "super", Seq: 1, Bet: 6_000})
	if !res.Repeat {
		t.Fatalf("re-recording batch 1: %+v", res)
	}
	_, err = s.Apply(SuperBatch{At: 5, Level: "super", Seq: 1, Bet: 5_000})
	mustRefuse(t, err, ErrSequence)
	if u := s.Unsent(); len(u) != 2 || u[0].Seq != 1 || u[1].Seq != 2 {
		t.Fatalf("unsent %+v", u)
	}
	_, err = s.Apply(SuperApplied{At: 6, Level: "super", Seq: 2, ContributionMC: 1})
	mustRefuse(t, err, ErrSequence)
	mustApply(t, s, SuperApplied{At: 6, Level: "super", Seq: 1, ContributionMC: 60_000})
	res = mustApply(t, s, SuperApplied{At: 7, Level: "super", Seq: 1, ContributionMC: 60_000})
	if !res.Repeat {
		t.Fatalf("applied again: %+v", res)
	}
	_, err = s.Apply(SuperBatch{At: 8, Level: "super", Seq: 1, Bet: 6_000})
	mustRefuse(t, err, ErrSequence)
	mustApply(t, s, SuperApplied{At: 9, Level: "super", Seq: 2, ContributionMC: 40_000, Triggered: true})
	sh, _ := s.SharedLevel("super")
	if sh.Applied != 2 || sh.AppliedBet != 10_000 || sh.Contributed != 100_000 || sh.Triggers != 1 || len(sh.Pending) != 0 || sh.NextSeq() != 3 {
		t.Fatalf("shared %+v", sh)
	}
	if len(s.Unsent()) != 0 {
		t.Fatal("unsent left")
	}
}

// Every refusal, including one that fails after the first jackpot op of a
// record was applied, leaves the state exactly as it was.
func TestRefusalLeavesStateUnchanged(t *testing.T) {
	s := newState(t, 3)
	mustApply(t, s, Meters{At: 1, Machine: "M000", CoinIn: 0})
	mustApply(t, s, Meters{At: 2, Machine: "M000", CoinIn: 777_777, GamesPlayed: 3})
	before := stateJSON(t, s)
	for _, r := range []Record{
		// The first claim is applied to the pools, the second refused by them.
		Hit{At: 3, Level: "major", Claims: []Claim{{Machine: "M000", Game: 4, Bet: 100}, {Machine: "M001", Game: 1, Bet: 1}}},
		Meters{At: 3, Machine: "M000", CoinIn: 1},
		Meters{At: 3, Machine: "M000", CoinIn: 777_777 + jackpot.MaxBet + 1, GamesPlayed: 4},
		SetupLevel{At: 3, Level: "grand", ResetMC: 0, RatePPM: 1, Trigger: "paytable", SecondHit: "split-amount", Who: "x"},
		SetupShared{At: 3, Level: "mini", Who: "x"},
		SetupMachine{At: 3, Machine: "M000", SAS: 1, Levels: []string{"nope"}, Who: "x"},
		SetupMachine{At: 3, Machine: "M000", SAS: 0, Levels: []string{"grand"}, Who: "x"},
		Transfer{At: 3, From: "grand", To: "grand", All: true, Who: "x", Why: "y"},
		Award{At: 3, Level: "grand"},
		SuperApplied{At: 3, Level: "super", Seq: 1},
		SuperClaim{At: 3, Level: "super", Machine: "M001", Game: 1},
		SuperClaimed{At: 3, Level: "super", Machine: "M000", Game: 3, AmountMC: mc, Order: 1, Revision: 1},
		Event{At: 3, Code: "party"},
	} {
		if _, err := s.Apply(r); err == nil {
			t.Fatalf("%#v accepted", r)
		}
		if stateJSON(t, s) != before {
			t.Fatalf("refused %#v changed the state", r)
		}
	}
	// A batch is all or none.
	_, err := s.ApplyAll([]Record{
		Meters{At: 4, Machine: "M000", CoinIn: 800_000, GamesPlayed: 4},
		Hit{At: 4, Level: "grand", Claims: []Claim{{Machine: "M000", Game: 4, Bet: 100}}},
		Meters{At: 4, Machine: "M000", CoinIn: 1, GamesPlayed: 4},
	})
	var ie *IndexError
	if !errors.As(err, &ie) || ie.Index != 2 || !errors.Is(err, ErrBackwards) {
		t.Fatalf("batch: %v", err)
	}
	if stateJSON(t, s) != before {
		t.Fatal("a refused batch changed the state")
	}
}

func TestStateJSONRoundTrip(t *testing.T) {
	s := newState(t, 4)
	mustApply(t, s, Meters{At: 1, Machine: "M000", CoinIn: 0})
	mustApply(t, s, Meters{At: 2, Machine: "M000", CoinIn: 50_000, GamesPlayed: 3})
	mustApply(t, s, Hit{At: 3, Level: "grand", Claims: []Claim{{Machine: "M000", Game: 3, Bet: 100, Claimed: 1}}})
	mustApply(t, s, SuperBatch{At: 4, Level: "super", Seq: 1, Bet: 100})
	mustApply(t, s, SuperClaim{At: 4, Level: "super", Machine: "M000", Game: 4, Bet: 100, Claimed: 77})
	mustApply(t, s, SuperClaimed{At: 4, Level: "super", Machine: "M000", Game: 4, AmountMC: 123_45 * mc, Order: 9, Revision: 1234})
	mustApply(t, s, SuperClaim{At: 4, Level: "super", Machine: "M002", Game: 8, Bet: 0, NextTargetMC: 30_00 * mc})
	mustApply(t, s, Event{At: 5, Code: EventNote, Detail: "hello"})
	data := stateJSON(t, s)
	q := NewState()
	if err := q.UnmarshalJSON([]byte(data)); err != nil {
		t.Fatal(err)
	}
	if stateJSON(t, q) != data {
		t.Fatal("round trip differs")
	}
	c := s.Clone()
	mustApply(t, c, Confirmed{At: 6, Machine: "M000", Level: "grand", Game: 3})
	if stateJSON(t, s) != data {
		t.Fatal("a change to a clone changed the original")
	}
	for _, bad := range []string{
		strings.Replace(data, `"fed":50000`, `"fed":50001`, 1),
		strings.Replace(data, `"awarded_cents":12345`, `"awarded_cents":12346`, 1),
		strings.Replace(data, `"claims":2`, `"claims":3`, 1),
		strings.Replace(data, `,"revision":1234`, ``, 1),
		strings.Replace(data, `"next_target_mc":3000000`, `"next_target_mc":3000001`, 1),
		strings.Replace(data, `"records":`, `"Records":`, 1),
		data + " ",
		strings.Replace(data, `{"pools"`, `{"x":1,"pools"`, 1),
	} {
		if bad == data {
			t.Fatal("substitution did nothing")
		}
		if err := q.UnmarshalJSON([]byte(bad)); err == nil {
			t.Fatalf("accepted %.80s…", bad)
		}
	}
}

// A superjackpot hit: the claim is recorded before it goes to etcd, etcd's
// answer makes it a pending payout like a local award, the machine
// confirms it; every repeat is recognised and every misfit refused.
func TestSuperClaimAwardedOnce(t *testing.T) {
	s := newState(t, 3) // M000 and M002 feed super, M001 does not
	mustApply(t, s, Meters{At: 1, Machine: "M000", CoinIn: 0})
	mustApply(t, s, Meters{At: 2, Machine: "M000", CoinIn: 90_000, GamesPlayed: 4})
	pools := stateJSON(t, s)
	totals, _ := s.Totals()

	// Refusals before anything is claimed.
	for _, tc := range []struct {
		r    Record
		want error
	}{
		{SuperClaim{At: 3, Level: "nope", Machine: "M000", Game: 5, Bet: 100}, ErrUnknownLevel},
		{SuperClaim{At: 3, Level: "grand", Machine: "M000", Game: 5, Bet: 100}, ErrUnknownLevel},
		{SuperClaim{At: 3, Level: "super", Machine: "M999", Game: 5, Bet: 100}, ErrUnknownMachine},
		{SuperClaim{At: 3, Level: "super", Machine: "M001", Game: 5, Bet: 100}, ErrNotLinked},
		{SuperClaim{At: 3, Level: "super", Machine: "M000", Game: 5, Bet: -1}, ErrRecord},
		{SuperClaim{At: 3, Level: "super", Machine: "M000", Game: 5, Bet: 100, NextTargetMC: 1}, ErrRecord},
		{SuperClaimed{At: 3, Level: "super", Machine: "M000", Game: 5, AmountMC: 100 * mc, Order: 1, Revision: 9}, ErrNotPending},
		{SuperClaimed{At: 3, Level: "nope", Machine: "M000", Game: 5, AmountMC: 100 * mc, Order: 1, Revision: 9}, ErrUnknownLevel},
		{SuperClaimed{At: 3, Level: "super", Machine: "M000", Game: 5, AmountMC: 100*mc + 1, Order: 1, Revision: 9}, ErrRecord},
		{SuperClaimed{At: 3, Level: "super", Machine: "M000", Game: 5, AmountMC: 100 * mc, Order: 0, Revision: 9}, ErrRecord},
		{SuperClaimed{At: 3, Level: "super", Machine: "M000", Game: 5, AmountMC: 100 * mc, Order: 1, Revision: 0}, ErrRecord},
		{Hit{At: 3, Level: "super", Claims: []Claim{{Machine: "M000", Game: 5, Bet: 100}}}, ErrShared},
	} {
		_, err := s.Apply(tc.r)
		mustRefuse(t, err, tc.want)
		if stateJSON(t, s) != pools {
			t.Fatalf("refused %#v changed the state", tc.r)
		}
	}

	// The claim is recorded: the controller sends it.
	c5 := SuperClaim{At: 3, Level: "super", Machine: "M000", Game: 5, Bet: 200, Claimed: 1234_56}
	res := mustApply(t, s, c5)
	if res.Repeat || res.SuperClaim == nil || *res.SuperClaim != c5 || len(res.Payouts) != 0 {
		t.Fatalf("claim: %+v", res)
	}
	if got := s.PendingSuperClaims(); len(got) != 1 || got[0] != c5 {
		t.Fatalf("pending claims %+v", got)
	}
	// Sent again (the machine repeated its hit, or the controller
	// restarted): the recorded claim, with its time and target, is the one
	// to send.
	before := stateJSON(t, s)
	again := c5
	again.At, again.NextTargetMC = 99, 5*mc
	res = mustApply(t, s, again)
	if !res.Repeat || res.SuperClaim == nil || *res.SuperClaim != c5 {
		t.Fatalf("claim again: %+v", res)
	}
	if stateJSON(t, s) != before {
		t.Fatal("a repeated claim changed the state")
	}
	_, err := s.Apply(SuperClaim{At: 4, Level: "super", Machine: "M000", Game: 4, Bet: 100})
	mustRefuse(t, err, ErrStale) // before the claim in flight
	_, err = s.Apply(Rebase{At: 4, Machine: "M000", Who: "tech", Why: "RAM clear"})
	mustRefuse(t, err, ErrPendingAwards)
	// Another hit of the same machine while the first is in flight.
	c7 := SuperClaim{At: 4, Level: "super", Machine: "M000", Game: 7, Bet: 100, Claimed: 1}
	mustApply(t, s, c7)
	// M002 too.
	c2 := SuperClaim{At: 4, Level: "super", Machine: "M002", Game: 1, Bet: 100, NextTargetMC: 25_00 * mc}
	mustApply(t, s, c2)
	if got := s.PendingSuperClaims(); len(got) != 3 || got[0] != c5 || got[1] != c7 || got[2] != c2 {
		t.Fatalf("pending claims %+v", got)
	}

	// etcd answers the later claim first.
	a7 := SuperClaimed{At: 5, Level: "super", Machine: "M000", Game: 7, AmountMC: 500_00 * mc, Order: 3, Revision: 42}
	res = mustApply(t, s, a7)
	p7 := Payout{Machine: "M000", Level: "super", Game: 7, Bet: 100, Claimed: 1, Amount: 500_00, Order: 3, At: 5, Revision: 42}
	if res.Repeat || len(res.Payouts) != 1 || res.Payouts[0] != p7 || res.SuperClaim == nil || *res.SuperClaim != c7 {
		t.Fatalf("answer: %+v", res)
	}
	a5 := SuperClaimed{At: 6, Level: "super", Machine: "M000", Game: 5, AmountMC: 1_000_00 * mc, Order: 4, Revision: 43}
	res = mustApply(t, s, a5)
	p5 := Payout{Machine: "M000", Level: "super", Game: 5, Bet: 200, Claimed: 1234_56, Amount: 1_000_00, Order: 4, At: 6, Revision: 43}
	if len(res.Payouts) != 1 || res.Payouts[0] != p5 {
		t.Fatalf("answer: %+v", res)
	}
	if got := s.PendingPayouts(); len(got) != 2 || got[0] != p7 || got[1] != p5 {
		t.Fatalf("pending payouts %+v", got)
	}
	if got := s.PendingSuperClaims(); len(got) != 1 || got[0] != c2 {
		t.Fatalf("pending claims %+v", got)
	}
	// The shared level's pool is not here: the local levels did not move.
	if got, _ := s.Totals(); got != totals {
		t.Fatalf("a superjackpot award moved the local pools: %+v → %+v", totals, got)
	}
	sh, _ := s.SharedLevel("super")
	if sh.Claims != 3 || sh.Answered != 2 || sh.AwardedCents != 1_500_00 || sh.ConfirmedAwards != 0 || len(sh.Unanswered) != 1 {
		t.Fatalf("tally %+v", sh)
	}

	// The same answers again: repeats; different ones: refused.
	before = stateJSON(t, s)
	res = mustApply(t, s, a5)
	if !res.Repeat || len(res.Repeated) != 1 || res.Repeated[0] != p5 {
		t.Fatalf("answer again: %+v", res)
	}
	for i, bad := range []SuperClaimed{
		{At: 7, Level: "super", Machine: "M000", Game: 5, AmountMC: 1_000_01 * mc, Order: 4, Revision: 43},
		{At: 7, Level: "super", Machine: "M000", Game: 7, AmountMC: 500_00 * mc, Order: 3, Revision: 44},
		{At: 7, Level: "super", Machine: "M000", Game: 7, AmountMC: 500_00 * mc, Order: 2, Revision: 42},
	} {
		_, err = s.Apply(bad)
		mustRefuse(t, err, ErrConflict)
		if i == 0 && (!strings.Contains(err.Error(), "100001 cents") || !strings.Contains(err.Error(), "100000 cents") ||
			!strings.Contains(err.Error(), `"M000"`)) {
			t.Fatalf("the refusal does not say what differs: %v", err)
		}
	}
	// The machine repeats its hit: the payout made.
	res = mustApply(t, s, c5)
	if !res.Repeat || len(res.Repeated) != 1 || res.Repeated[0] != p5 || res.SuperClaim != nil {
		t.Fatalf("claim answered, again: %+v", res)
	}
	_, err = s.Apply(SuperClaim{At: 7, Level: "super", Machine: "M000", Game: 6, Bet: 100})
	mustRefuse(t, err, ErrStale) // before the last award
	if stateJSON(t, s) != before {
		t.Fatal("repeats and refusals changed the state")
	}

	rep, err := s.Report()
	if err != nil || rep.Check() != nil || len(rep.Shared) != 1 || len(rep.UnansweredClaims) != 1 {
		t.Fatalf("report: %v %+v", err, rep)
	}
	if sr := rep.Shared[0]; sr.PendingAwards != 2 || sr.PendingCents != 1_500_00 || sr.AwardedCents != 1_500_00 {
		t.Fatalf("shared report %+v", sr)
	}
	bad := *rep
	bad.Shared = slices.Clone(rep.Shared)
	bad.Shared[0].AwardedCents++
	if bad.Check() == nil {
		t.Fatal("a report with a wrong awarded tally passed")
	}
	var text bytes.Buffer
	rep.WriteText(&text)
	for _, want := range []string{"SUPERJACKPOT CLAIMS", "€1,500.00", "NOT YET ANSWERED", "M002"} {
		if !strings.Contains(text.String(), want) {
			t.Fatalf("text report lacks %q:\n%s", want, text.String())
		}
	}

	// The machine confirms, as for a local award.
	res = mustApply(t, s, Confirmed{At: 8, Machine: "M000", Level: "super", Game: 5})
	if len(res.Payouts) != 1 || res.Payouts[0] != p5 {
		t.Fatalf("confirm: %+v", res)
	}
	if res := mustApply(t, s, Confirmed{At: 8, Machine: "M000", Level: "super", Game: 5}); !res.Repeat {
		t.Fatalf("confirm again: %+v", res)
	}
	mustApply(t, s, Confirmed{At: 9, Machine: "M000", Level: "super", Game: 7, Who: "attendant 3"})
	sh, _ = s.SharedLevel("super")
	if sh.ConfirmedAwards != 2 || sh.ConfirmedCents != 1_500_00 || len(s.PendingPayouts()) != 0 {
		t.Fatalf("after confirmation: %+v", sh)
	}
	// Confirmed, the last award is still recognised; the older one is not
	// (as for a local level), and its answer cannot come again.
	res = mustApply(t, s, c7)
	if !res.Repeat || res.Repeated[0] != p7 {
		t.Fatalf("claim again after confirmation: %+v", res)
	}
	if res := mustApply(t, s, a7); !res.Repeat {
		t.Fatalf("answer again after confirmation: %+v", res)
	}
	_, err = s.Apply(c5)
	mustRefuse(t, err, ErrStale)
	_, err = s.Apply(a5)
	mustRefuse(t, err, ErrNotPending)

	// Answered and confirmed, M000 can be re-based; M002's claim in flight
	// still blocks M002.
	mustApply(t, s, Rebase{At: 10, Machine: "M000", Who: "tech", Why: "RAM clear"})
	_, err = s.Apply(Rebase{At: 10, Machine: "M002", Who: "tech", Why: "RAM clear"})
	mustRefuse(t, err, ErrPendingAwards)
	// Relinked away from super, M002 still receives its answer.
	mustApply(t, s, SetupMachine{At: 11, Machine: "M002", SAS: 3, Levels: []string{"grand"}, Who: "tech"})
	res = mustApply(t, s, SuperClaimed{At: 12, Level: "super", Machine: "M002", Game: 1, AmountMC: 30_00 * mc, Order: 5, Revision: 50})
	if len(res.Payouts) != 1 || res.Payouts[0].Amount != 30_00 {
		t.Fatalf("answer after relink: %+v", res)
	}
	_, err = s.Apply(SuperClaim{At: 13, Level: "super", Machine: "M002", Game: 2, Bet: 100})
	mustRefuse(t, err, ErrNotLinked)
	if err := s.Check(); err != nil {
		t.Fatal(err)
	}
}

// Check finds a claims tally that does not add up.
func TestSuperClaimTallyInvariants(t *testing.T) {
	s := newState(t, 1)
	mustApply(t, s, SuperClaim{At: 1, Level: "super", Machine: "M000", Game: 1, Bet: 100})
	mustApply(t, s, SuperClaimed{At: 2, Level: "super", Machine: "M000", Game: 1, AmountMC: 10 * mc, Order: 1, Revision: 1})
	mustApply(t, s, SuperClaim{At: 3, Level: "super", Machine: "M000", Game: 2, Bet: 100})
	for _, tc := range []struct {
		name string
		edit func(sh *Shared)
	}{
		{"claims", func(sh *Shared) { sh.Claims++ }},
		{"answered", func(sh *Shared) { sh.Answered++; sh.Claims++ }},
		{"awarded", func(sh *Shared) { sh.AwardedCents++ }},
		{"confirmed", func(sh *Shared) { sh.ConfirmedAwards++ }},
		{"confirmed cents", func(sh *Shared) { sh.ConfirmedCents = 1 }},
		{"unanswered lost", func(sh *Shared) { sh.Unanswered = nil; sh.Answered++ }},
		{"unanswered awarded", func(sh *Shared) { sh.Unanswered[0].Game = 1 }},
	} {
		c := s.Clone()
		sh := cloneShared(c.shared["super"])
		tc.edit(&sh)
		c.shared["super"] = sh
		if err := c.Check(); !errors.Is(err, ErrInvariant) {
			t.Fatalf("%s: Check said %v", tc.name, err)
		}
	}
	if err := s.Check(); err != nil {
		t.Fatal(err)
	}
}
