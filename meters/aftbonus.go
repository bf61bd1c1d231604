package meters

import (
	"fmt"

	"github.com/openegm/cabinet/aft"
)

// AFT bonus jackpots and transaction receipts.
//
// A bonus jackpot win (AFT type 11) is a win, as every bonus award is
// (SAS 6.02 8.5: "considered game win"; bonus awards are "metered in
// either the Total Machine Paid External Bonus Win meter or Total
// Attendant Paid External Bonus Win meter, depending on the payment
// method. They are also added to the Total Coin Out or Total Jackpot
// meter as appropriate"). Below the handpay limit it goes to the credit
// meter like a bonus coin-out win (0x1E machine-paid external bonus, 0x01
// coin out); at or above it the machine locks up for a handpay of kind
// HandpayBonus, and the attendant's reset meters it as 0x21
// attendant-paid external bonus and 0x02 total jackpot (with 0x23 total
// hand paid). Either way 0x22 total won counts it when it is won, as a
// game's win is counted at its end. The AFT fold meters both in its bonus
// transfer meters (AE cashable, B0 non-restricted), so
//
//	AE + B0 = 0x1E + 0x21 + the bonus jackpots owed or pending by hand
//
// SAS's legacy bonus (long poll 8A, exception 7C, its deductible,
// non-deductible and wager-match meters read with 9A) is another
// mechanism, which the cabinet does not offer: an AFT bonus moves none of
// its meters and raises no 7C.
//
// A receipt asked for with a transfer is printed after the transfer's
// record: the AFTTransfer says it is due (receipt status pending, with
// the host's receipt data), AFTReceipt is the printer's confirmation
// (status printed, in the history the host reads back), and AFTReceiptText
// keeps what the host set with long poll 0x75 for every receipt.

// The record types of this file (35–39 are AFT's bonus jackpots and
// receipts).
const (
	TypeAFTReceipt     Type = 35
	TypeAFTReceiptText Type = 36
)

func init() {
	typeNames[TypeAFTReceipt] = "AFT receipt printed"
	typeNames[TypeAFTReceiptText] = "AFT receipt texts"
}

// AFTReceipt: the transaction receipt of a transfer came out of the
// printer. Reprint: it was printed again after a power loss.
type AFTReceipt struct {
	At      int64       `json:"at"`
	Receipt aft.Receipt `json:"receipt"`
	Reprint bool        `json:"reprint,omitempty"`
}

// AFTReceiptText is a long poll 0x75: texts for every receipt.
type AFTReceiptText struct {
	At   int64              `json:"at"`
	Text aft.ReceiptTextSet `json:"text"`
}

func (AFTReceipt) Type() Type     { return TypeAFTReceipt }
func (AFTReceiptText) Type() Type { return TypeAFTReceiptText }

func (r AFTReceipt) validate() error {
	if !aft.ValidID(r.Receipt.ID) || r.Receipt.Position == 0 || r.Receipt.Position > aft.MaxHistory {
		return fmt.Errorf("AFT receipt of transfer %q at position %d", r.Receipt.ID, r.Receipt.Position)
	}
	return nil
}

func (r AFTReceiptText) validate() error { return r.Text.Check() }

// validReceipt checks a transfer's receipt status and data: a receipt is
// due only when the host asked for one, for a transfer of money (not a
// bonus) that moved some, with receipt data SAS can print.
func validReceipt(t aft.Transfer) error {
	switch {
	case t.ReceiptStatus == aft.ReceiptNone && len(t.ReceiptData) == 0:
		return nil
	case t.ReceiptStatus == aft.ReceiptNone:
		return fmt.Errorf("AFT transfer %q with receipt data and no receipt", t.ID)
	case t.ReceiptStatus != aft.ReceiptPending:
		return fmt.Errorf("AFT transfer %q with receipt status %02X: a receipt is printed after its record", t.ID, byte(t.ReceiptStatus))
	case t.Flags&aft.FlagReceipt == 0:
		return fmt.Errorf("AFT transfer %q with a receipt the host did not ask for", t.ID)
	case t.Type.Bonus() || t.Amounts.Total() == 0:
		return fmt.Errorf("AFT transfer %q of type %v moving %d cents: no receipt", t.ID, t.Type, t.Amounts.Total())
	}
	if _, err := aft.ParseReceiptData(t.ReceiptData); err != nil {
		return fmt.Errorf("AFT transfer %q: %w", t.ID, err)
	}
	return nil
}

