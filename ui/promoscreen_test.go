//go:build screen

package ui

import (
	"image"
	"strings"
	"testing"
	"time"

	"github.com/openegm/cabinet/aft"
	"github.com/openegm/cabinet/assets"
	"github.com/openegm/cabinet/machine"
	"github.com/openegm/cabinet/ui/demo"
	"github.com/openegm/cabinet/ui/model"
)

// screenClock sets the screens' clock for a test (the cabinet's, in
// production; the demo machine's own here, so its dates read alike).
func screenClock(t *testing.T, now func() time.Time) {
	t.Helper()
	stateOf(t, func(g *game) { g.Now = now })
	t.Cleanup(func() { stateOf(t, func(g *game) { g.Now = nil }) })
}

// splitInk counts a split panel's pixels in each kind's colour, and the
// dim ones (the restricted credit's date) on its first line.
type splitInk struct{ promo, free, cash, date int }

func inkOfSplit(img *image.RGBA, r model.Rect) splitInk {
	in := r.Inset(3)
	first := model.Rect{X: in.X, Y: in.Y, W: in.W, H: in.H / 2}
	return splitInk{coloured(img, theGame, in, colPromo), coloured(img, theGame, in, colPromoFree),
		coloured(img, theGame, in, colGreen), coloured(img, theGame, first, colDim)}
}

// The reels' screen with promotional credit from the host: the credit
// meter's total as before, and under it the split, each kind in its
// colour with the restricted credit's date; after a cash-out the
// non-restricted credit is paid and the restricted stays on the screen
// with it. Before any promotional credit the split's place is the
// message's.
func TestScreenCreditSplitReels(t *testing.T) {
	pt, _ := assets.LoadPaytable(assets.DefaultGame)
	d := demo.New(pt, demo.Config{MachineID: "EGM-0042", Seed: 5})
	d.InsertBill(2000)
	cab.set(d)
	screenClock(t, d.Now)
	wait(t, 3, func(g *game) bool { return g.V.CreditsCents == 2000 })
	before := grab(t, "promo_none")
	var split, msg model.Rect
	stateOf(t, func(g *game) { split, _ = model.RowWithSplit(model.RectMessage, model.RectCreditCell, true) })
	if ink := inkOfSplit(before, split); ink.promo+ink.free > 0 {
		t.Fatalf("a split drawn without promotional credit: %+v", ink)
	}

	if why := d.Promo("P-1", 15_00, 5_00, aft.DateOf(d.Now().AddDate(0, 1, 0))); why != "" {
		t.Fatal(why)
	}
	wait(t, 3, func(g *game) bool { return g.V.RestrictedCents == 15_00 })
	img := grab(t, "promo_split")
	var parts []model.CreditPart
	stateOf(t, func(g *game) { split, msg, parts = g.ReelsMessageRow() })
	if len(parts) != 3 || parts[0].Until == "" {
		t.Fatalf("split %+v", parts)
	}
	ink := inkOfSplit(img, split)
	if ink.promo < 150 || ink.free < 150 || ink.cash < 100 || ink.date < 150 {
		t.Errorf("the split is not drawn (pixels: PROMO %d, PROMO LIVRE %d, cash %d, the date %d)", ink.promo, ink.free, ink.cash, ink.date)
	}
	if n := changed(before, img, theGame, model.RectCreditCell.Inset(16)); n < 200 {
		t.Errorf("the credit meter did not change with the transfer (%d pixels)", n)
	}
	if n := inked(img, theGame, msg.Inset(4)); n < 200 {
		t.Errorf("the message beside the split is not drawn (%d pixels)", n)
	}

	// The cash-out pays the cash and the non-restricted credit (by hand:
	// the demo has no ticket validation); the restricted stays, and the
	// lockout, the message and then the split say so.
	d.Press(machine.BtnCashOut)
	wait(t, 3, func(g *game) bool { return g.V.Mode == "handpay" })
	hp := grab(t, "promo_handpay")
	// Its panel holds all its lines: nothing written on the reels under it.
	var panel model.Rect
	stateOf(t, func(g *game) { panel, _, _ = g.lockoutLayout() })
	if n := changed(img, hp, theGame, model.Rect{X: panel.X, Y: panel.Y + panel.H + 2, W: panel.W, H: 24}); n > 0 {
		t.Errorf("the handpay's lines run out of its panel %v (%d pixels under it)", panel, n)
	}
	stays := model.T("pt", "promo_stays", model.Euro("pt", 15_00))
	var lines []string
	stateOf(t, func(g *game) { _, lines = g.LockoutLines() })
	if !strings.Contains(strings.Join(lines, "\n"), stays) {
		t.Errorf("the cash-out's handpay %q does not say %q", lines, stays)
	}
	d.SetSwitch(SwitchKey, true)
	d.Service(machine.HandpayPaid{Cents: 20_00 + 5_00})
	d.SetSwitch(SwitchKey, false)
	wait(t, 3, func(g *game) bool { return g.V.Mode == "idle" && g.V.NonRestrictedCents == 0 })
	out := grab(t, "promo_cashout")
	ink = inkOfSplit(out, split)
	if ink.promo < 150 || ink.free > 0 || ink.cash < 100 {
		t.Errorf("after the cash-out the split is not PROMO and cash alone (pixels: PROMO %d, PROMO LIVRE %d, cash %d)", ink.promo, ink.free, ink.cash)
	}
	var said string
	stateOf(t, func(g *game) { said = g.MessageText() })
	if !strings.Contains(said, stays) {
		t.Errorf("the paid cash-out's message %q does not say %q", said, stays)
	}
	if n := inked(out, theGame, msg.Inset(4)); n < 400 {
		t.Errorf("the cash-out's message is not drawn (%d pixels)", n)
	}
}

