package chemin

import (
	"fmt"
	"maps"
	"slices"

	"github.com/openegm/cabinet/cards"
	"github.com/openegm/cabinet/poker"
)

// Frame is the table as a player saw it after one record of a coup.
type Frame struct {
	Record poker.Record
	Stacks map[int]int64 // by seat
	Stakes map[int]int64
	Bank   int64
	// The cards the viewer saw: his own as ponto, the ponto's third card,
	// the banker's once turned (by the banker too), and both hands once
	// shown.
	PontoCards, BankerCards []cards.Card
}

// ReplayCoup rebuilds a coup from its records (a player's LastHands) as
// viewer saw it, one frame per record, folding its money from the stacks
// and the bank its start recorded: every cent is conserved after every
// record, and the stacks at its end are those it recorded.
func ReplayCoup(coup []poker.Record, viewer string) ([]Frame, error) {
	if len(coup) == 0 || coup[0].Kind != poker.KindHandStart {
		return nil, fmt.Errorf("replay: a coup starts with %s", poker.KindHandStart)
	}
	start := coup[0]
	f := NewFolder()
	for _, st := range start.Stacks {
		f.s.Players[st.Seat], f.s.Stacks[st.Seat] = st.Player, st.Stack
		f.s.PaidIn += st.Stack
	}
	f.s.Bank, f.s.Banker, f.s.PaidIn = start.Amount, start.Seat, f.s.PaidIn+start.Amount
	f.s.Shoe = "replay" // the sabot's commitment is not in a coup's records
	var frames []Frame
	var pc, bc []cards.Card
	var ponto string
	shown, turned := false, false
	for i, r := range coup {
		if r.Hand != start.Hand {
			return nil, fmt.Errorf("replay: record %d is of coup %d, not %d", i, r.Hand, start.Hand)
		}
		if r.Kind == KindShoeEnd || r.Kind == KindShoe {
			return nil, fmt.Errorf("replay: record %d (%s) is no coup's", i, r.Kind)
		}
		if err := f.Add(r); err != nil {
			return nil, fmt.Errorf("replay: %w", err)
		}
		switch r.Kind {
		case poker.KindDeal:
			if pc == nil {
				pc, ponto = slices.Clone(r.Cards), r.Player
			} else {
				bc = slices.Clone(r.Cards)
			}
		case poker.KindBoard:
			if r.Seat == start.Seat {
				bc = append(bc, r.Cards...)
			} else {
				pc = append(pc, r.Cards...)
			}
		case poker.KindShow:
			shown = true
		case poker.KindAct:
			if r.Seat != start.Seat && pc != nil {
				turned = true // the ponto spoke: the banker turns his cards (rule 67)
			}
		case poker.KindHandEnd:
			for _, st := range r.Stacks {
				if got, ok := f.s.Stacks[st.Seat]; ok && got != st.Stack {
					return nil, fmt.Errorf("replay: seat %d ends with %d, the coup recorded %d", st.Seat, got, st.Stack)
				}
			}
			if len(f.s.Stakes) != 0 || f.s.Bank != r.Amount {
				return nil, fmt.Errorf("replay: the coup ends with stakes %v and a bank of %d, recorded %d", f.s.Stakes, f.s.Bank, r.Amount)
			}
		}
		fr := Frame{Record: r, Stacks: maps.Clone(f.s.Stacks), Stakes: maps.Clone(f.s.Stakes), Bank: f.s.Bank}
		switch {
		case shown || viewer == ponto:
			fr.PontoCards = slices.Clone(pc)
		case len(pc) == 3:
			fr.PontoCards = pc[2:3:3]
		}
		if shown || turned { // nobody, the banker included, before the ponto speaks (rules 64, 67)
			fr.BankerCards = slices.Clone(bc)
		}
		frames = append(frames, fr)
	}
	return frames, nil
}
