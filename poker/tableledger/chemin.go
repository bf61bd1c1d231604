package tableledger

import (
	"fmt"
	"slices"
	"time"

	"github.com/openegm/cabinet/cards"
	"github.com/openegm/cabinet/poker"
	"github.com/openegm/cabinet/poker/chemin"
	"github.com/openegm/cabinet/poker/tabledef"
)

// A chemin de fer table (poker/chemin) moves money between its players:
// a banker's bank (and an associate's half) on the table, the pontos'
// stakes in a coup, a garage set aside; the house earns only the cagnotte
// on what a banker wins. The fold below recomputes all of it from the
// records, apart from the engine: every stake against the bank, every
// payment against the stakes, the cagnotte against the definition's rate
// and rounding to the cent, the bank at each coup's start and end, the
// cagnotte a banker pays from outside (from his stack, rule 47), the bank
// an auction gives at its offer (alone, or half each with an associate,
// rule 87), and every sabot revealed whole (rules 7, 8).

// isChemin reports whether the table plays chemin de fer.
func (t *Table) isChemin() bool { return t.Game == string(tabledef.Chemin) }

// cagnotte is the house's part of a banker's winnings of won cents, at the
// table's rate and rounding, computed here in integers apart from the
// engine's.
func (t *Table) cagnotte(won int64) int64 {
	num := won * t.CagnotteBps
	q, r := num/10000, num%10000
	switch chemin.Rounding(t.Rounding) {
	case chemin.RoundUp:
		if r > 0 {
			q++
		}
	case chemin.RoundHalfUp:
		if 2*r >= 10000 {
			q++
		}
	}
	return q
}

