package machine

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/openegm/cabinet/baccarat"
	"github.com/openegm/cabinet/cards"
	"github.com/openegm/cabinet/meters"
	"github.com/openegm/cabinet/reels"
)

// Test mode: a technician plays both games with test credits to show the
// cabinet works. It is entered and left from the service menu (technician
// only, recorded with who and when), only with no credits, no game and no
// handpay, so no player's money is involved. Entering ends the service
// session (the screen goes back to the game, with TESTE/TEST on it); the
// technician logs in again to leave. While in test mode:
//   - games are paid from and to the test credits (meters.State.Test),
//     each one a meters.TestGame record, committed before it is shown;
//   - the bill validator is off and a note offered goes back; cash-out is
//     refused; settings and RAM clear are refused;
//   - the fold refuses every money record, so no meter of meters.Defs, no
//     SAS meter and no term of the credit equation can move;
//   - jackpots are not played: a test game feeds no pool and its
//     progressive combinations are shown but not paid.
//
// Leaving puts back what the player's screen had (game, bet level, chips
// on the table, the last real game on screen) and discards the test
// credits. Test mode does not survive a power loss: the power-up records
// the exit (Why: TestExitPowerUp) before anything else, and the machine
// starts as after any restart.

// TestCredits are the test credits given on entering test mode (cents).
const TestCredits = 100_00

// Service actions of test mode (technician only).
const (
	SvcTestEnter = "test_enter"
	SvcTestLeave = "test_leave"
)

// Why test mode was left, as recorded.
const (
	TestExitTechnician = "technician"
	TestExitPowerUp    = "power-up found the machine in test mode (power loss): test credits discarded"
)

// maxTestFree bounds a test game's free spins: the certified paytables
// award a few dozen at most; more is a defect, not a game.
const maxTestFree = 10_000

// TestOutcome chooses the next test game's outcome (lab builds only,
// Config.Lab): for the reel game, the stops of the base spin, then of each
// free spin ("3,0,12,7,5;1,1,1,1,1"; free spins beyond those given are
// drawn); for Makccarat, the cards in the order dealt ("9H 2C KD 3S"), a
// hand the rules deal. An empty Value drops the choice.
type TestOutcome struct {
	At    time.Time
	Value string
}

func (e TestOutcome) at() time.Time { return e.At }

// TestView is test mode on screen: the screen says TESTE/TEST on every
// frame while it is set.
type TestView struct {
	CreditsCents int64  `json:"credits_cents"`
	Who          string `json:"who"`
	Since        int64  `json:"since"`
	Played       int64  `json:"played"`
	BetCents     int64  `json:"bet_cents"`
	WonCents     int64  `json:"won_cents"`
	// Lab: this build may choose outcomes; Chosen is the outcome chosen
	// for the next test game ("" none).
	Lab    bool   `json:"lab,omitempty"`
	Chosen string `json:"chosen,omitempty"`
}

// testMode is what test mode set aside, to restore on leaving, and the
// test game being shown.
type testMode struct {
	game    string
	level   int
	bets    baccarat.Bets
	shown   *reels.Spin
	dealtAt time.Time
	message Message

	chosen    *chosenOutcome
	freeShown int // free spins of the last test game shown so far
}

type chosenOutcome struct {
	game  string
	spins [][]int // reels: base, then free spins
	cards []cards.Card
	text  string
}

func init() {
	allowed[RoleTechnician] = append(allowed[RoleTechnician], SvcTestEnter, SvcTestLeave)
}

func (m *Machine) inTest() bool { return m.st.Test.Active }

// playCredits are the credits the player bets from: the test credits in
// test mode.
func (m *Machine) playCredits() int64 {
	if m.inTest() {
		return m.st.Test.Credits
	}
	return m.st.Get(meters.Credits)
}

// testAction enters or leaves test mode for the logged-in technician.
func (m *Machine) testAction(e ServiceAction, s *session, eff *Effects) {
	refuse := func(key string) {
		eff.Refused = key
		m.sayService(key)
	}
	if e.Action == SvcTestLeave {
		switch {
		case !m.inTest():
			refuse("refused_not_test_mode")
		case m.phase != idle:
			refuse("refused_game_in_progress")
		default:
			m.leaveTest(eff, s.who, s.role, TestExitTechnician)
			m.sayService("msg_test_left")
		}
		return
	}
	if m.inTest() {
		refuse("refused_test_mode")
		return
	}
	if why := m.idleForService(); why != "" {
		refuse(why)
		return
	}
	switch {
	case m.phase != idle:
		refuse("refused_game_in_progress")
		return
	case m.st.PendingTicket != nil:
		refuse("refused_printing")
		return
	case len(m.st.PendingHits) > 0:
		refuse("refused_jackpot_pending")
		return
	case m.st.PendingBill != nil:
		refuse("refused_bill_pending")
		return
	}
	if !m.record(eff, meters.TestMode{At: m.ns(), Who: s.who, Role: s.role, Enter: true, Credits: TestCredits}) {
		return
	}
	m.test = &testMode{game: m.game, level: m.level, bets: m.bets, shown: m.shown, dealtAt: m.dealtAt, message: m.message}
	m.bets, m.shown = baccarat.Bets{}, nil
	// The menu closes so the games can be played; leaving needs a login.
	m.record(eff, meters.Service{At: m.ns(), Who: s.who, Role: s.role, Action: SvcLogout, Detail: "test mode"})
	m.session, m.svcMessage = nil, Message{}
	// The key is still on, but its turn is used up: the test game is on
	// screen, not the PIN pad; a new turn of the key offers the login.
	m.loginPad = false
	m.say("msg_test_entered", TestCredits)
}

