package model

import (
	"slices"
	"strings"

	"github.com/openegm/cabinet/poker"

	"github.com/openegm/cabinet/cards"
	"github.com/openegm/cabinet/poker/seatmsg"
)

// The seat at a chemin de fer table (banca francesa). It is the poker
// seat's (the same transfers, lobby, session, re-buy, replay and leave)
// with the chemin table drawn in place of the poker felt: the bank and
// the stakes, the ponto's and the banker's cards with their points as far
// as the player may see them, the sabot, the dealer's announcements (rule
// 96, the server's words in both languages) and one button for each of
// the player's choices (seatmsg.CheminMsg.Choices), with the amount chosen
// between − and + where a choice takes one. Nothing here decides what is
// legal: the choices are the server's, and it checks what comes back.

// CheminUI is the screens' own state at a chemin de fer table.
type CheminUI struct {
	// To is the amount chosen for the decision's amounts, cents (each
	// choice keeps it within its own range: cheminAmount).
	To    int64
	toFor cheminKey
	// Focus is the decision the keys point at (Enter sends it).
	Focus int
	// buyTo is the buy-in chosen for each chemin table in the lobby: a
	// chemin table asks a least, not an exact cave.
	buyTo map[string]int64
}

// cheminKey tells one decision from the next, so a new one starts at its
// least amount and its leading choice.
type cheminKey struct {
	hand     uint64
	phase    string
	deadline int64
	kinds    string
}

// The layout of the chemin table's centre and decision row.
var (
	// RectCheminCentre is the free middle of the oval, inside the ring of
	// twelve seats.
	RectCheminCentre = Rect{220, 164, 480, 216}
	// RectCheminAmount is the amount chosen, between − and +.
	RectCheminAmount = Rect{92, 512, 180, 76}
)

// The cards of the two hands on the table.
const CheminCardW, CheminCardH = 56.0, 80.0

// isChemin says whether a table is a chemin de fer table.
func isChemin(game string) bool { return game == "chemin_de_fer" }

// AtChemin says whether the chemin de fer table is on screen.
func (g *Screen) AtChemin() bool {
	return g.PokerAtTable() && g.PokerState().Chemin != nil
}

// cheminState is the chemin part of the table's state (an empty one when
// none).
func (g *Screen) cheminState() seatmsg.CheminMsg {
	if s := g.PokerState(); s != nil && s.Chemin != nil {
		return *s.Chemin
	}
	return seatmsg.CheminMsg{}
}

// CheminChoices are the player's decisions now, in the server's order.
func (g *Screen) CheminChoices() []seatmsg.ChoiceMsg { return g.cheminState().Choices }

// cheminAsked says whether a decision is asked of him: the standing offer
// to associate with the banker alone is not one.
func (g *Screen) cheminAsked() bool {
	return slices.ContainsFunc(g.CheminChoices(), func(c seatmsg.ChoiceMsg) bool { return c.Kind != "associate" })
}

// leading are the choices Enter sends first, when no other is pointed at:
// what keeps the game going.
var leading = []string{"bank", "banco_suivi", "banco", "bet", "play_cards", "draw", "continue", "take", "bid"}

// declining are the choices "n" sends: the no of each decision.
var declining = []string{"no_bet", "pass_cards", "stand", "decline", "no_bid", "refuse"}

// observeChemin starts a new decision at its least amount with its
// leading choice pointed at.
func (g *Screen) observeChemin(s *seatmsg.StateMsg) {
	if s.Chemin == nil {
		return
	}
	cs := s.Chemin.Choices
	var kinds []string
	for _, c := range cs {
		kinds = append(kinds, c.Kind)
	}
	k := cheminKey{s.Hand, s.Chemin.Phase, s.Deadline, strings.Join(kinds, " ")}
	if k == g.Poker.Chemin.toFor {
		return
	}
	g.Poker.Chemin.toFor = k
	g.Poker.Chemin.To = 0
	if c, ok := amountChoice(cs, -1); ok {
		g.Poker.Chemin.To = c.Min
	}
	g.Poker.Chemin.Focus = 0
	for i := len(leading) - 1; i >= 0; i-- {
		if j := slices.IndexFunc(cs, func(c seatmsg.ChoiceMsg) bool { return c.Kind == leading[i] }); j >= 0 {
			g.Poker.Chemin.Focus = j
		}
	}
}

// takesAmount says whether a choice is sent with the amount chosen.
func takesAmount(c seatmsg.ChoiceMsg) bool { return c.Max > 0 && c.Kind != "join_bid" }

