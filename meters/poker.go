package meters

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"sync"
)

// A seat at a poker table of the casino's table server (cmd/tablesrv).
// The player's credits move to the table (a buy-in, a re-buy) and back (a
// cash-out) in two steps each, so that a power loss anywhere between the
// cabinet and the server neither loses nor doubles a cent:
//
//  1. PokerTransfer is committed before the server is asked. A buy-in or
//     re-buy takes its cents off the credit meter at once: they are in
//     transit, counted as money out until the server answers. A cash-out
//     moves nothing yet.
//  2. The server's definitive answer, committed once: PokerDone (a buy-in
//     the server holds: money to the table; a cash-out paid: its amount,
//     as the server's ledger gives it, back on the credit meter) or
//     PokerRefused (a buy-in refused: its cents back on the credit meter;
//     a cash-out refused: nothing moved).
//
// Every transfer carries an ID that the server's ledger records too, so
// either ledger proves what moved. A buy-in's ID is made from the
// machine's name, the time it was asked and the ledger's count of poker
// transfers (PokerTransferID), which only grows, a RAM clear included; a
// cash-out's is its seat's buy-in ID behind "out:" (the ID the server
// itself gives a seat's leave), so however the leave is asked it is one
// transfer.
//
// Record types 50-59 are this file's.
const (
	TypePokerTransfer Type = 50
	TypePokerDone     Type = 51
	TypePokerRefused  Type = 52
)

func init() {
	typeNames[TypePokerTransfer] = "poker table transfer asked"
	typeNames[TypePokerDone] = "poker table transfer done"
	typeNames[TypePokerRefused] = "poker table transfer refused"
}

// Kinds of poker transfer (the table server's names).
const (
	PokerBuyIn   = "buy_in"
	PokerRebuy   = "rebuy"
	PokerCashOut = "cash_out"
)

// PokerTransfer asks the table server for a transfer. Source and Player
// are as the server knows them (the cabinet's identity, its player at the
// table); Cents is a buy-in's or re-buy's amount, 0 for a cash-out (the
// server pays the whole stack). Seq numbers buy-ins and re-buys.
type PokerTransfer struct {
	At     int64  `json:"at"`
	ID     string `json:"id"`
	Seq    uint64 `json:"seq,omitempty"`
	Kind   string `json:"kind"`
	Table  string `json:"table"`
	Source string `json:"source"`
	Player string `json:"player"`
	Cents  int64  `json:"cents,omitempty"`
	// AuthorizedBy names the chief of the game who lets the player leave
	// a synthetic-poker partida with his chips (rule 61), for a cash-out.
	AuthorizedBy string `json:"authorized_by,omitempty"`
}

// PokerDone is the server's "done" for the open transfer: a buy-in's or
// re-buy's Cents (what was asked), or the amount a cash-out paid back
// (the player's stack when he left: more or less than he bought in).
type PokerDone struct {
	At    int64  `json:"at"`
	ID    string `json:"id"`
	Cents int64  `json:"cents"`
}

// PokerRefused is the server's definitive refusal of the open transfer,
// with its reason.
type PokerRefused struct {
	At  int64  `json:"at"`
	ID  string `json:"id"`
	Why string `json:"why"`
}

func (PokerTransfer) Type() Type { return TypePokerTransfer }
func (PokerDone) Type() Type     { return TypePokerDone }
func (PokerRefused) Type() Type  { return TypePokerRefused }