// bonusJackpot moves a bonus jackpot win: to the credit meter as a
// machine-paid bonus, or owed by handpay (the HandpayPending that follows
// is of kind HandpayBonus and names the transaction).
func (s *State) bonusJackpot(t aft.Transfer) {
	m := &s.Meters
	won := t.Amounts.Total()
	m[TotalWon] += won
	if !t.Handpay {
		m[CoinOut] += won
		m[MachinePaidBonus] += won
		return
	}
	s.owe(HandpayPending{Kind: HandpayBonus, Cents: won, Ref: t.ID})
}

// owe records a win the machine will not pay to credits: the handpay
// lockout that must follow, exactly (Owed), so that a power loss before
// it is resumed with it.
func (s *State) owe(h HandpayPending) {
	h.At = 0
	s.OwedHandpay, s.Owed = h.Cents, &h
}

// takeOwed checks a lockout against the win owed by handpay and clears
// it. A state folded before Owed existed knows only the amount.
func (s *State) takeOwed(r HandpayPending) error {
	if s.OwedHandpay == 0 || r.Cents != s.OwedHandpay {
		return fmt.Errorf("%s handpay of %d cents, but the win owed by handpay is %d", r.Kind, r.Cents, s.OwedHandpay)
	}
	if o := s.Owed; o != nil && (o.Kind != r.Kind || o.Game != r.Game || o.Level != r.Level || o.Ref != r.Ref) {
		return fmt.Errorf("%s handpay (game %d, level %d, ref %q) for a win owed as %s (game %d, level %d, ref %q)",
			r.Kind, r.Game, r.Level, r.Ref, o.Kind, o.Game, o.Level, o.Ref)
	}
	s.OwedHandpay, s.Owed = 0, nil
	return nil
}

// OwedLockout is the handpay lockout the ledger owes (a win committed and
// its lockout not), ok false when none is. A state from before Owed was
// kept knows only the amount: the lockout of the last game's win.
func (s *State) OwedLockout() (HandpayPending, bool) {
	switch {
	case s.OwedHandpay == 0 || s.Handpay != nil:
		return HandpayPending{}, false
	case s.Owed != nil:
		return *s.Owed, true
	}
	h := HandpayPending{Kind: HandpayWin, Cents: s.OwedHandpay}
	if n := len(s.Games); n > 0 {
		h.Game = s.Games[n-1].Start.Game
	}
	return h, true
}

// byHand are the wins a handpay still owes (owed, or locked up and not
// reset), all of them and the AFT bonus jackpots among them.
func (s *State) byHand() (wins, bonus int64) {
	wins = s.OwedHandpay
	if o := s.Owed; o != nil && o.Kind == HandpayBonus {
		bonus += s.OwedHandpay
	}
	if h := s.Handpay; h != nil && h.Kind != HandpayCancelled {
		wins += h.Cents
		if h.Kind == HandpayBonus {
			bonus += h.Cents
		}
	}
	return wins, bonus
}

// checkWins is how the win meters add up (SAS's definitions): total
// jackpot (0x02) is the attendant-paid paytable, progressive and external
// bonus wins (0x1F + 0x20 + 0x21); total hand paid (0x23) is that and the
// hand-paid cancelled credits (0x03); total won (0x22) is coin out and
// total jackpot, with the wins a handpay still owes; the AFT bonus
// meters count every bonus the machine and the attendant paid or owe.
func (s *State) checkWins() error {
	m := &s.Meters
	wins, bonus := s.byHand()
	switch {
	case m[HandpaidWins] != m[AttendantPaidPaytable]+m[AttendantPaidProgressive]+m[AttendantPaidBonus]:
		return fmt.Errorf("total jackpot %d ≠ attendant-paid paytable %d + progressive %d + external bonus %d",
			m[HandpaidWins], m[AttendantPaidPaytable], m[AttendantPaidProgressive], m[AttendantPaidBonus])
	case m[TotalHandPaid] != m[HandpaidWins]+m[HandpaidCancelled]:
		return fmt.Errorf("total hand paid %d ≠ total jackpot %d + hand-paid cancelled credits %d", m[TotalHandPaid], m[HandpaidWins], m[HandpaidCancelled])
	case m[TotalWon] != m[CoinOut]+m[HandpaidWins]+wins:
		return fmt.Errorf("total won %d ≠ coin out %d + total jackpot %d + wins owed by handpay %d", m[TotalWon], m[CoinOut], m[HandpaidWins], wins)
	}
	if in := s.AFT.Meters[aft.MeterBonusCashableIn] + s.AFT.Meters[aft.MeterBonusNonRestrictedIn]; in != m[MachinePaidBonus]+m[AttendantPaidBonus]+bonus {
		return fmt.Errorf("AFT bonus meters (AE + B0) %d ≠ machine-paid external bonus %d + attendant-paid %d + owed by handpay %d",
			in, m[MachinePaidBonus], m[AttendantPaidBonus], bonus)
	}
	return nil
}
