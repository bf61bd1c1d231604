//go:build screen

package ui

import (
	"fmt"
	"image"
	"math"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/hajimehoshi/ebiten/v2"
	"github.com/hajimehoshi/ebiten/v2/text/v2"
	"github.com/openegm/cabinet/assets"
	"github.com/openegm/cabinet/cards"
	"github.com/openegm/cabinet/machine"
	"github.com/openegm/cabinet/meters"
	"github.com/openegm/cabinet/ui/demo"
	"github.com/openegm/cabinet/ui/model"
)

// Layouts hold at every text length: each screen, in both languages, with
// the longest amounts, is drawn with every text and filled shape recorded
// (layoutRec), and checked:
//
//   - no text is smaller than minTextSize, and no number is cut short;
//   - a text fitted to a box (textFit) stays in it, height included;
//   - a text stays inside the innermost shape it is written on (a panel, a
//     spot, a bar) and inside the screen;
//   - no shape drawn later covers a text (the banner over a title), except a
//     veil over the whole screen (the keypad's), under which the screen
//     below is checked on its own, or a declared overlay (a lockout's
//     panel over the table's cards), which hides what it covers;
//   - no two texts overlap, and neither do the shapes they are written on,
//     unless one holds the other or is round (a badge on the legend's
//     panel fails; a chip on its spot, a dealer's button on a seat's
//     corner or the seats round an oval felt do not).

// minTextSize is the smallest legible text (model.MinTextSize: 12 px of a
// 1280×720 screen, 18 px at 1080p, read at arm's length). Anything a layout
// shrinks below it fails, however it fits; so does a number cut short to
// fit (only free text may be).
const minTextSize = model.MinTextSize

// slack is what rounding may put outside a box, in design units.
const slack = 1.0

// maxCents is the longest amount: 9.999.999,99 € / €9,999,999.99.
const maxCents = 999_999_999

// extent is where a drawn text's glyphs go: its advance across, its size
// (the em) down, centred on its middle.
func extent(d drawn) model.Rect {
	f := boldOr(d.Bold)
	if d.Kind == 'm' {
		f = fontMono
	}
	w := text.Advance(d.Text, &text.GoTextFace{Source: f, Size: d.Size})
	x := d.X
	switch d.Align {
	case alignCenter:
		x -= w / 2
	case alignRight:
		x -= w
	}
	return model.Rect{X: x, Y: d.Y - d.Size/2, W: w, H: d.Size}
}

func inside(a, b model.Rect) bool {
	return a.X >= b.X-slack && a.Y >= b.Y-slack && a.X+a.W <= b.X+b.W+slack && a.Y+a.H <= b.Y+b.H+slack
}

// overlap is the area two rectangles share beyond the slack at their edges.
func overlap(a, b model.Rect) bool {
	w := math.Min(a.X+a.W, b.X+b.W) - math.Max(a.X, b.X)
	h := math.Min(a.Y+a.H, b.Y+b.H) - math.Max(a.Y, b.Y)
	return w > slack && h > slack
}

// round: a circle or an oval (a chip, a dealer's button, the felt), which
// may straddle another shape's edge.
func round(r model.Rect, radius float64) bool { return radius >= math.Min(r.W, r.H)/2-0.5 }

func isVeil(d drawn) bool {
	return d.Kind != 't' && d.Kind != 'm' && d.Shape.W*d.Shape.H >= 0.9*model.DesignW*model.DesignH
}

// opaque: a shape that hides what is under it (not a shadow or a tint).
func opaque(d drawn) bool { return d.Kind != 't' && d.Kind != 'm' && d.Alpha >= 0xC0 }

// layoutProblems checks what was drawn; each problem names the text.
func layoutProblems(items []drawn) []string {
	var out []string
	// The screen below a veil is a group of its own.
	start := 0
	for i := 0; i <= len(items); i++ {
		if i == len(items) || isVeil(items[i]) {
			out = append(out, groupProblems(items[start:i])...)
			start = i
		}
	}
	return out
}

