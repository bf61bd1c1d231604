package model

import (
	"math"
	"slices"
	"strings"
	"time"

	"github.com/openegm/cabinet/cards"
	"github.com/openegm/cabinet/machine"
	"github.com/openegm/cabinet/poker"
	"github.com/openegm/cabinet/poker/seatmsg"
)

// The poker seat. The cabinet seats its player at a table of the casino's
// table server (machine.PokerSeatView): the server deals, times and pays,
// the machine moves the credits to the table and back. These screens show
// the lobby and the table as the seat last saw it and turn touches and keys
// into machine.PokerBuyIn, PokerAct and PokerLeave. Nothing here decides
// what is legal: the buttons follow the options the server gave, and what
// they send is checked again by the machine and the server.

// PokerUI is the screens' own state of the poker seat.
type PokerUI struct {
	LobbySel int   // the table the keyboard points at in the lobby
	RaiseTo  int64 // the bet or raise chosen, cents (RaiseAmount keeps it in bounds)
	raiseFor decisionKey
	// The table server's clock as last seen (its now_ms) and the tick it
	// was seen at: the decision timer counts down from it by ticks, so it
	// moves between the server's messages and never reads the wall clock.
	nowMS   int64
	nowTick int
	// note is a refusal the screen makes itself (a cave above the credit),
	// shown from noteTick for noteTicks.
	note     string
	noteArgs []int64
	noteTick int
	// noteTable: the note is the table's (a re-buy's), not the lobby's.
	noteTable bool

	Replay replayUI // the replay of the last hands (pokerreplay.go)
	// rebuy: the re-buy's amount is being chosen; RebuyTo is it, cents
	// (RebuyAmount keeps it in bounds).
	rebuy   bool
	RebuyTo int64
	// endedClosed is the ended session whose summary the player closed.
	endedClosed string

	Chemin CheminUI // at a chemin de fer table (chemin.go)
}

// decisionKey tells one decision from the next, so a new decision starts
// its bet at the minimum rather than at the last one's choice.
type decisionKey struct {
	hand         uint64
	seat         int
	minTo, maxTo int64
}

// noteTicks is how long the screen's own refusal stays up (5 s).
const noteTicks = 5 * 60

// PokerLobbyPerPage is how many tables the lobby shows at once.
const PokerLobbyPerPage = 3

// The seat's statuses (machine.PokerSeatView.Status).
const (
	SeatNone       = ""
	SeatBuyingIn   = "buying_in"
	SeatSeated     = "seated"
	SeatCashingOut = "cashing_out"
	SeatRefused    = "refused"
)

// AtPoker says whether the poker seat is on screen: the machine is at the
// poker entry of its menu and nothing covers it.
func (g *Screen) AtPoker() bool {
	return g.V.GameKind == machine.GamePoker && !g.MenuUp() && g.V.Mode != "service"
}

// PokerSeat is the seat's view (an empty one when the machine gives none).
func (g *Screen) PokerSeat() machine.PokerSeatView {
	if g.V.Poker == nil {
		return machine.PokerSeatView{}
	}
	return *g.V.Poker
}

// PokerState is the table as the seat last saw it (nil: none yet).
func (g *Screen) PokerState() *seatmsg.StateMsg {
	if g.V.Poker == nil {
		return nil
	}
	return g.V.Poker.State
}

// PokerAtTable says whether the table is on screen rather than the lobby:
// the player is seated (or leaving) and the seat has seen the table.
func (g *Screen) PokerAtTable() bool {
	p := g.PokerSeat()
	return (p.Status == SeatSeated || p.Status == SeatCashingOut) && p.State != nil
}

// observePoker follows the seat: the server's clock, and a new decision's
// bet starting at its minimum.
func (g *Screen) observePoker(v machine.View) {
	if v.Poker == nil || v.Poker.State == nil {
		g.Poker.rebuy = false
		g.observeReplay()
		return
	}
	s := v.Poker.State
	if s.NowMS != g.Poker.nowMS {
		g.Poker.nowMS, g.Poker.nowTick = s.NowMS, g.Tick
	}
	g.observeChemin(s)
	if o := s.Options; o != nil {
		k := decisionKey{s.Hand, s.ToAct, o.MinTo, o.MaxTo}
		if k != g.Poker.raiseFor {
			g.Poker.raiseFor, g.Poker.RaiseTo = k, o.MinTo
		}
	}
	if n := len(v.Poker.Tables); g.Poker.LobbySel >= n {
		g.Poker.LobbySel = max(n-1, 0)
	}
	if g.Poker.rebuy && (g.YourTurn() || !g.rebuyOffered()) {
		g.Poker.rebuy = false // a decision, or the seat leaving, comes first
	}
	g.observeReplay()
}

// PokerNowMS is the table server's time now as the screen reckons it: its
// last now_ms plus the ticks since (60 a second).
func (g *Screen) PokerNowMS() int64 {
	return g.Poker.nowMS + int64(g.Tick-g.Poker.nowTick)*1000/60
}

