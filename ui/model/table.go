package model

import (
	"slices"
	"strings"
	"time"

	"github.com/openegm/cabinet/baccarat"
	"github.com/openegm/cabinet/cards"
	"github.com/openegm/cabinet/machine"
	"github.com/openegm/cabinet/meters"
)

// The game menu and the Makccarat table. The machine deals, pays and says
// when each card is turned; these screens show View.Table as it comes and
// turn touches and keys into chips, deals and the player's choice of game.
// Chips are not money until the deal: the machine keeps them on its spots
// (View.Table.Bets) and refuses what the definition does not allow.

// TableUI is the screens' own state of the game menu and the table.
type TableUI struct {
	Menu    bool // the game menu is up
	MenuSel int  // the game the keyboard points at on the menu
	Chip    int  // the chip selected, an index into Chips
}

// observeTable follows the machine: the menu gives way to a game in
// progress. It does not open by itself: the screens start on the game the
// machine is at (the reels, unchanged, or a hand being resumed), and the
// player opens the menu with the games button or Esc.
func (g *Screen) observeTable(v machine.View) {
	if v.Mode == "dealing" || v.Mode == "spinning" {
		g.Table.Menu = false
	}
	if n := len(g.Chips()); g.Table.Chip >= n {
		g.Table.Chip = max(n-1, 0)
	}
}

// MenuUp says whether the game menu is on screen.
func (g *Screen) MenuUp() bool {
	return g.Table.Menu && len(g.V.Games) > 1 && g.V.Mode == "idle" && !g.Help
}

// AtTable says whether the Makccarat table is on screen (rather than the
// reels, the menu or the service menu).
func (g *Screen) AtTable() bool {
	return g.V.GameKind == meters.GameMakccarat && g.V.Table != nil && !g.MenuUp() && g.V.Mode != "service"
}

// menuOffered says whether the player may go back to the game menu now:
// there is a choice and no game is in progress.
func (g *Screen) menuOffered() bool {
	return len(g.V.Games) > 1 && g.V.Mode == "idle" && !g.V.GameOpen
}

func (g *Screen) openMenu() {
	g.activity()
	g.closeHelp()
	g.Table.Menu = true
	g.Table.MenuSel = max(slices.Index(g.V.Games, g.V.GameKind), 0)
}

// pickGame leaves the menu for a game: the machine is told when it is not
// the game it is at already.
func (g *Screen) pickGame(game string) {
	g.activity()
	g.Table.Menu = false
	if game != g.V.GameKind {
		g.C.Service(machine.SelectGame{At: time.Now(), Game: game})
	}
}

// SpotOrder is the spots from left to right on the table: the pairs at the
// edges, the tie between player and banker.
var SpotOrder = [baccarat.NumSpots]baccarat.Spot{baccarat.SpotPlayerPair, baccarat.SpotPlayer, baccarat.SpotTie, baccarat.SpotBanker, baccarat.SpotBankerPair}

// SpotKeys are the keys of the spots in SpotOrder: one row of the keyboard,
// left to right as the spots are.
var SpotKeys = [baccarat.NumSpots]string{"y", "u", "i", "o", "p"}

// KeyChip cycles the chip's value.
const KeyChip = "v"

// chipTargets are the chips a table offers when its bet unit allows them
// (1 €, 5 €, 25 €, 100 €); each is raised to the next multiple of the unit.
var chipTargets = []int64{100, 500, 2500, 10000}

// Chips are the chip values offered: multiples of the definition's bet
// unit, none above the largest spot maximum.
func (g *Screen) Chips() []int64 { return Chips(g.V.Table) }

// Chips are the chip values for a table (none without one).
func Chips(t *machine.TableView) []int64 {
	if t == nil || t.BetUnit <= 0 {
		return nil
	}
	var top int64
	for _, s := range t.Spots {
		top = max(top, s.Max)
	}
	var out []int64
	for _, c := range chipTargets {
		v := (c + t.BetUnit - 1) / t.BetUnit * t.BetUnit
		if (top == 0 || v <= top) && !slices.Contains(out, v) {
			out = append(out, v)
		}
	}
	if len(out) == 0 {
		out = []int64{t.BetUnit}
	}
	return out
}

// ChipCents is the value of the chip selected (0 without a table).
func (g *Screen) ChipCents() int64 {
	cs := g.Chips()
	if len(cs) == 0 {
		return 0
	}
	return cs[min(g.Table.Chip, len(cs)-1)]
}