func groupProblems(items []drawn) []string {
	var out []string
	// What a declared overlay covers is hidden by design: out of the check.
	hidden := map[int]bool{}
	// So is the layer's text a live region paints over (a jackpot cell
	// redrawn while it pulses).
	if live := slices.IndexFunc(items, func(d drawn) bool { return d.Kind == 'L' }); live >= 0 {
		for i, d := range items[:live] {
			if d.Kind != 't' && d.Kind != 'm' {
				continue
			}
			for _, s := range items[live+1:] {
				if opaque(s) && overlap(extent(d), s.Shape) {
					hidden[i] = true
				}
			}
		}
	}
	for k, o := range items {
		if o.Kind != 'o' {
			continue
		}
		for i, d := range items[:k] {
			r := d.Shape
			if d.Kind == 't' || d.Kind == 'm' {
				r = extent(d)
			}
			if overlap(r, o.Shape) {
				hidden[i] = true
			}
		}
	}
	screen := model.Rect{W: model.DesignW, H: model.DesignH}
	type placed struct {
		d     drawn
		e     model.Rect
		on    *model.Rect
		round bool // the shape it is on
	}
	var texts []placed
	for i, d := range items {
		if d.Kind != 't' && d.Kind != 'm' || strings.TrimSpace(d.Text) == "" || hidden[i] {
			continue
		}
		e := extent(d)
		q := fmt.Sprintf("%q (size %.1f at %.0f,%.0f)", d.Text, d.Size, e.X, e.Y)
		if d.Size < minTextSize-0.01 {
			out = append(out, q+fmt.Sprintf(": smaller than %d, not legible", minTextSize))
		}
		if d.Cut && strings.ContainsAny(d.Text, "0123456789") {
			out = append(out, q+": a number cut short to fit")
		}
		if !inside(e, screen) {
			out = append(out, q+": off the screen")
		}
		if d.Box != nil && !inside(e, *d.Box) {
			out = append(out, q+fmt.Sprintf(": outside its box %v (extent %.0f×%.0f)", *d.Box, e.W, e.H))
		}
		// The innermost opaque shape under the text's middle is what it is
		// written on.
		cx, cy := e.Center()
		var on *model.Rect
		isRound := false
		for j := i - 1; j >= 0; j-- {
			s := items[j]
			if !opaque(s) || !s.Shape.Contains(cx, cy) || hidden[j] {
				continue
			}
			if on == nil || s.Shape.W*s.Shape.H < on.W*on.H {
				r := s.Shape
				on, isRound = &r, round(s.Shape, s.Radius)
			}
		}
		if on != nil && !inside(e, *on) {
			out = append(out, q+fmt.Sprintf(": overruns the shape it is on %v", *on))
		}
		for _, s := range items[i+1:] {
			if opaque(s) && overlap(e, s.Shape) {
				out = append(out, q+fmt.Sprintf(": covered by a shape drawn over it %v", s.Shape))
				break
			}
		}
		texts = append(texts, placed{d, e, on, isRound})
	}
	shapes := map[[2]model.Rect]bool{} // each pair of shapes said once
	for a := range texts {
		for b := a + 1; b < len(texts); b++ {
			if overlap(texts[a].e, texts[b].e) {
				out = append(out, fmt.Sprintf("%q and %q overlap", texts[a].d.Text, texts[b].d.Text))
			}
			if p, q := texts[a].on, texts[b].on; p != nil && q != nil && *p != *q && !texts[a].round && !texts[b].round &&
				overlap(*p, *q) && !inside(*p, *q) && !inside(*q, *p) && !shapes[[2]model.Rect{*p, *q}] {
				shapes[[2]model.Rect{*p, *q}], shapes[[2]model.Rect{*q, *p}] = true, true
				out = append(out, fmt.Sprintf("the shapes under %q %v and %q %v overlap", texts[a].d.Text, *p, texts[b].d.Text, *q))
			}
		}
	}
	return out
}

// layoutNow draws the screen on show whole, offscreen, and returns what
// was drawn; on the window's goroutine.
func layoutNow(g *game) []drawn {
	var items []drawn
	layoutRec = func(d drawn) { items = append(items, d) }
	defer func() { layoutRec = nil }()
	img := ebiten.NewImage(g.w, g.h)
	defer img.Deallocate()
	g.shown = 0
	g.still.sum ^= 1 // the layer is drawn again, and recorded
	g.draw(img)
	g.shown = 0
	return items
}

// checkScreen checks the screen of v, in each language, after set (if
// any) changed the screen's own state; on the window's goroutine.
func checkScreen(t *testing.T, name string, c *canned, v machine.View, set func(g *game)) {
	t.Helper()
	for _, lang := range []string{"pt", "en"} {
		v.Lang = lang
		c.setView(v)
		wait(t, 2, nil)
		var probs []string
		on(t, func(g *game, _ int, _ func() *image.RGBA) bool {
			if set != nil {
				set(g)
			}
			probs = layoutProblems(layoutNow(g))
			return true
		})
		for _, p := range probs {
			t.Errorf("%s (%s): %s", name, lang, p)
		}
	}
}