// PokerTimer is the decision timer on screen: the seat deciding (this
// seat for an offer), the time it has left and the table's decision time,
// in milliseconds; false when nobody is deciding.
func (g *Screen) PokerTimer() (seat int, left, total int64, ok bool) {
	s := g.PokerState()
	if s == nil {
		return 0, 0, 0, false
	}
	var deadline int64
	switch {
	case s.Offer != nil && s.Offer.Deadline > 0 && s.You != nil:
		seat, deadline = s.You.Seat, s.Offer.Deadline
	case s.ToAct > 0 && s.Deadline > 0:
		seat, deadline = s.ToAct, s.Deadline
	case s.Chemin != nil && s.Deadline > 0 && s.You != nil && slices.Contains(s.Chemin.Bidders, s.You.Seat):
		// An auction asks every bidder at once (ToAct 0): his own timer.
		seat, deadline = s.You.Seat, s.Deadline
	default:
		return 0, 0, 0, false
	}
	total = int64(s.Table.DecisionSeconds) * 1000
	return seat, max(deadline-g.PokerNowMS(), 0), total, true
}

// TimerSeconds is a time left in whole seconds, rounded up: "1 s" until it
// is over.
func TimerSeconds(ms int64) int64 { return (ms + 999) / 1000 }

// YourTurn says whether this seat has a decision to make now.
func (g *Screen) YourTurn() bool {
	s := g.PokerState()
	return s != nil && (s.Options != nil || s.Offer != nil || g.cheminAsked())
}

// Raise bounds: the bet the player chooses goes by RaiseStep between the
// options' MinTo and MaxTo.

// RaiseAmount is the bet or raise the player has chosen, within the
// options' bounds (0 when he may not bet).
func (g *Screen) RaiseAmount() int64 {
	s := g.PokerState()
	if s == nil || s.Options == nil || !s.Options.Raise {
		return 0
	}
	o := s.Options
	return min(max(g.Poker.RaiseTo, o.MinTo), o.MaxTo)
}

// RaiseStep is what one touch of + or − changes the bet by: the smallest
// raise the options allow now (the minimum bet when opening), so every
// step is a bet the table takes.
func (g *Screen) RaiseStep() int64 {
	s := g.PokerState()
	if s == nil || s.Options == nil {
		return 0
	}
	level := int64(0)
	for _, sv := range s.Seats {
		level = max(level, sv.Bet)
	}
	if step := s.Options.MinTo - level; step > 0 {
		return step
	}
	return max(s.Options.MinTo, 1)
}

// raiseBy moves the chosen bet d steps, stopping at the bounds.
func (g *Screen) raiseBy(d int) {
	g.activity()
	s := g.PokerState()
	if s == nil || s.Options == nil || !s.Options.Raise {
		return
	}
	o := s.Options
	to := g.RaiseAmount()
	step := g.RaiseStep()
	if d > 0 {
		to = min(to+step, o.MaxTo)
	} else {
		to = max(to-step, o.MinTo)
	}
	g.Poker.RaiseTo = to
}

// Sending: each action goes to the machine, which passes it to the seat.

func (g *Screen) pokerAct(kind string, to int64, on bool) {
	g.activity()
	g.Poker.note = ""
	g.C.Service(machine.PokerAct{At: time.Now(), Kind: kind, To: to, On: on})
}

func (g *Screen) pokerLeave() {
	g.activity()
	g.Poker.note = ""
	g.C.Service(machine.PokerLeave{At: time.Now()})
}

// toTable is the credit a buy-in may take: restricted PROMO credits never go
// to a table (the machine refuses them too).
func (g *Screen) toTable() int64 { return max(0, g.V.CreditsCents-g.V.RestrictedCents) }

// pokerBuyIn asks to sit at a table with the cave it asks now. A credit
// below the cave is refused here, with the figures, so the player is told
// at once what is missing (the machine refuses it too).
func (g *Screen) pokerBuyIn(t seatmsg.TableInfo) {
	g.activity()
	cents := t.RequiredCave
	if isChemin(t.Game) {
		cents = g.CheminBuyAmount(t)
	}
	if have := g.toTable(); have < t.RequiredCave {
		key := "poker_short_credit"
		if g.V.RestrictedCents > 0 {
			key = "poker_short_credit_promo"
		}
		g.Poker.note, g.Poker.noteArgs, g.Poker.noteTick, g.Poker.noteTable = key, []int64{t.RequiredCave, have}, g.Tick, false
		return
	}
	g.Poker.note = ""
	g.C.Service(machine.PokerBuyIn{At: time.Now(), Table: t.ID, Cents: cents})
}

// PokerNote is the screen's own refusal while it is up (""
// none): a buy-in's in the lobby, a re-buy's at the table.
func (g *Screen) PokerNote() string {
	if g.Poker.note == "" || g.Tick-g.Poker.noteTick > noteTicks || g.PokerAtTable() != g.Poker.noteTable {
		return ""
	}
	return MessageText(g.Lang, g.Poker.note, g.Poker.noteArgs)
}

// The lobby.

// PokerTile is a table in the lobby.
type PokerTile struct {
	Info    seatmsg.TableInfo
	R       Rect
	Title   string
	Game    string
	Players string // "Jogadores 3/10 · Em jogo"
	Card    []string
	// CaveLabel and Cave: the cave asked now, or a chemin table's least
	// buy-in.
	CaveLabel string
	Cave      string
	Note      string // why a buy-in is not possible now ("" none)
	Short     bool   // the credit is below the cave
	Selected  bool
}

// LobbyPage is the page of the lobby the selected table is on.
func (g *Screen) LobbyPage() int { return g.Poker.LobbySel / PokerLobbyPerPage }