func (g *Screen) chipBy(d int) {
	if n := len(g.Chips()); n > 0 {
		g.Table.Chip = Mod(g.Table.Chip+d, n)
	}
}

// placeChip puts the selected chip on a spot; the machine checks it.
func (g *Screen) placeChip(s baccarat.Spot) {
	g.activity()
	if c := g.ChipCents(); c > 0 {
		g.C.Service(machine.PlaceBet{At: time.Now(), Spot: int(s), Cents: c})
	}
}

// TablePlayable says whether chips can be placed and a hand dealt now.
func (g *Screen) TablePlayable() bool {
	return g.V.Mode == "idle" && !g.V.GameOpen
}

// Staked is the chips on the spots for the next hand.
func (g *Screen) Staked() int64 {
	if g.V.Table == nil {
		return 0
	}
	return baccarat.Bets(g.V.Table.Bets).Total()
}

// Layout of the table screen, in design units.
var (
	RectTableCards  = Rect{20, 66, 820, 236}
	RectPlayerHand  = Rect{20, 66, 405, 236}
	RectBankerHand  = Rect{435, 66, 405, 236}
	RectSpots       = Rect{20, 312, 820, 160}
	RectChips       = Rect{20, 484, 430, 92}
	RectTableMeters = Rect{460, 484, 380, 92}
	RectBead        = Rect{860, 92, 400, 240}
	RectBigRoad     = Rect{860, 366, 400, 120}
	RectRoadCounts  = Rect{860, 494, 400, 30}
	RectTableMsg    = Rect{20, 584, 1240, 40}
	// RectMenuGame is the first game's tile on a menu of two; the next
	// ones follow to the right (MenuTileRect).
	RectMenuGame = Rect{150, 170, 460, 300}
)

// MenuTileRect is the i-th of n game tiles on the menu, the row centred:
// two tiles as RectMenuGame sets them, more narrower so they all fit.
func MenuTileRect(i, n int) Rect {
	gap := 60.0
	if n > 2 {
		gap = 40
	}
	w := min(RectMenuGame.W, (DesignW-60-float64(n-1)*gap)/float64(max(n, 1)))
	x0 := (DesignW - float64(n)*w - float64(n-1)*gap) / 2
	return Rect{x0 + float64(i)*(w+gap), RectMenuGame.Y, w, RectMenuGame.H}
}

// Card size on the table.
const CardW, CardH = 100.0, 140.0

// BeadRows and BeadCols are the bead plate's grid; BigRoadRows and
// BigRoadCols the big road's.
const (
	BeadRows    = 6
	BeadCols    = 10
	BigRoadRows = 6
	BigRoadCols = 20
)

// SpotRect is a spot's rectangle on the table (SpotOrder position i).
func SpotRect(i int) Rect {
	widths := [baccarat.NumSpots]float64{140, 184, 140, 184, 140}
	x := RectSpots.X
	for k := range i {
		x += widths[k] + 8
	}
	return Rect{x, RectSpots.Y, widths[i], RectSpots.H}
}

// ChipRect is the i-th chip of the chip tray.
func ChipRect(i int) Rect {
	return Rect{RectChips.X + 10 + float64(i)*104, RectChips.Y + 4, 84, 84}
}

// CardSlot is a card on the table, where it is drawn.
type CardSlot struct {
	Card cards.Card
	Side string // "player" or "banker"
	R    Rect
}

// TableCards are the cards turned so far, each in its hand's box in the
// order it went to that hand.
func (g *Screen) TableCards() []CardSlot {
	t := g.V.Table
	if t == nil || t.Hand == nil {
		return nil
	}
	h := t.Hand
	var out []CardSlot
	n := map[string]int{}
	for i, c := range h.Cards {
		if i >= len(h.Sides) {
			break
		}
		side := h.Sides[i]
		box := RectPlayerHand
		if side == "banker" {
			box = RectBankerHand
		}
		k := n[side]
		n[side]++
		x := box.X + (box.W-3*CardW-2*12)/2 + float64(k)*(CardW+12)
		out = append(out, CardSlot{Card: c, Side: side, R: Rect{x, box.Y + 40, CardW, CardH}})
	}
	return out
}