// longView is the reels' screen with the longest amounts.
func longView() machine.View {
	v := idleView()
	v.MachineID = "EGM-99999999"
	v.Credits, v.CreditsCents = maxCents, maxCents
	v.Denom = 100_00
	v.BetCredits, v.BetCents = 99_999, maxCents
	v.Game = 99_999_999
	return v
}

func TestScreenLayoutReels(t *testing.T) {
	c := useCanned(t, longView())
	v := longView()
	checkScreen(t, "reels", c, v, nil)
	// Every message of the message row, with the longest amounts.
	for _, lang := range []string{"pt", "en"} {
		v.Lang = lang
		c.setView(v)
		wait(t, 2, nil)
		on(t, func(g *game, _ int, _ func() *image.RGBA) bool {
			for _, k := range model.Keys() {
				if !strings.HasPrefix(k, "msg_") {
					continue
				}
				g.V.Message = machine.Message{Key: k, Args: []int64{maxCents, maxCents, maxCents}}
				for _, p := range layoutProblems(layoutNow(g)) {
					t.Errorf("message %s (%s): %s", k, lang, p)
				}
			}
			return true
		})
	}
	// The winning lines, their badges beside the simulator's legend.
	win := spinView(t, c.pt, findWin(t, c.pt), "idle")
	win.Credits, win.CreditsCents = maxCents, maxCents
	checkScreen(t, "win lines", c, win, nil)
	// Lockouts: a handpay of each kind, a tilt of every kind, every door.
	hp := longView()
	hp.Mode, hp.Handpay = "handpay", maxCents
	for _, kind := range []string{meters.HandpayCancelled, meters.HandpayProgressive, "win"} {
		hp.HandpayKind = kind
		hp.Message = machine.Message{Key: "msg_handpay_printer"}
		checkScreen(t, "handpay "+kind, c, hp, nil)
	}
	tilt := longView()
	tilt.Mode = "tilt"
	for _, k := range model.Keys() {
		if strings.HasPrefix(k, "tilt_") {
			tilt.Tilts = append(tilt.Tilts, strings.TrimPrefix(k, "tilt_"))
		}
	}
	tilt.Tilts = tilt.Tilts[:min(len(tilt.Tilts), 4)]
	checkScreen(t, "tilt", c, tilt, nil)
	useCanned(t, idleView())
}

func TestScreenLayoutPaytable(t *testing.T) {
	v := longView()
	v.Help = true
	c := useCanned(t, v)
	var pages int
	stateOf(t, func(g *game) { pages = len(g.PaytablePages()) })
	for p := range pages {
		checkScreen(t, fmt.Sprintf("paytable page %d", p+1), c, v, func(g *game) { g.HelpPage = p })
	}
	useCanned(t, idleView())
}

func TestScreenLayoutTable(t *testing.T) {
	d := tableDemo(t)
	v := d.View()
	v.GameKind = meters.GameMakccarat
	v.MachineID = "EGM-99999999"
	v.Credits, v.CreditsCents = maxCents, maxCents
	c := useCanned(t, v)
	stateOf(t, func(g *game) { g.Table.Menu = true })
	checkScreen(t, "game menu", c, v, func(g *game) { g.Table.Menu = true })
	// A settled hand: every spot staked its most and paid, with a
	// commission, the longest outcome there is.
	tv := *v.Table
	h := &machine.HandView{Game: 99_999_999, Done: true, Turned: 6, Winner: "banker", PlayerPoints: 8, BankerPoints: 9,
		PlayerPair: true, BankerPair: true, StakedCents: maxCents, PaidCents: maxCents, Commission: maxCents}
	for i := range 6 {
		h.Cards = append(h.Cards, cards.Card{Rank: cards.Queen, Suit: cards.Hearts})
		h.Sides = append(h.Sides, []string{"player", "banker"}[i%2])
	}
	// The longest a spot settles: its most staked, won at its odds, less
	// a 5 % commission, with ten times the shipped limits' room.
	for s := range h.Spots {
		stake := 10 * tv.Spots[s].Max
		won := stake * tv.Spots[s].Odds
		tv.Bets[s] = stake
		h.Spots[s] = machine.Payout{Stake: stake, Result: "won", Commission: won / 20, Paid: stake + won - won/20}
	}
	tv.Hand = h
	for i := range machine.RoadHands {
		tv.Roads = append(tv.Roads, machine.RoadHand{Winner: []string{"player", "banker", "tie"}[i%3], Points: 9, PlayerPair: true, BankerPair: true})
	}
	v.Table = &tv
	v.Message = machine.Message{Key: "msg_table_won", Args: []int64{maxCents}}
	checkScreen(t, "table settled", c, v, func(g *game) { g.Table.Menu = false })
	// Test mode: the banner over the table's and the menu's top bar.
	v.Test = &machine.TestView{CreditsCents: maxCents, Who: "technician", Chosen: strings.Repeat("9", 18)}
	checkScreen(t, "test mode, table", c, v, func(g *game) { g.Table.Menu = false })
	checkScreen(t, "test mode, menu", c, v, func(g *game) { g.Table.Menu = true })
	// A lockout over the table.
	v.Test, v.Mode, v.Tilts = nil, "tilt", []string{"printer", "bill_jam"}
	checkScreen(t, "table tilt", c, v, func(g *game) { g.Table.Menu = false })
	useCanned(t, idleView())
}