// amountChoice is the choice whose range the amount box shows: the one
// pointed at (focus) when it takes an amount, else the first that does.
func amountChoice(cs []seatmsg.ChoiceMsg, focus int) (seatmsg.ChoiceMsg, bool) {
	if focus >= 0 && focus < len(cs) && takesAmount(cs[focus]) {
		return cs[focus], true
	}
	for _, c := range cs {
		if takesAmount(c) {
			return c, true
		}
	}
	return seatmsg.ChoiceMsg{}, false
}

// onGrid is to brought within c's range, on its steps from its least.
func onGrid(c seatmsg.ChoiceMsg, to int64) int64 {
	step := max(c.Step, 1)
	to = min(max(to, c.Min), c.Max)
	return c.Min + (to-c.Min)/step*step
}

// cheminAmount is what choice c is sent with: the amount chosen within its
// range, the seat it names (join_bid), or nothing.
func (g *Screen) cheminAmount(c seatmsg.ChoiceMsg) int64 {
	switch {
	case c.Kind == "join_bid":
		return c.Min
	case !takesAmount(c):
		return 0
	}
	return onGrid(c, g.Poker.Chemin.To)
}

// CheminAmount is the amount on show in the box (false: no choice takes
// one).
func (g *Screen) CheminAmount() (int64, bool) {
	c, ok := amountChoice(g.CheminChoices(), g.Poker.Chemin.Focus)
	if !ok {
		return 0, false
	}
	return g.cheminAmount(c), true
}

// niceStep is what one touch of − or + moves an amount of range lo..hi
// by: the choice's own step times 1, 2 or 5 times a power of ten, the
// least that crosses the range in twenty touches or fewer, so every
// amount on the way is one the table takes.
func niceStep(step, lo, hi int64) int64 {
	step = max(step, 1)
	for m := int64(1); ; m *= 10 {
		for _, k := range []int64{1, 2, 5} {
			if s := step * m * k; (hi-lo)/s <= 20 {
				return s
			}
		}
	}
}

// snap moves x d steps onto the multiples of step: from 10 by steps of
// 50, up to 50, then 100; down to 0.
func snap(x, step int64, d int) int64 {
	if d > 0 {
		return (x/step + int64(d)) * step
	}
	return ((x+step-1)/step + int64(d)) * step
}

// cheminBy moves the amount chosen d steps, within the range on show.
func (g *Screen) cheminBy(d int) {
	g.activity()
	c, ok := amountChoice(g.CheminChoices(), g.Poker.Chemin.Focus)
	if !ok {
		return
	}
	g.Poker.Chemin.To = onGrid(c, c.Min+snap(g.cheminAmount(c)-c.Min, niceStep(c.Step, c.Min, c.Max), d))
}

// ChoiceLabel is a decision's words on its button.
func (g *Screen) ChoiceLabel(c seatmsg.ChoiceMsg) string {
	forced := g.cheminState().Phase == "forced"
	switch {
	case c.Kind == "join_bid":
		return g.T("chemin_do_join_bid", Itoa(c.Min))
	case forced && (c.Kind == "take" || c.Kind == "refuse"):
		return g.T("chemin_do_" + c.Kind + "_forced")
	}
	return g.T("chemin_do_" + c.Kind)
}

// cheminSend sends choice c with its amount.
func (g *Screen) cheminSend(c seatmsg.ChoiceMsg) {
	g.pokerAct(c.Kind, g.cheminAmount(c), false)
}

// cheminButtons are the decision row: − the amount +, when a choice takes
// one, then one button for each choice, the one the keys point at lit.
func (g *Screen) cheminButtons() []Button {
	cs := g.CheminChoices()
	a := RectPokerActions
	var bs []Button
	x := a.X
	if c, ok := amountChoice(cs, g.Poker.Chemin.Focus); ok {
		to := g.cheminAmount(c)
		bs = append(bs,
			Button{ID: "chemin:less", Label: "−", R: Rect{a.X, a.Y, 64, a.H}, Enabled: to > c.Min, Act: func(g *Screen) { g.cheminBy(-1) }},
			Button{ID: "chemin:more", Label: "+", R: Rect{RectCheminAmount.X + RectCheminAmount.W + 8, a.Y, 64, a.H}, Enabled: onGrid(c, c.Max) > to,
				Act: func(g *Screen) { g.cheminBy(1) }})
		x = RectCheminAmount.X + RectCheminAmount.W + 80
	}
	const gap = 8.0
	w := (a.X + a.W - x - gap*float64(len(cs)-1)) / float64(max(len(cs), 1))
	for i, c := range cs {
		style := StyleNormal
		if i == g.Poker.Chemin.Focus {
			style = StyleHot
		}
		id := "chemin:" + c.Kind
		if c.Kind == "join_bid" {
			id += ":" + Itoa(c.Min)
		}
		bs = append(bs, Button{ID: id, Label: g.ChoiceLabel(c), R: Rect{x + float64(i)*(w+gap), a.Y, w, a.H}, Enabled: true, Style: style,
			Act: func(g *Screen) { g.Poker.Chemin.Focus = i; g.cheminSend(c) }})
	}
	return bs
}

