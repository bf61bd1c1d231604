package poker

import "time"

// Event is an input of a table engine; every event carries its time.
type Event interface{ When() time.Time }

// Join seats a player with his cave (Amount, cents, as paid). Seat 0 draws
// a free seat.
type Join struct {
	At     time.Time
	Player string
	Seat   int
	Amount int64
}

// Rebuy adds chips to a player's cave between hands.
type Rebuy struct {
	At     time.Time
	Player string
	Amount int64
}

// Leave takes a player away with his chips. Authorized is the chief of
// the game's leave, where the rules forbid leaving (synthetic poker during
// a partida, rule 61).
type Leave struct {
	At         time.Time
	Player     string
	Authorized bool
}

// Rest starts (On) or ends a player's rest: he keeps his seat and chips.
type Rest struct {
	At     time.Time
	Player string
	On     bool
}

// Deal starts the next hand.
type Deal struct{ At time.Time }

// Act is a player's decision.
type Act struct {
	At     time.Time
	Player string
	Action Action
}

// Extra asks for the extra decision time.
type Extra struct {
	At     time.Time
	Player string
}

// Tick carries the time: decisions whose time is over are taken.
type Tick struct{ At time.Time }

// Resume is the table starting again after a failure of the operator's
// system (a server that stopped): a hand the failure stopped is void and
// every stake goes back to its player (SRIJ rule 86); each game says what
// else a table that resumes does.
type Resume struct{ At time.Time }

// Closing is the official closing hour (Hour) come, told at At (not
// before it): each game says how its partida ends (chemin de fer: rule
// 107). The hour is the operator's, so it enters as an event, as time does.
type Closing struct {
	At   time.Time
	Hour time.Time
}

func (e Join) When() time.Time    { return e.At }
func (e Rebuy) When() time.Time   { return e.At }
func (e Leave) When() time.Time   { return e.At }
func (e Rest) When() time.Time    { return e.At }
func (e Deal) When() time.Time    { return e.At }
func (e Act) When() time.Time     { return e.At }
func (e Extra) When() time.Time   { return e.At }
func (e Tick) When() time.Time    { return e.At }
func (e Resume) When() time.Time  { return e.At }
func (e Closing) When() time.Time { return e.At }