// LobbyPages is how many pages the lobby has (at least one).
func (g *Screen) LobbyPages() int {
	return max((len(g.PokerSeat().Tables)+PokerLobbyPerPage-1)/PokerLobbyPerPage, 1)
}

// Layout of the poker screens, in design units.
var (
	RectLobby        = Rect{20, 66, 1240, 510}
	RectPokerFelt    = Rect{20, 66, 880, 438}
	RectPokerOval    = Rect{80, 112, 760, 346}
	RectPokerSide    = Rect{916, 66, 344, 438}
	RectPokerActions = Rect{20, 512, 1240, 76}
	RectPokerMsg     = Rect{20, 592, 1240, 36}
	// RectRaiseAmount is the chosen bet, between the − and + buttons.
	RectRaiseAmount = Rect{474, 512, 170, 76}
	// RectOfferText is the question of an offer, left of its buttons.
	RectOfferText = Rect{20, 512, 650, 76}
	// RectCredit is the credit meter in the lobby's row of buttons.
	RectCredit = Rect{570, 634, 270, 76}
)

// Seat and card sizes at the table.
const (
	PokerSeatW, PokerSeatH = 176.0, 76.0
	SeatCardW, SeatCardH   = 32.0, 46.0
	BoardCardW, BoardCardH = 62.0, 86.0
	OwnCardW, OwnCardH     = 54.0, 76.0
	// OwnCardsY is where the player's cards stand in the side panel,
	// under his session's lines.
	OwnCardsY = 190.0
)

// lobbyTileRect is the k-th of n tiles on a lobby page, centred.
func lobbyTileRect(k, n int) Rect {
	const w, gap = 400.0, 20.0
	total := float64(n)*w + float64(n-1)*gap
	x0 := (DesignW - total) / 2
	return Rect{x0 + float64(k)*(w+gap), RectLobby.Y + 4, w, RectLobby.H - 8}
}

// BuyInRect is the buy-in button of a lobby tile.
func BuyInRect(tile Rect) Rect { return Rect{tile.X + 20, tile.Y + tile.H - 84, tile.W - 40, 72} }

// tableOpen says whether a table takes players now.
func tableOpen(status string) bool {
	return status == "waiting" || status == "playing" || status == "between"
}

// seatBusy says whether the seat is at a table or moving money: no other
// buy-in until it is done.
func seatBusy(status string) bool {
	return status == SeatBuyingIn || status == SeatSeated || status == SeatCashingOut
}

// PokerTiles are the tables of the lobby's page on show.
func (g *Screen) PokerTiles() []PokerTile {
	ts := g.PokerSeat().Tables
	first := g.LobbyPage() * PokerLobbyPerPage
	if first >= len(ts) {
		return nil
	}
	page := ts[first:min(first+PokerLobbyPerPage, len(ts))]
	var out []PokerTile
	for k, t := range page {
		tile := PokerTile{Info: t, R: lobbyTileRect(k, len(page)), Title: g.names(t.Title.PT, t.Title.EN),
			Game: g.T("poker_game_" + t.Game), Card: t.Card[g.Lang], Selected: first+k == g.Poker.LobbySel}
		if len(tile.Card) == 0 {
			tile.Card = t.Card["pt"]
		}
		tile.Players = g.T("poker_players", Itoa(t.Players), Itoa(t.Seats)) + " · " + g.T("poker_status_"+t.Status)
		tile.Cave, tile.CaveLabel = Euro(g.Lang, t.RequiredCave), g.T("poker_cave_now")
		if isChemin(t.Game) {
			tile.CaveLabel = g.T("chemin_cave_least")
		}
		switch {
		case !tableOpen(t.Status):
			tile.Note = g.T("poker_table_closed")
		case t.Players >= t.Seats:
			tile.Note = g.T("poker_table_full")
		case g.toTable() < t.RequiredCave:
			tile.Short = true
			tile.Note = g.T("poker_need_credit", tile.Cave)
		}
		out = append(out, tile)
	}
	return out
}

// names picks a title in the screen's language.
func (g *Screen) names(pt, en string) string {
	if g.Lang == "en" && en != "" {
		return en
	}
	return pt
}

// buyInOffered says whether a table's buy-in button takes a touch: the
// machine idle and the seat free, the table open with a seat and a cave. A
// credit below the cave does not grey it: the touch says what is missing.
func (g *Screen) buyInOffered(t seatmsg.TableInfo) bool {
	return g.V.Mode == "idle" && !g.V.GameOpen && !seatBusy(g.PokerSeat().Status) &&
		tableOpen(t.Status) && t.Players < t.Seats && t.RequiredCave > 0
}

// The table.

// PokerCard is a card on the table: face up (Card) or its back.
type PokerCard struct {
	Card cards.Card
	Up   bool
	R    Rect
}

// PokerSeatSpot is a seat around the table.
type PokerSeatSpot struct {
	Seat    int
	Empty   bool
	Player  string
	Stack   string
	Bet     int64
	BetText string
	You     bool
	ToAct   bool
	Dealer  bool
	Folded  bool
	Badges  []string
	Cards   []PokerCard
	R       Rect
	// BetX, BetY: where his bet stands, between him and the centre.
	BetX, BetY float64
}