func TestScreenLayoutPoker(t *testing.T) {
	c := useCanned(t, pokerView(demo.PokerLobby(), maxCents))
	for _, s := range []struct {
		name string
		seat func() *machine.PokerSeatView
	}{
		{"poker lobby", demo.PokerLobby}, {"poker to act", demo.PokerToAct}, {"poker offer", demo.PokerOffer},
		{"poker showdown", demo.PokerShowdown}, {"poker replay", demo.PokerReplay}, {"poker ended", demo.PokerEnded},
		{"chemin lobby", demo.CheminLobby}, {"chemin banco", demo.CheminBanco}, {"chemin draw", demo.CheminDraw},
		{"chemin after the coup", demo.CheminAfterCoup},
		{"chemin between decisions", func() *machine.PokerSeatView { v := demo.CheminReplay(); v.Replay, v.ReplaySeq = nil, 0; return v }},
	} {
		v := pokerView(s.seat(), maxCents)
		v.MachineID = "EGM-99999999"
		checkScreen(t, s.name, c, v, nil)
	}
	useCanned(t, idleView())
	// The seat's clock as this test left it would run the next test's
	// timer on from here (the demo's seats share their server times).
	stateOf(t, func(g *game) { g.Poker = model.PokerUI{} })
}

func TestScreenLayoutJackpots(t *testing.T) {
	v := longView()
	v.Jackpots = jackpotLevels()
	for i := range v.Jackpots {
		v.Jackpots[i].Cents = maxCents
	}
	c := useCanned(t, v)
	checkScreen(t, "jackpot banner", c, v, nil)
	v.Jackpots[1].Pending = true
	checkScreen(t, "jackpot banner, a level won", c, v, nil)
	useCanned(t, idleView())
}

// serviceView is the service menu on a page, every list full of the
// longest lines.
func serviceView(page string) machine.View {
	v := longView()
	v.Mode = "service"
	at := time.Date(2026, 12, 31, 23, 59, 59, 0, time.UTC).UnixNano()
	s := &machine.ServiceView{Role: machine.RoleInspector, Who: "inspector", Page: page,
		ProgramHash: strings.Repeat("9f", 32), PaytableID: "lusitania-92", PaytableDigest: strings.Repeat("ab", 32),
		CertifiedRTP:  []string{"9999999/10000000", "9999999/10000000", "9999999/10000000"},
		TotalWonCents: maxCents, TotalBetCents: maxCents}
	for i, name := range []string{"coin_in", "coin_out", "jackpot", "handpay_cancelled", "bills_in", "ticket_in", "ticket_out", "games_played", "games_won"} {
		s.Meters = append(s.Meters, machine.MeterLine{Name: name, SAS: i, Cents: i%2 == 0, Value: maxCents})
	}
	for i := range 20 {
		s.Events = append(s.Events, machine.ViewEvent{Event: meters.Event{At: at, Code: "door_main", Detail: strings.Repeat("detail ", 20), Who: "technician " + strings.Repeat("x", 20)}, Game: uint64(i)})
		s.Bills = append(s.Bills, meters.MoneyIn{At: at, Source: "bill", Cents: maxCents, Ref: strings.Repeat("9", 18)})
		s.Recall = append(s.Recall, machine.Recall{Game: 99_999_999, At: at, Paytable: "lusitania-92", BetCents: maxCents, WinCents: maxCents,
			Recomputed: maxCents, Problem: strings.Repeat("the recorded win differs from the stops' ", 6), Kind: meters.GameReels})
		s.Handpays = append(s.Handpays, meters.HandpayHistory{Pending: meters.HandpayPending{At: at, Kind: meters.HandpayCancelled, Cents: maxCents, Game: 99_999_999}})
	}
	v.Service = s
	return v
}

