package chemin

import (
	"slices"
	"time"

	"github.com/openegm/cabinet/cards"
	"github.com/openegm/cabinet/poker"
)

// View is what one player (or a spectator: viewer "") may see of the table.
type View struct {
	Coup              uint64
	Phase             Phase
	Banker, Associate int
	Bank, Garage      int64
	Wins              int // the banker's winning coups with this hand
	Ponto             int // the seat the cards went to
	// The cards the viewer may see: the ponto's own to him, his third card
	// to all (rule 68), the banker's once turned (rule 67), all at the end.
	PontoCards, BankerCards []cards.Card
	Stakes                  []poker.Share // in priority order
	Seats                   []poker.SeatView
	ToAct                   int // the seat asked (0: nobody, or an auction)
	Deadline                time.Time
	Choices                 []Choice // the viewer's
	Bidders                 []int    // the auction's bidders who have not answered yet
	Level                   int64    // a passed hand's level
	Shoe                    string   // the digest of the sabot in play
	CardsLeft               int
	LastCoup                bool
	// The closing hour told (zero: not yet); the coup in play, or the
	// next, is the partida's last («Último golpe»); play goes on to the
	// sabot's end past the hour (rule 107).
	Closing   time.Time
	FinalCoup bool
	PlaysOn   bool
}

// Choice is one decision the viewer may send, as an Act of its kind; To
// runs from Min to Max by Step where it has an amount (Max 0: none).
type Choice struct {
	Kind           poker.ActionKind
	Min, Max, Step int64
}

// View builds the view of the table for viewer.
func (t *Table) View(viewer string) View {
	v := View{Coup: t.HandNo, Phase: t.phase, Banker: t.banker, Associate: t.associate, Bank: t.bank, Garage: t.garage,
		Wins: t.wins, Ponto: t.ponto, Level: t.level, Closing: t.closeAt, FinalCoup: t.fin || t.lastDue, PlaysOn: t.playsOn}
	if t.sab != nil {
		v.Shoe, v.CardsLeft, v.LastCoup = t.sab.digest, t.sab.left(), t.last
	}
	me := t.Seats.Find(viewer)
	mySeat := 0
	if me != nil {
		mySeat = me.Seat
	}
	if t.pc != nil {
		switch {
		case t.shownP || mySeat == t.ponto:
			v.PontoCards = slices.Clone(t.pc)
		case len(t.pc) == 3:
			v.PontoCards = t.pc[2:3:3]
		}
		if t.shownB { // turned once the ponto has spoken, for all (rules 64, 67)
			v.BankerCards = slices.Clone(t.bc)
		}
	}
	for _, s := range t.stakes {
		v.Stakes = append(v.Stakes, poker.Share{Seat: s.seat, Amount: s.amount})
	}
	for _, p := range t.Seats.Players() {
		v.Seats = append(v.Seats, poker.SeatView{Seat: p.Seat, Player: p.ID, Stack: p.Stack, Bet: t.stakeOf(p.Seat),
			Resting: p.Resting, InHand: t.inCoup() && (p.Seat == t.banker || t.stakeOf(p.Seat) > 0)})
	}
	if t.Decision != nil {
		v.ToAct, v.Deadline = t.Decision.Seat, t.Decision.Deadline
	}
	if t.phase == Auction {
		for _, s := range t.bidders {
			if !t.answers[s] {
				v.Bidders = append(v.Bidders, s)
			}
		}
	}
	if me != nil {
		v.Choices = t.choices(me)
	}
	return v
}