// PokerSeatRect is seat i's box (0 the first seat, at the bottom) of n
// around the oval, kept inside the felt.
func PokerSeatRect(i, n int) Rect {
	x, y := pokerSeatCentre(i, n)
	r := Rect{x - PokerSeatW/2, y - PokerSeatH/2, PokerSeatW, PokerSeatH}
	r.X = min(max(r.X, RectPokerFelt.X), RectPokerFelt.X+RectPokerFelt.W-r.W)
	r.Y = min(max(r.Y, RectPokerFelt.Y), RectPokerFelt.Y+RectPokerFelt.H-r.H)
	return r
}

func pokerCentre() (float64, float64) { return RectPokerOval.Center() }

// pokerSeatCentre is where seat i of n sits on the ellipse around the
// oval, the first at the bottom and the next ones clockwise as players see
// them (to the left of the first).
func pokerSeatCentre(i, n int) (float64, float64) {
	cx, cy := pokerCentre()
	a := math.Pi/2 + 2*math.Pi*float64(i)/float64(max(n, 1))
	return cx + 390*math.Cos(a), cy + 190*math.Sin(a)
}

// PokerSeats are the table's seats, empty ones too, in seat order.
func (g *Screen) PokerSeats() []PokerSeatSpot {
	s := g.PokerState()
	if s == nil {
		return nil
	}
	n := max(s.Table.Seats, len(s.Seats))
	for _, sv := range s.Seats {
		n = max(n, sv.Seat)
	}
	me := 0
	if s.You != nil {
		me = s.You.Seat
	}
	out := emptySeats(n)
	for _, sv := range s.Seats {
		if sv.Seat < 1 || sv.Seat > n {
			continue
		}
		sp := &out[sv.Seat-1]
		if c := s.Chemin; c != nil {
			// The stakes and the banker are marks in the seat: the middle
			// of the table is the two hands'.
			g.fillSeat(sp, sv.Player, sv.Stack, 0)
			sp.You, sp.ToAct = sv.Seat == me, sv.Seat == s.ToAct || (s.ToAct == 0 && slices.Contains(c.Bidders, sv.Seat))
			g.cheminBadges(sp, c)
			if sv.Resting {
				sp.Badges = append(sp.Badges, g.T("poker_resting"))
			}
			continue
		}
		g.fillSeat(sp, sv.Player, sv.Stack, sv.Bet)
		sp.You, sp.ToAct, sp.Folded = sv.Seat == me, sv.Seat == s.ToAct, sv.Folded
		sp.Dealer = s.Hand > 0 && s.Dealer == sv.Seat
		if sv.Resting {
			sp.Badges = append(sp.Badges, g.T("poker_resting"))
		}
		if sv.AllIn {
			sp.Badges = append(sp.Badges, g.T("poker_all_in_badge"))
		}
		if sv.Folded {
			sp.Badges = append(sp.Badges, g.T("poker_folded"))
		}
		// His own and shown cards face up; the others' in the hand face
		// down, as many as a hand is dealt.
		sp.placeCards(seatCards(sv.Cards, sv.InHand && !sv.Folded))
	}
	return out
}

// emptySeats are n seats around the table, all empty, each in its place.
func emptySeats(n int) []PokerSeatSpot {
	cx, cy := pokerCentre()
	out := make([]PokerSeatSpot, n)
	for i := range n {
		r := PokerSeatRect(i, n)
		x, y := pokerSeatCentre(i, n)
		out[i] = PokerSeatSpot{Seat: i + 1, Empty: true, R: r, BetX: cx + (x-cx)*0.6, BetY: cy + (y-cy)*0.6}
	}
	return out
}

// fillSeat puts a player with his stack and bet in a seat.
func (g *Screen) fillSeat(sp *PokerSeatSpot, player string, stack, bet int64) {
	sp.Empty, sp.Player, sp.Stack, sp.Bet = false, player, Euro(g.Lang, stack), bet
	if bet > 0 {
		sp.BetText = Euro(g.Lang, bet)
	}
}

// seatCards are a seat's cards: those he may see face up, else two backs
// when he holds cards nobody was shown (held), else none.
func seatCards(shown []cards.Card, held bool) []PokerCard {
	var cs []PokerCard
	for _, c := range shown {
		cs = append(cs, PokerCard{Card: c, Up: true})
	}
	if len(cs) == 0 && held {
		cs = []PokerCard{{}, {}}
	}
	return cs
}

// placeCards lays a seat's cards along the right of its box.
func (sp *PokerSeatSpot) placeCards(cs []PokerCard) {
	for k := range cs {
		cs[k].R = Rect{sp.R.X + sp.R.W - 6 - float64(len(cs)-k)*(SeatCardW+4), sp.R.Y + (sp.R.H-SeatCardH)/2, SeatCardW, SeatCardH}
	}
	sp.Cards = cs
}

// DealerMark is the letter of the dealer's disc: the button (hold'em) or
// the hand (synthetic poker).
func (g *Screen) DealerMark() string {
	if s := g.PokerState(); s != nil && s.Table.Game == "holdem" {
		return g.T("poker_dealer_holdem")
	}
	return g.T("poker_dealer_synthetic")
}