// The table server's rules for IDs and names (poker/tableserver): a
// transfer ID or source of 1-100 letters, digits or . _ : @ -, a player
// of 1-32 letters, digits, spaces or . _ -. The player's, with Unicode's
// letter and number classes, takes 7-14 ms to compile: compiled when a
// poker record first needs it, not at every start of every program that
// folds the meters (the cabinet's cold start, issue 26).
var (
	pokerIDPattern     = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9._:@-]{0,99}$`)
	pokerPlayerPattern = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`^[\p{L}\p{N}][\p{L}\p{N} ._-]{0,31}$`)
	})
)

// PokerName is a machine's name as the table server takes it for a
// source, a player (up to 32 of its letters) and the first part of a
// transfer ID: ASCII letters, digits and . _ -, the others as _, starting
// with a letter or digit, at most 40 characters.
func PokerName(machine string) string {
	name := strings.Map(func(r rune) rune {
		if r < 128 && (r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '.' || r == '_' || r == '-') {
			return r
		}
		return '_'
	}, machine)
	if name == "" || !(name[0] >= 'a' && name[0] <= 'z' || name[0] >= 'A' && name[0] <= 'Z' || name[0] >= '0' && name[0] <= '9') {
		name = "m" + name
	}
	return name[:min(len(name), 40)]
}

// PokerTransferID is the ID of the buy-in or re-buy numbered seq, asked by
// machine at at (unix ns): its PokerName (without ':', so the ID has
// three parts), the time in base 36, the number.
func PokerTransferID(machine string, at int64, seq uint64) string {
	return PokerName(machine) + ":" + strconv.FormatInt(at, 36) + ":" + strconv.FormatUint(seq, 10)
}

// PokerCashOutID is the ID of a seat's cash-out, attempt n (1: the first;
// another only after the server refused the one before).
func PokerCashOutID(buyIn string, n int) string {
	if n <= 1 {
		return "out:" + buyIn
	}
	return "out" + strconv.Itoa(n) + ":" + buyIn
}

func (r PokerTransfer) validate() error {
	switch {
	case !pokerIDPattern.MatchString(r.ID):
		return fmt.Errorf("poker transfer ID %q: 1-100 letters, digits or . _ : @ -", r.ID)
	case r.Table == "" || !pokerIDPattern.MatchString(r.Source):
		return fmt.Errorf("poker transfer %s: table %q, source %q", r.ID, r.Table, r.Source)
	case !pokerPlayerPattern().MatchString(r.Player):
		return fmt.Errorf("poker transfer %s: player %q is not a name the table server takes", r.ID, r.Player)
	}
	switch r.Kind {
	case PokerBuyIn, PokerRebuy:
		if r.AuthorizedBy != "" {
			return fmt.Errorf("poker %s %s authorized by %q: only a cash-out is", r.Kind, r.ID, r.AuthorizedBy)
		}
		if parts := strings.Split(r.ID, ":"); len(parts) != 3 || parts[2] != strconv.FormatUint(r.Seq, 10) || r.Seq == 0 {
			return fmt.Errorf("poker %s %s: the ID does not end in its number %d (PokerTransferID)", r.Kind, r.ID, r.Seq)
		}
		return positive("cents", r.Cents)
	case PokerCashOut:
		if r.Cents != 0 || r.Seq != 0 || (r.AuthorizedBy != "" && !pokerPlayerPattern().MatchString(r.AuthorizedBy)) {
			return fmt.Errorf("poker cash-out %s with %d cents, number %d, authorized by %q: the server pays the whole stack", r.ID, r.Cents, r.Seq, r.AuthorizedBy)
		}
		return nil
	}
	return fmt.Errorf("poker transfer %s of kind %q: want %s, %s or %s", r.ID, r.Kind, PokerBuyIn, PokerRebuy, PokerCashOut)
}

func (r PokerDone) validate() error {
	if r.ID == "" {
		return fmt.Errorf("poker transfer done without its ID")
	}
	return nonNegative("cents", r.Cents)
}

func (r PokerRefused) validate() error {
	if r.ID == "" || r.Why == "" {
		return fmt.Errorf("poker transfer refused without its ID or a reason")
	}
	return nil
}

// PokerSeat is the fold of this file's records: the seat the player has
// (Table "" when none), the money the ledger holds as at the table, the
// transfer asked and not yet answered.
type PokerSeat struct {
	Table  string `json:"table,omitempty"`
	Source string `json:"source,omitempty"`
	Player string `json:"player,omitempty"`
	BuyIn  string `json:"buy_in,omitempty"` // the transfer that seated him
	// AtTable is what went to the table for this seat (buy-in and
	// re-buys), cents: what the player risks there, not what he holds.
	AtTable int64 `json:"at_table,omitempty"`
	// CashOuts counts the seat's cash-outs asked (the next one's ID).
	CashOuts int `json:"cash_outs,omitempty"`
	// Open is the transfer asked and not yet answered.
	Open *PokerTransfer `json:"open,omitempty"`
	// Refused is the last transfer's refusal (nil once another is asked).
	Refused *PokerRefused `json:"refused,omitempty"`
	// Seq counts the buy-ins and re-buys ever asked: it survives a RAM
	// clear, so no ID is made twice.
	Seq uint64 `json:"seq,omitempty"`
}

// Busy says what of a seat is open ("" when nothing): the player's money
// at a table, or a transfer under way.
func (p *PokerSeat) Busy() string {
	switch {
	case p.Open != nil:
		return fmt.Sprintf("poker %s %s to table %s is not answered yet", p.Open.Kind, p.Open.ID, p.Open.Table)
	case p.Table != "":
		return "the player has money at poker table " + p.Table + " (he leaves the table first)"
	}
	return ""
}

// PokerInTransit is a buy-in's or re-buy's cents taken off the credit
// meter whose answer has not come: money out until then.
func (s *State) PokerInTransit() int64 {
	if o := s.Poker.Open; o != nil && o.Kind != PokerCashOut {
		return o.Cents
	}
	return 0
}

// applyPoker folds this file's records. It replaces what it changes (the
// pointers are shared with the previous state).
func (s *State) applyPoker(r Record) error {
	p := &s.Poker
	m := &s.Meters
	switch r := r.(type) {
	case PokerTransfer:
		if s.Test.Active {
			return fmt.Errorf("poker %s refused: the machine is in test mode", r.Kind)
		}
		if p.Open != nil {
			return fmt.Errorf("poker %s %s while %s %s is not answered", r.Kind, r.ID, p.Open.Kind, p.Open.ID)
		}
		switch r.Kind {
		case PokerBuyIn, PokerRebuy:
			if r.Kind == PokerBuyIn && p.Table != "" {
				return fmt.Errorf("poker buy-in %s at %s while seated at %s", r.ID, r.Table, p.Table)
			}
			if r.Kind == PokerRebuy && (p.Table != r.Table || p.Source != r.Source || p.Player != r.Player) {
				return fmt.Errorf("poker re-buy %s at %s for %q, but the seat is %q at %q", r.ID, r.Table, r.Player, p.Player, p.Table)
			}
			if r.Seq != p.Seq+1 {
				return fmt.Errorf("poker %s %s numbered %d after %d (each number once)", r.Kind, r.ID, r.Seq, p.Seq)
			}
			// Idle as for a game or a cash-out, the seat a re-buy is for
			// apart (checked above, and the open transfer).
			apart := *s
			apart.Poker = PokerSeat{}
			if err := apart.idle("transfer " + r.ID + " to a poker table"); err != nil {
				return err
			}
			if s.TITO.Requested != nil || len(s.PendingHits) > 0 {
				return fmt.Errorf("cannot transfer %s to a poker table: a ticket waits for its number or a jackpot hit for its award", r.ID)
			}
			// Money for the table leaves as a cash-out does: never
			// restricted promotional credits (the table pays back money),
			// the non-restricted ones metered as cashed out (a refused
			// buy-in gives the amount back as cashable credit, which they
			// would have been at any cash-out).
			if err := s.redeem(fmt.Sprintf("poker %s %s", r.Kind, r.ID), r.Cents); err != nil {
				return err
			}
			m[Credits] -= r.Cents
			p.Seq = r.Seq
		case PokerCashOut:
			if p.Table != r.Table || p.Source != r.Source || p.Player != r.Player {
				return fmt.Errorf("poker cash-out %s at %s for %q, but the seat is %q at %q", r.ID, r.Table, r.Player, p.Player, p.Table)
			}
			if want := PokerCashOutID(p.BuyIn, p.CashOuts+1); r.ID != want {
				return fmt.Errorf("poker cash-out %s: the seat's cash-out is %s", r.ID, want)
			}
			p.CashOuts++
		}
		t := r
		p.Open, p.Refused = &t, nil

	case PokerDone:
		o := p.Open
		if o == nil || o.ID != r.ID {
			return fmt.Errorf("poker transfer %s done, but it is not the transfer asked (%s): an answer is recorded once, for a transfer asked", r.ID, p.describeOpen())
		}
		switch o.Kind {
		case PokerBuyIn, PokerRebuy:
			if r.Cents != o.Cents {
				return fmt.Errorf("poker %s %s done for %d cents, %d were asked", o.Kind, o.ID, r.Cents, o.Cents)
			}
			if o.Kind == PokerBuyIn {
				*p = PokerSeat{Table: o.Table, Source: o.Source, Player: o.Player, BuyIn: o.ID, Seq: p.Seq}
			}
			p.AtTable += r.Cents
			m[PokerToTables] += r.Cents
		case PokerCashOut:
			m[Credits] += r.Cents
			m[PokerFromTables] += r.Cents
			*p = PokerSeat{Seq: p.Seq}
		}
		p.Open = nil

	case PokerRefused:
		o := p.Open
		if o == nil || o.ID != r.ID {
			return fmt.Errorf("poker transfer %s refused, but it is not the transfer asked (%s)", r.ID, p.describeOpen())
		}
		if o.Kind != PokerCashOut {
			m[Credits] += o.Cents
		}
		refused := r
		p.Open, p.Refused = nil, &refused
	}
	return nil
}

func (p *PokerSeat) describeOpen() string {
	if p.Open == nil {
		return "none is"
	}
	return p.Open.Kind + " " + p.Open.ID + " is"
}

// check is the seat's share of State.Check.
func (p *PokerSeat) check() error {
	if p.AtTable < 0 || (p.Table == "") != (p.BuyIn == "") || (p.Table == "" && p.AtTable != 0) {
		return fmt.Errorf("poker seat at %q by %q with %d cents at the table", p.Table, p.BuyIn, p.AtTable)
	}
	return nil
}

// pokerRecord is the empty record of a type of this file, to decode into.
func pokerRecord(t Type) Record {
	switch t {
	case TypePokerTransfer:
		return &PokerTransfer{}
	case TypePokerDone:
		return &PokerDone{}
	case TypePokerRefused:
		return &PokerRefused{}
	}
	return nil
}

// pokerValue is the decoded record as a value.
func pokerValue(r Record) Record {
	switch x := r.(type) {
	case *PokerTransfer:
		return *x
	case *PokerDone:
		return *x
	case *PokerRefused:
		return *x
	}
	return nil
}