// cheminRecord folds one record of a chemin de fer table; it reports false
// for the records every table folds alike (join, re-buy, leave, rests).
func (f *stepFold) cheminRecord(r poker.Record) (bool, error) {
	t := f.t
	stakeOut := func(p *Seat) error {
		if r.Amount > p.Stack || r.Amount <= 0 {
			return fmt.Errorf("%q puts %d on the table with %d", r.Player, r.Amount, p.Stack)
		}
		p.Stack -= r.Amount
		p.Totals.Wagered += r.Amount
		if p.Stack != r.Stack {
			return fmt.Errorf("%q has %d after it, the record says %d", r.Player, p.Stack, r.Stack)
		}
		return nil
	}
	coup := func() error {
		if t.Hand == 0 || r.Hand != t.Hand {
			return fmt.Errorf("a record of coup %d while coup %d is in play", r.Hand, t.Hand)
		}
		return nil
	}
	outside := func() error {
		if r.Hand != 0 && r.Hand != t.Hand {
			return fmt.Errorf("a record of coup %d while coup %d is in play", r.Hand, t.Hand)
		}
		return nil
	}
	switch r.Kind {
	case poker.KindRebuy:
		if t.Hand != 0 {
			return true, fmt.Errorf("a re-buy for %q during coup %d (re-buys come between coups)", r.Player, t.Hand)
		}
		return false, nil
	case poker.KindJoin, poker.KindSitOut, poker.KindSitIn:
		return false, nil
	case poker.KindLeave:
		p, err := f.seat(r)
		if err != nil {
			return true, err
		}
		if t.Outside == p.Seat {
			t.Outside = 0
		}
		delete(t.Offers, p.Seat)
		for s, q := range t.Partners {
			if q == p.Seat { // his partner's offer is no offer now
				delete(t.Offers, s)
			}
		}
		if p.Seat == t.Banker || p.Seat == t.Associate {
			return true, fmt.Errorf("%q leaves with the bank of %d on the table", r.Player, t.Bank+t.Garage)
		}
		if t.Stakes[p.Seat] > 0 {
			return true, fmt.Errorf("%q leaves with a stake in coup %d", r.Player, t.Hand)
		}
		if p.CashOut == "" {
			// He gave up his seat (rule 85), or the rules took him away:
			// his chips go back to the source of his buy-in, as a cash-out
			// the ledger names after the buy-in.
			id := "out:" + p.BuyIn
			for n := 2; f.s.Transfers[id] != nil; n++ {
				id = fmt.Sprintf("out:%s:%d", p.BuyIn, n)
			}
			f.s.Transfers[id] = &TransferState{Transfer: Transfer{ID: id, Kind: CashOut, Source: p.Source, Player: r.Player}, Table: t.ID, At: r.At}
			p.CashOut = id
		}
		return false, nil
	case poker.KindHandStart:
		switch {
		case t.Over:
			return true, fmt.Errorf("coup %d starts after the partida's end", r.Hand)
		case !t.Closing.IsZero() && !t.PlaysOn && t.CoupsLeft == 0:
			return true, fmt.Errorf("coup %d starts after the partida's last coup: its sabot began less than %s before the closing hour %s (rule 107)",
				r.Hand, chemin.SabotBeforeClose, t.Closing.Format(time.RFC3339))
		case t.Hand != 0 || r.Hand <= t.LastHand:
			return true, fmt.Errorf("coup %d starts after coup %d, with coup %d in play", r.Hand, t.LastHand, t.Hand)
		case r.Seat != t.Banker || r.Amount != t.Bank || t.Bank <= 0:
			return true, fmt.Errorf("coup %d starts with seat %d's bank of %d; the ledger has seat %d's bank of %d", r.Hand, r.Seat, r.Amount, t.Banker, t.Bank)
		case t.AssocDue != 0:
			return true, fmt.Errorf("coup %d starts without seat %d, associated in the auction's offer (rule 87)", r.Hand, t.AssocDue)
		}
		if err := f.stacks(r.Stacks); err != nil {
			return true, err
		}
		t.Hand, t.InPot, t.Stakes = r.Hand, 0, map[int]int64{}
		t.Banco, t.CardsPassed, t.Ponto = 0, nil, 0
		if !t.Closing.IsZero() && !t.PlaysOn {
			t.CoupsLeft--
		}
	case chemin.KindBank, chemin.KindAssociate:
		p, err := f.seat(r)
		if err != nil {
			return true, err
		}
		switch {
		case t.Over:
			return true, fmt.Errorf("a bank stated after the partida's end")
		case t.Hand != 0 || r.Hand != 0:
			return true, fmt.Errorf("a bank stated during coup %d", t.Hand)
		case r.Kind == chemin.KindBank && t.Bank != 0 && t.Banker != p.Seat:
			return true, fmt.Errorf("seat %d states a bank while seat %d's of %d is on the table", p.Seat, t.Banker, t.Bank)
		case r.Kind == chemin.KindAssociate && (t.Banker == 0 || t.Banker == p.Seat):
			return true, fmt.Errorf("seat %d associates with no banker", p.Seat)
		case r.Kind == chemin.KindAssociate && t.AssocDue != 0 && (p.Seat != t.AssocDue || r.Amount != t.Bank):
			return true, fmt.Errorf("seat %d associates with %d; the auction's associated offer gave seat %d half the bank, %d (rule 87)", p.Seat, r.Amount, t.AssocDue, t.Bank)
		case r.Kind == chemin.KindAssociate && (r.Amount != t.Bank || t.Garage != 0):
			return true, fmt.Errorf("seat %d associates with %d; the banker's bank is %d: an associate adds as much (rule 31)", p.Seat, r.Amount, t.Bank)
		case r.Kind == chemin.KindBank && t.Taken != 0 && r.Amount != t.Taken:
			return true, fmt.Errorf("seat %d takes the hand with a bank of %d; he took it at %d (rules 80, 85)", p.Seat, r.Amount, t.Taken)
		case r.Kind == chemin.KindBank:
			if err := t.auctionBank(p.Seat, r.Amount); err != nil {
				return true, err
			}
		}
		if r.Kind == chemin.KindBank {
			t.Taken = 0
		}
		if err := stakeOut(p); err != nil {
			return true, err
		}
		t.Bank += r.Amount
		if r.Kind == chemin.KindBank {
			if t.Outside != p.Seat {
				t.Outside = 0 // the hand is another's: his choice goes with it
			}
			t.Banker = p.Seat
		} else {
			t.Associate, t.AssocDue = p.Seat, 0
		}
	case chemin.KindBet:
		if err := coup(); err != nil {
			return true, err
		}
		p, err := f.seat(r)
		if err != nil {
			return true, err
		}
		if p.Seat == t.Banker || p.Seat == t.Associate {
			return true, fmt.Errorf("the bank's seat %d bets against it", p.Seat)
		}
		if err := stakeOut(p); err != nil {
			return true, err
		}
		t.InPot += r.Amount
		t.Stakes[p.Seat] += r.Amount
		switch poker.ActionKind(r.Action) {
		case chemin.Banco, chemin.Suivi, chemin.BancoMesa:
			t.Banco = p.Seat
		}
		if t.InPot > t.Bank {
			return true, fmt.Errorf("stakes of %d against a bank of %d", t.InPot, t.Bank)
		}
	case poker.KindAct:
		if err := outside(); err != nil {
			return true, err
		}
		if _, err := f.seat(r); err != nil {
			return true, err
		}
		if r.Amount != 0 {
			return true, fmt.Errorf("a decision that moves %d", r.Amount)
		}
		if r.Timeout {
			t.Meters.Timeouts++
		}
		if err := t.cheminDecision(r); err != nil {
			return true, err
		}
	case poker.KindReturn:
		if err := coup(); err != nil {
			return true, err
		}
		p, err := f.seat(r)
		if err != nil {
			return true, err
		}
		if r.Amount != t.Stakes[r.Seat] || r.Amount == 0 {
			return true, fmt.Errorf("%d given back to seat %d, whose stake is %d", r.Amount, r.Seat, t.Stakes[r.Seat])
		}
		p.Stack += r.Amount
		p.Totals.Wagered -= r.Amount
		t.InPot -= r.Amount
		delete(t.Stakes, r.Seat)
	case poker.KindAward:
		if err := coup(); err != nil {
			return true, err
		}
		switch r.Action {
		case "banker":
			want := t.cagnotte(r.Amount)
			// Paid from outside when the banker chose it and his stack
			// covers it: the whole win stays in the bank (rule 47).
			b := f.bySeat(t.Banker)
			outside := b != nil && t.Outside == t.Banker && want > 0 && b.Stack >= want
			kept := r.Amount - want
			if outside {
				kept = r.Amount
			}
			switch {
			case r.Amount != t.InPot || r.Amount == 0:
				return true, fmt.Errorf("the banker wins %d of stakes %d", r.Amount, t.InPot)
			case r.Rake != want:
				return true, fmt.Errorf("a cagnotte of %d on %d won, the definition's %d bps rounded %s make %d", r.Rake, r.Amount, t.CagnotteBps, t.Rounding, want)
			case len(r.Shares) != 1 || r.Shares[0].Seat != t.Banker || r.Shares[0].Amount != kept:
				return true, fmt.Errorf("the banker's %d less a cagnotte of %d (from outside: %v) credited as %+v, not %d to the bank of seat %d", r.Amount, r.Rake, outside, r.Shares, kept, t.Banker)
			}
			if outside {
				b.Stack -= want
				b.Totals.Wagered += want
			}
			t.Bank += kept
			t.Meters.Rake += r.Rake
		case "ponto":
			var paid int64
			for _, sh := range r.Shares {
				p := f.bySeat(sh.Seat)
				if p == nil || sh.Amount != 2*t.Stakes[sh.Seat] || sh.Amount == 0 {
					return true, fmt.Errorf("seat %d paid %d on a stake of %d", sh.Seat, sh.Amount, t.Stakes[sh.Seat])
				}
				p.Stack += sh.Amount
				p.Totals.Won += sh.Amount
				paid += sh.Amount
			}
			if r.Rake != 0 || paid != r.Amount || paid != 2*t.InPot || len(r.Shares) != len(t.Stakes) {
				return true, fmt.Errorf("pontos paid %d (%+v) on stakes %d", paid, r.Shares, t.InPot)
			}
			t.Bank -= t.InPot
		default:
			return true, fmt.Errorf("an award to %q", r.Action)
		}
		t.InPot, t.Stakes = 0, map[int]int64{}
		t.Meters.Pots++
	case chemin.KindGarage:
		if t.Hand != 0 || r.Amount <= 0 || r.Amount > t.Bank || r.Seat != t.Banker {
			return true, fmt.Errorf("a garage of %d from seat %d's bank of %d (seat %d's), coup %d in play", r.Amount, r.Seat, t.Bank, t.Banker, t.Hand)
		}
		t.Bank -= r.Amount
		t.Garage += r.Amount
	case chemin.KindRelease:
		var paid int64
		for _, sh := range r.Shares {
			p := f.bySeat(sh.Seat)
			if p == nil || (sh.Seat != t.Banker && sh.Seat != t.Associate) || sh.Amount < 0 {
				return true, fmt.Errorf("%d of the bank released to seat %d, not the banker's or his associate's", sh.Amount, sh.Seat)
			}
			p.Stack += sh.Amount
			p.Totals.Won += sh.Amount
			paid += sh.Amount
		}
		if t.Hand != 0 || paid != r.Amount || paid != t.Bank+t.Garage {
			return true, fmt.Errorf("a release of %d (paid %d) from a bank of %d and a garage of %d", r.Amount, paid, t.Bank, t.Garage)
		}
		// A hand passed is offered at this level (rules 78, 80).
		t.Level, t.Auctioned, t.Taken = t.Bank, false, 0
		t.Bank, t.Garage, t.Banker, t.Associate, t.Outside, t.AssocDue = 0, 0, 0, 0, 0, 0
	case poker.KindDeal, poker.KindBoard:
		if err := coup(); err != nil {
			return true, err
		}
		t.Dealt += int64(len(r.Cards))
		if r.Kind == poker.KindDeal && r.Seat != t.Banker {
			if want := t.cardsTo(); r.Seat != want || t.Ponto != 0 {
				return true, fmt.Errorf("coup %d's cards dealt to seat %d; by bancô, stake, seat and the pontos who declined them (rules 60, 61, 101) they are seat %d's", t.Hand, r.Seat, want)
			}
			t.Ponto = r.Seat
			f.cheminPlayed(t) // the ponto's two cards, the coup's first
		}
	case poker.KindShow:
		if err := coup(); err != nil {
			return true, err
		}
		t.Shown = true
	case poker.KindHandEnd:
		if err := coup(); err != nil {
			return true, err
		}
		if t.InPot != 0 || r.Amount != t.Bank {
			return true, fmt.Errorf("coup %d ends with stakes of %d and a bank of %d, recorded %d", r.Hand, t.InPot, t.Bank, r.Amount)
		}
		if err := f.stacks(r.Stacks); err != nil {
			return true, err
		}
		if t.Shown {
			t.Meters.Showdowns++
		}
		t.LastHand, t.Hand, t.Stakes, t.Shown = t.Hand, 0, nil, false
		t.Banco, t.CardsPassed, t.Ponto = 0, nil, 0
		t.Meters.Hands++
	case poker.KindVoid:
		if err := coup(); err != nil {
			return true, err
		}
		back := map[int]int64{}
		for _, sh := range r.Shares {
			back[sh.Seat] += sh.Amount
		}
		for seat, stake := range t.Stakes {
			if back[seat] != stake {
				return true, fmt.Errorf("void of coup %d gives seat %d %d back, its stake is %d", r.Hand, seat, back[seat], stake)
			}
			p := f.bySeat(seat)
			if p == nil {
				return true, fmt.Errorf("void of coup %d: seat %d is not at the table", r.Hand, seat)
			}
			p.Stack += stake
			p.Totals.Wagered -= stake
			delete(back, seat)
		}
		if len(back) != 0 || r.Amount != 0 {
			return true, fmt.Errorf("void of coup %d gives back %v beyond the stakes", r.Hand, back)
		}
		t.InPot = 0
		t.LastHand, t.Hand, t.Stakes, t.Shown = t.Hand, 0, nil, false
		t.Banco, t.CardsPassed, t.Ponto = 0, nil, 0
		t.Meters.Voided++
	case poker.KindEnd:
		// The partida ends at its closing hour, between coups, its bank
		// given back and its sabot revealed (rule 107).
		switch {
		case t.Closing.IsZero():
			return true, fmt.Errorf("the partida ends with no closing hour told (rule 107)")
		case t.Hand != 0 || t.Bank != 0 || t.Garage != 0:
			return true, fmt.Errorf("the partida ends with coup %d in play, a bank of %d and a garage of %d", t.Hand, t.Bank, t.Garage)
		case !t.ShoeAt.IsZero():
			return true, fmt.Errorf("the partida ends with its sabot not revealed")
		}
		if err := f.stacks(r.Stacks); err != nil {
			return true, err
		}
		t.Over = true
	case chemin.KindAnnounce:
		if err := outside(); err != nil {
			return true, err
		}
		if chemin.Message(r.Action) == chemin.MsgAuction {
			t.Auctioned = true
		}
	case chemin.KindShoe:
		if t.Hand != 0 || r.Amount != t.Decks {
			return true, fmt.Errorf("a shoe of %d decks during coup %d; the definition's sabot has %d", r.Amount, t.Hand, t.Decks)
		}
		if !t.Closing.IsZero() {
			return true, fmt.Errorf("a sabot begins after the closing hour %s (rule 107)", t.Closing.Format(time.RFC3339))
		}
		t.ShoeAt, t.Dealt = r.At, 0
	case chemin.KindBurn, chemin.KindShoeEnd:
		if r.Amount != 0 {
			return true, fmt.Errorf("a %s of %d", r.Kind, r.Amount)
		}
		if r.Kind == chemin.KindBurn {
			t.Dealt += int64(len(r.Cards))
		}
		if r.Kind == chemin.KindShoeEnd {
			if err := wholeDecks(r.Cards, t.Decks); err != nil {
				return true, err
			}
			// Played on past the closing hour, the sabot ends at its
			// warning card, or when too few players are seated to go on
			// (rules 14, 15, 107): the close does not cut it short.
			if t.PlaysOn && t.Dealt < int64(len(r.Cards)-chemin.AfterWarning) && len(t.Players) >= t.MinPlayers {
				return true, fmt.Errorf("the sabot played on past the closing hour ends after %d of its %d cards, before its warning card (rule 107)", t.Dealt, len(r.Cards))
			}
			t.ShoeAt, t.Dealt = time.Time{}, 0
		}
	default:
		return true, fmt.Errorf("unknown record kind %q at a chemin de fer table", r.Kind)
	}
	return true, nil
}

