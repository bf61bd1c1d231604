package model

import (
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/openegm/cabinet/machine"
	"github.com/openegm/cabinet/meters"
	"github.com/openegm/cabinet/reels"
	"github.com/openegm/cabinet/rng"
)

// triggerStops finds stops of the default paytable's base game that show
// three or more Caravelas (free games) and no line win.
func triggerStops(t *testing.T, pt *reels.Certified) ([]int, *reels.Spin) {
	t.Helper()
	src := rng.NewSeeded(3)
	for range 200000 {
		stops := pt.DrawStops(src, false, nil)
		sp, err := pt.Evaluate(stops, 0, false)
		if err != nil {
			t.Fatal(err)
		}
		if sp.FreeAwarded > 0 {
			return stops, sp
		}
	}
	t.Fatal("no free-game trigger found")
	return nil, nil
}

// viewOf is the machine's view of a spin of the default paytable.
func viewOf(t *testing.T, pt *reels.Certified, stops []int, free bool) machine.View {
	v := sampleView()
	v.Mode, v.Game, v.Stops, v.Free = "spinning", 7, stops, free
	for _, col := range pt.Window(stops, free) {
		var ids []string
		for _, s := range col {
			ids = append(ids, pt.Symbols[s].ID)
		}
		v.Window = append(v.Window, ids)
	}
	return v
}

func landReels(t *testing.T, s *Screen, check func()) {
	t.Helper()
	for i := 0; s.Spinning(); i++ {
		if i > 1000 {
			t.Fatal("the reels never land")
		}
		if check != nil {
			check()
		}
		s.Update()
	}
}

