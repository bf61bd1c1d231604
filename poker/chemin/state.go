package chemin

import (
	"fmt"
	"slices"

	"github.com/openegm/cabinet/cards"
	"github.com/openegm/cabinet/poker"
)

// State is where a table's money is, and who holds the bank: what the
// records say, folded (Fold), and what the engine holds (Table.State); the
// two are equal after every step.
type State struct {
	Players   map[int]string // by seat
	Stacks    map[int]int64  // by seat
	Stakes    map[int]int64  // the pontos' stakes in the coup in play
	Bank      int64
	Garage    int64
	Banker    int // the seat whose bank is on the table (0: none)
	Associate int
	Cagnotte  int64
	Fees      int64
	PaidIn    int64
	PaidOut   int64
	Coup      uint64
	Shoe      string // the digest of the sabot in play
}

// Check is the conservation of every cent: what was paid in is in a
// stack, a stake, the bank, the garage, the cagnotte, the fees or paid out.
func (s State) Check() error {
	held := s.Bank + s.Garage + s.Cagnotte + s.Fees + s.PaidOut
	for _, v := range s.Stacks {
		held += v
		if v < 0 {
			return fmt.Errorf("a stack of %d", v)
		}
	}
	for _, v := range s.Stakes {
		held += v
	}
	if held != s.PaidIn || s.Bank < 0 || s.Garage < 0 {
		return fmt.Errorf("paid in %d, held %d (bank %d, garage %d, cagnotte %d, paid out %d)", s.PaidIn, held, s.Bank, s.Garage, s.Cagnotte, s.PaidOut)
	}
	return nil
}

func newState() State {
	return State{Players: map[int]string{}, Stacks: map[int]int64{}, Stakes: map[int]int64{}}
}

// State is the engine's money and bank, to compare with Fold.
func (t *Table) State() State {
	s := newState()
	for _, p := range t.Seats.Players() {
		s.Players[p.Seat], s.Stacks[p.Seat] = p.ID, p.Stack
	}
	for _, st := range t.stakes {
		s.Stakes[st.seat] = st.amount
	}
	s.Bank, s.Garage, s.Associate = t.bank, t.garage, t.associate
	if t.bank+t.garage > 0 {
		s.Banker = t.banker
	}
	s.Cagnotte, s.Fees, s.PaidIn, s.PaidOut = t.Seats.Rake, t.Seats.Fees, t.Seats.PaidIn, t.Seats.PaidOut
	s.Coup = t.HandNo
	if t.sab != nil {
		s.Shoe = t.sab.digest
	}
	return s
}

// Fold rebuilds a table's State from all its records, in order (a
// Folder's).
func Fold(recs []poker.Record) (State, error) {
	f := NewFolder()
	err := f.Add(recs...)
	return f.State(), err
}

// Folder folds a table's records as they come, checking that every cent is
// conserved after every record, that every payment matches the stakes, and
// that the cards dealt from each sabot are the order its end reveals, whose
// digest is the one committed before its first card was shown.
type Folder struct {
	s       State
	n       int
	dealt   []cards.Card // from the sabot in play
	pending []cards.Card // the ponto's cards, until the banker's come
	decks   int          // the decks its KindShoe said the sabot in play has
}

// NewFolder starts from an empty table.
func NewFolder() *Folder { return &Folder{s: newState()} }

// State is the table as the records folded so far say.
func (f *Folder) State() State { return f.s }

// Add folds records; the first that breaks a rule stops it.
func (f *Folder) Add(recs ...poker.Record) error {
	for _, r := range recs {
		if err := f.apply(r); err != nil {
			return fmt.Errorf("record %d (%s): %w", f.n, r.Kind, err)
		}
		if err := f.s.Check(); err != nil {
			return fmt.Errorf("record %d (%s): %w", f.n, r.Kind, err)
		}
		f.n++
	}
	return nil
}

