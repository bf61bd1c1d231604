package meters

import (
	"strings"
	"testing"

	"github.com/openegm/cabinet/jackpot"
	"github.com/openegm/cabinet/rng"
)

// Random play with the local jackpot: the pools' identity holds at every
// commit (State.Check), every contribution the game starts state is in the
// pools, and every award is on the progressive meters.
func TestLocalJackpotRandomPlay(t *testing.T) {
	var mysteryHits, paytableHits int64
	for seed := uint64(1); seed <= 8; seed++ {
		p := &player{r: rng.NewSeeded(seed), s: NewState(), t: t, limit: 20000}
		p.openLocal()
		for range 4000 {
			p.step()
		}
		s := p.s
		tot, err := s.Jackpot.Totals()
		if err != nil {
			t.Fatal(err)
		}
		if tot.Contributions != p.stated {
			t.Fatalf("seed %d: pools hold %d millicents of contributions, game starts stated %d", seed, tot.Contributions, p.stated)
		}
		if paid := s.Get(MachinePaidProgressive) + s.Get(AttendantPaidProgressive); paid != p.awarded || paid*jackpot.MillicentsPerCent != tot.Awarded {
			t.Fatalf("seed %d: progressive meters %d cents, awards %d cents, pools awarded %d millicents", seed, paid, p.awarded, tot.Awarded)
		}
		m9, _ := s.localLevel(9)
		m1, _ := s.localLevel(1)
		mysteryHits += m9.Meters.Hits
		paytableHits += m1.Meters.Hits
		for _, h := range m9.History {
			if h.Amount < m9.Config.ResetValue || h.Amount > m9.Config.Cap {
				t.Fatalf("seed %d: mystery award %d outside [%d, %d]", seed, h.Amount, m9.Config.ResetValue, m9.Config.Cap)
			}
		}
		if len(s.PendingHits) != 0 {
			t.Fatalf("seed %d: hits left pending: %v", seed, s.PendingHits)
		}
	}
	if mysteryHits == 0 || paytableHits == 0 {
		t.Fatalf("the random play never hit a level (mystery %d, paytable %d): the test proves nothing", mysteryHits, paytableHits)
	}
}

// localFixture is a state with local levels 1 (paytable) and 9 (mystery)
// and credits, and a lawful top-bet game start for it.
func localFixture(t *testing.T) (*State, GameStart) {
	t.Helper()
	p := &player{r: rng.NewSeeded(3), s: NewState(), t: t, limit: 1 << 40}
	p.openLocal()
	for range 2 {
		p.credit += 50_000
		p.apply(MoneyIn{At: 1, Source: SourceBill, Cents: 50_000})
	}
	gs := GameStart{At: 5, Game: 1, Paytable: "p", Digest: "d", Denom: 1, Level: 4, BetCredits: 200, BetCents: 200, Stops: []int{0, 0, 0, 0, 0}}
	p.localGame(&gs, true)
	gs.Progressives = []int{1}
	return p.s, gs
}