// CardText is a card's rank and suit as printed on it ("10♥", "K♠"), and
// whether it is red.
func CardText(c cards.Card) (rank, suit string, red bool) {
	ranks := []string{"", "A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"}
	suits := []string{"♣", "♦", "♥", "♠"}
	if !c.Valid() {
		return "?", "", false
	}
	return ranks[c.Rank], suits[c.Suit], c.Suit == cards.Diamonds || c.Suit == cards.Hearts
}

// HandPoints is the points line under a hand's cards ("" before its first
// card).
func (g *Screen) HandPoints(side string) string {
	t := g.V.Table
	if t == nil || t.Hand == nil || !slices.Contains(t.Hand.Sides, side) {
		return ""
	}
	p := t.Hand.PlayerPoints
	if side == "banker" {
		p = t.Hand.BankerPoints
	}
	return Tn(g.Lang, "hand_points", int64(p), Itoa(p))
}

// HandWon says whether a side ("player", "banker", "tie") won the hand on
// screen; false until the last card is turned.
func (g *Screen) HandWon(side string) bool {
	t := g.V.Table
	return t != nil && t.Hand != nil && t.Hand.Done && t.Hand.Winner == side
}

// HandPair says whether a side's first two cards are a pair, once the hand
// is done.
func (g *Screen) HandPair(side string) bool {
	t := g.V.Table
	if t == nil || t.Hand == nil || !t.Hand.Done {
		return false
	}
	if side == "banker" {
		return t.Hand.BankerPair
	}
	return t.Hand.PlayerPair
}

// ResultText is the hand's result ("BANCA GANHA 7 a 5"), "" until it is
// done.
func (g *Screen) ResultText() string {
	t := g.V.Table
	if t == nil || t.Hand == nil || !t.Hand.Done {
		return ""
	}
	h := t.Hand
	switch h.Winner {
	case "player":
		return g.T("win_player", Itoa(h.PlayerPoints), Itoa(h.BankerPoints))
	case "banker":
		return g.T("win_banker", Itoa(h.BankerPoints), Itoa(h.PlayerPoints))
	}
	return g.T("win_tie", Itoa(h.PlayerPoints))
}

// SpotView is what a spot shows: its name, its odds, the chips on it for
// the next hand, and how it was settled in the hand on screen.
type SpotView struct {
	Spot   baccarat.Spot
	Key    string
	Name   string
	Odds   string
	Stake  int64  // chips for the next hand
	Result string // the last hand's settlement, translated ("" none)
	// Commission is the commission the house kept of a win ("" none),
	// under the result: a spot is too narrow for both on one line.
	Commission string
	Won        bool
}

// Settled says whether the hand on screen is done and the chips on the
// spots are still its stakes (the machine leaves them for the next hand);
// once the player changes them, the last hand's settlement is no longer
// shown, so a new stake is never read as what was paid.
func (g *Screen) Settled() bool {
	t := g.V.Table
	if t == nil || t.Hand == nil || !t.Hand.Done {
		return false
	}
	for s, p := range t.Hand.Spots {
		if t.Bets[s] != p.Stake {
			return false
		}
	}
	return true
}

// SpotViews are the spots in SpotOrder, with the last hand's settlement
// while it is Settled.
func (g *Screen) SpotViews() []SpotView {
	t := g.V.Table
	if t == nil {
		return nil
	}
	var out []SpotView
	settled := g.Settled()
	for i, s := range SpotOrder {
		sv := SpotView{Spot: s, Key: strings.ToUpper(SpotKeys[i]), Name: g.T("spot_" + s.String()), Stake: t.Bets[s]}
		if int(s) < len(t.Spots) {
			sv.Odds = g.T("spot_odds", Credits(g.Lang, t.Spots[s].Odds))
		}
		if settled {
			p := t.Hand.Spots[s]
			switch p.Result {
			case "won":
				sv.Result, sv.Won = g.T("result_won", Euro(g.Lang, p.Paid)), true
			case "returned":
				sv.Result = g.T("result_returned", Euro(g.Lang, p.Paid))
			case "lost":
				sv.Result = g.T("result_lost")
			}
			if p.Commission > 0 {
				sv.Commission = g.T("result_commission", Euro(g.Lang, p.Commission))
			}
		}
		out = append(out, sv)
	}
	return out
}

// TableMeter is one of the table's meters.
type TableMeter struct{ Label, Value string }

