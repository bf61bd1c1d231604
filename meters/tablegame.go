package meters

import (
	"fmt"

	"github.com/openegm/cabinet/cards"
)

// The games a cabinet offers. A GameStart without a Kind is a reel game
// (every record written before the cabinet had a second game is one).
const (
	GameReels     = "reels"
	GameMakccarat = "makccarat"
)

// GameKinds are the games in the order of their SAS game numbers (1, 2, …);
// game 0 is the machine as a whole.
var GameKinds = []string{GameReels, GameMakccarat}

// TableSpots is the number of bet spots of a Makccarat hand: player,
// banker, tie, player pair, banker pair (baccarat.Spot's order).
const TableSpots = 5

// TableHand is a Makccarat hand as committed before its first card is
// turned: the stakes on each spot and every card in the order dealt (P1 B1
// P2 B2, then the third cards). Recall and the inspector re-evaluate it
// with the definition the game start names (Paytable, Digest); Commission
// and the start's WinCents are what that evaluation paid.
type TableHand struct {
	Bets       [TableSpots]int64 `json:"bets"`
	Cards      []cards.Card      `json:"cards"`
	Commission int64             `json:"commission"`
}

// GameMeters are the meters of one game of a multi-game machine (SAS 0x2F
// with the game's number). They move with the machine's meters, by the
// same records, and are zeroed with them by a RAM clear.
type GameMeters struct {
	CoinIn     int64 `json:"coin_in"`    // bets, cents
	TotalWon   int64 `json:"total_won"`  // game wins, machine- and hand-paid, cents
	CoinOut    int64 `json:"coin_out"`   // game wins paid to the credit meter, cents
	HandPaid   int64 `json:"hand_paid"`  // game wins an attendant paid, cents
	Commission int64 `json:"commission"` // what the house kept of winning prizes (Makccarat), cents
	Played     int64 `json:"played"`     // games started
	Won        int64 `json:"won"`        // games ended with a win
	Lost       int64 `json:"lost"`       // games ended without one
}

// kind is the game a start belongs to.
func (r GameStart) kind() string {
	if r.Kind == "" {
		return GameReels
	}
	return r.Kind
}

// validTable checks a Makccarat game start's own consistency: the hand's
// stakes are the bet, it has the four to six cards a hand is dealt, and it
// has none of a reel game's fields.
func (r GameStart) validTable() error {
	h := r.Hand
	if h == nil {
		return fmt.Errorf("game %d: a %s game without its hand", r.Game, r.Kind)
	}
	if len(r.Stops) != 0 || r.FreeAwarded != 0 || len(r.Progressives) != 0 || len(r.Contributions) != 0 || len(r.Mystery) != 0 || r.Linked {
		return fmt.Errorf("game %d: a %s hand with reel or jackpot fields", r.Game, r.Kind)
	}
	var total int64
	for i, b := range h.Bets {
		if b < 0 {
			return fmt.Errorf("game %d: negative stake %d on spot %d", r.Game, b, i+1)
		}
		total += b
	}
	if total != r.BetCents {
		return fmt.Errorf("game %d: stakes total %d cents, the bet is %d", r.Game, total, r.BetCents)
	}
	if n := len(h.Cards); n < 4 || n > 6 {
		return fmt.Errorf("game %d: %d cards (a hand is dealt 4 to 6)", r.Game, n)
	}
	for i, c := range h.Cards {
		if !c.Valid() {
			return fmt.Errorf("game %d: card %d is not a card", r.Game, i+1)
		}
	}
	if h.Commission < 0 {
		return fmt.Errorf("game %d: negative commission %d", r.Game, h.Commission)
	}
	return nil
}

// setGameMeters sets the per-game meters of kind (read from s.PerGame and
// changed). The map is shared with earlier states, unless s folds alone or
// owns it: copied before the change. (The meters are passed by value, not
// written through a pointer in a callback: that pointer escaped, a heap
// allocation at every game start and end.)
func (s *State) setGameMeters(kind string, g GameMeters) {
	if (s.sole || s.ownPerGame) && s.PerGame != nil {
		s.PerGame[kind] = g
		return
	}
	m := make(map[string]GameMeters, len(s.PerGame)+1)
	for k, v := range s.PerGame {
		m[k] = v
	}
	m[kind] = g
	s.PerGame = m
}