// leaveTest records the exit and puts the player's screen back.
func (m *Machine) leaveTest(eff *Effects, who, role, why string) {
	if !m.record(eff, meters.TestMode{At: m.ns(), Who: who, Role: role, Why: why}) {
		return
	}
	if t := m.test; t != nil {
		m.game, m.level, m.bets, m.shown, m.dealtAt, m.message = t.game, t.level, t.bets, t.shown, t.dealtAt, t.message
	}
	m.test, m.phase = nil, idle
}

// leaveTestAtPowerUp: test mode does not survive a power loss.
func (m *Machine) leaveTestAtPowerUp(eff *Effects) {
	if m.inTest() {
		m.leaveTest(eff, "power-up", "", TestExitPowerUp)
	}
}

// testSpin plays a reel game on the test credits: the base spin and every
// free spin it awards, drawn (or chosen, in a lab build) and committed in
// one record before the first is shown.
func (m *Machine) testSpin(eff *Effects) {
	bet := m.pt.Bet(m.level) * m.cfg.Denom
	if m.st.Test.Credits < bet {
		eff.Refused = "refused_insufficient_credit"
		m.say(eff.Refused)
		return
	}
	chosen := m.takeChosen(meters.GameReels)
	next := func(i int, free bool) []int {
		if chosen != nil && i < len(chosen.spins) {
			return chosen.spins[i]
		}
		return m.pt.DrawStops(m.src, free, nil)
	}
	base, err := m.pt.Evaluate(next(0, false), m.level, false)
	if err != nil {
		m.fault = "internal: " + err.Error()
		return
	}
	win := base.Win
	var free [][]int
	for left := base.FreeAwarded; left > 0; left-- {
		if len(free) == maxTestFree {
			m.fault = fmt.Sprintf("internal: test game awards more than %d free spins", maxTestFree)
			return
		}
		sp, err := m.pt.Evaluate(next(len(free)+1, true), m.level, true)
		if err != nil {
			m.fault = "internal: " + err.Error()
			return
		}
		free = append(free, sp.Stops)
		win += sp.Win
		left += sp.FreeAwarded
	}
	tg := meters.TestGame{At: m.ns(), Game: m.st.Test.LastGame + 1, Kind: meters.GameReels, Paytable: m.pt.ID, Digest: m.pt.Digest,
		Denom: m.cfg.Denom, Level: m.level, BetCents: bet, Stops: base.Stops, Free: free, WinCents: win * m.cfg.Denom, Chosen: chosen != nil}
	if !m.record(eff, tg) {
		return
	}
	m.shown, m.test.freeShown = base, 0
	m.phase, m.until = spinning, m.now.Add(m.cfg.SpinTime)
	m.message = Message{}
}

// testHand records a Makccarat hand dealt in test mode and starts turning
// its cards.
func (m *Machine) testHand(eff *Effects, dealt []cards.Card, hand baccarat.Hand, chosen bool) {
	t := m.cfg.Table
	bet := m.bets.Total()
	tg := meters.TestGame{At: m.ns(), Game: m.st.Test.LastGame + 1, Kind: meters.GameMakccarat, Paytable: t.ID, Digest: t.Digest, Denom: 1,
		BetCents: bet, WinCents: hand.Paid, Hand: &meters.TableHand{Bets: m.bets, Cards: dealt, Commission: hand.Commission}, Chosen: chosen}
	if !m.record(eff, tg) {
		return
	}
	m.turnCards(len(dealt))
	m.message = Message{}
}

// testCards are the cards of the next test hand when the lab chose them.
func (m *Machine) testCards() ([]cards.Card, bool) {
	if !m.inTest() {
		return nil, false
	}
	if c := m.takeChosen(meters.GameMakccarat); c != nil {
		return c.cards, true
	}
	return nil, false
}

func (m *Machine) takeChosen(game string) *chosenOutcome {
	t := m.test
	if t == nil || t.chosen == nil || t.chosen.game != game {
		return nil
	}
	c := t.chosen
	t.chosen = nil
	return c
}

// testTick shows a test reel game's free spins one after the other (they
// are all committed already) and ends the test game's animation.
func (m *Machine) testTick() {
	t := m.test
	if t == nil || m.phase != spinning || m.now.Before(m.until) {
		return
	}
	last := m.st.Test.Last
	if last != nil && last.Kind == meters.GameReels && t.freeShown < len(last.Free) {
		if sp, err := m.pt.Evaluate(last.Free[t.freeShown], last.Level, true); err == nil {
			t.freeShown++
			m.shown = sp
			m.until = m.now.Add(m.cfg.SpinTime)
			return
		}
	}
	m.phase = idle
	if last != nil && last.WinCents > 0 {
		m.say("msg_win", last.WinCents)
	}
}

