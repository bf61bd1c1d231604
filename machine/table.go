package machine

import (
	"fmt"
	"time"

	"github.com/openegm/cabinet/baccarat"
	"github.com/openegm/cabinet/cards"
	"github.com/openegm/cabinet/meters"
)

// The cabinet's second game: Makccarat, dealt from the certified table
// definition the operator enabled (Config.Table). The machine is the
// shuffler and the dealer. A hand follows the reel game's cycle: the player
// places chips on the spots (not money yet: nothing leaves the credit meter
// until the hand is committed), the deal draws every card of the hand and
// commits them with the stakes and what the hand pays in one GameStart
// (DESIGN rule 1), the cards are turned one by one on screen, and the
// GameEnd puts what the hand paid back on the credit meter (or a handpay at
// the limit). A power loss during the turn resumes the same hand: the cards
// are turned again from the first, never redrawn (rule 2).

// Player buttons of the table game.
const (
	BtnDeal      = "deal"
	BtnClearBets = "clear_bets"
)

// SelectGame is the player's choice in the game menu: meters.GameReels or
// meters.GameMakccarat.
type SelectGame struct {
	At   time.Time
	Game string
}

func (e SelectGame) at() time.Time { return e.At }

// PlaceBet puts a chip of Cents on a spot of the table (baccarat.Spot's
// order: player, banker, tie, player pair, banker pair).
type PlaceBet struct {
	At    time.Time
	Spot  int
	Cents int64
}

func (e PlaceBet) at() time.Time { return e.At }

// DefaultCardTime is how long each card takes to turn when the operator
// set no time.
const DefaultCardTime = 700 * time.Millisecond

func (m *Machine) cardTime() time.Duration {
	if m.cfg.CardTime > 0 {
		return m.cfg.CardTime
	}
	return DefaultCardTime
}

// offers says whether game is on the game menu.
func (m *Machine) offers(game string) bool {
	switch game {
	case meters.GameReels:
		return m.pt != nil
	case meters.GameMakccarat:
		return m.cfg.Table != nil
	case GamePoker:
		return m.cfg.PokerTables
	}
	return false
}

func (m *Machine) selectGame(e SelectGame, eff *Effects) {
	switch {
	case m.phase != idle || m.st.Open != nil:
		eff.Refused = "refused_game_in_progress"
	case m.session != nil:
		eff.Refused = "refused_service"
	case m.st.Poker.Busy() != "" && e.Game != GamePoker:
		eff.Refused = "refused_poker_seated"
	case !m.offers(e.Game):
		eff.Refused = "refused_game_not_offered"
	default:
		m.game = e.Game
		m.message = Message{}
		return
	}
	m.say(eff.Refused)
}

// placeBet adds a chip to a spot. The spot's and the hand's maximum and the
// credit are checked now, so the player sees at once what cannot be bet;
// the minimums are checked at the deal (chips add up to them).
func (m *Machine) placeBet(e PlaceBet, eff *Effects) {
	refuse := func(key string, args ...int64) {
		eff.Refused = key
		m.say(key, args...)
	}
	if m.game != meters.GameMakccarat {
		refuse("refused_game_not_offered")
		return
	}
	if why := m.canPlay(); why != "" {
		refuse(why)
		return
	}
	t := m.cfg.Table
	if e.Spot < 0 || e.Spot >= int(baccarat.NumSpots) || e.Cents <= 0 || e.Cents%t.BetUnit != 0 {
		refuse("refused_bet_unit", t.BetUnit)
		return
	}
	bets := m.bets
	bets[e.Spot] += e.Cents
	if max := t.Limits.Spots[e.Spot].Max; bets[e.Spot] > max {
		refuse("refused_spot_limit", max)
		return
	}
	if max := t.Limits.Hand.Max; bets.Total() > max {
		refuse("refused_hand_limit", max)
		return
	}
	if bets.Total() > m.playCredits() {
		refuse("refused_insufficient_credit")
		return
	}
	if bets[baccarat.SpotPlayer] > 0 && bets[baccarat.SpotBanker] > 0 && m.promoOnMeter() {
		// A bet takes the promotional credits first and every win is
		// cashable: player and banker in one hand would turn promotional
		// credits into cash at almost no risk (one side wins, a tie gives
		// both back), which is what promotional credits are not for.
		refuse("refused_promo_hedge")
		return
	}
	m.bets = bets
	m.message = Message{}
}