// choices are the decisions open to p now.
func (t *Table) choices(p *poker.Player) []Choice {
	r := t.rules
	if t.phase == Stake && p.Seat != t.banker && t.offerAssoc == 0 && p.Stack >= r.MinBank {
		return []Choice{{Kind: Associate}}
	}
	if t.phase == Auction {
		if !slices.Contains(t.bidders, p.Seat) || t.answers[p.Seat] {
			return nil
		}
		c := []Choice{{Kind: NoBid}}
		if p.Stack >= r.AuctionBase {
			top := r.AuctionBase + (p.Stack-r.AuctionBase)/r.AuctionStep*r.AuctionStep
			c = append(c, Choice{Kind: Bid, Min: r.AuctionBase, Max: top, Step: r.AuctionStep})
		}
		// Rule 87: an offer with another bidder, half each (from the
		// base by the step, in whole cents each: the steps that are even),
		// or joining one.
		if r.AuctionBase%2 == 0 && r.AuctionStep%2 == 0 && 2*p.Stack >= r.AuctionBase {
			top := r.AuctionBase + (2*p.Stack-r.AuctionBase)/r.AuctionStep*r.AuctionStep
			c = append(c, Choice{Kind: BidAssociated, Min: r.AuctionBase, Max: top, Step: r.AuctionStep})
		}
		for _, s := range t.bidders {
			if q, open := t.partner[s]; open && q == 0 && s != p.Seat && t.bids[s] > 0 && t.bids[s]/2 <= p.Stack { // not the offer of one who left
				c = append(c, Choice{Kind: JoinBid, Min: int64(s), Max: int64(s), Step: 1})
			}
		}
		return c
	}
	if t.Decision == nil || t.Decision.Seat != p.Seat {
		return nil
	}
	outside := func(c []Choice) []Choice { // rule 47
		if p.Seat == t.banker && !t.outside {
			c = append(c, Choice{Kind: PayOutside})
		}
		return c
	}
	switch t.phase {
	case Stake:
		c := outside([]Choice{{Kind: Refuse}})
		if p.Stack >= r.MinBank {
			c = append(c, Choice{Kind: Bank, Min: r.MinBank, Max: p.Stack, Step: 1})
		}
		if a := t.Seats.At(t.offerAssoc); a != nil {
			if m := 2 * min(p.Stack, a.Stack); m >= 2*r.MinBank { // the banker's half a bank (rules 31, 35)
				c = append(c, Choice{Kind: BankAssociated, Min: 2 * r.MinBank, Max: m, Step: 2})
			}
		}
		return c
	case BancoRound:
		c := []Choice{{Kind: NoBet}}
		if p.Seat == t.noBanco && t.HandNo == t.noBancoAt || t.jumps[p.Seat] != "" {
			return c // rules 89, 92
		}
		if p.Stack >= t.bank {
			k := Banco
			if p.Seat == t.suivi && t.asked == 0 {
				k = Suivi
			}
			c = append(c, Choice{Kind: k})
		}
		if half := (t.bank + 1) / 2; t.mesa == 0 && p.Stack >= half && !(p.Seat == t.mesaPrio && t.mesaHeld()) { // rule 57
			c = append(c, Choice{Kind: BancoMesa, Min: half, Max: min(t.bank, p.Stack), Step: 1})
		}
		return c
	case BetRound:
		c := []Choice{{Kind: NoBet}}
		rest := t.bank - t.staked()
		if top := min(rest, p.Stack); top >= r.MinBet || top == rest {
			c = append(c, Choice{Kind: Bet, Min: min(r.MinBet, rest), Max: top, Step: r.MinBet})
		}
		return c
	case Cards:
		return []Choice{{Kind: PlayCards}, {Kind: PassCards}}
	case PontoTurn, BankerTurn:
		return []Choice{{Kind: Draw}, {Kind: Stand}}
	case AfterCoup:
		c := outside([]Choice{{Kind: Continue}, {Kind: Pass}})
		if t.mayGarage() && t.bank-t.bank/2 >= r.MinBank {
			c = append(c, Choice{Kind: SetGarage})
		}
		if t.mayReduce() {
			c = append(c, Choice{Kind: Reduce})
		}
		if t.stays && t.bank-t.bank/2 >= r.MinBank {
			c = append(c, Choice{Kind: Halve})
		}
		return c
	case Offered:
		c := []Choice{{Kind: Decline}}
		if p.Stack >= t.level {
			c = append(c, Choice{Kind: Take})
		}
		return c
	case Forced:
		c := []Choice{{Kind: Refuse}}
		if p.Stack >= r.MinBank {
			c = append(c, Choice{Kind: Take})
		}
		return c
	}
	return nil
}