// cheminTableKey handles the keys at a chemin table with a decision to make;
// false leaves k to the seat's other keys.
func (g *Screen) cheminTableKey(k string) bool {
	cs := g.CheminChoices()
	if len(cs) == 0 {
		return false
	}
	switch k {
	case KeyLeft:
		g.Poker.Chemin.Focus = Mod(g.Poker.Chemin.Focus-1, len(cs))
	case KeyRight:
		g.Poker.Chemin.Focus = Mod(g.Poker.Chemin.Focus+1, len(cs))
	case KeyUp:
		g.cheminBy(1)
	case KeyDown:
		g.cheminBy(-1)
	case KeyEnter, KeySpin:
		g.cheminSend(cs[min(g.Poker.Chemin.Focus, len(cs)-1)])
	case "n":
		for _, no := range declining {
			if i := slices.IndexFunc(cs, func(c seatmsg.ChoiceMsg) bool { return c.Kind == no }); i >= 0 {
				g.Poker.Chemin.Focus = i
				g.cheminSend(cs[i])
				break
			}
		}
	default:
		return false
	}
	g.activity()
	return true
}

// The table.

// CheminHand is one side's cards on the table: its words (the side and,
// when the player sees the hand whole, its points) and its cards, face
// down where he may not see them yet.
type CheminHand struct {
	Label string
	Total int // -1: not seen whole
	Cards []PokerCard
}

// CheminHands are the ponto's and the banker's hands as the player sees
// them. While the hands are in play (the ponto's or the banker's choice),
// the cards he may not see are drawn face down: two for a hand whose first
// two are hidden, before its third card turned up for all.
func (g *Screen) CheminHands() (ponto, banker CheminHand) {
	c := g.cheminState()
	dealt := c.Phase == "ponto" || c.Phase == "banker"
	pc, bc := c.PontoCards, c.BankerCards
	ponto = g.cheminHand("chemin_ponto", pc, len(pc) == 1 || len(pc) == 3, c.PontoTotal, dealt, 0)
	banker = g.cheminHand("chemin_banker", bc, len(bc) == 3, c.BankerTotal, dealt, 1)
	return ponto, banker
}

func (g *Screen) cheminHand(key string, shown []cards.Card, third bool, total int, dealt bool, side int) CheminHand {
	h := CheminHand{Label: g.T(key), Total: -1}
	if total >= 0 && total <= 9 && len(shown) >= 2 {
		h.Total = total
		h.Label = g.T("chemin_total", g.T(key), g.T("chemin_points_"+Itoa(total)))
	}
	if dealt {
		want := 2
		if third {
			want = 3
		}
		for range min(2, max(want-len(shown), 0)) {
			h.Cards = append(h.Cards, PokerCard{})
		}
	}
	for _, c := range shown {
		h.Cards = append(h.Cards, PokerCard{Card: c, Up: true})
	}
	for i := range h.Cards {
		h.Cards[i].R = CheminCardRect(side, i)
	}
	return h
}

// CheminCardRect is the i-th card of a side (0 the ponto's, on the left; 1
// the banker's).
func CheminCardRect(side, i int) Rect {
	const gap = 6.0
	x0 := RectCheminCentre.X + 42
	if side == 1 {
		x0 = RectCheminCentre.X + RectCheminCentre.W/2 + 18
	}
	return Rect{x0 + float64(i)*(CheminCardW+gap), RectCheminCentre.Y + 76, CheminCardW, CheminCardH}
}

// CheminHandLabelRect is where a side's words stand, above its cards.
func CheminHandLabelRect(side int) Rect {
	r := CheminCardRect(side, 0)
	return Rect{r.X - 20, r.Y - 24, 3*CheminCardW + 12 + 40, 20}
}