// deal is the hand's start: check the stakes, draw the cards from a
// freshly shuffled shoe, play the hand, and emit one record with all of
// it; the first card is turned only after the owner committed it.
func (m *Machine) deal(eff *Effects) {
	t := m.cfg.Table
	if m.bets.Total() == 0 {
		eff.Refused = "refused_no_bet"
		m.say(eff.Refused)
		return
	}
	if err := t.CheckBets(m.bets); err != nil {
		eff.Refused = "refused_table_limits"
		m.message = Message{Key: eff.Refused, Detail: err.Error(), At: m.ns()}
		return
	}
	bet := m.bets.Total()
	if m.playCredits() < bet {
		eff.Refused = "refused_insufficient_credit"
		m.say(eff.Refused)
		return
	}
	if m.shoe == nil {
		shoe, err := t.NewShoe()
		if err != nil {
			m.fault = "internal: " + err.Error()
			return
		}
		m.shoe = shoe
	}
	dealt, chosen := m.testCards()
	var err error
	if !chosen {
		if dealt, err = t.Alternative.Deal(m.shoe, m.src); err != nil {
			m.fault = "internal: " + err.Error()
			return
		}
	}
	hand, err := t.Play(dealt, m.bets)
	if err != nil {
		m.fault = "internal: " + err.Error()
		return
	}
	if m.inTest() {
		m.testHand(eff, dealt, hand, chosen)
		return
	}
	gs := meters.GameStart{
		At: m.ns(), Game: m.st.LastGame + 1, Kind: meters.GameMakccarat, Paytable: t.ID, Digest: t.Digest, Denom: 1,
		BetCredits: bet, BetCents: bet, WinCents: hand.Paid,
		Hand: &meters.TableHand{Bets: m.bets, Cards: dealt, Commission: hand.Commission},
	}
	if !m.record(eff, gs) {
		return
	}
	m.turnCards(len(dealt))
	m.message = Message{}
}

// turnCards starts turning a committed hand's n cards on screen.
func (m *Machine) turnCards(n int) {
	m.phase, m.dealtAt = spinning, m.now
	m.stage, m.pres = stageSpin, Presentation{} // a hand has no steps to present: its time is the cards'
	m.until = m.now.Add(time.Duration(n) * m.cardTime())
}

// tableFor is the certified definition a recorded hand was dealt on.
func (m *Machine) tableFor(gs meters.GameStart) (*baccarat.Certified, string) {
	t := m.cfg.Table
	if t == nil || t.ID != gs.Paytable {
		if m.cfg.LoadTable == nil {
			return nil, "table definition " + gs.Paytable + " not available"
		}
		var err error
		if t, err = m.cfg.LoadTable(gs.Paytable); err != nil {
			return nil, err.Error()
		}
	}
	if t.Digest != gs.Digest {
		return nil, fmt.Sprintf("table definition %s has changed since game %d (digest %s, recorded %s)", gs.Paytable, gs.Game, t.Digest, gs.Digest)
	}
	return t, ""
}

// TableView is the Makccarat table on screen.
type TableView struct {
	ID          string      `json:"id"`
	Title       [2]string   `json:"title"` // pt, en
	Decks       int         `json:"decks"`
	Alternative int         `json:"alternative"`
	Commission  string      `json:"commission"`
	BetUnit     int64       `json:"bet_unit_cents"`
	Spots       []TableSpot `json:"spots"`
	HandMin     int64       `json:"hand_min_cents"`
	HandMax     int64       `json:"hand_max_cents"`
	// Bets are the chips on the spots for the next hand (not yet taken
	// from the credits).
	Bets [baccarat.NumSpots]int64 `json:"bets"`
	// Hand is the hand on screen: the one being turned (only the cards
	// turned so far, and no result until the last) or the last one played.
	Hand *HandView `json:"hand,omitempty"`
	// Roads are the table's last hands, oldest first, for the bead plate
	// and the big road.
	Roads []RoadHand `json:"roads,omitempty"`
}

// TableSpot is one bet spot as the table and its rules page show it.
type TableSpot struct {
	Name   string `json:"name"`
	Odds   int64  `json:"odds"` // prize per unit staked
	Min    int64  `json:"min_cents"`
	Max    int64  `json:"max_cents"`
	RTP    string `json:"rtp"`     // exact, as a fraction
	RTPPct string `json:"rtp_pct"` // six decimals, truncated
}

// HandView is a hand on screen or in recall.
type HandView struct {
	Game   uint64       `json:"game"`
	Cards  []cards.Card `json:"cards"` // as dealt, those turned so far
	Sides  []string     `json:"sides"` // "player" or "banker", per card
	Turned int          `json:"turned"`
	Done   bool         `json:"done"` // every card turned: the result below is shown
	// The result, when Done.
	PlayerPoints int                       `json:"player_points"`
	BankerPoints int                       `json:"banker_points"`
	Winner       string                    `json:"winner,omitempty"`
	PlayerPair   bool                      `json:"player_pair,omitempty"`
	BankerPair   bool                      `json:"banker_pair,omitempty"`
	Spots        [baccarat.NumSpots]Payout `json:"spots"`
	StakedCents  int64                     `json:"staked_cents"`
	PaidCents    int64                     `json:"paid_cents"`
	Commission   int64                     `json:"commission_cents"`
}

// Payout is one spot's settlement in a HandView.
type Payout struct {
	Stake      int64  `json:"stake_cents"`
	Result     string `json:"result"` // no bet, lost, returned, won
	Commission int64  `json:"commission_cents,omitempty"`
	Paid       int64  `json:"paid_cents"`
}