// BoardSlot is the i-th community card's place, centred on the oval.
func BoardSlot(i int) Rect {
	const n, gap = 5, 8.0
	cx, cy := pokerCentre()
	x0 := cx - (n*BoardCardW+(n-1)*gap)/2
	return Rect{x0 + float64(i)*(BoardCardW+gap), cy - BoardCardH/2 - 16, BoardCardW, BoardCardH}
}

// PokerBoard are the community cards turned.
func (g *Screen) PokerBoard() []PokerCard {
	s := g.PokerState()
	if s == nil {
		return nil
	}
	var out []PokerCard
	for i, c := range s.Board {
		out = append(out, PokerCard{Card: c, Up: true, R: BoardSlot(i)})
	}
	return out
}

// OwnCards are this seat's hole cards, large in the side panel (none
// before they are dealt to him).
func (g *Screen) OwnCards() []PokerCard {
	s := g.PokerState()
	if s == nil || s.You == nil {
		return nil
	}
	var out []PokerCard
	for _, sv := range s.Seats {
		if sv.Seat != s.You.Seat {
			continue
		}
		for k, c := range sv.Cards {
			out = append(out, PokerCard{Card: c, Up: true, R: ownCardRect(k)})
		}
	}
	return out
}

// ownCardRect is the k-th of the player's cards in the side panel.
func ownCardRect(k int) Rect {
	return Rect{RectPokerSide.X + 20 + float64(k)*(OwnCardW+10), RectPokerSide.Y + OwnCardsY, OwnCardW, OwnCardH}
}

// PotsText is the pots line under the board: one pot while nobody is all
// in (the round's levels are not pots a player could lose his share of),
// the main pot and the side pots once someone is.
func (g *Screen) PotsText() string {
	s := g.PokerState()
	if s == nil || len(s.Pots) == 0 {
		return ""
	}
	allIn := slices.ContainsFunc(s.Seats, func(sv seatmsg.SeatMsg) bool { return sv.AllIn && sv.InHand })
	if !allIn {
		// A sum for display only: the pots are the server's, paid by it.
		var total int64
		for _, p := range s.Pots {
			total += p
		}
		return g.T("poker_pot", Euro(g.Lang, total))
	}
	parts := []string{g.T("poker_pot", Euro(g.Lang, s.Pots[0]))}
	for k, p := range s.Pots[1:] {
		parts = append(parts, g.T("poker_side_pot", Itoa(k+1), Euro(g.Lang, p)))
	}
	return strings.Join(parts, " · ")
}

// PokerLine is a line of the last hand's result.
type PokerLine struct {
	Kind  poker.Kind // show, award, carry, void; "" for the heading
	Text  string
	Cards []cards.Card
	Won   bool // an award to this seat
}

// PokerLastHand is the last hand's result from its records: the heading,
// the cards shown with their value, each pot paid with its commission, a
// pot carried (pó) or a hand voided.
func (g *Screen) PokerLastHand() []PokerLine {
	s := g.PokerState()
	if s == nil || len(s.Last) == 0 {
		return nil
	}
	names := map[int]string{}
	for _, sv := range s.Seats {
		names[sv.Seat] = sv.Player
	}
	for _, r := range s.Last {
		if r.Player != "" && r.Seat > 0 {
			names[r.Seat] = r.Player
		}
		for _, st := range r.Stacks {
			names[st.Seat] = st.Player
		}
	}
	me := 0
	if s.You != nil {
		me = s.You.Seat
	}
	out := []PokerLine{{Text: g.T("poker_last_hand", Itoa(s.Last[0].Hand))}}
	for _, r := range s.Last {
		switch r.Kind {
		case poker.KindShow:
			out = append(out, PokerLine{Kind: r.Kind, Text: g.T("poker_shows", names[r.Seat], HandValueText(g.Lang, r.Value)), Cards: r.Cards})
		case poker.KindAward:
			out = append(out, g.awardLine(r, names, me))
		case poker.KindCarry:
			out = append(out, PokerLine{Kind: r.Kind, Text: g.T("poker_carry", Euro(g.Lang, r.Amount))})
		case poker.KindVoid:
			out = append(out, PokerLine{Kind: r.Kind, Text: g.T("poker_void")})
		}
	}
	return out
}

// awardLine is a pot paid: each winner's share, the pot and its
// commission; Won when a share is the seat me's.
func (g *Screen) awardLine(r poker.Record, names map[int]string, me int) PokerLine {
	var who []string
	won := false
	for _, sh := range r.Shares {
		who = append(who, g.T("poker_wins", names[sh.Seat], Euro(g.Lang, sh.Amount)))
		won = won || sh.Seat == me
	}
	pot := g.T("poker_award_pot", Euro(g.Lang, r.Amount))
	if r.Pot > 0 {
		pot = g.T("poker_award_side_pot", Itoa(r.Pot), Euro(g.Lang, r.Amount))
	}
	text := strings.Join(who, ", ") + " (" + pot + ", " + g.T("poker_rake", Euro(g.Lang, r.Rake)) + ")"
	return PokerLine{Kind: r.Kind, Text: text, Won: won}
}