// CheminMoney is the money on the table in words: the bank, the garage,
// the stakes, and a passed hand's level while it is offered or
// auctioned.
func (g *Screen) CheminMoney() string {
	c := g.cheminState()
	var parts []string
	if c.Bank > 0 {
		parts = append(parts, g.T("chemin_bank", Euro(g.Lang, c.Bank)))
	}
	if c.Garage > 0 {
		parts = append(parts, g.T("chemin_garage", Euro(g.Lang, c.Garage)))
	}
	// A sum for display only: the stakes are the server's.
	var staked int64
	for _, s := range c.Stakes {
		staked += s.Amount
	}
	if staked > 0 {
		parts = append(parts, g.T("chemin_staked", Euro(g.Lang, staked)))
	}
	if c.Level > 0 && (c.Phase == "offered" || c.Phase == "auction" || c.Phase == "forced") {
		parts = append(parts, g.T("chemin_level", Euro(g.Lang, c.Level)))
	}
	return strings.Join(parts, " · ")
}

// CheminSabot is the sabot's line: the cards left, the banker's winning
// coups with this hand, and the sabot's last coup when it is.
func (g *Screen) CheminSabot() string {
	c := g.cheminState()
	var parts []string
	if c.Shoe != "" {
		parts = append(parts, g.T("chemin_sabot", Itoa(c.CardsLeft)))
	}
	if c.Wins > 0 {
		parts = append(parts, g.T("chemin_wins", Itoa(c.Wins)))
	}
	// The partida's close (rule 107) says more than the sabot's end: the
	// last coup at the closing hour, or play on to the sabot's end.
	switch {
	case c.FinalCoup:
		parts = append(parts, g.T("chemin_final_coup"))
	case c.LastCoup:
		parts = append(parts, g.T("chemin_last_coup"))
	case c.PlaysOn:
		parts = append(parts, g.T("chemin_plays_on"))
	}
	return strings.Join(parts, " · ")
}

// CheminPhase is what the table waits for, said to the player when it is
// his decision.
func (g *Screen) CheminPhase() string {
	p := g.cheminState().Phase
	if p == "" {
		p = "idle"
	}
	if g.cheminAsked() && hasText("chemin_ph_"+p+"_you") {
		return g.T("chemin_ph_" + p + "_you")
	}
	return g.T("chemin_ph_" + p)
}

// SayText is an announcement in the screen's language: the server's own
// words in it (Portuguese when it sent no English).
func (g *Screen) SayText(s seatmsg.SayMsg) string {
	if g.Lang == "en" && s.EN != "" {
		return s.EN
	}
	return s.PT
}

// CheminSays are the dealer's announcements of the coup in play and since
// the last one, oldest first, in the screen's language.
func (g *Screen) CheminSays() []string {
	var out []string
	for _, s := range g.cheminState().Says {
		out = append(out, g.SayText(s))
	}
	return out
}

// CheminLastSay is the dealer's latest announcement ("" none yet).
func (g *Screen) CheminLastSay() string {
	says := g.CheminSays()
	if len(says) == 0 {
		return ""
	}
	return says[len(says)-1]
}

// cheminBadges are a seat's marks at a chemin table: the banker, his
// associate, the ponto who holds the cards, an auction's bidder yet to
// answer, and his stake in the coup (drawn in the seat, the middle of the
// table being the cards').
func (g *Screen) cheminBadges(sp *PokerSeatSpot, c *seatmsg.CheminMsg) {
	n := sp.Seat
	if c.Banker == n {
		sp.Badges = append(sp.Badges, g.T("chemin_badge_bank"))
	}
	if c.Associate == n {
		sp.Badges = append(sp.Badges, g.T("chemin_badge_assoc"))
	}
	inCoup := c.Phase == "banco_round" || c.Phase == "bet_round" || c.Phase == "ponto" || c.Phase == "banker" || c.Phase == "after_coup"
	if c.Ponto == n && inCoup && len(c.PontoCards)+len(c.BankerCards) > 0 {
		sp.Badges = append(sp.Badges, g.T("chemin_badge_ponto"))
	}
	if slices.Contains(c.Bidders, n) {
		sp.Badges = append(sp.Badges, g.T("chemin_badge_bid"))
	}
	for _, st := range c.Stakes {
		if st.Seat == n && st.Amount > 0 {
			sp.Badges = append(sp.Badges, Euro(g.Lang, st.Amount))
		}
	}
}

// The lobby's buy-in at a chemin table: from the least the table asks
// (its minimum stake) up to what the credit may take, chosen by − and +;
// ten times the least at first, what the minimum bank asks at the
// shipped tables.