// RoadHand is one hand of the roads.
type RoadHand struct {
	Winner     string `json:"winner"` // player, banker, tie
	Points     int    `json:"points"`
	PlayerPair bool   `json:"player_pair,omitempty"`
	BankerPair bool   `json:"banker_pair,omitempty"`
}

// RoadHands is how many hands the roads show.
const RoadHands = 60

func winnerName(w baccarat.Winner) string {
	switch w {
	case baccarat.PlayerWins:
		return "player"
	case baccarat.BankerWins:
		return "banker"
	}
	return "tie"
}

// handView re-evaluates a recorded hand from its cards with the definition
// it was dealt on: the cards turned so far, and the result once the hand
// has ended.
func handView(t *baccarat.Certified, gs meters.GameStart, turned int, ended bool) (*HandView, error) {
	h := gs.Hand
	hand, err := t.Play(h.Cards, baccarat.Bets(h.Bets))
	if err != nil {
		return nil, err
	}
	turned = min(turned, len(h.Cards))
	hv := &HandView{Game: gs.Game, Cards: append([]cards.Card(nil), h.Cards[:turned]...), Turned: turned, Done: ended}
	var pc, bc []cards.Card
	for i, c := range h.Cards[:turned] {
		side := "banker"
		if i < len(hand.Cards) && isPlayerCard(hand.Outcome, i) {
			side = "player"
			pc = append(pc, c)
		} else {
			bc = append(bc, c)
		}
		hv.Sides = append(hv.Sides, side)
	}
	hv.PlayerPoints, hv.BankerPoints = points(pc), points(bc)
	if !hv.Done {
		return hv, nil
	}
	hv.Winner = winnerName(hand.Winner)
	hv.PlayerPair, hv.BankerPair = hand.PlayerPair, hand.BankerPair
	for s, p := range hand.Spots {
		hv.Spots[s] = Payout{Stake: p.Stake, Result: p.Result.String(), Commission: p.Commission, Paid: p.Paid}
	}
	hv.StakedCents, hv.PaidCents, hv.Commission = hand.Staked, hand.Paid, hand.Settlement.Commission
	return hv, nil
}

// isPlayerCard says whether card i of an evaluated hand went to the player:
// the first four alternate from the player; a third card is the player's
// when the player's hand has three cards and it is the first drawn.
func isPlayerCard(o baccarat.Outcome, i int) bool {
	switch {
	case i < 4:
		return i%2 == 0
	case i == 4:
		return len(o.Player) == 3
	}
	return false // a sixth card is always the banker's
}

func points(cs []cards.Card) int {
	total := 0
	for _, c := range cs {
		total += baccarat.Points(c.Rank)
	}
	return total % 10
}

// tableView is the table on screen.
func (m *Machine) tableView() *TableView {
	t := m.cfg.Table
	if t == nil {
		return nil
	}
	tv := &TableView{ID: t.ID, Title: [2]string{t.Title.PT, t.Title.EN}, Decks: t.Decks, Alternative: int(t.Alternative),
		Commission: t.Commission.String(), BetUnit: t.BetUnit, HandMin: t.Limits.Hand.Min, HandMax: t.Limits.Hand.Max, Bets: m.bets}
	for s := range baccarat.NumSpots {
		f := t.Figures.Bets[s]
		tv.Spots = append(tv.Spots, TableSpot{Name: s.String(), Odds: t.Alternative.Odds(s), Min: t.Limits.Spots[s].Min, Max: t.Limits.Spots[s].Max,
			RTP: f.RTP.RatString(), RTPPct: f.RTP.Percent(6)})
	}
	if m.inTest() {
		tv.Hand = m.testHandView()
	} else if g := m.st.Open; g != nil && g.Start.Hand != nil {
		turned := len(g.Start.Hand.Cards)
		if m.phase == spinning {
			turned = min(turned, 1+int(m.now.Sub(m.dealtAt)/m.cardTime()))
		}
		tv.Hand, _ = handViewFor(m, g.Start, turned, false)
	} else if n := len(m.st.Games); n > 0 && m.st.Games[n-1].Start.Hand != nil {
		tv.Hand, _ = handViewFor(m, m.st.Games[n-1].Start, len(m.st.Games[n-1].Start.Hand.Cards), true)
	}
	for _, g := range m.st.Games {
		if g.Start.Hand == nil || g.Start.Paytable != t.ID {
			continue
		}
		o, err := t.Alternative.Evaluate(g.Start.Hand.Cards)
		if err != nil {
			continue
		}
		tv.Roads = append(tv.Roads, RoadHand{Winner: winnerName(o.Winner), Points: o.Points, PlayerPair: o.PlayerPair, BankerPair: o.BankerPair})
	}
	if n := len(tv.Roads); n > RoadHands {
		tv.Roads = tv.Roads[n-RoadHands:]
	}
	return tv
}

func handViewFor(m *Machine, gs meters.GameStart, turned int, ended bool) (*HandView, error) {
	t, problem := m.tableFor(gs)
	if t == nil {
		return nil, fmt.Errorf("%s", problem)
	}
	return handView(t, gs, turned, ended)
}