// HandValueText is a shown hand's value in the language. The server
// writes it in Portuguese with the cards' codes ("fullen: KC KD KH 9C
// 9D"); the screen gives the category in the language and the cards as
// they are printed ("full house: K♣ K♦ K♥ 9♣ 9♦"). A value it cannot read
// is shown as it came.
func HandValueText(lang, v string) string {
	name, list, ok := strings.Cut(v, ": ")
	if !ok {
		return v
	}
	cat, found := cards.Category(0), false
	for c := cards.HighCard; c <= cards.RoyalFlush; c++ {
		if c.Name("pt") == name {
			cat, found = c, true
		}
	}
	if !found {
		return v
	}
	var cs []string
	for _, f := range strings.Fields(list) {
		c, err := cards.Parse(f)
		if err != nil {
			return v
		}
		rank, suit, _ := CardText(c)
		cs = append(cs, rank+suit)
	}
	return cat.Name(lang) + ": " + strings.Join(cs, " ")
}

// PokerStatus is the message line of the poker screens: the screen's own
// refusal, a ticket printing, the machine's message, the seat's transfer
// in progress or refused, else what to do. warn says it is a refusal.
func (g *Screen) PokerStatus() (text string, warn bool) {
	v, p := g.V, g.PokerSeat()
	table := g.tableTitle(p.Table)
	switch {
	case g.PokerNote() != "":
		return g.PokerNote(), true
	case g.ReplayUp():
		return g.replayStatus()
	case v.Printing != "":
		return g.PrintingText(), false
	case v.Message.Key == "msg_poker_buyin_refused" && p.Refused != "" && len(v.Message.Args) > 0:
		// At the table it was a re-buy; either way the server's reason.
		key := "poker_buyin_refused_why"
		if g.PokerAtTable() {
			key = "poker_rebuy_refused_why"
		}
		return g.T(key, Euro(g.Lang, v.Message.Args[0]), RefusalText(g.Lang, p.Refused)), true
	case v.Message.Key != "":
		return g.Said(), strings.HasPrefix(v.Message.Key, "refused_")
	case Lockout(v.Mode):
		t, _ := g.LockoutLines()
		return t, true
	case p.Status == SeatRefused:
		return g.T("poker_refused", RefusalText(g.Lang, p.Refused)), true
	case p.Status == SeatBuyingIn:
		return g.T("poker_buying_in", table, Euro(g.Lang, p.AtTable)), false
	case p.Status == SeatCashingOut:
		return g.T("poker_cashing_out", table), false
	case p.Status == SeatSeated && p.State == nil:
		return g.T("poker_connecting", table), false
	case g.EndedUp():
		return g.T("poker_ended_hint"), false
	case g.RebuyUp():
		return g.RebuyText(), false
	case !g.PokerAtTable():
		if len(p.Tables) == 0 {
			return g.T("poker_no_tables"), false
		}
		if i := g.Poker.LobbySel; i < len(p.Tables) && isChemin(p.Tables[i].Game) && g.buyInOffered(p.Tables[i]) && g.toTable() >= p.Tables[i].RequiredCave {
			lo, hi := g.CheminBuyBounds(p.Tables[i])
			return g.T("chemin_buy_in_bounds", Euro(g.Lang, lo), Euro(g.Lang, buyGrid(lo, hi))), false
		}
		return g.T("poker_lobby_hint"), false
	}
	return g.turnText(), false
}

// tableTitle is a table's title by its ID, from the lobby's list (the ID
// itself when the list lacks it).
func (g *Screen) tableTitle(id string) string {
	if s := g.PokerState(); s != nil && s.Table.ID == id {
		return g.names(s.Table.Title.PT, s.Table.Title.EN)
	}
	for _, t := range g.PokerSeat().Tables {
		if t.ID == id {
			return g.names(t.Title.PT, t.Title.EN)
		}
	}
	return id
}

// turnText says whose turn it is and for how long, or that the table
// waits.
func (g *Screen) turnText() string {
	s := g.PokerState()
	if seat, left, _, ok := g.PokerTimer(); ok {
		secs := Itoa(TimerSeconds(left))
		if g.YourTurn() {
			return g.T("poker_your_turn", secs)
		}
		for _, sv := range s.Seats {
			if sv.Seat == seat {
				return g.T("poker_turn_of", sv.Player, secs)
			}
		}
	}
	if s.You != nil && s.You.CashOut != "" {
		return g.T("poker_leaving")
	}
	return g.T("poker_status_" + s.Table.Status)
}

// PokerTitle is the top bar's title: the table's, or the lobby's.
func (g *Screen) PokerTitle() string {
	if g.PokerAtTable() {
		t := g.PokerState().Table
		if g.ReplayUp() {
			return g.T("poker_replay_title", g.names(t.Title.PT, t.Title.EN))
		}
		return g.names(t.Title.PT, t.Title.EN)
	}
	if slices.ContainsFunc(g.PokerSeat().Tables, func(t seatmsg.TableInfo) bool { return isChemin(t.Game) }) {
		return g.T("chemin_lobby_title")
	}
	return g.T("poker_lobby_title")
}

// OfferText is the question of an offer ("Comprar as cartas por 2,00 €?").
func (g *Screen) OfferText() string {
	s := g.PokerState()
	if s == nil || s.Offer == nil {
		return ""
	}
	return g.T("poker_offer_question", g.T("poker_kind_"+s.Offer.Accept), Euro(g.Lang, s.Offer.Amount))
}

// Buttons.