func TestScreenLayoutService(t *testing.T) {
	c := useCanned(t, serviceView("meters"))
	for _, page := range []string{"meters", "recall", "events", "bills", "handpays", "settings", "identity", "io"} {
		checkScreen(t, "service "+page, c, serviceView(page), nil)
	}
	// Test mode: the banner over the service menu's title and the reels'.
	v := serviceView("meters")
	v.Test = &machine.TestView{CreditsCents: maxCents, Who: "technician", Chosen: strings.Repeat("9", 18)}
	checkScreen(t, "test mode, service", c, v, nil)
	r := longView()
	r.Test = v.Test
	checkScreen(t, "test mode, reels", c, r, nil)
	useCanned(t, idleView())
}

func TestScreenLayoutKeypads(t *testing.T) {
	v := longView()
	v.KeyOn, v.LoginPad = true, true
	c := useCanned(t, v)
	checkScreen(t, "login pad", c, v, nil)
	hp := longView()
	hp.Mode, hp.Handpay, hp.HandpayKind, hp.HandpayConfirm, hp.KeyOn = "handpay", maxCents, "win", true, true
	checkScreen(t, "handpay pad", c, hp, nil)
	hp.HandpayVoucher = true
	checkScreen(t, "handpay pad, voucher", c, hp, nil)
	// The new-PIN pads of a service session, with the longest message.
	sv := serviceView("meters")
	sv.Service.MustChangePIN = true
	for _, mode := range []string{"set_pin", "set_pin_again", "set_pin_wait"} {
		checkScreen(t, "pad "+mode, c, sv, func(g *game) { g.Pad = model.Keypad{Mode: mode, Note: "pad_pin_mismatch"} })
	}
	stateOf(t, func(g *game) { g.Pad = model.Keypad{} }) // closed, for the tests after
	useCanned(t, idleView())
}

// TestScreenLayoutPresentations: every step the machine asks the screen to
// present (a feature's trigger with the most games, the wait for its
// start, a win of each tier and the feature's total at the longest
// amount), in both languages, checked once the panel shows its final text:
// the panel holds its words and covers no other.
func TestScreenLayoutPresentations(t *testing.T) {
	pt, _ := assets.LoadPaytable(assets.DefaultGame)
	c := useCanned(t, idleView())
	base := spinView(t, pt, findWin(t, pt), "spinning")
	base.MachineID, base.Credits, base.CreditsCents = "EGM-99999999", maxCents, maxCents
	base.GameOpen, base.SpinWinCents, base.GameWinCents = true, maxCents, maxCents
	steps := []struct {
		name string
		p    machine.Presentation
		free int
	}{
		{"trigger", machine.Presentation{Kind: machine.PresentFeature, Tier: machine.TierFeature, Games: 999}, 999},
		{"free start (press)", machine.Presentation{Kind: machine.PresentFreeStart, Games: 999, Press: true}, 999},
		{"free start (auto)", machine.Presentation{Kind: machine.PresentFreeStart, Games: 999}, 999},
		{"big win", machine.Presentation{Kind: machine.PresentWin, Tier: machine.TierBig, Cents: maxCents, Skippable: true}, 0},
		{"mega win", machine.Presentation{Kind: machine.PresentWin, Tier: machine.TierMega, Cents: maxCents, Skippable: true}, 0},
		{"jackpot", machine.Presentation{Kind: machine.PresentWin, Tier: machine.TierJackpot, Cents: maxCents, Skippable: true}, 0},
		{"total", machine.Presentation{Kind: machine.PresentTotal, Tier: machine.TierFeature, Cents: maxCents}, 999},
	}
	for i, s := range steps {
		for _, lang := range []string{"pt", "en"} {
			v := base
			v.Lang = lang
			p := s.p
			p.ID = uint64(1000 + 2*i)
			if lang == "en" {
				p.ID++
			}
			v.Present = &p
			v.FreeTotal = s.free
			c.setView(v)
			// The panel at its final words: the whole amount counted up.
			var probs []string
			on(t, func(g *game, _ int, _ func() *image.RGBA) bool {
				cel, ok := g.CelebrationNow()
				if !ok || cel.Scatters || (p.Cents > 0 && cel.Text != model.Euro(lang, p.Cents)) {
					return false
				}
				items := layoutNow(g)
				probs = layoutProblems(items)
				if !slices.ContainsFunc(items, func(d drawn) bool { return d.Text == cel.Title }) {
					probs = append(probs, fmt.Sprintf("the panel's title %q was not drawn", cel.Title))
				}
				return true
			})
			for _, pr := range probs {
				t.Errorf("%s (%s): %s", s.name, lang, pr)
			}
		}
	}
	useCanned(t, idleView())
}