// TableMeters are the credit, the chips on the spots and what the hand on
// screen paid (once its last card is turned).
func (g *Screen) TableMeters() []TableMeter {
	paid := "—"
	if t := g.V.Table; t != nil && t.Hand != nil && t.Hand.Done {
		paid = Euro(g.Lang, t.Hand.PaidCents)
	}
	return []TableMeter{
		{g.T("table_credit"), Euro(g.Lang, g.V.CreditsCents)},
		{g.T("table_staked"), Euro(g.Lang, g.Staked())},
		{g.T("table_paid"), paid},
	}
}

// TableMessage is the table's message line: a refusal or what the machine
// says, the hand's result, or what to do.
func (g *Screen) TableMessage() string {
	v := g.V
	switch {
	case v.Printing != "":
		return g.PrintingText()
	case v.Message.Key == "refused_table_limits":
		if s := g.limitText(); s != "" {
			return s
		}
		return g.T(v.Message.Key)
	case g.Settled() && (v.Message.Key == "" || v.Message.Key == "msg_win"):
		// The result says more than the machine's "you won".
		r := g.ResultText()
		if pair := g.pairsText(); pair != "" {
			r += " · " + pair
		}
		if p := v.Table.Hand.PaidCents; p > 0 {
			return r + " · " + g.T("table_paid_total", Euro(g.Lang, p))
		}
		return r + " · " + g.T("table_no_win")
	case v.Message.Key != "":
		return g.Said()
	case Lockout(v.Mode):
		t, _ := g.LockoutLines()
		return t
	case v.Mode == "dealing":
		return g.T("mode_dealing")
	case v.Credits == 0 && v.Mode == "idle":
		return g.T("attract_1")
	}
	return g.T("table_place_bets")
}

func (g *Screen) pairsText() string {
	var ps []string
	if g.HandPair("player") {
		ps = append(ps, g.T("pair_player"))
	}
	if g.HandPair("banker") {
		ps = append(ps, g.T("pair_banker"))
	}
	return strings.Join(ps, " · ")
}

// limitText says which minimum the chips on the spots do not reach (the
// machine's Detail is for technicians, in cents and in English).
func (g *Screen) limitText() string {
	t := g.V.Table
	if t == nil {
		return ""
	}
	for _, s := range SpotOrder {
		if b := t.Bets[s]; b > 0 && int(s) < len(t.Spots) && b < t.Spots[s].Min {
			return g.T("table_min_spot", g.T("spot_"+s.String()), Euro(g.Lang, t.Spots[s].Min))
		}
	}
	if st := g.Staked(); st > 0 && st < t.HandMin {
		return g.T("table_min_hand", Euro(g.Lang, t.HandMin))
	}
	return ""
}

// MenuButtons are the game menu's tiles, and the language.
func (g *Screen) MenuButtons() []Button {
	var bs []Button
	for i, game := range g.V.Games {
		r := MenuTileRect(i, len(g.V.Games))
		style := StyleNormal
		if i == g.Table.MenuSel {
			style = StyleSelected
		}
		// Unlabelled: the menu draws each tile with its game's picture.
		bs = append(bs, Button{ID: "game:" + game, R: r, Enabled: true, Style: style,
			Act: func(g *Screen) { g.pickGame(game) }})
	}
	bs = append(bs, Button{ID: machine.BtnLanguage, Label: g.T("btn_language"), R: Rect{20, 634, 200, 76}, Enabled: true,
		Act: func(g *Screen) { g.press(machine.BtnLanguage) }})
	return bs
}

