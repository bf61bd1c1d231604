package meters

import (
	"fmt"
	"slices"
	"strconv"
)

// Test mode: a technician plays the cabinet's games with test credits to
// show that they work and pay as certified. Entering and leaving are
// records (who, when); each test game is one record with everything needed
// to recall it. The fold counts test games only in the test meters
// (State.Test): no meter of Defs, no SAS meter, no per-game meter and no
// term of the credit equation moves, and while test mode is on the fold
// refuses every record that would move money.

// Record types of test mode. They are numbered apart from the money records
// so the other record kinds being added at the same time keep their own
// consecutive numbers.
const (
	TypeTestMode Type = 32
	TypeTestGame Type = 33
)

func init() {
	typeNames[TypeTestMode] = "test mode"
	typeNames[TypeTestGame] = "test game"
}

// TestMode enters (Enter) or leaves test mode. Entering gives Credits of
// test credits (cents, never money); leaving discards what is left of them.
// Why says why test mode was left: the technician's choice, or a power-up
// that found the machine in test mode (test mode does not survive a power
// loss: the machine comes back out of it, with this record to say so).
type TestMode struct {
	At      int64  `json:"at"`
	Who     string `json:"who"`
	Role    string `json:"role,omitempty"`
	Enter   bool   `json:"enter"`
	Credits int64  `json:"credits,omitempty"`
	Why     string `json:"why,omitempty"`
}

// TestGame is one game played in test mode, committed before it is shown
// (DESIGN rule 1, as for a real game). A reel game carries its base spin's
// Stops and each free spin's stops in Free (drawn and recorded with the
// base spin: the whole test game is one record); a Makccarat hand carries
// its Hand. Chosen marks an outcome the lab build chose instead of the RNG.
type TestGame struct {
	At       int64      `json:"at"`
	Game     uint64     `json:"game"` // test games are numbered apart from real ones, from 1
	Kind     string     `json:"kind"` // GameReels or GameMakccarat
	Paytable string     `json:"paytable"`
	Digest   string     `json:"digest"`
	Denom    int64      `json:"denom"`
	Level    int        `json:"level"`
	BetCents int64      `json:"bet_cents"`
	Stops    []int      `json:"stops,omitempty"`
	Free     [][]int    `json:"free,omitempty"`
	Hand     *TableHand `json:"hand,omitempty"`
	WinCents int64      `json:"win_cents"`
	Chosen   bool       `json:"chosen,omitempty"`
}

func (TestMode) Type() Type { return TypeTestMode }
func (TestGame) Type() Type { return TypeTestGame }

func (r TestMode) validate() error {
	switch {
	case r.Who == "":
		return fmt.Errorf("test mode entered or left by nobody")
	case r.Enter && r.Credits <= 0:
		return fmt.Errorf("test mode entered with %d cents of test credits", r.Credits)
	case !r.Enter && (r.Credits != 0 || r.Why == ""):
		return fmt.Errorf("test mode left without a reason, or with test credits %d", r.Credits)
	}
	return nil
}

func (r TestGame) validate() error {
	switch {
	case r.Game == 0:
		return fmt.Errorf("test game number 0")
	case r.Paytable == "" || r.Digest == "":
		return fmt.Errorf("test game %d: no paytable or table definition", r.Game)
	case r.Denom <= 0 || r.BetCents <= 0:
		return fmt.Errorf("test game %d: denomination %d, bet %d cents", r.Game, r.Denom, r.BetCents)
	case r.Kind == GameReels && (len(r.Stops) == 0 || r.Hand != nil):
		return fmt.Errorf("test game %d: a reel game needs stops and no hand", r.Game)
	case r.Kind == GameMakccarat && len(r.Free) != 0:
		return fmt.Errorf("test game %d: a hand with free spins", r.Game)
	case r.Kind == GameMakccarat:
		gs := GameStart{Game: r.Game, Kind: r.Kind, Hand: r.Hand, BetCents: r.BetCents, Stops: r.Stops}
		if err := gs.validTable(); err != nil {
			return fmt.Errorf("test %w", err)
		}
	case r.Kind != GameReels:
		return fmt.Errorf("test game %d: unknown game %q", r.Game, r.Kind)
	}
	for i, f := range r.Free {
		if len(f) != len(r.Stops) {
			return fmt.Errorf("test game %d: free spin %d has %d stops, the base spin %d", r.Game, i+1, len(f), len(r.Stops))
		}
	}
	return nonNegative("win_cents", r.WinCents)
}