// cheminDecision follows the decisions that move money later: the
// banker's choice to pay the cagnotte from outside (rule 47), a refusal
// that takes the hand from him, and the auction's offers (rules 82, 87).
func (t *Table) cheminDecision(r poker.Record) error {
	switch poker.ActionKind(r.Action) {
	case chemin.PayOutside:
		if r.To != 0 || t.Banker != 0 && t.Banker != r.Seat {
			return fmt.Errorf("seat %d pays the cagnotte of seat %d's bank from outside", r.Seat, t.Banker)
		}
		t.Outside = r.Seat
	case chemin.Refuse:
		if t.Outside == r.Seat {
			t.Outside = 0
		}
	case chemin.Take:
		// A passed hand at its level, by a player from the passer's right
		// or by the passer who keeps it (rules 78, 80); after an auction
		// nobody bid in, at the least bank (rule 85).
		want := t.Level
		if t.Auctioned {
			want = t.MinBank
		}
		if r.To != want || t.Banker != 0 {
			return fmt.Errorf("seat %d takes the hand at %d; it is offered at %d (rules 78, 80, 85)", r.Seat, r.To, want)
		}
		t.Taken = r.To
	case chemin.Bid, chemin.BidAssociated:
		if r.To <= 0 || poker.ActionKind(r.Action) == chemin.BidAssociated && r.To%2 != 0 {
			return fmt.Errorf("seat %d offers %d for the bank", r.Seat, r.To)
		}
		if t.Offers == nil {
			t.Offers, t.Partners = map[int]int64{}, map[int]int{}
		}
		t.Offers[r.Seat] = r.To
		if poker.ActionKind(r.Action) == chemin.BidAssociated {
			t.Partners[r.Seat] = 0
		}
	case chemin.PlayCards, chemin.PassCards:
		// Only the ponto the cards would go to, before they are dealt,
		// outside a bancô; the last of them may not pass them on, as
		// nobody is left to take them (rule 101).
		want := t.cardsTo()
		switch {
		case t.Hand == 0 || r.Hand != t.Hand || t.Ponto != 0 || t.Banco != 0 || r.Seat != want:
			return fmt.Errorf("seat %d plays or declines the cards of coup %d (in play %d, dealt to %d, bancô of %d); they would go to seat %d (rule 101)", r.Seat, r.Hand, t.Hand, t.Ponto, t.Banco, want)
		case poker.ActionKind(r.Action) == chemin.PassCards && len(t.Stakes)-len(t.CardsPassed) < 2:
			return fmt.Errorf("seat %d declines the cards of coup %d with nobody after him to take them (rule 101)", r.Seat, t.Hand)
		}
		if poker.ActionKind(r.Action) == chemin.PassCards {
			t.CardsPassed = append(t.CardsPassed, r.Seat)
		}
	case chemin.JoinBid:
		s := int(r.To)
		if q, open := t.Partners[s]; !open || q != 0 || t.Offers[s] <= 0 || s == r.Seat {
			return fmt.Errorf("seat %d joins seat %d's associated offer, which is none open", r.Seat, s)
		}
		t.Partners[s] = r.Seat
	}
	return nil
}