// testOutcome takes the lab's choice of the next test game's outcome.
func (m *Machine) testOutcome(e TestOutcome, eff *Effects) {
	refuse := func(key, detail string) {
		eff.Refused = key
		m.say(key)
		m.message.Detail = detail
	}
	switch {
	case !m.cfg.Lab:
		refuse("refused_not_lab", "outcomes are chosen only by a lab build")
		return
	case !m.inTest() || m.test == nil:
		refuse("refused_not_test_mode", "")
		return
	case strings.TrimSpace(e.Value) == "":
		m.test.chosen = nil
		return
	}
	var c *chosenOutcome
	var err error
	if m.game == meters.GameMakccarat {
		c, err = m.chosenHand(e.Value)
	} else {
		c, err = m.chosenSpins(e.Value)
	}
	if err != nil {
		refuse("refused_bad_outcome", err.Error())
		return
	}
	c.text = strings.TrimSpace(e.Value)
	m.test.chosen = c
}

// chosenSpins parses and checks a reel outcome: stops on the strips, and
// no more free spins than the chosen spins award.
func (m *Machine) chosenSpins(value string) (*chosenOutcome, error) {
	if m.pt == nil {
		return nil, fmt.Errorf("no paytable loaded")
	}
	c := &chosenOutcome{game: meters.GameReels}
	owed := 1 // the base spin
	for i, part := range strings.Split(value, ";") {
		var stops []int
		for _, f := range strings.Split(part, ",") {
			n, err := strconv.Atoi(strings.TrimSpace(f))
			if err != nil {
				return nil, fmt.Errorf("spin %d: stop %q is not a number", i+1, f)
			}
			stops = append(stops, n)
		}
		if owed == 0 {
			return nil, fmt.Errorf("spin %d: the spins before it award no more free spins", i+1)
		}
		sp, err := m.pt.Evaluate(stops, m.level, i > 0)
		if err != nil {
			return nil, fmt.Errorf("spin %d: %v", i+1, err)
		}
		owed += sp.FreeAwarded - 1
		c.spins = append(c.spins, stops)
	}
	return c, nil
}

// chosenHand parses and checks a Makccarat outcome: cards the table's shoe
// holds, a hand the rules deal (baccarat.Alternative.Evaluate).
func (m *Machine) chosenHand(value string) (*chosenOutcome, error) {
	t := m.cfg.Table
	if t == nil {
		return nil, fmt.Errorf("no table definition enabled")
	}
	c := &chosenOutcome{game: meters.GameMakccarat}
	seen := map[cards.Card]int{}
	for _, f := range strings.FieldsFunc(value, func(r rune) bool { return r == ' ' || r == ',' }) {
		card, err := cards.Parse(strings.ToUpper(f))
		if err != nil {
			return nil, err
		}
		if seen[card]++; seen[card] > t.Decks {
			return nil, fmt.Errorf("card %s %d times: the shoe of %d decks holds it %d times", card, seen[card], t.Decks, t.Decks)
		}
		c.cards = append(c.cards, card)
	}
	if _, err := t.Alternative.Evaluate(c.cards); err != nil {
		return nil, err
	}
	return c, nil
}

// testHandView is the test hand on screen.
func (m *Machine) testHandView() *HandView {
	last := m.st.Test.Last
	if last == nil || last.Hand == nil {
		return nil
	}
	n := len(last.Hand.Cards)
	turned, ended := n, m.phase != spinning
	if !ended {
		turned = min(n, 1+int(m.now.Sub(m.dealtAt)/m.cardTime()))
	}
	gs := meters.GameStart{Game: last.Game, Kind: last.Kind, Paytable: last.Paytable, Digest: last.Digest, BetCents: last.BetCents, Hand: last.Hand}
	hv, _ := handViewFor(m, gs, turned, ended)
	return hv
}

// testView puts test mode on the view: the test credits in place of the
// credit meter, the test game on screen, and the banner's data.
func (m *Machine) testView(v *View) {
	if !m.inTest() {
		return
	}
	t := m.st.Test
	v.Test = &TestView{CreditsCents: t.Credits, Who: t.Who, Since: t.Since, Played: t.Played, BetCents: t.Bet, WonCents: t.Won, Lab: m.cfg.Lab}
	if m.test != nil && m.test.chosen != nil {
		v.Test.Chosen = m.test.chosen.text
	}
	v.CreditsCents, v.Credits = t.Credits, t.Credits/m.cfg.Denom
	v.Game, v.GameWinCents, v.CreditedCents, v.FreePlayed, v.GameOpen = 0, 0, 0, 0, false
	last := t.Last
	if last == nil {
		return
	}
	v.Game = last.Game
	if m.phase == spinning {
		v.GameOpen = true
		if last.Hand != nil && v.Mode == "spinning" {
			v.Mode = "dealing"
		}
		return
	}
	v.GameWinCents, v.CreditedCents = last.WinCents, last.WinCents
	v.FreePlayed = len(last.Free)
}