func TestLocalJackpotRefusals(t *testing.T) {
	s, gs := localFixture(t)
	if _, err := s.Next(gs); err != nil {
		t.Fatalf("lawful game start refused: %v", err)
	}
	refuse := func(name, want string, r Record, on *State) {
		t.Helper()
		if on == nil {
			on = s
		}
		_, err := on.Next(r)
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: got %v, want an error with %q", name, err, want)
		}
	}
	bad := gs
	bad.Contributions = append([]LevelAmount(nil), gs.Contributions...)
	bad.Contributions[0].Millicents++
	refuse("overstated contribution", "the pools compute", bad, nil)

	bad = gs
	bad.Contributions = gs.Contributions[:1] // level 1 only: mystery level 9 unfed
	refuse("mystery level skipped", "every bet feeds", bad, nil)

	bad = gs
	bad.Mystery = []int{9}
	refuse("invented mystery hit", "mystery hits", bad, nil)

	bad = gs
	bad.Contributions = gs.Contributions[1:] // not at the top bet: level 1 not fed
	refuse("hit without qualifying", "did not contribute", bad, nil)

	bad = gs
	bad.Progressives = []int{9}
	refuse("paytable hit on a mystery level", "cannot win mystery level", bad, nil)

	withFree := gs
	withFree.FreeAwarded = 1
	started, err := s.Next(withFree)
	if err != nil {
		t.Fatal(err)
	}
	refuse("a level won twice in a game", "second time",
		FreeGame{At: 6, Game: 1, Index: 1, Stops: []int{0, 0, 0, 0, 0}, Progressives: []int{1}}, started)
	started, err = started.Next(FreeGame{At: 6, Game: 1, Index: 1, Stops: []int{0, 0, 0, 0, 0}})
	if err != nil {
		t.Fatal(err)
	}
	ended, err := started.Next(GameEnd{At: 6, Game: 1})
	if err != nil {
		t.Fatal(err)
	}
	refuse("RAM clear with a hit pending", "jackpot hit pending", RAMClear{At: 7, Who: "t", Why: "w"}, ended)
	cents, err := ended.LocalAward(1, 1, 0, 7)
	if err != nil {
		t.Fatal(err)
	}
	if cents < 50_000 {
		t.Fatalf("level 1 pays %d cents, below its reset value", cents)
	}
	refuse("award above the pool", "the pool pays", ProgressiveAward{At: 7, Game: 1, Level: 1, Cents: cents + 1}, ended)
	refuse("target on a paytable level", "target", ProgressiveAward{At: 7, Game: 1, Level: 1, Cents: cents, Target: 1000_000}, ended)
	paid, err := ended.Next(ProgressiveAward{At: 7, Game: 1, Level: 1, Cents: cents})
	if err != nil {
		t.Fatal(err)
	}
	if lv := paid.LocalLevels()[0]; lv.Level != 1 || lv.Cents != 50_000 || lv.Pending {
		t.Fatalf("after the award level 1 shows %+v, want its reset value 50000", lv)
	}
	if paid.Get(MachinePaidProgressive) != cents || paid.Get(Credits) != ended.Get(Credits)+cents {
		t.Fatal("the award did not reach the credit meter")
	}
	refuse("award paid twice", "no pending hit", ProgressiveAward{At: 8, Game: 1, Level: 1, Cents: cents}, paid)
	refuse("a level opened twice", "exists", JackpotLevel{At: 8, Who: "op", Level: 1, ResetCents: 1, RatePPM: 1}, paid)
	refuse("a level with a bad rate", "rate", JackpotLevel{At: 8, Who: "op", Level: 2, ResetCents: 1, RatePPM: 2_000_000}, paid)
}

// A contribution that reaches the mystery target must be stated as a hit,
// and the hit pays exactly the target.
func TestLocalMysteryHit(t *testing.T) {
	s := NewState()
	apply := func(r Record) {
		t.Helper()
		next, err := s.Next(r)
		if err != nil {
			t.Fatal(err)
		}
		s = next
	}
	apply(JackpotLevel{At: 1, Who: "op", Level: 3, Mystery: true, ResetCents: 100, RatePPM: 100_000, CapCents: 200, Target: 150_000})
	apply(MoneyIn{At: 1, Source: SourceBill, Cents: 1000})
	for g := uint64(1); ; g++ {
		amounts, mystery, err := s.JackpotContribution([]int{3}, 100, g, 2)
		if err != nil {
			t.Fatal(err)
		}
		gs := GameStart{At: 2, Game: g, Paytable: "p", Digest: "d", Denom: 1, BetCredits: 100, BetCents: 100, Stops: []int{0}, Contributions: amounts, Mystery: mystery}
		if len(mystery) > 0 {
			lie := gs
			lie.Mystery = nil
			if _, err := s.Next(lie); err == nil {
				t.Fatal("a game start hiding its mystery hit was accepted")
			}
		}
		apply(gs)
		apply(GameEnd{At: 3, Game: g})
		if len(mystery) == 0 {
			continue
		}
		if g != 5 { // 10 cents a game from 100 cents: the 5th game reaches 150
			t.Fatalf("mystery hit at game %d, want 5", g)
		}
		cents, err := s.LocalAward(3, g, 120_000, 4)
		if err != nil || cents != 150 {
			t.Fatalf("mystery award %d cents (%v), want exactly the target, 150", cents, err)
		}
		apply(ProgressiveAward{At: 4, Game: g, Level: 3, Cents: cents, Target: 120_000})
		if s.Get(MachinePaidProgressive) != 150 {
			t.Fatal("mystery award not metered")
		}
		return
	}
}