// CheminBuyBounds are a chemin table's buy-in's least and greatest.
func (g *Screen) CheminBuyBounds(t seatmsg.TableInfo) (lo, hi int64) {
	return t.RequiredCave, max(g.toTable(), t.RequiredCave)
}

// CheminBuyAmount is the buy-in chosen for table t.
func (g *Screen) CheminBuyAmount(t seatmsg.TableInfo) int64 {
	lo, hi := g.CheminBuyBounds(t)
	to, ok := g.Poker.Chemin.buyTo[t.ID]
	if !ok {
		to = 10 * lo
	}
	return buyGrid(lo, min(max(to, lo), hi))
}

// buyGrid keeps a buy-in on whole minimum stakes from the least.
func buyGrid(lo, to int64) int64 {
	if lo <= 0 {
		return to
	}
	return to / lo * lo
}

// cheminBuyBy moves table t's buy-in d steps.
func (g *Screen) cheminBuyBy(t seatmsg.TableInfo, d int) {
	g.activity()
	lo, hi := g.CheminBuyBounds(t)
	to := snap(g.CheminBuyAmount(t), niceStep(lo, lo, hi), d)
	if g.Poker.Chemin.buyTo == nil {
		g.Poker.Chemin.buyTo = map[string]int64{}
	}
	g.Poker.Chemin.buyTo[t.ID] = buyGrid(lo, min(max(to, lo), hi))
}

// cheminTileButtons are a chemin tile's − and + beside its buy-in.
func (g *Screen) cheminTileButtons(tile PokerTile) []Button {
	r := BuyInRect(tile.R)
	info := tile.Info
	lo, hi := g.CheminBuyBounds(info)
	to := g.CheminBuyAmount(info)
	on := g.buyInOffered(info)
	return []Button{
		{ID: "chemin:buy_less:" + info.ID, Label: "−", R: Rect{r.X, r.Y, 64, r.H}, Enabled: on && to > lo,
			Act: func(g *Screen) { g.cheminBuyBy(info, -1) }},
		{ID: "chemin:buy_more:" + info.ID, Label: "+", R: Rect{r.X + r.W - 64, r.Y, 64, r.H}, Enabled: on && to < buyGrid(lo, hi),
			Act: func(g *Screen) { g.cheminBuyBy(info, 1) }},
	}
}

// cheminBuyInRect is a chemin tile's buy-in button, between its − and +.
func cheminBuyInRect(tile Rect) Rect {
	r := BuyInRect(tile)
	return Rect{r.X + 72, r.Y, r.W - 144, r.H}
}

// HandNoText is the top bar's number of the hand (a coup at chemin de
// fer).
func (g *Screen) HandNoText() string {
	s := g.PokerState()
	if s == nil || s.Hand == 0 {
		return ""
	}
	if s.Chemin != nil {
		return g.T("chemin_coup_no", Credits(g.Lang, int64(s.Hand)))
	}
	return g.T("poker_hand_no", Credits(g.Lang, int64(s.Hand)))
}

// SimKeys is the simulator's legend of the seat's keys on show.
func (g *Screen) SimKeys() string {
	switch ts := g.PokerSeat().Tables; {
	case g.AtChemin():
		return g.T("sim_chemin_keys")
	case g.PokerAtTable():
		return g.T("sim_poker_keys")
	case g.Poker.LobbySel < len(ts) && isChemin(ts[g.Poker.LobbySel].Game):
		return g.T("sim_lobby_chemin_keys")
	}
	return g.T("sim_lobby_keys")
}

// tableGame is a table's game by its ID, from the lobby's list ("" when
// the list lacks it).
func (g *Screen) tableGame(id string) string {
	for _, t := range g.PokerSeat().Tables {
		if t.ID == id {
			return t.Game
		}
	}
	return ""
}

// The replay of his last coups: the server's frames (seatmsg.CheminFrame)
// drawn with the live table's hands and words.