// Nothing of a spin's outcome is on screen before its reels land: not the
// free games it awards, not a jackpot it hits, not the handpay it causes,
// not the message or the credit meter. Then the trigger is presented: the
// Caravelas framed, "3 × Caravela: 10 jogos grátis", the games won; the
// counter reads "Jogo grátis 1 de 10" during the feature (its own award
// hidden until its reels land), and leaves when the game is over, with the
// feature's total.
func TestOutcomeWaitsForTheReels(t *testing.T) {
	pt := defaultPaytable(t)
	stops, sp := triggerStops(t, pt)
	before := sampleView()
	before.Game = 6
	before.Jackpots = []machine.JackpotView{{Level: 1, Cents: 10_00, Mystery: true}}
	s, c := newTestScreen(t, before)

	v := viewOf(t, pt, stops, false)
	v.GameOpen, v.FreeLeft, v.FreeAwarded = true, sp.FreeAwarded, sp.FreeAwarded
	v.Credits, v.CreditsCents = 960, 4800
	v.Jackpots = []machine.JackpotView{{Level: 1, Cents: 10_65, Mystery: true, Pending: true}}
	v.Message = machine.Message{Key: "msg_jackpot_won", Args: []int64{10_65}}
	id := pt.Symbols[pt.Free.Symbol].ID
	var cells [][2]int
	for i, col := range v.Window {
		for r, sym := range col {
			if sym == id {
				cells = append(cells, [2]int{i, r})
			}
		}
	}
	v.Scatters = []machine.ViewScatter{{Symbol: id, Count: len(cells), FreeGames: sp.FreeAwarded, Cells: cells}}
	c.view = v
	s.Update()
	if !s.Spinning() {
		t.Fatal("no spin started")
	}
	landReels(t, s, func() {
		if fb := s.FreeBanner(); fb != "" {
			t.Fatalf("while the reels turn the top bar says %q", fb)
		}
		if items := s.WinItems(); len(items) != 0 {
			t.Fatalf("while the reels turn the win presentation has %v", items)
		}
		for _, cell := range JackpotBanner(s.V, s.Lang) {
			if cell.Pending || cell.Value != Euro("pt", 10_00) {
				t.Fatalf("while the reels turn the jackpot banner shows %v", cell)
			}
		}
		if m := s.MessageText(); m != T("pt", "mode_spinning") {
			t.Fatalf("while the reels turn the message is %q", m)
		}
		if cr, cents := s.ShownCredits(); cr != 960 || cents != 4800 {
			t.Fatalf("credit meter %d/%d while the reels turn", cr, cents)
		}
		// Meanwhile the machine's game could end in a handpay.
		lv := c.view
		lv.Mode, lv.Handpay, lv.HandpayKind = "handpay", 5000_00, meters.HandpayWin
		c.view = lv
		if s.V.Mode == "handpay" || Lockout(s.V.Mode) {
			t.Fatalf("the handpay is shown while the reels turn")
		}
		c.view = v
	})
	want := T("pt", "free_won_n", Itoa(sp.FreeAwarded))
	if fb := s.FreeBanner(); fb != want {
		t.Fatalf("after the trigger landed the top bar says %q, want %q", fb, want)
	}
	items := s.WinItems()
	wantItem := T("pt", "scatter_free", Itoa(len(cells)), "Caravela", Itoa(sp.FreeAwarded))
	if !slices.ContainsFunc(items, func(it WinItem) bool { return it.Text == wantItem && len(it.Cells) == len(cells) && it.Hot }) {
		t.Fatalf("win presentation %+v lacks %q with its %d cells", items, wantItem, len(cells))
	}
	if !JackpotBanner(s.V, s.Lang)[0].Pending {
		t.Error("the mystery hit is not shown once the reels landed")
	}

	// Free game 1 retriggers 5 more: "1 de 10" while it turns, "1 de 15"
	// when it lands.
	prev := s.V
	f := viewOf(t, pt, stops, true)
	f.GameOpen, f.FreePlayed, f.FreeLeft, f.FreeAwarded = true, 1, sp.FreeAwarded-1+5, 5
	f.Credits, f.CreditsCents = 960, 4800
	f.Jackpots = prev.Jackpots
	c.view = f
	s.Update()
	total := Itoa(sp.FreeAwarded)
	landReels(t, s, func() {
		if fb := s.FreeBanner(); !strings.HasPrefix(fb, T("pt", "free_game_n", "1", total)) {
			t.Fatalf("free game 1 turning: top bar %q", fb)
		}
	})
	if fb := s.FreeBanner(); !strings.HasPrefix(fb, T("pt", "free_game_n", "1", Itoa(sp.FreeAwarded+5))) {
		t.Fatalf("free game 1 landed: top bar %q", fb)
	}

	// The game is over: no counter, the feature's total; a cash-out, a
	// handpay or a door later, still no counter.
	end := f
	end.Mode, end.GameOpen, end.FreeLeft, end.FreePlayed, end.GameWinCents = "idle", false, 0, 15, 42_00
	end.CreditedCents, end.Credits, end.CreditsCents = 42_00, 1800, 9000
	for _, mode := range []string{"idle", "handpay", "door_open"} {
		end.Mode = mode
		c.view = end
		s.Update()
		if fb := s.FreeBanner(); fb != "" {
			t.Errorf("%s after the feature: top bar %q", mode, fb)
		}
	}
	end.Mode = "idle"
	c.view = end
	s.Update()
	wantTotal := T("pt", "free_total", "15", Euro("pt", 42_00))
	if !slices.ContainsFunc(s.WinItems(), func(it WinItem) bool { return it.Text == wantTotal }) {
		t.Errorf("no feature total %q in %+v", wantTotal, s.WinItems())
	}
}

// The credit meter counts up with the win meter once the reels land; it
// never shows the win before, nor more than the machine's figure.
func TestCreditMeterCountsUpWithTheWin(t *testing.T) {
	stops := []int{3, 10, 20, 5, 40}
	s, c := newTestScreen(t, sampleView())
	v := spinView(t, stops, "spinning")
	v.GameWinCents, v.GameOpen = 12_00, true
	v.Credits, v.CreditsCents = 960, 4800
	c.view = v
	s.Update()
	// The machine ends the game while the reels turn: the win is credited.
	ended := v
	ended.Mode, ended.GameOpen, ended.CreditedCents = "idle", false, 12_00
	ended.Credits, ended.CreditsCents = 960+240, 4800+12_00
	c.view = ended
	landReels(t, s, func() {
		if _, cents := s.ShownCredits(); cents != 4800 {
			t.Fatalf("credit meter %d while the reels turn", cents)
		}
	})
	if _, cents := s.ShownCredits(); cents != 4800 {
		t.Fatalf("credit meter %d as the reels land, want 4800 (the count starts)", cents)
	}
	last, sawBetween := int64(4800), false
	for i := 0; i <= countTicks+1; i++ {
		s.Update()
		_, cents := s.ShownCredits()
		if cents < last || cents > 4800+12_00 {
			t.Fatalf("credit meter went %d → %d", last, cents)
		}
		if win := s.ShownWin(); cents-4800 != win {
			t.Fatalf("credit meter +%d while the win meter shows %d", cents-4800, win)
		}
		sawBetween = sawBetween || (cents > 4800 && cents < 4800+12_00)
		last = cents
	}
	if cr, cents := s.ShownCredits(); cents != 4800+12_00 || cr != 1200 || !sawBetween {
		t.Fatalf("credit meter ends at %d/%d (counted %v), want the machine's 1200/6000", cr, cents, sawBetween)
	}
}