// PokerButtons are the poker screen's touch targets: the lobby's or the
// table's, and the row at the bottom.
func (g *Screen) PokerButtons() []Button {
	switch {
	case g.ReplayUp():
		return g.replayButtons()
	case g.PokerAtTable():
		return g.pokerTableButtons()
	case g.EndedUp():
		return g.endedButtons()
	}
	return g.lobbyButtons()
}

func (g *Screen) lobbyButtons() []Button {
	var bs []Button
	for _, tile := range g.PokerTiles() {
		info := tile.Info
		style := StyleHot
		if tile.Selected {
			style = StyleSelected
		}
		r, cave := BuyInRect(tile.R), tile.Cave
		if isChemin(info.Game) {
			r, cave = cheminBuyInRect(tile.R), Euro(g.Lang, g.CheminBuyAmount(info))
			bs = append(bs, g.cheminTileButtons(tile)...)
		}
		bs = append(bs, Button{ID: "poker:buyin:" + info.ID, Label: g.T("poker_buy_in", cave), R: r,
			Enabled: g.buyInOffered(info), Style: style, Act: func(g *Screen) { g.pokerBuyIn(info) }})
	}
	y, h := 634.0, 76.0
	page, pages := g.LobbyPage(), g.LobbyPages()
	bs = append(bs,
		Button{ID: machine.BtnLanguage, Label: g.T("btn_language"), R: Rect{20, y, 150, h}, Enabled: true,
			Act: func(g *Screen) { g.press(machine.BtnLanguage) }},
		Button{ID: "games", Label: g.T("btn_games"), R: Rect{180, y, 150, h}, Enabled: g.menuOffered(), Act: (*Screen).openMenu},
	)
	if pages > 1 {
		bs = append(bs,
			Button{ID: "lobby_prev", Label: "◄", R: Rect{340, y, 100, h}, Enabled: page > 0,
				Act: func(g *Screen) { g.Poker.LobbySel = (page - 1) * PokerLobbyPerPage }},
			Button{ID: "lobby_next", Label: "►", R: Rect{450, y, 100, h}, Enabled: page < pages-1,
				Act: func(g *Screen) { g.Poker.LobbySel = (page + 1) * PokerLobbyPerPage }},
		)
	}
	return append(bs, Button{ID: machine.BtnCashOut, Label: g.T("btn_cash_out"), R: Rect{850, y, 160, h},
		Enabled: g.V.Mode == "idle" && g.V.Credits > 0 && !seatBusy(g.PokerSeat().Status),
		Act:     func(g *Screen) { g.press(machine.BtnCashOut) }})
}

func (g *Screen) pokerTableButtons() []Button {
	s := g.PokerState()
	a := RectPokerActions
	var bs []Button
	switch {
	case s.Chemin != nil && len(s.Chemin.Choices) > 0 && !g.RebuyUp():
		bs = append(bs, g.cheminButtons()...)
	case s.Offer != nil:
		f := *s.Offer
		bs = append(bs,
			Button{ID: "poker:accept", Label: g.T("poker_kind_" + f.Accept), R: Rect{680, a.Y, 280, a.H}, Enabled: true, Style: StyleHot,
				Act: func(g *Screen) { g.pokerAct(f.Accept, 0, false) }},
			Button{ID: "poker:decline", Label: g.T("poker_kind_" + f.Decline), R: Rect{976, a.Y, 284, a.H}, Enabled: true,
				Act: func(g *Screen) { g.pokerAct(f.Decline, 0, false) }},
		)
	case s.Options != nil:
		o := *s.Options
		bs = append(bs, Button{ID: "poker:fold", Label: g.T("poker_fold"), R: Rect{20, a.Y, 150, a.H}, Enabled: true,
			Act: func(g *Screen) { g.pokerAct("fold", 0, false) }})
		if o.Check {
			bs = append(bs, Button{ID: "poker:check", Label: g.T("poker_check"), R: Rect{178, a.Y, 210, a.H}, Enabled: true,
				Act: func(g *Screen) { g.pokerAct("check", 0, false) }})
		} else {
			bs = append(bs, Button{ID: "poker:call", Label: g.T("poker_call", Euro(g.Lang, o.Call)), R: Rect{178, a.Y, 210, a.H}, Enabled: true,
				Act: func(g *Screen) { g.pokerAct("call", 0, false) }})
		}
		if o.Raise {
			to := g.RaiseAmount()
			label := g.T("poker_raise_to", Euro(g.Lang, to))
			if o.Opening {
				label = g.T("poker_bet", Euro(g.Lang, to))
			}
			bs = append(bs,
				Button{ID: "poker:raise_down", Label: "−", R: Rect{396, a.Y, 70, a.H}, Enabled: to > o.MinTo,
					Act: func(g *Screen) { g.raiseBy(-1) }},
				Button{ID: "poker:raise_up", Label: "+", R: Rect{652, a.Y, 70, a.H}, Enabled: to < o.MaxTo,
					Act: func(g *Screen) { g.raiseBy(1) }},
				Button{ID: "poker:raise", Label: label, R: Rect{730, a.Y, 230, a.H}, Enabled: true, Style: StyleHot,
					Act: func(g *Screen) { g.pokerAct("raise", g.RaiseAmount(), false) }},
				Button{ID: "poker:all_in", Label: g.T("poker_all_in"), R: Rect{968, a.Y, 140, a.H}, Enabled: true,
					Act: func(g *Screen) { g.pokerAct("all_in", 0, false) }},
			)
		}
		if o.Extra {
			bs = append(bs, Button{ID: "poker:extra", Label: g.T("poker_extra"), R: Rect{1116, a.Y, 144, a.H}, Enabled: true,
				Act: func(g *Screen) { g.pokerAct("extra", 0, false) }})
		}
	case g.RebuyUp():
		bs = append(bs, g.rebuyButtons()...)
	default:
		// No decision to make: the replay of his last hands and the
		// re-buy.
		bs = append(bs,
			Button{ID: "poker:replay", Label: g.T(g.coupWord("poker_replay")), R: Rect{20, a.Y, 240, a.H}, Enabled: s.You != nil,
				Act: (*Screen).openReplay},
			Button{ID: "poker:rebuy", Label: g.T("poker_rebuy"), R: Rect{270, a.Y, 240, a.H}, Enabled: g.rebuyOffered(),
				Act: (*Screen).openRebuy},
		)
	}
	y, h := 634.0, 76.0
	bs = append(bs,
		Button{ID: machine.BtnLanguage, Label: g.T("btn_language"), R: Rect{20, y, 150, h}, Enabled: true,
			Act: func(g *Screen) { g.press(machine.BtnLanguage) }},
		Button{ID: "games", Label: g.T("btn_games"), R: Rect{180, y, 150, h}, Enabled: g.menuOffered(), Act: (*Screen).openMenu},
	)
	if s.You != nil {
		resting := slices.ContainsFunc(s.Seats, func(sv seatmsg.SeatMsg) bool { return sv.Seat == s.You.Seat && sv.Resting })
		label := g.T("poker_rest")
		if resting {
			label = g.T("poker_back")
		}
		bs = append(bs, Button{ID: "poker:rest", Label: label, R: Rect{800, y, 220, h}, Enabled: true,
			Act: func(g *Screen) { g.pokerAct("rest", 0, !resting) }})
	}
	leaving := g.PokerSeat().Status == SeatCashingOut || (s.You != nil && s.You.CashOut != "")
	label := g.T("poker_leave")
	if leaving {
		label = g.T("poker_leaving")
	}
	return append(bs, Button{ID: "poker:leave", Label: label, R: Rect{1030, y, 230, h}, Enabled: !leaving, Act: (*Screen).pokerLeave})
}