func (f *Folder) apply(r poker.Record) error {
	s, dealt := &f.s, &f.dealt
	seated := func() error {
		if _, ok := s.Stacks[r.Seat]; !ok {
			return fmt.Errorf("seat %d is empty", r.Seat)
		}
		return nil
	}
	switch r.Kind {
	case poker.KindJoin:
		if _, ok := s.Stacks[r.Seat]; ok {
			return fmt.Errorf("seat %d is taken", r.Seat)
		}
		s.Players[r.Seat], s.Stacks[r.Seat] = r.Player, r.Amount-r.Fee
		s.PaidIn += r.Amount
		s.Fees += r.Fee
	case poker.KindRebuy:
		if err := seated(); err != nil {
			return err
		}
		s.Stacks[r.Seat] += r.Amount - r.Fee
		s.PaidIn += r.Amount
		s.Fees += r.Fee
	case poker.KindLeave:
		if err := seated(); err != nil {
			return err
		}
		if s.Stacks[r.Seat] != r.Amount {
			return fmt.Errorf("seat %d leaves with %d, has %d", r.Seat, r.Amount, s.Stacks[r.Seat])
		}
		s.PaidOut += r.Amount
		delete(s.Stacks, r.Seat)
		delete(s.Players, r.Seat)
	case KindBank, KindAssociate:
		if err := seated(); err != nil {
			return err
		}
		s.Stacks[r.Seat] -= r.Amount
		s.Bank += r.Amount
		if r.Kind == KindBank {
			s.Banker = r.Seat
		} else {
			s.Associate = r.Seat
		}
	case KindBet:
		if err := seated(); err != nil {
			return err
		}
		s.Stacks[r.Seat] -= r.Amount
		s.Stakes[r.Seat] += r.Amount
	case poker.KindReturn:
		if s.Stakes[r.Seat] != r.Amount {
			return fmt.Errorf("seat %d given back %d of a stake of %d", r.Seat, r.Amount, s.Stakes[r.Seat])
		}
		delete(s.Stakes, r.Seat)
		s.Stacks[r.Seat] += r.Amount
	case poker.KindVoid:
		for _, sh := range r.Shares {
			if s.Stakes[sh.Seat] != sh.Amount {
				return fmt.Errorf("seat %d given back %d of a stake of %d", sh.Seat, sh.Amount, s.Stakes[sh.Seat])
			}
			delete(s.Stakes, sh.Seat)
			s.Stacks[sh.Seat] += sh.Amount
		}
		if len(s.Stakes) != 0 {
			return fmt.Errorf("stakes %v not given back", s.Stakes)
		}
	case poker.KindAward:
		var staked int64
		for _, v := range s.Stakes {
			staked += v
		}
		switch r.Action {
		case "banker":
			// The cagnotte from the winnings, or paid from outside, from
			// the banker's stack, the whole win in the bank (rule 47).
			outside := r.Rake > 0 && len(r.Shares) == 1 && r.Shares[0].Amount == r.Amount
			if r.Amount != staked || len(r.Shares) != 1 || r.Shares[0].Amount != r.Amount-r.Rake && !outside {
				return fmt.Errorf("the banker wins %d (cagnotte %d, shares %v) of stakes %d", r.Amount, r.Rake, r.Shares, staked)
			}
			if outside {
				if r.Seat != s.Banker {
					return fmt.Errorf("seat %d pays the cagnotte of seat %d's bank", r.Seat, s.Banker)
				}
				s.Stacks[r.Seat] -= r.Rake
			}
			s.Bank += r.Shares[0].Amount
			s.Cagnotte += r.Rake
		case "ponto":
			var paid int64
			for _, sh := range r.Shares {
				if sh.Amount != 2*s.Stakes[sh.Seat] {
					return fmt.Errorf("seat %d paid %d on a stake of %d", sh.Seat, sh.Amount, s.Stakes[sh.Seat])
				}
				s.Stacks[sh.Seat] += sh.Amount
				paid += sh.Amount
			}
			if paid != r.Amount || paid != 2*staked {
				return fmt.Errorf("pontos paid %d on stakes %d", paid, staked)
			}
			s.Bank -= staked
		default:
			return fmt.Errorf("an award to %q", r.Action)
		}
		clear(s.Stakes)
	case KindGarage:
		s.Bank -= r.Amount
		s.Garage += r.Amount
	case KindRelease:
		var paid int64
		for _, sh := range r.Shares {
			s.Stacks[sh.Seat] += sh.Amount
			paid += sh.Amount
		}
		if paid != s.Bank+s.Garage || r.Amount != paid {
			return fmt.Errorf("a release of %d from a bank of %d and a garage of %d", paid, s.Bank, s.Garage)
		}
		s.Bank, s.Garage, s.Banker, s.Associate = 0, 0, 0, 0
	case poker.KindHandStart:
		s.Coup = r.Hand
	case KindShoe:
		if r.Amount < 1 {
			return fmt.Errorf("a sabot of %d decks", r.Amount)
		}
		s.Shoe = r.Value
		*dealt = nil
		f.decks = int(r.Amount)
	case poker.KindDeal:
		// The ponto's two cards, then the banker's: dealt alternately,
		// the ponto first (rule 62).
		if f.pending == nil {
			f.pending = r.Cards
			break
		}
		p := f.pending
		f.pending = nil
		if len(p) != 2 || len(r.Cards) != 2 {
			return fmt.Errorf("a deal of %v and %v", p, r.Cards)
		}
		*dealt = append(*dealt, p[0], r.Cards[0], p[1], r.Cards[1])
	case KindBurn, poker.KindBoard:
		*dealt = append(*dealt, r.Cards...)
	case KindShoeEnd:
		switch {
		case Digest(r.Cards) != s.Shoe:
			return fmt.Errorf("the sabot revealed has digest %s, %s was committed", Digest(r.Cards), s.Shoe)
		case len(*dealt) > len(r.Cards) || !slices.Equal(r.Cards[:len(*dealt)], *dealt):
			return fmt.Errorf("the cards dealt are not the sabot's order")
		}
		if err := wholeDecks(r.Cards, f.decks); err != nil {
			return err
		}
		s.Shoe = ""
	}
	return nil
}

// wholeDecks checks that a sabot revealed is exactly decks standard decks:
// every card of every deck, once a deck, and nothing else (rules 7, 8).
func wholeDecks(order []cards.Card, decks int) error {
	deck := cards.Standard52()
	if len(order) != decks*len(deck) {
		return fmt.Errorf("the sabot revealed has %d cards, %d decks have %d", len(order), decks, decks*len(deck))
	}
	n := map[cards.Card]int{}
	for _, c := range order {
		n[c]++
	}
	for _, c := range deck {
		if n[c] != decks {
			return fmt.Errorf("the sabot revealed has %s %d times in %d decks", c, n[c], decks)
		}
	}
	return nil
}
