package machine

import (
	"reflect"
	"testing"
	"time"

	"github.com/openegm/cabinet/meters"
)

// windowIDs is a paytable window as the view gives it.
func windowIDs(t *testing.T, stops []int, free bool) [][]string {
	pt := paytable(t)
	var out [][]string
	for _, reel := range pt.Window(stops, free) {
		var col []string
		for _, s := range reel {
			col = append(col, pt.Symbols[s].ID)
		}
		out = append(out, col)
	}
	return out
}

// The view of a spin that triggers free games carries the trigger: the
// games awarded and the scatter cells that won them, so the screen can
// present them; the game stays open until its free games are over, and
// then says how much of its win went to the credit meter.
func TestViewCarriesScattersAndTheFreeGameAward(t *testing.T) {
	h := newHarness(t, testCfg, nil, 7)
	h.power()
	h.bill(20000)
	var gs meters.GameStart
	for i := 0; ; i++ {
		if i > 2000 {
			t.Fatal("2000 games without free games")
		}
		if h.m.st.Get(meters.Credits) < h.m.betCents() {
			h.bill(20000)
		}
		gs = h.press(BtnSpin).Records[0].(meters.GameStart)
		if gs.FreeAwarded > 0 {
			break
		}
		for h.m.phase == spinning {
			h.advance(testCfg.SpinTime)
		}
	}
	v := h.m.View()
	if v.FreeAwarded != gs.FreeAwarded || !v.GameOpen || v.CreditedCents != 0 {
		t.Fatalf("trigger spin's view: awarded %d (recorded %d), open %v, credited %d", v.FreeAwarded, gs.FreeAwarded, v.GameOpen, v.CreditedCents)
	}
	trigger := -1
	for i, s := range v.Scatters {
		if len(s.Cells) != s.Count {
			t.Errorf("scatter %s: count %d, %d cells", s.Symbol, s.Count, len(s.Cells))
		}
		for _, c := range s.Cells {
			if got := v.Window[c[0]][c[1]]; got != s.Symbol {
				t.Errorf("scatter %s: cell %v holds %s", s.Symbol, c, got)
			}
		}
		if s.FreeGames > 0 {
			trigger = i
		}
	}
	if trigger < 0 || v.Scatters[trigger].FreeGames != gs.FreeAwarded || v.Scatters[trigger].Symbol != "S" {
		t.Fatalf("no scatter carries the %d free games: %+v", gs.FreeAwarded, v.Scatters)
	}
	for h.m.phase == spinning {
		h.advance(testCfg.SpinTime)
		// The trigger is presented, and the feature waits for its start,
		// on the trigger's spin; every later step is a free game's.
		if v := h.m.View(); h.m.st.Open != nil && (!v.GameOpen || !v.Free && len(h.m.st.Open.Free) > 0) {
			t.Fatalf("free game %d: open %v free %v", v.FreePlayed, v.GameOpen, v.Free)
		}
	}
	last := h.ledger.Games[len(h.ledger.Games)-1]
	v = h.m.View()
	want := last.End.WinCents
	if last.End.Handpay {
		want = 0
	}
	if v.GameOpen || v.CreditedCents != want || v.FreePlayed != len(last.Free) || v.FreePlayed < gs.FreeAwarded {
		t.Fatalf("after the game: open %v credited %d (want %d), free played %d of %d", v.GameOpen, v.CreditedCents, want, v.FreePlayed, len(last.Free))
	}
}

// A ticket being printed shows its amount as well as its number.
func TestViewCarriesTheTicketAmount(t *testing.T) {
	h := newHarness(t, testCfg, nil, 5)
	h.power()
	h.bill(2000)
	h.press(BtnCashOut)
	if v := h.m.View(); v.Printing == "" || v.PrintingCents != 2000 {
		t.Fatalf("printing %q for %d cents, want 2000", v.Printing, v.PrintingCents)
	}
}

// After a restart the screen shows the last committed game's window, its
// last free game if it had any, not the strips at rest.
func TestRestartShowsTheLastCommittedGame(t *testing.T) {
	h := newHarness(t, testCfg, nil, 7)
	h.power()
	playUntilFreeGames(h)
	last := h.ledger.Games[len(h.ledger.Games)-1]
	h2 := newHarness(t, testCfg, h.ledger, 99)
	h2.now = h.now.Add(time.Hour)
	h2.power()
	v := h2.m.View()
	lastFree := last.Free[len(last.Free)-1].Stops
	if v.Game != last.Start.Game || !v.Free || !reflect.DeepEqual(v.Stops, lastFree) || !reflect.DeepEqual(v.Window, windowIDs(t, lastFree, true)) {
		t.Fatalf("after restart: game %d free %v stops %v window %v; want game %d's last free game %v", v.Game, v.Free, v.Stops, v.Window, last.Start.Game, lastFree)
	}
}

// playUntilFreeGames plays until a game has had free games.
func playUntilFreeGames(h *harness) {
	h.t.Helper()
	h.bill(20000)
	for i := 0; ; i++ {
		if i > 2000 {
			h.t.Fatal("2000 games without free games")
		}
		if h.m.st.Get(meters.Credits) < h.m.betCents() {
			h.bill(20000)
		}
		h.play()
		if len(h.ledger.Games[len(h.ledger.Games)-1].Free) > 0 {
			return
		}
	}
}