// TestMeters are the test meters and whether test mode is on. They are
// not money: apart from the machine's meters, never reported by SAS.
type TestMeters struct {
	Active bool   `json:"active,omitempty"`
	Who    string `json:"who,omitempty"`   // who entered the test mode on now
	Since  int64  `json:"since,omitempty"` // when
	// Credits are the test credits left (cents), 0 out of test mode.
	Credits int64 `json:"credits,omitempty"`
	// Lifetime test meters: test modes entered, test games played, their
	// bets and wins (cents). A RAM clear leaves them: they are not money.
	Sessions int64  `json:"sessions,omitempty"`
	Played   int64  `json:"played,omitempty"`
	Bet      int64  `json:"bet,omitempty"`
	Won      int64  `json:"won,omitempty"`
	LastGame uint64 `json:"last_game,omitempty"`
	// Last is the last test game of the test mode on now (for its screen).
	Last *TestGame `json:"last,omitempty"`
}

// Test mode actions in the event history.
const (
	ActionTestEnter = "test_mode_enter"
	ActionTestLeave = "test_mode_leave"
)

// applyTest folds the test mode records.
func (s *State) applyTest(r Record) error {
	t := &s.Test
	switch r := r.(type) {
	case TestMode:
		action := ActionTestLeave
		if r.Enter {
			if t.Active {
				return fmt.Errorf("test mode entered while on since %d", t.Since)
			}
			if err := s.idle("enter test mode"); err != nil {
				return err
			}
			if s.Meters[Credits] != 0 || len(s.PendingHits) > 0 || s.PendingBill != nil {
				return fmt.Errorf("cannot enter test mode: %d cents of credit, %d jackpot hits pending, bill order pending %v",
					s.Meters[Credits], len(s.PendingHits), s.PendingBill != nil)
			}
			*t = TestMeters{Active: true, Who: r.Who, Since: r.At, Credits: r.Credits, Sessions: t.Sessions + 1,
				Played: t.Played, Bet: t.Bet, Won: t.Won, LastGame: t.LastGame}
			action = ActionTestEnter
		} else {
			if !t.Active {
				return fmt.Errorf("test mode left while not on")
			}
			t.Active, t.Who, t.Since, t.Credits, t.Last = false, "", 0, 0, nil
		}
		detail := r.Why
		if r.Enter {
			detail = strconv.FormatInt(r.Credits, 10)
		}
		s.Events = keepLast(append(s.Events, Event{At: r.At, Code: EventService, Detail: r.Who + " (" + r.Role + "): " + action + " " + detail,
			Who: r.Who, Role: r.Role, Action: action, Value: detail, Cents: r.Credits}), HistoryEvents)
	case TestGame:
		switch {
		case !t.Active:
			return fmt.Errorf("test game %d out of test mode", r.Game)
		case r.Game != t.LastGame+1:
			return fmt.Errorf("test game %d does not follow test game %d", r.Game, t.LastGame)
		case r.BetCents > t.Credits:
			return fmt.Errorf("test game %d: bet %d cents with %d cents of test credits", r.Game, r.BetCents, t.Credits)
		}
		t.Credits += r.WinCents - r.BetCents
		t.Played++
		t.Bet += r.BetCents
		t.Won += r.WinCents
		t.LastGame = r.Game
		g := r
		g.Stops, g.Free = slices.Clone(r.Stops), slices.Clone(r.Free)
		t.Last = &g
	}
	return nil
}

// refusedInTest says why a record cannot be folded in test mode: nothing
// that moves money or a meter of Defs is played then (the test records
// and the machine's own events are).
func (s *State) refusedInTest(r Record) error {
	if !s.Test.Active {
		return nil
	}
	switch r.(type) {
	case MoneyIn, GameStart, FreeGame, GameEnd, HandpayPending, HandpayReset, CashOut, ProgressiveHit, ProgressiveAward,
		RAMClear, JackpotLevel, TicketPrinted, TicketVoid, BillEscrow, AFTTransfer,
		TicketEscrow, TicketRedeem, ValidationRequest, ValidationDenied:
		return fmt.Errorf("%v refused: the machine is in test mode (entered by %s)", r.Type(), s.Test.Who)
	}
	return nil
}

// check is the test meters' share of State.Check.
func (t *TestMeters) check() error {
	if t.Credits < 0 || t.Played < 0 || t.Bet < 0 || t.Won < 0 {
		return fmt.Errorf("test meters negative: credits %d, played %d, bet %d, won %d", t.Credits, t.Played, t.Bet, t.Won)
	}
	if !t.Active && t.Credits != 0 {
		return fmt.Errorf("%d cents of test credits out of test mode", t.Credits)
	}
	return nil
}