// The ticket being printed shows its amount.
func TestPrintingShowsTheAmount(t *testing.T) {
	v := sampleView()
	v.Printing, v.PrintingCents = "004200000000000001", 48_50
	s, _ := newTestScreen(t, v)
	if got := s.MessageText(); !strings.Contains(got, "48,50 €") || !strings.Contains(got, v.Printing) {
		t.Fatalf("printing message %q lacks the amount or the number", got)
	}
}

// After a restart the screen shows the last committed game's reels, as
// the machine gives them back, not the strips at rest.
func TestRestartShowsTheLastGameOnScreen(t *testing.T) {
	pt := defaultPaytable(t)
	cfg := machine.Config{MachineID: "EGM-1", MachineNum: 1, Denom: 1, HandpayLimit: 1_000_00, SpinTime: 1}
	m := machine.New(cfg, pt, meters.NewState(), rng.NewSeeded(11))
	ledger := meters.NewState()
	now := int64(1_800_000_000_000_000_000)
	at := func() machine.Tick { now += 1e9; return machine.Tick{At: unixNano(now)} }
	step := func(ev machine.Event) machine.Effects {
		eff := m.Step(ev)
		for _, r := range eff.Records {
			if err := ledger.Apply(r); err != nil {
				t.Fatal(err)
			}
		}
		return eff
	}
	step(machine.PowerUp{At: unixNano(now)})
	eff := step(machine.BillEscrowed{At: unixNano(now), Cents: 5000})
	for _, d := range eff.Devices {
		if sb, ok := d.(machine.StackBill); ok {
			step(machine.BillStacked{At: unixNano(now), Cents: sb.Cents, Order: sb.Order})
		}
	}
	if eff := step(machine.Button{At: unixNano(now), Name: machine.BtnSpin}); eff.Refused != "" {
		t.Fatal(eff.Refused)
	}
	for i := 0; ledger.Open != nil || ledger.LastGame == 0; i++ {
		if i > 1000 {
			t.Fatal("the game never ends")
		}
		step(at())
	}
	last := ledger.Games[len(ledger.Games)-1]
	stops, free := last.Start.Stops, false
	if n := len(last.Free); n > 0 {
		stops, free = last.Free[n-1].Stops, true
	}
	// Power comes back.
	m2 := machine.New(cfg, pt, ledger, rng.NewSeeded(12))
	m2.Step(machine.PowerUp{At: unixNano(now + 1e12)})
	s, _ := newTestScreen(t, m2.View())
	win := pt.Window(stops, free)
	for i, col := range win {
		for j, sym := range col {
			if got := s.SymbolAt(i, j); got != pt.Symbols[sym].ID {
				t.Fatalf("after restart reel %d row %d shows %s, game %d had %s", i, j, got, last.Start.Game, pt.Symbols[sym].ID)
			}
		}
	}
	if s.Attract() {
		t.Error("the attract screen hides the last game of a machine with credit")
	}
}

func unixNano(ns int64) time.Time { return time.Unix(0, ns) }

// During a spin only the spin button (which stops the reels) is lit, and
// a press the machine refuses says why rather than "Boa sorte!".
func TestDuringASpin(t *testing.T) {
	s, c := newTestScreen(t, sampleView())
	v := spinView(t, []int{3, 10, 20, 5, 40}, "spinning")
	c.view = v
	s.Update()
	if !s.Spinning() {
		t.Fatal("no spin")
	}
	for _, b := range s.PlayerButtons() {
		want := b.ID == machine.BtnSpin || b.ID == machine.BtnHelp || b.ID == machine.BtnLanguage
		if b.Enabled != want {
			t.Errorf("during a spin %s is enabled=%v", b.ID, b.Enabled)
		}
	}
	v.Message = machine.Message{Key: "refused_game_in_progress"}
	c.view = v
	s.Update()
	if got, want := s.MessageText(), T("pt", "refused_game_in_progress"); got != want {
		t.Errorf("a refused press during a spin says %q, want %q", got, want)
	}
}
