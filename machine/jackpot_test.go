package machine

import (
	"slices"
	"testing"

	"github.com/openegm/cabinet/meters"
	"github.com/openegm/cabinet/reels"
	"github.com/openegm/cabinet/rng"
)

// forced hands out queued draws first, then the seeded RNG's: a test can
// put a chosen outcome on the reels.
type forced struct {
	queue []uint64
	src   rng.Source
}

func (f *forced) Uint64n(n uint64) uint64 {
	if len(f.queue) > 0 {
		v := f.queue[0]
		f.queue = f.queue[1:]
		return v
	}
	return f.src.Uint64n(n)
}

// jackpotStops are stops that put the combination winning level on the
// first payline.
func jackpotStops(t *testing.T, pt *reels.Certified, level int) []uint64 {
	t.Helper()
	i := slices.IndexFunc(pt.LinePays, func(lp reels.Pay) bool { return lp.Progressive == level })
	if i < 0 {
		t.Fatalf("paytable names no level %d", level)
	}
	lp := pt.LinePays[i]
	line := pt.Lines[0]
	var stops []uint64
	for r, strip := range pt.Reels {
		if r >= lp.Count {
			// Past the combination: any stop whose symbol does not extend it.
			stops = append(stops, 0)
			continue
		}
		found := false
		for s := range strip {
			if int(strip[(s+line[r])%len(strip)]) == lp.Symbol {
				stops = append(stops, uint64(s))
				found = true
				break
			}
		}
		if !found {
			t.Fatalf("reel %d has no symbol %d", r, lp.Symbol)
		}
	}
	return stops
}

var localLevels = []meters.JackpotLevel{
	{Level: 1, ResetCents: 500_00, RatePPM: 10_000, HiddenPPM: 1_000},
	{Level: 9, Mystery: true, ResetCents: 10_00, CapCents: 20_00, RatePPM: 50_000},
}

func localHarness(t *testing.T, limit int64) (*harness, *forced) {
	cfg := testCfg
	cfg.HandpayLimit = limit
	cfg.LocalJackpot = localLevels
	h := newHarness(t, cfg, nil, 11)
	f := &forced{src: h.m.src}
	h.m.src = f
	h.power()
	return h, f
}

func localLevel(h *harness, level int) meters.LocalLevel {
	for _, l := range h.m.st.LocalLevels() {
		if l.Level == level {
			return l
		}
	}
	h.t.Fatalf("no local level %d", level)
	return meters.LocalLevel{}
}

func TestLocalJackpotOpensFeedsAndPays(t *testing.T) {
	h, f := localHarness(t, 10_000_00)
	opened := 0
	for _, r := range h.records {
		if jl, ok := r.(meters.JackpotLevel); ok {
			opened++
			if jl.Mystery != (jl.Target != 0) {
				t.Fatalf("level %d opened with target %d", jl.Level, jl.Target)
			}
		}
	}
	if opened != 2 {
		t.Fatalf("%d levels opened, want 2", opened)
	}
	// A second power-up finds them in the ledger and opens nothing.
	n := len(h.records)
	h.power()
	for _, r := range h.records[n:] {
		if _, ok := r.(meters.JackpotLevel); ok {
			t.Fatal("a level was opened twice")
		}
	}
	v := h.m.View()
	if len(v.Jackpots) != 2 || v.Jackpots[0].Cents != 500_00 || v.Jackpots[1].Cents != 10_00 || !v.Jackpots[1].Mystery {
		t.Fatalf("jackpot view %+v", v.Jackpots)
	}
	pt := h.m.pt
	if v.TopOffered != pt.TopLevel() {
		t.Fatalf("with level 1 local the top bet must be offered: max %d, top %d", v.TopOffered, pt.TopLevel())
	}

	// Below the top bet only the mystery level is fed.
	h.bill(50000)
	h.play()
	gs := h.m.st.Games[len(h.m.st.Games)-1].Start
	if len(gs.Contributions) != 1 || gs.Contributions[0].Level != 9 || gs.Contributions[0].Millicents != gs.BetCents*50 {
		t.Fatalf("level 0 game contributions %+v (bet %d)", gs.Contributions, gs.BetCents)
	}

	// At the top bet both; then force the level 1 combination.
	f.queue = jackpotStops(t, pt, 1)
	before := localLevel(h, 1).Cents
	credits := h.m.st.Get(meters.Credits)
	if eff := h.press(BtnMaxBet); eff.Refused != "" {
		t.Fatalf("max bet refused: %s", eff.Refused)
	}
	gs = h.m.st.Open.Start
	if !slices.Equal(gs.Progressives, []int{1}) || len(gs.Contributions) != 2 {
		t.Fatalf("forced jackpot game %+v", gs)
	}
	if eff := h.press(BtnSpin); eff.Refused != "refused_game_in_progress" {
		t.Fatalf("spin during the game: %q", eff.Refused)
	}
	for h.m.phase == spinning {
		h.advance(testCfg.SpinTime)
	}
	var award *meters.ProgressiveAward
	for _, r := range h.records {
		if a, ok := r.(meters.ProgressiveAward); ok {
			award = &a
		}
	}
	if award == nil || award.Level != 1 || award.Attendant {
		t.Fatalf("award %+v", award)
	}
	// The award is the level's value after this game's contribution.
	want := before + gs.Contributions[0].Millicents/1000 // floor of the value: at most 1 cent off before
	if award.Cents < before || award.Cents > want+1 {
		t.Fatalf("award %d cents, level showed %d before a %d-millicent contribution", award.Cents, before, gs.Contributions[0].Millicents)
	}
	end := h.m.st.Games[len(h.m.st.Games)-1].End
	if got := h.m.st.Get(meters.Credits); got != credits-gs.BetCents+end.WinCents+award.Cents {
		t.Fatalf("credits %d after the jackpot, want %d", got, credits-gs.BetCents+end.WinCents+award.Cents)
	}
	if h.m.st.Get(meters.MachinePaidProgressive) != award.Cents || len(h.m.st.PendingHits) != 0 {
		t.Fatal("award not on the machine-paid progressive meter, or still pending")
	}
	if l := localLevel(h, 1); l.Cents != 500_00 {
		t.Fatalf("level 1 after its award shows %d, want the reset value", l.Cents)
	}
	if v := h.m.View(); v.Message.Key != "msg_jackpot_won" || v.Message.Args[0] != award.Cents {
		t.Fatalf("message %+v", v.Message)
	}
	h.play() // play goes on
}