// pokerKey handles the keys of the poker screens; false leaves k to the
// common keys (language, cash out, the simulator's).
func (g *Screen) pokerKey(k string) bool {
	switch {
	case g.ReplayUp():
		if k != "l" && k != "c" {
			g.replayKey(k)
			return true
		}
	case g.EndedUp():
		switch k {
		case KeyEscape, KeyEnter, KeySpin:
			g.closeEnded()
			return true
		}
	case g.RebuyUp():
		switch k {
		case KeyUp:
			g.rebuyBy(1)
		case KeyDown:
			g.rebuyBy(-1)
		case KeyEnter, KeySpin:
			g.sendRebuy()
		case KeyEscape:
			g.Poker.rebuy = false
		default:
			return false
		}
		return true
	}
	switch k {
	case KeyHelp, KeyF1, "m":
		return true // no paytable and no bet levels at the poker table
	case KeyEscape:
		if g.menuOffered() {
			g.openMenu()
		}
		return true
	}
	if !g.PokerAtTable() {
		n := len(g.PokerSeat().Tables)
		if ts := g.PokerSeat().Tables; (k == KeyUp || k == KeyDown) && g.Poker.LobbySel < n && isChemin(ts[g.Poker.LobbySel].Game) {
			// A chemin table's buy-in is chosen, not fixed.
			if t := ts[g.Poker.LobbySel]; g.buyInOffered(t) {
				g.cheminBuyBy(t, map[string]int{KeyUp: 1, KeyDown: -1}[k])
			}
			return true
		}
		switch k {
		case KeyLeft, KeyUp:
			if n > 0 {
				g.Poker.LobbySel = Mod(g.Poker.LobbySel-1, n)
			}
		case KeyRight, KeyDown:
			if n > 0 {
				g.Poker.LobbySel = Mod(g.Poker.LobbySel+1, n)
			}
		case KeyEnter, KeySpin:
			if ts := g.PokerSeat().Tables; g.Poker.LobbySel < len(ts) && g.buyInOffered(ts[g.Poker.LobbySel]) {
				g.pokerBuyIn(ts[g.Poker.LobbySel])
			}
		default:
			return false
		}
		return true
	}
	if g.AtChemin() && g.cheminTableKey(k) {
		return true
	}
	// At the table a key does what the button of the same name does, when
	// that button is on screen and lit.
	id := map[string]string{"f": "poker:fold", "e": "poker:raise", "t": "poker:all_in", "y": "poker:accept", "n": "poker:decline",
		KeyUp: "poker:raise_up", KeyDown: "poker:raise_down", "p": "poker:replay", "u": "poker:rebuy"}[k]
	if k == KeySpin || k == KeyEnter {
		id = "poker:check"
		if s := g.PokerState(); s.Options != nil && !s.Options.Check {
			id = "poker:call"
		}
	}
	if id == "" {
		return false
	}
	for _, b := range g.pokerTableButtons() {
		if b.ID == id && b.Enabled {
			b.Act(g)
		}
	}
	return true
}