// The Makccarat table: the split under the table's meters, the message
// beside it.
func TestScreenCreditSplitTable(t *testing.T) {
	d := tableDemo(t)
	screenClock(t, d.Now)
	stateOf(t, func(g *game) {
		if !g.MenuUp() {
			g.key(model.KeyEscape)
		}
	})
	wait(t, 3, func(g *game) bool { return g.MenuUp() })
	stateOf(t, func(g *game) { g.key(model.KeyRight); g.key(model.KeyEnter) })
	wait(t, 3, func(g *game) bool { return g.AtTable() })
	before := grab(t, "table_promo_none")
	if why := d.Promo("P-1", 15_00, 0, aft.DateOf(d.Now().AddDate(0, 1, 0))); why != "" {
		t.Fatal(why)
	}
	wait(t, 3, func(g *game) bool { return g.V.RestrictedCents == 15_00 })
	img := grab(t, "table_promo")
	var split, msg model.Rect
	stateOf(t, func(g *game) { split, msg, _ = g.TableMessageRow() })
	if split.W == 0 {
		t.Fatal("no split at the table with promotional credit")
	}
	if ink := inkOfSplit(before, split); ink.promo > 0 {
		t.Errorf("PROMO drawn before the transfer (%d pixels)", ink.promo)
	}
	ink := inkOfSplit(img, split)
	if ink.promo < 150 || ink.cash < 100 || ink.date < 150 || ink.free > 0 {
		t.Errorf("the split is not drawn as PROMO with its date and cash (pixels: PROMO %d, cash %d, date %d, PROMO LIVRE %d)",
			ink.promo, ink.cash, ink.date, ink.free)
	}
	if n := inked(img, theGame, msg.Inset(4)); n < 200 {
		t.Errorf("the table's message beside the split is not drawn (%d pixels)", n)
	}
}

// The poker lobby: the split above the credit meter, the lobby's hint
// beside it.
func TestScreenCreditSplitLobby(t *testing.T) {
	v := pokerView(demo.PokerLobby(), 50_00)
	v.RestrictedCents, v.NonRestrictedCents = 10_00, 5_00
	v.RestrictedExpires = aft.DateOf(time.Date(2025, 7, 10, 0, 0, 0, 0, time.UTC))
	useCanned(t, v)
	screenClock(t, func() time.Time { return time.Date(2025, 6, 10, 12, 0, 0, 0, time.UTC) })
	wait(t, 3, func(g *game) bool { return g.AtPoker() && !g.PokerAtTable() })
	img := grab(t, "poker_lobby_promo")
	var split, msg model.Rect
	stateOf(t, func(g *game) { split, msg, _ = g.LobbyMessageRow() })
	if split.W == 0 || split.X != model.RectCredit.X {
		t.Fatalf("split %v is not above the credit meter %v", split, model.RectCredit)
	}
	ink := inkOfSplit(img, split)
	if ink.promo < 150 || ink.free < 150 || ink.cash < 100 || ink.date < 100 {
		t.Errorf("the split is not drawn (pixels: PROMO %d, PROMO LIVRE %d, cash %d, the date %d)", ink.promo, ink.free, ink.cash, ink.date)
	}
	if n := inked(img, theGame, msg.Inset(4)); n < 200 {
		t.Errorf("the lobby's hint beside the split is not drawn (%d pixels)", n)
	}
}