func TestLocalJackpotAboveTheLimitIsHandPaid(t *testing.T) {
	h, f := localHarness(t, 100_00)
	h.bill(50000)
	f.queue = jackpotStops(t, h.m.pt, 1)
	h.press(BtnMaxBet)
	for h.m.phase == spinning {
		h.advance(testCfg.SpinTime)
	}
	// The game's own win may be hand-paid first; then the jackpot.
	if hp := h.m.st.Handpay; hp != nil && hp.Kind == meters.HandpayWin {
		h.step(Key{At: h.now, Key: KeyAttendant, On: true, Who: "att-1"})
		h.step(Key{At: h.now, Key: KeyAttendant, On: false})
		h.advance(0)
	}
	hp := h.m.st.Handpay
	if hp == nil || hp.Kind != meters.HandpayProgressive || hp.Level != 1 || hp.Cents < 500_00 {
		t.Fatalf("handpay %+v, want the level 1 jackpot", hp)
	}
	if v := h.m.View(); v.Mode != "handpay" || v.Message.Key != "msg_jackpot_handpay" {
		t.Fatalf("view mode %s message %+v", v.Mode, v.Message)
	}
	if eff := h.press(BtnSpin); eff.Refused != "refused_handpay" {
		t.Fatalf("spin during the lockout: %q", eff.Refused)
	}
	credits := h.m.st.Get(meters.Credits)
	h.step(Key{At: h.now, Key: KeyAttendant, On: true, Who: "att-2"})
	if h.m.st.Get(meters.AttendantPaidProgressive) != hp.Cents || h.m.st.Get(meters.Credits) != credits {
		t.Fatal("the hand-paid jackpot is not on the attendant-paid progressive meter, or reached the credits")
	}
	h.step(Key{At: h.now, Key: KeyAttendant, On: false})
	h.play()
}

func TestLocalMysteryLevelHitsByItsCap(t *testing.T) {
	h, _ := localHarness(t, 10_000_00)
	h.bill(50000)
	h.bill(50000)
	for games := 0; ; games++ {
		if games > 2000 {
			t.Fatal("mystery level never hit")
		}
		if h.m.st.Get(meters.Credits) < h.m.betCents() {
			h.bill(50000)
		}
		h.play()
		if v := localLevel(h, 9); v.Cents > 20_00 {
			t.Fatalf("mystery level shows %d, above its cap", v.Cents)
		}
		if h.m.st.Get(meters.MachinePaidProgressive) > 0 {
			break
		}
	}
	var award meters.ProgressiveAward
	for _, r := range h.records {
		if a, ok := r.(meters.ProgressiveAward); ok {
			award = a
		}
	}
	if award.Level != 9 || award.Cents < 10_00 || award.Cents > 20_00 || award.Target < 10_00_000 || award.Target > 20_00_000 {
		t.Fatalf("mystery award %+v", award)
	}
}

// A power loss between the game end and the award: the next power-up pays
// the hit, once.
func TestLocalJackpotAwardAfterPowerLoss(t *testing.T) {
	h, f := localHarness(t, 10_000_00)
	h.bill(50000)
	f.queue = jackpotStops(t, h.m.pt, 1)
	h.press(BtnMaxBet)
	for h.m.phase == spinning {
		h.advance(testCfg.SpinTime)
	}
	// Rebuild the ledger as it was just after the game end.
	st := meters.NewState()
	for _, r := range h.records {
		if err := st.Apply(r); err != nil {
			t.Fatal(err)
		}
		if _, ok := r.(meters.GameEnd); ok {
			break
		}
	}
	if len(st.PendingHits) != 1 {
		t.Fatalf("pending hits at the game end: %v", st.PendingHits)
	}
	cfg := h.m.cfg
	h2 := newHarness(t, cfg, st, 12)
	h2.power()
	if eff := h2.press(BtnSpin); eff.Refused != "refused_jackpot_pending" {
		t.Fatalf("spin with a hit pending: %q", eff.Refused)
	}
	h2.advance(0)
	awards := 0
	for _, r := range h2.records {
		if _, ok := r.(meters.ProgressiveAward); ok {
			awards++
		}
	}
	if awards != 1 || len(h2.m.st.PendingHits) != 0 {
		t.Fatalf("%d awards after the restart, pending %v", awards, h2.m.st.PendingHits)
	}
	h2.advance(0)
	h2.play()
}

func TestTopLevelNeedsEveryNamedLevelAwarded(t *testing.T) {
	cfg := testCfg
	cfg.LocalJackpot = localLevels[1:] // mystery only: level 1 is nobody's
	h := newHarness(t, cfg, nil, 3)
	h.power()
	if v := h.m.View(); v.TopOffered != h.m.pt.TopLevel()-1 {
		t.Fatalf("max level %d with no system awarding level 1", v.TopOffered)
	}
}