// cheminFrame puts a coup's frame on the replay's scene: the hands as he
// saw them, the bank and stakes in place of the pot, the stakes on the
// seats.
func (g *Screen) cheminFrame(sc *ReplayScene, c *seatmsg.CheminFrame) {
	hand := func(key string, cs []cards.Card, side int) CheminHand {
		h := CheminHand{Label: g.T(key), Total: -1}
		for i, cd := range cs {
			h.Cards = append(h.Cards, PokerCard{Card: cd, Up: true, R: CheminCardRect(side, i)})
		}
		return h
	}
	sc.Chemin = &CheminScene{Ponto: hand("chemin_ponto", c.PontoCards, 0), Banker: hand("chemin_banker", c.BankerCards, 1)}
	parts := []string{g.T("chemin_bank", Euro(g.Lang, c.Bank))}
	var staked int64
	for _, st := range c.Stakes {
		staked += st.Amount
		if st.Seat >= 1 && st.Seat <= len(sc.Seats) {
			sp := &sc.Seats[st.Seat-1]
			sp.Bet, sp.BetText = 0, ""
			sp.Badges = append(sp.Badges, Euro(g.Lang, st.Amount))
		}
	}
	if staked > 0 {
		parts = append(parts, g.T("chemin_staked", Euro(g.Lang, staked)))
	}
	sc.Pot = strings.Join(parts, " · ")
	sc.Own = nil
	for i := range sc.Seats {
		sc.Seats[i].Cards, sc.Seats[i].Dealer = nil, false
	}
}

// cheminRecordLine is a record of a coup in words: an announcement in
// the dealer's own words, the others as the seat's page says them.
func (g *Screen) cheminRecordLine(r poker.Record, f *seatmsg.CheminFrame, names map[int]string, me int) PokerLine {
	who := names[r.Seat]
	if who == "" {
		who = r.Player
	}
	eur := func(c int64) string { return Euro(g.Lang, c) }
	line := PokerLine{Kind: r.Kind}
	switch r.Kind {
	case "announce":
		if f.Say != nil {
			line.Text = g.SayText(*f.Say)
		}
	case poker.KindHandStart:
		line.Text = g.T("chemin_rp_start", Itoa(r.Hand))
	case "shoe":
		line.Text = g.T("chemin_rp_shoe")
	case "burn":
		line.Text, line.Cards = g.T("chemin_rp_burn", cardsText(r.Cards)), r.Cards
	case "shoe_end":
		line.Text = g.T("chemin_rp_end")
	case "bank":
		line.Text = g.T("chemin_rp_bank", who, eur(r.Amount))
	case "associate":
		line.Text = g.T("chemin_rp_assoc", who, eur(r.Amount))
	case "bet":
		line.Text = g.T("chemin_rp_stake", who, g.T("chemin_do_"+r.Action), eur(r.Amount))
	case "garage":
		line.Text = g.T("chemin_rp_garage", who, eur(r.Amount))
	case "release":
		line.Text = g.T("chemin_rp_release", who, eur(r.Amount))
	case poker.KindDeal:
		line.Text = g.T("chemin_rp_deal", who)
	case poker.KindBoard:
		line.Text, line.Cards = g.T("chemin_rp_third", who, cardsText(r.Cards)), r.Cards
	case poker.KindAct:
		label := r.Action
		if hasText("chemin_do_" + r.Action) {
			label = g.ChoiceLabel(seatmsg.ChoiceMsg{Kind: r.Action, Min: r.To})
		}
		line.Text = g.T("chemin_rp_act", who, label)
		if r.Timeout {
			line.Text += " (" + g.T("poker_rp_timeout") + ")"
		}
	case poker.KindShow:
		total := r.Value
		if len(total) == 1 && total[0] >= '0' && total[0] <= '9' {
			total = g.T("chemin_points_" + total)
		}
		line.Text, line.Cards = g.T("chemin_rp_show", who, cardsText(r.Cards), total), r.Cards
	case poker.KindAward:
		var paid []string
		for _, sh := range r.Shares {
			paid = append(paid, g.T("poker_wins", names[sh.Seat], eur(sh.Amount)))
			line.Won = line.Won || sh.Seat == me
		}
		line.Text = g.T("chemin_rp_ponto_wins", strings.Join(paid, ", "))
		if r.Action == "banker" {
			line.Text = g.T("chemin_rp_bank_wins", strings.Join(paid, ", "), eur(r.Rake))
		}
	case poker.KindReturn:
		line.Text = g.T("poker_rp_return", who, eur(r.Amount))
	case poker.KindVoid:
		line.Text = g.T("poker_void")
	case poker.KindHandEnd:
		line.Text = g.T("chemin_rp_coup_end", Itoa(r.Hand))
	default:
		line.Text = string(r.Kind)
	}
	return line
}

// coupWord is a poker text's key, or its chemin de fer twin's at a chemin
// table (a coup where poker has a hand).
func (g *Screen) coupWord(key string) string {
	if g.AtChemin() {
		return "chemin_" + strings.TrimPrefix(key, "poker_")
	}
	return key
}