// cardsTo is the seat the coup's cards go to, computed apart from the
// engine: a bancô's; otherwise the highest stake, equal stakes to the
// nearest seat at the banker's right, passing over the pontos who declined
// them (rules 60, 61, 101). 0: no stake.
func (t *Table) cardsTo() int {
	if t.Banco != 0 {
		return t.Banco
	}
	// Seats from the banker's right: any modulus above the highest seat
	// keeps their ring order.
	const ring = 1 << 20
	key := func(s int) int { return ((s-t.Banker)%ring + ring) % ring }
	best := 0
	for s, amt := range t.Stakes {
		if amt <= 0 || slices.Contains(t.CardsPassed, s) {
			continue
		}
		if b := t.Stakes[best]; best == 0 || amt > b || amt == b && key(s) < key(best) {
			best = s
		}
	}
	return best
}

// auctionBank checks a bank stated after an auction's offers: the offer of
// its seat, alone, or half of an associated offer his partner makes up,
// the highest of the offers made. A bank with no offer before it (the
// hand taken at its level or at the minimum) is the engine's usual check.
func (t *Table) auctionBank(seat int, amount int64) error {
	offers, partners := t.Offers, t.Partners
	t.Offers, t.Partners = nil, nil
	var best int64
	for s, o := range offers {
		if q, assoc := partners[s]; assoc && q == 0 {
			continue // an associated offer nobody joined is no offer
		}
		best = max(best, o)
	}
	if best == 0 {
		return nil // the forced take at the minimum (rule 85)
	}
	if o, ok := offers[seat]; ok {
		q, assoc := partners[seat]
		switch {
		case !assoc && amount == o && o == best:
			return nil
		case assoc && q != 0 && 2*amount == o && o == best:
			t.AssocDue = q
			return nil
		}
	}
	for s, q := range partners { // he joined seat s's offer
		if q == seat && 2*amount == offers[s] && offers[s] == best {
			t.AssocDue = s
			return nil
		}
	}
	return fmt.Errorf("seat %d banks %d after an auction whose best offer is %d (rules 83, 87)", seat, amount, best)
}