// TableButtons are the table's touch targets: the spots and the chips
// (drawn by the table, so unlabelled), and the row of buttons.
func (g *Screen) TableButtons() []Button {
	play := g.TablePlayable()
	var bs []Button
	for i, s := range SpotOrder {
		bs = append(bs, Button{ID: "spot:" + s.String(), R: SpotRect(i), Enabled: play, Act: func(g *Screen) { g.placeChip(s) }})
	}
	for i := range g.Chips() {
		style := StyleNormal
		if i == g.Table.Chip {
			style = StyleSelected
		}
		bs = append(bs, Button{ID: "chip:" + Itoa(i), R: ChipRect(i), Enabled: true, Style: style, Act: func(g *Screen) { g.Table.Chip = i }})
	}
	y, h := 634.0, 76.0
	staked := g.Staked() > 0
	bs = append(bs,
		Button{ID: machine.BtnHelp, Label: g.T("btn_rules"), R: Rect{20, y, 150, h}, Enabled: true, Act: (*Screen).toggleHelp},
		Button{ID: machine.BtnLanguage, Label: g.T("btn_language"), R: Rect{180, y, 150, h}, Enabled: true,
			Act: func(g *Screen) { g.press(machine.BtnLanguage) }},
		Button{ID: "games", Label: g.T("btn_games"), R: Rect{340, y, 150, h}, Enabled: g.menuOffered(), Act: (*Screen).openMenu},
		Button{ID: machine.BtnClearBets, Label: g.T("btn_clear"), R: Rect{530, y, 150, h}, Enabled: play && staked,
			Act: func(g *Screen) { g.press(machine.BtnClearBets) }},
		Button{ID: machine.BtnCashOut, Label: g.T("btn_cash_out"), R: Rect{850, y, 160, h}, Enabled: play && g.V.Credits > 0,
			Act: func(g *Screen) { g.press(machine.BtnCashOut) }},
		Button{ID: machine.BtnDeal, Label: g.T("btn_deal"), R: Rect{1060, 624, 200, 90}, Enabled: play && staked, Style: StyleHot,
			Act: func(g *Screen) { g.press(machine.BtnDeal) }},
	)
	return bs
}

// gameButtons are the menu's or the table's buttons, when one of them is
// on screen.
func (g *Screen) gameButtons() ([]Button, bool) {
	switch {
	case g.MenuUp():
		return g.MenuButtons(), true
	case g.AtTable():
		return g.TableButtons(), true
	case g.AtPoker():
		return g.PokerButtons(), true
	}
	return nil, false
}

// withGamesButton adds the way back to the game menu to the reels' row of
// buttons when the machine offers more than one game (the help and
// language buttons narrow to make room).
func (g *Screen) withGamesButton(bs []Button) []Button {
	if len(g.V.Games) < 2 {
		return bs
	}
	for i := range bs {
		switch bs[i].ID {
		case machine.BtnHelp:
			bs[i].R = Rect{20, bs[i].R.Y, 110, bs[i].R.H}
		case machine.BtnLanguage:
			bs[i].R = Rect{140, bs[i].R.Y, 110, bs[i].R.H}
		}
	}
	return append(bs, Button{ID: "games", Label: g.T("btn_games"), R: Rect{260, 634, 110, 76}, Enabled: g.menuOffered(), Act: (*Screen).openMenu})
}

// tableKey handles the keys of the menu and the table, and the way back
// to the menu from the reels; false leaves k to the reels' keys.
func (g *Screen) tableKey(k string) bool {
	switch {
	case g.Help || g.Pad.Mode != "" || g.V.Mode == "service":
		return false
	case g.MenuUp():
		n := len(g.V.Games)
		switch k {
		case KeyLeft, KeyUp:
			g.Table.MenuSel = Mod(g.Table.MenuSel-1, n)
		case KeyRight, KeyDown:
			g.Table.MenuSel = Mod(g.Table.MenuSel+1, n)
		case KeyEnter, KeySpin:
			g.pickGame(g.V.Games[min(g.Table.MenuSel, n-1)])
		case KeyEscape:
			g.Table.Menu = false
		default:
			return false
		}
		return true
	case g.AtTable():
		if i := slices.Index(SpotKeys[:], k); i >= 0 {
			if g.TablePlayable() {
				g.placeChip(SpotOrder[i])
			}
			return true
		}
		switch k {
		case KeyChip:
			g.chipBy(1)
		case KeyUp:
			g.chipBy(1)
		case KeyDown:
			g.chipBy(-1)
		case KeySpin, KeyEnter:
			g.press(machine.BtnDeal)
		case KeyBackspace:
			g.press(machine.BtnClearBets)
		case KeyEscape:
			if g.menuOffered() {
				g.openMenu()
			}
		case "m":
			// No maximum bet at the table: the chips say the bet.
		default:
			return false
		}
		return true
	case g.AtPoker():
		return g.pokerKey(k)
	case k == KeyEscape && g.menuOffered():
		g.openMenu()
		return true
	}
	return false
}

// MenuHint is the line under the game menu's tiles.
func (g *Screen) MenuHint() string { return g.T("menu_hint") }