// wholeDecks checks a sabot revealed is exactly decks standard decks
// (rules 7, 8), counted here apart from the engine.
func wholeDecks(order []cards.Card, decks int64) error {
	deck := cards.Standard52()
	if int64(len(order)) != decks*int64(len(deck)) {
		return fmt.Errorf("a sabot of %d cards revealed; %d decks have %d", len(order), decks, decks*int64(len(deck)))
	}
	n := map[cards.Card]int64{}
	for _, c := range order {
		n[c]++
	}
	for _, c := range deck {
		if n[c] != decks {
			return fmt.Errorf("a sabot revealed with %s %d times in %d decks", c, n[c], decks)
		}
	}
	return nil
}

// cheminPlayed counts the coup being dealt in each player's session totals
// (the coups he played, shown when he leaves), apart from the engine: the
// banker, his associate and every ponto with a stake in it.
func (f *stepFold) cheminPlayed(t *Table) {
	seats := map[int]bool{t.Banker: t.Banker != 0, t.Associate: t.Associate != 0}
	for seat, stake := range t.Stakes {
		if stake > 0 {
			seats[seat] = true
		}
	}
	for seat, in := range seats {
		if p := f.bySeat(seat); in && p != nil {
			p.Totals.Hands++
		}
	}
}

// closing folds a step whose event is the closing hour (rule 107): told
// once, when it has come, at a chemin de fer table. Whether the sabot in
// play goes on to its end is measured here from its commitment's time,
// apart from the engine: begun at least chemin.SabotBeforeClose before
// the hour, it does; otherwise one more coup may start if none is in
// play, none if one is.
func (f *stepFold) closing() error {
	t, ev := f.t, f.x.Event
	switch {
	case !t.isChemin():
		return fmt.Errorf("a closing hour at a %s table, which keeps none", t.Game)
	case !t.Closing.IsZero():
		return fmt.Errorf("the closing hour %s, told already at %s", ev.Hour.Format(time.RFC3339), t.Closing.Format(time.RFC3339))
	case t.Over:
		return fmt.Errorf("a closing hour after the partida's end")
	case ev.Hour.IsZero() || ev.Hour.After(ev.At):
		return fmt.Errorf("the closing hour %s told at %s, before it came", ev.Hour.Format(time.RFC3339), ev.At.Format(time.RFC3339))
	}
	t.Closing = ev.Hour
	t.PlaysOn = !t.ShoeAt.IsZero() && !t.ShoeAt.After(ev.Hour.Add(-chemin.SabotBeforeClose))
	t.CoupsLeft = 0
	if t.Hand == 0 {
		t.CoupsLeft = 1
	}
	return nil
}
